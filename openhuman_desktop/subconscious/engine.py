"""The subconscious engine: one tick = due tasks → in_progress rows → report → evaluation → execution."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Protocol

from openhuman_desktop import events, recurrence
from openhuman_desktop.clock import Clock
from openhuman_desktop.config import Settings
from openhuman_desktop.errors import AppError, LlmReplyError, LlmUnavailable, StoreUnavailable
from openhuman_desktop.store import Advance, EngineState, LogEntry, SubconsciousStore, Task
from openhuman_desktop.store.events import ActivityLogged, TaskChanged
from openhuman_desktop.subconscious import declined
from openhuman_desktop.subconscious.decisions import (
    ACT,
    ESCALATE,
    NOOP,
    Decision,
    Evaluation,
    Evaluator,
    Executor,
    Outcome,
    Report,
    Reporter,
)
from openhuman_desktop.subconscious.heartbeat import Heartbeat
from openhuman_desktop.subconscious.ports import RuntimeStatus, TickCards
from openhuman_desktop.supervisor import TaskSupervisor

log = logging.getLogger(__name__)

CANCELLED_SUPERSEDED = "Cancelled: a newer tick (Run Now) replaced this one"
CANCELLED_SHUTDOWN = "Cancelled: the app was shutting down"
REMOVED_MID_TICK = "Cancelled: the task was removed while the assistant was looking at it."
DISABLED_MID_TICK = "Cancelled: the task was disabled while the assistant was looking at it; no card was raised."
PRUNE_EVERY_SECONDS = 3600.0
CANCELLED_CRASH = "Cancelled: the app stopped while this was running"
GENERATION_KEY = "tick_generation"
TICK_FAILED = "Something went wrong in this tick (details in the log file)."
IDLE_REASON = "Waiting for the next tick."


class ModelHealth(Protocol):
    """What the status needs to know about the model tiers (``llm.pool.ModelClients``)."""

    def problem(self, tier: str) -> str | None:
        """Why the tier fails (its last failed call or check), None when fine or not known yet."""
        ...

    def is_ready(self, tier: str) -> bool:
        """The tier's last check passed and no call failed since."""
        ...

    def is_configured(self, tier: str) -> bool:
        ...

    def describe(self, tier: str) -> str:
        """e.g. "Ollama model qwen2.5:14b at http://127.0.0.1:11434"."""
        ...


