"""Active Tasks: system tasks, the user's own tasks (toggle, intent, delete with undo) and "Add task"."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QEvent, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QContextMenuEvent,
    QEnterEvent,
    QFocusEvent,
    QKeyEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QSizePolicy,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.errors import InvalidInput, UserFacingError
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.widgets import (
    Badge,
    EmptyState,
    ErrorLabel,
    MutedLabel,
    PanelFrame,
    SectionHeader,
    StatusDot,
    ToggleSwitch,
    clock_time,
    em,
    exact_time,
    make_primary,
    muted,
    relative_time,
    scaled_font,
)
from openhuman_desktop.store import Task
from openhuman_desktop.subconscious import recurrence

log = logging.getLogger(__name__)

CUSTOM_CRON = "custom"
# (label, recurrence string); the last entry opens the free cron field.
SCHEDULE_CHOICES: tuple[tuple[str, str], ...] = (
    ("Every tick", recurrence.PENDING),
    ("Once", recurrence.ONCE),
    ("Every hour", "cron:0 * * * *"),
    ("Every day at 9:00", "cron:0 9 * * *"),
    ("Weekdays at 9:00", "cron:0 9 * * 1-5"),
    ("Mondays at 9:00", "cron:0 9 * * 1"),
    ("Custom cron…", CUSTOM_CRON),
)
INTENT_WORDS = {"read": "Read only", "write": "May write"}
INTENT_HELP = {
    "read": "Read only: the assistant only looks; any change it suggests needs your approval",
    "write": "May write: you asked for changes (send, post, write), so the assistant may make them",
}
UNDO_SECONDS = 10
CARD_BATCH = 25


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


def describe_schedule(text: str) -> str:
    """"Every tick", "Once", a preset's name, or "cron 0 9 * * 1-5"."""
    for label, value in SCHEDULE_CHOICES:
        if value == text and value != CUSTOM_CRON:
            return label
    try:
        return recurrence.parse(text).describe().capitalize()
    except InvalidInput:
        return text


def next_run_text(task: Task, now: float) -> tuple[str, str]:
    """(short text, tooltip) for when a task runs next."""
    if task.completed:
        return "Done", "This one-off task has been carried out"
    if not task.enabled:
        return "Off", "Switched off: the assistant skips this task"
    if task.next_run_at is None or task.next_run_at <= now:
        return "due at the next tick", "Looked at on the next tick"
    return f"Next {clock_time(task.next_run_at, now)}", exact_time(task.next_run_at)


def sort_key(task: Task) -> tuple[bool, bool, float, str]:
    """System defaults, then HEARTBEAT.md tasks, then the user's, each oldest first (like the store)."""
    return (task.source == "user", task.origin == "heartbeat_md", task.created_at, task.id)


def cron_problem(expression: str) -> str | None:
    """What is wrong with a 5-field cron expression typed by the user, or None when it is valid."""
    try:
        recurrence.parse(recurrence.CRON_PREFIX + expression)
    except InvalidInput as exc:
        return exc.problem[0].upper() + exc.problem[1:]
    return None


