"""The Activity Log's list model: a lazily paged window over subconscious_log, newest first, with the
failures of a tick grouped."""

from __future__ import annotations

import functools
import logging
import math
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QWidget,
)

from openhuman_desktop import markdown_text
from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.row_changes import row_runs
from openhuman_desktop.qt.intelligence.theme import DECISION_WORDS
from openhuman_desktop.qt.intelligence.time_text import clock_time, duration_text, exact_time
from openhuman_desktop.store import Escalation, LogEntry

log = logging.getLogger(__name__)



Fetch = Callable[[int, float | None, str | None], Awaitable[list[LogEntry]]]
PAGE_SIZE = 100
ROW_LIMIT = 5_000
MAX_FETCH = 1_000          # the service's page limit
POLL_MS = 2_000            # fallback refresh while a visible row is in progress (other processes' changes)
PULSE_MS = 60

AnyIndex = QModelIndex | QPersistentModelIndex
NO_TOOLS = "No tools were used."   # what the core appends to an act result that no tool call backs
RESOLVED_WORDS = {"approved": "Approved", "dismissed": "Skipped"}
Escalations = Callable[[object], Awaitable[list[Escalation]]]
_MARKDOWN_HINT = re.compile(r"[*_`#\[~]|^\s*[-+]\s", re.MULTILINE)


@functools.lru_cache(maxsize=4096)
def readable(text: str) -> str:
    """A result as a person reads it: a model's Markdown without its marks (**bold**, `code`, ## headings,
    [links](…), "- " bullets as "•"), by the parser of the terminal chat and Telegram; other text as it is."""
    if not _MARKDOWN_HINT.search(text):
        return text
    return markdown_text.render(text).text


@dataclass(frozen=True)
class FailureGroup:
    """Neighbouring ``failed`` rows with the same result (one outage): shown as one row until unfolded."""

    first: int          # the newest row (the one that stays visible)
    last: int
    count: int
    tasks: int
    ticks: int
    is_unfolded: bool

    @property
    def summary(self) -> str:
        tasks = "1 task" if self.tasks == 1 else f"{self.tasks:,} tasks"
        ticks = "1 tick" if self.ticks == 1 else f"{self.ticks:,} ticks"
        return f"{tasks}, {ticks}"


@dataclass(frozen=True)
class _Groups:
    by_first: dict[int, FailureGroup]
    folded: dict[str, int]      # id -> row of every row a folded group hides
    unfolded: set[int]          # rows after the first of unfolded groups (drawn joined to it)
    ends: set[int]              # the last row of each unfolded group
    rows: dict[str, int]        # id -> row of every row (the model's index may lag inside its signals)


def _key(entry: LogEntry) -> tuple[float, str]:
    return (entry.created_at, entry.id)


def _newest_first(entries: Iterable[LogEntry]) -> list[LogEntry]:
    """The store's order: ``created_at DESC, id DESC``."""
    return sorted(entries, key=_key, reverse=True)


def _position(rows: Sequence[LogEntry], entry: LogEntry) -> int:
    """Where ``entry`` goes in ``rows`` (newest first) to keep them in order."""
    key = _key(entry)
    low, high = 0, len(rows)
    while low < high:
        middle = (low + high) // 2
        if _key(rows[middle]) > key:
            low = middle + 1
        else:
            high = middle
    return low


