"""The OpenAI-compatible provider (OpenAI, llama.cpp, LM Studio, vLLM …) over httpx."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import re
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any

import httpx

from openhuman_desktop.errors import ContextOverflow, LlmReplyError, LlmTimedOut, LlmUnavailable
from openhuman_desktop.llm.base import (
    MAX_SERVER_MESSAGE,
    ChatRequest,
    ChatResponse,
    Message,
    ModelInfo,
    ToolCall,
    ToolSpec,
    short_server_message,
)
from openhuman_desktop.llm.limits import WindowNote, limits, overflow
from openhuman_desktop.llm.retry import RateLimitedError, RetryPolicy, Sleep, retry_rate_limited, should_wait
from openhuman_desktop.llm.schema_memory import SchemaMemory
from openhuman_desktop.secret_env import secret_from

log = logging.getLogger(__name__)

CHECK_TIMEOUT = 15.0
"""Longest wait for the model check (``GET /models``): a status line must not hang."""

JSON_SCHEMA, JSON_OBJECT_WITH_SCHEMA, JSON_OBJECT = 0, 1, 2
"""How a JSON schema is sent, from the best to the most widely supported (see ``OpenAICompatClient``)."""

_LEVEL_NAMES = ("json_schema", "json_object with schema", "json_object")
_LEVELS = (JSON_SCHEMA, JSON_OBJECT_WITH_SCHEMA, JSON_OBJECT)
_SCHEMA_REJECTED = frozenset({400, 422, 500})
_OVERFLOW_STATUSES = frozenset({400, 413, 422, 500})
_NO_TOKENIZER = ""
_CONTEXT_KEYS = ("context_length", "context_window", "max_model_len")
_SCHEMA_INSTRUCTION = "Answer with a single JSON object that follows this JSON schema exactly:\n"


class _HttpStatusError(Exception):
    """A non-2xx, non-429 answer; turned into a sentence by the caller, which knows what was asked."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(f"HTTP {status}")
        self.status = status
        self.text = text


