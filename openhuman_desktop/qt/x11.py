"""What the X11 window needs, checked before Qt starts (Qt aborts the process, exit 134, blaming a missing
``libxcb-cursor0``, whatever is wrong): that the X server ``DISPLAY`` names answers, and that the libraries of
Qt's xcb platform plugin are installed. Nothing of Qt is imported here."""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import os
import socket
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

X11_SOCKET_DIR = "/tmp/.X11-unix"
X11_TCP_BASE = 6000
CONNECT_TIMEOUT = 2.0


def display_number(display: str) -> tuple[str, int] | None:
    """``(host, number)`` of a ``DISPLAY`` value such as ``:0``, ``:1.0``, ``unix:0`` or ``localhost:10.0``;
    None for a form this check does not know (a path, as macOS's XQuartz uses): Qt is left to try it."""
    text = display.strip()
    if text.startswith("/"):
        return None
    host, colon, rest = text.rpartition(":")
    number = rest.split(".", 1)[0]
    if not colon or not number.isdigit():
        return None
    return host, int(number)


def _connects(family: int, address: str | bytes | tuple[str, int]) -> bool:
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_STREAM) as sock:
        sock.settimeout(CONNECT_TIMEOUT)
        sock.connect(address)
        return True
    return False


def reachable(display: str) -> bool:
    """Whether something accepts connections where ``display`` points (True for forms not understood)."""
    parsed = display_number(display)
    if parsed is None:
        return True
    host, number = parsed
    if host in ("", "unix"):
        path = f"{X11_SOCKET_DIR}/X{number}"
        candidates: list[str | bytes] = [path]
        if sys.platform.startswith("linux"):
            candidates.append(b"\0" + path.encode())  # the abstract socket Xorg also listens on
        return any(_connects(socket.AF_UNIX, address) for address in candidates)
    return _connects(socket.AF_INET6 if ":" in host else socket.AF_INET,
                     (host.strip("[]"), X11_TCP_BASE + number))


# --- the libraries Qt's xcb platform plugin needs -------------------------------------------------------

# What libqxcb.so and libQt6XcbQpa.so.6 are linked against (readelf -d, PySide6 6.7–6.11), with the Debian
# (and Ubuntu) package of each. When one is missing Qt aborts the process (exit 134) and names libxcb-cursor0,
# whichever it was: a minimal Debian lacked libxcb-icccm4 and libxcb-keysyms1, and had libxcb-cursor0.
XCB_LIBRARIES = (
    ("libxcb.so.1", "libxcb1"), ("libX11.so.6", "libx11-6"), ("libX11-xcb.so.1", "libx11-xcb1"),
    ("libxcb-cursor.so.0", "libxcb-cursor0"), ("libxcb-icccm.so.4", "libxcb-icccm4"),
    ("libxcb-image.so.0", "libxcb-image0"), ("libxcb-keysyms.so.1", "libxcb-keysyms1"),
    ("libxcb-randr.so.0", "libxcb-randr0"), ("libxcb-render.so.0", "libxcb-render0"),
    ("libxcb-render-util.so.0", "libxcb-render-util0"), ("libxcb-shape.so.0", "libxcb-shape0"),
    ("libxcb-shm.so.0", "libxcb-shm0"), ("libxcb-sync.so.1", "libxcb-sync1"), ("libxcb-util.so.1", "libxcb-util1"),
    ("libxcb-xfixes.so.0", "libxcb-xfixes0"), ("libxcb-xkb.so.1", "libxcb-xkb1"),
    ("libxkbcommon.so.0", "libxkbcommon0"), ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
    ("libGL.so.1", "libgl1"), ("libglib-2.0.so.0", "libglib2.0-0"), ("libgthread-2.0.so.0", "libglib2.0-0"),
)


def will_use_xcb(environ: Mapping[str, str], platform: str | None = None) -> bool:
    """Whether Qt will show the window through X11 (xcb): on Linux and the BSDs, when ``QT_QPA_PLATFORM``
    says xcb first, or says nothing and there is no Wayland display."""
    if (platform or sys.platform).startswith(("win32", "cygwin", "darwin")):
        return False
    chosen = environ.get("QT_QPA_PLATFORM", "").strip()
    if chosen:
        return chosen.split(";", 1)[0].split(":", 1)[0].strip() == "xcb"
    return not environ.get("WAYLAND_DISPLAY", "").strip()


def _bundled_dirs() -> list[Path]:
    """Where a bundle or the PySide6 wheel may carry libraries of their own (searched after the system's)."""
    dirs: list[Path] = []
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen:
        dirs += [Path(frozen), Path(frozen) / "PySide6" / "Qt" / "lib"]
    spec = importlib.util.find_spec("PySide6")   # where the package is; nothing of Qt is loaded
    if spec is not None and spec.submodule_search_locations:
        dirs += [Path(location) / "Qt" / "lib" for location in spec.submodule_search_locations]
    return dirs


def _loads(name: str, dirs: Sequence[Path]) -> bool:
    try:
        ctypes.CDLL(name)
        return True
    except OSError:
        return any((folder / name).is_file() for folder in dirs)


def missing_libraries(libraries: Sequence[tuple[str, str]] | None = None) -> list[tuple[str, str]]:
    """The (library, Debian package) pairs of ``libraries`` (by default ``XCB_LIBRARIES``) the dynamic loader
    cannot find (dlopen by name, as Qt's plugin would be linked; a bundle's own folders count too)."""
    dirs = _bundled_dirs()
    wanted = XCB_LIBRARIES if libraries is None else libraries
    return [(name, package) for name, package in wanted if not _loads(name, dirs)]


def libraries_problem(missing: Sequence[tuple[str, str]]) -> str:
    """One sentence naming what is missing and the Debian packages that bring it."""
    packages = " ".join(dict.fromkeys(package for _name, package in missing))
    names = ", ".join(name for name, _package in missing)
    return (f"The window cannot open: Qt's X11 support needs libraries that are not installed ({names}); on Debian "
            f"or Ubuntu install them with `sudo apt-get install {packages}`, or run `openhuman-desktop "
            "--headless` to use OpenHuman without a window.")


# --- the question start-up asks -------------------------------------------------------------------------


NO_DISPLAY = (
    "There is no display to show the tray app on (neither DISPLAY nor WAYLAND_DISPLAY is set); run "
    "`openhuman-desktop --headless` to use OpenHuman without a window, or set DISPLAY to your screen."
)


def display_problem(environ: Mapping[str, str] | None = None, platform: str | None = None,
                    missing: Callable[[], Sequence[tuple[str, str]]] | None = None) -> str | None:
    """Why the GUI cannot start here, checked before Qt aborts the process (exit 134, blaming libxcb-cursor0).

    When Qt will use X11 (xcb): a display must be set and answer, and the xcb plugin's libraries (``missing``)
    must be installed. Wayland and a ``QT_QPA_PLATFORM`` other than xcb are left to Qt.

    Returns:
        One sentence, or None when nothing is known to be in the way.
    """
    environ = os.environ if environ is None else environ
    if not will_use_xcb(environ, platform):
        return None
    display = environ.get("DISPLAY", "").strip()
    if not display:
        return NO_DISPLAY
    if not reachable(display):
        return (f"The display {display} (DISPLAY) does not answer — the X server is not running there, or "
                "DISPLAY is left over from another session; run `openhuman-desktop --headless` to use OpenHuman "
                "without a window, or set DISPLAY to your screen.")
    lacking = missing_libraries() if missing is None else missing()
    return libraries_problem(lacking) if lacking else None
