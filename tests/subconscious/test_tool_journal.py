"""The tool loop's effects journal (issue 9, item 3): write calls journaled, completed ones not run again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openhuman_desktop.llm import Message, OllamaClient, ToolSpec
from openhuman_desktop.orchestration import CallKey, canonical_arguments, run_tool_loop
from openhuman_desktop.orchestration.tool_loop import MAX_CALLS_PER_ANSWER
from openhuman_desktop.skills.base import Tool, ToolResult
from openhuman_desktop.store import ApprovalEffect
from openhuman_desktop.subconscious.approval_journal import describe_call, effects_note, tools_line
from tests.fakes.engine_harness import Reply
from tests.fakes.model_servers import FakeOllama


class MemoryJournal:
    """An in-memory EffectsJournal that records what the loop told it."""

    def __init__(self, done: Mapping[CallKey, str] | None = None) -> None:
        self.done = dict(done or {})
        self.events: list[tuple[str, CallKey]] = []

    async def recorded(self, key: CallKey) -> ToolResult | None:
        return ToolResult(self.done[key]) if key in self.done else None

    async def intent(self, key: CallKey) -> None:
        self.events.append(("intent", key))

    async def result(self, key: CallKey, result: ToolResult) -> None:
        self.events.append(("result", key))
        self.done[key] = result.text


def spec(name: str) -> ToolSpec:
    return ToolSpec(name, f"The {name} tool.", {"type": "object", "properties": {}, "additionalProperties": True})


def tools(ran: list[tuple[str, Mapping[str, Any]]]) -> list[Tool]:
    async def append(arguments: Mapping[str, Any], context: object = None) -> ToolResult:
        ran.append(("append", arguments))
        return ToolResult("appended")

    async def look(arguments: Mapping[str, Any], context: object = None) -> ToolResult:
        ran.append(("look", arguments))
        return ToolResult("3 files")

    return [Tool(spec("append"), True, append), Tool(spec("look"), False, look)]


APPEND = {"name": "append", "arguments": {"text": "x", "path": "a.md"}}


async def test_write_calls_are_journaled_and_a_completed_one_is_not_run_again(
    ollama: FakeOllama, local: OllamaClient
) -> None:
    ran: list[tuple[str, Mapping[str, Any]]] = []
    key = CallKey("append", canonical_arguments({"path": "a.md", "text": "x"}), 1)
    journal = MemoryJournal({key: "appended earlier"})
    ollama.script_chat(
        Reply(tool_calls=[APPEND, APPEND, {"name": "look", "arguments": {}}]),
        Reply(content="Done."),
    )
    result = await run_tool_loop(local, [Message("user", "go")], tools(ran), journal=journal)

    assert ran == [("append", {"text": "x", "path": "a.md"}), ("look", {})], "the first append was already done"
    second = CallKey("append", key.arguments, 2)
    assert journal.events == [("intent", second), ("result", second)], "reads are not journaled"
    assert [(c.name, c.replayed) for c in result.calls] == [("append", True), ("append", False), ("look", False)]
    assert tools_line(result.calls) == ("Tools used: append (a.md, already done before), append (a.md), look")
    [request] = [r.json for r in ollama.chat_requests][1:]
    assert "appended earlier" in str(request["messages"]), "the model gets the recorded result"


async def test_without_a_journal_nothing_changes(ollama: FakeOllama, local: OllamaClient) -> None:
    ran: list[tuple[str, Mapping[str, Any]]] = []
    ollama.script_chat(Reply(tool_calls=[APPEND, APPEND]), Reply(content="Done."))
    result = await run_tool_loop(local, [Message("user", "go")], tools(ran))
    assert len(ran) == 2 and result.tools_called == ("append", "append")


def test_canonical_arguments_ignore_key_order() -> None:
    assert canonical_arguments({"b": 1, "a": "é"}) == canonical_arguments({"a": "é", "b": 1}) == '{"a":"é","b":1}'


def test_what_a_card_says_about_the_journal() -> None:
    effects = [
        ApprovalEffect("files_write", '{"path":"notes/todo.md","text":"x"}', 1, "done", "ok"),
        ApprovalEffect("memory_add", '{"text":"the bank wrote three times about the overdue invoice"}', 1,
                       "started", ""),
        ApprovalEffect("files_append", '{"path":"x.md","text":"y"}', 1, "failed", "no"),
    ]
    note = effects_note(effects)
    assert "✓ files_write (notes/todo.md)" in note
    assert "may or may not have happened: memory_add (the bank wrote three times about the ove…)" in note
    assert "files_append" not in note
    assert effects_note([]) == ""
    assert describe_call("notify_user", {"urgent": True}) == "notify_user"
    assert tools_line([]) == "No tools were used."


async def test_one_answer_runs_at_most_a_few_tool_calls(ollama: FakeOllama, local: OllamaClient) -> None:
    """An approved answer asked for 300 writes at once and all ran (found attacking issue 9)."""
    ran: list[tuple[str, Mapping[str, Any]]] = []
    many = [{"name": "append", "arguments": {"text": f"line {n}", "path": "a.md"}} for n in range(300)]
    ollama.script_chat(Reply(tool_calls=many), Reply(content="Done."))
    result = await run_tool_loop(local, [Message("user", "go")], tools(ran))
    assert len(ran) == MAX_CALLS_PER_ANSWER
    refused = [call for call in result.calls if call.is_error]
    assert len(refused) == 300 - MAX_CALLS_PER_ANSWER
