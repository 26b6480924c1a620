"""Property tests: the hybrid ranking is stable — deterministic, untouched by unrelated memories and rankings'
tails, monotonic in each list, and the same in real SQLite with bag-of-words vectors."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Sequence
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from openhuman_desktop.memory import open_memory_store
from openhuman_desktop.memory.ranking import fuse
from openhuman_desktop.memory.vectors import VectorMemory
from tests.fakes.clock import FakeClock
from tests.fakes.model_servers import fake_embedding

seqs = st.lists(st.integers(min_value=1, max_value=40), unique=True, max_size=25)


@st.composite
def rankings(draw: st.DrawFn) -> tuple[list[int], list[tuple[int, float]]]:
    text = draw(seqs)
    vector_seqs = draw(seqs)
    scores = sorted(draw(st.lists(st.floats(0.2, 1.0), min_size=len(vector_seqs), max_size=len(vector_seqs))),
                    reverse=True)
    return text, list(zip(vector_seqs, scores, strict=True))


@given(rankings(), st.integers(1, 60))
def test_fusion_is_a_ranked_subset_with_honest_labels(ranked: tuple[list[int], list[tuple[int, float]]],
                                                      limit: int) -> None:
    text, vector = ranked
    out = fuse(text, vector, limit)
    union = set(text) | {seq for seq, _ in vector}
    assert len(out) == min(limit, len(union)) and len({r.seq for r in out}) == len(out)
    assert [r.score for r in out] == sorted((r.score for r in out), reverse=True)
    for item in out:
        assert item.matched_by == tuple(name for name, members in
                                        (("text", set(text)), ("vector", {s for s, _ in vector}))
                                        if item.seq in members)
    assert fuse(text, vector, limit) == out  # deterministic
    assert fuse(text, vector, 100)[: len(out)] == out  # a smaller limit is a prefix


@given(rankings(), st.integers(41, 60))
def test_a_newcomer_at_the_tail_never_reorders_the_others(ranked: tuple[list[int], list[tuple[int, float]]],
                                                          newcomer: int) -> None:
    text, vector = ranked
    before = [r.seq for r in fuse(text, vector, 100)]
    after = [r.seq for r in fuse([*text, newcomer], [*vector, (newcomer, 0.2)], 100) if r.seq != newcomer]
    assert after == before


@given(rankings(), st.data())
def test_moving_up_in_one_list_never_moves_down_overall(ranked: tuple[list[int], list[tuple[int, float]]],
                                                        data: st.DataObject) -> None:
    text, vector = ranked
    if len(text) < 2:
        return
    at = data.draw(st.integers(1, len(text) - 1))
    promoted = text[at]
    better = [*text[: at - 1], promoted, text[at - 1], *text[at + 1:]]
    position = [r.seq for r in fuse(text, vector, 100)].index(promoted)
    assert [r.seq for r in fuse(better, vector, 100)].index(promoted) <= position


class BagOfWords:
    """An in-process Embedder with the fakes' bag-of-words vectors (the HTTP path is tested elsewhere)."""

    model = "bag-of-words"
    description = "bag-of-words test embedder"

    async def embed(self, texts: Sequence[str], *, timeout: float | None = None) -> list[list[float]]:
        return [fake_embedding(text, DIM) for text in texts]

    async def aclose(self) -> None:
        return None


DIM = 384  # no two of WORDS + OTHER share a dimension at this size (checked below)
WORDS = ["dentist", "friday", "tea", "anna", "parking", "report", "garden", "invoice", "train", "summary"]
OTHER = ["violin", "glacier", "pepper", "saturn", "marble"]

def test_the_words_do_not_collide() -> None:
    assert len({fake_embedding(word, DIM).index(1.0) for word in WORDS + OTHER}) == len(WORDS + OTHER)


phrases = st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join)


Ranking = list[tuple[str, tuple[str, ...]]]


async def _rankings(notes: Sequence[str], extra: Sequence[str], query: str) -> dict[str, tuple[Ranking, Ranking]]:
    with tempfile.TemporaryDirectory() as folder:
        store = await open_memory_store(Path(folder) / "memory.db", FakeClock())
        embedder = BagOfWords()
        try:
            vectors = VectorMemory(store, lambda: embedder, FakeClock())
            for note in notes:
                await store.add(note)
            await vectors.backfill()
            before = {mode: [(m.text, m.matched_by) for m in await store.search(query, 50, mode)]
                      for mode in ("hybrid", "vector")}
            for note in extra:
                await store.add(note)
            await vectors.backfill()
            after = {mode: [(m.text, m.matched_by) for m in await store.search(query, 50, mode)]
                     for mode in ("hybrid", "vector")}
            assert [(m.text, m.matched_by) for m in await store.search(query, 50)] == after["hybrid"]
            return {mode: (before[mode], after[mode]) for mode in before}
        finally:
            await store.aclose()


@settings(max_examples=25, deadline=None)
@given(st.lists(phrases, min_size=1, max_size=12), st.lists(st.lists(st.sampled_from(OTHER), min_size=1,
                                                                     max_size=3).map(" ".join), max_size=6),
       phrases)
def test_search_is_stable_when_unrelated_memories_arrive(notes: list[str], extra: list[str], query: str) -> None:
    """Unrelated memories never show up and never change which memories are found or how; the vector
    ranking (cosine) keeps its order. (The hybrid order may move where bm25 itself does: its IDF and average
    length are corpus statistics.)"""
    found = asyncio.run(_rankings(notes, extra, query))
    hybrid_before, hybrid_after = found["hybrid"]
    assert sorted(hybrid_before) == sorted(hybrid_after)
    assert found["vector"][0] == found["vector"][1]
    assert not {text for text, _ in hybrid_after} & set(extra)
