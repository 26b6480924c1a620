"""Attack on the Settings window: what the person typed is never marked saved unless it was written."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QLabel, QScrollArea

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


def wheel(widget: Any, steps: int = 1) -> None:
    """One notch of the mouse wheel over ``widget`` (the pointer just passes over it while scrolling the page)."""
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0),
                        QPoint(0, -120 * steps), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_scrolling_the_page_over_a_number_or_a_list_does_not_change_it(make_window: Make) -> None:  # noqa: F811
    """Scrolling down a section with the wheel: the pointer passes over a spin box (or a drop-down) and the
    wheel changed its value instead (RPC port "any free port" → 1, a tier's provider), silently, ready to save."""
    window = make_window()
    wheeled = []
    for section in window.sections:
        window.show_section(section.name)
        window.nav.setFocus()   # the pointer is over the page; the keyboard focus is elsewhere
        for widget in window.findChildren(QAbstractSpinBox) + window.findChildren(QComboBox):
            if widget.isVisibleTo(window) and widget.isEnabled():
                wheel(widget)
                wheeled.append(widget.accessibleName())
    assert "RPC port" in wheeled and len(wheeled) > 5
    assert window.changes() == {}, f"the wheel changed {window.changes()}"
    window.resize(700, 400)
    window.show_section("models")
    page = window.pages.currentWidget()
    assert page is not None
    area = page if isinstance(page, QScrollArea) else page.findChild(QScrollArea)
    assert area is not None
    bar = area.verticalScrollBar()
    bar.setValue(0)
    assert bar.maximum() > 0
    wheel(next(w for w in area.findChildren(QComboBox) if w.isVisibleTo(window)))
    assert bar.value() > 0, "the wheel over a drop-down did not scroll the page either"


KEY = "sk-proj-Q3vT8mZk2LrX9wPbN4yHc7JdF1sGa6Ue"
BOT_TOKEN = "123456789:AAHk3vT8mZk2LrX9wPbN4yHc7JdF1sGa6Ue"


def test_a_key_pasted_where_its_variable_name_goes_is_not_repeated_on_screen_or_sent_anywhere(
        make_window: Make, qtbot: Any, settle: Any) -> None:  # noqa: F811
    """Pasting the API key into "API key variable" (a common slip): the hint under it read "sk-proj-Q3v… is not
    set where OpenHuman was started", the model list asked the server with it as a variable name and printed it
    again. The loader refuses it without repeating it; the window must not repeat it either."""
    asked: list[Any] = []

    async def lister(provider: str, base_url: str, *, api_key_env: str | None = None, **_: Any) -> list[Any]:
        asked.append(api_key_env)
        return []

    window = make_window(lister=lister)
    window.show_section("models")
    tier = window.tiers["reasoning"]
    tier.provider_combo.setCurrentIndex(tier.provider_combo.findData("openai"))
    tier.base_url_edit.setText("http://127.0.0.1:9/v1")
    tier.key_edit.setFocus()
    qtbot.keyClicks(tier.key_edit, KEY)
    tier.key_edit.editingFinished.emit()
    tier.request_models(force=True)
    settle(window)
    shown = " ".join(label.text() for label in window.findChildren(QLabel) if label.isVisibleTo(window))
    assert KEY not in shown and KEY[:12] not in shown, shown
    assert "looks like the key itself" in tier.key_hint.text()
    assert KEY not in asked, "the key went to the model list as a variable name"

    window.show_section("channels")
    token = window.field("channels.telegram.token_env")
    enter(qtbot, token, BOT_TOKEN)
    shown = " ".join(label.text() for label in window.findChildren(QLabel) if label.isVisibleTo(window))
    assert BOT_TOKEN not in shown and BOT_TOKEN[:15] not in shown, shown
