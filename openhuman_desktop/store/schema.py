"""The schema of subconscious.db (CONTRACT §5) as versioned migrations (``PRAGMA user_version``)."""

from __future__ import annotations

from openhuman_desktop.store.database import Migration

DECISIONS = ("in_progress", "act", "noop", "escalate", "failed", "cancelled", "dismissed")

_V1: Migration = (
    """
    CREATE TABLE subconscious_tasks (
        id            TEXT PRIMARY KEY,
        title         TEXT NOT NULL CHECK (length(trim(title)) > 0),
        source        TEXT NOT NULL CHECK (source IN ('system', 'user')),
        recurrence    TEXT NOT NULL DEFAULT 'pending',
        enabled       INTEGER NOT NULL DEFAULT 1,
        last_run_at   REAL,
        next_run_at   REAL,
        completed     INTEGER NOT NULL DEFAULT 0,
        created_at    REAL NOT NULL,
        -- extras: where a system task came from ('default', 'heartbeat_md') and write intent
        origin        TEXT NOT NULL DEFAULT 'user' CHECK (origin IN ('default', 'heartbeat_md', 'user')),
        seed_key      TEXT UNIQUE,
        intent        TEXT NOT NULL DEFAULT 'read' CHECK (intent IN ('read', 'write')),
        intent_source TEXT NOT NULL DEFAULT 'keyword',
        updated_at    REAL NOT NULL
    )
    """,
    "CREATE INDEX idx_tasks_due ON subconscious_tasks (enabled, completed, next_run_at)",
    "CREATE INDEX idx_tasks_origin ON subconscious_tasks (origin)",
    f"""
    CREATE TABLE subconscious_log (
        id           TEXT PRIMARY KEY,
        task_id      TEXT NOT NULL,
        tick_at      REAL NOT NULL,
        decision     TEXT NOT NULL CHECK (decision IN {DECISIONS!r}),
        result       TEXT NOT NULL DEFAULT '',
        duration_ms  INTEGER,
        created_at   REAL NOT NULL,
        task_title   TEXT NOT NULL DEFAULT '',
        generation   INTEGER,
        updated_at   REAL
    )
    """,
    "CREATE INDEX idx_log_created ON subconscious_log (created_at, id)",
    "CREATE INDEX idx_log_task_created ON subconscious_log (task_id, created_at, id)",
    "CREATE INDEX idx_log_in_progress ON subconscious_log (generation) WHERE decision = 'in_progress'",
    """
    CREATE TABLE subconscious_escalations (
        id           TEXT PRIMARY KEY,
        task_id      TEXT NOT NULL REFERENCES subconscious_tasks (id) ON DELETE CASCADE,
        log_id       TEXT REFERENCES subconscious_log (id) ON DELETE SET NULL,
        title        TEXT NOT NULL,
        description  TEXT NOT NULL,
        priority     TEXT NOT NULL CHECK (priority IN ('critical', 'important', 'normal')),
        status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'dismissed')),
        created_at   REAL NOT NULL,
        resolved_at  REAL
    )
    """,
    "CREATE INDEX idx_escalations_status ON subconscious_escalations (status, created_at)",
    "CREATE INDEX idx_escalations_task ON subconscious_escalations (task_id, status)",
    "CREATE INDEX idx_escalations_log ON subconscious_escalations (log_id)",
    """
    CREATE TABLE engine_state (
        key    TEXT PRIMARY KEY,
        value  TEXT NOT NULL
    )
    """,
)

# The log's per-task index keyed by the task id's last 8 characters instead of all 36: every due task adds
# one entry per tick, and with a key a third the size the tasks share index pages (a 1,000-task tick's insert:
# ~50 ms -> ~30 ms). Ids are UUIDs whose tail is random; ``task_id = ?`` is always checked as well.
TASK_KEY = "substr(task_id, -8)"
_V2: Migration = (
    "DROP INDEX idx_log_task_created",
    f"CREATE INDEX idx_log_task ON subconscious_log ({TASK_KEY}, created_at)",
)

