# The two commands: `make run` (set up and run the app) and `make test` (set up and run the tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

# Debian packages the tests use: GNU Backgammon's program (it loads SGF; the PyPI build cannot)
# and Chromium for the browser tests (Playwright drives it; it never downloads browsers).
APT_PACKAGES := gnubg chromium shellcheck systemd

.PHONY: run test bench clean system-deps

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(BIN)/.installed
	$(BIN)/gammoncam demo

system-deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# The suite on every core (pytest-xdist); each test file runs whole in one worker, in order, so
# a module's fixtures are made once and its scenes render as they do alone (tests/conftest.py).
# `make test WORKERS=0` runs it in one process.
WORKERS ?= auto

test: $(BIN)/.installed system-deps
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n $(WORKERS) --dist loadfile

bench: $(BIN)/.installed
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info
