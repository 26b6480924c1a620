"""The Settings window's form: every setting written to config.toml, only what changed, comments kept, a bad
value refused with the loader's sentence next to its field and nothing written."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDoubleSpinBox, QLineEdit, QSpinBox

from openhuman_desktop import autostart, config
from openhuman_desktop.config import Settings
from openhuman_desktop.config_edit import ConfigEdit
from openhuman_desktop.errors import ConfigError
from openhuman_desktop.qt.intelligence.toggle_switch import ToggleSwitch
from openhuman_desktop.qt.settings import SettingsWindow
from openhuman_desktop.qt.settings.fields import Field

USER_NOTE = "# my own note: keep the heartbeat slow on the laptop\n"
COMMENTED = USER_NOTE + config.DEFAULT_CONFIG_TEXT

Make = Callable[..., SettingsWindow]


@pytest.fixture
def make_window(qtbot: Any, qrun: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Make]:
    """``make_window(text)``: a Settings window on ``tmp_path/config.toml`` holding ``text``, shown offscreen."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    windows: list[SettingsWindow] = []

    def make(text: str = COMMENTED, **kwargs: Any) -> SettingsWindow:
        path = tmp_path / "config.toml"
        path.write_text(text, encoding="utf-8")
        window = SettingsWindow(path, workspace=tmp_path / "workspace", **kwargs)
        windows.append(window)
        window.show()
        return window

    yield make
    for window in windows:
        qrun(window.aclose())
        window.hide()
        window.deleteLater()
    for window in windows:
        assert not window.jobs.failures, window.jobs.failures


def enter(qtbot: Any, item: Field, value: Any) -> None:
    """Change a field the way a person does: click a switch, type into a text field, step a number."""
    widget = item.widget
    if isinstance(widget, ToggleSwitch):
        if widget.isChecked() != value:
            qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)
    elif isinstance(widget, QLineEdit):
        widget.selectAll()
        qtbot.keyClick(widget, Qt.Key.Key_Delete)
        qtbot.keyClicks(widget, str(value))
    elif isinstance(widget, QSpinBox | QDoubleSpinBox):
        widget.setValue(value)
    else:
        raise AssertionError(f"no way to enter {value!r} into {widget!r}")


def save(window: SettingsWindow, qtbot: Any, settle: Any) -> None:
    assert window.save_button.isEnabled(), "Save is disabled: nothing changed"
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    settle(window)


def changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.ndiff(before.splitlines(), after.splitlines()) if line[:2] in ("- ", "+ ")]


# Every setting of the form: the value entered, and what the loader reads back from the saved file.
CASES: list[tuple[str, Any, Callable[[Settings], Any], Any]] = [
    ("heartbeat.enabled", False, lambda s: s.heartbeat.enabled, False),
    ("heartbeat.interval_minutes", 30, lambda s: s.heartbeat.interval_minutes, 30),
    ("heartbeat.inference_enabled", False, lambda s: s.heartbeat.inference_enabled, False),
    ("heartbeat.context_budget_tokens", 12_000, lambda s: s.heartbeat.context_budget_tokens, 12_000),
    ("ollama.host", "http://127.0.0.1:9999", lambda s: s.ollama_host, "http://127.0.0.1:9999"),
    ("rpc.port", 8765, lambda s: s.rpc_port, 8765),
    ("activity_log.retention_days", 30, lambda s: s.activity_log.retention_days, 30),
    ("activity_log.max_rows", 50_000, lambda s: s.activity_log.max_rows, 50_000),
    ("channels.telegram.enabled", True, lambda s: s.channels.telegram.enabled, True),
    ("channels.telegram.token_env", "MY_BOT_TOKEN", lambda s: s.channels.telegram.token_env, "MY_BOT_TOKEN"),
    ("channels.telegram.allowed_chat_ids", "123, -1001234", lambda s: s.channels.telegram.allowed_chat_ids,
     (123, -1001234)),
    ("channels.telegram.api_url", "http://127.0.0.1:8081", lambda s: s.channels.telegram.api_url,
     "http://127.0.0.1:8081"),
    ("channels.webapp.enabled", False, lambda s: s.channels.webapp.enabled, False),
    ("channels.webapp.port", 8080, lambda s: s.channels.webapp.port, 8080),
    ("reflection.enabled", False, lambda s: s.reflection.enabled, False),
    ("reflection.schedule", "cron:30 4 * * *", lambda s: s.reflection.schedule, "cron:30 4 * * *"),
    ("notifications.enabled", False, lambda s: s.notifications.enabled, False),
    ("notifications.quiet_hours", "22:00-07:00", lambda s: s.notifications.quiet_hours, (1320, 420)),
    ("agent.step_limit", 20, lambda s: s.agent.step_limit, 20),
    ("agent.context_threshold", 0.88, lambda s: s.agent.context_threshold, 0.88),
    ("agent.max_subagents", 6, lambda s: s.agent.max_subagents, 6),
    ("agent.concurrent_subagents", 3, lambda s: s.agent.concurrent_subagents, 3),
    ("agent.subagent_steps", 9, lambda s: s.agent.subagent_steps, 9),
    ("agent.run_deadline_seconds", 1200, lambda s: s.agent.run_deadline_seconds, 1200),
    ("agent.model_timeout_seconds", 240, lambda s: s.agent.model_timeout_seconds, 240),
]


