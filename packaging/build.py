"""Build the one-folder desktop bundle (``dist/openhuman-desktop/``) with PyInstaller from the running Python.

Usage::

    .venv/bin/pip install -e '.[package]'      # once: PyInstaller into the venv the app runs from
    .venv/bin/python packaging/build.py        # → dist/openhuman-desktop/openhuman-desktop
    .venv/bin/python packaging/build.py --install   # and install it for this user (packaging/install.py)

The bundle holds this checkout's ``openhuman_desktop`` and the packages of the Python that runs this script.
``packaging/smoke.py`` then starts it to prove it works; ``packaging/install.py`` installs it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "pyinstaller.spec"
NAME = "openhuman-desktop"


class BuildError(Exception):
    """The bundle could not be built; the message says why and what to do."""


@dataclass(frozen=True)
class BundleSize:
    """How big a bundle folder is on disk."""

    bytes: int
    files: int

    @property
    def megabytes(self) -> float:
        return self.bytes / 1_000_000

    def describe(self) -> str:
        return f"{self.megabytes:.0f} MB in {self.files} files"


def bundle_size(folder: Path) -> BundleSize:
    """The apparent size of every regular file under ``folder`` (symlinks are not followed or counted)."""
    total = files = 0
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            total += path.stat().st_size
            files += 1
    return BundleSize(total, files)


def pyinstaller_command(python: str, dist: Path, work: Path) -> list[str]:
    """The PyInstaller run that builds the bundle into ``dist/openhuman-desktop``."""
    return [python, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
            "--distpath", str(dist), "--workpath", str(work), str(SPEC)]


def build_env(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of the PyInstaller run: this checkout first on ``PYTHONPATH`` (an editable install of
    another checkout must not end up in the bundle)."""
    env = dict(os.environ if environ is None else environ)
    env["PYTHONPATH"] = os.pathsep.join(part for part in (str(ROOT), env.get("PYTHONPATH", "")) if part)
    env.pop("PYTHONSTARTUP", None)
    return env


def build(dist: Path, work: Path, python: str = sys.executable) -> Path:
    """Build the bundle and return its folder.

    Raises:
        BuildError: PyInstaller is missing or failed, or the bundle has no executable.
    """
    if python == sys.executable and importlib.util.find_spec("PyInstaller") is None:
        raise BuildError(f"PyInstaller is not installed in {sys.prefix}; install it with: "
                         f"{shlex.quote(python)} -m pip install -e '{ROOT}[package]'")
    command = pyinstaller_command(python, dist, work)
    done = subprocess.run(command, cwd=ROOT, env=build_env(), check=False)
    if done.returncode != 0:
        raise BuildError(f"PyInstaller failed (exit code {done.returncode}); its messages are above.")
    folder = dist / NAME
    if not (folder / NAME).is_file():
        raise BuildError(f"PyInstaller finished but {folder / NAME} is missing.")
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="where the bundle folder goes (dist/)")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "pyinstaller", help="PyInstaller's work folder")
    parser.add_argument("--install", action="store_true", help="then install it for this user (packaging/install.py)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    try:
        folder = build(args.dist.resolve(), args.work.resolve())
    except BuildError as exc:
        print(f"build: {exc}", file=sys.stderr)
        return 1
    print(f"build: {folder} ({bundle_size(folder).describe()}) in {time.monotonic() - started:.0f} s", flush=True)
    if args.install:
        return subprocess.run([sys.executable, str(ROOT / "packaging" / "install.py"), "install", "--bundle",
                               str(folder)], check=False).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
