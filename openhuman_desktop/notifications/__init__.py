"""Desktop notifications: the freedesktop D-Bus client (jeepney) and when to notify (the policy); no Qt."""

from openhuman_desktop.notifications.dbus import (
    ActionInvoked,
    DesktopNotifications,
    NotificationClosed,
    NotificationsUnavailable,
)
from openhuman_desktop.notifications.policy import Announcement, Card, NotificationPolicy

__all__ = [
    "ActionInvoked",
    "Announcement",
    "Card",
    "DesktopNotifications",
    "NotificationClosed",
    "NotificationPolicy",
    "NotificationsUnavailable",
]
