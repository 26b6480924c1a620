"""A recording proxy on 127.0.0.1 in front of an OpenAI-compatible server (bench-only).

Each listener stands for one model tier (``local``, ``reasoning``): the app's ``[models.*]`` tables point at
different listeners of the same proxy, which forwards everything to one upstream server and records, per
request, what the real server was asked and what it said: the output cap sent (``max_tokens``), the
``response_format`` type, tools, the HTTP status, the duration and the server's ``usage``.

A request sent without an output cap is recorded as such; with ``safety_cap`` set, the proxy then adds
``max_tokens = safety_cap`` before forwarding, so that one runaway answer cannot hold the single-slot server
for minutes (llama.cpp keeps generating after the client gave up). The figures always say how many requests
came without a cap; the cap only bounds how long the bench takes.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

CAP_KEYS = ("max_tokens", "max_completion_tokens", "n_predict")
CONTEXT_WORDS = ("context", "n_ctx", "too long", "exceed")


@dataclass
class Exchange:
    """One request through the proxy and its answer."""

    tier: str
    phase: str
    path: str
    started: float
    request_bytes: int = 0
    max_tokens: int | None = None
    capped_by_proxy: bool = False
    response_format: str | None = None
    tools: int = 0
    tool_choice: Any = None
    stream: bool = False
    status: int = 0
    seconds: float = 0.0
    response_bytes: int = 0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str | None = None
    content: str = ""
    tool_calls: int = 0
    stream_pieces: int = 0
    """Of a streamed answer: the content deltas with text (what the app's client yields one by one)."""
    error: str = ""
    done: bool = False
    client_gone: bool = False
    """The app stopped waiting (its timeout) before the server answered."""
    body: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def is_chat(self) -> bool:
        return self.path.endswith("/chat/completions")

    @property
    def refused(self) -> bool:
        return self.done and (self.status >= 400 or self.status == 0)

    @property
    def refused_for_context(self) -> bool:
        text = self.error.lower()
        return self.refused and any(word in text for word in CONTEXT_WORDS)

    @property
    def is_evaluation(self) -> bool:
        """A request for JSON (an evaluation, its repair, or an intent question), not a free-text run."""
        return self.response_format is not None


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Listener

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        return

    def do_GET(self) -> None:
        self._forward(None)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._forward(self.rfile.read(length) if length else b"")

    def _forward(self, raw: bytes | None) -> None:
        proxy = self.server.proxy
        exchange = Exchange(tier=self.server.tier, phase=proxy.phase, path=self.path, started=time.time())
        body: Any = None
        if raw:
            exchange.request_bytes = len(raw)
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
        if isinstance(body, dict):
            exchange.body = body
            caps = [body[key] for key in CAP_KEYS if isinstance(body.get(key), int) and body[key] > 0]
            exchange.max_tokens = caps[0] if caps else None
            response_format = body.get("response_format")
            if isinstance(response_format, dict):
                exchange.response_format = str(response_format.get("type"))
            exchange.tools = len(body.get("tools") or ())
            exchange.tool_choice = body.get("tool_choice")
            exchange.stream = bool(body.get("stream"))
            if exchange.max_tokens is None and proxy.safety_cap and self.path.endswith("/chat/completions"):
                body["max_tokens"] = proxy.safety_cap
                exchange.capped_by_proxy = True
                raw = json.dumps(body).encode()
        proxy.record(exchange)  # at once: a tick may end (the app gave up) before the server answers
        started = time.perf_counter()
        status, headers, answer = proxy.upstream_call(self.command, self.path, raw)
        exchange.seconds = time.perf_counter() - started
        exchange.status = status
        exchange.response_bytes = len(answer)
        _read_answer(exchange, answer)
        exchange.done = True
        try:
            self.send_response(status or 502)
            for name, value in headers:
                if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)
        except OSError:  # the client timed out and closed its end
            exchange.client_gone = True
            self.close_connection = True