class OpenAICompatClient:
    """A chat model behind an OpenAI-compatible ``/chat/completions`` endpoint.

    A JSON schema is sent as ``response_format`` type ``json_schema``. Servers that reject it (HTTP 400,
    422 or 500, e.g. llama.cpp) are asked again with ``{"type": "json_object", "schema": …}`` and then
    with plain ``{"type": "json_object"}`` plus the schema in a system message; the form that worked is
    used for later calls. A refusal for the prompt's length (``ContextOverflow``) is never taken for a schema
    rejection.

    Every request carries ``max_tokens`` (``llm.limits``): the caller's, or a default cap that fits the
    known window. The window is config.toml's ``context_window``, else the server's own report (an entry
    of ``/models`` with ``context_length``/``max_model_len``, or llama.cpp's ``/props``), else assumed.

    Args:
        model: the model id, e.g. ``"gpt-4o-mini"``.
        base_url: the API root, e.g. ``"https://api.openai.com/v1"``.
        api_key_env: the NAME of the environment variable holding the API key, or None for no key.
        http: an ``httpx.AsyncClient`` to use; the caller keeps owning it. By default the client creates
            (and ``aclose`` closes) its own.
        timeout: longest wait in seconds for one call (and between two streamed chunks); a request's own
            shorter ``timeout`` wins.
        retry: what to do on HTTP 429.
        sleep: the back-off sleep (a fake in tests).
        environ: where ``api_key_env`` is looked up (read on every call).
        source: where the settings came from, for error messages, e.g. ``"[models.reasoning]"``.
        context_window: the window set in config.toml (``context_window``); it wins over the server's.
        schema_memory: where the form of JSON schema the server accepted is remembered across starts.
    """

    def __init__(
        self,
        model: str,
        base_url: str,
        *,
        api_key_env: str | None,
        http: httpx.AsyncClient | None = None,
        timeout: float = 120,
        retry: RetryPolicy | None = None,
        sleep: Sleep = asyncio.sleep,
        environ: Mapping[str, str] = os.environ,
        source: str | None = None,
        context_window: int | None = None,
        schema_memory: SchemaMemory | None = None,
    ) -> None:
        self.model = model
        self.base_url = base_url.strip().rstrip("/")
        self.api_key_env = api_key_env
        self._timeout = float(timeout)
        self._retry = retry or RetryPolicy()
        self._sleep = sleep
        self._environ = environ
        self._source = source or f'the model "{model}"'
        self._owns_http = http is None
        self._http = http or httpx.AsyncClient(timeout=httpx.Timeout(self._timeout))
        self._schema_memory = schema_memory
        remembered = schema_memory.get(self.base_url, model) if schema_memory is not None else None
        self._schema_level = remembered if remembered in _LEVELS else JSON_SCHEMA
        self._closed = False
        self._configured_window = context_window
        self._window = WindowNote(model, context_window, self._source)
        self._tokenizer: str | None = None  # the path that counted, _NO_TOKENIZER when none does
        self._has_props = True  # until /props answers 404
        self._cap_key = "max_tokens"  # OpenAI's newer models want "max_completion_tokens"
        self._gives_logprobs = True  # until a server refuses the fields
        self._takes_penalty = True  # llama.cpp's and LM Studio's repeat_penalty, until a server refuses it

    @property
    def description(self) -> str:
        """e.g. ``OpenAI-compatible model gpt-4o-mini at https://api.openai.com/v1``."""
        return f"OpenAI-compatible model {self.model} at {self.base_url}"

    @property
    def context_window(self) -> int:
        """The window known now: config.toml's, else the last check's report, else the assumed one."""
        return self._window.tokens

    def remember_schemas(self, memory: SchemaMemory) -> None:
        """Remember the accepted JSON-schema form in ``memory`` from now on, starting from what it knows."""
        self._schema_memory = memory
        remembered = memory.get(self.base_url, self.model)
        if remembered in _LEVELS:
            self._schema_level = remembered

    @property
    def schema_level(self) -> int:
        """How JSON schemas are sent now: ``JSON_SCHEMA``, ``JSON_OBJECT_WITH_SCHEMA`` or ``JSON_OBJECT``."""
        return self._schema_level

    async def chat(self, request: ChatRequest) -> ChatResponse:
        """One complete answer.

        Raises:
            LlmUnavailable: unreachable, key missing or refused, model unknown, server error, timeout,
                or still rate limited after the retries.
            LlmReplyError: the body is not the JSON of a chat completion.
        """
        response = await self._open(request, stream=False)
        return self._completion(self._json(response))

    async def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        """The answer's text as the server generates it (server-sent events).

        Raises:
            LlmUnavailable: as for ``chat``; the timeout applies to the wait for each chunk.
            LlmReplyError: an event could not be read.
        """
        timeout = self._timeout_for(request)
        response = await self._open(request, stream=True)
        lines = response.aiter_lines()
        try:
            while True:
                with self._translated(timeout):
                    async with asyncio.timeout(timeout):
                        line = await anext(lines, None)
                if line is None:
                    return
                if not line.startswith("data:"):
                    continue
                payload = line.removeprefix("data:").strip()
                if payload == "[DONE]":
                    return
                text = self._delta_text(payload)
                if text:
                    yield text
        finally:
            await _aclose(lines)
            await response.aclose()

    async def check(self) -> ModelInfo:
        """Verify that the endpoint answers and offers the model; read its context window if listed.

        Servers without a usable ``/models`` list (HTTP 404 or an empty list) only prove reachability.

        Raises:
            LlmUnavailable: unreachable, key missing or refused, or the model is not offered.
            LlmReplyError: the model list is not JSON.
        """
        timeout = min(self._timeout, CHECK_TIMEOUT)

        async def attempt() -> httpx.Response:
            request = self._http.build_request("GET", self._url("/models"), headers=self._headers())
            return await self._send(request, stream=False, timeout=timeout)

        try:
            response = await retry_rate_limited(
                attempt, policy=self._retry, sleep=self._sleep, what=self.base_url
            )
        except _HttpStatusError as exc:
            if exc.status != 404:
                raise LlmUnavailable(self._status_message(exc)) from exc
            log.debug("%s has no /models; it is reachable, the model is not verified", self.base_url)
            listed = None
        else:
            listed = self._listed_window(self._json(response))
        if listed is None and self._configured_window is None:
            listed = await self._props_window(timeout)
        return self._window.learn(listed)

    async def count_tokens(self, text: str) -> int | None:
        """``text``'s tokens by the server's tokenizer: llama.cpp's ``/tokenize`` or llama-cpp-python's
        ``/extras/tokenize/count``; None when it has neither (asked once) or the call fails."""
        if self._tokenizer == _NO_TOKENIZER:
            return None
        paths = [self._tokenizer] if self._tokenizer else ["/tokenize", "/extras/tokenize/count"]
        for path in paths:
            body = {"content": text} if path == "/tokenize" else {"input": text, "model": self.model}
            try:
                data = await self._root_json("POST", path, min(self._timeout, CHECK_TIMEOUT), body)
            except _HttpStatusError:
                continue
            except (RateLimitedError, LlmUnavailable, LlmReplyError) as exc:
                log.debug("counting tokens at %s failed: %s", self.base_url, exc)
                return None
            tokens = data.get("tokens")
            count = len(tokens) if isinstance(tokens, list) else _int_or_none(data.get("count"))
            if count is not None:
                self._tokenizer = path
                return count
        if self._tokenizer is None:
            log.debug("%s has no tokenizer endpoint; token counts stay estimates", self.base_url)
            self._tokenizer = _NO_TOKENIZER
        return None

    async def aclose(self) -> None:
        """Close the HTTP connections if this object created the ``httpx.AsyncClient``; safe twice."""
        if self._closed:
            return
        self._closed = True
        if self._owns_http:
            await self._http.aclose()

    # -- request ------------------------------------------------------------------------------------

    def _timeout_for(self, request: ChatRequest) -> float:
        return min(self._timeout, request.timeout)

    def _url(self, path: str) -> str:
        return self.base_url + path

    def _root_url(self, path: str) -> str:
        """llama.cpp's own endpoints (``/props``, ``/tokenize``) live at the server root, not under ``/v1``."""
        return self.base_url.removesuffix("/v1") + path

    async def _root_json(self, method: str, path: str, timeout: float, body: Any = None) -> dict[str, Any]:
        request = self._http.build_request(method, self._root_url(path), json=body, headers=self._headers())
        return self._json(await self._send(request, stream=False, timeout=timeout))

    async def _props_window(self, timeout: float) -> int | None:
        """llama.cpp's ``/props``: ``default_generation_settings.n_ctx`` (older builds: ``n_ctx``).

        A server without it (404: llama-cpp-python, OpenAI) is not asked again.
        """
        if not self._has_props:
            return None
        try:
            props = await self._root_json("GET", "/props", timeout)
        except (_HttpStatusError, RateLimitedError, LlmUnavailable, LlmReplyError) as exc:
            log.debug("%s has no usable /props (%s)", self.base_url, exc)
            if isinstance(exc, _HttpStatusError) and exc.status in (404, 405):
                self._has_props = False
            return None
        settings = props.get("default_generation_settings")
        window = _int_or_none(settings.get("n_ctx")) if isinstance(settings, dict) else None
        return window or _int_or_none(props.get("n_ctx"))

    def _api_key(self) -> str | None:
        if self.api_key_env is None:
            return None
        key = secret_from(self._environ, self.api_key_env).strip()
        return key or None

    def _headers(self) -> dict[str, str]:
        if self.api_key_env is None:
            return {}
        key = self._api_key()
        if key is None:
            raise LlmUnavailable(
                f"The environment variable {self.api_key_env} (api_key_env of {self._source}) is not set."
            )
        return {"Authorization": f"Bearer {key}"}

    def _body(self, request: ChatRequest, *, stream: bool, level: int, cap: int) -> dict[str, Any]:
        messages = _messages(request.messages)
        body: dict[str, Any] = {"model": self.model, "messages": messages, "stream": stream, self._cap_key: cap}
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.logprobs and self._gives_logprobs:
            body["logprobs"] = True
            body["top_logprobs"] = request.logprobs
        if request.repeat_penalty is not None and self._takes_penalty:
            body["repeat_penalty"] = request.repeat_penalty
        if request.tools:
            body["tools"] = [_tool_dict(tool) for tool in request.tools]
            # issue 10 item 6: llama.cpp-style servers leave tool calls to the model's text unless asked.
            body["tool_choice"] = "auto"
        if request.json_schema is not None:
            schema = dict(request.json_schema)
            body["response_format"] = _response_format(schema, request.schema_name, level)
            if level == JSON_OBJECT:
                instruction = {"role": "system", "content": _SCHEMA_INSTRUCTION + json.dumps(schema)}
                messages.insert(_after_leading_system(messages), instruction)
        return body

    async def _open(self, request: ChatRequest, *, stream: bool) -> httpx.Response:
        """Send a chat request (retrying 429, falling back on rejected schemas); a 2xx response."""
        timeout = self._timeout_for(request)
        level = self._schema_level
        chosen = limits(request, self.context_window)
        while True:
            body = self._body(request, stream=stream, level=level, cap=chosen.max_tokens)
            log.debug(
                "POST %s model=%s messages=%d tools=%d response_format=%s stream=%s cap %d tokens (%s)",
                self._url("/chat/completions"), self.model, len(body["messages"]), len(request.tools),
                _LEVEL_NAMES[level] if request.json_schema is not None else None, stream,
                chosen.max_tokens, chosen.source,
            )
            attempt = functools.partial(self._post, body, stream=stream, timeout=timeout)
            try:
                response = await retry_rate_limited(
                    attempt, policy=self._retry, sleep=self._sleep, what=self.base_url
                )
            except _HttpStatusError as exc:
                if exc.status in _OVERFLOW_STATUSES and (refused := self._overflow(exc.text)) is not None:
                    self._window.refused(refused.context_window)
                    raise refused from exc
                if exc.status in (400, 422) and "logprob" in exc.text.lower() and "logprobs" in body:
                    log.info("%s refuses logprobs; asking without them from now on", self.base_url)
                    self._gives_logprobs = False
                    continue
                if exc.status in (400, 422) and "repeat_penalty" in exc.text.lower() and "repeat_penalty" in body:
                    log.info("%s refuses repeat_penalty; asking without it from now on", self.base_url)
                    self._takes_penalty = False
                    continue
                if exc.status == 400 and self._wants_completion_tokens(exc.text):
                    log.info("%s wants max_completion_tokens instead of max_tokens", self.base_url)
                    self._cap_key = "max_completion_tokens"
                    continue
                if request.json_schema is None or exc.status not in _SCHEMA_REJECTED or level >= JSON_OBJECT:
                    raise LlmUnavailable(self._status_message(exc)) from exc
                log.info(
                    "%s rejected response_format %s (HTTP %d); trying %s",
                    self.base_url, _LEVEL_NAMES[level], exc.status, _LEVEL_NAMES[level + 1],
                )
                level += 1
                continue
            if request.json_schema is not None and level != self._schema_level:
                self._schema_level = level  # remember only a form that worked (across starts, too)
                if self._schema_memory is not None:
                    self._schema_memory.set(self.base_url, self.model, level)
            return response

    async def _post(self, body: dict[str, Any], *, stream: bool, timeout: float) -> httpx.Response:
        request = self._http.build_request(
            "POST", self._url("/chat/completions"), json=body, headers=self._headers()
        )
        return await self._send(request, stream=stream, timeout=timeout)

    async def _send(self, request: httpx.Request, *, stream: bool, timeout: float) -> httpx.Response:
        """One HTTP exchange. Raises RateLimitedError on 429 and _HttpStatusError on other errors."""
        with self._translated(timeout):
            async with asyncio.timeout(timeout):
                response = await self._http.send(request, stream=True)
                try:
                    if not stream or response.status_code >= 400:
                        await response.aread()
                except BaseException:
                    await response.aclose()
                    raise
        if not stream or response.status_code >= 400:
            await response.aclose()
        retry_after = response.headers.get("Retry-After")
        if should_wait(response.status_code, retry_after):
            raise RateLimitedError(retry_after, response.status_code)
        if response.status_code >= 400:
            raise _HttpStatusError(response.status_code, response.text)
        return response

    # -- errors -------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _translated(self, timeout: float) -> Iterator[None]:
        """Turn what httpx raises into ``LlmUnavailable`` sentences."""
        try:
            yield
        except (TimeoutError, httpx.TimeoutException) as exc:
            raise LlmTimedOut(f"{self.base_url} did not answer within {timeout:g} s.") from exc
        except (httpx.ConnectError, httpx.UnsupportedProtocol, httpx.ProxyError) as exc:
            raise LlmUnavailable(f"Cannot reach {self.base_url} ({self._reason(exc)}).") from exc
        except httpx.TransportError as exc:
            raise LlmUnavailable(f"Lost the connection to {self.base_url} ({self._reason(exc)}).") from exc

    def _status_message(self, exc: _HttpStatusError) -> str:
        status = exc.status
        message = self._server_message(exc.text)
        if status in (401, 403):
            if self.api_key_env is not None:
                return (
                    f"{self.base_url} refused the API key in ${self.api_key_env} (HTTP {status})"
                    " — check the key."
                )
            return f"{self.base_url} requires an API key (HTTP {status}) — set api_key_env of {self._source}."
        if status == 404:
            if "model" in message.lower():
                return f'{self.base_url} does not know the model "{self.model}" (HTTP 404) — check its name.'
            return (
                f"{self.base_url}/chat/completions was not found (HTTP 404) — "
                "base_url should be the API root, e.g. ending in /v1."
            )
        if status >= 500:
            return f"{self.base_url} failed (HTTP {status}): {message}"
        return f"{self.base_url} rejected the request (HTTP {status}): {message}"

    def _wants_completion_tokens(self, text: str) -> bool:
        """OpenAI's reasoning models refuse ``max_tokens`` and name ``max_completion_tokens`` instead."""
        return self._cap_key == "max_tokens" and "max_completion_tokens" in text

    def _overflow(self, text: str) -> ContextOverflow | None:
        sentence = f"{self.base_url} refused the prompt as longer than the model's context: "
        return overflow(text, sentence + self._server_message(text))

    def _server_message(self, text: str) -> str:
        """The server's own error message, short, on one line, without the API key."""
        message: Any = text
        with contextlib.suppress(ValueError):
            data = json.loads(text)
            if isinstance(data, dict):
                error = data.get("error", data.get("detail", data.get("message", text)))
                message = error.get("message", text) if isinstance(error, dict) else error
        return short_server_message(self._redact(str(message)))

    def _reason(self, exc: BaseException) -> str:
        text = " ".join(self._redact(str(exc)).split())
        return text[:MAX_SERVER_MESSAGE] if text else type(exc).__name__

    def _redact(self, text: str) -> str:
        key = self._api_key()
        return text.replace(key, "***") if key else text

    # -- replies ------------------------------------------------------------------------------------

    def _json(self, response: httpx.Response) -> dict[str, Any]:
        try:
            data = response.json()
        except ValueError as exc:
            log.debug("unreadable body from %s (HTTP %d, %d bytes)", self.base_url, response.status_code,
                      len(response.content))
            raise LlmReplyError(f"{self.base_url} sent a reply that is not JSON.") from exc
        if not isinstance(data, dict):
            raise LlmReplyError(f"{self.base_url} sent JSON that is not an object.")
        return data

    def _completion(self, data: dict[str, Any]) -> ChatResponse:
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise LlmReplyError(f"{self.base_url} sent a completion without choices.")
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise LlmReplyError(f"{self.base_url} sent a completion without a message.")
        calls = tuple(self._tool_call(call) for call in message.get("tool_calls") or ())
        usage = data.get("usage")
        if not isinstance(usage, dict):
            usage = {}
        return ChatResponse(
            content=message.get("content") or "",
            tool_calls=calls,
            prompt_tokens=_int_or_none(usage.get("prompt_tokens")),
            completion_tokens=_int_or_none(usage.get("completion_tokens")),
            raw=data,
        )

    def _tool_call(self, call: Any) -> ToolCall:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise LlmReplyError(f"{self.base_url} sent a tool call without a function name.")
        arguments = function.get("arguments") or {}
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except ValueError as exc:
                raise LlmReplyError(
                    f"{self.base_url} sent arguments for tool {function['name']} that are not JSON."
                ) from exc
        if not isinstance(arguments, dict):
            message = f"{self.base_url} sent arguments for tool {function['name']} that are not an object."
            raise LlmReplyError(message)
        call_id = call.get("id")
        return ToolCall(function["name"], arguments, call_id if isinstance(call_id, str) else None)

    def _delta_text(self, payload: str) -> str:
        try:
            event = json.loads(payload)
        except ValueError as exc:
            raise LlmReplyError(f"{self.base_url} sent a streamed event that is not JSON.") from exc
        if not isinstance(event, dict):
            raise LlmReplyError(f"{self.base_url} sent a streamed event that is not a JSON object.")
        if "error" in event:
            if (refused := self._overflow(payload)) is not None:
                raise refused
            raise LlmUnavailable(f"{self.base_url} failed while answering: {self._server_message(payload)}")
        choices = event.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return ""  # e.g. the final usage event
        delta = choices[0].get("delta")
        content = delta.get("content") if isinstance(delta, dict) else None
        return content if isinstance(content, str) else ""

    def _listed_window(self, data: dict[str, Any]) -> int | None:
        """Check that ``/models`` offers the model; the window its entry gives, if any."""
        entries = [e for e in data.get("data") or () if isinstance(e, dict)]
        if not entries:
            log.debug("%s lists no models; it is reachable, the model is not verified", self.base_url)
            return None
        entry = next((e for e in entries if e.get("id") == self.model), None)
        if entry is None:
            offered = ", ".join(str(e.get("id")) for e in entries[:5]) + (" …" if len(entries) > 5 else "")
            message = f'{self.base_url} does not offer the model "{self.model}" (it offers {offered}).'
            raise LlmUnavailable(message)
        return next((_int_or_none(entry.get(key)) for key in _CONTEXT_KEYS if key in entry), None)


