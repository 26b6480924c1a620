"""The agent's sub-agent loop driven directly with a real model client (the tests of the tool-using loop itself:
offered tools, text calls, caps, the step limit), on an in-memory journal."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openhuman_desktop.llm.base import LlmClient
from openhuman_desktop.orchestration._calls import Caller
from openhuman_desktop.orchestration.subagent import CallRecord, SubagentRun, SubagentTrace, Subtask, run_subagent
from openhuman_desktop.skills.base import Tool
from tests.fakes.clock import FakeClock
from tests.fakes.journal import MemoryJournal


@dataclass(frozen=True)
class LoopResult:
    """A sub-agent's trace as these tests read it."""

    trace: SubagentTrace

    @property
    def text(self) -> str:
        return self.trace.text

    @property
    def steps(self) -> int:
        return self.trace.steps

    @property
    def model_calls(self) -> int:
        return self.trace.model_calls

    @property
    def calls(self) -> tuple[CallRecord, ...]:
        return self.trace.calls

    @property
    def tools_called(self) -> tuple[str, ...]:
        return tuple(call.name for call in self.trace.calls)

    @property
    def unexecuted(self) -> tuple[str, ...]:
        return self.trace.unexecuted

    @property
    def changed_something(self) -> bool:
        return self.trace.changed_something


async def run_loop(client: LlmClient, task: str, tools: Sequence[Tool], *, max_steps: int = 8,
                   writes: bool | None = None, system: str = "You are a test sub-agent.") -> LoopResult:
    """Run one sub-agent on ``task`` with ``tools`` (writes allowed when any tool writes, unless ``writes``)."""
    clock = FakeClock()
    caller = Caller("local", client, clock, clock.now() + 3600, 300.0)
    allowed = any(tool.writes for tool in tools) if writes is None else writes
    run = SubagentRun(caller, MemoryJournal(), "run-1", 1, 0, list(tools), allowed, max_steps, system=system)
    return LoopResult(await run_subagent(run, Subtask("The task", task)))
