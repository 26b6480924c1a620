"""packaging/build.py: the PyInstaller run gets this checkout first on the path (an editable install of another
checkout must not end up in the bundle), a missing PyInstaller is one sentence with the command that fixes it,
and the size figure counts files, not symlinks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_this_checkout_comes_first_on_the_path(builder: ModuleType) -> None:
    env = builder.build_env({"PYTHONPATH": "/elsewhere", "PYTHONSTARTUP": "/x.py"})
    assert env["PYTHONPATH"].split(os.pathsep) == [str(ROOT), "/elsewhere"]
    assert "PYTHONSTARTUP" not in env
    assert builder.build_env({})["PYTHONPATH"] == str(ROOT)


def test_the_pyinstaller_run_uses_the_spec_and_the_given_folders(builder: ModuleType, tmp_path: Path) -> None:
    command = builder.pyinstaller_command("/venv/bin/python", tmp_path / "dist", tmp_path / "work")
    assert command[:3] == ["/venv/bin/python", "-m", "PyInstaller"]
    assert command[-1] == str(ROOT / "packaging" / "pyinstaller.spec")
    assert ["--distpath", str(tmp_path / "dist")] == command[command.index("--distpath"):][:2]
    assert ["--workpath", str(tmp_path / "work")] == command[command.index("--workpath"):][:2]


def test_without_pyinstaller_it_says_how_to_install_it(builder: ModuleType, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(builder.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(builder.BuildError, match=r"PyInstaller is not installed in .*; install it with: .* -m pip "
                       r"install -e '.*\[package\]'"):
        builder.build(tmp_path / "dist", tmp_path / "work")
    assert not (tmp_path / "dist").exists()


def test_the_size_counts_files_once(builder: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "b" / "_internal").mkdir(parents=True)
    (tmp_path / "b" / "_internal" / "lib.so.6").write_bytes(b"x" * 1500)
    (tmp_path / "b" / "_internal" / "lib.so").symlink_to("lib.so.6")
    (tmp_path / "b" / "openhuman-desktop").write_bytes(b"y" * 500)
    size = builder.bundle_size(tmp_path / "b")
    assert (size.bytes, size.files) == (2000, 2)
    assert size.describe() == "0 MB in 2 files"


def test_the_command_line_fails_in_one_sentence_without_pyinstaller(tmp_path: Path) -> None:
    # -I: an isolated interpreter with no site-packages, so PyInstaller cannot be found
    done = subprocess.run([sys.executable, "-I", "-S", ROOT / "packaging" / "build.py", "--dist", tmp_path],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert done.stderr.startswith("build: PyInstaller is not installed in ") and done.stderr.count("\n") == 1
