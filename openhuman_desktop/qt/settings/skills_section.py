"""Settings > Skills: the ``[skills.mcp.NAME]`` servers — add one (a program and its arguments, or an address),
its environment (secrets only by variable name) and per-tool read / write / disabled overrides."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop import config_reader, config_skills
from openhuman_desktop.config_edit import REMOVE
from openhuman_desktop.qt.intelligence.muted_label import EmptyState
from openhuman_desktop.qt.intelligence.panel_frame import PanelFrame
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.theme import em
from openhuman_desktop.qt.settings.fields import Field, guard_wheel
from openhuman_desktop.qt.settings.server_form import (
    ServerForm,
    inline_value,
    pairs_text,
    parse_pairs,
    words_of,
)

ToolLister = Callable[[str], Sequence[tuple[str, str]]]
"""The tools a running server listed, as (tool name, the server's own access: ``read`` / ``write``)."""

AS_SERVER, READ, WRITE, DISABLED = "server", "read", "write", "disabled"
CHOICES = {AS_SERVER: "As the server says", READ: "Read only", WRITE: "Writes", DISABLED: "Disabled"}
_LIST_KEYS = ("read_tools", "write_tools", "disabled_tools", "watch")


class SkillsEditor(Field):
    """Every ``[skills.mcp.NAME]`` table as one setting: its value maps names to tables. A new server becomes a
    new table, a removed one is removed, a changed one saves per key; the loader judges every value on Save.

    Args:
        tools_of: the tools a running server listed (for the per-tool overrides); None: none known.
        environ: where the variables named in ``env_from`` / ``headers_from`` are looked up for the hints.
    """

    def __init__(self, tools_of: ToolLister | None = None, environ: Mapping[str, str] | None = None) -> None:
        panel = PanelFrame(role=QPalette.ColorRole.Window)
        super().__init__("skills.mcp", panel, self._current, self._show)
        panel.setAccessibleName("MCP servers")
        self.panel = panel
        self._tools_of = tools_of
        self._environ = environ
        self._tables: dict[str, dict[str, Any]] = {}
        self._selected: str | None = None
        self._showing = False
        unit = em(panel)
        outer = QVBoxLayout(panel)
        outer.setContentsMargins(unit, unit * 3 // 4, unit, unit)
        outer.addWidget(SectionHeader("MCP servers", panel))
        top = QHBoxLayout()
        self.servers_list = QListWidget(panel)
        self.servers_list.setAccessibleName("MCP servers")
        self.servers_list.setFixedHeight(unit * 5)
        top.addWidget(self.servers_list, 1)
        buttons = QVBoxLayout()
        self.add_button = QPushButton("Add a server", panel)
        self.add_button.setAccessibleName("Add an MCP server")
        self.remove_button = QPushButton("Remove", panel)
        self.remove_button.setAccessibleName("Remove this MCP server")
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        top.addLayout(buttons)
        outer.addLayout(top)
        self.none_label = EmptyState("No MCP servers yet: Add a server to give the assistant your own tools.", panel)
        self.none_label.setAlignment(Qt.AlignmentFlag.AlignLeft)
        outer.addWidget(self.none_label)
        self.server_form = ServerForm(panel)
        outer.addWidget(self.server_form)
        self.servers_list.currentRowChanged.connect(self._on_servers_list_current_row_changed)
        self.add_button.clicked.connect(self._on_add_button_clicked)
        self.remove_button.clicked.connect(self._on_remove_button_clicked)
        form = self.server_form
        for edit in (form.name_edit, form.command_edit, form.args_edit, form.url_edit, form.watch_edit,
                     form.read_edit, form.write_edit, form.disabled_edit):
            edit.textEdited.connect(self._on_form_edited)
        for text in (form.env_edit, form.env_from_edit, form.headers_edit):
            text.textChanged.connect(self._on_form_edited)
        form.enabled_switch.toggled.connect(self._on_form_edited)
        form.timeout_box.valueChanged.connect(self._on_form_edited)
        form.kind_group.buttonToggled.connect(self._on_kind_toggled)

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.key,)

    # --- value ------------------------------------------------------------------------------------

    def _current(self) -> dict[str, dict[str, Any]]:
        self._store()
        return {name: dict(table) for name, table in self._tables.items()}

    def _show(self, value: Any) -> None:
        self._tables = {str(name): dict(table) for name, table in (value or {}).items()}
        self._selected = None
        self._fill_list(next(iter(self._tables), None))

    def load(self, value: Any) -> None:
        super().load(value)
        self.clear_errors()

    def changes(self) -> dict[str, Any]:
        old: dict[str, dict[str, Any]] = self.initial or {}
        new = self.value()
        if old == new:
            return {}
        changed: dict[str, Any] = {}
        for name in old:
            if name not in new:
                changed[f"{self.key}.{name}"] = REMOVE
        for name, table in new.items():
            if name not in old:
                changed[f"{self.key}.{name}"] = {key: inline_value(value) for key, value in table.items()}
                continue
            for key in config_skills.MCP_KEYS:
                if table.get(key) != old[name].get(key):
                    changed[f"{self.key}.{name}.{key}"] = inline_value(table[key]) if key in table else REMOVE
        return changed

    def revert(self) -> None:
        super().revert()
        self.clear_errors()

    # --- the list of servers ------------------------------------------------------------------------

    def select(self, name: str) -> bool:
        """Show server ``name``; False when there is none."""
        names = list(self._tables)
        if name not in names:
            return False
        self.servers_list.setCurrentRow(names.index(name))
        return True

    def add_server(self) -> str:
        """A new server table (a program to start) named ``server``, ``server-2`` …; shown for editing."""
        self._store()
        number, name = 1, "server"
        while name in self._tables:
            number += 1
            name = f"server-{number}"
        self._tables[name] = {"command": ""}
        self._fill_list(name)
        self.server_form.name_edit.setFocus()
        self.server_form.name_edit.selectAll()
        self.edited.emit()
        return name

    def remove_selected(self) -> None:
        if self._selected is None:
            return
        self._tables.pop(self._selected, None)
        self._selected = None
        self._fill_list(next(iter(self._tables), None))
        self.edited.emit()

    def _fill_list(self, select: str | None) -> None:
        blocker = QSignalBlocker(self.servers_list)
        self.servers_list.clear()
        for name, table in self._tables.items():
            self.servers_list.addItem(name if table.get("enabled", True) else f"{name} (off)")
        del blocker
        empty = not self._tables
        self.none_label.setVisible(empty)
        self.server_form.setVisible(not empty)
        self.remove_button.setEnabled(not empty)
        if select is not None:
            self.servers_list.setCurrentRow(list(self._tables).index(select))
            self._load_form(select)

    def _load_form(self, name: str) -> None:
        self._selected = name
        table = self._tables[name]
        form = self.server_form
        self._showing = True
        try:
            form.name_edit.setText(name)
            form.enabled_switch.setChecked(bool(table.get("enabled", True)))
            is_address = "url" in table and "command" not in table
            (form.address_radio if is_address else form.program_radio).setChecked(True)
            form.command_edit.setText(str(table.get("command", "")))
            form.args_edit.setText(shlex.join(str(arg) for arg in table.get("args", [])))
            form.url_edit.setText(str(table.get("url", "")))
            form.env_edit.setPlainText(pairs_text(table.get("env", {})))
            form.env_from_edit.setPlainText(pairs_text(table.get("env_from", {})))
            form.headers_edit.setPlainText(pairs_text(table.get("headers_from", {})))
            form.timeout_box.setValue(int(table.get("timeout_seconds", 60)))
            form.watch_edit.setText(", ".join(table.get("watch", [])))
            form.read_edit.setText(", ".join(table.get("read_tools", [])))
            form.write_edit.setText(", ".join(table.get("write_tools", [])))
            form.disabled_edit.setText(", ".join(table.get("disabled_tools", [])))
            form.show_kind()
            self._show_tools(name)
            self._update_hints()
        finally:
            self._showing = False

    def _store(self) -> None:
        """The form's inputs into the selected server's table (a new name renames it)."""
        name = self._selected
        if name is None or self._showing or name not in self._tables:
            return
        form = self.server_form
        table: dict[str, Any] = {}
        if not form.enabled_switch.isChecked():
            table["enabled"] = False
        if form.is_address():
            table["url"] = form.url_edit.text().strip()
            headers = parse_pairs(form.headers_edit.toPlainText())
            if headers:
                table["headers_from"] = headers
        else:
            table["command"] = form.command_edit.text().strip()
            try:
                args = shlex.split(form.args_edit.text())
            except ValueError:   # an unclosed quote: the words as typed
                args = form.args_edit.text().split()
            if args:
                table["args"] = args
            for key, edit in (("env", form.env_edit), ("env_from", form.env_from_edit)):
                pairs = parse_pairs(edit.toPlainText())
                if pairs:
                    table[key] = pairs
        for key, line in (("read_tools", form.read_edit), ("write_tools", form.write_edit),
                          ("disabled_tools", form.disabled_edit), ("watch", form.watch_edit)):
            words = words_of(line.text())
            if words:
                table[key] = words
        if form.timeout_box.value() != 60:
            table["timeout_seconds"] = form.timeout_box.value()
        new_name = form.name_edit.text().strip() or name
        tables = {}
        for old, value in self._tables.items():
            if old == name:
                tables[new_name] = table
            elif old != new_name:
                tables[old] = value
        self._tables = tables
        self._selected = new_name
        item = self.servers_list.item(list(self._tables).index(new_name))
        if item is not None:
            item.setText(new_name if table.get("enabled", True) else f"{new_name} (off)")

    # --- per-tool overrides -----------------------------------------------------------------------------

    def _show_tools(self, name: str) -> None:
        form = self.server_form
        while form.tools_form.layout_.rowCount():
            form.tools_form.layout_.removeRow(0)
        form.tool_combos = {}
        listed = list(self._tools_of(name)) if self._tools_of is not None else []
        if not listed:
            form.tools_note.setText("Its tools show here once the server has connected. Until then, name tools in "
                                    "the lists below.")
            return
        form.tools_note.setText("How each tool is treated. A description never changes this: a tool is read only "
                                "when the server marks it so, or you do here.")
        table = self._tables.get(name, {})
        for tool, access in listed:
            combo = QComboBox(form)
            for value, text in CHOICES.items():
                label = f"{text} ({'read only' if access == READ else 'writes'})" if value == AS_SERVER else text
                combo.addItem(label, value)
            combo.setAccessibleName(f"How {tool} is treated")
            guard_wheel(combo)
            chosen = (DISABLED if tool in table.get("disabled_tools", []) else
                      WRITE if tool in table.get("write_tools", []) else
                      READ if tool in table.get("read_tools", []) else AS_SERVER)
            combo.setCurrentIndex(combo.findData(chosen))
            combo.currentIndexChanged.connect(lambda _index, t=tool: self._on_tool_choice_changed(t))
            tool_label = QLabel(tool, form)
            tool_label.setTextFormat(Qt.TextFormat.PlainText)
            form.tools_form.layout_.addRow(tool_label, combo)
            form.tool_combos[tool] = combo

    def _on_tool_choice_changed(self, tool: str) -> None:
        form = self.server_form
        choice = form.tool_combos[tool].currentData()
        lists = {READ: form.read_edit, WRITE: form.write_edit, DISABLED: form.disabled_edit}
        for value, edit in lists.items():
            words = [word for word in words_of(edit.text()) if word != tool]
            if value == choice:
                words.append(tool)
            edit.setText(", ".join(words))
        self._on_form_edited()

    # --- hints and errors -------------------------------------------------------------------------------

    def _update_hints(self) -> None:
        form = self.server_form
        environ = self._environ
        if environ is None:
            import os

            environ = os.environ
        names = list(parse_pairs(form.env_from_edit.toPlainText()).values())
        names += list(parse_pairs(form.headers_edit.toPlainText()).values())
        secret = next((name for name in names if config_reader.looks_like_secret(name)), None)
        missing = [name for name in names
                   if name and not config_reader.looks_like_secret(name) and not environ.get(name)]
        hint = form.headers_hint if form.is_address() else form.env_from_hint
        if secret is not None:
            hint.setText("That looks like the secret itself: keep it in an environment variable and give the "
                         "variable's NAME here.")
        elif missing:
            hint.setText(f"Not set where OpenHuman was started: {', '.join(missing)}. Set it, then start OpenHuman "
                         "again (or Restart the server).")
        else:
            hint.setText("One VARIABLE=NAME a line: the server gets VARIABLE set to the value of NAME from "
                         "OpenHuman's own environment. The secret never goes into config.toml."
                         if not form.is_address() else
                         "One Header=NAME a line: the header's value comes from the variable NAME.")

    def show_error(self, key: str, text: str) -> QWidget:
        """Show the loader's sentence under the input ``key`` names (``skills.mcp.NAME.KEY…``); returns it."""
        parts = key.split(".")
        name = parts[2] if len(parts) > 2 else None
        if name is not None:
            self.select(name)
        field = parts[3] if len(parts) > 3 else "command" if name is not None else "name"
        if len(parts) == 3:
            field = "name" if "server name" in text else "command"
        form = self.server_form
        label = form.errors.get(field, form.errors["command"])
        label.show_text(text)
        widgets: dict[str, QWidget] = {
            "name": form.name_edit, "command": form.command_edit, "args": form.args_edit, "url": form.url_edit,
            "env": form.env_edit, "env_from": form.env_from_edit, "headers_from": form.headers_edit,
            "timeout_seconds": form.timeout_box, "watch": form.watch_edit, "read_tools": form.read_edit,
            "write_tools": form.write_edit, "disabled_tools": form.disabled_edit}
        return widgets.get(field, form.command_edit)

    def clear_errors(self) -> None:
        for label in self.server_form.errors.values():
            label.clear_text()
        self.error.clear_text()

    # --- slots --------------------------------------------------------------------------------------

    def _on_form_edited(self) -> None:
        if self._showing:
            return
        self._store()
        self._update_hints()
        self.edited.emit()

    def _on_kind_toggled(self, _button: object, checked: bool) -> None:
        if not checked:
            return
        self.server_form.show_kind()
        self._on_form_edited()

    def _on_servers_list_current_row_changed(self, row: int) -> None:
        if row < 0:
            return
        self._store()
        names = list(self._tables)
        if row < len(names) and names[row] != self._selected:
            self._load_form(names[row])

    def _on_add_button_clicked(self) -> None:
        self.add_server()

    def _on_remove_button_clicked(self) -> None:
        self.remove_selected()
