"""Skills: named tool providers with a health status; every tool says whether it writes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from openhuman_desktop.llm.base import ToolSpec

CONNECTED = "connected"
DISCONNECTED = "disconnected"
ERROR = "error"


@dataclass(frozen=True)
class SkillHealth:
    """``status`` is connected / disconnected / error; ``message`` says why in words."""

    status: str
    message: str = ""


@dataclass(frozen=True)
class Mutation:
    """A change a tool made to the world, for the world timeline (CONTRACT §8).

    Attributes:
        kind: ``file_written``, ``file_deleted``, ``memory_stored``, ``memory_removed``, ``task_created``,
            ``task_changed``, ``message_sent`` or ``steering_changed``.
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
                  "task_changed", "message_sent", "steering_changed")


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
    """

    spec: ToolSpec
    writes: bool
    run: ToolRun
    observe: Observe | None = None
    expect: Expect | None = None

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


@dataclass
class SkillRegistry:
    """The skills of this app instance (built in ``bootstrap``; no module-level registry)."""

    skills: list[Skill] = field(default_factory=list)

    def add(self, skill: Skill) -> None:
        self.skills.append(skill)

    def get(self, name: str) -> Skill | None:
        return next((skill for skill in self.skills if skill.name == name), None)

    def tools(self, *, include_writes: bool) -> list[Tool]:
        """All tools; write tools only when ``include_writes`` (analysis-only runs never see them)."""
        return [tool for skill in self.skills for tool in skill.tools() if include_writes or not tool.writes]

    async def health(self) -> dict[str, SkillHealth]:
        result: dict[str, SkillHealth] = {}
        for skill in self.skills:
            try:
                result[skill.name] = await skill.health()
            except Exception as exc:  # a broken skill reports itself as broken, never breaks the caller
                result[skill.name] = SkillHealth(ERROR, f"health check failed: {exc}")
        return result
