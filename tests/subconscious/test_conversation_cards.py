"""Cards raised in a conversation (CONTRACT §8: ``task_id`` and ``log_id`` null): approving one is the agent's job
in that thread (a hook the composition root wires to the agent), Skip works as for any card, and start-up's
recovery of unfinished approvals never treats one as "its task was disabled"."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from openhuman_desktop import events
from openhuman_desktop.config import Settings
from openhuman_desktop.errors import Conflict, LlmUnavailable
from openhuman_desktop.rpc.methods import bind, subconscious_methods
from openhuman_desktop.store import Escalation, SubconsciousStore
from openhuman_desktop.subconscious.intent import KeywordIntentClassifier
from openhuman_desktop.subconscious.service import NO_AGENT, SubconsciousService
from tests.fakes.clock import FakeClock
from tests.fakes.engine_harness import open_harness
from tests.subconscious.test_service import Events, FakeEngine


class Agent:
    """The agent's side of the hook: records the cards it was asked to carry out."""

    def __init__(self, failure: Exception | None = None) -> None:
        self.carried_out: list[Escalation] = []
        self.failure = failure

    async def __call__(self, escalation: Escalation) -> None:
        if self.failure is not None:
            raise self.failure
        self.carried_out.append(escalation)


@pytest.fixture
def engine() -> FakeEngine:
    return FakeEngine()


@pytest.fixture
def bus() -> events.EventBus:
    return events.EventBus()


@pytest.fixture
def service(store: SubconsciousStore, clock: FakeClock, bus: events.EventBus, engine: FakeEngine,
            tmp_path: Path) -> SubconsciousService:
    settings = Settings()
    return SubconsciousService(store, clock, bus, lambda: settings, tmp_path / "HEARTBEAT.md",
                               KeywordIntentClassifier(), engine)


async def conversation_card(service: SubconsciousService, clock: FakeClock) -> Escalation:
    return await service.store.escalations.raise_for_run(
        run_id="run-1", thread_id="telegram:42", title="Send the digest", description="Send the digest to Ann",
        priority="normal", now=clock.now())


async def test_approving_a_conversation_card_goes_to_the_agent_not_the_heartbeat(
    service: SubconsciousService, clock: FakeClock, engine: FakeEngine, bus: events.EventBus
) -> None:
    agent = Agent()
    service.attach_conversation_approvals(agent)
    card = await conversation_card(service, clock)
    recorded = Events(bus)

    assert await service.escalations_approve(card.id) == card.id

    assert engine.approved == [], "the heartbeat's executor has no task to run it with"
    [handed] = agent.carried_out
    assert (handed.id, handed.status, handed.thread_id, handed.run_id) == (card.id, "approved", "telegram:42",
                                                                           "run-1")
    assert [e.id for e in await service.store.escalations.carrying_out()] == [card.id]
    assert [event.escalation.status for event in recorded.of(events.EscalationChanged)] == ["approved"]
    with pytest.raises(Conflict, match="already approved"):
        await service.escalations_approve(card.id)

    finished = await service.finish_conversation_approval(card.id, failed=False, result="Sent.")
    assert finished is not None and finished.status == "approved"
    assert await service.store.escalations.carrying_out() == []
    assert await service.finish_conversation_approval(card.id, failed=False, result="Sent.") is None


async def test_without_the_agent_a_conversation_card_cannot_be_approved_and_stays_pending(
    service: SubconsciousService, clock: FakeClock, engine: FakeEngine
) -> None:
    card = await conversation_card(service, clock)
    with pytest.raises(Conflict) as caught:
        await service.escalations_approve(card.id)
    assert str(caught.value) == NO_AGENT
    stored = await service.store.escalations.get(card.id)
    assert stored is not None and stored.status == "pending" and engine.approved == []


async def test_a_conversation_card_the_agent_cannot_start_comes_back_saying_why(
    service: SubconsciousService, clock: FakeClock
) -> None:
    service.attach_conversation_approvals(Agent(LlmUnavailable("The reasoning model at http://x does not answer.")))
    card = await conversation_card(service, clock)
    await service.escalations_approve(card.id)
    stored = await service.store.escalations.get(card.id)
    assert stored is not None and stored.status == "pending"
    assert "does not answer" in stored.note and "Go ahead" in stored.note
    assert await service.store.escalations.carrying_out() == []


async def test_skipping_a_conversation_card_works_like_any_other(
    service: SubconsciousService, clock: FakeClock
) -> None:
    card = await conversation_card(service, clock)
    assert await service.escalations_dismiss(card.id) == card.id
    stored = await service.store.escalations.get(card.id)
    assert stored is not None and stored.status == "dismissed"
    assert [e.to_json()["run_id"] for e in await service.escalations_list("dismissed")] == ["run-1"]


async def test_a_conversation_approval_cut_short_by_a_crash_is_handed_to_the_agent_again_at_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        h.service.attach_conversation_approvals(Agent())
        card = await h.services.store.escalations.raise_for_run(
            run_id="run-1", thread_id="desktop", title="Tidy", description="Delete old.md", priority="normal",
            now=h.clock.now())
        monkeypatch.setattr(h.engine, "approve", lambda escalation: None)
        # The process dies right after Go ahead was committed, before the agent got the card.
        monkeypatch.setattr(h.service, "carry_out_conversation", _never)
        await h.service.escalations_approve(card.id)
    monkeypatch.undo()
    async with open_harness(tmp_path, monkeypatch, start=False) as h:
        agent = Agent()
        h.service.attach_conversation_approvals(agent)
        await h.start()

        async def handed() -> bool:
            await asyncio.sleep(0)
            return bool(agent.carried_out)

        await h.wait_until(handed)
        assert [e.id for e in agent.carried_out] == [card.id]
        stored = await h.services.store.escalations.get(card.id)
        assert stored is not None and stored.status == "approved" and stored.note == "", (
            "not reopened as if a task had been disabled")


async def _never(escalation: Escalation) -> None:
    return None


async def test_a_conversation_run_raises_its_card_once_and_announces_it(
    service: SubconsciousService, bus: events.EventBus
) -> None:
    recorded = Events(bus)
    notices: list[events.Notified] = []
    bus.subscribe(events.Notified, notices.append)
    request = "Please look at my notes folder and tell me what is stale there, and what I should do about " * 2
    card = await service.raise_conversation_card(run_id="run-1", thread_id="desktop", request=request,
                                                 action="  Delete notes/2019.md  ")
    assert (card.task_id, card.run_id, card.thread_id, card.description) == (None, "run-1", "desktop",
                                                                             "Delete notes/2019.md")
    assert len(card.title) == 80 and card.title.endswith("…")
    again = await service.raise_conversation_card(run_id="run-1", thread_id="desktop", request=request,
                                                  action="Delete notes/2019.md")
    assert again == card, "a resumed run raises no second card for the same action"
    assert [e.escalation.id for e in recorded.of(events.EscalationChanged)] == [card.id]
    assert [n.title for n in notices] == ["Approval needed"]
    assert (await service.status())["pending_escalations"] == 1


async def test_the_rpc_list_shows_a_cards_run_and_thread(service: SubconsciousService, clock: FakeClock) -> None:
    card = await conversation_card(service, clock)
    method = subconscious_methods(service)["openhuman.subconscious_escalations_list"]
    [listed] = await method.call(bind(method.params, {"status": "pending"}))
    assert listed["id"] == card.id
    assert (listed["task_id"], listed["log_id"], listed["run_id"], listed["thread_id"]) == (None, None, "run-1",
                                                                                          "telegram:42")
