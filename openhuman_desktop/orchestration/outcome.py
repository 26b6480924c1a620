"""What a run's ``agent_execution`` did, as the journal keeps it for the Run (moved out of :mod:`nodes`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from openhuman_desktop.orchestration.ports import (
    StepJournal,
)

OUTCOME_STEP = 0
OUTCOME_KEY = "outcome"
"""Where ``agent_execution`` records the run's :class:`ExecutionOutcome` (step 0 is no node's step)."""


@dataclass(frozen=True)
class ExecutionOutcome:
    """What a run's ``agent_execution`` did, for the Run: the tools it used, the ``RECOMMENDED ACTION:`` of an
    analysis-only reply, and whether a write took effect."""

    tools_used: tuple[str, ...] = ()
    recommended_action: str | None = None
    changed_something: bool = False
    unexecuted: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = {"tools_used": list(self.tools_used), "recommended_action": self.recommended_action,
                "changed_something": self.changed_something}
        if self.unexecuted:
            data["unexecuted"] = list(self.unexecuted)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ExecutionOutcome:
        action = data.get("recommended_action")
        return cls(tuple(str(name) for name in data.get("tools_used") or ()),
                   action if isinstance(action, str) else None, bool(data.get("changed_something")),
                   tuple(str(name) for name in data.get("unexecuted") or ()))


async def read_outcome(journal: StepJournal, run_id: str) -> ExecutionOutcome | None:
    """The run's outcome as ``agent_execution`` recorded it, or None (it has not finished that node)."""
    entry = await journal.get(run_id, OUTCOME_STEP, OUTCOME_KEY)
    return None if entry is None or entry.result is None else ExecutionOutcome.from_json(entry.result)
