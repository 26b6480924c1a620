"""Skills: named tool providers with a health status; every tool says whether it writes."""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from openhuman_desktop.llm.base import ToolSpec

CONNECTED = "connected"
DISCONNECTED = "disconnected"
ERROR = "error"
STARTING = "starting"
DISABLED = "disabled"


@dataclass(frozen=True)
class SkillHealth:
    """``status`` is connected / disconnected / error (an MCP server also starting / disabled); ``message`` says
    why in words."""

    status: str
    message: str = ""


@dataclass(frozen=True)
class Mutation:
    """A change a tool made to the world, for the world timeline (CONTRACT §8).

    Attributes:
        kind: ``file_written``, ``file_deleted``, ``memory_stored``, ``memory_removed``, ``task_created``,
            ``task_changed``, ``message_sent``, ``steering_changed`` or ``mcp_write`` (an MCP server's write tool;
            ``target`` names the server, the tool and what it acted on).
        target: what changed (a workspace path, a memory or task id, a channel).
        summary: the change in a few words, e.g. "appended 120 bytes".
        before_size / after_size: sizes in bytes where they mean something (files), else None.
    """

    kind: str
    target: str
    summary: str
    before_size: int | None = None
    after_size: int | None = None


MUTATION_KINDS = ("file_written", "file_deleted", "memory_stored", "memory_removed", "task_created",
                  "task_changed", "message_sent", "steering_changed", "mcp_write")


@dataclass(frozen=True)
class ToolResult:
    """What a tool returns to the model (text), whether it failed, and the mutations it made."""

    text: str
    is_error: bool = False
    mutations: tuple[Mutation, ...] = ()


@dataclass(frozen=True)
class ToolContext:
    """Who calls a tool: the run, its node step, the call's journal key, and whether the run may write."""

    run_id: str | None = None
    step: int = 0
    call_key: str = ""
    writes_allowed: bool = False


ToolRun = Callable[[Mapping[str, Any], ToolContext], Awaitable[ToolResult]]
Observe = Callable[[Mapping[str, Any]], Awaitable[str | None]]
Target = Callable[[Mapping[str, Any]], str | tuple[str, ...] | None]
Expect = Callable[[Mapping[str, Any], str], Awaitable[str | None]]


@dataclass(frozen=True)
class Tool:
    """One tool: its model-facing spec, whether it changes anything, and the coroutine that runs it.

    ``observe`` (write tools) returns a short fingerprint of what a call would change (a file's size and
    hash, how many memories hold that text). ``expect`` says what that fingerprint will be once the call has
    run, given the call's arguments and the fingerprint ``observe`` just gave (for an append: the hash of the
    old content and the text; for a write: the hash of the text); None when it cannot tell. Both are
    recorded with the call's intent, so a run resumed after a kill settles a call that had begun by what the
    call itself would have produced: the target as expected → it took effect; unchanged → it never ran;
    anything else (someone else changed it meanwhile) → it may or may not have happened. A changed target
    alone is no proof that the call ran.

    ``target`` (write tools) names what a call would change, in the words a card would use: a workspace path,
    a recipient, a channel; a tuple when it changes several (an e-mail's recipients). An approval licenses writes
    to the targets its card named (every one of a tuple); a call with a target it did not name is not run (it
    becomes a card of its own). None (or a tool without ``target``): the call names no target of its own, and the
    tool being offered is the whole license.
    """

    spec: ToolSpec
    writes: bool
    run: ToolRun
    observe: Observe | None = None
    target: Target | None = None
    expect: Expect | None = None

    def target_of(self, arguments: Mapping[str, Any]) -> str | tuple[str, ...] | None:
        """What a call with ``arguments`` would change (None: it names no target, or cannot be read)."""
        if self.target is None:
            return None
        try:
            return self.target(arguments)
        except Exception:  # arguments a tool cannot read name no target it could check: refused later
            return None

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass(frozen=True)
class SkillSetting:
    """A setting shown on the skill's page (read-only for now)."""

    name: str
    value: str


class Skill(Protocol):
    """A tool provider."""

    @property
    def name(self) -> str:
        """Stable id, e.g. ``files``."""
        ...

    @property
    def title(self) -> str:
        """For people, e.g. "Workspace files"."""
        ...

    @property
    def description(self) -> str:
        ...

    def tools(self) -> Sequence[Tool]:
        ...

    async def health(self) -> SkillHealth:
        ...

    def settings(self) -> Sequence[SkillSetting]:
        ...


