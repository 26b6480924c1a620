"""The Chat tab: the ``desktop`` thread's conversation, the box you write in, and the channels' status."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent, QHideEvent, QKeyEvent, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.channels.base import InboundMessage
from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.orchestration.ports import Run
from openhuman_desktop.orchestration.service import STOPPED_BY_YOU
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.chat.channel import THREAD_ID, DesktopChannel
from openhuman_desktop.qt.intelligence.chat.model import ANSWER, ChatModel
from openhuman_desktop.qt.intelligence.chat.view import ChatListView
from openhuman_desktop.qt.intelligence.muted_label import EmptyState, MutedLabel
from openhuman_desktop.qt.intelligence.panel_frame import PanelFrame
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.status_dot import StatusDot
from openhuman_desktop.qt.intelligence.theme import app_palette, blend, em, make_primary, set_style_sheet
from openhuman_desktop.store import Escalation

log = logging.getLogger(__name__)

HISTORY_RUNS = 50
MAX_INPUT_LINES = 8
PLACEHOLDER = "Message the assistant…"
HINT = "Enter sends · Shift+Enter starts a new line · Esc stops an answer · Page Up/Down scroll the conversation"
EMPTY_TEXT = ("Ask the assistant anything — about your notes and files, your tasks, or what it remembers.\n"
              "Its answers stream in here; anything it wants to change asks for your approval first.")
STATE_ACCENT = {"connected": "green", "starting": "blue", "degraded": "amber", "stopped": "grey", "disabled": "grey"}
NO_HUB = "Chat needs the app's channels, which this window does not have."
INPUT_STYLE = ("QPlainTextEdit#chatInput {{ background-color: {base}; border: 1px solid {border};"
               " border-radius: 6px; padding: 2px 4px; }}"
               " QPlainTextEdit#chatInput:focus {{ border: 1px solid {focus}; }}")
CHANNEL_TITLES = (("telegram", "Telegram"), ("webapp", "Web app"))


class Hub(Protocol):
    """What the Chat tab needs from the channel hub."""

    async def submit(self, message: InboundMessage) -> Run: ...

    async def approve(self, escalation_id: str) -> None: ...

    async def dismiss(self, escalation_id: str) -> None: ...

    async def pending_cards(self, channel: str) -> list[Escalation]: ...

    async def history(self, thread_id: str, limit: int = 50) -> list[Run]: ...

    def status(self) -> dict[str, Any]: ...


class Agent(Protocol):
    """What the Chat tab needs from the agent service (Try again, the steps of older answers)."""

    async def retry(self, run_id: str) -> Run: ...

    async def cancel(self, run_id: str, reason: str) -> Run: ...

    async def history(self, thread_id: object, limit: object = 50, before: object = None) -> list[dict[str, Any]]: ...


class ChatInput(QPlainTextEdit):
    """Where you write: Enter sends, Shift+Enter starts a new line; grows to a few lines as you type."""

    submitted = Signal()
    paged = Signal(int)      # -1 / +1: Page Up / Page Down scroll the conversation from the box
    stop_requested = Signal()   # Esc: stop the answer being written

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatInput")
        self.setAccessibleName("Message")
        self.setAccessibleDescription(HINT)
        self.setPlaceholderText(PLACEHOLDER)
        self.setTabChangesFocus(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.document().setDocumentMargin(max(4, em(self) // 3))
        self.textChanged.connect(self._on_self_text_changed)
        self.retheme()
        self._fit()

    def retheme(self) -> None:
        """A rounded box that shows where to write, its border in the highlight colour while focused."""
        palette = app_palette()
        window = palette.color(QPalette.ColorRole.Window)
        text = palette.color(QPalette.ColorRole.WindowText)
        set_style_sheet(self, INPUT_STYLE.format(
            base=palette.color(QPalette.ColorRole.Base).name(), border=blend(window, text, 0.28).name(),
            focus=palette.color(QPalette.ColorRole.Highlight).name()))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() == Qt.Key.Key_Escape and not event.modifiers():
            self.stop_requested.emit()
            return
        if event.key() in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown) and not event.modifiers():
            self.paged.emit(-1 if event.key() == Qt.Key.Key_PageUp else 1)
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            modifiers = event.modifiers()
            if modifiers & Qt.KeyboardModifier.ShiftModifier:
                self.insertPlainText("\n")
                return
            if not modifiers & (Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.MetaModifier):
                self.submitted.emit()
                return
        super().keyPressEvent(event)

    def _on_self_text_changed(self) -> None:
        self._fit()

    def _fit(self) -> None:
        lines = max(1, min(MAX_INPUT_LINES, self.document().size().height() or 1))
        line = self.fontMetrics().lineSpacing()
        margins = self.contentsMargins()
        height = round(lines * line + self.document().documentMargin() * 2 + margins.top() + margins.bottom()) + 2
        if self.height() != height:
            self.setFixedHeight(height)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._fit()

    def sizeHint(self) -> QSize:
        return QSize(em(self) * 20, self.height())


class ChannelStatusLine(QWidget):
    """One line in the Chat tab's header: "● Telegram: connected · ● Web app: http://127.0.0.1:8123/"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Channels")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(max(4, em(self) // 3))
        self.dots: dict[str, StatusDot] = {}
        self.labels: dict[str, MutedLabel] = {}
        for key, _title in CHANNEL_TITLES:
            dot = StatusDot("grey", self)
            dot.setAccessibleName(f"{_title} state")
            label = MutedLabel("", self, factor=0.9)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setAccessibleName(f"{_title} channel")
            layout.addWidget(dot, 0, Qt.AlignmentFlag.AlignVCenter)
            layout.addWidget(label, 0, Qt.AlignmentFlag.AlignVCenter)
            layout.addSpacing(em(self) // 2)
            self.dots[key] = dot
            self.labels[key] = label
        layout.addStretch(1)

    def show_status(self, status: Mapping[str, Any]) -> None:
        """``status`` is ``hub.status()`` (``channels_status``)."""
        for key, title in CHANNEL_TITLES:
            entry = status.get(key) or {}
            state = str(entry.get("state") or "disabled")
            reason = str(entry.get("state_reason") or "")
            if not entry.get("enabled") or state == "disabled":
                text = f"{title}: off"
            elif key == "webapp" and state == "connected" and entry.get("url"):
                text = f"{title}: {entry['url']}"
            elif state == "degraded" and reason:
                text = f"{title}: {reason}"
            else:
                text = f"{title}: {state}"
            self.labels[key].setText(text)
            self.labels[key].setToolTip(reason or text)
            self.labels[key].setAccessibleDescription(f"{text}. {reason}" if reason and reason not in text else text)
            self.dots[key].set_accent(STATE_ACCENT.get(state, "grey"))

    def text(self) -> str:
        return " · ".join(self.labels[key].text() for key, _title in CHANNEL_TITLES)


class ChatView(QWidget):
    """The Chat tab. ``hub`` is None in a window without channels (it then says so and sends nothing)."""

    fix_in_skills_requested = Signal(str)

    def __init__(self, hub: Hub | None, agent: Agent | None, channel: DesktopChannel, jobs: Jobs,
                 now: Callable[[], float], skills: Callable[[], dict[str, str]] = dict,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._hub = hub
        self._agent = agent
        self._jobs = jobs
        self._channel = channel
        self.setAccessibleName("Chat")
        unit = em(self)
        pad = max(6, unit // 2)
        self.model = ChatModel(self)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, pad, 0, 0)
        outer.setSpacing(pad)
        header = QHBoxLayout()
        header.setSpacing(pad)
        self.header = SectionHeader("Chat", self)
        header.addWidget(self.header)
        header.addSpacing(pad)
        self.status_line = ChannelStatusLine(self)
        header.addWidget(self.status_line, 1)
        outer.addLayout(header)
        self.panel = PanelFrame(self)
        self.panel.setObjectName("chatPanel")
        panel_layout = QVBoxLayout(self.panel)
        panel_layout.setContentsMargins(2, 2, 2, 2)
        self.list_view = ChatListView(jobs, self.panel)
        self.list_view.setModel(self.model)
        self.list_view.chat_delegate.now = now
        if hub is not None:
            self.list_view.set_actions(hub.approve, hub.dismiss, skills)
        panel_layout.addWidget(self.list_view, 1)
        self.empty_label = EmptyState(EMPTY_TEXT, self.panel)
        self.empty_label.setAccessibleName("No messages yet")
        panel_layout.addWidget(self.empty_label, 1)
        outer.addWidget(self.panel, 1)
        self.error_label = ErrorLabel(self)
        outer.addWidget(self.error_label)
        composer = QFrame(self)
        composer.setObjectName("chatComposer")
        row = QHBoxLayout(composer)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(pad)
        self.input = ChatInput(composer)
        row.addWidget(self.input, 1)
        self.stop_button = QPushButton("■ Stop", composer)
        self.stop_button.setAccessibleName("Stop the answer")
        self.stop_button.setToolTip("Stop the answer being written (Esc)")
        self.stop_button.setAutoDefault(False)
        self.stop_button.setMinimumHeight(self.input.height())
        self.stop_button.hide()                                   # only while an answer is on its way
        row.addWidget(self.stop_button, 0, Qt.AlignmentFlag.AlignBottom)
        self.send_button = QPushButton("Send", composer)
        self.send_button.setAccessibleName("Send message")
        self.send_button.setToolTip("Send (Enter)")
        self.send_button.setAutoDefault(False)
        make_primary(self.send_button)
        self.send_button.setMinimumHeight(self.input.height())   # as tall as the one-line box beside it
        row.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignBottom)
        outer.addWidget(composer)
        self.hint_label = MutedLabel(HINT, self, factor=0.85)
        self.hint_label.setAccessibleName("Keyboard hint")
        outer.addWidget(self.hint_label)
        self.setFocusProxy(self.input)
        self._order_tab_stops()

        self.input.submitted.connect(self._on_input_submitted)
        self.input.paged.connect(self._on_input_paged)
        self.input.stop_requested.connect(self._on_input_stop_requested)
        self.stop_button.clicked.connect(self._on_stop_button_clicked)
        self.send_button.clicked.connect(self._on_send_button_clicked)
        self.list_view.retry_requested.connect(self._on_list_view_retry_requested)
        self.list_view.fix_in_skills_requested.connect(self.fix_in_skills_requested)
        self.list_view.cards_changed.connect(self._order_tab_stops)
        channel.started.connect(self.model.run_started)
        channel.progressed.connect(self.model.progress)
        channel.streamed.connect(self.model.text_streamed)
        channel.delivered.connect(self._on_channel_delivered)
        channel.card.connect(self.model.card_changed)
        for signal in (self.model.rowsInserted, self.model.modelReset):
            signal.connect(self._on_model_changed)
        self.model.dataChanged.connect(self._on_model_data_changed)
        self._stopping: set[str] = set()   # runs asked to stop, until they have
        if hub is None:
            self.empty_label.setText(NO_HUB)
        self._on_model_changed()

    # --- data -----------------------------------------------------------------------------------

    async def refresh(self) -> None:
        """Load the thread's latest answers, the steps they took and its pending cards; the channels' status."""
        self.refresh_status()
        if self._hub is None:
            return
        try:
            runs = await self._hub.history(THREAD_ID, HISTORY_RUNS)
            cards = [card for card in await self._hub.pending_cards("desktop") if card.thread_id == THREAD_ID]
        except UserFacingError as exc:
            self.error_label.show_text(f"Could not load the conversation: {exc}")
            return
        nodes = await self._nodes(runs)
        self.error_label.clear_text()
        self.model.load(runs, cards, nodes)
        self._on_model_changed()

    async def _nodes(self, runs: list[Run]) -> dict[str, list[str]]:
        """The nodes each run went through, oldest first, from the ledger's checkpoints (best effort)."""
        if self._agent is None or not runs:
            return {}
        wanted = {run.id for run in runs}
        try:
            checkpoints = await self._agent.history(THREAD_ID, min(1000, len(runs) * 8))
        except UserFacingError as exc:
            log.info("could not read the desktop thread's checkpoints: %s", exc)
            return {}
        found: dict[str, list[str]] = {}
        for checkpoint in reversed(checkpoints):   # newest first → oldest first
            run_id = checkpoint.get("run_id")
            if run_id in wanted and checkpoint.get("node"):
                found.setdefault(str(run_id), []).append(str(checkpoint["node"]))
        return found

    def refresh_status(self) -> None:
        """Show the channels' status now (the window calls it on ``status_changed``)."""
        if self._hub is not None:
            self.status_line.show_status(self._hub.status())
        else:
            self.status_line.show_status({})

    async def send(self, text: str | None = None) -> Run | None:
        """Send ``text`` (by default what is in the box) as a message on the ``desktop`` thread."""
        if self._hub is None:
            self.error_label.show_text(NO_HUB)
            return None
        typed = text is None
        message = self.input.toPlainText() if text is None else text
        if not message.strip():
            return None
        if typed:
            self.input.clear()
        self.error_label.clear_text()
        try:
            run = await self._hub.submit(InboundMessage(THREAD_ID, message))
        except UserFacingError as exc:
            self.error_label.show_text(f"Not sent: {exc}")
            if typed and not self.input.toPlainText():
                self.input.setPlainText(message)   # nothing you wrote is lost
            return None
        self.model.run_started(run)
        self.list_view.scroll_to_end()
        return run

    async def retry(self, run_id: str) -> Run | None:
        """Try a failed answer again (the agent goes on from the run's last checkpoint)."""
        if self._agent is None:
            return None
        self.error_label.clear_text()
        try:
            run = await self._agent.retry(run_id)
        except UserFacingError as exc:
            self.error_label.show_text(f"Could not try again: {exc}")
            return None
        self.model.run_started(run)
        return run

    async def stop(self) -> list[Run]:
        """Stop the answers being written in this conversation (each ends ``cancelled``, "Stopped by you.");
        what they did so far is kept, and Try again goes on from there."""
        if self._agent is None:
            return []
        wanted = [row.run_id for row in self.model.rows()
                  if row.is_working and row.run_id and row.run_id not in self._stopping]
        if not wanted:
            return []
        self._stopping.update(wanted)
        self._update_stop()
        self.error_label.clear_text()
        stopped: list[Run] = []
        try:
            for run_id in wanted:
                try:
                    run = await self._agent.cancel(run_id, STOPPED_BY_YOU)
                except UserFacingError as exc:
                    self.error_label.show_text(f"Could not stop the answer: {exc}")
                    continue
                log.info("run %s stopped from the Chat tab", run_id)
                self.model.run_finished(run)   # at once; the channel's hand-over of it changes nothing
                stopped.append(run)
        finally:
            self._stopping.difference_update(wanted)
            self._update_stop()
        return stopped

    def _update_stop(self) -> None:
        working = self.model.working_count > 0 and self._agent is not None
        self.stop_button.setVisible(working)
        asked = any(row.run_id in self._stopping for row in self.model.rows() if row.is_working)
        self.stop_button.setEnabled(working and not asked)
        self.stop_button.setText("Stopping…" if asked else "■ Stop")

    # --- slots ----------------------------------------------------------------------------------

    def _on_input_stop_requested(self) -> None:
        if self.stop_button.isVisible() and self.stop_button.isEnabled():
            self._jobs.spawn(self.stop(), name="chat-stop")

    def _on_stop_button_clicked(self) -> None:
        self._jobs.spawn(self.stop(), name="chat-stop")

    def _on_model_data_changed(self, *_args: object) -> None:
        self._update_stop()

    def _on_input_submitted(self) -> None:
        self._jobs.spawn(self.send(), name="chat-send")

    def _on_input_paged(self, direction: int) -> None:
        bar = self.list_view.verticalScrollBar()
        bar.triggerAction(bar.SliderAction.SliderPageStepAdd if direction > 0 else bar.SliderAction.SliderPageStepSub)

    def _on_send_button_clicked(self) -> None:
        self._jobs.spawn(self.send(), name="chat-send")

    def _on_list_view_retry_requested(self, run_id: str) -> None:
        self._jobs.spawn(self.retry(run_id), name="chat-retry")

    def _on_channel_delivered(self, run: Run) -> None:
        self.model.run_finished(run)
        row = self.model.answer_row(run.id)
        if row is not None and self.isVisible():
            announce(self.list_view, self.model.row(row).spoken())

    def _order_tab_stops(self) -> None:
        """Tab follows the screen: the conversation, the cards' buttons in it, the box, Send."""
        anchor: QWidget = self.list_view
        for card in self.list_view.cards():
            for button in (card.skip_button, card.approve_button, card.fix_button, card.close_button):
                QWidget.setTabOrder(anchor, button)
                anchor = button
        QWidget.setTabOrder(anchor, self.input)
        QWidget.setTabOrder(self.input, self.stop_button)
        QWidget.setTabOrder(self.stop_button, self.send_button)

    def _on_model_changed(self, *_args: object) -> None:
        empty = self.model.rowCount() == 0
        self.empty_label.setVisible(empty)
        self.list_view.setVisible(not empty)
        self.list_view.update_pulse()
        self._update_stop()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self.list_view.update_pulse()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 (Qt override)
        super().hideEvent(event)
        self.list_view.stop_pulse()   # no repaints for a tab nobody sees

    def answer_texts(self) -> list[str]:
        """The answers on screen, oldest first (tests and screenshots)."""
        return [row.text for row in self.model.rows() if row.kind == ANSWER]


def announce(widget: QWidget, text: str) -> None:
    """Have a screen reader say ``text`` (a finished answer), without moving the focus."""
    if not QAccessible.isActive():
        return
    event = QAccessibleAnnouncementEvent(widget, text[:500])
    QAccessible.updateAccessibility(event)

