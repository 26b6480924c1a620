"""The durable run ledger: runs, checkpointed transitions (deltas + snapshots), the effects journal and the
world timeline, in one SQLite file (``{workspace}/agent/ledger.db``).

Durability: which commits are synced, and why that is enough
-------------------------------------------------------------
Every write is one committed transaction, so a kill -9 loses nothing committed: the WAL is in the operating
system's cache, which outlives the process. Only a power cut (or a kernel crash) loses commits, and then only
those since the last *synced* one: WAL frames carry a running checksum, so what survives is always a prefix
of the commits, never a hole. At ``synchronous`` FULL the ledger therefore syncs only where a commit must
survive a power cut, and lets everything else ride on the next synced commit:

1. **A run is recorded** (:meth:`RunLedger.create_run`, synced): the caller is told the run exists (an RPC
   answer, a Telegram update acknowledged), so it must not vanish.
2. **An effect is about to happen** (:meth:`RunLedger.begin`, synced): a write tool call's intent (its
   arguments, the target's fingerprint and the fingerprint the call will leave) is on disk before the call
   runs. Syncing it also makes every earlier commit durable: the model answer that asked for the call, the
   transitions before it.
3. **A run has ended** (:meth:`RunLedger.finish_run`, synced): its outcome is what channels deliver and what
   cards and the heartbeat act on.

Everything else is committed without a sync of its own: node transitions, model answers, a write's result,
``running``, the permission, ``delivered``, retention. After a power cut the lost suffix is *recomputed*,
never repeated as an effect:

- A lost transition or model answer: the run resumes from the last durable checkpoint and asks again (no
  one outside has acted on it; a streamed answer the person already saw is composed again).
- A lost write *result*: its intent is durable (rule 2 came before the write), so the resumed sub-agent finds
  the call begun and unfinished and settles it by the call's expected result (``subagent._settle``): the
  target as the call leaves it → it took effect (recorded now); unchanged → it never ran (or its data was lost
  with the power) and runs now; anything else → it may or may not have happened, and becomes a card. A write
  is never run twice on the strength of a lost record, and never reported done without evidence.
- Nothing runs an effect whose intent is not durable, so no effect can exist that the resumed run does not
  know about. A result never needs its own sync to protect the next step: anything that depends on it is
  either another effect (whose synced intent carries the result with it) or the run's end (synced).
- A lost ``delivered`` mark: the answer is offered to its channel again at the next start (a repeated
  message, never a repeated write).

A short run (no tool call) thus makes two synced commits, a write call adds one. What a write tool changes
must itself be on disk before its result is recorded, or a power cut could keep the record of a write and lose
the write: the files skill syncs what it writes. (Not yet so: the task and memory databases commit at NORMAL,
and cards go to the task database, so a power cut can still lose a task, a memory or a card the ledger says
were made.)
"""

from __future__ import annotations

import json
import logging
import sqlite3
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from openhuman_desktop.clock import Clock
from openhuman_desktop.errors import NotFound
from openhuman_desktop.orchestration import steering, world
from openhuman_desktop.orchestration.graph import AS_NODES, SUBCONSCIOUS_CRON
from openhuman_desktop.orchestration.ledger_schema import LEDGER_MIGRATIONS
from openhuman_desktop.orchestration.ports import (
    FAILED,
    QUEUED,
    QUICK_TIER,
    REASONING_TIER,
    RUN_STATUSES,
    RUNNING,
    UNFINISHED,
    Failure,
    JournalEntry,
    Permission,
    ProposedCall,
    Run,
    RunRequest,
    RunStatus,
    TimelineEntry,
    WriteLicense,
)
from openhuman_desktop.orchestration.state import (
    COMPRESSED_HISTORY,
    KEYS,
    SUBCONSCIOUS_STEERING,
    Values,
    apply,
    initial_values,
)
from openhuman_desktop.orchestration.steering import Directive, DirectiveDraft, HistoryRecord, Reflection
from openhuman_desktop.skills.base import Mutation
from openhuman_desktop.store.database import Database

log = logging.getLogger(__name__)

T = TypeVar("T")

SNAPSHOT_FLOOR_BYTES = 4096
"""No snapshot before this many delta bytes: a short thread is read from its few deltas."""
SNAPSHOT_MAX_TRANSITIONS = 512
"""A snapshot at least this often, so a thread of many tiny updates is never folded from thousands of rows."""
MAX_CACHED_TIPS = 4096
"""Threads whose snapshot bookkeeping is kept in memory (each a few numbers)."""
WAL_AUTOCHECKPOINT_PAGES = 10_000
"""~40 MB of log between checkpoints (as ``store.database``'s): a checkpoint syncs the log and the database, two
fsyncs; a short run adds ~27 pages, so SQLite's default of 1,000 pages cost 0.08 fsyncs per run on top of its two,
10,000 costs 0.005. Closing the ledger checkpoints and truncates the log."""
WAL_SIZE_LIMIT_BYTES = 8 * 1024 * 1024
"""After a checkpoint the log is cut back to this size (``journal_size_limit``) instead of keeping its peak."""

