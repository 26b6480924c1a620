"""The tray: what it shows for each status, its menu actions, its notifications (offscreen)."""

from __future__ import annotations

import asyncio
import logging
import sys
import types
from collections.abc import Coroutine, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor, QGuiApplication
from PySide6.QtWidgets import QSystemTrayIcon

from openhuman_desktop import autostart, events
from openhuman_desktop.errors import StoreUnavailable
from openhuman_desktop.qt import icons
from openhuman_desktop.qt.bridge import CoreBridge
from openhuman_desktop.qt.browser import Launch
from openhuman_desktop.qt.errors import ErrorReporter
from openhuman_desktop.qt.tray import TrayShell, describe, format_time
from openhuman_desktop.store import Escalation
from openhuman_desktop.store.events import EscalationChanged

NOW = datetime(2024, 5, 14, 15, 0).timestamp()
TRAY_SHOW_WARNING = "systemTrayWindowChanged"  # offscreen Qt warns when a tray icon is shown


def status(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "enabled": True, "inference_enabled": True, "interval_minutes": 5, "state": "idle",
        "state_reason": "Waiting for the next tick.", "task_count": 12, "total_ticks": 3,
        "last_tick_at": datetime(2024, 5, 14, 14, 2).timestamp(), "consecutive_failures": 0,
        "pending_escalations": 0, "next_tick_at": datetime(2024, 5, 14, 14, 7).timestamp(),
    }
    base.update(changes)
    return base


def escalation(escalation_id: str = "esc-1", state: str = "pending", priority: str = "normal") -> Escalation:
    return Escalation(
        id=escalation_id, task_id="task-1", log_id=None, title="Forward 3 urgent emails",
        description="Forward them to #team-alerts", priority=priority, status=state, created_at=NOW,
        resolved_at=None,
    )


class FakeSubconscious:
    """The three calls the tray makes, recorded; ``current`` is what status() returns."""

    def __init__(self) -> None:
        self.current = status()
        self.upcoming: list[dict[str, Any]] = []  # answered first, one per call
        self.status_calls = 0
        self.triggers = 0
        self.paused_calls: list[bool] = []
        self.fail_with: Exception | None = None

    async def status(self) -> dict[str, Any]:
        self.status_calls += 1
        await asyncio.sleep(0)
        if self.fail_with is not None:
            raise self.fail_with
        if self.upcoming:
            return self.upcoming.pop(0)
        return dict(self.current)

    def trigger(self) -> None:
        self.triggers += 1

    async def set_paused(self, paused: bool) -> None:
        self.paused_calls.append(paused)
        self.current = status(state="paused" if paused else "idle", state_reason="Paused by you.")


class Harness:
    def __init__(self, shell: TrayShell, source: FakeSubconscious, bus: events.EventBus, reporter: ErrorReporter,
                 loop: asyncio.AbstractEventLoop) -> None:
        self.shell = shell
        self.source = source
        self.bus = bus
        self.reporter = reporter
        self.loop = loop
        self.opened: list[str | None] = []
        self.quits: list[bool] = []
        self.fallback: list[tuple[str, str]] = []
        self.messages: list[tuple[str, str]] = []
        shell.message_shown.connect(lambda title, text: self.messages.append((title, text)))

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return self.loop.run_until_complete(asyncio.wait_for(coro, 10))

    def settle(self) -> None:
        self.run(self.shell.wait_idle())


@pytest.fixture
def harness(qloop: asyncio.AbstractEventLoop, tmp_path: Any) -> Iterator[Harness]:
    yield from make_harness(qloop, tmp_path, is_available=False)


@pytest.fixture
def tray_harness(qloop: asyncio.AbstractEventLoop, tmp_path: Any) -> Iterator[Harness]:
    yield from make_harness(qloop, tmp_path, is_available=True)


