"""Where the workspace lives and the names of everything inside it (CONTRACT §2)."""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from openhuman_desktop.errors import workspace_error

WORKSPACE_ENV = "OPENHUMAN_WORKSPACE"


def default_workspace() -> Path:
    """The workspace used when neither ``--workspace`` nor ``OPENHUMAN_WORKSPACE`` is given."""
    return Path(platformdirs.user_data_dir("OpenHuman"))


def resolve_workspace(cli_value: str | None) -> Path:
    """Pick the workspace: the command-line option, then the environment, then the platform default."""
    if cli_value:
        return Path(cli_value).expanduser().resolve()
    env = os.environ.get(WORKSPACE_ENV)
    if env:
        return Path(env).expanduser().resolve()
    return default_workspace()


@dataclass(frozen=True)
class Paths:
    """Every file and folder the application writes, all below one workspace directory."""

    workspace: Path

    @property
    def config_file(self) -> Path:
        return self.workspace / "config.toml"

    @property
    def heartbeat_file(self) -> Path:
        return self.workspace / "HEARTBEAT.md"

    @property
    def subconscious_dir(self) -> Path:
        return self.workspace / "subconscious"

    @property
    def subconscious_db(self) -> Path:
        return self.subconscious_dir / "subconscious.db"

    @property
    def judgement_db(self) -> Path:
        """The file versions the heartbeat saw, and the user's own task rules."""
        return self.subconscious_dir / "judgement.db"

    @property
    def model_servers_file(self) -> Path:
        """What each OpenAI-compatible model server accepted as a JSON schema, remembered across starts."""
        return self.subconscious_dir / "model_servers.json"

    @property
    def memory_db(self) -> Path:
        """Long-term memory (``memory.open_memory_store``)."""
        return self.workspace / "memory" / "memory.db"

    @property
    def ledger_db(self) -> Path:
        """The agent's run ledger."""
        return self.workspace / "agent" / "ledger.db"

    @property
    def skills_dir(self) -> Path:
        """Reserved for the skills' own state (``skills/NAME/``), made by the skill that needs it."""
        return self.workspace / "skills"

    @property
    def run_dir(self) -> Path:
        return self.workspace / "run"

    @property
    def rpc_file(self) -> Path:
        return self.run_dir / "rpc.json"

    @property
    def webapp_file(self) -> Path:
        """Where the web app's address and token are, while it listens (CONTRACT §9)."""
        return self.run_dir / "webapp.json"

    @property
    def instance_lock(self) -> Path:
        return self.run_dir / "instance.lock"

    @property
    def logs_dir(self) -> Path:
        return self.workspace / "logs"

    @property
    def log_file(self) -> Path:
        return self.logs_dir / "openhuman.log"

    def ensure(self) -> None:
        """Create the workspace and its folders, private to the user (mode 0700).

        Raises:
            WorkspaceUnavailable: a folder cannot be made or made private (read-only disk, disk full, …).
        """
        try:
            for directory in (self.workspace, self.subconscious_dir, self.run_dir, self.logs_dir):
                directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            if stat.S_IMODE(os.stat(self.workspace).st_mode) != 0o700:
                os.chmod(self.workspace, 0o700)
            if os.statvfs(self.workspace).f_flag & os.ST_RDONLY:
                raise OSError(errno.EROFS, "read-only file system", str(self.workspace))
            if not os.access(self.workspace, os.W_OK):
                raise OSError(errno.EACCES, "permission denied", str(self.workspace))
        except OSError as exc:
            raise workspace_error(exc, "use the workspace folder") from exc
