"""Frame sources behind one interface: a Raspberry Pi camera (picamera2), an OpenCV device (V4L2
webcam), an HTTP/RTSP stream, a video file and a folder of images.

Every source is opened, read and closed the same way and yields :class:`Frame` s: the BGR image,
a timestamp in seconds and, when asked for, a small grey image for the settle gate (the Pi
camera's ``lores`` YUV420 stream gives it for free; elsewhere it is the image scaled down).

Live sources never hang: every read has a timeout and raises :class:`SourceTimeout` (a
:class:`SourceError`) when no frame comes, so a wedged camera becomes an error the service can
report and recover from (``close()`` then ``open()`` again). Files end: ``read`` returns None.

picamera2 is imported only when a Pi camera is opened, so this module (and everything that
imports it) works where picamera2 is absent.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

log = logging.getLogger(__name__)

Size = tuple[int, int]  # (width, height)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".m4v", ".webm", ".mpg", ".mpeg", ".h264")
DEFAULT_GREY = (160, 120)


class SourceError(RuntimeError):
    """The source cannot give frames (not found, not openable, or lost)."""


class SourceTimeout(SourceError):
    """No frame arrived in time: the camera is wedged or gone."""


@dataclass(frozen=True)
class Frame:
    """One captured frame."""

    image: np.ndarray  # BGR, H x W x 3, uint8
    t: float  # seconds: monotonic clock for live sources, media time for files
    index: int  # 0, 1, 2, ... in the order the source produced them (since open)
    grey: np.ndarray | None = None  # a small grey image for motion checks, or None


def grey_of(image: np.ndarray, size: Size | None) -> np.ndarray | None:
    """``image`` scaled down to ``size`` (keeping nothing but brightness), or None."""
    if size is None:
        return None
    small = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return small if small.ndim == 2 else cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)


class FrameSource(ABC):
    """A source of frames: ``open``, ``read`` until None (files) or forever (live), ``close``."""

    live = False  # a camera or stream (frames come in real time; losing it is recoverable)

    def __init__(self, name: str, grey: Size | None = DEFAULT_GREY) -> None:
        self.name = name
        self.grey_size = grey
        self.opened = False
        self._index = 0

    @abstractmethod
    def open(self) -> None:
        """Start the source; raises SourceError."""

    @abstractmethod
    def read(self, timeout: float | None = None) -> Frame | None:
        """The next frame; None when a file has ended; raises SourceError (SourceTimeout)."""

    @abstractmethod
    def close(self) -> None:
        """Release the device or file (safe to call twice)."""

    def frames(self, timeout: float | None = None) -> Iterator[Frame]:
        """Every frame until the end (files) or an error (raised)."""
        if not self.opened:
            self.open()
        while True:
            frame = self.read(timeout)
            if frame is None:
                return
            yield frame

    def _frame(self, image: np.ndarray, t: float, grey: np.ndarray | None = None) -> Frame:
        if grey is None:
            grey = grey_of(image, self.grey_size)
        frame = Frame(image, t, self._index, grey)
        self._index += 1
        return frame

    def __enter__(self) -> FrameSource:
        if not self.opened:
            self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


# -- Raspberry Pi camera --------------------------------------------------------------------------


class PiCameraSource(FrameSource):
    """A Raspberry Pi camera through picamera2: ``RGB888`` main stream (BGR in memory, as OpenCV
    wants) and a ``YUV420`` lores stream whose Y plane is the grey frame; every capture waits at
    most ``timeout`` seconds; after ``warmup`` seconds of automatic exposure and white balance
    both are locked at the values reached, so a hand over the board does not change its
    colours."""

    live = True

    def __init__(self, size: Size = (1280, 720), lores: Size | None = (320, 240),
                 fps: float | None = None, timeout: float = 2.0, warmup: float = 1.5,
                 lock: bool = True, camera: int = 0) -> None:
        super().__init__(f"picamera2:{camera}", grey=lores)
        self.size, self.lores, self.fps = size, lores, fps
        self.timeout, self.warmup, self.lock, self.camera = timeout, warmup, lock, camera
        self.locked: dict[str, Any] | None = None  # the controls set when locking
        self._cam: Any = None

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # only here: absent off the Pi
        except ImportError as exc:
            raise SourceError("picamera2 is not installed (on Raspberry Pi OS: apt install "
                              "python3-picamera2, and a venv made with --system-site-packages)"
                              ) from exc
        try:
            cam = Picamera2(self.camera) if self.camera else Picamera2()
            streams: dict[str, Any] = {"main": {"size": tuple(self.size), "format": "RGB888"}}
            if self.lores is not None:
                streams["lores"] = {"size": tuple(self.lores), "format": "YUV420"}
            kwargs: dict[str, Any] = {}
            if self.fps:
                kwargs["controls"] = {"FrameRate": float(self.fps)}
            cam.configure(cam.create_video_configuration(**streams, **kwargs))
            cam.start()
        except Exception as exc:  # noqa: BLE001 - libcamera raises many kinds
            raise SourceError(f"cannot start the Pi camera: {exc}") from exc
        self._cam, self.opened, self._index = cam, True, 0
        try:
            self._warm_up_and_lock()
        except SourceError:
            self.close()
            raise

    def _warm_up_and_lock(self) -> None:
        end = time.monotonic() + self.warmup
        while time.monotonic() < end:  # let AE/AWB converge on real frames
            self._capture()
        if not self.lock:
            return
        try:
            md = self._cam.capture_metadata(wait=self.timeout)
        except Exception as exc:  # noqa: BLE001
            raise SourceError(f"Pi camera metadata: {exc}") from exc
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if md.get(key) is not None:
                controls[key] = md[key]
        self._cam.set_controls(controls)
        self.locked = controls

    def _capture(self) -> tuple[np.ndarray, np.ndarray | None]:
        if self._cam is None:
            raise SourceError("the Pi camera is not open")
        try:
            request = self._cam.capture_request(wait=self.timeout)
        except TimeoutError as exc:
            raise SourceTimeout(f"no frame from the Pi camera in {self.timeout:g} s") from exc
        except Exception as exc:  # noqa: BLE001
            raise SourceError(f"Pi camera capture failed: {exc}") from exc
        try:
            main = request.make_array("main")
            lo = request.make_array("lores") if self.lores is not None else None
        finally:
            request.release()
        grey = None
        if lo is not None:
            w, h = self.lores  # type: ignore[misc]
            grey = np.ascontiguousarray(lo[:h, :w])  # the Y plane (rows may be padded)
        return main[:, :, :3], grey

    def read(self, timeout: float | None = None) -> Frame | None:
        image, grey = self._capture()
        return self._frame(image, time.monotonic(), grey)

    def close(self) -> None:
        cam, self._cam, self.opened = self._cam, None, False
        if cam is not None:
            for step in ("stop", "close"):
                try:
                    getattr(cam, step)()
                except Exception as exc:  # noqa: BLE001 - closing a lost camera may fail
                    log.debug("Pi camera %s: %s", step, exc)


# -- OpenCV capture: devices and streams ----------------------------------------------------------


class CaptureSource(FrameSource):
    """An OpenCV capture read by a thread that keeps only the newest frame (a plain ``read()``
    can return a stale buffered one): a V4L2 device (MJPG, buffer size 1) or an HTTP/RTSP URL.
    ``read`` returns the next frame newer than the last one returned, or raises SourceTimeout."""

    live = True

    def __init__(self, target: int | str, size: Size | None = None, fps: float | None = None,
                 timeout: float = 2.0, grey: Size | None = DEFAULT_GREY, fourcc: str = "MJPG",
                 lock_after: float | None = 1.5,
                 capture_factory: Callable[..., Any] | None = None) -> None:
        super().__init__(f"/dev/video{target}" if isinstance(target, int) else str(target), grey)
        self.target, self.size, self.fps, self.timeout = target, size, fps, timeout
        self.fourcc, self.lock_after = fourcc, lock_after
        self._factory = capture_factory or self._open_capture
        self._cap: Any = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._cond = threading.Condition()
        self._latest: tuple[np.ndarray, float, int] | None = None
        self._seq = 0
        self._returned = 0
        self._error: str | None = None

    def _open_capture(self, target: int | str) -> Any:
        device = isinstance(target, int) or str(target).startswith("/dev/")
        cap = cv2.VideoCapture(target, cv2.CAP_V4L2 if device else cv2.CAP_FFMPEG)
        if not cap.isOpened():
            cap = cv2.VideoCapture(target)  # any backend that can
        if device and cap.isOpened():
            cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*self.fourcc))
            if self.size:
                cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
                cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
            if self.fps:
                cap.set(cv2.CAP_PROP_FPS, self.fps)
        if cap.isOpened():
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        return cap

    def open(self) -> None:
        self.close()
        cap = self._factory(self.target)
        if cap is None or not cap.isOpened():
            raise SourceError(f"cannot open {self.name}")
        self._cap, self._stop = cap, threading.Event()
        self._latest, self._seq, self._returned, self._error = None, 0, 0, None
        self._index, self.opened = 0, True
        self._thread = threading.Thread(target=self._reader, args=(cap, self._stop),
                                        name=f"capture {self.name}", daemon=True)
        self._thread.start()

    def _reader(self, cap: Any, stop: threading.Event) -> None:
        started = time.monotonic()
        locked = self.lock_after is None or not isinstance(self.target, int)
        last_ok = time.monotonic()
        while not stop.is_set():
            try:
                ok, image = cap.read()
            except Exception as exc:  # noqa: BLE001 - a driver error ends the stream
                ok, image = False, None
                self._error = f"{self.name}: {exc}"
            now = time.monotonic()
            if stop.is_set():
                return
            if ok and image is not None:
                last_ok = now
                with self._cond:
                    self._seq += 1
                    self._latest = (image, now, self._seq)
                    self._cond.notify_all()
                if not locked and now - started >= (self.lock_after or 0.0):
                    self._lock_exposure(cap)
                    locked = True
            elif now - last_ok > self.timeout:
                with self._cond:
                    self._error = self._error or f"{self.name} stopped giving frames"
                    self._cond.notify_all()
                return
            else:
                time.sleep(0.01)

    @staticmethod
    def _lock_exposure(cap: Any) -> None:
        """Best effort: manual exposure (V4L2's 1) and white balance fixed where they are."""
        try:
            cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)
            cap.set(cv2.CAP_PROP_AUTO_WB, 0)
        except Exception as exc:  # noqa: BLE001 - not every driver has them
            log.debug("cannot lock exposure: %s", exc)

    def read(self, timeout: float | None = None) -> Frame | None:
        if not self.opened:
            raise SourceError(f"{self.name} is not open")
        wait = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + wait
        with self._cond:
            while self._latest is None or self._latest[2] <= self._returned:
                if self._error:
                    raise SourceError(self._error)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SourceTimeout(f"no frame from {self.name} in {wait:g} s")
                self._cond.wait(left)
            image, t, seq = self._latest
            self._returned = seq
        return self._frame(image, t)

    def close(self) -> None:
        self._stop.set()
        thread, self._thread = self._thread, None
        cap, self._cap = self._cap, None
        if thread is not None:
            thread.join(timeout=self.timeout + 1.0)
        if cap is not None:
            try:
                cap.release()
            except Exception as exc:  # noqa: BLE001
                log.debug("release %s: %s", self.name, exc)
        self.opened = False


