"""The real Services stack on a temporary workspace, wired to the fake model servers (engine tests)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import socket
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop import bootstrap, config
from openhuman_desktop.bootstrap import Services
from openhuman_desktop.config import Settings
from openhuman_desktop.llm import OpenAICompatClient, make_client
from openhuman_desktop.llm.base import LlmClient
from openhuman_desktop.llm.retry import Sleep
from openhuman_desktop.orchestration import prompts
from openhuman_desktop.paths import Paths
from openhuman_desktop.store import EngineState, Escalation, LogEntry, Task
from openhuman_desktop.subconscious.approvals import ApprovalGate
from openhuman_desktop.subconscious.engine import SubconsciousEngine
from openhuman_desktop.subconscious.service import SubconsciousService
from tests.fakes.clock import FakeClock
from tests.fakes.model_servers import FakeOllama, FakeOpenAI, Reply

LOCAL_MODEL = "llama3.2:3b"
REASONING_MODEL = "agentic-v1"
API_KEY_ENV = "OH_TEST_KEY"
API_KEY = "sk-harness-0123456789"
NEVER_MINUTES = 7 * 24 * 60  # the largest interval config.toml accepts: only explicit ticks run
WRITE_TOOLS = frozenset({"files_write", "files_append", "memory_add", "notify_user", "subconscious_tasks_add"})

TASK_LINE = re.compile(r"^- \[([^\]\n]+)\] (.*)$", re.MULTILINE)

Json = dict[str, Any]
Verdict = str | Mapping[str, Any] | None


# --- reading what a fake server received -------------------------------------------------------------


def schema_of(body: Json) -> Json | None:
    """The JSON schema a chat request asks for: Ollama's ``format`` or OpenAI's ``response_format``."""
    fmt = body.get("format")
    if isinstance(fmt, dict):
        return fmt
    response_format = body.get("response_format")
    if isinstance(response_format, dict):
        if response_format.get("type") == "json_schema":
            schema = response_format.get("json_schema", {}).get("schema")
            return schema if isinstance(schema, dict) else None
        schema = response_format.get("schema")
        return schema if isinstance(schema, dict) else None
    return None


# The agent's requests that are not a tool loop, by the role sentence of their system prompt.
_AGENT_KINDS = ((prompts.COMPRESS_ROLE, "compression"), (prompts.MAP_ROLE, "summary"),
                (prompts.REDUCE_ROLE, "summary"), (prompts.PLAN_ROLE, "plan"), (prompts.REPLY_ROLE, "reply"),
                (prompts.PASS1_ROLE, "frontend"), (prompts.PASS2_ROLE, "frontend"))


def request_kind(body: Json) -> str:
    """``intent``, ``evaluation``, ``repair`` (a second evaluation message round), ``execution`` (a tool loop:
    the local model's act, agentic-v1's sub-agent) or one of the agent's other requests (``compression``,
    ``summary``, ``plan``, ``reply``, ``frontend``)."""
    system = next((str(m.get("content") or "") for m in messages_of(body) if m.get("role") == "system"), "")
    agent_kind = next((kind for role, kind in _AGENT_KINDS if role in system), None)
    if agent_kind is not None:
        return agent_kind
    schema = schema_of(body) or {}
    properties = schema.get("properties", {})
    if "evaluations" in properties:
        return "repair" if any(m.get("role") == "assistant" for m in body.get("messages", [])) else "evaluation"
    if "intent" in properties:
        return "intent"
    return "execution"


def messages_of(body: Json) -> list[Json]:
    return [m for m in body.get("messages") or [] if isinstance(m, dict)]


def first_user_text(body: Json) -> str:
    return next((str(m.get("content") or "") for m in messages_of(body) if m.get("role") == "user"), "")


def all_text(body: Json) -> str:
    return "\n".join(str(m.get("content") or "") for m in messages_of(body))


def task_lines(body: Json) -> list[tuple[str, str]]:
    """The ``- [TASK_ID] TITLE`` lines of an evaluation request (CONTRACT §7)."""
    return [(m.group(1), m.group(2)) for m in TASK_LINE.finditer(first_user_text(body))]


def tool_names(body: Json) -> list[str]:
    """The names of the tools a chat request offers."""
    names = []
    for tool in body.get("tools") or []:
        function = tool.get("function", {}) if isinstance(tool, dict) else {}
        if isinstance(function.get("name"), str):
            names.append(function["name"])
    return names


def last_is_tool_result(body: Json) -> bool:
    messages = messages_of(body)
    return bool(messages) and messages[-1].get("role") == "tool"


def bodies(server: FakeOllama | FakeOpenAI | None, kind: str | None = None) -> list[Json]:
    """The JSON bodies of the chat requests ``server`` received (only of ``kind`` when given)."""
    if server is None:
        return []
    found = [r.json for r in server.chat_requests if isinstance(r.json, dict)]
    return [b for b in found if kind is None or request_kind(b) == kind]


# --- a scriptable model -------------------------------------------------------------------------------


class Brain:
    """A fake server's responder that knows the three kinds of requests the app sends.

    * intent requests: ``intent_for(title)`` (None answers ``{}``, which is unusable: keyword fallback);
    * evaluation and repair requests: ``evaluation_replies`` first (raw replies: malformed, slow …),
      else one item per task line from ``decide(task_id, title)`` — a decision string, a dict of item
      fields, or None to leave the task out;
    * execution requests: ``execution_replies`` first, else ``execute(body)``.
    """

    def __init__(self) -> None:
        self.decide: Callable[[str, str], Verdict] = lambda task_id, title: "noop"
        self.intent_for: Callable[[str], str | None] = lambda title: None
        self.execute: Callable[[Json], Reply] = lambda body: Reply(content="Done.")
        self.evaluation_replies: deque[Reply] = deque()
        self.execution_replies: deque[Reply] = deque()
        self.seen: list[tuple[str, Json]] = []
        self._lock = threading.Lock()

    def decide_by_title(self, verdicts: Mapping[str, Verdict], default: Verdict = "noop") -> None:
        """Decide by (part of) the task title; tasks matching nothing get ``default``."""

        def decide(task_id: str, title: str) -> Verdict:
            for needle, verdict in verdicts.items():
                if needle in title:
                    return verdict
            return default

        self.decide = decide

    def __call__(self, body: Any) -> Reply:
        body = body if isinstance(body, dict) else {}
        kind = request_kind(body)
        with self._lock:
            self.seen.append((kind, body))
        if kind == "intent":
            title = first_user_text(body).removeprefix("Task:").strip()
            intent = self.intent_for(title)
            return Reply(content=json.dumps({"intent": intent} if intent else {}))
        if kind in ("evaluation", "repair"):
            with self._lock:
                scripted = self.evaluation_replies.popleft() if self.evaluation_replies else None
            if scripted is not None:
                return scripted
            return Reply(content=json.dumps({"evaluations": self._items(body)}))
        if kind == "plan":
            return Reply(content=json.dumps({"subtasks": []}))
        if kind != "execution":  # compression, summaries, the front desk: a short text
            return Reply(content=f"Condensed ({kind}).")
        with self._lock:
            scripted = self.execution_replies.popleft() if self.execution_replies else None
        return scripted if scripted is not None else self.execute(body)

    def _items(self, body: Json) -> list[Json]:
        items = []
        for task_id, title in task_lines(body):
            verdict = self.decide(task_id, title)
            if verdict is None:
                continue
            fields = {"decision": verdict} if isinstance(verdict, str) else dict(verdict)
            items.append({"task_id": task_id, "reason": f"scripted for {title}", "priority": "normal", **fields})
        return items

    def kinds(self) -> list[str]:
        with self._lock:
            return [kind for kind, _ in self.seen]


def evaluation(*items: Mapping[str, Any]) -> Reply:
    """A raw evaluation answer."""
    return Reply(content=json.dumps({"evaluations": list(items)}))


# --- the harness ----------------------------------------------------------------------------------------


def closed_port_url() -> str:
    """An http URL on 127.0.0.1 where nothing listens."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def config_text(
    *,
    local_url: str | None,
    reasoning_url: str | None,
    budget: int = 40_000,
    inference: bool = True,
) -> str:
    """A config.toml for the harness: local tier on Ollama, reasoning tier on an OpenAI-compatible server."""
    lines = [
        "[heartbeat]",
        "enabled = true",
        f"interval_minutes = {NEVER_MINUTES}",
        f"inference_enabled = {'true' if inference else 'false'}",
        f"context_budget_tokens = {budget}",
        "",
        "[rpc]",
        "port = 0",
        "",
    ]
    if local_url is not None:
        lines += ["[models.local]", 'provider = "ollama"', f'base_url = "{local_url}"', f'model = "{LOCAL_MODEL}"', ""]
    else:
        lines += ["[models.local]", 'provider = "ollama"', f'base_url = "{closed_port_url()}"',
                  f'model = "{LOCAL_MODEL}"', ""]
    if reasoning_url is not None:
        lines += ["[models.reasoning]", 'provider = "openai"', f'base_url = "{reasoning_url}"',
                  f'model = "{REASONING_MODEL}"', f'api_key_env = "{API_KEY_ENV}"', ""]
    return "\n".join(lines)


