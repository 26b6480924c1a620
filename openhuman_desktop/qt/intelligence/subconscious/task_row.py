"""A painted task row: its colours, and the delegate that paints rows (laid out by ``task_layout``) and opens cards."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from PySide6.QtCore import QEvent, QObject, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QHelpEvent, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from openhuman_desktop.qt.intelligence.badge import badge_colors, paint_badge
from openhuman_desktop.qt.intelligence.status_dot import paint_dot
from openhuman_desktop.qt.intelligence.subconscious.task_card import (
    IntentChip,
    TaskCard,
    make_delete_button,
    show_tooltip,
    suggestion_colors,
)
from openhuman_desktop.qt.intelligence.subconscious.task_layout import ROW_GAP, WRAP, RowGeometry, RowMetrics
from openhuman_desktop.qt.intelligence.subconscious.task_model import (
    ASSISTANT_BADGE,
    SUGGESTION_WORDS,
    AnyIndex,
    TaskListModel,
    asks,
    details_text,
    intent_words,
    is_assistant_task,
    suggestion_words,
)
from openhuman_desktop.qt.intelligence.theme import accent, muted, scale_font
from openhuman_desktop.qt.intelligence.toggle_switch import paint_toggle
from openhuman_desktop.store import Task

# Enum values used on every paint (PySide6 enum arithmetic is Python code: look it up once).
_HAS_FOCUS = QStyle.StateFlag.State_HasFocus
_MOUSE_OVER = QStyle.StateFlag.State_MouseOver
_ACTIVE = QStyle.StateFlag.State_Active
_ENABLED = QStyle.StateFlag.State_Enabled
_ANTIALIASING = QPainter.RenderHint.Antialiasing
_NO_PEN = Qt.PenStyle.NoPen
_CC_TOOL_BUTTON = QStyle.ComplexControl.CC_ToolButton


@dataclass(frozen=True)
class RowColors:
    """The colours a row is painted in, for one palette (light or dark)."""

    text: QColor
    quiet: QColor
    highlight: QColor
    alternate_base: QColor
    green: QColor
    grey: QColor
    coral: QColor
    badge_pen: QPen
    badge_fill: QColor
    assistant_pen: QPen
    assistant_fill: QColor
    suggestion_pen: QPen
    suggestion_fill: QColor

    @classmethod
    def of(cls, palette: QPalette) -> RowColors:
        grey = accent("grey", palette)
        badge_pen, badge_fill = badge_colors(grey)
        assistant_pen, assistant_fill = badge_colors(accent("blue", palette))
        suggestion_pen, suggestion_fill = suggestion_colors(palette)
        return cls(
            text=palette.color(QPalette.ColorRole.WindowText), quiet=muted(palette),
            highlight=palette.color(QPalette.ColorRole.Highlight),
            alternate_base=palette.color(QPalette.ColorRole.AlternateBase), green=accent("green", palette),
            grey=grey, coral=accent("coral", palette), badge_pen=badge_pen, badge_fill=badge_fill,
            assistant_pen=assistant_pen, assistant_fill=assistant_fill, suggestion_pen=suggestion_pen,
            suggestion_fill=suggestion_fill,
        )


class CardHost(Protocol):
    """What the delegate asks of the list it paints (``TaskListView``): which rows are lit, which have a card."""

    def card(self, task_id: str) -> TaskCard | None: ...

    def is_highlighted(self, task_id: str) -> bool: ...

    def card_created(self, card: TaskCard) -> None: ...

    def card_destroyed(self, card: TaskCard) -> None: ...


class TaskDelegate(QStyledItemDelegate):
    """Paints a row like a task card: dot, title, "default" badge, details, intent chip, switch, error.

    The hovered row and the current row (while the list has the focus) get a real ``TaskCard`` on top as
    a persistent editor; its controls cover what is painted here, which is why the two share one layout.
    """

    def __init__(self, view: QListView, model: TaskListModel, now: Callable[[], float], *, cards: CardHost) -> None:
        super().__init__(view)
        self._view = view
        self._cards = cards
        self._model = model
        self._now = now
        self._width = 120
        self._metrics: RowMetrics | None = None
        self._heights: dict[tuple[str, bool, str, bool, int], int] = {}
        self._details: dict[str, tuple[Task, int, int, tuple[int, str, QRect]]] = {}
        self._palette_colors: dict[int, RowColors] = {}
        self._geometries: dict[tuple[str, str, bool, str, int, bool], RowGeometry] = {}
        # Never shown: models for painting chips (one per wording) and for the delete button's size. Style
        # options are made from them when painting, not kept: Qt value objects kept in Python can outlive
        # the QApplication at exit, and freeing them then crashes.
        self._chips: dict[str, IntentChip] = {}
        self._delete = make_delete_button(view.viewport())
        self._delete.hide()

    def metrics(self) -> RowMetrics:
        if self._metrics is None:
            font = scale_font(self._view.font(), 0.9)
            for chip in self._chips.values():
                chip.setFont(font)
            self._metrics = RowMetrics(self._view.font(), lambda words: self._chip_for(words).sizeHint(), self._delete)
        return self._metrics

    def _chip_for(self, words: str) -> IntentChip:
        chip = self._chips.get(words)
        if chip is None:
            chip = self._chips[words] = IntentChip(self._view.viewport())
            chip.setFont(scale_font(self._view.font(), 0.9))
            chip.setMenu(QMenu(chip))
            chip.setText(words)
            chip.setAccessibleName(f"Intent: {words}")
            chip.hide()
        return chip

    def invalidate(self) -> None:
        """Forget sizes (the font, style or palette changed)."""
        self._metrics = None
        self._geometries.clear()
        self._heights.clear()
        self._details.clear()
        self._palette_colors.clear()

    def row_width(self) -> int:
        return self._width

    def set_row_width(self, width: int) -> None:
        self._width = max(120, width)

    def geometry(self, task: Task, error: str, width: int | None = None) -> RowGeometry:
        """The row's layout, cached by what it depends on (id, title, kind, error text, width)."""
        width = self._width if width is None else width
        key = (task.id, task.title, task.is_system, error, width, asks(task))
        geometry = self._geometries.get(key)
        if geometry is None:
            if len(self._geometries) > 4 * self._model.rowCount() + 64:
                self._geometries.clear()
            geometry = self.metrics().layout(task, width, error)
            self._geometries[key] = geometry
        return geometry

    # --- Qt delegate API ------------------------------------------------------------------------

    def sizeHint(self, option: QStyleOptionViewItem, index: AnyIndex) -> QSize:
        # Called for every row on each layout: a tuple and a dict lookup in the common case.
        shape = self._model.shape(index.row())
        if shape is None:
            return QSize(0, 0)
        width = self._width
        key = (*shape, width)
        height = self._heights.get(key)
        if height is None:
            if len(self._heights) > 20_000:
                self._heights.clear()
            height = self._heights[key] = self.metrics().height(*shape, width)
        return QSize(width, height)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: AnyIndex) -> None:
        # Runs for every visible row on every repaint: flags and colours are precomputed, one-line texts
        # are drawn at their baseline (a third of the cost of a laid-out text).
        model = self._model
        row = index.row()
        if not 0 <= row < model.rowCount():
            return
        task = model.task_at(row)
        rect: QRect = option.rect
        colors = self._colors(option.palette)
        metrics = self.metrics()
        error = model.error(task.id)
        geometry = self.geometry(task, error, rect.width())
        busy = model.is_busy(task.id)
        active = task.enabled and not task.completed
        painter.save()
        painter.translate(rect.topLeft())
        painter.setRenderHint(_ANTIALIASING)
        focused = bool(option.state & _HAS_FOCUS)
        if focused or self._cards.is_highlighted(task.id):
            painter.setPen(QPen(colors.highlight, 1.5) if focused else _NO_PEN)
            painter.setBrush(colors.alternate_base)
            radius = max(4.0, metrics.em * 0.4)
            painter.drawRoundedRect(QRectF(1, 1, rect.width() - 2, rect.height() - ROW_GAP - 2), radius, radius)
        paint_dot(painter, geometry.dot, colors.green if active else colors.grey)
        # title
        painter.setFont(metrics.struck_font if task.completed else metrics.font)
        painter.setPen(colors.text if active else colors.quiet)
        title = geometry.title
        if title.height() <= metrics.em:
            painter.drawText(title.left(), title.top() + metrics.fm.ascent(), task.title)
        else:
            painter.drawText(title, WRAP, task.title)
        if geometry.badge is not None:
            paint_badge(painter, geometry.badge, "default", metrics.badge_font, colors.badge_pen, colors.badge_fill)
        # details and the intent chip
        words = intent_words(task)
        baseline, shown, chip_rect = self.details(task, geometry, words)
        painter.setFont(metrics.small_font)
        painter.setPen(colors.quiet)
        is_assistant = is_assistant_task(task)
        lead = metrics.assistant_badge_size.width() + metrics.pad if is_assistant else 0
        painter.drawText(geometry.details.left() + lead, baseline, shown)
        if is_assistant:
            paint_badge(painter, metrics.assistant_badge(geometry), ASSISTANT_BADGE, metrics.badge_font,
                        colors.assistant_pen, colors.assistant_fill)
        if self._cards.card(task.id) is None:   # a card's real controls cover these
            self._paint_chip(painter, chip_rect, words, option, enabled=not busy)
            if suggestion_words(task):
                paint_badge(painter, metrics.suggestion_rect(chip_rect), SUGGESTION_WORDS, metrics.badge_font,
                            colors.suggestion_pen, colors.suggestion_fill)
            if geometry.toggle is not None:
                paint_toggle(painter, geometry.toggle, option.palette, checked=task.enabled, enabled=not busy)
        if geometry.error is not None:
            painter.setFont(metrics.font)
            painter.setPen(colors.coral)
            painter.drawText(geometry.error, WRAP, error)
        painter.restore()

    def details(self, task: Task, geometry: RowGeometry, words: str) -> tuple[int, str, QRect]:
        """(baseline, shown text, chip rect) of a row's details line, cached for the second it is in."""
        now = self._now()
        second = int(now)
        width = geometry.details.width()
        cached = self._details.get(task.id)
        if cached is not None and cached[0] is task and cached[1] == second and cached[2] == width:
            return cached[3]
        metrics = self.metrics()
        text_rect, shown, chip = metrics.details_and_chip(geometry, details_text(task, now), words,
                                                          is_assistant=is_assistant_task(task))
        centred = (text_rect.height() - metrics.small_fm.height() + 1) // 2   # rounded like AlignVCenter
        baseline = text_rect.top() + centred + metrics.small_fm.ascent()
        result = (baseline, shown, chip)
        if len(self._details) > 4 * self._model.rowCount() + 64:
            self._details.clear()
        self._details[task.id] = (task, second, width, result)
        return result

    def _colors(self, palette: QPalette) -> RowColors:
        key = palette.cacheKey()
        colors = self._palette_colors.get(key)
        if colors is None:
            if len(self._palette_colors) > 8:
                self._palette_colors.clear()
            colors = self._palette_colors[key] = RowColors.of(palette)
        return colors

    def _paint_chip(self, painter: QPainter, rect: QRect, words: str, option: QStyleOptionViewItem, *,
                    enabled: bool) -> None:
        template = self._chip_for(words)
        chip = template.style_option()
        chip.rect = rect
        chip.state = (chip.state & ~(_ENABLED | _ACTIVE | _MOUSE_OVER | _HAS_FOCUS)) | (option.state & _ACTIVE)
        if enabled:
            chip.state |= _ENABLED
        else:
            chip.palette.setCurrentColorGroup(QPalette.ColorGroup.Disabled)
        painter.setRenderHint(_ANTIALIASING, False)
        template.style().drawComplexControl(_CC_TOOL_BUTTON, chip, painter, template)
        painter.setRenderHint(_ANTIALIASING)

    def helpEvent(self, event: QHelpEvent, view: QAbstractItemView, option: QStyleOptionViewItem,  # noqa: N802
                  index: AnyIndex) -> bool:
        if event.type() != QEvent.Type.ToolTip or not index.isValid():
            return super().helpEvent(event, view, option, index)
        task = self._model.task_at(index.row())
        rect: QRect = option.rect
        text = self.metrics().tooltip_at(task, event.pos() - rect.topLeft(), rect.width(), self._model.error(task.id),
                                         self._now())
        show_tooltip(event, text, view, rect)
        return True

    # --- the interactive row (a persistent editor) ----------------------------------------------

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: AnyIndex) -> QWidget:  # noqa: N802
        card = TaskCard(self._model.task_at(index.row()), self, self._now, self._view, parent)
        self._cards.card_created(card)
        return card

    def setEditorData(self, editor: QWidget, index: AnyIndex) -> None:  # noqa: N802 (Qt override)
        if isinstance(editor, TaskCard) and index.isValid():
            task = self._model.task_at(index.row())
            editor.set_task(task, busy=self._model.is_busy(task.id), error=self._model.error(task.id))

    def setModelData(self, editor: QWidget, model: Any, index: AnyIndex) -> None:  # noqa: N802 (Qt override)
        """Nothing to write back: a card's controls emit signals and the view makes the change."""

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,  # noqa: N802 (Qt override)
                             index: AnyIndex) -> None:
        editor.setGeometry(option.rect)

    def destroyEditor(self, editor: QWidget, index: AnyIndex) -> None:  # noqa: N802 (Qt override)
        if isinstance(editor, TaskCard):
            self._cards.card_destroyed(editor)
        super().destroyEditor(editor, index)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        # The stock editor filter turns Tab, Escape and Return into "close the editor"; a card is a row,
        # not an editor: its keys do what they do anywhere else.
        return False
