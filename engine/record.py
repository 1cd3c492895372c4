"""The match record: what happened, game by game, as the match files (.mat, SGF) need it.

It is a projection of the referee's event log (``engine.referee``) and the common ground of every
match-file writer and reader: a writer turns a ``MatchRecord`` into text, a reader turns text
into one, and the checker replays a record against the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .moves import Step
from .position import Position, Side
from .rules import STANDARD, Rules


class Kind(StrEnum):
    """What a player did in one line item of a game."""

    ROLL = "roll"  # rolled (dice) and played (steps; empty when dancing)
    DOUBLE = "double"  # offered the cube at ``value``
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"  # took and redoubled at once, keeping the cube (value = new value)
    RACCOON = "raccoon"
    RESIGN = "resign"  # offered to resign for ``value`` points per cube (1, 2, 3 = bg)
    ACCEPT = "accept"  # accepted the resignation
    REJECT = "reject"  # refused the resignation
    WIN = "win"  # won ``value`` points


@dataclass(frozen=True)
class Action:
    side: Side
    kind: Kind
    dice: tuple[int, int] | None = None
    steps: tuple[Step, ...] = ()
    notation: str = ""
    value: int | None = None
    illegal: bool = False  # an illegal play that was let stand, recorded as played
    note: str = ""


@dataclass
class GameRecord:
    number: int  # 1-based
    score_white: int  # before the game
    score_black: int
    crawford: bool = False
    start: Position = STANDARD.start
    first: Side | None = None  # who moved first
    actions: list[Action] = field(default_factory=list)
    winner: Side | None = None
    points: int = 0
    result: str = ""  # "single", "gammon", "backgammon", "drop", "resign", "draw"


@dataclass
class MatchRecord:
    length: int  # 0 = money session
    white: str = "White"
    black: str = "Black"
    rules: Rules = STANDARD
    crawford: bool = True
    jacoby: bool = False
    games: list[GameRecord] = field(default_factory=list)
    event: str = ""
    place: str = ""
    date: str = ""  # ISO yyyy-mm-dd

    def final_score(self) -> tuple[int, int]:
        """(white, black) after the last finished game."""
        w = b = 0
        for g in self.games:
            w, b = g.score_white, g.score_black
            if g.winner is Side.WHITE:
                w += g.points
            elif g.winner is Side.BLACK:
                b += g.points
        return w, b
