"""The state machine: a node table, the router and a hard step limit, each transition committed first."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.orchestration.ports import Permission, Run, StepJournal
from openhuman_desktop.orchestration.state import AGENT_REPLY, CHANNEL_RESPONSE, Values, apply

log = logging.getLogger(__name__)

CHANNEL_INGESTION = "channel_ingestion"
FRONTEND_AGENT = "frontend_agent"
AGENT_EXECUTION = "agent_execution"
CONTEXT_MANAGER_HOOK = "context_manager_hook"
NODES = (CHANNEL_INGESTION, FRONTEND_AGENT, AGENT_EXECUTION, CONTEXT_MANAGER_HOOK)
SUBCONSCIOUS_CRON = "subconscious_cron"
"""Not a node of a run: the name ``update_state`` writes the reflection's steering under."""
AS_NODES = (*NODES, SUBCONSCIOUS_CRON)

DEFAULT_STEP_LIMIT = 12


class StepLimitReached(UserFacingError):
    """A run used up its node transitions: it ends failed instead of cycling."""


@dataclass
class NodeContext:
    """What a node gets besides the state: its run, its step, the journal, the reply stream and the deadline.

    ``permission`` is the run's (``read`` / ``write``, None until the front-end agent decides it);
    ``stream`` delivers text to the run's channel as it is generated.
    """

    run: Run
    step: int
    journal: StepJournal
    deadline: float
    permission: Permission | None = None
    stream: Callable[[str], None] = field(default=lambda _text: None)


Node = Callable[[NodeContext, Values], Awaitable[Mapping[str, Any]]]
"""A node: reads the values (never changes them in place: only its returned update reaches the ledger)."""
Router = Callable[[str, Values], "str | None"]


def route(node: str, values: Mapping[str, Any]) -> str | None:
    """CONTRACT §8: ingestion → front-end; the front-end goes to execution while there is no ``agent_reply``
    and to the context hook once ``channel_response`` is set; execution goes back to the front-end; the hook
    ends the run (None)."""
    if node == CHANNEL_INGESTION:
        return FRONTEND_AGENT
    if node == FRONTEND_AGENT:
        if values.get(CHANNEL_RESPONSE):
            return CONTEXT_MANAGER_HOOK
        return AGENT_EXECUTION if not values.get(AGENT_REPLY) else FRONTEND_AGENT
    if node == AGENT_EXECUTION:
        return FRONTEND_AGENT
    return None


@dataclass(frozen=True)
class Graph:
    """The node table, the entry node, the router and the step limit (node transitions per run)."""

    nodes: Mapping[str, Node]
    entry: str = CHANNEL_INGESTION
    router: Router = route
    step_limit: int = DEFAULT_STEP_LIMIT


class Checkpointer(Protocol):
    """Where each transition is committed before the next node starts (the run ledger)."""

    async def commit(self, run_id: str, thread_id: str, step: int, node: str, update: Mapping[str, Any],
                     next_node: str | None) -> Any:
        """Record that ``node`` returned ``update`` at ``step`` and ``next_node`` runs next (None: the end)."""
        ...


async def execute(graph: Graph, checkpointer: Checkpointer, context: NodeContext, values: Values, node: str,
                  on_transition: Callable[[str, int, Any], None] | None = None) -> Values:
    """Run the graph from ``node`` (at ``context.step``) to its end; returns the final values.

    Each node's update is folded into the values and committed (with the node that runs next) before that
    node starts, so a kill at any point loses at most the node in flight, which is run again on resume.

    Raises:
        StepLimitReached: the run would take more than ``graph.step_limit`` transitions.
        Whatever a node raises (nothing of its update is kept).
    """
    current: str | None = node
    while current is not None:
        if context.step > graph.step_limit:
            raise StepLimitReached(
                f"The run stopped after {graph.step_limit} steps without finishing (the step limit); "
                "nothing more was done. Try again, or ask for less at once.")
        update = await graph.nodes[current](context, values)
        values = apply(values, update)
        following = graph.router(current, values)
        checkpoint = await checkpointer.commit(context.run.id, context.run.thread_id, context.step, current,
                                               update, following)
        if on_transition is not None:
            on_transition(current, context.step, checkpoint)
        current = following
        if current is not None:
            context.step += 1
    return values
