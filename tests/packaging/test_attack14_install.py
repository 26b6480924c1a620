"""Attack on packaging/install.py: an upgrade or uninstall while the installed app runs."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.packaging.test_install import environ, fake_bundle, layout  # noqa: F401  (fixtures)


@pytest.fixture
def running_app(installer: ModuleType, layout: Any, tmp_path: Path) -> Iterator[subprocess.Popen[bytes]]:  # noqa: F811
    """The installed bundle with a program of it running (a copy of sleep inside the bundle folder stands in for
    the app: its /proc/<pid>/exe is in the bundle, as the tray app's is)."""
    installer.install(fake_bundle(tmp_path / "dist"), layout)
    sleeper = layout.opt / "_internal" / "sleep"
    sleep = shutil.which("sleep")
    assert sleep is not None
    shutil.copy2(sleep, sleeper)
    process = subprocess.Popen([str(sleeper), "60"])
    try:
        yield process
    finally:
        process.kill()
        process.wait(5)


def test_an_upgrade_while_the_installed_app_runs_is_refused_until_it_quits(
        installer: ModuleType, layout: Any, tmp_path: Path, running_app: subprocess.Popen[bytes]) -> None:  # noqa: F811
    """PyInstaller's app reads its modules and data from the bundle folder as it goes (opening Settings imports
    it then): swapping the folder under a running app broke it mid-session. Say so and change nothing."""
    before = sorted(p.name for p in layout.opt.iterdir())
    with pytest.raises(installer.InstallError, match=r"is running .*quit it .* and try again"):
        installer.install(fake_bundle(tmp_path / "new", "0.2.0"), layout)
    assert sorted(p.name for p in layout.opt.iterdir()) == before
    with pytest.raises(installer.InstallError, match=r"is running"):
        installer.uninstall(layout)
    assert installer.is_bundle(layout.opt) and layout.launcher.is_symlink()
    running_app.kill()
    running_app.wait(5)
    installer.install(fake_bundle(tmp_path / "new2", "0.2.0"), layout)
    done = subprocess.run([layout.launcher], capture_output=True, text=True, check=True)
    assert done.stdout == "openhuman-desktop 0.2.0\n"


def test_uninstall_after_the_bundle_folder_was_deleted_by_hand_leaves_no_icon(
        installer: ModuleType, layout: Any, tmp_path: Path, environ: dict[str, str]) -> None:  # noqa: F811
    """rm -rf ~/.local/opt/openhuman-desktop, then uninstall: the menu entry and launcher went, but our icon
    stayed in the user's hicolor theme for good (it was only recognised by comparing it with the bundle's)."""
    installer.install(fake_bundle(tmp_path / "dist"), layout)
    shutil.rmtree(layout.opt)
    removed = installer.uninstall(layout)
    assert f"icon {layout.icon}" in removed
    home = Path(environ["HOME"])
    assert [p for p in home.rglob("*") if p.is_file() or p.is_symlink()] == []
