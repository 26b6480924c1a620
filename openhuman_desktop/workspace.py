"""First run: create the workspace (mode 0700), a commented config.toml and the default HEARTBEAT.md."""

from __future__ import annotations

import contextlib
import logging
import os
from importlib import resources
from pathlib import Path

from openhuman_desktop import config
from openhuman_desktop.errors import workspace_error
from openhuman_desktop.paths import Paths

log = logging.getLogger(__name__)


def default_heartbeat_text() -> str:
    """The packaged HEARTBEAT.md (explains the format; lists no tasks of its own)."""
    return (resources.files("openhuman_desktop") / "resources" / "HEARTBEAT.md").read_text(encoding="utf-8")


def prepare(paths: Paths) -> list[str]:
    """Make sure the workspace exists with its files; returns the names of the files created.

    An existing file (or symlink, even a dangling one) is never replaced, also when another
    instance creates it at the same moment.

    Raises:
        WorkspaceUnavailable: a file cannot be created (read-only disk, disk full, …).
    """
    paths.ensure()
    created: list[str] = []
    if _create(paths.config_file, config.DEFAULT_CONFIG_TEXT):
        created.append(paths.config_file.name)
    if _create(paths.heartbeat_file, default_heartbeat_text()):
        created.append(paths.heartbeat_file.name)
    for name in created:
        log.info("created %s in %s", name, paths.workspace)
    return created


def _create(path: Path, text: str) -> bool:
    """Write ``text`` to a new private file (mode 0600); False when something is already there."""
    if os.path.lexists(path):
        return False
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    except OSError as exc:
        raise workspace_error(exc, f"create {path.name} in the workspace") from exc
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:  # a full disk: leave no half-written file to be read as the user's next time
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise workspace_error(exc, f"write {path}") from exc
    return True
