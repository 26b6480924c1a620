"""qt/outlines: an unchecked box, a radio button and an empty field can be seen on a dark palette."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QCheckBox, QLineEdit, QRadioButton, QStyleFactory, QWidget

from openhuman_desktop.qt.app import dark_palette
from openhuman_desktop.qt.outlines import OutlinedStyle


def brightest(image: QImage) -> int:
    return max(QColor(image.pixel(x, y)).lightness() for x in range(image.width()) for y in range(image.height()))


@pytest.mark.parametrize("kind", [QCheckBox, QRadioButton, QLineEdit])
def test_controls_on_a_dark_palette_have_an_outline_that_shows(qapp: QApplication, kind: type[QWidget]) -> None:
    widgets = []
    styles = (QStyleFactory.create("Fusion"), OutlinedStyle("Fusion"))  # kept alive: a widget does not own its style
    for style in styles:
        widget = kind()
        widget.setStyle(style)
        widget.setPalette(dark_palette())
        widget.resize(120, 28)
        widgets.append(widget)
    plain, outlined = (widget.grab().toImage() for widget in widgets)
    window = dark_palette().color(dark_palette().ColorRole.Window).lightness()
    assert brightest(plain) - window < 40       # Fusion alone: black on near-black
    assert brightest(outlined) - window >= 60   # the outline is a grey a person can see


def test_the_application_gets_the_outlined_style_once(qapp: QApplication) -> None:
    from openhuman_desktop.qt.app import configure_application

    configure_application(qapp)
    style = qapp.style()
    configure_application(qapp)
    assert isinstance(qapp.style(), OutlinedStyle) and qapp.style() is style
