"""The JSON-RPC framing (``rpc/protocol.py``) and parameter binding (``rpc/methods.py``), without HTTP."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openhuman_desktop.errors import Conflict, InvalidInput, LlmUnavailable, NotFound, StoreUnavailable
from openhuman_desktop.rpc.methods import Method, MethodTable, Param, bind
from openhuman_desktop.rpc.protocol import (
    CONFLICT,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    MAX_BATCH,
    MAX_MESSAGE,
    METHOD_NOT_FOUND,
    NOT_FOUND,
    PARSE_ERROR,
    UNAVAILABLE,
    Dispatcher,
    RpcError,
    map_exception,
)


class Recorder:
    """A handler that records its calls and answers, or raises, what the test says."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.raises: BaseException | None = None

    async def __call__(self, method: str, params: dict[str, Any] | list[Any]) -> Any:
        self.calls.append((method, params))
        if self.raises is not None:
            raise self.raises
        return {"method": method, "params": params}


@pytest.fixture
def handler() -> Recorder:
    return Recorder()


@pytest.fixture
def dispatcher(handler: Recorder) -> Dispatcher:
    return Dispatcher(handler)


async def answer(dispatcher: Dispatcher, document: Any) -> Any:
    raw = document if isinstance(document, bytes) else json.dumps(document).encode()
    return await dispatcher.handle_body(raw)


def request(method: str = "openhuman.x", params: Any = ..., request_id: Any = 1) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not ...:
        body["params"] = params
    if request_id is not ...:
        body["id"] = request_id
    return body


def code_of(response: Any) -> int:
    assert isinstance(response, dict) and "error" in response, response
    assert "result" not in response
    return int(response["error"]["code"])


# --- Dispatcher: single requests ------------------------------------------------------------------------


async def test_a_valid_request_reaches_the_handler(dispatcher: Dispatcher, handler: Recorder) -> None:
    response = await answer(dispatcher, request(params={"a": 1}, request_id="abc"))
    assert response == {"jsonrpc": "2.0", "result": {"method": "openhuman.x", "params": {"a": 1}}, "id": "abc"}
    assert handler.calls == [("openhuman.x", {"a": 1})]


async def test_missing_params_mean_an_empty_object(dispatcher: Dispatcher, handler: Recorder) -> None:
    await answer(dispatcher, request())
    await answer(dispatcher, request(params=[1, 2]))
    assert handler.calls == [("openhuman.x", {}), ("openhuman.x", [1, 2])]


@pytest.mark.parametrize("request_id", [0, -1, 1.5, "", "x", None, 2**70])
async def test_ids_are_echoed(dispatcher: Dispatcher, request_id: Any) -> None:
    response = await answer(dispatcher, request(request_id=request_id))
    assert response["id"] == request_id
    assert "result" in response


@pytest.mark.parametrize("body", [
    b"", b" ", b"{", b"nul", b"[1,", b"\xff\xfe\x00", b"{'a': 1}", b'{"a": 1,}',
    b"NaN", b"[Infinity]", b'{"jsonrpc": "2.0", "method": "m", "id": -Infinity}',
    b'{"jsonrpc": "2.0", "method": "m", "params": {"t": "\\udc00"}, "id": 1}',
    b'{"jsonrpc": "2.0", "method": "m\\ud800", "id": 1}',
    b'{"\\ud83d": 1}',
    b"[" * 100_000, b'{"a":' * 10_000,
    # Numbers too large for a float parse to infinity: they would be echoed as Infinity, which is not JSON.
    b'{"jsonrpc": "2.0", "method": "m", "id": 1e999}', b'{"jsonrpc": "2.0", "method": "m", "id": -1E+400}',
    b'{"jsonrpc": "2.0", "method": "m", "params": [1e999], "id": 1}',
])
async def test_parse_errors(dispatcher: Dispatcher, handler: Recorder, body: bytes) -> None:
    response = await dispatcher.handle_body(body)
    assert code_of(response) == PARSE_ERROR
    assert response["id"] is None
    assert handler.calls == []
    json.dumps(response, allow_nan=False)


