"""The Memory tab's list model: memories newest first, page by page, or the best matches of a search."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QWidget

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.memory.store import Memory
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.time_text import clock_time, exact_time

log = logging.getLogger(__name__)

PAGE_SIZE = 100
SEARCH_LIMIT = 200
ROW_LIMIT = 5_000

_AnyIndex = QModelIndex | QPersistentModelIndex


class MemoryReads(Protocol):
    """What the list needs to read memories (a ``MemoryStore``, or the ``MemoryService`` in front of it)."""

    async def search(self, query: object, limit: int = 20) -> list[Memory]:
        ...

    async def list(self, limit: int = 50, before: float | None = None, tag: str | None = None) -> list[Memory]:
        ...

    async def count(self) -> int:
        ...


class MemoryModel(QAbstractListModel):
    """Memories newest first (browsing, paged with ``fetchMore``) or best match first (a search)."""

    MemoryRole = Qt.ItemDataRole.UserRole + 1
    load_state_changed = Signal()

    def __init__(self, store: MemoryReads, jobs: Jobs, *, now: Callable[[], float],
                 page_size: int = PAGE_SIZE, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._store = store
        self._jobs = jobs
        self._now = now
        self.page_size = page_size
        self._rows: list[Memory] = []
        self._ids: set[str] = set()
        self.query = ""
        self.tag: str | None = None
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

    async def load(self, query: str = "", tag: str | None = None) -> None:
        """Browse (empty ``query``) or search; ``tag`` keeps only the memories that carry it."""
        self._generation += 1
        generation = self._generation
        self.tag = tag
        try:
            if query.strip():
                found = await self._store.search(query, SEARCH_LIMIT)
                if tag is not None:
                    found = [memory for memory in found if tag in memory.tags]
            elif tag is not None:
                found = await self._store.list(self.page_size, tag=tag)
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
            before = math.nextafter(oldest.created_at, math.inf)
            try:
                if self.tag is None:
                    found = await self._store.list(limit, before)
                else:
                    found = await self._store.list(limit, before, tag=self.tag)
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
        if self.query or memory.id in self._ids or (self.tag is not None and self.tag not in memory.tags):
            return
        self.beginInsertRows(QModelIndex(), 0, 0)
        self._rows.insert(0, memory)
        self._ids.add(memory.id)
        self.endInsertRows()
        self.load_state_changed.emit()
