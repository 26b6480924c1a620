"""A sub-agent: one sub-task's tool loop (on the reasoning tier, or the quick tier for the heartbeat's ``act``),
every answer and call journaled.

The only tool-using loop of the app (issue 25: the heartbeat's ``act`` runs here too): each model answer is
recorded under ``sub:{i}:model:{n}`` and each tool call under ``sub:{i}:call:{n}:{j}``, so a node
resumed after a kill replays what was recorded and only asks or does what is new. A write tool's intent
(its arguments, the tool's observation of its target and the observation the call will leave) is recorded
before it runs; a call that had begun and has no result is settled by observing the target again (see
:func:`_settle`): as the call leaves it → it took effect; unchanged → it runs now; anything else → it may or may
not have happened, is not run again, never reported as done, and comes back to the user as a card whose Go ahead
carries out exactly that call (:attr:`SubagentRun.ask`).

That observation only means something if nothing else wrote the target meanwhile, so the write calls of all
runs on one journal go one at a time (fingerprint, intent, the write, its result: :class:`_Writes`), and the
first write of a process first settles every call an earlier process left begun (it may be another run's,
whose sub-agent has not got back to it yet). Local writes are quick; the cost is that two sub-agents' writes
never overlap.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import weakref
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openhuman_desktop.llm.base import ChatRequest, ChatResponse, Message, ToolCall
from openhuman_desktop.orchestration import prompts
from openhuman_desktop.orchestration._calls import Caller, compact_json, record, recorded, response_from, response_json
from openhuman_desktop.orchestration.interrupted import (
    UNCERTAIN_CHANGED,
    UNCERTAIN_UNOBSERVABLE,
    settled_mutation,
    target_words,
)
from openhuman_desktop.orchestration.ports import ProposedCall, StepJournal, TimelineEntry
from openhuman_desktop.orchestration.text_calls import text_tool_calls
from openhuman_desktop.orchestration.tool_calls import MAX_CALLS_PER_ANSWER, MAX_TOOL_OUTPUT, compact_spec
from openhuman_desktop.orchestration.tool_pick import pick_tool, tools_text
from openhuman_desktop.orchestration.tool_run import run_tool, unstoppable
from openhuman_desktop.skills.base import Tool, ToolContext, ToolResult

log = logging.getLogger(__name__)

MAX_ANSWER_TOKENS = 1_024
"""Cap of each sub-agent model answer: a few tool calls or a few sentences, and room for a file's text."""


@dataclass(frozen=True)
class Subtask:
    """One item of the plan."""

    title: str
    instructions: str


@dataclass(frozen=True)
class CallRecord:
    """One tool call of a sub-agent, as it went.

    ``replayed``: the journal answered (an earlier attempt ran it); ``settled``: it had begun before an
    interruption and was not run again (``is_error`` then says whether it is known to have happened);
    ``uncertain``: settled, and it may or may not have happened (the user is asked on a card).
    """

    key: str
    name: str
    arguments: Any
    text: str
    is_error: bool
    writes: bool
    replayed: bool = False
    settled: bool = False
    timeline: tuple[TimelineEntry, ...] = ()
    uncertain: bool = False

    @property
    def changed(self) -> bool:
        """A write that took effect (ran without error, or was found to have taken effect)."""
        return self.writes and not self.is_error and not self.uncertain


@dataclass(frozen=True)
class SubagentTrace:
    """Everything one sub-agent did: its answer, every model turn and every tool call, in order."""

    index: int
    subtask: Subtask
    text: str
    steps: int
    model_calls: int
    calls: tuple[CallRecord, ...] = ()
    turns: tuple[str, ...] = ()
    unexecuted: tuple[str, ...] = ()

    @property
    def changed_something(self) -> bool:
        return any(call.changed for call in self.calls)

    @property
    def timeline(self) -> tuple[TimelineEntry, ...]:
        return tuple(entry for call in self.calls for entry in call.timeline)

    def render(self) -> str:
        """The trace as text (what compression condenses): task, each turn and call, the answer."""
        lines = [f"sub-agent {self.index} — {self.subtask.title}", f"task: {self.subtask.instructions}"]
        lines += self.turns
        lines.append(f"answer: {self.text}")
        if self.unexecuted:
            lines.append(f"not carried out (asked for after the last step): {', '.join(self.unexecuted)}")
        return "\n".join(lines)


