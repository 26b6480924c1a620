"""Fixtures: a private dbus-daemon and the fake notification server on it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.notifications.fake_server import FakeNotificationServer, PrivateBus


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
