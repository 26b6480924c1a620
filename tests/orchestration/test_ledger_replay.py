"""Property: whatever the updates, deltas + snapshots read back exactly as a full replay from the initial values,
at the head and at every checkpoint, before and after retention."""

from __future__ import annotations

import asyncio
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from openhuman_desktop.orchestration import graph, ledger
from openhuman_desktop.orchestration.ledger import RunLedger
from openhuman_desktop.orchestration.ports import COMPLETED, RunRequest
from openhuman_desktop.orchestration.state import (
    AGENT_INSTRUCTIONS,
    AGENT_REPLY,
    CHANNEL_RESPONSE,
    COMPRESSED_HISTORY,
    CONTEXT_UTILIZATION,
    MESSAGES,
    SUBCONSCIOUS_STEERING,
    WORLD_STATE_DIFF,
    Values,
    apply,
    initial_values,
)
from tests.fakes.clock import FakeClock

text = st.one_of(st.text(max_size=12), st.text(alphabet="abcdef ", min_size=200, max_size=3000))
item = st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant"]), "content": text})
appended = st.one_of(
    st.lists(item, max_size=3),
    st.fixed_dictionaries({"drop_oldest": st.integers(0, 4), "append": st.lists(item, max_size=2)}),
)
world = st.fixed_dictionaries({}, optional={
    "evolution_timeline": appended,
    "terminal_state": st.sampled_from(["pending", "execution_finalized"]),
})
update = st.fixed_dictionaries({}, optional={
    MESSAGES: appended,
    COMPRESSED_HISTORY: appended,
    WORLD_STATE_DIFF: world,
    AGENT_INSTRUCTIONS: text,
    AGENT_REPLY: text,
    CHANNEL_RESPONSE: text,
    SUBCONSCIOUS_STEERING: st.one_of(st.none(), st.fixed_dictionaries({"version": st.integers(0, 9),
                                                                       "text": text})),
    CONTEXT_UTILIZATION: st.floats(0, 1),
})
# An operation: commit on one of three threads (as a run step or as update_state), end the run, or retain.
operation = st.one_of(
    st.tuples(st.just("commit"), st.integers(0, 2), update, st.sampled_from(graph.NODES)),
    st.tuples(st.just("update_state"), st.integers(0, 2), update, st.sampled_from(graph.AS_NODES)),
    st.tuples(st.just("end_run"), st.integers(0, 2), st.just({}), st.just("")),
    st.tuples(st.just("retain"), st.integers(0, 3), st.just({}), st.just("")),
)


async def replay_check(path: Path, operations: list[tuple[str, int, dict[str, Any], str]]) -> int:
    """Run ``operations`` against a ledger and a plain in-memory replay; return how many snapshots were taken."""
    clock = FakeClock()
    opened = await RunLedger.open(path, clock)
    expected: dict[str, Values] = {}
    at_checkpoint: dict[int, Values] = {}
    runs: dict[str, tuple[str, int]] = {}
    try:
        for kind, index, values, node in operations:
            thread = f"thread-{index}"
            if kind == "retain":
                await opened.retain(keep_runs_per_thread=index)
                kept = {c.checkpoint_id for t in expected for c in await opened.history(t, limit=10_000)}
                at_checkpoint = {key: value for key, value in at_checkpoint.items() if key in kept}
            elif kind == "end_run":
                if thread in runs:
                    await opened.finish_run(runs.pop(thread)[0], COMPLETED)
            else:
                folded = apply(expected.get(thread, initial_values()), values)
                if kind == "commit":
                    if thread not in runs:
                        runs[thread] = ((await opened.create_run(RunRequest(thread, "desktop", "x"))).id, 0)
                    run_id, step = runs[thread]
                    runs[thread] = (run_id, step + 1)
                    checkpoint = await opened.commit(run_id, thread, step + 1, node, values, None)
                else:
                    checkpoint = await opened.update_state(thread, values, node)
                expected[thread] = folded
                at_checkpoint[checkpoint.checkpoint_id] = folded
            await clock.advance(3600)
        for thread, values in expected.items():
            assert (await opened.head(thread)).values == values
        for checkpoint_id, values in at_checkpoint.items():
            assert await opened.state_at(checkpoint_id) == values
        assert await opened.integrity_check() == "ok"
    finally:
        await opened.aclose()
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM snapshots").fetchone()[0])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(operation, min_size=1, max_size=40))
def test_head_and_state_at_equal_a_full_replay(operations: list[tuple[str, int, dict[str, Any], str]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(replay_check(Path(folder) / "ledger.db", operations))


def test_many_tiny_updates_get_a_snapshot_by_count(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Snapshots by count too (the every-N rule), and the replay still holds across them."""
    monkeypatch.setattr(ledger, "SNAPSHOT_MAX_TRANSITIONS", 7)
    operations = [("commit", 0, {CONTEXT_UTILIZATION: i / 100, MESSAGES: [{"role": "user", "content": str(i)}]},
                   graph.AGENT_EXECUTION) for i in range(50)]
    assert asyncio.run(replay_check(tmp_path / "ledger.db", operations)) == 50 // 7


def test_big_updates_get_snapshots_by_size_and_total_size_stays_linear(tmp_path: Path) -> None:
    """A long conversation: snapshot bytes stay within a small multiple of the state itself (geometric sizes),
    not one full copy per transition."""
    operations = [("commit", 0, {MESSAGES: [{"role": "user", "content": "w" * 500}], AGENT_REPLY: str(i)},
                   graph.AGENT_EXECUTION) for i in range(400)]
    snapshots = asyncio.run(replay_check(tmp_path / "ledger.db", operations))
    with sqlite3.connect(tmp_path / "ledger.db") as conn:
        snapshot_bytes = conn.execute("SELECT sum(length(state)) FROM snapshots").fetchone()[0]
        delta_bytes = conn.execute("SELECT sum(length(delta)) FROM checkpoints").fetchone()[0]
    assert 3 <= snapshots <= 8
    assert snapshot_bytes <= 3 * delta_bytes
