"""The tray application: one qasync loop runs the core, the tray icon and the Intelligence window."""

from __future__ import annotations

import asyncio
import functools
import importlib
import logging
import os
import signal
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QMessageBox, QSystemTrayIcon

from openhuman_desktop import applog, config
from openhuman_desktop.errors import ConfigError, UserFacingError, workspace_error
from openhuman_desktop.instance import AlreadyRunning, InstanceLock
from openhuman_desktop.paths import Paths
from openhuman_desktop.qt import icons
from openhuman_desktop.qt.errors import ErrorReporter
from openhuman_desktop.qt.outlines import OutlinedStyle
from openhuman_desktop.qt.single_instance import InstanceServer, send_activate, server_name
from openhuman_desktop.qt.tray import TrayShell

if TYPE_CHECKING:
    from openhuman_desktop.bootstrap import Services
    from openhuman_desktop.qt.bridge import CoreBridge
    from openhuman_desktop.qt.notifier import Notifier
    from openhuman_desktop.qt.onboarding.launcher import OnboardingLauncher
    from openhuman_desktop.qt.settings import SettingsWindow

log = logging.getLogger(__name__)

APP_ID = "io.openhuman.Desktop"
PROGRAM = "openhuman-desktop"
COLOR_SCHEME_ENV = "OPENHUMAN_COLOR_SCHEME"  # "dark" / "light": override what the desktop says
NO_TRAY_NOTICE = (
    "This desktop has no system tray, so OpenHuman runs in this window instead. "
    "Closing the window quits OpenHuman."
)
QT_QUIT_RERUNS = 5  # how often the loop is re-entered after Qt quit by itself (see QtEventLoop)
# Platforms without a screen a person can see: no modal dialog there (it would wait forever).
HEADLESS_PLATFORMS = ("offscreen", "minimal")


# Imported in a worker thread while the tray is already on screen. The last two are what httpx loads
# lazily on its first request: done here, the first model check does not stall the loop (≈ 100 ms).
STARTUP_IMPORTS = ("openhuman_desktop.bootstrap", "anyio._backends._asyncio", "httpcore._async")


def import_all(names: Sequence[str]) -> Any:
    """Import ``names`` (a missing optional one is skipped); returns the first module."""
    first = importlib.import_module(names[0])
    for name in names[1:]:
        try:
            importlib.import_module(name)
        except ImportError:
            log.debug("optional warm-up import %s is not available", name)
    return first


class WindowLike(Protocol):
    """What the shell needs from the Intelligence window (``qt/intelligence/window.py``)."""

    def bring_to_front(self) -> None: ...

    def show_tab(self, name: str) -> None: ...

    def focus_escalation(self, escalation_id: str) -> None: ...

    def show_notice(self, text: str) -> None: ...

    async def refresh(self) -> None: ...

    async def aclose(self) -> None: ...

    def installEventFilter(self, watched: QObject) -> None: ...  # noqa: N802 (Qt)

    def removeEventFilter(self, watched: QObject) -> None: ...  # noqa: N802 (Qt)

    def hide(self) -> None: ...

    def deleteLater(self) -> None: ...  # noqa: N802 (Qt)


WindowFactory = Callable[["Services", "CoreBridge"], WindowLike]
Build = Callable[[Paths, config.LoadedConfig], Any]  # async (paths, loaded) -> Services


def intelligence_window(services: Services, bridge: CoreBridge) -> WindowLike:
    """The real window on its ports (imported late: the tray must be on screen before the heavy imports)."""
    from openhuman_desktop.qt.intelligence.window import IntelligenceWindow
    from openhuman_desktop.qt.wiring import window_ports

    window: WindowLike = IntelligenceWindow(window_ports(services), bridge)
    return window


# --- the one loop ---------------------------------------------------------------------------------


