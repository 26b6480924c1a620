"""The anchor: the reference note's graph on LangGraph (nodes, keys, reducers and routing of
../shared/anchors/langgraph_seed_graph.py, unchanged), for bench/agent_bench.py. Needs the bench extra."""

# No ``from __future__ import annotations`` here: LangGraph reads the state's type hints at run time.

from typing import Annotated, Any, Literal, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages


class SystemState(TypedDict, total=False):
    messages: Annotated[list[Any], add_messages]
    channel_source: str
    raw_channel_payload: str
    agent_instructions: str
    agent_reply: str
    channel_response: str
    subconscious_steering: str
    compressed_history: list[str]
    world_state_diff: dict[str, Any]
    context_utilization: float


def ingest(s: Any) -> Any:
    return {"raw_channel_payload": s.get("raw_channel_payload", ""),
            "messages": [("user", s.get("raw_channel_payload", ""))]}


def frontend(s: Any) -> Any:
    if not s.get("agent_reply"):
        return {"agent_instructions": "AUTONOMOUS_EXECUTE: Process environmental signature -> "
                                      f"'{s.get('raw_channel_payload', '')}'"}
    return {"channel_response": f"Successfully completed. Engine Output: {s.get('agent_reply')}"}


def execute(s: Any) -> Any:
    diff = s.get("world_state_diff") or {"system_genesis": "initialized", "evolution_timeline": [],
                                         "terminal_state": "pending"}
    step = len(diff["evolution_timeline"]) + 1
    diff["evolution_timeline"].append({"sequence": step, "event_signature": f"Execution Cycle {step}",
                                       "world_mutation": "Infrastructure parameters rewritten. Ephemeral "
                                                         "sub-agents terminated.",
                                       "delta_delta": "Matrix state transitioned from idle to computed_active."})
    diff["terminal_state"] = "execution_finalized"
    return {"agent_reply": "Reasoning Core and spawned sub-agents finalized all pipeline mutations successfully.",
            "compressed_history": ["[20:1 Compression Trace] Orchestrated 2 sub-agents. State variables mutated. "
                                   "Sub-agent traces pruned from core context loop to maintain compliance bounds."],
            "world_state_diff": diff,
            "context_utilization": min(s.get("context_utilization", 0.1) + 0.05, 1.0)}


def context_hook(s: Any) -> Any:
    if s.get("context_utilization", 0.0) >= 0.85:
        return {"context_utilization": 0.2,
                "compressed_history": ["--- Historical context blocks compressed and evicted to Vector Store ---"]}
    return {}


def route(s: Any) -> Literal["agent_execution", "context_manager_hook"]:
    return "context_manager_hook" if s.get("channel_response") else "agent_execution"


def build(saver: Any) -> Any:
    """The compiled graph with ``saver`` as its checkpointer."""
    g = StateGraph(SystemState)
    g.add_node("channel_ingestion", ingest)
    g.add_node("frontend_agent", frontend)
    g.add_node("agent_execution", execute)
    g.add_node("context_manager_hook", context_hook)
    g.add_edge(START, "channel_ingestion")
    g.add_edge("channel_ingestion", "frontend_agent")
    g.add_conditional_edges("frontend_agent", route, {"agent_execution": "agent_execution",
                                                      "context_manager_hook": "context_manager_hook"})
    g.add_edge("agent_execution", "frontend_agent")
    g.add_edge("context_manager_hook", END)
    return g.compile(checkpointer=saver)
