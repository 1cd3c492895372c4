"""Held-out Long Nardi footage (seed 900000, rendered, MJPG, fresh reads), turn 78: white 6-4
15/9 10/6 from BEFORE. On every settled read after the play (frames 1726-1769) white's checker on
9 (index 8) reads 0 (0.96 to 0.04), and white's stack of 10 on 1 (index 0) reads 10 at 0.30, 11 at
0.11; the steady misread learned there (read one short earlier, ``gammoncam.steady.shifted``)
lifts 11 to 0.30 too: a tie, which the region-by-region best counts give to 11 (the first in
the read's order). The most likely board, whole by that, puts the checker missed on 9 onto
the stack: 15/1 10/6, 18 pips, 3.13 nats over the legal board (MARGIN 3.0), and the referee
flagged white for too many pips (run 171, the dice gone), then the record was off (a second
false flag at turn 82). The read does not prefer the flagged board's count on point 1: it wins
there by the checkers' count alone, and where the missed checker stands tells legal from
illegal, so the board is ambiguous: no flag, the legal play is recorded (fastc replay of the
stored reads: 88/93 turns exact and 2 false flags -> 93/93, none).
"""

from __future__ import annotations

from engine.observation import Dice, Observation
from engine.position import Position
from engine.referee import Phase
from engine.rules import LONG_NARDI
from tests.engine.variants.helpers import referee_at
from vision.turns import TrackedObservation


def board(points: list[int]) -> Position:
    return Position.from_json({"points": points, "bar": {"white": 0, "black": 0},
                               "off": {"white": 0, "black": 0}})


BEFORE = board([10, 2, 1, -2, 0, 0, -1, 0, 0, 1, 0, 0, -5, -2, 1, -2, 0, -1, 0, -2, 0, 0, 0, 0])
AFTER = board([10, 2, 1, -2, 0, 1, -1, 0, 1, 0, 0, 0, -5, -2, 0, -2, 0, -1, 0, -2, 0, 0, 0, 0])
# the fused reads (after the steady misreads) of run 171 in the two regions misread, in the
# order read: the tie on point 1 goes to the first of 10 and 11 (Observation.best_counts), 11
STACK = {(9, 0): 0.149, (11, 0): 0.2997, (12, 0): 0.1103, (13, 0): 0.1103, (14, 0): 0.1103,
         (15, 0): 0.1103, (10, 0): 0.2997}
NINE = {(0, 0): 0.9583, (1, 0): 0.0417}


def read(run: int, dice: Dice | None) -> TrackedObservation:
    obs = Observation.exact(AFTER, dice=dice)
    regions = list(obs.regions)
    regions[0], regions[8] = STACK, NINE
    return TrackedObservation(regions, dice=dice, floor=1e-4, run=run)


def test_a_checker_missed_beside_a_tall_stack_is_no_illegal_play() -> None:
    ref = referee_at(LONG_NARDI, BEFORE, (6, 4))
    assert ref.phase == Phase.ROLLED
    events = []
    events += ref.observe(read(1, Dice((4, 6), "white")))
    events += ref.observe(read(2, Dice((4, 6), "white")))
    events += ref.observe(read(3, Dice((), "black")))
    events += ref.observe(read(4, None))
    assert not any(e.type == "IllegalMoveFlagged" for e in events)
    played = [(e["side"], e["play"]) for e in events if e.type == "Moved"]
    assert played == [("white", "15/9 10/6")]
    assert ref.position == AFTER and ref.phase == Phase.ROLL
