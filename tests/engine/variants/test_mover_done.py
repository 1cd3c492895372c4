"""Two plays seen in one settled run in Long Nardi: the mover's checkers stand exactly as one
legal play leaves them and only the opponent's differ, so the mover played that and the
opponent has moved since (``Fusion._mover_done``). It was off for every variant; only
Plakoto's pins make a side's checkers ambiguous (a pinned checker lies under the other
colour), so it is on for the games without pins. The case: held-out Long Nardi 900000, corners
tapped (bench.bench_variant_vision --calib variant-taps), turn 59: black's dice stayed read
until white had played too; the referee waited, the resync merged two of black's plays into
one 3-3, and white's next play was flagged twice (65/93 with a false flag; 93/93 with this)."""

from __future__ import annotations

from engine.observation import Dice
from engine.position import BLACK
from engine.rules import LONG_NARDI

from .test_nardi_footage import REPLY, START, moves, referee, seen


def test_the_movers_play_is_recorded_when_the_opponent_has_moved_on_in_one_run() -> None:
    assert not LONG_NARDI.pins
    ref = referee(START, "white", (3, 5))
    events = ref.observe(seen(REPLY, 7, Dice((1, 5), "black")))
    assert moves(events)[:1] == [("white", [3, 5], "19/11")]
    assert not any(e.type == "IllegalMoveFlagged" for e in events)
    assert ref.turn is BLACK

