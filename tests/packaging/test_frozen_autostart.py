"""Start at login from the installed bundle: the entry starts the bundle's own executable (there is no
``python -m`` in a PyInstaller bundle) and names the icon the install puts in the icon theme."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from openhuman_desktop import autostart

PACKAGING = Path(__file__).resolve().parents[2] / "packaging"


def test_a_bundle_starts_its_own_executable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    bundle_exe = tmp_path / "opt" / "openhuman-desktop" / "openhuman-desktop"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(bundle_exe))
    assert autostart.launch_command(tmp_path / "ws") == [str(bundle_exe), "--workspace", str(tmp_path / "ws")]


def test_from_source_it_is_this_python_and_the_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delattr(sys, "frozen", raising=False)
    assert autostart.launch_command(tmp_path / "ws") == [sys.executable, "-m", "openhuman_desktop", "--workspace",
                                                         str(tmp_path / "ws")]


def test_the_entry_names_the_installed_icon(tmp_path: Path) -> None:
    shipped = (PACKAGING / "linux" / "io.openhuman.Desktop.desktop").read_text(encoding="utf-8")
    [icon] = [line for line in shipped.splitlines() if line.startswith("Icon=")]
    entry = autostart.desktop_entry(["openhuman-desktop"], tmp_path / "ws")
    assert icon in entry.splitlines()
