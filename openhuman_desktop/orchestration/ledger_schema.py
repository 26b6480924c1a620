"""The run ledger's tables (``{workspace}/agent/ledger.db``), one migration per schema version."""

from __future__ import annotations

from openhuman_desktop.orchestration import steering, world
from openhuman_desktop.store.database import Migration

_V1: Migration = (
    """CREATE TABLE runs (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        thread_id TEXT NOT NULL,
        channel_source TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
        input TEXT NOT NULL,
        response TEXT,
        error TEXT,
        steps INTEGER NOT NULL DEFAULT 0,
        steering_version INTEGER,
        created_at REAL NOT NULL,
        finished_at REAL,
        permission TEXT,
        purpose TEXT NOT NULL,
        task_id TEXT,
        escalation_id TEXT,
        tools_used TEXT NOT NULL DEFAULT '[]',
        recommended_action TEXT,
        changed_something INTEGER NOT NULL DEFAULT 0,
        failure TEXT
    )""",
    "CREATE INDEX runs_by_thread ON runs(thread_id, seq)",
    "CREATE INDEX runs_by_escalation ON runs(escalation_id, seq) WHERE escalation_id IS NOT NULL",
    "CREATE INDEX runs_by_status ON runs(status, seq)",
    # One row per node transition: the node's update as given (``delta``), not the whole state.
    """CREATE TABLE checkpoints (
        id INTEGER PRIMARY KEY,
        thread_id TEXT NOT NULL,
        run_id TEXT,
        step INTEGER NOT NULL,
        node TEXT NOT NULL,
        changed TEXT NOT NULL,
        next TEXT,
        delta TEXT NOT NULL,
        created_at REAL NOT NULL
    )""",
    "CREATE INDEX checkpoints_by_thread ON checkpoints(thread_id, id)",
    # The full values after a checkpoint, now and then: a read folds only the deltas since the last one.
    """CREATE TABLE snapshots (
        checkpoint_id INTEGER PRIMARY KEY,
        thread_id TEXT NOT NULL,
        state TEXT NOT NULL
    )""",
    "CREATE INDEX snapshots_by_thread ON snapshots(thread_id, checkpoint_id)",
    # The effects journal: intent before a call runs, its result after (with the timeline entries its
    # mutations wrote: ``timeline_count`` entries from ``timeline_first`` on, written in the same commit).
    """CREATE TABLE journal (
        run_id TEXT NOT NULL,
        step INTEGER NOT NULL,
        key TEXT NOT NULL,
        intent TEXT NOT NULL,
        result TEXT,
        timeline_first INTEGER,
        timeline_count INTEGER NOT NULL DEFAULT 0,
        begun_at REAL,
        finished_at REAL,
        PRIMARY KEY (run_id, step, key)
    ) WITHOUT ROWID""",
    *world.TIMELINE_SCHEMA,
)

# v2 (channels): a run's ``source_key`` is the channel's own id of the message (a Telegram update), so a
# message handed in twice makes one run; ``delivered_at`` is when its answer reached the channel (runs that
# had finished before v2 count as delivered, so an upgrade sends nothing again).
_V2: Migration = (
    "ALTER TABLE runs ADD COLUMN source_key TEXT",
    "ALTER TABLE runs ADD COLUMN delivered_at REAL",
    "CREATE UNIQUE INDEX runs_by_source_key ON runs(source_key) WHERE source_key IS NOT NULL",
    "UPDATE runs SET delivered_at = finished_at WHERE finished_at IS NOT NULL",
    "CREATE INDEX runs_undelivered ON runs(channel_source, seq) WHERE delivered_at IS NULL",
)

# v4 (approvals in one room): a run's display ``title`` ("Approved: Archive the report"); its ``spec``, the JSON
# of what its request fixed beyond the permission (the tier, the tools offered, an approval's write license, an
# exact call: ``RunRequest.spec_json``), kept so a resumed run has them; ``unexecuted``, the tools its last
# answer still asked for when its steps ran out.
_V4: Migration = (
    "ALTER TABLE runs ADD COLUMN title TEXT",
    "ALTER TABLE runs ADD COLUMN spec TEXT",
    "ALTER TABLE runs ADD COLUMN unexecuted TEXT NOT NULL DEFAULT '[]'",
)

# v3 (reflection): the compressed-history log, steering directives and reflections (``steering.py``).
LEDGER_MIGRATIONS: tuple[Migration, ...] = (_V1, _V2, steering.SCHEMA, _V4)
