"""Legal plays for a roll: every distinct resulting position, with its steps and notation.

The generator works on mover-relative arrays (``my[p]``, ``opp[p]`` for the mover's points
1..24; index 25 is the bar, index 0 the checkers borne off) and reads what a variant allows from
its ``Rules``. It enforces: bar checkers enter first; closed points; hits; doubles move four
times; use as many dice as possible; when only one die of two can be used, the higher if it can;
bear off only with every checker home, with the exact die or, from the highest point, a larger one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .position import Position, Side
from .rules import STANDARD, Rules

BAR = 25
OFF = 0


class DiceError(ValueError):
    """Dice that cannot be rolled (not two values from 1 to 6)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die, in the mover's numbering (25 = bar, 0 = off)."""

    src: int
    dst: int
    die: int
    hit: bool


@dataclass(frozen=True)
class Play:
    """A legal play: its steps in the order played and the position it leaves."""

    side: Side
    dice: tuple[int, int]
    steps: tuple[Step, ...]
    before: Position
    after: Position
    rules: Rules = STANDARD

    @cached_property
    def notation(self) -> str:
        return format_play(self.steps, self.before, self.side, self.rules)

    @property
    def dice_used(self) -> int:
        return len(self.steps)

    def __str__(self) -> str:
        return self.notation


def check_dice(dice: tuple[int, int] | list[int]) -> tuple[int, int]:
    if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise DiceError(f"dice must be two values from 1 to 6, got {list(dice)}")
    return (dice[0], dice[1])


def to_relative(pos: Position, side: Side, rules: Rules = STANDARD) -> tuple[list[int], list[int]]:
    """(my, opp): counts at the mover's points 1..24, [25] = bar, [0] = off."""
    my = [0] * 26
    opp = [0] * 26
    sign = side.sign
    pts = pos.points
    for p in range(1, 25):
        n = pts[rules.abs_index(side, p)] * sign
        if n > 0:
            my[p] = n
        elif n < 0:
            opp[p] = -n
    my[BAR] = pos.bar(side)
    my[OFF] = pos.off(side)
    other = side.other
    opp[BAR] = pos.bar(other)
    opp[OFF] = pos.off(other)
    return my, opp


def from_relative(my: list[int], opp: list[int], side: Side, rules: Rules = STANDARD) -> Position:
    pts = [0] * 24
    sign = side.sign
    for p in range(1, 25):
        n = my[p] - opp[p]
        if n:
            pts[rules.abs_index(side, p)] = n * sign
    if side is Side.WHITE:
        return Position(tuple(pts), my[BAR], opp[BAR], my[OFF], opp[OFF])
    return Position(tuple(pts), opp[BAR], my[BAR], opp[OFF], my[OFF])


class _Search:
    """Depth-first search over the order of the dice, collecting each distinct end state."""

    __slots__ = ("my", "opp", "block", "hits", "home", "found", "steps", "most", "ordered")

    def __init__(self, my: list[int], opp: list[int], rules: Rules) -> None:
        self.my = my
        self.opp = opp
        self.block = rules.block
        self.hits = rules.hits
        self.home = rules.home_size
        self.found: dict[tuple[int, ...], tuple[Step, ...]] = {}
        self.steps: list[Step] = []
        self.most = 0
        self.ordered = False

    def run(self, dice: list[int], i: int, top: int) -> None:
        """Play dice[i:]; with doubles ``top`` keeps sources non-increasing (no permutations)."""
        my = self.my
        opp = self.opp
        moved = False
        if i < len(dice):
            d = dice[i]
            if my[BAR]:
                sources: tuple[int, ...] | range = (BAR,)
                highest = BAR
            else:
                highest = 24
                while highest and not my[highest]:
                    highest -= 1
                sources = range(min(top, highest), 0, -1)
            can_bear = highest <= self.home
            for s in sources:
                if not my[s]:
                    continue
                t = s - d
                if t > 0:
                    o = opp[t]
                    if o >= self.block:
                        continue
                    hit = self.hits and o == 1
                    my[s] -= 1
                    my[t] += 1
                    if hit:
                        opp[t] = 0
                        opp[BAR] += 1
                    self.steps.append(Step(s, t, d, hit))
                    self.run(dice, i + 1, s if self.ordered else BAR)
                    self.steps.pop()
                    if hit:
                        opp[t] = 1
                        opp[BAR] -= 1
                    my[t] -= 1
                    my[s] += 1
                    moved = True
                elif can_bear and (t == 0 or s == highest):
                    my[s] -= 1
                    my[OFF] += 1
                    self.steps.append(Step(s, OFF, d, False))
                    self.run(dice, i + 1, s if self.ordered else BAR)
                    self.steps.pop()
                    my[OFF] -= 1
                    my[s] += 1
                    moved = True
        if not moved:
            n = len(self.steps)
            if n >= self.most:
                self.most = n
                key = (*my, *opp)
                known = self.found.get(key)
                # the same end can be reached using fewer dice (the last checker borne off by
                # a larger die): keep the way that uses the most, which is the one that counts
                if known is None or len(known) < n:
                    self.found[key] = tuple(self.steps)


