"""The Subconscious tab's 30-day chart: real rows in SQLite → one query → stacked bars (colours of the palette),
legend, dates, tooltips, keyboard, empty state, refresh after a tick."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPalette
from PySide6.QtWidgets import QApplication

from openhuman_desktop.qt.app import dark_palette
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.subconscious.decisions_chart import EMPTY_TEXT, DayCounts, DecisionsChart
from openhuman_desktop.qt.intelligence.theme import accent


async def log_rows(services: Any, day_offset: int, decision: str, count: int) -> None:
    """``count`` rows of ``decision`` at noon, ``day_offset`` local days before the app clock's today."""
    today = datetime.fromtimestamp(services.clock.now()).date()
    noon = datetime.combine(today - timedelta(days=day_offset), datetime.min.time()).timestamp() + 12 * 3600
    for index in range(count):
        entry = await services.store.log.start("t1", "Check urgent emails", noon + index, 1, noon + index)
        await services.store.log.finish(entry.id, decision, "…", 10, noon + index + 1)


def render(chart: DecisionsChart) -> QImage:
    image = QImage(chart.size(), QImage.Format.Format_ARGB32)
    image.fill(chart.palette().color(QPalette.ColorRole.Window))
    painter = QPainter(image)
    chart.paint(painter)
    painter.end()
    return image


def bar_point(chart: DecisionsChart, index: int, from_bottom: int = 2) -> QPoint:
    plot = chart._plot_rect()
    slot = chart._bar_rects(plot)[index]
    return QPoint(round(slot.center().x()), plot.bottom() - from_bottom)


def days(*totals: tuple[int, int, int, int]) -> list[DayCounts]:
    first = date(2024, 5, 14) - timedelta(days=len(totals) - 1)
    return [DayCounts(first + timedelta(days=i), *counts) for i, counts in enumerate(totals)]


def test_the_chart_counts_the_logs_rows_per_day(intelligence_window: IntelligenceWindow, gui_services: Any,
                                                qrun: Any) -> None:
    qrun(log_rows(gui_services, 0, "act", 3))
    qrun(log_rows(gui_services, 0, "noop", 5))
    qrun(log_rows(gui_services, 1, "escalate", 2))
    qrun(log_rows(gui_services, 29, "failed", 1))
    qrun(log_rows(gui_services, 30, "act", 7))            # 31 days ago: outside the chart
    view = intelligence_window.decisions_view
    qrun(view.refresh())
    chart = view.chart
    assert len(chart.days) == 30
    assert (chart.days[-1].act, chart.days[-1].noop) == (3, 5)
    assert chart.days[-2].escalate == 2 and chart.days[0].failed == 1
    assert sum(day.total for day in chart.days) == 11
    assert view.summary.text() == "11 decisions · 3 acted · 2 asked for approval · 1 failed"
    assert chart.days[-1] == DayCounts(chart.today, act=3, noop=5) if chart.today else False
    assert view.isVisibleTo(intelligence_window)


def test_a_finished_tick_reloads_the_chart_once(intelligence_window: IntelligenceWindow, gui_services: Any,
                                                qrun: Any, until: Any, bridge: Any) -> None:
    view = intelligence_window.decisions_view
    view._later.setInterval(10)
    qrun(view.refresh())
    assert view.chart.is_empty
    qrun(log_rows(gui_services, 0, "act", 2))
    for generation in (1, 2, 3):
        bridge.tick_finished.emit(generation, "ok")       # a burst of ticks: one reload
    until(lambda: not view.chart.is_empty)
    assert view.chart.days[-1].act == 2


