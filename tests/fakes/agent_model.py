"""A scripted agent model: a responder for FakeOllama / FakeOpenAI that answers every kind of agent request.

It tells the requests apart by their system prompts (``orchestration.prompts``' role sentences) and
answers each from an :class:`AgentScript`: pass 1, the plan (N sub-tasks, optionally garbage first), each
sub-agent's steps (tool calls, then text), the reply (optionally with ``RECOMMENDED ACTION:``), pass 2
(streamed when the client streams), compression and the map-reduce summaries. Everything it was asked is
kept in :attr:`AgentModel.seen`, with the tool names each request offered.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openhuman_desktop.orchestration import prompts
from tests.fakes.model_servers import Reply

PASS1 = "pass1"
PASS2 = "pass2"
PLAN = "plan"
SUBAGENT = "subagent"
REPLY = "reply"
COMPRESS = "compress"
MAP = "map"
REDUCE = "reduce"
UNKNOWN = "unknown"

_ROLES = ((prompts.PASS1_ROLE, PASS1), (prompts.PASS2_ROLE, PASS2), (prompts.PLAN_ROLE, PLAN),
          (prompts.SUBAGENT_ROLE, SUBAGENT), (prompts.REPLY_ROLE, REPLY), (prompts.COMPRESS_ROLE, COMPRESS),
          (prompts.MAP_ROLE, MAP), (prompts.REDUCE_ROLE, REDUCE))


def call(name: str, **arguments: Any) -> Reply:
    """A sub-agent step that calls one tool."""
    return Reply(tool_calls=[{"name": name, "arguments": arguments}])


def say(text: str) -> Reply:
    """A sub-agent step that answers in words."""
    return Reply(content=text)


@dataclass
class AgentScript:
    """What the fake agent model answers.

    Attributes:
        instructions: pass 1's macro-instructions.
        subtasks: the plan, as (title, instructions).
        steps: each sub-task's answers by title, in order; past the end a sub-agent says "done".
        reply: the reasoning model's reply (may carry a ``RECOMMENDED ACTION:`` line).
        answer: pass 2's answer; None answers "Answer: <the worker's reply>".
        plan_garbage: how many plan requests get a non-JSON answer first (counts down).
        compression: the compression answer; None answers a short text.
        summary: each map / reduce answer.
        fail: kinds answered with HTTP 500 (e.g. ``{"pass1"}`` for a quick tier that is down for it).
    """

    instructions: str = "Do what the user asked."
    subtasks: Sequence[tuple[str, str]] = ()
    steps: Mapping[str, Sequence[Reply]] = field(default_factory=dict)
    reply: str = "All done."
    answer: str | None = None
    plan_garbage: int = 0
    compression: str | None = None
    summary: str = "Summary of the older conversation."
    fail: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Seen:
    """One request the fake answered: its kind, the tool names it offered, its messages and the body."""

    kind: str
    tools: tuple[str, ...]
    messages: tuple[Mapping[str, Any], ...]
    body: Mapping[str, Any]


def offered_tools(body: Mapping[str, Any]) -> tuple[str, ...]:
    """The tool names a chat request offered (Ollama and OpenAI shapes are the same here)."""
    names = []
    for tool in body.get("tools") or ():
        function = tool.get("function", tool) if isinstance(tool, Mapping) else {}
        names.append(str(function.get("name", "")))
    return tuple(names)


def kind_of(messages: Sequence[Mapping[str, Any]]) -> str:
    system = next((str(m.get("content", "")) for m in messages if m.get("role") == "system"), "")
    return next((kind for role, kind in _ROLES if role in system), UNKNOWN)


class AgentModel:
    """The responder: ``server.set_responder(AgentModel(script))``.

    ``delays`` slows the answers of some kinds (seconds, e.g. ``{"plan": 30}`` holds a run in its plan
    request until the server stops or the app is killed); ``delay_of(kind)``, when set, adds its own (e.g.
    a seeded random jitter).
    """

    def __init__(self, script: AgentScript | None = None) -> None:
        self.script = script or AgentScript()
        self.seen: list[Seen] = []
        self._lock = threading.Lock()
        self.fail_status = 500
        self.delays: dict[str, float] = {}
        self.delay_of: Callable[[str], float] | None = None

    def kinds(self) -> list[str]:
        return [seen.kind for seen in self.seen]

    def of(self, kind: str) -> list[Seen]:
        return [seen for seen in self.seen if seen.kind == kind]

    def every_offered_tool(self) -> set[str]:
        return {name for seen in self.seen for name in seen.tools}

    def __call__(self, body: Any) -> Reply:
        body = body if isinstance(body, dict) else {}
        messages = tuple(m for m in body.get("messages") or () if isinstance(m, Mapping))
        kind = kind_of(messages)
        with self._lock:
            self.seen.append(Seen(kind, offered_tools(body), messages, body))
        if kind in self.script.fail:
            return Reply(status=self.fail_status, error=f"scripted failure of {kind}")
        reply = self._answer(kind, messages)
        delay = self.delays.get(kind, 0.0) + (self.delay_of(kind) if self.delay_of is not None else 0.0)
        return dataclasses.replace(reply, delay=reply.delay + delay) if delay > 0 else reply

    def count(self, kind: str) -> int:
        """How many requests of ``kind`` arrived so far."""
        with self._lock:
            return sum(1 for seen in self.seen if seen.kind == kind)

    def _answer(self, kind: str, messages: Sequence[Mapping[str, Any]]) -> Reply:
        script = self.script
        last_user = next((str(m.get("content", "")) for m in reversed(messages) if m.get("role") == "user"), "")
        if kind == PASS1:
            return Reply(content=script.instructions)
        if kind == PASS2:
            if script.answer is not None:
                return Reply(content=script.answer)
            reply = last_user.split("The worker's reply:\n", 1)[-1]
            return Reply(content=f"Answer: {reply}")
        if kind == PLAN:
            with self._lock:
                if script.plan_garbage > 0:
                    script.plan_garbage -= 1
                    return Reply(content="Sure! Here is my plan: first I will look around.")
            return Reply(content=json.dumps({"subtasks": [{"title": t, "instructions": i}
                                                          for t, i in script.subtasks]}))
        if kind == SUBAGENT:
            first_user = next((str(m.get("content", "")) for m in messages if m.get("role") == "user"), "")
            title = first_user.removeprefix("Sub-task: ").split("\n", 1)[0]
            step = sum(1 for m in messages if m.get("role") == "assistant")
            if title not in script.steps and len(script.subtasks) == 1:
                # The app planned the one sub-task itself (a single-file question or edit, no planner): the
                # script's one sub-task is that one, whatever its title.
                title = script.subtasks[0][0]
            steps = script.steps.get(title, ())
            return steps[step] if step < len(steps) else Reply(content=f"done: {title}")
        if kind == REPLY:
            return Reply(content=script.reply)
        if kind == COMPRESS:
            return Reply(content=script.compression if script.compression is not None else "Compressed trace.")
        if kind in (MAP, REDUCE):
            return Reply(content=script.summary)
        return Reply(content="ok")
