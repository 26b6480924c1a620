"""ApprovalGate: Go ahead / Skip exactly once, validation, the list, events (moved here from test_service.py with
the escalations), and the choices a card is given when it is raised."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop import events
from openhuman_desktop.config import Settings
from openhuman_desktop.errors import Conflict, InvalidInput, NotFound
from openhuman_desktop.skills import WorkspaceFilesSkill
from openhuman_desktop.skills.base import SkillRegistry
from openhuman_desktop.store import Escalation, LogEntry, SubconsciousStore, Task
from openhuman_desktop.store.events import ActivityLogged, EscalationChanged
from openhuman_desktop.store.records import ACT_CHOICES, SKILL_CHOICES
from openhuman_desktop.subconscious.approvals import (
    SKILL_KEYWORDS,
    ApprovalGate,
    card_choices,
    is_skill_related,
    named_targets,
)
from openhuman_desktop.subconscious.intent import KeywordIntentClassifier
from openhuman_desktop.subconscious.service import SubconsciousService
from openhuman_desktop.supervisor import TaskSupervisor
from tests.fakes.clock import FakeClock
from tests.subconscious.test_service import Events, FakeEngine


class RecordingGate(ApprovalGate):
    """The gate, recording the approvals it would carry out instead of starting their runs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.approved: list[Escalation] = []

    def _start(self, escalation: Escalation) -> None:
        self.approved.append(escalation)


@pytest.fixture
def bus() -> events.EventBus:
    return events.EventBus()


@pytest.fixture
def recorded(bus: events.EventBus) -> Events:
    return Events(bus)


@pytest.fixture
async def service(store: SubconsciousStore, clock: FakeClock, bus: events.EventBus,
                  tmp_path: Path) -> AsyncIterator[SubconsciousService]:
    settings = Settings()
    yield SubconsciousService(store, clock, bus, lambda: settings, tmp_path / "HEARTBEAT.md",
                              KeywordIntentClassifier(), FakeEngine())


@pytest.fixture
async def gate(store: SubconsciousStore, clock: FakeClock, bus: events.EventBus,
               tmp_path: Path) -> AsyncIterator[RecordingGate]:
    skills = SkillRegistry()
    skills.add(WorkspaceFilesSkill(tmp_path))
    supervisor = TaskSupervisor()
    yield RecordingGate(store, clock, bus, supervisor, skills, lambda: None)
    await supervisor.cancel_all()


@pytest.fixture
def engine(gate: RecordingGate) -> RecordingGate:
    """What carries approvals out (the engine did, before the gate): it records them here."""
    return gate


# --- escalations ---------------------------------------------------------------------------------------


async def make_escalation(service: SubconsciousService, clock: FakeClock) -> tuple[Task, LogEntry, Escalation]:
    task = await service.tasks_add("Check the invoices")
    entry = await service.store.log.start(task.id, task.title, clock.now(), 1, clock.now())
    entry = await service.store.log.finish(entry.id, "escalate", "Needs approval", 10, clock.now())
    assert entry is not None
    escalation = await service.store.escalations.create(
        task_id=task.id, log_id=entry.id, title="Pay the invoice", description="Pay invoice 42",
        priority="important", now=clock.now(),
    )
    return task, entry, escalation


async def test_approve_exactly_once_under_concurrency(
    service: SubconsciousService, engine: RecordingGate, gate: RecordingGate, clock: FakeClock, recorded: Events
) -> None:
    _, _, escalation = await make_escalation(service, clock)
    results = await asyncio.gather(
        gate.escalations_approve(escalation.id), gate.escalations_approve(escalation.id),
        return_exceptions=True,
    )
    assert sorted(type(result).__name__ for result in results) == ["Conflict", "str"]
    assert escalation.id in results
    assert [approved.id for approved in engine.approved] == [escalation.id]
    stored = await service.store.escalations.get(escalation.id)
    assert stored is not None and stored.status == "approved" and stored.resolved_at == clock.now()
    assert [event.escalation.status for event in recorded.of(EscalationChanged)] == ["approved"]
    assert recorded.of(events.StatusChanged)  # pending_escalations changed


