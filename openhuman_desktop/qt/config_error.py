"""The dialog shown when config.toml is invalid at start: file, key, value, expected, and a way to open it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.errors import ConfigError

TITLE = "OpenHuman: config.toml is not valid"


def open_with_desktop(url: QUrl) -> bool:
    """Open ``url`` in the user's editor or file viewer."""
    return bool(QDesktopServices.openUrl(url))


class ConfigErrorDialog(QDialog):
    """What is wrong in config.toml, in the loader's words, with "Open config.toml" and "Close".

    Opening the file leaves the dialog up, so the user can read it while editing.
    """

    def __init__(
        self,
        error: ConfigError,
        *,
        open_url: Callable[[QUrl], bool] = open_with_desktop,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._error = error
        self._open_url = open_url
        self.setWindowTitle(TITLE)
        self.setAccessibleName(TITLE)
        heading = QLabel("OpenHuman could not start because a setting in config.toml is not valid.")
        heading.setWordWrap(True)
        details = QFormLayout()
        self.fields: dict[str, QLabel] = {}
        for name, text in (("File", error.path), ("Key", error.key), ("Value", repr(error.value)),
                           ("Expected", error.expected)):
            label = QLabel(text)
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            label.setAccessibleName(name)
            details.addRow(f"{name}:", label)
            self.fields[name] = label
        hint = QLabel("Fix the value, save the file and start OpenHuman again.")
        hint.setWordWrap(True)
        self.message = str(error)
        buttons = QDialogButtonBox()
        self.open_button = QPushButton("Open config.toml")
        self.open_button.setAccessibleName("Open config.toml")
        self.close_button = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.open_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.open_button.clicked.connect(self._on_open_button_clicked)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addLayout(details)
        layout.addWidget(hint)
        layout.addWidget(buttons)
        self.open_button.setFocus()

    def _on_open_button_clicked(self) -> None:
        path = Path(self._error.path)
        self._open_url(QUrl.fromLocalFile(str(path)))
