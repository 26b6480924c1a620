"""The config.toml error dialog at GUI start: the loader's file, key, value and expected, and "Open config.toml"."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QUrl
from pytestqt.qtbot import QtBot

from openhuman_desktop import config
from openhuman_desktop.errors import ConfigError
from openhuman_desktop.qt.config_error import ConfigErrorDialog


def bad_config(tmp_path: Path) -> ConfigError:
    path = tmp_path / "config.toml"
    path.write_text('[heartbeat]\ninterval_minutes = "soon"\n', encoding="utf-8")
    try:
        config.load(path)
    except ConfigError as exc:
        return exc
    raise AssertionError("the config was accepted")


OFFSCREEN_TOP_LEVEL_WARNING = r"This plugin does not support propagateSizeHints\(\)"


@pytest.mark.qt_log_ignore(OFFSCREEN_TOP_LEVEL_WARNING)
def test_the_dialog_shows_what_the_loader_said_and_opens_the_file(qtbot: QtBot, tmp_path: Path) -> None:
    error = bad_config(tmp_path)
    opened: list[QUrl] = []
    dialog = ConfigErrorDialog(error, open_url=lambda url: opened.append(url) or True)
    qtbot.add_widget(dialog)
    dialog.show()
    assert dialog.fields["File"].text() == str(tmp_path / "config.toml")
    assert dialog.fields["Key"].text() == "heartbeat.interval_minutes"
    assert "soon" in dialog.fields["Value"].text()
    assert dialog.fields["Expected"].text() == error.expected
    assert dialog.open_button.text() == "Open config.toml"

    qtbot.mouseClick(dialog.open_button, Qt.MouseButton.LeftButton)
    assert opened == [QUrl.fromLocalFile(str(tmp_path / "config.toml"))]
    assert dialog.isVisible()  # still there to read while editing

    with qtbot.wait_signal(dialog.rejected, timeout=1000):
        qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    assert not dialog.isVisible()
