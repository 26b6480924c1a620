"""A painted task row: its colours, sizes and layout, and the delegate that paints rows and opens cards."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QHelpEvent, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QToolButton,
    QWidget,
)

from openhuman_desktop.qt.intelligence.subconscious.task_card import (
    TOGGLE_TIP,
    IntentChip,
    TaskCard,
    make_delete_button,
    show_tooltip,
    suggestion_colors,
)
from openhuman_desktop.qt.intelligence.subconscious.task_model import (
    ASSISTANT_BADGE,
    ASSISTANT_TIP,
    SUGGESTION_WORDS,
    AnyIndex,
    TaskListModel,
    asks,
    badge_tip,
    details_text,
    intent_tip,
    intent_words,
    is_assistant_task,
    next_run_text,
    suggestion_tip,
    suggestion_words,
)
from openhuman_desktop.qt.intelligence.widgets import (
    accent,
    badge_colors,
    badge_size,
    dot_side,
    muted,
    paint_badge,
    paint_dot,
    paint_toggle,
    scale_font,
    toggle_size,
)
from openhuman_desktop.store import Task

if TYPE_CHECKING:
    from openhuman_desktop.qt.intelligence.subconscious.task_list import TaskListView

ROW_GAP = 2                 # px between rows (what the list of cards had between cards)
WRAP = int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
# Enum values used on every paint (PySide6 enum arithmetic is Python code: look it up once).
_HAS_FOCUS = QStyle.StateFlag.State_HasFocus
_MOUSE_OVER = QStyle.StateFlag.State_MouseOver
_LEFT = int(Qt.AlignmentFlag.AlignLeft)
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


@dataclass(frozen=True)
class RowGeometry:
    """Where the parts of one row go, relative to the row's top-left corner."""

    height: int
    dot: QRect
    title: QRect
    badge: QRect | None
    toggle: QRect | None
    delete: QRect | None
    details: QRect        # the details line: text, then the intent chip
    error: QRect | None
    chips: QRect | None = None  # a line of its own for the chip and "May write?" (rows that ask), else None


