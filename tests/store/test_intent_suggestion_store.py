"""Schema v7 (issue 25): a task keeps the intent it would be given if the person confirmed ("May write?")."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from openhuman_desktop.store import SubconsciousStore, open_subconscious_store
from openhuman_desktop.store.database import Database
from openhuman_desktop.store.schema import MIGRATIONS
from tests.fakes.sqlite_files import columns_of, dump_columns, user_version

NOW = 1_790_000_000.0
V6 = 6


async def test_a_v6_database_gains_the_column_and_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "subconscious.db"
    db = await Database.open(path, MIGRATIONS[:V6])
    try:
        async with db.transaction() as tx:
            await tx.execute(
                """INSERT INTO subconscious_tasks (id, title, source, recurrence, enabled, created_at, origin, intent,
                       intent_source, updated_at) VALUES ('t1', 'Send the report', 'user', 'pending', 1, ?, 'user',
                       'write', 'model', ?)""", (NOW, NOW))
    finally:
        await db.aclose()
    before_columns = columns_of(path, "subconscious_tasks")
    before = dump_columns(path, "subconscious_tasks", before_columns)
    store = await open_subconscious_store(path)
    try:
        assert user_version(path) == len(MIGRATIONS)
        assert dump_columns(path, "subconscious_tasks", before_columns) == before
        task = await store.tasks.get("t1")
        assert task is not None and (task.intent, task.intent_source, task.intent_suggestion) == (
            "write", "model", None)
        assert task.to_json()["intent_suggestion"] is None
    finally:
        await store.aclose()
    conn = sqlite3.connect(path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="a suggested intent is read or write"):
            conn.execute("UPDATE subconscious_tasks SET intent_suggestion = 'maybe'")
    finally:
        conn.close()


async def test_the_models_answer_lands_only_on_the_words_intent_of_the_same_title(store: SubconsciousStore) -> None:
    task = await store.tasks.add(title="Check the weather", source="user", recurrence="pending", next_run_at=None,
                                 intent="read", intent_source="keyword", origin="user", now=NOW)
    assert await store.tasks.set_model_intent(task.id, "Another title", "read", "keyword", "write", NOW) is None
    changed = await store.tasks.set_model_intent(task.id, task.title, "read", "keyword", "write", NOW + 1)
    assert changed is not None and (changed.intent, changed.intent_source, changed.suggested_intent) == (
        "read", "keyword", "write")
    chosen = await store.tasks.update(task.id, NOW + 2, intent="write", intent_source="user", intent_suggestion=None)
    assert chosen is not None and chosen.suggested_intent is None
    assert await store.tasks.set_model_intent(task.id, task.title, "read", "model", "write", NOW + 3) is None
    again = await store.tasks.get(task.id)
    assert again is not None and (again.intent, again.intent_source) == ("write", "user")