# Filing rows under their task in batches. A tick adds a row for every due task, and in the per-task index
# those rows land on as many different pages (a 1,000-task tick dirtied ~500 pages of a 100,000-row log:
# ~25 ms to insert, ~20 ms more to checkpoint). A new row now starts unfiled (``filed = 0``) in a small index
# of the recent rows; the upkeep files them in batches (``ActivityLogRepository.file_recent``), in key
# order, touching each page of the big index once per batch instead of once per tick. A task's page reads
# both indexes, merged. Rows inserted by anyone else are filed at once (the default).
_V3: Migration = (
    "ALTER TABLE subconscious_log ADD COLUMN filed INTEGER NOT NULL DEFAULT 1",
    "DROP INDEX idx_log_task",
    f"CREATE INDEX idx_log_task ON subconscious_log ({TASK_KEY}, created_at) WHERE filed = 1",
    f"CREATE INDEX idx_log_task_recent ON subconscious_log ({TASK_KEY}, created_at) WHERE filed = 0",
)

# Tasks the assistant adds through its tasks tool are marked as its own (``origin = 'assistant'``). SQLite
# cannot change a CHECK constraint, so the tasks table is rebuilt. Migrations run inside one transaction with
# foreign keys on (they cannot be turned off there), and a DROP TABLE of the tasks would then delete every
# escalation through ON DELETE CASCADE. So the escalations are rebuilt too, pointing at the new tasks table
# first: the old escalations are dropped (nothing references them), then the old tasks (nothing references
# them any more), and the renames carry the new escalations' reference along to the final name. Rowids are
# copied (same-instant tasks keep their order); every index is made again under its own name.
# The guard row refuses to run (and rolls everything back) on a schema this migration does not know: another
# table referencing either table, or columns added to them, would otherwise be lost or cascaded away.
_TASK_COLUMNS = ("id, title, source, recurrence, enabled, last_run_at, next_run_at, completed, created_at, origin, "
                 "seed_key, intent, intent_source, updated_at")
_ESCALATION_COLUMNS = "id, task_id, log_id, title, description, priority, status, created_at, resolved_at"
_V4: Migration = (
    """
    CREATE TEMP TABLE v4_guard (
        others INTEGER CONSTRAINT "another table references the tasks or escalations" CHECK (others = 0),
        task_columns INTEGER CONSTRAINT "subconscious_tasks has unknown columns" CHECK (task_columns = 14),
        escalation_columns INTEGER
            CONSTRAINT "subconscious_escalations has unknown columns" CHECK (escalation_columns = 9)
    )
    """,
    """
    INSERT INTO temp.v4_guard SELECT
        (SELECT count(*) FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f
          WHERE m.type = 'table' AND m.name != 'subconscious_escalations'
            AND f."table" IN ('subconscious_tasks', 'subconscious_escalations')),
        (SELECT count(*) FROM pragma_table_info('subconscious_tasks')),
        (SELECT count(*) FROM pragma_table_info('subconscious_escalations'))
    """,
    "DROP TABLE temp.v4_guard",
    """
    CREATE TABLE subconscious_tasks_v4 (
        id            TEXT PRIMARY KEY,
        title         TEXT NOT NULL CHECK (length(trim(title)) > 0),
        source        TEXT NOT NULL CHECK (source IN ('system', 'user')),
        recurrence    TEXT NOT NULL DEFAULT 'pending',
        enabled       INTEGER NOT NULL DEFAULT 1,
        last_run_at   REAL,
        next_run_at   REAL,
        completed     INTEGER NOT NULL DEFAULT 0,
        created_at    REAL NOT NULL,
        -- extras: where a task came from (built-in defaults, HEARTBEAT.md, the user, the assistant's tasks
        -- tool) and write intent
        origin        TEXT NOT NULL DEFAULT 'user'
                      CHECK (origin IN ('assistant', 'default', 'heartbeat_md', 'user')),
        seed_key      TEXT UNIQUE,
        intent        TEXT NOT NULL DEFAULT 'read' CHECK (intent IN ('read', 'write')),
        intent_source TEXT NOT NULL DEFAULT 'keyword',
        updated_at    REAL NOT NULL
    )
    """,
    f"INSERT INTO subconscious_tasks_v4 (rowid, {_TASK_COLUMNS}) "
    f"SELECT rowid, {_TASK_COLUMNS} FROM subconscious_tasks ORDER BY rowid",
    """
    CREATE TABLE subconscious_escalations_v4 (
        id           TEXT PRIMARY KEY,
        task_id      TEXT NOT NULL REFERENCES subconscious_tasks_v4 (id) ON DELETE CASCADE,
        log_id       TEXT REFERENCES subconscious_log (id) ON DELETE SET NULL,
        title        TEXT NOT NULL,
        description  TEXT NOT NULL,
        priority     TEXT NOT NULL CHECK (priority IN ('critical', 'important', 'normal')),
        status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'dismissed')),
        created_at   REAL NOT NULL,
        resolved_at  REAL
    )
    """,
    f"INSERT INTO subconscious_escalations_v4 (rowid, {_ESCALATION_COLUMNS}) "
    f"SELECT rowid, {_ESCALATION_COLUMNS} FROM subconscious_escalations ORDER BY rowid",
    "DROP TABLE subconscious_escalations",
    "DROP TABLE subconscious_tasks",
    "ALTER TABLE subconscious_tasks_v4 RENAME TO subconscious_tasks",
    "ALTER TABLE subconscious_escalations_v4 RENAME TO subconscious_escalations",
    "CREATE INDEX idx_tasks_due ON subconscious_tasks (enabled, completed, next_run_at)",
    "CREATE INDEX idx_tasks_origin ON subconscious_tasks (origin)",
    "CREATE INDEX idx_escalations_status ON subconscious_escalations (status, created_at)",
    "CREATE INDEX idx_escalations_task ON subconscious_escalations (task_id, status)",
    "CREATE INDEX idx_escalations_log ON subconscious_escalations (log_id)",
)

