"""The orchestration core: the agent's state machine, run ledger, nodes and service (DESIGN §3)."""

from openhuman_desktop.orchestration.text_calls import text_tool_calls
from openhuman_desktop.orchestration.tool_loop import (
    ToolCallRecord,
    ToolLoopResult,
    compact_spec,
    describe_call,
    run_tool_loop,
    tools_line,
)

__all__ = ["ToolCallRecord", "ToolLoopResult", "compact_spec", "describe_call", "run_tool_loop", "text_tool_calls",
           "tools_line"]
