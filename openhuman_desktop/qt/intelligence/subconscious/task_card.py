"""The interactive task row (switch, intent chip, delete button) and the task context menu."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QColor,
    QContextMenuEvent,
    QEnterEvent,
    QHelpEvent,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QMenu,
    QStyle,
    QStyleOptionFocusRect,
    QStyleOptionToolButton,
    QToolButton,
    QToolTip,
    QWidget,
)

from openhuman_desktop.qt.intelligence.badge import badge_colors, badge_size, paint_badge
from openhuman_desktop.qt.intelligence.subconscious.task_layout import TOGGLE_TIP, RowLayout
from openhuman_desktop.qt.intelligence.subconscious.task_model import (
    INTENT_HELP,
    INTENT_WORDS,
    SOURCE_HELP,
    SOURCE_WORDS,
    SUGGESTION_WORDS,
    details_text,
    intent_tip,
    intent_words,
    is_assistant_task,
    row_description,
    suggestion_tip,
    suggestion_words,
)
from openhuman_desktop.qt.intelligence.theme import accent, scale_font
from openhuman_desktop.qt.intelligence.toggle_switch import ToggleSwitch
from openhuman_desktop.store import Task

DELETE_TIP = "Delete this task"


class IntentChip(QToolButton):
    """The intent of a task ("Read only ▾"): a flat tool button that opens the intent menu."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("intentChip")
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setAutoRaise(True)
        self.setFont(scale_font(self.font(), 0.9))

    def style_option(self) -> QStyleOptionToolButton:
        """How the button would be drawn now (the delegate paints rows without a real chip with it)."""
        option = QStyleOptionToolButton()
        self.initStyleOption(option)
        return option


SUGGESTION_ACCENT = "amber"


def suggestion_colors(palette: QPalette) -> tuple[QPen, QColor]:
    """The pen and fill of the "May write?" badge (amber: something to decide, not an error)."""
    return badge_colors(accent(SUGGESTION_ACCENT, palette))


