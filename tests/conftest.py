"""Shared test set-up: Qt offscreen before any Qt import, temporary workspaces, fake clock, store."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")
# Tests never reach the desktop's notification server: D-Bus tests start a private bus of their own.
os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)

from collections.abc import AsyncIterator, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from openhuman_desktop.paths import Paths  # noqa: E402
from openhuman_desktop.store import SubconsciousStore, open_subconscious_store  # noqa: E402
from tests.fakes.clock import FakeClock  # noqa: E402
from tests.notifications.fake_server import FakeNotificationServer, PrivateBus  # noqa: E402

# An unexpected WARNING/ERROR log line fails its test; the ``notices`` fixture (tests/logfail.py).
pytest_plugins = ["tests.logfail"]


@pytest.fixture
def paths(tmp_path: Path) -> Paths:
    """A fresh workspace folder (not yet prepared)."""
    return Paths(tmp_path / "workspace")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SubconsciousStore]:
    """subconscious.db in a temporary folder."""
    opened = await open_subconscious_store(tmp_path / "subconscious.db")
    yield opened
    await opened.aclose()


# A private dbus-daemon and the fake notification server on it (tests/notifications/fake_server.py).

@pytest.fixture
def private_bus(tmp_path: Path) -> Iterator[PrivateBus]:
    bus = PrivateBus(tmp_path).start()
    try:
        yield bus
    finally:
        bus.stop()


@pytest.fixture
def notification_server(private_bus: PrivateBus) -> Iterator[FakeNotificationServer]:
    server = FakeNotificationServer(private_bus.address).start()
    try:
        yield server
    finally:
        server.stop()
