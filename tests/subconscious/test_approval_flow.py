"""The approval gate: analysis-only escalations, Go ahead (exactly once) and Skip, across ticks and restarts."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from openhuman_desktop.errors import Conflict, NotFound
from openhuman_desktop.store import Escalation, Task
from tests.fakes.engine_harness import (
    WRITE_TOOLS,
    Harness,
    Reply,
    all_text,
    open_harness,
    task_lines,
    tool_names,
    wrote,
)

ANSWER = "Three urgent emails arrived from the bank.\nRECOMMENDED ACTION: Forward the 3 urgent emails to alerts/team.md"
ACTION = "Forward the 3 urgent emails to alerts/team.md"


async def escalate_once(h: Harness, *, recurrence: str = "pending", answer: str = ANSWER,
                        priority: str = "critical") -> tuple[Task, Escalation]:
    """Run one tick in which a read-only task is escalated and agentic-v1 recommends an action."""
    task = await h.add_task("Check urgent emails", recurrence, intent="read")
    h.local.decide = lambda task_id, title: {"decision": "escalate", "priority": priority,
                                             "reason": "The bank wrote three times."}
    h.reasoning.execution_replies.append(Reply(content=answer))
    await h.tick()
    [escalation] = await h.escalations()
    return task, escalation


async def wait_for_final_row(h: Harness, escalation_id: str) -> None:
    """Wait until the card's Go ahead is over and its row (the one the Go ahead added) has its outcome."""
    await h.approval_settled(escalation_id)


async def test_a_recommended_action_becomes_a_pending_escalation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h)

        [analysis] = h.reasoning_bodies()
        assert analysis["model"] == "agentic-v1"
        assert not set(tool_names(analysis)) & WRITE_TOOLS, "analysis-only: write tools withheld"
        assert "RECOMMENDED ACTION" in all_text(analysis)
        row = await h.row(task.id)
        assert (row.decision, row.result) == ("escalate", "Waiting for approval")
        assert escalation.task_id == task.id
        assert escalation.log_id == row.id
        assert escalation.title == task.title
        assert escalation.description == ACTION
        assert escalation.priority == "critical"
        assert (escalation.status, escalation.resolved_at) == ("pending", None)
        status = await h.service.status()
        assert status["pending_escalations"] == 1


@pytest.mark.parametrize("answer", [
    f"RECOMMENDED ACTION: {ACTION}",
    f"Found them.\n**RECOMMENDED ACTION:** {ACTION}",
    f"Found them.\n  - RECOMMENDED ACTION: {ACTION}\n",
])
async def test_the_recommended_action_is_found_wherever_its_line_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        _, escalation = await escalate_once(h, answer=answer)
        assert escalation.description == ACTION


@pytest.mark.parametrize("priority", ["critical", "important", "normal"])
async def test_the_escalation_takes_the_evaluations_priority(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, priority: str
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        _, escalation = await escalate_once(h, priority=priority)
        assert escalation.priority == priority


async def test_a_task_waiting_for_approval_is_not_evaluated_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, _ = await escalate_once(h)
        other = await h.add_task("Review notes.md")
        h.local.decide = lambda task_id, title: "noop"
        for _ in range(2):
            await h.clock.advance(300)
            h.write_file("notes.md", f"changed at {h.clock.now()}")
            await h.tick()

        assert len(await h.rows(task.id)) == 1, "no second row, no duplicate card"
        assert len(await h.escalations()) == 1
        later = h.local_bodies("evaluation")[1:]
        assert len(later) == 2
        for body in later:
            assert [title for _, title in task_lines(body)] == [other.title]
        assert len(h.reasoning_bodies()) == 1


async def test_approve_runs_agentic_v1_once_with_write_tools_and_updates_the_row_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h)
        assert h.openai is not None
        before = len(h.openai.chat_requests)
        h.reasoning.execution_replies.extend(wrote("alerts/team.md", "3 urgent emails from the bank",
                                                   "Forwarded the 3 emails to alerts/team.md."))
        rows_before = await h.rows()

        results = await asyncio.gather(
            h.approvals.escalations_approve(escalation.id), h.approvals.escalations_approve(escalation.id),
            return_exceptions=True,
        )

        assert sorted(type(r).__name__ for r in results) == ["Conflict", "str"]
        assert escalation.id in results
        await wait_for_final_row(h, escalation.id)
        for _ in range(20):  # let any stray second execution show itself
            await asyncio.sleep(0.01)
        assert len(h.openai.chat_requests) == before + 2, "approved exactly once (a tool call and an answer)"
        approved_run = h.reasoning_bodies()[-2]
        assert {"files_write", "files_append"} <= set(tool_names(approved_run))
        assert ACTION in all_text(approved_run)
        rows_after = await h.rows()
        # Issue 25: carrying it out adds a row at the top; the card's own row keeps saying it was approved.
        assert [r.id for r in rows_after[:-1]] == [r.id for r in rows_before], "one new row, at the top"
        card_row = next(r for r in rows_after if r.id == escalation.log_id)
        assert card_row.decision == "escalate" and card_row.result.startswith("Approved at ")
        row = await h.row(task.id)
        assert row.id != escalation.log_id and row.id == rows_after[-1].id
        assert row.decision == "act"
        assert "Forwarded the 3 emails" in row.result
        [resolved] = await h.escalations()
        assert resolved.status == "approved" and resolved.resolved_at is not None
        with pytest.raises(Conflict):
            await h.approvals.escalations_approve(escalation.id)
        with pytest.raises(Conflict):
            await h.approvals.escalations_dismiss(escalation.id)
        assert len(h.openai.chat_requests) == before + 2


