"""The Ollama provider: LlmClient over the official ``ollama`` package's AsyncClient."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any

import httpx
import ollama
import pydantic

from openhuman_desktop.errors import LlmReplyError, LlmTimedOut, LlmUnavailable
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
from openhuman_desktop.llm.limits import Limits, WindowNote, limits, overflow
from openhuman_desktop.llm.retry import RateLimitedError, RetryPolicy, Sleep, retry_rate_limited, should_wait

log = logging.getLogger(__name__)

CHECK_TIMEOUT = 15.0
"""Longest wait for the model check (``/api/tags`` + ``/api/show``): a status line must not hang."""



class OllamaClient:
    """A chat model served by Ollama.

    Args:
        model: the model name as Ollama knows it, e.g. ``"llama3.2:3b"`` (``":latest"`` may be left out).
        host: the Ollama endpoint, e.g. ``"http://127.0.0.1:11434"``.
        client: an ``ollama.AsyncClient`` to use; the caller keeps owning it. By default the client
            creates (and ``aclose`` closes) its own.
        timeout: longest wait in seconds for one call (and between two streamed chunks); a request's
            own shorter ``timeout`` wins.
        retry: what to do on HTTP 429 (and on 503 with a ``Retry-After``, Ollama's "server busy").
        sleep: the back-off sleep (a fake in tests).
        context_window: the window set in config.toml (``context_window``); it wins over ``/api/show``.
        source: where the settings came from, for messages, e.g. ``"[models.local]"``.

    Every request carries ``num_predict`` and ``num_ctx`` (``llm.limits``): the caller's, or a default cap
    and a context sized for the prompt within the known window.
    """

    def __init__(
        self,
        model: str,
        host: str,
        *,
        client: ollama.AsyncClient | None = None,
        timeout: float = 120,
        retry: RetryPolicy | None = None,
        sleep: Sleep = asyncio.sleep,
        context_window: int | None = None,
        source: str | None = None,
    ) -> None:
        self.model = model
        self.host = _normalize_host(host)
        self._timeout = float(timeout)
        self._retry = retry or RetryPolicy()
        self._sleep = sleep
        self._owns_client = client is None
        self._client = client or ollama.AsyncClient(host=self.host)
        self._closed = False
        self._source = source or f'the model "{model}"'
        self._window = WindowNote(model, context_window, self._source)

    @property
    def description(self) -> str:
        """e.g. ``Ollama model llama3.2:3b at http://127.0.0.1:11434``."""
        return f"Ollama model {self.model} at {self.host}"

    @property
    def context_window(self) -> int:
        """The window known now: config.toml's, else the last check's ``/api/show``, else the assumed one."""
        return self._window.tokens

    @property
    def _where(self) -> str:
        return f"Ollama at {self.host}"

    def _limits(self, request: ChatRequest) -> Limits:
        chosen = limits(request, self.context_window)
        log.debug("Ollama %s: cap %d tokens (%s), num_ctx %d", self.model, chosen.max_tokens, chosen.source,
                  chosen.context)
        return chosen

    async def chat(self, request: ChatRequest) -> ChatResponse:
        """One complete answer (non-streaming ``/api/chat``).

        Raises:
            LlmUnavailable: Ollama is down, the model is missing, the server failed or timed out.
            LlmReplyError: the answer could not be read.
        """
        timeout = self._timeout_for(request)
        messages = [_message_dict(m) for m in request.messages]
        tools = [_tool_dict(t) for t in request.tools] or None
        schema = _schema(request)
        options = _options(request, self._limits(request))
        log.debug(
            "Ollama chat: model=%s messages=%d tools=%d schema=%s",
            self.model, len(messages), len(request.tools), schema is not None,
        )

        async def attempt() -> ollama.ChatResponse:
            with self._translated(timeout):
                async with asyncio.timeout(timeout):
                    if request.logprobs:  # Ollama ≥ 0.12 gives them; older servers ignore the fields
                        return await self._client.chat(
                            model=self.model, messages=messages, tools=tools, stream=False,
                            format=schema, options=options, logprobs=True, top_logprobs=request.logprobs,
                        )
                    return await self._client.chat(
                        model=self.model, messages=messages, tools=tools, stream=False,
                        format=schema, options=options,
                    )

        response = await retry_rate_limited(attempt, policy=self._retry, sleep=self._sleep, what=self._where)
        return _to_chat_response(response)

    async def stream(self, request: ChatRequest) -> AsyncIterator[str]:
        """The answer's text as Ollama generates it.

        Raises:
            LlmUnavailable: as for ``chat``; the timeout applies to the wait for each chunk.
            LlmReplyError: a streamed line could not be read.
        """
        timeout = self._timeout_for(request)
        messages = [_message_dict(m) for m in request.messages]
        tools = [_tool_dict(t) for t in request.tools] or None
        schema = _schema(request)
        options = _options(request, self._limits(request))

        async def open_stream() -> tuple[AsyncIterator[ollama.ChatResponse], ollama.ChatResponse | None]:
            parts: AsyncIterator[ollama.ChatResponse] | None = None
            try:
                with self._translated(timeout):
                    async with asyncio.timeout(timeout):
                        parts = await self._client.chat(
                            model=self.model, messages=messages, tools=tools, stream=True,
                            format=schema, options=options,
                        )
                        first = await anext(parts, None)  # surfaces HTTP errors before we yield anything
                return parts, first
            except BaseException:
                await _aclose(parts)
                raise

        parts, part = await retry_rate_limited(
            open_stream, policy=self._retry, sleep=self._sleep, what=self._where
        )
        try:
            while part is not None:
                if part.message.content:
                    yield part.message.content
                with self._translated(timeout):
                    async with asyncio.timeout(timeout):
                        part = await anext(parts, None)
        finally:
            await _aclose(parts)

    async def check(self) -> ModelInfo:
        """Verify that Ollama answers and has the model; learn its context window.

        The window is config.toml's ``context_window`` if set, else the Modelfile's ``num_ctx`` parameter
        (capped by the model's ``*.context_length``), else that context length, else the assumed default.

        Raises:
            LlmUnavailable: Ollama is down or the model is not installed (the message says how to fix it).
        """
        timeout = min(self._timeout, CHECK_TIMEOUT)

        async def attempt() -> ModelInfo:
            with self._translated(timeout):
                async with asyncio.timeout(timeout):
                    listed = await self._client.list()
                    if not _is_listed(self.model, [m.model or "" for m in listed.models]):
                        raise LlmUnavailable(self._not_installed())
                    shown = await self._client.show(self.model)
            trained = _context_length(shown.modelinfo)
            configured = _num_ctx(shown.parameters)
            reported = min(filter(None, (trained, configured)), default=None)
            return self._window.learn(reported)

        return await retry_rate_limited(attempt, policy=self._retry, sleep=self._sleep, what=self._where)

    async def count_tokens(self, text: str) -> int | None:
        """Ollama has no tokenizer endpoint: always None (callers keep their margin)."""
        return None

    async def aclose(self) -> None:
        """Close the HTTP connections if this object created the ``ollama.AsyncClient``; safe twice."""
        if self._closed:
            return
        self._closed = True
        if self._owns_client:
            await self._client.close()  # type: ignore[no-untyped-call]  # ollama leaves close() unannotated

    def _timeout_for(self, request: ChatRequest) -> float:
        return min(self._timeout, request.timeout)

    def _not_installed(self) -> str:
        return (
            f'The model "{self.model}" is not installed in Ollama at {self.host} '
            f"— run `ollama pull {self.model}`."
        )

    @contextlib.contextmanager
    def _translated(self, timeout: float) -> Iterator[None]:
        """Turn what ``ollama``/``httpx`` raise into our errors (``RateLimitedError`` for the retry loop)."""
        try:
            yield
        except ollama.ResponseError as exc:
            retry_after = _retry_after(exc)
            if should_wait(exc.status_code, retry_after):
                raise RateLimitedError(retry_after, exc.status_code) from exc
            refused = overflow(str(exc.error), f"{self._where} refused the prompt as longer than the model's "
                                               f"context: {short_server_message(str(exc.error))}")
            if refused is not None:
                raise refused from exc
            raise LlmUnavailable(self._response_error(exc)) from exc
        except (TimeoutError, httpx.TimeoutException) as exc:
            raise LlmTimedOut(f"{self._where} did not answer within {timeout:g} s.") from exc
        except (ConnectionError, httpx.ConnectError) as exc:
            # ollama turns httpx.ConnectError into ConnectionError, except while opening a stream
            message = f"Ollama is not running at {self.host} — start it with `ollama serve`."
            raise LlmUnavailable(message) from exc
        except httpx.TransportError as exc:
            raise LlmUnavailable(f"Lost the connection to {self._where} ({_reason(exc)}).") from exc
        except (json.JSONDecodeError, pydantic.ValidationError) as exc:
            log.debug("unreadable reply from %s: %s", self._where, exc)
            raise LlmReplyError(f"{self._where} sent a reply that is not valid Ollama JSON.") from exc

    def _response_error(self, exc: ollama.ResponseError) -> str:
        status = exc.status_code
        message = short_server_message(str(exc.error))
        if status == 404 or (status == -1 and "not found" in message.lower()):
            return self._not_installed()
        if status >= 500:
            return f"{self._where} failed (HTTP {status}): {message}"
        if status == -1:
            return f"{self._where} reported an error: {message}"
        return f"{self._where} rejected the request (HTTP {status}): {message}"


def _retry_after(exc: ollama.ResponseError) -> str | None:
    """The ``Retry-After`` header of the answer behind ``exc``.

    ``ollama`` raises ``ResponseError(...) from None`` inside its ``except httpx.HTTPStatusError``: the
    suppressed context still holds the httpx response and its headers.
    """
    context = exc.__context__
    if isinstance(context, httpx.HTTPStatusError):
        value: str | None = context.response.headers.get("Retry-After")
        return value
    return None


def _normalize_host(host: str) -> str:
    host = host.strip().rstrip("/")
    return host if "://" in host else f"http://{host}"


def _message_dict(message: Message) -> dict[str, Any]:
    out: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        out["tool_calls"] = [
            {"function": {"name": call.name, "arguments": dict(call.arguments)}}
            for call in message.tool_calls
        ]
    if message.role == "tool" and message.tool_name:
        out["tool_name"] = message.tool_name
    return out


def _tool_dict(tool: ToolSpec) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": dict(tool.parameters)},
    }


