"""The Intelligence window: the shell's interface, the status bar, Run Now, accessibility and the theme."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QSplitter,
    QTabWidget,
    QWidget,
)

from openhuman_desktop.errors import StoreUnavailable
from openhuman_desktop.memory.store import Memory
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.status_bar import StatusBarView
from openhuman_desktop.qt.intelligence.theme import ACCENTS
from openhuman_desktop.qt.intelligence.time_text import exact_time, relative_time
from openhuman_desktop.qt.intelligence.window import TAB_NAMES
from openhuman_desktop.qt.wiring import window_ports

CONTROLS = (QAbstractButton, QLineEdit, QComboBox, QPlainTextEdit, QAbstractItemView, QTabWidget)


def status_bar(window: IntelligenceWindow) -> StatusBarView:
    return window.status_bar_view


# --- the interface the app shell relies on ------------------------------------------------------------


def test_the_window_is_titled_and_has_the_five_tabs(fake_window: IntelligenceWindow) -> None:
    assert fake_window.windowTitle() == "OpenHuman — Intelligence"
    tabs = [fake_window.tabs.tabText(i) for i in range(fake_window.tabs.count())]
    assert tabs == ["Subconscious", "Skills", "Memory", "Chat", "Agent"]
    assert fake_window.current_tab == "subconscious"


@pytest.mark.parametrize("name", ["skills", "memory", "chat", "agent", "subconscious"])
def test_show_tab_switches_by_name(fake_window: IntelligenceWindow, settle: Any, name: str) -> None:
    fake_window.show_tab(name)
    settle(fake_window)
    assert fake_window.current_tab == name


def test_show_tab_refuses_an_unknown_name(fake_window: IntelligenceWindow) -> None:
    with pytest.raises(ValueError, match="unknown tab"):
        fake_window.show_tab("settings")


def test_closing_hides_the_window_and_the_app_lives_on(fake_window: IntelligenceWindow) -> None:
    assert fake_window.isVisible()
    assert not fake_window.close()   # the close event is ignored …
    assert fake_window.isHidden()    # … and the window hidden
    fake_window.bring_to_front()
    assert fake_window.isVisible()
    assert not fake_window.windowState() & Qt.WindowState.WindowMinimized


def test_bring_to_front_restores_a_minimised_window(fake_window: IntelligenceWindow) -> None:
    fake_window.showMinimized()
    fake_window.bring_to_front()
    assert fake_window.isVisible()
    assert not fake_window.windowState() & Qt.WindowState.WindowMinimized


def test_show_notice_is_a_dismissible_banner(fake_window: IntelligenceWindow, qtbot: Any) -> None:
    banner = fake_window.notice_banner
    assert banner.isHidden()
    fake_window.show_notice("OpenHuman is already running; here it is.")
    assert banner.isVisible()
    assert banner.label.text() == "OpenHuman is already running; here it is."
    qtbot.mouseClick(banner.close_button, Qt.MouseButton.LeftButton)
    assert banner.isHidden()


def test_open_skill_shows_that_skill(fake_window: IntelligenceWindow, settle: Any) -> None:
    assert fake_window.open_skill("gmail")
    settle(fake_window)
    assert fake_window.current_tab == "skills"
    assert fake_window.skills_view.current_skill_name() == "gmail"
    assert fake_window.skills_view.detail.title_label.text() == "Gmail"
    assert not fake_window.open_skill("no-such-skill")


def test_focus_escalation_raises_the_window_on_the_card(
    fake_window: IntelligenceWindow, fake_services: Any, fakes: Any, settle: Any, qrun: Any
) -> None:
    escalation = fakes.make_escalation(escalation_id="esc-9")
    fake_services.subconscious.escalations[escalation.id] = escalation
    fake_window.show_tab("memory")
    fake_window.hide()
    fake_window.focus_escalation("esc-9")     # not loaded yet: the window loads it, then focuses it
    settle(fake_window)
    assert fake_window.isVisible()
    assert fake_window.current_tab == "subconscious"
    card = fake_window.approvals_view.card("esc-9")
    assert card is not None
    assert card.property("highlighted")
    fake_window.focus_escalation("esc-9")
    assert fake_window.focusWidget() is card, "the card, not its Go ahead (that takes a Tab)"


def test_focus_escalation_of_an_answered_request_says_so(fake_window: IntelligenceWindow, settle: Any) -> None:
    fake_window.focus_escalation("gone")
    settle(fake_window)
    assert "already answered" in fake_window.notice_banner.label.text()


def test_refresh_loads_every_section_from_the_real_services(intelligence_window: IntelligenceWindow) -> None:
    window = intelligence_window
    tasks = window.tasks_view.tasks()
    assert {task.title for task in tasks} == {
        "Check connected skills for errors or disconnections",
        "Review new memory updates for actionable items",
        "Monitor system health (Ollama, memory, connections)",
    }
    assert all(task.is_system for task in tasks), "each is shown with the “default” badge"
    assert window.tasks_view.list_view.isVisible()
    assert window.tasks_view.empty_label.isVisible()
    assert window.tasks_view.empty_label.text().startswith("None of your own yet.")
    assert status_bar(window).tasks_label.text() == "3 tasks"
    assert status_bar(window).ticks_label.text() == "0 ticks"
    assert status_bar(window).last_tick_label.text() == "No tick yet"
    assert window.approvals_view.empty_label.isVisible()
    assert window.activity_view.empty_label.isVisible()
    assert window.skills_view.skills_list.count() >= 4


def test_aclose_disconnects_the_bridge_and_is_idempotent(
    fake_window: IntelligenceWindow, fake_bridge: Any, fakes: Any, qrun: Any
) -> None:
    qrun(fake_window.aclose())
    qrun(fake_window.aclose())
    fake_bridge.tasks_changed.emit([fakes.make_task("Arrives after closing", task_id="late")])
    assert fake_window.tasks_view.task("late") is None


# --- status bar ---------------------------------------------------------------------------------------


def test_status_bar_shows_counts_and_relative_last_tick_with_exact_tooltip(
    fake_window: IntelligenceWindow, fakes: Any
) -> None:
    bar = status_bar(fake_window)
    bar.set_status(fakes.base_status(task_count=1, total_ticks=12, last_tick_at=fakes.NOW - 240))
    assert bar.tasks_label.text() == "1 task"
    assert bar.ticks_label.text() == "12 ticks"
    assert bar.last_tick_label.text() == "Last tick 4 min ago"
    assert bar.last_tick_label.toolTip() == exact_time(fakes.NOW - 240)
    assert bar.next_tick_label.text().startswith("Next tick ")
    assert bar.failed_label.isHidden()
    assert bar.reason_label.isHidden()
    assert bar.state_label.text() == "Idle"


def test_status_bar_shows_failures_in_coral(fake_window: IntelligenceWindow, fakes: Any) -> None:
    bar = status_bar(fake_window)
    bar.set_status(fakes.base_status(consecutive_failures=2, state="degraded",
                                     state_reason="Ollama is not running at http://127.0.0.1:11434"))
    assert bar.failed_label.isVisible()
    assert bar.failed_label.text() == "2 failed"
    coral = {QColor(c).name() for c in ACCENTS["coral"]}
    assert bar.failed_label.color().name() in coral
    assert bar.reason_label.isVisible()
    assert bar.reason_label.text() == "Ollama is not running at http://127.0.0.1:11434"
    assert bar.state_label.text() == "Degraded"


@pytest.mark.parametrize("state, reason, shown", [
    ("paused", "Paused by you; resume it to let the assistant look at your tasks.", True),
    ("disabled", "The heartbeat is off (heartbeat.enabled = false in config.toml).", True),
    ("idle", "Waiting for the next tick.", False),
])
def test_status_bar_shows_the_reason_when_degraded_or_paused(
    fake_window: IntelligenceWindow, fakes: Any, state: str, reason: str, shown: bool
) -> None:
    bar = status_bar(fake_window)
    bar.set_status(fakes.base_status(state=state, state_reason=reason, next_tick_at=None))
    assert bar.reason_label.isVisible() is shown
    if shown:
        assert bar.reason_label.text() == reason
        assert bar.next_tick_label.text() == ""


def test_status_bar_ages_relative_times(fake_window: IntelligenceWindow, fake_services: Any, fakes: Any) -> None:
    bar = status_bar(fake_window)
    bar.set_status(fakes.base_status(last_tick_at=fakes.NOW - 60))
    assert bar.last_tick_label.text() == "Last tick 1 min ago"
    fake_services.clock.set_wall(fakes.NOW + 3 * 3600)
    bar._on_clock_timeout()
    assert bar.last_tick_label.text() == "Last tick 3 h ago"


def test_status_bar_shows_a_store_error(fake_window: IntelligenceWindow, fake_services: Any, qrun: Any) -> None:
    fake_services.subconscious.fail["status"] = StoreUnavailable("The database is locked by another program.")
    qrun(fake_window.status_bar_view.refresh())
    assert fake_window.status_bar_view.error_label.isVisible()
    assert "locked by another program" in fake_window.status_bar_view.error_label.text()


def test_status_bar_follows_status_changed_events(
    fake_window: IntelligenceWindow, fake_services: Any, fake_bridge: Any, fakes: Any, settle: Any
) -> None:
    fake_services.subconscious.current = fakes.base_status(total_ticks=13)
    fake_bridge.status_changed.emit()
    settle(fake_window)
    assert status_bar(fake_window).ticks_label.text() == "13 ticks"


def test_relative_time_words() -> None:
    assert relative_time(1000, 1010) == "just now"
    assert relative_time(1000, 1000 + 4 * 60) == "4 min ago"
    assert relative_time(1000, 1000 + 2 * 3600) == "2 h ago"
    assert relative_time(1000, 1000 + 3 * 86400) == "3 days ago"
    assert relative_time(1000 + 600, 1000) == "in 10 min"


# --- Run Now ------------------------------------------------------------------------------------------


def test_run_now_shows_progress_for_the_whole_tick(
    fake_window: IntelligenceWindow, fake_services: Any, fake_bridge: Any, qtbot: Any, settle: Any
) -> None:
    bar = status_bar(fake_window)
    qtbot.mouseClick(bar.run_now_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert fake_services.subconscious.triggered == 1
    assert bar.is_busy and not bar.run_now_button.isEnabled()
    assert bar.progress_label.text() == "Starting…"
    fake_bridge.tick_finished.emit(6, "cancelled")   # an older tick ending (superseded) is not ours
    fake_services.subconscious.current["state"] = "ticking"
    settle(fake_window)
    assert bar.is_busy
    fake_bridge.tick_started.emit(7, 3)
    assert bar.progress_label.text() == "Looking at 3 tasks…"
    assert bar.is_busy and not bar.run_now_button.isEnabled()
    fake_services.subconscious.current["state"] = "idle"
    fake_bridge.tick_finished.emit(7, "ok")
    settle(fake_window)
    assert not bar.is_busy
    assert bar.run_now_button.isEnabled()
    assert bar.progress_label.isHidden()


def test_run_now_settles_when_its_tick_never_started(
    fake_window: IntelligenceWindow, fake_services: Any, fake_bridge: Any, qtbot: Any, settle: Any
) -> None:
    bar = status_bar(fake_window)
    qtbot.mouseClick(bar.run_now_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    fake_bridge.tick_finished.emit(4, "cancelled")
    settle(fake_window)
    assert not bar.is_busy
    assert bar.run_now_button.isEnabled()


def test_run_now_error_is_shown_on_the_status_bar(
    fake_window: IntelligenceWindow, fake_services: Any, qtbot: Any, settle: Any
) -> None:
    fake_services.subconscious.fail["trigger"] = RuntimeError("the subconscious engine is not attached")
    bar = status_bar(fake_window)
    qtbot.mouseClick(bar.run_now_button, Qt.MouseButton.LeftButton)
    settle(fake_window)
    assert "not attached" in bar.error_label.text()
    assert bar.run_now_button.isEnabled()


def test_run_now_on_the_real_engine(
    intelligence_window: IntelligenceWindow, gui_harness: Any, qtbot: Any, settle: Any, until: Any
) -> None:
    bar = status_bar(intelligence_window)
    gui_harness.local.decide_by_title({}, default="noop")
    qtbot.mouseClick(bar.run_now_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    assert bar.is_busy
    until(lambda: not bar.is_busy and bar.ticks_label.text() == "1 tick", message="tick did not finish")
    assert bar.run_now_button.isEnabled()
    assert bar.last_tick_label.text() == "Last tick just now"
    model = intelligence_window.activity_view.model
    until(lambda: model.rowCount() == 3 and all(e.decision == "noop" for e in model.entries()))


def test_an_unreachable_model_is_shown(
    qtbot: Any, qrun: Any, tmp_path: Any, monkeypatch: Any, settle: Any
) -> None:
    from openhuman_desktop.qt.bridge import CoreBridge
    from tests.fakes.engine_harness import open_harness

    manager = open_harness(tmp_path, monkeypatch, local="down", keep_system_tasks=True)
    harness = qrun(manager.__aenter__())
    core_bridge = CoreBridge(harness.services.bus)
    window = IntelligenceWindow(window_ports(harness.services), core_bridge)
    try:
        qrun(window.refresh())
        bar = status_bar(window)
        assert bar.state_label.text() == "Degraded"
        shown = bar.reason_label.text() + bar.model_label.text()
        assert "127.0.0.1" in shown
    finally:
        qrun(window.aclose())
        window.deleteLater()
        core_bridge.detach()
        qrun(manager.__aexit__(None, None, None))


# --- accessibility, keyboard, theme -------------------------------------------------------------------


def _is_qt_internal(widget: QWidget) -> bool:
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, (QComboBox, QAbstractItemView, QTabWidget)) and parent is not widget:
            return True
        parent = parent.parentWidget()
    return widget.objectName().startswith("qt_")


@pytest.mark.parametrize("tab", ["subconscious", "skills", "memory"])
def test_every_control_has_an_accessible_name(
    fake_window: IntelligenceWindow, fake_services: Any, fakes: Any, settle: Any, qrun: Any, tab: str
) -> None:
    fake_services.subconscious.escalations["e"] = fakes.make_escalation(escalation_id="e")
    qrun(fake_window.refresh())
    fake_window.show_tab(tab)
    settle(fake_window)
    unnamed = [f"{type(w).__name__} {w.text() if hasattr(w, 'text') else ''!r}"
               for w in fake_window.findChildren(QWidget)
               if isinstance(w, CONTROLS) and not _is_qt_internal(w) and not w.accessibleName()]
    assert unnamed == []


def test_controls_are_reachable_with_the_keyboard(fake_window: IntelligenceWindow) -> None:
    unreachable = [w.accessibleName() for w in fake_window.findChildren(QWidget)
                   if isinstance(w, (QAbstractButton, QLineEdit, QComboBox, QAbstractItemView))
                   and not _is_qt_internal(w) and not (w.focusPolicy() & Qt.FocusPolicy.TabFocus)]
    assert unreachable == []


def test_tab_shortcuts_switch_tabs(fake_window: IntelligenceWindow, qtbot: Any, settle: Any) -> None:
    fake_window.activateWindow()
    qtbot.keyClick(fake_window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    settle(fake_window)
    assert fake_window.current_tab == "skills"


def _dark_palette() -> QPalette:
    palette = QPalette()
    for role, color in [(QPalette.ColorRole.Window, "#202124"), (QPalette.ColorRole.WindowText, "#E8EAED"),
                        (QPalette.ColorRole.Base, "#2A2B2E"), (QPalette.ColorRole.Text, "#E8EAED"),
                        (QPalette.ColorRole.Button, "#303134"), (QPalette.ColorRole.ButtonText, "#E8EAED"),
                        (QPalette.ColorRole.PlaceholderText, "#9AA0A6")]:
        palette.setColor(role, QColor(color))
    return palette


def test_the_window_follows_a_dark_palette(
    fake_window: IntelligenceWindow, fake_services: Any, fakes: Any, qrun: Any, qapp: QApplication
) -> None:
    fake_services.subconscious.escalations["e"] = fakes.make_escalation(escalation_id="e", priority="critical")
    qrun(fake_window.refresh())
    card = fake_window.approvals_view.card("e")
    assert card is not None
    light_badge = card.priority_badge.color().name()
    light_button = card.approve_button.styleSheet()
    original = qapp.palette()
    try:
        qapp.setPalette(_dark_palette())
        qrun(asyncio.sleep(0.05))   # palette changes reach the widgets as posted events
        assert card.priority_badge.color().name() == QColor(ACCENTS["coral"][1]).name() != light_badge
        assert card.approve_button.styleSheet() != light_button, "primary buttons follow the highlight colour"
        assert fake_window.grab().width() > 0
    finally:
        qapp.setPalette(original)
        qrun(asyncio.sleep(0.05))
    assert card.priority_badge.color().name() == light_badge


def test_sizes_follow_the_font(fake_window: IntelligenceWindow) -> None:
    button = fake_window.status_bar_view.run_now_button
    small = fake_window.status_bar_view.state_dot.sizeHint()
    font = fake_window.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    fake_window.status_bar_view.state_dot.setFont(font)
    assert fake_window.status_bar_view.state_dot.sizeHint().width() > small.width()
    assert button.sizeHint().height() > 0


def test_a_hidden_window_reloads_the_status_only_when_shown_again(
    fake_window: IntelligenceWindow, fake_services: Any, fake_bridge: Any, fakes: Any, settle: Any
) -> None:
    fake_window.close()
    calls = len(fake_services.subconscious.called("status"))
    fake_services.subconscious.current = fakes.base_status(total_ticks=40)
    for _ in range(5):
        fake_bridge.status_changed.emit()
    settle(fake_window)
    assert len(fake_services.subconscious.called("status")) == calls, "no work while hidden"
    fake_window.bring_to_front()
    settle(fake_window)
    assert status_bar(fake_window).ticks_label.text() == "40 ticks"


def test_at_the_minimum_size_the_add_task_field_stays_usable(
    fake_window: IntelligenceWindow, qrun: Any, fakes: Any
) -> None:
    fake_window.show_tab("subconscious")
    fake_window.status_bar_view.set_status(fakes.base_status(
        consecutive_failures=12, state="degraded", last_tick_at=fakes.NOW - 240,
        state_reason="The reasoning tier (agentic-v1) answers HTTP 500 on every request; check config.toml."))
    fake_window.resize(fake_window.minimumSize())
    qrun(asyncio.sleep(0.05))
    add = fake_window.tasks_view.add_view
    field = add.title_edit
    unit = field.fontMetrics().horizontalAdvance("M")
    assert field.width() >= unit * 12, f"the task field is {field.width()} px wide"
    assert add.schedule_combo.isVisible() and add.add_button.isVisible()
    assert add.add_button.geometry().right() <= add.contentsRect().right() + 1
    bar = fake_window.status_bar_view
    for label in (bar.state_label, bar.tasks_label, bar.last_tick_label):
        if label.isVisible():
            assert label.width() >= label.sizeHint().width(), f"{label.accessibleName()} is cut off"
    hint = fake_window.activity_view.hint_label
    assert not hint.isVisible() or hint.width() >= hint.sizeHint().width(), "the log's hint is cut off"
    fake_window.resize(fake_window.minimumWidth() * 2, fake_window.height())
    qrun(asyncio.sleep(0.05))
    assert field.y() == add.schedule_combo.y() or abs(field.geometry().center().y()
                                                      - add.schedule_combo.geometry().center().y()) <= 2, \
        "with room, the field and the schedule share one line"


def _tab_chain(window: IntelligenceWindow) -> list[QWidget]:
    """The widgets Tab visits in the shown tab, in order (from the tab bar round to it again)."""
    start = window.tabs.tabBar()
    stops: list[QWidget] = []
    widget: QWidget = start
    for _ in range(500):
        widget = widget.nextInFocusChain()
        if widget is start or widget is window.tabs:   # round again (the tab widget hands on to its bar)
            break
        if (widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget.isVisible() and widget.isEnabled()
                and widget.window() is window):
            stops.append(widget)
    return stops


@pytest.mark.parametrize("tab", TAB_NAMES)
def test_tab_order_follows_the_screen(
    fake_window: IntelligenceWindow, fake_services: Any, fakes: Any, qrun: Any, settle: Any, tab: str
) -> None:
    """Top to bottom within a column, then on to the column on the right; approval cards where they are."""
    fake_services.subconscious.escalations["e"] = fakes.make_escalation(escalation_id="e", created_at=2)
    fake_services.subconscious.log.extend([fakes.make_entry(1), fakes.make_entry(2)])
    fake_services.memory.memories.append(Memory("m1", "My dentist is Dr. Lee.", "user", fakes.NOW, ()))
    qrun(fake_window.refresh())
    fake_window.resize(1200, 900)
    fake_window.show_tab(tab)
    settle(fake_window)
    fake_bridge_card = fakes.make_escalation("Arrived later", escalation_id="late", created_at=1)
    fake_window.approvals_view.on_escalation_changed(fake_bridge_card)   # a card that came after the window
    stops = _tab_chain(fake_window)
    assert stops, "something takes the focus"

    def reading_order(widget: QWidget) -> tuple[int, int, int, int]:
        # Above the split first (status bar), then each side of a splitter in turn, top to bottom, left to right.
        column, child, parent = -1, widget, widget.parentWidget()
        while parent is not None and parent is not fake_window:
            if isinstance(parent, QSplitter):
                column = parent.indexOf(child)
                break
            child, parent = parent, parent.parentWidget()
        at = widget.mapTo(fake_window, QPoint(0, 0))
        return (0 if column < 0 else 1, column, round(at.y() / 6), at.x())

    names = [w.accessibleName() for w in stops]
    assert names == [w.accessibleName() for w in sorted(stops, key=reading_order)]
    unnamed = [type(w).__name__ for w in stops if not w.accessibleName()]
    assert unnamed == []
