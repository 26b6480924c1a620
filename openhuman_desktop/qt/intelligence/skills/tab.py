"""The Skills tab: every skill (built in and MCP servers) with its state and reason, what it can do (which tools
write), an MCP server's last stderr lines, and Restart, Disable and Edit for the servers."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.badge import Badge
from openhuman_desktop.qt.intelligence.muted_label import EmptyState, MutedLabel
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.status_dot import StatusDot
from openhuman_desktop.qt.intelligence.theme import accent, app_palette, em, scaled_font
from openhuman_desktop.qt.settings.world_section import SKILLS as WORLD_SKILLS
from openhuman_desktop.skills.base import Skill, SkillHealth, SkillRegistry
from openhuman_desktop.skills.listing import SkillInfo, ToolInfo, describe

log = logging.getLogger(__name__)

HEALTH_ACCENT = {"connected": "green", "starting": "blue", "disconnected": "amber", "error": "coral",
                 "disabled": "grey"}
HEALTH_WORDS = {"connected": "Connected", "starting": "Starting", "disconnected": "Disconnected", "error": "Error",
                "disabled": "Disabled"}
NameRole = Qt.ItemDataRole.UserRole + 1
STDERR_SHOWN = 12


@dataclass
class SkillActions:
    """What the tab can do to an MCP server (wired by the window from the app's services).

    Attributes:
        restart: restart the server now.
        set_enabled: write ``enabled`` to its table in config.toml and apply it.
        edit: open the Settings window on the server's table.
    """

    restart: Callable[[str], Awaitable[object]]
    set_enabled: Callable[[str, bool], Awaitable[object]]
    edit: Callable[[str], None]


def _dot_icon(color: QColor, side: int) -> QIcon:
    pixmap = QPixmap(side * 2, side * 2)
    pixmap.setDevicePixelRatio(2.0)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    painter.drawEllipse(1, 1, side - 2, side - 2)
    painter.end()
    return QIcon(pixmap)


def health_text(info: SkillInfo | SkillHealth | None) -> str:
    if info is None:
        return "Checking…"
    state, reason = (info.state, info.state_reason) if isinstance(info, SkillInfo) else (info.status, info.message)
    words = HEALTH_WORDS.get(state, state.title())
    return f"{words} — {reason}" if reason else words


class ToolRowView(QFrame):
    """One tool of a skill: its name, a "writes" / "read only" (or "disabled") badge and what it does."""

    def __init__(self, name: str, writes: bool, description: str, parent: QWidget | None = None, *,
                 disabled: bool = False) -> None:
        super().__init__(parent)
        pad = max(3, em(self) // 4)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, pad, 0, pad)
        layout.setSpacing(max(1, pad // 2))
        top = QHBoxLayout()
        top.setSpacing(pad * 2)
        self.name_label = QLabel(name, self)
        font = scaled_font(self, 1.0, bold=True)
        font.setFamilies(["monospace"])
        font.setStyleHint(font.StyleHint.Monospace)
        font.setStrikeOut(disabled)
        self.name_label.setFont(font)
        self.name_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.name_label.setAccessibleName(f"Tool {name}")
        top.addWidget(self.name_label)
        self.badge = Badge("writes" if writes else "read only", "amber" if writes else "grey", self)
        self.badge.setAccessibleName(f"{name} {'writes' if writes else 'only reads'}")
        self.badge.setToolTip(
            "Changes things; never offered to analysis-only runs" if writes else "Only looks; never changes anything"
        )
        top.addWidget(self.badge)
        self.disabled_badge: Badge | None = None
        if disabled:
            self.disabled_badge = Badge("disabled", "coral", self)
            self.disabled_badge.setToolTip("In disabled_tools: never offered to any model")
            self.disabled_badge.setAccessibleName(f"{name} is disabled")
            top.addWidget(self.disabled_badge)
        top.addStretch(1)
        layout.addLayout(top)
        self.description_label = MutedLabel(description, self)
        self.description_label.setWordWrap(True)
        self.description_label.setTextFormat(Qt.TextFormat.PlainText)   # a server's words are never markup
        self.description_label.setAccessibleName(f"What {name} does")
        layout.addWidget(self.description_label)


class SkillDetailView(QWidget):
    """The right-hand page of the Skills tab for one skill."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        pad = max(6, em(self) // 2)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(pad * 3, pad * 2, pad * 3, pad * 2)
        self._layout.setSpacing(pad)
        self.title_label = QLabel("", self)
        self.title_label.setFont(scaled_font(self, 1.35, bold=True))
        self.title_label.setAccessibleName("Skill")
        self._layout.addWidget(self.title_label)
        health = QHBoxLayout()
        health.setSpacing(pad)
        self.health_dot = StatusDot("grey", self)
        self.health_dot.setAccessibleName("Skill health")
        health.addWidget(self.health_dot, 0, Qt.AlignmentFlag.AlignTop)
        self.health_label = QLabel("Checking…", self)
        self.health_label.setWordWrap(True)
        self.health_label.setTextFormat(Qt.TextFormat.PlainText)
        self.health_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.health_label.setAccessibleName("Skill health")
        health.addWidget(self.health_label, 1)
        self._layout.addLayout(health)
        buttons = QHBoxLayout()
        buttons.setSpacing(pad)
        self.restart_button = QPushButton("Restart", self)
        self.restart_button.setAccessibleName("Restart this skill's server")
        self.restart_button.setToolTip("Stop the server and start it again now")
        self.disable_button = QPushButton("Disable", self)
        self.disable_button.setAccessibleName("Disable this skill")
        self.disable_button.setToolTip("Stop the server and keep it off (enabled = false in config.toml)")
        self.edit_button = QPushButton("Edit…", self)
        self.edit_button.setAccessibleName("Edit this skill in Settings")
        self.edit_button.setToolTip("Open Settings on this server: its command, variables and tools")
        for button in (self.restart_button, self.disable_button, self.edit_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        self.actions_row = QWidget(self)
        self.actions_row.setLayout(buttons)
        buttons.setContentsMargins(0, 0, 0, 0)
        self._layout.addWidget(self.actions_row)
        self.action_error = ErrorLabel(self)
        self._layout.addWidget(self.action_error)
        self.description_label = QLabel("", self)
        self.description_label.setWordWrap(True)
        self.description_label.setTextFormat(Qt.TextFormat.PlainText)
        self.description_label.setAccessibleName("Skill description")
        self._layout.addWidget(self.description_label)
        self.stderr_header = SectionHeader("What the server said last (stderr)", self)
        self._layout.addWidget(self.stderr_header)
        self.stderr_view = QPlainTextEdit(self)
        self.stderr_view.setReadOnly(True)
        self.stderr_view.setAccessibleName("The server's last stderr lines")
        mono = scaled_font(self, 0.9)
        mono.setFamilies(["monospace"])
        mono.setStyleHint(mono.StyleHint.Monospace)
        self.stderr_view.setFont(mono)
        self.stderr_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self._layout.addWidget(self.stderr_view)
        self._layout.addSpacing(pad)
        self._layout.addWidget(SectionHeader("What it can do", self))
        self.tools_box = QVBoxLayout()
        self.tools_box.setSpacing(0)
        self._layout.addLayout(self.tools_box)
        self.no_tools_label = EmptyState("This skill offers no tools.", self)
        self.no_tools_label.setAlignment(Qt.AlignmentFlag.AlignLeft)
        self.no_tools_label.setContentsMargins(0, 0, 0, 0)
        self._layout.addWidget(self.no_tools_label)
        self._layout.addSpacing(pad)
        self._layout.addWidget(SectionHeader("Settings", self))
        self.settings_form = QFormLayout()
        self.settings_form.setLabelAlignment(Qt.AlignmentFlag.AlignLeft)
        self._layout.addLayout(self.settings_form)
        self.no_settings_label = EmptyState("Nothing to set up: this skill is built in.", self)
        self.no_settings_label.setAlignment(Qt.AlignmentFlag.AlignLeft)
        self.no_settings_label.setContentsMargins(0, 0, 0, 0)
        self._layout.addWidget(self.no_settings_label)
        self._layout.addStretch(1)
        self.tool_rows: list[ToolRowView] = []
        self.setting_fields: list[QLineEdit] = []
        self.info: SkillInfo | None = None

    def show_info(self, info: SkillInfo) -> None:
        """Show one skill as :func:`~openhuman_desktop.skills.listing.describe` gave it."""
        self.info = info
        self.title_label.setText(info.title)
        self.description_label.setText(info.description)
        self._show_state(info)
        is_mcp = info.kind == "mcp"
        # MCP servers and the built-in skills with a table of their own ([skills.email] …) can be acted on.
        self.actions_row.setVisible(is_mcp or info.name in WORLD_SKILLS)
        what = "server" if is_mcp else "connection"
        self.restart_button.setToolTip(f"Drop this skill's {what} and start it again now")
        self.edit_button.setToolTip("Open Settings on this server: its command, variables and tools" if is_mcp
                                    else "Open Settings on this skill's form, with its Test button")
        self.restart_button.setEnabled(info.enabled)
        self.disable_button.setText("Disable" if info.enabled else "Enable")
        self.disable_button.setAccessibleName("Disable this skill" if info.enabled else "Enable this skill")
        self.action_error.clear_text()
        stderr = "\n".join(info.stderr[-STDERR_SHOWN:])
        self.stderr_header.setVisible(is_mcp and bool(stderr))
        self.stderr_view.setVisible(is_mcp and bool(stderr))
        if self.stderr_view.toPlainText() != stderr:
            self.stderr_view.setPlainText(stderr)
            lines = max(2, min(STDERR_SHOWN, len(info.stderr[-STDERR_SHOWN:]) + 1))
            margins = self.stderr_view.contentsMargins()
            self.stderr_view.setFixedHeight(self.stderr_view.fontMetrics().lineSpacing() * lines + margins.top()
                                            + margins.bottom() + 2 * int(self.stderr_view.document().documentMargin()))
            self.stderr_view.verticalScrollBar().setValue(self.stderr_view.verticalScrollBar().maximum())
        self._show_tools(info.tools)
        while self.settings_form.rowCount():
            self.settings_form.removeRow(0)
        self.setting_fields = []
        for setting in info.settings:
            field = QLineEdit(setting.value, self)
            field.setReadOnly(True)
            field.setAccessibleName(f"Setting {setting.name}")
            field.setCursorPosition(0)
            self.settings_form.addRow(f"{setting.name}:", field)
            self.setting_fields.append(field)
        self.no_settings_label.setVisible(not self.setting_fields)

    def show_skill(self, skill: Skill, health: SkillHealth | None) -> None:
        """A skill and its health checked elsewhere (kept for callers that have no :class:`SkillInfo`)."""
        tools = tuple(ToolInfo(t.name, t.name, "write" if t.writes else "read", t.spec.description)
                      for t in skill.tools())
        state, reason = (health.status, health.message) if health else ("", "")
        self.show_info(SkillInfo(skill.name, "builtin", skill.title, True, state, reason, tools,
                                 settings=tuple(skill.settings()), description=skill.description))
        if health is None:
            self.show_health(None)

    def _show_tools(self, tools: Sequence[ToolInfo]) -> None:
        for row in self.tool_rows:
            self.tools_box.removeWidget(row)
            row.deleteLater()
        self.tool_rows = []
        for tool in tools:
            row = ToolRowView(tool.name, tool.access == "write", tool.description, self, disabled=tool.disabled)
            self.tools_box.addWidget(row)
            self.tool_rows.append(row)
        self.no_tools_label.setText("No tools: the server is not connected." if self.info and self.info.kind == "mcp"
                                    else "This skill offers no tools.")
        self.no_tools_label.setVisible(not self.tool_rows)

    def _show_state(self, info: SkillInfo) -> None:
        if not info.state:
            self.show_health(None)
            return
        self.health_dot.set_accent(HEALTH_ACCENT.get(info.state, "grey"))
        self.health_label.setText(health_text(info))

    def show_health(self, health: SkillHealth | None) -> None:
        if health is None:
            self.health_dot.set_accent("grey")
            self.health_label.setText("Checking…")
            return
        self.health_dot.set_accent(HEALTH_ACCENT.get(health.status, "grey"))
        self.health_label.setText(health_text(health))


class SkillsView(QWidget):
    """The Skills tab: a list of skills (state dot) and the selected skill's page.

    Args:
        registry: every skill of the app.
        jobs: owns the background work (health checks, restarts).
        actions: Restart, Disable and Edit for MCP servers (None: the buttons are hidden).
    """

    def __init__(self, registry: SkillRegistry, jobs: Jobs, parent: QWidget | None = None, *,
                 actions: SkillActions | None = None) -> None:
        super().__init__(parent)
        self._registry = registry
        self._jobs = jobs
        self._actions = actions
        self._infos: dict[str, SkillInfo] = {}
        pad = max(6, em(self) // 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(pad * 2, pad * 2, pad * 2, pad * 2)
        layout.setSpacing(pad)
        top = QHBoxLayout()
        top.addWidget(SectionHeader("Skills", self))
        self.summary_label = MutedLabel("", self)
        self.summary_label.setAccessibleName("Skills summary")
        top.addWidget(self.summary_label)
        top.addStretch(1)
        self.add_button = QPushButton("Add a server…", self)
        self.add_button.setAccessibleName("Add an MCP server")
        self.add_button.setToolTip("Open Settings to add an MCP server (a program to start, or an address)")
        self.add_button.clicked.connect(self._on_add_button_clicked)
        self.add_button.setVisible(actions is not None)
        top.addWidget(self.add_button)
        self.check_button = QPushButton("Check again", self)
        self.check_button.setAccessibleName("Check skill health again")
        self.check_button.clicked.connect(self._on_check_button_clicked)
        top.addWidget(self.check_button)
        layout.addLayout(top)
        self.error_label = ErrorLabel(self)
        layout.addWidget(self.error_label)
        self.empty_label = EmptyState("No skills are installed.", self)
        self.empty_label.setAccessibleName("No skills")
        self.empty_label.hide()
        layout.addWidget(self.empty_label)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setChildrenCollapsible(False)
        self.skills_list = QListWidget(self.splitter)
        self.skills_list.setObjectName("skillsList")
        self.skills_list.setAccessibleName("Skills")
        self.skills_list.setSpacing(max(2, pad // 3))
        self.skills_list.setStyleSheet(f"QListWidget#skillsList::item {{ padding: {pad // 2}px {pad}px; }}")
        self.skills_list.setIconSize(QSize(em(self) // 2 + 2, em(self) // 2 + 2))
        self.skills_list.setMinimumWidth(em(self) * 12)
        self.skills_list.currentItemChanged.connect(self._on_skills_list_current_item_changed)
        scroll = QScrollArea(self.splitter)
        scroll.setAccessibleName("Skill details")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.detail = SkillDetailView()
        scroll.setWidget(self.detail)
        self.detail.restart_button.clicked.connect(self._on_restart_button_clicked)
        self.detail.disable_button.clicked.connect(self._on_disable_button_clicked)
        self.detail.edit_button.clicked.connect(self._on_edit_button_clicked)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([em(self) * 14, em(self) * 40])
        layout.addWidget(self.splitter, 1)
        self._populate()

    # --- content --------------------------------------------------------------------------------

    def skills(self) -> Sequence[Skill]:
        return list(self._registry.skills)

    def _populate(self) -> None:
        current = self.current_skill_name()
        self.skills_list.clear()
        for skill in self.skills():
            item = QListWidgetItem(skill.title)
            item.setData(NameRole, skill.name)
            item.setToolTip(skill.description)
            self.skills_list.addItem(item)
            self._decorate(item)
        empty = not self.skills()
        self.empty_label.setVisible(empty)
        self.splitter.setVisible(not empty)
        if not empty and (current is None or not self.select_skill(current, focus=False)):
            self.skills_list.setCurrentRow(0)
        self._summarise()

    def _decorate(self, item: QListWidgetItem) -> None:
        info = self._infos.get(str(item.data(NameRole)))
        name = HEALTH_ACCENT.get(info.state, "grey") if info else "grey"
        item.setIcon(_dot_icon(accent(name, app_palette()), em(self) // 2 + 2))
        words = HEALTH_WORDS.get(info.state, info.state) if info else "checking"
        item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{item.text()}: {words.lower()}")

    def _summarise(self) -> None:
        total = len(self.skills())
        if not self._infos:
            self.summary_label.setText(f"{total} installed")
            return
        problems = sum(1 for info in self._infos.values() if info.enabled and info.state not in ("connected",
                                                                                                  "starting"))
        self.summary_label.setText(
            f"{total} installed · all connected" if not problems else f"{total} installed · {problems} need attention"
        )

    def retheme(self) -> None:
        """Health dots are pixmaps in the theme's accent variant: redraw them for the new theme."""
        for row in range(self.skills_list.count()):
            self._decorate(self.skills_list.item(row))

    def current_skill_name(self) -> str | None:
        item = self.skills_list.currentItem()
        return str(item.data(NameRole)) if item is not None else None

    def select_skill(self, name: str, *, focus: bool = True) -> bool:
        """Show the page of skill ``name``; False when there is no such skill."""
        for row in range(self.skills_list.count()):
            item = self.skills_list.item(row)
            if item.data(NameRole) == name:
                self.skills_list.setCurrentRow(row)
                if focus:
                    self.skills_list.setFocus()
                return True
        return False

    async def refresh(self) -> None:
        """Look at every skill again (state, reason, tools, stderr) and show it."""
        self.check_button.setEnabled(False)
        try:
            infos = {skill.name: await describe(skill) for skill in self.skills()}
        except Exception as exc:  # describe() never raises for one skill; this is the registry failing
            log.exception("skill health check failed")
            self.error_label.show_text(f"Could not check the skills: {exc}")
            return
        finally:
            self.check_button.setEnabled(True)
        self._infos = infos
        self.error_label.clear_text()
        names = [self.skills_list.item(r).data(NameRole) for r in range(self.skills_list.count())]
        titles = [self.skills_list.item(r).text() for r in range(self.skills_list.count())]
        if names != [skill.name for skill in self.skills()] or titles != [skill.title for skill in self.skills()]:
            self._populate()
        for row in range(self.skills_list.count()):
            self._decorate(self.skills_list.item(row))
        self._summarise()
        current = self.current_skill_name()
        if current is not None and current in infos:
            self.detail.show_info(infos[current])

    def _on_skills_list_current_item_changed(self, current: QListWidgetItem | None, _previous: object) -> None:
        if current is None:
            return
        name = str(current.data(NameRole))
        info = self._infos.get(name)
        if info is not None:
            self.detail.show_info(info)
            return
        skill = self._registry.get(name)
        if skill is not None:
            self.detail.show_skill(skill, None)

    def _on_check_button_clicked(self) -> None:
        self._jobs.spawn(self.refresh(), name="skills-health")

    # --- Restart, Disable, Edit -------------------------------------------------------------------

    async def restart(self, name: str) -> None:
        if self._actions is None:
            return
        self.detail.restart_button.setEnabled(False)
        try:
            await self._actions.restart(name)
        except Exception as exc:
            log.warning("restarting skill %s failed: %s", name, exc)
            self.detail.action_error.show_text(f"Could not restart {name}: {exc}")
        await self.refresh()

    async def set_enabled(self, name: str, enabled: bool) -> None:
        if self._actions is None:
            return
        self.detail.disable_button.setEnabled(False)
        try:
            await self._actions.set_enabled(name, enabled)
        except Exception as exc:
            log.warning("%s skill %s failed: %s", "enabling" if enabled else "disabling", name, exc)
            self.detail.action_error.show_text(f"Could not {'enable' if enabled else 'disable'} {name}: {exc}")
        finally:
            self.detail.disable_button.setEnabled(True)
        await self.refresh()

    def _on_restart_button_clicked(self) -> None:
        name = self.current_skill_name()
        if name is not None:
            self._jobs.spawn(self.restart(name), name="skill-restart")

    def _on_disable_button_clicked(self) -> None:
        info = self.detail.info
        if info is not None:
            self._jobs.spawn(self.set_enabled(info.name, not info.enabled), name="skill-enable")

    def _on_edit_button_clicked(self) -> None:
        name = self.current_skill_name()
        if self._actions is not None and name is not None:
            self._actions.edit(name)

    def _on_add_button_clicked(self) -> None:
        if self._actions is not None:
            self._actions.edit("")