class SuggestionButton(QAbstractButton):
    """"May write?": the one-click confirm of a read-only task that the model or its words would let write.

    Painted as the badge the row paints where no card is (``paint_badge``), so hovering a row changes nothing
    on screen; a click (or Space with the focus on it) lets the task write.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("intentSuggestion")
        self.setText(SUGGESTION_WORDS)
        self.setFont(scale_font(self.font(), 0.85, bold=True))
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setFocusPolicy(Qt.FocusPolicy.TabFocus)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return badge_size(self.fontMetrics(), self.text())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt override)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen, fill = suggestion_colors(self.palette())
        if self.isDown() or self.underMouse():
            fill.setAlphaF(min(1.0, fill.alphaF() * 2))
        if not self.isEnabled():
            pen.setColor(self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText))
        paint_badge(painter, self.rect(), self.text(), self.font(), pen, fill)
        if self.hasFocus():
            option = QStyleOptionFocusRect()
            option.initFrom(self)
            self.style().drawPrimitive(QStyle.PrimitiveElement.PE_FrameFocusRect, option, painter, self)


def make_delete_button(parent: QWidget) -> QToolButton:
    button = QToolButton(parent)
    button.setAutoRaise(True)
    icon = button.style().standardIcon(QStyle.StandardPixmap.SP_TrashIcon)
    if icon.isNull():
        button.setText("✕")
    else:
        button.setIcon(icon)
    button.setAccessibleName("Delete task")
    button.setToolTip(DELETE_TIP)
    return button


def source_line(task: Task) -> str:
    """The first line of an intent menu: where the intent came from ("Set by keywords")."""
    return f"Set by {SOURCE_WORDS.get(task.intent_source, task.intent_source)}"


def add_source_line(menu: QMenu, task: Task) -> QAction:
    """A disabled line at the top of an intent menu saying where the intent came from, then a separator."""
    action = menu.addAction(source_line(task))
    action.setEnabled(False)
    action.setToolTip(SOURCE_HELP.get(task.intent_source, ""))
    menu.addSeparator()
    return action


def add_intent_actions(menu: QMenu, current: str) -> dict[str, QAction]:
    """One checkable action per intent (``data()`` is the intent), ``current`` checked, exclusive."""
    group = QActionGroup(menu)
    actions: dict[str, QAction] = {}
    for intent, words in INTENT_WORDS.items():
        action = menu.addAction(words)
        action.setCheckable(True)
        action.setChecked(intent == current)
        action.setToolTip(INTENT_HELP[intent])
        action.setData(intent)
        group.addAction(action)
        actions[intent] = action
    return actions


HEARTBEAT_RENAME_TIP = "This task comes from HEARTBEAT.md; edit its line in that file to rename it."


def task_menu(parent: QWidget, task: Task, *, on_toggle: Callable[[], None], on_intent: Callable[[str], None],
              on_delete: Callable[[], None], on_rename: Callable[[], None] = lambda: None,
              on_schedule: Callable[[], None] = lambda: None, on_rule: Callable[[], None] = lambda: None) -> QMenu:
    """The context menu of a task: on/off, intent, rename, schedule, its rule (what it watches and does),
    delete (user tasks), copy the title."""
    menu = QMenu(parent)
    menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    menu.setToolTipsVisible(True)
    toggle = menu.addAction("Switch off" if task.enabled else "Switch on")
    toggle.triggered.connect(on_toggle)
    intents = menu.addMenu("Intent")
    intents.setToolTipsVisible(True)
    add_source_line(intents, task)
    add_intent_actions(intents, task.intent)
    intents.triggered.connect(lambda action: on_intent(str(action.data())))
    if suggestion_words(task):
        confirm = menu.addAction("Let it write (May write?)")
        confirm.setToolTip(suggestion_tip(task))
        confirm.triggered.connect(lambda: on_intent("write"))
    if task.origin == "heartbeat_md":
        rename = menu.addAction("Rename in HEARTBEAT.md")
        rename.setEnabled(False)
        rename.setToolTip(HEARTBEAT_RENAME_TIP)
    else:
        rename = menu.addAction("Rename…")
        rename.setShortcut(QKeySequence(Qt.Key.Key_F2))
        rename.triggered.connect(on_rename)
    schedule = menu.addAction("Schedule…")
    schedule.triggered.connect(on_schedule)
    rule = menu.addAction("When and what…")
    rule.setToolTip("What this task watches, what it waits for and what the assistant does then")
    rule.triggered.connect(on_rule)
    if not task.is_system:
        delete = menu.addAction("Delete")
        delete.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        delete.triggered.connect(on_delete)
    menu.addSeparator()
    copy = menu.addAction("Copy title")
    copy.setShortcut(QKeySequence(QKeySequence.StandardKey.Copy))
    copy.triggered.connect(lambda: copy_title(task))
    return menu


def is_menu_key(event: QKeyEvent) -> bool:
    """Shift+F10: the keyboard's other way to open a context menu (the Menu key sends its own event)."""
    return event.key() == Qt.Key.Key_F10 and event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier \
        == Qt.KeyboardModifier.ShiftModifier


def copy_title(task: Task) -> None:
    clipboard = QApplication.clipboard()
    if clipboard is not None:
        clipboard.setText(task.title)


def show_tooltip(event: QHelpEvent, text: str, widget: QWidget, rect: QRect | None = None) -> None:
    """Show ``text`` as the tooltip for ``event`` (while the mouse stays in ``rect``); no text hides it."""
    if text:
        QToolTip.showText(event.globalPos(), text, widget, QRect() if rect is None else rect)
    else:
        QToolTip.hideText()


