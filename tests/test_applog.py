"""The log: private files (0600, rotated ones too), and one burst never rotates the whole history away."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from openhuman_desktop import applog


@pytest.fixture
def log_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "logs" / "openhuman.log"
    old_umask = os.umask(0o022)
    root = logging.getLogger()
    level = root.level
    try:
        applog.setup(path, console_level=logging.CRITICAL)
        yield path
    finally:
        for handler in list(root.handlers):
            if getattr(handler, "_openhuman", False):
                root.removeHandler(handler)
                handler.close()
        root.setLevel(level)
        os.umask(old_umask)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_log_files_are_private_also_after_rotation(log_file: Path) -> None:
    log = logging.getLogger("openhuman_desktop.test_applog")
    log.info("first line")
    assert mode(log_file) == 0o600
    assert mode(log_file.parent) == 0o700
    for index in range(applog.BURST_LIMIT):  # different templates: nothing is held back
        log.info("line %d of a long story " + "x" * 50_000 + str(index), index)
    rotated = sorted(log_file.parent.glob("openhuman.log.*"))
    assert rotated, "the log was expected to rotate"
    for path in [log_file, *rotated]:
        assert mode(path) == 0o600, path


@pytest.mark.logs_expected(r"an important line from before the burst")
def test_one_burst_does_not_rotate_the_history_away(log_file: Path) -> None:
    log = logging.getLogger("openhuman_desktop.test_applog")
    log.warning("an important line from before the burst")
    for index in range(100_000):  # e.g. one line per task of a 100,000-line HEARTBEAT.md
        log.info("task %s added", f"t{index:06d}")
    assert not list(log_file.parent.glob("openhuman.log.*")), "the burst rotated the log"
    text = log_file.read_text(encoding="utf-8")
    assert "an important line from before the burst" in text
    assert text.count("added") <= applog.BURST_LIMIT
    assert log_file.stat().st_size < applog.MAX_BYTES // 10


def test_a_suppressed_stretch_is_counted_in_the_next_line() -> None:
    now = [0.0]
    burst = applog.BurstFilter(limit=3, window=60.0, monotonic=lambda: now[0])

    def record(text: str) -> logging.LogRecord:
        return logging.LogRecord("x", logging.INFO, __file__, 1, text, None, None)

    passed = [burst.filter(record("same %s")) for _ in range(10)]
    assert passed == [True] * 3 + [False] * 7
    assert burst.filter(record("another template"))
    now[0] = 61.0
    later = record("same %s")
    assert burst.filter(later)
    assert "7 more lines like this one were left out" in str(later.msg)
