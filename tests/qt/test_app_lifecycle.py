"""The app from start to Quit: tray first, core, window, second launch, notifications, clean shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QCloseEvent, QPalette
from PySide6.QtWidgets import QApplication, QMainWindow

from openhuman_desktop import config, events
from openhuman_desktop.errors import Cancelled, StoreUnavailable
from openhuman_desktop.paths import Paths
from openhuman_desktop.qt import app
from openhuman_desktop.qt.app import NO_TRAY_NOTICE, DesktopApp, serve
from openhuman_desktop.qt.errors import ErrorReporter
from openhuman_desktop.qt.single_instance import InstanceServer, send_activate, server_name
from openhuman_desktop.store import open_subconscious_store
from openhuman_desktop.store.events import EscalationChanged
from tests.fakes.model_servers import FakeOllama, Reply

MODEL = "llama3.2:3b"
TRAY_SHOW_WARNING = "systemTrayWindowChanged"  # offscreen Qt warns when a tray icon is shown


class FakeWindow(QMainWindow):
    """The Intelligence window's interface, recording what the shell asked of it."""

    def __init__(self, services: Any, bridge: Any) -> None:
        super().__init__()
        self.setWindowTitle("OpenHuman — Intelligence")
        self.services = services
        self.calls: list[tuple[str, ...]] = []
        self.is_closed = False

    def bring_to_front(self) -> None:
        self.calls.append(("front",))
        self.show()

    def show_tab(self, name: str) -> None:
        self.calls.append(("tab", name))

    def focus_escalation(self, escalation_id: str) -> None:
        self.calls.append(("focus", escalation_id))

    def show_notice(self, text: str) -> None:
        self.calls.append(("notice", text))

    async def refresh(self) -> None:
        self.calls.append(("refresh",))

    async def aclose(self) -> None:
        self.is_closed = True

    def closeEvent(self, event: QCloseEvent) -> None:
        event.ignore()
        self.hide()


@pytest.fixture(autouse=True)
def collect_garbage_on_the_main_thread() -> Iterator[None]:
    """Free this test's Qt objects now: a collection started later by a worker thread (aiosqlite) would
    destroy them off the GUI thread ("Timers cannot be stopped from another thread")."""
    yield
    gc.collect()


@pytest.fixture
def ollama(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOllama]:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    with FakeOllama() as server:
        server.add_model(MODEL, context_length=8192)
        yield server


@pytest.fixture
def workspace(tmp_path: Path, ollama: FakeOllama) -> tuple[Paths, config.LoadedConfig]:
    paths = Paths(tmp_path / "workspace")
    paths.ensure()
    paths.config_file.write_text(
        f'[heartbeat]\ninterval_minutes = 60\n\n[ollama]\nhost = "{ollama.url}"\n\n'
        f'[models.local]\nprovider = "ollama"\nmodel = "{MODEL}"\n\n'
        f'[models.reasoning]\nprovider = "ollama"\nmodel = "{MODEL}"\n',
        encoding="utf-8",
    )
    return paths, config.load(paths.config_file, environ={})


def run(loop: asyncio.AbstractEventLoop, coro: Awaitable[Any], timeout: float = 30) -> Any:
    return loop.run_until_complete(asyncio.wait_for(coro, timeout))


async def poll_until(predicate: Callable[[], bool], timeout: float = 20) -> None:
    async def poll() -> None:
        while not predicate():
            await asyncio.sleep(0.02)
    await asyncio.wait_for(poll(), timeout)


async def in_loop(action: Callable[[], object]) -> None:
    """Call ``action`` while the loop runs (a real click always happens inside the running loop)."""
    action()


