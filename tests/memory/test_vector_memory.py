"""Vectors beside FTS5: hybrid ranking, the back-fill after the model was down, re-embedding on a model change,
status, and what happens to vectors on removal, restart and an old (v1) database."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from openhuman_desktop.errors import InvalidInput, LlmReplyError, LlmUnavailable, StoreUnavailable
from openhuman_desktop.llm.embeddings import Embedder, OllamaEmbedder
from openhuman_desktop.llm.retry import RetryPolicy
from openhuman_desktop.memory import MemoryStore, memory_db_path, open_memory_store
from openhuman_desktop.memory import store as store_module
from openhuman_desktop.memory.store import V1
from openhuman_desktop.memory.vectors import NO_MODEL, VectorMemory
from tests.fakes.clock import FakeClock
from tests.fakes.model_servers import FakeOllama, Reply

NOTES = [
    "The dentist appointment is on Friday at ten.",
    "Anna prefers short summaries in the morning.",
    "Dentists recommend flossing every day.",
    "The parking spot at work is B12.",
    "Friday appointments with the dentist need a reminder the day before.",
]


@pytest.fixture
def server() -> Iterator[FakeOllama]:
    with FakeOllama() as fake:
        fake.add_model("embed-a", capabilities=("embedding",))
        fake.add_model("embed-b", capabilities=("embedding",))
        fake.model_dims["embed-b"] = 128
        yield fake


@dataclass
class Harness:
    server: FakeOllama
    clock: FakeClock
    path: Path
    store: MemoryStore
    vectors: VectorMemory
    model: str | None = "embed-a"
    url: str = ""
    made: dict[tuple[str, str], Embedder] = field(default_factory=dict)
    changes: int = 0

    def embedder(self) -> Embedder | None:
        if self.model is None:
            return None
        key = (self.model, self.url)
        if key not in self.made:
            self.made[key] = OllamaEmbedder(self.model, self.url, batch_size=2, retry=RetryPolicy(delays=()))
        return self.made[key]

    async def add_notes(self) -> list[str]:
        return [(await self.store.add(text)).id for text in NOTES]

    async def aclose(self) -> None:
        await self.store.aclose()
        for embedder in self.made.values():
            await embedder.aclose()


async def open_harness(server: FakeOllama, clock: FakeClock, path: Path, model: str | None = "embed-a") -> Harness:
    store = await open_memory_store(path, clock)
    holder: list[Harness] = []

    def changed() -> None:
        holder[0].changes += 1

    vectors = VectorMemory(store, lambda: holder[0].embedder(), clock, batch_size=2, on_change=changed)
    harness = Harness(server, clock, path, store, vectors, model, server.url)
    holder.append(harness)
    return harness


@pytest.fixture
async def h(server: FakeOllama, clock: FakeClock, tmp_path: Path) -> AsyncIterator[Harness]:
    harness = await open_harness(server, clock, memory_db_path(tmp_path))
    yield harness
    await harness.aclose()


def texts(found: list[object]) -> list[str]:
    return [getattr(memory, "text") for memory in found]  # noqa: B009 (a list of Memory)


async def test_hybrid_finds_what_text_alone_misses_and_says_how(h: Harness) -> None:
    await h.add_notes()
    assert await h.vectors.backfill() == len(NOTES)
    text_only = await h.store.search("dentist appointment", mode="text")
    hybrid = await h.store.search("dentist appointment")
    vector_only = await h.store.search("dentist appointment", mode="vector")

    # FTS5 needs both words; the plural "Dentists"/"appointments" are other words to it, not to the vectors.
    assert texts(text_only) == [NOTES[0]]
    assert text_only[0].matched_by == ("text",)
    assert texts(hybrid)[0] == NOTES[0] and hybrid[0].matched_by == ("text", "vector")
    assert set(texts(hybrid)) == {NOTES[0], NOTES[2], NOTES[4]}
    assert all(m.matched_by == ("vector",) for m in hybrid[1:])
    assert [m.score for m in hybrid] == sorted((m.score or 0.0 for m in hybrid), reverse=True)
    assert NOTES[1] not in texts(vector_only) and NOTES[3] not in texts(vector_only)
    assert all(m.vector_model == "embed-a" for m in hybrid)
    assert hybrid[0].to_json()["matched_by"] == ["text", "vector"]


async def test_bad_mode_is_refused(h: Harness) -> None:
    with pytest.raises(InvalidInput, match="mode: must be one of hybrid, text, vector"):
        await h.store.search("dentist", mode="semantic")


@pytest.mark.logs_expected(r"embedding model embed\-a: Ollama is not running at")
async def test_down_gives_text_results_then_back_fills_when_the_model_is_back(h: Harness) -> None:
    port = h.server.port
    h.server.stop()
    await h.add_notes()
    assert await h.vectors.backfill() == 0
    status = await h.vectors.status()
    assert (status.count, status.with_vectors, status.pending) == (5, 0, 5)
    assert not status.embedding.ok and "Ollama is not running" in status.embedding.reason

    found = await h.store.search("dentist appointment")  # vector half unavailable: full text, at once
    assert texts(found) == [NOTES[0]] and found[0].matched_by == ("text",)

    worker = asyncio.ensure_future(h.vectors.run())
    try:
        await h.clock.advance(1)
        h.server.start(port)
        h.server.add_model("embed-a", capabilities=("embedding",))
        await h.clock.advance(h.vectors.retry_seconds)
        for _ in range(200):
            if (await h.vectors.status()).with_vectors == 5:
                break
            await asyncio.sleep(0.01)
        status = await h.vectors.status()
        assert (status.with_vectors, status.pending, status.embedding.ok) == (5, 0, True)
        # the memories in batches of two (a probe of the worker's first pass may land once the server is back,
        # when a busy machine made that pass slow: it is not a batch)
        assert [len(r.json["input"]) for r in h.server.embed_requests if r.json["input"] != ["ok"]] == [2, 2, 1]
        assert h.changes >= 2  # down, then up again (the UI refreshes on both)
        hybrid = await h.store.search("dentist appointment")
        assert hybrid[0].matched_by == ("text", "vector") and len(hybrid) == 3
        # Stored while the worker waits: embedded without anyone asking.
        await h.store.add("A new dentist opened near the station.")
        for _ in range(200):
            if (await h.vectors.status()).with_vectors == 6:
                break
            await asyncio.sleep(0.01)
        assert (await h.vectors.status()).with_vectors == 6
    finally:
        worker.cancel()
        with pytest.raises(asyncio.CancelledError):
            await worker


async def test_model_change_re_embeds_everything_with_the_new_name_and_dimension(h: Harness) -> None:
    await h.add_notes()
    await h.vectors.backfill()
    assert {m.vector_model for m in await h.store.list(10)} == {"embed-a"}
    sent_before = len(h.server.embedded_texts)

    h.model = "embed-b"
    status = await h.vectors.status()
    assert (status.embedding.model, status.with_vectors) == ("embed-b", 0)
    assert await h.store.search("dentist appointment") == await h.store.search("dentist appointment", mode="text")
    assert await h.vectors.backfill() == 5
    assert sorted(h.server.embedded_texts[sent_before:]) == sorted(NOTES)
    assert {m.vector_model for m in await h.store.list(10)} == {"embed-b"}
    status = await h.vectors.status()
    assert (status.with_vectors, status.dim) == (5, 128)
    assert (await h.store.search("dentist appointment"))[0].matched_by == ("text", "vector")


async def test_a_model_that_changes_its_dimension_is_re_embedded(h: Harness) -> None:
    await h.add_notes()
    await h.vectors.backfill()
    h.server.model_dims["embed-a"] = 96
    assert await h.vectors.backfill() == 0  # nothing it knows of is missing yet …
    await h.store.search("flossing")  # … a query vector of another length gives it away
    assert await h.vectors.backfill() == 5
    assert (await h.vectors.status()).dim == 96


async def test_vectors_survive_a_restart_without_embedding_again(h: Harness, server: FakeOllama,
                                                                 clock: FakeClock) -> None:
    await h.add_notes()
    await h.vectors.backfill()
    await h.store.aclose()
    again = await open_harness(server, clock, h.path)
    try:
        sent = len(server.embed_requests)
        assert await again.vectors.backfill() == 0
        assert len(server.embed_requests) == sent + 1  # only the probe that learns the model is up
        found = await again.store.search("dentist appointment")
        assert found[0].matched_by == ("text", "vector")
    finally:
        await again.aclose()


async def test_removed_memories_leave_the_index_and_the_table(h: Harness) -> None:
    ids = await h.add_notes()
    await h.vectors.backfill()
    await h.store.remove(ids[2])
    assert NOTES[2] not in texts(await h.store.search("dentist", mode="vector"))
    assert (await h.vectors.status()).with_vectors == 4


@pytest.mark.logs_expected(r"embedding model embed\-a refused memory \#", r"embedding model embed\-a: Ollama at")
async def test_a_text_the_model_refuses_is_skipped_not_retried_forever(h: Harness) -> None:
    await h.add_notes()
    h.server.embed_reply = Reply(status=400, error="input too long")
    assert await h.vectors.backfill() == 0
    h.server.embed_reply = None
    assert await h.vectors.backfill() == 0  # every text was refused alone: skipped for this model
    h.model = "embed-b"
    assert await h.vectors.backfill() == 5


async def test_without_an_embedding_model_search_is_full_text(server: FakeOllama, clock: FakeClock,
                                                              tmp_path: Path) -> None:
    harness = await open_harness(server, clock, memory_db_path(tmp_path), model=None)
    try:
        await harness.add_notes()
        assert await harness.vectors.backfill() == 0
        found = await harness.store.search("dentist appointment", mode="vector")
        assert texts(found) == [NOTES[0]] and found[0].matched_by == ("text",)
        status = await harness.vectors.status()
        assert status.to_json() == {"count": 5, "with_vectors": 0, "evicted": 0, "pending": 0, "dim": None,
                                    "embedding": {"model": None, "ok": False, "reason": NO_MODEL}}
        assert server.embed_requests == []
    finally:
        await harness.aclose()


async def test_evicted_memories_are_counted_and_listed(h: Harness) -> None:
    await h.store.add("Summary of an old part of a conversation.", source="assistant", tags=["evicted", "chat"])
    await h.store.add("Not evicted, only tagged evicted_like.", tags=["evicted_like"])
    assert (await h.vectors.status()).evicted == 1
    assert texts(await h.store.list(10, tag="evicted")) == ["Summary of an old part of a conversation."]


async def test_a_v1_database_is_migrated_and_back_filled(server: FakeOllama, clock: FakeClock,
                                                         tmp_path: Path) -> None:
    path = memory_db_path(tmp_path)
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as conn:
        for statement in V1:
            conn.execute(statement)
        conn.execute("INSERT INTO memories (id, seq, text, source, created_at) VALUES ('m1', 1, ?, 'user', 1.0)",
                     (NOTES[0],))
        conn.execute("PRAGMA user_version = 1")
    harness = await open_harness(server, clock, path)
    try:
        assert await harness.vectors.backfill() == 1
        assert (await harness.store.search("dentist"))[0].matched_by == ("text", "vector")
    finally:
        await harness.aclose()


async def test_words_in_very_many_memories_list_the_newest_matches_first(h: Harness,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    for text in ("apple apple apple", "apple pie", "Äpple tart"):
        await h.store.add(text)
    assert texts(await h.store.search("apple", mode="text"))[0] == "apple apple apple"  # bm25: most apples
    monkeypatch.setattr(store_module, "BM25_ROWS", 2)  # 3 matches: too many to rank (the spelling counts)
    assert texts(await h.store.search("äpple", mode="text")) == ["Äpple tart", "apple pie", "apple apple apple"]


@pytest.mark.logs_expected(r"memory vectors: The database memory\.db is locked by another")
async def test_the_worker_outlives_a_locked_database(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    await h.add_notes()
    real = h.store.missing_vectors
    calls: list[int] = []

    async def locked_once(*args: object) -> list[tuple[int, str]]:
        calls.append(1)
        if len(calls) == 1:
            raise StoreUnavailable("The database memory.db is locked by another program; close it and try again.")
        return await real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(h.store, "missing_vectors", locked_once)
    worker = asyncio.ensure_future(h.vectors.run())
    try:
        for _ in range(20):
            await asyncio.sleep(0)
        assert not worker.done() and (await h.vectors.status()).with_vectors == 0
        await h.clock.advance(h.vectors.retry_seconds)
        for _ in range(200):
            if (await h.vectors.status()).with_vectors == 5:
                break
            await asyncio.sleep(0.01)
        assert (await h.vectors.status()).with_vectors == 5
    finally:
        worker.cancel()
        with pytest.raises(asyncio.CancelledError):
            await worker


# --- the back-fill resumes whenever the model answers again, however the outage and the health check interleave


class Interleaved:
    """The harness's real embedder with a hook that runs right after one of its calls failed: the test decides
    what happens between two steps of one back-fill pass (the server comes back, a search comes in)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.after_failure: Callable[[Sequence[str]], Awaitable[None]] | None = None
        self.fail_batches = False
        self.batches = 0

    @property
    def model(self) -> str:
        return self.inner.model

    @property
    def description(self) -> str:
        return self.inner.description

    async def embed(self, texts: Sequence[str], *, timeout: float | None = None) -> list[list[float]]:
        is_probe = list(texts) == ["ok"]
        if not is_probe:
            self.batches += 1
        try:
            if self.fail_batches and not is_probe:
                raise LlmUnavailable("The fake embedding model fails every batch and answers every probe.")
            return await self.inner.embed(texts, timeout=timeout)
        except (LlmUnavailable, LlmReplyError):
            hook, self.after_failure = self.after_failure, None
            if hook is not None:
                await hook(texts)
            raise

    async def aclose(self) -> None:
        await self.inner.aclose()


