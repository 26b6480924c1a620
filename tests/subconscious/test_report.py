"""The situation report: priority order, the token budget, changed files, memories, the environment."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from openhuman_desktop.llm.tokens import TokenCounter, upper_bound
from openhuman_desktop.store import Task
from openhuman_desktop.subconscious.report import (
    Section,
    SituationReporter,
    environment_section,
    files_section,
    memory_section,
    scan_workspace,
    tasks_section,
)
from tests.fakes.engine_harness import Harness, first_user_text, open_harness

TOKENS = TokenCounter()
HEADINGS = ["## Environment", "## New memories", "## Changed workspace files", "## Skill health", "## Model health"]


def report_of(body: dict[str, object]) -> str:
    """The situation report inside an evaluation request."""
    return first_user_text(body).split("Situation report:\n", 1)[1]


def words(count: int, word: str = "lorem") -> str:
    return " ".join(f"{word}{i}" for i in range(count))


# --- assembling within the budget -----------------------------------------------------------------------


def test_sections_that_fit_go_in_whole_and_in_order() -> None:
    reporter = SituationReporter([], TOKENS, lambda: 1000)
    report = reporter.assemble([Section("First", "one"), Section("Second", "two"), Section("Third", "three")])
    assert report.text.index("## First") < report.text.index("## Second") < report.text.index("## Third")
    assert "cut" not in report.text and "Left out" not in report.text
    assert report.tokens == upper_bound(report.text), "far below the budget: the byte length, nothing counted"
    assert TOKENS.count(report.text) <= report.tokens


@pytest.mark.parametrize("budget", [1000, 1500, 4000])
def test_the_section_that_does_not_fit_is_cut_and_says_so(budget: int) -> None:
    reporter = SituationReporter([], TOKENS, lambda: budget)
    sections = [Section("Environment", "Local time: now"), Section("Files", words(5000)),
                Section("Skill health", "- files: connected"), Section("Model health", "- local: ok")]

    report = reporter.assemble(sections)

    assert report.tokens == TOKENS.count(report.text) <= budget
    assert "## Environment\nLocal time: now" in report.text
    assert f"[Files: cut to fit the report budget of {budget} tokens]" in report.text
    assert "lorem0 lorem1" in report.text and "lorem4999" not in report.text
    assert f"[Left out, the report budget of {budget} tokens is used up: Skill health, Model health]" in report.text
    assert "## Skill health" not in report.text
    assert report.tokens > budget * 0.9, "the budget is used, not wasted"


def test_the_signature_covers_every_section_even_those_left_out() -> None:
    reporter = SituationReporter([], TOKENS, lambda: 1000)
    base = [Section("A", words(3000), "a"), Section("B", "b", "b1")]
    changed = [Section("A", words(3000), "a"), Section("B", "b", "b2")]
    assert reporter.assemble(base).text == reporter.assemble(changed).text
    assert reporter.assemble(base).signature != reporter.assemble(changed).signature


async def test_the_configured_budget_reaches_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch, budget=1000) as h:
        await h.add_task("Review the project notes")
        for index in range(30):
            h.write_file(f"notes/note{index:02}.md", words(200, f"n{index}x"))

        await h.tick()

        [body] = h.local_bodies("evaluation")
        report = report_of(body)
        assert TOKENS.count(report.strip()) <= 1000
        assert "[Changed workspace files: cut to fit the report budget of 1000 tokens]" in report
        assert "Left out, the report budget of 1000 tokens is used up: Skill health, Model health" in report
        positions = [report.index(heading) for heading in HEADINGS[:3]]
        assert positions == sorted(positions)


async def test_sections_reach_the_model_in_priority_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await h.add_task("Check my inbox")
        await h.tick()
        report = report_of(h.local_bodies("evaluation")[0])
        positions = [report.index(heading) for heading in HEADINGS]
        assert positions == sorted(positions)
        assert "files: connected" in report
        assert "local model: ok" in report and "llama3.2:3b" in report
        assert "Check my inbox" not in report, "the due list names the task; the report does not repeat it"


def task_of(title: str, *, last_run_at: float | None, intent: str = "read", recurrence: str = "pending") -> Task:
    return Task(id=f"id-{title}", title=title, source="user", recurrence=recurrence, enabled=True,
                last_run_at=last_run_at, next_run_at=None, completed=False, created_at=0.0, intent=intent,
                origin="user", intent_source="user", updated_at=0.0)


async def test_tasks_are_listed_under_when_they_were_last_looked_at(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    tick = 1_790_000_000.0  # 2026-09-21 14:13 UTC
    tasks = [task_of("Check my inbox", last_run_at=tick), task_of("Water the plants", last_run_at=None),
             task_of("Review notes.md", last_run_at=tick, intent="write"),
             task_of("Backups", last_run_at=tick - 86_400, recurrence="cron:0 9 * * *")]
    section = await tasks_section(tasks, None, tick + 300)
    assert section.text == (
        "Last looked at 2026-09-21 14:13:\n"
        "- Check my inbox (read-only; schedule pending)\n"
        "- Review notes.md (may change things; schedule pending)\n"
        "Last looked at never:\n"
        "- Water the plants (read-only; schedule pending)\n"
        "Last looked at 2026-09-20 14:13:\n"
        "- Backups (read-only; schedule cron:0 9 * * *)"
    )


# --- changed files --------------------------------------------------------------------------------------


async def _second_report(h: Harness, write: Callable[[float], None]) -> str:
    """Tick, let ``write(first_tick)`` change files after it, tick again: the second tick's report."""
    await h.add_task("Check my files")
    first_tick = h.clock.now()
    await h.tick()
    assert len(h.local_bodies("evaluation")) == 1
    await h.clock.advance(600)
    write(first_tick)
    # The second tick asks only about tasks a change touched (issue 24): the report itself is what it builds.
    built = await h.services.engine._reporter.build(await h.service.tasks_list(), first_tick, h.clock.now())
    return built.text


