"""Long-term memory: remembered texts with full-text search, in ``{workspace}/memory/memory.db``."""

from __future__ import annotations

from openhuman_desktop.memory.store import (
    MAX_TEXT_CHARS,
    Memory,
    MemoryStore,
    fts_query,
    memory_db_path,
    open_memory_store,
)

__all__ = ["MAX_TEXT_CHARS", "Memory", "MemoryStore", "fts_query", "memory_db_path", "open_memory_store"]
