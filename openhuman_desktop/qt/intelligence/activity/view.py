"""The Activity Log's list view and its section (filter, paging, the in-progress pulse)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import (
    QHideEvent,
    QKeyEvent,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QListView,
    QVBoxLayout,
    QWidget,
)

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.activity.delegate import ActivityDelegate
from openhuman_desktop.qt.intelligence.activity.model import (
    POLL_MS,
    PULSE_MS,
    ActivityModel,
    AnyIndex,
    Escalations,
    Fetch,
)
from openhuman_desktop.qt.intelligence.muted_label import EmptyState, MutedLabel
from openhuman_desktop.qt.intelligence.row_changes import repaint_changed_rows
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.theme import em
from openhuman_desktop.store import Escalation, LogEntry

log = logging.getLogger(__name__)


class ActivityListView(QListView):
    """The log's list: click, Space or Enter expands a long result; in-progress dots pulse while visible."""

    def __init__(self, now: Callable[[], float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("activityList")
        self.setAccessibleName("Activity log")
        self.setUniformItemSizes(True)   # until a row is expanded (_follow_expanded)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setMouseTracking(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.activity_delegate = ActivityDelegate(self, now)
        self.setItemDelegate(self.activity_delegate)
        self.clicked.connect(self._on_self_clicked)
        self._pulse = QTimer(self)
        self._pulse.setInterval(PULSE_MS)
        self._pulse.timeout.connect(self._on_pulse_timeout)
        self._last_width = 0
        self._hidden: set[str] = set()   # ids of the rows hidden in folded failure groups

    def activity_model(self) -> ActivityModel:
        model = self.model()
        assert isinstance(model, ActivityModel)
        return model

    def setModel(self, model: Any) -> None:  # noqa: N802 (Qt override)
        super().setModel(model)
        if isinstance(model, ActivityModel):   # expanded rows can leave with a reload or a trim
            model.modelReset.connect(self._on_model_model_reset)
            model.rowsRemoved.connect(self._on_model_rows_gone)
            model.rowsInserted.connect(self._on_model_rows_inserted)

    def _on_model_model_reset(self) -> None:
        self._hidden.clear()   # QListView forgets hidden rows on a reset
        self._on_model_rows_gone()

    def _on_model_rows_gone(self, *_args: object) -> None:
        self._follow_expanded()
        self.sync_folded()

    def _on_model_rows_inserted(self, *_args: object) -> None:
        self.sync_folded()

    def sync_folded(self) -> None:
        """Hide the rows folded failure groups stand for, show the ones that are no longer folded."""
        model = self.activity_model()
        want = model.folded_rows()
        if not want and not self._hidden:
            return
        rows = model.current_rows()
        for entry_id in self._hidden.difference(want):
            row = rows.get(entry_id)
            if row is not None:
                self.setRowHidden(row, False)
        for entry_id in set(want).difference(self._hidden):
            self.setRowHidden(want[entry_id], True)
        self._hidden = set(want)

    def visible_rows(self) -> range:
        model = self.model()
        if model is None or model.rowCount() == 0:
            return range(0)
        viewport = self.viewport().rect()
        first = self.indexAt(viewport.topLeft())
        last = self.indexAt(viewport.bottomLeft())
        start = first.row() if first.isValid() else 0
        end = last.row() if last.isValid() else model.rowCount() - 1
        return range(start, end + 1)

    def visible_in_progress(self) -> list[int]:
        if not self.isVisible():
            return []
        return self.activity_model().in_progress_rows(self.visible_rows())

    def set_pulsing(self, on: bool) -> None:
        if on and not self._pulse.isActive():
            self._pulse.start()
        elif not on:
            self._pulse.stop()

    @property
    def is_pulsing(self) -> bool:
        return self._pulse.isActive()

    def _on_pulse_timeout(self) -> None:
        model = self.activity_model()
        for row in self.visible_in_progress():
            self.viewport().update(self.visualRect(model.index(row, 0)))

    def toggle_row(self, row: int) -> None:
        model = self.activity_model()
        model.toggle_expanded(row)
        self._follow_expanded()
        self.activity_delegate.sizeHintChanged.emit(model.index(row, 0))

    def _follow_expanded(self) -> None:
        """Rows share one height until one is expanded: then the list measures each (5,000 rows cost ~20 ms)."""
        uniform = not self.activity_model().has_expanded
        if uniform != self.uniformItemSizes():
            self.setUniformItemSizes(uniform)
            self.scheduleDelayedItemsLayout()

    def dataChanged(self, top_left: AnyIndex, bottom_right: AnyIndex,  # noqa: N802 (Qt override)
                    roles: Sequence[int] = ()) -> None:
        # A row changes height only when it is expanded (its text may have grown): see below.
        repaint_changed_rows(self, top_left, bottom_right, roles)
        self.sync_folded()
        model = self.activity_model()
        if model.has_expanded and any(model.is_expanded(row) for row in range(top_left.row(), bottom_right.row() + 1)):
            self.scheduleDelayedItemsLayout()

    def _on_self_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            self.toggle_row(index.row())

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            index = self.currentIndex()
            if index.isValid():
                self.toggle_row(index.row())
                return
        super().keyPressEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        if event.size().width() != self._last_width:
            self._last_width = event.size().width()
            self.scheduleDelayedItemsLayout()


class ActivityView(QWidget):
    """The Activity Log section: header, list, empty and error states, the fallback poll."""

    def __init__(self, fetch: Fetch, now: Callable[[], float], jobs: Jobs, parent: QWidget | None = None, *,
                 escalations: Escalations | None = None) -> None:
        super().__init__(parent)
        self._jobs = jobs
        self._escalations = escalations
        self.model = ActivityModel(fetch, jobs, now=now, parent=self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        pad = max(4, em(self) // 3)
        layout.setSpacing(pad)
        header = QHBoxLayout()
        self.header = SectionHeader("Activity Log", self)
        header.addWidget(self.header)
        header.addStretch(1)
        self.hint_label = MutedLabel("Newest first · click a row to read all of it", self, factor=0.9)
        self.hint_label.setAccessibleName("Activity log hint")
        header.addWidget(self.hint_label)
        layout.addLayout(header)
        self.error_label = ErrorLabel(self)
        layout.addWidget(self.error_label)
        self.list_view = ActivityListView(now, self)
        self.list_view.setModel(self.model)
        layout.addWidget(self.list_view, 1)
        self.empty_label = EmptyState(
            "No activity yet.\nThe assistant looks at your tasks on every tick — press Run Now to start one.", self
        )
        self.empty_label.setAccessibleName("No activity yet")
        self.empty_label.hide()
        layout.addWidget(self.empty_label, 1)
        self.footer_label = MutedLabel("", self, factor=0.9)
        self.footer_label.setAccessibleName("Activity log footer")
        self.footer_label.hide()
        layout.addWidget(self.footer_label)
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._on_poll_timeout)
        self._check = QTimer(self)
        self._check.setSingleShot(True)
        self._check.setInterval(0)
        self._check.timeout.connect(self._on_check_timeout)
        for signal in (self.model.rowsInserted, self.model.rowsRemoved, self.model.dataChanged,
                       self.model.modelReset):
            signal.connect(self._on_model_changed)
        self.model.load_state_changed.connect(self._on_model_load_state_changed)
        self.list_view.verticalScrollBar().valueChanged.connect(self._on_model_changed)

    # --- data -----------------------------------------------------------------------------------

    async def refresh(self) -> None:
        """Reload the newest page, then when the escalations on it were approved or skipped."""
        await self.model.load_first_page()
        if self._escalations is None:
            return
        try:
            resolved = [*await self._escalations("approved"), *await self._escalations("dismissed")]
        except UserFacingError as exc:
            log.info("could not read resolved escalations: %s", exc)
            return
        self.model.set_resolutions(resolved)

    def on_escalation_changed(self, escalation: Escalation) -> None:
        self.model.on_escalation_changed(escalation)

    def on_activity_batch(self, entries: list[LogEntry]) -> None:
        self.model.merge(entries)

    # --- states ---------------------------------------------------------------------------------

    def _on_model_load_state_changed(self) -> None:
        model = self.model
        if model.error:
            prefix = "Could not load older activity" if model.is_error_on_more else "Could not load the activity log"
            self.error_label.show_text(f"{prefix}: {model.error}")
        else:
            self.error_label.clear_text()
        empty = model.is_loaded and model.rowCount() == 0
        self.empty_label.setVisible(empty)
        self.list_view.setVisible(not empty)
        if model.is_at_limit and model.has_more:
            self.footer_label.setText(f"Showing the newest {model.limit:,} entries; older ones stay in the database.")
            self.footer_label.show()
        else:
            self.footer_label.hide()
        self._on_model_changed()

    def _on_model_changed(self, *_args: object) -> None:
        if not self._check.isActive():
            self._check.start()

    def _on_check_timeout(self) -> None:
        empty = self.model.is_loaded and self.model.rowCount() == 0
        self.empty_label.setVisible(empty)
        self.list_view.setVisible(not empty)
        self.update_timers()

    def update_timers(self) -> None:
        """Pulse and poll only while an in-progress row is on screen (no polling when idle)."""
        active = self.isVisible() and bool(self.list_view.visible_in_progress())
        self.list_view.set_pulsing(active)
        if active and not self._poll.isActive():
            self._poll.start()
        elif not active:
            self._poll.stop()

    @property
    def is_polling(self) -> bool:
        return self._poll.isActive()

    def _on_poll_timeout(self) -> None:
        self._jobs.spawn(self.model.poll_in_progress(), name="activity-poll", group="activity-poll")

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 (Qt override)
        super().showEvent(event)
        self._on_model_changed()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 (Qt override)
        super().hideEvent(event)
        self._poll.stop()
        self.list_view.set_pulsing(False)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        # The hint goes rather than being cut off mid-word in a narrow window (the list's tooltips stay).
        needed = self.header.sizeHint().width() + self.hint_label.sizeHint().width() + em(self)
        self.hint_label.setVisible(event.size().width() >= needed)
