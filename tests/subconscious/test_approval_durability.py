"""The approval gate keeps its promise across crashes and outages: an approval is never lost (item 2), Go
ahead while the reasoning model is down brings the card back and retries once the model answers, and an
approved run cut short resumes from its last checkpoint at the next start and never repeats a completed tool
call (item 3: the agent's run ledger)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from openhuman_desktop.errors import Conflict
from openhuman_desktop.store import Escalation, Task
from tests.fakes.engine_harness import Harness, Json, Reply, all_text, last_is_tool_result, open_harness

ANSWER = "The bank wrote.\nRECOMMENDED ACTION: append the bank's name to alerts.md"
APPEND = {"name": "files_append", "arguments": {"path": "alerts.md", "text": "bank\n"}}


async def escalate_once(h: Harness, recurrence: str = "pending") -> tuple[Task, Escalation]:
    task = await h.add_task("Check urgent emails", recurrence, intent="read")
    h.local.decide = lambda task_id, title: {"decision": "escalate", "priority": "critical", "reason": "mail"}
    h.reasoning.execution_replies.append(Reply(content=ANSWER))
    await h.tick()
    [escalation] = await h.escalations()
    return task, escalation


def approved_runs(h: Harness) -> list[Json]:
    """The reasoning requests of approved runs (their system prompt says the user approved)."""
    return [b for b in h.reasoning_bodies() if "approved the recommended action" in all_text(b)]


async def settled(h: Harness, escalation_id: str) -> None:
    """Wait until the card's Go ahead is over (the row it added has its outcome, or the card is back)."""
    await h.approval_settled(escalation_id)


def append_then_answer(body: Json) -> Reply:
    """An approved run's model: append to alerts.md, then say so."""
    if last_is_tool_result(body):
        return Reply(content="Appended the bank to alerts.md.")
    return Reply(tool_calls=[APPEND])


async def go_ahead_during_an_outage(h: Harness) -> tuple[Task, Escalation]:
    """A ``once`` task's card, Go ahead while the reasoning model answers 503, and the card back."""
    task, escalation = await escalate_once(h, recurrence="once")
    h.reasoning.execution_replies.append(Reply(status=503, error="overloaded"))
    await h.approvals.escalations_approve(escalation.id)

    async def back() -> bool:
        card = await h.services.store.escalations.get(escalation.id)
        return card is not None and card.status == "pending"

    await h.wait_until(back)
    return task, escalation


# --- item 2: the approval is committed with its run marker ------------------------------------------------


async def test_an_approval_killed_before_its_run_started_runs_after_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h)
        # The process dies right after Approve was committed, before the engine started the run.
        monkeypatch.setattr(h.approvals, "_start", lambda escalation: None)
        await h.approvals.escalations_approve(escalation.id)
        row = await h.row(task.id)
        assert row.decision == "in_progress", "the row says the approval is being carried out, in the same commit"
    monkeypatch.undo()
    async with open_harness(tmp_path, monkeypatch, start=False) as h:
        h.reasoning.execute = append_then_answer
        await h.start()
        await settled(h, escalation.id)
        row = await h.row(task.id)
        assert row.decision == "act", row.result
        assert "Appended the bank" in row.result
        assert "Tools used: files_append (alerts.md)" in row.result
        assert (h.workspace / "alerts.md").read_text(encoding="utf-8") == "bank\n"
        assert len(approved_runs(h)) == 2
        [done] = await h.escalations()
        assert done.status == "approved"


async def test_an_approval_whose_task_was_disabled_is_not_run_at_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h)
        monkeypatch.setattr(h.approvals, "_start", lambda escalation: None)
        await h.approvals.escalations_approve(escalation.id)
        await h.service.tasks_update(task.id, enabled=False)
    monkeypatch.undo()
    async with open_harness(tmp_path, monkeypatch) as h:
        [card] = await h.escalations()
        assert card.status == "pending"
        assert "disabled" in card.note
        assert approved_runs(h) == []
        assert (await h.row(task.id)).decision == "escalate"


# --- item 3: an interrupted run resumes; a completed call is not repeated ------------------------------------


async def test_a_run_cut_short_after_a_tool_call_resumes_at_start_up_and_does_not_repeat_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h)
        assert escalation.thread_id == f"subconscious:{task.id}", "the card knows the agent run that raised it"
        [analysis] = await h.services.agent.runs_list(escalation.thread_id)
        assert (escalation.run_id, analysis.purpose, analysis.permission) == (analysis.id, "escalation", "read")
        h.reasoning.execution_replies.extend([Reply(tool_calls=[APPEND]), Reply(content="too late", delay=30)])
        await h.approvals.escalations_approve(escalation.id)
        assert h.openai is not None
        await h.wait_for_requests(3, h.openai, "execution")  # the analysis, the tool call, the slow answer
        assert (h.workspace / "alerts.md").read_text(encoding="utf-8") == "bank\n"
    async with open_harness(tmp_path, monkeypatch, start=False) as h:
        # The model would ask for the same call again: the resumed run answers it from its journal instead.
        h.reasoning.execute = append_then_answer
        await h.start()
        await settled(h, escalation.id)
        assert (h.workspace / "alerts.md").read_text(encoding="utf-8") == "bank\n", "not appended twice"
        [resumed] = approved_runs(h)
        assert last_is_tool_result(resumed), "the resumed run asked only for what came after the recorded call"
        row = await h.row(task.id)
        assert row.decision == "act", row.result
        assert "Tools used: files_append (alerts.md)" in row.result
        [done] = await h.escalations()
        assert done.status == "approved" and done.note == ""
        [entry] = await h.services.agent.world_timeline()
        assert entry["event_signature"] == "File written: alerts.md"


# --- item 2: Go ahead while the reasoning model is down ----------------------------------------------------


