"""The tray icon: state at a glance (idle, thinking, attention, problem), its menu, its messages (the fallback of
``qt/notifier.py``'s desktop notifications)."""

from __future__ import annotations

import asyncio
import logging
import re
import textwrap
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QObject, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QAction, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMenu,
    QSystemTrayIcon,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)

from openhuman_desktop import autostart
from openhuman_desktop.qt import icons
from openhuman_desktop.qt.asyncutil import Jobs, Refresher
from openhuman_desktop.qt.browser import Launch, open_in_browser
from openhuman_desktop.qt.errors import ErrorReporter, Notify

log = logging.getLogger(__name__)

APP_NAME = "OpenHuman"
MESSAGE_MS = 10_000
MAX_BODY = 240
MAX_TOOLTIP_REASON = 400   # a state reason says what is wrong and what to do: keep the end
TOOLTIP_LINE = 72          # tray tooltips do not wrap by themselves on every desktop
DETAIL_EMS = 26            # the menu's reason wraps at about this many "M" widths
SETTLE_DELAY = 0.2   # seconds between status reads while a finished tick is still winding down
SETTLE_CHECKS = 25
_WEB_APP_KEY = re.compile(r"#token=\S+")


class StatusSource(Protocol):
    """What the tray needs from the subconscious service (``services.subconscious``)."""

    async def status(self) -> dict[str, Any]: ...

    def trigger(self) -> None: ...

    async def set_paused(self, paused: bool) -> None: ...


class BridgeSignals(Protocol):
    """The :class:`~openhuman_desktop.qt.bridge.CoreBridge` signals the tray listens to."""

    status_changed: Any
    tick_started: Any
    tick_finished: Any
    escalation_changed: Any


OpenWindow = Callable[[str | None], None]  # escalation id to show, or None for the window as it is
OpenUrl = Callable[[str], Awaitable[Launch]]  # opens an address in the web browser, and says whether it did


class WebAppLink(Protocol):
    """What "Open web app" needs of the web app channel (``channels.webapp.WebappChannel``)."""

    @property
    def browser_url(self) -> str | None:
        """``url#token=TOKEN`` while it listens, else None."""

    def status(self) -> Any:
        """Its ``ChannelStatus``; ``state_reason`` says why it does not listen."""


# --- what the tray shows (pure, so it is easy to test) --------------------------------------------


@dataclass(frozen=True)
class TrayView:
    """Everything the tray shows for one status."""

    icon_state: str      # one of icons.TRAY_STATES
    badge: int           # pending approvals (0 = no badge)
    headline: str        # first line of the tooltip and the menu's status line
    tooltip: str
    is_paused: bool
    can_pause: bool      # False when the heartbeat is off in config.toml
    detail: str = ""     # the menu header's second line


STARTING = TrayView(icons.IDLE, 0, "Starting…", f"{APP_NAME} — starting…", False, False,
                    "Starting the assistant…")
MAX_DETAIL = 60


