"""``UndoBar``: "Deleted “X”. Undo" for a few seconds, under a list something was deleted from."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.panel_frame import PanelFrame
from openhuman_desktop.qt.intelligence.theme import em

UNDO_SECONDS = 10


class UndoBar(PanelFrame):
    """"Deleted “X”. Undo" for a few seconds after something was deleted (a task, a memory)."""

    undo_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, role=QPalette.ColorRole.AlternateBase, border=False)
        self.setObjectName("undoBar")
        layout = QHBoxLayout(self)
        pad = max(4, em(self) // 3)
        layout.setContentsMargins(pad * 2, pad, pad, pad)
        self.label = QLabel(self)
        self.label.setAccessibleName("Deleted task")
        layout.addWidget(self.label, 1)
        self.undo_button = QPushButton("Undo", self)
        self.undo_button.setAccessibleName("Undo delete")
        self.undo_button.clicked.connect(self.undo_requested)
        layout.addWidget(self.undo_button)
        self.error_label = ErrorLabel(self)
        layout.addWidget(self.error_label)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(UNDO_SECONDS * 1000)
        self._timer.timeout.connect(self._on_timer_timeout)
        self.hide()

    def offer(self, title: str) -> None:
        short = title if len(title) <= 60 else title[:57] + "…"
        self.label.setText(f"Deleted “{short}”.")
        self.error_label.clear_text()
        self.undo_button.setEnabled(True)
        self.show()
        self._timer.start()

    def withdraw(self) -> None:
        self._timer.stop()
        self.hide()

    def _on_timer_timeout(self) -> None:
        self.hide()
