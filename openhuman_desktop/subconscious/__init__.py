"""The subconscious loop: heartbeat, tick engine, situation report, evaluation, execution, approvals.

The face exports the inner ports (``EngineControl``, ``TickCards``, ``RuntimeStatus``) and the classes the
composition root wires: the service, the engine, the heartbeat and the approval gate, each imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from openhuman_desktop.subconscious.ports import EngineControl, RuntimeStatus, TickCards

if TYPE_CHECKING:
    from openhuman_desktop.subconscious.approvals import ApprovalGate
    from openhuman_desktop.subconscious.engine import SubconsciousEngine
    from openhuman_desktop.subconscious.heartbeat import Heartbeat
    from openhuman_desktop.subconscious.service import SubconsciousService

__all__ = [
    "ApprovalGate", "EngineControl", "Heartbeat", "RuntimeStatus", "SubconsciousEngine", "SubconsciousService",
    "TickCards",
]


def __getattr__(name: str) -> Any:
    """The service, engine, heartbeat and gate, imported when first asked for."""
    if name == "ApprovalGate":
        from openhuman_desktop.subconscious.approvals import ApprovalGate

        return ApprovalGate
    if name == "SubconsciousEngine":
        from openhuman_desktop.subconscious.engine import SubconsciousEngine

        return SubconsciousEngine
    if name == "Heartbeat":
        from openhuman_desktop.subconscious.heartbeat import Heartbeat

        return Heartbeat
    if name == "SubconsciousService":
        from openhuman_desktop.subconscious.service import SubconsciousService

        return SubconsciousService
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
