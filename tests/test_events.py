"""The event bus: delivery by event class, failing handlers contained, and who follows what."""

from __future__ import annotations

import logging

import pytest

from openhuman_desktop import events


def test_follows_tells_whether_anything_subscribes() -> None:
    bus = events.EventBus()
    assert not bus.follows(events.StatusChanged)
    unsubscribe = bus.subscribe(events.StatusChanged, lambda event: None)
    assert bus.follows(events.StatusChanged)
    assert not bus.follows(events.TickFinished), "by exact event class"
    unsubscribe()
    assert not bus.follows(events.StatusChanged)


def test_a_failing_handler_is_logged_and_the_others_still_run(caplog: pytest.LogCaptureFixture) -> None:
    bus = events.EventBus()
    seen: list[events.Event] = []

    def broken(event: events.StatusChanged) -> None:
        raise RuntimeError("boom")

    bus.subscribe(events.StatusChanged, broken)
    bus.subscribe(events.StatusChanged, seen.append)
    with caplog.at_level(logging.ERROR):
        bus.publish(events.StatusChanged())
    assert seen == [events.StatusChanged()]
    assert "failed for StatusChanged" in caplog.text
