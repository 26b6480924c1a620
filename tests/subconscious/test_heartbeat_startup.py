"""HEARTBEAT.md at start-up: never waits on a model, refuses what is not a small regular file, checks titles."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openhuman_desktop import events
from openhuman_desktop.config import Settings
from openhuman_desktop.errors import InvalidInput
from openhuman_desktop.store import SubconsciousStore, Task
from openhuman_desktop.store.events import TaskChanged
from openhuman_desktop.subconscious import heartbeat_file
from openhuman_desktop.subconscious.intent import (
    IntentJudgement,
    KeywordIntentClassifier,
    classify_by_keywords,
    narrow,
)
from openhuman_desktop.subconscious.service import SubconsciousService, clean_title
from tests.fakes.clock import FakeClock

# A safety net for a test that would otherwise hang forever; no test is about being fast.
NEVER = 30.0


class HangingClassifier:
    """A model that never answers (until released): what a hung Ollama looks like to the service."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.release = asyncio.Event()
        self.answer = "write"

    async def classify(self, title: str) -> IntentJudgement:
        self.asked.append(title)
        await self.release.wait()
        return narrow(classify_by_keywords(title), self.answer)


@pytest.fixture
def heartbeat_path(tmp_path: Path) -> Path:
    return tmp_path / "HEARTBEAT.md"


@pytest.fixture
def bus() -> events.EventBus:
    return events.EventBus()


@pytest.fixture
def classifier() -> HangingClassifier:
    return HangingClassifier()


@pytest.fixture
async def service(
    store: SubconsciousStore, clock: FakeClock, bus: events.EventBus, heartbeat_path: Path,
    classifier: HangingClassifier,
) -> AsyncIterator[SubconsciousService]:
    settings = Settings()
    yield SubconsciousService(store, clock, bus, lambda: settings, heartbeat_path, classifier)


async def file_tasks(service: SubconsciousService) -> dict[str, Task]:
    return {task.title: task for task in await service.tasks_list() if task.origin == "heartbeat_md"}


def notices(bus: events.EventBus) -> list[events.Notified]:
    seen: list[events.Notified] = []
    bus.subscribe(events.Notified, seen.append)
    return seen


# --- the model is asked in the background -----------------------------------------------------------


async def test_new_lines_get_the_keyword_intent_at_once_while_the_model_hangs(
    service: SubconsciousService, heartbeat_path: Path, classifier: HangingClassifier
) -> None:
    heartbeat_path.write_text("- Check the backups\n- Send the weekly report\n", encoding="utf-8")
    await asyncio.wait_for(service.sync_heartbeat_file(), NEVER)  # hung before: waited on the model
    tasks = await file_tasks(service)
    assert {title: (task.intent, task.intent_source) for title, task in tasks.items()} == {
        "Check the backups": ("read", "keyword"), "Send the weekly report": ("write", "keyword"),
    }


async def test_the_model_s_answer_arrives_later_unless_the_user_chose(
    service: SubconsciousService, heartbeat_path: Path, classifier: HangingClassifier, bus: events.EventBus
) -> None:
    heartbeat_path.write_text("- Delete the old backups\n- Check the logs\n", encoding="utf-8")
    await service.sync_heartbeat_file()
    tasks = await file_tasks(service)
    await service.tasks_update(tasks["Check the logs"].id, intent="read")  # the user decided meanwhile
    changed: list[Task] = []
    bus.subscribe(TaskChanged, lambda event: changed.append(event.task))
    worker = asyncio.create_task(service.refine_intents())
    try:
        classifier.answer = "read"
        classifier.release.set()  # the model answers "read" for both: it narrows the words' "write"
        await asyncio.wait_for(service.intents_refined(), NEVER)
    finally:
        worker.cancel()
        await asyncio.gather(worker, return_exceptions=True)
    after = await file_tasks(service)
    narrowed = after["Delete the old backups"]
    assert (narrowed.intent, narrowed.intent_source, narrowed.intent_suggestion) == ("read", "model", "write")
    assert (after["Check the logs"].intent, after["Check the logs"].intent_source) == ("read", "user")
    assert [task.title for task in changed] == ["Delete the old backups"]
    assert sorted(classifier.asked) == ["Check the logs", "Delete the old backups"]


# --- what is not a small regular file is refused, and the tasks stay ----------------------------------


@pytest.mark.logs_expected(r"so its tasks were not read; make it a plain text file")
async def test_a_fifo_does_not_block_and_the_tasks_stay(
    service: SubconsciousService, heartbeat_path: Path, bus: events.EventBus
) -> None:
    heartbeat_path.write_text("- Kept from before\n", encoding="utf-8")
    await service.sync_heartbeat_file()
    heartbeat_path.unlink()
    os.mkfifo(heartbeat_path)
    seen = notices(bus)
    plan = await asyncio.wait_for(service.sync_heartbeat_file(), NEVER)  # blocked forever before
    assert plan.is_empty
    assert list(await file_tasks(service)) == ["Kept from before"]
    [notice] = seen
    assert "HEARTBEAT.md" in notice.body and "not a regular file" in notice.body
    await service.sync_heartbeat_file()
    assert len(seen) == 1  # said once, not on every tick


