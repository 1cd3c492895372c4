"""The one place that knows OpenCV's two ArUco APIs: 4.6 (Raspberry Pi OS's apt) has only the
free functions (``cv2.aruco.detectMarkers``, ``drawMarker``); 4.7+ has ``ArucoDetector`` and
``generateImageMarker``, and 5.0 has only those."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

DICTIONARY = "DICT_4X4_50"


def _aruco(module: Any | None = None) -> Any:
    aruco = module if module is not None else getattr(cv2, "aruco", None)
    if aruco is None:
        raise RuntimeError("this OpenCV has no ArUco module")
    return aruco


def dictionary(module: Any | None = None) -> Any:
    aruco = _aruco(module)
    return aruco.getPredefinedDictionary(getattr(aruco, DICTIONARY))


def detect(gray: np.ndarray, module: Any | None = None) -> dict[int, np.ndarray]:
    """Marker id -> its four corners (4, 2) in image pixels (OpenCV's order: clockwise from the
    marker's own top-left)."""
    aruco = _aruco(module)
    d = dictionary(aruco)
    if hasattr(aruco, "ArucoDetector"):
        corners, ids, _ = aruco.ArucoDetector(d, aruco.DetectorParameters()).detectMarkers(gray)
    else:  # OpenCV 4.6
        params = aruco.DetectorParameters_create()
        corners, ids, _ = aruco.detectMarkers(gray, d, parameters=params)
    if ids is None:
        return {}
    return {int(i): np.asarray(c, np.float64).reshape(4, 2)
            for i, c in zip(np.asarray(ids).ravel(), corners, strict=True)}


def marker_image(marker_id: int, px: int, module: Any | None = None) -> np.ndarray:
    aruco = _aruco(module)
    d = dictionary(aruco)
    if hasattr(aruco, "generateImageMarker"):
        return aruco.generateImageMarker(d, marker_id, px)
    return aruco.drawMarker(d, marker_id, px)  # OpenCV 4.6
