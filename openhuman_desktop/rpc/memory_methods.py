"""The ``openhuman.memory_*`` methods: remember, search (hybrid, text or vector), page through and forget
memories, and the status of their vectors (CONTRACT §11)."""

from __future__ import annotations

from openhuman_desktop.errors import InvalidInput
from openhuman_desktop.events import EventBus
from openhuman_desktop.memory.service import MemoryService
from openhuman_desktop.memory.store import MemoryStore, check_mode, clean_tags
from openhuman_desktop.memory.vectors import NO_MODEL, VectorMemory
from openhuman_desktop.rpc.methods import Json, Method, Param
from openhuman_desktop.rpc.protocol import METHOD_PREFIX

MAX_SEARCH_LIMIT = 100
MAX_LIST_LIMIT = 1_000


def _limit(value: Json, default: int, maximum: int) -> int:
    if value is None:
        return default
    if not 1 <= value <= maximum:
        raise InvalidInput("limit", f"must be between 1 and {maximum}")
    return int(value)


def _tags(value: Json) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InvalidInput("tags", "must be an array of strings")
    return clean_tags(value)


def memory_methods(memory: MemoryStore | MemoryService, bus: EventBus | None = None,
                   vectors: VectorMemory | None = None) -> dict[str, Method]:
    """The memory methods, named ``openhuman.memory_<verb>`` (CONTRACT §4 conventions).

    ``memory_add`` stores with source ``"user"``; the results are Memory objects
    ``{id, text, source, created_at, tags, vector_model}``, search results add ``score`` and ``matched_by``.
    ``memory_status`` reports ``vectors`` (without it: no embedding model). Additions and removals go through
    the :class:`MemoryService` (given, or made over the store publishing on ``bus``).
    """
    memories = MemoryService.of(memory, bus)
    store = memories.store

    async def add(p: dict[str, Json]) -> Json:
        added = await memories.add(p["text"], source="user", tags=_tags(p.get("tags")))
        return added.to_json()

    async def search(p: dict[str, Json]) -> Json:
        mode = check_mode("hybrid" if p.get("mode") is None else p["mode"])
        found = await store.search(p["query"], _limit(p.get("limit"), 20, MAX_SEARCH_LIMIT), mode)
        return [memory.to_json() for memory in found]

    async def list_(p: dict[str, Json]) -> Json:
        page = await store.list(_limit(p.get("limit"), 50, MAX_LIST_LIMIT), p.get("before"), p.get("tag"))
        return [memory.to_json() for memory in page]

    async def status(p: dict[str, Json]) -> Json:
        if vectors is not None:
            return (await vectors.status()).to_json()
        count = await store.count()
        return {"count": count, "with_vectors": 0, "evicted": await store.count(tag="evicted"), "pending": 0,
                "dim": None, "embedding": {"model": None, "ok": False, "reason": NO_MODEL}}

    async def remove(p: dict[str, Json]) -> Json:
        await memories.remove(p["memory_id"])
        return {"removed": p["memory_id"]}

    table = {
        "memory_add": Method((Param("text", "string", required=True), Param("tags", "any")), add),
        "memory_search": Method(
            (Param("query", "string", required=True), Param("limit", "integer"), Param("mode", "string")), search),
        "memory_list": Method((Param("limit", "integer"), Param("before", "number"), Param("tag", "string")), list_),
        "memory_remove": Method((Param("memory_id", "string", required=True),), remove),
        "memory_status": Method((), status),
    }
    return {METHOD_PREFIX + name: method for name, method in table.items()}
