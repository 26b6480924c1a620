"""The only place where core events become Qt signals (STYLE G3)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from openhuman_desktop import events
from openhuman_desktop.memory.events import MemoryAdded, MemoryRemoved
from openhuman_desktop.orchestration.events import (
    NodeFinished,
    ReflectionFinished,
    ReflectionStarted,
    RunFinished,
    RunStarted,
    SteeringChanged,
)
from openhuman_desktop.store.events import ActivityLogged, EscalationChanged, TaskChanged, TaskRemoved


class _Batch(QObject):
    """The newest snapshot of each item by id, handed on as one list ``delay_ms`` after the first arrived."""

    def __init__(self, delay_ms: int, emit: Callable[[list[Any]], None], parent: QObject) -> None:
        super().__init__(parent)
        self._items: dict[str, Any] = {}
        self._emit = emit
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self._on_timer_timeout)

    def add(self, key: str, item: Any) -> None:
        self._items[key] = item
        if not self._timer.isActive():
            self._timer.start()

    def drop(self, key: str) -> None:
        self._items.pop(key, None)

    def _on_timer_timeout(self) -> None:
        items = list(self._items.values())
        self._items.clear()
        if items:
            self._emit(items)


class CoreBridge(QObject):
    """Re-emits core events as signals on the GUI thread (the loop is shared, so no queuing is needed).

    Activity rows are collapsed: many updates within 100 ms arrive as one ``activity_batch`` with the
    latest snapshot of each row. Task changes published together (a tick changes every due task's
    schedule; one by one they held the loop ~100 ms) arrive as one ``tasks_changed`` once the loop is
    free again.
    """

    tasks_changed = Signal(list)           # list[Task], newest snapshot per task id
    task_removed = Signal(str)             # task id
    activity_batch = Signal(list)          # list[LogEntry], newest snapshot per row id
    escalation_changed = Signal(object)    # Escalation
    tick_started = Signal(int, int)        # generation, due count
    tick_finished = Signal(int, str)       # generation, outcome
    status_changed = Signal()
    skills_changed = Signal()              # a skill's state or tools changed (the Skills tab refreshes)
    notified = Signal(str, str)            # title, body
    memory_added = Signal(object)          # Memory
    memory_removed = Signal(str)           # memory id
    run_started = Signal(object)           # Run (the Agent tab)
    node_finished = Signal(str, str, int)  # run id, node, step
    run_finished = Signal(object)          # Run
    steering_changed = Signal(object)      # Directive
    reflection_started = Signal(str)       # trigger
    reflection_finished = Signal(object)   # Reflection

    def __init__(self, bus: events.EventBus, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._activity = _Batch(100, self.activity_batch.emit, self)
        self._tasks = _Batch(0, self.tasks_changed.emit, self)
        self._unsubscribe = [
            bus.subscribe(TaskChanged, lambda e: self._tasks.add(e.task.id, e.task)),
            bus.subscribe(TaskRemoved, self._on_task_removed),
            bus.subscribe(ActivityLogged, lambda e: self._activity.add(e.entry.id, e.entry)),
            bus.subscribe(EscalationChanged, lambda e: self.escalation_changed.emit(e.escalation)),
            bus.subscribe(events.TickStarted, lambda e: self.tick_started.emit(e.generation, e.due_count)),
            bus.subscribe(events.TickFinished, lambda e: self.tick_finished.emit(e.generation, e.outcome)),
            bus.subscribe(events.StatusChanged, lambda e: self.status_changed.emit()),
            bus.subscribe(events.SkillsChanged, lambda e: self.skills_changed.emit()),
            bus.subscribe(events.Notified, lambda e: self.notified.emit(e.title, e.body)),
            bus.subscribe(MemoryAdded, lambda e: self.memory_added.emit(e.memory)),
            bus.subscribe(MemoryRemoved, lambda e: self.memory_removed.emit(e.memory_id)),
            bus.subscribe(RunStarted, lambda e: self.run_started.emit(e.run)),
            bus.subscribe(NodeFinished, lambda e: self.node_finished.emit(e.run_id, e.node, e.step)),
            bus.subscribe(RunFinished, lambda e: self.run_finished.emit(e.run)),
            bus.subscribe(SteeringChanged, lambda e: self.steering_changed.emit(e.directive)),
            bus.subscribe(ReflectionStarted, lambda e: self.reflection_started.emit(e.trigger)),
            bus.subscribe(ReflectionFinished, lambda e: self.reflection_finished.emit(e.reflection)),
        ]

    def _on_task_removed(self, event: TaskRemoved) -> None:
        self._tasks.drop(event.task_id)  # a change still waiting must not bring it back
        self.task_removed.emit(event.task_id)

    def detach(self) -> None:
        """Stop listening to the bus (before the window goes away)."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe.clear()
