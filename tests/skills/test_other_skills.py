"""Memory, subconscious tasks and notification skills; the registry withholds write tools."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop import events
from openhuman_desktop.errors import InvalidInput, StoreUnavailable
from openhuman_desktop.memory import Memory, MemoryStore, open_memory_store
from openhuman_desktop.memory.events import MemoryAdded
from openhuman_desktop.skills import (
    CONNECTED,
    ERROR,
    MemorySkill,
    NotificationSkill,
    Skill,
    SkillRegistry,
    SubconsciousTasksSkill,
    ToolResult,
    WorkspaceFilesSkill,
)
from openhuman_desktop.skills.base import ToolContext
from openhuman_desktop.store.records import Task
from tests.fakes.clock import FakeClock


@pytest.fixture
async def memories(tmp_path: Path, clock: FakeClock) -> AsyncIterator[MemoryStore]:
    opened = await open_memory_store(tmp_path / "memory" / "memory.db", clock)
    yield opened
    await opened.aclose()


async def call(skill: Skill, tool: str, arguments: Mapping[str, Any]) -> ToolResult:
    by_name = {t.name: t for t in skill.tools()}
    return await by_name[tool].run(arguments, ToolContext(writes_allowed=True))


def make_task(title: str, recurrence: str = "pending", **changes: Any) -> Task:
    fields: dict[str, Any] = dict(
        id=f"task-{title[:8]}", title=title, source="user", recurrence=recurrence, enabled=True,
        last_run_at=None, next_run_at=None, completed=False, created_at=1_790_000_000.0, intent="read",
        origin="user", intent_source="keyword", updated_at=1_790_000_000.0,
    )
    fields.update(changes)
    return Task(**fields)


class FakeTaskService:
    """Records calls; refuses what the real service refuses."""

    def __init__(self) -> None:
        self.tasks: list[Task] = [make_task("Check connected skills", source="system")]
        self.added: list[tuple[str, str]] = []

    async def list_tasks(self) -> list[Task]:
        return list(self.tasks)

    async def add_task(self, title: str, recurrence: str) -> Task:
        self.added.append((title, recurrence))
        if not title.strip():
            raise InvalidInput("title", "must not be empty or only spaces")
        if recurrence not in ("pending", "once") and not recurrence.startswith("cron:"):
            raise InvalidInput("recurrence", 'must be "pending", "once" or "cron:<expr>"')
        task = make_task(title, recurrence, origin="assistant", intent_source="assistant")
        self.tasks.append(task)
        return task


def all_skills(tmp_path: Path, memories: MemoryStore, bus: events.EventBus) -> list[Skill]:
    service = FakeTaskService()
    return [
        WorkspaceFilesSkill(tmp_path), MemorySkill(memories),
        SubconsciousTasksSkill(service.list_tasks, service.add_task), NotificationSkill(bus),
    ]


# --- memory -----------------------------------------------------------------------------------------------

async def test_memory_add_then_search_and_list(memories: MemoryStore) -> None:
    bus = events.EventBus()
    published: list[MemoryAdded] = []
    bus.subscribe(MemoryAdded, published.append)
    skill = MemorySkill(memories, bus)
    added = await call(skill, "memory_add", {"text": "  The wifi password is on the fridge.  "})
    assert not added.is_error and added.text.startswith("Stored memory ")
    seen: list[Memory] = [event.memory for event in published]
    assert [m.text for m in seen] == ["The wifi password is on the fridge."]
    assert seen[0].source == "assistant"
    found = await call(skill, "memory_search", {"query": "wifi fridge"})
    assert not found.is_error
    assert seen[0].id in found.text and "The wifi password is on the fridge." in found.text
    listed = await call(skill, "memory_list", {"limit": 5})
    assert seen[0].id in listed.text


async def test_memory_tools_answer_plainly_when_nothing_is_there(memories: MemoryStore) -> None:
    skill = MemorySkill(memories)
    nothing = await call(skill, "memory_search", {"query": "anything"})
    assert nothing == ToolResult("No memory matches 'anything'.")
    assert await call(skill, "memory_list", {}) == ToolResult("Memory is empty.")


async def test_memory_long_texts_are_cut_in_answers(memories: MemoryStore) -> None:
    await memories.add("needle " + "x" * 5_000)
    result = await call(MemorySkill(memories), "memory_search", {"query": "needle"})
    assert len(result.text) < 1_300 and result.text.endswith("[…]")


@pytest.mark.parametrize(
    ("tool", "arguments", "named"),
    [("memory_search", {}, "query"), ("memory_search", {"query": 3}, "query"),
     ("memory_search", {"query": "x", "limit": 500}, "limit"), ("memory_search", {"query": "((("}, "query"),
     ("memory_list", {"limit": "ten"}, "limit"), ("memory_add", {"text": "   "}, "text"),
     ("memory_add", {"text": ["a"]}, "text"), ("memory_add", {"text": "a", "tags": ["x"]}, "tags")],
)
async def test_memory_garbage_arguments_name_the_argument(
    memories: MemoryStore, tool: str, arguments: dict[str, Any], named: str
) -> None:
    result = await call(MemorySkill(memories), tool, arguments)
    assert result.is_error and result.text.startswith(f"Invalid {named}:"), result.text
    assert await memories.count() == 0


async def test_memory_health(tmp_path: Path, clock: FakeClock) -> None:
    store = await open_memory_store(tmp_path / "m.db", clock)
    skill = MemorySkill(store)
    assert (await skill.health()).status == CONNECTED
    await store.aclose()
    broken = await skill.health()
    assert broken.status == ERROR and "closed" in broken.message
    # A closed store is a clear error result for the tools too, never an exception.
    result = await call(skill, "memory_list", {})
    assert result.is_error and str(StoreUnavailable.__name__) not in result.text


# --- subconscious tasks -------------------------------------------------------------------------------------

async def test_tasks_list_and_add() -> None:
    service = FakeTaskService()
    skill = SubconsciousTasksSkill(service.list_tasks, service.add_task)
    listed = await call(skill, "subconscious_tasks_list", {})
    assert listed.text.startswith("1 task:") and "'Check connected skills'" in listed.text
    added = await call(
        skill, "subconscious_tasks_add", {"title": "Water the plants", "recurrence": "cron:0 9 * * *"}
    )
    assert not added.is_error and "Water the plants" in added.text
    assert "read-only until the user confirms it" in added.text and "write intent" not in added.text
    relisted = await call(skill, "subconscious_tasks_list", {})
    assert "'Water the plants' — cron:0 9 * * *, enabled, assistant's task, read intent" in relisted.text
    assert service.added == [("Water the plants", "cron:0 9 * * *")]
    default = await call(skill, "subconscious_tasks_add", {"title": "Summarise inbox"})
    assert not default.is_error
    assert service.added[-1] == ("Summarise inbox", "pending")


async def test_tasks_service_refusal_becomes_an_error_result() -> None:
    service = FakeTaskService()
    skill = SubconsciousTasksSkill(service.list_tasks, service.add_task)
    result = await call(skill, "subconscious_tasks_add", {"title": "x", "recurrence": "every day"})
    assert result.is_error and result.text.startswith("Invalid recurrence:")
    blank = await call(skill, "subconscious_tasks_add", {"title": "   "})
    assert blank.is_error and blank.text.startswith("Invalid title:")


@pytest.mark.parametrize(
    ("tool", "arguments", "named"),
    [("subconscious_tasks_add", {}, "title"), ("subconscious_tasks_add", {"title": 5}, "title"),
     ("subconscious_tasks_add", {"title": "x", "recurrence": 1}, "recurrence"),
     ("subconscious_tasks_list", {"enabled_only": True}, "enabled_only")],
)
async def test_tasks_garbage_arguments(tool: str, arguments: dict[str, Any], named: str) -> None:
    service = FakeTaskService()
    result = await call(SubconsciousTasksSkill(service.list_tasks, service.add_task), tool, arguments)
    assert result.is_error and result.text.startswith(f"Invalid {named}:"), result.text
    assert service.added == []


async def test_tasks_health_is_connected() -> None:
    service = FakeTaskService()
    assert (await SubconsciousTasksSkill(service.list_tasks, service.add_task).health()).status == CONNECTED


# --- notifications ---------------------------------------------------------------------------------------

async def test_notify_publishes_notified() -> None:
    bus = events.EventBus()
    received: list[events.Notified] = []
    bus.subscribe(events.Notified, received.append)
    skill = NotificationSkill(bus)
    arguments = {"title": "  Backup   done ", "body": "All 3 folders copied.\n"}
    result = await call(skill, "notify_user", arguments)
    assert not result.is_error
    assert received == [events.Notified("Backup done", "All 3 folders copied.")]
    assert (await skill.health()).status == CONNECTED


@pytest.mark.parametrize(
    ("arguments", "named"),
    [({"title": "x"}, "body"), ({"body": "x"}, "title"), ({"title": "   ", "body": "x"}, "title"),
     ({"title": "x", "body": 3}, "body"), ({"title": "x" * 201, "body": ""}, "title"),
     ({"title": "x", "body": "y", "urgency": "high"}, "urgency")],
)
async def test_notify_garbage_publishes_nothing(arguments: dict[str, Any], named: str) -> None:
    bus = events.EventBus()
    received: list[events.Notified] = []
    bus.subscribe(events.Notified, received.append)
    result = await call(NotificationSkill(bus), "notify_user", arguments)
    assert result.is_error and result.text.startswith(f"Invalid {named}:"), result.text
    assert received == []


# --- all skills together ------------------------------------------------------------------------------------

async def test_registry_without_writes_has_no_write_tool(tmp_path: Path, memories: MemoryStore) -> None:
    registry = SkillRegistry()
    for skill in all_skills(tmp_path, memories, events.EventBus()):
        registry.add(skill)
    read_only = {tool.name for tool in registry.tools(include_writes=False)}
    everything = {tool.name for tool in registry.tools(include_writes=True)}
    assert read_only == {"files_list", "files_read", "memory_search", "memory_list",
                         "subconscious_tasks_list"}
    assert everything - read_only == {"files_write", "files_append", "memory_add", "subconscious_tasks_add",
                                      "notify_user"}
    assert all(not tool.writes for tool in registry.tools(include_writes=False))
    health = await registry.health()
    assert {name: h.status for name, h in health.items()} == dict.fromkeys(
        ["files", "memory", "subconscious_tasks", "notify"], CONNECTED
    )


async def test_every_tool_spec_is_a_strict_json_schema(tmp_path: Path, memories: MemoryStore) -> None:
    names: list[str] = []
    for skill in all_skills(tmp_path, memories, events.EventBus()):
        assert skill.name and skill.title and skill.description
        for tool in skill.tools():
            names.append(tool.name)
            schema = tool.spec.parameters
            assert schema["type"] == "object" and schema["additionalProperties"] is False
            assert set(schema["required"]) <= set(schema["properties"])
            assert all("type" in prop and "description" in prop for prop in schema["properties"].values())
            assert tool.spec.description
    assert len(names) == len(set(names))
