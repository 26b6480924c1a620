"""Logging: a rotating file in the workspace, and the terminal for headless runs."""

from __future__ import annotations

import logging
import logging.handlers
import sys
from pathlib import Path

FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"


def setup(log_file: Path, *, console_level: int = logging.WARNING) -> None:
    """Send INFO and above to ``log_file`` (rotating, 5 × 2 MB) and ``console_level`` to stderr."""
    root = logging.getLogger()
    root.setLevel(logging.INFO)
    for handler in list(root.handlers):
        if getattr(handler, "_openhuman", False):
            root.removeHandler(handler)
            handler.close()
    log_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    file_handler = logging.handlers.RotatingFileHandler(log_file, maxBytes=2_000_000, backupCount=5, encoding="utf-8")
    file_handler.setFormatter(logging.Formatter(FORMAT))
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(console_level)
    console.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handlers: list[logging.Handler] = [file_handler, console]
    for handler in handlers:
        setattr(handler, "_openhuman", True)  # noqa: B010 - marks our handlers for a later setup() call
        root.addHandler(handler)
    for noisy in ("httpx", "httpcore", "aiosqlite", "asyncio", "aiohttp.access"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
