"""Reading and writing subconscious tasks."""

from __future__ import annotations

import builtins
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openhuman_desktop.store.database import Database, Transaction
from openhuman_desktop.store.ids import time_ordered_id
from openhuman_desktop.store.records import TASK_COLUMNS, Task

# System tasks first (built-in defaults, then HEARTBEAT.md lines), then the user's, oldest first;
# rows added in the same instant (the defaults, one file sync) keep the order they were inserted in.
_ORDER = "ORDER BY (source = 'user'), (origin = 'heartbeat_md'), created_at, rowid"
_COLUMNS = frozenset({"title", "recurrence", "enabled", "last_run_at", "next_run_at", "completed", "intent",
                      "intent_source", "intent_suggestion"})


@dataclass(frozen=True)
class Advance:
    """A task's schedule after a tick: when it last ran, when it runs next, whether it is done."""

    task: Task
    last_run_at: float
    next_run_at: float | None
    completed: bool


class TaskRepository:
    """All SQL about ``subconscious_tasks``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def list(self, *, enabled_only: bool = False) -> builtins.list[Task]:
        where = "WHERE enabled = 1" if enabled_only else ""
        rows = await self._db.fetchall(f"SELECT {TASK_COLUMNS} FROM subconscious_tasks {where} {_ORDER}")
        return [Task.from_row(row) for row in rows]

    async def get(self, task_id: str) -> Task | None:
        row = await self._db.fetchone(f"SELECT {TASK_COLUMNS} FROM subconscious_tasks WHERE id = ?", (task_id,))
        return Task.from_row(row) if row else None

    async def count(self) -> int:
        row = await self._db.fetchone("SELECT count(*) FROM subconscious_tasks")
        return int(row[0]) if row else 0

    async def count_unconfirmed_by_assistant(self) -> int:
        """Tasks the assistant added whose intent the user has not chosen yet (still read-only by origin)."""
        row = await self._db.fetchone(
            "SELECT count(*) FROM subconscious_tasks WHERE origin = 'assistant' AND intent_source = 'assistant'"
        )
        return int(row[0]) if row else 0

    async def due(self, now: float) -> builtins.list[Task]:
        """Enabled, not completed, due by ``now`` (or never scheduled), not waiting on an approval, and not
        having an approved action carried out right now (its analysis would raise the same card again)."""
        rows = await self._db.fetchall(
            f"""SELECT {TASK_COLUMNS} FROM subconscious_tasks AS t
                WHERE enabled = 1 AND completed = 0 AND (next_run_at IS NULL OR next_run_at <= ?)
                  AND NOT EXISTS (SELECT 1 FROM subconscious_escalations AS e
                                  WHERE e.task_id = t.id AND (e.status = 'pending' OR e.carrying_out = 1))
                {_ORDER}""",
            (now,),
        )
        return [Task.from_row(row) for row in rows]

    async def next_due_at(self) -> float | None:
        """The earliest scheduled ``next_run_at`` of an enabled, open task (None if none is scheduled)."""
        row = await self._db.fetchone(
            "SELECT min(next_run_at) FROM subconscious_tasks WHERE enabled = 1 AND completed = 0"
        )
        return row[0] if row and row[0] is not None else None

    async def add(
        self,
        *,
        title: str,
        source: str,
        recurrence: str,
        next_run_at: float | None,
        intent: str,
        intent_source: str,
        origin: str,
        now: float,
        seed_key: str | None = None,
        intent_suggestion: str | None = None,
        tx: Transaction | None = None,
    ) -> Task:
        task = Task(
            id=time_ordered_id(now), title=title, source=source, recurrence=recurrence, enabled=True,
            last_run_at=None, next_run_at=next_run_at, completed=False, created_at=now, intent=intent,
            origin=origin, intent_source=intent_source, updated_at=now, intent_suggestion=intent_suggestion,
        )
        sql = """INSERT INTO subconscious_tasks (id, title, source, recurrence, enabled, last_run_at, next_run_at,
                     completed, created_at, origin, seed_key, intent, intent_source, updated_at, intent_suggestion)
                 VALUES (?, ?, ?, ?, 1, NULL, ?, 0, ?, ?, ?, ?, ?, ?, ?)"""
        params = (task.id, title, source, recurrence, next_run_at, now, origin, seed_key, intent, intent_source, now,
                  intent_suggestion)
        if tx is not None:
            await tx.execute(sql, params)
        else:
            await self._db.execute(sql, params)
        return task

    async def update(self, task_id: str, now: float, **fields: Any) -> Task | None:
        """Change some columns of one task; returns the new row, or None if it does not exist."""
        unknown = set(fields) - _COLUMNS
        if unknown:
            raise ValueError(f"not task columns: {sorted(unknown)}")
        values = {key: int(value) if isinstance(value, bool) else value for key, value in fields.items()}
        assignments = ", ".join(f"{key} = ?" for key in values)
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                f"UPDATE subconscious_tasks SET {assignments}, updated_at = ? WHERE id = ?",
                (*values.values(), now, task_id),
            )
            if not changed:
                return None
            row = await tx.fetchone(f"SELECT {TASK_COLUMNS} FROM subconscious_tasks WHERE id = ?", (task_id,))
        return Task.from_row(row) if row else None

    async def advance_many(
        self, advances: Sequence[Advance], now: float, *, tx: Transaction | None = None
    ) -> builtins.list[Task]:
        """Move many tasks' schedules past a tick, in one transaction (``tx``'s, when given).

        Returns:
            The new snapshots, built from the old ones and the changes (no read-back).
        """
        if not advances:
            return []
        if tx is None:
            async with self._db.transaction() as own:
                return await self.advance_many(advances, now, tx=own)
        # Most tasks only remember when they ran (one statement for all of them); cron tasks move on and a
        # ``once`` task may complete (one row each).
        ran_only: dict[float, list[str]] = {}  # last_run_at -> ids whose schedule stays as it is
        moved: list[Advance] = []
        for advance in advances:
            if advance.next_run_at == advance.task.next_run_at and advance.completed == advance.task.completed:
                ran_only.setdefault(advance.last_run_at, []).append(advance.task.id)
            else:
                moved.append(advance)
        writing = [
            await tx.started(
                """UPDATE subconscious_tasks SET last_run_at = ?, updated_at = ?
                   WHERE id IN (SELECT value FROM json_each(?))""",
                (last_run_at, now, json.dumps(ids)),
            )
            for last_run_at, ids in ran_only.items()
        ]
        try:  # the snapshots are built while the database writes
            snapshots = [Task.from_row((t.id, t.title, t.source, t.recurrence, t.enabled, a.last_run_at,
                                        a.next_run_at, a.completed, t.created_at, t.intent, t.origin,
                                        t.intent_source, now, t.intent_suggestion))
                         for a in advances for t in (a.task,)]
        finally:
            for statement in writing:
                await statement
        if moved:
            await tx.executemany(
                """UPDATE subconscious_tasks SET last_run_at = ?, next_run_at = ?, completed = ?, updated_at = ?
                   WHERE id = ?""",
                [(a.last_run_at, a.next_run_at, int(a.completed), now, a.task.id) for a in moved],
            )
        return snapshots

    async def remove(self, task_id: str) -> bool:
        """Delete a task (its cards and their journals go with it), unless one of its approvals is being
        carried out: that run's outcome must still have its card and row to land on.

        Returns:
            Whether the task was deleted.
        """
        return await self._db.execute(
            """DELETE FROM subconscious_tasks WHERE id = ? AND NOT EXISTS (
                   SELECT 1 FROM subconscious_escalations WHERE task_id = ? AND carrying_out = 1)""",
            (task_id, task_id),
        ) > 0

    async def seed(self, defaults: Sequence[tuple[str, str, str]], now: float) -> builtins.list[Task]:
        """Insert the built-in system tasks that were never seeded (keyed, so renames do not re-seed).

        Args:
            defaults: ``(seed_key, title, intent)`` triples.
        Returns:
            The tasks that were inserted now.
        """
        added: list[Task] = []
        async with self._db.transaction() as tx:
            seeded = {row[0] for row in await tx.fetchall(
                "SELECT key FROM engine_state WHERE key LIKE 'seeded:%'")}
            for seed_key, title, intent in defaults:
                if f"seeded:{seed_key}" in seeded:
                    continue
                exists = await tx.fetchone("SELECT 1 FROM subconscious_tasks WHERE seed_key = ?", (seed_key,))
                if not exists:
                    added.append(await self.add(
                        title=title, source="system", recurrence="pending", next_run_at=None, intent=intent,
                        intent_source="default", origin="default", now=now, seed_key=seed_key, tx=tx,
                    ))
                await tx.execute(
                    "INSERT OR REPLACE INTO engine_state (key, value) VALUES (?, ?)", (f"seeded:{seed_key}", "1")
                )
        return added

    async def replace_file_tasks(
        self, add: Iterable[tuple[str, str, str]], remove: Iterable[str], now: float
    ) -> tuple[builtins.list[Task], builtins.list[str]]:
        """Apply one HEARTBEAT.md sync in a single transaction.

        A task whose approved action is being carried out is not removed yet (the run's outcome needs its card
        and row); its line is still gone at the next sync, which removes it then.

        Args:
            add: ``(title, intent, intent_source)`` of lines that are new.
            remove: ids of tasks whose lines are gone.
        Returns:
            The tasks added, and the ids of the tasks removed.
        """
        added: list[Task] = []
        removed: list[str] = []
        async with self._db.transaction() as tx:
            for task_id in remove:
                if await tx.execute(
                    """DELETE FROM subconscious_tasks WHERE id = ? AND origin = 'heartbeat_md' AND NOT EXISTS (
                           SELECT 1 FROM subconscious_escalations WHERE task_id = ? AND carrying_out = 1)""",
                    (task_id, task_id),
                ):
                    removed.append(task_id)
            for title, intent, intent_source in add:
                added.append(await self.add(
                    title=title, source="system", recurrence="pending", next_run_at=None, intent=intent,
                    intent_source=intent_source, origin="heartbeat_md", now=now, tx=tx,
                ))
        return added, removed

    async def file_tasks(self) -> builtins.list[Task]:
        """Tasks that came from HEARTBEAT.md."""
        rows = await self._db.fetchall(
            f"SELECT {TASK_COLUMNS} FROM subconscious_tasks WHERE origin = 'heartbeat_md' {_ORDER}"
        )
        return [Task.from_row(row) for row in rows]

    async def set_model_intent(self, task_id: str, title: str, intent: str, source: str, suggestion: str | None,
                               now: float) -> Task | None:
        """Store what the model's answer made of a task's intent, classified in the background.

        Only while the task still has ``title`` and the words' intent (not one the user chose meanwhile, nor a
        rename's, which is asked about again).

        Returns:
            The changed task, or None when nothing was changed.
        """
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                """UPDATE subconscious_tasks SET intent = ?, intent_source = ?, intent_suggestion = ?, updated_at = ?
                   WHERE id = ? AND title = ? AND intent_source = 'keyword'""",
                (intent, source, suggestion, now, task_id, title),
            )
            if not changed:
                return None
            row = await tx.fetchone(f"SELECT {TASK_COLUMNS} FROM subconscious_tasks WHERE id = ?", (task_id,))
        return Task.from_row(row) if row else None
