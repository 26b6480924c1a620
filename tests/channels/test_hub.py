"""The channel hub on the real app (real ledger, real agent, fake model servers): messages become runs, a run's
events and answer go back to the channel of its thread, the outbox retries and survives a restart, cards are
routed to the channels that show them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from openhuman_desktop.channels import ChannelStatus, InboundMessage
from openhuman_desktop.channels.base import CONNECTED
from openhuman_desktop.errors import Conflict, InvalidInput
from openhuman_desktop.orchestration.ports import COMPLETED, Run
from openhuman_desktop.store.events import EscalationChanged
from openhuman_desktop.store.records import Escalation
from tests.fakes.engine_harness import Harness, open_harness


class RecordingChannel:
    """A channel that records what the hub hands it; ``failures`` makes the next deliveries raise."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.started = 0
        self.stopped = 0
        self.events: list[tuple[str, str]] = []
        self.deltas: dict[str, str] = {}
        self.delivered: list[Run] = []
        self.cards: list[Escalation] = []
        self.failures = 0

    async def start(self) -> None:
        self.started += 1

    async def stop(self) -> None:
        self.stopped += 1

    async def reconfigure(self) -> None:
        pass

    def status(self) -> ChannelStatus:
        return ChannelStatus(enabled=True, state=CONNECTED, state_reason="Recording.")

    def run_started(self, run: Run) -> None:
        self.events.append(("started", run.id))

    def progress(self, run_id: str, thread_id: str, node: str) -> None:
        self.events.append(("node", node))

    def text_streamed(self, run_id: str, thread_id: str, delta: str) -> None:
        self.deltas[run_id] = self.deltas.get(run_id, "") + delta

    async def deliver(self, run: Run) -> None:
        if self.failures:
            self.failures -= 1
            raise ConnectionError("the network is down")
        self.delivered.append(run)

    def card_changed(self, escalation: Escalation) -> None:
        self.cards.append(escalation)


async def use(h: Harness, channel: RecordingChannel) -> None:
    """``channel`` in place of the app's own channel of that name."""
    await h.services.channels.remove(channel.name)
    h.services.channels.add(channel)


async def until(condition: object, timeout: float = 20.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():  # type: ignore[operator]
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.01)


async def delivered_in_ledger(h: Harness, run_id: str) -> bool:
    return run_id not in {run.id for run in await h.services.agent.undelivered("webapp")}


async def eventually_delivered(h: Harness, run_id: str) -> None:
    """The ledger marks the run delivered (just after the channel took it)."""
    for _ in range(200):
        if await delivered_in_ledger(h, run_id):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"run {run_id} never marked delivered")


async def test_a_message_becomes_a_run_whose_events_and_answer_reach_its_channel_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        web, telegram = RecordingChannel("webapp"), RecordingChannel("telegram")
        await use(h, web)
        await use(h, telegram)
        await until(lambda: web.started and telegram.started)

        run = await h.services.channels.submit(InboundMessage("webapp:s1", "What is on my list today?"))
        await until(lambda: web.delivered)

        [answer] = web.delivered
        assert answer.id == run.id and answer.status == COMPLETED and answer.response
        assert ("started", run.id) in web.events and any(kind == "node" for kind, _ in web.events)
        assert web.deltas[run.id].strip() == answer.response.strip()
        assert not telegram.events and not telegram.delivered and not telegram.deltas
        await eventually_delivered(h, run.id)
        assert [r.id for r in await h.services.channels.history("webapp:s1")] == [run.id]


async def test_a_message_handed_in_twice_with_its_key_is_one_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        channel = RecordingChannel("telegram")
        await use(h, channel)
        message = InboundMessage("telegram:42", "Hello there", source_key="telegram:7:1001")
        first = await h.services.channels.submit(message)
        again = await h.services.channels.submit(message)
        await until(lambda: channel.delivered)
        late = await h.services.channels.submit(message)  # after the run finished, too

        assert first.id == again.id == late.id
        assert len(await h.services.agent.runs_list("telegram:42")) == 1
        await asyncio.sleep(0.1)
        assert [run.id for run in channel.delivered] == [first.id]