MAX_OFFERED_EXTERNAL = 8
"""MCP tools offered to one task at most: with SmolLM2's 8k window, the built-in tools and eight more leave
room for the conversation (bench/mcp_bench.py measures the prompt with 200 tools)."""


@dataclass(frozen=True)
class ToolOffer:
    """The tools one task is offered, and how many tools of the MCP servers were left out for it."""

    tools: list[Tool]
    left_out: int = 0

    def note(self) -> str:
        """A line for the prompt when tools were left out, else ""."""
        if not self.left_out:
            return ""
        return (f"({self.left_out} more tool(s) of connected skills were left out for this task; name the skill "
                "or what you need in your request to have them offered.)")


_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset({"the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "with", "from", "by", "at", "is",
                   "are", "be", "it", "this", "that", "my", "me", "your", "you", "our", "please", "can", "could",
                   "would", "should", "do", "does", "what", "which", "who", "how", "when", "where", "any", "all",
                   "some", "now", "tool", "tools", "use", "using", "skill", "skills"})


@functools.lru_cache(maxsize=8192)
def _words(text: str) -> frozenset[str]:
    found = set()
    for word in _WORD.findall(text.lower()):
        if len(word) >= 3 and word not in _STOP:
            found.add(word)
            if word.endswith("s") and len(word) > 3:
                found.add(word[:-1])
    return frozenset(found)


def choose(tools: Sequence[tuple[str, Tool]], task: str, limit: int) -> list[Tool]:
    """Of ``(skill name, tool)`` pairs, the ``limit`` tools whose name, skill or description share the most
    words with ``task`` (all of them when they are ``limit`` or fewer); ties keep the listing's order."""
    if len(tools) <= limit:
        return [tool for _, tool in tools]
    wanted = _words(task)
    scored = []
    for index, (skill, tool) in enumerate(tools):
        name_words = _words(tool.name.replace("__", " ").replace("_", " ").replace("-", " "))
        score = (3 * len(wanted & name_words) + 2 * (skill.lower() in wanted)
                 + len(wanted & _words(tool.spec.description[:600])))
        scored.append((-score, index, tool))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [tool for score, _, tool in scored[:limit] if score < 0]


@dataclass
class SkillRegistry:
    """The skills of this app instance (built in ``bootstrap``; no module-level registry)."""

    skills: list[Skill] = field(default_factory=list)

    def add(self, skill: Skill) -> None:
        self.skills.append(skill)

    def remove(self, name: str) -> None:
        """Forget the skill ``name`` (an MCP server whose table was removed); nothing when there is none."""
        self.skills[:] = [skill for skill in self.skills if skill.name != name]

    def get(self, name: str) -> Skill | None:
        return next((skill for skill in self.skills if skill.name == name), None)

    def skill_of(self, tool_name: str) -> str | None:
        """The name of the skill that offers ``tool_name`` (None: no skill does)."""
        return next((skill.name for skill in self.skills if any(t.name == tool_name for t in skill.tools())), None)

    def tools(self, *, include_writes: bool) -> list[Tool]:
        """All tools; write tools only when ``include_writes`` (analysis-only runs never see them)."""
        return [tool for skill in self.skills for tool in skill.tools() if include_writes or not tool.writes]

    def offer(self, *, include_writes: bool, task: str, limit: int = MAX_OFFERED_EXTERNAL) -> ToolOffer:
        """The tools for one task: every built-in one, and of the MCP servers' tools those the task's words
        call for (at most ``limit``), so a server that lists 200 tools does not fill a small model's window.

        Write tools only when ``include_writes`` (analysis-only runs never see them).
        """
        builtin: list[Tool] = []
        external: list[tuple[str, Tool]] = []
        for skill in self.skills:
            for tool in skill.tools():
                if include_writes or not tool.writes:
                    if getattr(skill, "kind", "builtin") == "builtin":
                        builtin.append(tool)
                    else:
                        external.append((skill.name, tool))
        chosen = choose(external, task, limit)
        return ToolOffer(builtin + chosen, len(external) - len(chosen))

    async def health(self) -> dict[str, SkillHealth]:
        result: dict[str, SkillHealth] = {}
        for skill in self.skills:
            try:
                result[skill.name] = await skill.health()
            except Exception as exc:  # a broken skill reports itself as broken, never breaks the caller
                result[skill.name] = SkillHealth(ERROR, f"health check failed: {exc}")
        return result
