"""The Active Tasks list: task model, row geometry and painting, delegate, interactive row and list view."""

from __future__ import annotations

import bisect
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QColor,
    QContextMenuEvent,
    QCursor,
    QEnterEvent,
    QFont,
    QFontMetrics,
    QHelpEvent,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPalette,
    QPen,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFrame,
    QListView,
    QMenu,
    QScrollArea,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionToolButton,
    QStyleOptionViewItem,
    QToolButton,
    QToolTip,
    QWidget,
)

from openhuman_desktop.errors import InvalidInput
from openhuman_desktop.qt.intelligence.widgets import (
    ToggleSwitch,
    accent,
    blend,
    clock_time,
    exact_time,
    muted,
    relative_time,
)
from openhuman_desktop.store import Task
from openhuman_desktop.subconscious import recurrence

log = logging.getLogger(__name__)

_AnyIndex = QModelIndex | QPersistentModelIndex

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
ROW_GAP = 2                 # px between rows (what the list of cards had between cards)
LAYOUT_BATCH = 100          # rows laid out per event-loop turn (~1 ms)
BULK_CHANGES = 32           # more inserts/removals than this in one reload: reset the model instead
TOGGLE_TIP = "Switch this task on or off"
WRAP = int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
# Enum values used on every paint (PySide6 enum arithmetic is Python code: look it up once).
_HAS_FOCUS = QStyle.StateFlag.State_HasFocus
_MOUSE_OVER = QStyle.StateFlag.State_MouseOver
_LEFT = int(Qt.AlignmentFlag.AlignLeft)
_CENTER = int(Qt.AlignmentFlag.AlignCenter)
_ACTIVE = QStyle.StateFlag.State_Active
_ENABLED = QStyle.StateFlag.State_Enabled
_ANTIALIASING = QPainter.RenderHint.Antialiasing
_NO_PEN = Qt.PenStyle.NoPen
_CC_TOOL_BUTTON = QStyle.ComplexControl.CC_ToolButton
DELETE_TIP = "Delete this task"


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


def intent_words(task: Task) -> str:
    return INTENT_WORDS.get(task.intent, task.intent)


def badge_tip(task: Task) -> str:
    return "Built-in task" if task.origin == "default" else "From HEARTBEAT.md in your workspace"


def sort_key(task: Task) -> tuple[bool, bool, float, str]:
    """System defaults, then HEARTBEAT.md tasks, then the user's, each oldest first (like the store)."""
    return (task.source == "user", task.origin == "heartbeat_md", task.created_at, task.id)


