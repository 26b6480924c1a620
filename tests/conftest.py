"""Shared test set-up: Qt offscreen before any Qt import, no secret in a model request or a log, temporary
workspaces, fake clock, store."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")
# Tests never reach the desktop's notification server: D-Bus tests start a private bus of their own.
os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)

from tests.fakes.secret_watch import WATCH, spy_on_private_files, spy_on_secret_reads  # noqa: E402

spy_on_private_files()  # before the app's modules bind write_private_json and secret_from by name
spy_on_secret_reads()

from collections.abc import AsyncIterator, Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from openhuman_desktop.paths import Paths  # noqa: E402
from openhuman_desktop.store import SubconsciousStore, open_subconscious_store  # noqa: E402
from tests.fakes.clock import FakeClock  # noqa: E402
from tests.notifications.fake_server import FakeNotificationServer, PrivateBus  # noqa: E402

# An unexpected WARNING/ERROR log line fails its test; the ``notices`` fixture (tests/logfail.py).
pytest_plugins = ["tests.logfail"]


@pytest.fixture(autouse=True)
def no_secret_reaches_a_model_or_a_log(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fails a test in which the RPC token, the web app's key, a secret-named environment variable's value
    (``*_TOKEN``, ``*_KEY``, ``*_SECRET``, ``*PASSWORD*``) that the test set, or a secret the app read from the
    variable its config names (an API key, the bot token, a mailbox password, a webhook address, an MCP server's
    ``env_from`` / ``headers_from``) reached a fake model server, a log record or the app's log file
    (``tests/fakes/secret_watch.py``)."""
    scratch: Path | None = request.getfixturevalue("tmp_path") if "tmp_path" in request.fixturenames else None
    WATCH.begin()
    yield
    leaks = WATCH.end(scratch)
    if leaks:
        pytest.fail("A secret of the app left it:\n" + "\n".join(leaks[:10]), pytrace=False)


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
