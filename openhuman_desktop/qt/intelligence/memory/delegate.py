"""The Memory tab's delegate: a memory painted as a few lines of text, a quiet line and badges."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QListView, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from openhuman_desktop.memory.store import EVICTED_TAG, Memory
from openhuman_desktop.qt.intelligence.badge import badge_colors, badge_size, paint_badge
from openhuman_desktop.qt.intelligence.memory.model import MemoryModel
from openhuman_desktop.qt.intelligence.theme import accent, muted, scale_font
from openhuman_desktop.qt.intelligence.time_text import clock_time

TEXT_LINES = 3

_AnyIndex = QModelIndex | QPersistentModelIndex

MATCH_WORDS = {"text": "words", "vector": "meaning"}   # how a search found a memory, in the user's words


def vector_badge(memory: Memory, model: str | None) -> tuple[str, str] | None:
    """The badge saying whether ``memory`` has a vector of the embedding model ``model`` (None: no model, no
    badge): ``(text, accent)``."""
    if model is None:
        return None
    if memory.vector_model == model:
        return "vector", "green"
    if memory.vector_model is None:
        return "no vector yet", "grey"
    return "old model's vector", "grey"


def badges(memory: Memory, model: str | None) -> list[tuple[str, str]]:
    """The badges of one row: evicted, how a search matched it, whether it has a vector."""
    shown: list[tuple[str, str]] = []
    if memory.is_evicted:
        shown.append(("evicted", "amber"))
    if memory.matched_by:
        shown.append(("matched: " + " + ".join(MATCH_WORDS.get(how, how) for how in memory.matched_by), "blue"))
    vector = vector_badge(memory, model)
    if vector is not None:
        shown.append(vector)
    return shown


class MemoryDelegate(QStyledItemDelegate):
    """A memory as up to three lines of text and a quiet line with source, time and tags, and badges on its
    right: evicted, how a search matched it, whether it has a vector of the embedding model."""

    def __init__(self, view: QListView, now: Callable[[], float],
                 model: Callable[[], str | None] = lambda: None) -> None:
        super().__init__(view)
        self._view = view
        self._now = now
        self._model = model

    def _layout(self, option: QStyleOptionViewItem, memory: Memory) -> tuple[QFont, QFontMetrics, int, int, int]:
        font = QFont(option.font)
        fm = QFontMetrics(font)
        pad = max(4, fm.height() // 3)
        width = max(60, self._view.viewport().width() - pad * 6)
        bounds = fm.boundingRect(QRect(0, 0, width, fm.height() * TEXT_LINES), int(Qt.TextFlag.TextWordWrap),
                                 memory.text)
        text_h = min(fm.height() * TEXT_LINES, max(fm.height(), bounds.height()))
        return font, fm, pad, width, text_h

    def sizeHint(self, option: QStyleOptionViewItem, index: _AnyIndex) -> QSize:
        memory = index.data(MemoryModel.MemoryRole)
        if memory is None:
            return QSize(0, 0)
        _, fm, pad, width, text_h = self._layout(option, memory)
        return QSize(width, pad * 3 + text_h + fm.height())

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _AnyIndex) -> None:
        memory: Memory | None = index.data(MemoryModel.MemoryRole)
        if memory is None:
            return
        font, fm, pad, width, text_h = self._layout(option, memory)
        rect: QRect = option.rect
        palette: QPalette = option.palette
        state = option.state
        painter.save()
        selected = bool(state & QStyle.StateFlag.State_Selected)
        if selected:
            painter.fillRect(rect, palette.color(QPalette.ColorRole.Highlight))
        text_color = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        painter.setFont(font)
        painter.setPen(text_color)
        box = QRect(rect.left() + pad * 3, rect.top() + pad, width, text_h)
        text = memory.text
        lines = fm.boundingRect(QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), text).height()
        if lines > text_h:   # cut to the lines that fit, ending with an ellipsis
            text = fm.elidedText(" ".join(text.split()), Qt.TextElideMode.ElideRight, width * TEXT_LINES - width // 3)
        painter.drawText(box, int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignTop), text)
        tags = "   " + "  ".join(f"#{tag}" for tag in memory.tags if tag != EVICTED_TAG) if memory.tags else ""
        meta = f"{memory.source} · {clock_time(memory.created_at, self._now())}{tags}"
        small = scale_font(font, 0.85)
        small_fm = QFontMetrics(small)
        right = box.left() + width
        line_top = box.bottom() + pad
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for text, accent_name in reversed(badges(memory, self._model())):
            size = badge_size(small_fm, text)
            right -= size.width()
            area = QRect(right, line_top + (fm.height() - size.height()) // 2, size.width(), size.height())
            pen, fill = badge_colors(accent(accent_name, palette))
            paint_badge(painter, area, text, small, pen, fill)
            right -= pad
        painter.setFont(font)
        painter.setPen(text_color if selected else muted(palette))
        room = max(0, right - box.left())
        painter.drawText(QRect(box.left(), line_top, room, fm.height()),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         fm.elidedText(meta, Qt.TextElideMode.ElideRight, room))
        line = QColor(palette.color(QPalette.ColorRole.WindowText))
        line.setAlphaF(0.08)
        painter.setPen(line)
        painter.drawLine(rect.left() + pad * 2, rect.bottom(), rect.right() - pad * 2, rect.bottom())
        painter.restore()
