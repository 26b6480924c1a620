"""A small in-memory agent service for the RPC methods and the ``chat`` command's tests, built to the interface of
``orchestration.service.AgentService``: runs in the background, an answer streamed in pieces, a long-poll follow,
thread state with the real reducers, history and a world timeline. No models, no ledger."""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openhuman_desktop.errors import Conflict, NotFound
from openhuman_desktop.orchestration import state
from openhuman_desktop.orchestration.ports import COMPLETED, FAILED, QUEUED, RUNNING, Run

Script = Callable[[str], tuple[Sequence[str], str | None]]
"""The message → the pieces of the answer, and the run's error (None: it completes)."""


def echo(text: str) -> tuple[Sequence[str], str | None]:
    """Answer ``You said: <text>`` in three pieces; a message starting with ``fail`` fails the run."""
    if text.startswith("fail"):
        return ["Looking"], "The reasoning model (agentic-v1) at http://127.0.0.1:9 did not answer; start it."
    return ["You ", "said: ", text], None


@dataclass(frozen=True)
class Follow:
    text: str
    offset: int
    status: str
    run: Run | None


@dataclass
class _Live:
    run: Run
    text: str = ""
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)


class InMemoryAgent:
    """Runs one scripted answer per message; ``gate`` (when set) holds every run before each piece, and ``pieces``
    (when set) lets one piece through per release."""

    def __init__(self, script: Script = echo, *, now: Callable[[], float] = lambda: 1_790_000_000.0) -> None:
        self._script = script
        self._now = now
        self._runs: dict[str, _Live] = {}
        self._threads: dict[str, dict[str, Any]] = {}
        self._history: dict[str, list[dict[str, Any]]] = {}
        self._timeline: list[dict[str, Any]] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._checkpoint = 0
        self.gate: asyncio.Event | None = None
        self.pieces: asyncio.Semaphore | None = None
        self.follows: list[tuple[str, int, float]] = []

    async def send(self, text: str, thread_id: str = "desktop") -> Run:
        run = Run(id=uuid.uuid4().hex, thread_id=thread_id, channel_source=thread_id.partition(":")[0],
                  status=QUEUED, input=text, created_at=self._now())
        live = _Live(run)
        self._runs[run.id] = live
        self._threads.setdefault(thread_id, state.initial_values())
        task = asyncio.get_running_loop().create_task(self._play(live), name=f"fake-run-{run.id[:8]}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return run

    async def _play(self, live: _Live) -> None:
        pieces, error = self._script(live.run.input)
        await self._set(live, status=RUNNING)
        self._commit(live.run, "channel_ingestion", {"raw_channel_payload": live.run.input,
                                                     "messages": [{"role": "user", "content": live.run.input,
                                                                   "at": self._now()}]})
        for piece in pieces:
            if self.gate is not None:
                await self.gate.wait()
            if self.pieces is not None:
                await self.pieces.acquire()
            async with live.changed:
                live.text += piece
                live.changed.notify_all()
            await asyncio.sleep(0)
        if error is not None:
            await self._set(live, status=FAILED, error=error, finished_at=self._now())
            return
        self._commit(live.run, "frontend_agent", {"channel_response": live.text,
                                                  "messages": [{"role": "assistant", "content": live.text,
                                                                "at": self._now()}]})
        await self._set(live, status=COMPLETED, response=live.text, finished_at=self._now(), steps=4)

    async def _set(self, live: _Live, **changes: Any) -> None:
        async with live.changed:
            live.run = dataclasses.replace(live.run, **changes)
            live.changed.notify_all()

    def _commit(self, run: Run | None, node: str, update: dict[str, Any]) -> int:
        thread_id = run.thread_id if run else ""
        return self._commit_on(thread_id, run.id if run else None, node, update)

    def _commit_on(self, thread_id: str, run_id: str | None, node: str, update: dict[str, Any]) -> int:
        self._threads[thread_id] = state.apply(self._threads.setdefault(thread_id, state.initial_values()), update)
        self._checkpoint += 1
        self._history.setdefault(thread_id, []).append({
            "checkpoint_id": self._checkpoint, "run_id": run_id, "step": len(self._history.get(thread_id, [])) + 1,
            "node": node, "changed": sorted(update), "created_at": self._now()})
        return self._checkpoint

    async def follow(self, run_id: str, after: int, timeout: float) -> Follow:
        self.follows.append((run_id, after, timeout))
        live = self._live(run_id)

        def ready() -> bool:
            return len(live.text) > after or live.run.is_finished

        async with live.changed:
            try:
                await asyncio.wait_for(live.changed.wait_for(ready), timeout)
            except TimeoutError:
                return Follow("", after, live.run.status, None)
            return Follow(live.text[after:], len(live.text), live.run.status,
                          live.run if live.run.is_finished else None)

    def _live(self, run_id: str) -> _Live:
        live = self._runs.get(run_id)
        if live is None:
            raise NotFound(f"There is no run with id {run_id!r}.")
        return live

    async def run_get(self, run_id: str) -> Run:
        return self._live(run_id).run

    async def wait(self, run_id: str) -> Run:
        live = self._live(run_id)
        async with live.changed:
            await live.changed.wait_for(lambda: live.run.is_finished)
        return live.run

    async def runs_list(self, thread_id: str | None, status: str | None, limit: int) -> list[Run]:
        runs = [live.run for live in reversed(self._runs.values())
                if thread_id in (None, live.run.thread_id) and status in (None, live.run.status)]
        return runs[:limit]

    def _thread(self, thread_id: str) -> dict[str, Any]:
        values = self._threads.get(thread_id)
        if values is None:
            raise NotFound(f"There is no thread {thread_id!r}.")
        return values

    async def state_get(self, thread_id: str) -> dict[str, Any]:
        values = self._thread(thread_id)
        history = self._history.get(thread_id, [])
        busy = any(not live.run.is_finished for live in self._runs.values() if live.run.thread_id == thread_id)
        return {"thread_id": thread_id, "values": values, "next": "frontend_agent" if busy else None,
                "checkpoint_id": history[-1]["checkpoint_id"] if history else None}

    async def state_update(self, thread_id: str, values: dict[str, Any], as_node: str) -> dict[str, Any]:
        self._thread(thread_id)
        if any(not live.run.is_finished for live in self._runs.values() if live.run.thread_id == thread_id):
            raise Conflict(f"A run is going on in thread {thread_id!r}; update its state once it has finished.")
        return {"checkpoint_id": self._commit_on(thread_id, None, as_node, values)}

    async def history(self, thread_id: str, limit: int, before: int | None) -> list[dict[str, Any]]:
        self._thread(thread_id)
        rows = [row for row in reversed(self._history.get(thread_id, []))
                if before is None or row["checkpoint_id"] < before]
        return rows[:limit]

    async def world_timeline(self, after: int, limit: int) -> list[dict[str, Any]]:
        return [entry for entry in self._timeline if entry["sequence"] > after][:limit]

    def add_mutation(self, world_mutation: str, run_id: str | None = None) -> None:
        self._timeline.append({"sequence": len(self._timeline) + 1, "event_signature": "files_write",
                               "world_mutation": world_mutation, "delta_delta": "+10 bytes", "at": self._now(),
                               "run_id": run_id})

    async def aclose(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
