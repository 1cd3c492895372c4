"""A board small in the frame, looked for again in a crop about it.

The finder (:mod:`calibration.find`) works on an image of a fixed size (its long side WORK
pixels): a board spanning less than half the frame then has checkers a few pixels across, the
disc vote misses many of them and the checker grid misleads the search. When the finder's first
look (its best checker-grid candidate, before any refinement) spans less than ZOOM_MAX of the
frame's long side, the finder runs again in a crop about it; a find there scoring under
ZOOM_SURE is compared with the whole frame's, the better kept. One-shot reading and
calibration without markers or taps (``gammoncam calibrate FRAME``) both look so.
"""

from __future__ import annotations

import numpy as np

from .find import BoardNotFound, Found, find_playing_area, first_look

ZOOM_MAX = 0.45  # a board found spanning less of the frame's long side is looked for again ...
ZOOM_MARGIN = 0.25  # ... in a crop this share of its size wider on every side
ZOOM_SURE = 0.5  # a find in the crop scoring less is compared with the whole frame's


def find_zoomed(frame: np.ndarray, thorough: bool = False) -> Found:
    """:func:`calibration.find.find_playing_area` of ``frame``, or of a crop about a board the
    first look finds small (see the module's docstring); ``thorough``: the finder's slower,
    further-reaching refinement (calibration). Raises BoardNotFound."""
    look = first_look(frame)
    rough = look.rough()
    h, w = frame.shape[:2]
    if rough is not None:
        lo, hi = rough.min(0), rough.max(0)
        size = float((hi - lo).max())
        if size <= ZOOM_MAX * max(h, w):
            c = 0.5 * (lo + hi)
            half = 0.5 * size * (1 + 2 * ZOOM_MARGIN)
            x0, y0 = (int(max(0.0, v - half)) for v in c)
            x1, y1 = int(min(w, c[0] + half)), int(min(h, c[1] + half))
            try:
                near = find_playing_area(frame[y0:y1, x0:x1], thorough)
            except BoardNotFound:
                near = None
            if near is not None:
                off = np.array([x0, y0], np.float64)
                discs = None if near.discs is None else near.discs + np.r_[off, 0.0]
                near = Found(near.corners + off, near.bar, near.score, discs)
                if near.score >= ZOOM_SURE:
                    return near
                try:  # a doubtful find in the crop: the whole frame's too, the better
                    whole = find_playing_area(frame, thorough, look=look)
                except BoardNotFound:
                    return near
                return near if near.score > whole.score else whole
    return find_playing_area(frame, thorough, look=look)
