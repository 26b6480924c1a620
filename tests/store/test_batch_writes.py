"""A tick's batched writes return exactly what the database holds; the per-task indexes and their migrations."""

from __future__ import annotations

from pathlib import Path

from openhuman_desktop.store import Advance, Database, SubconsciousStore, Task, open_subconscious_store
from openhuman_desktop.store.activity import FILE_WHEN_WAITING, task_page_sql
from openhuman_desktop.store.schema import MIGRATIONS

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


async def test_a_task_page_searches_both_indexes(store: SubconsciousStore) -> None:
    for before in (False, True):
        params: list[object] = ["x", "x", NOW] if before else ["x", "x"]
        rows = await store.db.fetchall("EXPLAIN QUERY PLAN " + task_page_sql(before), [*params, *params, 5])
        plan = " | ".join(row[3] for row in rows)
        older = " AND created_at<?" if before else ""
        assert f"SEARCH subconscious_log USING INDEX idx_log_task (<expr>=?{older})" in plan
        assert f"SEARCH subconscious_log USING INDEX idx_log_task_recent (<expr>=?{older})" in plan
        assert "SCAN" not in plan


async def test_rows_are_found_before_and_after_they_are_filed(store: SubconsciousStore) -> None:
    task = await add_task(store, "Every tick")
    other = await add_task(store, "Another task")
    first = await store.log.start_many([(task.id, task.title), (other.id, other.title)], NOW, 1, NOW)
    assert await store.log.file_recent() == 0, "a few rows wait for the hourly filing"
    assert await store.log.file_recent(force=True) == 2
    second = await store.log.start_many([(task.id, task.title)], NOW + 300, 2, NOW + 300)
    third = await store.log.start_many([(task.id, task.title)], NOW + 600, 3, NOW + 600)
    waiting = await store.db.fetchall("SELECT id FROM subconscious_log WHERE filed = 0 ORDER BY created_at")
    assert [row[0] for row in waiting] == [second[0].id, third[0].id]
    newest_first = [third[0], second[0], first[0]]
    assert await store.log.page(task_id=task.id) == newest_first, "filed and recent rows, merged"
    assert await store.log.page(task_id=task.id, limit=2) == newest_first[:2]
    assert await store.log.page(task_id=task.id, before=second[0].created_at) == [first[0]]
    assert await store.log.page(task_id=other.id) == [first[1]]
    assert await store.log.file_recent(force=True) == 2
    assert await store.log.page(task_id=task.id) == newest_first


async def test_many_waiting_rows_are_filed_in_batches(store: SubconsciousStore) -> None:
    count = FILE_WHEN_WAITING + 10
    tasks = [(f"task-{n:06d}", f"Task {n}") for n in range(count)]
    await store.log.start_many(tasks, NOW, 1, NOW)
    assert await store.log.file_recent() == count, "enough rows wait to file them before the hour is up"
    assert await store.db.fetchall("SELECT id FROM subconscious_log WHERE filed = 0") == []
    assert [entry.task_title for entry in await store.log.page(task_id="task-000123")] == ["Task 123"]


async def test_rows_inserted_by_other_programs_are_filed_at_once(store: SubconsciousStore) -> None:
    await store.db.execute(
        """INSERT INTO subconscious_log (id, task_id, tick_at, decision, result, duration_ms, created_at, task_title)
           VALUES ('row-1', 'task-0001', 1.0, 'noop', 'Nothing new', 5, 1.0, 'Old task')"""
    )
    assert [entry.id for entry in await store.log.page(task_id="task-0001")] == ["row-1"]
    assert await store.log.file_recent(force=True) == 0


async def test_older_databases_are_migrated_with_their_rows(tmp_path: Path) -> None:
    for version in (1, 2):
        path = tmp_path / f"v{version}.db"
        old = await Database.open(path, MIGRATIONS[:version])
        await old.execute(
            """INSERT INTO subconscious_log (id, task_id, tick_at, decision, result, duration_ms, created_at,
                   task_title) VALUES ('row-1', 'task-0001', 1.0, 'noop', 'Nothing new', 5, 1.0, 'Old task')"""
        )
        await old.aclose()
        store = await open_subconscious_store(path)
        try:
            assert [entry.id for entry in await store.log.page(task_id="task-0001")] == ["row-1"]
            names = {row[0] for row in await store.db.fetchall("SELECT name FROM sqlite_master WHERE type = 'index'")}
            assert {"idx_log_task", "idx_log_task_recent"} <= names and "idx_log_task_created" not in names
        finally:
            await store.aclose()
