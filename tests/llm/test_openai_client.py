"""OpenAICompatClient: request shapes, schema fallback, streaming, errors, 429 retries and key hygiene."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest

from openhuman_desktop.config import ModelSettings, Settings
from openhuman_desktop.errors import LlmReplyError, LlmUnavailable
from openhuman_desktop.llm import (
    ChatRequest,
    Message,
    OllamaClient,
    OpenAICompatClient,
    RetryPolicy,
    ToolCall,
    ToolSpec,
    make_client,
)
from openhuman_desktop.llm.limits import DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_TOKENS
from openhuman_desktop.llm.openai_compat import JSON_OBJECT, JSON_OBJECT_WITH_SCHEMA, JSON_SCHEMA
from tests.fakes.model_servers import FakeOpenAI, Reply

KEY = "sk-test-S3CRET-0123456789abcdef"
ENV = {"OPENAI_API_KEY": KEY}
BASE = "http://llm.test/v1"
MODEL = "gpt-test"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"evaluations": {"type": "array", "items": {"type": "object"}}},
    "required": ["evaluations"],
}
WRITE_TOOL = ToolSpec(
    name="files_write",
    description="Write a file.",
    parameters={"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
)
Handler = Callable[[httpx.Request], httpx.Response]


def hi(**kwargs: Any) -> ChatRequest:
    return ChatRequest(messages=[Message("system", "Be brief."), Message("user", "hi")], **kwargs)


def completion(content: str | None = "ok", tool_calls: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 3, "total_tokens": 14},
    }


def error_body(message: str, code: str | None = None) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error", "param": None, "code": code}}


class FakeSleep:
    """Records back-off delays instead of waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


class Script:
    """A MockTransport handler: answers from a list (the last answer repeats) and records requests."""

    def __init__(self, *responses: httpx.Response | Exception) -> None:
        self.responses = list(responses) or [httpx.Response(200, json=completion())]
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        index = min(len(self.requests), len(self.responses)) - 1
        answer = self.responses[index]
        if isinstance(answer, Exception):
            raise answer
        return answer

    @property
    def bodies(self) -> list[Any]:
        return [json.loads(r.content) if r.content else None for r in self.requests]


@pytest.fixture
async def client_for() -> AsyncIterator[Callable[..., OpenAICompatClient]]:
    """Build clients on httpx.MockTransport; every httpx client is closed at teardown."""
    opened: list[httpx.AsyncClient] = []

    def build(handler: Handler, **kwargs: Any) -> OpenAICompatClient:
        http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
        opened.append(http)
        kwargs.setdefault("api_key_env", "OPENAI_API_KEY")
        kwargs.setdefault("environ", ENV)
        kwargs.setdefault("sleep", FakeSleep())
        return OpenAICompatClient(MODEL, kwargs.pop("base_url", BASE), http=http, **kwargs)

    yield build
    for http in opened:
        await http.aclose()


