"""One setting on the Settings form: its dotted key in config.toml, the widget that edits it, what changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractScrollArea,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.config_edit import REMOVE
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.muted_label import MutedLabel
from openhuman_desktop.qt.intelligence.theme import em
from openhuman_desktop.qt.intelligence.toggle_switch import ToggleSwitch


class WheelGuard(QObject):
    """Lets the mouse wheel scroll the page over a spin box or drop-down that does not have the focus, instead of
    changing its value unseen (click or Tab into it first to change it with the wheel)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.Wheel and isinstance(watched, QWidget) and not watched.hasFocus():
            area = watched.parentWidget()
            while area is not None and not isinstance(area, QAbstractScrollArea):
                area = area.parentWidget()
            if area is not None:   # scroll the page, as the wheel does everywhere else on it
                QCoreApplication.sendEvent(area.verticalScrollBar(), event)
            return True
        return super().eventFilter(watched, event)


def guard_wheel(widget: QWidget) -> None:
    """Install :class:`WheelGuard` on ``widget`` (and take the focus by click or Tab only, not by the wheel)."""
    widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    widget.installEventFilter(WheelGuard(widget))


class Field(QObject):
    """A setting shown in one widget.

    ``value()`` is the TOML value the widget holds now; ``changes()`` is what a save writes: nothing while the
    value is the one loaded (only changed fields become ``ConfigEdit`` changes). An error the loader reports
    for one of :attr:`keys` is shown in :attr:`error`, right under the widget.
    """

    edited = Signal()   # the person changed the value
    shown = Signal()    # a value was loaded into the widget

    def __init__(self, key: str, widget: QWidget, read: Callable[[], Any], write: Callable[[Any], None],
                 *, empty_removes: bool = False) -> None:
        super().__init__(widget)
        self.key = key
        self.widget = widget
        self.error = ErrorLabel()
        self._read = read
        self._write = write
        self._empty_removes = empty_removes
        self.initial: Any = None

    @property
    def keys(self) -> tuple[str, ...]:
        """The dotted keys whose problems belong to this field."""
        return (self.key,)

    def load(self, value: Any) -> None:
        """Show ``value`` (from the settings in force) and remember it as unchanged."""
        self._write(value)
        self.initial = self.value()
        self.shown.emit()

    def value(self) -> Any:
        return self._read()

    def changes(self) -> dict[str, Any]:
        value = self.value()
        if value == self.initial:
            return {}
        if self._empty_removes and value == "":
            return {self.key: REMOVE}
        return {self.key: value}

    def mark_saved(self) -> None:
        self.initial = self.value()

    def revert(self) -> None:
        self._write(self.initial)
        self.error.clear_text()
        self.shown.emit()


def switch_field(key: str, name: str) -> Field:
    switch = ToggleSwitch()
    switch.setAccessibleName(name)
    field = Field(key, switch, switch.isChecked, lambda value: switch.setChecked(bool(value)))
    switch.toggled.connect(field.edited)
    return field


def int_field(key: str, name: str, low: int, high: int, *, suffix: str = "", step: int = 1,
              special: str | None = None) -> Field:
    """A whole number within the loader's bounds (``special``: the text shown for ``low``, e.g. "any free port")."""
    box = QSpinBox()
    box.setRange(low, high)
    box.setSingleStep(step)
    box.setSuffix(suffix)
    box.setGroupSeparatorShown(True)
    if special:
        box.setSpecialValueText(special)
    box.setAccessibleName(name)
    box.setMinimumWidth(em(box) * 10)
    guard_wheel(box)
    field = Field(key, box, box.value, lambda value: box.setValue(int(value)))
    box.valueChanged.connect(field.edited)
    return field


def float_field(key: str, name: str, low: float, high: float, step: float) -> Field:
    box = QDoubleSpinBox()
    box.setRange(low, high)
    box.setDecimals(2)
    box.setSingleStep(step)
    box.setAccessibleName(name)
    box.setMinimumWidth(em(box) * 10)
    guard_wheel(box)
    field = Field(key, box, lambda: round(box.value(), 2), lambda value: box.setValue(float(value)))
    box.valueChanged.connect(field.edited)
    return field


