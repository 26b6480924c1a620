"""The Skills tab (health, tools, which write, settings) and the Memory tab (browse, search, add)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtCore import QModelIndex, Qt

from openhuman_desktop.errors import StoreUnavailable
from openhuman_desktop.memory.events import MemoryRemoved
from openhuman_desktop.memory.store import Memory
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.memory.model import MemoryModel
from openhuman_desktop.qt.intelligence.memory.tab import MemoryView, parse_tags
from openhuman_desktop.qt.intelligence.skills.tab import SkillsView
from openhuman_desktop.skills.base import SkillHealth, SkillRegistry, ToolContext


@pytest.fixture
def jobs(qrun: Any) -> Any:
    owner = Jobs()
    yield owner
    qrun(owner.aclose())


# --- Skills -------------------------------------------------------------------------------------------


def test_every_skill_is_listed_with_its_health(fake_window: IntelligenceWindow, settle: Any) -> None:
    view = fake_window.skills_view
    fake_window.show_tab("skills")
    settle(fake_window)
    names = [view.skills_list.item(r).text() for r in range(view.skills_list.count())]
    assert names == ["Workspace files", "Gmail", "Desktop notifications"]
    assert view.summary_label.text() == "3 installed · 1 need attention"
    gmail = view.skills_list.item(1)
    assert gmail.data(Qt.ItemDataRole.AccessibleTextRole) == "Gmail: error"
    assert not gmail.icon().isNull()


def test_a_skill_page_shows_what_it_can_do_and_which_tools_write(fake_window: IntelligenceWindow) -> None:
    view = fake_window.skills_view
    assert view.select_skill("files")
    detail = view.detail
    assert detail.title_label.text() == "Workspace files"
    assert detail.health_label.text() == "Connected — ok"
    assert detail.health_dot.accent_name == "green"
    rows = {row.name_label.text(): row.badge.text() for row in detail.tool_rows}
    assert rows == {"files_read": "read only", "files_write": "writes"}
    assert [row.description_label.text() for row in detail.tool_rows] == ["Read a file.", "Write a file."]
    assert [field.text() for field in detail.setting_fields] == ["/tmp/workspace"]
    assert detail.setting_fields[0].isReadOnly()
    assert detail.no_settings_label.isHidden()


def test_a_broken_skill_says_what_is_wrong(fake_window: IntelligenceWindow) -> None:
    view = fake_window.skills_view
    view.select_skill("gmail")
    assert view.detail.health_label.text() == "Error — OAuth token expired; sign in again"
    assert view.detail.health_dot.accent_name == "coral"
    assert not view.detail.no_settings_label.isHidden()


def test_check_again_rereads_health(fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any,
                                    settle: Any) -> None:
    view = fake_window.skills_view
    view.select_skill("gmail")
    fake_services.skills.get("gmail").status = SkillHealth("connected", "Signed in as me@example.com")
    qtbot.mouseClick(view.check_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert view.detail.health_label.text() == "Connected — Signed in as me@example.com"
    assert view.summary_label.text() == "3 installed · all connected"


def test_no_skills(qtbot: Any, qrun: Any, jobs: Jobs) -> None:
    view = SkillsView(SkillRegistry(), jobs)
    qtbot.addWidget(view)
    qrun(view.refresh())
    assert view.empty_label.isVisibleTo(view)
    assert view.splitter.isHidden()


def test_the_real_skills(intelligence_window: IntelligenceWindow) -> None:
    view = intelligence_window.skills_view
    assert view.select_skill("files")
    writes = {row.name_label.text() for row in view.detail.tool_rows if row.badge.text() == "writes"}
    assert writes == {"files_write", "files_append"}
    assert view.detail.health_label.text().startswith("Connected")


# --- Memory -------------------------------------------------------------------------------------------


def memory_view(window: IntelligenceWindow) -> MemoryView:
    return window.memory_view


def test_adding_a_memory_by_hand(
    intelligence_window: IntelligenceWindow, gui_services: Any, qtbot: Any, settle: Any, qrun: Any
) -> None:
    view = memory_view(intelligence_window)
    intelligence_window.show_tab("memory")
    settle(intelligence_window)
    assert view.empty_label.isVisibleTo(view)
    assert not view.add_button.isEnabled()
    qtbot.keyClicks(view.text_edit, "My dentist is Dr. Lee.")
    qtbot.keyClicks(view.tags_edit, "health, people")
    assert view.add_button.isEnabled()
    qtbot.mouseClick(view.add_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    assert view.model.rowCount() == 1
    memory = view.model.memory(0)
    assert (memory.text, memory.source, memory.tags) == ("My dentist is Dr. Lee.", "user", ("health", "people"))
    assert view.text_edit.toPlainText() == "" and view.tags_edit.text() == ""
    assert view.count_label.text() == "1 memory"
    assert [m.text for m in qrun(gui_services.memory.list(10))] == ["My dentist is Dr. Lee."]
    assert not view.empty_label.isVisibleTo(view)


async def rpc_call(rpc_file: Path, method: str, params: dict[str, Any]) -> Any:
    """One call to the running app's RPC server, as another program would make it."""
    server = json.loads(rpc_file.read_text(encoding="utf-8"))
    async with httpx.AsyncClient(headers={"Authorization": f"Bearer {server['token']}"}) as client:
        response = await client.post(server["url"], json={"jsonrpc": "2.0", "id": 1, "method": f"openhuman.{method}",
                                                          "params": params})
    answer = response.json()
    assert "error" not in answer, answer
    return answer["result"]


