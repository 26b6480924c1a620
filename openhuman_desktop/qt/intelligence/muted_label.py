"""Secondary text in the muted colour, what an empty section says, and the "·" between status items."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QWidget

from openhuman_desktop.qt.intelligence.theme import em, muted, scaled_font


class MutedLabel(QLabel):
    """Secondary text in the palette's placeholder colour (follows light/dark)."""

    def __init__(self, text: str = "", parent: QWidget | None = None, *, factor: float = 1.0) -> None:
        super().__init__(text, parent)
        self._recoloring = False
        if factor != 1.0:
            self.setFont(scaled_font(self, factor))
        self._recolor()

    def retheme(self) -> None:
        self.setPalette(QPalette())
        self._recolor()

    def _recolor(self) -> None:
        if self._recoloring:
            return
        self._recoloring = True
        try:
            palette = QPalette(self.palette())
            palette.setColor(QPalette.ColorRole.WindowText, muted(palette))
            self.setPalette(palette)
        finally:
            self._recoloring = False

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in (QEvent.Type.ApplicationPaletteChange, QEvent.Type.PaletteChange):
            self._recolor()
        super().changeEvent(event)


class EmptyState(MutedLabel):
    """What a section says when it has nothing to show ("No activity yet")."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        margin = max(6, em(self) // 2)
        self.setContentsMargins(margin, margin, margin, margin)


def separator_dot(parent: QWidget | None = None) -> MutedLabel:
    """The "·" between status items."""
    label = MutedLabel("·", parent)
    label.setAccessibleName("separator")
    return label
