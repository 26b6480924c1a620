"""kill -9 of a process writing transitions in a loop: the file stays integrity_check-clean, nothing committed
is lost, snapshots agree with the deltas and the timeline has no gap."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from openhuman_desktop.orchestration.ledger import RunLedger
from openhuman_desktop.orchestration.state import apply, initial_values
from tests.fakes.clock import FakeClock

REPO = Path(__file__).resolve().parents[2]

WRITER = r'''
import asyncio, sys
from pathlib import Path
from openhuman_desktop.clock import SystemClock
from openhuman_desktop.orchestration.ledger import RunLedger
from openhuman_desktop.orchestration.ports import RunRequest
from openhuman_desktop.skills.base import Mutation

async def main() -> None:
    ledger = await RunLedger.open(Path(sys.argv[1]), SystemClock())
    turn = 0
    while True:
        turn += 1
        thread = f"thread-{turn % 3}"
        run = await ledger.create_run(RunRequest(thread, "desktop", f"turn {turn}"))
        for step in range(1, 6):
            update = {"messages": [{"role": "user", "content": f"{turn}.{step} " + "x" * (turn * 37 % 900)}],
                      "agent_reply": f"reply {turn}.{step}"}
            checkpoint = await ledger.commit(run.id, thread, step, "agent_execution", update, None)
            print(f"C {checkpoint.checkpoint_id} {thread}", flush=True)
            entries = await ledger.finish(run.id, step, "call", {"ok": step},
                                          [Mutation("file_written", f"f{turn}", "wrote", step, step + 1)])
            print(f"T {entries[-1].sequence}", flush=True)
        await ledger.finish_run(run.id, "completed", response="done")
        if turn % 7 == 0:
            await ledger.retain(keep_runs_per_thread=2)
            print("R", flush=True)

asyncio.run(main())
'''


def write_and_kill(db: Path, script: Path, lines_before_kill: int) -> tuple[dict[str, int], int]:
    """Start the writer, let it print ``lines_before_kill`` lines, kill -9; the last committed ids it reported."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen([sys.executable, str(script), str(db)], stdout=subprocess.PIPE, text=True,
                               env=env, cwd=str(REPO), stdin=subprocess.DEVNULL)
    assert process.stdout is not None
    committed: dict[str, int] = {}
    sequence = 0
    try:
        for _ in range(lines_before_kill):
            line = process.stdout.readline()
            assert line, "the writer stopped early"
            kind, *rest = line.split()
            if kind == "C":
                committed[rest[1]] = int(rest[0])
            elif kind == "T":
                sequence = int(rest[0])
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        process.stdout.close()
    return committed, sequence


def test_kill_9_while_writing_leaves_a_sound_ledger(tmp_path: Path) -> None:
    db = tmp_path / "agent" / "ledger.db"
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    rng = random.Random(11)
    for _ in range(8):
        committed, last_sequence = write_and_kill(db, script, rng.randint(3, 200))
        asyncio.run(check(db, committed, last_sequence))


async def check(db: Path, committed: dict[str, int], last_sequence: int) -> None:
    ledger = await RunLedger.open(db, FakeClock())
    try:
        assert await ledger.integrity_check() == "ok"
        for thread, checkpoint_id in committed.items():
            head = await ledger.head(thread)
            assert head.checkpoint_id is not None and head.checkpoint_id >= checkpoint_id  # nothing lost
        timeline = await ledger.timeline(limit=100_000)
        assert [entry.sequence for entry in timeline] == list(range(1, len(timeline) + 1))
        assert len(timeline) >= last_sequence
        heads = {thread: (await ledger.head(thread)).values for thread in await ledger.threads()}
    finally:
        await ledger.aclose()
    with sqlite3.connect(db) as conn:
        for thread, values in heads.items():
            # from the oldest checkpoint left (retention leaves a full snapshot there), every delta after it
            oldest = conn.execute("SELECT min(id) FROM checkpoints WHERE thread_id = ?", (thread,)).fetchone()[0]
            base = conn.execute("SELECT state FROM snapshots WHERE checkpoint_id = ?", (oldest,)).fetchone()
            replayed = initial_values() if base is None else json.loads(base[0])
            for (delta,) in conn.execute("SELECT delta FROM checkpoints WHERE thread_id = ? AND id >= ? ORDER BY id",
                                         (thread, oldest if base is None else oldest + 1)):
                replayed = apply(replayed, json.loads(delta))
            assert values == replayed  # the snapshots agree with the deltas
        for first, count in conn.execute("SELECT timeline_first, timeline_count FROM journal WHERE result IS NOT NULL"):
            assert count == 1 and 1 <= first <= len(timeline)  # each result came with its timeline entry
        begun = conn.execute("SELECT count(*) FROM journal WHERE result IS NULL").fetchone()[0]
        assert begun == 0
