"""SubconsciousService: validation, the store behind it, events, system tasks and escalations."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop import events
from openhuman_desktop.config import Settings
from openhuman_desktop.errors import Conflict, InvalidInput, NotFound
from openhuman_desktop.store import SubconsciousStore
from openhuman_desktop.store.events import ActivityLogged, EscalationChanged, TaskChanged, TaskRemoved
from openhuman_desktop.subconscious.defaults import DEFAULT_TASKS
from openhuman_desktop.subconscious.intent import KeywordIntentClassifier
from openhuman_desktop.subconscious.service import RuntimeStatus, SubconsciousService
from tests.fakes.clock import FakeClock

DEFAULT_TITLES = [title for _, title, _ in DEFAULT_TASKS]


class FakeEngine:
    """Records what the service asks of the engine."""

    def __init__(self) -> None:
        self.ticks: list[str] = []
        self.paused = False

    def request_tick(self, reason: str) -> None:
        self.ticks.append(reason)

    def runtime_status(self) -> RuntimeStatus:
        return RuntimeStatus("paused" if self.paused else "idle", "test", None)

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        self.paused = False


class Events:
    """Every event published on the bus, in order."""

    def __init__(self, bus: events.EventBus) -> None:
        self.seen: list[events.Event] = []
        for kind in (TaskChanged, TaskRemoved, ActivityLogged, EscalationChanged,
                     events.StatusChanged):
            bus.subscribe(kind, self.seen.append)

    def of(self, kind: type[events.Event]) -> list[Any]:
        return [event for event in self.seen if isinstance(event, kind)]

    def clear(self) -> None:
        self.seen.clear()


@pytest.fixture
def bus() -> events.EventBus:
    return events.EventBus()


@pytest.fixture
def engine() -> FakeEngine:
    return FakeEngine()


@pytest.fixture
def recorded(bus: events.EventBus) -> Events:
    return Events(bus)


@pytest.fixture
async def service(
    store: SubconsciousStore, clock: FakeClock, bus: events.EventBus, engine: FakeEngine, tmp_path: Path
) -> AsyncIterator[SubconsciousService]:
    settings = Settings()
    yield SubconsciousService(
        store, clock, bus, lambda: settings, tmp_path / "HEARTBEAT.md", KeywordIntentClassifier(), engine
    )


# --- tasks_add ---------------------------------------------------------------------------------------


async def test_add_trims_and_collapses_whitespace(service: SubconsciousService, clock: FakeClock) -> None:
    task = await service.tasks_add("  Check\tthe   backups \n")
    assert task.title == "Check the backups"
    assert task.source == "user" and task.origin == "user"
    assert task.recurrence == "pending"
    assert task.enabled and not task.completed
    assert task.next_run_at is None and task.last_run_at is None
    assert task.created_at == clock.now()
    assert task.intent == "read" and task.intent_source == "keyword"
    assert await service.store.tasks.get(task.id) == task


async def test_add_classifies_write_intent(service: SubconsciousService) -> None:
    assert (await service.tasks_add("Send the weekly report to Anna")).intent == "write"


@pytest.mark.parametrize("title", ["", "   ", "\t\n", "x" * 501, None, 5, ["a"], {"t": 1}])
async def test_add_rejects_bad_titles(service: SubconsciousService, title: object) -> None:
    with pytest.raises(InvalidInput) as caught:
        await service.tasks_add(title)
    assert caught.value.param == "title"
    assert "title" in str(caught.value)
    assert await service.tasks_list() == []


async def test_add_accepts_exactly_500_characters(service: SubconsciousService) -> None:
    assert len((await service.tasks_add("y" * 500)).title) == 500
    assert len((await service.tasks_add("  " + "z" * 500 + "  ")).title) == 500


@pytest.mark.parametrize("schedule", ["weekly", "cron:* * *", "cron:0 0 31 2 *", "cron:99 * * * *", 7, ["once"]])
async def test_add_rejects_bad_schedules(service: SubconsciousService, schedule: object) -> None:
    with pytest.raises(InvalidInput) as caught:
        await service.tasks_add("Valid title", schedule)
    assert caught.value.param == "recurrence"
    assert await service.tasks_list() == []


async def test_add_with_cron_sets_the_next_run(service: SubconsciousService, clock: FakeClock) -> None:
    task = await service.tasks_add("Morning summary", "cron:*/15 * * * *")
    assert task.recurrence == "cron:*/15 * * * *"
    assert task.next_run_at is not None
    assert clock.now() < task.next_run_at <= clock.now() + 15 * 60
    assert task.next_run_at % 900 == 0


async def test_add_once(service: SubconsciousService) -> None:
    task = await service.tasks_add("Do it once", "once")
    assert task.recurrence == "once" and task.next_run_at is None


async def test_add_publishes_task_changed(service: SubconsciousService, recorded: Events) -> None:
    task = await service.tasks_add("A task")
    assert [event.task for event in recorded.of(TaskChanged)] == [task]


# --- tasks_update ------------------------------------------------------------------------------------


async def test_update_title(service: SubconsciousService, recorded: Events, clock: FakeClock) -> None:
    task = await service.tasks_add("Check the news")
    recorded.clear()
    await clock.advance(10)
    updated = await service.tasks_update(task.id, title="  Send   the news  ")
    assert updated.title == "Send the news"
    assert updated.intent == "write"  # re-classified: the user never chose the intent
    assert updated.id == task.id and updated.created_at == task.created_at
    assert updated.updated_at == clock.now()
    assert [event.task for event in recorded.of(TaskChanged)] == [updated]


async def test_update_enabled(service: SubconsciousService) -> None:
    task = await service.tasks_add("Toggle me")
    assert (await service.tasks_update(task.id, enabled=False)).enabled is False
    assert (await service.tasks_list(enabled_only=True)) == []
    assert (await service.tasks_update(task.id, enabled=True)).enabled is True
    with pytest.raises(InvalidInput) as caught:
        await service.tasks_update(task.id, enabled="yes")
    assert caught.value.param == "enabled"


async def test_update_recurrence(service: SubconsciousService) -> None:
    task = await service.tasks_add("Reschedule me")
    cron = await service.tasks_update(task.id, recurrence_text="cron:0 9 * * *")
    assert cron.recurrence == "cron:0 9 * * *" and cron.next_run_at is not None
    back = await service.tasks_update(task.id, recurrence_text="pending")
    assert back.recurrence == "pending" and back.next_run_at is None
    with pytest.raises(InvalidInput) as caught:
        await service.tasks_update(task.id, recurrence_text="cron:0 0 31 2 *")
    assert caught.value.param == "recurrence"
    assert (await service.store.tasks.get(task.id)) == back


async def test_update_recurrence_reopens_a_completed_task(service: SubconsciousService) -> None:
    task = await service.tasks_add("Once only", "once")
    await service.store.tasks.update(task.id, 1.0, completed=True)
    reopened = await service.tasks_update(task.id, recurrence_text="pending")
    assert reopened.completed is False


@pytest.mark.parametrize("intent", ["read", "write"])
async def test_update_intent(service: SubconsciousService, intent: str) -> None:
    task = await service.tasks_add("Something")
    updated = await service.tasks_update(task.id, intent=intent)
    assert updated.intent == intent and updated.intent_source == "user"
    # A later rename keeps the user's choice.
    renamed = await service.tasks_update(task.id, title="Send something else" if intent == "read" else "Check it")
    assert renamed.intent == intent


@pytest.mark.parametrize("intent", ["READ", "delete", "", 1, True, ["read"]])
async def test_update_rejects_bad_intent(service: SubconsciousService, intent: object) -> None:
    task = await service.tasks_add("Something")
    with pytest.raises(InvalidInput) as caught:
        await service.tasks_update(task.id, intent=intent)
    assert caught.value.param == "intent"


async def test_update_rejects_a_bad_title(service: SubconsciousService) -> None:
    task = await service.tasks_add("Something")
    with pytest.raises(InvalidInput) as caught:
        await service.tasks_update(task.id, title="   ")
    assert caught.value.param == "title"


async def test_update_without_changes_returns_the_task(service: SubconsciousService, recorded: Events) -> None:
    task = await service.tasks_add("Same")
    recorded.clear()
    assert await service.tasks_update(task.id) == task
    assert await service.tasks_update(task.id, title="Same", recurrence_text="pending") == task
    assert recorded.seen == []


async def test_update_unknown_task(service: SubconsciousService) -> None:
    with pytest.raises(NotFound):
        await service.tasks_update("no-such-id", enabled=False)
    with pytest.raises(InvalidInput) as caught:
        await service.tasks_update(42, enabled=False)
    assert caught.value.param == "task_id"


async def test_system_tasks_can_be_disabled_and_rescheduled(service: SubconsciousService) -> None:
    await service.seed_defaults()
    system = (await service.tasks_list())[0]
    updated = await service.tasks_update(system.id, enabled=False, recurrence_text="cron:0 * * * *")
    assert updated.enabled is False and updated.recurrence == "cron:0 * * * *"


# --- tasks_remove ------------------------------------------------------------------------------------


async def test_remove_user_task(service: SubconsciousService, recorded: Events) -> None:
    task = await service.tasks_add("Remove me")
    recorded.clear()
    assert await service.tasks_remove(task.id) == task.id
    assert await service.store.tasks.get(task.id) is None
    assert [event.task_id for event in recorded.of(TaskRemoved)] == [task.id]
    with pytest.raises(NotFound):
        await service.tasks_remove(task.id)


async def test_system_task_cannot_be_removed(service: SubconsciousService, recorded: Events) -> None:
    await service.seed_defaults()
    system = (await service.tasks_list())[0]
    recorded.clear()
    with pytest.raises(Conflict):
        await service.tasks_remove(system.id)
    assert await service.store.tasks.get(system.id) == system
    assert recorded.seen == []


async def test_remove_validates_the_id(service: SubconsciousService) -> None:
    with pytest.raises(InvalidInput):
        await service.tasks_remove("")
    with pytest.raises(NotFound):
        await service.tasks_remove("missing")


# --- seed_defaults -----------------------------------------------------------------------------------


async def test_seed_defaults_once(service: SubconsciousService, recorded: Events) -> None:
    await service.seed_defaults()
    first = await service.tasks_list()
    assert [task.title for task in first] == DEFAULT_TITLES
    assert all(task.source == "system" and task.origin == "default" for task in first)
    assert len(recorded.of(TaskChanged)) == 3
    recorded.clear()
    await service.seed_defaults()
    assert await service.tasks_list() == first
    assert recorded.seen == []


async def test_a_renamed_default_is_not_seeded_again(service: SubconsciousService) -> None:
    await service.seed_defaults()
    default = (await service.tasks_list())[0]
    renamed = await service.tasks_update(default.id, title="Look at my skills")
    await service.seed_defaults()
    titles = [task.title for task in await service.tasks_list()]
    assert len(titles) == 3
    assert renamed.title in titles and DEFAULT_TITLES[0] not in titles


async def test_seeding_survives_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    from openhuman_desktop.store import open_subconscious_store

    path = tmp_path / "restart.db"
    settings = Settings()
    for _ in range(2):
        store = await open_subconscious_store(path)
        try:
            service = SubconsciousService(store, clock, events.EventBus(), lambda: settings, tmp_path / "H.md",
                                          KeywordIntentClassifier())
            await service.seed_defaults()
            assert len(await service.tasks_list()) == 3
        finally:
            await store.aclose()


# --- status, trigger, pause ----------------------------------------------------------------------------


async def test_status_and_controls(service: SubconsciousService, engine: FakeEngine) -> None:
    await service.seed_defaults()
    status = await service.status()
    assert status["task_count"] == 3 and status["pending_escalations"] == 0
    assert status["state"] == "idle" and status["interval_minutes"] == 5
    service.trigger()
    assert engine.ticks == ["run now"]
    await service.set_paused(True)
    assert engine.paused and await service.store.state.get("paused") == "1"
    assert (await service.status())["state"] == "paused"
    await service.set_paused(False)
    assert not engine.paused and await service.store.state.get("paused") == "0"


async def test_log_list_pages(service: SubconsciousService, clock: FakeClock) -> None:
    task = await service.tasks_add("Logged")
    for _ in range(5):
        await clock.advance(1)
        await service.store.log.start(task.id, task.title, clock.now(), 1, clock.now())
    page = await service.log_list(limit=2)
    assert len(page) == 2 and page[0].created_at > page[1].created_at
    rest = await service.log_list(limit=10, before=page[-1].created_at)
    assert len(rest) == 3
    assert len(await service.log_list(task_id="other")) == 0


async def test_removing_a_task_dismisses_its_pending_cards_and_says_so(tmp_path: Path) -> None:
    from openhuman_desktop.store import open_subconscious_store

    store = await open_subconscious_store(tmp_path / "s.db")
    bus = events.EventBus()
    seen: list[EscalationChanged] = []
    bus.subscribe(EscalationChanged, seen.append)
    service = SubconsciousService(store, FakeClock(), bus, Settings, tmp_path / "HEARTBEAT.md",
                                  KeywordIntentClassifier())
    try:
        task = await service.tasks_add("Check my inbox")
        card = await store.escalations.create(task_id=task.id, log_id=None, title="t", description="d",
                                              priority="normal", now=1.0)
        await service.tasks_remove(task.id)
        assert [event.escalation.id for event in seen] == [card.id]
        assert seen[0].escalation.status == "dismissed"
        assert await store.escalations.get(card.id) is None
    finally:
        await store.aclose()
