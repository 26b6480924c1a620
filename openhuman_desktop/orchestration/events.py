"""What the agent publishes: a run's start, its nodes, its streamed answer and its end (the ``Run`` snapshot,
typed), and the steering directive's new versions and reflections (``Directive``, ``Reflection``)."""

from __future__ import annotations

from dataclasses import dataclass

from openhuman_desktop.events import Event
from openhuman_desktop.orchestration.ports import Run
from openhuman_desktop.orchestration.steering import Directive, Reflection

__all__ = [
    "NodeFinished", "ReflectionFinished", "ReflectionStarted", "RunFinished", "RunStarted", "SteeringChanged",
    "TextStreamed",
]


@dataclass(frozen=True)
class RunStarted(Event):
    """An agent run began (or resumed after a restart); ``run`` is its snapshot."""

    run: Run


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

    run: Run


@dataclass(frozen=True)
class SteeringChanged(Event):
    """A new steering directive version was written (reflection, revert or the user's edit)."""

    directive: Directive


@dataclass(frozen=True)
class ReflectionStarted(Event):
    """The subconscious model began reflecting (``trigger``: ``schedule`` or ``manual``)."""

    trigger: str


@dataclass(frozen=True)
class ReflectionFinished(Event):
    """A reflection ended; ``reflection`` is its outcome and why."""

    reflection: Reflection