@pytest.fixture
def closed_port() -> int:
    """A local port that nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(require_api_key=KEY) as server:
        yield server


@pytest.fixture
async def e2e_client(fake_openai: FakeOpenAI) -> AsyncIterator[OpenAICompatClient]:
    client = OpenAICompatClient(MODEL, fake_openai.url, api_key_env="OPENAI_API_KEY", environ=ENV)
    yield client
    await client.aclose()


# -- request and reply shapes (MockTransport) -------------------------------------------------------


async def test_chat_sends_messages_and_reads_the_answer(
    client_for: Callable[..., OpenAICompatClient],
) -> None:
    script = Script()
    client = client_for(script)
    response = await client.chat(hi(temperature=0.2))
    assert response.content == "ok"
    assert (response.prompt_tokens, response.completion_tokens) == (11, 3)
    assert response.tool_calls == ()
    request = script.requests[0]
    assert request.method == "POST"
    assert str(request.url) == f"{BASE}/chat/completions"
    assert request.headers["Authorization"] == f"Bearer {KEY}"
    assert script.bodies[0] == {
        "model": MODEL,
        "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}],
        "stream": False,
        "temperature": 0.2,
        "max_tokens": DEFAULT_MAX_TOKENS,  # no request without a cap
    }


async def test_no_api_key_env_sends_no_authorization(client_for: Callable[..., OpenAICompatClient]) -> None:
    script = Script()
    await client_for(script, api_key_env=None).chat(hi())
    assert "Authorization" not in script.requests[0].headers


async def test_tool_calls_both_ways(client_for: Callable[..., OpenAICompatClient]) -> None:
    call = {
        "id": "call_9",
        "type": "function",
        "function": {"name": "files_write", "arguments": '{"path": "b"}'},
    }
    script = Script(httpx.Response(200, json=completion(None, [call])))
    client = client_for(script)
    request = ChatRequest(
        messages=[
            Message("user", "write a"),
            Message("assistant", "", tool_calls=(ToolCall("files_write", {"path": "a"}, id="call_1"),)),
            Message("tool", "written", tool_name="files_write", tool_call_id="call_1"),
        ],
        tools=[WRITE_TOOL],
    )
    response = await client.chat(request)
    assert response.content == ""
    assert response.tool_calls == (ToolCall("files_write", {"path": "b"}, id="call_9"),)
    body = script.bodies[0]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "files_write",
                "description": "Write a file.",
                "parameters": dict(WRITE_TOOL.parameters),
            },
        }
    ]
    assert body["messages"][1] == {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "files_write", "arguments": '{"path": "a"}'},
            }
        ],
    }
    assert body["messages"][2] == {"role": "tool", "content": "written", "tool_call_id": "call_1"}


async def test_tool_results_without_ids_answer_the_calls_in_order(
    client_for: Callable[..., OpenAICompatClient],
) -> None:
    script = Script()
    calls = (ToolCall("files_read", {"path": "a"}), ToolCall("files_write", {"path": "b"}))
    await client_for(script).chat(
        ChatRequest(
            messages=[
                Message("user", "go"),
                Message("assistant", "", tool_calls=calls),  # e.g. produced by Ollama, which has no ids
                Message("tool", "wrote", tool_name="files_write"),
                Message("tool", "read", tool_name="files_read"),
            ]
        )
    )
    messages = script.bodies[0]["messages"]
    ids = [c["id"] for c in messages[1]["tool_calls"]]
    assert len(set(ids)) == 2
    assert messages[2]["tool_call_id"] == ids[1]
    assert messages[3]["tool_call_id"] == ids[0]


async def test_json_schema_is_sent_as_response_format(client_for: Callable[..., OpenAICompatClient]) -> None:
    script = Script()
    client = client_for(script)
    await client.chat(hi(json_schema=SCHEMA, schema_name="task evaluations"))
    assert script.bodies[0]["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "task_evaluations", "schema": SCHEMA, "strict": False},
    }
    assert client.schema_level == JSON_SCHEMA


async def test_rejected_json_schema_falls_back_step_by_step_and_remembers(
    client_for: Callable[..., OpenAICompatClient],
) -> None:
    script = Script(
        httpx.Response(500, json=error_body("Unsupported response_format type: json_schema")),
        httpx.Response(422, json={"detail": "schema not supported"}),
        httpx.Response(200, json=completion('{"evaluations": []}')),
    )
    client = client_for(script)
    response = await client.chat(hi(json_schema=SCHEMA))
    assert response.content == '{"evaluations": []}'
    formats = [body["response_format"] for body in script.bodies]
    assert formats == [
        {"type": "json_schema", "json_schema": {"name": "answer", "schema": SCHEMA, "strict": False}},
        {"type": "json_object", "schema": SCHEMA},
        {"type": "json_object"},
    ]
    last = script.bodies[2]["messages"]
    assert [m["role"] for m in last] == ["system", "system", "user"]
    assert json.dumps(SCHEMA) in last[1]["content"]
    assert client.schema_level == JSON_OBJECT

    await client.chat(hi(json_schema=SCHEMA))  # the next call starts with what worked
    assert len(script.requests) == 4
    assert script.bodies[3]["response_format"] == {"type": "json_object"}


async def test_json_object_with_schema_is_remembered(client_for: Callable[..., OpenAICompatClient]) -> None:
    script = Script(
        httpx.Response(400, json=error_body("bad response_format")), httpx.Response(200, json=completion())
    )
    client = client_for(script)
    await client.chat(hi(json_schema=SCHEMA))
    assert client.schema_level == JSON_OBJECT_WITH_SCHEMA
    await client.chat(hi())  # requests without a schema carry no response_format at all
    assert "response_format" not in script.bodies[2]


async def test_fallback_that_never_works_reports_the_error_and_forgets_nothing(
    client_for: Callable[..., OpenAICompatClient],
) -> None:
    script = Script(httpx.Response(500, json=error_body("model crashed")))
    client = client_for(script)
    with pytest.raises(LlmUnavailable) as info:
        await client.chat(hi(json_schema=SCHEMA))
    assert str(info.value) == f"{BASE} failed (HTTP 500): model crashed."
    assert len(script.requests) == 3
    assert client.schema_level == JSON_SCHEMA


async def test_no_fallback_without_a_schema(client_for: Callable[..., OpenAICompatClient]) -> None:
    script = Script(httpx.Response(500, json=error_body("boom")))
    with pytest.raises(LlmUnavailable, match="HTTP 500"):
        await client_for(script).chat(hi())
    assert len(script.requests) == 1


# -- errors (MockTransport) -------------------------------------------------------------------------


@pytest.mark.parametrize("status", [401, 403])
async def test_refused_key(client_for: Callable[..., OpenAICompatClient], status: int) -> None:
    script = Script(httpx.Response(status, json=error_body(f"Incorrect API key provided: {KEY}")))
    with pytest.raises(LlmUnavailable) as info:
        await client_for(script).chat(hi())
    assert (
        str(info.value) == f"{BASE} refused the API key in $OPENAI_API_KEY (HTTP {status}) — check the key."
    )


async def test_key_required_but_not_configured(client_for: Callable[..., OpenAICompatClient]) -> None:
    script = Script(httpx.Response(401, json=error_body("You didn't provide an API key.")))
    with pytest.raises(LlmUnavailable, match=r"requires an API key \(HTTP 401\) — set api_key_env"):
        await client_for(script, api_key_env=None).chat(hi())


@pytest.mark.parametrize("environ", [{}, {"OPENAI_API_KEY": "  "}])
async def test_missing_key_variable(
    client_for: Callable[..., OpenAICompatClient], environ: dict[str, str]
) -> None:
    script = Script()
    client = client_for(script, environ=environ, source="[models.reasoning]")
    for call in (client.chat(hi()), client.check()):
        with pytest.raises(LlmUnavailable) as info:
            await call
        assert str(info.value) == (
            "The environment variable OPENAI_API_KEY (api_key_env of [models.reasoning]) is not set."
        )
    assert script.requests == []


async def test_unknown_model(client_for: Callable[..., OpenAICompatClient]) -> None:
    body = error_body(
        f"The model `{MODEL}` does not exist or you do not have access to it.", "model_not_found"
    )
    with pytest.raises(LlmUnavailable) as info:
        await client_for(Script(httpx.Response(404, json=body))).chat(hi())
    assert str(info.value) == f'{BASE} does not know the model "{MODEL}" (HTTP 404) — check its name.'


async def test_wrong_base_url(client_for: Callable[..., OpenAICompatClient]) -> None:
    with pytest.raises(LlmUnavailable) as info:
        await client_for(Script(httpx.Response(404, text="404 page not found"))).chat(hi())
    assert str(info.value) == (
        f"{BASE}/chat/completions was not found (HTTP 404) — "
        "base_url should be the API root, e.g. ending in /v1."
    )


async def test_server_error_is_short(client_for: Callable[..., OpenAICompatClient]) -> None:
    long_message = "upstream exploded\n" + "x" * 1000
    with pytest.raises(LlmUnavailable) as info:
        await client_for(Script(httpx.Response(503, json=error_body(long_message)))).chat(hi())
    text = str(info.value)
    assert text.startswith(f"{BASE} failed (HTTP 503): upstream exploded x")
    assert len(text) < 300
    assert "\n" not in text


async def test_other_client_error(client_for: Callable[..., OpenAICompatClient]) -> None:
    with pytest.raises(LlmUnavailable) as info:
        await client_for(Script(httpx.Response(400, json=error_body("context too long")))).chat(hi())
    assert str(info.value) == f"{BASE} rejected the request (HTTP 400): context too long."


async def test_server_messages_never_echo_the_key(client_for: Callable[..., OpenAICompatClient]) -> None:
    with pytest.raises(LlmUnavailable) as info:
        await client_for(Script(httpx.Response(500, text=f"bad header Bearer {KEY}"))).chat(hi())
    assert KEY not in str(info.value)
    assert "Bearer ***" in str(info.value)


async def test_connect_error(client_for: Callable[..., OpenAICompatClient]) -> None:
    script = Script(httpx.ConnectError("[Errno 111] Connection refused"))
    with pytest.raises(LlmUnavailable) as info:
        await client_for(script).chat(hi())
    assert str(info.value) == f"Cannot reach {BASE} ([Errno 111] Connection refused)."
    assert isinstance(info.value.__cause__, httpx.ConnectError)


async def test_transport_timeout(client_for: Callable[..., OpenAICompatClient]) -> None:
    script = Script(httpx.ReadTimeout("no answer"))
    with pytest.raises(LlmUnavailable) as info:
        await client_for(script, timeout=30).chat(hi())
    assert str(info.value) == f"{BASE} did not answer within 30 s."


async def test_asyncio_timeout_around_a_stalled_server(client_for: Callable[..., OpenAICompatClient]) -> None:
    async def stall(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(30)
        return httpx.Response(200, json=completion())

    with pytest.raises(LlmUnavailable, match=r"did not answer within 0\.1 s"):
        await client_for(stall).chat(hi(timeout=0.1))


@pytest.mark.parametrize(
    "body",
    [
        b'{"choices": [',
        b"<html>gateway</html>",
        b"[1, 2]",
        b'{"choices": []}',
        b'{"choices": [{"message": {"role": "assistant", "content": "x", '
        b'"tool_calls": [{"function": {"name": "f", "arguments": "{not json"}}]}}]}',
    ],
)
async def test_unusable_bodies(client_for: Callable[..., OpenAICompatClient], body: bytes) -> None:
    with pytest.raises(LlmReplyError):
        await client_for(Script(httpx.Response(200, content=body))).chat(hi())


# -- HTTP 429 (MockTransport, fake sleep) ----------------------------------------------------------


async def test_429_is_retried_after_2_4_8_seconds(client_for: Callable[..., OpenAICompatClient]) -> None:
    sleep = FakeSleep()
    script = Script(httpx.Response(429, json=error_body("slow down")))
    with pytest.raises(LlmUnavailable) as info:
        await client_for(script, sleep=sleep).chat(hi())
    assert str(info.value) == f"{BASE} is rate limiting requests (HTTP 429); tried 4 times."
    assert sleep.delays == [2.0, 4.0, 8.0]
    assert len(script.requests) == 4


async def test_429_honours_retry_after(client_for: Callable[..., OpenAICompatClient]) -> None:
    sleep = FakeSleep()
    script = Script(
        httpx.Response(429, headers={"Retry-After": "5"}),
        httpx.Response(429, headers={"Retry-After": "3600"}),
        httpx.Response(429),
        httpx.Response(200, json=completion("finally")),
    )
    response = await client_for(script, sleep=sleep).chat(hi())
    assert response.content == "finally"
    assert sleep.delays == [5.0, 60.0, 8.0]


async def test_429_with_a_custom_policy(client_for: Callable[..., OpenAICompatClient]) -> None:
    sleep = FakeSleep()
    script = Script(httpx.Response(429), httpx.Response(200, json=completion()))
    await client_for(script, sleep=sleep, retry=RetryPolicy(delays=(0.5,))).chat(hi())
    assert sleep.delays == [0.5]


# -- streaming (MockTransport) ----------------------------------------------------------------------


def sse(*events: str) -> bytes:
    return "".join(f"{event}\n\n" for event in events).encode()


def delta(text: str) -> str:
    return "data: " + json.dumps(
        {"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}
    )


async def test_stream_yields_content_chunks(client_for: Callable[..., OpenAICompatClient]) -> None:
    body = sse(
        ": keep-alive comment",
        delta("Hel"),
        delta("lo"),
        'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}',
        'data: {"choices": [], "usage": {"prompt_tokens": 1}}',
        "data: [DONE]",
        delta("ignored after DONE"),
    )
    script = Script(httpx.Response(200, content=body, headers={"Content-Type": "text/event-stream"}))
    chunks = [chunk async for chunk in client_for(script).stream(hi(json_schema=SCHEMA))]
    assert chunks == ["Hel", "lo"]
    assert script.bodies[0]["stream"] is True
    assert script.bodies[0]["response_format"]["type"] == "json_schema"


async def test_stream_falls_back_on_rejected_schema(client_for: Callable[..., OpenAICompatClient]) -> None:
    script = Script(
        httpx.Response(500, json=error_body("json_schema?")), httpx.Response(200, content=sse(delta("{}")))
    )
    client = client_for(script)
    assert [c async for c in client.stream(hi(json_schema=SCHEMA))] == ["{}"]
    assert client.schema_level == JSON_OBJECT_WITH_SCHEMA


@pytest.mark.parametrize(
    ("event", "error"),
    [
        ("data: {not json", LlmReplyError),
        ('data: {"error": {"message": "out of memory"}}', LlmUnavailable),
    ],
)
async def test_stream_errors_mid_way(
    client_for: Callable[..., OpenAICompatClient], event: str, error: type[Exception]
) -> None:
    script = Script(httpx.Response(200, content=sse(delta("a"), event)))
    received: list[str] = []
    with pytest.raises(error):
        async for chunk in client_for(script).stream(hi()):
            received.append(chunk)
    assert received == ["a"]


async def test_stream_http_error_before_the_first_chunk(
    client_for: Callable[..., OpenAICompatClient],
) -> None:
    script = Script(httpx.Response(401, json=error_body("no")))
    with pytest.raises(LlmUnavailable, match=r"refused the API key in \$OPENAI_API_KEY"):
        async for _ in client_for(script).stream(hi()):
            pass


async def test_stream_times_out_between_chunks(client_for: Callable[..., OpenAICompatClient]) -> None:
    async def stalling() -> AsyncIterator[bytes]:
        yield sse(delta("first"))
        await asyncio.sleep(30)
        yield sse(delta("never"))

    script = Script(httpx.Response(200, content=stalling()))
    received: list[str] = []
    with pytest.raises(LlmUnavailable, match=r"did not answer within 0\.2 s"):
        async for chunk in client_for(script).stream(hi(timeout=0.2)):
            received.append(chunk)
    assert received == ["first"]


# -- check (MockTransport) --------------------------------------------------------------------------


def models(*entries: dict[str, Any]) -> httpx.Response:
    return httpx.Response(200, json={"object": "list", "data": list(entries)})


@pytest.mark.parametrize(
    ("entry", "window"),
    [
        ({"id": MODEL}, None),
        ({"id": MODEL, "context_length": 32768}, 32768),
        ({"id": MODEL, "context_window": 8192}, 8192),
        ({"id": MODEL, "max_model_len": 4096}, 4096),
    ],
)
async def test_check_finds_the_model(
    client_for: Callable[..., OpenAICompatClient], entry: dict[str, Any], window: int | None
) -> None:
    script = Script(models({"id": "other"}, entry))
    info = await client_for(script).check()
    assert (info.name, info.context_window) == (MODEL, window or DEFAULT_CONTEXT_WINDOW)
    assert info.window_source == ("server" if window else "assumed")
    assert str(script.requests[0].url) == f"{BASE}/models"
    assert script.requests[0].method == "GET"
    assert script.requests[0].headers["Authorization"] == f"Bearer {KEY}"


async def test_check_model_not_offered(client_for: Callable[..., OpenAICompatClient]) -> None:
    with pytest.raises(LlmUnavailable) as info:
        await client_for(Script(models({"id": "a"}, {"id": "b"}))).check()
    assert str(info.value) == f'{BASE} does not offer the model "{MODEL}" (it offers a, b).'


@pytest.mark.parametrize("answer", [models(), httpx.Response(404, text="not found")])
async def test_check_falls_back_to_reachable(
    client_for: Callable[..., OpenAICompatClient], answer: httpx.Response
) -> None:
    info = await client_for(Script(answer)).check()
    assert (info.name, info.context_window, info.window_source) == (MODEL, DEFAULT_CONTEXT_WINDOW, "assumed")


async def test_check_errors(client_for: Callable[..., OpenAICompatClient]) -> None:
    with pytest.raises(LlmUnavailable, match=r"refused the API key in \$OPENAI_API_KEY \(HTTP 401\)"):
        await client_for(Script(httpx.Response(401))).check()
    with pytest.raises(LlmUnavailable, match=r"^Cannot reach"):
        await client_for(Script(httpx.ConnectError("refused"))).check()
    with pytest.raises(LlmReplyError):
        await client_for(Script(httpx.Response(200, text="<html>"))).check()


# -- lifecycle and factory --------------------------------------------------------------------------


async def test_aclose_closes_only_an_owned_http_client(client_for: Callable[..., OpenAICompatClient]) -> None:
    injected = httpx.AsyncClient(transport=httpx.MockTransport(Script()))
    borrowed = OpenAICompatClient(MODEL, BASE, api_key_env=None, http=injected)
    await borrowed.aclose()
    assert not injected.is_closed
    await injected.aclose()

    owned = OpenAICompatClient(MODEL, BASE + "/", api_key_env=None)
    assert owned.base_url == BASE
    assert owned.description == f"OpenAI-compatible model {MODEL} at {BASE}"
    await owned.aclose()
    await owned.aclose()  # twice is fine
    assert owned._http.is_closed


async def test_factory_builds_an_openai_client() -> None:
    settings = Settings(
        models={
            "local": ModelSettings("ollama", "llama3.2:3b"),
            "reasoning": ModelSettings("openai", MODEL, "https://api.example.test/v1", "OPENAI_API_KEY"),
        }
    )
    client = make_client(settings, "reasoning", environ={})
    assert isinstance(client, OpenAICompatClient)
    try:
        assert client.base_url == "https://api.example.test/v1"
        with pytest.raises(LlmUnavailable, match=r"OPENAI_API_KEY \(api_key_env of \[models\.reasoning\]\)"):
            await client.chat(hi())
    finally:
        await client.aclose()
    local = make_client(settings, "local")
    assert isinstance(local, OllamaClient)
    await local.aclose()


# -- end to end against FakeOpenAI (real HTTP on 127.0.0.1) -----------------------------------------


async def test_e2e_chat(fake_openai: FakeOpenAI, e2e_client: OpenAICompatClient) -> None:
    fake_openai.script_chat(Reply(content="Nothing to do."))
    response = await e2e_client.chat(hi())
    assert response.content == "Nothing to do."
    assert response.prompt_tokens is not None and response.prompt_tokens > 0
    (recorded,) = fake_openai.chat_requests
    assert recorded.headers["Authorization"] == f"Bearer {KEY}"
    assert recorded.json["messages"][1] == {"role": "user", "content": "hi"}


async def test_e2e_tool_calls_both_ways(fake_openai: FakeOpenAI, e2e_client: OpenAICompatClient) -> None:
    fake_openai.script_chat(Reply(tool_calls=[{"name": "files_write", "arguments": {"path": "notes.md"}}]))
    request = ChatRequest(
        messages=[
            Message("user", "save it"),
            Message("assistant", "", tool_calls=(ToolCall("files_read", {"path": "a"}, id="call_a"),)),
            Message("tool", "contents", tool_call_id="call_a"),
        ],
        tools=[WRITE_TOOL],
    )
    response = await e2e_client.chat(request)
    (call,) = response.tool_calls
    assert (call.name, dict(call.arguments)) == ("files_write", {"path": "notes.md"})
    assert call.id
    sent = fake_openai.chat_requests[0].json
    assert sent["tools"][0]["function"]["name"] == "files_write"
    assert sent["messages"][1]["tool_calls"][0]["function"]["arguments"] == '{"path": "a"}'
    assert sent["messages"][2] == {"role": "tool", "content": "contents", "tool_call_id": "call_a"}


async def test_e2e_json_schema_fallback() -> None:
    with FakeOpenAI(reject_json_schema=True) as server:
        server.script_chat(Reply(content='{"evaluations": []}'), Reply(content='{"evaluations": [1]}'))
        client = OpenAICompatClient(MODEL, server.url, api_key_env=None)
        try:
            first = await client.chat(hi(json_schema=SCHEMA))
            second = await client.chat(hi(json_schema=SCHEMA))
        finally:
            await client.aclose()
        formats = [r.json["response_format"] for r in server.chat_requests]
    assert (first.content, second.content) == ('{"evaluations": []}', '{"evaluations": [1]}')
    assert formats == [
        {"type": "json_schema", "json_schema": {"name": "answer", "schema": SCHEMA, "strict": False}},
        {"type": "json_object", "schema": SCHEMA},
        {"type": "json_object", "schema": SCHEMA},
    ]


async def test_e2e_stream(fake_openai: FakeOpenAI, e2e_client: OpenAICompatClient) -> None:
    fake_openai.script_chat(Reply(content="The quick brown fox jumps."))
    chunks = [chunk async for chunk in e2e_client.stream(hi())]
    assert len(chunks) > 1
    assert "".join(chunks) == "The quick brown fox jumps."
    assert fake_openai.chat_requests[0].json["stream"] is True


async def test_e2e_check(fake_openai: FakeOpenAI, e2e_client: OpenAICompatClient) -> None:
    assert (await e2e_client.check()).name == MODEL  # no models registered: reachable is enough
    fake_openai.add_model("someone-else")
    with pytest.raises(LlmUnavailable, match="does not offer the model"):
        await e2e_client.check()
    fake_openai.add_model(MODEL)
    assert (await e2e_client.check()).window_source == "assumed"


async def test_e2e_unknown_model(fake_openai: FakeOpenAI, e2e_client: OpenAICompatClient) -> None:
    fake_openai.add_model("only-this-one")
    with pytest.raises(LlmUnavailable, match=f'does not know the model "{MODEL}"'):
        await e2e_client.chat(hi())


async def test_e2e_server_error(fake_openai: FakeOpenAI, e2e_client: OpenAICompatClient) -> None:
    fake_openai.script_chat(Reply(status=500, error="CUDA out of memory"))
    with pytest.raises(LlmUnavailable) as info:
        await e2e_client.chat(hi())
    assert str(info.value) == f"{fake_openai.url} failed (HTTP 500): CUDA out of memory."


async def test_e2e_malformed(fake_openai: FakeOpenAI, e2e_client: OpenAICompatClient) -> None:
    fake_openai.script_chat(Reply(content="x", malformed=True), Reply(content="xyz", malformed=True))
    with pytest.raises(LlmReplyError):
        await e2e_client.chat(hi())
    with pytest.raises(LlmReplyError):
        async for _ in e2e_client.stream(hi()):
            pass


async def test_e2e_timeout(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(Reply(content="late", delay=5))
    client = OpenAICompatClient(
        MODEL, fake_openai.url, api_key_env="OPENAI_API_KEY", environ=ENV, timeout=0.3
    )
    try:
        with pytest.raises(LlmUnavailable) as info:
            await client.chat(hi())
    finally:
        await client.aclose()
    assert str(info.value) == f"{fake_openai.url} did not answer within 0.3 s."


async def test_e2e_unreachable(closed_port: int) -> None:
    url = f"http://127.0.0.1:{closed_port}/v1"
    client = OpenAICompatClient(MODEL, url, api_key_env=None)
    try:
        for call in (client.chat(hi()), client.check()):
            with pytest.raises(LlmUnavailable, match=rf"^Cannot reach {url} \(.+\)\.$"):
                await call
        with pytest.raises(LlmUnavailable, match="^Cannot reach"):
            async for _ in client.stream(hi()):
                pass
    finally:
        await client.aclose()


async def test_e2e_429_retry_after(fake_openai: FakeOpenAI) -> None:
    sleep = FakeSleep()
    fake_openai.script_chat(*[Reply(status=429, headers={"Retry-After": "1"})] * 4)
    client = OpenAICompatClient(
        MODEL, fake_openai.url, api_key_env="OPENAI_API_KEY", environ=ENV, sleep=sleep
    )
    try:
        with pytest.raises(LlmUnavailable, match=r"rate limiting requests \(HTTP 429\); tried 4 times"):
            await client.chat(hi())
    finally:
        await client.aclose()
    assert sleep.delays == [1.0, 1.0, 1.0]
    assert len(fake_openai.chat_requests) == 4


async def test_e2e_503_with_retry_after_waits_as_asked(fake_openai: FakeOpenAI) -> None:
    sleep = FakeSleep()
    fake_openai.script_chat(Reply(status=503, headers={"Retry-After": "2"}), Reply(content="back"))
    client = OpenAICompatClient(
        MODEL, fake_openai.url, api_key_env="OPENAI_API_KEY", environ=ENV, sleep=sleep
    )
    try:
        assert (await client.chat(hi())).content == "back"
    finally:
        await client.aclose()
    assert sleep.delays == [2.0]


async def test_e2e_the_key_never_reaches_logs_or_errors(
    fake_openai: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    errors: list[BaseException] = []
    fake_openai.script_chat(
        Reply(content="fine"), Reply(status=500, error=f"echo {KEY}"), Reply(status=429), Reply(status=429)
    )
    good = OpenAICompatClient(
        MODEL,
        fake_openai.url,
        api_key_env="OPENAI_API_KEY",
        environ=ENV,
        sleep=FakeSleep(),
        retry=RetryPolicy(delays=(0.0,)),
    )
    wrong = OpenAICompatClient(
        MODEL, fake_openai.url, api_key_env="OPENAI_API_KEY", environ={"OPENAI_API_KEY": KEY + "-wrong"}
    )
    try:
        await good.chat(hi(json_schema=SCHEMA))
        for call in (good.chat(hi()), good.chat(hi()), wrong.chat(hi()), wrong.check()):
            try:
                await call
            except LlmUnavailable as exc:
                errors.append(exc)
    finally:
        await good.aclose()
        await wrong.aclose()
    assert len(errors) == 4
    assert "refused the API key in $OPENAI_API_KEY (HTTP 401)" in str(errors[2])
    for error in errors:
        chain: BaseException | None = error
        while chain is not None:
            assert KEY not in str(chain)
            assert KEY not in repr(chain.args)
            chain = chain.__cause__ or chain.__context__
    assert caplog.records, "DEBUG logging was captured"
    for record in caplog.records:
        assert KEY not in record.getMessage()
    assert KEY not in caplog.text


# -- issue 10: the cap's name, /props asked once ------------------------------------------------------


async def test_a_model_that_wants_max_completion_tokens_gets_the_cap_under_that_name(
    client_for: Callable[..., OpenAICompatClient],
) -> None:
    refusal = error_body("Unsupported parameter: 'max_tokens' is not supported with this model. "
                         "Use 'max_completion_tokens' instead.", "unsupported_parameter")
    script = Script(httpx.Response(400, json=refusal), httpx.Response(200, json=completion()))
    client = client_for(script)
    assert (await client.chat(hi(json_schema=SCHEMA))).content == "ok"
    await client.chat(hi())
    first, second, third = script.bodies
    assert first["max_tokens"] == DEFAULT_MAX_TOKENS
    assert "max_tokens" not in second and second["max_completion_tokens"] == DEFAULT_MAX_TOKENS
    assert second["response_format"]["type"] == "json_schema", "not taken for a schema rejection"
    assert "max_tokens" not in third and third["max_completion_tokens"] == DEFAULT_MAX_TOKENS, "remembered"


async def test_a_server_without_props_is_not_asked_again(client_for: Callable[..., OpenAICompatClient]) -> None:
    script = Script(models({"id": MODEL}), httpx.Response(404, text="Not Found"), models({"id": MODEL}))
    client = client_for(script)
    await client.check()
    await client.check()
    paths = [request.url.path for request in script.requests]
    assert paths == ["/v1/models", "/props", "/v1/models"]
