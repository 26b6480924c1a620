"""The vector side of long-term memory: embeds memories in the background (back-fill, re-embedding when the
model changes), keeps their vectors in memory for exact search, and says how the embedding model is doing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from openhuman_desktop.clock import Clock
from openhuman_desktop.errors import LlmReplyError, LlmUnavailable, StoreUnavailable
from openhuman_desktop.llm.embeddings import Embedder, EmbeddingRejected
from openhuman_desktop.memory.status import EmbeddingHealth
from openhuman_desktop.memory.status import MemoryStatus as MemoryStatus  # re-exported: the memory tab asks vectors
from openhuman_desktop.memory.store import EVICTED_TAG, Memory, MemoryStore, VectorRow

if TYPE_CHECKING:  # numpy is loaded only once vectors are used (memory.index says why)
    from openhuman_desktop.memory.index import Matrix, VectorIndex

log = logging.getLogger(__name__)

EmbedderSource = Callable[[], Embedder | None]

BATCH_SIZE = 64
"""Memories per back-fill request."""
RETRY_SECONDS = 60.0
"""While the embedding model is down: how long until the back-fill (and a search) tries it again."""
FIRST_BACKOFF_SECONDS = 1.0
"""A model that answers again but fails the back-fill again: the pause before the next pass, doubled each time
up to ``retry_seconds`` (the first pass after it answers again goes at once)."""
QUERY_TIMEOUT = 5.0
"""Longest wait for a search's query vector; after that the search answers from full text."""
MIN_SIMILARITY = 0.2
"""Vector matches less similar than this (cosine) are not matches at all: a search for "dentist" should not
list every memory just because vector search always has a nearest neighbour."""
THREAD_ROWS = 20_000
"""From this many vectors on, a search runs in a worker thread (≈ 1 ms per 20k × 384 on one core)."""
_CACHE_SIZE = 256
NO_MODEL = "No [models.embedding] in config.toml: searches use full text only."