# The approval gate's durability (issue 9, items 2, 3 and 5). ``note`` is what a card says about why it came
# back; ``carrying_out`` is the run marker, set in the same commit as the approval and cleared in the same
# commit as the run's outcome, so a crash between the two is found at start-up; ``waits_for_model`` marks a
# card whose Go ahead could not run because the reasoning model was down (retried when it answers).
# ``approval_effects`` journals the tool calls of approved runs (intent before, result after), keyed by the
# escalation, the tool, the canonical JSON of its arguments and the occurrence of that same call in the run.
# (Since the agent's run ledger (issue 11) journals every call of every run, nothing writes it any more; old
# rows stay, and a later migration may drop the table.)
# ``declined_recommendations`` remembers what the user skipped. An approved run left behind by an older
# version (approved, its row still in progress) is a card again: that version kept no journal, so whether its
# tools ran is unknown. ``run_attempts`` counts the starts that carried an approval out again after a crash.
UPGRADE_NOTE = ("The approved run was interrupted when the app stopped, before this version kept track of what a "
                "run has done; some of it may have happened. Press Go ahead to run it again, or Skip.")
_V5: Migration = (
    "ALTER TABLE subconscious_escalations ADD COLUMN note TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE subconscious_escalations ADD COLUMN carrying_out INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE subconscious_escalations ADD COLUMN waits_for_model INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE subconscious_escalations ADD COLUMN run_attempts INTEGER NOT NULL DEFAULT 0",
    f"""UPDATE subconscious_escalations SET status = 'pending', resolved_at = NULL, note = '{UPGRADE_NOTE}'
        WHERE status = 'approved'
          AND log_id IN (SELECT id FROM subconscious_log WHERE decision = 'in_progress')""",
    f"""UPDATE subconscious_log SET decision = 'escalate', result = 'Waiting for approval again. {UPGRADE_NOTE}'
        WHERE decision = 'in_progress'
          AND id IN (SELECT log_id FROM subconscious_escalations WHERE note = '{UPGRADE_NOTE}')""",
    "CREATE INDEX idx_escalations_carrying_out ON subconscious_escalations (carrying_out) WHERE carrying_out = 1",
    """CREATE INDEX idx_escalations_waiting ON subconscious_escalations (waits_for_model)
       WHERE waits_for_model = 1""",
    """
    CREATE TABLE approval_effects (
        escalation_id TEXT NOT NULL REFERENCES subconscious_escalations (id) ON DELETE CASCADE,
        tool          TEXT NOT NULL,
        arguments     TEXT NOT NULL,
        occurrence    INTEGER NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('started', 'done', 'failed')),
        result        TEXT NOT NULL DEFAULT '',
        started_at    REAL NOT NULL,
        finished_at   REAL,
        PRIMARY KEY (escalation_id, tool, arguments, occurrence)
    )
    """,
    """
    CREATE TABLE declined_recommendations (
        id           INTEGER PRIMARY KEY,
        task_id      TEXT NOT NULL REFERENCES subconscious_tasks (id) ON DELETE CASCADE,
        action       TEXT NOT NULL,
        declined_at  REAL NOT NULL
    )
    """,
    "CREATE INDEX idx_declined_task ON declined_recommendations (task_id, declined_at)",
)

