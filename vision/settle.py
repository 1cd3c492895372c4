"""The settle gate: cheap enough for every frame of a low-resolution stream (e.g. picamera2's
lores Y plane). Each frame is shrunk to a small blurred grey copy (``SMALL``, area averaging, so
sensor noise mostly cancels) and compared with the previous one: the frame moved when the mean
absolute change over the whole copy reached ``threshold``, or, with ``tile_threshold`` given
(``TILE_THRESHOLD`` for a live stream), when the mean change over any one tile of a ``TILES``
grid did. The whole-frame mean alone misses a hand over a board that fills a small part of the
view (a hand reaching in moved the mean by 1-1.5 grey levels at 320x180, under its 2.0, while the
tiles it crossed changed by 24-120 levels; still frames' tiles change by at most 1-2). The tiles
are off by default: recorded footage is fed with ``frames=1`` (its frames are far apart), and
there a hand moves between almost every pair of frames, so the tiles leave too few settled
frames for the reader (the demo footage's first turns lose a play). A frame is settled when
``frames`` frames in a row did not move."""

from __future__ import annotations

import cv2
import numpy as np

SMALL = (80, 45)
TILES = (16, 9)  # tiles of 5x5 pixels of the small copy (1/16 of the view's width each)
TILE_THRESHOLD = 8.0  # grey levels: a live stream's tile threshold


class Settler:
    def __init__(self, threshold: float = 2.0, frames: int = 3,
                 tile_threshold: float | None = None) -> None:
        self.threshold = threshold
        self.tile_threshold = tile_threshold
        self.frames = frames
        self._prev: np.ndarray | None = None
        self._still = 0
        self.motion = 0.0  # the last frame's mean change (grey levels)
        self.tile_motion = 0.0  # the last frame's largest tile mean change
        self.moved = True  # whether the last frame moved

    def update(self, frame: np.ndarray) -> bool:
        """Feed one frame (grey or BGR, any size); True when the scene has settled."""
        g = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(g, SMALL, interpolation=cv2.INTER_AREA)
        if self._prev is None:
            self._prev = small
            self.motion = self.tile_motion = float("inf")
            self.moved = True
            return False
        diff = cv2.absdiff(small, self._prev)
        self._prev = small
        self.motion = float(cv2.mean(diff)[0])
        self.moved = self.motion >= self.threshold
        if self.tile_threshold is not None:
            tiles = cv2.resize(diff, TILES, interpolation=cv2.INTER_AREA)
            self.tile_motion = float(tiles.max())
            self.moved = self.moved or self.tile_motion >= self.tile_threshold
        self._still = 0 if self.moved else self._still + 1
        return self._still >= self.frames
