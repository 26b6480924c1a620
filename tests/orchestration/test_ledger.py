"""The run ledger on a real SQLite file: runs, checkpoints, update_state, history, journal, timeline, retention."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openhuman_desktop.errors import NotFound
from openhuman_desktop.orchestration import graph
from openhuman_desktop.orchestration.ledger import Checkpoint, RunLedger
from openhuman_desktop.orchestration.ledger_schema import LEDGER_MIGRATIONS
from openhuman_desktop.orchestration.ports import (
    COMPLETED,
    FAILED,
    QUEUED,
    READ,
    RUNNING,
    WRITE,
    RunRequest,
)
from openhuman_desktop.orchestration.state import (
    AGENT_REPLY,
    CHANNEL_RESPONSE,
    COMPRESSED_HISTORY,
    CONTEXT_UTILIZATION,
    MESSAGES,
    SUBCONSCIOUS_STEERING,
    WORLD_STATE_DIFF,
    StateError,
    fold,
    initial_values,
)
from openhuman_desktop.skills.base import Mutation
from openhuman_desktop.store.database import Database
from tests.fakes.clock import FakeClock


@pytest.fixture
async def ledger(tmp_path: Path, clock: FakeClock) -> AsyncIterator[RunLedger]:
    opened = await RunLedger.open(tmp_path / "agent" / "ledger.db", clock)
    yield opened
    await opened.aclose()


def request(thread: str = "desktop", text: str = "hello", **extra: str) -> RunRequest:
    return RunRequest(thread_id=thread, channel_source=thread.split(":", 1)[0], text=text, **extra)  # type: ignore[arg-type]


async def test_a_run_is_created_queued_and_read_back(ledger: RunLedger, clock: FakeClock) -> None:
    run = await ledger.create_run(request(text="what is on my list?", permission=READ))
    assert run.status == QUEUED and len(run.id) == 32 and run.created_at == clock.now()
    assert await ledger.get_run(run.id) == run
    assert await ledger.get_run("nope") is None


async def test_runs_go_running_and_finish_with_their_outcome(ledger: RunLedger, clock: FakeClock) -> None:
    run = await ledger.create_run(request())
    running = await ledger.mark_running(run.id, permission=None, steering_version=3)
    assert running.status == RUNNING and running.permission is None and running.steering_version == 3
    await ledger.set_permission(run.id, WRITE)
    await clock.advance(5)
    done = await ledger.finish_run(run.id, COMPLETED, response="done", tools_used=("files_write", "memory_store"),
                                   recommended_action="Send it", changed_something=True)
    assert (done.status, done.response, done.tools_used, done.recommended_action, done.changed_something,
            done.permission, done.finished_at) == (COMPLETED, "done", ("files_write", "memory_store"), "Send it",
                                                   True, WRITE, clock.now())
    assert await ledger.get_run(run.id) == done
    with pytest.raises(ValueError, match="finishes"):
        await ledger.finish_run(run.id, RUNNING)
    with pytest.raises(NotFound):
        await ledger.mark_running("nope", permission=None, steering_version=None)


async def test_listing_is_newest_first_and_resume_order_oldest_first(ledger: RunLedger) -> None:
    first = await ledger.create_run(request("desktop"))
    second = await ledger.create_run(request("cli"))
    third = await ledger.create_run(request("desktop"))
    await ledger.finish_run(second.id, FAILED, error="The model is down.")
    await ledger.mark_running(third.id, permission=READ, steering_version=None)
    assert [run.id for run in await ledger.list_runs()] == [third.id, second.id, first.id]
    assert [run.id for run in await ledger.list_runs(thread_id="desktop")] == [third.id, first.id]
    assert [run.id for run in await ledger.list_runs(status=FAILED)] == [second.id]
    assert [run.id for run in await ledger.list_runs(limit=1)] == [third.id]
    assert [run.id for run in await ledger.unfinished_runs()] == [first.id, third.id]


async def test_a_new_thread_has_the_initial_values_and_nothing_else(ledger: RunLedger) -> None:
    head = await ledger.head("desktop")
    assert head.values == initial_values()
    assert (head.checkpoint_id, head.node, head.next, head.run_id, head.step) == (None, None, None, None, 0)
    assert await ledger.history("desktop") == []


async def test_commit_stores_the_update_and_head_folds_it(ledger: RunLedger, clock: FakeClock) -> None:
    run = await ledger.create_run(request())
    user = {"role": "user", "content": "hi", "at": 1.0}
    one = await ledger.commit(run.id, "desktop", 1, graph.CHANNEL_INGESTION,
                              {MESSAGES: [user], "raw_channel_payload": "hi"}, graph.FRONTEND_AGENT)
    await clock.advance(1)
    two = await ledger.commit(run.id, "desktop", 2, graph.FRONTEND_AGENT, {"agent_instructions": "greet"},
                              graph.AGENT_EXECUTION)
    assert isinstance(one, Checkpoint) and two.checkpoint_id > one.checkpoint_id
    assert one.changed == (MESSAGES, "raw_channel_payload") and one.next == graph.FRONTEND_AGENT
    head = await ledger.head("desktop")
    assert head.values[MESSAGES] == [user] and head.values["agent_instructions"] == "greet"
    assert (head.checkpoint_id, head.node, head.next, head.run_id, head.step) == (
        two.checkpoint_id, graph.FRONTEND_AGENT, graph.AGENT_EXECUTION, run.id, 2)
    assert (await ledger.get_run(run.id)).steps == 2  # type: ignore[union-attr]
    assert await ledger.state_at(one.checkpoint_id) == fold(initial_values(), {MESSAGES: [user],
                                                                                "raw_channel_payload": "hi"})
    assert two.to_json() == {"checkpoint_id": two.checkpoint_id, "run_id": run.id, "step": 2,
                             "node": graph.FRONTEND_AGENT, "changed": ["agent_instructions"],
                             "created_at": clock.now(), "next": graph.AGENT_EXECUTION, "thread_id": "desktop"}
    with pytest.raises(NotFound):
        await ledger.state_at(10_000)


async def test_a_checkpoint_row_holds_only_the_new_items(ledger: RunLedger, tmp_path: Path) -> None:
    """Deltas, not whole states: the tenth message's row carries one message, not ten."""
    for index in range(10):
        await ledger.commit("r", "t", index + 1, graph.CHANNEL_INGESTION,
                            {MESSAGES: [{"role": "user", "content": f"message number {index}", "at": 0}]}, None)
    with sqlite3.connect(ledger.path) as conn:
        deltas = [row[0] for row in conn.execute("SELECT delta FROM checkpoints ORDER BY id")]
    assert all(delta.count("message number") == 1 for delta in deltas)
    assert len((await ledger.head("t")).values[MESSAGES]) == 10


