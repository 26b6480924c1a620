"""The Memory tab: browse the newest memories page by page (or only the evicted ones), search them (text and
vectors), add one by hand; which memories have vectors, and how the embedding model is doing."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Protocol

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.memory.store import EVICTED_TAG, Memory
from openhuman_desktop.memory.vectors import MemoryStatus
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.memory.delegate import MemoryDelegate
from openhuman_desktop.qt.intelligence.memory.model import MemoryModel, MemoryReads
from openhuman_desktop.qt.intelligence.muted_label import EmptyState, MutedLabel
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.status_dot import StatusDot
from openhuman_desktop.qt.intelligence.theme import em, make_primary
from openhuman_desktop.qt.intelligence.undo_bar import UndoBar

log = logging.getLogger(__name__)

SEARCH_DELAY_MS = 250


class MemorySource(MemoryReads, Protocol):
    """What the tab reads and writes: the window gives it the ``MemoryService``, the one door memory is written
    through (it stores and publishes ``MemoryAdded`` / ``MemoryRemoved``)."""

    async def add(self, text: object, source: str = "user", tags: Iterable[str] = ()) -> Memory:
        ...

    async def remove(self, memory_id: str) -> None:
        ...


StatusSource = Callable[[], Awaitable[MemoryStatus]]
FILTERS = (("All memories", None), ("Evicted from conversations", EVICTED_TAG))


def status_text(status: MemoryStatus) -> str:
    """The health line: the embedding model, how many memories have its vectors, how many were evicted."""
    embedding = status.embedding
    evicted = f" · {status.evicted:,} evicted from conversations" if status.evicted else ""
    if embedding.model is None:
        return f"No embedding model: search matches words only.{evicted}"
    waiting = f" ({status.pending:,} waiting)" if status.pending else ""
    vectors = f"{status.with_vectors:,} of {status.count:,} memories have vectors{waiting}"
    if not embedding.ok:
        return (f"Embedding model {embedding.model} unavailable: {embedding.reason} Until it is back, search "
                f"matches words only · {vectors}{evicted}")
    return f"Embedding model {embedding.model} · {vectors}{evicted}"


def parse_tags(text: str) -> list[str]:
    """``"work, family ,"`` → ``["work", "family"]``."""
    return [tag.strip() for tag in text.split(",") if tag.strip()]


class MemoryView(QWidget):
    """The Memory tab."""

    def __init__(self, memory: MemorySource, now: Callable[[], float], jobs: Jobs,
                 parent: QWidget | None = None, *, status: StatusSource | None = None) -> None:
        super().__init__(parent)
        self._memory = memory
        self._status_source = status
        self.status: MemoryStatus | None = None
        self._jobs = jobs
        self._removed: Memory | None = None
        self.model = MemoryModel(memory, jobs, now=now, parent=self)
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
        self.filter_box = QComboBox(self)
        self.filter_box.setAccessibleName("Which memories to show")
        for label, _tag in FILTERS:
            self.filter_box.addItem(label)
        self.filter_box.setToolTip("Evicted: older parts of conversations the assistant moved to long-term memory")
        self.filter_box.currentIndexChanged.connect(self._on_filter_box_current_index_changed)
        top.addWidget(self.filter_box)
        layout.addLayout(top)
        health = QHBoxLayout()
        health.setSpacing(pad)
        self.health_dot = StatusDot("grey", self)
        self.health_dot.setAccessibleName("Embedding model health")
        health.addWidget(self.health_dot, 0, Qt.AlignmentFlag.AlignVCenter)
        self.health_label = MutedLabel("", self)
        self.health_label.setAccessibleName("Embedding model and vectors")
        self.health_label.setWordWrap(True)
        health.addWidget(self.health_label, 1)
        layout.addLayout(health)
        self.health_dot.setVisible(status is not None)
        self.health_label.setVisible(status is not None)
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
        self.list_view.setItemDelegate(MemoryDelegate(self.list_view, now, self._embedding_model))
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
        """Reload the list (or the current search), the count and the embedding model's health."""
        await self.update_status()
        await self.model.load(self.search_edit.text(), self.current_tag())
        await self.update_count()

    def current_tag(self) -> str | None:
        """The tag the filter keeps (None: all memories)."""
        return FILTERS[max(0, self.filter_box.currentIndex())][1]

    def _embedding_model(self) -> str | None:
        status = self.status
        return status.embedding.model if status is not None else None

    async def update_status(self) -> bool:
        """Read the vectors' status; returns whether how many memories have vectors changed."""
        if self._status_source is None:
            return False
        try:
            status = await self._status_source()
        except UserFacingError as exc:
            self.health_dot.set_accent("coral")
            self.health_label.setText(str(exc))
            return False
        before, self.status = self.status, status
        embedding = status.embedding
        self.health_dot.set_accent("grey" if embedding.model is None else "green" if embedding.ok else "coral")
        self.health_label.setText(status_text(status))
        self.health_label.setToolTip(embedding.reason)
        return before is None or (before.with_vectors, before.embedding.model) != (
            status.with_vectors, embedding.model)

    async def on_status_changed(self) -> None:
        """The app's status changed (the embedding model came back, a back-fill pass ended): new health, and
        the rows again when their vectors changed."""
        if await self.update_status():
            self.list_view.viewport().update()
            if not self.search_edit.text().strip():
                await self.model.load("", self.current_tag())

    async def update_count(self) -> None:
        try:
            count = await self._memory.count()
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

    def on_app_status_changed(self) -> None:
        """``StatusChanged`` on the bus (through the bridge)."""
        if self._status_source is not None:
            self._jobs.spawn(self.on_status_changed(), name="memory-status", group="memory-status")

    async def search(self, text: str) -> None:
        await self.model.load(text, self.current_tag())

    async def add_memory(self) -> Memory | None:
        """Store what is typed; an error stays below the field, and so does the text."""
        text = self.text_edit.toPlainText()
        if not text.strip():
            self.add_error.show_text("Type what the assistant should remember first.")
            return None
        self._set_adding(True)
        try:
            memory = await self._memory.add(text, source="user", tags=parse_tags(self.tags_edit.text()))
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
        """Forget a memory (through the memory service, which publishes ``MemoryRemoved`` as ``memory_remove``
        over RPC does); "Undo" is offered."""
        row = self.model.row_of(memory_id)
        if row is None:
            return False
        memory = self.model.memory(row)
        self.error_label.clear_text()
        try:
            await self._memory.remove(memory_id)
        except UserFacingError as exc:
            self.error_label.show_text(f"Could not delete the memory: {exc}")
            return False
        self._removed = memory
        self.model.forget(memory_id)
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
            memory = await self._memory.add(removed.text, source=removed.source, tags=removed.tags)
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
            if model.query:
                self.empty_label.setText(f"Nothing matches “{model.query}”.")
            elif model.tag == EVICTED_TAG:
                self.empty_label.setText("Nothing was evicted yet.\nWhen a conversation grows too long for the "
                                         "model, its oldest part is summarised and kept here.")
            else:
                self.empty_label.setText(
                    "No memories yet.\nAdd one below — the assistant also remembers things as it works.")
        self.empty_label.setVisible(empty)
        self.list_view.setVisible(not empty)

    # --- slots ----------------------------------------------------------------------------------

    def _on_search_edit_text_changed(self, _text: str) -> None:
        self._search_timer.start()

    def _on_filter_box_current_index_changed(self, _index: int) -> None:
        self._jobs.spawn(self.search(self.search_edit.text()), name="memory-search", group="memory-search")

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
