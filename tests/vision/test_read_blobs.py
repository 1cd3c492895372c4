"""``vision.read._blobs`` as its docstring says it is (a strip pixel is foreign when every disc
pixel on it is, then a 3 x 3 erosion of each point's front): the per-group minimum is taken
column by column over pre-gathered indices (a speed-up of ``np.minimum.reduceat``) and must
give the same shares. A rendered tuning scene's profile (tuning 1007)."""

from __future__ import annotations

import importlib

import cv2
import numpy as np

from tests.vision.test_hands_oddtops import _prepared
from vision.strips import SW

R = importlib.import_module("vision.read")  # the module (``vision.read`` names the function)


def _reference(foreign: np.ndarray, prep: dict) -> np.ndarray:
    """``_blobs`` written plainly: per strip pixel the AND of its disc pixels, then erosion."""
    idx = prep["discs"][0].idx
    L = prep["lab"].shape[1] // SW
    strip = np.ones((L * SW, 24), bool)
    np.logical_and.at(strip, idx, foreign.T)
    covered = np.zeros(L * SW, bool)
    covered[idx] = True
    strip &= covered[:, None]
    c0, c1 = int(SW * (0.5 - R.FRONT_COLS / 2)), int(SW * (0.5 + R.FRONT_COLS / 2))
    rows = int(L * R.FRONT_ROWS) + 1
    out = np.zeros(24)
    for i in range(24):
        m = strip[:, i].reshape(L, SW)[:rows, c0 - 1:c1 + 1].astype(np.uint8)
        out[i] = cv2.erode(m, np.ones((3, 3), np.uint8))[:-1, 1:-1].mean()
    return out


def test_blobs_match_the_plain_per_pixel_and() -> None:
    prep, every = _prepared()
    rng = np.random.default_rng(5)
    shape = (24, len(prep["discs"][0].idx))
    for share in (0.0, 0.5, 0.9, 0.98, 1.0):  # sparse to solid foreign maps
        foreign = rng.random(shape) < share
        got = R._blobs(foreign, prep)
        assert np.allclose(got, _reference(foreign, prep), rtol=0, atol=1e-12)
    assert R._blobs(np.ones(shape, bool), prep).min() > 0.9  # solid: every front is a blob