def interleaved(h: Harness) -> Interleaved:
    inner = h.embedder()
    assert inner is not None
    wrapper = Interleaved(inner)
    h.made[(h.model or "", h.url)] = wrapper
    return wrapper


async def until_vectors(h: Harness, count: int) -> int:
    """Real time for the worker's HTTP calls (the fake clock moves only when the test says)."""
    for _ in range(300):
        status = await h.vectors.status()
        if status.with_vectors >= count:
            break
        await asyncio.sleep(0.01)
    return (await h.vectors.status()).with_vectors


async def parked(h: Harness) -> None:
    """Until the worker waits on the fake clock (a worker that loops without waiting never gets there)."""
    for _ in range(500):
        if h.clock.sleeping:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the back-fill worker never waited: it loops")


@contextlib.asynccontextmanager
async def worker(h: Harness) -> AsyncIterator[None]:
    running = asyncio.ensure_future(h.vectors.run())
    try:
        yield
    finally:
        running.cancel()
        with pytest.raises(asyncio.CancelledError):
            await running


@pytest.mark.logs_expected(r"embedding model embed\-a: Ollama is not running at")
async def test_the_model_back_between_a_failed_batch_and_the_probe_resumes_the_backfill(h: Harness) -> None:
    """The race seen in 4 of 5 runs: the pass's batch failed, the model came back before the pass's own probe,
    the probe said "ok" — and the pass ended with the memory still without its vector and nothing left to wake
    the worker (145 s later it was still pending)."""
    port = h.server.port
    h.server.stop()
    embedder = interleaved(h)

    async def back(_texts: Sequence[str]) -> None:
        h.server.start(port)
        h.server.add_model("embed-a", capabilities=("embedding",))

    embedder.after_failure = back
    await h.store.add("Stored while the embedding model was down.")
    async with worker(h):
        assert await until_vectors(h, 1) == 1
        status = await h.vectors.status()
        assert (status.with_vectors, status.pending, status.embedding.ok) == (1, 0, True)
        assert embedder.batches == 2  # the failed batch, then at once the one that worked


