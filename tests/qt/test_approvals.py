"""Approval Needed: amber cards, Go ahead / Skip / Fix in Skills, in-flight state, errors, the real engine."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QApplication

from openhuman_desktop.errors import Conflict, StoreUnavailable
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.subconscious.approvals import ApprovalCard, ApprovalsView, is_skill_related
from openhuman_desktop.store.records import RETRY_CHOICES
from openhuman_desktop.subconscious.approvals import SKILL_KEYWORDS
from tests.fakes.engine_harness import Reply, wrote

ANSWER = "Three urgent emails arrived from the bank.\nRECOMMENDED ACTION: Forward the 3 urgent emails to alerts/team.md"


class Actions:
    """Approve / dismiss callables that record calls, can fail, and can be held in flight."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.error: Exception | None = None
        self.gate: asyncio.Event | None = None

    async def _act(self, what: str, escalation_id: str) -> str:
        self.calls.append((what, escalation_id))
        if self.gate is not None:
            await self.gate.wait()
        if self.error is not None:
            raise self.error
        return escalation_id

    async def approve(self, escalation_id: str) -> str:
        return await self._act("approve", escalation_id)

    async def dismiss(self, escalation_id: str) -> str:
        return await self._act("dismiss", escalation_id)


@pytest.fixture
def jobs(qrun: Any) -> Any:
    owner = Jobs()
    yield owner
    qrun(owner.aclose())


@pytest.fixture
def actions() -> Actions:
    return Actions()


def make_card(qtbot: Any, jobs: Jobs, actions: Actions, escalation: Any, **kwargs: Any) -> ApprovalCard:
    card = ApprovalCard(escalation, approve=actions.approve, dismiss=actions.dismiss, jobs=jobs, **kwargs)
    qtbot.addWidget(card)
    return card


# --- one card -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("priority, accent", [("critical", "coral"), ("important", "amber"), ("normal", "grey")])
def test_a_card_shows_title_description_priority_and_the_note(
    qtbot: Any, jobs: Jobs, actions: Actions, fakes: Any, priority: str, accent: str
) -> None:
    card = make_card(qtbot, jobs, actions, fakes.make_escalation(priority=priority))
    assert card.title_label.text() == "Check urgent emails"
    assert card.description_label.text() == "Forward 3 urgent emails to #team-alerts"
    assert card.priority_badge.text() == priority
    assert card.priority_badge.accent_name == accent
    assert card.note_label.text() == "Requires your approval to proceed"
    assert card.approve_button.text() == "Go ahead"
    assert card.skip_button.text() == "Skip"
    assert not card.approve_button.isHidden() and card.fix_button.isHidden()
    assert "approvalCard" in card.styleSheet()


def test_go_ahead_disables_the_buttons_in_flight_and_decides_on_success(
    qtbot: Any, jobs: Jobs, actions: Actions, fakes: Any, qrun: Any
) -> None:
    card = make_card(qtbot, jobs, actions, fakes.make_escalation(escalation_id="e1"))
    decided: list[tuple[str, str]] = []
    card.decided.connect(lambda *args: decided.append(args))
    actions.gate = asyncio.Event()
    qtbot.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
    qrun(asyncio.sleep(0.05))
    assert actions.calls == [("approve", "e1")]
    assert not card.approve_button.isEnabled() and not card.skip_button.isEnabled()
    assert card.is_busy
    assert decided == [], "the card stays until the action succeeded"
    qtbot.mouseClick(card.skip_button, Qt.MouseButton.LeftButton)   # disabled: nothing happens
    actions.gate.set()
    qrun(jobs.wait_idle())
    assert decided == [("e1", "approved")]
    assert actions.calls == [("approve", "e1")]


def test_skip_decides_dismissed(qtbot: Any, jobs: Jobs, actions: Actions, fakes: Any, qrun: Any) -> None:
    card = make_card(qtbot, jobs, actions, fakes.make_escalation(escalation_id="e2"))
    decided: list[tuple[str, str]] = []
    card.decided.connect(lambda *args: decided.append(args))
    qtbot.mouseClick(card.skip_button, Qt.MouseButton.LeftButton)
    qrun(jobs.wait_idle())
    assert decided == [("e2", "dismissed")]
    assert actions.calls == [("dismiss", "e2")]


