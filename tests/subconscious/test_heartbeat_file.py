"""HEARTBEAT.md: which lines are tasks, and how a sync brings the database in line with the file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openhuman_desktop import events
from openhuman_desktop.config import Settings
from openhuman_desktop.errors import Conflict
from openhuman_desktop.store import SubconsciousStore, Task
from openhuman_desktop.store.events import TaskChanged, TaskRemoved
from openhuman_desktop.subconscious import heartbeat_file
from openhuman_desktop.subconscious.defaults import DEFAULT_TASKS
from openhuman_desktop.subconscious.intent import KeywordIntentClassifier
from openhuman_desktop.subconscious.service import SubconsciousService
from openhuman_desktop.workspace import default_heartbeat_text
from tests.fakes.clock import FakeClock

parse = heartbeat_file.parse


# --- parse ---------------------------------------------------------------------------------------


def test_plain_list_lines_are_tasks() -> None:
    assert parse("- Check mail\n- Water the plants\n") == ["Check mail", "Water the plants"]


def test_leading_spaces_and_tabs_are_allowed() -> None:
    assert parse("  - Indented\n    - Nested deeper\n\t- Tabbed\n") == ["Indented", "Nested deeper", "Tabbed"]


def test_title_is_trimmed() -> None:
    assert parse("-    Spaced out   \n") == ["Spaced out"]


@pytest.mark.parametrize(
    "line",
    ["-No space", "-", "--- ", "* Star item", "+ Plus item", "1. Numbered", "# - Heading", "> - Quoted",
     "Prose mentioning - a dash", "text", "", "   ", "—- em dash"],
)
def test_lines_that_are_not_tasks(line: str) -> None:
    assert parse(line + "\n") == []


@pytest.mark.parametrize("line", ["- ", "-   ", "  -  \t"])
def test_empty_titles_are_skipped(line: str) -> None:
    assert parse(f"{line}\n- Real\n") == ["Real"]


@pytest.mark.parametrize("rule", ["- - -", "  - - - -", "-  -  -"])
def test_a_thematic_break_is_not_a_task(rule: str) -> None:
    assert parse(f"- Before\n\n{rule}\n\n- After\n") == ["Before", "After"]


def test_headings_prose_and_blank_lines_are_ignored() -> None:
    text = "# My tasks\n\nSome words about them.\n\n## Daily\n- Daily review\n\nMore prose.\n- Weekly report\n"
    assert parse(text) == ["Daily review", "Weekly report"]


def test_duplicates_count_once_in_first_order() -> None:
    assert parse("- A\n- B\n- A\n  - B\n- C\n") == ["A", "B", "C"]


def test_single_line_comments_are_ignored() -> None:
    assert parse("<!-- - Hidden -->\n- Shown\n") == ["Shown"]


def test_multi_line_comments_are_ignored() -> None:
    text = "- One\n<!--\n- Hidden\n  - Also hidden\n-->\n- Two\n"
    assert parse(text) == ["One", "Two"]


def test_comment_mid_line_is_cut_out() -> None:
    assert parse("- Check mail <!-- every morning -->\n") == ["Check mail"]
    assert parse("- Check <!-- x --> mail\n") == ["Check  mail"]


def test_comment_opening_mid_line_hides_the_following_lines() -> None:
    text = "- Visible <!-- starts here\n- Hidden\n--> - After the comment\n- Last\n"
    assert parse(text) == ["Visible", "After the comment", "Last"]


def test_comment_that_is_only_a_comment_leaves_nothing() -> None:
    assert parse("<!-- - A --><!-- - B -->\n") == []


def test_unclosed_comment_hides_the_rest() -> None:
    assert parse("- Before\n<!--\n- Never\n") == ["Before"]


@pytest.mark.parametrize("fence", ["```", "~~~", "````", "```python", "~~~ text"])
def test_fenced_code_blocks_are_ignored(fence: str) -> None:
    closing = fence.split()[0].rstrip("python")
    text = f"- Before\n{fence}\n- Inside\n{closing}\n- After\n"
    assert parse(text) == ["Before", "After"]


def test_a_longer_fence_is_only_closed_by_a_fence_at_least_as_long() -> None:
    text = "````\n- Inside\n```\n- Still inside\n````\n- After\n"
    assert parse(text) == ["After"]


def test_a_fence_is_only_closed_by_the_same_character() -> None:
    text = "```\n- Inside\n~~~\n- Still inside\n```\n- After\n"
    assert parse(text) == ["After"]


def test_a_fence_line_with_an_info_string_does_not_close() -> None:
    text = "```\n- Inside\n```python\n- Still inside\n```\n- After\n"
    assert parse(text) == ["After"]


def test_indented_fence_works() -> None:
    assert parse("  ```\n  - Code\n  ```\n- Task\n") == ["Task"]


def test_comment_markers_inside_a_fence_do_not_open_a_comment() -> None:
    text = "```\n<!--\n```\n- Visible\n"
    assert parse(text) == ["Visible"]


def test_fence_markers_inside_a_comment_do_not_open_a_fence() -> None:
    text = "<!--\n```\n-->\n- Visible\n"
    assert parse(text) == ["Visible"]


def test_crlf_line_endings() -> None:
    assert parse("# Tasks\r\n- One\r\n<!--\r\n- Hidden\r\n-->\r\n```\r\n- Code\r\n```\r\n- Two\r\n") == ["One", "Two"]


def test_old_mac_line_endings() -> None:
    assert parse("- One\r- Two\r") == ["One", "Two"]


@pytest.mark.logs_expected(r"task lines longer than")
def test_very_long_titles_are_skipped() -> None:
    assert parse("- " + "x" * 501 + "\n- Short\n") == ["Short"]
    assert parse("- " + "y" * 500 + "\n") == ["y" * 500]


def test_the_packaged_default_lists_no_tasks() -> None:
    text = default_heartbeat_text()
    assert "- " in text  # it shows an example …
    assert parse(text) == []  # … inside a comment


def test_read_missing_file_is_none(tmp_path: Path) -> None:
    assert heartbeat_file.read(tmp_path / "HEARTBEAT.md") is None


def test_read_tolerates_bad_bytes(tmp_path: Path) -> None:
    path = tmp_path / "HEARTBEAT.md"
    path.write_bytes(b"- caf\xe9\n- ok\n")
    text = heartbeat_file.read(path)
    assert text is not None and parse(text) == ["caf\ufffd", "ok"]


def test_plan_keeps_unchanged_and_removes_leftover_duplicates() -> None:
    plan = heartbeat_file.plan(["A", "B"], [("1", "A"), ("2", "C"), ("3", "A")])
    assert plan.add == ("B",)
    assert plan.remove == ("2", "3")
    assert not plan.is_empty
    assert heartbeat_file.plan(["A"], [("1", "A")]).is_empty


# --- sync through the service, with a real store --------------------------------------------------


class Recorder:
    """Collects TaskChanged / TaskRemoved events."""

    def __init__(self, bus: events.EventBus) -> None:
        self.changed: list[Task] = []
        self.removed: list[str] = []
        bus.subscribe(TaskChanged, lambda event: self.changed.append(event.task))
        bus.subscribe(TaskRemoved, lambda event: self.removed.append(event.task_id))


@pytest.fixture
def heartbeat_path(tmp_path: Path) -> Path:
    return tmp_path / "HEARTBEAT.md"


@pytest.fixture
def bus() -> events.EventBus:
    return events.EventBus()


@pytest.fixture
async def service(
    store: SubconsciousStore, clock: FakeClock, bus: events.EventBus, heartbeat_path: Path
) -> AsyncIterator[SubconsciousService]:
    settings = Settings()
    yield SubconsciousService(store, clock, bus, lambda: settings, heartbeat_path, KeywordIntentClassifier())


async def file_tasks(service: SubconsciousService) -> dict[str, Task]:
    return {task.title: task for task in await service.tasks_list() if task.origin == "heartbeat_md"}


async def test_sync_adds_new_lines_as_system_tasks(service: SubconsciousService, heartbeat_path: Path,
                                                   bus: events.EventBus) -> None:
    recorder = Recorder(bus)
    heartbeat_path.write_text("# Mine\n- Check the backups\n- Send the weekly report\n", encoding="utf-8")
    plan = await service.sync_heartbeat_file()
    assert plan.add == ("Check the backups", "Send the weekly report")
    tasks = await file_tasks(service)
    assert set(tasks) == {"Check the backups", "Send the weekly report"}
    for task in tasks.values():
        assert task.source == "system" and task.is_system
        assert task.recurrence == "pending" and task.enabled and not task.completed
    assert tasks["Check the backups"].intent == "read"
    assert tasks["Send the weekly report"].intent == "write"
    assert sorted(task.title for task in recorder.changed) == sorted(tasks)
    assert recorder.removed == []


async def test_sync_without_changes_does_nothing(service: SubconsciousService, heartbeat_path: Path,
                                                 bus: events.EventBus) -> None:
    heartbeat_path.write_text("- One\n", encoding="utf-8")
    await service.sync_heartbeat_file()
    recorder = Recorder(bus)
    plan = await service.sync_heartbeat_file()
    assert plan.is_empty
    assert recorder.changed == [] and recorder.removed == []


async def test_unchanged_line_keeps_id_schedule_and_enabled_flag(
    service: SubconsciousService, heartbeat_path: Path
) -> None:
    heartbeat_path.write_text("- Keep me\n- Change me\n", encoding="utf-8")
    await service.sync_heartbeat_file()
    kept = (await file_tasks(service))["Keep me"]
    await service.tasks_update(kept.id, enabled=False, recurrence_text="cron:0 9 * * *")

    heartbeat_path.write_text("- Keep me\n- Changed\n", encoding="utf-8")
    await service.sync_heartbeat_file()
    tasks = await file_tasks(service)
    assert set(tasks) == {"Keep me", "Changed"}
    after = tasks["Keep me"]
    assert after.id == kept.id
    assert after.enabled is False
    assert after.recurrence == "cron:0 9 * * *" and after.next_run_at is not None


async def test_editing_a_line_removes_the_old_task_and_adds_a_new_one(
    service: SubconsciousService, heartbeat_path: Path, bus: events.EventBus
) -> None:
    heartbeat_path.write_text("- Old wording\n", encoding="utf-8")
    await service.sync_heartbeat_file()
    old = (await file_tasks(service))["Old wording"]
    recorder = Recorder(bus)
    heartbeat_path.write_text("- New wording\n", encoding="utf-8")
    plan = await service.sync_heartbeat_file()
    assert plan.add == ("New wording",) and plan.remove == (old.id,)
    tasks = await file_tasks(service)
    assert list(tasks) == ["New wording"]
    assert tasks["New wording"].id != old.id
    assert recorder.removed == [old.id]
    assert [task.title for task in recorder.changed] == ["New wording"]


async def test_removing_a_line_removes_its_task(service: SubconsciousService, heartbeat_path: Path) -> None:
    heartbeat_path.write_text("- A\n- B\n- C\n", encoding="utf-8")
    await service.sync_heartbeat_file()
    ids = {title: task.id for title, task in (await file_tasks(service)).items()}
    heartbeat_path.write_text("- A\n- C\n", encoding="utf-8")
    await service.sync_heartbeat_file()
    tasks = await file_tasks(service)
    assert set(tasks) == {"A", "C"}
    assert {title: task.id for title, task in tasks.items()} == {"A": ids["A"], "C": ids["C"]}


async def test_duplicate_lines_make_one_task(service: SubconsciousService, heartbeat_path: Path) -> None:
    heartbeat_path.write_text("- Same\n- Same\n  - Same\n", encoding="utf-8")
    await service.sync_heartbeat_file()
    assert [task.title for task in await service.tasks_list() if task.origin == "heartbeat_md"] == ["Same"]


async def test_deleted_file_removes_only_file_tasks(
    service: SubconsciousService, heartbeat_path: Path
) -> None:
    await service.seed_defaults()
    user = await service.tasks_add("My own task")
    heartbeat_path.write_text("- From the file\n- " + DEFAULT_TASKS[0][1] + "\n- My own task\n", encoding="utf-8")
    await service.sync_heartbeat_file()
    assert len(await file_tasks(service)) == 3

    heartbeat_path.unlink()
    await service.sync_heartbeat_file()
    remaining = await service.tasks_list()
    assert await file_tasks(service) == {}
    assert sorted(task.title for task in remaining if task.origin == "default") == sorted(
        title for _, title, _ in DEFAULT_TASKS
    )
    assert [task.id for task in remaining if task.source == "user"] == [user.id]


async def test_empty_file_removes_file_tasks_but_not_defaults(
    service: SubconsciousService, heartbeat_path: Path
) -> None:
    await service.seed_defaults()
    heartbeat_path.write_text("- X\n", encoding="utf-8")
    await service.sync_heartbeat_file()
    heartbeat_path.write_text("", encoding="utf-8")
    await service.sync_heartbeat_file()
    assert await file_tasks(service) == {}
    assert len(await service.tasks_list()) == len(DEFAULT_TASKS)


async def test_file_tasks_can_be_disabled_but_not_removed_or_renamed(
    service: SubconsciousService, heartbeat_path: Path
) -> None:
    heartbeat_path.write_text("- From the file\n", encoding="utf-8")
    await service.sync_heartbeat_file()
    task = (await file_tasks(service))["From the file"]
    with pytest.raises(Conflict, match="HEARTBEAT.md"):
        await service.tasks_update(task.id, title="Renamed")
    with pytest.raises(Conflict):
        await service.tasks_remove(task.id)
    same = await service.tasks_update(task.id, title="  From   the file ")  # same title after cleaning
    assert same.title == "From the file"
    disabled = await service.tasks_update(task.id, enabled=False)
    assert disabled.enabled is False
    assert (await file_tasks(service))["From the file"].title == "From the file"


async def test_concurrent_syncs_do_not_duplicate(service: SubconsciousService, heartbeat_path: Path) -> None:
    """The file watcher and a tick may sync at the same moment: each line still gives one task."""
    heartbeat_path.write_text("- One\n- Two\n", encoding="utf-8")
    await asyncio.gather(*(service.sync_heartbeat_file() for _ in range(4)))
    titles = sorted(task.title for task in await service.tasks_list() if task.origin == "heartbeat_md")
    assert titles == ["One", "Two"]


async def test_sync_runs_every_time_the_file_changes(service: SubconsciousService, heartbeat_path: Path) -> None:
    for round_number in range(3):
        heartbeat_path.write_text(f"- Round {round_number}\n- Stable\n", encoding="utf-8")
        await service.sync_heartbeat_file()
        assert set(await file_tasks(service)) == {f"Round {round_number}", "Stable"}
