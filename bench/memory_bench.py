"""Long-term memory benchmark: hybrid search (FTS5 bm25 + exact numpy cosine, fused by RRF) over 10k and 100k
memories at dim 384 and 768, and the back-fill of 10,000 memories against the fake Ollama (real HTTP, batches).

The memories are synthetic notes: words drawn from a Zipf-distributed vocabulary (a few very common words, a
long tail), as real notes are; the vectors are random unit vectors of the model's dimension (search cost
does not depend on what they mean). The query's vector comes from an in-process embedder (a real model's
time is the model's, and the app caches query vectors), so the figures are the product's own overhead:
SQL, numpy, fusion, loading the rows. Budget (DESIGN §5): hybrid search over 100,000 memories <= 30 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import sqlite3
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from bench.common import budget, figure, load_note, machine, ms_since, note  # noqa: E402
from openhuman_desktop.llm.embeddings import OllamaEmbedder  # noqa: E402
from openhuman_desktop.memory import open_memory_store  # noqa: E402
from openhuman_desktop.memory.index import to_bytes  # noqa: E402
from openhuman_desktop.memory.vectors import VectorMemory  # noqa: E402
from tests.fakes.clock import FakeClock  # noqa: E402
from tests.fakes.model_servers import FakeOllama  # noqa: E402

SEARCH_BUDGET_MS = 30.0
MODEL = "bench-embed"
COMMON = ("the", "a", "to", "and", "of", "on", "for", "with", "at", "is", "meeting", "project", "Anna", "Friday",
          "invoice", "report", "doctor", "appointment", "garden", "server", "backup", "travel", "Berlin")


def vocabulary(size: int = 8_000) -> list[str]:
    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz"
    tail = {"".join(rng.choice(letters) for _ in range(rng.randint(4, 10))) for _ in range(size)}
    return list(COMMON) + sorted(tail)


def zipf_weights(count: int, exponent: float = 1.07) -> list[float]:
    return [1.0 / (rank ** exponent) for rank in range(1, count + 1)]


def notes(count: int, words: Sequence[str], rng: random.Random) -> list[str]:
    weights = zipf_weights(len(words))
    return [" ".join(rng.choices(words, weights, k=rng.randint(8, 24))).capitalize() + "." for _ in range(count)]


def build_database(path: Path, texts: Sequence[str], dim: int | None, rng: np.random.Generator) -> None:
    """Memories (and, with ``dim``, their vectors of MODEL) written straight into a migrated memory database."""
    conn = sqlite3.connect(path)
    with conn:
        conn.executemany(
            "INSERT INTO memories (id, seq, text, source, created_at, tags) VALUES (?, ?, ?, 'user', ?, '')",
            ((str(uuid.uuid4()), seq, text, 1_700_000_000.0 + seq) for seq, text in enumerate(texts, start=1)))
        if dim is not None:
            for start in range(0, len(texts), 10_000):
                block = rng.standard_normal((min(10_000, len(texts) - start), dim), dtype=np.float32)
                block /= np.linalg.norm(block, axis=1, keepdims=True)
                conn.executemany("INSERT INTO memory_vectors (seq, model, dim, vector) VALUES (?, ?, ?, ?)",
                                 ((start + i + 1, MODEL, dim, to_bytes(row)) for i, row in enumerate(block)))
    conn.close()


class HashEmbedder:
    """An in-process embedder: a deterministic random unit vector per text."""

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.model = MODEL
        self.description = f"in-process {dim}-d embedder"

    async def embed(self, texts: Sequence[str], *, timeout: float | None = None) -> list[list[float]]:
        out = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
            vector = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
            out.append((vector / np.linalg.norm(vector)).tolist())
        return out

    async def aclose(self) -> None:
        return None


async def search_bench(count: int, dim: int, queries: int, folder: Path) -> float:
    """Times hybrid (and, for the breakdown, text-only and vector-only) searches; returns the hybrid median."""
    rng = random.Random(count + dim)
    words = vocabulary()
    path = folder / f"memory-{count}-{dim}.db"
    store = await open_memory_store(path, FakeClock())   # creates and migrates the file
    await store.aclose()
    started = time.perf_counter()
    build_database(path, notes(count, words, rng), dim, np.random.default_rng(count))
    note(f"{count:,} memories x {dim} dims written in {ms_since(started) / 1000:.1f} s")
    store = await open_memory_store(path, FakeClock())
    try:
        embedder = HashEmbedder(dim)
        vectors = VectorMemory(store, lambda: embedder, FakeClock())
        started = time.perf_counter()
        await vectors.backfill()   # loads the stored vectors into the matrix; nothing is missing
        figure(f"memory load {count:,} vectors x {dim} at start", [ms_since(started)])
        weights = zipf_weights(len(words))
        asked = [" ".join(rng.choices(words, weights, k=rng.randint(1, 4))) for _ in range(queries)]
        for query in asked:   # query vectors cached, as the app's LRU would have them for repeated queries
            await store.search(query, 20)
        times: dict[str, list[float]] = {"hybrid": [], "text": [], "vector": []}
        for query in asked:
            for mode in times:
                started = time.perf_counter()
                await store.search(query, 20, mode)
                times[mode].append(ms_since(started))
        hybrid = figure(f"memory search hybrid {count:,} x {dim}, limit 20", times["hybrid"])
        figure(f"memory search text only {count:,} x {dim}", times["text"])
        figure(f"memory search vector only {count:,} x {dim}", times["vector"])
        return hybrid.median
    finally:
        await store.aclose()
        path.unlink(missing_ok=True)


async def backfill_bench(count: int, batch_size: int, folder: Path) -> None:
    rng = random.Random(3)
    path = folder / "backfill.db"
    store = await open_memory_store(path, FakeClock())
    await store.aclose()
    build_database(path, notes(count, vocabulary(), rng), None, np.random.default_rng(3))
    with FakeOllama() as server:
        server.add_model("nomic-embed-text", capabilities=("embedding",))
        store = await open_memory_store(path, FakeClock())
        embedder = OllamaEmbedder("nomic-embed-text", server.url, batch_size=batch_size)
        try:
            vectors = VectorMemory(store, lambda: embedder, FakeClock(), batch_size=batch_size)
            started = time.perf_counter()
            done = await vectors.backfill()
            elapsed = ms_since(started) / 1000
            status = await vectors.status()
            batches = len(server.embed_requests)
            print(f"memory back-fill {done:,} memories against the fake Ollama: {elapsed:.2f} s, {batches} batches "
                  f"of <= {batch_size}, {done / elapsed:,.0f} memories/s, {status.with_vectors:,} of "
                  f"{status.count:,} with vectors", flush=True)
            assert done == count == status.with_vectors, (done, count, status)
        finally:
            await store.aclose()
            await embedder.aclose()


async def main(args: argparse.Namespace) -> int:
    note(machine())
    load_note()
    sizes = [args.quick_size] if args.quick else args.sizes
    medians: dict[tuple[int, int], float] = {}
    with tempfile.TemporaryDirectory(prefix="oh-memory-bench-") as tmp:
        for count in sizes:
            for dim in args.dims:
                medians[(count, dim)] = await search_bench(count, dim, args.queries, Path(tmp))
        await backfill_bench(args.backfill if not args.quick else 500, args.batch_size, Path(tmp))
    largest = max(sizes)
    for dim in args.dims:
        budget(f"memory hybrid search median, {largest:,} memories x {dim}", medians[(largest, dim)],
               SEARCH_BUDGET_MS, "ms")
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="2,000 memories and a back-fill of 500 (smoke test)")
    parser.add_argument("--quick-size", type=int, default=2_000, help=argparse.SUPPRESS)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--dims", type=int, nargs="+", default=[384, 768])
    parser.add_argument("--queries", type=int, default=100, help="queries per size and dimension")
    parser.add_argument("--backfill", type=int, default=10_000, help="memories back-filled against the fake")
    parser.add_argument("--batch-size", type=int, default=64)
    return parser.parse_args(argv)


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(parse_args())))
