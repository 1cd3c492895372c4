"""Frame sources: the Pi camera through a fake picamera2 module, OpenCV captures through fake
captures (the newest frame wins, a wedged device raises), video files, image folders, the
factory."""

from __future__ import annotations

import sys
import threading
import time
import types
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.sources import (
    CaptureSource,
    ImageFolderSource,
    PiCameraSource,
    SourceError,
    SourceTimeout,
    VideoFileSource,
    make_source,
    open_source,
)

# -- a fake picamera2 -----------------------------------------------------------------------------


class FakeRequest:
    def __init__(self, cam: FakePicamera2) -> None:
        self.cam = cam
        self.released = False

    def make_array(self, name: str) -> np.ndarray:
        cfg = self.cam.config[name]
        w, h = cfg["size"]
        if name == "main":
            img = np.zeros((h, w, 3), np.uint8)
            img[:, :, 0] = 200  # blue channel first: RGB888 is BGR in memory
            return img
        yuv = np.full((h * 3 // 2, w + 32), 90, np.uint8)  # padded rows, as libcamera does
        yuv[:h, :w] = 77
        return yuv

    def get_metadata(self) -> dict[str, Any]:
        return self.cam.metadata()

    def release(self) -> None:
        self.released = True
        self.cam.released += 1


class FakePicamera2:
    instances: list[FakePicamera2] = []
    wedged = False  # captures time out

    def __init__(self, *args: Any) -> None:
        self.config: dict[str, Any] = {}
        self.controls: list[dict[str, Any]] = []
        self.started = self.stopped = self.closed = False
        self.captures = 0
        self.released = 0
        self.waits: list[float | None] = []
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main: dict, lores: dict | None = None,
                                   **kw: Any) -> dict[str, Any]:
        cfg = {"main": dict(main), **kw}
        if lores is not None:
            cfg["lores"] = dict(lores)
        return cfg

    def configure(self, cfg: dict[str, Any]) -> None:
        self.config = cfg

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.stopped = True

    def close(self) -> None:
        self.closed = True

    def capture_request(self, wait: float | None = None) -> FakeRequest:
        self.waits.append(wait)
        if FakePicamera2.wedged:
            time.sleep(min(wait or 0.05, 0.05))
            raise TimeoutError("Frame wait timed out")
        self.captures += 1
        return FakeRequest(self)

    def capture_array(self, name: str = "main", wait: float | None = None) -> np.ndarray:
        return self.capture_request(wait).make_array(name)

    def capture_metadata(self, wait: float | None = None) -> dict[str, Any]:
        self.waits.append(wait)
        return self.metadata()

    def metadata(self) -> dict[str, Any]:
        return {"ExposureTime": 12345, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.4),
                "SensorTimestamp": 1}

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls.append(dict(controls))


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    mod = types.ModuleType("picamera2")
    mod.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", mod)
    FakePicamera2.instances = []
    FakePicamera2.wedged = False
    return FakePicamera2


def test_package_imports_without_picamera2() -> None:
    assert "picamera2" not in sys.modules or not hasattr(sys.modules["picamera2"], "__file__")
    src = make_source("picamera2")
    assert isinstance(src, PiCameraSource) and not src.opened  # nothing imported yet


def test_picamera2_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails
    with pytest.raises(SourceError, match="picamera2 is not installed"):
        PiCameraSource(warmup=0).open()


def test_picamera2_streams_lock_and_frames(fake_picamera2: type[FakePicamera2]) -> None:
    src = PiCameraSource(size=(64, 48), lores=(32, 24), timeout=0.5, warmup=0.02)
    with src:
        cam = fake_picamera2.instances[-1]
        assert cam.config["main"] == {"size": (64, 48), "format": "RGB888"}
        assert cam.config["lores"] == {"size": (32, 24), "format": "YUV420"}
        assert cam.started and cam.captures >= 1  # warm-up frames before locking
        assert cam.controls[-1] == {"AeEnable": False, "AwbEnable": False,
                                    "ExposureTime": 12345, "AnalogueGain": 2.5,
                                    "ColourGains": (1.9, 1.4)}
        frames = [src.read() for _ in range(3)]
    assert cam.stopped and cam.closed
    assert all(w == 0.5 for w in cam.waits)  # every capture had a timeout
    assert cam.released == cam.captures  # every request went back to the camera
    f = frames[-1]
    assert f is not None and f.image.shape == (48, 64, 3) and f.image[0, 0, 0] == 200
    assert f.grey is not None and f.grey.shape == (24, 32) and (f.grey == 77).all()
    assert [fr.index for fr in frames if fr] == [0, 1, 2]
    assert frames[0].t <= frames[2].t


def test_picamera2_wedged_raises_instead_of_hanging(
        fake_picamera2: type[FakePicamera2]) -> None:
    src = PiCameraSource(size=(64, 48), lores=(32, 24), timeout=0.05, warmup=0.0)
    src.open()
    fake_picamera2.wedged = True
    t0 = time.monotonic()
    with pytest.raises(SourceTimeout):
        src.read()
    assert time.monotonic() - t0 < 1.0
    src.close()
    with pytest.raises(SourceTimeout):  # a camera wedged from the start fails open()
        PiCameraSource(size=(64, 48), timeout=0.05, warmup=0.1).open()
    assert fake_picamera2.instances[-1].closed


# -- OpenCV captures ------------------------------------------------------------------------------