class VectorMemory:
    """Vectors for the memories of ``store``, from the model ``embedder()`` gives now.

    Attached to the store (``store.attach``), it answers the store's vector half of a search and hears of
    additions and removals. :meth:`run` is the back-fill worker: memories without a vector of the current model
    (new ones, those stored while the model was down, all of them after a model change) get one, in batches;
    adding and searching never wait for it. While the model is down, searches answer from full text and the
    worker tries again every ``retry_seconds``, and at once whenever the model answers again (a search's query
    vector, or the pass's own probe after its batch failed): what was stored during the outage never waits for a
    wake that no one sends. A model that keeps answering again and failing again is tried after 1 s, 2 s, 4 s …
    up to ``retry_seconds``, never in a loop.

    Args:
        store: the memory store.
        embedder: the current embedding model (None: not configured).
        clock: for the retry pause.
        batch_size: memories per back-fill request.
        retry_seconds: the pause after a failure.
        query_timeout: longest wait for a query's vector.
        min_similarity: the least cosine that counts as a vector match.
        on_change: called when the model's health changes or a back-fill pass stored vectors.
    """

    def __init__(self, store: MemoryStore, embedder: EmbedderSource, clock: Clock, *,
                 batch_size: int = BATCH_SIZE, retry_seconds: float = RETRY_SECONDS,
                 query_timeout: float = QUERY_TIMEOUT, min_similarity: float = MIN_SIMILARITY,
                 on_change: Callable[[], None] | None = None) -> None:
        self._store = store
        self._embedder = embedder
        self._clock = clock
        self.batch_size = max(1, batch_size)
        self.retry_seconds = retry_seconds
        self.query_timeout = query_timeout
        self.min_similarity = min_similarity
        self._on_change = on_change
        self._index: VectorIndex | None = None
        self._loaded: str | None = None  # the model whose stored vectors are in the index
        self._health: EmbeddingHealth | None = None
        self._retry_at = 0.0
        self._wake = asyncio.Event()  # work to do: a memory added, config changed, a new dimension
        self._answered_again = asyncio.Event()  # the model answered after it had failed
        self._gave_up = False  # the last pass stopped because the model failed (memories may lack vectors)
        self._pass = asyncio.Lock()
        self._cache: OrderedDict[tuple[str, str], Matrix] = OrderedDict()
        self._skipped: dict[str, set[int]] = {}
        self._pass_dim: int | None = None  # the dimension the current back-fill pass's first answer had
        self.batches = 0
        """Back-fill requests sent since start (for the benchmark and tests)."""
        store.attach(self)

    # --- what the store asks --------------------------------------------------------------------

    async def similar(self, query: str, k: int) -> list[tuple[int, float]] | None:
        """The ``k`` memories most like ``query`` (``seq``, cosine), best first; None when vectors cannot
        be used now (no model, model down, nothing embedded yet by this model)."""
        embedder = self._embedder()
        index = self._index
        if embedder is None or index is None or index.model != embedder.model or not len(index):
            return None
        vector = await self._query_vector(embedder, query, index.dim)
        if vector is None:
            return None
        if len(index) >= THREAD_ROWS:  # ≈ 1 ms per 20k rows: beyond that, off the event loop
            return await asyncio.to_thread(index.top, vector, k, self.min_similarity)
        return index.top(vector, k, self.min_similarity)

    def added(self, memory: Memory) -> None:
        self._wake.set()

    def removed(self, seq: int) -> None:
        if self._index is not None:
            self._index.remove(seq)

    # --- status ---------------------------------------------------------------------------------

    def health(self) -> EmbeddingHealth:
        """The embedding model's health now (not asked yet: ok, "not asked yet")."""
        embedder = self._embedder()
        if embedder is None:
            return EmbeddingHealth(None, False, NO_MODEL)
        health = self._health
        if health is None or health.model != embedder.model:
            return EmbeddingHealth(embedder.model, True, f"{embedder.description}: not asked yet")
        return health

    async def status(self) -> MemoryStatus:
        """``openhuman.memory_status``."""
        health = self.health()
        count = await self._store.count()
        evicted = await self._store.count(tag=EVICTED_TAG)
        index = self._index
        dim = index.dim if index is not None and index.model == health.model else None
        with_vectors = await self._store.count_vectors(health.model, dim) if health.model else 0
        return MemoryStatus(count, with_vectors, evicted, health, dim)

    def wake(self) -> None:
        """Look for work now (config.toml changed, the model may be back)."""
        self._retry_at = 0.0
        self._wake.set()

    # --- the worker -----------------------------------------------------------------------------

    async def run(self) -> None:
        """The back-fill worker: a pass now, then one whenever woken (a memory added, config changed), whenever
        the model answers again after a failure, and while it fails every ``retry_seconds``."""
        again = 0  # passes in a row that stopped on a failure although the model had answered since
        while True:
            self._wake.clear()
            self._answered_again.clear()
            try:
                await self.backfill()
            except StoreUnavailable as exc:  # locked or full for now: the vectors wait, nothing is lost
                log.warning("memory vectors: %s", exc)
                await self._wait(self.retry_seconds)
                continue
            except Exception:  # a bug must not end the worker for the rest of the session: logged, tried again
                log.exception("memory vectors: the back-fill failed")
                await self._wait(self.retry_seconds)
                continue
            health = self._health
            is_down = health is not None and not health.ok and self._embedder() is not None
            if self._gave_up and not is_down:
                # The pass stopped on a failure, and the model has answered since (its probe, a search): go on
                # now — but a model that fails every batch and answers every probe gets a growing pause.
                again += 1
                if again > 1:
                    await self._wait(min(self.retry_seconds, FIRST_BACKOFF_SECONDS * 2 ** (again - 2)),
                                     on_answer=False)
                continue
            again = 0
            if is_down:
                await self._wait(self.retry_seconds)
            else:
                await self._wake.wait()

    async def _wait(self, seconds: float, *, on_answer: bool = True) -> None:
        """Sleep ``seconds``, or less: until woken, or (``on_answer``) until the model answers again."""
        events = [self._wake, *([self._answered_again] if on_answer else [])]
        waiters = [asyncio.ensure_future(event.wait()) for event in events]
        slept = asyncio.ensure_future(self._clock.sleep(seconds))
        try:
            await asyncio.wait({*waiters, slept}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in (*waiters, slept):
                waiter.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await waiter

    async def backfill(self) -> int:
        """Embed every memory that lacks a vector of the current model, batch by batch, until none is left,
        the model fails or changes. Returns how many memories got a vector. A model that answers but has
        nothing to do is asked once (a one-word probe) so the status knows it is up."""
        async with self._pass:
            embedder = self._embedder()
            if embedder is None:
                self._index, self._loaded = None, None
                return 0
            await self._load(embedder.model)
            self._pass_dim = None
            self._gave_up = False
            done = 0
            while self._embedder() is embedder:
                index = self._index
                skipped = self._skipped.setdefault(embedder.model, set())
                batch = await self._store.missing_vectors(
                    embedder.model, index.dim if index is not None else None, self.batch_size, skipped)
                if not batch:
                    break
                vectors = await self._embed(embedder, batch, skipped)
                if vectors is None:
                    self._gave_up = True
                    break
                done += await self._keep(embedder.model, vectors, dict(batch))
                await asyncio.sleep(0)
            health = self._health
            if done:
                self._changed()
            elif health is None or health.model != embedder.model or not health.ok:
                await self._probe(embedder)
            return done

    async def _embed(self, embedder: Embedder, batch: Sequence[tuple[int, str]],
                     skipped: set[int]) -> list[tuple[int, list[float]]] | None:
        """Vectors for ``batch``; texts the model refuses are embedded alone, and those refused alone are
        skipped from now on. None: the model failed (its health says why)."""
        self.batches += 1
        try:
            vectors = await embedder.embed([text for _, text in batch])
        except EmbeddingRejected as exc:
            if len(batch) == 1:
                log.warning("embedding model %s refused memory #%d: %s", embedder.model, batch[0][0], exc)
                skipped.add(batch[0][0])
                return []
            kept: list[tuple[int, list[float]]] = []
            for item in batch:
                alone = await self._embed(embedder, [item], skipped)
                if alone is None:
                    return None
                kept.extend(alone)
            return kept
        except (LlmUnavailable, LlmReplyError) as exc:
            self._failed(embedder, str(exc))
            return None
        dim = len(vectors[0]) if vectors else None
        if dim is not None and self._pass_dim is not None and dim != self._pass_dim:
            # Each answer at another length would make the previous ones stale: re-embedding forever.
            self._failed(embedder, f"{embedder.description} answered with {self._pass_dim} and then {dim} "
                                   "numbers per text; vectors of changing length cannot be compared.")
            return None
        self._pass_dim = self._pass_dim or dim
        self._succeeded(embedder)
        return [(seq, vector) for (seq, _), vector in zip(batch, vectors, strict=True)]

    async def _keep(self, model: str, vectors: list[tuple[int, list[float]]], texts: dict[int, str]) -> int:
        """Store ``vectors`` (made from ``texts`` by ``seq``) and put them in the index (a new dimension starts
        a new index)."""
        from openhuman_desktop.memory import index as vectors_index

        if not vectors:
            return 0
        matrix = vectors_index.normalized(vectors_index.matrix_of([vector for _, vector in vectors]))
        dim = int(matrix.shape[1])
        if self._index is not None and self._index.model == model:
            self._saw_dimension(model, dim)
        if self._index is None or self._index.model != model:
            self._index = vectors_index.VectorIndex(model, dim)
            self._cache.clear()
        seqs = [seq for seq, _ in vectors]
        stored = await self._store.put_vectors(
            [VectorRow(seq, model, dim, vectors_index.to_bytes(row), texts.get(seq))
             for seq, row in zip(seqs, matrix, strict=True)])
        present = set(stored)
        keep = [row for row, seq in enumerate(seqs) if seq in present]
        self._index.upsert([seqs[row] for row in keep], matrix[keep])
        return len(keep)

    async def _load(self, model: str) -> None:
        """The stored vectors of ``model`` into the index (once per model; its most common dimension), read in
        blocks and put together off the event loop."""
        if self._loaded == model and self._index is not None:
            return
        dims = await self._store.vector_dims(model)
        self._loaded = model
        self._cache.clear()
        if not dims:
            self._index = None
            return
        from openhuman_desktop.memory import index as vectors_index

        dim = max(dims, key=lambda value: (dims[value], value))
        index = vectors_index.VectorIndex(model, dim)
        after = 0
        while True:
            seqs, blob = await self._store.vector_block(model, dim, after)
            if not seqs:
                break
            await asyncio.to_thread(index.extend, seqs, vectors_index.stacked_bytes(blob, len(seqs), dim))
            after = seqs[-1]
        self._index = index
        log.info("memory vectors: %d of model %s (%d dimensions) loaded", len(index), model, dim)

    async def _probe(self, embedder: Embedder) -> None:
        try:
            vectors = await embedder.embed(["ok"], timeout=self.query_timeout)
        except (LlmUnavailable, LlmReplyError) as exc:
            self._failed(embedder, str(exc))
        else:
            self._succeeded(embedder)
            self._saw_dimension(embedder.model, len(vectors[0]))

    def _saw_dimension(self, model: str, dim: int) -> None:
        """The model answered with ``dim`` numbers: if its stored vectors have another length, they are all
        stale (a new index; the back-fill, woken, embeds everything again)."""
        index = self._index
        if index is not None and index.model == model and index.dim != dim:
            from openhuman_desktop.memory import index as vectors_index

            log.info("embedding model %s now gives %d dimensions (was %d): re-embedding", model, dim, index.dim)
            self._index = vectors_index.VectorIndex(model, dim)
            self._cache.clear()
            self._wake.set()

    async def _query_vector(self, embedder: Embedder, query: str, dim: int) -> Matrix | None:
        key = (embedder.model, query)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        health = self._health
        if (health is not None and health.model == embedder.model and not health.ok
                and self._clock.monotonic() < self._retry_at):
            return None  # known to be down: answer from full text at once
        try:
            vectors = await embedder.embed([query], timeout=self.query_timeout)
        except EmbeddingRejected as exc:  # this text only: the model is not down, this search uses full text
            log.info("embedding model %s refused a search's text: %s", embedder.model, exc)
            return None
        except (LlmUnavailable, LlmReplyError) as exc:
            self._failed(embedder, str(exc))
            return None
        self._succeeded(embedder)
        if len(vectors[0]) != dim:
            self._saw_dimension(embedder.model, len(vectors[0]))
            return None
        from openhuman_desktop.memory import index as vectors_index

        vector = vectors_index.matrix_of(vectors[0])
        self._cache[key] = vector
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return vector

    def _failed(self, embedder: Embedder, reason: str) -> None:
        self._retry_at = self._clock.monotonic() + self.retry_seconds
        health = EmbeddingHealth(embedder.model, False, reason)
        if health != self._health:
            log.warning("embedding model %s: %s", embedder.model, reason)
            self._health = health
            self._changed()

    def _succeeded(self, embedder: Embedder) -> None:
        health = EmbeddingHealth(embedder.model, True, f"{embedder.description} is ready")
        if health != self._health:
            was_down = self._health is not None and not self._health.ok
            self._health = health
            if was_down:
                log.info("embedding model %s answers again", embedder.model)
                # What was stored meanwhile gets its vectors now. Said to the worker whatever it is doing: a
                # pass whose batch failed just before this answer (a search's, or its own probe's) would
                # otherwise end with the model "ok" and nothing left to wake it.
                self._answered_again.set()
            self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

