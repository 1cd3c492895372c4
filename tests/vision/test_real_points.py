"""One-shot points under a hand on the real photos (read from ../shared/real, never copied): a
point whose tip a hand hides but whose first checker's place, at the board's edge, is seen
empty is read empty (``vision.checkers.base_seen_empty``), not unseen."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.checkers import UNSEEN_SURE, base_seen_empty
from vision.geometry import BoardShape, Layout
from vision.stacks import point_masks

REAL = Path(__file__).resolve().parents[3] / "shared" / "real"
needs_real = pytest.mark.skipif(not (REAL / "truth.json").exists(), reason="no real photos")


def _places(row_max: int = 5) -> tuple[object, np.ndarray, np.ndarray]:
    """A point mask set and its first two checkers' places (flattened strip pixels)."""
    ms = point_masks(Layout(BoardShape()), row_max)
    return ms, ms.A[:, ms.col_of[2][0]] > 0, ms.A[:, ms.col_of[2][1]] > 0


def test_a_point_seen_empty_at_its_edge_is_empty() -> None:
    ms, first, second = _places()
    foreign = ~(first | second)  # a hand over everything past the first two checkers' places
    empty = {(0, 0): 0.9999, (0, 1): 0.0001}
    assert base_seen_empty(empty, foreign, ms)
    # the first place hidden too: unseen
    assert not base_seen_empty(empty, np.ones_like(foreign), ms)
    # a hand over a quarter of the first place: unseen
    part = foreign.copy()
    part[np.flatnonzero(first)[: first.sum() // 4]] = True
    assert not base_seen_empty(empty, part, ms)
    # the second place solidly foreign (a stack from there on, the quad's edge a checker
    # short of its own): unseen; a third of it foreign (the hand's shadow) still empty
    assert not base_seen_empty(empty, ~first, ms)
    some = foreign.copy()
    some[np.flatnonzero(second)[: second.sum() // 3]] = True
    assert base_seen_empty(empty, some, ms)
    # read with a checker, or empty but unsure: unseen
    assert not base_seen_empty({(0, 1): 0.9999, (0, 0): 0.0001}, foreign, ms)
    assert not base_seen_empty({(0, 0): UNSEEN_SURE - 0.01, (1, 0): 0.01}, foreign, ms)
    assert not base_seen_empty(None, foreign, ms)


@needs_real
def test_dices6_empty_point_under_the_fingers_reads_empty() -> None:
    """dices6: the first top point right of the bar is empty; the hand's fingers over the bar
    lie over its tip (0.53 of its strip foreign, over the unseen share) but its edge is plain."""
    from bench.bench_real import image_rows
    from calibration.oneshot import read_oneshot

    obs, _ = read_oneshot(cv2.imread(str(REAL / "data_images_test_dices6.jpg")))
    top, _bottom = image_rows(obs.best_counts())
    assert top[6] == (0, 0)
    # the points the sleeve hides at their edge stay unseen (truth: "?", checkers under it)
    assert top[2] is None and top[3] is None