WriteCheck = Callable[[Tool, Mapping[str, Any]], Awaitable[ToolResult | None]]
"""Asked before a write call is journaled: a result to give the model instead of running the call (the write is
outside what the run may do: an approval's license), or None to go on."""


@dataclass
class SubagentRun:
    """What a sub-agent runs with: the tier, the journal position, its tools and limits (``caller`` None: no
    model is asked, only :func:`call_once`)."""

    caller: Caller | None
    journal: StepJournal
    run_id: str
    step: int
    index: int
    tools: Sequence[Tool]
    writes_allowed: bool
    max_steps: int
    max_tokens: int = MAX_ANSWER_TOKENS
    system: str = field(default="")
    prompted_tools: bool = False
    """A chat's sub-agent: its tools are listed in its first message (:func:`tools_text`) and a first answer in
    words gets the tool pick (:func:`pick_tool`). Off for the heartbeat's runs, whose prompts are cut to the window
    without room for the list."""
    check_write: WriteCheck | None = None
    ask: AskUser | None = None
    """Raises the card of a call that may or may not have happened (called with the call's key each time the
    call is met, on resume too: it must be idempotent). None: the result tells the model, nothing more."""


AskUser = Callable[[str, ProposedCall], Awaitable[None]]
"""``ask(key, call)``: bring ``call`` (journaled under ``key``) back to the user as a card."""


_CALL_KEY = re.compile(r"sub:\d+:call:\d+:\d+|call")
"""The journal key of a tool call: a sub-agent's ``sub:{i}:call:{n}:{j}``, or ``call``, an exact-call run's one
call (``nodes.CALL_KEY``); not a call's card (``…:card``)."""


def _result_json(result: ToolResult, **extra: Any) -> dict[str, Any]:
    return {"text": result.text, "is_error": result.is_error, **extra}


