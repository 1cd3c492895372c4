"""A drawn die face for the pip reader's tests: a 56 x 56 lightness window, drawn 8x larger and
shrunk as a camera's pixels average it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.pips import LAYOUTS, PIP_STEP

SIDE = 17.0  # the face's side, window pixels
CX, CY = 28.0, 28.0  # the face's centre


def face_window(v: int, angle: float, body: float, pip: float, board: float,
                blob: tuple[float, float, float, float] | None = None) -> np.ndarray:
    """One die face of value ``v`` turned ``angle`` (radians), its body and pips of these
    lightnesses on a board of ``board``; ``blob``: a dark rectangle (face coordinates u0, w0, u1,
    w1, window pixels) as a side face seen past the top face's edge."""
    big = 8
    L = np.full((56 * big, 56 * big), board, np.float32)
    c, s = np.cos(angle), np.sin(angle)

    def at(u: float, w: float) -> tuple[float, float]:
        return (CX + c * u - s * w) * big, (CY + s * u + c * w) * big

    h = SIDE / 2
    cv2.fillConvexPoly(L, np.array([at(-h, -h), at(h, -h), at(h, h), at(-h, h)], np.int32), body)
    for i, j in LAYOUTS[v]:
        x, y = at(i * PIP_STEP * SIDE, j * PIP_STEP * SIDE)
        cv2.circle(L, (int(x), int(y)), int(0.09 * SIDE * big), pip, -1)
    if blob is not None:
        u0, w0, u1, w1 = blob
        cv2.fillConvexPoly(L, np.array([at(u0, w0), at(u1, w0), at(u1, w1), at(u0, w1)],
                                       np.int32), pip + 10.0)
    return cv2.resize(L, (56, 56), interpolation=cv2.INTER_AREA)
