"""Small building blocks of the Intelligence window: toggle switch, badges, dots, banners, time texts, row runs."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from datetime import datetime

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAccessible,
    QAccessibleTableModelChangeEvent,
    QColor,
    QFont,
    QFontMetrics,
    QHideEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QWidget,
)

# Accent colours: (for light backgrounds, for dark backgrounds). Each pair keeps ≥ 3:1 contrast against
# the window colour of its palette, so dots, badges and coloured words stay readable in both.
ACCENTS: dict[str, tuple[str, str]] = {
    "blue": ("#2563EB", "#60A5FA"),
    "green": ("#15803D", "#4ADE80"),
    "amber": ("#B45309", "#FBBF24"),
    "coral": ("#C2410C", "#FF8A70"),
    "grey": ("#6B7280", "#9CA3AF"),
}
# The log's dot colour per decision (the reference's table).
DECISION_ACCENT = {
    "in_progress": "blue", "act": "green", "escalate": "amber", "failed": "coral",
    "noop": "grey", "cancelled": "grey", "dismissed": "grey", "answered": "grey",
}
DECISION_WORDS = {
    "in_progress": "in progress", "act": "acted", "escalate": "waiting for approval", "failed": "failed",
    "noop": "nothing new", "cancelled": "cancelled", "dismissed": "skipped",
    "answered": "answered (no tools ran)",
}


def is_dark(palette: QPalette) -> bool:
    """Whether the palette is a dark theme (window colour darker than mid-grey)."""
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def accent(name: str, palette: QPalette) -> QColor:
    """The accent ``name`` in the variant that reads well on ``palette``."""
    light, dark = ACCENTS.get(name, ACCENTS["grey"])
    return QColor(dark if is_dark(palette) else light)


def app_palette() -> QPalette:
    """The application's palette (the system theme): what style sheets are computed from, since a
    widget's own palette is changed by its style sheet."""
    return QApplication.palette()


def set_style_sheet(widget: QWidget, qss: str) -> None:
    """Set a style sheet only when it changed (setting one re-polishes the widget)."""
    if widget.styleSheet() != qss:
        widget.setStyleSheet(qss)


def retheme(root: QWidget) -> None:
    """Re-apply palette-derived styles below ``root`` after the system theme changed.

    Widgets with a style sheet of their own do not get ``PaletteChange`` when the application palette
    changes, so the top-level window calls each one's ``retheme()``.
    """
    for widget in root.findChildren(QWidget):
        hook = getattr(widget, "retheme", None)
        if callable(hook):
            hook()
        elif isinstance(widget, QPushButton) and widget.property("primary"):
            make_primary(widget)


def muted(palette: QPalette) -> QColor:
    """Secondary text: the placeholder colour, which every style keeps readable but quieter."""
    return palette.color(QPalette.ColorRole.PlaceholderText)


