"""The situation report: what the model sees about the user's world, in priority order, within budget."""

from __future__ import annotations

import asyncio
import hashlib
import heapq
import operator
import os
import platform
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from stat import S_ISREG
from typing import Protocol

from openhuman_desktop.app_files import is_private
from openhuman_desktop.llm.tokens import upper_bound
from openhuman_desktop.recurrence import local_zone
from openhuman_desktop.store import Task
from openhuman_desktop.subconscious.changes import CLOEXEC, NOFOLLOW, NONBLOCK, FileHistory, describe
from openhuman_desktop.subconscious.decisions import TASKS_SECTION, WORLD, ChangeItem, Report

# The app's own entries at the top of the workspace are never reported (``app_files``: the one list).
# Folders skipped wherever they are (tool caches and version control), as are hidden ones.
SKIPPED = frozenset({".git", "__pycache__", "node_modules"})
HEARTBEAT_FILE = "HEARTBEAT.md"
MAX_FILES_SCANNED = 20_000
_NAME = operator.attrgetter("name")
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
    """One part of the report: its heading, its text, and what identifies its content for the idle gate.

    The signature describes the *state* the section looks at (every workspace file, the newest
    memories), not the text, which covers only what changed since the last tick: an unchanged world
    gives the same signature on every tick, so the idle gate can skip the model.
    """

    title: str
    text: str
    signature: str = ""
    items: tuple[ChangeItem, ...] = ()
    """What changed, item by item (see ``ChangeItem``); whatever the budget cuts from the text."""


SectionSource = Callable[[Sequence[Task], float | None, float], Awaitable[Section | None]]


@dataclass(frozen=True)
class ChangedFile:
    path: str
    size: int
    mtime: float
    excerpt: str | None


@dataclass(frozen=True)
class WorkspaceScan:
    """The user's files changed since a moment (newest first) and a signature of all of them."""

    changed: list[ChangedFile]
    signature: str


class WorkspaceSource(Protocol):
    """Answers :func:`scan_workspace` for one workspace (the kept index); safe to call from any thread."""

    def scan(self, since: float | None) -> WorkspaceScan:
        ...


def one_line(text: str) -> str:
    """``text`` on one line: data in the report must never start a line of its own (a fake task line).

    Characters that are not printable become spaces, and runs of whitespace one space.
    """
    joined = " ".join(text.split())
    if joined.isprintable():  # the usual case, all in C: only words with unprintable characters need a loop
        return joined
    words: list[str] = []
    for word in joined.split(" "):
        if word.isprintable():
            words.append(word)
        else:
            words.extend("".join(c if c.isprintable() else " " for c in word).split())
    return " ".join(words)


def _entries(directory: str) -> tuple[list[os.DirEntry[str]], list[os.DirEntry[str]]]:
    """The folders and the other entries of ``directory``, each sorted by name (none if unreadable)."""
    folders: list[os.DirEntry[str]] = []
    files: list[os.DirEntry[str]] = []
    try:
        with os.scandir(directory) as listing:
            for entry in listing:
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                (folders if is_dir else files).append(entry)
    except OSError:
        return [], []
    folders.sort(key=_NAME)
    files.sort(key=_NAME)
    return folders, files


def _excerpt(path: Path) -> str | None:
    """The start of a text file, on one line; None for anything else.

    Not through a symbolic link, and not of a file with other names (a hard link may be the RPC token's file
    or one outside the workspace): the name is the user's, the content may not be.
    """
    if path.suffix.lower() not in TEXT_SUFFIXES:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | NOFOLLOW | NONBLOCK | CLOEXEC)
    except OSError:
        return None
    try:
        with open(fd, encoding="utf-8", closefd=False) as handle:
            info = os.fstat(fd)
            if not S_ISREG(info.st_mode) or info.st_nlink != 1:
                return None
            return one_line(handle.read(EXCERPT_CHARS))
    except (OSError, UnicodeDecodeError):
        return None
    finally:
        os.close(fd)


# One file of the workspace: (relative path, size, mtime_ns, mtime).
FileStamp = tuple[str, int, int, float]


