"""Active Tasks: system and user tasks, adding (valid, blank, bad cron), toggling, intent, delete and undo."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QEnterEvent
from PySide6.QtWidgets import QApplication

from openhuman_desktop.errors import InvalidInput, StoreUnavailable
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.tasks import (
    CUSTOM_CRON,
    SCHEDULE_CHOICES,
    AddTaskView,
    TaskCard,
    TasksView,
    cron_problem,
    describe_schedule,
)


def tasks_of(window: IntelligenceWindow) -> TasksView:
    return window.tasks_view


def choose_schedule(view: AddTaskView, value: str) -> None:
    view.schedule_combo.setCurrentIndex(view.schedule_combo.findData(value))


def hover(card: TaskCard) -> None:
    QApplication.sendEvent(card, QEnterEvent(QPointF(5, 5), QPointF(5, 5), QPointF(5, 5)))


def unhover(card: TaskCard) -> None:
    QApplication.sendEvent(card, QEvent(QEvent.Type.Leave))


# --- what is shown ------------------------------------------------------------------------------------


def test_system_tasks_come_first_as_plain_text_with_a_default_badge(fake_window: IntelligenceWindow) -> None:
    cards = tasks_of(fake_window).cards()
    assert [c.task.id for c in cards] == ["sys-0", "sys-1", "user-1", "user-2"]
    for card in cards[:2]:
        assert card.default_badge.isVisibleTo(card)
        assert card.default_badge.text() == "default"
        assert card.dot.accent_name == "green"
        assert not card.toggle.isVisibleTo(card)
        hover(card)
        assert not card.delete_button.isVisibleTo(card), "system tasks cannot be deleted"
    for card in cards[2:]:
        assert not card.default_badge.isVisibleTo(card)
        assert card.toggle.isVisibleTo(card)
        assert card.toggle.isChecked()


def test_each_task_shows_its_schedule_next_run_and_intent(fake_window: IntelligenceWindow) -> None:
    view = tasks_of(fake_window)
    every_tick = view.card("user-1")
    cron = view.card("user-2")
    assert every_tick is not None and cron is not None
    assert every_tick.details_label.text() == "Every tick · due at the next tick"
    assert every_tick.intent_button.text() == "Read only"
    assert cron.details_label.text().startswith("Weekdays at 9:00 · Next ")
    assert cron.intent_button.text() == "May write"
    assert view.count_label.text() == "4 · 2 yours"


def test_the_delete_button_shows_on_hover_and_on_keyboard_focus(fake_window: IntelligenceWindow) -> None:
    card = tasks_of(fake_window).card("user-1")
    assert card is not None
    assert not card.delete_button.isVisibleTo(card)
    hover(card)
    assert card.delete_button.isVisibleTo(card)
    assert card.property("hovered")
    unhover(card)
    assert not card.delete_button.isVisibleTo(card)
    card.toggle.setFocus()
    card._update_delete_visibility()
    fake_window.activateWindow()
    if card.toggle.hasFocus():   # only when the offscreen window is active
        assert card.delete_button.isVisibleTo(card)


def test_empty_and_error_states(qtbot: Any, qrun: Any, fakes: Any) -> None:
    from openhuman_desktop.qt.asyncutil import Jobs

    service = fakes.FakeSubconscious()
    jobs = Jobs()
    view = TasksView(service, lambda: fakes.NOW, jobs)
    qtbot.addWidget(view)
    qrun(view.refresh())
    assert view.empty_label.isVisibleTo(view)
    assert "No tasks yet" in view.empty_label.text()
    service.fail["tasks_list"] = StoreUnavailable("The database is read-only.")
    qrun(view.refresh())
    assert view.list_error.isVisibleTo(view)
    assert view.list_error.text() == "Could not load the tasks: The database is read-only."
    qrun(jobs.aclose())


# --- adding -------------------------------------------------------------------------------------------


def test_adding_a_task_on_the_real_service(
    intelligence_window: IntelligenceWindow, gui_services: Any, qtbot: Any, settle: Any, qrun: Any
) -> None:
    view = tasks_of(intelligence_window)
    add = view.add_view
    qtbot.keyClicks(add.title_edit, "Check urgent emails")
    choose_schedule(add, "cron:0 9 * * 1-5")
    assert add.hint_label.text().startswith("First run ")
    assert add.can_add
    qtbot.mouseClick(add.add_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    card = view.card_by_title("Check urgent emails")
    assert card is not None
    assert card.task.source == "user"
    assert card.task.recurrence == "cron:0 9 * * 1-5"
    assert add.title_edit.text() == ""
    assert add.error_label.isHidden()
    stored = qrun(gui_services.subconscious.tasks_list())
    assert any(t.title == "Check urgent emails" and t.recurrence == "cron:0 9 * * 1-5" for t in stored)
    assert view.cards()[-1] is card, "user tasks come after the system tasks"


def test_enter_in_the_field_adds(fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any) -> None:
    add = tasks_of(fake_window).add_view
    qtbot.keyClicks(add.title_edit, "Summarize Notion updates")
    choose_schedule(add, "once")
    qtbot.keyClick(add.title_edit, Qt.Key.Key_Return)
    settle(fake_window)
    assert fake_services.subconscious.called("tasks_add") == [("Summarize Notion updates", "once")]
    assert tasks_of(fake_window).card_by_title("Summarize Notion updates") is not None


@pytest.mark.parametrize("text", ["", "   ", "\t"])
def test_blank_input_cannot_be_added(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any, text: str
) -> None:
    add = tasks_of(fake_window).add_view
    add.title_edit.setText(text)
    assert not add.add_button.isEnabled()
    qtbot.mouseClick(add.add_button, Qt.MouseButton.LeftButton)
    qtbot.keyClick(add.title_edit, Qt.Key.Key_Return)
    settle(fake_window)
    assert fake_services.subconscious.called("tasks_add") == []
    assert add.error_label.text() == "Type what the assistant should do first."


def test_add_task_refuses_blank_text_when_called_directly(fake_window: IntelligenceWindow, qrun: Any) -> None:
    assert qrun(tasks_of(fake_window).add_task("  ", "pending")) is None
    assert tasks_of(fake_window).add_view.error_label.isVisible()


@pytest.mark.parametrize("expression, words", [
    ("61 * * * *", "invalid"),
    ("0 9 * *", "must have 5 fields"),
    ("0 9 31 2 *", "never fires"),
    ("every day", "5 fields"),
])
def test_a_bad_cron_is_explained_as_you_type_and_blocks_add(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any, expression: str, words: str
) -> None:
    add = tasks_of(fake_window).add_view
    qtbot.keyClicks(add.title_edit, "Check urgent emails")
    choose_schedule(add, CUSTOM_CRON)
    assert add.cron_edit.isVisibleTo(add)
    assert not add.can_add, "an empty cron field cannot be added"
    qtbot.keyClicks(add.cron_edit, expression)
    assert add.cron_error_label.isVisibleTo(add)
    assert words in add.cron_error_label.text()
    assert not add.can_add
    qtbot.keyClick(add.title_edit, Qt.Key.Key_Return)
    settle(fake_window)
    assert fake_services.subconscious.called("tasks_add") == []
    add.cron_edit.setText("30 8 * * 1-5")
    assert add.cron_error_label.isHidden()
    assert add.can_add
    qtbot.mouseClick(add.add_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert fake_services.subconscious.called("tasks_add") == [("Check urgent emails", "cron:30 8 * * 1-5")]


def test_an_error_keeps_the_text_and_says_what_is_wrong(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any
) -> None:
    add = tasks_of(fake_window).add_view
    fake_services.subconscious.fail["tasks_add"] = InvalidInput("title", "is 612 characters long; the limit is 500")
    qtbot.keyClicks(add.title_edit, "A very long task")
    qtbot.mouseClick(add.add_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert add.title_edit.text() == "A very long task"
    assert add.error_label.isVisibleTo(add)
    assert add.error_label.text() == "title: is 612 characters long; the limit is 500"
    assert add.add_button.isEnabled() and add.add_button.text() == "Add"
    qtbot.keyClicks(add.title_edit, "!")
    assert add.error_label.isHidden(), "typing clears the old error"


def test_add_is_disabled_while_in_flight(fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any,
                                         qrun: Any, settle: Any) -> None:
    import asyncio

    gate = asyncio.Event()
    fake_services.subconscious.gates["tasks_add"] = gate
    add = tasks_of(fake_window).add_view
    qtbot.keyClicks(add.title_edit, "Check urgent emails")
    qtbot.mouseClick(add.add_button, Qt.MouseButton.LeftButton)
    qrun(asyncio.sleep(0.05))
    assert not add.add_button.isEnabled()
    assert add.add_button.text() == "Adding…"
    gate.set()
    settle(fake_window)
    assert add.add_button.text() == "Add"


def test_schedule_presets_and_cron_validation() -> None:
    values = [value for _, value in SCHEDULE_CHOICES]
    assert values[:2] == ["pending", "once"]
    assert all(v.startswith("cron:") for v in values[2:-1]) and values[-1] == CUSTOM_CRON
    for value in values[2:-1]:
        assert cron_problem(value.removeprefix("cron:")) is None
    assert describe_schedule("pending") == "Every tick"
    assert describe_schedule("cron:15 7 * * *") == "Cron 15 7 * * *"


# --- toggling, intent ---------------------------------------------------------------------------------


def test_toggling_a_user_task(
    intelligence_window: IntelligenceWindow, gui_services: Any, qtbot: Any, settle: Any, qrun: Any
) -> None:
    view = tasks_of(intelligence_window)
    task = qrun(gui_services.subconscious.tasks_add("Check urgent emails"))
    settle(intelligence_window)
    card = view.card(task.id)
    assert card is not None and card.toggle.isChecked()
    qtbot.mouseClick(card.toggle, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    stored = qrun(gui_services.store.tasks.get(task.id))
    assert stored.enabled is False
    assert not card.toggle.isChecked()
    assert card.dot.accent_name == "grey"
    assert "Off" in card.details_label.text()
    qtbot.keyClick(card.toggle, Qt.Key.Key_Space)
    settle(intelligence_window)
    assert qrun(gui_services.store.tasks.get(task.id)).enabled is True


def test_a_failed_toggle_springs_back_with_the_error_on_the_card(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any
) -> None:
    card = tasks_of(fake_window).card("user-1")
    assert card is not None
    fake_services.subconscious.fail["tasks_update"] = StoreUnavailable("The disk is full.")
    qtbot.mouseClick(card.toggle, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert card.toggle.isChecked(), "the switch shows the stored state again"
    assert card.error_label.text() == "The disk is full."
    assert card.toggle.isEnabled()


def test_a_system_task_can_be_switched_off_from_its_menu(
    fake_window: IntelligenceWindow, fake_services: Any, settle: Any
) -> None:
    card = tasks_of(fake_window).card("sys-0")
    assert card is not None
    card._on_toggle_action_triggered()
    settle(fake_window)
    assert fake_services.subconscious.tasks["sys-0"].enabled is False
    assert card.dot.accent_name == "grey"


def test_changing_the_intent(
    intelligence_window: IntelligenceWindow, gui_services: Any, settle: Any, qrun: Any
) -> None:
    task = qrun(gui_services.subconscious.tasks_add("Check urgent emails"))
    settle(intelligence_window)
    card = tasks_of(intelligence_window).card(task.id)
    assert card is not None
    card._intent_actions["write"].trigger()
    settle(intelligence_window)
    stored = qrun(gui_services.store.tasks.get(task.id))
    assert (stored.intent, stored.intent_source) == ("write", "user")
    assert card.intent_button.text() == "May write"
    assert card._intent_actions["write"].isChecked()


# --- deleting -----------------------------------------------------------------------------------------


def test_deleting_a_task_offers_undo(
    intelligence_window: IntelligenceWindow, gui_services: Any, qtbot: Any, settle: Any, qrun: Any
) -> None:
    view = tasks_of(intelligence_window)
    task = qrun(gui_services.subconscious.tasks_add("Send daily summary to Slack", "cron:0 9 * * 1-5"))
    qrun(gui_services.subconscious.tasks_update(task.id, intent="write", enabled=False))
    settle(intelligence_window)
    card = view.card(task.id)
    assert card is not None
    hover(card)
    qtbot.mouseClick(card.delete_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    assert view.card(task.id) is None
    assert qrun(gui_services.store.tasks.get(task.id)) is None
    assert view.undo_bar.isVisibleTo(view)
    assert "Send daily summary to Slack" in view.undo_bar.label.text()
    qtbot.mouseClick(view.undo_bar.undo_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    again = view.card_by_title("Send daily summary to Slack")
    assert again is not None
    assert (again.task.recurrence, again.task.intent, again.task.enabled) == ("cron:0 9 * * 1-5", "write", False)
    assert view.undo_bar.isHidden()


def test_the_delete_key_deletes_a_focused_user_task(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any
) -> None:
    card = tasks_of(fake_window).card("user-1")
    assert card is not None
    qtbot.keyClick(card, Qt.Key.Key_Delete)
    settle(fake_window)
    assert "user-1" not in fake_services.subconscious.tasks


def test_a_failed_delete_keeps_the_card_and_shows_why(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    card = view.card("user-1")
    assert card is not None
    fake_services.subconscious.fail["tasks_remove"] = StoreUnavailable("The database is locked.")
    hover(card)
    qtbot.mouseClick(card.delete_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert view.card("user-1") is card
    assert card.error_label.text() == "The database is locked."
    assert card.delete_button.isEnabled()
    assert view.undo_bar.isHidden()


def test_removing_a_system_task_is_refused(fake_window: IntelligenceWindow, qrun: Any) -> None:
    view = tasks_of(fake_window)
    assert qrun(view.remove_task("sys-0")) is False
    card = view.card("sys-0")
    assert card is not None
    assert "cannot be removed" in card.error_label.text()


# --- live updates -------------------------------------------------------------------------------------


def test_task_events_update_the_list_in_place(
    fake_window: IntelligenceWindow, fake_bridge: Any, fakes: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    added = fakes.make_task("Added over RPC", task_id="rpc-1", created_at=fakes.NOW)
    fake_bridge.task_changed.emit(added)
    card = view.card("rpc-1")
    assert card is not None and view.cards()[-1] is card
    fake_bridge.task_changed.emit(fakes.make_task("Added over RPC", task_id="rpc-1", enabled=False,
                                                  created_at=fakes.NOW))
    assert view.card("rpc-1") is card
    assert not card.toggle.isChecked()
    fake_bridge.task_removed.emit("rpc-1")
    assert view.card("rpc-1") is None
    settle(fake_window)


def test_a_task_added_elsewhere_appears_at_once(
    intelligence_window: IntelligenceWindow, gui_services: Any, qrun: Any, settle: Any
) -> None:
    task = qrun(gui_services.subconscious.tasks_add("Added by the assistant"))
    assert tasks_of(intelligence_window).card(task.id) is not None
    settle(intelligence_window)
    assert intelligence_window.status_bar_view.tasks_label.text() == "4 tasks"
