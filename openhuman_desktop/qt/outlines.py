"""Visible outlines for check boxes, radio buttons and text fields on a dark palette.

Fusion draws those outlines a shade darker than the window (``window.darker(140)``): on a light window that is a
grey line, on a dark one it is black on near-black, so an unchecked box, a radio button or an empty field cannot
be seen (a Settings window in dark mode looked like loose labels). This proxy style draws Fusion's primitive,
then, on a dark palette only, an outline in the palette's disabled-text grey over it.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QProxyStyle, QStyle, QStyleOption, QStyleOptionComplex, QWidget

_OUTLINED = (
    QStyle.PrimitiveElement.PE_IndicatorCheckBox,
    QStyle.PrimitiveElement.PE_IndicatorRadioButton,
    QStyle.PrimitiveElement.PE_FrameLineEdit,
)


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


class OutlinedStyle(QProxyStyle):
    """The application's style (Fusion, or whatever the desktop gives) with outlines that show on dark palettes."""

    def drawPrimitive(  # noqa: N802 (Qt override)
        self, element: QStyle.PrimitiveElement, option: QStyleOption, painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawPrimitive(element, option, painter, widget)
        if element in _OUTLINED and is_dark(option.palette):
            _outline(element, option, painter)

    def drawComplexControl(  # noqa: N802 (Qt override)
        self, control: QStyle.ComplexControl, option: QStyleOptionComplex, painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawComplexControl(control, option, painter, widget)
        if control == QStyle.ComplexControl.CC_SpinBox and is_dark(option.palette):
            _outline(QStyle.PrimitiveElement.PE_FrameLineEdit, option, painter)


def _outline_color(option: QStyleOption) -> QColor:
    palette: QPalette = option.palette
    state = option.state
    if not state & QStyle.StateFlag.State_Enabled:
        return palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text).darker(130)
    if state & QStyle.StateFlag.State_HasFocus:
        return palette.color(QPalette.ColorRole.Highlight)
    return palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)


def _outline(element: QStyle.PrimitiveElement, option: QStyleOption, painter: QPainter) -> None:
    rect = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    painter.setPen(QPen(_outline_color(option), 1.0))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
        painter.drawEllipse(rect.adjusted(1.0, 1.0, -1.0, -1.0))
    else:
        painter.drawRoundedRect(rect, 2.0, 2.0)
    painter.restore()
