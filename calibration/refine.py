"""Sub-pixel corner refinement (cornerSubPix), refusing to move a corner far."""

from __future__ import annotations

import cv2
import numpy as np


def refine_corners(frame: np.ndarray, corners: np.ndarray, window: int = 5,
                   max_move: float = 3.0) -> np.ndarray:
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    pts = np.asarray(corners, np.float32).reshape(-1, 1, 2).copy()
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 0.01)
    try:
        ref = cv2.cornerSubPix(gray, pts.copy(), (window, window), (-1, -1), crit).reshape(-1, 2)
    except cv2.error:
        return np.asarray(corners, np.float64)
    orig = np.asarray(corners, np.float64)
    move = np.linalg.norm(ref - orig, axis=1)
    return np.where((move <= max_move)[:, None], ref, orig).astype(np.float64)
