"""Shared fixtures of the subconscious tests: a fake Ollama serving the local model, and a client for it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from openhuman_desktop.llm import OllamaClient
from tests.fakes.engine_harness import LOCAL_MODEL
from tests.fakes.model_servers import FakeOllama


@pytest.fixture
async def ollama() -> AsyncIterator[FakeOllama]:
    """A fake Ollama on 127.0.0.1 that has the local model."""
    with FakeOllama() as server:
        server.add_model(LOCAL_MODEL)
        yield server


@pytest.fixture
async def local(ollama: FakeOllama) -> AsyncIterator[OllamaClient]:
    """The real Ollama client, talking to ``ollama``."""
    client = OllamaClient(LOCAL_MODEL, ollama.url)
    yield client
    await client.aclose()