def test_an_error_is_shown_on_the_card_which_stays(
    qtbot: Any, jobs: Jobs, actions: Actions, fakes: Any, qrun: Any
) -> None:
    card = make_card(qtbot, jobs, actions, fakes.make_escalation())
    decided: list[object] = []
    card.decided.connect(lambda *args: decided.append(args))
    actions.error = StoreUnavailable("The database is locked by another program.")
    assert qrun(card.approve()) is False
    assert decided == []
    assert card.error_label.text() == "The database is locked by another program."
    assert card.approve_button.isEnabled() and card.skip_button.isEnabled()
    actions.error = None
    assert qrun(card.skip()) is True
    assert card.error_label.isHidden()


@pytest.mark.parametrize("keyword", SKILL_KEYWORDS)
def test_skill_escalations_offer_fix_in_skills_instead_of_go_ahead(
    qtbot: Any, jobs: Jobs, actions: Actions, fakes: Any, keyword: str
) -> None:
    escalation = fakes.make_escalation(title="A connection problem", description=f"The {keyword} needs attention.")
    assert is_skill_related(escalation)
    card = make_card(qtbot, jobs, actions, escalation)
    assert card.approve_button.isHidden()
    assert not card.fix_button.isHidden()
    assert card.fix_button.text() == "Fix in Skills"
    assert not card.skip_button.isHidden()


def test_fix_in_skills_names_the_skill(qtbot: Any, jobs: Jobs, actions: Actions, fakes: Any) -> None:
    escalation = fakes.make_escalation(title="Gmail is disconnected", description="Re-auth to keep reading mail.")
    card = make_card(qtbot, jobs, actions, escalation)  # its skill was named when it was raised (issue 25)
    asked: list[str] = []
    card.fix_in_skills_requested.connect(asked.append)
    qtbot.mouseClick(card.fix_button, Qt.MouseButton.LeftButton)
    assert asked == ["gmail"]
    assert actions.calls == [], "fixing in Skills approves nothing"


def test_skill_detection(fakes: Any) -> None:
    make_escalation = fakes.make_escalation
    assert not is_skill_related(make_escalation("Check urgent emails", "Forward 3 emails"))
    assert is_skill_related(make_escalation("Notion", "Sync failed"))
    assert make_escalation("Workspace files error", "x").skill == "files"
    assert make_escalation("Integration broken", "x").skill is None


def test_a_card_shows_exactly_the_choices_the_core_gave_it(
    qtbot: Any, jobs: Jobs, actions: Actions, fakes: Any, qrun: Any
) -> None:
    # The same words as a skills card, but the core decided Go ahead / Skip: the desktop guesses nothing.
    plain = replace(fakes.make_escalation("Gmail is disconnected", "Re-auth to keep reading mail."),
                    choices=("go_ahead", "skip"))
    card = make_card(qtbot, jobs, actions, plain)
    assert not card.approve_button.isHidden() and card.approve_button.text() == "Go ahead"
    assert card.fix_button.isHidden() and not card.skip_button.isHidden()
    back = replace(fakes.make_escalation(), choices=RETRY_CHOICES,
                   note="Go ahead did not change anything: Everything looks fine. Press Retry to try again, or Skip.")
    card = make_card(qtbot, jobs, actions, back)
    assert card.approve_button.text() == "Retry" and card.fix_button.isHidden()
    assert not card.escalation_note_label.isHidden() and "did not change anything" in card.escalation_note_label.text()
    assert qrun(card.approve()) is True and actions.calls == [("approve", back.id)]


# --- the section in the window ------------------------------------------------------------------------


def test_empty_and_error_states(qtbot: Any, qrun: Any, fakes: Any, jobs: Jobs) -> None:
    service = fakes.FakeSubconscious()
    view = ApprovalsView(service, jobs)
    qtbot.addWidget(view)
    qrun(view.refresh())
    assert view.empty_label.isVisibleTo(view)
    assert view.empty_label.text() == "Nothing needs your approval right now."
    service.fail["escalations_list"] = StoreUnavailable("The database is read-only.")
    qrun(view.refresh())
    assert view.list_error.text() == "Could not load what needs your approval: The database is read-only."


