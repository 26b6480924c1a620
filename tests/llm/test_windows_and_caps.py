"""Issue 10, items 2 and 5: every request carries an output cap; the context window is known; overflow is told apart.

All against the fake servers (real HTTP on 127.0.0.1), which record every request body.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest

from openhuman_desktop.config import ModelSettings, Settings
from openhuman_desktop.errors import ContextOverflow, LlmReplyError, LlmUnavailable
from openhuman_desktop.llm import (
    ChatRequest,
    Message,
    OllamaClient,
    OpenAICompatClient,
    TokenCounter,
    ToolSpec,
    make_client,
)
from openhuman_desktop.llm.limits import DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_TOKENS, overflow, prompt_estimate
from openhuman_desktop.llm.openai_compat import JSON_SCHEMA
from openhuman_desktop.llm.pool import ModelClients
from tests.fakes.model_servers import FakeOllama, FakeOpenAI, Reply, fake_token_count

MODEL = "smollm2"
SCHEMA: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
TOOL = ToolSpec("files_read", "Read a file.", {"type": "object", "properties": {"path": {"type": "string"}}})


def hi(text: str = "hi", **kwargs: Any) -> ChatRequest:
    return ChatRequest([Message("system", "Be brief."), Message("user", text)], timeout=10, **kwargs)


KINDS: dict[str, Callable[[], ChatRequest]] = {
    "chat": lambda: hi(),
    "chat with tools": lambda: hi(tools=[TOOL]),
    "json-schema chat": lambda: hi(json_schema=SCHEMA, temperature=0),
}


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        server.add_model(MODEL, context_length=131072)
        yield server


@pytest.fixture
async def ollama_client(ollama: FakeOllama) -> AsyncIterator[OllamaClient]:
    client = OllamaClient(MODEL, ollama.url)
    yield client
    await client.aclose()


async def openai_client(server: FakeOpenAI, **kwargs: Any) -> OpenAICompatClient:
    return OpenAICompatClient(MODEL, server.url, api_key_env=None, **kwargs)


# --- item 2: no request without an output cap -------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
async def test_every_ollama_request_carries_a_cap_and_num_ctx(
    ollama: FakeOllama, ollama_client: OllamaClient, kind: str
) -> None:
    ollama.script_chat(Reply(content='{"a": "b"}'), Reply(content='{"a": "b"}'))
    await ollama_client.chat(KINDS[kind]())
    _ = [piece async for piece in ollama_client.stream(KINDS[kind]())]
    for recorded in ollama.chat_requests:
        options = recorded.json["options"]
        assert options["num_predict"] == DEFAULT_MAX_TOKENS
        assert options["num_ctx"] == DEFAULT_CONTEXT_WINDOW, "a small prompt asks for a small, stable context"


@pytest.mark.parametrize("kind", KINDS)
async def test_every_openai_request_carries_a_cap(kind: str) -> None:
    with FakeOpenAI(reject_json_schema=True) as server:
        client = await openai_client(server)
        try:
            server.script_chat(Reply(content='{"a": "b"}'), Reply(content='{"a": "b"}'))
            await client.chat(KINDS[kind]())
            _ = [piece async for piece in client.stream(KINDS[kind]())]
        finally:
            await client.aclose()
        assert server.chat_requests  # the schema fallback's retries included
        for recorded in server.chat_requests:
            assert recorded.json["max_tokens"] == DEFAULT_MAX_TOKENS


async def test_the_model_check_sends_no_generation_request(ollama: FakeOllama, ollama_client: OllamaClient) -> None:
    with FakeOpenAI(props={"default_generation_settings": {"n_ctx": 2048}}) as server:
        client = await openai_client(server)
        try:
            await client.check()
        finally:
            await client.aclose()
        assert not server.chat_requests
    await ollama_client.check()
    assert not ollama.chat_requests


async def test_a_callers_cap_and_context_are_kept(ollama: FakeOllama, ollama_client: OllamaClient) -> None:
    await ollama_client.chat(hi(max_tokens=300, context_window=8192))
    options = ollama.chat_requests[0].json["options"]
    assert (options["num_predict"], options["num_ctx"]) == (300, 8192)


async def test_the_default_cap_leaves_room_for_the_prompt_in_a_small_window(ollama: FakeOllama) -> None:
    client = OllamaClient(MODEL, ollama.url, context_window=1024)
    try:
        await client.chat(hi("word " * 500))  # about 2,500 characters: most of a 1,024-token window
    finally:
        await client.aclose()
    options = ollama.chat_requests[0].json["options"]
    assert options["num_ctx"] == 1024, "never more context than the window"
    assert 0 < options["num_predict"] < DEFAULT_MAX_TOKENS
    assert options["num_predict"] + len("word " * 500) // 4 <= 1024


async def test_a_long_prompt_asks_ollama_for_a_larger_context_within_the_window(
    ollama: FakeOllama, ollama_client: OllamaClient
) -> None:
    await ollama_client.check()  # 131,072 tokens, from /api/show
    await ollama_client.chat(hi("word " * 4000))  # about 20,000 characters
    options = ollama.chat_requests[0].json["options"]
    assert options["num_ctx"] in (8192, 16384)
    assert options["num_predict"] == DEFAULT_MAX_TOKENS


async def test_the_cap_used_is_logged_at_debug(
    ollama: FakeOllama, ollama_client: OllamaClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="openhuman_desktop.llm"):
        await ollama_client.chat(hi())
        await ollama_client.chat(hi(max_tokens=77))
    text = caplog.text
    assert f"cap {DEFAULT_MAX_TOKENS} tokens (default)" in text
    assert "cap 77 tokens (asked)" in text


# --- item 2: a timed-out request closes its connection ---------------------------------------------


class SilentServer:
    """A TCP server on 127.0.0.1 that reads requests and never answers (or stalls after ``preamble``);
    it notes when the client closes the connection (what llama.cpp and Ollama notice to stop generating)."""

    def __init__(self, preamble: bytes = b"") -> None:
        self.preamble = preamble
        self.closed = asyncio.Event()
        self.connections = 0
        self._server: asyncio.Server | None = None

    async def __aenter__(self) -> SilentServer:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        await reader.readuntil(b"\r\n\r\n")
        if self.preamble:
            writer.write(self.preamble)
            await writer.drain()
        while await reader.read(65536):
            pass  # the body, then nothing until the client goes away
        self.closed.set()
        writer.close()


NDJSON_START = (
    b"HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n"
    + b"%x\r\n" % len(line := b'{"model":"m","created_at":"2024-01-01T00:00:00Z","message":{"role":"assistant",'
                                b'"content":"Hel"},"done":false}\n') + line + b"\r\n"
)
SSE_START = (
    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
    + b"%x\r\n" % len(event := b'data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n') + event + b"\r\n"
)


@pytest.mark.parametrize("provider", ["ollama", "openai"])
async def test_a_timed_out_chat_closes_its_connection(provider: str) -> None:
    async with SilentServer() as server:
        client: OllamaClient | OpenAICompatClient
        if provider == "ollama":
            client = OllamaClient(MODEL, server.url, timeout=0.5)
        else:
            client = OpenAICompatClient(MODEL, server.url + "/v1", api_key_env=None, timeout=0.5)
        try:
            with pytest.raises(LlmUnavailable, match="did not answer"):
                await client.chat(hi())
            await asyncio.wait_for(server.closed.wait(), 10)  # not left open in the pool
        finally:
            await client.aclose()


@pytest.mark.parametrize("provider", ["ollama", "openai"])
async def test_a_stream_that_stalls_closes_its_connection(provider: str) -> None:
    client: OllamaClient | OpenAICompatClient
    async with SilentServer(NDJSON_START if provider == "ollama" else SSE_START) as server:
        if provider == "ollama":
            client = OllamaClient(MODEL, server.url, timeout=0.5)
        else:
            client = OpenAICompatClient(MODEL, server.url + "/v1", api_key_env=None, timeout=0.5)
        try:
            pieces: list[str] = []
            with pytest.raises(LlmUnavailable, match="did not answer"):
                async for piece in client.stream(hi()):
                    pieces.append(piece)
            assert pieces == ["Hel"]
            await asyncio.wait_for(server.closed.wait(), 10)
        finally:
            await client.aclose()


# --- item 5: the context window is known --------------------------------------------------------------


async def test_ollama_window_from_api_show(ollama_client: OllamaClient) -> None:
    info = await ollama_client.check()
    assert (info.context_window, info.window_source) == (131072, "server")
    assert ollama_client.context_window == 131072


async def test_ollama_window_from_the_num_ctx_parameter() -> None:
    with FakeOllama() as server:
        server.add_model(MODEL, context_length=131072, num_ctx=8192)
        client = OllamaClient(MODEL, server.url)
        try:
            info = await client.check()
        finally:
            await client.aclose()
    assert (info.context_window, info.window_source) == (8192, "server")


async def test_a_configured_window_wins_over_the_servers(ollama: FakeOllama) -> None:
    client = OllamaClient(MODEL, ollama.url, context_window=2048)
    try:
        assert client.context_window == 2048, "known before any check"
        info = await client.check()
    finally:
        await client.aclose()
    assert (info.context_window, info.window_source) == (2048, "config")


async def test_llama_cpp_window_from_props() -> None:
    props = {"default_generation_settings": {"n_ctx": 2048, "n_predict": -1}, "total_slots": 1}
    with FakeOpenAI(props=props) as server:
        client = await openai_client(server)
        try:
            info = await client.check()
        finally:
            await client.aclose()
    assert (info.context_window, info.window_source) == (2048, "server")


@pytest.mark.parametrize("field", ["max_model_len", "context_length"])
async def test_window_from_the_model_list(field: str) -> None:
    with FakeOpenAI() as server:
        server.add_model(MODEL, **{field: 32768})
        client = await openai_client(server)
        try:
            info = await client.check()
        finally:
            await client.aclose()
    assert (info.context_window, info.window_source) == (32768, "server")


async def test_a_configured_window_wins_over_props() -> None:
    with FakeOpenAI(props={"default_generation_settings": {"n_ctx": 2048}}) as server:
        client = await openai_client(server, context_window=1024)
        try:
            info = await client.check()
        finally:
            await client.aclose()
    assert (info.context_window, info.window_source) == (1024, "config")


async def test_an_unknown_window_is_assumed_and_said_once(caplog: pytest.LogCaptureFixture) -> None:
    with FakeOpenAI() as server:  # like llama-cpp-python: no /props, no window in /v1/models
        server.add_model(MODEL)
        client = await openai_client(server, source="[models.local]")
        try:
            with caplog.at_level(logging.INFO, logger="openhuman_desktop.llm"):
                first = await client.check()
                second = await client.check()
        finally:
            await client.aclose()
    assert first.context_window == second.context_window == DEFAULT_CONTEXT_WINDOW == 4096
    assert first.window_source == "assumed"
    notes = [r.getMessage() for r in caplog.records if "assum" in r.getMessage()]
    assert len(notes) == 1 and "4096" in notes[0] and "context_window" in notes[0] and "[models.local]" in notes[0]


async def test_the_pool_knows_each_tiers_window() -> None:
    with FakeOpenAI(props={"default_generation_settings": {"n_ctx": 2048}}) as server:
        settings = Settings(models={
            "local": ModelSettings("openai", MODEL, server.url),
            "reasoning": ModelSettings("openai", MODEL, server.url, context_window=16384),
        })
        models = ModelClients(lambda: settings, make_client)
        try:
            assert models.context_window("reasoning") == 16384, "configured: known before the check"
            assert models.context_window("local") == DEFAULT_CONTEXT_WINDOW, "not checked yet: the assumption"
            health = await models.check("local")
            assert models.context_window("local") == 2048
            assert "context window 2048 tokens" in health.message and "server" in health.message
            health = await models.check("reasoning")
            assert "context window 16384 tokens" in health.message and "config.toml" in health.message
        finally:
            await models.aclose()
        assert models.context_window("subconscious") == DEFAULT_CONTEXT_WINDOW


# --- item 5: overflow is told apart ---------------------------------------------------------------------

OPENAI_OVERFLOW = {"error": {
    "message": "This model's maximum context length is 2048 tokens. However, you requested 9063 tokens "
               "(8551 in the messages, 512 in the completion). Please reduce the length of the messages or completion.",
    "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded",
}}
LLAMA_CPP_OVERFLOW = {"error": {
    "code": 400, "message": "request (9063 tokens) exceeds the available context size (2048 tokens), try increasing it",
    "type": "exceed_context_size_error", "n_prompt_tokens": 9063, "n_ctx": 2048,
}}
LLAMA_CPP_OLD_OVERFLOW = {"error": {
    "code": 500, "message": "the request exceeds the available context size, try increasing the context size or "
                            "enable context shift", "type": "server_error",
}}
OPENAI_SHAPES = {
    "openai": (400, OPENAI_OVERFLOW, 8551, 2048),
    "llama.cpp": (400, LLAMA_CPP_OVERFLOW, 9063, 2048),
    "llama.cpp (older, HTTP 500)": (500, LLAMA_CPP_OLD_OVERFLOW, None, None),
}


@pytest.mark.parametrize("shape", OPENAI_SHAPES)
@pytest.mark.parametrize("streamed", [False, True])
async def test_an_openai_context_error_is_context_overflow_and_never_the_schema_fallback(
    shape: str, streamed: bool
) -> None:
    status, body, prompt_tokens, window = OPENAI_SHAPES[shape]
    with FakeOpenAI() as server:
        server.script_chat(Reply(status=status, body=json.dumps(body)), Reply(content='{"a": "b"}'))
        client = await openai_client(server)
        try:
            with pytest.raises(ContextOverflow) as raised:
                if streamed:
                    _ = [piece async for piece in client.stream(hi(json_schema=SCHEMA))]
                else:
                    await client.chat(hi(json_schema=SCHEMA))
            assert client.schema_level == JSON_SCHEMA
        finally:
            await client.aclose()
        assert len(server.chat_requests) == 1, "no longer request after a context-length refusal"
    error = raised.value
    assert isinstance(error, LlmReplyError) and not isinstance(error, LlmUnavailable)
    assert (error.prompt_tokens, error.context_window) == (prompt_tokens, window)
    assert "context" in str(error) and str(error).endswith(".")


OLLAMA_SHAPES = {
    "truncate false": (400, json.dumps(LLAMA_CPP_OVERFLOW), 9063, 2048),
    "shift false": (400, "the prompt is longer than the context length currently available to the model; "
                         "try a larger context", None, None),
    "runner": (500, "input length exceeds the context length", None, None),
}


@pytest.mark.parametrize("shape", OLLAMA_SHAPES)
async def test_an_ollama_context_error_is_context_overflow(ollama: FakeOllama, ollama_client: OllamaClient,
                                                           shape: str) -> None:
    status, message, prompt_tokens, window = OLLAMA_SHAPES[shape]
    ollama.script_chat(Reply(status=status, error=message), Reply(status=status, error=message))
    with pytest.raises(ContextOverflow) as raised:
        await ollama_client.chat(hi(json_schema=SCHEMA))
    assert (raised.value.prompt_tokens, raised.value.context_window) == (prompt_tokens, window)
    with pytest.raises(ContextOverflow):
        _ = [piece async for piece in ollama_client.stream(hi())]


async def test_a_schema_rejection_still_falls_back() -> None:
    with FakeOpenAI(reject_json_schema=True) as server:
        client = await openai_client(server)
        try:
            server.script_chat(Reply(content='{"a": "b"}'))
            await client.chat(hi(json_schema=SCHEMA))
        finally:
            await client.aclose()
        assert len(server.chat_requests) == 2


async def test_context_overflow_does_not_mark_the_tier_failing() -> None:
    with FakeOpenAI() as server:
        settings = Settings(models={"local": ModelSettings("openai", MODEL, server.url)})
        models = ModelClients(lambda: settings, make_client)
        try:
            client = models.reporting("local")
            assert client is not None
            server.script_chat(Reply(status=400, body=json.dumps(LLAMA_CPP_OVERFLOW)))
            with pytest.raises(ContextOverflow):
                await client.chat(hi())
            assert models.problem("local") is None, "the prompt was too long, the model is fine"
            assert models.context_window("local") == 2048, "the server said how large its window is"
            raw = models.get("local")
            assert isinstance(raw, OpenAICompatClient) and raw.context_window == 2048, "default caps fit it too"
        finally:
            await models.aclose()


# --- item 5: counting with the server's tokenizer ------------------------------------------------------


@pytest.mark.parametrize("tokenizer", ["llama.cpp", "llama-cpp-python"])
async def test_count_tokens_asks_the_servers_tokenizer(tokenizer: str) -> None:
    text = "Check the inbox for overdue invoices."
    with FakeOpenAI(tokenizer=tokenizer) as server:
        client = await openai_client(server)
        try:
            assert await client.count_tokens(text) == fake_token_count(text)
            assert await client.count_tokens(text + text) == fake_token_count(text + text)
        finally:
            await client.aclose()
        assert not server.chat_requests


async def test_count_tokens_without_a_tokenizer_is_none_and_asked_once() -> None:
    with FakeOpenAI() as server:
        client = await openai_client(server)
        try:
            assert await client.count_tokens("hello") is None
            asked = len(server.requests)
            assert await client.count_tokens("hello again") is None
            assert len(server.requests) == asked, "a server without a tokenizer is not asked again"
        finally:
            await client.aclose()


async def test_ollama_has_no_tokenizer_endpoint(ollama: FakeOllama, ollama_client: OllamaClient) -> None:
    assert await ollama_client.count_tokens("hello") is None
    assert not ollama.requests


def test_the_prompt_estimate_is_not_below_an_offline_count() -> None:
    counter = TokenCounter()
    for text in ("The inbox has three overdue invoices. " * 20, "請求書の期限が過ぎています。" * 20,
                 '{"path": "notes/2024-05-01.md", "lines": [1, 2, 3]}' * 20):
        assert prompt_estimate(hi(text)) >= counter.count(text), text[:20]


@pytest.mark.parametrize(("text", "is_overflow"), [
    ('{"error": {"message": "prompt tokens (5000) exceed n_ctx (4096)", "type": "server_error"}}', True),
    ('{"error": "input is longer than the context length of 2048"}', True),
    ('{"error": {"message": "failed to load model: n_ctx = 131072, out of memory", "code": 500}}', False),
    ('{"error": {"message": "Unsupported response_format type: json_schema", "type": "server_error"}}', False),
    ("Internal Server Error", False),
])
def test_what_counts_as_a_refusal_for_length(text: str, is_overflow: bool) -> None:
    assert (overflow(text, "refused.") is not None) == is_overflow