@functools.cache
def _loop_class() -> Callable[..., asyncio.AbstractEventLoop]:
    import qasync  # type: ignore[import-untyped]  # only here: PySide6 is imported, so qasync binds to it

    class QtEventLoop(qasync.QEventLoop):  # type: ignore[misc]
        """qasync's loop with two fixes to ``run_until_complete``.

        WORKAROUND (qasync 0.28, ``QEventLoop.run_until_complete``): it processes Qt events once more
        after the loop stopped and no longer counts as running, so asyncio callbacks due then run
        outside the loop and httpx/anyio fail with "no running event loop". They are left for the
        next run instead, as a stopped asyncio loop does.

        When Qt leaves its loop on its own (the session ends: ``QApplication.quit``), the future has
        not finished; the loop runs again (a few times at most) so the app's shutdown, started by
        ``aboutToQuit``, can complete while the loop is alive.
        """

        def run_until_complete(self, future: Any) -> Any:
            if self.is_running():
                raise RuntimeError("Event loop already running")
            task = asyncio.ensure_future(future, loop=self)
            stopped_by_us = False

            def stop(_done: object) -> None:
                nonlocal stopped_by_us
                stopped_by_us = True
                self.stop()

            task.add_done_callback(stop)
            try:
                for _attempt in range(QT_QUIT_RERUNS + 1):
                    self.run_forever()
                    if task.done() or stopped_by_us:
                        break
                    log.info("Qt left its event loop; running it again to finish shutting down")
            finally:
                task.remove_done_callback(stop)
            if not task.done():
                raise RuntimeError("Event loop stopped before Future completed.")
            return task.result()

    return QtEventLoop


def new_event_loop(qapp: QApplication | None = None) -> asyncio.AbstractEventLoop:
    """The qasync loop the app (and its tests) run on: Qt and asyncio in one loop (STYLE G2)."""
    return _loop_class()(qapp or QApplication.instance())


# --- looks ----------------------------------------------------------------------------------------


def dark_palette() -> QPalette:
    """A dark palette for desktops that say "dark" but whose Qt theme does not provide one."""
    palette = QPalette()
    colors = {
        QPalette.ColorRole.Window: "#1E1F22", QPalette.ColorRole.WindowText: "#E8EAED",
        QPalette.ColorRole.Base: "#17181A", QPalette.ColorRole.AlternateBase: "#24262A",
        QPalette.ColorRole.ToolTipBase: "#2B2D31", QPalette.ColorRole.ToolTipText: "#E8EAED",
        QPalette.ColorRole.PlaceholderText: "#9AA0A6", QPalette.ColorRole.Text: "#E8EAED",
        QPalette.ColorRole.Button: "#2B2D31", QPalette.ColorRole.ButtonText: "#E8EAED",
        QPalette.ColorRole.BrightText: "#FF8A80", QPalette.ColorRole.Link: "#8AB4F8",
        QPalette.ColorRole.LinkVisited: "#C58AF9", QPalette.ColorRole.Highlight: "#5B5BD6",
        QPalette.ColorRole.HighlightedText: "#FFFFFF", QPalette.ColorRole.Light: "#3A3C41",
        QPalette.ColorRole.Midlight: "#323438", QPalette.ColorRole.Mid: "#2A2C30",
        QPalette.ColorRole.Dark: "#141517", QPalette.ColorRole.Shadow: "#000000",
    }
    for role, color in colors.items():
        palette.setColor(role, QColor(color))
    disabled = QPalette.ColorGroup.Disabled
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        palette.setColor(disabled, role, QColor("#6B6F76"))
    palette.setColor(disabled, QPalette.ColorRole.Highlight, QColor("#3A3C41"))
    return palette


def wanted_scheme(qapp: QApplication) -> Qt.ColorScheme:
    """The colour scheme to follow: ``$OPENHUMAN_COLOR_SCHEME`` if set, else the desktop's."""
    forced = os.environ.get(COLOR_SCHEME_ENV, "").strip().lower()
    if forced == "dark":
        return Qt.ColorScheme.Dark
    if forced == "light":
        return Qt.ColorScheme.Light
    return qapp.styleHints().colorScheme()


def apply_color_scheme(qapp: QApplication) -> None:
    """Make the palette match the scheme; a palette the desktop's Qt theme already gives is kept."""
    scheme = wanted_scheme(qapp)
    is_dark = qapp.palette().color(QPalette.ColorRole.Window).lightness() < 128
    ours = bool(qapp.property("openhuman_dark_palette"))
    if scheme == Qt.ColorScheme.Dark and not is_dark:
        qapp.setPalette(dark_palette())
        qapp.setProperty("openhuman_dark_palette", True)
    elif scheme != Qt.ColorScheme.Dark and is_dark and (ours or scheme == Qt.ColorScheme.Light):
        qapp.setPalette(qapp.style().standardPalette())
        qapp.setProperty("openhuman_dark_palette", False)


