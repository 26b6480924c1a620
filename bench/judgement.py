"""Judgement bench (issue 24): the labelled situations of ``judgement_set.py`` through the real product.

For every situation a fresh workspace, and the real services of ``bootstrap.build`` in this process (config:
heartbeat off, web app and reflection off, both model tiers ``provider = "openai"`` at a recording proxy in
front of the model server). Then, as a person's week would have it:

1. the situation's files and memories are put in place, its tasks are added (``tasks_add``; the system tasks
   are disabled unless the situation keeps them), and a first tick runs — the heartbeat's first look. Its
   evaluation is answered ``noop`` for every task without a model (what the first look decided is not what
   is measured, and it would double the bench's model time); everything else in that tick is the product's.
2. the change happens (files written or appended to, memories added, or nothing);
3. the second tick runs with the real evaluation against the model. Its decisions are what is scored: read
   from the tick's log rows (``noop``, ``act``, ``escalate``; a row without a usable decision is
   *undecided*). Decisions are not carried out: the executor is replaced by one that records them (an act
   would be a model run, an escalation an agent run; neither is judgement).

Figures: accuracy, per-class precision/recall, macro-F1, undecided, model calls and prompt/completion tokens
per second tick (the server's ``usage``, through the proxy), the model's own signal (how often its first answer
to a narrow question was yes on tasks to act on and on the others, and the ROC area of its margin, apart for
tasks where the change says what they wait for), the tick's wall time, and the same figures for
two baselines computed from the set itself: always ``noop``, and a keyword rule (``act`` when a word of the
task's title is in what changed: the changed lines, file names, new memories). Intents are decided by the
keyword classifier here (the model-backed one probes the model six times per workspace; intent is not
judgement). ``--app-repo`` measures another checkout's product (e.g. main) with the same set.

    python bench/judgement.py --url http://127.0.0.1:8301/v1 --model smollm2-135m-instruct
    python bench/judgement.py --start --model qwen2.5-coder-0.5b-instruct      # starts its own llama.cpp
    python bench/judgement.py --constant yes --set holdout3                     # no model: what the app settles
    python bench/judgement.py --url URL --quick                                 # the CI slice
    python bench/judgement.py --url URL --set holdout                           # the first held-out set
    python bench/judgement.py --url URL --set holdout2                          # the second held-out set
    python bench/judgement.py --url URL --set holdout3                          # the third (… holdout27)

The script reports; it never fails on a figure (``BUDGET ok|MISSED`` lines at the end).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import logging
import os
import re
import socket
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


def _app_repo_from_argv() -> None:
    """``--app-repo DIR``: import ``openhuman_desktop`` from that checkout (before anything imports it)."""
    for index, arg in enumerate(sys.argv):
        value = sys.argv[index + 1] if arg == "--app-repo" and index + 1 < len(sys.argv) else None
        if arg.startswith("--app-repo="):
            value = arg.split("=", 1)[1]
        if value:
            sys.path.insert(0, str(Path(value).resolve()))


_app_repo_from_argv()

from bench import real_model_server  # noqa: E402
from bench.judgement_probe import roc_area  # noqa: E402
from bench.judgement_set import ACT, ESCALATE, NOOP, QUICK, SITUATIONS, SYSTEM_TASKS, Label, Situation  # noqa: E402
from bench.model_proxy import ModelProxy  # noqa: E402

SETS = {"design": "bench.judgement_set", "holdout": "bench.judgement_holdout", "holdout2": "bench.judgement_holdout2",
        "holdout3": "bench.judgement_holdout3", "holdout4": "bench.judgement_holdout4",
        "holdout5": "bench.judgement_holdout5", "holdout6": "bench.judgement_holdout6",
        "holdout7": "bench.judgement_holdout7", "holdout8": "bench.judgement_holdout8",
        "holdout9": "bench.judgement_holdout9", "holdout10": "bench.judgement_holdout10",
        "holdout11": "bench.judgement_holdout11", "holdout12": "bench.judgement_holdout12",
        "holdout13": "bench.judgement_holdout13", "holdout14": "bench.judgement_holdout14",
        "holdout15": "bench.judgement_holdout15", "holdout16": "bench.judgement_holdout16",
        "holdout17": "bench.judgement_holdout17", "holdout18": "bench.judgement_holdout18",
        "holdout19": "bench.judgement_holdout19", "holdout20": "bench.judgement_holdout20",
        "holdout21": "bench.judgement_holdout21", "holdout22": "bench.judgement_holdout22",
        "holdout23": "bench.judgement_holdout23", "holdout24": "bench.judgement_holdout24",
        "holdout25": "bench.judgement_holdout25", "holdout26": "bench.judgement_holdout26",
        "holdout27": "bench.judgement_holdout27"}

CLASSES = (NOOP, ACT, ESCALATE)
UNDECIDED = "undecided"
TICK_SECONDS_BUDGET = 60.0
SERVERS_SEEN: list[str] = []
"""What the product remembered about the model server (``model_servers.json``), carried to the next workspace."""
_STOPWORDS_TEXT = """
a an the and or of in on at to for from by with when whenever if once each every any my me i you your it its
is are be was were this that these those there here what which who whom about into as after before than then
tell let know remind check give show make get new all both two one so do does did not no yes folder file
files
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="an OpenAI-compatible server (…/v1)")
    parser.add_argument("--start", action="store_true", help="start our own llama.cpp server (real_model_server)")
    parser.add_argument("--constant", choices=("yes", "no"),
                        help="a fake model that answers every question the same: what the app settles on its own")
    parser.add_argument("--model", default=real_model_server.MODEL_ALIAS, help="the model id (and --start's model)")
    parser.add_argument("--n-ctx", type=int, default=real_model_server.DEFAULT_CONTEXT,
                        help="the model's context window (config context_window; --start's n_ctx)")
    parser.add_argument("--threads", type=int, default=real_model_server.DEFAULT_THREADS)
    parser.add_argument("--quick", action="store_true", help=f"only the CI slice ({len(QUICK)} situations)")
    parser.add_argument("--set", dest="set_name", choices=sorted(SETS), default="design",
                        help="design: bench/judgement_set.py, the set the rules were written against; holdout … "
                             "holdout27: bench/judgement_holdout*.py, written apart from the product's rules "
                             "(holdout4 on by helpers that never read the product)")
    parser.add_argument("--only", default="", help="only situations whose name contains this text")
    parser.add_argument("--limit", type=int, default=0, help="at most this many situations")
    parser.add_argument("--every", type=int, default=1, help="every n-th situation (a spread-out sample)")
    parser.add_argument("--app-repo", type=Path, help="import the product from this checkout (e.g. main)")
    parser.add_argument("--json", type=Path, help="write every scored decision (and the model's answers) here")
    parser.add_argument("--label", default="", help="a name for this run in the output (e.g. 'main')")
    parser.add_argument("--safety-cap", type=int, default=512, help="max_tokens added to uncapped requests")
    args = parser.parse_args(argv)
    if not args.url and not args.start and not args.constant:
        parser.error("give --url, --start or --constant")
    if args.constant:
        args.model = f"always-{args.constant}"
    return args


