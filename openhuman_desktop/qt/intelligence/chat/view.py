"""The Chat tab's message list: a delegate that paints bubbles (Markdown answers, cached) and its list view.

No widget per message: rows are painted. Only pending approval cards are real widgets (index widgets, the
same ``ApprovalCard`` as the Subconscious tab), because they are few and must be usable with the keyboard.
"""

from __future__ import annotations

import logging
import math
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QPointF,
    QRect,
    QRectF,
    QSize,
    Qt,
    QTimer,
    QUrl,
    Signal,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QContextMenuEvent,
    QDesktopServices,
    QFont,
    QFontMetrics,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPalette,
    QPen,
    QResizeEvent,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFrame,
    QListView,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.chat import markdown as chat_markdown
from openhuman_desktop.qt.intelligence.chat.model import ANSWER, CARD, NOTE, USER, ChatModel, ChatRow
from openhuman_desktop.qt.intelligence.status_dot import pulse_alpha
from openhuman_desktop.qt.intelligence.subconscious.approvals import ApprovalCard, InputWatch
from openhuman_desktop.qt.intelligence.theme import accent, blend, is_dark, muted
from openhuman_desktop.qt.intelligence.time_text import clock_time, exact_time

log = logging.getLogger(__name__)

_AnyIndex = QModelIndex | QPersistentModelIndex
Action = Callable[[str], Awaitable[object]]
DOCUMENT_CACHE = 150        # rendered documents kept (a few screens of answers)
PULSE_MS = 90
LAYOUT_BATCH = 5
BATCHED_MS = 400            # how long the rows are laid out in batches after every row needed measuring
USER_SHARE = 0.74           # a bubble of yours is at most this share of the width
ANSWER_SHARE = 0.90
NOTE_TEXT = "✓ You said go ahead: {}"
LINK_SCHEMES = ("http", "https", "mailto")
RESOLVED_WORDS = {"approved": "Approved", "dismissed": "Skipped", "expired": "Expired"}


@dataclass(frozen=True)
class RowGeometry:
    """Where the parts of a row go, relative to the row's rectangle (shared by paint, size and clicks)."""

    bubble: QRect
    text: QRect
    details: QRect
    retry: QRect
    height: int
    doc_width: int = 0


