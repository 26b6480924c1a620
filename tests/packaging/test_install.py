"""packaging/install.py for one user: the bundle, the launcher, the menu entry and the icon go where a
freedesktop desktop finds them, an upgrade replaces the earlier install, uninstall removes exactly that (and
the "Start at login" entry of this bundle), and nothing the user made is ever overwritten or removed."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from openhuman_desktop import autostart

ROOT = Path(__file__).resolve().parents[2]
ICON = (ROOT / "openhuman_desktop" / "resources" / "icons" / "app.svg").read_bytes()


def fake_bundle(folder: Path, version: str = "0.1.0") -> Path:
    """A folder shaped like PyInstaller's output whose executable answers --version."""
    (folder / "_internal" / "openhuman_desktop" / "resources" / "icons").mkdir(parents=True)
    (folder / "_internal" / "openhuman_desktop" / "resources" / "icons" / "app.svg").write_bytes(ICON)
    executable = folder / "openhuman-desktop"
    executable.write_text(f"#!/bin/sh\necho openhuman-desktop {version}\n", encoding="utf-8")
    executable.chmod(0o755)
    return folder


@pytest.fixture
def environ(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home dir"  # a space: the Exec key must quote it
    return {"HOME": str(home), "XDG_DATA_HOME": str(home / ".local" / "share"),
            "XDG_CONFIG_HOME": str(home / ".config"), "PATH": os.environ.get("PATH", "")}


@pytest.fixture
def layout(installer: ModuleType, environ: dict[str, str]) -> Any:
    return installer.Layout.for_user(environ)


def test_install_puts_everything_where_the_desktop_finds_it(installer: ModuleType, layout: Any,
                                                            tmp_path: Path, environ: dict[str, str]) -> None:
    home = Path(environ["HOME"])
    lines = installer.install(fake_bundle(tmp_path / "dist"), layout)
    assert lines[0] == f"installed openhuman-desktop 0.1.0 into {home / '.local/opt/openhuman-desktop'}"
    launcher = home / ".local" / "bin" / "openhuman-desktop"
    assert subprocess.run([launcher], capture_output=True, text=True, check=True).stdout == \
        "openhuman-desktop 0.1.0\n"
    assert os.readlink(launcher) == str(home / ".local" / "opt" / "openhuman-desktop" / "openhuman-desktop")
    icon = home / ".local" / "share" / "icons" / "hicolor" / "scalable" / "apps" / "io.openhuman.Desktop.svg"
    assert icon.read_bytes() == ICON
    entry = home / ".local" / "share" / "applications" / "io.openhuman.Desktop.desktop"
    text = entry.read_text(encoding="utf-8")
    assert stat.S_IMODE(entry.stat().st_mode) == 0o644
    assert text.startswith("[Desktop Entry]\n")
    assert f'Exec="{launcher}"\n' in text and f"TryExec={launcher}\n" in text
    assert "Icon=io.openhuman.Desktop\n" in text and "Name=OpenHuman\n" in text


def test_an_upgrade_replaces_the_earlier_bundle(installer: ModuleType, layout: Any, tmp_path: Path) -> None:
    installer.install(fake_bundle(tmp_path / "old"), layout)
    (layout.opt / "_internal" / "left-over-from-0.1").write_text("x", encoding="utf-8")
    installer.install(fake_bundle(tmp_path / "new", "0.2.0"), layout)
    assert not (layout.opt / "_internal" / "left-over-from-0.1").exists()
    done = subprocess.run([layout.launcher], capture_output=True, text=True, check=True)
    assert done.stdout == "openhuman-desktop 0.2.0\n"
    assert [p.name for p in layout.opt.parent.iterdir()] == ["openhuman-desktop"]


def test_uninstall_removes_exactly_what_install_put(installer: ModuleType, layout: Any, tmp_path: Path,
                                                    environ: dict[str, str]) -> None:
    home = Path(environ["HOME"])
    workspace = home / ".local" / "share" / "OpenHuman"
    workspace.mkdir(parents=True)
    (workspace / "config.toml").write_text("# mine\n", encoding="utf-8")
    installer.install(fake_bundle(tmp_path / "dist"), layout)
    removed = installer.uninstall(layout)
    assert len(removed) == 4
    leftovers = sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file() or p.is_symlink())
    assert leftovers == [".local/share/OpenHuman/config.toml"]
    assert installer.uninstall(layout) == []


