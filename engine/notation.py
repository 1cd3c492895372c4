"""Reading standard move notation back into the position it leaves.

``parse_play("13/10*/8 6/5", before, side)`` is the inverse of ``engine.moves.format_play``: it
reads what GNU Backgammon writes (moves in the mover's own numbering, ``bar`` and ``off``, a chain
``13/10*/8`` for one checker, ``(2)`` for a repeated move, ``*`` for a hit) and applies it. It
checks the text and that each move can be made on the board (a checker to move, no landing on a
closed point), but not the dice nor the order of play: notation groups the moves by checker
(``bar/24*/23 bar/24`` entered both checkers before either moved on), so whether the play was
legal for the roll - bar checkers first, both dice, the higher die, bearing off - is the judge's
question, answered by comparing the result with ``legal_plays``.
"""

from __future__ import annotations

import re
from itertools import pairwise

from .moves import BAR, OFF, from_relative, to_relative
from .position import Position, Side
from .rules import STANDARD, Rules


class NotationError(ValueError):
    """Text that is not a play, or a play that cannot be made on this board."""


_MOVE = re.compile(r"(?P<chain>[^()]+)(?:\((?P<count>[1-4])\))?")


def _point(text: str, first: bool) -> int:
    word = text.lower()
    if word == "bar":
        if not first:
            raise NotationError("a move cannot end on the bar")
        return BAR
    if word == "off":
        if first:
            raise NotationError("a move cannot start from off the board")
        return OFF
    if not word.isdigit() or not 1 <= int(word) <= 24:
        raise NotationError(f"not a point: {text!r}")
    return int(word)


def parse_moves(text: str) -> list[tuple[list[tuple[int, bool]], int]]:
    """The moves of ``text``: each a chain of (point, starred) from its source, and its count."""
    moves = []
    for token in text.split():
        m = _MOVE.fullmatch(token)
        if not m:
            raise NotationError(f"not a move: {token!r}")
        parts = m["chain"].split("/")
        if len(parts) < 2:
            raise NotationError(f"a move needs a source and a destination: {token!r}")
        chain = []
        for i, part in enumerate(parts):
            star = part.endswith("*")
            name = part[:-1] if star else part
            if star and i == 0:
                raise NotationError(f"a hit is marked on a destination, not a source: {token!r}")
            point = _point(name, i == 0)
            if i and point >= chain[-1][0]:
                raise NotationError(f"a checker moves to a lower point: {token!r}")
            if i < len(parts) - 1 and point == OFF:
                raise NotationError(f"nothing moves on from off the board: {token!r}")
            chain.append((point, star))
        moves.append((chain, int(m["count"] or 1)))
    return moves


def parse_play(text: str, before: Position, side: Side, rules: Rules = STANDARD) -> Position:
    """The position ``side``'s play ``text`` leaves from ``before`` (empty text: no move).

    A ``*`` must mark a point that held a lone opposing checker before the play; a hit is made
    whenever a checker lands on a lone opposing checker, marked or not (GNU Backgammon marks each
    hit point once, and elides the intermediate point of a chain that did not hit).
    """
    my, opp = to_relative(before, side, rules)
    blots = {p for p in range(1, 25) if opp[p] == 1}
    for chain, count in parse_moves(text):
        for _ in range(count):
            for (src, _), (dst, star) in pairwise(chain):
                if star and dst not in blots:
                    raise NotationError(f"{dst}* marks a hit where no lone checker stood")
                if my[src] <= 0:
                    raise NotationError(f"no checker of {side.value} on {_name(src)}")
                my[src] -= 1
                if dst == OFF:
                    my[OFF] += 1
                    continue
                if opp[dst] >= rules.block:
                    raise NotationError(f"{dst} is closed to {side.value}")
                if opp[dst]:
                    if not rules.hits:
                        raise NotationError(f"{dst} holds an opposing checker")
                    opp[dst] -= 1
                    opp[BAR] += 1
                my[dst] += 1
    return from_relative(my, opp, side, rules)


def _name(p: int) -> str:
    return "the bar" if p == BAR else str(p)
