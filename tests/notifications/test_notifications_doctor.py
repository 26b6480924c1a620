"""doctor's notifications line: the server and its buttons, or the tray fallback; never a failure."""

from __future__ import annotations

from openhuman_desktop import config
from openhuman_desktop.doctor import check_notifications
from tests.notifications.fake_server import FakeNotificationServer, PrivateBus


async def test_the_server_and_its_buttons_are_named(notification_server: FakeNotificationServer) -> None:
    settings = config.NotificationSettings(quiet_hours=(22 * 60, 7 * 60))
    check = await check_notifications(settings, notification_server.address)
    assert check.ok
    assert "with Go ahead / Skip / Open buttons; quiet hours 22:00-07:00" in check.detail
    notification_server.capabilities = ["body"]
    check = await check_notifications(config.NotificationSettings(), notification_server.address)
    assert check.detail.endswith("on the session bus, without buttons")


async def test_no_server_means_the_trays_messages(private_bus: PrivateBus) -> None:
    check = await check_notifications(config.NotificationSettings(), private_bus.address)
    assert check.ok and "no desktop notification server" in check.detail and "tray's messages" in check.detail
    assert check.line().startswith("ok   notifications: ")


async def test_switched_off() -> None:
    check = await check_notifications(config.NotificationSettings(enabled=False), "unix:path=/nonexistent")
    assert check.ok and check.detail == "off ([notifications] enabled = false)"
