"""The checker grid's speed-ups compute what their plain forms did: each disc's distance to its
nearest column centre a column at a time (against the minimum over the whole (phases, discs,
columns) array)."""

from __future__ import annotations

import numpy as np

from calibration.grid import _nearest_column


def test_nearest_column_is_the_minimum_over_all_columns() -> None:
    rng = np.random.default_rng(11)
    for _ in range(200):
        k, n = int(rng.integers(1, 60)), int(rng.integers(1, 40))
        x = rng.uniform(-50, 700, n)
        x0 = rng.uniform(-30, 300, k)
        pw = rng.uniform(15, 40, k)
        bar = rng.uniform(0, 30, k)
        cols = np.arange(12)
        offs = (cols + 0.5) * pw[:, None] + np.where(cols >= 6, bar[:, None], 0.0)
        want = np.abs(x[None, :, None] - (x0[:, None, None] + offs[:, None, :])).min(2)
        assert np.array_equal(_nearest_column(x, x0, offs), want)
