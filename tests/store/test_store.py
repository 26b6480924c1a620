"""subconscious.db: the due query, log paging, in-place updates, retention and migrations."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from openhuman_desktop.errors import StoreUnavailable
from openhuman_desktop.store import SubconsciousStore, Task, open_subconscious_store
from openhuman_desktop.store.engine_state import EngineState
from openhuman_desktop.store.schema import MIGRATIONS
from tests.fakes.sqlite_files import user_version

NOW = 1_790_000_000.0
DAY = 86_400.0


async def add_task(store: SubconsciousStore, title: str, *, next_run_at: float | None = None,
                   recurrence: str = "pending", now: float = NOW) -> Task:
    return await store.tasks.add(
        title=title, source="user", recurrence=recurrence, next_run_at=next_run_at, intent="read",
        intent_source="keyword", origin="user", now=now,
    )


# --- due tasks --------------------------------------------------------------------------------------


async def test_due_tasks(store: SubconsciousStore) -> None:
    never = await add_task(store, "never scheduled")
    past = await add_task(store, "due in the past", next_run_at=NOW - 60, recurrence="cron:* * * * *")
    exact = await add_task(store, "due right now", next_run_at=NOW, recurrence="cron:* * * * *")
    future = await add_task(store, "due later", next_run_at=NOW + 60, recurrence="cron:* * * * *")
    disabled = await add_task(store, "disabled")
    await store.tasks.update(disabled.id, NOW, enabled=False)
    completed = await add_task(store, "completed", recurrence="once")
    await store.tasks.update(completed.id, NOW, completed=True)
    waiting = await add_task(store, "waiting for approval")
    await store.escalations.create(task_id=waiting.id, log_id=None, title="t", description="d",
                                   priority="normal", now=NOW)
    resolved = await add_task(store, "approval resolved")
    old = await store.escalations.create(task_id=resolved.id, log_id=None, title="t", description="d",
                                         priority="normal", now=NOW)
    await store.escalations.resolve(old.id, "dismissed", NOW)

    due = {task.id for task in await store.tasks.due(NOW)}
    assert due == {never.id, past.id, exact.id, resolved.id}
    assert future.id not in due
    assert {task.id for task in await store.tasks.due(NOW + 60)} == due | {future.id}
    assert await store.tasks.next_due_at() == NOW - 60


async def test_task_update_and_remove(store: SubconsciousStore) -> None:
    task = await add_task(store, "t")
    updated = await store.tasks.update(task.id, NOW + 5, last_run_at=NOW + 1, enabled=False)
    assert updated is not None
    assert updated.last_run_at == NOW + 1 and updated.enabled is False and updated.updated_at == NOW + 5
    assert await store.tasks.update("missing", NOW, enabled=True) is None
    with pytest.raises(ValueError, match="not task columns"):
        await store.tasks.update(task.id, NOW, source="system")
    assert await store.tasks.remove(task.id) is True
    assert await store.tasks.remove(task.id) is False
    assert await store.tasks.count() == 0


async def test_removing_a_task_removes_its_escalations(store: SubconsciousStore) -> None:
    task = await add_task(store, "t")
    escalation = await store.escalations.create(task_id=task.id, log_id=None, title="t", description="d",
                                                priority="critical", now=NOW)
    await store.tasks.remove(task.id)
    assert await store.escalations.get(escalation.id) is None
    assert await store.escalations.pending_count() == 0


async def test_task_json_shape(store: SubconsciousStore) -> None:
    task = await add_task(store, "shape")
    data = task.to_json()
    for key in ("id", "title", "source", "recurrence", "enabled", "last_run_at", "next_run_at", "completed",
                "created_at", "intent"):
        assert key in data
    assert data["enabled"] is True and data["completed"] is False


# --- the activity log ---------------------------------------------------------------------------------


async def fill_log(store: SubconsciousStore, count: int, *, task_id: str = "t1", start: float = NOW,
                   step: float = 1.0) -> list[str]:
    ids = []
    for index in range(count):
        entry = await store.log.start(task_id, "title", start + index * step, 1, start + index * step)
        ids.append(entry.id)
    return ids


async def test_log_pages_newest_first_at_every_depth(store: SubconsciousStore) -> None:
    ids = await fill_log(store, 57)
    newest_first = list(reversed(ids))
    seen: list[str] = []
    before = None
    for _ in range(20):
        page = await store.log.page(limit=10, before=before)
        if not page:
            break
        assert [entry.created_at for entry in page] == sorted((entry.created_at for entry in page), reverse=True)
        seen.extend(entry.id for entry in page)
        before = page[-1].created_at
    assert seen == newest_first


@pytest.mark.parametrize("depth", [0, 1, 25, 49])
async def test_log_page_before_a_given_row(store: SubconsciousStore, depth: int) -> None:
    ids = await fill_log(store, 50)
    newest_first = list(reversed(ids))
    anchor = await store.log.get(newest_first[depth])
    assert anchor is not None
    page = await store.log.page(limit=5, before=anchor.created_at)
    assert [entry.id for entry in page] == newest_first[depth + 1:depth + 6]


async def test_log_paging_does_not_lose_rows_written_in_the_same_instant(store: SubconsciousStore) -> None:
    """One tick writes many rows at once; a timestamp cursor must still see every one of them."""
    ids = await fill_log(store, 30, step=0.0)
    seen: list[str] = []
    before = None
    while True:
        page = await store.log.page(limit=7, before=before)
        if not page:
            break
        seen.extend(entry.id for entry in page)
        before = page[-1].created_at
    assert sorted(seen) == sorted(ids)
    assert len(seen) == 30


async def test_log_page_by_task(store: SubconsciousStore) -> None:
    mine = await fill_log(store, 12, task_id="mine", step=2.0)
    await fill_log(store, 12, task_id="other", start=NOW + 1, step=2.0)
    first = await store.log.page(limit=5, task_id="mine")
    assert [entry.id for entry in first] == list(reversed(mine))[:5]
    second = await store.log.page(limit=5, task_id="mine", before=first[-1].created_at)
    assert [entry.id for entry in second] == list(reversed(mine))[5:10]
    assert all(entry.task_id == "mine" for entry in first + second)


async def test_log_page_limit_is_bounded(store: SubconsciousStore) -> None:
    await fill_log(store, 3)
    assert len(await store.log.page(limit=0)) == 1
    assert len(await store.log.page(limit=-5)) == 1
    assert len(await store.log.page(limit=10_000)) == 3


async def test_finish_only_updates_in_progress_rows(store: SubconsciousStore) -> None:
    entry = await store.log.start("t1", "title", NOW, 1, NOW)
    done = await store.log.finish(entry.id, "noop", "Nothing new", 1500, NOW + 2)
    assert done is not None
    assert (done.decision, done.result, done.duration_ms, done.id) == ("noop", "Nothing new", 1500, entry.id)
    assert done.created_at == entry.created_at
    assert await store.log.finish(entry.id, "act", "again", 10, NOW + 3) is None
    row = await store.log.get(entry.id)
    assert row is not None and row.decision == "noop" and row.result == "Nothing new"
    forced = await store.log.finish(entry.id, "dismissed", "Skipped", None, NOW + 4, only_in_progress=False)
    assert forced is not None and forced.decision == "dismissed" and forced.duration_ms == 1500
    assert await store.log.finish("missing", "noop", "", 1, NOW) is None
    assert await store.log.count() == 1


async def test_an_invalid_decision_is_refused(store: SubconsciousStore) -> None:
    entry = await store.log.start("t1", "title", NOW, 1, NOW)
    with pytest.raises(sqlite3.IntegrityError):
        await store.log.finish(entry.id, "maybe", "", 1, NOW)
    row = await store.log.get(entry.id)
    assert row is not None and row.decision == "in_progress"


async def test_cancel_in_progress_by_generation(store: SubconsciousStore) -> None:
    old = [await store.log.start(f"t{i}", "old", NOW, 1, NOW) for i in range(3)]
    new = [await store.log.start(f"t{i}", "new", NOW + 1, 2, NOW + 1) for i in range(2)]
    finished = await store.log.start("t9", "done", NOW, 1, NOW)
    await store.log.finish(finished.id, "act", "did it", 5, NOW)

    cancelled = await store.log.cancel_in_progress("superseded", NOW + 10, generation=1)
    assert sorted(entry.id for entry in cancelled) == sorted(entry.id for entry in old)
    assert all(entry.decision == "cancelled" and entry.result == "superseded" for entry in cancelled)
    assert all(entry.duration_ms is not None and abs(entry.duration_ms - 10_000) <= 1 for entry in cancelled)
    for entry in new:
        row = await store.log.get(entry.id)
        assert row is not None and row.decision == "in_progress"
    row = await store.log.get(finished.id)
    assert row is not None and row.decision == "act"
    assert sorted(entry.id for entry in await store.log.in_progress()) == sorted(entry.id for entry in new)

    rest = await store.log.cancel_in_progress("crash", NOW + 20)
    assert sorted(entry.id for entry in rest) == sorted(entry.id for entry in new)
    assert await store.log.in_progress() == []
    assert await store.log.cancel_in_progress("nothing", NOW + 30) == []


# --- retention ----------------------------------------------------------------------------------------


async def test_retention_by_age_keeps_running_and_pending_rows(store: SubconsciousStore) -> None:
    now = NOW + 100 * DAY
    old = await fill_log(store, 5, start=NOW, step=60)
    for log_id in old:
        await store.log.finish(log_id, "noop", "", 1, NOW)
    running = await store.log.start("t1", "still running", NOW, 1, NOW + 1000)
    escalated = await store.log.start("t2", "waiting", NOW, 1, NOW + 2000)
    await store.log.finish(escalated.id, "escalate", "", 1, NOW + 2000)
    task = await add_task(store, "t2")
    await store.escalations.create(task_id=task.id, log_id=escalated.id, title="t", description="d",
                                   priority="normal", now=NOW + 2000)
    approved_row = await store.log.start("t3", "approved long ago", NOW, 1, NOW + 3000)
    await store.log.finish(approved_row.id, "act", "", 1, NOW + 3000)
    done = await store.escalations.create(task_id=task.id, log_id=approved_row.id, title="t", description="d",
                                          priority="normal", now=NOW + 3000)
    await store.escalations.resolve(done.id, "approved", NOW + 3001)
    recent = await fill_log(store, 3, start=now - DAY, step=60)

    deleted = await store.log.prune(retention_days=90, max_rows=1000, now=now)
    assert deleted == 6
    remaining = {entry.id for entry in await store.log.page(limit=1000)}
    assert remaining == {running.id, escalated.id, *recent}
    resolved = await store.escalations.get(done.id)
    assert resolved is not None and resolved.log_id is None  # the card keeps its history, the row is gone


async def test_retention_by_count_keeps_the_newest(store: SubconsciousStore) -> None:
    ids = await fill_log(store, 20, step=1.0)
    for log_id in ids:
        await store.log.finish(log_id, "noop", "", 1, NOW)
    deleted = await store.log.prune(retention_days=90, max_rows=8, now=NOW + 100)
    assert deleted == 12
    assert [entry.id for entry in await store.log.page(limit=100)] == list(reversed(ids))[:8]
    assert await store.log.prune(retention_days=90, max_rows=8, now=NOW + 100) == 0


async def test_retention_by_count_with_equal_timestamps_is_exact(store: SubconsciousStore) -> None:
    ids = await fill_log(store, 20, step=0.0)
    for log_id in ids:
        await store.log.finish(log_id, "noop", "", 1, NOW)
    await store.log.prune(retention_days=90, max_rows=8, now=NOW + 100)
    assert await store.log.count() == 8


async def test_retention_by_count_keeps_protected_rows(store: SubconsciousStore) -> None:
    running = await store.log.start("t1", "running", NOW - 100, 1, NOW - 100)
    ids = await fill_log(store, 10, step=1.0)
    for log_id in ids:
        await store.log.finish(log_id, "noop", "", 1, NOW)
    await store.log.prune(retention_days=90, max_rows=4, now=NOW + 100)
    remaining = [entry.id for entry in await store.log.page(limit=100)]
    assert remaining == [*list(reversed(ids))[:4], running.id]


async def test_retention_with_an_empty_log(store: SubconsciousStore) -> None:
    assert await store.log.prune(retention_days=1, max_rows=1, now=NOW) == 0


# --- escalations and engine state ------------------------------------------------------------------------


async def test_escalation_resolves_once(store: SubconsciousStore) -> None:
    task = await add_task(store, "t")
    escalation = await store.escalations.create(task_id=task.id, log_id=None, title="t", description="d",
                                                priority="important", now=NOW)
    assert await store.escalations.pending_count() == 1
    first = await store.escalations.resolve(escalation.id, "approved", NOW + 1)
    assert first is not None and first.status == "approved" and first.resolved_at == NOW + 1
    assert await store.escalations.resolve(escalation.id, "dismissed", NOW + 2) is None
    assert await store.escalations.resolve("missing", "approved", NOW) is None
    assert await store.escalations.pending_count() == 0
    assert [e.id for e in await store.escalations.list("approved")] == [escalation.id]


async def test_engine_state_round_trip(store: SubconsciousStore) -> None:
    assert await store.state.load() == EngineState()
    state = EngineState(total_ticks=3, last_tick_at=NOW, consecutive_failures=2, last_error="down")
    await store.state.save(state)
    assert await store.state.load() == state
    await store.state.set_idle_signature("abc")
    assert (await store.state.load()).idle_signature == "abc"
    await store.state.set("engine", "{not json")
    assert await store.state.load() == EngineState()
    assert await store.state.get("missing") is None


# --- migrations ------------------------------------------------------------------------------------------


async def test_migrations_set_user_version_and_reopening_is_a_no_op(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "dir" / "subconscious.db"
    store = await open_subconscious_store(path)
    try:
        task = await add_task(store, "survives")
        assert await store.db.integrity_check() == "ok"
    finally:
        await store.aclose()
        await store.aclose()  # twice is fine
    assert user_version(path) == len(MIGRATIONS)
    store = await open_subconscious_store(path)
    try:
        assert [t.id for t in await store.tasks.list()] == [task.id]
    finally:
        await store.aclose()
    assert user_version(path) == len(MIGRATIONS)


async def test_schema_has_the_contract_columns(store: SubconsciousStore) -> None:
    expected = {
        "subconscious_tasks": {"id", "title", "source", "recurrence", "enabled", "last_run_at", "next_run_at",
                               "completed", "created_at"},
        "subconscious_log": {"id", "task_id", "tick_at", "decision", "result", "duration_ms", "created_at"},
        "subconscious_escalations": {"id", "task_id", "log_id", "title", "description", "priority", "status",
                                     "created_at", "resolved_at"},
    }
    for table, columns in expected.items():
        rows = await store.db.fetchall(f"PRAGMA table_info({table})")
        assert columns <= {row["name"] for row in rows}


async def test_a_newer_schema_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "subconscious.db"
    store = await open_subconscious_store(path)
    await store.aclose()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    conn.commit()
    conn.close()
    with pytest.raises(StoreUnavailable) as caught:
        await open_subconscious_store(path)
    message = str(caught.value)
    assert str(path) in message
    assert "newer" in message and "update" in message.lower()
    assert user_version(path) == len(MIGRATIONS) + 5  # left untouched


async def test_a_failed_migration_leaves_the_old_version(tmp_path: Path) -> None:
    from openhuman_desktop.store.database import Database

    path = tmp_path / "m.db"
    good = ("CREATE TABLE a (x INTEGER)",)
    bad = ("CREATE TABLE b (y INTEGER)", "INSERT INTO missing_table VALUES (1)")
    db = await Database.open(path, [good])
    await db.aclose()
    with pytest.raises(sqlite3.OperationalError):
        await Database.open(path, [good, bad])
    assert user_version(path) == 1
    conn = sqlite3.connect(path)
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()
    assert tables == {"a"}


async def test_a_closed_store_says_so(tmp_path: Path) -> None:
    store = await open_subconscious_store(tmp_path / "closed.db")
    await store.aclose()
    with pytest.raises(StoreUnavailable, match="closed"):
        await store.tasks.list()
