"""Long-term memory's vectors inside the real app (bootstrap, fake model servers): the situation report's
relevant memories with the idle gate intact, evictions with vectors, the agent's memory tool."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from openhuman_desktop import config
from openhuman_desktop.doctor import check_embedding
from openhuman_desktop.memory.ports import EvictionStore
from openhuman_desktop.skills.base import ToolContext
from tests.fakes.engine_harness import Harness, all_text, closed_port_url, config_text, open_harness
from tests.fakes.model_servers import FakeOllama

EMBED_MODEL = "nomic-embed-text"


async def with_embedding(h: Harness) -> None:
    """Add ``[models.embedding]`` on the fake Ollama, as a user editing config.toml would."""
    assert h.ollama is not None
    h.ollama.add_model(EMBED_MODEL, capabilities=("embedding",))
    text = config_text(local_url=h.ollama.url, reasoning_url=h.openai.url if h.openai else None)
    await h.reconfigure(text + f'\n[models.embedding]\nprovider = "ollama"\nbase_url = "{h.ollama.url}"\n'
                               f'model = "{EMBED_MODEL}"\n')
    assert h.services.vectors is not None
    h.services.vectors.wake()


async def settled(h: Harness, count: int) -> None:
    assert h.services.vectors is not None
    for _ in range(500):
        status = await h.services.vectors.status()
        if status.with_vectors >= count and status.embedding.ok:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"only {status.with_vectors} of {count} memories got a vector: {status}")


def report_of(body: dict[str, object]) -> str:
    messages = body.get("messages")
    assert isinstance(messages, list)
    return "\n".join(str(m.get("content")) for m in messages if isinstance(m, dict))


async def test_a_new_task_gets_the_related_older_memories_and_an_unchanged_world_costs_no_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        assert h.ollama is not None
        await with_embedding(h)
        await h.services.memory.add("Dr. Lee on Elm Street, by appointment.")
        await h.services.memory.add("The garden needs water on Sundays.")
        for number in range(50):  # newer than both: the newest 50 memories are these
            await h.services.memory.add(f"Weather note {number}: mild and dry.")
        await settled(h, 52)
        await h.add_task("Book dentist appointments")
        await h.tick()

        report = report_of(h.local_bodies("evaluation")[-1])
        section = report.split("## New memories\n", 1)[1].split("\n## ")[0]
        older = section.split("Older memories about the due tasks:\n", 1)[1]
        assert "Elm Street" in older and "garden" not in older  # no shared word: found by its vector
        chats, embeds = len(h.ollama.chat_requests), len(h.ollama.embed_requests)
        evaluations = len(h.local_bodies("evaluation"))

        await h.clock.advance(300)
        await h.tick()  # nothing changed: no evaluation, and the query's vector comes from the cache
        assert (len(h.ollama.chat_requests), len(h.ollama.embed_requests)) == (chats, embeds)
        assert h.engine.last_tick_stats["model_calls"] == 0

        await h.clock.advance(300)
        await h.services.memory.add("A new note: the dentist opens at the weekend.")  # it touches the task
        await h.tick()  # the task was decided on: the older memories are not shown to it again
        assert len(h.local_bodies("evaluation")) == evaluations + 1
        report = report_of(h.local_bodies("evaluation")[-1])
        assert "weekend" in report and "Elm Street" not in report


async def test_evictions_get_vectors_and_the_memory_tool_ranks_by_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await with_embedding(h)
        evictions = EvictionStore(h.services.memory, h.services.bus)
        await evictions.store_evicted("Earlier the user asked about invoices for March and April.",
                                      thread_id="desktop:1", run_id="r1")
        await h.services.memory.add("Send the invoice for March to Anna.")
        await settled(h, 2)
        evicted = await h.services.memory.list(10, tag="evicted")
        assert [m.vector_model for m in evicted] == [EMBED_MODEL]

        tool = next(t for t in h.services.skills.tools(include_writes=False) if t.spec.name == "memory_search")
        result = await tool.run({"query": "invoice for March"}, ToolContext())
        lines = result.text.splitlines()
        assert "(matched by text and vector): Send the invoice for March" in lines[1]
        assert "[evicted, desktop] (matched by vector): Earlier the user asked about invoices" in lines[2]
        status = await h.services.vectors.status() if h.services.vectors else None
        assert status is not None and (status.count, status.with_vectors, status.evicted) == (2, 2, 1)


async def test_doctor_has_an_embedding_line(tmp_path: Path) -> None:
    def settings(url: str) -> config.Settings:
        path = tmp_path / "config.toml"
        path.write_text(f'[models.embedding]\nbase_url = "{url}"\nmodel = "{EMBED_MODEL}"\n', encoding="utf-8")
        return config.load(path, {}).settings

    with FakeOllama() as server:
        server.add_model(EMBED_MODEL, capabilities=("embedding",))
        line = (await check_embedding(settings(server.url))).line()
    assert line.startswith("ok   model embedding: Ollama model nomic-embed-text") and "384-dimensional" in line
    line = (await check_embedding(settings(closed_port_url()))).line()
    assert line.startswith("FAIL model embedding: Ollama is not running") and "fix: start it with" in line


async def test_the_agent_recalls_similar_memories_into_its_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await h.services.memory.add("Dr. Lee on Elm Street, by appointment.")
        run = await h.services.agent.send("Dentist appointments?", "webapp:s1")
        await h.services.agent.wait(run.id)
        before = [b for b in h.reasoning_bodies() if "From long-term memory" in all_text(b)]
        assert before == []  # no embedding model: no recall, and the prompts are as they were

        await with_embedding(h)
        await h.services.memory.add("The garden needs water on Sundays.")
        await settled(h, 2)
        run = await h.services.agent.send("Dentist appointments?", "webapp:s2")
        await h.services.agent.wait(run.id)
        prompts = [all_text(b) for b in h.reasoning_bodies() if "From long-term memory" in all_text(b)]
        assert prompts and all("- Dr. Lee on Elm Street, by appointment." in p for p in prompts)
        assert not any("garden" in p for p in prompts)
