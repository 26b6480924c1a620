"""Attack on vector memory (issue 13): embedding servers that misbehave, a damaged memory_vectors row, an old
(v1) memory database with many rows. The memory database must stay consistent and searches must answer."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from openhuman_desktop.errors import LlmReplyError
from openhuman_desktop.llm.embeddings import OpenAIEmbedder
from openhuman_desktop.llm.retry import RetryPolicy
from openhuman_desktop.memory import MemoryStore, memory_db_path, open_memory_store
from openhuman_desktop.memory.store import V1
from openhuman_desktop.memory.vectors import VectorMemory
from tests.fakes.clock import FakeClock
from tests.fakes.model_servers import FakeOpenAI, fake_embedding

NOTES = [f"note {i} about the dentist appointment and topic{i}" for i in range(12)]


class OddOpenAI(FakeOpenAI):
    """A FakeOpenAI whose /v1/embeddings answers come from ``vectors(texts, request_number)``."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = itertools.count()
        self.vectors: Any = None

    async def _handle_embeddings(self, request: web.Request) -> web.Response:
        if self.vectors is None:
            return await super()._handle_embeddings(request)
        body = await request.json()
        texts = body["input"]
        data = self.vectors(texts, next(self.calls))
        if isinstance(data, web.Response):
            return data
        items = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(data)]
        return web.Response(text=json.dumps({"object": "list", "data": items, "model": body["model"]}),
                            content_type="application/json")


@pytest.fixture
def odd() -> Iterator[OddOpenAI]:
    with OddOpenAI() as fake:
        yield fake


class Rig:
    def __init__(self, store: MemoryStore, embedder: OpenAIEmbedder, clock: FakeClock) -> None:
        self.store = store
        self.embedder = embedder
        self.vectors = VectorMemory(store, lambda: self.embedder, clock, batch_size=4)


@pytest.fixture
async def rig(odd: OddOpenAI, clock: FakeClock, tmp_path: Path) -> AsyncIterator[Rig]:
    store = await open_memory_store(memory_db_path(tmp_path), clock)
    embedder = OpenAIEmbedder("embed-a", odd.url, batch_size=4, retry=RetryPolicy(delays=()))
    made = Rig(store, embedder, clock)
    yield made
    await embedder.aclose()
    await store.aclose()


