"""A tick's batched writes: the snapshots they return are exactly what the database holds."""

from __future__ import annotations

from openhuman_desktop.store import Advance, SubconsciousStore, Task

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
