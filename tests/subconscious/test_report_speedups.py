"""The fast paths of the report, the token counter and the evaluator give the same results as the plain ones."""

from __future__ import annotations

import hashlib
import json
import os
import random
import stat
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop import recurrence
from openhuman_desktop.app_files import is_private
from openhuman_desktop.llm import OllamaClient
from openhuman_desktop.llm.tokens import TokenCounter, load_encoding, upper_bound
from openhuman_desktop.store import Task
from openhuman_desktop.subconscious.decisions import Evaluation, Report
from openhuman_desktop.subconscious.evaluator import SYSTEM_PROMPT, ModelEvaluator
from openhuman_desktop.subconscious.report import (
    MAX_FILES_LISTED,
    SKIPPED,
    Section,
    SituationReporter,
    one_line,
    scan_workspace,
)
from tests.fakes.engine_harness import Brain
from tests.fakes.model_servers import FakeOllama


def slow_one_line(text: str) -> str:
    """The original one_line, character by character."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def test_one_line_matches_the_character_by_character_version() -> None:
    rng = random.Random(3)
    alphabet = "ab Z9.-\n\r\t\x00\x1b\x7f\x85\xa0\u200b\u2028\u2029\u3000\ufeff é🙂"
    samples = ["", " ", "plain words", "line\nbreak", "tab\there", "\x00\x00", "zero\u200bwidth", " \xa0 x \xa0 "]
    samples += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40))) for _ in range(2000)]
    for text in samples:
        assert one_line(text) == slow_one_line(text), repr(text)


def reference_scan(root: Path, since: float | None) -> tuple[list[tuple[str, int, float]], str]:
    """The original pathlib/os.walk scan: (path, size, mtime) of the listed files and the signature."""
    digest = hashlib.sha256()
    found: list[tuple[float, Path, int]] = []
    for directory, dirnames, filenames in os.walk(root):
        at_root = Path(directory) == root
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith(".") and d not in SKIPPED and not (at_root and is_private(d)))
        for name in sorted(filenames):
            if name.startswith(".") or (at_root and is_private(name)):
                continue
            path = Path(directory) / name
            info = path.lstat()
            if not stat.S_ISREG(info.st_mode):
                continue
            relative = path.relative_to(root).as_posix()
            digest.update(f"{relative}\x00{info.st_size}\x00{info.st_mtime_ns}\x00".encode())
            if since is None or info.st_mtime > since:
                found.append((info.st_mtime, path, info.st_size))
    found.sort(key=lambda item: (-item[0], str(item[1])))
    listed = [(p.relative_to(root).as_posix(), size, mtime) for mtime, p, size in found[:MAX_FILES_LISTED]]
    return listed, digest.hexdigest()


def test_the_scan_lists_and_signs_exactly_what_the_os_walk_version_did(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    outside = tmp_path / "outside"
    (outside / "deep").mkdir(parents=True)
    (outside / "deep" / "secret.txt").write_text("secret", encoding="utf-8")
    rng = random.Random(5)
    names = ["a.md", "B.txt", "z.bin", "config.toml", ".hidden.md", "notes", "é.md"]
    folders = ["", "docs", "docs/sub", "run", "logs", "memory", "subconscious", "projects/logs", "projects/run",
               ".git", "node_modules/pkg", "x/node_modules", "x/__pycache__", ".cache", "docs/.private", "Zeta"]
    for number, folder in enumerate(folders * 3):
        directory = root / folder
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{number}-{rng.choice(names)}"
        path.write_text("x" * rng.randrange(0, 50), encoding="utf-8")
        moment = 1_000_000 + rng.randrange(0, 5)  # equal times: ties are broken by the path
        os.utime(path, (moment, moment))
    (root / "config.toml").write_text("[x]", encoding="utf-8")
    (root / "docs" / "config.toml").write_text("[y]", encoding="utf-8")
    (root / "link.txt").symlink_to(outside / "deep" / "secret.txt")
    (root / "linked-dir").symlink_to(outside / "deep")
    (root / "docs" / "broken").symlink_to(tmp_path / "missing")
    for since in (None, 1_000_002.0, 9e9):
        scan = scan_workspace(root, since)
        listed, signature = reference_scan(root, since)
        assert [(c.path, c.size, c.mtime) for c in scan.changed] == listed
        assert scan.signature == signature
    assert all("secret" not in c.path and "linked-dir" not in c.path for c in scan_workspace(root, None).changed)


def test_counts_and_cuts_from_the_cache_equal_fresh_ones() -> None:
    encoding = load_encoding("cl100k_base")
    assert encoding is not None
    counter = TokenCounter()
    rng = random.Random(11)
    texts = [" ".join(rng.choice(["alpha", "béta", "🙂", "42", "\n", "x" * 300]) for _ in range(n))
             for n in (1, 5, 50, 500, 3000)]
    for _ in range(2):  # the second round comes from the cache
        for text in texts:
            assert counter.count(text) == len(encoding.encode_ordinary(text))
            for limit in (1, 3, 40, 700):
                cut = counter.truncate(text, limit)
                assert text.startswith(cut)
                assert len(encoding.encode_ordinary(cut)) <= limit
                assert cut == TokenCounter().truncate(text, limit)


def test_the_cut_report_is_the_same_from_a_warm_cache() -> None:
    words = " ".join(f"word{i} ü 🙂" for i in range(4000))
    sections = [Section("Environment", "Local time: now"), Section("Files", words), Section("Skill health", "ok")]
    cold = SituationReporter([], TokenCounter(), lambda: 1500)
    first = cold.assemble(sections)
    again = cold.assemble(sections)
    fresh = SituationReporter([], TokenCounter(), lambda: 1500).assemble(sections)
    assert first == again == fresh
    assert first.tokens == TokenCounter().count(first.text) <= 1500


async def test_warm_up_twice_is_harmless() -> None:
    counter = TokenCounter()
    await counter.warm_up()
    await counter.warm_up()
    assert counter.count("hello world") == 2


def test_the_local_zone_is_cached_but_follows_tz(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Europe/Berlin")
    assert recurrence.local_zone() is recurrence.local_zone()
    monkeypatch.setenv("TZ", "Asia/Kolkata")
    assert str(recurrence.local_zone()) == "Asia/Kolkata"
    monkeypatch.delenv("TZ")
    assert recurrence.local_zone() is recurrence.local_zone()


class CountingTokens:
    """A TokenCounter that records every text it counts."""

    def __init__(self) -> None:
        self.inner = TokenCounter()
        self.counted: Counter[str] = Counter()

    def count(self, text: str) -> int:
        self.counted[text] += 1
        return self.inner.count(text)

    def truncate(self, text: str, max_tokens: int) -> str:
        return self.inner.truncate(text, max_tokens)


def make_task(number: int) -> Task:
    return Task(id=f"task-{number:04}", title=f"Look at folder {number} for new invoices", source="user",
                recurrence="pending", enabled=True, last_run_at=None, next_run_at=None, completed=False,
                created_at=0.0, intent="read", origin="user", intent_source="keyword", updated_at=0.0)


async def evaluate_counting(tasks: list[Task], report: Report, window: int | None,
                            tokens: CountingTokens) -> tuple[Evaluation, list[Any]]:
    with FakeOllama() as server:
        server.add_model("llama3.2:3b")
        server.set_responder(Brain())
        client = OllamaClient("llama3.2:3b", server.url)
        try:
            evaluation = await ModelEvaluator(lambda: client, tokens, lambda: window).evaluate(tasks, report)
        finally:
            await client.aclose()
        return evaluation, server.chat_requests


async def test_an_evaluation_that_fits_by_bytes_counts_nothing() -> None:
    tasks = [make_task(n) for n in range(120)]
    text = "## Environment\nLocal time: Monday\n" + "files changed " * 200
    tokens = CountingTokens()
    report = Report(text=text, signature="s", tokens=upper_bound(text))
    for window in (None, 131_072):
        evaluation, sent = await evaluate_counting(tasks, report, window, tokens)
        assert len(sent) == 1 and evaluation.model_calls == 1
    assert not tokens.counted, "nothing near the window: the tokenizer is not needed"
    # The prompt tokens are the model's own figure (the fake's is a quarter of the messages' JSON length).
    assert evaluation.prompt_tokens == max(1, len(json.dumps(sent[0].json["messages"])) // 4)


async def test_an_evaluation_near_the_window_counts_each_task_line_once_and_never_the_whole_prompt() -> None:
    tasks = [make_task(n) for n in range(120)]
    text = "## Environment\nLocal time: Monday\n" + "files changed " * 200
    tokens = CountingTokens()
    report = Report(text=text, signature="s", tokens=upper_bound(text))
    evaluation, sent = await evaluate_counting(tasks, report, 8192, tokens)
    assert all(tokens.counted[task.title] == 1 for task in tasks), "each title once, whatever its alias"
    assert tokens.counted[text] == 1, "the report is counted once, exactly"
    assert not any(text in counted and counted != text for counted in tokens.counted), "the prompt is not counted"
    assert SYSTEM_PROMPT in tokens.counted
    for request in sent:
        assert sum(tokens.inner.count(str(m["content"])) for m in request.json["messages"]) < 8192
