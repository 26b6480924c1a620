"""How the Activity Log paints a row: the decision's badge, the task, the time and the result, folded or
expanded."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import (
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QPainter,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
)

from openhuman_desktop.qt.intelligence.activity.model import ActivityModel, AnyIndex, readable
from openhuman_desktop.qt.intelligence.status_dot import pulse_alpha
from openhuman_desktop.qt.intelligence.theme import DECISION_ACCENT, accent, muted
from openhuman_desktop.qt.intelligence.time_text import clock_time, duration_text
from openhuman_desktop.store import LogEntry


@dataclass(frozen=True)
class _Metrics:
    """Fonts and sizes of a row for one font (computed once, not per row)."""

    font: QFont
    bold: QFont
    fm: QFontMetrics
    bfm: QFontMetrics
    pad: int
    time_w: int
    dot_offset: int     # from the row's left edge
    text_offset: int
    line_h: int         # a collapsed row's height


def _row_metrics(font: QFont) -> _Metrics:
    bold = QFont(font)
    bold.setBold(True)
    fm, bfm = QFontMetrics(font), QFontMetrics(bold)
    pad = max(4, fm.height() // 3)
    time_w = fm.horizontalAdvance("Wed 00:00") + pad
    dot_offset = pad * 2 + time_w
    text_offset = dot_offset + max(8, round(fm.height() * 0.55)) + pad * 2
    line_h = pad * 2 + bfm.height() + max(2, pad // 2) + fm.height()
    return _Metrics(QFont(font), bold, fm, bfm, pad, time_w, dot_offset, text_offset, line_h)


class ActivityDelegate(QStyledItemDelegate):
    """Paints one log row: time, coloured dot (pulsing while in progress), task title, duration, result.

    The result is one elided line; an expanded row (click, Space or Enter) shows all of it, wrapped.
    Sizes are cheap: a collapsed row's height comes from the font alone, and an expanded row's wrapped
    height is remembered (the list asks for every row's size whenever rows come or go).
    """

    def __init__(self, view: QListView, now: Callable[[], float]) -> None:
        super().__init__(view)
        self._view = view
        self._now = now
        self._metrics_by_font: dict[str, _Metrics] = {}
        self._wrapped: dict[tuple[str, str, int, str], int] = {}  # (id, result, width, font) -> height

    def metrics(self, font: QFont) -> _Metrics:
        key = font.key()
        found = self._metrics_by_font.get(key)
        if found is None:
            found = self._metrics_by_font[key] = _row_metrics(font)
        return found

    def _text_width(self, m: _Metrics, width: int) -> int:
        return max(40, width - m.text_offset - m.pad * 3)

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        m = self.metrics(option.font)
        width = self._view.viewport().width()
        model = index.model()
        if not isinstance(model, ActivityModel) or not model.is_expanded(index.row()):
            return QSize(width, m.line_h)
        entry = model.entry(index.row())
        text = model.shown_result(index.row())
        key = (entry.id, text, width, option.font.key())
        height = self._wrapped.get(key)
        if height is None:
            if len(self._wrapped) > 256:
                self._wrapped.clear()
            bounds = m.fm.boundingRect(QRect(0, 0, self._text_width(m, width), 100_000),
                                       int(Qt.TextFlag.TextWordWrap), text)
            height = self._wrapped[key] = m.line_h - m.fm.height() + max(m.fm.height(), bounds.height())
        return QSize(width, height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        model = index.model()
        if not isinstance(model, ActivityModel) or not 0 <= index.row() < model.rowCount():
            return
        row = index.row()
        entry = model.entry(row)
        decision = model.shown_decision(row)
        group = model.group_at(row)
        m = self.metrics(option.font)
        font, bold, fm, bfm, pad = m.font, m.bold, m.fm, m.bfm, m.pad
        rect: QRect = option.rect
        state = option.state
        palette: QPalette = option.palette
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        selected = bool(state & QStyle.StateFlag.State_Selected)
        if selected:
            painter.fillRect(rect, palette.color(QPalette.ColorRole.Highlight))
        elif state & QStyle.StateFlag.State_MouseOver:
            hover = QColor(palette.color(QPalette.ColorRole.Highlight))
            hover.setAlphaF(0.08)
            painter.fillRect(rect, hover)
        text_color = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        quiet = text_color if selected else muted(palette)
        time_w, dot_x, text_x = m.time_w, rect.left() + m.dot_offset, rect.left() + m.text_offset
        line1 = QRect(rect.left(), rect.top() + pad, rect.width(), bfm.height())
        # time
        painter.setFont(font)
        painter.setPen(quiet)
        painter.drawText(QRect(rect.left() + pad * 2, line1.top(), time_w, line1.height()),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         clock_time(entry.created_at, self._now()))
        # dot (the rows of an unfolded failure group hang on a line from the first one's dot)
        side = max(8, round(fm.height() * 0.55))
        if (group is not None and group.is_unfolded) or model.is_in_unfolded_group(row):
            joint = accent("coral", palette)
            joint.setAlphaF(0.45)
            painter.setPen(QPen(joint, max(2, side // 4)))
            top = rect.top() if group is None else line1.center().y()
            bottom = line1.center().y() if model.is_last_in_unfolded_group(row) else rect.bottom()
            painter.drawLine(dot_x + side // 2, top, dot_x + side // 2, bottom)
        color = accent(DECISION_ACCENT.get(decision, "grey"), palette)
        if entry.decision == "in_progress":
            color.setAlphaF(pulse_alpha())
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(color)
        painter.drawEllipse(dot_x, line1.center().y() - side // 2, side, side)
        # duration (right); a failure group says how to see each row instead
        took = duration_text(entry.duration_ms) if entry.decision != "in_progress" else ""
        if group is not None:
            took = "Fold" if group.is_unfolded else f"Show all {group.count:,}"
        right = rect.right() - pad * 3
        took_w = fm.horizontalAdvance(took) if took else 0
        if took:
            painter.setFont(font)
            painter.setPen(quiet)
            painter.drawText(QRect(right - took_w, line1.top(), took_w, line1.height()),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), took)
        # title
        title_w = max(20, right - text_x - (took_w + pad * 2 if took else 0))
        painter.setFont(bold)
        painter.setPen(text_color)
        title = bfm.elidedText(model.shown_title(row), Qt.TextElideMode.ElideRight, title_w)
        painter.drawText(QRect(text_x, line1.top(), title_w, line1.height()),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), title)
        # result
        painter.setFont(font)
        result_color = text_color if decision not in ("noop", "cancelled", "dismissed") else quiet
        if decision == "failed" and not selected:
            result_color = accent("coral", palette)
        painter.setPen(result_color)
        text_w = self._text_width(m, rect.width())
        top2 = line1.bottom() + 1 + max(2, pad // 2)
        if index.data(ActivityModel.ExpandedRole):
            box = QRect(text_x, top2, text_w, rect.bottom() - top2)
            painter.drawText(box, int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignTop),
                             model.shown_result(row))
        else:
            one_line = " ".join(model.shown_result(row, full=True).split())
            suffix = f" — {group.summary}" if group is not None and not group.is_unfolded else ""
            room = max(20, text_w - fm.horizontalAdvance(suffix))   # the group's size always shows
            shown = fm.elidedText(one_line, Qt.TextElideMode.ElideRight, room) + suffix
            painter.drawText(QRect(text_x, top2, text_w, fm.height()),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown)
        # separator
        line = QColor(palette.color(QPalette.ColorRole.WindowText))
        line.setAlphaF(0.08)
        painter.setPen(line)
        painter.drawLine(rect.left() + pad * 2, rect.bottom(), rect.right() - pad * 2, rect.bottom())
        if state & QStyle.StateFlag.State_HasFocus:
            focus = QColor(palette.color(QPalette.ColorRole.Highlight))
            painter.setPen(focus)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(rect.adjusted(0, 0, -1, -1))
        painter.restore()

    def is_elided(self, index: AnyIndex) -> bool:
        """Whether the row's result does not fit on one line (so expanding it shows more)."""
        entry: LogEntry | None = index.data(ActivityModel.EntryRole)
        if entry is None:
            return False
        m = self.metrics(self._view.font())
        text = readable(entry.result)
        return "\n" in text or m.fm.horizontalAdvance(text) > self._text_width(m, self._view.viewport().width())


