"""The dependency ranges in pyproject.toml: the numeric stack (numpy, OpenCV) is bounded above so
a new major version does not land untested, admits what the Raspberry Pi install uses (apt's
numpy 1.24 on bookworm with OpenCV below 4.12, OpenCV 4.6 from apt) and what the figures were
measured with (numpy 2.4, OpenCV 5.0); the installed versions fit; ``make test`` runs the suite
in parallel with pytest-xdist, which the test extra installs."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _requirement(name: str, group: list[str]) -> Requirement:
    return next(r for r in map(Requirement, group) if r.name == name)


def test_numeric_stack_is_bounded_and_admits_the_pi_and_the_measured_versions() -> None:
    deps = PROJECT["dependencies"]
    numpy, cv = _requirement("numpy", deps), _requirement("opencv-python-headless", deps)
    for req in (numpy, cv):
        assert any(s.operator == "<" for s in req.specifier), f"{req} has no upper bound"
        assert any(s.operator == ">=" for s in req.specifier), f"{req} has no lower bound"
    assert all(v in numpy.specifier for v in ("1.24.2", "2.2.4", "2.4.6"))
    assert "3.0.0" not in numpy.specifier
    assert all(v in cv.specifier for v in ("4.6.0.66", "4.11.0.86", "5.0.0.93"))
    assert "4.5.5.64" not in cv.specifier and "6.0.0.0" not in cv.specifier


def test_installed_versions_fit_the_ranges() -> None:
    for dep in PROJECT["dependencies"]:
        req = Requirement(dep)
        assert req.specifier.contains(Version(metadata.version(req.name)), prereleases=True), \
            f"{req.name} {metadata.version(req.name)} is outside {req}"


def test_make_test_runs_the_suite_on_every_core() -> None:
    assert _requirement("pytest-xdist", PROJECT["optional-dependencies"]["test"])
    make = (ROOT / "Makefile").read_text()
    recipe = make.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert re.search(r"-m pytest -n \$\(WORKERS\) --dist loadfile", recipe)
    assert re.search(r"^WORKERS \?= auto$", make, re.M)
