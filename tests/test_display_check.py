"""The GUI with DISPLAY set to a display nobody serves (found by the issue-9 attack: a stale DISPLAY made Qt
abort with exit 134, blaming libxcb-cursor0): one sentence, exit 2; and the X server probe itself."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from openhuman_desktop.qt import x11
from openhuman_desktop.qt.x11 import display_problem
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
        # the display alone: whether this machine has Qt's X libraries is the tests below
        assert display_problem({"DISPLAY": ":5"}, platform="linux", missing=list) is None


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


# --- Qt's X libraries (a minimal Debian lacked libxcb-icccm4 and libxcb-keysyms1; Qt blamed libxcb-cursor0) ---

LACKING = [("libxcb-icccm.so.4", "libxcb-icccm4"), ("libxcb-keysyms.so.1", "libxcb-keysyms1")]


def test_missing_x_libraries_are_named_with_their_debian_packages(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(x11, "X11_SOCKET_DIR", str(tmp_path))
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(tmp_path / "X5"))
        server.listen(1)
        problem = display_problem({"DISPLAY": ":5"}, platform="linux", missing=lambda: LACKING)
    assert problem is not None
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1" in problem and "--headless" in problem
    assert "libxcb-cursor0" not in problem and problem.count(". ") == 0 and problem.endswith(".")   # one sentence
    # Not when Qt will not use X11: Wayland, or another platform asked for.
    for environ in ({"DISPLAY": ":5", "WAYLAND_DISPLAY": "wayland-0"},
                    {"DISPLAY": ":5", "QT_QPA_PLATFORM": "offscreen"},
                    {"DISPLAY": ":5", "QT_QPA_PLATFORM": "wayland;xcb"}):
        assert display_problem(environ, platform="linux", missing=lambda: LACKING) is None, environ
    assert x11.will_use_xcb({"QT_QPA_PLATFORM": "xcb:nograb", "WAYLAND_DISPLAY": "wayland-0"}, platform="linux")
    assert not x11.will_use_xcb({}, platform="darwin")


def test_the_libraries_are_looked_for_with_the_dynamic_loader() -> None:
    found = x11.missing_libraries((("libc.so.6", "libc6"), ("libxcb-openhuman-test.so.9", "libxcb-openhuman-test9")))
    assert found == [("libxcb-openhuman-test.so.9", "libxcb-openhuman-test9")]


GUI_WITHOUT_A_LIBRARY = r"""
import socket, sys
from openhuman_desktop import __main__ as cli
from openhuman_desktop.qt import x11
folder, workspace = sys.argv[1], sys.argv[2]
x11.X11_SOCKET_DIR = folder
x11.XCB_LIBRARIES = x11.XCB_LIBRARIES + (("libxcb-openhuman-test.so.9", "libxcb-openhuman-test9"),)
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(folder + "/X5")
server.listen(1)
code = cli.main(["--workspace", workspace])
print("qt-loaded" if any(name.startswith("PySide6") for name in sys.modules) else "qt-not-loaded")
sys.exit(code)
"""


@pytest.mark.e2e
def test_the_gui_without_a_library_of_qts_x11_support_says_which_package_and_exits_2(tmp_path: Path) -> None:
    env = gui_env(DISPLAY=":5", WAYLAND_DISPLAY=None, QT_QPA_PLATFORM=None)
    done = subprocess.run(
        [sys.executable, "-c", GUI_WITHOUT_A_LIBRARY, str(tmp_path), str(tmp_path / "ws")],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL, check=False,
    )
    assert done.returncode == 2, done.stderr
    sentence = the_sentence(done.stderr)
    # (on a machine without the real X libraries they are named too: the test's own one must be among them)
    assert "libxcb-openhuman-test.so.9" in sentence
    assert re.search(r"apt-get install [\w -]*libxcb-openhuman-test9`", sentence), sentence
    assert done.stdout.strip() == "qt-not-loaded"      # said before Qt was loaded at all
