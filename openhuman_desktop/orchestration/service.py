"""The agent service: starts runs, runs each thread's runs in order, resumes the unfinished ones, answers RPC."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from openhuman_desktop import events
from openhuman_desktop.clock import Clock
from openhuman_desktop.config import AgentSettings
from openhuman_desktop.errors import (
    AppError,
    Conflict,
    ContextOverflow,
    InvalidInput,
    LlmReplyError,
    LlmUnavailable,
    NotFound,
)
from openhuman_desktop.orchestration._calls import DeadlinePassed, TierFailed
from openhuman_desktop.orchestration.events import NodeFinished, RunFinished, RunStarted, TextStreamed
from openhuman_desktop.orchestration.graph import AS_NODES, Graph, NodeContext, StepLimitReached, execute
from openhuman_desktop.orchestration.ledger import RunLedger
from openhuman_desktop.orchestration.nodes import ExecutionOutcome, read_outcome
from openhuman_desktop.orchestration.ports import (
    CALL,
    CANCELLED,
    COMPLETED,
    ERROR_FAILURE,
    FAILED,
    LIMIT_FAILURE,
    MODEL_FAILURE,
    RUN_STATUSES,
    TIERS,
    UNFINISHED,
    Failure,
    Run,
    RunRequest,
    RunStatus,
)
from openhuman_desktop.orchestration.state import CHANNEL_RESPONSE, KEYS, StateError
from openhuman_desktop.orchestration.threads import CHANNEL_SOURCES, thread_source
from openhuman_desktop.supervisor import TaskSupervisor

log = logging.getLogger(__name__)

MAX_TEXT = 100_000
MAX_LIMIT = 1_000
CONCURRENT_RUNS = 4
"""Runs of different threads that go on at once (a thread's own runs always go one after another)."""
STOPPED_BY_YOU = "Stopped by you."
"""The reason a run stopped by its person ends with (the web page, Telegram's /stop, RPC, the Chat tab)."""
KEPT_STREAMS = 200
"""Finished runs whose streamed text stays in memory for ``follow``."""
RETAIN_EVERY = 50
"""Finished runs between two retention passes over the ledger."""


def channel_of(thread_id: object) -> str:
    """The channel source a thread belongs to (the part before ``:``).

    Raises:
        InvalidInput: not a thread id (``desktop``, ``cli``, ``cli:<name>``, ``webapp:<session>``,
            ``telegram:<chat_id>``, ``subconscious:<task_id>``; see ``threads.thread_source``).
    """
    return thread_source(thread_id)


@dataclass(frozen=True)
class Follow:
    """What ``follow`` returns: the streamed text after the caller's offset, the new offset, the run's status
    and, once it has finished, the run itself."""

    text: str
    offset: int
    status: str
    run: Run | None

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "offset": self.offset, "status": self.status,
                "run": self.run.to_json() if self.run else None}


@dataclass
class _Stream:
    """A run's answer as streamed so far, and an event set whenever it grows or the run ends."""

    parts: list[str] = field(default_factory=list)
    length: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    text_cache: str | None = None

    def add(self, delta: str) -> None:
        self.parts.append(delta)
        self.length += len(delta)
        self.text_cache = None
        self.changed.set()

    @property
    def text(self) -> str:
        if self.text_cache is None:
            self.text_cache = "".join(self.parts)
        return self.text_cache