async def test_a_surrogate_pair_is_fine(dispatcher: Dispatcher, handler: Recorder) -> None:
    response = await dispatcher.handle_body(b'{"jsonrpc": "2.0", "method": "m", "params": ["\\ud83d\\ude00"], "id": 1}')
    assert "result" in response
    assert handler.calls == [("m", ["\U0001f600"])]


@pytest.mark.parametrize(("document", "expected_id"), [
    (1, None), ("x", None), (None, None), (True, None), ({}, None),
    ({"method": "m", "id": 1}, 1),
    ({"jsonrpc": "1.0", "method": "m", "id": 2}, 2),
    ({"jsonrpc": 2.0, "method": "m", "id": 3}, 3),
    ({"jsonrpc": "2.0", "id": 4}, 4),
    ({"jsonrpc": "2.0", "method": 5, "id": 5}, 5),
    ({"jsonrpc": "2.0", "method": "", "id": 6}, 6),
    ({"jsonrpc": "2.0", "method": "m", "params": "x", "id": 7}, 7),
    ({"jsonrpc": "2.0", "method": "m", "params": None, "id": 8}, 8),
    ({"jsonrpc": "2.0", "method": "m", "params": 3, "id": 9}, 9),
    ({"jsonrpc": "2.0", "method": "m", "id": {"a": 1}}, None),
    ({"jsonrpc": "2.0", "method": "m", "id": [1]}, None),
    ({"jsonrpc": "2.0", "method": "m", "id": False}, None),
])
async def test_invalid_requests(dispatcher: Dispatcher, handler: Recorder, document: Any, expected_id: Any) -> None:
    response = await answer(dispatcher, document)
    assert code_of(response) == INVALID_REQUEST
    assert response["id"] == expected_id
    assert handler.calls == []


async def test_an_invalid_request_without_id_is_still_answered(dispatcher: Dispatcher) -> None:
    response = await answer(dispatcher, {"jsonrpc": "2.0", "method": 1})
    assert code_of(response) == INVALID_REQUEST


async def test_notifications_run_but_get_no_answer(dispatcher: Dispatcher, handler: Recorder) -> None:
    assert await answer(dispatcher, request(request_id=...)) is None
    handler.raises = NotFound("gone")
    assert await answer(dispatcher, request("openhuman.y", request_id=...)) is None
    assert [call[0] for call in handler.calls] == ["openhuman.x", "openhuman.y"]


# --- Dispatcher: errors from the handler -----------------------------------------------------------------


@pytest.mark.parametrize(("exc", "code", "text"), [
    (RpcError(METHOD_NOT_FOUND, "Method not found: 'm'"), METHOD_NOT_FOUND, "Method not found: 'm'"),
    (InvalidInput("title", "must not be empty"), INVALID_PARAMS, "Invalid params: title: must not be empty"),
    (NotFound("There is no task with id 'x'."), NOT_FOUND, "There is no task with id 'x'."),
    (Conflict("System tasks cannot be removed."), CONFLICT, "System tasks cannot be removed."),
    (StoreUnavailable("The database is locked."), UNAVAILABLE, "The database is locked."),
    (LlmUnavailable("Ollama is not running."), UNAVAILABLE, "Ollama is not running."),
])
async def test_service_errors_map_to_codes(dispatcher: Dispatcher, handler: Recorder, exc: Exception, code: int,
                                           text: str) -> None:
    handler.raises = exc
    response = await answer(dispatcher, request(request_id=7))
    assert response == {"jsonrpc": "2.0", "error": {"code": code, "message": text}, "id": 7}


@pytest.mark.parametrize(
    "exc", [KeyError("secret"), ValueError("boom /etc/passwd"), RuntimeError(), ZeroDivisionError()],
    ids=["KeyError", "ValueError", "RuntimeError", "ZeroDivisionError"],
)
async def test_bugs_become_internal_errors_without_details(dispatcher: Dispatcher, handler: Recorder,
                                                           exc: Exception, caplog: pytest.LogCaptureFixture) -> None:
    handler.raises = exc
    response = await answer(dispatcher, request())
    assert code_of(response) == INTERNAL_ERROR
    message = response["error"]["message"]
    assert "secret" not in message and "boom" not in message and "Traceback" not in message
    assert any(record.exc_info for record in caplog.records), "the details go to the log"


