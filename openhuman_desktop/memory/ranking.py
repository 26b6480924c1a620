"""Hybrid ranking: full-text and vector matches fused by reciprocal rank (RRF), deterministically."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

MODES = ("hybrid", "text", "vector")
"""How ``memory_search`` ranks: both lists fused (the default), full text only, vectors only."""
RRF_K = 60
"""The usual reciprocal-rank constant (Cormack et al. 2009): a match at rank r adds 1 / (RRF_K + r)."""


@dataclass(frozen=True)
class Ranked:
    """One fused result: the memory's ``seq``, its score (higher is better), which searches found it."""

    seq: int
    score: float
    matched_by: tuple[str, ...]


def fuse(text: Sequence[int], vector: Sequence[tuple[int, float]], limit: int, k: int = RRF_K) -> list[Ranked]:
    """Reciprocal rank fusion of a full-text ranking and a vector ranking.

    Args:
        text: ``seq`` numbers, best full-text match first (bm25 order).
        vector: ``(seq, cosine)``, most similar first.
        limit: how many results to keep.
        k: the RRF constant.

    Returns:
        At most ``limit`` results, best first. Only ranks count (bm25 and cosine are not comparable); ties
        go to the better single rank, then to the newer memory (higher ``seq``), so the order never depends
        on anything but the two rankings. A ``seq`` repeated within one list counts once, at its best rank.
    """
    scores: dict[int, float] = {}
    best: dict[int, int] = {}
    found: dict[int, list[str]] = {}
    for name, seqs in (("text", list(text)), ("vector", [seq for seq, _ in vector])):
        seen: set[int] = set()
        for rank, seq in enumerate(seqs, start=1):
            if seq in seen:
                continue
            seen.add(seq)
            scores[seq] = scores.get(seq, 0.0) + 1.0 / (k + rank)
            best[seq] = min(best.get(seq, rank), rank)
            found.setdefault(seq, []).append(name)
    order = sorted(scores, key=lambda seq: (-scores[seq], best[seq], -seq))
    return [Ranked(seq, scores[seq], tuple(found[seq])) for seq in order[:max(0, limit)]]
