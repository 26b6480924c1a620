"""Skills: tool providers with a health status (workspace files, memory, tasks, notifications)."""

from __future__ import annotations

from openhuman_desktop.skills._args import check_arguments, checked_tool, object_schema
from openhuman_desktop.skills.base import (
    CONNECTED,
    DISCONNECTED,
    ERROR,
    Skill,
    SkillHealth,
    SkillRegistry,
    SkillSetting,
    Tool,
    ToolResult,
)
from openhuman_desktop.skills.files import WorkspaceFilesSkill
from openhuman_desktop.skills.memory_skill import MemorySkill
from openhuman_desktop.skills.notify import NotificationSkill
from openhuman_desktop.skills.tasks_skill import SubconsciousTasksSkill

__all__ = [
    "CONNECTED", "DISCONNECTED", "ERROR", "MemorySkill", "NotificationSkill", "Skill", "SkillHealth",
    "SkillRegistry", "SkillSetting", "SubconsciousTasksSkill", "Tool", "ToolResult", "WorkspaceFilesSkill",
    "check_arguments", "checked_tool", "object_schema",
]
