"""The on/off switch, and its picture (``paint_toggle``), which list delegates paint in rows without a
widget."""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QAbstractButton, QSizePolicy, QWidget

from openhuman_desktop.qt.intelligence.theme import blend, em


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
