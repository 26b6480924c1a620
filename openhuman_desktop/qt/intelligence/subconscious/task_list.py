"""The Active Tasks list view: painted rows, an interactive card on the hovered and the current row, keys."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QContextMenuEvent, QCursor, QEnterEvent, QKeyEvent, QKeySequence, QMouseEvent, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QApplication, QFrame, QListView, QScrollArea, QWidget

from openhuman_desktop.qt.intelligence.row_changes import repaint_changed_rows
from openhuman_desktop.qt.intelligence.subconscious.task_card import TaskCard, copy_title, is_menu_key, task_menu
from openhuman_desktop.qt.intelligence.subconscious.task_layout import ROW_GAP
from openhuman_desktop.qt.intelligence.subconscious.task_model import AnyIndex, TaskListModel
from openhuman_desktop.qt.intelligence.subconscious.task_row import TaskDelegate
from openhuman_desktop.store import Task

LAYOUT_BATCH = 100          # rows laid out per event-loop turn (~1 ms)


class TaskListView(QListView):
    """The task rows, as tall as its content: the window's scroll area around it does the scrolling.

    Only visible rows are painted. The hovered row, and the current row while the focus is in the list,
    get a real ``TaskCard``. Keys: arrows move between rows, Space switches the current user task on or
    off, Delete deletes it, the menu key (or Shift+F10) opens its menu, Ctrl+C copies its title, Tab goes
    on into the current row's controls.
    """

    enabled_toggled = Signal(str, bool)
    delete_requested = Signal(str)
    intent_chosen = Signal(str, str)
    rename_requested = Signal(str)
    schedule_requested = Signal(str)
    rule_requested = Signal(str)

    def __init__(self, model: TaskListModel, now: Callable[[], float], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("taskList")
        self.setAccessibleName("Active tasks")
        self.setAccessibleDescription("Arrow keys move between tasks; Space switches one on or off; Delete deletes"
                                      " it; the menu key opens its menu")
        self._cards: dict[str, TaskCard] = {}
        self._hover_id: str | None = None
        self._current_id: str | None = None
        self._is_focus_inside = False
        self._is_restoring = False
        self._last_width = 0
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setUniformItemSizes(False)
        self.setLayoutMode(QListView.LayoutMode.Batched)   # LAYOUT_BATCH rows per event-loop turn
        self.setBatchSize(LAYOUT_BATCH)
        self.setSpacing(0)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        self.viewport().setAutoFillBackground(False)   # the window colour shows through, as behind cards
        self.setAutoFillBackground(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._sync_timer = QTimer(self)
        self._sync_timer.setSingleShot(True)
        self._sync_timer.setInterval(0)
        self._sync_timer.timeout.connect(self._on_sync_timer_timeout)
        self.task_delegate = TaskDelegate(self, model, now, cards=self)
        self.setItemDelegate(self.task_delegate)
        self.setModel(model)
        self.setFixedHeight(0)
        model.row_shape_changed.connect(self._on_model_row_shape_changed)
        model.rowsInserted.connect(self._schedule_sync)
        model.rowsRemoved.connect(self._schedule_sync)
        model.rowsMoved.connect(self._schedule_sync)
        model.modelReset.connect(self._schedule_sync)

    def task_model(self) -> TaskListModel:
        model = self.model()
        assert isinstance(model, TaskListModel)
        return model

    # --- cards ----------------------------------------------------------------------------------

    def card(self, task_id: str) -> TaskCard | None:
        """The open interactive row of a task (only the hovered and the current row have one)."""
        return self._cards.get(task_id)

    def open_cards(self) -> list[TaskCard]:
        return list(self._cards.values())

    def is_highlighted(self, task_id: str) -> bool:
        if task_id == self._hover_id:
            return True
        card = self._cards.get(task_id)
        return card is not None and card.has_focus_inside()

    def card_created(self, card: TaskCard) -> None:
        self._cards[card.task.id] = card
        card.enabled_toggled.connect(self.enabled_toggled)
        card.delete_requested.connect(self.delete_requested)
        card.intent_chosen.connect(self.intent_chosen)
        card.rename_requested.connect(self.rename_requested)
        card.schedule_requested.connect(self.schedule_requested)
        card.rule_requested.connect(self.rule_requested)
        card.entered.connect(self._on_card_entered)
        card.pressed.connect(self._on_card_pressed)
        card.pinned_changed.connect(self._schedule_sync)

    def card_destroyed(self, card: TaskCard) -> None:
        if self._cards.get(card.task.id) is card:
            del self._cards[card.task.id]
        if card.has_focus_inside():
            self.setFocus(Qt.FocusReason.OtherFocusReason)   # not to whatever widget comes next
        self.viewport().update()

    def open_row(self, task_id: str) -> TaskCard | None:
        """Open the interactive row of a task now (as the mouse does on hover); ``None`` if unknown."""
        if self.task_model().row_of(task_id) is None:
            return None
        self.set_hover(task_id)
        self._sync_cards()
        return self._cards.get(task_id)

    def _wanted(self) -> set[str]:
        wanted = {task_id for task_id, card in self._cards.items() if card.is_pinned or card.has_focus_inside()}
        if self._hover_id is not None:
            wanted.add(self._hover_id)
        if self._is_focus_inside and self._current_id is not None:
            wanted.add(self._current_id)
        return wanted

    def _sync_cards(self) -> None:
        model = self.task_model()
        wanted = {task_id for task_id in self._wanted() if model.row_of(task_id) is not None}
        for task_id in [tid for tid in self._cards if tid not in wanted]:
            index = model.index_of(task_id)
            card = self._cards.pop(task_id)
            if index.isValid() and self.isPersistentEditorOpen(index):
                self.closePersistentEditor(index)
            else:
                card.hide()
                card.deleteLater()
        for task_id in wanted:
            if task_id not in self._cards:
                self._open(task_id)
        current = self._cards.get(self._current_id or "")
        for task_id, card in self._cards.items():
            card.set_hovered(task_id == self._hover_id)
            card.set_tab_stops(card is current)
        if current is not None:   # Tab goes from the list into the current row's controls
            previous: QWidget = self
            for control in current.tab_stops():
                QWidget.setTabOrder(previous, control)
                previous = control

    def _open(self, task_id: str) -> None:
        index = self.task_model().index_of(task_id)
        if index.isValid():
            self.openPersistentEditor(index)

    def _schedule_sync(self, *_args: object) -> None:
        if not self._sync_timer.isActive():
            self._sync_timer.start()

    def _on_sync_timer_timeout(self) -> None:
        self._restore_current()
        self._sync_cards()

    # --- hover ----------------------------------------------------------------------------------

    @property
    def hover_id(self) -> str | None:
        return self._hover_id

    def set_hover(self, task_id: str | None) -> None:
        if task_id == self._hover_id:
            return
        previous, self._hover_id = self._hover_id, task_id
        for tid in (previous, task_id):
            self._update_row(tid)
        self._sync_cards()

    def _update_row(self, task_id: str | None) -> None:
        if task_id is None:
            return
        index = self.task_model().index_of(task_id)
        if index.isValid():
            self.update(index)

    def _task_id_at(self, pos: QPoint) -> str | None:
        index = self.indexAt(pos)
        if not index.isValid():
            return None
        rect = self.visualRect(index)
        if pos.y() > rect.bottom() - ROW_GAP:
            return None
        return self.task_model().task_at(index.row()).id

    def _recheck_hover(self) -> None:
        """Which row is under the mouse now that rows moved under it (scrolled, laid out, grown)."""
        if not self.isVisible() or not self.window().underMouse():
            return
        where = QCursor.pos()
        viewport = self.viewport()
        under = QApplication.widgetAt(where)
        inside = under is not None and (under is viewport or viewport.isAncestorOf(under))
        self.set_hover(self._task_id_at(viewport.mapFromGlobal(where)) if inside else None)

    def _on_card_entered(self, task_id: str) -> None:
        self.set_hover(task_id)

    def _on_card_pressed(self, task_id: str) -> None:
        index = self.task_model().index_of(task_id)
        if index.isValid():
            self.setCurrentIndex(index)
            self.setFocus(Qt.FocusReason.MouseFocusReason)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        self.set_hover(self._task_id_at(event.position().toPoint()))
        super().mouseMoveEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        kind = event.type()
        if kind == QEvent.Type.Leave:
            self.set_hover(None)
        elif kind == QEvent.Type.Enter:   # e.g. the window opened under a still mouse: no move comes
            if isinstance(event, QEnterEvent):
                self.set_hover(self._task_id_at(event.position().toPoint()))
            else:
                QTimer.singleShot(0, self._recheck_hover)
        elif kind == QEvent.Type.Wheel:
            QTimer.singleShot(0, self._recheck_hover)   # the page scrolls under a still mouse
        return super().viewportEvent(event)

    # --- focus and the current row ----------------------------------------------------------------

    def on_focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        """The application's focus moved (TasksView forwards ``QApplication.focusChanged``)."""
        inside = new is not None and (new is self or self.isAncestorOf(new))
        card = self._card_of(new)
        if card is not None:
            index = self.task_model().index_of(card.task.id)
            if index.isValid() and index != self.currentIndex():
                self._is_restoring = True   # the row is on screen already: no scrolling
                try:
                    self.setCurrentIndex(index)
                finally:
                    self._is_restoring = False
        for widget in (old, new):
            owner = self._card_of(widget)
            if owner is not None:
                owner.on_focus_changed()
        if inside != self._is_focus_inside:
            self._is_focus_inside = inside
            self._update_row(self._current_id)
        self._schedule_sync()

    def _card_of(self, widget: QWidget | None) -> TaskCard | None:
        while widget is not None and widget is not self:
            if isinstance(widget, TaskCard):
                return widget if self._cards.get(widget.task.id) is widget else None
            widget = widget.parentWidget()
        return None

    @property
    def current_id(self) -> str | None:
        return self._current_id

    def current_task(self) -> Task | None:
        index = self.currentIndex()
        return self.task_model().task_at(index.row()) if index.isValid() else None

    def select_task(self, task_id: str) -> bool:
        """Make a task the current row (and scroll the page to it)."""
        index = self.task_model().index_of(task_id)
        if not index.isValid():
            return False
        self.setCurrentIndex(index)
        return True

    def currentChanged(self, current: AnyIndex, previous: AnyIndex) -> None:  # noqa: N802 (Qt override)
        super().currentChanged(current, previous)
        if current.isValid():
            self._current_id = self.task_model().task_at(current.row()).id
        self._schedule_sync()

    def _restore_current(self) -> None:
        """After a reset or removal, the current row is the same task again (or a neighbour)."""
        if self._current_id is None:
            return
        index = self.task_model().index_of(self._current_id)
        if index.isValid() and index != self.currentIndex():
            self._is_restoring = True
            try:
                self.selectionModel().setCurrentIndex(index, self.selectionModel().SelectionFlag.NoUpdate)
            finally:
                self._is_restoring = False
        elif not index.isValid():
            current = self.currentIndex()
            self._current_id = self.task_model().task_at(current.row()).id if current.isValid() else None

    def scrollTo(self, index: AnyIndex,  # noqa: N802 (Qt override)
                 hint: QAbstractItemView.ScrollHint = QAbstractItemView.ScrollHint.EnsureVisible) -> None:
        """The list never scrolls itself; the page around it scrolls to the row instead."""
        if self._is_restoring or not index.isValid():
            return
        area = self._page()
        inner = None if area is None else area.widget()
        if area is None or inner is None:
            return
        rect = self.visualRect(self.task_model().index(index.row(), 0))
        top = self.viewport().mapTo(inner, rect.topLeft())
        margin = rect.height() // 2 + 2
        area.ensureVisible(top.x() + rect.width() // 2, top.y() + rect.height() // 2, 0, margin)

    def _page(self) -> QScrollArea | None:
        widget = self.parentWidget()
        while widget is not None:
            if isinstance(widget, QScrollArea):
                return widget
            widget = widget.parentWidget()
        return None

    def moveCursor(self, action: QAbstractItemView.CursorAction,  # noqa: N802 (Qt override)
                   modifiers: Qt.KeyboardModifier) -> QModelIndex:
        pages = (QAbstractItemView.CursorAction.MovePageUp, QAbstractItemView.CursorAction.MovePageDown)
        area = self._page()
        current = self.currentIndex()
        if action not in pages or area is None or not current.isValid():
            return super().moveCursor(action, modifiers)
        rect = self.visualRect(current)
        step = max(1, area.viewport().height() - rect.height())
        y = rect.center().y() + (step if action == QAbstractItemView.CursorAction.MovePageDown else -step)
        y = max(0, min(self.viewport().height() - 1, y))
        index = self.indexAt(QPoint(rect.center().x(), y))
        return QModelIndex(index) if index.isValid() else super().moveCursor(action, modifiers)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        task = self.current_task()
        key = event.key()
        plain = not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        if task is not None and plain and key == Qt.Key.Key_Space:
            if not task.is_system:
                self.toggle_current()
            return
        if task is not None and plain and key == Qt.Key.Key_Delete:
            if not task.is_system:
                self.delete_requested.emit(task.id)
            return
        if task is not None and event.matches(QKeySequence.StandardKey.Copy):
            copy_title(task)
            return
        if task is not None and plain and key == Qt.Key.Key_F2:
            if task.origin != "heartbeat_md":
                self.rename_requested.emit(task.id)
            return
        if task is not None and is_menu_key(event):
            self.contextMenuEvent(QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, QPoint(0, 0),
                                                    self.mapToGlobal(QPoint(0, 0))))
            return
        super().keyPressEvent(event)

    def toggle_current(self) -> None:
        """Space: switch the current user task on or off (with its real switch when it has one)."""
        task = self.current_task()
        if task is None or task.is_system or self.task_model().is_busy(task.id):
            return
        card = self._cards.get(task.id)
        if card is not None and card.toggle.isEnabled():
            card.toggle.click()
        else:
            self.enabled_toggled.emit(task.id, not task.enabled)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 (Qt override)
        if event.reason() == QContextMenuEvent.Reason.Keyboard:
            index = self.currentIndex()
            position = self.viewport().mapToGlobal(self.visualRect(index).center()) if index.isValid() else None
        else:
            index = self.indexAt(self.viewport().mapFromGlobal(event.globalPos()))
            position = event.globalPos()
        if not index.isValid() or position is None:
            return
        task = self.task_model().task_at(index.row())
        task_id = task.id
        menu = task_menu(self, task, on_toggle=lambda: self.enabled_toggled.emit(task_id, not task.enabled),
                         on_intent=lambda intent: self._choose_intent(task_id, intent),
                         on_delete=lambda: self.delete_requested.emit(task_id),
                         on_rename=lambda: self.rename_requested.emit(task_id),
                         on_schedule=lambda: self.schedule_requested.emit(task_id),
                         on_rule=lambda: self.rule_requested.emit(task_id))
        menu.popup(position)

    def _choose_intent(self, task_id: str, intent: str) -> None:
        task = self.task_model().task(task_id)
        if task is not None and task.intent != intent:
            self.intent_chosen.emit(task_id, intent)

    # --- size: as tall as the rows ------------------------------------------------------------------

    def updateGeometries(self) -> None:  # noqa: N802 (Qt override)
        super().updateGeometries()
        model = self.model()
        rows = model.rowCount() if isinstance(model, TaskListModel) else 0
        height = max(0, self.contentsSize().height()) if rows else 0
        if height != self.height():
            self.setFixedHeight(height)
        if self._hover_id is None and self.isVisible() and self.window().underMouse():
            QTimer.singleShot(0, self._recheck_hover)   # rows just arrived under a still mouse

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        if event.size().width() != self._last_width:
            self._last_width = event.size().width()
            self.task_delegate.set_row_width(self.viewport().width())
            self.scheduleDelayedItemsLayout()   # titles wrap differently

    def _on_model_row_shape_changed(self) -> None:
        self.scheduleDelayedItemsLayout()

    def dataChanged(self, top_left: AnyIndex, bottom_right: AnyIndex,  # noqa: N802 (Qt override)
                    roles: Sequence[int] = ()) -> None:
        # Rows change height only when the model says so (row_shape_changed).
        repaint_changed_rows(self, top_left, bottom_right, roles)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange, QEvent.Type.PaletteChange,
                            QEvent.Type.ApplicationPaletteChange, QEvent.Type.ApplicationFontChange):
            self.retheme()
        super().changeEvent(event)

    def retheme(self) -> None:
        """The font, style or palette changed: measure and paint again."""
        self.task_delegate.invalidate()
        self.scheduleDelayedItemsLayout()
        self.refresh_times()

    def refresh_times(self) -> None:
        """Times are computed when painting: repaint what is on screen."""
        for card in self._cards.values():
            card.refresh_times()
        self.viewport().update()
