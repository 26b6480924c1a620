"""Notice when a file changes (config.toml, HEARTBEAT.md) by polling its stat — cheap and portable."""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path

from openhuman_desktop.clock import Clock

log = logging.getLogger(__name__)

POLL_SECONDS = 2.0
Stamp = tuple[int, int, int] | None


def stamp(path: Path) -> Stamp:
    """What identifies a version of the file: mtime, size, inode (None if missing)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size, info.st_ino)


async def watch_file(
    path: Path, clock: Clock, on_change: Callable[[], Awaitable[None]], poll_seconds: float = POLL_SECONDS
) -> None:
    """Call ``on_change`` whenever ``path`` is created, changed or removed; runs until cancelled."""
    last = stamp(path)
    while True:
        await clock.sleep(poll_seconds)
        current = stamp(path)
        if current == last:
            continue
        last = current
        try:
            await on_change()
        except Exception:  # a failing reaction must not stop the watching
            log.exception("reacting to a change of %s failed", path)