@dataclass
class _Writes:
    """The write calls on one journal: one at a time (``lock``); ``settled`` once this process has settled
    the calls an earlier one left begun."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    settled: bool = False


_WRITES: weakref.WeakKeyDictionary[StepJournal, _Writes] = weakref.WeakKeyDictionary()


def _writes(journal: StepJournal) -> _Writes:
    state = _WRITES.get(journal)
    if state is None:
        state = _WRITES[journal] = _Writes()
    return state


async def _settle_pending(run: SubagentRun) -> None:
    """Hold the write lock. Once per process: every write call an earlier process left begun (of any run
    that has not finished) is settled now, before a new write can change its target and so fake its
    observation — taken effect → recorded so; target unchanged → run now, for its run, and recorded (its
    sub-agent replays the result when it gets there)."""
    state = _writes(run.journal)
    if state.settled:
        return
    tools = {tool.name: tool for tool in run.tools if tool.writes}
    for entry in await run.journal.unfinished():
        tool = tools.get(str(entry.intent.get("tool", "")))
        arguments = entry.intent.get("arguments")
        if not _CALL_KEY.fullmatch(entry.key) or tool is None or not isinstance(arguments, Mapping):
            continue  # not a write call this run could carry out (or a call's card): its own run settles it
        owner = SubagentRun(run.caller, run.journal, entry.run_id, entry.step, run.index, run.tools, True,
                            run.max_steps)
        if await _settle(owner, entry.key, tool, arguments, entry.intent) is None:
            await _write(owner, entry.key, tool, arguments)
            log.info("%s of run %s: begun before a restart and not run; run now", entry.key, entry.run_id)
    state.settled = True


async def _write(run: SubagentRun, key: str, tool: Tool, arguments: Mapping[str, Any]) -> CallRecord:
    """Run a write whose intent is recorded and record its result (hold the write lock)."""
    context = ToolContext(run.run_id, run.step, key, run.writes_allowed)
    result = await unstoppable(run_tool(tool, arguments, context),
                                lambda done: run.journal.finish(run.run_id, run.step, key, _result_json(done),
                                                                done.mutations))
    timeline = await run.journal.finish(run.run_id, run.step, key, _result_json(result), result.mutations)
    return CallRecord(key, tool.name, dict(arguments), result.text, result.is_error, True, timeline=timeline)


def _replayed(key: str, name: str, arguments: Any, result: Mapping[str, Any], writes: bool,
              timeline: tuple[TimelineEntry, ...]) -> CallRecord:
    return CallRecord(key, name, arguments, str(result.get("text", "")), bool(result.get("is_error")), writes,
                      replayed=True, settled=bool(result.get("settled")), timeline=timeline,
                      uncertain=bool(result.get("uncertain")))


async def _settle(run: SubagentRun, key: str, tool: Tool, arguments: Mapping[str, Any],
                  intent: Mapping[str, Any]) -> CallRecord | None:
    """A write call that had begun and has no result, settled by what the call itself would have produced:
    the target as the call leaves it (``expected``) → a result saying it took effect; unchanged → None (run it
    now); anything else, or no way to look → a result saying it may or may not have happened (``uncertain``:
    not run again, never reported as done; :func:`make_call` asks the user)."""
    fingerprint, expected = intent.get("fingerprint"), intent.get("expected")
    if tool.observe is not None and isinstance(fingerprint, str):
        now = await tool.observe(arguments)
        if isinstance(expected, str) and now == expected:  # (first: a call that changes nothing is done)
            what = f"{target_words(arguments)} is as the call leaves it"
            mutation = settled_mutation(tool, arguments, fingerprint, now or "")
            text = prompts.fill(prompts.INTERRUPTED_DONE, what=what)
            timeline = await run.journal.finish(run.run_id, run.step, key,
                                                {"text": text, "is_error": False, "settled": True},
                                                (mutation,) if mutation is not None else ())
            log.info("%s: had taken effect before an interruption; not run again", key)
            return CallRecord(key, tool.name, dict(arguments), text, False, True, settled=True, timeline=timeline)
        if now == fingerprint:
            log.info("%s: interrupted before it ran (target unchanged); running it now", key)
            return None
        why = f"{target_words(arguments)} has changed since, but not as the call would have changed it"
        log.warning("%s: interrupted, and its target changed in a way the call would not have left it; it may or "
                    "may not have happened: not run again, the user is asked", key)
    else:
        why = "whether it took effect cannot be checked"
        log.warning("%s: interrupted mid-call and cannot be observed; not run again, the user is asked", key)
    text = prompts.fill(prompts.INTERRUPTED_UNKNOWN, why=why)
    await run.journal.finish(run.run_id, run.step, key,
                             {"text": text, "is_error": True, "settled": True, "uncertain": True})
    return CallRecord(key, tool.name, dict(arguments), text, True, True, settled=True, uncertain=True)


def _reason(tool: Tool | None, arguments: Mapping[str, Any]) -> str:
    """The card's sentence for an uncertain call."""
    if tool is not None and tool.observe is not None:
        return prompts.fill(UNCERTAIN_CHANGED, target=target_words(arguments))
    return UNCERTAIN_UNOBSERVABLE


async def make_call(run: SubagentRun, key: str, call: ToolCall, tool: Tool | None, number: int,
                offered: Sequence[str]) -> CallRecord:
    """One tool call through the journal; one that may or may not have happened is brought to the user."""
    record_ = await _journaled_call(run, key, call, tool, number, offered)
    if record_.uncertain and run.ask is not None and isinstance(call.arguments, Mapping):
        await run.ask(key, ProposedCall(call.name, dict(call.arguments), _reason(tool, call.arguments)))
    return record_


