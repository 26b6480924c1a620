"""Reading and writing escalations (the Approval Needed cards)."""

from __future__ import annotations

import builtins
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openhuman_desktop.store.activity import after_newest
from openhuman_desktop.store.database import Database, Transaction
from openhuman_desktop.store.ids import time_ordered_id
from openhuman_desktop.store.records import (
    ACT_CHOICES,
    ESCALATION_COLUMNS,
    LOG_COLUMNS,
    CardStatus,
    Escalation,
    LogEntry,
)

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
        run_id: str | None = None, thread_id: str | None = None, choices: Sequence[str] = ACT_CHOICES,
        skill: str | None = None,
    ) -> Escalation | None:
        """Create a pending card, only while its task still exists and is enabled (one statement, so a task
        removed or disabled meanwhile never gets a card and never makes the insert fail). ``run_id`` /
        ``thread_id``: the agent run that recommended the action; ``choices`` / ``skill``: its buttons and the
        skill it is about.

        Returns:
            The new escalation, or None when the task is gone or disabled.
        """
        escalation = Escalation(
            id=time_ordered_id(now), task_id=task_id, log_id=log_id, title=title, description=description,
            priority=priority, status="pending", created_at=now, resolved_at=None, run_id=run_id, thread_id=thread_id,
            choices=tuple(choices), skill=skill,
        )
        inserted = await self._db.execute(
            """INSERT INTO subconscious_escalations (id, task_id, log_id, title, description, priority, status,
                   created_at, resolved_at, run_id, thread_id, choices, skill)
               SELECT ?, id, ?, ?, ?, ?, 'pending', ?, NULL, ?, ?, ?, ? FROM subconscious_tasks
                WHERE id = ? AND enabled = 1""",
            (escalation.id, log_id, title, description, priority, now, run_id, thread_id,
             json.dumps(list(choices)), skill, task_id),
        )
        return escalation if inserted else None

    async def raise_for_run(
        self, *, run_id: str, thread_id: str, title: str, description: str, priority: str, now: float,
        task_id: str | None = None, choices: Sequence[str] = ACT_CHOICES, skill: str | None = None,
        call: dict[str, Any] | None = None, call_key: str | None = None,
    ) -> Escalation:
        """Create a pending card for an agent run (CONTRACT §8): its ``RECOMMENDED ACTION:``, or (``call``) one
        tool call that needs its own approval. No log row; a run of a heartbeat task may give its ``task_id``
        (its card then holds the task's schedule like any of its cards). A blank title names the conversation.
        With ``call_key``, the run's card with that key is returned if it has one (nothing is written).

        Returns:
            The new escalation (or the one with ``call_key``).
        """
        escalation = Escalation(
            id=time_ordered_id(now), task_id=task_id, log_id=None,
            title=title.strip() or conversation_title(thread_id), description=description, priority=priority,
            status="pending", created_at=now, resolved_at=None, run_id=run_id, thread_id=thread_id,
            choices=tuple(choices), skill=skill, call=call,
        )
        async with self._db.transaction() as tx:
            if call_key is not None:
                found = await tx.fetchone(f"{_SELECT} WHERE run_id = ? AND call_key = ?", (run_id, call_key))
                if found is not None:
                    return Escalation.from_row(found)
            await tx.execute(
                """INSERT INTO subconscious_escalations (id, task_id, log_id, title, description, priority, status,
                       created_at, resolved_at, run_id, thread_id, choices, skill, proposed_call, call_key)
                   VALUES (?, ?, NULL, ?, ?, ?, 'pending', ?, NULL, ?, ?, ?, ?, ?, ?)""",
                (escalation.id, task_id, escalation.title, description, priority, now, run_id, thread_id,
                 json.dumps(list(choices)), skill, json.dumps(call) if call is not None else None, call_key),
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

    async def approve(self, escalation_id: str, now: float, row_text: str, *, card_text: str = "Approved",
                      waiting_only: bool = False) -> Resolution | None:
        """Approve a pending card and mark its run as started, in one commit: the escalation becomes
        ``approved`` with its run marker (``carrying_out``); its own log row says ``card_text`` (it was
        approved) and, for a task's card, a new row at the top of the log says ``row_text`` (``in_progress``)
        and gets the outcome once the run is over. A crash at any point leaves either the pending card or an
        approval that start-up finds and finishes. ``waiting_only``: only a card that waits for the model.

        Returns:
            The approved escalation and its new row (None: a conversation's card has none); None when it was
            not pending (two approvals never both win).
        """
        waiting = " AND waits_for_model = 1" if waiting_only else ""
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                f"""UPDATE subconscious_escalations
                   SET status = 'approved', resolved_at = ?, carrying_out = 1, waits_for_model = 0, run_attempts = 0,
                       approvals = approvals + 1
                   WHERE id = ? AND status = 'pending'{waiting}""",
                (now, escalation_id),
            )
            if not changed:
                return None
            await self._with_row(tx, escalation_id, "escalate", card_text, now)
            return await self._new_run_row(tx, escalation_id, row_text, now)

    async def _new_run_row(self, tx: Transaction, escalation_id: str, text: str, now: float) -> Resolution:
        """Add the ``in_progress`` row of a Go ahead (a task's card only) and point the card at it."""
        found = await tx.fetchone(_BY_ID, (escalation_id,))
        assert found is not None  # changed in this very transaction
        escalation = Escalation.from_row(found)
        if escalation.task_id is None:
            return Resolution(escalation, None)
        newest = await tx.fetchone("SELECT max(created_at) FROM subconscious_log")
        row_id = time_ordered_id(now)
        inserted = await tx.execute(
            """INSERT INTO subconscious_log (id, task_id, tick_at, decision, result, duration_ms, created_at,
                   task_title, generation, updated_at, filed)
               SELECT ?, id, ?, 'in_progress', ?, NULL, ?, title, NULL, ?, 0 FROM subconscious_tasks WHERE id = ?""",
            (row_id, now, text, after_newest(now, newest[0] if newest else None), now, escalation.task_id),
        )
        if not inserted:
            return Resolution(escalation, None)
        await tx.execute("UPDATE subconscious_escalations SET run_log_id = ? WHERE id = ?", (row_id, escalation_id))
        found = await tx.fetchone(_BY_ID, (escalation_id,))
        assert found is not None
        entry = await tx.fetchone(_LOG_BY_ID, (row_id,))
        return Resolution(Escalation.from_row(found), LogEntry.from_row(entry) if entry else None)

    async def card_row(self, escalation: Escalation) -> LogEntry | None:
        """The card's own activity row (the tick's row that raised it), if it still has one."""
        if not escalation.log_id:
            return None
        row = await self._db.fetchone(_LOG_BY_ID, (escalation.log_id,))
        return LogEntry.from_row(row) if row else None

    async def waiting_for_model(self) -> builtins.list[Escalation]:
        """Pending cards whose Go ahead could not run because the reasoning model was down."""
        rows = await self._db.fetchall(f"{_SELECT} WHERE waits_for_model = 1 AND status = 'pending'")
        return [Escalation.from_row(row) for row in rows]

    async def approve_waiting(self, escalation_id: str, now: float, row_text: str, *,
                              card_text: str = "Approved") -> Resolution | None:
        """``approve`` a card that still waits for the model (a Skip or a Go ahead meanwhile wins)."""
        return await self.approve(escalation_id, now, row_text, card_text=card_text, waiting_only=True)

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
        self, escalation_id: str, now: float, *, note: str, row_text: str, waits_for_model: bool = False,
        choices: Sequence[str] | None = None, duration_ms: int | None = None, ran_text: str | None = None,
    ) -> Resolution | None:
        """An approved run that did not (or not wholly) happen: the card is ``pending`` again with ``note`` (and
        ``choices``, when given: Retry / Skip after a Go ahead that changed nothing); the card's own row says
        ``row_text`` and the row of that Go ahead what became of it, ``ran_text`` (``escalate``: the card asks
        again), in one commit.

        Returns:
            The card and the row of the Go ahead (its own row when it has no other); None when the escalation
            was not approved any more.
        """
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                """UPDATE subconscious_escalations
                   SET status = 'pending', resolved_at = NULL, carrying_out = 0, note = ?, waits_for_model = ?,
                       choices = coalesce(?, choices)
                   WHERE id = ? AND status = 'approved'""",
                (note, int(waits_for_model), json.dumps(list(choices)) if choices is not None else None,
                 escalation_id),
            )
            if not changed:
                return None
            own = await self._with_row(tx, escalation_id, "escalate", row_text, now)
            ran = await self._with_row(tx, escalation_id, "escalate", ran_text or row_text, now, duration_ms,
                                       run_row=True)
            return ran if ran.row is not None else own

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
            ran = await self._with_row(tx, escalation_id, decision, result, now, duration_ms, run_row=True)
            if ran.row is not None:
                return ran
            # An approval from before v7 has no row of its own run: its outcome goes on the card's row, as then.
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
                       WHERE id = ? AND task_id IS NOT NULL AND proposed_call IS NULL""",
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
        duration_ms: int | None = None, *, run_row: bool = False,
    ) -> Resolution:
        """Set the escalation's own log row (``run_row``: the row of its latest Go ahead), if it has one, to
        ``decision``/``result``; read both back."""
        found = await tx.fetchone(_BY_ID, (escalation_id,))
        assert found is not None  # changed in this very transaction
        escalation = Escalation.from_row(found)
        row = None
        log_id = escalation.run_log_id if run_row else escalation.log_id
        if log_id:
            await tx.execute(
                """UPDATE subconscious_log
                   SET decision = ?, result = ?, duration_ms = COALESCE(?, duration_ms), updated_at = ?
                   WHERE id = ?""",
                (decision, result, duration_ms, now, log_id),
            )
            entry = await tx.fetchone(_LOG_BY_ID, (log_id,))
            row = LogEntry.from_row(entry) if entry else None
        return Resolution(escalation, row)

    async def pending_count(self) -> int:
        row = await self._db.fetchone("SELECT count(*) FROM subconscious_escalations WHERE status = 'pending'")
        return int(row[0]) if row else 0

    async def resolve(self, escalation_id: str, status: CardStatus, now: float) -> Escalation | None:
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
