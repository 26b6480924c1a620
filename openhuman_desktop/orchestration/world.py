"""The world timeline: one append-only, gap-free entry per real mutation a tool made (CONTRACT §8)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from openhuman_desktop.orchestration.ports import TimelineEntry
from openhuman_desktop.skills.base import Mutation

TIMELINE_SCHEMA = (
    """CREATE TABLE timeline (
        sequence INTEGER PRIMARY KEY,
        event_signature TEXT NOT NULL,
        world_mutation TEXT NOT NULL,
        delta_delta TEXT NOT NULL,
        at REAL NOT NULL,
        run_id TEXT
    )""",
    "CREATE INDEX timeline_by_run ON timeline(run_id) WHERE run_id IS NOT NULL",
    # Written once, never changed or removed: SQLite itself refuses (the context hook only drops entries
    # from a thread's working state, retention never touches this table).
    """CREATE TRIGGER timeline_is_never_updated BEFORE UPDATE ON timeline
       BEGIN SELECT RAISE(ABORT, 'the world timeline is append-only'); END""",
    """CREATE TRIGGER timeline_is_never_deleted BEFORE DELETE ON timeline
       BEGIN SELECT RAISE(ABORT, 'the world timeline is append-only'); END""",
)

_COLUMNS = "sequence, event_signature, world_mutation, delta_delta, at, run_id"

KIND_WORDS = {
    "file_written": "File written", "file_deleted": "File deleted", "memory_stored": "Memory stored",
    "memory_removed": "Memory removed", "task_created": "Task created", "task_changed": "Task changed",
    "message_sent": "Message sent", "steering_changed": "Steering changed", "mcp_write": "Skill tool wrote",
}


def event_signature(mutation: Mutation) -> str:
    """``File written: notes/todo.md`` — what changed, in a few words."""
    words = KIND_WORDS.get(mutation.kind, mutation.kind.replace("_", " ").capitalize())
    return f"{words}: {mutation.target}" if mutation.target else words


def size_change(mutation: Mutation) -> str:
    """``120 → 240 bytes (+120)``, ``absent → 12 bytes``, ``12 bytes → absent``; "" where sizes mean nothing."""
    before, after = mutation.before_size, mutation.after_size
    if before is None and after is None:
        return ""
    if before is None:
        return f"absent → {after:,} bytes"
    if after is None:
        return f"{before:,} bytes → absent"
    return f"{before:,} → {after:,} bytes ({after - before:+,})"


def append_entries(conn: sqlite3.Connection, mutations: Sequence[Mutation], run_id: str | None,
                   at: float) -> tuple[TimelineEntry, ...]:
    """Append one entry per mutation inside the caller's open transaction; returns them with their sequence.

    The sequence is the rowid SQLite assigns (largest + 1): nothing is ever deleted, and a rolled-back
    transaction assigns nothing, so the sequence starts at 1 and has no gaps.
    """
    entries = []
    for mutation in mutations:
        signature, change, delta = event_signature(mutation), mutation.summary, size_change(mutation)
        cursor = conn.execute(
            "INSERT INTO timeline (event_signature, world_mutation, delta_delta, at, run_id) VALUES (?, ?, ?, ?, ?)",
            (signature, change, delta, at, run_id))
        sequence = cursor.lastrowid
        assert sequence is not None
        entries.append(TimelineEntry(sequence, signature, change, delta, at, run_id))
    return tuple(entries)


def read_entries(conn: sqlite3.Connection, after: int, limit: int) -> list[TimelineEntry]:
    """Entries with a sequence above ``after``, oldest first, at most ``limit``."""
    rows = conn.execute(f"SELECT {_COLUMNS} FROM timeline WHERE sequence > ? ORDER BY sequence LIMIT ?",
                        (after, limit)).fetchall()
    return [_entry(row) for row in rows]


def read_page(conn: sqlite3.Connection, before: int | None, limit: int,
              kind: str | None = None) -> list[TimelineEntry]:
    """Entries below sequence ``before`` (all when None), newest first, at most ``limit``; ``kind`` (a key of
    :data:`KIND_WORDS`, or any other mutation kind) keeps only entries of that kind (their signature's words)."""
    where: list[str] = ["sequence < ?"]
    params: list[int | str] = [(1 << 62) if before is None else before]
    if kind is not None:
        words = KIND_WORDS.get(kind, kind.replace("_", " ").capitalize())
        where.append("(event_signature = ? OR substr(event_signature, 1, ?) = ?)")
        params.extend([words, len(words) + 2, f"{words}: "])
    rows = conn.execute(f"SELECT {_COLUMNS} FROM timeline WHERE {' AND '.join(where)} ORDER BY sequence DESC "
                        "LIMIT ?", (*params, max(0, limit))).fetchall()
    return [_entry(row) for row in rows]


def read_range(conn: sqlite3.Connection, first: int, count: int) -> tuple[TimelineEntry, ...]:
    """The ``count`` entries from sequence ``first`` on (what one journal ``finish`` wrote)."""
    if count <= 0:
        return ()
    rows = conn.execute(f"SELECT {_COLUMNS} FROM timeline WHERE sequence >= ? AND sequence < ? ORDER BY sequence",
                        (first, first + count)).fetchall()
    return tuple(_entry(row) for row in rows)


def _entry(row: sqlite3.Row) -> TimelineEntry:
    run_id = row["run_id"]
    return TimelineEntry(int(row["sequence"]), str(row["event_signature"]), str(row["world_mutation"]),
                         str(row["delta_delta"]), float(row["at"]), None if run_id is None else str(run_id))
