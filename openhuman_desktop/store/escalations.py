"""Reading and writing escalations (the Approval Needed cards)."""

from __future__ import annotations

import builtins
from dataclasses import dataclass

from openhuman_desktop.store.database import Database, Transaction
from openhuman_desktop.store.ids import time_ordered_id
from openhuman_desktop.store.records import ESCALATION_COLUMNS, LOG_COLUMNS, Escalation, LogEntry

_SELECT = f"SELECT {ESCALATION_COLUMNS} FROM subconscious_escalations"
_BY_ID = f"{_SELECT} WHERE id = ?"
_LOG_BY_ID = f"SELECT {LOG_COLUMNS} FROM subconscious_log WHERE id = ?"
# Skips are remembered for a day (subconscious/declined.py); older ones are kept a while for nobody, then dropped.
DECLINED_KEPT_SECONDS = 30 * 86_400.0


def conversation_title(thread_id: str) -> str:
    """A card title for a conversation card that came without one."""
    return f"Recommended in the {thread_id} conversation"


@dataclass(frozen=True)
class Resolution:
    """An escalation after a change of state, with its activity row (None when it has none any more)."""

    escalation: Escalation
    row: LogEntry | None


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

    async def raise_for_task(
        self, *, task_id: str, log_id: str | None, title: str, description: str, priority: str, now: float,
        run_id: str | None = None, thread_id: str | None = None,
    ) -> Escalation | None:
        """Create a pending card, only while its task still exists and is enabled (one statement, so a task
        removed or disabled meanwhile never gets a card and never makes the insert fail). ``run_id`` /
        ``thread_id``: the agent run that recommended the action.

        Returns:
            The new escalation, or None when the task is gone or disabled.
        """
        escalation = Escalation(
            id=time_ordered_id(now), task_id=task_id, log_id=log_id, title=title, description=description,
            priority=priority, status="pending", created_at=now, resolved_at=None, run_id=run_id, thread_id=thread_id,
        )
        inserted = await self._db.execute(
            """INSERT INTO subconscious_escalations (id, task_id, log_id, title, description, priority, status,
                   created_at, resolved_at, run_id, thread_id)
               SELECT ?, id, ?, ?, ?, ?, 'pending', ?, NULL, ?, ? FROM subconscious_tasks
                WHERE id = ? AND enabled = 1""",
            (escalation.id, log_id, title, description, priority, now, run_id, thread_id, task_id),
        )
        return escalation if inserted else None

    async def raise_for_run(
        self, *, run_id: str, thread_id: str, title: str, description: str, priority: str, now: float
    ) -> Escalation:
        """Create a pending card for an agent run's ``RECOMMENDED ACTION:`` (CONTRACT §8): no task, no log row;
        approving it is carried out by the agent in ``thread_id``. A blank title names the conversation.

        Returns:
            The new escalation.
        """
        escalation = Escalation(
            id=time_ordered_id(now), task_id=None, log_id=None, title=title.strip() or conversation_title(thread_id),
            description=description, priority=priority, status="pending", created_at=now, resolved_at=None,
            run_id=run_id, thread_id=thread_id,
        )
        await self._db.execute(
            """INSERT INTO subconscious_escalations (id, task_id, log_id, title, description, priority, status,
                   created_at, resolved_at, run_id, thread_id)
               VALUES (?, NULL, NULL, ?, ?, ?, 'pending', ?, NULL, ?, ?)""",
            (escalation.id, escalation.title, description, priority, now, run_id, thread_id),
        )
        return escalation

    async def for_run(self, run_id: str) -> builtins.list[Escalation]:
        """The cards an agent run raised, oldest first."""
        rows = await self._db.fetchall(f"{_SELECT} WHERE run_id = ? ORDER BY created_at, id", (run_id,))
        return [Escalation.from_row(row) for row in rows]

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

    async def approve(self, escalation_id: str, now: float, row_text: str) -> Resolution | None:
        """Approve a pending card and mark its run as started, in one commit: the escalation becomes
        ``approved`` with its run marker (``carrying_out``) and its log row ``in_progress`` with ``row_text``.
        A crash at any point leaves either the pending card or an approval that start-up finds and finishes.

        Returns:
            The approved escalation and its row; None when it was not pending (two approvals never both win).
        """
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                """UPDATE subconscious_escalations
                   SET status = 'approved', resolved_at = ?, carrying_out = 1, waits_for_model = 0, run_attempts = 0
                   WHERE id = ? AND status = 'pending'""",
                (now, escalation_id),
            )
            return await self._with_row(tx, escalation_id, "in_progress", row_text, now) if changed else None

    async def waiting_for_model(self) -> builtins.list[Escalation]:
        """Pending cards whose Go ahead could not run because the reasoning model was down."""
        rows = await self._db.fetchall(f"{_SELECT} WHERE waits_for_model = 1 AND status = 'pending'")
        return [Escalation.from_row(row) for row in rows]

    async def approve_waiting(self, escalation_id: str, now: float, row_text: str) -> Resolution | None:
        """``approve`` a card that still waits for the model (a Skip or a Go ahead meanwhile wins)."""
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                """UPDATE subconscious_escalations
                   SET status = 'approved', resolved_at = ?, carrying_out = 1, waits_for_model = 0, run_attempts = 0
                   WHERE id = ? AND status = 'pending' AND waits_for_model = 1""",
                (now, escalation_id),
            )
            return await self._with_row(tx, escalation_id, "in_progress", row_text, now) if changed else None

    async def carrying_out(self) -> builtins.list[Escalation]:
        """Approved escalations whose run has not finished (a crash or a shutdown came in between)."""
        rows = await self._db.fetchall(f"{_SELECT} WHERE carrying_out = 1 AND status = 'approved'")
        return [Escalation.from_row(row) for row in rows]

    async def count_restart(self, escalation_id: str) -> int:
        """Count one more start that carries an unfinished approval out again; returns how many there were."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "UPDATE subconscious_escalations SET run_attempts = run_attempts + 1 WHERE id = ? AND carrying_out = 1",
                (escalation_id,),
            )
            row = await tx.fetchone("SELECT run_attempts FROM subconscious_escalations WHERE id = ?", (escalation_id,))
        return int(row[0]) if row else 0

    async def back_to_card(
        self, escalation_id: str, now: float, *, note: str, row_text: str, waits_for_model: bool = False
    ) -> Resolution | None:
        """An approved run that did not (or not wholly) happen: the card is ``pending`` again with ``note``,
        its row says ``row_text`` (``escalate``), in one commit.

        Returns:
            The card and its row; None when the escalation was not approved any more.
        """
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                """UPDATE subconscious_escalations
                   SET status = 'pending', resolved_at = NULL, carrying_out = 0, note = ?, waits_for_model = ?
                   WHERE id = ? AND status = 'approved'""",
                (note, int(waits_for_model), escalation_id),
            )
            return await self._with_row(tx, escalation_id, "escalate", row_text, now) if changed else None

    async def finish_run(
        self, escalation_id: str, now: float, *, decision: str, result: str, duration_ms: int | None,
        complete_task: bool,
    ) -> Resolution | None:
        """The approved run is over: clear its marker and note, write its row's outcome and (``complete_task``)
        complete a ``once`` task, in one commit."""
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                "UPDATE subconscious_escalations SET carrying_out = 0, note = '' WHERE id = ? AND carrying_out = 1",
                (escalation_id,),
            )
            if not changed:
                return None
            if complete_task:
                await tx.execute(
                    """UPDATE subconscious_tasks SET completed = 1, updated_at = ?
                       WHERE recurrence = 'once'
                         AND id = (SELECT task_id FROM subconscious_escalations WHERE id = ?)""",
                    (now, escalation_id),
                )
            return await self._with_row(tx, escalation_id, decision, result, now, duration_ms)

    async def dismiss(self, escalation_id: str, now: float, *, remember: bool) -> Resolution | None:
        """Skip a pending card in one commit: ``dismissed``, its row "Skipped", and (``remember``) its action
        kept among the task's declined recommendations.

        Returns:
            The dismissed card and its row; None when it was not pending.
        """
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                """UPDATE subconscious_escalations
                   SET status = 'dismissed', resolved_at = ?, carrying_out = 0, waits_for_model = 0
                   WHERE id = ? AND status = 'pending'""",
                (now, escalation_id),
            )
            if not changed:
                return None
            if remember:
                await tx.execute(
                    """INSERT INTO declined_recommendations (task_id, action, declined_at)
                       SELECT task_id, description, ? FROM subconscious_escalations
                       WHERE id = ? AND task_id IS NOT NULL""",
                    (now, escalation_id),
                )
                await tx.execute("DELETE FROM declined_recommendations WHERE declined_at < ?",
                                 (now - DECLINED_KEPT_SECONDS,))
            return await self._with_row(tx, escalation_id, "dismissed", "Skipped", now)

    async def declined_since(self, task_id: str, since: float) -> builtins.list[tuple[str, float]]:
        """The recommendations the user skipped for ``task_id`` since ``since``: ``(action, declined_at)``,
        newest first."""
        rows = await self._db.fetchall(
            """SELECT action, declined_at FROM declined_recommendations WHERE task_id = ? AND declined_at >= ?
               ORDER BY declined_at DESC LIMIT 20""",
            (task_id, since),
        )
        return [(str(row[0]), float(row[1])) for row in rows]

    async def _with_row(
        self, tx: Transaction, escalation_id: str, decision: str, result: str, now: float,
        duration_ms: int | None = None,
    ) -> Resolution:
        """Set the escalation's log row (if it still has one) to ``decision``/``result``; read both back."""
        found = await tx.fetchone(_BY_ID, (escalation_id,))
        assert found is not None  # changed in this very transaction
        escalation = Escalation.from_row(found)
        row = None
        if escalation.log_id:
            await tx.execute(
                """UPDATE subconscious_log
                   SET decision = ?, result = ?, duration_ms = COALESCE(?, duration_ms), updated_at = ?
                   WHERE id = ?""",
                (decision, result, duration_ms, now, escalation.log_id),
            )
            entry = await tx.fetchone(_LOG_BY_ID, (escalation.log_id,))
            row = LogEntry.from_row(entry) if entry else None
        return Resolution(escalation, row)

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
                """UPDATE subconscious_escalations SET status = ?, resolved_at = ?, waits_for_model = 0
                   WHERE id = ? AND status = 'pending'""",
                (status, now, escalation_id),
            )
            row = await tx.fetchone(_BY_ID, (escalation_id,)) if changed else None
        return Escalation.from_row(row) if row else None
