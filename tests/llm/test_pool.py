"""ModelClients: health from checks and from real calls, forgotten when config.toml changes a tier."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from openhuman_desktop.config import ModelSettings, Settings
from openhuman_desktop.errors import LlmUnavailable
from openhuman_desktop.llm import ChatRequest, Message, make_client
from openhuman_desktop.llm.pool import ModelClients
from tests.fakes.model_servers import FakeOllama, Reply

LOCAL = "llama3.2:3b"
REQUEST = ChatRequest([Message("user", "hi")], timeout=10)


def settings_for(url: str, model: str = LOCAL) -> Settings:
    return Settings(models={"local": ModelSettings("ollama", LOCAL, base_url=url),
                            "reasoning": ModelSettings("ollama", model, base_url=url)})


@pytest.mark.logs_expected(r"model reasoning failed a call: Ollama at")
async def test_a_failed_call_is_the_tiers_problem_until_a_call_works() -> None:
    with FakeOllama() as ollama:
        ollama.add_model(LOCAL)
        current = settings_for(ollama.url, LOCAL)
        changes: list[str] = []
        models = ModelClients(lambda: current, make_client, on_change=lambda: changes.append("changed"))
        try:
            assert (await models.check("reasoning")).ok
            ollama.script_chat(Reply(status=500, error="CUDA out of memory"), Reply(content="fine"))
            client = models.reporting("reasoning")
            assert client is not None

            with pytest.raises(LlmUnavailable) as raised:
                await client.chat(REQUEST)
            message = str(raised.value)
            problem = models.problem("reasoning")
            assert problem is not None and "CUDA out of memory" in problem and problem == message
            assert not models.is_ready("reasoning")
            assert (await models.check("reasoning")).ok
            assert models.problem("reasoning") == problem, "the model is listed, yet its answers fail"
            assert models.verdicts() == {"local": True, "reasoning": False}

            await client.chat(REQUEST)

            assert models.problem("reasoning") is None and models.is_ready("reasoning")
            assert changes == ["changed", "changed"]
        finally:
            await models.aclose()


@pytest.mark.logs_expected(r"model reasoning failed a call: Ollama is not running at")
async def test_a_config_change_of_a_tier_forgets_what_was_known_about_it() -> None:
    with FakeOllama() as ollama:
        ollama.add_model(LOCAL)
        current = settings_for("http://127.0.0.1:9", LOCAL)
        models = ModelClients(lambda: current, make_client)
        try:
            assert not (await models.check("local")).ok
            models.report_failure("reasoning", "Ollama is not running at http://127.0.0.1:9.")
            assert models.problem("local") and models.problem("reasoning")

            current = settings_for(ollama.url, LOCAL)

            assert models.problem("local") is None and models.problem("reasoning") is None
            assert "local" not in models.health
            assert (await models.check("local")).ok and models.is_ready("local")
        finally:
            await models.aclose()


async def test_a_check_that_ends_after_a_config_change_is_not_kept() -> None:
    with FakeOllama() as ollama:
        ollama.add_model(LOCAL)
        current = settings_for(ollama.url, LOCAL)
        models = ModelClients(lambda: current, make_client)
        try:
            checking = asyncio.ensure_future(models.check("local"))
            await asyncio.sleep(0)  # the check has asked the server
            current = replace(current, models={**current.models, "local": ModelSettings("ollama", "other:1b",
                                                                                          base_url=ollama.url)})
            health = await checking
            assert health.ok, "the answer is about the old settings"
            assert models.health.get("local") is None and models.problem("local") is None
        finally:
            await models.aclose()


async def test_a_call_that_fails_after_a_config_change_says_nothing_about_the_new_settings() -> None:
    with FakeOllama() as ollama:
        ollama.add_model(LOCAL)
        current = settings_for("http://127.0.0.1:9", LOCAL)
        models = ModelClients(lambda: current, make_client)
        try:
            old = models.reporting("reasoning")
            assert old is not None
            current = settings_for(ollama.url, LOCAL)
            with pytest.raises(LlmUnavailable):
                await old.chat(REQUEST)  # still the old address
            assert models.problem("reasoning") is None
        finally:
            await models.aclose()


@pytest.mark.logs_expected(r"model reasoning failed a call: Ollama at")
async def test_a_call_that_hangs_past_its_timeout_marks_the_tier_failing() -> None:
    with FakeOllama() as ollama:
        ollama.add_model(LOCAL)
        ollama.script_chat(Reply(content="late", delay=5))
        models = ModelClients(lambda: settings_for(ollama.url, LOCAL), make_client)
        try:
            client = models.reporting("reasoning")
            assert client is not None
            with pytest.raises(LlmUnavailable):
                await client.chat(ChatRequest([Message("user", "hi")], timeout=0.3))
            problem = models.problem("reasoning")
            assert problem is not None and "did not answer" in problem
        finally:
            await models.aclose()
