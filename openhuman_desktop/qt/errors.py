"""The one error reporter at the UI boundary (STYLE G6): what the user sees versus what the log keeps."""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from openhuman_desktop.errors import Cancelled, UserFacingError

log = logging.getLogger(__name__)

Notify = Callable[[str, str], None]  # (title, text) → shown to the user
ExceptHook = Callable[[type[BaseException], BaseException, TracebackType | None], Any]

TITLE = "OpenHuman"
# The same text is shown at most once in this many seconds (a failing timer must not flood the desktop).
REPEAT_SECONDS = 30.0


class ErrorReporter:
    """Routes every error that reaches the UI to the log and, when it helps, to the user.

    * :class:`UserFacingError` → ``log.warning`` + a notification with ``str(exc)``.
    * :class:`Cancelled` / :class:`asyncio.CancelledError` → nothing.
    * any other exception → ``log.exception`` + "Something went wrong (details in <log file>)".

    ``sys.excepthook`` (where errors from Qt slots and ``asyncSlot`` land) and the loop's exception
    handler both route here once :meth:`install` is called.
    """

    def __init__(self, log_file: Path, notify: Notify | None = None,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self._log_file = log_file
        self._notify = notify
        self._monotonic = monotonic
        self._last_shown: dict[str, float] = {}
        self._previous_hook: ExceptHook | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.shown: list[str] = []  # what the user was told, newest last (tests and the window read it)

    def set_notifier(self, notify: Notify | None) -> None:
        """Where messages go: the tray balloon, or the window's banner when there is no tray."""
        self._notify = notify

    def bug_text(self) -> str:
        return f"Something went wrong (details in {self._log_file})"

    def report(self, exc: BaseException, context: str = "") -> None:
        """Log ``exc`` and tell the user what they can act on (see the class docstring)."""
        where = f"{context}: " if context else ""
        if isinstance(exc, Cancelled | asyncio.CancelledError):
            log.debug("%scancelled", where)
            return
        if isinstance(exc, UserFacingError):
            log.warning("%s%s", where, exc)
            self._show(str(exc))
            return
        log.error("%sunexpected error", where or "UI: ", exc_info=(type(exc), exc, exc.__traceback__))
        self._show(self.bug_text())

    def _show(self, text: str) -> None:
        now = self._monotonic()
        last = self._last_shown.get(text)
        if last is not None and now - last < REPEAT_SECONDS:
            return
        self._last_shown[text] = now
        self.shown.append(text)
        if self._notify is None:
            return
        try:
            self._notify(TITLE, text)
        except Exception:  # the reporter itself must never raise
            log.exception("could not show the message %r", text)

    # --- hooks ----------------------------------------------------------------------------------

    def install(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        """Route ``sys.excepthook`` and (if given) ``loop``'s exception handler into :meth:`report`."""
        if self._previous_hook is None:
            self._previous_hook = sys.excepthook
            sys.excepthook = self._excepthook
        if loop is not None:
            self._loop = loop
            loop.set_exception_handler(self._loop_exception_handler)

    def uninstall(self) -> None:
        """Put the previous hooks back (at shutdown and at the end of tests)."""
        if self._previous_hook is not None:
            if sys.excepthook == self._excepthook:
                sys.excepthook = self._previous_hook
            self._previous_hook = None
        if self._loop is not None:
            if not self._loop.is_closed():
                self._loop.set_exception_handler(None)
            self._loop = None

    def _excepthook(self, exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if not isinstance(exc, Exception):  # KeyboardInterrupt, SystemExit: not ours to swallow
            (self._previous_hook or sys.__excepthook__)(exc_type, exc, tb)
            return
        if exc.__traceback__ is None:
            exc = exc.with_traceback(tb)
        self.report(exc, "UI")

    def _loop_exception_handler(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        message = str(context.get("message", "asyncio error"))
        if isinstance(exc, BaseException):
            self.report(exc, message)
        else:
            log.error("event loop: %s", message)