class SubconsciousEngine:
    """Runs ticks with supersede semantics and keeps the engine state.

    A tick started while another runs cancels the older one: its model call is cancelled, only its
    own ``in_progress`` rows become ``cancelled`` and its results are discarded.
    """

    def __init__(
        self,
        *,
        store: SubconsciousStore,
        sync_tasks: Callable[[], Awaitable[object]],
        cards: TickCards,
        clock: Clock,
        bus: events.EventBus,
        settings: Callable[[], Settings],
        supervisor: TaskSupervisor,
        reporter: Reporter,
        evaluator: Evaluator,
        executor: Executor,
        models: ModelHealth | None = None,
        config_problem: Callable[[], str | None] = lambda: None,
    ) -> None:
        self._store = store
        self._sync_tasks = sync_tasks
        self._cards = cards
        self._clock = clock
        self._bus = bus
        self._settings = settings
        self._supervisor = supervisor
        self._reporter = reporter
        self._evaluator = evaluator
        self._executor = executor
        self._models = models
        self._config_problem = config_problem
        # Generations number the ticks; log rows keep theirs, and a superseded tick cancels only the
        # in_progress rows of its own generation. The counter is persisted (``start``), so the numbers
        # of this run never repeat those of rows from earlier runs (an approved escalation, say).
        self._generation = 0
        self._current: asyncio.Task[None] | None = None
        self._last_prune: float | None = None
        self._running: int | None = None  # the generation in its active phase (cleared before TickFinished)
        self._due_count = 0
        self._last_error: str | None = None
        self._failures = 0
        self._is_model_failure = False  # the last failure was the local model's (a recheck can show it is over)
        self._quiet_note: str | None = None  # the last tick decided noop for every task although things changed
        self.heartbeat = Heartbeat(clock, settings, self.run_tick, busy=lambda: self.is_ticking)
        self.last_tick_stats: dict[str, float | int] = {}

    # --- lifecycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Recover from a crash (rows left ``in_progress``), load the state, start the heartbeat. Approvals a
        crash left unfinished are the approval gate's (``ApprovalGate.recover``, called before this)."""
        for entry in await self._store.log.cancel_in_progress(CANCELLED_CRASH, self._clock.now()):
            log.info("log row %s was left in progress by a crash; marked cancelled", entry.id)
            self._bus.publish(ActivityLogged(entry))
        saved = await self._store.state.get(GENERATION_KEY)
        if saved is not None and saved.isdigit():
            self._generation = max(self._generation, int(saved))
        state = await self._store.state.load()
        self._failures = state.consecutive_failures
        self._last_error = state.last_error
        if await self._store.state.get("paused") == "1":
            self.heartbeat.pause()
        self._supervisor.spawn(self.heartbeat.run(), name="heartbeat")

    async def aclose(self) -> None:
        """Cancel a tick in flight (its rows are recorded as cancelled)."""
        current = self._current
        if current is not None and not current.done():
            current.cancel()
            await asyncio.gather(current, return_exceptions=True)

    # --- control --------------------------------------------------------------------------------

    def request_tick(self, reason: str) -> asyncio.Task[None]:
        """Start a tick now; an older tick still running is superseded."""
        self._generation += 1
        generation = self._generation
        previous = self._current
        if previous is not None and not previous.done():
            log.info("tick %d superseded by tick %d (%s)", generation - 1, generation, reason)
            previous.cancel()
        task = self._supervisor.spawn(self._tick(generation, reason, previous), name=f"tick-{generation}")
        self._current = task
        return task

    async def run_tick(self, reason: str) -> None:
        """Run a tick and wait until it — or a tick that superseded it — is over."""
        task = self.request_tick(reason)
        while True:
            await asyncio.gather(task, return_exceptions=True)
            current = self._current
            if current is None or current is task or current.done():
                return
            task = current

    def pause(self) -> None:
        self.heartbeat.pause()
        self._bus.publish(events.StatusChanged())

    def resume(self) -> None:
        self.heartbeat.resume()
        self._bus.publish(events.StatusChanged())

    @property
    def is_ticking(self) -> bool:
        return self._running is not None

    def runtime_status(self) -> RuntimeStatus:
        """State and reason, most urgent first: a rejected config edit (it may be what would turn the
        heartbeat back on), off, paused, ticking, the local tier (a failed evaluation, a failed check),
        evaluation off, the reasoning tier, idle."""
        heartbeat = self._settings().heartbeat
        next_tick = self.heartbeat.next_tick_at
        rejected = self._config_problem()
        if rejected:
            return RuntimeStatus(
                "degraded",
                f"config.toml was not applied: {rejected.rstrip('.')}. Fix the file; the previous settings stay "
                "in force.",
                next_tick if heartbeat.enabled and not self.heartbeat.is_paused else None,
            )
        if not heartbeat.enabled:
            return RuntimeStatus("disabled", "The heartbeat is off (heartbeat.enabled = false in config.toml).", None)
        if self.heartbeat.is_paused:
            return RuntimeStatus("paused", "Paused by you; resume it to let the assistant look at your tasks.", None)
        if self.is_ticking:
            return RuntimeStatus("ticking", f"Looking at {self._due_count} due task(s).", next_tick)
        if self._failures > 0:
            return RuntimeStatus("degraded", self._failure_reason(), next_tick)
        if not heartbeat.inference_enabled:
            return RuntimeStatus(
                "idle", "Model evaluation is off (heartbeat.inference_enabled = false); tasks are not evaluated.",
                next_tick,
            )
        problem = self._models.problem("local") if self._models else None
        if problem:
            return RuntimeStatus("degraded", problem, next_tick)
        reasoning = self._reasoning_reason()
        if reasoning:
            return RuntimeStatus("degraded", reasoning, next_tick)
        if self._quiet_note:
            return RuntimeStatus("idle", f"{IDLE_REASON} {self._quiet_note}", next_tick)
        return RuntimeStatus("idle", IDLE_REASON, next_tick)

    def _failure_reason(self) -> str:
        """The last failed evaluation, unless the local model has been checked and answers again since (a
        config fix, a restarted server): then the old error (an old address, say) is no longer the news."""
        models = self._models
        if self._is_model_failure and models is not None and models.is_ready("local"):
            failed = "The last evaluation" if self._failures == 1 else f"The last {self._failures} evaluations"
            return f"{failed} failed, but the local model ({models.describe('local')}) answers again; " \
                   "the next tick tries again."
        if self._is_model_failure and self._last_error:
            # The client's words name the server, not the tier, and may not say what to do.
            tier = self._settings().model("local")
            sentence = self._last_error if self._last_error.endswith((".", "!", "?", "`")) else self._last_error + "."
            if " — " not in sentence:
                sentence += " Start that server, or correct [models.local] in config.toml; the next tick tries again."
            return f"Evaluations fail (local model {tier.model if tier else 'not configured'}): {sentence}"
        return self._last_error or "The last evaluation failed."

    def _reasoning_reason(self) -> str | None:
        """Why escalations cannot run (the reasoning tier is missing or failing), with what to do.

        Kept short, the tier and the model first: the tray shows the first 160 characters.
        """
        models = self._models
        if models is None:
            return None
        tier = self._settings().model("reasoning")
        if tier is None or not models.is_configured("reasoning"):
            return "Escalations fail: no reasoning model is configured — add a [models.reasoning] table to config.toml."
        problem = models.problem("reasoning")
        if not problem:
            return None
        sentence = problem if problem.endswith((".", "!", "?", "`")) else problem + "."
        if sentence[:1].isupper() and sentence[1:2].islower():
            sentence = sentence[0].lower() + sentence[1:]
        if " — " not in sentence:  # the clients' messages say what to do after a dash when they know it
            sentence += " " + _remedy(sentence)
        return f"Escalations fail (reasoning model {tier.model}): {sentence}"

    # --- the tick -------------------------------------------------------------------------------

    async def _tick(self, generation: int, reason: str, previous: asyncio.Task[None] | None) -> None:
        if previous is not None:
            await asyncio.gather(previous, return_exceptions=True)
        tick_at = self._clock.now()
        self.heartbeat.ticked(tick_at)
        started = time.perf_counter()
        rows: dict[str, LogEntry] = {}
        self._running = generation
        try:
            await self._store.state.set(GENERATION_KEY, str(generation))
            await self._sync_tasks()
            due = await self._store.tasks.due(tick_at)
            self._due_count = len(due)
            self._bus.publish(events.TickStarted(generation, len(due)))
            self._bus.publish(events.StatusChanged())
            outcome = await self._run(generation, tick_at, due, rows)
        except asyncio.CancelledError:
            superseded = generation != self._generation
            await asyncio.shield(self._cancel_rows(generation, superseded))
            self._stopped_running(generation)
            self._bus.publish(events.TickFinished(generation, "cancelled"))
            raise
        except StoreUnavailable as exc:
            log.warning("tick %d stopped: %s", generation, exc)
            await self._abandon(rows, str(exc))
            outcome = "failed"
        except Exception:  # a bug must not leave rows "in progress" forever; the log keeps the trace
            log.exception("tick %d failed unexpectedly", generation)
            await self._abandon(rows, TICK_FAILED)
            outcome = "failed"
        self.last_tick_stats["tick_ms"] = (time.perf_counter() - started) * 1000
        log.info("tick %d (%s) finished: %s, %d due", generation, reason, outcome, len(rows))
        self._stopped_running(generation)
        self._bus.publish(events.TickFinished(generation, outcome))
        self._bus.publish(events.StatusChanged())
        started = time.perf_counter()
        try:
            await self._maintain()
        except StoreUnavailable as exc:
            log.warning("database upkeep after tick %d skipped: %s", generation, exc)
        self.last_tick_stats["upkeep_ms"] = (time.perf_counter() - started) * 1000

    def _stopped_running(self, generation: int) -> None:
        # Cleared before TickFinished is published, so a status read in response no longer says "ticking".
        if self._running == generation:
            self._running = None

    async def _cancel_rows(self, generation: int, superseded: bool) -> None:
        reason = CANCELLED_SUPERSEDED if superseded else CANCELLED_SHUTDOWN
        try:
            for entry in await self._store.log.cancel_in_progress(reason, self._clock.now(), generation):
                self._bus.publish(ActivityLogged(entry))
        except StoreUnavailable as exc:
            log.warning("could not mark tick %d rows cancelled: %s", generation, exc)

    async def _run(self, generation: int, tick_at: float, due: Sequence[Task],
                   rows: dict[str, LogEntry]) -> events.TickOutcome:
        state = await self._store.state.load()
        settings = self._settings().heartbeat
        if not due:
            await self._store.state.save(replace(
                state, total_ticks=state.total_ticks + 1, last_tick_at=tick_at, consecutive_failures=0,
                last_error=None,
            ))
            self._failures, self._last_error = 0, None
            return "idle"
        if not settings.inference_enabled:
            # Nothing is evaluated, so nothing is logged (the status says evaluation is off) and the report's
            # "since" stays where it was; the tick still ran to its end, so it counts.
            await self._store.state.save(replace(state, total_ticks=state.total_ticks + 1))
            return "idle"
        # The in_progress rows are written while the report is built and the model thinks; every use of
        # ``rows`` below waits for them first. A tick that fails still gets its rows (to mark them failed);
        # a cancelled one stops writing them.
        recording = asyncio.ensure_future(self._record_rows(due, tick_at, generation, rows))
        try:
            return await self._decide(tick_at, due, rows, state, recording)
        except asyncio.CancelledError:
            recording.cancel()
            raise
        finally:
            await asyncio.gather(recording, return_exceptions=True)

    async def _record_rows(self, due: Sequence[Task], tick_at: float, generation: int,
                           rows: dict[str, LogEntry]) -> None:
        started = await self._store.log.start_many(
            [(task.id, task.title) for task in due], tick_at, generation, self._clock.now()
        )
        rows.update(zip((task.id for task in due), started, strict=True))
        self._publish_rows(started)

    async def _decide(self, tick_at: float, due: Sequence[Task], rows: dict[str, LogEntry], state: EngineState,
                      recording: asyncio.Future[None]) -> events.TickOutcome:
        report = await self._reporter.build(due, _report_since(due), tick_at)
        signature = _signature(due, report)
        if signature == state.idle_signature:
            await recording
            await self._settle([(rows[task.id], NOOP, "Nothing new (unchanged since the last check)") for task in due],
                               tick_at, advance=due)
            await self._store.state.save(replace(
                state, total_ticks=state.total_ticks + 1, last_tick_at=tick_at, consecutive_failures=0,
                last_error=None,
            ))
            self._failures, self._last_error = 0, None
            self.last_tick_stats.update(model_calls=0, prompt_tokens=0)
            return "idle"
        try:
            evaluation = await self._evaluator.evaluate(due, report)
        except (LlmUnavailable, LlmReplyError) as exc:
            message = str(exc) if isinstance(exc, LlmUnavailable) else f"The local model's answer was unusable: {exc}"
            await recording
            await self._settle([(rows[task.id], "failed", message) for task in due], tick_at)
            await self._record_failure(message, is_model_failure=isinstance(exc, LlmUnavailable))
            return "failed"
        self.last_tick_stats.update(model_calls=evaluation.model_calls, prompt_tokens=evaluation.prompt_tokens)
        await recording
        decided = sum(1 for task in due if task.id in evaluation.decisions)
        mostly_failed = 2 * (len(due) - decided) > len(due)
        if mostly_failed:
            # The tasks that got decisions keep them (below); the tick as a whole failed (issue 10, item 3).
            await self._record_failure(_mostly_undecided(decided, due, evaluation.problems))
        else:
            await self._store.state.save(replace(
                state, total_ticks=state.total_ticks + 1, last_tick_at=tick_at, consecutive_failures=0,
                last_error=None, idle_signature=None,
            ))
            self._failures, self._last_error = 0, None
        # The many quiet answers (and unusable ones) are written together; actions run one by one.
        outcomes: list[tuple[LogEntry, str, str]] = []
        quiet: list[Task] = []
        actions: list[tuple[Task, Decision]] = []
        for task in due:
            decision = evaluation.decisions.get(task.id)
            if decision is None:
                problem = evaluation.problems.get(task.id, "the model gave no decision for this task")
                outcomes.append((rows[task.id], "failed", f"No usable decision: {problem}"))
            elif decision.decision == NOOP:
                outcomes.append((rows[task.id], NOOP, decision.reason or "Nothing new"))
                quiet.append(task)
            else:
                actions.append((task, decision))
        await self._settle(outcomes, tick_at, advance=quiet)
        self._quiet_note = _quiet_note(evaluation) if len(quiet) == len(due) else None
        if self._quiet_note:
            log.info("tick decided noop for all %d due tasks: %s", len(due), self._quiet_note)
        for task, decision in actions:
            await self._carry_out(task, decision, report, rows[task.id], tick_at)
        if len(quiet) == len(due):
            await self._store.state.set_idle_signature(signature)
        return "failed" if mostly_failed else "ok"

    async def _carry_out(self, task: Task, decision: Decision, report: Report, row: LogEntry, tick_at: float) -> None:
        # The user may have removed or disabled the task while the tick looked at it: each task's outcome is
        # written on its own terms, and neither case may fail the tick (issue 9, item 6).
        current = await self._store.tasks.get(task.id)
        if current is None or not current.enabled:
            await self._settle([(row, "cancelled", REMOVED_MID_TICK if current is None else DISABLED_MID_TICK)],
                               tick_at)
            return
        skipped: Sequence[tuple[str, float]] = []
        if not task.is_write:  # only analysis-only runs recommend
            skipped = await self._cards.declined_for(task)
        if decision.decision == ESCALATE:
            await self._update_row(row, "Escalated to agentic-v1…")
        elif decision.decision == ACT:
            await self._update_row(row, "Working on it…")
        try:
            outcome = await self._executor.execute(task, decision, report, declined.declined_lines(skipped))
        except asyncio.CancelledError:
            raise
        except AppError as exc:
            outcome = Outcome("failed", str(exc))
        except Exception as exc:
            log.exception("executing task %s failed", task.id)
            outcome = Outcome("failed", f"Execution failed unexpectedly ({type(exc).__name__}); see the log file.")
        if outcome.escalation is not None:
            instead = await self._cards.raise_from_tick(task, row, outcome.escalation, skipped)
            if instead is not None and instead.decision == "cancelled":
                await self._settle([(row, instead.decision, instead.result)], tick_at)
                return
            if instead is not None:
                outcome = instead
        await self._settle([(row, outcome.decision, outcome.result)], tick_at,
                           advance=[task] if outcome.decision != "failed" else [], completes=outcome.completes_task)

    # --- helpers --------------------------------------------------------------------------------

    async def _update_row(self, row: LogEntry, text: str) -> None:
        entry = await self._store.log.finish(row.id, "in_progress", text, None, self._clock.now())
        if entry:
            self._bus.publish(ActivityLogged(entry))

    async def _finish(self, row: LogEntry, decision: str, result: str) -> None:
        duration = int(max(0.0, self._clock.now() - row.created_at) * 1000)
        entry = await self._store.log.finish(row.id, decision, result, duration, self._clock.now())
        if entry:
            self._bus.publish(ActivityLogged(entry))

    async def _settle(
        self, outcomes: Sequence[tuple[LogEntry, str, str]], tick_at: float, *, advance: Sequence[Task] = (),
        completes: bool = False,
    ) -> None:
        """Write ``in_progress`` rows' outcomes ``(row, decision, result)`` and move the schedules of the tasks in
        ``advance`` past this tick (completing a ``once`` task when ``completes``), all in one transaction."""
        if not outcomes and not advance:
            return
        now = self._clock.now()
        finished = [(row, decision, result, int(max(0.0, now - row.created_at) * 1000))
                    for row, decision, result in outcomes]
        advances = [_advance(task, tick_at, now, completes) for task in advance]
        async with self._store.db.transaction() as tx:
            entries = await self._store.log.finish_many(finished, now, tx=tx)
            tasks = await self._store.tasks.advance_many(advances, now, tx=tx)
        self._publish_rows(entries)
        if self._bus.follows(TaskChanged) and tasks:
            # The snapshots are the tick's own, built from the tasks as they were when it began: the window is
            # told the tasks as they are now, so one removed or disabled meanwhile stays so (issue 9, item 6).
            for task in await self._as_they_are_now(tasks):
                self._bus.publish(TaskChanged(task))

    async def _as_they_are_now(self, tasks: Sequence[Task]) -> list[Task]:
        """The tasks among ``tasks`` that still exist, read again (one by one when few, else all at once)."""
        if len(tasks) <= 16:
            found = [await self._store.tasks.get(task.id) for task in tasks]
            return [task for task in found if task is not None]
        wanted = {task.id for task in tasks}
        return [task for task in await self._store.tasks.list() if task.id in wanted]

    def _publish_rows(self, entries: Sequence[LogEntry]) -> None:
        if self._bus.follows(ActivityLogged):  # headless, nobody does: a tick has thousands
            for entry in entries:
                self._bus.publish(ActivityLogged(entry))

    async def _abandon(self, rows: dict[str, LogEntry], message: str) -> None:
        """A tick that stopped half-way: its rows still open fail with ``message``, and it counts as failed."""
        try:
            for row in rows.values():
                await self._finish(row, "failed", message)
        except StoreUnavailable as exc:
            log.warning("could not mark the rows of a stopped tick failed: %s", exc)
        await self._record_failure(message)

    async def _record_failure(self, message: str, *, is_model_failure: bool = False) -> None:
        """A tick that ran to its end but failed: one more failure in a row, and one more tick (CONTRACT §4)."""
        failures = self._failures + 1
        try:
            state = await self._store.state.load()
            failures = state.consecutive_failures + 1
            await self._store.state.save(replace(
                state, total_ticks=state.total_ticks + 1, consecutive_failures=failures, last_error=message,
            ))
        except StoreUnavailable as exc:
            log.warning("could not record the failed evaluation: %s", exc)
        self._failures, self._last_error = failures, message
        self._is_model_failure = is_model_failure
        log.warning("evaluation failed (%d in a row): %s", failures, message)

    async def _maintain(self) -> None:
        """Upkeep once a tick is over, off its path: the log retention policy (at most hourly: it walks an
        index), filing the recent log rows under their tasks (hourly, or sooner once many wait) and a WAL
        checkpoint (so the tick's writes are not copied back in the middle of a later tick)."""
        hourly = self._last_prune is None or self._clock.monotonic() - self._last_prune >= PRUNE_EVERY_SECONDS
        if hourly:
            self._last_prune = self._clock.monotonic()
            retention = self._settings().activity_log
            deleted = await self._store.log.prune(
                retention_days=retention.retention_days, max_rows=retention.max_rows, now=self._clock.now()
            )
            if deleted:
                log.info("activity log retention removed %d old rows", deleted)
        await self._store.log.file_recent(force=hourly)
        await self._store.db.checkpoint()


