"""llm/discovery: the configured Ollama, OLLAMA_HOST, the default port and OpenAI-compatible servers, asked at once."""

from __future__ import annotations

import asyncio
import socket
import ssl
from collections.abc import Iterator

import pytest

from openhuman_desktop import config
from openhuman_desktop.llm.catalog import InstalledModel
from openhuman_desktop.llm.discovery import (
    SUGGESTIONS,
    Candidate,
    FoundServer,
    Machine,
    candidates,
    discover,
    probe_address,
    recommend,
    same_place,
    small_model_advice,
    this_machine,
)
from tests.fakes.model_servers import FakeOllama, FakeOpenAI

GB = 1_000_000_000


def settings_for(ollama_url: str, **models: config.ModelSettings) -> config.Settings:
    tiers = {"local": config.ModelSettings("ollama", "llama3.2:3b"),
             "reasoning": config.ModelSettings("ollama", "qwen2.5:14b"), **models}
    return config.Settings(ollama_host=ollama_url, models=tiers)


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers (a hung server)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield listener.getsockname()[1]


def test_candidates_are_configured_places_first_each_once() -> None:
    settings = settings_for("http://127.0.0.1:11434", reasoning=config.ModelSettings(
        "openai", "gpt-4o-mini", base_url="http://localhost:8080/v1", api_key_env="KEY"))
    places = candidates(settings, environ={})
    assert [(c.provider, c.base_url, c.source) for c in places] == [
        ("ollama", "http://127.0.0.1:11434", "config.toml"),
        ("openai", "http://localhost:8080/v1", "[models.reasoning] in config.toml"),
        ("openai", "http://127.0.0.1:1234/v1", "its usual port"),      # LM Studio
        ("openai", "http://127.0.0.1:8000/v1", "its usual port"),      # vLLM
    ]                                   # the default Ollama and llama.cpp's 8080 are the places above
    assert places[1].api_key_env == "KEY" and not places[1].is_guess and places[2].is_guess
    env_places = candidates(settings_for("http://127.0.0.1:9999"), environ={"OLLAMA_HOST": "127.0.0.1:9999"})
    assert env_places[0].source == "OLLAMA_HOST" and env_places[1].source == "the default address"
    assert same_place("http://localhost:11434/", "http://127.0.0.1:11434")


