"""Write tools report their mutations (for the world timeline) and observe their target (for the journal)."""

from __future__ import annotations

import os
import stat
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

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


# --- what a call will leave (``Tool.expect``): settling a call a kill interrupted ----------------------------


async def expected_and_after(write_tool: Tool, arguments: dict[str, Any]) -> tuple[str | None, str | None, str | None]:
    """The fingerprint before, the one ``expect`` foresees, and the one the call really leaves."""
    assert write_tool.observe is not None and write_tool.expect is not None
    before = await write_tool.observe(arguments)
    assert before is not None
    foreseen = await write_tool.expect(arguments, before)
    await write_tool.run(arguments, CTX)
    return before, foreseen, await write_tool.observe(arguments)


@pytest.mark.parametrize("existing", [None, b"", b"first line\n"])
async def test_files_expect_what_an_append_and_a_write_leave(tmp_path: Path, existing: bytes | None) -> None:
    registry = SkillRegistry([WorkspaceFilesSkill(tmp_path)])
    for name, path in (("files_append", "a.md"), ("files_write", "b.md")):
        if existing is not None:
            (tmp_path / path).write_bytes(existing)
        before, foreseen, after = await expected_and_after(tool(registry, name), {"path": path, "text": "héllo\n"})
        assert foreseen == after != before, name
    assert (tmp_path / "a.md").read_bytes() == (existing or b"") + "héllo\n".encode()


async def test_an_empty_file_observes_as_absent(tmp_path: Path) -> None:
    """No file and an empty one hold the same text, and an append or a write leaves the same after either: a kill
    between creating a file and writing into it leaves the call unchanged-looking, so it runs (not a card)."""
    append = tool(SkillRegistry([WorkspaceFilesSkill(tmp_path)]), "files_append")
    assert append.observe is not None
    (tmp_path / "e.md").touch()
    assert await append.observe({"path": "e.md", "text": "x"}) == await append.observe({"path": "f.md", "text": "x"})


async def test_files_expect_nothing_for_a_stale_observation_or_a_refused_call(tmp_path: Path) -> None:
    append = tool(SkillRegistry([WorkspaceFilesSkill(tmp_path)]), "files_append")
    assert append.expect is not None
    (tmp_path / "a.md").write_text("now", encoding="utf-8")
    assert await append.expect({"path": "a.md", "text": "x"}, "absent") is None  # the file is not as observed
    assert await append.expect({"path": "../outside.md", "text": "x"}, "absent") is None
    assert await append.expect({"path": 5}, INVALID_CALL) is None
    (tmp_path / "d").mkdir()
    assert await append.expect({"path": "d", "text": "x"}, "in the way") is None


async def test_memory_and_tasks_expect_one_more(memories: MemoryStore) -> None:
    service = FakeTaskService()
    registry = SkillRegistry([MemorySkill(memories), SubconsciousTasksSkill(service.list_tasks, service.add_task)])
    for name, arguments in (("memory_add", {"text": "buy milk"}), ("subconscious_tasks_add", {"title": "Water"})):
        for _ in range(2):
            before, foreseen, after = await expected_and_after(tool(registry, name), arguments)
            assert foreseen == after != before, name
        add = tool(registry, name)
        assert add.expect is not None and await add.expect(arguments, "unobservable: down") is None


async def test_a_file_write_is_synced_before_it_returns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Durability at the physical floor: the data (and a new file's name in its folder) is on disk before the
    tool's result can be recorded, so a power cut cannot keep the record of a write and lose the write."""
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    registry = SkillRegistry([WorkspaceFilesSkill(tmp_path)])
    await tool(registry, "files_write").run({"path": "notes/new.md", "text": "x"}, CTX)
    assert synced == ["file", "folder"]
    synced.clear()
    await tool(registry, "files_append").run({"path": "notes/new.md", "text": "y"}, CTX)
    assert synced == ["file"]
