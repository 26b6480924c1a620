"""Small dialogs to rename a task, to change its schedule and to edit its rule (what it watches, waits for and
does), opened with ``open()``, never ``exec()``."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop import recurrence
from openhuman_desktop.errors import InvalidInput, UserFacingError
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.muted_label import MutedLabel
from openhuman_desktop.qt.intelligence.subconscious.task_model import CUSTOM_CRON, SCHEDULE_CHOICES, describe_schedule
from openhuman_desktop.qt.intelligence.theme import em
from openhuman_desktop.qt.intelligence.time_text import clock_time
from openhuman_desktop.store import Task

__all__ = ["RenameDialog", "RuleDialog", "ScheduleDialog", "TaskEditDialog", "one_sentence"]

KINDS = (("A small action: tell, remind, summarise one item, add one line", "act"),
         ("Needs thought or several steps: the reasoning model, a card before any write", "escalate"))
RESET = "reset"
"""The value a :class:`RuleDialog` submits to go back to the rule read from the title."""


def one_sentence(exc: UserFacingError, what: str) -> str:
    """The service's refusal as one sentence: "The title must not be empty or only spaces."."""
    text = f"The {what} {exc.problem}" if isinstance(exc, InvalidInput) else str(exc)
    return text if text.endswith((".", "!", "?")) else f"{text}."


def cron_problem(expression: str) -> str | None:
    """What is wrong with a 5-field cron expression, or None when it is valid."""
    try:
        recurrence.parse(recurrence.CRON_PREFIX + expression)
    except InvalidInput as exc:
        return exc.problem[0].upper() + exc.problem[1:]
    return None


