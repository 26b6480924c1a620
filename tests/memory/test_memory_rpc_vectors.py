"""``openhuman.memory_status`` and ``memory_search``'s ``mode`` (CONTRACT §11) over the embedding fake."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.errors import InvalidInput
from openhuman_desktop.llm.embeddings import OllamaEmbedder
from openhuman_desktop.memory import MemoryStore, memory_db_path, open_memory_store
from openhuman_desktop.memory.vectors import VectorMemory
from openhuman_desktop.rpc.memory_methods import memory_methods
from openhuman_desktop.rpc.methods import bind
from openhuman_desktop.rpc.protocol import INVALID_PARAMS, map_exception
from tests.fakes.clock import FakeClock
from tests.fakes.model_servers import FakeOllama


@pytest.fixture
def server() -> Iterator[FakeOllama]:
    with FakeOllama() as fake:
        fake.add_model("nomic-embed-text", capabilities=("embedding",))
        yield fake


@pytest.fixture
async def wired(server: FakeOllama, clock: FakeClock,
                tmp_path: Path) -> AsyncIterator[tuple[MemoryStore, VectorMemory]]:
    store = await open_memory_store(memory_db_path(tmp_path), clock)
    embedder = OllamaEmbedder("nomic-embed-text", server.url)
    yield store, VectorMemory(store, lambda: embedder, clock)
    await store.aclose()
    await embedder.aclose()


async def call(wired: tuple[MemoryStore, VectorMemory], name: str, params: dict[str, Any]) -> Any:
    method = memory_methods(wired[0], None, wired[1])[f"openhuman.{name}"]
    return await method.call(bind(method.params, params))


async def test_status_and_modes(wired: tuple[MemoryStore, VectorMemory]) -> None:
    first = await call(wired, "memory_add", {"text": "The dentist appointment is on Friday."})
    await call(wired, "memory_add", {"text": "Two dentists share the practice.", "tags": ["evicted"]})
    status = await call(wired, "memory_status", {})
    assert status["count"] == 2 and status["with_vectors"] == 0 and status["evicted"] == 1
    assert status["embedding"]["model"] == "nomic-embed-text"

    await wired[1].backfill()
    status = await call(wired, "memory_status", {})
    assert (status["with_vectors"], status["pending"], status["dim"]) == (2, 0, 384)
    assert status["embedding"]["ok"] is True and status["embedding"]["reason"].endswith("is ready")
    text = await call(wired, "memory_search", {"query": "dentist", "mode": "text"})
    hybrid = await call(wired, "memory_search", {"query": "dentist"})
    assert [(m["id"], m["matched_by"]) for m in text] == [(first["id"], ["text"])]
    assert [m["matched_by"] for m in hybrid] == [["text", "vector"], ["vector"]]
    assert all(isinstance(m["score"], float) and m["vector_model"] == "nomic-embed-text" for m in hybrid)
    assert [m["text"] for m in await call(wired, "memory_list", {"tag": "evicted"})] == [
        "Two dentists share the practice."]


@pytest.mark.parametrize(("params", "named"), [({"query": "x", "mode": "fuzzy"}, "mode"),
                                               ({"query": "x", "mode": 3}, "mode")])
async def test_a_bad_mode_is_invalid_params(wired: tuple[MemoryStore, VectorMemory], params: dict[str, Any],
                                            named: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        await call(wired, "memory_search", params)
    assert caught.value.param == named
    assert map_exception(caught.value)[0] == INVALID_PARAMS


async def test_status_without_vectors(tmp_path: Path, clock: FakeClock) -> None:
    store = await open_memory_store(memory_db_path(tmp_path), clock)
    try:
        method = memory_methods(store)["openhuman.memory_status"]
        status = await method.call(bind(method.params, {}))
        assert status["embedding"]["model"] is None and status["embedding"]["ok"] is False
    finally:
        await store.aclose()
