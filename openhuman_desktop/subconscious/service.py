"""The subconscious service: the one layer the RPC server and the window call (validation + events)."""

from __future__ import annotations

import asyncio
import functools
import logging
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from openhuman_desktop import events, recurrence
from openhuman_desktop.clock import Clock
from openhuman_desktop.config import Settings
from openhuman_desktop.errors import Conflict, InvalidInput, NotFound
from openhuman_desktop.store import LogEntry, SubconsciousStore, Task
from openhuman_desktop.store.events import EscalationChanged, TaskChanged, TaskRemoved
from openhuman_desktop.subconscious import heartbeat_file
from openhuman_desktop.subconscious.defaults import DEFAULT_TASKS
from openhuman_desktop.subconscious.intent import (
    INTENTS,
    KEYWORD,
    READ,
    USER,
    WRITE,
    BackgroundIntents,
    IntentClassifier,
    IntentJudgement,
    classify_by_keywords,
)
from openhuman_desktop.subconscious.ports import EngineControl, RuntimeStatus
from openhuman_desktop.subconscious.task_rules import TaskRules, edited, rule_json

__all__ = ["ASSISTANT", "MAX_ASSISTANT_TASKS", "EngineControl", "RuntimeStatus", "SubconsciousService",
           "clean_title"]

log = logging.getLogger(__name__)

MAX_TITLE = 500
# The origin and intent source of tasks the assistant adds with its tasks tool (read-only until confirmed).
ASSISTANT = "assistant"
MAX_ASSISTANT_TASKS = 20
"""Most tasks the assistant may have added that the user has not confirmed (set the intent of) yet."""


# Characters that change the direction text is shown in: a title can be made to read as something else
# (U+202E turns "Pay invoice \u202eexe.gnp" into "Pay invoice pdf.exe"). Refused.
_DIRECTION_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Joiners shape scripts (Persian, Indic) and emoji sequences; every other format character is invisible
# (zero-width spaces, word joiners, tag characters that can smuggle hidden text) and is removed.
_KEPT_FORMAT_CHARACTERS = frozenset("\u200c\u200d")


_BUSY_REMOVING = ("This task's approved action is being carried out right now; remove the task once it has "
                  "finished.")


