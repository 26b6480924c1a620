"""The escalations' durable side (issue 9): one-commit approve with its run marker, cards only for live tasks,
rows of running approvals left alone, Skip remembered, and the upgrade of approvals left by an older version."""

from __future__ import annotations

from pathlib import Path

from openhuman_desktop.store import Database, SubconsciousStore, Task, open_subconscious_store
from openhuman_desktop.store.schema import MIGRATIONS, UPGRADE_NOTE

NOW = 1_790_000_000.0


async def add_task(store: SubconsciousStore, title: str = "Check mail") -> Task:
    return await store.tasks.add(title=title, source="user", recurrence="pending", next_run_at=None, intent="read",
                                 intent_source="keyword", origin="user", now=NOW)


async def test_approve_commits_the_approval_its_marker_and_its_row_together(store: SubconsciousStore) -> None:
    task = await add_task(store)
    row = await store.log.start(task.id, task.title, NOW, 1, NOW)
    await store.log.finish(row.id, "escalate", "Waiting for approval", None, NOW)
    card = await store.escalations.create(task_id=task.id, log_id=row.id, title="t", description="d",
                                          priority="normal", now=NOW)

    approved = await store.escalations.approve(card.id, NOW + 1, "Approved — carrying out…")
    assert approved is not None and approved.row is not None
    assert (approved.escalation.status, approved.row.decision) == ("approved", "in_progress")
    assert [e.id for e in await store.escalations.carrying_out()] == [card.id]
    assert await store.escalations.approve(card.id, NOW + 2, "again") is None, "approved once"
    # A tick that is superseded (or start-up) does not cancel the row of a running approval.
    assert await store.log.cancel_in_progress("cancelled", NOW + 3) == []
    assert await store.log.cancel_in_progress("cancelled", NOW + 3, 1) == []

    done = await store.escalations.finish_run(card.id, NOW + 4, decision="act", result="Done", duration_ms=5,
                                              complete_task=True)
    assert done is not None and done.row is not None and done.row.decision == "act"
    assert await store.escalations.carrying_out() == []


async def test_a_card_is_raised_only_for_an_enabled_task_that_exists(store: SubconsciousStore) -> None:
    task = await add_task(store)
    await store.tasks.update(task.id, NOW, enabled=False)
    assert await store.escalations.raise_for_task(task_id=task.id, log_id=None, title="t", description="d",
                                                  priority="normal", now=NOW) is None
    assert await store.escalations.raise_for_task(task_id="gone", log_id=None, title="t", description="d",
                                                  priority="normal", now=NOW) is None
    await store.tasks.update(task.id, NOW, enabled=True)
    raised = await store.escalations.raise_for_task(task_id=task.id, log_id=None, title="t", description="d",
                                                    priority="normal", now=NOW)
    assert raised is not None and await store.escalations.get(raised.id) == raised


async def test_a_skip_is_remembered_per_task(store: SubconsciousStore) -> None:
    task, other = await add_task(store), await add_task(store, "Other")
    card = await store.escalations.create(task_id=task.id, log_id=None, title="t", description="Forward it",
                                          priority="normal", now=NOW)
    assert await store.escalations.dismiss(card.id, NOW + 5, remember=True) is not None
    assert await store.escalations.declined_since(task.id, NOW) == [("Forward it", NOW + 5)]
    assert await store.escalations.declined_since(task.id, NOW + 6) == []
    assert await store.escalations.declined_since(other.id, NOW) == []
    assert await store.escalations.dismiss(card.id, NOW + 6, remember=True) is None


async def test_an_approval_interrupted_under_an_older_version_is_a_card_again_after_the_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "subconscious.db"
    old = await Database.open(path, MIGRATIONS[:3])
    await old.execute(
        """INSERT INTO subconscious_tasks (id, title, source, created_at, updated_at) VALUES ('t', 'Mail', 'user',
           ?, ?)""", (NOW, NOW))
    await old.execute(
        """INSERT INTO subconscious_log (id, task_id, tick_at, decision, result, created_at)
           VALUES ('l', 't', ?, 'in_progress', 'Approved — carrying out…', ?)""", (NOW, NOW))
    await old.execute(
        """INSERT INTO subconscious_escalations (id, task_id, log_id, title, description, priority, status, created_at,
           resolved_at) VALUES ('e', 't', 'l', 'Mail', 'Forward it', 'normal', 'approved', ?, ?)""", (NOW, NOW))
    await old.aclose()

    store = await open_subconscious_store(path)
    try:
        card = await store.escalations.get("e")
        assert card is not None and (card.status, card.note) == ("pending", UPGRADE_NOTE)
        row = await store.log.get("l")
        assert row is not None and row.decision == "escalate" and UPGRADE_NOTE in row.result
        assert await store.escalations.carrying_out() == []
    finally:
        await store.aclose()


async def test_old_skips_are_dropped(store: SubconsciousStore) -> None:
    task = await add_task(store)
    for at in (NOW, NOW + 40 * 86_400):
        card = await store.escalations.create(task_id=task.id, log_id=None, title="t", description=f"d{at}",
                                              priority="normal", now=at)
        await store.escalations.dismiss(card.id, at, remember=True)
    assert await store.escalations.declined_since(task.id, 0) == [(f"d{NOW + 40 * 86_400}", NOW + 40 * 86_400)]
