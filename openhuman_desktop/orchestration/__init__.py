"""The orchestration core: the agent's state machine, run ledger, nodes and service (DESIGN §3)."""

from openhuman_desktop.orchestration.text_calls import text_tool_calls
from openhuman_desktop.orchestration.tool_calls import compact_spec, describe_call, tools_line

__all__ = ["compact_spec", "describe_call", "text_tool_calls", "tools_line"]
