"""The watchdog: READY=1 once, WATCHDOG=1 only while frames are fresh, STATUS= lines; in process
with a fake clock, and for real in a child process notifying a test socket."""

from __future__ import annotations

import os
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gammoncam.watchdog import Watchdog

ROOT = Path(__file__).resolve().parents[2]


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def dog_with(clock: Clock, sent: list[str], **kw: object) -> Watchdog:
    return Watchdog(stale_after=5.0, timeout=10.0, clock=clock, send=sent.append, **kw)


def test_pets_only_while_the_newest_frame_is_fresh() -> None:
    clock, sent = Clock(), []
    dog = dog_with(clock, sent)
    dog.ready()
    dog.ready()
    assert sent == ["READY=1\nSTATUS=waiting for the first camera frame"]
    assert dog.tick() is False and not sent[-1].startswith("WATCHDOG=1")
    dog.frame_arrived()
    clock.t += 4.9
    assert dog.tick() is True
    assert sent[-1] == "WATCHDOG=1\nSTATUS=camera delivering frames (1 so far)"
    clock.t += 0.1  # exactly stale_after: stale
    assert dog.tick() is False
    assert sent[-1] == "STATUS=camera stalled: no frame for 5 s (watchdog not petted)"
    list(dog.watch(range(3)))  # three more frames through the wrapper
    assert dog.tick() is True and "(4 so far)" in sent[-1]


def test_interval_is_half_of_watchdogsec_from_the_environment() -> None:
    env = {"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}
    assert Watchdog(environ=env).interval == 15.0
    assert Watchdog(environ={"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}).interval is None
    assert Watchdog(environ={}).interval is None
    assert Watchdog(environ={"WATCHDOG_USEC": "0"}).timeout is None
    with pytest.raises(ValueError):
        Watchdog(stale_after=0)


def test_without_a_watchdog_start_only_says_ready_and_stop_says_stopping() -> None:
    sent: list[str] = []
    dog = Watchdog(environ={}, send=sent.append)
    with dog:
        assert dog._thread is None
    assert sent[0].startswith("READY=1\n") and sent[-1] == "STOPPING=1\nSTATUS=stopping"


SO_TIMESTAMPNS = 35  # Linux (asm-generic); Python does not name it


def receive_all(sock: socket.socket, proc: subprocess.Popen[str], deadline: float,
                ) -> list[tuple[float, str]]:
    """(send time, message) of every datagram until the child exits. The kernel stamps each one
    as it is sent (SO_TIMESTAMPNS, wall clock), so a parent slowed down by a busy machine still
    knows when the child sent it."""
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    sock.settimeout(0.05)
    got: list[tuple[float, str]] = []
    while time.monotonic() < deadline:
        try:
            data, ancillary, _, _ = sock.recvmsg(4096, socket.CMSG_SPACE(16))
        except TimeoutError:
            if proc.poll() is not None:
                break
            continue
        stamp = time.time()
        for level, kind, raw in ancillary:
            if (level, kind) == (socket.SOL_SOCKET, SO_TIMESTAMPNS) and len(raw) >= 16:
                sec, nsec = struct.unpack("qq", raw[:16])
                stamp = sec + nsec / 1e9
        got.append((stamp, data.decode()))
    return got


def test_a_child_pets_while_frames_flow_and_stops_when_the_camera_stalls(tmp_path: Path) -> None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    notify_socket = str(tmp_path / "notify.sock")
    sock.bind(notify_socket)
    interval, stale = 0.1, 0.5  # WatchdogSec=0.2 s
    with sock:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tests.deploy.watchdog_child", "1.2", "2.5", "1.2",
             "--stale-after", str(stale)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "NOTIFY_SOCKET": notify_socket,
                 "WATCHDOG_USEC": str(int(2 * interval * 1e6))})
        got = receive_all(sock, proc, time.monotonic() + 30)
        out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    phases = {line.split()[1]: float(line.split()[2]) for line in out.splitlines()
              if line.startswith("phase ")}
    assert list(phases) == ["flow", "stall", "flow2", "end"]
    messages = [m for _, m in got]
    assert messages[0].startswith("READY=1\n")
    assert sum(m.startswith("READY=1") for m in messages) == 1
    assert messages[-1] == "STOPPING=1\nSTATUS=stopping"
    pets = [t for t, m in got if m.startswith("WATCHDOG=1\n")]

    def count(lo: float, hi: float) -> int:
        return sum(lo <= t < hi for t in pets)

    # flowing: petted about every interval
    assert count(phases["flow"] + interval, phases["stall"]) >= 0.5 * 1.1 / interval
    assert count(phases["flow2"] + interval + 0.05, phases["end"]) >= 0.5 * 1.0 / interval
    # stalled: once the last frame is older than stale_after (+ a tick, + slack for a datagram
    # received late on a busy machine), no pet at all
    silent_from = phases["stall"] + stale + interval + 0.4
    assert count(silent_from, phases["flow2"]) == 0, (
        phases, silent_from, [(round(t - phases["stall"], 2), m) for t, m in got])
    stalled = [m for t, m in got if silent_from <= t < phases["flow2"]]
    assert len(stalled) >= 0.5 * (phases["flow2"] - silent_from) / interval
    assert all(m.startswith("STATUS=camera stalled: no frame for") for m in stalled)
