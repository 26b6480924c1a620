"""Every skill as the Skills tab, ``openhuman.skills_list`` (CONTRACT §12.4) and ``doctor`` show it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openhuman_desktop.skills.base import ERROR, Skill, SkillRegistry, SkillSetting
from openhuman_desktop.skills.mcp.server import McpSkill
from openhuman_desktop.skills.world.base import WorldSkill


@dataclass(frozen=True)
class ToolInfo:
    """A tool: ``name`` as the model sees it (``NAME__TOOL`` for MCP), read or write, disabled or not."""

    name: str
    title: str
    access: str
    description: str
    disabled: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "access": self.access, "description": self.description,
                "disabled": self.disabled}


@dataclass(frozen=True)
class SkillInfo:
    """A skill's row (CONTRACT §12.4's Skill, plus ``stderr`` and ``settings`` for the Skills tab)."""

    name: str
    kind: str
    title: str
    enabled: bool
    state: str
    state_reason: str
    tools: tuple[ToolInfo, ...] = ()
    watches: tuple[str, ...] = ()
    stderr: tuple[str, ...] = ()
    settings: tuple[SkillSetting, ...] = field(default=())
    description: str = ""

    @property
    def is_problem(self) -> bool:
        return self.state in (ERROR, "disconnected")

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "title": self.title, "enabled": self.enabled,
                "state": self.state, "state_reason": self.state_reason,
                "tools": [tool.to_json() for tool in self.tools], "watches": list(self.watches),
                "stderr": list(self.stderr), "description": self.description}


async def describe(skill: Skill) -> SkillInfo:
    """One skill as it is now (a built-in one's health is asked; it never raises)."""
    if isinstance(skill, McpSkill):
        tools = tuple(ToolInfo(t.name, t.title, t.access, t.description, t.disabled) for t in skill.listed_tools())
        return SkillInfo(skill.name, "mcp", skill.title, skill.config.enabled, skill.state, skill.reason, tools,
                         skill.config.watch, tuple(skill.stderr), tuple(skill.settings()), skill.description)
    if isinstance(skill, WorldSkill):  # a built-in skill of the person's world: on or off, what it watches
        health = await skill.health()
        tools = tuple(ToolInfo(t.name, t.name, "write" if t.writes else "read", t.spec.description)
                      for t in skill.listed_tools())
        return SkillInfo(skill.name, "builtin", skill.title, skill.enabled, health.status, health.message, tools,
                         skill.watches(), settings=tuple(skill.settings()), description=skill.description)
    try:
        health = await skill.health()
        state, reason = health.status, health.message
    except Exception as exc:  # a broken skill reports itself as broken, never breaks the listing
        state, reason = ERROR, f"health check failed: {exc}"
    tools = tuple(ToolInfo(t.name, t.name, "write" if t.writes else "read", t.spec.description)
                  for t in skill.tools())
    return SkillInfo(skill.name, "builtin", skill.title, True, state, reason, tools,
                     settings=tuple(skill.settings()), description=skill.description)


async def describe_all(registry: SkillRegistry) -> list[SkillInfo]:
    """Every skill, built-in ones first, MCP servers in the file's order."""
    return [await describe(skill) for skill in list(registry.skills)]


def health_lines(infos: Sequence[SkillInfo], plain: Callable[[str], str] = str) -> list[str]:
    """``NAME: state (reason)`` per enabled skill, for the situation report; ``plain`` shortens a reason to what
    the judge should read (no addresses, no configuration advice)."""
    return [f"{info.name}: {info.state}" + (f" ({reason})" if (reason := plain(info.state_reason)) else "")
            for info in infos if info.enabled]