# -- files ----------------------------------------------------------------------------------------


class _Paced:
    """Real-time pacing for files: frame k is due ``k / fps`` seconds after the first read."""

    def __init__(self, realtime: bool, sleep: Callable[[float], None] = time.sleep) -> None:
        self.realtime, self._sleep, self._t0 = realtime, sleep, None

    def wait(self, t: float) -> None:
        if not self.realtime:
            return
        now = time.monotonic()
        if self._t0 is None:
            self._t0 = now - t
        due = self._t0 + t
        if due > now:
            self._sleep(due - now)


class VideoFileSource(FrameSource):
    """A video file, as fast as it decodes or in real time (``realtime=True``)."""

    def __init__(self, path: str | Path, realtime: bool = False, fps: float | None = None,
                 grey: Size | None = DEFAULT_GREY) -> None:
        super().__init__(str(path), grey)
        self.path, self.realtime, self._fps = Path(path), realtime, fps
        self.fps = fps or 0.0
        self.frame_count = 0
        self._cap: Any = None
        self._pace = _Paced(realtime)

    def open(self) -> None:
        self.close()
        if not self.path.is_file():
            raise SourceError(f"no such video file: {self.path}")
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            raise SourceError(f"cannot read video {self.path}")
        got = cap.get(cv2.CAP_PROP_FPS)
        self.fps = self._fps or (got if got and got > 0 else 25.0)
        self.frame_count = max(0, int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0))
        self._cap, self._index, self.opened = cap, 0, True
        self._pace = _Paced(self.realtime)

    def read(self, timeout: float | None = None) -> Frame | None:
        if self._cap is None:
            raise SourceError(f"{self.name} is not open")
        ok, image = self._cap.read()
        if not ok or image is None:
            return None
        t = self._index / self.fps
        self._pace.wait(t)
        return self._frame(image, t)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
        self._cap, self.opened = None, False


