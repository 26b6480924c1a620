"""The Agent tab: the agent made visible — its runs (live), the steering directive, and the world timeline."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QAbstractItemView, QListView, QSplitter, QTabWidget, QVBoxLayout, QWidget

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.orchestration.ports import Run
from openhuman_desktop.orchestration.steering import Directive, Reflection
from openhuman_desktop.qt.asyncutil import Jobs, Refresher
from openhuman_desktop.qt.intelligence.agent.run_detail import RunDetailView, RunReads
from openhuman_desktop.qt.intelligence.agent.runs import RunDelegate, RunListModel, RunPages
from openhuman_desktop.qt.intelligence.agent.steering import SteeringView
from openhuman_desktop.qt.intelligence.agent.timeline import TimelinePages, TimelineView
from openhuman_desktop.qt.intelligence.agent.versions import ReflectionStatusSource, SteeringSource
from openhuman_desktop.qt.intelligence.muted_label import EmptyState
from openhuman_desktop.qt.intelligence.panel_frame import PanelFrame
from openhuman_desktop.qt.intelligence.theme import em

log = logging.getLogger(__name__)

PAGES = ("runs", "steering", "timeline")
NO_LEDGER = "The agent's runs live in its ledger, which this window does not have."
NO_RUNS = ("No runs yet. Every message to the assistant — from Chat, the web app, Telegram, the command line or "
           "a task that needed it — becomes a run, and shows here as it happens.")


class AgentLedger(RunPages, RunReads, TimelinePages, Protocol):
    """What the tab reads from the run ledger (``RunLedger``)."""

    async def reflections(self, limit: int = 20) -> list[Reflection]: ...


class AgentView(QWidget):
    """The Agent tab. ``ledger`` / ``steering`` None: a window without the agent (each page says so);
    ``trigger_reflection`` None: "Reflect now" is off; ``reflection_status`` (the reflection service's
    ``status()``) adds when it reflects next and the subconscious model's problem (see ``SteeringView``)."""

    def __init__(self, ledger: AgentLedger | None, steering: SteeringSource | None,
                 trigger_reflection: Callable[[], object] | None, jobs: Jobs, now: Callable[[], float],
                 parent: QWidget | None = None, *, reflection_status: ReflectionStatusSource | None = None) -> None:
        super().__init__(parent)
        self._ledger = ledger
        self._jobs = jobs
        self._now = now
        self._is_timeline_stale = False
        self._is_stale = True   # nothing read yet: the first time the tab is shown reads it
        self.setAccessibleName("Agent")
        unit = em(self)
        pad = max(6, unit // 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, pad, 0, 0)
        layout.setSpacing(pad)
        self.pages = QTabWidget(self)
        self.pages.setAccessibleName("Agent sections")
        self.pages.tabBar().setAccessibleName("Agent sections")
        self.pages.setDocumentMode(True)
        layout.addWidget(self.pages, 1)

        # Runs: the list on the left, the picked run on the right.
        runs_page = QWidget()
        runs_layout = QVBoxLayout(runs_page)
        runs_layout.setContentsMargins(0, pad, 0, 0)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, runs_page)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setHandleWidth(pad)
        list_panel = PanelFrame(self.splitter)
        list_layout = QVBoxLayout(list_panel)
        list_layout.setContentsMargins(2, 2, 2, 2)
        self.runs = RunListModel(jobs, now, parent=self)
        self.runs.set_source(ledger)
        self.runs_view = QListView(list_panel)
        self.runs_view.setAccessibleName("Runs")
        self.runs_view.setModel(self.runs)
        self.runs_view.setItemDelegate(RunDelegate(self.runs_view, now))
        self.runs_view.setUniformItemSizes(True)
        self.runs_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.runs_view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.runs_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.runs_view.setFrameShape(QListView.Shape.NoFrame)
        self.runs_view.viewport().setAutoFillBackground(False)
        list_layout.addWidget(self.runs_view, 1)
        self.runs_empty = EmptyState(NO_RUNS if ledger is not None else NO_LEDGER, list_panel)
        self.runs_empty.setAccessibleName("No runs")
        list_layout.addWidget(self.runs_empty, 1)
        detail_panel = PanelFrame(self.splitter)
        detail_layout = QVBoxLayout(detail_panel)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        self.detail = RunDetailView(now, detail_panel)
        self.detail.set_source(ledger)
        detail_layout.addWidget(self.detail)
        self.splitter.addWidget(list_panel)
        self.splitter.addWidget(detail_panel)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setSizes([unit * 26, unit * 40])
        runs_layout.addWidget(self.splitter, 1)
        self.pages.addTab(runs_page, "&Runs")

        self.steering_view = SteeringView(jobs, now)
        self.steering_view.set_sources(steering, ledger.reflections if ledger is not None else None)
        self.steering_view.set_trigger(trigger_reflection)
        self.steering_view.set_status_source(reflection_status)
        self.pages.addTab(self.steering_view, "&Steering")
        self.timeline_view = TimelineView(jobs, now)
        self.timeline_view.set_source(ledger)
        self.pages.addTab(self.timeline_view, "&World timeline")
        for index, tip in enumerate(("What the agent did and is doing (Alt+R)",
                                     "The directive that steers the reasoning model (Alt+S)",
                                     "Every real change the agent made (Alt+W)")):
            self.pages.setTabToolTip(index, tip)

        self._detail = Refresher(jobs, self._reload_detail, "agent-run-detail")
        self._newer = Refresher(jobs, self.timeline_view.model.load_newer, "agent-timeline-newer")
        self._steering = Refresher(jobs, self.steering_view.refresh, "agent-steering-refresh")
        self.runs_view.selectionModel().currentChanged.connect(self._on_runs_view_current_changed)
        self.detail.version_requested.connect(self._on_detail_version_requested)
        self.timeline_view.run_requested.connect(self._on_timeline_view_run_requested)
        for signal in (self.runs.modelReset, self.runs.rowsInserted, self.runs.load_state_changed):
            signal.connect(self._on_runs_changed)
        self._on_runs_changed()

    # --- data -----------------------------------------------------------------------------------

    async def refresh(self) -> None:
        """Load the newest runs, the steering directive and the newest timeline entries."""
        if self._ledger is None:
            return
        self._is_stale = False
        picked = self.detail.run.id if self.detail.run is not None else None
        await self.runs.load()
        if picked is not None:
            self.select_run(picked)   # F5 keeps the run you were looking at (when it is still among the newest)
        await self.steering_view.refresh()
        await self.timeline_view.refresh()

    async def refresh_if_shown(self) -> None:
        """:meth:`refresh` when the tab is on screen; otherwise the next time it is shown (the window's
        start-up and F5 read nothing for a tab nobody looks at)."""
        if self.isVisible():
            await self.refresh()
        else:
            self._is_stale = True

    def show_page(self, name: str) -> None:
        """Switch to ``"runs"``, ``"steering"`` or ``"timeline"``."""
        self.pages.setCurrentIndex(PAGES.index(name))

    @property
    def current_page(self) -> str:
        return PAGES[self.pages.currentIndex()]

    def select_run(self, run_id: str) -> bool:
        """Pick a run in the list (its details load); False when it is not in the list."""
        row = self.runs.row_of(run_id)
        if row is None:
            return False
        self.runs_view.setCurrentIndex(self.runs.index(row))
        return True

    async def open_run(self, run_id: str) -> bool:
        """The Runs page on run ``run_id``: picked in the list, or (older than the rows read) shown by itself."""
        self.show_page("runs")
        if self.select_run(run_id):
            return True
        if self._ledger is None:
            return False
        try:
            run = await self._ledger.get_run(run_id)
        except UserFacingError as exc:
            self.detail.load_error.show_text(f"Could not read the run: {exc}")
            return False
        if run is None:
            self.detail.load_error.show_text("That run is no longer in the ledger (old runs are folded away).")
            return False
        self.runs_view.clearSelection()
        self.runs_view.setCurrentIndex(QModelIndex())
        await self.detail.show_run(run)
        return True

    async def _reload_detail(self) -> None:
        run = self.detail.run
        if run is not None:
            await self.detail.reload(run.id)

    # --- the bridge's events (the window forwards them) ------------------------------------------

    def on_run_started(self, run: Run) -> None:
        self.runs.upsert(run)
        if not self.runs_view.currentIndex().isValid():
            self.select_run(run.id)
        elif self.detail.run is not None and self.detail.run.id == run.id:
            self._detail.request()

    def on_node_finished(self, run_id: str, node: str, _step: int) -> None:
        self.runs.set_node(run_id, node)
        if self.detail.run is not None and self.detail.run.id == run_id:
            self._detail.request()
        if node == "agent_execution":   # where tools ran: the timeline may have grown
            self._timeline_changed()

    def on_run_finished(self, run: Run) -> None:
        self.runs.upsert(run)
        if self.detail.run is not None and self.detail.run.id == run.id:
            self._detail.request()
        self._timeline_changed()

    def on_steering_changed(self, _directive: Directive) -> None:
        self._steering.request()
        self._timeline_changed()

    def on_reflection_started(self, trigger: str) -> None:
        self.steering_view.on_reflection_started(trigger)

    def on_reflection_finished(self, reflection: Reflection) -> None:
        self.steering_view.on_reflection_finished(reflection)

    def _timeline_changed(self) -> None:
        if self.isVisible():
            self._newer.request()
        else:
            self._is_timeline_stale = True   # read when the tab is shown again

    # --- slots ----------------------------------------------------------------------------------

    def _on_runs_changed(self, *_args: object) -> None:
        empty = self._ledger is None or (self.runs.is_loaded and self.runs.rowCount() == 0)
        self.runs_empty.setVisible(empty)
        self.runs_view.setVisible(not empty)
        if self.runs.error:
            self.runs_empty.setText(f"Could not read the runs: {self.runs.error}")
            self.runs_empty.show()
        if not empty and not self.runs_view.currentIndex().isValid() and self.runs.rowCount():
            self.runs_view.setCurrentIndex(self.runs.index(0))

    def _on_runs_view_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            self.detail.clear()
            return
        run = self.runs.run(current.row())
        self._jobs.spawn(self.detail.show_run(run), name="agent-run-show", group="agent-run-show")

    def _on_detail_version_requested(self, version: int) -> None:
        self.show_page("steering")
        self.steering_view.select_version(version)

    def _on_timeline_view_run_requested(self, run_id: str) -> None:
        self._jobs.spawn(self.open_run(run_id), name="agent-open-run", group="agent-open-run")

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        if self._is_stale and self._ledger is not None:
            self._is_stale = self._is_timeline_stale = False
            self._jobs.spawn(self.refresh(), name="agent-refresh", group="agent-refresh")
            return
        if self._is_timeline_stale:
            self._is_timeline_stale = False
            self._newer.request()
