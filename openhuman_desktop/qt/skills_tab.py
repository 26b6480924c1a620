"""The Skills tab: every skill with its health, what it can do (which tools write) and its settings."""

from __future__ import annotations

import logging
from collections.abc import Sequence

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
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.widgets import (
    Badge,
    EmptyState,
    ErrorLabel,
    MutedLabel,
    SectionHeader,
    StatusDot,
    accent,
    app_palette,
    em,
    scaled_font,
)
from openhuman_desktop.skills.base import Skill, SkillHealth, SkillRegistry

log = logging.getLogger(__name__)

HEALTH_ACCENT = {"connected": "green", "disconnected": "amber", "error": "coral"}
HEALTH_WORDS = {"connected": "Connected", "disconnected": "Disconnected", "error": "Error"}
NameRole = Qt.ItemDataRole.UserRole + 1


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


class ToolRowView(QFrame):
    """One tool of a skill: its name, a "writes" / "read only" badge and what it does."""

    def __init__(self, name: str, writes: bool, description: str, parent: QWidget | None = None) -> None:
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
        top.addStretch(1)
        layout.addLayout(top)
        self.description_label = MutedLabel(description, self)
        self.description_label.setWordWrap(True)
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
        health.addWidget(self.health_dot)
        self.health_label = QLabel("Checking…", self)
        self.health_label.setWordWrap(True)
        self.health_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.health_label.setAccessibleName("Skill health")
        health.addWidget(self.health_label, 1)
        self._layout.addLayout(health)
        self.description_label = QLabel("", self)
        self.description_label.setWordWrap(True)
        self.description_label.setAccessibleName("Skill description")
        self._layout.addWidget(self.description_label)
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

    def show_skill(self, skill: Skill, health: SkillHealth | None) -> None:
        self.title_label.setText(skill.title)
        self.description_label.setText(skill.description)
        self.show_health(health)
        for row in self.tool_rows:
            self.tools_box.removeWidget(row)
            row.deleteLater()
        self.tool_rows = []
        for tool in skill.tools():
            row = ToolRowView(tool.name, tool.writes, tool.spec.description, self)
            self.tools_box.addWidget(row)
            self.tool_rows.append(row)
        self.no_tools_label.setVisible(not self.tool_rows)
        while self.settings_form.rowCount():
            self.settings_form.removeRow(0)
        self.setting_fields = []
        for setting in skill.settings():
            field = QLineEdit(setting.value, self)
            field.setReadOnly(True)
            field.setAccessibleName(f"Setting {setting.name}")
            field.setCursorPosition(0)
            self.settings_form.addRow(f"{setting.name}:", field)
            self.setting_fields.append(field)
        self.no_settings_label.setVisible(not self.setting_fields)

    def show_health(self, health: SkillHealth | None) -> None:
        if health is None:
            self.health_dot.set_accent("grey")
            self.health_label.setText("Checking…")
            return
        self.health_dot.set_accent(HEALTH_ACCENT.get(health.status, "grey"))
        words = HEALTH_WORDS.get(health.status, health.status.title())
        self.health_label.setText(f"{words} — {health.message}" if health.message else words)


class SkillsView(QWidget):
    """The Skills tab: a list of skills (health dot) and the selected skill's page."""

    def __init__(self, registry: SkillRegistry, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._registry = registry
        self._jobs = jobs
        self._health: dict[str, SkillHealth] = {}
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
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([em(self) * 14, em(self) * 40])
        layout.addWidget(self.splitter, 1)
        self._populate()

    # --- content --------------------------------------------------------------------------------

    def skills(self) -> Sequence[Skill]:
        return list(self._registry.skills)

    def _populate(self) -> None:
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
        if not empty and self.skills_list.currentRow() < 0:
            self.skills_list.setCurrentRow(0)
        self._summarise()

    def _decorate(self, item: QListWidgetItem) -> None:
        health = self._health.get(str(item.data(NameRole)))
        name = HEALTH_ACCENT.get(health.status, "grey") if health else "grey"
        item.setIcon(_dot_icon(accent(name, app_palette()), em(self) // 2 + 2))
        words = HEALTH_WORDS.get(health.status, health.status) if health else "checking"
        item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{item.text()}: {words.lower()}")

    def _summarise(self) -> None:
        total = len(self.skills())
        if not self._health:
            self.summary_label.setText(f"{total} installed")
            return
        problems = sum(1 for h in self._health.values() if h.status != "connected")
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

    def select_skill(self, name: str) -> bool:
        """Show the page of skill ``name``; False when there is no such skill."""
        for row in range(self.skills_list.count()):
            item = self.skills_list.item(row)
            if item.data(NameRole) == name:
                self.skills_list.setCurrentRow(row)
                self.skills_list.setFocus()
                return True
        return False

    async def refresh(self) -> None:
        """Check every skill's health again and show it."""
        self.check_button.setEnabled(False)
        try:
            self._health = await self._registry.health()
        except Exception as exc:  # a skill's own failure is reported per skill; this is the registry failing
            log.exception("skill health check failed")
            self.error_label.show_text(f"Could not check the skills: {exc}")
            return
        finally:
            self.check_button.setEnabled(True)
        self.error_label.clear_text()
        names = {self.skills_list.item(r).data(NameRole) for r in range(self.skills_list.count())}
        if names != {skill.name for skill in self.skills()}:
            self._populate()
        for row in range(self.skills_list.count()):
            self._decorate(self.skills_list.item(row))
        self._summarise()
        current = self.current_skill_name()
        if current is not None:
            self.detail.show_health(self._health.get(current))

    def _on_skills_list_current_item_changed(self, current: QListWidgetItem | None, _previous: object) -> None:
        if current is None:
            return
        skill = self._registry.get(str(current.data(NameRole)))
        if skill is not None:
            self.detail.show_skill(skill, self._health.get(skill.name))

    def _on_check_button_clicked(self) -> None:
        self._jobs.spawn(self.refresh(), name="skills-health")