@pytest.mark.logs_expected(r"model reasoning failed a call")
async def test_go_ahead_while_the_reasoning_model_fails_brings_the_card_back_and_retries_later(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await go_ahead_during_an_outage(h)
        [card] = await h.escalations()
        assert card.note.startswith("Go ahead could not run: ")
        assert "HTTP 503" in card.note and "once the reasoning model answers again" in card.note
        row = await h.row(task.id)
        assert row.decision == "escalate" and "could not run" in row.result
        assert not (await h.task(task.id)).completed
        assert (await h.service.status())["pending_escalations"] == 1

        h.reasoning.execute = append_then_answer
        assert await h.approvals.retry_waiting() == 1
        await settled(h, escalation.id)
        assert (await h.row(task.id)).decision == "act"
        assert (h.workspace / "alerts.md").read_text(encoding="utf-8") == "bank\n"
        assert (await h.task(task.id)).completed
        assert await h.approvals.retry_waiting() == 0, "retried once, not again"


@pytest.mark.logs_expected(r"model reasoning failed a call: Cannot reach")
async def test_go_ahead_with_no_reasoning_model_keeps_the_card_and_press_again_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch, reasoning="down") as h:
        task = await h.add_task("Check urgent emails", intent="read")
        escalation = await h.services.store.escalations.create(
            task_id=task.id, log_id=None, title=task.title, description="append to alerts.md", priority="normal",
            now=h.clock.now(),
        )
        assert escalation is not None
        await h.approvals.escalations_approve(escalation.id)

        async def back() -> bool:
            card = await h.services.store.escalations.get(escalation.id)
            return card is not None and card.status == "pending" and card.note != ""

        await h.wait_until(back)
        [card] = await h.escalations()
        assert "Go ahead could not run" in card.note and "Cannot reach" in card.note
        # Press Go ahead again: it is accepted (the card was pending) and comes back again.
        await h.approvals.escalations_approve(escalation.id)
        await h.wait_until(back)


@pytest.mark.logs_expected(r"model reasoning failed a call")
async def test_skip_between_the_outage_and_the_retry_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h)
        h.reasoning.execution_replies.append(Reply(status=502, error="bad gateway"))
        await h.approvals.escalations_approve(escalation.id)

        async def back() -> bool:
            card = await h.services.store.escalations.get(escalation.id)
            return card is not None and card.status == "pending"

        await h.wait_until(back)
        await h.approvals.escalations_dismiss(escalation.id)
        before = len(h.reasoning_bodies())
        assert await h.approvals.retry_waiting() == 0
        for _ in range(10):
            await asyncio.sleep(0.01)
        assert len(h.reasoning_bodies()) == before
        card_row = await h.services.store.log.get(escalation.log_id or "")
        assert card_row is not None and card_row.decision == "dismissed"
        with pytest.raises(Conflict):
            await h.approvals.escalations_approve(escalation.id)


async def test_an_approval_that_stops_the_app_each_time_is_not_retried_forever(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        _, escalation = await escalate_once(h)
        monkeypatch.setattr(h.approvals, "_start", lambda escalation: None)
        await h.approvals.escalations_approve(escalation.id)
    monkeypatch.undo()
    for _ in range(2):  # each start carries it out again, and the app stops in the middle of it again
        async with open_harness(tmp_path, monkeypatch, start=False) as h:
            h.reasoning.execute = lambda body: Reply(content="too late", delay=30)
            await h.start()
            assert h.openai is not None
            await h.wait_for_requests(1, h.openai, "execution")
    async with open_harness(tmp_path, monkeypatch) as h:
        [card] = await h.escalations()
        assert card.status == "pending" and "stopped each time" in card.note
        assert approved_runs(h) == []


@pytest.mark.logs_expected(r"model reasoning failed a call")
async def test_an_approved_run_that_reaches_the_model_starts_the_approvals_waiting_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        first = await h.add_task("Check urgent emails", intent="read")
        second = await h.add_task("Check the bank's emails", intent="read")
        h.local.decide = lambda task_id, title: {"decision": "escalate", "reason": "mail"}
        h.reasoning.execute = lambda body: Reply(content=ANSWER)
        await h.tick()
        cards = {card.task_id: card for card in await h.escalations()}
        h.reasoning.execution_replies.append(Reply(status=503, error="overloaded"))
        await h.approvals.escalations_approve(cards[first.id].id)

        async def waiting() -> bool:
            return bool(await h.services.store.escalations.waiting_for_model())

        await h.wait_until(waiting)
        h.reasoning.execute = append_then_answer
        await h.approvals.escalations_approve(cards[second.id].id)
        for card in cards.values():
            await settled(h, card.id)

        async def both_done() -> bool:
            statuses = [c.status for c in await h.escalations()]
            decisions = [(await h.row(task.id)).decision for task in (first, second)]
            return statuses == ["approved", "approved"] and decisions == ["act", "act"]

        await h.wait_until(both_done)


@pytest.mark.logs_expected(r"model reasoning failed a call")
async def test_an_approval_waiting_for_the_model_runs_once_the_models_check_passes_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await go_ahead_during_an_outage(h)
        h.reasoning.execute = append_then_answer
        await h.clock.advance(601)  # the periodic model check (every minute while a tier fails, else 10 minutes)

        async def acted() -> bool:  # the row says "escalate" (waiting) until the check has answered
            row = await h.approval_row(escalation.id)
            return row is not None and row.decision == "act"

        await h.wait_until(acted)  # no click: the check that found the model back ran it
        assert (h.workspace / "alerts.md").read_text(encoding="utf-8") == "bank\n"
        assert (await h.services.store.escalations.get(escalation.id)).status == "approved"  # type: ignore[union-attr]