class Running:
    """A DesktopApp served on the test's qasync loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, desktop: DesktopApp,
                 instance: InstanceServer | None = None) -> None:
        self.loop = loop
        self.desktop = desktop
        self.task = loop.create_task(serve(desktop, instance))
        self.window: FakeWindow | None = None

    def ready(self) -> Running:
        run(self.loop, poll_until(lambda: self.desktop.is_ready or self.task.done()))
        if self.task.done():
            self.task.result()
        assert isinstance(self.desktop.window, FakeWindow)
        self.window = self.desktop.window
        # Let the start-up model check finish: quitting in the middle of its HTTP connect leaves an
        # un-awaited anyio coroutine behind (a warning, hence an error, in the next test).
        run(self.loop, poll_until(lambda: {"local", "reasoning"} <= set(self.services.models.health)))
        return self

    @property
    def services(self) -> Any:
        assert self.desktop.services is not None
        return self.desktop.services

    def quit(self) -> int:
        self.desktop.request_quit()
        return int(run(self.loop, self.task))


Start = Callable[..., AbstractContextManager[Running]]


@pytest.fixture
def start(qloop: asyncio.AbstractEventLoop, workspace: tuple[Paths, config.LoadedConfig]) -> Start:
    """``with start(tray_available=...) as running:`` — served until the block ends (then quit).

    Everything must be shut down inside the test itself: pytest-qt processes Qt events between test
    phases, which would run the core's pending callbacks outside the asyncio loop.
    """

    @contextlib.contextmanager
    def starter(*, tray_available: bool = False, instance: InstanceServer | None = None) -> Iterator[Running]:
        paths, loaded = workspace
        desktop = DesktopApp(paths, loaded, tray_available=tray_available, window_factory=FakeWindow)
        running = Running(qloop, desktop, instance)
        try:
            yield running.ready()
        finally:
            if not running.task.done():
                running.quit()

    return starter


# --- start and quit ------------------------------------------------------------------------------


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_without_a_tray_the_window_opens_and_says_why(start: Start) -> None:
    with start(tray_available=False) as running:
        assert running.window is not None
        assert ("notice", NO_TRAY_NOTICE) in running.window.calls
        assert ("front",) in running.window.calls
        assert running.window.isVisible()
        assert not running.desktop.tray.tray.isVisible()


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_start_runs_the_core_and_quit_shuts_it_down(start: Start,
                                                    workspace: tuple[Paths, config.LoadedConfig]) -> None:
    paths, _ = workspace
    with start() as running:
        rpc = json.loads(paths.rpc_file.read_text())
        assert rpc["url"].startswith("http://127.0.0.1:")
        run(running.loop, poll_until(lambda: running.desktop.tray.view.headline != "Starting…"))
        assert running.desktop.tray.view.headline == "Idle"
        assert "3 tasks" in running.desktop.tray.tray.toolTip()
        web = json.loads(paths.webapp_file.read_text())  # the tray's "Open web app" opens url#token=TOKEN
        assert running.desktop.tray.web_action.isEnabled()
        assert running.desktop.tray._web_app is not None
        assert running.desktop.tray._web_app.browser_url == f"{web['url']}#token={web['token']}"
        hook_while_running = sys.excepthook
        assert running.quit() == 0
    assert not paths.rpc_file.exists() and not paths.webapp_file.exists()
    assert running.window is not None and running.window.is_closed
    assert sys.excepthook is not hook_while_running  # the reporter's hook was taken out again


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_quit_records_the_tick_in_flight_as_cancelled(start: Start, ollama: FakeOllama,
                                                      workspace: tuple[Paths, config.LoadedConfig]) -> None:
    ollama.set_responder(lambda body: Reply(content="{}", delay=60) if body.get("format") else Reply("read"))
    with start() as running:
        run(running.loop, in_loop(running.desktop.tray.run_now_action.trigger))  # as a click would
        run(running.loop, poll_until(lambda: any(r.json.get("format") for r in ollama.chat_requests)))
        assert running.quit() == 0

    async def log_rows() -> list[Any]:
        store = await open_subconscious_store(workspace[0].subconscious_db)
        try:
            return await store.log.page(limit=50)
        finally:
            await store.aclose()

    rows = run(running.loop, log_rows())
    assert rows and {row.decision for row in rows} == {"cancelled"}
    assert all("shutting down" in row.result for row in rows)


def test_quit_while_still_starting_stops_at_once(qloop: asyncio.AbstractEventLoop,
                                                 workspace: tuple[Paths, config.LoadedConfig]) -> None:
    never = asyncio.Event()

    async def slow_build(paths: Paths, loaded: config.LoadedConfig) -> Any:
        await never.wait()

    paths, loaded = workspace
    desktop = DesktopApp(paths, loaded, tray_available=False, window_factory=FakeWindow, build=slow_build)
    task = qloop.create_task(serve(desktop))
    run(qloop, asyncio.sleep(0.1))
    desktop.request_quit()
    assert run(qloop, task, timeout=10) == 0
    assert desktop.window is None


def test_a_start_up_failure_is_raised_after_cleaning_up(qloop: asyncio.AbstractEventLoop,
                                                       workspace: tuple[Paths, config.LoadedConfig],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    async def broken_build(paths: Paths, loaded: config.LoadedConfig) -> Any:
        raise StoreUnavailable("The database is read-only.")

    paths, loaded = workspace
    desktop = DesktopApp(paths, loaded, tray_available=False, window_factory=FakeWindow, build=broken_build)
    with pytest.raises(StoreUnavailable):
        run(qloop, serve(desktop))
    app.show_startup_error(QApplication.instance(), "The database is read-only.")  # offscreen: no dialog
    assert "The database is read-only." in capsys.readouterr().err


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_closing_the_window_quits_only_without_a_tray(start: Start) -> None:
    with start(tray_available=False) as running:
        assert running.window is not None
        running.window.close()
        assert running.desktop.stop.is_set()


@pytest.mark.qt_log_ignore(TRAY_SHOW_WARNING)
def test_closing_the_window_keeps_the_tray_app_running(start: Start) -> None:
    with start(tray_available=True) as running:
        assert running.window is not None
        running.desktop.tray.open_action.trigger()
        assert running.window.isVisible()
        running.window.close()
        assert not running.window.isVisible()
        assert not running.desktop.stop.is_set()
        assert QApplication.instance().quitOnLastWindowClosed() is False


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_tray_quit_ends_serve(start: Start) -> None:
    with start() as running:
        running.desktop.tray.quit_action.trigger()
        assert run(running.loop, running.task) == 0


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_when_the_session_ends_qt_quits_and_the_app_still_shuts_down_cleanly(
        start: Start, workspace: tuple[Paths, config.LoadedConfig]) -> None:
    with start() as running:
        qapp = QApplication.instance()
        qapp.aboutToQuit.connect(running.desktop.request_quit)  # as app.run() wires it
        try:
            running.loop.call_later(0.1, qapp.quit)  # the session manager ends Qt's loop under us
            assert run(running.loop, running.task) == 0
        finally:
            qapp.aboutToQuit.disconnect(running.desktop.request_quit)
    assert not workspace[0].rpc_file.exists()
    assert running.window is not None and running.window.is_closed


# --- second launch, notifications ----------------------------------------------------------------


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_a_second_launch_brings_the_window_to_the_front(start: Start,
                                                        workspace: tuple[Paths, config.LoadedConfig]) -> None:
    instance = InstanceServer(server_name(workspace[0].workspace))
    assert instance.listen()
    try:
        with start(tray_available=False, instance=instance) as running:
            assert running.window is not None
            running.window.calls.clear()
            assert send_activate(instance.name, timeout=2)
            window = running.window
            run(running.loop, poll_until(lambda: ("front",) in window.calls))
    finally:
        instance.close()


@pytest.mark.qt_log_ignore(TRAY_SHOW_WARNING)
def test_new_escalation_notifies_and_the_click_opens_its_card(start: Start) -> None:
    with start(tray_available=True) as running:
        services, window, tray = running.services, running.window, running.desktop.tray
        assert window is not None
        shown: list[tuple[str, str]] = []
        tray.message_shown.connect(lambda title, text: shown.append((title, text)))

        async def escalate() -> Any:
            task = (await services.subconscious.tasks_list())[0]
            escalation = await services.store.escalations.create(
                task_id=task.id, log_id=None, title="Forward 3 urgent emails", description="to #team-alerts",
                priority="important", now=time.time(),
            )
            services.bus.publish(EscalationChanged(escalation))
            return escalation

        escalation = run(running.loop, escalate())
        run(running.loop, poll_until(lambda: bool(shown)))   # the notifier waits a moment for more cards
        assert shown == [("Approval needed", "Forward 3 urgent emails: to #team-alerts")]
        window.calls.clear()
        tray.tray.messageClicked.emit()
        assert window.calls == [("front",), ("tab", "subconscious"), ("focus", escalation.id)]
        run(running.loop, poll_until(lambda: tray.view.badge == 1))
        assert tray.view.icon_state == "attention"


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_notifications_go_to_the_window_without_a_tray(start: Start) -> None:
    with start(tray_available=False) as running:
        assert running.window is not None
        services = running.services
        run(running.loop, in_loop(lambda: services.bus.publish(events.Notified("Digest ready",
                                                                               "It is in your workspace."))))
        window = running.window
        run(running.loop, poll_until(lambda: ("notice", "Digest ready: It is in your workspace.") in window.calls))


# --- the error reporter (STYLE G6) -----------------------------------------------------------------


def make_reporter(tmp_path: Path) -> tuple[ErrorReporter, list[tuple[str, str]]]:
    shown: list[tuple[str, str]] = []
    clock = iter(range(0, 10_000, 100))
    return ErrorReporter(tmp_path / "openhuman.log", lambda title, text: shown.append((title, text)),
                         monotonic=lambda: float(next(clock))), shown


def test_user_facing_errors_are_shown_as_they_are(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    reporter, shown = make_reporter(tmp_path)
    reporter.report(StoreUnavailable("The disk is full."), "Run Now")
    assert shown == [("OpenHuman", "The disk is full.")]
    assert any(r.levelname == "WARNING" and "Run Now: The disk is full." in r.getMessage() for r in caplog.records)


def test_bugs_show_where_the_details_are(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    reporter, shown = make_reporter(tmp_path)
    try:
        raise KeyError("secret prompt text")
    except KeyError as exc:
        reporter.report(exc)
    assert shown == [("OpenHuman", f"Something went wrong (details in {tmp_path / 'openhuman.log'})")]
    record = next(r for r in caplog.records if r.levelname == "ERROR")
    assert record.exc_info is not None and record.exc_info[0] is KeyError


def test_cancellations_are_silent(tmp_path: Path) -> None:
    reporter, shown = make_reporter(tmp_path)
    reporter.report(Cancelled("superseded"))
    reporter.report(asyncio.CancelledError())
    assert shown == []


@pytest.mark.logs_expected(r"^Locked\.$")
def test_the_same_message_is_not_repeated_at_once(tmp_path: Path) -> None:
    shown: list[tuple[str, str]] = []
    now = [0.0]
    reporter = ErrorReporter(tmp_path / "x.log", lambda t, m: shown.append((t, m)), monotonic=lambda: now[0])
    for _ in range(5):
        reporter.report(StoreUnavailable("Locked."))
    now[0] = 60.0
    reporter.report(StoreUnavailable("Locked."))
    assert len(shown) == 2


@pytest.mark.logs_expected(r"UI: From a slot", r"Task exception was never retrieved: From a task")
def test_excepthook_and_loop_handler_route_into_the_reporter(tmp_path: Path,
                                                            qloop: asyncio.AbstractEventLoop) -> None:
    reporter, shown = make_reporter(tmp_path)
    before = sys.excepthook
    reporter.install(qloop)
    try:
        sys.excepthook(StoreUnavailable, StoreUnavailable("From a slot."), None)
        qloop.call_exception_handler({"message": "Task exception was never retrieved",
                                      "exception": StoreUnavailable("From a task.")})
    finally:
        reporter.uninstall()
    assert sys.excepthook is before
    assert [text for _, text in shown] == ["From a slot.", "From a task."]


# --- looks -------------------------------------------------------------------------------------------


def test_dark_scheme_gets_a_dark_palette_and_light_comes_back(qapp: QApplication,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def lightness() -> int:
        return qapp.palette().color(QPalette.ColorRole.Window).lightness()

    monkeypatch.setenv(app.COLOR_SCHEME_ENV, "dark")
    app.apply_color_scheme(qapp)
    try:
        assert lightness() < 128
    finally:
        monkeypatch.setenv(app.COLOR_SCHEME_ENV, "light")
        app.apply_color_scheme(qapp)
    assert lightness() >= 128


# --- the real command (subprocess) ---------------------------------------------------------------------


def spawn(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "openhuman_desktop", *args], env=env, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.e2e
def test_the_real_command_single_instance_and_clean_exit(tmp_path: Path, ollama: FakeOllama,
                                                         workspace: tuple[Paths, config.LoadedConfig]) -> None:
    pytest.importorskip("openhuman_desktop.qt.intelligence.window")
    paths, _ = workspace
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(Path.cwd())}
    env.pop("OLLAMA_HOST", None)
    env.pop(app.COLOR_SCHEME_ENV, None)
    args = ["--workspace", str(paths.workspace)]
    first = spawn(args, env)
    try:
        deadline = time.monotonic() + 60
        while not paths.rpc_file.exists():
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the app did not start within 60 s"
            time.sleep(0.1)
        second = spawn(args, env)
        _, second_err = second.communicate(timeout=60)
        assert second.returncode == 0, second_err
        assert "brought to the front" in second_err
        first.send_signal(signal.SIGTERM)
        _, first_err = first.communicate(timeout=60)
        assert first.returncode == 0, first_err
        assert not paths.rpc_file.exists()
        assert "a second launch asked for the window" in paths.log_file.read_text(encoding="utf-8")
    finally:
        for process in (first,):
            if process.poll() is None:
                process.kill()
                process.communicate()

