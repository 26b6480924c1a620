"""The orchestration core: agentic-v1's tool loop now; the run-ledger state machine grows here."""

from openhuman_desktop.orchestration.tool_loop import ToolLoopResult, run_tool_loop

__all__ = ["ToolLoopResult", "run_tool_loop"]
