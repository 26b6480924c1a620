"""How the files skill opens a workspace path safely: the path's syntax, the app's own entries, and descriptors
walked from the workspace root (``files.py`` holds the skill and its tools)."""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Sequence
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from openhuman_desktop.app_files import APP_ENTRIES, AppEntry, app_entry
from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.skills import dirfd


class AccessRefusedError(UserFacingError):
    """A path or file operation the files skill will not do; ``str()`` is one sentence for the model."""

def refuse_syntax(raw: str) -> None:
    """Refuse what the path says before looking at the disk: absolute, ``..``, NUL."""
    if "\x00" in raw:
        raise AccessRefusedError("The path contains a NUL character.")
    if PurePosixPath(raw).is_absolute() or PureWindowsPath(raw).anchor:
        raise AccessRefusedError(f"{raw!r} is an absolute path; give one relative to the workspace folder.")
    if ".." in PurePosixPath(raw).parts or ".." in PureWindowsPath(raw).parts:
        raise AccessRefusedError(f"{raw!r} contains '..'; paths must stay inside the workspace folder.")


def entry_of(parts: Sequence[str]) -> AppEntry | None:
    """The app's entry that ``parts`` (relative to the root) name or lead into."""
    return app_entry(parts[0]) if parts else None


def refusal_for(entry: AppEntry, display: str, *, for_write: bool) -> AccessRefusedError | None:
    """Why the app's entry ``entry`` may not be read (or written), or None when it may."""
    where = entry.shown
    if for_write:
        return AccessRefusedError(f"{display!r} belongs to the app itself ({where}); the assistant may not change it.")
    if entry.is_readable:
        return None
    if entry.is_folder:
        return AccessRefusedError(f"{display!r} is in the app's private folder {where}; it cannot be read.")
    return AccessRefusedError(f"{display!r} is the app's private file {where}; it cannot be read.")


def changed_error(display: str, verb: str) -> AccessRefusedError:
    """The refusal for a path that changed while it was being opened (nothing was ``verb``)."""
    return AccessRefusedError(
        f"{display!r} changed while it was being opened (a symbolic link took a folder's or the file's place); "
        f"nothing was {verb}."
    )


def read_up_to(fd: int, limit: int) -> bytes:
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


def size_text(size: int) -> str:
    """``size`` in bytes, in words."""
    return f"{size:,} bytes" if size != 1 else "1 byte"

UNSUPPORTED = "The files tool needs a system that can open files relative to a folder (Linux, macOS, BSD)."


def fingerprint(size: int, digest: Any) -> str:
    """A file's fingerprint from its size and sha256 (``absent`` for no text at all)."""
    return "absent" if size == 0 else f"{size} bytes sha256:{digest.hexdigest()}"


def content_of(opened: Opened) -> tuple[int, Any] | str:
    """The checked file's size and sha256 so far, ``absent``, or why it cannot be read (``in the way``,
    ``unreadable: …``)."""
    try:
        fd = opened.file(os.O_RDONLY)
    except FileNotFoundError:
        return "absent"
    except (dirfd.PathChangedError, dirfd.InTheWayError, IsADirectoryError, NotADirectoryError):
        return "in the way"
    except OSError as exc:
        return f"unreadable: {exc.strerror}"
    digest = hashlib.sha256()
    size = 0
    with dirfd.closing(fd):
        try:
            while chunk := os.read(fd, 1 << 20):
                digest.update(chunk)
                size += len(chunk)
        except OSError as exc:
            return f"unreadable: {exc.strerror}"
    return size, digest


class Opened:
    """One checked path below an open root: opens its folder and file, refusing the app's own entries by
    identity too (a hard link, a case-insensitive or normalising file system's other spelling)."""

    def __init__(self, root_fd: int, names: tuple[str, ...], display: str, for_write: bool) -> None:
        self.root_fd = root_fd
        self.names = names
        self._display = display
        self._for_write = for_write
        self._app: dict[dirfd.Identity, AppEntry] = {}
        self._file_folder: int | None = None  # the folder the file was opened in (kept open: see sync_folder)
        for entry in APP_ENTRIES:
            if entry.pattern.startswith("."):
                continue  # a temporary file: no fixed name to look up (and read only by its own name)
            for follow in (False, True):  # the entry, and where it leads when it is a symbolic link
                with contextlib.suppress(OSError):
                    info = os.stat(entry.shown.rstrip("/"), dir_fd=root_fd, follow_symlinks=follow)
                    self._app.setdefault(dirfd.identity(info), entry)

    def _check(self, info: os.stat_result) -> None:
        entry = self._app.get(dirfd.identity(info))
        refusal = None if entry is None else refusal_for(entry, self._display, for_write=self._for_write)
        if refusal is not None:
            raise refusal

    def folder(self, names: Sequence[str], *, create: bool) -> int:
        """A descriptor of the folder ``names`` lead to (checked on the way)."""
        return dirfd.walk(self.root_fd, names, create=create, visit=self._check)

    def file(self, flags: int, *, create: bool = False) -> int:
        """A descriptor of the file itself (checked; ``create`` makes missing folders)."""
        parent = self.folder(self.names[:-1], create=create)
        try:
            fd = dirfd.open_file(self.names[-1], parent, flags)
        except BaseException:
            os.close(parent)
            raise
        try:
            self._check(os.fstat(fd))
        except BaseException:
            os.close(fd)
            os.close(parent)
            raise
        self.close()
        self._file_folder = parent
        return fd

    def sync_folder(self) -> None:
        """Sync the folder the file was opened in (a new file's name is in it): the very folder, by its
        descriptor, even when its path was swapped for something else since."""
        if self._file_folder is not None:
            os.fsync(self._file_folder)

    def close(self) -> None:
        """Close the folder the file was opened in."""
        if self._file_folder is not None:
            os.close(self._file_folder)
            self._file_folder = None
