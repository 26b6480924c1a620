"""The dismissible notice across the top of a page (info, warning or error)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

from openhuman_desktop.qt.intelligence.theme import accent, app_palette, em, set_style_sheet


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
