"""OllamaClient against FakeOllama (real HTTP on 127.0.0.1) and httpx.MockTransport."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import ollama
import pytest

from openhuman_desktop.config import ModelSettings, Settings
from openhuman_desktop.errors import LlmReplyError, LlmUnavailable
from openhuman_desktop.llm import (
    ChatRequest,
    Message,
    ModelInfo,
    OllamaClient,
    RetryPolicy,
    ToolCall,
    ToolSpec,
    make_client,
)
from openhuman_desktop.llm.limits import DEFAULT_MAX_TOKENS, MIN_CONTEXT
from tests.fakes.model_servers import FakeOllama, Reply

MODEL = "llama3.2:3b"
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "evaluations": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "task_id": {"type": "string"},
                    "decision": {"enum": ["noop", "act", "escalate"]},
                },
                "required": ["task_id", "decision"],
            },
        }
    },
    "required": ["evaluations"],
}
WRITE_TOOL = ToolSpec(
    name="files_write",
    description="Write a file.",
    parameters={
        "type": "object",
        "properties": {"path": {"type": "string"}, "text": {"type": "string"}},
        "required": ["path", "text"],
    },
)


def hi(**kwargs: Any) -> ChatRequest:
    return ChatRequest(messages=[Message("system", "Be brief."), Message("user", "hi")], **kwargs)


class FakeSleep:
    """Records back-off delays instead of waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


@pytest.fixture
def fake_ollama() -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        server.add_model(MODEL, context_length=131072)
        yield server


@pytest.fixture
def sleep() -> FakeSleep:
    return FakeSleep()


@pytest.fixture
async def client(fake_ollama: FakeOllama, sleep: FakeSleep) -> AsyncIterator[OllamaClient]:
    llm = OllamaClient(MODEL, fake_ollama.url, sleep=sleep)
    yield llm
    await llm.aclose()