def _remedy(problem: str) -> str:
    """What to do about a reasoning-tier failure whose message does not say it."""
    if "HTTP 429" in problem:
        return "Wait for the provider's rate limit to reset; the next escalation tries again."
    if problem.startswith(("cannot reach", "lost the connection")) or "did not answer" in problem:
        return "Start that server, or correct [models.reasoning] in config.toml."
    return "See that server's log; the next escalation tries again."


def _joined(*sentences: str) -> str:
    return " ".join(sentence for sentence in sentences if sentence)


def _advance(task: Task, tick_at: float, now: float, completes: bool) -> Advance:
    """Where a task's schedule goes after this tick: cron tasks to their next slot, a ``once`` task that acted
    to completed; the others only remember that they ran."""
    schedule = recurrence.parse(task.recurrence)
    next_run = recurrence.next_run(schedule, max(tick_at, now)) if schedule.is_cron else task.next_run_at
    return Advance(task, tick_at, next_run, task.completed or (completes and schedule.kind == recurrence.ONCE))


def _report_since(due: Sequence[Task]) -> float | None:
    """Where the report's span begins: when the due task decided on longest ago was last decided on (its
    ``last_run_at``, which only a decision moves), or None (everything) when one never was. A task whose row
    failed keeps its old span, so what concerned it (an URGENT note) is shown again until it gets a decision."""
    since: float | None = None
    for task in due:
        if task.last_run_at is None:
            return None
        if since is None or task.last_run_at < since:
            since = task.last_run_at
    return since


def _mostly_undecided(decided: int, due: Sequence[Task], problems: dict[str, str]) -> str:
    """The status line of a tick where most due tasks got no valid decision."""
    example = next((problems[task.id] for task in due if task.id in problems), "")
    detail = f" (e.g. {example.rstrip('.')})" if example else ""
    return (f"The local model gave usable decisions for {decided} of {len(due)} tasks; the others were left out "
            f"of its answers or invalid{detail}. The next tick asks again.")


def _quiet_note(evaluation: Evaluation) -> str | None:
    """What the status says after a tick that decided ``noop`` for every task although something changed."""
    if not evaluation.changes:
        return None
    changes = f"{evaluation.changes} change{'s' if evaluation.changes != 1 else ''}"
    if not evaluation.touched:
        return f"The last tick saw {changes}; none concerned a task."
    tasks = f"{evaluation.touched} task{'s' if evaluation.touched != 1 else ''}"
    return f"The last tick saw {changes} touching {tasks}; the model decided none needed action."


def _signature(tasks: Sequence[Task], report: Report) -> str:
    text = "".join(f"{task.id}\x00{task.title}\x00{task.intent}\x00" for task in tasks) + report.signature
    return hashlib.sha256(text.encode(errors="surrogatepass")).hexdigest()