class TaskCard(QFrame):
    """One task: dot, title, badges, schedule and next run, intent; for user tasks a switch and delete."""

    enabled_toggled = Signal(str, bool)
    delete_requested = Signal(str)
    intent_chosen = Signal(str, str)

    def __init__(self, task: Task, now: Callable[[], float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("taskCard")
        self._now = now
        self._task = task
        self._hovered = False
        self._build()
        self.set_task(task)

    @property
    def task(self) -> Task:
        return self._task

    def _build(self) -> None:
        pad = max(4, em(self) // 3)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(pad * 2, pad, pad, pad)
        outer.setSpacing(pad * 2)
        self.dot = StatusDot("green", self)
        dot_box = QVBoxLayout()
        dot_box.setContentsMargins(0, max(2, em(self) // 4), 0, 0)
        dot_box.addWidget(self.dot)
        dot_box.addStretch(1)
        outer.addLayout(dot_box)
        text = QVBoxLayout()
        text.setSpacing(max(1, pad // 2))
        outer.addLayout(text, 1)
        top = QHBoxLayout()
        top.setSpacing(pad * 2)
        text.addLayout(top)
        self.title_label = QLabel(self)
        self.title_label.setWordWrap(True)
        self.title_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title_label.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        top.addWidget(self.title_label, 1)
        self.default_badge = Badge("default", "grey", self)
        top.addWidget(self.default_badge, 0, Qt.AlignmentFlag.AlignTop)
        details = QHBoxLayout()
        details.setSpacing(pad)
        text.addLayout(details)
        self.details_label = MutedLabel("", self, factor=0.9)
        details.addWidget(self.details_label)
        self.intent_button = QToolButton(self)
        self.intent_button.setObjectName("intentChip")
        self.intent_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.intent_button.setAutoRaise(True)
        self.intent_button.setFont(scaled_font(self, 0.9))
        menu = QMenu(self.intent_button)
        group = QActionGroup(menu)
        self._intent_actions: dict[str, QAction] = {}
        for intent, words in INTENT_WORDS.items():
            action = QAction(words, menu)
            action.setCheckable(True)
            action.setToolTip(INTENT_HELP[intent])
            action.setData(intent)
            group.addAction(action)
            menu.addAction(action)
            self._intent_actions[intent] = action
        menu.triggered.connect(self._on_intent_menu_triggered)
        self.intent_button.setMenu(menu)
        details.addWidget(self.intent_button)
        details.addStretch(1)
        self.error_label = ErrorLabel(self)
        text.addWidget(self.error_label)
        self.toggle = ToggleSwitch(self)
        self.toggle.toggled.connect(self._on_toggle_toggled)
        outer.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignTop)
        self.delete_button = QToolButton(self)
        self.delete_button.setAutoRaise(True)
        icon = self.style().standardIcon(QStyle.StandardPixmap.SP_TrashIcon)
        if icon.isNull():
            self.delete_button.setText("✕")
        else:
            self.delete_button.setIcon(icon)
        self.delete_button.clicked.connect(self._on_delete_button_clicked)
        policy = self.delete_button.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.delete_button.setSizePolicy(policy)
        outer.addWidget(self.delete_button, 0, Qt.AlignmentFlag.AlignTop)

    def set_task(self, task: Task) -> None:
        """Show a new snapshot of the task."""
        self._task = task
        title = task.title
        self.title_label.setText(title)
        self.setAccessibleName(f"Task: {title}")
        system = task.is_system
        self.default_badge.setVisible(system)
        self.default_badge.setToolTip(
            "Built-in task" if task.origin == "default" else "From HEARTBEAT.md in your workspace"
        )
        self.default_badge.setAccessibleName("default task")
        self.dot.set_accent("green" if task.enabled and not task.completed else "grey")
        self.dot.setAccessibleName("enabled" if task.enabled else "disabled")
        self.dot.setToolTip("On" if task.enabled else "Off")
        self.toggle.setVisible(not system)
        self.toggle.blockSignals(True)
        self.toggle.setChecked(task.enabled)
        self.toggle.blockSignals(False)
        self.toggle.setAccessibleName(f"Enable task {title}")
        self.toggle.setToolTip("Switch this task on or off")
        self.delete_button.setAccessibleName(f"Delete task {title}")
        self.delete_button.setToolTip("Delete this task")
        self.intent_button.setText(INTENT_WORDS.get(task.intent, task.intent))
        self.intent_button.setAccessibleName(f"Intent of task {title}: {INTENT_WORDS.get(task.intent, task.intent)}")
        self.intent_button.setToolTip(INTENT_HELP.get(task.intent, "") + "\nClick to change.")
        action = self._intent_actions.get(task.intent)
        if action is not None:
            action.setChecked(True)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus if system else Qt.FocusPolicy.NoFocus)
        self._render_details()
        self._update_delete_visibility()

    def _render_details(self) -> None:
        task = self._task
        now = self._now()
        when, tooltip = next_run_text(task, now)
        parts = [describe_schedule(task.recurrence), when]
        if task.last_run_at is not None:
            parts.append(f"last run {relative_time(task.last_run_at, now)}")
        self.details_label.setText(" · ".join(parts))
        self.details_label.setToolTip(tooltip)
        font = self.title_label.font()
        font.setStrikeOut(task.completed)
        self.title_label.setFont(font)
        palette = QPalette(self.palette())
        if not task.enabled or task.completed:   # a switched-off task reads quieter, in any theme
            palette.setColor(QPalette.ColorRole.WindowText, muted(palette))
        self.title_label.setPalette(palette)

    def refresh_times(self) -> None:
        self._render_details()

    def set_busy(self, busy: bool) -> None:
        """Disable the controls while a change is in flight."""
        for control in (self.toggle, self.delete_button, self.intent_button):
            control.setEnabled(not busy)

    def show_error(self, text: str) -> None:
        self.error_label.show_text(text)

    # --- hover and focus reveal the delete button -----------------------------------------------

    def _update_delete_visibility(self) -> None:
        focused = any(w.hasFocus() for w in (self.toggle, self.delete_button, self.intent_button))
        self.delete_button.setVisible(not self._task.is_system and (self._hovered or focused))

    def enterEvent(self, event: QEnterEvent) -> None:  # noqa: N802 (Qt override)
        self._hovered = True
        self._set_highlight(True)
        self._update_delete_visibility()
        super().enterEvent(event)

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        self._hovered = False
        self._set_highlight(False)
        self._update_delete_visibility()
        super().leaveEvent(event)

    def _set_highlight(self, on: bool) -> None:
        self.setProperty("hovered", on)
        self.update()

    def on_focus_changed(self) -> None:
        """Keyboard focus moved into or out of this card (the delete button shows while it is inside)."""
        self._update_delete_visibility()

    def paintEvent(self, event: QPaintEvent) -> None:
        if self._hovered or self.hasFocus():
            painter = QPainter(self)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            palette = self.palette()
            if self.hasFocus():   # a system card takes the focus for its context menu: show where it is
                painter.setPen(QPen(palette.color(QPalette.ColorRole.Highlight), 1.5))
            else:
                painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(palette.color(QPalette.ColorRole.AlternateBase))
            radius = max(4.0, em(self) * 0.4)
            painter.drawRoundedRect(QRectF(self.rect()).adjusted(1, 1, -1, -1), radius, radius)
        super().paintEvent(event)

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt override)
        self.update()
        super().focusInEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt override)
        self.update()
        super().focusOutEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() == Qt.Key.Key_Delete and not self._task.is_system:
            self.delete_requested.emit(self._task.id)
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 (Qt override)
        menu = QMenu(self)
        toggle = menu.addAction("Switch off" if self._task.enabled else "Switch on")
        toggle.triggered.connect(self._on_toggle_action_triggered)
        if not self._task.is_system:
            delete = menu.addAction("Delete")
            delete.triggered.connect(self._on_delete_button_clicked)
        menu.popup(event.globalPos())

    # --- slots ----------------------------------------------------------------------------------

    def _on_toggle_toggled(self, checked: bool) -> None:
        self.enabled_toggled.emit(self._task.id, checked)

    def _on_toggle_action_triggered(self) -> None:
        self.enabled_toggled.emit(self._task.id, not self._task.enabled)

    def _on_delete_button_clicked(self) -> None:
        self.delete_requested.emit(self._task.id)

    def _on_intent_menu_triggered(self, action: QAction) -> None:
        intent = str(action.data())
        if intent != self._task.intent:
            self.intent_chosen.emit(self._task.id, intent)


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
        row = QHBoxLayout()
        row.setSpacing(pad * 2)
        outer.addLayout(row)
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
        row.addWidget(self.schedule_combo)
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
        row.addWidget(self.add_button)
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
        self._is_busy = busy
        self.add_button.setText("Adding…" if busy else "Add")
        self.title_edit.setReadOnly(busy)
        self._validate()

    def show_error(self, text: str) -> None:
        self.error_label.show_text(text)

    def reset(self) -> None:
        """After a successful add: empty the text, keep the chosen schedule."""
        self.title_edit.clear()
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


class UndoBar(PanelFrame):
    """"Deleted “X”. Undo" for a few seconds after a task was deleted."""

    undo_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, role=QPalette.ColorRole.AlternateBase, border=False)
        self.setObjectName("undoBar")
        layout = QHBoxLayout(self)
        pad = max(4, em(self) // 3)
        layout.setContentsMargins(pad * 2, pad, pad, pad)
        self.label = QLabel(self)
        self.label.setAccessibleName("Deleted task")
        layout.addWidget(self.label, 1)
        self.undo_button = QPushButton("Undo", self)
        self.undo_button.setAccessibleName("Undo delete")
        self.undo_button.clicked.connect(self.undo_requested)
        layout.addWidget(self.undo_button)
        self.error_label = ErrorLabel(self)
        layout.addWidget(self.error_label)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(UNDO_SECONDS * 1000)
        self._timer.timeout.connect(self._on_timer_timeout)
        self.hide()

    def offer(self, title: str) -> None:
        short = title if len(title) <= 60 else title[:57] + "…"
        self.label.setText(f"Deleted “{short}”.")
        self.error_label.clear_text()
        self.undo_button.setEnabled(True)
        self.show()
        self._timer.start()

    def withdraw(self) -> None:
        self._timer.stop()
        self.hide()

    def _on_timer_timeout(self) -> None:
        self.hide()


class TasksView(QWidget):
    """The Active Tasks section (cards) plus the Add-task row (``add_view``, placed by the window)."""

    def __init__(self, service: TaskService, now: Callable[[], float], jobs: Jobs,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._service = service
        self._now = now
        self._jobs = jobs
        self._cards: dict[str, TaskCard] = {}
        self._arrival: dict[str, int] = {}   # order in which tasks were first seen (store order on refresh)
        self._removed: Task | None = None
        self._is_loaded = False
        # Live updates arrive in bursts (a tick advances every due task): lay out once per burst.
        self._relayout_timer = QTimer(self)
        self._relayout_timer.setSingleShot(True)
        self._relayout_timer.setInterval(0)
        self._relayout_timer.timeout.connect(self._relayout)
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
        self._list_host = QWidget(self)   # the cards live here, so many of them can be shown in one go
        self._list = QVBoxLayout(self._list_host)
        self._list.setContentsMargins(0, 0, 0, 0)
        self._list.setSpacing(2)
        layout.addWidget(self._list_host)
        layout.addWidget(self.empty_label)
        self.undo_bar = UndoBar(self)
        self.undo_bar.undo_requested.connect(self._on_undo_bar_undo_requested)
        layout.addWidget(self.undo_bar)
        self.add_view = AddTaskView(now, self)   # the window moves it into its own layout
        self.add_view.hide()
        self.add_view.add_requested.connect(self._on_add_view_add_requested)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._on_app_focus_changed)

    # --- queries --------------------------------------------------------------------------------

    def card(self, task_id: str) -> TaskCard | None:
        return self._cards.get(task_id)

    def cards(self) -> list[TaskCard]:
        """The cards in display order."""
        # Tasks created in the same instant (the three defaults) keep the order the store gave them.
        return sorted(self._cards.values(), key=lambda card: (*sort_key(card.task)[:3], self._arrival[card.task.id]))

    def card_by_title(self, title: str) -> TaskCard | None:
        return next((card for card in self._cards.values() if card.task.title == title), None)

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
        seen = {task.id for task in tasks}
        for task_id in [tid for tid in self._cards if tid not in seen]:
            self._drop_card(task_id)
        for start in range(0, len(tasks), CARD_BATCH):
            if start:
                self._relayout()
                await asyncio.sleep(0)   # let Qt paint between batches: many tasks never freeze the window
            for task in tasks[start:start + CARD_BATCH]:
                self.upsert(task, relayout=False)
        self._relayout()

    def upsert(self, task: Task, *, relayout: bool = True) -> None:
        """Show a new or changed task."""
        card = self._cards.get(task.id)
        if card is None:
            card = TaskCard(task, self._now, self)
            self._arrival.setdefault(task.id, len(self._arrival))
            card.enabled_toggled.connect(self._on_card_enabled_toggled)
            card.delete_requested.connect(self._on_card_delete_requested)
            card.intent_chosen.connect(self._on_card_intent_chosen)
            self._cards[task.id] = card
        else:
            card.set_task(task)
        if relayout:
            self._relayout()

    def on_task_changed(self, task: Task) -> None:
        card = self._cards.get(task.id)
        moved = card is None or sort_key(card.task) != sort_key(task)
        self.upsert(task, relayout=False)
        if moved and not self._relayout_timer.isActive():
            self._relayout_timer.start()

    def on_task_removed(self, task_id: str) -> None:
        if task_id in self._cards:
            self._drop_card(task_id)
            if not self._relayout_timer.isActive():
                self._relayout_timer.start()

    def _drop_card(self, task_id: str) -> None:
        card = self._cards.pop(task_id)
        self._list.removeWidget(card)
        card.hide()
        card.deleteLater()

    def _relayout(self) -> None:
        ordered = self.cards()
        # Showing a card inside a visible parent lays the whole list out again, so showing hundreds of new
        # cards one by one is quadratic (seconds for 1,000 tasks): hide the host, show them, show it once.
        bulk = self._list_host.isVisible() and sum(1 for card in ordered if card.isHidden()) > 4
        if bulk:
            self._list_host.hide()
        for index, card in enumerate(ordered):
            if self._list.indexOf(card) != index:
                self._list.removeWidget(card)
                self._list.insertWidget(index, card)
            if card.isHidden():
                card.show()
        if bulk:
            self._list_host.show()
        users = sum(1 for card in ordered if not card.task.is_system)
        if not ordered:
            self.empty_label.setText("No tasks yet. Add one below, for example “Check urgent emails”.")
        else:
            self.empty_label.setText("None of your own yet. Add one below, for example “Check urgent emails”.")
        self.empty_label.setVisible(self._is_loaded and users == 0)
        self.count_label.setText(f"{len(ordered)} · {users} yours" if ordered else "")

    def refresh_times(self) -> None:
        for card in self._cards.values():
            card.refresh_times()

    # --- actions (awaited directly by tests) ----------------------------------------------------

    async def add_task(self, title: str, recurrence_text: str) -> Task | None:
        """Add a user task; an error stays next to the field, and so does the text."""
        view = self.add_view
        if not title.strip():
            view.show_error("Type what the assistant should do first.")
            return None
        view.set_busy(True)
        try:
            task = await self._service.tasks_add(title, recurrence_text)
        except UserFacingError as exc:
            view.show_error(str(exc))
            return None
        finally:
            view.set_busy(False)
        self.upsert(task)
        view.reset()
        return task

    async def set_enabled(self, task_id: str, enabled: bool) -> None:
        await self._update(task_id, enabled=enabled)

    async def set_intent(self, task_id: str, intent: str) -> None:
        await self._update(task_id, intent=intent)

    async def _update(self, task_id: str, **changes: object) -> None:
        """Change a task from its card; on failure the card shows its old state and the error."""
        card = self._cards.get(task_id)
        if card is None:
            return
        card.set_busy(True)
        card.error_label.clear_text()
        try:
            task = await self._service.tasks_update(task_id, **changes)
        except UserFacingError as exc:
            card.set_task(card.task)   # puts the switch / intent back
            card.show_error(str(exc))
        else:
            card.set_task(task)
        finally:
            card.set_busy(False)

    async def remove_task(self, task_id: str) -> bool:
        """Delete a user task; the card goes only when that worked, and "Undo" is offered."""
        card = self._cards.get(task_id)
        if card is None:
            return False
        card.set_busy(True)
        card.error_label.clear_text()
        try:
            await self._service.tasks_remove(task_id)
        except UserFacingError as exc:
            card.show_error(str(exc))
            card.set_busy(False)
            return False
        self._removed = card.task
        self.on_task_removed(task_id)
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
        self.upsert(task)
        return task

    # --- slots (trampolines) --------------------------------------------------------------------

    def _on_add_view_add_requested(self, title: str, recurrence_text: str) -> None:
        self._jobs.spawn(self.add_task(title, recurrence_text), name="add-task")

    def _on_card_enabled_toggled(self, task_id: str, enabled: bool) -> None:
        self._jobs.spawn(self.set_enabled(task_id, enabled), name="toggle-task")

    def _on_card_delete_requested(self, task_id: str) -> None:
        self._jobs.spawn(self.remove_task(task_id), name="remove-task")

    def _on_card_intent_chosen(self, task_id: str, intent: str) -> None:
        self._jobs.spawn(self.set_intent(task_id, intent), name="task-intent")

    def _on_app_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        for widget in (old, new):
            card = widget.parentWidget() if widget is not None else None
            if isinstance(card, TaskCard) and card.parentWidget() is self:
                card.on_focus_changed()

    def _on_undo_bar_undo_requested(self) -> None:
        self._jobs.spawn(self.undo_remove(), name="undo-remove-task")
