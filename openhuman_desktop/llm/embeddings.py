"""Embedding clients for ``[models.embedding]``: Ollama ``/api/embed`` and OpenAI-compatible ``/v1/embeddings``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol

import httpx
import ollama
import pydantic

from openhuman_desktop.config import Settings
from openhuman_desktop.errors import LlmReplyError, LlmUnavailable
from openhuman_desktop.llm.base import short_server_message
from openhuman_desktop.llm.retry import RateLimitedError, RetryPolicy, Sleep, retry_rate_limited, should_wait
from openhuman_desktop.secret_env import secret_from

log = logging.getLogger(__name__)

BATCH_SIZE = 64
"""Texts per request: one HTTP call embeds this many memories (Ollama and OpenAI both take a list)."""
TIMEOUT = 60.0
"""Longest wait in seconds for one batch."""
MAX_INPUT_CHARS = 2_000
"""Each text is cut to this many characters before it is sent: small embedding models (512 tokens) refuse
or silently cut longer inputs, and the start of a memory says what it is about."""
MAX_DIMENSIONS = 16_384
"""The longest vector accepted (embedding models give 384 to 4,096 numbers): a server sending more is broken,
and every memory's vector is kept in RAM."""
_FLOAT32_MAX = 3.4028234663852886e38
"""Vectors are stored as float32: a larger number would become infinite there (and NaN once normalized)."""


class EmbeddingRejected(LlmReplyError):
    """The server answered, but refused these texts (HTTP 4xx other than 401/403/404/429): retrying the
    same texts cannot help, other texts may work."""


class Embedder(Protocol):
    """A text-embedding model. Every failure is ``LlmUnavailable`` (a user-facing sentence: down, missing
    model, refused key, timeout) or ``LlmReplyError`` (the server answered, not usably)."""

    @property
    def model(self) -> str:
        """The model name as configured, e.g. ``"nomic-embed-text"``: what stored vectors are labelled with."""
        ...

    @property
    def description(self) -> str:
        """e.g. "Ollama model nomic-embed-text at http://127.0.0.1:11434"."""
        ...

    async def embed(self, texts: Sequence[str], *, timeout: float | None = None) -> list[list[float]]:
        """One vector per text, in order (sent in batches of ``batch_size``); all of one dimension."""
        ...

    async def aclose(self) -> None:
        """Release connections; safe twice."""
        ...


def _prepared(texts: Sequence[str]) -> list[str]:
    # An empty input gets an empty vector from some servers: a single space is embedded instead.
    return [text[:MAX_INPUT_CHARS] if text.strip() else " " for text in texts]


def _checked(vectors: Any, count: int, where: str) -> list[list[float]]:
    """The vectors of one answer, validated: ``count`` lists of finite numbers, all of one length."""
    if not isinstance(vectors, list) or len(vectors) != count:
        raise LlmReplyError(f"{where} sent {_count(vectors)} embeddings for {count} texts.")
    dims = {len(vector) if isinstance(vector, list) else -1 for vector in vectors}
    if len(dims) != 1 or min(dims) <= 0:
        raise LlmReplyError(f"{where} sent embeddings that are not lists of one length.")
    if max(dims) > MAX_DIMENSIONS:
        raise LlmReplyError(f"{where} sent embeddings of {max(dims):,} numbers each; at most {MAX_DIMENSIONS:,} "
                            "are supported.")
    checked: list[list[float]] = []
    for vector in vectors:
        # abs() first: an integer too large for a float makes math.isfinite raise (and NaN fails <=).
        if not all(isinstance(x, int | float) and not isinstance(x, bool) and abs(x) <= _FLOAT32_MAX
                   and math.isfinite(x) for x in vector):
            raise LlmReplyError(f"{where} sent an embedding with values that are not finite numbers.")
        checked.append([float(x) for x in vector])
    return checked


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list) else 0



