"""Helpers for hand-built positions: build a board, check a play set, replay steps by the rules.

The builders place checkers by the geometry the rules describe (each side numbers its points
from its own home, 1..24; black's point p is white's 25-p) without going through the engine's
own conversion, and give each side the rest of its 15 checkers as borne off. ``replay`` checks
a play's steps one by one against the written rules, independently of the move generator.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

import gnubg

from engine import BAR, OFF, WHITE, Play, Position, Side, Step, legal_plays
from engine.moves import result_keys
from tests.gnubg_oracle import find_plays, gnubg_match, to_gnubg_board

CHECKERS = 15


def index(side: Side, point: int) -> int:
    """Absolute index (white's point index+1) of ``side``'s own point ``point``."""
    return point - 1 if side is WHITE else 24 - point


def own(
    white: Mapping[int, int],
    black: Mapping[int, int],
    *,
    bar_white: int = 0,
    bar_black: int = 0,
) -> Position:
    """Each side's checkers in its own numbering; whatever is missing from 15 is borne off."""
    points = [0] * 24
    for side, layout in ((WHITE, white), (Side.BLACK, black)):
        for point, n in layout.items():
            i = index(side, point)
            if points[i]:
                raise ValueError(f"two layouts share white's point {i + 1}")
            points[i] = n * side.sign
    on_white = sum(white.values()) + bar_white
    on_black = sum(black.values()) + bar_black
    return Position(
        tuple(points), bar_white, bar_black, CHECKERS - on_white, CHECKERS - on_black
    ).validate()


def mover(
    side: Side,
    me: Mapping[int, int],
    them: Mapping[int, int] | None = None,
    *,
    me_bar: int = 0,
    them_bar: int = 0,
) -> Position:
    """A board seen by ``side``: its checkers and the opponent's both at the mover's points."""
    them = them or {}
    theirs = {25 - p: n for p, n in them.items()}
    if side is WHITE:
        return own(me, theirs, bar_white=me_bar, bar_black=them_bar)
    return own(theirs, me, bar_white=them_bar, bar_black=me_bar)


def notations(pos: Position, side: Side, dice: tuple[int, int]) -> list[str]:
    return [p.notation for p in legal_plays(pos, side, dice)]


def gnubg_strings(pos: Position, side: Side, dice: tuple[int, int]) -> list[str]:
    """gnubg's own notation of each of its plays whose move tuple is complete (no bear-off cut)."""
    board = to_gnubg_board(pos, side)
    return [
        gnubg.move_tuple_to_string(m["move"], board)
        for m in find_plays(board, dice)
        if len(m["move"]) % 2 == 0
    ]


def assert_plays(
    pos: Position, side: Side, dice: tuple[int, int], expected: Iterable[str]
) -> dict[str, Play]:
    """Our plays are exactly ``expected`` (notations; "" = no move), and so are gnubg's.

    gnubg is checked twice: its plays give the same set of resulting positions as ours, and its
    own notation of each complete move tuple is one of the expected strings.
    """
    want = set(expected)
    plays = legal_plays(pos, side, dice)
    got = [p.notation for p in plays]
    assert len(got) == len(set(got)), f"duplicate notations {got}"
    assert set(got) == want, f"{side.value} {dice}: got {sorted(got)}, want {sorted(want)}"
    problem = gnubg_match(result_keys(pos, side, dice), find_plays(
        to_gnubg_board(pos, side), dice), pos, side)
    assert problem is None, problem
    theirs = set(gnubg_strings(pos, side, dice))
    assert theirs <= want, f"gnubg writes {sorted(theirs - want)}"
    for play in plays:
        replay(pos, side, dice, play.steps, play.after)
    return {p.notation: p for p in plays}


def relative(pos: Position, side: Side) -> tuple[list[int], list[int]]:
    """(mine, theirs) at the mover's points 1..24, [25] = bar, [0] = off, built from scratch."""
    mine = [0] * 26
    theirs = [0] * 26
    for p in range(1, 25):
        n = pos.points[index(side, p)] * side.sign
        if n > 0:
            mine[p] = n
        elif n < 0:
            theirs[p] = -n
    mine[BAR], mine[OFF] = pos.bar(side), pos.off(side)
    theirs[BAR], theirs[OFF] = pos.bar(side.other), pos.off(side.other)
    return mine, theirs


def replay(
    pos: Position,
    side: Side,
    dice: tuple[int, int],
    steps: Iterable[Step],
    after: Position | None = None,
) -> tuple[list[int], list[int]]:
    """Make ``steps`` one at a time, asserting each obeys the written rules; return the end state.

    Bar checkers first, entering on the opponent's home board (point 25 - die); every other step
    moves exactly its die towards home; a landing is never on two or more opposing checkers and
    hits exactly when one stands there; bearing off only with all 15 home, by the exact die or,
    from the highest occupied point, a larger one. The dice used are a part of the roll.
    """
    mine, theirs = relative(pos, side)
    used: list[int] = []
    for step in steps:
        src, dst, die = step.src, step.dst, step.die
        used.append(die)
        assert mine[src] > 0, f"{step}: no checker on {src}"
        assert not mine[BAR] or src == BAR, f"{step}: moved while a checker is on the bar"
        if dst == OFF:
            assert src != BAR, f"{step}: off from the bar"
            assert sum(mine[7:26]) == 0, f"{step}: bears off with a checker outside home"
            higher = any(mine[q] for q in range(src + 1, 7))
            assert src == die or (src < die and not higher), f"{step}: bear-off not allowed"
        else:
            assert dst == src - die, f"{step}: does not move by its die"
            assert theirs[dst] < 2, f"{step}: lands on a closed point"
            assert step.hit == (theirs[dst] == 1), f"{step}: hit flag wrong"
        mine[src] -= 1
        mine[dst] += 1
        if dst != OFF and theirs[dst] == 1:
            theirs[dst] = 0
            theirs[BAR] += 1
    a, b = dice
    if a == b:
        assert len(used) <= 4 and all(d == a for d in used), f"dice used {used} of {dice}"
    else:
        assert not Counter(used) - Counter(dice), f"dice used {used} of {dice}"
    if after is not None:
        assert (mine, theirs) == relative(after, side), "steps do not lead to the play's position"
    return mine, theirs
