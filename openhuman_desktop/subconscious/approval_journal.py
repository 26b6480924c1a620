"""The journal of an approved run's tool calls, and what a card and a prompt say about them (issue 9, item 3).

Until the agent's effects journal makes every tool call exactly-once, approved runs journal their write
calls here: the intent before, the result after, keyed by the escalation, the tool and its arguments. A
retry of the same approval gets a completed call's recorded result instead of running it again, and a card
that comes back lists what had completed and what had started without finishing.
"""

from __future__ import annotations

from collections.abc import Sequence

from openhuman_desktop.clock import Clock
from openhuman_desktop.orchestration import CallKey, ToolCallRecord
from openhuman_desktop.orchestration.tool_loop import describe_call
from openhuman_desktop.skills.base import ToolResult
from openhuman_desktop.store import ApprovalEffect, EscalationRepository


class ApprovalJournal:
    """The ``EffectsJournal`` of one escalation's approved runs, in subconscious.db."""

    def __init__(self, escalations: EscalationRepository, escalation_id: str, clock: Clock) -> None:
        self._escalations = escalations
        self._id = escalation_id
        self._clock = clock

    async def recorded(self, key: CallKey) -> ToolResult | None:
        text = await self._escalations.effect_done(self._id, key.tool, key.arguments, key.occurrence)
        return ToolResult(text) if text is not None else None

    async def intent(self, key: CallKey) -> None:
        await self._escalations.effect_started(self._id, key.tool, key.arguments, key.occurrence, self._clock.now())

    async def result(self, key: CallKey, result: ToolResult) -> None:
        await self._escalations.effect_finished(
            self._id, key.tool, key.arguments, key.occurrence, result=result.text, is_error=result.is_error,
            now=self._clock.now(),
        )


def tools_line(calls: Sequence[ToolCallRecord]) -> str:
    """What a result row says about the tools a run used: "Tools used: …" or "No tools were used."."""
    if not calls:
        return "No tools were used."
    parts = []
    for call in calls:
        text = describe_call(call.name, call.arguments)
        flag = "already done before" if call.replayed else "failed" if call.is_error else ""
        if flag:
            text = f"{text[:-1]}, {flag})" if text.endswith(")") else f"{text} ({flag})"
        parts.append(text)
    return "Tools used: " + ", ".join(parts)


def completed(effects: Sequence[ApprovalEffect]) -> list[str]:
    """The journaled calls that completed, each as ``✓ name (argument)``."""
    return [f"✓ {describe_call(e.tool, e.arguments)}" for e in effects if e.status == "done"]


def unfinished(effects: Sequence[ApprovalEffect]) -> list[str]:
    """The journaled calls that started and never reported back."""
    return [describe_call(e.tool, e.arguments) for e in effects if e.status == "started"]


def effects_note(effects: Sequence[ApprovalEffect]) -> str:
    """What a returning card says was already done; "" when no tool call had started."""
    parts = []
    done = completed(effects)
    if done:
        parts.append("Already done: " + "; ".join(done) + " (not repeated if you press Go ahead again).")
    maybe = unfinished(effects)
    if maybe:
        parts.append("Started but not confirmed — may or may not have happened: " + "; ".join(maybe) + ".")
    return " ".join(parts)
