"""Situation report benchmark: build and assemble a ~40,000-token report with the real reporter and tokenizer.

The workspace index is kept warm across the timed builds, as the app keeps it across ticks; the cold full
scan (the first tick, the fallback, the periodic verification walk) is timed on its own.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import budget, figure, load_note, machine, ms_since, note, timed, timed_async  # noqa: E402
from openhuman_desktop.llm.tokens import TokenCounter  # noqa: E402
from openhuman_desktop.memory import MemoryStore, open_memory_store  # noqa: E402
from openhuman_desktop.paths import Paths  # noqa: E402
from openhuman_desktop.store import Task  # noqa: E402
from openhuman_desktop.subconscious import report  # noqa: E402
from openhuman_desktop.subconscious.workspace_index import WorkspaceIndex  # noqa: E402

REPORT_BUDGET_MS = 50.0
RECENT_MEMORIES = 50  # what bootstrap.build passes to memory.since
WORDS = (
    "the", "project", "meeting", "notes", "invoice", "draft", "review", "client", "deadline", "budget", "report",
    "follow", "up", "email", "schedule", "release", "migration", "server", "backup", "contract", "design",
    "feedback", "summary", "roadmap", "quarter", "customer", "support", "ticket", "priority", "update", "agenda",
    "travel", "receipt", "payment", "reminder", "shopping", "doctor", "appointment", "renewal", "insurance", "tax",
    "return", "presentation", "slides", "workshop", "Anna", "Berlin", "Q3", "v2.1", "PR-4821", "Zoom", "Friday",
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer files and memories, 2 repeats")
    parser.add_argument("--files", type=int, default=5_000, help="workspace files, all changed")
    parser.add_argument("--memories", type=int, default=2_000, help="memories in memory.db")
    parser.add_argument("--tasks", type=int, default=50, help="due tasks in the report")
    parser.add_argument("--memory-chars", type=int, default=4_200, help="characters per memory (~40k tokens)")
    parser.add_argument("--budget-tokens", type=int, default=40_000, help="context_budget_tokens")
    parser.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args(argv)
    if args.quick:
        args.files, args.memories, args.repeats = 300, 200, 2
    return args


def prose(rng: random.Random, chars: int) -> str:
    words: list[str] = []
    length = 0
    while length < chars:
        word = rng.choice(WORDS)
        if rng.random() < 0.08:
            word = f"{word}{rng.randrange(1, 2030)}."
        words.append(word)
        length += len(word) + 1
    return " ".join(words)[:chars]


def make_files(root: Path, count: int, rng: random.Random) -> None:
    """``count`` text files in nested folders, each ~1 KB, with distinct modification times."""
    now = time.time()
    for n in range(count):
        folder = root / "projects" / f"p{n % 40:02d}" / ("notes" if n % 3 else "docs")
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"file-{n:05d}.{'md' if n % 2 else 'txt'}"
        path.write_text(prose(rng, 1_000), encoding="utf-8")
        os.utime(path, (now - n, now - n))


def make_memories(db_path: Path, count: int, chars: int, rng: random.Random) -> None:
    """``count`` memories inserted with plain sqlite3 in one transaction (the FTS triggers fill the index)."""
    now = time.time()
    conn = sqlite3.connect(db_path, isolation_level=None)
    try:
        conn.execute("BEGIN")
        conn.executemany(
            "INSERT INTO memories (id, seq, text, source, created_at, tags) VALUES (?, ?, ?, 'user', ?, '')",
            ((str(uuid.uuid4()), n + 1, prose(rng, chars), now - (count - n)) for n in range(count)),
        )
        conn.execute("COMMIT")
    finally:
        conn.close()


def due_tasks(count: int) -> list[Task]:
    now = time.time()
    return [
        Task(id=str(uuid.uuid4()), title=f"Check the client project folder {n} and summarise what changed",
             source="user", recurrence="pending", enabled=True, last_run_at=now - 3600, next_run_at=None,
             completed=False, created_at=now - 86_400, intent="write" if n % 4 == 0 else "read", origin="user",
             intent_source="keyword", updated_at=now - 86_400)
        for n in range(count)
    ]


def section_sources(paths: Paths, memory: MemoryStore, index: WorkspaceIndex) -> list[report.SectionSource]:
    """The sections bootstrap.build wires, over a real memory store and workspace."""

    async def recent_memories(since: float | None) -> list[tuple[str, str, float]]:
        items = await memory.since(since or 0.0, RECENT_MEMORIES)
        return [(item.id, item.text, item.created_at) for item in items]

    async def skill_lines() -> list[str]:
        return ["workspace files: connected", "memory: connected", "subconscious tasks: connected",
                "desktop notification: connected"]

    async def model_lines() -> list[str]:
        return ["local model: ok — Ollama model llama3.2:3b is ready, context window 131072 tokens",
                "reasoning model: ok — Ollama model qwen2.5:14b is ready"]

    return [
        report.environment_section(paths.workspace),
        report.tasks_section,
        report.memory_section(recent_memories),
        report.files_section(paths.workspace, index),
        report.lines_section("Skill health", skill_lines),
        report.lines_section("Model health", model_lines),
    ]


async def scenario(label: str, args: argparse.Namespace, paths: Paths, memory: MemoryStore,
                   tokens: TokenCounter, budget_tokens: int, index: WorkspaceIndex) -> float:
    """Time build() (the whole report, as a tick does it) and assemble() alone; returns build()'s median."""
    sources = section_sources(paths, memory, index)
    built = report.SituationReporter(sources, tokens, lambda: budget_tokens)
    tasks = due_tasks(args.tasks)
    now = time.time()
    result = await built.build(tasks, None, now)  # warm-up: page cache, sqlite cache
    samples, result = await timed_async(args.repeats, lambda: built.build(tasks, None, now))
    content = sum(tokens.count(section.text) for section in await sections(sources, tasks, now))
    note(f"{label}: {result.tokens:,} report tokens (budget {budget_tokens:,}; sections hold {content:,} tokens), "
         f"{len(result.text):,} characters, cut: {'yes' if 'cut to fit' in result.text else 'no'}")
    build = figure(f"report build() {label}, {result.tokens:,} tokens", samples)
    parts = await sections(sources, tasks, now)
    samples, _ = timed(args.repeats, lambda: built.assemble(parts))
    figure(f"report assemble() {label}, {result.tokens:,} tokens", samples)
    samples, _ = await timed_async(args.repeats, lambda: sections(sources, tasks, now))
    figure(f"report sections only (memory query, warm index of {args.files:,} files) {label}", samples)
    samples, _ = timed(args.repeats, lambda: tokens.count(result.text))
    figure(f"one TokenCounter.count over the whole report ({result.tokens:,} tokens)", samples)
    return build.median


