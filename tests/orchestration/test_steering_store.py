"""Steering directives and reflection's inputs in the run ledger (v3): the compressed-history log, versions,
revert to a version and to 0, the user's edit, the idle threads' ``subconscious_cron`` checkpoints."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openhuman_desktop import events
from openhuman_desktop.errors import InvalidInput, NotFound
from openhuman_desktop.orchestration import graph
from openhuman_desktop.orchestration.directives import SteeringStore
from openhuman_desktop.orchestration.events import SteeringChanged
from openhuman_desktop.orchestration.ledger import RunLedger
from openhuman_desktop.orchestration.ledger_schema import LEDGER_MIGRATIONS
from openhuman_desktop.orchestration.ports import COMPLETED, RunRequest
from openhuman_desktop.orchestration.state import COMPRESSED_HISTORY, SUBCONSCIOUS_STEERING
from openhuman_desktop.orchestration.steering import (
    REFLECTION,
    REVERT,
    SKIPPED,
    USER,
    DirectiveDraft,
    Inputs,
    Reflection,
)
from openhuman_desktop.skills.base import Mutation
from openhuman_desktop.store.database import Database
from tests.fakes.clock import FakeClock


@pytest.fixture
async def ledger(tmp_path: Path, clock: FakeClock) -> AsyncIterator[RunLedger]:
    opened = await RunLedger.open(tmp_path / "agent" / "ledger.db", clock)
    yield opened
    await opened.aclose()


@pytest.fixture
def bus() -> events.EventBus:
    return events.EventBus()


@pytest.fixture
def store(ledger: RunLedger, clock: FakeClock, bus: events.EventBus) -> SteeringStore:
    return SteeringStore(ledger, clock, bus)


def entry(text: str, run_id: str = "r") -> dict[str, object]:
    return {"run_id": run_id, "text": text, "trace_tokens": 400, "summary_tokens": 20, "at": 1.0}


async def finished_run(ledger: RunLedger, thread: str, history: str) -> str:
    run = await ledger.create_run(RunRequest(thread_id=thread, channel_source="desktop", text="hi"))
    await ledger.mark_running(run.id, permission="read", steering_version=None)
    await ledger.commit(run.id, thread, 1, graph.AGENT_EXECUTION, {COMPRESSED_HISTORY: [entry(history, run.id)]},
                        graph.CONTEXT_MANAGER_HOOK)
    await ledger.commit(run.id, thread, 2, graph.CONTEXT_MANAGER_HOOK, {}, None)
    await ledger.finish_run(run.id, COMPLETED, response="ok")
    return run.id


async def test_every_compressed_entry_enters_the_log_in_order_across_threads(ledger: RunLedger) -> None:
    first = await finished_run(ledger, "desktop", "looked at the list")
    await finished_run(ledger, "telegram:1", "wrote notes.md")
    await ledger.update_state("cli", {COMPRESSED_HISTORY: [entry("by hand")]}, graph.SUBCONSCIOUS_CRON)
    log = await ledger.history_log()
    assert [(r.seq, r.thread_id, r.text) for r in log] == [
        (1, "desktop", "looked at the list"), (2, "telegram:1", "wrote notes.md"), (3, "cli", "by hand")]
    assert log[0].run_id == first and log[0].trace_tokens == 400 and log[0].summary_tokens == 20
    assert [r.seq for r in await ledger.history_log(after=1, limit=1)] == [2]
    assert await ledger.tails() == (3, 0)


async def test_a_run_records_the_steering_version_it_used(ledger: RunLedger) -> None:
    run = await ledger.create_run(RunRequest(thread_id="desktop", channel_source="desktop", text="hi"))
    await ledger.commit(run.id, "desktop", 1, graph.AGENT_EXECUTION,
                        {SUBCONSCIOUS_STEERING: {"version": 3, "text": "be brief"}}, None)
    assert (await ledger.get_run(run.id)).steering_version == 3  # type: ignore[union-attr]
    await ledger.commit(run.id, "desktop", 2, graph.AGENT_EXECUTION, {SUBCONSCIOUS_STEERING: None}, None)
    assert (await ledger.get_run(run.id)).steering_version is None  # type: ignore[union-attr]


async def test_versions_revert_and_edit(store: SteeringStore, ledger: RunLedger, bus: events.EventBus) -> None:
    seen: list[int] = []
    bus.subscribe(SteeringChanged, lambda e: seen.append(e.directive.version))
    assert await store.current() is None and await store.current_directive() is None
    inputs = Inputs(history_entries=2, timeline_from=1, timeline_to=5, history_from=1, history_to=2)
    one = await store.write(DirectiveDraft("  Prefer short answers.  ", REFLECTION, "users skim", "deep:1", inputs))
    assert (one.version, one.text, one.source, one.inputs) == (1, "Prefer short answers.", REFLECTION, inputs)
    two = await store.edit("Always cite the file you read.")
    assert (two.version, two.source) == (2, USER)
    assert (await store.current()).text == "Always cite the file you read."  # type: ignore[union-attr]
    three = await store.revert(1)
    assert (three.version, three.text, three.source, three.reverted_to) == (3, one.text, REVERT, 1)
    cleared = await store.revert(0)
    assert (cleared.version, cleared.text, cleared.reverted_to) == (4, "", 0)
    assert await store.current() is None and await store.current_directive() is None
    assert [d.version for d in await store.list()] == [4, 3, 2, 1]
    assert [d.version for d in await store.list(limit=2, before=4)] == [3, 2]
    assert seen == [1, 2, 3, 4]
    json = one.to_json()
    assert set(json) >= {"version", "text", "source", "created_at", "inputs"}
    assert set(json["inputs"]) >= {"history_entries", "timeline_from", "timeline_to"}
    # Each version is one steering_changed entry of the timeline.
    assert [e.event_signature for e in await ledger.timeline()] == [f"Steering changed: v{n}" for n in (1, 2, 3, 4)]
    # A fresh store (a restart) reads the newest version back.
    assert await SteeringStore(ledger, FakeClock(), bus).current() is None


async def test_bad_requests_are_refused_with_a_sentence(store: SteeringStore) -> None:
    for bad in (-1, True, "1"):
        with pytest.raises(InvalidInput):
            await store.revert(bad)
    with pytest.raises(NotFound):
        await store.revert(9)
    for bad_text in ("", "   ", "x" * 2001, 5):
        with pytest.raises(InvalidInput):
            await store.edit(bad_text)
    with pytest.raises(InvalidInput):
        await store.list(limit=0)


async def test_idle_threads_get_the_new_directive_in_their_state(store: SteeringStore, ledger: RunLedger) -> None:
    await finished_run(ledger, "desktop", "a")
    busy = await ledger.create_run(RunRequest(thread_id="webapp:s1", channel_source="webapp", text="hi"))
    await ledger.commit(busy.id, "webapp:s1", 1, graph.CHANNEL_INGESTION, {}, graph.FRONTEND_AGENT)
    directive = await store.edit("Be brief.")
    head = await ledger.head("desktop")
    assert head.values[SUBCONSCIOUS_STEERING] == {"version": directive.version, "text": "Be brief."}
    assert head.node == graph.SUBCONSCIOUS_CRON and head.next is None
    busy_head = await ledger.head("webapp:s1")  # a run in flight is left alone
    assert busy_head.run_id == busy.id and busy_head.values[SUBCONSCIOUS_STEERING] is None
    await store.revert(0)
    assert (await ledger.head("desktop")).values[SUBCONSCIOUS_STEERING] is None


async def test_news_since_the_last_reflection_ignores_steering_changes(store: SteeringStore,
                                                                       ledger: RunLedger) -> None:
    assert await ledger.reflection_news() == ((0, 0), (0, 0))
    await finished_run(ledger, "desktop", "a")
    await ledger.append_timeline([Mutation("file_written", "notes.md", "appended 12 bytes", 0, 12)], None)
    assert await ledger.reflection_news() == ((0, 0), (1, 1))
    history_to, timeline_to = await ledger.tails()
    await ledger.record_reflection(Reflection(0, 1.0, 2.0, "manual", SKIPPED, "", history_to, timeline_to))
    await store.edit("Be brief.")  # its timeline entry is no news
    assert await ledger.reflection_news() == ((1, 1), (0, 0))
    assert (await ledger.reflections())[0].id == 1


async def test_the_v3_migration_back_fills_the_log_from_existing_checkpoints(tmp_path: Path) -> None:
    path = tmp_path / "ledger.db"
    old = await Database.open(path, LEDGER_MIGRATIONS[:2])
    await old.execute(
        "INSERT INTO checkpoints (thread_id, run_id, step, node, changed, next, delta, created_at) VALUES "
        "('desktop', 'r1', 3, 'agent_execution', '[]', NULL, ?, 5.0)",
        ('{"compressed_history":[{"run_id":"r1","text":"did a thing","trace_tokens":100,"summary_tokens":5,'
         '"at":4.0}]}',))
    await old.aclose()
    upgraded = await RunLedger.open(path, FakeClock())
    try:
        log = await upgraded.history_log()
        assert [(r.thread_id, r.run_id, r.text, r.at) for r in log] == [("desktop", "r1", "did a thing", 4.0)]
    finally:
        await upgraded.aclose()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(LEDGER_MIGRATIONS)
