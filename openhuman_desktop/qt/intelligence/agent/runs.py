"""The Agent tab's list of runs: newest first, paged from the ledger, kept live by the run events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QListView, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from openhuman_desktop.orchestration.ports import Run
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.paged_model import PagedListModel
from openhuman_desktop.qt.intelligence.status_dot import dot_side, paint_dot
from openhuman_desktop.qt.intelligence.theme import accent, muted, scale_font
from openhuman_desktop.qt.intelligence.time_text import clock_time, duration_text, exact_time

AnyIndex = QModelIndex | QPersistentModelIndex

PAGE_SIZE = 50
ROW_LIMIT = 5_000

STATUS_WORDS = {"queued": "waiting", "running": "running", "completed": "completed", "failed": "failed",
                "cancelled": "cancelled"}
STATUS_ACCENT = {"queued": "grey", "running": "blue", "completed": "green", "failed": "coral", "cancelled": "grey"}
NODE_WORDS = {"channel_ingestion": "reading the message", "frontend_agent": "the front-end agent",
              "agent_execution": "reasoning and tools", "context_manager_hook": "compressing the trace",
              "subconscious_cron": "a steering update"}


class RunPages(Protocol):
    """What the list reads from the run ledger."""

    async def runs_page(self, limit: int = 50, before: str | None = None) -> list[Run]: ...


def run_duration(run: Run, now: float) -> str:
    """How long the run took (or has taken so far)."""
    end = run.finished_at if run.finished_at is not None else now
    return duration_text(max(0, round((end - run.created_at) * 1000)))


def run_title(run: Run) -> str:
    """What the person sees for the run, on one line: its display title (an approved action's "Approved: …",
    never the instruction the app wrote for the model), else the message it answers."""
    text = " ".join(run.display_title.split())
    return text or "(no text)"


def run_meta(run: Run, node: str | None, now: float) -> str:
    """``desktop · 14:05 · running, past the front-end agent`` / ``cli · 14:05 · completed in 4.2 s · 2 tools``."""
    parts = [run.thread_id, clock_time(run.created_at, now)]
    status = STATUS_WORDS.get(run.status, run.status)
    if run.status == "running" and node:
        parts.append(f"{status}, past {NODE_WORDS.get(node, node)}")
    elif run.is_finished:
        parts.append(f"{status} in {run_duration(run, now)}")
    else:
        parts.append(status)
    if run.tools_used:
        count = len(run.tools_used)
        parts.append(f"{count} tool{'s' if count != 1 else ''}")
    return " · ".join(parts)


class RunListModel(PagedListModel[Run]):
    """Runs newest first: the first page on :meth:`load`, older pages on ``fetchMore``; :meth:`upsert` puts
    a started run on top and updates one that changed in place; :meth:`set_node` tracks a live run's node."""

    RunRole = Qt.ItemDataRole.UserRole + 1
    NodeRole = Qt.ItemDataRole.UserRole + 2

    def __init__(self, jobs: Jobs, now: Callable[[], float], page_size: int = PAGE_SIZE,
                 parent: QObject | None = None) -> None:
        super().__init__(jobs, page_size=page_size, row_limit=ROW_LIMIT, job_name="agent-runs-fetch-more",
                         parent=parent)
        self._now = now
        self._source: RunPages | None = None
        self._nodes: dict[str, str] = {}

    def set_source(self, source: RunPages | None) -> None:
        self._source = source

    async def _page(self, after: Run | None) -> list[Run] | None:
        if self._source is None:
            return None
        return await self._source.runs_page(self.page_size, None if after is None else after.id)

    def _key(self, item: Run) -> str:
        return item.id

    def _dropped(self, item: Run) -> None:
        self._nodes.pop(item.id, None)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.parent().isValid() or not 0 <= index.row() < len(self._rows):
            return None
        run = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return run_title(run)
        if role == self.RunRole:
            return run
        if role == self.NodeRole:
            return self._nodes.get(run.id)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"Started {exact_time(run.created_at)}\nRun {run.id}"
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{run_title(run)}. {run_meta(run, self._nodes.get(run.id), self._now())}"
        return None

    # --- reading --------------------------------------------------------------------------------

    def run(self, row: int) -> Run:
        return self.item(row)

    def node_of(self, run_id: str) -> str | None:
        return self._nodes.get(run_id)

    # --- live updates ---------------------------------------------------------------------------

    def upsert(self, run: Run) -> None:
        """A run started or finished: update its row, or put it on top."""
        row = self._index.get(run.id)
        if run.is_finished:
            self._nodes.pop(run.id, None)
        if row is not None:
            self._rows[row] = run
            index = self.index(row)
            self.dataChanged.emit(index, index, [])
            return
        if not self.is_loaded:
            return   # the first load will have it
        self._insert_top([run])
        self.load_state_changed.emit()

    def set_node(self, run_id: str, node: str) -> None:
        """A live run finished node ``node``: its row says so."""
        self._nodes[run_id] = node
        row = self._index.get(run_id)
        if row is not None:
            index = self.index(row)
            self.dataChanged.emit(index, index, [self.NodeRole])


