"""The chat's delegate: paints a row (your message right-aligned, an answer left-aligned with its progress folded
under it) and says where a row's parts go, for painting, sizes and clicks."""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QRectF,
    QSize,
    Qt,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QPen,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from openhuman_desktop.qt.intelligence.chat import markdown as chat_markdown
from openhuman_desktop.qt.intelligence.chat.model import ANSWER, CARD, NOTE, USER, ChatModel, ChatRow
from openhuman_desktop.qt.intelligence.status_dot import pulse_alpha
from openhuman_desktop.qt.intelligence.theme import accent, blend, is_dark, muted
from openhuman_desktop.qt.intelligence.time_text import clock_time, exact_time

_AnyIndex = QModelIndex | QPersistentModelIndex

DOCUMENT_CACHE = 150        # rendered documents kept (a few screens of answers)
USER_SHARE = 0.74           # a bubble of yours is at most this share of the width
ANSWER_SHARE = 0.90
NOTE_TEXT = "✓ You said go ahead: {}"
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
        from openhuman_desktop.qt.intelligence.chat.view import ChatListView  # (the view imports this module)

        view = self._view
        return view.row_width() if isinstance(view, ChatListView) else view.viewport().width()

    def geometry(self, row: ChatRow, rect: QRect, *, expanded: bool) -> RowGeometry:
        """Where the parts of ``row`` go in ``rect``."""
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
        """The row's size at the current width."""
        row: ChatRow | None = index.data(ChatModel.RowRole)
        if row is None:
            return QSize(0, 0)
        width = self.row_width()
        rect = QRect(0, 0, width, 10)
        geometry = self.geometry(row, rect, expanded=bool(index.data(ChatModel.ExpandedRole)))
        return QSize(width, geometry.height)

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,  # noqa: N802 (Qt override)
                             index: _AnyIndex) -> None:
        """Place a card's widget on its row."""
        row: ChatRow | None = index.data(ChatModel.RowRole)
        if row is None:
            return
        editor.setGeometry(self.geometry(row, option.rect, expanded=False).bubble)

    # --- painting -------------------------------------------------------------------------------

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _AnyIndex) -> None:
        """Paint the row."""
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
        """The exact time of your message as its tooltip."""
        row: ChatRow | None = index.data(ChatModel.RowRole)
        if row is not None and row.created_at and row.kind == USER:
            view.setToolTip(f"Sent {exact_time(row.created_at)}")
        return bool(super().helpEvent(event, view, option, index))  # type: ignore[arg-type]