@pytest.fixture
def closed_port() -> int:
    """A local port that nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


# -- chat -------------------------------------------------------------------------------------------


async def test_chat_sends_the_request_ollama_expects(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script_chat(Reply(content='{"evaluations": []}'))
    response = await client.chat(hi(json_schema=SCHEMA, temperature=0.0))
    assert response.content == '{"evaluations": []}'
    assert response.prompt_tokens is not None and response.prompt_tokens > 0
    assert response.completion_tokens is not None and response.completion_tokens > 0
    assert response.raw["model"] == MODEL
    (recorded,) = fake_ollama.chat_requests
    body = recorded.json
    assert body["model"] == MODEL
    assert body["stream"] is False
    assert body["format"] == SCHEMA  # passed through unchanged
    assert body["options"]["temperature"] == 0.0
    assert body["messages"] == [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]
    assert not body.get("tools")  # the ollama package sends [] when there are none


async def test_a_judgement_turns_the_repeat_penalty_off(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    # Ollama's default (1.1) penalises the "yes" a reason just wrote when condition_met comes next
    await client.chat(hi(repeat_penalty=1.0))
    assert fake_ollama.chat_requests[0].json["options"]["repeat_penalty"] == 1.0


async def test_chat_without_schema_or_temperature(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    await client.chat(hi())
    body = fake_ollama.chat_requests[0].json
    assert "format" not in body
    assert body["options"] == {"num_predict": DEFAULT_MAX_TOKENS, "num_ctx": MIN_CONTEXT}, "never without a cap"


async def test_tool_calls_both_ways(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script_chat(
        Reply(tool_calls=[{"name": "files_write", "arguments": {"path": "a", "text": "b"}}])
    )
    request = ChatRequest(
        messages=[
            Message("user", "save the notes"),
            Message("assistant", "", tool_calls=(ToolCall("files_read", {"path": "notes.md"}),)),
            Message("tool", "the notes", tool_name="files_read"),
        ],
        tools=[WRITE_TOOL],
    )
    response = await client.chat(request)
    assert response.tool_calls == (ToolCall("files_write", {"path": "a", "text": "b"}),)
    body = fake_ollama.chat_requests[0].json
    assert body["tools"] == [
        {
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
    ]
    assistant, tool = body["messages"][1], body["messages"][2]
    assert assistant["tool_calls"] == [
        {"function": {"name": "files_read", "arguments": {"path": "notes.md"}}}
    ]
    assert tool == {"role": "tool", "content": "the notes", "tool_name": "files_read"}


# -- stream -----------------------------------------------------------------------------------------


async def test_stream_yields_chunks(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script_chat(Reply(content="The heartbeat is healthy."))
    chunks = [chunk async for chunk in client.stream(hi(json_schema=SCHEMA))]
    assert len(chunks) > 1
    assert "".join(chunks) == "The heartbeat is healthy."
    body = fake_ollama.chat_requests[0].json
    assert body["stream"] is True
    assert body["format"] == SCHEMA


async def test_stream_stopped_early_releases_the_connection(
    fake_ollama: FakeOllama, client: OllamaClient
) -> None:
    fake_ollama.script_chat(Reply(content="one two three four five six"))
    stream = client.stream(hi())
    async for _ in stream:
        break
    await stream.aclose()  # type: ignore[attr-defined]
    assert await client.chat(hi())  # the client is still usable


async def test_stream_malformed_line(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script_chat(Reply(content="abc def", malformed=True))
    with pytest.raises(LlmReplyError):
        async for _ in client.stream(hi()):
            pass


# -- check ------------------------------------------------------------------------------------------


async def test_check_reads_the_context_window(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    assert await client.check() == ModelInfo(name=MODEL, context_window=131072)
    paths = [r.path for r in fake_ollama.requests]
    assert paths == ["/api/tags", "/api/show"]


@pytest.mark.parametrize(
    ("installed", "configured"), [("phi3", "phi3"), ("phi3", "phi3:latest"), ("phi3:latest", "phi3")]
)
async def test_check_accepts_names_with_or_without_latest(
    fake_ollama: FakeOllama, installed: str, configured: str
) -> None:
    fake_ollama.add_model(installed, context_length=4096)
    llm = OllamaClient(configured, fake_ollama.url)
    try:
        assert await llm.check() == ModelInfo(name=configured, context_window=4096)
    finally:
        await llm.aclose()


async def test_check_unknown_model(fake_ollama: FakeOllama) -> None:
    llm = OllamaClient("qwen2.5:14b", fake_ollama.url)
    try:
        with pytest.raises(LlmUnavailable) as info:
            await llm.check()
    finally:
        await llm.aclose()
    assert str(info.value) == (
        f'The model "qwen2.5:14b" is not installed in Ollama at {fake_ollama.url} '
        "— run `ollama pull qwen2.5:14b`."
    )
    assert [r.path for r in fake_ollama.requests] == ["/api/tags"]


# -- errors -----------------------------------------------------------------------------------------


async def test_ollama_not_running(closed_port: int) -> None:
    host = f"http://127.0.0.1:{closed_port}"
    llm = OllamaClient(MODEL, host)
    expected = f"Ollama is not running at {host} — start it with `ollama serve`."
    try:
        for call in (llm.chat(hi()), llm.check()):
            with pytest.raises(LlmUnavailable) as info:
                await call
            assert str(info.value) == expected
        with pytest.raises(LlmUnavailable) as info:
            async for _ in llm.stream(hi()):
                pass
        assert str(info.value) == expected
    finally:
        await llm.aclose()


async def test_host_without_scheme_is_accepted(closed_port: int) -> None:
    llm = OllamaClient(MODEL, f"127.0.0.1:{closed_port}/")
    assert llm.host == f"http://127.0.0.1:{closed_port}"
    assert llm.description == f"Ollama model {MODEL} at http://127.0.0.1:{closed_port}"
    await llm.aclose()


async def test_chat_with_a_model_that_is_not_installed(fake_ollama: FakeOllama) -> None:
    llm = OllamaClient("mistral", fake_ollama.url)
    try:
        with pytest.raises(LlmUnavailable) as info:
            await llm.chat(hi())
        assert str(info.value) == (
            f'The model "mistral" is not installed in Ollama at {fake_ollama.url} '
            "— run `ollama pull mistral`."
        )
        with pytest.raises(LlmUnavailable, match="is not installed"):
            async for _ in llm.stream(hi()):
                pass
    finally:
        await llm.aclose()


async def test_server_error(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script_chat(Reply(status=500, error="llama runner process has terminated: signal: killed"))
    with pytest.raises(LlmUnavailable) as info:
        await client.chat(hi())
    assert str(info.value) == (
        f"Ollama at {fake_ollama.url} failed (HTTP 500): llama runner process has terminated: signal: killed."
    )
    assert isinstance(info.value.__cause__, ollama.ResponseError)


async def test_other_response_error(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script_chat(Reply(status=400, error="invalid format"))
    with pytest.raises(LlmUnavailable) as info:
        await client.chat(hi())
    assert str(info.value) == f"Ollama at {fake_ollama.url} rejected the request (HTTP 400): invalid format."


async def test_plain_text_error_body(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script_chat(Reply(status=502, body="Bad Gateway\n\n  from the proxy"))
    with pytest.raises(LlmUnavailable) as info:
        await client.chat(hi())
    assert str(info.value) == f"Ollama at {fake_ollama.url} failed (HTTP 502): Bad Gateway from the proxy."


async def test_malformed_reply(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script_chat(Reply(content="hello", malformed=True))
    with pytest.raises(LlmReplyError):
        await client.chat(hi())


async def test_timeout(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script_chat(Reply(content="late", delay=5), Reply(content="late", delay=5))
    with pytest.raises(LlmUnavailable) as info:
        await client.chat(hi(timeout=0.3))
    assert str(info.value) == f"Ollama at {fake_ollama.url} did not answer within 0.3 s."
    with pytest.raises(LlmUnavailable, match=r"did not answer within 0\.3 s"):
        async for _ in client.stream(hi(timeout=0.3)):
            pass


async def test_client_timeout_caps_the_request_timeout(fake_ollama: FakeOllama) -> None:
    fake_ollama.script_chat(Reply(content="late", delay=5))
    llm = OllamaClient(MODEL, fake_ollama.url, timeout=0.25)
    try:
        with pytest.raises(LlmUnavailable, match=r"did not answer within 0\.25 s"):
            await llm.chat(hi(timeout=60))
    finally:
        await llm.aclose()


async def test_429_uses_the_retry_policy(
    fake_ollama: FakeOllama, client: OllamaClient, sleep: FakeSleep
) -> None:
    fake_ollama.script_chat(*[Reply(status=429, error="too many requests")] * 4)
    with pytest.raises(LlmUnavailable) as info:
        await client.chat(hi())
    assert str(info.value) == (
        f"Ollama at {fake_ollama.url} is rate limiting requests (HTTP 429); tried 4 times."
    )
    assert sleep.delays == [2.0, 4.0, 8.0]
    assert len(fake_ollama.chat_requests) == 4


async def test_429_then_success(fake_ollama: FakeOllama) -> None:
    sleep = FakeSleep()
    fake_ollama.script_chat(Reply(status=429), Reply(status=429), Reply(content="now"))
    llm = OllamaClient(MODEL, fake_ollama.url, retry=RetryPolicy(delays=(0.5, 1.5)), sleep=sleep)
    try:
        assert "".join([c async for c in llm.stream(hi())]) == "now"
    finally:
        await llm.aclose()
    assert sleep.delays == [0.5, 1.5]


async def test_retry_after_is_honoured(fake_ollama: FakeOllama, client: OllamaClient, sleep: FakeSleep) -> None:
    fake_ollama.script_chat(
        Reply(status=429, error="too many requests", headers={"Retry-After": "7"}),
        Reply(status=503, error="server busy, please try again", headers={"Retry-After": "3"}),
        Reply(content="done"),
    )
    assert (await client.chat(hi())).content == "done"
    assert sleep.delays == [7.0, 3.0]


async def test_retry_after_is_honoured_when_a_stream_opens(fake_ollama: FakeOllama, sleep: FakeSleep) -> None:
    fake_ollama.script_chat(Reply(status=429, headers={"Retry-After": "0.25"}), Reply(content="streamed"))
    llm = OllamaClient(MODEL, fake_ollama.url, sleep=sleep)
    try:
        assert "".join([c async for c in llm.stream(hi())]) == "streamed"
    finally:
        await llm.aclose()
    assert sleep.delays == [0.25]


async def test_a_503_that_keeps_asking_to_wait_is_one_sentence(
    fake_ollama: FakeOllama, client: OllamaClient, sleep: FakeSleep
) -> None:
    fake_ollama.script_chat(*[Reply(status=503, error="server busy", headers={"Retry-After": "1"})] * 4)
    with pytest.raises(LlmUnavailable) as info:
        await client.chat(hi())
    assert str(info.value) == f"Ollama at {fake_ollama.url} is busy (HTTP 503); tried 4 times."
    assert sleep.delays == [1.0, 1.0, 1.0]


async def test_a_503_without_retry_after_is_a_server_failure(fake_ollama: FakeOllama, client: OllamaClient) -> None:
    fake_ollama.script_chat(Reply(status=503, error="loading failed"))
    with pytest.raises(LlmUnavailable, match=r"failed \(HTTP 503\): loading failed"):
        await client.chat(hi())
    assert len(fake_ollama.chat_requests) == 1


# -- MockTransport (no sockets), the STYLE G5 way ---------------------------------------------------


async def test_transport_timeout_becomes_user_facing() -> None:
    def stall(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("no answer", request=request)

    injected = ollama.AsyncClient(host="http://ollama.test", transport=httpx.MockTransport(stall))
    llm = OllamaClient(MODEL, "http://ollama.test", client=injected, timeout=2)
    try:
        with pytest.raises(
            LlmUnavailable, match=r"^Ollama at http://ollama.test did not answer within 2 s\.$"
        ):
            await llm.chat(hi())
    finally:
        await llm.aclose()
        await injected.close()  # type: ignore[no-untyped-call]


async def test_a_stalled_stream_times_out_between_chunks() -> None:
    async def lines() -> AsyncIterator[bytes]:
        part = {"model": MODEL, "message": {"role": "assistant", "content": "first"}, "done": False}
        yield (json.dumps(part) + "\n").encode()
        await asyncio.sleep(30)

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=lines(), headers={"Content-Type": "application/x-ndjson"})

    injected = ollama.AsyncClient(host="http://ollama.test", transport=httpx.MockTransport(handler))
    llm = OllamaClient(MODEL, "http://ollama.test", client=injected)
    received: list[str] = []
    try:
        with pytest.raises(LlmUnavailable, match=r"did not answer within 0\.2 s"):
            async for chunk in llm.stream(hi(timeout=0.2)):
                received.append(chunk)
    finally:
        await llm.aclose()
        await injected.close()  # type: ignore[no-untyped-call]
    assert received == ["first"]


async def test_an_error_line_in_the_stream() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b'{"error": "out of memory"}\n')

    injected = ollama.AsyncClient(host="http://ollama.test", transport=httpx.MockTransport(handler))
    llm = OllamaClient(MODEL, "http://ollama.test", client=injected)
    try:
        with pytest.raises(
            LlmUnavailable, match=r"^Ollama at http://ollama.test reported an error: out of memory\.$"
        ):
            async for _ in llm.stream(hi()):
                pass
    finally:
        await llm.aclose()
        await injected.close()  # type: ignore[no-untyped-call]


async def test_aclose_leaves_an_injected_client_open(fake_ollama: FakeOllama) -> None:
    injected = ollama.AsyncClient(host=fake_ollama.url)
    llm = OllamaClient(MODEL, fake_ollama.url, client=injected)
    await llm.aclose()
    await llm.aclose()
    assert (await injected.list()).models  # still usable
    await injected.close()  # type: ignore[no-untyped-call]


# -- factory ----------------------------------------------------------------------------------------


async def test_factory_builds_ollama_clients_and_skips_unconfigured_tiers() -> None:
    settings = Settings(
        ollama_host="http://127.0.0.1:11434",
        models={
            "local": ModelSettings("ollama", "llama3.2:3b"),
            "reasoning": ModelSettings("ollama", "qwen2.5:14b", base_url="http://gpu-box:11434"),
        },
    )
    local = make_client(settings, "local")
    reasoning = make_client(settings, "reasoning")
    try:
        assert isinstance(local, OllamaClient) and isinstance(reasoning, OllamaClient)
        assert local.description == "Ollama model llama3.2:3b at http://127.0.0.1:11434"
        assert reasoning.description == "Ollama model qwen2.5:14b at http://gpu-box:11434"
    finally:
        if local is not None:
            await local.aclose()
        if reasoning is not None:
            await reasoning.aclose()
    assert make_client(settings, "subconscious") is None
    assert make_client(settings, "embedding") is None
