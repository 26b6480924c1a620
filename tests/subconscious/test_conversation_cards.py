"""Cards raised in a conversation (CONTRACT §8: ``task_id`` and ``log_id`` null): one card per run and action,
Skip works as for any card, the RPC list shows its run and thread. (Approving one runs the agent in its thread:
tests/e2e/test_agent_e2e.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from openhuman_desktop import events
from openhuman_desktop.config import Settings
from openhuman_desktop.rpc.methods import bind, subconscious_methods
from openhuman_desktop.skills.base import SkillRegistry
from openhuman_desktop.store import Escalation, SubconsciousStore
from openhuman_desktop.store.events import EscalationChanged
from openhuman_desktop.subconscious.approvals import ApprovalGate
from openhuman_desktop.subconscious.intent import KeywordIntentClassifier
from openhuman_desktop.subconscious.service import SubconsciousService
from openhuman_desktop.supervisor import TaskSupervisor
from tests.fakes.clock import FakeClock
from tests.subconscious.test_service import Events, FakeEngine


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


@pytest.fixture
def gate(store: SubconsciousStore, clock: FakeClock, bus: events.EventBus) -> ApprovalGate:
    """The approval gate: conversation cards are raised and decided through it (issue 25)."""
    return ApprovalGate(store, clock, bus, TaskSupervisor(), SkillRegistry(), lambda: None)


async def conversation_card(service: SubconsciousService, clock: FakeClock) -> Escalation:
    return await service.store.escalations.raise_for_run(
        run_id="run-1", thread_id="telegram:42", title="Send the digest", description="Send the digest to Ann",
        priority="normal", now=clock.now())


async def test_skipping_a_conversation_card_works_like_any_other(
    service: SubconsciousService, gate: ApprovalGate, clock: FakeClock
) -> None:
    card = await conversation_card(service, clock)
    assert await gate.escalations_dismiss(card.id) == card.id
    stored = await service.store.escalations.get(card.id)
    assert stored is not None and stored.status == "dismissed"
    assert [e.to_json()["run_id"] for e in await gate.escalations_list("dismissed")] == ["run-1"]


async def test_a_conversation_run_raises_its_card_once_and_announces_it(
    service: SubconsciousService, gate: ApprovalGate, bus: events.EventBus
) -> None:
    recorded = Events(bus)
    notices: list[events.Notified] = []
    bus.subscribe(events.Notified, notices.append)
    request = "Please look at my notes folder and tell me what is stale there, and what I should do about " * 2
    card = await gate.raise_conversation_card(run_id="run-1", thread_id="desktop", request=request,
                                                 action="  Delete notes/2019.md  ")
    assert (card.task_id, card.run_id, card.thread_id, card.description) == (None, "run-1", "desktop",
                                                                             "Delete notes/2019.md")
    assert len(card.title) == 80 and card.title.endswith("…")
    again = await gate.raise_conversation_card(run_id="run-1", thread_id="desktop", request=request,
                                                  action="Delete notes/2019.md")
    assert again == card, "a resumed run raises no second card for the same action"
    assert [e.escalation.id for e in recorded.of(EscalationChanged)] == [card.id]
    assert notices == [], "its EscalationChanged is the announcement (issue 14: no second one)"
    assert (await service.status())["pending_escalations"] == 1


async def test_the_rpc_list_shows_a_cards_run_and_thread(service: SubconsciousService, gate: ApprovalGate,
                                                         clock: FakeClock) -> None:
    card = await conversation_card(service, clock)
    method = subconscious_methods(service, gate)["openhuman.subconscious_escalations_list"]
    [listed] = await method.call(bind(method.params, {"status": "pending"}))
    assert listed["id"] == card.id
    assert (listed["task_id"], listed["log_id"], listed["run_id"], listed["thread_id"]) == (None, None, "run-1",
                                                                                          "telegram:42")