class TaskEditDialog(QDialog):
    """What both dialogs share: a field, an error line, OK / Cancel, a busy state while the service works.

    ``submitted`` carries the task id and the new value; the owner calls the service and then either
    :meth:`accept` (it worked) or :meth:`show_error` (the dialog stays open with the text kept).
    """

    submitted = Signal(str, str)

    def __init__(self, task: Task, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.task = task
        self.setWindowTitle(title)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        pad = max(4, em(self) // 3)
        self.body = QVBoxLayout(self)
        self.body.setSpacing(pad * 2)
        self.task_label = MutedLabel(task.title, self, factor=0.9)
        self.task_label.setWordWrap(True)
        self.task_label.setAccessibleName("Task")
        self.error_label = ErrorLabel(self)
        self.error_label.setWordWrap(True)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert isinstance(ok, QPushButton)
        self.ok_button = ok
        self.ok_button.setAccessibleName("Save")
        cancel = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        if cancel is not None:
            cancel.setAccessibleName("Cancel")
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        self.setMinimumWidth(em(self) * 24)

    def _finish_layout(self) -> None:
        self.body.addWidget(self.error_label)
        self.body.addWidget(self.buttons)

    def value(self) -> str:
        raise NotImplementedError

    def set_busy(self, busy: bool) -> None:
        self.ok_button.setEnabled(not busy and self.can_submit())
        self.ok_button.setText("Saving…" if busy else "OK")

    def can_submit(self) -> bool:
        return True

    def show_error(self, text: str) -> None:
        self.error_label.show_text(text)

    def _validate(self) -> None:
        self.ok_button.setEnabled(self.can_submit())

    def _on_buttons_accepted(self) -> None:
        if self.can_submit():
            self.error_label.clear_text()
            self.submitted.emit(self.task.id, self.value())


class RenameDialog(TaskEditDialog):
    """"Rename…": the title in a field, selected."""

    def __init__(self, task: Task, parent: QWidget | None = None) -> None:
        super().__init__(task, "Rename task", parent)
        self.task_label.hide()   # the field holds the title
        label = QLabel("New title:", self)
        self.title_edit = QLineEdit(task.title, self)
        self.title_edit.setAccessibleName("New title")
        self.title_edit.setMaxLength(2000)
        self.title_edit.selectAll()
        self.title_edit.textChanged.connect(self._on_title_edit_text_changed)
        label.setBuddy(self.title_edit)
        self.body.addWidget(label)
        self.body.addWidget(self.title_edit)
        self._finish_layout()

    def value(self) -> str:
        return self.title_edit.text()

    def _on_title_edit_text_changed(self, _text: str) -> None:
        self.error_label.clear_text()


class ScheduleDialog(TaskEditDialog):
    """"Schedule…": the same choices as Add task, with a checked free cron field."""

    def __init__(self, task: Task, now: Callable[[], float], parent: QWidget | None = None) -> None:
        super().__init__(task, "Change schedule", parent)
        self._now = now
        self.body.addWidget(self.task_label)
        self.task_label.setText(f"{task.title} — now {describe_schedule(task.recurrence).lower()}")
        row = QHBoxLayout()
        label = QLabel("Schedule:", self)
        self.schedule_combo = QComboBox(self)
        self.schedule_combo.setAccessibleName("Schedule")
        for words, data in SCHEDULE_CHOICES:
            self.schedule_combo.addItem(words, data)
        label.setBuddy(self.schedule_combo)
        row.addWidget(label)
        row.addWidget(self.schedule_combo, 1)
        self.body.addLayout(row)
        self.cron_edit = QLineEdit(self)
        self.cron_edit.setPlaceholderText("min hour day month weekday, e.g. 30 8 * * 1-5")
        self.cron_edit.setAccessibleName("Cron expression")
        self.body.addWidget(self.cron_edit)
        self.cron_error_label = ErrorLabel(self)
        self.cron_error_label.setAccessibleName("Cron problem")
        self.body.addWidget(self.cron_error_label)
        self.hint_label = MutedLabel("", self, factor=0.9)
        self.hint_label.setAccessibleName("Schedule hint")
        self.body.addWidget(self.hint_label)
        self._finish_layout()
        index = self.schedule_combo.findData(task.recurrence)
        if index < 0 and task.recurrence.startswith(recurrence.CRON_PREFIX):
            index = self.schedule_combo.findData(CUSTOM_CRON)
            self.cron_edit.setText(task.recurrence[len(recurrence.CRON_PREFIX):])
        self.schedule_combo.setCurrentIndex(max(0, index))
        self.schedule_combo.currentIndexChanged.connect(self._on_schedule_combo_current_index_changed)
        self.cron_edit.textChanged.connect(self._on_cron_edit_text_changed)
        self._update()

    @property
    def is_custom(self) -> bool:
        return bool(self.schedule_combo.currentData() == CUSTOM_CRON)

    def value(self) -> str:
        if self.is_custom:
            return recurrence.CRON_PREFIX + " ".join(self.cron_edit.text().split())
        return str(self.schedule_combo.currentData())

    def _problem(self) -> str | None:
        if not self.is_custom:
            return None
        text = self.cron_edit.text().strip()
        return "Type a cron expression: minute hour day month weekday." if not text else cron_problem(text)

    def can_submit(self) -> bool:
        return self._problem() is None

    def _update(self) -> None:
        self.cron_edit.setVisible(self.is_custom)
        problem = self._problem()
        self.cron_error_label.show_text(problem if problem and self.cron_edit.text().strip() else "")
        hint = ""
        if problem is None:
            schedule = recurrence.parse(self.value())
            if schedule.is_cron:
                try:
                    fire = recurrence.next_run(schedule, self._now())
                except InvalidInput:
                    fire = None
                hint = f"Next run {clock_time(fire, self._now())}" if fire is not None else ""
        self.hint_label.setText(hint)
        self.hint_label.setVisible(bool(hint))
        self._validate()

    def _on_schedule_combo_current_index_changed(self, _index: int) -> None:
        self._update()
        if self.is_custom:
            self.cron_edit.setFocus()

    def _on_cron_edit_text_changed(self, _text: str) -> None:
        self.error_label.clear_text()
        self._update()


class RuleDialog(TaskEditDialog):
    """"When and what…": what the task watches, the condition it waits for, what the assistant does then and
    how (a small action or one that needs thought), as the heartbeat judges it; the user's own rule wins over
    the one read from the title, and "Use the title's reading" goes back to it.

    ``value()`` is the changed fields as JSON (``{"watch": …, "condition": …, "action": …, "kind": …}``), or
    :data:`RESET`.
    """

    def __init__(self, task: Task, rule: Mapping[str, object], parent: QWidget | None = None) -> None:
        super().__init__(task, "When and what", parent)
        self._rule = dict(rule)
        self._reset = False
        self.body.addWidget(self.task_label)
        self.source_label = MutedLabel(self._source_text(), self, factor=0.9)
        self.source_label.setAccessibleName("Where the rule comes from")
        self.source_label.setWordWrap(True)
        self.body.addWidget(self.source_label)
        self.watch_edit = self._field("Watches:", "watch", "Files or folders, e.g. tracking.txt, inbox/ — or "
                                      "“what I tell you”; empty: any change with the condition's words")
        self.condition_edit = self._field("Waits for:", "condition", "e.g. the parcel is delivered")
        self.action_edit = self._field("Then:", "action", "e.g. tell me")
        label = QLabel("How:", self)
        self.kind_combo = QComboBox(self)
        self.kind_combo.setAccessibleName("How")
        for words, data in KINDS:
            self.kind_combo.addItem(words, data)
        self.kind_combo.setCurrentIndex(max(0, self.kind_combo.findData(self._rule.get("kind"))))
        label.setBuddy(self.kind_combo)
        self.body.addWidget(label)
        self.body.addWidget(self.kind_combo)
        self.reset_button = QPushButton("Use the title's reading", self)
        self.reset_button.setAccessibleName("Use the title's reading")
        self.reset_button.setEnabled(self._rule.get("source") == "user")
        self.reset_button.clicked.connect(self._on_reset_button_clicked)
        row = QHBoxLayout()
        row.addWidget(self.reset_button)
        row.addStretch(1)
        self.body.addLayout(row)
        self._finish_layout()
        self.setMinimumWidth(em(self) * 30)
        self._validate()

    def _field(self, words: str, key: str, placeholder: str) -> QLineEdit:
        label = QLabel(words, self)
        edit = QLineEdit(str(self._rule.get(key) or ""), self)
        edit.setAccessibleName(words.rstrip(":"))
        edit.setPlaceholderText(placeholder)
        edit.setMaxLength(500)
        edit.textChanged.connect(self._on_field_text_changed)
        label.setBuddy(edit)
        self.body.addWidget(label)
        self.body.addWidget(edit)
        return edit

    def _source_text(self) -> str:
        if self._rule.get("source") == "user":
            return "Your own rule: the heartbeat judges this task by it."
        return "Read from the title. Change what is not right; your rule then wins."

    def changes(self) -> dict[str, str]:
        """The fields the user changed (only those are sent)."""
        now = {"watch": " ".join(self.watch_edit.text().split()),
               "condition": " ".join(self.condition_edit.text().split()),
               "action": " ".join(self.action_edit.text().split()),
               "kind": str(self.kind_combo.currentData())}
        return {key: value for key, value in now.items() if value != str(self._rule.get(key) or "")}

    def value(self) -> str:
        return RESET if self._reset else json.dumps(self.changes())

    def can_submit(self) -> bool:
        return bool(self.condition_edit.text().strip() and self.action_edit.text().strip())

    def _on_field_text_changed(self, _text: str) -> None:
        self.error_label.clear_text()
        self._validate()

    def _on_reset_button_clicked(self) -> None:
        self._reset = True
        self.error_label.clear_text()
        self.submitted.emit(self.task.id, RESET)
