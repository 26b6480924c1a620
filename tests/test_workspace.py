"""First run: the workspace folder (0700), a commented config.toml and the default HEARTBEAT.md."""

from __future__ import annotations

import errno
import stat
from pathlib import Path

import pytest

from openhuman_desktop import config, workspace
from openhuman_desktop.errors import WorkspaceUnavailable, workspace_error
from openhuman_desktop.paths import Paths
from openhuman_desktop.subconscious import heartbeat_file


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_first_run_creates_everything(paths: Paths) -> None:
    assert not paths.workspace.exists()
    created = workspace.prepare(paths)
    assert sorted(created) == ["HEARTBEAT.md", "config.toml"]
    assert mode(paths.workspace) == 0o700
    for folder in (paths.subconscious_dir, paths.run_dir, paths.logs_dir):
        assert folder.is_dir() and mode(folder) == 0o700
    assert mode(paths.config_file) == 0o600
    assert mode(paths.heartbeat_file) == 0o600


def test_config_is_the_commented_default(paths: Paths) -> None:
    workspace.prepare(paths)
    text = paths.config_file.read_text(encoding="utf-8")
    assert text == config.DEFAULT_CONFIG_TEXT
    assert text.lstrip().startswith("#")
    assert config.load(paths.config_file, {}).settings == config.Settings()


def test_heartbeat_file_is_the_packaged_default(paths: Paths) -> None:
    workspace.prepare(paths)
    packaged = workspace.default_heartbeat_text()
    assert paths.heartbeat_file.read_text(encoding="utf-8") == packaged
    assert paths.heartbeat_file.read_bytes() == packaged.encode("utf-8")
    assert heartbeat_file.parse(packaged) == []
    assert "HEARTBEAT.md" in packaged


def test_existing_files_are_never_overwritten(paths: Paths) -> None:
    paths.workspace.mkdir(parents=True)
    paths.config_file.write_text("[rpc]\nport = 4321\n", encoding="utf-8")
    paths.heartbeat_file.write_text("- My own task\n", encoding="utf-8")
    created = workspace.prepare(paths)
    assert created == []
    assert paths.config_file.read_text(encoding="utf-8") == "[rpc]\nport = 4321\n"
    assert paths.heartbeat_file.read_text(encoding="utf-8") == "- My own task\n"


def test_only_the_missing_file_is_created(paths: Paths) -> None:
    paths.workspace.mkdir(parents=True)
    paths.heartbeat_file.write_text("- Mine\n", encoding="utf-8")
    assert workspace.prepare(paths) == ["config.toml"]
    assert paths.heartbeat_file.read_text(encoding="utf-8") == "- Mine\n"


def test_prepare_twice_is_harmless(paths: Paths) -> None:
    workspace.prepare(paths)
    paths.config_file.write_text("# edited\n", encoding="utf-8")
    assert workspace.prepare(paths) == []
    assert paths.config_file.read_text(encoding="utf-8") == "# edited\n"


def test_an_existing_workspace_is_made_private(paths: Paths) -> None:
    paths.workspace.mkdir(parents=True, mode=0o755)
    paths.workspace.chmod(0o755)
    workspace.prepare(paths)
    assert mode(paths.workspace) == 0o700


def test_a_deleted_heartbeat_file_is_not_recreated_by_a_dangling_link(paths: Paths, tmp_path: Path) -> None:
    """A HEARTBEAT.md symlink to a file that is gone is the user's choice: prepare must not crash on it."""
    paths.workspace.mkdir(parents=True)
    paths.heartbeat_file.symlink_to(tmp_path / "elsewhere" / "HEARTBEAT.md")
    created = workspace.prepare(paths)
    assert "config.toml" in created
    assert paths.heartbeat_file.is_symlink()


def test_nested_workspace_path_is_created(tmp_path: Path) -> None:
    paths = Paths(tmp_path / "a" / "b" / "OpenHuman")
    workspace.prepare(paths)
    assert paths.config_file.is_file() and paths.heartbeat_file.is_file()


# --- start-up failures in words (issue 9, item 16) ----------------------------------------------------


def test_os_errors_become_one_sentence_that_says_disk_full_and_read_only() -> None:
    full = workspace_error(OSError(errno.ENOSPC, "No space left on device", "/ws/config.toml"), "write")
    assert isinstance(full, WorkspaceUnavailable)
    assert str(full).startswith("OpenHuman cannot write /ws/config.toml: ") and "disk full" in str(full)
    assert "No space left" not in str(full)
    read_only = workspace_error(OSError(errno.EROFS, "Read-only file system", "/ws"), "use the workspace folder")
    assert "read-only" in str(read_only) and str(read_only).endswith(".")


def test_a_workspace_whose_folder_is_a_file_is_said_in_words(tmp_path: Path) -> None:
    (tmp_path / "ws").write_text("not a folder", encoding="utf-8")
    with pytest.raises(WorkspaceUnavailable) as caught:  # FileExistsError with a traceback before
        Paths(tmp_path / "ws").ensure()
    assert str(tmp_path / "ws") in str(caught.value)
