"""The agent's graph on real parts for node tests: a fake Ollama (real HTTP) answering from an AgentScript,
the real Ollama client for both tiers, real skills on a temporary workspace, the in-memory journal and an
in-memory checkpointer that can resume a "killed" run from its last committed transition."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from openhuman_desktop.config import AgentSettings
from openhuman_desktop.llm import OllamaClient, OpenAICompatClient
from openhuman_desktop.llm.base import LlmClient
from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.orchestration.graph import Graph, NodeContext, execute
from openhuman_desktop.orchestration.nodes import build_graph
from openhuman_desktop.orchestration.ports import CHAT, ProposedCall, Run, Steering
from openhuman_desktop.orchestration.state import Values, apply, initial_values
from openhuman_desktop.skills import SkillRegistry, WorkspaceFilesSkill
from tests.fakes.agent_model import AgentModel, AgentScript
from tests.fakes.clock import FakeClock
from tests.fakes.journal import Killed, MemoryJournal
from tests.fakes.model_servers import FakeOllama, FakeOpenAI

QUICK_MODEL = "llama3.2:3b"
REASONING_MODEL = "agentic-v1"
WRITE_WORDS = ("write", "save", "create", "append", "add", "delete", "send")


class WordIntent:
    """Asks-for-write from words, recording every text it was asked about."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def asks_for_write(self, text: str) -> bool:
        self.asked.append(text)
        return any(word in text.lower().split() for word in WRITE_WORDS)


class Cards:
    def __init__(self) -> None:
        self.raised: list[tuple[str, str]] = []
        self.calls: list[tuple[str, ProposedCall]] = []
        self.call_asks = 0

    async def raise_card(self, run: Run, action: str) -> None:
        if (run.id, action) not in self.raised:  # idempotent per run and action, like the app's
            self.raised.append((run.id, action))

    async def raise_call_card(self, run: Run, call: ProposedCall) -> None:
        self.call_asks += 1
        if (run.id, call) not in self.calls:  # idempotent per run and call, like the app's
            self.calls.append((run.id, call))


class Evictions:
    def __init__(self) -> None:
        self.stored: list[tuple[str, str, str]] = []

    async def store_evicted(self, text: str, *, thread_id: str, run_id: str) -> None:
        self.stored.append((text, thread_id, run_id))


class FixedSteering:
    def __init__(self, steering: Steering | None = None) -> None:
        self.steering = steering

    async def current(self) -> Steering | None:
        return self.steering


@dataclass
class Commit:
    run_id: str
    step: int
    node: str
    update: Mapping[str, Any]
    next_node: str | None


@dataclass
class MemoryCheckpointer:
    """Commits in order; ``values`` is the fold of every committed update (the thread's head)."""

    values: Values = field(default_factory=initial_values)
    commits: list[Commit] = field(default_factory=list)
    kill_before: set[int] = field(default_factory=set)
    """Commit numbers (1-based) that raise ``Killed`` once instead of committing (the node ran, lost)."""

    async def commit(self, run_id: str, thread_id: str, step: int, node: str, update: Mapping[str, Any],
                     next_node: str | None) -> int:
        number = len(self.commits) + 1
        if number in self.kill_before:
            self.kill_before.discard(number)
            raise Killed(f"killed before commit {number} ({node})")
        self.values = apply(self.values, update)
        self.commits.append(Commit(run_id, step, node, dict(update), next_node))
        return len(self.commits)

    def nodes(self, run_id: str) -> list[str]:
        return [c.node for c in self.commits if c.run_id == run_id]


@dataclass
class Outcome:
    values: Values
    streamed: str
    run: Run


class AgentHarness:
    """One thread's runs through the real graph (see the module docstring)."""

    def __init__(self, server: FakeOllama | FakeOpenAI, workspace: Path, script: AgentScript | None = None, *,
                 settings: AgentSettings | None = None, windows: Mapping[str, int] | None = None,
                 quick_url: str | None = None) -> None:
        self.server = server
        self.model = AgentModel(script)
        server.set_responder(self.model)
        self.workspace = workspace
        self.settings = settings or AgentSettings()
        self.windows = dict(windows or {"local": 8192, "reasoning": 131072})
        self.quick_client: LlmClient | None
        self.reasoning_client: LlmClient | None
        if isinstance(server, FakeOpenAI):
            self.quick_client = OpenAICompatClient(QUICK_MODEL, quick_url or server.url, api_key_env=None, timeout=10)
            self.reasoning_client = OpenAICompatClient(REASONING_MODEL, server.url, api_key_env=None, timeout=10)
        else:
            self.quick_client = OllamaClient(QUICK_MODEL, quick_url or server.url, timeout=10)
            self.reasoning_client = OllamaClient(REASONING_MODEL, server.url, timeout=10)
        self.skills = SkillRegistry([WorkspaceFilesSkill(workspace)])
        self.tokens = TokenCounter()
        self.intent = WordIntent()
        self.steering = FixedSteering()
        self.cards = Cards()
        self.evictions = Evictions()
        self.permissions: list[tuple[str, str]] = []
        self.clock = FakeClock()
        self.journal = MemoryJournal()
        self.checkpointer = MemoryCheckpointer()
        self._runs = 0

    async def aclose(self) -> None:
        for client in (self.quick_client, self.reasoning_client):
            if client is not None:
                await client.aclose()

    async def _set_permission(self, run_id: str, permission: str) -> None:
        self.permissions.append((run_id, permission))

    def graph(self) -> Graph:
        return build_graph(quick=lambda: self.quick_client, reasoning=lambda: self.reasoning_client,
                           window=lambda tier: self.windows[tier], skills=self.skills, tokens=self.tokens,
                           intent=self.intent, steering=self.steering, cards=self.cards, evictions=self.evictions,
                           settings=lambda: self.settings, set_permission=self._set_permission, clock=self.clock)

    def new_run(self, text: str, *, permission: str | None = None, purpose: str = CHAT) -> Run:
        self._runs += 1
        return Run(id=f"run{self._runs}", thread_id="desktop", channel_source="desktop", status="running",
                   input=text, created_at=self.clock.now(), permission=permission, purpose=purpose)

    async def run(self, text: str, *, permission: str | None = None, purpose: str = CHAT) -> Outcome:
        """A whole run from ``channel_ingestion``."""
        return await self.execute(self.new_run(text, permission=permission, purpose=purpose), "channel_ingestion", 1)

    async def execute(self, run: Run, node: str, step: int, *, deadline: float | None = None) -> Outcome:
        pieces: list[str] = []
        if deadline is None:
            deadline = run.created_at + self.settings.run_deadline_seconds
        context = NodeContext(run, step, self.journal, deadline, permission=run.permission, stream=pieces.append)
        values = await execute(self.graph(), self.checkpointer, context, self.checkpointer.values, node)
        return Outcome(values, "".join(pieces), replace(run, permission=context.permission))

    async def resume(self, run: Run, *, with_permission: bool = True) -> Outcome:
        """Go on with ``run`` from its last committed transition (as the service does after a restart): the
        permission it recorded (unless ``with_permission`` is False), the node that was next, the step after
        the last."""
        mine = [c for c in self.checkpointer.commits if c.run_id == run.id]
        recorded = [p for r, p in self.permissions if r == run.id]
        if with_permission:
            run = replace(run, permission=recorded[-1] if recorded else run.permission)
        if not mine:
            return await self.execute(run, "channel_ingestion", 1)
        last = mine[-1]
        assert last.next_node is not None, "the run had finished"
        return await self.execute(run, last.next_node, last.step + 1)