@pytest.mark.logs_expected(r"so its tasks were not read; make it a plain text file")
async def test_a_directory_is_refused(service: SubconsciousService, heartbeat_path: Path,
                                      bus: events.EventBus) -> None:
    heartbeat_path.mkdir()
    seen = notices(bus)
    assert (await service.sync_heartbeat_file()).is_empty
    assert "not a regular file" in seen[0].body


@pytest.mark.logs_expected(r"so its tasks were not read; keep it to a list of at most")
async def test_a_huge_file_is_refused_and_the_tasks_stay(
    service: SubconsciousService, heartbeat_path: Path, bus: events.EventBus
) -> None:
    heartbeat_path.write_text("- Kept from before\n", encoding="utf-8")
    await service.sync_heartbeat_file()
    seen = notices(bus)
    heartbeat_path.write_text("".join(f"- Task number {n}\n" for n in range(100_000)), encoding="utf-8")
    assert (await service.sync_heartbeat_file()).is_empty
    assert list(await file_tasks(service)) == ["Kept from before"]
    assert "too large" in seen[0].body and "MiB" in seen[0].body


@pytest.mark.logs_expected(r"OpenHuman accepts, so its tasks were not read; shorten the")
async def test_too_many_task_lines_are_refused(service: SubconsciousService, heartbeat_path: Path,
                                               bus: events.EventBus) -> None:
    seen = notices(bus)
    heartbeat_path.write_text("".join(f"- {n}\n" for n in range(heartbeat_file.MAX_TASKS + 1)), encoding="utf-8")
    assert (await service.sync_heartbeat_file()).is_empty
    assert await file_tasks(service) == {}
    assert f"{heartbeat_file.MAX_TASKS:,}" in seen[0].body


async def test_many_lines_write_a_summary_not_a_line_each(
    service: SubconsciousService, heartbeat_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    heartbeat_path.write_text("".join(f"- Check item {n}\n" for n in range(5_000)), encoding="utf-8")
    with caplog.at_level(logging.INFO):
        await service.sync_heartbeat_file()
    assert len(await file_tasks(service)) == 5_000
    assert len([r for r in caplog.records if r.name.startswith("openhuman_desktop")]) < 10


# --- titles from the file get the RPC's validation ------------------------------------------------------


@pytest.mark.logs_expected(
    r"task lines skipped: the title must not contain characters",
    r"task line skipped: the title must not contain control",
)
async def test_file_titles_are_validated_like_rpc_titles(
    store: SubconsciousStore, clock: FakeClock, bus: events.EventBus, heartbeat_path: Path
) -> None:
    service = SubconsciousService(store, clock, bus, Settings, heartbeat_path, KeywordIntentClassifier())
    heartbeat_path.write_text(
        "- Pay invoice \u202eexe.gnp\n"        # a right-to-left override disguises the title: refused
        "- Ring \u2066the\u2069 bell\n"        # an isolate: refused
        "- Bell\x07 ringer\n"                   # a control character: refused
        "- Zero\u200bwidth\u00ad spaces\n"     # invisible format characters: stripped
        "- Family \U0001f468\u200d\U0001f469\u200d\U0001f467 photos\n"  # a ZWJ emoji stays whole
        "- Plain\n",
        encoding="utf-8",
    )
    await service.sync_heartbeat_file()
    assert sorted(await file_tasks(service)) == sorted(
        ["Zerowidth spaces", "Family \U0001f468\u200d\U0001f469\u200d\U0001f467 photos", "Plain"]
    )


@pytest.mark.parametrize("title", ["Pay \u202eexe.gnp", "a\u202ab", "x\u2067y\u2069", "left\u200eright"])
def test_clean_title_refuses_bidi_controls(title: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        clean_title(title)
    assert caught.value.param == "title" and "direction" in caught.value.problem


def test_clean_title_strips_other_invisible_format_characters() -> None:
    assert clean_title("\ufeffHello\u200b wor\u2060ld\U000e0041") == "Hello world"
    assert clean_title("caf\u00e9 \u200c\u200d") == "caf\u00e9 \u200c\u200d"  # joiners are kept (scripts, emoji)


async def test_rpc_titles_refuse_bidi_overrides(store: SubconsciousStore, clock: FakeClock,
                                                bus: events.EventBus, heartbeat_path: Path) -> None:
    service = SubconsciousService(store, clock, bus, Settings, heartbeat_path, KeywordIntentClassifier())
    with pytest.raises(InvalidInput):
        await service.tasks_add("Approve \u202etnemyap")