def test_after_a_tick_only_today_is_queried_again(intelligence_window: IntelligenceWindow, gui_services: Any,
                                                  qrun: Any) -> None:
    view = intelligence_window.decisions_view
    qrun(view.refresh())
    asked: list[int] = []
    query = view._query
    assert query is not None

    async def counting(bounds: Any) -> Any:
        asked.append(len(bounds) - 1)
        return await query(bounds)

    view._query = counting
    qrun(log_rows(gui_services, 0, "act", 2))
    qrun(log_rows(gui_services, 3, "noop", 4))   # an older day changes only with a full reload (retention)
    qrun(view.refresh(full=False))
    assert asked == [1]
    assert view.chart.days[-1].act == 2 and view.chart.days[-4].noop == 0
    qrun(view.refresh())
    assert asked == [1, 30] and view.chart.days[-4].noop == 4
    assert view.summary.text() == "6 decisions · 2 acted · 0 asked for approval · 0 failed"


def test_bars_are_stacked_in_the_palettes_colours(qapp: QApplication, qtbot: Any) -> None:
    chart = DecisionsChart()
    qtbot.add_widget(chart)
    chart.resize(600, 180)
    chart.set_days(days(*([(0, 0, 0, 0)] * 29), (10, 0, 0, 0)))
    for palette in (QApplication.style().standardPalette(), dark_palette()):
        chart.setPalette(palette)
        image = render(chart)
        green = accent("green", palette)
        assert QColor(image.pixel(bar_point(chart, 29))) == green
        assert QColor(image.pixel(bar_point(chart, 28))) != green


def test_the_tooltip_and_the_keyboard_tell_each_day(qapp: QApplication, qtbot: Any) -> None:
    chart = DecisionsChart()
    qtbot.add_widget(chart)
    chart.resize(600, 180)
    chart.set_days(days((1, 12, 0, 0), (3, 40, 1, 2)), today=date(2024, 5, 14))
    assert chart.tooltip_for(bar_point(chart, 1, 20)) == ("Tue 14 May: 3 acted, 1 asked for approval, 2 failed, "
                                                          "40 nothing new")
    assert chart.tooltip_for(QPoint(1, 1)) == ""
    assert "59 decisions in 2 days" in chart.accessibleDescription()
    chart.setFocus()
    qtbot.keyClick(chart, Qt.Key.Key_Left)
    assert chart.selected == 1 and chart.accessibleDescription().startswith("Tue 14 May")
    qtbot.keyClick(chart, Qt.Key.Key_Left)
    assert chart.selected == 0 and chart.accessibleDescription() == "Mon 13 May: 1 acted, 12 nothing new"
    qtbot.keyClick(chart, Qt.Key.Key_End)
    assert chart.selected == 1


def test_no_decisions_shows_the_empty_state(qapp: QApplication, qtbot: Any) -> None:
    chart = DecisionsChart()
    qtbot.add_widget(chart)
    chart.resize(600, 180)
    chart.set_days(days(*([(0, 0, 0, 0)] * 30)))
    assert chart.is_empty and chart.accessibleDescription() == EMPTY_TEXT
    image = render(chart)
    background = chart.palette().color(QPalette.ColorRole.Window)
    centre = chart._plot_rect().center()
    row = [QColor(image.pixel(x, centre.y())) for x in range(chart._plot_rect().left(), chart._plot_rect().right())]
    assert any(colour != background for colour in row), "the empty text is drawn"


def test_without_a_store_the_chart_is_not_shown(fake_window: IntelligenceWindow) -> None:
    assert not fake_window.decisions_view.isVisibleTo(fake_window)


def test_after_midnight_the_chart_moves_on_without_a_tick(intelligence_window: IntelligenceWindow, gui_services: Any,
                                                          qrun: Any, until: Any) -> None:
    view = intelligence_window.decisions_view
    view._later.setInterval(10)
    qrun(log_rows(gui_services, 0, "act", 2))
    qrun(view.refresh())
    before = view.chart.today
    view.follow_the_day()                                   # the same day: nothing to do
    assert not view._later.isActive()
    qrun(gui_services.clock.advance(86_400))
    view.follow_the_day()
    until(lambda: view.chart.today != before)
    assert view.chart.today == before + timedelta(days=1) if before else False
    assert view.chart.days[-2].act == 2 and view.chart.days[-1].total == 0   # yesterday's bar moved left