async def test_commit_refuses_unknown_keys_and_non_json(ledger: RunLedger) -> None:
    with pytest.raises(ValueError, match="unknown state key"):
        await ledger.commit("r", "t", 1, graph.CHANNEL_INGESTION, {"bogus": 1}, None)
    with pytest.raises(ValueError, match="JSON"):
        await ledger.commit("r", "t", 1, graph.CHANNEL_INGESTION, {AGENT_REPLY: object()}, None)
    assert await ledger.history("t") == []


@pytest.mark.parametrize("as_node", graph.AS_NODES)
async def test_update_state_as_each_node_applies_the_reducers(ledger: RunLedger, as_node: str) -> None:
    await ledger.commit("r", "t", 1, graph.CHANNEL_INGESTION, {MESSAGES: [{"role": "user", "content": "a"}]}, None)
    update = {MESSAGES: [{"role": "assistant", "content": "b"}], SUBCONSCIOUS_STEERING: {"version": 2, "text": "x"},
              WORLD_STATE_DIFF: {"terminal_state": "edited"}}
    checkpoint = await ledger.update_state("t", update, as_node)
    assert (checkpoint.node, checkpoint.run_id, checkpoint.next, checkpoint.changed) == (
        as_node, None, None, (MESSAGES, SUBCONSCIOUS_STEERING, WORLD_STATE_DIFF))
    head = await ledger.head("t")
    assert head.values[MESSAGES] == [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]
    assert head.values[SUBCONSCIOUS_STEERING] == {"version": 2, "text": "x"}
    assert head.values[WORLD_STATE_DIFF] == {"system_genesis": "initialized", "evolution_timeline": [],
                                             "terminal_state": "edited"}
    assert (head.checkpoint_id, head.node, head.next, head.run_id) == (checkpoint.checkpoint_id, as_node, None, None)
    assert (await ledger.history("t", limit=1))[0] == checkpoint


