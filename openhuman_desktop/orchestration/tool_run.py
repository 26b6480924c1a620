"""Running one tool call for a sub-agent: a tool's failure becomes a result the model reads, and a write that
has started finishes even when its run is cancelled."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any

from openhuman_desktop.skills.base import Tool, ToolContext, ToolResult

log = logging.getLogger(__name__)


async def run_tool(tool: Tool, arguments: Mapping[str, Any], context: ToolContext) -> ToolResult:
    """The tool's result; a tool that raises gives an error result the model reads (the log keeps the trace)."""
    try:
        return await tool.run(arguments, context)
    except Exception as exc:  # a tool bug must not end the run; the model is told, the log keeps the trace
        log.exception("tool %s failed", tool.name)
        return ToolResult(f"The tool {tool.name!r} failed: {type(exc).__name__}.", is_error=True)


async def unstoppable(work: Coroutine[Any, Any, ToolResult],
                       on_cancel: Callable[[ToolResult], Awaitable[object]]) -> ToolResult:
    """``work``'s result; cancelled meanwhile (a sibling sub-agent failed, the run was stopped), the write
    still finishes and ``on_cancel`` records its result before the cancellation goes on: a write that
    happened is never left without its result (a resumed run would otherwise have to guess)."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        await on_cancel(await task)
        raise