def blend(a: QColor, b: QColor, amount: float) -> QColor:
    """``a`` moved ``amount`` (0..1) of the way towards ``b``."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * amount),
        round(a.green() + (b.green() - a.green()) * amount),
        round(a.blue() + (b.blue() - a.blue()) * amount),
    )


def scale_font(font: QFont, factor: float = 1.0, *, bold: bool = False) -> QFont:
    """A copy of ``font`` scaled by ``factor`` (point sizes, so HiDPI scaling stays Qt's business)."""
    result = QFont(font)
    if result.pointSizeF() > 0:
        result.setPointSizeF(result.pointSizeF() * factor)
    elif result.pixelSize() > 0:
        result.setPixelSize(max(1, round(result.pixelSize() * factor)))
    result.setBold(bold)
    return result


def scaled_font(widget: QWidget, factor: float = 1.0, *, bold: bool = False) -> QFont:
    """The widget's font scaled by ``factor`` (see ``scale_font``)."""
    return scale_font(widget.font(), factor, bold=bold)


def em(widget: QWidget) -> int:
    """One text line of the widget's font in device-independent pixels (for sizes that follow the font)."""
    return widget.fontMetrics().height()


# --- time and duration texts --------------------------------------------------------------------


def _local(ts: float) -> datetime:
    return datetime.fromtimestamp(ts).astimezone()


def exact_time(ts: float) -> str:
    """``2026-09-21 14:05:03 CEST`` — for tooltips."""
    return _local(ts).strftime("%Y-%m-%d %H:%M:%S %Z").strip()


def clock_time(ts: float, now: float) -> str:
    """``14:05`` today, ``Mon 14:05`` within a week either side, else ``Sep 21 14:05``."""
    when, today = _local(ts), _local(now)
    days = abs((when.date() - today.date()).days)
    if days == 0:
        return when.strftime("%H:%M")
    if days < 7:
        return when.strftime("%a %H:%M")
    return when.strftime("%b %d %H:%M")


def relative_time(ts: float, now: float) -> str:
    """``just now``, ``4 min ago``, ``2 h ago``, ``3 days ago``; future times: ``in 4 min``."""
    delta = now - ts
    future = delta < 0
    seconds = abs(delta)
    if seconds < 45:
        return "in a moment" if future else "just now"
    if seconds < 3600:
        text = f"{max(1, round(seconds / 60))} min"
    elif seconds < 86_400:
        text = f"{round(seconds / 3600)} h"
    else:
        days = round(seconds / 86_400)
        text = "1 day" if days == 1 else f"{days} days"
    return f"in {text}" if future else f"{text} ago"


def duration_text(ms: int | None) -> str:
    """``850 ms``, ``1.2 s``, ``2 min 5 s``; empty when unknown."""
    if ms is None:
        return ""
    if ms < 1000:
        return f"{ms} ms"
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if rest else f"{minutes} min"


# --- pictures: what the widgets below paint, shared with list delegates that paint rows of them ------


def dot_side(line: int) -> int:
    """The diameter of a status dot next to text whose line is ``line`` px high."""
    return max(8, round(line * 0.6))


def paint_dot(painter: QPainter, rect: QRect, color: QColor) -> None:
    """A filled circle centred in ``rect`` (a ``StatusDot``); the painter should antialias."""
    side = min(rect.width(), rect.height()) - 1
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    painter.drawEllipse(QRectF(rect.left() + (rect.width() - side) / 2, rect.top() + (rect.height() - side) / 2,
                               side, side))


def badge_size(metrics: QFontMetrics, text: str) -> QSize:
    """The size of a badge showing ``text`` in a font with these metrics."""
    padding = max(3, round(metrics.height() * 0.4))
    return QSize(metrics.horizontalAdvance(text) + 2 * padding + 2, metrics.height() + 2)


def badge_colors(color: QColor) -> tuple[QPen, QColor]:
    """The outline pen (also the text colour) and the tinted fill of a badge in ``color``."""
    fill = QColor(color)
    fill.setAlphaF(0.16)
    return QPen(color, 1.0), fill


def paint_badge(painter: QPainter, rect: QRect, text: str, font: QFont, pen: QPen, fill: QColor) -> None:
    """A ``Badge``: ``text`` centred in a rounded, tinted box filling ``rect``; the painter should antialias."""
    area = QRectF(rect).adjusted(0.5, 0.5, -0.5, -0.5)
    radius = area.height() / 2
    painter.setPen(pen)
    painter.setBrush(fill)
    painter.drawRoundedRect(area, radius, radius)
    painter.setFont(font)
    painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), text)


def toggle_size(line: int) -> QSize:
    """The size of a toggle switch next to text whose line is ``line`` px high."""
    height = max(16, round(line * 1.1))
    return QSize(round(height * 1.8), height)


def paint_toggle(painter: QPainter, rect: QRect, palette: QPalette, *, checked: bool, enabled: bool) -> None:
    """A ``ToggleSwitch``'s track and knob in ``rect`` (without the focus ring); the painter should antialias."""
    area = QRectF(rect).adjusted(1.5, 1.5, -1.5, -1.5)
    radius = area.height() / 2
    if checked:
        track = palette.color(QPalette.ColorRole.Highlight)
    else:
        track = blend(palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.WindowText), 0.35)
    if not enabled:
        track.setAlphaF(0.4)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(track)
    painter.drawRoundedRect(area, radius, radius)
    knob = area.height() - 4
    x = area.right() - knob - 2 if checked else area.left() + 2
    painter.setBrush(QColor("#FFFFFF"))
    painter.drawEllipse(QRectF(x, area.top() + 2, knob, knob))


