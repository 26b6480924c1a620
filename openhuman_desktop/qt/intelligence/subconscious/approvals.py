"""Approval Needed: amber cards for pending escalations with the buttons the core chose for each (Go ahead, Retry
or Fix in Skills, and Skip: ``Escalation.choices``, the same on every surface)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QApplication, QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.accent_label import ErrorLabel
from openhuman_desktop.qt.intelligence.badge import Badge
from openhuman_desktop.qt.intelligence.muted_label import EmptyState, MutedLabel
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.spinner import Spinner
from openhuman_desktop.qt.intelligence.theme import (
    accent,
    app_palette,
    em,
    is_dark,
    make_primary,
    scaled_font,
    set_style_sheet,
)
from openhuman_desktop.qt.intelligence.time_text import exact_time
from openhuman_desktop.store import Escalation
from openhuman_desktop.store.records import FIX_IN_SKILLS, GO_AHEAD, RETRY

log = logging.getLogger(__name__)

PRIORITY_ACCENT = {"critical": "coral", "important": "amber", "normal": "grey"}
PRIORITY_RANK = {"critical": 0, "important": 1, "normal": 2}
APPROVED = "approved"
DISMISSED = "dismissed"
ACTIVATING_KEYS = (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Select)
TAB_KEYS = (Qt.Key.Key_Tab, Qt.Key.Key_Backtab)
KEYBOARD_HINT = "To approve with the keyboard, move to Go ahead with Tab first, then press Space."

Action = Callable[[str], Awaitable[object]]


class EscalationService(Protocol):
    """What the approvals section needs from the approval gate (``subconscious.approvals.ApprovalGate``)."""

    async def escalations_list(self, status: object = None) -> list[Escalation]:
        ...

    async def escalations_approve(self, escalation_id: object) -> str:
        ...

    async def escalations_dismiss(self, escalation_id: object) -> str:
        ...


# How a card raised in a conversation names it: the thread id's channel (the part before ":") in words.
CHANNEL_WORDS = {"desktop": "the desktop chat", "cli": "the terminal", "webapp": "the web app",
                 "telegram": "Telegram", "subconscious": "a heartbeat task's thread"}


def conversation_words(thread_id: str | None) -> str:
    """The conversation a card was raised in, in words: "Telegram chat 42", "the desktop chat"."""
    if not thread_id:
        return "a conversation"
    channel, _, rest = thread_id.partition(":")
    if channel == "telegram" and rest:
        return f"Telegram chat {rest}"
    if channel == "webapp" and rest:
        return f"the web app (session {rest})"
    words = CHANNEL_WORDS.get(channel, channel)
    return f"{words} ({rest})" if rest else words


def is_skill_related(escalation: Escalation) -> bool:
    """Whether the card offers Fix in Skills (decided by the core when it was raised)."""
    return FIX_IN_SKILLS in escalation.choices


class InputWatch(QObject):
    """Whether the user's latest key or mouse press was Tab / Shift+Tab (an application event filter).

    Qt moves the focus with a "Tab" reason on its own too (when the focused control is hidden or
    disabled, e.g. Run Now while it runs); only a real Tab press makes a Go ahead button aimed at.
    """

    def __init__(self, parent: QObject | None = None, *, is_active: bool = True) -> None:
        super().__init__(parent)
        self.is_last_press_tab = False
        self._is_active = False
        self.set_active(is_active)

    def set_active(self, on: bool) -> None:
        """Watch only while there is a Go ahead button (a filter sees every event of the application)."""
        app = QApplication.instance()
        if app is None or on == self._is_active:
            return
        self._is_active = on
        if on:
            app.installEventFilter(self)
        else:
            app.removeEventFilter(self)
            self.is_last_press_tab = False

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        kind = event.type()
        if kind == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            self.is_last_press_tab = event.key() in TAB_KEYS
        elif kind in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick):
            self.is_last_press_tab = False
        return False


class GoAheadButton(QPushButton):
    """"Go ahead" that only a key press aimed at it activates (issue 9: one stray Space approved an action).

    A key (Space, Enter) activates it only when the user moved the focus there — with Tab / Shift+Tab
    or a click — and it has kept the focus since. Focus that arrives any other way (a card closing, a
    notification, the window being activated) leaves it unarmed: the key is swallowed and
    ``key_refused`` asks the card to say how to approve. Clicking always works. It is never a default
    button, so Enter elsewhere cannot reach it.
    """

    key_refused = Signal()

    def __init__(self, text: str, watch: InputWatch, parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self._watch = watch
        self._is_armed = False
        self.setAutoDefault(False)
        self.setDefault(False)

    @property
    def is_armed(self) -> bool:
        return self._is_armed

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt override)
        reason = event.reason()
        self._is_armed = reason == Qt.FocusReason.MouseFocusReason or (
            reason in (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason)
            and self._watch.is_last_press_tab)
        super().focusInEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 (Qt override)
        self._is_armed = False
        super().focusOutEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() in ACTIVATING_KEYS and not self._is_armed:
            event.accept()
            if not event.isAutoRepeat():
                self.key_refused.emit()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        if event.key() in ACTIVATING_KEYS and not self._is_armed:
            event.accept()
            return
        super().keyReleaseEvent(event)


class ApprovalCard(QFrame):
    """One pending escalation.

    The buttons trampoline into :meth:`approve` / :meth:`skip` (tests await them). While an action is in
    flight both buttons are disabled; the card emits ``decided`` only when the action succeeded, and
    shows the error on itself otherwise.
    """

    decided = Signal(str, str)               # escalation id, "approved" | "dismissed"
    fix_in_skills_requested = Signal(str)    # skill name ("" when the text names none)
    closed = Signal(str)                     # escalation id: resolved elsewhere, the user closed the card

    def __init__(
        self,
        escalation: Escalation,
        *,
        approve: Action,
        dismiss: Action,
        jobs: Jobs,
        watch: InputWatch | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("approvalCard")
        self._watch = watch or InputWatch(self)
        self.escalation = escalation
        self._approve = approve
        self._dismiss = dismiss
        self._jobs = jobs
        self._is_busy = False
        self.resolved_elsewhere: str | None = None
        self.is_skill_related = is_skill_related(escalation)
        self.skill_name = escalation.skill or "" if self.is_skill_related else ""
        self.is_retry = RETRY in escalation.choices and GO_AHEAD not in escalation.choices
        self._build()
        self._restyle()

    def _build(self) -> None:
        esc = self.escalation
        pad = max(6, em(self) // 2)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(pad * 2, pad * 2, pad * 2, pad * 2)
        outer.setSpacing(pad)
        top = QHBoxLayout()
        top.setSpacing(pad)
        self.title_label = QLabel(esc.title, self)
        self.title_label.setFont(scaled_font(self, 1.05, bold=True))
        self.title_label.setWordWrap(True)
        self.title_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.title_label.setAccessibleName("Approval title")
        top.addWidget(self.title_label, 1)
        self.priority_badge = Badge(esc.priority, PRIORITY_ACCENT.get(esc.priority, "grey"), self)
        self.priority_badge.setAccessibleName(f"Priority: {esc.priority}")
        top.addWidget(self.priority_badge, 0, Qt.AlignmentFlag.AlignTop)
        outer.addLayout(top)
        self.description_label = QLabel(esc.description, self)
        self.description_label.setWordWrap(True)
        self.description_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.description_label.setAccessibleName("What the assistant wants to do")
        outer.addWidget(self.description_label)
        # Why the card is back (the reasoning model was down; a run was interrupted and what it had done).
        note = esc.note
        self.escalation_note_label = MutedLabel(note, self, factor=0.95)
        self.escalation_note_label.setWordWrap(True)
        self.escalation_note_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.escalation_note_label.setAccessibleName("Why this is asked again")
        self.escalation_note_label.setVisible(bool(note))
        outer.addWidget(self.escalation_note_label)
        # A card raised in a conversation has no task: it says which conversation, where Go ahead answers.
        where = conversation_words(esc.thread_id) if esc.is_conversation else ""
        self.origin_label = MutedLabel(f"From the conversation in {where}" if where else "", self, factor=0.95)
        self.origin_label.setWordWrap(True)
        self.origin_label.setAccessibleName("Where this was asked")
        self.origin_label.setVisible(bool(where))
        outer.addWidget(self.origin_label)
        self.note_label = MutedLabel("Requires your approval to proceed", self, factor=0.9)
        self.note_label.setToolTip(f"Asked {exact_time(esc.created_at)}")
        self.note_label.setAccessibleName("Requires your approval to proceed")
        outer.addWidget(self.note_label)
        self.error_label = ErrorLabel(self)
        outer.addWidget(self.error_label)
        self.hint_label = MutedLabel("", self, factor=0.9)
        self.hint_label.setWordWrap(True)
        self.hint_label.setAccessibleName("Keyboard hint")
        self.hint_label.hide()
        outer.addWidget(self.hint_label)
        buttons = QHBoxLayout()
        buttons.setSpacing(pad)
        self.spinner = Spinner(self)
        self.spinner.setAccessibleName("Working")
        buttons.addWidget(self.spinner)
        buttons.addStretch(1)
        self.skip_button = QPushButton("Skip", self)
        self.skip_button.setAutoDefault(False)
        self.skip_button.setAccessibleName(f"Skip: {esc.title}")
        self.skip_button.setToolTip("Do nothing; the assistant will not carry this out")
        self.skip_button.clicked.connect(self._on_skip_button_clicked)
        buttons.addWidget(self.skip_button)
        go = "Retry" if self.is_retry else "Go ahead"
        self.approve_button = GoAheadButton(go, self._watch, self)
        self.approve_button.key_refused.connect(self._on_approve_button_key_refused)
        make_primary(self.approve_button)
        self.approve_button.setAccessibleName(f"{go}: {esc.title}")
        self.approve_button.setToolTip(f"Let the assistant carry this out now and answer in {where}" if where
                                       else "Let the assistant carry this out now")
        self.approve_button.clicked.connect(self._on_approve_button_clicked)
        buttons.addWidget(self.approve_button)
        self.fix_button = QPushButton("Fix in Skills", self)
        self.fix_button.setAutoDefault(False)
        make_primary(self.fix_button)
        self.fix_button.setAccessibleName(f"Fix in Skills: {esc.title}")
        self.fix_button.setToolTip("Open the Skills tab" + (f" on {self.skill_name}" if self.skill_name else ""))
        self.fix_button.clicked.connect(self._on_fix_button_clicked)
        buttons.addWidget(self.fix_button)
        self.close_button = QPushButton("Close", self)
        self.close_button.setAccessibleName(f"Close card: {esc.title}")
        self.close_button.clicked.connect(self._on_close_button_clicked)
        self.close_button.hide()
        buttons.addWidget(self.close_button)
        outer.addLayout(buttons)
        self.approve_button.setVisible(GO_AHEAD in esc.choices or RETRY in esc.choices)
        self.fix_button.setVisible(self.is_skill_related)
        self.setAccessibleName(f"Approval needed: {esc.title}")
        # No focus proxy: focusing the card (a notification was clicked) must not put the focus on Go ahead.

    @property
    def primary_button(self) -> QPushButton:
        return self.fix_button if self.is_skill_related else self.approve_button

    @property
    def is_busy(self) -> bool:
        return self._is_busy

    def retheme(self) -> None:
        self._restyle()

    def _restyle(self) -> None:
        palette = app_palette()
        border = accent("amber", palette)
        # A warm amber wash: light amber on light themes, a deep amber on dark ones; the text keeps the
        # palette's own colour, which reads on both.
        fill = QColor("#4A3508") if is_dark(palette) else QColor("#FEF3C7")
        width = 2 if self.property("highlighted") else 1
        set_style_sheet(
            self,
            f"QFrame#approvalCard {{ background-color: {fill.name()};"
            f" border: {width}px solid {border.name()}; border-radius: 8px; }}"
            f" QFrame#approvalCard QLabel {{ background: transparent; }}",
        )

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._restyle()
        super().changeEvent(event)

    def flash(self) -> None:
        """Draw attention to the card for a moment (after a notification was clicked)."""
        self.setProperty("highlighted", True)
        self._restyle()
        QTimer.singleShot(1600, self._on_flash_timeout)

    def _on_flash_timeout(self) -> None:
        self.setProperty("highlighted", False)
        self._restyle()

    # --- actions --------------------------------------------------------------------------------

    def _set_busy(self, busy: bool) -> None:
        focused = QApplication.focusWidget()
        if busy and focused is not None and self.isAncestorOf(focused):
            # Disabling the focused button would make Qt hand the focus to the next control in the
            # chain — another card's Go ahead. The card itself holds it until it leaves.
            self.setFocus(Qt.FocusReason.OtherFocusReason)
        self._is_busy = busy
        self.hint_label.hide()
        for button in (self.approve_button, self.skip_button, self.fix_button):
            button.setEnabled(not busy)
        if busy:
            self.spinner.start()
        else:
            self.spinner.stop()

    async def _run(self, action: Action, decision: str) -> bool:
        if self._is_busy:
            return False
        self.error_label.clear_text()
        self._set_busy(True)
        try:
            await action(self.escalation.id)
        except UserFacingError as exc:
            self._set_busy(False)
            self.error_label.show_text(str(exc))
            if self.resolved_elsewhere:
                self._show_resolved()
            return False
        self._set_busy(False)
        self.decided.emit(self.escalation.id, decision)
        return True

    async def approve(self) -> bool:
        """"Go ahead": approve the escalation (its action runs in the background)."""
        return await self._run(self._approve, APPROVED)

    async def skip(self) -> bool:
        """"Skip": dismiss without executing anything."""
        return await self._run(self._dismiss, DISMISSED)

    def fix_in_skills(self) -> None:
        """"Fix in Skills": open the Skills tab on the skill this is about."""
        self.fix_in_skills_requested.emit(self.skill_name)

    def mark_resolved(self, status: str) -> None:
        """The escalation was resolved elsewhere (RPC, another window) while this card was busy."""
        self.resolved_elsewhere = status

    def _show_resolved(self) -> None:
        for button in (self.approve_button, self.skip_button, self.fix_button):
            button.hide()
        self.close_button.show()
        self.close_button.setFocus()

    def _on_approve_button_key_refused(self) -> None:
        self.hint_label.setText(KEYBOARD_HINT)
        self.hint_label.show()

    def _on_approve_button_clicked(self) -> None:
        self._jobs.spawn(self.approve(), name="approve-escalation")

    def _on_skip_button_clicked(self) -> None:
        self._jobs.spawn(self.skip(), name="skip-escalation")

    def _on_fix_button_clicked(self) -> None:
        self.fix_in_skills()

    def _on_close_button_clicked(self) -> None:
        self.closed.emit(self.escalation.id)


class ApprovalsView(QWidget):
    """The Approval Needed section: pending escalations, most urgent first."""

    fix_in_skills_requested = Signal(str)

    def __init__(
        self,
        service: EscalationService,
        jobs: Jobs,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._jobs = jobs
        self._cards: dict[str, ApprovalCard] = {}
        self._is_loaded = False
        self._watch = InputWatch(self, is_active=False)   # on while there are cards
        self.setAccessibleName("Approval Needed")
        # Takes the focus only when clicked or after a card is resolved (a neutral place, not a Tab stop);
        # not NoFocus, so the cards can be put in the Tab order after it.
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        pad = max(4, em(self) // 3)
        layout.setSpacing(pad * 2)
        header = QHBoxLayout()
        self.header = SectionHeader("Approval Needed", self)
        header.addWidget(self.header)
        self.count_badge = Badge("0", "amber", self)
        self.count_badge.setAccessibleName("Pending approvals")
        self.count_badge.hide()
        header.addWidget(self.count_badge)
        header.addStretch(1)
        layout.addLayout(header)
        self.list_error = ErrorLabel(self)
        layout.addWidget(self.list_error)
        self.empty_label = EmptyState("Nothing needs your approval right now.", self)
        self.empty_label.setAccessibleName("Nothing needs your approval")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.empty_label.setContentsMargins(0, 0, 0, 0)
        self.empty_label.hide()
        layout.addWidget(self.empty_label)
        self._list = QVBoxLayout()
        self._list.setSpacing(pad * 2)
        layout.addLayout(self._list)

    def card(self, escalation_id: str) -> ApprovalCard | None:
        return self._cards.get(escalation_id)

    def cards(self) -> list[ApprovalCard]:
        return sorted(self._cards.values(), key=lambda c: (PRIORITY_RANK.get(c.escalation.priority, 3),
                                                           -c.escalation.created_at))

    async def refresh(self) -> None:
        """Reload the pending escalations (cards that are busy keep their state)."""
        try:
            pending = await self._service.escalations_list("pending")
        except UserFacingError as exc:
            self.list_error.show_text(f"Could not load what needs your approval: {exc}")
            return
        self.list_error.clear_text()
        self._is_loaded = True
        ids = {esc.id for esc in pending}
        for esc_id in [eid for eid, card in self._cards.items() if eid not in ids and not card.is_busy]:
            self._drop(esc_id)
        for esc in pending:
            if esc.id not in self._cards:
                self._add(esc)
        self._relayout()

    def on_escalation_changed(self, escalation: Escalation) -> None:
        card = self._cards.get(escalation.id)
        if escalation.status == "pending":
            if card is None:
                self._add(escalation)
                self._relayout()
            return
        if card is None:
            return
        if card.is_busy:
            card.mark_resolved(escalation.status)   # the card's own action decides when it leaves
            return
        self._drop(escalation.id)
        self._relayout()

    def _add(self, escalation: Escalation) -> ApprovalCard:
        card = ApprovalCard(
            escalation, approve=self._service.escalations_approve, dismiss=self._service.escalations_dismiss,
            jobs=self._jobs, watch=self._watch, parent=self,
        )
        card.decided.connect(self._on_card_decided)
        card.closed.connect(self._on_card_closed)
        card.fix_in_skills_requested.connect(self.fix_in_skills_requested)
        self._cards[escalation.id] = card
        return card

    def _drop(self, escalation_id: str) -> None:
        card = self._cards.pop(escalation_id, None)
        if card is None:
            return
        focused = QApplication.focusWidget()
        if focused is not None and (focused is card or card.isAncestorOf(focused)):
            # A neutral place, never another card's button: the next key press (the user may be typing
            # on) must not act on a card nobody aimed at. Tab goes on to the remaining cards.
            self.setFocus(Qt.FocusReason.OtherFocusReason)
        self._list.removeWidget(card)
        card.hide()
        card.deleteLater()

    def _relayout(self) -> None:
        ordered = self.cards()
        anchor: QWidget = self
        for index, card in enumerate(ordered):
            if self._list.indexOf(card) != index:
                self._list.removeWidget(card)
                self._list.insertWidget(index, card)
            card.show()
            # Tab follows the screen: cards come where they are shown (a new card's buttons would
            # otherwise be last in the window, after the tasks and the log), and in their order.
            for button in (card.skip_button, card.approve_button, card.fix_button, card.close_button):
                QWidget.setTabOrder(anchor, button)
                anchor = button
        self._watch.set_active(bool(ordered))
        self.empty_label.setVisible(self._is_loaded and not ordered)
        self.count_badge.setText(str(len(ordered)))
        self.count_badge.setVisible(bool(ordered))

    def focus_escalation(self, escalation_id: str) -> ApprovalCard | None:
        """Give the card (not its Go ahead: that takes a Tab) the keyboard focus and flash it; None when unknown."""
        card = self._cards.get(escalation_id)
        if card is None:
            return None
        card.setFocus(Qt.FocusReason.OtherFocusReason)
        card.flash()
        return card

    def _on_card_decided(self, escalation_id: str, _decision: str) -> None:
        self._drop(escalation_id)
        self._relayout()

    def _on_card_closed(self, escalation_id: str) -> None:
        self._drop(escalation_id)
        self._relayout()