async def test_long_messages_are_cut(dispatcher: Dispatcher, handler: Recorder) -> None:
    handler.raises = NotFound("There is no task with id '" + "x" * 100_000 + "'.")
    message = (await answer(dispatcher, request()))["error"]["message"]
    assert len(message) == MAX_MESSAGE
    assert message.startswith("There is no task with id 'xxx")
    assert map_exception(InvalidInput("p", "y" * 10_000))[1].startswith("Invalid params: p: yyy")


# --- Dispatcher: batches ------------------------------------------------------------------------------


async def test_a_batch_answers_every_request_in_order(dispatcher: Dispatcher, handler: Recorder) -> None:
    batch = [request("a", request_id=1), 5, request("b", request_id=...), {"jsonrpc": "2.0"},
             request("c", request_id="three")]
    response = await answer(dispatcher, batch)
    assert isinstance(response, list)
    assert [item["id"] for item in response] == [1, None, None, "three"]
    assert "result" in response[0] and "result" in response[3]
    assert code_of(response[1]) == INVALID_REQUEST
    assert code_of(response[2]) == INVALID_REQUEST
    assert [call[0] for call in handler.calls] == ["a", "b", "c"]


async def test_a_batch_of_notifications_has_no_answer(dispatcher: Dispatcher, handler: Recorder) -> None:
    assert await answer(dispatcher, [request("a", request_id=...), request("b", request_id=...)]) is None
    assert len(handler.calls) == 2


async def test_an_empty_batch_is_one_invalid_request(dispatcher: Dispatcher) -> None:
    response = await answer(dispatcher, [])
    assert isinstance(response, dict)
    assert code_of(response) == INVALID_REQUEST


async def test_batch_size_limit(dispatcher: Dispatcher, handler: Recorder) -> None:
    response = await answer(dispatcher, [request(request_id=i) for i in range(MAX_BATCH)])
    assert len(response) == MAX_BATCH
    handler.calls.clear()
    response = await answer(dispatcher, [request(request_id=i) for i in range(MAX_BATCH + 1)])
    assert code_of(response) == INVALID_REQUEST
    assert handler.calls == []


async def test_a_nested_batch_is_invalid(dispatcher: Dispatcher, handler: Recorder) -> None:
    response = await answer(dispatcher, [[request()]])
    assert len(response) == 1
    assert code_of(response[0]) == INVALID_REQUEST
    assert handler.calls == []


