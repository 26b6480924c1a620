"""When to notify: once per new approval card, a burst of cards as one notification, quiet hours, the on/off switch.

Pure logic (no Qt, no D-Bus): the caller feeds it what happened and shows the :class:`Announcement` it returns.
Settings are read on every decision (``settings()``), so a change in config.toml applies at once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from openhuman_desktop.config import NotificationSettings

log = logging.getLogger(__name__)

MAX_BODY = 240
MAX_LISTED = 4          # titles listed in one notification of several cards
MAX_SEEN = 5_000        # card ids remembered (cards are few; this only bounds a very long session)


def local_minute(timestamp: float) -> int:
    """Minutes after local midnight (0-1439) at ``timestamp``."""
    moment = datetime.fromtimestamp(timestamp)
    return moment.hour * 60 + moment.minute


def shorten(text: str, limit: int = MAX_BODY) -> str:
    """``text`` on one line, cut with "…" past ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


@dataclass(frozen=True)
class Card:
    """What a notification needs of an approval card (an ``Escalation``)."""

    id: str
    title: str
    description: str = ""
    priority: str = "normal"
    can_go_ahead: bool = True   # False for a card whose answer is "fix it in Skills" (no Go ahead button)
    go_label: str = "Go ahead"  # "Retry" for a card whose Go ahead changed nothing
    can_fix: bool = False       # the card offers Fix in Skills


@dataclass(frozen=True)
class Announcement:
    """One notification to show.

    ``cards`` are the approval cards it is about: with exactly one, the notification offers Go ahead / Skip; with
    several, only Open (the window, where each card has its own buttons).
    """

    title: str
    body: str
    cards: tuple[Card, ...] = ()
    is_summary: bool = False

    @property
    def card(self) -> Card | None:
        """The card when the notification is about exactly one, else None."""
        return self.cards[0] if len(self.cards) == 1 else None

    @property
    def target(self) -> str | None:
        """The card a click opens (None: the window as it is)."""
        card = self.card
        return card.id if card is not None else None

    @property
    def is_critical(self) -> bool:
        return any(card.priority == "critical" for card in self.cards)


def describe_cards(cards: tuple[Card, ...], *, waited: bool = False) -> Announcement:
    """The notification for one or several new cards (``waited``: the summary after quiet hours)."""
    critical = sum(card.priority == "critical" for card in cards)
    if len(cards) == 1:
        card = cards[0]
        title = ("Approval waiting" if waited else "Approval needed") + (" (critical)" if critical else "")
        text = f"{card.title}: {card.description}" if card.description else card.title
        body = shorten(f"While quiet hours were on: {text}" if waited else text)
        return Announcement(title, body, cards, is_summary=waited)
    title = f"{plural(len(cards), 'approval')} {'waiting' if waited else 'needed'}"
    if critical:
        title += f" ({critical} critical)"
    ordered = sorted(cards, key=lambda c: c.priority != "critical")   # critical ones first, else in order raised
    lines = [f"• {shorten(card.title, 80)}" for card in ordered[:MAX_LISTED]]
    if len(cards) > MAX_LISTED:
        lines.append(f"and {len(cards) - MAX_LISTED} more")
    if waited:
        lines.insert(0, "While quiet hours were on:")
    return Announcement(title, "\n".join(lines), cards, is_summary=waited)


