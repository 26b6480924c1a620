"""Which models a server has: Ollama's ``/api/tags`` or an OpenAI-compatible ``/v1/models``.

The first-run set-up and the Settings window offer these names instead of a blank text field.
"""

from __future__ import annotations

import asyncio
import functools
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx
import ollama

from openhuman_desktop.errors import LlmUnavailable
from openhuman_desktop.llm.base import short_server_message
from openhuman_desktop.secret_env import secret_from


@functools.cache
def _tls_context() -> ssl.SSLContext:
    return httpx.create_ssl_context()  # what each httpx client would load for itself (the CA bundle)


async def shared_tls_context() -> ssl.SSLContext:
    """One TLS context for every client the set-up and the Settings window make, loaded once in a worker thread:
    a client made without one reads the CA bundle on the loop (≈ 30 ms each; discovery makes one per place)."""
    return await asyncio.to_thread(_tls_context)


LIST_TIMEOUT = 5.0
"""Longest wait for a model list: a window waiting on it shows a spinner, not a frozen form."""


@dataclass(frozen=True)
class InstalledModel:
    """One model a server offers; what the server did not say is None."""

    name: str
    size_bytes: int | None = None
    parameter_size: str | None = None     # e.g. "3.2B" (Ollama's details)
    quantization: str | None = None       # e.g. "Q4_K_M"
    family: str | None = None             # e.g. "llama"
    modified_at: float | None = None      # POSIX time the model was pulled

    @property
    def is_embedding(self) -> bool:
        """A model for vectors, not chat (its name or family says so)."""
        text = f"{self.name} {self.family or ''}".lower()
        return any(word in text for word in ("embed", "bert", "minilm", "bge-", "e5-", "gte-"))


async def list_models(
    provider: str, base_url: str, *, api_key_env: str | None = None, timeout: float = LIST_TIMEOUT,
    environ: Mapping[str, str] | None = None,
) -> list[InstalledModel]:
    """The models installed on (or offered by) the server, sorted by name.

    Raises:
        LlmUnavailable: the server does not answer, refuses the key or answers something else (one sentence
            that names the server and what to do).
    """
    verify = await shared_tls_context()
    if provider == "ollama":
        return await _ollama_models(base_url, timeout, verify)
    key = None
    if api_key_env:
        key = secret_from(environ, api_key_env).strip() or None
        if key is None:
            raise LlmUnavailable(f"The environment variable {api_key_env} is not set, so {base_url} cannot be asked "
                                 "for its models; set it and start OpenHuman again.")
    return await _openai_models(base_url, key, timeout, verify)


async def _ollama_models(host: str, timeout: float, verify: ssl.SSLContext) -> list[InstalledModel]:
    client = ollama.AsyncClient(host=host, timeout=timeout, verify=verify)
    try:
        async with asyncio.timeout(timeout):
            listed = await client.list()
    except (httpx.HTTPError, ConnectionError, TimeoutError) as exc:
        raise LlmUnavailable(f"Ollama does not answer at {host} ({type(exc).__name__}); start it "
                             "(`ollama serve`) or give its address.") from exc
    except ollama.ResponseError as exc:
        raise LlmUnavailable(f"Ollama at {host} could not list its models: {short_server_message(exc.error)}"
                             ) from exc
    finally:
        await client.close()  # type: ignore[no-untyped-call]  # ollama leaves close() unannotated
    models = []
    for entry in listed.models:
        if not entry.model:
            continue
        details = entry.details
        models.append(InstalledModel(
            name=entry.model, size_bytes=entry.size,
            parameter_size=details.parameter_size if details else None,
            quantization=details.quantization_level if details else None,
            family=details.family if details else None,
            modified_at=entry.modified_at.timestamp() if entry.modified_at else None,
        ))
    return sorted(models, key=lambda model: model.name)


async def _openai_models(base_url: str, key: str | None, timeout: float,
                         verify: ssl.SSLContext) -> list[InstalledModel]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    try:
        async with httpx.AsyncClient(timeout=timeout, verify=verify) as http:
            response = await http.get(base_url.rstrip("/") + "/models", headers=headers)
    except httpx.HTTPError as exc:
        raise LlmUnavailable(f"No server answers at {base_url} ({type(exc).__name__}); start it or check the "
                             "address (it usually ends in /v1).") from exc
    if response.status_code in (401, 403):
        raise LlmUnavailable(f"{base_url} refused the API key (HTTP {response.status_code}); check the key in the "
                             "environment variable.")
    if response.status_code != 200:
        raise LlmUnavailable(f"{base_url} answered HTTP {response.status_code} to GET /models: "
                             f"{short_server_message(response.text)}")
    try:
        data: Any = response.json()
        entries = data["data"]
        names = [entry["id"] for entry in entries if isinstance(entry, dict) and isinstance(entry.get("id"), str)]
    except (ValueError, KeyError, TypeError) as exc:
        raise LlmUnavailable(f"{base_url} is not an OpenAI-compatible server (GET /models did not list models)."
                             ) from exc
    return [InstalledModel(name=name) for name in sorted(set(names))]
