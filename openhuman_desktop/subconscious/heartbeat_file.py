"""HEARTBEAT.md: extra system tasks written by the user, one ``- `` line each (CONTRACT §6)."""

from __future__ import annotations

import logging
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from openhuman_desktop.errors import UserFacingError

log = logging.getLogger(__name__)

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
# A closing fence carries nothing after its markers (CommonMark: no info string).
_CLOSING_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*$")
# "- - -" is a horizontal rule in Markdown, not a task.
_THEMATIC_BREAK = re.compile(r"^[ \t]*-(?:[ \t]*-){2,}[ \t]*$")
MAX_TITLE = 500
MAX_BYTES = 1024 * 1024  # HEARTBEAT.md is a list someone writes; a larger file is refused, not read
MAX_TASKS = 10_000


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
    too_long = 0
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
            too_long += 1
            continue
        seen.add(title)
        titles.append(title)
    if too_long:  # one line for all of them, however many there are
        log.warning("HEARTBEAT.md: %d task lines longer than %d characters are skipped", too_long, MAX_TITLE)
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


class Refused(UserFacingError):
    """HEARTBEAT.md is there but is not read (not a regular file, or too large); its tasks stay as they were."""


def read(path: Path) -> str | None:
    """The file's text (a UTF-8 byte-order mark dropped), or None when it does not exist.

    Never blocks: a FIFO or a device is refused before anything is read from it. A file that is there but
    cannot be read, or is binary (NUL bytes), is refused too: read as "no task lines" it would remove every
    task that came from it.

    Raises:
        Refused: the file is not a regular file, larger than :data:`MAX_BYTES`, unreadable or binary.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise Refused(f"{path} is not a regular file (it is a folder), so its tasks were not read; "
                      "make it a plain text file.") from None
    except OSError as exc:
        raise _unreadable(path, exc) from exc
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a pipe, device or socket"
        raise Refused(f"{path} is not a regular file (it is {kind}), so its tasks were not read; "
                      "make it a plain text file.")
    with os.fdopen(fd, "rb") as file:
        if info.st_size > MAX_BYTES:
            raise Refused(_too_large(path))
        try:
            data = file.read(MAX_BYTES + 1)
        except OSError as exc:
            raise _unreadable(path, exc) from exc
    if len(data) > MAX_BYTES:
        raise Refused(_too_large(path))
    if b"\x00" in data:  # no text file holds NUL: zeroed blocks after a crash, or a binary written over it
        raise Refused(f"{path} is not a text file (it holds NUL bytes), so its tasks were not read and stay as "
                      "they were; write it again as plain UTF-8 text.")
    # A stray non-UTF-8 byte only spoils its own line; Notepad's byte-order mark would hide the first "- ".
    return data.decode("utf-8-sig", errors="replace")


def _unreadable(path: Path, exc: OSError) -> Refused:
    return Refused(f"{path} cannot be read ({exc.strerror or exc}), so its tasks were not read and stay as they "
                   "were; check the file's permissions.")


def _too_large(path: Path) -> str:
    return (f"{path} is too large (over {MAX_BYTES // (1024 * 1024)} MiB), so its tasks were not read; "
            f"keep it to a list of at most {MAX_TASKS:,} tasks.")


def check_count(path: Path, titles: list[str]) -> None:
    """Refuse a file with more than :data:`MAX_TASKS` task lines (each would be a task every tick looks at).

    Raises:
        Refused: too many tasks.
    """
    if len(titles) > MAX_TASKS:
        raise Refused(f"{path} has {len(titles):,} task lines, more than the {MAX_TASKS:,} OpenHuman accepts, "
                      "so its tasks were not read; shorten the list.")
