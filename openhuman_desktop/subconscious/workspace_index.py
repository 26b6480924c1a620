"""A workspace index kept between ticks: inotify names the folders that changed, only those are read again."""

from __future__ import annotations

import asyncio
import ctypes
import errno
import hashlib
import logging
import os
import struct
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openhuman_desktop.subconscious.report import (
    MAX_FILES_SCANNED,
    FileStamp,
    WorkspaceScan,
    changed_files,
    list_folder,
    scan_workspace,
    stamp_bytes,
)

log = logging.getLogger(__name__)

# A full walk at least this often repairs what inotify cannot see (network file systems, writes through mmap).
FULL_SCAN_EVERY_SECONDS = 15 * 60.0
WATCH_RETRY_SECONDS = 3600.0
"""How long the index stays off after inotify failed (the watch limit, a read error) before it tries again."""

# From <sys/inotify.h>.
IN_MODIFY = 0x00000002
IN_ATTRIB = 0x00000004
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_FROM = 0x00000040
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_DELETE = 0x00000200
IN_DELETE_SELF = 0x00000400
IN_MOVE_SELF = 0x00000800
IN_UNMOUNT = 0x00002000
IN_Q_OVERFLOW = 0x00004000
IN_IGNORED = 0x00008000
IN_ONLYDIR = 0x01000000
IN_DONT_FOLLOW = 0x02000000
IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000
WATCH_MASK = (IN_CREATE | IN_DELETE | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO
              | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
# The watched folder itself is gone, moved or no longer watched: what is known under it is stale.
_GONE = IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED | IN_UNMOUNT
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then len bytes of name
_READ_SIZE = 64 * 1024
# A folder that cannot be watched now (gone, not a folder, no permission): it is listed again on every scan.
_UNWATCHABLE = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EACCES, errno.EPERM, errno.ELOOP})
PLATFORM = sys.platform


class WatchUnavailable(Exception):
    """inotify cannot serve the index (the message says why): full scans from now on."""


class _Overflow(Exception):
    """The events cannot be applied one by one (lost in an overflow, or the root itself went): walk again."""


def load_libc() -> Any:
    """The C library with its errno kept (a seam for tests)."""
    return ctypes.CDLL(None, use_errno=True)


class Inotify:
    """A non-blocking inotify instance through libc (Linux only); no thread, read when asked."""

    def __init__(self) -> None:
        if not PLATFORM.startswith("linux"):
            raise WatchUnavailable(f"inotify is Linux only (this is {PLATFORM})")
        try:
            libc = load_libc()
            init1, add, rm = libc.inotify_init1, libc.inotify_add_watch, libc.inotify_rm_watch
        except (OSError, AttributeError) as exc:
            raise WatchUnavailable(f"the C library has no inotify ({exc})") from exc
        init1.argtypes, init1.restype = [ctypes.c_int], ctypes.c_int
        add.argtypes, add.restype = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32], ctypes.c_int
        rm.argtypes, rm.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
        self._add, self._rm = add, rm
        fd = init1(IN_NONBLOCK | IN_CLOEXEC)
        if fd < 0:
            raise WatchUnavailable(f"inotify_init1 failed: {os.strerror(ctypes.get_errno())}")
        self.fd: int = fd

    def add_watch(self, path: str, *, follow: bool = False) -> int | None:
        """Watch the folder ``path``: its watch descriptor, or ``None`` if it cannot be watched now.

        Raises:
            WatchUnavailable: the watch limit is reached, or inotify failed otherwise.
        """
        mask = WATCH_MASK if follow else WATCH_MASK | IN_DONT_FOLLOW
        wd = int(self._add(self.fd, os.fsencode(path), mask))
        if wd >= 0:
            return wd
        code = ctypes.get_errno()
        if code in _UNWATCHABLE:
            return None
        if code == errno.ENOSPC:
            raise WatchUnavailable("the inotify watch limit is reached (sysctl fs.inotify.max_user_watches)")
        raise WatchUnavailable(f"inotify_add_watch failed: {os.strerror(code)}")

    def remove_watch(self, wd: int) -> None:
        """Stop watching ``wd`` (nothing happens if the kernel dropped it already)."""
        self._rm(self.fd, wd)

    def read_events(self) -> list[tuple[int, int]]:
        """``(wd, mask)`` of every pending event, oldest first; empty when none.

        Raises:
            WatchUnavailable: reading failed.
        """
        events: list[tuple[int, int]] = []
        while True:
            try:
                data = os.read(self.fd, _READ_SIZE)
            except BlockingIOError:
                return events
            except OSError as exc:
                raise WatchUnavailable(f"reading inotify events failed: {exc}") from exc
            if not data:
                return events
            offset = 0
            while offset < len(data):
                wd, mask, _cookie, length = _EVENT.unpack_from(data, offset)
                events.append((wd, mask))
                offset += _EVENT.size + length

    def close(self) -> None:
        """Close the descriptor (all watches go with it). Safe twice."""
        if self.fd >= 0:
            fd, self.fd = self.fd, -1
            os.close(fd)


