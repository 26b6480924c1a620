"""Adding or renaming a task never waits on the model (issue 24: the first ``tasks_add`` took 79.6 s while six
intent probes ran); the model's answer arrives in the background and may only narrow (issue 25)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openhuman_desktop import events
from openhuman_desktop.config import Settings
from openhuman_desktop.store import SubconsciousStore, Task
from openhuman_desktop.store.events import TaskChanged
from openhuman_desktop.subconscious.intent import IntentJudgement, classify_by_keywords, narrow
from openhuman_desktop.subconscious.service import SubconsciousService
from tests.fakes.clock import FakeClock
from tests.fakes.engine_harness import first_user_text, open_harness
from tests.fakes.model_servers import Reply

# A safety net for a test that would otherwise hang; below the classifier's own 20 s wait for one answer, so an
# add that waited for the model (which never answers here) fails it. No test is about being fast.
NEVER = 10.0


async def test_tasks_add_returns_while_the_model_server_hangs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        assert h.ollama is not None

        def hang(body: dict[str, object]) -> Reply:   # every intent question: an answer that never comes
            return Reply(content=json.dumps({"intent": "write", "confident": True}), delay=3600)

        h.ollama.set_responder(hang)
        task = await asyncio.wait_for(h.service.tasks_add("Check the weather"), NEVER)
        second = await asyncio.wait_for(h.service.tasks_add("Delete the old drafts"), NEVER)
        renamed = await asyncio.wait_for(h.service.tasks_update(task.id, title="Archive the weather reports"), NEVER)
        assert (task.intent, task.intent_source) == ("read", "keyword")
        assert (second.intent, second.intent_source) == ("write", "keyword")
        assert (renamed.intent, renamed.intent_source) == ("write", "keyword")  # the new words, at once
        # the model is asked, in the background, and has not answered: what is stored is the words' intent
        await h.wait_for_requests(1, h.ollama, "intent", timeout=NEVER)
        assert first_user_text(h.local_bodies("intent")[0]).startswith("Task: ")
        stored = await h.task(task.id)
        assert (stored.intent, stored.intent_source, stored.intent_suggestion) == ("write", "keyword", None)
        listed = {item.id: item for item in await h.service.tasks_list()}
        assert listed[second.id].intent == "write"


class HeldClassifier:
    """A model held until released, answering ``answer`` (what a slow Ollama looks like to the service)."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.release = asyncio.Event()
        self.answer = "write"

    async def classify(self, title: str) -> IntentJudgement:
        self.asked.append(title)
        await self.release.wait()
        return narrow(classify_by_keywords(title), self.answer)


@pytest.fixture
def classifier() -> HeldClassifier:
    return HeldClassifier()


@pytest.fixture
def bus() -> events.EventBus:
    return events.EventBus()


@pytest.fixture
async def service(store: SubconsciousStore, clock: FakeClock, bus: events.EventBus, tmp_path: Path,
                  classifier: HeldClassifier) -> AsyncIterator[SubconsciousService]:
    settings = Settings()
    service = SubconsciousService(store, clock, bus, lambda: settings, tmp_path / "HEARTBEAT.md", classifier)
    worker = asyncio.create_task(service.refine_intents())
    yield service
    worker.cancel()
    await asyncio.gather(worker, return_exceptions=True)


async def stored(service: SubconsciousService, task: Task) -> Task:
    found = await service.store.tasks.get(task.id)
    assert found is not None
    return found


async def test_the_models_widening_becomes_a_question_for_the_user(
    service: SubconsciousService, classifier: HeldClassifier, bus: events.EventBus
) -> None:
    changed: list[Task] = []
    bus.subscribe(TaskChanged, lambda event: changed.append(event.task))
    task = await service.tasks_add("Check the weather")
    assert (task.intent, task.intent_source, task.intent_suggestion) == ("read", "keyword", None)
    classifier.release.set()
    await asyncio.wait_for(service.intents_refined(), NEVER)
    after = await stored(service, task)
    assert (after.intent, after.intent_source, after.intent_suggestion) == ("read", "keyword", "write")
    assert changed[-1] == after, "the window hears of the question"
    # one click: the user's "write" answers it
    confirmed = await service.tasks_update(task.id, intent="write")
    assert (confirmed.intent, confirmed.intent_source, confirmed.intent_suggestion) == ("write", "user", None)
    assert confirmed.to_json()["intent_suggestion"] is None


async def test_the_user_can_keep_it_read_only(service: SubconsciousService, classifier: HeldClassifier) -> None:
    task = await service.tasks_add("Check the weather")
    classifier.release.set()
    await asyncio.wait_for(service.intents_refined(), NEVER)
    kept = await service.tasks_update(task.id, intent="read")
    assert (kept.intent, kept.intent_source, kept.intent_suggestion) == ("read", "user", None)


async def test_a_renamed_task_is_asked_about_again_and_an_old_answer_is_dropped(
    service: SubconsciousService, classifier: HeldClassifier
) -> None:
    task = await service.tasks_add("Check the weather")
    renamed = await service.tasks_update(task.id, title="Delete the weather reports")
    assert (renamed.intent, renamed.intent_source) == ("write", "keyword")
    classifier.answer = "read"
    classifier.release.set()
    await asyncio.wait_for(service.intents_refined(), NEVER)
    assert classifier.asked == ["Check the weather", "Delete the weather reports"]
    after = await stored(service, task)
    # the answer about the old title changed nothing; the new title's "read" narrowed the words' "write"
    assert (after.title, after.intent, after.intent_source, after.intent_suggestion) == (
        "Delete the weather reports", "read", "model", "write")


async def test_an_intent_the_user_chose_meanwhile_is_kept(service: SubconsciousService,
                                                          classifier: HeldClassifier) -> None:
    task = await service.tasks_add("Check the weather")
    await service.tasks_update(task.id, intent="read")
    classifier.release.set()
    await asyncio.wait_for(service.intents_refined(), NEVER)
    after = await stored(service, task)
    assert (after.intent, after.intent_source, after.intent_suggestion) == ("read", "user", None)


async def test_a_task_the_assistant_adds_stays_read_only_and_asks(service: SubconsciousService,
                                                                  classifier: HeldClassifier) -> None:
    sends = await service.tasks_add_by_assistant("Send the weekly digest to Anna")
    checks = await service.tasks_add_by_assistant("Check the weekly digest")
    assert (sends.intent, sends.intent_source, sends.intent_suggestion) == ("read", "assistant", "write")
    assert (checks.intent, checks.intent_source, checks.intent_suggestion) == ("read", "assistant", None)
    assert classifier.asked == [], "the model is not asked about the assistant's tasks: the user decides"