async def test_discover_finds_ollama_and_an_openai_server_with_their_models_and_skips_silent_guesses(
        unused_tcp_port: int, silent_port: int) -> None:
    with FakeOllama() as ollama, FakeOpenAI() as lm_studio:
        ollama.add_model("llama3.2:3b", size_bytes=2 * GB)
        ollama.add_model("nomic-embed-text", family="nomic-bert", size_bytes=GB // 4)
        lm_studio.add_model("qwen2.5-7b-instruct")
        local_servers = [("LM Studio", lm_studio.port), ("vLLM", unused_tcp_port), ("llama.cpp", silent_port)]
        found = await asyncio.wait_for(
            discover(settings_for(ollama.url), environ={}, timeout=1.0, local_servers=local_servers), 10)
    reachable = [(f.label, f.provider, [m.name for m in f.models]) for f in found if f.is_reachable]
    assert reachable == [("Ollama", "ollama", ["llama3.2:3b", "nomic-embed-text:latest"]),
                         ("LM Studio", "openai", ["qwen2.5-7b-instruct"])]
    silent = [f for f in found if not f.is_reachable]
    assert [f.candidate.source for f in silent] == ["the default address"]   # configured-ish: shown with why
    assert "Ollama does not answer at http://127.0.0.1:11434" in (silent[0].problem or "")
    assert found[0].chat_models[0].size_bytes == 2 * GB and found[0].embedding_models


async def test_an_address_the_user_types_is_tried_as_ollama_then_openai(unused_tcp_port: int) -> None:
    with FakeOllama() as ollama, FakeOpenAI() as llama_cpp:
        ollama.add_model("llama3.2:3b")
        llama_cpp.add_model("smollm2-135m")
        as_ollama = await probe_address(f"127.0.0.1:{ollama.port}")
        as_openai = await probe_address(f"http://127.0.0.1:{llama_cpp.port}")
        ports = ollama.port, llama_cpp.port
    assert (as_ollama.provider, as_ollama.base_url) == ("ollama", f"http://127.0.0.1:{ports[0]}")
    assert (as_openai.provider, as_openai.base_url) == ("openai", f"http://127.0.0.1:{ports[1]}/v1")
    nothing = await probe_address(f"127.0.0.1:{unused_tcp_port}", timeout=1)
    assert nothing.problem is not None and "Neither Ollama nor an OpenAI-compatible server" in nothing.problem
    assert "Type the address" in ((await probe_address("  ")).problem or "")


def server(*models: InstalledModel, provider: str = "ollama") -> FoundServer:
    return FoundServer(Candidate(provider, "http://127.0.0.1:11434", "Ollama", "config.toml"), models)


def test_recommend_a_small_local_and_the_largest_reasoning_model() -> None:
    found = server(InstalledModel("qwen2.5:0.5b", 398_000_000, "494.03M"),
                   InstalledModel("llama3.2:3b", 2 * GB, "3.2B"),
                   InstalledModel("qwen2.5:14b", 9 * GB, "14.8B"),
                   InstalledModel("nomic-embed-text:latest", GB // 4, "137M", family="nomic-bert"))
    picks = recommend(found)
    assert (picks.local, picks.reasoning, picks.embedding, picks.to_download) == (
        "llama3.2:3b", "qwen2.5:14b", "nomic-embed-text:latest", ())
    keep = config.Settings(models={"local": config.ModelSettings("ollama", "qwen2.5:0.5b"),
                                   "reasoning": config.ModelSettings("ollama", "llama3.2:3b")})
    assert (recommend(found, keep).local, recommend(found, keep).reasoning) == ("qwen2.5:0.5b", "llama3.2:3b")


def test_recommend_downloads_on_an_empty_ollama_and_nothing_to_invent_elsewhere() -> None:
    picks = recommend(server())
    assert (picks.local, picks.reasoning, picks.to_download) == ("llama3.2:3b", "qwen2.5:7b",
                                                                 ("llama3.2:3b", "qwen2.5:7b"))
    openai = recommend(server(InstalledModel("smollm2-135m"), provider="openai"))
    assert (openai.local, openai.reasoning) == ("smollm2-135m", "smollm2-135m")


async def test_every_client_shares_one_tls_context_made_off_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """An httpx client loads the CA bundle when it is made (≈ 30 ms of the loop each); the set-up makes several."""
    import httpx

    from openhuman_desktop.llm.pull import pull_model

    made: list[object] = []
    original = httpx.AsyncClient.__init__

    def record(self: httpx.AsyncClient, *args: object, **kwargs: object) -> None:
        made.append(kwargs.get("verify", True))
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(httpx.AsyncClient, "__init__", record)
    with FakeOllama() as ollama, FakeOpenAI() as lm_studio:
        ollama.add_library_model("qwen2.5:0.5b", size_bytes=2_000_000)
        await discover(settings_for(ollama.url), environ={}, local_servers=[("LM Studio", lm_studio.port)])
        await probe_address(ollama.url)
        await pull_model(ollama.url, "qwen2.5:0.5b", lambda _p: None)
    assert len(made) >= 5
    assert all(isinstance(verify, ssl.SSLContext) for verify in made) and len({id(v) for v in made}) == 1


def test_a_very_small_model_gives_way_on_ollama_to_what_the_computer_runs_well() -> None:
    tiny = server(InstalledModel("smollm2:135m", 271_000_000, "134.52M"))
    big = Machine(16 * GB, 8)
    picks = recommend(tiny, machine=big)
    assert (picks.local, picks.reasoning, picks.subconscious, picks.to_download) == (
        "llama3.2:3b", "qwen2.5:7b", "qwen2.5:7b", ("llama3.2:3b", "qwen2.5:7b"))
    two_cores = recommend(tiny, machine=Machine(16 * GB, 2))       # a 7B model is too slow on two cores
    assert (two_cores.local, two_cores.reasoning) == ("llama3.2:3b", "llama3.2:3b")
    assert recommend(tiny, machine=Machine(4 * GB, 2)).local == "qwen2.5:0.5b"
    assert recommend(tiny).local == "smollm2:135m"                 # the computer not known: as installed
    configured = config.Settings(models={"local": config.ModelSettings("ollama", "smollm2:135m")})
    assert recommend(tiny, configured, big).local == "smollm2:135m"  # what config.toml names is kept
    empty = recommend(server(), machine=Machine(8 * GB, 4))
    assert (empty.local, empty.reasoning) == ("llama3.2:3b", "llama3.2:3b")


def test_what_a_computer_runs_well() -> None:
    by_name = {s.name: s for s in SUGGESTIONS if s.tier in ("local", "reasoning")}
    assert Machine(16 * GB, 8).runs(by_name["qwen2.5:7b"]) and not Machine(8 * GB, 8).runs(by_name["qwen2.5:7b"])
    assert Machine(8 * GB, 2).runs(by_name["llama3.2:3b"]) and not Machine(4 * GB, 2).runs(by_name["llama3.2:3b"])
    assert Machine(None, 4).runs(by_name["llama3.2:3b"]) and not Machine(None, 4).runs(by_name["qwen2.5:7b"])
    here = this_machine()
    assert here.cores >= 1 and (here.memory_bytes is None or here.memory_bytes > 100_000_000)


def test_the_advice_on_a_very_small_model() -> None:
    tiny = server(InstalledModel("smollm2:135m", 271_000_000, "134.52M"))
    big = Machine(16 * GB, 8)
    assert small_model_advice(tiny, {"local": "llama3.2:3b", "reasoning": "qwen2.5:7b"}, big) is None
    advice = small_model_advice(tiny, {"local": "smollm2:135m", "reasoning": "smollm2:135m"}, big)
    assert advice is not None and advice.startswith("smollm2:135m is a very small model (135 M parameters)")
    assert "This computer (16 GB of memory, 8 cores) runs llama3.2:3b (2.0 GB) well" in advice   # a quick one
    reasoning = small_model_advice(tiny, {"local": "llama3.2:3b", "reasoning": "smollm2:135m"}, big)
    assert reasoning is not None and "runs qwen2.5:7b (4.7 GB) well" in reasoning
    tight = small_model_advice(tiny, {"local": "smollm2:135m"}, Machine(2 * GB, 1))
    assert tight is not None and "no room for a bigger one" in tight
    unknown = small_model_advice(tiny, {"local": "smollm2:135m"}, None)
    assert unknown is not None and "3 B parameters or more" in unknown
