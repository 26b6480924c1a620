"""What the Intelligence window is given: one small port per tab, naming the few services that tab uses.

The app builds them in one place (``qt/wiring.py``, from its ``Services``), tests from fakes; neither the window
nor a tab sees ``Services`` itself. A part a tab can do without (the chat hub, the ledger, the reflection service)
is ``None`` there, and the tab says so instead of showing it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from openhuman_desktop.qt.intelligence.activity.model import Escalations, Fetch
from openhuman_desktop.qt.intelligence.agent.tab import AgentLedger
from openhuman_desktop.qt.intelligence.agent.versions import ReflectionStatusSource, SteeringSource
from openhuman_desktop.qt.intelligence.chat.tab import Agent, Hub
from openhuman_desktop.qt.intelligence.memory.tab import MemorySource
from openhuman_desktop.qt.intelligence.memory.tab import StatusSource as VectorStatusSource
from openhuman_desktop.qt.intelligence.status_bar import StatusSource
from openhuman_desktop.qt.intelligence.subconscious.approvals import EscalationService
from openhuman_desktop.qt.intelligence.subconscious.decisions_chart import Query
from openhuman_desktop.qt.intelligence.subconscious.tasks import RuleService, TaskService
from openhuman_desktop.skills.base import SkillRegistry


@dataclass(frozen=True)
class SubconsciousPorts:
    """The Subconscious tab: its status bar, Approval Needed, Active Tasks, the Activity Log and the chart.

    Attributes:
        status: the status bar's reads and Run Now (the subconscious service).
        tasks: Active Tasks' reads and writes (the same service).
        rules: a task's rules (None: the rule fields are not offered).
        log: the Activity Log's pages (``SubconsciousService.log_list``).
        approvals: the approval gate: every card's Go ahead / Skip goes through it.
        escalations: the cards the Activity Log links its rows to (``ApprovalGate.escalations_list``).
        decisions: 30 days of decisions for the chart (None: the chart stays empty).
        model_problem: what is wrong with the local model, or None when it works.
    """

    status: StatusSource
    tasks: TaskService
    rules: RuleService | None
    log: Fetch
    approvals: EscalationService
    escalations: Escalations | None = None
    decisions: Query | None = None
    model_problem: Callable[[], str | None] = lambda: None


@dataclass(frozen=True)
class SkillsPorts:
    """The Skills tab: the registry, and what can be done to an MCP server or a skill of the person's world.

    Attributes:
        registry: every skill, built in and MCP.
        restart: restart a skill now (None, with ``set_enabled`` None: the tab offers no actions).
        set_enabled: write ``enabled`` to the skill's table in config.toml and apply it.
    """

    registry: SkillRegistry
    restart: Callable[[str], Awaitable[object]] | None = None
    set_enabled: Callable[[str, bool], Awaitable[object]] | None = None


@dataclass(frozen=True)
class MemoryPorts:
    """The Memory tab: the memory service (reads, and the one door writes go through) and the vectors' status
    (None: no health line)."""

    memory: MemorySource
    status: VectorStatusSource | None = None


@dataclass(frozen=True)
class ChatPorts:
    """The Chat tab: the channel hub and the agent (None: the tab says chat is unavailable)."""

    hub: Hub | None = None
    agent: Agent | None = None


@dataclass(frozen=True)
class AgentPorts:
    """The Agent tab: the run ledger, the steering directive and the reflection service (each may be None)."""

    ledger: AgentLedger | None = None
    steering: SteeringSource | None = None
    reflect: Callable[[], object] | None = None
    reflection_status: ReflectionStatusSource | None = None


@dataclass(frozen=True)
class WindowPorts:
    """Everything the Intelligence window is given: the clock and one port per tab."""

    now: Callable[[], float]
    subconscious: SubconsciousPorts
    skills: SkillsPorts
    memory: MemoryPorts
    chat: ChatPorts = field(default_factory=ChatPorts)
    agent: AgentPorts = field(default_factory=AgentPorts)
