"""Activity Log: a lazily paged list model over subconscious_log, its delegate, view and section."""

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
    QRect,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QHideEvent,
    QKeyEvent,
    QPainter,
    QPalette,
    QPen,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop import markdown_text
from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.widgets import (
    DECISION_ACCENT,
    DECISION_WORDS,
    EmptyState,
    ErrorLabel,
    MutedLabel,
    SectionHeader,
    accent,
    clock_time,
    duration_text,
    em,
    exact_time,
    muted,
    pulse_alpha,
    repaint_changed_rows,
    row_runs,
)
from openhuman_desktop.store import Escalation, LogEntry

log = logging.getLogger(__name__)

Fetch = Callable[[int, float | None, str | None], Awaitable[list[LogEntry]]]
PAGE_SIZE = 100
ROW_LIMIT = 5_000
MAX_FETCH = 1_000          # the service's page limit
POLL_MS = 2_000            # fallback refresh while a visible row is in progress (other processes' changes)
PULSE_MS = 60

_AnyIndex = QModelIndex | QPersistentModelIndex
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

    def rowCount(self, parent: _AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt default)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
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

    def canFetchMore(self, parent: _AnyIndex) -> bool:  # noqa: N802 (Qt override)
        if parent.isValid():
            return False
        return self._is_loaded and self._has_more and not self._is_fetching and len(self._rows) < self.limit

    def fetchMore(self, parent: _AnyIndex) -> None:  # noqa: N802 (Qt override)
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


@dataclass(frozen=True)
class _Metrics:
    """Fonts and sizes of a row for one font (computed once, not per row)."""

    font: QFont
    bold: QFont
    fm: QFontMetrics
    bfm: QFontMetrics
    pad: int
    time_w: int
    dot_offset: int     # from the row's left edge
    text_offset: int
    line_h: int         # a collapsed row's height