_RUN_COLUMNS = ("id, thread_id, channel_source, status, input, response, error, steps, steering_version, "
                "created_at, finished_at, permission, purpose, task_id, escalation_id, tools_used, "
                "recommended_action, changed_something, failure, title, spec, unexecuted")
_CHECKPOINT_COLUMNS = "id, thread_id, run_id, step, node, changed, next, created_at"


@dataclass(frozen=True)
class Checkpoint:
    """One committed node transition (CONTRACT §8's Checkpoint, plus ``next`` and ``thread_id``)."""

    checkpoint_id: int
    thread_id: str
    run_id: str | None
    step: int
    node: str
    changed: tuple[str, ...]
    next: str | None
    created_at: float

    def to_json(self) -> dict[str, Any]:
        return {"checkpoint_id": self.checkpoint_id, "run_id": self.run_id, "step": self.step, "node": self.node,
                "changed": list(self.changed), "created_at": self.created_at, "next": self.next,
                "thread_id": self.thread_id}


@dataclass(frozen=True)
class ThreadHead:
    """A thread's values now (snapshot + deltas folded) and its last checkpoint (all None/0 for a new thread)."""

    thread_id: str
    values: Values
    checkpoint_id: int | None
    node: str | None
    next: str | None
    run_id: str | None
    step: int


@dataclass
class _Tip:
    """What deciding on a snapshot needs to know about a thread (kept in memory, rebuilt from the file)."""

    snapshot_bytes: int
    delta_bytes: int
    transitions: int

    def is_snapshot_due(self) -> bool:
        """Total size stays linear: a snapshot only once the deltas since the last outweigh it (sizes grow
        geometrically); reads stay cheap: never more deltas to fold than that snapshot's size in bytes, nor
        more than :data:`SNAPSHOT_MAX_TRANSITIONS` rows."""
        return (self.delta_bytes >= max(self.snapshot_bytes, SNAPSHOT_FLOOR_BYTES)
                or self.transitions >= SNAPSHOT_MAX_TRANSITIONS)


def _dumps(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"the ledger stores JSON only: {exc}") from exc


def _run(row: sqlite3.Row) -> Run:
    spec = json.loads(row["spec"]) if row["spec"] else {}
    tools = spec.get("tools")
    return Run(
        id=row["id"], thread_id=row["thread_id"], channel_source=row["channel_source"], status=row["status"],
        input=row["input"], created_at=row["created_at"], response=row["response"], error=row["error"],
        steps=row["steps"], steering_version=row["steering_version"], finished_at=row["finished_at"],
        permission=row["permission"], purpose=row["purpose"], task_id=row["task_id"],
        escalation_id=row["escalation_id"], tools_used=tuple(json.loads(row["tools_used"])),
        recommended_action=row["recommended_action"], changed_something=bool(row["changed_something"]),
        failure=row["failure"], title=row["title"],
        tier=QUICK_TIER if spec.get("tier") == QUICK_TIER else REASONING_TIER,
        tools=tuple(tools) if isinstance(tools, list) else None,
        license=WriteLicense.from_json(spec["license"]) if isinstance(spec.get("license"), dict) else None,
        call=ProposedCall.from_json(spec["call"]) if isinstance(spec.get("call"), dict) else None,
        unexecuted=tuple(json.loads(row["unexecuted"] or "[]")))


def _checkpoint(row: sqlite3.Row) -> Checkpoint:
    return Checkpoint(checkpoint_id=row["id"], thread_id=row["thread_id"], run_id=row["run_id"], step=row["step"],
                      node=row["node"], changed=tuple(json.loads(row["changed"])), next=row["next"],
                      created_at=row["created_at"])


def _fold(conn: sqlite3.Connection, thread_id: str, upto: int) -> Values:
    """The thread's values after checkpoint ``upto``: the last snapshot at or before it, then the deltas."""
    row = conn.execute("SELECT checkpoint_id, state FROM snapshots WHERE thread_id = ? AND checkpoint_id <= ? "
                       "ORDER BY checkpoint_id DESC LIMIT 1", (thread_id, upto)).fetchone()
    values = json.loads(row["state"]) if row else initial_values()
    since = row["checkpoint_id"] if row else 0
    for (delta,) in conn.execute("SELECT delta FROM checkpoints WHERE thread_id = ? AND id > ? AND id <= ? "
                                 "ORDER BY id", (thread_id, since, upto)):
        values = apply(values, json.loads(delta))
    return values