class NotificationPolicy:
    """Decides what to show, and when.

    Args:
        settings: the current ``[notifications]`` settings (read live: ``services.settings.current.notifications``).
        now: unix time.
        minute_of_day: local minutes after midnight for a unix time (injected so tests need no time zone).

    The caller reports new cards (:meth:`card_raised`), resolved ones (:meth:`card_resolved`) and the end of a
    burst (:meth:`end_burst`: the tick finished, or no more cards came for a moment), and checks now and then
    whether quiet hours ended (:meth:`quiet_hours_over`).
    """

    def __init__(self, settings: Callable[[], NotificationSettings], now: Callable[[], float],
                 minute_of_day: Callable[[float], int] = local_minute) -> None:
        self._settings = settings
        self._now = now
        self._minute_of_day = minute_of_day
        self._seen: dict[str, None] = {}          # every card id ever announced or held (ordered, bounded)
        self._burst: dict[str, Card] = {}         # new cards not announced yet
        self._held: dict[str, Card] = {}          # cards that arrived during quiet hours

    @property
    def has_burst(self) -> bool:
        """Whether new cards wait for :meth:`end_burst`."""
        return bool(self._burst)

    @property
    def has_held(self) -> bool:
        """Whether cards wait for the end of quiet hours."""
        return bool(self._held)

    def is_quiet(self) -> bool:
        """Whether notifications are held now (quiet hours)."""
        return self._settings().is_quiet(self._minute_of_day(self._now()))

    def card_raised(self, card: Card) -> bool:
        """A pending card was announced by the core; True when it is new (it joins the current burst)."""
        if card.id in self._seen:
            if card.id in self._burst:
                self._burst[card.id] = card   # newer snapshot, same card
            return False
        self._seen[card.id] = None
        if len(self._seen) > MAX_SEEN:
            del self._seen[next(iter(self._seen))]
        self._burst[card.id] = card
        return True

    def card_resolved(self, card_id: str) -> None:
        """The card was answered (here or elsewhere): it is not announced any more, nor in the summary."""
        self._seen[card_id] = None   # a card that comes back pending later (its run waits for the model) is not new
        self._burst.pop(card_id, None)
        self._held.pop(card_id, None)

    def end_burst(self) -> Announcement | None:
        """The burst is over: one notification for all its cards, or None (off, or held for quiet hours)."""
        cards, self._burst = tuple(self._burst.values()), {}
        if not cards:
            return None
        settings = self._settings()
        if not settings.enabled:
            log.info("notifications are off: %s not announced", plural(len(cards), "new card"))
            return None
        if settings.is_quiet(self._minute_of_day(self._now())):
            log.info("quiet hours: %s held until they end", plural(len(cards), "new card"))
            self._held.update((card.id, card) for card in cards)
            return None
        return describe_cards(cards)

    def card_came_back(self, card: Card, note: str) -> Announcement | None:
        """A Go ahead given in a notification did not run and the card is back (``note`` says why and what to
        do): say so, with Skip and Open but no second Go ahead. During quiet hours the card joins the summary."""
        settings = self._settings()
        if not settings.enabled:
            return None
        if settings.is_quiet(self._minute_of_day(self._now())):
            self._held[card.id] = card
            return None
        if card.go_label == "Retry":  # it changed nothing: the card itself now offers Retry / Skip
            return Announcement("Go ahead did not change anything", shorten(f"{card.title}: {note}"), (card,))
        back = Card(card.id, card.title, card.description, card.priority, can_go_ahead=False)
        return Announcement("Go ahead did not run", shorten(f"{card.title}: {note}"), (back,))

    def message(self, title: str, body: str) -> Announcement | None:
        """Something the assistant says (the notify skill, a config problem): shown unless off or quiet."""
        settings = self._settings()
        if not settings.enabled or settings.is_quiet(self._minute_of_day(self._now())):
            log.info("notification not shown (%s): %s", "off" if not settings.enabled else "quiet hours",
                     shorten(title, 80))
            return None
        return Announcement(shorten(title, 80), shorten(body))

    def quiet_hours_over(self) -> Announcement | None:
        """Once quiet hours have ended: one summary of the cards that waited (still unanswered), else None."""
        if not self._held:
            return None
        settings = self._settings()
        if not settings.enabled:
            self._held.clear()
            return None
        if settings.is_quiet(self._minute_of_day(self._now())):
            return None
        cards, self._held = tuple(self._held.values()), {}
        return describe_cards(cards, waited=True)