def test_cards_are_ordered_by_priority_then_newest(
    fake_window: IntelligenceWindow, fake_services: Any, fakes: Any, qrun: Any
) -> None:
    for esc in [fakes.make_escalation("old normal", priority="normal", escalation_id="a", created_at=1),
                fakes.make_escalation("critical", priority="critical", escalation_id="b", created_at=2),
                fakes.make_escalation("new normal", priority="normal", escalation_id="c", created_at=3)]:
        fake_services.subconscious.escalations[esc.id] = esc
    qrun(fake_window.approvals_view.refresh())
    assert [c.escalation.id for c in fake_window.approvals_view.cards()] == ["b", "c", "a"]
    assert fake_window.approvals_view.count_badge.text() == "3"


def test_go_ahead_in_the_window_with_the_engine_faked(
    fake_window: IntelligenceWindow, fake_services: Any, fakes: Any, qrun: Any, qtbot: Any, settle: Any
) -> None:
    fake_services.subconscious.escalations["e"] = fakes.make_escalation(escalation_id="e")
    qrun(fake_window.approvals_view.refresh())
    card = fake_window.approvals_view.card("e")
    assert card is not None
    qtbot.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert fake_services.subconscious.escalations["e"].status == "approved"
    assert fake_window.approvals_view.card("e") is None
    assert fake_window.approvals_view.empty_label.isVisibleTo(fake_window.approvals_view)


