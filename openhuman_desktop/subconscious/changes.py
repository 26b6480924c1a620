"""What changed in a file: its lines against the last version the heartbeat saw, kept compactly per file.

The report used to show a changed file's first 400 characters: a deadline appended at byte 663 never reached
the model, and an edit from 8 % to 8.4 % looked like any other file. :class:`FileHistory` keeps the text of
the user's small text files as the heartbeat last saw them (zlib-compressed, in ``subconscious/seen.db``), so
the report shows the lines added and removed since then (a new file: its first lines).

Versions are kept per file with the moment they were seen (the tick's time). A report for a span that began
at ``since`` compares with the newest version seen at or before ``since``: a tick whose evaluation failed
leaves the span where it was, and the next report shows the same change again instead of an empty diff.
Older versions than that one are dropped (spans only move forward), so a file keeps two or three at most.
"""

from __future__ import annotations

import difflib
import logging
import os
import re
import sqlite3
import threading
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from stat import S_ISREG

log = logging.getLogger(__name__)

MAX_TEXT_BYTES = 256 * 1024
"""Files larger than this are not kept (nor diffed): the report names them with their size."""
MAX_VERSIONS = 3
MAX_LINES = 12
"""At most this many added (and removed) lines per file in the report; the rest is counted."""
MAX_LINE_CHARS = 240
MAX_CONTEXT = 40
"""At most this many lines before a change are kept with it (a rise is read against the reading before it)."""
TEXT_SUFFIXES = frozenset({".md", ".txt", ".json", ".toml", ".yaml", ".yml", ".csv", ".py", ".rst", ".log",
                           ".html", ".xml", ".ini", ".cfg", ".js", ".ts", ".sh", ".eml", ".ics", ""})


@dataclass(frozen=True)
class FileChange:
    """One changed file as the report shows it.

    ``status``: ``new`` (no earlier version was seen: all its lines are ``added``), ``changed`` (lines added
    and/or removed), ``same`` (touched, but no line differs from the version seen), ``binary`` (not text, or too
    large to keep: only its name and size).
    """

    path: str
    size: int
    status: str
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    more_added: int = 0
    more_removed: int = 0
    title: str = ""
    """A changed file's first line when it is a heading ("# Curlew Cottage reviews") or a table's header row
    ("date,description,amount,balance": its columns), which the diff may not show."""
    columns: str = ""
    """A changed file's table header row, where it is not the first line (a Markdown table under a heading)."""
    context: tuple[str, ...] = ()
    """A changed file's unchanged lines just before its first added one (the readings a new one follows)."""


def _cut(line: str) -> str:
    line = " ".join(line.split())
    return line if len(line) <= MAX_LINE_CHARS else line[: MAX_LINE_CHARS - 1] + "…"


def diff_lines(old: str, new: str) -> tuple[list[str], list[str]]:
    """The lines of ``new`` that are not in ``old`` (in order) and the lines of ``old`` gone from ``new``.

    Blank lines are left out; a line whose only change is its spacing counts as unchanged.
    """
    added, removed, _ = diff_in_context(old, new)
    return added, removed


def diff_in_context(old: str, new: str) -> tuple[list[str], list[str], list[str]]:
    """:func:`diff_lines`, and the unchanged lines of ``new`` before its first added line (at most
    :data:`MAX_CONTEXT`, blank lines left out): the readings an appended one follows."""
    old_lines = [" ".join(line.split()) for line in old.splitlines()]
    new_lines = [" ".join(line.split()) for line in new.splitlines()]
    added: list[str] = []
    removed: list[str] = []
    first = None
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            removed += [line for line in old_lines[i1:i2] if line]
        if tag in ("replace", "insert"):
            added += [line for line in new_lines[j1:j2] if line]
            first = j1 if first is None else first
    before = [line for line in new_lines[: first or 0] if line]
    return added, removed, before[-MAX_CONTEXT:]


_CELLS = re.compile(r"\s*[,;\t|]\s*")
_BARS = re.compile(r"\s*\|\s*")