async def _refused(run: SubagentRun, key: str, call: ToolCall, text: str, writes: bool) -> CallRecord:
    """A call answered with ``text`` (an error) instead of being run, journaled under ``key``."""
    entry = await run.journal.get(run.run_id, run.step, key)
    if entry is not None and entry.result is not None:
        return _replayed(key, call.name, call.arguments, entry.result, writes, entry.timeline)
    await run.journal.finish(run.run_id, run.step, key, {"text": text, "is_error": True})
    return CallRecord(key, call.name, call.arguments, text, True, writes)


async def _journaled_call(run: SubagentRun, key: str, call: ToolCall, tool: Tool | None, number: int,
                          offered: Sequence[str]) -> CallRecord:
    """One tool call through the journal."""
    entry = await run.journal.get(run.run_id, run.step, key)
    writes = tool is not None and tool.writes
    if entry is not None and entry.result is not None:
        return _replayed(key, call.name, call.arguments, entry.result, writes, entry.timeline)
    if number >= MAX_CALLS_PER_ANSWER:
        result = ToolResult(f"Not run: at most {MAX_CALLS_PER_ANSWER} tool calls of one answer run; ask for the "
                            "rest in your next answer if they are still needed.", is_error=True)
    elif tool is None:
        result = ToolResult(f"The tool {call.name!r} is not available in this run (available: "
                            f"{', '.join(offered) or 'none'}).", is_error=True)
    elif not isinstance(call.arguments, Mapping):
        result = ToolResult("The tool arguments must be a JSON object.", is_error=True)
    elif not tool.writes:
        result = await run_tool(tool, call.arguments, ToolContext(run.run_id, run.step, key, run.writes_allowed))
    elif run.check_write is not None and (refused := await run.check_write(tool, call.arguments)) is not None:
        result = refused  # never begun: nothing to settle after a kill (the check runs again, and says the same)
    else:
        async with _writes(run.journal).lock:  # one write at a time: see the module docstring
            await _settle_pending(run)
            entry = await run.journal.get(run.run_id, run.step, key)
            if entry is not None and entry.result is not None:  # settled just now, as an earlier process's
                return _replayed(key, call.name, call.arguments, entry.result, True, entry.timeline)
            if entry is not None:  # begun, never finished: the kill came mid-call
                settled = await _settle(run, key, tool, call.arguments, entry.intent)
                if settled is not None:
                    return settled
            else:
                fingerprint = await tool.observe(call.arguments) if tool.observe is not None else None
                expected = (await tool.expect(call.arguments, fingerprint)
                            if tool.expect is not None and fingerprint is not None else None)
                await run.journal.begin(run.run_id, run.step, key, {"tool": tool.name,
                                                                    "arguments": dict(call.arguments),
                                                                    "fingerprint": fingerprint,
                                                                    "expected": expected})
            return await _write(run, key, tool, call.arguments)
    timeline = await run.journal.finish(run.run_id, run.step, key, _result_json(result))
    return CallRecord(key, call.name, call.arguments, result.text, result.is_error, writes, timeline=timeline)


def _tool_message(record_: CallRecord, call: ToolCall) -> Message:
    text = record_.text if len(record_.text) <= MAX_TOOL_OUTPUT else record_.text[:MAX_TOOL_OUTPUT] + "\n[cut]"
    payload = json.dumps({"error": text}) if record_.is_error else text
    return Message("tool", payload, tool_name=call.name, tool_call_id=call.id)


async def call_once(run: SubagentRun, key: str, tool: Tool, arguments: Mapping[str, Any]) -> CallRecord:
    """One tool call the user approved as it is (an exact-call card), through the journal under ``key``: run
    once, replayed after a kill, settled like any write that had begun. No model is asked."""
    return await make_call(run, key, ToolCall(tool.name, dict(arguments)), tool, 0, [tool.name])


