"""The HEARTBEAT.md line of a task deleted while an approved action of that task is being carried out (found by
the issue-9 attack: the sync deleted the task under the run, which failed on a FOREIGN KEY error and left its row
in progress): the task stays until the run is over, and the next sync removes it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.fakes.engine_harness import Json, Reply, last_is_tool_result, open_harness
from tests.subconscious.test_approval_durability import ANSWER, APPEND, settled


def slow_append(body: Json) -> Reply:
    if last_is_tool_result(body):
        return Reply(content="Appended the bank to alerts.md.")
    return Reply(tool_calls=[APPEND], delay=0.5)


async def test_a_heartbeat_line_removed_while_its_approval_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        heartbeat = h.paths.heartbeat_file
        heartbeat.write_text("- Check the bank's emails\n", encoding="utf-8")
        await h.service.sync_heartbeat_file()
        [task] = [t for t in await h.service.tasks_list() if t.origin == "heartbeat_md"]
        if task.intent != "read":
            task = await h.service.tasks_update(task.id, intent="read")
        h.local.decide = lambda task_id, title: {"decision": "escalate", "priority": "critical", "reason": "mail"}
        h.reasoning.execution_replies.append(Reply(content=ANSWER))
        await h.tick()
        [escalation] = await h.escalations("pending")
        h.reasoning.execute = slow_append
        await h.approvals.escalations_approve(escalation.id)
        heartbeat.write_text("# no tasks any more\n", encoding="utf-8")
        await h.service.sync_heartbeat_file()
        await settled(h, escalation.id)
        row = await h.approval_row(escalation.id)  # the row its Go ahead added (issue 25)
        assert row is not None and row.decision == "act", row
        for _ in range(5):
            await asyncio.sleep(0.01)
        await h.service.sync_heartbeat_file()  # once the run is over, the next sync removes the task
        assert [t for t in await h.service.tasks_list() if t.origin == "heartbeat_md"] == []