def list_folder(directory: str, prefix: str) -> tuple[list[FileStamp | None], list[str]]:
    """One folder by the workspace rules: its files and the subfolders to walk, each in name order.

    Args:
        directory: the folder's path.
        prefix: its path relative to the workspace root with a trailing "/" ("" for the root itself).

    Returns:
        Every entry that counts towards ``MAX_FILES_SCANNED`` (a stamp for a regular file, ``None``
        for anything else: symbolic link, socket, vanished), and the names of the subfolders to enter.
    """
    at_root = not prefix
    folders, files = _entries(directory)
    counted: list[FileStamp | None] = []
    for entry in files:
        name = entry.name
        if name[:1] == "." or (at_root and is_private(name)):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            counted.append(None)
            continue
        # A symlink could lead out of the workspace: never read it.
        is_regular = S_ISREG(info.st_mode)
        counted.append((prefix + name, info.st_size, info.st_mtime_ns, info.st_mtime) if is_regular else None)
    walked = [
        entry.name for entry in folders
        if entry.name[:1] != "." and entry.name not in SKIPPED and not (at_root and is_private(entry.name))
        and not entry.is_symlink()  # listed as a folder by os.walk, never entered
    ]
    return counted, walked


def stamp_bytes(stamps: Sequence[FileStamp | None]) -> bytes:
    """What the signature covers of these files, in their order (undecodable names included)."""
    return "".join(f"{stamp[0]}\x00{stamp[1]}\x00{stamp[2]}\x00" for stamp in stamps if stamp is not None).encode(
        "utf-8", "surrogateescape")


def changed_files(root: Path, found: list[tuple[float, str, int]]) -> list[ChangedFile]:
    """The newest ``MAX_FILES_LISTED`` of ``found`` ((-mtime, path, size) each), with excerpts read for them only."""
    return [
        ChangedFile(relative, size, -negative_mtime, _excerpt(root / relative))
        for negative_mtime, relative, size in heapq.nsmallest(MAX_FILES_LISTED, found)
    ]


