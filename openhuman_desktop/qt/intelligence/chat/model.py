"""The Chat tab's list model: your messages, the assistant's answers (streamed) and the cards of the thread."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer, Signal

from openhuman_desktop.orchestration.ports import APPROVED, Run
from openhuman_desktop.orchestration.recommend import RecommendationFilter, without_recommendation
from openhuman_desktop.store import Escalation

USER = "user"
ANSWER = "answer"
CARD = "card"
NOTE = "note"            # in place of your message: a run you did not type (an approved card's action)
APPROVED_ACTION = "Approved action:"

WORKING = ("queued", "running")
FLUSH_MS = 40            # streamed text reaches the screen at most this often (the first piece at once)
ROW_LIMIT = 600          # the oldest rows go past this (the ledger keeps them all)

# What a finished node means to a person (the run goes on to the next one).
NODE_WORDS = {
    "channel_ingestion": "Read your message",
    "frontend_agent": "Front desk",
    "agent_execution": "Worked on it",
    "context_manager_hook": "Tidied the memory",
}
# What the assistant is doing once a node has finished (the next node's work).
WORKING_WORDS = {
    "": "Reading your message",
    "channel_ingestion": "Understanding what you asked",
    "frontend_agent": "Working on it",
    "agent_execution": "Writing the answer",
    "context_manager_hook": "Finishing",
}

_AnyIndex = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class ChatRow:
    """One row of the chat: a message of yours, an answer, or an approval card.

    ``version`` goes up whenever ``text`` changes (the delegate keeps one rendered document per version).
    """

    key: str
    kind: str
    text: str
    created_at: float
    run_id: str | None = None
    status: str = ""
    nodes: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    steps: int = 0
    escalation: Escalation | None = None
    version: int = 0

    @property
    def is_working(self) -> bool:
        return self.kind == ANSWER and self.status in WORKING

    @property
    def is_failed(self) -> bool:
        return self.kind == ANSWER and self.status in ("failed", "cancelled")

    @property
    def is_pending_card(self) -> bool:
        return self.kind == CARD and self.escalation is not None and self.escalation.status == "pending"

    def working_words(self) -> str:
        """What the assistant is doing now ("Working on it"), from the last node that finished."""
        last = self.nodes[-1] if self.nodes else ""
        if last == "frontend_agent" and self.nodes.count("frontend_agent") == 1:
            return WORKING_WORDS["frontend_agent"]
        if last == "frontend_agent":
            return "Finishing"
        return WORKING_WORDS.get(last, "Working on it")

    def details(self) -> str:
        """The folded line under an answer: "4 steps · used files_read, files_list"."""
        steps = max(self.steps, len(self.nodes))
        parts = []
        if steps:
            parts.append("1 step" if steps == 1 else f"{steps} steps")
        parts.append(f"used {', '.join(self.tools)}" if self.tools else "no tools")
        return " · ".join(parts)

    def detail_lines(self) -> list[str]:
        """The unfolded progress: one line per node that ran, then the tools."""
        lines = [f"{n}. {NODE_WORDS.get(node, node)}  ({node})" for n, node in enumerate(self.nodes, 1)]
        if not lines and self.steps:
            lines.append(f"{self.steps} steps (the nodes of older answers are not kept here)")
        lines.append(f"Tools: {', '.join(self.tools)}" if self.tools else "Tools: none")
        return lines

    def spoken(self) -> str:
        """What a screen reader says for the row."""
        if self.kind == USER:
            return f"You: {self.text}"
        if self.kind == NOTE:
            return f"You said go ahead: {self.text}"
        if self.kind == CARD and self.escalation is not None:
            esc = self.escalation
            state = {"pending": "needs your approval", "approved": "approved", "dismissed": "skipped"}.get(
                esc.status, esc.status)
            return f"Approval card, {state}: {esc.title}. {esc.description}"
        if self.is_working and not self.text:
            return f"Assistant is working: {self.working_words()}"
        if self.is_failed:
            return f"Assistant could not answer: {self.text}. Press R to try again."
        return f"Assistant: {self.text}"


def answer_text(run: Run) -> str:
    """What an answer row shows for a finished run: the answer (without the ``RECOMMENDED ACTION:`` line its
    card shows), or the failure's one sentence."""
    if run.status == "completed":
        return without_recommendation(run.response or "") or "(The assistant gave no answer.)"
    if run.status == "cancelled":
        return run.error or "The run was cancelled."
    return run.error or "The assistant could not answer."