def _response_format(schema: dict[str, Any], name: str, level: int) -> dict[str, Any]:
    if level == JSON_SCHEMA:
        safe_name = re.sub(r"[^A-Za-z0-9_-]", "_", name)[:64] or "answer"
        return {"type": "json_schema", "json_schema": {"name": safe_name, "schema": schema, "strict": False}}
    if level == JSON_OBJECT_WITH_SCHEMA:
        return {"type": "json_object", "schema": schema}
    return {"type": "json_object"}


def _after_leading_system(messages: Sequence[Mapping[str, Any]]) -> int:
    index = 0
    while index < len(messages) and messages[index]["role"] == "system":
        index += 1
    return index


def _messages(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Our messages in OpenAI's shape; tool results without an id get the id of the call they answer."""
    out: list[dict[str, Any]] = []
    pending: list[tuple[str, str]] = []  # (id, name) of the last assistant turn's unanswered calls
    for index, message in enumerate(messages):
        if message.role == "assistant" and message.tool_calls:
            calls = [
                (call.id or f"call_{index}_{number}", call) for number, call in enumerate(message.tool_calls)
            ]
            pending = [(call_id, call.name) for call_id, call in calls]
            out.append({"role": "assistant", "content": message.content, "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": json.dumps(dict(call.arguments))},
                }
                for call_id, call in calls
            ]})
        elif message.role == "tool":
            item: dict[str, Any] = {"role": "tool", "content": message.content}
            call_id = _answered_call(pending, message.tool_call_id, message.tool_name)
            if call_id is not None:
                item["tool_call_id"] = call_id
            out.append(item)
        else:
            out.append({"role": message.role, "content": message.content})
    return out


def _answered_call(pending: list[tuple[str, str]], call_id: str | None, name: str | None) -> str | None:
    """The id a tool result answers, removing it from ``pending``."""
    for position, (pending_id, pending_name) in enumerate(pending):
        if pending_id == call_id or (call_id is None and pending_name == name):
            del pending[position]
            return pending_id
    if call_id is None and pending:
        return pending.pop(0)[0]
    return call_id


def _tool_dict(tool: ToolSpec) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": dict(tool.parameters)},
    }


def _int_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None



async def _aclose(iterator: object) -> None:
    close = getattr(iterator, "aclose", None)
    if close is not None:
        await close()
