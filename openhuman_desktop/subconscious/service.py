"""The subconscious service: the one layer the RPC server and the window call (validation + events)."""

from __future__ import annotations

import asyncio
import logging
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from openhuman_desktop import events
from openhuman_desktop.clock import Clock
from openhuman_desktop.config import Settings
from openhuman_desktop.errors import Conflict, InvalidInput, NotFound
from openhuman_desktop.store import Escalation, LogEntry, Resolution, SubconsciousStore, Task
from openhuman_desktop.subconscious import heartbeat_file, recurrence
from openhuman_desktop.subconscious.defaults import DEFAULT_TASKS
from openhuman_desktop.subconscious.intent import INTENTS, READ, IntentClassifier

log = logging.getLogger(__name__)

MAX_TITLE = 500
# The origin and intent source of tasks the assistant adds with its tasks tool (read-only until confirmed).
ASSISTANT = "assistant"
ESCALATION_STATUSES = ("pending", "approved", "dismissed")
APPROVED_RUNNING = "Approved — carrying out the recommended action…"


class EngineControl(Protocol):
    """What the service needs from the engine and heartbeat."""

    def request_tick(self, reason: str) -> object:
        """Start a tick now in the background (superseding one in flight)."""
        ...

    def runtime_status(self) -> RuntimeStatus:
        """The live part of the status (state, reason, next tick)."""
        ...

    def approve(self, escalation: Escalation) -> None:
        """Execute an approved escalation in the background."""
        ...

    def pause(self) -> None:
        """Stop scheduled ticks until resumed."""
        ...

    def resume(self) -> None:
        """Start scheduled ticks again."""
        ...


@dataclass(frozen=True)
class RuntimeStatus:
    """What only the running engine knows."""

    state: str
    state_reason: str
    next_tick_at: float | None


def clean_title(value: object, param: str = "title") -> str:
    """Validate and trim a task title.

    Raises:
        InvalidInput: not a string, blank, or longer than 500 characters.
    """
    if not isinstance(value, str):
        raise InvalidInput(param, "must be a string")
    title = " ".join(value.split())
    if not title:
        raise InvalidInput(param, "must not be empty or only spaces")
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in title):
        raise InvalidInput(param, "must not contain control characters")
    if len(title) > MAX_TITLE:
        raise InvalidInput(param, f"is {len(title)} characters long; the limit is {MAX_TITLE}")
    return title


