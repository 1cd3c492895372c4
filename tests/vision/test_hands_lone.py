"""A point whose borrowed empty look misfits is no hand (``vision.read.LONE_PATCH``): the hand's
tests passed on one point alone, on pixels whose empty look calibration could not see (the
point was covered), its row neighbours quiet. Tuning seeds (the benchmark holds out 900000+)."""

from __future__ import annotations

from tests.vision.tapped import tapped_frame
from vision import read
from vision.readmemory import forget

READ = __import__("vision.read", fromlist=["read"])


def test_a_borrowed_look_alone_is_no_hand(monkeypatch) -> None:  # noqa: ANN001
    """Tuning 1008 frame 2 (walnut olive), no hand: point 13's empty look, borrowed from its
    kind's (two checkers on it at calibration), shows a solid foreign patch (its hand signal
    1.71, its neighbours' 0.00). Without the rule a hand is called."""
    prof, img, tr = tapped_frame(1008, 2)
    assert not tr["hand"]
    forget(prof)
    assert not read(img, prof).hand
    monkeypatch.setattr(READ, "LONE_PATCH", False)
    forget(prof)
    assert read(img, prof).hand


def test_a_hand_over_points_side_by_side_is_still_seen() -> None:
    """Tuning 1061 frame 2 (tan suede): a sleeve, its patch under HAND_BLOB but one point's
    front over half foreign, and its neighbour's signal past ``LONE_BESIDE``: still a hand."""
    prof, img, tr = tapped_frame(1061, 2)
    assert tr["hand"]
    forget(prof)
    assert read(img, prof).hand
