"""The found board's long edges fitted to the known position's first checkers, for calibration
without taps or markers.

The finder's thorough quad (:func:`calibration.find.find_board`) may leave a long edge a little
off on a start frame (the point-pattern model is only nearly right under perspective), and the
profile keeps that error for the whole game. Calibration knows the position it is shown, so each
long edge can be moved onto the line its columns' first checkers imply
(:func:`calibration.edges.fit_long_edges`, with the discs the finder found). The fit can also be
led astray (a false disc, a stack's second checker taken for a first), so calibration tries both
quads and keeps the one the position check reads better: the fit can only help.

When the finder's quad scores doubtfully on the point pattern, the wider look of
:mod:`calibration.widefind` may offer another (a variant's start misleads the checker grid);
:func:`candidate_quads` then gives both, each with its fit, and the position check decides
among all of them (the pattern score alone preferred a quad 4.2 % of the diagonal off to one
1.0 % off on tuning render 700000's Plakoto start).
(:func:`calibration.edges.fit_row_ends` is not used: on a start frame a false disc moved a
tuning render's corner from 1.4 to 5.3 % of the diagonal.)
"""

from __future__ import annotations

import numpy as np

from .edgeline import EdgeImage
from .edges import fit_long_edges
from .find import FINE, BoardNotFound, Found, _refine, work_lab
from .refine import refine_corners
from .widefind import wider
from .zoom import find_zoomed

MIN_SHIFT = 0.5  # a fitted quad whose corners all moved less (pixels) is the found quad
POLISH = (1.0, 0.5, 0.25)  # steps (working pixels) of the last refinement (see polished)


def found_and_fitted(frame: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """The finder's quad (refined to sub-pixel corners, as :func:`calibration.calibrate.
    board_corners` gives it) and the same quad with its long edges fitted to the first checkers,
    or None when the fit does not move it (too few first checkers, or no discs). Raises
    BoardNotFound."""
    return _with_fit(frame, find_zoomed(frame, thorough=True))


def polished(frame: np.ndarray, found: Found) -> np.ndarray:
    """``found``'s corners refined once more on the pattern model's FINE grid, steps down to a
    quarter of a working pixel (the finder's checker-grid path stops at the MID grid's half
    pixel). Tuning start frames, largest corner error in % of the diagonal: standard 700000-08
    1.71 -> 0.91, 1.73 -> 0.99, 2.36 -> 1.06 (3.60 -> 4.15, 3.87 -> 4.06 worse); Long Nardi
    4.48 -> 1.08, 3.68 -> 2.08 (1.05 -> 1.53, 0.99 -> 1.25 worse); Plakoto 1.81 -> 1.19, none
    worse."""
    s, lab = work_lab(frame)
    q = _refine(lab, np.asarray(found.corners, np.float64) * s, found.bar, POLISH, FINE,
                True)[0]
    return q / s


def _with_fit(frame: np.ndarray, found: Found, edges: EdgeImage | None = None
              ) -> tuple[np.ndarray, np.ndarray | None]:
    q = refine_corners(frame, found.corners)
    return q, _fit(q, found, edges or EdgeImage(frame))


def _fit(q: np.ndarray, found: Found, edges: EdgeImage) -> np.ndarray | None:
    """``q`` with its long edges fitted to the finder's discs, or None when that does not move
    it."""
    if found.discs is None:
        return None
    fit = fit_long_edges(q, found.bar, found.discs, edges)
    return None if float(np.abs(fit - q).max()) < MIN_SHIFT else fit


def _quads_of(frame: np.ndarray, found: Found, edges: EdgeImage) -> list[np.ndarray]:
    """The quads calibration checks for one find: it polished (:func:`polished`, sub-pixel
    corners) and that fitted to the first checkers, then the unpolished quad's fit (tuning
    700019's standard start: the polished quad 4.31 % of the diagonal off does not fit, the
    found one 4.08 % fits to 1.57 %)."""
    q = refine_corners(frame, polished(frame, found))
    out = [q]
    for fit in (_fit(q, found, edges), _fit(refine_corners(frame, found.corners), found, edges)):
        if fit is not None and all(float(np.abs(fit - o).max()) >= MIN_SHIFT for o in out):
            out.append(fit)
    return out


def finder_quads(frame: np.ndarray) -> tuple[Found | None, list[np.ndarray]]:
    """The finder's answer (None when it finds no board) and the quads calibration checks for
    it (:func:`_quads_of`)."""
    try:
        first = find_zoomed(frame, thorough=True)
    except BoardNotFound:
        return None, []
    return first, _quads_of(frame, first, EdgeImage(frame))


def wider_quads(frame: np.ndarray, first: Found | None) -> tuple[bool, list[np.ndarray]]:
    """Whether the finder's answer ``first`` is still worth checking and the quads of the wider
    look (:func:`calibration.widefind.wider`), each with its fits (:func:`_quads_of`)."""
    keep_first, others = wider(frame, first)
    edges = EdgeImage(frame)
    out: list[np.ndarray] = []
    for f in others:
        out += _quads_of(frame, f, edges)
    return keep_first, out


def candidate_quads(frame: np.ndarray) -> list[np.ndarray]:
    """The quads calibration checks, best guess first: the finder's (polished, refined to
    sub-pixel corners) and its fits to the first checkers (:func:`_quads_of`), then the quads the
    wider look (:func:`calibration.widefind.wider`) finds, each with its fit (the finder's left
    out when the wider look's best scores much better on the point pattern).
    Raises BoardNotFound when neither finds a board."""
    try:
        first: Found | None = find_zoomed(frame, thorough=True)
    except BoardNotFound:
        first = None
    keep_first, others = wider_quads(frame, first)
    out = _quads_of(frame, first, EdgeImage(frame)) if first is not None and keep_first else []
    out += others
    if not out:
        raise BoardNotFound("no board found")
    return out
