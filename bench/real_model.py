"""Real-model bench: the real headless app against a real small model (llama.cpp server, SmolLM2-135M-Instruct).

Three parts, each with the real app (``python -m openhuman_desktop --headless``) in a workspace of its own, both
model tiers pointed at a recording proxy (``bench/model_proxy.py``) in front of one llama.cpp server:

1. **Ticks of 10 due tasks** (the 3 system tasks and 7 user tasks, read and write): before every tick a file
   changes (so the idle gate does not skip the model). Per tick: the share of due tasks that got a valid
   decision, model calls, prompt/completion tokens (the server's ``usage``), the tick's wall time.
2. **50 changed files + 50 memories** in one tick: requests refused by the server, for context length or not.
3. **Labelled situations**: one task each (system tasks disabled), a first tick, then a change (or none), a
   second tick; the decision of the second tick against the expected one. The decision is read from what the
   app did: a run on the reasoning tier is ``escalate``, a free-text run on the local tier ``act``, a ``noop``
   row ``noop``, a row without a usable decision ``none``.

Figures go to stdout in the other benches' format (``label: median …``, ``# notes``, ``BUDGET ok|MISSED``).
Requests without an output cap are counted, then capped by the proxy at ``--safety-cap`` tokens so a runaway
answer cannot hold the single-slot server for minutes (llama.cpp keeps generating after the client gave up).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import common, real_model_server  # noqa: E402
from bench.common import AppProcess, RpcCaller, budget, figure, load_note, machine, note, prepare_workspace  # noqa: E402
from bench.model_proxy import Exchange, ModelProxy  # noqa: E402

TICK_SECONDS_BUDGET = 60.0
VALID_SHARE_BUDGET = 0.95
TICK_TIMEOUT = 900.0
NO_DECISION_PREFIX = "No usable decision"
DECIDED = ("noop", "act", "escalate")

BASE_FILES = {
    "notes/todo.md": "# To do\n\n- buy milk\n- water the plants on Sunday\n",
    "projects/garden.md": "Garden plan: tomatoes in the south bed, beans along the fence.\n",
}

USER_TASKS = (  # (title, expected intent)
    ("Send the weekly report to Alex", "write"),
    ("Check whether the backup finished", "read"),
    ("Tell me about anything urgent in my notes", "read"),
    ("Summarise what changed in my projects folder", "read"),
    ("Reply to new emails from my landlord", "write"),
    ("Create a calendar event for any meeting mentioned in my notes", "write"),
    ("Watch the logs folder for errors", "read"),
)


@dataclass(frozen=True)
class Situation:
    """One task; what changes between its first and its second tick; the decisions that are right."""

    name: str
    task: str
    intent: str
    expected: frozenset[str]
    files: dict[str, str] = field(default_factory=dict)
    memories: tuple[str, ...] = ()


ACT_OR_ESCALATE = frozenset({"act", "escalate"})
NOOP = frozenset({"noop"})

SITUATIONS = (
    Situation("urgent note in a changed file", "Tell me about anything urgent in my notes", "read",
              ACT_OR_ESCALATE, files={"notes/today.md": (
                  "URGENT: the TLS certificate of shop.example.com expires today at 17:00. "
                  "Renew it before then or the shop goes offline.\n")}),
    Situation("nothing changed (urgent-notes task)", "Tell me about anything urgent in my notes", "read", NOOP),
    Situation("urgent new memory", "Remind me of anything urgent I told you", "read", ACT_OR_ESCALATE,
              memories=("URGENT: call the bank before 3 pm today, my card was blocked.",)),
    Situation("nothing changed (memory task)", "Remind me of anything urgent I told you", "read", NOOP),
    Situation("write task, its trigger arrived", "Send the weekly report to Alex", "write", ACT_OR_ESCALATE,
              files={"reports/weekly-report.md": (
                  "Weekly report (week 48) is finished and ready to send to Alex: sales up 4 %, "
                  "two new customers, the release moved to Friday.\n")}),
    Situation("write task, unrelated change", "Send the weekly report to Alex", "write", NOOP,
              files={"notes/recipes.md": "Pancakes: 200 g flour, 2 eggs, 300 ml milk, a pinch of salt.\n"}),
    Situation("read task, its answer arrived", "Check whether the backup finished", "read", ACT_OR_ESCALATE,
              files={"logs/backup.log": "2026-12-01 02:14:07 backup finished OK: 3.2 GB, 41,233 files.\n"}),
    Situation("read task, unrelated change", "Check whether the backup finished", "read", NOOP,
              files={"notes/books.md": "Books to read: The Dispossessed, Piranesi, The Overstory.\n"}),
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2 ticks, 4 situations, 20 files + 20 memories")
    parser.add_argument("--url", help="an OpenAI-compatible server to use (default: start our own llama.cpp)")
    parser.add_argument("--model", default=real_model_server.MODEL_ALIAS, help="the model id it offers")
    parser.add_argument("--port", type=int, default=0, help="port for our own server (default: a free one)")
    parser.add_argument("--n-ctx", type=int, default=real_model_server.DEFAULT_CONTEXT)
    parser.add_argument("--threads", type=int, default=real_model_server.DEFAULT_THREADS,
                        help="--n_threads of our own server (1 is steadier on a loaded machine)")
    parser.add_argument("--ticks", type=int, default=4, help="ticks of 10 due tasks")
    parser.add_argument("--files", type=int, default=50, help="changed files in the big tick")
    parser.add_argument("--memories", type=int, default=50, help="new memories in the big tick")
    parser.add_argument("--situations", type=int, default=len(SITUATIONS), help="how many labelled situations")
    parser.add_argument("--safety-cap", type=int, default=512,
                        help="max_tokens the proxy adds to requests sent without a cap (0: none)")
    parser.add_argument("--app-repo", type=Path, help="run the app from this checkout (e.g. your worktree)")
    parser.add_argument("--parts", default="ticks,big,situations", help="which parts to run, comma-separated")
    args = parser.parse_args(argv)
    if args.quick:
        args.ticks, args.situations, args.files, args.memories = 2, 4, 20, 20
    return args


# --- the app against the proxy ------------------------------------------------------------------


def config_for(proxy: ModelProxy, model: str, context: int) -> str:
    lines = ["[heartbeat]", "enabled = false", "interval_minutes = 5", "", "[activity_log]", "max_rows = 100000", ""]
    knows_window = '"context_window"' in (common.REPO / "openhuman_desktop" / "config.py").read_text()
    for tier in ("local", "reasoning"):
        lines += [f"[models.{tier}]", 'provider = "openai"', f'base_url = "{proxy.url(tier)}"', f'model = "{model}"']
        if knows_window:  # the product reads it once [models.*] takes context_window (issue 10, item 5)
            lines.append(f"context_window = {context}")
        lines.append("")
    return "\n".join(lines)


class App:
    """The real headless app in a fresh workspace, driven over its RPC API."""

    def __init__(self, root: Path, proxy: ModelProxy, config: str, files: dict[str, str]) -> None:
        self.proxy = proxy
        self.paths = prepare_workspace(root, config)
        for relative, text in files.items():
            write(self.paths.workspace / relative, text)
        self.process = AppProcess(self.paths, start_timeout=120).start()
        self.rpc = RpcCaller(self.process.url, self.process.token)

    def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return self.rpc.call(method, params)

    def disable_system_tasks(self) -> None:
        for task in self.call("subconscious_tasks_list"):
            if task["source"] == "system":
                self.call("subconscious_tasks_update", {"task_id": task["id"], "enabled": False})

    def tick(self) -> tuple[float, list[dict[str, Any]], dict[str, Any]]:
        """Run Now and wait for the tick to end: its wall seconds, its rows, the status before it."""
        before = self.call("subconscious_status")
        newest = max((row["tick_at"] for row in self.call("subconscious_log_list", {"limit": 1})), default=0.0)
        started = time.perf_counter()
        self.call("subconscious_trigger")
        deadline = time.monotonic() + TICK_TIMEOUT
        while time.monotonic() < deadline:
            status = self.call("subconscious_status")
            # total_ticks moves once the evaluation is in, before the acts have run (and with the heartbeat
            # off the state says "disabled", never "ticking"): the tick is over when none of its rows is open.
            if status["total_ticks"] > before["total_ticks"] and status["state"] != "ticking" and not any(
                row["tick_at"] > newest and row["decision"] == "in_progress"
                for row in self.call("subconscious_log_list", {"limit": 1000})
            ):
                break
            time.sleep(0.1)
        else:
            raise TimeoutError(f"the tick did not end within {TICK_TIMEOUT:g} s")
        wall = time.perf_counter() - started
        self.proxy.settle()  # a request the app gave up on still holds the server: count it in this tick
        rows = [row for row in self.call("subconscious_log_list", {"limit": 1000}) if row["tick_at"] > newest]
        return wall, rows, before

    def close(self) -> None:
        self.rpc.close()
        self.process.stop()


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def decided(row: dict[str, Any], tick_failed: bool) -> bool:
    """Whether the task got a valid decision: a noop/act/escalate row, or an act/escalate whose run failed."""
    if row["decision"] in DECIDED:
        return True
    if row["decision"] != "failed" or tick_failed:
        return False
    return not str(row.get("result") or "").startswith(NO_DECISION_PREFIX)


def tick_failed(app: App, before: dict[str, Any]) -> bool:
    """A failed evaluation counts the tick as a failure (every row failed, none decided)."""
    return int(app.call("subconscious_status")["consecutive_failures"]) > int(before["consecutive_failures"])


# --- figures --------------------------------------------------------------------------------------


@dataclass
class Totals:
    """What all parts sent and got, for the end figures and budgets."""

    exchanges: list[Exchange] = field(default_factory=list)
    shares: list[float] = field(default_factory=list)
    walls: list[float] = field(default_factory=list)
    big_context_refusals: int = 0
    big_ran: bool = False
    situations_right: int = 0
    situations_run: int = 0
    intents_right: int = 0
    intents_run: int = 0


def amount(label: str, values: Sequence[float], unit: str) -> None:
    """A figure line in another unit (tokens, calls): ``label: median X unit, max Y``."""
    ordered = sorted(values)
    if not ordered:
        print(f"{label}: none", flush=True)
        return
    middle = ordered[len(ordered) // 2] if len(ordered) % 2 else (ordered[len(ordered) // 2 - 1]
                                                                   + ordered[len(ordered) // 2]) / 2
    print(f"{label}: median {middle:g} {unit}, max {ordered[-1]:g} (min {ordered[0]:g}, n={len(ordered)})",
          flush=True)


def describe(exchange: Exchange) -> str:
    cap = f"max_tokens {exchange.max_tokens}" if exchange.max_tokens else "NO CAP"
    return (f"{exchange.tier} {exchange.phase}: HTTP {exchange.status}, {exchange.seconds:.1f} s, prompt "
            f"{exchange.prompt_tokens} + completion {exchange.completion_tokens} tokens, {cap}, "
            f"response_format {exchange.response_format}, tools {exchange.tools}, finish {exchange.finish_reason}")


def tick_line(model: str, label: str, wall: float, rows: list[dict[str, Any]], valid: int,
              chats: list[Exchange]) -> None:
    decisions = Counter(row["decision"] for row in rows)
    prompt = sum(e.prompt_tokens or 0 for e in chats)
    completion = sum(e.completion_tokens or 0 for e in chats)
    uncapped = sum(1 for e in chats if e.max_tokens is None)
    refused = sum(1 for e in chats if e.refused)
    gone = sum(1 for e in chats if e.client_gone)
    print(f"{model} {label}: {wall:.1f} s, {len(rows)} due, valid decisions {valid}/{len(rows)}, "
          f"rows {dict(decisions)}, model calls {len(chats)} (evaluation {sum(e.is_evaluation for e in chats)}), "
          f"prompt {prompt} + completion {completion} tokens, uncapped {uncapped}, refused {refused}, "
          f"app gave up waiting {gone}", flush=True)
    for exchange in chats:
        if exchange.is_evaluation:
            note(f"  answer ({exchange.seconds:.1f} s, {exchange.completion_tokens} tokens): "
                 f"{' '.join(exchange.content.split())[:240]!r}")


# --- the parts ------------------------------------------------------------------------------------


def run_ticks(args: argparse.Namespace, proxy: ModelProxy, root: Path, totals: Totals) -> None:
    model = args.model
    proxy.phase = "ticks setup"
    app = App(root / "ticks", proxy, config_for(proxy, model, args.n_ctx), BASE_FILES)
    try:
        intents = [(app.call("subconscious_tasks_add", {"title": title}), want) for title, want in USER_TASKS]
        for task, want in intents:
            totals.intents_run += 1
            totals.intents_right += task.get("intent") == want
        note(f"{model} intents of the 7 user tasks: "
             + ", ".join(f"{t['title'][:28]!r}={t.get('intent')}/{t.get('intent_source')} (want {w})"
                         for t, w in intents))
        for number in range(1, args.ticks + 1):
            write(app.paths.workspace / "notes" / f"day-{number}.md",
                  f"Day {number}: worked on the garden plan; nothing else to report.\n")
            proxy.phase = f"tick {number}"
            wall, rows, before = app.tick()
            failed = tick_failed(app, before)
            valid = sum(decided(row, failed) for row in rows)
            chats = proxy.chats(proxy.phase)
            tick_line(model, f"tick {number}", wall, rows, valid, chats)
            for row in rows:
                if not decided(row, failed):
                    note(f"  no decision for {row.get('task_title', row['task_id'])!r}: {str(row['result'])[:160]}")
            totals.shares.append(valid / len(rows) if rows else 1.0)
            totals.walls.append(wall)
    finally:
        app.close()


def run_big(args: argparse.Namespace, proxy: ModelProxy, root: Path, totals: Totals) -> None:
    model = args.model
    proxy.phase = "big setup"
    app = App(root / "big", proxy, config_for(proxy, model, args.n_ctx), BASE_FILES)
    try:
        for title, _ in USER_TASKS:
            app.call("subconscious_tasks_add", {"title": title})
        proxy.phase = "big tick 1"
        app.tick()
        for number in range(args.files):
            lines = [f"Meeting notes {number}: the team discussed item {n} of the roadmap, owner Sam, due in "
                     f"{n + 2} weeks; no blockers reported." for n in range(12)]
            write(app.paths.workspace / "inbox" / f"notes-{number:03d}.md", "\n".join(lines) + "\n")
        for number in range(args.memories):
            app.call("memory_add", {"text": f"Memory {number}: the user said the dentist appointment moved to "
                                            f"the {number % 28 + 1}th at {9 + number % 8}:30, and to bring the "
                                            "insurance card and the referral letter from Dr. Novak."})
        proxy.phase = f"big tick ({args.files} files + {args.memories} memories)"
        wall, rows, before = app.tick()
        failed = tick_failed(app, before)
        valid = sum(decided(row, failed) for row in rows)
        chats = proxy.chats(proxy.phase)
        tick_line(model, proxy.phase, wall, rows, valid, chats)
        for exchange in chats:
            if exchange.refused:
                note(f"  refused: {describe(exchange)}: {exchange.error[:200]}")
        totals.big_context_refusals = sum(e.refused_for_context for e in chats)
        totals.big_ran = True
    finally:
        app.close()


def evaluator_decision(row: dict[str, Any] | None, chats: list[Exchange]) -> str:
    """What the model decided, read from what the app did with it."""
    if row is None:
        return "none"
    if any(e.tier == "reasoning" for e in chats) or row["decision"] == "escalate":
        return "escalate"
    if any(e.tier == "local" and not e.is_evaluation for e in chats) or row["decision"] == "act":
        return "act"
    if row["decision"] == "noop":
        return "noop"
    return "none"


def run_situations(args: argparse.Namespace, proxy: ModelProxy, root: Path, totals: Totals) -> None:
    model = args.model
    chosen = SITUATIONS[: max(0, args.situations)]
    if args.quick:  # one of each kind
        chosen = (SITUATIONS[0], SITUATIONS[1], SITUATIONS[4], SITUATIONS[7])
    confusion: Counter[tuple[str, str]] = Counter()
    for number, situation in enumerate(chosen, 1):
        proxy.phase = f"situation {number} setup"
        app = App(root / f"situation-{number}", proxy, config_for(proxy, model, args.n_ctx), BASE_FILES)
        try:
            app.disable_system_tasks()
            task = app.call("subconscious_tasks_add", {"title": situation.task})
            totals.intents_run += 1
            totals.intents_right += task.get("intent") == situation.intent
            proxy.phase = f"situation {number} tick 1"
            app.tick()
            for relative, text in situation.files.items():
                write(app.paths.workspace / relative, text)
            for text in situation.memories:
                app.call("memory_add", {"text": text})
            proxy.phase = f"situation {number} tick 2"
            wall, rows, _ = app.tick()
        finally:
            app.close()
        row = next((r for r in rows if r["task_id"] == task["id"]), None)
        got = evaluator_decision(row, proxy.chats(proxy.phase))
        right = got in situation.expected
        totals.situations_run += 1
        totals.situations_right += right
        confusion[("/".join(sorted(situation.expected)), got)] += 1
        print(f"{model} situation {number} {situation.name!r}: decided {got}, expected "
              f"{' or '.join(sorted(situation.expected))} -> {'right' if right else 'WRONG'} "
              f"(row {row['decision'] if row else None}: {str(row['result'] if row else '')[:100]!r}; "
              f"intent {task.get('intent')}, tick {wall:.1f} s)", flush=True)
        for exchange in proxy.chats(proxy.phase):
            note(f"  {exchange.tier} {exchange.response_format or 'text'} ({exchange.seconds:.1f} s, prompt "
                 f"{exchange.prompt_tokens}, completion {exchange.completion_tokens}): "
                 f"{' '.join(exchange.content.split())[:200]!r}")
    note(f"{model} situations, expected -> decided: "
         + ", ".join(f"{want} -> {got}: {count}" for (want, got), count in sorted(confusion.items())))


def summary(args: argparse.Namespace, proxy: ModelProxy, totals: Totals) -> None:
    model = args.model
    chats = proxy.chats()
    if totals.walls:
        figure(f"{model} tick wall, 10 due tasks (Run Now to the end of the tick)", [w * 1000 for w in totals.walls])
        amount(f"{model} share of due tasks with a valid decision per tick", [round(s, 3) for s in totals.shares],
               "(of 1)")
    ticks = [e for e in chats if e.phase.startswith("tick ")]
    if ticks:
        per_tick = Counter(e.phase for e in ticks)
        amount(f"{model} model calls per tick", list(per_tick.values()), "calls")
        for what in ("prompt", "completion"):
            sums: Counter[str] = Counter()
            for e in ticks:
                sums[e.phase] += getattr(e, f"{what}_tokens") or 0
            amount(f"{model} {what} tokens per tick (server usage)", list(sums.values()), "tokens")
    if chats:
        figure(f"{model} model request duration (all parts)", [e.seconds * 1000 for e in chats])
        longest = max(chats, key=lambda e: e.seconds)
        note(f"{model} longest request: {describe(longest)}")
        amount(f"{model} completion tokens per request", [e.completion_tokens or 0 for e in chats], "tokens")
    refused = [e for e in chats if e.refused]
    uncapped = [e for e in chats if e.max_tokens is None]
    statuses = Counter(e.status for e in refused)
    print(f"{model} requests: {len(chats)} chat requests, refused by the server {len(refused)} "
          f"{dict(statuses) if statuses else ''}(for context length {sum(e.refused_for_context for e in refused)}), "
          f"sent without an output cap {len(uncapped)} "
          f"(kinds: {dict(Counter((e.tier, e.response_format or 'text', e.tools > 0) for e in uncapped))}), "
          f"app gave up waiting {sum(e.client_gone for e in chats)}, "
          f"with tool_choice {sum(e.tool_choice is not None for e in chats)}, "
          f"answered with tool_calls {sum(e.tool_calls > 0 for e in chats)}", flush=True)
    finish = Counter(e.finish_reason for e in chats)
    note(f"{model} finish reasons: {dict(finish)}; output cap hit (finish 'length'): {finish.get('length', 0)}")
    if totals.situations_run:
        print(f"{model} labelled situations: {totals.situations_right}/{totals.situations_run} right "
              f"({totals.situations_right / totals.situations_run:.0%}; a constant answer scores 50 %)", flush=True)
    if totals.intents_run:
        print(f"{model} task intents: {totals.intents_right}/{totals.intents_run} as expected", flush=True)
    if totals.shares:
        budget(f"{model}: share of due tasks WITHOUT a valid decision, worst tick (>= 95 % decided)",
               (1 - min(totals.shares)) * 100, (1 - VALID_SHARE_BUDGET) * 100, "%")
    budget(f"{model}: requests sent without an output cap", len(uncapped), 0, "requests")
    if totals.big_ran:
        budget(f"{model}: refused for context length with {args.files} files + {args.memories} memories",
               totals.big_context_refusals, 0, "requests")
    if totals.walls:
        budget(f"{model}: a tick of 10 due tasks (slowest)", max(totals.walls), TICK_SECONDS_BUDGET, "s")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    note(machine())
    load_note()
    parts = set(args.parts.split(","))
    if args.app_repo is not None:
        common.REPO = args.app_repo.resolve()  # AppProcess starts ``python -m openhuman_desktop`` from there
        note(f"app under test: {common.REPO}")
    url, stop_server = serve_model(args)
    proxy = ModelProxy(url, safety_cap=args.safety_cap or None)
    totals = Totals()
    try:
        with tempfile.TemporaryDirectory(prefix="oh-real-model-") as tmp:
            root = Path(tmp)
            if "ticks" in parts:
                run_ticks(args, proxy, root, totals)
            if "big" in parts:
                run_big(args, proxy, root, totals)
            if "situations" in parts:
                run_situations(args, proxy, root, totals)
        summary(args, proxy, totals)
    finally:
        proxy.close()
        stop_server()
    return 0


def serve_model(args: argparse.Namespace) -> tuple[str, Callable[[], None]]:
    """The model server's URL and how to stop it: ``args.url`` as given (nothing to stop), else our own
    llama.cpp server (``real_model_server``, installed first when missing) on ``args.port`` or a free port."""
    if args.url is not None:
        return args.url, lambda: None
    port = args.port or free_port()
    started = time.monotonic()
    spent = real_model_server.install()
    if spent:
        note(f"llama-cpp-python[server] built and installed in {spent:.0f} s")
    server = real_model_server.start(port, context=args.n_ctx, threads=args.threads)
    note(f"llama.cpp server {server.url} (model {args.model}, n_ctx {args.n_ctx}, {args.threads} threads): ready "
         f"in {time.monotonic() - started:.1f} s, model load {server.load_seconds:.1f} s")
    return server.url, lambda: real_model_server.stop(port)


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


if __name__ == "__main__":
    os.environ.pop("OLLAMA_HOST", None)
    sys.exit(main())
