"""The built-in skills of the person's world (CONTRACT §12.2) in one app instance: always listed, each on or off
with its table, changed live with the config, read at the start of every tick, one report section each."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from openhuman_desktop.clock import Clock
from openhuman_desktop.config_skills import (
    CalendarSettings,
    EmailSettings,
    FeedsSettings,
    SkillsSettings,
    SlackSettings,
    WebSettings,
)
from openhuman_desktop.errors import NotFound, UserFacingError
from openhuman_desktop.skills.base import SkillRegistry
from openhuman_desktop.skills.world._watch import WatchItem
from openhuman_desktop.skills.world.base import WatchingSkill, WorldSkill
from openhuman_desktop.skills.world.calendar import CalendarSkill
from openhuman_desktop.skills.world.email import EmailSkill
from openhuman_desktop.skills.world.feeds import FeedsSkill
from openhuman_desktop.skills.world.slack import SlackSkill
from openhuman_desktop.skills.world.web import WebSkill

log = logging.getLogger(__name__)

TICK_WAIT = 20.0
"""Seconds a tick waits for the skills' reads; one still running goes on in the background, and the tick
reports what was known (a hanging server never holds the heartbeat)."""
MAX_SECTION_LINES = 50
"""Lines of one skill's section at most (the newest); the rest are counted in a note."""

T = TypeVar("T")
MakeSection = Callable[[str, str, str, str, Sequence[tuple[str, float]]], T]
"""Builds a report section: ``(title, text, signature, skill name, [(item line, when first seen)])``; the items
are what the judgement weighs one by one (the section's shown lines)."""
Settings = EmailSettings | FeedsSettings | CalendarSettings | WebSettings | SlackSettings


