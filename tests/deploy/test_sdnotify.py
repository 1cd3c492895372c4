"""sd_notify without a dependency: datagrams to a path or an abstract socket; no-ops outside
systemd; never raises."""

from __future__ import annotations

import logging
import os
import socket
import uuid
from pathlib import Path

import pytest

from gammoncam.sdnotify import notify, watchdog_interval


def test_sends_one_datagram_to_a_path_socket(tmp_path: Path) -> None:
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        assert notify("READY=1\nSTATUS=up", environ={"NOTIFY_SOCKET": str(path)}) is True
        assert sock.recv(4096) == b"READY=1\nSTATUS=up"


def test_at_names_an_abstract_socket() -> None:
    name = f"gammoncam-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        assert notify("WATCHDOG=1", environ={"NOTIFY_SOCKET": "@" + name}) is True
        assert sock.recv(4096) == b"WATCHDOG=1"


def test_outside_systemd_it_is_a_no_op() -> None:
    assert notify("READY=1", environ={}) is False
    assert notify("READY=1", environ={"NOTIFY_SOCKET": ""}) is False


def test_a_dead_or_odd_socket_is_logged_not_raised(tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert notify("READY=1", environ={"NOTIFY_SOCKET": str(tmp_path / "gone")}) is False
        assert notify("READY=1", environ={"NOTIFY_SOCKET": "relative/path"}) is False
    assert "failed" in caplog.text and "neither a path" in caplog.text


def test_watchdog_interval_follows_sd_watchdog_enabled() -> None:
    me = str(os.getpid())
    assert watchdog_interval({"WATCHDOG_USEC": "20000000"}) == 20.0
    assert watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": me}) == 20.0
    assert watchdog_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "-5"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None
    assert watchdog_interval({}) is None
