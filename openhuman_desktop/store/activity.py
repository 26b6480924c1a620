"""The activity log: one row per task per tick, updated in place, paged newest first, kept bounded."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from datetime import datetime, timedelta

from openhuman_desktop.store.database import Database, Transaction
from openhuman_desktop.store.ids import time_ordered_ids
from openhuman_desktop.store.records import LOG_COLUMNS, LogEntry
from openhuman_desktop.store.schema import TASK_KEY

MAX_PAGE = 1000
# A clock that stepped back by more than this is taken as it is (rows then sort by the new time).
_TIE_WINDOW_SECONDS = 1.0
# Rows the retention policy never deletes: still running, or behind a card the user has not answered.
_PROTECTED = """decision != 'in_progress' AND id NOT IN
    (SELECT log_id FROM subconscious_escalations WHERE status = 'pending' AND log_id IS NOT NULL)"""

_NOT_A_RUNNING_APPROVAL = """ AND id NOT IN
    (SELECT log_id FROM subconscious_escalations WHERE carrying_out = 1 AND log_id IS NOT NULL
     UNION ALL
     SELECT run_log_id FROM subconscious_escalations WHERE carrying_out = 1 AND run_log_id IS NOT NULL)"""

_BY_ID = f"SELECT {LOG_COLUMNS} FROM subconscious_log WHERE id = ?"
_NEWEST_FIRST = "ORDER BY created_at DESC, id DESC LIMIT ?"
_RECENT = "INDEXED BY idx_log_task_recent"
# ``file_recent``: how many recent rows make it worth filing them before the hour is up (a 1,000-task
# tick adds 1,000; the recent index stays small, so inserting into it stays cheap), and rows filed per
# transaction (~25 ms each here).
# The decisions the Subconscious tab's chart counts per day, in its order.
CHART_DECISIONS = ("act", "noop", "escalate", "failed")
MAX_RANGES = 400   # SQLite allows 500 parts in one compound SELECT
FILE_WHEN_WAITING = 10_000
FILE_BATCH_ROWS = 2_000


def task_page_sql(before: bool) -> str:
    """One task's rows, newest first: its filed rows and its recent ones (schema v3), merged.

    Each part is an index search (``INDEXED BY``: never a walk of the whole log for a task with few rows):
    the key, then the id itself; "+" keeps SQLite from rewriting the key with the id's value (constant
    propagation), which would hide the key from the index. Parameters: ``task_id, task_id[, before]`` for
    each part, then the limit.
    """
    older = " AND created_at < ?" if before else ""
    parts = [
        f"""SELECT {LOG_COLUMNS} FROM subconscious_log INDEXED BY {index}
            WHERE {TASK_KEY} = substr(?, -8) AND +task_id = ? AND filed = {filed}{older}"""
        for index, filed in (("idx_log_task", 1), ("idx_log_task_recent", 0))
    ]
    return f"{parts[0]} UNION ALL {parts[1]} {_NEWEST_FIRST}"


class ActivityLogRepository:
    """All SQL about ``subconscious_log``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def start(
        self, task_id: str, task_title: str, tick_at: float, generation: int, now: float, result: str = "Evaluating..."
    ) -> LogEntry:
        """Insert the ``in_progress`` row of one task for one tick (see ``start_many``)."""
        return (await self.start_many([(task_id, task_title)], tick_at, generation, now, result))[0]

    async def start_many(
        self, tasks: Sequence[tuple[str, str]], tick_at: float, generation: int, now: float,
        result: str = "Evaluating...",
    ) -> list[LogEntry]:
        """Insert the ``in_progress`` rows of a tick's due tasks (``(task_id, title)`` pairs) in one transaction.

        ``created_at`` is the paging cursor (``before``), so no two rows share it: each row gets its own, a
        microsecond apart, and a row written in the same instant as the newest one is stamped after it.
        """
        if not tasks:
            return []
        async with self._db.transaction() as tx:
            newest = await tx.fetchone("SELECT max(created_at) FROM subconscious_log")
            created = _after(now, newest[0] if newest else None)
            ids = time_ordered_ids(now, len(tasks))
            # One statement over a JSON array, not executemany: that gives up and retakes the GIL for every
            # row, and with the GUI's thread busy a thousand rows then took seconds instead of ~40 ms.
            # ``created_at`` is computed in SQL exactly as below (the same IEEE operations), never parsed.
            writing = await tx.started(
                """INSERT INTO subconscious_log (id, task_id, tick_at, decision, result, duration_ms, created_at,
                       task_title, generation, updated_at, filed)
                   SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?, 'in_progress', ?, NULL,
                          ? + key * 1e-6, json_extract(value, '$[2]'), ?, ?, 0
                   FROM json_each(?)""",
                (tick_at, result, created, generation, now,
                 json.dumps([[row_id, task_id, title] for row_id, (task_id, title) in zip(ids, tasks, strict=True)])),
            )
            try:  # the snapshots are built while the rows are written
                entries = [
                    LogEntry.from_row(
                        (row_id, task_id, tick_at, "in_progress", result, None, created + n * 1e-6, title, generation)
                    )
                    for n, (row_id, (task_id, title)) in enumerate(zip(ids, tasks, strict=True))
                ]
            finally:
                await writing
        return entries

    async def finish_many(
        self, outcomes: Sequence[tuple[LogEntry, str, str, int | None]], now: float, *, tx: Transaction | None = None
    ) -> list[LogEntry]:
        """Update many ``in_progress`` rows to their outcomes in one transaction (``tx``'s, when given).

        Args:
            outcomes: ``(row, decision, result, duration_ms)``; rows must still be ``in_progress``.
        Returns:
            The new snapshots (built from what was written, without reading the rows back).
        """
        if not outcomes:
            return []
        if tx is None:
            async with self._db.transaction() as own:
                return await self.finish_many(outcomes, now, tx=own)
        # One statement over a JSON array of the outcomes (see start_many), also a third faster than
        # executemany on a quiet machine; the snapshots are built while it runs.
        writing = await tx.started(
            """UPDATE subconscious_log SET decision = json_extract(o.value, '$[1]'),
                      result = json_extract(o.value, '$[2]'), duration_ms = json_extract(o.value, '$[3]'),
                      updated_at = ?
               FROM json_each(?) AS o
               WHERE subconscious_log.id = json_extract(o.value, '$[0]')
                 AND subconscious_log.decision = 'in_progress'""",
            (now, json.dumps([[row.id, decision, result, duration] for row, decision, result, duration in outcomes])),
        )
        try:
            return [LogEntry.from_row((row.id, row.task_id, row.tick_at, decision, result, duration, row.created_at,
                                       row.task_title, row.generation))
                    for row, decision, result, duration in outcomes]
        finally:
            await writing

    async def finish(
        self, log_id: str, decision: str, result: str, duration_ms: int | None, now: float,
        *, only_in_progress: bool = True,
    ) -> LogEntry | None:
        """Update a row in place to its outcome (a None duration keeps the old one).

        Returns:
            The new row; None when it no longer exists (or, with ``only_in_progress``, was already final).
        """
        guard = "AND decision = 'in_progress'" if only_in_progress else ""
        async with self._db.transaction() as tx:
            changed = await tx.execute(
                f"""UPDATE subconscious_log
                    SET decision = ?, result = ?, duration_ms = COALESCE(?, duration_ms), updated_at = ?
                    WHERE id = ? {guard}""",
                (decision, result, duration_ms, now, log_id),
            )
            row = await tx.fetchone(_BY_ID, (log_id,)) if changed else None
        return LogEntry.from_row(row) if row else None

    async def get(self, log_id: str) -> LogEntry | None:
        row = await self._db.fetchone(_BY_ID, (log_id,))
        return LogEntry.from_row(row) if row else None

    async def page(self, limit: int = 50, before: float | None = None, task_id: str | None = None) -> list[LogEntry]:
        """Rows newest first, strictly older than ``before`` when given (an index seek at any depth)."""
        params: list[object] = []
        if task_id is not None:
            sql = task_page_sql(before is not None)
            for _ in range(2):
                params.extend((task_id, task_id) if before is None else (task_id, task_id, before))
        elif before is not None:
            sql = f"SELECT {LOG_COLUMNS} FROM subconscious_log WHERE created_at < ? {_NEWEST_FIRST}"
            params.append(before)
        else:
            sql = f"SELECT {LOG_COLUMNS} FROM subconscious_log {_NEWEST_FIRST}"
        params.append(max(1, min(limit, MAX_PAGE)))
        return [LogEntry.from_row(row) for row in await self._db.fetchall(sql, params)]

    async def file_recent(self, *, force: bool = False) -> int:
        """File the rows waiting in the recent index under their task (schema v3): all of them when
        ``force``, else only once ``FILE_WHEN_WAITING`` wait. Returns the rows filed.

        Batches follow the key order, so each touches one stretch of the big index, and each is its own
        transaction, so other statements get their turn in between.
        """
        row = await self._db.fetchone(f"SELECT count(*) FROM subconscious_log {_RECENT} WHERE filed = 0")
        waiting = int(row[0]) if row else 0
        if waiting == 0 or (waiting < FILE_WHEN_WAITING and not force):
            return 0
        filed = 0
        while changed := await self._db.execute(
            f"""UPDATE subconscious_log SET filed = 1
                WHERE rowid IN (SELECT rowid FROM subconscious_log {_RECENT} WHERE filed = 0 LIMIT ?)""",
            (FILE_BATCH_ROWS,),
        ):
            filed += changed
        return filed

    async def in_progress(self) -> list[LogEntry]:
        rows = await self._db.fetchall(f"SELECT {LOG_COLUMNS} FROM subconscious_log WHERE decision = 'in_progress'")
        return [LogEntry.from_row(row) for row in rows]

    async def cancel_in_progress(self, reason: str, now: float, generation: int | None = None) -> list[LogEntry]:
        """Mark ``in_progress`` rows ``cancelled`` — all of them, or one tick's (``generation``)."""
        # A row behind an approval being carried out belongs to that run, not to a tick (it keeps the
        # generation of the tick that raised the card): the run settles it, or start-up recovery does.
        where = ("decision = 'in_progress'" + (" AND generation = ?" if generation is not None else "")
                 + _NOT_A_RUNNING_APPROVAL)
        params: tuple[object, ...] = (generation,) if generation is not None else ()
        async with self._db.transaction() as tx:
            rows = await tx.fetchall(f"SELECT id FROM subconscious_log WHERE {where}", params)
            await tx.execute(
                f"""UPDATE subconscious_log SET decision = 'cancelled', result = ?, updated_at = ?,
                        duration_ms = CAST((? - created_at) * 1000 AS INTEGER) WHERE {where}""",
                (reason, now, now, *params),
            )
            ids = [row[0] for row in rows]
            changed = await tx.fetchall(
                f"SELECT {LOG_COLUMNS} FROM subconscious_log WHERE id IN ({','.join('?' * len(ids))})", ids
            ) if ids else []
        return [LogEntry.from_row(row) for row in changed]

    async def decisions_between(self, bounds: Sequence[float]) -> list[tuple[int, int, int, int]]:
        """How many rows were created in each ``[bounds[i], bounds[i + 1])``, per decision of
        :data:`CHART_DECISIONS` (act, noop, escalate, failed): the chart's local days.

        One statement: each range is its own index search (``idx_log_created``) and no rows are sorted or
        grouped, so the cost is the rows in range (~0.3 s per million here), never the whole log.
        """
        if len(bounds) < 2:
            return []
        if len(bounds) - 1 > MAX_RANGES:
            raise ValueError(f"at most {MAX_RANGES} ranges")
        sums = ", ".join(f"coalesce(sum(decision = '{d}'), 0)" for d in CHART_DECISIONS)
        part = f"SELECT ?, {sums} FROM subconscious_log WHERE created_at >= ? AND created_at < ?"
        params: list[object] = []
        for index in range(len(bounds) - 1):
            params.extend((index, bounds[index], bounds[index + 1]))
        rows = await self._db.fetchall(" UNION ALL ".join([part] * (len(bounds) - 1)), params)
        ordered = sorted(rows, key=lambda row: int(row[0]))
        return [(int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in ordered]

    async def count(self) -> int:
        row = await self._db.fetchone("SELECT count(*) FROM subconscious_log")
        return int(row[0]) if row else 0

    async def prune(self, *, retention_days: int, max_rows: int, now: float) -> int:
        """Apply the retention policy: drop rows older than ``retention_days``, then all but the newest
        ``max_rows``. Running rows and rows behind a pending approval are kept. Returns rows deleted."""
        cutoff = now - retention_days * 86_400
        deleted = await self._db.execute(
            f"DELETE FROM subconscious_log WHERE created_at < ? AND {_PROTECTED}", (cutoff,)
        )
        row = await self._db.fetchone(
            "SELECT created_at, id FROM subconscious_log ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?",
            (max(0, max_rows - 1),),
        )
        if row is not None:
            deleted += await self._db.execute(
                f"DELETE FROM subconscious_log WHERE (created_at, id) < (?, ?) AND {_PROTECTED}", (row[0], row[1])
            )
        return deleted


def local_day_starts(now: float, days: int) -> list[float]:
    """The bounds of the last ``days`` local days up to and including today: ``days + 1`` unix times, from the
    first day's local midnight to the next midnight after ``now`` (daylight-saving days are 23 or 25 hours)."""
    today = datetime.fromtimestamp(now).date()
    first = today - timedelta(days=days - 1)
    return [datetime.combine(first + timedelta(days=i), datetime.min.time()).timestamp() for i in range(days + 1)]


def after_newest(now: float, newest: float | None) -> float:
    """The ``created_at`` of a row written at ``now`` when the newest row has ``newest`` (see ``_after``)."""
    return _after(now, newest)


def _after(now: float, newest: float | None) -> float:
    """``now``, or just after ``newest`` when ``now`` would not sort after it (same instant, tiny step back)."""
    if newest is None or now > newest or newest - now > _TIE_WINDOW_SECONDS:
        return now
    return max(newest + 1e-6, math.nextafter(newest, math.inf))
