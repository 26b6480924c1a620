"""A lazy list model of rows read from the ledger newest first: the first page on :meth:`PagedListModel.load`,
older pages as the view scrolls (``fetchMore``), every read an async job (never a read on the GUI thread's
critical path). The Agent tab's runs, directive versions and world timeline are such lists."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Generic, TypeVar

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Signal

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.qt.asyncutil import Jobs

AnyIndex = QModelIndex | QPersistentModelIndex
T = TypeVar("T")


class PagedListModel(QAbstractListModel, Generic[T]):
    """Rows newest first, paged. A subclass says how to read a page (:meth:`_page`) and what identifies a row
    (:meth:`_key`); this class keeps the rows, an index by key, the paging state and ``error`` (the last read's
    problem in one sentence, "" when fine). A :meth:`load` started while another read is on its way wins: the
    older read's answer is dropped (``_generation``)."""

    load_state_changed = Signal()

    def __init__(self, jobs: Jobs, *, page_size: int, row_limit: int | None, job_name: str,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._jobs = jobs
        self.page_size = page_size
        self._row_limit = row_limit
        self._job_name = job_name
        self._rows: list[T] = []
        self._index: dict[Hashable, int] = {}
        self._has_more = False
        self._is_fetching = False
        self._generation = 0
        self.is_loaded = False
        self.error = ""

    # --- what a subclass says ---------------------------------------------------------------------------

    async def _page(self, after: T | None) -> Sequence[T] | None:
        """The page of rows older than ``after`` (None: the newest page); None when there is no source."""
        raise NotImplementedError

    def _key(self, item: T) -> Hashable:
        raise NotImplementedError

    def _loaded(self, found: Sequence[T]) -> None:
        """Called inside the model reset of a first page (a subclass's own bookkeeping)."""

    # --- Qt model API -----------------------------------------------------------------------------------

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt default)
        return 0 if parent.isValid() else len(self._rows)

    def canFetchMore(self, parent: AnyIndex) -> bool:  # noqa: N802 (Qt override)
        return (not parent.isValid() and self.is_loaded and self._has_more and not self._is_fetching
                and (self._row_limit is None or len(self._rows) < self._row_limit))

    def fetchMore(self, parent: AnyIndex) -> None:  # noqa: N802 (Qt override)
        if self.canFetchMore(parent):
            self._is_fetching = True
            self._jobs.spawn(self.load_more(), name=self._job_name)

    # --- reading ----------------------------------------------------------------------------------------

    @property
    def is_fetching(self) -> bool:
        """Whether an older page is being read."""
        return self._is_fetching

    def rows(self) -> list[T]:
        return list(self._rows)

    def item(self, row: int) -> T:
        return self._rows[row]

    def row_of(self, key: Hashable) -> int | None:
        """The row of the item whose key is ``key``, or None."""
        return self._index.get(key)

    async def load(self) -> None:
        """The newest page (replaces what is shown)."""
        self._generation += 1
        generation = self._generation
        try:
            found = await self._page(None)
        except UserFacingError as exc:
            if generation == self._generation:
                self.error = str(exc)
                self.load_state_changed.emit()
            return
        if found is None or generation != self._generation:
            return
        self.beginResetModel()
        self._rows = list(found)
        self._reindex()
        self._has_more = len(found) >= self.page_size
        self._is_fetching = False
        self.is_loaded = True
        self.error = ""
        self._loaded(found)
        self.endResetModel()
        self.load_state_changed.emit()

    async def load_more(self) -> None:
        """The next older page, after the last row (rows already shown are not shown twice)."""
        generation = self._generation
        try:
            if not self._rows:
                return
            try:
                found = await self._page(self._rows[-1])
            except UserFacingError as exc:
                self.error = str(exc)
                return
            if found is None or generation != self._generation:
                return
            fresh = [item for item in found if self._key(item) not in self._index]
            if fresh:
                first = len(self._rows)
                self.beginInsertRows(QModelIndex(), first, first + len(fresh) - 1)
                self._rows.extend(fresh)
                self._reindex(first)
                self.endInsertRows()
            self._has_more = len(found) >= self.page_size
        finally:
            self._is_fetching = False
            self.load_state_changed.emit()

    # --- live updates -----------------------------------------------------------------------------------

    def _insert_top(self, items: Sequence[T]) -> None:
        """Put ``items`` (newest first) on top, keeping at most the row limit (the oldest rows go)."""
        if not items:
            return
        self.beginInsertRows(QModelIndex(), 0, len(items) - 1)
        self._rows[0:0] = items
        self._reindex()
        self.endInsertRows()
        if self._row_limit is not None and len(self._rows) > self._row_limit:
            self.beginRemoveRows(QModelIndex(), self._row_limit, len(self._rows) - 1)
            for dropped in self._rows[self._row_limit:]:
                self._index.pop(self._key(dropped), None)
                self._dropped(dropped)
            del self._rows[self._row_limit:]
            self.endRemoveRows()
            self._has_more = True

    def _dropped(self, item: T) -> None:
        """An item fell off the end (the row limit): a subclass forgets what it kept about it."""

    def _reindex(self, first: int = 0) -> None:
        if first == 0:
            self._index = {}
        for row in range(first, len(self._rows)):
            self._index[self._key(self._rows[row])] = row
