"""The desktop channel: the hub's port to the Chat tab (thread ``desktop``), as Qt signals."""

from __future__ import annotations

import logging

from PySide6.QtCore import QObject, Signal

from openhuman_desktop.channels.base import CONNECTED, STARTING, STOPPED, ChannelState, ChannelStatus
from openhuman_desktop.orchestration.ports import Run
from openhuman_desktop.store import Escalation

log = logging.getLogger(__name__)

THREAD_ID = "desktop"
NAME = "desktop"


class DesktopChannel(QObject):
    """The Channel the hub drives for the window's Chat tab.

    Every notification only emits a signal (the bus calls it synchronously; the Chat tab's model buffers
    the streamed text and repaints at most every 40 ms). ``deliver`` hands the final answer over and
    returns: the window shows it even while hidden, so it never needs to be tried again. Only cards of
    the ``desktop`` thread are passed on: heartbeat cards already have their place on the Subconscious tab.
    """

    name = NAME

    started = Signal(object)           # Run
    progressed = Signal(str, str)      # run id, node
    streamed = Signal(str, str)        # run id, delta
    delivered = Signal(object)         # Run
    card = Signal(object)              # Escalation
    status_changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._state: ChannelState = STARTING

    async def start(self) -> None:
        self._state = CONNECTED
        self.status_changed.emit()

    async def stop(self) -> None:
        self._state = STOPPED
        self.status_changed.emit()

    async def reconfigure(self) -> None:
        """The desktop channel has no settings of its own."""

    def status(self) -> ChannelStatus:
        reasons = {STARTING: "The Chat tab is starting.", CONNECTED: "The Chat tab of the window.",
                   STOPPED: "The window has closed."}
        return ChannelStatus(enabled=self._state != STOPPED, state=self._state, state_reason=reasons[self._state])

    def run_started(self, run: Run) -> None:
        if run.thread_id == THREAD_ID:
            self.started.emit(run)

    def progress(self, run_id: str, thread_id: str, node: str) -> None:
        if thread_id == THREAD_ID:
            self.progressed.emit(run_id, node)

    def text_streamed(self, run_id: str, thread_id: str, delta: str) -> None:
        if thread_id == THREAD_ID:
            self.streamed.emit(run_id, delta)

    async def deliver(self, run: Run) -> None:
        if run.thread_id == THREAD_ID:
            self.delivered.emit(run)
        else:
            log.info("desktop channel: run %s of thread %s has no place in the Chat tab", run.id, run.thread_id)

    def card_changed(self, escalation: Escalation) -> None:
        if escalation.thread_id == THREAD_ID:
            self.card.emit(escalation)