async def test_approve_and_dismiss_race_has_one_winner(
    service: SubconsciousService, engine: RecordingGate, gate: RecordingGate, clock: FakeClock
) -> None:
    _, _, escalation = await make_escalation(service, clock)
    results = await asyncio.gather(
        gate.escalations_dismiss(escalation.id), gate.escalations_approve(escalation.id),
        return_exceptions=True,
    )
    winners = [result for result in results if not isinstance(result, BaseException)]
    assert len(winners) == 1
    assert any(isinstance(result, Conflict) for result in results)
    stored = await service.store.escalations.get(escalation.id)
    assert stored is not None
    assert len(engine.approved) == (1 if stored.status == "approved" else 0)


async def test_dismiss_marks_the_log_row_skipped(
    service: SubconsciousService, engine: RecordingGate, gate: RecordingGate, clock: FakeClock, recorded: Events
) -> None:
    _, entry, escalation = await make_escalation(service, clock)
    await clock.advance(60)
    assert await gate.escalations_dismiss(escalation.id) == escalation.id
    row = await service.store.log.get(entry.id)
    assert row is not None and row.decision == "dismissed" and row.result == "Skipped"
    assert row.duration_ms == entry.duration_ms
    assert engine.approved == []
    stored = await service.store.escalations.get(escalation.id)
    assert stored is not None and stored.status == "dismissed"
    assert [event.entry.id for event in recorded.of(ActivityLogged)] == [entry.id]
    assert recorded.of(events.StatusChanged)
    with pytest.raises(Conflict, match="dismissed"):
        await gate.escalations_dismiss(escalation.id)
    with pytest.raises(Conflict):
        await gate.escalations_approve(escalation.id)
    assert engine.approved == []


async def test_escalation_ids_are_validated(service: SubconsciousService, gate: RecordingGate) -> None:
    with pytest.raises(NotFound):
        await gate.escalations_approve("nope")
    with pytest.raises(NotFound):
        await gate.escalations_dismiss("nope")
    with pytest.raises(InvalidInput) as caught:
        await gate.escalations_approve(None)
    assert caught.value.param == "escalation_id"


async def test_escalations_list(service: SubconsciousService, gate: RecordingGate, clock: FakeClock) -> None:
    _, _, first = await make_escalation(service, clock)
    await clock.advance(1)
    _, _, second = await make_escalation(service, clock)
    await gate.escalations_dismiss(first.id)
    assert [e.id for e in await gate.escalations_list()] == [second.id, first.id]
    assert [e.id for e in await gate.escalations_list("pending")] == [second.id]
    assert [e.id for e in await gate.escalations_list("dismissed")] == [first.id]
    with pytest.raises(InvalidInput) as caught:
        await gate.escalations_list("open")
    assert caught.value.param == "status"
    status = await service.status()
    assert status["pending_escalations"] == 1


async def test_a_task_with_a_pending_escalation_is_not_due(service: SubconsciousService, gate: RecordingGate,
                                                            clock: FakeClock) -> None:
    task, _, escalation = await make_escalation(service, clock)
    assert task.id not in [t.id for t in await service.store.tasks.due(clock.now())]
    await gate.escalations_dismiss(escalation.id)
    assert task.id in [t.id for t in await service.store.tasks.due(clock.now())]




# --- one card, the same everywhere: its choices are decided once, when it is raised -----------------------


@pytest.mark.parametrize("keyword", SKILL_KEYWORDS)
def test_a_skills_problem_offers_fix_in_skills(keyword: str) -> None:
    assert is_skill_related("A connection problem", f"The {keyword} needs attention.")
    assert card_choices("A connection problem", f"The {keyword} needs attention.", []) == (SKILL_CHOICES, None)


