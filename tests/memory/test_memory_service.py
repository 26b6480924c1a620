"""MemoryService: the one door memory is written through stores and publishes what changed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openhuman_desktop import events
from openhuman_desktop.memory import MAX_TEXT_CHARS, MemoryService, MemoryStore, open_memory_store
from openhuman_desktop.memory.events import MemoryAdded, MemoryRemoved
from openhuman_desktop.memory.ports import EvictionStore
from tests.fakes.clock import FakeClock


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[MemoryStore]:
    opened = await open_memory_store(tmp_path / "memory" / "memory.db", FakeClock(1_790_000_000.0))
    yield opened
    await opened.aclose()


async def test_add_and_remove_are_stored_and_published(store: MemoryStore) -> None:
    bus = events.EventBus()
    seen: list[events.Event] = []
    bus.subscribe(MemoryAdded, seen.append)
    bus.subscribe(MemoryRemoved, seen.append)
    memories = MemoryService(store, bus)
    added = await memories.add("The dentist is on Friday.", source="user", tags=("health",))
    assert (await store.get(added.id)) == added
    await memories.remove(added.id)
    assert await store.get(added.id) is None
    assert seen == [MemoryAdded(added), MemoryRemoved(added.id)]


async def test_a_long_text_is_kept_in_parts_each_published(store: MemoryStore) -> None:
    bus = events.EventBus()
    seen: list[MemoryAdded] = []
    bus.subscribe(MemoryAdded, seen.append)
    text = ("word " * (MAX_TEXT_CHARS // 5 + 100)).strip()
    await EvictionStore(MemoryService(store, bus)).store_evicted(text, thread_id="telegram:42", run_id="r1")
    assert len(seen) >= 2
    assert all(event.memory.tags == ("evicted", "telegram") for event in seen)
    assert sum(len(event.memory.text) for event in seen) >= len(text) - len(seen)
    assert await store.count() == len(seen)


async def test_of_keeps_a_service_and_wraps_a_store(store: MemoryStore) -> None:
    memories = MemoryService(store)
    assert MemoryService.of(memories) is memories
    assert MemoryService.of(store).store is store
    added = await MemoryService.of(store).add("Quiet: no bus, nothing published.")
    assert await store.count() == 1 and added.source == "user"
