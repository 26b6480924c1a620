"""Issue 25, items 4 and 5: an approved run may write only what its card licensed (any other write becomes an
exact-call card, whose Go ahead carries out exactly that call, once, with no model), and an approval whose run
changed nothing says so and comes back offering Retry / Skip, never shown as done."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openhuman_desktop.orchestration.events import RunFinished
from openhuman_desktop.orchestration.steering import DirectiveDraft
from openhuman_desktop.store import Escalation, Task
from tests.fakes.engine_harness import Harness, Json, Reply, all_text, last_is_tool_result, open_harness

ACTION = "Forward the fake report to the team in team/inbox.md"
ANSWER = f"The report arrived.\nRECOMMENDED ACTION: {ACTION}"


async def escalate_once(h: Harness, answer: str = ANSWER) -> tuple[Task, Escalation]:
    task = await h.add_task("Check the reports folder", intent="read")
    h.local.decide = lambda task_id, title: {"decision": "escalate", "priority": "normal", "reason": "new report"}
    h.reasoning.execution_replies.append(Reply(content=answer))
    await h.tick()
    [escalation] = await h.escalations("pending")
    return task, escalation


def steered_model(calls: list[Json]) -> object:
    """An approved run's model that does the approved write, then (told to by what it read) two more."""
    queue = list(calls)

    def execute(body: Json) -> Reply:
        if queue:
            return Reply(tool_calls=[queue.pop(0)])
        return Reply(content="Forwarded the report, and tidied up as the guidance said.")

    return execute


APPROVED = {"name": "files_append", "arguments": {"path": "team/inbox.md", "text": "fake report\n"}}
UNRELATED = [{"name": "files_write", "arguments": {"path": "audit.md", "text": "everything is fine"}},
             {"name": "files_append", "arguments": {"path": "notes/other.md", "text": "steered\n"}}]


async def test_an_approved_run_writes_only_what_the_card_named_and_the_rest_become_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h)
        # A reflection directive that tells runs to write more: it never widens what an approval licenses.
        await h.services.steering.write(DirectiveDraft(
            "After every task also write audit.md and append to notes/other.md.", "user"))
        h.reasoning.execute = steered_model([APPROVED, *UNRELATED])  # type: ignore[assignment]
        await h.approvals.escalations_approve(escalation.id)
        done = await h.approval_settled(escalation.id)

        assert (h.workspace / "team/inbox.md").read_text(encoding="utf-8") == "fake report\n"
        assert not (h.workspace / "audit.md").exists() and not (h.workspace / "notes/other.md").exists()
        assert done.status == "approved"
        row = await h.row(task.id)
        assert row.decision == "act" and "Tools used: files_append (team/inbox.md)" in row.result
        calls = [card for card in await h.escalations("pending") if card.is_call]
        assert sorted(str((card.call or {}).get("tool")) for card in calls) == ["files_append", "files_write"]
        for card in calls:
            assert card.call is not None and card.skill == "files" and card.task_id == task.id
            assert card.call["tool"] in card.description and "skill: files" in card.description
            assert json.dumps(card.call["arguments"]["path"]) in card.description
            assert card.to_json()["kind"] == "call" and card.to_json()["choices"] == ["go_ahead", "skip"]
        # The model was told each was not run and waits on a card of its own.
        told = [b for b in h.reasoning_bodies() if last_is_tool_result(b)]
        assert any("outside what the user approved" in all_text(b) for b in told)
        assert "audit.md" in all_text(told[-1])


