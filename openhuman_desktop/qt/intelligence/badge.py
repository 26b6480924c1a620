"""The badge: a small rounded label tinted with an accent colour, and its picture (``paint_badge``), which
list delegates paint in rows without a widget."""

from __future__ import annotations

from PySide6.QtCore import QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from openhuman_desktop.qt.intelligence.theme import accent, app_palette, scaled_font


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
