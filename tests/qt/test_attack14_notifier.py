"""Attack on the notifier: one click is one answer, even when the notification server repeats itself."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from openhuman_desktop import events
from openhuman_desktop.qt.notifier import Notifier
from openhuman_desktop.store.events import EscalationChanged
from tests.fakes.model_servers import Reply
from tests.notifications.fake_server import FakeNotificationServer
from tests.qt.test_notifier import (  # noqa: F401  (fixtures)
    ANSWER,
    Harness,
    card,
    dbus,
    delivered,
    engine,
    publish,
)


def test_a_server_that_sends_action_invoked_twice_answers_the_card_once_and_says_nothing_odd(
        dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:   # noqa: F811
    """Some servers emit ActionInvoked twice for one click (a button and the default action, or a repeat): the
    card is approved once, and the user is not told it "was already answered elsewhere" after a single click."""
    publish(dbus, qrun, EscalationChanged(card()))
    [call] = delivered(dbus, until, settle)
    server = dbus.server
    server._run_on_loop(server._emit("ActionInvoked", (call.id, "approve")))
    server._run_on_loop(server._emit("ActionInvoked", (call.id, "approve")))
    server.dismiss(call.id)
    until(lambda: bool(dbus.approvals.calls))
    settle(dbus.notifier)
    publish(dbus, qrun, events.Notified("Digest ready", "sync point: every earlier signal was handled"))
    until(lambda: len(server.snapshot()) == 2)
    settle(dbus.notifier)
    assert dbus.approvals.calls == [("approve", "esc-1")]
    assert dbus.tray.messages == []


def test_go_ahead_from_a_notification_that_did_not_run_says_so(
        dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:   # noqa: F811
    """Go ahead in the notification, but the task was disabled meanwhile (or the reasoning model is down): the
    engine puts the card back with a note. The person clicked in a notification and is not looking at the
    window: they must hear that it did not run, not believe it was done."""
    publish(dbus, qrun, EscalationChanged(card()))
    [call] = delivered(dbus, until, settle)
    dbus.server.invoke(call.id, "approve")
    until(lambda: dbus.approvals.calls == [("approve", "esc-1")])
    settle(dbus.notifier)
    note = ("Not carried out: the task was disabled before the approved action ran; enable it and press Go ahead, "
            "or Skip.")
    publish(dbus, qrun, EscalationChanged(replace(card(), note=note)))
    until(lambda: len(dbus.server.snapshot()) == 2, message="no notification that it did not run")
    settle(dbus.notifier)
    back = dbus.server.snapshot()[1]
    assert back.summary == "Go ahead did not run"
    assert back.body == f"Forward 3 urgent emails: {note}"
    assert "approve" not in back.action_keys, "no second Go ahead from here: the note says what to do first"
    publish(dbus, qrun, EscalationChanged(replace(card(), note=note)))   # the next tick: no repeat
    settle(dbus.notifier)
    assert len(dbus.server.snapshot()) == 2


def test_a_card_back_after_a_go_ahead_in_the_window_is_not_announced(
        dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:   # noqa: F811
    """Only a Go ahead given in a notification gets the follow-up: the window shows its card's note itself."""
    publish(dbus, qrun, EscalationChanged(card()))
    delivered(dbus, until, settle)
    publish(dbus, qrun, EscalationChanged(replace(card(), status="approved")),
            EscalationChanged(replace(card(), note="Not carried out: the task was disabled.")))
    settle(dbus.notifier)
    assert len(dbus.server.snapshot()) == 1


def test_on_the_real_engine_go_ahead_on_a_card_whose_task_was_disabled_says_it_did_not_run(
        engine: tuple[Any, Notifier, Any], notification_server: FakeNotificationServer, qrun: Any,  # noqa: F811
        until: Any, settle: Any) -> None:
    harness, notifier, tray = engine
    task = qrun(harness.add_task("Check urgent emails", intent="read"))
    harness.local.decide_by_title({"urgent": "escalate"})
    harness.reasoning.execution_replies.append(Reply(content=ANSWER))
    qrun(harness.tick())
    until(lambda: bool(notification_server.snapshot()), message="no notification")
    [call] = notification_server.snapshot()
    qrun(harness.service.tasks_update(task.id, enabled=False))   # in the window, while the notification shows
    notification_server.invoke(call.id, "approve")
    until(lambda: len(notification_server.snapshot()) == 2, message="nothing said the Go ahead did not run")
    settle(notifier)
    back = notification_server.snapshot()[1]
    assert back.summary == "Go ahead did not run"
    assert "the task was disabled" in back.body
    [pending] = qrun(harness.escalations("pending"))
    assert pending.id and qrun(harness.escalations("approved")) == []


def test_a_burst_of_100_cards_is_one_notification_and_each_card_is_still_answerable_in_the_window(
        dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:   # noqa: F811
    cards = [card(f"esc-{i}", title=f"Card number {i}", priority="critical" if i == 57 else "normal")
             for i in range(100)]
    publish(dbus, qrun, events.TickStarted(9, 100), *(EscalationChanged(c) for c in cards),
            events.TickFinished(9, "ok"))
    [call] = delivered(dbus, until, settle)
    assert call.summary == "100 approvals needed (1 critical)"
    assert call.body.splitlines() == ["• Card number 57", "• Card number 0", "• Card number 1", "• Card number 2",
                                      "and 96 more"]
    assert call.action_keys == ["default", "open"], "no Go ahead for 100 cards at once"
    dbus.server.invoke(call.id, "approve")   # a key this notification never offered: the window opens, no more
    until(lambda: dbus.opened == [None])
    assert dbus.approvals.calls == []


def test_two_notifications_at_once_open_one_bus_connection(
        qrun: Any, notification_server: FakeNotificationServer) -> None:   # noqa: F811
    """A card and a message delivered together at start: each delivery found no connection and opened its own;
    the first was overwritten, never closed, its listener left running past shutdown."""
    import asyncio

    from openhuman_desktop.config import NotificationSettings
    from openhuman_desktop.notifications import Announcement
    from openhuman_desktop.qt.notifier import session_bus
    from tests.qt.test_notifier import FakeApprovals, FakeTray

    opened: list[Any] = []
    connect = session_bus(notification_server.address)

    async def counting(on_signal: Any) -> Any:
        client = await connect(on_signal)
        opened.append(client)
        return client

    notifier = Notifier(FakeTray(), NotificationSettings, FakeApprovals(), lambda target: None, connect=counting)

    async def both() -> None:
        await asyncio.gather(notifier.deliver(Announcement("Digest ready", "one")),
                             notifier.deliver(Announcement("Backup done", "two")))

    try:
        qrun(both())
        assert len(notification_server.snapshot()) == 2
        assert len(opened) == 1, f"{len(opened)} connections for one notifier"
    finally:
        qrun(notifier.aclose())
        assert all(not client.is_connected for client in opened)
        for client in opened:
            qrun(client.aclose())


def test_the_notification_server_going_away_mid_session_falls_back_to_the_tray_and_comes_back(
        dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:   # noqa: F811
    publish(dbus, qrun, EscalationChanged(card("a", title="Archive old notes")))
    [first] = delivered(dbus, until, settle)
    dbus.server.stop()                                   # the desktop's notification daemon crashed
    publish(dbus, qrun, EscalationChanged(card("b", title="Reply to Ann")))
    until(lambda: bool(dbus.tray.messages), message="the card was lost instead of shown in the tray")
    assert dbus.tray.messages[0][2] == "b"
    assert dbus.approvals.calls == []
