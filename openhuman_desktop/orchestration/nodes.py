"""The agent's four nodes (CONTRACT §8) and ``build_graph``, wired from injected parts.

Every model answer and tool call of a node is recorded in the run's step journal, so a node re-run after a
kill replays what was recorded and only asks or does what is new. The quick tier being down does not fail a
run: pass 1 then hands the user's own words to the reasoning model as the instructions, and pass 2 delivers
the reasoning model's reply as it is (both logged). The reasoning tier being down fails the run with one
sentence that names it and the fix.

What the service puts on the Run (tools used, the recommended action, whether something changed) is
recorded by ``agent_execution`` in the journal under step :data:`OUTCOME_STEP`, key :data:`OUTCOME_KEY`;
:func:`read_outcome` reads it (also for a run resumed after a restart). A write that may or may not have
happened (it had begun before a kill and its target changed meanwhile) is no change: it is listed as such and
comes back to the user as a card of its own (:meth:`_Nodes._raise_call_card`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from openhuman_desktop.clock import Clock
from openhuman_desktop.config import AgentSettings
from openhuman_desktop.llm.base import ChatRequest, LlmClient, Message
from openhuman_desktop.orchestration import prompts
from openhuman_desktop.orchestration._calls import (
    QUICK,
    REASONING,
    AgentError,
    Caller,
    DeadlinePassed,
    TierFailed,
    TokenCount,
    caller,
    failed,
    record,
    recorded,
)
from openhuman_desktop.orchestration.blocks import (
    UNCERTAIN_LABEL,
    append_done,
    normalise,
    recent_text,
    results_block,
    run_input,
    steering_block,
    tools_block,
)
from openhuman_desktop.orchestration.compression import compress
from openhuman_desktop.orchestration.context import choose as choose_eviction
from openhuman_desktop.orchestration.context import (
    evicted_text,
    eviction_update,
    map_reduce,
    measure,
    share,
    summary_request,
)
from openhuman_desktop.orchestration.direct import (
    APPEND_TOOL,
    READ_TOOL,
    appended_reply,
    direct_kind,
    direct_plan,
    keeps_to,
    needs_tools,
    paths_in,
)
from openhuman_desktop.orchestration.direct_nodes import DIRECT_KEY, DirectNodes
from openhuman_desktop.orchestration.graph import (
    AGENT_EXECUTION,
    CHANNEL_INGESTION,
    CONTEXT_MANAGER_HOOK,
    FRONTEND_AGENT,
    Graph,
    NodeContext,
)
from openhuman_desktop.orchestration.outcome import OUTCOME_KEY, OUTCOME_STEP, ExecutionOutcome, read_outcome
from openhuman_desktop.orchestration.plan import (
    MAX_INSTRUCTIONS_CHARS,
    BlankPlan,
    PlanError,
    parse_plan,
    plan_schema,
)
from openhuman_desktop.orchestration.ports import (
    CALL,
    CHAT,
    QUICK_TIER,
    READ,
    WRITE,
    CardRaiser,
    EvictionSink,
    IntentJudge,
    MemoryRecall,
    Permission,
    ProposedCall,
    SteeringSource,
)
from openhuman_desktop.orchestration.recommend import (
    GO_AHEAD_FIRST,
    RecommendationFilter,
    recommended_action,
    without_recommendation,
)
from openhuman_desktop.orchestration.state import (
    AGENT_INSTRUCTIONS,
    AGENT_REPLY,
    CHANNEL_RESPONSE,
    CHANNEL_SOURCE,
    COMPRESSED_HISTORY,
    CONTEXT_UTILIZATION,
    MESSAGES,
    RAW_CHANNEL_PAYLOAD,
    SUBCONSCIOUS_STEERING,
    TIMELINE,
    WORLD_STATE_DIFF,
    Values,
    apply,
)
from openhuman_desktop.orchestration.subagent import (
    CallRecord,
    SubagentRun,
    SubagentTrace,
    Subtask,
    call_once,
    run_subagent,
)
from openhuman_desktop.orchestration.tool_calls import describe_call
from openhuman_desktop.skills.base import SkillRegistry, Tool, ToolResult

__all__ = ["OUTCOME_KEY", "OUTCOME_STEP", "PERMISSION_KEY", "AgentError", "DeadlinePassed", "ExecutionOutcome",
           "TierFailed", "TokenCount", "build_graph", "normalise", "parse_plan", "plan_schema",
           "read_outcome"]

log = logging.getLogger(__name__)

PASS1_TOKENS = 256
PASS2_TOKENS = 1_024
PLAN_TOKENS = 512
REPLY_TOKENS = 1_024
HEARTBEAT_SUBTASK = "The task"
FALLBACK_SUBTASK = "The request"
"""The one sub-task of a chat whose plan came back blank twice: the front desk's instructions as they are."""
STEERING_KEY = "steering"
"""Where ``agent_execution`` records the directive it used (at its own step)."""
RECALL_KEY = "memory_recall"
"""Where ``agent_execution`` records the memories it recalled (at its own step)."""
RECALLED_MEMORIES = 5
RECALLED_CHARS = 400
PERMISSION_KEY = "permission"
"""Where pass 1 records the run's permission (step 0), so a resumed ``agent_execution`` finds it."""
CALL_KEY = "call"
"""Where a ``call`` run's one approved tool call is journaled (at its ``agent_execution`` step)."""
NOT_LICENSED = ("Not run: {call} is outside what the user approved ({action}). A card of its own now asks the "
                "user whether to carry out exactly this call; do not try it again, and say in your answer that it "
                "waits for their approval.")