def test_a_conflict_stays_on_the_card(
    fake_window: IntelligenceWindow, fake_services: Any, fakes: Any, qrun: Any, qtbot: Any, settle: Any
) -> None:
    fake_services.subconscious.escalations["e"] = fakes.make_escalation(escalation_id="e")
    qrun(fake_window.approvals_view.refresh())
    card = fake_window.approvals_view.card("e")
    assert card is not None
    fake_services.subconscious.fail["escalations_dismiss"] = Conflict("This escalation is already approved.")
    qtbot.mouseClick(card.skip_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert fake_window.approvals_view.card("e") is card
    assert card.error_label.text() == "This escalation is already approved."


def test_resolved_elsewhere_while_in_flight_lets_the_card_close(
    fake_window: IntelligenceWindow, fake_services: Any, fake_bridge: Any, fakes: Any, qrun: Any, qtbot: Any,
    settle: Any
) -> None:
    escalation = fakes.make_escalation(escalation_id="e")
    fake_services.subconscious.escalations["e"] = escalation
    qrun(fake_window.approvals_view.refresh())
    card = fake_window.approvals_view.card("e")
    assert card is not None
    gate = asyncio.Event()
    fake_services.subconscious.gates["escalations_approve"] = gate
    fake_services.subconscious.fail["escalations_approve"] = Conflict("This escalation is already dismissed.")
    qtbot.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
    qrun(asyncio.sleep(0.05))
    fake_bridge.escalation_changed.emit(fakes.make_escalation(escalation_id="e", status="dismissed"))
    assert fake_window.approvals_view.card("e") is card, "a busy card is not pulled away"
    gate.set()
    settle(fake_window)
    assert card.error_label.text() == "This escalation is already dismissed."
    assert not card.close_button.isHidden()
    qtbot.mouseClick(card.close_button, Qt.MouseButton.LeftButton)
    assert fake_window.approvals_view.card("e") is None


def test_escalation_events_add_and_remove_cards(
    fake_window: IntelligenceWindow, fake_bridge: Any, fakes: Any, settle: Any
) -> None:
    fake_bridge.escalation_changed.emit(fakes.make_escalation(escalation_id="live"))
    assert fake_window.approvals_view.card("live") is not None
    fake_bridge.escalation_changed.emit(fakes.make_escalation(escalation_id="live", status="approved"))
    assert fake_window.approvals_view.card("live") is None
    settle(fake_window)


def test_fix_in_skills_opens_the_skills_tab_on_that_skill(
    fake_window: IntelligenceWindow, fake_services: Any, fakes: Any, qrun: Any, qtbot: Any, settle: Any
) -> None:
    fake_services.subconscious.escalations["g"] = fakes.make_escalation(
        "Gmail is disconnected", "The OAuth token expired; re-auth to keep checking mail.", escalation_id="g")
    qrun(fake_window.approvals_view.refresh())
    card = fake_window.approvals_view.card("g")
    assert card is not None and card.skill_name == "gmail"
    qtbot.mouseClick(card.fix_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert fake_window.current_tab == "skills"
    assert fake_window.skills_view.current_skill_name() == "gmail"
    assert "OAuth token expired" in fake_window.skills_view.detail.health_label.text()
    assert fake_services.subconscious.escalations["g"].status == "pending"


# --- the real engine on the fake model servers --------------------------------------------------------


def escalate(harness: Any, window: IntelligenceWindow, qtbot: Any, qrun: Any, until: Any) -> Any:
    task = qrun(harness.add_task("Check urgent emails", intent="read"))
    harness.local.decide_by_title({"Check urgent emails": {"decision": "escalate", "priority": "critical"}})
    harness.reasoning.execution_replies.append(Reply(content=ANSWER))
    qtbot.mouseClick(window.status_bar_view.run_now_button, Qt.MouseButton.LeftButton)
    until(lambda: window.approvals_view.cards(), message="no card appeared")
    [card] = window.approvals_view.cards()
    assert card.escalation.task_id == task.id
    assert card.description_label.text() == "Forward the 3 urgent emails to alerts/team.md"
    assert card.priority_badge.text() == "critical"
    return card


def test_go_ahead_on_the_real_engine(
    intelligence_window: IntelligenceWindow, gui_harness: Any, qtbot: Any, qrun: Any, until: Any, settle: Any
) -> None:
    window = intelligence_window
    card = escalate(gui_harness, window, qtbot, qrun, until)
    assert window.status_bar_view.tasks_label.text() == "4 tasks"
    gui_harness.reasoning.execution_replies.extend(wrote("alerts/team.md", "3 emails",
                                                         "Forwarded the 3 emails to alerts/team.md."))
    qtbot.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
    until(lambda: window.approvals_view.card(card.escalation.id) is None)
    [stored] = qrun(gui_harness.escalations())
    assert stored.status == "approved"
    model = window.activity_view.model

    ran = qrun(gui_harness.approval_row(card.escalation.id))   # the row the Go ahead added (issue 25)
    assert ran is not None

    def row_done() -> bool:
        row = model.row_of(ran.id)
        return row is not None and model.entry(row).decision == "act"

    until(row_done, message="the approved row did not become act")
    assert model.row_of(ran.id) == 0, "the new row is at the top"
    assert "Forwarded the 3 emails" in model.entry(model.row_of(ran.id)).result
    settle(window)


def test_skip_on_the_real_engine(
    intelligence_window: IntelligenceWindow, gui_harness: Any, qtbot: Any, qrun: Any, until: Any, settle: Any
) -> None:
    window = intelligence_window
    card = escalate(gui_harness, window, qtbot, qrun, until)
    log_id = card.escalation.log_id
    qtbot.mouseClick(card.skip_button, Qt.MouseButton.LeftButton)
    until(lambda: window.approvals_view.card(card.escalation.id) is None)
    [stored] = qrun(gui_harness.escalations())
    assert stored.status == "dismissed"
    model = window.activity_view.model
    until(lambda: model.row_of(log_id) is not None and model.entry(model.row_of(log_id)).decision == "dismissed")
    assert model.entry(model.row_of(log_id)).result == "Skipped"
    assert len(gui_harness.reasoning_bodies()) == 1, "skipping executes nothing"
    settle(window)


def test_approving_twice_from_two_places_is_refused_on_the_card(
    intelligence_window: IntelligenceWindow, gui_harness: Any, qtbot: Any, qrun: Any, until: Any, settle: Any
) -> None:
    window = intelligence_window
    card = escalate(gui_harness, window, qtbot, qrun, until)
    gui_harness.reasoning.execution_replies.extend(wrote("alerts/team.md", "3 emails"))
    # Approved over RPC a moment before the click lands: the card's own action gets a Conflict.
    card._set_busy(True)
    qrun(gui_harness.approvals.escalations_approve(card.escalation.id))
    card._set_busy(False)
    assert qrun(card.approve()) is False
    assert "already approved" in card.error_label.text()
    assert not card.close_button.isHidden(), "resolved elsewhere: the card can be closed"
    qtbot.mouseClick(card.close_button, Qt.MouseButton.LeftButton)
    assert window.approvals_view.cards() == []
    settle(window)


def test_fix_in_skills_on_the_real_engine(
    intelligence_window: IntelligenceWindow, gui_harness: Any, qtbot: Any, qrun: Any, until: Any, settle: Any
) -> None:
    window = intelligence_window
    qrun(gui_harness.add_task("Check that my integrations work", intent="read"))
    gui_harness.local.decide_by_title({"integrations": "escalate"})
    gui_harness.reasoning.execution_replies.append(Reply(
        content="The Workspace files skill lost access.\nRECOMMENDED ACTION: Reconnect the Workspace files skill"))
    qtbot.mouseClick(window.status_bar_view.run_now_button, Qt.MouseButton.LeftButton)
    until(lambda: window.approvals_view.cards(), message="no card appeared")
    [card] = window.approvals_view.cards()
    assert card.approve_button.isHidden() and not card.fix_button.isHidden()
    assert card.skill_name == "files"
    qtbot.mouseClick(card.fix_button, Qt.MouseButton.LeftButton)
    settle(window)
    assert window.current_tab == "skills"
    assert window.skills_view.current_skill_name() == "files"
    [stored] = qrun(gui_harness.escalations())
    assert stored.status == "pending", "fixing in Skills resolves nothing by itself"
    window.show_tab("subconscious")
    qtbot.mouseClick(card.skip_button, Qt.MouseButton.LeftButton)
    until(lambda: not window.approvals_view.cards())
    settle(window)


# --- keyboard safety (issue 9 item 4) ----------------------------------------------------------------


def _two_cards(fake_window: IntelligenceWindow, fake_services: Any, fakes: Any, qrun: Any) -> tuple[Any, Any]:
    for esc in [fakes.make_escalation("First", priority="critical", escalation_id="c1", created_at=2),
                fakes.make_escalation("Second", priority="critical", escalation_id="c2", created_at=1)]:
        fake_services.subconscious.escalations[esc.id] = esc
    qrun(fake_window.approvals_view.refresh())
    fake_window.activateWindow()
    first, second = fake_window.approvals_view.card("c1"), fake_window.approvals_view.card("c2")
    assert first is not None and second is not None
    return first, second


def _tab_to(qtbot: Any, window: Any, target: Any) -> None:
    """Press Tab (as a user does) until ``target`` has the focus."""
    window.approvals_view.header.setFocus()
    for _ in range(200):
        if QApplication.focusWidget() is target:
            return
        qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {target.accessibleName()!r}")


def test_after_go_ahead_by_keyboard_a_second_space_approves_nothing(
    fake_window: IntelligenceWindow, fake_services: Any, fakes: Any, qrun: Any, qtbot: Any, settle: Any
) -> None:
    first, second = _two_cards(fake_window, fake_services, fakes, qrun)
    _tab_to(qtbot, fake_window, first.approve_button)
    qtbot.keyClick(first.approve_button, Qt.Key.Key_Space)
    settle(fake_window)
    assert fake_services.subconscious.escalations["c1"].status == "approved"
    focused = QApplication.focusWidget()
    assert focused is not None
    assert not isinstance(focused, QAbstractButton), f"focus went to {focused.accessibleName()!r}"
    qtbot.keyClick(focused, Qt.Key.Key_Space)     # the next word of a sentence
    settle(fake_window)
    assert fake_services.subconscious.escalations["c2"].status == "pending"
    assert fake_window.approvals_view.card("c2") is second


def test_go_ahead_ignores_a_key_when_the_focus_was_not_moved_there_by_the_user(
    fake_window: IntelligenceWindow, fake_services: Any, fakes: Any, qrun: Any, qtbot: Any, settle: Any
) -> None:
    first, _second = _two_cards(fake_window, fake_services, fakes, qrun)
    assert not first.approve_button.autoDefault() and not first.approve_button.isDefault()
    first.approve_button.setFocus(Qt.FocusReason.OtherFocusReason)   # e.g. something else was hidden
    qtbot.keyClick(first.approve_button, Qt.Key.Key_Space)
    qtbot.keyClick(first.approve_button, Qt.Key.Key_Return)
    settle(fake_window)
    assert fake_services.subconscious.escalations["c1"].status == "pending"
    assert "Tab" in first.hint_label.text()
    # Qt's own focus move when the focused control is disabled says "Tab" too: still not the user's aim.
    run_now = fake_window.status_bar_view.run_now_button
    run_now.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.mousePress(run_now, Qt.MouseButton.LeftButton)
    first.approve_button.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(first.approve_button, Qt.Key.Key_Space)
    settle(fake_window)
    assert fake_services.subconscious.escalations["c1"].status == "pending"
    qtbot.mouseRelease(run_now, Qt.MouseButton.LeftButton)
    settle(fake_window)


def test_a_card_arriving_while_the_user_types_does_not_take_the_focus(
    fake_window: IntelligenceWindow, fake_bridge: Any, fakes: Any, qtbot: Any, settle: Any
) -> None:
    fake_window.show_tab("subconscious")
    fake_window.activateWindow()
    field = fake_window.tasks_view.add_view.title_edit
    field.setFocus(Qt.FocusReason.MouseFocusReason)
    qtbot.keyClicks(field, "Remind me")
    fake_bridge.escalation_changed.emit(fakes.make_escalation(escalation_id="new", priority="critical"))
    assert fake_window.approvals_view.card("new") is not None
    qtbot.keyClicks(QApplication.focusWidget(), " to call")
    assert QApplication.focusWidget() is field
    assert field.text() == "Remind me to call"
    settle(fake_window)


def test_focus_escalation_shows_the_card_without_arming_go_ahead(
    fake_window: IntelligenceWindow, fake_services: Any, fakes: Any, qrun: Any, qtbot: Any, settle: Any
) -> None:
    first, _second = _two_cards(fake_window, fake_services, fakes, qrun)
    fake_window.focus_escalation("c1")
    focused = QApplication.focusWidget()
    assert focused is not first.approve_button
    qtbot.keyClick(focused, Qt.Key.Key_Space)
    settle(fake_window)
    assert fake_services.subconscious.escalations["c1"].status == "pending"


# --- why a card came back -------------------------------------------------------------------------------


def test_a_card_shows_why_it_came_back_under_the_description(
    qtbot: Any, jobs: Jobs, actions: Actions, fakes: Any
) -> None:
    note = ("The reasoning model was not reachable, so nothing was done yet; approve again when it is back. "
            "Already done before the interruption: files.write notes/plan.md.")
    base = fakes.make_escalation(priority="critical")
    card = make_card(qtbot, jobs, actions, replace(base, note=note))
    assert card.escalation_note_label.text() == note
    assert not card.escalation_note_label.isHidden()
    assert card.escalation_note_label.wordWrap()
    assert card.escalation_note_label.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    layout = card.layout()
    assert layout.indexOf(card.escalation_note_label) == layout.indexOf(card.description_label) + 1
    plain = make_card(qtbot, jobs, actions, fakes.make_escalation())
    assert plain.escalation_note_label.isHidden(), "no note: nothing shown"


# --- a card raised in a conversation (no task; issue 11) -------------------------------------------------


@pytest.mark.parametrize("thread_id, words", [
    ("telegram:42", "Telegram chat 42"), ("desktop", "the desktop chat"), ("cli", "the terminal"),
    ("webapp:s1", "the web app (session s1)"),
])
def test_a_conversation_card_says_which_conversation_it_came_from(
    qtbot: Any, jobs: Jobs, actions: Actions, fakes: Any, thread_id: str, words: str
) -> None:
    escalation = replace(fakes.make_escalation(title="Send the digest"), task_id=None, run_id="run-1",
                         thread_id=thread_id)
    card = make_card(qtbot, jobs, actions, escalation)
    assert card.title_label.text() == "Send the digest"
    assert not card.origin_label.isHidden()
    assert card.origin_label.text() == f"From the conversation in {words}"
    assert words in card.approve_button.toolTip()


def test_a_heartbeat_card_shows_no_conversation(qtbot: Any, jobs: Jobs, actions: Actions, fakes: Any) -> None:
    card = make_card(qtbot, jobs, actions, fakes.make_escalation())
    assert card.origin_label.isHidden()


def test_go_ahead_on_a_conversation_card_decides_like_any_card(
    qtbot: Any, jobs: Jobs, actions: Actions, fakes: Any, qrun: Any
) -> None:
    escalation = replace(fakes.make_escalation(), task_id=None, run_id="run-1", thread_id="cli")
    card = make_card(qtbot, jobs, actions, escalation)
    decided: list[tuple[str, str]] = []
    card.decided.connect(lambda *args: decided.append(args))
    qtbot.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
    qrun(jobs.wait_idle())
    assert decided == [(escalation.id, "approved")]
    assert actions.calls == [("approve", escalation.id)]
