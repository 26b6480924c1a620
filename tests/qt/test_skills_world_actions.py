"""The built-in skills of the person's world in the Skills tab: Restart, Enable / Disable (written to its own
[skills.NAME] table and applied at once) and Edit…, which opens Settings on that skill's form and its Test button;
the other built-in skills (workspace files, memory …) have nothing to act on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from openhuman_desktop import config
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.settings import SettingsWindow
from tests.fakes.engine_harness import Harness


def test_a_built_in_world_skill_can_be_enabled_restarted_disabled_and_edited(
        gui_harness: Harness, intelligence_window: IntelligenceWindow, qtbot: Any, settle: Any, until: Any) -> None:
    view = intelligence_window.skills_view
    world = gui_harness.services.world
    intelligence_window.show_tab("skills")
    settle(intelligence_window)
    view.select_skill("files")
    assert view.detail.actions_row.isHidden(), "workspace files has no table to act on"
    view.select_skill("web")
    assert not view.detail.actions_row.isHidden()
    assert view.detail.disable_button.text() == "Enable" and not world.web.enabled

    qtbot.mouseClick(view.detail.disable_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    assert config.load(gui_harness.paths.config_file).settings.skills.web.enabled is True
    until(lambda: world.web.enabled and world.web.state == "connected", 10, "the web skill on")
    settle(intelligence_window)
    view.select_skill("web")
    assert view.detail.disable_button.text() == "Disable" and view.detail.restart_button.isEnabled()
    qtbot.mouseClick(view.detail.restart_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    assert world.web.state == "connected" and view.detail.action_error.text() == ""

    qtbot.mouseClick(view.detail.disable_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    assert config.load(gui_harness.paths.config_file).settings.skills.web.enabled is False
    until(lambda: not world.web.enabled and world.web.state == "disabled", 10, "the web skill off")

    view.select_skill("email")
    with qtbot.wait_signal(intelligence_window.skill_edit_requested, timeout=2000) as blocker:
        qtbot.mouseClick(view.detail.edit_button, Qt.MouseButton.LeftButton)
    assert blocker.args == ["email"]


def test_edit_opens_settings_on_the_skills_form_with_its_test_button(qtbot: Any, tmp_path: Path) -> None:
    config_file = tmp_path / "config.toml"
    config_file.write_text("")
    window = SettingsWindow(config_file, tester=None)
    qtbot.add_widget(window)
    window.resize(900, 600)
    window.show()
    window.show_skill("slack")
    assert window.current_section == "skills"
    tester = window.skill_testers["slack"]
    assert not tester.visibleRegion().isEmpty(), "the Slack form is scrolled into sight"
    window.show_skill("email")
    assert not window.skill_testers["email"].visibleRegion().isEmpty()