def chosen(args: argparse.Namespace) -> list[Situation]:
    if args.set_name != "design":
        held_out = importlib.import_module(SETS[args.set_name]).SITUATIONS
        return [s for s in held_out if args.only in s.name][:: max(1, args.every)]
    situations = [s for s in SITUATIONS if not args.quick or s.name in QUICK]
    situations = [s for s in situations if args.only in s.name][:: max(1, args.every)]
    return situations[: args.limit] if args.limit else situations


# --- baselines ----------------------------------------------------------------------------------


def changed_text(situation: Situation) -> str:
    """What changed, as text: the changed lines of written files (all of a new file), appended text, the
    file names, the new memories."""
    parts: list[str] = []
    for path, text in situation.change.write.items():
        old = situation.before.get(path, "").splitlines()
        parts.append(path)
        parts += [line for line in text.splitlines() if line not in old]
    for path, text in situation.change.append.items():
        parts += [path, text]
    parts += situation.change.memories
    return "\n".join(parts)


def words(text: str) -> set[str]:
    return {word for word in re.findall(r"[a-z0-9']+", text.lower()) if word not in STOPWORDS and len(word) > 2}


def keyword_rule(situation: Situation, label: Label) -> str:
    """The issue's 10-line rule: ``act`` when a word of the task's title is in what changed, else ``noop``."""
    if situation.change.is_empty:
        return NOOP
    return ACT if words(label.task) & words(changed_text(situation)) else NOOP


