"""The agent service on the real ledger with model-free nodes: a thread's runs in order, state updates only
when idle, resume after a stop, retry from the last checkpoint, the deadline, and follow."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop import events
from openhuman_desktop.config import AgentSettings
from openhuman_desktop.errors import Conflict, InvalidInput, LlmUnavailable, NotFound
from openhuman_desktop.orchestration.events import RunFinished
from openhuman_desktop.orchestration.graph import (
    AGENT_EXECUTION,
    CHANNEL_INGESTION,
    CONTEXT_MANAGER_HOOK,
    FRONTEND_AGENT,
    NODES,
    Graph,
    NodeContext,
)
from openhuman_desktop.orchestration.ledger import RunLedger
from openhuman_desktop.orchestration.ports import COMPLETED, FAILED, LIMIT_FAILURE, MODEL_FAILURE, RunRequest
from openhuman_desktop.orchestration.service import AgentService
from openhuman_desktop.orchestration.state import Values
from openhuman_desktop.supervisor import TaskSupervisor
from tests.fakes.clock import FakeClock


class Nodes:
    """The reference note's nodes without a model; ``gate`` holds agent_execution, ``fail`` makes it raise."""

    def __init__(self) -> None:
        self.gate: asyncio.Event | None = None
        self.fail: Exception | None = None
        self.ran: list[tuple[str, str]] = []

    async def ingest(self, ctx: NodeContext, values: Values) -> dict[str, Any]:
        self.ran.append((ctx.run.input, CHANNEL_INGESTION))
        return {"raw_channel_payload": ctx.run.input, "agent_reply": "", "channel_response": "",
                "messages": [{"role": "user", "content": ctx.run.input, "at": 0.0}]}

    async def frontend(self, ctx: NodeContext, values: Values) -> dict[str, Any]:
        self.ran.append((ctx.run.input, FRONTEND_AGENT))
        if not values.get("agent_reply"):
            return {"agent_instructions": f"do {ctx.run.input}"}
        ctx.stream("Done: ")
        ctx.stream(values["agent_reply"])
        return {"channel_response": f"Done: {values['agent_reply']}"}

    async def execute(self, ctx: NodeContext, values: Values) -> dict[str, Any]:
        self.ran.append((ctx.run.input, AGENT_EXECUTION))
        if self.gate is not None:
            await self.gate.wait()
        if self.fail is not None:
            raise self.fail
        return {"agent_reply": f"did {ctx.run.input}"}

    async def hook(self, ctx: NodeContext, values: Values) -> dict[str, Any]:
        self.ran.append((ctx.run.input, CONTEXT_MANAGER_HOOK))
        return {"context_utilization": 0.1}

    def graph(self) -> Graph:
        return Graph({CHANNEL_INGESTION: self.ingest, FRONTEND_AGENT: self.frontend, AGENT_EXECUTION: self.execute,
                      CONTEXT_MANAGER_HOOK: self.hook})


@pytest.fixture
async def ledger(tmp_path: Path) -> AsyncIterator[RunLedger]:
    opened = await RunLedger.open(tmp_path / "ledger.db", FakeClock())
    yield opened
    await opened.aclose()


def service_on(ledger: RunLedger, nodes: Nodes, settings: AgentSettings | None = None,
               bus: events.EventBus | None = None) -> tuple[AgentService, TaskSupervisor]:
    supervisor = TaskSupervisor()
    chosen = settings or AgentSettings()
    return AgentService(ledger, nodes.graph, bus or events.EventBus(), FakeClock(), supervisor,
                        lambda: chosen), supervisor


async def test_a_threads_runs_go_one_after_another_and_stream(ledger: RunLedger) -> None:
    nodes = Nodes()
    bus = events.EventBus()
    finished: list[str] = []
    bus.subscribe(RunFinished, lambda event: finished.append(event.run.input))
    service, supervisor = service_on(ledger, nodes, bus=bus)
    first = await service.send("one", "desktop")
    second = await service.send("two", "desktop")
    other = await service.send("three", "cli")
    runs = [await service.wait(run.id) for run in (first, second, other)]
    assert [run.status for run in runs] == [COMPLETED] * 3
    assert runs[0].response == "Done: did one"
    on_desktop = [node for text, node in nodes.ran if text in ("one", "two")]
    assert on_desktop == [*NODES[:3], FRONTEND_AGENT, CONTEXT_MANAGER_HOOK] * 2
    assert [text for text, _node in nodes.ran if text in ("one", "two")][:5] == ["one"] * 5, "one finished first"
    assert sorted(finished) == ["one", "three", "two"]
    follow = await service.follow(first.id, 0, timeout=0.1)
    assert (follow.text, follow.status) == ("Done: did one", COMPLETED) and follow.run is not None
    assert (await service.follow(first.id, len("Done: "), timeout=0.1)).text == "did one"
    history = await service.history("desktop")
    assert [c["node"] for c in history][:5] == [CONTEXT_MANAGER_HOOK, FRONTEND_AGENT, AGENT_EXECUTION,
                                                FRONTEND_AGENT, CHANNEL_INGESTION]
    await supervisor.cancel_all()