def scan_workspace(root: Path, since: float | None) -> WorkspaceScan:
    """Files under ``root`` modified after ``since`` (newest first), and a signature of every file.

    The user's regular files only: no symbolic links (one could lead out of the workspace), nothing in
    the app's own folders, hidden folders or tool caches. Folders are walked top-down with names sorted
    (a folder's files, then each subfolder in turn): that canonical order makes the signature stable,
    and :class:`~openhuman_desktop.subconscious.workspace_index.WorkspaceIndex` keeps the same one.

    Args:
        root: the workspace.
        since: the moment after which a file counts as changed (``None``: every file).
    """
    signed: list[bytes] = []
    found: list[tuple[float, str, int]] = []  # (-mtime, path, size): tuple order is newest first, then path
    remaining = MAX_FILES_SCANNED
    base = os.fspath(root)
    pending = [""]  # relative paths of folders, with a trailing "/" (the root is "")
    while pending and remaining > 0:
        prefix = pending.pop()
        counted, walked = list_folder(os.path.join(base, prefix), prefix)
        if len(counted) > remaining:
            del counted[remaining:]
        remaining -= len(counted)
        signed.append(stamp_bytes(counted))
        found.extend((-stamp[3], stamp[0], stamp[1]) for stamp in counted
                     if stamp is not None and (since is None or stamp[3] > since))
        pending.extend(reversed([f"{prefix}{name}/" for name in walked]))
    return WorkspaceScan(changed_files(root, found), hashlib.sha256(b"".join(signed)).hexdigest())


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
        # Together: the file scan (a worker thread) and the memory query (the database's) overlap.
        built = await asyncio.gather(*(source(tasks, since, now) for source in self._sections))
        sections = [section for section in built if section is not None]
        return await asyncio.to_thread(self.assemble, sections)

    def assemble(self, sections: Sequence[Section]) -> Report:
        """Join sections within the token budget (CPU-bound; runs off the event loop).

        Sections go in whole while they fit. The first one that does not is cut and says so; the ones
        after it are left out, named in a closing note. The whole text never exceeds the budget.
        """
        budget = self._budget()
        signature = hashlib.sha256()
        items = tuple(item for section in sections for item in section.items)
        for section in sections:
            signature.update(section.title.encode() + b"\x00" + section.signature.encode() + b"\x00")
        blocks = [f"## {section.title}\n{section.text.strip()}\n" for section in sections]
        titles = [section.title for section in sections]
        whole = _join(blocks)
        bound = upper_bound(whole)
        if bound <= budget:  # fits even at one token per byte: no counting needed
            return Report(text=whole, signature=signature.hexdigest(), tokens=bound,
                          blocks=tuple(zip(titles, blocks, strict=True)), items=items)
        parts: list[str] = []
        used = 0  # each block counted once, plus one token per joining newline (never less than the whole)
        for index, (section, block) in enumerate(zip(sections, blocks, strict=True)):
            cost = self._tokens.count(block) + (1 if parts else 0)
            if used + cost <= budget:
                parts.append(block)
                used += cost
                continue
            later = [other.title for other in sections[index + 1:]]
            cut = self._cut(parts, used, section, block, later, budget)
            text = _join([*parts, *cut])
            # The cut block ("## Title …") keeps its section's title; the closing note has none.
            kept = (*zip(titles[:index], parts, strict=True),
                    *((section.title if piece.startswith("## ") else "", piece) for piece in cut))
            return Report(text=text, signature=signature.hexdigest(), tokens=self._tokens.count(text), blocks=kept,
                          items=items)
        return Report(text=_join(parts), signature=signature.hexdigest(), tokens=used,
                      blocks=tuple(zip(titles, parts, strict=True)), items=items)

    def _cut(
        self, parts: list[str], used: int, section: Section, block: str, later: list[str], budget: int
    ) -> list[str]:
        """The cut ``block`` with its note, and a note naming the sections left out after it.

        Only here, near the budget, is the whole text counted exactly (once per attempt).
        """
        note = f"[{section.title}: cut to fit the report budget of {budget} tokens]\n"
        tail = _left_out(later, budget)
        room = budget - used - self._tokens.count(note) - self._tokens.count(tail) - 4
        while room > 20:
            cut = f"{self._tokens.truncate(block, room).rstrip()}\n{note}"
            candidate = [cut, tail] if tail else [cut]
            over = self._tokens.count(_join([*parts, *candidate])) - budget
            if over <= 0:
                return candidate
            room -= over + 2  # tokens can merge differently at the cut; shrink and try again
        tail = _left_out([section.title, *later], budget)
        return [tail] if tail and used + self._tokens.count(tail) + 1 <= budget else []


def _join(parts: Sequence[str]) -> str:
    return "\n".join(parts)


def _left_out(titles: Sequence[str], budget: int) -> str:
    if not titles:
        return ""
    return f"[Left out, the report budget of {budget} tokens is used up: {', '.join(titles)}]\n"


# --- the standard sections ----------------------------------------------------------------------


def environment_section(workspace: Path) -> SectionSource:
    """Local time with zone, OS and workspace. Its signature ignores the time (the idle gate)."""

    async def build(tasks: Sequence[Task], since: float | None, now: float) -> Section:
        moment = datetime.fromtimestamp(now, tz=local_zone())
        offset = moment.strftime("%z")
        text = (f"Local time: {moment:%A %Y-%m-%d %H:%M} ({moment.tzname()}, UTC{offset[:3]}:{offset[3:]})\n"
                f"System: {platform.system()} {platform.release()}\nWorkspace: {workspace}")
        return Section("Environment", text, signature=f"{platform.system()}|{workspace}")

    return build