def make_harness(loop: asyncio.AbstractEventLoop, tmp_path: Any, *, is_available: bool) -> Iterator[Harness]:
    reporter = ErrorReporter(tmp_path / "openhuman.log")
    quits: list[bool] = []
    shell = TrayShell(is_available=is_available, request_quit=lambda: quits.append(True), reporter=reporter,
                      now=lambda: NOW)
    reporter.set_notifier(shell.notify)
    bus = events.EventBus()
    bridge = CoreBridge(bus)
    h = Harness(shell, FakeSubconscious(), bus, reporter, loop)
    h.quits = quits
    shell.attach(h.source, bridge, h.opened.append, lambda title, text: h.fallback.append((title, text)))
    h.settle()
    yield h
    h.run(shell.aclose())
    bridge.detach()


def menu_texts(shell: TrayShell) -> list[str]:
    return [action.text() for action in shell.menu.actions() if not action.isSeparator()]


# --- what the tray shows -----------------------------------------------------------------------------


@pytest.mark.parametrize(("changes", "icon", "headline"), [
    ({}, icons.IDLE, "Idle"),
    ({"state": "ticking", "state_reason": "Looking at 4 due task(s)."}, icons.THINKING, "Thinking…"),
    ({"pending_escalations": 2}, icons.ATTENTION, "2 approvals waiting"),
    ({"pending_escalations": 1}, icons.ATTENTION, "1 approval waiting"),
    ({"state": "degraded", "state_reason": "Ollama did not answer."}, icons.PROBLEM, "Problem"),
    ({"state": "paused"}, icons.PAUSED, "Paused"),
    ({"state": "disabled"}, icons.PAUSED, "Heartbeat off"),
])
def test_each_state_has_its_own_icon_and_headline(changes: dict[str, Any], icon: str, headline: str) -> None:
    view = describe(status(**changes), NOW)
    assert (view.icon_state, view.headline) == (icon, headline)
    assert view.tooltip.splitlines()[0] == f"OpenHuman — {headline}"


def test_problem_tooltip_says_why() -> None:
    view = describe(status(state="degraded", state_reason="Ollama at http://127.0.0.1:11434 did not answer.",
                           pending_escalations=3), NOW)
    lines = view.tooltip.splitlines()
    assert lines[1] == "Ollama at http://127.0.0.1:11434 did not answer."
    assert "3 approvals waiting" in view.tooltip  # the count is still said, and painted as a badge
    assert view.badge == 3


def test_tooltip_has_task_count_last_and_next_tick() -> None:
    view = describe(status(), NOW)
    assert view.tooltip.splitlines()[1:] == ["12 tasks", "Last tick: 14:02 · Next tick: 14:07"]
    paused = describe(status(state="paused", state_reason="Paused by you."), NOW)
    assert paused.tooltip.splitlines()[-1] == "Last tick: 14:02 · Next tick: paused"
    fresh = describe(status(last_tick_at=None, task_count=1), NOW)
    assert "1 task\n" in fresh.tooltip and "Last tick: never" in fresh.tooltip


def test_format_time_names_the_day_when_not_today() -> None:
    assert format_time(datetime(2024, 5, 14, 9, 5).timestamp(), NOW) == "09:05"
    assert format_time(datetime(2024, 5, 12, 9, 5).timestamp(), NOW) == "Sun 09:05"
    assert format_time(datetime(2024, 3, 3, 9, 5).timestamp(), NOW) == "3 Mar 09:05"
    assert format_time(None, NOW) == "never"


def test_badge_is_painted_on_the_attention_icon(qapp: Any) -> None:
    inside_badge = QPoint(17, 9)
    assert icons.render(icons.ATTENTION, 32).pixelColor(inside_badge) != QColor(icons.BADGE_FILL)
    assert icons.render(icons.ATTENTION, 32, count=3).pixelColor(inside_badge) == QColor(icons.BADGE_FILL)
    assert icons.badge_text(12) == "9+" and icons.badge_text(4) == "4"
    for state in icons.TRAY_STATES:
        assert not icons.tray_icon(state).isNull()
        assert not icons.tray_icon(state, 5).pixmap(22, 22).isNull()
    assert not icons.app_icon().isNull()


