"""The fake model servers speak Ollama's and OpenAI's HTTP protocols well enough for the real clients."""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import ollama
import pytest

from tests.fakes.model_servers import FakeOllama, FakeOpenAI, Reply, fake_embedding

MODEL = "llama3.2:3b"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"evaluations": {"type": "array", "items": {"type": "string"}}},
    "required": ["evaluations"],
}
TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "files_write",
        "description": "Write a file.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "text": {"type": "string"}},
            "required": ["path", "text"],
        },
    },
}
WRITE_CALL: dict[str, Any] = {"name": "files_write", "arguments": {"path": "a", "text": "b"}}
MESSAGES = [{"role": "user", "content": "hi"}]


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        server.add_model(MODEL, context_length=8192)
        server.add_model("nomic-embed-text", family="nomic-bert", capabilities=("embedding",))
        yield server


@pytest.fixture
async def ollama_client(fake_ollama: FakeOllama) -> AsyncIterator[ollama.AsyncClient]:
    client = ollama.AsyncClient(host=fake_ollama.url)
    yield client
    await client.close()


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture
async def openai_http(fake_openai: FakeOpenAI) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=fake_openai.url, timeout=5) as client:
        yield client


async def read_sse(response: httpx.Response) -> list[Any]:
    """Parse an SSE body line by line; ``[DONE]`` is kept as the string."""
    events: list[Any] = []
    async for line in response.aiter_lines():
        if line.startswith("data: "):
            payload = line.removeprefix("data: ")
            events.append(payload if payload == "[DONE]" else json.loads(payload))
    return events


# --- Ollama ---------------------------------------------------------------------------------


async def test_ollama_chat_returns_scripted_content_and_records_format_and_tools(
    fake_ollama: FakeOllama, ollama_client: ollama.AsyncClient
) -> None:
    fake_ollama.script_chat(Reply(content='{"evaluations": []}'))

    response = await ollama_client.chat(
        model=MODEL, messages=MESSAGES, format=SCHEMA, tools=[TOOL], options={"temperature": 0}, stream=False
    )

    assert response.message.content == '{"evaluations": []}'
    assert response.done is True
    assert response.done_reason == "stop"
    assert response.eval_count is not None
    assert response.eval_count > 0
    [sent] = fake_ollama.chat_requests
    assert sent.method == "POST"
    assert sent.json["format"] == SCHEMA
    assert sent.json["tools"] == [TOOL]
    assert sent.json["stream"] is False
    assert sent.json["options"] == {"temperature": 0}
    assert sent.headers["content-type"] == "application/json"


async def test_ollama_chat_streams_ndjson_chunks(
    fake_ollama: FakeOllama, ollama_client: ollama.AsyncClient
) -> None:
    fake_ollama.script_chat(Reply(content="Hello there, this is streamed."))

    parts = [part async for part in await ollama_client.chat(model=MODEL, messages=MESSAGES, stream=True)]

    assert len(parts) >= 3
    assert all(not p.done for p in parts[:-1])
    assert parts[-1].done is True
    assert parts[-1].prompt_eval_count is not None
    assert "".join(p.message.content or "" for p in parts) == "Hello there, this is streamed."


async def test_ollama_stream_defaults_to_true_over_raw_http(fake_ollama: FakeOllama) -> None:
    async with httpx.AsyncClient(base_url=fake_ollama.url) as http:
        response = await http.post("/api/chat", json={"model": MODEL, "messages": MESSAGES})

    assert response.headers["content-type"] == "application/x-ndjson"
    lines = [json.loads(line) for line in response.text.splitlines()]
    assert lines[-1]["done"] is True
    assert "".join(line["message"]["content"] for line in lines) == "ok"


@pytest.mark.parametrize("stream", [False, True])
async def test_ollama_tool_calls_arrive_as_objects(
    fake_ollama: FakeOllama, ollama_client: ollama.AsyncClient, stream: bool
) -> None:
    fake_ollama.script_chat(Reply(tool_calls=[WRITE_CALL]))

    if stream:
        parts = [p async for p in await ollama_client.chat(MODEL, MESSAGES, tools=[TOOL], stream=True)]
        calls = [call for p in parts for call in p.message.tool_calls or []]
    else:
        response = await ollama_client.chat(MODEL, MESSAGES, tools=[TOOL], stream=False)
        calls = list(response.message.tool_calls or [])

    assert [(c.function.name, dict(c.function.arguments)) for c in calls] == [
        ("files_write", {"path": "a", "text": "b"})
    ]


