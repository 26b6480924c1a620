"""What the Telegram channel's parts share without python-telegram-bot: its errors, an update, the token
redactor (so the channel module can be imported without loading PTB)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from openhuman_desktop.errors import UserFacingError

REDACTED = "[telegram token]"


class TelegramProblem(UserFacingError):
    """Telegram could not be used for a call; ``str`` is a short, token-free description."""


class BadToken(TelegramProblem):
    """401/404: the token is wrong or was revoked."""


class PollConflict(TelegramProblem):
    """409: someone else polls this bot's updates (or a webhook is set)."""


class SlowDown(TelegramProblem):
    """429: flood control; wait ``retry_after`` seconds."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"Telegram asked to wait {retry_after:.0f} s (429 Too Many Requests)")
        self.retry_after = retry_after


class Unreachable(TelegramProblem):
    """The network or the Bot API server is down, or it timed out: worth trying again."""


class Undeliverable(TelegramProblem):
    """The chat cannot get this message (blocked, not found, bad request): trying again will not help."""


@dataclass(frozen=True)
class Incoming:
    """One update, reduced to what the channel uses: a message, or a press on an inline button (``user_id``:
    who wrote or pressed)."""

    update_id: int
    chat_id: int | None
    text: str | None = None
    callback_id: str | None = None
    data: str | None = None
    message_id: int | None = None
    user_id: int | None = None


class TokenRedactor(logging.Filter):
    """A handler filter that replaces the token wherever it appears in a record (message, arguments,
    traceback). Our own code never logs it; this is for a library's record we do not control."""

    def __init__(self, token: str) -> None:
        super().__init__()
        secret = token.partition(":")[2]
        # The whole token, and its secret half alone (in case a URL or a message encodes the colon).
        self._secrets = [part for part in (token, secret) if len(part) >= 8]

    def _clean(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if not self._secrets:
            return True
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a malformed call: logging reports it when it formats the record
            return True
        cleaned = self._clean(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self._clean(record.stack_info)
        return True

    def install(self) -> None:
        """Add to every handler of the root logger (the log file and the terminal)."""
        for handler in logging.getLogger().handlers:
            handler.addFilter(self)

    def remove(self) -> None:
        for handler in logging.getLogger().handlers:
            handler.removeFilter(self)
