"""The jeepney client against a real dbus-daemon and a fake ``org.freedesktop.Notifications`` server."""

from __future__ import annotations

import asyncio

import pytest

from openhuman_desktop.notifications import (
    ActionInvoked,
    DesktopNotifications,
    NotificationClosed,
    NotificationsUnavailable,
)
from tests.notifications.fake_server import FakeNotificationServer, PrivateBus


async def connect(server: FakeNotificationServer) -> tuple[DesktopNotifications, asyncio.Queue[object]]:
    received: asyncio.Queue[object] = asyncio.Queue()
    client = await DesktopNotifications.connect(server.address, on_signal=received.put_nowait)
    return client, received


async def test_notify_sends_the_spec_types_and_returns_the_servers_id(
        notification_server: FakeNotificationServer) -> None:
    client, _ = await connect(notification_server)
    try:
        assert "actions" in await client.capabilities()
        assert (await client.server_information())[0] == "fake-notifications"
        first = await client.notify("Approval needed", "Forward 3 urgent emails",
                                    actions=[("default", "Open"), ("approve", "Go ahead"), ("dismiss", "Skip")],
                                    urgency="critical", hints={"desktop-entry": ("s", "io.openhuman.Desktop")})
        second = await client.notify("Digest ready")
    finally:
        await client.aclose()
    assert (first, second) == (1, 2)
    [call, plain] = notification_server.snapshot()
    assert (call.app_name, call.summary, call.body, call.replaces_id, call.expire_ms) == (
        "OpenHuman", "Approval needed", "Forward 3 urgent emails", 0, -1)
    assert call.action_labels == {"default": "Open", "approve": "Go ahead", "dismiss": "Skip"}
    assert call.hints["urgency"] == ("y", 2)
    assert call.hints["desktop-entry"] == ("s", "io.openhuman.Desktop")
    assert plain.actions == [] and plain.hints == {"urgency": ("y", 1)}


async def test_action_and_closed_signals_reach_the_handler_for_our_notifications_only(
        notification_server: FakeNotificationServer) -> None:
    client, received = await connect(notification_server)
    other, _ = await connect(notification_server)   # another application on the same bus
    try:
        theirs = await other.notify("Someone else's")
        ours = await client.notify("Approval needed", actions=[("approve", "Go ahead")])
        notification_server.invoke(theirs, "default")
        notification_server.invoke(ours, "approve")
        assert await asyncio.wait_for(received.get(), 5) == ActionInvoked(ours, "approve")
        assert await asyncio.wait_for(received.get(), 5) == NotificationClosed(ours, 2)
        again = await client.notify("Approval needed")
        await client.close(again)
        assert await asyncio.wait_for(received.get(), 5) == NotificationClosed(again, 3)
        assert notification_server.closed == [again]
        assert received.empty()
    finally:
        await client.aclose()
        await other.aclose()


async def test_a_refused_call_is_one_sentence(notification_server: FakeNotificationServer) -> None:
    notification_server.refuse_notify = True
    client, _ = await connect(notification_server)
    try:
        with pytest.raises(NotificationsUnavailable, match=r"refused Notify \(org.freedesktop.DBus.Error.Failed"):
            await client.notify("Approval needed")
    finally:
        await client.aclose()


async def test_no_server_on_the_bus_is_unavailable(private_bus: PrivateBus) -> None:
    client = await DesktopNotifications.connect(private_bus.address)
    try:
        with pytest.raises(NotificationsUnavailable, match="refused GetCapabilities"):
            await client.capabilities()
    finally:
        await client.aclose()


async def test_no_bus_at_all_is_unavailable(tmp_path: object) -> None:
    with pytest.raises(NotificationsUnavailable, match="no session bus"):
        await DesktopNotifications.connect(f"unix:path={tmp_path}/nobody-listens")


async def test_a_server_that_went_away_is_unavailable_and_the_client_says_so(
        private_bus: PrivateBus) -> None:
    server = FakeNotificationServer(private_bus.address).start()
    client, _ = await connect(server)
    try:
        await client.notify("first")
        private_bus.stop()
        with pytest.raises(NotificationsUnavailable):
            await client.notify("second")
        assert not client.is_connected
    finally:
        server.stop()
        await client.aclose()
