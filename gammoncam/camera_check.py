"""Is the camera there and delivering frames? The camera check of ``gammoncam doctor``.

:func:`check_camera` opens a source, reads a few frames under a deadline (a wedged camera must
not hang ``doctor``), checks that they are BGR images that are not black, and says what it found.
The sources are the live pipeline's own (``vision.sources.open_source``), so doctor tests the very
code the service captures with; any object with the small :class:`FrameSource` shape will do
(tests hand in fakes through ``opener``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np


class FrameSource(Protocol):
    """``frames()`` yields numpy BGR images (or frames carrying one as ``.image``, as
    ``vision.sources.Frame`` does); ``close()`` releases the camera."""

    def frames(self) -> Iterator[Any]: ...

    def close(self) -> None: ...


Opener = Callable[[str | int], FrameSource]


def vision_opener(*, resolution: tuple[int, int] | None = None, fps: float | None = None,
                  timeout: float = 5.0) -> Opener:
    """An opener through ``vision.sources.open_source`` (imported when called)."""
    def open_(spec: str | int) -> FrameSource:
        from vision.sources import open_source

        return open_source(str(spec), size=resolution, fps=fps, timeout=timeout)

    return open_


@dataclass(frozen=True)
class CameraReport:
    ok: bool
    detail: str
    frames: int = 0
    shape: tuple[int, ...] | None = None
    fps: float | None = None


def _image(frame: Any) -> Any:
    return getattr(frame, "image", frame)


def _problem(image: object) -> str | None:
    if not isinstance(image, np.ndarray):
        return f"a frame is a {type(image).__name__}, not a numpy array"
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        return f"a frame is {image.dtype} {image.shape}, not height x width x 3 uint8 (BGR)"
    return None


def check_camera(
    spec: str | int,
    *,
    frames: int = 5,
    timeout: float = 15.0,
    opener: Opener | None = None,
) -> CameraReport:
    """Open ``spec``, read ``frames`` frames within ``timeout`` seconds, and report."""
    got: list[Any] = []
    times: list[float] = []
    error: list[str] = []
    open_ = opener or vision_opener(timeout=min(timeout, 5.0))

    def read() -> None:
        try:
            source = open_(spec)
        except Exception as exc:  # noqa: BLE001 - report whatever the camera stack raises
            error.append(f"cannot open: {exc}")
            return
        try:
            for frame in source.frames():
                times.append(time.monotonic())
                got.append(_image(frame))
                if len(got) >= frames:
                    break
        except Exception as exc:  # noqa: BLE001
            error.append(f"failed after {len(got)} frame(s): {exc}")
        finally:
            try:
                source.close()
            except Exception as exc:  # noqa: BLE001
                error.append(f"close failed: {exc}")

    thread = threading.Thread(target=read, name="camera-check", daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        return CameraReport(False, f"{spec!r}: {len(got)} of {frames} frames in {timeout:g} s: "
                                   f"the camera hangs", len(got))
    if error:
        return CameraReport(False, f"{spec!r}: {error[0]}", len(got))
    if len(got) < frames:
        return CameraReport(False, f"{spec!r}: the source ended after {len(got)} of {frames} "
                                   f"frames", len(got))
    for image in got:
        problem = _problem(image)
        if problem:
            return CameraReport(False, f"{spec!r}: {problem}", len(got))
    shape = tuple(got[0].shape)
    rate = (len(times) - 1) / (times[-1] - times[0]) if times[-1] > times[0] else None
    detail = f"{spec!r}: {len(got)} frames of {shape[1]}x{shape[0]}"
    if rate is not None:
        detail += f" at {rate:.1f} fps"
    brightness = float(np.mean([image.mean() for image in got]))
    if brightness < 8:
        return CameraReport(False, f"{detail}, but black (mean {brightness:.1f} of 255: lens "
                                   f"cap? no light?)", len(got), shape, rate)
    return CameraReport(True, detail, len(got), shape, rate)
