"""Whether the X server that ``DISPLAY`` names answers, checked before Qt (which aborts the process when it
cannot connect, exit 134, blaming a missing ``libxcb-cursor0``)."""

from __future__ import annotations

import contextlib
import socket
import sys

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
