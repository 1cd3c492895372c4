"""Logging: journal lines (priority prefix, no time) under systemd, timed lines elsewhere."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from gammoncam.logs import JournalFormatter, priority, setup, to_journal


@pytest.fixture(autouse=True)
def restore_root_logger() -> object:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield None
    root.handlers[:] = handlers
    root.setLevel(level)


def test_journal_stream_is_recognised_by_device_and_inode(tmp_path: Path) -> None:
    with (tmp_path / "err").open("w") as stream:
        st = os.fstat(stream.fileno())
        assert to_journal(stream, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
        assert not to_journal(stream, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino + 1}"})
        assert not to_journal(stream, {"JOURNAL_STREAM": "nonsense"})
        assert not to_journal(stream, {})


def test_under_the_journal_lines_carry_a_priority_and_no_time(tmp_path: Path) -> None:
    path = tmp_path / "err"
    with path.open("w") as stream:
        st = os.fstat(stream.fileno())
        setup("DEBUG", stream=stream, environ={"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
        log = logging.getLogger("gammoncam.test")
        log.warning("camera lost")
        log.info("two\nlines")
    assert path.read_text().splitlines() == [
        "<4>gammoncam.test: camera lost", "<6>gammoncam.test: two", "<6>lines"]


def test_elsewhere_lines_carry_time_and_level(tmp_path: Path) -> None:
    path = tmp_path / "err"
    with path.open("w") as stream:
        setup("INFO", stream=stream, environ={})
        setup("INFO", stream=stream, environ={})  # twice: still one handler
        logging.getLogger("gammoncam.test").error("bad")
        logging.getLogger("gammoncam.test").debug("hidden")
    lines = path.read_text().splitlines()
    assert len(lines) == 1 and lines[0].endswith(" ERROR gammoncam.test: bad")
    assert lines[0][:4].isdigit()


def test_priorities() -> None:
    assert [priority(v) for v in (50, 40, 30, 20, 10, 25, 5)] == [2, 3, 4, 6, 7, 6, 7]
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "m", None, None)
    assert JournalFormatter().format(record) == "<3>x: m"
