"""Reading and writing escalations (the Approval Needed cards)."""

from __future__ import annotations

import builtins

from openhuman_desktop.store.database import Database
from openhuman_desktop.store.ids import time_ordered_id
from openhuman_desktop.store.records import ESCALATION_COLUMNS, Escalation

_SELECT = f"SELECT {ESCALATION_COLUMNS} FROM subconscious_escalations"
_BY_ID = f"{_SELECT} WHERE id = ?"
_E_COLUMNS = ", ".join(f"e.{column}" for column in ESCALATION_COLUMNS.split(", "))


class EscalationRepository:
    """All SQL about ``subconscious_escalations``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(
        self, *, task_id: str, log_id: str | None, title: str, description: str, priority: str, now: float
    ) -> Escalation:
        escalation = Escalation(
            id=time_ordered_id(now), task_id=task_id, log_id=log_id, title=title, description=description,
            priority=priority, status="pending", created_at=now, resolved_at=None,
        )
        await self._db.execute(
            """INSERT INTO subconscious_escalations (id, task_id, log_id, title, description, priority, status,
                   created_at, resolved_at) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, NULL)""",
            (escalation.id, task_id, log_id, title, description, priority, now),
        )
        return escalation

    async def get(self, escalation_id: str) -> Escalation | None:
        row = await self._db.fetchone(_BY_ID, (escalation_id,))
        return Escalation.from_row(row) if row else None

    async def list(self, status: str | None = None, limit: int = 1000) -> builtins.list[Escalation]:
        if status is None:
            rows = await self._db.fetchall(f"{_SELECT} ORDER BY created_at DESC, id DESC LIMIT ?", (limit,))
        else:
            rows = await self._db.fetchall(
                f"{_SELECT} WHERE status = ? ORDER BY created_at DESC, id DESC LIMIT ?",
                (status, limit),
            )
        return [Escalation.from_row(row) for row in rows]

    async def pending_for_task(self, task_id: str) -> builtins.list[Escalation]:
        """The task's escalations still waiting for the user."""
        rows = await self._db.fetchall(f"{_SELECT} WHERE task_id = ? AND status = 'pending'", (task_id,))
        return [Escalation.from_row(row) for row in rows]

    async def interrupted(self) -> builtins.list[Escalation]:
        """Approved escalations whose run never finished (their log row is still ``in_progress``)."""
        rows = await self._db.fetchall(
            f"""SELECT {_E_COLUMNS} FROM subconscious_escalations AS e JOIN subconscious_log AS l ON l.id = e.log_id
                WHERE e.status = 'approved' AND l.decision = 'in_progress'"""
        )
        return [Escalation.from_row(row) for row in rows]

    async def reopen(self, escalation_id: str) -> Escalation | None:
        """Put an approved escalation whose run was interrupted back to ``pending`` (the user decides again)."""
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                """UPDATE subconscious_escalations SET status = 'pending', resolved_at = NULL
                   WHERE id = ? AND status = 'approved'""",
                (escalation_id,),
            )
            row = await tx.fetchone(_BY_ID, (escalation_id,)) if changed else None
        return Escalation.from_row(row) if row else None

    async def pending_count(self) -> int:
        row = await self._db.fetchone("SELECT count(*) FROM subconscious_escalations WHERE status = 'pending'")
        return int(row[0]) if row else 0

    async def resolve(self, escalation_id: str, status: str, now: float) -> Escalation | None:
        """Move a ``pending`` escalation to ``status``, atomically.

        Returns:
            The resolved escalation, or None when it was not pending (so two concurrent approvals
            can never both win).
        """
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                """UPDATE subconscious_escalations SET status = ?, resolved_at = ?
                   WHERE id = ? AND status = 'pending'""",
                (status, now, escalation_id),
            )
            row = await tx.fetchone(_BY_ID, (escalation_id,)) if changed else None
        return Escalation.from_row(row) if row else None
