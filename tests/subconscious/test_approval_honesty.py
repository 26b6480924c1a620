"""Skip is remembered (item 5), a task removed or disabled mid-tick fails nothing (item 6), and a result row
that claims an action says which tools ran (item 11)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from openhuman_desktop.store import Escalation, Task
from openhuman_desktop.store.events import TaskChanged, TaskRemoved
from openhuman_desktop.subconscious.decisions import Decision, Evaluation, Evaluator, Executor, Outcome, Report
from openhuman_desktop.subconscious.declined import is_same_recommendation
from tests.fakes.engine_harness import Harness, Reply, first_user_text, open_harness

ACTION = "Forward the 3 urgent emails to #team-alerts"
ANSWER = f"Three urgent emails arrived.\nRECOMMENDED ACTION: {ACTION}"
DAY = 86_400


async def escalate(h: Harness, task: Task, answer: str = ANSWER) -> list[Escalation]:
    h.local.decide = lambda task_id, title: {"decision": "escalate", "reason": "mail"}
    h.reasoning.execution_replies.append(Reply(content=answer))
    await h.clock.advance(300)
    await h.tick()
    return await h.escalations("pending")


# --- item 5: Skip is remembered -------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b", "same"), [
    (ACTION, ACTION, True),
    (ACTION, "forward the 3 urgent e-mails to #team-alerts.", True),
    (ACTION, "  Forward   the 3 urgent emails to team alerts!", True),
    (ACTION, "Forward the 3 urgent emails to #team-alerts now", True),
    (ACTION, "Delete the 3 urgent emails", False),
    ("Write notes.md", "Delete notes.md", False),
    ("Write a.md", "Write b.md", False),
    ("", "", False),
])
def test_same_recommendation(a: str, b: str, same: bool) -> None:
    assert is_same_recommendation(a, b) is same


async def test_a_skipped_recommendation_is_not_raised_again_for_a_day_and_the_model_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check urgent emails", intent="read")
        [card] = await escalate(h, task)
        await h.approvals.escalations_dismiss(card.id)

        assert await escalate(h, task, answer=f"Still there.\nRECOMMENDED ACTION: {ACTION.lower()}.") == []
        row = await h.row(task.id)
        assert row.decision == "noop"
        assert "skipped" in row.result and "may ask again after" in row.result
        prompt = first_user_text(h.reasoning_bodies()[-1])
        assert "declined" in prompt and ACTION in prompt, "the analysis prompt names the declined recommendation"

        [other] = await escalate(h, task, answer="RECOMMENDED ACTION: Archive the newsletter")
        assert other.description == "Archive the newsletter", "a different recommendation still asks"
        await h.approvals.escalations_dismiss(other.id)

        await h.clock.advance(DAY)
        [again] = await escalate(h, task)
        assert again.description == ACTION, "after 24 h it may be asked again"


async def test_a_skip_is_per_task(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        first = await h.add_task("Check urgent emails", intent="read")
        [card] = await escalate(h, first)
        await h.approvals.escalations_dismiss(card.id)
        await h.service.tasks_update(first.id, enabled=False)
        second = await h.add_task("Check the bank's emails", intent="read")
        [other] = await escalate(h, second)
        assert other.task_id == second.id


# --- item 6: a task removed or disabled while the tick looks at it ----------------------------------------


class RemovingEvaluator:
    """Evaluates as usual, then the user removes (or disables) a task before the tick acts on it."""

    def __init__(self, inner: Evaluator, h: Harness, task_id: str, *, remove: bool) -> None:
        self._inner, self._h, self._task_id, self._remove = inner, h, task_id, remove

    async def evaluate(self, tasks: Sequence[Task], report: Report) -> Evaluation:
        evaluation = await self._inner.evaluate(tasks, report)
        if self._remove:
            await self._h.service.tasks_remove(self._task_id)
        else:
            await self._h.service.tasks_update(self._task_id, enabled=False)
        return evaluation


class RemovingExecutor:
    """Removes (or disables) the task while its analysis runs."""

    def __init__(self, inner: Executor, h: Harness, task_id: str, *, remove: bool) -> None:
        self._inner, self._h, self._task_id, self._remove = inner, h, task_id, remove

    async def execute(self, task: Task, decision: Decision, report: Report, declined: Sequence[str] = ()) -> Outcome:
        outcome = await self._inner.execute(task, decision, report, declined)
        if task.id == self._task_id:
            if self._remove:
                await self._h.service.tasks_remove(task.id)
            else:
                await self._h.service.tasks_update(task.id, enabled=False)
        return outcome


@pytest.mark.parametrize("where", ["evaluation", "execution"])
async def test_a_task_removed_mid_tick_is_skipped_quietly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        gone = await h.add_task("Check urgent emails", intent="read")
        kept = await h.add_task("Check the bank's emails", intent="read")
        if where == "evaluation":
            monkeypatch.setattr(h.engine, "_evaluator", RemovingEvaluator(h.engine._evaluator, h, gone.id, remove=True))
        else:
            monkeypatch.setattr(h.engine, "_executor", RemovingExecutor(h.engine._executor, h, gone.id, remove=True))
        h.local.decide = lambda task_id, title: {"decision": "escalate", "reason": "mail"}
        h.reasoning.execute = lambda body: Reply(content=ANSWER)
        await h.tick()

        [card] = await h.escalations()
        assert card.task_id == kept.id, "the other task's card is raised"
        state = await h.state()
        assert (state.consecutive_failures, state.total_ticks) == (0, 1), "the tick did not fail"
        [row] = await h.rows(gone.id)
        assert row.decision == "cancelled" and "removed" in row.result
        assert (await h.row(kept.id)).decision == "escalate"


@pytest.mark.parametrize("where", ["evaluation", "execution"])
async def test_a_task_disabled_mid_tick_raises_no_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check urgent emails", intent="read")
        engine = h.engine
        if where == "evaluation":
            monkeypatch.setattr(engine, "_evaluator", RemovingEvaluator(engine._evaluator, h, task.id, remove=False))
        else:
            monkeypatch.setattr(engine, "_executor", RemovingExecutor(engine._executor, h, task.id, remove=False))
        h.local.decide = lambda task_id, title: {"decision": "escalate", "reason": "mail"}
        h.reasoning.execute = lambda body: Reply(content=ANSWER)
        await h.tick()

        assert await h.escalations() == []
        row = await h.row(task.id)
        assert row.decision == "cancelled" and "disabled" in row.result
        assert (await h.state()).consecutive_failures == 0
        assert not (await h.task(task.id)).enabled


# --- item 11: which tools ran ----------------------------------------------------------------------------


async def test_an_act_row_says_which_tools_ran(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Write today's date to notes/todo.md", intent="write")
        h.local.decide = lambda task_id, title: "act"
        h.local.execution_replies.extend([
            Reply(tool_calls=[{"name": "files_write", "arguments": {"path": "notes/todo.md", "text": "today"}}]),
            Reply(content="Wrote the date to notes/todo.md."),
        ])
        await h.tick()
        row = await h.row(task.id)
        assert row.decision == "act"
        assert row.result.endswith("Tools used: files_write (notes/todo.md)")


async def test_an_act_row_without_tools_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Write today's date to notes/todo.md", intent="write")
        h.local.decide = lambda task_id, title: "act"
        h.local.execution_replies.append(Reply(content="I wrote the date to notes/todo.md."))
        await h.tick()
        row = await h.row(task.id)
        # issue 10, item 6: a write task's act that ran no tool changed nothing, and says so
        assert row.decision == "failed"
        assert row.result.startswith("The model answered without using a tool, so nothing was changed: ")
        assert row.result.endswith("No tools were used.")


@pytest.mark.parametrize("remove", [True, False])
async def test_the_window_is_not_told_a_stale_task_after_the_tick(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, remove: bool
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check urgent emails", intent="read")
        engine = h.engine
        monkeypatch.setattr(engine, "_evaluator", RemovingEvaluator(engine._evaluator, h, task.id, remove=remove))
        seen: list[object] = []
        h.services.bus.subscribe(TaskChanged, seen.append)
        h.services.bus.subscribe(TaskRemoved, seen.append)
        h.local.decide = lambda task_id, title: "noop"
        await h.tick()
        assert (await h.state()).consecutive_failures == 0
        assert (await h.row(task.id)).decision == "noop"

        mine = [e for e in seen if getattr(e, "task_id", None) == task.id
                or getattr(getattr(e, "task", None), "id", None) == task.id]
        if remove:
            assert isinstance(mine[-1], TaskRemoved), "a removed task is not brought back by the tick"
        else:
            last = mine[-1]
            assert isinstance(last, TaskChanged) and not last.task.enabled, "still shown disabled"
