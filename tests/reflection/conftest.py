"""Fixtures of the reflection tests: the real run ledger and steering store, the real model pool over a fake
Ollama that serves the subconscious and the quick tier, and a Reflector on a fake clock."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop import events
from openhuman_desktop.bootstrap import LedgerReflectionPort
from openhuman_desktop.config import ModelSettings, ReflectionSettings, Settings
from openhuman_desktop.llm import make_client
from openhuman_desktop.llm.pool import ModelClients
from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.orchestration import graph
from openhuman_desktop.orchestration.directives import SteeringStore
from openhuman_desktop.orchestration.events import ReflectionFinished, ReflectionStarted, SteeringChanged
from openhuman_desktop.orchestration.ledger import RunLedger
from openhuman_desktop.orchestration.state import COMPRESSED_HISTORY
from openhuman_desktop.skills.base import Mutation
from openhuman_desktop.subconscious import reflection_prompt
from openhuman_desktop.subconscious.reflection import Reflector
from openhuman_desktop.supervisor import TaskSupervisor
from tests.fakes.agent_harness import Evictions
from tests.fakes.clock import FakeClock
from tests.fakes.model_servers import FakeOllama, RecordedRequest, Reply

LOCAL, DEEP = "llama3.2:3b", "deep-thought:7b"


def directive_reply(directive: str, rationale: str = "Files keep piling up in notes/.") -> Reply:
    return Reply(content=json.dumps({"directive": directive, "rationale": rationale}))


def is_reflection(body: Any) -> bool:
    messages = body.get("messages") if isinstance(body, Mapping) else None
    return any(reflection_prompt.ROLE in str(m.get("content", "")) for m in messages or () if m.get("role") == "system")


def settings_with(url: str, *, subconscious: bool = True, window: int | None = None, **reflection: Any) -> Settings:
    models = {"local": ModelSettings("ollama", LOCAL, base_url=url)}
    if subconscious:
        models["subconscious"] = ModelSettings("ollama", DEEP, base_url=url, context_window=window)
    return Settings(models=models, reflection=replace(ReflectionSettings(), **reflection))


class Live:
    """Settings a test can change while the reflector runs."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def __call__(self) -> Settings:
        return self.settings


@dataclass
class World:
    ledger: RunLedger
    steering: SteeringStore
    reflector: Reflector
    server: FakeOllama
    clock: FakeClock
    live: Live
    models: ModelClients
    evictions: Evictions
    supervisor: TaskSupervisor
    seen: list[events.Event] = field(default_factory=list)

    async def add_history(self, *texts: str, thread: str = "desktop") -> None:
        entries = [{"run_id": None, "text": t, "trace_tokens": 400, "summary_tokens": 20, "at": self.clock.now()}
                   for t in texts]
        await self.ledger.update_state(thread, {COMPRESSED_HISTORY: entries}, graph.SUBCONSCIOUS_CRON)

    async def add_timeline(self, *targets: str, kind: str = "file_written") -> None:
        await self.ledger.append_timeline([Mutation(kind, t, "appended a line", 10, 20) for t in targets], None)

    def reflection_requests(self) -> list[RecordedRequest]:
        return [r for r in self.server.chat_requests if is_reflection(r.json)]

    def prompt_of(self, request: RecordedRequest) -> str:
        return "\n".join(str(m.get("content", "")) for m in request.json["messages"])


@pytest.fixture
async def server() -> AsyncIterator[FakeOllama]:
    with FakeOllama() as fake:
        fake.add_model(LOCAL, context_length=8192)
        fake.add_model(DEEP, context_length=32768)
        yield fake


@pytest.fixture
async def world(tmp_path: Path, server: FakeOllama, clock: FakeClock) -> AsyncIterator[World]:
    ledger = await RunLedger.open(tmp_path / "agent" / "ledger.db", clock)
    bus = events.EventBus()
    live = Live(settings_with(server.url))
    models = ModelClients(live, make_client)
    steering = SteeringStore(ledger, clock, bus)
    supervisor = TaskSupervisor()
    evictions = Evictions()
    reflector = Reflector(LedgerReflectionPort(ledger, steering), models, TokenCounter(), live, clock, bus, supervisor,
                          evictions)
    made = World(ledger, steering, reflector, server, clock, live, models, evictions, supervisor)
    for kind in (ReflectionStarted, ReflectionFinished, SteeringChanged):
        bus.subscribe(kind, made.seen.append)
    yield made
    await supervisor.cancel_all()
    await models.aclose()
    await ledger.aclose()
