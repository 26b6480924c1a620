"""Cards raised in a conversation (issue 11): escalations gain ``run_id``/``thread_id`` and may have no task or log
row. The migration rebuilds the table (SQLite cannot drop a NOT NULL), and nothing of a v5 database is lost."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from openhuman_desktop.store import SubconsciousStore, open_subconscious_store
from openhuman_desktop.store.database import Database
from openhuman_desktop.store.schema import MIGRATIONS
from tests.fakes.sqlite_files import columns_of, dump_columns, schema_objects, user_version

NOW = 1_790_000_000.0
V5 = 5
V5_TABLES = ("subconscious_tasks", "subconscious_log", "subconscious_escalations", "engine_state",
             "approval_effects", "declined_recommendations")


def dump(path: Path, columns: dict[str, str]) -> dict[str, list[tuple[object, ...]]]:
    return {table: dump_columns(path, table, columns[table]) for table in V5_TABLES}


async def make_v5_database(path: Path) -> None:
    """A schema-5 database: tasks, log rows, cards in every state (with v5's extras set), the effects journal
    of an approved card, and a remembered skip."""
    db = await Database.open(path, MIGRATIONS[:V5])
    try:
        async with db.transaction() as tx:
            for number in range(3):
                await tx.execute(
                    """INSERT INTO subconscious_tasks (id, title, source, recurrence, enabled, created_at, origin,
                           intent, intent_source, updated_at) VALUES (?, ?, 'user', 'pending', 1, ?, 'user', 'read',
                           'keyword', ?)""",
                    (f"task-{number}", f"Task {number}", NOW, NOW),
                )
                await tx.execute(
                    """INSERT INTO subconscious_log (id, task_id, tick_at, decision, result, created_at, task_title)
                       VALUES (?, ?, ?, 'escalate', 'Waiting for approval', ?, ?)""",
                    (f"log-{number}", f"task-{number}", NOW, NOW + number, f"Task {number}"),
                )
            for number, (status, carrying, waits) in enumerate(
                [("pending", 0, 1), ("approved", 1, 0), ("dismissed", 0, 0), ("pending", 0, 0)]
            ):
                await tx.execute(
                    """INSERT INTO subconscious_escalations (id, task_id, log_id, title, description, priority,
                           status, created_at, resolved_at, note, carrying_out, waits_for_model, run_attempts)
                       VALUES (?, ?, ?, ?, 'why', 'important', ?, ?, ?, ?, ?, ?, ?)""",
                    (f"esc-{number}", f"task-{number % 3}", f"log-{number % 3}" if number != 3 else None,
                     f"Card {number}", status, NOW + number, None if status == "pending" else NOW + 10,
                     f"note {number}", carrying, waits, number),
                )
            for occurrence in (1, 2):
                await tx.execute(
                    """INSERT INTO approval_effects (escalation_id, tool, arguments, occurrence, status, result,
                           started_at, finished_at) VALUES ('esc-1', 'files_write', '{"path":"a"}', ?, 'done', 'ok',
                           ?, ?)""",
                    (occurrence, NOW + occurrence, NOW + occurrence + 0.5),
                )
            await tx.execute("""INSERT INTO declined_recommendations (task_id, action, declined_at)
                                VALUES ('task-2', 'why', ?)""", (NOW + 10,))
            await tx.execute("INSERT INTO engine_state (key, value) VALUES ('generation', '7')")
    finally:
        await db.aclose()


async def test_a_v5_database_keeps_every_card_effect_skip_and_index(tmp_path: Path) -> None:
    path = tmp_path / "subconscious.db"
    await make_v5_database(path)
    v5_columns = {table: columns_of(path, table) for table in V5_TABLES}
    before, objects_before = dump(path, v5_columns), schema_objects(path)

    store = await open_subconscious_store(path)
    try:
        assert dump(path, v5_columns) == before, "every row kept (rowids too), the approved card's journal included"
        assert objects_before.items() <= schema_objects(path).items(), "every table and index kept, on its table"
        assert await store.db.integrity_check() == "ok"
        assert await store.db.fetchall("PRAGMA foreign_key_check") == []
        references = {(r["table"], r["on_delete"])
                      for r in await store.db.fetchall("PRAGMA foreign_key_list('subconscious_escalations')")}
        assert references == {("subconscious_log", "SET NULL"), ("subconscious_tasks", "CASCADE")}
        effects = {(r["table"], r["on_delete"])
                   for r in await store.db.fetchall("PRAGMA foreign_key_list('approval_effects')")}
        assert effects == {("subconscious_escalations", "CASCADE")}

        old = await store.escalations.get("esc-1")
        assert old is not None and (old.task_id, old.run_id, old.thread_id, old.note) == ("task-1", None, None,
                                                                                          "note 1")
        assert [e.id for e in await store.escalations.carrying_out()] == ["esc-1"]
        assert [e.id for e in await store.escalations.waiting_for_model()] == ["esc-0"]
        journal = "SELECT occurrence FROM approval_effects WHERE escalation_id = 'esc-1' ORDER BY occurrence"
        assert [row[0] for row in await store.db.fetchall(journal)] == [1, 2]

        card = await store.escalations.raise_for_run(run_id="run-1", thread_id="desktop", title="Tidy the notes",
                                                     description="Delete notes/old.md", priority="normal",
                                                     now=NOW + 20)
        assert (await store.escalations.get(card.id)) == card
        assert (card.task_id, card.log_id, card.run_id, card.thread_id) == (None, None, "run-1", "desktop")

        # The references still act: a removed task takes its cards, a removed card its journal.
        assert await store.tasks.remove("task-0")
        left = await store.db.fetchall("SELECT id FROM subconscious_escalations ORDER BY id")
        assert {row["id"] for row in left} == {"esc-1", "esc-2", card.id}, "esc-0 and esc-3 were task-0's"
        await store.db.execute("DELETE FROM subconscious_escalations WHERE id = 'esc-1'")
        assert await store.db.fetchall(journal) == []
    finally:
        await store.aclose()
    assert user_version(path) == len(MIGRATIONS)


async def test_a_conversation_card_is_approved_skipped_and_listed_like_any_other(store: SubconsciousStore) -> None:
    card = await store.escalations.raise_for_run(run_id="run-1", thread_id="telegram:42", title="Send the digest",
                                                 description="Send the weekly digest to Ann", priority="important",
                                                 now=NOW)
    assert card.to_json() | {"id": "x"} == {
        "id": "x", "task_id": None, "log_id": None, "run_id": "run-1", "thread_id": "telegram:42",
        "title": "Send the digest", "description": "Send the weekly digest to Ann", "priority": "important",
        "status": "pending", "created_at": NOW, "resolved_at": None, "note": "",
        "choices": ["go_ahead", "skip"], "skill": None, "kind": "action", "call": None,  # issue 25
    }
    assert [e.id for e in await store.escalations.list("pending")] == [card.id]
    skip = await store.escalations.raise_for_run(run_id="run-2", thread_id="desktop", title="t", description="d",
                                                 priority="normal", now=NOW + 1)
    # A skip has no task to remember it under: it is simply dismissed (no constraint failure).
    dismissed = await store.escalations.dismiss(skip.id, NOW + 2, remember=True)
    assert dismissed is not None and dismissed.row is None and dismissed.escalation.status == "dismissed"
    approved = await store.escalations.approve(card.id, NOW + 3, "Approved")
    assert approved is not None and approved.row is None and approved.escalation.status == "approved"
    assert [e.id for e in await store.escalations.carrying_out()] == [card.id]
    done = await store.escalations.finish_run(card.id, NOW + 4, decision="act", result="Sent", duration_ms=3,
                                              complete_task=True)
    assert done is not None and await store.escalations.carrying_out() == []


async def test_a_card_belongs_to_a_task_or_a_run(store: SubconsciousStore) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        await store.db.execute(
            """INSERT INTO subconscious_escalations (id, task_id, log_id, title, description, priority, status,
                   created_at) VALUES ('orphan', NULL, NULL, 't', 'd', 'normal', 'pending', ?)""", (NOW,))


async def test_a_blank_title_of_a_conversation_card_names_the_thread(store: SubconsciousStore) -> None:
    card = await store.escalations.raise_for_run(run_id="r", thread_id="cli", title="  ", description="Do it",
                                                 priority="normal", now=NOW)
    assert card.title == "Recommended in the cli conversation"


async def test_an_unknown_reference_to_the_escalations_stops_the_migration_before_anything_is_lost(
    tmp_path: Path,
) -> None:
    """A table this migration does not know would be cascaded away by the rebuild: it refuses instead."""
    path = tmp_path / "subconscious.db"
    await make_v5_database(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("CREATE TABLE card_notes (card TEXT REFERENCES subconscious_escalations (id) ON DELETE CASCADE)")
    conn.execute("INSERT INTO card_notes VALUES ('esc-1')")
    conn.commit()
    conn.close()
    v5_columns = {table: columns_of(path, table) for table in V5_TABLES}
    before = dump(path, v5_columns)

    with pytest.raises(sqlite3.IntegrityError, match="another table references the escalations"):
        await open_subconscious_store(path)

    assert dump(path, v5_columns) == before
    assert user_version(path) == V5
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("SELECT card FROM card_notes").fetchall() == [("esc-1",)]
    finally:
        conn.close()
