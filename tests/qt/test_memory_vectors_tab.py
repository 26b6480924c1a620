"""The Memory tab with vectors: the embedding model's health, which memories have vectors, the evicted ones,
how a search matched — on a real memory database and the fake Ollama's bag-of-words embeddings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex

from openhuman_desktop.llm.embeddings import OllamaEmbedder
from openhuman_desktop.llm.retry import RetryPolicy
from openhuman_desktop.memory import MemoryStore, memory_db_path, open_memory_store
from openhuman_desktop.memory.vectors import VectorMemory
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.memory.delegate import badges
from openhuman_desktop.qt.intelligence.memory.tab import MemoryView
from tests.fakes.clock import FakeClock
from tests.fakes.model_servers import FakeOllama


@pytest.fixture
def server() -> Iterator[FakeOllama]:
    with FakeOllama() as fake:
        fake.add_model("embed-a", capabilities=("embedding",))
        yield fake


@pytest.fixture
def memory(qrun: Any, server: FakeOllama, tmp_path: Path) -> Iterator[tuple[MemoryStore, VectorMemory]]:
    clock = FakeClock()
    store = qrun(open_memory_store(memory_db_path(tmp_path), clock))
    embedder = OllamaEmbedder("embed-a", server.url, retry=RetryPolicy(delays=()))
    vectors = VectorMemory(store, lambda: embedder, clock)
    yield store, vectors
    qrun(store.aclose())
    qrun(embedder.aclose())


@pytest.fixture
def view(qtbot: Any, qrun: Any, memory: tuple[MemoryStore, VectorMemory]) -> Iterator[MemoryView]:
    jobs = Jobs()
    store, vectors = memory
    widget = MemoryView(store, lambda: 1_790_000_100.0, jobs, status=vectors.status)
    qtbot.addWidget(widget)
    widget.resize(760, 560)
    yield widget
    qrun(jobs.aclose())


def rows(view: MemoryView) -> list[Any]:
    return [view.model.memory(row) for row in range(view.model.rowCount())]


def fill(qrun: Any, memory: tuple[MemoryStore, VectorMemory]) -> None:
    store, vectors = memory
    qrun(store.add("Dr. Lee moved the dentist appointment to Friday.", tags=["health"]))
    qrun(store.add("Earlier the user asked about dentists near the station.", source="assistant",
                   tags=["evicted", "desktop"]))
    qrun(store.add("The garden needs water on Sundays."))
    qrun(vectors.backfill())


def test_health_vectors_and_the_evicted_badge(view: MemoryView, memory: tuple[MemoryStore, VectorMemory],
                                              qrun: Any, qtmodeltester: Any) -> None:
    fill(qrun, memory)
    qrun(view.refresh())
    assert view.health_label.text() == (
        "Embedding model embed-a · 3 of 3 memories have vectors · 1 evicted from conversations")
    assert view.health_dot.accent_name == "green"
    shown = {m.text[:10]: badges(m, "embed-a") for m in rows(view)}
    assert shown["Earlier th"] == [("evicted", "amber"), ("vector", "green")]
    assert shown["The garden"] == [("vector", "green")]
    qtmodeltester.check(view.model)
    assert not view.grab().isNull()  # the delegate paints its badges


def test_the_evicted_filter(view: MemoryView, memory: tuple[MemoryStore, VectorMemory], qrun: Any,
                            until: Any) -> None:
    fill(qrun, memory)
    qrun(view.refresh())
    view.filter_box.setCurrentIndex(1)
    until(lambda: view.model.rowCount() == 1 and view.model.tag == "evicted")
    assert rows(view)[0].source == "assistant"
    view.filter_box.setCurrentIndex(0)
    until(lambda: view.model.rowCount() == 3)
    store, _ = memory
    qrun(store.remove(rows(view)[1].id))
    view.filter_box.setCurrentIndex(1)
    until(lambda: view.model.tag == "evicted" and view.model.is_loaded)
    until(lambda: view.model.rowCount() == 0 and view.empty_label.isVisibleTo(view))
    assert "Nothing was evicted yet" in view.empty_label.text()


def test_a_search_says_how_each_memory_matched(view: MemoryView, memory: tuple[MemoryStore, VectorMemory],
                                               qrun: Any) -> None:
    fill(qrun, memory)
    qrun(view.refresh())
    qrun(view.search("dentist appointment"))
    found = rows(view)
    assert [m.matched_by for m in found] == [("text", "vector"), ("vector",)]
    assert badges(found[0], "embed-a") == [("matched: words + meaning", "blue"), ("vector", "green")]
    assert ("matched: meaning", "blue") in badges(found[1], "embed-a")
    index = view.model.index(0, 0, QModelIndex())
    assert view.list_view.visualRect(index).height() > 0


@pytest.mark.logs_expected(r"embedding model embed\-a: Ollama is not running at")
def test_the_model_down_then_back(view: MemoryView, memory: tuple[MemoryStore, VectorMemory], server: FakeOllama,
                                  qrun: Any) -> None:
    fill(qrun, memory)
    qrun(view.refresh())
    store, vectors = memory
    port = server.port
    server.stop()
    view.on_memory_added(qrun(store.add("A new dentist opened on Elm Street.")))  # as MemoryAdded does
    qrun(vectors.backfill())
    qrun(view.on_status_changed())
    assert view.health_dot.accent_name == "coral"
    assert "Ollama is not running" in view.health_label.text()
    assert "3 of 4 memories have vectors (1 waiting)" in view.health_label.text()
    newest = rows(view)[0]
    assert badges(newest, "embed-a") == [("no vector yet", "grey")]

    server.start(port)
    server.add_model("embed-a", capabilities=("embedding",))
    qrun(vectors.backfill())
    qrun(view.on_status_changed())
    assert view.health_dot.accent_name == "green"
    assert badges(rows(view)[0], "embed-a") == [("vector", "green")]


def test_without_an_embedding_model(qtbot: Any, qrun: Any, tmp_path: Path) -> None:
    clock = FakeClock()
    store = qrun(open_memory_store(memory_db_path(tmp_path), clock))
    jobs = Jobs()
    try:
        vectors = VectorMemory(store, lambda: None, clock)
        widget = MemoryView(store, clock.now, jobs, status=vectors.status)
        qtbot.addWidget(widget)
        qrun(store.add("A note."))
        qrun(widget.refresh())
        assert widget.health_label.text() == "No embedding model: search matches words only."
        assert widget.health_dot.accent_name == "grey"
        assert badges(rows(widget)[0], None) == []
    finally:
        qrun(jobs.aclose())
        qrun(store.aclose())
