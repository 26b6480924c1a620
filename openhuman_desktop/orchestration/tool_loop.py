"""The tool-using loop: the model calls tools until it answers in words or reaches its step limit."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openhuman_desktop.llm.base import ChatRequest, LlmClient, Message, ToolCall, ToolSpec
from openhuman_desktop.orchestration.text_calls import text_tool_calls
from openhuman_desktop.skills.base import Tool, ToolContext, ToolResult

log = logging.getLogger(__name__)

MAX_TOOL_OUTPUT = 12_000
# The output cap of each model call (issue 10, item 2): a few tool calls or a few sentences, and room for a
# file's text. A small model that rambles stops here instead of filling the server's context.
MAX_ANSWER_TOKENS = 1_024
SHORT_ARGUMENT = 40
MAX_CALLS_PER_ANSWER = 16
"""Tool calls of one model answer that run; the rest are refused (one answer asked for 300 writes)."""
FINAL_ANSWER_PROMPT = "You have used all your steps. Give your final answer now, in words, without calling tools."


@dataclass(frozen=True)
class ToolCallRecord:
    """One tool call of a run, for its trace: ``writes`` when the tool called is one that changes something (a
    refused call never writes)."""

    name: str
    arguments: Any
    is_error: bool
    writes: bool = False


def describe_call(name: str, arguments: object) -> str:
    """A tool call in a few words: its name and its path (or first short text argument), e.g.
    ``files_write (notes/todo.md)``."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return name
    if not isinstance(arguments, dict):
        return name
    value = arguments.get("path")
    if not isinstance(value, str) or not value:
        value = next((v for v in arguments.values() if isinstance(v, str) and v.strip()), None)
    if not isinstance(value, str):
        return name
    value = " ".join(value.split())
    return f"{name} ({value if len(value) <= SHORT_ARGUMENT else value[:SHORT_ARGUMENT] + '…'})"


def tools_line(calls: Sequence[ToolCallRecord]) -> str:
    """What a result row says about the tools a run used: "Tools used: …" or "No tools were used."."""
    if not calls:
        return "No tools were used."
    parts = []
    for call in calls:
        text = describe_call(call.name, call.arguments)
        if call.is_error:
            text = f"{text[:-1]}, failed)" if text.endswith(")") else f"{text} (failed)"
        parts.append(text)
    return "Tools used: " + ", ".join(parts)


@dataclass(frozen=True)
class ToolLoopResult:
    """The final answer and what it took (``calls``: every tool call in order, with how it went).

    ``unexecuted`` holds the calls the final answer still asked for (written as text after the steps ran
    out): such a "final answer" is no answer, and nothing it asks for has happened.
    """

    text: str
    steps: int
    tools_called: tuple[str, ...]
    model_calls: int
    calls: tuple[ToolCallRecord, ...] = ()
    unexecuted: tuple[ToolCall, ...] = ()

    @property
    def changed_something(self) -> bool:
        """A tool that writes ran without error."""
        return any(call.writes and not call.is_error for call in self.calls)


# What the argument checks enforce or fill in anyway (bounds, defaults): a small model gains nothing from
# reading it, and it costs tokens in every request that offers the tool (issue 10, item 7).
_CHECKED_ONLY = frozenset({"maxLength", "minLength", "minimum", "maximum", "default"})


def compact_spec(spec: ToolSpec) -> ToolSpec:
    """``spec`` as the model is offered it: without what the argument checks enforce or fill in."""
    return ToolSpec(spec.name, spec.description, _compact(spec.parameters))


