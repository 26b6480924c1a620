"""The embedding clients against the fake servers over real HTTP: batching, order, errors as one sentence."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from openhuman_desktop import config
from openhuman_desktop.errors import LlmReplyError, LlmUnavailable
from openhuman_desktop.llm.embeddings import (
    MAX_INPUT_CHARS,
    Embedders,
    EmbeddingRejected,
    OllamaEmbedder,
    OpenAIEmbedder,
    make_embedder,
)
from openhuman_desktop.llm.retry import RetryPolicy
from tests.fakes.model_servers import FakeOllama, FakeOpenAI, Reply, fake_embedding

TEXTS = ["The dentist moved to Friday.", "Anna likes tea.", "Parking spot B12.", "Tea with Anna on Friday.", "x"]
NO_RETRY = RetryPolicy(delays=())


@pytest.fixture
def ollama_server() -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        server.add_model("nomic-embed-text", capabilities=("embedding",))
        yield server


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(require_api_key="sk-test", embedding_dim=64) as server:
        yield server


async def test_ollama_embeds_in_batches_in_order(ollama_server: FakeOllama) -> None:
    embedder = OllamaEmbedder("nomic-embed-text", ollama_server.url, batch_size=2)
    try:
        vectors = await embedder.embed(TEXTS)
    finally:
        await embedder.aclose()
    assert len(ollama_server.embed_requests) == 3
    assert ollama_server.embedded_texts == TEXTS
    assert [v == pytest.approx(fake_embedding(t)) for v, t in zip(vectors, TEXTS, strict=True)] == [True] * 5
    assert embedder.model == "nomic-embed-text"


async def test_openai_embeds_in_batches_with_the_key(openai_server: FakeOpenAI) -> None:
    embedder = OpenAIEmbedder("bge-small", openai_server.url, api_key_env="KEY", batch_size=4,
                              environ={"KEY": "sk-test"})
    try:
        vectors = await embedder.embed(TEXTS)
    finally:
        await embedder.aclose()
    assert [len(r.json["input"]) for r in openai_server.embed_requests] == [4, 1]
    assert openai_server.embed_requests[0].headers["Authorization"] == "Bearer sk-test"
    assert vectors[3] == pytest.approx(fake_embedding(TEXTS[3], 64))


async def test_long_and_empty_texts_are_sent_cut_and_non_empty(ollama_server: FakeOllama) -> None:
    embedder = OllamaEmbedder("nomic-embed-text", ollama_server.url)
    try:
        await embedder.embed(["y" * (MAX_INPUT_CHARS + 500), "   "])
    finally:
        await embedder.aclose()
    assert [len(text) for text in ollama_server.embedded_texts] == [MAX_INPUT_CHARS, 1]


async def test_ollama_down_is_one_sentence() -> None:
    with FakeOllama() as server:
        url = server.url
    embedder = OllamaEmbedder("nomic-embed-text", url)
    with pytest.raises(LlmUnavailable, match=r"^Ollama is not running at .* — start it with `ollama serve`\.$"):
        await embedder.embed(["hello"])
    await embedder.aclose()


async def test_ollama_missing_model_says_how_to_pull(ollama_server: FakeOllama) -> None:
    embedder = OllamaEmbedder("all-minilm", ollama_server.url)
    with pytest.raises(LlmUnavailable, match="run `ollama pull all-minilm`"):
        await embedder.embed(["hello"])
    await embedder.aclose()


@pytest.mark.parametrize(
    ("reply", "error", "message"),
    [
        (Reply(status=500, error="CUDA out of memory"), LlmUnavailable, r"failed to embed \(HTTP 500\): CUDA"),
        (Reply(status=400, error="input too long"), EmbeddingRejected, r"refused the texts \(HTTP 400\)"),
        (Reply(delay=2.0), LlmUnavailable, r"did not embed within 0\.3 s"),
        (Reply(malformed=True), LlmReplyError, "not valid Ollama JSON"),
    ],
)
async def test_ollama_failures(ollama_server: FakeOllama, reply: Reply, error: type[Exception],
                               message: str) -> None:
    ollama_server.embed_reply = reply
    embedder = OllamaEmbedder("nomic-embed-text", ollama_server.url, timeout=0.3, retry=NO_RETRY)
    with pytest.raises(error, match=message):
        await embedder.embed(["hello"])
    await embedder.aclose()


@pytest.mark.parametrize(
    ("environ", "reply", "error", "message"),
    [
        ({}, None, LlmUnavailable, r"^The environment variable KEY \(api_key_env of \[models.embedding\]\) is not"),
        ({"KEY": "sk-wrong"}, None, LlmUnavailable, r"refused the API key in \$KEY \(HTTP 401\) — check the key\."),
        ({"KEY": "sk-test"}, Reply(status=503, error="loading"), LlmUnavailable, r"failed to embed \(HTTP 503\)"),
        ({"KEY": "sk-test"}, Reply(status=400, error="too many tokens"), EmbeddingRejected, "too many tokens"),
        ({"KEY": "sk-test"}, Reply(status=429), LlmUnavailable, r"rate limiting requests \(HTTP 429\)"),
        ({"KEY": "sk-test"}, Reply(malformed=True), LlmReplyError, "not JSON"),
    ],
)
async def test_openai_failures(openai_server: FakeOpenAI, environ: dict[str, str], reply: Reply | None,
                               error: type[Exception], message: str) -> None:
    openai_server.embed_reply = reply
    embedder = OpenAIEmbedder("bge-small", openai_server.url, api_key_env="KEY", environ=environ, retry=NO_RETRY)
    with pytest.raises(error, match=message):
        await embedder.embed(["hello"])
    await embedder.aclose()


async def test_openai_unknown_model_and_unreachable(openai_server: FakeOpenAI) -> None:
    openai_server.add_model("bge-small")
    embedder = OpenAIEmbedder("nope", openai_server.url, environ={})
    openai_server.require_api_key = None
    with pytest.raises(LlmUnavailable, match='does not know the embedding model "nope"'):
        await embedder.embed(["hello"])
    await embedder.aclose()
    down = OpenAIEmbedder("bge-small", "http://127.0.0.1:9/v1")
    with pytest.raises(LlmUnavailable, match=r"^Cannot reach http://127\.0\.0\.1:9/v1"):
        await down.embed(["hello"])
    await down.aclose()


def test_make_embedder_follows_the_table(tmp_path: Path) -> None:
    def loaded(text: str) -> config.Settings:
        path = tmp_path / "config.toml"
        path.write_text(text, encoding="utf-8")
        return config.load(path, {}).settings

    assert make_embedder(loaded("")) is None
    ollama = make_embedder(loaded('[models.embedding]\nmodel = "nomic-embed-text"\n'))
    assert isinstance(ollama, OllamaEmbedder) and ollama.host == "http://127.0.0.1:11434"
    openai = make_embedder(loaded('[models.embedding]\nprovider = "openai"\nmodel = "bge"\n'
                                  'base_url = "http://127.0.0.1:8080/v1"\n'))
    assert isinstance(openai, OpenAIEmbedder) and openai.description.startswith("OpenAI-compatible model bge")


async def test_embedders_keep_one_client_per_table(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    current: list[config.Settings] = []

    def write(text: str) -> None:
        path.write_text(text, encoding="utf-8")
        current[:] = [config.load(path, {}).settings]

    write('[models.embedding]\nmodel = "a"\n')
    embedders = Embedders(lambda: current[0])
    first = embedders()
    assert first is embedders() and first is not None and first.model == "a"
    write('[models.embedding]\nmodel = "b"\n')
    second = embedders()
    assert second is not None and second.model == "b"
    await embedders.aclose()
    await embedders.aclose()