class ImageFolderSource(FrameSource):
    """The images of a folder in name order, as frames ``1 / fps`` seconds apart; an unreadable
    image is skipped with a warning."""

    def __init__(self, path: str | Path, fps: float = 6.0, realtime: bool = False,
                 grey: Size | None = DEFAULT_GREY) -> None:
        super().__init__(str(path), grey)
        self.path, self.fps, self.realtime = Path(path), fps, realtime
        self.files: list[Path] = []
        self._pos = 0
        self._pace = _Paced(realtime)

    @property
    def frame_count(self) -> int:
        return len(self.files)

    def open(self) -> None:
        if not self.path.is_dir():
            raise SourceError(f"no such folder: {self.path}")
        self.files = sorted(p for p in self.path.iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not self.files:
            raise SourceError(f"no images in {self.path}")
        self._pos, self._index, self.opened = 0, 0, True
        self._pace = _Paced(self.realtime)

    def read(self, timeout: float | None = None) -> Frame | None:
        if not self.opened:
            raise SourceError(f"{self.name} is not open")
        while self._pos < len(self.files):
            path = self.files[self._pos]
            k = self._pos
            self._pos += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                log.warning("skipping unreadable image %s", path)
                continue
            t = k / self.fps
            self._pace.wait(t)
            return self._frame(image, t)
        return None

    def close(self) -> None:
        self.opened = False


# -- the factory ----------------------------------------------------------------------------------


def make_source(spec: str, *, size: Size | None = None, fps: float | None = None,
                realtime: bool = False, timeout: float = 2.0,
                grey: Size | None = DEFAULT_GREY, lock: bool = True) -> FrameSource:
    """The source ``spec`` names, not yet opened (``lock``: a camera's exposure and white
    balance are locked after warm-up, so a hand does not change the board's colours):

    - ``picamera2`` / ``picamera2:N`` / ``picam`` — a Raspberry Pi camera;
    - ``N``, ``/dev/videoN``, ``v4l2:N`` — an OpenCV (V4L2) device;
    - ``rtsp://...``, ``http(s)://...`` — a network stream;
    - a folder — its images; any other path — a video file.
    """
    text = spec.strip()
    if not text:
        raise SourceError("empty source: name a camera, a stream, a video file or a folder")
    low = text.lower()
    if low in ("picam", "picamera", "picamera2") or low.startswith(("picamera2:", "picam:")):
        cam = int(low.split(":", 1)[1]) if ":" in low else 0
        return PiCameraSource(size=size or (1280, 720), lores=grey and (320, 240), fps=fps,
                              timeout=timeout, camera=cam, lock=lock)
    if low.startswith("v4l2:"):
        text = text[5:]
    lock_after = 1.5 if lock else None
    if text.isdigit():
        return CaptureSource(int(text), size=size, fps=fps, timeout=timeout, grey=grey,
                             lock_after=lock_after)
    if low.startswith(("rtsp://", "rtsps://", "http://", "https://", "udp://", "tcp://")):
        return CaptureSource(text, timeout=max(timeout, 5.0), grey=grey)
    if text.startswith("/dev/"):
        return CaptureSource(text, size=size, fps=fps, timeout=timeout, grey=grey,
                             lock_after=lock_after)
    path = Path(text).expanduser()
    if path.is_dir():
        return ImageFolderSource(path, fps=fps or 6.0, realtime=realtime, grey=grey)
    if path.is_file():
        return VideoFileSource(path, realtime=realtime, fps=fps, grey=grey)
    raise SourceError(f"no such camera, stream, video file or folder: {spec!r}")


def open_source(spec: str, **options: Any) -> FrameSource:
    """:func:`make_source`, opened (raises SourceError)."""
    source = make_source(spec, **options)
    source.open()
    return source


__all__ = [
    "CaptureSource",
    "Frame",
    "FrameSource",
    "ImageFolderSource",
    "PiCameraSource",
    "SourceError",
    "SourceTimeout",
    "VideoFileSource",
    "grey_of",
    "make_source",
    "open_source",
]
