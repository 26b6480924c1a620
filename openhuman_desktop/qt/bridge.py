"""The only place where core events become Qt signals (STYLE G3)."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from openhuman_desktop import events
from openhuman_desktop.store import LogEntry, Task


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
    notified = Signal(str, str)            # title, body
    memory_added = Signal(object)          # Memory
    memory_removed = Signal(str)           # memory id

    def __init__(self, bus: events.EventBus, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pending: dict[str, LogEntry] = {}
        self._pending_tasks: dict[str, Task] = {}
        self._flush = QTimer(self)
        self._flush.setSingleShot(True)
        self._flush.setInterval(100)
        self._flush.timeout.connect(self._on_flush_timeout)
        self._flush_tasks = QTimer(self)
        self._flush_tasks.setSingleShot(True)
        self._flush_tasks.setInterval(0)
        self._flush_tasks.timeout.connect(self._on_flush_tasks_timeout)
        self._unsubscribe = [
            bus.subscribe(events.TaskChanged, self._on_task_changed),
            bus.subscribe(events.TaskRemoved, self._on_task_removed),
            bus.subscribe(events.ActivityLogged, self._on_activity_logged),
            bus.subscribe(events.EscalationChanged, lambda e: self.escalation_changed.emit(e.escalation)),
            bus.subscribe(events.TickStarted, lambda e: self.tick_started.emit(e.generation, e.due_count)),
            bus.subscribe(events.TickFinished, lambda e: self.tick_finished.emit(e.generation, e.outcome)),
            bus.subscribe(events.StatusChanged, lambda e: self.status_changed.emit()),
            bus.subscribe(events.Notified, lambda e: self.notified.emit(e.title, e.body)),
            bus.subscribe(events.MemoryAdded, lambda e: self.memory_added.emit(e.memory)),
            bus.subscribe(events.MemoryRemoved, lambda e: self.memory_removed.emit(e.memory_id)),
        ]

    def _on_activity_logged(self, event: events.ActivityLogged) -> None:
        self._pending[event.entry.id] = event.entry
        if not self._flush.isActive():
            self._flush.start()

    def _on_task_changed(self, event: events.TaskChanged) -> None:
        self._pending_tasks[event.task.id] = event.task
        if not self._flush_tasks.isActive():
            self._flush_tasks.start()

    def _on_task_removed(self, event: events.TaskRemoved) -> None:
        self._pending_tasks.pop(event.task_id, None)  # a change still waiting must not bring it back
        self.task_removed.emit(event.task_id)

    def _on_flush_tasks_timeout(self) -> None:
        tasks = list(self._pending_tasks.values())
        self._pending_tasks.clear()
        if tasks:
            self.tasks_changed.emit(tasks)

    def _on_flush_timeout(self) -> None:
        batch = list(self._pending.values())
        self._pending.clear()
        if batch:
            self.activity_batch.emit(batch)

    def detach(self) -> None:
        """Stop listening to the bus (before the window goes away)."""
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe.clear()
