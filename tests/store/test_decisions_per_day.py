"""The chart's query: act / noop / escalate / failed rows per local day, from one statement."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime

import pytest

from openhuman_desktop.store import SubconsciousStore
from openhuman_desktop.store.activity import local_day_starts


@pytest.fixture
def berlin(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A zone with daylight saving (the chart's days are local days, 23 or 25 hours long at the switch)."""
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


async def log_at(store: SubconsciousStore, when: datetime, decision: str) -> None:
    stamp = when.timestamp()
    entry = await store.log.start("t1", "Check urgent emails", stamp, 1, stamp)
    if decision != "in_progress":
        await store.log.finish(entry.id, decision, "…", 10, stamp + 1)


def test_local_days_follow_daylight_saving(berlin: None) -> None:
    bounds = local_day_starts(datetime(2024, 4, 2, 9, 0).timestamp(), 5)   # 29 Mar … 2 Apr; DST began 31 Mar
    assert [datetime.fromtimestamp(b).strftime("%d %H:%M") for b in bounds] == [
        "29 00:00", "30 00:00", "31 00:00", "01 00:00", "02 00:00", "03 00:00"]
    assert [bounds[i + 1] - bounds[i] for i in range(5)] == [86400, 86400, 82800, 86400, 86400]


async def test_rows_are_counted_per_local_day_and_decision(store: SubconsciousStore, berlin: None) -> None:
    for when, decision in [
        (datetime(2024, 3, 30, 23, 59), "act"),
        (datetime(2024, 3, 31, 0, 1), "noop"),        # the short day
        (datetime(2024, 3, 31, 23, 30), "noop"),
        (datetime(2024, 3, 31, 12, 0), "escalate"),
        (datetime(2024, 4, 1, 8, 0), "failed"),
        (datetime(2024, 4, 1, 8, 5), "cancelled"),     # not a series of the chart
        (datetime(2024, 4, 1, 8, 6), "in_progress"),
        (datetime(2024, 4, 2, 6, 0), "act"),
        (datetime(2024, 3, 1, 6, 0), "act"),           # before the first day
    ]:
        await log_at(store, when, decision)
    bounds = local_day_starts(datetime(2024, 4, 2, 9, 0).timestamp(), 5)
    assert await store.log.decisions_between(bounds) == [
        (0, 0, 0, 0), (1, 0, 0, 0), (0, 2, 1, 0), (0, 0, 0, 1), (1, 0, 0, 0)]


async def test_no_ranges_no_rows(store: SubconsciousStore) -> None:
    assert await store.log.decisions_between([]) == []
    assert await store.log.decisions_between(local_day_starts(time.time(), 3)) == [(0, 0, 0, 0)] * 3

