"""``gammoncam serve`` in a child process on rendered camera frames, for the serve and deploy
tests: a test notify socket (every datagram with the kernel's send time), the config written
from a few keys, HTTP helpers that poll instead of sleeping.

The camera is a folder of one rendered start-position frame, hard-linked ``n`` times: the
pipeline reads it at ``fps`` in real time, so frames flow for ``n / fps`` seconds and then the
source ends (frames go stale while the process lives on, as with a wedged camera).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SO_TIMESTAMPNS = 35  # Linux (asm-generic); Python does not name it
T = Any


@lru_cache(maxsize=1)
def start_frame() -> tuple[np.ndarray, np.ndarray]:
    """A rendered 1280x720 frame of the start position and its true playing-area corners."""
    from calibration.calibrate import START
    from tests.scenes.scene import Scene, State, random_setup

    image, truth = Scene(random_setup(1003, 1280, 720)).render(State(START))
    return image, np.asarray(truth["board_corners_px"], np.float64)


def frames_folder(folder: Path, n: int) -> Path:
    """``folder`` holding ``n`` copies (hard links) of the start frame."""
    folder.mkdir(parents=True, exist_ok=True)
    first = folder / "00000.png"
    cv2.imwrite(str(first), start_frame()[0])
    for i in range(1, n):
        os.link(first, folder / f"{i:05d}.png")
    return folder


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class NotifyListener:
    """A datagram socket standing in for systemd's: ``(send time, message)`` of everything the
    child sends, stamped by the kernel as it is sent (SO_TIMESTAMPNS, wall clock), so a test
    slowed down by a busy machine still knows when the child sent it."""

    def __init__(self, path: Path) -> None:
        self.path = str(path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(self.path)
        self.sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        self.sock.settimeout(0.05)
        self.got: list[tuple[float, str]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                data, ancillary, _, _ = self.sock.recvmsg(4096, socket.CMSG_SPACE(16))
            except (TimeoutError, OSError):
                continue
            stamp = time.time()
            for level, kind, raw in ancillary:
                if (level, kind) == (socket.SOL_SOCKET, SO_TIMESTAMPNS) and len(raw) >= 16:
                    sec, nsec = struct.unpack("qq", raw[:16])
                    stamp = sec + nsec / 1e9
            with self._lock:
                self.got.append((stamp, data.decode()))

    def messages(self) -> list[tuple[float, str]]:
        with self._lock:
            return list(self.got)

    def wait_for(self, prefix: str, timeout: float, after: float = 0.0) -> float:
        """The send time of the first message starting with ``prefix`` sent after ``after``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for t, m in self.messages():
                if m.startswith(prefix) and t >= after:
                    return t
            time.sleep(0.05)
        raise AssertionError(f"no {prefix!r} in {timeout} s: {self.messages()[-5:]}")

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.sock.close()


def write_config(folder: Path, text: str) -> Path:
    path = folder / "config.toml"
    path.write_text(text)
    return path


class Serve:
    """``gammoncam serve --config CONFIG`` with ``$NOTIFY_SOCKET`` and ``$WATCHDOG_USEC``."""

    def __init__(self, config: Path, port: int, notify: NotifyListener,
                 watchdog_usec: int = 400_000, extra: tuple[str, ...] = ()) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.log = config.parent / "serve.log"
        self.out = config.parent / "serve.out"
        env = {**os.environ, "NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": str(watchdog_usec),
               "PYTHONUNBUFFERED": "1"}
        env.pop("WATCHDOG_PID", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gammoncam.cli", "serve", "--config", str(config), *extra],
            cwd=ROOT, env=env, stdout=open(self.out, "wb"), stderr=open(self.log, "wb"))

    def get(self, path: str, timeout: float = 10.0) -> tuple[int, Any]:
        """(HTTP status, JSON body or bytes); (0, error text) when the server does not answer."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=timeout) as r:
                return r.status, _body(r.read(), r.headers.get_content_type())
        except urllib.error.HTTPError as exc:
            return exc.code, _body(exc.read(), exc.headers.get_content_type())
        except OSError as exc:
            return 0, str(exc)

    def poll(self, what: Callable[[], T], timeout: float, why: str = "") -> T:
        """The first truthy ``what()`` within ``timeout`` seconds (fails if the child died)."""
        deadline = time.monotonic() + timeout
        last: Any = None
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited {self.proc.returncode}: {self.stderr()}")
            last = what()
            if last:
                return last
            time.sleep(0.1)
        raise AssertionError(f"{why or 'condition'} not met in {timeout} s (last: {last!r}); "
                             f"log: {self.stderr()[-2000:]}")

    def health(self) -> tuple[int, list[str]]:
        status, body = self.get("/healthz")
        board = (body.get("reasons") if isinstance(body, dict) else None) or []
        return status, board

    def terminate(self, timeout: float = 30.0) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout)

    def stderr(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def _body(data: bytes, ctype: str) -> Any:
    if ctype == "application/json":
        return json.loads(data)
    return data
