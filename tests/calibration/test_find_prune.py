"""The one-shot finder's pruned climbs (find._refine_many's ``prune``, find.PRUNE): a climb
scoring more than the margin under the best at a step's end stops there; the others end
exactly where they end unpruned, so the best is the same whenever it was never behind by the
margin."""

from __future__ import annotations

import cv2
import numpy as np

from calibration import find
from calibration.find import COARSE, _refine, _refine_many, work_lab


def _board() -> tuple[np.ndarray, np.ndarray]:
    """A plain field with two rows of alternating triangles, a bar between the halves; its
    working Lab and the playing area's quad."""
    frame = np.full((480, 640, 3), (60, 110, 150), np.uint8)
    for c in range(12):
        x = 70 + c * 40 + (30 if c >= 6 else 0)
        col = (40, 40, 170) if c % 2 else (200, 220, 230)
        cv2.fillConvexPoly(frame, np.int32([[x, 40], [x + 40, 40], [x + 20, 200]]), col)
        cv2.fillConvexPoly(frame, np.int32([[x, 450], [x + 40, 450], [x + 20, 290]]),
                           col[::-1])
    noise = np.random.default_rng(3).normal(0, 40, frame.shape)  # a board's texture
    frame = cv2.GaussianBlur(np.clip(frame + noise, 0, 255).astype(np.uint8), (5, 5), 0)
    _s, lab = work_lab(frame)
    return lab, np.float64([[70, 40], [580, 40], [580, 450], [70, 450]])


def test_pruned_climbs_end_as_unpruned_and_the_far_one_stops() -> None:
    lab, true = _board()
    rng = np.random.default_rng(0)
    far = true + np.float64([120.0, 60.0])  # a quad well off the board's pattern
    near = [true + rng.normal(0, 6, (4, 2)) for _ in range(2)]
    starts = [(near[0], 0.05), (far, 0.05), (near[1], 0.07)]
    steps = (4.0, 2.0, 1.0)
    alone = [_refine(lab, q, b, steps, COARSE) for q, b in starts]
    pruned = _refine_many(lab, starts, steps, COARSE, prune=find.PRUNE)
    assert alone[1][2] < max(a[2] for a in alone) - 0.1  # the far climb ends far behind
    assert len(pruned) == 2  # it stopped; the near ones went on
    for (q1, b1, s1), (q2, b2, s2) in zip(pruned, [alone[0], alone[2]], strict=True):
        assert np.array_equal(q1, q2) and b1 == b2 and s1 == s2
    # huge margins prune nothing: every climb as alone
    kept = _refine_many(lab, starts, steps, COARSE, prune=(1e9, 1e9))
    assert len(kept) == 3
    for (q1, b1, s1), (q2, b2, s2) in zip(kept, alone, strict=True):
        assert np.array_equal(q1, q2) and b1 == b2 and s1 == s2


def test_one_shot_prunes_calibration_does_not(monkeypatch) -> None:  # noqa: ANN001
    lab, true = _board()
    seen: list = []
    real = find._refine_many

    def spy(*a, **k):  # noqa: ANN002, ANN003, ANN202
        if a[2] == find.COARSE_STEPS:  # the grid candidates' climbs (not the MID one)
            seen.append(a[5] if len(a) > 5 else k.get("prune"))
        return real(*a, **k)

    monkeypatch.setattr(find, "_refine_many", spy)
    grid = [(0.5, 0.05, true + 3.0), (0.4, 0.05, true - 3.0)]
    for thorough in (False, True):
        find._from_checkers(lab, None, thorough, grid)  # type: ignore[arg-type]
    assert seen == [find.PRUNE, None]
