"""Every name created in a folder tree while a test runs, temporary files included (Linux inotify, a thread)."""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import struct
import threading
from pathlib import Path
from types import TracebackType
from typing import Self

IN_CREATE = 0x00000100
IN_MOVED_TO = 0x00000080
IN_ISDIR = 0x40000000
IN_ONLYDIR = 0x01000000
IN_CLOEXEC = 0o2000000
IN_NONBLOCK = 0o4000
_EVENT = struct.Struct("iIII")


class CreatedNames:
    """Records the path (relative to ``root``) of everything created or moved into ``root``'s tree.

    Usage: ``with CreatedNames(root) as created: ...`` then ``created.paths``. New folders are watched as they
    appear; what was made in one before its watch is found by listing it once the watch is in place.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self.paths: set[str] = set()
        self._libc = ctypes.CDLL(None, use_errno=True)
        self._fd = -1
        self._folders: dict[int, str] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Self:
        self._fd = self._libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if self._fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1 failed")
        self._watch("")
        self._thread = threading.Thread(target=self._read, name="created-names", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._drain()
        os.close(self._fd)

    def _watch(self, relative: str) -> None:
        """Watch a folder, then record what is already in it (made before the watch) and watch its folders."""
        path = self.root / relative if relative else self.root
        wd = self._libc.inotify_add_watch(self._fd, os.fsencode(path), IN_CREATE | IN_MOVED_TO | IN_ONLYDIR)
        if wd < 0:
            return  # gone again already, or not a folder
        with self._lock:
            self._folders[wd] = relative
        with contextlib.suppress(OSError), os.scandir(path) as listing:
            for entry in listing:
                self._found(f"{relative}/{entry.name}" if relative else entry.name,
                            entry.is_dir(follow_symlinks=False))

    def _found(self, relative: str, is_folder: bool) -> None:
        with self._lock:
            known = relative in self.paths
            self.paths.add(relative)
        if is_folder and not known:
            self._watch(relative)

    def _read(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._fd], [], [], 0.05)
            if ready:
                self._drain()

    def _drain(self) -> None:
        while True:
            try:
                data = os.read(self._fd, 64 * 1024)
            except BlockingIOError:
                return
            offset = 0
            while offset < len(data):
                wd, mask, _cookie, length = _EVENT.unpack_from(data, offset)
                name = data[offset + _EVENT.size:offset + _EVENT.size + length].rstrip(b"\0")
                offset += _EVENT.size + length
                with self._lock:
                    folder = self._folders.get(wd)
                if folder is None or not name or not mask & (IN_CREATE | IN_MOVED_TO):
                    continue
                text = os.fsdecode(name)
                self._found(f"{folder}/{text}" if folder else text, bool(mask & IN_ISDIR))
