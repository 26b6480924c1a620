"""Fixtures for Qt tests: one qasync loop, the real Services on fake model servers, and a faked engine.

How to drive async GUI code from a (synchronous) test:

* ``qloop`` — a ``qasync.QEventLoop`` on ``qapp``, set as the current loop, closed at teardown.
* ``qrun(awaitable, timeout=30)`` — ``qloop.run_until_complete`` with a timeout; use it for every await.
* ``until(predicate, timeout=20)`` — run the loop until ``predicate()`` is true (events, timers and
  background tasks all progress); fails the test on timeout.
* ``settle(window_or_jobs)`` — run the loop until the window's jobs (what its slots started) are done,
  re-raising a job's unexpected exception.
* Clicking a button whose slot starts a job creates that job on the (not running) loop; call ``settle``
  right after. Never spin Qt with ``qtbot.wait*`` while a job is pending (it would run a task outside
  the loop), and never call ``qtbot.wait*`` inside a coroutine on qasync (deadlock, STYLE G10).

Services:

* ``gui_harness`` — ``tests.fakes.engine_harness.open_harness``: the real ``bootstrap.build`` Services on a
  temporary workspace with a ``FakeClock``, the local tier on ``FakeOllama`` and agentic-v1 on
  ``FakeOpenAI``, both answered by scriptable ``Brain`` s (``gui_harness.local`` / ``.reasoning``). The
  built-in system tasks are kept and started (``services.start()``).
* ``gui_services`` — ``gui_harness.services``.
* ``bridge`` — a ``CoreBridge`` on ``gui_services.bus`` (detached at teardown).
* ``intelligence_window`` — the ``IntelligenceWindow`` on those, refreshed, shown offscreen, closed at teardown.
* ``fake_services`` / ``fake_bridge`` / ``fake_window`` — the same window over ``FakeSubconscious`` (an
  in-memory service whose calls can be made to fail or wait), ``FakeMemory`` and a ``SkillRegistry`` of
  ``FakeSkill`` s; emit the bridge's signals by hand to simulate the engine.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any, TypeVar

import pytest
import qasync
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from openhuman_desktop import events, recurrence
from openhuman_desktop.errors import Conflict, NotFound
from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.memory.store import Memory, clean_text, query_terms
from openhuman_desktop.qt.app import new_event_loop
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.bridge import CoreBridge
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.ports import MemoryPorts, SkillsPorts, SubconsciousPorts, WindowPorts
from openhuman_desktop.qt.wiring import local_model_problem, window_ports
from openhuman_desktop.skills.base import SkillHealth, SkillRegistry, SkillSetting, Tool, ToolResult
from openhuman_desktop.store import Escalation, LogEntry, Task
from openhuman_desktop.subconscious.approvals import card_choices
from openhuman_desktop.subconscious.service import clean_title
from openhuman_desktop.subconscious.task_rules import TaskRules, edited, rule_json
from tests.fakes.clock import FakeClock
from tests.fakes.engine_harness import Harness, open_harness

T = TypeVar("T")
NOW = 1_790_000_000.0


# --- the loop -----------------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _delete_qt_objects_on_this_thread(qapp: QApplication) -> Iterator[None]:
    """Delete what tests ``deleteLater``-ed and collect reference cycles here, on the GUI thread.

    Otherwise a parentless widget kept alive by a cycle may be collected later by the garbage collector
    running on an aiosqlite or fake-server thread, and Qt warns "Timers cannot be stopped from another
    thread" (a WARNING, which fails whatever test is running then).
    """
    yield
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    gc.collect()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)


@pytest.fixture
def qloop(qapp: QApplication) -> Iterator[asyncio.AbstractEventLoop]:
    """The one qasync loop of a test — the app's own loop class (``app.new_event_loop``, which works around
    qasync running callbacks outside the loop); pending tasks are cancelled and the loop closed at teardown."""
    loop = new_event_loop(qapp)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()
        asyncio.set_event_loop(None)


Run = Callable[..., Any]


@pytest.fixture
def qrun(qloop: qasync.QEventLoop) -> Run:
    """``qrun(awaitable, timeout=30)``: run it to completion on the qasync loop and return its result."""

    def run(awaitable: Awaitable[T], timeout: float = 30.0) -> T:
        async def bounded() -> T:
            Jobs.start_all_deferred()   # jobs clicked into existence while the loop was not running
            return await asyncio.wait_for(awaitable, timeout)

        return qloop.run_until_complete(bounded())

    return run


@pytest.fixture
def until(qrun: Run) -> Callable[..., None]:
    """``until(predicate, timeout=20, message="")``: run the loop until ``predicate()`` holds."""

    def wait(predicate: Callable[[], object], timeout: float = 20.0, message: str = "") -> None:
        async def poll() -> None:
            deadline = time.monotonic() + timeout
            while not predicate():
                Jobs.start_all_deferred()
                if time.monotonic() > deadline:
                    raise AssertionError(f"condition not reached within {timeout} s {message}".strip())
                await asyncio.sleep(0.01)

        qrun(poll(), timeout=timeout + 5)

    return wait


@pytest.fixture
def settle(qrun: Run) -> Callable[[Any], None]:
    """``settle(window_or_jobs)``: run the loop until the jobs its slots started are finished."""

    def wait(owner: Any) -> None:
        jobs: Jobs = owner if isinstance(owner, Jobs) else owner.jobs
        qrun(jobs.wait_idle())

    return wait


# --- the real services on fake model servers ------------------------------------------------------------


@pytest.fixture
def gui_harness(qrun: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Harness]:
    """The real app core (started, system tasks kept) on fake model servers; see the module docstring."""
    manager = open_harness(tmp_path, monkeypatch, keep_system_tasks=True)
    harness = qrun(manager.__aenter__())
    try:
        yield harness
    finally:
        qrun(manager.__aexit__(None, None, None))


@pytest.fixture
def gui_services(gui_harness: Harness) -> Any:
    return gui_harness.services


@pytest.fixture
def bridge(qapp: QApplication, gui_services: Any) -> Iterator[CoreBridge]:
    core_bridge = CoreBridge(gui_services.bus)
    try:
        yield core_bridge
    finally:
        core_bridge.detach()
        core_bridge.deleteLater()


@contextlib.contextmanager
def open_window(qrun: Run, services: Any, core_bridge: CoreBridge) -> Iterator[IntelligenceWindow]:
    """Build, refresh and show the window; at the end ``aclose()`` it (on the loop) and delete it.

    Not registered with ``qtbot.addWidget``: pytest-qt would close and delete it before fixture teardown.
    """
    window = IntelligenceWindow(ports_of(services), core_bridge)
    try:
        qrun(window.refresh())
        window.show()
        qrun(window.jobs.wait_idle())
        yield window
    finally:
        qrun(window.aclose())
        window.hide()
        window.deleteLater()
    assert not window_failures(window), window_failures(window)


def ports_of(services: Any) -> WindowPorts:
    """The window's ports: the fakes' own, or built from the real services as the app builds them."""
    return services.ports() if isinstance(services, FakeServices) else window_ports(services)


def window_failures(window: IntelligenceWindow) -> list[BaseException]:
    return list(window.jobs.failures)


@pytest.fixture
def intelligence_window(qtbot: Any, qrun: Run, gui_services: Any, bridge: CoreBridge) -> Iterator[IntelligenceWindow]:
    """The Intelligence window on the real services, refreshed and shown (offscreen)."""
    with open_window(qrun, gui_services, bridge) as window:
        yield window


# --- a faked engine -------------------------------------------------------------------------------------


def make_task(title: str = "Check urgent emails", *, source: str = "user", task_id: str | None = None,
              recurrence_text: str = "pending", enabled: bool = True, intent: str = "read",
              created_at: float = NOW, origin: str | None = None, **extra: Any) -> Task:
    return Task(
        id=task_id or str(uuid.uuid4()), title=title, source=source, recurrence=recurrence_text, enabled=enabled,
        last_run_at=extra.get("last_run_at"), next_run_at=extra.get("next_run_at"),
        completed=extra.get("completed", False), created_at=created_at, intent=intent,
        origin=origin or ("default" if source == "system" else "user"), intent_source="user", updated_at=created_at,
    )


def make_entry(n: int = 0, *, decision: str = "noop", result: str = "Nothing new", task_id: str = "task-1",
               title: str = "Check urgent emails", created_at: float | None = None, entry_id: str | None = None,
               duration_ms: int | None = 120) -> LogEntry:
    at = NOW - n if created_at is None else created_at
    return LogEntry(
        id=entry_id or f"log-{n:07d}", task_id=task_id, tick_at=at, decision=decision, result=result,
        duration_ms=None if decision == "in_progress" else duration_ms, created_at=at, task_title=title,
        generation=1,
    )


def make_escalation(title: str = "Check urgent emails", description: str = "Forward 3 urgent emails to #team-alerts",
                    *, priority: str = "important", escalation_id: str | None = None, status: str = "pending",
                    created_at: float = NOW) -> Escalation:
    # Its buttons and skill as the core decides them when it raises a card (issue 25), for the fake skills.
    choices, skill = card_choices(title, description, [("files", "Workspace files"), ("gmail", "Gmail"),
                                                       ("notify", "Desktop notifications")])
    return Escalation(
        id=escalation_id or str(uuid.uuid4()), task_id="task-1", log_id=None, title=title, description=description,
        priority=priority, status=status, created_at=created_at, resolved_at=None, choices=choices, skill=skill,
    )


def base_status(**changes: Any) -> dict[str, Any]:
    status: dict[str, Any] = {
        "enabled": True, "inference_enabled": True, "interval_minutes": 5, "state": "idle",
        "state_reason": "Waiting for the next tick.", "task_count": 3, "total_ticks": 12,
        "last_tick_at": NOW - 240, "consecutive_failures": 0, "pending_escalations": 0, "next_tick_at": NOW + 60,
    }
    status.update(changes)
    return status


class FakeSubconscious:
    """An in-memory SubconsciousService.

    ``fail[method] = exc`` makes the next call of ``method`` raise ``exc``; ``gates[method] = asyncio.Event()``
    makes calls wait until the event is set; ``calls`` records ``(method, args)``.
    """

    def __init__(self, tasks: Iterable[Task] = (), log: Iterable[LogEntry] = (),
                 escalations: Iterable[Escalation] = ()) -> None:
        self.tasks: dict[str, Task] = {task.id: task for task in tasks}
        self.log: list[LogEntry] = list(log)
        self.escalations: dict[str, Escalation] = {esc.id: esc for esc in escalations}
        self.current = base_status()
        self.fail: dict[str, Exception] = {}
        self.gates: dict[str, asyncio.Event] = {}
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.triggered = 0
        self.rules = TaskRules()

    async def _enter(self, method: str, *args: Any) -> None:
        self.calls.append((method, args))
        gate = self.gates.get(method)
        if gate is not None:
            await gate.wait()
        error = self.fail.pop(method, None)
        if error is not None:
            raise error

    def called(self, method: str) -> list[tuple[Any, ...]]:
        return [args for name, args in self.calls if name == method]

    async def status(self) -> dict[str, Any]:
        await self._enter("status")
        return dict(self.current, task_count=len(self.tasks) if self.tasks else self.current["task_count"])

    def trigger(self) -> None:
        self.calls.append(("trigger", ()))
        error = self.fail.pop("trigger", None)
        if error is not None:
            raise error
        self.triggered += 1

    async def tasks_list(self, enabled_only: bool = False) -> list[Task]:
        await self._enter("tasks_list")
        return sorted(self.tasks.values(), key=lambda t: (t.source == "user", t.created_at, t.id))

    async def tasks_add(self, title: object, recurrence_text: object = "pending") -> Task:
        await self._enter("tasks_add", title, recurrence_text)
        clean = clean_title(title)
        schedule = recurrence.parse(recurrence_text)
        task = make_task(clean, recurrence_text=str(schedule), created_at=NOW + len(self.tasks))
        self.tasks[task.id] = task
        return task

    async def tasks_update(self, task_id: object, *, title: object = None, enabled: object = None,
                           recurrence_text: object = None, intent: object = None) -> Task:
        await self._enter("tasks_update", task_id, {"title": title, "enabled": enabled,
                                                    "recurrence": recurrence_text, "intent": intent})
        task = self.tasks.get(str(task_id))
        if task is None:
            raise NotFound(f"There is no task with id {task_id!r}.")
        changes: dict[str, Any] = {}
        if enabled is not None:
            changes["enabled"] = enabled
        if intent is not None:
            changes["intent"] = intent
        if title is not None:
            clean = clean_title(title)
            if clean != task.title and task.origin == "heartbeat_md":
                raise Conflict("This task comes from HEARTBEAT.md; edit its line in that file instead.")
            changes["title"] = clean
        if recurrence_text is not None:
            changes["recurrence"] = str(recurrence.parse(recurrence_text))
        task = replace(task, **changes)
        self.tasks[task.id] = task
        return task

    async def tasks_rule(self, task_id: object) -> dict[str, object]:
        """The real rules (``task_rules``), kept in memory."""
        await self._enter("tasks_rule", task_id)
        task = self.tasks.get(str(task_id))
        if task is None:
            raise NotFound(f"There is no task with id {task_id!r}.")
        return {"task_id": task.id, **rule_json(self.rules.for_task(task.id, task.title))}

    async def tasks_rule_set(self, task_id: object, *, watch: object = None, condition: object = None,
                             action: object = None, kind: object = None, reset: object = False) -> dict[str, object]:
        await self._enter("tasks_rule_set", task_id, {"watch": watch, "condition": condition, "action": action,
                                                      "kind": kind, "reset": reset})
        task = self.tasks[str(task_id)]
        if reset:
            self.rules.set(task.id, None)
        else:
            current = self.rules.for_task(task.id, task.title)
            self.rules.set(task.id, edited(current, watch=watch, condition=condition, action=action, kind=kind))
        return await self.tasks_rule(task_id)

    async def tasks_remove(self, task_id: object) -> str:
        await self._enter("tasks_remove", task_id)
        task = self.tasks.get(str(task_id))
        if task is None:
            raise NotFound(f"There is no task with id {task_id!r}.")
        if task.is_system:
            raise Conflict("System tasks cannot be removed; disable them instead.")
        del self.tasks[task.id]
        return task.id

    async def log_list(self, limit: int = 50, before: float | None = None,
                       task_id: str | None = None) -> list[LogEntry]:
        await self._enter("log_list", limit, before, task_id)
        rows = [e for e in self.log if (before is None or e.created_at < before)
                and (task_id is None or e.task_id == task_id)]
        rows.sort(key=lambda e: (e.created_at, e.id), reverse=True)
        return rows[:limit]

    async def escalations_list(self, status: object = None) -> list[Escalation]:
        await self._enter("escalations_list", status)
        found = [e for e in self.escalations.values() if status is None or e.status == status]
        return sorted(found, key=lambda e: e.created_at, reverse=True)

    async def _resolve(self, method: str, escalation_id: object, status: str) -> str:
        await self._enter(method, escalation_id)
        esc = self.escalations.get(str(escalation_id))
        if esc is None:
            raise NotFound(f"There is no escalation with id {escalation_id!r}.")
        if esc.status != "pending":
            raise Conflict(f"This escalation is already {esc.status}; nothing was done.")
        self.escalations[esc.id] = replace(esc, status=status, resolved_at=NOW)
        return esc.id

    async def escalations_approve(self, escalation_id: object) -> str:
        return await self._resolve("escalations_approve", escalation_id, "approved")

    async def escalations_dismiss(self, escalation_id: object) -> str:
        return await self._resolve("escalations_dismiss", escalation_id, "dismissed")


class FakeMemory:
    """An in-memory MemoryStore (add / search / list / count)."""

    def __init__(self, memories: Sequence[Memory] = ()) -> None:
        self.memories = list(memories)
        self.fail: dict[str, Exception] = {}

    def _check(self, method: str) -> None:
        error = self.fail.pop(method, None)
        if error is not None:
            raise error

    async def add(self, text: object, source: str = "user", tags: Iterable[str] = ()) -> Memory:
        self._check("add")
        memory = Memory(str(uuid.uuid4()), clean_text(text), source, NOW + len(self.memories), tuple(tags))
        self.memories.append(memory)
        return memory

    async def search(self, query: object, limit: int = 20) -> list[Memory]:
        self._check("search")
        terms = [t.lower() for t in query_terms(query)]
        found = [m for m in self.memories if all(t in m.text.lower() for t in terms)]
        return sorted(found, key=lambda m: m.created_at, reverse=True)[:limit]

    async def list(self, limit: int = 50, before: float | None = None) -> list[Memory]:
        self._check("list")
        found = [m for m in self.memories if before is None or m.created_at < before]
        return sorted(found, key=lambda m: (m.created_at, m.id), reverse=True)[:limit]

    async def count(self) -> int:
        return len(self.memories)

    async def remove(self, memory_id: str) -> None:
        self._check("remove")
        if not any(m.id == memory_id for m in self.memories):
            raise NotFound(f"No memory has the id {memory_id!r}.")
        self.memories = [m for m in self.memories if m.id != memory_id]


@dataclass
class FakeSkill:
    """A skill with fixed tools, health and settings."""

    name: str
    title: str
    description: str = "A fake skill."
    tool_specs: Sequence[tuple[str, bool, str]] = ()
    status: SkillHealth = field(default_factory=lambda: SkillHealth("connected", "ok"))
    setting_values: Sequence[tuple[str, str]] = ()

    def tools(self) -> Sequence[Tool]:
        async def run(_args: Any, _context: Any = None) -> ToolResult:
            return ToolResult("done")

        return [Tool(ToolSpec(name=name, description=text, parameters={"type": "object", "properties": {}}),
                     writes=writes, run=run) for name, writes, text in self.tool_specs]

    async def health(self) -> SkillHealth:
        return self.status

    def settings(self) -> Sequence[SkillSetting]:
        return [SkillSetting(name, value) for name, value in self.setting_values]


def fake_skills() -> SkillRegistry:
    registry = SkillRegistry()
    registry.add(FakeSkill("files", "Workspace files", "Reads and writes files.",
                           [("files_read", False, "Read a file."), ("files_write", True, "Write a file.")],
                           setting_values=[("root", "/tmp/workspace")]))
    registry.add(FakeSkill("gmail", "Gmail", "Reads your mail.", [("gmail_search", False, "Search mail.")],
                           SkillHealth("error", "OAuth token expired; sign in again")))
    registry.add(FakeSkill("notify", "Desktop notifications", "Shows notifications.",
                           [("notify_user", True, "Show a notification.")]))
    return registry


@dataclass
class FakeServices:
    """What the window reads from ``Services``, with fakes."""

    subconscious: FakeSubconscious
    memory: FakeMemory
    skills: SkillRegistry
    clock: FakeClock
    bus: events.EventBus
    models: Any = None

    @property
    def memories(self) -> FakeMemory:
        """The memory service's part (reads and writes): the fake memory plays it too."""
        return self.memory

    @property
    def approvals(self) -> FakeSubconscious:
        """The approval gate's part (Go ahead / Skip, the cards): the fake subconscious plays it too."""
        return self.subconscious

    def ports(self) -> WindowPorts:
        """The window's ports on these fakes: no chat, no Agent tab services, no skill actions, no chart."""
        service = self.subconscious
        return WindowPorts(
            now=self.clock.now,
            subconscious=SubconsciousPorts(
                status=service, tasks=service, rules=service, log=service.log_list, approvals=self.approvals,
                escalations=self.approvals.escalations_list,
                model_problem=lambda: None if self.models is None else local_model_problem(self.models),
            ),
            skills=SkillsPorts(self.skills),
            memory=MemoryPorts(self.memories),
        )


