"""Cards raised in a conversation (CONTRACT §8: ``task_id`` and ``log_id`` null): one card per run and action,
Skip works as for any card, the RPC list shows its run and thread. (Approving one runs the agent in its thread:
tests/e2e/test_agent_e2e.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from openhuman_desktop import events
from openhuman_desktop.bootstrap import _CardRaiser
from openhuman_desktop.config import Settings
from openhuman_desktop.orchestration.ports import ProposedCall, Run
from openhuman_desktop.rpc.methods import bind, subconscious_methods
from openhuman_desktop.store import Escalation, SubconsciousStore
from openhuman_desktop.subconscious.intent import KeywordIntentClassifier
from openhuman_desktop.subconscious.service import SubconsciousService
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


async def conversation_card(service: SubconsciousService, clock: FakeClock) -> Escalation:
    return await service.store.escalations.raise_for_run(
        run_id="run-1", thread_id="telegram:42", title="Send the digest", description="Send the digest to Ann",
        priority="normal", now=clock.now())


async def test_skipping_a_conversation_card_works_like_any_other(
    service: SubconsciousService, clock: FakeClock
) -> None:
    card = await conversation_card(service, clock)
    assert await service.escalations_dismiss(card.id) == card.id
    stored = await service.store.escalations.get(card.id)
    assert stored is not None and stored.status == "dismissed"
    assert [e.to_json()["run_id"] for e in await service.escalations_list("dismissed")] == ["run-1"]


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
    assert notices == [], "its EscalationChanged is the announcement (issue 14: no second one)"
    assert (await service.status())["pending_escalations"] == 1


async def test_the_rpc_list_shows_a_cards_run_and_thread(service: SubconsciousService, clock: FakeClock) -> None:
    card = await conversation_card(service, clock)
    method = subconscious_methods(service)["openhuman.subconscious_escalations_list"]
    [listed] = await method.call(bind(method.params, {"status": "pending"}))
    assert listed["id"] == card.id
    assert (listed["task_id"], listed["log_id"], listed["run_id"], listed["thread_id"]) == (None, None, "run-1",
                                                                                          "telegram:42")


async def test_a_call_that_may_or_may_not_have_happened_becomes_one_card_naming_exactly_it(
    service: SubconsciousService, clock: FakeClock
) -> None:
    """Until the approval gate carries out exact calls (issue 25), the app's card raiser turns an exact call into
    a conversation card whose action names the tool and its arguments; a resumed run asking again gets it once."""
    run = Run(id="run-9", thread_id="webapp:s", channel_source="webapp", status="running",
              input="Append x to log.md", created_at=clock.now())
    call = ProposedCall("files_append", {"path": "log.md", "text": "x\n"},
                        "It had begun when the app stopped, and 'log.md' has changed since.", "files")
    raiser = _CardRaiser(service)
    for _ in range(2):
        await raiser.raise_call_card(run, call)
    [card] = await service.store.escalations.for_run("run-9")
    assert card.thread_id == "webapp:s" and card.status == "pending"
    assert card.description.startswith('Carry out exactly this tool call, once: files_append {"path": "log.md", '
                                       '"text": "x\\n"}.'), card.description
    assert "'log.md' has changed since" in card.description
