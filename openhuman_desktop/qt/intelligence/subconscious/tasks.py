"""Active Tasks: system tasks, the user's own tasks (toggle, intent, delete with undo) and "Add task"."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from typing import Protocol

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QBoxLayout,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop import recurrence
from openhuman_desktop.errors import InvalidInput, UserFacingError
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.muted_label import EmptyState, MutedLabel
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.subconscious.task_card import TaskCard
from openhuman_desktop.qt.intelligence.subconscious.task_edit import (
    RESET,
    RenameDialog,
    RuleDialog,
    ScheduleDialog,
    TaskEditDialog,
    cron_problem,
    one_sentence,
)
from openhuman_desktop.qt.intelligence.subconscious.task_list import TaskListView
from openhuman_desktop.qt.intelligence.subconscious.task_model import CUSTOM_CRON, SCHEDULE_CHOICES, TaskListModel
from openhuman_desktop.qt.intelligence.theme import em, make_primary
from openhuman_desktop.qt.intelligence.time_text import clock_time
from openhuman_desktop.qt.intelligence.undo_bar import UndoBar
from openhuman_desktop.store import Task

__all__ = ["AddTaskView", "TaskService", "TasksView", "cron_problem"]

log = logging.getLogger(__name__)

RULE_FIELDS = {"watch": "place to watch", "condition": "condition", "action": "action", "kind": "kind of action"}
"""How a refusal names the rule's field: "The place to watch '../mail' is not a path inside the workspace …"."""


class TaskService(Protocol):
    """What the tasks section needs from the subconscious service."""

    async def tasks_list(self, enabled_only: bool = False) -> list[Task]:
        ...

    async def tasks_add(self, title: object, recurrence_text: object = recurrence.PENDING) -> Task:
        ...

    async def tasks_update(
        self, task_id: object, *, title: object = None, enabled: object = None, recurrence_text: object = None,
        intent: object = None,
    ) -> Task:
        ...

    async def tasks_remove(self, task_id: object) -> str:
        ...


class RuleService(Protocol):
    """What "When and what…" needs: a task's rule, and the user's changes to it."""

    async def tasks_rule(self, task_id: object) -> dict[str, object]:
        ...

    async def tasks_rule_set(self, task_id: object, *, watch: object = None, condition: object = None,
                             action: object = None, kind: object = None, reset: object = False) -> dict[str, object]:
        ...


