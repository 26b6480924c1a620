"""Attack: one approved run's single model answer holds hundreds of tool calls (each adds a standing task that
every later tick analyses): one approval must not turn into an unbounded number of standing tasks."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.engine_harness import Json, Reply, last_is_tool_result, open_harness
from tests.subconscious.test_approval_durability import escalate_once, settled

CALLS = 300


def flood(body: Json) -> Reply:
    if last_is_tool_result(body):
        return Reply(content="Added the tasks.")
    return Reply(tool_calls=[{"name": "subconscious_tasks_add", "arguments": {"title": f"Watch item {i}"}}
                             for i in range(CALLS)])


async def test_one_approved_answer_cannot_add_hundreds_of_standing_tasks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        _task, escalation = await escalate_once(h)
        h.reasoning.execute = flood
        await h.service.escalations_approve(escalation.id)
        await settled(h, escalation.log_id or "")
        added = [t for t in await h.service.tasks_list() if t.origin == "assistant"]
        assert len(added) < 50, f"one approval added {len(added)} standing tasks"