# --- menu ----------------------------------------------------------------------------------------------


def test_menu_offers_the_commands_with_accessible_texts(harness: Harness) -> None:
    texts = menu_texts(harness.shell)
    assert texts[1:] == ["Open Intelligence", "Open web app", "Run Now", "Pause heartbeat", "Set up models…",
                         "Settings…", "Start at login", "Quit"]
    assert texts[0] == "Idle — 12 tasks · next tick 14:07"  # what menus exported over D-Bus show
    assert harness.shell.status_label.text() == "Idle"
    assert harness.shell.status_detail.text() == "12 tasks · next tick 14:07"
    assert harness.shell.menu.accessibleName()
    for action in harness.shell.menu.actions():
        if not action.isSeparator():
            assert action.toolTip() and action.toolTip() != action.text()


def test_before_the_core_runs_only_quit_works(qapp: Any, tmp_path: Any) -> None:
    shell = TrayShell(is_available=False, request_quit=lambda: None, reporter=ErrorReporter(tmp_path / "x.log"))
    assert shell.tray.toolTip() == "OpenHuman — starting…"
    assert not shell.run_now_action.isEnabled() and not shell.pause_action.isEnabled()
    assert shell.quit_action.isEnabled()
    shell.open_action.trigger()  # nothing to open yet: says so instead of failing
    shell.deleteLater()


class FakeWebApp:
    def __init__(self, browser_url: str | None, reason: str = "") -> None:
        self.browser_url = browser_url
        self.reason = reason

    def status(self) -> Any:
        return types.SimpleNamespace(state_reason=self.reason)