class ChatModel(QAbstractListModel):
    """The rows of the ``desktop`` thread, oldest first.

    Streamed text is buffered and handed to the view at most every ``FLUSH_MS`` (the first piece after a
    pause at once), so a fast model costs ~25 repaints a second, never one per token.
    """

    RowRole = Qt.ItemDataRole.UserRole + 1
    ExpandedRole = Qt.ItemDataRole.UserRole + 2
    KindRole = Qt.ItemDataRole.UserRole + 3

    flushed = Signal()                 # streamed text reached the rows (the view follows the bottom)
    card_rows_changed = Signal()       # a pending card row came or went (the view manages its widgets)

    def __init__(self, parent: QObject | None = None, *, clock: Callable[[], float] = time.monotonic,
                 limit: int = ROW_LIMIT) -> None:
        super().__init__(parent)
        self._rows: list[ChatRow] = []
        self._where: dict[str, int] = {}
        self._expanded: set[str] = set()
        self._pending: dict[str, list[str]] = {}   # run id -> streamed pieces not yet shown
        self._filters: dict[str, RecommendationFilter] = {}   # run id -> its stream without the protocol line
        self._clock = clock
        self._limit = limit
        self._last_flush = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._on_timer_timeout)

    # --- Qt's interface -------------------------------------------------------------------------

    def rowCount(self, parent: _AnyIndex = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == ChatModel.RowRole:
            return row
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return row.spoken()
        if role == Qt.ItemDataRole.ToolTipRole and row.kind == ANSWER and not row.is_working:
            return row.details()
        if role == Qt.ItemDataRole.AccessibleDescriptionRole and row.kind == ANSWER and not row.is_working:
            if row.key in self._expanded:
                return "; ".join(row.detail_lines())
            return f"{row.details()}. Space shows the steps."
        if role == ChatModel.ExpandedRole:
            return row.key in self._expanded
        if role == ChatModel.KindRole:
            return row.kind
        return None

    def flags(self, index: _AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    # --- reading --------------------------------------------------------------------------------

    def row(self, row: int) -> ChatRow:
        return self._rows[row]

    def rows(self) -> list[ChatRow]:
        return list(self._rows)

    def find(self, key: str) -> int | None:
        return self._where.get(key)

    def answer_row(self, run_id: str) -> int | None:
        return self._where.get(f"a:{run_id}")

    def is_expanded(self, row: int) -> bool:
        return self._rows[row].key in self._expanded

    @property
    def is_streaming(self) -> bool:
        return bool(self._pending) or self._timer.isActive()

    @property
    def working_count(self) -> int:
        return sum(1 for row in self._rows if row.is_working)

    # --- loading and live updates ---------------------------------------------------------------

    def load(self, runs: Sequence[Run], cards: Iterable[Escalation] = (),
             nodes: Mapping[str, Sequence[str]] | None = None) -> None:
        """Replace everything with ``runs`` (oldest first), their ``nodes`` and the thread's pending cards.

        Rows that arrived live while the history was read (newer than all of it) are kept after it.
        """
        nodes = nodes or {}
        loaded_ids = {run.id for run in runs}
        newest = max((run.created_at for run in runs), default=0.0)
        live = {row.run_id for row in self._rows
                if row.kind == USER and row.run_id not in loaded_ids and row.created_at >= newest}
        keep = [row for row in self._rows if row.kind != CARD and row.run_id in live]
        shown = {row.run_id: row.text for row in self._rows if row.is_working and row.run_id}
        rows: list[ChatRow] = []
        for run in runs:
            rows.extend(self._rows_for(run, tuple(nodes.get(run.id, ())), shown.get(run.id, "")))
        rows.extend(keep)
        by_run: dict[str, list[ChatRow]] = {}
        loose: list[ChatRow] = []
        for card in cards:
            (by_run.setdefault(card.run_id, []) if card.run_id else loose).append(_card_row(card))
        placed: list[ChatRow] = []
        for row in rows:
            placed.append(row)
            if row.kind == ANSWER and row.run_id in by_run:
                placed.extend(by_run.pop(row.run_id))
        placed.extend(loose)
        for extra in by_run.values():
            placed.extend(extra)
        self.beginResetModel()
        self._rows = placed[-self._limit:]
        self._reindex()
        self.endResetModel()
        self.card_rows_changed.emit()

    def _rows_for(self, run: Run, nodes: tuple[str, ...], shown: str = "") -> list[ChatRow]:
        if run.purpose == APPROVED:   # the agent's own words for the action, not yours
            action = run.input.rsplit(APPROVED_ACTION, 1)[-1].strip()
            user = ChatRow(f"u:{run.id}", NOTE, action, run.created_at, run_id=run.id)
        else:
            user = ChatRow(f"u:{run.id}", USER, run.input, run.created_at, run_id=run.id)
        # A run still streaming keeps what it showed (a reload mid-answer); what waits for the flush comes next.
        text = answer_text(run) if run.is_finished else shown + "".join(self._pending.pop(run.id, ()))
        answer = ChatRow(f"a:{run.id}", ANSWER, text, run.finished_at or run.created_at, run_id=run.id,
                         status=run.status, nodes=nodes, tools=tuple(run.tools_used), steps=run.steps)
        return [user, answer]

    def run_started(self, run: Run) -> None:
        """A run of the thread is working (sent here, by RPC, or retried): its rows appear or reset."""
        row = self.answer_row(run.id)
        if row is None:
            self._append(self._rows_for(run, ()))
            return
        current = self._rows[row]
        if current.is_working or not current.is_failed or run.status not in WORKING:
            return   # already shown as working, or an answer that is in (a late notice must not undo it)
        # A retried run starts over: the failed sentence goes, the new answer streams in.
        self._set(row, replace(current, text="", status="running", nodes=(), version=current.version + 1))

    def progress(self, run_id: str, node: str) -> None:
        row = self.answer_row(run_id)
        if row is None:
            return
        current = self._rows[row]
        self._set(row, replace(current, nodes=(*current.nodes, node), steps=max(current.steps, len(current.nodes) + 1)))

    def text_streamed(self, run_id: str, delta: str) -> None:
        """More of an answer: shown at the next flush (at once when the last one was a while ago)."""
        delta = self._filters.setdefault(run_id, RecommendationFilter()).feed(delta)
        if not delta:
            return
        self._pending.setdefault(run_id, []).append(delta)
        if self._timer.isActive():
            return
        wait = FLUSH_MS - (self._clock() - self._last_flush) * 1000
        if wait <= 0:
            self.flush()
        else:
            self._timer.start(max(1, round(wait)))

    def _on_timer_timeout(self) -> None:
        self.flush()

    def flush(self) -> None:
        """Hand the buffered streamed text to the rows now."""
        self._timer.stop()
        pending, self._pending = self._pending, {}
        self._last_flush = self._clock()
        for run_id, pieces in pending.items():
            text = "".join(pieces)
            row = self.answer_row(run_id)
            if row is None:
                continue
            current = self._rows[row]
            if not current.is_working:
                continue   # the final answer is in already
            self._set(row, replace(current, text=current.text + text, version=current.version + 1))
        if pending:
            self.flushed.emit()

    def run_finished(self, run: Run) -> None:
        """The run's final answer (or its failure sentence) replaces what streamed."""
        self._pending.pop(run.id, None)
        self._filters.pop(run.id, None)
        row = self.answer_row(run.id)
        if row is None:
            self._append(self._rows_for(run, ()))
            return
        current = self._rows[row]
        if current.status == run.status and not current.is_working:
            return   # shown already (a stopped run: at once, then handed over by its channel)
        text = answer_text(run)
        if run.status == "cancelled" and current.text.strip():
            text = f"{current.text.rstrip()}\n\n*{text.rstrip('.')}.*"   # what it had written, then that it stopped
        self._set(row, replace(current, text=text, status=run.status, tools=tuple(run.tools_used),
                               steps=max(run.steps, current.steps),
                               version=current.version + (text != current.text)))
        self.flushed.emit()

    def card_changed(self, escalation: Escalation) -> None:
        """A card of the thread was raised (a row after its answer) or resolved (the row says so)."""
        key = f"c:{escalation.id}"
        row = self._where.get(key)
        if row is not None:
            self._set(row, replace(self._rows[row], escalation=escalation))
            self.card_rows_changed.emit()
            return
        if escalation.status != "pending":
            return
        new = _card_row(escalation)
        after = self.answer_row(escalation.run_id) if escalation.run_id else None
        if after is None or after == len(self._rows) - 1:
            self._append([new])
        else:
            position = after + 1
            while position < len(self._rows) and self._rows[position].kind == CARD:
                position += 1
            self.beginInsertRows(QModelIndex(), position, position)
            self._rows.insert(position, new)
            self._reindex()
            self.endInsertRows()
        self.card_rows_changed.emit()

    def toggle_expanded(self, row: int) -> None:
        key = self._rows[row].key
        if key in self._expanded:
            self._expanded.discard(key)
        else:
            self._expanded.add(key)
        index = self.index(row, 0)
        self.dataChanged.emit(index, index, [ChatModel.ExpandedRole])

    # --- helpers --------------------------------------------------------------------------------

    def _append(self, rows: Sequence[ChatRow]) -> None:
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
        self._rows.extend(rows)
        for offset, row in enumerate(rows):
            self._where[row.key] = first + offset
        self.endInsertRows()
        extra = len(self._rows) - self._limit
        if extra > 0:
            self.beginRemoveRows(QModelIndex(), 0, extra - 1)
            for row in self._rows[:extra]:
                self._expanded.discard(row.key)
            del self._rows[:extra]
            self._reindex()
            self.endRemoveRows()

    def _set(self, row: int, new: ChatRow) -> None:
        self._rows[row] = new
        index = self.index(row, 0)
        self.dataChanged.emit(index, index, [ChatModel.RowRole, Qt.ItemDataRole.DisplayRole])

    def _reindex(self) -> None:
        self._where = {row.key: n for n, row in enumerate(self._rows)}


def _card_row(escalation: Escalation) -> ChatRow:
    return ChatRow(f"c:{escalation.id}", CARD, escalation.title, escalation.created_at, run_id=escalation.run_id,
                   status=escalation.status, escalation=escalation)