def test_every_plain_setting_of_config_toml_has_a_field() -> None:
    keys = {case[0] for case in CASES}
    from openhuman_desktop.qt.settings.sections import VALUES
    from openhuman_desktop.qt.settings.world_section import WORLD_VALUES  # tested in test_settings_world.py

    assert set(VALUES) - set(WORLD_VALUES) == keys


@pytest.mark.parametrize(("key", "value", "read", "expected"), CASES, ids=[case[0] for case in CASES])
def test_each_setting_is_saved_as_one_changed_line_with_the_comments_kept(
        make_window: Make, qtbot: Any, settle: Any, key: str, value: Any, read: Callable[[Settings], Any],
        expected: Any) -> None:
    window = make_window()
    item = window.field(key)
    assert item.widget.accessibleName(), f"{key} has no accessible name"
    enter(qtbot, item, value)
    assert set(window.changes()) == {key}
    save(window, qtbot, settle)

    after = window.config_path.read_text(encoding="utf-8")
    assert read(config.load(window.config_path, environ={}).settings) == expected
    lines = changed_lines(COMMENTED, after)
    assert len(lines) == 2, lines          # one line out, one line in: nothing else moved
    name = key.rsplit(".", 1)[-1]
    old = next(line for line in lines if line.startswith("- "))[2:]
    assert old.startswith(f"{name} =")
    new = next(line for line in lines if line.startswith("+ "))[2:]
    if "#" in old:                          # the inline comment stays, in its column
        assert new.index("#") == old.index("#") and new.split("#", 1)[1] == old.split("#", 1)[1]
    assert after.startswith(USER_NOTE)
    assert window.status_label.text().startswith("Saved.")
    assert not window.save_button.isEnabled() and not window.changes()


def test_only_changed_fields_are_written(make_window: Make, qtbot: Any, settle: Any) -> None:
    # interval_minutes = 3 is raised to 5 by the loader; the form shows 5 but never writes it back.
    text = COMMENTED.replace("interval_minutes = 5 ", "interval_minutes = 3 ")
    window = make_window(text)
    assert window.field("heartbeat.interval_minutes").value() == 5
    assert window.changes() == {}
    assert not window.save_button.isEnabled()
    enter(qtbot, window.field("activity_log.retention_days"), 14)
    save(window, qtbot, settle)
    after = window.config_path.read_text(encoding="utf-8")
    assert "interval_minutes = 3 " in after
    assert [line[2:].split("#")[0].strip() for line in changed_lines(text, after)] == [
        "retention_days = 90", "retention_days = 14"]


def test_an_edit_made_in_a_text_editor_meanwhile_is_kept(make_window: Make, qtbot: Any, settle: Any) -> None:
    window = make_window()
    enter(qtbot, window.field("heartbeat.context_budget_tokens"), 20_000)
    path = window.config_path
    path.write_text(path.read_text().replace("max_rows = 200000", "max_rows = 300000"), encoding="utf-8")
    save(window, qtbot, settle)
    settings = config.load(path, environ={}).settings
    assert (settings.activity_log.max_rows, settings.heartbeat.context_budget_tokens) == (300_000, 20_000)