class ChatDelegate(QStyledItemDelegate):
    """Paints a row: your message right-aligned, an answer left-aligned with its progress folded under it."""

    def __init__(self, view: QListView) -> None:
        super().__init__(view)
        self._view = view
        self._documents: OrderedDict[str, tuple[tuple[int, int, bool, str], QTextDocument]] = OrderedDict()
        self.now: Callable[[], float] | None = None
        self.painted: Callable[[ChatRow], None] | None = None   # a bench's hook: a row was painted

    # --- measures -------------------------------------------------------------------------------

    def _pad(self) -> int:
        return max(4, self._view.fontMetrics().height() // 3)

    def _small_font(self) -> QFont:
        font = QFont(self._view.font())
        if font.pointSizeF() > 0:
            font.setPointSizeF(font.pointSizeF() * 0.88)
        return font

    def document(self, row: ChatRow, width: int) -> QTextDocument:
        """The row's text laid out at ``width`` (cached per text version, width and theme)."""
        palette = self._view.palette()
        key = (row.version, width, is_dark(palette), self._view.font().toString())
        cached = self._documents.get(row.key)
        if cached is not None and cached[0] == key:
            self._documents.move_to_end(row.key)
            return cached[1]
        if cached is not None and cached[0][0] == row.version and cached[0][2:] == key[2:]:
            document = cached[1]   # only the width changed: lay it out again, no parsing
        else:
            document = chat_markdown.render(row.text, self._view.font(), palette, markdown=row.kind == ANSWER)
            document.setProperty("is_wide", row.kind == ANSWER and chat_markdown.has_wide_blocks(document))
        document.setTextWidth(width)
        self._documents[row.key] = (key, document)
        self._documents.move_to_end(row.key)
        while len(self._documents) > DOCUMENT_CACHE:
            self._documents.popitem(last=False)
        return document

    def forget(self) -> None:
        """Drop every rendered document (the theme or the font changed)."""
        self._documents.clear()

    def row_width(self) -> int:
        """The width rows are laid out at: the same with the scroll bar shown or not (see ``ChatListView``)."""
        view = self._view
        return view.row_width() if isinstance(view, ChatListView) else view.viewport().width()

    def geometry(self, row: ChatRow, rect: QRect, *, expanded: bool) -> RowGeometry:
        rect = QRect(rect.left(), rect.top(), self.row_width(), rect.height())
        pad = self._pad()
        side = pad * 3
        width = max(80, rect.width() - side * 2)
        inner_x = pad * 3 // 2 + 2
        inner_y = pad + 2
        fm = self._view.fontMetrics()
        small = QFontMetrics(self._small_font())
        top = rect.top() + pad
        empty = QRect()
        if row.kind == CARD:
            card = self._card_widget(row)
            room = round(width * ANSWER_SHARE)
            if card is not None and row.is_pending_card:
                height = card.heightForWidth(room) if card.hasHeightForWidth() else card.sizeHint().height()
                bubble = QRect(rect.left() + side, top, room, max(height, fm.height() * 4))
            else:
                bubble = QRect(rect.left() + side, top, room, fm.height() + pad * 2)
            return RowGeometry(bubble, bubble.adjusted(inner_x, pad, -inner_x, -pad), empty, empty,
                               bubble.height() + pad * 2)
        if row.kind == NOTE:
            line = small.height()
            note = QRect(rect.left() + side, top, width, line * 2 if small.horizontalAdvance(
                NOTE_TEXT.format(row.text)) > width else line)
            return RowGeometry(note, note, empty, empty, note.height() + pad * 2)
        share = USER_SHARE if row.kind == USER else ANSWER_SHARE
        max_inner = max(40, round(width * share) - inner_x * 2)
        if row.kind == ANSWER and not row.text:
            text_w, text_h = min(max_inner, fm.horizontalAdvance("●●●  " + row.working_words() + "…") + 4), fm.height()
        else:
            document = self.document(row, max_inner)
            # A bubble fits its text; one with code or a table keeps the full width (their tint spans it).
            wide = bool(document.property("is_wide")) or row.is_working   # no jitter while it streams
            text_w = max_inner if wide else min(max_inner, math.ceil(document.idealWidth()) + 1)
            text_h = math.ceil(document.size().height())
        bubble_w = max(text_w + inner_x * 2, fm.height() * 3)
        bubble_h = text_h + inner_y * 2
        left = rect.right() - side - bubble_w + 1 if row.kind == USER else rect.left() + side
        bubble = QRect(left, top, bubble_w, bubble_h)
        text = QRect(left + inner_x, top + inner_y, text_w, text_h)
        height = bubble_h + pad * 2
        details = retry = empty
        if row.kind == ANSWER:
            line = small.height()
            lines = 1 + (len(row.detail_lines()) if expanded and not row.is_working else 0)
            details = QRect(rect.left() + side + 2, bubble.bottom() + 1 + pad // 2,
                            max(bubble_w, round(width * 0.6)), line * lines)
            if row.is_failed:
                retry_w = small.horizontalAdvance("↻ Try again") + pad * 2
                retry = QRect(details.left(), details.top(), retry_w, line)
            height += details.height() + pad // 2
        return RowGeometry(bubble, text, details, retry, height, max_inner)

    def _card_widget(self, row: ChatRow) -> QWidget | None:
        model = self._view.model()
        if not isinstance(model, ChatModel):
            return None
        where = model.find(row.key)
        return self._view.indexWidget(model.index(where, 0)) if where is not None else None

    def sizeHint(self, option: QStyleOptionViewItem, index: _AnyIndex) -> QSize:  # noqa: N802 (Qt override)
        row: ChatRow | None = index.data(ChatModel.RowRole)
        if row is None:
            return QSize(0, 0)
        width = self.row_width()
        rect = QRect(0, 0, width, 10)
        geometry = self.geometry(row, rect, expanded=bool(index.data(ChatModel.ExpandedRole)))
        return QSize(width, geometry.height)

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,  # noqa: N802 (Qt override)
                             index: _AnyIndex) -> None:
        row: ChatRow | None = index.data(ChatModel.RowRole)
        if row is None:
            return
        editor.setGeometry(self.geometry(row, option.rect, expanded=False).bubble)

    # --- painting -------------------------------------------------------------------------------

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _AnyIndex) -> None:
        row: ChatRow | None = index.data(ChatModel.RowRole)
        if row is None:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self._view.palette()
        rect = option.rect
        expanded = bool(index.data(ChatModel.ExpandedRole))
        geometry = self.geometry(row, rect, expanded=expanded)
        has_focus = bool(option.state & QStyle.StateFlag.State_HasFocus) and self._view.hasFocus()
        if row.kind == CARD:
            if not row.is_pending_card:
                self._paint_resolved_card(painter, row, geometry, palette)
        elif row.kind == NOTE:
            painter.setFont(self._small_font())
            painter.setPen(muted(palette))
            painter.drawText(geometry.text, int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter
                                                | Qt.TextFlag.TextWordWrap), NOTE_TEXT.format(row.text))
        else:
            self._paint_bubble(painter, row, geometry, palette, option.rect)
            if row.kind == ANSWER:
                self._paint_details(painter, row, geometry, palette, expanded=expanded)
        if has_focus:
            pen = QPen(palette.color(QPalette.ColorRole.Highlight))
            pen.setWidthF(2.0)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            radius = self._radius()
            painter.drawRoundedRect(QRectF(geometry.bubble).adjusted(-2, -2, 2, 2), radius + 2, radius + 2)
        painter.restore()
        if self.painted is not None:
            self.painted(row)

    def _radius(self) -> float:
        return max(8.0, self._view.fontMetrics().height() * 0.6)

    def bubble_colors(self, row: ChatRow, palette: QPalette) -> tuple[QColor, QColor, QColor | None]:
        """Fill, text colour and border of a row's bubble for ``palette``."""
        base = palette.color(QPalette.ColorRole.Base)
        text = palette.color(QPalette.ColorRole.Text)
        dark = is_dark(palette)
        if row.kind == USER:
            fill = blend(base, palette.color(QPalette.ColorRole.Highlight), 0.30 if dark else 0.16)
            return fill, text, None
        if row.status == "cancelled":   # stopped (by you, or with the app): not an error, a quieter border
            return blend(base, text, 0.07 if dark else 0.045), text, blend(base, text, 0.35 if dark else 0.30)
        if row.is_failed:
            coral = accent("coral", palette)
            return blend(base, coral, 0.12 if dark else 0.07), text, coral
        fill = blend(base, text, 0.07 if dark else 0.045)
        return fill, text, blend(base, text, 0.14 if dark else 0.10)

    def _paint_bubble(self, painter: QPainter, row: ChatRow, geometry: RowGeometry, palette: QPalette,
                      clip: QRect) -> None:
        fill, text_color, border = self.bubble_colors(row, palette)
        radius = self._radius()
        painter.setPen(QPen(border, 1.0) if border is not None else Qt.PenStyle.NoPen)
        painter.setBrush(fill)
        painter.drawRoundedRect(QRectF(geometry.bubble).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
        if row.kind == ANSWER and not row.text:
            self._paint_working(painter, row, geometry.text, palette)
            return
        document = self.document(row, geometry.doc_width)
        painter.translate(geometry.text.topLeft())
        context = QAbstractTextDocumentLayout.PaintContext()
        context_palette = QPalette(palette)
        context_palette.setColor(QPalette.ColorRole.Text, text_color)
        context.palette = context_palette
        visible = self._view.viewport().rect().intersected(clip).translated(-geometry.text.topLeft())
        context.clip = QRectF(visible)
        painter.setClipRect(visible)
        document.documentLayout().draw(painter, context)
        painter.setClipping(False)
        painter.translate(-geometry.text.topLeft())

    def _paint_working(self, painter: QPainter, row: ChatRow, rect: QRect, palette: QPalette) -> None:
        fm = self._view.fontMetrics()
        side = max(6, round(fm.height() * 0.42))
        color = accent("blue", palette)
        x = rect.left()
        cy = rect.top() + rect.height() / 2
        for n in range(3):
            dot = QColor(color)
            dot.setAlphaF(max(0.2, pulse_alpha(1.2 + 0.25 * n) - 0.15 * n))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(dot)
            painter.drawEllipse(QRectF(x, cy - side / 2, side, side))
            x += side + side // 2 + 1
        painter.setPen(muted(palette))
        painter.setFont(self._view.font())
        words = f"{row.working_words()}…"
        painter.drawText(QRect(round(x) + side, rect.top(), rect.right() - round(x), rect.height()),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), words)

    def _paint_details(self, painter: QPainter, row: ChatRow, geometry: RowGeometry, palette: QPalette, *,
                       expanded: bool) -> None:
        font = self._small_font()
        painter.setFont(font)
        fm = QFontMetrics(font)
        line = fm.height()
        quiet = muted(palette)
        rect = geometry.details
        x = rect.left()
        if row.is_failed:
            link = palette.color(QPalette.ColorRole.Link)
            painter.setPen(link)
            painter.drawText(geometry.retry, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                             "↻ Try again")
            x = geometry.retry.right() + 1
        painter.setPen(quiet)
        if row.is_working:
            summary = f"{row.working_words()}…" if row.text else ""
            if row.nodes:
                summary = (summary + " · " if summary else "") + f"step {len(row.nodes)}"
        else:
            arrow = "▾" if expanded else "▸"
            summary = f"{arrow} {row.details()}"
        when = clock_time(row.created_at, self.now()) if self.now is not None and row.created_at else ""
        if when and not row.is_working:
            summary = f"{summary} · {when}"
        painter.drawText(QRect(x, rect.top(), rect.right() - x, line),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         fm.elidedText(summary, Qt.TextElideMode.ElideRight, max(10, rect.right() - x)))
        if expanded and not row.is_working:
            for n, text in enumerate(row.detail_lines(), 1):
                painter.drawText(QRect(rect.left() + fm.horizontalAdvance("▸ "), rect.top() + line * n,
                                       rect.width(), line),
                                 int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)

    def _paint_resolved_card(self, painter: QPainter, row: ChatRow, geometry: RowGeometry,
                             palette: QPalette) -> None:
        esc = row.escalation
        status = esc.status if esc is not None else row.status
        color = accent("green" if status == "approved" else "grey", palette)
        base = palette.color(QPalette.ColorRole.Base)
        painter.setPen(QPen(blend(base, color, 0.6), 1.0))
        painter.setBrush(blend(base, color, 0.08))
        radius = self._radius()
        painter.drawRoundedRect(QRectF(geometry.bubble).adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
        words = RESOLVED_WORDS.get(status, status.capitalize())
        mark = "✓" if status == "approved" else "–"
        painter.setPen(palette.color(QPalette.ColorRole.Text))
        painter.setFont(self._view.font())
        fm = self._view.fontMetrics()
        # A conversation's card is titled with the question; what was approved is its action.
        title = (esc.description or esc.title) if esc is not None else row.text
        text = fm.elidedText(f"{mark}  {words}: {title}", Qt.TextElideMode.ElideRight, geometry.text.width())
        painter.drawText(geometry.text, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)

    def helpEvent(self, event: object, view: QAbstractItemView, option: QStyleOptionViewItem,  # noqa: N802
                  index: _AnyIndex) -> bool:
        row: ChatRow | None = index.data(ChatModel.RowRole)
        if row is not None and row.created_at and row.kind == USER:
            view.setToolTip(f"Sent {exact_time(row.created_at)}")
        return bool(super().helpEvent(event, view, option, index))  # type: ignore[arg-type]


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
