"""The world timeline page: every real mutation the agent made, newest first, paged, filtered by kind."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.orchestration.ports import TimelineEntry
from openhuman_desktop.orchestration.world import KIND_WORDS
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.muted_label import EmptyState, MutedLabel
from openhuman_desktop.qt.intelligence.paged_model import PagedListModel
from openhuman_desktop.qt.intelligence.panel_frame import PanelFrame
from openhuman_desktop.qt.intelligence.theme import accent, em, muted, scale_font
from openhuman_desktop.qt.intelligence.time_text import clock_time, exact_time

AnyIndex = QModelIndex | QPersistentModelIndex

PAGE_SIZE = 100
ROW_LIMIT = 5_000
NEWER_LIMIT = 500
ALL_KINDS = ""
KIND_ACCENT = {"file_written": "blue", "file_deleted": "coral", "memory_stored": "green", "memory_removed": "coral",
               "task_created": "green", "task_changed": "amber", "message_sent": "blue", "steering_changed": "amber"}


class TimelinePages(Protocol):
    """What the page reads from the run ledger."""

    async def timeline_page(self, before: int | None = None, limit: int = 100,
                            kind: str | None = None) -> list[TimelineEntry]: ...

    async def timeline(self, after: int = 0, limit: int = 100) -> list[TimelineEntry]: ...


def kind_of(entry: TimelineEntry) -> str | None:
    """The mutation kind an entry's signature names (``file_written``), or None for one the app does not know."""
    for kind, words in KIND_WORDS.items():
        if entry.event_signature == words or entry.event_signature.startswith(f"{words}: "):
            return kind
    return None


def split_signature(entry: TimelineEntry) -> tuple[str, str]:
    """``("File written", "notes/todo.md")``."""
    words, _, target = entry.event_signature.partition(": ")
    return words, target


class TimelineModel(PagedListModel[TimelineEntry]):
    """Timeline entries newest first; :meth:`load` (a kind or all), ``fetchMore`` for older pages,
    :meth:`load_newer` for what came since (after a run or a steering change)."""

    EntryRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, jobs: Jobs, now: Callable[[], float], page_size: int = PAGE_SIZE,
                 parent: QObject | None = None) -> None:
        super().__init__(jobs, page_size=page_size, row_limit=ROW_LIMIT, job_name="agent-timeline-fetch-more",
                         parent=parent)
        self._now = now
        self._source: TimelinePages | None = None
        self.kind: str | None = None
        self._reading_kind: str | None = None
        self._newest_seen = 0

    def set_source(self, source: TimelinePages | None) -> None:
        self._source = source

    async def load(self, kind: str | None = None) -> None:
        """The newest page of ``kind`` (None: every kind)."""
        self._reading_kind = kind
        await super().load()

    async def _page(self, after: TimelineEntry | None) -> list[TimelineEntry] | None:
        if self._source is None:
            return None
        if after is None:
            return await self._source.timeline_page(None, self.page_size, self._reading_kind)
        return await self._source.timeline_page(after.sequence, self.page_size, self.kind)

    def _key(self, item: TimelineEntry) -> int:
        return item.sequence

    def _loaded(self, found: Sequence[TimelineEntry]) -> None:
        self.kind = self._reading_kind
        self._newest_seen = max([self._newest_seen, *(e.sequence for e in found)])

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.parent().isValid() or not 0 <= index.row() < len(self._rows):
            return None
        entry = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return entry.event_signature
        if role == self.EntryRole:
            return entry
        if role == Qt.ItemDataRole.ToolTipRole:
            run = f"\nMade by run {entry.run_id} (Enter or double-click shows it)" if entry.run_id else ""
            return f"#{entry.sequence} · {exact_time(entry.at)}{run}"
        if role == Qt.ItemDataRole.AccessibleTextRole:
            parts = [entry.event_signature, entry.world_mutation, entry.delta_delta, clock_time(entry.at, self._now())]
            return ". ".join(part for part in parts if part)
        return None

    async def load_newer(self) -> None:
        """Put the entries written since the last read on top (those of the kind shown)."""
        if self._source is None or not self.is_loaded:
            return
        generation = self._generation
        try:
            found = await self._source.timeline(self._newest_seen, NEWER_LIMIT)
        except UserFacingError:
            return
        if generation != self._generation or not found:
            return
        if len(found) >= NEWER_LIMIT:   # a burst: read the page again rather than hundreds of inserts
            await self.load(self.kind)
            return
        self._newest_seen = max(self._newest_seen, found[-1].sequence)
        top = self._rows[0].sequence if self._rows else 0
        fresh = [e for e in reversed(found) if e.sequence > top and (self.kind is None or kind_of(e) == self.kind)]
        if not fresh:
            return
        self._insert_top(fresh)
        self.load_state_changed.emit()


