# The two commands: `make run` (set up and run the app) and `make test` (set up and run the tests).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

run: $(BIN)/.installed
	$(BIN)/gammoncam plays --demo

test: $(BIN)/.installed
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

bench: $(BIN)/.installed
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info