def first_line(text: str) -> str:
    """The first line of ``text`` when it says what the file is (a Markdown heading, a table's header row),
    on one line; else "" (a paragraph is the file's head, not its title)."""
    line = next((line for line in text.splitlines() if re.search(r"[A-Za-z]", line)), "").strip()
    return _cut(line) if line.startswith("#") or table_header(line) else ""


def table_header(text: str) -> str:
    """The first line of ``text`` when it names a table's columns (a CSV header, a Markdown table's first row:
    at least two cells, each with a letter), else ""."""
    first = text.split("\n", 1)[0].strip()
    named = [cell for cell in _CELLS.split(first.strip("|")) if cell]
    table = len(named) >= 2 and not first.startswith("#") and all(
        re.search(r"[A-Za-z]", cell) and len(cell.split()) <= 3 for cell in named)
    return first if table else ""


_SEPARATOR = re.compile(r"^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?$")
HEAD_LINES = 40
"""How far down a file its table's header row is looked for."""


def columns_of(text: str) -> str:
    """The header row of a Markdown table in the first lines of ``text`` that is not its first line (the row
    before a ``|---|---|`` separator), or ""."""
    lines = [line.strip() for line in text.splitlines()[:HEAD_LINES]]
    for index, line in enumerate(lines[2:], start=2):
        if _SEPARATOR.match(line) and table_header(lines[index - 1]):
            return _cut(lines[index - 1])
    return ""


def cells(line: str) -> list[str]:
    """A table row's cells (split as :func:`table_header` splits the header); a Markdown row's only at its
    bars ("| GAW | 12,210 |" has two cells, not three)."""
    line = line.strip()
    return (_BARS if line.startswith("|") else _CELLS).split(line.strip("|"))


def describe(change: FileChange) -> str:
    """One report line (or a few) for a changed file, saying what changed in its lines."""
    from openhuman_desktop.subconscious.report import one_line  # the report's own rule for data on one line

    name = one_line(change.path)
    if change.status == "binary":
        return f"- {name} ({change.size} bytes; not a text file the assistant keeps)"
    if change.status == "same":
        return f"- {name}: saved again, no line changed"
    head = f"- {name} (new file, {change.size} bytes)" if change.status == "new" else f"- {name} changed"
    parts = [head + ":"]
    if change.added:
        label = "lines" if change.status == "new" else "added"
        parts.append(f"  {label}: " + " | ".join(one_line(line) for line in change.added)
                     + (f" | (+{change.more_added} more)" if change.more_added else ""))
    if change.columns and change.status == "changed":
        parts.insert(1, f"  columns: {one_line(change.columns)}")
    if change.title and change.status == "changed":
        label = "columns" if table_header(change.title) else "heading"
        parts.insert(1, f"  {label}: {one_line(change.title)}")
    if change.removed:
        parts.append("  removed: " + " | ".join(one_line(line) for line in change.removed)
                     + (f" | (+{change.more_removed} more)" if change.more_removed else ""))
    if len(parts) == 1:
        parts.append("  (empty)")
    return "\n".join(parts)