NOT_LICENSED_REASON = "The approved run wanted to do this as well, and the approval ({action}) did not cover it."
CALL_SKILL_WAIT = 30.0
"""How long an approved call waits for its skill to finish starting (seconds)."""
CALL_GONE = "Not carried out: the tool {tool} is not available any more (its skill was removed or turned off)."






def build_graph(*, quick: Callable[[], LlmClient | None], reasoning: Callable[[], LlmClient | None],
                window: Callable[[str], int], skills: SkillRegistry, tokens: TokenCount, intent: IntentJudge,
                steering: SteeringSource, cards: CardRaiser, evictions: EvictionSink,
                settings: Callable[[], AgentSettings], set_permission: Callable[[str, Permission], Awaitable[None]],
                clock: Clock, recall: MemoryRecall | None = None,
                quick_worker: Callable[[], LlmClient | None] | None = None) -> Graph:
    """The agent's graph: ``channel_ingestion`` → ``frontend_agent`` → ``agent_execution`` → ``frontend_agent``
    → ``context_manager_hook``, each node a closure over the parts given here.

    Args:
        quick / reasoning: the current client of each tier (None: not configured).
        window: a tier's context window in tokens (tiers ``"local"``, ``"reasoning"``).
        skills: the tools; a read run's sub-agents get only the read-only ones.
        tokens: the product's token counter (compression bound, context measurement).
        intent: whether the user's own words ask for a write (when the caller did not fix the permission).
        steering: the current steering directive.
        cards: raises the approval card of a chat run's ``RECOMMENDED ACTION:``.
        evictions: long-term memory for what the context hook evicts.
        settings: ``[agent]`` (read at each node, so live changes apply).
        set_permission: records the permission the front-end agent decided on the Run.
        clock: wall time (the run's deadline is on it).
        recall: long-term memories related to the request, for agentic-v1's prompt (None: none).
        quick_worker: the quick tier's client for a run whose tool-using work is the quick tier's (the
            heartbeat's ``act``); None: ``quick``. (The app gives one that does not report the tier's health:
            a failed ``act`` fails its row, not the status.)
    """
    nodes = _Nodes(quick, reasoning, window, skills, tokens, intent, steering, cards, evictions, settings,
                   set_permission, clock, recall)
    nodes.quick_worker = quick_worker or quick
    return Graph(
        nodes={CHANNEL_INGESTION: nodes.channel_ingestion, FRONTEND_AGENT: nodes.frontend_agent,
               AGENT_EXECUTION: nodes.agent_execution, CONTEXT_MANAGER_HOOK: nodes.context_manager_hook},
        step_limit=settings().step_limit,
    )


def _for_the_person(answer: str) -> str:
    """A chat answer as delivered: without the protocol line (its card shows the action), never empty."""
    return without_recommendation(answer) or GO_AHEAD_FIRST


