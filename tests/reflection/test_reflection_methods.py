"""The reflection and steering methods (CONTRACT §10) through the JSON-RPC dispatcher, on the real steering
store and reflector: results, revert and version 0, the user's edit, and the error codes (-32602 bad params,
-32001 unknown version)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from openhuman_desktop.rpc.methods import MethodTable
from openhuman_desktop.rpc.protocol import INVALID_PARAMS, NOT_FOUND, Dispatcher
from openhuman_desktop.rpc.reflection_methods import reflection_methods
from tests.reflection.conftest import World, directive_reply

Json = Any


@pytest.fixture
def dispatcher(world: World) -> Dispatcher:
    table = MethodTable()
    table.add(reflection_methods(world.steering, world.reflector))
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


async def test_trigger_returns_at_once_and_the_reflection_runs_in_the_background(
        dispatcher: Dispatcher, world: World) -> None:
    await world.add_history("wrote notes")
    world.server.script_chat(directive_reply("Keep notes tidy."))
    assert await result(dispatcher, "reflection_trigger") == {"triggered": True}
    await world.reflector.wait_idle()
    current = await result(dispatcher, "steering_current")
    assert (current["text"], current["source"], current["version"]) == ("Keep notes tidy.", "reflection", 1)
    assert current["inputs"] == {"history_entries": 1, "timeline_from": None, "timeline_to": None,
                                 "history_from": 1, "history_to": 1}
    status = await result(dispatcher, "reflection_status")
    assert status["last"]["status"] == "directive" and status["last"]["directive_version"] == 1
    assert status["enabled"] is True and status["schedule"] == "cron:0 3 * * *" and status["problem"] is None


async def test_list_revert_to_a_version_and_to_zero(dispatcher: Dispatcher) -> None:
    assert await result(dispatcher, "steering_current") is None
    first = await result(dispatcher, "steering_set", {"text": "  Prefer short answers.  "})
    assert (first["version"], first["text"], first["source"]) == (1, "Prefer short answers.", "user")
    await result(dispatcher, "steering_set", {"text": "Prefer long answers.", "rationale": "changed my mind"})
    back = await result(dispatcher, "steering_revert", {"version": 1})
    assert (back["version"], back["text"], back["source"], back["reverted_to"]) == (
        3, "Prefer short answers.", "revert", 1)
    cleared = await result(dispatcher, "steering_revert", {"version": 0})
    assert (cleared["version"], cleared["text"], cleared["source"]) == (4, "", "revert")
    assert await result(dispatcher, "steering_current") is None
    listed = await result(dispatcher, "steering_list", {"limit": 3})
    assert [d["version"] for d in listed] == [4, 3, 2]
    assert [d["version"] for d in await result(dispatcher, "steering_list", {"before": 2})] == [1]


@pytest.mark.parametrize(("method", "params", "code", "words"), [
    ("steering_revert", {"version": 9}, NOT_FOUND, "no steering directive version 9"),
    ("steering_revert", {"version": -1}, INVALID_PARAMS, "version"),
    ("steering_revert", {"version": "1"}, INVALID_PARAMS, "version"),
    ("steering_revert", {}, INVALID_PARAMS, "version"),
    ("steering_list", {"limit": 0}, INVALID_PARAMS, "limit"),
    ("steering_list", {"limit": 1001}, INVALID_PARAMS, "limit"),
    ("steering_set", {"text": "   "}, INVALID_PARAMS, "text"),
    ("steering_set", {"text": "x" * 2001}, INVALID_PARAMS, "text"),
    ("steering_set", {"text": 5}, INVALID_PARAMS, "text"),
    ("reflection_trigger", {"now": True}, INVALID_PARAMS, "now"),
])
async def test_bad_params_and_unknown_versions(dispatcher: Dispatcher, method: str, params: Json, code: int,
                                               words: str) -> None:
    got_code, message = await error(dispatcher, method, params)
    assert got_code == code and words in message
