"""The in-process event bus: the core says what happened, listeners (RPC, Qt bridge, logs) react.

The events here carry plain values. An event carrying a record lives with the record's package, typed, so this
kernel never imports upward: ``store/events.py`` (tasks, activity rows, cards), ``memory/events.py`` and
``orchestration/events.py`` (runs, the steering directive, reflections)."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Event:
    """Base of all events."""


@dataclass(frozen=True)
class TickStarted(Event):
    """A tick began."""

    generation: int
    due_count: int


TickOutcome = Literal["ok", "failed", "cancelled", "idle"]
"""How a tick ended."""


@dataclass(frozen=True)
class TickFinished(Event):
    """A tick ended, and how (:data:`TickOutcome`)."""

    generation: int
    outcome: TickOutcome


@dataclass(frozen=True)
class StatusChanged(Event):
    """Something in the engine status changed (state, counters, config)."""


@dataclass(frozen=True)
class SkillsChanged(Event):
    """A skill's state or tools changed (an MCP server connected, failed, restarted or listed new tools)."""


@dataclass(frozen=True)
class Notified(Event):
    """Something the user should see as a desktop notification."""

    title: str
    body: str


E = TypeVar("E", bound=Event)
Handler = Callable[[Any], None]


class EventBus:
    """Synchronous publish/subscribe by event class.

    Handlers run in the publisher's call; a failing handler is logged and never breaks the publisher
    or other handlers.
    """

    def __init__(self) -> None:
        self._handlers: dict[type[Event], list[Handler]] = defaultdict(list)

    def subscribe(self, event_type: type[E], handler: Callable[[E], None]) -> Callable[[], None]:
        """Call ``handler`` for every published event of ``event_type``.

        Returns:
            A function that removes the subscription.
        """
        self._handlers[event_type].append(handler)

        def unsubscribe() -> None:
            if handler in self._handlers[event_type]:
                self._handlers[event_type].remove(handler)

        return unsubscribe

    def follows(self, event_type: type[Event]) -> bool:
        """Whether anything subscribes to ``event_type``: a publisher of thousands can skip building them."""
        return bool(self._handlers.get(event_type))

    def publish(self, event: Event) -> None:
        """Deliver ``event`` to its subscribers."""
        for handler in list(self._handlers.get(type(event), ())):
            try:
                handler(event)
            except Exception:
                log.exception("event handler %r failed for %s", handler, type(event).__name__)
