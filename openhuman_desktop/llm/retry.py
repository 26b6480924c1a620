"""Back-off on HTTP 429 (and 503 with ``Retry-After``) for the model providers: how long to wait, and the loop."""

from __future__ import annotations

import email.utils
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from openhuman_desktop.errors import LlmUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]


class RateLimitedError(Exception):
    """Raised by one attempt when the server asked to come back later; never leaves the retry loop.

    Args:
        retry_after: the raw ``Retry-After`` header, if the server sent one.
        status: 429 (rate limited) or 503 (busy, with a ``Retry-After``).
    """

    def __init__(self, retry_after: str | None = None, status: int = 429) -> None:
        super().__init__(f"HTTP {status}")
        self.retry_after = retry_after
        self.status = status


def should_wait(status: int, retry_after: str | None) -> bool:
    """Whether an answer asks to come back later: HTTP 429, or HTTP 503 that says when (``Retry-After``)."""
    return status == 429 or (status == 503 and parse_retry_after(retry_after) is not None)


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait according to a ``Retry-After`` header (delta seconds or an HTTP date).

    Args:
        value: the header value, or None when absent.
        now: the current unix time (for HTTP dates); defaults to ``time.time()``.

    Returns:
        A non-negative number of seconds, or None when the header is absent or unreadable.
    """
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        return max(0.0, float(text))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # RFC 9110 dates are GMT; a naive result means no zone was given
        return None
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait when a server answers HTTP 429 (rate limited).

    Attributes:
        delays: the wait before each retry; its length is the number of retries.
        max_retry_after: the longest wait a ``Retry-After`` header may ask for.
    """

    delays: tuple[float, ...] = (2.0, 4.0, 8.0)
    max_retry_after: float = 60.0

    @property
    def attempts(self) -> int:
        """Total tries: the first one plus one per delay."""
        return len(self.delays) + 1

    def delay(self, retry: int, retry_after: str | None = None, *, now: float | None = None) -> float:
        """Seconds to wait before retry number ``retry`` (0-based).

        A readable ``Retry-After`` header wins over the configured delay, capped at ``max_retry_after``.
        """
        asked = parse_retry_after(retry_after, now=now)
        if asked is not None:
            return min(asked, self.max_retry_after)
        return self.delays[retry]


async def retry_rate_limited(
    attempt: Callable[[], Awaitable[T]], *, policy: RetryPolicy, sleep: Sleep, what: str
) -> T:
    """Run ``attempt`` until it does not raise ``RateLimitedError``, waiting as ``policy`` says in between.

    Args:
        attempt: one try; raises ``RateLimitedError`` when the server asked to come back later.
        policy: the delays.
        sleep: ``asyncio.sleep`` or a fake in tests.
        what: the endpoint in words, e.g. ``"Ollama at http://127.0.0.1:11434"``.

    Raises:
        LlmUnavailable: the server was still rate limiting after the last try.
    """
    for retry in range(policy.attempts):
        try:
            return await attempt()
        except RateLimitedError as exc:
            if retry >= len(policy.delays):
                times = "1 time" if policy.attempts == 1 else f"{policy.attempts} times"
                doing = "is rate limiting requests" if exc.status == 429 else "is busy"
                raise LlmUnavailable(f"{what} {doing} (HTTP {exc.status}); tried {times}.") from exc
            delay = policy.delay(retry, exc.retry_after)
            log.info(
                "%s answered HTTP %d; retry %d of %d in %.1f s", what, exc.status, retry + 1, len(policy.delays),
                delay,
            )
            await sleep(delay)
    raise AssertionError("unreachable: the loop returns or raises")