def factory_with_sleep(sleep: Sleep) -> Callable[[Settings, str], LlmClient | None]:
    """``make_client`` whose OpenAI-compatible clients back off through ``sleep`` (a fake)."""

    def make(settings: Settings, tier: str) -> LlmClient | None:
        model = settings.model(tier)
        base_url = settings.base_url_for(tier)
        if model is not None and model.provider == "openai" and base_url is not None:
            return OpenAICompatClient(model.model, base_url, api_key_env=model.api_key_env, sleep=sleep,
                                      source=f"[models.{tier}]")
        return make_client(settings, tier)

    return make


class RecordingSleep:
    """A fake back-off sleep: records the delays asked for and returns at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        await asyncio.sleep(0)


@dataclass
class Harness:
    """One running instance on a temporary workspace, with its fake model servers."""

    services: Services
    clock: FakeClock
    paths: Paths
    ollama: FakeOllama | None
    openai: FakeOpenAI | None
    local: Brain
    reasoning: Brain
    started: bool = False

    @property
    def workspace(self) -> Path:
        return self.paths.workspace

    @property
    def engine(self) -> SubconsciousEngine:
        return self.services.engine

    @property
    def service(self) -> SubconsciousService:
        return self.services.subconscious

    async def start(self, *, keep_system_tasks: bool = False) -> None:
        """``services.start()``, then (by default) disable the built-in tasks so a test sees only its own."""
        await self.services.start()
        self.started = True
        if not keep_system_tasks:
            for task in await self.service.tasks_list():
                if task.is_system:
                    await self.service.tasks_update(task.id, enabled=False)
        for tier in ("local", "reasoning"):
            await self.services.models.check(tier)

    async def tick(self, reason: str = "test") -> None:
        await self.services.engine.run_tick(reason)

    async def add_task(self, title: str, recurrence: str = "pending", intent: str | None = None) -> Task:
        """Add a user task through the service; ``intent`` then set by the user (no guessing in tests). Returns once
        the model was asked about the task's intent in the background, so its requests come before the test's."""
        task = await self.service.tasks_add(title, recurrence)
        await self.service.intents_refined()
        if intent is not None and intent != task.intent:
            task = await self.service.tasks_update(task.id, intent=intent)
        return task

    async def task(self, task_id: str) -> Task:
        found = await self.services.store.tasks.get(task_id)
        assert found is not None, f"task {task_id} is gone"
        return found

    async def rows(self, task_id: str | None = None) -> list[LogEntry]:
        """Activity rows, oldest first."""
        found = await self.service.log_list(limit=1000, task_id=task_id)
        return list(reversed(found))

    async def row(self, task_id: str) -> LogEntry:
        """The newest row of a task."""
        found = await self.rows(task_id)
        assert found, f"task {task_id} has no activity row"
        return found[-1]

    @property
    def approvals(self) -> ApprovalGate:
        return self.services.approvals

    async def escalations(self, status: str | None = None) -> list[Escalation]:
        return await self.approvals.escalations_list(status)

    async def approval_row(self, escalation_id: str) -> LogEntry | None:
        """The activity row the card's latest Go ahead added (None: none yet, or a conversation's card)."""
        found = await self.services.store.db.fetchone(
            "SELECT run_log_id FROM subconscious_escalations WHERE id = ?", (escalation_id,))
        if found is None or not found[0]:
            return None
        return await self.services.store.log.get(str(found[0]))

    async def approval_settled(self, escalation_id: str, timeout: float = 20.0) -> Escalation:
        """Wait until the card's Go ahead is over (its run finished, or the card came back); the card then."""

        async def settled() -> bool:
            found = await self.services.store.db.fetchone(
                "SELECT carrying_out, status, note FROM subconscious_escalations WHERE id = ?", (escalation_id,))
            return found is not None and not found[0] and (found[1] != "pending" or bool(found[2]))

        await self.wait_until(settled, timeout)
        card = await self.services.store.escalations.get(escalation_id)
        assert card is not None
        return card

    async def state(self) -> EngineState:
        return await self.services.store.state.load()

    def local_bodies(self, kind: str | None = None) -> list[Json]:
        return bodies(self.ollama, kind)

    def reasoning_bodies(self, kind: str | None = None) -> list[Json]:
        return bodies(self.openai, kind)

    def write_file(self, relative: str, text: str, *, mtime: float | None = None) -> Path:
        """Write a workspace file; its mtime is set on the fake clock's time line (now by default)."""
        path = self.workspace / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        when = self.clock.now() if mtime is None else mtime
        os.utime(path, (when, when))
        return path

    async def wait_until(self, condition: Callable[[], Awaitable[bool]], timeout: float = 20.0) -> None:
        """Poll ``condition`` until it holds (background work such as an approved escalation)."""
        deadline = time.monotonic() + timeout
        while not await condition():
            if time.monotonic() > deadline:
                raise AssertionError("condition not reached in time")
            await asyncio.sleep(0.02)

    async def wait_for_requests(self, count: int, server: FakeOllama | FakeOpenAI, kind: str | None = None,
                                timeout: float = 20.0) -> None:
        async def arrived() -> bool:
            return len(bodies(server, kind)) >= count

        await self.wait_until(arrived, timeout)

    async def reconfigure(self, text: str) -> None:
        """Rewrite config.toml and apply it now (as the watcher would)."""
        self.paths.config_file.write_text(text, encoding="utf-8")
        assert await self.services.settings.reload()


