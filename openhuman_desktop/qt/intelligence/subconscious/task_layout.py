"""A task row's layout, shared by the delegate that paints rows (``task_row``) and the card that puts real controls
on top of one (``task_card``): where each part goes, the sizes that follow the font, the tooltips by position."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QToolButton

from openhuman_desktop.qt.intelligence.badge import badge_size
from openhuman_desktop.qt.intelligence.status_dot import dot_side
from openhuman_desktop.qt.intelligence.subconscious.task_model import (
    ASSISTANT_BADGE,
    ASSISTANT_TIP,
    SUGGESTION_WORDS,
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
from openhuman_desktop.qt.intelligence.theme import scale_font
from openhuman_desktop.qt.intelligence.toggle_switch import toggle_size
from openhuman_desktop.store import Task

ROW_GAP = 2                 # px between rows (what the list of cards had between cards)
WRAP = int(Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
_LEFT = int(Qt.AlignmentFlag.AlignLeft)
TOGGLE_TIP = "Switch this task on or off"


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


class RowLayout(Protocol):
    """What a card asks of the delegate that opened it (``TaskDelegate``): the row's width, layout and sizes."""

    def row_width(self) -> int: ...

    def geometry(self, task: Task, error: str, width: int | None = None) -> RowGeometry: ...

    def metrics(self) -> RowMetrics: ...
