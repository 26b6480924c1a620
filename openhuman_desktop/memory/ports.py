"""Long-term memory as the other rooms use it: the report's recent and related memories, the agent's recall, and
the context hook's evictions (each the small port its user declares, over the one ``MemoryStore``)."""

from __future__ import annotations

import logging

from openhuman_desktop import events
from openhuman_desktop.errors import InvalidInput, StoreUnavailable
from openhuman_desktop.memory.service import MemoryService
from openhuman_desktop.memory.store import EVICTED_TAG, MemoryStore
from openhuman_desktop.memory.vectors import VectorMemory

log = logging.getLogger(__name__)

REPORT_RECENT_LIMIT = 50
"""At most this many memories newer than the report's span go into the situation report."""


class ReportMemories:
    """The situation report's memory section (``subconscious.report.memory_section``): what was remembered since
    the span began, and what matches a due task's words."""

    def __init__(self, memory: MemoryStore) -> None:
        self._memory = memory

    async def recent(self, since: float | None) -> list[tuple[str, str, float]]:
        """``(id, text, created_at)`` of the memories since ``since`` (all when None), oldest first."""
        items = await self._memory.since(since or 0.0, REPORT_RECENT_LIMIT)
        return [(item.id, item.text, item.created_at) for item in items]

    async def related(self, query: str, limit: int) -> list[tuple[str, str, float]]:
        """``(id, text, created_at)`` of the memories that match ``query``; none for a title without a word."""
        try:
            items = await self._memory.search(query, limit)
        except InvalidInput:  # task titles without a word to search for
            return []
        return [(item.id, item.text, item.created_at) for item in items]


class VectorRecall:
    """The agent's recall of long-term memory (``orchestration.ports.MemoryRecall``): a hybrid search for the
    request, keeping what the vectors found similar (words alone match too loosely to put into every prompt; the
    memory tool searches by words too). Nothing without a working embedding model."""

    def __init__(self, memory: MemoryStore, vectors: VectorMemory) -> None:
        self._memory = memory
        self._vectors = vectors

    async def recall(self, query: str, limit: int) -> list[str]:
        """The texts of up to ``limit`` memories similar to ``query``; [] when the vectors cannot tell."""
        health = self._vectors.health()
        if health.model is None or not health.ok:
            return []
        try:
            found = await self._memory.search(query[:1_000], limit)
        except InvalidInput:  # no word to search for
            return []
        except StoreUnavailable as exc:  # the run goes on without it
            log.warning("recalling memories failed: %s", exc)
            return []
        return [memory.text for memory in found if "vector" in memory.matched_by]


class EvictionStore:
    """What the context hook evicts goes to long-term memory (``orchestration.ports.EvictionSink``), tagged
    ``evicted`` (and gets its vector from the back-fill, like every memory)."""

    def __init__(self, memory: MemoryStore | MemoryService, bus: events.EventBus | None = None) -> None:
        self._memories = MemoryService.of(memory, bus)

    async def store_evicted(self, text: str, *, thread_id: str, run_id: str) -> None:
        """Remember ``text`` (in parts when it is longer than one memory may be: none of it dropped)."""
        await self._memories.add_in_parts(text, source="assistant", tags=(EVICTED_TAG, thread_id.split(":", 1)[0]))
