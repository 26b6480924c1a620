"""Attack on the notifier: one click is one answer, even when the notification server repeats itself."""

from __future__ import annotations

from typing import Any

from openhuman_desktop import events
from tests.qt.test_notifier import (  # noqa: F401  (fixtures)
    Harness,
    card,
    dbus,
    delivered,
    notification_server,
    private_bus,
    publish,
)


def test_a_server_that_sends_action_invoked_twice_answers_the_card_once_and_says_nothing_odd(
        dbus: Harness, qrun: Any, until: Any, settle: Any) -> None:   # noqa: F811
    """Some servers emit ActionInvoked twice for one click (a button and the default action, or a repeat): the
    card is approved once, and the user is not told it "was already answered elsewhere" after a single click."""
    publish(dbus, qrun, events.EscalationChanged(card()))
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
