"""The workspace files skill: list, read, write and append text files, confined to the workspace folder."""

from __future__ import annotations

import asyncio
import codecs
import heapq
import logging
import os
import stat
from collections.abc import Sequence
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.skills._args import checked_tool, object_schema
from openhuman_desktop.skills.base import CONNECTED, ERROR, SkillHealth, SkillSetting, Tool, ToolResult

log = logging.getLogger(__name__)

# The app's own files: the assistant must not rewrite its database, RPC token, logs, memory or config.
INTERNAL_NAMES = frozenset({"subconscious", "run", "logs", "memory", "config.toml"})
# Not even readable: run/ holds the RPC token, which must never reach a model (it may be a cloud one).
SECRET_NAMES = frozenset({"run"})
MAX_LIST_ENTRIES = 500
DEFAULT_MAX_CHARS = 20_000
MAX_READ_CHARS = 200_000
MAX_WRITE_CHARS = 1_000_000
MAX_PATH_CHARS = 1_024
_BINARY_SNIFF_BYTES = 8_192
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)

# --- the files skill -------------------------------------------------------------------------------------

class AccessRefusedError(UserFacingError):
    """A path or file operation the files skill will not do; ``str()`` is one sentence for the model."""


_PATH_PROP = {"type": "string", "maxLength": MAX_PATH_CHARS,
              "description": "Path relative to the workspace folder, with / between folders."}
_TEXT_PROP = {"type": "string", "maxLength": MAX_WRITE_CHARS, "description": "UTF-8 text."}

LIST_SPEC = ToolSpec(
    name="files_list",
    description=f"List the files and folders in a folder of the workspace, with sizes "
                f"(at most {MAX_LIST_ENTRIES} entries).",
    parameters=object_schema(
        {"path": {**_PATH_PROP, "default": "",
                  "description": "Folder relative to the workspace folder; empty for its top."}}
    ),
)
READ_SPEC = ToolSpec(
    name="files_read",
    description="Read a UTF-8 text file of the workspace.",
    parameters=object_schema(
        {"path": _PATH_PROP,
         "max_chars": {"type": "integer", "minimum": 1, "maximum": MAX_READ_CHARS,
                       "default": DEFAULT_MAX_CHARS, "description": "Read at most this many characters."}},
        required=["path"],
    ),
)
WRITE_SPEC = ToolSpec(
    name="files_write",
    description="Create or replace a text file in the workspace (missing folders are created).",
    parameters=object_schema({"path": _PATH_PROP, "text": _TEXT_PROP}, required=["path", "text"]),
)
APPEND_SPEC = ToolSpec(
    name="files_append",
    description="Append text to the end of a file in the workspace (created if missing).",
    parameters=object_schema({"path": _PATH_PROP, "text": _TEXT_PROP}, required=["path", "text"]),
)


def _refuse_syntax(raw: str) -> None:
    """Refuse what the path says before looking at the disk: absolute, ``..``, NUL."""
    if "\x00" in raw:
        raise AccessRefusedError("The path contains a NUL character.")
    if PurePosixPath(raw).is_absolute() or PureWindowsPath(raw).anchor:
        raise AccessRefusedError(f"{raw!r} is an absolute path; give one relative to the workspace folder.")
    if ".." in PurePosixPath(raw).parts or ".." in PureWindowsPath(raw).parts:
        raise AccessRefusedError(f"{raw!r} contains '..'; paths must stay inside the workspace folder.")


def _is_internal(parts: Sequence[str], names: frozenset[str]) -> bool:
    """Whether ``parts`` (relative to the root) name one of ``names`` or something inside it."""
    # casefold: on a case-insensitive file system "Config.TOML" is config.toml.
    return bool(parts) and parts[0].casefold() in names


def _read_up_to(fd: int, limit: int) -> bytes:
    """At most ``limit`` bytes from ``fd``; fewer only at the end of the file."""
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _size_text(size: int) -> str:
    return f"{size:,} bytes" if size != 1 else "1 byte"


