"""Tuning Plakoto game 1000 (the renderer's truth, read exactly), black's turn 40 (5-4, 19/14
18/14) unseen: white's 1-2 19/16 recorded as rolled, white's 2-6 16/8* moved the same checker on,
so the board is also one 6-5 19/8* of white's followed by black's 5-4, and the resync's table
took that way. With black's next dice (1-1) read on the board the 5-4 was dropped as "1-1 in the
making" (``Resync._record_path``) though no part of a 1-1 play gives it, and black's 1-1 was then
flagged twice on a board its 5-4 had made (two false flags; a truth replay with turn 40's frames
unsettled, 94/98). A way whose last side has other dice down that make no part of its last play
is wrong about whose turn it is: nothing is recorded from it (``Resync._not_in_making``; the
replay 90/98, no flag, as with Plakoto's table off).
"""

from __future__ import annotations

from engine.moves import legal_plays
from engine.observation import Dice, Observation
from engine.position import BLACK, WHITE, Position
from engine.referee import Phase
from engine.resync import side_part
from engine.rules import PLAKOTO
from tests.engine.variants.helpers import referee_at
from tests.gammoncam.truthplay import truth_frames
from vision.turns import TrackedObservation


def test_a_way_whose_last_side_rolls_again_is_not_recorded() -> None:
    _, frames = truth_frames(1000, "normal", rules="plakoto")
    before = Position.from_json(next(f for f in frames if f["turn"] == 39)["position"])
    board = Position.from_json(next(f for f in frames if f["turn"] == 42)["position"])
    ref = referee_at(PLAKOTO, before, (1, 2))
    assert ref.phase == Phase.ROLLED
    # the table's way: white's 6-5 19/8* (white's checkers as the board shows them), then
    # black's 5-4 to the board
    mids = [p.after for p in legal_plays(before, WHITE, (6, 5), PLAKOTO)
            if side_part(p.after, WHITE) == side_part(board, WHITE)]
    assert len(mids) == 1
    steps = [(WHITE, mids[0], [(6, 5)]), (BLACK, board, [(5, 4)])]
    dice = Dice((1, 1), "black")
    obs = Observation.exact(board, dice=dice, with_base=True)
    read = TrackedObservation(obs.regions, dice=dice, floor=obs.floor, base=obs.base, run=7)
    assert ref._record_path(read, 0, steps) == []
    assert ref.position == before and ref.dice == (1, 2)