class AgentService:
    """The :class:`~openhuman_desktop.orchestration.ports.AgentRunner` of the app, and what RPC, channels and
    the UI call.

    Args:
        ledger: the run ledger (runs, checkpoints, journal, timeline).
        graph: the graph runs go through (a callable, so config changes apply to the next run).
        bus: where run events are published.
        settings: the ``[agent]`` settings (deadline, step limit).
    """

    def __init__(self, ledger: RunLedger, graph: Callable[[], Graph], bus: events.EventBus, clock: Clock,
                 supervisor: TaskSupervisor, settings: Callable[[], AgentSettings]) -> None:
        self._ledger = ledger
        self._graph = graph
        self._bus = bus
        self._clock = clock
        self._supervisor = supervisor
        self._settings = settings
        self._thread_locks: dict[str, asyncio.Lock] = {}
        self._slots = asyncio.Semaphore(CONCURRENT_RUNS)
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._waiters: dict[str, list[asyncio.Future[Run]]] = {}
        self._streams: OrderedDict[str, _Stream] = OrderedDict()
        self._finished_since_retain = 0
        self._cancelling: dict[str, asyncio.Task[Run]] = {}
        self._closed = False

    # --- starting and waiting --------------------------------------------------------------------

    async def send(self, text: object, thread_id: object = "desktop", source_key: str | None = None) -> Run:
        """A message from a channel: a run on ``thread_id``, whose permission the front-end agent decides.
        With ``source_key`` (the channel's id of the message), the same message sent twice is one run.

        Raises:
            InvalidInput: empty or over-long text, or not a thread id.
        """
        source = channel_of(thread_id)
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput("text", "must be a non-empty string")
        if len(text) > MAX_TEXT:
            raise InvalidInput("text", f"is too long ({len(text)} characters; at most {MAX_TEXT})")
        assert isinstance(thread_id, str)
        return await self.start(RunRequest(thread_id=thread_id, channel_source=source, text=text,
                                           source_key=source_key))

    async def start(self, request: RunRequest) -> Run:
        """Record the run (committed, ``queued``) and drive it in the background."""
        if request.channel_source not in CHANNEL_SOURCES:
            raise InvalidInput("channel_source", f"must be one of {', '.join(CHANNEL_SOURCES)}")
        if request.tier not in TIERS:
            raise InvalidInput("tier", f"must be one of {', '.join(TIERS)}")
        if (request.purpose == CALL) != (request.call is not None):
            raise InvalidInput("call", "a call run carries exactly one proposed call, and only a call run does")
        channel_of(request.thread_id)
        if self._closed:
            raise Conflict("The agent is shutting down; try again once the app has started.")
        run = await self._ledger.create_run(request)
        if run.is_finished:  # a message handed in again (same source_key) whose run is done
            return run
        log.info("run %s queued on thread %s (%s)", run.id, run.thread_id, run.purpose)
        self._drive_in_background(run)  # (a no-op for its run from before that is already going)
        return run

    async def undelivered(self, channel_source: str) -> list[Run]:
        """Finished runs of a channel whose answer it has not taken yet (a crash came between), oldest first."""
        return await self._ledger.undelivered_runs(channel_source)

    async def mark_delivered(self, run_id: str) -> None:
        """The channel has the run's answer: it is not handed over again after a restart."""
        await self._ledger.mark_delivered(run_id)

    async def wait(self, run_id: str) -> Run:
        """The run once it has finished (also one resumed after a restart)."""
        future: asyncio.Future[Run] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(run_id, []).append(future)
        try:
            run = await self.run_get(run_id)
            if run.is_finished:
                return run
            return await future
        finally:
            waiting = self._waiters.get(run_id, [])
            if future in waiting:
                waiting.remove(future)
            if not waiting:
                self._waiters.pop(run_id, None)

    async def cancel(self, run_id: str, reason: str) -> Run:
        """Stop a run that has not finished; it ends ``cancelled`` with ``reason`` (nothing it did is undone).

        A write tool call in flight finishes and is recorded first (``tool_run.unstoppable``), and so is the
        transition being committed, so the journal says exactly what happened and nothing runs twice (a
        cancelled run is not resumed at the next start; a retry replays what it had done). A run that finished
        meanwhile keeps its ending (the run is returned as it is); two stops at once are one.

        Raises:
            NotFound: no such run.
        """
        stopping = self._cancelling.get(run_id)
        if stopping is None:
            run = await self.run_get(run_id)
            if run.is_finished:
                return run
            stopping = self._cancelling.get(run_id)  # (another stop may have begun meanwhile)
        if stopping is None:
            # A task of its own: a caller that goes away (a closed socket, a cancelled request) must not leave
            # the run half-stopped, neither driven nor finished.
            stopping = asyncio.get_running_loop().create_task(self._cancel(run_id, reason),
                                                             name=f"agent-stop-{run_id[:8]}")
            self._cancelling[run_id] = stopping
            stopping.add_done_callback(lambda done: self._cancelling.pop(run_id, None))
        return await asyncio.shield(stopping)

    async def _cancel(self, run_id: str, reason: str) -> Run:
        task = self._tasks.get(run_id)
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        run = await self.run_get(run_id)
        if not run.is_finished:  # (it may have completed or failed just before the stop reached it)
            log.info("run %s stopped: %s", run_id, reason)
            stream = self._streams.get(run_id)
            written = stream.text if stream is not None and stream.text.strip() else None
            run = await self._finish(run_id, CANCELLED, error=reason, response=written)  # what it had written
        return run

    async def stop(self, run_id: object) -> Run:
        """A person's Stop (web page, Telegram's /stop, RPC ``agent_run_cancel``, the Chat tab): the run ends
        ``cancelled`` with :data:`STOPPED_BY_YOU` (see :meth:`cancel`).

        Raises:
            InvalidInput: not a run id. NotFound: no such run. Conflict: the run had already finished (a run
            that finishes while it is being stopped keeps its ending, and is returned).
        """
        run = await self.run_get(run_id)
        if run.is_finished:
            raise Conflict(f"Run {run.id} has already finished ({run.status}); there is nothing to stop.")
        return await self.cancel(run.id, STOPPED_BY_YOU)

    async def stop_thread(self, thread_id: str) -> list[Run]:
        """Stop every run of ``thread_id`` that has not finished (the one at work and those waiting behind
        it), newest last; none going on: an empty list."""
        going = [run for run in await self._ledger.list_runs(thread_id, None, 50) if run.status in UNFINISHED]
        return [await self.cancel(run.id, STOPPED_BY_YOU) for run in reversed(going)]

    async def retry(self, run_id: str) -> Run:
        """Drive a failed or cancelled run again from its last checkpoint (journaled answers and calls are
        replayed, not repeated).

        Raises:
            Conflict: the run has not failed.
        """
        run = await self.run_get(run_id)
        if run.status not in (FAILED, CANCELLED):
            raise Conflict(f"Run {run_id} is {run.status}; only a failed or cancelled run can be retried.")
        run = await self._ledger.requeue(run_id)
        log.info("run %s: retrying from its last checkpoint", run_id)
        self._streams.pop(run_id, None)
        self._drive_in_background(run)
        return run

    async def runs_for_escalation(self, escalation_id: str) -> list[Run]:
        return await self._ledger.runs_for_escalation(escalation_id)

    async def follow(self, run_id: str, after: int = 0, timeout: float = 10.0) -> Follow:
        """The run's streamed text past ``after`` characters: at once if there is some (or the run has
        finished), else as soon as some comes, or empty after ``timeout`` seconds."""
        run = await self.run_get(run_id)
        stream = self._streams.get(run_id)
        if stream is None and not run.is_finished:
            stream = self._stream_of(run_id)
        if stream is not None and stream.length <= after and not run.is_finished:
            stream.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stream.changed.wait(), timeout)
            run = await self.run_get(run_id)
        text = stream.text if stream is not None and stream.length else (run.response or "")
        if run.is_finished and run.response and not text.strip():
            text = run.response
        return Follow(text[after:], max(after, len(text)), run.status, run if run.is_finished else None)

    # --- resume at start-up ----------------------------------------------------------------------

    async def resume_unfinished(self) -> int:
        """Drive every run a crash or a shutdown left unfinished, oldest first, each from its last checkpoint
        (call before the channels open). Returns how many there were."""
        runs = await self._ledger.unfinished_runs()
        for run in runs:
            self._drive_in_background(run)
        if runs:
            log.info("resuming %d unfinished run(s)", len(runs))
        self._supervisor.spawn(self._retain(), name="agent-retention")
        return len(runs)

    # --- reading ---------------------------------------------------------------------------------

    async def run_get(self, run_id: object) -> Run:
        if not isinstance(run_id, str) or not run_id:
            raise InvalidInput("run_id", "must be a run id (a string)")
        run = await self._ledger.get_run(run_id)
        if run is None:
            raise NotFound(f"No run with id {run_id!r}.")
        return run

    async def runs_list(self, thread_id: object = None, status: object = None, limit: object = 50) -> list[Run]:
        if thread_id is not None:
            channel_of(thread_id)
        if status is not None and status not in RUN_STATUSES:
            raise InvalidInput("status", f"must be one of {', '.join(RUN_STATUSES)}")
        return await self._ledger.list_runs(thread_id, status, _limit(limit))  # type: ignore[arg-type]

    async def state_get(self, thread_id: object) -> dict[str, Any]:
        """``{thread_id, values, next, checkpoint_id}``; ``next`` is the node that runs next (None when idle)."""
        await self._known_thread(thread_id)
        assert isinstance(thread_id, str)
        head = await self._ledger.head(thread_id)
        pending = [run for run in await self._ledger.list_runs(thread_id, None, 20) if run.status in UNFINISHED]
        upcoming = None
        if pending:
            current = min(pending, key=lambda run: run.created_at)
            upcoming = head.next if head.run_id == current.id and head.next else self._graph().entry
        return {"thread_id": thread_id, "values": head.values, "next": upcoming, "checkpoint_id": head.checkpoint_id}

    async def state_update(self, thread_id: object, values: object, as_node: object) -> dict[str, Any]:
        """Write ``values`` as if ``as_node`` had returned them; later runs on the thread see them.

        Raises:
            NotFound: an unknown thread. InvalidInput: a bad node name or values. Conflict: a run is going on.
        """
        await self._known_thread(thread_id)
        assert isinstance(thread_id, str)
        if as_node not in AS_NODES:
            raise InvalidInput("as_node", f"must be one of {', '.join(AS_NODES)}")
        if not isinstance(values, Mapping) or not values:
            raise InvalidInput("values", "must be an object of state keys and their new values")
        unknown = sorted(str(key) for key in values if key not in KEYS)
        if unknown:
            raise InvalidInput("values", f"unknown state key(s) {', '.join(unknown)} (the keys are {', '.join(KEYS)})")
        lock = self._lock(thread_id)
        busy = [run for run in await self._ledger.list_runs(thread_id, None, 20) if run.status in UNFINISHED]
        if busy or lock.locked():
            going = f" ({busy[0].id})" if busy else ""
            raise Conflict(f"Thread {thread_id} has a run going on{going}; update its state once it has finished.")
        async with lock:  # a run sent meanwhile waits for the update (and then sees it)
            try:
                checkpoint = await self._ledger.update_state(thread_id, dict(values), str(as_node))
            except StateError as exc:
                raise InvalidInput("values", str(exc)) from exc
        return {"checkpoint_id": checkpoint.checkpoint_id}

    async def history(self, thread_id: object, limit: object = 50, before: object = None) -> list[dict[str, Any]]:
        await self._known_thread(thread_id)
        if before is not None and (isinstance(before, bool) or not isinstance(before, int)):
            raise InvalidInput("before", "must be a checkpoint_id (a whole number)")
        assert isinstance(thread_id, str)
        return [checkpoint.to_json() for checkpoint in await self._ledger.history(thread_id, _limit(limit), before)]

    async def world_timeline(self, after: object = 0, limit: object = 100) -> list[dict[str, Any]]:
        if isinstance(after, bool) or not isinstance(after, int) or after < 0:
            raise InvalidInput("after", "must be a sequence number (a whole number ≥ 0)")
        return [entry.to_json() for entry in await self._ledger.timeline(after, _limit(limit))]

    async def _known_thread(self, thread_id: object) -> None:
        channel_of(thread_id)
        assert isinstance(thread_id, str)
        if not await self._ledger.has_thread(thread_id):
            raise NotFound(f"No thread with id {thread_id!r}.")

    # --- shutting down ---------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Stop driving runs; unfinished ones stay so in the ledger and are resumed at the next start."""
        self._closed = True
        stopping = list(self._cancelling.values())
        if stopping:  # stops under way finish first: their runs end cancelled, never resumed
            await asyncio.gather(*stopping, return_exceptions=True)
        tasks = [task for task in self._tasks.values() if not task.done()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    # --- driving a run ---------------------------------------------------------------------------

    def _lock(self, thread_id: str) -> asyncio.Lock:
        lock = self._thread_locks.get(thread_id)
        if lock is None:
            lock = self._thread_locks[thread_id] = asyncio.Lock()
        return lock

    def _drive_in_background(self, run: Run) -> None:
        if run.id in self._tasks and not self._tasks[run.id].done():
            return
        self._stream_of(run.id)
        task = self._supervisor.spawn(self._drive(run.id, run.thread_id), name=f"agent-run-{run.id[:8]}")
        self._tasks[run.id] = task
        task.add_done_callback(lambda done: self._forget_task(run.id, done))

    def _forget_task(self, run_id: str, done: asyncio.Task[None]) -> None:
        if self._tasks.get(run_id) is done:  # a retry may have started the run's next task meanwhile
            del self._tasks[run_id]

    def _stream_of(self, run_id: str) -> _Stream:
        stream = self._streams.get(run_id)
        if stream is None:
            stream = self._streams[run_id] = _Stream()
            while len(self._streams) > KEPT_STREAMS:
                oldest = next(iter(self._streams))
                self._streams.pop(oldest)
        return stream

    async def _drive(self, run_id: str, thread_id: str) -> None:
        # A thread's runs go in the order they were created (asyncio.Lock wakes waiters first come, first
        # served); a few threads at once.
        async with self._lock(thread_id), self._slots:
            run = await self._ledger.get_run(run_id)
            if run is None or run.is_finished:
                return
            try:
                await self._go(run)
            except asyncio.CancelledError:
                if run_id not in self._cancelling:
                    log.info("run %s stopped with the app; it resumes at the next start", run_id)
                raise
            except Exception:  # never lose a run silently: it ends failed and says where to look
                log.exception("run %s failed unexpectedly", run_id)
                await self._finish(run_id, FAILED, error="The run failed unexpectedly; details are in the log file.",
                                   failure=ERROR_FAILURE)

    async def _go(self, run: Run) -> None:
        graph = self._graph()
        settings = self._settings()
        head = await self._ledger.head(run.thread_id)
        if head.run_id == run.id and head.checkpoint_id is not None:
            node, step, values = head.next, head.step + 1, head.values
            log.info("run %s resumes at %s (step %d)", run.id, node or "its end", step)
        else:
            node, step, values = graph.entry, 1, head.values
        run = await self._ledger.mark_running(run.id, permission=run.permission, steering_version=None)
        self._bus.publish(RunStarted(run))
        stream = self._stream_of(run.id)

        def streamed(delta: str) -> None:
            if not delta:
                return
            stream.add(delta)
            self._bus.publish(TextStreamed(run.id, run.thread_id, run.channel_source, delta))

        def transitioned(name: str, at_step: int, checkpoint: Any) -> None:
            self._bus.publish(NodeFinished(run.id, run.thread_id, name, at_step,
                                                  getattr(checkpoint, "checkpoint_id", 0)))

        context = NodeContext(run=run, step=step, journal=self._ledger,
                              deadline=self._clock.now() + settings.run_deadline_seconds,
                              permission=run.permission, stream=streamed)
        if node is not None:
            try:
                values = await asyncio.wait_for(execute(graph, self._ledger, context, values, node, transitioned),
                                                settings.run_deadline_seconds)
            except TimeoutError:
                await self._finish(run.id, FAILED, failure=LIMIT_FAILURE, error=(
                    f"The run took longer than its deadline ({settings.run_deadline_seconds} s) and was stopped; "
                    "what it had done is kept. Try again, or raise [agent] run_deadline_seconds in config.toml."))
                return
            except AppError as exc:
                log.info("run %s failed: %s", run.id, exc)
                await self._finish(run.id, FAILED, error=str(exc), failure=_failure_of(exc))
                return
        await self._finish(run.id, COMPLETED, response=str(values.get(CHANNEL_RESPONSE) or ""))

    async def _finish(self, run_id: str, status: RunStatus, *, response: str | None = None,
                      error: str | None = None, failure: Failure | None = None) -> Run:
        outcome = await read_outcome(self._ledger, run_id) or ExecutionOutcome()
        run = await self._ledger.finish_run(
            run_id, status, response=response, error=error, failure=failure, tools_used=outcome.tools_used,
            recommended_action=outcome.recommended_action, changed_something=outcome.changed_something,
            unexecuted=outcome.unexecuted)
        stream = self._streams.get(run_id)
        if stream is not None:
            stream.changed.set()
        log.info("run %s %s", run_id, status)
        self._bus.publish(RunFinished(run))
        for future in self._waiters.pop(run_id, []):
            if not future.done():
                future.set_result(run)
        self._finished_since_retain += 1
        if self._finished_since_retain >= RETAIN_EVERY and not self._closed:
            self._finished_since_retain = 0
            self._supervisor.spawn(self._retain(), name="agent-retention")
        return run

    async def _retain(self) -> None:
        folded = await self._ledger.retain()
        if folded:
            log.info("run ledger: %d old checkpoint(s) folded into snapshots", folded)


def _failure_of(exc: AppError) -> Failure:
    """A failed run's kind: a model that was down or answered garbage is worth a retry once it is back; a
    prompt that does not fit is not (it would fail again)."""
    if isinstance(exc, StepLimitReached | DeadlinePassed):
        return LIMIT_FAILURE
    if isinstance(exc.__cause__, ContextOverflow) or isinstance(exc, ContextOverflow):
        return ERROR_FAILURE
    if isinstance(exc, TierFailed | LlmUnavailable | LlmReplyError):
        return MODEL_FAILURE
    return ERROR_FAILURE


def _limit(value: object, default: int = 50) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_LIMIT:
        raise InvalidInput("limit", f"must be a whole number from 1 to {MAX_LIMIT}")
    return value
