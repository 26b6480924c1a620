"""The small busy indicator: a rotating arc."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from openhuman_desktop.qt.intelligence.theme import em


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
