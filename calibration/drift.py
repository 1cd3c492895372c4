"""Drift: has the board or the camera moved since calibration? The profile keeps a small grey
picture of the rectified board; a frame whose rectified picture no longer lines up with it
(normalised cross-correlation of their edges) has drifted."""

from __future__ import annotations

import cv2
import numpy as np

from vision.profile import BoardProfile

REF_WIDTH = 96
DRIFT_THRESHOLD = 0.5


def reference_image(frame: np.ndarray, profile: BoardProfile) -> np.ndarray:
    lay = profile.layout
    s = REF_WIDTH / lay.size[0]
    size = (REF_WIDTH, int(round(lay.size[1] * s)))
    M = profile.homography((frame.shape[1], frame.shape[0]))
    S = np.diag([1 / s, 1 / s, 1.0])
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return cv2.warpPerspective(gray, M @ S, size, flags=cv2.WARP_INVERSE_MAP | cv2.INTER_AREA)


def _edges(img: np.ndarray) -> np.ndarray:
    g = cv2.GaussianBlur(img.astype(np.float32), (3, 3), 0)
    e = np.hypot(cv2.Sobel(g, cv2.CV_32F, 1, 0), cv2.Sobel(g, cv2.CV_32F, 0, 1))
    return e - e.mean()


def alignment(frame: np.ndarray, profile: BoardProfile) -> float:
    """1.0 = lines up exactly with the calibration frame; near 0 = unrelated."""
    if profile.reference is None:
        return 1.0
    a = _edges(reference_image(frame, profile))
    b = _edges(profile.reference)
    return float((a * b).sum() / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))


def drifted(frame: np.ndarray, profile: BoardProfile, threshold: float = DRIFT_THRESHOLD
            ) -> bool:
    return alignment(frame, profile) < threshold