# --- widgets ------------------------------------------------------------------------------------


class StatusDot(QWidget):
    """A filled circle in an accent colour; ``pulsing`` fades it in and out (for work in progress)."""

    def __init__(self, accent_name: str = "grey", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._accent = accent_name
        self._pulse = QTimer(self)
        self._pulse.setInterval(60)
        self._pulse.timeout.connect(self.update)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    @property
    def accent_name(self) -> str:
        return self._accent

    def set_accent(self, accent_name: str) -> None:
        if accent_name != self._accent:
            self._accent = accent_name
            self.update()

    @property
    def is_pulsing(self) -> bool:
        return self._pulse.isActive()

    def set_pulsing(self, pulsing: bool) -> None:
        if pulsing and not self._pulse.isActive() and self.isVisible():
            self._pulse.start()
        elif not pulsing:
            self._pulse.stop()
        self.setProperty("pulsing", pulsing)
        self.update()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        if self.property("pulsing"):
            self._pulse.start()
        super().showEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 (Qt override)
        self._pulse.stop()
        super().hideEvent(event)

    def sizeHint(self) -> QSize:
        side = dot_side(em(self))
        return QSize(side, side)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        color = accent(self._accent, self.palette())
        if self.property("pulsing"):
            color.setAlphaF(pulse_alpha())
        paint_dot(painter, self.rect(), color)


def pulse_alpha(period: float = 1.4) -> float:
    """The opacity of a pulsing dot right now (0.3 … 1.0, a smooth wave)."""
    phase = (time.monotonic() % period) / period
    return 0.65 + 0.35 * math.cos(phase * 2 * math.pi)


class Badge(QLabel):
    """A small rounded label ("default", "critical", "writes") tinted with an accent colour.

    Painted by hand (``paint_badge``) rather than styled with a style sheet: style sheets make every widget
    slow to create and polish, and task rows paint the same picture without a widget.
    """

    def __init__(self, text: str, accent_name: str = "grey", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self._accent = accent_name
        self.setFont(scaled_font(self, 0.85, bold=True))
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    @property
    def accent_name(self) -> str:
        return self._accent

    def set_accent(self, accent_name: str) -> None:
        self._accent = accent_name
        self.update()

    def color(self) -> QColor:
        """The accent colour the badge is drawn in right now (depends on the theme)."""
        return accent(self._accent, app_palette())

    def retheme(self) -> None:
        self.update()

    def sizeHint(self) -> QSize:
        return badge_size(self.fontMetrics(), self.text())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return self.sizeHint()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        paint_badge(painter, self.rect(), self.text(), self.font(), *badge_colors(self.color()))


class PanelFrame(QFrame):
    """A rounded panel in a palette colour (``Base`` for the status bar and log, ``AlternateBase`` for bars)."""

    def __init__(self, parent: QWidget | None = None, *, role: QPalette.ColorRole = QPalette.ColorRole.Base,
                 border: bool = True) -> None:
        super().__init__(parent)
        self._role = role
        self._border = border

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        painter.setBrush(palette.color(self._role))
        if self._border:
            line = blend(palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.WindowText), 0.18)
            painter.setPen(QPen(line, 1.0))
        else:
            painter.setPen(Qt.PenStyle.NoPen)
        radius = max(4.0, em(self) * 0.45)
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)


PRIMARY_BUTTON_STYLE = """
QPushButton {{
    background-color: {fill}; color: {text}; border: 1px solid {fill};
    border-radius: 5px; padding: 4px 14px; font-weight: 600;
}}
QPushButton:hover {{ background-color: {hover}; border-color: {hover}; }}
QPushButton:focus {{ border: 2px solid {focus}; }}
QPushButton:disabled {{ background-color: {off}; border-color: {off}; color: {off_text}; }}
"""


