"""The app icon and the tray icons (SVGs in ``resources/icons``), with the approval count painted on."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QImage, QPainter, QPen, QPixmap
from PySide6.QtSvg import QSvgRenderer

IDLE = "idle"
THINKING = "thinking"
ATTENTION = "attention"
PROBLEM = "problem"
PAUSED = "paused"
TRAY_STATES = (IDLE, THINKING, ATTENTION, PROBLEM, PAUSED)

# Sizes panels and menus ask for; QIcon picks the nearest and HiDPI screens get the larger ones.
ICON_SIZES = (16, 20, 22, 24, 32, 40, 44, 48, 64, 96, 128, 256)
BADGE_FILL = QColor("#B91C1C")
BADGE_TEXT = QColor("#FFFFFF")


def icon_dir() -> Path:
    """The folder that holds the SVG files (inside the installed package)."""
    return Path(str(resources.files("openhuman_desktop") / "resources" / "icons"))


def icon_path(name: str) -> Path:
    """``app`` or one of :data:`TRAY_STATES` → its SVG file."""
    file_name = "app.svg" if name == "app" else f"tray-{name}.svg"
    path = icon_dir() / file_name
    if not path.is_file():
        raise FileNotFoundError(f"icon {name!r} is missing: {path}")
    return path


@lru_cache(maxsize=1)
def app_icon() -> QIcon:
    """The application icon (window, task switcher, notifications)."""
    return QIcon(str(icon_path("app")))


def badge_text(count: int) -> str:
    """What the attention badge says: the count, or ``9+`` when it would not fit."""
    return "9+" if count > 9 else str(count)


def render(name: str, size: int, count: int = 0) -> QImage:
    """Draw icon ``name`` at ``size`` × ``size`` pixels, with a count badge when ``count`` > 0."""
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        QSvgRenderer(str(icon_path(name))).render(painter, QRectF(0, 0, size, size))
        if count > 0:
            _paint_badge(painter, size, badge_text(count))
    finally:
        painter.end()
    return image


def _paint_badge(painter: QPainter, size: int, text: str) -> None:
    """A red pill in the top-right corner with the number in white, readable down to 16 px."""
    height = max(9.0, size * 0.56)
    width = height if len(text) == 1 else height * 1.35
    rect = QRectF(size - width, 0, width, height)
    outline = max(1.0, size / 32)
    painter.setPen(QPen(QColor("#FFFFFF"), outline))
    painter.setBrush(BADGE_FILL)
    radius = height / 2
    painter.drawRoundedRect(rect.adjusted(outline / 2, outline / 2, -outline / 2, -outline / 2), radius, radius)
    font = QFont()
    font.setBold(True)
    font.setPixelSize(max(7, round(height * (0.78 if len(text) == 1 else 0.66))))
    painter.setFont(font)
    painter.setPen(BADGE_TEXT)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)


@lru_cache(maxsize=64)
def tray_icon(state: str, count: int = 0) -> QIcon:
    """The tray icon for ``state`` (one of :data:`TRAY_STATES`); ``count`` > 0 adds a badge.

    Without a badge the SVG itself is the icon (sharp at any scale); with one, pixmaps are drawn
    for every common size so HiDPI panels get a crisp badge too.
    """
    if state not in TRAY_STATES:
        raise ValueError(f"unknown tray state {state!r}; expected one of {', '.join(TRAY_STATES)}")
    if count <= 0:
        return QIcon(str(icon_path(state)))
    icon = QIcon()
    for size in ICON_SIZES:
        icon.addPixmap(QPixmap.fromImage(render(state, size, count)))
    return icon