async def test_an_exact_call_card_runs_exactly_that_call_once_without_a_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h)
        h.reasoning.execute = steered_model([APPROVED, UNRELATED[0]])  # type: ignore[assignment]
        await h.approvals.escalations_approve(escalation.id)
        await h.approval_settled(escalation.id)
        [call_card] = [card for card in await h.escalations("pending") if card.is_call]
        asked = (len(h.reasoning_bodies()), len(h.local_bodies()))
        seen: list[RunFinished] = []
        h.services.bus.subscribe(RunFinished, seen.append)

        await h.approvals.escalations_approve(call_card.id)
        done = await h.approval_settled(call_card.id)

        assert (h.workspace / "audit.md").read_text(encoding="utf-8") == "everything is fine"
        assert (len(h.reasoning_bodies()), len(h.local_bodies())) == asked, "no model was asked"
        assert done.status == "approved"
        [run] = [event.run for event in seen if event.run.escalation_id == call_card.id]
        assert (run.purpose, run.status, run.changed_something) == ("call", "completed", True)
        assert run.title == "Approved: files_write (audit.md)"
        row = await h.approval_row(call_card.id)
        assert row is not None and row.decision == "act" and "files_write (audit.md)" in row.result
        timeline = await h.services.agent.world_timeline()
        assert [entry["event_signature"] for entry in timeline] == ["File written: team/inbox.md",
                                                                    "File written: audit.md"]
        # Exactly once: the same card cannot be approved again, and a restart does not run it again.
        with pytest.raises(Exception, match="already approved"):
            await h.approvals.escalations_approve(call_card.id)
    async with open_harness(tmp_path, monkeypatch) as h:
        assert (h.workspace / "audit.md").read_text(encoding="utf-8") == "everything is fine"
        assert len(await h.services.agent.world_timeline()) == 2


async def test_a_kill_between_the_approval_and_the_exact_call_runs_it_once_after_the_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        _, escalation = await escalate_once(h)
        h.reasoning.execute = steered_model([APPROVED, UNRELATED[1]])  # type: ignore[assignment]
        await h.approvals.escalations_approve(escalation.id)
        await h.approval_settled(escalation.id)
        [call_card] = [card for card in await h.escalations("pending") if card.is_call]
        # The process dies right after Go ahead was committed, before the call's run was started.
        monkeypatch.setattr(h.approvals, "_start", lambda escalation: None)
        await h.approvals.escalations_approve(call_card.id)
    monkeypatch.undo()
    async with open_harness(tmp_path, monkeypatch) as h:
        await h.approval_settled(call_card.id)
        assert (h.workspace / "notes/other.md").read_text(encoding="utf-8") == "steered\n"
    async with open_harness(tmp_path, monkeypatch) as h:  # and once more: nothing runs again
        assert (h.workspace / "notes/other.md").read_text(encoding="utf-8") == "steered\n"
        [run] = await h.services.agent.runs_list(status="completed", limit=1)
        assert run.purpose == "call"


async def test_an_approval_that_changed_nothing_is_not_done_and_offers_retry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task, escalation = await escalate_once(h, "Found it.\nRECOMMENDED ACTION: Archive the advised report")
        h.reasoning.execution_replies.append(Reply(content="Everything looks fine."))
        await h.approvals.escalations_approve(escalation.id)
        back = await h.approval_settled(escalation.id)

        assert back.status == "pending"
        assert back.note.startswith("Go ahead did not change anything: Everything looks fine.")
        assert back.choices == ("retry", "skip") and back.to_json()["choices"] == ["retry", "skip"]
        row = await h.approval_row(escalation.id)
        assert row is not None and row.decision != "act" and "did not change anything" in row.result
        assert not (await h.task(task.id)).completed
        [run] = await h.services.agent.runs_list(f"subconscious:{task.id}", status="completed", limit=1)
        assert run.title == "Approved: Archive the advised report"
        assert run.to_json()["title"] == "Approved: Archive the advised report"
        assert not run.input.startswith("Approved:"), "the model's instruction stays the run's input"

        # Retry: a new run (the earlier one is not taken for this one), which now does it.
        h.reasoning.execution_replies.extend([
            Reply(tool_calls=[{"name": "files_append", "arguments": {"path": "archive.md", "text": "report\n"}}]),
            Reply(content="Archived."),
        ])
        await h.approvals.escalations_approve(escalation.id)
        await h.approval_settled(escalation.id)
        # archive.md is not named on the card: that write is a card of its own. The approval is used (a second
        # Retry would only ask for the same write again); its row says where the change waits.
        again = await h.services.store.escalations.get(escalation.id)
        assert again is not None and again.status == "approved"
        [asked] = [card for card in await h.escalations("pending") if card.is_call]
        assert asked.call is not None and asked.call["arguments"]["path"] == "archive.md"
        row = await h.approval_row(escalation.id)
        assert row is not None and row.decision == "escalate"
        assert row.result.startswith("Go ahead asked first: the run wanted 1 change(s) the card did not name")
        assert asked.title in row.result
        assert not (h.workspace / "archive.md").exists()
        assert not (await h.task(task.id)).completed
