"""The openhuman.memory_* RPC methods, called as Method objects (binding + call)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop import events
from openhuman_desktop.errors import InvalidInput, NotFound
from openhuman_desktop.memory import MemoryStore, open_memory_store
from openhuman_desktop.memory.events import MemoryAdded, MemoryRemoved
from openhuman_desktop.rpc.memory_methods import memory_methods
from openhuman_desktop.rpc.methods import MethodTable, bind
from openhuman_desktop.rpc.protocol import INVALID_PARAMS, map_exception
from tests.fakes.clock import FakeClock


@pytest.fixture
async def memories(tmp_path: Path, clock: FakeClock) -> AsyncIterator[MemoryStore]:
    opened = await open_memory_store(tmp_path / "memory" / "memory.db", clock)
    yield opened
    await opened.aclose()


async def invoke(store: MemoryStore, name: str, params: dict[str, Any] | list[Any]) -> Any:
    method = memory_methods(store)[f"openhuman.{name}"]
    return await method.call(bind(method.params, params))


def test_method_names(memories: MemoryStore) -> None:
    assert sorted(memory_methods(memories)) == [
        "openhuman.memory_add", "openhuman.memory_list", "openhuman.memory_remove", "openhuman.memory_search",
        "openhuman.memory_status",
    ]


async def test_add_search_list_remove(memories: MemoryStore, clock: FakeClock) -> None:
    added = await invoke(memories, "memory_add", {"text": "Parking spot is B12", "tags": ["car"]})
    assert added == {"id": added["id"], "text": "Parking spot is B12", "source": "user",
                     "created_at": clock.now(), "tags": ["car"], "vector_model": None}
    await clock.advance(1)
    other = await invoke(memories, "memory_add", ["Car service due in May"])
    assert other["tags"] == []
    assert [m["id"] for m in await invoke(memories, "memory_search", {"query": "parking"})] == [added["id"]]
    assert [m["id"] for m in await invoke(memories, "memory_search", {"query": "car", "limit": 1})] in (
        [[added["id"]], [other["id"]]]
    )
    assert [m["id"] for m in await invoke(memories, "memory_list", {})] == [other["id"], added["id"]]
    older = await invoke(memories, "memory_list", {"limit": 10, "before": other["created_at"]})
    assert [m["id"] for m in older] == [added["id"]]
    assert await invoke(memories, "memory_remove", {"memory_id": added["id"]}) == {"removed": added["id"]}
    with pytest.raises(NotFound):
        await invoke(memories, "memory_remove", {"memory_id": added["id"]})


async def test_additions_and_removals_are_published(memories: MemoryStore) -> None:
    bus = events.EventBus()
    seen: list[events.Event] = []
    bus.subscribe(MemoryAdded, seen.append)
    bus.subscribe(MemoryRemoved, seen.append)
    methods = memory_methods(memories, bus)

    async def call(name: str, params: dict[str, Any]) -> Any:
        method = methods[f"openhuman.{name}"]
        return await method.call(bind(method.params, params))

    added = await call("memory_add", {"text": "The spare key is under the blue pot"})
    await call("memory_search", {"query": "key"})
    with pytest.raises(InvalidInput):
        await call("memory_add", {"text": "   "})
    await call("memory_remove", {"memory_id": added["id"]})
    with pytest.raises(NotFound):
        await call("memory_remove", {"memory_id": added["id"]})
    assert [type(event).__name__ for event in seen] == ["MemoryAdded", "MemoryRemoved"]
    assert isinstance(seen[0], MemoryAdded) and seen[0].memory.to_json() == added
    assert seen[1] == MemoryRemoved(added["id"])


@pytest.mark.parametrize(
    ("name", "params", "named"),
    [
        ("memory_add", {}, "text"),
        ("memory_add", {"text": 5}, "text"),
        ("memory_add", {"text": "   "}, "text"),
        ("memory_add", {"text": "x", "tags": "car"}, "tags"),
        ("memory_add", {"text": "x", "tags": ["car", 3]}, "tags"),
        ("memory_add", {"text": "x", "tags": {"a": 1}}, "tags"),
        ("memory_add", {"text": "x", "colour": "red"}, "colour"),
        ("memory_search", {}, "query"),
        ("memory_search", {"query": ""}, "query"),
        ("memory_search", {"query": "x", "limit": 0}, "limit"),
        ("memory_search", {"query": "x", "limit": 101}, "limit"),
        ("memory_search", {"query": "x", "limit": "5"}, "limit"),
        ("memory_list", {"limit": 1001}, "limit"),
        ("memory_list", {"limit": 0}, "limit"),
        ("memory_list", {"before": "yesterday"}, "before"),
        ("memory_list", [10, 1.0, "evicted", "extra"], "params"),
    ],
)
async def test_invalid_params_name_the_parameter(
    memories: MemoryStore, name: str, params: dict[str, Any] | list[Any], named: str
) -> None:
    with pytest.raises(InvalidInput) as caught:
        await invoke(memories, name, params)
    assert caught.value.param == named
    code, message = map_exception(caught.value)
    assert code == INVALID_PARAMS and named in message
    assert await memories.count() == 0


async def test_hostile_search_text_is_searched_literally(memories: MemoryStore) -> None:
    await invoke(memories, "memory_add", {"text": "foo and bar"})
    assert len(await invoke(memories, "memory_search", {"query": '"foo AND ('})) == 1


async def test_methods_plug_into_the_method_table(memories: MemoryStore) -> None:
    table = MethodTable()
    table.add(memory_methods(memories))
    added = await table("openhuman.memory_add", {"text": "via the table"})
    assert (await table("openhuman.memory_list", {"limit": 1}))[0]["id"] == added["id"]
