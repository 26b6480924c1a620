"""Model providers (Ollama, OpenAI-compatible), offline token counting, request limits and the HTTP 429 retry policy."""

from __future__ import annotations

import os
from collections.abc import Mapping

from openhuman_desktop.config import Settings
from openhuman_desktop.llm.base import (
    ChatRequest,
    ChatResponse,
    LlmClient,
    Message,
    ModelInfo,
    ToolCall,
    ToolSpec,
)
from openhuman_desktop.llm.ollama import OllamaClient
from openhuman_desktop.llm.openai_compat import OpenAICompatClient
from openhuman_desktop.llm.retry import RetryPolicy
from openhuman_desktop.llm.schema_memory import SchemaMemory
from openhuman_desktop.llm.tokens import TokenCounter

__all__ = [
    "ChatRequest",
    "ChatResponse",
    "LlmClient",
    "Message",
    "ModelInfo",
    "OllamaClient",
    "OpenAICompatClient",
    "RetryPolicy",
    "SchemaMemory",
    "TokenCounter",
    "ToolCall",
    "ToolSpec",
    "make_client",
]


def make_client(
    settings: Settings,
    tier: str,
    *,
    environ: Mapping[str, str] = os.environ,
    retry: RetryPolicy | None = None,
    schema_memory: SchemaMemory | None = None,
) -> LlmClient | None:
    """The client for one ``[models.<tier>]`` table, or None when the tier is not configured.

    Args:
        settings: the loaded configuration.
        tier: ``"local"``, ``"reasoning"``, ``"subconscious"`` or ``"embedding"``.
        environ: where an OpenAI-compatible tier's ``api_key_env`` is looked up.
        retry: the HTTP 429 policy (default: 3 retries after 2 s, 4 s, 8 s).
        schema_memory: where OpenAI-compatible servers' accepted JSON-schema form is remembered across starts.

    Raises:
        ValueError: the tier names a provider this build does not know (config validation prevents it).
    """
    model = settings.model(tier)
    base_url = settings.base_url_for(tier)
    if model is None or not model.model or base_url is None:
        return None
    source = f"[models.{tier}]"
    if model.provider == "ollama":
        return OllamaClient(model.model, base_url, retry=retry, context_window=model.context_window, source=source)
    if model.provider == "openai":
        return OpenAICompatClient(
            model.model, base_url, api_key_env=model.api_key_env, retry=retry, environ=environ,
            source=source, context_window=model.context_window, schema_memory=schema_memory,
        )
    raise ValueError(f"[models.{tier}] provider {model.provider!r} is not supported")
