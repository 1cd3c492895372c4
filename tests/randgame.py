"""Random reachable states: positions from random legal play, for oracles and property tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine import STANDARD, WHITE, Position, Rules, Side, legal_plays


def phase(pos: Position, side: Side) -> str:
    """'bar' (a checker to enter), 'bearoff' (all home), 'race' (no contact) or 'contact'."""
    if pos.bar(side):
        return "bar"
    sign = side.sign
    if side is WHITE:
        mine = [i for i, n in enumerate(pos.points) if n * sign > 0]
        theirs = [i for i, n in enumerate(pos.points) if n * sign < 0]
    else:
        mine = [23 - i for i, n in enumerate(pos.points) if n * sign > 0]
        theirs = [23 - i for i, n in enumerate(pos.points) if n * sign < 0]
    if not mine or max(mine) < 6:
        return "bearoff"
    if not theirs or (max(mine) < min(theirs) and not pos.bar(side.other)):
        return "race"
    return "contact"


def random_states(
    seed: int, rules: Rules = STANDARD
) -> Iterator[tuple[Position, Side, tuple[int, int]]]:
    """Endless (position, side to move, dice) from random legal games, each before its play."""
    rng = random.Random(seed)
    while True:
        pos, side = rules.start, rng.choice([WHITE, Side.BLACK])
        while pos.off(WHITE) < 15 and pos.off(Side.BLACK) < 15:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            yield pos, side, dice
            pos = rng.choice(legal_plays(pos, side, dice, rules)).after
            side = side.other
