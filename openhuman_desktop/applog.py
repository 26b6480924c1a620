"""Logging: a rotating private file in the workspace, and the terminal for headless runs."""

from __future__ import annotations

import contextlib
import io
import logging
import logging.handlers
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from openhuman_desktop.errors import os_error_sentence, workspace_error

FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"
MAX_BYTES = 2_000_000
BACKUP_COUNT = 5
# One burst (100,000 HEARTBEAT.md lines, a storm of identical failures) must not rotate the whole history
# away: past this many records of one message template within one window, the rest are counted, not written.
BURST_LIMIT = 50
BURST_WINDOW_SECONDS = 60.0
# ``log.error(..., extra=FILE_ONLY)``: written to the log file, not the terminal (the caller prints it itself).
FILE_ONLY = {"openhuman_file_only": True}


class PrivateRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log whose files are created readable by the user only (0600), whatever the umask.

    A log that cannot be written (disk full, read-only) is said once on stderr, in one line, instead of
    a traceback per record.
    """

    _write_failed = False

    def _open(self) -> io.TextIOWrapper:
        fd = os.open(self.baseFilename, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with contextlib.suppress(OSError):  # not ours to change (someone else's file): still writable
            os.fchmod(fd, 0o600)
        return open(fd, "a", encoding=self.encoding, errors=self.errors)  # noqa: SIM115 - the handler owns it

    def handleError(self, record: logging.LogRecord) -> None:  # noqa: N802 (logging API)
        exc = sys.exc_info()[1]
        if not isinstance(exc, OSError):
            super().handleError(record)
            return
        if not self._write_failed:
            self._write_failed = True
            print(f"openhuman-desktop: cannot write the log file {self.baseFilename}: {os_error_sentence(exc)}",
                  file=sys.stderr)


class BurstFilter(logging.Filter):
    """Lets through at most ``limit`` records of one message template per window; counts the rest.

    The first record after a suppressed stretch says how many like it were left out.

    Args:
        limit: records of one template written per window.
        window: seconds.
        monotonic: the clock (tests pass a fake).
    """

    def __init__(self, limit: int = BURST_LIMIT, window: float = BURST_WINDOW_SECONDS,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._limit = limit
        self._window = window
        self._monotonic = monotonic
        self._seen: dict[tuple[str, object], list[float | int]] = {}  # key -> [window start, written, dropped]

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.msg)
        now = self._monotonic()
        entry = self._seen.get(key)
        if entry is None or now - entry[0] >= self._window:
            dropped = int(entry[2]) if entry is not None else 0
            self._seen[key] = [now, 1, 0]
            if len(self._seen) > 10_000:  # templates are few; never let the table grow without bound
                self._seen = {key: self._seen[key]}
            if dropped:
                record.msg = f"{record.msg} [{dropped:,} more lines like this one were left out of the log]"
            return True
        if entry[1] < self._limit:
            entry[1] = int(entry[1]) + 1
            return True
        entry[2] = int(entry[2]) + 1
        return False


class _NotFileOnly(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not getattr(record, "openhuman_file_only", False)


QUIET_LOGGERS = ("httpx", "httpcore", "aiosqlite", "asyncio", "aiohttp.access")
"""Libraries whose records below WARNING the log leaves out: their chatter (httpx names every URL it asks, a
webhook's secret address among them)."""


def is_set_up() -> bool:
    """Whether :func:`setup` installed its handlers (before that, a record would go to Python's last resort)."""
    return any(getattr(handler, "_openhuman", False) for handler in logging.getLogger().handlers)


def setup(log_file: Path, *, console_level: int = logging.WARNING) -> None:
    """Send INFO and above to ``log_file`` (rotating, 5 × 2 MB, mode 0600) and ``console_level`` to stderr.

    Raises:
        WorkspaceUnavailable: the log folder or file cannot be created (read-only disk, disk full, …).
    """
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    for handler in list(root.handlers):
        if getattr(handler, "_openhuman", False):
            root.removeHandler(handler)
            handler.close()
    try:
        log_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        file_handler = PrivateRotatingFileHandler(
            log_file, maxBytes=MAX_BYTES, backupCount=BACKUP_COUNT, encoding="utf-8"
        )
    except OSError as exc:
        raise workspace_error(exc, "open its log file") from exc
    file_handler.setFormatter(logging.Formatter(FORMAT))
    file_handler.addFilter(BurstFilter())
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(console_level)
    console.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    console.addFilter(_NotFileOnly())
    console.addFilter(BurstFilter())
    handlers: list[logging.Handler] = [file_handler, console]
    for handler in handlers:
        setattr(handler, "_openhuman", True)  # noqa: B010 - marks our handlers for a later setup() call
        root.addHandler(handler)
    for noisy in QUIET_LOGGERS:
        logging.getLogger(noisy).setLevel(logging.WARNING)
