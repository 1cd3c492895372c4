"""Held-out Plakoto footage (seed 900002, rendered, MJPG, fresh reads), turn 12: white 4-4
24/20 18/6* from BEFORE, read while the dice were still down with the play half made (24/20
18/10). The fused read of run 33 saw the pin on 19 (black over white) without its white at 0.55
against 0.45 and white's head on 24 as 10 at 0.5 against 9 at 0.4, so the likeliest whole board
kept 10 on the head and moved the pinned white 19/20 (backwards, and a pinned checker): it was
flagged mid-move although the part-made legal board fits the read only 0.4 nats worse (a false
flag; the play was recorded right once the dice were lifted). A board flagged while the dice are
down must beat every part of a legal play by the margin too (``fusion._near_midway``).
"""

from __future__ import annotations

from engine.observation import Dice
from engine.position import Position
from engine.referee import Phase
from engine.rules import PLAKOTO
from tests.engine.variants.helpers import referee_at
from vision.turns import TrackedObservation

BEFORE = Position.from_json({
    "points": [-10, 1, 0, 0, 0, -1, -2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, -1, 0, -1, 0, 0, 10],
    "bar": {"white": 0, "black": 0}, "off": {"white": 0, "black": 0},
    "pinned": [0] * 18 + [1, 0, 1, 0, 0, 0]})


def _stack(colour: int, likely: dict[int, float]) -> dict[tuple[int, int], float]:
    """A tall stack's fused read: 0.05 for every count of either colour, ``likely`` above."""
    out = {(n, 0): 0.05 for n in range(16)} | {(0, n): 0.05 for n in range(1, 16)}
    for n, p in likely.items():
        out[(n, 0) if colour == 0 else (0, n)] = p
    return out


# the fused regions of run 33 (every other region read empty at 1.0)
RUN33 = {
    0: _stack(1, {9: 0.4, 10: 0.5}),
    1: {(1, 0): 1.0},
    5: {(0, 1): 0.5489, (0, 0): 0.2255, (1, 0): 0.2255},
    6: {(0, 2): 1.0},
    8: {(1, 0): 0.0001, (0, 0): 0.9999},
    9: {(1, 0): 1.0},
    15: {(1, 0): 1.0},
    18: {(0, 1): 0.55, (1, 1): 0.4501},
    19: {(1, 0): 1.0},
    20: {(0, 1): 0.1, (1, 1): 0.9},
    23: _stack(0, {9: 0.4, 10: 0.5, 11: 0.4, 12: 0.4, 13: 0.4, 14: 0.4, 15: 0.5}),
}


def read(run: int) -> TrackedObservation:
    regions = [RUN33.get(i, {(0, 0): 1.0}) for i in range(28)]
    base = tuple("white" if i in (18, 20) else None for i in range(24))
    return TrackedObservation(regions, dice=Dice((4, 4), "white"), floor=1e-4, run=run,
                              base=base)


def test_a_pin_half_hidden_midway_is_no_illegal_play() -> None:
    ref = referee_at(PLAKOTO, BEFORE, (4, 4))
    assert ref.phase == Phase.ROLLED
    events = ref.observe(read(1)) + ref.observe(read(2))
    assert not any(e.type == "IllegalMoveFlagged" for e in events)
    assert ref.phase == Phase.ROLLED  # still the mover's turn: the play is judged later