class FileHistory:
    """The versions of the user's text files the heartbeat has seen; thread-safe (scans run in threads).

    Args:
        database: where versions are kept (``subconscious/seen.db``); ``None`` keeps them in memory only.
    """

    def __init__(self, database: Path | None) -> None:
        self._path = database
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._memory: dict[str, list[tuple[float, bytes]]] = {}
        self._closed = False

    def _connection(self) -> sqlite3.Connection | None:
        if self._path is None or self._closed:
            return None
        if self._db is None:
            try:
                self._path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self._path, check_same_thread=False, isolation_level=None)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.execute("CREATE TABLE IF NOT EXISTS seen (path TEXT NOT NULL, seen_at REAL NOT NULL, "
                           "content BLOB NOT NULL, PRIMARY KEY (path, seen_at))")
            except sqlite3.Error as exc:
                log.warning("file history off (versions kept in memory only): %s", exc)
                self._path = None
                return None
            self._db = db
        return self._db

    def _versions(self, path: str) -> list[tuple[float, bytes]]:
        db = self._connection()
        if db is None:
            return list(self._memory.get(path, []))
        rows = db.execute("SELECT seen_at, content FROM seen WHERE path = ? ORDER BY seen_at", (path,)).fetchall()
        return [(float(at), bytes(content)) for at, content in rows]

    def _store(self, path: str, versions: list[tuple[float, bytes]]) -> None:
        db = self._connection()
        if db is None:
            self._memory[path] = versions
            return
        try:
            with db:
                db.execute("BEGIN")
                db.execute("DELETE FROM seen WHERE path = ?", (path,))
                db.executemany("INSERT INTO seen (path, seen_at, content) VALUES (?, ?, ?)",
                               [(path, at, content) for at, content in versions])
        except sqlite3.Error as exc:
            log.warning("could not keep the version of %s: %s", path, exc)

    def changes(
        self, root: Path, files: Sequence[tuple[str, int]], since: float | None, now: float
    ) -> list[FileChange]:
        """What changed in each of ``files`` (``(relative path, size)``), and remember what is there now.

        Args:
            root: the workspace.
            files: the files the scan found changed since ``since``.
            since: where the report's span begins (None: a first look, every file is ``new``).
            now: the tick's time, kept with the versions seen now.
        """
        with self._lock:
            return [self._change(root, relative, size, since, now) for relative, size in files]

    def _change(self, root: Path, relative: str, size: int, since: float | None, now: float) -> FileChange:
        text = _read_text(root / relative, relative, size)
        if text is None:
            return FileChange(relative, size, "binary")
        versions = self._versions(relative)
        base: tuple[float, bytes] | None = None
        if since is not None:
            earlier = [version for version in versions if version[0] <= since]
            base = earlier[-1] if earlier else None
        packed = zlib.compress(text.encode("utf-8", "surrogateescape"), 6)
        kept = [version for version in versions if base is None or version[0] >= base[0]]
        if not kept or zlib.decompress(kept[-1][1]) != zlib.decompress(packed):
            kept.append((now, packed))
        self._store(relative, kept[-MAX_VERSIONS:])
        if base is None:
            lines = [line for line in (" ".join(raw.split()) for raw in text.splitlines()) if line]
            return FileChange(relative, size, "new", tuple(_cut(line) for line in lines[:MAX_LINES]),
                              more_added=max(0, len(lines) - MAX_LINES))
        old = zlib.decompress(base[1]).decode("utf-8", "surrogateescape")
        added, removed, before = diff_in_context(old, text)
        if not added and not removed:
            return FileChange(relative, size, "same")
        # The newest lines matter most (an appended deadline): the last ones are kept when there are many.
        return FileChange(
            relative, size, "changed", tuple(_cut(line) for line in added[-MAX_LINES:]),
            tuple(_cut(line) for line in removed[:MAX_LINES]), max(0, len(added) - MAX_LINES),
            max(0, len(removed) - MAX_LINES), first_line(text), columns_of(text),
            tuple(_cut(line) for line in before),
        )

    def close(self) -> None:
        """Close the database (later calls keep versions in memory only). Safe twice."""
        with self._lock:
            self._closed = True
            if self._db is not None:
                self._db.close()
                self._db = None


NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
NONBLOCK = getattr(os, "O_NONBLOCK", 0)
CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def read_plain_file(path: Path, limit: int) -> bytes | None:
    """Up to ``limit`` bytes of the regular file ``path``; None for anything else.

    Not through a symbolic link, and not of a file with other names (a hard link may be the RPC token's file or
    one outside the workspace): the name is the user's, the content may not be.
    """
    try:
        fd = os.open(path, os.O_RDONLY | NOFOLLOW | NONBLOCK | CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not S_ISREG(info.st_mode) or info.st_nlink != 1:
            return None
        with open(fd, "rb", closefd=False) as handle:
            return handle.read(limit)
    except OSError:
        return None
    finally:
        os.close(fd)


def _read_text(path: Path, relative: str, size: int) -> str | None:
    """The file's text, or None when it is not a small UTF-8 text file."""
    if Path(relative).suffix.lower() not in TEXT_SUFFIXES or size > MAX_TEXT_BYTES:
        return None
    data = read_plain_file(path, MAX_TEXT_BYTES + 1)
    if data is None:
        return None
    if len(data) > MAX_TEXT_BYTES or b"\x00" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
