"""A chat sub-agent's tools in words: the list in its first message (:func:`tools_text`), and the tool pick
(:func:`pick_tool`) that turns a first answer in words into the call the sub-task needs."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from openhuman_desktop.llm.base import ChatRequest, Message, ToolCall, ToolSpec
from openhuman_desktop.orchestration import prompts
from openhuman_desktop.orchestration._calls import compact_json
from openhuman_desktop.orchestration.text_calls import text_tool_calls

if TYPE_CHECKING:
    from openhuman_desktop.orchestration.subagent import SubagentRun

log = logging.getLogger(__name__)


def tools_text(specs: Sequence[ToolSpec]) -> str:
    """The tools and how to call one in text, for the sub-agent's first message (see
    :data:`prompts.TEXT_CALL_HOW`)."""
    lines = [prompts.TOOLS_INTRO]
    lines += [f"- {spec.name}: {spec.description} {compact_json(spec.parameters)}" for spec in specs]
    lines.append(prompts.fill(prompts.TEXT_CALL_HOW, example=specs[0].name))
    return "\n".join(lines)


PICK_TOKENS = 200
"""Cap of the tool pick's answer: one call with short arguments."""


def pick_schema(specs: Sequence[ToolSpec]) -> dict[str, Any]:
    """The JSON schema of the pick's answer: an offered tool's name and its arguments."""
    return {"type": "object", "properties": {"name": {"type": "string", "enum": [spec.name for spec in specs]},
                                             "arguments": {"type": "object"}, "answer": {"type": "string"}}}


def pick_example(specs: Sequence[ToolSpec]) -> str:
    """A call of the first tool that needs no argument (a small model copies the example: let the copy be
    harmless and useful), else of the first tool with its required arguments as placeholders."""
    for spec in specs:
        if not spec.parameters.get("required"):
            return compact_json({"name": spec.name, "arguments": {}})
    spec = specs[0]
    return compact_json({"name": spec.name, "arguments": {name: "..." for name in spec.parameters["required"]}})


def picked_call(content: str) -> tuple[ToolCall, ...]:
    """The pick's ``{"name", "arguments"}`` (other keys, such as an ``answer`` beside them, ignored)."""
    try:
        data = json.loads(content.strip())
    except ValueError:
        return ()
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        return ()
    arguments = data.get("arguments")
    return (ToolCall(data["name"], arguments),) if isinstance(arguments, dict) else ()


async def pick_tool(run: SubagentRun, task: str, specs: Sequence[ToolSpec], said: str) -> ToolCall | None:
    """Once, for a first answer in words: the tool call the sub-task needs, asked in JSON mode; None when the
    model names no offered tool (its words then stand)."""
    listed = "\n".join(f"- {spec.name}: {spec.description} {compact_json(spec.parameters)}" for spec in specs)
    request = ChatRequest([Message("system", prompts.PICK),
                           Message("user", f"{task}\n\nThe sub-agent said: {said.strip()[:1000]}\n\nTools:\n"
                                           f"{listed}\nFor example: {pick_example(specs)}")],
                          json_schema=pick_schema(specs), schema_name="tool_call")
    assert run.caller is not None
    content = (await run.caller.chat(request, max_tokens=PICK_TOKENS)).content
    names = {spec.name for spec in specs}
    picked = next((call for call in (*picked_call(content), *text_tool_calls(content)) if call.name in names), None)
    log.info("sub-agent %d answered in words; the tool pick %s", run.index,
             f"chose {picked.name}" if picked else "chose no tool")
    return picked
