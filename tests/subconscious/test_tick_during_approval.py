"""A tick while an approved action is being carried out (found by the issue-9 attack) does not analyse that task:
its analysis raised the same recommendation as a second card, and approving that one too ran the action twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.engine_harness import Json, Reply, all_text, last_is_tool_result, open_harness
from tests.subconscious.test_approval_durability import ANSWER, APPEND, escalate_once, settled


def slow_append(body: Json) -> Reply:
    if "approved the recommended action" not in all_text(body):
        return Reply(content=ANSWER)  # an analysis of the task: the same recommendation again
    if last_is_tool_result(body):
        return Reply(content="Appended the bank to alerts.md.")
    return Reply(tool_calls=[APPEND], delay=1.0)


async def test_a_tick_during_an_approved_run_does_not_raise_the_same_card_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h)
        h.reasoning.execute = slow_append
        await h.approvals.escalations_approve(escalation.id)
        await h.clock.advance(300)
        await h.tick()
        pending = await h.escalations("pending")
        await settled(h, escalation.id)
        assert pending == [], "a second card for the action that is being carried out right now"
        rows = [r for r in await h.rows(task.id)]
        assert all(r.decision != "failed" for r in rows), [(r.decision, r.result) for r in rows]
