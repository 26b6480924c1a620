"""When to notify: once per card, a burst as one, quiet hours with a summary after, the on/off switch."""

from __future__ import annotations

from dataclasses import replace

from openhuman_desktop.config import NotificationSettings, parse_quiet_hours
from openhuman_desktop.notifications import Card, NotificationPolicy


class World:
    """Settings and a clock the test moves (minute of the local day)."""

    def __init__(self) -> None:
        self.settings = NotificationSettings()
        self.minute = 12 * 60
        self.policy = NotificationPolicy(lambda: self.settings, lambda: float(self.minute),
                                         minute_of_day=lambda now: int(now) % 1440)


def card(card_id: str, title: str = "Forward 3 urgent emails", priority: str = "normal") -> Card:
    return Card(card_id, title, "to #team-alerts", priority)


def test_a_card_is_announced_once() -> None:
    world = World()
    assert world.policy.card_raised(card("a"))
    assert not world.policy.card_raised(card("a"))      # the same card again (next tick, a refresh)
    shown = world.policy.end_burst()
    assert shown is not None and (shown.title, shown.body, shown.target) == (
        "Approval needed", "Forward 3 urgent emails: to #team-alerts", "a")
    assert not world.policy.card_raised(card("a"))
    assert world.policy.end_burst() is None


def test_a_burst_of_cards_is_one_notification_critical_first() -> None:
    world = World()
    for card_id, title, priority in (("a", "Archive old notes", "normal"), ("b", "Rotate the API key", "critical"),
                                     ("c", "Reply to Ann", "normal")):
        world.policy.card_raised(card(card_id, title, priority))
    shown = world.policy.end_burst()
    assert shown is not None
    assert shown.title == "3 approvals needed (1 critical)"
    assert shown.body.splitlines() == ["• Rotate the API key", "• Archive old notes", "• Reply to Ann"]
    assert shown.card is None and shown.target is None   # several cards: Open only


def test_a_card_answered_before_the_burst_ends_is_not_announced() -> None:
    world = World()
    world.policy.card_raised(card("a"))
    world.policy.card_raised(card("b", "Reply to Ann"))
    world.policy.card_resolved("a")
    shown = world.policy.end_burst()
    assert shown is not None and shown.target == "b"


def test_notifications_off_means_none() -> None:
    world = World()
    world.settings = NotificationSettings(enabled=False)
    world.policy.card_raised(card("a"))
    assert world.policy.end_burst() is None
    assert world.policy.message("Digest ready", "It is in your workspace.") is None
    world.settings = NotificationSettings(enabled=True)   # switched on again: the old card is not announced late
    assert world.policy.end_burst() is None and world.policy.quiet_hours_over() is None


def test_quiet_hours_hold_cards_and_one_summary_follows_when_they_end() -> None:
    world = World()
    world.settings = replace(world.settings, quiet_hours=parse_quiet_hours("22:00-07:00"))
    world.minute = 23 * 60
    world.policy.card_raised(card("a", "Archive old notes"))
    assert world.policy.end_burst() is None
    world.minute = 2 * 60
    world.policy.card_raised(card("b", "Reply to Ann"))
    world.policy.card_raised(card("c", "Pay the invoice"))
    assert world.policy.end_burst() is None
    assert world.policy.message("Digest ready", "…") is None
    world.policy.card_resolved("c")                      # answered in the window at night
    assert world.policy.quiet_hours_over() is None       # still quiet
    world.minute = 7 * 60
    summary = world.policy.quiet_hours_over()
    assert summary is not None and summary.is_summary
    assert summary.title == "2 approvals waiting"
    assert summary.body.splitlines() == ["While quiet hours were on:", "• Archive old notes", "• Reply to Ann"]
    assert world.policy.quiet_hours_over() is None       # once


def test_one_card_waiting_after_quiet_hours_keeps_its_buttons() -> None:
    world = World()
    world.settings = replace(world.settings, quiet_hours=parse_quiet_hours("22:00-07:00"))
    world.minute = 23 * 60
    world.policy.card_raised(card("a", priority="critical"))
    assert world.policy.end_burst() is None
    world.minute = 8 * 60
    summary = world.policy.quiet_hours_over()
    assert summary is not None and summary.target == "a"
    assert summary.title == "Approval waiting (critical)"
    assert summary.body == "While quiet hours were on: Forward 3 urgent emails: to #team-alerts"


def test_nothing_waited_means_no_summary() -> None:
    world = World()
    world.settings = replace(world.settings, quiet_hours=parse_quiet_hours("22:00-07:00"))
    world.minute = 23 * 60
    world.policy.card_raised(card("a"))
    world.policy.end_burst()
    world.policy.card_resolved("a")
    world.minute = 8 * 60
    assert world.policy.quiet_hours_over() is None