class FakeCapture:
    """A capture producing numbered frames at ``period``; ``block`` makes read() hang."""

    def __init__(self, period: float = 0.005, fail_after: int | None = None) -> None:
        self.period, self.fail_after = period, fail_after
        self.n = 0
        self.block = threading.Event()
        self.unwedge = threading.Event()
        self.released = False
        self.props: dict[int, float] = {}

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.block.is_set():  # a wedged driver: read() does not come back until unwedged
            self.unwedge.wait()
            return False, None
        time.sleep(self.period)
        if self.fail_after is not None and self.n >= self.fail_after:
            return False, None
        self.n += 1
        return True, np.full((24, 32, 3), self.n % 256, np.uint8)

    def release(self) -> None:
        self.released = True


def test_capture_keeps_only_the_newest_frame() -> None:
    cap = FakeCapture(period=0.002)
    src = CaptureSource(0, timeout=1.0, grey=(8, 6), capture_factory=lambda t: cap)
    src.open()
    try:
        first = src.read()
        time.sleep(0.1)  # many frames arrive meanwhile
        newest = src.read()
        assert first is not None and newest is not None
        assert int(newest.image[0, 0, 0]) - int(first.image[0, 0, 0]) > 5  # no stale backlog
        assert newest.grey is not None and newest.grey.shape == (6, 8)
        again = src.read()  # never the same frame twice
        assert again is not None and again.image[0, 0, 0] != newest.image[0, 0, 0]
    finally:
        src.close()
    assert cap.released


def test_capture_wedged_device_raises_timeout() -> None:
    cap = FakeCapture()
    src = CaptureSource(0, timeout=0.3, capture_factory=lambda t: cap)
    src.open()
    assert src.read() is not None
    cap.block.set()
    time.sleep(0.05)
    try:
        src.read(timeout=0.2)  # a frame read before the wedge may still come
    except SourceError:
        pass
    t0 = time.monotonic()
    with pytest.raises(SourceTimeout):
        src.read(timeout=0.2)
    assert time.monotonic() - t0 < 1.0
    cap.unwedge.set()
    src.close()


def test_capture_lost_device_reports_error_and_reopens() -> None:
    caps = [FakeCapture(fail_after=3), FakeCapture()]
    src = CaptureSource(0, timeout=0.2, capture_factory=lambda t: caps.pop(0))
    src.open()
    with pytest.raises(SourceError):
        for _ in range(50):
            src.read(timeout=0.5)
    src.close()
    src.open()  # a new capture: frames again
    assert src.read() is not None
    src.close()


def test_capture_unopenable_is_a_source_error() -> None:
    class Closed(FakeCapture):
        def isOpened(self) -> bool:  # noqa: N802
            return False

    with pytest.raises(SourceError, match="cannot open"):
        CaptureSource("rtsp://x/y", capture_factory=lambda t: Closed()).open()


# -- files ----------------------------------------------------------------------------------------


def _video(path: Path, n: int, fps: float = 10.0) -> Path:
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (64, 48))
    assert w.isOpened()
    for i in range(n):
        w.write(np.full((48, 64, 3), i * 20, np.uint8))
    w.release()
    return path


def test_video_file_fast_and_realtime(tmp_path: Path) -> None:
    path = _video(tmp_path / "v.avi", 6, fps=20.0)
    src = open_source(str(path))
    assert isinstance(src, VideoFileSource) and src.fps == pytest.approx(20.0)
    frames = list(src.frames())
    src.close()
    assert len(frames) == 6 and [f.t for f in frames] == pytest.approx([i / 20 for i in range(6)])
    assert abs(int(frames[3].image.mean()) - 60) < 8
    t0 = time.monotonic()
    with VideoFileSource(path, realtime=True) as rt:
        assert len(list(rt.frames())) == 6
    assert time.monotonic() - t0 >= 5 / 20 - 0.02  # paced at the file's rate


def test_image_folder_in_order_skipping_junk(tmp_path: Path) -> None:
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), np.full((20, 30, 3), 10 + i, np.uint8))
    (tmp_path / "f001b.jpg").write_bytes(b"not an image")
    (tmp_path / "notes.txt").write_text("x")
    src = open_source(str(tmp_path), fps=4.0)
    assert isinstance(src, ImageFolderSource)
    frames = list(src.frames())
    assert [int(f.image[0, 0, 0]) for f in frames] == [10, 11, 12]
    assert [f.t for f in frames] == [0.0, 0.25, 0.75]  # a skipped image keeps its slot


def test_factory_specs(tmp_path: Path) -> None:
    assert isinstance(make_source("0"), CaptureSource)
    assert make_source("/dev/video2").name == "/dev/video2"
    assert make_source("v4l2:1").name == "/dev/video1"
    assert isinstance(make_source("rtsp://cam.local/stream"), CaptureSource)
    assert isinstance(make_source("picam"), PiCameraSource)
    with pytest.raises(SourceError, match="no such"):
        make_source(str(tmp_path / "missing.mp4"))
    with pytest.raises(SourceError, match="no images"):
        open_source(str(tmp_path))
    with pytest.raises(SourceError):
        make_source("  ")


def test_the_exposure_lock_setting_reaches_the_cameras() -> None:
    from vision.sources import CaptureSource, PiCameraSource, make_source

    assert isinstance(pi := make_source("picamera2", lock=False), PiCameraSource)
    assert pi.lock is False and make_source("picamera2").lock is True
    dev = make_source("0", lock=False)
    assert isinstance(dev, CaptureSource) and dev.lock_after is None
    assert make_source("/dev/video0").lock_after is not None