def make_primary(button: QPushButton) -> None:
    """Style ``button`` as the main action of its area (highlight colour), following the theme."""
    palette = app_palette()
    fill = palette.color(QPalette.ColorRole.Highlight)
    window = palette.color(QPalette.ColorRole.Window)
    set_style_sheet(button, PRIMARY_BUTTON_STYLE.format(
        fill=fill.name(), text=palette.color(QPalette.ColorRole.HighlightedText).name(),
        hover=blend(fill, window, 0.15).name(), focus=palette.color(QPalette.ColorRole.WindowText).name(),
        off=blend(window, palette.color(QPalette.ColorRole.WindowText), 0.12).name(),
        off_text=blend(window, palette.color(QPalette.ColorRole.WindowText), 0.4).name(),
    ))
    button.setProperty("primary", True)


class ToggleSwitch(QAbstractButton):
    """An on/off switch: a checkable button drawn as a track with a knob (Space toggles it)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setCheckable(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:
        return toggle_size(em(self))

    def paintEvent(self, event: QPaintEvent) -> None:
        palette = self.palette()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        paint_toggle(painter, self.rect(), palette, checked=self.isChecked(), enabled=self.isEnabled())
        if self.hasFocus():
            pen = QPen(palette.color(QPalette.ColorRole.Highlight))
            pen.setWidthF(1.5)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            radius = (self.height() - 3) / 2 + 1   # the track's radius, one px out
            painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.75, 0.75, -0.75, -0.75), radius, radius)


class Spinner(QWidget):
    """A small indeterminate busy indicator (a rotating arc); it animates only while running and shown."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._angle = 0
        self._timer = QTimer(self)
        self._timer.setInterval(40)
        self._timer.timeout.connect(self._on_timer_timeout)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.hide()

    @property
    def is_running(self) -> bool:
        parent = self.parentWidget()
        return self.isVisibleTo(parent) if parent is not None else self.isVisible()

    def start(self) -> None:
        self.show()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self.hide()

    def _on_timer_timeout(self) -> None:
        self._angle = (self._angle + 30) % 360
        self.update()

    def sizeHint(self) -> QSize:
        side = max(12, round(em(self) * 0.9))
        return QSize(side, side)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(self.palette().color(QPalette.ColorRole.Highlight))
        pen.setWidthF(max(1.5, self.width() / 8))
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        margin = pen.widthF()
        rect = QRectF(self.rect()).adjusted(margin, margin, -margin, -margin)
        painter.drawArc(rect, -self._angle * 16, 270 * 16)


class SectionHeader(QLabel):
    """The title of a section ("Active Tasks"), slightly larger and bold."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setFont(scaled_font(self, 1.15, bold=True))
        self.setAccessibleName(text)


class MutedLabel(QLabel):
    """Secondary text in the palette's placeholder colour (follows light/dark)."""

    def __init__(self, text: str = "", parent: QWidget | None = None, *, factor: float = 1.0) -> None:
        super().__init__(text, parent)
        self._recoloring = False
        if factor != 1.0:
            self.setFont(scaled_font(self, factor))
        self._recolor()

    def retheme(self) -> None:
        self.setPalette(QPalette())
        self._recolor()

    def _recolor(self) -> None:
        if self._recoloring:
            return
        self._recoloring = True
        try:
            palette = QPalette(self.palette())
            palette.setColor(QPalette.ColorRole.WindowText, muted(palette))
            self.setPalette(palette)
        finally:
            self._recoloring = False

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in (QEvent.Type.ApplicationPaletteChange, QEvent.Type.PaletteChange):
            self._recolor()
        super().changeEvent(event)


