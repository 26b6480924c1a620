"""What a desktop notification of an approval card shows: the card as the policy sees it, its buttons (the spec's
action keys) and the app icon as an image hint."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PySide6.QtGui import QImage

from openhuman_desktop.notifications import Announcement, Card
from openhuman_desktop.qt import icons
from openhuman_desktop.store.records import FIX_IN_SKILLS, GO_AHEAD, RETRY

ICON_PIXELS = 64
APPROVE, SKIP, OPEN, DEFAULT, FIX = "approve", "dismiss", "open", "default", "fix"


def card_of(escalation: Any) -> Card:
    """An ``Escalation`` as the policy sees it, with the buttons the core chose for it (``choices``)."""
    choices = tuple(getattr(escalation, "choices", (GO_AHEAD,)))
    return Card(escalation.id, escalation.title, escalation.description or "", escalation.priority,
                can_go_ahead=GO_AHEAD in choices or RETRY in choices,
                go_label="Retry" if RETRY in choices and GO_AHEAD not in choices else "Go ahead",
                can_fix=FIX_IN_SKILLS in choices)


@lru_cache(maxsize=1)
def icon_hint() -> tuple[str, tuple[int, int, int, bool, int, int, bytes]]:
    """The app icon as the spec's ``image-data`` hint (``iiibiiay``: raw RGBA), so any server shows it."""
    image = icons.render("app", ICON_PIXELS).convertToFormat(QImage.Format.Format_RGBA8888)
    data = bytes(image.constBits())[: image.bytesPerLine() * image.height()]
    return "(iiibiiay)", (image.width(), image.height(), image.bytesPerLine(), True, 8, 4, data)


def actions_for(announcement: Announcement, capabilities: frozenset[str]) -> list[tuple[str, str]]:
    """The buttons: the card's own (Go ahead or Retry or Fix in Skills, and Skip) and Open, for one card; Open
    only for several."""
    if "actions" not in capabilities:
        return []
    actions = [(DEFAULT, "Open")]
    card = announcement.card
    if card is not None and card.can_go_ahead:
        actions += [(APPROVE, card.go_label), (SKIP, "Skip")]
    elif card is not None and card.can_fix:
        actions += [(FIX, "Fix in Skills"), (SKIP, "Skip")]
    elif card is not None:
        actions += [(SKIP, "Skip")]
    actions.append((OPEN, "Open"))   # the default action is a click on the body: not every server shows it
    return actions
