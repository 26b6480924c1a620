"""The dialog in which the user writes the steering directive themselves (``source`` ``user``)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.orchestration.steering import MAX_DIRECTIVE_CHARS
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.muted_label import MutedLabel
from openhuman_desktop.qt.intelligence.theme import em, make_primary

EDIT_HELP = ("Standing guidance for the reasoning model, added to every later run's prompt. "
             "Saving makes a new version; you can revert to any earlier one.")


class DirectiveEditDialog(QDialog):
    """Write the directive; Save emits :attr:`submitted` (text, why) and stays open until :meth:`saved`,
    so an error appears here and nothing typed is lost. Open it with ``open()`` (never ``exec()``)."""

    submitted = Signal(str, str)

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Edit the steering directive")
        self.setAccessibleName("Edit the steering directive")
        self.setModal(True)
        unit = em(self)
        self.resize(unit * 36, unit * 20)
        layout = QVBoxLayout(self)
        help_label = MutedLabel(EDIT_HELP, self)
        help_label.setWordWrap(True)
        layout.addWidget(help_label)
        label = QLabel("&Directive", self)
        layout.addWidget(label)
        self.text_edit = QPlainTextEdit(self)
        self.text_edit.setAccessibleName("Directive")
        self.text_edit.setTabChangesFocus(True)
        self.text_edit.setPlainText(text)
        self.text_edit.setPlaceholderText("e.g. Prefer short answers; check the calendar before proposing times.")
        label.setBuddy(self.text_edit)
        layout.addWidget(self.text_edit, 1)
        self.count_label = MutedLabel("", self, factor=0.85)
        self.count_label.setAccessibleName("Length")
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignRight)
        layout.addWidget(self.count_label)
        why = QLabel("&Why (optional)", self)
        layout.addWidget(why)
        self.why_edit = QLineEdit(self)
        self.why_edit.setAccessibleName("Why")
        self.why_edit.setPlaceholderText("A note for yourself: why this guidance")
        why.setBuddy(self.why_edit)
        layout.addWidget(self.why_edit)
        self.error_label = ErrorLabel(self)
        layout.addWidget(self.error_label)
        self.buttons = QDialogButtonBox(self)
        self.save_button = QPushButton("Save", self)
        self.save_button.setAccessibleName("Save the directive")
        self.save_button.setDefault(True)
        make_primary(self.save_button)
        self.buttons.addButton(self.save_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.cancel_button.setAccessibleName("Cancel")
        layout.addWidget(self.buttons)
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        self.text_edit.textChanged.connect(self._on_text_edit_text_changed)
        self._on_text_edit_text_changed()
        self.text_edit.setFocus()

    @property
    def text(self) -> str:
        return self.text_edit.toPlainText()

    def set_busy(self, busy: bool) -> None:
        self.save_button.setText("Saving…" if busy else "Save")
        self.text_edit.setReadOnly(busy)
        self._update_save(busy)

    def show_error(self, text: str) -> None:
        self.set_busy(False)
        self.error_label.show_text(text)

    def saved(self) -> None:
        """The directive was written: close."""
        self.set_busy(False)
        self.accept()

    def _update_save(self, busy: bool = False) -> None:
        length = len(self.text.strip())
        self.save_button.setEnabled(0 < length <= MAX_DIRECTIVE_CHARS and not busy)

    def _on_text_edit_text_changed(self) -> None:
        length = len(self.text.strip())
        self.count_label.setText(f"{length:,} / {MAX_DIRECTIVE_CHARS:,} characters")
        self.error_label.clear_text()
        if length > MAX_DIRECTIVE_CHARS:
            self.error_label.show_text(f"A directive may have at most {MAX_DIRECTIVE_CHARS:,} characters.")
        self._update_save(self.text_edit.isReadOnly())

    def _on_buttons_accepted(self) -> None:
        if not self.save_button.isEnabled():
            return
        self.set_busy(True)
        self.submitted.emit(self.text, self.why_edit.text())