def text_field(key: str, name: str, *, placeholder: str = "", empty_removes: bool = False,
               to_text: Callable[[Any], str] = lambda value: "" if value is None else str(value)) -> Field:
    """A line of text; with ``empty_removes`` an emptied field removes the key (the loader's default applies)."""
    edit = QLineEdit()
    edit.setPlaceholderText(placeholder)
    edit.setAccessibleName(name)
    edit.setClearButtonEnabled(True)
    edit.setMinimumWidth(em(edit) * 22)
    field = Field(key, edit, lambda: edit.text().strip(), lambda value: edit.setText(to_text(value)),
                  empty_removes=empty_removes)
    edit.textEdited.connect(field.edited)
    return field


def parse_chat_ids(text: str) -> list[int] | str:
    """``"123, -100456"`` → ``[123, -100456]``; text that is not a list of whole numbers stays text, so the
    loader refuses it with its own sentence."""
    parts = [part for part in text.replace(";", ",").replace(" ", ",").split(",") if part]
    try:
        return [int(part) for part in parts]
    except ValueError:
        return text


def chat_ids_field(key: str, name: str) -> Field:
    edit = QLineEdit()
    edit.setPlaceholderText("e.g. 123456789, -1001234567890")
    edit.setAccessibleName(name)
    edit.setMinimumWidth(em(edit) * 22)

    def write(value: Any) -> None:
        edit.setText(", ".join(str(chat) for chat in value) if isinstance(value, list | tuple) else str(value))

    field = Field(key, edit, lambda: parse_chat_ids(edit.text().strip()), write)
    edit.textEdited.connect(field.edited)
    return field


def choice_field(key: str, name: str, choices: dict[str, str]) -> Field:
    """One of a few values (``choices``: TOML value → what the person reads)."""
    combo = QComboBox()
    for value, text in choices.items():
        combo.addItem(text, value)
    combo.setAccessibleName(name)
    guard_wheel(combo)

    def write(value: Any) -> None:
        index = combo.findData(value)
        combo.setCurrentIndex(max(0, index))

    field = Field(key, combo, combo.currentData, write)
    combo.currentIndexChanged.connect(field.edited)
    return field


class Form(QWidget):
    """Label on the left; the widget, a muted hint and the field's error on the right."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.layout_ = QFormLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)
        self.layout_.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.layout_.setLabelAlignment(self.layout_.labelAlignment())
        unit = em(self)
        self.layout_.setHorizontalSpacing(unit)
        self.layout_.setVerticalSpacing(max(6, unit // 2))
        self._hints: dict[int, MutedLabel] = {}

    def hint_of(self, field: Field) -> MutedLabel:
        """The hint label under ``field`` (added with :meth:`add`)."""
        return self._hints[id(field)]

    def add(self, label: str, field: Field | QWidget, hint: str = "") -> MutedLabel:
        """Add a row; returns its hint label so a caller can update it."""
        widget = field.widget if isinstance(field, Field) else field
        cell = QWidget(self)
        column = QVBoxLayout(cell)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        grows = isinstance(widget, QLineEdit) or widget.sizePolicy().horizontalPolicy() in (
            QSizePolicy.Policy.Expanding, QSizePolicy.Policy.MinimumExpanding)
        column.addWidget(widget, 0, Qt.AlignmentFlag(0) if grows else Qt.AlignmentFlag.AlignLeft)
        hint_label = MutedLabel(hint, cell, factor=0.9)
        hint_label.setWordWrap(True)
        hint_label.setVisible(bool(hint))
        column.addWidget(hint_label)
        if isinstance(field, Field):
            column.addWidget(field.error)
            if widget.accessibleDescription() == "" and hint:
                widget.setAccessibleDescription(hint)
        self._hints[id(field)] = hint_label
        title = QLabel(label, self)
        title.setBuddy(widget)
        self.layout_.addRow(title, cell)
        return hint_label
