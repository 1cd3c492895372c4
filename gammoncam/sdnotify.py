"""sd_notify(3) without a dependency: one datagram to ``$NOTIFY_SOCKET``.

systemd hands a ``Type=notify`` service the path of a datagram socket in ``$NOTIFY_SOCKET``; the
service writes newline-separated ``KEY=VALUE`` assignments to it (``READY=1``, ``WATCHDOG=1``,
``STATUS=...``, ``STOPPING=1``). A path starting with ``@`` names a Linux abstract socket (the ``@``
stands for a leading NUL byte). Outside systemd the variable is unset and every call is a no-op,
so the same code runs from a terminal, in tests and under the service manager.

``WatchdogSec=`` reaches the service as ``$WATCHDOG_USEC`` (and ``$WATCHDOG_PID``, the process it
is meant for); :func:`watchdog_interval` reads them the way ``sd_watchdog_enabled(3)`` does.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


def _address(path: str) -> str | bytes:
    """The socket address of a ``$NOTIFY_SOCKET`` value (``@name`` is the abstract ``\\0name``)."""
    if path.startswith("@"):
        return b"\0" + path[1:].encode()
    return path


def notify(message: str, *, environ: Mapping[str, str] | None = None) -> bool:
    """Send ``message`` (e.g. ``"READY=1"`` or ``"WATCHDOG=1\\nSTATUS=ok"``) to systemd.

    Returns True when a datagram was sent, False when there is no ``$NOTIFY_SOCKET`` (not run by
    systemd, or ``NotifyAccess=`` did not grant it) or sending failed; a failure is logged, never
    raised: losing a notification must not take the service down.
    """
    env = os.environ if environ is None else environ
    path = env.get("NOTIFY_SOCKET", "")
    if not path:
        return False
    if not (path.startswith("/") or path.startswith("@")):
        log.warning("ignoring NOTIFY_SOCKET=%r: neither a path nor an abstract socket", path)
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(_address(path))
            sock.sendall(message.encode())
    except OSError as exc:
        log.warning("sd_notify %r to %s failed: %s", message.split("\n")[0], path, exc)
        return False
    return True


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """``WatchdogSec=`` in seconds when the watchdog is armed for this process, else None.

    As ``sd_watchdog_enabled(3)``: ``$WATCHDOG_USEC`` must be a positive integer, and when
    ``$WATCHDOG_PID`` is set it must be this process (a child does not inherit the duty).
    """
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) <= 0:
        return None
    if pid and (not pid.isdigit() or int(pid) != os.getpid()):
        return None
    return int(usec) / 1_000_000
