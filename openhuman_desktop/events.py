"""The in-process event bus: the core says what happened, listeners (RPC, Qt bridge, logs) react."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Event:
    """Base of all events."""


@dataclass(frozen=True)
class TaskChanged(Event):
    """A task was added or changed; ``task`` is the new snapshot."""

    task: Any


@dataclass(frozen=True)
class TaskRemoved(Event):
    """A task was removed."""

    task_id: str


@dataclass(frozen=True)
class ActivityLogged(Event):
    """A log row was inserted or updated in place; ``entry`` is the new snapshot."""

    entry: Any


@dataclass(frozen=True)
class EscalationChanged(Event):
    """An escalation was created or resolved; ``escalation`` is the new snapshot."""

    escalation: Any


@dataclass(frozen=True)
class MemoryAdded(Event):
    """A memory was stored (by the assistant or over RPC); ``memory`` is the new one."""

    memory: Any


@dataclass(frozen=True)
class MemoryRemoved(Event):
    """A memory was removed."""

    memory_id: str


@dataclass(frozen=True)
class TickStarted(Event):
    """A tick began."""

    generation: int
    due_count: int


@dataclass(frozen=True)
class TickFinished(Event):
    """A tick ended (``outcome`` is ``ok``, ``failed``, ``cancelled`` or ``idle``)."""

    generation: int
    outcome: str


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


@dataclass(frozen=True)
class RunStarted(Event):
    """An agent run began (or resumed after a restart); ``run`` is its snapshot (``orchestration.Run``)."""

    run: Any


@dataclass(frozen=True)
class NodeFinished(Event):
    """A node of a run returned and its transition was committed."""

    run_id: str
    thread_id: str
    node: str
    step: int
    checkpoint_id: int


@dataclass(frozen=True)
class TextStreamed(Event):
    """A piece of a run's answer as the front-end agent writes it (for the run's channel)."""

    run_id: str
    thread_id: str
    channel_source: str
    delta: str


@dataclass(frozen=True)
class RunFinished(Event):
    """A run ended (completed, failed or cancelled); ``run`` is its final snapshot."""

    run: Any


@dataclass(frozen=True)
class SteeringChanged(Event):
    """A new steering directive version was written (reflection, revert or the user's edit);
    ``directive`` is ``orchestration.steering.Directive``."""

    directive: Any


@dataclass(frozen=True)
class ReflectionStarted(Event):
    """The subconscious model began reflecting (``trigger``: ``schedule`` or ``manual``)."""

    trigger: str


@dataclass(frozen=True)
class ReflectionFinished(Event):
    """A reflection ended; ``reflection`` is ``orchestration.steering.Reflection`` (its outcome and why)."""

    reflection: Any


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
