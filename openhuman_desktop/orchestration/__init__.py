"""The orchestration core: agentic-v1's tool loop now; the run-ledger state machine grows here."""

from openhuman_desktop.orchestration.text_calls import text_tool_calls
from openhuman_desktop.orchestration.tool_loop import (
    CallKey,
    EffectsJournal,
    ToolCallRecord,
    ToolLoopResult,
    canonical_arguments,
    compact_spec,
    run_tool_loop,
)

__all__ = ["CallKey", "EffectsJournal", "ToolCallRecord", "ToolLoopResult", "canonical_arguments", "compact_spec",
           "run_tool_loop", "text_tool_calls"]