class RunLedger:
    """The agent's durable record: implements ``graph.Checkpointer`` and ``ports.StepJournal``.

    One connection (``store.database.Database``), WAL, ``synchronous`` FULL by default. Every write is one
    transaction, run on the connection's thread in one hop; only the durable points of the module docstring
    (a run recorded, an effect's intent, a run's end, and what an RPC caller is told was saved) are synced,
    the rest becomes durable with the next synced commit (bench/README.md, "Agent ledger", has the figures).
    """

    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock
        self.path: Path = db.path
        self._tips: dict[str, _Tip] = {}  # touched only by work running on the connection's thread

    @classmethod
    async def open(cls, path: Path, clock: Clock, *, synchronous: str = "FULL") -> RunLedger:
        """Open (or create) the ledger at ``path``, migrated to the current schema.

        Raises:
            StoreUnavailable: the file cannot be created or opened, is locked, damaged or not a database.
        """
        db = await Database.open(path, LEDGER_MIGRATIONS, synchronous=synchronous)
        await db.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}")
        await db.execute(f"PRAGMA journal_size_limit = {WAL_SIZE_LIMIT_BYTES}")
        return cls(db, clock)

    async def aclose(self) -> None:
        """Checkpoint the WAL and close; safe to call twice."""
        await self._db.aclose()

    @property
    def synced_commits(self) -> int:
        """Commits that were synced since opening (none at ``synchronous`` NORMAL): the durable points of the
        module docstring."""
        return self._db.synced_commits

    async def _read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        return await self._db.in_thread(work)

    async def _write(self, work: Callable[[sqlite3.Connection], T], thread_id: str | None = None, *,
                     synced: bool) -> T:
        """Commit ``work`` in one transaction; ``synced``: on disk before this returns (a durable point of the
        module docstring), else with the next synced commit."""
        try:
            return await self._db.in_thread(work, write=True, synced=synced)
        except BaseException:
            if thread_id is not None:
                self._tips.pop(thread_id, None)  # rolled back (or unknown): rebuilt from the file next time
            raise

    # --- runs -----------------------------------------------------------------------------------------

    async def create_run(self, request: RunRequest) -> Run:
        """Record a new run (``queued``, committed) and return it; a request whose ``source_key`` a run
        already has returns that run instead (nothing is written)."""
        run = Run(id=uuid.uuid4().hex, thread_id=request.thread_id, channel_source=request.channel_source,
                  status=QUEUED, input=request.text, created_at=self._clock.now(), permission=request.permission,
                  purpose=request.purpose, task_id=request.task_id, escalation_id=request.escalation_id,
                  title=request.title, tier=request.tier, tools=request.tools, license=request.license,
                  call=request.call)
        spec = request.spec_json()

        def work(conn: sqlite3.Connection) -> Run:
            if request.source_key is not None:
                row = conn.execute(f"SELECT {_RUN_COLUMNS} FROM runs WHERE source_key = ?",
                                   (request.source_key,)).fetchone()
                if row is not None:
                    return _run(row)
            conn.execute(
                "INSERT INTO runs (id, thread_id, channel_source, status, input, created_at, permission, purpose, "
                "task_id, escalation_id, source_key, title, spec) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (run.id, run.thread_id, run.channel_source, run.status, run.input, run.created_at,
                 run.permission, run.purpose, run.task_id, run.escalation_id, request.source_key, run.title,
                 _dumps(spec) if spec is not None else None))
            return run
        return await self._write(work, synced=True)  # durable point 1

    async def get_run(self, run_id: str) -> Run | None:
        """The run, or None."""
        def work(conn: sqlite3.Connection) -> Run | None:
            row = conn.execute(f"SELECT {_RUN_COLUMNS} FROM runs WHERE id = ?", (run_id,)).fetchone()
            return _run(row) if row else None
        return await self._read(work)

    async def list_runs(self, thread_id: str | None = None, status: str | None = None,
                        limit: int = 50) -> list[Run]:
        """Runs, newest first, optionally of one thread and/or with one status."""
        where, params = [], []
        if thread_id is not None:
            where.append("thread_id = ?")
            params.append(thread_id)
        if status is not None:
            where.append("status = ?")
            params.append(status)
        clause = f"WHERE {' AND '.join(where)}" if where else ""

        def work(conn: sqlite3.Connection) -> list[Run]:
            rows = conn.execute(f"SELECT {_RUN_COLUMNS} FROM runs {clause} ORDER BY seq DESC LIMIT ?",
                                (*params, max(0, limit))).fetchall()
            return [_run(row) for row in rows]
        return await self._read(work)

    async def unfinished_runs(self) -> list[Run]:
        """Queued and running runs, oldest first (the order they resume in)."""
        def work(conn: sqlite3.Connection) -> list[Run]:
            rows = conn.execute(f"SELECT {_RUN_COLUMNS} FROM runs WHERE status IN (?, ?) ORDER BY seq",
                                UNFINISHED).fetchall()
            return [_run(row) for row in rows]
        return await self._read(work)

    async def _update_run(self, run_id: str, assignments: str, params: Sequence[Any], *, synced: bool) -> Run:
        def work(conn: sqlite3.Connection) -> Run | None:
            conn.execute(f"UPDATE runs SET {assignments} WHERE id = ?", (*params, run_id))
            row = conn.execute(f"SELECT {_RUN_COLUMNS} FROM runs WHERE id = ?", (run_id,)).fetchone()
            return _run(row) if row else None
        run = await self._write(work, synced=synced)
        if run is None:
            raise NotFound(f"There is no run {run_id}.")
        return run

    async def mark_running(self, run_id: str, *, permission: Permission | None, steering_version: int | None) -> Run:
        """The run is ``running``; ``permission`` / ``steering_version`` are set where given (None keeps them).

        Committed without a sync of its own (see the module docstring): lost with everything after it, the
        run is ``queued`` with nothing done, which resumes the same way.

        Raises:
            NotFound: no such run.
        """
        return await self._update_run(
            run_id, "status = ?, permission = coalesce(?, permission), "
                    "steering_version = coalesce(?, steering_version)",
            (RUNNING, permission, steering_version), synced=False)

    async def set_permission(self, run_id: str, permission: Permission) -> None:
        """Record the permission the front-end agent decided (no sync of its own: lost together with its
        node's transition, the node runs again and decides again).

        Raises:
            NotFound: no such run.
        """
        await self._update_run(run_id, "permission = ?", (permission,), synced=False)

    async def finish_run(self, run_id: str, status: RunStatus, *, response: str | None = None, error: str | None = None,
                         tools_used: Sequence[str] = (), recommended_action: str | None = None,
                         changed_something: bool = False, failure: Failure | None = None,
                         unexecuted: Sequence[str] = ()) -> Run:
        """Record how the run ended (``completed``, ``failed`` or ``cancelled``; ``failure`` says why a
        failed run failed). Synced: durable point 3 of the module docstring.

        Raises:
            ValueError: ``status`` is not a finished status.
            NotFound: no such run.
        """
        if status not in RUN_STATUSES or status in UNFINISHED:
            raise ValueError(f"a run finishes completed, failed or cancelled, not {status!r}")
        return await self._update_run(
            run_id, "status = ?, response = ?, error = ?, tools_used = ?, recommended_action = ?, "
                    "changed_something = ?, failure = ?, finished_at = ?, unexecuted = ?",
            (status, response, error, _dumps(list(tools_used)), recommended_action, int(changed_something),
             failure if status == FAILED else None, self._clock.now(), _dumps(list(unexecuted))), synced=True)

    async def requeue(self, run_id: str) -> Run:
        """A failed or cancelled run is ``queued`` again, to be driven from its last checkpoint.

        Raises:
            NotFound: no such run.
        """
        return await self._update_run(
            run_id, "status = ?, error = NULL, failure = NULL, finished_at = NULL, delivered_at = NULL", (QUEUED,),
            synced=True)  # the caller is told the run goes on

    async def undelivered_runs(self, channel_source: str, limit: int = 100) -> list[Run]:
        """Finished runs of a channel whose answer has not reached it yet, oldest first."""
        def work(conn: sqlite3.Connection) -> list[Run]:
            rows = conn.execute(f"SELECT {_RUN_COLUMNS} FROM runs WHERE channel_source = ? AND delivered_at IS NULL "
                                "AND finished_at IS NOT NULL ORDER BY seq LIMIT ?",
                                (channel_source, max(0, limit))).fetchall()
            return [_run(row) for row in rows]
        return await self._read(work)

    async def mark_delivered(self, run_id: str) -> None:
        """The run's answer has reached its channel (it is not sent again after a restart; not synced: after a
        power cut the answer may be offered to its channel once more)."""
        def work(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE runs SET delivered_at = ? WHERE id = ? AND delivered_at IS NULL",
                         (self._clock.now(), run_id))
        await self._write(work, synced=False)  # lost: the answer is offered again

    async def runs_for_escalation(self, escalation_id: str) -> list[Run]:
        """The runs that carry out an approved card, newest first."""
        def work(conn: sqlite3.Connection) -> list[Run]:
            rows = conn.execute(f"SELECT {_RUN_COLUMNS} FROM runs WHERE escalation_id = ? ORDER BY seq DESC",
                                (escalation_id,)).fetchall()
            return [_run(row) for row in rows]
        return await self._read(work)

    # --- checkpoints (graph.Checkpointer) -------------------------------------------------------------

    def _tip(self, conn: sqlite3.Connection, thread_id: str) -> _Tip:
        tip = self._tips.get(thread_id)
        if tip is None:
            if len(self._tips) >= MAX_CACHED_TIPS:
                self._tips.clear()  # rebuilt from the file when next needed: a cache, never the truth
            row = conn.execute("SELECT checkpoint_id, length(state) FROM snapshots WHERE thread_id = ? "
                               "ORDER BY checkpoint_id DESC LIMIT 1", (thread_id,)).fetchone()
            since, size = (row[0], row[1]) if row else (0, 0)
            count, total = conn.execute("SELECT count(*), coalesce(sum(length(delta)), 0) FROM checkpoints "
                                        "WHERE thread_id = ? AND id > ?", (thread_id, since)).fetchone()
            tip = self._tips[thread_id] = _Tip(size, total, count)
        return tip

    def _insert_checkpoint(self, conn: sqlite3.Connection, thread_id: str, run_id: str | None, step: int,
                           node: str, changed: tuple[str, ...], delta: str, next_node: str | None,
                           at: float) -> Checkpoint:
        tip = self._tip(conn, thread_id)  # before the insert: a tip rebuilt from the file must not count it
        cursor = conn.execute(
            "INSERT INTO checkpoints (thread_id, run_id, step, node, changed, next, delta, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (thread_id, run_id, step, node, _dumps(changed), next_node, delta, at))
        checkpoint_id = cursor.lastrowid
        assert checkpoint_id is not None
        tip.delta_bytes += len(delta)
        tip.transitions += 1
        if tip.is_snapshot_due():
            state = _dumps(_fold(conn, thread_id, checkpoint_id))
            conn.execute("INSERT INTO snapshots (checkpoint_id, thread_id, state) VALUES (?, ?, ?)",
                         (checkpoint_id, thread_id, state))
            self._tips[thread_id] = _Tip(len(state), 0, 0)
        return Checkpoint(checkpoint_id, thread_id, run_id, step, node, changed, next_node, at)

    async def commit(self, run_id: str, thread_id: str, step: int, node: str, update: Mapping[str, Any],
                     next_node: str | None) -> Checkpoint:
        """Record that ``node`` returned ``update`` at ``step`` and ``next_node`` runs next, in one transaction:
        the checkpoint row (the update as given), a full snapshot when one is due, and the run's ``steps``.
        Not synced (see the module docstring): a kill loses none of it, a power cut may lose it and the node
        runs again.

        Raises:
            ValueError: ``update`` names a key that is not a state key, or is not JSON.
        """
        unknown = sorted(key for key in update if key not in KEYS)
        if unknown:
            raise ValueError(f"unknown state key(s) in the update of {node}: {', '.join(unknown)}")
        delta, changed, at = _dumps(update), tuple(update), self._clock.now()

        def work(conn: sqlite3.Connection) -> Checkpoint:
            checkpoint = self._insert_checkpoint(conn, thread_id, run_id, step, node, changed, delta, next_node, at)
            conn.execute("UPDATE runs SET steps = ? WHERE id = ?", (step, run_id))
            if COMPRESSED_HISTORY in update:
                steering.log_history(conn, thread_id, run_id, update[COMPRESSED_HISTORY], at)
            if SUBCONSCIOUS_STEERING in update:  # the directive this run used (None: none)
                used = update[SUBCONSCIOUS_STEERING]
                version = used.get("version") if isinstance(used, Mapping) else None
                conn.execute("UPDATE runs SET steering_version = ? WHERE id = ?",
                             (version if isinstance(version, int) else None, run_id))
            return checkpoint
        return await self._write(work, thread_id, synced=False)

    async def head(self, thread_id: str) -> ThreadHead:
        """The thread's values now and its last checkpoint (a new thread: its initial values, nothing else)."""
        def work(conn: sqlite3.Connection) -> ThreadHead:
            row = conn.execute(f"SELECT {_CHECKPOINT_COLUMNS} FROM checkpoints WHERE thread_id = ? "
                               "ORDER BY id DESC LIMIT 1", (thread_id,)).fetchone()
            if row is None:
                return ThreadHead(thread_id, initial_values(), None, None, None, None, 0)
            return ThreadHead(thread_id, _fold(conn, thread_id, row["id"]), row["id"], row["node"], row["next"],
                              row["run_id"], row["step"])
        return await self._read(work)

    async def state_at(self, checkpoint_id: int) -> Values:
        """The thread's values right after checkpoint ``checkpoint_id``.

        Raises:
            NotFound: no such checkpoint (never written, or folded away by :meth:`retain`).
        """
        def work(conn: sqlite3.Connection) -> Values | None:
            row = conn.execute("SELECT thread_id FROM checkpoints WHERE id = ?", (checkpoint_id,)).fetchone()
            return None if row is None else _fold(conn, row["thread_id"], checkpoint_id)
        values = await self._read(work)
        if values is None:
            raise NotFound(f"There is no checkpoint {checkpoint_id} (it may have been folded away by retention).")
        return values

    async def update_state(self, thread_id: str, values: Mapping[str, Any], as_node: str) -> Checkpoint:
        """Write ``values`` into the thread as if ``as_node`` had returned them (the reducers apply); later runs
        see them. The checkpoint has no run, step 0 and no next node (the thread stays idle).

        Raises:
            ValueError: ``as_node`` is not a node name or ``subconscious_cron``; ``values`` does not fit the
                state (``state.StateError``) or is not JSON.
        """
        if as_node not in AS_NODES:
            raise ValueError(f"as_node must be one of {', '.join(AS_NODES)}, not {as_node!r}")
        delta, changed, at = _dumps(dict(values)), tuple(values), self._clock.now()
        update = json.loads(delta)

        def work(conn: sqlite3.Connection) -> Checkpoint:
            row = conn.execute("SELECT max(id) FROM checkpoints WHERE thread_id = ?", (thread_id,)).fetchone()
            current = initial_values() if row[0] is None else _fold(conn, thread_id, row[0])
            apply(current, update)  # StateError (a ValueError) before anything is written
            if COMPRESSED_HISTORY in update:
                steering.log_history(conn, thread_id, None, update[COMPRESSED_HISTORY], at)
            return self._insert_checkpoint(conn, thread_id, None, 0, as_node, changed, delta, None, at)
        return await self._write(work, thread_id, synced=True)  # the caller is told it is saved

    async def history(self, thread_id: str, limit: int = 50, before: int | None = None) -> list[Checkpoint]:
        """The thread's checkpoints, newest first, optionally only those older than checkpoint ``before``."""
        def work(conn: sqlite3.Connection) -> list[Checkpoint]:
            rows = conn.execute(f"SELECT {_CHECKPOINT_COLUMNS} FROM checkpoints WHERE thread_id = ? AND id < ? "
                                "ORDER BY id DESC LIMIT ?",
                                (thread_id, (1 << 62) if before is None else before, max(0, limit))).fetchall()
            return [_checkpoint(row) for row in rows]
        return await self._read(work)

    async def threads(self) -> list[str]:
        """Every thread the ledger knows (one with a run or a checkpoint), sorted."""
        def work(conn: sqlite3.Connection) -> list[str]:
            rows = conn.execute("SELECT thread_id FROM runs UNION SELECT thread_id FROM checkpoints "
                                "ORDER BY thread_id").fetchall()
            return [row[0] for row in rows]
        return await self._read(work)

    async def has_thread(self, thread_id: str) -> bool:
        """Whether the ledger knows ``thread_id`` (it has a run or a checkpoint)."""
        def work(conn: sqlite3.Connection) -> bool:
            row = conn.execute("SELECT EXISTS (SELECT 1 FROM runs WHERE thread_id = ?) OR EXISTS "
                               "(SELECT 1 FROM checkpoints WHERE thread_id = ?)", (thread_id, thread_id)).fetchone()
            return bool(row[0])
        return await self._read(work)

    # --- the effects journal (ports.StepJournal) ------------------------------------------------------

    async def get(self, run_id: str, step: int, key: str) -> JournalEntry | None:
        """What the journal holds for ``key`` of the run's ``step``, or None (never begun)."""
        def work(conn: sqlite3.Connection) -> JournalEntry | None:
            row = conn.execute("SELECT intent, result, timeline_first, timeline_count FROM journal "
                               "WHERE run_id = ? AND step = ? AND key = ?", (run_id, step, key)).fetchone()
            if row is None:
                return None
            result = None if row["result"] is None else json.loads(row["result"])
            timeline = world.read_range(conn, row["timeline_first"] or 0, row["timeline_count"])
            return JournalEntry(run_id, step, key, json.loads(row["intent"]), result, timeline)
        return await self._read(work)

    async def begin(self, run_id: str, step: int, key: str, intent: Mapping[str, Any]) -> None:
        """Record that ``key`` is about to run, synced before it does (durable point 2 of the module docstring);
        a key that already has a result keeps it (nothing is recorded twice), one that had begun gets the new
        intent."""
        text, at = _dumps(dict(intent)), self._clock.now()

        def work(conn: sqlite3.Connection) -> None:
            conn.execute("INSERT INTO journal (run_id, step, key, intent, begun_at) VALUES (?, ?, ?, ?, ?) "
                         "ON CONFLICT (run_id, step, key) DO UPDATE SET intent = excluded.intent, "
                         "begun_at = excluded.begun_at WHERE journal.result IS NULL",
                         (run_id, step, key, text, at))
        await self._write(work, synced=True)  # durable point 2

    async def unfinished(self) -> list[JournalEntry]:
        """Entries begun and never finished of queued or running runs, oldest first (a kill came between)."""
        def work(conn: sqlite3.Connection) -> list[JournalEntry]:
            rows = conn.execute("SELECT j.run_id, j.step, j.key, j.intent FROM journal j JOIN runs r ON r.id = "
                                "j.run_id WHERE j.result IS NULL AND r.status IN (?, ?) ORDER BY j.begun_at",
                                UNFINISHED).fetchall()
            return [JournalEntry(row["run_id"], row["step"], row["key"], json.loads(row["intent"]), None)
                    for row in rows]
        return await self._read(work)

    async def finish(self, run_id: str, step: int, key: str, result: Mapping[str, Any],
                     mutations: Sequence[Mutation] = ()) -> tuple[TimelineEntry, ...]:
        """Record ``key``'s result and one timeline entry per mutation, in one commit (not synced: a result lost
        to a power cut leaves its intent, which the resumed run settles; see the module docstring).

        A key that already has a result is not recorded again: its first result stands and the timeline
        entries written then are returned (so a replayed call never appends a mutation twice).
        """
        text, at = _dumps(dict(result)), self._clock.now()

        def work(conn: sqlite3.Connection) -> tuple[TimelineEntry, ...]:
            row = conn.execute("SELECT result, timeline_first, timeline_count FROM journal "
                               "WHERE run_id = ? AND step = ? AND key = ?", (run_id, step, key)).fetchone()
            if row is not None and row["result"] is not None:
                log.warning("journal %s step %d %s: already finished, the first result stands", run_id, step, key)
                return world.read_range(conn, row["timeline_first"] or 0, row["timeline_count"])
            entries = world.append_entries(conn, mutations, run_id, at)
            first = entries[0].sequence if entries else None
            conn.execute("INSERT INTO journal (run_id, step, key, intent, result, timeline_first, timeline_count, "
                         "finished_at) VALUES (?, ?, ?, '{}', ?, ?, ?, ?) ON CONFLICT (run_id, step, key) DO UPDATE "
                         "SET result = excluded.result, timeline_first = excluded.timeline_first, "
                         "timeline_count = excluded.timeline_count, finished_at = excluded.finished_at",
                         (run_id, step, key, text, first, len(entries), at))
            return entries
        return await self._write(work, synced=False)  # see the module docstring

    # --- the world timeline ---------------------------------------------------------------------------

    async def timeline(self, after: int = 0, limit: int = 100) -> list[TimelineEntry]:
        """Timeline entries with a sequence above ``after``, oldest first."""
        return await self._read(partial(world.read_entries, after=after, limit=max(0, limit)))

    async def append_timeline(self, mutations: Sequence[Mutation], run_id: str | None) -> tuple[TimelineEntry, ...]:
        """Append one entry per mutation (outside the journal, e.g. a steering change), in one commit."""
        at = self._clock.now()
        return await self._write(lambda conn: world.append_entries(conn, mutations, run_id, at), synced=True)

    # --- reflection's inputs and steering (``steering.py``) -------------------------------------------

    async def history_log(self, after: int = 0, limit: int = 1000) -> list[HistoryRecord]:
        """Compressed-history entries of every thread with a log sequence above ``after``, oldest first."""
        return await self._read(partial(steering.read_history, after=after, limit=max(0, limit)))

    async def tails(self) -> tuple[int, int]:
        """The newest history-log and timeline sequence numbers (0 when empty)."""
        return await self._read(steering.tails)

    async def directives(self, limit: int = 50, before: int | None = None) -> list[Directive]:
        """Steering directives, newest version first (``before``: only versions below it)."""
        return await self._read(partial(steering.read_directives, limit=max(0, limit), before=before))

    async def directive(self, version: int) -> Directive | None:
        return await self._read(partial(steering.read_directive, version=version))

    async def add_directive(self, draft: DirectiveDraft, *, broadcast_since: float) -> Directive:
        """Write a new directive version in one commit with its ``steering_changed`` timeline entry and, for
        every thread at rest with a checkpoint after ``broadcast_since``, a ``subconscious_cron`` checkpoint
        that sets ``subconscious_steering`` (so ``agent_state_get`` shows it before the thread's next run)."""
        at = self._clock.now()
        touched: list[str] = []

        def work(conn: sqlite3.Connection) -> Directive:
            directive = steering.insert_directive(conn, draft, at)
            what = "cleared" if directive.is_cleared else f"{len(directive.text):,} characters"
            world.append_entries(conn, [Mutation("steering_changed", f"v{directive.version}",
                                                 f"{directive.source}: {what}")], None, at)
            value = steering.steering_value(directive)
            delta = _dumps({SUBCONSCIOUS_STEERING: value})
            for thread_id in steering.idle_threads(conn, broadcast_since):
                touched.append(thread_id)
                self._insert_checkpoint(conn, thread_id, None, 0, SUBCONSCIOUS_CRON, (SUBCONSCIOUS_STEERING,), delta,
                                        None, at)
            return directive
        try:
            return await self._write(work, synced=True)  # the caller is told it is saved
        except BaseException:
            for thread_id in touched:
                self._tips.pop(thread_id, None)
            raise

    async def record_reflection(self, reflection: Reflection) -> Reflection:
        """Record one reflection (its ``id`` is assigned here)."""
        return await self._write(partial(steering.insert_reflection, reflection=reflection), synced=True)

    async def reflections(self, limit: int = 20) -> list[Reflection]:
        """The latest reflections, newest first."""
        return await self._read(partial(steering.read_reflections, limit=max(0, limit)))

    async def reflection_news(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """``((history_after, timeline_after), (new_history, new_timeline))``: the last reflection's watermark
        and how many entries came after it (steering changes do not count)."""
        def work(conn: sqlite3.Connection) -> tuple[tuple[int, int], tuple[int, int]]:
            mark = steering.watermark(conn)
            return mark, steering.news_since(conn, *mark)
        return await self._read(work)

    # --- housekeeping ---------------------------------------------------------------------------------

    async def retain(self, *, keep_runs_per_thread: int = 20, keep_seconds: float = 30 * 86400) -> int:
        """Fold old runs away so the file stays bounded; returns how many runs were removed.

        Per thread a finished run goes once it is beyond the newest ``keep_runs_per_thread`` or finished more
        than ``keep_seconds`` ago. The oldest checkpoint still needed (the first of the oldest kept run, or
        the thread's last) gets a full snapshot, and older checkpoints, snapshots, the removed runs and their
        journal rows are deleted. Unfinished runs and the world timeline are never touched; ``head()`` of
        every thread is unchanged. The compressed-history log loses its entries older than ``keep_seconds``
        (reflection looks at trends of recent weeks; the log would otherwise grow with every run forever).
        """
        horizon = self._clock.now() - keep_seconds
        threads = await self.threads()
        removed = 0
        for thread_id in threads:
            removed += await self._write(
                partial(self._retain_thread, thread_id=thread_id, keep=max(0, keep_runs_per_thread),
                        horizon=horizon), thread_id, synced=False)  # lost: done again next time
        # The newest entry always stays: its seq keeps SQLite from handing out numbers a reflection has seen.
        dropped = await self._write(lambda conn: conn.execute(
            "DELETE FROM history_log WHERE at < ? AND seq < (SELECT max(seq) FROM history_log)", (horizon,)).rowcount,
            synced=False)
        if dropped:
            log.info("ledger retention: %d compressed-history entries older than %d days dropped", dropped,
                     keep_seconds // 86400)
        return removed

    def _retain_thread(self, conn: sqlite3.Connection, thread_id: str, keep: int, horizon: float) -> int:
        runs = conn.execute(
            "SELECT r.id, r.status, r.created_at, r.finished_at, min(c.id) AS first, max(c.id) AS last "
            "FROM runs r LEFT JOIN checkpoints c ON c.run_id = r.id WHERE r.thread_id = ? "
            "GROUP BY r.id ORDER BY r.seq DESC", (thread_id,)).fetchall()
        kept: list[sqlite3.Row] = []
        candidates: list[sqlite3.Row] = []
        for index, run in enumerate(runs):
            is_old = index >= keep or (run["finished_at"] or run["created_at"]) < horizon
            (candidates if run["status"] not in UNFINISHED and is_old else kept).append(run)
        last = conn.execute("SELECT max(id) FROM checkpoints WHERE thread_id = ?", (thread_id,)).fetchone()[0]
        cutoff = min([run["first"] for run in kept if run["first"] is not None] + ([last] if last else []),
                     default=None)
        gone = [run["id"] for run in candidates
                if run["last"] is None or (cutoff is not None and run["last"] <= cutoff)]
        if cutoff is not None:
            oldest = conn.execute("SELECT min(id) FROM checkpoints WHERE thread_id = ?", (thread_id,)).fetchone()[0]
            if oldest < cutoff:
                state = _dumps(_fold(conn, thread_id, cutoff))
                conn.execute("INSERT OR REPLACE INTO snapshots (checkpoint_id, thread_id, state) VALUES (?, ?, ?)",
                             (cutoff, thread_id, state))
                conn.execute("DELETE FROM snapshots WHERE thread_id = ? AND checkpoint_id < ?", (thread_id, cutoff))
                conn.execute("DELETE FROM checkpoints WHERE thread_id = ? AND id < ?", (thread_id, cutoff))
                self._tips.pop(thread_id, None)
        for run_id in gone:
            conn.execute("DELETE FROM journal WHERE run_id = ?", (run_id,))
            conn.execute("DELETE FROM runs WHERE id = ?", (run_id,))
        if gone:
            log.info("ledger retention: thread %s, %d run(s) folded into its snapshot", thread_id, len(gone))
        return len(gone)

    # --- reads for the Intelligence window's Agent tab -----------------------------------------------

    async def runs_page(self, limit: int = 50, before: str | None = None) -> list[Run]:
        """Runs of every thread, newest first; with ``before`` (a run id) only the runs created before it."""
        def work(conn: sqlite3.Connection) -> list[Run]:
            rows = conn.execute(
                f"SELECT {_RUN_COLUMNS} FROM runs WHERE seq < coalesce((SELECT seq FROM runs WHERE id = ?), ?) "
                "ORDER BY seq DESC LIMIT ?", (before, (1 << 62) if before is None else 0, max(0, limit))).fetchall()
            return [_run(row) for row in rows]
        return await self._read(work)

    async def run_checkpoints(self, thread_id: str, run_id: str, limit: int = 500) -> list[Checkpoint]:
        """The checkpoints run ``run_id`` wrote in its thread, oldest first (none once retention folded them)."""
        def work(conn: sqlite3.Connection) -> list[Checkpoint]:
            rows = conn.execute(f"SELECT {_CHECKPOINT_COLUMNS} FROM checkpoints WHERE thread_id = ? AND run_id = ? "
                                "ORDER BY id LIMIT ?", (thread_id, run_id, max(0, limit))).fetchall()
            return [_checkpoint(row) for row in rows]
        return await self._read(work)

    async def run_history(self, run_id: str, limit: int = 20) -> list[HistoryRecord]:
        """The compressed-history entries run ``run_id`` added, oldest first (the newest runs are found fastest)."""
        def work(conn: sqlite3.Connection) -> list[HistoryRecord]:
            rows = conn.execute("SELECT seq, run_id, thread_id, text, trace_tokens, summary_tokens, at "
                                "FROM history_log WHERE run_id = ? ORDER BY seq DESC LIMIT ?",
                                (run_id, max(0, limit))).fetchall()
            return [HistoryRecord(int(r["seq"]), r["run_id"], str(r["thread_id"]), str(r["text"]), r["trace_tokens"],
                                  r["summary_tokens"], float(r["at"])) for r in reversed(rows)]
        return await self._read(work)

    async def timeline_page(self, before: int | None = None, limit: int = 100,
                            kind: str | None = None) -> list[TimelineEntry]:
        """Timeline entries below sequence ``before``, newest first; ``kind``: only that mutation kind."""
        return await self._read(partial(world.read_page, before=before, limit=limit, kind=kind))

    async def integrity_check(self) -> str:
        """``PRAGMA integrity_check``: "ok" when the file is sound."""
        return await self._db.integrity_check()
