"""First run: create the workspace (mode 0700), a commented config.toml and the default HEARTBEAT.md."""

from __future__ import annotations

import logging
import os
from importlib import resources

from openhuman_desktop import config
from openhuman_desktop.paths import Paths

log = logging.getLogger(__name__)


def default_heartbeat_text() -> str:
    """The packaged HEARTBEAT.md (explains the format; lists no tasks of its own)."""
    return (resources.files("openhuman_desktop") / "resources" / "HEARTBEAT.md").read_text(encoding="utf-8")


def prepare(paths: Paths) -> list[str]:
    """Make sure the workspace exists with its files; returns the names of the files created."""
    paths.ensure()
    created: list[str] = []
    if not paths.config_file.exists():
        config.write_default(paths.config_file)
        created.append(paths.config_file.name)
    if not paths.heartbeat_file.exists():
        fd = os.open(paths.heartbeat_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(default_heartbeat_text())
        created.append(paths.heartbeat_file.name)
    for name in created:
        log.info("created %s in %s", name, paths.workspace)
    return created
