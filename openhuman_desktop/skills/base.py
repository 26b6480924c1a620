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
class ToolResult:
    """What a tool returns to the model (text) and whether it failed."""

    text: str
    is_error: bool = False


@dataclass(frozen=True)
class Tool:
    """One tool: its model-facing spec, whether it changes anything, and the coroutine that runs it."""

    spec: ToolSpec
    writes: bool
    run: Callable[[Mapping[str, Any]], Awaitable[ToolResult]]

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
