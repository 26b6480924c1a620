"""``doctor``'s workspace line and the app's own files (``app_files``): a private one that a link takes out of
the private workspace to a place other users can read is a failure with its fix."""

from __future__ import annotations

from pathlib import Path

from openhuman_desktop.doctor import check_workspace
from openhuman_desktop.paths import Paths


def make_workspace(tmp_path: Path) -> Paths:
    paths = Paths(tmp_path / "ws")
    paths.ensure()
    return paths


def test_a_private_folder_linked_to_a_shared_place_fails_with_its_fix(tmp_path: Path) -> None:
    paths = make_workspace(tmp_path)
    shared = tmp_path / "shared-logs"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    paths.logs_dir.rmdir()
    paths.logs_dir.symlink_to(shared, target_is_directory=True)

    check = check_workspace(paths)

    assert not check.ok
    assert check.line() == (f"FAIL workspace: logs/ leads outside the workspace to {shared}, which other users can "
                            f"read (mode 755) — fix: chmod 700 {shared}, or move it back into {paths.workspace}")
    shared.chmod(0o700)
    assert check_workspace(paths).ok, "private again"


def test_a_private_file_linked_out_fails_and_the_users_own_links_do_not(tmp_path: Path) -> None:
    paths = make_workspace(tmp_path)
    outside = tmp_path / "dotfiles"
    outside.mkdir()
    (outside / "config.toml").write_text("[heartbeat]\n", encoding="utf-8")
    (outside / "config.toml").chmod(0o644)
    (outside / "notes").mkdir(mode=0o755)
    (paths.workspace / "notes").symlink_to(outside / "notes")  # the user's, not the app's
    (paths.workspace / "HEARTBEAT.md").symlink_to(outside / "config.toml")  # readable by tools anyway
    assert check_workspace(paths).ok

    paths.config_file.symlink_to(outside / "config.toml")

    check = check_workspace(paths)
    assert not check.ok and "config.toml leads outside the workspace" in check.detail and "mode 644" in check.detail
    assert check.fix.startswith(f"chmod 600 {outside / 'config.toml'}")