async def test_the_approved_action_really_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        _, escalation = await escalate_once(
            h, answer="RECOMMENDED ACTION: write the three senders to alerts.md"
        )
        assert not (h.workspace / "alerts.md").exists()
        h.reasoning.execution_replies.extend([
            Reply(tool_calls=[{"name": "files_write", "arguments": {"path": "alerts.md", "text": "bank"}}]),
            Reply(content="Wrote alerts.md."),
        ])
        await h.approvals.escalations_approve(escalation.id)
        await wait_for_final_row(h, escalation.id)
        assert (h.workspace / "alerts.md").read_text(encoding="utf-8") == "bank"


async def test_a_once_task_completes_after_its_escalation_is_approved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h, recurrence="once")
        assert not (await h.task(task.id)).completed, "not done while waiting for approval"
        h.reasoning.execution_replies.extend(wrote("alerts/team.md", "3 emails"))
        await h.approvals.escalations_approve(escalation.id)
        await wait_for_final_row(h, escalation.id)
        assert (await h.task(task.id)).completed
        await h.clock.advance(300)
        await h.tick()
        assert len(await h.rows(task.id)) == 2, "the card's row and its Go ahead's: no tick after completion"


async def test_a_failed_approved_run_fails_its_row_and_keeps_the_once_task_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A prompt the server refuses for its length fails the run: trying the same run again would only fail
    # again. (A model that is down or answers garbage — HTTP 5xx, unreachable, a body that is not JSON — does
    # not consume the approval: the card comes back, see test_approval_durability.py; issue 9, item 2.)
    overflow = json.dumps({"error": {
        "message": "This model's maximum context length is 2048 tokens. However, you requested 9063 tokens.",
        "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}})
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h, recurrence="once")
        h.reasoning.execution_replies.append(Reply(status=400, body=overflow))
        await h.approvals.escalations_approve(escalation.id)
        await wait_for_final_row(h, escalation.id)
        row = await h.row(task.id)
        assert row.decision == "failed"
        assert "context" in row.result
        assert not (await h.task(task.id)).completed
        assert (await h.state()).consecutive_failures == 0
        [resolved] = await h.escalations()
        assert resolved.status == "approved", "an approval that ran (and failed) is not asked again"


async def test_dismiss_skips_without_executing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h)
        reasoning_before = len(h.reasoning_bodies())

        assert await h.approvals.escalations_dismiss(escalation.id) == escalation.id

        row = await h.row(task.id)
        assert (row.id, row.decision, row.result) == (escalation.log_id, "dismissed", "Skipped")
        [dismissed] = await h.escalations()
        assert dismissed.status == "dismissed" and dismissed.resolved_at is not None
        with pytest.raises(Conflict):
            await h.approvals.escalations_approve(escalation.id)
        for _ in range(20):
            await asyncio.sleep(0.01)
        assert len(h.reasoning_bodies()) == reasoning_before, "Skip executes nothing"
        assert (await h.service.status())["pending_escalations"] == 0

        h.local.decide = lambda task_id, title: "noop"
        await h.clock.advance(300)
        await h.tick()
        assert [r.decision for r in await h.rows(task.id)] == ["dismissed", "noop"], "due again once resolved"


async def test_unknown_escalations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        with pytest.raises(NotFound):
            await h.approvals.escalations_approve("no-such-id")
        with pytest.raises(NotFound):
            await h.approvals.escalations_dismiss("no-such-id")
        assert h.reasoning_bodies() == []


async def test_a_pending_escalation_survives_a_restart_and_can_be_approved_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h)
    async with open_harness(tmp_path, monkeypatch) as h:
        [pending] = await h.escalations("pending")
        assert pending == escalation
        assert (await h.row(task.id)).decision == "escalate", "start-up recovery leaves it alone"
        await h.tick()
        assert h.local_bodies("evaluation") == [], "still not due"
        h.reasoning.execution_replies.extend(wrote("alerts/team.md", "3 emails", "Done after the restart."))
        await h.approvals.escalations_approve(escalation.id)
        await wait_for_final_row(h, escalation.id)
        assert len(h.reasoning_bodies()) == 2
        assert "Done after the restart." in (await h.row(task.id)).result


async def test_an_approved_run_cut_short_by_shutdown_before_any_tool_is_carried_out_after_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 9, item 2: the approval keeps its run marker through the shutdown; since no tool call had started,
    # the next start simply carries it out (the user pressed Go ahead). A run cut short after it began using
    # tools comes back as a card instead (test_approval_durability.py).
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h)
        assert h.openai is not None
        h.reasoning.execution_replies.append(Reply(content="too late", delay=30))
        before = len(h.openai.chat_requests)
        await h.approvals.escalations_approve(escalation.id)
        await h.wait_until(lambda: _arrived(h, before + 1))
    async with open_harness(tmp_path, monkeypatch, start=False) as h:
        h.reasoning.execution_replies.extend(wrote("alerts/team.md", "3 emails", "Done on the second try."))
        await h.start()
        await wait_for_final_row(h, escalation.id)
        row = await h.row(task.id)
        assert row.id != escalation.log_id and row.decision == "act"
        assert "Done on the second try." in row.result
        [done] = await h.escalations()
        assert done.status == "approved"
        assert len(h.reasoning_bodies()) == 2


async def _arrived(h: Harness, count: int) -> bool:
    assert h.openai is not None
    return len(h.openai.chat_requests) >= count