def raw(path: Path, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute(sql, params).fetchall()
        conn.commit()
        return rows
    finally:
        conn.close()


@pytest.mark.logs_expected(r"numbers per text; vectors of changing length cannot be")
async def test_a_dimension_that_changes_with_every_request_does_not_loop_forever(rig: Rig, odd: OddOpenAI) -> None:
    """Each request answers at another dimension: every batch would make the previous ones stale. The back-fill
    must end (the model is reported unusable) instead of re-embedding the same memories forever."""
    for text in NOTES:
        await rig.store.add(text)
    odd.vectors = lambda texts, n: [fake_embedding(t, 8 if n % 2 else 16) for t in texts]
    done = await asyncio.wait_for(rig.vectors.backfill(), 30)
    assert done <= len(NOTES)
    assert len(odd.embed_requests) <= 2 * len(NOTES)  # bounded, not hundreds
    found = await rig.store.search("dentist appointment")
    assert found  # full text still answers
    assert raw(rig.store.path, "PRAGMA integrity_check") == [("ok",)]


@pytest.mark.logs_expected(r"sent an embedding with values that are not finite numbers")
async def test_values_beyond_float32_are_refused_not_stored_as_nan(rig: Rig, odd: OddOpenAI) -> None:
    """1e39 is a finite JSON number but infinite as float32: stored, it would become NaN after normalizing."""
    await rig.store.add("the dentist appointment")
    odd.vectors = lambda texts, n: [[1e39, 1.0, 0.5, 0.25] for _ in texts]
    with pytest.raises(LlmReplyError, match="finite"):
        await rig.embedder.embed(["x"])
    assert await rig.vectors.backfill() == 0
    blobs = raw(rig.store.path, "SELECT vector FROM memory_vectors")
    import numpy as np
    assert all(np.isfinite(np.frombuffer(b[0], dtype="<f4")).all() for b in blobs)
    health = rig.vectors.health()
    assert not health.ok and health.reason.endswith(".")


@pytest.mark.parametrize(("answer", "words"), [
    (lambda texts, n: [[0.1, 0.2]] * (len(texts) + 1), "embeddings for"),
    (lambda texts, n: [[0.1, "x"] for _ in texts], "finite numbers"),
    (lambda texts, n: [[0.1, None] for _ in texts], "finite numbers"),
    (lambda texts, n: [[0.1, 0.2], [0.3]] + [[0.1, 0.2]] * (len(texts) - 2), ""),  # the probe: "2 for 1"
    (lambda texts, n: [[] for _ in texts], "one length"),
    (lambda texts, n: [[True, False] for _ in texts], "finite numbers"),
    (lambda texts, n: [[10 ** 400, 1] for _ in texts], "finite numbers"),  # an int no float can hold
    (lambda texts, n: web.Response(text='{"data": [{"index": 0, "embedding": [1e400, 1]}]}'), "finite numbers"),
    (lambda texts, n: web.Response(status=500, text="boom"), "HTTP 500"),
    (lambda texts, n: web.Response(status=404, text="nothing here"), "HTTP 404"),
    (lambda texts, n: web.Response(text="<html>not json</html>"), "not JSON"),
    (lambda texts, n: web.Response(text=json.dumps({"data": {"a": 1}})), "data list"),
    (lambda texts, n: web.Response(text="[1, 2]"), "data list"),
])
@pytest.mark.logs_expected(
    r"embedding model embed\-a",
    r"sent an embedding with values that are not finite numbers",
    r"sent embeddings that are not lists of one length",
    r"the server may not serve embeddings, or base_url should end",
    r"sent an embedding reply that is not JSON",
    r"sent an embedding reply without a data list",
)
async def test_a_misbehaving_server_leaves_the_database_alone_and_text_search_answers(
        rig: Rig, odd: OddOpenAI, answer: Any, words: str) -> None:
    for text in NOTES[:4]:
        await rig.store.add(text)
    odd.vectors = answer
    assert await rig.vectors.backfill() == 0
    health = rig.vectors.health()
    assert not health.ok and words in health.reason and "\n" not in health.reason
    assert raw(rig.store.path, "SELECT count(*) FROM memory_vectors") == [(0,)]
    found = await rig.store.search("dentist appointment")
    assert len(found) == 4 and all(m.matched_by == ("text",) for m in found)
    odd.vectors = None  # the server mends: everything gets its vector
    rig.vectors.wake()
    assert await rig.vectors.backfill() == 4


@pytest.mark.logs_expected(r"sent an embedding with values that are not finite numbers")
async def test_nan_and_zero_vectors(rig: Rig, odd: OddOpenAI) -> None:
    await rig.store.add("the dentist appointment")
    odd.vectors = lambda texts, n: web.Response(
        text='{"data": [{"index": 0, "embedding": [NaN, 1.0]}]}', content_type="application/json")
    assert await rig.vectors.backfill() == 0
    assert "finite" in rig.vectors.health().reason
    odd.vectors = lambda texts, n: [[0.0, 0.0, 0.0] for _ in texts]
    rig.vectors.wake()
    await rig.vectors.backfill()
    found = await rig.store.search("dentist appointment")
    assert [m.matched_by for m in found] == [("text",)]


async def test_a_damaged_vector_row_does_not_kill_the_back_fill_worker(
        odd: OddOpenAI, clock: FakeClock, tmp_path: Path) -> None:
    """A memory_vectors row whose blob is shorter than its dimension says (written by another tool with the
    CHECK turned off): loading the vectors must skip it, and the memory gets a fresh vector."""
    path = memory_db_path(tmp_path)
    store = await open_memory_store(path, clock)
    embedder = OpenAIEmbedder("embed-a", odd.url, batch_size=4, retry=RetryPolicy(delays=()))
    vectors = VectorMemory(store, lambda: embedder, clock, batch_size=4)
    for text in NOTES[:3]:
        await store.add(text)
    assert await vectors.backfill() == 3
    await store.aclose()

    conn = sqlite3.connect(path)
    conn.execute("PRAGMA ignore_check_constraints = ON")
    conn.execute("UPDATE memory_vectors SET vector = x'0000803f' WHERE seq = 2")  # 4 bytes for dim 384
    conn.commit()
    conn.close()

    store = await open_memory_store(path, clock)
    vectors = VectorMemory(store, lambda: embedder, clock, batch_size=4)
    try:
        await vectors.backfill()  # must not raise
        found = await store.search("dentist appointment topic1", mode="vector")
        assert found and found[0].text == NOTES[1]
        lengths = raw(path, "SELECT seq, length(vector) FROM memory_vectors ORDER BY seq")
        assert lengths == [(1, 4 * 384), (2, 4 * 384), (3, 4 * 384)]
    finally:
        await embedder.aclose()
        await store.aclose()


async def test_an_old_v1_database_with_many_rows_is_migrated_and_back_filled(
        odd: OddOpenAI, clock: FakeClock, tmp_path: Path) -> None:
    path = memory_db_path(tmp_path)
    path.parent.mkdir(parents=True)
    conn = sqlite3.connect(path)
    for statement in V1:
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.executemany("INSERT INTO memories (id, seq, text, source, created_at, tags) VALUES (?, ?, ?, ?, ?, '')",
                     [(f"id{i}", i, f"memory {i} dentist" if i % 100 == 0 else f"memory {i}", "user", float(i))
                      for i in range(1, 2001)])
    conn.commit()
    conn.close()
    store = await open_memory_store(path, clock)
    embedder = OpenAIEmbedder("embed-a", odd.url, batch_size=64, retry=RetryPolicy(delays=()))
    vectors = VectorMemory(store, lambda: embedder, clock, batch_size=64)
    try:
        found = await store.search("dentist", mode="hybrid", limit=100)  # before any vector: text answers
        assert len(found) == 20
        assert await vectors.backfill() == 2000
        status = await vectors.status()
        assert (status.count, status.with_vectors, status.pending) == (2000, 2000, 0)
        assert math.isclose(len(await store.search("dentist", limit=100)), 20, abs_tol=80)
    finally:
        await embedder.aclose()
        await store.aclose()


async def test_a_query_the_server_refuses_does_not_mark_the_model_down(rig: Rig, odd: OddOpenAI) -> None:
    """The server refuses one search's text (HTTP 400): that search answers from full text, but the model is
    not "down" — the back-fill and every other search keep their vectors."""
    for text in NOTES[:4]:
        await rig.store.add(text)
    assert await rig.vectors.backfill() == 4

    def refusing(texts: list[str], n: int) -> Any:
        if any("poison" in t for t in texts):
            return web.Response(status=400, text=json.dumps({"error": {"message": "input rejected"}}))
        return [fake_embedding(t) for t in texts]

    odd.vectors = refusing
    found = await rig.store.search("poison dentist")
    assert found and all(m.matched_by == ("text",) for m in found)
    assert rig.vectors.health().ok, rig.vectors.health()
    again = await rig.store.search("dentist appointment topic2")
    assert "vector" in again[0].matched_by


async def test_a_memory_forgotten_and_replaced_while_its_vector_is_made_does_not_inherit_it(
        rig: Rig, odd: OddOpenAI) -> None:
    """``seq`` numbers are max + 1: forgetting the newest memory and adding another gives the new one the same
    number. A vector being made for the old text meanwhile must not be stored under the new memory."""
    await rig.store.add("the dentist appointment is on friday")
    old = await rig.store.add("the parking spot is b12")
    in_flight = asyncio.Event()
    release = asyncio.Event()
    loop = asyncio.get_running_loop()

    def slow(texts: list[str], n: int) -> Any:
        return [fake_embedding(t) for t in texts]

    odd.vectors = slow
    real_embed = rig.embedder.embed

    async def embed(texts: Any, *, timeout: float | None = None) -> list[list[float]]:
        vectors = await real_embed(texts, timeout=timeout)
        if len(texts) > 1:
            in_flight.set()
            await release.wait()
        return vectors

    rig.embedder.embed = embed  # type: ignore[method-assign]
    fill = loop.create_task(rig.vectors.backfill())
    await asyncio.wait_for(in_flight.wait(), 10)
    await rig.store.remove(old.id)
    new = await rig.store.add("grandmother birthday cake recipe")
    assert new.seq == old.seq  # the number is reused
    release.set()
    await fill
    await rig.vectors.backfill()
    found = await rig.store.search("parking spot b12", mode="vector")
    assert new.id not in [m.id for m in found]  # the new memory does not carry the parking vector
    mine = await rig.store.search("grandmother birthday cake", mode="vector")
    assert mine and mine[0].id == new.id


async def test_the_model_renamed_in_the_middle_of_a_back_fill(rig: Rig, odd: OddOpenAI) -> None:
    for text in NOTES:
        await rig.store.add(text)
    old = rig.embedder
    renamed = OpenAIEmbedder("embed-b", odd.url, batch_size=4, retry=RetryPolicy(delays=()))
    real_embed = old.embed

    async def embed(texts: Any, *, timeout: float | None = None) -> list[list[float]]:
        vectors = await real_embed(texts, timeout=timeout)
        rig.embedder = renamed  # config.toml changed while this batch was out
        odd.embedding_dim = 128
        return vectors

    old.embed = embed  # type: ignore[method-assign]
    try:
        first = await rig.vectors.backfill()
        assert first == 4  # the batch out when the name changed is stored, labelled with the old name
        rows = raw(rig.store.path, "SELECT model, dim, count(*) FROM memory_vectors GROUP BY model, dim")
        assert rows == [("embed-a", 384, 4)]
        assert await rig.vectors.backfill() == len(NOTES)  # the new model embeds everything
        rows = raw(rig.store.path, "SELECT model, dim, count(*) FROM memory_vectors GROUP BY model, dim")
        assert rows == [("embed-b", 128, len(NOTES))]
        status = await rig.vectors.status()
        assert (status.with_vectors, status.pending, status.dim) == (len(NOTES), 0, 128)
        found = await rig.store.search("topic3", mode="vector")
        assert found and found[0].text == NOTES[3] and found[0].vector_model == "embed-b"
    finally:
        await renamed.aclose()


@pytest.mark.logs_expected(r"embedding model embed\-a")
async def test_a_server_slower_than_the_timeouts_leaves_searches_on_full_text(
        odd: OddOpenAI, clock: FakeClock, tmp_path: Path) -> None:
    from tests.fakes.model_servers import Reply

    store = await open_memory_store(memory_db_path(tmp_path), clock)
    embedder = OpenAIEmbedder("embed-a", odd.url, batch_size=4, timeout=0.3, retry=RetryPolicy(delays=()))
    vectors = VectorMemory(store, lambda: embedder, clock, batch_size=4, query_timeout=0.3)
    try:
        for text in NOTES[:4]:
            await store.add(text)
        assert await vectors.backfill() == 4
        odd.embed_reply = Reply(delay=3)
        found = await store.search("dentist topic1 wisdom")  # a new query: its vector times out
        assert found and all(m.matched_by == ("text",) for m in found)
        health = vectors.health()
        assert not health.ok and "did not embed within" in health.reason
        again = await store.search("dentist topic2 wisdom")  # known to be down: no second wait
        assert again and all(m.matched_by == ("text",) for m in again)
        assert await store.add("added while slow")
        assert await vectors.backfill() == 0
        status = await vectors.status()
        assert (status.count, status.with_vectors) == (5, 4)
    finally:
        odd.embed_reply = None
        await embedder.aclose()
        await store.aclose()


@pytest.mark.parametrize("indexes", [[0, 0, 1, 2], [1, 2, 3, 4], [0, 1, 2, "3"], [0, 1, None, 3]])
async def test_answers_whose_indexes_do_not_name_each_text_once_are_refused(
        rig: Rig, odd: OddOpenAI, indexes: list[Any]) -> None:
    """OpenAI's ``index`` says which text a vector belongs to: duplicates or gaps would give a memory another
    memory's vector, silently."""

    def answer(texts: list[str], n: int) -> Any:
        if len(texts) != 4:
            return [fake_embedding(t) for t in texts]
        items = [{"index": i, "embedding": fake_embedding(t)} for i, t in zip(indexes, texts, strict=True)]
        return web.Response(text=json.dumps({"data": items}), content_type="application/json")

    odd.vectors = answer
    with pytest.raises(LlmReplyError, match="index"):
        await rig.embedder.embed(["a", "b", "c", "d"])


async def test_an_answer_in_reverse_index_order_is_put_in_order(rig: Rig, odd: OddOpenAI) -> None:
    def answer(texts: list[str], n: int) -> Any:
        items = [{"index": i, "embedding": fake_embedding(t)} for i, t in enumerate(texts)]
        return web.Response(text=json.dumps({"data": items[::-1]}), content_type="application/json")

    odd.vectors = answer
    assert await rig.embedder.embed(["dentist", "parking"]) == [fake_embedding("dentist"), fake_embedding("parking")]


async def test_a_dimension_no_embedding_model_has_is_refused(rig: Rig, odd: OddOpenAI) -> None:
    odd.vectors = lambda texts, n: [[0.5] * 100_000 for _ in texts]
    with pytest.raises(LlmReplyError, match="numbers each"):
        await rig.embedder.embed(["a"])


@pytest.mark.parametrize("body", [
    '{"embeddings": null}', "{}", "[]", '{"embeddings": [[1, "a"]]}', '{"embeddings": [[1, 2], [3, 4]]}',
    '{"embeddings": [[NaN, 1]]}', '{"embeddings": [[1e39, 1]]}', '{"embeddings": "abc"}', "not json",
    '{"embeddings": [[' + "1," * 20_000 + '1]]}', '{"embeddings": [{"a": 1}]}', '{"embeddings": [[]]}',
])
async def test_ollama_answers_that_are_not_embeddings_are_one_sentence(body: str) -> None:
    from openhuman_desktop.errors import LlmUnavailable
    from openhuman_desktop.llm.embeddings import OllamaEmbedder
    from tests.fakes.model_servers import FakeOllama, Reply

    with FakeOllama() as server:
        server.add_model("embed-a", capabilities=("embedding",))
        server.embed_reply = Reply(body=body)
        embedder = OllamaEmbedder("embed-a", server.url, retry=RetryPolicy(delays=()))
        try:
            with pytest.raises((LlmReplyError, LlmUnavailable)) as caught:
                await embedder.embed(["one"])
            message = str(caught.value)
            assert message.endswith(".") and "\n" not in message and len(message) < 300, message
        finally:
            await embedder.aclose()


@pytest.mark.logs_expected(r"memory vectors: the back\-fill failed")
async def test_the_back_fill_worker_outlives_an_unexpected_error(rig: Rig, odd: OddOpenAI, clock: FakeClock) -> None:
    """Whatever a pass runs into (here a client bug), the worker goes on: the memories get their vectors later."""
    await rig.store.add("the dentist appointment")
    real_embed = rig.embedder.embed
    calls = 0

    async def flaky(texts: Any, *, timeout: float | None = None) -> list[list[float]]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("a bug in a client")
        return await real_embed(texts, timeout=timeout)

    rig.embedder.embed = flaky  # type: ignore[method-assign]
    worker = asyncio.ensure_future(rig.vectors.run())
    try:
        for _ in range(100):
            if calls:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)
        assert not worker.done(), worker
        await clock.advance(rig.vectors.retry_seconds)
        for _ in range(300):
            if (await rig.vectors.status()).with_vectors == 1:
                break
            await asyncio.sleep(0.01)
        assert (await rig.vectors.status()).with_vectors == 1
    finally:
        worker.cancel()
        with contextlib.suppress(asyncio.CancelledError, RuntimeError):
            await worker


@pytest.mark.parametrize("text", ["short", "a\n" * 30_000, "x" * 25_001, "line one\n" + "y" * 12_000 + "\nlast\x00"])
def test_text_parts_keep_everything_within_the_limit(text: str) -> None:
    from openhuman_desktop.memory.store import MAX_TEXT_CHARS, text_parts

    parts = text_parts(text)
    assert parts and all(0 < len(part) <= MAX_TEXT_CHARS for part in parts)
    assert "".join(parts).replace("\n", "") == text.replace("\x00", "").replace("\n", "")
