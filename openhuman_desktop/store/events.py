"""What the subconscious publishes about its records — tasks, activity rows, approval cards — each event carrying
the record's new snapshot, typed, so a listener that reads a field the record does not have fails mypy."""

from __future__ import annotations

from dataclasses import dataclass

from openhuman_desktop.events import Event
from openhuman_desktop.store.records import Escalation, LogEntry, Task

__all__ = ["ActivityLogged", "EscalationChanged", "TaskChanged", "TaskRemoved"]


@dataclass(frozen=True)
class TaskChanged(Event):
    """A task was added or changed; ``task`` is the new snapshot."""

    task: Task


@dataclass(frozen=True)
class TaskRemoved(Event):
    """A task was removed."""

    task_id: str


@dataclass(frozen=True)
class ActivityLogged(Event):
    """A log row was inserted or updated in place; ``entry`` is the new snapshot."""

    entry: LogEntry


@dataclass(frozen=True)
class EscalationChanged(Event):
    """An escalation was created or resolved; ``escalation`` is the new snapshot."""

    escalation: Escalation
