"""The rows of subconscious.db as frozen dataclasses, and their JSON form (CONTRACT §4)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

JsonDict = dict[str, Any]

# What each repository selects, in the order of the dataclass fields (``from_row`` reads by position).
TASK_COLUMNS = ("id, title, source, recurrence, enabled, last_run_at, next_run_at, completed, created_at, intent, "
                "origin, intent_source, updated_at")
LOG_COLUMNS = "id, task_id, tick_at, decision, result, duration_ms, created_at, task_title, generation"
ESCALATION_COLUMNS = "id, task_id, log_id, title, description, priority, status, created_at, resolved_at"


@dataclass(frozen=True)
class Task:
    """A subconscious task: a system default, a HEARTBEAT.md line or the user's own."""

    id: str
    title: str
    source: str
    recurrence: str
    enabled: bool
    last_run_at: float | None
    next_run_at: float | None
    completed: bool
    created_at: float
    intent: str
    origin: str
    intent_source: str
    updated_at: float

    @property
    def is_system(self) -> bool:
        return self.source == "system"

    @property
    def is_write(self) -> bool:
        return self.intent == "write"

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Task:
        """A task from a row selected as ``TASK_COLUMNS`` (by position: the tick reads thousands)."""
        (task_id, title, source, recurrence, enabled, last_run_at, next_run_at, completed, created_at, intent,
         origin, intent_source, updated_at) = row
        return cls(task_id, title, source, recurrence, bool(enabled), last_run_at, next_run_at, bool(completed),
                   created_at, intent, origin, intent_source, updated_at)

    def to_json(self) -> JsonDict:
        return {
            "id": self.id, "title": self.title, "source": self.source, "recurrence": self.recurrence,
            "enabled": self.enabled, "last_run_at": self.last_run_at, "next_run_at": self.next_run_at,
            "completed": self.completed, "created_at": self.created_at, "intent": self.intent,
            "origin": self.origin, "intent_source": self.intent_source,
        }


@dataclass(frozen=True)
class LogEntry:
    """One row of the activity log; ``in_progress`` rows are updated in place to their outcome."""

    id: str
    task_id: str
    tick_at: float
    decision: str
    result: str
    duration_ms: int | None
    created_at: float
    task_title: str
    generation: int | None = None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> LogEntry:
        """A log entry from a row selected as ``LOG_COLUMNS``."""
        return cls(*row)

    def to_json(self) -> JsonDict:
        return {
            "id": self.id, "task_id": self.task_id, "tick_at": self.tick_at, "decision": self.decision,
            "result": self.result, "duration_ms": self.duration_ms, "created_at": self.created_at,
            "task_title": self.task_title,
        }


@dataclass(frozen=True)
class Escalation:
    """Something the assistant wants to do that the user did not ask for: a Go ahead / Skip card."""

    id: str
    task_id: str
    log_id: str | None
    title: str
    description: str
    priority: str
    status: str
    created_at: float
    resolved_at: float | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Escalation:
        """An escalation from a row selected as ``ESCALATION_COLUMNS``."""
        return cls(*row)

    def to_json(self) -> JsonDict:
        return {
            "id": self.id, "task_id": self.task_id, "log_id": self.log_id, "title": self.title,
            "description": self.description, "priority": self.priority, "status": self.status,
            "created_at": self.created_at, "resolved_at": self.resolved_at,
        }
