"""Long-term memory: remembered texts with full-text search and float32 vectors, in ``{workspace}/memory/memory.db``."""

from __future__ import annotations

from openhuman_desktop.memory.service import MemoryService
from openhuman_desktop.memory.store import (
    EVICTED_TAG,
    MAX_TEXT_CHARS,
    Memory,
    MemoryStore,
    fts_query,
    memory_db_path,
    open_memory_store,
)

__all__ = [
    "EVICTED_TAG", "MAX_TEXT_CHARS", "Memory", "MemoryService", "MemoryStore", "fts_query", "memory_db_path",
    "open_memory_store",
]