def test_the_skill_a_card_is_about_is_named_once() -> None:
    skills = [("files", "Workspace files"), ("gmail", "Gmail")]
    assert card_choices("Gmail is disconnected", "Re-auth to keep reading mail.", skills) == (SKILL_CHOICES, "gmail")
    assert card_choices("Workspace files error", "x", skills)[1] == "files"
    assert card_choices("Integration broken", "x", [("files", "Workspace files")]) == (SKILL_CHOICES, None)
    assert card_choices("Check urgent emails", "Forward 3 emails", skills) == (ACT_CHOICES, None)


async def test_a_raised_card_carries_its_choices_and_skill_in_its_json(
    gate: RecordingGate, service: SubconsciousService, clock: FakeClock
) -> None:
    from openhuman_desktop.orchestration.ports import Run

    run = Run(id="r1", thread_id="webapp:s1", channel_source="webapp", status="running", input="Is my mail ok?",
              created_at=clock.now())
    await gate.raise_card(run, "Reconnect the Workspace files skill")
    await gate.raise_card(run, "Append the date to notes/log.md")
    skill_card, plain = sorted(await gate.escalations_list("pending"), key=lambda e: e.description)[::-1]
    assert skill_card.to_json()["choices"] == ["fix_in_skills", "skip"]
    assert skill_card.to_json()["skill"] == "files" and skill_card.to_json()["kind"] == "action"
    assert plain.to_json()["choices"] == ["go_ahead", "skip"] and plain.to_json()["skill"] is None
    assert "Workspace files" in await gate.skill_advice(skill_card.id)
    assert "Skills tab" in await gate.skill_advice(skill_card.id)


def test_a_card_names_its_targets() -> None:
    assert named_targets("Append 'done' to notes/todo.md and mail anna@example.org.") == (
        "notes/todo.md", "anna@example.org")
    assert named_targets("Archive the advised report") == ()
    assert named_targets("Write `./Reports/Q3.MD`, then tell me") == ("reports/q3.md",)


def test_an_approval_licenses_the_write_tools_its_words_need_and_no_other_target(gate: RecordingGate) -> None:
    license_ = gate.license_for("Append the summary to notes/todo.md")
    assert "files_append" in license_.tools and "files_write" in license_.tools
    assert license_.allows("files_append", "notes/todo.md")
    assert license_.allows("files_append", "./Notes/todo.md")
    assert not license_.allows("files_write", "status.md")
    assert not license_.allows("notify_user", None), "an optional tool only when the words ask for it"
    assert not license_.allows("files_append", "notes/todo.md.bak") and not license_.allows("files_append", "notes")
    folder = gate.license_for("Move the 5 empty drafts in Notes/ to Notes/archive/")
    assert folder.targets == ("notes", "notes/archive")
    assert folder.allows("files_write", "Notes/archive/draft-1.md") and not folder.allows("files_write", "todo.md")


async def test_an_exact_call_card_is_raised_once_per_run_and_call(
    gate: RecordingGate, clock: FakeClock, recorded: Events
) -> None:
    from openhuman_desktop.orchestration.ports import ProposedCall, Run

    run = Run(id="r1", thread_id="desktop", channel_source="desktop", status="running", input="Tidy up",
              created_at=clock.now(), task_id="gone")  # a task removed meanwhile: the card stands on its run
    call = ProposedCall("files_write", {"path": "audit.md", "text": "x"}, "The run wanted this too.")
    await gate.raise_call_card(run, call)
    await gate.raise_call_card(run, call)  # a resumed run asks again: the same card
    await gate.raise_call_card(run, ProposedCall("files_write", {"path": "audit.md", "text": "y"}, "Another."))
    cards = await gate.escalations_list("pending")
    assert len(cards) == 2 and len(recorded.of(EscalationChanged)) == 2
    first = next(card for card in cards if card.call and card.call["arguments"]["text"] == "x")
    assert (first.task_id, first.thread_id, first.skill, first.title) == (None, "desktop", "files",
                                                                         "Allow files_write (audit.md)?")
    assert first.to_json()["call"] == {"tool": "files_write", "arguments": {"path": "audit.md", "text": "x"},
                                       "reason": "The run wanted this too.", "skill": "files"}
    assert await gate.escalations_dismiss(first.id) == first.id