# Cards raised in a conversation (issue 11, CONTRACT §8): an agent run's ``RECOMMENDED ACTION:`` becomes a card
# with ``run_id`` and ``thread_id`` and no task or log row. SQLite cannot drop a NOT NULL, so the escalations are
# rebuilt (as in v4), with every column of v1-v5 and the two new ones; a card belongs to a task or to a run.
# ``approval_effects`` references the escalations with ON DELETE CASCADE, and dropping the old table deletes its
# rows first (foreign keys are on during migrations): so the journal is rebuilt too, pointing at the new table;
# the renames carry that reference to the final name. The guard refuses (and rolls back) on a schema this
# migration does not know: another table referencing the escalations, or columns it does not know.
_V6_ESCALATION_COLUMNS = (_ESCALATION_COLUMNS + ", note, carrying_out, waits_for_model, run_attempts")
_EFFECT_COLUMNS = "escalation_id, tool, arguments, occurrence, status, result, started_at, finished_at"
_V6: Migration = (
    """
    CREATE TEMP TABLE v6_guard (
        others INTEGER CONSTRAINT "another table references the escalations" CHECK (others = 0),
        escalation_columns INTEGER
            CONSTRAINT "subconscious_escalations has unknown columns" CHECK (escalation_columns = 13),
        effect_columns INTEGER CONSTRAINT "approval_effects has unknown columns" CHECK (effect_columns = 8)
    )
    """,
    """
    INSERT INTO temp.v6_guard SELECT
        (SELECT count(*) FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f
          WHERE m.type = 'table' AND m.name != 'approval_effects' AND f."table" = 'subconscious_escalations'),
        (SELECT count(*) FROM pragma_table_info('subconscious_escalations')),
        (SELECT count(*) FROM pragma_table_info('approval_effects'))
    """,
    "DROP TABLE temp.v6_guard",
    """
    CREATE TABLE subconscious_escalations_v6 (
        id              TEXT PRIMARY KEY,
        task_id         TEXT REFERENCES subconscious_tasks (id) ON DELETE CASCADE,
        log_id          TEXT REFERENCES subconscious_log (id) ON DELETE SET NULL,
        title           TEXT NOT NULL,
        description     TEXT NOT NULL,
        priority        TEXT NOT NULL CHECK (priority IN ('critical', 'important', 'normal')),
        status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'dismissed')),
        created_at      REAL NOT NULL,
        resolved_at     REAL,
        note            TEXT NOT NULL DEFAULT '',
        carrying_out    INTEGER NOT NULL DEFAULT 0,
        waits_for_model INTEGER NOT NULL DEFAULT 0,
        run_attempts    INTEGER NOT NULL DEFAULT 0,
        -- the agent run that raised the card and its conversation (null for the heartbeat's older cards)
        run_id          TEXT,
        thread_id       TEXT,
        CONSTRAINT "a card belongs to a task or to a run" CHECK (task_id IS NOT NULL OR run_id IS NOT NULL)
    )
    """,
    f"INSERT INTO subconscious_escalations_v6 (rowid, {_V6_ESCALATION_COLUMNS}) "
    f"SELECT rowid, {_V6_ESCALATION_COLUMNS} FROM subconscious_escalations ORDER BY rowid",
    """
    CREATE TABLE approval_effects_v6 (
        escalation_id TEXT NOT NULL REFERENCES subconscious_escalations_v6 (id) ON DELETE CASCADE,
        tool          TEXT NOT NULL,
        arguments     TEXT NOT NULL,
        occurrence    INTEGER NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('started', 'done', 'failed')),
        result        TEXT NOT NULL DEFAULT '',
        started_at    REAL NOT NULL,
        finished_at   REAL,
        PRIMARY KEY (escalation_id, tool, arguments, occurrence)
    )
    """,
    f"INSERT INTO approval_effects_v6 (rowid, {_EFFECT_COLUMNS}) "
    f"SELECT rowid, {_EFFECT_COLUMNS} FROM approval_effects ORDER BY rowid",
    "DROP TABLE approval_effects",
    "DROP TABLE subconscious_escalations",
    "ALTER TABLE subconscious_escalations_v6 RENAME TO subconscious_escalations",
    "ALTER TABLE approval_effects_v6 RENAME TO approval_effects",
    "CREATE INDEX idx_escalations_status ON subconscious_escalations (status, created_at)",
    "CREATE INDEX idx_escalations_task ON subconscious_escalations (task_id, status)",
    "CREATE INDEX idx_escalations_log ON subconscious_escalations (log_id)",
    "CREATE INDEX idx_escalations_carrying_out ON subconscious_escalations (carrying_out) WHERE carrying_out = 1",
    """CREATE INDEX idx_escalations_waiting ON subconscious_escalations (waits_for_model)
       WHERE waits_for_model = 1""",
    "CREATE INDEX idx_escalations_run ON subconscious_escalations (run_id) WHERE run_id IS NOT NULL",
)