# --- Dispatcher: any JSON at all ------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)
request_like = st.fixed_dictionaries(
    {}, optional={
        "jsonrpc": st.sampled_from(["2.0", "1.0", 2]) | json_values,
        "method": st.sampled_from(["openhuman.x", ""]) | json_values,
        "params": json_values,
        "id": json_values,
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(document=json_values | request_like | st.lists(request_like | json_values, max_size=8))
async def test_any_json_gets_a_well_formed_answer(document: Any) -> None:
    dispatcher = Dispatcher(Recorder())
    response = await dispatcher.handle_body(json.dumps(document).encode())
    answers = response if isinstance(response, list) else [] if response is None else [response]
    if isinstance(document, list) and document:
        assert response is None or isinstance(response, list)
    for item in answers:
        assert set(item) in ({"jsonrpc", "result", "id"}, {"jsonrpc", "error", "id"})
        assert item["jsonrpc"] == "2.0"
        if "error" in item:
            assert item["error"]["code"] in {PARSE_ERROR, INVALID_REQUEST}
    json.dumps(response, allow_nan=False)


# --- bind ---------------------------------------------------------------------------------------------

DECLARED = (
    Param("task_id", "string", required=True), Param("enabled", "boolean"), Param("limit", "integer"),
    Param("before", "number"), Param("anything", "any"),
)


def test_bind_by_name_and_by_position() -> None:
    assert bind(DECLARED, {"task_id": "t"}) == {"task_id": "t"}
    assert bind(DECLARED, ["t", True, 5, 1.5, [1]]) == {"task_id": "t", "enabled": True, "limit": 5,
                                                         "before": 1.5, "anything": [1]}
    assert bind(DECLARED, ["t", None, None]) == {"task_id": "t", "enabled": None, "limit": None}
    assert bind((), {}) == {}
    assert bind((), []) == {}


def test_bind_numbers() -> None:
    assert bind(DECLARED, {"task_id": "t", "before": 7}) == {"task_id": "t", "before": 7.0}
    assert bind(DECLARED, {"task_id": "t", "before": 10**30})["before"] == 1e30


@pytest.mark.parametrize(("params", "named"), [
    ({}, "task_id"),
    ([], "task_id"),
    ({"task_id": None}, "task_id"),
    ([None], "task_id"),
    ({"task_id": 1}, "task_id"),
    ({"task_id": ["t"]}, "task_id"),
    ({"task_id": "t", "enabled": 1}, "enabled"),
    ({"task_id": "t", "enabled": "true"}, "enabled"),
    ({"task_id": "t", "limit": True}, "limit"),
    ({"task_id": "t", "limit": 1.0}, "limit"),
    ({"task_id": "t", "limit": "5"}, "limit"),
    ({"task_id": "t", "before": "now"}, "before"),
    ({"task_id": "t", "before": False}, "before"),
    ({"task_id": "t", "before": 10**400}, "before"),
    ({"task_id": "t", "before": float("inf")}, "before"),
    ({"task_id": "t", "before": float("nan")}, "before"),
    ({"task_id": "t", "colour": "red"}, "colour"),
    (["t", True, 5, 1.5, None, "surplus"], "params"),
])
def test_bind_refuses_with_the_parameter_named(params: Any, named: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        bind(DECLARED, params)
    assert caught.value.param == named
    assert named in str(caught.value)


def test_an_unknown_parameter_is_named_briefly() -> None:
    with pytest.raises(InvalidInput) as caught:
        bind(DECLARED, {"task_id": "t", "z" * 100_000: 1})
    assert len(str(caught.value)) < 300
    assert "task_id, enabled, limit, before, anything" in str(caught.value)
    with pytest.raises(InvalidInput, match="no parameters"):
        bind((), {"x": 1})


async def test_method_table() -> None:
    seen: list[dict[str, Any]] = []

    async def call(params: dict[str, Any]) -> Any:
        seen.append(params)
        return "done"

    table = MethodTable()
    table.add({"openhuman.b": Method((Param("title", "string", required=True),), call)})
    table.add({"openhuman.a": Method((), call)})
    assert table.names == ["openhuman.a", "openhuman.b"]
    assert await table("openhuman.b", ["hello"]) == "done"
    assert seen == [{"title": "hello"}]
    with pytest.raises(RpcError) as caught:
        await table("openhuman." + "q" * 10_000, {})
    assert caught.value.code == METHOD_NOT_FOUND
    assert len(caught.value.message) < 200
    with pytest.raises(InvalidInput):
        await table("openhuman.b", {})
    assert len(seen) == 1


async def test_dispatcher_with_a_method_table() -> None:
    async def call(params: dict[str, Any]) -> Any:
        return params

    table = MethodTable()
    table.add({"openhuman.echo": Method((Param("text", "string", required=True),), call)})
    dispatcher = Dispatcher(table)
    assert (await answer(dispatcher, request("openhuman.echo", {"text": "hi"})))["result"] == {"text": "hi"}
    error = (await answer(dispatcher, request("openhuman.echo", {"text": 3})))["error"]
    assert error["code"] == INVALID_PARAMS and "text" in error["message"]
    assert code_of(await answer(dispatcher, request("openhuman.nope"))) == METHOD_NOT_FOUND


async def test_the_largest_finite_numbers_still_parse(dispatcher: Dispatcher) -> None:
    response = await dispatcher.handle_body(b'{"jsonrpc": "2.0", "method": "m", "params": [1.7e308], "id": 5e-324}')
    assert response["id"] == 5e-324
    assert response["result"]["params"] == [1.7e308]