def two_line_size(option: QStyleOptionViewItem, width: int) -> QSize:
    """The size of a row painted by :func:`paint_two_lines`."""
    fm = QFontMetrics(option.font)
    pad = max(4, fm.height() // 3)
    return QSize(max(60, width), pad * 3 + fm.height() * 2)


def paint_two_lines(painter: QPainter, option: QStyleOptionViewItem, title: str, meta: str,
                    dot: str | None = None) -> None:
    """A list row: an optional status dot (an accent name), a bold title and a quiet line, both elided."""
    rect: QRect = option.rect
    palette: QPalette = option.palette
    font = QFont(option.font)
    fm = QFontMetrics(font)
    pad = max(4, fm.height() // 3)
    selected = bool(option.state & QStyle.StateFlag.State_Selected)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if selected:
        painter.fillRect(rect, palette.color(QPalette.ColorRole.Highlight))
    text_left = rect.left() + pad * 2
    if dot is not None:
        side = dot_side(fm.height())
        spot = QRect(text_left, rect.top() + pad + (fm.height() - side) // 2, side, side)
        if selected:   # a ring keeps the dot visible on the highlight colour
            paint_dot(painter, spot.adjusted(-2, -2, 2, 2), palette.color(QPalette.ColorRole.HighlightedText))
        paint_dot(painter, spot, accent(dot, palette))
        text_left += side + pad * 2
    width = max(20, rect.right() - pad * 2 - text_left)
    text_color = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
    title_font = scale_font(font, bold=True)
    painter.setFont(title_font)
    painter.setPen(text_color)
    painter.drawText(QRect(text_left, rect.top() + pad, width, fm.height()),
                     int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                     QFontMetrics(title_font).elidedText(title, Qt.TextElideMode.ElideRight, width))
    painter.setFont(font)
    painter.setPen(text_color if selected else muted(palette))
    painter.drawText(QRect(text_left, rect.top() + pad * 2 + fm.height(), width, fm.height()),
                     int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                     fm.elidedText(meta, Qt.TextElideMode.ElideRight, width))
    line = QColor(palette.color(QPalette.ColorRole.WindowText))
    line.setAlphaF(0.08)
    painter.setPen(line)
    painter.drawLine(rect.left() + pad * 2, rect.bottom(), rect.right() - pad * 2, rect.bottom())
    painter.restore()


class RunDelegate(QStyledItemDelegate):
    """A run as a status dot, the message on one line and a quiet line: thread, time, status, tools."""

    def __init__(self, view: QListView, now: Callable[[], float]) -> None:
        super().__init__(view)
        self._view = view
        self._now = now

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        return two_line_size(option, self._view.viewport().width())

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        run: Run | None = index.data(RunListModel.RunRole)
        if run is None:
            return
        meta = run_meta(run, index.data(RunListModel.NodeRole), self._now())
        paint_two_lines(painter, option, run_title(run), meta, STATUS_ACCENT.get(run.status, "grey"))
