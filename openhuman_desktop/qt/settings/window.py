"""The Settings window: every config.toml setting on a form, saved through ConfigEdit and applied live."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from PySide6.QtCore import QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QListWidget,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop import autostart, config
from openhuman_desktop.config import Settings
from openhuman_desktop.config_edit import ConfigEdit
from openhuman_desktop.errors import ConfigError
from openhuman_desktop.llm.catalog import list_models
from openhuman_desktop.qt import placement
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.accent_label import AccentLabel
from openhuman_desktop.qt.intelligence.banner import Banner
from openhuman_desktop.qt.intelligence.theme import em, make_primary
from openhuman_desktop.qt.settings.fields import Field
from openhuman_desktop.qt.settings.model_tier import Lister, TierEditor
from openhuman_desktop.qt.settings.sections import VALUES, Section, build_sections
from openhuman_desktop.qt.settings.server_form import tables_of
from openhuman_desktop.qt.settings.skills_section import SkillsEditor, ToolLister
from openhuman_desktop.qt.settings.world_section import SkillTester, Tester

log = logging.getLogger(__name__)

WINDOW_TITLE = "OpenHuman — Settings"
APPLY_CHECK_MS = 100
APPLY_PATIENCE_S = 15.0  # the app's watcher looks at config.toml every 2 s; far longer means it is not running
RESTART_KEYS = ("rpc.port",)


class LiveLike(Protocol):
    """What the window reads of the running app's settings (``services.settings``: ``LiveSettings``)."""

    @property
    def current(self) -> Settings: ...

    problem: str | None


def loader_sentence(exc: ConfigError) -> str:
    """The loader's sentence without the file's path (the field it sits under says where)."""
    return str(exc).removeprefix(f"{exc.path}: ")