def _compact(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    compact: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _CHECKED_ONLY or (key == "additionalProperties" and value is False) or (key == "required"
                                                                                          and value == []):
            continue
        if key == "properties" and isinstance(value, dict):  # argument names, not schema keywords
            compact[key] = {name: _compact(prop) for name, prop in value.items()}
        else:
            compact[key] = _compact(value)
    return compact


async def _call(tool: Tool | None, name: str, arguments: object, offered: Sequence[str]) -> ToolResult:
    if tool is None:
        return ToolResult(
            f"The tool {name!r} is not available in this run (available: {', '.join(offered) or 'none'}).",
            is_error=True,
        )
    if not isinstance(arguments, dict):
        return ToolResult("The tool arguments must be a JSON object.", is_error=True)
    try:
        return await tool.run(arguments, ToolContext(writes_allowed=tool.writes))
    except Exception as exc:  # a tool bug must not end the run; the model is told, the log keeps the trace
        log.exception("tool %s failed", name)
        return ToolResult(f"The tool {name!r} failed: {type(exc).__name__}.", is_error=True)


async def run_tool_loop(
    client: LlmClient,
    messages: Sequence[Message],
    tools: Sequence[Tool],
    *,
    max_steps: int = 8,
    timeout: float = 300.0,
    max_tokens: int = MAX_ANSWER_TOKENS,
) -> ToolLoopResult:
    """Let the model use ``tools`` for at most ``max_steps`` rounds.

    Only the tools passed in are offered *and* executable: a call to any other tool (a withheld
    write tool, say) is refused and the model is told so. Every model call is capped at ``max_tokens``.
    (The heartbeat's local ``act``; the agent's sub-agents use ``orchestration.subagent``, which journals
    every call.)

    Raises:
        LlmUnavailable / LlmReplyError: from the client.
    """
    by_name = {tool.name: tool for tool in tools}
    specs = [compact_spec(tool.spec) for tool in tools]
    history = list(messages)
    # What the model may be quoting (the prompt, tool results): a tool call in there is data, never a call.
    quoted = [message.content for message in messages if message.role != "assistant"]
    called: list[str] = []
    records: list[ToolCallRecord] = []
    calls = 0
    for step in range(1, max_steps + 1):
        response = await client.chat(ChatRequest(history, tools=specs, timeout=timeout, max_tokens=max_tokens))
        calls += 1
        tool_calls = response.tool_calls or text_tool_calls(response.content, quoted)
        if not tool_calls:
            return ToolLoopResult(response.content.strip(), step, tuple(called), calls, tuple(records))
        if not response.tool_calls:
            log.info("step %d: %d tool call(s) written as text", step, len(tool_calls))
        # Text calls get the same checks as native ones below: only offered tools run, writes are journaled.
        history.append(Message("assistant", response.content, tool_calls=tool_calls))
        for number, call in enumerate(tool_calls):
            called.append(call.name)
            tool = by_name.get(call.name)
            if number >= MAX_CALLS_PER_ANSWER:
                result = ToolResult(f"Not run: at most {MAX_CALLS_PER_ANSWER} tool calls of one answer run; ask "
                                    "for the rest in your next answer if they are still needed.", is_error=True)
            else:
                result = await _call(tool, call.name, call.arguments, list(by_name))
            writes = tool is not None and tool.writes
            records.append(ToolCallRecord(call.name, call.arguments, result.is_error, writes))
            log.info("step %d: tool %s → %s", step, call.name, "error" if result.is_error else "ok")
            text = result.text if len(result.text) <= MAX_TOOL_OUTPUT else result.text[:MAX_TOOL_OUTPUT] + "\n[cut]"
            payload = json.dumps({"error": text}) if result.is_error else text
            history.append(Message("tool", payload, tool_name=call.name, tool_call_id=call.id))
            quoted.append(result.text)
    history.append(Message("user", FINAL_ANSWER_PROMPT))
    response = await client.chat(ChatRequest(history, timeout=timeout, max_tokens=max_tokens))
    calls += 1
    pending = response.tool_calls or text_tool_calls(response.content, quoted)
    if pending:
        log.info("the final answer still asks for %d tool call(s); none of them ran", len(pending))
    return ToolLoopResult(response.content.strip(), max_steps, tuple(called), calls, tuple(records), pending)
