"""Failures, supersede and crash recovery of the tick, against real HTTP to fake model servers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openhuman_desktop.store import open_subconscious_store
from openhuman_desktop.subconscious import report
from openhuman_desktop.subconscious.engine import (
    CANCELLED_CRASH,
    CANCELLED_SHUTDOWN,
    CANCELLED_SUPERSEDED,
    TICK_FAILED,
)
from openhuman_desktop.subconscious.workspace_index import WorkspaceIndex
from tests.fakes.engine_harness import (
    LOCAL_MODEL,
    Brain,
    FakeOllama,
    Harness,
    Reply,
    closed_port_url,
    config_text,
    decisions_of,
    evaluation,
    first_user_text,
    messages_of,
    open_harness,
    schema_of,
)


def local_config(h: Harness, local_url: str) -> str:
    assert h.openai is not None
    return config_text(local_url=local_url, reasoning_url=h.openai.url)


# --- the model is down ----------------------------------------------------------------------------------


@pytest.mark.logs_expected(r"model local failed a call: Ollama is not running at", r"start it with `ollama serve`")
async def test_a_model_that_is_down_fails_every_due_row_and_counts_until_it_is_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        tasks = [await h.add_task("Check my inbox"), await h.add_task("Review notes.md")]
        await h.tick()
        first_tick = h.clock.now()
        assert (await h.state()).last_tick_at == first_tick
        assert h.ollama is not None
        live_url = h.ollama.url

        down = closed_port_url()
        await h.reconfigure(local_config(h, down))
        await h.clock.advance(300)
        h.write_file("notes.md", "The landlord wants an answer by Monday.")
        for expected in (1, 2):
            await h.clock.advance(300)
            await h.tick()
            state = await h.state()
            assert state.consecutive_failures == expected
            assert state.last_tick_at == first_tick, "a failed evaluation leaves last_tick_at alone"
            rows = [r for r in await h.rows() if r.tick_at == h.clock.now()]
            assert decisions_of(rows) == ["failed", "failed"]
            for row in rows:
                assert row.result == f"Ollama is not running at {down} — start it with `ollama serve`."
            status = await h.service.status()
            assert status["consecutive_failures"] == expected
            assert status["state"] == "degraded" and "Ollama is not running" in status["state_reason"]
        for task in tasks:
            assert (await h.task(task.id)).last_run_at == first_tick, "failed rows do not advance the schedule"

        await h.reconfigure(local_config(h, live_url))
        await h.clock.advance(300)
        await h.tick()

        state = await h.state()
        assert state.consecutive_failures == 0
        assert state.last_tick_at == h.clock.now()
        assert (await h.service.status())["state"] == "idle"
        recovery = h.local_bodies("evaluation")[-1]
        assert "The landlord wants an answer by Monday." in first_user_text(recovery), (
            "the report after the outage covers the whole span since the last good tick"
        )
        rows = [r for r in await h.rows() if r.tick_at == h.clock.now()]
        assert decisions_of(rows) == ["noop", "noop"]


@pytest.mark.logs_expected(r"model local failed a call: Ollama at", r"evaluation failed")
async def test_a_server_error_is_an_evaluation_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check my inbox")
        h.local.evaluation_replies.append(Reply(status=500, error="out of memory"))
        await h.tick()
        row = await h.row(task.id)
        assert row.decision == "failed"
        assert "HTTP 500" in row.result and "out of memory" in row.result
        assert (await h.state()).consecutive_failures == 1
        assert len(h.local_bodies("evaluation")) == 1


# --- unusable answers -----------------------------------------------------------------------------------


async def test_an_unparseable_answer_gets_one_repair_request(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check my inbox")
        h.local.evaluation_replies.append(Reply(content="Sure! {evaluations: [task is fine"))

        await h.tick()

        first, repair = h.local_bodies("evaluation") + h.local_bodies("repair")
        assert h.local.kinds().count("evaluation") + h.local.kinds().count("repair") == 2
        assert schema_of(repair) == schema_of(first), "the repair asks for the same JSON schema"
        repair_messages = messages_of(repair)
        assert repair_messages[:2] == messages_of(first)[:2]
        assert repair_messages[-2] == {"role": "assistant", "content": "Sure! {evaluations: [task is fine"}
        assert repair_messages[-1]["role"] == "user" and "JSON" in repair_messages[-1]["content"]
        row = await h.row(task.id)
        assert row.decision == "noop"
        state = await h.state()
        assert (state.consecutive_failures, state.last_tick_at) == (0, h.clock.now())


@pytest.mark.logs_expected(r"sent a reply that is not valid Ollama JSON")
async def test_a_broken_http_body_also_gets_one_repair_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check my inbox")
        h.local.evaluation_replies.append(Reply(content="{}", malformed=True))
        await h.tick()
        assert h.local.kinds().count("evaluation") + h.local.kinds().count("repair") == 2
        assert (await h.row(task.id)).decision == "noop"
        assert (await h.state()).consecutive_failures == 0


@pytest.mark.logs_expected(r"The local model's answer was unusable: the JSON has no")
async def test_an_answer_unusable_after_the_repair_fails_the_evaluation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        tasks = [await h.add_task("Check my inbox"), await h.add_task("Review notes.md")]
        h.local.evaluation_replies.extend([Reply(content="no idea"), Reply(content='{"answers": []}')])

        await h.tick()

        kinds = h.local.kinds()
        assert kinds.count("evaluation") + kinds.count("repair") == 2, "exactly one repair, then give up"
        for task in tasks:
            row = await h.row(task.id)
            assert row.decision == "failed"
            assert row.result.startswith("The local model's answer was unusable")
        state = await h.state()
        assert (state.consecutive_failures, state.last_tick_at) == (1, None)
        assert h.local_bodies("execution") == [] and h.reasoning_bodies() == []


async def test_a_partly_valid_answer_fails_only_the_bad_items(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        good = await h.add_task("Check my inbox")
        bad = await h.add_task("Review notes.md")
        missing = await h.add_task("Monitor the build")
        other = await h.add_task("Summarize the news", intent="read")
        h.local.evaluation_replies.extend([evaluation(
            {"task_id": good.id, "decision": "noop", "reason": "Nothing new.", "priority": "normal"},
            {"task_id": bad.id, "decision": "explode", "reason": "?", "priority": "normal"},
            {"task_id": "not-a-task", "decision": "act", "reason": "invented", "priority": "critical"},
            {"task_id": f"[{other.id}]", "decision": "ACT", "reason": "News arrived.", "priority": "urgent"},
        ), evaluation()])  # the follow-up for the two left without a decision gives nothing either
        h.local.execution_replies.append(Reply(content="Summary: nothing big."))

        await h.tick()

        assert (await h.row(good.id)).decision == "noop"
        bad_row = await h.row(bad.id)
        assert bad_row.decision == "failed" and "explode" in bad_row.result
        missing_row = await h.row(missing.id)
        assert missing_row.decision == "failed" and "did not mention" in missing_row.result
        assert (await h.row(other.id)).decision == "act", "tolerant: brackets and case are accepted"
        assert len(h.local_bodies("execution")) == 1
        assert h.local.kinds().count("repair") == 0
        assert h.local.kinds().count("evaluation") == 2, "one follow-up for the bad and the missing task"
        state = await h.state()
        assert (state.consecutive_failures, state.last_tick_at) == (0, h.clock.now()), "2 of 4 decided: no failure"
        assert (await h.task(good.id)).last_run_at == h.clock.now()
        assert (await h.task(bad.id)).last_run_at is None


async def test_an_answer_cut_short_keeps_its_whole_items_and_asks_only_for_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        first = await h.add_task("Check my inbox")
        second = await h.add_task("Review notes.md")
        whole = json.dumps({"evaluations": [{"task_id": first.id, "reason": "Nothing new.", "decision": "noop"}]})
        cut = whole[:-2] + f', {{"task_id": "{second.id}", "reason": "The notes say noth'  # the output cap hit
        h.local.evaluation_replies.extend([Reply(content=cut), evaluation(
            {"task_id": second.id, "reason": "Nothing new in the notes.", "decision": "noop"})])

        await h.tick()

        assert h.local.kinds().count("repair") == 0, "the whole item is kept: no repair of the whole answer"
        follow_up = h.local_bodies("evaluation")[1]
        assert second.title in json.dumps(follow_up) and first.title not in json.dumps(follow_up)
        assert [(await h.row(task.id)).decision for task in (first, second)] == ["noop", "noop"]
        assert (await h.state()).consecutive_failures == 0


async def test_an_execution_failure_fails_only_its_row(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        acting = await h.add_task("Summarize notes.md", intent="read")
        quiet = await h.add_task("Check my inbox")
        h.local.decide_by_title({"Summarize": "act"})
        h.local.execution_replies.append(Reply(status=500, error="model crashed"))

        await h.tick()

        row = await h.row(acting.id)
        assert row.decision == "failed" and "model crashed" in row.result
        assert (await h.row(quiet.id)).decision == "noop"
        state = await h.state()
        assert (state.consecutive_failures, state.last_tick_at) == (0, h.clock.now())
        assert (await h.service.status())["state"] == "idle"


@pytest.mark.logs_expected(r"model reasoning failed a call: Cannot reach")
async def test_an_unreachable_reasoning_model_fails_only_the_escalated_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch, reasoning="down") as h:
        escalated = await h.add_task("Draft a reply to the landlord", intent="write")
        quiet = await h.add_task("Check my inbox")
        h.local.decide_by_title({"Draft": "escalate"})
        await h.tick()
        row = await h.row(escalated.id)
        assert row.decision == "failed" and "Cannot reach" in row.result
        assert (await h.row(quiet.id)).decision == "noop"
        assert (await h.state()).consecutive_failures == 0


# --- supersede ------------------------------------------------------------------------------------------


async def test_run_now_supersedes_a_slow_tick(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        tasks = [await h.add_task("Write the plan to plan.md", intent="write"), await h.add_task("Check my inbox")]
        await h.tick()  # an earlier, finished tick: its rows must stay as they are
        earlier = await h.rows()
        assert h.ollama is not None
        assert h.ollama.chat_requests
        # Another generation's running row (an approved escalation being carried out, say).
        foreign = await h.services.store.log.start(tasks[1].id, "foreign", h.clock.now(), 10_000, h.clock.now())
        await h.clock.advance(300)
        h.write_file("plan.md", "draft")
        h.write_file("inbox/mail.txt", "a new mail")  # a change the inbox task watches: the model is asked
        everything_acts = json.dumps({"evaluations": [
            {"task_id": t.id, "decision": "act", "reason": "slow", "priority": "critical"} for t in tasks
        ]})
        h.local.evaluation_replies.append(Reply(content=everything_acts, delay=30))
        state_before = await h.state()

        slow = h.engine.request_tick("scheduled")
        await h.wait_for_requests(2, h.ollama, "evaluation")
        first_tick = h.clock.now()
        await h.clock.advance(1)
        await h.engine.run_tick("run now")

        assert slow.done()
        rows = await h.rows()
        first = [r for r in rows if r.tick_at == first_tick and r.id != foreign.id]
        second = [r for r in rows if r.tick_at == h.clock.now()]
        assert len(first) == 2 and len(second) == 2
        assert {r.decision for r in first} == {"cancelled"}
        assert {r.result for r in first} == {CANCELLED_SUPERSEDED}
        assert {r.decision for r in second} == {"noop"}, "the newer tick's results stand"
        assert [r for r in rows if r.id in {e.id for e in earlier}] == earlier
        assert (await h.services.store.log.get(foreign.id)).decision == "in_progress"  # type: ignore[union-attr]
        assert len(h.local_bodies("evaluation")) == 3
        assert h.local_bodies("execution") == [] and h.reasoning_bodies() == [], "nothing of the slow tick ran"
        assert (h.workspace / "plan.md").read_text(encoding="utf-8") == "draft"
        state = await h.state()
        assert state.total_ticks == state_before.total_ticks + 1
        assert state.last_tick_at == h.clock.now()
        for task in tasks:
            assert (await h.task(task.id)).last_run_at == h.clock.now()


async def test_shutdown_during_a_slow_tick_records_it_as_cancelled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check my inbox")
        h.local.evaluation_replies.append(Reply(content="{}", delay=30))
        h.engine.request_tick("scheduled")
        assert h.ollama is not None
        await h.wait_for_requests(1, h.ollama, "evaluation")
        await h.services.aclose()
        store_path = h.paths.subconscious_db
    store = await open_subconscious_store(store_path)
    try:
        [row] = await store.log.page(task_id=task.id)
        assert (row.decision, row.result) == ("cancelled", CANCELLED_SHUTDOWN)
        assert (await store.state.load()).last_tick_at is None
    finally:
        await store.aclose()


# --- crash recovery -------------------------------------------------------------------------------------


async def test_rows_left_in_progress_by_a_crash_are_cancelled_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch, start=False) as h:
        store = h.services.store
        task = await store.tasks.add(
            title="Check my inbox", source="user", recurrence="pending", next_run_at=None, intent="read",
            intent_source="user", origin="user", now=h.clock.now(),
        )
        stale = [await store.log.start(task.id, task.title, h.clock.now() - 600, g, h.clock.now() - 600)
                 for g in (1, 2)]
        done = await store.log.start(task.id, task.title, h.clock.now() - 900, 0, h.clock.now() - 900)
        await store.log.finish(done.id, "noop", "Nothing new", 5, h.clock.now() - 899)

        await h.start()

        for entry in stale:
            row = await store.log.get(entry.id)
            assert row is not None
            assert (row.decision, row.result) == ("cancelled", CANCELLED_CRASH)
        assert (await store.log.get(done.id)).decision == "noop"  # type: ignore[union-attr]
        assert await store.db.integrity_check() == "ok"

        await h.tick()
        assert (await h.row(task.id)).decision == "noop"
        assert await store.log.in_progress() == []


async def test_the_tick_counter_does_not_repeat_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await h.add_task("Check my inbox")
        await h.tick()
        await h.tick()
        generations = {r.generation for r in await h.rows()}
    async with open_harness(tmp_path, monkeypatch) as h:
        await h.tick()
        newest = (await h.rows())[-1]
        assert newest.generation not in generations
        assert newest.generation is not None and newest.generation > max(g or 0 for g in generations)


@pytest.mark.logs_expected(r"model local failed a call: The model", r"is not installed in Ollama at")
async def test_a_tick_with_a_missing_local_model_says_how_to_fix_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        server = FakeOllama()  # reachable, but without the configured model
        server.set_responder(Brain())
        server.start()
        try:
            await h.reconfigure(local_config(h, server.url))
            task = await h.add_task("Check my inbox")
            await h.tick()
            row = await h.row(task.id)
            assert row.decision == "failed"
            assert f"ollama pull {LOCAL_MODEL}" in row.result
        finally:
            server.stop()


@pytest.mark.logs_expected(r"failed unexpectedly", r"Something went wrong in this tick")
async def test_a_bug_in_a_tick_fails_its_rows_instead_of_leaving_them_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check my inbox")
        real_scan = WorkspaceIndex.scan

        def broken(*args: object) -> report.WorkspaceScan:
            raise RuntimeError("a bug in the file scan")

        monkeypatch.setattr(WorkspaceIndex, "scan", broken)
        await h.tick()
        row = await h.row(task.id)
        assert (row.decision, row.result) == ("failed", TICK_FAILED)
        assert await h.services.store.log.in_progress() == []
        status = await h.service.status()
        assert (status["state"], status["consecutive_failures"]) == ("degraded", 1)
        assert h.local_bodies("evaluation") == []

        monkeypatch.setattr(WorkspaceIndex, "scan", real_scan)
        await h.tick()
        assert (await h.row(task.id)).decision == "noop"
        assert (await h.service.status())["consecutive_failures"] == 0
