"""One running instance per workspace: an exclusive lock on ``run/instance.lock``."""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

from openhuman_desktop.errors import UserFacingError, workspace_error


class AlreadyRunning(UserFacingError):
    """Another instance holds the workspace."""

    def __init__(self, workspace: Path, pid: str) -> None:
        self.pid = pid
        super().__init__(
            f"OpenHuman is already running on the workspace {workspace}"
            + (f" (process {pid})" if pid else "")
            + "; talk to it with `openhuman-desktop rpc …` or stop it first."
        )


class InstanceLock:
    """Held for the life of the process; the OS releases it if the process dies (even kill -9)."""

    def __init__(self, workspace: Path, lock_file: Path) -> None:
        self._workspace = workspace
        self._path = lock_file
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock or raise :class:`AlreadyRunning` (:class:`WorkspaceUnavailable` if it cannot be made)."""
        try:
            self._path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise workspace_error(exc, "create its lock file") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            pid = os.pread(fd, 32, 0).decode(errors="replace").strip()
            os.close(fd)
            raise AlreadyRunning(self._workspace, pid) from None
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, str(os.getpid()).encode(), 0)
        except OSError as exc:  # the lock is what matters; the pid in it is only a courtesy
            if exc.errno not in (errno.ENOSPC, errno.EDQUOT):
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)
                raise workspace_error(exc, f"write {self._path}") from exc
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
