"""The found board's long edges fitted to the known position's first checkers, for calibration
without taps or markers.

The finder's thorough quad (:func:`calibration.find.find_board`) may leave a long edge a little
off on a start frame (the point-pattern model is only nearly right under perspective), and the
profile keeps that error for the whole game. Calibration knows the position it is shown, so each
long edge can be moved onto the line its columns' first checkers imply
(:func:`calibration.edges.fit_long_edges`, with the discs the finder found). The fit can also be
led astray (a false disc, a stack's second checker taken for a first), so calibration tries both
quads and keeps the one the position check reads better: the fit can only help.
(:func:`calibration.edges.fit_row_ends` is not used: on a start frame a false disc moved a
tuning render's corner from 1.4 to 5.3 % of the diagonal.)
"""

from __future__ import annotations

import numpy as np

from .edgeline import EdgeImage
from .edges import fit_long_edges
from .refine import refine_corners
from .zoom import find_zoomed

MIN_SHIFT = 0.5  # a fitted quad whose corners all moved less (pixels) is the found quad


def found_and_fitted(frame: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """The finder's quad (refined to sub-pixel corners, as :func:`calibration.calibrate.
    board_corners` gives it) and the same quad with its long edges fitted to the first checkers,
    or None when the fit does not move it (too few first checkers, or no discs). Raises
    BoardNotFound."""
    found = find_zoomed(frame, thorough=True)
    q = refine_corners(frame, found.corners)
    if found.discs is None:
        return q, None
    fit = fit_long_edges(q, found.bar, found.discs, EdgeImage(frame))
    if float(np.abs(fit - q).max()) < MIN_SHIFT:
        return q, None
    return q, fit
