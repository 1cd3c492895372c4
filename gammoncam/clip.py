"""The last seconds of video, kept in memory as small JPEGs, for "save the last 30 seconds".

The capture thread offers every frame; the buffer keeps at most ``fps`` a second, scaled down to
``width`` pixels and JPEG-encoded (about 30 kB each at 640 px), and forgets frames older than
``seconds`` before the newest. ``save`` writes them as a video file (MJPG in .avi, or mp4v in
.mp4) at the rate they were kept.
"""

from __future__ import annotations

import threading
from collections import deque
from pathlib import Path

import cv2
import numpy as np


class ClipError(ValueError):
    """Nothing to save, or the file cannot be written."""


class ClipBuffer:
    """A ring buffer of (time, JPEG bytes); thread-safe."""

    def __init__(self, seconds: float = 30.0, fps: float = 4.0, width: int = 640,
                 quality: int = 80) -> None:
        self.seconds, self.fps, self.width, self.quality = seconds, fps, width, quality
        self._frames: deque[tuple[float, bytes]] = deque()
        self._lock = threading.Lock()
        self._size: tuple[int, int] | None = None

    def offer(self, image: np.ndarray, t: float) -> bool:
        """Keep ``image`` (taken at ``t`` seconds) when a frame is due; True when kept."""
        with self._lock:
            if self._frames:
                last = self._frames[-1][0]
                if t < last:  # time went backwards (a new source): start afresh
                    self._frames.clear()
                elif t - last < 1.0 / self.fps - 1e-6:
                    return False
        h, w = image.shape[:2]
        if w > self.width:
            image = cv2.resize(image, (self.width, round(h * self.width / w)),
                               interpolation=cv2.INTER_AREA)
        ok, jpg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, self.quality])
        if not ok:
            return False
        with self._lock:
            if self._size is not None and self._size != image.shape[1::-1]:
                self._frames.clear()  # another camera size: frames of one size per clip
            self._size = image.shape[1::-1]
            self._frames.append((t, jpg.tobytes()))
            while self._frames and t - self._frames[0][0] > self.seconds:
                self._frames.popleft()
        return True

    def __len__(self) -> int:
        with self._lock:
            return len(self._frames)

    def snapshot(self) -> list[tuple[float, bytes]]:
        with self._lock:
            return list(self._frames)

    def duration(self) -> float:
        frames = self.snapshot()
        return frames[-1][0] - frames[0][0] if len(frames) > 1 else 0.0

    def save(self, path: str | Path) -> int:
        """Write the kept frames as a video; returns how many. Raises ClipError."""
        frames = self.snapshot()
        if not frames:
            raise ClipError("no video to save yet (no frames from the camera)")
        path = Path(path)
        codec = "mp4v" if path.suffix.lower() in (".mp4", ".m4v", ".mov") else "MJPG"
        first = cv2.imdecode(np.frombuffer(frames[0][1], np.uint8), cv2.IMREAD_COLOR)
        h, w = first.shape[:2]
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*codec), self.fps, (w, h))
        if not writer.isOpened():
            raise ClipError(f"cannot write video to {path}")
        try:
            for _, jpg in frames:
                img = cv2.imdecode(np.frombuffer(jpg, np.uint8), cv2.IMREAD_COLOR)
                if img is not None and img.shape[:2] == (h, w):
                    writer.write(img)
        finally:
            writer.release()
        return len(frames)


__all__ = ["ClipBuffer", "ClipError"]