@pytest.fixture
def fake_services() -> FakeServices:
    system = [make_task(title, source="system", task_id=f"sys-{n}", created_at=NOW - 100 + n)
              for n, title in enumerate(("Check connected skills for errors or disconnections",
                                         "Review new memory updates for actionable items"))]
    user = [make_task("Check urgent emails", task_id="user-1", created_at=NOW - 10),
            make_task("Send daily summary to Slack", task_id="user-2", recurrence_text="cron:0 9 * * 1-5",
                      intent="write", created_at=NOW - 5, next_run_at=NOW + 3600)]
    return FakeServices(FakeSubconscious(system + user), FakeMemory(), fake_skills(), FakeClock(NOW),
                        events.EventBus())


@pytest.fixture
def fake_bridge(qapp: QApplication, fake_services: FakeServices) -> Iterator[CoreBridge]:
    core_bridge = CoreBridge(fake_services.bus)
    try:
        yield core_bridge
    finally:
        core_bridge.detach()
        core_bridge.deleteLater()


@pytest.fixture
def fake_window(qtbot: Any, qrun: Run, fake_services: FakeServices,
                fake_bridge: CoreBridge) -> Iterator[IntelligenceWindow]:
    """The Intelligence window over the faked engine, refreshed and shown (offscreen)."""
    with open_window(qrun, fake_services, fake_bridge) as window:
        yield window


@pytest.fixture
def fakes() -> SimpleNamespace:
    """The fake classes and record makers of this file, for test modules (they cannot import a conftest):
    ``NOW``, ``make_task``, ``make_entry``, ``make_escalation``, ``base_status``, ``FakeSubconscious``,
    ``FakeMemory``, ``FakeSkill``, ``FakeServices``, ``fake_skills``."""
    return SimpleNamespace(
        NOW=NOW, make_task=make_task, make_entry=make_entry, make_escalation=make_escalation,
        base_status=base_status, FakeSubconscious=FakeSubconscious, FakeMemory=FakeMemory, FakeSkill=FakeSkill,
        FakeServices=FakeServices, fake_skills=fake_skills,
    )
