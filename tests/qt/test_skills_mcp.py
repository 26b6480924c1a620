"""MCP servers in the Skills tab (state, reason, stderr, tools with their badges; Restart, Disable, Edit) and in
Settings > Skills (add a server, variables by name, per-tool overrides, the loader's sentences)."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from openhuman_desktop import config
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.settings import SettingsWindow
from tests.fakes.engine_harness import Harness, config_text
from tests.skills.mcp_support import FIXTURE

BROKEN = ("import sys; print('broken-server: reading ~/.config/broken/token.json failed', file=sys.stderr); "
          "print('broken-server: giving up', file=sys.stderr); sys.exit(2)")


def servers_config(h: Harness, fixture_dir: Path) -> str:
    assert h.ollama is not None
    base = config_text(local_url=h.ollama.url, reasoning_url=h.openai.url + "/v1" if h.openai else None)
    return base + f"""
[skills.mcp.fx]
command = {json.dumps(sys.executable)}
args = [{json.dumps(str(FIXTURE))}]
env = {{ FIXTURE_DIR = {json.dumps(str(fixture_dir))} }}
disabled_tools = ["crash"]
write_tools = ["lying_read"]

[skills.mcp.broken]
command = {json.dumps(sys.executable)}
args = ["-c", {json.dumps(BROKEN)}]
"""


@pytest.fixture
def with_servers(gui_harness: Harness, qrun: Any, until: Any, tmp_path: Path) -> Iterator[Harness]:
    fixture_dir = tmp_path / "fixture"
    fixture_dir.mkdir()
    qrun(gui_harness.reconfigure(servers_config(gui_harness, fixture_dir)))
    qrun(gui_harness.services.mcp.apply())
    servers = gui_harness.services.mcp.servers
    until(lambda: servers["fx"].state == "connected" and servers["broken"].state == "error", 30,
          "fx connected and broken in error")
    yield gui_harness


def test_the_tab_lists_mcp_servers_with_state_reason_stderr_and_tools(
        with_servers: Harness, intelligence_window: IntelligenceWindow, settle: Any, until: Any) -> None:
    view = intelligence_window.skills_view
    intelligence_window.show_tab("skills")
    settle(intelligence_window)
    titles = [view.skills_list.item(r).text() for r in range(view.skills_list.count())]
    assert titles[:4] == ["Workspace files", "Memory", "Subconscious tasks", "Desktop notifications"]
    # The built-in skills of the person's world (issue 22) come next, off until their tables turn them on.
    assert titles[4:9] == ["Email", "News feeds", "Calendars", "Web pages", "Slack"]
    assert titles[9:] == ["fx (MCP)", "broken (MCP)"]
    assert view.skills_list.item(10).data(Qt.ItemDataRole.AccessibleTextRole) == "broken (MCP): error"
    assert "1 need attention" in view.summary_label.text()

    assert view.select_skill("broken")
    detail = view.detail
    assert detail.health_dot.accent_name == "coral"
    assert detail.health_label.text().startswith("Error — It failed to start or speak MCP and is tried again after "
                                                  "a pause (1 s, growing to 5 min): ")
    assert "giving up" in detail.health_label.text()
    assert detail.stderr_view.isVisibleTo(detail)
    assert "reading ~/.config/broken/token.json failed" in detail.stderr_view.toPlainText()
    assert detail.actions_row.isVisibleTo(detail) and detail.restart_button.isEnabled()
    assert detail.no_tools_label.text() == "No tools: the server is not connected."

    assert view.select_skill("fx")
    assert detail.health_label.text().startswith("Connected — ")
    badges = {row.name_label.text(): row.badge.text() for row in detail.tool_rows}
    assert badges["fx__big"] == "read only" and badges["fx__append_note"] == "writes"
    assert badges["fx__lying_read"] == "writes" and badges["fx__grant"] == "writes"
    crash = next(row for row in detail.tool_rows if row.name_label.text() == "fx__crash")
    assert crash.disabled_badge is not None and crash.disabled_badge.text() == "disabled"
    grant = next(row for row in detail.tool_rows if row.name_label.text() == "fx__grant")
    assert grant.description_label.textFormat() == Qt.TextFormat.PlainText  # a server's words are not markup

    assert view.select_skill("files")
    assert not detail.actions_row.isVisibleTo(detail) and not detail.stderr_view.isVisibleTo(detail)


def test_restart_disable_and_edit(with_servers: Harness, intelligence_window: IntelligenceWindow, qtbot: Any,
                                  settle: Any, until: Any) -> None:
    view = intelligence_window.skills_view
    intelligence_window.show_tab("skills")
    settle(intelligence_window)
    servers = with_servers.services.mcp.servers
    view.select_skill("fx")
    first = servers["fx"]
    qtbot.mouseClick(view.detail.restart_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    until(lambda: servers["fx"].state == "connected", 30, "fx connected again")
    assert servers["fx"] is first

    qtbot.mouseClick(view.detail.disable_button, Qt.MouseButton.LeftButton)
    settle(intelligence_window)
    loaded = config.load(with_servers.paths.config_file)
    assert loaded.settings.skills.mcp["fx"].enabled is False
    until(lambda: servers["fx"].state == "disabled", 30, "fx disabled")
    settle(intelligence_window)
    view.select_skill("fx")
    assert view.detail.disable_button.text() == "Enable"
    assert view.detail.health_label.text().startswith("Disabled")

    with qtbot.wait_signal(intelligence_window.skill_edit_requested, timeout=2000) as blocker:
        qtbot.mouseClick(view.detail.edit_button, Qt.MouseButton.LeftButton)
    assert blocker.args == ["fx"]


def test_the_tab_follows_a_server_that_stops_without_a_click(
        with_servers: Harness, intelligence_window: IntelligenceWindow, tmp_path: Path, settle: Any,
        until: Any) -> None:
    view = intelligence_window.skills_view
    intelligence_window.show_tab("skills")
    settle(intelligence_window)
    view.select_skill("fx")
    assert view.detail.health_label.text().startswith("Connected")
    (pid_file,) = (tmp_path / "fixture").glob("pid-*")
    os.killpg(int(pid_file.read_text()), signal.SIGKILL)
    until(lambda: view.detail.health_label.text().startswith("Disconnected — The server exited and is tried again"),
          20,
          "the tab to show that the server stopped")
    assert view.detail.health_dot.accent_name == "amber"


# --- Settings > Skills ---------------------------------------------------------------------------------


@pytest.fixture
def settings_window(qtbot: Any, qrun: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[
        SettingsWindow]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    path = tmp_path / "config.toml"
    path.write_text(config.DEFAULT_CONFIG_TEXT, encoding="utf-8")
    window = SettingsWindow(path, workspace=tmp_path / "ws", environ={"MY_GITHUB_PAT": "x"},
                            tools_of=lambda name: [("get_issue", "read"), ("create_issue", "write")]
                            if name == "github" else [])
    window.show()
    yield window
    qrun(window.aclose())
    window.hide()
    window.deleteLater()


def type_into(qtbot: Any, widget: Any, text: str) -> None:
    widget.setFocus()
    if hasattr(widget, "selectAll"):
        widget.selectAll()
    qtbot.keyClick(widget, Qt.Key.Key_Delete)
    qtbot.keyClicks(widget, text)


def test_adding_a_server_with_a_secret_by_name_and_tool_overrides(settings_window: SettingsWindow, qtbot: Any,
                                                                   settle: Any) -> None:
    window = settings_window
    window.show_skill("")
    assert window.current_section == "skills"
    editor = window.skills_editor
    form = editor.server_form
    type_into(qtbot, form.name_edit, "github")
    type_into(qtbot, form.command_edit, "npx")
    type_into(qtbot, form.args_edit, '-y "@modelcontextprotocol/server-github"')
    form.env_from_edit.setPlainText("GITHUB_TOKEN=MY_GITHUB_PAT")
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    settle(window)
    server = config.load(window.config_path).settings.skills.mcp["github"]
    assert (server.command, server.args) == ("npx", ("-y", "@modelcontextprotocol/server-github"))
    assert server.env_from == {"GITHUB_TOKEN": "MY_GITHUB_PAT"}
    text = window.config_path.read_text()
    assert '[skills.mcp.github]\ncommand = "npx"' in text and 'env_from = {GITHUB_TOKEN = "MY_GITHUB_PAT"}' in text
    assert "[skills]\n" not in text and "[skills.mcp]\n" not in text

    window.reload()
    window.show_skill("github")
    combos = form.tool_combos
    assert set(combos) == {"get_issue", "create_issue"}
    combos["get_issue"].setCurrentIndex(combos["get_issue"].findData("write"))
    combos["create_issue"].setCurrentIndex(combos["create_issue"].findData("disabled"))
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    settle(window)
    server = config.load(window.config_path).settings.skills.mcp["github"]
    assert server.write_tools == ("get_issue",) and server.disabled_tools == ("create_issue",)


def test_a_bad_value_gets_the_loaders_sentence_under_its_input_and_nothing_is_written(
        settings_window: SettingsWindow, qtbot: Any, settle: Any) -> None:
    window = settings_window
    before = window.config_path.read_text()
    window.show_skill("")
    form = window.skills_editor.server_form
    type_into(qtbot, form.command_edit, "mcp-server-time")
    form.env_from_edit.setPlainText("GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ0123")
    assert "looks like the secret itself" in form.env_from_hint.text()
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    settle(window)
    assert window.config_path.read_text() == before
    error = form.errors["env_from"]
    assert error.isVisibleTo(window) and "not the key itself" in error.text()
    assert "ghp_0123456789abcdefghij" not in error.text()

    form.env_from_edit.setPlainText("")
    form.address_radio.setChecked(True)
    type_into(qtbot, form.url_edit, "ftp://example.org/mcp")
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    settle(window)
    assert window.config_path.read_text() == before
    assert "expected an http:// or https:// URL" in form.errors["url"].text()

