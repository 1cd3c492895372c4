"""The match record: what happened, game by game, as the match files (.mat, SGF) need it.

It is a projection of the referee's event log (``engine.referee``) and the common ground of every
match-file writer and reader: a writer turns a ``MatchRecord`` into text, a reader turns text
into one, and the checker replays a record against the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .moves import BAR, OFF, Step, can_move, from_relative, result_keys, to_relative
from .position import Position, Side
from .rules import STANDARD, Rules

RESULTS = {1: "single", 2: "gammon", 3: "backgammon"}  # GameRecord.result of a game borne off


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
    line: int = 0  # the line of the match file it was read from (0: not read from a file)


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


class StepError(ValueError):
    """A step that cannot be made: no checker of the mover where it starts, or a closed point."""


def apply_steps(
    pos: Position,
    side: Side,
    steps: tuple[Step, ...] | list[Step],
    rules: Rules = STANDARD,
    errors: list[str] | None = None,
) -> Position:
    """The position after ``side`` moves ``steps`` one after the other, hits included.

    Only the board is checked (a checker to move, an open point to land on), not the dice or the
    order rules: a recorded play that broke them can still be replayed. An impossible step raises
    ``StepError``; given an ``errors`` list it is skipped instead and why is appended there.
    """
    return play_steps(pos, side, steps, rules, errors)[0]


def play_steps(
    pos: Position,
    side: Side,
    steps: tuple[Step, ...] | list[Step],
    rules: Rules = STANDARD,
    errors: list[str] | None = None,
) -> tuple[Position, tuple[Step, ...]]:
    """``apply_steps``, and the steps made, with ``hit`` set where they hit a blot."""
    my, opp = to_relative(pos, side, rules)
    made = []
    for s in steps:
        problem = _step_problem(my, opp, side, s, rules)
        if problem:
            if errors is None:
                raise StepError(problem)
            errors.append(problem)
            continue
        my[s.src] -= 1
        my[s.dst] += 1
        hit = s.dst != OFF and opp[s.dst] > 0 and rules.hits
        if hit:
            opp[s.dst] -= 1
            opp[BAR] += 1
        made.append(Step(s.src, s.dst, s.die, hit))
    return from_relative(my, opp, side, rules), tuple(made)


def position_at(game: GameRecord, index: int, rules: Rules = STANDARD) -> Position:
    """The position before the game's action ``index``: its plays replayed (impossible steps
    skipped)."""
    pos = game.start
    for a in game.actions[:index]:
        if a.kind is Kind.ROLL and a.steps:
            pos = apply_steps(pos, a.side, a.steps, rules, errors=[])
    return pos


def unplayed(game: GameRecord, index: int, rules: Rules = STANDARD) -> bool:
    """Whether the roll at ``index`` is dice without the play they allow, not a dance: its roller
    resigns next, or the unfinished game stops there. GNU Backgammon keeps such dice apart."""
    a = game.actions[index]
    if a.kind is not Kind.ROLL or a.steps or a.dice is None:
        return False
    nxt = game.actions[index + 1] if index + 1 < len(game.actions) else None
    stops = nxt.kind is Kind.RESIGN and nxt.side is a.side if nxt else game.winner is None
    return stops and can_move(position_at(game, index, rules), a.side, a.dice, rules)


def won_points(game: GameRecord) -> int:
    """The points its Wins says (the last WIN action's value), else ``game.points``."""
    wins = [a.value for a in game.actions if a.kind is Kind.WIN and a.value is not None]
    return wins[-1] if wins else game.points


def is_legal(before: Position, side: Side, dice: tuple[int, int], after: Position,
             rules: Rules = STANDARD) -> bool:
    """Whether a legal play of ``dice`` leads from ``before`` to ``after`` (no move: unchanged)."""
    my, opp = to_relative(after, side, rules)
    return (*my, *opp) in result_keys(before, side, dice, rules)


def _step_problem(my: list[int], opp: list[int], side: Side, s: Step, rules: Rules) -> str:
    move = f"{_name(s.src)}/{_name(s.dst)}"
    if not 0 <= s.dst < s.src <= BAR:
        return f"{move} does not move towards home"
    if my[s.src] == 0:
        return f"{move}: no {side.value} checker on {_name(s.src)}"
    if s.dst != OFF and opp[s.dst] >= rules.block:
        return f"{move}: {s.dst} is closed ({opp[s.dst]} opposing checkers)"
    return ""


def _name(p: int) -> str:
    return "bar" if p == BAR else "off" if p == OFF else str(p)


def win_level(pos: Position, winner: Side, rules: Rules = STANDARD) -> int:
    """1 (single), 2 (gammon) or 3 (backgammon) by the loser's checkers, within the rules' caps.

    A gammon: the loser has borne off none; a backgammon: besides, a checker on the bar or in the
    winner's home board.
    """
    loser = winner.other
    if pos.off(loser) or not rules.gammons:
        return 1
    if not rules.backgammons:
        return 2
    home = (rules.abs_index(winner, p) for p in range(1, rules.home_size + 1))
    if pos.bar(loser) or any(pos.points[i] * loser.sign > 0 for i in home):
        return 3
    return 2
