"""Attack on the Settings window: what the person typed is never marked saved unless it was written."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from PySide6.QtCore import Qt

from openhuman_desktop import config
from openhuman_desktop.config_edit import ConfigEdit
from openhuman_desktop.qt.settings import window as settings_window
from tests.qt.test_settings import Make, enter, make_window  # noqa: F401  (fixture)


def test_a_value_typed_while_a_save_runs_stays_unsaved_not_silently_dropped(
        make_window: Make, qtbot: Any, until: Any, settle: Any, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """The save runs in a thread and the form stays editable; a field changed meanwhile was marked saved with
    its new value although the file got the old one: the edit vanished (no "Unsaved changes", Save disabled)."""
    started, release = threading.Event(), threading.Event()

    class SlowEdit(ConfigEdit):
        def save(self, environ: Any = None) -> config.LoadedConfig:
            started.set()
            assert release.wait(10)
            return super().save(environ)

    monkeypatch.setattr(settings_window, "ConfigEdit", SlowEdit)
    window = make_window()
    interval = window.field("heartbeat.interval_minutes")
    enter(qtbot, interval, 30)
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    until(started.is_set)
    enter(qtbot, interval, 45)            # the person keeps going while the disk is slow
    release.set()
    settle(window)
    assert config.load(window.config_path).settings.heartbeat.interval_minutes == 30
    assert window.changes() == {"heartbeat.interval_minutes": 45}, "the 45 typed during the save was lost"
    assert window.save_button.isEnabled()