async def run_subagent(run: SubagentRun, subtask: Subtask, context: str = "") -> SubagentTrace:
    """Carry out ``subtask`` with ``run.tools`` in at most ``run.max_steps`` rounds; returns the full trace.

    Only the tools given are offered *and* executable; in a run without write permission a write tool
    is dropped even if it was passed in (it is never offered, never run).

    Raises:
        TierFailed / DeadlinePassed: from the model calls.
    """
    tools = [tool for tool in run.tools if run.writes_allowed or not tool.writes]
    by_name = {tool.name: tool for tool in tools}
    specs = [compact_spec(tool.spec) for tool in tools]
    user = subtask.instructions if not context else f"{subtask.instructions}\n\n{context}"
    if specs and run.prompted_tools:
        user += "\n\n" + tools_text(specs)
    history: list[Message] = [Message("system", run.system), Message("user", f"Sub-task: {subtask.title}\n{user}")]
    quoted = [message.content for message in history]
    calls: list[CallRecord] = []
    turns: list[str] = []
    asked = 0

    async def answer(n: int, request: ChatRequest) -> tuple[str, tuple[ToolCall, ...]]:
        nonlocal asked
        key = f"sub:{run.index}:model:{n}"
        known = await recorded(run.journal, run.run_id, run.step, key)
        if known is None:
            assert run.caller is not None, "a sub-agent that asks a model needs a caller"
            response = await run.caller.chat(request, max_tokens=run.max_tokens)
            asked += 1
            if (run.prompted_tools and n == 1 and specs and not response.tool_calls
                    and not text_tool_calls(response.content, quoted)):
                picked = await pick_tool(run, history[1].content, specs, response.content)
                asked += 1
                if picked is not None:
                    response = ChatResponse(response.content, (picked,))
            await record(run.journal, run.run_id, run.step, key, response_json(response))
        else:
            response = response_from(known)
        return response.content, response.tool_calls or text_tool_calls(response.content, quoted)

    for n in range(1, run.max_steps + 1):
        content, tool_calls = await answer(n, ChatRequest(list(history), tools=specs))
        if not tool_calls:
            turns.append(f"model: {content.strip()[:2000]}")
            return SubagentTrace(run.index, subtask, content.strip(), n, asked, tuple(calls), tuple(turns))
        history.append(Message("assistant", content, tool_calls=tool_calls))
        for j, call in enumerate(tool_calls):
            key = f"sub:{run.index}:call:{n}:{j}"
            tool = by_name.get(call.name)
            if any(c.uncertain and c.name == call.name and c.arguments == call.arguments for c in calls):
                # The model asks again for a call that may already have happened: the card decides, not it.
                record_ = await _refused(run, key, call, prompts.REPEAT_REFUSED, tool is not None and tool.writes)
            else:
                record_ = await make_call(run, key, call, tool, j, list(by_name))
            calls.append(record_)
            outcome = ("error" if record_.is_error else "ok") + (" (recorded)" if record_.replayed else "")
            turns.append(f"call {call.name} {compact_json(call.arguments)[:1000]} → {outcome}: {record_.text[:2000]}")
            history.append(_tool_message(record_, call))
            quoted.append(record_.text)
    history.append(Message("user", prompts.FINAL_ANSWER))
    content, pending = await answer(run.max_steps + 1, ChatRequest(list(history)))
    turns.append(f"model: {content.strip()[:2000]}")
    if pending:
        log.info("sub-agent %d: the final answer still asks for %d tool call(s); none ran", run.index, len(pending))
    return SubagentTrace(run.index, subtask, content.strip(), run.max_steps, asked, tuple(calls), tuple(turns),
                         tuple(dict.fromkeys(call.name for call in pending)))
