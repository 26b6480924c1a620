"""Tick benchmark: engine overhead of one tick with many due tasks over a big log, without model time."""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import (  # noqa: E402
    ModelServerProcess,
    budget,
    bulk_insert_log,
    bulk_insert_tasks,
    config_text,
    figure,
    load_note,
    machine,
    ms_since,
    note,
    prepare_workspace,
    timed_async,
)
from openhuman_desktop import bootstrap, config  # noqa: E402
from openhuman_desktop.llm.base import (
    ChatRequest,  # noqa: E402
    LlmClient,  # noqa: E402
)
from openhuman_desktop.llm.tokens import TokenCounter  # noqa: E402
from openhuman_desktop.paths import Paths  # noqa: E402
from openhuman_desktop.store import Task  # noqa: E402
from openhuman_desktop.subconscious.decisions import ChangeItem, Decision, Evaluation, Report  # noqa: E402
from openhuman_desktop.subconscious.defaults import DEFAULT_TASKS  # noqa: E402
from openhuman_desktop.subconscious.engine import SubconsciousEngine  # noqa: E402
from openhuman_desktop.subconscious.judgement import Judge  # noqa: E402

# DESIGN §5: 30 ms for 1,000 due tasks, 300 ms for 10,000 (the cost grows linearly); raised from 100 ms once met.
TICK_BUDGET_MS_PER_1000 = 30.0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="tiny sizes (100 due tasks, 5,000 rows, 1 repeat)")
    parser.add_argument("--tasks", type=int, default=1_000, help="due tasks (including the 3 system tasks)")
    parser.add_argument("--rows", type=int, default=100_000, help="activity log rows before the first tick")
    parser.add_argument("--repeats", type=int, default=5, help="timed ticks per figure")
    parser.add_argument("--context", type=int, default=131_072, help="context window the fake model reports")
    parser.add_argument("--profile", action="store_true", help="cProfile one tick with each evaluator")
    args = parser.parse_args(argv)
    if args.quick:
        args.tasks, args.rows, args.repeats = 100, 5_000, 1
    return args


class InstantNoop:
    """An evaluator stub: every task is ``noop`` at once, no model, no prompt (isolates the engine)."""

    async def evaluate(self, tasks: Sequence[Task], report: Report) -> Evaluation:
        return Evaluation({task.id: Decision(task.id, "noop", "bench") for task in tasks})


async def tick(engine: SubconsciousEngine) -> tuple[float, dict[str, float | int]]:
    engine.last_tick_stats.clear()
    started = time.perf_counter()
    await engine.run_tick("bench")
    return ms_since(started), dict(engine.last_tick_stats)


def stub_engine(services: bootstrap.Services) -> SubconsciousEngine:
    """A second engine over the same store and parts, but with :class:`InstantNoop` (its heartbeat never runs)."""
    real = services.engine
    return SubconsciousEngine(
        store=services.store, sync_tasks=services.subconscious.sync_heartbeat_file, cards=services.approvals,
        clock=services.clock, bus=services.bus, settings=services.settings, supervisor=services.tasks,
        reporter=real._reporter,  # bench-only access to the real reporter and executor
        evaluator=InstantNoop(), executor=real._executor,
    )


class ChatRecorder:
    """Keeps the local model client's chat requests (the model server is another process)."""

    def __init__(self, client: Any) -> None:
        self.requests: list[ChatRequest] = []
        self.send = client.chat  # the real method, for replays that are not recorded

        async def chat(request: ChatRequest) -> Any:
            self.requests.append(request)
            return await self.send(request)

        client.chat = chat


async def chat_round_trips(recorder: ChatRecorder, repeats: int) -> list[float]:
    """Replay the last evaluation request on the fake model: the "model time" of a tick on this machine."""
    request = recorder.requests[-1]
    samples, _ = await timed_async(repeats, recorder.send, request)
    return samples


async def phases(services: bootstrap.Services, due_count: int, repeats: int) -> None:
    """Two parts of a tick on their own: the due-task query and the situation report."""
    reporter = services.engine._reporter
    samples, report_samples = [], []
    state = await services.store.state.load()
    for _ in range(repeats):
        now = time.time()
        started = time.perf_counter()
        due = await services.store.tasks.due(now)
        samples.append(ms_since(started))
        started = time.perf_counter()
        report = await reporter.build(due, state.last_tick_at, now)
        report_samples.append(ms_since(started))
    assert len(due) == due_count
    figure(f"phase TaskRepository.due -> {len(due):,} tasks", samples)
    figure(f"phase SituationReporter.build ({report.tokens:,} tokens)", report_samples)
    # The relevance gate alone (issue 24): every due task's rule against one changed file that concerns none of
    # them, as the judge decides it before any model (a client that is never called).
    judge = Judge(lambda: cast(LlmClient, object()), TokenCounter())
    seen = [replace(task, last_run_at=1.0) for task in due]
    change = Report("## Changed workspace files\n", "s", 10, items=(
        ChangeItem("file", "notes/recipes.md", "+ 200 g flour, 2 eggs, a pinch of salt", "changed", at=2.0),))
    gate_samples, calls = [], 0
    for _ in range(max(3, repeats)):
        started = time.perf_counter()
        evaluation = await judge.evaluate(seen, change)
        gate_samples.append(ms_since(started))
        calls += evaluation.model_calls
    figure(f"phase relevance gate, {len(seen):,} tasks against one unrelated change ({calls} model calls)",
           gate_samples)


