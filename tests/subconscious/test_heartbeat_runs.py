"""Issue 25: the heartbeat's own ``act`` is a journaled agent run of the quick tier (its writes are in the world
timeline, reflection sees them), an analysis-only act never sees a write tool, and an approval that runs later
adds its row at the top of the log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes.engine_harness import WRITE_TOOLS, Json, Reply, last_is_tool_result, open_harness, tool_names


def appending(text: str) -> object:
    def execute(body: Json) -> Reply:
        if last_is_tool_result(body):
            return Reply(content="Wrote the status.")
        return Reply(tool_calls=[{"name": "files_append", "arguments": {"path": "status.md", "text": text}}])

    return execute


async def test_two_heartbeat_writes_of_status_md_are_two_world_timeline_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Write the time to status.md", intent="write")
        h.local.decide = lambda task_id, title: "act"
        h.local.execute = appending("tick\n")  # type: ignore[assignment]
        await h.tick()
        await h.clock.advance(300)
        await h.tick()

        assert (h.workspace / "status.md").read_text(encoding="utf-8") == "tick\ntick\n"
        assert [row.decision for row in await h.rows(task.id)] == ["act", "act"]
        timeline = await h.services.agent.world_timeline()
        assert [entry["event_signature"] for entry in timeline] == ["File written: status.md"] * 2
        runs = await h.services.agent.runs_list(f"subconscious:{task.id}")
        assert {entry["run_id"] for entry in timeline} == {run.id for run in runs} and len(runs) == 2
        for run in runs:
            assert (run.tier, run.purpose, run.permission, run.status) == ("quick", "escalation", "write",
                                                                           "completed")
            assert run.title == f"Act: {task.title}"
        assert h.reasoning_bodies() == [], "act is the quick tier's"
        # Reflection sees them: the compressed history and the timeline have news.
        _mark, (new_history, new_timeline) = await h.services.ledger.reflection_news()
        assert new_history >= 2 and new_timeline == 2


async def test_an_analysis_only_act_never_sees_a_write_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Look into the state of the backups and tell me", intent="read")
        h.local.decide = lambda task_id, title: "act"
        h.local.execution_replies.extend([
            Reply(tool_calls=[{"name": "files_write", "arguments": {"path": "x.md", "text": "PWNED"}}]),
            Reply(content="The backups are fine.\nRECOMMENDED ACTION: Archive the old backup log backups/old.log"),
        ])
        await h.tick()
        bodies = h.local_bodies("execution")
        assert bodies and all(not set(tool_names(body)) & WRITE_TOOLS for body in bodies)
        assert not (h.workspace / "x.md").exists()
        [card] = await h.escalations("pending")
        assert (card.task_id, card.description) == (task.id, "Archive the old backup log backups/old.log")
        [run] = await h.services.agent.runs_list(f"subconscious:{task.id}")
        assert (run.permission, run.tier) == ("read", "quick") and card.run_id == run.id


async def test_an_approval_carried_out_later_adds_a_row_at_the_top(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check the reports folder", intent="read")
        h.local.decide = lambda task_id, title: "escalate"
        h.reasoning.execution_replies.append(Reply(content="RECOMMENDED ACTION: Append 'seen' to reports/seen.md"))
        await h.tick()
        [card] = await h.escalations("pending")
        other = await h.add_task("Summarise notes.md", intent="read")
        h.local.decide = lambda task_id, title: "noop"
        for _ in range(3):  # later ticks push the card's row down the log
            await h.clock.advance(300)
            h.write_file("notes.md", f"changed {h.clock.now()}")
            await h.tick()
        await h.clock.advance(60)
        h.reasoning.execution_replies.extend([
            Reply(tool_calls=[{"name": "files_append", "arguments": {"path": "reports/seen.md", "text": "seen"}}]),
            Reply(content="Appended."),
        ])
        await h.approvals.escalations_approve(card.id)
        await h.approval_settled(card.id)

        [newest, *_] = await h.services.store.log.page(limit=5)
        assert newest.task_id == task.id and newest.decision == "act" and "Appended." in newest.result
        assert newest.id != card.log_id and newest.created_at == h.clock.now()
        own = await h.services.store.log.get(card.log_id or "")
        assert own is not None and own.decision == "escalate" and own.result.startswith("Approved at ")
        assert [row.task_id for row in await h.services.store.log.page(limit=5)][1] == other.id
