"""The Intelligence window: Subconscious (status, approvals, tasks, activity), Skills, Memory, Chat and Agent tabs."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QHideEvent, QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QMainWindow,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.qt import placement
from openhuman_desktop.qt.asyncutil import Jobs, Refresher
from openhuman_desktop.qt.bridge import CoreBridge
from openhuman_desktop.qt.intelligence.activity import ActivityView
from openhuman_desktop.qt.intelligence.agent import AgentView
from openhuman_desktop.qt.intelligence.banner import Banner
from openhuman_desktop.qt.intelligence.chat import ChatView, DesktopChannel
from openhuman_desktop.qt.intelligence.memory import MemoryView
from openhuman_desktop.qt.intelligence.panel_frame import PanelFrame
from openhuman_desktop.qt.intelligence.ports import SkillsPorts, WindowPorts
from openhuman_desktop.qt.intelligence.skills import SkillActions, SkillsView
from openhuman_desktop.qt.intelligence.status_bar import StatusBarView
from openhuman_desktop.qt.intelligence.subconscious import ApprovalsView, DecisionsView, TasksView
from openhuman_desktop.qt.intelligence.theme import em, retheme
from openhuman_desktop.store import Escalation, LogEntry, Task

log = logging.getLogger(__name__)

WINDOW_TITLE = "OpenHuman — Intelligence"
TAB_NAMES = ("subconscious", "skills", "memory", "chat", "agent")
TIME_REFRESH_MS = 30_000


class IntelligenceWindow(QMainWindow):
    """The main window of the tray app. Closing it only hides it: the app lives on in the tray.

    Args:
        ports: the clock and one port per tab, the few services each uses (``qt/intelligence/ports.py``; the
            app builds them from its ``Services`` in ``qt/wiring.py``).
        bridge: where core events arrive as Qt signals.

    ``desktop_channel`` is the Chat tab's channel: the app registers it with the hub once the window exists.
    """

    settings_requested = Signal()  # Ctrl+, : the app opens the Settings window
    skill_edit_requested = Signal(str)  # Edit… on an MCP server ("" adds one): the app opens Settings on it

    def __init__(self, ports: WindowPorts, bridge: CoreBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ports = ports
        self._bridge = bridge
        self.jobs = Jobs()
        self._has_refreshed = False
        self._is_closed = False
        now = ports.now
        self.setWindowTitle(WINDOW_TITLE)
        self.setObjectName("intelligenceWindow")
        unit = em(self)
        self.resize(unit * 80, unit * 54)
        self.setMinimumSize(unit * 44, unit * 30)

        central = QWidget(self)
        outer = QVBoxLayout(central)
        pad = max(6, unit // 2)
        outer.setContentsMargins(pad * 2, pad * 2, pad * 2, pad * 2)
        outer.setSpacing(pad)
        self.notice_banner = Banner(central, accent_name="blue")
        outer.addWidget(self.notice_banner)
        self.tabs = QTabWidget(central)
        self.tabs.setAccessibleName("Sections")
        self.tabs.setDocumentMode(True)
        outer.addWidget(self.tabs, 1)
        self.setCentralWidget(central)

        subconscious = ports.subconscious
        self.status_bar_view = StatusBarView(subconscious.status, now, self.jobs,
                                             model_problem=subconscious.model_problem)
        self.approvals_view = ApprovalsView(subconscious.approvals, self.jobs)
        self.tasks_view = TasksView(subconscious.tasks, now, self.jobs, rules=subconscious.rules)
        self.activity_view = ActivityView(subconscious.log, now, self.jobs, escalations=subconscious.escalations)
        self.decisions_view = DecisionsView(subconscious.decisions, self.jobs, now)
        self.skills_view = SkillsView(ports.skills.registry, self.jobs, actions=self._skill_actions(ports.skills))
        self.memory_view = MemoryView(ports.memory.memory, now, self.jobs, status=ports.memory.status)
        self.tabs.addTab(self._subconscious_page(pad), "Subconscious")
        self.tabs.addTab(self.skills_view, "Skills")
        self.tabs.addTab(self.memory_view, "Memory")
        self.desktop_channel = DesktopChannel(self)
        self.chat_view = ChatView(ports.chat.hub, ports.chat.agent, self.desktop_channel, self.jobs, now,
                                  skills=self._skill_titles)
        self.chat_view.fix_in_skills_requested.connect(self._on_approvals_view_fix_in_skills_requested)
        self.tabs.addTab(self.chat_view, "Chat")
        agent = ports.agent
        self.agent_view = AgentView(agent.ledger, agent.steering, agent.reflect, self.jobs, now,
                                    reflection_status=agent.reflection_status)
        self.tabs.addTab(self.agent_view, "Agent")
        for index, name in enumerate(("Subconscious", "Skills", "Memory", "Chat", "Agent")):
            self.tabs.setTabToolTip(index, f"{name} (Ctrl+{index + 1})")
            shortcut = QShortcut(QKeySequence(f"Ctrl+{index + 1}"), self)
            shortcut.activated.connect(lambda i=index: self.show_tab(TAB_NAMES[i]))
        close = QShortcut(QKeySequence(QKeySequence.StandardKey.Close), self)
        close.activated.connect(self.close)
        preferences = QShortcut(QKeySequence("Ctrl+,"), self)
        preferences.activated.connect(self.settings_requested)
        refresh = QShortcut(QKeySequence(QKeySequence.StandardKey.Refresh), self)
        refresh.activated.connect(self._on_refresh_shortcut_activated)

        self._status = Refresher(self.jobs, self.status_bar_view.refresh, "status-refresh")
        self._approvals = Refresher(self.jobs, self.approvals_view.refresh, "approvals-refresh")
        self._skills = Refresher(self.jobs, self.skills_view.refresh, "skills-refresh")
        self._times = QTimer(self)
        self._times.setInterval(TIME_REFRESH_MS)
        self._times.timeout.connect(self._on_times_timeout)
        self.approvals_view.fix_in_skills_requested.connect(self._on_approvals_view_fix_in_skills_requested)
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self.tasks_view.model.counts_changed.connect(self._on_tasks_model_counts_changed)
        self._connections: list[tuple[Any, Callable[..., None]]] = [
            (bridge.tasks_changed, self._on_bridge_tasks_changed),
            (bridge.task_removed, self._on_bridge_task_removed),
            (bridge.activity_batch, self._on_bridge_activity_batch),
            (bridge.escalation_changed, self._on_bridge_escalation_changed),
            (bridge.tick_started, self._on_bridge_tick_started),
            (bridge.tick_finished, self._on_bridge_tick_finished),
            (bridge.tick_finished, self._on_bridge_tick_finished_chart),
            (bridge.status_changed, self._on_bridge_status_changed),
            (bridge.memory_added, self.memory_view.on_memory_added),
            (bridge.memory_removed, self.memory_view.on_memory_removed),
            (bridge.run_started, self.agent_view.on_run_started),
            (bridge.node_finished, self.agent_view.on_node_finished),
            (bridge.run_finished, self.agent_view.on_run_finished),
            (bridge.steering_changed, self.agent_view.on_steering_changed),
            (bridge.reflection_started, self.agent_view.on_reflection_started),
            (bridge.reflection_finished, self.agent_view.on_reflection_finished),
            (bridge.status_changed, self.memory_view.on_app_status_changed),
            (bridge.skills_changed, self._on_bridge_skills_changed),
        ]
        for signal, slot in self._connections:
            signal.connect(slot)

    def _subconscious_page(self, pad: int) -> QWidget:
        page = QWidget()
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, pad, 0, 0)
        layout.setSpacing(pad)
        layout.addWidget(self.status_bar_view)
        splitter = QSplitter(Qt.Orientation.Horizontal, page)
        splitter.setChildrenCollapsible(False)
        splitter.setHandleWidth(pad)
        left = QWidget(splitter)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.setSpacing(pad)
        self.left_scroll = QScrollArea(left)
        self.left_scroll.setAccessibleName("Approvals and tasks")
        self.left_scroll.setObjectName("leftScroll")
        self.left_scroll.setWidgetResizable(True)
        self.left_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.left_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        content = QWidget()
        content.setObjectName("leftContent")
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(pad, pad, pad * 2, pad)
        content_layout.setSpacing(pad * 3)
        content_layout.addWidget(self.approvals_view)
        content_layout.addWidget(self.tasks_view)
        content_layout.addStretch(1)
        self.left_scroll.setWidget(content)
        self.left_scroll.viewport().setAutoFillBackground(False)   # the window colour shows through
        content.setAutoFillBackground(False)
        left_layout.addWidget(self.left_scroll, 1)
        add_box = QWidget(left)
        add_layout = QVBoxLayout(add_box)
        add_layout.setContentsMargins(pad, 0, pad * 2, 0)
        add_layout.addWidget(self.tasks_view.undo_bar)   # in sight after a delete, however long the list
        add_layout.addWidget(self.tasks_view.add_view)
        self.tasks_view.add_view.show()
        left_layout.addWidget(add_box)
        panel = PanelFrame(splitter)
        panel.setObjectName("panel")
        panel_layout = QVBoxLayout(panel)
        panel_layout.setContentsMargins(pad * 2, pad * 2, pad, pad)
        panel_layout.addWidget(self.decisions_view)
        panel_layout.addSpacing(pad)
        panel_layout.addWidget(self.activity_view, 1)
        splitter.addWidget(left)
        splitter.addWidget(panel)
        splitter.setStretchFactor(0, 5)
        splitter.setStretchFactor(1, 6)
        unit = em(self)
        splitter.setSizes([unit * 30, unit * 36])
        self.splitter = splitter
        layout.addWidget(splitter, 1)
        return page

    # --- the interface the app shell uses -------------------------------------------------------

    def bring_to_front(self) -> None:
        """Show the window whole on a screen (restored if minimised), raise it and give it the focus."""
        placement.bring_to_front(self)

    def show_tab(self, name: str) -> None:
        """Switch to ``"subconscious"``, ``"skills"``, ``"memory"``, ``"chat"`` (the focus in its message box) or
        ``"agent"``."""
        if name not in TAB_NAMES:
            raise ValueError(f"unknown tab {name!r}; expected one of {', '.join(TAB_NAMES)}")
        self.tabs.setCurrentIndex(TAB_NAMES.index(name))
        if name == "chat":
            self.chat_view.input.setFocus(Qt.FocusReason.OtherFocusReason)

    @property
    def current_tab(self) -> str:
        return TAB_NAMES[self.tabs.currentIndex()]

    def focus_escalation(self, escalation_id: str) -> None:
        """Bring the window up on the Subconscious tab with the escalation's card focused."""
        self.bring_to_front()
        self.show_tab("subconscious")
        if not self._focus_card(escalation_id):
            self.jobs.spawn(self._load_and_focus(escalation_id), name="focus-escalation")

    def _focus_card(self, escalation_id: str) -> bool:
        card = self.approvals_view.focus_escalation(escalation_id)
        if card is None:
            return False
        self.left_scroll.ensureWidgetVisible(card)
        return True

    async def _load_and_focus(self, escalation_id: str) -> None:
        await self.approvals_view.refresh()
        if not self._focus_card(escalation_id):
            self.show_notice("That request was already answered.")

    def open_skill(self, name: str) -> bool:
        """Switch to the Skills tab on skill ``name`` (the list when there is no such skill)."""
        self.show_tab("skills")
        return self.skills_view.select_skill(name) if name else False

    def show_notice(self, text: str) -> None:
        """Show ``text`` in a dismissible banner at the top of the window."""
        self.notice_banner.show_text(text)

    async def refresh(self) -> None:
        """Reload every section from the services."""
        self._has_refreshed = True
        # What the first paint shows comes first; the tasks' widgets and the other tabs after it.
        await asyncio.gather(self.activity_view.refresh(), self.status_bar_view.refresh(),
                             self.approvals_view.refresh())
        await asyncio.sleep(0)
        await asyncio.gather(self.tasks_view.refresh(), self.skills_view.refresh(), self.memory_view.refresh(),
                             self.chat_view.refresh(), self.agent_view.refresh_if_shown(),
                             self.decisions_view.refresh())

    async def aclose(self) -> None:
        """Stop listening to the bridge, stop timers and cancel the window's jobs; safe to call twice."""
        if self._is_closed:
            return
        self._is_closed = True
        for signal, slot in self._connections:
            with contextlib.suppress(RuntimeError, TypeError):
                signal.disconnect(slot)
        self._times.stop()
        await self.jobs.aclose()

    def _on_bridge_tick_finished_chart(self, _generation: int, _outcome: str) -> None:
        self.decisions_view.request_refresh()

    def closeEvent(self, event: QCloseEvent) -> None:
        event.ignore()
        self.hide()

    # --- helpers --------------------------------------------------------------------------------

    def _skill_titles(self) -> dict[str, str]:
        return {skill.name: skill.title for skill in self._ports.skills.registry.skills}

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in (QEvent.Type.ApplicationPaletteChange, QEvent.Type.PaletteChange):
            retheme(self)   # the system switched between light and dark
        super().changeEvent(event)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self._times.start()
        if self._is_closed:
            return
        if not self._has_refreshed:
            self._has_refreshed = True
            self.jobs.spawn(self.refresh(), name="window-refresh")
        else:
            self._status.request()   # events were not turned into status reloads while hidden

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 (Qt override)
        super().hideEvent(event)
        self._times.stop()

    # --- slots ----------------------------------------------------------------------------------

    def _request_status(self) -> None:
        """Reload the status now when it is on screen; a hidden window reloads it when shown again."""
        if self.isVisible():
            self._status.request()

    def _on_bridge_tasks_changed(self, tasks: list[Task]) -> None:
        self.tasks_view.on_tasks_changed(tasks)

    def _on_bridge_task_removed(self, task_id: str) -> None:
        self.tasks_view.on_task_removed(task_id)

    def _on_tasks_model_counts_changed(self) -> None:
        # The status bar counts tasks: reloaded when a task came or went, whoever added it (the window shows
        # its own new task before the bus says so), never for a tick's 1,000 schedule changes.
        self._request_status()

    def _on_bridge_activity_batch(self, entries: list[LogEntry]) -> None:
        self.activity_view.on_activity_batch(entries)

    def _on_bridge_escalation_changed(self, escalation: Escalation) -> None:
        self.approvals_view.on_escalation_changed(escalation)
        self.activity_view.on_escalation_changed(escalation)
        self._request_status()

    def _on_bridge_tick_started(self, generation: int, due_count: int) -> None:
        self.status_bar_view.on_tick_started(generation, due_count)

    def _on_bridge_tick_finished(self, generation: int, outcome: str) -> None:
        self.status_bar_view.on_tick_finished(generation, outcome)
        self._request_status()

    def _on_bridge_status_changed(self) -> None:
        self._request_status()
        self.chat_view.refresh_status()   # the channels' line: a synchronous read of the hub, no query

    def _on_bridge_skills_changed(self) -> None:
        self._skills.request()

    def _skill_actions(self, skills: SkillsPorts) -> SkillActions | None:
        """Restart, Disable and Edit for MCP servers and the built-in skills of the person's world (None when the
        app has neither to act on)."""
        if skills.restart is None or skills.set_enabled is None:
            return None
        return SkillActions(restart=skills.restart, set_enabled=skills.set_enabled, edit=self.skill_edit_requested.emit)

    def _on_approvals_view_fix_in_skills_requested(self, skill_name: str) -> None:
        self.open_skill(skill_name)

    def _on_tabs_current_changed(self, index: int) -> None:
        if self._has_refreshed and TAB_NAMES[index] == "skills":
            self.jobs.spawn(self.skills_view.refresh(), name="skills-refresh", group="skills-refresh")
        elif self._has_refreshed and TAB_NAMES[index] == "memory":
            self.jobs.spawn(self.memory_view.refresh(), name="memory-refresh", group="memory-refresh")

    def _on_times_timeout(self) -> None:
        self.tasks_view.refresh_times()
        self.decisions_view.follow_the_day()

    def _on_refresh_shortcut_activated(self) -> None:
        self.jobs.spawn(self.refresh(), name="window-refresh")
