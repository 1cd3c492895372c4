"""The layout templates cover every turn of a face (:mod:`vision.pips`): the poses turn a
quarter at most, so a 2's or 3's diagonal (and a 6's rows) running the other way needs its own
turned template (a 2 read as 1 on the live footage: its only pose had the wrong diagonal)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_die_one_or_two import SIDE, _footprint, _window
from vision import pips


@pytest.mark.parametrize("value", [2, 3, 6])
@pytest.mark.parametrize("turn", [20.0, 65.0])
def test_every_layout_fits_a_quarter_turn_pose(value: int, turn: float,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # the face turned a quarter and more: the pose (turn within a quarter) sees it turned
    L = _window(value, np.radians(turn + 90.0), dark_pips=True)
    pose = np.array([[28.0, 28.0, np.radians(turn), SIDE]], np.float32)
    folded = pips._fold(-pips.pose_scores(L, pose))[0]  # dark pips: negative correlation
    assert folded[value - 1] > 0.8
    assert int(np.argmax(folded)) == value - 1
    monkeypatch.setattr(pips, "TURNED23", False)
    monkeypatch.setattr(pips, "TURNED6", False)
    assert pips._fold(-pips.pose_scores(L, pose))[0][value - 1] < 0.45  # one turn only: lost


@pytest.mark.parametrize("value", [2, 3])
@pytest.mark.parametrize("turn", [-60.0, -25.0, 25.0, 60.0])
def test_a_two_or_three_reads_in_every_turn(value: int, turn: float) -> None:
    L = _window(value, np.radians(turn), dark_pips=False)
    assert pips.read_face(L, _footprint(), SIDE, 1.0)[0] == value