@dataclass
class _Folder:
    wd: int | None  # None: not watched, listed again on every scan
    counted: list[FileStamp | None]
    walked: list[str]  # names of the subfolders, in walk order
    signed: bytes  # stamp_bytes(counted), kept so an answer only hashes
    newest: float  # the newest mtime among its files


class WorkspaceIndex:
    """The workspace's file stamps, kept between scans; answers exactly what :func:`scan_workspace` would.

    The first scan walks the workspace and watches every walked folder; later scans read the pending
    inotify events and list again only the folders they name (and those that cannot be watched). A full
    walk at least every ``FULL_SCAN_EVERY_SECONDS`` rebuilds the index. Where inotify is unusable (not
    Linux, no libc symbol, watch limit, read error) every scan is a plain full walk, said once in the log,
    and the index tries again every ``WATCH_RETRY_SECONDS``.
    Thread-safe: scans run in worker threads and one may outlive its tick.
    """

    def __init__(self, root: Path, clock: Callable[[], float] = time.monotonic) -> None:
        self._root = root
        self._base = os.fspath(root)
        self._clock = clock
        self._lock = threading.Lock()
        self._inotify: Inotify | None = None
        self._folders: dict[str, _Folder] = {}  # by relative path with a trailing "/" (root: "")
        self._by_wd: dict[int, str] = {}
        self._counted = 0  # entries counted towards MAX_FILES_SCANNED, over all folders
        self._walked_at = 0.0
        self._retry_at: float | None = None  # too many files: plain scans until then
        self._disabled: str | None = None
        self._closed = False
        self.full_walks = 0  # for tests and the benchmark
        self.folders_relisted = 0

    @property
    def disabled(self) -> str | None:
        """Why the index gave up on inotify (every scan is a full walk), or ``None``."""
        return self._disabled

    def scan(self, since: float | None) -> WorkspaceScan:
        """What ``scan_workspace(root, since)`` returns now, from the index where it can."""
        with self._lock:
            if self._refresh():
                return self._answer(since)
        return scan_workspace(self._root, since)

    def warm(self) -> None:
        """Build the index now (the first tick then finds it ready)."""
        with self._lock:
            self._refresh()

    def close(self) -> None:
        """Close the inotify descriptor; later scans are plain full walks. Safe twice."""
        with self._lock:
            self._closed = True
            self._reset()

    async def aclose(self) -> None:
        """:meth:`close` off the event loop (it waits for a scan in progress)."""
        await asyncio.to_thread(self.close)

    # --- keeping the index up to date (the lock is held) ---------------------------------------

    def _refresh(self) -> bool:
        """Bring the index up to date; False when this scan must be a plain full walk."""
        if self._closed:
            return False
        now = self._clock()
        if self._retry_at is not None:
            if now < self._retry_at:
                return False
            self._retry_at = None
        try:
            if self._inotify is None or now - self._walked_at >= FULL_SCAN_EVERY_SECONDS:
                self._rebuild(now)
            else:
                try:
                    self._update()
                except _Overflow as exc:
                    log.info("workspace index: %s; walking the workspace again", exc)
                    self._rebuild(now)
        except WatchUnavailable as exc:
            # The watch limit may be raised or other programs may free watches: try again later.
            self._reset()
            self._retry_at = now + WATCH_RETRY_SECONDS
            if self._disabled != str(exc):
                log.info("workspace index off, every tick walks the workspace (trying again within the hour): %s",
                         exc)
            self._disabled = str(exc)
            return False
        except BaseException:
            self._reset()  # a half-updated index must never answer: rebuilt on the next scan
            raise
        if self._counted > MAX_FILES_SCANNED:
            self._reset()
            self._retry_at = now + FULL_SCAN_EVERY_SECONDS
            log.info("workspace index: more than %d files, walking the workspace on each tick", MAX_FILES_SCANNED)
            return False
        if self._disabled is not None:
            log.info("workspace index on again (%s no more)", self._disabled)
            self._disabled = None
        return True

    def _reset(self) -> None:
        if self._inotify is not None:
            self._inotify.close()
        self._inotify = None
        self._folders.clear()
        self._by_wd.clear()
        self._counted = 0

    def _rebuild(self, now: float) -> None:
        before = None
        if self._inotify is not None:  # the periodic walk: what the events said, to compare
            try:
                self._update()
                before = self._answer_signature()
            except _Overflow:
                pass
        self._reset()
        self._inotify = Inotify()
        self._walked_at = now
        self.full_walks += 1
        self._walk("")
        if before is not None and before != self._answer_signature():
            log.debug("workspace index: the full walk found changes that inotify did not report; repaired")

    def _update(self) -> None:
        """Apply the pending events: list again the folders they name, drop what is gone, walk what is new."""
        assert self._inotify is not None
        dirty = {prefix for prefix, folder in self._folders.items() if folder.wd is None}
        gone: set[str] = set()
        for wd, mask in self._inotify.read_events():
            if mask & IN_Q_OVERFLOW:
                raise _Overflow("inotify's event queue overflowed")
            prefix = self._by_wd.get(wd)
            if prefix is None:
                continue  # a watch dropped earlier: its last events
            (gone if mask & _GONE else dirty).add(prefix)
        if "" in gone:
            raise _Overflow("the workspace folder itself moved or vanished")
        for prefix in gone:
            if prefix in self._folders:
                self._drop(prefix)
            dirty.add(_parent(prefix))
        new: list[str] = []
        for prefix in sorted(dirty, key=len):  # parents first: a dropped subtree is not listed
            if prefix in self._folders:
                new.extend(self._relist(prefix))
        for prefix in new:  # after every drop, so a moved folder's watch is not removed after it is reused
            if prefix not in self._folders and self._walk(prefix):
                return

    def _relist(self, prefix: str) -> list[str]:
        """List one known folder again; returns the subfolders that are new to the index."""
        assert self._inotify is not None
        old = self._folders[prefix]
        wd = old.wd
        if wd is None:
            wd = self._watch(prefix)
        self.folders_relisted += 1
        folder = self._read(prefix, wd)
        for name in set(old.walked) - set(folder.walked):
            self._drop(f"{prefix}{name}/")
        self._counted -= len(old.counted)
        self._folders[prefix] = folder
        self._counted += len(folder.counted)
        return [f"{prefix}{name}/" for name in folder.walked if f"{prefix}{name}/" not in self._folders]

    def _walk(self, top: str) -> bool:
        """Index and watch ``top`` and everything under it; True when over ``MAX_FILES_SCANNED`` (stopped)."""
        pending = [top]
        while pending:
            prefix = pending.pop()
            folder = self._read(prefix, self._watch(prefix))
            self._folders[prefix] = folder
            self._counted += len(folder.counted)
            if self._counted > MAX_FILES_SCANNED:
                return True
            pending.extend(reversed([f"{prefix}{name}/" for name in folder.walked]))
        return False

    def _watch(self, prefix: str) -> int | None:
        """Watch a folder before it is listed, so any change after the listing has an event."""
        assert self._inotify is not None
        wd = self._inotify.add_watch(os.path.join(self._base, prefix), follow=not prefix)
        if wd is None:
            return None
        other = self._by_wd.get(wd)
        if other is not None and other != prefix and other in self._folders:
            # The same folder under two names: moved (the old name is stale), or mounted twice.
            if _same_folder(os.path.join(self._base, other), os.path.join(self._base, prefix)):
                raise WatchUnavailable(f"the folder {prefix!r} is also reachable as {other!r}")
            self._folders[other].wd = None  # its watch now belongs to the new name
            self._drop(other)
        self._by_wd[wd] = prefix
        return wd

    def _read(self, prefix: str, wd: int | None) -> _Folder:
        counted, walked = list_folder(os.path.join(self._base, prefix), prefix)
        newest = max((stamp[3] for stamp in counted if stamp is not None), default=float("-inf"))
        return _Folder(wd, counted, walked, stamp_bytes(counted), newest)

    def _drop(self, top: str) -> None:
        """Forget a folder and everything under it, and stop watching them."""
        assert self._inotify is not None
        pending = [top]
        while pending:
            prefix = pending.pop()
            folder = self._folders.pop(prefix, None)
            if folder is None:
                continue
            self._counted -= len(folder.counted)
            if folder.wd is not None and self._by_wd.get(folder.wd) == prefix:
                del self._by_wd[folder.wd]
                self._inotify.remove_watch(folder.wd)
            pending.extend(f"{prefix}{name}/" for name in folder.walked)

    # --- answering ------------------------------------------------------------------------------

    def _in_order(self) -> list[tuple[_Folder, int]]:
        """The folders in the full walk's order, each with how many of its entries fit under the cap."""
        ordered: list[tuple[_Folder, int]] = []
        remaining = MAX_FILES_SCANNED
        pending = [""]
        while pending and remaining > 0:
            prefix = pending.pop()
            folder = self._folders.get(prefix)
            if folder is None:
                continue
            taken = min(len(folder.counted), remaining)
            remaining -= taken
            ordered.append((folder, taken))
            pending.extend(reversed([f"{prefix}{name}/" for name in folder.walked]))
        return ordered

    def _answer_signature(self) -> str:
        return hashlib.sha256(b"".join(self._signed(folder, taken) for folder, taken in self._in_order())).hexdigest()

    @staticmethod
    def _signed(folder: _Folder, taken: int) -> bytes:
        return folder.signed if taken == len(folder.counted) else stamp_bytes(folder.counted[:taken])

    def _answer(self, since: float | None) -> WorkspaceScan:
        digest = hashlib.sha256()
        found: list[tuple[float, str, int]] = []
        for folder, taken in self._in_order():
            digest.update(self._signed(folder, taken))
            if since is not None and folder.newest <= since:
                continue
            found.extend((-stamp[3], stamp[0], stamp[1]) for stamp in folder.counted[:taken]
                         if stamp is not None and (since is None or stamp[3] > since))
        return WorkspaceScan(changed_files(self._root, found), digest.hexdigest())


def _parent(prefix: str) -> str:
    cut = prefix.rstrip("/").rfind("/")
    return prefix[:cut + 1] if cut >= 0 else ""


def _same_folder(first: str, second: str) -> bool:
    try:
        return os.path.samestat(os.lstat(first), os.lstat(second))
    except OSError:
        return False
