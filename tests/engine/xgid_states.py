"""Random XGID states for property and oracle tests: reachable positions, random match fields.

``gnubg_safe=True`` keeps to what GNU Backgammon can hold: match length at most 64, money scores
0 (gnubg drops them), no beaver or raccoon pending.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from engine import BLACK, WHITE, Position, Side
from engine.xgid import XgidState
from tests.randgame import random_states

MATCH_LENGTHS = (1, 2, 3, 5, 7, 9, 11, 13, 15, 17, 21, 25, 64)


def _match_fields(rng: random.Random, gnubg_safe: bool) -> dict:
    if rng.random() < 0.35:
        scores = (0, 0) if gnubg_safe or rng.random() < 0.7 else (rng.randint(0, 40),) * 2
        return {
            "match_length": 0,
            "score_white": scores[0],
            "score_black": scores[1],
            "jacoby": rng.random() < 0.5,
            "beaver": rng.random() < 0.5,
        }
    n = rng.choice(MATCH_LENGTHS if gnubg_safe else (*MATCH_LENGTHS, 99, 32767))
    white, black = rng.randint(0, n - 1), rng.randint(0, n - 1)
    if rng.random() < 0.3:  # often someone at match point: Crawford and post-Crawford games
        if rng.random() < 0.5:
            white = n - 1
        else:
            black = n - 1
    at_point = (white == n - 1) + (black == n - 1)
    crawford = n > 1 and at_point == 1 and rng.random() < 0.5
    return {"match_length": n, "score_white": white, "score_black": black, "crawford": crawford}


def random_xgid_state(
    rng: random.Random,
    position: Position,
    side: Side,
    dice: tuple[int, int],
    gnubg_safe: bool = False,
) -> XgidState:
    """A valid XgidState around a reachable (position, side) with random cube, dice and score."""
    fields = _match_fields(rng, gnubg_safe)
    money = fields["match_length"] == 0
    cube_log = 0 if fields.get("crawford") else rng.choice((0, 0, 0, 1, 1, 2, 3, 4, 6, 10))
    owner = None
    if cube_log and rng.random() < 0.85:
        owner = rng.choice((WHITE, BLACK))
    max_log = rng.choice((10, 10, 10, max(cube_log, 2), 15))
    max_log = max(max_log, cube_log)
    roll = rng.random()
    decision = None
    rolled: tuple[int, int] | None = None
    if not fields.get("crawford") and roll < 0.15:
        decision = "double"
        if money and not gnubg_safe and rng.random() < 0.4:
            decision = rng.choice(("beaver", "raccoon"))
    elif roll < 0.8:
        rolled = dice
    return XgidState(
        position=position,
        cube_value=1 << cube_log,
        cube_owner=owner,
        turn=side,
        dice=rolled,
        decision=decision,
        max_cube=1 << max_log,
        **fields,
    )


def xgid_states(seed: int, count: int, gnubg_safe: bool = False) -> Iterator[XgidState]:
    """``count`` random states; every 3rd state of random games, so phases mix."""
    rng = random.Random(seed)
    for pos, side, dice in itertools.islice(random_states(seed), 0, 3 * count, 3):
        yield random_xgid_state(rng, pos, side, dice, gnubg_safe)
