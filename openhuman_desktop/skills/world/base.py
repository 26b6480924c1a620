"""What the built-in skills of the person's world share: a state with a reason, live settings, and a watch."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from openhuman_desktop.skills.base import CONNECTED, DISABLED, ERROR, STARTING, SkillHealth, SkillSetting, Tool
from openhuman_desktop.skills.world._watch import WatchItem, WatchLog

log = logging.getLogger(__name__)

KIND = "builtin"


class WorldSkill:
    """A built-in skill of CONTRACT §12.2: off until its table says ``enabled = true``; ``connected`` while it
    works, ``error`` with one sentence when it does not (and it tries again by itself at the next use or tick).

    Subclasses set ``name``, ``title`` and ``description`` and build their tools in ``_make_tools``.
    """

    kind = KIND
    name = ""
    title = ""
    description = ""

    def __init__(self) -> None:
        self.enabled = False
        self.state = DISABLED
        self.reason = "Turned off: set enabled = true in its table (Settings > Skills)."
        self._tools: tuple[Tool, ...] = ()
        self.now: Callable[[], float] = time.time
        """The time for tool calls (the app's clock, set by the manager)."""

    # --- the Skill protocol ----------------------------------------------------------------------

    def tools(self) -> Sequence[Tool]:
        """The tools offered to models: only while the skill is enabled."""
        return self._tools if self.enabled else ()

    def listed_tools(self) -> Sequence[Tool]:
        """Every tool of the skill, offered or not (the Skills tab lists them for a skill that is off too)."""
        return self._tools

    async def health(self) -> SkillHealth:
        return SkillHealth(self.state, self.reason)

    def settings(self) -> Sequence[SkillSetting]:
        return ()

    def watches(self) -> tuple[str, ...]:
        """What it watches (folders, feed URLs, calendar sources), for ``skills_list``."""
        return ()

    # --- state -------------------------------------------------------------------------------------

    def reset(self) -> None:
        """Drop what a connection holds and try again (Restart in the Skills tab)."""
        if self.enabled and self.state == ERROR:
            self.set_state(STARTING, "Being tried again.")

    def set_state(self, state: str, reason: str = "") -> bool:
        """Change the state; returns whether it changed (the caller tells the UI)."""
        if (state, reason) == (self.state, self.reason):
            return False
        if state == ERROR:
            log.warning("skill %s: %s", self.name, reason)
        elif self.state == ERROR and state == CONNECTED:
            log.info("skill %s: working again", self.name)
        self.state, self.reason = state, reason
        return True


class WatchingSkill(WorldSkill):
    """A world skill that watches something: read at the start of every tick, its new items a report section.

    Args:
        folder: ``skills/NAME/`` in the workspace, where its watch keeps its state (None: in memory only).
    """

    section_title = ""
    newest_first = True

    def __init__(self, folder: Path | None) -> None:
        super().__init__()
        self._folder = folder
        self.log = WatchLog(folder, newest_first=self.newest_first)

    @property
    def is_watching(self) -> bool:
        return self.enabled and bool(self.watches())

    async def poll(self, now: float) -> None:
        """Read what it watches; items that appeared become :class:`WatchItem` s seen at ``now``."""
        raise NotImplementedError

    def new_items(self, since: float | None) -> list[WatchItem]:
        return self.log.since(since)
