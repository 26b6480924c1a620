"""The Settings window in the app: opened from the tray and with Ctrl+, in the Intelligence window, a save
applied live by the running core (its config.toml watcher), a rejection said."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QApplication

from openhuman_desktop import config
from openhuman_desktop.paths import Paths
from openhuman_desktop.qt.app import DesktopApp, serve
from openhuman_desktop.qt.errors import ErrorReporter
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.settings import SettingsWindow
from openhuman_desktop.qt.tray import TrayShell
from openhuman_desktop.watch import POLL_SECONDS
from tests.fakes.engine_harness import Harness
from tests.fakes.model_servers import FakeOllama
from tests.qt.test_app_lifecycle import FakeWindow, poll_until
from tests.qt.test_settings import enter, save

MODEL = "llama3.2:3b"


@pytest.fixture
def live_window(qtbot: Any, qrun: Any, gui_harness: Harness) -> Iterator[SettingsWindow]:
    services = gui_harness.services
    window = SettingsWindow(services.paths.config_file, services.settings, lister=no_models)
    window.show()
    try:
        yield window
    finally:
        qrun(window.aclose())
        window.hide()
        window.deleteLater()
    assert not window.jobs.failures


async def no_models(_provider: str, _base_url: str, **_kwargs: Any) -> list[Any]:
    return []


def test_a_save_is_applied_live_by_the_running_app(live_window: SettingsWindow, gui_harness: Harness,
                                                   qtbot: Any, qrun: Any, settle: Any, until: Any) -> None:
    services = gui_harness.services
    assert services.settings.current.heartbeat.context_budget_tokens == 40_000
    enter(qtbot, live_window.field("heartbeat.context_budget_tokens"), 24_000)
    enter(qtbot, live_window.field("notifications.quiet_hours"), "22:30-06:00")
    save(live_window, qtbot, settle)
    assert live_window.status_label.text() == "Saved — applying…"          # the app has not looked yet
    assert services.settings.current.heartbeat.context_budget_tokens == 40_000
    qrun(gui_harness.clock.advance(POLL_SECONDS + 0.1))                   # the app's watcher looks at the file
    until(lambda: live_window.status_label.text() == "Saved — applied.", message="applied")
    current = services.settings.current
    assert current.heartbeat.context_budget_tokens == 24_000
    assert current.notifications.quiet_hours == (22 * 60 + 30, 6 * 60)


class RejectingLive:
    """A running app that rejects the file (its environment differs from the window's, say)."""

    def __init__(self, settings: config.Settings) -> None:
        self.current = settings
        self.problem: str | None = None


def test_a_save_the_app_rejects_is_said(qtbot: Any, qrun: Any, settle: Any, until: Any, tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    config.write_default(path)
    live = RejectingLive(config.load(path, environ={}).settings)
    window = SettingsWindow(path, live, lister=no_models, environ={})
    window.show()
    enter(qtbot, window.field("heartbeat.interval_minutes"), 15)
    save(window, qtbot, settle)
    live.problem = (f"{path}: models.local.base_url = 'x' is invalid: expected an http:// or https:// URL")
    until(lambda: "did not apply" in window.status_label.text())
    assert window.status_label.text().endswith("expected an http:// or https:// URL")
    qrun(window.aclose())
    window.deleteLater()


def test_the_tray_offers_settings_once_the_app_runs(qapp: Any, tmp_path: Path) -> None:
    opened: list[bool] = []
    shell = TrayShell(is_available=False, request_quit=lambda: None, reporter=ErrorReporter(tmp_path / "x.log"))
    action = shell.settings_action
    assert action.text() == "Settings…" and not action.isEnabled()
    assert action in shell.menu.actions()
    shell.attach_settings(lambda: opened.append(True))
    assert action.isEnabled()
    action.trigger()
    assert opened == [True]
    shell.deleteLater()


def test_ctrl_comma_in_the_intelligence_window_asks_for_settings(fake_window: IntelligenceWindow,
                                                                 qtbot: Any) -> None:
    fake_window.activateWindow()
    with qtbot.wait_signal(fake_window.settings_requested, timeout=2000):
        qtbot.keyClick(fake_window, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)


class WindowWithSettings(FakeWindow):
    settings_requested = Signal()


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Paths, config.LoadedConfig]]:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    with FakeOllama() as ollama:
        ollama.add_model(MODEL)
        paths = Paths(tmp_path / "workspace")
        paths.ensure()
        paths.config_file.write_text(
            f'[heartbeat]\ninterval_minutes = 60\n\n[ollama]\nhost = "{ollama.url}"  # my Ollama\n\n'
            f'[models.local]\nprovider = "ollama"\nmodel = "{MODEL}"\n\n'
            f'[models.reasoning]\nprovider = "ollama"\nmodel = "{MODEL}"\n', encoding="utf-8")
        yield paths, config.load(paths.config_file, environ={})


def run(loop: asyncio.AbstractEventLoop, coro: Any, timeout: float = 30) -> Any:
    return loop.run_until_complete(asyncio.wait_for(coro, timeout))


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_the_app_opens_one_settings_window_from_the_tray_and_ctrl_comma(
        qloop: asyncio.AbstractEventLoop, workspace: tuple[Paths, config.LoadedConfig]) -> None:
    paths, loaded = workspace
    desktop = DesktopApp(paths, loaded, tray_available=False, window_factory=WindowWithSettings)
    task = qloop.create_task(serve(desktop))
    try:
        run(qloop, poll_until(lambda: desktop.is_ready or task.done()))
        if task.done():
            task.result()
        services: Any = desktop.services
        run(qloop, poll_until(lambda: {"local", "reasoning"} <= set(services.models.health)))
        assert desktop.tray.settings_action.isEnabled()

        async def click() -> None:
            desktop.tray.settings_action.trigger()

        run(qloop, click())
        settings = desktop.settings_window
        assert isinstance(settings, SettingsWindow) and settings.isVisible()
        assert settings.config_path == paths.config_file
        run(qloop, poll_until(lambda: bool(settings.tiers["local"].listed_models)))   # the running Ollama's list
        assert settings.tiers["local"].listed_models == [MODEL]
        settings.close()

        async def shortcut() -> None:
            window: Any = desktop.window
            window.settings_requested.emit()

        run(qloop, shortcut())
        assert desktop.settings_window is settings and settings.isVisible()      # the same window, shown again
    finally:
        desktop.request_quit()
        assert run(qloop, task) == 0
    assert desktop.settings_window is None
    QApplication.sendPostedEvents()