def test_open_web_app_opens_the_address_with_its_key(qapp: Any, tmp_path: Any, qrun: Any,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    opened: list[str] = []

    async def browser(url: str) -> Launch:
        opened.append(url)
        return Launch(True, "xdg-open")

    shell = TrayShell(is_available=False, request_quit=lambda: None, reporter=ErrorReporter(tmp_path / "x.log"),
                      open_url=browser)
    assert not shell.web_action.isEnabled()  # before the core runs
    shell.attach_web_app(FakeWebApp("http://127.0.0.1:4321/#token=abc"))
    assert shell.web_action.isEnabled() and shell.web_action.toolTip()
    with caplog.at_level(logging.INFO, logger="openhuman_desktop.qt.tray"):
        shell.web_action.trigger()
        qrun(shell.wait_idle())
    assert opened == ["http://127.0.0.1:4321/#token=abc"]
    assert "asked xdg-open to open it" in caplog.text and "abc" not in caplog.text
    shell.deleteLater()


def test_open_web_app_says_why_when_it_does_not_listen(qapp: Any, tmp_path: Any, qrun: Any) -> None:
    opened: list[str] = []

    async def browser(url: str) -> Launch:
        opened.append(url)
        return Launch(True, "xdg-open")

    shown: list[tuple[str, str]] = []
    shell = TrayShell(is_available=False, request_quit=lambda: None, reporter=ErrorReporter(tmp_path / "x.log"),
                      open_url=browser)
    shell.message_shown.connect(lambda title, text: shown.append((title, text)))
    shell.attach_web_app(FakeWebApp(None, "Off in config.toml ([channels.webapp] enabled = false)."))
    shell.web_action.trigger()
    qrun(shell.wait_idle())
    assert opened == []
    assert shown == [("Web app not available", "Off in config.toml ([channels.webapp] enabled = false).")]
    shell.deleteLater()


def fake_xdg_open(folder: Path, script: str) -> None:
    """An ``xdg-open`` first on PATH that does what ``script`` (shell) says, instead of starting a browser."""
    folder.mkdir(exist_ok=True)
    program = folder / "xdg-open"
    program.write_text(f"#!/bin/sh\n{script}\n", encoding="utf-8")
    program.chmod(0o755)


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="xdg-open is the way on Linux and the BSDs")
def test_when_no_browser_opens_the_person_is_told_with_the_link_and_the_log_says_so(
        qapp: Any, tmp_path: Path, qrun: Any, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """Qt's openUrl said yes as soon as xdg-open started; xdg-open then found no browser and gave up, and the
    log said "web app opened in the browser" with no browser in sight."""
    url = "http://127.0.0.1:4321/#token=s3cr3t-key"
    fake_xdg_open(tmp_path / "bin", "echo \"xdg-open: no method available for opening '$1'\" >&2; exit 3")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    shown: list[tuple[str, str]] = []
    shell = TrayShell(is_available=False, request_quit=lambda: None, reporter=ErrorReporter(tmp_path / "x.log"))
    shell.message_shown.connect(lambda title, text: shown.append((title, text)))
    shell.attach_web_app(FakeWebApp(url))
    with caplog.at_level(logging.INFO):
        launch = qrun(shell.open_web_app())
    assert launch is not None and not launch.opened
    [(title, text)] = shown
    assert title == "No web browser could be started"
    assert "xdg-open: no method available for opening 'the link'" in text and text.endswith(url)   # to open by hand
    assert QGuiApplication.clipboard().text() == url
    assert "no web browser could be started" in caplog.text and "opened" not in caplog.text
    assert "s3cr3t-key" not in caplog.text                                          # the key never in a log
    shell.deleteLater()


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="xdg-open is the way on Linux and the BSDs")
def test_a_browser_that_xdg_open_started_is_reported_as_opened(qapp: Any, tmp_path: Path, qrun: Any,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    seen = tmp_path / "seen.txt"
    fake_xdg_open(tmp_path / "bin", f"echo \"$1\" > '{seen}'")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    shown: list[tuple[str, str]] = []
    shell = TrayShell(is_available=False, request_quit=lambda: None, reporter=ErrorReporter(tmp_path / "x.log"))
    shell.message_shown.connect(lambda title, text: shown.append((title, text)))
    shell.attach_web_app(FakeWebApp("http://127.0.0.1:4321/#token=abc"))
    launch = qrun(shell.open_web_app())
    assert launch == Launch(True, "xdg-open")
    assert seen.read_text().strip() == "http://127.0.0.1:4321/#token=abc" and shown == []
    shell.deleteLater()


def test_run_now_triggers_a_tick(harness: Harness) -> None:
    harness.shell.run_now_action.trigger()
    assert harness.source.triggers == 1


def test_pause_then_resume(harness: Harness) -> None:
    harness.shell.pause_action.trigger()
    harness.settle()
    assert harness.source.paused_calls == [True]
    assert harness.shell.pause_action.text() == "Resume heartbeat"
    assert harness.shell.view.icon_state == icons.PAUSED
    harness.shell.pause_action.trigger()
    harness.settle()
    assert harness.source.paused_calls == [True, False]
    assert harness.shell.pause_action.text() == "Pause heartbeat"


def test_pause_is_disabled_when_the_heartbeat_is_off_in_config(harness: Harness) -> None:
    harness.source.current = status(state="disabled", state_reason="off in config.toml")
    harness.run(harness.shell.refresh())
    assert not harness.shell.pause_action.isEnabled()
    assert "config.toml" in harness.shell.pause_action.toolTip()


def test_quit_only_requests_the_quit(harness: Harness) -> None:
    harness.shell.quit_action.trigger()
    assert harness.quits == [True]


def test_open_and_left_click_open_the_window(harness: Harness) -> None:
    harness.shell.open_action.trigger()
    harness.shell.tray.activated.emit(QSystemTrayIcon.ActivationReason.Trigger)
    harness.shell.tray.activated.emit(QSystemTrayIcon.ActivationReason.Context)  # the menu, not the window
    assert harness.opened == [None, None]


# --- status follows the core -------------------------------------------------------------------------


def test_status_follows_core_events_and_bursts_are_coalesced(harness: Harness) -> None:
    before = harness.source.status_calls
    harness.source.current = status(state="ticking", state_reason="Looking at 3 due task(s).")
    harness.bus.publish(events.TickStarted(1, 3))
    for _ in range(20):
        harness.bus.publish(events.StatusChanged())
    harness.settle()
    assert harness.shell.view.icon_state == icons.THINKING
    assert harness.shell.tray.toolTip().startswith("OpenHuman — Thinking…")
    assert harness.source.status_calls - before <= 2
    harness.source.current = status(pending_escalations=2)
    harness.bus.publish(events.TickFinished(1, "ok"))
    harness.settle()
    assert (harness.shell.view.icon_state, harness.shell.view.badge) == (icons.ATTENTION, 2)
    assert harness.shell.status_label.text() == "2 approvals waiting"


def test_a_tick_that_is_still_winding_down_is_looked_at_again(harness: Harness) -> None:
    ticking = status(state="ticking", state_reason="Looking at 3 due task(s).")
    harness.source.current = ticking
    harness.bus.publish(events.TickStarted(7, 3))
    harness.settle()
    assert harness.shell.view.icon_state == icons.THINKING
    # The engine says "finished" while its task still prunes the log: the first read still says ticking.
    harness.source.upcoming = [ticking, ticking]
    harness.source.current = status(state="degraded", state_reason="The model runner crashed.")
    harness.bus.publish(events.TickFinished(7, "failed"))
    harness.settle()
    assert harness.shell.view.icon_state == icons.PROBLEM
    assert "The model runner crashed." in harness.shell.tray.toolTip()


def test_the_menu_grows_with_a_long_problem_text(harness: Harness) -> None:
    harness.source.current = status(state="degraded", state_reason="Ollama at http://127.0.0.1:11434 answered "
                                    "HTTP 500: the model runner crashed (out of memory)")
    harness.run(harness.shell.refresh())
    assert harness.shell.status_detail.text().startswith("Ollama at http://127.0.0.1:11434 answered")
    assert harness.shell.menu.sizeHint().width() >= harness.shell.status_detail.sizeHint().width()


def test_a_failing_status_is_reported_not_raised(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    harness.source.fail_with = StoreUnavailable("The database is locked by another program.")
    harness.run(harness.shell.refresh())
    assert "The database is locked by another program." in harness.reporter.shown
    assert any("database is locked" in record.getMessage() for record in caplog.records)


# --- notifications -------------------------------------------------------------------------------------


def test_cards_and_messages_are_announced_by_the_notifier_not_the_tray(harness: Harness) -> None:
    """Issue 14: the tray and the engine's Notified both announced each card; now qt/notifier.py does, once."""
    harness.bus.publish(EscalationChanged(escalation()))
    harness.bus.publish(events.Notified("Approval needed", "Forward 3 urgent emails"))
    harness.settle()
    assert harness.messages == []


def test_without_a_tray_messages_go_to_the_window(harness: Harness) -> None:
    harness.shell.notify("Heads up", "The build finished.")
    assert harness.messages == [("Heads up", "The build finished.")]
    assert harness.fallback == harness.messages


@pytest.mark.qt_log_ignore(TRAY_SHOW_WARNING)
def test_clicking_a_message_opens_its_card(tray_harness: Harness) -> None:
    tray_harness.shell.show()
    tray_harness.shell.notify("Approval needed (critical)", "Forward 3 urgent emails", target="esc-9")
    assert tray_harness.messages[-1][0] == "Approval needed (critical)"
    assert tray_harness.fallback == []
    tray_harness.shell.tray.messageClicked.emit()
    assert tray_harness.opened == ["esc-9"]
    tray_harness.shell.notify("Digest ready", "Your weekly digest is in the workspace.")
    tray_harness.shell.tray.messageClicked.emit()
    assert tray_harness.opened == ["esc-9", None]


def test_tray_icon_is_only_shown_where_a_tray_exists(harness: Harness) -> None:
    harness.shell.show()
    assert not harness.shell.tray.isVisible()



LONG_REASON = ("The reasoning tier (agentic-v1 at https://api.example.com/v1) answered HTTP 500 on every request "
               "since 13:40, so nothing that needs your approval can be written. Check the provider's status page, "
               "or set [llm.reasoning] in config.toml to the local model.")


def test_a_long_degraded_reason_is_wrapped_and_whole_in_the_tooltip_and_menu(harness: Harness) -> None:
    harness.source.current = status(state="degraded", state_reason=LONG_REASON, consecutive_failures=3)
    harness.run(harness.shell.refresh())
    shell = harness.shell
    assert shell.view.icon_state == icons.PROBLEM
    tooltip = shell.tray.toolTip()
    assert "config.toml to the local model." in tooltip, "what to do is at the end: it is not cut off"
    assert max(len(line) for line in tooltip.splitlines()) <= 80, "a tooltip line fits on a screen"
    detail = shell.status_detail
    assert detail.text() == LONG_REASON and detail.wordWrap()
    unit = detail.fontMetrics().horizontalAdvance("M")
    assert shell.menu.sizeHint().width() <= unit * 48, "the menu does not grow as wide as the text is long"
    assert detail.sizeHint().height() > detail.fontMetrics().height() * 2, "it wraps onto several lines"


def test_start_at_login_writes_and_removes_the_autostart_entry(qapp: Any, tmp_path: Any,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    shown: list[tuple[str, str]] = []
    shell = TrayShell(is_available=False, request_quit=lambda: None, reporter=ErrorReporter(tmp_path / "x.log"))
    shell.message_shown.connect(lambda title, text: shown.append((title, text)))
    action = shell.autostart_action
    assert action.isCheckable() and not action.isEnabled()  # before the core runs
    shell.attach_autostart(tmp_path / "ws")
    assert action.isEnabled() and not action.isChecked()
    entry = autostart.entry_path()
    action.trigger()
    assert action.isChecked() and entry.exists() and str(tmp_path / "ws") in entry.read_text(encoding="utf-8")
    action.trigger()
    assert not action.isChecked() and not entry.exists()
    # An entry the user wrote is in the way: nothing is overwritten, the box stays off and the user is told.
    entry.write_text("[Desktop Entry]\nExec=mine\n", encoding="utf-8")
    action.trigger()
    assert not action.isChecked() and entry.read_text(encoding="utf-8") == "[Desktop Entry]\nExec=mine\n"
    assert shown and shown[-1][0] == "Start at login not changed" and "not written by OpenHuman" in shown[-1][1]
    # A later start finds the entry it wrote and shows the box checked.
    entry.unlink()
    autostart.enable(tmp_path / "ws")
    again = TrayShell(is_available=False, request_quit=lambda: None, reporter=ErrorReporter(tmp_path / "y.log"))
    again.attach_autostart(tmp_path / "ws")
    assert again.autostart_action.isChecked() and entry.exists()
    shell.deleteLater()
    again.deleteLater()


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="xdg-open is the way on Linux and the BSDs")
def test_an_xdg_open_that_stays_running_started_a_browser(qapp: Any, tmp_path: Path, qrun: Any,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A browser started in the foreground keeps xdg-open waiting: that is a browser that opened."""
    from openhuman_desktop.qt import browser

    fake_xdg_open(tmp_path / "bin", "sleep 1")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    monkeypatch.setattr(browser, "XDG_OPEN_WAIT", 0.2)
    launch = qrun(browser.open_in_browser("http://127.0.0.1:4321/#token=abc"))
    assert launch.opened and launch.how.startswith("xdg-open")