def row_description(task: Task, now: float, error: str = "") -> str:
    """What a screen reader says about a row after its name."""
    parts = ["default task" if task.is_system else "your task",
             "done" if task.completed else ("enabled" if task.enabled else "disabled"),
             details_text(task, now), f"intent {intent_words(task)}"]
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

    row_shape_changed = Signal()   # a row's height may have changed (title, kind or error text)
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

    def rowCount(self, parent: _AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt default)
        return 0 if parent.isValid() else len(self._rows)

    def flags(self, index: _AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren

    def data(self, index: _AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
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
            return self._errors.get(task.id, "")
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{task.title}\n{next_run_text(task, self._now())[1]}"
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"Task: {task.title}"
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            return row_description(task, self._now(), self._errors.get(task.id, ""))
        return None

    # --- queries --------------------------------------------------------------------------------

    def task_at(self, row: int) -> Task:
        return self._rows[row]

    def shape(self, row: int) -> tuple[str, bool, str] | None:
        """What a row's height depends on: (title, is system task, error text); ``None`` past the end."""
        if not 0 <= row < len(self._rows):
            return None
        task = self._rows[row]
        return (task.title, task.source == "system", self._errors.get(task.id, "") if self._errors else "")

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
        user, heartbeat, created, _ = sort_key(task)
        return (user, heartbeat, created, self._arrival.setdefault(task.id, len(self._arrival)))

    def _reindex(self, first: int, last: int | None = None) -> None:
        stop = len(self._rows) if last is None else last + 1
        for row in range(first, stop):
            self._index[self._rows[row].id] = row

    def set_tasks(self, tasks: Iterable[Task]) -> None:
        """Show exactly ``tasks`` (a reload): known rows update in place; many changes reset the model."""
        tasks = list(tasks)
        for task in tasks:
            self._arrival.setdefault(task.id, len(self._arrival))
        ids = {task.id for task in tasks}
        gone = [task_id for task_id in self._index if task_id not in ids]
        fresh = sum(1 for task in tasks if task.id not in self._index)
        if not self._rows or len(gone) + fresh > BULK_CHANGES:
            self.beginResetModel()
            ordered = sorted(tasks, key=self._key)
            self._rows = ordered
            self._keys = [self._key(task) for task in ordered]
            self._index = {}
            self._reindex(0)
            self._busy &= ids
            self._errors = {k: v for k, v in self._errors.items() if k in ids}
            self._user_count = sum(1 for task in ordered if not task.is_system)
            self.endResetModel()
            self.row_shape_changed.emit()
            self.counts_changed.emit()
            return
        for task_id in gone:
            self.remove(task_id)
        for task in tasks:
            self.upsert(task)

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
            if old.title != task.title or old.is_system != task.is_system:
                self.row_shape_changed.emit()
            if old.is_system != task.is_system:
                self._user_count += 1 if old.is_system else -1
                self.counts_changed.emit()
        return row

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
        if self._errors.get(task_id, "") == text or task_id not in self._index:
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


# --- geometry and painting ---------------------------------------------------------------------------


def scaled(font: QFont, factor: float, *, bold: bool = False) -> QFont:
    """``font`` scaled by ``factor`` (like widgets.scaled_font, for a font rather than a widget)."""
    result = QFont(font)
    if result.pointSizeF() > 0:
        result.setPointSizeF(result.pointSizeF() * factor)
    elif result.pixelSize() > 0:
        result.setPixelSize(max(1, round(result.pixelSize() * factor)))
    result.setBold(bold)
    return result


class IntentChip(QToolButton):
    """The intent of a task ("Read only ▾"): a flat tool button that opens the intent menu."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("intentChip")
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setAutoRaise(True)
        self.setFont(scaled(self.font(), 0.9))

    def style_option(self) -> QStyleOptionToolButton:
        """How the button would be drawn now (the delegate paints rows without a real chip with it)."""
        option = QStyleOptionToolButton()
        self.initStyleOption(option)
        return option


def make_delete_button(parent: QWidget) -> QToolButton:
    button = QToolButton(parent)
    button.setAutoRaise(True)
    icon = button.style().standardIcon(QStyle.StandardPixmap.SP_TrashIcon)
    if icon.isNull():
        button.setText("✕")
    else:
        button.setIcon(icon)
    button.setAccessibleName("Delete task")
    button.setToolTip(DELETE_TIP)
    return button


def paint_toggle(painter: QPainter, rect: QRect, palette: QPalette, *, checked: bool, enabled: bool) -> None:
    """A ToggleSwitch as it paints itself (widgets.py), for rows that show a picture of one."""
    area = QRectF(rect).adjusted(1.5, 1.5, -1.5, -1.5)
    radius = area.height() / 2
    if checked:
        track = palette.color(QPalette.ColorRole.Highlight)
    else:
        track = blend(palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.WindowText), 0.35)
    if not enabled:
        track.setAlphaF(0.4)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(track)
    painter.drawRoundedRect(area, radius, radius)
    knob = area.height() - 4
    x = area.right() - knob - 2 if checked else area.left() + 2
    painter.setBrush(QColor("#FFFFFF"))
    painter.drawEllipse(QRectF(x, area.top() + 2, knob, knob))


@dataclass(frozen=True)
class RowColors:
    """The colours a row is painted in, for one palette (light or dark)."""

    text: QColor
    quiet: QColor
    highlight: QColor
    alternate_base: QColor
    green: QColor
    grey: QColor
    coral: QColor
    badge_pen: QPen
    badge_fill: QColor

    @classmethod
    def of(cls, palette: QPalette) -> RowColors:
        grey = accent("grey", palette)
        fill = QColor(grey)
        fill.setAlphaF(0.16)
        return cls(
            text=palette.color(QPalette.ColorRole.WindowText), quiet=muted(palette),
            highlight=palette.color(QPalette.ColorRole.Highlight),
            alternate_base=palette.color(QPalette.ColorRole.AlternateBase), green=accent("green", palette),
            grey=grey, coral=accent("coral", palette), badge_pen=QPen(grey, 1.0), badge_fill=fill,
        )


@dataclass(frozen=True)
class RowGeometry:
    """Where the parts of one row go, relative to the row's top-left corner."""

    height: int
    dot: QRect
    title: QRect
    badge: QRect | None
    toggle: QRect | None
    delete: QRect | None
    details: QRect        # the details line: text, then the intent chip
    error: QRect | None


class RowMetrics:
    """Sizes of a row's parts for one font and style (everything follows the font: HiDPI-safe)."""

    def __init__(self, font: QFont, chip_size: Callable[[str], QSize], delete: QToolButton) -> None:
        self.font = QFont(font)
        self.fm = QFontMetrics(self.font)
        self.em = self.fm.height()
        self.pad = max(4, self.em // 3)
        self.spacing = max(1, self.pad // 2)
        self.small_font = scaled(self.font, 0.9)
        self.small_fm = QFontMetrics(self.small_font)
        self.badge_font = scaled(self.font, 0.85, bold=True)
        self.badge_fm = QFontMetrics(self.badge_font)
        self.badge_padding = max(3, round(self.badge_fm.height() * 0.4))
        self.badge_size = QSize(self.badge_fm.horizontalAdvance("default") + 2 * self.badge_padding + 2,
                                self.badge_fm.height() + 2)
        self.struck_font = QFont(self.font)
        self.struck_font.setStrikeOut(True)
        self.dot = max(8, round(self.em * 0.6))
        toggle_h = max(16, round(self.em * 1.1))
        self.toggle_size = QSize(round(toggle_h * 1.8), toggle_h)
        self.delete_size = delete.sizeHint()
        self._chip_size = chip_size
        self._chip_sizes: dict[str, QSize] = {}
        self.chip_height = self.chip_size("Read only").height()
        self.details_height = max(self.small_fm.height(), self.chip_height)
        self._advances: dict[str, int] = {}
        self._wrapped: dict[tuple[str, int], int] = {}

    def chip_size(self, words: str) -> QSize:
        size = self._chip_sizes.get(words)
        if size is None:
            size = self._chip_sizes[words] = self._chip_size(words)
        return size

    def text_height(self, text: str, width: int) -> int:
        """Height of ``text`` word-wrapped to ``width`` (one line when it fits: no text layout needed)."""
        advance = self._advances.get(text)
        if advance is None:
            if len(self._advances) > 20_000:
                self._advances.clear()
            advance = self.fm.horizontalAdvance(text) if "\n" not in text else 1_000_000
            self._advances[text] = advance
        if advance <= width:
            return self.em
        key = (text, width)
        height = self._wrapped.get(key)
        if height is None:
            if len(self._wrapped) > 20_000:
                self._wrapped.clear()
            height = max(self.em, self.fm.boundingRect(QRect(0, 0, width, 1_000_000), WRAP, text).height())
            self._wrapped[key] = height
        return height

    def _columns(self, is_system: bool, width: int) -> tuple[int, int, int, int]:
        """(text x, text right, title right, delete x) for a row ``width`` wide."""
        pad = self.pad
        text_x = pad * 2 + self.dot + pad * 2
        delete_x = width - pad - self.delete_size.width()
        text_right = delete_x - pad * 2
        if is_system:
            return text_x, text_right, text_right - self.badge_size.width() - pad * 2, delete_x
        text_right -= self.toggle_size.width() + pad * 2
        return text_x, text_right, text_right, delete_x

    def height(self, title: str, is_system: bool, error: str, width: int) -> int:
        """The row's height (what ``layout(...).height`` is, without building the rects)."""
        text_x, text_right, title_right, _ = self._columns(is_system, width)
        pad = self.pad
        bottom = pad + self.text_height(title, max(20, title_right - text_x)) + self.spacing + self.details_height
        if error:
            bottom += self.spacing + self.text_height(error, max(20, text_right - text_x))
        return max(bottom, self._controls_bottom(is_system)) + pad + ROW_GAP

    def _controls_bottom(self, is_system: bool) -> int:
        # The delete button keeps its room on system rows too (as the hidden button of a card did).
        tallest = max(self.delete_size.height(), self.badge_size.height() if is_system else self.toggle_size.height())
        return self.pad + tallest

    def layout(self, task: Task, width: int, error: str) -> RowGeometry:
        """Where everything goes: like the card layout it replaces (controls at the top, text beside them)."""
        pad = top = self.pad
        text_x, text_right, title_right, delete_x = self._columns(task.is_system, width)
        dot = QRect(pad * 2, top + max(2, self.em // 4), self.dot, self.dot)
        delete = None if task.is_system else QRect(QPoint(delete_x, top), self.delete_size)
        toggle = badge = None
        if task.is_system:
            badge = QRect(QPoint(title_right + pad * 2, top), self.badge_size)
        else:
            toggle = QRect(QPoint(text_right + pad * 2, top), self.toggle_size)
        title_w = max(20, title_right - text_x)
        title = QRect(text_x, top, title_w, self.text_height(task.title, title_w))
        details = QRect(text_x, title.bottom() + 1 + self.spacing, max(20, text_right - text_x), self.details_height)
        bottom = details.bottom() + 1
        error_rect = None
        if error:
            error_w = max(20, text_right - text_x)
            error_rect = QRect(text_x, bottom + self.spacing, error_w, self.text_height(error, error_w))
            bottom = error_rect.bottom() + 1
        return RowGeometry(
            height=max(bottom, self._controls_bottom(task.is_system)) + pad + ROW_GAP, dot=dot, title=title,
            badge=badge, toggle=toggle, delete=delete, details=details, error=error_rect,
        )

    def details_and_chip(self, geometry: RowGeometry, text: str, words: str) -> tuple[QRect, str, QRect]:
        """The details text's box and (elided) text, and the chip's rect right after it."""
        chip = self.chip_size(words)
        box = geometry.details
        room = max(10, box.width() - chip.width() - self.pad)
        shown = self.small_fm.elidedText(text, Qt.TextElideMode.ElideRight, room)
        # Measured like a QLabel sizes itself, so the chip sits where it did next to the details label.
        text_w = min(room, self.small_fm.boundingRect(QRect(0, 0, room, 1000), _LEFT, shown).width())
        text_rect = QRect(box.left(), box.top(), text_w, box.height())
        chip_rect = QRect(box.left() + text_w + self.pad, box.top() + (box.height() - chip.height()) // 2,
                          chip.width(), chip.height())
        return text_rect, shown, chip_rect

    def tooltip_at(self, task: Task, pos: QPoint, width: int, error: str, now: float) -> str:
        """The tooltip for the part of a row at ``pos`` (row coordinates); empty where there is none."""
        geometry = self.layout(task, width, error)
        text_rect, shown, chip = self.details_and_chip(geometry, details_text(task, now), intent_words(task))
        if geometry.dot.adjusted(-4, -4, 4, 4).contains(pos):
            return "On" if task.enabled else "Off"
        if geometry.badge is not None and geometry.badge.contains(pos):
            return badge_tip(task)
        if geometry.toggle is not None and geometry.toggle.contains(pos):
            return TOGGLE_TIP
        if chip.contains(pos):
            return INTENT_HELP.get(task.intent, "") + "\nClick to change."
        if text_rect.contains(pos):
            tip = next_run_text(task, now)[1]
            return tip if shown == details_text(task, now) else f"{details_text(task, now)}\n{tip}"
        if geometry.title.contains(pos):
            return task.title if geometry.title.height() > self.fm.height() * 3 else ""
        return ""


# --- the delegate ---------------------------------------------------------------------------------


class TaskDelegate(QStyledItemDelegate):
    """Paints a row like a task card: dot, title, "default" badge, details, intent chip, switch, error.

    The hovered row and the current row (while the list has the focus) get a real ``TaskCard`` on top as
    a persistent editor; its controls cover what is painted here, which is why the two share one layout.
    """

    def __init__(self, view: TaskListView, model: TaskListModel, now: Callable[[], float]) -> None:
        super().__init__(view)
        self._view = view
        self._model = model
        self._now = now
        self._width = 120
        self._metrics: RowMetrics | None = None
        self._heights: dict[tuple[str, bool, str, int], int] = {}
        self._details: dict[str, tuple[Task, int, int, tuple[int, str, QRect]]] = {}
        self._palette_colors: dict[int, RowColors] = {}
        self._geometries: dict[tuple[str, str, bool, str, int], RowGeometry] = {}
        # Never shown: models for painting chips (one per wording) and for the delete button's size. Style
        # options are made from them when painting, not kept: Qt value objects kept in Python can outlive
        # the QApplication at exit, and freeing them then crashes.
        self._chips: dict[str, IntentChip] = {}
        self._delete = make_delete_button(view.viewport())   # never shown: its size
        self._delete.hide()

    def metrics(self) -> RowMetrics:
        if self._metrics is None:
            font = scaled(self._view.font(), 0.9)
            for chip in self._chips.values():
                chip.setFont(font)
            self._metrics = RowMetrics(self._view.font(), lambda words: self._chip_for(words).sizeHint(), self._delete)
        return self._metrics

    def _chip_for(self, words: str) -> IntentChip:
        chip = self._chips.get(words)
        if chip is None:
            chip = self._chips[words] = IntentChip(self._view.viewport())
            chip.setFont(scaled(self._view.font(), 0.9))
            chip.setMenu(QMenu(chip))
            chip.setText(words)
            chip.setAccessibleName(f"Intent: {words}")
            chip.hide()
        return chip

    def invalidate(self) -> None:
        """Forget sizes (the font, style or palette changed)."""
        self._metrics = None
        self._geometries.clear()
        self._heights.clear()
        self._details.clear()
        self._palette_colors.clear()

    def row_width(self) -> int:
        return self._width

    def set_row_width(self, width: int) -> None:
        self._width = max(120, width)

    def geometry(self, task: Task, error: str, width: int | None = None) -> RowGeometry:
        """The row's layout, cached by what it depends on (id, title, kind, error text, width)."""
        width = self.row_width() if width is None else width
        key = (task.id, task.title, task.is_system, error, width)
        geometry = self._geometries.get(key)
        if geometry is None:
            if len(self._geometries) > 4 * self._view.task_model().rowCount() + 64:
                self._geometries.clear()
            geometry = self.metrics().layout(task, width, error)
            self._geometries[key] = geometry
        return geometry

    # --- Qt delegate API ------------------------------------------------------------------------

    def sizeHint(self, option: QStyleOptionViewItem, index: _AnyIndex) -> QSize:
        # Called for every row on each layout: a tuple and a dict lookup in the common case.
        shape = self._model.shape(index.row())
        if shape is None:
            return QSize(0, 0)
        width = self._width
        key = (*shape, width)
        height = self._heights.get(key)
        if height is None:
            if len(self._heights) > 20_000:
                self._heights.clear()
            height = self._heights[key] = self.metrics().height(*shape, width)
        return QSize(width, height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _AnyIndex) -> None:
        # Runs for every visible row on every repaint: flags and colours are precomputed, one-line texts
        # are drawn at their baseline (a third of the cost of a laid-out text).
        model = self._model
        row = index.row()
        if not 0 <= row < model.rowCount():
            return
        task = model.task_at(row)
        rect: QRect = option.rect
        colors = self._colors(option.palette)
        metrics = self.metrics()
        error = model.error(task.id)
        geometry = self.geometry(task, error, rect.width())
        busy = model.is_busy(task.id)
        active = task.enabled and not task.completed
        painter.save()
        painter.translate(rect.topLeft())
        painter.setRenderHint(_ANTIALIASING)
        focused = bool(option.state & _HAS_FOCUS)
        if focused or self._view.is_highlighted(task.id):
            painter.setPen(QPen(colors.highlight, 1.5) if focused else _NO_PEN)
            painter.setBrush(colors.alternate_base)
            radius = max(4.0, metrics.em * 0.4)
            painter.drawRoundedRect(QRectF(1, 1, rect.width() - 2, rect.height() - ROW_GAP - 2), radius, radius)
        # dot
        painter.setPen(_NO_PEN)
        painter.setBrush(colors.green if active else colors.grey)
        dot = geometry.dot
        side = dot.width() - 1
        painter.drawEllipse(QRectF(dot.left() + 0.5, dot.top() + 0.5, side, side))
        # title
        painter.setFont(metrics.struck_font if task.completed else metrics.font)
        painter.setPen(colors.text if active else colors.quiet)
        title = geometry.title
        if title.height() <= metrics.em:
            painter.drawText(title.left(), title.top() + metrics.fm.ascent(), task.title)
        else:
            painter.drawText(title, WRAP, task.title)
        if geometry.badge is not None:
            badge = geometry.badge
            area = QRectF(badge).adjusted(0.5, 0.5, -0.5, -0.5)
            painter.setPen(colors.badge_pen)
            painter.setBrush(colors.badge_fill)
            painter.drawRoundedRect(area, area.height() / 2, area.height() / 2)
            painter.setFont(metrics.badge_font)
            painter.drawText(badge, _CENTER, "default")   # few rows have one: laid out like the Badge widget
        # details and the intent chip
        words = intent_words(task)
        baseline, shown, chip_rect = self.details(task, geometry, words)
        painter.setFont(metrics.small_font)
        painter.setPen(colors.quiet)
        painter.drawText(geometry.details.left(), baseline, shown)
        if not self._view.has_card(task.id):   # a card's real controls cover these
            self._paint_chip(painter, chip_rect, words, option, enabled=not busy)
            if geometry.toggle is not None:
                paint_toggle(painter, geometry.toggle, option.palette, checked=task.enabled, enabled=not busy)
        if geometry.error is not None:
            painter.setFont(metrics.font)
            painter.setPen(colors.coral)
            painter.drawText(geometry.error, WRAP, error)
        painter.restore()

    def details(self, task: Task, geometry: RowGeometry, words: str) -> tuple[int, str, QRect]:
        """(baseline, shown text, chip rect) of a row's details line, cached for the second it is in."""
        now = self._now()
        second = int(now)
        width = geometry.details.width()
        cached = self._details.get(task.id)
        if cached is not None and cached[0] is task and cached[1] == second and cached[2] == width:
            return cached[3]
        metrics = self.metrics()
        text_rect, shown, chip = metrics.details_and_chip(geometry, details_text(task, now), words)
        centred = (text_rect.height() - metrics.small_fm.height() + 1) // 2   # rounded like AlignVCenter
        baseline = text_rect.top() + centred + metrics.small_fm.ascent()
        result = (baseline, shown, chip)
        if len(self._details) > 4 * self._model.rowCount() + 64:
            self._details.clear()
        self._details[task.id] = (task, second, width, result)
        return result

    def _colors(self, palette: QPalette) -> RowColors:
        key = palette.cacheKey()
        colors = self._palette_colors.get(key)
        if colors is None:
            if len(self._palette_colors) > 8:
                self._palette_colors.clear()
            colors = self._palette_colors[key] = RowColors.of(palette)
        return colors

    def _paint_chip(self, painter: QPainter, rect: QRect, words: str, option: QStyleOptionViewItem, *,
                    enabled: bool) -> None:
        template = self._chip_for(words)
        chip = template.style_option()
        chip.rect = rect
        chip.state = (chip.state & ~(_ENABLED | _ACTIVE | _MOUSE_OVER | _HAS_FOCUS)) | (option.state & _ACTIVE)
        if enabled:
            chip.state |= _ENABLED
        else:
            chip.palette.setCurrentColorGroup(QPalette.ColorGroup.Disabled)
        painter.setRenderHint(_ANTIALIASING, False)
        template.style().drawComplexControl(_CC_TOOL_BUTTON, chip, painter, template)
        painter.setRenderHint(_ANTIALIASING)

    def helpEvent(self, event: QHelpEvent, view: QAbstractItemView, option: QStyleOptionViewItem,  # noqa: N802
                  index: _AnyIndex) -> bool:
        if event.type() != QEvent.Type.ToolTip or not index.isValid():
            return super().helpEvent(event, view, option, index)
        model = self._view.task_model()
        task = model.task_at(index.row())
        rect: QRect = option.rect
        text = self.metrics().tooltip_at(task, event.pos() - rect.topLeft(), rect.width(), model.error(task.id),
                                         self._now())
        if text:
            QToolTip.showText(event.globalPos(), text, view, rect)
        else:
            QToolTip.hideText()
        return True

    # --- the interactive row (a persistent editor) ----------------------------------------------

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: _AnyIndex) -> QWidget:  # noqa: N802
        model = self._view.task_model()
        card = TaskCard(model.task_at(index.row()), self, self._now, self._view, parent)
        self._view.card_created(card)
        return card

    def setEditorData(self, editor: QWidget, index: _AnyIndex) -> None:  # noqa: N802 (Qt override)
        if isinstance(editor, TaskCard) and index.isValid():
            model = self._view.task_model()
            task = model.task_at(index.row())
            editor.set_task(task, busy=model.is_busy(task.id), error=model.error(task.id))

    def setModelData(self, editor: QWidget, model: Any, index: _AnyIndex) -> None:  # noqa: N802 (Qt override)
        """Nothing to write back: a card's controls emit signals and the view makes the change."""

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,  # noqa: N802 (Qt override)
                             index: _AnyIndex) -> None:
        editor.setGeometry(option.rect)

    def destroyEditor(self, editor: QWidget, index: _AnyIndex) -> None:  # noqa: N802 (Qt override)
        if isinstance(editor, TaskCard):
            self._view.card_destroyed(editor)
        super().destroyEditor(editor, index)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        # The stock editor filter turns Tab, Escape and Return into "close the editor"; a card is a row,
        # not an editor: its keys do what they do anywhere else.
        return False


# --- the interactive row ----------------------------------------------------------------------------


def task_menu(parent: QWidget, task: Task, *, on_toggle: Callable[[], None], on_intent: Callable[[str], None],
              on_delete: Callable[[], None]) -> QMenu:
    """The context menu of a task: switch on/off, intent, delete (user tasks), copy the title."""
    menu = QMenu(parent)
    menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    toggle = menu.addAction("Switch off" if task.enabled else "Switch on")
    toggle.triggered.connect(on_toggle)
    intents = menu.addMenu("Intent")
    group = QActionGroup(intents)
    for intent, words in INTENT_WORDS.items():
        action = intents.addAction(words)
        action.setCheckable(True)
        action.setChecked(intent == task.intent)
        action.setToolTip(INTENT_HELP[intent])
        group.addAction(action)
        action.triggered.connect(lambda _checked=False, chosen=intent: on_intent(chosen))
    if not task.is_system:
        delete = menu.addAction("Delete")
        delete.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        delete.triggered.connect(on_delete)
    menu.addSeparator()
    copy = menu.addAction("Copy title")
    copy.setShortcut(QKeySequence(QKeySequence.StandardKey.Copy))
    copy.triggered.connect(lambda: copy_title(task))
    return menu


def copy_title(task: Task) -> None:
    clipboard = QApplication.clipboard()
    if clipboard is not None:
        clipboard.setText(task.title)


class TaskCard(QWidget):
    """The interactive row on top of the hovered or current task: switch, intent menu, delete, context menu.

    It paints nothing itself (the delegate paints the row below it); its controls sit exactly where the
    delegate paints their pictures, and it is told about its task by the view (``set_task``).
    """

    enabled_toggled = Signal(str, bool)
    delete_requested = Signal(str)
    intent_chosen = Signal(str, str)
    entered = Signal(str)
    pressed = Signal(str)
    pinned_changed = Signal()   # a menu of this card opened or closed

    def __init__(self, task: Task, delegate: TaskDelegate, now: Callable[[], float], home: QWidget,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("taskCard")
        self._delegate = delegate
        self._home = home   # where the focus goes when this row's focused control is disabled
        self._now = now
        self._task = task
        self._error = ""
        self._is_busy = False
        self._hovered = False
        self._menus_open = 0
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.toggle = ToggleSwitch(self)
        self.toggle.setToolTip(TOGGLE_TIP)
        self.toggle.toggled.connect(self._on_toggle_toggled)
        self.intent_button = IntentChip(self)
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
        menu.aboutToShow.connect(self._on_menu_about_to_show)
        menu.aboutToHide.connect(self._on_menu_about_to_hide)
        self.intent_button.setMenu(menu)
        self.delete_button = make_delete_button(self)
        self.delete_button.clicked.connect(self._on_delete_button_clicked)
        self.set_task(task)

    @property
    def task(self) -> Task:
        return self._task

    @property
    def is_pinned(self) -> bool:
        """A menu of this card is open: the card must stay."""
        return self._menus_open > 0

    @property
    def error(self) -> str:
        return self._error

    def set_task(self, task: Task, *, busy: bool = False, error: str = "") -> None:
        """Show a new snapshot of the task (while busy, the controls keep what the user just chose)."""
        self._task = task
        self._error = error
        title = task.title
        words = intent_words(task)
        self.setAccessibleName(f"Task: {title}")
        self.setAccessibleDescription(row_description(task, self._now(), error))
        self.toggle.setVisible(not task.is_system)
        self.toggle.setAccessibleName(f"Enable task {title}")
        self.delete_button.setAccessibleName(f"Delete task {title}")
        self.intent_button.setText(words)
        self.intent_button.setAccessibleName(f"Intent of task {title}: {words}")
        self.intent_button.setToolTip(INTENT_HELP.get(task.intent, "") + "\nClick to change.")
        if not busy:
            self.toggle.blockSignals(True)
            self.toggle.setChecked(task.enabled)
            self.toggle.blockSignals(False)
            action = self._intent_actions.get(task.intent)
            if action is not None:
                action.setChecked(True)
        self.set_busy(busy)
        self._place()
        self._update_delete_visibility()

    def set_busy(self, busy: bool) -> None:
        """Disable the controls while a change is in flight."""
        self._is_busy = busy
        if busy and self.has_focus_inside():
            # A disabled widget passes the focus on to the next one in the window: keep it in the list.
            self._home.setFocus(Qt.FocusReason.OtherFocusReason)
        for control in (self.toggle, self.delete_button, self.intent_button):
            control.setEnabled(not busy)

    @property
    def is_busy(self) -> bool:
        return self._is_busy

    def refresh_times(self) -> None:
        self._place()
        self.setAccessibleDescription(row_description(self._task, self._now(), self._error))

    def _place(self) -> None:
        width = self.width() if self.width() > 0 else self._delegate.row_width()
        geometry = self._delegate.geometry(self._task, self._error, width)
        metrics = self._delegate.metrics()
        _, _, chip = metrics.details_and_chip(geometry, details_text(self._task, self._now()),
                                              intent_words(self._task))
        self.intent_button.setGeometry(chip)
        if geometry.toggle is not None:
            self.toggle.setGeometry(geometry.toggle)
        if geometry.delete is not None:
            self.delete_button.setGeometry(geometry.delete)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._place()

    # --- hover and focus reveal the delete button -----------------------------------------------

    @property
    def is_hovered(self) -> bool:
        return self._hovered

    def set_hovered(self, on: bool) -> None:
        if on != self._hovered:
            self._hovered = on
            self.setProperty("hovered", on)
            self._update_delete_visibility()

    def tab_stops(self) -> list[QWidget]:
        """The controls Tab visits, in order."""
        stops: list[QWidget] = [self.intent_button]
        if not self._task.is_system:
            stops = [self.toggle, self.intent_button, self.delete_button]
        return stops

    def set_tab_stops(self, on: bool) -> None:
        """Only the current row's controls are in the Tab order (a hovered row's are for the mouse)."""
        self.toggle.setFocusPolicy(Qt.FocusPolicy.StrongFocus if on else Qt.FocusPolicy.ClickFocus)
        for button in (self.intent_button, self.delete_button):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus if on else Qt.FocusPolicy.NoFocus)

    def has_focus_inside(self) -> bool:
        focus = QApplication.focusWidget()
        return focus is not None and (focus is self or self.isAncestorOf(focus))

    def _update_delete_visibility(self) -> None:
        focused = any(w.hasFocus() for w in (self.toggle, self.delete_button, self.intent_button))
        self.delete_button.setVisible(not self._task.is_system and (self._hovered or focused))

    def on_focus_changed(self) -> None:
        """Keyboard focus moved into or out of this card (the delete button shows while it is inside)."""
        self._update_delete_visibility()

    def enterEvent(self, event: QEnterEvent) -> None:  # noqa: N802 (Qt override)
        self.set_hovered(True)
        self.entered.emit(self._task.id)
        super().enterEvent(event)

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        self.set_hovered(False)
        super().leaveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        if event.button() == Qt.MouseButton.LeftButton:
            self.pressed.emit(self._task.id)
        super().mousePressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt override)
        event.ignore()   # the page scrolls

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self._delegate.metrics().tooltip_at(self._task, event.pos(), self.width(), self._error,
                                                       self._now())
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() == Qt.Key.Key_Delete and not self._task.is_system:
            self.delete_requested.emit(self._task.id)
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 (Qt override)
        menu = task_menu(self, self._task, on_toggle=self._on_toggle_action_triggered,
                         on_intent=self._choose_intent, on_delete=self._on_delete_button_clicked)
        menu.aboutToShow.connect(self._on_menu_about_to_show)
        menu.aboutToHide.connect(self._on_menu_about_to_hide)
        menu.popup(event.globalPos())

    # --- slots ----------------------------------------------------------------------------------

    def _on_toggle_toggled(self, checked: bool) -> None:
        self.enabled_toggled.emit(self._task.id, checked)

    def _on_toggle_action_triggered(self) -> None:
        self.enabled_toggled.emit(self._task.id, not self._task.enabled)

    def _on_delete_button_clicked(self) -> None:
        self.delete_requested.emit(self._task.id)

    def _on_intent_menu_triggered(self, action: QAction) -> None:
        self._choose_intent(str(action.data()))

    def _choose_intent(self, intent: str) -> None:
        if intent != self._task.intent:
            self.intent_chosen.emit(self._task.id, intent)

    def _on_menu_about_to_show(self) -> None:
        self._menus_open += 1
        self.pinned_changed.emit()

    def _on_menu_about_to_hide(self) -> None:
        self._menus_open = max(0, self._menus_open - 1)
        self.pinned_changed.emit()


# --- the view -------------------------------------------------------------------------------------


class TaskListView(QListView):
    """The task rows, as tall as its content: the window's scroll area around it does the scrolling.

    Only visible rows are painted. The hovered row, and the current row while the focus is in the list,
    get a real ``TaskCard``. Keys: arrows move between rows, Space switches the current user task on or
    off, Delete deletes it, the menu key (or Shift+F10) opens its menu, Ctrl+C copies its title, Tab goes
    on into the current row's controls.
    """

    enabled_toggled = Signal(str, bool)
    delete_requested = Signal(str)
    intent_chosen = Signal(str, str)

    def __init__(self, model: TaskListModel, now: Callable[[], float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("taskList")
        self.setAccessibleName("Active tasks")
        self.setAccessibleDescription("Arrow keys move between tasks; Space switches one on or off; Delete deletes"
                                      " it; the menu key opens its menu")
        self._now = now
        self._cards: dict[str, TaskCard] = {}
        self._hover_id: str | None = None
        self._current_id: str | None = None
        self._is_focus_inside = False
        self._is_restoring = False
        self._last_width = 0
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setUniformItemSizes(False)
        self.setLayoutMode(QListView.LayoutMode.Batched)   # a few hundred rows per event-loop turn
        self.setBatchSize(LAYOUT_BATCH)
        self.setSpacing(0)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        self.viewport().setAutoFillBackground(False)   # the window colour shows through, as behind cards
        self.setAutoFillBackground(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._sync_timer = QTimer(self)
        self._sync_timer.setSingleShot(True)
        self._sync_timer.setInterval(0)
        self._sync_timer.timeout.connect(self._on_sync_timer_timeout)
        self.task_delegate = TaskDelegate(self, model, now)
        self.setItemDelegate(self.task_delegate)
        self.setModel(model)
        self.setFixedHeight(0)
        model.row_shape_changed.connect(self._on_model_row_shape_changed)
        model.rowsInserted.connect(self._schedule_sync)
        model.rowsRemoved.connect(self._schedule_sync)
        model.rowsMoved.connect(self._schedule_sync)
        model.modelReset.connect(self._schedule_sync)

    def task_model(self) -> TaskListModel:
        model = self.model()
        assert isinstance(model, TaskListModel)
        return model

    # --- cards ----------------------------------------------------------------------------------

    def has_card(self, task_id: str) -> bool:
        return task_id in self._cards

    def card(self, task_id: str) -> TaskCard | None:
        """The open interactive row of a task (only the hovered and the current row have one)."""
        return self._cards.get(task_id)

    def open_cards(self) -> list[TaskCard]:
        return list(self._cards.values())

    def is_highlighted(self, task_id: str) -> bool:
        if task_id == self._hover_id:
            return True
        card = self._cards.get(task_id)
        return card is not None and card.has_focus_inside()

    def card_created(self, card: TaskCard) -> None:
        self._cards[card.task.id] = card
        card.enabled_toggled.connect(self.enabled_toggled)
        card.delete_requested.connect(self.delete_requested)
        card.intent_chosen.connect(self.intent_chosen)
        card.entered.connect(self._on_card_entered)
        card.pressed.connect(self._on_card_pressed)
        card.pinned_changed.connect(self._schedule_sync)

    def card_destroyed(self, card: TaskCard) -> None:
        if self._cards.get(card.task.id) is card:
            del self._cards[card.task.id]
        if card.has_focus_inside():
            self.setFocus(Qt.FocusReason.OtherFocusReason)   # not to whatever widget comes next
        self.viewport().update()

    def open_row(self, task_id: str, *, hovered: bool = True) -> TaskCard | None:
        """Open the interactive row of a task now (as the mouse does on hover); ``None`` if unknown."""
        if self.task_model().row_of(task_id) is None:
            return None
        if hovered:
            self.set_hover(task_id)
        self._sync_cards()
        card = self._cards.get(task_id)
        if card is None:   # neither hovered nor current: open it anyway, until the next sync
            self._open(task_id)
            card = self._cards.get(task_id)
        return card

    def _wanted(self) -> set[str]:
        wanted = {task_id for task_id, card in self._cards.items() if card.is_pinned or card.has_focus_inside()}
        if self._hover_id is not None:
            wanted.add(self._hover_id)
        if self._is_focus_inside and self._current_id is not None:
            wanted.add(self._current_id)
        return wanted

    def _sync_cards(self) -> None:
        model = self.task_model()
        wanted = {task_id for task_id in self._wanted() if model.row_of(task_id) is not None}
        for task_id in [tid for tid in self._cards if tid not in wanted]:
            index = model.index_of(task_id)
            card = self._cards.pop(task_id)
            if index.isValid() and self.isPersistentEditorOpen(index):
                self.closePersistentEditor(index)
            else:
                card.hide()
                card.deleteLater()
        for task_id in wanted:
            if task_id not in self._cards:
                self._open(task_id)
        current = self._cards.get(self._current_id or "")
        for task_id, card in self._cards.items():
            card.set_hovered(task_id == self._hover_id)
            card.set_tab_stops(card is current)
        if current is not None:   # Tab goes from the list into the current row's controls
            previous: QWidget = self
            for control in current.tab_stops():
                QWidget.setTabOrder(previous, control)
                previous = control

    def _open(self, task_id: str) -> None:
        index = self.task_model().index_of(task_id)
        if index.isValid():
            self.openPersistentEditor(index)

    def _schedule_sync(self, *_args: object) -> None:
        if not self._sync_timer.isActive():
            self._sync_timer.start()

    def _on_sync_timer_timeout(self) -> None:
        self._restore_current()
        self._sync_cards()

    # --- hover ----------------------------------------------------------------------------------

    @property
    def hover_id(self) -> str | None:
        return self._hover_id

    def set_hover(self, task_id: str | None) -> None:
        if task_id == self._hover_id:
            return
        previous, self._hover_id = self._hover_id, task_id
        for tid in (previous, task_id):
            self._update_row(tid)
        self._sync_cards()

    def _update_row(self, task_id: str | None) -> None:
        if task_id is None:
            return
        index = self.task_model().index_of(task_id)
        if index.isValid():
            self.update(index)

    def _task_id_at(self, pos: QPoint) -> str | None:
        index = self.indexAt(pos)
        if not index.isValid():
            return None
        rect = self.visualRect(index)
        if pos.y() > rect.bottom() - ROW_GAP:
            return None
        return self.task_model().task_at(index.row()).id

    def _recheck_hover(self) -> None:
        """Which row is under the mouse now that rows moved under it (scrolled, laid out, grown)."""
        if not self.isVisible() or not self.window().underMouse():
            return
        where = QCursor.pos()
        viewport = self.viewport()
        under = QApplication.widgetAt(where)
        inside = under is not None and (under is viewport or viewport.isAncestorOf(under))
        self.set_hover(self._task_id_at(viewport.mapFromGlobal(where)) if inside else None)

    def _on_card_entered(self, task_id: str) -> None:
        self.set_hover(task_id)

    def _on_card_pressed(self, task_id: str) -> None:
        index = self.task_model().index_of(task_id)
        if index.isValid():
            self.setCurrentIndex(index)
            self.setFocus(Qt.FocusReason.MouseFocusReason)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        self.set_hover(self._task_id_at(event.position().toPoint()))
        super().mouseMoveEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        kind = event.type()
        if kind == QEvent.Type.Leave:
            self.set_hover(None)
        elif kind == QEvent.Type.Enter:   # e.g. the window opened under a still mouse: no move comes
            if isinstance(event, QEnterEvent):
                self.set_hover(self._task_id_at(event.position().toPoint()))
            else:
                QTimer.singleShot(0, self._recheck_hover)
        elif kind == QEvent.Type.Wheel:
            QTimer.singleShot(0, self._recheck_hover)   # the page scrolls under a still mouse
        return super().viewportEvent(event)

    # --- focus and the current row ----------------------------------------------------------------

    def on_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        """The application's focus moved (TasksView forwards ``QApplication.focusChanged``)."""
        inside = new is not None and (new is self or self.isAncestorOf(new))
        card = self._card_of(new)
        if card is not None:
            index = self.task_model().index_of(card.task.id)
            if index.isValid() and index != self.currentIndex():
                self._is_restoring = True   # the row is on screen already: no scrolling
                try:
                    self.setCurrentIndex(index)
                finally:
                    self._is_restoring = False
        for widget in (old, new):
            owner = self._card_of(widget)
            if owner is not None:
                owner.on_focus_changed()
        if inside != self._is_focus_inside:
            self._is_focus_inside = inside
            self._update_row(self._current_id)
        self._schedule_sync()

    def _card_of(self, widget: QWidget | None) -> TaskCard | None:
        while widget is not None and widget is not self:
            if isinstance(widget, TaskCard):
                return widget if self._cards.get(widget.task.id) is widget else None
            widget = widget.parentWidget()
        return None

    @property
    def current_id(self) -> str | None:
        return self._current_id

    def current_task(self) -> Task | None:
        index = self.currentIndex()
        return self.task_model().task_at(index.row()) if index.isValid() else None

    def select_task(self, task_id: str) -> bool:
        """Make a task the current row (and scroll the page to it)."""
        index = self.task_model().index_of(task_id)
        if not index.isValid():
            return False
        self.setCurrentIndex(index)
        return True

    def currentChanged(self, current: _AnyIndex, previous: _AnyIndex) -> None:  # noqa: N802 (Qt override)
        super().currentChanged(current, previous)
        if current.isValid():
            self._current_id = self.task_model().task_at(current.row()).id
        self._schedule_sync()

    def _restore_current(self) -> None:
        """After a reset or removal, the current row is the same task again (or a neighbour)."""
        if self._current_id is None:
            return
        index = self.task_model().index_of(self._current_id)
        if index.isValid() and index != self.currentIndex():
            self._is_restoring = True
            try:
                self.selectionModel().setCurrentIndex(index, self.selectionModel().SelectionFlag.NoUpdate)
            finally:
                self._is_restoring = False
        elif not index.isValid():
            current = self.currentIndex()
            self._current_id = self.task_model().task_at(current.row()).id if current.isValid() else None

    def scrollTo(self, index: _AnyIndex,  # noqa: N802 (Qt override)
                 hint: QAbstractItemView.ScrollHint = QAbstractItemView.ScrollHint.EnsureVisible) -> None:
        """The list never scrolls itself; the page around it scrolls to the row instead."""
        if self._is_restoring or not index.isValid():
            return
        area = self._page()
        if area is None or area.widget() is None:
            return
        rect = self.visualRect(self.task_model().index(index.row(), 0))
        inner = area.widget()
        assert inner is not None
        top = self.viewport().mapTo(inner, rect.topLeft())
        margin = rect.height() // 2 + 2
        area.ensureVisible(top.x() + rect.width() // 2, top.y() + rect.height() // 2, 0, margin)

    def _page(self) -> QScrollArea | None:
        widget = self.parentWidget()
        while widget is not None:
            if isinstance(widget, QScrollArea):
                return widget
            widget = widget.parentWidget()
        return None

    def moveCursor(self, action: QAbstractItemView.CursorAction,  # noqa: N802 (Qt override)
                   modifiers: Qt.KeyboardModifier) -> QModelIndex:
        pages = (QAbstractItemView.CursorAction.MovePageUp, QAbstractItemView.CursorAction.MovePageDown)
        area = self._page()
        current = self.currentIndex()
        if action not in pages or area is None or not current.isValid():
            return super().moveCursor(action, modifiers)
        step = max(1, area.viewport().height() - self.visualRect(current).height())
        rect = self.visualRect(current)
        y = rect.center().y() + (step if action == QAbstractItemView.CursorAction.MovePageDown else -step)
        y = max(0, min(self.viewport().height() - 1, y))
        index = self.indexAt(QPoint(rect.center().x(), y))
        return QModelIndex(index) if index.isValid() else super().moveCursor(action, modifiers)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        task = self.current_task()
        key = event.key()
        plain = not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if task is not None and plain and key == Qt.Key.Key_Space:
            if not task.is_system:
                self.toggle_current()
            return
        if task is not None and plain and key == Qt.Key.Key_Delete:
            if not task.is_system:
                self.delete_requested.emit(task.id)
            return
        if task is not None and event.matches(QKeySequence.StandardKey.Copy):
            copy_title(task)
            return
        super().keyPressEvent(event)

    def toggle_current(self) -> None:
        """Space: switch the current user task on or off (with its real switch when it has one)."""
        task = self.current_task()
        if task is None or task.is_system or self.task_model().is_busy(task.id):
            return
        card = self._cards.get(task.id)
        if card is not None and card.toggle.isEnabled():
            card.toggle.click()
        else:
            self.enabled_toggled.emit(task.id, not task.enabled)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 (Qt override)
        if event.reason() == QContextMenuEvent.Reason.Keyboard:
            index = self.currentIndex()
            position = self.viewport().mapToGlobal(self.visualRect(index).center()) if index.isValid() else None
        else:
            index = self.indexAt(self.viewport().mapFromGlobal(event.globalPos()))
            position = event.globalPos()
        if not index.isValid() or position is None:
            return
        task = self.task_model().task_at(index.row())
        task_id = task.id
        menu = task_menu(self, task, on_toggle=lambda: self.enabled_toggled.emit(task_id, not task.enabled),
                         on_intent=lambda intent: self._choose_intent(task_id, intent),
                         on_delete=lambda: self.delete_requested.emit(task_id))
        menu.popup(position)

    def _choose_intent(self, task_id: str, intent: str) -> None:
        task = self.task_model().task(task_id)
        if task is not None and task.intent != intent:
            self.intent_chosen.emit(task_id, intent)

    # --- size: as tall as the rows ------------------------------------------------------------------

    def updateGeometries(self) -> None:  # noqa: N802 (Qt override)
        super().updateGeometries()
        model = self.model()
        rows = model.rowCount() if isinstance(model, TaskListModel) else 0
        height = max(0, self.contentsSize().height()) if rows else 0
        if height != self.height():
            self.setFixedHeight(height)
        if self._hover_id is None and self.isVisible() and self.window().underMouse():
            QTimer.singleShot(0, self._recheck_hover)   # rows just arrived under a still mouse

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        if event.size().width() != self._last_width:
            self._last_width = event.size().width()
            self.task_delegate.set_row_width(self.viewport().width())
            self.scheduleDelayedItemsLayout()   # titles wrap differently

    def _on_model_row_shape_changed(self) -> None:
        self.scheduleDelayedItemsLayout()

    def dataChanged(self, top_left: _AnyIndex, bottom_right: _AnyIndex,  # noqa: N802 (Qt override)
                    roles: Sequence[int] = ()) -> None:
        # QListView lays every row out again on any dataChanged (1,000 size hints per changed task); rows
        # change height only when the model says so (row_shape_changed), so repaint the row and no more.
        QAbstractItemView.dataChanged(self, top_left, bottom_right, list(roles))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange, QEvent.Type.PaletteChange,
                            QEvent.Type.ApplicationPaletteChange, QEvent.Type.ApplicationFontChange):
            self.retheme()
        super().changeEvent(event)

    def retheme(self) -> None:
        """The font, style or palette changed: measure and paint again."""
        self.task_delegate.invalidate()
        self.scheduleDelayedItemsLayout()
        for card in self._cards.values():
            card.refresh_times()
        self.viewport().update()

    def refresh_times(self) -> None:
        """Times are computed when painting: repaint what is on screen."""
        for card in self._cards.values():
            card.refresh_times()
        self.viewport().update()
