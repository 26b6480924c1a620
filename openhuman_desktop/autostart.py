"""Start at login: an XDG autostart entry (``$XDG_CONFIG_HOME/autostart/openhuman-desktop.desktop``, by default
``~/.config/autostart``) that starts this app on this workspace when the user logs in to a freedesktop desktop
(GNOME, KDE Plasma, Xfce, Cinnamon, MATE, LXQt).

Only an entry this app wrote (it carries :data:`MARKER`) is ever changed or removed; one the user wrote by hand
is left alone and reported.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from openhuman_desktop.errors import UserFacingError

FILE_NAME = "openhuman-desktop.desktop"
MARKER = "X-OpenHuman-Workspace"
"""The key that says an autostart entry is ours, and for which workspace."""
ICON_NAME = "io.openhuman.Desktop"
"""The app's icon in the icon theme (``packaging/install.py`` puts it there; the app id, as Qt's desktop file name)."""
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")
_ESCAPED_IN_QUOTES = ("\\", '"', "`", "$")


class AutostartError(UserFacingError):
    """The autostart entry cannot be written or removed; the message says why and what to do."""


def autostart_dir(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME/autostart`` (an absolute ``XDG_CONFIG_HOME`` only, as the spec says), else
    ``~/.config/autostart``."""
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_CONFIG_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path(environ.get("HOME") or Path.home()) / ".config"
    return root / "autostart"


def entry_path(environ: Mapping[str, str] | None = None) -> Path:
    return autostart_dir(environ) / FILE_NAME


def launch_command(workspace: Path) -> list[str]:
    """How the entry starts the app on this workspace: this Python and this package, or, in the installed
    bundle (PyInstaller sets ``sys.frozen``), the bundle's own executable: it has no ``-m``."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "--workspace", str(workspace)]
    return [sys.executable, "-m", "openhuman_desktop", "--workspace", str(workspace)]


def exec_argument(argument: str) -> str:
    """One argument of a desktop entry's ``Exec`` key: quoted where the spec reserves a character, with
    ``\\ " ` $`` escaped inside the quotes and ``%`` doubled (field codes)."""
    text = argument.replace("%", "%%")
    if not text or any(ch in _RESERVED for ch in text):
        for ch in _ESCAPED_IN_QUOTES:
            text = text.replace(ch, "\\" + ch)
        text = f'"{text}"'
    # The value is read as a desktop-entry string first: a backslash is written twice there.
    return text.replace("\\", "\\\\")


def desktop_entry(command: Sequence[str], workspace: Path) -> str:
    """The text of the autostart entry."""
    if any(ch in str(workspace) for ch in "\n\r"):
        raise AutostartError("The workspace path contains a line break, which an autostart entry cannot hold.")
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Name=OpenHuman Desktop",
        "Comment=Your private assistant in the system tray",
        f"Exec={' '.join(exec_argument(arg) for arg in command)}",
        f"Icon={ICON_NAME}",
        "Terminal=false",
        "X-GNOME-Autostart-enabled=true",
        f"{MARKER}={workspace}",
        "",
    ])


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except (FileNotFoundError, NotADirectoryError):  # no entry (a file where the folder would be: none either)
        return None
    except OSError as exc:
        raise AutostartError(f"The autostart entry {path} cannot be read ({exc.strerror}).") from exc


def _is_ours(text: str) -> bool:
    return any(line.startswith(f"{MARKER}=") for line in text.splitlines())


def is_enabled(environ: Mapping[str, str] | None = None) -> bool:
    """Whether an autostart entry of this app is there and not switched off (``Hidden=true``)."""
    try:
        text = _read(entry_path(environ))
    except AutostartError:
        return False
    if text is None or not _is_ours(text):
        return False
    lines = {line.strip().lower() for line in text.splitlines()}
    return "hidden=true" not in lines and "x-gnome-autostart-enabled=false" not in lines


def enable(workspace: Path, environ: Mapping[str, str] | None = None) -> Path:
    """Write the entry (atomically; mode 0644, as desktops expect) and return its path.

    Raises:
        AutostartError: the folder cannot be made or written, or an entry the user wrote is in the way.
    """
    path = entry_path(environ)
    existing = _read(path)
    if existing is not None and not _is_ours(existing):
        raise AutostartError(f"{path} exists and was not written by OpenHuman; remove or rename it first.")
    text = desktop_entry(launch_command(workspace), workspace)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(prefix=".openhuman-", suffix=".desktop", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
            os.chmod(temporary, 0o644)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise AutostartError(f"Start at login could not be turned on: {path.parent} is not writable "
                             f"({exc.strerror}).") from exc
    return path


def disable(environ: Mapping[str, str] | None = None) -> bool:
    """Remove this app's entry; returns whether there was one.

    Raises:
        AutostartError: an entry the user wrote is there (it is left alone), or it cannot be removed.
    """
    path = entry_path(environ)
    existing = _read(path)
    if existing is None:
        return False
    if not _is_ours(existing):
        raise AutostartError(f"{path} was not written by OpenHuman and is left alone; remove it yourself to "
                             "stop it starting at login.")
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise AutostartError(f"Start at login could not be turned off: {path} cannot be removed "
                             f"({exc.strerror}).") from exc
    return True
