"""The opening roll as tournaments play it: one die each, each player throwing into their own
right-hand side (white sits at the bottom edge, so white's die lands in the right half; black's
in the left half); a tie is picked up and thrown again.

The pair on the board then has no single owner: :class:`~tests.scenes.scene.DicePair` with
``owner`` None and values (white's, black's).
"""

from __future__ import annotations

import numpy as np

from engine import Position

from .scene import DicePair, Setup, place_dice

OPENINGS = ("one_die_each", "both_dice")  # footage: tournament opening, or the winner's pair


def place_opening(setup: Setup, rng: np.random.Generator, white: int, black: int,
                  pos: Position) -> DicePair:
    """White's die in the right half, black's in the left, each in its owner's dice look."""
    w = place_dice(setup, rng, (white, white), "white", pos).dice[0]
    b = place_dice(setup, rng, (black, black), "black", pos, avoid=[(w.x, w.y)]).dice[0]
    return DicePair((int(white), int(black)), None, [w, b])


def region_of(loc: tuple[str, object]) -> int:
    """The Observation region (0..27) of a board location ("pt", i) | ("bar"|"off", side)."""
    kind, v = loc
    if kind == "pt":
        return int(v)  # type: ignore[call-overload]
    base = 24 if kind == "bar" else 26
    return base + (0 if v == "white" else 1)