# v7 (approvals in one room, issue 25): a card's ``choices`` (its buttons, decided once when it is raised, the
# same on every surface) and the ``skill`` it is about; an exact-call card's ``proposed_call`` (the JSON of the
# one tool call Go ahead carries out) and ``call_key`` (one card per run and call); ``run_log_id``, the activity
# row its latest Go ahead added (a new row at the top, while the card's own row keeps saying it was approved);
# ``approvals``, how many times it was approved (each Go ahead's run is keyed by it, so a Retry gets a new run and
# a restart finds the run of the approval it carries on).
_V7: Migration = (
    """ALTER TABLE subconscious_escalations ADD COLUMN choices TEXT NOT NULL DEFAULT '["go_ahead","skip"]'""",
    "ALTER TABLE subconscious_escalations ADD COLUMN skill TEXT",
    "ALTER TABLE subconscious_escalations ADD COLUMN proposed_call TEXT",
    "ALTER TABLE subconscious_escalations ADD COLUMN call_key TEXT",
    "ALTER TABLE subconscious_escalations ADD COLUMN run_log_id TEXT",
    "ALTER TABLE subconscious_escalations ADD COLUMN approvals INTEGER NOT NULL DEFAULT 0",
    "CREATE INDEX idx_escalations_call ON subconscious_escalations (run_id, call_key) WHERE call_key IS NOT NULL",
)

# v8: what the model (or, for a task the assistant added, the words) would give a read-only task that stays
# read-only until the person confirms (issue 25): ``intent_suggestion = 'write'`` is the "May write?" the window
# shows on the task's row. NULL: nothing to confirm. Cleared whenever the person chooses the intent.
_V8: Migration = (
    """ALTER TABLE subconscious_tasks ADD COLUMN intent_suggestion TEXT
       CONSTRAINT "a suggested intent is read or write" CHECK (intent_suggestion IN ('read', 'write'))""",
)

MIGRATIONS: tuple[Migration, ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8)