class EmptyState(MutedLabel):
    """What a section says when it has nothing to show ("No activity yet")."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        margin = max(6, em(self) // 2)
        self.setContentsMargins(margin, margin, margin, margin)


class AccentLabel(QLabel):
    """Text in an accent colour (errors in coral, warnings in amber); hidden while empty."""

    def __init__(self, accent_name: str = "coral", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._accent = accent_name
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._recolor()
        self.hide()

    def set_accent(self, accent_name: str) -> None:
        self._accent = accent_name
        self._recolor()

    def retheme(self) -> None:
        self._recolor()

    def color(self) -> QColor:
        return self.palette().color(QPalette.ColorRole.WindowText)

    def _recolor(self) -> None:
        palette = QPalette(self.palette())
        palette.setColor(QPalette.ColorRole.WindowText, accent(self._accent, app_palette()))
        if palette != self.palette():
            self.setPalette(palette)

    def show_text(self, text: str) -> None:
        self.setText(text)
        self.setAccessibleDescription(text)
        self.setVisible(bool(text))

    def clear_text(self) -> None:
        self.show_text("")

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._recolor()
        super().changeEvent(event)


class ErrorLabel(AccentLabel):
    """An error shown next to the control that caused it, in coral."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("coral", parent)
        self.setAccessibleName("Error")


class Banner(QFrame):
    """A dismissible notice across the top of a page (info, warning or error)."""

    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None, *, accent_name: str = "blue", closable: bool = True) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self._accent = accent_name
        layout = QHBoxLayout(self)
        pad = max(6, em(self) // 2)
        layout.setContentsMargins(pad + 4, pad, pad, pad)
        self.label = QLabel(self)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.label.setAccessibleName("Notice")
        layout.addWidget(self.label, 1)
        self.close_button = QToolButton(self)
        self.close_button.setText("✕")
        self.close_button.setAutoRaise(True)
        self.close_button.setAccessibleName("Dismiss notice")
        self.close_button.setToolTip("Dismiss")
        self.close_button.clicked.connect(self._on_close_button_clicked)
        self.close_button.setVisible(closable)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self._restyle()
        self.hide()

    def show_text(self, text: str, accent_name: str | None = None) -> None:
        if accent_name is not None and accent_name != self._accent:
            self._accent = accent_name
            self._restyle()
        self.label.setText(text)
        self.setAccessibleDescription(text)
        self.setVisible(bool(text))

    @property
    def text(self) -> str:
        return "" if self.isHidden() else self.label.text()

    def _on_close_button_clicked(self) -> None:
        self.hide()
        self.dismissed.emit()

    def retheme(self) -> None:
        self._restyle()

    def _restyle(self) -> None:
        color = accent(self._accent, app_palette())
        fill = QColor(color)
        fill.setAlphaF(0.12)
        set_style_sheet(
            self,
            f"QFrame#banner {{ background-color: {fill.name(QColor.NameFormat.HexArgb)};"
            f" border: 1px solid {color.name()}; border-radius: 6px; }}"
        )

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._restyle()
        super().changeEvent(event)


def separator_dot(parent: QWidget | None = None) -> MutedLabel:
    """The "·" between status items."""
    label = MutedLabel("·", parent)
    label.setAccessibleName("separator")
    return label


def row_runs(rows: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted row numbers as ``(first, last)`` runs of consecutive rows (one ``dataChanged`` per run)."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


def repaint_changed_rows(view: QAbstractItemView, first: QModelIndex | QPersistentModelIndex,
                         last: QModelIndex | QPersistentModelIndex, roles: Sequence[int]) -> None:
    """What a list view should do on ``dataChanged`` when no row changed height: repaint, measure nothing.

    QListView lays every row out again on any ``dataChanged``, and for a run of rows QAbstractItemView asks
    each row its size to find what to repaint (a tick changes a run of 900 rows: ~25 ms of size hints).
    One row repaints its own rectangle; a run repaints the visible rows. Screen readers hear of the change.
    """
    if first == last:
        QAbstractItemView.dataChanged(view, first, last, list(roles))
        return
    view.viewport().update()
    if QAccessible.isActive():
        event = QAccessibleTableModelChangeEvent(view, QAccessibleTableModelChangeEvent.ModelChangeType.DataChanged)
        event.setFirstRow(first.row())
        event.setLastRow(last.row())
        event.setFirstColumn(first.column())
        event.setLastColumn(last.column())
        QAccessible.updateAccessibility(event)