async def test_an_answer_the_channel_could_not_take_is_retried_with_back_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        channel = RecordingChannel("webapp")
        channel.failures = 2
        await use(h, channel)
        run = await h.services.channels.submit(InboundMessage("webapp:s1", "Hello"))
        await h.services.agent.wait(run.id)

        await until(lambda: h.clock.sleeping >= 1)
        assert not channel.delivered and not await delivered_in_ledger(h, run.id)
        await h.clock.advance(1)
        await until(lambda: h.clock.sleeping >= 1)
        await h.clock.advance(2)
        await until(lambda: channel.delivered)
        retries = [r.getMessage() for r in caplog.records if "was not delivered" in r.getMessage()]
        assert [m.rsplit("again in ", 1)[1] for m in retries] == ["1 s", "2 s"]
        assert [r.id for r in channel.delivered] == [run.id]


async def test_an_answer_not_delivered_before_a_restart_is_delivered_at_the_next_start_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        # No web app channel: the run finishes with nobody to take its answer (as if killed right after).
        await h.services.channels.remove("webapp")
        run = await h.services.agent.send("Hello", "webapp:s1")
        await h.services.agent.wait(run.id)
        assert [r.id for r in await h.services.agent.undelivered("webapp")] == [run.id]

        channel = RecordingChannel("webapp")
        await use(h, channel)  # the channel comes up (the next start): the outbox hands it over
        await until(lambda: channel.delivered)
        assert [r.id for r in channel.delivered] == [run.id]
        await eventually_delivered(h, run.id)

        await h.services.channels.remove("webapp")
        again = RecordingChannel("webapp")
        await use(h, again)
        await until(lambda: again.started)
        await asyncio.sleep(0.1)
        assert not again.delivered


async def test_cards_go_to_their_conversations_channel_and_heartbeat_cards_to_every_channel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        web, telegram = RecordingChannel("webapp"), RecordingChannel("telegram")
        await use(h, web)
        await use(h, telegram)
        card = await h.approvals.raise_conversation_card(run_id="r1", thread_id="telegram:42", request="Tidy up",
                                                       action="Delete the old drafts")
        heartbeat = await h.service.store.escalations.raise_for_task(
            task_id=(await h.add_task("Check the inbox")).id, log_id=None, title="Check the inbox",
            description="Archive 3 newsletters", priority="normal", now=h.clock.now(), thread_id="subconscious:t")
        assert heartbeat is not None
        h.services.bus.publish(EscalationChanged(heartbeat))

        assert [c.id for c in telegram.cards] == [card.id, heartbeat.id]
        assert [c.id for c in web.cards] == [heartbeat.id]
        assert {c.id for c in await h.services.channels.pending_cards("telegram")} == {card.id, heartbeat.id}
        assert {c.id for c in await h.services.channels.pending_cards("webapp")} == {heartbeat.id}

        await h.services.channels.dismiss(card.id)
        assert telegram.cards[-1].id == card.id and telegram.cards[-1].status == "dismissed"
        with pytest.raises(Conflict):
            await h.services.channels.dismiss(card.id)


async def test_status_without_channels_and_with_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        hub = h.services.channels
        for name in ("telegram", "webapp", "desktop"):
            await hub.remove(name)
        status = hub.status()
        assert set(status) == {"telegram", "webapp", "desktop"}
        assert status["telegram"]["enabled"] is False and status["telegram"]["state"] == "disabled"
        assert status["webapp"]["enabled"] is False and status["webapp"]["url"] is None
        assert status["desktop"]["enabled"] is False
        hub.add(RecordingChannel("desktop"))
        assert hub.status()["desktop"] == {"enabled": True, "state": "connected", "state_reason": "Recording."}


async def test_only_channel_threads_can_be_submitted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        for thread in ("subconscious:t1", "cli", "nonsense"):
            with pytest.raises(InvalidInput):
                await h.services.channels.submit(InboundMessage(thread, "hello"))
        assert not await h.services.agent.runs_list()
