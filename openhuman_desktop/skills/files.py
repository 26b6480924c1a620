"""The workspace files skill: list, read, write and append text files, confined to the workspace folder."""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import hashlib
import heapq
import logging
import os
import stat
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from openhuman_desktop.app_files import app_entry
from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.skills import dirfd
from openhuman_desktop.skills._args import checked_tool, object_schema
from openhuman_desktop.skills.base import CONNECTED, ERROR, Mutation, SkillHealth, SkillSetting, Tool, ToolResult
from openhuman_desktop.skills.file_access import (
    UNSUPPORTED,
    AccessRefusedError,
    Opened,
    changed_error,
    content_of,
    entry_of,
    fingerprint,
    read_up_to,
    refusal_for,
    refuse_syntax,
    size_text,
)

log = logging.getLogger(__name__)

# The app's own entries at the top of the workspace are ``app_files.APP_ENTRIES`` (the one list): no tool may
# change any of them, the listing of the workspace top leaves them out, and only HEARTBEAT.md (the user's task
# list) may be read: config.toml names the keys' variables, run/ and channels/ hold the RPC token and the web
# app's key, logs/ records what the app did, and the databases are read by the task, memory and agent tools.
MAX_LIST_ENTRIES = 500
DEFAULT_MAX_CHARS = 20_000
MAX_READ_CHARS = 200_000
MAX_WRITE_CHARS = 1_000_000
MAX_PATH_CHARS = 1_024
_BINARY_SNIFF_BYTES = 8_192

# --- the files skill -------------------------------------------------------------------------------------


def path_target(arguments: Mapping[str, Any]) -> str | None:
    """The target of a write call: its workspace path as written (``Tool.target``)."""
    path = arguments.get("path")
    return path.strip().replace("\\", "/") if isinstance(path, str) and path.strip() else None


# Descriptions are short: every request that offers a tool carries its spec (issue 10, item 7).
_PATH_PROP = {"type": "string", "maxLength": MAX_PATH_CHARS, "description": "Relative path, e.g. notes/todo.md."}
_TEXT_PROP = {"type": "string", "maxLength": MAX_WRITE_CHARS, "description": "The text."}

LIST_SPEC = ToolSpec(
    name="files_list",
    description="List a workspace folder with sizes.",
    parameters=object_schema(
        {"path": {**_PATH_PROP, "default": "", "description": "Relative folder; empty for the top."}}
    ),
)
READ_SPEC = ToolSpec(
    name="files_read",
    description="Read a workspace text file.",
    parameters=object_schema(
        {"path": _PATH_PROP,
         "max_chars": {"type": "integer", "minimum": 1, "maximum": MAX_READ_CHARS,
                       "default": DEFAULT_MAX_CHARS, "description": "Most characters to read."}},
        required=["path"],
    ),
)
WRITE_SPEC = ToolSpec(
    name="files_write",
    description="Create or replace a workspace text file.",
    parameters=object_schema({"path": _PATH_PROP, "text": _TEXT_PROP}, required=["path", "text"]),
)
APPEND_SPEC = ToolSpec(
    name="files_append",
    description="Append text to a workspace file (created if missing).",
    parameters=object_schema({"path": _PATH_PROP, "text": _TEXT_PROP}, required=["path", "text"]),
)


