"""Scriptable fake Ollama and OpenAI-compatible model servers that speak real HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import math
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware
from multidict import CIMultiDict, CIMultiDictProxy

from tests.fakes import secret_watch
from tests.fakes.threaded_server import ThreadedServer

Json = dict[str, Any]


@dataclass(frozen=True)
class Reply:
    """One scripted answer to a chat request.

    Attributes:
        content: Assistant text (streamed in a few chunks when the client asks for a stream).
        tool_calls: Calls as ``{"name": str, "arguments": dict | str}``, optionally with an ``"id"``.
        status: HTTP status. A non-2xx status without ``body`` becomes the protocol's error JSON.
        body: Raw response body, sent as-is (``text/plain``) with ``status``; bypasses the protocol.
        error: Message of the protocol-shaped error sent for a non-2xx ``status``.
        headers: Extra response headers, e.g. ``{"Retry-After": "1"}``.
        delay: Seconds to wait before answering; cut short when the server stops.
        malformed: Answer 200 with a syntactically broken body (truncated JSON).
        pieces: How many chunks ``content`` is streamed in.
    """

    content: str = ""
    tool_calls: Sequence[Mapping[str, Any]] = ()
    status: int = 200
    body: str | None = None
    error: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    malformed: bool = False
    pieces: int = 3


@dataclass(frozen=True)
class RecordedRequest:
    """A request as the fake received it; ``headers`` are case-insensitive, ``json`` is None if not JSON;
    ``target`` is the path with its query, ``raw`` the body as sent."""

    path: str
    method: str
    headers: Mapping[str, str]
    json: Any
    target: str = ""
    raw: bytes = b""


Responder = Callable[[Any], Reply]


@dataclass(frozen=True)
class _OllamaModel:
    name: str
    context_length: int
    family: str
    capabilities: tuple[str, ...]
    num_ctx: int | None = None
    size_bytes: int = 2_019_393_189
    parameter_size: str = "3.2B"


@dataclass(frozen=True)
class _LibraryModel:
    """A model ``/api/pull`` can download: its layers as (digest, bytes), the big weights first."""

    name: str
    family: str
    layers: tuple[tuple[str, int], ...]
    parameter_size: str = "3.2B"

    @property
    def size_bytes(self) -> int:
        return sum(size for _, size in self.layers)


_WORD = re.compile(r"[^\W_]+")


def embedding_words(text: str) -> list[str]:
    """The words the fake embedding counts: lower case, a trailing plural "s" dropped (so "appointments" and
    "appointment" are one word to the vectors, as they are close to a real model, but not to FTS5)."""
    words = [word.lower() for word in _WORD.findall(text)]
    return [word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
            for word in words]


def fake_embedding(text: str, dimensions: int = 384) -> list[float]:
    """The deterministic bag-of-words unit vector the fakes serve for ``text``: each word (see
    :func:`embedding_words`) adds 1 to the dimension its hash picks, so cosine similarity is word overlap and
    tests can assert rankings. A text without words gets the first axis."""
    vector = [0.0] * dimensions
    for word in embedding_words(text):
        vector[int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "big") % dimensions] += 1.0
    norm = math.sqrt(sum(x * x for x in vector))
    if norm == 0:
        vector[0] = 1.0
        return vector
    return [x / norm for x in vector]


def fake_token_count(text: str) -> int:
    """What the fake tokenizer endpoints answer: one token per three characters (rounded up)."""
    return math.ceil(len(text) / 3)


def _estimate_tokens(value: Any) -> int:
    text = value if isinstance(value, str) else json.dumps(value)
    return max(1, len(text) // 4)


def _chunks(text: str, parts: int = 3) -> list[str]:
    size = max(1, math.ceil(len(text) / parts))
    return [text[i : i + size] for i in range(0, len(text), size)]


def _truncated(data: Json) -> str:
    text = json.dumps(data)
    return text[: len(text) // 2]


def _malformed(data: Json, headers: Mapping[str, str]) -> web.Response:
    return web.Response(text=_truncated(data), content_type="application/json", headers=headers)


class _FakeModelServer(ThreadedServer):
    """Recording and reply scripting shared by both fakes (the life cycle is :class:`ThreadedServer`'s)."""

    chat_path = ""
    embed_path = ""
    _url_suffix = ""

    def __init__(self) -> None:
        super().__init__()
        self.default_reply = Reply(content="ok")
        self.embed_reply: Reply | None = None
        """When set, every embedding request gets this answer (a status, a body, a delay) instead of vectors."""
        self._replies: deque[Reply] = deque()
        self._responder: Responder | None = None
        self._requests: list[RecordedRequest] = []
        self._changed = threading.Condition()

    @property
    def url(self) -> str:
        """Base URL a client is configured with."""
        return f"http://127.0.0.1:{self.port}{self._url_suffix}"

    def script_chat(self, *replies: Reply) -> None:
        """Queue replies for the next chat requests, consumed in order."""
        with self._changed:
            self._replies.extend(replies)

    def set_responder(self, responder: Responder | None) -> None:
        """Compute replies from the request JSON once the scripted queue is empty (None to remove)."""
        self._responder = responder

    @property
    def requests(self) -> list[RecordedRequest]:
        """Every request received so far, oldest first."""
        with self._changed:
            return list(self._requests)

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        """Only the chat requests."""
        return [r for r in self.requests if r.path == self.chat_path]

    @property
    def embed_requests(self) -> list[RecordedRequest]:
        """Only the embedding requests (one per batch)."""
        return [r for r in self.requests if r.path == self.embed_path]

    @property
    def embedded_texts(self) -> list[str]:
        """Every text an embedding request carried, in order."""
        texts: list[str] = []
        for request in self.embed_requests:
            given = request.json.get("input", []) if isinstance(request.json, dict) else []
            texts.extend([given] if isinstance(given, str) else [str(text) for text in given])
        return texts

    async def _embed_failure(self) -> web.Response | None:
        """The scripted answer of ``embed_reply`` (after its delay), or None to serve vectors."""
        reply = self.embed_reply
        if reply is None:
            return None
        await self._pause(reply.delay)
        failure = self._failure(reply)
        if failure is None and reply.malformed:
            return web.Response(text='{"embeddings": [[0.1, ', content_type="application/json")
        return failure

    def wait_for_requests(
        self, count: int, *, path: str | None = None, timeout: float = 5.0
    ) -> list[RecordedRequest]:
        """Block until ``count`` requests (to ``path``, if given) arrived; for subprocess tests.

        Raises:
            TimeoutError: fewer requests arrived within ``timeout`` seconds.
        """

        def matching() -> list[RecordedRequest]:
            return [r for r in self._requests if path is None or r.path == path]

        with self._changed:
            if not self._changed.wait_for(lambda: len(matching()) >= count, timeout):
                raise TimeoutError(f"{len(matching())} of {count} requests to {path or 'any path'} arrived")
            return matching()

    def _build_app(self) -> web.Application:
        raise NotImplementedError

    def _recorder(self) -> Middleware:
        @web.middleware
        async def record(request: web.Request, handler: Handler) -> web.StreamResponse:
            raw = await request.read()  # aiohttp caches the body, so handlers can read it again
            parsed = _parsed(raw)
            headers = CIMultiDictProxy(CIMultiDict(request.headers))
            recorded = RecordedRequest(request.path, request.method, headers, parsed, request.path_qs, raw)
            secret_watch.received(self, recorded)  # no secret of the app may reach a model (tests/conftest.py)
            with self._changed:
                self._requests.append(recorded)
                self._changed.notify_all()
            return await handler(request)

        return record

    def _next_reply(self, body: Any) -> Reply:
        with self._changed:
            if self._replies:
                return self._replies.popleft()
        responder = self._responder
        return responder(body) if responder is not None else self.default_reply

    async def _pause(self, seconds: float) -> None:
        if seconds > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), seconds)

    def _error(self, status: int, message: str, headers: Mapping[str, str]) -> web.Response:
        raise NotImplementedError

    def _failure(self, reply: Reply) -> web.Response | None:
        """The raw body or protocol-shaped error a reply asks for, or None for a normal answer."""
        if reply.body is not None:
            return web.Response(status=reply.status, text=reply.body, headers=reply.headers)
        if reply.status >= 400:
            return self._error(reply.status, reply.error or f"scripted HTTP {reply.status}", reply.headers)
        return None