def test_comments_and_layout_of_a_hand_written_file_stay(make_window: Make, qtbot: Any, settle: Any) -> None:
    text = (
        "# Laptop settings — written by hand\n\n"
        "[heartbeat]\n"
        "# slow on battery\n"
        "interval_minutes = 15   # was 5\n"
        "enabled = true\n\n"
        "[notifications]  # pop-ups\n"
        'quiet_hours = ""   # none yet\n'
    )
    window = make_window(text)
    enter(qtbot, window.field("heartbeat.interval_minutes"), 45)
    enter(qtbot, window.field("notifications.quiet_hours"), "23:00-06:30")
    enter(qtbot, window.field("agent.step_limit"), 30)   # a table the file does not have yet
    save(window, qtbot, settle)
    after = window.config_path.read_text(encoding="utf-8")
    for line in ("# Laptop settings — written by hand", "# slow on battery", "[notifications]  # pop-ups"):
        assert line in after
    assert "interval_minutes = 45   # was 5" in after               # the comment keeps its column
    assert 'quiet_hours = "23:00-06:30" # none yet' in after        # pushed right by one space at least
    settings = config.load(window.config_path, environ={}).settings
    assert settings.agent.step_limit == 30 and settings.notifications.quiet_hours == (23 * 60, 6 * 60 + 30)


def loader_refusal(path: Path, key: str, value: Any) -> ConfigError:
    """What the loader itself says about ``key = value`` in this file."""
    edit = ConfigEdit(path)
    edit.set(key, value)
    with pytest.raises(ConfigError) as info:
        edit.check(environ={})
    return info.value


@pytest.mark.parametrize(("key", "typed", "value", "section"), [
    ("notifications.quiet_hours", "25:00-07:00", "25:00-07:00", "notifications"),
    ("reflection.schedule", "every night", "every night", "reflection"),
    ("channels.telegram.allowed_chat_ids", "my group", "my group", "channels"),
    ("channels.telegram.api_url", "api.telegram.org", "api.telegram.org", "channels"),
    ("ollama.host", "localhost:11434", "localhost:11434", "models"),
])
def test_a_bad_value_is_refused_with_the_loaders_sentence_next_to_it(
        make_window: Make, qtbot: Any, settle: Any, key: str, typed: str, value: Any, section: str) -> None:
    window = make_window()
    window.show_section("general")
    before = window.config_path.read_bytes()
    item = window.field(key)
    enter(qtbot, item, typed)
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    settle(window)

    refusal = loader_refusal(window.config_path, key, value)
    assert refusal.key == key
    assert item.error.isVisibleTo(window) and item.error.text() == str(refusal).removeprefix(f"{refusal.path}: ")
    assert window.config_path.read_bytes() == before, "a refused value must not be written"
    assert window.current_section == section                        # the window shows where the problem is
    assert QApplication.focusWidget() is item.widget or not window.isActiveWindow()
    assert "Nothing was written" in window.status_label.text()
    assert window.save_button.isEnabled()                           # fix it and save again
    enter(qtbot, item, {"notifications.quiet_hours": "22:00-07:00", "reflection.schedule": "cron:0 4 * * *",
                        "channels.telegram.allowed_chat_ids": "42", "channels.telegram.api_url": "http://x.test",
                        "ollama.host": "http://localhost:11434"}[key])
    assert not item.error.isVisibleTo(window)                       # editing the field clears its error
    save(window, qtbot, settle)
    assert window.status_label.text() == "Saved."


def test_spin_boxes_offer_exactly_what_the_loader_accepts(make_window: Make) -> None:
    window = make_window()
    for item in window.fields:
        box = item.widget
        if not isinstance(box, QSpinBox | QDoubleSpinBox):
            continue
        for ok in (box.minimum(), box.maximum()):
            edit = ConfigEdit(window.config_path)
            edit.set(item.key, round(ok, 2) if isinstance(box, QDoubleSpinBox) else ok)
            edit.check(environ={})
        step = 0.01 if isinstance(box, QDoubleSpinBox) else 1
        outside = [box.maximum() + step]
        if item.key != "heartbeat.interval_minutes":                 # below 5 is raised to 5 with a warning
            outside.append(box.minimum() - step)
        for bad in outside:
            value = round(bad, 2) if step == 0.01 else bad
            assert loader_refusal(window.config_path, item.key, value).key == item.key