@contextlib.asynccontextmanager
async def open_harness(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    local: str = "up",
    reasoning: str = "up",
    budget: int = 40_000,
    inference: bool = True,
    context_length: int = 8192,
    start: bool = True,
    keep_system_tasks: bool = False,
    backoff_sleep: Sleep | None = None,
) -> AsyncIterator[Harness]:
    """Build (and by default start) the app on ``tmp_path/workspace``.

    Args:
        local: ``"up"`` (FakeOllama) or ``"down"`` (a closed port).
        reasoning: ``"up"`` (FakeOpenAI serving agentic-v1, key required), ``"down"`` or ``"none"``.
        budget: ``context_budget_tokens``.
        start: call ``services.start()`` (pass False to prepare the database first, then ``h.start()``).
        backoff_sleep: a fake sleep for the OpenAI-compatible client's HTTP 429 back-off.
    """
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    monkeypatch.setenv(API_KEY_ENV, API_KEY)
    if backoff_sleep is not None:
        monkeypatch.setattr(bootstrap, "make_client", factory_with_sleep(backoff_sleep))
    local_brain, reasoning_brain = Brain(), Brain()
    ollama: FakeOllama | None = None
    openai: FakeOpenAI | None = None
    services: Services | None = None
    harness: Harness | None = None
    try:
        if local == "up":
            ollama = FakeOllama()
            ollama.add_model(LOCAL_MODEL, context_length=context_length)
            ollama.set_responder(local_brain)
            ollama.start()
        if reasoning == "up":
            openai = FakeOpenAI(require_api_key=API_KEY)
            openai.add_model(REASONING_MODEL)
            openai.set_responder(reasoning_brain)
            openai.start()
        reasoning_url = openai.url if openai else (closed_port_url() + "/v1" if reasoning == "down" else None)
        paths = Paths(tmp_path / "workspace")
        paths.ensure()
        paths.config_file.write_text(
            config_text(local_url=ollama.url if ollama else None, reasoning_url=reasoning_url, budget=budget,
                        inference=inference),
            encoding="utf-8",
        )
        loaded = config.load(paths.config_file)
        assert not loaded.warnings, loaded.warnings
        # A minute ahead of the real clock: files the set-up wrote are older than the first tick.
        clock = FakeClock(start=time.time() + 60)
        services = await bootstrap.build(paths, loaded, clock=clock)
        harness = Harness(services, clock, paths, ollama, openai, local_brain, reasoning_brain)
        if start:
            await harness.start(keep_system_tasks=keep_system_tasks)
        yield harness
    finally:
        if services is not None:
            await services.aclose()
        for server in (ollama, openai):
            if server is not None:
                server.stop()


def wrote(path: str, text: str, answer: str = "Done.") -> list[Reply]:
    """A model's replies that append ``text`` to ``path`` with the files tool, then answer."""
    return [Reply(tool_calls=[{"name": "files_append", "arguments": {"path": path, "text": text}}]),
            Reply(content=answer)]


def decisions_of(rows: Sequence[LogEntry]) -> list[str]:
    return [row.decision for row in rows]
