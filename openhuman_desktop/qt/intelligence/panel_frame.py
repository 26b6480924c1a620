"""The rounded panel that sections sit in (the status bar, the log, bars)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QFrame, QWidget

from openhuman_desktop.qt.intelligence.theme import blend, em


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