async def _json_body(request: web.Request) -> Any:
    return _parsed(await request.read())  # aiohttp caches the body, so handlers can read it again


def _parsed(raw: bytes) -> Any:
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return None


def _now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _ollama_error(status: int, message: str, headers: Mapping[str, str] | None = None) -> web.Response:
    return web.json_response({"error": message}, status=status, headers=headers)


def _ollama_tool_call(call: Mapping[str, Any]) -> Json:
    arguments = call["arguments"]
    if isinstance(arguments, str):
        arguments = json.loads(arguments)
    return {"function": {"name": call["name"], "arguments": arguments}}


def _ollama_done(prompt_tokens: int, eval_tokens: int) -> Json:
    return {
        "done": True,
        "done_reason": "stop",
        "total_duration": 1_200_000_000,
        "load_duration": 50_000_000,
        "prompt_eval_count": prompt_tokens,
        "prompt_eval_duration": 150_000_000,
        "eval_count": eval_tokens,
        "eval_duration": 1_000_000_000,
    }


class FakeOllama(_FakeModelServer):
    """A fake Ollama server: /api/chat, /api/tags, /api/show, /api/embed, /api/pull, /api/version and /.

    Args:
        embedding_dim: Length of /api/embed vectors unless the request sets ``dimensions``.
    """

    chat_path = "/api/chat"
    embed_path = "/api/embed"
    version = "0.6.0"

    def __init__(self, *, embedding_dim: int = 384) -> None:
        super().__init__()
        self.embedding_dim = embedding_dim
        self.model_dims: dict[str, int] = {}
        """Embedding length per model name (``:latest`` implied), for models other than ``embedding_dim``."""
        self._models: dict[str, _OllamaModel] = {}
        self._library: dict[str, _LibraryModel] = {}
        self._partial: dict[str, int] = {}   # digest → bytes on disk of a layer not finished yet
        self._pull_failure: tuple[int, str | None] | None = None
        self._pulling = 0
        self.pull_chunk = 4_000_000
        """Bytes per progress line of /api/pull."""
        self.pull_rate: float | None = None
        """Bytes per second /api/pull downloads at (None: as fast as the client reads)."""

    def add_model(
        self,
        name: str,
        *,
        context_length: int = 8192,
        family: str = "llama",
        capabilities: Sequence[str] = ("completion", "tools"),
        num_ctx: int | None = None,
        size_bytes: int = 2_019_393_189,
        parameter_size: str = "3.2B",
    ) -> None:
        """Make ``name`` known to /api/tags, /api/show, /api/chat and /api/embed (``:latest`` is implied).

        ``num_ctx`` adds a ``num_ctx`` line to /api/show's ``parameters`` (a Modelfile ``PARAMETER num_ctx``);
        ``size_bytes`` and ``parameter_size`` are what /api/tags says of it.
        """
        model = _OllamaModel(self._canonical(name), context_length, family, tuple(capabilities), num_ctx,
                             size_bytes, parameter_size)
        self._models[model.name] = model

    def add_library_model(self, name: str, *, size_bytes: int, family: str = "llama",
                          parameter_size: str = "3.2B") -> None:
        """Let ``/api/pull`` download ``name`` (as if ollama.com had it): ``size_bytes`` in three layers (the
        weights, a template, the parameters). After a successful pull the model is installed (/api/tags)."""
        canonical = self._canonical(name)
        small = (min(7_020, size_bytes // 4), min(485, size_bytes // 8))
        sizes = (size_bytes - sum(small), *small)
        layers = tuple((f"sha256:{hashlib.sha256(f'{canonical}/{n}'.encode()).hexdigest()}", size)
                       for n, size in enumerate(sizes))
        self._library[canonical] = _LibraryModel(canonical, family, layers, parameter_size)

    def fail_pull(self, *, after_bytes: int, error: str | None) -> None:
        """Make the next pull fail once ``after_bytes`` of the model are downloaded (bytes kept from an earlier
        pull count): with ``error``, an ``{"error": ...}`` line; with None, the server drops the connection (it
        died). One pull only; the downloaded bytes are kept, so pulling again resumes."""
        self._pull_failure = (after_bytes, error)

    @property
    def pulls_in_flight(self) -> int:
        """Pull streams still being served (a cancelled client's ends when the server notices)."""
        return self._pulling

    def partial_bytes(self, name: str) -> int:
        """How many bytes of ``name`` an unfinished pull left on the server's disk."""
        library = self._library.get(self._canonical(name))
        return 0 if library is None else sum(self._partial.get(digest, 0) for digest, _ in library.layers)

    @staticmethod
    def _canonical(name: str) -> str:
        return name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"

    def _find(self, name: Any) -> _OllamaModel | None:
        return self._models.get(self._canonical(name)) if isinstance(name, str) and name else None

    def _error(self, status: int, message: str, headers: Mapping[str, str]) -> web.Response:
        return _ollama_error(status, message, headers)

    def _build_app(self) -> web.Application:
        app = web.Application(middlewares=[self._recorder()])
        app.router.add_get("/", self._handle_root)
        app.router.add_get("/api/version", self._handle_version)
        app.router.add_get("/api/tags", self._handle_tags)
        app.router.add_post("/api/show", self._handle_show)
        app.router.add_post("/api/embed", self._handle_embed)
        app.router.add_post("/api/chat", self._handle_chat)
        app.router.add_post("/api/pull", self._handle_pull)
        return app

    async def _handle_root(self, request: web.Request) -> web.Response:
        return web.Response(text="Ollama is running")

    async def _handle_version(self, request: web.Request) -> web.Response:
        return web.json_response({"version": self.version})

    def _details(self, model: _OllamaModel) -> Json:
        return {
            "parent_model": "",
            "format": "gguf",
            "family": model.family,
            "families": [model.family],
            "parameter_size": model.parameter_size,
            "quantization_level": "Q4_K_M",
        }

    async def _handle_tags(self, request: web.Request) -> web.Response:
        models = [
            {
                "name": m.name,
                "model": m.name,
                "modified_at": _now_iso(),
                "size": m.size_bytes,
                "digest": hashlib.sha256(m.name.encode()).hexdigest(),
                "details": self._details(m),
            }
            for m in self._models.values()
        ]
        return web.json_response({"models": models})

    async def _handle_show(self, request: web.Request) -> web.Response:
        body = await _json_body(request)
        body = body if isinstance(body, dict) else {}
        name = body.get("model") or body.get("name") or ""
        model = self._find(name)
        if model is None:
            return _ollama_error(404, f"model '{name}' not found")
        parameters = 'stop                           "<|eot_id|>"'
        if model.num_ctx is not None:
            parameters = f"num_ctx                        {model.num_ctx}\n{parameters}"
        return web.json_response(
            {
                "license": "",
                "modelfile": f'# Modelfile generated by "ollama show"\nFROM {model.name}\n',
                "parameters": parameters,
                "template": "{{ .Prompt }}",
                "details": self._details(model),
                "model_info": {
                    "general.architecture": model.family,
                    "general.parameter_count": 3_212_749_888,
                    f"{model.family}.context_length": model.context_length,
                    f"{model.family}.embedding_length": self.embedding_dim,
                },
                "capabilities": list(model.capabilities),
                "modified_at": _now_iso(),
            }
        )

    async def _handle_pull(self, request: web.Request) -> web.StreamResponse:
        """Ollama's pull stream: ``pulling manifest``, per layer ``pulling <short digest>`` with ``digest``,
        ``total`` and ``completed``, then ``verifying sha256 digest``, ``writing manifest``, ``success``; a
        failure is an ``{"error": ...}`` line (HTTP 200: the stream has begun)."""
        self._pulling += 1
        try:
            return await self._serve_pull(request)
        finally:
            self._pulling -= 1

    async def _serve_pull(self, request: web.Request) -> web.StreamResponse:
        body = await _json_body(request)
        body = body if isinstance(body, dict) else {}
        name = self._canonical(str(body.get("model") or body.get("name") or ""))
        response = web.StreamResponse(status=200, headers={"Content-Type": "application/x-ndjson"})
        await response.prepare(request)

        async def send(line: Json) -> None:
            await response.write((json.dumps(line) + "\n").encode())

        with contextlib.suppress(ConnectionResetError):  # the client cancelled: the partial bytes stay
            await send({"status": "pulling manifest"})
            library = self._library.get(name)
            if library is None and name in self._models:  # installed already: every layer is there
                installed = self._models[name]
                library = _LibraryModel(name, installed.family, ((f"sha256:{'0' * 64}", installed.size_bytes),))
                self._partial[library.layers[0][0]] = installed.size_bytes
            if library is None:
                await send({"error": "pull model manifest: file does not exist"})
                return await self._end(response)
            done_before = 0
            for digest, size in library.layers:
                have = self._partial.get(digest, 0)
                head = {"status": f"pulling {digest[7:19]}", "digest": digest, "total": size}
                await send({**head, "completed": have} if have else head)
                while have < size:
                    failure = self._pull_failure
                    if failure is not None and done_before + have >= failure[0]:
                        self._pull_failure = None
                        if failure[1] is None:
                            if request.transport is not None:
                                request.transport.abort()  # the server died mid-download
                            return response
                        await send({"error": failure[1]})
                        return await self._end(response)
                    step = min(self.pull_chunk, size - have)
                    if failure is not None:
                        step = min(step, max(1, failure[0] - done_before - have))
                    await self._pause(step / self.pull_rate if self.pull_rate else 0.0)
                    if self._stopping.is_set():
                        return response
                    await asyncio.sleep(0)
                    have += step
                    self._partial[digest] = have
                    await send({**head, "completed": have})
                done_before += size
            for status in ("verifying sha256 digest", "writing manifest"):
                await send({"status": status})
            for digest, _ in library.layers:
                self._partial.pop(digest, None)
            self._models[name] = _OllamaModel(name, 8192, library.family, ("completion", "tools"),
                                              size_bytes=library.size_bytes, parameter_size=library.parameter_size)
            await send({"status": "success"})
            return await self._end(response)
        return response

    @staticmethod
    async def _end(response: web.StreamResponse) -> web.StreamResponse:
        await response.write_eof()
        return response

    async def _handle_embed(self, request: web.Request) -> web.Response:
        body = await _json_body(request)
        body = body if isinstance(body, dict) else {}
        model = self._find(body.get("model"))
        if model is None:
            return _ollama_error(404, f'model "{body.get("model")}" not found, try pulling it first')
        if (failure := await self._embed_failure()) is not None:
            return failure
        given = body.get("input", [])
        texts = [given] if isinstance(given, str) else list(given)
        dims = {self._canonical(name): dim for name, dim in self.model_dims.items()}
        dimensions = body.get("dimensions") or dims.get(model.name) or self.embedding_dim
        return web.json_response(
            {
                "model": model.name,
                "embeddings": [fake_embedding(text, dimensions) for text in texts],
                "total_duration": 14_143_917,
                "load_duration": 1_019_500,
                "prompt_eval_count": sum(_estimate_tokens(text) for text in texts),
            }
        )

    async def _handle_chat(self, request: web.Request) -> web.StreamResponse:
        body = await _json_body(request)
        if not isinstance(body, dict):
            return _ollama_error(400, "invalid request body")
        model = self._find(body.get("model"))
        if model is None:
            return _ollama_error(404, f'model "{body.get("model")}" not found, try pulling it first')
        reply = self._next_reply(body)
        await self._pause(reply.delay)
        if (failure := self._failure(reply)) is not None:
            return failure
        message: Json = {"role": "assistant", "content": reply.content}
        if reply.tool_calls:
            message["tool_calls"] = [_ollama_tool_call(call) for call in reply.tool_calls]
        head = {"model": body["model"], "created_at": _now_iso()}
        done = _ollama_done(_estimate_tokens(body.get("messages", [])), _estimate_tokens(message))
        if not body.get("stream", True):
            full = {**head, "message": message, **done}
            if reply.malformed:
                return _malformed(full, reply.headers)
            return web.json_response(full, status=reply.status, headers=reply.headers)
        lines = [
            {**head, "message": {"role": "assistant", "content": piece}, "done": False}
            for piece in _chunks(reply.content, reply.pieces)
        ]
        if reply.tool_calls:
            calls = {"role": "assistant", "content": "", "tool_calls": message["tool_calls"]}
            lines.append({**head, "message": calls, "done": False})
        lines.append({**head, "message": {"role": "assistant", "content": ""}, **done})
        texts = [json.dumps(line) + "\n" for line in lines]
        if reply.malformed:
            texts[-1] = _truncated(lines[-1])
        headers = {"Content-Type": "application/x-ndjson", **reply.headers}
        return await _stream(request, reply.status, headers, texts)


async def _stream(
    request: web.Request, status: int, headers: Mapping[str, str], texts: Sequence[str]
) -> web.StreamResponse:
    response = web.StreamResponse(status=status, headers=headers)
    await response.prepare(request)
    with contextlib.suppress(ConnectionResetError):  # the client went away mid-stream
        for text in texts:
            await response.write(text.encode())
        await response.write_eof()
    return response


def _openai_error(
    status: int,
    message: str,
    error_type: str,
    code: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> web.Response:
    error = {"message": message, "type": error_type, "param": None, "code": code}
    return web.json_response({"error": error}, status=status, headers=headers)


def _openai_tool_call(call: Mapping[str, Any], default_id: str) -> Json:
    arguments = call["arguments"]
    if not isinstance(arguments, str):
        arguments = json.dumps(arguments)
    function = {"name": call["name"], "arguments": arguments}
    return {"id": call.get("id") or default_id, "type": "function", "function": function}


def _openai_error_type(status: int) -> str:
    if status == 429:
        return "rate_limit_error"
    return "server_error" if status >= 500 else "invalid_request_error"


class FakeOpenAI(_FakeModelServer):
    """A fake OpenAI-compatible server: /v1/chat/completions (JSON and SSE), /v1/embeddings and /v1/models.

    Any model name is accepted until ``add_model`` registers one (as llama.cpp does); after that
    unknown names get 404 ``model_not_found``.

    Args:
        require_api_key: When set, requests whose ``Authorization: Bearer`` differs get 401.
        reject_json_schema: Answer 500 to ``response_format.type == "json_schema"`` (as llama.cpp
            does) while ``{"type": "json_object", "schema": ...}`` is accepted. Rejected requests
            do not consume a scripted reply.
        props: When set, served as ``GET /props`` at the server root (llama.cpp's llama-server does,
            e.g. ``{"default_generation_settings": {"n_ctx": 2048}}``); otherwise /props is 404.
        tokenizer: ``"llama.cpp"`` serves ``POST /tokenize`` (``{"content"}`` → ``{"tokens"}``),
            ``"llama-cpp-python"`` serves ``POST /extras/tokenize/count`` (``{"input"}`` → ``{"count"}``);
            a token is :func:`fake_token_count`'s idea of one.
    """

    chat_path = "/v1/chat/completions"
    embed_path = "/v1/embeddings"
    _url_suffix = "/v1"

    def __init__(
        self,
        *,
        embedding_dim: int = 384,
        require_api_key: str | None = None,
        reject_json_schema: bool = False,
        props: Json | None = None,
        tokenizer: str | None = None,
    ) -> None:
        super().__init__()
        self.require_api_key = require_api_key
        self.reject_json_schema = reject_json_schema
        self.props = props
        self.tokenizer = tokenizer
        self.embedding_dim = embedding_dim
        self._models: dict[str, str] = {}
        self._model_fields: dict[str, Json] = {}
        self._ids = itertools.count(1)

    def add_model(self, name: str, *, owned_by: str = "organization-owner", **fields: Any) -> None:
        """List ``name`` in /v1/models and make model names strict; ``fields`` are extra keys of its
        entry, e.g. ``max_model_len=4096`` (vLLM) or ``context_length=8192`` (LM Studio)."""
        self._models[name] = owned_by
        self._model_fields[name] = dict(fields)

    def _build_app(self) -> web.Application:
        app = web.Application(middlewares=[self._recorder(), self._authenticator()])
        app.router.add_get("/v1/models", self._handle_models)
        app.router.add_post("/v1/chat/completions", self._handle_chat)
        app.router.add_post("/v1/embeddings", self._handle_embeddings)
        if self.props is not None:
            app.router.add_get("/props", self._handle_props)
        if self.tokenizer == "llama.cpp":
            app.router.add_post("/tokenize", self._handle_tokenize)
        elif self.tokenizer == "llama-cpp-python":
            app.router.add_post("/extras/tokenize/count", self._handle_tokenize_count)
        return app

    async def _handle_embeddings(self, request: web.Request) -> web.Response:
        body = await _json_body(request)
        if not isinstance(body, dict):
            return _openai_error(400, "We could not parse the JSON body.", "invalid_request_error")
        model = str(body.get("model", ""))
        if self._models and model not in self._models:
            message = f"The model `{model}` does not exist or you do not have access to it."
            return _openai_error(404, message, "invalid_request_error", "model_not_found")
        if (failure := await self._embed_failure()) is not None:
            return failure
        given = body.get("input", [])
        texts = [given] if isinstance(given, str) else [str(text) for text in given]
        if not texts:
            return _openai_error(400, "'input' must not be empty", "invalid_request_error")
        dimensions = body.get("dimensions") or self.embedding_dim
        data = [{"object": "embedding", "index": index, "embedding": fake_embedding(text, dimensions)}
                for index, text in enumerate(texts)]
        tokens = sum(_estimate_tokens(text) for text in texts)
        return web.json_response({"object": "list", "data": data, "model": model,
                                  "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})

    async def _handle_props(self, request: web.Request) -> web.Response:
        return web.json_response(self.props)

    async def _handle_tokenize(self, request: web.Request) -> web.Response:
        body = await _json_body(request)
        text = body.get("content", "") if isinstance(body, dict) else ""
        return web.json_response({"tokens": list(range(fake_token_count(str(text))))})

    async def _handle_tokenize_count(self, request: web.Request) -> web.Response:
        body = await _json_body(request)
        text = body.get("input", "") if isinstance(body, dict) else ""
        return web.json_response({"count": fake_token_count(str(text))})

    def _authenticator(self) -> Middleware:
        @web.middleware
        async def authenticate(request: web.Request, handler: Handler) -> web.StreamResponse:
            expected = self.require_api_key
            given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
            if expected is None or given == expected:
                return await handler(request)
            if not given:
                message = "You didn't provide an API key in an Authorization header (Bearer auth)."
                return _openai_error(401, message, "invalid_request_error")
            message = f"Incorrect API key provided: {given[:3]}***{given[-2:]}."
            return _openai_error(401, message, "invalid_request_error", "invalid_api_key")

        return authenticate

    async def _handle_models(self, request: web.Request) -> web.Response:
        data = [
            {"id": name, "object": "model", "created": 1_700_000_000, "owned_by": owner,
             **self._model_fields.get(name, {})}
            for name, owner in self._models.items()
        ]
        return web.json_response({"object": "list", "data": data})

    def _error(self, status: int, message: str, headers: Mapping[str, str]) -> web.Response:
        return _openai_error(status, message, _openai_error_type(status), headers=headers)

    def _refusal(self, body: Json) -> web.Response | None:
        model = str(body.get("model", ""))
        if self._models and model not in self._models:
            message = f"The model `{model}` does not exist or you do not have access to it."
            return _openai_error(404, message, "invalid_request_error", "model_not_found")
        response_format = body.get("response_format")
        if (
            self.reject_json_schema
            and isinstance(response_format, dict)
            and response_format.get("type") == "json_schema"
        ):
            return _openai_error(500, "Unsupported response_format type: json_schema", "server_error")
        return None

    async def _handle_chat(self, request: web.Request) -> web.StreamResponse:
        body = await _json_body(request)
        if not isinstance(body, dict):
            return _openai_error(400, "We could not parse the JSON body.", "invalid_request_error")
        if (refusal := self._refusal(body)) is not None:
            return refusal
        reply = self._next_reply(body)
        await self._pause(reply.delay)
        if (failure := self._failure(reply)) is not None:
            return failure
        calls = [_openai_tool_call(call, f"call_{next(self._ids)}") for call in reply.tool_calls]
        prompt_tokens = _estimate_tokens(body.get("messages", []))
        completion_tokens = _estimate_tokens(reply.content or calls)
        usage = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
        head = {"id": f"chatcmpl-{next(self._ids)}", "created": int(time.time()), "model": body.get("model")}
        finish_reason = "tool_calls" if calls else "stop"
        if body.get("stream"):
            return await self._stream_chat(request, reply, head, calls, finish_reason, usage, body)
        content = reply.content if reply.content or not calls else None
        message: Json = {"role": "assistant", "content": content}
        if calls:
            message["tool_calls"] = calls
        choice = {"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}
        full = {**head, "object": "chat.completion", "choices": [choice], "usage": usage}
        if reply.malformed:
            return _malformed(full, reply.headers)
        return web.json_response(full, status=reply.status, headers=reply.headers)

    async def _stream_chat(
        self,
        request: web.Request,
        reply: Reply,
        head: Json,
        calls: list[Json],
        finish_reason: str,
        usage: Json,
        body: Json,
    ) -> web.StreamResponse:
        options = body.get("stream_options")
        include_usage = isinstance(options, dict) and bool(options.get("include_usage"))
        extra: Json = {"usage": None} if include_usage else {}

        def chunk(delta: Json, finish: str | None = None) -> Json:
            choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
            return {**head, "object": "chat.completion.chunk", "choices": [choice], **extra}

        chunks = [chunk({"role": "assistant", "content": ""})]
        chunks += [chunk({"content": piece}) for piece in _chunks(reply.content, reply.pieces)]
        for index, call in enumerate(calls):
            function = call["function"]
            start = {**call, "index": index, "function": {"name": function["name"], "arguments": ""}}
            chunks.append(chunk({"tool_calls": [start]}))
            chunks += [
                chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
                for piece in _chunks(function["arguments"])
            ]
        chunks.append(chunk({}, finish_reason))
        if include_usage:
            chunks.append({**head, "object": "chat.completion.chunk", "choices": [], "usage": usage})
        events = [f"data: {json.dumps(c)}\n\n" for c in chunks] + ["data: [DONE]\n\n"]
        if reply.malformed:
            events = [events[0], f"data: {_truncated(chunks[1])}\n\n"]
        headers = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache", **reply.headers}
        return await _stream(request, reply.status, headers, events)