def format_time(timestamp: float | None, now: float) -> str:
    """A clock time for the tooltip: ``14:05`` today, ``Tue 14:05`` this week, else ``3 Mar 14:05``."""
    if timestamp is None:
        return "never"
    moment = datetime.fromtimestamp(timestamp)
    today = datetime.fromtimestamp(now).date()
    if moment.date() == today:
        return moment.strftime("%H:%M")
    if abs((moment.date() - today).days) < 7:
        return moment.strftime("%a %H:%M")
    return f"{moment.day} {moment.strftime('%b %H:%M')}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def describe(status: Mapping[str, Any], now: float) -> TrayView:
    """Turn ``subconscious_status`` into what the tray shows.

    The icon says the most urgent thing: a problem, then thinking, then approvals waiting, then
    paused. The approval count is painted on whichever icon is showing.
    """
    state = str(status.get("state", "idle"))
    reason = " ".join(str(status.get("state_reason") or "").split())
    pending = int(status.get("pending_escalations") or 0)
    tasks = int(status.get("task_count") or 0)
    if state == "degraded":
        icon, headline = icons.PROBLEM, "Problem"
    elif state == "ticking":
        icon, headline = icons.THINKING, "Thinking…"
    elif pending:
        icon, headline = icons.ATTENTION, f"{plural(pending, 'approval')} waiting"
    elif state == "paused":
        icon, headline = icons.PAUSED, "Paused"
    elif state == "disabled":
        icon, headline = icons.PAUSED, "Heartbeat off"
    else:
        icon, headline = icons.IDLE, "Idle"
    lines = [f"{APP_NAME} — {headline}"]
    if state in ("degraded", "paused", "disabled", "ticking") and reason:
        shown = reason if len(reason) <= MAX_TOOLTIP_REASON else reason[: MAX_TOOLTIP_REASON - 1] + "…"
        lines.extend(textwrap.wrap(shown, TOOLTIP_LINE, break_on_hyphens=False))
    counts = plural(tasks, "task")
    if pending and icon != icons.ATTENTION:
        counts += f" · {plural(pending, 'approval')} waiting"
    lines.append(counts)
    last = format_time(status.get("last_tick_at"), now)
    if state in ("paused", "disabled"):
        next_text = "paused" if state == "paused" else "off"
    else:
        next_text = format_time(status.get("next_tick_at"), now) if status.get("next_tick_at") else "—"
    lines.append(f"Last tick: {last} · Next tick: {next_text}")
    if state in ("degraded", "paused", "disabled") and reason:
        detail = shorten(reason, MAX_TOOLTIP_REASON)   # wrapped in the menu: all of it, what to do included
    else:
        detail = f"{plural(tasks, 'task')} · next tick {next_text}"
    return TrayView(
        icon_state=icon, badge=pending, headline=headline, tooltip="\n".join(lines),
        is_paused=state == "paused", can_pause=state != "disabled", detail=detail,
    )


def shorten(text: str, limit: int = MAX_BODY) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- the tray -------------------------------------------------------------------------------------