def test_revert_shows_the_saved_values_again(make_window: Make, qtbot: Any) -> None:
    window = make_window()
    enter(qtbot, window.field("heartbeat.enabled"), False)
    enter(qtbot, window.field("notifications.quiet_hours"), "21:00-08:00")
    assert window.revert_button.isEnabled() and window.status_label.text() == "Unsaved changes."
    qtbot.mouseClick(window.revert_button, Qt.MouseButton.LeftButton)
    assert window.changes() == {}
    assert window.field("heartbeat.enabled").value() is True
    assert window.field("notifications.quiet_hours").value() == ""


def test_a_broken_file_is_said_and_nothing_is_saved_over_it(make_window: Make, qtbot: Any, settle: Any) -> None:
    text = COMMENTED.replace("retention_days = 90", "retention_days = 0")
    window = make_window(text)
    assert "config.toml has a problem" in window.banner.text and "retention_days" in window.banner.text
    enter(qtbot, window.field("heartbeat.interval_minutes"), 10)
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    settle(window)
    assert window.config_path.read_text(encoding="utf-8") == text
    assert "Nothing was written" in window.status_label.text() or "Not saved" in window.banner.text


def test_start_at_login_writes_and_removes_the_autostart_entry(make_window: Make, qtbot: Any) -> None:
    window = make_window()
    switch = window.autostart_switch
    assert switch.isEnabled() and not switch.isChecked()
    with qtbot.wait_signal(window.autostart_changed) as blocker:
        qtbot.mouseClick(switch, Qt.MouseButton.LeftButton)
    assert blocker.args == [True]
    assert autostart.is_enabled() and "--workspace" in autostart.entry_path().read_text()
    qtbot.mouseClick(switch, Qt.MouseButton.LeftButton)
    assert not autostart.is_enabled() and not autostart.entry_path().exists()
    assert window.changes() == {}                                   # not a config.toml value


def test_esc_closes_and_sections_are_reachable_by_keyboard(make_window: Make, qtbot: Any) -> None:
    window = make_window()
    window.activateWindow()
    window.nav.setFocus()
    qtbot.keyClick(window.nav, Qt.Key.Key_Down)
    assert window.current_section == "heartbeat"
    qtbot.keyClick(window.nav, Qt.Key.Key_End)
    assert window.current_section == "advanced"
    for item in window.fields:
        widget = getattr(item, "widget", None)
        assert widget is not None and (widget.accessibleName() or item.key.startswith("models.")), item.key
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not window.isVisible()


def test_closing_keeps_unsaved_changes_and_a_clean_window_shows_the_file_anew(make_window: Make,
                                                                              qtbot: Any) -> None:
    window = make_window()
    enter(qtbot, window.field("activity_log.retention_days"), 7)
    window.close()
    window.bring_to_front()
    assert window.field("activity_log.retention_days").value() == 7 and window.save_button.isEnabled()
    qtbot.mouseClick(window.revert_button, Qt.MouseButton.LeftButton)
    window.close()
    path = window.config_path
    path.write_text(path.read_text().replace("retention_days = 90", "retention_days = 60"), encoding="utf-8")
    window.bring_to_front()
    assert window.field("activity_log.retention_days").value() == 60 and not window.save_button.isEnabled()


def test_the_token_variable_hint_says_whether_it_is_set(make_window: Make, qtbot: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_BOT_TOKEN", "123456:abcdefghijklmnopqrstuvwxyz")
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    window = make_window()
    window.show_section("channels")
    token = window.field("channels.telegram.token_env")
    form = token.widget.parentWidget().parentWidget()
    hint = form.hint_of(token)
    assert "TELEGRAM_BOT_TOKEN is not set" in hint.text()
    enter(qtbot, token, "MY_BOT_TOKEN")
    assert hint.text().startswith("MY_BOT_TOKEN is set") and "123456:" not in hint.text()
