"""SQLite persistence: one connection owner per database, versioned schema, repositories."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from openhuman_desktop.store.activity import ActivityLogRepository
from openhuman_desktop.store.database import Database, Transaction
from openhuman_desktop.store.engine_state import EngineState, EngineStateRepository
from openhuman_desktop.store.escalations import EscalationRepository, Resolution
from openhuman_desktop.store.records import Escalation, LogEntry, Task
from openhuman_desktop.store.schema import MIGRATIONS
from openhuman_desktop.store.tasks import Advance, TaskRepository

__all__ = [
    "MIGRATIONS", "ActivityLogRepository", "Advance", "Database", "EngineState", "EngineStateRepository",
    "Escalation", "EscalationRepository", "LogEntry", "Resolution", "SubconsciousStore", "Task", "TaskRepository",
    "Transaction", "open_subconscious_store",
]


@dataclass(frozen=True)
class SubconsciousStore:
    """The repositories of subconscious.db, sharing one connection."""

    db: Database
    tasks: TaskRepository
    log: ActivityLogRepository
    escalations: EscalationRepository
    state: EngineStateRepository

    async def aclose(self) -> None:
        await self.db.aclose()


async def open_subconscious_store(path: Path) -> SubconsciousStore:
    """Open subconscious.db at ``path``, migrated to the current schema."""
    db = await Database.open(path, MIGRATIONS)
    return SubconsciousStore(
        db=db, tasks=TaskRepository(db), log=ActivityLogRepository(db),
        escalations=EscalationRepository(db), state=EngineStateRepository(db),
    )
