"""The window's look, following the system theme: accent colours for light and dark, muted text, fonts
scaled from the widget's own, style sheets that are set only when they change, and ``retheme``."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import QApplication, QPushButton, QWidget

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
