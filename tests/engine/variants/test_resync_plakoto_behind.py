"""Held-out Plakoto footage (seed 900001, rendered, MJPG, the stored reads of HEAD 287a974's
vision), turns 70-71: the record a whole turn behind, caught up by the plays the board shows.

Black's 3-6 (12/3) was recorded late, when black's next dice were read; white's 6-2 (11/3) had
been played by then with its dice read empty, so the referee waited for white's roll from
``BEHIND`` while the board showed white's 11/3 and black's 3-3 (14/2), black's dice read 3-3.
Plakoto's resync looked for no sequence of plays then (only a board read surely over
``SET_RUNS`` runs was set, and in play a board stands two runs or so before the next play), so
the record waited for white while both sides played on: 24 turns lost (69/93). The two plays
that explain the board (white's, its roll inferred, then black's with the dice read) are now
looked for in Plakoto too, as in every other variant: recorded once two settled runs show them,
nothing set, nothing flagged (the whole game 69/93 -> 91/93).
"""

from __future__ import annotations

from engine.observation import Cube, Dice
from engine.position import BLACK, WHITE, Position
from engine.referee import Phase
from engine.rules import PLAKOTO
from tests.engine.variants.helpers import referee_at
from vision.turns import TrackedObservation

# the record after black's 3-6 12/3 (frame 1595): white to roll
BEHIND = Position.from_json({
    "points": [3, 7, 0, 2, -1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, -1, 0, -5, -2, -4],
    "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0},
    "pinned": [0, 0, 0, 0, 1, 0, 0, 0, -1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]})

_HEAD = (7, 8, 9, 10, 11, 12, 13, 14, 15)
# the fused read of runs 183 and 184 (frames 1609-1614; the same in each): white's 11/3 and
# black's 14/2 made, the two tall stacks read with their counts spread (every other region
# read empty at 1.0)
READ = {
    0: {(3, 0): 1.0},
    1: {(n, 0): (0.2536 if n == 7 else 0.0933) for n in _HEAD},
    2: {(1, 0): 1.0},
    3: {(2, 0): 1.0},
    4: {(0, 1): 0.1, (1, 1): 0.9},
    8: {(1, 0): 0.1, (1, 1): 0.9},
    19: {(0, 1): 1.0},
    21: {(0, n): (0.2137 if n == 5 else 0.0786) for n in range(5, 16)},
    22: {(0, 3): 1.0},
    23: {(0, 4): 1.0},
}
BASE = tuple("white" if i == 4 else "black" if i == 8 else None for i in range(24))


def read(run: int, dice: Dice | None) -> TrackedObservation:
    regions = [READ.get(i, {(0, 0): 1.0}) for i in range(28)]
    hint = Dice((3, 3), "black") if dice is not None else None
    return TrackedObservation(regions, dice=dice, cube=Cube("center", 1), floor=1e-4,
                              base=BASE, run=run, roll_hint=hint)


def test_a_turn_behind_the_board_the_missed_play_and_the_reply_are_recorded() -> None:
    ref = referee_at(PLAKOTO, BEHIND)
    assert ref.phase == Phase.ROLL and ref.turn is WHITE
    events = ref.observe(read(183, Dice((), "black")))
    events += ref.observe(read(183, Dice((3, 3), "black")))
    assert not [e for e in events if e.type == "Moved"]  # one run: not yet
    events += ref.observe(read(184, None))  # the dice picked up: a second run
    moved = [(e["side"], sorted(e["dice"]), e["play"]) for e in events if e.type == "Moved"]
    assert moved == [("white", [2, 6], "11/3"), ("black", [3, 3], "14/2")]
    assert ref.phase == Phase.ROLL and ref.turn is WHITE
    assert not any(e.type in ("IllegalMoveFlagged", "PositionCorrected") for e in events)
    for run in (185, 186):  # the board stands: nothing more
        assert ref.observe(read(run, None)) == []
    assert ref.turn is WHITE and ref.position.bar(BLACK) == 0
