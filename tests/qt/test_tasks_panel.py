"""Active Tasks: system and user tasks, adding (valid, blank, bad cron), toggling, intent, delete and undo;
the list model (order, in-place updates), its painted rows, the interactive row, keyboard and scale."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QModelIndex, QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QColor, QContextMenuEvent, QEnterEvent, QImage
from PySide6.QtWidgets import QApplication, QFrame, QMenu, QWidget

from openhuman_desktop.errors import InvalidInput, StoreUnavailable
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.subconscious.task_card import TaskCard
from openhuman_desktop.qt.intelligence.subconscious.task_list import TaskListView
from openhuman_desktop.qt.intelligence.subconscious.task_model import (
    CUSTOM_CRON,
    SCHEDULE_CHOICES,
    TaskListModel,
    describe_schedule,
    details_text,
)
from openhuman_desktop.qt.intelligence.subconscious.tasks import AddTaskView, TasksView, cron_problem
from openhuman_desktop.qt.intelligence.theme import ACCENTS
from openhuman_desktop.store import Task

# The offscreen platform cannot raise a popup, grab the keyboard or pass size hints of a top-level widget on.
OFFSCREEN_POPUP_WARNING = r"This plugin does not support (raise\(\)|grabbing the keyboard)"
OFFSCREEN_TOP_LEVEL_WARNING = r"This plugin does not support propagateSizeHints\(\)"


def tasks_of(window: IntelligenceWindow) -> TasksView:
    return window.tasks_view


def choose_schedule(view: AddTaskView, value: str) -> None:
    view.schedule_combo.setCurrentIndex(view.schedule_combo.findData(value))


def hover(card: TaskCard) -> None:
    QApplication.sendEvent(card, QEnterEvent(QPointF(5, 5), QPointF(5, 5), QPointF(5, 5)))


def unhover(card: TaskCard) -> None:
    QApplication.sendEvent(card, QEvent(QEvent.Type.Leave))


def open_row(view: TasksView, task_id: str) -> TaskCard:
    card = view.open_row(task_id)
    assert card is not None, f"no row for {task_id}"
    return card


def row_rect(view: TasksView, task_id: str) -> Any:
    return view.list_view.visualRect(view.model.index_of(task_id))


def shown_details(view: TasksView, task_id: str) -> str:
    """The details line as the delegate paints it."""
    task = view.task(task_id)
    assert task is not None
    delegate = view.list_view.task_delegate
    geometry = delegate.geometry(task, view.error_of(task_id))
    return delegate.details(task, geometry, "")[1]


def grab_row(view: TasksView, task_id: str) -> QImage:
    """What the row looks like on screen (painted by the delegate, with any interactive row on top)."""
    return view.list_view.viewport().grab(row_rect(view, task_id)).toImage()


def same_color(actual: QColor, accent_name: str) -> bool:
    return actual.name() in {QColor(c).name() for c in ACCENTS[accent_name]}


def dot_color(view: TasksView, task_id: str) -> QColor:
    task = view.task(task_id)
    assert task is not None
    geometry = view.list_view.task_delegate.geometry(task, view.error_of(task_id))
    image = grab_row(view, task_id)
    ratio = image.devicePixelRatio()
    center = geometry.dot.center()
    return image.pixelColor(round(center.x() * ratio), round(center.y() * ratio))


def make_tasks(fakes: Any, count: int) -> list[Task]:
    system = [fakes.make_task(f"Built-in task {n}", source="system", task_id=f"sys-{n}", created_at=fakes.NOW - 1000)
              for n in range(3)]
    user = [fakes.make_task(f"Task {n:04d}: check the inbox and summarise what is new", task_id=f"task-{n:04d}",
                            created_at=fakes.NOW - count + n, intent="write" if n % 4 == 0 else "read")
            for n in range(count - 3)]
    return system + user


@pytest.fixture
def jobs(qloop: Any, qrun: Any) -> Any:
    from openhuman_desktop.qt.asyncutil import Jobs

    owner = Jobs()
    yield owner
    qrun(owner.aclose())


# --- what is shown ------------------------------------------------------------------------------------


def test_system_tasks_come_first_as_plain_text_with_a_default_badge(fake_window: IntelligenceWindow) -> None:
    view = tasks_of(fake_window)
    assert view.task_ids() == ["sys-0", "sys-1", "user-1", "user-2"]
    delegate = view.list_view.task_delegate
    for task_id in ("sys-0", "sys-1"):
        task = view.task(task_id)
        assert task is not None
        geometry = delegate.geometry(task, "")
        assert geometry.badge is not None, "the “default” badge is painted"
        assert geometry.toggle is None and geometry.delete is None
        assert same_color(dot_color(view, task_id), "green")
        card = open_row(view, task_id)
        assert not card.toggle.isVisibleTo(card)
        hover(card)
        assert not card.delete_button.isVisibleTo(card), "system tasks cannot be deleted"
    for task_id in ("user-1", "user-2"):
        task = view.task(task_id)
        assert task is not None
        assert delegate.geometry(task, "").badge is None
        card = open_row(view, task_id)
        assert card.toggle.isVisibleTo(card)
        assert card.toggle.isChecked()
        assert card.toggle.geometry() == delegate.geometry(task, "", card.width()).toggle, \
            "the real switch sits exactly where the row paints one"


def test_each_task_shows_its_schedule_next_run_and_intent(fake_window: IntelligenceWindow) -> None:
    view = tasks_of(fake_window)
    assert shown_details(view, "user-1") == "Every tick · due at the next tick"
    assert shown_details(view, "user-2").startswith("Weekdays at 9:00 · Next ")
    assert open_row(view, "user-1").intent_button.text() == "Read only · you"
    assert open_row(view, "user-2").intent_button.text() == "May write · you"
    assert view.count_label.text() == "4 · 2 yours"


def test_rows_have_accessible_names_and_descriptions(fake_window: IntelligenceWindow) -> None:
    view = tasks_of(fake_window)
    model = view.model
    sys_index, user_index = model.index_of("sys-0"), model.index_of("user-2")
    assert model.data(sys_index, Qt.ItemDataRole.AccessibleTextRole) == \
        "Task: Check connected skills for errors or disconnections"
    description = model.data(sys_index, Qt.ItemDataRole.AccessibleDescriptionRole)
    assert "default task" in description and "enabled" in description and "Every tick" in description
    description = model.data(user_index, Qt.ItemDataRole.AccessibleDescriptionRole)
    assert "your task" in description and "intent May write" in description
    assert view.list_view.accessibleName() == "Active tasks"
    card = open_row(view, "user-2")
    assert card.accessibleName() == "Task: Send daily summary to Slack"
    assert card.toggle.accessibleName() == "Enable task Send daily summary to Slack"
    assert card.delete_button.accessibleName() == "Delete task Send daily summary to Slack"
    assert card.intent_button.accessibleName() == "Intent of task Send daily summary to Slack: May write · you"


def test_tooltips_explain_the_parts_of_a_row(fake_window: IntelligenceWindow, fakes: Any) -> None:
    view = tasks_of(fake_window)
    metrics = view.list_view.task_delegate.metrics()
    width = view.list_view.viewport().width()
    system, user = view.task("sys-0"), view.task("user-2")
    assert system is not None and user is not None
    geometry = metrics.layout(system, width, "")
    assert geometry.badge is not None
    assert metrics.tooltip_at(system, geometry.badge.center(), width, "", fakes.NOW) == "Built-in task"
    assert metrics.tooltip_at(system, geometry.dot.center(), width, "", fakes.NOW) == "On"
    geometry = metrics.layout(user, width, "")
    details = geometry.details.topLeft() + QPoint(2, geometry.details.height() // 2)
    assert metrics.tooltip_at(user, details, width, "", fakes.NOW).startswith("20")   # the exact next run
    assert open_row(view, "user-2").toggle.toolTip() == "Switch this task on or off"


def test_the_delete_button_shows_on_hover_and_on_keyboard_focus(fake_window: IntelligenceWindow) -> None:
    card = open_row(tasks_of(fake_window), "user-1")
    unhover(card)
    assert not card.delete_button.isVisibleTo(card)
    hover(card)
    assert card.delete_button.isVisibleTo(card)
    assert card.is_hovered
    unhover(card)
    assert not card.delete_button.isVisibleTo(card)
    card.toggle.setFocus()
    card._update_delete_visibility()
    fake_window.activateWindow()
    if card.toggle.hasFocus():   # only when the offscreen window is active
        assert card.delete_button.isVisibleTo(card)


def test_moving_the_mouse_opens_the_row_under_it_only(fake_window: IntelligenceWindow, qtbot: Any) -> None:
    view = tasks_of(fake_window)
    viewport = view.list_view.viewport()
    qtbot.mouseMove(viewport, row_rect(view, "user-1").center())
    card = view.list_view.card("user-1")
    assert card is not None and card.is_hovered
    assert card.delete_button.isVisibleTo(card)
    qtbot.mouseMove(viewport, row_rect(view, "sys-1").center())
    assert view.list_view.hover_id == "sys-1"
    assert view.list_view.card("user-1") is None, "a row that is left goes back to being painted"
    assert len(view.list_view.open_cards()) == 1


def test_empty_and_error_states(qtbot: Any, qrun: Any, fakes: Any) -> None:
    from openhuman_desktop.qt.asyncutil import Jobs

    service = fakes.FakeSubconscious()
    jobs = Jobs()
    view = TasksView(service, lambda: fakes.NOW, jobs)
    qtbot.addWidget(view)
    qrun(view.refresh())
    assert view.empty_label.isVisibleTo(view)
    assert "No tasks yet" in view.empty_label.text()
    assert view.list_view.isHidden()
    service.fail["tasks_list"] = StoreUnavailable("The database is read-only.")
    qrun(view.refresh())
    assert view.list_error.isVisibleTo(view)
    assert view.list_error.text() == "Could not load the tasks: The database is read-only."
    qrun(jobs.aclose())


def test_a_disabled_task_is_painted_grey_in_light_and_dark(
    fake_window: IntelligenceWindow, fake_bridge: Any, fakes: Any, qapp: QApplication, qrun: Any
) -> None:
    import asyncio

    from openhuman_desktop.qt.app import dark_palette

    view = tasks_of(fake_window)
    fake_bridge.tasks_changed.emit([fakes.make_task("Check urgent emails", task_id="user-1", enabled=False,
                                                  created_at=fakes.NOW - 10)])
    light_grey = dot_color(view, "user-1")
    assert same_color(light_grey, "grey")
    assert shown_details(view, "user-1") == "Every tick · Off"
    original = qapp.palette()
    try:
        qapp.setPalette(dark_palette())
        qrun(asyncio.sleep(0.05))
        assert dot_color(view, "user-2").name() == QColor(ACCENTS["green"][1]).name()
        assert dot_color(view, "user-1").name() == QColor(ACCENTS["grey"][1]).name()
    finally:
        qapp.setPalette(original)
        qrun(asyncio.sleep(0.05))


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
    task = view.task_by_title("Check urgent emails")
    assert task is not None
    assert task.source == "user"
    assert task.recurrence == "cron:0 9 * * 1-5"
    assert add.title_edit.text() == ""
    assert add.error_label.isHidden()
    stored = qrun(gui_services.subconscious.tasks_list())
    assert any(t.title == "Check urgent emails" and t.recurrence == "cron:0 9 * * 1-5" for t in stored)
    assert view.task_ids()[-1] == task.id, "user tasks come after the system tasks"


def test_enter_in_the_field_adds(fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any) -> None:
    add = tasks_of(fake_window).add_view
    qtbot.keyClicks(add.title_edit, "Summarize Notion updates")
    choose_schedule(add, "once")
    qtbot.keyClick(add.title_edit, Qt.Key.Key_Return)
    settle(fake_window)
    assert fake_services.subconscious.called("tasks_add") == [("Summarize Notion updates", "once")]
    assert tasks_of(fake_window).task_by_title("Summarize Notion updates") is not None


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


def test_typing_while_a_slow_add_runs_is_kept(fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any,
                                              qrun: Any, settle: Any) -> None:
    """The field was read-only while an add ran (a slow store: keys typed then went nowhere), and cleared after
    it (taking whatever had been typed with it)."""
    gate = asyncio.Event()
    fake_services.subconscious.gates["tasks_add"] = gate
    add = tasks_of(fake_window).add_view
    qtbot.keyClicks(add.title_edit, "Check urgent emails")
    qtbot.keyClick(add.title_edit, Qt.Key.Key_Return)
    qrun(asyncio.sleep(0.05))
    assert add.add_button.text() == "Adding…" and add.title_edit.text() == ""   # ready for the next one
    qtbot.keyClicks(add.title_edit, "Water the garden")
    qtbot.keyClick(add.title_edit, Qt.Key.Key_Return)                          # "Add" waits: not sent twice
    assert add.title_edit.text() == "Water the garden"
    gate.set()
    settle(fake_window)
    assert add.title_edit.text() == "Water the garden"
    assert tasks_of(fake_window).task_by_title("Check urgent emails") is not None
    assert fake_services.subconscious.called("tasks_add") == [("Check urgent emails", "pending")]
    assert add.add_button.isEnabled()


def test_a_slow_add_that_fails_gives_its_text_back_or_names_it(fake_window: IntelligenceWindow,
                                                                fake_services: Any, qtbot: Any, qrun: Any,
                                                                settle: Any) -> None:
    add = tasks_of(fake_window).add_view
    fake_services.subconscious.fail["tasks_add"] = StoreUnavailable("The database is locked.")
    gate = asyncio.Event()
    fake_services.subconscious.gates["tasks_add"] = gate
    qtbot.keyClicks(add.title_edit, "Check urgent emails")
    qtbot.keyClick(add.title_edit, Qt.Key.Key_Return)
    qrun(asyncio.sleep(0.05))
    gate.set()
    settle(fake_window)
    assert add.title_edit.text() == "Check urgent emails"                     # nothing typed meanwhile: back
    assert add.error_label.text() == "The database is locked."
    gate.clear()
    fake_services.subconscious.fail["tasks_add"] = StoreUnavailable("The database is locked.")
    qtbot.keyClick(add.title_edit, Qt.Key.Key_Return)
    qrun(asyncio.sleep(0.05))
    qtbot.keyClicks(add.title_edit, "Water the garden")
    gate.set()
    settle(fake_window)
    assert add.title_edit.text() == "Water the garden"                        # what was typed stays
    assert add.error_label.text() == "“Check urgent emails” was not added: The database is locked."


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
    card = open_row(view, task.id)
    assert card.toggle.isChecked()
    qtbot.mouseClick(card.toggle, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    stored = qrun(gui_services.store.tasks.get(task.id))
    assert stored.enabled is False
    assert not card.toggle.isChecked()
    assert same_color(dot_color(view, task.id), "grey")
    assert "Off" in shown_details(view, task.id)
    qtbot.keyClick(card.toggle, Qt.Key.Key_Space)
    settle(intelligence_window)
    assert qrun(gui_services.store.tasks.get(task.id)).enabled is True


def test_a_toggle_shows_the_new_state_while_in_flight(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, qrun: Any, settle: Any
) -> None:
    import asyncio

    view = tasks_of(fake_window)
    gate = asyncio.Event()
    fake_services.subconscious.gates["tasks_update"] = gate
    card = open_row(view, "user-1")
    qtbot.mouseClick(card.toggle, Qt.MouseButton.LeftButton)
    qrun(asyncio.sleep(0.05))
    assert view.is_busy("user-1")
    assert not card.toggle.isChecked() and not card.toggle.isEnabled()
    assert not card.intent_button.isEnabled()
    gate.set()
    settle(fake_window)
    assert not view.is_busy("user-1") and card.toggle.isEnabled()
    assert not card.toggle.isChecked()


def test_a_failed_toggle_springs_back_with_the_error_on_the_row(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    card = open_row(view, "user-1")
    height = row_rect(view, "user-1").height()
    fake_services.subconscious.fail["tasks_update"] = StoreUnavailable("The disk is full.")
    qtbot.mouseClick(card.toggle, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert card.toggle.isChecked(), "the switch shows the stored state again"
    assert view.error_of("user-1") == "The disk is full."
    assert card.error == "The disk is full."
    assert card.toggle.isEnabled()
    index = view.model.index_of("user-1")
    assert "error: The disk is full." in view.model.data(index, Qt.ItemDataRole.AccessibleDescriptionRole)
    view.list_view.executeDelayedItemsLayout()
    assert row_rect(view, "user-1").height() > height, "the error is painted under the row"
    assert view.error_of("user-2") == "", "only that row"


def test_a_failed_intent_change_springs_back(
    fake_window: IntelligenceWindow, fake_services: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    card = open_row(view, "user-1")
    fake_services.subconscious.fail["tasks_update"] = StoreUnavailable("The disk is full.")
    card._intent_actions["write"].trigger()
    settle(fake_window)
    assert card._intent_actions["read"].isChecked()
    assert card.intent_button.text() == "Read only · you"
    assert view.error_of("user-1") == "The disk is full."


def test_a_system_task_can_be_switched_off_from_its_menu(
    fake_window: IntelligenceWindow, fake_services: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    card = open_row(view, "sys-0")
    card._on_toggle_action_triggered()
    settle(fake_window)
    assert fake_services.subconscious.tasks["sys-0"].enabled is False
    assert same_color(dot_color(view, "sys-0"), "grey")


def test_changing_the_intent(
    intelligence_window: IntelligenceWindow, gui_services: Any, settle: Any, qrun: Any
) -> None:
    task = qrun(gui_services.subconscious.tasks_add("Check urgent emails"))
    settle(intelligence_window)
    card = open_row(tasks_of(intelligence_window), task.id)
    card._intent_actions["write"].trigger()
    settle(intelligence_window)
    stored = qrun(gui_services.store.tasks.get(task.id))
    assert (stored.intent, stored.intent_source) == ("write", "user")
    assert card.intent_button.text() == "May write · you"
    assert card._intent_actions["write"].isChecked()


# --- deleting -----------------------------------------------------------------------------------------


def test_deleting_a_task_offers_undo(
    intelligence_window: IntelligenceWindow, gui_services: Any, qtbot: Any, settle: Any, qrun: Any
) -> None:
    view = tasks_of(intelligence_window)
    task = qrun(gui_services.subconscious.tasks_add("Send daily summary to Slack", "cron:0 9 * * 1-5"))
    qrun(gui_services.subconscious.tasks_update(task.id, intent="write", enabled=False))
    settle(intelligence_window)
    card = open_row(view, task.id)
    hover(card)
    qtbot.mouseClick(card.delete_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    assert view.task(task.id) is None
    assert qrun(gui_services.store.tasks.get(task.id)) is None
    assert view.undo_bar.isVisibleTo(view)
    assert "Send daily summary to Slack" in view.undo_bar.label.text()
    qtbot.mouseClick(view.undo_bar.undo_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    again = view.task_by_title("Send daily summary to Slack")
    assert again is not None
    assert (again.recurrence, again.intent, again.enabled) == ("cron:0 9 * * 1-5", "write", False)
    assert view.undo_bar.isHidden()


def test_the_undo_banner_is_on_screen_after_a_delete_in_a_long_list(
    fake_window: IntelligenceWindow, fake_services: Any, fakes: Any, qtbot: Any, qrun: Any, settle: Any
) -> None:
    """It sat under the last task, in the scrolled column: with a long list, below the fold, unseen."""
    for n in range(40):
        task = fakes.make_task(f"Task number {n}", task_id=f"many-{n}", created_at=fakes.NOW - 200 + n)
        fake_services.subconscious.tasks[task.id] = task
    view = tasks_of(fake_window)
    qrun(view.refresh())
    fake_window.resize(fake_window.minimumSize())
    settle(fake_window)
    qtbot.wait_until(lambda: view.list_view.height() > fake_window.left_scroll.viewport().height())
    qtbot.wait_until(lambda: view.open_row("user-1") is not None)   # its row laid out (they come in batches)
    card = open_row(view, "user-1")
    fake_window.left_scroll.ensureWidgetVisible(card)   # the row the person sees and deletes
    hover(card)
    qtbot.mouseClick(card.delete_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    bar = view.undo_bar
    assert bar.isVisible()
    qtbot.wait_until(lambda: bar.visibleRegion().boundingRect() == bar.rect())   # all of it, on screen
    assert fake_window.rect().contains(QRect(bar.mapTo(fake_window, QPoint(0, 0)), bar.size()))


def test_the_delete_key_deletes_a_focused_user_task(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any
) -> None:
    card = open_row(tasks_of(fake_window), "user-1")
    qtbot.keyClick(card, Qt.Key.Key_Delete)
    settle(fake_window)
    assert "user-1" not in fake_services.subconscious.tasks


def test_a_failed_delete_keeps_the_row_and_shows_why(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    card = open_row(view, "user-1")
    fake_services.subconscious.fail["tasks_remove"] = StoreUnavailable("The database is locked.")
    hover(card)
    qtbot.mouseClick(card.delete_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert view.task("user-1") is not None
    assert view.list_view.card("user-1") is card
    assert view.error_of("user-1") == "The database is locked."
    assert card.delete_button.isEnabled()
    assert view.undo_bar.isHidden()


def test_removing_a_system_task_is_refused(fake_window: IntelligenceWindow, qrun: Any) -> None:
    view = tasks_of(fake_window)
    assert qrun(view.remove_task("sys-0")) is False
    assert view.task("sys-0") is not None
    assert "cannot be removed" in view.error_of("sys-0")


# --- keyboard -------------------------------------------------------------------------------------------


def focus_row(view: TasksView, task_id: str) -> TaskListView:
    lst = view.list_view
    lst.window().activateWindow()
    lst.setFocus()
    assert lst.select_task(task_id)
    return lst


def test_space_toggles_the_current_user_row_and_not_a_system_row(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    lst = focus_row(view, "user-1")
    qtbot.keyClick(lst, Qt.Key.Key_Space)
    settle(fake_window)
    assert fake_services.subconscious.tasks["user-1"].enabled is False
    task = view.task("user-1")
    assert task is not None and task.enabled is False
    lst.select_task("sys-0")
    qtbot.keyClick(lst, Qt.Key.Key_Space)
    settle(fake_window)
    assert fake_services.subconscious.called("tasks_update") == [
        ("user-1", {"title": None, "enabled": False, "recurrence": None, "intent": None})]


def test_arrows_move_between_rows_and_delete_deletes_the_current_user_task(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    lst = focus_row(view, "sys-1")
    qtbot.keyClick(lst, Qt.Key.Key_Delete)
    settle(fake_window)
    assert "sys-1" in fake_services.subconscious.tasks, "Delete does nothing on a system task"
    qtbot.keyClick(lst, Qt.Key.Key_Down)
    assert lst.current_id == "user-1"
    qtbot.keyClick(lst, Qt.Key.Key_Delete)
    settle(fake_window)
    assert "user-1" not in fake_services.subconscious.tasks
    assert view.task_ids() == ["sys-0", "sys-1", "user-2"]
    assert view.undo_bar.isVisibleTo(view)
    qtbot.keyClick(lst, Qt.Key.Key_Up)
    qtbot.keyClick(lst, Qt.Key.Key_Up)
    assert lst.current_id is not None and lst.current_id.startswith("sys-")


def next_tab_stop(widget: QWidget) -> QWidget:
    """Where Tab goes from ``widget`` (the next visible, enabled widget in the chain that takes Tab focus)."""
    candidate = widget.nextInFocusChain()
    while candidate is not widget:
        if (candidate.focusPolicy() & Qt.FocusPolicy.TabFocus and candidate.isVisible() and candidate.isEnabled()):
            return candidate
        candidate = candidate.nextInFocusChain()
    return widget


def test_tab_goes_from_the_list_into_the_current_rows_controls(
    fake_window: IntelligenceWindow, qtbot: Any, qrun: Any
) -> None:
    import asyncio

    view = tasks_of(fake_window)
    lst = focus_row(view, "user-2")
    qrun(asyncio.sleep(0.02))   # the focused row's card opens on the next turn of the loop
    card = lst.card("user-2")
    assert card is not None, "the current row has its real controls while the list has the focus"
    assert next_tab_stop(lst) is card.toggle
    if lst.hasFocus():   # only when the offscreen window is active
        qtbot.keyClick(lst, Qt.Key.Key_Tab)
        assert card.toggle.hasFocus()
        assert card.delete_button.isVisibleTo(card), "the delete button shows while the focus is in the row"


@pytest.mark.qt_log_ignore(OFFSCREEN_POPUP_WARNING)
def test_the_menu_key_opens_the_rows_menu_with_the_intent(
    fake_window: IntelligenceWindow, fake_services: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    lst = focus_row(view, "user-1")
    lst.contextMenuEvent(QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, QPoint(0, 0), lst.mapToGlobal(QPoint())))
    menus = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMenu) and w.isVisible()]
    assert len(menus) == 1
    menu = menus[0]
    assert [a.text() for a in menu.actions() if a.text()] == ["Switch off", "Intent", "Rename…", "Schedule…",
                                                           "When and what…", "Delete", "Copy title"]
    intents = next(a.menu() for a in menu.actions() if a.text() == "Intent")
    write = next(a for a in intents.actions() if a.text() == "May write")
    write.trigger()
    menu.close()
    settle(fake_window)
    assert fake_services.subconscious.tasks["user-1"].intent == "write"


def test_ctrl_c_copies_the_title(fake_window: IntelligenceWindow, qtbot: Any) -> None:
    lst = focus_row(tasks_of(fake_window), "user-2")
    qtbot.keyClick(lst, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    clipboard = QApplication.clipboard()
    assert clipboard is not None and clipboard.text() == "Send daily summary to Slack"


# --- live updates -------------------------------------------------------------------------------------


def test_task_events_update_the_list_in_place(
    fake_window: IntelligenceWindow, fake_bridge: Any, fakes: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    added = fakes.make_task("Added over RPC", task_id="rpc-1", created_at=fakes.NOW)
    fake_bridge.tasks_changed.emit([added])
    assert view.task("rpc-1") == added and view.task_ids()[-1] == "rpc-1"
    row = view.row_of("rpc-1")
    fake_bridge.tasks_changed.emit([fakes.make_task("Added over RPC", task_id="rpc-1", enabled=False,
                                                  created_at=fakes.NOW)])
    assert view.row_of("rpc-1") == row
    task = view.task("rpc-1")
    assert task is not None and not task.enabled
    card = open_row(view, "rpc-1")
    assert not card.toggle.isChecked()
    fake_bridge.task_removed.emit("rpc-1")
    assert view.task("rpc-1") is None
    assert view.list_view.card("rpc-1") is None
    settle(fake_window)


def test_a_task_added_elsewhere_appears_at_once(
    intelligence_window: IntelligenceWindow, gui_services: Any, qrun: Any, settle: Any
) -> None:
    task = qrun(gui_services.subconscious.tasks_add("Added by the assistant"))
    assert tasks_of(intelligence_window).task(task.id) is not None
    settle(intelligence_window)
    assert intelligence_window.status_bar_view.tasks_label.text() == "4 tasks"


def test_a_task_added_in_the_window_is_counted_on_the_status_bar(
    intelligence_window: IntelligenceWindow, qtbot: Any, settle: Any, until: Any, qrun: Any
) -> None:
    """The window shows its own new task at once, before the bus's batch of changes arrives; that batch then
    had no new task in it, so the status bar was never asked to count again (it said 3 tasks for good)."""
    assert intelligence_window.status_bar_view.tasks_label.text() == "3 tasks"
    add = tasks_of(intelligence_window).add_view
    qtbot.keyClicks(add.title_edit, "Water the garden")
    qtbot.mouseClick(add.add_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    until(lambda: intelligence_window.status_bar_view.tasks_label.text() == "4 tasks", timeout=5)
    card = open_row(tasks_of(intelligence_window), tasks_of(intelligence_window).task_by_title("Water the garden").id)
    hover(card)
    qtbot.mouseClick(card.delete_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    until(lambda: intelligence_window.status_bar_view.tasks_label.text() == "3 tasks", timeout=5)


def test_an_open_row_follows_its_task(fake_window: IntelligenceWindow, fake_bridge: Any, fakes: Any) -> None:
    view = tasks_of(fake_window)
    card = open_row(view, "user-2")
    fake_bridge.tasks_changed.emit([fakes.make_task("Send daily summary to Slack", task_id="user-2",
                                                  recurrence_text="cron:0 9 * * 1-5", intent="read",
                                                  created_at=fakes.NOW - 5, next_run_at=fakes.NOW + 3600)])
    assert card.intent_button.text() == "Read only · you"
    assert card._intent_actions["read"].isChecked()


# --- the model ------------------------------------------------------------------------------------------


def test_the_model_passes_the_model_tester(qtmodeltester: Any, fakes: Any) -> None:
    model = TaskListModel(lambda: fakes.NOW)
    qtmodeltester.check(model)
    tasks = make_tasks(fakes, 20)
    model.set_tasks(tasks)
    qtmodeltester.check(model)
    model.upsert(replace(tasks[5], title="Renamed"))
    model.upsert(replace(tasks[6], created_at=fakes.NOW + 100))      # moves to the end
    model.remove(tasks[7].id)
    model.upsert(fakes.make_task("New", task_id="new", created_at=fakes.NOW - 500))
    model.set_error(tasks[8].id, "The disk is full.")
    model.set_busy(tasks[9].id, True)
    model.set_tasks(tasks[:10])
    qtmodeltester.check(model)


def test_the_order_is_kept_whatever_order_changes_arrive_in(fakes: Any) -> None:
    model = TaskListModel(lambda: fakes.NOW)
    same_instant = [fakes.make_task(f"Default {n}", source="system", task_id=f"d-{9 - n}", created_at=fakes.NOW)
                    for n in range(3)]
    model.set_tasks(same_instant)
    assert model.task_ids() == ["d-9", "d-8", "d-7"], "tasks of the same instant keep their arrival order"
    randomness = random.Random(7)
    tasks = {t.id: t for t in make_tasks(fakes, 60)}
    for task in randomness.sample(list(tasks.values()), len(tasks)):
        model.upsert(task)
    for _ in range(200):
        task = tasks[randomness.choice(list(tasks))]
        task = replace(task, created_at=task.created_at + randomness.choice([-30, 0, 0, 45]),
                       enabled=randomness.random() < 0.5)
        tasks[task.id] = task
        model.upsert(task)
    arrival = model._arrival
    expected = sorted([*same_instant, *tasks.values()],
                      key=lambda t: (t.source == "user", t.origin == "heartbeat_md", t.created_at, arrival[t.id]))
    assert model.task_ids() == [t.id for t in expected]
    assert all(model.row_of(task_id) == row for row, task_id in enumerate(model.task_ids()))


def test_a_changed_task_changes_only_its_row(fake_window: IntelligenceWindow, fakes: Any) -> None:
    view = tasks_of(fake_window)
    model = view.model
    changes: list[tuple[int, int]] = []
    structure: list[str] = []
    model.dataChanged.connect(lambda top, bottom, _roles=(): changes.append((top.row(), bottom.row())))
    for signal in (model.rowsMoved, model.rowsInserted, model.rowsRemoved, model.layoutChanged, model.modelReset):
        signal.connect(lambda *_args, name=signal: structure.append(str(name)))
    task = view.task("user-1")
    assert task is not None
    view.on_tasks_changed([replace(task, last_run_at=fakes.NOW, next_run_at=fakes.NOW + 300)])
    row = view.row_of("user-1")
    assert changes == [(row, row)]
    assert structure == [], "times changed: no move, no relayout of the list"
    view.on_tasks_changed([replace(task, created_at=fakes.NOW + 60)])
    assert view.task_ids()[-1] == "user-1"
    assert len(structure) == 1, "a new sort key moves the row (once)"


def test_a_batch_of_changes_is_taken_at_once(fake_window: IntelligenceWindow, fakes: Any) -> None:
    view = tasks_of(fake_window)
    changed = [replace(task, last_run_at=fakes.NOW) for task in view.tasks()]
    view.on_tasks_changed(changed)
    assert view.tasks() == changed


def test_a_tick_of_changes_is_one_signal_per_run_of_rows(qapp: Any, fakes: Any) -> None:
    model = TaskListModel(lambda: fakes.NOW)
    tasks = make_tasks(fakes, 12)
    model.set_tasks(tasks)
    runs: list[tuple[int, int]] = []
    structure: list[str] = []
    model.dataChanged.connect(lambda top, bottom, _roles=(): runs.append((top.row(), bottom.row())))
    model.rowsMoved.connect(lambda *_args: structure.append("moved"))
    model.rowsInserted.connect(lambda *_args: structure.append("inserted"))
    ran = [replace(tasks[row], last_run_at=fakes.NOW) for row in (9, 0, 1, 2, 3, 10)]
    moved = replace(tasks[5], created_at=fakes.NOW + 100)      # a new sort key: to the end
    added = fakes.make_task("Arrived during the tick", task_id="late", created_at=fakes.NOW + 200)
    model.upsert_many([*ran, moved, added, tasks[7]])          # tasks[7] is unchanged
    assert structure == ["moved", "inserted"]
    assert model.task_ids() == [t.id for t in tasks[:5] + tasks[6:]] + [moved.id, added.id]
    rows = sorted(model.row_of(task.id) for task in ran)
    assert rows == [0, 1, 2, 3, 8, 9]
    assert sorted(runs) == [(0, 3), (8, 9), (11, 11)], "one run each, at the rows after the move; the moved row"
    assert [model.task(task.id) for task in ran] == ran


# --- scale ----------------------------------------------------------------------------------------------


@pytest.mark.qt_log_ignore(OFFSCREEN_TOP_LEVEL_WARNING)
def test_a_thousand_tasks_make_no_widget_per_task(qtbot: Any, qrun: Any, until: Any, fakes: Any, jobs: Any) -> None:
    service = fakes.FakeSubconscious(make_tasks(fakes, 1000))
    view = TasksView(service, lambda: fakes.NOW, jobs)
    qtbot.addWidget(view)
    view.resize(600, 800)
    view.show()
    before = len(view.findChildren(QWidget))
    frames = len(view.findChildren(QFrame))
    qrun(view.refresh())
    assert view.model.rowCount() == 1000
    assert view.count_label.text() == "1000 · 997 yours"
    assert len(view.findChildren(QWidget)) - before < 20
    assert len(view.findChildren(QFrame)) == frames
    assert view.open_row("task-0500") is not None
    view.list_view.set_hover(None)
    assert len(view.findChildren(TaskCard)) <= 2
    em = view.list_view.task_delegate.metrics().em
    until(lambda: view.list_view.height() > 1000 * em * 2, message="rows are laid out a batch per loop turn")
    assert view.list_view.visualRect(view.model.index(999, 0)).bottom() < view.list_view.height()


@pytest.mark.qt_log_ignore(OFFSCREEN_TOP_LEVEL_WARNING)
def test_a_tick_of_schedule_changes_measures_no_row(
    qtbot: Any, qrun: Any, until: Any, fakes: Any, jobs: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = fakes.FakeSubconscious(make_tasks(fakes, 1000))
    view = TasksView(service, lambda: fakes.NOW, jobs)
    qtbot.addWidget(view)
    view.resize(600, 800)
    view.show()
    qrun(view.refresh())
    em = view.list_view.task_delegate.metrics().em
    until(lambda: view.list_view.height() > 1000 * em * 2, message="laid out")
    delegate = view.list_view.task_delegate
    asked: list[int] = []
    real = delegate.sizeHint
    monkeypatch.setattr(delegate, "sizeHint", lambda option, index: asked.append(index.row()) or real(option, index))
    ran = [replace(task, last_run_at=fakes.NOW) for task in view.tasks() if int(task.id[-1:] or 0) % 10 != 3]
    view.on_tasks_changed(ran)
    assert asked == [], "runs of changed rows keep their heights: none is measured to find what to repaint"
    qrun(asyncio.sleep(0.05))
    assert view.task(ran[500].id) == ran[500]


def test_sizes_follow_the_font(fake_window: IntelligenceWindow) -> None:
    view = tasks_of(fake_window)
    lst = view.list_view
    height = row_rect(view, "user-1").height()
    font = lst.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    lst.setFont(font)
    lst.executeDelayedItemsLayout()
    assert row_rect(view, "user-1").height() > height * 1.5, "cached heights are dropped on a font change"


def test_times_are_computed_when_painted(fake_window: IntelligenceWindow, fake_services: Any, fake_bridge: Any,
                                         fakes: Any) -> None:
    view = tasks_of(fake_window)
    fake_bridge.tasks_changed.emit([fakes.make_task("Check urgent emails", task_id="user-1", created_at=fakes.NOW - 10,
                                                  last_run_at=fakes.NOW - 60)])
    assert shown_details(view, "user-1") == "Every tick · due at the next tick · last run 1 min ago"
    fake_services.clock.set_wall(fakes.NOW + 3 * 3600)
    view.refresh_times()
    task = view.task("user-1")
    assert task is not None
    assert details_text(task, fakes.NOW + 3 * 3600).endswith("last run 3 h ago")
    assert shown_details(view, "user-1").endswith("last run 3 h ago")
    assert QModelIndex() != view.model.index_of("user-1")


# --- tasks the assistant created (issue 9 item 1, UI part) ---------------------------------------------


def test_a_task_the_assistant_added_says_so_on_its_row_and_card(
    fake_window: IntelligenceWindow, fake_bridge: Any, fakes: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    task = fakes.make_task("Archive last week's newsletters", task_id="bot-1", origin="assistant",
                           created_at=fakes.NOW)
    fake_bridge.tasks_changed.emit([task])
    assert shown_details(view, "bot-1") == "Every tick · due at the next tick"
    description = view.model.data(view.model.index_of("bot-1"), Qt.ItemDataRole.AccessibleDescriptionRole)
    assert "added by the assistant" in description and "your task" not in description
    card = open_row(view, "bot-1")
    assert card.intent_button.text() == "Read only · you"
    assert "added by the assistant" in card.accessibleDescription()
    metrics = view.list_view.task_delegate.metrics()
    width = view.list_view.viewport().width()
    geometry = metrics.layout(task, width, "")
    badge = metrics.assistant_badge(geometry)
    tip = metrics.tooltip_at(task, badge.center(), width, "", fakes.NOW)
    assert tip.startswith("Added by the assistant") and "May write" in tip, "the badge says how to let it write"
    assert card.intent_button.geometry().left() > badge.right(), "the intent chip sits after the badge"
    image = grab_row(view, "bot-1")
    ratio = image.devicePixelRatio()
    inside = image.pixelColor(round((badge.left() + 3) * ratio), round(badge.center().y() * ratio))
    assert inside.blue() > inside.red() + 20, "the badge is painted (tinted blue)"
    user = view.task("user-1")
    assert user is not None
    user_tip = metrics.tooltip_at(user, metrics.assistant_badge(metrics.layout(user, width, "")).center(), width,
                                  "", fakes.NOW)
    assert not user_tip.startswith("Added by the assistant")
    settle(fake_window)


# --- rename and reschedule in the window -----------------------------------------------------------------


def open_menu(lst: TaskListView) -> QMenu:
    lst.contextMenuEvent(QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, QPoint(0, 0), lst.mapToGlobal(QPoint())))
    menus = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMenu) and w.isVisible()]
    assert len(menus) == 1
    return menus[0]


def menu_action(menu: QMenu, text: str) -> Any:
    return next(a for a in menu.actions() if a.text() == text)


@pytest.mark.qt_log_ignore(OFFSCREEN_POPUP_WARNING, OFFSCREEN_TOP_LEVEL_WARNING)
def test_rename_from_the_rows_menu(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    menu = open_menu(focus_row(view, "user-1"))
    menu_action(menu, "Rename…").trigger()
    menu.close()
    dialog = view.edit_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.title_edit.text() == "Check urgent emails"
    dialog.title_edit.setText("   ")
    dialog.ok_button.click()
    settle(fake_window)
    assert dialog.isVisible(), "a refused title keeps the dialog open"
    assert dialog.error_label.text() == "The title must not be empty or only spaces."
    dialog.title_edit.setText("Check urgent emails from the bank")
    dialog.ok_button.click()
    settle(fake_window)
    assert view.edit_dialog is None, "saved: the dialog closed"
    assert fake_services.subconscious.tasks["user-1"].title == "Check urgent emails from the bank"
    task = view.task("user-1")
    assert task is not None and task.title == "Check urgent emails from the bank"


@pytest.mark.qt_log_ignore(OFFSCREEN_POPUP_WARNING, OFFSCREEN_TOP_LEVEL_WARNING)
def test_schedule_from_the_rows_menu(
    fake_window: IntelligenceWindow, fake_services: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    menu = open_menu(focus_row(view, "user-2"))
    menu_action(menu, "Schedule…").trigger()
    menu.close()
    dialog = view.edit_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.schedule_combo.currentText() == "Weekdays at 9:00", "it opens on the current schedule"
    choose_schedule(dialog, CUSTOM_CRON)
    dialog.cron_edit.setText("61 * * * *")
    assert not dialog.ok_button.isEnabled() and dialog.cron_error_label.text()
    dialog.cron_edit.setText("30 7 * * *")
    assert dialog.ok_button.isEnabled()
    dialog.ok_button.click()
    settle(fake_window)
    assert view.edit_dialog is None, "saved: the dialog closed"
    assert fake_services.subconscious.tasks["user-2"].recurrence == "cron:30 7 * * *"


@pytest.mark.qt_log_ignore(OFFSCREEN_POPUP_WARNING)
def test_a_heartbeat_task_cannot_be_renamed_and_the_menu_says_why(
    fake_window: IntelligenceWindow, fake_bridge: Any, fakes: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    fake_bridge.tasks_changed.emit([fakes.make_task("Water the plants", source="system", task_id="hb-1",
                                                    origin="heartbeat_md")])
    menu = open_menu(focus_row(view, "hb-1"))
    texts = [a.text() for a in menu.actions() if a.text()]
    assert "Rename…" not in texts
    rename = menu_action(menu, "Rename in HEARTBEAT.md")
    assert not rename.isEnabled()
    assert "HEARTBEAT.md" in rename.toolTip() and menu.toolTipsVisible()
    menu.close()
    settle(fake_window)


@pytest.mark.qt_log_ignore(OFFSCREEN_POPUP_WARNING, OFFSCREEN_TOP_LEVEL_WARNING)
def test_f2_renames_the_current_row_and_shift_f10_opens_its_menu(
    fake_window: IntelligenceWindow, qtbot: Any, settle: Any
) -> None:
    view = tasks_of(fake_window)
    lst = focus_row(view, "user-2")
    qtbot.keyClick(lst, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    menus = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMenu) and w.isVisible()]
    assert len(menus) == 1, "Shift+F10 opens the row's menu"
    menus[0].close()
    qtbot.keyClick(lst, Qt.Key.Key_F2)
    dialog = view.edit_dialog
    assert dialog is not None and dialog.isVisible() and dialog.title_edit.text() == "Send daily summary to Slack"
    dialog.reject()
    settle(fake_window)


@pytest.mark.qt_log_ignore(OFFSCREEN_POPUP_WARNING, OFFSCREEN_TOP_LEVEL_WARNING)
def test_when_and_what_shows_the_rule_and_saves_the_users_own(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any
) -> None:
    from openhuman_desktop.qt.intelligence.subconscious.task_edit import RuleDialog

    view = tasks_of(fake_window)
    service = fake_services.subconscious
    menu = open_menu(focus_row(view, "user-1"))
    menu_action(menu, "When and what…").trigger()
    menu.close()
    settle(fake_window)
    dialog = view.edit_dialog
    assert isinstance(dialog, RuleDialog) and dialog.isVisible()
    assert dialog.condition_edit.text() == "Check urgent emails" and dialog.kind_combo.currentData() == "act"
    assert "Read from the title" in dialog.source_label.text() and not dialog.reset_button.isEnabled()
    dialog.watch_edit.setText("../mail")
    dialog.ok_button.click()
    settle(fake_window)
    assert dialog.isVisible(), "a refused rule keeps the dialog open with what was typed"
    assert dialog.error_label.text() == (
        "The place to watch '../mail' is not a path inside the workspace folder.")
    assert dialog.watch_edit.text() == "../mail"
    dialog.condition_edit.setText("")
    assert not dialog.ok_button.isEnabled(), "a rule without a condition cannot be saved"
    dialog.watch_edit.setText("inbox/")
    dialog.condition_edit.setText("a mail says URGENT")
    dialog.kind_combo.setCurrentIndex(dialog.kind_combo.findData("escalate"))
    dialog.ok_button.click()
    settle(fake_window)
    assert view.edit_dialog is None, "saved: the dialog closed"
    rule = service.rules.for_task("user-1", "Check urgent emails")
    assert (rule.watch_paths, rule.condition, rule.kind, rule.source) == (("inbox/",), "a mail says URGENT",
                                                                          "escalate", "user")
    assert service.called("tasks_rule_set")[-1][1] == {"watch": "inbox/", "condition": "a mail says URGENT",
                                                       "action": None, "kind": "escalate", "reset": False}
    qrun_open = view.open_rule("user-1")
    fake_window.jobs.spawn(qrun_open, name="test-open-rule")
    settle(fake_window)
    again = view.edit_dialog
    assert isinstance(again, RuleDialog) and "Your own rule" in again.source_label.text()
    again.reset_button.click()
    settle(fake_window)
    assert view.edit_dialog is None and service.rules.for_task("user-1", "Check urgent emails").source == "rule"