def prepare(args: argparse.Namespace, root: Path, model_url: str) -> Paths:
    """The workspace with ``args.tasks`` due tasks (the 3 system tasks are seeded on start) and the log."""
    paths = prepare_workspace(root, config_text(heartbeat=False, ollama_url=model_url, max_rows=200_000))
    ids = bulk_insert_tasks(paths.subconscious_db, args.tasks - len(DEFAULT_TASKS), now=time.time())
    bulk_insert_log(paths.subconscious_db, args.rows, ids, newest_at=time.time() - 3600)
    return paths


async def run(args: argparse.Namespace, paths: Paths) -> int:
    started = time.perf_counter()
    TokenCounter().count("warm up")
    note(f"tokenizer first load: {ms_since(started):.0f} ms (once per process, not counted below)")
    services = await bootstrap.build(paths, config.load(paths.config_file))
    try:
        await services.start()
        bootstrap.freeze_startup_objects()  # as the app does once started
        health = await services.models.check("local")
        note(f"local model: {health.message}")
        engine = services.engine
        recorder = ChatRecorder(services.models.get("local"))
        wall, info = await tick(engine)
        note(f"first tick (cold, report since ever): {wall:.1f} ms wall, engine tick_ms {info.get('tick_ms', 0):.1f}")
        counter = TokenCounter()
        sent = sum(counter.count(message.content) for message in recorder.requests[-1].messages)
        print(f"tick model calls per tick ({args.tasks:,} due): {info.get('model_calls')}, "
              f"prompt tokens per tick: {sent} (cl100k count of the request)", flush=True)
        idle_calls = []
        for n in (2, 3):
            before = len(recorder.requests)
            wall, info = await tick(engine)
            idle_calls.append(len(recorder.requests) - before)
            print(f"tick idle gate, tick {n} (nothing changed): {wall:.1f} ms wall, "
                  f"model calls {idle_calls[-1]}, prompt tokens {info.get('prompt_tokens')}", flush=True)

        model_ticks, upkeeps, walls = [], [], []
        for _ in range(args.repeats):
            await services.store.state.set_idle_signature(None)  # force a real evaluation
            wall, info = await tick(engine)
            walls.append(wall)
            model_ticks.append(float(info["tick_ms"]))
            upkeeps.append(float(info["upkeep_ms"]))
        model = figure(f"tick with fake Ollama, {args.tasks:,} due tasks (start to TickFinished)", model_ticks)
        figure("upkeep after the tick, off its path (WAL checkpoint; retention and filing at most hourly)", upkeeps)
        figure("tick wall with fake Ollama including the upkeep", walls)
        chat = figure("chat round trip of the same evaluation request (fake Ollama)",
                      await chat_round_trips(recorder, args.repeats))

        stub = stub_engine(services)
        stub_ticks = []
        for _ in range(args.repeats):
            await services.store.state.set_idle_signature(None)  # the full path, not the idle gate
            _, info = await tick(stub)
            stub_ticks.append(float(info["tick_ms"]))
        stub_stats = figure(f"tick with instant in-process evaluator, {args.tasks:,} due tasks (start to TickFinished)",
                            stub_ticks)
        gate_ticks, gate_calls = [], []
        for number in range(args.repeats):
            # Something changed, but it concerns none of the due tasks: the relevance gate (with the file's diff
            # in the report) decides every task without a model call (issue 24).
            recipe = services.paths.workspace / "notes" / f"recipe-{number}.md"
            recipe.parent.mkdir(parents=True, exist_ok=True)
            recipe.write_text(f"Pancakes no. {number}: 200 g flour, 2 eggs, 300 ml milk.\n", encoding="utf-8")
            before = len(recorder.requests)
            _, info = await tick(engine)
            gate_ticks.append(float(info["tick_ms"]))
            gate_calls.append(len(recorder.requests) - before)
        gate = figure(f"tick with one changed file that concerns no task (relevance gate and diff, the real "
                      f"evaluator), {args.tasks:,} due tasks", gate_ticks)
        print(f"tick model calls with a change that concerns no task: {sum(gate_calls)} over {len(gate_calls)} "
              "ticks", flush=True)
        overhead = model.median - chat.median
        print(f"tick overhead = tick with fake Ollama - chat round trip: {overhead:.1f} ms", flush=True)
        await phases(services, args.tasks, args.repeats)
        await breakdown(services, stub, "instant stub")
        await breakdown(services, engine, "fake Ollama")
        if args.profile:
            await profile(stub, "instant-evaluator")
            await services.store.state.set_idle_signature(None)
            await profile(engine, "fake-Ollama")
            (services.paths.workspace / "notes" / "recipe-profile.md").write_text(
                "Crumble: 150 g flour, 100 g butter, 4 apples.\n", encoding="utf-8")
            await profile(engine, "relevance-gate")
        await filing(services)
        rows = await services.store.log.count()
        note(f"log rows now {rows:,}")
        limit = TICK_BUDGET_MS_PER_1000 * max(1.0, args.tasks / 1000)
        budget(f"tick overhead, {args.tasks:,} due tasks, instant evaluator (median)", stub_stats.median, limit, "ms")
        budget(f"tick overhead, {args.tasks:,} due tasks, fake Ollama minus round trip (median)", overhead, limit,
               "ms")
        budget("idle gate: model calls on a tick with nothing changed (tick 2)", idle_calls[0], 0, "calls")
        budget(f"tick overhead, {args.tasks:,} due tasks, a change no task watches (relevance gate, median)",
               gate.median, limit, "ms")
    finally:
        await services.aclose()
    return 0