def clean_title(value: object, param: str = "title") -> str:
    """Validate and trim a task title (from RPC, the window and HEARTBEAT.md alike).

    Invisible format characters (Unicode category Cf) other than the joiners are removed.

    Raises:
        InvalidInput: not a string, blank, longer than 500 characters, or containing control characters or
            characters that change the text direction (bidi overrides and isolates such as U+202E).
    """
    if not isinstance(value, str):
        raise InvalidInput(param, "must be a string")
    if any(char in _DIRECTION_CONTROLS for char in value):
        raise InvalidInput(param, "must not contain characters that change the text direction (such as U+202E)")
    value = "".join(
        char for char in value
        if char in _KEPT_FORMAT_CHARACTERS or unicodedata.category(char) != "Cf"
    )
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
        rules: TaskRules | None = None,
    ) -> None:
        self.store = store
        self._clock = clock
        self._bus = bus
        self._settings = settings
        self._heartbeat_path = heartbeat_path
        self._classifier = classifier
        self._engine = engine
        self.rules = rules or TaskRules()
        """Every task's condition and action (the judgement's; the user sees and edits them here)."""
        # The file watcher and every tick sync HEARTBEAT.md; one at a time, or both would add the same lines.
        self._sync_lock = asyncio.Lock()
        self._assistant_lock = asyncio.Lock()

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
            self._bus.publish(TaskChanged(task))

    async def sync_heartbeat_file(self, *, announce: bool = True) -> heartbeat_file.SyncPlan:
        """Bring the HEARTBEAT.md tasks in the database in line with the file (one sync at a time).

        Never waits on a model: new tasks get the keyword intent now and the model's in the background
        (:meth:`refine_intents`). A file that is refused (not a regular file, too large) changes nothing;
        why is logged and, when it is new and ``announce`` is true, published as a notice.
        """
        async with self._sync_lock:
            return await self._sync_heartbeat_file(announce)

    @property
    def heartbeat_problem(self) -> str | None:
        """Why HEARTBEAT.md was refused at the last sync (None: it was read)."""
        return self._heartbeat_problem

    _heartbeat_problem: str | None = None

    async def _sync_heartbeat_file(self, announce: bool = True) -> heartbeat_file.SyncPlan:
        try:
            text = heartbeat_file.read(self._heartbeat_path)
            titles = self._file_titles(heartbeat_file.parse(text) if text is not None else [])
            heartbeat_file.check_count(self._heartbeat_path, titles)
        except heartbeat_file.Refused as exc:
            if str(exc) != self._heartbeat_problem:
                self._heartbeat_problem = str(exc)
                log.warning("%s", exc)
                if announce:
                    self._bus.publish(events.Notified("HEARTBEAT.md not read", str(exc)))
            return heartbeat_file.SyncPlan(add=(), remove=())
        if self._heartbeat_problem is not None:
            log.info("%s is read again", self._heartbeat_path)
            self._heartbeat_problem = None
        existing = await self.store.tasks.file_tasks()
        plan = heartbeat_file.plan(titles, [(task.id, task.title) for task in existing])
        if plan.is_empty:
            return plan
        additions = [(title, classify_by_keywords(title), KEYWORD) for title in plan.add]
        for task_id in plan.remove:
            await self._dismiss_open_escalations(task_id)
        added, removed = await self.store.tasks.replace_file_tasks(additions, plan.remove, self._clock.now())
        log.info("HEARTBEAT.md synced: %d added, %d removed", len(plan.add), len(removed))
        if len(removed) < len(plan.remove):
            log.info("HEARTBEAT.md: %d removed lines keep their task until its approved action has finished",
                     len(plan.remove) - len(removed))
        for task_id in removed:
            self._bus.publish(TaskRemoved(task_id))
        for task in added:
            self._bus.publish(TaskChanged(task))
        self._intents.submit((task.id, task.title) for task in added)
        return plan

    def _file_titles(self, parsed: list[str]) -> list[str]:
        """The titles of the file's lines that pass the same checks as an RPC title (the others are skipped)."""
        titles: list[str] = []
        seen: set[str] = set()
        skipped: dict[str, int] = {}
        for raw in parsed:
            try:
                title = clean_title(raw)
            except InvalidInput as exc:
                skipped[exc.problem] = skipped.get(exc.problem, 0) + 1
                continue
            if title not in seen:
                seen.add(title)
                titles.append(title)
        for problem, count in skipped.items():  # one line per kind of problem, however many lines
            log.warning("HEARTBEAT.md: %d task line%s skipped: the title %s", count, "" if count == 1 else "s",
                        problem)
        return titles

    @functools.cached_property
    def _intents(self) -> BackgroundIntents:
        return BackgroundIntents(self._classifier, self._store_model_intent)

    async def _store_model_intent(self, task_id: str, title: str, judgement: IntentJudgement) -> None:
        updated = await self.store.tasks.set_model_intent(task_id, title, judgement.intent, judgement.source,
                                                          judgement.suggestion, self._clock.now())
        if updated is not None:
            if judgement.suggestion is not None:
                log.info("task %s stays %s; the %s would let it %s: the user is asked (\"May write?\")", task_id,
                         judgement.intent, "model" if judgement.source == KEYWORD else "words", judgement.suggestion)
            self._bus.publish(TaskChanged(updated))

    async def refine_intents(self) -> None:
        """Ask the model about the intent of added and renamed tasks, in the background (until cancelled)."""
        await self._intents.run()

    async def intents_refined(self) -> None:
        """Return once the model was asked about every task queued so far (tests and benchmarks wait on it)."""
        await self._intents.drained()

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
        """Add a user task. Never waits on a model: the task has the words' intent at once, and the model is
        asked in the background (it may narrow "write" to "read", or ask the user "May write?").

        Raises:
            InvalidInput: blank or too long title, invalid recurrence.
        """
        clean = clean_title(title)
        schedule = recurrence.parse(recurrence_text)
        task = await self._add_user_task(clean, schedule, intent=classify_by_keywords(clean), intent_source=KEYWORD,
                                         origin="user")
        self._intents.submit([(task.id, task.title)])
        return task

    async def tasks_add_by_assistant(self, title: object, recurrence_text: object = recurrence.PENDING) -> Task:
        """Add a task the assistant asked for (its tasks tool): ``origin = "assistant"``, and read-only.

        Whatever its words, such a task never gets write tools until the user sets its intent to "write"
        (``tasks_update``): one approved run must not leave behind a task that writes on every tick without
        asking. It is a ``source = "user"`` task otherwise (in the user's list, which they can edit or remove).

        At most :data:`MAX_ASSISTANT_TASKS` such tasks wait for the user at a time: one approved answer can
        hold hundreds of tool calls, and each task would be analysed on every tick from then on.

        Raises:
            InvalidInput: blank or too long title, invalid recurrence. Conflict: the assistant has
                :data:`MAX_ASSISTANT_TASKS` tasks the user has not confirmed yet.
        """
        clean = clean_title(title)
        schedule = recurrence.parse(recurrence_text)
        async with self._assistant_lock:  # the calls of one answer may run at once: check and add as one
            if await self.store.tasks.count_unconfirmed_by_assistant() >= MAX_ASSISTANT_TASKS:
                raise Conflict(
                    f"The assistant already has {MAX_ASSISTANT_TASKS} tasks of its own that the user has not "
                    "confirmed; it cannot add more until the user confirms or removes some."
                )
            # Its words may ask for a change: then the user sees "May write?" and decides.
            suggestion = WRITE if classify_by_keywords(clean) == WRITE else None
            return await self._add_user_task(clean, schedule, intent=READ, intent_source=ASSISTANT,
                                             origin=ASSISTANT, suggestion=suggestion)

    async def _add_user_task(
        self, title: str, schedule: recurrence.Recurrence, *, intent: str, intent_source: str, origin: str,
        suggestion: str | None = None,
    ) -> Task:
        now = self._clock.now()
        task = await self.store.tasks.add(
            title=title, source="user", recurrence=str(schedule), next_run_at=recurrence.next_run(schedule, now),
            intent=intent, intent_source=intent_source, origin=origin, now=now, intent_suggestion=suggestion,
        )
        log.info("task %s added (%s, %s intent, by %s)", task.id, task.recurrence, task.intent, origin)
        self._bus.publish(TaskChanged(task))
        return task

    async def _existing(self, task_id: object) -> Task:
        if not isinstance(task_id, str) or not task_id:
            raise InvalidInput("task_id", "must be a non-empty string")
        task = await self.store.tasks.get(task_id)
        if task is None:
            raise NotFound(f"There is no task with id {task_id!r}.")
        return task

    async def tasks_rule(self, task_id: object) -> dict[str, object]:
        """What a task watches, the condition it waits for, the action it takes then and its kind (``act`` or
        ``escalate``), and whether the rule is the user's own or read from the title.

        Raises:
            InvalidInput: a bad id. NotFound: no such task.
        """
        task = await self._existing(task_id)
        return {"task_id": task.id, **rule_json(self.rules.for_task(task.id, task.title))}

    async def tasks_rule_set(self, task_id: object, *, watch: object = None, condition: object = None,
                             action: object = None, kind: object = None, reset: object = False) -> dict[str, object]:
        """Change a task's rule (only what is given; the result is the user's own and wins over the title's
        reading), or ``reset`` it to the one read from the title. The next tick judges by it.

        Raises:
            InvalidInput: a value the rule cannot take (see ``task_rules.edited``). NotFound: no such task.
        """
        task = await self._existing(task_id)
        if not isinstance(reset, bool):
            raise InvalidInput("reset", "must be true or false")
        if reset:
            self.rules.set(task.id, None)
        else:
            current = self.rules.for_task(task.id, task.title)
            rule = edited(current, watch=watch, condition=condition, action=action, kind=kind)
            await asyncio.to_thread(self.rules.set, task.id, rule)
        self._bus.publish(TaskChanged(task))
        return await self.tasks_rule(task.id)

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

        An intent given is the user's (``intent_source = "user"``; it answers any "May write?"). A new title
        without one gets the words' intent at once and the model's in the background, unless the user chose
        the intent or the assistant added the task (read-only until the user says otherwise).

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
            changes["intent_source"] = USER
            changes["intent_suggestion"] = None
        elif "title" in changes and task.intent_source != USER and task.origin != ASSISTANT:
            changes["intent"] = classify_by_keywords(changes["title"])
            changes["intent_source"] = KEYWORD
            changes["intent_suggestion"] = None
        if not changes:
            return task
        updated = await self.store.tasks.update(task.id, now, **changes)
        if updated is None:
            raise NotFound(f"There is no task with id {task.id!r}.")
        log.info("task %s updated: %s", task.id, ", ".join(sorted(changes)))
        self._bus.publish(TaskChanged(updated))
        if changes.get("intent_source") == KEYWORD:
            self._intents.submit([(updated.id, updated.title)])
        return updated

    async def tasks_remove(self, task_id: object) -> str:
        """Remove a user task.

        Raises:
            NotFound: no such task. Conflict: system tasks can be disabled, never removed; nor is a task whose
                approved action is being carried out (its outcome needs the task's card and row).
        """
        task = await self._existing(task_id)
        if task.is_system:
            raise Conflict("System tasks cannot be removed; disable them instead.")
        if any(running.task_id == task.id for running in await self.store.escalations.carrying_out()):
            raise Conflict(_BUSY_REMOVING)
        await self._dismiss_open_escalations(task.id)
        if not await self.store.tasks.remove(task.id):
            if await self.store.tasks.get(task.id) is None:
                raise NotFound(f"There is no task with id {task.id!r}.")
            raise Conflict(_BUSY_REMOVING)  # approved between the check and the delete
        log.info("task %s removed", task.id)
        self._bus.publish(TaskRemoved(task.id))
        return task.id

    async def _dismiss_open_escalations(self, task_id: str) -> None:
        """A task that goes away takes its pending cards with it: they are dismissed, and the window told."""
        for pending in await self.store.escalations.pending_for_task(task_id):
            resolved = await self.store.escalations.resolve(pending.id, "dismissed", self._clock.now())
            if resolved is not None:
                self._bus.publish(EscalationChanged(resolved))

    # --- activity log ---------------------------------------------------------------------------

    async def log_list(
        self, limit: int = 50, before: float | None = None, task_id: str | None = None
    ) -> list[LogEntry]:
        return await self.store.log.page(limit=limit, before=before, task_id=task_id)
