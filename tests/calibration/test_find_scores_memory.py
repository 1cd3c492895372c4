"""The pattern model's scores of a batch of quads (find._Model.scores) hold no array larger
than the batch's float64 copy besides it: its class sums are counted a sample at a time and
its squares taken in place (a fresh (samples x values) index and a fresh array of squares, as
large each, were re-faulted from the system on every call and cost more than the arithmetic).
The scores are the ones the class indicators give (bit for bit)."""

from __future__ import annotations

import tracemalloc

import cv2
import numpy as np

from calibration.find import COARSE, MID, _eta, _model, work_lab


def test_scores_of_a_batch_allocate_one_copy() -> None:
    rng = np.random.default_rng(31)
    frame = cv2.GaussianBlur(rng.integers(0, 256, (360, 640, 3), np.uint8), (0, 0), 1.5)
    _s, lab = work_lab(frame)
    base = np.float64([[60, 40], [580, 40], [580, 330], [60, 330]])
    for grid in (COARSE, MID):
        m = _model(grid)
        k = 40
        X = m.warps(lab, [base + rng.normal(0, 8, (4, 2)) for _ in range(k)])
        copy = X.size * 8  # the batch as float64
        for i, b in enumerate(m.bars):
            m.scores(X, b)  # the class bins made once per bar
            tracemalloc.start()
            got = m.scores(X, b)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            assert peak < 1.2 * copy, (grid, b, peak / copy)
            Xd = X.astype(np.float64)
            want = _eta(np.matmul(m.stack[i], Xd), m.n[i],
                        (Xd * Xd).reshape(k, -1) @ m.keep3[i])
            assert np.array_equal(got, want)
