"""Fusion on a Plakoto board with a pin standing: a board that shows the pin (its base colour
read) is a whole position, so an illegal play made while a pin stands is flagged, and a legal play
that pins mid-turn is not mistaken for a checker that vanished."""

from __future__ import annotations

from engine import Position
from engine.moves import legal_plays
from engine.observation import Dice, Observation

from .test_observation_base import _plakoto_after_opening


def _seen(pos: Position) -> Observation:
    return Observation.exact(pos, dice=Dice((6, 1), "black"), with_base=True)


def _black_moves(before: Position, steps: list[tuple[int, int]]) -> Position:
    """``before`` with black's checkers moved (board indices, black runs 0 -> 23); landing on
    white's blot on index 6 pins it (one white under one black)."""
    pts, pinned = list(before.points), [0] * 24
    for src, dst in steps:
        pts[src] += 1
        if pts[dst] == 1:  # white's blot: pinned under the lander
            pts[dst], pinned[dst] = -1, 1
        else:
            pts[dst] -= 1
    return Position(tuple(pts), pinned=tuple(pinned))


def _flags(events: list) -> list:
    return [e for e in events if e.type == "IllegalMoveFlagged"]


def test_a_pin_made_with_the_first_die_is_not_flagged_midway() -> None:
    ref, before = _plakoto_after_opening()
    midway = _black_moves(before, [(0, 6)])  # the six alone, from black's start onto the blot
    assert midway.pinned_at(6) == 1  # white's blot now lies under black's checker
    assert any(p.after.pinned_at(6) for p in legal_plays(before, ref.turn, (6, 1), ref.rules))
    assert _flags(ref.observe(_seen(midway))) == []
    assert _flags(ref.observe(_seen(midway))) == []  # settled on it: still no flag


def test_an_illegal_play_while_a_pin_stands_is_flagged() -> None:
    ref, before = _plakoto_after_opening()
    # the six pins, then another checker goes five pips: no die of 6-1 makes that
    wrong = _black_moves(before, [(0, 6), (0, 5)])
    assert wrong.pinned_at(6) == 1
    assert all(p.after != wrong for p in legal_plays(before, ref.turn, (6, 1), ref.rules))
    events = []
    for _ in range(3):
        events += ref.observe(_seen(wrong))
    assert _flags(events), [e.type for e in events]