async def test_ollama_unknown_model_is_404(ollama_client: ollama.AsyncClient) -> None:
    with pytest.raises(ollama.ResponseError) as caught:
        await ollama_client.chat(model="missing", messages=MESSAGES, stream=False)

    assert caught.value.status_code == 404
    assert caught.value.error == 'model "missing" not found, try pulling it first'


async def test_ollama_scripted_failure_then_queue_then_default(
    fake_ollama: FakeOllama, ollama_client: ollama.AsyncClient
) -> None:
    fake_ollama.script_chat(Reply(status=500, body="boom"), Reply(content="second"))
    fake_ollama.default_reply = Reply(content="fallback")

    with pytest.raises(ollama.ResponseError) as caught:
        await ollama_client.chat(MODEL, MESSAGES, stream=False)
    second = await ollama_client.chat(MODEL, MESSAGES, stream=False)
    third = await ollama_client.chat(MODEL, MESSAGES, stream=False)

    assert (caught.value.status_code, caught.value.error) == (500, "boom")
    assert (second.message.content, third.message.content) == ("second", "fallback")
    assert len(fake_ollama.chat_requests) == 3


async def test_ollama_responder_sees_the_request(
    fake_ollama: FakeOllama, ollama_client: ollama.AsyncClient
) -> None:
    fake_ollama.set_responder(lambda body: Reply(content=f"echo {body['messages'][-1]['content']}"))

    response = await ollama_client.chat(MODEL, [{"role": "user", "content": "ping"}], stream=False)

    assert response.message.content == "echo ping"


async def test_ollama_list_show_and_embed(ollama_client: ollama.AsyncClient) -> None:
    listed = await ollama_client.list()
    shown = await ollama_client.show(MODEL)
    embedded = await ollama_client.embed(model="nomic-embed-text", input=["alpha", "beta"])
    single = await ollama_client.embed(model="nomic-embed-text", input="alpha")

    assert [m.model for m in listed.models] == [MODEL, "nomic-embed-text:latest"]
    assert listed.models[0].details is not None
    assert listed.models[0].details.family == "llama"
    assert shown.modelinfo is not None
    assert shown.modelinfo["general.architecture"] == "llama"
    assert shown.modelinfo["llama.context_length"] == 8192
    assert shown.capabilities == ["completion", "tools"]
    assert len(embedded.embeddings) == 2
    assert embedded.embeddings[0] == single.embeddings[0] == pytest.approx(fake_embedding("alpha"))
    assert embedded.embeddings[0] != embedded.embeddings[1]
    assert len(embedded.embeddings[1]) == 384
    assert math.isclose(sum(x * x for x in embedded.embeddings[1]), 1.0)


async def test_ollama_show_unknown_model_is_404(ollama_client: ollama.AsyncClient) -> None:
    with pytest.raises(ollama.ResponseError) as caught:
        await ollama_client.show("missing")

    assert caught.value.status_code == 404


def test_ollama_version_and_root_from_sync_code(fake_ollama: FakeOllama) -> None:
    with httpx.Client(base_url=fake_ollama.url) as http:
        assert http.get("/").text == "Ollama is running"
        assert http.get("/api/version").json() == {"version": "0.6.0"}

    assert [(r.method, r.path) for r in fake_ollama.requests] == [("GET", "/"), ("GET", "/api/version")]
    assert fake_ollama.chat_requests == []


async def test_ollama_malformed_body_is_broken_json(fake_ollama: FakeOllama) -> None:
    fake_ollama.script_chat(Reply(content="x", malformed=True))

    async with httpx.AsyncClient(base_url=fake_ollama.url) as http:
        response = await http.post("/api/chat", json={"model": MODEL, "messages": MESSAGES, "stream": False})

    assert response.status_code == 200
    with pytest.raises(json.JSONDecodeError):
        json.loads(response.text)


