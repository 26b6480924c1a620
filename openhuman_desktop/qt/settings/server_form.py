"""Settings > Skills: one MCP server's form (a program and its arguments, or an address; its environment) and
the conversions between a server's settings and its ``[skills.mcp.NAME]`` table."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import tomlkit
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QRadioButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop import config_skills
from openhuman_desktop.config import Settings
from openhuman_desktop.config_skills import McpServerSettings
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.muted_label import MutedLabel
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.theme import em
from openhuman_desktop.qt.intelligence.toggle_switch import ToggleSwitch
from openhuman_desktop.qt.settings.fields import Form, guard_wheel


def table_of(server: McpServerSettings) -> dict[str, Any]:
    """A server's table as config.toml would hold it, without the keys at their defaults."""
    default = McpServerSettings(server.name)
    table: dict[str, Any] = {}
    for key in config_skills.MCP_KEYS:
        value = getattr(server, key)
        if value == getattr(default, key):
            continue
        table[key] = list(value) if isinstance(value, tuple) else dict(value) if isinstance(value, Mapping) else value
    return table


def tables_of(settings: Settings) -> dict[str, dict[str, Any]]:
    """Every configured MCP server's table, by name."""
    return {name: table_of(server) for name, server in settings.skills.mcp.items()}


def pairs_text(mapping: Mapping[str, str]) -> str:
    """A table as ``NAME=value`` lines, for editing."""
    return "\n".join(f"{key}={value}" for key, value in mapping.items())


def parse_pairs(text: str) -> dict[str, str]:
    """``NAME=value`` lines as a table (a line without ``=`` keeps an empty value for the loader to judge)."""
    pairs: dict[str, str] = {}
    for line in text.splitlines():
        if line.strip():
            key, _, value = line.partition("=")
            pairs[key.strip()] = value.strip()
    return pairs


def inline_value(value: Any) -> Any:
    """A table value as config.toml writes it: ``env = { LANG = "C.UTF-8" }`` on the server's own line."""
    if not isinstance(value, dict):
        return value
    table = tomlkit.inline_table()
    table.update(value)
    return table


def words_of(text: str) -> list[str]:
    """The words of a list written with commas or spaces."""
    return [part for part in re.split(r"[,\s]+", text.strip()) if part]


