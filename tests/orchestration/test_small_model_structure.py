"""What a tiny real model (SmolLM2-135M on llama.cpp, bench/agent_real_model.py) showed the agent must do.

A llama.cpp server drops a request's ``tools`` before the model sees them, and a small model answers a tool
call as text: a sub-agent can only call a tool it was told about in its messages. And such a model writes
plans with blank items (``{"title": "", "instructions": ""}``) next to real ones.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.orchestration import prompts
from openhuman_desktop.orchestration.nodes import parse_plan
from openhuman_desktop.orchestration.subagent import Subtask
from openhuman_desktop.subconscious.intent import ChatIntentJudge
from tests.fakes import agent_model as kinds
from tests.fakes.agent_harness import QUICK_MODEL, REASONING_MODEL, AgentHarness
from tests.fakes.agent_model import AgentScript, kind_of
from tests.fakes.model_servers import FakeOpenAI, Reply

TEXT_CALL = {"name": "files_read", "arguments": {"path": "notes.md"}}


class ToollessServerModel:
    """A model behind a server that ignores ``tools``: it calls ``files_read`` (as text, the way SmolLM2 does)
    only when its messages name the tool and say how a call is written; otherwise it answers in words."""

    def __init__(self, script: AgentScript) -> None:
        self.agent = kinds.AgentModel(script)

    def __call__(self, body: Any) -> Reply:
        body = body if isinstance(body, dict) else {}
        messages = [m for m in body.get("messages") or () if isinstance(m, Mapping)]
        if kind_of(messages) != kinds.SUBAGENT:
            return self.agent(body)
        self.agent.seen.append(kinds.Seen(kinds.SUBAGENT, (), tuple(messages), body))
        text = "\n".join(str(m.get("content") or "") for m in messages)
        told = "files_read" in text and '"arguments"' in text
        if told and not any(m.get("role") == "tool" for m in messages):
            return Reply(content=json.dumps(TEXT_CALL))
        return Reply(content="I looked at the notes." if told else "I cannot look at files.")


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[AgentHarness]:
    with FakeOpenAI() as server:
        server.add_model(QUICK_MODEL)
        server.add_model(REASONING_MODEL)
        made = AgentHarness(server, tmp_path)
        yield made
        await made.aclose()


async def test_a_sub_agent_on_a_server_without_native_tools_is_told_its_tools_and_its_text_call_runs(
    harness: AgentHarness,
) -> None:
    (harness.workspace / "notes.md").write_text("Call the plumber on Tuesday.\n", encoding="utf-8")
    model = ToollessServerModel(AgentScript(subtasks=[("Read the notes", "Read notes.md")], reply="Read it."))
    harness.server.set_responder(model)
    outcome = await harness.run("What is in notes.md and in todo.md?")  # the planner's: two files
    entry = await harness.journal.get(outcome.run.id, 3, "sub:0:call:1:0")
    assert entry is not None and entry.result is not None and not entry.result["is_error"]
    assert "plumber" in entry.result["text"]
    [first, *_] = [seen for seen in model.agent.seen if seen.kind == kinds.SUBAGENT]
    user = "\n".join(str(m.get("content")) for m in first.messages if m.get("role") == "user")
    assert "files_read" in user and "files_write" not in user  # a read run is told only its read tools


def test_blank_items_of_a_plan_are_dropped_not_the_whole_plan() -> None:
    content = json.dumps({"subtasks": [{"title": "", "instructions": ""},
                                       {"title": "List the files", "instructions": "files_list"},
                                       {"title": "Read the notes", "instructions": " "}]})
    assert parse_plan(content, 4) == [Subtask("List the files", "files_list"),
                                      Subtask("Read the notes", "Read the notes")]


def test_a_plan_of_only_blank_items_is_still_refused_for_the_repair() -> None:
    with pytest.raises(ValueError, match="empty"):
        parse_plan(json.dumps({"subtasks": [{"title": "", "instructions": ""}]}), 4)


def test_an_empty_plan_is_nothing_to_do() -> None:
    assert parse_plan('{"subtasks": []}', 4) == []


class WordsFirstModel:
    """A tiny model's habit: a sub-agent's first answer is words; asked for JSON only (the tool pick), it
    writes the call."""

    def __init__(self, script: AgentScript) -> None:
        self.agent = kinds.AgentModel(script)
        self.picks: list[Any] = []

    def __call__(self, body: Any) -> Reply:
        body = body if isinstance(body, dict) else {}
        messages = [m for m in body.get("messages") or () if isinstance(m, Mapping)]
        system = next((str(m.get("content")) for m in messages if m.get("role") == "system"), "")
        if prompts.PICK_ROLE in system:
            self.picks.append(body)
            return Reply(content=json.dumps(TEXT_CALL))
        if kind_of(messages) == kinds.SUBAGENT:
            answered = any(m.get("role") == "tool" for m in messages)
            self.agent.seen.append(kinds.Seen(kinds.SUBAGENT, (), tuple(messages), body))
            return Reply(content="The notes say to call the plumber." if answered else "I will read the notes.")
        return self.agent(body)


async def test_a_sub_agent_that_answers_in_words_without_looking_is_asked_once_for_a_tool_call_in_json(
    harness: AgentHarness,
) -> None:
    (harness.workspace / "notes.md").write_text("Call the plumber on Tuesday.\n", encoding="utf-8")
    model = WordsFirstModel(AgentScript(subtasks=[("Read the notes", "Read notes.md")], reply="Read it."))
    harness.server.set_responder(model)
    outcome = await harness.run("What is in notes.md and in todo.md?")  # the planner's: two files
    entry = await harness.journal.get(outcome.run.id, 3, "sub:0:call:1:0")
    assert entry is not None and entry.result is not None and "plumber" in entry.result["text"]
    [pick] = model.picks
    assert pick["response_format"]["type"].startswith("json") and pick["max_tokens"] > 0
    # Replayed after a restart from the journal: the pick is not asked again.
    again = await harness.execute(outcome.run, "agent_execution", 3)
    assert len(model.picks) == 1 and again.values["agent_reply"] == outcome.values["agent_reply"]


async def test_a_sub_agent_whose_pick_says_no_tool_keeps_its_answer(harness: AgentHarness) -> None:
    harness.model.script = AgentScript(subtasks=[("Greet", "Say hello")], steps={"Greet": [kinds.say("Hello!")]},
                                       reply="Hello!")
    outcome = await harness.run("Say hello")
    assert await harness.journal.get(outcome.run.id, 3, "sub:0:call:1:0") is None
    assert outcome.values["agent_reply"] == "Hello!"


class BlankPlanModel:
    """Plans with only blank items, every time (SmolLM2-135M's answer to "Hello!" and to a write request)."""

    def __init__(self, script: AgentScript) -> None:
        self.agent = kinds.AgentModel(script)

    def __call__(self, body: Any) -> Reply:
        messages = [m for m in (body or {}).get("messages") or () if isinstance(m, Mapping)]
        if kind_of(messages) == kinds.PLAN:
            self.agent.seen.append(kinds.Seen(kinds.PLAN, (), tuple(messages), body))
            return Reply(content='{ "subtasks": [{"title": "", "instructions": "" }]}')
        return self.agent(body)


async def test_a_plan_blank_twice_becomes_one_sub_task_of_the_instructions(harness: AgentHarness) -> None:
    model = BlankPlanModel(AgentScript(
        instructions="Write hello into notes.md.",
        steps={"The request": [kinds.call("files_write", path="notes.md", text="hello"), kinds.say("Wrote it.")]},
        reply="notes.md says hello."))
    harness.server.set_responder(model)
    outcome = await harness.run("Please write hello into notes.md")
    assert model.agent.kinds().count(kinds.PLAN) == 2  # asked, repaired once, then the fallback
    assert (harness.workspace / "notes.md").read_text() == "hello"
    plan = await harness.journal.get(outcome.run.id, 3, "plan")
    assert plan is not None and plan.result == {
        "subtasks": [{"title": "The request", "instructions": "Write hello into notes.md."}], "fallback": True}


@pytest.mark.parametrize("question", ["What files are in my workspace?", "Does my garden plan mention beans?",
                                      "which notes did I file last week?"])
async def test_a_plain_question_is_a_read_run(harness: AgentHarness, question: str) -> None:
    # The app's judge (the words: "files" and "file" are no instruction here) is the one place that decides.
    harness.intent = ChatIntentJudge()  # type: ignore[assignment]
    harness.model.script = AgentScript(subtasks=[("Look", "List the files")],
                                       steps={"Look": [kinds.call("files_list", path="")]})
    outcome = await harness.run(question)
    assert outcome.run.permission == "read"
    offered = harness.model.every_offered_tool()
    assert "files_list" in offered and "files_write" not in offered


@pytest.mark.parametrize("request_", ["Can you append 'buy milk' to todo.md?", "What is in notes.md? Add a line.",
                                      "Append the line 'buy milk' to todo.md"])
async def test_a_request_asks_for_a_write(harness: AgentHarness, request_: str) -> None:
    harness.intent = ChatIntentJudge()  # type: ignore[assignment]
    outcome = await harness.run(request_)
    assert outcome.run.permission == "write"
