"""The Memory tab: browse the newest memories page by page, search them, add one by hand."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QColor, QFont, QFontMetrics, QKeySequence, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.memory.store import Memory
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.tasks import UndoBar
from openhuman_desktop.qt.intelligence.widgets import (
    EmptyState,
    ErrorLabel,
    MutedLabel,
    SectionHeader,
    clock_time,
    em,
    exact_time,
    make_primary,
    muted,
)

log = logging.getLogger(__name__)

PAGE_SIZE = 100
SEARCH_LIMIT = 200
ROW_LIMIT = 5_000
SEARCH_DELAY_MS = 250
TEXT_LINES = 3

_AnyIndex = QModelIndex | QPersistentModelIndex


class MemorySource(Protocol):
    """What the tab needs from the memory store."""

    async def add(self, text: object, source: str = "user", tags: Any = ()) -> Memory:
        ...

    async def search(self, query: object, limit: int = 20) -> list[Memory]:
        ...

    async def list(self, limit: int = 50, before: float | None = None) -> list[Memory]:
        ...

    async def count(self) -> int:
        ...

    async def remove(self, memory_id: str) -> None:
        ...


def parse_tags(text: str) -> list[str]:
    """``"work, family ,"`` → ``["work", "family"]``."""
    return [tag.strip() for tag in text.split(",") if tag.strip()]


class MemoryModel(QAbstractListModel):
    """Memories newest first (browsing, paged with ``fetchMore``) or best match first (a search)."""

    MemoryRole = Qt.ItemDataRole.UserRole + 1
    load_state_changed = Signal()

    def __init__(self, store: MemorySource, jobs: Jobs, *, now: Callable[[], float],
                 page_size: int = PAGE_SIZE, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._store = store
        self._jobs = jobs
        self._now = now
        self.page_size = page_size
        self._rows: list[Memory] = []
        self._ids: set[str] = set()
        self.query = ""
        self._has_more = False
        self._is_fetching = False
        self.is_loaded = False
        self.error = ""
        self._generation = 0

    def rowCount(self, parent: _AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt default)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.parent().isValid() or not 0 <= index.row() < len(self._rows):
            return None
        memory = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return memory.text
        if role == self.MemoryRole:
            return memory
        if role == Qt.ItemDataRole.ToolTipRole:
            tags = f" · {', '.join(memory.tags)}" if memory.tags else ""
            return f"{exact_time(memory.created_at)} · {memory.source}{tags}"
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{memory.text} ({memory.source}, {clock_time(memory.created_at, self._now())})"
        return None

    def canFetchMore(self, parent: _AnyIndex) -> bool:  # noqa: N802 (Qt override)
        return (not parent.isValid() and self.is_loaded and not self.query and self._has_more
                and not self._is_fetching and len(self._rows) < ROW_LIMIT)

    def fetchMore(self, parent: _AnyIndex) -> None:  # noqa: N802 (Qt override)
        if self.canFetchMore(parent):
            self._is_fetching = True
            self._jobs.spawn(self.load_more(), name="memory-fetch-more")

    def memory(self, row: int) -> Memory:
        return self._rows[row]

    def row_of(self, memory_id: str) -> int | None:
        if memory_id not in self._ids:
            return None
        return next(row for row, memory in enumerate(self._rows) if memory.id == memory_id)

    async def load(self, query: str = "") -> None:
        """Browse (empty ``query``) or search."""
        self._generation += 1
        generation = self._generation
        try:
            if query.strip():
                found = await self._store.search(query, SEARCH_LIMIT)
            else:
                found = await self._store.list(self.page_size)
        except UserFacingError as exc:
            if generation == self._generation:
                self.error = str(exc)
                self.query = query.strip()
                self.load_state_changed.emit()
            return
        if generation != self._generation:
            return
        self.beginResetModel()
        self.query = query.strip()
        self._rows = list(found)
        self._ids = {memory.id for memory in found}
        self._has_more = not self.query and len(found) >= self.page_size
        self._is_fetching = False
        self.is_loaded = True
        self.error = ""
        self.endResetModel()
        self.load_state_changed.emit()

    async def load_more(self) -> None:
        generation = self._generation
        try:
            if not self._rows:
                return
            oldest = self._rows[-1]
            same = sum(1 for memory in self._rows if memory.created_at == oldest.created_at)
            limit = min(self.page_size + same, 1000)
            try:
                found = await self._store.list(limit, math.nextafter(oldest.created_at, math.inf))
            except UserFacingError as exc:
                self.error = str(exc)
                return
            if generation != self._generation:
                return
            fresh = [m for m in found if m.id not in self._ids]
            if fresh:
                first = len(self._rows)
                self.beginInsertRows(QModelIndex(), first, first + len(fresh) - 1)
                self._rows.extend(fresh)
                self._ids.update(m.id for m in fresh)
                self.endInsertRows()
            self._has_more = len(found) >= limit and bool(fresh)
        finally:
            self._is_fetching = False
            self.load_state_changed.emit()

    def forget(self, memory_id: str) -> None:
        """Drop a memory that was removed."""
        if memory_id not in self._ids:
            return
        row = next(row for row, memory in enumerate(self._rows) if memory.id == memory_id)
        self.beginRemoveRows(QModelIndex(), row, row)
        del self._rows[row]
        self._ids.discard(memory_id)
        self.endRemoveRows()
        self.load_state_changed.emit()

    def prepend(self, memory: Memory) -> None:
        """Show a memory just added (browsing only; a search shows it when it matches)."""
        if self.query or memory.id in self._ids:
            return
        self.beginInsertRows(QModelIndex(), 0, 0)
        self._rows.insert(0, memory)
        self._ids.add(memory.id)
        self.endInsertRows()
        self.load_state_changed.emit()


class MemoryDelegate(QStyledItemDelegate):
    """A memory as up to three lines of text and a quiet line with source, time and tags."""

    def __init__(self, view: QListView, now: Callable[[], float]) -> None:
        super().__init__(view)
        self._view = view
        self._now = now

    def _layout(self, option: QStyleOptionViewItem, memory: Memory) -> tuple[QFont, QFontMetrics, int, int, int]:
        font = QFont(option.font)
        fm = QFontMetrics(font)
        pad = max(4, fm.height() // 3)
        width = max(60, self._view.viewport().width() - pad * 6)
        bounds = fm.boundingRect(QRect(0, 0, width, fm.height() * TEXT_LINES), int(Qt.TextFlag.TextWordWrap),
                                 memory.text)
        text_h = min(fm.height() * TEXT_LINES, max(fm.height(), bounds.height()))
        return font, fm, pad, width, text_h

    def sizeHint(self, option: QStyleOptionViewItem, index: _AnyIndex) -> QSize:
        memory = index.data(MemoryModel.MemoryRole)
        if memory is None:
            return QSize(0, 0)
        _, fm, pad, width, text_h = self._layout(option, memory)
        return QSize(width, pad * 3 + text_h + fm.height())

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _AnyIndex) -> None:
        memory: Memory | None = index.data(MemoryModel.MemoryRole)
        if memory is None:
            return
        font, fm, pad, width, text_h = self._layout(option, memory)
        rect: QRect = option.rect
        palette: QPalette = option.palette
        state = option.state
        painter.save()
        selected = bool(state & QStyle.StateFlag.State_Selected)
        if selected:
            painter.fillRect(rect, palette.color(QPalette.ColorRole.Highlight))
        text_color = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        painter.setFont(font)
        painter.setPen(text_color)
        box = QRect(rect.left() + pad * 3, rect.top() + pad, width, text_h)
        text = memory.text
        lines = fm.boundingRect(QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), text).height()
        if lines > text_h:   # cut to the lines that fit, ending with an ellipsis
            text = fm.elidedText(" ".join(text.split()), Qt.TextElideMode.ElideRight, width * TEXT_LINES - width // 3)
        painter.drawText(box, int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignTop), text)
        painter.setPen(text_color if selected else muted(palette))
        tags = "   " + "  ".join(f"#{tag}" for tag in memory.tags) if memory.tags else ""
        meta = f"{memory.source} · {clock_time(memory.created_at, self._now())}{tags}"
        painter.drawText(QRect(box.left(), box.bottom() + pad, width, fm.height()),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         fm.elidedText(meta, Qt.TextElideMode.ElideRight, width))
        line = QColor(palette.color(QPalette.ColorRole.WindowText))
        line.setAlphaF(0.08)
        painter.setPen(line)
        painter.drawLine(rect.left() + pad * 2, rect.bottom(), rect.right() - pad * 2, rect.bottom())
        painter.restore()


class MemoryView(QWidget):
    """The Memory tab."""

    def __init__(self, store: MemorySource, now: Callable[[], float], jobs: Jobs,
                 parent: QWidget | None = None, *, removed: Callable[[str], None] = lambda _memory_id: None) -> None:
        super().__init__(parent)
        self._store = store
        self._jobs = jobs
        self._publish_removed = removed   # publishes MemoryRemoved, as memory_remove over RPC does
        self._removed: Memory | None = None
        self.model = MemoryModel(store, jobs, now=now, parent=self)
        self.model.load_state_changed.connect(self._on_model_load_state_changed)
        self.model.modelReset.connect(self._on_model_load_state_changed)
        pad = max(6, em(self) // 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(pad * 2, pad * 2, pad * 2, pad * 2)
        layout.setSpacing(pad)
        top = QHBoxLayout()
        top.addWidget(SectionHeader("Memory", self))
        self.count_label = MutedLabel("", self)
        self.count_label.setAccessibleName("Number of memories")
        top.addWidget(self.count_label)
        top.addStretch(1)
        layout.addLayout(top)
        self.search_edit = QLineEdit(self)
        self.search_edit.setPlaceholderText("Search memories…")
        self.search_edit.setAccessibleName("Search memories")
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.textChanged.connect(self._on_search_edit_text_changed)
        layout.addWidget(self.search_edit)
        self.error_label = ErrorLabel(self)
        layout.addWidget(self.error_label)
        self.list_view = QListView(self)
        self.list_view.setAccessibleName("Memories")
        self.list_view.setModel(self.model)
        self.list_view.setItemDelegate(MemoryDelegate(self.list_view, now))
        self.list_view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.list_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list_view.setUniformItemSizes(False)
        self.list_view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.delete_action = QAction("Delete memory", self.list_view)
        self.delete_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.delete_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.delete_action.triggered.connect(self._on_delete_action_triggered)
        self.list_view.addAction(self.delete_action)
        self.copy_action = QAction("Copy text", self.list_view)
        self.copy_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Copy))
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.copy_action.triggered.connect(self._on_copy_action_triggered)
        self.list_view.addAction(self.copy_action)
        layout.addWidget(self.list_view, 1)
        actions = QHBoxLayout()
        self.delete_button = QPushButton("Delete", self)
        self.delete_button.setAccessibleName("Delete the selected memory")
        self.delete_button.setToolTip("Forget the selected memory (Delete); you can undo it for a few seconds")
        self.delete_button.setEnabled(False)
        self.delete_button.clicked.connect(self._on_delete_action_triggered)
        actions.addStretch(1)
        actions.addWidget(self.delete_button)
        layout.addLayout(actions)
        self.undo_bar = UndoBar(self)
        self.undo_bar.label.setAccessibleName("Deleted memory")
        self.undo_bar.undo_button.setAccessibleName("Undo deleting the memory")
        self.undo_bar.undo_requested.connect(self._on_undo_bar_undo_requested)
        layout.addWidget(self.undo_bar)
        self.list_view.selectionModel().currentChanged.connect(self._on_list_view_current_changed)
        self.model.modelReset.connect(self._update_delete)
        self.model.rowsRemoved.connect(self._update_delete)
        self.empty_label = EmptyState("", self)
        self.empty_label.setAccessibleName("No memories")
        self.empty_label.hide()
        layout.addWidget(self.empty_label, 1)
        add_frame = QFrame(self)
        add_frame.setObjectName("addMemory")
        add = QVBoxLayout(add_frame)
        add.setContentsMargins(0, pad, 0, 0)
        add.setSpacing(pad)
        add.addWidget(SectionHeader("Remember something", add_frame))
        self.text_edit = QPlainTextEdit(add_frame)
        self.text_edit.setPlaceholderText("A fact or note the assistant should know, e.g. “My dentist is Dr. Lee.”")
        self.text_edit.setAccessibleName("New memory")
        self.text_edit.setTabChangesFocus(True)
        self.text_edit.setFixedHeight(em(self) * 3 + pad * 2)
        self.text_edit.textChanged.connect(self._on_text_edit_text_changed)
        add.addWidget(self.text_edit)
        row = QHBoxLayout()
        self.tags_edit = QLineEdit(add_frame)
        self.tags_edit.setPlaceholderText("Tags, comma separated (optional)")
        self.tags_edit.setAccessibleName("Tags of the new memory")
        row.addWidget(self.tags_edit, 1)
        self.add_button = QPushButton("Remember", add_frame)
        make_primary(self.add_button)
        self.add_button.setAccessibleName("Remember")
        self.add_button.setEnabled(False)
        self.add_button.clicked.connect(self._on_add_button_clicked)
        row.addWidget(self.add_button)
        add.addLayout(row)
        self.add_error = ErrorLabel(add_frame)
        add.addWidget(self.add_error)
        layout.addWidget(add_frame)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self._on_search_timer_timeout)
        self._is_adding = False

    # --- data -----------------------------------------------------------------------------------

    async def refresh(self) -> None:
        """Reload the list (or the current search) and the count."""
        await self.model.load(self.search_edit.text())
        await self.update_count()

    async def update_count(self) -> None:
        try:
            count = await self._store.count()
        except UserFacingError:
            self.count_label.setText("")
        else:
            self.count_label.setText(f"{count:,} memor{'y' if count == 1 else 'ies'}")

    def on_memory_added(self, memory: Memory) -> None:
        """A memory stored elsewhere (by the assistant, over RPC): shown at the top while browsing."""
        self.model.prepend(memory)
        self._jobs.spawn(self.update_count(), name="memory-count", group="memory-count")

    def on_memory_removed(self, memory_id: str) -> None:
        self.model.forget(memory_id)
        self._jobs.spawn(self.update_count(), name="memory-count", group="memory-count")

    async def search(self, text: str) -> None:
        await self.model.load(text)

    async def add_memory(self) -> Memory | None:
        """Store what is typed; an error stays below the field, and so does the text."""
        text = self.text_edit.toPlainText()
        if not text.strip():
            self.add_error.show_text("Type what the assistant should remember first.")
            return None
        self._set_adding(True)
        try:
            memory = await self._store.add(text, source="user", tags=parse_tags(self.tags_edit.text()))
        except UserFacingError as exc:
            self.add_error.show_text(str(exc))
            return None
        finally:
            self._set_adding(False)
        self.text_edit.clear()
        self.tags_edit.clear()
        self.add_error.clear_text()
        self.model.prepend(memory)
        await self.update_count()
        return memory

    def current_memory(self) -> Memory | None:
        index = self.list_view.currentIndex()
        if not index.isValid() or not 0 <= index.row() < self.model.rowCount():
            return None
        return self.model.memory(index.row())

    async def delete_memory(self, memory_id: str) -> bool:
        """Forget a memory (the store's remove, as ``memory_remove`` over RPC); "Undo" is offered."""
        row = self.model.row_of(memory_id)
        if row is None:
            return False
        memory = self.model.memory(row)
        self.error_label.clear_text()
        try:
            await self._store.remove(memory_id)
        except UserFacingError as exc:
            self.error_label.show_text(f"Could not delete the memory: {exc}")
            return False
        self._removed = memory
        self.model.forget(memory_id)
        self._publish_removed(memory_id)
        self.undo_bar.offer(memory.text)
        await self.update_count()
        return True

    async def undo_delete(self) -> Memory | None:
        """Remember the last deleted memory again (same text, source and tags; a new id)."""
        removed = self._removed
        if removed is None:
            return None
        self.undo_bar.undo_button.setEnabled(False)
        try:
            memory = await self._store.add(removed.text, source=removed.source, tags=removed.tags)
        except UserFacingError as exc:
            self.undo_bar.error_label.show_text(str(exc))
            self.undo_bar.undo_button.setEnabled(True)
            return None
        self._removed = None
        self.undo_bar.withdraw()
        self.model.prepend(memory)
        await self.update_count()
        return memory

    def _update_delete(self, *_args: object) -> None:
        self.delete_button.setEnabled(self.current_memory() is not None)
        self.delete_action.setEnabled(self.current_memory() is not None)

    def _set_adding(self, adding: bool) -> None:
        self._is_adding = adding
        self.add_button.setText("Remembering…" if adding else "Remember")
        self.text_edit.setReadOnly(adding)
        self._update_add_button()

    def _update_add_button(self) -> None:
        self.add_button.setEnabled(bool(self.text_edit.toPlainText().strip()) and not self._is_adding)

    # --- states ---------------------------------------------------------------------------------

    def _on_model_load_state_changed(self) -> None:
        model = self.model
        if model.error:
            self.error_label.show_text(
                model.error if model.query else f"Could not load the memories: {model.error}"
            )
        else:
            self.error_label.clear_text()
        empty = model.is_loaded and model.rowCount() == 0 and not model.error
        if empty:
            self.empty_label.setText(
                f"Nothing matches “{model.query}”." if model.query
                else "No memories yet.\nAdd one below — the assistant also remembers things as it works."
            )
        self.empty_label.setVisible(empty)
        self.list_view.setVisible(not empty)

    # --- slots ----------------------------------------------------------------------------------

    def _on_search_edit_text_changed(self, _text: str) -> None:
        self._search_timer.start()

    def _on_search_timer_timeout(self) -> None:
        self._jobs.spawn(self.search(self.search_edit.text()), name="memory-search", group="memory-search")

    def _on_text_edit_text_changed(self) -> None:
        self._update_add_button()
        if self.text_edit.toPlainText().strip() and not self._is_adding:
            self.add_error.clear_text()

    def _on_add_button_clicked(self) -> None:
        self._jobs.spawn(self.add_memory(), name="add-memory")

    def _on_list_view_current_changed(self, *_args: object) -> None:
        self._update_delete()

    def _on_delete_action_triggered(self) -> None:
        memory = self.current_memory()
        if memory is not None:
            self._jobs.spawn(self.delete_memory(memory.id), name="delete-memory")

    def _on_copy_action_triggered(self) -> None:
        memory = self.current_memory()
        clipboard = QApplication.clipboard()
        if memory is not None and clipboard is not None:
            clipboard.setText(memory.text)

    def _on_undo_bar_undo_requested(self) -> None:
        self._jobs.spawn(self.undo_delete(), name="undo-delete-memory")
