"""The Subconscious tab's status bar: counts, last and next tick, failures, state reason, Run Now."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from PySide6.QtCore import QTimer
from PySide6.QtGui import QHideEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.accent_label import AccentLabel
from openhuman_desktop.qt.intelligence.muted_label import MutedLabel, separator_dot
from openhuman_desktop.qt.intelligence.panel_frame import PanelFrame
from openhuman_desktop.qt.intelligence.spinner import Spinner
from openhuman_desktop.qt.intelligence.status_dot import StatusDot
from openhuman_desktop.qt.intelligence.theme import em, make_primary
from openhuman_desktop.qt.intelligence.time_text import clock_time, exact_time, relative_time

log = logging.getLogger(__name__)

STATE_ACCENT = {"idle": "green", "ticking": "blue", "degraded": "coral", "paused": "amber", "disabled": "grey"}
FOLLOW_UP_MS = 300
STATE_WORDS = {"idle": "Idle", "ticking": "Working", "degraded": "Degraded", "paused": "Paused", "disabled": "Off"}


class StatusSource(Protocol):
    """What the status bar needs from the subconscious service."""

    async def status(self) -> dict[str, Any]:
        ...

    def trigger(self) -> None:
        ...


def plural(count: int, word: str) -> str:
    return f"{count:,} {word}" if count == 1 else f"{count:,} {word}s"


class StatusBarView(PanelFrame):
    """One line of engine status, a second line with the state reason when something is wrong, Run Now.

    Run Now shows progress for the whole tick it starts: busy from the click until ``tick_finished``
    of that tick (the first tick that starts after the click), "Looking at N tasks…" once it started.
    """

    def __init__(
        self,
        service: StatusSource,
        now: Callable[[], float],
        jobs: Jobs,
        model_problem: Callable[[], str | None] = lambda: None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("statusBar")
        self._service = service
        self._now = now
        self._jobs = jobs
        self._model_problem = model_problem
        self._status: dict[str, Any] = {}
        self._is_run_pending = False   # Run Now clicked, its tick not started yet
        self._run_generation: int | None = None
        self._ticking_generation: int | None = None
        self._is_tick_known = False     # tick events seen: they, not a status snapshot, say whether one runs
        self._build()
        self._clock = QTimer(self)   # relative times ("4 min ago") age while the window is open
        self._clock.setInterval(30_000)
        self._clock.timeout.connect(self._on_clock_timeout)
        self._follow_up = QTimer(self)
        self._follow_up.setSingleShot(True)
        self._follow_up.setInterval(FOLLOW_UP_MS)
        self._follow_up.timeout.connect(self._on_follow_up_timeout)

    # --- layout ---------------------------------------------------------------------------------

    def _build(self) -> None:
        self._separators: dict[str, QWidget] = {}
        outer = QVBoxLayout(self)
        pad = max(6, em(self) // 2)
        outer.setContentsMargins(pad * 2, pad, pad * 2, pad)
        outer.setSpacing(pad // 2)
        row = self._row = QHBoxLayout()
        row.setSpacing(pad)
        outer.addLayout(row)
        self.state_dot = StatusDot("grey", self)
        self.state_dot.setAccessibleName("Engine state")
        row.addWidget(self.state_dot)
        self.state_label = QLabel("…", self)
        self.state_label.setAccessibleName("Engine state")
        font = self.state_label.font()
        font.setBold(True)
        self.state_label.setFont(font)
        row.addWidget(self.state_label)
        self.tasks_label = self._item(row, "Task count")
        self.ticks_label = self._item(row, "Total ticks")
        self.last_tick_label = self._item(row, "Last tick")
        self.failed_sep = separator_dot(self)
        row.addWidget(self.failed_sep)
        self.failed_label = AccentLabel("coral", self)
        self.failed_label.setWordWrap(False)
        self.failed_label.setAccessibleName("Consecutive failures")
        row.addWidget(self.failed_label)
        row.addStretch(1)
        self.spinner = Spinner(self)
        self.spinner.setAccessibleName("Tick in progress")
        row.addWidget(self.spinner)
        self.progress_label = MutedLabel("", self)
        self.progress_label.setAccessibleName("Tick progress")
        self.progress_label.hide()
        row.addWidget(self.progress_label)
        self.next_tick_label = MutedLabel("", self)
        self.next_tick_label.setAccessibleName("Next tick")
        row.addWidget(self.next_tick_label)
        self.run_now_button = QPushButton("Run Now", self)
        make_primary(self.run_now_button)
        self.run_now_button.setAccessibleName("Run Now")
        self.run_now_button.setAccessibleDescription("Look at the due tasks now instead of waiting for the next tick")
        self.run_now_button.setToolTip("Look at the due tasks now instead of waiting for the next tick")
        self.run_now_button.clicked.connect(self._on_run_now_button_clicked)
        row.addWidget(self.run_now_button)
        self.reason_label = AccentLabel("coral", self)
        self.reason_label.setAccessibleName("State reason")
        outer.addWidget(self.reason_label)
        self.model_label = AccentLabel("coral", self)
        self.model_label.setAccessibleName("Model problem")
        outer.addWidget(self.model_label)
        self.error_label = AccentLabel("coral", self)
        self.error_label.setAccessibleName("Status error")
        outer.addWidget(self.error_label)

    def _item(self, row: QHBoxLayout, name: str) -> QLabel:
        if row.count() > 2:
            dot = separator_dot(self)
            self._separators[name] = dot
            row.addWidget(dot)
        label = QLabel("", self)
        label.setAccessibleName(name)
        row.addWidget(label)
        return label

    # --- data -----------------------------------------------------------------------------------

    async def refresh(self) -> None:
        """Reload the status from the service and show it."""
        try:
            status = await self._service.status()
        except UserFacingError as exc:
            self.error_label.show_text(f"Status unavailable: {exc}")
            return
        self.error_label.clear_text()
        self.set_status(status)

    def set_status(self, status: Mapping[str, Any]) -> None:
        self._status = dict(status)
        self._render()

    def _render(self) -> None:
        status = self._status
        if not status:
            return
        now = self._now()
        state = self._state()
        self.state_dot.set_accent(STATE_ACCENT.get(state, "grey"))
        self.state_dot.set_pulsing(state == "ticking")
        self.state_label.setText(STATE_WORDS.get(state, state.title()))
        self.state_label.setToolTip(str(status.get("state_reason") or ""))
        self.tasks_label.setText(plural(int(status.get("task_count") or 0), "task"))
        self.ticks_label.setText(plural(int(status.get("total_ticks") or 0), "tick"))
        self.tasks_label.setToolTip(f"{self.tasks_label.text()}, {self.ticks_label.text()} so far")
        last = status.get("last_tick_at")
        if last is None:
            self.last_tick_label.setText("No tick yet")
            self.last_tick_label.setToolTip("The assistant has not looked at your tasks yet")
        else:
            self.last_tick_label.setText(f"Last tick {relative_time(float(last), now)}")
            self.last_tick_label.setToolTip(exact_time(float(last)))
        failures = int(status.get("consecutive_failures") or 0)
        self.failed_label.show_text(f"{failures} failed" if failures > 0 else "")
        self.failed_label.setToolTip(
            f"The last {failures} evaluation(s) failed in a row" if failures > 0 else ""
        )
        self.failed_sep.setVisible(failures > 0)
        next_at = status.get("next_tick_at")
        if next_at is None or state in ("paused", "disabled"):
            self.next_tick_label.setText("")
            self.next_tick_label.setToolTip("")
        else:
            self.next_tick_label.setText(f"Next tick {clock_time(float(next_at), now)}")
            self.next_tick_label.setToolTip(f"{exact_time(float(next_at))} ({relative_time(float(next_at), now)})")
        reason = str(status.get("state_reason") or "")
        if state in ("degraded", "paused", "disabled") and reason:
            self.reason_label.set_accent("coral" if state == "degraded" else "amber")
            self.reason_label.show_text(reason)
        else:
            self.reason_label.clear_text()
        problem = self._model_problem()
        if problem and problem in self.reason_label.text() and self.reason_label.isVisibleTo(self):
            problem = None   # the state reason already says it
        self.model_label.show_text(f"Local model unreachable: {problem}" if problem else "")
        self._render_progress()

    def _state(self) -> str:
        state = str(self._status.get("state", "idle"))
        if state == "ticking" and self._is_tick_known and self._ticking_generation is None:
            # The snapshot was taken while the finished tick was wrapping up; the events are newer.
            return "degraded" if int(self._status.get("consecutive_failures") or 0) > 0 else "idle"
        return state

    def _render_progress(self) -> None:
        state = self._state()
        busy = self._is_run_pending or self._run_generation is not None or state == "ticking" \
            or self._ticking_generation is not None
        if busy:
            self.spinner.start()
        else:
            self.spinner.stop()
        self.run_now_button.setEnabled(not (self._is_run_pending or self._run_generation is not None))
        text = self.progress_label.text()
        if not busy:
            text = ""
        elif self._is_run_pending and self._run_generation is None:
            text = "Starting…"
        elif not text:
            text = "Working…"
        self.progress_label.setText(text)
        self.progress_label.setVisible(bool(text))
        self.next_tick_label.setVisible(not busy)
        self._fit()

    def _fit(self) -> None:
        """In a narrow window the tick count (also in the task count's tooltip) makes room for the rest."""
        self.ticks_label.setVisible(True)
        self._separators["Total ticks"].setVisible(True)
        outer = self.layout()
        outer_margins = outer.contentsMargins() if outer is not None else self.contentsMargins()
        room = self.contentsRect().width() - outer_margins.left() - outer_margins.right()
        items = (self._row.itemAt(i) for i in range(self._row.count()))
        widgets = [item.widget() for item in items if item is not None]
        shown = [w for w in widgets if w is not None and not w.isHidden()]
        needed = sum(w.sizeHint().width() for w in shown) + self._row.spacing() * max(0, len(shown) - 1)
        fits = needed <= room
        self.ticks_label.setVisible(fits)
        self._separators["Total ticks"].setVisible(fits)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._fit()

    @property
    def is_busy(self) -> bool:
        return self.spinner.isVisibleTo(self)

    # --- Run Now --------------------------------------------------------------------------------

    def _on_run_now_button_clicked(self) -> None:
        self._jobs.spawn(self.run_now(), name="run-now")

    async def run_now(self) -> None:
        """Start a tick now and show progress until it is over."""
        self.error_label.clear_text()
        self._is_run_pending = True
        self._render_progress()
        try:
            self._service.trigger()
        except (UserFacingError, RuntimeError) as exc:
            self._is_run_pending = False
            self.error_label.show_text(f"Could not start a tick: {exc}")
            self._render_progress()

    def on_tick_started(self, generation: int, due_count: int) -> None:
        self._is_tick_known = True
        self._ticking_generation = generation
        if self._is_run_pending:
            self._is_run_pending = False
            self._run_generation = generation
        self.progress_label.setText(f"Looking at {plural(due_count, 'task')}…" if due_count else "Nothing is due…")
        self._render_progress()

    def on_tick_finished(self, generation: int, outcome: str) -> None:
        self._is_tick_known = True
        self._follow_up.start()   # the engine's state settles just after its last event
        if generation == self._ticking_generation:
            self._ticking_generation = None
        if self._run_generation is not None and generation >= self._run_generation:
            self._run_generation = None
            self.progress_label.setText("")
        elif self._is_run_pending:
            # A tick that began before the click ended (superseded) — or ours never started (cancelled
            # before it could). The status tells which: no longer ticking means nothing more will come.
            self._jobs.spawn(self._settle_pending(), name="run-now-settle")
        if self._ticking_generation is None and self._run_generation is None and not self._is_run_pending:
            self.progress_label.setText("")
        self._render_progress()

    async def _settle_pending(self) -> None:
        try:
            status = await self._service.status()
        except UserFacingError:
            return
        if self._is_run_pending and status.get("state") != "ticking" and self._ticking_generation is None:
            self._is_run_pending = False
        self.set_status(status)

    def _on_follow_up_timeout(self) -> None:
        if self.isVisible():
            self._jobs.spawn(self.refresh(), name="status-follow-up", group="status-follow-up")

    # --- relative times age ---------------------------------------------------------------------

    def _on_clock_timeout(self) -> None:
        self._render()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        self._clock.start()
        self._render()
        super().showEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 (Qt override)
        self._clock.stop()
        super().hideEvent(event)

