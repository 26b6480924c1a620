"""The person's world, built in (CONTRACT §12.2): mail, feeds, calendars, web pages and Slack as skills, the
watching ones read at the start of every tick and shown in the situation report (§12.3)."""

from __future__ import annotations

from openhuman_desktop.skills.world.base import WatchingSkill, WorldSkill
from openhuman_desktop.skills.world.manager import WorldSkills

__all__ = ["WatchingSkill", "WorldSkill", "WorldSkills"]
