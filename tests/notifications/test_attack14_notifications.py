"""Attack on the desktop notifications' approval path: only the notification server's own signals, for the
notifications it showed us, may answer a card; one click is one answer."""

from __future__ import annotations

import asyncio

import pytest
from jeepney import new_signal
from jeepney.io.asyncio import open_dbus_connection

from openhuman_desktop.notifications import ActionInvoked, DesktopNotifications, NotificationClosed
from tests.notifications.fake_server import EMITTER, FakeNotificationServer, PrivateBus


@pytest.mark.logs_expected(
    r"ActionInvoked signal not from the notification server",
    r"NotificationClosed signal not from the notification server",
)
async def test_an_action_signal_from_another_program_on_the_bus_is_not_a_click(
        notification_server: FakeNotificationServer) -> None:
    """Any program on the session bus can emit a signal that looks like the server's ActionInvoked (ids are small
    counters, easy to guess); only the owner of org.freedesktop.Notifications speaks for the user."""
    received: asyncio.Queue[object] = asyncio.Queue()
    client = await DesktopNotifications.connect(notification_server.address, on_signal=received.put_nowait)
    intruder = await open_dbus_connection(notification_server.address)
    try:
        ours = await client.notify("Approval needed", actions=[("approve", "Go ahead")])
        await intruder.send(new_signal(EMITTER, "ActionInvoked", "us", (ours, "approve")))
        await intruder.send(new_signal(EMITTER, "NotificationClosed", "uu", (ours, 2)))
        notification_server.invoke(ours, "dismiss")   # the user's real click comes after the forged ones
        assert await asyncio.wait_for(received.get(), 5) == ActionInvoked(ours, "dismiss")
        assert await asyncio.wait_for(received.get(), 5) == NotificationClosed(ours, 2)
        assert received.empty()
    finally:
        await intruder.close()
        await client.aclose()


async def test_after_the_notification_server_restarts_its_reused_ids_are_not_ours(
        private_bus: PrivateBus) -> None:
    """A restarted server counts from 1 again: its notification 1 (another program's) is not the card we showed
    as the old server's notification 1."""
    first = FakeNotificationServer(private_bus.address).start()
    received: asyncio.Queue[object] = asyncio.Queue()
    client = await DesktopNotifications.connect(private_bus.address, on_signal=received.put_nowait)
    second: FakeNotificationServer | None = None
    other: DesktopNotifications | None = None
    try:
        ours = await client.notify("Approval needed", actions=[("approve", "Go ahead")])
        first.stop()
        second = FakeNotificationServer(private_bus.address).start()
        other = await DesktopNotifications.connect(private_bus.address)
        theirs = await other.notify("Someone else's", actions=[("approve", "Approve the invoice")])
        assert theirs == ours
        second.invoke(theirs, "approve")
        fresh = await client.notify("Approval needed", actions=[("approve", "Go ahead")])
        second.invoke(fresh, "dismiss")
        assert await asyncio.wait_for(received.get(), 5) == ActionInvoked(fresh, "dismiss")
    finally:
        await client.aclose()
        if other is not None:
            await other.aclose()
        if second is not None:
            second.stop()


async def test_a_server_that_starts_after_we_connected_is_listened_to(private_bus: PrivateBus) -> None:
    """No owner of the name when we connect (a server started on demand, or a moment later): its signals count
    once it answers, and the name's arrival does not make us forget what it showed."""
    received: asyncio.Queue[object] = asyncio.Queue()
    client = await DesktopNotifications.connect(private_bus.address, on_signal=received.put_nowait)
    server = FakeNotificationServer(private_bus.address).start()
    try:
        ours = await client.notify("Approval needed", actions=[("approve", "Go ahead")])
        server.invoke(ours, "approve")
        assert await asyncio.wait_for(received.get(), 5) == ActionInvoked(ours, "approve")
    finally:
        await client.aclose()
        server.stop()
