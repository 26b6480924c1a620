"""The title of a section ("Active Tasks")."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from openhuman_desktop.qt.intelligence.theme import scaled_font


class SectionHeader(QLabel):
    """The title of a section ("Active Tasks"), slightly larger and bold."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setFont(scaled_font(self, 1.15, bold=True))
        self.setAccessibleName(text)
