"""What a task row says (schedule, next run, intent) and the Active Tasks list model."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal

from openhuman_desktop import recurrence
from openhuman_desktop.errors import InvalidInput
from openhuman_desktop.qt.intelligence.row_changes import row_runs
from openhuman_desktop.qt.intelligence.time_text import clock_time, exact_time, relative_time
from openhuman_desktop.store import Task

AnyIndex = QModelIndex | QPersistentModelIndex

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
# Where a task's intent came from (``intent_source``), as the row says it and as its tooltip explains it.
SOURCE_WORDS = {"keyword": "keywords", "model": "model", "user": "you", "assistant": "assistant",
                "default": "built-in"}
SOURCE_HELP = {
    "keyword": "Decided from the task's words: it may write only when its own instruction asks for a change.",
    "model": "Decided by the local model from the task's words (it may only narrow what the words allow).",
    "user": "Set by you.",
    "assistant": "The assistant added this task: it only reads until you let it write.",
    "default": "A built-in task.",
}
SUGGESTION_WORDS = "May write?"
SUGGESTION_HELP = {
    "model": "The local model thinks this task asks for changes; it stays read only until you agree.",
    "keyword": "This task's words ask for a change, but the local model heard none; it stays read only until you "
               "agree.",
    "assistant": "The assistant added this task and its words ask for a change; it stays read only until you "
                 "agree.",
}
SUGGESTION_CLICK = "Click to let it write (any change it makes then needs no approval card)."
ASSISTANT_BADGE = "assistant"
ASSISTANT_TIP = ("Added by the assistant: it added this task while carrying out something you approved. It only reads "
                 "until you set its intent to May write.")
BULK_CHANGES = 32           # more inserts/removals than this in one reload: reset the model instead


# --- what a row says ------------------------------------------------------------------------------


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


def details_text(task: Task, now: float) -> str:
    """"Every tick · due at the next tick · last run 4 min ago"."""
    parts = [describe_schedule(task.recurrence), next_run_text(task, now)[0]]
    if task.last_run_at is not None:
        parts.append(f"last run {relative_time(task.last_run_at, now)}")
    return " · ".join(parts)


def is_assistant_task(task: Task) -> bool:
    """Whether the assistant created the task (while running an approved action), not the user."""
    return task.origin == "assistant"


def intent_words(task: Task) -> str:
    """The intent chip's words: "Read only · keywords" (the intent and where it came from)."""
    words = INTENT_WORDS.get(task.intent, task.intent)
    source = SOURCE_WORDS.get(task.intent_source)
    return f"{words} · {source}" if source else words


def intent_tip(task: Task) -> str:
    source = SOURCE_HELP.get(task.intent_source, "")
    return "\n".join(part for part in (INTENT_HELP.get(task.intent, ""), source, "Click to change.") if part)


def asks(task: Task) -> bool:
    """Whether the row asks "May write?": the task stays read-only, but the model or its words ask for a change."""
    return task.suggested_intent == "write"


def suggestion_words(task: Task) -> str:
    """"May write?" while the row asks it (:func:`asks`), else ""."""
    return SUGGESTION_WORDS if asks(task) else ""


def suggestion_tip(task: Task) -> str:
    # the model narrowed the words' "write" (source "model"), or would widen the words' "read" (source "keyword")
    why = SUGGESTION_HELP.get("keyword" if task.intent_source == "model" else
                              "model" if task.intent_source == "keyword" else "assistant", "")
    return f"{why}\n{SUGGESTION_CLICK}"


def badge_tip(task: Task) -> str:
    return "Built-in task" if task.origin == "default" else "From HEARTBEAT.md in your workspace"


def sort_key(task: Task) -> tuple[bool, bool, float]:
    """System defaults, then HEARTBEAT.md tasks, then the user's, each oldest first (like the store)."""
    return (task.source == "user", task.origin == "heartbeat_md", task.created_at)


def row_description(task: Task, now: float, error: str = "") -> str:
    """What a screen reader says about a row after its name."""
    kind = "default task" if task.is_system else "your task"
    if is_assistant_task(task):
        kind = "added by the assistant"
    parts = [kind,
             "done" if task.completed else ("enabled" if task.enabled else "disabled"),
             details_text(task, now), f"intent {INTENT_WORDS.get(task.intent, task.intent)}, set by "
                                      f"{SOURCE_WORDS.get(task.intent_source, task.intent_source)}"]
    if suggestion_words(task):
        parts.append("asks whether it may write")
    if error:
        parts.append(f"error: {error}")
    return ", ".join(parts)


