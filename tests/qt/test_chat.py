"""The Chat tab on the real hub and agent (fake model servers on 127.0.0.1): sending, streaming, the folded
progress, inline cards, Try again, history, the channels' status, keyboard and screen-reader support."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, QRect, Qt
from PySide6.QtWidgets import QApplication

from openhuman_desktop import events
from openhuman_desktop.channels.base import DEGRADED, ChannelStatus
from openhuman_desktop.orchestration.ports import Run
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.chat.model import ANSWER, CARD, NOTE, USER, ChatModel
from tests.fakes.agent_model import PASS2, AgentModel, AgentScript, kind_of
from tests.fakes.engine_harness import Harness
from tests.fakes.model_servers import Reply

LONG_ANSWER = (
    "## What your notes say\n\nThe **garden** needs water on *Sunday*, and `todo.md` lists two things:\n\n"
    "1. pay the bill\n2. call Sam\n\n```\nnotes.md  todo.md\n```\n\n" + "More words to stream in. " * 40
)
ACTION = "Send the weekly digest to Sam"


class StreamingModel:
    """The scripted agent model, streaming pass 2's answer in ``pieces`` chunks (a long stream)."""

    def __init__(self, script: AgentScript, pieces: int = 60) -> None:
        self.model = AgentModel(script)
        self.pieces = pieces
        self._lock = threading.Lock()

    def __call__(self, body: Any) -> Reply:
        reply = self.model(body)
        messages = [m for m in (body.get("messages") or []) if isinstance(m, dict)] if isinstance(body, dict) else []
        if kind_of(messages) == PASS2:
            return dataclasses.replace(reply, pieces=self.pieces)
        return reply


@pytest.fixture
def agent_model(gui_harness: Harness) -> StreamingModel:
    """Both tiers answered by the scripted agent model (edit ``agent_model.model.script`` in a test)."""
    model = StreamingModel(AgentScript(answer=LONG_ANSWER))
    assert gui_harness.ollama is not None and gui_harness.openai is not None
    gui_harness.ollama.set_responder(model)
    gui_harness.openai.set_responder(model)
    return model


@pytest.fixture
def chat_window(agent_model: StreamingModel, intelligence_window: IntelligenceWindow, gui_services: Any,
                qrun: Any) -> Iterator[IntelligenceWindow]:
    """The real window with its desktop channel registered with the real hub, on the Chat tab."""
    async def add() -> None:   # the hub starts a channel added late on the running loop
        gui_services.channels.add(intelligence_window.desktop_channel)

    qrun(add())
    intelligence_window.show_tab("chat")
    try:
        yield intelligence_window
    finally:
        qrun(gui_services.channels.remove("desktop"))


def rows_of(window: IntelligenceWindow) -> list[tuple[str, str, str]]:
    return [(row.kind, row.status, row.text) for row in window.chat_view.model.rows()]


def answer(window: IntelligenceWindow, n: int = -1) -> Any:
    return [row for row in window.chat_view.model.rows() if row.kind == ANSWER][n]


def type_and_enter(qtbot: Any, window: IntelligenceWindow, text: str) -> None:
    box = window.chat_view.input
    box.setFocus()
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return)


# --- sending and streaming ------------------------------------------------------------------------------


def test_enter_sends_and_the_answer_streams_into_one_row_that_ends_as_the_final_answer(
        qtbot: Any, chat_window: IntelligenceWindow, until: Any, qrun: Any, gui_services: Any) -> None:
    view = chat_window.chat_view
    shown: list[str] = []
    view.model.flushed.connect(lambda: shown.append(answer(chat_window).text))
    type_and_enter(qtbot, chat_window, "What do my notes say?")
    until(lambda: view.model.rowCount() == 2 and not answer(chat_window).is_working)

    assert view.input.toPlainText() == ""
    kinds = [(kind, text) for kind, _status, text in rows_of(chat_window)]
    assert kinds[0] == (USER, "What do my notes say?")
    final = answer(chat_window)
    assert final.status == "completed" and final.text == LONG_ANSWER
    # It streamed: the row showed a part of the answer before the end, coalesced into few repaints.
    partial = [text for text in shown if text and text != LONG_ANSWER]
    assert partial and all(LONG_ANSWER.startswith(text) for text in partial)
    assert len(shown) < 60
    history = qrun(gui_services.channels.history("desktop"))
    assert [run.input for run in history] == ["What do my notes say?"]


