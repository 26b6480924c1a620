"""The GUI with DISPLAY set to a display nobody serves (found by the issue-9 attack: a stale DISPLAY made Qt
abort with exit 134, blaming libxcb-cursor0): one sentence, exit 2; and the X server probe itself."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from openhuman_desktop.qt import x11
from openhuman_desktop.qt.app import display_problem
from tests.e2e.test_startup_failures import REPO_ROOT, gui_env, the_sentence

UNUSED_DISPLAY = ":97"  # no X server of this machine's tests listens on display 97


@pytest.mark.e2e
def test_the_gui_with_an_unreachable_display_says_what_to_do(tmp_path: Path) -> None:
    env = gui_env(DISPLAY=UNUSED_DISPLAY, WAYLAND_DISPLAY=None, QT_QPA_PLATFORM=None)
    done = subprocess.run(
        [sys.executable, "-m", "openhuman_desktop", "--workspace", str(tmp_path / "ws")],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False,
    )
    assert done.returncode == 2, done.stderr
    sentence = the_sentence(done.stderr)
    assert "--headless" in sentence and UNUSED_DISPLAY in sentence
    assert "xcb" not in done.stderr


@pytest.mark.parametrize(("value", "parsed"), [
    (":0", ("", 0)), (":1.0", ("", 1)), ("unix:2", ("unix", 2)), ("localhost:10.0", ("localhost", 10)),
    ("/private/tmp/com.apple.launchd.x/org.xquartz:0", None), ("nonsense", None), (":x", None),
])
def test_display_values_are_read(value: str, parsed: tuple[str, int] | None) -> None:
    assert x11.display_number(value) == parsed


def test_a_listening_unix_socket_is_a_reachable_display(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(x11, "X11_SOCKET_DIR", str(tmp_path))
    assert not x11.reachable(":5") or _abstract_x5_exists()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(tmp_path / "X5"))
        server.listen(1)
        assert x11.reachable(":5")
        assert display_problem({"DISPLAY": ":5"}, platform="linux") is None


def _abstract_x5_exists() -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(b"\0/tmp/.X11-unix/X5")
        except OSError:
            return False
        return True


def test_a_tcp_display(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        monkeypatch.setattr(x11, "X11_TCP_BASE", port - 3)
        assert x11.reachable("127.0.0.1:3")
    assert not x11.reachable("127.0.0.1:3")


def test_an_unreachable_display_is_said_and_others_are_left_to_qt() -> None:
    problem = display_problem({"DISPLAY": UNUSED_DISPLAY}, platform="linux")
    assert problem is not None and UNUSED_DISPLAY in problem and "--headless" in problem
    assert display_problem({"DISPLAY": UNUSED_DISPLAY, "QT_QPA_PLATFORM": "offscreen"}, platform="linux") is None
    assert display_problem({"DISPLAY": UNUSED_DISPLAY}, platform="darwin") is None
    assert display_problem({}, platform="linux") is not None
