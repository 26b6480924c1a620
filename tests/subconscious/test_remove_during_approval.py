"""Removing a task while its approved action is being carried out (found by the issue-9 attack): the removal
is refused, so the run's outcome still has its card and row to land on (before, the run failed on a FOREIGN KEY
error and its row stayed "Approved — carrying out…" until the next start)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from openhuman_desktop.errors import Conflict
from tests.fakes.engine_harness import Json, Reply, last_is_tool_result, open_harness
from tests.subconscious.test_approval_durability import APPEND, escalate_once, settled


def slow_append(body: Json) -> Reply:
    if last_is_tool_result(body):
        return Reply(content="Appended the bank to alerts.md.")
    return Reply(tool_calls=[APPEND], delay=0.3)


async def test_a_task_whose_approval_is_being_carried_out_cannot_be_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h)
        h.reasoning.execute = slow_append
        await h.approvals.escalations_approve(escalation.id)
        with pytest.raises(Conflict, match="being carried out"):
            await h.service.tasks_remove(task.id)
        await settled(h, escalation.id)
        row = await h.row(task.id)
        assert row.decision == "act", (row.decision, row.result)
        assert (h.workspace / "alerts.md").read_text(encoding="utf-8") == "bank\n"

        assert await h.service.tasks_remove(task.id) == task.id, "once it has finished, it can be removed"
        for _ in range(10):
            await asyncio.sleep(0.01)
        rows = await h.services.store.log.page(limit=50)
        assert all(entry.decision != "in_progress" for entry in rows)