def test_shift_enter_starts_a_new_line_and_sends_nothing(qtbot: Any, chat_window: IntelligenceWindow,
                                                          settle: Any) -> None:
    box = chat_window.chat_view.input
    one_line = box.height()
    box.setFocus()
    qtbot.keyClicks(box, "first line")
    qtbot.keyClick(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(box, "second line")
    settle(chat_window)
    assert box.toPlainText() == "first line\nsecond line"
    assert box.height() > one_line                  # the box grows with what you write
    assert chat_window.chat_view.model.rowCount() == 0


def test_an_empty_message_is_not_sent(qtbot: Any, chat_window: IntelligenceWindow, settle: Any) -> None:
    box = chat_window.chat_view.input
    box.setFocus()
    qtbot.keyClicks(box, "   ")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    settle(chat_window)
    assert chat_window.chat_view.model.rowCount() == 0


# --- the model: coalescing, Qt's rules ---------------------------------------------------------------------


def make_run(run_id: str = "run-1", status: str = "running", **fields: Any) -> Run:
    return Run(id=run_id, thread_id="desktop", channel_source="desktop", status=status,
               input=fields.pop("input", "hello"), created_at=fields.pop("created_at", 1_790_000_000.0), **fields)


def test_streamed_pieces_reach_the_rows_at_most_every_40_ms_and_the_first_one_at_once(qtbot: Any) -> None:
    now = [100.0]
    model = ChatModel(clock=lambda: now[0])
    model.run_started(make_run())
    changes: list[int] = []
    model.dataChanged.connect(lambda *_args: changes.append(1))
    model.text_streamed("run-1", "Hel")
    assert model.row(1).text == "Hel"            # the first piece after a pause: at once
    for _ in range(200):
        model.text_streamed("run-1", "l")
    assert model.row(1).text == "Hel"            # the rest waits for the next flush
    with qtbot.wait_signal(model.flushed, timeout=2000):
        pass
    assert model.row(1).text == "Hel" + "l" * 200
    assert len(changes) == 2                     # 201 pieces, two updates
    model.run_finished(make_run(status="completed", response="Hello!"))
    assert model.row(1).text == "Hello!" and not model.row(1).is_working


def test_the_model_follows_qts_rules(qtmodeltester: Any) -> None:
    model = ChatModel()
    model.load([make_run("a", "completed", response="one"), make_run("b", "failed", error="The model is down.")])
    model.run_started(make_run("c"))
    model.text_streamed("c", "partial")
    model.toggle_expanded(1)
    qtmodeltester.check(model)
    assert [row.kind for row in model.rows()] == [USER, ANSWER, USER, ANSWER, USER, ANSWER]
    assert model.row(3).is_failed and model.row(3).text == "The model is down."


def test_rows_speak_for_screen_readers() -> None:
    model = ChatModel()
    model.load([make_run("a", "completed", input="What is on?", response="Nothing today.")])
    spoken = [model.data(model.index(n, 0), Qt.ItemDataRole.AccessibleTextRole) for n in range(2)]
    assert spoken == ["You: What is on?", "Assistant: Nothing today."]
    described = model.data(model.index(1, 0), Qt.ItemDataRole.AccessibleDescriptionRole)
    assert "no tools" in described and "Space shows the steps" in described


# --- Markdown, safely ------------------------------------------------------------------------------------


def test_answers_render_markdown_and_model_html_stays_text(qapp: QApplication, tmp_path: Any) -> None:
    from PySide6.QtGui import QImage

    from openhuman_desktop.qt.intelligence.chat import markdown as chat_markdown

    picture = tmp_path / "secret.png"
    QImage(4, 4, QImage.Format.Format_ARGB32).save(str(picture))
    text = (f"**bold** and `code` <b>not bold</b> <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n"
            f"![a picture]({picture.as_uri()})")
    document = chat_markdown.render(text, qapp.font(), qapp.palette())
    plain = document.toPlainText()
    assert "<b>not bold</b>" in plain and "<script>alert(1)</script>" in plain
    assert "<img src=x onerror=alert(1)>" in plain
    assert "[image: secret.png]" in plain and "\ufffc" not in plain   # the file was never read
    bold = document.find("bold")
    assert bold.charFormat().fontWeight() >= 600
    assert document.find("not bold").charFormat().fontWeight() < 600


# --- progress, cards, Try again, history ----------------------------------------------------------------

NODES = ("channel_ingestion", "frontend_agent", "agent_execution", "frontend_agent", "context_manager_hook")


def send_and_finish(qtbot: Any, window: IntelligenceWindow, until: Any, text: str) -> Any:
    before = len(window.chat_view.answer_texts())
    type_and_enter(qtbot, window, text)
    until(lambda: len(window.chat_view.answer_texts()) > before and window.chat_view.model.working_count == 0)
    return answer(window)


def test_each_answer_folds_its_progress_and_space_unfolds_it(qtbot: Any, chat_window: IntelligenceWindow,
                                                              until: Any, agent_model: StreamingModel) -> None:
    from tests.fakes.agent_model import call, say

    agent_model.model.script = AgentScript(
        subtasks=(("Read the notes", "Read notes.md."),), answer="The garden needs water.",
        steps={"Read the notes": [call("files_list", path="."), say("Nothing much.")]})
    done = send_and_finish(qtbot, chat_window, until, "What is in my workspace?")
    assert done.nodes == NODES
    assert "files_list" in " ".join(done.tools) and "5 steps" in done.details()
    view = chat_window.chat_view.list_view
    model = chat_window.chat_view.model
    row = model.answer_row(done.run_id)
    assert row is not None
    index = model.index(row, 0)
    folded = view.sizeHintForIndex(index).height()
    view.setFocus()
    view.setCurrentIndex(index)
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert model.is_expanded(row)
    assert view.sizeHintForIndex(index).height() > folded
    assert any("agent_execution" in line for line in model.row(row).detail_lines())
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert not model.is_expanded(row)


def test_a_card_raised_in_the_chat_shows_under_its_answer_and_go_ahead_approves_it_once(
        qtbot: Any, chat_window: IntelligenceWindow, until: Any, settle: Any, qrun: Any, gui_services: Any,
        agent_model: StreamingModel) -> None:
    agent_model.model.script = AgentScript(reply=f"Two notes found.\nRECOMMENDED ACTION: {ACTION}",
                                           answer="I found two notes.")
    done = send_and_finish(qtbot, chat_window, until, "What do my notes say?")
    model = chat_window.chat_view.model
    view = chat_window.chat_view.list_view
    until(lambda: any(row.kind == CARD for row in model.rows()))
    kinds = [row.kind for row in model.rows()]
    assert kinds == [USER, ANSWER, CARD]
    card_row = model.rows()[2]
    assert card_row.run_id == done.run_id and card_row.is_pending_card
    card = view.card(card_row.escalation.id)
    assert card is not None and card.isVisible()
    assert ACTION in card.description_label.text()
    # A real widget inside the list, where its row is: below the answer.
    answer_rect = view.visualRect(model.index(1, 0))
    assert card.geometry().top() >= answer_rect.bottom()

    # Tab reaches the card's buttons where the card is: after the conversation, before the box.
    assert tab_stops(view, chat_window)[:3] == [card.skip_button, card.approve_button, chat_window.chat_view.input]

    qtbot.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
    settle(chat_window)
    until(lambda: not model.rows()[2].is_pending_card)
    assert model.rows()[2].escalation.status == "approved"
    assert view.card(card_row.escalation.id) is None          # the buttons are gone, the row says so
    approved = [esc for esc in qrun(gui_services.approvals.escalations_list("approved"))]
    assert [esc.id for esc in approved] == [card_row.escalation.id]
    # The action runs in this conversation, and its answer comes here, under a note (not as your words).
    until(lambda: len(chat_window.chat_view.answer_texts()) == 2 and model.working_count == 0)
    assert [row.kind for row in model.rows()] == [USER, ANSWER, CARD, NOTE, ANSWER]
    assert model.rows()[3].text == ACTION


@pytest.mark.logs_expected(
    r"model local failed a call: Ollama at",
    r"in config\.toml and that its server is running",
    r"model reasoning failed a call",
)
def test_a_failed_answer_says_why_and_r_tries_it_again(qtbot: Any, chat_window: IntelligenceWindow, until: Any,
                                                        settle: Any, agent_model: StreamingModel) -> None:
    agent_model.model.script = AgentScript(fail={"plan", "pass1", "reply", "pass2"}, answer="Found it.")
    failed = send_and_finish(qtbot, chat_window, until, "What is in my notes?")
    assert failed.is_failed and failed.text
    model = chat_window.chat_view.model
    row = model.answer_row(failed.run_id)
    assert row is not None
    assert "R to try again" in model.data(model.index(row, 0), Qt.ItemDataRole.AccessibleTextRole)
    agent_model.model.script = AgentScript(answer="Found it.")
    view = chat_window.chat_view.list_view
    view.setFocus()
    view.setCurrentIndex(model.index(row, 0))
    qtbot.keyClick(view, Qt.Key.Key_R)
    settle(chat_window)
    until(lambda: model.row(row).status == "completed")
    assert model.row(row).run_id == failed.run_id
    assert model.rowCount() == 2                                # the same answer row, not a new one


def test_opening_the_tab_shows_the_threads_history_with_each_answers_steps(
        intelligence_window: IntelligenceWindow, agent_model: StreamingModel, qrun: Any, gui_services: Any) -> None:
    agent_model.model.script = AgentScript(answer="First answer.")
    first = qrun(gui_services.agent.send("First question", "desktop"))
    qrun(gui_services.agent.wait(first.id))
    other = qrun(gui_services.agent.send("Elsewhere", "webapp:s1"))
    qrun(gui_services.agent.wait(other.id))
    qrun(intelligence_window.chat_view.refresh())
    rows = intelligence_window.chat_view.model.rows()
    assert [(row.kind, row.text) for row in rows] == [(USER, "First question"), (ANSWER, "First answer.")]
    assert rows[1].nodes == NODES


# --- the channels' status, keyboard, accessibility --------------------------------------------------------


class DegradedTelegram:
    name = "telegram"

    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def reconfigure(self) -> None: ...

    def status(self) -> ChannelStatus:
        return ChannelStatus(True, DEGRADED, "The bot token was refused; set TELEGRAM_BOT_TOKEN to a valid token.")

    def run_started(self, run: Run) -> None: ...

    def progress(self, run_id: str, thread_id: str, node: str) -> None: ...

    def text_streamed(self, run_id: str, thread_id: str, delta: str) -> None: ...

    async def deliver(self, run: Run) -> None: ...

    def card_changed(self, escalation: Any) -> None: ...


def test_the_header_shows_each_channels_state_and_follows_status_changes(
        chat_window: IntelligenceWindow, qrun: Any, until: Any, gui_services: Any) -> None:
    line = chat_window.chat_view.status_line
    assert "Telegram: off" in line.text()

    async def add() -> None:
        await gui_services.channels.remove("telegram")  # the app's own (off in this config)
        gui_services.channels.add(DegradedTelegram())

    qrun(add())
    until(lambda: "bot token was refused" in line.text())
    assert line.dots["telegram"].accent_name == "amber"
    assert gui_services.channels.status()["desktop"]["state"] == "connected"
    qrun(gui_services.channels.remove("telegram"))
    gui_services.bus.publish(events.StatusChanged())
    until(lambda: "Telegram: off" in line.text())


def test_the_tab_is_labelled_for_screen_readers_and_tab_goes_list_box_send(chat_window: IntelligenceWindow) -> None:
    view = chat_window.chat_view
    assert chat_window.current_tab == "chat"
    assert view.list_view.accessibleName() == "Conversation"
    assert view.input.accessibleName() == "Message" and "Enter sends" in view.input.accessibleDescription()
    assert view.send_button.accessibleName() == "Send message"
    stops = tab_stops(view.list_view, chat_window)
    assert stops[:2] == [view.input, view.send_button]


def tab_stops(start: Any, window: Any) -> list[Any]:
    """The controls Tab reaches after ``start``, in order."""
    found = []
    widget = start.nextInFocusChain()
    while widget is not start and len(found) < 200:
        if widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget.isVisibleTo(window) and widget.isEnabled():
            found.append(widget)
        widget = widget.nextInFocusChain()
    return found


def test_ctrl_c_copies_the_current_message(qtbot: Any, qapp: QApplication) -> None:
    from openhuman_desktop.qt.asyncutil import Jobs
    from openhuman_desktop.qt.intelligence.chat.view import ChatListView

    view = ChatListView(Jobs())
    qtbot.add_widget(view)
    model = ChatModel(view)
    view.setModel(model)
    model.load([make_run("a", "completed", input="Hi", response="**Hello** there")])
    view.resize(500, 300)
    view.show()
    view.setCurrentIndex(model.index(1, 0))
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert qapp.clipboard().text() == "**Hello** there"
    assert view.visualRect(model.index(1, 0)).intersects(QRect(0, 0, 500, 300))
    assert QModelIndex().isValid() is False


def test_a_late_start_notice_never_undoes_an_answer_that_is_in() -> None:
    model = ChatModel()
    model.run_started(make_run())
    model.run_finished(make_run(status="completed", response="Done."))
    model.run_started(make_run(status="queued"))
    assert model.row(1).text == "Done." and model.row(1).status == "completed"


def test_a_message_the_agent_refuses_is_not_lost(qtbot: Any, chat_window: IntelligenceWindow, settle: Any) -> None:
    view = chat_window.chat_view
    too_long = "x" * 100_001
    view.input.setPlainText(too_long)
    qtbot.mouseClick(view.send_button, Qt.MouseButton.LeftButton)
    settle(chat_window)
    assert view.error_label.isVisible() and view.error_label.text().startswith("Not sent: ")
    assert "too long" in view.error_label.text()
    assert view.input.toPlainText() == too_long and view.model.rowCount() == 0


def test_page_up_in_the_box_scrolls_the_conversation(qtbot: Any, chat_window: IntelligenceWindow, qrun: Any,
                                                     until: Any) -> None:
    view = chat_window.chat_view
    view.model.load([make_run(f"r{n}", "completed", input=f"question {n}", response=LONG_ANSWER) for n in range(6)])
    bar = view.list_view.verticalScrollBar()
    until(lambda: bar.maximum() > 0 and bar.value() == bar.maximum())
    bottom = bar.value()
    view.input.setFocus()
    qtbot.keyClick(view.input, Qt.Key.Key_PageUp)
    assert bar.value() < bottom
    qtbot.keyClick(view.input, Qt.Key.Key_PageDown)
    assert bar.value() == bottom


def test_the_working_dots_pulse_only_while_the_tab_is_on_screen(chat_window: IntelligenceWindow) -> None:
    view = chat_window.chat_view
    view.model.run_started(make_run("w1"))
    assert view.list_view.is_pulsing
    chat_window.show_tab("subconscious")
    assert not view.list_view.is_pulsing
    chat_window.show_tab("chat")
    assert view.list_view.is_pulsing
    view.model.run_finished(make_run("w1", "completed", response="ok"))
    assert not view.list_view.is_pulsing


def test_a_card_that_grows_an_error_line_makes_its_row_taller(qtbot: Any, qapp: QApplication, fakes: Any) -> None:
    from openhuman_desktop.qt.asyncutil import Jobs
    from openhuman_desktop.qt.intelligence.chat.view import ChatListView

    async def nothing(_escalation_id: str) -> None:
        return None

    view = ChatListView(Jobs())
    qtbot.add_widget(view)
    model = ChatModel(view)
    view.setModel(model)
    view.set_actions(nothing, nothing, dict)
    view.resize(600, 500)
    view.show()
    model.load([make_run("a", "completed", response="Done.")])
    escalation = dataclasses.replace(fakes.make_escalation(escalation_id="e1"), task_id=None, run_id="a",
                                     thread_id="desktop")
    model.card_changed(escalation)
    card = view.card("e1")
    assert card is not None
    index = model.index(2, 0)
    qtbot.wait_until(lambda: view.visualRect(index).height() >= card.heightForWidth(card.width()))
    before = view.visualRect(index).height()
    card.error_label.show_text("That request was already answered on another device; nothing was done this time.")
    qtbot.wait_until(lambda: view.visualRect(index).height() > before)
    assert card.geometry().bottom() <= view.visualRect(index).bottom()


def test_reloading_while_an_answer_streams_keeps_what_it_showed(qtbot: Any) -> None:
    model = ChatModel()
    model.run_started(make_run("s1"))
    model.text_streamed("s1", "The garden ")
    model.text_streamed("s1", "needs water")     # still waiting for the next flush
    model.load([make_run("s1", "running")])      # F5 in the middle of the answer
    assert model.row(1).text == "The garden needs water" and model.row(1).is_working
    model.text_streamed("s1", " on Sunday.")
    with qtbot.wait_signal(model.flushed, timeout=2000):
        pass
    assert model.row(1).text == "The garden needs water on Sunday."


def test_a_click_on_a_web_link_in_an_answer_opens_it_and_other_links_do_nothing(qtbot: Any) -> None:
    from PySide6.QtCore import QPoint, QPointF

    from openhuman_desktop.qt.asyncutil import Jobs
    from openhuman_desktop.qt.intelligence.chat.view import ChatListView

    view = ChatListView(Jobs())
    qtbot.add_widget(view)
    model = ChatModel(view)
    view.setModel(model)
    opened: list[str] = []
    view.open_url = lambda url: opened.append(url.toString())
    model.load([make_run("a", "completed", response="[the docs](https://example.org/docs)"),
                make_run("b", "completed", response="[a file](file:///etc/passwd)")])
    view.resize(600, 400)
    view.show()
    qtbot.wait_until(lambda: view.visualRect(model.index(3, 0)).height() > 0)

    def click_first_word(row: int) -> str:
        """Click the answer's first word; returns the link the document has there."""
        geometry = view.chat_delegate.geometry(model.row(row), view.visualRect(model.index(row, 0)), expanded=False)
        point = geometry.text.topLeft() + QPoint(4, geometry.text.height() // 2)
        document = view.chat_delegate.document(model.row(row), geometry.doc_width)
        anchor = document.documentLayout().anchorAt(QPointF(point - geometry.text.topLeft()))
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)
        return str(anchor)

    assert click_first_word(1) == "https://example.org/docs"
    assert opened == ["https://example.org/docs"]
    assert click_first_word(3) == "file:///etc/passwd"
    assert opened == ["https://example.org/docs"]   # file: (or javascript:) from model text never opens


def test_the_desktop_channel_passes_on_only_the_desktop_thread(qtbot: Any, qrun: Any, fakes: Any) -> None:
    from openhuman_desktop.qt.intelligence.chat.channel import DesktopChannel

    channel = DesktopChannel()
    got: list[tuple[str, Any]] = []
    channel.started.connect(lambda run: got.append(("started", run.id)))
    channel.streamed.connect(lambda run_id, delta: got.append(("streamed", delta)))
    channel.delivered.connect(lambda run: got.append(("delivered", run.id)))
    channel.card.connect(lambda esc: got.append(("card", esc.id)))
    assert channel.status().state == "starting"
    qrun(channel.start())
    assert channel.status().to_json() == {"enabled": True, "state": "connected",
                                          "state_reason": "The Chat tab of the window."}
    other = dataclasses.replace(make_run("x"), thread_id="desktop:other")
    for run in (make_run("d"), other):
        channel.run_started(run)
        channel.text_streamed(run.id, run.thread_id, f"piece of {run.id}")
        qrun(channel.deliver(run))
    heartbeat = dataclasses.replace(fakes.make_escalation(escalation_id="hb"), thread_id="subconscious:task-1")
    mine = dataclasses.replace(fakes.make_escalation(escalation_id="mine"), task_id=None, thread_id="desktop")
    channel.card_changed(heartbeat)
    channel.card_changed(mine)
    assert got == [("started", "d"), ("streamed", "piece of d"), ("delivered", "d"), ("card", "mine")]
    qrun(channel.stop())
    assert channel.status().state == "stopped" and not channel.status().enabled


def test_an_answer_handed_over_after_a_restart_appears_once(qtbot: Any) -> None:
    model = ChatModel()
    finished = make_run("late", "completed", input="Asked before the crash", response="Here it is.")
    model.run_finished(finished)          # the hub delivers what was not delivered before the crash
    assert [(row.kind, row.text) for row in model.rows()] == [(USER, "Asked before the crash"),
                                                              (ANSWER, "Here it is.")]
    model.load([finished])                # then the history, which has it too
    assert model.rowCount() == 2


# --- a conversation taller than the list (the white Chat tab) ---------------------------------------------


def row_heights(window: IntelligenceWindow) -> list[int]:
    view = window.chat_view.list_view
    model = window.chat_view.model
    return [view.sizeHintForIndex(model.index(row, 0)).height() for row in range(model.rowCount())]


def is_drawn(window: IntelligenceWindow, row: int) -> bool:
    """Whether row ``row`` is laid out and something of it is painted on the list (not the bare background)."""
    view = window.chat_view.list_view
    rect = view.visualRect(window.chat_view.model.index(row, 0))
    if not rect.isValid() or not rect.intersects(view.viewport().rect()):
        return False
    image = view.viewport().grab().toImage()
    background = image.pixelColor(1, 1)
    area = rect.intersected(view.viewport().rect())
    return any(image.pixelColor(x, y) != background
               for y in range(area.top(), area.bottom(), 2) for x in range(area.left(), area.right(), 2))


@pytest.mark.logs_expected(r"model reasoning failed a call")
def test_an_answer_after_a_failed_answer_stays_on_screen_when_the_conversation_outgrows_the_list(
        qtbot: Any, chat_window: IntelligenceWindow, until: Any, qrun: Any, agent_model: StreamingModel) -> None:
    """A conversation whose first rows fit the list but whose whole does not (here: once a failed answer's long
    sentence is followed by another answer) was laid out again and again, forever: the scroll bar came, the
    rows were measured anew at the narrower width in batches, the first batch fitted, the scroll bar went, and
    so on. No row past the first batch was ever placed, and the tab stayed white, after a restart too."""
    view = chat_window.chat_view
    agent_model.model.script = AgentScript(answer="Hello! How can I help?")
    send_and_finish(qtbot, chat_window, until, "Hi")
    agent_model.model.script = AgentScript(fail={"plan"})
    failed = send_and_finish(qtbot, chat_window, until, "What is in my notes?")
    assert failed.is_failed
    agent_model.model.script = AgentScript(answer="Your notes say the garden needs water on Sunday. " * 24)
    send_and_finish(qtbot, chat_window, until, "Try once more, please")
    # The list as tall as the first five rows and half of the sixth: the last answer needs the scroll bar.
    heights = row_heights(chat_window)
    assert len(heights) == 6
    extra = chat_window.height() - view.list_view.viewport().height()
    chat_window.resize(chat_window.width(), extra + sum(heights[:5]) + heights[5] // 2)
    until(lambda: view.list_view.viewport().height() < sum(row_heights(chat_window)))
    assert sum(row_heights(chat_window)[:5]) < view.list_view.viewport().height()

    def settled() -> bool:
        return all(view.list_view.visualRect(view.model.index(row, 0)).isValid() for row in range(6)) \
            and view.list_view.verticalScrollBar().maximum() > 0 and is_drawn(chat_window, 5)

    until(settled, timeout=5, message="the last answer never appeared")
    # As after a restart: the history read again (a reset of the list) shows it too.
    qrun(view.refresh())
    until(settled, timeout=5, message="the last answer never appeared after the history was read again")


def test_the_bubble_never_shows_the_recommended_action_line_its_card_shows(qtbot: Any) -> None:
    """The answer repeated ``RECOMMENDED ACTION: …`` under the card that already shows it: not from the
    stream, the final answer or the history (runs from before the agent left it out)."""
    answer_with_line = f"I found two notes.\n\n**RECOMMENDED ACTION:** {ACTION}\n\nShall I?"
    model = ChatModel(clock=lambda: 0.0)
    model.run_started(make_run("r1"))
    for cut in range(0, len(answer_with_line), 5):
        model.text_streamed("r1", answer_with_line[cut:cut + 5])
        model.flush()
        assert "RECOMMENDED" not in model.row(1).text and "RECOMM" not in model.row(1).text
    assert model.row(1).text.startswith("I found two notes.") and model.row(1).text.endswith("Shall I?")
    model.run_finished(make_run("r1", "completed", response=answer_with_line))
    assert model.row(1).text == "I found two notes.\n\nShall I?"
    history = ChatModel()
    history.load([make_run("r2", "completed", input="Old question", response=f"Old.\nRECOMMENDED ACTION: {ACTION}")])
    assert [row.text for row in history.rows()] == ["Old question", "Old."]


# --- Stop --------------------------------------------------------------------------------------------------


def test_stop_ends_the_answer_being_written_and_its_bubble_says_so(
        qtbot: Any, chat_window: IntelligenceWindow, until: Any, settle: Any, qrun: Any, gui_services: Any,
        agent_model: StreamingModel) -> None:
    view = chat_window.chat_view
    assert view.stop_button.isHidden()                       # nothing on its way: no Stop
    agent_model.model.delays = {"plan": 30}                  # the answer takes its time
    type_and_enter(qtbot, chat_window, "Summarise all my notes")
    until(lambda: view.model.working_count == 1 and view.stop_button.isVisible())
    run_id = answer(chat_window).run_id
    qtbot.mouseClick(view.stop_button, Qt.MouseButton.LeftButton)
    settle(chat_window)
    stopped = answer(chat_window)
    assert stopped.status == "cancelled" and stopped.text == "Stopped by you."
    assert "Stopped by you" in stopped.spoken() and stopped.is_failed          # and Try again goes on from there
    assert view.stop_button.isHidden()
    run = qrun(gui_services.agent.run_get(run_id))
    assert (run.status, run.error) == ("cancelled", "Stopped by you.")

    async def handed_over() -> None:
        while await gui_services.agent.undelivered("desktop"):
            await asyncio.sleep(0.02)

    qrun(handed_over())                                                         # handed over: nothing changes
    assert answer(chat_window).text == "Stopped by you." and view.model.rowCount() == 2


def test_esc_in_the_box_stops_the_answer(qtbot: Any, chat_window: IntelligenceWindow, until: Any, settle: Any,
                                         agent_model: StreamingModel) -> None:
    view = chat_window.chat_view
    qtbot.keyClick(view.input, Qt.Key.Key_Escape)           # nothing to stop: nothing happens
    settle(chat_window)
    agent_model.model.delays = {"plan": 30}
    type_and_enter(qtbot, chat_window, "Summarise all my notes")
    until(lambda: view.stop_button.isVisible())
    qtbot.keyClick(view.input, Qt.Key.Key_Escape)
    settle(chat_window)
    assert answer(chat_window).status == "cancelled"


def test_a_stopped_answer_keeps_what_it_had_written() -> None:
    model = ChatModel(clock=lambda: 0.0)
    model.run_started(make_run("s1"))
    model.text_streamed("s1", "The garden needs")
    model.flush()
    model.run_finished(make_run("s1", "cancelled", error="Stopped by you."))
    assert model.row(1).text == "The garden needs\n\n*Stopped by you.*"
    model.run_finished(make_run("s1", "cancelled", error="Stopped by you."))   # its channel hands it over too
    assert model.row(1).text == "The garden needs\n\n*Stopped by you.*"
