"""The Agent tab by keyboard and screen reader: its pages by mnemonic, every stop named, Tab in reading
order on each page, and colours that follow a switch between light and dark."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QSplitter, QWidget

from openhuman_desktop.orchestration.steering import REFLECTION, DirectiveDraft
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.agent.tab import PAGES
from openhuman_desktop.qt.intelligence.theme import ACCENTS


def tab_chain(window: IntelligenceWindow) -> list[QWidget]:
    """The widgets Tab visits in the shown tab, in order (from the window's tab bar round to it again)."""
    start = window.tabs.tabBar()
    stops: list[QWidget] = []
    widget: QWidget = start
    for _ in range(500):
        widget = widget.nextInFocusChain()
        if widget is start or widget is window.tabs:
            break
        if (widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget.isVisible() and widget.isEnabled()
                and widget.window() is window):
            stops.append(widget)
    return stops


def _column(window: IntelligenceWindow, widget: QWidget) -> int:
    """Which pane of a splitter ``widget`` sits in (-1: above the splitters)."""
    child, parent = widget, widget.parentWidget()
    while parent is not None and parent is not window:
        if isinstance(parent, QSplitter):
            return parent.indexOf(child)
        child, parent = parent, parent.parentWidget()
    return -1


def reading_order(window: IntelligenceWindow, stops: list[QWidget]) -> list[QWidget]:
    """``stops`` as a reader meets them: pane by pane, top to bottom, and left to right along a row (widgets
    whose heights overlap by half are on one row: a primary button is a few pixels taller than its neighbour)."""
    def before(a: QWidget, b: QWidget) -> int:
        if _column(window, a) != _column(window, b):
            return _column(window, a) - _column(window, b)
        top_a, top_b = a.mapTo(window, QPoint(0, 0)), b.mapTo(window, QPoint(0, 0))
        overlap = min(top_a.y() + a.height(), top_b.y() + b.height()) - max(top_a.y(), top_b.y())
        if overlap * 2 >= min(a.height(), b.height()):
            return top_a.x() - top_b.x()
        return top_a.y() - top_b.y()
    return sorted(stops, key=functools.cmp_to_key(before))


@pytest.mark.parametrize("page", PAGES)
def test_every_page_is_named_and_tabs_in_reading_order(intelligence_window: IntelligenceWindow, gui_services: Any,
                                                       qrun: Any, settle: Any, page: str) -> None:
    qrun(gui_services.steering.write(DirectiveDraft("Prefer short answers.", REFLECTION)))
    qrun(gui_services.steering.write(DirectiveDraft("Prefer short answers, in French.", REFLECTION)))
    window = intelligence_window
    window.resize(1200, 900)
    window.show_tab("agent")
    window.agent_view.show_page(page)
    qrun(window.agent_view.refresh())
    settle(window)
    stops = tab_chain(window)
    assert stops
    unnamed = [type(w).__name__ for w in stops if not w.accessibleName()]
    assert unnamed == []
    names = [w.accessibleName() for w in stops]
    assert names == [w.accessibleName() for w in reading_order(window, stops)]
    assert window.agent_view.pages.tabBar() in stops


def test_pages_by_mnemonic(intelligence_window: IntelligenceWindow, qtbot: Any) -> None:
    window = intelligence_window
    window.show_tab("agent")
    view = window.agent_view
    for key, page in ((Qt.Key.Key_S, "steering"), (Qt.Key.Key_W, "timeline"), (Qt.Key.Key_R, "runs")):
        qtbot.keyClick(view.pages.tabBar(), key, Qt.KeyboardModifier.AltModifier)
        assert view.current_page == page


def test_the_diff_follows_light_and_dark(intelligence_window: IntelligenceWindow, gui_services: Any, qrun: Any,
                                         settle: Any) -> None:
    from PySide6.QtGui import QColor, QPalette
    from PySide6.QtWidgets import QApplication

    qrun(gui_services.steering.write(DirectiveDraft("Prefer short answers.", REFLECTION)))
    qrun(gui_services.steering.write(DirectiveDraft("Prefer short answers, in French.", REFLECTION)))
    window = intelligence_window
    window.show_tab("agent")
    view = window.agent_view.steering_view
    qrun(view.refresh())
    settle(window)
    light_green, dark_green = ACCENTS["green"]
    original = QApplication.palette()
    assert light_green.lower() in view.diff_browser.toHtml().lower()
    dark = QPalette(original)
    dark.setColor(QPalette.ColorRole.Window, QColor("#1E1E1E"))
    try:
        QApplication.setPalette(dark)
        settle(window)
        assert dark_green.lower() in view.diff_browser.toHtml().lower()
    finally:
        QApplication.setPalette(original)
