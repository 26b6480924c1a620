"""The Skills tab: every skill with its state, its tools and, for MCP servers, Restart, Disable and Edit (``tab``)."""

from openhuman_desktop.qt.intelligence.skills.tab import SkillActions, SkillsView

__all__ = ["SkillActions", "SkillsView"]