class SubconsciousService:
    """Tasks, activity, escalations and status of the subconscious loop.

    Every change goes through here: it validates, writes through the store, and publishes an event
    so the window and other listeners update at once.
    """

    def __init__(
        self,
        store: SubconsciousStore,
        clock: Clock,
        bus: events.EventBus,
        settings: Callable[[], Settings],
        heartbeat_path: Path,
        classifier: IntentClassifier,
        engine: EngineControl | None = None,
    ) -> None:
        self.store = store
        self._clock = clock
        self._bus = bus
        self._settings = settings
        self._heartbeat_path = heartbeat_path
        self._classifier = classifier
        self._engine = engine
        # The file watcher and every tick sync HEARTBEAT.md; one at a time, or both would add the same lines.
        self._sync_lock = asyncio.Lock()

    def attach_engine(self, engine: EngineControl) -> None:
        """Connect the engine (it is built after the service, which it also uses)."""
        self._engine = engine

    @property
    def engine(self) -> EngineControl:
        if self._engine is None:
            raise RuntimeError("the subconscious engine is not attached")
        return self._engine

    # --- start-up -------------------------------------------------------------------------------

    async def seed_defaults(self) -> None:
        """Insert the built-in system tasks the first time (idempotent, also after renames)."""
        for task in await self.store.tasks.seed(DEFAULT_TASKS, self._clock.now()):
            log.info("seeded system task %s: %s", task.id, task.title)
            self._bus.publish(events.TaskChanged(task))

    async def sync_heartbeat_file(self) -> heartbeat_file.SyncPlan:
        """Bring the HEARTBEAT.md tasks in the database in line with the file (one sync at a time)."""
        async with self._sync_lock:
            return await self._sync_heartbeat_file()

    async def _sync_heartbeat_file(self) -> heartbeat_file.SyncPlan:
        text = heartbeat_file.read(self._heartbeat_path)
        titles = heartbeat_file.parse(text) if text is not None else []
        existing = await self.store.tasks.file_tasks()
        plan = heartbeat_file.plan(titles, [(task.id, task.title) for task in existing])
        if plan.is_empty:
            return plan
        additions = []
        for title in plan.add:
            intent, how = await self._classifier.classify(title)
            additions.append((title, intent, how))
        for task_id in plan.remove:
            await self._dismiss_open_escalations(task_id)
        added = await self.store.tasks.replace_file_tasks(additions, plan.remove, self._clock.now())
        log.info("HEARTBEAT.md synced: %d added, %d removed", len(plan.add), len(plan.remove))
        for task_id in plan.remove:
            self._bus.publish(events.TaskRemoved(task_id))
        for task in added:
            self._bus.publish(events.TaskChanged(task))
        return plan

    # --- status ---------------------------------------------------------------------------------

    async def status(self) -> dict[str, Any]:
        """The status of CONTRACT §4 (``subconscious_status``)."""
        settings = self._settings().heartbeat
        state = await self.store.state.load()
        runtime = self.engine.runtime_status()
        return {
            "enabled": settings.enabled,
            "inference_enabled": settings.inference_enabled,
            "interval_minutes": settings.interval_minutes,
            "state": runtime.state,
            "state_reason": runtime.state_reason,
            "task_count": await self.store.tasks.count(),
            "total_ticks": state.total_ticks,
            "last_tick_at": state.last_tick_at,
            "consecutive_failures": state.consecutive_failures,
            "pending_escalations": await self.store.escalations.pending_count(),
            "next_tick_at": runtime.next_tick_at,
        }

    def trigger(self) -> None:
        """Run a tick now, in the background."""
        self.engine.request_tick("run now")

    async def set_paused(self, paused: bool) -> None:
        """Pause or resume the heartbeat; remembered across restarts."""
        await self.store.state.set("paused", "1" if paused else "0")
        if paused:
            self.engine.pause()
        else:
            self.engine.resume()
        log.info("heartbeat %s by the user", "paused" if paused else "resumed")

    # --- tasks ----------------------------------------------------------------------------------

    async def tasks_list(self, enabled_only: bool = False) -> list[Task]:
        return await self.store.tasks.list(enabled_only=enabled_only)

    async def tasks_add(self, title: object, recurrence_text: object = recurrence.PENDING) -> Task:
        """Add a user task.

        Raises:
            InvalidInput: blank or too long title, invalid recurrence.
        """
        clean = clean_title(title)
        schedule = recurrence.parse(recurrence_text)
        intent, how = await self._classifier.classify(clean)
        return await self._add_user_task(clean, schedule, intent=intent, intent_source=how, origin="user")

    async def tasks_add_by_assistant(self, title: object, recurrence_text: object = recurrence.PENDING) -> Task:
        """Add a task the assistant asked for (its tasks tool): ``origin = "assistant"``, and read-only.

        Whatever its words, such a task never gets write tools until the user sets its intent to "write"
        (``tasks_update``): one approved run must not leave behind a task that writes on every tick without
        asking. It is a ``source = "user"`` task otherwise (in the user's list, which they can edit or remove).

        Raises:
            InvalidInput: blank or too long title, invalid recurrence.
        """
        clean = clean_title(title)
        schedule = recurrence.parse(recurrence_text)
        return await self._add_user_task(clean, schedule, intent=READ, intent_source=ASSISTANT, origin=ASSISTANT)

    async def _add_user_task(
        self, title: str, schedule: recurrence.Recurrence, *, intent: str, intent_source: str, origin: str
    ) -> Task:
        now = self._clock.now()
        task = await self.store.tasks.add(
            title=title, source="user", recurrence=str(schedule), next_run_at=recurrence.next_run(schedule, now),
            intent=intent, intent_source=intent_source, origin=origin, now=now,
        )
        log.info("task %s added (%s, %s intent, by %s)", task.id, task.recurrence, task.intent, origin)
        self._bus.publish(events.TaskChanged(task))
        return task

    async def _existing(self, task_id: object) -> Task:
        if not isinstance(task_id, str) or not task_id:
            raise InvalidInput("task_id", "must be a non-empty string")
        task = await self.store.tasks.get(task_id)
        if task is None:
            raise NotFound(f"There is no task with id {task_id!r}.")
        return task

    async def tasks_update(
        self,
        task_id: object,
        *,
        title: object = None,
        enabled: object = None,
        recurrence_text: object = None,
        intent: object = None,
    ) -> Task:
        """Change a task's title, enabled flag, schedule or intent (only what is given).

        Raises:
            InvalidInput: a value is invalid. NotFound: no such task. Conflict: renaming a HEARTBEAT.md task.
        """
        task = await self._existing(task_id)
        now = self._clock.now()
        changes: dict[str, Any] = {}
        if title is not None:
            clean = clean_title(title)
            if clean != task.title:
                if task.origin == "heartbeat_md":
                    raise Conflict("This task comes from HEARTBEAT.md; edit its line in that file instead.")
                changes["title"] = clean
        if enabled is not None:
            if not isinstance(enabled, bool):
                raise InvalidInput("enabled", "must be true or false")
            changes["enabled"] = enabled
        if recurrence_text is not None:
            schedule = recurrence.parse(recurrence_text)
            if str(schedule) != task.recurrence:
                changes["recurrence"] = str(schedule)
                changes["next_run_at"] = recurrence.next_run(schedule, now)
                changes["completed"] = False
        if intent is not None:
            if intent not in INTENTS:
                raise InvalidInput("intent", 'must be "read" or "write"')
            changes["intent"] = intent
            changes["intent_source"] = "user"
        elif "title" in changes and task.intent_source != "user" and task.origin != ASSISTANT:
            # Re-guessed from the new words, unless the user chose the intent or the assistant added the task
            # (read-only until the user says otherwise, whatever it is renamed to).
            changes["intent"], changes["intent_source"] = await self._classifier.classify(changes["title"])
        if not changes:
            return task
        updated = await self.store.tasks.update(task.id, now, **changes)
        if updated is None:
            raise NotFound(f"There is no task with id {task.id!r}.")
        log.info("task %s updated: %s", task.id, ", ".join(sorted(changes)))
        self._bus.publish(events.TaskChanged(updated))
        return updated

    async def tasks_remove(self, task_id: object) -> str:
        """Remove a user task.

        Raises:
            NotFound: no such task. Conflict: system tasks can be disabled, never removed.
        """
        task = await self._existing(task_id)
        if task.is_system:
            raise Conflict("System tasks cannot be removed; disable them instead.")
        await self._dismiss_open_escalations(task.id)
        await self.store.tasks.remove(task.id)
        log.info("task %s removed", task.id)
        self._bus.publish(events.TaskRemoved(task.id))
        return task.id

    async def _dismiss_open_escalations(self, task_id: str) -> None:
        """A task that goes away takes its pending cards with it: they are dismissed, and the window told."""
        for pending in await self.store.escalations.pending_for_task(task_id):
            resolved = await self.store.escalations.resolve(pending.id, "dismissed", self._clock.now())
            if resolved is not None:
                self._bus.publish(events.EscalationChanged(resolved))

    # --- activity log ---------------------------------------------------------------------------

    async def log_list(
        self, limit: int = 50, before: float | None = None, task_id: str | None = None
    ) -> list[LogEntry]:
        return await self.store.log.page(limit=limit, before=before, task_id=task_id)

    # --- escalations ----------------------------------------------------------------------------

    async def escalations_list(self, status: object = None) -> list[Escalation]:
        if status is not None and status not in ESCALATION_STATUSES:
            raise InvalidInput("status", 'must be "pending", "approved" or "dismissed"')
        return await self.store.escalations.list(status if isinstance(status, str) else None)

    async def _resolve(self, escalation_id: object, status: str) -> Resolution:
        """Approve or skip a pending card, with its log row, in one commit (so no crash can lose an approval)."""
        if not isinstance(escalation_id, str) or not escalation_id:
            raise InvalidInput("escalation_id", "must be a non-empty string")
        existing = await self.store.escalations.get(escalation_id)
        if existing is None:
            raise NotFound(f"There is no escalation with id {escalation_id!r}.")
        now = self._clock.now()
        if status == "approved":
            resolved = await self.store.escalations.approve(escalation_id, now, APPROVED_RUNNING)
        else:
            resolved = await self.store.escalations.dismiss(escalation_id, now, remember=True)
        if resolved is None:
            current = await self.store.escalations.get(escalation_id)
            now_status = current.status if current else "gone"
            raise Conflict(f"This escalation is already {now_status}; nothing was done.")
        self._bus.publish(events.EscalationChanged(resolved.escalation))
        if resolved.row is not None:
            self._bus.publish(events.ActivityLogged(resolved.row))
        self._bus.publish(events.StatusChanged())  # pending_escalations went down
        return resolved

    async def escalations_approve(self, escalation_id: object) -> str:
        """Approve a pending escalation; its action runs in the background, exactly once.

        The approval and its run marker are one commit: after a crash at any point the approval either
        runs at the next start or its card is back with a note saying why.

        Raises:
            NotFound: no such escalation. Conflict: it is not pending any more.
        """
        resolved = await self._resolve(escalation_id, "approved")
        log.info("escalation %s approved", resolved.escalation.id)
        self.engine.approve(resolved.escalation)
        return resolved.escalation.id

    async def escalations_dismiss(self, escalation_id: object) -> str:
        """Skip a pending escalation: nothing is executed, its log row reads "Skipped", and the task's same
        recommendation is not raised again for a day."""
        resolved = await self._resolve(escalation_id, "dismissed")
        log.info("escalation %s dismissed", resolved.escalation.id)
        return resolved.escalation.id
