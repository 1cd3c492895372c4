"""A drawn board for the finder's tests: a plain field with two rows of twelve alternating
triangles and a bar between the halves (playing area TL (70, 40), BR (580, 450) in a 640x480
frame), blurred as a camera would."""

from __future__ import annotations

import cv2
import numpy as np


def triangle_board() -> np.ndarray:
    """The 640x480 BGR frame."""
    frame = np.full((480, 640, 3), (60, 110, 150), np.uint8)
    for c in range(12):
        x = 70 + c * 40 + (30 if c >= 6 else 0)
        col = (40, 40, 170) if c % 2 else (200, 220, 230)
        cv2.fillConvexPoly(frame, np.int32([[x, 40], [x + 40, 40], [x + 20, 200]]), col)
        cv2.fillConvexPoly(frame, np.int32([[x, 450], [x + 40, 450], [x + 20, 290]]),
                           col[::-1])
    return cv2.GaussianBlur(frame, (5, 5), 0)