class ActivityModel(QAbstractListModel):
    """The activity log, newest first, loaded page by page from SQLite (STYLE G4).

    Only the first page is read when the window opens; ``fetchMore`` reads the next one (``before`` the
    oldest row shown) when the view scrolls to the end. At most ``limit`` rows are kept in memory: rows
    pushed past it by new activity are dropped from the end and can be fetched again.
    """

    EntryRole = Qt.ItemDataRole.UserRole + 1
    ExpandedRole = Qt.ItemDataRole.UserRole + 2
    GroupRole = Qt.ItemDataRole.UserRole + 3

    load_state_changed = Signal()   # loaded / loading / error / has-more changed

    def __init__(
        self,
        fetch: Fetch,
        jobs: Jobs,
        *,
        now: Callable[[], float],
        page_size: int = PAGE_SIZE,
        limit: int = ROW_LIMIT,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._fetch = fetch
        self._jobs = jobs
        self._now = now
        self.page_size = page_size
        self.limit = limit
        self._rows: list[LogEntry] = []
        self._index: dict[str, int] = {}
        self._expanded: set[str] = set()
        self._has_more = False
        self._is_fetching = False
        self._is_loaded = False
        self._is_loading = False
        self._load_generation = 0
        self._early: dict[str, LogEntry] = {}   # updates that arrived while the first page was loading
        self._unfolded: set[str] = set()        # ids in failure groups the user unfolded
        self._groups: _Groups | None = None     # computed on demand over the loaded rows
        self._resolutions: dict[str, tuple[str, float]] = {}   # log id -> (escalation status, resolved_at)
        self.error = ""
        self.is_error_on_more = False   # the error came from loading older rows (the newest are shown)
        for signal in (self.rowsInserted, self.rowsRemoved, self.modelReset, self.dataChanged):
            signal.connect(self._on_self_changed)   # connected first: listeners see the new groups

    # --- Qt model API ---------------------------------------------------------------------------

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt default)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.parent().isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = index.row()
        entry = self._rows[row]
        if role == Qt.ItemDataRole.DisplayRole:   # the row's own (a group's look would change without a signal)
            return f"{entry.task_title or 'Task'} — {self.shown_result(row, full=True)}"
        if role == self.EntryRole:
            return entry
        if role == self.ExpandedRole:
            return entry.id in self._expanded
        if role == self.GroupRole:
            return self.group_at(row)
        decision = self.shown_decision(row)
        words = DECISION_WORDS.get(decision, decision)
        group = self.group_at(row)
        if role == Qt.ItemDataRole.ToolTipRole:
            if group is not None:
                words = f"failed {group.count:,} times ({group.summary})"
            return f"{exact_time(entry.created_at)} — {words}\n{self.shown_result(row, full=True)}"
        if role == Qt.ItemDataRole.AccessibleTextRole:
            took = duration_text(entry.duration_ms)
            if group is not None:
                action = "press Space to fold" if group.is_unfolded else "press Space to show each"
                return (f"{clock_time(entry.created_at, self._now())}, {self.shown_title(row)}, failed "
                        f"{group.count:,} times ({group.summary}): {readable(entry.result)}; {action}")
            return (f"{clock_time(entry.created_at, self._now())}, {entry.task_title}, {words}: "
                    f"{self.shown_result(row, full=True)}" + (f", took {took}" if took else ""))
        return None

    def canFetchMore(self, parent: AnyIndex) -> bool:  # noqa: N802 (Qt override)
        if parent.isValid():
            return False
        return self._is_loaded and self._has_more and not self._is_fetching and len(self._rows) < self.limit

    def fetchMore(self, parent: AnyIndex) -> None:  # noqa: N802 (Qt override)
        if self.canFetchMore(parent):
            self._is_fetching = True
            self._jobs.spawn(self.load_more(), name="activity-fetch-more")

    # --- queries --------------------------------------------------------------------------------

    @property
    def is_loaded(self) -> bool:
        return self._is_loaded

    @property
    def is_loading(self) -> bool:
        return self._is_loading or self._is_fetching

    @property
    def has_more(self) -> bool:
        return self._has_more

    @property
    def is_at_limit(self) -> bool:
        return len(self._rows) >= self.limit

    def entry(self, row: int) -> LogEntry:
        return self._rows[row]

    def entries(self) -> list[LogEntry]:
        return list(self._rows)

    def row_of(self, log_id: str) -> int | None:
        return self._index.get(log_id)

    def in_progress_rows(self, rows: Iterable[int] | None = None) -> list[int]:
        candidates = range(len(self._rows)) if rows is None else rows
        return [r for r in candidates if 0 <= r < len(self._rows) and self._rows[r].decision == "in_progress"]

    def is_expanded(self, row: int) -> bool:
        return self._rows[row].id in self._expanded

    @property
    def has_expanded(self) -> bool:
        """Whether any loaded row is expanded (else every row has the same height)."""
        return bool(self._expanded)

    def toggle_expanded(self, row: int) -> None:
        """Unfold or fold a failure group (on its first row), else show all of a row's text or one line."""
        group = self.group_at(row)
        if group is not None:
            ids = {entry.id for entry in self._rows[group.first:group.last + 1]}
            if group.is_unfolded:
                self._unfolded -= ids
            else:
                self._unfolded |= ids
            index = self.index(row, 0)
            self.dataChanged.emit(index, index, [self.GroupRole])
            return
        entry_id = self._rows[row].id
        if entry_id in self._expanded:
            self._expanded.discard(entry_id)
        else:
            self._expanded.add(entry_id)
        index = self.index(row, 0)
        self.dataChanged.emit(index, index, [self.ExpandedRole])

    # --- what a row says -------------------------------------------------------------------------

    def shown_decision(self, row: int) -> str:
        """The row's decision as shown: an ``act`` no tool call backs is "answered", not done."""
        entry = self._rows[row]
        if entry.decision == "act" and NO_TOOLS in entry.result:
            return "answered"
        return entry.decision

    def shown_title(self, row: int) -> str:
        entry = self._rows[row]
        title = entry.task_title or "Task"
        group = self.group_at(row)
        if group is not None and not group.is_unfolded and group.tasks > 1:
            return f"{title} and {group.tasks - 1:,} more"
        return title

    def resolution(self, row: int) -> str:
        """"Approved at 14:02" / "Skipped at 14:02" for the row of a resolved escalation, else ""."""
        found = self._resolutions.get(self._rows[row].id)
        if found is None:
            return ""
        status, at = found
        return f"{RESOLVED_WORDS[status]} at {clock_time(at, self._now())}"

    def shown_result(self, row: int, *, full: bool = False) -> str:
        """The result as shown: with when its escalation was resolved, and a folded group's size."""
        entry = self._rows[row]
        result = readable(entry.result)
        resolved = self.resolution(row)
        if resolved:
            result = resolved if result.strip() in ("", "Skipped") else f"{resolved} · {result}"
        group = self.group_at(row)
        if group is not None and not group.is_unfolded and not full:
            result = f"{result} — {group.summary}"
        return result

    def on_escalation_changed(self, escalation: Escalation) -> None:
        """Remember when an escalation was resolved (its activity row says so)."""
        self.set_resolutions([escalation])

    def set_resolutions(self, escalations: Iterable[Escalation]) -> None:
        changed: list[int] = []
        for escalation in escalations:
            if not escalation.log_id or escalation.status not in RESOLVED_WORDS or escalation.resolved_at is None:
                continue
            value = (escalation.status, float(escalation.resolved_at))
            if self._resolutions.get(escalation.log_id) == value:
                continue
            self._resolutions[escalation.log_id] = value
            row = self._index.get(escalation.log_id)
            if row is not None:
                changed.append(row)
        for first, last in row_runs(sorted(changed)):
            self.dataChanged.emit(self.index(first, 0), self.index(last, 0))

    # --- failure groups -------------------------------------------------------------------------

    def group_at(self, row: int) -> FailureGroup | None:
        """The failure group whose first row is ``row`` (None for other rows and single failures)."""
        return self._grouping().by_first.get(row)

    def folded_rows(self) -> dict[str, int]:
        """id -> row of the rows folded groups hide (the view hides them)."""
        return self._grouping().folded

    def current_rows(self) -> dict[str, int]:
        return self._grouping().rows

    def is_in_unfolded_group(self, row: int) -> bool:
        """Whether ``row`` is one of the rows an unfolded group shows below its first."""
        return row in self._grouping().unfolded

    def is_last_in_unfolded_group(self, row: int) -> bool:
        return row in self._grouping().ends

    def _grouping(self) -> _Groups:
        if self._groups is None:
            self._groups = self._compute_groups()
        return self._groups

    def _compute_groups(self) -> _Groups:
        """One pass over the loaded rows (at most ``limit``): older pages join groups as they load."""
        rows = self._rows
        by_first: dict[int, FailureGroup] = {}
        folded: dict[str, int] = {}
        unfolded_rows: set[int] = set()
        ends: set[int] = set()
        count = len(rows)
        start = 0
        while start < count:
            entry = rows[start]
            end = start + 1
            if entry.decision == "failed":
                while end < count and rows[end].decision == "failed" and rows[end].result == entry.result:
                    end += 1
            if end - start >= 2:
                members = rows[start:end]
                unfolded = any(member.id in self._unfolded for member in members)
                by_first[start] = FailureGroup(
                    start, end - 1, end - start, len({m.task_id for m in members}),
                    len({m.tick_at for m in members}), unfolded,
                )
                if unfolded:
                    unfolded_rows.update(range(start + 1, end))
                    ends.add(end - 1)
                else:
                    for offset, member in enumerate(members[1:], start + 1):
                        folded[member.id] = offset
            start = end
        return _Groups(by_first, folded, unfolded_rows, ends, {entry.id: row for row, entry in enumerate(rows)})

    def _on_self_changed(self, *_args: object) -> None:
        self._groups = None

    # --- loading --------------------------------------------------------------------------------

    async def load_first_page(self) -> None:
        """(Re)load the newest page; what was loaded before is replaced."""
        self._load_generation += 1
        generation = self._load_generation
        self._is_loading = True
        self._early.clear()
        self.load_state_changed.emit()
        try:
            entries = await self._fetch(self.page_size, None, None)
        except UserFacingError as exc:
            if generation == self._load_generation:
                self._is_loading = False
                self.error = str(exc)
                self.is_error_on_more = False
                self.load_state_changed.emit()
            return
        if generation != self._load_generation:
            return
        self.beginResetModel()
        self._rows = _newest_first(entries)[: self.limit]
        self._reindex()
        self._expanded &= set(self._index)
        self._unfolded &= set(self._index)
        self._has_more = len(entries) >= self.page_size
        self._is_loaded = True
        self._is_loading = False
        self._is_fetching = False
        self.error = ""
        self.endResetModel()
        early, self._early = list(self._early.values()), {}
        if early:
            self.merge(early)
        self.load_state_changed.emit()

    async def load_more(self) -> None:
        """Append the next older page."""
        generation = self._load_generation
        self._is_fetching = True
        try:
            if not self._rows:
                return
            oldest = self._rows[-1]
            # ``before`` is exclusive; rows sharing the oldest timestamp would be skipped, so ask from just
            # above it and drop what we already have.
            same = sum(1 for entry in reversed(self._rows[-MAX_FETCH:]) if entry.created_at == oldest.created_at)
            limit = min(self.page_size + same, MAX_FETCH)
            try:
                entries = await self._fetch(limit, math.nextafter(oldest.created_at, math.inf), None)
            except UserFacingError as exc:
                self.error = str(exc)
                self.is_error_on_more = True
                return
            if generation != self._load_generation:
                return
            self.error = ""
            fresh = _newest_first(e for e in entries if e.id not in self._index)
            older = [e for e in fresh if _key(e) < _key(self._rows[-1])] if self._rows else fresh
            room = self.limit - len(self._rows)
            if older and room > 0:
                older = older[:room]
                first = len(self._rows)
                self.beginInsertRows(QModelIndex(), first, first + len(older) - 1)
                self._rows.extend(older)
                for offset, entry in enumerate(older):
                    self._index[entry.id] = first + offset
                self.endInsertRows()
            newer = [e for e in fresh if _key(e) > _key(oldest)]
            if newer:
                self.merge(newer)
            self._has_more = len(entries) >= limit and bool(older)
        finally:
            self._is_fetching = False
            self.load_state_changed.emit()

    async def poll_in_progress(self) -> None:
        """Fallback refresh of in-progress rows (changes made by another process publish no events here)."""
        waiting = [entry for entry in self._rows if entry.decision == "in_progress"]
        if not waiting:
            return
        try:
            found = await self._fetch(self.page_size, None, None)
            seen = {entry.id for entry in found}
            for entry in waiting:
                if entry.id not in seen:
                    more = await self._fetch(20, math.nextafter(entry.created_at, math.inf), entry.task_id)
                    found.extend(e for e in more if e.id == entry.id)
        except UserFacingError as exc:
            log.info("activity poll failed: %s", exc)
            return
        self.merge(found)

    # --- live updates ---------------------------------------------------------------------------

    def merge(self, entries: Sequence[LogEntry]) -> None:
        """Apply new or changed rows (from the bridge or a poll): in place when known, else inserted in order."""
        if not self._is_loaded:
            if self._is_loading:   # the page being read may predate these: apply them after it
                for entry in entries:
                    self._early[entry.id] = entry
            return                 # not loaded yet: the first page will read them from the database
        changed: list[int] = []
        new: dict[str, LogEntry] = {}
        for entry in entries:
            row = self._index.get(entry.id)
            if row is not None:
                if self._rows[row] != entry:
                    self._rows[row] = entry
                    changed.append(row)
            else:
                new[entry.id] = entry
        for first, last in row_runs(sorted(changed)):  # a tick's rows are neighbours: one signal per run
            self.dataChanged.emit(self.index(first, 0), self.index(last, 0))
        if new:
            self._insert(_newest_first(new.values()))

    def _insert(self, entries: list[LogEntry]) -> None:
        oldest = self._rows[-1] if self._rows else None
        if self._has_more and oldest is not None:
            # Rows older than the loaded window arrive with the page that reaches them.
            entries = [e for e in entries if _key(e) > _key(oldest)]
        if not entries:
            return
        if not self._rows or _key(entries[-1]) > _key(self._rows[0]):
            self.beginInsertRows(QModelIndex(), 0, len(entries) - 1)
            self._rows[0:0] = entries
            self.endInsertRows()
        else:
            for entry in entries:
                position = _position(self._rows, entry)
                self.beginInsertRows(QModelIndex(), position, position)
                self._rows.insert(position, entry)
                self.endInsertRows()
        self._reindex()
        self._trim()

    def _trim(self) -> None:
        extra = len(self._rows) - self.limit
        if extra <= 0:
            return
        first = self.limit
        self.beginRemoveRows(QModelIndex(), first, len(self._rows) - 1)
        for entry in self._rows[first:]:
            self._index.pop(entry.id, None)
            self._expanded.discard(entry.id)
            self._unfolded.discard(entry.id)
        del self._rows[first:]
        self.endRemoveRows()
        self._has_more = True
        self.load_state_changed.emit()

    def _reindex(self) -> None:
        self._index = {entry.id: row for row, entry in enumerate(self._rows)}