def test_a_memory_stored_by_the_assistant_shows_up_and_a_removed_one_goes(
    intelligence_window: IntelligenceWindow, gui_services: Any, qrun: Any, settle: Any, until: Any
) -> None:
    view = memory_view(intelligence_window)
    intelligence_window.show_tab("memory")
    qrun(view.refresh())
    skill = gui_services.skills.get("memory")
    tool = next(tool for tool in skill.tools() if tool.name == "memory_add")
    qrun(tool.run({"text": "The boiler was serviced in March."}, ToolContext(writes_allowed=True)))
    until(lambda: view.model.rowCount() == 1 and view.count_label.text() == "1 memory")
    memory = view.model.memory(0)
    assert (memory.text, memory.source) == ("The boiler was serviced in March.", "assistant")
    qrun(rpc_call(gui_services.paths.rpc_file, "memory_remove", {"memory_id": memory.id}))
    until(lambda: view.model.rowCount() == 0 and view.count_label.text() == "0 memories")
    assert view.empty_label.isVisibleTo(view)


def test_blank_memories_cannot_be_added(fake_window: IntelligenceWindow, fake_services: Any, qrun: Any) -> None:
    view = memory_view(fake_window)
    view.text_edit.setPlainText("   \n ")
    assert not view.add_button.isEnabled()
    assert qrun(view.add_memory()) is None
    assert view.add_error.text() == "Type what the assistant should remember first."
    assert fake_services.memory.memories == []


