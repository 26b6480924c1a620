"""What the ``MemoryService`` publishes: a memory stored (the ``Memory`` itself, typed) or removed."""

from __future__ import annotations

from dataclasses import dataclass

from openhuman_desktop.events import Event
from openhuman_desktop.memory.store import Memory

__all__ = ["MemoryAdded", "MemoryRemoved"]


@dataclass(frozen=True)
class MemoryAdded(Event):
    """A memory was stored (by the assistant, the Memory tab or over RPC); ``memory`` is the new one."""

    memory: Memory


@dataclass(frozen=True)
class MemoryRemoved(Event):
    """A memory was removed."""

    memory_id: str
