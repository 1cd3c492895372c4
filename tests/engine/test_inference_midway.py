"""An illegal play whose roll was read on one frame only is flagged when no part of any roll's
legal play gives the board (``engine.inference.midway``: the boards some steps of a legal play
leave), not merely when no roll's pips add up: 13/6 8/3 moves 12 pips (two sixes, three fours,
four threes), yet no six, four or three takes a checker from 13 to 6."""

from __future__ import annotations

from engine.inference import EVERY_ROLL, midway
from engine.moves import legal_plays
from engine.observation import Dice
from engine.position import WHITE, Position
from engine.rules import STANDARD

from .refhelp import types
from .test_fusion_inference import tracked, white_to_roll


def moved(pos: Position, *steps: tuple[int, int]) -> Position:
    """``pos`` with white's checkers moved point to point (no hits)."""
    pts = list(pos.points)
    for src, dst in steps:
        pts[src - 1] -= 1
        pts[dst - 1] += 1
    return Position(tuple(pts), pos.bar_white, pos.bar_black, pos.off_white, pos.off_black)


def test_midway_boards_are_the_parts_of_legal_plays() -> None:
    start = STANDARD.start
    boards = midway(start, WHITE, (6, 5), STANDARD)
    assert {p.after for p in legal_plays(start, WHITE, (6, 5))} <= boards  # whole plays
    assert moved(start, (13, 7)) in boards  # the six played, the five not yet
    assert moved(start, (13, 9)) not in boards  # a four is no part of a 6-5
    illegal = moved(start, (13, 6), (8, 3))
    assert not any(illegal in midway(start, WHITE, r, STANDARD) for r in EVERY_ROLL)


def test_an_illegal_play_with_the_roll_read_once_is_flagged() -> None:
    ref = white_to_roll()
    seen = moved(ref.position, (13, 6), (8, 3))
    assert all(seen != p.after for r in EVERY_ROLL for p in legal_plays(ref.position, WHITE, r))
    events = ref.observe(tracked(seen, 1, Dice((6, 5), "white")))
    assert types(events) == ["Rolled", "IllegalMoveFlagged"]
    assert events[0]["dice"] == [6, 5]


def test_a_part_of_a_legal_play_is_not_flagged() -> None:
    """A board some roll's legal play passes through (white's 13/7 alone: the six of a 6-x
    still being played) waits, whatever roll one read saw."""
    ref = white_to_roll()
    events = ref.observe(tracked(moved(ref.position, (13, 7)), 1, Dice((5, 2), "white")))
    assert "IllegalMoveFlagged" not in types(events)
