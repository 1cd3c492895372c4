"""The board finder finds the same quad whatever numpy's SIMD level: numpy's default argsort
orders ties by its SIMD path, and on an AVX-512 machine the disc detector once kept other pixels
of a plateau of equal votes than on an AVX2 machine (a real photo's quad 17 px apart, ten tests
that passed on one machine failing on the other). Every sort whose ties matter is stable now;
this runs the finder in two processes, one with every SIMD extension numpy dispatches to on this
CPU switched off (``NPY_DISABLE_CPU_FEATURES``), and compares the answers bit for bit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT.parent / "shared" / "real"

_SCRIPT = """
import json, sys
import cv2, numpy as np
from calibration.discs import detect, gradients
from calibration.find import find_board
from tests.scenes.dataset import random_state
from tests.scenes.scene import Scene, random_setup

out = {}
setup = random_setup(700024)
img, _ = Scene(setup).render(random_state(setup, 70002400))
imgs = {"render": img}
if sys.argv[1]:
    imgs["photo"] = cv2.imread(sys.argv[1])
for name, im in imgs.items():
    gray = cv2.cvtColor(im, cv2.COLOR_BGR2GRAY)
    d = detect(gray, None, grads=gradients(gray))
    out[name + " discs"] = np.round(np.c_[d.xy, d.r, d.support], 9).tolist()
    out[name + " quad"] = np.round(np.asarray(find_board(im), float), 9).tolist()
print(json.dumps(out))
"""


def _dispatched() -> list[str]:
    """numpy's dispatched SIMD extensions this CPU has (empty: nothing to switch off)."""
    try:
        from numpy._core import _multiarray_umath as mu
    except ImportError:  # numpy 1.x
        from numpy.core import _multiarray_umath as mu
    return [f for f in mu.__cpu_dispatch__ if mu.__cpu_features__.get(f)]


def _run(disable: list[str]) -> dict:
    env = dict(os.environ)
    env.pop("NPY_DISABLE_CPU_FEATURES", None)
    if disable:
        env["NPY_DISABLE_CPU_FEATURES"] = " ".join(disable)
    photo = REAL / "data_images_test_dices6.jpg"
    res = subprocess.run([sys.executable, "-c", _SCRIPT, str(photo) if photo.exists() else ""],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_the_finder_is_the_same_without_simd() -> None:
    off = _dispatched()
    if not off:
        pytest.skip("numpy dispatches to no SIMD extension on this CPU: nothing to compare")
    fast, plain = _run([]), _run(off)
    assert fast.keys() == plain.keys()
    for k in fast:
        assert fast[k] == plain[k], k