class RowMetrics:
    """Sizes of a row's parts for one font and style (everything follows the font: HiDPI-safe)."""

    def __init__(self, font: QFont, chip_size: Callable[[str], QSize], delete: QToolButton) -> None:
        self.font = QFont(font)
        self.fm = QFontMetrics(self.font)
        self.em = self.fm.height()
        self.pad = max(4, self.em // 3)
        self.spacing = max(1, self.pad // 2)
        self.small_font = scale_font(self.font, 0.9)
        self.small_fm = QFontMetrics(self.small_font)
        self.badge_font = scale_font(self.font, 0.85, bold=True)
        self.badge_size = badge_size(QFontMetrics(self.badge_font), "default")
        self.assistant_badge_size = badge_size(QFontMetrics(self.badge_font), ASSISTANT_BADGE)
        self.suggestion_size = badge_size(QFontMetrics(self.badge_font), SUGGESTION_WORDS)
        self.struck_font = QFont(self.font)
        self.struck_font.setStrikeOut(True)
        self.dot = dot_side(self.em)
        self.toggle_size = toggle_size(self.em)
        self.delete_size = delete.sizeHint()
        self._chip_size = chip_size
        self._chip_sizes: dict[str, QSize] = {}
        self.chip_height = self.chip_size("Read only").height()
        self.details_height = max(self.small_fm.height(), self.chip_height)
        self._advances: dict[str, int] = {}
        self._wrapped: dict[tuple[str, int], int] = {}

    def chip_size(self, words: str) -> QSize:
        size = self._chip_sizes.get(words)
        if size is None:
            size = self._chip_sizes[words] = self._chip_size(words)
        return size

    def text_height(self, text: str, width: int) -> int:
        """Height of ``text`` word-wrapped to ``width`` (one line when it fits: no text layout needed)."""
        advance = self._advances.get(text)
        if advance is None:
            if len(self._advances) > 20_000:
                self._advances.clear()
            advance = self.fm.horizontalAdvance(text) if "\n" not in text else 1_000_000
            self._advances[text] = advance
        if advance <= width:
            return self.em
        key = (text, width)
        height = self._wrapped.get(key)
        if height is None:
            if len(self._wrapped) > 20_000:
                self._wrapped.clear()
            height = max(self.em, self.fm.boundingRect(QRect(0, 0, width, 1_000_000), WRAP, text).height())
            self._wrapped[key] = height
        return height

    def _columns(self, is_system: bool, width: int) -> tuple[int, int, int, int]:
        """(text x, text right, title right, delete x) for a row ``width`` wide."""
        pad = self.pad
        text_x = pad * 2 + self.dot + pad * 2
        delete_x = width - pad - self.delete_size.width()
        text_right = delete_x - pad * 2
        if is_system:
            return text_x, text_right, text_right - self.badge_size.width() - pad * 2, delete_x
        text_right -= self.toggle_size.width() + pad * 2
        return text_x, text_right, text_right, delete_x

    def height(self, title: str, is_system: bool, error: str, asks: bool, width: int) -> int:
        """The row's height (what ``layout(...).height`` is, without building the rects)."""
        text_x, text_right, title_right, _ = self._columns(is_system, width)
        pad = self.pad
        bottom = pad + self.text_height(title, max(20, title_right - text_x)) + self.spacing + self.details_height
        if asks:
            bottom += self.spacing + self.details_height
        if error:
            bottom += self.spacing + self.text_height(error, max(20, text_right - text_x))
        return max(bottom, self._controls_bottom(is_system)) + pad + ROW_GAP

    def _controls_bottom(self, is_system: bool) -> int:
        # The delete button keeps its room on system rows too (as the hidden button of a card did).
        tallest = max(self.delete_size.height(), self.badge_size.height() if is_system else self.toggle_size.height())
        return self.pad + tallest

    def layout(self, task: Task, width: int, error: str) -> RowGeometry:
        """Where everything goes: like the card layout it replaces (controls at the top, text beside them)."""
        pad = top = self.pad
        text_x, text_right, title_right, delete_x = self._columns(task.is_system, width)
        dot = QRect(pad * 2, top + max(2, self.em // 4), self.dot, self.dot)
        delete = None if task.is_system else QRect(QPoint(delete_x, top), self.delete_size)
        toggle = badge = None
        if task.is_system:
            badge = QRect(QPoint(title_right + pad * 2, top), self.badge_size)
        else:
            toggle = QRect(QPoint(text_right + pad * 2, top), self.toggle_size)
        title_w = max(20, title_right - text_x)
        title = QRect(text_x, top, title_w, self.text_height(task.title, title_w))
        details = QRect(text_x, title.bottom() + 1 + self.spacing, max(20, text_right - text_x), self.details_height)
        bottom = details.bottom() + 1
        chips = None
        if asks(task):   # the question gets room: the chip and "May write?" on a line of their own
            chips = QRect(text_x, bottom + self.spacing, details.width(), self.details_height)
            bottom = chips.bottom() + 1
        error_rect = None
        if error:
            error_w = max(20, text_right - text_x)
            error_rect = QRect(text_x, bottom + self.spacing, error_w, self.text_height(error, error_w))
            bottom = error_rect.bottom() + 1
        return RowGeometry(
            height=max(bottom, self._controls_bottom(task.is_system)) + pad + ROW_GAP, dot=dot, title=title,
            badge=badge, toggle=toggle, delete=delete, details=details, error=error_rect, chips=chips,
        )

    def assistant_badge(self, geometry: RowGeometry) -> QRect:
        """Where the "assistant" badge of a task the assistant added goes: first on the details line."""
        size = self.assistant_badge_size
        box = geometry.details
        return QRect(box.left(), box.top() + (box.height() - size.height()) // 2, size.width(), size.height())

    def details_and_chip(self, geometry: RowGeometry, text: str, words: str, *,
                         is_assistant: bool = False) -> tuple[QRect, str, QRect]:
        """The details text's box and (elided) text, and the chip's rect: right after the text, or first on the
        row's line for the chip and "May write?" when it has one (``geometry.chips``)."""
        chip = self.chip_size(words)
        box = geometry.details
        lead = self.assistant_badge_size.width() + self.pad if is_assistant else 0
        line = geometry.chips
        if line is not None:
            room = max(10, box.width() - lead)
            shown = self.small_fm.elidedText(text, Qt.TextElideMode.ElideRight, room)
            text_w = min(room, self.small_fm.boundingRect(QRect(0, 0, room, 1000), _LEFT, shown).width())
            # the chip's words (not its flat frame) line up with the details text above them
            chip_rect = QRect(line.left() - self.pad, line.top() + (line.height() - chip.height()) // 2, chip.width(),
                              chip.height())
            return QRect(box.left() + lead, box.top(), text_w, box.height()), shown, chip_rect
        room = max(10, box.width() - lead - chip.width() - self.pad)
        shown = self.small_fm.elidedText(text, Qt.TextElideMode.ElideRight, room)
        # Measured like a QLabel sizes itself, so the chip sits where it did next to the details label.
        text_w = min(room, self.small_fm.boundingRect(QRect(0, 0, room, 1000), _LEFT, shown).width())
        text_rect = QRect(box.left() + lead, box.top(), text_w, box.height())
        chip_rect = QRect(text_rect.left() + text_w + self.pad, box.top() + (box.height() - chip.height()) // 2,
                          chip.width(), chip.height())
        return text_rect, shown, chip_rect

    def suggestion_rect(self, chip: QRect) -> QRect:
        """Where the "May write?" badge goes: right after the intent chip, centred on it."""
        size = self.suggestion_size
        return QRect(chip.right() + 1 + self.pad, chip.top() + (chip.height() - size.height()) // 2, size.width(),
                     size.height())

    def tooltip_at(self, task: Task, pos: QPoint, width: int, error: str, now: float) -> str:
        """The tooltip for the part of a row at ``pos`` (row coordinates); empty where there is none."""
        geometry = self.layout(task, width, error)
        details = details_text(task, now)
        is_assistant = is_assistant_task(task)
        suggestion = suggestion_words(task)
        text_rect, shown, chip = self.details_and_chip(geometry, details, intent_words(task),
                                                       is_assistant=is_assistant)
        if suggestion and self.suggestion_rect(chip).contains(pos):
            return suggestion_tip(task)
        if is_assistant and self.assistant_badge(geometry).contains(pos):
            return ASSISTANT_TIP
        if geometry.dot.adjusted(-4, -4, 4, 4).contains(pos):
            return "On" if task.enabled else "Off"
        if geometry.badge is not None and geometry.badge.contains(pos):
            return badge_tip(task)
        if geometry.toggle is not None and geometry.toggle.contains(pos):
            return TOGGLE_TIP
        if chip.contains(pos):
            return intent_tip(task)
        if text_rect.contains(pos):
            tip = next_run_text(task, now)[1]
            return tip if shown == details else f"{details}\n{tip}"
        if geometry.title.contains(pos):
            return task.title if geometry.title.height() > self.fm.height() * 3 else ""
        return ""


class TaskDelegate(QStyledItemDelegate):
    """Paints a row like a task card: dot, title, "default" badge, details, intent chip, switch, error.

    The hovered row and the current row (while the list has the focus) get a real ``TaskCard`` on top as
    a persistent editor; its controls cover what is painted here, which is why the two share one layout.
    """

    def __init__(self, view: TaskListView, model: TaskListModel, now: Callable[[], float]) -> None:
        super().__init__(view)
        self._view = view
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
        if focused or self._view.is_highlighted(task.id):
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
        if self._view.card(task.id) is None:   # a card's real controls cover these
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
        self._view.card_created(card)
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
            self._view.card_destroyed(editor)
        super().destroyEditor(editor, index)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        # The stock editor filter turns Tab, Escape and Return into "close the editor"; a card is a row,
        # not an editor: its keys do what they do anywhere else.
        return False
