"""A process that runs the real agent (service, graph, ledger, files skill, Ollama client) on a workspace, made to
be killed: the kill tests start one life after another and kill -9 each at a random moment.

Starting Python and importing the app takes about a second here, too slow for hundreds of kills, so this is a
*zygote*: ``python -m tests.fakes.agent_worker`` imports everything once (and loads the token counter), then
forks one child per life on request. It has no thread and no event loop when it forks; each child makes its own.

Protocol (one line each way):

- ``go <json>`` → a child runs one life and the zygote answers ``P <pid>``. The JSON: ``workspace``, ``url`` (the
  fake Ollama), and optionally ``cut`` (keep every commit in the WAL, no checkpoint, and report after each synced
  commit ``S <bytes>``: the WAL's size then, so a test can cut the power by truncating the WAL to the last size
  reported: what was synced survives, the rest may not) and ``die_after_begin`` (a text: the child kills itself
  with SIGKILL right after the intent of a call whose ``text`` argument contains it has been committed, that is
  between a write's recorded intent and the write).
- ``wait <pid>`` → the zygote reaps the child and answers ``X <pid> <exit status>``.
- ``quit`` (or end of input) → the zygote exits.

A child first resumes the unfinished runs, then hands in every message of ``<workspace>/../<name>-plan.json``
(``[{"thread", "text", "key"}]``, by ``source_key``, so a message handed in by an earlier life is not a second
run), waits for them all, prints ``DONE`` and exits. Cards go to ``<workspace>/../<name>-cards.jsonl`` (one JSON
object a line, synced, each (run, call) once).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import ssl
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import anyio._backends._asyncio  # noqa: F401  (httpcore imports it at the first request: once here, not per life)
import anyio.streams.tls  # noqa: F401
import anyio.to_thread  # noqa: F401
import ollama

from openhuman_desktop import events
from openhuman_desktop.clock import SystemClock
from openhuman_desktop.config import AgentSettings
from openhuman_desktop.llm import OllamaClient
from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.orchestration.ledger import RunLedger
from openhuman_desktop.orchestration.nodes import build_graph
from openhuman_desktop.orchestration.ports import ProposedCall, Run, RunRequest, Steering
from openhuman_desktop.orchestration.service import AgentService, channel_of
from openhuman_desktop.skills import SkillRegistry, WorkspaceFilesSkill
from openhuman_desktop.supervisor import TaskSupervisor

LOCAL_MODEL, REASONING_MODEL = "llama3.2:3b", "qwen2.5:14b"
T = TypeVar("T")


def side_file(workspace: Path, suffix: str) -> Path:
    """A file of the test next to the workspace (never inside it: the files skill lists the workspace)."""
    return workspace.parent / f"{workspace.name}-{suffix}"


class _Intent:
    async def asks_for_write(self, text: str) -> bool:
        return "append" in text.lower()


class _NoSteering:
    async def current(self) -> Steering | None:
        return None


class _NoEvictions:
    async def store_evicted(self, text: str, *, thread_id: str, run_id: str) -> None:
        return None


class FileCards:
    """Cards as JSON lines in a file of the test, synced, idempotent per run and action / run and call."""

    def __init__(self, path: Path) -> None:
        self._path = path

    def _add(self, card: dict[str, Any]) -> None:
        line = json.dumps(card, sort_keys=True)
        if self._path.exists() and line in self._path.read_text(encoding="utf-8").splitlines():
            return
        with self._path.open("a", encoding="utf-8") as file:
            file.write(line + "\n")
            file.flush()
            os.fsync(file.fileno())

    async def raise_card(self, run: Run, action: str) -> None:
        self._add({"run_id": run.id, "action": action})

    async def raise_call_card(self, run: Run, call: ProposedCall) -> None:
        self._add({"run_id": run.id, "tool": call.tool, "arguments": dict(call.arguments), "reason": call.reason,
                   "skill": call.skill})


def say(line: str) -> None:
    os.write(1, (line + "\n").encode())  # unbuffered: a line written before a kill is a line the test reads


async def life(options: Mapping[str, Any], tokens: TokenCounter, tls: ssl.SSLContext) -> None:
    workspace = Path(options["workspace"])
    ledger = await RunLedger.open(workspace / "agent" / "ledger.db", SystemClock())
    if options.get("cut"):
        await ledger._db.execute("PRAGMA wal_autocheckpoint = 0")
        wal = Path(f"{ledger.path}-wal")
        in_thread = ledger._db.in_thread

        async def reporting(work: Callable[[Any], T], *, write: bool = False, synced: bool = True) -> T:
            done = await in_thread(work, write=write, synced=synced)
            if write and synced:  # before the caller goes on: the caller acts on it being on disk
                say(f"S {wal.stat().st_size}")
            return done
        ledger._db.in_thread = reporting  # type: ignore[method-assign]
    marker = options.get("die_after_begin")
    if marker:
        begin = ledger.begin

        async def begin_then_die(run_id: str, step: int, key: str, intent: Mapping[str, Any]) -> None:
            await begin(run_id, step, key, intent)
            arguments = intent.get("arguments")
            if isinstance(arguments, Mapping) and marker in str(arguments.get("text", "")):
                say("K")
                os.kill(os.getpid(), signal.SIGKILL)
        ledger.begin = begin_then_die  # type: ignore[method-assign]
    # One HTTP client for both tiers, with the zygote's TLS context (making one per client took ~0.1 s a life).
    http = ollama.AsyncClient(host=options["url"], verify=tls)
    quick = OllamaClient(LOCAL_MODEL, options["url"], client=http, timeout=30)
    reasoning = OllamaClient(REASONING_MODEL, options["url"], client=http, timeout=30)
    windows = {"local": 8192, "reasoning": 32768}
    settings = AgentSettings()
    clock = SystemClock()
    supervisor = TaskSupervisor()
    graph = build_graph(quick=lambda: quick, reasoning=lambda: reasoning, window=windows.__getitem__,
                        skills=SkillRegistry([WorkspaceFilesSkill(workspace)]), tokens=tokens, intent=_Intent(),
                        steering=_NoSteering(), cards=FileCards(side_file(workspace, "cards.jsonl")),
                        evictions=_NoEvictions(), settings=lambda: settings, set_permission=ledger.set_permission,
                        clock=clock)
    service = AgentService(ledger, lambda: graph, events.EventBus(), clock, supervisor, lambda: settings)
    await service.resume_unfinished()
    plan = json.loads(side_file(workspace, "plan.json").read_text(encoding="utf-8"))
    runs = [await service.start(RunRequest(item["thread"], channel_of(item["thread"]), item["text"],
                                           source_key=item["key"])) for item in plan]
    for run in runs:
        await service.wait(run.id)
    say("DONE")
    await service.aclose()
    await supervisor.cancel_all()
    for client in (quick, reasoning):
        await client.aclose()
    await http.close()
    await ledger.aclose()


def child(options: Mapping[str, Any], tokens: TokenCounter, tls: ssl.SSLContext) -> None:
    try:
        say("L")
        asyncio.run(life(options, tokens, tls))
    except BaseException as exc:  # reported, then the child ends: the test sees it never said DONE
        say(f"E {type(exc).__name__}: {exc}")
        os._exit(1)
    os._exit(0)


def zygote() -> None:
    tokens = TokenCounter()
    tokens.count("loaded once, shared by every child")
    tls = ssl.create_default_context()
    say("READY")
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        if command == "go":
            options = json.loads(rest)
            pid = os.fork()
            if pid == 0:
                os.close(0)
                child(options, tokens, tls)
            say(f"P {pid}")
        elif command == "wait":
            pid, status = os.waitpid(int(rest), 0)
            say(f"X {pid} {os.waitstatus_to_exitcode(status)}")
        else:
            break


if __name__ == "__main__":
    zygote()
