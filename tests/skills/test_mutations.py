"""Write tools report their mutations (for the world timeline) and observe their target (for the journal)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openhuman_desktop import events
from openhuman_desktop.memory import MemoryStore, open_memory_store
from openhuman_desktop.skills import (
    MemorySkill,
    NotificationSkill,
    SkillRegistry,
    SubconsciousTasksSkill,
    WorkspaceFilesSkill,
)
from openhuman_desktop.skills._args import INVALID_CALL
from openhuman_desktop.skills.base import MUTATION_KINDS, Mutation, Tool, ToolContext
from tests.fakes.clock import FakeClock
from tests.skills.test_other_skills import FakeTaskService


@pytest.fixture
async def memories(tmp_path: Path, clock: FakeClock) -> AsyncIterator[MemoryStore]:
    opened = await open_memory_store(tmp_path / "memory" / "memory.db", clock)
    yield opened
    await opened.aclose()


def tool(registry: SkillRegistry, name: str) -> Tool:
    return next(t for t in registry.tools(include_writes=True) if t.name == name)


CTX = ToolContext(run_id="r1", step=3, call_key="sub:0:call:1:0", writes_allowed=True)


async def test_files_write_and_append_report_sizes_and_observe_the_file(tmp_path: Path) -> None:
    registry = SkillRegistry([WorkspaceFilesSkill(tmp_path)])
    write, append = tool(registry, "files_write"), tool(registry, "files_append")
    assert write.observe is not None and append.observe is not None
    assert await write.observe({"path": "notes/a.md", "text": "x"}) == "absent"

    created = await write.run({"path": "notes/a.md", "text": "hello"}, CTX)
    assert created.mutations == (Mutation("file_written", "notes/a.md", "created with 5 bytes", None, 5),)
    seen = await write.observe({"path": "notes/a.md", "text": "x"})
    assert seen is not None and seen.startswith("5 bytes sha256:")

    appended = await append.run({"path": "notes/a.md", "text": " world"}, CTX)
    assert appended.mutations == (Mutation("file_written", "notes/a.md", "appended 6 bytes", 5, 11),)
    replaced = await write.run({"path": "notes/a.md", "text": "hi"}, CTX)
    assert replaced.mutations == (Mutation("file_written", "notes/a.md", "replaced with 2 bytes", 11, 2),)
    assert await write.observe({"path": "notes/a.md", "text": "x"}) != seen


async def test_an_empty_existing_file_is_not_created_again(tmp_path: Path) -> None:
    (tmp_path / "empty.md").write_bytes(b"")
    write = tool(SkillRegistry([WorkspaceFilesSkill(tmp_path)]), "files_write")
    result = await write.run({"path": "empty.md", "text": "abc"}, CTX)
    assert result.mutations == (Mutation("file_written", "empty.md", "replaced with 3 bytes", 0, 3),)


async def test_refused_and_failed_writes_report_no_mutation(tmp_path: Path) -> None:
    write = tool(SkillRegistry([WorkspaceFilesSkill(tmp_path)]), "files_write")
    refused = await write.run({"path": "../outside.md", "text": "x"}, CTX)
    assert refused.is_error and refused.mutations == ()
    assert write.observe is not None
    assert await write.observe({"path": 5}) == INVALID_CALL
    assert (await write.observe({"path": "../outside.md", "text": "x"}) or "").startswith("unobservable: ")


async def test_memory_add_reports_the_memory_and_observes_the_count(memories: MemoryStore) -> None:
    add = tool(SkillRegistry([MemorySkill(memories)]), "memory_add")
    assert add.observe is not None
    assert await add.observe({"text": " buy milk "}) == "0 with this text"
    result = await add.run({"text": " buy milk "}, CTX)
    [mutation] = result.mutations
    assert mutation.kind == "memory_stored" and result.text == f"Stored memory {mutation.target}."
    assert await add.observe({"text": "buy milk"}) == "1 with this text"


async def test_tasks_add_reports_the_task_and_observes_titles() -> None:
    service = FakeTaskService()
    add = tool(SkillRegistry([SubconsciousTasksSkill(service.list_tasks, service.add_task)]), "subconscious_tasks_add")
    assert add.observe is not None
    assert await add.observe({"title": "Water the plants"}) == "0 with this title"
    result = await add.run({"title": "Water the plants"}, CTX)
    [mutation] = result.mutations
    assert mutation.kind == "task_created" and mutation.target == service.tasks[-1].id
    assert await add.observe({"title": "Water the plants"}) == "1 with this title"


async def test_notify_reports_a_message_and_cannot_be_observed() -> None:
    bus = events.EventBus()
    notify = tool(SkillRegistry([NotificationSkill(bus)]), "notify_user")
    assert notify.observe is None
    result = await notify.run({"title": "Done", "body": "All set."}, CTX)
    assert [m.kind for m in result.mutations] == ["message_sent"]


async def test_every_write_tool_observes_or_says_why_not_and_reads_never_mutate(
    tmp_path: Path, memories: MemoryStore
) -> None:
    service = FakeTaskService()
    registry = SkillRegistry([WorkspaceFilesSkill(tmp_path), MemorySkill(memories),
                              SubconsciousTasksSkill(service.list_tasks, service.add_task),
                              NotificationSkill(events.EventBus())])
    for t in registry.tools(include_writes=True):
        if not t.writes:
            assert t.observe is None, t.name
    unobservable = {t.name for t in registry.tools(include_writes=True) if t.writes and t.observe is None}
    assert unobservable == {"notify_user"}
    assert set(MUTATION_KINDS) >= {"file_written", "memory_stored", "task_created", "message_sent"}
