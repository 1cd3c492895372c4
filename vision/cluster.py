"""Two-way colour clustering (the two checker sets), deterministic.

OpenCV's k-means draws its starting centres from a global random generator whose state depends
on every earlier call in the process, so the same image could split differently from run to
run; seeding it before each call makes a reading depend on the image alone.
"""

from __future__ import annotations

import cv2
import numpy as np

_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)


def two_clusters(samples: np.ndarray, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(labels 0/1 per sample, the two centres) of k-means with k-means++ starts, 3 attempts."""
    cv2.setRNGSeed(seed)
    _, labels, centres = cv2.kmeans(np.float32(samples), 2, None, _CRITERIA, 3,
                                    cv2.KMEANS_PP_CENTERS)
    return labels.ravel(), centres