class WorldSkills:
    """Keeps the five built-in world skills in the registry and in line with ``[skills.*]``.

    Args:
        registry: where they are listed (after the other built-in skills, before the MCP servers).
        settings: the ``[skills]`` settings in force (read at each :meth:`apply`).
        clock: the moment items are seen at.
        state_dir: ``skills/`` in the workspace (each watching skill keeps ``skills/NAME/state.json``); None:
            nothing is kept across restarts.
        on_change: called when a skill's state changed (the Skills tab and the status refresh).
        environ: where ``password_env`` / ``webhook_env`` are looked up (default: the app's environment).
    """

    def __init__(self, registry: SkillRegistry, settings: Callable[[], SkillsSettings], clock: Clock,
                 state_dir: Path | None, on_change: Callable[[], None] | None = None,
                 environ: Mapping[str, str] | None = None) -> None:
        self._settings = settings
        self._clock = clock
        self._state_dir = state_dir
        self._environ = os.environ if environ is None else environ
        notify = on_change or (lambda: None)
        self.email = EmailSkill(self._folder("email"), self._environ, notify)
        self.feeds = FeedsSkill(self._folder("feeds"), on_change=notify)
        self.calendar = CalendarSkill(self._folder("calendar"), on_change=notify)
        self.web = WebSkill()
        self.slack = SlackSkill(self._environ, on_change=notify)
        self.skills: tuple[WorldSkill, ...] = (self.email, self.feeds, self.calendar, self.web, self.slack)
        for skill in self.skills:
            skill.now = clock.now
            registry.add(skill)
        self._polls: dict[str, asyncio.Task[None]] = {}
        self.apply()

    def _folder(self, name: str) -> Path | None:
        return self._state_dir / name if self._state_dir is not None else None

    @property
    def watching(self) -> tuple[WatchingSkill, ...]:
        return (self.email, self.feeds, self.calendar)

    def apply(self) -> None:
        """Bring each skill in line with its table (an unchanged table leaves it alone)."""
        settings = self._settings()
        self.email.configure(settings.email)
        self.feeds.configure(settings.feeds)
        self.calendar.configure(settings.calendar)
        self.web.configure(settings.web)
        self.slack.configure(settings.slack)

    def get(self, name: str) -> WorldSkill | None:
        return next((skill for skill in self.skills if skill.name == name), None)

    def restart(self, name: str) -> WorldSkill:
        """Start a skill afresh (``skills_restart``): its connection is dropped and, if it watches, it is read
        again in the background. Returns it at once.

        Raises:
            NotFound: no such built-in skill.
        """
        skill = self.get(name)
        if skill is None:
            raise NotFound(f"There is no built-in skill named {name!r}.")
        if not skill.enabled:
            return skill
        skill.reset()
        if isinstance(skill, WatchingSkill) and skill.is_watching:
            task = self._polls.get(name)
            if task is None or task.done():
                self._polls[name] = asyncio.create_task(self._poll(skill, self._clock.now()), name=f"watch-{name}")
        return skill

    async def settled(self, wait: float = TICK_WAIT) -> None:
        """Wait (at most ``wait`` seconds) for the reads under way: the report's health lines then show the state
        the tick's own reads found, not the one before them."""
        running = [asyncio.shield(task) for task in self._polls.values() if not task.done()]
        if running:
            await asyncio.wait(running, timeout=wait)

    async def poll(self, skill: WatchingSkill, now: float, wait: float = TICK_WAIT) -> None:
        """Read what ``skill`` watches (one read at a time per skill: a tick joins the one under way), waiting at
        most ``wait`` seconds; a read still running then goes on and its news is the next tick's."""
        task = self._polls.get(skill.name)
        if task is None or task.done():
            task = self._polls[skill.name] = asyncio.create_task(self._poll(skill, now), name=f"watch-{skill.name}")
        try:
            await asyncio.wait_for(asyncio.shield(task), wait)
        except TimeoutError:
            log.info("skill %s: still reading after %.0f s; its news comes with a later tick", skill.name, wait)

    @staticmethod
    async def _poll(skill: WatchingSkill, now: float) -> None:
        try:
            await skill.poll(now)
        except Exception:  # a bug in one skill's read must not break the tick: logged, the skill says error
            log.exception("skill %s: reading what it watches failed", skill.name)
            skill.set_state("error", "Reading it failed unexpectedly (details in the log); it is tried again at "
                                     "the next tick.")

    def section_sources(self, make: MakeSection[T]) -> list[Callable[[Any, float | None, float],
                                                                   Awaitable[T | None]]]:
        """One report section source per watching skill (CONTRACT §12.3); ``make`` builds the report's section
        (see :data:`MakeSection`). A skill that is off gives no section."""
        return [self._section_source(skill, make) for skill in self.watching]

    def _section_source(self, skill: WatchingSkill, make: MakeSection[T]
                        ) -> Callable[[Any, float | None, float], Awaitable[T | None]]:
        async def build(tasks: Any, since: float | None, now: float) -> T | None:
            if not skill.is_watching:
                return None
            await self.poll(skill, now)
            items = skill.new_items(since)
            # The signature is every item's key: the same until a new item appears, whatever the span shows.
            return make(skill.section_title, section_text(skill, items), skill.log.signature(), skill.name,
                        [(item.line, item.seen_at) for item in items[:MAX_SECTION_LINES]])

        return build

    async def test(self, name: str, settings: Settings) -> str:
        """What Settings' Test button says for a skill's form (its table as typed, saved or not).

        Raises:
            UserFacingError: why it does not work, in one sentence.
        """
        live = self.get(name)
        if live is None:
            raise UserFacingError(f"There is no built-in skill named {name!r}.")
        enabled = _with_enabled(settings)
        if getattr(live, "config", None) == enabled and live.enabled:
            return await _tested(live)
        probe = _probe(name, self._folder(name), self._environ)
        probe.now = self._clock.now
        probe.configure(enabled)  # type: ignore[attr-defined]
        try:
            return await _tested(probe)
        finally:
            await probe.aclose()  # type: ignore[attr-defined]

    async def aclose(self) -> None:
        for task in self._polls.values():
            task.cancel()
        await asyncio.gather(*self._polls.values(), return_exceptions=True)
        await asyncio.gather(*(skill.aclose() for skill in self.skills if hasattr(skill, "aclose")),
                             return_exceptions=True)


def section_text(skill: WatchingSkill, items: Sequence[WatchItem]) -> str:
    """The section's lines: the newest (events: the soonest) :data:`MAX_SECTION_LINES` items, then a note."""
    if not items:
        return "Nothing new since the last check."
    lines = [f"- {item.line}" for item in items[:MAX_SECTION_LINES]]
    if len(items) > MAX_SECTION_LINES:
        lines.append(f"[{len(items) - MAX_SECTION_LINES} more not shown; {skill.name} tools can list them]")
    return "\n".join(lines)


def _with_enabled(settings: Settings) -> Settings:
    from dataclasses import replace

    return replace(settings, enabled=True)


def _probe(name: str, folder: Path | None, environ: Mapping[str, str]) -> WorldSkill:
    if name == "email":
        return EmailSkill(folder, environ)
    if name == "feeds":
        return FeedsSkill(folder)
    if name == "calendar":
        return CalendarSkill(folder)
    if name == "slack":
        return SlackSkill(environ)
    return WebSkill()


async def _tested(skill: WorldSkill) -> str:
    test = getattr(skill, "test", None)
    if test is None:
        return "Nothing to connect to: it works whenever a task fetches a page."
    result = await test()
    return str(result)
