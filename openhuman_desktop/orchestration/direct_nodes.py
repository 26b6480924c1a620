"""The direct paths of ``agent_execution``: requests whose own words settle the work (moved out of :mod:`nodes`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from openhuman_desktop.orchestration import prompts
from openhuman_desktop.orchestration._calls import (
    record,
    recorded,
)
from openhuman_desktop.orchestration.arithmetic import answer_text, plain_sum
from openhuman_desktop.orchestration.blocks import UNCERTAIN_LABEL, append_done, run_input
from openhuman_desktop.orchestration.direct import (
    APPEND_TOOL,
    READ_ANSWER,
    READ_TOOL,
    DirectPlan,
    appended_reply,
    direct_plan,
    paths_in,
    quoted_line,
    relevant_lines,
)
from openhuman_desktop.orchestration.graph import (
    NodeContext,
)
from openhuman_desktop.orchestration.outcome import OUTCOME_STEP, ExecutionOutcome
from openhuman_desktop.orchestration.ports import (
    CHAT,
    WRITE,
    ProposedCall,
)
from openhuman_desktop.orchestration.state import (
    Values,
)
from openhuman_desktop.orchestration.subagent import (
    SubagentRun,
    SubagentTrace,
    Subtask,
    call_once,
)
from openhuman_desktop.orchestration.tool_calls import describe_call
from openhuman_desktop.skills.base import Tool

DIRECT_KEY = "direct_plan"
"""Where ``agent_execution`` records (at step 0) that the request's words settled the plan, and its tool."""


class DirectNodes:
    """The nodes' direct paths, a part of :class:`nodes._Nodes` (which gives the methods declared here)."""

    _raise_call_card: Callable[[NodeContext, str, ProposedCall], Awaitable[None]]
    _finish_execution: Callable[..., Awaitable[dict[str, Any]]]

    async def _read_for(self, ctx: NodeContext, plan: DirectPlan, tools: Sequence[Tool]) -> DirectPlan:
        """A single-file question: the app reads the file itself (journaled, once) and the sub-agent is shown
        its lines with no tool to call; a small model wrote the wrong path, or read the file and answered
        from elsewhere. A read that fails leaves the plan as it was (the sub-agent may try another path)."""
        tool = next((t for t in tools if t.name == READ_TOOL), None)
        path = paths_in(run_input(ctx.run))
        if tool is None or len(path) != 1:
            return plan
        runner = SubagentRun(None, ctx.journal, ctx.run.id, ctx.step, 0, [tool], False, 1)
        result = await call_once(runner, "direct:read", tool, {"path": path[0]})
        if result.is_error:
            return plan
        question = " ".join(run_input(ctx.run).split())
        asked = prompts.fill(READ_ANSWER, path=path[0], text=question)
        shown = relevant_lines(result.text.strip(), question, path[0])
        return DirectPlan(plan.title, asked.replace("{content}", shown), ())  # the file's text last

    async def _direct_append(self, ctx: NodeContext, values: Values, steering: Mapping[str, Any] | None,
                             tools: Sequence[Tool]) -> dict[str, Any] | None:
        """A single append of one quoted line the user asked for, carried out by the app: exactly that line,
        once (journaled like any write), and the reply says what the tool did — no model at all. Qwen2.5-0.5B,
        given files_append, appended 'buy milk' three times and wrote a sentence of its own after 'call Anna
        about the party'; asked to confirm an append the app had made, it echoed its instructions ("Sub-task:
        Append to todo.md Th…"). None: not such a request (the plan decides)."""
        if ctx.run.purpose != CHAT or ctx.run.license is not None or ctx.permission != WRITE:
            return None
        message = run_input(ctx.run)
        direct = direct_plan(message, tools)
        tool = next((t for t in tools if t.name == APPEND_TOOL), None)
        path, line = paths_in(message), quoted_line(message)
        if direct is None or direct.tools != (APPEND_TOOL,) or tool is None or len(path) != 1 or line is None:
            return None
        if await recorded(ctx.journal, ctx.run.id, OUTCOME_STEP, DIRECT_KEY) is None:
            await record(ctx.journal, ctx.run.id, OUTCOME_STEP, DIRECT_KEY, {"tools": []})

        async def ask(key: str, again: ProposedCall) -> None:  # begun before a kill, and may not have run
            await self._raise_call_card(ctx, key, again)

        runner = SubagentRun(None, ctx.journal, ctx.run.id, ctx.step, 0, [tool], True, 1, ask=ask)
        arguments = {"path": path[0], "text": line + "\n"}
        record_ = await call_once(runner, "direct:append", tool, arguments)
        reply = appended_reply([append_done(record_)], path[0])
        what = describe_call(tool.name, arguments)
        trace = SubagentTrace(0, Subtask(direct.title, what), record_.text, 1, 0, (record_,),
                              (f"call {what} → {'error' if record_.is_error else 'ok'}: {record_.text[:2000]}",))
        used = what + (f" ({UNCERTAIN_LABEL})" if record_.uncertain else
                       " (failed)" if record_.is_error and not record_.settled else "")
        outcome = ExecutionOutcome((used,), None, record_.changed)
        return await self._finish_execution(ctx, values, None, steering, [trace.subtask], [trace], reply, outcome)

    async def _direct_sum(self, ctx: NodeContext, values: Values,
                          steering: Mapping[str, Any] | None) -> dict[str, Any] | None:
        """A chat that is only an arithmetic question ("What is 17 × 23?") is answered by the app, exactly and
        without a model (:mod:`arithmetic`: Qwen2.5-0.5B said 401). None: not such a message."""
        if ctx.run.purpose != CHAT:
            return None
        found = plain_sum(run_input(ctx.run))
        if found is None:
            return None
        if await recorded(ctx.journal, ctx.run.id, OUTCOME_STEP, DIRECT_KEY) is None:
            await record(ctx.journal, ctx.run.id, OUTCOME_STEP, DIRECT_KEY, {"tools": []})
        reply = answer_text(found)
        trace = SubagentTrace(0, Subtask(f"Work out {found.shown}", found.shown), reply, 0, 0)
        return await self._finish_execution(ctx, values, None, steering, [trace.subtask], [trace], reply,
                                            ExecutionOutcome((), None, False))

    async def _is_direct(self, ctx: NodeContext) -> bool:
        """Whether the run's plan was one the request's words settled (recorded at step 0: pass 2 asks too)."""
        if ctx.run.purpose != CHAT:
            return False
        return await recorded(ctx.journal, ctx.run.id, OUTCOME_STEP, DIRECT_KEY) is not None

    async def _direct_tools(self, ctx: NodeContext, tools: Sequence[Tool]) -> Sequence[Tool]:
        """A plan the request's words settled offers only the tool it names (a small model offered every tool
        read the file and then wandered into the task list and the file list); any other plan, every tool."""
        known = await recorded(ctx.journal, ctx.run.id, OUTCOME_STEP, DIRECT_KEY) if ctx.run.purpose == CHAT else None
        names = known.get("tools") if known is not None else None
        if not isinstance(names, list):
            return tools
        return [tool for tool in tools if tool.name in names]  # none: the file was read for it
