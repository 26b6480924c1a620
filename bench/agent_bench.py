"""Agent ledger benchmark: the reference note's graph (no model) on the product's state machine and run ledger,
and the same graph on LangGraph + SqliteSaver (the anchor), in the same run, at the same durability.

A) many short runs, a thread each; B) one thread, many turns (its state grows); C) resume of many unfinished
runs after a restart (time until each has started its first node); D) the fsyncs of a short run, counted by
``strace -f -e trace=fsync,fdatasync`` on a separate process that runs the scenario A runs (``--probe``), between
two marker calls, so opening and closing the database are not counted (needs strace: ``apt-get install strace``).
Ours runs at synchronous FULL (the product's setting) and NORMAL; LangGraph at its own (SqliteSaver: WAL,
Python's sqlite3 default synchronous, FULL here) and at NORMAL. LangGraph comes from the bench-only extra:
``pip install -e '.[bench]'``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import budget, load_note, machine, note, percentile  # noqa: E402
from openhuman_desktop.clock import SystemClock  # noqa: E402
from openhuman_desktop.orchestration.graph import (  # noqa: E402
    AGENT_EXECUTION,
    CHANNEL_INGESTION,
    CONTEXT_MANAGER_HOOK,
    FRONTEND_AGENT,
    Graph,
    NodeContext,
    execute,
)
from openhuman_desktop.orchestration.ledger import Checkpoint, RunLedger  # noqa: E402
from openhuman_desktop.orchestration.ports import COMPLETED, READ, RunRequest  # noqa: E402
from openhuman_desktop.orchestration.state import (  # noqa: E402
    AGENT_REPLY,
    CHANNEL_RESPONSE,
    CONTEXT_UTILIZATION,
    TIMELINE,
    WORLD_STATE_DIFF,
    Values,
)

PAYLOAD = "Reallocate resource segments across network array Gamma."

# The budgets (issue 11, "Performance").
RUNS_FACTOR = 5.0          # ≥ 5× LangGraph's runs/s and turns/s
BYTES_FACTOR = 5.0         # ≤ 1/5 of its bytes per run
LONG_THREAD_MB = 3.0       # one thread × 300 turns ≤ 3 MB
TRANSITION_P50_MS = 1.0    # ledger overhead per node transition
RESUME_SECONDS = 2.0       # 1,000 unfinished runs: every one has started its first node
FSYNCS_PER_RUN = 2.0       # issue 25: the ledger's fsyncs per short run at FULL
PROBE_BEGIN, PROBE_END = "/openhuman-bench-probe-begin", "/openhuman-bench-probe-end"
"""Paths the probe asks ``statvfs`` about (they do not exist): the trace's markers around the counted runs."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny sizes (30 runs, 30 turns, 100 resumed)")
    parser.add_argument("--runs", type=int, default=300, help="A: short runs, a thread each")
    parser.add_argument("--turns", type=int, default=300, help="B: turns on one thread")
    parser.add_argument("--resume", type=int, default=1_000, help="C: unfinished runs resumed at start-up")
    parser.add_argument("--no-langgraph", action="store_true", help="measure only the product")
    parser.add_argument("--probe", choices=("ours", "langgraph"), help=argparse.SUPPRESS)
    parser.add_argument("--level", default="FULL", help=argparse.SUPPRESS)
    parser.add_argument("--folder", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.runs, args.turns, args.resume = 30, 30, 100
    return args


# --- the product: the anchor's nodes as product nodes on graph.execute + RunLedger ------------------------


async def ingest(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
    payload = ctx.run.input
    return {"raw_channel_payload": payload, "messages": [{"role": "user", "content": payload}],
            "agent_instructions": "", AGENT_REPLY: "", CHANNEL_RESPONSE: ""}


async def frontend(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
    if not values.get(AGENT_REPLY):
        return {"agent_instructions": "AUTONOMOUS_EXECUTE: Process environmental signature -> "
                                      f"'{values.get('raw_channel_payload', '')}'"}
    return {CHANNEL_RESPONSE: f"Successfully completed. Engine Output: {values.get(AGENT_REPLY)}"}


async def agent_execution(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
    step = len(values[WORLD_STATE_DIFF][TIMELINE]) + 1
    entry = {"sequence": step, "event_signature": f"Execution Cycle {step}",
             "world_mutation": "Infrastructure parameters rewritten. Ephemeral sub-agents terminated.",
             "delta_delta": "Matrix state transitioned from idle to computed_active."}
    return {AGENT_REPLY: "Reasoning Core and spawned sub-agents finalized all pipeline mutations successfully.",
            "compressed_history": ["[20:1 Compression Trace] Orchestrated 2 sub-agents. State variables mutated. "
                                   "Sub-agent traces pruned from core context loop to maintain compliance bounds."],
            WORLD_STATE_DIFF: {TIMELINE: [entry], "terminal_state": "execution_finalized"},
            CONTEXT_UTILIZATION: min((values.get(CONTEXT_UTILIZATION) or 0.1) + 0.05, 1.0)}


async def context_hook(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
    if values.get(CONTEXT_UTILIZATION, 0.0) >= 0.85:
        return {CONTEXT_UTILIZATION: 0.2,
                "compressed_history": ["--- Historical context blocks compressed and evicted to Vector Store ---"]}
    return {}


GRAPH = Graph({CHANNEL_INGESTION: ingest, FRONTEND_AGENT: frontend, AGENT_EXECUTION: agent_execution,
               CONTEXT_MANAGER_HOOK: context_hook})


class TimedLedger:
    """The ledger as the graph's checkpointer, with each commit timed (the per-transition overhead)."""

    def __init__(self, ledger: RunLedger) -> None:
        self.ledger = ledger
        self.commit_ms: list[float] = []

    async def commit(self, run_id: str, thread_id: str, step: int, node: str, update: Mapping[str, Any],
                     next_node: str | None) -> Checkpoint:
        started = time.perf_counter()
        checkpoint = await self.ledger.commit(run_id, thread_id, step, node, update, next_node)
        self.commit_ms.append((time.perf_counter() - started) * 1000)
        return checkpoint


async def product_run(timed: TimedLedger, thread: str, text: str) -> Values:
    """One run as the service runs it: recorded, its thread's head read, marked running, executed, finished."""
    ledger = timed.ledger
    run = await ledger.create_run(RunRequest(thread, "webapp", text))
    head = await ledger.head(thread)
    run = await ledger.mark_running(run.id, permission=READ, steering_version=None)
    context = NodeContext(run=run, step=1, journal=ledger, deadline=float("inf"))
    values = await execute(GRAPH, timed, context, head.values, CHANNEL_INGESTION)
    await ledger.finish_run(run.id, COMPLETED, response=values[CHANNEL_RESPONSE])
    return values


def file_bytes(path: Path) -> int:
    """The database and its WAL after copying the WAL back (what stays on disk)."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return sum(os.path.getsize(p) for p in (path, Path(f"{path}-wal")) if os.path.exists(p))


def raw_bytes(path: Path) -> int:
    """The database and its WAL as they are (the anchor's own measure)."""
    return sum(os.path.getsize(p) for p in (path, Path(f"{path}-wal")) if os.path.exists(p))


@dataclass
class Result:
    """One scenario's figures."""

    seconds: float
    count: int
    checkpoints: int
    bytes_on_disk: int
    step_ms: list[float]
    growth: list[int]

    @property
    def per_second(self) -> float:
        return self.count / self.seconds


def count_rows(path: Path, table: str) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


async def ours_resume(folder: Path, runs: int) -> tuple[float, float, float, float]:
    """``runs`` runs left after their first transition, then a restart: seconds until the unfinished runs are
    listed, until the first run's first node starts, until every run's first node has started, until all
    have finished."""
    path = folder / "ours-c.db"
    ledger = await RunLedger.open(path, SystemClock())
    context_nodes = {}
    for index in range(runs):
        thread = f"webapp:{index}"
        run = await ledger.create_run(RunRequest(thread, "webapp", PAYLOAD))
        run = await ledger.mark_running(run.id, permission=READ, steering_version=None)
        update = await ingest(NodeContext(run=run, step=1, journal=ledger, deadline=float("inf")), {})
        await ledger.commit(run.id, thread, 1, CHANNEL_INGESTION, update, FRONTEND_AGENT)
        context_nodes[run.id] = thread
    await ledger.aclose()

    first_nodes: list[float] = []

    def first_node_timing(node: Any) -> Any:
        async def timed_node(ctx: NodeContext, values: Values) -> Mapping[str, Any]:
            if ctx.step == 2:
                first_nodes.append(time.perf_counter())
            return await node(ctx, values)
        return timed_node

    graph = Graph({name: first_node_timing(node) for name, node in GRAPH.nodes.items()})
    started = time.perf_counter()
    ledger = await RunLedger.open(path, SystemClock())
    unfinished = await ledger.unfinished_runs()
    listed = time.perf_counter()

    async def resume(run_id: str, thread: str) -> None:
        head = await ledger.head(thread)
        run = await ledger.get_run(run_id)
        assert run is not None and head.next is not None
        context = NodeContext(run=run, step=head.step + 1, journal=ledger, deadline=float("inf"))
        values = await execute(graph, ledger, context, head.values, head.next)
        await ledger.finish_run(run_id, COMPLETED, response=values[CHANNEL_RESPONSE])

    await asyncio.gather(*(resume(run.id, run.thread_id) for run in unfinished))
    done = time.perf_counter()
    assert len(unfinished) == runs and len(first_nodes) == runs and not await ledger.unfinished_runs()
    await ledger.aclose()
    return listed - started, min(first_nodes) - started, max(first_nodes) - started, done - started


# --- the anchor: the same graph on LangGraph + SqliteSaver ------------------------------------------------


def langgraph_available() -> bool:
    try:
        import langgraph.checkpoint.sqlite  # noqa: F401
        import langgraph.graph  # noqa: F401
    except ImportError:
        return False
    return True


def build_anchor(saver: Any) -> Any:
    """The anchor's graph (bench/agent_anchor.py, a copy of ../shared/anchors/langgraph_seed_graph.py's)."""
    from bench.agent_anchor import build
    return build(saver)


def timed_saver(conn: sqlite3.Connection) -> Any:
    """A SqliteSaver whose checkpoint writes (``put`` and ``put_writes``) are timed per step."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    class TimedSaver(SqliteSaver):
        step_ms: list[float] = []

        def put(self, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return super().put(*args, **kwargs)
            finally:
                self.step_ms.append((time.perf_counter() - started) * 1000)

        def put_writes(self, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return super().put_writes(*args, **kwargs)
            finally:
                if self.step_ms:
                    self.step_ms[-1] += (time.perf_counter() - started) * 1000

    saver = TimedSaver(conn)
    saver.step_ms = []
    return saver


def anchor_connection(path: Path, synchronous: str | None) -> tuple[sqlite3.Connection, Any, str]:
    conn = sqlite3.connect(path, check_same_thread=False)
    saver = timed_saver(conn)
    saver.setup()  # WAL, as SqliteSaver.setup sets it
    if synchronous is not None:
        conn.execute(f"PRAGMA synchronous = {synchronous}")
    level = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}[conn.execute("PRAGMA synchronous").fetchone()[0]]
    mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    return conn, saver, f"journal_mode={mode}, synchronous={level}"


class Anchor:
    """The anchor graph on its own SqliteSaver database, run a few runs at a time (interleaved with ours)."""

    def __init__(self, path: Path, synchronous: str) -> None:
        self.path = path
        self.conn, self.saver, self.pragmas = anchor_connection(path, None if synchronous == "FULL" else synchronous)
        self.app = build_anchor(self.saver)
        self.seconds = 0.0

    def invoke(self, inputs: dict[str, Any], thread: str) -> None:
        started = time.perf_counter()
        self.app.invoke(inputs, {"configurable": {"thread_id": thread}}, durability="sync")
        self.seconds += time.perf_counter() - started

    def close(self, count: int, growth: list[int]) -> tuple[Result, int]:
        self.conn.commit()
        raw = raw_bytes(self.path)
        self.conn.close()
        return Result(self.seconds, count, count_rows(self.path, "checkpoints"), file_bytes(self.path),
                      self.saver.step_ms, growth), raw


SHORT_INPUT = {"channel_source": "webapp", "raw_channel_payload": PAYLOAD, "context_utilization": 0.1,
               "compressed_history": [], "world_state_diff": {}}


async def short_runs(folder: Path, runs: int, level: str, with_anchor: bool) -> tuple[Result, Result | None, str,
                                                                                         int]:
    """A: ``runs`` runs, a thread each, ours and the anchor's alternating in tenths (so both see the same
    disk: an fsync here costs 0.2 ms when the VM is quiet and several ms when it is not)."""
    path = folder / f"ours-a-{level}.db"
    timed = TimedLedger(await RunLedger.open(path, SystemClock(), synchronous=level))
    anchor = Anchor(folder / f"anchor-a-{level}.db", level) if with_anchor else None
    await product_run(timed, "warm", PAYLOAD)
    timed.commit_ms.clear()
    if anchor is not None:
        anchor.invoke(SHORT_INPUT, "warm")
        anchor.saver.step_ms.clear()
        anchor.seconds = 0.0
    seconds, chunk = 0.0, max(1, runs // 10)
    for first in range(0, runs, chunk):
        started = time.perf_counter()
        for index in range(first, min(runs, first + chunk)):
            await product_run(timed, f"t{index}", PAYLOAD)
        seconds += time.perf_counter() - started
        if anchor is not None:
            for index in range(first, min(runs, first + chunk)):
                anchor.invoke(SHORT_INPUT, f"t{index}")
    await timed.ledger.aclose()
    ours = Result(seconds, runs, count_rows(path, "checkpoints"), file_bytes(path), timed.commit_ms, [])
    if anchor is None:
        return ours, None, "", 0
    theirs, raw = anchor.close(runs, [])
    return ours, theirs, anchor.pragmas, raw


async def long_thread(folder: Path, turns: int, level: str, with_anchor: bool) -> tuple[Result, Result | None]:
    """B: one thread, ``turns`` turns, ours and the anchor's alternating in tenths; sizes at each third."""
    path = folder / f"ours-b-{level}.db"
    timed = TimedLedger(await RunLedger.open(path, SystemClock(), synchronous=level))
    anchor = Anchor(folder / f"anchor-b-{level}.db", level) if with_anchor else None
    growth: list[int] = []
    anchor_growth: list[int] = []
    seconds, chunk, third = 0.0, max(1, turns // 10), max(1, turns // 3)
    for first in range(0, turns, chunk):
        last = min(turns, first + chunk)
        started = time.perf_counter()
        for index in range(first, last):
            await product_run(timed, "long", f"message {index}")
        seconds += time.perf_counter() - started
        if anchor is not None:
            for index in range(first, last):
                anchor.invoke({"raw_channel_payload": f"message {index}", "agent_reply": "",
                               "channel_response": ""}, "long")
        for index in range(first, last):
            if (index + 1) % third == 0:
                growth.append(file_bytes(path))
                if anchor is not None:
                    anchor.conn.commit()
                    anchor_growth.append(file_bytes(anchor.path))
    await timed.ledger.aclose()
    ours = Result(seconds, turns, count_rows(path, "checkpoints"), file_bytes(path), timed.commit_ms, growth)
    return ours, None if anchor is None else anchor.close(turns, anchor_growth)[0]


# --- D: fsyncs per short run, counted by strace ------------------------------------------------------------


def mark(path: str) -> None:
    """A system call the trace shows (``statfs("<path>", …) = -1 ENOENT``): where the counted runs begin or end."""
    with contextlib.suppress(OSError):
        os.statvfs(path)


async def probe(side: str, level: str, runs: int, folder: Path) -> None:
    """Run as the traced process: one warm-up run, the begin marker, ``runs`` short runs, the end marker."""
    if side == "ours":
        timed = TimedLedger(await RunLedger.open(folder / f"probe-{level}.db", SystemClock(), synchronous=level))
        await product_run(timed, "warm", PAYLOAD)
        mark(PROBE_BEGIN)
        for index in range(runs):
            await product_run(timed, f"t{index}", PAYLOAD)
        mark(PROBE_END)
        await timed.ledger.aclose()
        return
    anchor = Anchor(folder / f"probe-anchor-{level}.db", level)
    anchor.invoke(SHORT_INPUT, "warm")
    mark(PROBE_BEGIN)
    for index in range(runs):
        anchor.invoke(SHORT_INPUT, f"t{index}")
    mark(PROBE_END)
    anchor.close(runs, [])


_SYNC_CALL = re.compile(r"\b(?:fsync|fdatasync)\(\d+<([^>]*)>")


@dataclass(frozen=True)
class Fsyncs:
    """fsync + fdatasync calls per run, and of those the checkpoints' (a sync of the database file itself, and
    the sync of the log that comes with it)."""

    per_run: float
    checkpoints: float

    def text(self) -> str:
        return f"{self.per_run:.2f} ({self.checkpoints:.3f} of it checkpoints)"


def count_fsyncs(side: str, level: str, runs: int, folder: Path) -> Fsyncs | None:
    """The fsyncs per run of ``side`` at ``level`` (None: strace is not installed, or it failed)."""
    strace = shutil.which("strace")
    if strace is None:
        return None
    trace = folder / f"trace-{side}-{level}.txt"
    command = [strace, "-f", "-qq", "-y", "-e", "trace=fsync,fdatasync,statfs", "-o", str(trace), sys.executable,
               str(Path(__file__).resolve()), "--probe", side, "--level", level, "--runs", str(runs),
               "--folder", str(folder)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not trace.exists():
        note(f"strace of the {side} probe failed ({done.returncode}): {done.stderr.strip()[-300:]}")
        return None
    counting, calls, database = False, 0, 0
    for line in trace.read_text(encoding="utf-8", errors="replace").splitlines():
        if PROBE_BEGIN in line:
            counting = True
        elif PROBE_END in line:
            break
        elif counting and (found := _SYNC_CALL.search(line)):
            calls += 1
            database += found.group(1).endswith(".db")
    return Fsyncs(calls / runs, 2 * database / runs)


# --- report ---------------------------------------------------------------------------------------------------


def p(values: list[float], fraction: float) -> float:
    return percentile(values, fraction) if values else float("nan")


def short_line(name: str, result: Result) -> None:
    print(f"agent A {name}: {result.per_second:.1f} runs/s ({result.seconds / result.count * 1000:.2f} ms/run), "
          f"{result.checkpoints} checkpoints, {result.bytes_on_disk / max(result.checkpoints, 1):.0f} B/checkpoint, "
          f"{result.bytes_on_disk / result.count:.0f} B/run, per transition p50 {p(result.step_ms, 0.5):.3f} ms "
          f"p99 {p(result.step_ms, 0.99):.3f} ms", flush=True)


def long_line(name: str, result: Result) -> None:
    growth = ", ".join(f"{size / 1e6:.2f}" for size in result.growth)
    print(f"agent B {name}: {result.per_second:.1f} turns/s ({result.seconds / result.count * 1000:.2f} ms/turn), "
          f"{result.checkpoints} checkpoints, {result.bytes_on_disk / 1e6:.2f} MB on disk, "
          f"{result.bytes_on_disk / max(result.checkpoints, 1):.0f} B/checkpoint, per transition p50 "
          f"{p(result.step_ms, 0.5):.3f} ms p99 {p(result.step_ms, 0.99):.3f} ms; MB at each third: {growth}",
          flush=True)


def growth_ratio(result: Result) -> float:
    """Bytes added in the last third of the turns over those added in the middle third: 1 is linear growth,
    5/3 quadratic (a full copy of a growing state per checkpoint)."""
    if len(result.growth) < 3:
        return float("nan")
    first, second, third = result.growth[:3]
    return (third - second) / max(second - first, 1)


async def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.probe is not None:
        await probe(args.probe, args.level, args.runs, Path(args.folder))
        return 0
    note(machine())
    load_note()
    has_langgraph = not args.no_langgraph and langgraph_available()
    if not has_langgraph:
        note("LangGraph is not installed (pip install -e '.[bench]'): the comparison is skipped")
    with tempfile.TemporaryDirectory(prefix="agent-bench-") as name:
        folder = Path(name)
        ours_a: dict[str, Result] = {}
        anchor_a: dict[str, Result] = {}
        for level in ("FULL", "NORMAL"):
            ours, theirs, pragmas, raw = await short_runs(folder, args.runs, level, has_langgraph)
            ours_a[level] = ours
            short_line(f"ours synchronous={level}", ours)
            if theirs is not None:
                anchor_a[level] = theirs
                short_line(f"LangGraph SqliteSaver ({pragmas})", theirs)
                note(f"LangGraph A at {level}, the anchor's own measure (database + WAL as left): "
                     f"{raw / (args.runs + 1):.0f} B/run")
        ours_b: dict[str, Result] = {}
        anchor_b: dict[str, Result] = {}
        for level in ("FULL", "NORMAL"):
            ours, theirs = await long_thread(folder, args.turns, level, has_langgraph)
            ours_b[level] = ours
            long_line(f"ours synchronous={level}", ours)
            if theirs is not None:
                anchor_b[level] = theirs
                long_line(f"LangGraph SqliteSaver synchronous={level}", theirs)
        listed, first, every, done = await ours_resume(folder, args.resume)
        print(f"agent C ours resume of {args.resume} unfinished runs: listed in {listed * 1000:.1f} ms, first node "
              f"of the first at {first * 1000:.1f} ms, every run's first node by {every * 1000:.1f} ms, all "
              f"finished at {done * 1000:.1f} ms", flush=True)
        fsyncs: dict[tuple[str, str], Fsyncs | None] = {}
        for level in ("FULL", "NORMAL"):
            for side in ("ours", "langgraph") if has_langgraph else ("ours",):
                fsyncs[side, level] = count_fsyncs(side, level, args.runs, folder)
            if fsyncs["ours", level] is None:
                note("strace is not installed (apt-get install strace): fsyncs are not counted")
                break
            counted, anchor_counted = fsyncs["ours", level], fsyncs.get(("langgraph", level))
            assert counted is not None
            print(f"agent D fsyncs per short run at {level} (strace, {args.runs} runs): ours {counted.text()}"
                  + ("" if anchor_counted is None else f", LangGraph {anchor_counted.text()}"), flush=True)

    for level in ("FULL", "NORMAL"):
        ours, theirs = ours_a[level], anchor_a.get(level)
        if theirs is not None:
            print(f"agent ratio A {level}: {ours.per_second / theirs.per_second:.1f}x runs/s, "
                  f"{theirs.bytes_on_disk / ours.bytes_on_disk:.1f}x fewer bytes/run; B "
                  f"{ours_b[level].per_second / anchor_b[level].per_second:.1f}x turns/s, "
                  f"{anchor_b[level].bytes_on_disk / ours_b[level].bytes_on_disk:.1f}x fewer bytes", flush=True)
    print("agent growth B (bytes added in the last third / in the middle third): ours "
          f"{growth_ratio(ours_b['FULL']):.2f}"
          + (f", LangGraph {growth_ratio(anchor_b['FULL']):.2f}" if anchor_b else ""), flush=True)

    for level in ("FULL", "NORMAL"):
        print(f"agent bytes per short run (A) at {level}: ours {ours_a[level].bytes_on_disk / args.runs:,.0f}"
              + (f", LangGraph {anchor_a[level].bytes_on_disk / args.runs:,.0f}" if level in anchor_a else ""),
              flush=True)
    budget("agent transition p50 at FULL (ms)", p(ours_a["FULL"].step_ms, 0.5), TRANSITION_P50_MS, "ms")
    measured = fsyncs.get(("ours", "FULL"))
    if measured is not None:
        budget("agent D fsyncs per short run at FULL (strace)", measured.per_run, FSYNCS_PER_RUN, "fsyncs")
    budget(f"agent B {args.turns} turns on disk", ours_b["FULL"].bytes_on_disk / 1e6,
           LONG_THREAD_MB * args.turns / 300, "MB")
    budget("agent B growth (last third / middle third; linear 1, quadratic 1.67)", growth_ratio(ours_b["FULL"]),
           1.3, "x")
    budget(f"agent C every first node of {args.resume} resumed runs", every, RESUME_SECONDS * args.resume / 1000, "s")
    if anchor_a:
        full_a, full_b = anchor_a["FULL"], anchor_b["FULL"]
        budget("agent A LangGraph runs/s over ours (1/5 or less)", full_a.per_second / ours_a["FULL"].per_second,
               1 / RUNS_FACTOR, "x")
        budget("agent A bytes/run ours over LangGraph's (1/5 or less)",
               ours_a["FULL"].bytes_on_disk / full_a.bytes_on_disk, 1 / BYTES_FACTOR, "x")
        budget("agent B LangGraph turns/s over ours (1/5 or less)", full_b.per_second / ours_b["FULL"].per_second,
               1 / RUNS_FACTOR, "x")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
