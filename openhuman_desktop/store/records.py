"""The rows of subconscious.db as frozen dataclasses, and their JSON form (CONTRACT §4)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

JsonDict = dict[str, Any]

# What each repository selects, in the order of the dataclass fields (``from_row`` reads by position).
TASK_COLUMNS = ("id, title, source, recurrence, enabled, last_run_at, next_run_at, completed, created_at, intent, "
                "origin, intent_source, updated_at, intent_suggestion")
LOG_COLUMNS = "id, task_id, tick_at, decision, result, duration_ms, created_at, task_title, generation"
ESCALATION_COLUMNS = ("id, task_id, log_id, title, description, priority, status, created_at, resolved_at, note, "
                      "run_id, thread_id, choices, skill, proposed_call, run_log_id, approvals")

CardStatus = Literal["pending", "approved", "dismissed"]
"""An approval card's status: waiting for the person, Go ahead pressed (carried out or being), or skipped."""
PENDING: Final = "pending"
APPROVED: Final = "approved"
DISMISSED: Final = "dismissed"
CARD_STATUSES: tuple[CardStatus, ...] = (PENDING, APPROVED, DISMISSED)

GO_AHEAD = "go_ahead"
SKIP = "skip"
FIX_IN_SKILLS = "fix_in_skills"
RETRY = "retry"
CHOICES = (GO_AHEAD, FIX_IN_SKILLS, RETRY, SKIP)
"""A card's buttons, decided once when it is raised (or when it comes back) and shown alike on every surface:
Go ahead / Skip, Fix in Skills / Skip (the card is about a skill), Retry / Skip (Go ahead changed nothing)."""
ACT_CHOICES = (GO_AHEAD, SKIP)
SKILL_CHOICES = (FIX_IN_SKILLS, SKIP)
RETRY_CHOICES = (RETRY, SKIP)


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
    intent_suggestion: str | None = None
    """``write`` while the task stays read-only but the model or its words ask for a change ("May write?")."""

    @property
    def is_system(self) -> bool:
        return self.source == "system"

    @property
    def is_write(self) -> bool:
        return self.intent == "write"

    @property
    def suggested_intent(self) -> str | None:
        """What the person is asked to confirm: ``write`` on a read-only task ("May write?"), else None."""
        return self.intent_suggestion if self.intent_suggestion and self.intent_suggestion != self.intent else None

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> Task:
        """A task from values in the order of ``TASK_COLUMNS``: a row, or the values just written.

        A tick builds thousands of these, so the instance is filled by position and directly: the frozen
        ``__init__`` calls ``object.__setattr__`` once per field, which makes it four times slower.
        """
        task = object.__new__(cls)
        f = task.__dict__
        (f["id"], f["title"], f["source"], f["recurrence"], enabled, f["last_run_at"], f["next_run_at"], completed,
         f["created_at"], f["intent"], f["origin"], f["intent_source"], f["updated_at"], f["intent_suggestion"]) = row
        f["enabled"], f["completed"] = bool(enabled), bool(completed)
        return task

    def to_json(self) -> JsonDict:
        return {
            "id": self.id, "title": self.title, "source": self.source, "recurrence": self.recurrence,
            "enabled": self.enabled, "last_run_at": self.last_run_at, "next_run_at": self.next_run_at,
            "completed": self.completed, "created_at": self.created_at, "intent": self.intent,
            "origin": self.origin, "intent_source": self.intent_source, "intent_suggestion": self.suggested_intent,
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
    def from_row(cls, row: Sequence[Any]) -> LogEntry:
        """A log entry from values in the order of ``LOG_COLUMNS`` (filled directly, as ``Task.from_row``)."""
        entry = object.__new__(cls)
        f = entry.__dict__
        (f["id"], f["task_id"], f["tick_at"], f["decision"], f["result"], f["duration_ms"], f["created_at"],
         f["task_title"], f["generation"]) = row
        return entry

    def to_json(self) -> JsonDict:
        return {
            "id": self.id, "task_id": self.task_id, "tick_at": self.tick_at, "decision": self.decision,
            "result": self.result, "duration_ms": self.duration_ms, "created_at": self.created_at,
            "task_title": self.task_title,
        }


@dataclass(frozen=True)
class Escalation:
    """Something the assistant wants to do that the user did not ask for: a Go ahead / Skip card.

    A heartbeat card has its task (and usually its log row); a card raised in a conversation (an agent run's
    ``RECOMMENDED ACTION:``) has ``task_id`` and ``log_id`` None and its ``run_id`` and ``thread_id``.
    """

    id: str
    task_id: str | None
    log_id: str | None
    title: str
    description: str
    priority: str
    status: CardStatus
    created_at: float
    resolved_at: float | None
    note: str = ""  # why the card came back and what already ran; "" when none
    run_id: str | None = None  # the agent run that raised it
    thread_id: str | None = None  # that run's conversation
    choices: tuple[str, ...] = ACT_CHOICES  # its buttons (:data:`CHOICES`), the same on every surface
    skill: str | None = None  # the skill it is about (Fix in Skills opens it), or None
    call: JsonDict | None = None  # an exact-call card's call: {tool, arguments, reason, skill}
    run_log_id: str | None = None  # the activity row its latest Go ahead added
    approvals: int = 0  # how many times it was approved (its latest Go ahead's number)

    @property
    def is_conversation(self) -> bool:
        """Raised in a conversation (no heartbeat task): approving it is the agent's job, in that thread."""
        return self.task_id is None

    @property
    def is_call(self) -> bool:
        """An exact-call card: Go ahead carries out one tool call as it is, with no model."""
        return self.call is not None

    @classmethod
    def from_row(cls, row: sqlite3.Row | Sequence[Any]) -> Escalation:
        """An escalation from a row selected as ``ESCALATION_COLUMNS``."""
        values = list(row)
        choices = _json_list(values[12]) or list(ACT_CHOICES)
        call = json.loads(values[14]) if values[14] else None
        (id_, task_id, log_id, title, description, priority, status, created_at, resolved_at, note, run_id,
         thread_id) = values[:12]
        return cls(id_, task_id, log_id, title, description, priority, status, created_at, resolved_at, note, run_id,
                   thread_id, tuple(choices), values[13], call if isinstance(call, dict) else None, values[15],
                   int(values[16] or 0))

    def to_json(self) -> JsonDict:
        return {
            "id": self.id, "task_id": self.task_id, "log_id": self.log_id, "title": self.title,
            "description": self.description, "priority": self.priority, "status": self.status,
            "created_at": self.created_at, "resolved_at": self.resolved_at, "note": self.note,
            "run_id": self.run_id, "thread_id": self.thread_id, "choices": list(self.choices), "skill": self.skill,
            "kind": "call" if self.call is not None else "action", "call": self.call,
        }


def _json_list(text: object) -> list[str]:
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except ValueError:
        return []
    return [str(item) for item in value if item in CHOICES] if isinstance(value, list) else []
