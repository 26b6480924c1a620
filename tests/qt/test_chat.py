"""The Chat tab on the real hub and agent (fake model servers on 127.0.0.1): sending, streaming, the folded
progress, inline cards, Try again, history, the channels' status, keyboard and screen-reader support."""

from __future__ import annotations

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
from openhuman_desktop.qt.bridge import CoreBridge
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.chat_model import ANSWER, CARD, USER, ChatModel
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
    box.setFocus()
    qtbot.keyClicks(box, "first line")
    qtbot.keyClick(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(box, "second line")
    settle(chat_window)
    assert box.toPlainText() == "first line\nsecond line"
    assert chat_window.chat_view.model.rowCount() == 0


def test_an_empty_message_is_not_sent(qtbot: Any, chat_window: IntelligenceWindow, settle: Any) -> None:
    box = chat_window.chat_view.input
    box.setFocus()
    qtbot.keyClicks(box, "   ")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    settle(chat_window)
    assert chat_window.chat_view.model.rowCount() == 0
