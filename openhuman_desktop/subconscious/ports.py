"""The subconscious package's inner ports: what the engine, its service and the approval gate need of each other.

The engine never imports the service (an import-linter contract says so) nor the gate: each gets the others as
these small protocols, wired in ``bootstrap``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from openhuman_desktop.store import LogEntry, Task
from openhuman_desktop.subconscious.decisions import Outcome, ProposedEscalation


@dataclass(frozen=True)
class RuntimeStatus:
    """What only the running engine knows."""

    state: str
    state_reason: str
    next_tick_at: float | None


class EngineControl(Protocol):
    """What the service needs from the engine and heartbeat."""

    def request_tick(self, reason: str) -> object:
        """Start a tick now in the background (superseding one in flight)."""
        ...

    def runtime_status(self) -> RuntimeStatus:
        """The live part of the status (state, reason, next tick)."""
        ...

    def pause(self) -> None:
        """Stop scheduled ticks until resumed."""
        ...

    def resume(self) -> None:
        """Start scheduled ticks again."""
        ...


class TickCards(Protocol):
    """What a tick needs from the approval gate (``subconscious.approvals.ApprovalGate``)."""

    async def declined_for(self, task: Task) -> Sequence[tuple[str, float]]:
        """The recommendations the user skipped for ``task`` lately, ``(action, declined_at)``, newest first (an
        analysis-only prompt lists them so the model does not recommend them again)."""
        ...

    async def raise_from_tick(self, task: Task, row: LogEntry, proposed: ProposedEscalation,
                              declined: Sequence[tuple[str, float]]) -> Outcome | None:
        """Raise the card of a tick's recommendation (announced at once).

        Returns:
            None when the card was raised (the row waits for approval); otherwise the outcome the row gets
            instead: a recommendation the user skipped lately is not asked again (``noop``), and a task removed
            or disabled meanwhile gets no card (``cancelled``).
        """
        ...
