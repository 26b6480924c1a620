"""The Steering page: the directive in force, its versions, a diff between two of them, Revert, Edit, and
"Reflect now" with the last reflection's outcome."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListView,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.orchestration.steering import Directive, Reflection
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.accent_label import AccentLabel, ErrorLabel
from openhuman_desktop.qt.intelligence.agent.diff import diff_html, diff_plain, diff_summary, word_diff
from openhuman_desktop.qt.intelligence.agent.edit import DirectiveEditDialog
from openhuman_desktop.qt.intelligence.agent.versions import (
    CLEARED,
    SOURCE_ACCENT,
    SOURCE_WORDS,
    Reflections,
    ReflectionStatusSource,
    SteeringSource,
    VersionDelegate,
    VersionModel,
    directive_meta,
    inputs_text,
    reflection_text,
    schedule_text,
)
from openhuman_desktop.qt.intelligence.badge import Badge
from openhuman_desktop.qt.intelligence.muted_label import EmptyState, MutedLabel
from openhuman_desktop.qt.intelligence.panel_frame import PanelFrame
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.spinner import Spinner
from openhuman_desktop.qt.intelligence.theme import accent, app_palette, em, make_primary
from openhuman_desktop.qt.intelligence.time_text import exact_time
from openhuman_desktop.subconscious.reflection import NOT_CONFIGURED

log = logging.getLogger(__name__)

PREVIOUS = -1
NO_REFLECTION = ("Reflection is not available in this window yet: the subconscious model reflects on its "
                 "schedule once the app provides it.")
NO_DIRECTIVE = ("No steering directive. Reflection writes one from the compressed history and the world timeline "
                "(never from your messages); you can also write one yourself with Edit.")


# --- the page -------------------------------------------------------------------------------------------


class SteeringView(QWidget):
    """The Steering page. ``trigger_reflection`` starts a reflection at once ("Reflect now"); None disables
    the button (a window without reflection)."""

    changed = Signal()   # a directive was written from this page

    def __init__(self, jobs: Jobs, now: Callable[[], float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._jobs = jobs
        self._now = now
        self._source: SteeringSource | None = None
        self._reflections: Reflections | None = None
        self._trigger: Callable[[], object] | None = None
        self._status: ReflectionStatusSource | None = None
        self._unconfigured = False
        """The last status said there is no subconscious model: Reflect now could only fail."""
        self.current: Directive | None = None
        self.last_reflection: Reflection | None = None
        self.is_reflecting = False
        self._dialog: DirectiveEditDialog | None = None
        self.diff_pair: tuple[Directive | None, Directive | None] = (None, None)
        self.setAccessibleName("Steering")
        pad = max(6, em(self) // 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, pad, 0, 0)
        layout.setSpacing(pad)

        head = QHBoxLayout()
        head.setSpacing(pad)
        head.addWidget(SectionHeader("Steering directive", self))
        self.source_badge = Badge("", "blue", self)
        self.source_badge.setAccessibleName("Written by")
        self.source_badge.hide()
        head.addWidget(self.source_badge, 0, Qt.AlignmentFlag.AlignVCenter)
        head.addStretch(1)
        self.edit_button = QPushButton("&Edit…", self)
        self.edit_button.setAccessibleName("Edit the directive")
        self.edit_button.setToolTip("Write the directive yourself (a new version)")
        self.edit_button.setAutoDefault(False)
        head.addWidget(self.edit_button)
        self.reflect_button = QPushButton("Reflect &now", self)
        self.reflect_button.setAccessibleName("Reflect now")
        self.reflect_button.setAutoDefault(False)
        make_primary(self.reflect_button)
        head.addWidget(self.reflect_button)
        layout.addLayout(head)

        self.directive_panel = PanelFrame(self)
        panel = QVBoxLayout(self.directive_panel)
        panel.setContentsMargins(pad * 2, pad * 2, pad * 2, pad * 2)
        panel.setSpacing(max(2, pad // 2))
        self.text_label = QLabel("", self.directive_panel)
        self.text_label.setWordWrap(True)
        self.text_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text_label.setAccessibleName("Current directive")
        panel.addWidget(self.text_label)
        self.meta_label = MutedLabel("", self.directive_panel, factor=0.9)
        self.meta_label.setAccessibleName("Version")
        panel.addWidget(self.meta_label)
        self.rationale_label = MutedLabel("", self.directive_panel, factor=0.9)
        self.rationale_label.setWordWrap(True)
        self.rationale_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.rationale_label.setAccessibleName("Why")
        panel.addWidget(self.rationale_label)
        self.inputs_label = MutedLabel("", self.directive_panel, factor=0.9)
        self.inputs_label.setWordWrap(True)
        self.inputs_label.setAccessibleName("Drawn from")
        panel.addWidget(self.inputs_label)
        layout.addWidget(self.directive_panel)

        reflection = QHBoxLayout()
        reflection.setSpacing(pad)
        self.reflect_spinner = Spinner(self)
        reflection.addWidget(self.reflect_spinner, 0, Qt.AlignmentFlag.AlignVCenter)
        self.reflection_label = MutedLabel("No reflection yet.", self)
        self.reflection_label.setWordWrap(True)
        self.reflection_label.setAccessibleName("Last reflection")
        reflection.addWidget(self.reflection_label, 1)
        layout.addLayout(reflection)
        self.schedule_label = MutedLabel("", self, factor=0.9)
        self.schedule_label.setWordWrap(True)
        self.schedule_label.setAccessibleName("Reflection schedule")
        self.schedule_label.hide()
        layout.addWidget(self.schedule_label)
        self.problem_label = AccentLabel("amber", self)
        self.problem_label.setAccessibleName("Reflection problem")
        layout.addWidget(self.problem_label)
        self.error_label = ErrorLabel(self)
        layout.addWidget(self.error_label)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setHandleWidth(pad)
        left = QWidget(self.splitter)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.setSpacing(pad)
        left_layout.addWidget(SectionHeader("Versions", left))
        self.versions = VersionModel(jobs, now, self)
        self.versions_view = QListView(left)
        self.versions_view.setAccessibleName("Directive versions")
        self.versions_view.setModel(self.versions)
        self.versions_view.setItemDelegate(VersionDelegate(self.versions_view, now))
        self.versions_view.setUniformItemSizes(True)
        self.versions_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.versions_view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        left_layout.addWidget(self.versions_view, 1)
        right = QWidget(self.splitter)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.setSpacing(pad)
        compare = QHBoxLayout()
        compare.setSpacing(pad)
        self.changes_header = SectionHeader("Changes", right)
        compare.addWidget(self.changes_header)
        compare.addStretch(1)
        compare_label = QLabel("&Compare with", right)
        compare.addWidget(compare_label)
        self.base_combo = QComboBox(right)
        self.base_combo.setAccessibleName("Compare with")
        self.base_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        compare_label.setBuddy(self.base_combo)
        compare.addWidget(self.base_combo)
        right_layout.addLayout(compare)
        self.diff_summary_label = MutedLabel("", right)
        self.diff_summary_label.setAccessibleName("Summary of the changes")
        right_layout.addWidget(self.diff_summary_label)
        self.diff_browser = QTextBrowser(right)
        self.diff_browser.setAccessibleName("Changes between the versions")
        self.diff_browser.setOpenLinks(False)
        self.diff_browser.setTabChangesFocus(True)
        right_layout.addWidget(self.diff_browser, 1)
        actions = QHBoxLayout()
        actions.setSpacing(pad)
        actions.addStretch(1)
        self.clear_button = QPushButton("C&lear directive", right)
        self.clear_button.setAccessibleName("Clear the directive")
        self.clear_button.setToolTip("Revert to version 0: later runs get no steering (a new version; undo by "
                                     "reverting again)")
        self.clear_button.setAutoDefault(False)
        actions.addWidget(self.clear_button)
        self.revert_button = QPushButton("Re&vert to this version", right)
        self.revert_button.setAccessibleName("Revert to the selected version")
        self.revert_button.setAutoDefault(False)
        actions.addWidget(self.revert_button)
        right_layout.addLayout(actions)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)
        unit = em(self)
        self.splitter.setSizes([unit * 22, unit * 34])
        layout.addWidget(self.splitter, 1)
        self.empty_label = EmptyState("", self)
        self.empty_label.hide()
        layout.addWidget(self.empty_label)

        self.edit_button.clicked.connect(self._on_edit_button_clicked)
        self.reflect_button.clicked.connect(self._on_reflect_button_clicked)
        self.clear_button.clicked.connect(self._on_clear_button_clicked)
        self.revert_button.clicked.connect(self._on_revert_button_clicked)
        self.base_combo.activated.connect(self._on_base_combo_activated)
        self.versions.modelReset.connect(self._on_versions_changed)
        self.versions.rowsInserted.connect(self._on_versions_changed)
        self.versions_view.selectionModel().currentChanged.connect(self._on_versions_view_current_changed)
        self.set_trigger(None)
        self._show_current(None)

    # --- wiring ---------------------------------------------------------------------------------

    def set_sources(self, steering: SteeringSource | None, reflections: Reflections | None) -> None:
        self._source = steering
        self._reflections = reflections
        self.versions.set_source(steering)
        self.edit_button.setEnabled(steering is not None)
        if steering is None:
            self.text_label.setText("Steering lives in the agent's ledger, which this window does not have.")

    def set_status_source(self, status: ReflectionStatusSource | None) -> None:
        """The reflection service's ``status()`` (None: no schedule line)."""
        self._status = status

    def set_trigger(self, trigger: Callable[[], object] | None) -> None:
        """The callable behind "Reflect now" (None: the button is off and says why)."""
        self._trigger = trigger
        self._update_reflect_button()

    def _update_reflect_button(self) -> None:
        available = self._trigger is not None and not self._unconfigured
        self.reflect_button.setEnabled(available and not self.is_reflecting)
        if not available:
            self.reflect_button.setToolTip(NOT_CONFIGURED if self._unconfigured else NO_REFLECTION)
        elif self.is_reflecting:
            self.reflect_button.setToolTip("A reflection is running")
        else:
            self.reflect_button.setToolTip("Let the subconscious model reflect on what happened since the last "
                                           "reflection, now (it reads only compressed history and the timeline)")
        self.reflect_button.setAccessibleDescription(self.reflect_button.toolTip())

    # --- data -----------------------------------------------------------------------------------

    async def refresh(self) -> None:
        """The directive in force, its versions and the last reflection."""
        if self._source is None:
            return
        try:
            latest = await self._source.latest()
            last = await self._reflections(1) if self._reflections is not None else []
        except UserFacingError as exc:
            self.error_label.show_text(f"Could not read the steering directive: {exc}")
            return
        self._show_current(latest)
        self._show_reflection(last[0] if last else None)
        await self.refresh_schedule()
        selected = self.selected()
        if selected is not None and self.versions.rowCount() and selected is self.versions.directive(0):
            selected = None   # the newest was picked: the newest stays picked
        await self.versions.load()
        row = self.versions.row_of(selected.version) if selected is not None else None
        self.versions_view.setCurrentIndex(self.versions.index(0 if row is None else row))
        await self.show_diff()

    async def refresh_schedule(self) -> None:
        """When reflection runs next, what is new for it, and the subconscious model's problem (if any)."""
        if self._status is None:
            return
        try:
            state = await self._status()
        except UserFacingError as exc:
            self.problem_label.show_text(str(exc))
            return
        self.schedule_label.setText(schedule_text(state, self._now()))
        self.schedule_label.setToolTip(exact_time(state.next_at) if state.next_at is not None else "")
        self.schedule_label.show()
        self.problem_label.show_text(state.problem or "")
        self._unconfigured = state.problem == NOT_CONFIGURED
        self._update_reflect_button()

    def _show_current(self, directive: Directive | None) -> None:
        self.current = directive
        now = self._now()
        has_text = directive is not None and not directive.is_cleared
        if directive is None or not has_text:
            self.text_label.setText(NO_DIRECTIVE if directive is None else
                                    "Cleared — later runs get no steering. " + NO_DIRECTIVE.split(". ", 1)[1])
            self.source_badge.hide()
        else:
            self.text_label.setText(directive.text)
            self.source_badge.setText(SOURCE_WORDS.get(directive.source, directive.source))
            self.source_badge.set_accent(SOURCE_ACCENT.get(directive.source, "grey"))
            self.source_badge.show()
            self.source_badge.updateGeometry()
        self.meta_label.setText(directive_meta(directive, now) if directive is not None else "")
        self.meta_label.setToolTip(exact_time(directive.created_at) if directive is not None else "")
        self.meta_label.setVisible(directive is not None)
        rationale = directive.rationale if directive is not None else ""
        self.rationale_label.setText(f"Why: {rationale}" if rationale else "")
        self.rationale_label.setVisible(bool(rationale))
        self.inputs_label.setText(inputs_text(directive) if directive is not None else "")
        self.inputs_label.setVisible(directive is not None)
        self.clear_button.setEnabled(has_text)

    def _show_reflection(self, reflection: Reflection | None) -> None:
        self.last_reflection = reflection
        if self.is_reflecting:
            return
        if reflection is None:
            self.reflection_label.setText("No reflection yet. The subconscious model reflects on its schedule "
                                          "(config.toml, [reflection] schedule).")
            return
        self.reflection_label.setText(reflection_text(reflection, self._now()))
        self.reflection_label.setToolTip(exact_time(reflection.finished_at))

    def select_version(self, version: int) -> bool:
        """Pick ``version`` in the list (its diff shows); False when it is not among the versions read."""
        row = self.versions.row_of(version)
        if row is None:
            return False
        self.versions_view.setCurrentIndex(self.versions.index(row))
        self.versions_view.scrollTo(self.versions.index(row))
        return True

    def selected(self) -> Directive | None:
        index = self.versions_view.currentIndex()
        if not index.isValid() or not 0 <= index.row() < self.versions.rowCount():
            return None
        return self.versions.directive(index.row())

    async def show_diff(self) -> None:
        """The changes from the base version (by default the one before) to the selected one."""
        target = self.selected()
        self._update_revert(target)
        if target is None:
            self.diff_pair = (None, None)
            self.diff_browser.clear()
            self.diff_summary_label.setText("No versions yet." if self.versions.is_loaded else "")
            return
        base_version = self.base_combo.currentData()
        base: Directive | None = None
        try:
            if base_version in (None, PREVIOUS):
                row = self.versions.row_of(target.version)
                if row is not None and row + 1 < self.versions.rowCount():
                    base = self.versions.directive(row + 1)
                elif target.version > 1 and self._source is not None:
                    base = await self._source.get(target.version - 1)
            elif base_version:
                row = self.versions.row_of(int(base_version))
                base = self.versions.directive(row) if row is not None else (
                    await self._source.get(int(base_version)) if self._source is not None else None)
        except UserFacingError as exc:
            self.diff_summary_label.setText(f"Could not read that version: {exc}")
            return
        if self.selected() is not target:
            return   # the selection moved on meanwhile
        self._render_diff(base, target)

    def _render_diff(self, base: Directive | None, target: Directive) -> None:
        self.diff_pair = (base, target)
        pieces = word_diff(base.text if base is not None else "", target.text)
        palette = app_palette()
        added, removed = accent("green", palette), accent("coral", palette)
        fills = []
        for color in (added, removed):
            fill = QColor(color)
            fill.setAlphaF(0.16)
            fills.append(f"rgba({fill.red()},{fill.green()},{fill.blue()},0.16)")
        body = diff_html(pieces, added=added.name(), removed=removed.name(), added_fill=fills[0],
                         removed_fill=fills[1])
        base_name = f"version {base.version}" if base is not None else "no directive"
        self.changes_header.setText(f"Changes: {base_name} → version {target.version}")
        if target.is_cleared:
            body += f'<p style="color:{palette.color(QPalette.ColorRole.PlaceholderText).name()}">{CLEARED}</p>'
        self.diff_browser.setHtml(f'<div style="line-height:140%">{body}</div>')
        summary = diff_summary(pieces)
        self.diff_summary_label.setText(f"{summary} · underlined: added, struck through: removed")
        self.diff_browser.setAccessibleDescription(f"{summary}. {diff_plain(pieces)}")

    def retheme(self) -> None:
        """The diff's colours follow the theme (the window calls this when light and dark switch)."""
        base, target = self.diff_pair
        if target is not None:
            self._render_diff(base, target)

    def _update_revert(self, target: Directive | None) -> None:
        latest = self.versions.directive(0) if self.versions.rowCount() else None
        can = (target is not None and latest is not None and target.version != latest.version
               and not target.is_cleared and target.text != latest.text)
        self.revert_button.setEnabled(can)
        self.revert_button.setText(f"Re&vert to version {target.version}" if target is not None
                                   else "Re&vert to this version")
        self.revert_button.setToolTip("Make this version's text the directive again (a new version)" if can else
                                      "Pick an earlier version with different text to revert to it")

    def _fill_base_combo(self) -> None:
        chosen = self.base_combo.currentData()
        self.base_combo.blockSignals(True)
        self.base_combo.clear()
        self.base_combo.addItem("the version before", PREVIOUS)
        for directive in self.versions.rows():
            self.base_combo.addItem(f"version {directive.version}", directive.version)
        self.base_combo.addItem("no directive (version 0)", 0)
        at = self.base_combo.findData(chosen) if chosen is not None else 0
        self.base_combo.setCurrentIndex(max(0, at))
        self.base_combo.blockSignals(False)

    # --- actions --------------------------------------------------------------------------------

    async def revert(self, version: int) -> Directive | None:
        """A new version with ``version``'s text (0: clear)."""
        if self._source is None:
            return None
        self.error_label.clear_text()
        try:
            directive = await self._source.revert(version)
        except UserFacingError as exc:
            self.error_label.show_text(f"Could not revert: {exc}")
            return None
        self.changed.emit()
        await self.refresh()
        return directive

    @property
    def editor(self) -> DirectiveEditDialog | None:
        """The Edit dialog while it is open."""
        return self._dialog

    def open_editor(self) -> DirectiveEditDialog:
        """The Edit dialog on the current text (opened, not exec'd)."""
        text = self.current.text if self.current is not None else ""
        dialog = DirectiveEditDialog(text, self)
        dialog.submitted.connect(self._on_dialog_submitted)
        dialog.finished.connect(self._on_dialog_finished)
        self._dialog = dialog
        dialog.open()
        return dialog

    async def save_edit(self, dialog: DirectiveEditDialog, text: str, why: str) -> Directive | None:
        if self._source is None:
            return None
        try:
            directive = await self._source.edit(text, why)
        except UserFacingError as exc:
            dialog.show_error(str(exc))
            return None
        dialog.saved()
        self.changed.emit()
        await self.refresh()
        return directive

    async def reflect_now(self) -> None:
        """Call the trigger (it returns at once; what happens arrives as reflection events)."""
        if self._trigger is None:
            return
        self.error_label.clear_text()
        try:
            result = self._trigger()
            if inspect.isawaitable(result):
                result = await result
        except UserFacingError as exc:
            self.error_label.show_text(f"Could not start a reflection: {exc}")
            return
        if result is False:   # one is running: the service reflects once more after it
            self.reflection_label.setText("A reflection is running; another one follows it.")
        elif not self.is_reflecting:
            self.reflection_label.setText("Reflection requested…")

    # --- events ---------------------------------------------------------------------------------

    def on_reflection_started(self, _trigger: str) -> None:
        self.is_reflecting = True
        self.reflect_spinner.start()
        self.reflection_label.setText("Reflecting on the compressed history and the world timeline…")
        self._update_reflect_button()

    def on_reflection_finished(self, reflection: Reflection) -> None:
        self.is_reflecting = False
        self.reflect_spinner.stop()
        self._update_reflect_button()
        self._show_reflection(reflection)
        if self._status is not None:
            self._jobs.spawn(self.refresh_schedule(), name="agent-reflection-status", group="agent-reflection-status")

    # --- slots ----------------------------------------------------------------------------------

    def _on_versions_changed(self, *_args: object) -> None:
        self._fill_base_combo()
        empty = self.versions.is_loaded and self.versions.rowCount() == 0
        self.splitter.setVisible(not empty)

    def _on_versions_view_current_changed(self, *_args: object) -> None:
        self._jobs.spawn(self.show_diff(), name="agent-steering-diff", group="agent-steering-diff")

    def _on_base_combo_activated(self, _index: int) -> None:
        self._jobs.spawn(self.show_diff(), name="agent-steering-diff", group="agent-steering-diff")

    def _on_edit_button_clicked(self) -> None:
        self.open_editor()

    def _on_dialog_submitted(self, text: str, why: str) -> None:
        if self._dialog is not None:
            self._jobs.spawn(self.save_edit(self._dialog, text, why), name="agent-steering-edit")

    def _on_dialog_finished(self, _result: int) -> None:
        dialog, self._dialog = self._dialog, None
        if dialog is not None:
            dialog.deleteLater()

    def _on_reflect_button_clicked(self) -> None:
        self._jobs.spawn(self.reflect_now(), name="agent-reflect-now")

    def _on_clear_button_clicked(self) -> None:
        self._jobs.spawn(self.revert(0), name="agent-steering-revert")

    def _on_revert_button_clicked(self) -> None:
        target = self.selected()
        if target is not None:
            self._jobs.spawn(self.revert(target.version), name="agent-steering-revert")