class WorkspaceFilesSkill:
    """Files in the workspace folder, and nothing outside it.

    Every path is relative to ``root``. Absolute paths and ``..`` are refused; so is any path whose real
    location (following symbolic links, of the folders and of the file itself) is outside the root. The
    checked path is then opened from a descriptor of the root one name at a time without following a
    symbolic link, so a folder swapped for a link after the check is never followed out; a file with more
    than one name (a hard link, perhaps to a file outside or to the RPC token) is never read or written. The
    app's own entries (``app_files``: HEARTBEAT.md, config.toml and its folders) cannot be written, whatever
    name or link leads to them; all but HEARTBEAT.md cannot be read either, and the listing of the workspace
    top leaves them all out.
    """

    name = "files"
    title = "Workspace files"
    description = "Lists, reads and writes text files in the workspace folder."

    def __init__(self, root: Path) -> None:
        self._root = root
        self._tools = (
            checked_tool(LIST_SPEC, writes=False, run=self._list),
            checked_tool(READ_SPEC, writes=False, run=self._read),
            checked_tool(WRITE_SPEC, writes=True, run=self._write, observe=self._observe, target=path_target,
                         expect=self._expect_write),
            checked_tool(APPEND_SPEC, writes=True, run=self._append, observe=self._observe, target=path_target,
                         expect=self._expect_append),
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

        if not dirfd.SUPPORTED:
            return SkillHealth(ERROR, UNSUPPORTED)
        if await asyncio.to_thread(probe):
            return SkillHealth(CONNECTED, f"Workspace folder {self._root}")
        return SkillHealth(ERROR, f"The workspace folder {self._root} is missing or not readable.")

    # -- confinement --

    def _real_root(self) -> Path:
        try:
            return self._root.resolve(strict=True)
        except OSError as exc:
            problem = f"The workspace folder {self._root} cannot be opened ({exc.strerror})."
            raise AccessRefusedError(problem) from exc

    def resolve(self, raw: str, *, for_write: bool = False, allow_root: bool = False) -> tuple[Path, str]:
        """The real path ``raw`` leads to, and its name relative to the root (blocking: call it in a worker
        thread).

        Raises:
            AccessRefusedError: the path is absolute, has ``..``, leads outside the root, into the app's
                private files, or (for writing) into any of the app's own entries.
        """
        refuse_syntax(raw)
        root = self._real_root()
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
            entry = entry_of(parts)
            refusal = None if entry is None else refusal_for(entry, display, for_write=for_write)
            if refusal is not None:
                raise refusal
        return target, display

    @contextlib.contextmanager
    def _opened(
        self, raw: str, *, for_write: bool = False, allow_root: bool = False
    ) -> Iterator[tuple[Opened, str]]:
        """Check ``raw`` (:meth:`resolve`), then open the root and the folder the path ends in."""
        if not dirfd.SUPPORTED:
            raise AccessRefusedError(UNSUPPORTED)
        target, display = self.resolve(raw, for_write=for_write, allow_root=allow_root)
        root = self._real_root()
        if not target.is_relative_to(root):  # the root itself moved since the check
            raise AccessRefusedError(f"{raw!r} leads outside the workspace folder.")
        names = target.relative_to(root).parts
        try:
            root_fd = dirfd.open_folder(root)
        except OSError as exc:
            raise AccessRefusedError(f"The workspace folder {self._root} cannot be opened ({exc.strerror}).") from exc
        with dirfd.closing(root_fd):
            opened = Opened(root_fd, names, display, for_write)
            try:
                yield opened, display
            finally:
                opened.close()

    # -- the tools --

    async def _list(self, args: dict[str, Any]) -> ToolResult:
        return await asyncio.to_thread(self._list_sync, args["path"])

    def _list_sync(self, raw: str) -> ToolResult:
        with self._opened(raw or ".", allow_root=True) as (opened, display):
            folder = "The workspace folder" if display == "." else f"The folder {display!r}"
            try:
                fd = opened.folder(opened.names, create=False)
            except FileNotFoundError:
                return ToolResult(f"{display!r} does not exist.", is_error=True)
            except dirfd.InTheWayError:
                return ToolResult(f"{display!r} is a file, not a folder; use files_read.", is_error=True)
            except dirfd.PathChangedError as exc:
                raise changed_error(display, "listed") from exc
            except OSError as exc:
                return ToolResult(f"Could not list {display!r}: {exc.strerror}.", is_error=True)
            try:
                with dirfd.closing(fd), os.scandir(fd) as entries:
                    every = [entry for entry in entries if opened.names or app_entry(entry.name) is None]
                    if not every:
                        return ToolResult(f"{folder} is empty.")
                    first = heapq.nsmallest(MAX_LIST_ENTRIES, every, key=lambda entry: entry.name)
                    described = [self._describe(entry) for entry in first]
            except OSError as exc:
                return ToolResult(f"Could not list {display!r}: {exc.strerror}.", is_error=True)
        count = "1 entry" if len(every) == 1 else f"{len(every):,} entries"
        lines = [f"{folder} has {count}:", *described]
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
                return f"{entry.name}  ({size_text(entry.stat(follow_symlinks=False).st_size)})"
        except OSError:
            return f"{entry.name}  (unreadable)"
        return f"{entry.name}  (special file)"

    async def _read(self, args: dict[str, Any]) -> ToolResult:
        return await asyncio.to_thread(self._read_sync, args["path"], args["max_chars"])

    def _read_sync(self, raw: str, max_chars: int) -> ToolResult:
        with self._opened(raw) as (opened, display):
            try:
                fd = opened.file(os.O_RDONLY)
            except FileNotFoundError:
                return ToolResult(f"{display!r} does not exist.", is_error=True)
            except IsADirectoryError:
                return ToolResult(f"{display!r} is a folder; use files_list.", is_error=True)
            except dirfd.PathChangedError as exc:
                raise changed_error(display, "read") from exc
            except (dirfd.InTheWayError, NotADirectoryError):
                return ToolResult(f"Could not read {display!r}: a file is in the way.", is_error=True)
            except OSError as exc:
                return ToolResult(f"Could not read {display!r}: {exc.strerror}.", is_error=True)
            budget = max_chars * 4 + 4  # UTF-8 needs at most 4 bytes per character
            with dirfd.closing(fd):
                try:
                    info = os.fstat(fd)
                    if stat.S_ISDIR(info.st_mode):
                        return ToolResult(f"{display!r} is a folder; use files_list.", is_error=True)
                    if not stat.S_ISREG(info.st_mode):
                        return ToolResult(f"{display!r} is not a regular file.", is_error=True)
                    if info.st_nlink > 1:
                        return ToolResult(
                            f"{display!r} has other names too (hard links, perhaps to a file outside the "
                            "workspace folder or to the app's private files); it cannot be read.", is_error=True,
                        )
                    data = read_up_to(fd, budget)
                except OSError as exc:
                    return ToolResult(f"Could not read {display!r}: {exc.strerror}.", is_error=True)
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
                              f"{display!r}, a file of {size_text(info.st_size)}]")
        return ToolResult(text)

    async def _write(self, args: dict[str, Any]) -> ToolResult:
        return await asyncio.to_thread(self._write_sync, args["path"], args["text"], False)

    async def _append(self, args: dict[str, Any]) -> ToolResult:
        return await asyncio.to_thread(self._write_sync, args["path"], args["text"], True)

    async def _observe(self, args: dict[str, Any]) -> str:
        """The target file as a write would find it (for the journal): its size and sha256, ``absent`` when
        there is no file or an empty one (the same text: a write leaves the same file after either), or why
        it cannot be read."""
        return await asyncio.to_thread(self._observe_sync, args["path"])

    def _observe_sync(self, raw: str) -> str:
        with self._opened(raw, for_write=True) as (opened, _display):
            found = content_of(opened)
        return found if isinstance(found, str) else fingerprint(*found)

    async def _expect_write(self, args: dict[str, Any], before: str) -> str | None:
        """What ``files_write`` leaves: the file holding exactly the text (None: the path is refused)."""
        return await asyncio.to_thread(self._expect_sync, args["path"], args["text"], before, False)

    async def _expect_append(self, args: dict[str, Any], before: str) -> str | None:
        """What ``files_append`` leaves: the file as observed (``before``) with the text after it (None: the
        file is no longer as observed, or cannot be read)."""
        return await asyncio.to_thread(self._expect_sync, args["path"], args["text"], before, True)

    def _expect_sync(self, raw: str, text: str, before: str, append: bool) -> str | None:
        data = text.encode("utf-8", errors="replace")  # as the write encodes it
        with self._opened(raw, for_write=True) as (opened, _display):
            if not append:
                return fingerprint(len(data), hashlib.sha256(data))
            found = content_of(opened)
        if isinstance(found, str):
            if found != "absent":
                return None  # in the way or unreadable: the append fails, and leaves the file as it is
            found = (0, hashlib.sha256())
        size, digest = found
        if fingerprint(size, digest) != before:
            return None  # changed since it was observed: no telling what the append will leave
        digest.update(data)
        return fingerprint(size + len(data), digest)

    def _write_sync(self, raw: str, text: str, append: bool) -> ToolResult:
        data = text.encode("utf-8", errors="replace")  # lone surrogates from JSON must not crash the write
        with self._opened(raw, for_write=True) as (opened, display):
            try:
                # No O_TRUNC before fstat: truncating is only for regular files with one name.
                flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else 0)
                try:  # O_EXCL first: whether this call created the file goes into its mutation
                    fd, existed = opened.file(flags | os.O_EXCL, create=True), False
                except FileExistsError:
                    fd, existed = opened.file(flags, create=True), True
            except dirfd.PathChangedError as exc:
                raise changed_error(display, "written") from exc
            except (IsADirectoryError, NotADirectoryError, dirfd.InTheWayError):
                return ToolResult(f"Could not write {display!r}: it is a folder or a file is in the way.",
                                  is_error=True)
            except OSError as exc:
                return ToolResult(f"Could not write {display!r}: {exc.strerror}.", is_error=True)
            with dirfd.closing(fd):
                try:
                    info = os.fstat(fd)
                    if not stat.S_ISREG(info.st_mode):
                        return ToolResult(f"{display!r} is not a regular file; it cannot be written.",
                                          is_error=True)
                    if info.st_nlink > 1:
                        return ToolResult(
                            f"{display!r} has other names too (hard links, perhaps to a file outside the "
                            "workspace folder); it cannot be written.", is_error=True,
                        )
                    before = info.st_size
                    if not append:
                        os.ftruncate(fd, 0)
                    view = memoryview(data)
                    while view:
                        written = os.write(fd, view)
                        view = view[written:]
                    after = os.fstat(fd).st_size
                    # On disk before the result is recorded: a power cut must not keep the record of a write
                    # and lose the write (orchestration/ledger.py, "Durability").
                    os.fsync(fd)
                    if not existed:
                        opened.sync_folder()  # the new file's name
                except OSError as exc:
                    return ToolResult(f"Could not write {display!r}: {exc.strerror}.", is_error=True)
        log.info("files skill: %s %d bytes %s %s", "appended" if append else "wrote", len(data),
                 "to" if append else "into", display)
        verb = "Appended" if append else "Wrote"
        summary = (f"appended {size_text(len(data))}" if append
                   else f"{'replaced with' if existed else 'created with'} {size_text(len(data))}")
        mutation = Mutation("file_written", display, summary, before if existed else None, after)
        return ToolResult(f"{verb} {len(text):,} characters {'to' if append else 'into'} {display!r}.",
                          mutations=(mutation,))