def files_part(report: str) -> str:
    return report.split("## Changed workspace files\n", 1)[1].split("\n## ")[0]


async def test_files_changed_since_the_last_tick_appear_with_size_and_excerpt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        h.write_file("old.md", "written before the first tick", mtime=h.clock.now() - 3600)

        def write(first_tick: float) -> None:
            h.write_file("docs/plan.md", "Ship the release on Friday.\n\nThen rest.", mtime=first_tick + 300)
            h.write_file("projects/logs/build.log", "build 7 failed", mtime=first_tick + 300)
            (h.workspace / "photo.png").write_bytes(b"\x89PNG not text")
            os.utime(h.workspace / "photo.png", (first_tick + 200, first_tick + 200))

        report = files_part(await _second_report(h, write))

        assert "- docs/plan.md (new file, 39 bytes):\n  lines: Ship the release on Friday. | Then rest." in report
        assert "- projects/logs/build.log (new file, 14 bytes):\n  lines: build 7 failed" in report, \
            "only the top-level logs/ is ours"
        assert "- photo.png (13 bytes; not a text file" in report and "PNG not text" not in report
        assert "old.md" not in report and "HEARTBEAT.md" not in report, "unchanged since the last tick"
        assert report.index("docs/plan.md") < report.index("photo.png"), "newest first"


async def test_the_apps_own_folders_and_secrets_never_appear(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        outside = tmp_path / "outside-secret.txt"
        outside.write_text("the bank PIN is PIN-SECRET-QX", encoding="utf-8")

        def write(first_tick: float) -> None:
            for relative in ("subconscious/notes.md", "run/token.txt", "logs/today.log", "memory/dump.txt",
                             ".hidden/file.md", ".env", "config.toml", "node_modules/x/index.js"):
                h.write_file(relative, f"INTERNAL {relative}", mtime=first_tick + 300)
            (h.workspace / "link.txt").symlink_to(outside)
            h.write_file("visible.md", "user file", mtime=first_tick + 300)

        report = await _second_report(h, write)
        first = report_of(h.local_bodies("evaluation")[0])

        for text in (first, report):
            assert "INTERNAL" not in text and "PIN-SECRET-QX" not in text
            part = files_part(text)
            for name in ("subconscious/", "run/", "logs/", "memory/", ".hidden", ".env", "config.toml",
                         "link.txt", "node_modules"):
                assert name not in part
        assert "- visible.md (new file, 9 bytes):\n  lines: user file" in files_part(report)


def test_the_file_signature_follows_every_file_not_just_the_changed_ones(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "a").mkdir(parents=True)
    (root / "a" / "one.txt").write_text("1", encoding="utf-8")
    os.utime(root / "a" / "one.txt", (1000, 1000))
    since_never = scan_workspace(root, None)
    since_later = scan_workspace(root, 2000)
    assert [c.path for c in since_never.changed] == ["a/one.txt"] and since_later.changed == []
    assert since_never.signature == since_later.signature
    (root / "a" / "one.txt").write_text("22", encoding="utf-8")
    os.utime(root / "a" / "one.txt", (1000, 1000))
    assert scan_workspace(root, 2000).signature != since_later.signature, "a change of size shows"


async def test_the_files_section_says_when_nothing_changed(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    section = await files_section(root)([], 0.0, 1.0)
    assert section is not None
    assert section.text == "None since the last check."


# --- memories -------------------------------------------------------------------------------------------


async def test_the_memory_section_lists_what_is_new_on_one_line_each() -> None:
    store = [("m3", "third\nline", 30.0), ("m2", "second", 20.0), ("m1", "first", 10.0)]

    async def recent(since: float | None) -> list[tuple[str, str, float]]:
        return [item for item in store if since is None or item[2] > since]

    build = memory_section(recent)
    newest = await build([], 15.0, 40.0)
    assert newest is not None
    assert newest.text == "- third line\n- second"
    everything = await build([], None, 40.0)
    assert everything is not None and everything.text.count("\n- ") == 2
    quiet = await build([], 35.0, 40.0)
    assert quiet is not None and quiet.text == "None since the last check."
    assert quiet.signature == newest.signature == everything.signature == "m3,m2,m1"


async def test_new_memories_appear_in_the_first_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await h.services.memory.add("The dentist moved the appointment to Friday.")
        await h.add_task("Review new memories")
        await h.tick()
        report = report_of(h.local_bodies("evaluation")[0])
        section = report.split("## New memories\n", 1)[1].split("\n## ")[0]
        assert "- The dentist moved the appointment to Friday." in section


# --- the environment ------------------------------------------------------------------------------------


@pytest.mark.parametrize("zone", ["Europe/Berlin", "America/New_York", "Asia/Kolkata"])
async def test_the_environment_has_the_local_time_with_its_zone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, zone: str
) -> None:
    monkeypatch.setenv("TZ", zone)
    now = 1_790_000_000.0
    section = await environment_section(tmp_path)([], None, now)
    assert section is not None
    moment = datetime.fromtimestamp(now, ZoneInfo(zone))
    offset = moment.strftime("%z")
    assert f"Local time: {moment:%A %Y-%m-%d %H:%M} ({moment.tzname()}, UTC{offset[:3]}:{offset[3:]})" \
        in section.text
    assert f"Workspace: {tmp_path}" in section.text
    assert re.search(r"^System: \S+", section.text, re.MULTILINE)
    later = await environment_section(tmp_path)([], None, now + 3600)
    assert later is not None and later.signature == section.signature, "the time alone never breaks the idle gate"