class _Batched:
    """Splits ``embed`` into batches of ``batch_size``; subclasses send one batch."""

    batch_size: int
    _timeout: float

    async def embed(self, texts: Sequence[str], *, timeout: float | None = None) -> list[list[float]]:
        """One vector per text, in order.

        Raises:
            LlmUnavailable: the server is down, the model missing, the key refused, or no answer in time.
            EmbeddingRejected: the server refused these texts.
            LlmReplyError: the answer is not a list of embeddings of one dimension.
        """
        prepared = _prepared(texts)
        wait = min(self._timeout, timeout) if timeout is not None else self._timeout
        vectors: list[list[float]] = []
        for start in range(0, len(prepared), self.batch_size):
            vectors.extend(await self._batch(prepared[start:start + self.batch_size], wait))
        if vectors and len({len(vector) for vector in vectors}) != 1:
            raise LlmReplyError(f"{self._where} sent embeddings of different dimensions for one request.")
        return vectors

    @property
    def _where(self) -> str:
        raise NotImplementedError

    async def _batch(self, texts: list[str], timeout: float) -> list[list[float]]:
        raise NotImplementedError


class OllamaEmbedder(_Batched):
    """``/api/embed`` of Ollama through the ``ollama`` package's AsyncClient.

    Args:
        model: the model name, e.g. ``"nomic-embed-text"``.
        host: the Ollama endpoint.
        client: an ``ollama.AsyncClient`` the caller keeps owning (by default one of its own).
        batch_size: texts per request.
        timeout: longest wait in seconds for one batch.
        retry: what to do on HTTP 429 (and 503 with ``Retry-After``).
        sleep: the back-off sleep (a fake in tests).
    """

    def __init__(self, model: str, host: str, *, client: ollama.AsyncClient | None = None,
                 batch_size: int = BATCH_SIZE, timeout: float = TIMEOUT, retry: RetryPolicy | None = None,
                 sleep: Sleep = asyncio.sleep) -> None:
        host = host.strip().rstrip("/")
        self._model = model
        self.host = host if "://" in host else f"http://{host}"
        self.batch_size = max(1, batch_size)
        self._timeout = float(timeout)
        self._retry = retry or RetryPolicy()
        self._sleep = sleep
        self._owns_client = client is None
        self._client = client or ollama.AsyncClient(host=self.host)
        self._closed = False

    @property
    def model(self) -> str:
        return self._model

    @property
    def description(self) -> str:
        return f"Ollama model {self._model} at {self.host}"

    @property
    def _where(self) -> str:
        return f"Ollama at {self.host}"

    async def _batch(self, texts: list[str], timeout: float) -> list[list[float]]:
        async def attempt() -> list[list[float]]:
            with self._translated(timeout):
                async with asyncio.timeout(timeout):
                    answer = await self._client.embed(model=self._model, input=texts)
            return _checked([list(vector) for vector in answer.embeddings], len(texts), self._where)

        return await retry_rate_limited(attempt, policy=self._retry, sleep=self._sleep, what=self._where)

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._owns_client:
            await self._client.close()  # type: ignore[no-untyped-call]  # ollama leaves close() unannotated

    @contextlib.contextmanager
    def _translated(self, timeout: float) -> Iterator[None]:
        try:
            yield
        except ollama.ResponseError as exc:
            context = exc.__context__
            retry_after = context.response.headers.get("Retry-After") if isinstance(
                context, httpx.HTTPStatusError) else None
            if should_wait(exc.status_code, retry_after):
                raise RateLimitedError(retry_after, exc.status_code) from exc
            message = short_server_message(str(exc.error))
            status = exc.status_code
            if status == 404 or "not found" in message.lower():
                raise LlmUnavailable(f'The embedding model "{self._model}" is not installed in Ollama at '
                                     f"{self.host} — run `ollama pull {self._model}`.") from exc
            if 400 <= status < 500:
                raise EmbeddingRejected(f"{self._where} refused the texts (HTTP {status}): {message}") from exc
            raise LlmUnavailable(f"{self._where} failed to embed (HTTP {status}): {message}") from exc
        except (TimeoutError, httpx.TimeoutException) as exc:
            raise LlmUnavailable(f"{self._where} did not embed within {timeout:g} s.") from exc
        except (ConnectionError, httpx.ConnectError) as exc:
            raise LlmUnavailable(f"Ollama is not running at {self.host} — start it with `ollama serve`.") from exc
        except httpx.TransportError as exc:
            detail = short_server_message(str(exc))[:-1]
            raise LlmUnavailable(f"Lost the connection to {self._where} ({detail}).") from exc
        except (json.JSONDecodeError, pydantic.ValidationError, TypeError) as exc:  # TypeError: JSON, not an object
            raise LlmReplyError(f"{self._where} sent an embedding reply that is not valid Ollama JSON.") from exc