async def tasks_section(tasks: Sequence[Task], since: float | None, now: float) -> Section:
    """The due tasks with their kind and schedule, under when they were last looked at.

    The tasks of one tick share that time, so it is said once per group: the lines then repeat from tick
    to tick (their token counts come from the cache) and the prompt is ~8 tokens a task shorter.
    """
    zone = local_zone()
    times: dict[float, str] = {}  # each distinct last run formatted once
    groups: dict[str, list[str]] = {}
    for task in tasks:
        when = "never"
        if task.last_run_at:
            when = times.get(task.last_run_at) or times.setdefault(
                task.last_run_at, datetime.fromtimestamp(task.last_run_at, tz=zone).strftime("%Y-%m-%d %H:%M"))
        kind = "may change things" if task.is_write else "read-only"
        groups.setdefault(when, []).append(f"- {task.title} ({kind}; schedule {task.recurrence})")
    text = "\n".join(f"Last looked at {when}:\n" + "\n".join(lines) for when, lines in groups.items())
    # No signature: the engine signs the due tasks themselves, and when they were last looked at is the
    # product's own bookkeeping (it changes on every tick).
    return Section(TASKS_SECTION, text or "No tasks are due.", signature="")


Recall = Callable[[str, int], Awaitable[list[tuple[str, str, float]]]]
RELATED_MEMORIES = 5


def memory_section(recent: Callable[[float | None], Awaitable[list[tuple[str, str, float]]]],
                   related: Recall | None = None, related_limit: int = RELATED_MEMORIES) -> SectionSource:
    """Memories added since the report's span began (the last decision on the due task decided longest ago).

    ``recent(since)`` gives ``(id, text, created_at)`` newest first; ``recent(None)`` the newest of all,
    whose ids are the section's signature.

    ``related(query, limit)`` (long-term memory's hybrid search, best first): when a due task was never
    decided on (the span is everything), the older memories that bear on the due tasks' titles are added
    below the newest ones — a new task gets the long-term background once. After its first decision the
    span moves on and they are not shown again, as any memory that was decided on. What is found follows from
    the memories (signed) and the tasks (signed by the engine): an unchanged world stays idle, and the
    query's vector is cached, so that costs no model call either.
    """

    async def build(tasks: Sequence[Task], since: float | None, now: float) -> Section:
        items = await recent(since)
        newest = items if since is None else await recent(None)
        signature = ",".join(item_id for item_id, _, _ in newest) or "none"
        older: list[tuple[str, str, float]] = []
        if related is not None and since is None and tasks:
            listed = {item_id for item_id, _, _ in items}
            query = " ".join(one_line(task.title) for task in tasks)[:1_000]
            older = [item for item in await related(query, related_limit + len(listed))
                     if item[0] not in listed][:related_limit]
        if not items:
            return Section("New memories", "None since the last check.", signature=signature)
        lines = [f"- {one_line(text)}" for _, text, _ in items]
        if older:
            lines += ["Older memories about the due tasks:", *(f"- {one_line(text)}" for _, text, _ in older)]
        changed = tuple(ChangeItem("memory", "", one_line(text), at=at) for _, text, at in items)
        return Section("New memories", "\n".join(lines), signature=signature, items=changed)

    return build


def files_section(root: Path, index: WorkspaceSource | None = None,
                  default_heartbeat: str | None = None, history: FileHistory | None = None) -> SectionSource:
    """Workspace files changed since the report's span began.

    With ``history`` (kept across ticks, see ``changes``) a changed file is shown as the lines that changed
    against the version the heartbeat last saw (a new file: its first lines); without it, as its name, size
    and first characters. With ``index`` (kept across ticks, see ``workspace_index``) only the folders that
    changed are read again; without it every tick walks the whole workspace. ``HEARTBEAT.md`` is left out while
    it is the app's own ``default_heartbeat`` text: that boilerplate is not the user's news (and its example
    task line would read like a task); the file's task lines become tasks anyway.
    """

    async def build(tasks: Sequence[Task], since: float | None, now: float) -> Section:
        if index is not None:
            scan = await asyncio.to_thread(index.scan, since)
        else:
            scan = await asyncio.to_thread(scan_workspace, root, since)
        listed = default_heartbeat is not None and any(item.path == HEARTBEAT_FILE for item in scan.changed)
        if listed and await asyncio.to_thread(_is_text, root / HEARTBEAT_FILE, default_heartbeat or ""):
            scan = WorkspaceScan([item for item in scan.changed if item.path != HEARTBEAT_FILE], scan.signature)
        if not scan.changed:
            return Section("Changed workspace files", "None since the last check.", signature=scan.signature)
        if history is not None:
            changes = await asyncio.to_thread(
                history.changes, root, [(item.path, item.size) for item in scan.changed], since, now)
            items = tuple(ChangeItem("file", change.path, "\n".join(change.added), change.status,
                                     "\n".join(change.removed), item.mtime, change.title, change.columns,
                                     "\n".join(change.context))
                          for change, item in zip(changes, scan.changed, strict=True))
            return Section("Changed workspace files", "\n".join(describe(change) for change in changes),
                           signature=scan.signature, items=items)
        lines = []
        for item in scan.changed:
            line = f"- {one_line(item.path)} ({item.size} bytes)"
            if item.excerpt:
                line += f": {item.excerpt}"
            lines.append(line)
        items = tuple(ChangeItem("file", item.path, item.excerpt or "", "changed", at=item.mtime)
                      for item in scan.changed)
        return Section("Changed workspace files", "\n".join(lines), signature=scan.signature, items=items)

    return build