class SettingsWindow(QWidget):
    """Sections on the left, their fields on the right, Save and Revert below. Non-modal; Esc closes it.

    Args:
        config_path: the workspace's config.toml.
        live: the running app's settings, to say "applied" once they hold what was saved (None: no app).
        workspace: for "Start at login" (None: the switch is disabled).
        lister: ``catalog.list_models`` (model lists load in the background after the window shows).
        environ: where API-key variables are looked up for the hints and the model lists.
        tools_of: the tools a running MCP server listed, for Skills' per-tool overrides (None: none known).
        tester: tests a built-in skill's form (mail, feeds, calendars, web, Slack) for its Test button (None: the
            buttons are disabled).
    """

    saved = Signal(object)            # Settings, after a save
    autostart_changed = Signal(bool)  # "Start at login" was switched here

    def __init__(self, config_path: Path, live: LiveLike | None = None, *, workspace: Path | None = None,
                 lister: Lister = list_models, environ: Mapping[str, str] | None = None,
                 tools_of: ToolLister | None = None, tester: Tester | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.config_path = config_path
        self._live = live
        self._workspace = workspace
        self._environ = environ
        self.jobs = Jobs()
        self._expected: Settings | None = None
        self._restart_note = ""
        self._problem_before: str | None = None
        self._saved_at = 0.0
        self._loading = False
        self._saving = False
        self.setWindowTitle(WINDOW_TITLE)
        self.setObjectName("settingsWindow")
        self.setAccessibleName("Settings")
        unit = em(self)
        self.resize(unit * 60, unit * 44)
        self.setMinimumSize(unit * 42, unit * 26)

        outer = QVBoxLayout(self)
        pad = max(6, unit // 2)
        outer.setContentsMargins(pad * 2, pad * 2, pad * 2, pad * 2)
        outer.setSpacing(pad)
        self.banner = Banner(self, accent_name="coral")
        outer.addWidget(self.banner)
        middle = QHBoxLayout()
        middle.setSpacing(pad * 2)
        outer.addLayout(middle, 1)
        self.nav = QListWidget(self)
        self.nav.setAccessibleName("Settings sections")
        self.nav.setFixedWidth(unit * 11)
        self.nav.setFrameShape(QFrame.Shape.NoFrame)
        self.nav.setSpacing(max(2, unit // 4))
        middle.addWidget(self.nav)
        self.pages = QStackedWidget(self)
        middle.addWidget(self.pages, 1)

        self.skill_testers: dict[str, SkillTester] = {}
        self.sections, self.tiers, self.autostart_row = build_sections(self.jobs, lister, environ, tools_of, tester,
                                                                       self.skill_testers)
        self.fields: list[Field] = [f for section in self.sections for f in section.fields]
        for section in self.sections:
            self.nav.addItem(section.title)
            self.nav.item(self.nav.count() - 1).setToolTip(section.description)
            scroll = QScrollArea(self.pages)
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QFrame.Shape.NoFrame)
            scroll.setWidget(section.page)
            scroll.setAccessibleName(section.title)
            self.pages.addWidget(scroll)
            for item in section.fields:
                item.edited.connect(self._on_field_edited)
        self.nav.currentRowChanged.connect(self._on_nav_current_row_changed)
        self.autostart_switch = self.autostart_row.switch
        self.autostart_switch.toggled.connect(self._on_autostart_switch_toggled)

        bottom = QHBoxLayout()
        self.status_label = AccentLabel("grey", self)
        self.status_label.setAccessibleName("Save status")
        bottom.addWidget(self.status_label, 10)
        bottom.addStretch(1)  # the buttons keep their size while no status shows
        self.revert_button = QPushButton("Revert", self)
        self.revert_button.setAccessibleName("Revert unsaved changes")
        self.revert_button.setToolTip("Show the saved values again")
        self.revert_button.clicked.connect(self._on_revert_button_clicked)
        bottom.addWidget(self.revert_button)
        self.save_button = QPushButton("Save", self)
        self.save_button.setAccessibleName("Save settings")
        self.save_button.setToolTip("Check and save to config.toml (Ctrl+S); the running app applies it at once")
        self.save_button.setDefault(True)
        make_primary(self.save_button)
        self.save_button.clicked.connect(self._on_save_button_clicked)
        bottom.addWidget(self.save_button)
        outer.addLayout(bottom)

        QShortcut(QKeySequence(QKeySequence.StandardKey.Close), self).activated.connect(self.close)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Save), self).activated.connect(self._on_save_button_clicked)
        self._apply_timer = QTimer(self)
        self._apply_timer.setInterval(APPLY_CHECK_MS)
        self._apply_timer.timeout.connect(self._on_apply_timer_timeout)
        self.nav.setCurrentRow(0)
        self.reload()

    # --- values -----------------------------------------------------------------------------------

    def reload(self) -> None:
        """Show what config.toml holds now (or the settings in force when the file has a problem)."""
        self._loading = True
        try:
            settings = config.load(self.config_path, self._environ).settings
            self.banner.hide()
        except ConfigError as exc:
            settings = self._live.current if self._live is not None else Settings()
            self.banner.show_text(f"config.toml has a problem, so these are the settings in force: {exc} "
                                  "Fix it in a text editor before saving here.", "coral")
        try:
            for item in self.fields:
                if isinstance(item, TierEditor):
                    item.load_settings(settings.model(item.tier))
                elif isinstance(item, SkillsEditor):
                    item.load(tables_of(settings))
                else:
                    item.load(VALUES[item.key](settings))
                item.error.clear_text()
        finally:
            self._loading = False
        self.status_label.clear_text()
        for tier in self.tiers.values():
            tier.clear_errors()
        with QSignalBlocker(self.autostart_switch):
            self.autostart_switch.setChecked(autostart.is_enabled(self._environ))
        self.autostart_switch.setEnabled(self._workspace is not None)
        self._update_buttons()

    @property
    def skills_editor(self) -> SkillsEditor:
        editor = self.field("skills.mcp")
        assert isinstance(editor, SkillsEditor)
        return editor

    def show_skill(self, name: str) -> None:
        """Show Settings > Skills on server ``name`` ("" adds a new server), or on the form of a built-in skill
        (``email`` …) with its Test button in sight."""
        self.show_section("skills")
        tester = self.skill_testers.get(name)
        if tester is not None:
            page = self.pages.currentWidget()
            if isinstance(page, QScrollArea):
                page.ensureWidgetVisible(tester, 0, em(tester) * 20)
            tester.button.setFocus()
        elif name:
            self.skills_editor.select(name)
        else:
            self.skills_editor.add_server()

    def field(self, key: str) -> Field:
        """The field that edits ``key`` (``models.<tier>`` for a tier)."""
        for item in self.fields:
            if item.key == key:
                return item
        raise KeyError(key)

    def changes(self) -> dict[str, Any]:
        """What a save would write: only the fields changed since they were loaded."""
        changed: dict[str, Any] = {}
        for item in self.fields:
            changed.update(item.changes())
        return changed

    @property
    def has_changes(self) -> bool:
        return bool(self.changes())

    # --- showing --------------------------------------------------------------------------------

    def bring_to_front(self) -> None:
        """Show, raise, and start loading the model lists. A window closed without unsaved changes shows the
        file as it is now; unsaved changes are still there when it opens again."""
        if not self.isVisible() and not self.has_changes:
            self.reload()
        placement.bring_to_front(self)   # whole on a screen, raised
        self.request_model_lists()

    def request_model_lists(self) -> None:
        for tier in self.tiers.values():
            tier.request_models()

    def show_section(self, name: str) -> None:
        for index, section in enumerate(self.sections):
            if section.name == name:
                self.nav.setCurrentRow(index)
                return
        raise KeyError(name)

    @property
    def current_section(self) -> str:
        return self.sections[self.pages.currentIndex()].name

    def _section_of(self, item: Field) -> Section:
        return next(section for section in self.sections if item in section.fields)

    # --- saving ---------------------------------------------------------------------------------

    async def save(self) -> bool:
        """Check the changed fields like the loader does and write them; False (nothing written) if refused."""
        if self._saving:
            return False
        changes = self.changes()
        self._clear_errors()
        if not changes:
            self._show_status("Nothing to save: no value was changed.", "grey")
            return False
        edit = ConfigEdit(self.config_path)
        edit.update(changes)
        written = [(item, item.value()) for item in self.fields]   # the form stays editable while it is written
        self._saving = True
        self.save_button.setEnabled(False)
        try:
            loaded = await asyncio.to_thread(edit.save, self._environ)
        except ConfigError as exc:
            self._show_refusal(exc)
            return False
        finally:
            self._saving = False
            self._update_buttons()
        for item, value in written:
            item.initial = value   # not mark_saved(): a value typed during the save was not written
        self._update_buttons()
        log.info("settings saved to %s (%s)", self.config_path, ", ".join(sorted(changes)))
        restart = [key for key in RESTART_KEYS if key in changes]
        self._restart_note = " (the RPC port changes at the next start)" if restart else ""
        self.saved.emit(loaded.settings)
        if self._live is None:
            self._show_status("Saved." + self._restart_note, "green")
            return True
        self._expected = loaded.settings
        self._problem_before = self._live.problem
        self._saved_at = time.monotonic()
        self._show_status("Saved — applying…", "grey")
        self._apply_timer.start()
        self._on_apply_timer_timeout()
        return True

    def _show_refusal(self, exc: ConfigError) -> None:
        target = self._field_for(exc.key)
        sentence = loader_sentence(exc)
        if target is None:
            self.banner.show_text(f"Not saved: {exc}", "coral")
            self._show_status("Not saved: config.toml could not be read or written (see above).", "coral")
            return
        section = self._section_of(target)
        self.show_section(section.name)
        if isinstance(target, TierEditor | SkillsEditor):
            widget = target.show_error(exc.key, sentence)
        else:
            target.error.show_text(sentence)
            widget = target.widget
        widget.setFocus(Qt.FocusReason.OtherFocusReason)
        self._show_status(f"Not saved: a value in {section.title} is invalid. Nothing was written.", "coral")

    def _field_for(self, key: str) -> Field | None:
        best: Field | None = None
        for item in self.fields:
            if key in item.keys:
                return item
            if any(key.startswith(own + ".") for own in item.keys) and best is None:
                best = item
        return best

    def _clear_errors(self) -> None:
        for item in self.fields:
            item.error.clear_text()
        for tier in self.tiers.values():
            tier.clear_errors()
        self.skills_editor.clear_errors()
        if self.banner.text.startswith("Not saved"):
            self.banner.hide()

    def _show_status(self, text: str, accent_name: str) -> None:
        self.status_label.set_accent(accent_name)
        self.status_label.show_text(text)

    def _update_buttons(self) -> None:
        changed = self.has_changes
        self.save_button.setEnabled(changed and not self._saving)
        self.revert_button.setEnabled(changed)

    def _on_apply_timer_timeout(self) -> None:
        live, expected = self._live, self._expected
        if live is None or expected is None:
            self._apply_timer.stop()
            return
        if live.current == expected:
            self._apply_timer.stop()
            self._expected = None
            self._show_status("Saved — applied." + self._restart_note, "green")
        elif live.problem is not None and live.problem != self._problem_before:
            self._apply_timer.stop()
            self._expected = None
            self._show_status(f"Saved, but the running app did not apply it: {live.problem}", "coral")
        elif time.monotonic() - self._saved_at > APPLY_PATIENCE_S:
            self._apply_timer.stop()
            self._expected = None
            self._show_status("Saved. The running app has not picked it up yet; it applies config.toml when it "
                              "next looks (every 2 seconds).", "amber")

    # --- slots ----------------------------------------------------------------------------------

    def _on_field_edited(self) -> None:
        if self._loading:
            return
        sender = self.sender()
        if isinstance(sender, Field):
            sender.error.clear_text()
            if isinstance(sender, TierEditor):
                sender.clear_errors()
        self._update_buttons()
        if self.has_changes:
            self._show_status("Unsaved changes.", "grey")
        elif not self._apply_timer.isActive():
            self.status_label.clear_text()

    def _on_save_button_clicked(self) -> None:
        self.jobs.spawn(self.save(), name="settings-save")

    def _on_revert_button_clicked(self) -> None:
        for item in self.fields:
            item.revert()
        self._update_buttons()
        self._show_status("Reverted to the saved values.", "grey")

    def _on_nav_current_row_changed(self, row: int) -> None:
        if row >= 0:
            self.pages.setCurrentIndex(row)

    def _on_autostart_switch_toggled(self, checked: bool) -> None:
        if self._workspace is None:
            return
        self.autostart_row.error.clear_text()
        try:
            if checked:
                autostart.enable(self._workspace, self._environ)
            else:
                autostart.disable(self._environ)
        except autostart.AutostartError as exc:
            with QSignalBlocker(self.autostart_switch):
                self.autostart_switch.setChecked(not checked)
            self.autostart_row.error.show_text(str(exc))
            return
        log.info("start at login %s (settings)", "on" if checked else "off")
        self.autostart_changed.emit(checked)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() == Qt.Key.Key_Escape:  # reaches here when no child (an open list, say) took it
            self.close()
            return
        super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        self._apply_timer.stop()
        super().closeEvent(event)

    async def aclose(self) -> None:
        """Stop loading model lists and checking for "applied"; safe to call twice."""
        self._apply_timer.stop()
        await self.jobs.aclose()
