"""The status dot: a filled circle in an accent colour, pulsing while work is in progress, and its
picture (``paint_dot``), which list delegates paint in rows without a widget."""

from __future__ import annotations

import math
import time

from PySide6.QtCore import QRect, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QHideEvent, QPainter, QPaintEvent, QShowEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from openhuman_desktop.qt.intelligence.theme import accent, em


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
