"""Fixtures of the agent's tests: a fake Ollama serving both tiers, and the real graph over it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakes.agent_harness import QUICK_MODEL, REASONING_MODEL, AgentHarness
from tests.fakes.model_servers import FakeOllama


@pytest.fixture
async def server() -> AsyncIterator[FakeOllama]:
    """The fake Ollama with the quick and the reasoning model (answers scripted per test)."""
    with FakeOllama() as fake:
        fake.add_model(QUICK_MODEL)
        fake.add_model(REASONING_MODEL)
        yield fake


@pytest.fixture
async def harness(server: FakeOllama, tmp_path: Path) -> AsyncIterator[AgentHarness]:
    """The agent's real graph on ``server``, with a journal that can be killed and resumed."""
    made = AgentHarness(server, tmp_path)
    yield made
    await made.aclose()