async def test_update_state_refuses_a_bad_node_or_a_bad_shape_and_writes_nothing(ledger: RunLedger) -> None:
    with pytest.raises(ValueError, match="as_node"):
        await ledger.update_state("t", {AGENT_REPLY: "x"}, "not_a_node")
    with pytest.raises(StateError):
        await ledger.update_state("t", {MESSAGES: "not a list"}, graph.FRONTEND_AGENT)
    with pytest.raises(StateError):
        await ledger.update_state("t", {"nope": 1}, graph.FRONTEND_AGENT)
    assert await ledger.history("t") == [] and await ledger.threads() == []
    # and the thread still takes a good one afterwards
    await ledger.update_state("t", {CONTEXT_UTILIZATION: 0.5}, graph.CONTEXT_MANAGER_HOOK)
    assert (await ledger.head("t")).values[CONTEXT_UTILIZATION] == 0.5


async def test_history_is_newest_first_per_thread_with_paging(ledger: RunLedger) -> None:
    ids = []
    for step in range(1, 8):
        ids.append((await ledger.commit("r", "a", step, graph.FRONTEND_AGENT, {AGENT_REPLY: str(step)}, None))
                   .checkpoint_id)
        await ledger.commit("s", "b", step, graph.FRONTEND_AGENT, {AGENT_REPLY: "other"}, None)
    history = await ledger.history("a")
    assert [c.checkpoint_id for c in history] == ids[::-1] and {c.thread_id for c in history} == {"a"}
    assert [c.step for c in history] == list(range(7, 0, -1))
    page = await ledger.history("a", limit=3, before=ids[4])
    assert [c.checkpoint_id for c in page] == [ids[3], ids[2], ids[1]]
    assert await ledger.threads() == ["a", "b"]


