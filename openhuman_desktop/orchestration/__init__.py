"""The orchestration core: the agent's state machine, run ledger, nodes and service (DESIGN §3).

The face exports the ports other packages hold the agent by (``AgentRunner``, ``RunRequest``, ``Run``, the
journal and the small protocols the nodes are given) and the service and ledger that implement them. The
service and the ledger are imported on first use, so a light caller (the command-line client reads
``threads.CHANNEL_SOURCES``) does not load the agent's graph.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from openhuman_desktop.orchestration.ports import (
    AgentRunner,
    CardRaiser,
    EvictionSink,
    IntentJudge,
    JournalEntry,
    MemoryRecall,
    ProposedCall,
    Run,
    RunRequest,
    SteeringSource,
    StepJournal,
    TimelineEntry,
    WriteLicense,
)
from openhuman_desktop.orchestration.text_calls import text_tool_calls
from openhuman_desktop.orchestration.tool_calls import compact_spec, describe_call, tools_line

if TYPE_CHECKING:
    from openhuman_desktop.orchestration.ledger import RunLedger
    from openhuman_desktop.orchestration.nodes import build_graph
    from openhuman_desktop.orchestration.service import AgentService

__all__ = [
    "AgentRunner", "AgentService", "CardRaiser", "EvictionSink", "IntentJudge", "JournalEntry", "MemoryRecall",
    "ProposedCall", "Run", "RunLedger", "RunRequest", "SteeringSource", "StepJournal", "TimelineEntry",
    "WriteLicense", "build_graph", "compact_spec", "describe_call", "text_tool_calls", "tools_line",
]


def __getattr__(name: str) -> Any:
    """The heavy members, imported when first asked for."""
    if name == "AgentService":
        from openhuman_desktop.orchestration.service import AgentService

        return AgentService
    if name == "RunLedger":
        from openhuman_desktop.orchestration.ledger import RunLedger

        return RunLedger
    if name == "build_graph":
        from openhuman_desktop.orchestration.nodes import build_graph

        return build_graph
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
