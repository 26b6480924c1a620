"""One approved run can ask for hundreds of tasks, each a standing task that every later tick analyses (found
by the issue-9 attack): the assistant's unconfirmed tasks are capped."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from openhuman_desktop.store import Escalation, Task
from openhuman_desktop.subconscious.service import MAX_ASSISTANT_TASKS
from tests.fakes.engine_harness import Harness, Json, Reply, last_is_tool_result, open_harness
from tests.subconscious.test_approval_durability import settled

# An action that asks for tasks: its approval licenses the tasks tool (issue 25), which is what is flooded here.
ANSWER = "The bank wrote.\nRECOMMENDED ACTION: add tasks to watch each of the bank's letters"


async def escalate_once(h: Harness) -> tuple[Task, Escalation]:
    task = await h.add_task("Check urgent emails", intent="read")
    h.local.decide = lambda task_id, title: {"decision": "escalate", "priority": "critical", "reason": "mail"}
    h.reasoning.execution_replies.append(Reply(content=ANSWER))
    await h.tick()
    [escalation] = await h.escalations()
    return task, escalation

PER_ANSWER = 15  # under the tool loop's own cap of calls per answer (MAX_CALLS_PER_ANSWER)
ANSWERS = 6


def flooding() -> Callable[[Json], Reply]:
    """A model that answers with 15 new tasks, six times over (90 in all), then says it is done."""
    answers = iter(range(ANSWERS))

    def flood(body: Json) -> Reply:
        step = next(answers, None)
        if step is None:
            return Reply(content="Added the tasks.")
        return Reply(tool_calls=[
            {"name": "subconscious_tasks_add", "arguments": {"title": f"Watch item {step * PER_ANSWER + i}"}}
            for i in range(PER_ANSWER)])

    return flood


async def test_one_approved_answer_cannot_add_hundreds_of_standing_tasks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        _task, escalation = await escalate_once(h)
        h.reasoning.execute = flooding()
        await h.approvals.escalations_approve(escalation.id)
        await settled(h, escalation.id)
        added = [t for t in await h.service.tasks_list() if t.origin == "assistant"]
        assert len(added) == MAX_ASSISTANT_TASKS, f"one approval added {len(added)} standing tasks"
        answer = [b for b in h.reasoning_bodies() if last_is_tool_result(b)][-1]
        assert "cannot add more until the user confirms" in str(answer), "the model is told why"

        await h.service.tasks_update(added[0].id, intent="read")  # the user confirms one: room for one more
        more = await h.service.tasks_add_by_assistant("One more watch item")
        assert more.origin == "assistant"