def _read_answer(exchange: Exchange, answer: bytes) -> None:
    text = answer.decode("utf-8", errors="replace")
    if exchange.status >= 400 or exchange.status == 0:
        exchange.error = text[:2000]
        return
    if exchange.stream:
        pieces = []
        for line in text.splitlines():
            payload = line.removeprefix("data:").strip()
            if not line.startswith("data:") or payload == "[DONE]":
                continue
            try:
                event = json.loads(payload)
            except ValueError:
                continue
            _usage(exchange, event)
            for choice in event.get("choices") or ():
                delta = choice.get("delta") or {}
                pieces.append(delta.get("content") or "")
                exchange.stream_pieces += bool(pieces[-1])
                exchange.finish_reason = choice.get("finish_reason") or exchange.finish_reason
        exchange.content = "".join(pieces)
        return
    try:
        data = json.loads(text)
    except ValueError:
        return
    if not isinstance(data, dict):
        return
    _usage(exchange, data)
    choices = data.get("choices") or ()
    if choices and isinstance(choices[0], dict):
        message = choices[0].get("message") or {}
        exchange.content = message.get("content") or ""
        exchange.tool_calls = len(message.get("tool_calls") or ())
        exchange.finish_reason = choices[0].get("finish_reason")


def _usage(exchange: Exchange, data: dict[str, Any]) -> None:
    usage = data.get("usage")
    if isinstance(usage, dict):
        exchange.prompt_tokens = usage.get("prompt_tokens", exchange.prompt_tokens)
        exchange.completion_tokens = usage.get("completion_tokens", exchange.completion_tokens)


class _Listener(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, proxy: ModelProxy, tier: str) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.proxy = proxy
        self.tier = tier


class ModelProxy:
    """Listeners on 127.0.0.1, one per tier, that forward to ``upstream`` (e.g. ``http://127.0.0.1:8090/v1``)
    and keep an :class:`Exchange` per request. ``phase`` labels the requests that arrive from now on."""

    def __init__(self, upstream: str, tiers: Iterable[str] = ("local", "reasoning"), *,
                 safety_cap: int | None = None, timeout: float = 900.0) -> None:
        parts = urlsplit(upstream)
        self._host = parts.hostname or "127.0.0.1"
        self._port = parts.port or 80
        self._prefix = parts.path.rstrip("/")
        self._timeout = timeout
        self.safety_cap = safety_cap
        self.phase = "start"
        self.exchanges: list[Exchange] = []
        self._lock = threading.Lock()
        self._upstream_lock = threading.Lock()  # the server has one slot: queue here, not in its socket
        self._listeners = {tier: _Listener(self, tier) for tier in tiers}
        self._threads = [threading.Thread(target=listener.serve_forever, daemon=True, name=f"proxy-{tier}")
                         for tier, listener in self._listeners.items()]
        for thread in self._threads:
            thread.start()

    def url(self, tier: str) -> str:
        """The base URL a ``[models.<tier>]`` table uses (same path as the upstream's, e.g. ``…/v1``)."""
        port = self._listeners[tier].server_address[1]
        return f"http://127.0.0.1:{port}{self._prefix}"

    def upstream_call(self, method: str, path: str, body: bytes | None) -> tuple[int, list[tuple[str, str]], bytes]:
        suffix = path.removeprefix(self._prefix) if self._prefix else path
        with self._upstream_lock:
            connection = http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
            try:
                headers = {"Content-Type": "application/json"} if body is not None else {}
                connection.request(method, self._prefix + suffix, body=body, headers=headers)
                response = connection.getresponse()
                return response.status, response.getheaders(), response.read()
            except OSError as exc:
                return 0, [], f"proxy: upstream failed: {exc}".encode()
            finally:
                connection.close()

    def record(self, exchange: Exchange) -> None:
        with self._lock:
            self.exchanges.append(exchange)

    def chats(self, phase: str | None = None) -> list[Exchange]:
        with self._lock:
            return [e for e in self.exchanges if e.is_chat and (phase is None or e.phase == phase)]

    def settle(self, timeout: float = 900.0) -> None:
        """Wait until every request so far has its answer (a request the app gave up on may still run)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if all(e.done for e in self.exchanges):
                    return
            time.sleep(0.1)

    def close(self) -> None:
        for listener in self._listeners.values():
            listener.shutdown()
            listener.server_close()
