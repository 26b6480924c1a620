"""Text in an accent colour, hidden while empty: warnings, and errors next to their control."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel, QWidget

from openhuman_desktop.qt.intelligence.theme import accent, app_palette


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
