"""The Agent tab's Runs page on the real agent and ledger (fake model servers on 127.0.0.1): a run shows up
live, its node timeline, tools, tokens and compression ratio, a failed run's error, paging, keyboard."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import Qt

from openhuman_desktop.orchestration.ports import Run, RunRequest
from openhuman_desktop.orchestration.steering import HistoryRecord
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.agent.run_detail import tokens_text
from openhuman_desktop.qt.intelligence.agent.runs import RunListModel, run_meta, run_title
from openhuman_desktop.qt.intelligence.agent.tab import AgentView
from openhuman_desktop.qt.intelligence.window import TAB_NAMES
from tests.fakes.agent_model import AgentModel, AgentScript, call, say
from tests.fakes.engine_harness import Harness

NODES = ["channel_ingestion", "frontend_agent", "agent_execution", "frontend_agent", "context_manager_hook"]


@pytest.fixture
def agent_model(gui_harness: Harness) -> AgentModel:
    """Both tiers answered by the scripted agent model: one sub-task that reads a file, then answers."""
    script = AgentScript(subtasks=(("Read the notes", "Read notes.md."),),
                         steps={"Read the notes": [call("files_read", path="notes.md"), say("Water on Sunday.")]},
                         reply="The garden needs water on Sunday.", answer="Water the garden on Sunday.")
    model = AgentModel(script)
    assert gui_harness.ollama is not None and gui_harness.openai is not None
    gui_harness.ollama.set_responder(model)
    gui_harness.openai.set_responder(model)
    (gui_harness.services.paths.workspace / "notes.md").write_text("Water the garden on Sunday.\n", encoding="utf-8")
    return model


@pytest.fixture
def agent_window(agent_model: AgentModel, intelligence_window: IntelligenceWindow, settle: Any) -> IntelligenceWindow:
    intelligence_window.show_tab("agent")
    settle(intelligence_window)   # shown for the first time: the tab reads its pages
    return intelligence_window


def view_of(window: IntelligenceWindow) -> AgentView:
    return window.agent_view


def test_the_agent_tab_comes_after_chat_with_its_shortcut(fake_window: IntelligenceWindow, qtbot: Any) -> None:
    tabs = [fake_window.tabs.tabText(i) for i in range(fake_window.tabs.count())]
    assert tabs[-2:] == ["Chat", "Agent"] and TAB_NAMES[-1] == "agent"
    assert fake_window.tabs.tabToolTip(4) == "Agent (Ctrl+5)"
    qtbot.keyClick(fake_window, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    assert fake_window.current_tab == "agent"
    view = view_of(fake_window)
    assert view.runs_empty.isVisible() and "ledger" in view.runs_empty.text()   # a window without the agent
    assert not view.steering_view.reflect_button.isEnabled()


def test_a_run_appears_live_and_ends_with_its_steps_tools_tokens_and_ratio(
        agent_window: IntelligenceWindow, gui_services: Any, qrun: Any, until: Any) -> None:
    view = view_of(agent_window)
    seen_nodes: list[str] = []
    view.runs.dataChanged.connect(lambda *_: seen_nodes.append(str(view.runs.node_of(run.id) or "")))
    run = qrun(gui_services.agent.send("What do my notes say?", "cli"))
    until(lambda: view.runs.row_of(run.id) == 0, message="the run is listed on top")
    until(lambda: view.detail.run is not None and view.detail.run.id == run.id and view.detail.run.is_finished
          and len(view.detail.step_rows()) == len(NODES) and view.detail.records,
          message="the run finished and its details are shown")
    assert [node for _step, node, _changed in view.detail.step_rows()] == NODES
    assert [int(step) for step, _node, _changed in view.detail.step_rows()] == [1, 2, 3, 4, 5]
    changed = dict((node, keys) for _step, node, keys in view.detail.step_rows())
    assert "compressed_history" in changed["agent_execution"]
    assert view.detail.status_label.text() == "Completed"
    assert "files_read" in view.detail.tools_label.text()
    record = view.detail.records[-1]
    assert record.run_id == run.id and record.trace_tokens and record.summary_tokens
    ratio = record.trace_tokens / record.summary_tokens
    assert view.detail.tokens_label.text() == (f"Trace {record.trace_tokens:,} tokens → summary "
                                               f"{record.summary_tokens:,} tokens ({ratio:.1f} : 1)")
    assert not view.detail.error_label.isVisible()
    # While it ran, the row named the node it was at (NodeFinished through the bridge).
    assert "agent_execution" in seen_nodes
    assert view.runs.node_of(run.id) is None   # finished: the row says how it ended instead
    assert "completed in" in run_meta(view.runs.run(0), None, gui_services.clock.now())


@pytest.mark.logs_expected(
    r"model local failed a call: Ollama at",
    r"in config\.toml and that its server is running",
    r"model reasoning failed a call",
)
def test_a_failed_run_shows_its_error(agent_window: IntelligenceWindow, agent_model: AgentModel, gui_services: Any,
                                      qrun: Any, until: Any) -> None:
    agent_model.script.fail = {"plan", "reply", "pass1", "pass2", "subagent"}
    run = qrun(gui_services.agent.send("This one cannot work", "cli"))
    view = view_of(agent_window)
    until(lambda: view.detail.run is not None and view.detail.run.id == run.id and view.detail.run.is_finished)
    final = view.detail.run
    assert final is not None and final.status == "failed" and final.error
    assert view.detail.status_label.text() == "Failed"
    assert view.detail.error_label.isVisible() and view.detail.error_label.text() == final.error


def test_runs_page_newest_first_and_load_older_pages(intelligence_window: IntelligenceWindow, gui_services: Any,
                                                     qrun: Any, until: Any, settle: Any, qtmodeltester: Any) -> None:
    ledger = gui_services.ledger
    made = [qrun(ledger.create_run(RunRequest("cli", "cli", f"message {n}"))) for n in range(23)]
    view = view_of(intelligence_window)
    view.runs.page_size = 10
    intelligence_window.show_tab("agent")
    qrun(view.runs.load())
    assert [r.input for r in view.runs.rows()] == [f"message {n}" for n in range(22, 12, -1)]
    view.runs_view.scrollToBottom()
    view.runs.fetchMore(view.runs.index(0).parent())
    until(lambda: view.runs.rowCount() == 20)
    view.runs.fetchMore(view.runs.index(0).parent())
    until(lambda: view.runs.rowCount() == 23)
    assert [r.id for r in view.runs.rows()] == [r.id for r in reversed(made)]
    assert not view.runs.canFetchMore(view.runs.index(0).parent())
    settle(intelligence_window)
    qtmodeltester.check(view.runs)


def test_ledger_runs_page_pages_by_run_id(gui_services: Any, qrun: Any) -> None:
    ledger = gui_services.ledger
    made = [qrun(ledger.create_run(RunRequest("t", "cli", str(n)))) for n in range(5)]
    first = qrun(ledger.runs_page(2))
    assert [r.input for r in first] == ["4", "3"]
    assert [r.input for r in qrun(ledger.runs_page(2, first[-1].id))] == ["2", "1"]
    assert [r.input for r in qrun(ledger.runs_page(10, made[0].id))] == []
    assert qrun(ledger.runs_page(10, "no-such-run")) == []


def test_picking_a_run_with_the_keyboard_shows_it(agent_window: IntelligenceWindow, gui_services: Any, qrun: Any,
                                                  until: Any, qtbot: Any) -> None:
    ledger = gui_services.ledger
    for n in range(3):
        qrun(ledger.create_run(RunRequest("cli", "cli", f"message {n}")))
    view = view_of(agent_window)
    qrun(view.runs.load())
    view.runs_view.setFocus()
    until(lambda: view.detail.run is not None and view.detail.input_label.text() == "message 2")
    qtbot.keyClick(view.runs_view, Qt.Key.Key_Down)
    until(lambda: view.detail.input_label.text() == "message 1")
    assert view.detail.status_label.text() == "Waiting"


def test_run_events_do_not_wait_for_the_ledger(qapp: Any, qrun: Any) -> None:
    """The live list changes in the slot itself; reads of the details go to the loop (a gated ledger)."""
    gate = asyncio.Event()
    reads: list[str] = []

    class GatedLedger:
        async def runs_page(self, limit: int = 50, before: str | None = None) -> list[Run]:
            return []

        async def get_run(self, run_id: str) -> Run | None:
            reads.append("get_run")
            await gate.wait()
            return None

        async def run_checkpoints(self, thread_id: str, run_id: str, limit: int = 500) -> list[Any]:
            return []

        async def run_history(self, run_id: str, limit: int = 20) -> list[HistoryRecord]:
            return []

        async def timeline_page(self, before: int | None = None, limit: int = 100,
                                kind: str | None = None) -> list[Any]:
            return []

        async def timeline(self, after: int = 0, limit: int = 100) -> list[Any]:
            return []

        async def reflections(self, limit: int = 20) -> list[Any]:
            return []

    from openhuman_desktop.qt.asyncutil import Jobs

    jobs = Jobs()
    view = AgentView(GatedLedger(), None, None, jobs, lambda: 1000.0)
    try:
        qrun(view.refresh())
        run = Run("r1", "cli", "cli", "running", "hi", 999.0)

        async def drive() -> None:
            view.on_run_started(run)                 # returns at once: the row is there
            assert view.runs.row_of("r1") == 0
            view.on_node_finished("r1", "agent_execution", 3)
            assert view.runs.node_of("r1") == "agent_execution"
            for _ in range(5):
                await asyncio.sleep(0)
            assert reads and not gate.is_set()       # a read is waiting on the loop, the GUI is not
            gate.set()
            await jobs.wait_idle()

        qrun(drive())
    finally:
        qrun(jobs.aclose())
        view.deleteLater()


def test_tokens_text_says_what_is_known() -> None:
    run = Run("r", "cli", "cli", "completed", "hi", 1.0, finished_at=2.0)
    assert tokens_text([], run) == "No execution trace was compressed"
    live = Run("r", "cli", "cli", "running", "hi", 1.0)
    assert tokens_text([], live) == "Not compressed yet"
    records = [HistoryRecord(1, "r", "cli", "x", 2000, 100, 1.0), HistoryRecord(2, "r", "cli", "y", 400, 20, 1.0)]
    assert tokens_text(records, run) == "Trace 2,400 tokens → summary 120 tokens (20.0 : 1)"


def test_an_approved_run_is_titled_by_what_the_person_approved_not_by_its_instruction() -> None:
    # Issue 25: "The user approved the action below, which you recommended…" is the model's instruction.
    instruction = ("The user approved the action below, which you recommended in this conversation: carry out "
                   "exactly this action with the tools.\n\nApproved action: Archive the advised report")
    run = Run("r", "desktop", "desktop", "completed", instruction, 1.0, title="Approved: Archive the advised report")
    assert run_title(run) == "Approved: Archive the advised report"
    assert run.to_json()["title"] == "Approved: Archive the advised report" and run.to_json()["input"] == instruction
    assert run_title(Run("r", "cli", "cli", "completed", "What is  new?", 1.0)) == "What is new?"


def test_row_meta_names_the_live_node() -> None:
    run = Run("r", "telegram:7", "telegram", "running", "hi", 1_790_000_000.0)
    assert run_meta(run, "agent_execution", 1_790_000_010.0).endswith("running, past reasoning and tools")
    assert RunListModel.RunRole != RunListModel.NodeRole


def test_a_live_run_says_where_it_is_and_ticks(agent_window: IntelligenceWindow, agent_model: AgentModel,
                                              gui_services: Any, qrun: Any, until: Any) -> None:
    """Held in its reasoning step (the reply request is answered late), the run shows the node it is at;
    cancelled, it says so."""
    agent_model.delays = {"reply": 20.0}
    run = qrun(gui_services.agent.send("Take your time", "cli"))
    view = view_of(agent_window)
    until(lambda: view.detail.run is not None and view.detail.run.id == run.id
          and view.detail.status_label.text() == "Running: reasoning and tools", message="the live node")
    assert [node for _step, node, _changed in view.detail.step_rows()] == NODES[:2]
    assert view.detail.steering_label.text() == "read at the reasoning step"
    assert view.detail.answer_label.text() == "not yet"
    assert "so far" in view.detail.meta_label.text() and view.detail.is_ticking
    assert "running, past the front-end agent" in run_meta(view.runs.run(0), view.runs.node_of(run.id), 0.0)
    qrun(gui_services.agent.cancel(run.id, "Stopped by the test."))
    until(lambda: view.detail.run is not None and view.detail.run.status == "cancelled")
    assert view.detail.status_label.text() == "Cancelled" and not view.detail.is_ticking
    agent_model.delays = {}


def test_the_tab_reads_nothing_until_it_is_shown(intelligence_window: IntelligenceWindow, gui_services: Any,
                                                 qrun: Any, settle: Any) -> None:
    qrun(gui_services.ledger.create_run(RunRequest("cli", "cli", "before the tab was shown")))
    view = view_of(intelligence_window)
    qrun(intelligence_window.refresh())        # start-up and F5 with another tab on screen
    assert not view.runs.is_loaded and not view.timeline_view.model.is_loaded
    intelligence_window.show_tab("agent")
    settle(intelligence_window)
    assert view.runs.is_loaded and [r.input for r in view.runs.rows()] == ["before the tab was shown"]
    assert view.timeline_view.model.is_loaded and view.steering_view.versions.is_loaded


def test_the_runs_directive_links_to_its_version_and_its_summary_shows(
        agent_window: IntelligenceWindow, gui_services: Any, qrun: Any, until: Any, settle: Any) -> None:
    from openhuman_desktop.orchestration.steering import DirectiveDraft

    qrun(gui_services.steering.write(DirectiveDraft("Prefer short answers.", "reflection")))
    qrun(gui_services.steering.write(DirectiveDraft("Prefer short answers, in French.", "reflection")))
    run = qrun(gui_services.agent.send("What do my notes say?", "cli"))
    view = view_of(agent_window)
    until(lambda: view.detail.run is not None and view.detail.run.id == run.id and view.detail.run.is_finished
          and view.detail.records)
    assert view.detail.run.steering_version == 2
    assert 'href="version:2"' in view.detail.steering_label.text()
    assert view.detail.summary_label.text() == " ".join(view.detail.records[-1].text.split())
    view.detail.steering_label.linkActivated.emit("version:2")
    settle(agent_window)
    assert view.current_page == "steering"
    selected = view.steering_view.selected()
    assert selected is not None and selected.version == 2


def test_a_timeline_entry_opens_the_run_that_made_it(agent_window: IntelligenceWindow, gui_services: Any,
                                                     qrun: Any, until: Any, settle: Any, qtbot: Any) -> None:
    from openhuman_desktop.skills.base import Mutation

    ledger = gui_services.ledger
    old = qrun(ledger.create_run(RunRequest("cli", "cli", "an old run")))
    for n in range(60):
        qrun(ledger.create_run(RunRequest("cli", "cli", f"later {n}")))
    qrun(ledger.append_timeline([Mutation("file_written", "notes.md", "appended 3 bytes", 1, 4)], old.id))
    view = view_of(agent_window)
    view.runs.page_size = 5   # the old run is not among the rows read (the list reads what fills the view)
    qrun(view.refresh())
    assert view.runs.row_of(old.id) is None
    view.show_page("timeline")
    timeline = view.timeline_view
    timeline.list_view.setFocus()
    timeline.list_view.setCurrentIndex(timeline.model.index(0))
    qtbot.keyClick(timeline.list_view, Qt.Key.Key_Return)
    settle(agent_window)
    assert view.current_page == "runs"
    assert view.detail.run is not None and view.detail.run.id == old.id
    assert view.detail.input_label.text() == "an old run"


def test_reloading_keeps_the_picked_run(agent_window: IntelligenceWindow, gui_services: Any, qrun: Any,
                                        settle: Any) -> None:
    ledger = gui_services.ledger
    made = [qrun(ledger.create_run(RunRequest("cli", "cli", f"message {n}"))) for n in range(3)]
    view = view_of(agent_window)
    qrun(view.refresh())
    assert view.select_run(made[0].id)
    settle(agent_window)
    qrun(agent_window.refresh())   # F5
    settle(agent_window)
    assert view.detail.run is not None and view.detail.run.id == made[0].id
    assert view.runs_view.currentIndex().row() == view.runs.row_of(made[0].id)