@pytest.mark.logs_expected(r"embedding model embed\-a: Ollama is not running at")
async def test_a_search_answered_between_a_failed_batch_and_the_end_of_the_pass_resumes_it(h: Harness) -> None:
    """The other interleaving: a search's query vector is the model's first answer after the outage, while the
    pass is still running (it used not to wake the worker then, "a pass running goes on by itself")."""
    await h.add_notes()
    assert await h.vectors.backfill() == len(NOTES)
    port = h.server.port
    h.server.stop()
    embedder = interleaved(h)
    searched: list[list[str]] = []

    async def back_and_search(_texts: Sequence[str]) -> None:
        h.server.start(port)
        h.server.add_model("embed-a", capabilities=("embedding",))
        await h.clock.advance(h.vectors.retry_seconds)  # the search may try the model again
        searched.append(texts(await h.store.search("dentist appointment")))

    embedder.after_failure = back_and_search
    await h.store.add("A new dentist opened near the station.")
    async with worker(h):
        assert await until_vectors(h, len(NOTES) + 1) == len(NOTES) + 1
    assert len(searched) == 1 and NOTES[0] in searched[0]
    assert h.vectors.health().ok
    assert embedder.batches == 3  # the failed batch, the search's query, the batch that worked


@pytest.mark.logs_expected(r"embedding model embed\-a: Ollama is not running at")
async def test_the_model_going_down_while_the_worker_waits_and_coming_back_later(h: Harness) -> None:
    """Down for a while, back before the next retry: the model's first answer (a search) resumes the back-fill
    at once, without waiting for the retry."""
    await h.add_notes()
    async with worker(h):
        assert await until_vectors(h, len(NOTES)) == len(NOTES)
        port = h.server.port
        h.server.stop()
        await h.store.add("Stored during the outage.")
        await parked(h)  # the pass failed and its probe too: the worker waits for the retry
        assert not h.vectors.health().ok
        h.server.start(port)
        h.server.add_model("embed-a", capabilities=("embedding",))
        await h.clock.advance(h.vectors.retry_seconds / 2)  # searches stay off the model until the retry is due
        await h.clock.advance(h.vectors.retry_seconds / 2 + 1)
        assert await until_vectors(h, len(NOTES) + 1) == len(NOTES) + 1


@pytest.mark.logs_expected(r"embedding model embed\-a: The fake embedding model fails")
async def test_a_model_that_answers_probes_and_fails_batches_is_tried_with_a_growing_pause(h: Harness) -> None:
    embedder = interleaved(h)
    embedder.fail_batches = True
    await h.store.add("A memory the model will not embed today.")
    async with worker(h):
        pauses: list[float] = []
        for _ in range(9):
            await parked(h)
            pauses.append(h.clock.sleeps[-1])
            await h.clock.advance(pauses[-1])
        assert pauses == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0, 60.0]
        await parked(h)  # the pass after the last pause has failed too, and the worker waits again
        # The first pass, one at once after the model's first answer, then one per pause.
        assert embedder.batches == 11
        assert (await h.vectors.status()).with_vectors == 0
