"""The notifier: new cards as desktop notifications over a real (private) D-Bus with Go ahead / Skip / Open, once
per card, a burst as one, quiet hours, the on/off switch, and the tray as fallback."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import pytest
from PySide6.QtCore import QObject, Signal

from openhuman_desktop import events
from openhuman_desktop.config import NotificationSettings, parse_quiet_hours
from openhuman_desktop.errors import Conflict
from openhuman_desktop.qt.bridge import CoreBridge
from openhuman_desktop.qt.notifier import Notifier, session_bus
from openhuman_desktop.store import Escalation
from openhuman_desktop.store.events import EscalationChanged
from openhuman_desktop.subconscious.approvals import card_choices
from tests.fakes.engine_harness import Reply, wrote
from tests.notifications.fake_server import FakeNotificationServer, PrivateBus

NOW = datetime(2024, 5, 14, 15, 0).timestamp()


def card(card_id: str = "esc-1", *, title: str = "Forward 3 urgent emails", status: str = "pending",
         priority: str = "normal", description: str = "Forward them to #team-alerts") -> Escalation:
    choices, skill = card_choices(title, description, [])  # as the core raises it (issue 25)
    return Escalation(id=card_id, task_id="task-1", log_id=None, title=title, description=description,
                      priority=priority, status=status, created_at=NOW, resolved_at=None, choices=choices,
                      skill=skill)


class FakeTray(QObject):
    """The fallback: what ``TrayShell.notify`` was asked to show."""

    message_shown = Signal(str, str)

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[tuple[str, str, str | None]] = []

    def notify(self, title: str, text: str, target: str | None = None) -> None:
        self.messages.append((title, text, target))
        self.message_shown.emit(title, text)


@dataclass
class FakeApprovals:
    """``escalations_approve`` / ``escalations_dismiss`` as the service answers them."""

    decided: set[str] = field(default_factory=set)
    calls: list[tuple[str, str]] = field(default_factory=list)

    async def escalations_approve(self, escalation_id: object) -> str:
        return self._resolve(str(escalation_id), "approve")

    async def escalations_dismiss(self, escalation_id: object) -> str:
        return self._resolve(str(escalation_id), "dismiss")

    def _resolve(self, escalation_id: str, verb: str) -> str:
        self.calls.append((verb, escalation_id))
        if escalation_id in self.decided:
            raise Conflict("This escalation is already approved; nothing was done.")
        self.decided.add(escalation_id)
        return escalation_id


class Harness:
    def __init__(self, notifier: Notifier, bus: events.EventBus, tray: FakeTray, approvals: FakeApprovals,
                 server: FakeNotificationServer | None) -> None:
        self.notifier = notifier
        self.bus = bus
        self.tray = tray
        self.approvals = approvals
        self._server = server
        self.opened: list[str | None] = []
        self.settings = NotificationSettings()
        self.minute = 12 * 60
        self.shown: list[tuple[str, str]] = []
        tray.message_shown.connect(lambda title, text: self.shown.append((title, text)))

    @property
    def server(self) -> FakeNotificationServer:
        assert self._server is not None
        return self._server




def make(qrun: Any, bus_address: str | None, server: FakeNotificationServer | None) -> Iterator[Harness]:
    bus = events.EventBus()
    bridge = CoreBridge(bus)
    tray = FakeTray()
    approvals = FakeApprovals()
    holder: list[Harness] = []
    notifier = Notifier(tray, lambda: holder[0].settings, approvals, lambda target: holder[0].opened.append(target),
                        connect=session_bus(bus_address) if bus_address else None,
                        now=lambda: NOW + holder[0].minute * 60, minute_of_day=lambda now: holder[0].minute,
                        burst_ms=20)
    notifier.attach(bridge)
    harness = Harness(notifier, bus, tray, approvals, server)
    holder.append(harness)
    yield harness
    qrun(notifier.aclose())
    bridge.detach()


@pytest.fixture
def dbus(qrun: Any, notification_server: FakeNotificationServer) -> Iterator[Harness]:
    yield from make(qrun, notification_server.address, notification_server)


@pytest.fixture
def no_server(qrun: Any, private_bus: PrivateBus) -> Iterator[Harness]:
    yield from make(qrun, private_bus.address, None)


def publish(h: Harness, qrun: Any, *events_: events.Event) -> None:
    """Publish while the loop runs (as the engine does)."""

    async def go() -> None:
        for event in events_:
            h.bus.publish(event)

    qrun(go())


def delivered(h: Harness, until: Any, settle: Any, count: int = 1) -> list[Any]:
    until(lambda: len(h.server.snapshot()) >= count, message="no notification reached the server")
    settle(h.notifier)
    return h.server.snapshot()


# --- one card --------------------------------------------------------------------------------------


def test_a_new_card_is_one_notification_with_go_ahead_skip_and_open(dbus: Harness, qrun: Any, until: Any,
                                                                    settle: Any) -> None:
    publish(dbus, qrun, EscalationChanged(card(priority="critical")),
            EscalationChanged(card(priority="critical")))   # the same card again: not a second one
    [call] = delivered(dbus, until, settle)
    assert (call.app_name, call.summary, call.body) == (
        "OpenHuman", "Approval needed (critical)", "Forward 3 urgent emails: Forward them to #team-alerts")
    assert call.action_labels == {"default": "Open", "approve": "Go ahead", "dismiss": "Skip", "open": "Open"}
    assert call.hints["urgency"] == ("y", 2)
    assert call.hints["desktop-entry"] == ("s", "io.openhuman.Desktop")
    width, height, rowstride, has_alpha, bits, channels, data = call.hints["image-data"][1]
    assert (width, height, has_alpha, bits, channels, len(data)) == (64, 64, True, 8, 4, rowstride * 64)
    assert dbus.tray.messages == [], "shown over D-Bus, not in the tray as well"
    assert dbus.shown == [("Approval needed (critical)", "Forward 3 urgent emails: Forward them to #team-alerts")]
    publish(dbus, qrun, EscalationChanged(card(priority="critical")))   # next tick: still the same card
    settle(dbus.notifier)
    assert len(dbus.server.snapshot()) == 1


def test_go_ahead_in_the_notification_approves_the_card(dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:
    publish(dbus, qrun, EscalationChanged(card()))
    [call] = delivered(dbus, until, settle)
    dbus.server.invoke(call.id, "approve")
    until(lambda: dbus.approvals.calls == [("approve", "esc-1")])
    settle(dbus.notifier)
    assert dbus.tray.messages == []


def test_skip_in_the_notification_dismisses_the_card(dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:
    publish(dbus, qrun, EscalationChanged(card()))
    [call] = delivered(dbus, until, settle)
    dbus.server.invoke(call.id, "dismiss")
    until(lambda: dbus.approvals.calls == [("dismiss", "esc-1")])


def test_a_card_already_answered_elsewhere_is_not_done_twice_and_the_user_is_told(
        dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:
    publish(dbus, qrun, EscalationChanged(card()))
    [call] = delivered(dbus, until, settle)
    dbus.approvals.decided.add("esc-1")   # answered in Telegram a moment ago; its event is still on the way
    dbus.server.invoke(call.id, "approve")
    until(lambda: bool(dbus.tray.messages))
    assert dbus.tray.messages == [("Already answered",
                                   "“Forward 3 urgent emails” was already answered elsewhere, so nothing was done "
                                   "again.", None)]
    assert dbus.approvals.calls == [("approve", "esc-1")], "the service refused it: nothing ran"


def test_a_card_answered_in_the_window_takes_its_notification_off_the_screen(
        dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:
    publish(dbus, qrun, EscalationChanged(card()))
    [call] = delivered(dbus, until, settle)
    publish(dbus, qrun, EscalationChanged(card(status="approved")))
    until(lambda: dbus.server.closed == [call.id])


@pytest.mark.parametrize("key", ["default", "open"])
def test_a_click_or_open_brings_the_window_to_the_card(dbus: Harness, qrun: Any, until: Any, settle: Any,
                                                       key: str) -> None:
    publish(dbus, qrun, EscalationChanged(card()))
    [call] = delivered(dbus, until, settle)
    dbus.server.invoke(call.id, key)
    until(lambda: dbus.opened == ["esc-1"])
    assert dbus.approvals.calls == []


def test_a_card_to_fix_in_skills_offers_no_go_ahead(dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:
    publish(dbus, qrun, EscalationChanged(card(title="Reconnect the Gmail skill",
                                                      description="Its OAuth token expired")))
    [call] = delivered(dbus, until, settle)
    # The card's own choices (issue 25): Fix in Skills and Skip, as on the desktop card and the web page.
    assert call.action_keys == ["default", "fix", "dismiss", "open"]
    dbus.server.invoke(call.id, "fix")
    until(lambda: dbus.opened == ["esc-1"])   # the window's card, whose Fix in Skills opens the skill
    assert dbus.approvals.calls == [], "Fix in Skills approves nothing"


# --- bursts, messages, capabilities ----------------------------------------------------------------


def test_a_burst_of_cards_in_one_tick_is_one_notification_with_open_only(
        dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:
    publish(dbus, qrun, events.TickStarted(3, 3),
            EscalationChanged(card("a", title="Archive old notes")),
            EscalationChanged(card("b", title="Rotate the API key", priority="critical")),
            EscalationChanged(card("c", title="Reply to Ann")))
    settle(dbus.notifier)
    assert dbus.server.snapshot() == [], "the tick is still running: more cards may come"
    publish(dbus, qrun, events.TickFinished(3, "ok"))
    [call] = delivered(dbus, until, settle)
    assert call.summary == "3 approvals needed (1 critical)"
    assert call.body == "• Rotate the API key\n• Archive old notes\n• Reply to Ann"
    assert call.action_keys == ["default", "open"]
    dbus.server.invoke(call.id, "open")
    until(lambda: dbus.opened == [None])


def test_what_the_assistant_says_is_a_notification_too(dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:
    publish(dbus, qrun, events.Notified("Digest ready", "  Your weekly digest\nis in the workspace. "))
    [call] = delivered(dbus, until, settle)
    assert (call.summary, call.body) == ("Digest ready", "Your weekly digest is in the workspace.")
    assert call.action_keys == ["default", "open"]


def test_a_server_without_actions_gets_no_buttons_and_markup_is_escaped(
        dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:
    dbus.server.capabilities = ["body", "body-markup"]
    publish(dbus, qrun, EscalationChanged(card(title="Compare <b> & <i>", description="")))
    [call] = delivered(dbus, until, settle)
    assert call.actions == []
    assert call.body == "Compare &lt;b&gt; &amp; &lt;i&gt;"


def test_without_a_notification_server_the_tray_shows_it(no_server: Harness, qrun: Any, until: Any,
                                                         settle: Any) -> None:
    publish(no_server, qrun, EscalationChanged(card()))
    until(lambda: bool(no_server.tray.messages))
    assert no_server.tray.messages == [("Approval needed", "Forward 3 urgent emails: Forward them to #team-alerts",
                                        "esc-1")]


def test_a_refused_notification_falls_back_to_the_tray(dbus: Harness, qrun: Any, until: Any) -> None:
    dbus.server.refuse_notify = True
    publish(dbus, qrun, EscalationChanged(card()))
    until(lambda: bool(dbus.tray.messages))
    assert dbus.tray.messages[0][2] == "esc-1"


# --- the switch and quiet hours --------------------------------------------------------------------


def test_notifications_off_means_none(dbus: Harness, qrun: Any, settle: Any) -> None:
    dbus.settings = NotificationSettings(enabled=False)
    publish(dbus, qrun, EscalationChanged(card()), events.Notified("Digest ready", "…"))
    qrun(dbus.notifier.wait_idle())
    dbus.notifier.end_burst()
    settle(dbus.notifier)
    assert dbus.server.snapshot() == [] and dbus.tray.messages == []


def test_quiet_hours_hold_cards_then_one_summary(dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:
    dbus.settings = replace(dbus.settings, quiet_hours=parse_quiet_hours("22:00-07:00"))
    dbus.minute = 23 * 60
    publish(dbus, qrun, EscalationChanged(card("a", title="Archive old notes")))
    dbus.notifier.end_burst()
    publish(dbus, qrun, events.TickFinished(1, "ok"), EscalationChanged(card("b", title="Reply to Ann")))
    dbus.notifier.end_burst()
    settle(dbus.notifier)
    assert dbus.server.snapshot() == [] and dbus.tray.messages == []
    dbus.minute = 7 * 60 + 1
    publish(dbus, qrun, events.TickFinished(2, "ok"))   # the first tick after quiet hours, or the minute timer
    [call] = delivered(dbus, until, settle)
    assert call.summary == "2 approvals waiting"
    assert call.body == "While quiet hours were on:\n• Archive old notes\n• Reply to Ann"


# --- the real engine ---------------------------------------------------------------------------------


ANSWER = "Three urgent emails arrived from the bank.\nRECOMMENDED ACTION: Forward the 3 urgent emails to alerts/team.md"
INVOICE = "Two invoices are due on Friday.\nRECOMMENDED ACTION: Pay the two invoices from the shared account"


@pytest.fixture
def engine(qrun: Any, gui_harness: Any, bridge: CoreBridge,
           notification_server: FakeNotificationServer) -> Iterator[tuple[Any, Notifier, FakeTray]]:
    tray = FakeTray()
    services = gui_harness.services
    notifier = Notifier(tray, lambda: services.settings.current.notifications, services.approvals,
                        lambda target: None, connect=session_bus(notification_server.address), burst_ms=20)
    notifier.attach(bridge)
    yield gui_harness, notifier, tray
    qrun(notifier.aclose())


def test_on_the_real_engine_a_tick_with_two_cards_is_one_notification(
        engine: tuple[Any, Notifier, FakeTray], notification_server: FakeNotificationServer, qrun: Any,
        until: Any, settle: Any) -> None:
    harness, notifier, tray = engine
    qrun(harness.add_task("Check urgent emails", intent="read"))
    qrun(harness.add_task("Check the invoices", intent="read"))
    harness.local.decide_by_title({"urgent": {"decision": "escalate", "priority": "critical"},
                                   "invoices": "escalate"})
    harness.reasoning.execution_replies.extend([Reply(content=ANSWER), Reply(content=INVOICE)])
    qrun(harness.tick())
    until(lambda: bool(notification_server.snapshot()), message="no notification")
    settle(notifier)
    [call] = notification_server.snapshot()
    assert call.summary == "2 approvals needed (1 critical)"
    assert len(qrun(harness.escalations("pending"))) == 2
    assert tray.messages == []


def test_on_the_real_engine_go_ahead_in_the_notification_approves_the_card(
        engine: tuple[Any, Notifier, FakeTray], notification_server: FakeNotificationServer, qrun: Any,
        until: Any, settle: Any) -> None:
    harness, notifier, tray = engine
    qrun(harness.add_task("Check urgent emails", intent="read"))
    harness.local.decide_by_title({"urgent": "escalate"})
    harness.reasoning.execution_replies.append(Reply(content=ANSWER))
    qrun(harness.tick())
    until(lambda: bool(notification_server.snapshot()), message="no notification")
    [call] = notification_server.snapshot()
    assert call.action_keys == ["default", "approve", "dismiss", "open"]
    harness.reasoning.execution_replies.extend(wrote("alerts/team.md", "3 emails", "Forwarded the 3 emails."))
    notification_server.invoke(call.id, "approve")

    async def approved() -> bool:
        return bool(await harness.escalations("approved"))

    qrun(harness.wait_until(approved))
    settle(notifier)
    assert tray.messages == []