class AddTaskView(QFrame):
    """Text field, schedule choice (with a validated free cron field) and "Add"."""

    add_requested = Signal(str, str)   # title, recurrence

    def __init__(self, now: Callable[[], float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("addTask")
        self._now = now
        self._is_busy = False
        pad = max(4, em(self) // 3)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, pad, 0, 0)
        outer.setSpacing(pad)
        # The field and its controls share a line while the field keeps a usable width; below that (the
        # window at its minimum size) the schedule and "Add" go on a line of their own under it.
        row = self._row = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        row.setSpacing(pad * 2)
        outer.addLayout(row)
        controls = self._controls = QHBoxLayout()
        controls.setSpacing(pad * 2)
        self.title_edit = QLineEdit(self)
        self.title_edit.setPlaceholderText("Add a task, e.g. Check urgent emails")
        self.title_edit.setAccessibleName("New task")
        self.title_edit.setClearButtonEnabled(True)
        self.title_edit.setMaxLength(2000)
        self.title_edit.textChanged.connect(self._on_title_edit_text_changed)
        self.title_edit.returnPressed.connect(self._on_title_edit_return_pressed)
        row.addWidget(self.title_edit, 1)
        self.schedule_combo = QComboBox(self)
        self.schedule_combo.setAccessibleName("Schedule")
        self.schedule_combo.setToolTip("How often the assistant looks at this task")
        for label, value in SCHEDULE_CHOICES:
            self.schedule_combo.addItem(label, value)
        self.schedule_combo.currentIndexChanged.connect(self._on_schedule_combo_current_index_changed)
        controls.addWidget(self.schedule_combo)
        controls.addStretch(1)
        self.cron_edit = QLineEdit(self)
        self.cron_edit.setPlaceholderText("min hour day month weekday")
        self.cron_edit.setAccessibleName("Cron expression")
        self.cron_edit.setToolTip("Five fields: minute hour day-of-month month weekday, e.g. 30 8 * * 1-5")
        self.cron_edit.textChanged.connect(self._on_cron_edit_text_changed)
        self.cron_edit.returnPressed.connect(self._on_title_edit_return_pressed)
        self.add_button = QPushButton("Add", self)
        make_primary(self.add_button)
        self.add_button.setAccessibleName("Add task")
        self.add_button.setDefault(False)
        self.add_button.clicked.connect(self._on_add_button_clicked)
        controls.addWidget(self.add_button)
        row.addLayout(controls)
        self.cron_row = QWidget(self)   # only for "Custom cron…": a row of its own keeps the task text wide
        cron_layout = QHBoxLayout(self.cron_row)
        cron_layout.setContentsMargins(0, 0, 0, 0)
        cron_layout.setSpacing(pad * 2)
        self.cron_label = MutedLabel("Cron (local time):", self.cron_row)
        self.cron_label.setBuddy(self.cron_edit)
        cron_layout.addWidget(self.cron_label)
        self.cron_edit.setParent(self.cron_row)
        cron_layout.addWidget(self.cron_edit, 1)
        self.cron_row.hide()
        outer.addWidget(self.cron_row)
        self.hint_label = MutedLabel("", self, factor=0.9)
        self.hint_label.setAccessibleName("Schedule hint")
        outer.addWidget(self.hint_label)
        self.cron_error_label = ErrorLabel(self)
        self.cron_error_label.setAccessibleName("Cron problem")
        outer.addWidget(self.cron_error_label)
        self.error_label = ErrorLabel(self)
        outer.addWidget(self.error_label)
        self._validate()

    # --- layout ---------------------------------------------------------------------------------

    @property
    def is_stacked(self) -> bool:
        """Whether the schedule and "Add" are on their own line under the field (a narrow window)."""
        return self._row.direction() == QBoxLayout.Direction.TopToBottom

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        needed = (em(self) * 12 + self._row.spacing() * 2 + self.schedule_combo.sizeHint().width()
                  + self.add_button.sizeHint().width())
        direction = QBoxLayout.Direction.TopToBottom if event.size().width() < needed \
            else QBoxLayout.Direction.LeftToRight
        if self._row.direction() != direction:
            self._row.setDirection(direction)

    # --- state ----------------------------------------------------------------------------------

    @property
    def recurrence_text(self) -> str:
        value = str(self.schedule_combo.currentData())
        if value == CUSTOM_CRON:
            return recurrence.CRON_PREFIX + " ".join(self.cron_edit.text().split())
        return value

    def _schedule_problem(self) -> str | None:
        if self.schedule_combo.currentData() != CUSTOM_CRON:
            return None
        text = self.cron_edit.text().strip()
        if not text:
            return "Type a cron expression: minute hour day month weekday, e.g. 30 8 * * 1-5"
        return cron_problem(text)

    def _validate(self) -> None:
        problem = self._schedule_problem()
        typed = bool(self.cron_edit.text().strip())
        self.cron_error_label.show_text(problem if problem is not None and typed else "")
        hint = self._schedule_hint(problem)
        self.hint_label.setText(hint)
        self.hint_label.setVisible(bool(hint))
        self.add_button.setEnabled(bool(self.title_edit.text().strip()) and problem is None and not self._is_busy)

    def _schedule_hint(self, problem: str | None) -> str:
        if problem is not None:
            return ""
        schedule = recurrence.parse(self.recurrence_text)
        if not schedule.is_cron:
            return ""
        try:
            fire = recurrence.next_run(schedule, self._now())
        except InvalidInput:
            return ""
        return f"First run {clock_time(fire, self._now())}" if fire is not None else ""

    @property
    def can_add(self) -> bool:
        return self.add_button.isEnabled()

    def set_busy(self, busy: bool) -> None:
        """While an add runs, "Add" waits; the field stays yours to write the next task in."""
        self._is_busy = busy
        self.add_button.setText("Adding…" if busy else "Add")
        self._validate()

    def show_error(self, text: str) -> None:
        self.error_label.show_text(text)

    def take_title(self, title: str) -> None:
        """An add of ``title`` begins: the field empties at once, for the next task (``give_back`` undoes it)."""
        if self.title_edit.text() == title:
            self.title_edit.clear()

    def give_back(self, title: str, problem: str) -> None:
        """The add of ``title`` failed: the text comes back unless something new was typed meanwhile (kept)."""
        if self.title_edit.text().strip():
            short = title if len(title) <= 60 else title[:57] + "…"
            self.show_error(f"“{short}” was not added: {problem}")
            return
        self.title_edit.setText(title)
        self.show_error(problem)

    def reset(self) -> None:
        """After a successful add: the old error goes; what was typed meanwhile and the schedule stay."""
        self.error_label.clear_text()
        self.title_edit.setFocus()

    # --- slots ----------------------------------------------------------------------------------

    def _on_title_edit_text_changed(self, _text: str) -> None:
        self.error_label.clear_text()
        self._validate()

    def _on_cron_edit_text_changed(self, _text: str) -> None:
        self._validate()

    def _on_schedule_combo_current_index_changed(self, _index: int) -> None:
        custom = self.schedule_combo.currentData() == CUSTOM_CRON
        self.cron_row.setVisible(custom)
        if custom:
            self.cron_edit.setFocus()
        self._validate()

    def _on_title_edit_return_pressed(self) -> None:
        if not self.title_edit.text().strip():
            self.show_error("Type what the assistant should do first.")
            return
        if self.can_add:
            self.add_requested.emit(self.title_edit.text(), self.recurrence_text)

    def _on_add_button_clicked(self) -> None:
        if self.can_add:
            self.add_requested.emit(self.title_edit.text(), self.recurrence_text)


class TasksView(QWidget):
    """The Active Tasks section (a list model and view) plus the Undo banner (``undo_bar``) and the Add-task row
    (``add_view``), both placed by the window.

    One model row per task and no widget per task: rows are painted by a delegate, and only the hovered
    and the current row get a real ``TaskCard`` with the switch, the intent menu and the delete button.
    """

    def __init__(self, service: TaskService, now: Callable[[], float], jobs: Jobs,
                 parent: QWidget | None = None, rules: RuleService | None = None) -> None:
        super().__init__(parent)
        self._service = service
        self._rules = rules
        self._now = now
        self._jobs = jobs
        self._removed: Task | None = None
        self._is_loaded = False
        self.edit_dialog: TaskEditDialog | None = None   # the open Rename / Schedule dialog
        self.model = TaskListModel(now, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        pad = max(4, em(self) // 3)
        layout.setSpacing(pad)
        header = QHBoxLayout()
        self.header = SectionHeader("Active Tasks", self)
        header.addWidget(self.header)
        self.count_label = MutedLabel("", self)
        self.count_label.setAccessibleName("Number of tasks")
        header.addWidget(self.count_label)
        header.addStretch(1)
        layout.addLayout(header)
        self.list_error = ErrorLabel(self)
        layout.addWidget(self.list_error)
        self.empty_label = EmptyState("No tasks yet. Add one below, for example “Check urgent emails”.", self)
        self.empty_label.setAccessibleName("No tasks yet")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.empty_label.setContentsMargins(pad * 2, pad, 0, pad)
        self.empty_label.hide()
        self.list_view = TaskListView(self.model, now, self)
        self.list_view.hide()
        layout.addWidget(self.list_view)
        layout.addWidget(self.empty_label)
        # The window places the Undo banner and the Add-task row below the scrolled column, always in sight
        # (under a long list of tasks the banner was below the fold, where nobody saw it).
        self.undo_bar = UndoBar(self)
        self.undo_bar.undo_requested.connect(self._on_undo_bar_undo_requested)
        self.add_view = AddTaskView(now, self)
        self.add_view.hide()
        self.add_view.add_requested.connect(self._on_add_view_add_requested)
        self.list_view.enabled_toggled.connect(self._on_list_view_enabled_toggled)
        self.list_view.delete_requested.connect(self._on_list_view_delete_requested)
        self.list_view.intent_chosen.connect(self._on_list_view_intent_chosen)
        self.list_view.rename_requested.connect(self._on_list_view_rename_requested)
        self.list_view.schedule_requested.connect(self._on_list_view_schedule_requested)
        self.list_view.rule_requested.connect(self._on_list_view_rule_requested)
        self.model.counts_changed.connect(self._on_model_counts_changed)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_app_focus_changed)

    # --- queries --------------------------------------------------------------------------------

    def task_ids(self) -> list[str]:
        """The tasks' ids in display order."""
        return self.model.task_ids()

    def tasks(self) -> list[Task]:
        return self.model.tasks()

    def task(self, task_id: str) -> Task | None:
        return self.model.task(task_id)

    def task_by_title(self, title: str) -> Task | None:
        return next((task for task in self.model.tasks() if task.title == title), None)

    def row_of(self, task_id: str) -> int | None:
        return self.model.row_of(task_id)

    def error_of(self, task_id: str) -> str:
        """The error shown on a task's row ("" when there is none)."""
        return self.model.error(task_id)

    def is_busy(self, task_id: str) -> bool:
        return self.model.is_busy(task_id)

    def open_row(self, task_id: str) -> TaskCard | None:
        """The interactive row of a task, opened as if the mouse were on it (``None`` for an unknown task)."""
        return self.list_view.open_row(task_id)

    # --- loading and live updates ---------------------------------------------------------------

    async def refresh(self) -> None:
        """Reload every task."""
        try:
            tasks = await self._service.tasks_list()
        except UserFacingError as exc:
            self.list_error.show_text(f"Could not load the tasks: {exc}")
            return
        self.list_error.clear_text()
        self._is_loaded = True
        self.model.set_tasks(tasks)
        self._update_states()

    def on_tasks_changed(self, tasks: Iterable[Task]) -> None:
        """Many changes at once (the bridge's batches: a tick changes every due task's schedule)."""
        self.model.upsert_many(tasks)

    def on_task_removed(self, task_id: str) -> None:
        self.model.remove(task_id)

    def refresh_times(self) -> None:
        """Times are computed when rows are painted: repaint the visible ones."""
        self.list_view.refresh_times()

    def _update_states(self) -> None:
        total = self.model.rowCount()
        users = self.model.user_count
        if not total:
            empty = "No tasks yet. Add one below, for example “Check urgent emails”."
        else:
            empty = "None of your own yet. Add one below, for example “Check urgent emails”."
        if self.empty_label.text() != empty:
            self.empty_label.setText(empty)
        self.empty_label.setVisible(self._is_loaded and users == 0)
        if total and self.list_view.isHidden():
            # Shown rows are measured at once: at the width they will have, not a hidden widget's default.
            self.list_view.task_delegate.set_row_width(self.contentsRect().width())
        self.list_view.setVisible(total > 0)
        count = f"{total} · {users} yours" if total else ""
        if self.count_label.text() != count:
            self.count_label.setText(count)

    # --- actions (awaited directly by tests) ----------------------------------------------------

    async def add_task(self, title: str, recurrence_text: str) -> Task | None:
        """Add a user task; an error stays next to the field, and so does the text."""
        view = self.add_view
        if not title.strip():
            view.show_error("Type what the assistant should do first.")
            return None
        view.set_busy(True)
        view.take_title(title)
        try:
            task = await self._service.tasks_add(title, recurrence_text)
        except UserFacingError as exc:
            view.give_back(title, str(exc))
            return None
        finally:
            view.set_busy(False)
        self.model.upsert(task)
        view.reset()
        return task

    async def set_enabled(self, task_id: str, enabled: bool) -> None:
        await self._update(task_id, enabled=enabled)

    async def set_intent(self, task_id: str, intent: str) -> None:
        await self._update(task_id, intent=intent)

    async def _update(self, task_id: str, **changes: object) -> None:
        """Change a task from its row; on failure the row shows its stored state again, and the error."""
        model = self.model
        if model.task(task_id) is None:
            return
        model.set_busy(task_id, True)
        model.set_error(task_id, "")
        try:
            task = await self._service.tasks_update(task_id, **changes)
        except UserFacingError as exc:
            model.set_error(task_id, str(exc))
        else:
            if model.task(task_id) is not None:   # not deleted meanwhile
                model.upsert(task)
        finally:
            model.set_busy(task_id, False)   # the row's controls show the stored state again

    def open_rename(self, task_id: str) -> TaskEditDialog | None:
        """"Rename…" (row menu or F2): a small dialog; HEARTBEAT.md tasks are renamed in that file."""
        task = self.model.task(task_id)
        if task is None or task.origin == "heartbeat_md":
            return None
        return self._open_dialog(RenameDialog(task, self))

    def open_schedule(self, task_id: str) -> TaskEditDialog | None:
        """"Schedule…" (row menu): the schedule choices of Add task, on the task's own."""
        task = self.model.task(task_id)
        if task is None:
            return None
        return self._open_dialog(ScheduleDialog(task, self._now, self))

    async def open_rule(self, task_id: str) -> TaskEditDialog | None:
        """"When and what…" (row menu): the task's rule as the heartbeat judges it, to read and change."""
        task = self.model.task(task_id)
        if task is None or self._rules is None:
            return None
        try:
            rule = await self._rules.tasks_rule(task_id)
        except UserFacingError as exc:
            self.model.set_error(task_id, str(exc))
            return None
        if self.model.task(task_id) is None:  # deleted meanwhile
            return None
        return self._open_dialog(RuleDialog(task, rule, self))

    def _open_dialog(self, dialog: TaskEditDialog) -> TaskEditDialog:
        if self.edit_dialog is not None:
            self.edit_dialog.close()
        self.edit_dialog = dialog
        dialog.submitted.connect(self._on_edit_dialog_submitted)
        dialog.finished.connect(self._on_edit_dialog_finished)
        dialog.open()   # never exec(): the loop must keep running (STYLE G2)
        return dialog

    async def save_edit(self, dialog: TaskEditDialog, task_id: str, value: str) -> bool:
        """Send a dialog's new title, schedule or rule; the dialog closes when the service took it."""
        if isinstance(dialog, RuleDialog):
            return await self._save_rule(dialog, task_id, value)
        is_rename = isinstance(dialog, RenameDialog)
        changes: dict[str, object] = {"title": value} if is_rename else {"recurrence_text": value}
        dialog.set_busy(True)
        try:
            task = await self._service.tasks_update(task_id, **changes)
        except UserFacingError as exc:
            dialog.set_busy(False)
            dialog.show_error(one_sentence(exc, "title" if is_rename else "schedule"))
            return False
        dialog.set_busy(False)
        if self.model.task(task_id) is not None:
            self.model.upsert(task)
        dialog.accept()
        return True

    async def _save_rule(self, dialog: RuleDialog, task_id: str, value: str) -> bool:
        if self._rules is None:
            return False
        changes: dict[str, object] = {"reset": True} if value == RESET else dict(json.loads(value))
        dialog.set_busy(True)
        try:
            if changes:
                await self._rules.tasks_rule_set(task_id, **changes)
        except UserFacingError as exc:
            dialog.set_busy(False)
            field = RULE_FIELDS.get(getattr(exc, "param", ""), "rule")
            dialog.show_error(one_sentence(exc, field))
            return False
        dialog.set_busy(False)
        dialog.accept()
        return True

    async def remove_task(self, task_id: str) -> bool:
        """Delete a user task; the row goes only when that worked, and "Undo" is offered."""
        model = self.model
        task = model.task(task_id)
        if task is None:
            return False
        model.set_busy(task_id, True)
        model.set_error(task_id, "")
        try:
            await self._service.tasks_remove(task_id)
        except UserFacingError as exc:
            model.set_error(task_id, str(exc))
            model.set_busy(task_id, False)
            return False
        self._removed = model.task(task_id) or task
        model.remove(task_id)
        self.undo_bar.offer(self._removed.title)
        return True

    async def undo_remove(self) -> Task | None:
        """Bring the last deleted task back (same title, schedule, intent and on/off state)."""
        removed = self._removed
        if removed is None:
            return None
        self.undo_bar.undo_button.setEnabled(False)
        try:
            task = await self._service.tasks_add(removed.title, removed.recurrence)
            changes: dict[str, object] = {}
            if task.intent != removed.intent:
                changes["intent"] = removed.intent
            if task.enabled != removed.enabled:
                changes["enabled"] = removed.enabled
            if changes:
                task = await self._service.tasks_update(task.id, **changes)
        except UserFacingError as exc:
            self.undo_bar.error_label.show_text(str(exc))
            self.undo_bar.undo_button.setEnabled(True)
            return None
        self._removed = None
        self.undo_bar.withdraw()
        self.model.upsert(task)
        return task

    # --- slots (trampolines) --------------------------------------------------------------------

    def _on_add_view_add_requested(self, title: str, recurrence_text: str) -> None:
        self._jobs.spawn(self.add_task(title, recurrence_text), name="add-task")

    def _on_list_view_enabled_toggled(self, task_id: str, enabled: bool) -> None:
        self._jobs.spawn(self.set_enabled(task_id, enabled), name="toggle-task")

    def _on_list_view_delete_requested(self, task_id: str) -> None:
        self._jobs.spawn(self.remove_task(task_id), name="remove-task")

    def _on_list_view_intent_chosen(self, task_id: str, intent: str) -> None:
        self._jobs.spawn(self.set_intent(task_id, intent), name="task-intent")

    def _on_list_view_rename_requested(self, task_id: str) -> None:
        self.open_rename(task_id)

    def _on_list_view_schedule_requested(self, task_id: str) -> None:
        self.open_schedule(task_id)

    def _on_list_view_rule_requested(self, task_id: str) -> None:
        self._jobs.spawn(self.open_rule(task_id), name="task-rule")

    def _on_edit_dialog_submitted(self, task_id: str, value: str) -> None:
        dialog = self.edit_dialog
        if dialog is not None:
            self._jobs.spawn(self.save_edit(dialog, task_id, value), name="edit-task")

    def _on_edit_dialog_finished(self, _result: int) -> None:
        if self.edit_dialog is not None and not self.edit_dialog.isVisible():
            self.edit_dialog = None
        self.list_view.setFocus(Qt.FocusReason.OtherFocusReason)

    def _on_model_counts_changed(self) -> None:
        self._update_states()

    def _on_app_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        self.list_view.on_focus_changed(old, new)

    def _on_undo_bar_undo_requested(self) -> None:
        self._jobs.spawn(self.undo_remove(), name="undo-remove-task")