def test_an_add_error_keeps_the_text(fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any,
                                     settle: Any) -> None:
    view = memory_view(fake_window)
    fake_services.memory.fail["add"] = StoreUnavailable("The disk is full.")
    qtbot.keyClicks(view.text_edit, "Remember this")
    qtbot.mouseClick(view.add_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert view.add_error.text() == "The disk is full."
    assert view.text_edit.toPlainText() == "Remember this"
    assert view.add_button.isEnabled()


def test_a_bad_tag_is_explained(fake_window: IntelligenceWindow, qtbot: Any, settle: Any) -> None:
    view = memory_view(fake_window)
    fake_window.memory_view._memory = _RealRules(fake_window.memory_view._memory)
    qtbot.keyClicks(view.text_edit, "Something")
    qtbot.keyClicks(view.tags_edit, "x" * 60)
    qtbot.mouseClick(view.add_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert "tags" in view.add_error.text()
    assert view.text_edit.toPlainText() == "Something"


class _RealRules:
    """Wraps the fake memory so ``add`` validates tags like the real store."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    async def add(self, text: object, source: str = "user", tags: Any = ()) -> Memory:
        from openhuman_desktop.memory.store import clean_tags

        clean_tags(tags)
        return await self._inner.add(text, source, tags)


def test_searching_memories(
    intelligence_window: IntelligenceWindow, gui_services: Any, qtbot: Any, qrun: Any, until: Any
) -> None:
    for text in ("My dentist is Dr. Lee.", "The standup is at 9:30.", "Dr. Lee moved to Main Street."):
        qrun(gui_services.memory.add(text))
    view = memory_view(intelligence_window)
    qrun(view.refresh())
    assert view.model.rowCount() == 3
    qtbot.keyClicks(view.search_edit, "Lee")
    until(lambda: view.model.query == "Lee" and view.model.rowCount() == 2)
    assert {view.model.memory(r).text for r in range(2)} == {"My dentist is Dr. Lee.", "Dr. Lee moved to Main Street."}
    view.search_edit.setText("nothing matches this")
    until(lambda: view.model.query == "nothing matches this")
    assert view.empty_label.isVisibleTo(view)
    assert view.empty_label.text() == "Nothing matches “nothing matches this”."
    view.search_edit.clear()
    until(lambda: view.model.query == "" and view.model.rowCount() == 3)


def test_memory_model_pages_and_passes_the_model_tester(
    qtmodeltester: Any, qrun: Any, jobs: Jobs, fakes: Any
) -> None:
    store = fakes.FakeMemory([Memory(f"m{n:03d}", f"Memory number {n}", "user", 1000.0 + n) for n in range(25)])
    model = MemoryModel(store, jobs, now=lambda: 2000.0, page_size=10)
    qtmodeltester.check(model)
    qrun(model.load())
    assert model.rowCount() >= 10, "the first page (the tester may already have asked for the next)"
    qtmodeltester.check(model)
    qrun(jobs.wait_idle())
    while model.canFetchMore(QModelIndex()):
        qrun(model.load_more())
    assert model.rowCount() == 25
    assert len({model.memory(r).id for r in range(25)}) == 25
    model.prepend(Memory("new", "Fresh", "user", 3000.0))
    qtmodeltester.check(model)
    assert model.memory(0).id == "new"
    assert model.data(model.index(0, 0)) == "Fresh"


def test_memory_load_error(fake_window: IntelligenceWindow, fake_services: Any, qrun: Any) -> None:
    fake_services.memory.fail["list"] = StoreUnavailable("The memory database is damaged.")
    qrun(memory_view(fake_window).refresh())
    assert memory_view(fake_window).error_label.text() == (
        "Could not load the memories: The memory database is damaged.")


def test_parse_tags() -> None:
    assert parse_tags("work, family ,, ") == ["work", "family"]
    assert parse_tags("") == []


@pytest.mark.qt_log_ignore(r"This plugin does not support (raise\(\)|grabbing the keyboard)")
def test_deleting_a_memory_in_the_tab_and_undo(
    intelligence_window: IntelligenceWindow, gui_services: Any, qrun: Any, qtbot: Any, settle: Any
) -> None:
    view = memory_view(intelligence_window)
    intelligence_window.show_tab("memory")
    first = qrun(gui_services.memory.add("My dentist is Dr. Lee.", source="user", tags=["health"]))
    second = qrun(gui_services.memory.add("The boiler was serviced in March.", source="assistant"))
    qrun(view.refresh())
    removed: list[str] = []
    gui_services.bus.subscribe(MemoryRemoved, lambda e: removed.append(e.memory_id))
    assert not view.delete_button.isEnabled(), "nothing selected: nothing to delete"
    view.list_view.setCurrentIndex(view.model.index(view.model.row_of(second.id), 0))
    assert view.delete_button.isEnabled()
    qtbot.mouseClick(view.delete_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    assert [m.id for m in qrun(gui_services.memory.list(10))] == [first.id], "removed from the store"
    assert removed == [second.id], "MemoryRemoved was published (as memory_remove over RPC does)"
    assert [view.model.memory(r).id for r in range(view.model.rowCount())] == [first.id]
    assert view.count_label.text() == "1 memory"
    assert view.undo_bar.isVisibleTo(view)
    assert "boiler" in view.undo_bar.label.text()
    qtbot.mouseClick(view.undo_bar.undo_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    restored = [m for m in qrun(gui_services.memory.list(10)) if m.id != first.id]
    assert [(m.text, m.source) for m in restored] == [("The boiler was serviced in March.", "assistant")]
    assert view.model.rowCount() == 2 and not view.undo_bar.isVisibleTo(view)
    # The Delete key on the list, and the row's context menu, do the same.
    view.list_view.setCurrentIndex(view.model.index(view.model.row_of(first.id), 0))
    view.list_view.setFocus()
    qtbot.keyClick(view.list_view, Qt.Key.Key_Delete)
    settle(intelligence_window)
    assert first.id not in [m.id for m in qrun(gui_services.memory.list(10))]
    assert view.model.row_of(first.id) is None