class TaskCard(QWidget):
    """The interactive row on top of the hovered or current task: switch, intent menu, delete, context menu.

    It paints nothing itself (the delegate paints the row below it); its controls sit exactly where the
    delegate paints their pictures, and it is told about its task by the view (``set_task``).
    """

    enabled_toggled = Signal(str, bool)
    delete_requested = Signal(str)
    intent_chosen = Signal(str, str)
    rename_requested = Signal(str)
    schedule_requested = Signal(str)
    rule_requested = Signal(str)
    entered = Signal(str)
    pressed = Signal(str)
    pinned_changed = Signal()   # a menu of this card opened or closed

    def __init__(self, task: Task, delegate: RowLayout, now: Callable[[], float], home: QWidget,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("taskCard")
        self._delegate = delegate
        self._home = home   # where the focus goes when this row's focused control is disabled
        self._now = now
        self._task = task
        self._error = ""
        self._hovered = False
        self._menus_open = 0
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.toggle = ToggleSwitch(self)
        self.toggle.setToolTip(TOGGLE_TIP)
        self.toggle.toggled.connect(self._on_toggle_toggled)
        self.intent_button = IntentChip(self)
        menu = QMenu(self.intent_button)
        menu.setToolTipsVisible(True)
        self._source_action = add_source_line(menu, task)
        self._intent_actions = add_intent_actions(menu, task.intent)
        menu.triggered.connect(self._on_intent_menu_triggered)
        self._watch_menu(menu)
        self.intent_button.setMenu(menu)
        self.suggestion_button = SuggestionButton(self)
        self.suggestion_button.clicked.connect(self._on_suggestion_button_clicked)
        self.delete_button = make_delete_button(self)
        self.delete_button.clicked.connect(self._on_delete_button_clicked)
        self.set_task(task)

    @property
    def task(self) -> Task:
        return self._task

    @property
    def is_pinned(self) -> bool:
        """A menu of this card is open: the card must stay."""
        return self._menus_open > 0

    @property
    def error(self) -> str:
        return self._error

    def set_task(self, task: Task, *, busy: bool = False, error: str = "") -> None:
        """Show a new snapshot of the task (while busy, the controls keep what the user just chose)."""
        self._task = task
        self._error = error
        title = task.title
        words = intent_words(task)
        self.setAccessibleName(f"Task: {title}")
        self.setAccessibleDescription(row_description(task, self._now(), error))
        self.toggle.setVisible(not task.is_system)
        self.toggle.setAccessibleName(f"Enable task {title}")
        self.delete_button.setAccessibleName(f"Delete task {title}")
        self.intent_button.setText(words)
        self.intent_button.setAccessibleName(f"Intent of task {title}: {words}")
        self.intent_button.setToolTip(intent_tip(task))
        self._source_action.setText(source_line(task))
        self._source_action.setToolTip(SOURCE_HELP.get(task.intent_source, ""))
        self.suggestion_button.setVisible(bool(suggestion_words(task)))
        self.suggestion_button.setToolTip(suggestion_tip(task))
        self.suggestion_button.setAccessibleName(f"Let task {title} write")
        self.suggestion_button.setAccessibleDescription(suggestion_tip(task))
        if not busy:
            self.toggle.blockSignals(True)
            self.toggle.setChecked(task.enabled)
            self.toggle.blockSignals(False)
            action = self._intent_actions.get(task.intent)
            if action is not None:
                action.setChecked(True)
        self.set_busy(busy)
        self._place()
        self._update_delete_visibility()

    def set_busy(self, busy: bool) -> None:
        """Disable the controls while a change is in flight."""
        if busy and self.has_focus_inside():
            # A disabled widget passes the focus on to the next one in the window: keep it in the list.
            self._home.setFocus(Qt.FocusReason.OtherFocusReason)
        for control in (self.toggle, self.delete_button, self.intent_button, self.suggestion_button):
            control.setEnabled(not busy)

    def refresh_times(self) -> None:
        self._place()
        self.setAccessibleDescription(row_description(self._task, self._now(), self._error))

    def _place(self) -> None:
        width = self.width() if self.width() > 0 else self._delegate.row_width()
        geometry = self._delegate.geometry(self._task, self._error, width)
        metrics = self._delegate.metrics()
        suggestion = suggestion_words(self._task)
        _, _, chip = metrics.details_and_chip(geometry, details_text(self._task, self._now()),
                                              intent_words(self._task), is_assistant=is_assistant_task(self._task))
        self.intent_button.setGeometry(chip)
        if suggestion:
            self.suggestion_button.setGeometry(metrics.suggestion_rect(chip))
        if geometry.toggle is not None:
            self.toggle.setGeometry(geometry.toggle)
        if geometry.delete is not None:
            self.delete_button.setGeometry(geometry.delete)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        self._place()

    # --- hover and focus reveal the delete button -----------------------------------------------

    @property
    def is_hovered(self) -> bool:
        return self._hovered

    def set_hovered(self, on: bool) -> None:
        if on != self._hovered:
            self._hovered = on
            self._update_delete_visibility()

    def tab_stops(self) -> list[QWidget]:
        """The controls Tab visits, in order."""
        suggestion: list[QWidget] = [self.suggestion_button] if suggestion_words(self._task) else []
        if self._task.is_system:
            return [self.intent_button, *suggestion]
        return [self.toggle, self.intent_button, *suggestion, self.delete_button]

    def set_tab_stops(self, on: bool) -> None:
        """Only the current row's controls are in the Tab order (a hovered row's are for the mouse)."""
        self.toggle.setFocusPolicy(Qt.FocusPolicy.StrongFocus if on else Qt.FocusPolicy.ClickFocus)
        for button in (self.intent_button, self.suggestion_button, self.delete_button):
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus if on else Qt.FocusPolicy.NoFocus)

    def has_focus_inside(self) -> bool:
        focus = QApplication.focusWidget()
        return focus is not None and (focus is self or self.isAncestorOf(focus))

    def _update_delete_visibility(self) -> None:
        focused = any(w.hasFocus() for w in (self.toggle, self.delete_button, self.intent_button,
                                             self.suggestion_button))
        self.delete_button.setVisible(not self._task.is_system and (self._hovered or focused))

    def on_focus_changed(self) -> None:
        """Keyboard focus moved into or out of this card (the delete button shows while it is inside)."""
        self._update_delete_visibility()

    def enterEvent(self, event: QEnterEvent) -> None:  # noqa: N802 (Qt override)
        self.set_hovered(True)
        self.entered.emit(self._task.id)
        super().enterEvent(event)

    def leaveEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        self.set_hovered(False)
        super().leaveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        if event.button() == Qt.MouseButton.LeftButton:
            self.pressed.emit(self._task.id)
        super().mousePressEvent(event)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt override)
        event.ignore()   # the page scrolls

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            show_tooltip(event, self._delegate.metrics().tooltip_at(self._task, event.pos(), self.width(),
                                                                     self._error, self._now()), self)
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() == Qt.Key.Key_Delete and not self._task.is_system:
            self.delete_requested.emit(self._task.id)
            return
        if event.key() == Qt.Key.Key_F2 and self._task.origin != "heartbeat_md":
            self.rename_requested.emit(self._task.id)
            return
        if is_menu_key(event):
            focus = QApplication.focusWidget() or self
            self.contextMenuEvent(QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, focus.rect().center(),
                                                    focus.mapToGlobal(focus.rect().center())))
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 (Qt override)
        task_id = self._task.id
        menu = task_menu(self, self._task, on_toggle=self._on_toggle_action_triggered,
                         on_intent=self._choose_intent, on_delete=self._on_delete_button_clicked,
                         on_rename=lambda: self.rename_requested.emit(task_id),
                         on_schedule=lambda: self.schedule_requested.emit(task_id),
                         on_rule=lambda: self.rule_requested.emit(task_id))
        self._watch_menu(menu)
        menu.popup(event.globalPos())

    def _watch_menu(self, menu: QMenu) -> None:
        """While ``menu`` is open the card is pinned (it must outlive the hover that opened it)."""
        menu.aboutToShow.connect(self._on_menu_about_to_show)
        menu.aboutToHide.connect(self._on_menu_about_to_hide)

    # --- slots ----------------------------------------------------------------------------------

    def _on_toggle_toggled(self, checked: bool) -> None:
        self.enabled_toggled.emit(self._task.id, checked)

    def _on_toggle_action_triggered(self) -> None:
        self.enabled_toggled.emit(self._task.id, not self._task.enabled)

    def _on_delete_button_clicked(self) -> None:
        self.delete_requested.emit(self._task.id)

    def _on_intent_menu_triggered(self, action: QAction) -> None:
        self._choose_intent(str(action.data()))

    def _on_suggestion_button_clicked(self) -> None:
        self._choose_intent("write")

    def _choose_intent(self, intent: str) -> None:
        if intent in INTENT_WORDS and intent != self._task.intent:
            self.intent_chosen.emit(self._task.id, intent)

    def _on_menu_about_to_show(self) -> None:
        self._menus_open += 1
        self.pinned_changed.emit()

    def _on_menu_about_to_hide(self) -> None:
        self._menus_open = max(0, self._menus_open - 1)
        self.pinned_changed.emit()
