"""The camera desk: what the web pages ask of the camera, answered from the pipeline's frames.

The pipeline is the one owner of the camera. It hands every frame to :meth:`CameraDesk.on_frame`
(its ``on_frame`` hook), and every reading to :meth:`CameraDesk.reader`'s wrapper, so the desk
always holds the newest frame and the newest observation; nothing here opens the camera again.

- :meth:`snapshot_jpeg`: the newest frame as JPEG with what was detected drawn on it (the
  calibration being tried, or the profile's regions with the last reading), encoded once per
  frame however many pages watch (the MJPEG stream of ``/camera`` is this, repeated);
- :meth:`calibrate`: a profile from the newest frame, which shows the start position, found
  automatically or from four tapped corners; kept as a candidate until :meth:`save_profile`;
- :meth:`save_profile`: writes the candidate to the configured path (atomically) and hands it to
  the running pipeline, which reads with it from its next frame on;
- ``listeners``: called on every frame (the systemd watchdog's ``frame_arrived``).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.observation import Observation, expected_counts
from vision.sources import Frame, FrameSource

log = logging.getLogger(__name__)

ReadFn = Callable[[np.ndarray, Any], Observation]
REGION_NAMES = [f"point {i}" for i in range(1, 25)] + [
    "white's bar", "black's bar", "white's tray", "black's tray"]


_ROTATIONS = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180,
              270: cv2.ROTATE_90_COUNTERCLOCKWISE}


class RotatedSource(FrameSource):
    """``source`` with every frame (and its grey image) turned clockwise by ``degrees``, for a
    camera mounted turned (``camera.rotation``)."""

    def __init__(self, source: FrameSource, degrees: int) -> None:
        if degrees not in _ROTATIONS:
            raise ValueError(f"rotation must be 90, 180 or 270 degrees, not {degrees!r}")
        super().__init__(source.name, source.grey_size)
        self.inner, self.code = source, _ROTATIONS[degrees]
        self.live = source.live

    def open(self) -> None:
        self.inner.open()
        self.opened = self.inner.opened

    def read(self, timeout: float | None = None) -> Frame | None:
        frame = self.inner.read(timeout)
        if frame is None:
            return None
        grey = None if frame.grey is None else cv2.rotate(frame.grey, self.code)
        return Frame(cv2.rotate(frame.image, self.code), frame.t, frame.index, grey)

    def close(self) -> None:
        self.inner.close()
        self.opened = False


class NoFrame(RuntimeError):
    """The camera has given no frame yet."""


class CameraDesk:
    """The camera hooks of one board: snapshot, calibration and the profile in use."""

    def __init__(self, profile_path: str | Path, profile: Any = None,
                 set_status: Callable[..., None] | None = None,
                 clock: Callable[[], float] = time.monotonic, jpeg_quality: int = 80) -> None:
        self.profile_path = Path(profile_path)
        self.profile = profile
        self.listeners: list[Callable[[], object]] = []
        self.pipeline: Any = None  # anything with set_profile(profile), once running
        self._set_status = set_status or (lambda **status: None)
        self._clock = clock
        self._quality = jpeg_quality
        self._lock = threading.Lock()
        self._frame: Frame | None = None
        self._frame_at: float | None = None
        self._frames = 0
        self._obs: Observation | None = None
        self._candidate: Any = None
        self._jpeg: tuple[int, bytes] | None = None  # (frames count it was made at, JPEG)

    # -- fed by the pipeline ---------------------------------------------------------------------

    def on_frame(self, frame: Frame, settled: bool) -> None:
        """The pipeline's ``on_frame`` hook: keep the newest frame, tell the listeners."""
        with self._lock:
            self._frame, self._frame_at = frame, self._clock()
            self._frames += 1
        for listener in self.listeners:
            listener()

    def reader(self, read: ReadFn) -> ReadFn:
        """``read`` that also keeps its newest observation (for the snapshot's drawing)."""
        def reading(image: np.ndarray, profile: Any) -> Observation:
            obs = read(image, profile)
            with self._lock:
                self._obs = obs
            return obs

        return reading

    @property
    def last_frame_at(self) -> float | None:
        """The desk clock's time (monotonic) of the newest frame, or None before the first."""
        with self._lock:
            return self._frame_at

    @property
    def frames(self) -> int:
        with self._lock:
            return self._frames

    def latest(self) -> Frame:
        """The newest frame; raises :class:`NoFrame` before the first one."""
        with self._lock:
            frame = self._frame
        if frame is None:
            raise NoFrame("no frame from the camera yet")
        return frame

    # -- the web app's hooks ---------------------------------------------------------------------

    def snapshot_jpeg(self) -> bytes:
        """The newest frame as JPEG, with the detections drawn (raises NoFrame before one)."""
        frame = self.latest()
        with self._lock:
            count, cached = self._frames, self._jpeg
            obs, candidate, profile = self._obs, self._candidate, self.profile
        if cached is not None and cached[0] == count:
            return cached[1]
        image = self._drawn(frame.image, obs, candidate, profile)
        ok, jpg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, self._quality])
        if not ok:
            raise RuntimeError("cannot encode the frame as JPEG")
        data = jpg.tobytes()
        with self._lock:
            self._jpeg = (count, data)
        return data

    def _drawn(self, image: np.ndarray, obs: Observation | None, candidate: Any,
               profile: Any) -> np.ndarray:
        if candidate is not None:
            out = image.copy()
            self._outline(out, candidate, (0, 165, 255), "calibration (not saved)")
            return out
        if profile is None:
            return image
        if obs is not None:
            try:
                from vision.debug import debug_image

                return debug_image(image, obs, profile)
            except Exception as exc:  # noqa: BLE001 - a drawing must never lose the snapshot
                log.warning("cannot draw the reading: %s", exc)
        out = image.copy()
        self._outline(out, profile, (0, 255, 255), "")
        return out

    @staticmethod
    def _outline(out: np.ndarray, profile: Any, colour: tuple[int, int, int], label: str) -> None:
        h, w = out.shape[:2]
        corners = np.asarray(profile.corners, np.float64)
        size = tuple(profile.image_size)
        if size != (w, h):
            corners = corners * (w / size[0], h / size[1])
        cv2.polylines(out, [corners.astype(np.int32)], True, colour, 2)
        if label:
            cv2.putText(out, label, (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2)

    def calibrate(self, corners: list[list[float]] | None = None,
                  position: Any = None) -> dict[str, Any]:
        """A profile from the newest frame, which shows ``position`` (default: the start):
        the board found automatically (``corners`` None) or from four taps (TL, TR, BR, BL in
        snapshot pixels). Kept as the candidate that :meth:`save_profile` saves.

        Returns ``{"corners", "position", "start_ok", "problems", "orientation"}``; raises
        ValueError (with the reason, for the operator) when the board is not found or the frame
        does not show the position."""
        from calibration.calibrate import START, PositionMismatch
        from calibration.calibrate import calibrate as make_profile
        from calibration.find import BoardNotFound
        from calibration.markers import MarkersNotFound
        from vision.read import read

        image = self.latest().image.copy()
        pos = position or START
        taps = None if corners is None else np.asarray(corners, np.float64).reshape(4, 2)
        try:
            profile = make_profile(image, pos, method="auto" if taps is None else "taps",
                                   corners=taps, snap_taps=True)  # a finger's taps
        except BoardNotFound as exc:
            raise ValueError(f"the board was not found: {exc} (tap its four corners)") from None
        except (PositionMismatch, MarkersNotFound) as exc:
            raise ValueError(str(exc)) from None
        obs = read(image, profile)
        seen = obs.most_likely_position()
        problems = [
            f"{REGION_NAMES[i]}: saw {self._counts(b)}, expected {self._counts(e)}"
            for i, (b, e) in enumerate(zip(obs.best_counts(), expected_counts(pos), strict=True))
            if b is not None and tuple(b) != tuple(e)]
        with self._lock:
            self._candidate = profile
            self._jpeg = None
        return {"corners": np.round(profile.corners, 1).tolist(),
                "position": None if seen is None else seen.to_json(),
                "start_ok": seen == pos and not problems, "problems": problems,
                "orientation": profile.meta.get("orientation")}

    @staticmethod
    def _counts(c: Any) -> str:
        white, black = c
        return ", ".join(part for part in (f"{white} white" if white else "",
                                           f"{black} black" if black else "") if part) or "none"

    def save_profile(self) -> dict[str, Any]:
        """Write the calibrated profile and read with it from now on (no restart)."""
        with self._lock:
            profile = self._candidate
        if profile is None:
            raise ValueError("nothing calibrated yet: find the board or tap its corners first")
        self.profile_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.profile_path.with_name(self.profile_path.name + ".tmp")
        profile.save(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, self.profile_path)
        with self._lock:
            self.profile, self._candidate, self._obs, self._jpeg = profile, None, None, None
        if self.pipeline is not None:
            self.pipeline.set_profile(profile)
        self._set_status(profile=str(self.profile_path))
        log.info("board profile saved to %s and in use", self.profile_path)
        return {"path": str(self.profile_path), "orientation": profile.meta.get("orientation")}


__all__ = ["CameraDesk", "NoFrame", "RotatedSource"]
