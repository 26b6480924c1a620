"""Execution: the tool loop, withheld write tools, RECOMMENDED ACTION, and agentic-v1's HTTP 429 back-off."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.errors import LlmUnavailable
from openhuman_desktop.llm import ChatRequest, Message, OllamaClient, OpenAICompatClient, ToolSpec
from openhuman_desktop.orchestration.prompts import FINAL_ANSWER as FINAL_ANSWER_PROMPT
from openhuman_desktop.skills.base import SkillRegistry, Tool, ToolResult
from openhuman_desktop.store import Task
from openhuman_desktop.subconscious.decisions import Decision, Report
from openhuman_desktop.subconscious.executor import TaskExecutor, recommended_action
from tests.fakes.engine_harness import (
    API_KEY,
    REASONING_MODEL,
    RecordingSleep,
    Reply,
    bodies,
    messages_of,
    open_harness,
    tool_names,
    wrote,
)
from tests.fakes.loop import run_loop
from tests.fakes.model_servers import FakeOllama, FakeOpenAI

# --- RECOMMENDED ACTION ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "action"), [
    ("RECOMMENDED ACTION: Forward the mail", "Forward the mail"),
    ("Found 3.\nRECOMMENDED ACTION: Forward the mail\n", "Forward the mail"),
    ("Found 3.\n**RECOMMENDED ACTION:** Forward the mail", "Forward the mail"),
    ("Found 3.\n- RECOMMENDED ACTION: Forward the mail", "Forward the mail"),
    ("Found 3.\n### RECOMMENDED ACTION: Forward the mail", "Forward the mail"),
    ("Found 3.\n  RECOMMENDED ACTION:   Forward the mail  ", "Forward the mail"),
    ("Nothing to do.", None),
    ("I would not use a RECOMMENDED ACTION: here, it is mid-sentence.", None),
    ("RECOMMENDED ACTION:   ", None),
])
def test_recommended_action(text: str, action: str | None) -> None:
    assert recommended_action(text) == action


# --- the tool loop --------------------------------------------------------------------------------------


def spec(name: str) -> ToolSpec:
    return ToolSpec(name, f"The {name} tool.", {"type": "object", "properties": {}, "additionalProperties": True})


async def test_a_withheld_tool_is_refused_and_the_model_is_told(ollama: FakeOllama, local: OllamaClient) -> None:
    ran: list[Mapping[str, Any]] = []

    async def look(arguments: Mapping[str, Any], context: object = None) -> ToolResult:
        ran.append(arguments)
        return ToolResult("3 files")

    ollama.script_chat(
        Reply(tool_calls=[{"name": "files_write", "arguments": {"path": "x", "text": "PWNED"}},
                          {"name": "look", "arguments": {"where": "inbox"}}]),
        Reply(content="Looked; could not write."),
    )

    result = await run_loop(local, "go", [Tool(spec("look"), False, look)])

    assert result.text == "Looked; could not write."
    assert result.tools_called == ("files_write", "look")
    assert (result.steps, result.model_calls) == (2, 2)
    assert ran == [{"where": "inbox"}]
    first, second = bodies(ollama)
    assert tool_names(first) == ["look"] and tool_names(second) == ["look"]
    refusal, answer = messages_of(second)[-2:]
    assert refusal["role"] == "tool" and "not available" in refusal["content"]
    assert answer == {"role": "tool", "content": "3 files", "tool_name": "look"}


@pytest.mark.logs_expected(r"tool broken failed")
async def test_a_failing_tool_becomes_an_error_result(ollama: FakeOllama, local: OllamaClient) -> None:
    async def broken(arguments: Mapping[str, Any], context: object = None) -> ToolResult:
        raise RuntimeError("disk on fire")

    ollama.script_chat(Reply(tool_calls=[{"name": "broken", "arguments": {}}]), Reply(content="The tool failed."))
    result = await run_loop(local, "go", [Tool(spec("broken"), False, broken)])
    assert result.text == "The tool failed."
    tool_message = messages_of(bodies(ollama)[-1])[-1]
    assert json.loads(tool_message["content"]) == {"error": "The tool 'broken' failed: RuntimeError."}


async def test_the_step_limit_ends_with_a_final_answer_without_tools(
    ollama: FakeOllama, local: OllamaClient
) -> None:
    async def look(arguments: Mapping[str, Any], context: object = None) -> ToolResult:
        return ToolResult("more")

    ollama.set_responder(lambda body: Reply(content="Final words.") if not body.get("tools")
                         else Reply(tool_calls=[{"name": "look", "arguments": {}}]))

    result = await run_loop(local, "go", [Tool(spec("look"), False, look)], max_steps=3)

    assert result.text == "Final words."
    assert (result.steps, result.model_calls, result.tools_called) == (3, 4, ("look", "look", "look"))
    sent = bodies(ollama)
    assert [bool(tool_names(b)) for b in sent] == [True, True, True, False]
    assert messages_of(sent[-1])[-1] == {"role": "user", "content": FINAL_ANSWER_PROMPT}


# --- the executor on its own ----------------------------------------------------------------------------


def make_task(intent: str, recurrence: str = "pending") -> Task:
    return Task(id="t1", title="Check urgent emails", source="user", recurrence=recurrence, enabled=True,
                last_run_at=None, next_run_at=None, completed=False, created_at=0.0, intent=intent,
                origin="user", intent_source="user", updated_at=0.0)


REPORT = Report(text="## Environment\nLocal time: now", signature="s", tokens=5)


async def test_a_local_act_with_a_recommended_action_asks_for_approval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:  # act is an agent run of the quick tier (issue 25)
        h.local.execution_replies.append(Reply(content="RECOMMENDED ACTION: archive the 40 newsletters"))
        executor = TaskExecutor(SkillRegistry(), h.services.agent)
        outcome = await executor.execute(make_task("read"), Decision("t1", "act", "why", "important"), REPORT)
    assert outcome.decision == "escalate" and outcome.result == "Waiting for approval"
    assert outcome.escalation is not None
    assert (outcome.escalation.description, outcome.escalation.priority) == ("archive the 40 newsletters",
                                                                             "important")
    assert not outcome.completes_task


async def test_an_empty_answer_still_reads_well(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        h.local.execution_replies.append(Reply(content="   "))
        executor = TaskExecutor(SkillRegistry(), h.services.agent)
        outcome = await executor.execute(make_task("read"), Decision("t1", "act", "why"), REPORT)
    # issue 9 item 11: a row that claims an action also says which tools ran (here: none)
    assert outcome.decision == "act" and outcome.result == "There is nothing to report.\nNo tools were used."


# --- HTTP 429 from agentic-v1 ---------------------------------------------------------------------------


async def test_the_openai_client_backs_off_2_4_8_and_honours_retry_after() -> None:
    sleep = RecordingSleep()
    with FakeOpenAI() as server:
        server.script_chat(Reply(status=429), Reply(status=429, headers={"Retry-After": "3"}), Reply(content="ok"))
        client = OpenAICompatClient(REASONING_MODEL, server.url, api_key_env=None, sleep=sleep)
        try:
            response = await client.chat(ChatRequest([Message("user", "hi")]))
            assert response.content == "ok"
            assert sleep.delays == [2.0, 3.0]
            assert len(server.chat_requests) == 3

            server.script_chat(*[Reply(status=429)] * 4)
            with pytest.raises(LlmUnavailable, match=r"rate limiting requests \(HTTP 429\); tried 4 times"):
                await client.chat(ChatRequest([Message("user", "hi")]))
            assert sleep.delays == [2.0, 3.0, 2.0, 4.0, 8.0]
            assert len(server.chat_requests) == 7
        finally:
            await client.aclose()


async def test_an_escalation_waits_out_a_rate_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sleep = RecordingSleep()
    async with open_harness(tmp_path, monkeypatch, backoff_sleep=sleep) as h:
        task = await h.add_task("Create the weekly report in report.md", intent="write")
        h.local.decide = lambda task_id, title: "escalate"
        h.reasoning.execution_replies.extend([
            Reply(status=429, error="slow down"),
            Reply(status=429, error="slow down", headers={"Retry-After": "1"}),
            Reply(tool_calls=[{"name": "files_write", "arguments": {"path": "report.md", "text": "weekly"}}]),
            Reply(content="Report written."),
        ])

        await h.tick()

        assert sleep.delays == [2.0, 1.0]
        assert len(h.reasoning_bodies()) == 4
        for request in h.openai.chat_requests if h.openai else []:
            assert request.headers["Authorization"] == f"Bearer {API_KEY}"
        row = await h.row(task.id)
        assert row.decision == "act" and "Report written." in row.result


@pytest.mark.logs_expected(r"model reasoning failed a call")
async def test_a_rate_limit_that_does_not_end_fails_only_the_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sleep = RecordingSleep()
    async with open_harness(tmp_path, monkeypatch, backoff_sleep=sleep) as h:
        task = await h.add_task("Create the weekly report in report.md", intent="write")
        h.local.decide = lambda task_id, title: "escalate"
        h.reasoning.execution_replies.extend([Reply(status=429)] * 4)

        await h.tick()

        assert sleep.delays == [2.0, 4.0, 8.0]
        assert len(h.reasoning_bodies()) == 4
        row = await h.row(task.id)
        assert row.decision == "failed" and "HTTP 429" in row.result
        assert (await h.state()).consecutive_failures == 0


async def test_an_approved_run_also_waits_out_a_rate_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sleep = RecordingSleep()
    async with open_harness(tmp_path, monkeypatch, backoff_sleep=sleep) as h:
        task = await h.add_task("Check urgent emails", intent="read")
        h.local.decide = lambda task_id, title: "escalate"
        h.reasoning.execution_replies.append(Reply(content="RECOMMENDED ACTION: forward them to forwarded.md"))
        await h.tick()
        [escalation] = await h.escalations("pending")
        h.reasoning.execution_replies.extend([Reply(status=429), *wrote("forwarded.md", "them", "Forwarded.")])

        await h.approvals.escalations_approve(escalation.id)

        async def finished() -> bool:
            return (await h.row(task.id)).decision == "act"

        await h.wait_until(finished)
        assert sleep.delays == [2.0]
        assert len(h.reasoning_bodies()) == 4
        assert "Forwarded." in (await h.row(task.id)).result
