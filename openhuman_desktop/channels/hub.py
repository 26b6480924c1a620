"""The hub: messages from every channel become runs; each run's progress, answer and cards go back to the
channel its thread belongs to."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from openhuman_desktop import channel_names, events
from openhuman_desktop.channels.base import DISABLED, Approvals, Channel, ChannelStatus, InboundMessage
from openhuman_desktop.clock import Clock
from openhuman_desktop.errors import InvalidInput, NotFound
from openhuman_desktop.orchestration.events import NodeFinished, RunFinished, RunStarted, TextStreamed
from openhuman_desktop.orchestration.ports import Run
from openhuman_desktop.orchestration.service import AgentService, channel_of
from openhuman_desktop.store.events import EscalationChanged
from openhuman_desktop.store.records import Escalation
from openhuman_desktop.supervisor import TaskSupervisor, cancel_and_wait

log = logging.getLogger(__name__)

CHANNEL_NAMES = channel_names.HUB_CHANNELS
FIRST_RETRY_SECONDS = 1.0
LONGEST_RETRY_SECONDS = 60.0
HISTORY_LIMIT = 50
START_WAIT_SECONDS = 2.0


class ChannelHub:
    """Routes between the channels and the agent.

    A message a channel hands in (:meth:`submit`) becomes a run on its thread; the permission is the front-end
    agent's to decide from the words alone, never the channel's. Run events from the bus reach the channel of
    the run's thread; a finished run's answer goes through a per-channel outbox that retries until the channel
    has taken it and then marks it delivered in the ledger (so after a crash it is handed over again, and only
    if it had not been). A card raised in a conversation goes to that conversation's channel; a heartbeat card
    to every channel.
    """

    def __init__(self, agent: AgentService, approvals: Approvals, bus: events.EventBus, clock: Clock,
                 supervisor: TaskSupervisor) -> None:
        self._agent = agent
        self._approvals = approvals
        self._bus = bus
        self._clock = clock
        self._supervisor = supervisor
        self._channels: dict[str, Channel] = {}
        self._outboxes: dict[str, asyncio.Queue[Run]] = {}
        self._queued: dict[str, set[str]] = {}
        self._workers: dict[str, asyncio.Task[None]] = {}
        self._starting: dict[str, asyncio.Task[None]] = {}
        self._unsubscribe: list[Callable[[], None]] = []
        self._started = False

    # --- life cycle ------------------------------------------------------------------------------------

    def add(self, channel: Channel) -> None:
        """Register a channel (before :meth:`start`; the desktop's, once the window exists, after it)."""
        if channel.name not in CHANNEL_NAMES:
            raise ValueError(f"unknown channel {channel.name!r}")
        if channel.name in self._channels:
            raise ValueError(f"channel {channel.name!r} is registered already")
        self._channels[channel.name] = channel
        if self._started:
            self._spawn_start(channel)

    def channel(self, name: str) -> Channel | None:
        """The registered channel called ``name`` (the tray asks the web app for its address)."""
        return self._channels.get(name)

    async def remove(self, name: str) -> None:
        """Stop and forget a channel (the desktop's, when the window goes)."""
        channel = self._channels.pop(name, None)
        await cancel_and_wait(self._starting.pop(name, None))
        await cancel_and_wait(self._workers.pop(name, None))
        self._outboxes.pop(name, None)
        self._queued.pop(name, None)
        if channel is not None:
            await self._stop_channel(channel)

    async def start(self) -> None:
        """Listen to run events and start every channel (after the unfinished runs have resumed). A channel
        that is up within :data:`START_WAIT_SECONDS` is up when this returns; a slower one (a network that does not
        answer) goes on coming up in the background, its status saying ``starting``: start-up never waits long."""
        self._started = True
        self._unsubscribe = [
            self._bus.subscribe(RunStarted, self._on_run_started),
            self._bus.subscribe(NodeFinished, self._on_node_finished),
            self._bus.subscribe(TextStreamed, self._on_text_streamed),
            self._bus.subscribe(RunFinished, self._on_run_finished),
            self._bus.subscribe(EscalationChanged, self._on_escalation_changed),
        ]
        starting = [self._spawn_start(channel) for channel in list(self._channels.values())]
        if starting:
            await asyncio.wait(starting, timeout=START_WAIT_SECONDS)

    async def reconfigure(self) -> None:
        """config.toml changed: each channel restarts if its own settings did."""
        for channel in list(self._channels.values()):
            try:
                await channel.reconfigure()
            except Exception:
                log.exception("channel %s: applying the new settings failed", channel.name)
            self._bus.publish(events.StatusChanged())

    async def aclose(self) -> None:
        """Stop every channel and its outbox (answers not yet delivered are delivered at the next start)."""
        self._started = False
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe.clear()
        for name in list(self._channels):
            await self.remove(name)

    def _spawn_start(self, channel: Channel) -> asyncio.Task[None]:
        task = self._starting[channel.name] = self._supervisor.spawn(self._start_channel(channel),
                                                                     name=f"channel-{channel.name}-start")
        return task

    async def _start_channel(self, channel: Channel) -> None:
        try:
            await channel.start()
        except Exception:  # a channel must never keep the others (or the app) from starting
            log.exception("channel %s failed to start", channel.name)
        self._bus.publish(events.StatusChanged())
        for run in await self._agent.undelivered(channel.name):
            self._enqueue(run)

    async def _stop_channel(self, channel: Channel) -> None:
        try:
            await channel.stop()
        except Exception:
            log.exception("channel %s failed to stop cleanly", channel.name)

    # --- what channels call ----------------------------------------------------------------------------

    async def submit(self, message: InboundMessage) -> Run:
        """Start the run of a message (or, for a ``source_key`` seen before, return the run it already has).

        Raises:
            InvalidInput: empty or over-long text, or a thread that is not one of a channel's.
        """
        if channel_of(message.thread_id) not in CHANNEL_NAMES:
            raise InvalidInput("thread_id", "must be a thread of the desktop, the web app or Telegram")
        return await self._agent.send(message.text, message.thread_id, source_key=message.source_key)

    async def stop(self, run_id: str, thread_id: str) -> Run:
        """Stop a run of the conversation ``thread_id`` (the web page's Stop): it ends ``cancelled``, "Stopped by
        you.", and its channel gets that as its answer.

        Raises:
            NotFound: no such run in that conversation (another's runs are not this page's to stop).
            Conflict: it had already finished.
        """
        run = await self._agent.run_get(run_id)
        if run.thread_id != thread_id:
            raise NotFound(f"No run with id {run_id!r} in this conversation.")
        return await self._agent.stop(run_id)

    async def stop_thread(self, thread_id: str) -> list[Run]:
        """Stop the runs of ``thread_id`` that have not finished (Telegram's /stop); none: an empty list."""
        return await self._agent.stop_thread(thread_id)

    async def approve(self, escalation_id: str) -> None:
        """Go ahead (or Retry) on a card. Raises NotFound / Conflict (already resolved: nothing is done)."""
        await self._approvals.escalations_approve(escalation_id)

    async def dismiss(self, escalation_id: str) -> None:
        """Skip a card. Raises NotFound / Conflict."""
        await self._approvals.escalations_dismiss(escalation_id)

    async def skill_advice(self, escalation_id: str) -> str:
        """Fix in Skills off the desktop: the state of the card's skill and where to fix it. Raises NotFound."""
        return await self._approvals.skill_advice(escalation_id)

    async def pending_cards(self, channel: str) -> list[Escalation]:
        """The pending cards ``channel`` shows: its conversations' cards and every heartbeat card."""
        return [card for card in await self._approvals.escalations_list("pending") if _shown_on(card, channel)]

    async def history(self, thread_id: str, limit: int = HISTORY_LIMIT) -> list[Run]:
        """The thread's latest runs, oldest first (a page reloaded, a chat opened)."""
        if not 1 <= limit <= 1000:
            raise InvalidInput("limit", "must be a whole number from 1 to 1000")
        return list(reversed(await self._agent.runs_list(thread_id, None, limit)))

    def status(self) -> dict[str, Any]:
        """``openhuman.channels_status`` (CONTRACT §9)."""
        statuses: dict[str, Any] = {name: self._status_of(name).to_json() for name in CHANNEL_NAMES}
        statuses[channel_names.WEBAPP] = {"url": None, **statuses[channel_names.WEBAPP]}  # its url even when off
        return statuses

    def _status_of(self, name: str) -> ChannelStatus:
        channel = self._channels.get(name)
        if channel is None:
            reason = "No window (headless)." if name == channel_names.DESKTOP else "Not started."
            return ChannelStatus(enabled=False, state=DISABLED, state_reason=reason)
        return channel.status()

    # --- run events to channels ------------------------------------------------------------------------

    def _channel_of_thread(self, thread_id: str | None) -> Channel | None:
        if not thread_id:
            return None
        return self._channels.get(thread_id.split(":", 1)[0])

    def _on_run_started(self, event: RunStarted) -> None:
        channel = self._channels.get(event.run.channel_source)
        if channel is not None:
            channel.run_started(event.run)

    def _on_node_finished(self, event: NodeFinished) -> None:
        channel = self._channel_of_thread(event.thread_id)
        if channel is not None:
            channel.progress(event.run_id, event.thread_id, event.node)

    def _on_text_streamed(self, event: TextStreamed) -> None:
        channel = self._channels.get(event.channel_source)
        if channel is not None:
            channel.text_streamed(event.run_id, event.thread_id, event.delta)

    def _on_run_finished(self, event: RunFinished) -> None:
        if event.run.channel_source in self._channels:
            self._enqueue(event.run)

    def _on_escalation_changed(self, event: EscalationChanged) -> None:
        card: Escalation = event.escalation
        for name, channel in list(self._channels.items()):
            if _shown_on(card, name):
                channel.card_changed(card)

    # --- the outbox ------------------------------------------------------------------------------------

    def _enqueue(self, run: Run) -> None:
        name = run.channel_source
        if name not in self._channels or not self._started:
            return  # delivered when the channel is next started (the ledger still says undelivered)
        queued = self._queued.setdefault(name, set())
        if run.id in queued:
            return
        queued.add(run.id)
        self._outboxes.setdefault(name, asyncio.Queue()).put_nowait(run)
        worker = self._workers.get(name)
        if worker is None or worker.done():
            self._workers[name] = self._supervisor.spawn(self._deliver_all(name), name=f"channel-{name}-outbox")

    async def _deliver_all(self, name: str) -> None:
        outbox = self._outboxes[name]
        while True:
            run = await outbox.get()
            wait = FIRST_RETRY_SECONDS
            while True:
                channel = self._channels.get(name)
                if channel is None:
                    return
                try:
                    await channel.deliver(run)
                    break
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    log.warning("channel %s: the answer of run %s was not delivered (%s); trying again in %.0f s",
                                name, run.id, exc, wait)
                    await self._clock.sleep(wait)
                    wait = min(wait * 2, LONGEST_RETRY_SECONDS)
            await self._agent.mark_delivered(run.id)
            self._queued.get(name, set()).discard(run.id)


def _shown_on(card: Escalation, channel: str) -> bool:
    """A conversation's card belongs to its channel; a heartbeat card (``subconscious:`` thread) to all."""
    thread = card.thread_id or ""
    source = thread.split(":", 1)[0]
    return source == channel or source not in CHANNEL_NAMES
