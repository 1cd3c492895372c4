"""The board finder's second answer, for a calibration the first one fails.

The finder (:mod:`calibration.find`) goes first by the checkers' grid and falls back on long
straight edges only when the grid's best quad scores under ``MIN_SCORE``. A variant's start
(Plakoto, Long Nardi: each side's fifteen on one point) offers two pyramids for a grid, which
can lead it to a quad that the point pattern still scores above that floor and that is no board
(tuning renders 700000-23, Plakoto's start at 960x540: 9 of 24 auto calibrations refused, the
edge search's quad right on 2 of them). :func:`other_quads` gives the edge search's quad, and
calibration tries it when the position check refuses the first: the check (the position read
back from the frame) decides, as for the first quad. After it come the quads of the wider look
(:func:`calibration.widefind.wider`, asked whatever the first quad scored: a standard start's
finder quad can score well on the point pattern and lie off the board, tuning 700014).
"""

from __future__ import annotations

import numpy as np

from .find import BoardNotFound, first_look, from_edges, upright
from .widefind import DISTINCT, wider


def other_quads(frame: np.ndarray) -> list[np.ndarray]:
    """Quads (TL, TR, BR, BL, frame pixels) the finder's edge search gives ``frame``, best
    first; empty when it finds none."""
    out: list[np.ndarray] = []
    try:
        look = first_look(frame)
        _sc, _bar, q = from_edges(look.gray, look.lab, thorough=True)
        out.append(upright(q) / look.s)
    except BoardNotFound:
        pass
    tol = DISTINCT * float(max(frame.shape[:2]))
    for f in wider(frame, None)[1]:
        if all(np.abs(f.corners - o).max() > tol for o in out):
            out.append(f.corners)
    return out
