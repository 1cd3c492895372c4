"""Logging to the journal: plain stderr lines, levels as syslog priority prefixes.

Under systemd, stderr is a stream to journald (``$JOURNAL_STREAM`` names it as
``device:inode``). journald stamps every line itself, so the lines carry no time, and a ``<N>``
prefix (``SyslogLevelPrefix=``, on by default) sets each line's priority, which makes
``journalctl -u gammoncam -p warning`` work. Elsewhere (a terminal, tests) lines get a time
and the level name instead.

:func:`setup` also enables :mod:`faulthandler`: when the watchdog fires, systemd sends
``SIGABRT`` (``WatchdogSignal=``), and the journal then shows where every thread was stuck.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import sys
from collections.abc import Mapping
from typing import TextIO

# logging level -> syslog priority (sd-daemon(3))
_PRIORITY = {
    logging.CRITICAL: 2,
    logging.ERROR: 3,
    logging.WARNING: 4,
    logging.INFO: 6,
    logging.DEBUG: 7,
}


class JournalFormatter(logging.Formatter):
    """``<priority>logger: message``, one journal entry per line of a multi-line message."""

    def __init__(self) -> None:
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines())


def priority(levelno: int) -> int:
    """The syslog priority of a logging level (levels between two known ones round down)."""
    for level in sorted(_PRIORITY, reverse=True):
        if levelno >= level:
            return _PRIORITY[level]
    return 7


def to_journal(stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """True when ``stream`` is the journal stream systemd connected (``$JOURNAL_STREAM``)."""
    env = os.environ if environ is None else environ
    value = env.get("JOURNAL_STREAM", "")
    device, _, inode = value.partition(":")
    if not (device.isdigit() and inode.isdigit()):
        return False
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return (st.st_dev, st.st_ino) == (int(device), int(inode))


def setup(
    level: int | str = logging.INFO,
    *,
    stream: TextIO | None = None,
    environ: Mapping[str, str] | None = None,
) -> logging.Handler:
    """Send the root logger's records to ``stream`` (stderr); return the handler installed."""
    out = sys.stderr if stream is None else stream
    handler = logging.StreamHandler(out)
    if to_journal(out, environ):
        handler.setFormatter(JournalFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_gammoncam", False)]:
        root.removeHandler(old)
    handler._gammoncam = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    if not faulthandler.is_enabled():
        try:
            faulthandler.enable(file=out, all_threads=True)
        except (AttributeError, ValueError, OSError):  # a stream without a file descriptor
            pass
    return handler
