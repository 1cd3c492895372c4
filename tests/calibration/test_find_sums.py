"""The pattern model's class sums by one weighted count (find._Model.class_sums) are the class
indicators' product for every bar width and both grids the finder scores on: bit for bit on
warped Lab samples as the finder makes them (float64 sums of float32 values; another order of
the same additions rounds alike unless the values span more than float64's bits), and within
float rounding on any values."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.find import COARSE, MID, _model, work_lab


def test_class_sums_are_the_indicators_product() -> None:
    rng = np.random.default_rng(29)
    frame = cv2.GaussianBlur(rng.integers(0, 256, (360, 640, 3), np.uint8), (0, 0), 1.5)
    frame[100:140, 200:300] = 0  # black: small values with fine bits
    _s, lab = work_lab(frame)
    base = np.float64([[60, 40], [580, 40], [580, 330], [60, 330]])
    for grid in (COARSE, MID):
        m = _model(grid)
        n = grid[0] * grid[1]
        for i in range(len(m.bars)):
            X = m.warps(lab, [base + rng.normal(0, 8, (4, 2)) for _ in range(6)])
            X = X.astype(np.float64)
            got = m.class_sums(X, i)
            assert got.shape == (6, 10, 3)
            assert np.array_equal(got, np.matmul(m.stack[i], X))
            Y = rng.random((3, n, 3)) * rng.choice([1e-6, 1.0, 380.0], (3, n, 3))
            assert np.allclose(m.class_sums(Y, i), np.matmul(m.stack[i], Y), rtol=1e-12,
                               atol=0)