async def test_delayed_reply_times_out_the_client_and_does_not_hang_shutdown() -> None:
    server = FakeOllama().start()
    server.add_model(MODEL)
    server.script_chat(Reply(delay=30.0, content="slow"))
    async with httpx.AsyncClient(base_url=server.url, timeout=0.2) as http:
        with pytest.raises(httpx.ReadTimeout):
            await http.post("/api/chat", json={"model": MODEL, "messages": MESSAGES, "stream": False})

    started = time.monotonic()
    server.stop()
    server.stop()

    assert time.monotonic() - started < 2.0
    with pytest.raises(RuntimeError, match="not running"):
        _ = server.url


async def test_stop_while_a_delayed_reply_is_in_flight() -> None:
    server = FakeOllama().start()
    server.add_model(MODEL)
    server.script_chat(Reply(delay=30.0, content="slow"))
    async with httpx.AsyncClient(base_url=server.url, timeout=5) as http:
        body = {"model": MODEL, "messages": MESSAGES, "stream": False}
        stopper = threading.Timer(0.2, server.stop)
        stopper.start()
        started = time.monotonic()
        response = await http.post("/api/chat", json=body)
        stopper.join()

    assert time.monotonic() - started < 2.0
    assert response.json()["message"]["content"] == "slow"


def test_wait_for_requests_blocks_until_they_arrive(fake_ollama: FakeOllama) -> None:
    def call_later() -> None:
        with httpx.Client(base_url=fake_ollama.url) as http:
            http.post("/api/chat", json={"model": MODEL, "messages": MESSAGES, "stream": False})

    caller = threading.Thread(target=call_later)
    caller.start()
    [seen] = fake_ollama.wait_for_requests(1, path="/api/chat", timeout=5)
    caller.join()

    assert seen.json["messages"] == MESSAGES
    with pytest.raises(TimeoutError):
        fake_ollama.wait_for_requests(2, path="/api/chat", timeout=0.05)


# --- OpenAI-compatible ----------------------------------------------------------------------


async def test_openai_completion_non_streaming(
    fake_openai: FakeOpenAI, openai_http: httpx.AsyncClient
) -> None:
    fake_openai.script_chat(Reply(content="hello"))

    response = await openai_http.post("/chat/completions", json={"model": "any", "messages": MESSAGES})

    body = response.json()
    assert body["object"] == "chat.completion"
    assert body["choices"][0]["message"] == {"role": "assistant", "content": "hello"}
    assert body["choices"][0]["finish_reason"] == "stop"
    assert (
        body["usage"]["total_tokens"] == body["usage"]["prompt_tokens"] + body["usage"]["completion_tokens"]
    )
    assert fake_openai.chat_requests[0].json["messages"] == MESSAGES


async def test_openai_tool_call_arguments_are_a_json_string(
    fake_openai: FakeOpenAI, openai_http: httpx.AsyncClient
) -> None:
    fake_openai.script_chat(Reply(tool_calls=[WRITE_CALL]))

    response = await openai_http.post(
        "/chat/completions", json={"model": "m", "messages": MESSAGES, "tools": [TOOL]}
    )

    choice = response.json()["choices"][0]
    [call] = choice["message"]["tool_calls"]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] is None
    assert call["type"] == "function"
    assert call["id"].startswith("call_")
    assert call["function"]["name"] == "files_write"
    assert json.loads(call["function"]["arguments"]) == {"path": "a", "text": "b"}
    assert fake_openai.chat_requests[0].json["tools"] == [TOOL]


async def test_openai_sse_stream_with_content_tool_deltas_and_usage(
    fake_openai: FakeOpenAI, openai_http: httpx.AsyncClient
) -> None:
    fake_openai.script_chat(Reply(content="Let me write that.", tool_calls=[WRITE_CALL]))
    request = {"model": "m", "messages": MESSAGES, "stream": True, "stream_options": {"include_usage": True}}

    async with openai_http.stream("POST", "/chat/completions", json=request) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        events = await read_sse(response)

    assert events[-1] == "[DONE]"
    chunks = events[:-1]
    assert {c["object"] for c in chunks} == {"chat.completion.chunk"}
    *choice_chunks, usage_chunk = chunks
    assert usage_chunk["choices"] == []
    assert usage_chunk["usage"]["completion_tokens"] > 0
    deltas = [c["choices"][0]["delta"] for c in choice_chunks]
    assert deltas[0]["role"] == "assistant"
    assert "".join(d.get("content") or "" for d in deltas) == "Let me write that."
    tool_deltas = [t for d in deltas for t in d.get("tool_calls", [])]
    assert tool_deltas[0]["id"].startswith("call_")
    assert tool_deltas[0]["function"]["name"] == "files_write"
    assert {t["index"] for t in tool_deltas} == {0}
    arguments = "".join(t["function"].get("arguments", "") for t in tool_deltas)
    assert json.loads(arguments) == {"path": "a", "text": "b"}
    assert len(tool_deltas) > 2
    assert choice_chunks[-1]["choices"][0]["finish_reason"] == "tool_calls"


