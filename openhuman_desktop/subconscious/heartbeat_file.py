"""HEARTBEAT.md: extra system tasks written by the user, one ``- `` line each (CONTRACT §6)."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
# A closing fence carries nothing after its markers (CommonMark: no info string).
_CLOSING_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*$")
# "- - -" is a horizontal rule in Markdown, not a task.
_THEMATIC_BREAK = re.compile(r"^[ \t]*-(?:[ \t]*-){2,}[ \t]*$")
MAX_TITLE = 500


def parse(text: str) -> list[str]:
    """The task titles in a HEARTBEAT.md text, in order, each once.

    A task is a line whose text after leading spaces starts with ``- ``. Headings, prose, blank
    lines, HTML comments (also over several lines), fenced code blocks and horizontal rules
    (``- - -``) are not tasks.
    """
    titles: list[str] = []
    seen: set[str] = set()
    fence: str | None = None
    in_comment = False
    for line in text.splitlines():
        if fence is not None:
            match = _CLOSING_FENCE.match(line)
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = None
            continue
        if in_comment:
            end = line.find("-->")
            if end < 0:
                continue
            line = line[end + 3:]
            in_comment = False
        line, in_comment = _strip_comments(line)
        match = _FENCE.match(line)
        if match:
            fence = match.group(1)
            continue
        stripped = line.lstrip(" \t")
        if not stripped.startswith("- ") or _THEMATIC_BREAK.match(stripped):
            continue
        title = stripped[2:].strip()
        if not title or title in seen:
            continue
        if len(title) > MAX_TITLE:
            log.warning("HEARTBEAT.md: a task line longer than %d characters is skipped", MAX_TITLE)
            continue
        seen.add(title)
        titles.append(title)
    return titles


def _strip_comments(line: str) -> tuple[str, bool]:
    """Remove ``<!-- … -->`` parts; report whether a comment stays open at the end of the line."""
    out = []
    rest = line
    while True:
        start = rest.find("<!--")
        if start < 0:
            out.append(rest)
            return "".join(out), False
        out.append(rest[:start])
        end = rest.find("-->", start + 4)
        if end < 0:
            return "".join(out), True
        rest = rest[end + 3:]


@dataclass(frozen=True)
class SyncPlan:
    """What one sync changes: titles to add, task ids to remove."""

    add: tuple[str, ...]
    remove: tuple[str, ...]

    @property
    def is_empty(self) -> bool:
        return not self.add and not self.remove


def plan(file_titles: list[str], existing: list[tuple[str, str]]) -> SyncPlan:
    """Compare the file with the tasks that came from it.

    Args:
        file_titles: titles parsed from the file.
        existing: ``(task_id, title)`` of the tasks imported earlier.
    Unchanged lines keep their task (and so its schedule and enabled flag); a task whose line is
    gone is removed; a duplicate task left from an earlier state is removed too.
    """
    wanted = set(file_titles)
    kept: set[str] = set()
    remove: list[str] = []
    for task_id, title in existing:
        if title in wanted and title not in kept:
            kept.add(title)
        else:
            remove.append(task_id)
    add = tuple(title for title in file_titles if title not in kept)
    return SyncPlan(add=add, remove=tuple(remove))


def read(path: Path) -> str | None:
    """The file's text, or None when it does not exist or cannot be read (logged)."""
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return None
    except OSError as exc:
        log.warning("cannot read %s: %s", path, exc)
        return None
