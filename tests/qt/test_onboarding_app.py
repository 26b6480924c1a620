"""When the set-up opens in the running app: the first launch, a local model that does not work after its first
check, and the tray's "Set up models…"; never when the local model works, and it never blocks the tray."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QMainWindow

from openhuman_desktop import config
from openhuman_desktop.paths import Paths
from openhuman_desktop.qt.app import DesktopApp, serve
from openhuman_desktop.qt.onboarding import OnboardingWindow
from tests.fakes.model_servers import FakeOllama

MODEL = "llama3.2:3b"
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


class FakeWindow(QMainWindow):
    """The Intelligence window's interface, doing nothing."""

    def __init__(self, services: Any, bridge: Any) -> None:
        super().__init__()

    def bring_to_front(self) -> None:
        self.show()

    def show_tab(self, name: str) -> None: ...

    def focus_escalation(self, escalation_id: str) -> None: ...

    def show_notice(self, text: str) -> None: ...

    async def refresh(self) -> None: ...

    async def aclose(self) -> None: ...

    def closeEvent(self, event: QCloseEvent) -> None:
        event.ignore()
        self.hide()


@pytest.fixture(autouse=True)
def collect_garbage_on_the_main_thread() -> Iterator[None]:
    yield
    gc.collect()


@pytest.fixture
def ollama(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOllama]:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    with FakeOllama() as server:
        yield server


def run(loop: asyncio.AbstractEventLoop, coro: Awaitable[Any], timeout: float = 30) -> Any:
    return loop.run_until_complete(asyncio.wait_for(coro, timeout))


async def poll_until(predicate: Callable[[], bool]) -> None:
    while not predicate():
        await asyncio.sleep(0.02)


def workspace(tmp_path: Path, ollama: FakeOllama, model: str | None) -> Paths:
    paths = Paths(tmp_path / "workspace")
    paths.ensure()
    if model is not None:
        paths.config_file.write_text(
            f'[heartbeat]\ninterval_minutes = 60\n\n[ollama]\nhost = "{ollama.url}"\n\n'
            f'[models.local]\nprovider = "ollama"\nmodel = "{model}"\n\n'
            f'[models.reasoning]\nprovider = "ollama"\nmodel = "{model}"\n', encoding="utf-8")
    return paths


def serve_until_checked(qloop: asyncio.AbstractEventLoop, paths: Paths) -> tuple[DesktopApp, asyncio.Task[int]]:
    desktop = DesktopApp(paths, config.load(paths.config_file, environ={}), tray_available=False,
                         window_factory=FakeWindow)
    task = qloop.create_task(serve(desktop))
    run(qloop, poll_until(lambda: desktop.is_ready or task.done()))
    if task.done():
        task.result()
    services: Any = desktop.services
    run(qloop, poll_until(lambda: {"local", "reasoning"} <= set(services.models.health)))
    return desktop, task


def quit_app(qloop: asyncio.AbstractEventLoop, desktop: DesktopApp, task: asyncio.Task[int]) -> None:
    desktop.request_quit()
    assert run(qloop, task) == 0


def opened_window(desktop: DesktopApp) -> OnboardingWindow | None:
    launcher = desktop.onboarding
    return launcher.window if launcher is not None else None


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_the_first_launch_opens_the_set_up_without_blocking_the_tray(
        qloop: asyncio.AbstractEventLoop, tmp_path: Path, ollama: FakeOllama) -> None:
    paths = workspace(tmp_path, ollama, model=None)          # no config.toml: this start writes it
    desktop, task = serve_until_checked(qloop, paths)
    try:
        assert desktop.services is not None and desktop.services.first_run
        run(qloop, poll_until(lambda: opened_window(desktop) is not None))
        window = opened_window(desktop)
        assert window is not None and window.isVisible() and not window.isModal()
        assert window.page_name == "welcome"
        assert desktop.tray.setup_action.isEnabled() and desktop.tray.open_action.isEnabled()
    finally:
        quit_app(qloop, desktop, task)
    assert desktop.onboarding is not None and desktop.onboarding.window is None   # closed with the app


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_a_local_model_that_is_not_installed_opens_the_set_up_after_its_first_check(
        qloop: asyncio.AbstractEventLoop, tmp_path: Path, ollama: FakeOllama) -> None:
    ollama.add_model("qwen2.5:0.5b")
    desktop, task = serve_until_checked(qloop, workspace(tmp_path, ollama, model=MODEL))
    try:
        assert desktop.services is not None and not desktop.services.first_run
        assert desktop.services.models.problem("local") is not None
        run(qloop, poll_until(lambda: opened_window(desktop) is not None))
        assert desktop.onboarding is not None and desktop.onboarding.opened == 1
    finally:
        quit_app(qloop, desktop, task)


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_a_working_local_model_opens_nothing_and_the_tray_item_opens_it_once(
        qloop: asyncio.AbstractEventLoop, tmp_path: Path, ollama: FakeOllama) -> None:
    ollama.add_model(MODEL)
    desktop, task = serve_until_checked(qloop, workspace(tmp_path, ollama, model=MODEL))
    try:
        launcher = desktop.onboarding
        assert launcher is not None
        run(qloop, poll_until(lambda: not launcher._jobs.running))      # the trigger has decided
        assert launcher.window is None and launcher.opened == 0
        assert desktop.tray.setup_action.text() == "Set up models…"
        run(qloop, _in_loop(desktop.tray.setup_action.trigger))
        first = launcher.window
        assert first is not None and first.isVisible()
        run(qloop, _in_loop(desktop.tray.setup_action.trigger))      # already open: brought to the front
        assert launcher.window is first and launcher.opened == 1
        first.close()
        run(qloop, _in_loop(desktop.open_onboarding))                # closed: a fresh one
        assert launcher.window is not first and launcher.opened == 2
    finally:
        quit_app(qloop, desktop, task)


async def _in_loop(action: Callable[[], object]) -> None:
    action()


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_the_set_up_turns_reflection_on(qloop: asyncio.AbstractEventLoop, tmp_path: Path,
                                        ollama: FakeOllama) -> None:
    """It never offered the reflection tier, so "Reflect now" stayed off (no [models.subconscious])."""
    from openhuman_desktop.subconscious.reflection import NOT_CONFIGURED

    ollama.add_model(MODEL)
    desktop, task = serve_until_checked(qloop, workspace(tmp_path, ollama, model=MODEL))
    try:
        services: Any = desktop.services
        assert run(qloop, services.reflection.status()).problem == NOT_CONFIGURED
        run(qloop, _in_loop(desktop.open_onboarding))
        window = opened_window(desktop)
        assert window is not None
        run(qloop, poll_until(lambda: window.server_page.selected() is not None))
        window.next_button.click()
        window.next_button.click()
        assert window.page_name == "models"
        assert window.models_page.combos["subconscious"].currentText().startswith(MODEL)
        run(qloop, _in_loop(window.next_button.click))               # its job starts on the running loop
        run(qloop, poll_until(lambda: window.page_name == "done"))
        # The running app applies the edit like any other: the reflection tier is there, Reflect now works.
        run(qloop, poll_until(lambda: services.models.is_configured("subconscious")), timeout=30)
        assert run(qloop, services.reflection.status()).problem != NOT_CONFIGURED
    finally:
        quit_app(qloop, desktop, task)
