"""Desktop notifications of new approval cards (Go ahead / Skip / Open) and of what the assistant says.

Over D-Bus (``notifications.DesktopNotifications``) where a notification server runs, else the tray's
``QSystemTrayIcon.showMessage``, else the window's banner (both through ``TrayShell.notify``). When to notify is
``notifications.NotificationPolicy``'s decision: once per new card, a burst of cards in one tick as one
notification, nothing when ``[notifications] enabled = false``, nothing during quiet hours (then one summary).
"""

from __future__ import annotations

import asyncio
import html
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from PySide6.QtCore import QObject, QTimer, Signal

from openhuman_desktop.config import NotificationSettings
from openhuman_desktop.errors import Conflict, NotFound
from openhuman_desktop.notifications import (
    ActionInvoked,
    Announcement,
    DesktopNotifications,
    NotificationClosed,
    NotificationPolicy,
    NotificationsUnavailable,
)
from openhuman_desktop.notifications.dbus import SignalHandler
from openhuman_desktop.notifications.policy import local_minute
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.errors import ErrorReporter
from openhuman_desktop.qt.notification_buttons import APPROVE, DEFAULT, FIX, OPEN, SKIP, actions_for, card_of, icon_hint

log = logging.getLogger(__name__)

APP_NAME = "OpenHuman"
APP_ID = "io.openhuman.Desktop"
BURST_MS = 400              # cards that arrive within this of each other (and within one tick) are one notification
MAX_BURST_MS = 20_000       # … but a tick that runs long does not hold its first card back longer than this
QUIET_CHECK_MS = 60_000     # how often the end of quiet hours is looked for
RETRY_SECONDS = 60.0        # after the bus failed, the tray is used for this long before D-Bus is tried again
MAX_WENT_AHEAD = 200        # approvals from notifications remembered until they ran or came back


class Approvals(Protocol):
    """The same calls the approval card's buttons make (``services.subconscious``)."""

    async def escalations_approve(self, escalation_id: object) -> str: ...

    async def escalations_dismiss(self, escalation_id: object) -> str: ...


class TrayLike(Protocol):
    """What the notifier needs of :class:`~openhuman_desktop.qt.tray.TrayShell`."""

    message_shown: Any

    def notify(self, title: str, text: str, target: str | None = None) -> None: ...


Connect = Callable[[SignalHandler], Awaitable[DesktopNotifications]]


def session_bus(bus: str = "SESSION") -> Connect:
    """A connector to the notification server on ``bus`` (the session bus by default)."""

    async def connect(on_signal: SignalHandler) -> DesktopNotifications:
        return await DesktopNotifications.connect(bus, on_signal=on_signal)

    return connect