class WorkspaceFilesSkill:
    """Files in the workspace folder, and nothing outside it.

    Every path is relative to ``root``. Absolute paths and ``..`` are refused; so is any path whose real
    location (following symbolic links, of the folders and of the file itself) is outside the root. The
    app's own folders and config.toml cannot be written; run/ (the RPC token) cannot be read either.
    """

    name = "files"
    title = "Workspace files"
    description = "Lists, reads and writes text files in the workspace folder."

    def __init__(self, root: Path) -> None:
        self._root = root
        self._tools = (
            checked_tool(LIST_SPEC, writes=False, run=self._list),
            checked_tool(READ_SPEC, writes=False, run=self._read),
            checked_tool(WRITE_SPEC, writes=True, run=self._write),
            checked_tool(APPEND_SPEC, writes=True, run=self._append),
        )

    @property
    def root(self) -> Path:
        return self._root

    def tools(self) -> Sequence[Tool]:
        return self._tools

    def settings(self) -> Sequence[SkillSetting]:
        return (SkillSetting("root", str(self._root)),)

    async def health(self) -> SkillHealth:
        def probe() -> bool:
            return self._root.is_dir() and os.access(self._root, os.R_OK | os.X_OK)

        if await asyncio.to_thread(probe):
            return SkillHealth(CONNECTED, f"Workspace folder {self._root}")
        return SkillHealth(ERROR, f"The workspace folder {self._root} is missing or not readable.")

    # -- confinement --

    def resolve(self, raw: str, *, for_write: bool = False, allow_root: bool = False) -> tuple[Path, str]:
        """The real path ``raw`` leads to, and its name relative to the root (blocking: call it in a worker
        thread).

        Raises:
            AccessRefusedError: the path is absolute, has ``..``, leads outside the root, into run/, or (for
                writing) into the app's own files.
        """
        _refuse_syntax(raw)
        try:
            root = self._root.resolve(strict=True)
        except OSError as exc:
            problem = f"The workspace folder {self._root} cannot be opened ({exc.strerror})."
            raise AccessRefusedError(problem) from exc
        try:
            # strict=False still follows every symlink on the way, even a dangling one at the end.
            target = (root / raw).resolve(strict=False)
        except (OSError, RuntimeError) as exc:  # RuntimeError: symlink loop (Python < 3.13)
            raise AccessRefusedError(f"{raw!r} cannot be resolved (a symbolic link loop?).") from exc
        if not target.is_relative_to(root):
            raise AccessRefusedError(f"{raw!r} leads outside the workspace folder (through a symbolic link).")
        relative = target.relative_to(root)
        display = relative.as_posix()
        if display == "." and not allow_root:
            raise AccessRefusedError("A file path is needed, not the workspace folder itself.")
        literal = PurePosixPath(raw.replace("\\", "/")).parts
        for parts in (relative.parts, literal):
            if for_write and _is_internal(parts, INTERNAL_NAMES):
                where = parts[0] if parts[0].casefold() == "config.toml" else f"{parts[0]}/"
                raise AccessRefusedError(
                    f"{display!r} belongs to the app itself ({where}); the assistant may not change it."
                )
            if _is_internal(parts, SECRET_NAMES):
                raise AccessRefusedError(
                    f"{display!r} is in the app's private folder {parts[0]}/; it cannot be read."
                )
        return target, display

    # -- the tools --

    async def _list(self, args: dict[str, Any]) -> ToolResult:
        return await asyncio.to_thread(self._list_sync, args["path"])

    def _list_sync(self, raw: str) -> ToolResult:
        target, display = self.resolve(raw or ".", allow_root=True)
        folder = "The workspace folder" if display == "." else f"The folder {display!r}"
        try:
            with os.scandir(target) as entries:
                every = list(entries)
        except FileNotFoundError:
            return ToolResult(f"{display!r} does not exist.", is_error=True)
        except NotADirectoryError:
            return ToolResult(f"{display!r} is a file, not a folder; use files_read.", is_error=True)
        except OSError as exc:
            return ToolResult(f"Could not list {display!r}: {exc.strerror}.", is_error=True)
        if not every:
            return ToolResult(f"{folder} is empty.")
        first = heapq.nsmallest(MAX_LIST_ENTRIES, every, key=lambda entry: entry.name)
        count = "1 entry" if len(every) == 1 else f"{len(every):,} entries"
        lines = [f"{folder} has {count}:", *(self._describe(entry) for entry in first)]
        if len(every) > len(first):
            more = len(every) - len(first)
            lines.append(f"… and {more:,} more (only the first {len(first)} by name are shown).")
        return ToolResult("\n".join(lines))

    @staticmethod
    def _describe(entry: os.DirEntry[str]) -> str:
        try:
            if entry.is_symlink():
                return f"{entry.name}  (symbolic link)"
            if entry.is_dir(follow_symlinks=False):
                return f"{entry.name}/"
            if entry.is_file(follow_symlinks=False):
                return f"{entry.name}  ({_size_text(entry.stat(follow_symlinks=False).st_size)})"
        except OSError:
            return f"{entry.name}  (unreadable)"
        return f"{entry.name}  (special file)"

    async def _read(self, args: dict[str, Any]) -> ToolResult:
        return await asyncio.to_thread(self._read_sync, args["path"], args["max_chars"])

    def _read_sync(self, raw: str, max_chars: int) -> ToolResult:
        target, display = self.resolve(raw)
        try:
            # O_NONBLOCK: opening a FIFO must not hang the worker thread; fstat below refuses it.
            fd = os.open(target, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
        except FileNotFoundError:
            return ToolResult(f"{display!r} does not exist.", is_error=True)
        except IsADirectoryError:
            return ToolResult(f"{display!r} is a folder; use files_list.", is_error=True)
        except OSError as exc:
            return ToolResult(f"Could not read {display!r}: {exc.strerror}.", is_error=True)
        budget = max_chars * 4 + 4  # UTF-8 needs at most 4 bytes per character
        try:
            info = os.fstat(fd)
            if stat.S_ISDIR(info.st_mode):
                return ToolResult(f"{display!r} is a folder; use files_list.", is_error=True)
            if not stat.S_ISREG(info.st_mode):
                return ToolResult(f"{display!r} is not a regular file.", is_error=True)
            data = _read_up_to(fd, budget)
        except OSError as exc:
            return ToolResult(f"Could not read {display!r}: {exc.strerror}.", is_error=True)
        finally:
            os.close(fd)
        complete = len(data) < budget
        if b"\x00" in data[:_BINARY_SNIFF_BYTES]:
            return ToolResult(f"{display!r} is a binary file; files_read reads text files only.",
                              is_error=True)
        decoder = codecs.getincrementaldecoder("utf-8-sig")()
        try:
            text = decoder.decode(data, final=complete)
        except UnicodeDecodeError:
            return ToolResult(
                f"{display!r} is not UTF-8 text (it looks binary); files_read reads text files only.",
                is_error=True,
            )
        if not text and complete:
            return ToolResult(f"{display!r} is empty.")
        if len(text) > max_chars or not complete:
            return ToolResult(f"{text[:max_chars]}\n[… cut: showed the first {max_chars:,} characters of "
                              f"{display!r}, a file of {_size_text(info.st_size)}]")
        return ToolResult(text)

    async def _write(self, args: dict[str, Any]) -> ToolResult:
        return await asyncio.to_thread(self._write_sync, args["path"], args["text"], False)

    async def _append(self, args: dict[str, Any]) -> ToolResult:
        return await asyncio.to_thread(self._write_sync, args["path"], args["text"], True)

    def _write_sync(self, raw: str, text: str, append: bool) -> ToolResult:
        target, display = self.resolve(raw, for_write=True)
        data = text.encode("utf-8", errors="replace")  # lone surrogates from JSON must not crash the write
        try:
            target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            # The resolved path contains no symlink; O_NOFOLLOW keeps one swapped in meanwhile from being
            # followed. No O_TRUNC before fstat: truncating is only for regular files.
            flags = os.O_WRONLY | os.O_CREAT | _NOFOLLOW | _NONBLOCK | _CLOEXEC
            fd = os.open(target, flags | (os.O_APPEND if append else 0), 0o600)
        except FileExistsError:
            return ToolResult(f"Could not create the folders for {display!r}: a file is in the way.",
                              is_error=True)
        except (IsADirectoryError, NotADirectoryError):
            return ToolResult(f"Could not write {display!r}: it is a folder or a file is in the way.",
                              is_error=True)
        except OSError as exc:
            return ToolResult(f"Could not write {display!r}: {exc.strerror}.", is_error=True)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return ToolResult(f"{display!r} is not a regular file; it cannot be written.", is_error=True)
            if not append:
                os.ftruncate(fd, 0)
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
        except OSError as exc:
            return ToolResult(f"Could not write {display!r}: {exc.strerror}.", is_error=True)
        finally:
            os.close(fd)
        log.info("files skill: %s %d bytes %s %s", "appended" if append else "wrote", len(data),
                 "to" if append else "into", display)
        verb = "Appended" if append else "Wrote"
        return ToolResult(f"{verb} {len(text):,} characters {'to' if append else 'into'} {display!r}.")
