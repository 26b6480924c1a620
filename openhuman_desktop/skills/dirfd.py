"""Opening files below a folder's descriptor one name at a time, never following a symbolic link.

A path checked by name can change before it is opened: a folder on the way swapped for a symbolic link
would lead the open outside the checked folder. Walking from a descriptor with ``O_NOFOLLOW`` at every step
opens exactly the folders that were checked, or fails.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterator, Sequence

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_DIR_FLAGS = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC

# Windows has no ``dir_fd``; there the files skill refuses to work rather than work unconfined.
SUPPORTED = bool(_NOFOLLOW and _DIRECTORY) and {os.open, os.mkdir, os.stat} <= os.supports_dir_fd

Identity = tuple[int, int]
Visit = Callable[[os.stat_result], None]


class PathChangedError(Exception):
    """A symbolic link stands where a checked folder or file was: the path changed after it was checked."""


class InTheWayError(Exception):
    """A file (not a folder) stands where the path needs a folder."""


def identity(info: os.stat_result) -> Identity:
    """What names one file whatever path (or hard link) leads to it."""
    return info.st_dev, info.st_ino


def open_folder(path: str | os.PathLike[str]) -> int:
    """A descriptor of the folder at ``path`` (symbolic links in ``path`` itself are followed)."""
    return os.open(path, os.O_RDONLY | _DIRECTORY | _CLOEXEC)


def _explain(exc: OSError, name: str, parent: int) -> Exception:
    """ELOOP/ENOTDIR on ``name``: a symbolic link swapped in (and maybe out again), or a file in the way."""
    try:
        info = os.stat(name, dir_fd=parent, follow_symlinks=False)
    except OSError:
        return exc
    if stat.S_ISLNK(info.st_mode):
        return PathChangedError(name)
    if exc.errno in (errno.ENOTDIR, errno.ELOOP) and not stat.S_ISDIR(info.st_mode):
        return InTheWayError(name)
    if exc.errno in (errno.ENOTDIR, errno.ELOOP):  # a folder again by now: it was swapped back meanwhile
        return PathChangedError(name)
    return exc


def _open_child_folder(name: str, parent: int) -> int:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=parent)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise _explain(exc, name, parent) from exc
        raise


def walk(root: int, names: Sequence[str], *, create: bool = False, visit: Visit | None = None) -> int:
    """A new descriptor of the folder ``names`` leads to below ``root`` (close it).

    Args:
        create: make missing folders (mode 0700) on the way.
        visit: called with each folder's ``fstat`` as it is reached (it may raise to refuse).

    Raises:
        PathChangedError: a symbolic link stands on the way. InTheWayError: a file stands on the way.
        OSError: a folder is missing (without ``create``) or cannot be opened.
    """
    current = os.dup(root)
    try:
        for name in names:
            try:
                child = _open_child_folder(name, current)
            except FileNotFoundError:
                if not create:
                    raise
                with contextlib.suppress(FileExistsError):  # made by someone else meanwhile: open theirs
                    os.mkdir(name, 0o700, dir_fd=current)
                child = _open_child_folder(name, current)
            os.close(current)
            current = child
            if visit is not None:
                visit(os.fstat(current))
        return current
    except BaseException:
        os.close(current)
        raise


def open_file(name: str, parent: int, flags: int, mode: int = 0o600) -> int:
    """Open the file ``name`` in the folder ``parent`` without following a symbolic link.

    ``O_NONBLOCK`` keeps a FIFO from hanging the thread; the caller's ``fstat`` refuses it.

    Raises:
        PathChangedError: ``name`` is a symbolic link.
    """
    try:
        return os.open(name, flags | _NOFOLLOW | _NONBLOCK | _CLOEXEC, mode, dir_fd=parent)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise _explain(exc, name, parent) from exc
        raise


@contextlib.contextmanager
def closing(fd: int) -> Iterator[int]:
    """``with closing(fd) as fd:`` closes the descriptor at the end."""
    try:
        yield fd
    finally:
        os.close(fd)
