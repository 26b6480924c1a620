"""The agent's RPC methods (CONTRACT §8) through the JSON-RPC dispatcher, against an in-memory agent service:
results, the long-poll follow, and the error codes (-32602 bad params, -32001 unknown, -32002 busy thread)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest

from openhuman_desktop.orchestration import graph
from openhuman_desktop.rpc.agent_methods import agent_methods, check_thread_id
from openhuman_desktop.rpc.methods import MethodTable
from openhuman_desktop.rpc.protocol import CONFLICT, INVALID_PARAMS, NOT_FOUND, Dispatcher
from tests.fakes.agent_service import InMemoryAgent

Json = Any


@pytest.fixture
async def agent() -> AsyncIterator[InMemoryAgent]:
    service = InMemoryAgent()
    yield service
    await service.aclose()


@pytest.fixture
def dispatcher(agent: InMemoryAgent) -> Dispatcher:
    table = MethodTable()
    table.add(agent_methods(agent))
    return Dispatcher(table)


async def call(dispatcher: Dispatcher, method: str, params: Json = None) -> dict[str, Json]:
    body: dict[str, Json] = {"jsonrpc": "2.0", "id": 1, "method": f"openhuman.{method}"}
    if params is not None:
        body["params"] = params
    answer = await dispatcher.handle_body(json.dumps(body).encode())
    assert isinstance(answer, dict)
    return answer


async def result(dispatcher: Dispatcher, method: str, params: Json = None) -> Json:
    answer = await call(dispatcher, method, params)
    assert "result" in answer, answer
    return answer["result"]


async def error(dispatcher: Dispatcher, method: str, params: Json = None) -> tuple[int, str]:
    answer = await call(dispatcher, method, params)
    assert "error" in answer, answer
    return answer["error"]["code"], answer["error"]["message"]


async def follow_to_the_end(dispatcher: Dispatcher, run_id: str, offset: int = 0) -> tuple[str, dict[str, Json]]:
    text = ""
    for _ in range(100):
        got = await result(dispatcher, "agent_run_follow", {"run_id": run_id, "after": offset, "timeout": 5})
        text += got["text"]
        offset = got["offset"]
        if got["run"] is not None:
            return text, got["run"]
    raise AssertionError("the run never finished")


def test_the_method_names(agent: InMemoryAgent) -> None:
    assert sorted(agent_methods(agent)) == [
        "openhuman.agent_history", "openhuman.agent_run_cancel", "openhuman.agent_run_follow",
        "openhuman.agent_run_get", "openhuman.agent_runs_list",
        "openhuman.agent_send", "openhuman.agent_state_get", "openhuman.agent_state_update",
        "openhuman.world_timeline",
    ]


async def test_send_returns_at_once_and_the_run_can_be_followed_to_its_answer(dispatcher: Dispatcher) -> None:
    sent = await result(dispatcher, "agent_send", {"text": "hello there"})
    assert set(sent) == {"run_id", "thread_id"} and sent["thread_id"] == "desktop"

    text, run = await follow_to_the_end(dispatcher, sent["run_id"])

    assert text == "You said: hello there"
    assert run["status"] == "completed" and run["response"] == text and run["channel_source"] == "desktop"
    assert {"id", "thread_id", "channel_source", "status", "input", "response", "error", "steps",
            "steering_version", "created_at", "finished_at"} <= set(run)
    assert await result(dispatcher, "agent_run_get", {"run_id": sent["run_id"]}) == run
    assert await result(dispatcher, "agent_run_get", [sent["run_id"]]) == run


async def test_follow_waits_for_text_and_says_nothing_new_when_the_timeout_passes(
    dispatcher: Dispatcher, agent: InMemoryAgent
) -> None:
    agent.gate = asyncio.Event()
    sent = await result(dispatcher, "agent_send", {"text": "slow", "thread_id": "cli"})
    quiet = await result(dispatcher, "agent_run_follow", {"run_id": sent["run_id"], "timeout": 0})
    assert quiet == {"text": "", "offset": 0, "status": quiet["status"], "run": None}
    assert quiet["status"] in ("queued", "running")

    waiting = asyncio.ensure_future(result(dispatcher, "agent_run_follow", {"run_id": sent["run_id"]}))
    await asyncio.sleep(0)
    assert not waiting.done(), "a long-poll: it waits for text"
    agent.gate.set()
    first = await waiting
    assert first["text"] and first["offset"] == len(first["text"])
    assert agent.follows[-1] == (sent["run_id"], 0, 10.0), "after defaults to 0, timeout to 10 s"
    text, run = await follow_to_the_end(dispatcher, sent["run_id"], first["offset"])
    assert first["text"] + text == "You said: slow" and run["thread_id"] == "cli"


async def test_a_failed_run_ends_the_follow_with_its_error(dispatcher: Dispatcher) -> None:
    sent = await result(dispatcher, "agent_send", {"text": "fail please"})
    _, run = await follow_to_the_end(dispatcher, sent["run_id"])
    assert run["status"] == "failed" and "agentic-v1" in run["error"]


async def test_runs_list_state_history_and_state_update(dispatcher: Dispatcher, agent: InMemoryAgent) -> None:
    first = await result(dispatcher, "agent_send", {"text": "one", "thread_id": "telegram:42"})
    await agent.wait(first["run_id"])
    second = await result(dispatcher, "agent_send", {"text": "two", "thread_id": "telegram:42"})
    await agent.wait(second["run_id"])
    other = await result(dispatcher, "agent_send", {"text": "three"})
    await agent.wait(other["run_id"])

    listed = await result(dispatcher, "agent_runs_list", {"thread_id": "telegram:42"})
    assert [run["id"] for run in listed] == [second["run_id"], first["run_id"]], "newest first"
    assert [run["id"] for run in await result(dispatcher, "agent_runs_list", {"limit": 1})] == [other["run_id"]]
    assert await result(dispatcher, "agent_runs_list", {"status": "failed"}) == []

    current = await result(dispatcher, "agent_state_get", {"thread_id": "telegram:42"})
    assert current["thread_id"] == "telegram:42" and current["next"] is None
    assert [m["content"] for m in current["values"]["messages"]] == ["one", "You said: one", "two", "You said: two"]

    updated = await result(dispatcher, "agent_state_update", {
        "thread_id": "telegram:42", "values": {"agent_instructions": "be brief"}, "as_node": "subconscious_cron"})
    assert updated["checkpoint_id"] > current["checkpoint_id"]
    after = await result(dispatcher, "agent_state_get", ["telegram:42"])
    assert after["values"]["agent_instructions"] == "be brief" and after["checkpoint_id"] == updated["checkpoint_id"]

    history = await result(dispatcher, "agent_history", {"thread_id": "telegram:42"})
    assert [row["node"] for row in history][:2] == ["subconscious_cron", "frontend_agent"], "newest first"
    older = await result(dispatcher, "agent_history",
                         {"thread_id": "telegram:42", "limit": 2, "before": history[1]["checkpoint_id"]})
    assert [row["checkpoint_id"] for row in older] == [row["checkpoint_id"] for row in history[2:4]]


async def test_world_timeline_pages_after_a_sequence(dispatcher: Dispatcher, agent: InMemoryAgent) -> None:
    for name in ("a.md", "b.md", "c.md"):
        agent.add_mutation(f"file written: {name}")
    assert [e["sequence"] for e in await result(dispatcher, "world_timeline")] == [1, 2, 3]
    assert [e["sequence"] for e in await result(dispatcher, "world_timeline", {"after": 1, "limit": 1})] == [2]


async def test_a_state_update_on_a_busy_thread_is_a_conflict(dispatcher: Dispatcher, agent: InMemoryAgent) -> None:
    agent.gate = asyncio.Event()
    sent = await result(dispatcher, "agent_send", {"text": "hold on", "thread_id": "cli"})
    code, message = await error(dispatcher, "agent_state_update",
                                {"thread_id": "cli", "values": {"agent_reply": "x"}, "as_node": "agent_execution"})
    assert code == CONFLICT and "cli" in message
    agent.gate.set()
    await agent.wait(sent["run_id"])


@pytest.mark.parametrize(("method", "params", "param"), [
    ("agent_send", {}, "text"),
    ("agent_send", {"text": "   "}, "text"),
    ("agent_send", {"text": 5}, "text"),
    ("agent_send", {"text": "x" * 100_001}, "text"),
    ("agent_send", {"text": "hi", "thread_id": "mail:1"}, "thread_id"),
    ("agent_send", {"text": "hi", "thread_id": "x" * 201}, "thread_id"),
    ("agent_send", {"text": "hi", "thread_id": "cli\n"}, "thread_id"),
    ("agent_send", {"text": "hi", "thread_id": "webapp:a\u202eb"}, "thread_id"),
    ("agent_send", {"text": "hi", "thread_id": 7}, "thread_id"),
    ("agent_send", {"text": "hi", "thread_id": ""}, "thread_id"),
    ("agent_send", {"text": "hi", "extra": 1}, "extra"),
    ("agent_run_get", {}, "run_id"),
    ("agent_run_follow", {"run_id": "r", "after": -1}, "after"),
    ("agent_run_follow", {"run_id": "r", "timeout": 31}, "timeout"),
    ("agent_run_follow", {"run_id": "r", "timeout": -1}, "timeout"),
    ("agent_run_follow", {"run_id": "r", "after": 1.5}, "after"),
    ("agent_runs_list", {"status": "done"}, "status"),
    ("agent_runs_list", {"limit": 0}, "limit"),
    ("agent_runs_list", {"limit": 1001}, "limit"),
    ("agent_runs_list", {"thread_id": ""}, "thread_id"),
    ("agent_state_get", {}, "thread_id"),
    ("agent_state_update", {"thread_id": "cli", "values": {}, "as_node": "planner"}, "as_node"),
    ("agent_state_update", {"thread_id": "cli", "values": {}, "as_node": 3}, "as_node"),
    ("agent_state_update", {"thread_id": "cli", "values": [], "as_node": "frontend_agent"}, "values"),
    ("agent_state_update", {"thread_id": "cli", "values": {"mood": 1}, "as_node": "frontend_agent"}, "values"),
    ("agent_state_update", {"thread_id": "cli", "as_node": "frontend_agent"}, "values"),
    ("agent_history", {"thread_id": "cli", "before": 0}, "before"),
    ("agent_history", {"thread_id": "cli", "limit": 5000}, "limit"),
    ("world_timeline", {"after": -5}, "after"),
    ("world_timeline", {"limit": "ten"}, "limit"),
])
async def test_bad_params_are_invalid_params_naming_the_parameter(
    dispatcher: Dispatcher, method: str, params: dict[str, Json], param: str
) -> None:
    code, message = await error(dispatcher, method, params)
    assert code == INVALID_PARAMS and f"Invalid params: {param}" in message, message


async def test_a_value_of_the_wrong_shape_is_invalid_params(dispatcher: Dispatcher, agent: InMemoryAgent) -> None:
    sent = await result(dispatcher, "agent_send", {"text": "hi", "thread_id": "cli"})
    await agent.wait(sent["run_id"])
    code, message = await error(dispatcher, "agent_state_update",
                                {"thread_id": "cli", "values": {"messages": "not a list"}, "as_node": "frontend_agent"})
    assert code == INVALID_PARAMS and "values" in message


@pytest.mark.parametrize(("method", "params"), [
    ("agent_run_get", {"run_id": "nope"}),
    ("agent_run_follow", {"run_id": "nope", "timeout": 0}),
    ("agent_state_get", {"thread_id": "webapp:never"}),
    ("agent_state_update", {"thread_id": "webapp:never", "values": {}, "as_node": "frontend_agent"}),
    ("agent_history", {"thread_id": "webapp:never"}),
])
async def test_unknown_runs_and_threads_are_not_found(dispatcher: Dispatcher, method: str,
                                                      params: dict[str, Json]) -> None:
    code, _ = await error(dispatcher, method, params)
    assert code == NOT_FOUND


@pytest.mark.parametrize("as_node", graph.AS_NODES)
async def test_every_node_name_and_subconscious_cron_is_a_valid_as_node(
    dispatcher: Dispatcher, agent: InMemoryAgent, as_node: str
) -> None:
    sent = await result(dispatcher, "agent_send", {"text": "hi", "thread_id": "cli"})
    await agent.wait(sent["run_id"])
    assert "checkpoint_id" in await result(dispatcher, "agent_state_update",
                                           {"thread_id": "cli", "values": {}, "as_node": as_node})


@pytest.mark.parametrize("thread_id", ["desktop", "cli", "webapp:3f2a", "telegram:-1001234", "subconscious:t-1",
                                       "telegram:Ann's chat"])
def test_the_thread_ids_of_the_contract_are_accepted(thread_id: str) -> None:
    assert check_thread_id(thread_id) == thread_id