def configure_application(qapp: QApplication) -> None:
    """Names, icon, tray-app behaviour and colours (also applied to a test's QApplication)."""
    qapp.setApplicationName("OpenHuman")
    qapp.setOrganizationName("OpenHuman")
    qapp.setDesktopFileName(APP_ID)
    qapp.setQuitOnLastWindowClosed(False)  # closing the window must not quit a tray app
    qapp.setWindowIcon(icons.app_icon())
    if not isinstance(qapp.style(), OutlinedStyle):  # before the palette: a new style brings its own
        qapp.setStyle(OutlinedStyle(qapp.style().name()))
    apply_color_scheme(qapp)
    if not qapp.property("openhuman_follows_scheme"):
        qapp.styleHints().colorSchemeChanged.connect(lambda _scheme: apply_color_scheme(qapp))
        qapp.setProperty("openhuman_follows_scheme", True)


def make_application() -> QApplication:
    """The process's QApplication (the existing one, if any), configured."""
    existing = QApplication.instance()
    # Our own name as argv[0]: X11 takes the WM_CLASS instance from it (not "__main__.py").
    qapp = existing if isinstance(existing, QApplication) else QApplication([PROGRAM])
    configure_application(qapp)
    return qapp


def tray_is_available() -> bool:
    return QSystemTrayIcon.isSystemTrayAvailable()


# --- the running app ------------------------------------------------------------------------------