# --- the model ------------------------------------------------------------------------------------


_RowKey = tuple[bool, bool, float, int]


class TaskListModel(QAbstractListModel):
    """The tasks in display order (``sort_key``, then arrival order), with per-row busy and error state.

    A changed task is updated in place (``dataChanged`` on its row), a new one inserted where it belongs,
    and a row moves only when its sort key changed; ``row_of`` is a dict lookup.
    """

    TaskRole = Qt.ItemDataRole.UserRole + 1
    BusyRole = Qt.ItemDataRole.UserRole + 2
    ErrorRole = Qt.ItemDataRole.UserRole + 3

    row_shape_changed = Signal()   # a row's height may have changed (title, kind, "May write?" or error text)
    counts_changed = Signal()

    def __init__(self, now: Callable[[], float], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._now = now
        self._rows: list[Task] = []
        self._keys: list[_RowKey] = []
        self._index: dict[str, int] = {}
        self._arrival: dict[str, int] = {}   # order in which tasks were first seen (store order on refresh)
        self._busy: set[str] = set()
        self._errors: dict[str, str] = {}
        self._user_count = 0

    # --- Qt model API ---------------------------------------------------------------------------

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt default)
        return 0 if parent.isValid() else len(self._rows)

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.parent().isValid() or not 0 <= index.row() < len(self._rows):
            return None
        task = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return task.title
        if role == self.TaskRole:
            return task
        if role == self.BusyRole:
            return task.id in self._busy
        if role == self.ErrorRole:
            return self.error(task.id)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{task.title}\n{next_run_text(task, self._now())[1]}"
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"Task: {task.title}"
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            return row_description(task, self._now(), self.error(task.id))
        return None

    # --- queries --------------------------------------------------------------------------------

    def task_at(self, row: int) -> Task:
        return self._rows[row]

    def shape(self, row: int) -> tuple[str, bool, str, bool] | None:
        """What a row's height depends on: (title, is system task, error text, asks "May write?"); ``None`` past
        the end."""
        if not 0 <= row < len(self._rows):
            return None
        task = self._rows[row]
        # Asked for every row on each layout: no property call, and no lookup while no row has an error.
        return (task.title, task.source == "system", self._errors.get(task.id, "") if self._errors else "",
                task.intent_suggestion == "write" and task.intent == "read")

    def task(self, task_id: str) -> Task | None:
        row = self._index.get(task_id)
        return None if row is None else self._rows[row]

    def row_of(self, task_id: str) -> int | None:
        return self._index.get(task_id)

    def index_of(self, task_id: str) -> QModelIndex:
        row = self._index.get(task_id)
        return QModelIndex() if row is None else self.index(row, 0)

    def tasks(self) -> list[Task]:
        return list(self._rows)

    def task_ids(self) -> list[str]:
        return [task.id for task in self._rows]

    @property
    def user_count(self) -> int:
        return self._user_count

    def is_busy(self, task_id: str) -> bool:
        return task_id in self._busy

    def error(self, task_id: str) -> str:
        return self._errors.get(task_id, "")

    # --- changes --------------------------------------------------------------------------------

    def _key(self, task: Task) -> _RowKey:
        # Tasks created in the same instant (the three defaults) keep the order they first arrived in.
        return (*sort_key(task), self._arrival.setdefault(task.id, len(self._arrival)))

    def _reindex(self, first: int, last: int | None = None) -> None:
        stop = len(self._rows) if last is None else last + 1
        for row in range(first, stop):
            self._index[self._rows[row].id] = row

    def set_tasks(self, tasks: Iterable[Task]) -> None:
        """Show exactly ``tasks`` (a reload): known rows update in place; many changes reset the model."""
        tasks = list(tasks)   # new tasks get their arrival numbers in this order, both ways below
        ids = {task.id for task in tasks}
        gone = [task_id for task_id in self._index if task_id not in ids]
        fresh = sum(1 for task in tasks if task.id not in self._index)
        if self._rows and len(gone) + fresh <= BULK_CHANGES:
            for task_id in gone:
                self.remove(task_id)
            for task in tasks:
                self.upsert(task)
            return
        self.beginResetModel()
        keyed = sorted(((self._key(task), task) for task in tasks), key=lambda pair: pair[0])
        self._keys = [key for key, _ in keyed]
        self._rows = [task for _, task in keyed]
        self._index = {}
        self._reindex(0)
        self._busy &= ids
        self._errors = {k: v for k, v in self._errors.items() if k in ids}
        self._user_count = sum(1 for task in self._rows if not task.is_system)
        self.endResetModel()
        self.row_shape_changed.emit()
        self.counts_changed.emit()

    def upsert(self, task: Task) -> int:
        """Insert or update ``task``; returns its row."""
        row = self._index.get(task.id)
        if row is None:
            return self._insert(task)
        old = self._rows[row]
        key = self._key(task)
        if key != self._keys[row]:
            row = self._move(row, key)
        self._rows[row] = task
        if old != task:
            index = self.index(row, 0)
            self.dataChanged.emit(index, index, [])
            if old.title != task.title or old.is_system != task.is_system or asks(old) != asks(task):
                self.row_shape_changed.emit()
            if old.is_system != task.is_system:
                self._user_count += 1 if old.is_system else -1
                self.counts_changed.emit()
        return row

    def upsert_many(self, tasks: Iterable[Task]) -> None:
        """Apply many changes (a tick's schedule updates): rows that keep their place change in place, with one
        ``dataChanged`` per run of neighbouring rows; new tasks and new sort keys go through ``upsert``."""
        changed: list[str] = []
        shape = counts = False
        for task in tasks:
            row = self._index.get(task.id)
            if row is None or self._key(task) != self._keys[row]:
                self.upsert(task)
                continue
            old = self._rows[row]
            if old == task:
                continue
            self._rows[row] = task
            changed.append(task.id)
            shape = shape or old.title != task.title or old.is_system != task.is_system or asks(old) != asks(task)
            if old.is_system != task.is_system:
                self._user_count += 1 if old.is_system else -1
                counts = True
        for first, last in row_runs(sorted(self._index[task_id] for task_id in changed)):
            self.dataChanged.emit(self.index(first, 0), self.index(last, 0), [])
        if shape:
            self.row_shape_changed.emit()
        if counts:
            self.counts_changed.emit()

    def _insert(self, task: Task) -> int:
        key = self._key(task)
        row = bisect.bisect_left(self._keys, key)
        self.beginInsertRows(QModelIndex(), row, row)
        self._rows.insert(row, task)
        self._keys.insert(row, key)
        self._reindex(row)
        if not task.is_system:
            self._user_count += 1
        self.endInsertRows()
        self.counts_changed.emit()
        return row

    def _move(self, row: int, key: _RowKey) -> int:
        position = bisect.bisect_left(self._keys, key)
        target = position - 1 if position > row else position
        if target == row:
            self._keys[row] = key
            return row
        destination = target + 1 if target > row else target
        self.beginMoveRows(QModelIndex(), row, row, QModelIndex(), destination)
        task = self._rows.pop(row)
        self._keys.pop(row)
        self._rows.insert(target, task)
        self._keys.insert(target, key)
        self._reindex(min(row, target), max(row, target))
        self.endMoveRows()
        return target

    def remove(self, task_id: str) -> Task | None:
        row = self._index.get(task_id)
        if row is None:
            return None
        self.beginRemoveRows(QModelIndex(), row, row)
        task = self._rows.pop(row)
        self._keys.pop(row)
        del self._index[task_id]
        self._reindex(row)
        self._busy.discard(task_id)
        self._errors.pop(task_id, None)
        if not task.is_system:
            self._user_count -= 1
        self.endRemoveRows()
        self.counts_changed.emit()
        return task

    def set_busy(self, task_id: str, busy: bool) -> None:
        if (task_id in self._busy) == busy or task_id not in self._index:
            return
        if busy:
            self._busy.add(task_id)
        else:
            self._busy.discard(task_id)
        self._changed(task_id, [self.BusyRole])

    def set_error(self, task_id: str, text: str) -> None:
        if self.error(task_id) == text or task_id not in self._index:
            return
        if text:
            self._errors[task_id] = text
        else:
            self._errors.pop(task_id, None)
        self._changed(task_id, [self.ErrorRole, Qt.ItemDataRole.AccessibleDescriptionRole])
        self.row_shape_changed.emit()

    def _changed(self, task_id: str, roles: list[int]) -> None:
        row = self._index.get(task_id)
        if row is not None:
            index = self.index(row, 0)
            self.dataChanged.emit(index, index, roles)
