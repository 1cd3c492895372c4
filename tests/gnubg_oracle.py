"""GNU Backgammon (PyPI ``gnubg``) as an independent oracle: board conversion and its legal plays.

gnubg's board is ``(opponent, player_on_roll)``, each 25 ints in that side's own numbering
(index i = point i+1, index 24 = the bar). See ../shared/notes/gnubg.md for its traps.
"""

from __future__ import annotations

import gnubg

from engine import Position, Side
from engine.moves import to_relative

gnubg.command("set threads 1")  # without it, some commands dead-lock
_CUBE = gnubg.cubeinfo()
_EVAL = gnubg.evalcontext(0, 0, 1, 0, 0.0)  # 0-ply: we only want the list of plays


def find_plays(board: tuple[tuple[int, ...], tuple[int, ...]], dice: tuple[int, int]) -> list:
    """gnubg's plays as dicts ``{"move": (from, to, ...)}``; it takes positional arguments only."""
    return gnubg.find_best_moves(board, _CUBE, _EVAL, tuple(dice))


def side_board(pos: Position, side: Side) -> tuple[int, ...]:
    """25 ints for ``side`` in its own numbering: points 1..24 then the bar."""
    my, _ = to_relative(pos, side)
    return tuple(my[1:26])


def to_gnubg_board(pos: Position, on_roll: Side) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return side_board(pos, on_roll.other), side_board(pos, on_roll)


def gnubg_results(pos: Position, on_roll: Side, dice: tuple[int, int]) -> set[tuple[int, ...]]:
    """gnubg's legal resulting positions as (mover's 25, opponent's 25) tuples."""
    opp, me = to_gnubg_board(pos, on_roll)
    found = set()
    for move in find_plays((opp, me), dice):
        mine = list(me)
        theirs = list(opp)
        steps = move["move"]
        for i in range(0, len(steps), 2):
            src, dst = steps[i], steps[i + 1]
            mine[src - 1] -= 1
            if dst > 0:
                mine[dst - 1] += 1
                if theirs[24 - dst]:  # a blot on the mover's dst = opponent's 25-dst
                    theirs[24 - dst] -= 1
                    theirs[24] += 1
        found.add((*mine, *theirs))
    return found


def _apply_prefix(me: list[int], opp: list[int], steps: tuple[int, ...]) -> None:
    for i in range(0, len(steps), 2):
        src = steps[i]
        dst = steps[i + 1] if i + 1 < len(steps) else 0
        me[src - 1] -= 1
        if dst > 0:
            me[dst - 1] += 1
            if opp[24 - dst]:
                opp[24 - dst] -= 1
                opp[24] += 1


def _completes(prefix: tuple[int, ...], key: tuple[int, ...]) -> bool:
    """Could ``key`` (mover 25 + opponent 25) follow gnubg's truncated bear-off play ``prefix``?

    After the first bear-off the remaining steps only move the mover's checkers down or off
    and may hit blots that then sit on the bar.
    """
    me, opp = list(prefix[0]), list(prefix[1])
    _apply_prefix(me, opp, prefix[2])
    mine, theirs = key[:25], key[25:]
    above_then = above_now = 0
    for p in range(23, -1, -1):
        above_then += me[p]
        above_now += mine[p]
        if above_now > above_then:
            return False
    for p in range(24):
        if theirs[p] != opp[p] and not (theirs[p] == 0 and opp[p] == 1 and mine[24 - p - 1]):
            return False
    return sum(theirs) == sum(opp)


def gnubg_match(
    ours: set[tuple[int, ...]], theirs: list[dict], pos: Position, side: Side
) -> str | None:
    """None when our result keys (from ``engine.moves.result_keys``) are gnubg's plays, else why.

    A complete gnubg move tuple gives an exact position. A tuple of odd length was cut short at
    its first bear-off: there the plays must pair off one to one with ours that could follow it.
    """
    opp0, me0 = to_gnubg_board(pos, side)
    mine = {tuple(k[1:26]) + tuple(k[50 - i] for i in range(24)) + (k[51],) for k in ours}
    if not theirs:  # gnubg lists no play when none is possible; we list the empty one
        return None if mine == {(*me0, *opp0)} else f"gnubg sees no play, we see {len(mine)}"
    if len(mine) != len(theirs):
        return f"{len(mine)} plays here, {len(theirs)} in gnubg"
    open_ones = set(mine)
    truncated = []
    for move in theirs:
        steps = move["move"]
        if len(steps) % 2:
            truncated.append(steps)
            continue
        me, opp = list(me0), list(opp0)
        _apply_prefix(me, opp, steps)
        key = (*me, *opp)
        if key not in open_ones:
            return f"gnubg's {steps} is not among our plays"
        open_ones.discard(key)
    # bipartite matching of cut-short plays to the rest of ours
    options = [[k for k in open_ones if _completes((me0, opp0, s), k)] for s in truncated]
    owner: dict[tuple[int, ...], int] = {}

    def assign(i: int, seen: set) -> bool:
        for k in options[i]:
            if k in seen:
                continue
            seen.add(k)
            if k not in owner or assign(owner[k], seen):
                owner[k] = i
                return True
        return False

    for i, steps in enumerate(truncated):
        if not assign(i, set()):
            return f"gnubg's cut-short {steps} matches none of our remaining plays"
    return None