class DesktopApp(QObject):
    """The tray icon, the core services and the window, from start to clean shutdown.

    ``start()`` shows the tray first (it must be visible within 1.5 s), then builds and starts the
    services and the window. Quit only sets :attr:`stop`; :func:`serve` then awaits :meth:`aclose`
    while the loop is still alive.
    """

    def __init__(
        self,
        paths: Paths,
        loaded: config.LoadedConfig,
        *,
        tray_available: bool | None = None,
        window_factory: WindowFactory = intelligence_window,
        build: Build | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.paths = paths
        self._loaded = loaded
        self._window_factory = window_factory
        self._build = build
        self.stop = asyncio.Event()
        self.reporter = ErrorReporter(paths.log_file)
        qapp = QApplication.instance()
        if isinstance(qapp, QApplication):
            qapp.setQuitOnLastWindowClosed(False)  # a tray app lives on without windows
        available = tray_is_available() if tray_available is None else tray_available
        self.tray = TrayShell(is_available=available, request_quit=self.request_quit, reporter=self.reporter)
        self.reporter.set_notifier(self.tray.notify)
        self.services: Services | None = None
        self.bridge: CoreBridge | None = None
        self.window: WindowLike | None = None
        self.settings_window: SettingsWindow | None = None
        self.notifier: Notifier | None = None
        self.onboarding: OnboardingLauncher | None = None   # the first-run set-up (models)
        self._closed = False
        self._has_desktop_channel = False

    @property
    def is_ready(self) -> bool:
        return self.window is not None

    def request_quit(self) -> None:
        """Quit: ends :func:`serve`'s wait; the shutdown happens there, on the live loop."""
        self.stop.set()

    async def start(self) -> None:
        """Tray first, then the core (engine, heartbeat, RPC), then the window."""
        self.tray.show()
        await asyncio.sleep(0.05)  # let Qt put the icon on screen before the imports below
        build = self._build
        if build is None:
            # ≈ 1 s of imports (httpx, aiohttp, ollama, tiktoken): off the loop, so the tray stays alive.
            bootstrap = await asyncio.to_thread(import_all, STARTUP_IMPORTS)
            build = bootstrap.build
        from openhuman_desktop.qt.bridge import CoreBridge

        self.services = await build(self.paths, self._loaded)
        await self.services.start()
        self.bridge = CoreBridge(self.services.bus)
        self.window = self._window_factory(self.services, self.bridge)
        self.window.installEventFilter(self)
        self._add_desktop_channel(self.window)
        self.tray.attach(self.services.subconscious, self.bridge, self.open_window, self._show_in_window)
        self._attach_extras(self.services, self.bridge, self.window)
        if not self.tray.is_available:
            log.warning("no system tray on this desktop; showing the window instead")
            self.window.show_notice(NO_TRAY_NOTICE)
            self.window.bring_to_front()
        log.info("OpenHuman is running on %s (RPC %s)", self.paths.workspace, self.services.rpc.url)

    def _attach_extras(self, services: Services, bridge: CoreBridge, window: WindowLike) -> None:
        """Notifications, Start at login, Settings, the first-run set-up and the web app."""
        from openhuman_desktop.channels.webapp import WebappChannel  # loaded by now (bootstrap imports it)
        from openhuman_desktop.qt.notifier import Notifier, session_bus
        from openhuman_desktop.qt.onboarding.launcher import OnboardingLauncher
        from openhuman_desktop.qt.wiring import onboarding_ports

        self.notifier = Notifier(self.tray, lambda: services.settings.current.notifications, services.approvals,
                                 self.open_window, reporter=self.reporter, connect=session_bus())
        self.notifier.attach(bridge)
        self.tray.attach_autostart(self.paths.workspace)
        self.tray.attach_settings(self.open_settings)
        requested = getattr(window, "settings_requested", None)  # Ctrl+, in the Intelligence window
        if requested is not None:
            requested.connect(self.open_settings)
        edit_skill = getattr(window, "skill_edit_requested", None)  # Edit… / Add a server… in the Skills tab
        if edit_skill is not None:
            edit_skill.connect(self.open_skill_settings)
        self.onboarding = OnboardingLauncher(onboarding_ports(services))
        self.tray.attach_setup(self.open_onboarding)
        self.onboarding.start()  # opens on the first launch, or when the local model does not work
        web_app = services.channels.channel("webapp")
        if isinstance(web_app, WebappChannel):
            self.tray.attach_web_app(web_app)

    def _add_desktop_channel(self, window: WindowLike) -> None:
        """The window's Chat tab becomes the hub's ``desktop`` channel (a window without one has no chat)."""
        channel = getattr(window, "desktop_channel", None)
        if channel is not None and self.services is not None:
            self.services.channels.add(channel)
            self._has_desktop_channel = True

    def open_window(self, escalation_id: str | None = None) -> None:
        """Bring the window to the front, on the approval card of ``escalation_id`` if given."""
        if self.window is None:
            return
        self.window.bring_to_front()
        if escalation_id:
            self.window.show_tab("subconscious")
            self.window.focus_escalation(escalation_id)

    def open_settings(self) -> None:
        """Show the Settings window (made on first use; non-modal, it never blocks the tray or the loop)."""
        if self.services is None or self._closed:
            return
        if self.settings_window is None:
            from openhuman_desktop.qt.settings import SettingsWindow

            servers = self.services.mcp

            def tools_of(name: str) -> list[tuple[str, str]]:
                skill = servers.servers.get(name)
                return [] if skill is None else skill.server_access()

            self.settings_window = SettingsWindow(self.paths.config_file, self.services.settings,
                                                  workspace=self.paths.workspace, tools_of=tools_of,
                                                  tester=self.services.world.test)
            self.settings_window.autostart_changed.connect(self._on_settings_autostart_changed)
        self.settings_window.bring_to_front()

    def open_skill_settings(self, name: str) -> None:
        """Settings on the Skills section, on MCP server ``name`` ("" adds a new one)."""
        self.open_settings()
        if self.settings_window is not None:
            self.settings_window.show_skill(name)

    def _on_settings_autostart_changed(self, _enabled: bool) -> None:
        self.tray.attach_autostart(self.paths.workspace)  # the tray's check mark follows the switch

    def open_onboarding(self) -> None:
        """The first-run set-up (find a model server, pick or download models), non-modal."""
        if self.onboarding is not None:
            self.onboarding.open()

    def _show_in_window(self, title: str, text: str) -> None:
        if self.window is not None:
            self.window.show_notice(f"{title}: {text}")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        # Without a tray nothing could bring a closed window back: closing it means quit.
        is_window = self.window is not None and id(watched) == id(self.window)
        if event.type() == QEvent.Type.Close and is_window and not self.tray.is_available:
            log.info("window closed without a system tray: quitting")
            self.request_quit()
        return False

    async def aclose(self) -> None:
        """Tray, window, then the core (ticks cancelled and recorded, servers and databases closed)."""
        if self._closed:
            return
        self._closed = True
        if self.notifier is not None:
            await self.notifier.aclose()
        await self.tray.aclose()
        if self.onboarding is not None:
            await self.onboarding.aclose()
        if self.bridge is not None:
            self.bridge.detach()
        window, self.window = self.window, None
        settings_window, self.settings_window = self.settings_window, None
        if settings_window is not None:
            await settings_window.aclose()
            settings_window.hide()
            settings_window.deleteLater()
        if self._has_desktop_channel and self.services is not None:
            self._has_desktop_channel = False
            await self.services.channels.remove("desktop")   # before the window and its Chat tab go
        if window is not None:
            window.removeEventFilter(self)
            try:
                await window.aclose()
            finally:
                window.hide()
                window.deleteLater()
        if self.services is not None:
            await self.services.aclose()
        log.info("OpenHuman stopped")


async def serve(desktop: DesktopApp, instance: InstanceServer | None = None) -> int:
    """Run ``desktop`` until Quit (tray menu, window without a tray, SIGINT/SIGTERM, logout)."""
    loop = asyncio.get_running_loop()
    desktop.reporter.install(loop)
    if instance is not None:
        instance.activated.connect(desktop.open_window)
    handled = []
    for signum in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(signum, desktop.request_quit)
            handled.append(signum)
        except (NotImplementedError, RuntimeError):  # not the main thread, or no signals here
            pass
    try:
        starting = asyncio.ensure_future(desktop.start())
        stopping = asyncio.ensure_future(desktop.stop.wait())
        await asyncio.wait({starting, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if not starting.done():  # Quit while still starting
            starting.cancel()
        await asyncio.gather(starting, return_exceptions=True)
        failure = None if starting.cancelled() else starting.exception()
        if failure is not None:
            stopping.cancel()
            raise failure
        if not stopping.done():
            from openhuman_desktop.bootstrap import freeze_startup_objects  # loaded by now (see start)

            freeze_startup_objects()
        await stopping
        log.info("quitting")
    finally:
        for signum in handled:
            loop.remove_signal_handler(signum)
        if instance is not None:
            instance.activated.disconnect(desktop.open_window)
        await desktop.aclose()
        desktop.reporter.uninstall()
    return 0


def show_startup_error(qapp: QApplication, text: str) -> None:
    """Tell the user why the app could not start (terminal and, on a real screen, a dialog)."""
    print(f"openhuman-desktop: {text}", file=sys.stderr)
    if qapp.platformName() in HEADLESS_PLATFORMS:
        return
    box = QMessageBox(QMessageBox.Icon.Critical, "OpenHuman could not start", text)
    box.setAccessibleName("OpenHuman could not start")
    box.exec()  # the loop is gone by now: a modal dialog blocks nothing


def config_error(paths: Paths, exc: ConfigError) -> int:
    """A bad config.toml at GUI start: logged, said on stderr and, on a screen, in a dialog that opens the file.

    Returns:
        The exit code (2).
    """
    log.error("could not start: %s", exc, extra=applog.FILE_ONLY)
    print(f"openhuman-desktop: {exc}", file=sys.stderr)
    qapp = make_application()
    if qapp.platformName() not in HEADLESS_PLATFORMS:
        from openhuman_desktop.qt.config_error import ConfigErrorDialog

        ConfigErrorDialog(exc).exec()  # no event loop runs yet: a modal dialog blocks nothing
    return 2


def hand_over(paths: Paths, exc: AlreadyRunning) -> int:
    """Another instance holds the workspace: ask its window to come forward; 0 if it did."""
    if send_activate(server_name(paths.workspace)):
        print(f"OpenHuman is already running on {paths.workspace}; its window was brought to the front.",
              file=sys.stderr)
        return 0
    print(f"openhuman-desktop: {exc}", file=sys.stderr)  # e.g. a --headless instance: it has no window
    return 1


def run(paths: Paths, loaded: config.LoadedConfig) -> int:
    """``openhuman-desktop`` without a command: the tray app. Returns the exit code."""
    qapp = make_application()
    lock = InstanceLock(paths.workspace, paths.instance_lock)
    try:
        lock.acquire()
    except AlreadyRunning as exc:
        return hand_over(paths, exc)
    instance = InstanceServer(server_name(paths.workspace))
    try:
        instance.listen()  # we hold the lock: any socket left behind is stale and removed
        desktop = DesktopApp(paths, loaded)
        # Last resort (the session ends and Qt leaves its loop). Not in serve(): a test's loop leaves
        # Qt's loop after every run_until_complete, which emits aboutToQuit each time.
        qapp.aboutToQuit.connect(desktop.request_quit)
        with asyncio.Runner(loop_factory=new_event_loop) as runner:
            return runner.run(serve(desktop, instance))
    except UserFacingError as exc:
        log.error("could not start: %s", exc, extra=applog.FILE_ONLY)
        show_startup_error(qapp, str(exc))
        return 2
    except OSError as exc:
        text = str(workspace_error(exc, "start"))
        log.error("could not start: %s", text, extra=applog.FILE_ONLY)
        show_startup_error(qapp, text)
        return 2
    except Exception:
        log.exception("OpenHuman stopped on an unexpected error")
        show_startup_error(qapp, f"Something went wrong (details in {paths.log_file})")
        return 1
    finally:
        instance.close()
        lock.release()
