"""The Chat tab's message list: a delegate that paints bubbles (Markdown answers, cached) and its list view.

No widget per message: rows are painted. Only pending approval cards are real widgets (index widgets, the
same ``ApprovalCard`` as the Subconscious tab), because they are few and must be usable with the keyboard.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QPointF,
    Qt,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QContextMenuEvent,
    QDesktopServices,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFrame,
    QListView,
    QMenu,
    QStyle,
    QWidget,
)

from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.chat.delegate import ChatDelegate
from openhuman_desktop.qt.intelligence.chat.model import ANSWER, CARD, ChatModel
from openhuman_desktop.qt.intelligence.subconscious.approvals import ApprovalCard, InputWatch

log = logging.getLogger(__name__)

_AnyIndex = QModelIndex | QPersistentModelIndex
Action = Callable[[str], Awaitable[object]]
PULSE_MS = 90
LAYOUT_BATCH = 5
BATCHED_MS = 400            # how long the rows are laid out in batches after every row needed measuring
LINK_SCHEMES = ("http", "https", "mailto")


class ChatListView(QListView):
    """The message list. Up/Down move between messages; Space or Enter folds an answer's progress in or out;
    R tries a failed answer again; Ctrl+C copies the message. It follows the bottom while you are there."""

    retry_requested = Signal(str)           # run id
    fix_in_skills_requested = Signal(str)   # skill name
    cards_changed = Signal()                # card widgets came or went (the tab puts them in the Tab order)

    def __init__(self, jobs: Jobs, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatList")
        self.setAccessibleName("Conversation")
        self.setAccessibleDescription("Your messages and the assistant's answers. Space shows an answer's steps, "
                                      "R tries a failed answer again, Ctrl+C copies a message.")
        self._jobs = jobs
        self.setUniformItemSizes(False)
        self.setBatchSize(LAYOUT_BATCH)
        self._single_pass = QTimer(self)
        self._single_pass.setSingleShot(True)
        self._single_pass.setInterval(BATCHED_MS)
        self._single_pass.timeout.connect(self._on_single_pass_timeout)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setMouseTracking(True)
        self.setWordWrap(True)
        self.viewport().setAutoFillBackground(False)
        self.verticalScrollBar().setSingleStep(max(8, self.fontMetrics().height()))
        self.chat_delegate = ChatDelegate(self)
        self.setItemDelegate(self.chat_delegate)
        self.open_url: Callable[[QUrl], object] = QDesktopServices.openUrl   # tests put a recorder here
        self._approve: Action | None = None
        self._dismiss: Action | None = None
        self._skills: Callable[[], dict[str, str]] = dict
        self._watch = InputWatch(self, is_active=False)
        self._is_at_bottom = True
        self._last_width = 0
        self._pulse = QTimer(self)
        self._pulse.setInterval(PULSE_MS)
        self._pulse.timeout.connect(self._on_pulse_timeout)
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._on_bar_value_changed)
        bar.rangeChanged.connect(self._on_bar_range_changed)

    def set_actions(self, approve: Action, dismiss: Action, skills: Callable[[], dict[str, str]]) -> None:
        """What Go ahead and Skip on a card do (the hub's approve / dismiss)."""
        self._approve, self._dismiss, self._skills = approve, dismiss, skills

    def chat_model(self) -> ChatModel:
        model = self.model()
        assert isinstance(model, ChatModel)
        return model

    def setModel(self, model: object) -> None:  # noqa: N802 (Qt override)
        super().setModel(model)  # type: ignore[arg-type]
        if isinstance(model, ChatModel):
            model.card_rows_changed.connect(self.sync_cards)
            model.rowsInserted.connect(self._on_model_rows_inserted)
            model.modelReset.connect(self._on_model_model_reset)
            model.dataChanged.connect(self._on_model_data_changed)

    # --- cards as widgets -----------------------------------------------------------------------

    def card(self, escalation_id: str) -> ApprovalCard | None:
        where = self.chat_model().find(f"c:{escalation_id}")
        if where is None:
            return None
        widget = self.indexWidget(self.chat_model().index(where, 0))
        return widget if isinstance(widget, ApprovalCard) else None

    def cards(self) -> list[ApprovalCard]:
        """The cards with buttons, top to bottom."""
        model = self.chat_model()
        found = []
        for number, row in enumerate(model.rows()):
            if row.kind == CARD:
                widget = self.indexWidget(model.index(number, 0))
                if isinstance(widget, ApprovalCard):
                    found.append(widget)
        return found

    def sync_cards(self) -> None:
        """Give every pending card row its ApprovalCard, and take it from rows that were resolved."""
        model = self.chat_model()
        has_cards = False
        for number, row in enumerate(model.rows()):
            if row.kind != CARD:
                continue
            index = model.index(number, 0)
            widget = self.indexWidget(index)
            if row.is_pending_card and row.escalation is not None:
                has_cards = True
                if widget is None and self._approve is not None and self._dismiss is not None:
                    card = ApprovalCard(row.escalation, approve=self._approve, dismiss=self._dismiss, jobs=self._jobs,
                                        watch=self._watch)
                    card.fix_in_skills_requested.connect(self.fix_in_skills_requested)
                    card.origin_label.hide()   # "from the conversation in the desktop chat": it is right here
                    # Decided here, or resolved elsewhere while busy and closed: its row says so from now on.
                    card.decided.connect(self._on_card_done)
                    card.closed.connect(self._on_card_done)
                    self.setIndexWidget(index, card)
                    self.chat_delegate.sizeHintChanged.emit(index)
            elif isinstance(widget, ApprovalCard):
                if widget.is_busy and row.escalation is not None:
                    widget.mark_resolved(row.escalation.status)   # its own action decides when it goes
                    has_cards = True
                    continue
                focused = QApplication.focusWidget()
                if focused is not None and (focused is widget or widget.isAncestorOf(focused)):
                    # A neutral place, never another card's button (see ApprovalsView._drop).
                    self.setFocus(Qt.FocusReason.OtherFocusReason)
                self.setIndexWidget(index, None)  # type: ignore[arg-type]  # None is allowed: the view deletes it
                self.chat_delegate.sizeHintChanged.emit(index)
        self._watch.set_active(has_cards)
        self.cards_changed.emit()

    def _on_card_done(self, *_args: object) -> None:
        QTimer.singleShot(0, self.sync_cards)   # not inside the card's own signal: sync_cards deletes it

    def measure_in_batches(self) -> None:
        """Every row needs measuring (a history loaded, a new width): lay them out a few per pass of the loop
        for a moment (50 long answers at once held it ~140 ms), then one row at a time again (a streamed
        piece is then on screen in the next pass, not after the batches above it)."""
        self.setLayoutMode(QListView.LayoutMode.Batched)
        self._single_pass.start()

    def _on_single_pass_timeout(self) -> None:
        self.setLayoutMode(QListView.LayoutMode.SinglePass)

    def _on_model_model_reset(self) -> None:
        self.measure_in_batches()
        self.chat_delegate.forget()
        self._is_at_bottom = True
        QTimer.singleShot(0, self.scrollToBottom)

    def _on_model_rows_inserted(self, *_args: object) -> None:
        if self._is_at_bottom:
            self.scrollToBottom()
        self.update_pulse()

    def _on_model_data_changed(self, *_args: object) -> None:
        self.update_pulse()

    # --- following the bottom -------------------------------------------------------------------

    def _on_bar_value_changed(self, value: int) -> None:
        bar = self.verticalScrollBar()
        self._is_at_bottom = value >= bar.maximum() - 4

    def _on_bar_range_changed(self, _low: int, high: int) -> None:
        if self._is_at_bottom:
            self.verticalScrollBar().setValue(high)

    def scroll_to_end(self) -> None:
        """Show the newest message and follow the bottom again."""
        self._is_at_bottom = True
        self.scrollToBottom()

    @property
    def is_at_bottom(self) -> bool:
        return self._is_at_bottom

    def dataChanged(self, top_left: _AnyIndex, bottom_right: _AnyIndex,  # noqa: N802 (Qt override)
                    roles: Sequence[int] = ()) -> None:
        super().dataChanged(top_left, bottom_right, list(roles))
        # The row may have grown (streamed text, an unfolded answer): lay the rows out again (sizes are cached).
        self.scheduleDelayedItemsLayout()

    # --- the working dots -----------------------------------------------------------------------

    def update_pulse(self) -> None:
        model = self.model()
        working = isinstance(model, ChatModel) and model.working_count > 0 and self.isVisible()
        if working and not self._pulse.isActive():
            self._pulse.start()
        elif not working:
            self._pulse.stop()

    def stop_pulse(self) -> None:
        self._pulse.stop()

    @property
    def is_pulsing(self) -> bool:
        return self._pulse.isActive()

    def _on_pulse_timeout(self) -> None:
        model = self.chat_model()
        viewport = self.viewport().rect()
        for number, row in enumerate(model.rows()):
            if row.is_working and not row.text:
                rect = self.visualRect(model.index(number, 0))
                if rect.intersects(viewport):
                    self.viewport().update(rect)

    # --- keyboard and mouse ---------------------------------------------------------------------

    def toggle_row(self, row: int) -> None:
        model = self.chat_model()
        if model.row(row).kind == ANSWER and not model.row(row).is_working:
            model.toggle_expanded(row)

    def retry_row(self, row: int) -> bool:
        chat_row = self.chat_model().row(row)
        if chat_row.is_failed and chat_row.run_id:
            self.retry_requested.emit(chat_row.run_id)
            return True
        return False

    def copy_row(self, row: int) -> str:
        chat_row = self.chat_model().row(row)
        text = chat_row.text if chat_row.kind != CARD or chat_row.escalation is None else (
            f"{chat_row.escalation.title}\n{chat_row.escalation.description}")
        clipboard = QGuiApplication.clipboard()
        if clipboard is not None:
            clipboard.setText(text)
        return text

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        index = self.currentIndex()
        if index.isValid():
            if event.matches(QKeySequence.StandardKey.Copy):
                self.copy_row(index.row())
                return
            if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.toggle_row(index.row())
                return
            if event.key() == Qt.Key.Key_R and not event.modifiers() and self.retry_row(index.row()):
                return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802 (Qt override)
        index = self.indexAt(event.pos())
        if not index.isValid():
            return
        self.setCurrentIndex(index)
        row = index.row()
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        copy = menu.addAction("Copy message")
        copy.setShortcut(QKeySequence(QKeySequence.StandardKey.Copy))
        copy.triggered.connect(lambda: self.copy_row(row))
        if self.chat_model().row(row).is_failed:
            again = menu.addAction("Try again")
            again.setShortcut(QKeySequence("R"))
            again.triggered.connect(lambda: self.retry_row(row))
        menu.popup(event.globalPos())   # not exec(): no nested loop inside the qasync loop

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        super().mouseReleaseEvent(event)
        if event.button() != Qt.MouseButton.LeftButton:
            return
        point = event.position().toPoint()
        index = self.indexAt(point)
        if not index.isValid():
            return
        row = self.chat_model().row(index.row())
        geometry = self.chat_delegate.geometry(row, self.visualRect(index),
                                               expanded=self.chat_model().is_expanded(index.row()))
        if row.is_failed and geometry.retry.contains(point):
            self.retry_row(index.row())
        elif geometry.details.contains(point):
            self.toggle_row(index.row())
        else:
            link = self.link_at(point)
            if link:
                self.open_url(QUrl(link))

    def link_at(self, point: QPoint) -> str:
        """The web address of the link in an answer under ``point`` ("" when there is none)."""
        index = self.indexAt(point)
        if not index.isValid():
            return ""
        row = self.chat_model().row(index.row())
        if row.kind != ANSWER or not row.text:
            return ""
        geometry = self.chat_delegate.geometry(row, self.visualRect(index),
                                               expanded=self.chat_model().is_expanded(index.row()))
        if not geometry.text.contains(point):
            return ""
        document = self.chat_delegate.document(row, geometry.doc_width)
        anchor = document.documentLayout().anchorAt(QPointF(point - geometry.text.topLeft()))
        # Only web addresses open (in the browser); a file: or javascript: link in model text does nothing.
        return anchor if QUrl(anchor).scheme() in LINK_SCHEMES else ""

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        super().mouseMoveEvent(event)
        point = event.position().toPoint()
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor if self._is_clickable(point)
                                  else Qt.CursorShape.ArrowCursor)

    def _is_clickable(self, point: QPoint) -> bool:
        index = self.indexAt(point)
        if not index.isValid():
            return False
        row = self.chat_model().row(index.row())
        if row.kind != ANSWER:
            return False
        geometry = self.chat_delegate.geometry(row, self.visualRect(index),
                                               expanded=self.chat_model().is_expanded(index.row()))
        return (not row.is_working and geometry.details.contains(point)) or bool(self.link_at(point))

    def row_width(self) -> int:
        """The width the rows are laid out at: the list's width less room for the scroll bar, whether it is
        shown or not.

        Were it the viewport's width, the scroll bar coming (the conversation outgrew the list) would narrow
        the rows, which measures them all again, in batches; the first batch fits, so the bar goes, the rows
        widen, are measured again … for ever: no row past the first batch was placed and the tab stayed
        white (seen after a failed answer's long sentence, and after every restart with that history).
        """
        bar = self.verticalScrollBar()
        overlays = self.style().styleHint(QStyle.StyleHint.SH_ScrollBar_Transient, None, bar)   # takes no room
        return max(0, self.contentsRect().width() - (0 if overlays else bar.sizeHint().width()))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt override)
        super().resizeEvent(event)
        width = self.row_width()
        if width != self._last_width:   # not when only the scroll bar came or went
            self._last_width = width
            self.measure_in_batches()
            self.scheduleDelayedItemsLayout()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange, QEvent.Type.FontChange):
            self.chat_delegate.forget()
            self.measure_in_batches()
            self.scheduleDelayedItemsLayout()
        super().changeEvent(event)