def test_uninstall_removes_start_at_login_of_this_bundle_only(installer: ModuleType, layout: Any,
                                                               tmp_path: Path, environ: dict[str, str],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    installer.install(fake_bundle(tmp_path / "dist"), layout)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(layout.executable))
    entry = autostart.enable(tmp_path / "ws", environ)  # what the tray's "Start at login" writes in the bundle
    assert installer.autostart_starts_bundle(layout)
    assert f"start at login {entry}" in installer.uninstall(layout)
    assert not entry.exists()

    monkeypatch.setattr(sys, "frozen", False)
    monkeypatch.setattr(sys, "executable", "/usr/bin/python3")  # from source: not this install's to remove
    installer.install(fake_bundle(tmp_path / "dist2"), layout)
    autostart.enable(tmp_path / "ws", environ)
    installer.uninstall(layout)
    assert autostart.is_enabled(environ)


def test_nothing_the_user_made_is_overwritten(installer: ModuleType, layout: Any, tmp_path: Path) -> None:
    launcher = layout.launcher
    launcher.parent.mkdir(parents=True)
    launcher.write_text("#!/bin/sh\n# pip install --user put me here\n", encoding="utf-8")
    with pytest.raises(installer.InstallError, match=r"openhuman-desktop exists and is not this install's launcher"):
        installer.install(fake_bundle(tmp_path / "dist"), layout)
    assert not layout.opt.exists()  # (refused before anything was copied)
    assert "pip install --user" in launcher.read_text(encoding="utf-8")
    launcher.unlink()

    entry = layout.entry
    entry.parent.mkdir(parents=True)
    entry.write_text("[Desktop Entry]\nName=My own\n", encoding="utf-8")
    with pytest.raises(installer.InstallError, match="was not written by this installer"):
        installer.install(fake_bundle(tmp_path / "dist2"), layout)
    assert installer.uninstall(layout) == []
    assert entry.read_text(encoding="utf-8") == "[Desktop Entry]\nName=My own\n"


def test_a_folder_that_is_not_a_bundle_is_refused(installer: ModuleType, layout: Any, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(installer.InstallError, match="is not an OpenHuman bundle; build it first"):
        installer.install(tmp_path / "empty", layout)


def test_the_command_line_installs_and_uninstalls(tmp_path: Path, environ: dict[str, str]) -> None:
    script = ROOT / "packaging" / "install.py"
    bundle = fake_bundle(tmp_path / "dist")
    done = subprocess.run([sys.executable, script, "install", "--bundle", bundle], env=environ, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "install: launcher " in done.stdout
    again = subprocess.run([sys.executable, script, "uninstall"], env=environ, capture_output=True, text=True,
                           check=False)
    assert again.returncode == 0 and "uninstall: bundle " in again.stdout
    nothing = subprocess.run([sys.executable, script, "uninstall"], env=environ, capture_output=True, text=True,
                             check=False)
    assert nothing.stdout == "uninstall: nothing to remove: OpenHuman is not installed for this user\n"


def test_a_users_icon_cache_is_brought_up_to_date_and_none_is_made(installer: ModuleType, layout: Any,
                                                                   tmp_path: Path) -> None:
    if not shutil.which("gtk-update-icon-cache"):
        pytest.skip("gtk-update-icon-cache is not installed")
    cache = layout.icon.parents[2] / "icon-theme.cache"
    layout.icon.parent.mkdir(parents=True)
    (layout.icon.parent / "another-app.svg").write_bytes(ICON)  # the user has other apps' icons there
    installer.install(fake_bundle(tmp_path / "dist"), layout)
    assert not cache.exists()  # none before: GTK reads the folder, and none is made
    subprocess.run(["gtk-update-icon-cache", "-q", "-t", "-f", cache.parent], check=True)  # the user makes one
    assert b"io.openhuman.Desktop" in cache.read_bytes()
    installer.uninstall(layout)
    assert b"io.openhuman.Desktop" not in cache.read_bytes()  # a stale cache would still list the icon
    assert b"another-app" in cache.read_bytes()
    installer.install(fake_bundle(tmp_path / "dist2"), layout)
    assert b"io.openhuman.Desktop" in cache.read_bytes()
