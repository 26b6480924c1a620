"""Windows the tray opens are whole on a screen's free area: on a small screen (the offscreen platform's
800 × 600), with several screens and with a screen unplugged since (a process with two offscreen screens)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop import config
from openhuman_desktop.qt.intelligence import IntelligenceWindow

REPO = Path(__file__).resolve().parents[2]


def is_whole_on_its_screen(window: Any) -> bool:
    screen = window.screen()
    return screen is not None and screen.availableGeometry().contains(window.frameGeometry())


def test_the_intelligence_window_fits_a_small_screen_and_comes_back_on_it(fake_window: IntelligenceWindow,
                                                                          qtbot: Any) -> None:
    fake_window.hide()
    fake_window.bring_to_front()       # as the tray's "Open Intelligence" does: larger than 800 × 600 by design
    qtbot.wait_until(lambda: fake_window.isVisible())
    assert is_whole_on_its_screen(fake_window), (fake_window.frameGeometry(), fake_window.screen().availableGeometry())
    fake_window.hide()
    fake_window.move(-400, 300)        # left partly off the screen (a window manager, a smaller screen since)
    fake_window.bring_to_front()
    assert is_whole_on_its_screen(fake_window), fake_window.frameGeometry()


@pytest.fixture
def make_windows(qrun: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """``make_windows()``: the Settings window and the set-up window (no model server asked), closed after."""
    from openhuman_desktop.qt.onboarding.window import OnboardingWindow
    from openhuman_desktop.qt.settings import SettingsWindow

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    path = tmp_path / "config.toml"
    path.write_text(config.DEFAULT_CONFIG_TEXT, encoding="utf-8")
    settings = config.load(path, environ={}).settings
    windows: list[Any] = []

    async def no_servers(*_args: Any, **_kwargs: Any) -> list[Any]:
        return []

    async def no_models(*_args: Any, **_kwargs: Any) -> list[Any]:
        return []

    def make() -> list[Any]:
        windows.extend([SettingsWindow(path, workspace=tmp_path / "workspace", lister=no_models),
                        OnboardingWindow(lambda: settings, path, environ={}, discover=no_servers)])
        return windows

    yield make
    for window in windows:
        qrun(window.aclose())
        window.hide()
        window.deleteLater()


# The offscreen platform cannot pass a top-level window's new minimum size on (the small screen shrinks it).
@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_the_settings_and_set_up_windows_fit_a_small_screen(qtbot: Any, tmp_path: Path,
                                                           make_windows: Callable[[], list[Any]]) -> None:
    for window in make_windows():
        window.resize(1400, 1000)
        window.bring_to_front()
        assert is_whole_on_its_screen(window), (type(window).__name__, window.frameGeometry())


SCRIPT = r"""
import json, sys
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QWidget
from openhuman_desktop.qt.placement import bring_to_front
app = QApplication([])
results = {}

def place(name, size, where=None, cursor=QPoint(100, 100)):
    window = QWidget()
    window.resize(*size)
    if where is not None:        # where it was when it was last shown
        bring_to_front(window, cursor)
        window.hide()
        window.move(*where)
    bring_to_front(window, cursor)
    app.processEvents()
    frame = window.frameGeometry()
    area = window.screen().availableGeometry()
    results[name] = {"screen": window.screen().name(), "whole": area.contains(frame),
                     "frame": [frame.x(), frame.y(), frame.width(), frame.height()]}

place("first on the small screen", (1400, 900), cursor=QPoint(2100, 100))
place("first on the big screen", (1400, 900), cursor=QPoint(100, 100))
place("across both, mostly on the big one", (600, 400), where=(1500, 100))
place("on a screen unplugged since", (600, 400), where=(3500, 200), cursor=QPoint(2100, 300))
place("half below the small screen", (600, 400), where=(2000, 400), cursor=QPoint(100, 100))
print(json.dumps(results))
"""


def test_with_two_screens_a_window_opens_whole_on_one_of_them(tmp_path: Path) -> None:
    screens = {"screens": [
        {"name": "big", "x": 0, "y": 0, "width": 1920, "height": 1080, "logicalDpi": 96},
        {"name": "small", "x": 1920, "y": 0, "width": 1024, "height": 600, "logicalDpi": 96},
    ]}
    config = tmp_path / "screens.json"
    config.write_text(json.dumps(screens), encoding="utf-8")
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=60,
                          check=True)
    results = json.loads(done.stdout.strip().splitlines()[-1])
    assert all(result["whole"] for result in results.values()), results
    assert results["first on the small screen"]["screen"] == "small"       # where the tray was clicked
    assert results["first on the big screen"]["screen"] == "big"
    assert results["first on the big screen"]["frame"][2:] == [1400 + 4, 900 + 4]   # fits: not shrunk
    assert results["across both, mostly on the big one"]["screen"] == "big"
    assert results["on a screen unplugged since"]["screen"] == "small"     # back where the pointer is
    assert results["half below the small screen"]["screen"] == "small"