async def test_openai_stream_without_usage_option_has_no_usage_chunk(openai_http: httpx.AsyncClient) -> None:
    request = {"model": "m", "messages": MESSAGES, "stream": True}

    async with openai_http.stream("POST", "/chat/completions", json=request) as response:
        events = await read_sse(response)

    assert all("usage" not in e and e["choices"] for e in events[:-1])
    assert events[-2]["choices"][0]["finish_reason"] == "stop"


async def test_openai_rate_limit_carries_retry_after(
    fake_openai: FakeOpenAI, openai_http: httpx.AsyncClient
) -> None:
    fake_openai.script_chat(Reply(status=429, error="Rate limit reached", headers={"Retry-After": "1"}))

    response = await openai_http.post("/chat/completions", json={"model": "m", "messages": MESSAGES})

    assert response.status_code == 429
    assert response.headers["retry-after"] == "1"
    assert response.json()["error"]["message"] == "Rate limit reached"
    assert response.json()["error"]["type"] == "rate_limit_error"


async def test_openai_api_key_is_checked() -> None:
    with FakeOpenAI(require_api_key="sk-test") as server:
        server.add_model("gpt-test")
        async with httpx.AsyncClient(base_url=server.url) as http:
            wrong = await http.get("/models", headers={"Authorization": "Bearer sk-wrong"})
            missing = await http.post("/chat/completions", json={"model": "gpt-test", "messages": MESSAGES})
            right = await http.get("/models", headers={"Authorization": "Bearer sk-test"})

    assert wrong.status_code == missing.status_code == 401
    assert wrong.json()["error"]["code"] == "invalid_api_key"
    assert "sk-test" not in wrong.text
    assert right.json() == {
        "object": "list",
        "data": [
            {"id": "gpt-test", "object": "model", "created": 1_700_000_000, "owned_by": "organization-owner"}
        ],
    }
    assert len(server.requests) == 3


async def test_openai_unknown_model_is_404_once_models_are_registered(
    fake_openai: FakeOpenAI, openai_http: httpx.AsyncClient
) -> None:
    fake_openai.add_model("known")

    response = await openai_http.post("/chat/completions", json={"model": "other", "messages": MESSAGES})

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "model_not_found"


async def test_openai_json_schema_rejected_but_json_object_schema_accepted() -> None:
    with FakeOpenAI(reject_json_schema=True) as server:
        server.script_chat(Reply(content='{"evaluations": []}'))
        strict = {"type": "json_schema", "json_schema": {"name": "out", "schema": SCHEMA}}
        loose = {"type": "json_object", "schema": SCHEMA}
        async with httpx.AsyncClient(base_url=server.url) as http:
            rejected = await http.post(
                "/chat/completions", json={"model": "m", "messages": MESSAGES, "response_format": strict}
            )
            accepted = await http.post(
                "/chat/completions", json={"model": "m", "messages": MESSAGES, "response_format": loose}
            )

    assert rejected.status_code == 500
    assert rejected.json()["error"]["type"] == "server_error"
    assert accepted.json()["choices"][0]["message"]["content"] == '{"evaluations": []}'
    assert [r.json["response_format"] for r in server.chat_requests] == [strict, loose]


@pytest.mark.parametrize("stream", [False, True])
async def test_openai_malformed_body(
    fake_openai: FakeOpenAI, openai_http: httpx.AsyncClient, stream: bool
) -> None:
    fake_openai.script_chat(Reply(content="some longer content here", malformed=True))
    request = {"model": "m", "messages": MESSAGES, "stream": stream}

    async with openai_http.stream("POST", "/chat/completions", json=request) as response:
        await response.aread()

    assert response.status_code == 200
    with pytest.raises(json.JSONDecodeError):
        if stream:
            [json.loads(line.removeprefix("data: ")) for line in response.text.splitlines() if line]
        else:
            json.loads(response.text)
    assert "[DONE]" not in response.text
