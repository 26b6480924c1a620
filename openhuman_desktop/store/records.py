"""The rows of subconscious.db as frozen dataclasses, and their JSON form (CONTRACT §4)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

JsonDict = dict[str, Any]


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
        return cls(
            id=row["id"], title=row["title"], source=row["source"], recurrence=row["recurrence"],
            enabled=bool(row["enabled"]), last_run_at=row["last_run_at"], next_run_at=row["next_run_at"],
            completed=bool(row["completed"]), created_at=row["created_at"], intent=row["intent"],
            origin=row["origin"], intent_source=row["intent_source"], updated_at=row["updated_at"],
        )

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
        return cls(
            id=row["id"], task_id=row["task_id"], tick_at=row["tick_at"], decision=row["decision"],
            result=row["result"], duration_ms=row["duration_ms"], created_at=row["created_at"],
            task_title=row["task_title"], generation=row["generation"],
        )

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
        return cls(
            id=row["id"], task_id=row["task_id"], log_id=row["log_id"], title=row["title"],
            description=row["description"], priority=row["priority"], status=row["status"],
            created_at=row["created_at"], resolved_at=row["resolved_at"],
        )

    def to_json(self) -> JsonDict:
        return {
            "id": self.id, "task_id": self.task_id, "log_id": self.log_id, "title": self.title,
            "description": self.description, "priority": self.priority, "status": self.status,
            "created_at": self.created_at, "resolved_at": self.resolved_at,
        }
