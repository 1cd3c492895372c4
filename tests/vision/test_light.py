"""The light over the points (``vision.light``): a covered strip borrows its kind's empty look
under the light its neighbours show."""

from __future__ import annotations

import numpy as np

from vision.light import lit_looks


def _board(light: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Twelve strips of one row (two kinds of paint alternating) under a light per column."""
    rng = np.random.default_rng(0)
    L, sw = 40, 20
    paint = [np.full((L, sw, 3), (60.0, 120.0, 180.0)), np.full((L, sw, 3), (150.0, 90.0, 40.0))]
    bgr = np.stack([paint[c % 2] * light[c] for c in range(12)])
    bgr = np.clip(bgr + rng.normal(0, 1.0, bgr.shape), 0, 255).astype(np.uint8)
    kinds = np.array([c % 2 for c in range(12)])
    return bgr, kinds, np.arange(12, dtype=float), np.zeros(12, bool)


def test_a_covered_strip_borrows_its_kinds_look_under_its_neighbours_light():
    light = np.linspace(0.6, 1.3, 12)  # a gradient across the row
    bgr, kinds, cols, top = _board(light)
    free = np.ones(bgr.shape[:3], bool)
    free[4] = False  # strip 4 was covered at calibration
    looks, known = lit_looks(bgr, free, kinds, cols, top)
    assert known[4].all()
    truth = np.array((60.0, 120.0, 180.0)) * light[4]
    plain = bgr[[0, 2, 6, 8, 10]].reshape(-1, 3).mean(0)  # the mean of the kind's others
    got = looks[4].reshape(-1, 3).mean(0)
    assert np.abs(got - truth).max() < 4.0  # measured ~1
    assert np.abs(plain - truth).max() > 10.0  # the plain mean is off under the gradient (13)


def test_even_light_leaves_the_kinds_look():
    bgr, kinds, cols, top = _board(np.ones(12))
    free = np.ones(bgr.shape[:3], bool)
    free[7] = False
    looks, _ = lit_looks(bgr, free, kinds, cols, top)
    assert np.abs(looks[7].reshape(-1, 3).mean(0) - (150.0, 90.0, 40.0)).max() < 2.0