class Breakdown:
    """Wraps async methods of the tick's collaborators and adds up their wall time (bench-only)."""

    def __init__(self) -> None:
        self.totals: dict[str, list[float]] = {}
        self._undo: list[tuple[object, str]] = []

    def wrap(self, owner: object, name: str, label: str) -> None:
        original = getattr(owner, name)
        samples = self.totals.setdefault(label, [])

        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                samples.append(ms_since(started))

        setattr(owner, name, timed)
        self._undo.append((owner, name))

    def restore(self) -> None:
        for owner, name in self._undo:
            delattr(owner, name)  # the instance attribute goes; the class method shows again
        self._undo.clear()

    def print(self, total_ms: float) -> None:
        accounted = 0.0
        for label, samples in self.totals.items():
            spent = sum(samples)
            accounted += spent
            each = spent / len(samples) if samples else 0.0
            print(f"breakdown {label}: {len(samples):,} calls, {spent:.1f} ms total ({each:.3f} ms each)",
                  flush=True)
        print(f"breakdown rest of the tick (events, loop, bookkeeping): {total_ms - accounted:.1f} ms", flush=True)


async def breakdown(services: bootstrap.Services, engine: SubconsciousEngine, evaluator: str) -> None:
    """One tick with its store calls, report and evaluation timed one by one."""
    store = services.store
    await store.state.set_idle_signature(None)  # the full path, not the idle gate
    parts = Breakdown()
    parts.wrap(services.subconscious, "sync_heartbeat_file", "service.sync_heartbeat_file")
    parts.wrap(store.tasks, "due", "tasks.due")
    parts.wrap(store.log, "start_many", "log.start_many (insert the in_progress rows, 1 transaction; runs "
               "alongside the report and the evaluation, so the parts add up to more than the tick)")
    parts.wrap(engine._reporter, "build", "reporter.build (situation report)")
    parts.wrap(engine._evaluator, "evaluate", f"evaluator.evaluate ({evaluator})")
    parts.wrap(store.log, "finish_many", "log.finish_many (rows to their outcomes, 1 transaction)")
    parts.wrap(store.tasks, "advance_many", "tasks.advance_many (schedules past the tick, 1 transaction)")
    parts.wrap(store.state, "load", "state.load")
    parts.wrap(store.state, "save", "state.save")
    parts.wrap(store.state, "set_idle_signature", "state.set_idle_signature")
    try:
        _, info = await tick(engine)
    finally:
        parts.restore()
    total = float(info["tick_ms"])
    note(f"breakdown of one tick with the {evaluator} evaluator: {total:.1f} ms from start to TickFinished")
    parts.print(total)


async def filing(services: bootstrap.Services) -> None:
    """The upkeep's batched filing of the recent log rows under their tasks (schema v3), timed on its own."""
    store = services.store
    waiting = await store.db.fetchone("SELECT count(*) FROM subconscious_log WHERE filed = 0")
    count = int(waiting[0]) if waiting else 0
    started = time.perf_counter()
    filed = await store.log.file_recent(force=True)
    spent = ms_since(started)
    started = time.perf_counter()
    await store.db.checkpoint()
    print(f"upkeep filing {filed:,} recent log rows under their tasks (hourly, or once 10,000 wait): {spent:.1f} ms "
          f"({spent / max(1, count) * 1000:.1f} ms per 1,000 rows), then its checkpoint {ms_since(started):.1f} ms",
          flush=True)


async def profile(engine: SubconsciousEngine, label: str) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    await engine.run_tick("profile")
    profiler.disable()
    for key in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(key).print_stats(25)
        print(f"# --- cProfile of one {label} tick, by {key} ---")
        print(out.getvalue())


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    note(machine())
    load_note()
    models = ("llama3.2:3b", "qwen2.5:14b")
    with ModelServerProcess("bench.responders:noop_responder", models, context=args.context) as server, \
            tempfile.TemporaryDirectory(prefix="oh-tick-bench-") as tmp:
        paths = prepare(args, Path(tmp) / "workspace", server.url)
        return asyncio.run(run(args, paths))

if __name__ == "__main__":
    sys.exit(main())
