"""The reader runs numpy's BLAS on one thread unless the user says otherwise.

See vision/__init__.py for why.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _threads_after_import(module: str, env_value: str | None) -> str:
    blas = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")
    env = {k: v for k, v in os.environ.items() if k not in blas}
    if env_value is not None:
        env["OPENBLAS_NUM_THREADS"] = env_value
    code = f"import {module}, os; print(os.environ.get('OPENBLAS_NUM_THREADS'))"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True,
                         text=True, timeout=60, check=True)
    return out.stdout.strip()


@pytest.mark.parametrize("module", ["vision", "gammoncam"])
def test_one_blas_thread_by_default(module: str) -> None:
    assert _threads_after_import(module, None) == "1"


def test_an_explicit_setting_wins() -> None:
    assert _threads_after_import("vision", "3") == "3"
