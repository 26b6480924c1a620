"""llm/catalog: the installed models of an Ollama or OpenAI-compatible server, or one sentence why not."""

from __future__ import annotations

import pytest

from openhuman_desktop.errors import LlmUnavailable
from openhuman_desktop.llm.catalog import InstalledModel, list_models
from tests.fakes.model_servers import FakeOllama, FakeOpenAI


async def test_ollama_lists_names_sizes_and_details() -> None:
    with FakeOllama() as server:
        server.add_model("qwen2.5:0.5b", family="qwen2")
        server.add_model("nomic-embed-text", family="nomic-bert")
        models = await list_models("ollama", server.url)
    assert [model.name for model in models] == ["nomic-embed-text:latest", "qwen2.5:0.5b"]
    qwen = models[1]
    assert qwen.size_bytes == 2_019_393_189 and qwen.parameter_size == "3.2B" and qwen.quantization == "Q4_K_M"
    assert qwen.family == "qwen2" and qwen.modified_at is not None and not qwen.is_embedding
    assert models[0].is_embedding


async def test_openai_compatible_server_lists_ids_with_the_key_from_the_environment() -> None:
    with FakeOpenAI(require_api_key="sk-test-key-0123456789") as server:
        server.add_model("smollm2-135m")
        models = await list_models("openai", server.url, api_key_env="KEY",
                                   environ={"KEY": "sk-test-key-0123456789"})
        assert models == [InstalledModel("smollm2-135m")]
        with pytest.raises(LlmUnavailable, match="refused the API key"):
            await list_models("openai", server.url, api_key_env="KEY", environ={"KEY": "wrong"})
        with pytest.raises(LlmUnavailable, match="KEY is not set"):
            await list_models("openai", server.url, api_key_env="KEY", environ={})


@pytest.mark.parametrize("provider", ["ollama", "openai"])
async def test_a_server_that_is_down_is_one_sentence(provider: str, unused_tcp_port: int) -> None:
    with pytest.raises(LlmUnavailable, match=f"127.0.0.1:{unused_tcp_port}"):
        await list_models(provider, f"http://127.0.0.1:{unused_tcp_port}", timeout=2)