class Notifier(QObject):
    """Turns the bridge's card and message signals into desktop notifications, and their buttons into answers.

    Args:
        tray: the fallback (``showMessage``, then the window banner) and ``message_shown``'s owner.
        settings: the live ``[notifications]`` settings.
        approvals: Go ahead / Skip go through these, as the card's buttons do.
        open_window: brings the window up on a card (``None``: as it is).
        connect: opens the D-Bus connection (None: never use D-Bus, only the tray).
    """

    delivered = Signal(object, str)   # Announcement, "dbus" | "tray"
    answered = Signal(str, str)       # card id, "approved" | "dismissed" | the sentence the user was shown

    def __init__(
        self,
        tray: TrayLike,
        settings: Callable[[], NotificationSettings],
        approvals: Approvals,
        open_window: Callable[[str | None], None],
        *,
        reporter: ErrorReporter | None = None,
        connect: Connect | None = None,
        now: Callable[[], float] = time.time,
        minute_of_day: Callable[[float], int] = local_minute,
        burst_ms: int = BURST_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._tray = tray
        self._approvals = approvals
        self._open_window = open_window
        self._reporter = reporter
        self._connect = connect
        self._now = now
        self.policy = NotificationPolicy(settings, now, minute_of_day)
        self.jobs = Jobs()
        self._client: DesktopNotifications | None = None
        self._connecting = asyncio.Lock()
        self._capabilities: frozenset[str] = frozenset()
        self._retry_at = 0.0
        self._shown: dict[int, Announcement] = {}    # D-Bus notification id → what it shows
        self._by_card: dict[str, int] = {}           # card id → the one-card notification about it
        self._open_ticks: set[int] = set()
        self._went_ahead: dict[str, None] = {}      # cards approved from a notification, until they ran or came back
        self._burst_started = 0.0
        self._bridge: Any = None
        self._burst = QTimer(self)
        self._burst.setSingleShot(True)
        self._burst.setInterval(burst_ms)
        self._burst.timeout.connect(self._on_burst_timeout)
        self._quiet = QTimer(self)
        self._quiet.setInterval(QUIET_CHECK_MS)
        self._quiet.timeout.connect(self._on_quiet_timeout)
        self._closed = False

    # --- wiring ---------------------------------------------------------------------------------

    def attach(self, bridge: Any) -> None:
        """Listen to the bridge's ``escalation_changed``, ``tick_started``, ``tick_finished`` and ``notified``."""
        self._bridge = bridge
        bridge.escalation_changed.connect(self._on_bridge_escalation_changed)
        bridge.tick_started.connect(self._on_bridge_tick_started)
        bridge.tick_finished.connect(self._on_bridge_tick_finished)
        bridge.notified.connect(self._on_bridge_notified)
        self._quiet.start()

    def detach(self) -> None:
        bridge, self._bridge = self._bridge, None
        if bridge is None:
            return
        bridge.escalation_changed.disconnect(self._on_bridge_escalation_changed)
        bridge.tick_started.disconnect(self._on_bridge_tick_started)
        bridge.tick_finished.disconnect(self._on_bridge_tick_finished)
        bridge.notified.disconnect(self._on_bridge_notified)

    async def wait_idle(self) -> None:
        """Wait until every delivery and answer in flight is done (tests, shutdown)."""
        await self.jobs.wait_idle()

    async def aclose(self) -> None:
        """Stop listening, cancel deliveries and close the bus connection; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self.detach()
        self._burst.stop()
        self._quiet.stop()
        await self.jobs.aclose()
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    # --- what happened --------------------------------------------------------------------------

    def _on_bridge_escalation_changed(self, escalation: Any) -> None:
        if getattr(escalation, "status", None) == "pending":
            if self.policy.card_raised(card_of(escalation)) and not self._burst.isActive():
                self._burst_started = self._now()
                self._burst.start()
            note = str(getattr(escalation, "note", "") or "")
            if escalation.id in self._went_ahead and note:
                # Go ahead from a notification did not run (the task was disabled, the model is down): the
                # person is not looking at the window, where the card shows its note.
                del self._went_ahead[escalation.id]
                announcement = self.policy.card_came_back(card_of(escalation), note)
                if announcement is not None:
                    self.show(announcement)
            return
        self.policy.card_resolved(escalation.id)
        notification_id = self._by_card.pop(escalation.id, None)
        if notification_id is not None and self._client is not None:   # answered elsewhere: take it off the screen
            self.jobs.spawn(self._close(notification_id), name="notification-close")

    def _on_bridge_tick_started(self, generation: int, _due: int) -> None:
        self._open_ticks.add(generation)

    def _on_bridge_tick_finished(self, generation: int, _outcome: str) -> None:
        self._open_ticks.discard(generation)
        if not self._open_ticks:
            self.end_burst()
        self.check_quiet_hours()

    def _on_burst_timeout(self) -> None:
        waited_ms = (self._now() - self._burst_started) * 1000
        if self._open_ticks and waited_ms < MAX_BURST_MS:
            self._burst.start()   # the tick may raise more cards: announce them together when it ends
            return
        self.end_burst()

    def _on_quiet_timeout(self) -> None:
        self.check_quiet_hours()

    def _on_bridge_notified(self, title: str, body: str) -> None:
        announcement = self.policy.message(title or APP_NAME, body)
        if announcement is not None:
            self.show(announcement)

    def end_burst(self) -> None:
        """Announce the cards of the burst now (the tick ended, or no more came)."""
        self._burst.stop()
        announcement = self.policy.end_burst()
        if announcement is not None:
            self.show(announcement)

    def check_quiet_hours(self) -> None:
        """After quiet hours: one summary of the cards that waited."""
        announcement = self.policy.quiet_hours_over()
        if announcement is not None:
            self.show(announcement)

    # --- showing --------------------------------------------------------------------------------

    def show(self, announcement: Announcement) -> None:
        """Deliver ``announcement`` (in the background: D-Bus, else the tray)."""
        self.jobs.spawn(self.deliver(announcement), name="notification-deliver")

    async def deliver(self, announcement: Announcement) -> str:
        """Show it over D-Bus, or through the tray when no notification server answers; returns which."""
        client = await self._client_or_none()
        if client is not None:
            try:
                body = html.escape(announcement.body, quote=False) if "body-markup" in self._capabilities \
                    else announcement.body
                notification_id = await client.notify(
                    announcement.title, body, app_name=APP_NAME,
                    actions=actions_for(announcement, self._capabilities),
                    urgency="critical" if announcement.is_critical else "normal",
                    hints={"desktop-entry": ("s", APP_ID), "image-data": icon_hint()},
                )
            except NotificationsUnavailable as exc:
                self._drop_client(str(exc))
            else:
                self._shown[notification_id] = announcement
                if announcement.target is not None:
                    self._by_card[announcement.target] = notification_id
                self._tray.message_shown.emit(announcement.title, announcement.body)
                self.delivered.emit(announcement, "dbus")
                return "dbus"
        self._tray.notify(announcement.title, announcement.body, target=announcement.target)
        self.delivered.emit(announcement, "tray")
        return "tray"

    async def _client_or_none(self) -> DesktopNotifications | None:
        async with self._connecting:   # deliveries at the same moment share one connection
            return await self._connected_client()

    async def _connected_client(self) -> DesktopNotifications | None:
        if self._client is not None and self._client.is_connected:
            return self._client
        if self._client is not None:
            self._drop_client("the bus connection closed")
        if self._connect is None or self._now() < self._retry_at:
            return None
        try:
            client = await self._connect(self._on_signal)
        except NotificationsUnavailable as exc:
            self._unavailable(exc)
            return None
        try:
            self._capabilities = await client.capabilities()
        except NotificationsUnavailable as exc:
            await client.aclose()
            self._unavailable(exc)
            return None
        self._client = client
        log.info("desktop notifications over D-Bus (capabilities: %s)", ", ".join(sorted(self._capabilities)))
        return client

    def _unavailable(self, exc: NotificationsUnavailable) -> None:
        self._retry_at = self._now() + RETRY_SECONDS
        log.info("desktop notifications over D-Bus not available, using the tray: %s", exc)

    def _drop_client(self, why: str) -> None:
        client, self._client = self._client, None
        self._retry_at = self._now() + RETRY_SECONDS
        self._shown.clear()
        self._by_card.clear()
        log.info("desktop notification server lost (%s); using the tray", why)
        if client is not None:
            self.jobs.spawn(client.aclose(), name="notification-disconnect")

    async def _close(self, notification_id: int) -> None:
        if self._client is None:
            return
        try:
            await self._client.close(notification_id)
        except NotificationsUnavailable as exc:
            log.info("could not close notification %s: %s", notification_id, exc)

    # --- the buttons ----------------------------------------------------------------------------

    def _on_signal(self, signal: ActionInvoked | NotificationClosed) -> None:
        if isinstance(signal, NotificationClosed):
            announcement = self._shown.pop(signal.notification_id, None)
            target = announcement.target if announcement is not None else None
            if target is not None and self._by_card.get(target) == signal.notification_id:
                del self._by_card[target]
            return
        announcement = self._shown.get(signal.notification_id)
        if announcement is None:
            return
        if signal.action_key in (APPROVE, SKIP):
            # One answer per notification: a server that repeats ActionInvoked (or a second button press while
            # the first answer runs) must not answer again, nor tell the user it "was already answered elsewhere".
            del self._shown[signal.notification_id]
        self.jobs.spawn(self.act(announcement, signal.action_key), name="notification-action")

    async def act(self, announcement: Announcement, action_key: str) -> None:
        """What a button (or a click on the notification) does."""
        card = announcement.card
        if action_key in (DEFAULT, OPEN) or card is None:
            self._open(announcement.target)
            return
        if action_key == FIX:  # the window's card, whose Fix in Skills opens the skill
            self._open(card.id)
            return
        if action_key not in (APPROVE, SKIP):
            log.info("unknown notification action %r ignored", action_key)
            return
        if action_key == APPROVE and not card.can_go_ahead:
            self._open(card.id)
            return
        if action_key == APPROVE:   # before the call: its run may put the card back before the call returns
            self._went_ahead[card.id] = None
            while len(self._went_ahead) > MAX_WENT_AHEAD:
                del self._went_ahead[next(iter(self._went_ahead))]
        try:
            if action_key == APPROVE:
                await self._approvals.escalations_approve(card.id)
                outcome = "approved"
            else:
                await self._approvals.escalations_dismiss(card.id)
                outcome = "dismissed"
        except (Conflict, NotFound):
            self._went_ahead.pop(card.id, None)
            # Answered in the window, the web app or Telegram first: nothing is done twice.
            sentence = f"“{card.title}” was already answered elsewhere, so nothing was done again."
            self._tray.notify("Already answered", sentence, target=None)
            self.answered.emit(card.id, sentence)
            return
        except Exception as exc:
            self._went_ahead.pop(card.id, None)
            if self._reporter is not None:
                self._reporter.report(exc, "notification action")
            else:
                log.exception("notification action %s on %s failed", action_key, card.id)
            return
        log.info("card %s %s from its desktop notification", card.id, outcome)
        self.answered.emit(card.id, outcome)

    def _open(self, card_id: str | None) -> None:
        try:
            self._open_window(card_id)
        except Exception as exc:
            if self._reporter is not None:
                self._reporter.report(exc, "open window")
            else:
                raise
