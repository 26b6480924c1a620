"""One run in detail: status and error, the message, its node timeline, the tools it called, tokens and the
compression ratio of its trace."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Protocol

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.orchestration.ledger import Checkpoint
from openhuman_desktop.orchestration.ports import Run
from openhuman_desktop.orchestration.steering import HistoryRecord
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.agent.runs import NODE_WORDS, STATUS_ACCENT, STATUS_WORDS, run_duration
from openhuman_desktop.qt.intelligence.muted_label import EmptyState, MutedLabel
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.status_dot import StatusDot
from openhuman_desktop.qt.intelligence.theme import em, scaled_font
from openhuman_desktop.qt.intelligence.time_text import exact_time

log = logging.getLogger(__name__)

PICK_A_RUN = "Pick a run on the left to see the steps it took."
STEP_COLUMNS = ("Step", "Node", "Time", "Changed")
ANSWER_CHARS = 400
TICK_MS = 1000


class RunReads(Protocol):
    """What the detail reads from the run ledger."""

    async def get_run(self, run_id: str) -> Run | None: ...

    async def run_checkpoints(self, thread_id: str, run_id: str, limit: int = 500) -> list[Checkpoint]: ...

    async def run_history(self, run_id: str, limit: int = 20) -> list[HistoryRecord]: ...


def tokens_text(records: Sequence[HistoryRecord], run: Run) -> str:
    """``Trace 1,240 tokens → summary 58 tokens (21.4 : 1)``, or why there is nothing to say yet."""
    measured = [r for r in records if r.trace_tokens is not None and r.summary_tokens is not None]
    if not measured:
        if records:
            return "Compressed (token counts were not recorded)"
        return "Not compressed yet" if not run.is_finished else "No execution trace was compressed"
    trace = sum(r.trace_tokens or 0 for r in measured)
    summary = sum(r.summary_tokens or 0 for r in measured)
    ratio = f"{trace / summary:.1f} : 1" if summary else "—"
    return f"Trace {trace:,} tokens → summary {summary:,} tokens ({ratio})"


def step_time(at: float, start: float) -> str:
    """``14:05:03 (+1.2 s)``: the clock and how long after the run started."""
    offset = max(0.0, at - start)
    return f"{datetime.fromtimestamp(at).strftime('%H:%M:%S')} (+{offset:.1f} s)"


class RunDetailView(QWidget):
    """The right-hand side of the Runs page; :meth:`show_run` loads a run (latest request wins).
    ``version_requested`` (a steering version) when the run's directive link is followed."""

    version_requested = Signal(int)

    def __init__(self, now: Callable[[], float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._now = now
        self._source: RunReads | None = None
        self.run: Run | None = None
        self.checkpoints: list[Checkpoint] = []
        self.records: list[HistoryRecord] = []
        self.setAccessibleName("Run details")
        pad = max(6, em(self) // 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(pad * 2, pad * 2, pad * 2, pad * 2)
        layout.setSpacing(pad)
        head = QHBoxLayout()
        head.setSpacing(pad)
        self.status_dot = StatusDot("grey", self)
        self.status_dot.setAccessibleName("Run status")
        head.addWidget(self.status_dot, 0, Qt.AlignmentFlag.AlignVCenter)
        self.status_label = QLabel("", self)
        self.status_label.setFont(scaled_font(self, 1.15, bold=True))
        self.status_label.setAccessibleName("Status")
        head.addWidget(self.status_label)
        head.addStretch(1)
        layout.addLayout(head)
        self.meta_label = MutedLabel("", self)
        self.meta_label.setAccessibleName("Run")
        self.meta_label.setWordWrap(True)
        self.meta_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.meta_label)
        self.input_label = QLabel("", self)
        self.input_label.setWordWrap(True)
        self.input_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.input_label.setAccessibleName("Message")
        layout.addWidget(self.input_label)
        self.error_label = ErrorLabel(self)
        self.error_label.setAccessibleName("Why the run failed")
        layout.addWidget(self.error_label)
        form = QFormLayout()
        form.setHorizontalSpacing(pad * 2)
        form.setVerticalSpacing(max(2, pad // 2))
        self.tools_label = self._value("Tools called")
        self.tokens_label = self._value("Tokens")
        self.summary_label = self._value("Compressed to")
        self.steering_label = self._value("Steering")
        self.steering_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.steering_label.linkActivated.connect(self._on_steering_label_link_activated)
        self.answer_label = self._value("Answer")
        for title, label in (("Tools called", self.tools_label), ("Tokens", self.tokens_label),
                             ("Compressed to", self.summary_label), ("Steering", self.steering_label),
                             ("Answer", self.answer_label)):
            form.addRow(MutedLabel(title, self), label)
        layout.addLayout(form)
        layout.addSpacing(pad // 2)
        layout.addWidget(SectionHeader("Steps", self))
        self.steps_tree = QTreeWidget(self)
        self.steps_tree.setAccessibleName("Steps of the run")
        self.steps_tree.setColumnCount(len(STEP_COLUMNS))
        self.steps_tree.setHeaderLabels(list(STEP_COLUMNS))
        self.steps_tree.setRootIsDecorated(False)
        self.steps_tree.setUniformRowHeights(True)
        self.steps_tree.setAlternatingRowColors(True)
        self.steps_tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.steps_tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        header = self.steps_tree.header()
        header.setStretchLastSection(True)
        for column in range(len(STEP_COLUMNS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        layout.addWidget(self.steps_tree, 1)
        self.load_error = ErrorLabel(self)
        layout.addWidget(self.load_error)
        self.empty_label = EmptyState(PICK_A_RUN, self)
        self.empty_label.setAccessibleName("No run selected")
        layout.addWidget(self.empty_label, 1)
        self._parts: list[QWidget] = [self.status_dot, self.status_label, self.meta_label, self.input_label,
                                      self.steps_tree]
        self._form = form
        self._tick = QTimer(self)
        self._tick.setInterval(TICK_MS)
        self._tick.timeout.connect(self._on_tick_timeout)
        self._show_parts(False)

    def _value(self, name: str) -> QLabel:
        label = QLabel("", self)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setAccessibleName(name)
        return label

    def set_source(self, source: RunReads | None) -> None:
        self._source = source

    def _show_parts(self, shown: bool) -> None:
        for part in self._parts:
            part.setVisible(shown)
        for row in range(self._form.rowCount()):
            self._form.setRowVisible(row, shown)
        header = self.findChildren(SectionHeader)
        for widget in header:
            widget.setVisible(shown)
        self.empty_label.setVisible(not shown)
        if not shown:
            self.error_label.clear_text()

    def clear(self) -> None:
        self._tick.stop()
        self.run = None
        self.checkpoints, self.records = [], []
        self.steps_tree.clear()
        self._show_parts(False)

    async def show_run(self, run: Run) -> None:
        """Show ``run`` at once, then its steps and compressed history from the ledger."""
        self._render(run)
        await self.reload(run.id)

    async def reload(self, run_id: str) -> None:
        """Read the run, its checkpoints and its compressed-history entries again (the run is on screen)."""
        if self._source is None:
            return
        try:
            run = await self._source.get_run(run_id)
            if run is None:
                self.load_error.show_text("This run is no longer in the ledger (old runs are folded away).")
                return
            checkpoints = await self._source.run_checkpoints(run.thread_id, run.id)
            records = await self._source.run_history(run.id)
        except UserFacingError as exc:
            self.load_error.show_text(f"Could not read the run: {exc}")
            return
        if self.run is not None and self.run.id != run_id:
            return   # another run was picked meanwhile
        self.load_error.clear_text()
        self.checkpoints, self.records = checkpoints, records
        self._render(run)

    def _render(self, run: Run) -> None:
        self.run = run
        self._show_parts(True)
        now = self._now()
        self.status_dot.set_accent(STATUS_ACCENT.get(run.status, "grey"))
        self.status_dot.set_pulsing(run.status == "running")
        status = STATUS_WORDS.get(run.status, run.status).capitalize()
        at = self.checkpoints[-1].next if self.checkpoints and run.status == "running" else None
        self.status_label.setText(f"{status}: {NODE_WORDS.get(at, at)}" if at else status)
        took = run_duration(run, now)
        timing = f"took {took}" if run.is_finished else f"for {took} so far"
        self.meta_label.setText(f"{run.thread_id} · started {exact_time(run.created_at)} · {timing} · "
                                f"{run.steps} step{'s' if run.steps != 1 else ''}")
        self.meta_label.setToolTip(f"Run {run.id}")
        self.input_label.setText(run.display_title or "(no text)")
        self.input_label.setToolTip(run.input if run.title else "")   # the instruction the model was given
        self.error_label.show_text(run.error or "")
        self.tools_label.setText(", ".join(run.tools_used) if run.tools_used else
                                 ("listed when the run ends" if not run.is_finished else "none"))
        self.tokens_label.setText(tokens_text(self.records, run))
        summary = " ".join(" ".join(r.text.split()) for r in self.records)
        self.summary_label.setText(summary or "—")
        self._form.setRowVisible(self.summary_label, bool(summary))
        if run.steering_version:
            self.steering_label.setText(f'<a href="version:{run.steering_version}">directive version '
                                        f"{run.steering_version}</a>")
            self.steering_label.setToolTip("Show this version on the Steering page")
        else:
            self.steering_label.setText("no directive" if run.is_finished or self._has_reasoned() else
                                        "read at the reasoning step")
            self.steering_label.setToolTip("")
        answer = " ".join((run.response or "").split())
        if len(answer) > ANSWER_CHARS:
            answer = answer[:ANSWER_CHARS].rsplit(" ", 1)[0] + " …"
        self.answer_label.setText(answer or ("none" if run.is_finished else "not yet"))
        self.answer_label.setToolTip(run.response or "")
        if run.status == "running":
            self._tick.start()
        else:
            self._tick.stop()
        self._fill_steps(run)

    @property
    def is_ticking(self) -> bool:
        """Whether the running time is being counted on screen (a running run is shown)."""
        return self._tick.isActive()

    def _on_steering_label_link_activated(self, link: str) -> None:
        kind, _, value = link.partition(":")
        if kind == "version" and value.isdigit():
            self.version_requested.emit(int(value))

    def _has_reasoned(self) -> bool:
        return any(checkpoint.node == "agent_execution" for checkpoint in self.checkpoints)

    def _on_tick_timeout(self) -> None:
        if self.run is not None and self.isVisible():
            self._render(self.run)   # "for 12 s so far" goes on counting

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 (Qt override)
        super().hideEvent(event)
        self._tick.stop()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        if self.run is not None and self.run.status == "running":
            self._tick.start()

    def _fill_steps(self, run: Run) -> None:
        self.steps_tree.clear()
        items = []
        for checkpoint in self.checkpoints:
            node = checkpoint.node
            item = QTreeWidgetItem([str(checkpoint.step), node, step_time(checkpoint.created_at, run.created_at),
                                    ", ".join(checkpoint.changed) or "—"])
            item.setToolTip(1, NODE_WORDS.get(node, node))
            item.setToolTip(2, exact_time(checkpoint.created_at))
            item.setToolTip(3, ", ".join(checkpoint.changed))
            items.append(item)
        self.steps_tree.addTopLevelItems(items)
        if not items and run.is_finished:
            placeholder = QTreeWidgetItem(["", "Its steps were folded away by the ledger's retention.", "", ""])
            placeholder.setFlags(Qt.ItemFlag.NoItemFlags)
            self.steps_tree.addTopLevelItem(placeholder)

    def step_rows(self) -> list[tuple[str, str, str]]:
        """(step, node, changed) of the rows shown (tests)."""
        rows = []
        for n in range(self.steps_tree.topLevelItemCount()):
            item = self.steps_tree.topLevelItem(n)
            assert item is not None
            rows.append((item.text(0), item.text(1), item.text(3)))
        return rows
