"""Opening a link in the person's web browser, and knowing whether that happened.

Qt's ``QDesktopServices.openUrl`` says yes on Linux as soon as it could start ``xdg-open``, even when
``xdg-open`` then finds no browser and gives up: "Open web app" logged success with no browser in sight. Where
``xdg-open`` is the way, it is run here and its answer awaited: exit 0 is done, another exit status is not (with
its own words), and still running after a few seconds means it started a program that stays in the foreground
(a browser's first window), which is done too.
"""

from __future__ import annotations

import asyncio
import logging
import re
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

log = logging.getLogger(__name__)

_KEY = re.compile(r"token=[^\s'\"]+")
XDG_OPEN_WAIT = 5.0
"""Seconds to wait for ``xdg-open``'s answer before taking a still-running one as a started browser."""


@dataclass(frozen=True)
class Launch:
    """What came of asking for a browser: ``opened``, by ``how``, or ``problem`` (one sentence) when not."""

    opened: bool
    how: str
    problem: str = ""


async def open_in_browser(url: str) -> Launch:
    """Open ``url`` in the default web browser and say honestly whether one was started."""
    opener = shutil.which("xdg-open") if sys.platform not in ("win32", "darwin") else None
    if opener is None:
        # Windows and macOS answer for the browser itself; elsewhere, without xdg-open, Qt looks for one
        # ($BROWSER, then the browsers it knows) and says whether it could start it.
        opened = bool(QDesktopServices.openUrl(QUrl(url)))
        how = "the desktop" if sys.platform in ("win32", "darwin") else "Qt (xdg-open is not installed)"
        return Launch(opened, how, "" if opened else "no web browser was found")
    code, said = await asyncio.to_thread(_run, opener, url)
    if code is None:
        return Launch(True, "xdg-open (a browser is running in the foreground)")
    if code == 0:
        return Launch(True, "xdg-open")
    return Launch(False, "xdg-open", said or f"xdg-open gave up (exit status {code})")


def _run(opener: str, url: str) -> tuple[int | None, str]:
    """Run ``xdg-open url``: its exit status and the last line it wrote to stderr (None: still running)."""
    try:
        process = subprocess.Popen([opener, url], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, start_new_session=True)
    except OSError as exc:
        return 127, f"it could not be started ({exc.strerror or exc})"
    try:
        _out, err = process.communicate(timeout=XDG_OPEN_WAIT)
    except subprocess.TimeoutExpired:
        # It started a program that runs on (the browser itself): collected whenever it ends.
        threading.Thread(target=_collect, args=(process,), name="xdg-open-wait", daemon=True).start()
        return None, ""
    lines = [line.strip() for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
    return process.returncode, _without(lines[-1], url) if lines else ""


def _collect(process: subprocess.Popen[bytes]) -> None:
    process.communicate()


def _without(line: str, url: str) -> str:
    """xdg-open names the link it could not open: the web app's key is in it, and never goes further."""
    return _KEY.sub("token=…", line.replace(url, "the link"))
