"""The tool loop's effects journal (issue 9, item 3): write calls journaled, completed ones not run again."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from openhuman_desktop.llm import OllamaClient, ToolSpec
from openhuman_desktop.orchestration import describe_call, tools_line
from openhuman_desktop.orchestration.tool_calls import MAX_CALLS_PER_ANSWER
from openhuman_desktop.skills.base import Tool, ToolResult
from tests.fakes.engine_harness import Reply
from tests.fakes.loop import run_loop
from tests.fakes.model_servers import FakeOllama


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


async def test_two_identical_calls_both_run_and_the_row_names_them(ollama: FakeOllama, local: OllamaClient) -> None:
    ran: list[tuple[str, Mapping[str, Any]]] = []
    ollama.script_chat(Reply(tool_calls=[APPEND, APPEND]), Reply(content="Done."))
    result = await run_loop(local, "go", tools(ran))
    assert len(ran) == 2 and result.tools_called == ("append", "append")
    assert tools_line(result.calls) == "Tools used: append (a.md), append (a.md)"


def test_what_a_row_says_about_the_tools() -> None:
    assert describe_call("notify_user", {"urgent": True}) == "notify_user"
    assert describe_call("files_write", {"path": "notes/todo.md", "text": "x"}) == "files_write (notes/todo.md)"
    assert tools_line([]) == "No tools were used."


async def test_one_answer_runs_at_most_a_few_tool_calls(ollama: FakeOllama, local: OllamaClient) -> None:
    """An approved answer asked for 300 writes at once and all ran (found attacking issue 9)."""
    ran: list[tuple[str, Mapping[str, Any]]] = []
    many = [{"name": "append", "arguments": {"text": f"line {n}", "path": "a.md"}} for n in range(300)]
    ollama.script_chat(Reply(tool_calls=many), Reply(content="Done."))
    result = await run_loop(local, "go", tools(ran))
    assert len(ran) == MAX_CALLS_PER_ANSWER
    refused = [call for call in result.calls if call.is_error]
    assert len(refused) == 300 - MAX_CALLS_PER_ANSWER