def _search(pos: Position, side: Side, dice: tuple[int, int], rules: Rules) -> _Search:
    my, opp = to_relative(pos, side, rules)
    search = _Search(my, opp, rules)
    a, b = dice
    if a == b:
        search.ordered = True
        search.run([a] * 4, 0, BAR)
    else:
        search.run([a, b], 0, BAR)
        search.run([b, a], 0, BAR)
    return search


def _keep(search: _Search, dice: tuple[int, int]) -> list[tuple[tuple[int, ...], tuple[Step, ...]]]:
    most = search.most
    kept = [(k, s) for k, s in search.found.items() if len(s) == most]
    a, b = dice
    if most == 1 and a != b:
        high = max(a, b)
        with_high = [(k, s) for k, s in kept if s[0].die == high]
        if with_high:
            kept = with_high
    return kept


def legal_plays(
    pos: Position, side: Side, dice: tuple[int, int] | list[int], rules: Rules = STANDARD
) -> list[Play]:
    """Every legal play of ``dice`` for ``side``, one per distinct resulting position.

    When no checker can move, the list holds one empty play that leaves the position as it is.
    """
    dice = check_dice(dice)
    search = _search(pos, side, dice, rules)
    plays = []
    for key, steps in _keep(search, dice):
        my = list(key[:26])
        opp = list(key[26:])
        after = from_relative(my, opp, side, rules)
        plays.append(Play(side, dice, steps, pos, after, rules))
    return plays


def result_keys(
    pos: Position, side: Side, dice: tuple[int, int], rules: Rules = STANDARD
) -> set[tuple[int, ...]]:
    """The distinct end states as mover-relative keys (fast path for oracles and benchmarks)."""
    search = _search(pos, side, dice, rules)
    return {k for k, _ in _keep(search, dice)}


def can_move(pos: Position, side: Side, dice: tuple[int, int], rules: Rules = STANDARD) -> bool:
    return legal_plays(pos, side, dice, rules)[0].dice_used > 0


def _point_name(p: int) -> str:
    if p == BAR:
        return "bar"
    if p <= OFF:
        return "off"
    return str(p)


def format_play(
    steps: tuple[Step, ...] | list[Step], before: Position, side: Side, rules: Rules = STANDARD
) -> str:
    """Standard notation as GNU Backgammon writes it: ``13/8 13/11*``, ``bar/22``, ``24/18(2)``.

    Moves are ordered by source point, a checker moved twice is one chain (its intermediate point
    kept only where it hit), identical chains are counted, and ``*`` marks a hit: once per point,
    at the first checker written as landing there (two checkers onto a blot: ``8/2* 6/2``).
    """
    if not steps:
        return ""
    _, opp = to_relative(before, side, rules)
    moves = sorted(((s.src, s.dst) for s in steps), reverse=True)
    chains: list[list[int] | None] = [[src, dst] for src, dst in moves]
    for i in range(len(chains)):
        chain = chains[i]
        if chain is None:
            continue
        for j in range(i + 1, len(chains)):
            other = chains[j]
            if other is not None and chain[-1] == other[0] and chain[-1] > OFF:
                if opp[chain[-1]]:
                    chain.append(other[1])
                else:
                    chain[-1] = other[1]
                chains[j] = None
    counted: list[tuple[list[int], int]] = []
    for chain in chains:
        if chain is None:
            continue
        for k, (seen, n) in enumerate(counted):
            if seen == chain:
                counted[k] = (seen, n + 1)
                break
        else:
            counted.append((chain, 1))
    parts = []
    starred: set[int] = set()  # a blot is hit once: like gnubg, star only its first landing
    for chain, n in counted:
        text = _point_name(chain[0])
        for k, p in enumerate(chain[1:], 1):
            text += "/" + _point_name(p)
            if OFF < p < BAR and opp[p] and (k < len(chain) - 1 or p not in starred):
                text += "*"
                starred.add(p)
        parts.append(text + (f"({n})" if n > 1 else ""))
    return " ".join(parts)