class ServerForm(QWidget):
    """The inputs of one server's table."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        unit = em(self)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        self.form = Form(self)
        column.addWidget(self.form)
        self.errors: dict[str, ErrorLabel] = {}

        def row(label: str, widget: QWidget, key: str, hint: str = "") -> MutedLabel:
            holder = _Holder(widget, key)
            self.errors[key] = holder.error
            return self.form.add(label, holder, hint)

        self.name_edit = QLineEdit(self)
        self.name_edit.setAccessibleName("Server name")
        self.name_edit.setPlaceholderText("e.g. github")
        row("Name", self.name_edit, "name", "Letters, digits, '-' and '_'; its tools are called NAME__TOOL.")
        self.enabled_switch = ToggleSwitch(self)
        self.enabled_switch.setAccessibleName("Server enabled")
        row("Enabled", self.enabled_switch, "enabled")
        kind = QWidget(self)
        kind.setObjectName("kind")
        kinds = QHBoxLayout(kind)
        kinds.setContentsMargins(0, 0, 0, 0)
        self.program_radio = QRadioButton("A program OpenHuman starts", kind)
        self.address_radio = QRadioButton("An address (streamable HTTP)", kind)
        self.kind_group = QButtonGroup(self)
        for button in (self.program_radio, self.address_radio):
            self.kind_group.addButton(button)
            kinds.addWidget(button)
        kinds.addStretch(1)
        self.program_radio.setChecked(True)
        row("Server", kind, "kind")
        self.command_edit = QLineEdit(self)
        self.command_edit.setAccessibleName("Program")
        self.command_edit.setPlaceholderText("e.g. mcp-server-time or npx")
        self.command_hint = row("Program", self.command_edit, "command",
                                "Started in its own process group; stopped when OpenHuman quits.")
        self.args_edit = QLineEdit(self)
        self.args_edit.setAccessibleName("Arguments")
        self.args_edit.setPlaceholderText('e.g. --local-timezone Europe/Berlin (quote "words with spaces")')
        row("Arguments", self.args_edit, "args")
        self.url_edit = QLineEdit(self)
        self.url_edit.setAccessibleName("Address")
        self.url_edit.setPlaceholderText("http://127.0.0.1:9000/mcp")
        row("Address", self.url_edit, "url")
        self.env_edit = _lines_edit(self, "Environment values", "LANG=C.UTF-8")
        row("Environment", self.env_edit, "env", "Plain values, one NAME=value a line; never a secret.")
        self.env_from_edit = _lines_edit(self, "Secrets from variables", "GITHUB_TOKEN=MY_GITHUB_PAT")
        self.env_from_hint = row("Secrets", self.env_from_edit, "env_from",
                                 "One VARIABLE=NAME a line: the server gets VARIABLE set to the value of NAME from "
                                 "OpenHuman's own environment. The secret never goes into config.toml.")
        self.headers_edit = _lines_edit(self, "Headers from variables", "Authorization=MY_SERVER_AUTH")
        self.headers_hint = row("Headers", self.headers_edit, "headers_from",
                                "One Header=NAME a line: the header's value comes from the variable NAME.")
        self.timeout_box = QSpinBox(self)
        self.timeout_box.setRange(1, config_skills.MAX_MCP_TIMEOUT_SECONDS)
        self.timeout_box.setSuffix(" s")
        self.timeout_box.setAccessibleName("Time limit of a tool call")
        self.timeout_box.setMinimumWidth(unit * 8)
        guard_wheel(self.timeout_box)
        row("Time limit", self.timeout_box, "timeout_seconds", "A tool call that takes longer is cancelled.")
        self.watch_edit = QLineEdit(self)
        self.watch_edit.setAccessibleName("Resources to watch")
        self.watch_edit.setPlaceholderText("e.g. file:///home/me/todo.md")
        row("Watch", self.watch_edit, "watch", "Resource URIs the heartbeat looks at each tick; a change is news.")
        # The tools part in the same form, so its inputs line up with the ones above.
        self.form.layout_.addRow(SectionHeader("Tools", self))
        self.tools_note = MutedLabel("", self, factor=0.9)
        self.tools_note.setWordWrap(True)
        self.form.layout_.addRow(self.tools_note)
        self.tools_form = Form(self)
        self.form.layout_.addRow(self.tools_form)
        self.tool_combos: dict[str, QComboBox] = {}
        self.read_edit = QLineEdit(self)
        self.read_edit.setAccessibleName("Tools treated as read only")
        self.write_edit = QLineEdit(self)
        self.write_edit.setAccessibleName("Tools treated as writes")
        self.disabled_edit = QLineEdit(self)
        self.disabled_edit.setAccessibleName("Tools never offered")
        row("Read only", self.read_edit, "read_tools", "Tools to treat as read although the server does not say so "
                                                       "(separate them with commas).")
        row("Writes", self.write_edit, "write_tools", "Tools to treat as writes although the server says read "
                                                      "only: they then need your request or a card.")
        row("Disabled", self.disabled_edit, "disabled_tools", "Tools never offered to any model.")

    def is_address(self) -> bool:
        """Whether the server is an address (else a program)."""
        return self.address_radio.isChecked()

    def show_kind(self) -> None:
        """Show only the inputs of the chosen kind (program or address)."""
        address = self.is_address()
        for key, visible in (("command", not address), ("args", not address), ("env", not address),
                             ("env_from", not address), ("url", address), ("headers_from", address)):
            holder = self.errors[key].parentWidget()
            cell = holder.parentWidget() if holder is not None else None
            if cell is not None:
                label = self.form.layout_.labelForField(cell)
                cell.setVisible(visible)
                if label is not None:
                    label.setVisible(visible)


class _Holder(QWidget):
    """A widget with its own error line under it (the loader's sentence for its key)."""

    def __init__(self, widget: QWidget, key: str) -> None:
        super().__init__()
        self.key = key
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(widget)
        self.error = ErrorLabel(self)
        column.addWidget(self.error)
        grows = not isinstance(widget, ToggleSwitch | QSpinBox) and widget.objectName() != "kind"
        # Text inputs take the form's width (Form aligns a widget that does not grow to the left, narrow).
        self.setSizePolicy(QSizePolicy.Policy.Expanding if grows else QSizePolicy.Policy.Preferred,
                           QSizePolicy.Policy.Preferred)


def _lines_edit(parent: QWidget, name: str, placeholder: str) -> QPlainTextEdit:
    edit = QPlainTextEdit(parent)
    edit.setAccessibleName(name)
    edit.setPlaceholderText(placeholder)
    edit.setTabChangesFocus(True)
    edit.setFixedHeight(em(edit) * 4)
    return edit
