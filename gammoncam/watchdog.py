"""The service's systemd watchdog: petted only while the camera delivers fresh frames.

A process that is alive but whose camera has wedged (a driver stuck in an ioctl, a USB webcam
that stopped streaming without an error) is as useless at the board as a dead one. So the
watchdog is not petted by a timer alone: every ``WatchdogSec=/2`` it sends ``WATCHDOG=1`` only
if the newest frame is younger than ``stale_after`` seconds. When frames stop, the pets stop,
systemd kills the service after ``WatchdogSec=`` and ``Restart=on-failure`` starts it again,
which reopens the camera from scratch. Every tick also sends a ``STATUS=`` line, which
``systemctl status gammoncam`` shows.

Use::

    dog = Watchdog(stale_after=config.camera.stale_after)
    dog.start()                       # READY=1 once, then the ticking thread
    for frame in dog.watch(source.frames()):
        ...                           # or call dog.frame_arrived() per frame
    dog.stop()                        # STOPPING=1

Without ``$NOTIFY_SOCKET`` (not under systemd) everything is a quiet no-op.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import TracebackType
from typing import TypeVar

from .sdnotify import notify, watchdog_interval

T = TypeVar("T")


class Watchdog:
    """READY=1 once, then WATCHDOG=1 every ``WatchdogSec=/2`` while frames are fresh."""

    def __init__(
        self,
        *,
        stale_after: float = 10.0,
        timeout: float | None = None,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        send: Callable[[str], object] | None = None,
    ) -> None:
        """``timeout`` is ``WatchdogSec=`` in seconds (default: from ``$WATCHDOG_USEC``; None when
        systemd armed no watchdog); ``send`` replaces :func:`notify` (tests)."""
        if stale_after <= 0:
            raise ValueError("stale_after must be > 0 seconds")
        self.stale_after = stale_after
        self.timeout = watchdog_interval(environ) if timeout is None else timeout
        self._clock = clock
        self._send = send if send is not None else (lambda m: notify(m, environ=environ))
        self._lock = threading.Lock()
        self._last_frame: float | None = None
        self._frames = 0
        self._ready = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def interval(self) -> float | None:
        """Seconds between ticks: half of ``WatchdogSec=`` (None without a watchdog)."""
        return None if self.timeout is None else self.timeout / 2

    def frame_arrived(self) -> None:
        """Record that the camera delivered a frame now (cheap: call it for every frame)."""
        now = self._clock()
        with self._lock:
            self._last_frame = now
            self._frames += 1

    def watch(self, frames: Iterable[T]) -> Iterator[T]:
        """Yield ``frames`` unchanged, recording each one's arrival."""
        for frame in frames:
            self.frame_arrived()
            yield frame

    def frame_age(self) -> float | None:
        """Seconds since the newest frame, or None before the first one."""
        with self._lock:
            last = self._last_frame
        return None if last is None else self._clock() - last

    def fresh(self) -> bool:
        """True when the newest frame is younger than ``stale_after``."""
        age = self.frame_age()
        return age is not None and age < self.stale_after

    def status(self) -> str:
        """The one-line state for ``systemctl status``."""
        age = self.frame_age()
        with self._lock:
            frames = self._frames
        if age is None:
            return "waiting for the first camera frame"
        if age < self.stale_after:
            return f"camera delivering frames ({frames} so far)"
        return f"camera stalled: no frame for {age:.0f} s (watchdog not petted)"

    def ready(self) -> None:
        """Send ``READY=1`` (once; later calls do nothing)."""
        with self._lock:
            if self._ready:
                return
            self._ready = True
        self._send(f"READY=1\nSTATUS={self.status()}")

    def tick(self) -> bool:
        """One watchdog period: ``WATCHDOG=1`` if frames are fresh, and the status line.

        Returns whether the watchdog was petted.
        """
        fresh = self.fresh()
        status = f"STATUS={self.status()}"
        self._send(f"WATCHDOG=1\n{status}" if fresh else status)
        return fresh

    def start(self) -> None:
        """Send ``READY=1`` and start the ticking thread (none when no watchdog is armed)."""
        self.ready()
        if self.interval is None or self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        assert self.interval is not None
        while not self._stop.wait(self.interval):
            self.tick()

    def stop(self) -> None:
        """Stop ticking and tell systemd the service is stopping (``STOPPING=1``)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._send("STOPPING=1\nSTATUS=stopping")

    def __enter__(self) -> Watchdog:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
