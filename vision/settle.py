"""The settle gate: cheap enough for every frame of a low-resolution stream (e.g. picamera2's
lores Y plane). A frame is settled when the mean absolute change of a small blurred grey copy
stayed under ``threshold`` for ``frames`` frames in a row."""

from __future__ import annotations

import cv2
import numpy as np

SMALL = (80, 45)


class Settler:
    def __init__(self, threshold: float = 2.0, frames: int = 3) -> None:
        self.threshold = threshold
        self.frames = frames
        self._prev: np.ndarray | None = None
        self._still = 0
        self.motion = 0.0

    def update(self, frame: np.ndarray) -> bool:
        """Feed one frame (grey or BGR, any size); True when the scene has settled."""
        g = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(g, SMALL, interpolation=cv2.INTER_AREA)
        if self._prev is None:
            self._prev = small
            self.motion = float("inf")
            return False
        self.motion = float(cv2.absdiff(small, self._prev).mean())
        self._prev = small
        self._still = self._still + 1 if self.motion < self.threshold else 0
        return self._still >= self.frames