def file_scans(args: argparse.Namespace, root: Path, index: WorkspaceIndex) -> None:
    """The file scan alone: cold (a full walk, as the first tick, the fallback and the periodic walk do it)
    and from the warm index, quiet and after one file changed (since = None: every file is listed)."""
    report.scan_workspace(root, None)  # the page cache warm, as for every figure
    samples, _ = timed(args.repeats, lambda: report.scan_workspace(root, None))
    figure(f"cold full scan (scan_workspace, no index) of {args.files:,} files", samples)
    started = time.perf_counter()
    index.warm()
    note(f"index first build (full walk + one inotify watch per folder): {ms_since(started):.1f} ms")
    samples, _ = timed(args.repeats, lambda: index.scan(None))
    figure(f"warm index scan of {args.files:,} files, nothing changed", samples)
    some = next(root.glob("projects/*/notes/*.md"))
    samples = []
    for n in range(args.repeats):
        some.write_text(f"edited {n}", encoding="utf-8")
        started = time.perf_counter()
        index.scan(None)
        samples.append(ms_since(started))
    figure(f"warm index scan of {args.files:,} files, one file edited (its folder listed again)", samples)


async def sections(sources: list[report.SectionSource], tasks: list[Task], now: float) -> list[report.Section]:
    """The sections, built the way SituationReporter.build builds them (a first tick: since = None)."""
    found = [await source(tasks, None, now) for source in sources]
    return [section for section in found if section is not None]


async def run(args: argparse.Namespace, root: Path) -> int:
    started = time.perf_counter()
    tokens = TokenCounter()
    tokens.count("warm up")
    note(f"tokenizer first load: {ms_since(started):.0f} ms (once per process; exact counts: {tokens.is_exact})")
    paths = Paths(root)
    paths.ensure()
    rng = random.Random(7)
    started = time.perf_counter()
    make_files(paths.workspace, args.files, rng)
    memory = await open_memory_store(paths.workspace / "memory" / "memory.db")
    try:
        make_memories(memory.path, args.memories, args.memory_chars, rng)
        note(f"made {args.files:,} files and {args.memories:,} memories in {ms_since(started) / 1000:.1f} s")
        index = WorkspaceIndex(paths.workspace)
        try:
            file_scans(args, paths.workspace, index)
            fits = await scenario("within budget", args, paths, memory, tokens, args.budget_tokens * 2, index)
            cut = await scenario("over budget (cut)", args, paths, memory, tokens, args.budget_tokens // 2, index)
            if index.disabled:
                note(f"the index was off, every figure above is a full scan: {index.disabled}")
        finally:
            index.close()
    finally:
        await memory.aclose()
    budget("situation report build(), ~40k tokens (median)", fits, REPORT_BUDGET_MS, "ms")
    budget("situation report build(), cut to the budget (median)", cut, REPORT_BUDGET_MS, "ms")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    note(machine())
    load_note()
    with tempfile.TemporaryDirectory(prefix="oh-report-bench-") as tmp:
        return asyncio.run(run(args, Path(tmp) / "workspace"))


if __name__ == "__main__":
    sys.exit(main())