class OpenAIEmbedder(_Batched):
    """``POST {base_url}/embeddings`` of an OpenAI-compatible server (OpenAI, llama.cpp, LM Studio, vLLM) over httpx.

    Args:
        model: the model id.
        base_url: the API root, e.g. ``"http://127.0.0.1:8080/v1"``.
        api_key_env: the NAME of the environment variable holding the key, or None for no key.
        http: an ``httpx.AsyncClient`` the caller keeps owning (by default one of its own).
        batch_size, timeout, retry, sleep: as for :class:`OllamaEmbedder`.
        environ: where ``api_key_env`` is looked up.
        source: where the settings came from, for messages, e.g. ``"[models.embedding]"``.
    """

    def __init__(self, model: str, base_url: str, *, api_key_env: str | None = None,
                 http: httpx.AsyncClient | None = None, batch_size: int = BATCH_SIZE, timeout: float = TIMEOUT,
                 retry: RetryPolicy | None = None, sleep: Sleep = asyncio.sleep,
                 environ: Mapping[str, str] = os.environ, source: str = "[models.embedding]") -> None:
        self._model = model
        self.base_url = base_url.strip().rstrip("/")
        self.api_key_env = api_key_env
        self.batch_size = max(1, batch_size)
        self._timeout = float(timeout)
        self._retry = retry or RetryPolicy()
        self._sleep = sleep
        self._environ = environ
        self._source = source
        self._owns_http = http is None
        self._http = http or httpx.AsyncClient(timeout=httpx.Timeout(self._timeout))
        self._closed = False

    @property
    def model(self) -> str:
        return self._model

    @property
    def description(self) -> str:
        return f"OpenAI-compatible model {self._model} at {self.base_url}"

    @property
    def _where(self) -> str:
        return self.base_url

    def _headers(self) -> dict[str, str]:
        if self.api_key_env is None:
            return {}
        key = secret_from(self._environ, self.api_key_env).strip()
        if not key:
            raise LlmUnavailable(
                f"The environment variable {self.api_key_env} (api_key_env of {self._source}) is not set."
            )
        return {"Authorization": f"Bearer {key}"}

    async def _batch(self, texts: list[str], timeout: float) -> list[list[float]]:
        body = {"model": self._model, "input": texts, "encoding_format": "float"}

        async def attempt() -> list[list[float]]:
            headers = self._headers()
            try:
                async with asyncio.timeout(timeout):
                    response = await self._http.post(self.base_url + "/embeddings", json=body, headers=headers)
            except (TimeoutError, httpx.TimeoutException) as exc:
                raise LlmUnavailable(f"{self.base_url} did not embed within {timeout:g} s.") from exc
            except (httpx.ConnectError, httpx.UnsupportedProtocol, httpx.ProxyError) as exc:
                raise LlmUnavailable(f"Cannot reach {self.base_url} ({short_server_message(str(exc))[:-1]}).") from exc
            except httpx.TransportError as exc:
                detail = short_server_message(str(exc))[:-1]
                raise LlmUnavailable(f"Lost the connection to {self.base_url} ({detail}).") from exc
            if should_wait(response.status_code, response.headers.get("Retry-After")):
                raise RateLimitedError(response.headers.get("Retry-After"), response.status_code)
            if response.status_code >= 400:
                raise self._status_error(response)
            return self._vectors(response, len(texts))

        return await retry_rate_limited(attempt, policy=self._retry, sleep=self._sleep, what=self.base_url)

    def _status_error(self, response: httpx.Response) -> Exception:
        status = response.status_code
        message = self._server_message(response.text)
        if status in (401, 403):
            if self.api_key_env is not None:
                return LlmUnavailable(f"{self.base_url} refused the API key in ${self.api_key_env} (HTTP {status})"
                                      " — check the key.")
            return LlmUnavailable(f"{self.base_url} requires an API key (HTTP {status}) — set api_key_env of "
                                  f"{self._source}.")
        if status == 404:
            if "model" in message.lower():
                return LlmUnavailable(f'{self.base_url} does not know the embedding model "{self._model}" '
                                      "(HTTP 404) — check its name.")
            return LlmUnavailable(f"{self.base_url}/embeddings was not found (HTTP 404) — the server may not serve "
                                  "embeddings, or base_url should end in /v1.")
        if status < 500:
            return EmbeddingRejected(f"{self.base_url} refused the texts (HTTP {status}): {message}")
        return LlmUnavailable(f"{self.base_url} failed to embed (HTTP {status}): {message}")

    def _server_message(self, text: str) -> str:
        message: Any = text
        with contextlib.suppress(ValueError):
            data = json.loads(text)
            if isinstance(data, dict):
                error = data.get("error", data.get("detail", data.get("message", text)))
                message = error.get("message", text) if isinstance(error, dict) else error
        key = secret_from(self._environ, self.api_key_env).strip()
        clean = str(message).replace(key, "***") if key else str(message)
        return short_server_message(clean)

    def _vectors(self, response: httpx.Response, count: int) -> list[list[float]]:
        try:
            data = response.json()
        except ValueError as exc:
            raise LlmReplyError(f"{self.base_url} sent an embedding reply that is not JSON.") from exc
        items = data.get("data") if isinstance(data, dict) else None
        if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
            raise LlmReplyError(f"{self.base_url} sent an embedding reply without a data list.")
        ordered = items
        if any("index" in item for item in items):  # which text each vector is of: each one exactly once
            indexes = [item.get("index") for item in items]
            if sorted(i if isinstance(i, int) and not isinstance(i, bool) else -1 for i in indexes) != list(
                    range(len(items))):
                raise LlmReplyError(f"{self.base_url} sent embeddings whose index does not name each text once.")
            ordered = sorted(items, key=lambda item: int(item["index"]))
        return _checked([item.get("embedding") for item in ordered], count, self.base_url)

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._owns_http:
            await self._http.aclose()