async def test_the_ledger_survives_reopening(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "ledger.db"
    first = await RunLedger.open(path, clock)
    run = await first.create_run(request("cli"))
    await first.commit(run.id, "cli", 1, graph.CHANNEL_INGESTION, {CHANNEL_RESPONSE: ""}, graph.FRONTEND_AGENT)
    await first.aclose()
    again = await RunLedger.open(path, clock)
    try:
        assert [r.id for r in await again.unfinished_runs()] == [run.id]
        head = await again.head("cli")
        assert (head.next, head.step, head.run_id) == (graph.FRONTEND_AGENT, 1, run.id)
        assert await again.integrity_check() == "ok"
    finally:
        await again.aclose()


async def test_the_ledger_runs_wal_at_the_chosen_durability(tmp_path: Path, clock: FakeClock) -> None:
    for level, number in (("FULL", 2), ("NORMAL", 1)):
        opened = await RunLedger.open(tmp_path / f"{level}.db", clock, synchronous=level)
        try:
            assert (await opened._db.fetchone("PRAGMA synchronous"))[0] == number  # type: ignore[index]
            assert (await opened._db.fetchone("PRAGMA journal_mode"))[0] == "wal"  # type: ignore[index]
        finally:
            await opened.aclose()
    with pytest.raises(ValueError, match="synchronous"):
        await RunLedger.open(tmp_path / "x.db", clock, synchronous="sometimes")


# --- journal and timeline ---------------------------------------------------------------------------------

WRITE_NOTE = Mutation("file_written", "notes/todo.md", "appended 120 bytes", 100, 220)
STORE_MEMORY = Mutation("memory_stored", "mem-1", "stored a memory")


async def test_journal_records_intent_then_result_with_its_timeline(ledger: RunLedger) -> None:
    assert await ledger.get("r", 3, "sub:0:call:1:0") is None
    await ledger.begin("r", 3, "sub:0:call:1:0", {"tool": "files_write", "observed": "absent"})
    begun = await ledger.get("r", 3, "sub:0:call:1:0")
    assert begun is not None and begun.result is None and begun.intent["observed"] == "absent"
    written = await ledger.finish("r", 3, "sub:0:call:1:0", {"text": "ok"}, [WRITE_NOTE, STORE_MEMORY])
    assert [entry.sequence for entry in written] == [1, 2]
    assert written[0].event_signature == "File written: notes/todo.md"
    assert written[0].world_mutation == "appended 120 bytes" and written[0].delta_delta == "100 → 220 bytes (+120)"
    assert written[1].delta_delta == "" and {entry.run_id for entry in written} == {"r"}
    done = await ledger.get("r", 3, "sub:0:call:1:0")
    assert done is not None and done.result == {"text": "ok"} and done.timeline == written
    assert done.intent == {"tool": "files_write", "observed": "absent"}
    assert await ledger.timeline() == list(written)


@pytest.mark.logs_expected(r"plan: already finished, the first result stands")
async def test_a_key_is_never_recorded_twice(ledger: RunLedger) -> None:
    first = await ledger.finish("r", 1, "plan", {"tasks": 2}, [WRITE_NOTE])
    again = await ledger.finish("r", 1, "plan", {"tasks": 9}, [WRITE_NOTE, STORE_MEMORY])
    assert again == first
    await ledger.begin("r", 1, "plan", {"late": True})
    entry = await ledger.get("r", 1, "plan")
    assert entry is not None and entry.result == {"tasks": 2} and entry.intent == {}
    assert [e.sequence for e in await ledger.timeline()] == [1]


async def test_a_result_without_an_intent_is_recorded_too(ledger: RunLedger) -> None:
    assert await ledger.finish("r", 2, "sub:1:call:0:0", {"text": "read it"}) == ()
    entry = await ledger.get("r", 2, "sub:1:call:0:0")
    assert entry is not None and entry.result == {"text": "read it"} and entry.timeline == ()


async def test_a_failed_finish_writes_neither_result_nor_timeline(ledger: RunLedger) -> None:
    await ledger.begin("r", 1, "k", {})
    with pytest.raises(ValueError, match="JSON"):
        await ledger.finish("r", 1, "k", {"bad": object()}, [WRITE_NOTE])
    entry = await ledger.get("r", 1, "k")
    assert entry is not None and entry.result is None and await ledger.timeline() == []


async def test_timeline_is_append_only_in_the_file_itself(ledger: RunLedger) -> None:
    await ledger.append_timeline([Mutation("steering_changed", "steering", "version 2")], None)
    with sqlite3.connect(ledger.path) as conn:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("UPDATE timeline SET world_mutation = 'changed'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute("DELETE FROM timeline")
    assert [e.world_mutation for e in await ledger.timeline()] == ["version 2"]


async def test_timeline_paging(ledger: RunLedger) -> None:
    await ledger.append_timeline([Mutation("task_created", f"task-{i}", "created") for i in range(10)], "r")
    assert [e.sequence for e in await ledger.timeline(after=3, limit=4)] == [4, 5, 6, 7]
    assert await ledger.timeline(after=10) == []
    assert (await ledger.timeline(limit=1))[0].to_json()["event_signature"] == "Task created: task-0"


async def test_timeline_sequence_is_gap_free_under_concurrent_appends(tmp_path: Path, clock: FakeClock) -> None:
    """Many tasks on one ledger and a second connection to the same file append at once: 1..N, no gap, no
    duplicate, and a failed append in between takes no number."""
    path = tmp_path / "ledger.db"
    one = await RunLedger.open(path, clock)
    two = await RunLedger.open(path, clock)
    try:
        async def appender(ledger: RunLedger, name: str, count: int) -> None:
            for index in range(count):
                if index % 3 == 0:
                    await ledger.finish(name, index, "k", {"i": index}, [Mutation("message_sent", name, "sent")])
                else:
                    await ledger.append_timeline([Mutation("task_changed", name, f"change {index}")] * 2, name)

        async def failing() -> None:
            with pytest.raises(ValueError):
                await one.finish("bad", 0, "k", {"x": object()}, [WRITE_NOTE])

        await asyncio.gather(*(appender(one if i % 2 else two, f"run-{i}", 12) for i in range(8)), failing())
        entries = await one.timeline(limit=10_000)
        assert [entry.sequence for entry in entries] == list(range(1, len(entries) + 1))
        assert len(entries) == 8 * (4 * 1 + 8 * 2)
        assert await two.timeline(limit=10_000) == entries
    finally:
        await one.aclose()
        await two.aclose()


# --- retention ------------------------------------------------------------------------------------------------


async def run_turn(ledger: RunLedger, thread: str, index: int, *, finish: bool = True) -> str:
    run = await ledger.create_run(request(thread, f"turn {index}"))
    await ledger.mark_running(run.id, permission=READ, steering_version=None)
    updates = [
        (graph.CHANNEL_INGESTION, {MESSAGES: [{"role": "user", "content": f"turn {index}"}],
                                   AGENT_REPLY: "", CHANNEL_RESPONSE: ""}, graph.FRONTEND_AGENT),
        (graph.FRONTEND_AGENT, {"agent_instructions": f"do {index}"}, graph.AGENT_EXECUTION),
        (graph.AGENT_EXECUTION, {AGENT_REPLY: f"reply {index}", COMPRESSED_HISTORY: [{"text": f"trace {index}"}],
                                 WORLD_STATE_DIFF: {"evolution_timeline": [{"sequence": index}]}},
         graph.FRONTEND_AGENT),
        (graph.FRONTEND_AGENT, {CHANNEL_RESPONSE: f"answer {index}",
                                MESSAGES: [{"role": "assistant", "content": f"answer {index}"}]},
         graph.CONTEXT_MANAGER_HOOK),
        (graph.CONTEXT_MANAGER_HOOK, {CONTEXT_UTILIZATION: index / 100}, None),
    ]
    for step, (node, update, following) in enumerate(updates if finish else updates[:2], start=1):
        await ledger.commit(run.id, thread, step, node, update, following)
        await ledger.finish(run.id, step, f"k{step}", {"ok": True}, [WRITE_NOTE] if step == 3 else ())
    if finish:
        await ledger.finish_run(run.id, COMPLETED, response=f"answer {index}")
    return run.id


def count(path: Path, table: str, where: str = "1") -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table} WHERE {where}").fetchone()[0])


async def test_retention_folds_old_runs_and_leaves_head_and_timeline_alone(ledger: RunLedger,
                                                                           clock: FakeClock) -> None:
    for index in range(30):
        await run_turn(ledger, "desktop", index)
        await run_turn(ledger, "cli", index)
        await clock.advance(60)
    unfinished = await run_turn(ledger, "telegram:7", 0, finish=False)
    await ledger.update_state("webapp:s", {AGENT_REPLY: "set by hand"}, graph.FRONTEND_AGENT)
    heads = {thread: await ledger.head(thread) for thread in await ledger.threads()}
    timeline = await ledger.timeline(limit=1000)
    newest = [run.id for run in await ledger.list_runs(thread_id="desktop", limit=5)]
    before = {c.checkpoint_id: await ledger.state_at(c.checkpoint_id) for c in await ledger.history("desktop", 1000)}

    removed = await ledger.retain(keep_runs_per_thread=5)

    assert removed == 2 * 25
    assert {thread: await ledger.head(thread) for thread in await ledger.threads()} == heads
    assert await ledger.timeline(limit=1000) == timeline
    assert [run.id for run in await ledger.list_runs(thread_id="desktop")] == newest
    assert [run.id for run in await ledger.unfinished_runs()] == [unfinished]
    assert count(ledger.path, "checkpoints", "thread_id = 'desktop'") == 5 * 5
    assert count(ledger.path, "journal") == 2 * 5 * 5 + 2
    history = await ledger.history("desktop", limit=1000)
    assert {c.run_id for c in history} == set(newest)
    # the oldest kept checkpoint reads back as it was, from its new snapshot
    oldest = history[-1]
    assert await ledger.state_at(oldest.checkpoint_id) == before[oldest.checkpoint_id]
    assert len(before[oldest.checkpoint_id][MESSAGES]) == 2 * 25 + 1
    with pytest.raises(NotFound):
        await ledger.state_at(oldest.checkpoint_id - 1)
    # and the thread goes on from there
    await run_turn(ledger, "desktop", 99)
    assert len((await ledger.head("desktop")).values[MESSAGES]) == 2 * 31
    assert await ledger.integrity_check() == "ok"


async def test_retention_by_age_and_of_a_thread_with_no_kept_run(ledger: RunLedger, clock: FakeClock) -> None:
    for index in range(3):
        await run_turn(ledger, "desktop", index)
    head = await ledger.head("desktop")
    await clock.advance(31 * 86400)
    assert await ledger.retain() == 3
    assert await ledger.head("desktop") == head
    assert await ledger.list_runs() == []
    assert count(ledger.path, "checkpoints") == 1 and count(ledger.path, "snapshots") == 1
    assert await ledger.retain() == 0
    assert await ledger.head("desktop") == head


async def test_retention_drops_compressed_history_older_than_the_horizon(ledger: RunLedger,
                                                                           clock: FakeClock) -> None:
    for index in range(3):
        await run_turn(ledger, "desktop", index)
    await clock.advance(31 * 86400)
    await run_turn(ledger, "desktop", 3)
    assert [entry.text for entry in await ledger.history_log()] == [f"trace {index}" for index in range(4)]
    await ledger.retain()
    kept = await ledger.history_log()
    assert [entry.text for entry in kept] == ["trace 3"]
    assert kept[0].seq == 4
    await clock.advance(31 * 86400)
    await ledger.retain()
    assert [entry.seq for entry in await ledger.history_log()] == [4]  # the newest stays, however old
    await run_turn(ledger, "desktop", 4)
    assert [entry.seq for entry in await ledger.history_log()] == [4, 5]  # numbers a reflection saw are not reused


async def test_retention_keeps_an_unfinished_run_and_everything_after_its_start(ledger: RunLedger) -> None:
    stuck = await run_turn(ledger, "desktop", 0, finish=False)
    for index in range(1, 6):
        await run_turn(ledger, "desktop", index)
    head = await ledger.head("desktop")
    assert await ledger.retain(keep_runs_per_thread=1) == 0  # everything after the stuck run's start is needed
    assert await ledger.head("desktop") == head
    assert (await ledger.get_run(stuck)) is not None
    assert count(ledger.path, "journal", f"run_id = '{stuck}'") == 2


async def test_unsynced_run_updates_are_committed_and_full_is_restored(ledger: RunLedger) -> None:
    run = await ledger.create_run(request())
    await ledger.mark_running(run.id, permission=None, steering_version=1)
    await ledger.set_permission(run.id, WRITE)
    with sqlite3.connect(ledger.path) as conn:  # another connection sees them: committed
        assert conn.execute("SELECT status, permission FROM runs").fetchone() == (RUNNING, WRITE)
    assert (await ledger._db.fetchone("PRAGMA synchronous"))[0] == 2  # type: ignore[index]


async def test_a_source_key_makes_one_run_and_delivery_is_recorded(ledger: RunLedger) -> None:
    request = RunRequest(thread_id="telegram:42", channel_source="telegram", text="hi", source_key="telegram:1:9")
    first = await ledger.create_run(request)
    assert (await ledger.create_run(request)).id == first.id
    other = await ledger.create_run(RunRequest(thread_id="telegram:42", channel_source="telegram", text="hi"))
    assert other.id != first.id
    assert not await ledger.undelivered_runs("telegram")  # unfinished runs are not waiting for delivery
    await ledger.finish_run(first.id, COMPLETED, response="Hello")
    assert [run.id for run in await ledger.undelivered_runs("telegram")] == [first.id]
    await ledger.mark_delivered(first.id)
    assert not await ledger.undelivered_runs("telegram")
    await ledger.requeue(first.id)  # a retried run's new answer is delivered again
    await ledger.finish_run(first.id, COMPLETED, response="Hello again")
    assert [run.id for run in await ledger.undelivered_runs("telegram")] == [first.id]


async def test_runs_finished_before_the_upgrade_count_as_delivered(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "ledger.db"
    old = await Database.open(path, LEDGER_MIGRATIONS[:1])
    for run_id, finished in (("done", 5.0), ("going", None)):
        await old.execute(
            "INSERT INTO runs (id, thread_id, channel_source, status, input, created_at, purpose, finished_at) "
            "VALUES (?, 'webapp:s', 'webapp', ?, 'hi', 1.0, 'chat', ?)",
            (run_id, "completed" if finished else "running", finished))
    await old.aclose()
    ledger = await RunLedger.open(path, clock)
    try:
        assert not await ledger.undelivered_runs("webapp")
        await ledger.finish_run("going", COMPLETED, response="ok")
        assert [run.id for run in await ledger.undelivered_runs("webapp")] == ["going"]
    finally:
        await ledger.aclose()


async def test_only_the_durable_points_are_synced(ledger: RunLedger) -> None:
    """A run recorded, an effect's intent, a run's end, and what a caller is told was saved are synced; a node
    transition, a model answer, a write's result, a run marked running or delivered, and retention are not
    (they are durable with the next synced commit; ``ledger.py``, "Durability")."""
    def synced(before: int) -> int:
        return ledger.synced_commits - before

    count = ledger.synced_commits
    run = await ledger.create_run(request())
    assert synced(count) == 1
    assert (await ledger.create_run(RunRequest("desktop", "desktop", "x", source_key="k"))).id
    assert synced(count) == 2
    await ledger.create_run(RunRequest("desktop", "desktop", "x", source_key="k"))  # known: nothing written
    assert synced(count) == 2
    await ledger.mark_running(run.id, permission=WRITE, steering_version=None)
    await ledger.set_permission(run.id, WRITE)
    await ledger.commit(run.id, "desktop", 1, "channel_ingestion", {"raw_channel_payload": "hi"}, "frontend_agent")
    await ledger.finish(run.id, 1, "pass1", {"text": "do it"})
    assert synced(count) == 2
    await ledger.begin(run.id, 3, "sub:0:call:1:0", {"tool": "files_append", "fingerprint": "absent"})
    assert synced(count) == 3  # the intent, before the write runs
    await ledger.finish(run.id, 3, "sub:0:call:1:0", {"text": "ok"}, [WRITE_NOTE])
    assert synced(count) == 3
    await ledger.finish_run(run.id, "completed", response="done")
    assert synced(count) == 4
    await ledger.mark_delivered(run.id)
    await ledger.retain(keep_runs_per_thread=0, keep_seconds=0)
    assert synced(count) == 4
    await ledger.update_state("desktop", {"context_utilization": 0.5}, "subconscious_cron")
    assert synced(count) == 5


async def test_at_normal_nothing_is_synced(tmp_path: Path, clock: FakeClock) -> None:
    opened = await RunLedger.open(tmp_path / "normal.db", clock, synchronous="NORMAL")
    try:
        run = await opened.create_run(request())
        await opened.finish_run(run.id, "completed", response="done")
        assert opened.synced_commits == 0
    finally:
        await opened.aclose()
