"""What long-term memory reports about itself: the embedding model's health and the memory counts
(``openhuman.memory_status``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class EmbeddingHealth:
    """The embedding model as the last call found it: ``ok`` or why not (``reason``), in words."""

    model: str | None
    ok: bool
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "ok": self.ok, "reason": self.reason}


@dataclass(frozen=True)
class MemoryStatus:
    """``openhuman.memory_status``: how many memories, how many have a vector of the current model, how many
    were evicted from conversations, and the embedding model's health."""

    count: int
    with_vectors: int
    evicted: int
    embedding: EmbeddingHealth
    dim: int | None = None

    @property
    def pending(self) -> int:
        """Memories still waiting for a vector (0 without an embedding model)."""
        return self.count - self.with_vectors if self.embedding.model else 0

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count, "with_vectors": self.with_vectors, "evicted": self.evicted,
                "pending": self.pending, "dim": self.dim, "embedding": self.embedding.to_json()}
