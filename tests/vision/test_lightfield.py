"""vision.lightfield: the light over the board from the empty points' pixels, on synthetic strips
whose light is known (a glare spot that clips the light points' paint, points covered by
checkers)."""

from __future__ import annotations

import numpy as np

from vision.lightfield import board_places, fit_light

L, SW = 40, 12


def _board(seed: int = 0, glare: float = 0.6, slope: float = 0.03) -> tuple[np.ndarray, ...]:
    """24 point strips: two paints per row of the board, a light with a glare spot over the
    right half of the top row, strips 3 and 20 covered (not free)."""
    rng = np.random.default_rng(seed)
    cols = np.array([11 - i for i in range(12)] + list(range(12)), float)
    top = np.array([False] * 12 + [True] * 12)
    kinds = np.array([(i % 2) + 2 * int(top[i]) for i in range(24)])
    x, y = board_places(cols, top, L)
    light = 1.0 + glare * np.exp(-0.5 * (((x - 9.5) / 1.8) ** 2 + ((y - 0.4) / 0.4) ** 2))
    light *= 1.0 + slope * x  # a gentle gradient across
    # the two point colours' paints (the same in both rows, in strip coordinates); the light
    # one clips under a glare of 1.6
    paints = [rng.uniform(170, 200, (L, SW, 3)), rng.uniform(60, 120, (L, SW, 3))]
    bgr = np.stack([paints[int(kinds[i]) % 2] for i in range(24)]) * light[:, :, None, None]
    bgr = np.clip(bgr * rng.normal(1.0, 0.02, bgr.shape), 0, 255)
    free = np.ones((24, L, SW), bool)
    free[[3, 20]] = False
    return bgr.astype(np.float32), free, kinds, cols, top, light


def test_fit_light_recovers_a_glare_across_the_board() -> None:
    bgr, free, kinds, cols, top, light = _board()
    assert (bgr >= 250).mean() > 0.02  # the glare clips part of the light points
    est = fit_light(bgr, free, kinds, cols, top)
    assert est.shape == (24, L)
    # what varies along a strip alike on both rows is the paints' (not the light's)
    true = np.log(light / light.mean())
    e = np.log(est) - true
    e -= (e[top].mean(0) + e[~top].mean(0)) / 2
    assert np.sqrt(np.mean(e**2)) < 0.012
    # the glare's peak (top row, column 9-10) is read within 7 %, a covered strip too
    peak = np.unravel_index(np.argmax(light), light.shape)
    ratio = (est[peak] / est[top].mean()) / (light[peak] / light[top].mean())
    assert 0.93 < ratio < 1.07
    covered = 20
    r = np.corrcoef(np.log(est[covered]), np.log(light[covered]))[0, 1]
    assert r > 0.97


def test_fit_light_even_light_is_flat() -> None:
    bgr, free, kinds, cols, top, light = _board(1, glare=0.0, slope=0.0)
    assert np.all(light == 1.0)
    est = fit_light(bgr, free, kinds, cols, top)
    assert float(np.abs(np.log(est)).max()) < 0.005