def _schema(request: ChatRequest) -> dict[str, Any] | None:
    schema = request.json_schema
    if schema is None:
        return None
    return schema if isinstance(schema, dict) else dict(schema)


def _options(request: ChatRequest, chosen: Limits) -> dict[str, Any]:
    options: dict[str, Any] = {"num_predict": chosen.max_tokens, "num_ctx": chosen.context}
    if request.temperature is not None:
        options["temperature"] = request.temperature
    if request.repeat_penalty is not None:
        options["repeat_penalty"] = request.repeat_penalty
    return options


def _to_chat_response(response: ollama.ChatResponse) -> ChatResponse:
    calls = tuple(
        ToolCall(name=call.function.name, arguments=dict(call.function.arguments or {}))
        for call in response.message.tool_calls or ()
    )
    return ChatResponse(
        content=response.message.content or "",
        tool_calls=calls,
        prompt_tokens=response.prompt_eval_count,
        completion_tokens=response.eval_count,
        raw=response.model_dump(mode="json", exclude_none=True),
    )


def _canonical(name: str) -> str:
    """``llama3.2`` and ``llama3.2:latest`` are the same model to Ollama."""
    return name if ":" in name.rsplit("/", 1)[-1] else f"{name}:latest"


def _is_listed(model: str, names: Sequence[str]) -> bool:
    wanted = _canonical(model)
    return any(_canonical(name) == wanted for name in names if name)


def _context_length(model_info: Mapping[str, Any] | None) -> int | None:
    for key, value in (model_info or {}).items():
        if key.endswith(".context_length") and isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


_NUM_CTX = re.compile(r"^\s*num_ctx\s+(\d+)\s*$", re.MULTILINE)


def _num_ctx(parameters: str | None) -> int | None:
    """The ``num_ctx`` line of ``/api/show``'s ``parameters`` (a Modelfile ``PARAMETER num_ctx N``)."""
    match = _NUM_CTX.search(parameters or "")
    return int(match.group(1)) if match and int(match.group(1)) > 0 else None



def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:MAX_SERVER_MESSAGE] if text else type(exc).__name__


async def _aclose(iterator: object) -> None:
    close = getattr(iterator, "aclose", None)
    if close is not None:
        await close()