def _is_text(path: Path, text: str) -> bool:
    """Whether the file at ``path`` holds exactly ``text`` (False when it cannot be read)."""
    try:
        return path.stat().st_size <= 4 * len(text) + 16 and path.read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        return False


def news_section(title: str, text: str, signature: str, skill: str, seen: Sequence[tuple[str, float]]) -> Section:
    """A watching skill's section (CONTRACT §12.3) with its new items as changes: each mail, feed item or event
    is weighed against the tasks it names, as a new memory is."""
    return Section(title, text, signature=signature,
                   items=tuple(ChangeItem(WORLD, skill, one_line(line), at=at or None) for line, at in seen))


def lines_section(title: str, lines: Callable[[], Awaitable[list[str]]], source: str = "skills") -> SectionSource:
    """A section made of status lines (skill health); the lines are its signature. Each line is also a
    ``ChangeItem`` of ``source`` (what the system task about it looks at)."""

    async def build(tasks: Sequence[Task], since: float | None, now: float) -> Section:
        content = await lines()
        text = "\n".join(f"- {one_line(line)}" for line in content) or "Nothing to report."
        return Section(title, text, signature=text, items=_health_items(source, content))

    return build


def verdicts_section(title: str, lines: Callable[[], Awaitable[list[str]]],
                     verdicts: Callable[[], Awaitable[str]], source: str = "models") -> SectionSource:
    """Status lines whose signature is only ``verdicts()`` (model health: ok or problem per tier).

    The lines carry details the product itself fills in or rewords (a first check's answer, a context
    window, the exact error of a retry); the idle gate must see only what changed in the world.
    """

    async def build(tasks: Sequence[Task], since: float | None, now: float) -> Section:
        content, signature = await asyncio.gather(lines(), verdicts())
        text = "\n".join(f"- {one_line(line)}" for line in content) or "Nothing to report."
        return Section(title, text, signature=signature, items=_health_items(source, content))

    return build


_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.I)
_ADVICE = re.compile(r"\s*\((?:[^()]*\b(?:set|add|start|run|assumed|config)\b[^()]*)\)", re.I)


def for_the_judge(message: str) -> str:
    """A health message as the judge reads it: what is wrong, without addresses, paths or what to configure
    (that advice is the user's, in the status and ``doctor``)."""
    text = one_line(message).split(" — ", 1)[0]
    text = _ADVICE.sub("", text)
    text = _URL.sub("the server", text)
    text = re.sub(r"`[^`]*`", "", text)
    return " ".join(text.split()).rstrip(" ;,")


PROBLEM_WORDS = ("problem", "error", "disconnected", "failed", "fails", "cannot", "unreachable", "refused")


def _health_items(source: str, lines: Sequence[str]) -> tuple[ChangeItem, ...]:
    """Health lines as items: ``problem`` when the line says something is wrong, else ``ok``."""
    items = []
    for line in lines:
        lowered = line.lower()
        status = "problem" if any(word in lowered for word in PROBLEM_WORDS) else "ok"
        items.append(ChangeItem(source, "", one_line(line), status))
    return tuple(items)