async def test_state_update_waits_for_an_idle_thread(ledger: RunLedger) -> None:
    nodes = Nodes()
    nodes.gate = asyncio.Event()
    service, supervisor = service_on(ledger, nodes)
    run = await service.send("slow", "desktop")
    with pytest.raises(NotFound):
        await service.state_update("cli", {"context_utilization": 0.5}, "subconscious_cron")
    while (AGENT_EXECUTION not in [node for _text, node in nodes.ran]):
        await asyncio.sleep(0)
    assert (await service.state_get("desktop"))["next"] == AGENT_EXECUTION
    with pytest.raises(Conflict):
        await service.state_update("desktop", {"context_utilization": 0.5}, "subconscious_cron")
    nodes.gate.set()
    await service.wait(run.id)
    with pytest.raises(InvalidInput):
        await service.state_update("desktop", {"context_utilization": 0.5}, "not_a_node")
    with pytest.raises(InvalidInput):
        await service.state_update("desktop", {"no_such_key": 1}, "subconscious_cron")
    result = await service.state_update("desktop", {"subconscious_steering": {"version": 1, "text": "Be brief."}},
                                        "subconscious_cron")
    state = await service.state_get("desktop")
    assert state["checkpoint_id"] == result["checkpoint_id"] and state["next"] is None
    assert state["values"]["subconscious_steering"] == {"version": 1, "text": "Be brief."}
    await supervisor.cancel_all()


async def test_a_run_stopped_with_the_app_resumes_from_its_checkpoint(ledger: RunLedger) -> None:
    nodes = Nodes()
    nodes.gate = asyncio.Event()
    service, supervisor = service_on(ledger, nodes)
    run = await service.send("interrupted", "desktop")
    while AGENT_EXECUTION not in [node for _text, node in nodes.ran]:
        await asyncio.sleep(0)
    await service.aclose()  # the app stops: the run stays unfinished in the ledger
    await supervisor.cancel_all()
    assert (await ledger.get_run(run.id)).status == "running"  # type: ignore[union-attr]

    again = Nodes()
    resumed, supervisor = service_on(ledger, again)
    assert await resumed.resume_unfinished() == 1
    done = await resumed.wait(run.id)
    assert done.status == COMPLETED and done.response == "Done: did interrupted"
    assert [node for _text, node in again.ran] == [AGENT_EXECUTION, FRONTEND_AGENT, CONTEXT_MANAGER_HOOK]
    steps = [c["step"] for c in reversed(await resumed.history("desktop"))]
    assert steps == [1, 2, 3, 4, 5], "each step committed once"
    await supervisor.cancel_all()


async def test_a_run_failed_on_a_model_is_retried_from_its_checkpoint(ledger: RunLedger) -> None:
    nodes = Nodes()
    nodes.fail = LlmUnavailable("The reasoning model is down.")
    service, supervisor = service_on(ledger, nodes)
    run = await service.wait((await service.send("flaky", "desktop")).id)
    assert (run.status, run.failure, run.error) == (FAILED, MODEL_FAILURE, "The reasoning model is down.")
    nodes.fail = None
    nodes.ran.clear()
    retried = await service.wait((await service.retry(run.id)).id)
    assert retried.status == COMPLETED and retried.failure is None
    assert [node for _text, node in nodes.ran] == [AGENT_EXECUTION, FRONTEND_AGENT, CONTEXT_MANAGER_HOOK]
    with pytest.raises(Conflict):
        await service.retry(run.id)
    await supervisor.cancel_all()


async def test_a_run_past_its_deadline_fails_and_says_so(ledger: RunLedger) -> None:
    nodes = Nodes()
    nodes.gate = asyncio.Event()  # never set: the run would wait for ever
    service, supervisor = service_on(ledger, nodes, AgentSettings(run_deadline_seconds=1))
    run = await service.start(RunRequest("desktop", "desktop", "stuck"))
    done = await asyncio.wait_for(service.wait(run.id), 10)
    assert (done.status, done.failure) == (FAILED, LIMIT_FAILURE)
    assert "deadline (1 s)" in (done.error or "")
    nodes.gate = None
    again = await service.wait((await service.send("next", "desktop")).id)
    assert again.status == COMPLETED, "the next run on the thread works"
    await supervisor.cancel_all()


async def test_bad_requests_are_refused(ledger: RunLedger) -> None:
    service, supervisor = service_on(ledger, Nodes())
    for text, thread in (("", "desktop"), ("hi", "mars"), ("hi", "webapp:"), ("x" * 100_001, "desktop")):
        with pytest.raises(InvalidInput):
            await service.send(text, thread)
    with pytest.raises(NotFound):
        await service.run_get("nope")
    await supervisor.cancel_all()


async def test_a_short_run_syncs_twice_recorded_and_ended(ledger: RunLedger) -> None:
    """Durability at the physical floor: of a run's commits only its record and its end are synced (its node
    transitions ride on them; ``ledger.py`` says why that is enough), and its delivery is not synced either."""
    service, supervisor = service_on(ledger, Nodes())
    before = ledger.synced_commits
    run = await service.send("one", "desktop")
    assert ledger.synced_commits == before + 1  # recorded: durable before the caller hears of it
    assert (await service.wait(run.id)).status == COMPLETED
    assert ledger.synced_commits == before + 2
    await service.mark_delivered(run.id)
    assert ledger.synced_commits == before + 2
    assert len(await ledger.history("desktop")) == 5  # five transitions, committed
    await supervisor.cancel_all()
