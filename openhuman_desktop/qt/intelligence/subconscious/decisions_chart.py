"""The Subconscious tab's "last 30 days" chart: decisions per day (acted, nothing new, approval, failed) as stacked
bars, drawn with QPainter (QtCharts is not in PySide6-Essentials), with a legend, dates, a tooltip per day and the
keyboard (Left/Right pick a day)."""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from PySide6.QtCore import QEvent, QPoint, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QFont,
    QFontMetrics,
    QHelpEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from openhuman_desktop.qt.intelligence.theme import accent, blend, em, is_dark, muted, scaled_font

log = logging.getLogger(__name__)

DAYS = 30
# The series, bottom to top, in the activity log's colours and words.
SERIES: tuple[tuple[str, str, str], ...] = (
    ("act", "green", "acted"),
    ("escalate", "amber", "asked for approval"),
    ("failed", "red", "failed"),
    ("noop", "grey", "nothing new"),
)
# Bars sit side by side, so amber and the log's coral are too alike there: the chart's own (light, dark) colours.
CHART_COLOURS: dict[str, tuple[str, str]] = {"amber": ("#D97706", "#FBBF24"), "red": ("#DC2626", "#F87171")}
# Legend order: what a person looks for first.
LEGEND = ("act", "escalate", "failed", "noop")
REFRESH_DELAY_MS = 2_000   # after a tick: coalesce the bursts of a busy engine into one query
EMPTY_TEXT = "No decisions in the last 30 days yet. Each tick adds its decisions here."

Query = Callable[[Sequence[float]], Awaitable[list[tuple[int, int, int, int]]]]


@dataclass(frozen=True)
class DayCounts:
    """One local day's decisions."""

    day: date
    act: int = 0
    noop: int = 0
    escalate: int = 0
    failed: int = 0

    @property
    def total(self) -> int:
        return self.act + self.noop + self.escalate + self.failed

    def count(self, decision: str) -> int:
        return int(getattr(self, decision))

    def describe(self) -> str:
        """``Tue 14 May: 3 acted, 1 asked for approval, 12 nothing new`` (the tooltip and the screen reader)."""
        parts = [f"{self.count(key)} {words}" for key, _colour, words in
                 sorted(SERIES, key=lambda s: LEGEND.index(s[0])) if self.count(key)]
        when = f"{self.day:%a} {self.day.day} {self.day:%b}"
        return f"{when}: {', '.join(parts)}" if parts else f"{when}: no decisions"


def days_from_counts(bounds: Sequence[float], counts: Sequence[tuple[int, int, int, int]]) -> list[DayCounts]:
    """``decisions_between`` rows (act, noop, escalate, failed) as :class:`DayCounts`, one per local day."""
    return [DayCounts(datetime.fromtimestamp(bounds[i]).date(), *counts[i]) for i in range(len(counts))]


def series_colour(name: str, palette: QPalette) -> QColor:
    """A series' colour for ``palette`` (the window's accents, with the chart's own amber and red)."""
    if name in CHART_COLOURS:
        light, dark = CHART_COLOURS[name]
        return QColor(dark if is_dark(palette) else light)
    return accent(name, palette)


def nice_ceiling(value: int) -> int:
    """The axis maximum: ``value`` rounded up to 1, 2 or 5 × 10ⁿ (at least 1)."""
    if value <= 1:
        return 1
    power = int(10 ** math.floor(math.log10(value)))
    return next(step * power for step in (1, 2, 5, 10) if value <= step * power)


def decisions(count: int) -> str:
    """``1 decision``, ``1,234 decisions``."""
    return f"{count:,} decision" + ("" if count == 1 else "s")


def short_count(value: int) -> str:
    return f"{value / 1000:.0f}k" if value >= 10_000 else f"{value / 1000:.1f}k" if value >= 1000 else str(value)


