"""RetryPolicy: HTTP 429 back-off delays, Retry-After parsing and the retry loop."""

from __future__ import annotations

import email.utils

import pytest

from openhuman_desktop.errors import LlmUnavailable
from openhuman_desktop.llm.retry import RateLimitedError, RetryPolicy, parse_retry_after, retry_rate_limited

NOW = 1_700_000_000.0


class FakeSleep:
    """Records the delays instead of waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


class Flaky:
    """An attempt that is rate limited ``limited`` times, then answers ``"ok"``."""

    def __init__(self, limited: int, retry_after: str | None = None) -> None:
        self.limited = limited
        self.retry_after = retry_after
        self.calls = 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.calls <= self.limited:
            raise RateLimitedError(self.retry_after)
        return "ok"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("3", 3.0),
        (" 2.5 ", 2.5),
        ("0", 0.0),
        ("-4", 0.0),
        (email.utils.formatdate(NOW + 30, usegmt=True), 30.0),
        (email.utils.formatdate(NOW - 30, usegmt=True), 0.0),
        ("soon", None),
        ("", None),
        (None, None),
    ],
)
def test_parse_retry_after(header: str | None, expected: float | None) -> None:
    assert parse_retry_after(header, now=NOW) == expected


def test_policy_defaults_are_2_4_8_seconds() -> None:
    policy = RetryPolicy()
    assert policy.attempts == 4
    assert [policy.delay(i) for i in range(3)] == [2.0, 4.0, 8.0]


def test_retry_after_wins_and_is_capped() -> None:
    policy = RetryPolicy(max_retry_after=60)
    assert policy.delay(0, "7") == 7.0
    assert policy.delay(2, "3600") == 60.0
    assert policy.delay(1, email.utils.formatdate(NOW + 90, usegmt=True), now=NOW) == 60.0
    assert policy.delay(1, "garbage") == 4.0


async def test_three_retries_then_success() -> None:
    sleep, attempt = FakeSleep(), Flaky(limited=3)
    result = await retry_rate_limited(attempt, policy=RetryPolicy(), sleep=sleep, what="http://x.test")
    assert result == "ok"
    assert attempt.calls == 4
    assert sleep.delays == [2.0, 4.0, 8.0]


async def test_gives_up_after_four_tries() -> None:
    sleep, attempt = FakeSleep(), Flaky(limited=99)
    with pytest.raises(LlmUnavailable) as info:
        await retry_rate_limited(attempt, policy=RetryPolicy(), sleep=sleep, what="http://x.test")
    assert str(info.value) == "http://x.test is rate limiting requests (HTTP 429); tried 4 times."
    assert attempt.calls == 4
    assert sleep.delays == [2.0, 4.0, 8.0]
    assert isinstance(info.value.__cause__, RateLimitedError)


async def test_retry_after_header_replaces_the_delays() -> None:
    sleep, attempt = FakeSleep(), Flaky(limited=2, retry_after="1")
    assert await retry_rate_limited(attempt, policy=RetryPolicy(), sleep=sleep, what="x") == "ok"
    assert sleep.delays == [1.0, 1.0]


async def test_no_delays_means_no_retry() -> None:
    sleep, attempt = FakeSleep(), Flaky(limited=1)
    with pytest.raises(LlmUnavailable, match="tried 1 time[.]"):
        await retry_rate_limited(attempt, policy=RetryPolicy(delays=()), sleep=sleep, what="x")
    assert sleep.delays == []


async def test_other_errors_are_not_retried() -> None:
    sleep = FakeSleep()

    async def broken() -> str:
        raise LlmUnavailable("down")

    with pytest.raises(LlmUnavailable, match="down"):
        await retry_rate_limited(broken, policy=RetryPolicy(), sleep=sleep, what="x")
    assert sleep.delays == []
