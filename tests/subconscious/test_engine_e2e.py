"""The subconscious loop end to end: real services, real HTTP to fake model servers, real files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.engine_harness import (
    API_KEY,
    WRITE_TOOLS,
    Harness,
    Reply,
    decisions_of,
    first_user_text,
    open_harness,
    schema_of,
    task_lines,
    tool_names,
)

CONTRACT_SCHEMA_ENUMS = {"decision": ["noop", "act", "escalate"], "priority": ["critical", "important", "normal"]}


def assert_contract_schema(schema: Any) -> None:
    """The JSON schema of CONTRACT §7: {"evaluations": [{task_id, decision, reason, priority}]}."""
    assert isinstance(schema, dict)
    assert schema["type"] == "object"
    assert "evaluations" in schema["required"]
    evaluations = schema["properties"]["evaluations"]
    assert evaluations["type"] == "array"
    item = evaluations["items"]
    assert set(item["properties"]) == {"task_id", "decision", "reason", "priority"}
    for key, values in CONTRACT_SCHEMA_ENUMS.items():
        assert sorted(item["properties"][key]["enum"]) == sorted(values)
    assert item["properties"]["task_id"]["type"] == "string"
    assert item["properties"]["reason"]["type"] == "string"


# --- the evaluation request ---------------------------------------------------------------------------


async def test_one_request_evaluates_every_due_task_on_its_own_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch, keep_system_tasks=True) as h:
        mine = [await h.add_task("Check my inbox for invoices"), await h.add_task("Summarize notes.md", "once")]
        due = await h.services.store.tasks.due(h.clock.now())
        assert len(due) == 5  # the three built-in system tasks and mine

        await h.tick()

        evaluations = h.local_bodies("evaluation")
        assert len(evaluations) == 1, "all due tasks go into one call"
        body = evaluations[0]
        assert body["model"] == "llama3.2:3b"
        assert_contract_schema(schema_of(body))
        assert body["format"] == schema_of(body)
        assert not tool_names(body), "the evaluation offers no tools"
        lines = task_lines(body)
        assert sorted(title for _, title in lines) == sorted(task.title for task in due)
        assert [alias for alias, _ in lines] == [str(n) for n in range(1, len(due) + 1)], "short per-request ids"
        for alias, title in lines:
            assert f"\n- [{alias}] {title}\n" in f"\n{first_user_text(body)}\n"
        assert h.reasoning_bodies() == []
        rows = await h.rows()
        assert sorted(row.task_id for row in rows) == sorted(task.id for task in due)
        assert set(decisions_of(rows)) == {"noop"}
        assert {task.id for task in mine} <= {row.task_id for row in rows}


async def test_the_evaluation_carries_the_situation_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await h.add_task("Check my inbox")
        h.write_file("inbox/today.txt", "Invoice 42 from ACME is due on Friday.")
        await h.tick()
        [body] = h.local_bodies("evaluation")
        text = first_user_text(body)
        for heading in ("## Environment", "## New memories", "## Changed workspace files",
                        "## Skill health", "## Model health"):
            assert heading in text
        assert text.count("Check my inbox") == 1, "the due list names the task; no Tasks section repeats it"
        assert "inbox/today.txt" in text and "Invoice 42 from ACME" in text


# --- routing --------------------------------------------------------------------------------------------


async def test_noop_logs_noop_and_advances_the_schedule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check the backups", "cron:*/30 * * * *")
        assert task.next_run_at is not None
        await h.clock.advance(task.next_run_at - h.clock.now() + 1)
        tick_at = h.clock.now()

        await h.tick()

        row = await h.row(task.id)
        assert (row.decision, row.tick_at) == ("noop", tick_at)
        assert row.result
        after = await h.task(task.id)
        assert after.last_run_at == tick_at
        assert after.next_run_at is not None and after.next_run_at > tick_at
        assert after.next_run_at - task.next_run_at == pytest.approx(1800)
        assert h.local_bodies("execution") == [] and h.reasoning_bodies() == []


async def test_act_on_a_read_only_task_runs_the_local_model_without_write_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check notes.md for deadlines", intent="read")
        h.local.decide = lambda task_id, title: "act"
        h.local.execution_replies.append(Reply(content="Two deadlines: Friday and Monday."))

        await h.tick()

        [execution] = h.local_bodies("execution")
        offered = set(tool_names(execution))
        assert {"files_read", "files_list", "memory_search"} <= offered
        assert not offered & WRITE_TOOLS
        assert "Check notes.md for deadlines" in first_user_text(execution)
        assert h.reasoning_bodies() == []
        row = await h.row(task.id)
        assert row.decision == "act"
        assert "Two deadlines" in row.result
        assert await h.escalations() == []


async def test_act_on_a_write_task_offers_write_tools_and_the_tool_call_writes_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Write today's plan to plans/today.md", intent="write")
        h.local.decide = lambda task_id, title: "act"
        h.local.execution_replies.extend([
            Reply(tool_calls=[{"name": "files_write", "arguments": {"path": "plans/today.md", "text": "1. Ship"}}]),
            Reply(content="I wrote plans/today.md."),
        ])

        await h.tick()

        first, second = h.local_bodies("execution")
        assert {"files_write", "files_append"} <= set(tool_names(first))
        assert second["messages"][-1]["role"] == "tool"
        assert (h.workspace / "plans" / "today.md").read_text(encoding="utf-8") == "1. Ship"
        row = await h.row(task.id)
        assert row.decision == "act" and "plans/today.md" in row.result
        assert h.reasoning_bodies() == []


async def test_escalate_on_a_write_task_runs_agentic_v1_with_write_tools_and_no_approval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Create a weekly report in reports/week.md", intent="write")
        h.local.decide = lambda task_id, title: {"decision": "escalate", "priority": "important"}
        h.reasoning.execution_replies.extend([
            Reply(tool_calls=[{"name": "files_write", "arguments": {"path": "reports/week.md", "text": "Report"}}]),
            Reply(content="The report is in reports/week.md."),
        ])

        await h.tick()

        assert h.local_bodies("execution") == [], "the local model only evaluated"
        first, second = h.reasoning_bodies()
        assert first["model"] == "agentic-v1"
        assert {"files_write", "files_append", "memory_add"} <= set(tool_names(first))
        assert h.openai is not None
        assert h.openai.chat_requests[0].headers["Authorization"] == f"Bearer {API_KEY}"
        assert second["messages"][-1]["role"] == "tool"
        assert (h.workspace / "reports" / "week.md").read_text(encoding="utf-8") == "Report"
        assert await h.escalations() == []
        row = await h.row(task.id)
        assert row.decision == "act" and "reports/week.md" in row.result


async def test_escalate_on_a_read_only_task_runs_agentic_v1_without_write_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Review my calendar notes for conflicts", intent="read")
        h.local.decide = lambda task_id, title: "escalate"
        h.reasoning.execution_replies.append(Reply(content="No conflicts this week."))

        await h.tick()

        [analysis] = h.reasoning_bodies()
        offered = set(tool_names(analysis))
        assert "files_read" in offered
        assert not offered & WRITE_TOOLS
        row = await h.row(task.id)
        assert row.decision == "act" and "No conflicts this week." in row.result
        assert await h.escalations() == []


# --- the idle gate --------------------------------------------------------------------------------------


async def _all_noop_then_quiet(h: Harness) -> None:
    await h.add_task("Check my inbox")
    await h.add_task("Review notes.md")
    h.write_file("notes.md", "Nothing urgent.")
    await h.tick()
    assert len(h.local_bodies("evaluation")) == 1
    await h.clock.advance(300)


async def test_an_unchanged_world_after_an_all_noop_evaluation_costs_no_model_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await _all_noop_then_quiet(h)
        assert h.ollama is not None and h.openai is not None
        local_before, reasoning_before = len(h.ollama.chat_requests), len(h.openai.chat_requests)
        second_tick = h.clock.now()

        await h.tick()

        assert len(h.ollama.chat_requests) == local_before, "the idle gate must skip the model"
        assert len(h.openai.chat_requests) == reasoning_before
        rows = [row for row in await h.rows() if row.tick_at == second_tick]
        assert len(rows) == 2 and decisions_of(rows) == ["noop", "noop"]
        assert h.engine.last_tick_stats["model_calls"] == 0
        assert (await h.state()).last_tick_at == second_tick

        await h.clock.advance(300)
        await h.tick()
        assert len(h.ollama.chat_requests) == local_before, "and stays idle"


async def test_a_changed_workspace_file_breaks_the_idle_gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await _all_noop_then_quiet(h)
        await h.tick()
        assert len(h.local_bodies("evaluation")) == 1
        await h.clock.advance(60)
        h.write_file("notes.md", "URGENT: the server certificate expires tomorrow.")

        await h.tick()

        evaluations = h.local_bodies("evaluation")
        assert len(evaluations) == 2
        assert "the server certificate expires tomorrow" in first_user_text(evaluations[-1])


async def test_a_new_memory_breaks_the_idle_gate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await _all_noop_then_quiet(h)
        await h.tick()
        assert len(h.local_bodies("evaluation")) == 1
        await h.services.memory.add("The dentist appointment moved to Friday 9:00.")

        await h.tick()

        assert len(h.local_bodies("evaluation")) == 2


async def test_no_idle_gate_after_an_evaluation_that_acted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await h.add_task("Check my inbox", intent="read")
        h.local.decide = lambda task_id, title: "act"
        await h.tick()
        h.local.decide = lambda task_id, title: "noop"
        await h.clock.advance(300)
        await h.tick()
        assert len(h.local_bodies("evaluation")) == 2


# --- schedules ------------------------------------------------------------------------------------------


async def test_a_cron_task_is_due_only_from_its_time_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check the backups", "cron:0 */2 * * *")
        assert task.next_run_at is not None and task.next_run_at > h.clock.now()

        await h.tick()
        assert await h.rows(task.id) == []
        assert h.local_bodies("evaluation") == []

        await h.clock.advance(task.next_run_at - h.clock.now() - 1)
        await h.tick()
        assert await h.rows(task.id) == []

        await h.clock.advance(2)
        await h.tick()
        [row] = await h.rows(task.id)
        assert row.decision == "noop"
        [body] = h.local_bodies("evaluation")
        assert [title for _, title in task_lines(body)] == [task.title]
        assert (await h.task(task.id)).next_run_at == pytest.approx(task.next_run_at + 7200)


async def test_a_once_task_completes_after_a_successful_act(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        once = await h.add_task("Summarize notes.md", "once", intent="read")
        other = await h.add_task("Check my inbox")
        h.local.decide_by_title({"Summarize": "act"})

        await h.tick()
        assert (await h.task(once.id)).completed
        assert not (await h.task(other.id)).completed

        await h.clock.advance(300)
        h.write_file("inbox/new.txt", "something changed")  # a change the inbox task watches
        await h.tick()
        assert len(await h.rows(once.id)) == 1
        assert [title for _, title in task_lines(h.local_bodies("evaluation")[-1])] == [other.title]


async def test_a_once_task_that_was_noop_stays_due(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        once = await h.add_task("Summarize notes.md", "once")
        await h.tick()
        await h.clock.advance(300)
        await h.tick()
        assert decisions_of(await h.rows(once.id)) == ["noop", "noop"]
        assert not (await h.task(once.id)).completed


async def test_a_pending_task_is_due_on_every_tick(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check my inbox")
        h.local.decide = lambda task_id, title: "act"
        for _ in range(3):
            await h.tick()
            await h.clock.advance(300)
        rows = await h.rows(task.id)
        assert decisions_of(rows) == ["act", "act", "act"]
        assert len({row.tick_at for row in rows}) == 3
        assert len(h.local_bodies("evaluation")) == 3
        assert not (await h.task(task.id)).completed



async def test_the_upkeep_files_the_recent_rows_hourly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def waiting() -> int:
        row = await h.services.store.db.fetchone("SELECT count(*) FROM subconscious_log WHERE filed = 0")
        assert row is not None
        return int(row[0])

    async with open_harness(tmp_path, monkeypatch) as h:
        task = await h.add_task("Check my inbox")
        await h.tick()
        assert await waiting() == 0, "the first upkeep files everything"
        for _ in range(2):
            await h.clock.advance(300)
            await h.tick()
        assert await waiting() == 2, "the rows of the next two ticks wait: filed within the hour"
        assert len(await h.rows(task.id)) == 3, "a task's page reads filed and recent rows"
        await h.clock.advance(3600)
        await h.tick()
        assert await waiting() == 0
        assert len(await h.rows(task.id)) == 4

# --- intent ---------------------------------------------------------------------------------------------


async def test_the_models_intent_classification_is_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from openhuman_desktop.subconscious.intent import PROBES

    async with open_harness(tmp_path, monkeypatch) as h:
        # a model that passes the probes (issue 10, item 8) and hears a change the words do not
        h.local.intent_for = lambda title: PROBES.get(title, "write")
        task = await h.service.tasks_add("Check the weather")
        assert (task.intent, task.intent_source) == ("read", "keyword")  # at once, without the model
        await h.service.intents_refined()
        stored = await h.task(task.id)
        # never widened on the model's word: read-only, and "May write?" for the user
        assert (stored.intent, stored.intent_source, stored.intent_suggestion) == ("read", "keyword", "write")
        assert stored.to_json()["intent"] == "read" and stored.to_json()["intent_suggestion"] == "write"
        [request] = [b for b in h.local_bodies("intent") if "Check the weather" in first_user_text(b)]
        assert schema_of(request) == {
            "type": "object",
            "properties": {"intent": {"type": "string", "enum": ["read", "write"]}, "confident": {"type": "boolean"}},
            "required": ["intent", "confident"],
        }


@pytest.mark.parametrize("answer", ['```json\n{"intent": "WRITE"}\n```', 'Sure: {"intent": " write "}'])
async def test_the_intent_answer_is_read_tolerantly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str
) -> None:
    from openhuman_desktop.subconscious.intent import PROBES

    async with open_harness(tmp_path, monkeypatch) as h:
        def respond(body: dict[str, object]) -> Reply:
            title = first_user_text(body).removeprefix("Task:").strip()
            return Reply(content=answer if title not in PROBES else json.dumps({"intent": PROBES[title]}))

        assert h.ollama is not None
        h.ollama.set_responder(respond)
        task = await h.service.tasks_add("Check the weather")
        await h.service.intents_refined()
        stored = await h.task(task.id)
        assert (stored.intent, stored.intent_suggestion) == ("read", "write")


async def test_an_unusable_model_answer_falls_back_to_keywords(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        h.local.intent_for = lambda title: "maybe"
        task = await h.service.tasks_add("Send the weekly summary to Anna")
        await h.service.intents_refined()
        stored = await h.task(task.id)
        assert (stored.intent, stored.intent_source, stored.intent_suggestion) == ("write", "keyword", None)


async def test_intent_falls_back_to_keywords_when_the_model_is_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch, local="down") as h:
        send = await h.service.tasks_add("Send the weekly summary to Anna")
        check = await h.service.tasks_add("Check my inbox for anything urgent")
        assert (send.intent, send.intent_source) == ("write", "keyword")
        assert (check.intent, check.intent_source) == ("read", "keyword")
        await h.service.intents_refined()
        assert ((await h.task(send.id)).intent, (await h.task(send.id)).intent_source) == ("write", "keyword")


async def test_with_inference_off_a_tick_calls_no_model_and_logs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch, inference=False) as h:
        task = await h.add_task("Check the backups")
        requests_before = len(h.local_bodies())

        await h.tick()

        assert await h.rows(task.id) == []
        assert len(h.local_bodies()) == requests_before
        status = await h.service.status()
        assert status["state"] == "idle" and "inference_enabled = false" in status["state_reason"]


async def test_status_read_when_a_tick_finishes_no_longer_says_ticking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from openhuman_desktop import events

    async with open_harness(tmp_path, monkeypatch) as h:
        await h.add_task("Check the backups")
        states: list[str] = []
        h.services.bus.subscribe(events.TickFinished, lambda e: states.append(h.engine.runtime_status().state))
        await h.tick()
        assert states and "ticking" not in states