class DecisionsChart(QWidget):
    """Stacked bars: one per day, oldest left. ``set_days`` replaces the data; the palette gives the colours."""

    day_selected = Signal(int)   # index of the day the keyboard moved to (-1: none)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.days: list[DayCounts] = []
        self._small: tuple[str, QFont] | None = None
        self.today: date | None = None
        self.selected = -1
        self._hover = -1
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setAccessibleName("Decisions per day, last 30 days")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(em(self) * 8)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        unit = em(self)
        return QSize(unit * 30, unit * 10)

    def set_days(self, days: Sequence[DayCounts], today: date | None = None) -> None:
        """Show ``days`` (oldest first); the one equal to ``today`` is labelled "Today"."""
        self.days = list(days)
        self.today = today
        if self.selected >= len(self.days):
            self.selected = len(self.days) - 1
        total = sum(day.total for day in self.days)
        busiest = max(self.days, key=lambda d: d.total, default=None)
        if not total or busiest is None:
            self.setAccessibleDescription(EMPTY_TEXT)
        else:
            sums = {key: sum(day.count(key) for day in self.days) for key, _c, _w in SERIES}
            words = ", ".join(f"{sums[key]} {w}" for key, _c, w in sorted(SERIES, key=lambda s: LEGEND.index(s[0])))
            self.setAccessibleDescription(f"{decisions(total)} in {len(self.days)} days: {words}. "
                                          f"Busiest: {busiest.describe()}. Use Left and Right to read each day.")
        self.update()

    @property
    def is_empty(self) -> bool:
        return not any(day.total for day in self.days)

    # --- geometry -------------------------------------------------------------------------------

    def _plot_rect(self) -> QRect:
        metrics = self.fontMetrics()
        small = QFontMetrics(self._small_font())
        left = small.horizontalAdvance("0000") + metrics.height() // 2
        top = metrics.height() + metrics.height() // 2          # the legend row
        bottom = small.height() + metrics.height() // 3          # the date labels
        return self.rect().adjusted(left, top, -metrics.height() // 3, -bottom)

    def _small_font(self) -> QFont:
        """The axis labels' font (measured once per widget font)."""
        key = self.font().key()
        if self._small is None or self._small[0] != key:
            self._small = (key, scaled_font(self, 0.85))
        return self._small[1]

    def _bar_rects(self, plot: QRect) -> list[QRectF]:
        count = max(1, len(self.days))
        slot = plot.width() / count
        gap = max(1.0, slot * 0.22)
        return [QRectF(plot.left() + i * slot + gap / 2, plot.top(), slot - gap, plot.height()) for i in range(count)]

    def day_at(self, point: QPoint) -> int:
        """The index of the day under ``point``, or -1."""
        plot = self._plot_rect()
        if not self.days or not (plot.left() <= point.x() <= plot.right()) or point.y() > plot.bottom() + 4:
            return -1
        index = int((point.x() - plot.left()) / (plot.width() / len(self.days)))
        return index if 0 <= index < len(self.days) else -1

    # --- painting -------------------------------------------------------------------------------

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        painter = QPainter(self)
        try:
            self.paint(painter)   # axis-aligned rectangles and text: no antialiasing needed (and it costs)
        finally:
            painter.end()

    def paint(self, painter: QPainter) -> None:
        """Everything, on ``painter`` (also used by the bench on an image)."""
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        quiet = muted(palette)
        plot = self._plot_rect()
        colours = {key: series_colour(colour, palette) for key, colour, _w in SERIES}
        if is_dark(palette):   # "nothing new" is the bulk: keep it quieter than the bars that matter
            colours["noop"] = blend(colours["noop"], palette.color(QPalette.ColorRole.Window), 0.45)
        else:
            colours["noop"] = blend(colours["noop"], palette.color(QPalette.ColorRole.Window), 0.5)
        self._paint_legend(painter, colours, text, plot)
        painter.setFont(self._small_font())
        small = painter.fontMetrics()
        grid = QColor(quiet)
        grid.setAlpha(70)
        top_value = nice_ceiling(max((day.total for day in self.days), default=0))
        for fraction in (0.0,) if self.is_empty else (0.0, 0.5, 1.0):
            y = round(plot.bottom() - fraction * plot.height())
            painter.setPen(QPen(grid, 1))
            painter.drawLine(plot.left(), y, plot.right(), y)
            if fraction and not self.is_empty:
                label = short_count(round(top_value * fraction))
                painter.setPen(quiet)
                painter.drawText(QRect(0, y - small.height() // 2, plot.left() - small.height() // 3, small.height()),
                                 Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, label)
        if self.is_empty:
            painter.setPen(quiet)
            painter.drawText(plot, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, EMPTY_TEXT)
        else:
            self._paint_bars(painter, plot, colours, top_value)
        self._paint_dates(painter, plot, quiet)

    def _paint_legend(self, painter: QPainter, colours: dict[str, QColor], text: QColor, plot: QRect) -> None:
        metrics = self.fontMetrics()
        side = max(6, metrics.height() // 2)
        x = plot.left()
        painter.setFont(self.font())
        words = {key: w for key, _c, w in SERIES}
        for key in LEGEND:
            swatch = QRectF(x, (metrics.height() - side) / 2, side, side)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colours[key])
            painter.drawRect(swatch)
            label = words[key]
            x += side + side // 2
            painter.setPen(text)
            painter.drawText(QRect(int(x), 0, metrics.horizontalAdvance(label) + 2, metrics.height()),
                             Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, label)
            x += metrics.horizontalAdvance(label) + metrics.height()

    def _paint_bars(self, painter: QPainter, plot: QRect, colours: dict[str, QColor], top_value: int) -> None:
        scale = plot.height() / top_value
        highlight = self.selected if self.selected >= 0 else self._hover
        painter.setPen(Qt.PenStyle.NoPen)
        slots = self._bar_rects(plot)
        if 0 <= highlight < len(slots):
            band = QColor(self.palette().color(QPalette.ColorRole.Highlight))
            band.setAlpha(50)
            painter.setBrush(band)
            slot = slots[highlight]
            painter.drawRect(slot.adjusted(-slot.width() * 0.15, 0, slot.width() * 0.15, 0))
        pieces: dict[str, list[QRectF]] = {key: [] for key, _c, _w in SERIES}
        for day, slot in zip(self.days, slots, strict=False):
            y = float(plot.bottom())
            for key, _colour, _words in SERIES:
                value = day.count(key)
                if not value:
                    continue
                height = max(2.0, value * scale)   # one approval among hundreds still shows
                pieces[key].append(QRectF(slot.left(), y - height, slot.width(), height))
                y -= height
        for key, rects in pieces.items():   # one call per series
            if rects:
                painter.setBrush(colours[key])
                painter.drawRects(rects)

    def _paint_dates(self, painter: QPainter, plot: QRect, colour: QColor) -> None:
        if not self.days:
            return
        small = painter.fontMetrics()
        painter.setPen(colour)
        slots = self._bar_rects(plot)
        label_width = small.horizontalAdvance("30 May") + small.height()
        step = max(1, math.ceil(label_width / max(1.0, plot.width() / len(self.days))))
        last = len(self.days) - 1
        shown = [i for i in range(last, -1, -step)]   # today always, then every step-th day back
        for index in shown:
            day = self.days[index].day
            label = "Today" if day == self.today else f"{day.day} {day:%b}"
            centre = slots[index].center().x()
            rect = QRect(round(centre - label_width / 2), plot.bottom() + small.height() // 4, label_width,
                         small.height())
            rect.moveLeft(max(0, min(rect.left(), self.width() - label_width)))
            painter.drawText(rect, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, label)

    # --- interaction ----------------------------------------------------------------------------

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            index = self.day_at(event.pos())
            if index >= 0:
                QToolTip.showText(event.globalPos(), self.days[index].describe(), self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def tooltip_for(self, point: QPoint) -> str:
        """What the tooltip at ``point`` says ("" outside the bars)."""
        index = self.day_at(point)
        return self.days[index].describe() if index >= 0 else ""

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        index = self.day_at(event.position().toPoint())
        if index != self._hover:
            self._hover = index
            self.update()
        super().mouseMoveEvent(event)

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        self._hover = -1
        self.update()
        super().leaveEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if not self.days or event.key() not in (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_End):
            super().keyPressEvent(event)
            return
        last = len(self.days) - 1
        key = event.key()
        if self.selected < 0 and key in (Qt.Key.Key_Left, Qt.Key.Key_Right):
            self.select(last)   # the first arrow press reads today
        elif key == Qt.Key.Key_Left:
            self.select(max(0, self.selected - 1))
        elif key == Qt.Key.Key_Right:
            self.select(min(last, self.selected + 1))
        else:
            self.select(0 if key == Qt.Key.Key_Home else last)

    def select(self, index: int) -> None:
        """Highlight day ``index`` and say it (tooltip and screen reader)."""
        self.selected = index
        self.update()
        if 0 <= index < len(self.days):
            text = self.days[index].describe()
            self.setAccessibleDescription(text)
            slot = self._bar_rects(self._plot_rect())[index]
            if self.isVisible():
                QToolTip.showText(self.mapToGlobal(slot.center().toPoint()), text, self)
        self.day_selected.emit(index)

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt override)
        self.selected = -1
        self.update()
        super().focusOutEvent(event)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in (QEvent.Type.ApplicationPaletteChange, QEvent.Type.PaletteChange):
            self.update()
        super().changeEvent(event)
