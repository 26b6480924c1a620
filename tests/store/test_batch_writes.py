"""A tick's batched writes return exactly what the database holds; the per-task index and its migration."""

from __future__ import annotations

from pathlib import Path

from openhuman_desktop.store import Advance, Database, SubconsciousStore, Task, open_subconscious_store
from openhuman_desktop.store.schema import MIGRATIONS, TASK_KEY

NOW = 1_790_000_000.123456


async def add_task(store: SubconsciousStore, title: str, recurrence: str = "pending",
                   next_run_at: float | None = None) -> Task:
    return await store.tasks.add(
        title=title, source="user", recurrence=recurrence, next_run_at=next_run_at, intent="read",
        intent_source="keyword", origin="user", now=NOW - 100,
    )


async def test_started_rows_are_stored_exactly_as_returned(store: SubconsciousStore) -> None:
    titles = ["Check urgent emails", 'Quotes " and \\ backslashes', "Ünïcödé 🙂 and a\nnewline", "x" * 2000]
    tasks = [await add_task(store, title) for title in titles]
    started = await store.log.start_many([(task.id, task.title) for task in tasks], NOW - 1, 7, NOW)
    stored = await store.log.page(limit=10)
    assert sorted(stored, key=lambda entry: entry.created_at) == started, "created_at to the last bit"
    assert len({entry.created_at for entry in started}) == len(titles)
    again = await store.log.start_many([(tasks[0].id, tasks[0].title)], NOW - 1, 8, NOW)
    assert again[0].created_at > started[-1].created_at, "the same instant still sorts after the newest row"
    assert await store.log.get(again[0].id) == again[0]


async def test_finishing_rows_touches_only_rows_still_in_progress(store: SubconsciousStore) -> None:
    tasks = [await add_task(store, f"Task {n}") for n in range(3)]
    rows = await store.log.start_many([(task.id, task.title) for task in tasks], NOW, 1, NOW)
    await store.log.cancel_in_progress("Cancelled: test", NOW + 1, generation=1)
    fresh = await store.log.start_many([(tasks[0].id, tasks[0].title)], NOW + 2, 2, NOW + 2)
    returned = await store.log.finish_many(
        [(fresh[0], "noop", 'Nothing new — "quoted"', 12), (rows[1], "act", "Done", 40)], NOW + 3
    )
    assert returned[0] == await store.log.get(fresh[0].id)
    assert (returned[0].decision, returned[0].result, returned[0].duration_ms) == ("noop", 'Nothing new — "quoted"', 12)
    assert (await store.log.get(rows[1].id)).decision == "cancelled", "a row that was final stays final"


async def test_advancing_stores_each_schedule(store: SubconsciousStore) -> None:
    every = await add_task(store, "Every tick")
    cron = await add_task(store, "Cron", "cron:0 9 * * *", next_run_at=NOW - 10)
    once = await add_task(store, "Once", "once")
    advances = [Advance(every, NOW, None, False), Advance(cron, NOW, NOW + 3600, False),
                Advance(once, NOW, once.next_run_at, True)]
    returned = await store.tasks.advance_many(advances, NOW + 1)
    for task in returned:
        assert await store.tasks.get(task.id) == task
    assert [(t.last_run_at, t.next_run_at, t.completed) for t in returned] == [
        (NOW, None, False), (NOW, NOW + 3600, False), (NOW, None, True)]


async def test_tasks_whose_ids_end_alike_keep_their_own_rows(store: SubconsciousStore) -> None:
    # The per-task index is keyed by the id's last 8 characters; the id itself still decides.
    first, second = "first-task-1234abcd", "other-task-1234abcd"
    await store.log.start_many([(first, "First"), (second, "Second"), (first, "First")], NOW, 1, NOW)
    assert [entry.task_title for entry in await store.log.page(task_id=first)] == ["First", "First"]
    assert [entry.task_title for entry in await store.log.page(task_id=second)] == ["Second"]
    assert await store.log.page(task_id="no-such-task-1234abcd") == []


async def test_the_task_filter_is_an_index_search(store: SubconsciousStore) -> None:
    rows = await store.db.fetchall(
        "EXPLAIN QUERY PLAN SELECT id FROM subconscious_log INDEXED BY idx_log_task "
        f"WHERE {TASK_KEY} = substr(?, -8) AND +task_id = ? AND created_at < ? ORDER BY created_at DESC LIMIT 5",
        ("x", "x", NOW),
    )
    assert any("SEARCH subconscious_log USING INDEX idx_log_task (<expr>=? AND created_at<?)" in row[3] for row in rows)


async def test_a_version_1_database_is_migrated_with_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = await Database.open(path, MIGRATIONS[:1])
    await old.execute(
        """INSERT INTO subconscious_log (id, task_id, tick_at, decision, result, duration_ms, created_at, task_title)
           VALUES ('row-1', 'task-0001', 1.0, 'noop', 'Nothing new', 5, 1.0, 'Old task')"""
    )
    await old.aclose()
    store = await open_subconscious_store(path)
    try:
        assert [entry.id for entry in await store.log.page(task_id="task-0001")] == ["row-1"]
        names = {row[0] for row in await store.db.fetchall("SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert "idx_log_task" in names and "idx_log_task_created" not in names
    finally:
        await store.aclose()
