"""The one door through which long-term memory is written: it stores (the store tells the vectors' back-fill,
which embeds) and publishes ``MemoryAdded`` / ``MemoryRemoved`` on the event bus, so every writer — RPC, the
memory skill, the context hook's evictions — is seen alike by the window and the channels."""

from __future__ import annotations

import builtins
from collections.abc import Iterable

from openhuman_desktop import events
from openhuman_desktop.memory.events import MemoryAdded, MemoryRemoved
from openhuman_desktop.memory.store import Memory, MemoryStore, text_parts


class MemoryService:
    """Writes to a :class:`MemoryStore` and publishes what changed; ``search``, ``list`` and ``count`` read the
    store as they are, so a reader that also writes (the Memory tab) holds this one object.

    Args:
        bus: where additions and removals are published; None publishes nothing (a store on its own, in tests).
    """

    def __init__(self, store: MemoryStore, bus: events.EventBus | None = None) -> None:
        self._store = store
        self._bus = bus

    @classmethod
    def of(cls, memory: MemoryStore | MemoryService, bus: events.EventBus | None = None) -> MemoryService:
        """``memory`` itself when it is the service, else a service over the store publishing on ``bus``."""
        return memory if isinstance(memory, MemoryService) else cls(memory, bus)

    @property
    def store(self) -> MemoryStore:
        """The store, for reading."""
        return self._store

    async def search(self, query: object, limit: int = 20) -> builtins.list[Memory]:
        """The best matches of ``query``, best first (:meth:`MemoryStore.search`)."""
        return await self._store.search(query, limit)

    async def list(self, limit: int = 50, before: float | None = None,
                   tag: str | None = None) -> builtins.list[Memory]:
        """The newest memories first, older than ``before``, with ``tag`` if given (:meth:`MemoryStore.list`)."""
        return await self._store.list(limit, before, tag=tag)

    async def count(self) -> int:
        """How many memories there are."""
        return await self._store.count()

    async def add(self, text: object, source: str = "user", tags: Iterable[str] = ()) -> Memory:
        """Remember ``text`` and publish it.

        Raises:
            InvalidInput: blank or too long text, bad source or tags.
            StoreUnavailable: the database cannot be written.
        """
        memory = await self._store.add(text, source=source, tags=tags)
        if self._bus is not None:
            self._bus.publish(MemoryAdded(memory))
        return memory

    async def add_in_parts(self, text: str, source: str, tags: Iterable[str] = ()) -> builtins.list[Memory]:
        """Remember a text longer than one memory may be, in parts (none of it dropped), each published."""
        tags = tuple(tags)
        return [await self.add(part, source=source, tags=tags) for part in text_parts(text)]

    async def remove(self, memory_id: str) -> None:
        """Forget a memory and publish that.

        Raises:
            NotFound: no such memory.
        """
        await self._store.remove(memory_id)
        if self._bus is not None:
            self._bus.publish(MemoryRemoved(str(memory_id)))
