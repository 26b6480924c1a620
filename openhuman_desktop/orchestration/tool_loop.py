"""The tool-using loop: the model calls tools until it answers in words or reaches its step limit."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from openhuman_desktop.llm.base import ChatRequest, LlmClient, Message
from openhuman_desktop.skills.base import Tool, ToolResult

log = logging.getLogger(__name__)

MAX_TOOL_OUTPUT = 12_000
FINAL_ANSWER_PROMPT = "You have used all your steps. Give your final answer now, in words, without calling tools."


@dataclass(frozen=True)
class ToolLoopResult:
    """The final answer and what it took."""

    text: str
    steps: int
    tools_called: tuple[str, ...]
    model_calls: int


async def _call(tool: Tool | None, name: str, arguments: object, offered: Sequence[str]) -> ToolResult:
    if tool is None:
        return ToolResult(
            f"The tool {name!r} is not available in this run (available: {', '.join(offered) or 'none'}).",
            is_error=True,
        )
    if not isinstance(arguments, dict):
        return ToolResult("The tool arguments must be a JSON object.", is_error=True)
    try:
        return await tool.run(arguments)
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
) -> ToolLoopResult:
    """Let the model use ``tools`` for at most ``max_steps`` rounds.

    Only the tools passed in are offered *and* executable: a call to any other tool (a withheld
    write tool, say) is refused and the model is told so.

    Raises:
        LlmUnavailable / LlmReplyError: from the client.
    """
    by_name = {tool.name: tool for tool in tools}
    specs = [tool.spec for tool in tools]
    history = list(messages)
    called: list[str] = []
    calls = 0
    for step in range(1, max_steps + 1):
        response = await client.chat(ChatRequest(history, tools=specs, timeout=timeout))
        calls += 1
        if not response.tool_calls:
            return ToolLoopResult(response.content.strip(), step, tuple(called), calls)
        history.append(Message("assistant", response.content, tool_calls=response.tool_calls))
        for call in response.tool_calls:
            called.append(call.name)
            result = await _call(by_name.get(call.name), call.name, call.arguments, list(by_name))
            log.info("step %d: tool %s → %s", step, call.name, "error" if result.is_error else "ok")
            text = result.text if len(result.text) <= MAX_TOOL_OUTPUT else result.text[:MAX_TOOL_OUTPUT] + "\n[cut]"
            payload = json.dumps({"error": text}) if result.is_error else text
            history.append(Message("tool", payload, tool_name=call.name, tool_call_id=call.id))
    history.append(Message("user", FINAL_ANSWER_PROMPT))
    response = await client.chat(ChatRequest(history, timeout=timeout))
    calls += 1
    return ToolLoopResult(response.content.strip(), max_steps, tuple(called), calls)
