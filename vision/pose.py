"""The camera's pose over the board, from the playing area's four corners and its known shape.

A checker's top or a tray checker standing on edge is above the board's plane; the plane's
homography draws it where the camera ray through it meets the plane, which in a tilted view is
well away from its foot. With the camera centre known in playing-area coordinates (canonical
pixels; the height in the same unit), a point at height h is seen where the plane point

    C_xy + (xy - C_xy) * Hc / (Hc - h)

is, so strips and masks can place what stands up where the frame shows it. The focal length is
nominal (the frame's width, a Raspberry Pi camera's is 0.8-1.1 of it): only the pose's scale
depends on it, and a view straight down does not depend on it at all.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .geometry import Layout

FOCAL = 1.0  # nominal focal length, in frame widths


@dataclass(frozen=True)
class Pose:
    """The camera centre over the playing area: ``xy`` (canonical pixels) and ``height``
    above the board's plane (same unit)."""

    xy: tuple[float, float]
    height: float

    def lift(self, xy: np.ndarray, h: float | np.ndarray) -> np.ndarray:
        """Where points ``xy`` (..., 2) at height ``h`` (canonical pixels up) are seen in the
        board's plane."""
        c = np.asarray(self.xy, np.float64)
        k = self.height / np.maximum(self.height - np.asarray(h, np.float64), 1e-6)
        return c + (np.asarray(xy, np.float64) - c) * np.asarray(k)[..., None]

    def tilt_deg(self, lay: Layout) -> float:
        """Angle from straight down at the playing area's centre."""
        d = np.hypot(self.xy[0] - lay.W / 2, self.xy[1] - lay.H / 2)
        return float(np.degrees(np.arctan2(d, self.height)))

    def to_json(self) -> dict[str, float]:
        return {"x": round(self.xy[0], 2), "y": round(self.xy[1], 2),
                "height": round(self.height, 2)}


def camera_pose(corners: np.ndarray, image_size: tuple[int, int], lay: Layout) -> Pose:
    """The pose from the playing area's corners (TL, TR, BR, BL of the canonical board, frame
    pixels) in a frame of ``image_size`` (width, height)."""
    w, h = image_size
    K = np.array([[FOCAL * w, 0, w / 2], [0, FOCAL * w, h / 2], [0, 0, 1]], np.float64)
    obj = np.array([[0, 0, 0], [lay.W, 0, 0], [lay.W, lay.H, 0], [0, lay.H, 0]], np.float64)
    img = np.asarray(corners, np.float64).reshape(4, 1, 2)
    ok, rvec, tvec = cv2.solvePnP(obj, img, K, None, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        return Pose((lay.W / 2, lay.H / 2), 1e9)  # no pose: everything flat
    R, _ = cv2.Rodrigues(rvec)
    C = (-R.T @ tvec).ravel()
    return Pose((float(C[0]), float(C[1])), float(abs(C[2])))
