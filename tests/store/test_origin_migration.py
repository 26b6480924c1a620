"""The migration that lets a task's origin be "assistant": the tasks table is rebuilt, nothing else is lost."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from openhuman_desktop.store import open_subconscious_store
from openhuman_desktop.store.database import Database
from openhuman_desktop.store.schema import MIGRATIONS
from tests.fakes.sqlite_files import columns_of, dump_columns, schema_objects

NOW = 1_790_000_000.0
V3 = 3
V3_TABLES = ("subconscious_tasks", "subconscious_log", "subconscious_escalations", "engine_state")


async def make_v3_database(path: Path) -> None:
    """A schema-3 database with tasks (two inserted in the same instant), log rows and escalations."""
    db = await Database.open(path, MIGRATIONS[:V3])
    try:
        async with db.transaction() as tx:
            for number, (origin, source) in enumerate(
                [("default", "system"), ("heartbeat_md", "system"), ("user", "user"), ("user", "user")]
            ):
                await tx.execute(
                    """INSERT INTO subconscious_tasks (id, title, source, recurrence, enabled, created_at, origin,
                           seed_key, intent, intent_source, updated_at, next_run_at)
                       VALUES (?, ?, ?, 'pending', 1, ?, ?, ?, ?, 'keyword', ?, ?)""",
                    (f"task-{number}", f"Task {number}", source, NOW if number >= 2 else NOW - number, origin,
                     "seed-a" if number == 0 else None, "write" if number == 3 else "read", NOW, NOW + number),
                )
            for number in range(6):
                await tx.execute(
                    """INSERT INTO subconscious_log (id, task_id, tick_at, decision, result, created_at, task_title,
                           filed) VALUES (?, ?, ?, 'escalate', 'Waiting for approval', ?, ?, ?)""",
                    (f"log-{number}", f"task-{number % 4}", NOW, NOW + number, f"Task {number % 4}", number % 2),
                )
            for number, status in enumerate(["pending", "approved", "dismissed", "pending"]):
                await tx.execute(
                    """INSERT INTO subconscious_escalations (id, task_id, log_id, title, description, priority,
                           status, created_at, resolved_at) VALUES (?, ?, ?, ?, 'why', 'critical', ?, ?, ?)""",
                    (f"esc-{number}", f"task-{number}", f"log-{number}", f"Card {number}", status, NOW + number,
                     None if status == "pending" else NOW + 10),
                )
            await tx.execute("INSERT INTO engine_state (key, value) VALUES ('seeded:seed-a', '1')")
    finally:
        await db.aclose()


def dump(path: Path) -> dict[str, list[tuple[object, ...]]]:
    return {table: dump_columns(path, table, columns_of(path, table)) for table in V3_TABLES}


async def test_a_v3_database_keeps_every_task_row_escalation_and_index(tmp_path: Path) -> None:
    path = tmp_path / "subconscious.db"
    await make_v3_database(path)
    before, objects_before = dump(path), schema_objects(path)
    v3_columns = {table: columns_of(path, table) for table in V3_TABLES}

    store = await open_subconscious_store(path)
    try:
        assert {table: dump_columns(path, table, v3_columns[table]) for table in V3_TABLES} == before, (
            "every row kept, rowids (the order of same-instant tasks) included")
        assert objects_before.items() <= schema_objects(path).items(), "every table and index kept, on the same table"
        assert await store.db.integrity_check() == "ok"
        assert await store.db.fetchall("PRAGMA foreign_key_check") == []
        references = {(r["table"], r["on_delete"])
                      for r in await store.db.fetchall("PRAGMA foreign_key_list('subconscious_escalations')")}
        assert references == {("subconscious_log", "SET NULL"), ("subconscious_tasks", "CASCADE")}

        added = await store.tasks.add(title="Sent by the assistant", source="user", recurrence="pending",
                                      next_run_at=None, intent="read", intent_source="assistant",
                                      origin="assistant", now=NOW + 100)
        assert (await store.tasks.get(added.id)).origin == "assistant"  # type: ignore[union-attr]
        assert [t.id for t in await store.tasks.list()][:5] == ["task-0", "task-1", "task-2", "task-3", added.id]
        # The tasks' foreign key still cascades: removing a task removes its cards, and only its cards.
        assert await store.tasks.remove("task-1")
        left = await store.db.fetchall("SELECT id FROM subconscious_escalations ORDER BY id")
        assert [row["id"] for row in left] == ["esc-0", "esc-2", "esc-3"]
        with pytest.raises(sqlite3.IntegrityError):
            await store.db.execute("UPDATE subconscious_tasks SET origin = 'model' WHERE id = 'task-2'")
    finally:
        await store.aclose()
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    finally:
        conn.close()


async def test_a_fresh_database_accepts_the_assistant_origin(tmp_path: Path) -> None:
    store = await open_subconscious_store(tmp_path / "subconscious.db")
    try:
        task = await store.tasks.add(title="x", source="user", recurrence="pending", next_run_at=None,
                                     intent="read", intent_source="assistant", origin="assistant", now=NOW)
        assert (await store.tasks.get(task.id)) == task
    finally:
        await store.aclose()


async def test_an_unknown_reference_to_the_tasks_stops_the_migration_before_anything_is_lost(
    tmp_path: Path,
) -> None:
    """A table this migration does not know would be cascaded away by the rebuild: it refuses instead."""
    path = tmp_path / "subconscious.db"
    await make_v3_database(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("CREATE TABLE notes (task_id TEXT REFERENCES subconscious_tasks (id) ON DELETE CASCADE)")
    conn.execute("INSERT INTO notes VALUES ('task-2')")
    conn.commit()
    conn.close()
    before = dump(path)

    with pytest.raises(sqlite3.IntegrityError, match="another table references the tasks"):
        await open_subconscious_store(path)

    assert dump(path) == before
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == V3
        assert conn.execute("SELECT task_id FROM notes").fetchall() == [("task-2",)]
    finally:
        conn.close()
