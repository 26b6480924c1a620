"""Attack: DISPLAY is set but nothing listens there (a stale DISPLAY, an X server that is not running)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.test_startup_failures import REPO_ROOT, gui_env, the_sentence

UNUSED_DISPLAY = ":97"  # no X server of this machine's tests listens on display 97


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
