"""The situation report: what the model sees about the user's world, in priority order, within budget."""

from __future__ import annotations

import asyncio
import hashlib
import os
import platform
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol

from openhuman_desktop.store import Task
from openhuman_desktop.subconscious.decisions import Report
from openhuman_desktop.subconscious.recurrence import local_zone

# Folders of the workspace that belong to the app itself, never reported as the user's files.
INTERNAL = frozenset({"subconscious", "run", "logs", "memory", ".git", "__pycache__", "node_modules"})
MAX_FILES_SCANNED = 20_000
MAX_FILES_LISTED = 50
EXCERPT_CHARS = 400
TEXT_SUFFIXES = frozenset({".md", ".txt", ".json", ".toml", ".yaml", ".yml", ".csv", ".py", ".rst", ".log",
                           ".html", ".xml", ".ini", ".cfg", ".js", ".ts", ".sh", ""})


class TokenCount(Protocol):
    def count(self, text: str) -> int:
        ...

    def truncate(self, text: str, max_tokens: int) -> str:
        ...


@dataclass(frozen=True)
class Section:
    """One part of the report: its heading, its text, and what identifies its content for the idle gate."""

    title: str
    text: str
    signature: str = ""


SectionSource = Callable[[Sequence[Task], float | None, float], Awaitable[Section | None]]


@dataclass(frozen=True)
class ChangedFile:
    path: str
    size: int
    mtime: float
    excerpt: str | None


def scan_changed_files(root: Path, since: float | None) -> list[ChangedFile]:
    """Files under ``root`` modified after ``since`` (newest first), skipping the app's own folders."""
    found: list[tuple[float, Path, int]] = []
    scanned = 0
    for directory, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in INTERNAL and not d.startswith(".")]
        for name in filenames:
            scanned += 1
            if scanned > MAX_FILES_SCANNED:
                break
            if name.startswith(".") or (directory == str(root) and name in ("config.toml",)):
                continue
            path = Path(directory) / name
            try:
                info = path.lstat()
            except OSError:
                continue
            if since is None or info.st_mtime > since:
                found.append((info.st_mtime, path, info.st_size))
    found.sort(reverse=True)
    result = []
    for mtime, path, size in found[:MAX_FILES_LISTED]:
        excerpt = None
        if path.suffix.lower() in TEXT_SUFFIXES and path.is_file():
            try:
                with path.open("r", encoding="utf-8") as handle:
                    excerpt = " ".join(handle.read(EXCERPT_CHARS).split())
            except (OSError, UnicodeDecodeError):
                excerpt = None
        result.append(ChangedFile(str(path.relative_to(root)), size, mtime, excerpt))
    return result


class SituationReporter:
    """Builds the report from sections, in priority order, counted in real tokens.

    A section that does not fit the budget is cut and says so; sections after the budget is spent
    are left out with a note.
    """

    def __init__(self, sections: Sequence[SectionSource], tokens: TokenCount, budget: Callable[[], int]) -> None:
        self._sections = list(sections)
        self._tokens = tokens
        self._budget = budget

    async def build(self, tasks: Sequence[Task], since: float | None, now: float) -> Report:
        built = [await source(tasks, since, now) for source in self._sections]
        sections = [section for section in built if section is not None]
        return await asyncio.to_thread(self.assemble, sections)

    def assemble(self, sections: Sequence[Section]) -> Report:
        """Join sections within the token budget (CPU-bound; runs off the event loop)."""
        budget = self._budget()
        parts: list[str] = []
        used = 0
        signature = hashlib.sha256()
        for section in sections:
            signature.update(section.title.encode() + b"\x00" + section.signature.encode() + b"\x00")
            block = f"## {section.title}\n{section.text.strip()}\n"
            cost = self._tokens.count(block)
            left = budget - used
            if cost <= left:
                parts.append(block)
                used += cost
                continue
            note = f"[{section.title}: cut to fit the report budget of {budget} tokens]"
            room = left - self._tokens.count(note) - 4
            if room > 20:
                cut = self._tokens.truncate(block, room)
                parts.append(f"{cut}\n{note}\n")
                used += self._tokens.count(parts[-1])
            else:
                parts.append(f"[{section.title}: left out, the report budget of {budget} tokens is used up]\n")
                used += self._tokens.count(parts[-1])
        text = "\n".join(parts)
        return Report(text=text, signature=signature.hexdigest(), tokens=used)


# --- the standard sections ----------------------------------------------------------------------


def environment_section(workspace: Path) -> SectionSource:
    """Local time with zone, OS and workspace. Its signature ignores the time (the idle gate)."""

    async def build(tasks: Sequence[Task], since: float | None, now: float) -> Section:
        moment = datetime.fromtimestamp(now, tz=local_zone())
        text = (f"Local time: {moment:%A %Y-%m-%d %H:%M} ({moment.tzname()})\n"
                f"System: {platform.system()} {platform.release()}\nWorkspace: {workspace}")
        return Section("Environment", text, signature=f"{platform.system()}|{workspace}")

    return build


async def tasks_section(tasks: Sequence[Task], since: float | None, now: float) -> Section:
    """The due tasks with their schedule and last run."""
    lines = []
    for task in tasks:
        last = (datetime.fromtimestamp(task.last_run_at, tz=local_zone()).strftime("%Y-%m-%d %H:%M")
                if task.last_run_at else "never")
        lines.append(f"- {task.title} (schedule {task.recurrence}, last looked at {last})")
    return Section("Tasks", "\n".join(lines) or "No tasks are due.", signature="")


def memory_section(recent: Callable[[float | None], Awaitable[list[tuple[str, str, float]]]]) -> SectionSource:
    """Memories added since the last successful tick. ``recent(since)`` gives (id, text, created_at)."""

    async def build(tasks: Sequence[Task], since: float | None, now: float) -> Section:
        items = await recent(since)
        if not items:
            return Section("New memories", "None since the last check.", signature="none")
        lines = [f"- {text}" for _, text, _ in items]
        return Section("New memories", "\n".join(lines), signature=",".join(item_id for item_id, _, _ in items))

    return build


def files_section(root: Path) -> SectionSource:
    """Workspace files changed since the last successful tick: names, sizes, short excerpts."""

    async def build(tasks: Sequence[Task], since: float | None, now: float) -> Section:
        changed = await asyncio.to_thread(scan_changed_files, root, since)
        if not changed:
            return Section("Changed workspace files", "None since the last check.", signature="none")
        lines = []
        for item in changed:
            line = f"- {item.path} ({item.size} bytes)"
            if item.excerpt:
                line += f": {item.excerpt}"
            lines.append(line)
        signature = ",".join(f"{item.path}:{item.size}:{item.mtime}" for item in changed)
        return Section("Changed workspace files", "\n".join(lines), signature=signature)

    return build


def lines_section(title: str, lines: Callable[[], Awaitable[list[str]]]) -> SectionSource:
    """A section made of status lines (skill health, model health)."""

    async def build(tasks: Sequence[Task], since: float | None, now: float) -> Section:
        content = await lines()
        text = "\n".join(f"- {line}" for line in content) or "Nothing to report."
        return Section(title, text, signature=text)

    return build
