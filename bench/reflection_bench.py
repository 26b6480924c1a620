"""Reflection benchmark: a month of activity (1,000 compressed-history entries, 10,000 timeline entries) in a
real run ledger; the reflection prompt is fitted to the subconscious window (the context hook fires), its
build time (p50/p95, no model time), a whole reflection against the fake Ollama, and idle reflection (nothing
new): 0 model calls."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import budget, figure, load_note, machine, note  # noqa: E402
from openhuman_desktop import events  # noqa: E402
from openhuman_desktop.bootstrap import LedgerReflectionPort  # noqa: E402
from openhuman_desktop.config import ModelSettings, Settings  # noqa: E402
from openhuman_desktop.llm import make_client  # noqa: E402
from openhuman_desktop.llm.pool import ModelClients  # noqa: E402
from openhuman_desktop.llm.tokens import TokenCounter  # noqa: E402
from openhuman_desktop.orchestration import graph  # noqa: E402
from openhuman_desktop.orchestration.directives import SteeringStore  # noqa: E402
from openhuman_desktop.orchestration.ledger import RunLedger  # noqa: E402
from openhuman_desktop.orchestration.state import COMPRESSED_HISTORY  # noqa: E402
from openhuman_desktop.skills.base import Mutation  # noqa: E402
from openhuman_desktop.subconscious import reflection_prompt  # noqa: E402
from openhuman_desktop.subconscious.reflection import Reflector  # noqa: E402
from openhuman_desktop.supervisor import TaskSupervisor  # noqa: E402
from tests.fakes.clock import FakeClock  # noqa: E402
from tests.fakes.model_servers import FakeOllama, Reply  # noqa: E402

BUILD_BUDGET_MS = 200.0
IDLE_CALLS_BUDGET = 0
DEEP, LOCAL = "deep-thought:7b", "llama3.2:3b"
KINDS = ("file_written", "task_changed", "memory_stored", "message_sent", "file_deleted")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="5 prompt builds instead of 30")
    parser.add_argument("--history", type=int, default=1_000)
    parser.add_argument("--timeline", type=int, default=10_000)
    parser.add_argument("--window", type=int, default=32_768, help="the subconscious model's context window")
    args = parser.parse_args(argv)
    args.builds = 5 if args.quick else 30
    return args


def responder(body: Any) -> Reply:
    system = next((m.get("content", "") for m in body.get("messages", []) if m.get("role") == "system"), "")
    if reflection_prompt.ROLE in system:
        return Reply(content=json.dumps({"directive": "Batch the note edits; check the tasks list before adding.",
                                         "rationale": "Notes are edited many times a day."}))
    return Reply(content="Mostly notes were written and tasks checked.")


async def fill(ledger: RunLedger, clock: FakeClock, history: int, timeline: int) -> None:
    """A month: history entries in checkpoints of 20 across threads, timeline entries in commits of 100."""
    start = clock.now() - 30 * 86_400
    for first in range(0, history, 20):
        entries = [{"run_id": f"run-{n}", "text": f"Run {n}: read notes/day{n % 30}.md, updated task {n % 17} and "
                    f"wrote a summary of {n % 9 + 1} items into notes/summary.md; the user asked for it.",
                    "trace_tokens": 800, "summary_tokens": 40, "at": start + n * 2_592}
                   for n in range(first, min(history, first + 20))]
        await ledger.update_state(("desktop", "telegram:42", "webapp:s1")[first // 20 % 3],
                                  {COMPRESSED_HISTORY: entries}, graph.SUBCONSCIOUS_CRON)
    for first in range(0, timeline, 100):
        await ledger.append_timeline(
            [Mutation(KINDS[n % len(KINDS)], f"notes/day{n % 30}.md", f"appended {n % 200} bytes", n % 500,
                      n % 500 + n % 200) for n in range(first, min(timeline, first + 100))], None)


async def main_async(args: argparse.Namespace) -> int:
    ok = True  # the deterministic checks (the hook fired, the prompt fits, idle asks nothing); timings only print
    with tempfile.TemporaryDirectory() as folder, FakeOllama() as server:
        server.add_model(DEEP, context_length=args.window)
        server.add_model(LOCAL, context_length=8192)
        server.set_responder(responder)
        clock = FakeClock(time.time())
        ledger = await RunLedger.open(Path(folder) / "ledger.db", clock, synchronous="OFF")
        bus, supervisor = events.EventBus(), TaskSupervisor()
        settings = Settings(models={"local": ModelSettings("ollama", LOCAL, base_url=server.url),
                                    "subconscious": ModelSettings("ollama", DEEP, base_url=server.url,
                                                                  context_window=args.window)})
        models = ModelClients(lambda: settings, make_client)
        port = LedgerReflectionPort(ledger, SteeringStore(ledger, clock, bus))
        tokens = TokenCounter()
        await tokens.warm_up()
        try:
            started = time.perf_counter()
            await fill(ledger, clock, args.history, args.timeline)
            note(f"filled the ledger with {args.history:,} history entries and {args.timeline:,} timeline "
                 f"entries in {time.perf_counter() - started:.1f} s")
            read_times, build_times = [], []
            built = None
            threshold = settings.agent.context_threshold
            for _ in range(args.builds):
                began = time.perf_counter()
                history = await port.history(0, args.history)
                entries = await port.timeline(0, args.timeline)
                read = time.perf_counter()
                built = await reflection_prompt.build(history, entries, None, tokens=tokens, window=args.window,
                                                      threshold=threshold)
                read_times.append((read - began) * 1000)
                build_times.append((time.perf_counter() - read) * 1000)
            assert built is not None
            figure(f"reflection read {args.history:,} + {args.timeline:,} entries from the ledger", read_times)
            build = figure(f"reflection prompt build over {args.history:,} + {args.timeline:,} entries "
                           f"(window {args.window:,}, no model)", build_times)
            exact = tokens.count(built.system) + tokens.count(built.user)
            print(f"reflection prompt: hook fired {built.hook_fired}, {built.evicted:,} entries condensed, "
                  f"{built.tokens:,} tokens counted ({exact:,} recounted whole) of a {args.window:,} window "
                  f"(threshold {threshold:.0%} = {int(args.window * threshold):,})", flush=True)
            ok &= built.hook_fired
            ok &= budget("reflection prompt within the subconscious window at the threshold", exact,
                         args.window * threshold - reflection_prompt.ANSWER_TOKENS, "tokens")
            budget("reflection prompt build p95", build.p95, BUILD_BUDGET_MS, "ms")  # timing: reported, not fatal

            reflector = Reflector(port, models, tokens, lambda: settings, clock, bus, supervisor)
            began = time.perf_counter()
            first = await reflector.reflect()
            whole_ms = (time.perf_counter() - began) * 1000
            summaries = sum(1 for r in server.chat_requests if r.json.get("model") == LOCAL)
            print(f"reflection against the fake Ollama: {first.status}, {whole_ms:.0f} ms, "
                  f"{reflector.model_calls} model calls ({summaries} quick-tier map-reduce summaries), "
                  f"prompt {first.prompt_tokens:,} tokens, {first.evicted:,} entries evicted", flush=True)
            ok &= first.status == "directive"
            calls_before, requests_before = reflector.model_calls, len(server.requests)
            idle = await reflector.reflect()
            idle_calls = reflector.model_calls - calls_before
            print(f"idle reflection (nothing new): {idle.status}, {idle_calls} model calls, "
                  f"{len(server.requests) - requests_before} HTTP requests, {idle.prompt_tokens} tokens", flush=True)
            ok &= budget("idle reflection model calls", idle_calls + len(server.requests) - requests_before,
                         IDLE_CALLS_BUDGET, "calls")
        finally:
            await supervisor.cancel_all()
            await models.aclose()
            await ledger.aclose()
    note(machine())
    load_note()
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(main_async(parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
