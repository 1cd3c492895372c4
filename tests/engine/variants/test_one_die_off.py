"""A variant's play of a roll one die off the roll read is the die misread, not an illegal play
(engine/variants/onedie.py). The case: rendered Long Nardi 900001 (held-out, corners tapped,
dice read), turn 42: white's 4-6 read 2-4 on three frames in two settled runs, the board then
24/20 23/17 (a 6-4 play). It was flagged "10 pips, more than the 6 the dice allow"."""

from __future__ import annotations

from engine.observation import Dice
from engine.position import BLACK, WHITE
from engine.referee import Phase

from .test_nardi_footage import board, moves, referee, seen

# frame 922 (white to play) and frame 939 (24/20 23/17 made, the dice 2-4 read down)
BEFORE_42 = board([1, 3, -4, -2, 0, 0, -1, 2, 0, 0, 2, -3, -2, 0, 0, -3, 1, 0, 0, 0, 0, 1, 1, 4])
AFTER_42 = board([1, 3, -4, -2, 0, 0, -1, 2, 0, 0, 2, -3, -2, 0, 0, -3, 2, 0, 0, 1, 0, 1, 0, 3])


def test_a_play_of_a_roll_one_die_off_the_read_is_recorded_with_that_roll() -> None:
    ref = referee(BEFORE_42, "white", (4, 2))
    events = []
    for run in (95, 96):
        events += ref.observe(seen(AFTER_42, run, Dice((2, 4), "white")))
    assert not any(e.type == "IllegalMoveFlagged" for e in events)
    assert moves(events) == [("white", [4, 6], "24/20 23/17")]
    assert ref.position == AFTER_42 and ref.turn is BLACK and ref.phase == Phase.ROLL


def test_a_play_no_roll_sharing_a_die_makes_is_still_flagged() -> None:
    # 6-5 shares no die with 4-2: 24/18 23/18 (11 pips) stays an illegal play of 4-2
    after = board([1, 3, -4, -2, 0, 0, -1, 2, 0, 0, 2, -3, -2, 0, 0, -3, 1, 2, 0, 0, 0, 1, 0, 3])
    ref = referee(BEFORE_42, "white", (4, 2))
    events = []
    for run in (95, 96):
        events += ref.observe(seen(after, run, Dice((2, 4), "white")))
    assert any(e.type == "IllegalMoveFlagged" for e in events)
    assert ref.turn is WHITE and ref.phase == Phase.FLAGGED