# --- the product ----------------------------------------------------------------------------------


def config_text(proxy: ModelProxy, model: str, context: int) -> str:
    lines = ["[heartbeat]", "enabled = false", "interval_minutes = 5", "", "[reflection]", "enabled = false", "",
             "[channels.webapp]", "enabled = false", ""]
    for tier in ("local", "reasoning"):
        lines += [f"[models.{tier}]", 'provider = "openai"', f'base_url = "{proxy.url(tier)}"', f'model = "{model}"',
                  f"context_window = {context}", ""]
    return "\n".join(lines)


@dataclass
class Outcome:
    situation: Situation
    label: Label
    got: str
    reason: str
    wall: float
    calls: int
    prompt_tokens: int
    completion_tokens: int
    answers: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What the judgement logged in the second tick (confidence margins, what the app overruled)."""
    answer: tuple[bool, float | None] | None = None
    """The model's own answer to the task's narrow question, before the app weighed it: (said yes, margin)."""
    supported: bool = False
    """Whether the change said what the task waits for (the app's evidence), when the model was asked."""
    question: str = ""
    """The narrow question the task was asked (its user message), for ``judgement_probe.py``."""


class JudgementNotes(logging.Handler):
    """Keeps what the judgement logs (its INFO lines say how sure the model was and what the app decided)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


class RecordingExecutor:
    """Stands in for the executor: an act or escalation is recorded as decided, never carried out."""

    def __init__(self) -> None:
        self.decisions: dict[str, tuple[str, str]] = {}

    async def execute(self, task: Any, decision: Any, report: Any, declined: Sequence[str] = ()) -> Any:
        from openhuman_desktop.subconscious.decisions import Outcome as ProductOutcome

        self.decisions[task.id] = (decision.decision, decision.reason)
        return ProductOutcome(decision.decision, f"(bench) {decision.decision}: {decision.reason}")

    async def execute_approved(self, task: Any, escalation: Any) -> Any:
        raise AssertionError("the bench approves nothing")

    async def stop_approved(self, escalation: Any, reason: str) -> None:
        return None


class FirstLook:
    """The first tick's evaluation: every task ``noop`` without a model."""

    async def evaluate(self, tasks: Sequence[Any], report: Any) -> Any:
        from openhuman_desktop.subconscious.decisions import Decision, Evaluation

        return Evaluation({task.id: Decision(task.id, NOOP, "first look") for task in tasks})


def write_files(root: Path, files: dict[str, str], *, append: bool = False) -> None:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a" if append else "w", encoding="utf-8") as handle:
            handle.write(text)


async def run_situation(situation: Situation, root: Path, proxy: ModelProxy, args: argparse.Namespace) -> list[Outcome]:
    from openhuman_desktop import bootstrap, config
    from openhuman_desktop.paths import Paths
    from openhuman_desktop.subconscious.intent import KeywordIntentClassifier

    paths = Paths(root)
    paths.ensure()
    paths.config_file.write_text(config_text(proxy, args.model, args.n_ctx), encoding="utf-8")
    if SERVERS_SEEN:  # as on a machine where the app ran before: the server's JSON-schema form is known
        (paths.subconscious_dir / "model_servers.json").write_text(SERVERS_SEEN[-1], encoding="utf-8")
    write_files(root, situation.before)
    proxy.phase = "setup"
    services = await bootstrap.build(paths, config.load(paths.config_file))
    services.subconscious._classifier = KeywordIntentClassifier()  # bench: intents by keywords (see the docstring)
    try:
        await services.start()
        service = services.subconscious
        ids: dict[str, str] = {}
        labelled = {label.task for label in situation.labels}
        for task in await service.tasks_list():
            if task.title in SYSTEM_TASKS:
                ids[task.title] = task.id
                if not situation.system_tasks and task.title not in labelled:  # a family about it keeps it
                    await service.tasks_update(task.id, enabled=False)
        for label in situation.labels:
            if label.task not in ids:
                ids[label.task] = (await service.tasks_add(label.task)).id
        for text in situation.before_memories:
            await services.memory.add(text, source="user")
        engine = services.engine
        real = engine._evaluator
        executor = RecordingExecutor()
        engine._executor = executor
        engine._evaluator = FirstLook()
        proxy.phase = "first look"
        await engine.run_tick("bench: first look")
        engine._evaluator = real
        await asyncio.sleep(0.01)  # the changes below come after the first look, in the files' clock too
        write_files(root, situation.change.write)
        write_files(root, situation.change.append, append=True)
        for text in situation.change.memories:
            await services.memory.add(text, source="user")
        proxy.phase = situation.name
        notes = JudgementNotes()
        judgement_log = logging.getLogger("openhuman_desktop.subconscious.judgement")
        judgement_log.addHandler(notes)
        level = judgement_log.level
        judgement_log.setLevel(logging.INFO)
        started = time.perf_counter()
        try:
            await engine.run_tick("bench: second look")
        finally:
            judgement_log.removeHandler(notes)
            judgement_log.setLevel(level)
        wall = time.perf_counter() - started
        rows = await service.log_list(limit=100)
    finally:
        await services.aclose()
    seen = paths.subconscious_dir / "model_servers.json"
    if seen.exists():
        SERVERS_SEEN.append(seen.read_text(encoding="utf-8"))
    proxy.settle()
    chats = proxy.chats(situation.name)
    answers = [" ".join(e.content.split())[:400] for e in chats]
    calls = len(chats)
    prompt = sum(e.prompt_tokens or 0 for e in chats)
    completion = sum(e.completion_tokens or 0 for e in chats)
    latest: dict[str, Any] = {}
    for row in rows:  # newest first: the second tick's row of each task
        latest.setdefault(row.task_id, row)
    answers_by_task = getattr(real, "last_confidence", {})
    questions: dict[str, str] = {}
    for exchange in chats:
        messages = exchange.body.get("messages") or [{}]
        text = str(messages[-1].get("content", ""))
        if "\nIt waits for: " in text and text.startswith("Task:\n- [1] "):
            questions.setdefault(text.splitlines()[1].removeprefix("- [1] "), text)
    outcomes = []
    for label in situation.labels:
        row = latest.get(ids[label.task])
        got, reason = UNDECIDED, "no row"
        if row is not None:
            reason = str(row.result or "")
            if row.decision in CLASSES:
                got = row.decision
            elif ids[label.task] in executor.decisions:
                got, reason = executor.decisions[ids[label.task]]
        asked = answers_by_task.get(ids[label.task])
        answer = None if asked is None else (asked.decision in ("yes", ACT, ESCALATE), asked.margin)
        supported = any(line.startswith(f"task {ids[label.task]}: asked") and "evidence found" in line
                        for line in notes.lines)
        outcomes.append(Outcome(situation, label, got, reason, wall, calls, prompt, completion, answers,
                                notes.lines, answer, supported, questions.get(label.task, "")))
    return outcomes


# --- figures --------------------------------------------------------------------------------------


@dataclass
class Score:
    name: str
    pairs: list[tuple[str, str]]  # (expected, got)

    def accuracy(self) -> float:
        return sum(e == g for e, g in self.pairs) / len(self.pairs) if self.pairs else 0.0

    def recall(self, cls: str) -> tuple[int, int]:
        wanted = [g for e, g in self.pairs if e == cls]
        return sum(g == cls for g in wanted), len(wanted)

    def precision(self, cls: str) -> tuple[int, int]:
        given = [e for e, g in self.pairs if g == cls]
        return sum(e == cls for e in given), len(given)

    def f1(self, cls: str) -> float:
        right_r, total_r = self.recall(cls)
        right_p, total_p = self.precision(cls)
        recall = right_r / total_r if total_r else 0.0
        precision = right_p / total_p if total_p else 0.0
        return 2 * precision * recall / (precision + recall) if precision + recall else 0.0

    def macro_f1(self) -> float:
        return sum(self.f1(cls) for cls in CLASSES) / len(CLASSES)

    def relevance(self) -> float:
        """Right about whether the task deserves attention at all (noop vs act-or-escalate)."""
        return sum((e == NOOP) == (g == NOOP) for e, g in self.pairs) / len(self.pairs) if self.pairs else 0.0

    def line(self) -> str:
        parts = [f"{self.name}: correct {sum(e == g for e, g in self.pairs)}/{len(self.pairs)} "
                 f"({self.accuracy():.1%}), macro-F1 {self.macro_f1():.3f}"]
        for cls in CLASSES:
            right, total = self.recall(cls)
            right_p, total_p = self.precision(cls)
            parts.append(f"{cls} recall {right}/{total}" + (f" precision {right_p}/{total_p}" if total_p else ""))
        parts.append(f"relevant-or-not {self.relevance():.1%}")
        parts.append(f"undecided {sum(g == UNDECIDED for _, g in self.pairs)}")
        return ", ".join(parts)


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def report(outcomes: list[Outcome], args: argparse.Namespace, proxy: ModelProxy) -> None:
    tag = f"{args.label} {args.model}".strip()
    product = Score(f"{tag} product", [(o.label.expected, o.got) for o in outcomes])
    always = Score(f"{tag} baseline always-noop", [(o.label.expected, NOOP) for o in outcomes])
    keyword = Score(f"{tag} baseline keyword rule", [(o.label.expected, keyword_rule(o.situation, o.label))
                                                      for o in outcomes])
    for score in (product, always, keyword):
        print(score.line(), flush=True)
    confusion = Counter((o.label.expected, o.got) for o in outcomes)
    print(f"{tag} confusion (expected -> got): "
          + ", ".join(f"{e}->{g} {n}" for (e, g), n in sorted(confusion.items())), flush=True)
    ticks: dict[str, Outcome] = {}
    for o in outcomes:
        ticks.setdefault(o.situation.name, o)
    calls = [o.calls for o in ticks.values()]
    changed = [o for o in ticks.values() if not o.situation.change.is_empty]
    idle = [o for o in ticks.values() if o.situation.change.is_empty]
    print(f"{tag} model calls per second tick: median {median(calls):g}, max {max(calls, default=0)}, total "
          f"{sum(calls)} over {len(ticks)} ticks; with nothing changed: {sum(o.calls for o in idle)} calls over "
          f"{len(idle)} ticks", flush=True)
    print(f"{tag} tokens per second tick: prompt median {median([o.prompt_tokens for o in ticks.values()]):g} "
          f"(total {sum(o.prompt_tokens for o in ticks.values())}), completion median "
          f"{median([o.completion_tokens for o in ticks.values()]):g} (total "
          f"{sum(o.completion_tokens for o in ticks.values())})", flush=True)
    for line in model_signal(outcomes):
        print(f"{tag} {line}", flush=True)
    walls = [o.wall for o in changed]
    print(f"{tag} second tick wall (something changed): median {median(walls):.1f} s, max "
          f"{max(walls, default=0):.1f} s", flush=True)
    chats = proxy.chats()
    uncapped = [e for e in chats if e.max_tokens is None]
    setup = [e for e in chats if e.phase == "setup"]
    print(f"{tag} requests: {len(chats)} in all ({len(setup)} while adding tasks), without an output cap "
          f"{len(uncapped)}, refused {sum(e.refused for e in chats)}", flush=True)
    keyword_score = keyword.accuracy()
    verdict = "ok" if product.accuracy() >= keyword_score else "MISSED"
    print(f"BUDGET {verdict} {tag}: correct decisions {product.accuracy():.1%} (>= keyword rule "
          f"{keyword_score:.1%})", flush=True)
    undecided = sum(o.got == UNDECIDED for o in outcomes)
    print(f"BUDGET {'ok' if undecided == 0 else 'MISSED'} {tag}: undecided {undecided} (budget <= 0)", flush=True)
    print(f"BUDGET {'ok' if not uncapped else 'MISSED'} {tag}: requests without an output cap {len(uncapped)} "
          f"(budget <= 0)", flush=True)
    print(f"BUDGET {'ok' if sum(o.calls for o in idle) == 0 else 'MISSED'} {tag}: model calls on idle ticks "
          f"{sum(o.calls for o in idle)} (budget <= 0)", flush=True)
    worst_recall = min((product.recall(c)[0] / product.recall(c)[1] for c in CLASSES if product.recall(c)[1]),
                       default=0.0)
    print(f"BUDGET {'ok' if product.accuracy() >= 0.85 and worst_recall >= 0.75 else 'MISSED'} {tag}: "
          f"correct {product.accuracy():.1%}, lowest class recall {worst_recall:.1%} "
          f"(the ~0.5B budget: >= 85 %, each class >= 75 %)", flush=True)


def model_signal(outcomes: Sequence[Outcome]) -> list[str]:
    """Whether the model's own answers tell the tasks to act on from the rest, apart from what the app reads
    off the change: the narrow question's yes rate and the area under the ROC curve of its margin (yes counted
    positive), for tasks where the change says what they wait for and for tasks where it does not. An area of
    0.5 is a coin; the app can only use a model whose answers separate the two."""
    lines = []
    for name, supported in (("the change says it", True), ("nothing in the change says it", False)):
        asked = [o for o in outcomes if o.answer is not None and o.supported == supported]
        if not asked:
            continue
        positive = [o for o in asked if o.label.expected != NOOP]
        negative = [o for o in asked if o.label.expected == NOOP]
        line = (f"model signal where {name}: {len(asked)} tasks asked; yes to {sum(o.answer[0] for o in positive)}"
                f"/{len(positive)} to act on and {sum(o.answer[0] for o in negative)}/{len(negative)} others")
        area = roc_area([_signed(o.answer) for o in positive], [_signed(o.answer) for o in negative])
        if area is not None and all(o.answer[1] is not None for o in asked):
            line += f"; ROC area of its margin {area:.2f} (0.5: no signal)"
        lines.append(line)
    return lines


def _signed(answer: tuple[bool, float | None] | None) -> float:
    """A model's answer as one number: its margin, positive for yes."""
    said_yes, margin = answer or (False, None)
    return (margin or 0.0) if said_yes else -(margin or 0.0)


def dump(outcomes: list[Outcome], path: Path) -> None:
    rows = [{"situation": o.situation.name, "task": o.label.task, "expected": o.label.expected, "got": o.got,
             "why": o.label.why, "reason": o.reason, "keyword": keyword_rule(o.situation, o.label),
             "calls": o.calls, "prompt_tokens": o.prompt_tokens, "completion_tokens": o.completion_tokens,
             "wall": round(o.wall, 2), "answers": o.answers, "notes": o.notes,
             "model_answer": o.answer, "supported": o.supported, "question": o.question} for o in outcomes]
    path.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def run_all(args: argparse.Namespace, url: str) -> tuple[list[Outcome], ModelProxy]:
    """Every chosen situation through the product, behind a recording proxy (the caller closes it)."""
    proxy = ModelProxy(url, safety_cap=args.safety_cap or None)
    outcomes: list[Outcome] = []
    situations = chosen(args)
    try:
        with tempfile.TemporaryDirectory(prefix="oh-judgement-") as tmp:
            for number, situation in enumerate(situations, 1):
                found = await run_situation(situation, Path(tmp) / f"s{number}", proxy, args)
                outcomes += found
                for o in found:
                    mark = "right" if o.got == o.label.expected else "WRONG"
                    print(f"# [{number}/{len(situations)}] {situation.name} | {o.label.task[:50]!r}: got {o.got}, "
                          f"expected {o.label.expected} -> {mark} ({o.calls} calls, {o.wall:.1f} s) "
                          f"{o.reason[:120]!r}", flush=True)
    except BaseException:
        proxy.close()
        raise
    return outcomes, proxy


async def main_async(args: argparse.Namespace, url: str) -> list[Outcome]:
    outcomes, proxy = await run_all(args, url)
    try:
        report(outcomes, args, proxy)
    finally:
        proxy.close()
    return outcomes


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    import openhuman_desktop

    print(f"# product from {Path(openhuman_desktop.__file__).resolve().parent.parent}; model {args.model}; "
          f"{len(chosen(args))} situations; load {os.getloadavg()[0]:.1f}", flush=True)
    with contextlib.ExitStack() as stack:
        url = args.url
        if args.start:
            port = free_port()
            url = real_model_server.start(port, context=args.n_ctx, threads=args.threads, model=args.model).url
            stack.callback(real_model_server.stop, port)
        elif args.constant:
            from bench.responders import constant_responder
            from tests.fakes.model_servers import FakeOpenAI

            fake = stack.enter_context(FakeOpenAI())
            fake.set_responder(constant_responder(args.constant))
            url = fake.url
        outcomes = asyncio.run(main_async(args, url))
    if args.json:
        dump(outcomes, args.json)
    return 0


if __name__ == "__main__":
    os.environ.pop("OLLAMA_HOST", None)
    sys.exit(main())
