"""The end of a Plakoto game by its mother: the last checker on a side's start point, pinned there
before it leaves.

Sources: "If the last piece remaining in the starting position gets pinned by the opponent
before it has left the starting position, the game is over and the player loses two points. The
only exception is if the opponent still has pieces on their starting position. A game in which
both players' respective pieces in the starting position are trapped is a draw." (Ludii,
Plakoto); "the game is won as a backgammon" (game.history.free.fr): ``mother_points`` 3.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..position import Position, Side
from ..rules import Rules
from ..settings import MatchSettings

START = 24  # each side's start point in its own numbering


@dataclass(frozen=True)
class MotherEnd:
    """A game ended by a pinned mother: ``winner`` None is a draw (both mothers pinned)."""

    winner: Side | None
    points: int  # per cube value
    result: str  # "mother" or "draw"


def mother_pinned(pos: Position, side: Side, rules: Rules) -> bool:
    """Whether ``side``'s checker on its own start point lies pinned there."""
    return pos.pinned_at(rules.abs_index(side, START)) * side.sign > 0


def on_start(pos: Position, side: Side, rules: Rules) -> int:
    """How many of ``side``'s checkers stand free on its start point."""
    return max(0, pos.at(rules.abs_index(side, START)) * side.sign)


def mother_end(pos: Position, rules: Rules, settings: MatchSettings) -> MotherEnd | None:
    """How the game ends by a pinned mother in ``pos``, or None while it goes on."""
    if not rules.mother:
        return None
    pinned = [s for s in Side if mother_pinned(pos, s, rules)]
    if len(pinned) == 2:
        return MotherEnd(None, 0, "draw")
    for loser in pinned:
        winner = loser.other
        if settings.mother_exception and on_start(pos, winner, rules):
            return None  # the pinner's own mother may still be caught: play on
        return MotherEnd(winner, settings.mother_points, "mother")
    return None
