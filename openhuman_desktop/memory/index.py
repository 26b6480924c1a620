"""The in-memory vector matrix: exact cosine search with numpy on one BLAS thread, updated incrementally.

Only imported once an embedding model is in use (``memory.vectors`` imports it on demand): numpy costs
≈ 15 MB and 70 ms at start-up that a workspace without ``[models.embedding]`` never pays."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

# One BLAS thread for the whole process (numpy is only used here): with OpenBLAS on its default threads a
# single query over 100k rows was 2-75x slower on these machines (DESIGN G10), and the app shares the CPU.
threadpool_limits(limits=1, user_api="blas")

Matrix = npt.NDArray[np.float32]


def normalized(vectors: Matrix) -> Matrix:
    """Rows scaled to unit length (a zero row stays zero), as float32."""
    matrix = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    unit: Matrix = (matrix / norms).astype(np.float32, copy=False)
    return unit


def matrix_of(vectors: Sequence[Sequence[float]] | Sequence[float]) -> Matrix:
    """Vectors (one per row), or one vector, as float32 numbers."""
    return np.asarray(vectors, dtype=np.float32)


def stacked_bytes(blob: bytes, rows: int, dim: int) -> Matrix:
    """``rows`` stored vectors of ``dim``, their bytes one after the other, as a float32 matrix (no copy)."""
    return np.frombuffer(blob, dtype="<f4", count=rows * dim).reshape(rows, dim)


def to_bytes(vector: Sequence[float] | Matrix) -> bytes:
    """One vector as the stored float32 little-endian bytes."""
    return np.asarray(vector, dtype="<f4").tobytes()


def from_bytes(blob: bytes, dim: int) -> Matrix:
    """Stored bytes back to a float32 vector of ``dim``."""
    return np.frombuffer(blob, dtype="<f4", count=dim).astype(np.float32)


class VectorIndex:
    """Unit vectors of one model and dimension, one row per memory ``seq``, searched exactly.

    Rows live in one preallocated float32 matrix that grows by doubling; removing a row moves the last row
    into its place, so a search is one matrix-vector product over a contiguous block. A lock lets a
    search run in a worker thread while the event loop adds or removes rows.
    """

    def __init__(self, model: str, dim: int) -> None:
        self.model = model
        self.dim = dim
        self._matrix: Matrix = np.zeros((0, dim), dtype=np.float32)
        self._seqs: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        self._rows: dict[int, int] = {}
        self._size = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return self._size

    def __contains__(self, seq: object) -> bool:
        return seq in self._rows

    def upsert(self, seqs: Sequence[int], vectors: Matrix) -> None:
        """Put (or replace) the rows of ``seqs``; ``vectors`` is one row each, normalized here."""
        if len(seqs) == 0:
            return
        unit = normalized(np.asarray(vectors, dtype=np.float32).reshape(len(seqs), self.dim))
        with self._lock:
            self._reserve(self._size + len(seqs))
            for seq, row in zip(seqs, unit, strict=True):
                at = self._rows.get(seq)
                if at is None:
                    at = self._size
                    self._size += 1
                    self._rows[seq] = at
                    self._seqs[at] = seq
                self._matrix[at] = row

    def extend(self, seqs: Sequence[int], vectors: Matrix) -> None:
        """Append rows for ``seqs`` that have none yet (loading at start: one vectorized copy, no Python
        loop per row); rows already present are left as they are."""
        unit = normalized(np.asarray(vectors, dtype=np.float32).reshape(len(seqs), self.dim))
        with self._lock:
            fresh = [row for row, seq in enumerate(seqs) if seq not in self._rows]
            if not fresh:
                return
            start = self._size
            self._reserve(start + len(fresh))
            self._matrix[start:start + len(fresh)] = unit[fresh]
            self._seqs[start:start + len(fresh)] = np.asarray([seqs[row] for row in fresh], dtype=np.int64)
            for offset, row in enumerate(fresh):
                self._rows[seqs[row]] = start + offset
            self._size = start + len(fresh)

    def remove(self, seq: int) -> None:
        """Drop the row of ``seq`` (nothing if it has none)."""
        with self._lock:
            at = self._rows.pop(seq, None)
            if at is None:
                return
            last = self._size - 1
            if at != last:
                moved = int(self._seqs[last])
                self._matrix[at] = self._matrix[last]
                self._seqs[at] = moved
                self._rows[moved] = at
            self._size = last

    def top(self, query: Sequence[float] | Matrix, k: int, min_similarity: float = -1.0) -> list[tuple[int, float]]:
        """The ``k`` rows most similar to ``query`` (cosine), best first, as ``(seq, similarity)``; rows
        below ``min_similarity`` are left out. Equal similarities go to the higher ``seq`` (newer)."""
        vector = np.asarray(query, dtype=np.float32).reshape(-1)
        if vector.shape[0] != self.dim or k <= 0:
            return []
        norm = float(np.linalg.norm(vector))
        if norm == 0:
            return []
        vector = vector / norm
        with self._lock:
            size = self._size
            if size == 0:
                return []
            scores = self._matrix[:size] @ vector
            seqs = self._seqs[:size].copy()
        count = min(k, size)
        if count < size:
            # Every row tied with the k-th best comes along, so the cut never depends on argpartition's order.
            kth = scores[np.argpartition(-scores, count - 1)[count - 1]]
            chosen = np.flatnonzero(scores >= kth)
        else:
            chosen = np.arange(size)
        order = chosen[np.lexsort((-seqs[chosen], -scores[chosen]))][:count]  # by similarity, then newer
        return [(int(seqs[row]), float(scores[row])) for row in order.tolist()
                if float(scores[row]) >= min_similarity]

    def _reserve(self, wanted: int) -> None:
        capacity = self._matrix.shape[0]
        if wanted <= capacity:
            return
        grown = max(wanted, capacity * 2, 64)
        matrix = np.zeros((grown, self.dim), dtype=np.float32)
        matrix[: self._size] = self._matrix[: self._size]
        seqs = np.zeros(grown, dtype=np.int64)
        seqs[: self._size] = self._seqs[: self._size]
        self._matrix, self._seqs = matrix, seqs