class TrayShell(QObject):
    """The tray icon and its menu; works (and is testable) without a system tray.

    Args:
        is_available: whether the desktop has a system tray. Without one the icon is never shown and
            messages go to ``fallback_notify`` (the window's banner) instead.
        request_quit: sets the app's stop event (Quit never calls ``QApplication.quit``).
        reporter: the UI-boundary error reporter (it also tells the user through :meth:`notify`).
    """

    message_shown = Signal(str, str)   # title, text — whatever the user was notified of (D-Bus ones too: the notifier)
    view_changed = Signal(object)      # TrayView

    def __init__(
        self,
        *,
        is_available: bool,
        request_quit: Callable[[], None],
        reporter: ErrorReporter,
        now: Callable[[], float] = time.time,
        open_url: OpenUrl = open_in_browser,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.is_available = is_available
        self._open_url = open_url
        self._web_app: WebAppLink | None = None
        self._request_quit = request_quit
        self._reporter = reporter
        self._now = now
        self._source: StatusSource | None = None
        self._open_window: OpenWindow | None = None
        self._fallback_notify: Notify | None = None
        self._bridge: BridgeSignals | None = None
        self._open_ticks: set[int] = set()
        self._has_applied = False
        self._settle_checks = 0
        self._message_target: str | None = None
        self._jobs = Jobs()
        self._refresher = Refresher(self._jobs, self._load_status, "tray-status")
        self.view = STARTING
        self.menu = QMenu()
        self.menu.setAccessibleName(f"{APP_NAME} menu")
        self.status_action = self._add_status_header()
        self.menu.addSeparator()
        self.open_action = self._add_action("Open Intelligence", self._on_open_action_triggered,
                                            "Show tasks, activity and approvals")
        self.web_action = self._add_action("Open web app", self._on_web_action_triggered,
                                           "Chat with the assistant in your web browser (on this computer only)")
        self.run_now_action = self._add_action("Run Now", self._on_run_now_action_triggered,
                                               "Look at the due tasks now instead of waiting for the next tick")
        self.pause_action = self._add_action("Pause heartbeat", self._on_pause_action_triggered,
                                             "Stop scheduled ticks until you resume them")
        self.menu.addSeparator()
        self.setup_action = self._add_action("Set up models…", self._on_setup_action_triggered,
                                             "Find a model server, pick the models or download them")
        self.setup_action.setEnabled(False)
        self._open_setup: Callable[[], None] | None = None
        self.settings_action = self._add_action("Settings…", self._on_settings_action_triggered,
                                                "Heartbeat, models, channels, notifications and more")
        self.settings_action.setEnabled(False)
        self._open_settings: Callable[[], None] | None = None
        self.autostart_action = self._add_action("Start at login", None,
                                                 "Start OpenHuman in the tray when you log in to this computer")
        self.autostart_action.setCheckable(True)
        self.autostart_action.setEnabled(False)
        self.autostart_action.toggled.connect(self._on_autostart_action_toggled)
        self._workspace: Path | None = None
        self.quit_action = self._add_action("Quit", self._on_quit_action_triggered,
                                            "Stop the assistant and close OpenHuman")
        for action in (self.open_action, self.web_action, self.run_now_action, self.pause_action):
            action.setEnabled(False)
        self.tray = QSystemTrayIcon(self)
        self.tray.setContextMenu(self.menu)
        self.tray.activated.connect(self._on_tray_activated)
        self.tray.messageClicked.connect(self._on_tray_message_clicked)
        self._apply(STARTING)

    def _add_status_header(self) -> QWidgetAction:
        """The menu's first line: the state icon and the headline, in normal (not greyed) text.

        Desktops that export tray menus over D-Bus show the action's text instead of the widget;
        activating it there opens the window.
        """
        header = QWidget(self.menu)
        layout = QHBoxLayout(header)
        unit = max(4, header.fontMetrics().height() // 3)
        layout.setContentsMargins(unit * 2, unit, unit * 4, unit)
        layout.setSpacing(unit * 2)
        self.status_icon = QLabel(header)
        self.status_icon.setAccessibleName("Status icon")
        self.status_label = QLabel(header)
        font = QFont(self.status_label.font())
        font.setBold(True)
        self.status_label.setFont(font)
        self.status_detail = QLabel(header)
        detail_font = QFont(self.status_detail.font())
        detail_font.setPointSizeF(detail_font.pointSizeF() * 0.9)
        self.status_detail.setFont(detail_font)
        self.status_detail.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.status_detail.setWordWrap(True)
        self.status_detail.setMaximumWidth(self.status_detail.fontMetrics().horizontalAdvance("M") * DETAIL_EMS)
        texts = QVBoxLayout()
        texts.setSpacing(0)
        texts.addWidget(self.status_label)
        texts.addWidget(self.status_detail)
        layout.addWidget(self.status_icon, 0, Qt.AlignmentFlag.AlignVCenter)
        layout.addLayout(texts, 1)
        action = QWidgetAction(self.menu)
        action.setDefaultWidget(header)
        action.setToolTip("What the assistant is doing now")
        action.triggered.connect(self._on_open_action_triggered)
        self.menu.addAction(action)
        return action

    def _add_action(self, text: str, slot: Callable[[], None] | None, tip: str) -> QAction:
        action = QAction(text, self.menu)
        action.setToolTip(tip)
        action.setStatusTip(tip)
        if slot is not None:
            action.triggered.connect(slot)
        self.menu.addAction(action)
        return action

    # --- wiring ---------------------------------------------------------------------------------

    def attach(
        self,
        source: StatusSource,
        bridge: BridgeSignals,
        open_window: OpenWindow,
        fallback_notify: Notify | None = None,
    ) -> None:
        """Connect to the running core: the status source, the bridge's signals, the window."""
        self._source = source
        self._open_window = open_window
        self._fallback_notify = fallback_notify
        self._bridge = bridge
        bridge.status_changed.connect(self._on_core_status_hint)
        bridge.tick_started.connect(self._on_bridge_tick_started)
        bridge.tick_finished.connect(self._on_bridge_tick_finished)
        bridge.escalation_changed.connect(self._on_bridge_escalation_changed)
        for action in (self.open_action, self.run_now_action):
            action.setEnabled(True)
        self.request_refresh()

    def attach_web_app(self, web_app: WebAppLink) -> None:
        """Enable "Open web app" (the app has a web app channel: on, or off in config.toml)."""
        self._web_app = web_app
        self.web_action.setEnabled(True)

    def attach_setup(self, open_setup: Callable[[], None]) -> None:
        """Enable "Set up models…" (opens the first-run set-up)."""
        self._open_setup = open_setup
        self.setup_action.setEnabled(True)

    def _on_setup_action_triggered(self) -> None:
        if self._open_setup is not None:
            self._open_setup()

    def attach_settings(self, open_settings: Callable[[], None]) -> None:
        """Enable "Settings…" (it calls ``open_settings``: ``DesktopApp.open_settings``)."""
        self._open_settings = open_settings
        self.settings_action.setEnabled(True)

    def _on_settings_action_triggered(self) -> None:
        if self._open_settings is not None:
            self._open_settings()

    def attach_autostart(self, workspace: Path) -> None:
        """Enable "Start at login" for ``workspace`` (checked when its autostart entry is there)."""
        self._workspace = workspace
        with QSignalBlocker(self.autostart_action):
            self.autostart_action.setChecked(autostart.is_enabled())
        self.autostart_action.setEnabled(True)

    def _on_autostart_action_toggled(self, checked: bool) -> None:
        if self._workspace is None:
            return
        try:
            if checked:
                autostart.enable(self._workspace)
            else:
                autostart.disable()
        except autostart.AutostartError as exc:
            with QSignalBlocker(self.autostart_action):
                self.autostart_action.setChecked(not checked)
            self.notify("Start at login not changed", str(exc))
            return
        log.info("start at login %s", "on" if checked else "off")

    def detach(self) -> None:
        """Stop listening to the bridge (shutdown)."""
        bridge, self._bridge = self._bridge, None
        if bridge is None:
            return
        bridge.status_changed.disconnect(self._on_core_status_hint)
        bridge.tick_started.disconnect(self._on_bridge_tick_started)
        bridge.tick_finished.disconnect(self._on_bridge_tick_finished)
        bridge.escalation_changed.disconnect(self._on_bridge_escalation_changed)

    def show(self) -> None:
        """Show the icon (only where a system tray exists)."""
        if self.is_available:
            self.tray.show()

    def hide(self) -> None:
        self.tray.hide()

    async def aclose(self) -> None:
        """Detach, hide, and cancel status loads in flight; safe to call twice."""
        self.detach()
        self.hide()
        await self._jobs.aclose()

    async def wait_idle(self) -> None:
        """Wait until no status load or menu action is running (for tests and shutdown)."""
        await self._jobs.wait_idle()

    # --- status ---------------------------------------------------------------------------------

    def request_refresh(self) -> None:
        """Reload the status soon; a burst of requests costs at most two loads."""
        if self._source is not None:
            self._refresher.request()

    async def refresh(self) -> None:
        """Reload the status now and show it."""
        await self._load_status()

    async def _load_status(self) -> None:
        if self._source is None:
            return
        try:
            status = await self._source.status()
        except Exception as exc:
            self._reporter.report(exc, "tray status")
            return
        self._apply(describe(status, self._now()))
        if status.get("state") == "ticking" and not self._open_ticks and self._settle_checks > 0:
            # The engine announces the end of a tick a moment before its task is over (it still
            # prunes the log), so a status read right then still says "ticking": look once more.
            self._settle_checks -= 1
            self._jobs.spawn(self._refresh_after(SETTLE_DELAY), name="tray-status-settle")

    async def _refresh_after(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.request_refresh()

    def _apply(self, view: TrayView) -> None:
        previous, self.view = self.view, view
        is_first = not self._has_applied
        self._has_applied = True
        if is_first or (view.icon_state, view.badge) != (previous.icon_state, previous.badge):
            icon = icons.tray_icon(view.icon_state, view.badge)
            self.tray.setIcon(icon)
            size = round(self.status_label.fontMetrics().height() * 1.7)
            self.status_icon.setPixmap(icon.pixmap(size, size))
        if is_first or view.tooltip != previous.tooltip:  # re-setting it would hide a tooltip being read
            self.tray.setToolTip(view.tooltip)
        self.status_label.setText(view.headline)
        self.status_label.setAccessibleName(f"Status: {view.headline}")
        self.status_detail.setText(view.detail)
        self.status_detail.setVisible(bool(view.detail))
        # A hidden header's layout would keep its old size: measure again, then set the action's text
        # (it changes with either line), which makes the menu measure the header again.
        header = self.status_action.defaultWidget()
        layout = header.layout() if header is not None else None
        if header is not None and layout is not None:
            layout.invalidate()
            header.adjustSize()
        # Menus exported over D-Bus show this one line: keep it short there.
        self.status_action.setText(f"{view.headline} — {shorten(view.detail, MAX_DETAIL)}" if view.detail
                                   else view.headline)
        self.pause_action.setText("Resume heartbeat" if view.is_paused else "Pause heartbeat")
        self.pause_action.setToolTip(
            "Start scheduled ticks again" if view.is_paused
            else "Stop scheduled ticks until you resume them" if view.can_pause
            else "The heartbeat is off in config.toml (heartbeat.enabled = false)"
        )
        self.pause_action.setEnabled(self._source is not None and view.can_pause)
        self.view_changed.emit(view)

    # --- notifications --------------------------------------------------------------------------

    def notify(self, title: str, text: str, target: str | None = None) -> None:
        """Tell the user something: a tray message, or the fallback (window banner) without a tray.

        ``target`` is the escalation a click on the message opens, if any.
        """
        self.message_shown.emit(title, text)
        if self.is_available and QSystemTrayIcon.supportsMessages():
            self._message_target = target
            self.tray.showMessage(title, text, icons.app_icon(), MESSAGE_MS)
        elif self._fallback_notify is not None:
            self._fallback_notify(title, text)
        else:
            log.info("notification (nowhere to show it yet): %s — %s", title, _WEB_APP_KEY.sub("#token=…", text))

    def _on_bridge_escalation_changed(self, _escalation: Any) -> None:
        self.request_refresh()   # the badge; announcing new cards is the notifier's (qt/notifier.py)

    def _on_tray_message_clicked(self) -> None:
        target, self._message_target = self._message_target, None
        self._open(target)

    # --- menu and clicks ------------------------------------------------------------------------

    def _open(self, escalation_id: str | None = None) -> None:
        if self._open_window is None:
            self.notify(APP_NAME, "OpenHuman is still starting; the window opens in a moment.")
            return
        try:
            self._open_window(escalation_id)
        except Exception as exc:
            self._reporter.report(exc, "open window")

    def _on_core_status_hint(self) -> None:
        self.request_refresh()

    def _on_bridge_tick_started(self, generation: int, _due: int) -> None:
        self._open_ticks.add(generation)
        self.request_refresh()

    def _on_bridge_tick_finished(self, generation: int, _outcome: str) -> None:
        self._open_ticks.discard(generation)
        self._settle_checks = SETTLE_CHECKS
        self.request_refresh()

    def _on_tray_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (QSystemTrayIcon.ActivationReason.Trigger, QSystemTrayIcon.ActivationReason.DoubleClick):
            self._open(None)

    def _on_open_action_triggered(self) -> None:
        self._open(None)

    def _on_web_action_triggered(self) -> None:
        self._jobs.spawn(self.open_web_app(), name="tray-web-app")

    async def open_web_app(self) -> Launch | None:
        """"Open web app": the page in the browser, and the truth about it. When no browser could be started
        the person is told so, with the link to open by hand (also put on the clipboard)."""
        if self._web_app is None:
            return None
        url = self._web_app.browser_url
        if url is None:
            reason = str(getattr(self._web_app.status(), "state_reason", "") or "It is not running.")
            self.notify("Web app not available", reason)
            return None
        try:
            launch = await self._open_url(url)
        except Exception as exc:
            self._reporter.report(exc, "open web app")
            return None
        if launch.opened:   # the address carries the page's key: never in the log
            log.info("web app: asked %s to open it in the web browser", launch.how)
            return launch
        log.info("web app: no web browser could be started (%s)", launch.problem)
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(url)
        self.notify("No web browser could be started",
                    f"{launch.problem.rstrip('.')}. Open this link in your browser (it is on the clipboard too): "
                    f"{url}")
        return launch

    def _on_run_now_action_triggered(self) -> None:
        if self._source is None:
            return
        try:
            self._source.trigger()
        except Exception as exc:
            self._reporter.report(exc, "Run Now")
            return
        log.info("Run Now from the tray")

    def _on_pause_action_triggered(self) -> None:
        self._jobs.spawn(self.toggle_pause(), name="tray-pause")

    async def toggle_pause(self) -> None:
        """Pause the heartbeat, or resume it when paused."""
        if self._source is None:
            return
        paused = not self.view.is_paused
        try:
            await self._source.set_paused(paused)
        except Exception as exc:
            self._reporter.report(exc, "pause" if paused else "resume")
        await self._load_status()

    def _on_quit_action_triggered(self) -> None:
        log.info("Quit from the tray")
        self._request_quit()