def _row_metrics(font: QFont) -> _Metrics:
    bold = QFont(font)
    bold.setBold(True)
    fm, bfm = QFontMetrics(font), QFontMetrics(bold)
    pad = max(4, fm.height() // 3)
    time_w = fm.horizontalAdvance("Wed 00:00") + pad
    dot_offset = pad * 2 + time_w
    text_offset = dot_offset + max(8, round(fm.height() * 0.55)) + pad * 2
    line_h = pad * 2 + bfm.height() + max(2, pad // 2) + fm.height()
    return _Metrics(QFont(font), bold, fm, bfm, pad, time_w, dot_offset, text_offset, line_h)


class ActivityDelegate(QStyledItemDelegate):
    """Paints one log row: time, coloured dot (pulsing while in progress), task title, duration, result.

    The result is one elided line; an expanded row (click, Space or Enter) shows all of it, wrapped.
    Sizes are cheap: a collapsed row's height comes from the font alone, and an expanded row's wrapped
    height is remembered (the list asks for every row's size whenever rows come or go).
    """

    def __init__(self, view: QListView, now: Callable[[], float]) -> None:
        super().__init__(view)
        self._view = view
        self._now = now
        self._metrics_by_font: dict[str, _Metrics] = {}
        self._wrapped: dict[tuple[str, str, int, str], int] = {}  # (id, result, width, font) -> height

    def metrics(self, font: QFont) -> _Metrics:
        key = font.key()
        found = self._metrics_by_font.get(key)
        if found is None:
            found = self._metrics_by_font[key] = _row_metrics(font)
        return found

    def _text_width(self, m: _Metrics, width: int) -> int:
        return max(40, width - m.text_offset - m.pad * 3)

    def sizeHint(self, option: QStyleOptionViewItem, index: _AnyIndex) -> QSize:
        m = self.metrics(option.font)
        width = self._view.viewport().width()
        model = index.model()
        if not isinstance(model, ActivityModel) or not model.is_expanded(index.row()):
            return QSize(width, m.line_h)
        entry = model.entry(index.row())
        text = model.shown_result(index.row())
        key = (entry.id, text, width, option.font.key())
        height = self._wrapped.get(key)
        if height is None:
            if len(self._wrapped) > 256:
                self._wrapped.clear()
            bounds = m.fm.boundingRect(QRect(0, 0, self._text_width(m, width), 100_000),
                                       int(Qt.TextFlag.TextWordWrap), text)
            height = self._wrapped[key] = m.line_h - m.fm.height() + max(m.fm.height(), bounds.height())
        return QSize(width, height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _AnyIndex) -> None:
        model = index.model()
        if not isinstance(model, ActivityModel) or not 0 <= index.row() < model.rowCount():
            return
        row = index.row()
        entry = model.entry(row)
        decision = model.shown_decision(row)
        group = model.group_at(row)
        m = self.metrics(option.font)
        font, bold, fm, bfm, pad = m.font, m.bold, m.fm, m.bfm, m.pad
        rect: QRect = option.rect
        state = option.state
        palette: QPalette = option.palette
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        selected = bool(state & QStyle.StateFlag.State_Selected)
        if selected:
            painter.fillRect(rect, palette.color(QPalette.ColorRole.Highlight))
        elif state & QStyle.StateFlag.State_MouseOver:
            hover = QColor(palette.color(QPalette.ColorRole.Highlight))
            hover.setAlphaF(0.08)
            painter.fillRect(rect, hover)
        text_color = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        quiet = text_color if selected else muted(palette)
        time_w, dot_x, text_x = m.time_w, rect.left() + m.dot_offset, rect.left() + m.text_offset
        line1 = QRect(rect.left(), rect.top() + pad, rect.width(), bfm.height())
        # time
        painter.setFont(font)
        painter.setPen(quiet)
        painter.drawText(QRect(rect.left() + pad * 2, line1.top(), time_w, line1.height()),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         clock_time(entry.created_at, self._now()))
        # dot (the rows of an unfolded failure group hang on a line from the first one's dot)
        side = max(8, round(fm.height() * 0.55))
        if (group is not None and group.is_unfolded) or model.is_in_unfolded_group(row):
            joint = accent("coral", palette)
            joint.setAlphaF(0.45)
            painter.setPen(QPen(joint, max(2, side // 4)))
            top = rect.top() if group is None else line1.center().y()
            bottom = line1.center().y() if model.is_last_in_unfolded_group(row) else rect.bottom()
            painter.drawLine(dot_x + side // 2, top, dot_x + side // 2, bottom)
        color = accent(DECISION_ACCENT.get(decision, "grey"), palette)
        if entry.decision == "in_progress":
            color.setAlphaF(pulse_alpha())
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawEllipse(dot_x, line1.center().y() - side // 2, side, side)
        # duration (right); a failure group says how to see each row instead
        took = duration_text(entry.duration_ms) if entry.decision != "in_progress" else ""
        if group is not None:
            took = "Fold" if group.is_unfolded else f"Show all {group.count:,}"
        right = rect.right() - pad * 3
        took_w = fm.horizontalAdvance(took) if took else 0
        if took:
            painter.setFont(font)
            painter.setPen(quiet)
            painter.drawText(QRect(right - took_w, line1.top(), took_w, line1.height()),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), took)
        # title
        title_w = max(20, right - text_x - (took_w + pad * 2 if took else 0))
        painter.setFont(bold)
        painter.setPen(text_color)
        title = bfm.elidedText(model.shown_title(row), Qt.TextElideMode.ElideRight, title_w)
        painter.drawText(QRect(text_x, line1.top(), title_w, line1.height()),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), title)
        # result
        painter.setFont(font)
        result_color = text_color if decision not in ("noop", "cancelled", "dismissed") else quiet
        if decision == "failed" and not selected:
            result_color = accent("coral", palette)
        painter.setPen(result_color)
        text_w = self._text_width(m, rect.width())
        top2 = line1.bottom() + 1 + max(2, pad // 2)
        if index.data(ActivityModel.ExpandedRole):
            box = QRect(text_x, top2, text_w, rect.bottom() - top2)
            painter.drawText(box, int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignTop),
                             model.shown_result(row))
        else:
            one_line = " ".join(model.shown_result(row, full=True).split())
            suffix = f" — {group.summary}" if group is not None and not group.is_unfolded else ""
            room = max(20, text_w - fm.horizontalAdvance(suffix))   # the group's size always shows
            shown = fm.elidedText(one_line, Qt.TextElideMode.ElideRight, room) + suffix
            painter.drawText(QRect(text_x, top2, text_w, fm.height()),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown)
        # separator
        line = QColor(palette.color(QPalette.ColorRole.WindowText))
        line.setAlphaF(0.08)
        painter.setPen(line)
        painter.drawLine(rect.left() + pad * 2, rect.bottom(), rect.right() - pad * 2, rect.bottom())
        if state & QStyle.StateFlag.State_HasFocus:
            focus = QColor(palette.color(QPalette.ColorRole.Highlight))
            painter.setPen(focus)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(rect.adjusted(0, 0, -1, -1))
        painter.restore()

    def is_elided(self, index: _AnyIndex) -> bool:
        """Whether the row's result does not fit on one line (so expanding it shows more)."""
        entry: LogEntry | None = index.data(ActivityModel.EntryRole)
        if entry is None:
            return False
        m = self.metrics(self._view.font())
        text = readable(entry.result)
        return "\n" in text or m.fm.horizontalAdvance(text) > self._text_width(m, self._view.viewport().width())


class ActivityListView(QListView):
    """The log's list: click, Space or Enter expands a long result; in-progress dots pulse while visible."""

    def __init__(self, now: Callable[[], float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("activityList")
        self.setAccessibleName("Activity log")
        self.setUniformItemSizes(True)   # until a row is expanded (_follow_expanded)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setMouseTracking(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.activity_delegate = ActivityDelegate(self, now)
        self.setItemDelegate(self.activity_delegate)
        self.clicked.connect(self._on_self_clicked)
        self._pulse = QTimer(self)
        self._pulse.setInterval(PULSE_MS)
        self._pulse.timeout.connect(self._on_pulse_timeout)
        self._last_width = 0
        self._hidden: set[str] = set()   # ids of the rows hidden in folded failure groups

    def activity_model(self) -> ActivityModel:
        model = self.model()
        assert isinstance(model, ActivityModel)
        return model

    def setModel(self, model: Any) -> None:  # noqa: N802 (Qt override)
        super().setModel(model)
        if isinstance(model, ActivityModel):   # expanded rows can leave with a reload or a trim
            model.modelReset.connect(self._on_model_model_reset)
            model.rowsRemoved.connect(self._on_model_rows_gone)
            model.rowsInserted.connect(self._on_model_rows_inserted)

    def _on_model_model_reset(self) -> None:
        self._hidden.clear()   # QListView forgets hidden rows on a reset
        self._on_model_rows_gone()

    def _on_model_rows_gone(self, *_args: object) -> None:
        self._follow_expanded()
        self.sync_folded()

    def _on_model_rows_inserted(self, *_args: object) -> None:
        self.sync_folded()

    def sync_folded(self) -> None:
        """Hide the rows folded failure groups stand for, show the ones that are no longer folded."""
        model = self.activity_model()
        want = model.folded_rows()
        if not want and not self._hidden:
            return
        rows = model.current_rows()
        for entry_id in self._hidden.difference(want):
            row = rows.get(entry_id)
            if row is not None:
                self.setRowHidden(row, False)
        for entry_id in set(want).difference(self._hidden):
            self.setRowHidden(want[entry_id], True)
        self._hidden = set(want)

    def visible_rows(self) -> range:
        model = self.model()
        if model is None or model.rowCount() == 0:
            return range(0)
        viewport = self.viewport().rect()
        first = self.indexAt(viewport.topLeft())
        last = self.indexAt(viewport.bottomLeft())
        start = first.row() if first.isValid() else 0
        end = last.row() if last.isValid() else model.rowCount() - 1
        return range(start, end + 1)

    def visible_in_progress(self) -> list[int]:
        if not self.isVisible():
            return []
        return self.activity_model().in_progress_rows(self.visible_rows())

    def set_pulsing(self, on: bool) -> None:
        if on and not self._pulse.isActive():
            self._pulse.start()
        elif not on:
            self._pulse.stop()

    @property
    def is_pulsing(self) -> bool:
        return self._pulse.isActive()

    def _on_pulse_timeout(self) -> None:
        model = self.activity_model()
        for row in self.visible_in_progress():
            self.viewport().update(self.visualRect(model.index(row, 0)))

    def toggle_row(self, row: int) -> None:
        model = self.activity_model()
        model.toggle_expanded(row)
        self._follow_expanded()
        self.activity_delegate.sizeHintChanged.emit(model.index(row, 0))

    def _follow_expanded(self) -> None:
        """Rows share one height until one is expanded: then the list measures each (5,000 rows cost ~20 ms)."""
        uniform = not self.activity_model().has_expanded
        if uniform != self.uniformItemSizes():
            self.setUniformItemSizes(uniform)
            self.scheduleDelayedItemsLayout()

    def dataChanged(self, top_left: _AnyIndex, bottom_right: _AnyIndex,  # noqa: N802 (Qt override)
                    roles: Sequence[int] = ()) -> None:
        # A row changes height only when it is expanded (its text may have grown): see below.
        repaint_changed_rows(self, top_left, bottom_right, roles)
        self.sync_folded()
        model = self.activity_model()
        if model.has_expanded and any(model.is_expanded(row) for row in range(top_left.row(), bottom_right.row() + 1)):
            self.scheduleDelayedItemsLayout()

    def _on_self_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self.toggle_row(index.row())

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            index = self.currentIndex()
            if index.isValid():
                self.toggle_row(index.row())
                return
        super().keyPressEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        if event.size().width() != self._last_width:
            self._last_width = event.size().width()
            self.scheduleDelayedItemsLayout()


class ActivityView(QWidget):
    """The Activity Log section: header, list, empty and error states, the fallback poll."""

    def __init__(self, fetch: Fetch, now: Callable[[], float], jobs: Jobs, parent: QWidget | None = None, *,
                 escalations: Escalations | None = None) -> None:
        super().__init__(parent)
        self._jobs = jobs
        self._escalations = escalations
        self.model = ActivityModel(fetch, jobs, now=now, parent=self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        pad = max(4, em(self) // 3)
        layout.setSpacing(pad)
        header = QHBoxLayout()
        self.header = SectionHeader("Activity Log", self)
        header.addWidget(self.header)
        header.addStretch(1)
        self.hint_label = MutedLabel("Newest first · click a row to read all of it", self, factor=0.9)
        self.hint_label.setAccessibleName("Activity log hint")
        header.addWidget(self.hint_label)
        layout.addLayout(header)
        self.error_label = ErrorLabel(self)
        layout.addWidget(self.error_label)
        self.list_view = ActivityListView(now, self)
        self.list_view.setModel(self.model)
        layout.addWidget(self.list_view, 1)
        self.empty_label = EmptyState(
            "No activity yet.\nThe assistant looks at your tasks on every tick — press Run Now to start one.", self
        )
        self.empty_label.setAccessibleName("No activity yet")
        self.empty_label.hide()
        layout.addWidget(self.empty_label, 1)
        self.footer_label = MutedLabel("", self, factor=0.9)
        self.footer_label.setAccessibleName("Activity log footer")
        self.footer_label.hide()
        layout.addWidget(self.footer_label)
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._on_poll_timeout)
        self._check = QTimer(self)
        self._check.setSingleShot(True)
        self._check.setInterval(0)
        self._check.timeout.connect(self._on_check_timeout)
        for signal in (self.model.rowsInserted, self.model.rowsRemoved, self.model.dataChanged,
                       self.model.modelReset):
            signal.connect(self._on_model_changed)
        self.model.load_state_changed.connect(self._on_model_load_state_changed)
        self.list_view.verticalScrollBar().valueChanged.connect(self._on_model_changed)

    # --- data -----------------------------------------------------------------------------------

    async def refresh(self) -> None:
        """Reload the newest page, then when the escalations on it were approved or skipped."""
        await self.model.load_first_page()
        if self._escalations is None:
            return
        try:
            resolved = [*await self._escalations("approved"), *await self._escalations("dismissed")]
        except UserFacingError as exc:
            log.info("could not read resolved escalations: %s", exc)
            return
        self.model.set_resolutions(resolved)

    def on_escalation_changed(self, escalation: Escalation) -> None:
        self.model.on_escalation_changed(escalation)

    def on_activity_batch(self, entries: list[LogEntry]) -> None:
        self.model.merge(entries)

    # --- states ---------------------------------------------------------------------------------

    def _on_model_load_state_changed(self) -> None:
        model = self.model
        if model.error:
            prefix = "Could not load older activity" if model.is_error_on_more else "Could not load the activity log"
            self.error_label.show_text(f"{prefix}: {model.error}")
        else:
            self.error_label.clear_text()
        empty = model.is_loaded and model.rowCount() == 0
        self.empty_label.setVisible(empty)
        self.list_view.setVisible(not empty)
        if model.is_at_limit and model.has_more:
            self.footer_label.setText(f"Showing the newest {model.limit:,} entries; older ones stay in the database.")
            self.footer_label.show()
        else:
            self.footer_label.hide()
        self._on_model_changed()

    def _on_model_changed(self, *_args: object) -> None:
        if not self._check.isActive():
            self._check.start()

    def _on_check_timeout(self) -> None:
        empty = self.model.is_loaded and self.model.rowCount() == 0
        self.empty_label.setVisible(empty)
        self.list_view.setVisible(not empty)
        self.update_timers()

    def update_timers(self) -> None:
        """Pulse and poll only while an in-progress row is on screen (no polling when idle)."""
        active = self.isVisible() and bool(self.list_view.visible_in_progress())
        self.list_view.set_pulsing(active)
        if active and not self._poll.isActive():
            self._poll.start()
        elif not active:
            self._poll.stop()

    @property
    def is_polling(self) -> bool:
        return self._poll.isActive()

    def _on_poll_timeout(self) -> None:
        self._jobs.spawn(self.model.poll_in_progress(), name="activity-poll", group="activity-poll")

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self._on_model_changed()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 (Qt override)
        super().hideEvent(event)
        self._poll.stop()
        self.list_view.set_pulsing(False)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        # The hint goes rather than being cut off mid-word in a narrow window (the list's tooltips stay).
        needed = self.header.sizeHint().width() + self.hint_label.sizeHint().width() + em(self)
        self.hint_label.setVisible(event.size().width() >= needed)
