"""Install the desktop bundle for the current user, or remove it again (Python standard library only).

Usage::

    python3 packaging/install.py install [--bundle dist/openhuman-desktop]
    python3 packaging/install.py uninstall

``install`` puts

- the bundle in ``~/.local/opt/openhuman-desktop/`` (an earlier install is replaced),
- a launcher ``~/.local/bin/openhuman-desktop`` (a symlink to the bundle's executable),
- the menu entry ``$XDG_DATA_HOME/applications/io.openhuman.Desktop.desktop`` (``~/.local/share``), and
- the icon ``$XDG_DATA_HOME/icons/hicolor/scalable/apps/io.openhuman.Desktop.svg``.

``uninstall`` removes exactly those, and the "Start at login" entry when it starts this installed bundle.
Nothing the user made is touched: a file in the way that this script did not write stops it, saying which.
Workspaces (your tasks, logs and config) are never removed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME = "openhuman-desktop"
APP_ID = "io.openhuman.Desktop"
TEMPLATE = ROOT / "packaging" / "linux" / f"{APP_ID}.desktop"
BUNDLE_ICON = Path("_internal") / "openhuman_desktop" / "resources" / "icons" / "app.svg"
SHIPPED_ICON = ROOT / "openhuman_desktop" / "resources" / "icons" / "app.svg"
MARKER = "X-OpenHuman-Bundle"
"""The key in the menu entry that says this script wrote it, and for which bundle folder."""
AUTOSTART_MARKER = "X-OpenHuman-Workspace"  # openhuman_desktop/autostart.py MARKER
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


class InstallError(Exception):
    """The install or uninstall cannot go on; the message says why and what to do."""


@dataclass(frozen=True)
class Layout:
    """Where an install for one user goes."""

    opt: Path
    launcher: Path
    entry: Path
    icon: Path
    autostart: Path

    @property
    def executable(self) -> Path:
        return self.opt / NAME

    @classmethod
    def for_user(cls, environ: Mapping[str, str] | None = None) -> Layout:
        """The XDG locations (an absolute ``XDG_DATA_HOME``/``XDG_CONFIG_HOME`` only, as the spec says)."""
        environ = os.environ if environ is None else environ
        home = Path(environ.get("HOME") or Path.home())

        def xdg(key: str, default: Path) -> Path:
            value = environ.get(key, "")
            return Path(value) if value and os.path.isabs(value) else default

        data = xdg("XDG_DATA_HOME", home / ".local" / "share")
        config = xdg("XDG_CONFIG_HOME", home / ".config")
        return cls(
            opt=home / ".local" / "opt" / NAME,
            launcher=home / ".local" / "bin" / NAME,
            entry=data / "applications" / f"{APP_ID}.desktop",
            icon=data / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg",
            autostart=config / "autostart" / f"{NAME}.desktop",
        )


def exec_argument(argument: str) -> str:
    """One argument of a desktop entry's ``Exec`` key, quoted as the Desktop Entry spec says (like
    ``openhuman_desktop.autostart.exec_argument``)."""
    text = argument.replace("%", "%%")
    if not text or any(ch in _RESERVED for ch in text):
        for ch in ("\\", '"', "`", "$"):
            text = text.replace(ch, "\\" + ch)
        text = f'"{text}"'
    return text.replace("\\", "\\\\")


def menu_entry(template: str, layout: Layout) -> str:
    """The menu entry: the shipped one with ``Exec``/``TryExec`` pointing at the launcher (by its full path:
    ``~/.local/bin`` is often not on the desktop session's PATH) and the marker added."""
    if any(ch in str(layout.launcher) for ch in "\n\r"):
        raise InstallError("The home folder's path contains a line break, which a menu entry cannot hold.")
    lines = []
    for line in template.splitlines():
        if line.startswith("#"):
            continue
        if line.startswith("Exec="):
            line = f"Exec={exec_argument(str(layout.launcher))}"
        elif line.startswith("TryExec="):
            line = f"TryExec={layout.launcher}"
        lines.append(line)
    lines.append(f"{MARKER}={layout.opt}")
    return "\n".join(lines).strip("\n") + "\n"


def is_bundle(folder: Path) -> bool:
    """A folder PyInstaller made from this app: its executable and our package inside."""
    return (folder / NAME).is_file() and (folder / "_internal" / "openhuman_desktop").is_dir()


def _entry_is_ours(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return False
    return any(line.startswith(f"{MARKER}=") for line in text.splitlines())


def _launcher_is_ours(layout: Layout) -> bool:
    return layout.launcher.is_symlink() and Path(os.readlink(layout.launcher)) == layout.executable


def _write(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write ``path`` atomically (a temporary file in the same folder, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def running_from(folder: Path) -> list[int]:
    """The processes whose executable lies in ``folder`` (Linux ``/proc``; elsewhere none are found)."""
    inside = str(folder) + os.sep
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            executable = os.readlink(entry / "exe")
        except OSError:   # gone meanwhile, or another user's
            continue
        if executable.removesuffix(" (deleted)").startswith(inside):
            found.append(int(entry.name))
    return sorted(found)


def check_not_running(layout: Layout) -> None:
    """Refuse to replace or remove the bundle under a running app: it reads its modules and data files from the
    folder as it goes, so it would break mid-session.

    Raises:
        InstallError: it names the processes and what to do.
    """
    if not layout.opt.exists():
        return
    pids = running_from(layout.opt)
    if pids:
        raise InstallError(f"OpenHuman is running from {layout.opt} (process {', '.join(map(str, pids))}); quit it "
                           "(tray menu → Quit) and try again.")


def check_in_the_way(layout: Layout) -> None:
    """Refuse when something this script did not write sits where the install goes.

    Raises:
        InstallError: it names the file and what to do.
    """
    if layout.opt.exists() and not is_bundle(layout.opt):
        raise InstallError(f"{layout.opt} exists and is not an OpenHuman bundle; move it away and install again.")
    if (layout.launcher.exists() or layout.launcher.is_symlink()) and not _launcher_is_ours(layout):
        raise InstallError(f"{layout.launcher} exists and is not this install's launcher (a `pip install --user`?); "
                           "remove it and install again.")
    if layout.entry.exists() and not _entry_is_ours(layout.entry):
        raise InstallError(f"{layout.entry} exists and was not written by this installer; remove it and install again.")


def check_bundle(bundle: Path) -> str:
    """The bundle's ``--version`` line (it must start before it is installed).

    Raises:
        InstallError: not a bundle, or it does not start.
    """
    if not is_bundle(bundle):
        raise InstallError(f"{bundle} is not an OpenHuman bundle; build it first with `python packaging/build.py`.")
    try:
        done = subprocess.run([str(bundle / NAME), "--version"], capture_output=True, text=True, timeout=60,
                              check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InstallError(f"{bundle / NAME} does not start ({exc}); build it again.") from exc
    if done.returncode != 0:
        raise InstallError(f"{bundle / NAME} --version failed (exit {done.returncode}): {done.stderr.strip()[-300:]}")
    return done.stdout.strip()


def copy_bundle(bundle: Path, layout: Layout) -> None:
    """Copy the bundle next to its destination, then swap it in (an earlier install is removed after)."""
    layout.opt.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{NAME}.new-", dir=layout.opt.parent))
    old = layout.opt.parent / f".{NAME}.old-{os.getpid()}"
    try:
        shutil.copytree(bundle, staging / NAME, symlinks=True)
        if layout.opt.exists():
            os.replace(layout.opt, old)
        os.replace(staging / NAME, layout.opt)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)


def refresh_caches(layout: Layout) -> None:
    """Bring the user's icon cache up to date, if there is one (a stale cache hides a new icon; without one,
    GTK reads the folders). The menu entry needs no cache: it declares no MIME types."""
    theme = layout.icon.parents[2]
    if (theme / "icon-theme.cache").exists() and shutil.which("gtk-update-icon-cache"):
        subprocess.run(["gtk-update-icon-cache", "-q", "-t", "-f", str(theme)], check=False, capture_output=True,
                       timeout=60)


def install(bundle: Path, layout: Layout, template: str | None = None) -> list[str]:
    """Install ``bundle``; returns what was put where, one line each.

    Raises:
        InstallError: the bundle is broken, or something not ours is in the way.
    """
    version = check_bundle(bundle)
    check_in_the_way(layout)
    check_not_running(layout)
    icon = (bundle / BUNDLE_ICON).read_bytes()
    copy_bundle(bundle, layout)
    layout.launcher.parent.mkdir(parents=True, exist_ok=True)
    if layout.launcher.is_symlink():
        layout.launcher.unlink()
    layout.launcher.symlink_to(layout.executable)
    _write(layout.icon, icon)
    text = template if template is not None else TEMPLATE.read_text(encoding="utf-8")
    _write(layout.entry, menu_entry(text, layout).encode("utf-8"))
    refresh_caches(layout)
    lines = [f"installed {version} into {layout.opt}", f"launcher {layout.launcher}",
             f"menu entry {layout.entry}", f"icon {layout.icon}"]
    path_dirs = [Path(part) for part in os.environ.get("PATH", "").split(os.pathsep) if part]
    if layout.launcher.parent not in path_dirs:
        lines.append(f"note: {layout.launcher.parent} is not on your PATH; the menu entry works anyway")
    return lines


def autostart_starts_bundle(layout: Layout) -> bool:
    """Whether the "Start at login" entry is the app's own and starts this installed bundle."""
    try:
        text = layout.autostart.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return False
    lines = text.splitlines()
    if not any(line.startswith(f"{AUTOSTART_MARKER}=") for line in lines):
        return False
    execs = [line.removeprefix("Exec=") for line in lines if line.startswith("Exec=")]
    starts = (exec_argument(str(layout.executable)), exec_argument(str(layout.launcher)))
    return any(value == start or value.startswith(start + " ") for value in execs for start in starts)


def _our_icons(layout: Layout) -> list[bytes]:
    """The icon as the installed bundle has it, and as this checkout ships it (the bundle may be gone already)."""
    icons = []
    for path in (layout.opt / BUNDLE_ICON, SHIPPED_ICON):
        with contextlib.suppress(OSError):
            icons.append(path.read_bytes())
    return icons


def uninstall(layout: Layout) -> list[str]:
    """Remove what :func:`install` put in place (only what is ours); returns what was removed.

    Raises:
        InstallError: the installed app is running.
    """
    if is_bundle(layout.opt):
        check_not_running(layout)
    removed = []
    if autostart_starts_bundle(layout):
        layout.autostart.unlink()
        removed.append(f"start at login {layout.autostart}")
    if _entry_is_ours(layout.entry):
        layout.entry.unlink()
        removed.append(f"menu entry {layout.entry}")
    if layout.icon.is_file() and layout.icon.read_bytes() in _our_icons(layout):
        layout.icon.unlink()
        removed.append(f"icon {layout.icon}")
    if _launcher_is_ours(layout):
        layout.launcher.unlink()
        removed.append(f"launcher {layout.launcher}")
    if is_bundle(layout.opt):
        shutil.rmtree(layout.opt)
        removed.append(f"bundle {layout.opt}")
    refresh_caches(layout)
    return removed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    commands = parser.add_subparsers(dest="command", required=True)
    put = commands.add_parser("install", help="install the bundle for this user")
    put.add_argument("--bundle", type=Path, default=ROOT / "dist" / NAME, help="the bundle folder (dist/…)")
    commands.add_parser("uninstall", help="remove it again (workspaces are kept)")
    args = parser.parse_args(argv)
    layout = Layout.for_user()
    try:
        lines = install(args.bundle.resolve(), layout) if args.command == "install" else uninstall(layout)
    except (InstallError, OSError) as exc:
        print(f"{args.command}: {exc}", file=sys.stderr)
        return 1
    if args.command == "uninstall" and not lines:
        lines = ["nothing to remove: OpenHuman is not installed for this user"]
    for line in lines:
        print(f"{args.command}: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