def make_embedder(settings: Settings, *, environ: Mapping[str, str] = os.environ,
                  retry: RetryPolicy | None = None, batch_size: int = BATCH_SIZE) -> Embedder | None:
    """The embedder of ``[models.embedding]``, or None when that table is missing or names no model.

    Raises:
        ValueError: an unknown provider (config validation prevents it).
    """
    model = settings.model("embedding")
    base_url = settings.base_url_for("embedding")
    if model is None or not model.model or base_url is None:
        return None
    if model.provider == "ollama":
        return OllamaEmbedder(model.model, base_url, retry=retry, batch_size=batch_size)
    if model.provider == "openai":
        return OpenAIEmbedder(model.model, base_url, api_key_env=model.api_key_env, retry=retry,
                              batch_size=batch_size, environ=environ)
    raise ValueError(f"[models.embedding] provider {model.provider!r} is not supported")


EmbedderFactory = Callable[[Settings], Embedder | None]


class Embedders:
    """The embedder of the current ``[models.embedding]``: the same object while the table stays the same,
    a new one when config.toml changes it (the old one is closed at :meth:`aclose`).

    Args:
        settings: the live settings.
        factory: builds an embedder (:func:`make_embedder`).
    """

    def __init__(self, settings: Callable[[], Settings], factory: EmbedderFactory = make_embedder) -> None:
        self._settings = settings
        self._factory = factory
        self._key: tuple[object, object] | None = None
        self._current: Embedder | None = None
        self._retired: list[Embedder] = []

    def __call__(self) -> Embedder | None:
        settings = self._settings()
        key = (settings.model("embedding"), settings.base_url_for("embedding"))
        if key != self._key:
            if self._current is not None:
                self._retired.append(self._current)
            self._key = key
            self._current = self._factory(settings)
        return self._current

    async def aclose(self) -> None:
        """Close every embedder made so far; safe twice."""
        embedders = [*self._retired, *([self._current] if self._current is not None else [])]
        self._retired.clear()
        self._current, self._key = None, None
        for embedder in embedders:
            try:
                await embedder.aclose()
            except Exception as exc:  # reported: closing must go on with the others
                log.warning("closing an embedding client failed: %s", exc)