class TimelineDelegate(QStyledItemDelegate):
    """An entry as its kind (coloured), the target, what changed and the size change, with time and number."""

    def __init__(self, view: QListView, now: Callable[[], float]) -> None:
        super().__init__(view)
        self._view = view
        self._now = now

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        fm = QFontMetrics(option.font)
        pad = max(4, fm.height() // 3)
        return QSize(max(60, self._view.viewport().width()), pad * 3 + fm.height() * 2)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        entry: TimelineEntry | None = index.data(TimelineModel.EntryRole)
        if entry is None:
            return
        rect: QRect = option.rect
        palette: QPalette = option.palette
        font = QFont(option.font)
        fm = QFontMetrics(font)
        pad = max(4, fm.height() // 3)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.save()
        if selected:
            painter.fillRect(rect, palette.color(QPalette.ColorRole.Highlight))
        text_color = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        quiet = text_color if selected else muted(palette)
        left, right = rect.left() + pad * 3, rect.right() - pad * 3
        words, target = split_signature(entry)
        # Right: time and sequence number, quiet.
        number_w = fm.horizontalAdvance("#00000")   # numbers line up in their own column
        stamp_w = number_w + pad * 2 + fm.horizontalAdvance(clock_time(entry.at, self._now()))
        painter.setFont(font)
        painter.setPen(quiet)
        top_line = QRect(left, rect.top() + pad, right - left, fm.height())
        painter.drawText(top_line, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                         f"#{entry.sequence}")
        painter.drawText(top_line.adjusted(0, 0, -(number_w + pad * 2), 0),
                         int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                         clock_time(entry.at, self._now()))
        # Left: the kind in its accent colour, then the target.
        bold = scale_font(font, bold=True)
        bold_fm = QFontMetrics(bold)
        kind_color = text_color if selected else accent(KIND_ACCENT.get(kind_of(entry) or "", "grey"), palette)
        painter.setFont(bold)
        painter.setPen(kind_color)
        room = max(20, right - left - stamp_w - pad * 3)
        kind_text = bold_fm.elidedText(words, Qt.TextElideMode.ElideRight, room)
        painter.drawText(QRect(left, top_line.top(), room, fm.height()),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), kind_text)
        kind_w = bold_fm.horizontalAdvance(kind_text) + pad
        if target and room - kind_w > 20:
            painter.setFont(font)
            painter.setPen(text_color)
            painter.drawText(QRect(left + kind_w, top_line.top(), room - kind_w, fm.height()),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                             fm.elidedText(target, Qt.TextElideMode.ElideMiddle, room - kind_w))
        # Second line: what changed and by how much.
        details = " · ".join(part for part in (entry.world_mutation, entry.delta_delta) if part)
        painter.setFont(font)
        painter.setPen(quiet)
        painter.drawText(QRect(left, rect.top() + pad * 2 + fm.height(), right - left, fm.height()),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         fm.elidedText(details, Qt.TextElideMode.ElideRight, right - left))
        line = QColor(palette.color(QPalette.ColorRole.WindowText))
        line.setAlphaF(0.08)
        painter.setPen(line)
        painter.drawLine(rect.left() + pad * 2, rect.bottom(), rect.right() - pad * 2, rect.bottom())
        painter.restore()


class TimelineView(QWidget):
    """The World timeline page: a kind filter over the lazy list. Enter or a double click on an entry that
    a run made emits ``run_requested`` (its run id)."""

    run_requested = Signal(str)

    def __init__(self, jobs: Jobs, now: Callable[[], float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._jobs = jobs
        self.setAccessibleName("World timeline")
        pad = max(6, em(self) // 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, pad, 0, 0)
        layout.setSpacing(pad)
        top = QHBoxLayout()
        top.setSpacing(pad)
        self.summary_label = MutedLabel(
            "Every real change the assistant made — files, memories, tasks, messages, steering — newest first.", self)
        self.summary_label.setWordWrap(True)
        top.addWidget(self.summary_label, 1)
        self.kind_combo = QComboBox(self)
        self.kind_combo.setAccessibleName("Show only this kind of change")
        self.kind_combo.setToolTip("Show only this kind of change")
        self.kind_combo.addItem("All kinds", ALL_KINDS)
        for kind, words in KIND_WORDS.items():
            self.kind_combo.addItem(words, kind)
        top.addWidget(self.kind_combo)
        layout.addLayout(top)
        self.error_label = ErrorLabel(self)
        layout.addWidget(self.error_label)
        self.panel = PanelFrame(self)
        panel_layout = QVBoxLayout(self.panel)
        panel_layout.setContentsMargins(2, 2, 2, 2)
        self.model = TimelineModel(jobs, now, parent=self)
        self.list_view = QListView(self.panel)
        self.list_view.setAccessibleName("Timeline entries")
        self.list_view.setModel(self.model)
        self.list_view.setItemDelegate(TimelineDelegate(self.list_view, now))
        self.list_view.setUniformItemSizes(True)
        self.list_view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.list_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list_view.setFrameShape(QListView.Shape.NoFrame)
        self.list_view.viewport().setAutoFillBackground(False)
        panel_layout.addWidget(self.list_view, 1)
        self.empty_label = EmptyState("", self.panel)
        self.empty_label.setAccessibleName("No timeline entries")
        self.empty_label.hide()
        panel_layout.addWidget(self.empty_label, 1)
        layout.addWidget(self.panel, 1)
        self.kind_combo.currentIndexChanged.connect(self._on_kind_combo_current_index_changed)
        self.model.load_state_changed.connect(self._on_model_load_state_changed)
        self.model.modelReset.connect(self._on_model_load_state_changed)
        self.list_view.activated.connect(self._on_list_view_activated)
        self.setFocusProxy(self.list_view)

    def set_source(self, source: TimelinePages | None) -> None:
        self.model.set_source(source)
        if source is None:
            self.empty_label.setText("The world timeline lives in the agent's ledger, which this window does not have.")
            self.empty_label.show()
            self.list_view.hide()

    @property
    def kind(self) -> str | None:
        return str(self.kind_combo.currentData()) or None

    async def refresh(self) -> None:
        await self.model.load(self.kind)

    def _on_kind_combo_current_index_changed(self, _index: int) -> None:
        self._jobs.spawn(self.model.load(self.kind), name="agent-timeline-load", group="agent-timeline-load")

    def _on_list_view_activated(self, index: QModelIndex) -> None:
        entry = index.data(TimelineModel.EntryRole)
        if isinstance(entry, TimelineEntry) and entry.run_id:
            self.run_requested.emit(entry.run_id)

    def _on_model_load_state_changed(self) -> None:
        model = self.model
        if model.error:
            self.error_label.show_text(f"Could not read the timeline: {model.error}")
        else:
            self.error_label.clear_text()
        if not model.is_loaded:
            return
        empty = model.rowCount() == 0
        if empty:
            self.empty_label.setText(
                f"No “{KIND_WORDS.get(model.kind, model.kind)}” changes yet." if model.kind else
                "No changes yet. When the assistant writes a file, stores a memory, changes a task or sends a "
                "message, it shows here.")
        self.empty_label.setVisible(empty)
        self.list_view.setVisible(not empty)
