"""graph.execute on the real ledger: CONTRACT §8 routing, the hard step limit, each transition committed before the
next node starts, and a node that raises leaves nothing of its update."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.orchestration import graph
from openhuman_desktop.orchestration.graph import (
    AGENT_EXECUTION,
    CHANNEL_INGESTION,
    CONTEXT_MANAGER_HOOK,
    FRONTEND_AGENT,
    Graph,
    Node,
    NodeContext,
    StepLimitReached,
    execute,
    route,
)
from openhuman_desktop.orchestration.ledger import Checkpoint, RunLedger
from openhuman_desktop.orchestration.ports import Run, RunRequest
from openhuman_desktop.orchestration.state import (
    AGENT_INSTRUCTIONS,
    AGENT_REPLY,
    CHANNEL_RESPONSE,
    MESSAGES,
    StateError,
    Values,
    initial_values,
)
from tests.fakes.clock import FakeClock


@pytest.fixture
async def ledger(tmp_path: Path, clock: FakeClock) -> AsyncIterator[RunLedger]:
    opened = await RunLedger.open(tmp_path / "ledger.db", clock)
    yield opened
    await opened.aclose()


@pytest.mark.parametrize(("node", "values", "expected"), [
    (CHANNEL_INGESTION, {}, FRONTEND_AGENT),
    (FRONTEND_AGENT, {AGENT_REPLY: "", CHANNEL_RESPONSE: ""}, AGENT_EXECUTION),
    (FRONTEND_AGENT, {AGENT_REPLY: "done", CHANNEL_RESPONSE: "answer"}, CONTEXT_MANAGER_HOOK),
    (FRONTEND_AGENT, {AGENT_REPLY: "", CHANNEL_RESPONSE: "answer"}, CONTEXT_MANAGER_HOOK),
    (FRONTEND_AGENT, {AGENT_REPLY: "done", CHANNEL_RESPONSE: ""}, FRONTEND_AGENT),
    (AGENT_EXECUTION, {AGENT_REPLY: "done"}, FRONTEND_AGENT),
    (CONTEXT_MANAGER_HOOK, {CHANNEL_RESPONSE: "answer"}, None),
])
def test_route_is_contract_8(node: str, values: dict[str, Any], expected: str | None) -> None:
    assert route(node, values) == expected


def contract_nodes(seen: list[str] | None = None) -> dict[str, Node]:
    """The four nodes, reduced to their state updates (what the model nodes write, without the models)."""
    async def ingestion(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
        return {MESSAGES: [{"role": "user", "content": ctx.run.input}], "raw_channel_payload": ctx.run.input,
                AGENT_INSTRUCTIONS: "", AGENT_REPLY: "", CHANNEL_RESPONSE: ""}

    async def frontend(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
        if not values[AGENT_REPLY]:
            return {AGENT_INSTRUCTIONS: f"answer: {values['raw_channel_payload']}"}
        return {CHANNEL_RESPONSE: values[AGENT_REPLY], MESSAGES: [{"role": "assistant", "content": "ok"}]}

    async def execution(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
        return {AGENT_REPLY: f"did {values[AGENT_INSTRUCTIONS]}"}

    async def hook(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
        return {"context_utilization": 0.25}

    nodes = {CHANNEL_INGESTION: ingestion, FRONTEND_AGENT: frontend, AGENT_EXECUTION: execution,
             CONTEXT_MANAGER_HOOK: hook}
    if seen is None:
        return nodes

    def recording(name: str, node: Node) -> Node:
        async def run(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
            seen.append(name)
            return await node(ctx, values)
        return run
    return {name: recording(name, node) for name, node in nodes.items()}


async def new_run(ledger: RunLedger, text: str = "hello", thread: str = "desktop") -> NodeContext:
    run: Run = await ledger.create_run(RunRequest(thread, "desktop", text))
    return NodeContext(run=run, step=1, journal=ledger, deadline=float("inf"))


async def test_a_run_takes_the_contract_path_and_commits_each_transition(ledger: RunLedger) -> None:
    context = await new_run(ledger)
    transitions: list[tuple[str, int, Any]] = []
    final = await execute(Graph(contract_nodes()), ledger, context, initial_values(), CHANNEL_INGESTION,
                          lambda node, step, checkpoint: transitions.append((node, step, checkpoint)))
    path = [CHANNEL_INGESTION, FRONTEND_AGENT, AGENT_EXECUTION, FRONTEND_AGENT, CONTEXT_MANAGER_HOOK]
    history = (await ledger.history("desktop"))[::-1]
    assert [c.node for c in history] == path and [c.step for c in history] == [1, 2, 3, 4, 5]
    assert [c.next for c in history] == [*path[1:], None]
    assert [(node, step) for node, step, _ in transitions] == [(node, i) for i, node in enumerate(path, start=1)]
    assert all(isinstance(checkpoint, Checkpoint) for *_, checkpoint in transitions)
    head = await ledger.head("desktop")
    assert head.values == final and final[CHANNEL_RESPONSE] == "did answer: hello"
    assert (head.next, head.step) == (None, 5) and context.step == 5
    assert (await ledger.get_run(context.run.id)).steps == 5  # type: ignore[union-attr]


async def test_each_transition_is_committed_before_the_next_node_starts(ledger: RunLedger) -> None:
    """Every node, when it starts, finds the previous node's update in the ledger naming it as next."""
    observed: list[tuple[str, str | None, str | None]] = []
    nodes = contract_nodes()

    def checking(name: str, node: Node) -> Node:
        async def run(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
            head = await ledger.head(ctx.run.thread_id)
            observed.append((name, head.node, head.next))
            assert head.values == values  # what was committed is exactly what this node is given
            return await node(ctx, values)
        return run

    context = await new_run(ledger)
    await execute(Graph({name: checking(name, node) for name, node in nodes.items()}), ledger, context,
                  initial_values(), CHANNEL_INGESTION)
    assert observed == [
        (CHANNEL_INGESTION, None, None),
        (FRONTEND_AGENT, CHANNEL_INGESTION, FRONTEND_AGENT),
        (AGENT_EXECUTION, FRONTEND_AGENT, AGENT_EXECUTION),
        (FRONTEND_AGENT, AGENT_EXECUTION, FRONTEND_AGENT),
        (CONTEXT_MANAGER_HOOK, FRONTEND_AGENT, CONTEXT_MANAGER_HOOK),
    ]


async def test_the_step_limit_stops_a_cycling_run(ledger: RunLedger) -> None:
    nodes = contract_nodes()

    async def never_replies(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
        return {AGENT_REPLY: ""}
    nodes[AGENT_EXECUTION] = never_replies
    context = await new_run(ledger)
    with pytest.raises(StepLimitReached, match="after 7 steps"):
        await execute(Graph(nodes, step_limit=7), ledger, context, initial_values(), CHANNEL_INGESTION)
    history = await ledger.history("desktop")
    assert len(history) == 7 and history[0].step == 7
    assert [c.node for c in history[::-1]] == [CHANNEL_INGESTION, *[FRONTEND_AGENT, AGENT_EXECUTION] * 3]


async def test_the_default_step_limit_is_twelve(ledger: RunLedger) -> None:
    assert Graph(contract_nodes()).step_limit == graph.DEFAULT_STEP_LIMIT == 12


async def test_a_node_that_raises_leaves_nothing_of_its_update(ledger: RunLedger) -> None:
    nodes = contract_nodes()
    calls = {"n": 0}

    async def fails_once(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
        calls["n"] += 1
        values[AGENT_REPLY] = "half-written"  # even scribbling on its input must not reach the ledger
        if calls["n"] == 1:
            raise RuntimeError("the reasoning model went away")
        return {AGENT_REPLY: "second try"}
    nodes[AGENT_EXECUTION] = fails_once
    context = await new_run(ledger)
    before: list[Checkpoint] = []
    with pytest.raises(RuntimeError, match="went away"):
        await execute(Graph(nodes), ledger, context, initial_values(), CHANNEL_INGESTION)
    before = await ledger.history("desktop")
    head = await ledger.head("desktop")
    assert [c.node for c in before] == [FRONTEND_AGENT, CHANNEL_INGESTION]
    assert head.values[AGENT_REPLY] == "" and (head.next, head.step) == (AGENT_EXECUTION, 2)
    # resumed from its last checkpoint, the run completes from the node that failed
    context.step = head.step + 1
    final = await execute(Graph(nodes), ledger, context, head.values, head.next)
    assert final[CHANNEL_RESPONSE] == "second try"
    assert [c.node for c in (await ledger.history("desktop"))[::-1]] == [
        CHANNEL_INGESTION, FRONTEND_AGENT, AGENT_EXECUTION, FRONTEND_AGENT, CONTEXT_MANAGER_HOOK]


async def test_a_bad_update_is_refused_before_anything_is_committed(ledger: RunLedger) -> None:
    nodes = contract_nodes()

    async def bad(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
        return {MESSAGES: "not a list"}
    nodes[FRONTEND_AGENT] = bad
    context = await new_run(ledger)
    with pytest.raises(StateError):
        await execute(Graph(nodes), ledger, context, initial_values(), CHANNEL_INGESTION)
    assert [c.node for c in await ledger.history("desktop")] == [CHANNEL_INGESTION]


async def test_runs_on_one_thread_carry_the_conversation_over(ledger: RunLedger) -> None:
    seen: list[str] = []
    for text in ("first", "second"):
        head = await ledger.head("desktop")
        context = await new_run(ledger, text)
        await execute(Graph(contract_nodes(seen)), ledger, context, head.values, CHANNEL_INGESTION)
    values = (await ledger.head("desktop")).values
    assert [m["content"] for m in values[MESSAGES]] == ["first", "ok", "second", "ok"]
    assert values[AGENT_INSTRUCTIONS] == "answer: second" and len(seen) == 10