class _Nodes(DirectNodes):
    """The four nodes over the injected parts (see :func:`build_graph`)."""

    def __init__(self, quick: Callable[[], LlmClient | None], reasoning: Callable[[], LlmClient | None],
                 window: Callable[[str], int], skills: SkillRegistry, tokens: TokenCount, intent: IntentJudge,
                 steering: SteeringSource, cards: CardRaiser, evictions: EvictionSink,
                 settings: Callable[[], AgentSettings], set_permission: Callable[[str, Permission], Awaitable[None]],
                 clock: Clock, recall: MemoryRecall | None = None) -> None:
        self._recall = recall
        self._recalled: dict[str, str] = {}  # run id → its prompt block of recalled memories, while it executes
        self._quick = quick
        self._reasoning = reasoning
        self._window = window
        self._skills = skills
        self._tokens = tokens
        self._intent = intent
        self._steering = steering
        self._cards = cards
        self._evictions = evictions
        self._settings = settings
        self._set_permission = set_permission
        self._clock = clock
        self.quick_worker = quick

    def _caller(self, tier: str, ctx: NodeContext, *, worker: bool = False) -> Caller:
        get = (self.quick_worker if worker else self._quick) if tier == QUICK else self._reasoning
        return caller(tier, get, self._clock, ctx.deadline, self._settings().model_timeout_seconds)

    def _quick_caller(self, ctx: NodeContext) -> Caller | None:
        try:
            return self._caller(QUICK, ctx)
        except TierFailed:
            return None

    # -- channel_ingestion ------------------------------------------------------------------------------

    async def channel_ingestion(self, ctx: NodeContext, values: Values) -> dict[str, Any]:
        """Normalise the inbound text; empty the per-run keys. No model."""
        text = run_input(ctx.run)
        return {RAW_CHANNEL_PAYLOAD: text, CHANNEL_SOURCE: ctx.run.channel_source,
                MESSAGES: [{"role": "user", "content": text, "at": self._clock.now()}],
                AGENT_INSTRUCTIONS: "", AGENT_REPLY: "", CHANNEL_RESPONSE: ""}

    # -- frontend_agent ---------------------------------------------------------------------------------

    async def frontend_agent(self, ctx: NodeContext, values: Values) -> dict[str, Any]:
        """Pass 1 (no ``agent_reply`` yet): the permission and the macro-instructions. Pass 2: the answer,
        streamed."""
        if not values.get(AGENT_REPLY):
            return await self._pass1(ctx, values)
        return await self._pass2(ctx, values)

    async def _pass1(self, ctx: NodeContext, values: Values) -> dict[str, Any]:
        known = await recorded(ctx.journal, ctx.run.id, ctx.step, "pass1")
        user_text = run_input(ctx.run)  # the user's own words: never history, never tool output
        if known is not None:
            permission: Permission = ctx.permission or (WRITE if known.get("permission") == WRITE else READ)
            instructions = str(known.get("instructions") or user_text)
        else:
            if ctx.permission is not None:
                permission = ctx.permission
            else:   # the judge is the one place that decides from words (questions included): DESIGN §2
                permission = WRITE if await self._intent.asks_for_write(user_text) else READ
            if ctx.run.purpose == CHAT:
                instructions, fell_back = await self._instructions(ctx, values, user_text)
            else:  # the heartbeat's prompt already is the local model's instructions for agentic-v1
                instructions, fell_back = user_text, False
            await record(ctx.journal, ctx.run.id, ctx.step, "pass1",
                         {"instructions": instructions, "permission": permission, "fallback": fell_back})
        if ctx.permission is None:
            await self._set_permission(ctx.run.id, permission)
            ctx.permission = permission
        if await recorded(ctx.journal, ctx.run.id, OUTCOME_STEP, PERMISSION_KEY) is None:
            await record(ctx.journal, ctx.run.id, OUTCOME_STEP, PERMISSION_KEY, {"permission": ctx.permission})
        return {AGENT_INSTRUCTIONS: instructions}

    async def _permission(self, ctx: NodeContext) -> str:
        """The run's permission: the context's, else what pass 1 recorded (a resumed run), else read."""
        if ctx.permission is None:
            known = await recorded(ctx.journal, ctx.run.id, OUTCOME_STEP, PERMISSION_KEY)
            ctx.permission = WRITE if known is not None and known.get("permission") == WRITE else READ
        return ctx.permission

    async def _instructions(self, ctx: NodeContext, values: Values, user_text: str) -> tuple[str, bool]:
        if direct_kind(user_text) is not None:
            # A single-file question or edit: the user's own words are the instructions (a small model asked to
            # restate them answers the question itself instead, with facts of its own).
            return user_text, False
        quick = self._quick_caller(ctx)
        problem = "it is not configured"
        if quick is not None:
            request = ChatRequest([Message("system", prompts.PASS1),
                                   Message("user", f"{recent_text(values, skip_last=True)}The user's message:\n"
                                                   f"{user_text}")])
            try:
                answer = (await quick.chat(request, max_tokens=PASS1_TOKENS)).content.strip()
            except AgentError as exc:
                problem = str(exc)
            else:
                if answer and keeps_to(user_text, answer):
                    return answer[:MAX_INSTRUCTIONS_CHARS], False
                if answer:  # by design, not a failure: the user's own words are the safer instructions
                    log.info("run %s: the front desk's instructions did not keep to the message (a number or a "
                             "file of their own, or a file left out); the user's message is the instructions",
                             ctx.run.id)
                    return user_text, False
                problem = "it gave an empty answer"
        log.warning("run %s: the quick model wrote no instructions (%s); the user's message is the "
                    "instructions", ctx.run.id, problem)
        return user_text, True

    async def _pass2(self, ctx: NodeContext, values: Values) -> dict[str, Any]:
        reply = str(values.get(AGENT_REPLY) or "")
        known = await recorded(ctx.journal, ctx.run.id, ctx.step, "pass2")
        if known is not None:
            text = str(known.get("text") or reply)
            if ctx.run.purpose == CHAT:
                text = _for_the_person(text)   # recorded before the protocol line was left out
            ctx.stream(text)
        elif ctx.run.purpose != CHAT:
            # A heartbeat run's answer goes to the activity log and its card as agentic-v1 wrote it: the
            # "RECOMMENDED ACTION:" line and the tools line must not be paraphrased away.
            text = reply
            ctx.stream(text)
            await record(ctx.journal, ctx.run.id, ctx.step, "pass2", {"text": text})
        elif await self._is_direct(ctx):
            # One file, one question or one edit: the sub-agent answered the user's own message; a small model
            # asked to say it again changes the facts ("leaves at 20:45" for a flight at 07:25).
            text = _for_the_person(reply)
            ctx.stream(text)
            await record(ctx.journal, ctx.run.id, ctx.step, "pass2", {"text": text})
        else:
            text = _for_the_person(await self._stream_answer(ctx, reply))
            await record(ctx.journal, ctx.run.id, ctx.step, "pass2", {"text": text})
        return {CHANNEL_RESPONSE: text, MESSAGES: [{"role": "assistant", "content": text, "at": self._clock.now()}]}

    async def _stream_answer(self, ctx: NodeContext, reply: str) -> str:
        """The quick model's answer from ``reply``, streamed; the reply itself when the quick tier fails.

        What streams leaves out ``RECOMMENDED ACTION:`` lines: a chat's recommendation is its approval card,
        which every channel shows; the answer repeating it under the card is noise.
        """
        quick = self._quick_caller(ctx)
        streamed = ""
        shown = RecommendationFilter()

        def stream(piece: str) -> None:
            visible = shown.feed(piece)
            if visible:
                ctx.stream(visible)

        problem = "it is not configured"
        if quick is not None:
            request = ChatRequest([Message("system", prompts.PASS2),
                                   Message("user", f"The user's message:\n{run_input(ctx.run)}\n\n"
                                                   f"The worker's reply:\n{reply}")])
            try:
                async for piece in quick.stream(request, max_tokens=PASS2_TOKENS):
                    if piece:
                        streamed += piece
                        stream(piece)
            except AgentError as exc:
                problem = str(exc)
            else:
                if streamed.strip():
                    if rest := shown.end():
                        ctx.stream(rest)
                    return streamed
                problem = "it gave an empty answer"
        log.warning("run %s: the quick model did not compose the answer (%s); the reasoning model's reply is "
                    "delivered as it is", ctx.run.id, problem)
        tail = ("\n\n" if streamed else "") + reply
        stream(tail)
        if rest := shown.end():
            ctx.stream(rest)
        return streamed + tail

    # -- agent_execution --------------------------------------------------------------------------------

    async def agent_execution(self, ctx: NodeContext, values: Values) -> dict[str, Any]:
        """Steering, recalled memories, plan, sub-agents, reply, compression, timeline (see the module
        docstring)."""
        self._recalled[ctx.run.id] = await self._recall_block(ctx)
        try:
            return await self._execute(ctx, values)
        finally:
            self._recalled.pop(ctx.run.id, None)

    async def _recall_block(self, ctx: NodeContext) -> str:
        """The memories recalled for the request, as a prompt block; journaled (when there are any), so a
        resumed run sees what it began with."""
        recorded = await ctx.journal.get(ctx.run.id, ctx.step, RECALL_KEY)
        if recorded is not None and recorded.result is not None:
            texts = [str(text) for text in recorded.result.get("memories") or ()]
        elif self._recall is None:
            return ""
        else:
            texts = [" ".join(str(text).split())[:RECALLED_CHARS]
                     for text in await self._recall.recall(run_input(ctx.run), RECALLED_MEMORIES)]
            if texts:
                await ctx.journal.finish(ctx.run.id, ctx.step, RECALL_KEY, {"memories": texts})
        if not texts:
            return ""
        return prompts.MEMORY_INTRO + "\n" + "".join(f"- {text}\n" for text in texts) + "\n"

    def _offered(self, ctx: NodeContext, writes: bool) -> tuple[list[Tool], str]:
        """The tools the run is offered: what its permission allows, narrowed to its request's ``tools`` (else,
        of the MCP servers' tools — maybe hundreds — to those its words call for) and, for an approved run, to
        the write tools its license names; and a line for the plan saying how many were left out."""
        note = ""
        if ctx.run.tools is not None:
            wanted = set(ctx.run.tools)
            tools = [tool for tool in self._skills.tools(include_writes=writes) if tool.name in wanted]
        else:
            offer = self._skills.offer(include_writes=writes, task=run_input(ctx.run))
            tools, note = offer.tools, offer.note()
        if ctx.run.license is not None:
            licensed = set(ctx.run.license.tools)
            tools = [tool for tool in tools if not tool.writes or tool.name in licensed]
        return tools, note

    def _write_check(self, ctx: NodeContext) -> Callable[[Tool, Mapping[str, Any]], Awaitable[ToolResult | None]]:
        """An approved run's check before each write: within the card's license, it runs; else it is not run,
        an exact-call card asks the user about it, and the model is told so."""
        license_ = ctx.run.license
        assert license_ is not None

        async def check(tool: Tool, arguments: Mapping[str, Any]) -> ToolResult | None:
            target = tool.target_of(arguments)
            if license_.allows(tool.name, target):
                return None
            action = license_.action or "the approved action"
            call = ProposedCall(tool.name, dict(arguments), prompts.fill(NOT_LICENSED_REASON, action=action),
                                self._skills.skill_of(tool.name))
            await self._cards.raise_call_card(ctx.run, call)
            log.info("run %s: %s is outside its approval; a card asks about it", ctx.run.id,
                     describe_call(tool.name, arguments))
            return ToolResult(prompts.fill(NOT_LICENSED, call=describe_call(tool.name, arguments), action=action),
                              is_error=True)

        return check

    async def _execute(self, ctx: NodeContext, values: Values) -> dict[str, Any]:
        settings = self._settings()
        writes = await self._permission(ctx) == WRITE
        if ctx.run.purpose == CALL:
            return await self._exact_call(ctx, values)
        steering = await self._used_steering(ctx)
        quick = ctx.run.tier == QUICK_TIER
        reasoning = self._caller(QUICK, ctx, worker=True) if quick else self._caller(REASONING, ctx)
        tools, note = self._offered(ctx, writes)
        done = await self._direct_append(ctx, values, steering, tools)
        if done is None:
            done = await self._direct_sum(ctx, values, steering)
        if done is not None:
            return done
        subtasks = await self._plan(ctx, values, reasoning, steering, tools, settings.max_subagents, note)
        narrowed = await self._direct_tools(ctx, tools)
        traces = await self._run_subagents(ctx, values, reasoning, steering, narrowed, subtasks, settings)
        reply = await self._reply(ctx, values, reasoning, steering, traces, writes)
        action = None if writes else recommended_action(reply)
        if action is not None and ctx.run.purpose == CHAT:
            await self._raise_card(ctx, action)
        offered = {tool.name for tool in tools}
        used = (describe_call(c.name, c.arguments) + (f" ({UNCERTAIN_LABEL})" if c.uncertain else
                                                      " (failed)" if c.is_error and not c.settled else "")
                for t in traces for c in t.calls if c.name in offered)
        pending = tuple(dict.fromkeys(name for t in traces for name in t.unexecuted))
        outcome = ExecutionOutcome(tuple(dict.fromkeys(used)), action, any(t.changed_something for t in traces),
                                   pending)
        return await self._finish_execution(ctx, values, reasoning, steering, subtasks, traces, reply, outcome)

    async def _exact_call(self, ctx: NodeContext, values: Values) -> dict[str, Any]:
        """A ``call`` run: the one tool call the user approved on its card, exactly as proposed, once
        (journaled like any write: after a kill it is replayed or settled, never run twice). No model."""
        call = ctx.run.call
        assert call is not None, "a call run carries its call"
        tool = await self._tool_of(call)
        if tool is None:
            record_ = CallRecord(CALL_KEY, call.tool, dict(call.arguments),
                                 prompts.fill(CALL_GONE, tool=call.tool), True, True)
        else:
            async def ask(key: str, again: ProposedCall) -> None:  # begun before a kill, and may not have run
                await self._raise_call_card(ctx, key, again)

            runner = SubagentRun(None, ctx.journal, ctx.run.id, ctx.step, 0, [tool], True, 1, ask=ask)
            record_ = await call_once(runner, CALL_KEY, tool, call.arguments)
        what = describe_call(call.tool, call.arguments)
        if record_.uncertain:
            reply = f"{what} may or may not have happened: {record_.text}"
        else:
            reply = (f"Done: {what}. {record_.text}" if not record_.is_error
                     else f"{what} did not succeed: {record_.text}").strip()
        trace = SubagentTrace(0, Subtask(HEARTBEAT_SUBTASK, what), record_.text, 1, 0, (record_,),
                              (f"call {what} → {'error' if record_.is_error else 'ok'}: {record_.text[:2000]}",))
        used = what + (f" ({UNCERTAIN_LABEL})" if record_.uncertain else
                       " (failed)" if record_.is_error and not record_.settled else "")
        outcome = ExecutionOutcome((used,), None, record_.changed)
        return await self._finish_execution(ctx, values, None, None, [trace.subtask], [trace], reply, outcome)

    async def _tool_of(self, call: ProposedCall) -> Tool | None:
        """The approved call's tool. Its skill may still be starting (an MCP server the app started a moment
        ago, or restarted after a kill): the call waits for it up to ``CALL_SKILL_WAIT`` seconds rather than
        calling the tool gone."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CALL_SKILL_WAIT
        while True:
            tool = next((t for t in self._skills.tools(include_writes=True) if t.name == call.tool), None)
            skill = self._skills.get(call.skill) if call.skill else None
            if tool is not None or skill is None or loop.time() >= deadline:
                return tool
            if (await skill.health()).status != "starting":
                return None
            await asyncio.sleep(0.1)

    async def _finish_execution(self, ctx: NodeContext, values: Values, reasoning: Caller | None,
                                steering: Mapping[str, Any] | None, subtasks: Sequence[Subtask],
                                traces: Sequence[SubagentTrace], reply: str,
                                outcome: ExecutionOutcome) -> dict[str, Any]:
        """Record the outcome, compress the trace, append its timeline: the node's update."""
        action = outcome.recommended_action
        if await ctx.journal.get(ctx.run.id, OUTCOME_STEP, OUTCOME_KEY) is None:
            await ctx.journal.finish(ctx.run.id, OUTCOME_STEP, OUTCOME_KEY, outcome.to_json())
        entry = await self._compress(ctx, reasoning, subtasks, traces, reply)
        timeline = [item.to_json() for trace in traces for item in trace.timeline]
        update: dict[str, Any] = {
            SUBCONSCIOUS_STEERING: steering, AGENT_REPLY: reply, COMPRESSED_HISTORY: [entry],
            WORLD_STATE_DIFF: {TIMELINE: timeline, "terminal_state": "execution_finalized"},
        }
        after = await asyncio.to_thread(measure, apply(values, update), self._tokens)
        update[CONTEXT_UTILIZATION] = share(after, self._window(REASONING))
        log.info("run %s: %d sub-task(s), tools %s, %d change(s)%s", ctx.run.id, len(traces),
                 ", ".join(outcome.tools_used) or "none", len(timeline),
                 ", a recommended action" if action else "")
        return update

    async def _used_steering(self, ctx: NodeContext) -> dict[str, Any] | None:
        """The directive in force as ``{version, text}`` (None: none), journaled: a resumed run keeps the
        directive it began with even if reflection wrote a new one meanwhile (one that began without a
        directive takes the one in force when it resumes)."""
        recorded = await ctx.journal.get(ctx.run.id, ctx.step, STEERING_KEY)
        if recorded is not None and recorded.result is not None:
            used = recorded.result.get("steering")
            return dict(used) if isinstance(used, Mapping) else None
        current = await self._steering.current()
        steering = None if current is None or current.version == 0 else {"version": current.version,
                                                                         "text": current.text}
        if steering is not None:  # (none: nothing to keep, and no commit spent on it)
            await ctx.journal.finish(ctx.run.id, ctx.step, STEERING_KEY, {"steering": steering})
        return steering

    def _context(self, values: Values, steering: Mapping[str, Any] | None, ctx: NodeContext) -> str:
        instructions = str(values.get(AGENT_INSTRUCTIONS) or "")
        return (f"{steering_block(steering)}{self._recalled.get(ctx.run.id, '')}{recent_text(values, skip_last=True)}"
                f"The user's message:\n{run_input(ctx.run)}\n\n"
                f"Instructions from the front desk:\n{instructions or '(none)'}\n\n")

    async def _plan(self, ctx: NodeContext, values: Values, reasoning: Caller, steering: Mapping[str, Any] | None,
                    tools: Sequence[Tool], max_subagents: int, note: str = "") -> list[Subtask]:
        if ctx.run.purpose != CHAT:
            # A heartbeat escalation or an approved action is one piece of work: no plan to ask for (and an
            # approved action must not be widened into several).
            return [Subtask(HEARTBEAT_SUBTASK, str(values.get(AGENT_INSTRUCTIONS) or run_input(ctx.run)))]
        known = await recorded(ctx.journal, ctx.run.id, ctx.step, "plan")
        if known is not None:
            return [Subtask(str(s["title"]), str(s["instructions"])) for s in known.get("subtasks") or ()]
        direct = direct_plan(run_input(ctx.run), tools)
        if direct is not None and direct.tools == (READ_TOOL,):
            direct = await self._read_for(ctx, direct, tools)
        if direct is not None:  # one file, one question or one edit: one sub-agent with the file tools, no planner
            if await recorded(ctx.journal, ctx.run.id, OUTCOME_STEP, DIRECT_KEY) is None:  # (killed before "plan")
                await record(ctx.journal, ctx.run.id, OUTCOME_STEP, DIRECT_KEY, {"tools": list(direct.tools)})
            await record(ctx.journal, ctx.run.id, ctx.step, "plan",
                         {"subtasks": [{"title": direct.title, "instructions": direct.instructions}], "direct": True,
                          "tools": list(direct.tools)})
            return [Subtask(direct.title, direct.instructions)]
        system = prompts.fill(prompts.PLAN, max_subagents=max_subagents)
        messages = [Message("system", system),
                    Message("user", self._context(values, steering, ctx) + tools_block(tools, note))]
        schema = plan_schema(max_subagents)
        content = ""
        for attempt in (1, 2):
            request = ChatRequest(list(messages), json_schema=schema, schema_name="plan")
            content = (await reasoning.chat(request, max_tokens=PLAN_TOKENS)).content
            fallback = False
            try:
                subtasks = parse_plan(content, max_subagents)
            except BlankPlan as exc:
                if attempt == 1:
                    log.info("run %s: plan attempt 1 had only blank sub-tasks", ctx.run.id)
                    messages += [Message("assistant", content[:2000]),
                                 Message("user", prompts.fill(prompts.PLAN_REPAIR, problem=str(exc)))]
                    continue
                # The model can write the form, not fill it: the request is one piece of work, as a heartbeat's.
                log.info("run %s: the plan was blank twice; one sub-task carries the instructions", ctx.run.id)
                subtasks = [Subtask(FALLBACK_SUBTASK, str(values.get(AGENT_INSTRUCTIONS) or run_input(ctx.run)))]
                fallback = True
            except PlanError as exc:
                log.info("run %s: plan attempt %d was not the plan's JSON (%s)", ctx.run.id, attempt, exc)
                messages += [Message("assistant", content[:2000]),
                             Message("user", prompts.fill(prompts.PLAN_REPAIR, problem=str(exc)))]
                continue
            if not subtasks and needs_tools(run_input(ctx.run), tools):
                if attempt == 1:  # a question about the user's files cannot be answered without a tool
                    log.info("run %s: an empty plan for a message about the workspace; asked once more", ctx.run.id)
                    messages += [Message("assistant", content[:2000]), Message("user", prompts.PLAN_EMPTY)]
                    continue
                log.info("run %s: the plan was empty twice; one sub-task carries the request", ctx.run.id)
                subtasks = [Subtask(FALLBACK_SUBTASK, run_input(ctx.run))]
                fallback = True
            plan: dict[str, Any] = {"subtasks": [{"title": s.title, "instructions": s.instructions}
                                                 for s in subtasks]}
            if fallback:
                plan["fallback"] = True
            await record(ctx.journal, ctx.run.id, ctx.step, "plan", plan)
            return subtasks
        raise failed(REASONING, "answered the plan request twice with something that is not the plan's JSON",
                     "try again, or set [models.reasoning] to a model that can follow a JSON schema")

    async def _run_subagents(self, ctx: NodeContext, values: Values, reasoning: Caller,
                             steering: Mapping[str, Any] | None, tools: Sequence[Tool], subtasks: Sequence[Subtask],
                             settings: AgentSettings) -> list[SubagentTrace]:
        writes = ctx.permission == WRITE
        gate = asyncio.Semaphore(max(1, settings.concurrent_subagents))
        if ctx.run.purpose == CHAT:
            context = f"{steering_block(steering)}The user's message (for context):\n{run_input(ctx.run)}"
        else:  # the heartbeat's prompt (cut to the tier's window) is the sub-task itself: not twice
            context = steering_block(steering).rstrip()
        check = self._write_check(ctx) if writes and ctx.run.license is not None else None

        if writes:
            system = prompts.SUBAGENT_WRITE
        else:
            system = prompts.SUBAGENT_READ if ctx.run.purpose == CHAT else prompts.SUBAGENT_ANALYSIS

        async def ask(key: str, call: ProposedCall) -> None:
            await self._raise_call_card(ctx, key, call)

        async def one(index: int, subtask: Subtask) -> SubagentTrace:
            async with gate:
                run = SubagentRun(reasoning, ctx.journal, ctx.run.id, ctx.step, index, tools, writes,
                                  max(1, settings.subagent_steps), system=system,
                                  prompted_tools=ctx.run.purpose == CHAT, check_write=check,
                                  ask=ask)
                return await run_subagent(run, subtask, context)

        try:  # a TaskGroup: when one sub-agent fails, the others are cancelled, not left running
            async with asyncio.TaskGroup() as group:
                tasks = [group.create_task(one(i, s), name=f"subagent-{ctx.run.id}-{i}")
                         for i, s in enumerate(subtasks)]
        except BaseExceptionGroup as grouped:
            first = grouped.exceptions[0]
            raise first from first.__cause__  # its own cause (a context overflow is not worth a retry)
        return [task.result() for task in tasks]

    async def _reply(self, ctx: NodeContext, values: Values, reasoning: Caller, steering: Mapping[str, Any] | None,
                     traces: Sequence[SubagentTrace], writes: bool) -> str:
        appends = [append_done(c) for t in traces for c in t.calls if c.name == APPEND_TOOL]
        message_paths = paths_in(run_input(ctx.run))
        if len(traces) == 1 and await self._is_direct(ctx) and direct_kind(run_input(ctx.run)) == "edit" \
                and len(message_paths) == 1:
            # A single edit: the reply says what the tool did (or that nothing was added), not the model's echo.
            return appended_reply(appends, message_paths[0])
        if len(traces) == 1 and traces[0].text.strip() and await self._is_direct(ctx):
            # One file, one question or one edit: the sub-agent's answer is the reply (a small model asked to
            # restate it wrote only a RECOMMENDED ACTION line, and the fact it had read was lost).
            return traces[0].text.strip()
        if ctx.run.purpose != CHAT and len(traces) == 1:
            # The sub-agent's answer is agentic-v1's own: asking it to restate it adds a call and nothing else.
            return traces[0].text.strip() or "There is nothing to report."
        known = await recorded(ctx.journal, ctx.run.id, ctx.step, "reply")
        if known is not None:
            return str(known.get("text", ""))
        request = ChatRequest([Message("system", prompts.REPLY_WRITE if writes else prompts.REPLY_READ),
                               Message("user", self._context(values, steering, ctx) + results_block(traces))])
        reply = (await reasoning.chat(request, max_tokens=REPLY_TOKENS)).content.strip()
        if not reply:  # never empty: the router would send the run back here until its step limit
            reply = "\n".join(t.text for t in traces if t.text) or "There is nothing to report."
        await record(ctx.journal, ctx.run.id, ctx.step, "reply", {"text": reply})
        return reply

    async def _raise_card(self, ctx: NodeContext, action: str) -> None:
        """The card of a chat run's recommended action, raised once (journaled under ``card``)."""
        entry = await ctx.journal.get(ctx.run.id, ctx.step, "card")
        if entry is not None and entry.result is not None:
            return
        if entry is None:
            await ctx.journal.begin(ctx.run.id, ctx.step, "card", {"action": action})
        # Begun and not finished (a kill came in between): raised again — the raiser gives the card the run
        # already has for this action, so it is neither lost nor doubled.
        await self._cards.raise_card(ctx.run, action)
        await ctx.journal.finish(ctx.run.id, ctx.step, "card", {"raised": True})

    async def _raise_call_card(self, ctx: NodeContext, key: str, call: ProposedCall) -> None:
        """The card of tool call ``key`` (one that may or may not have happened), raised once: journaled under
        ``<key>:card`` like :meth:`_raise_card`, so a resumed run neither loses nor doubles it."""
        card_key = f"{key}:card"
        entry = await ctx.journal.get(ctx.run.id, ctx.step, card_key)
        if entry is not None and entry.result is not None:
            return
        call = replace(call, skill=call.skill or self._skills.skill_of(call.tool))
        if entry is None:
            await ctx.journal.begin(ctx.run.id, ctx.step, card_key, {"tool": call.tool,
                                                                     "arguments": dict(call.arguments)})
        # Begun and not finished (a kill came in between): raised again — the raiser gives the card the run
        # already has for this call.
        await self._cards.raise_call_card(ctx.run, call)
        await ctx.journal.finish(ctx.run.id, ctx.step, card_key, {"raised": True})
        log.info("run %s: %s may or may not have happened; a card asks the user", ctx.run.id, key)

    async def _compress(self, ctx: NodeContext, reasoning: Caller | None, subtasks: Sequence[Subtask],
                        traces: Sequence[SubagentTrace], reply: str) -> dict[str, Any]:
        known = await recorded(ctx.journal, ctx.run.id, ctx.step, "compress")
        if known is not None:
            return dict(known)
        plan = "; ".join(s.title for s in subtasks) or "no sub-tasks"
        trace = "\n\n".join([f"plan: {plan}", *(t.render() for t in traces), f"reply: {reply}"])
        # The quick tier condenses (DESIGN §3); without it the entry is an extractive summary within the bound.
        # An exact call needs no model at all: its one line is summary enough.
        # So does an append the app made itself (no model took part in the run).
        no_model = bool(traces) and reasoning is None and not any(t.model_calls for t in traces)
        quick = None if ctx.run.purpose == CALL or no_model else self._quick_caller(ctx)
        entry = await compress(trace, tokens=self._tokens, caller=quick, run_id=ctx.run.id, at=self._clock.now())
        await record(ctx.journal, ctx.run.id, ctx.step, "compress", entry)
        return entry

    # -- context_manager_hook ---------------------------------------------------------------------------

    async def context_manager_hook(self, ctx: NodeContext, values: Values) -> dict[str, Any]:
        """Measure; at the threshold, summarise and evict the oldest part of the working state."""
        window = self._window(REASONING)
        footprint = await asyncio.to_thread(measure, values, self._tokens)
        used = share(footprint, window)
        if used < self._settings().context_threshold:
            return {CONTEXT_UTILIZATION: used}
        eviction = choose_eviction(footprint, window)
        if eviction.is_empty:
            return {CONTEXT_UTILIZATION: used}
        items = evicted_text(values, eviction)
        quick = self._quick_caller(ctx)

        async def summarise(key: str, system: str, text: str, max_tokens: int) -> str:
            known = await recorded(ctx.journal, ctx.run.id, ctx.step, key)
            if known is not None:
                return str(known.get("text", ""))
            assert quick is not None
            answer = (await quick.chat(summary_request(system, text), max_tokens=max_tokens)).content
            await record(ctx.journal, ctx.run.id, ctx.step, key, {"text": answer})
            return answer

        summary = await map_reduce(items, tokens=self._tokens, quick_window=self._window(QUICK),
                                   summarise=summarise if quick is not None else None)
        stored = await ctx.journal.get(ctx.run.id, ctx.step, "evict:store")
        if stored is None or stored.result is None:
            if stored is None:
                await ctx.journal.begin(ctx.run.id, ctx.step, "evict:store", {"items": len(items)})
            # Begun and not finished: stored again (a duplicate memory beats a lost part of the conversation).
            await self._evictions.store_evicted(summary, thread_id=ctx.run.thread_id, run_id=ctx.run.id)
            await ctx.journal.finish(ctx.run.id, ctx.step, "evict:store", {"chars": len(summary)})
        update: dict[str, Any] = eviction_update(eviction)
        after = await asyncio.to_thread(measure, apply(values, update), self._tokens)
        update[CONTEXT_UTILIZATION] = share(after, window)
        log.info("run %s: context at %.0f%% of the reasoning window; evicted %d message(s), %d log entr(ies), "
                 "%d timeline fragment(s); now %.0f%%", ctx.run.id, used * 100, eviction.messages,
                 eviction.history, eviction.timeline, update[CONTEXT_UTILIZATION] * 100)
        return update
