"""The situation report's health and watch sections: what the skills and the model tiers say of themselves, as
the judge reads them, and what the MCP servers watch (CONTRACT §12.3)."""

from __future__ import annotations

from openhuman_desktop.llm.pool import TIERS, ModelClients
from openhuman_desktop.skills.base import SkillRegistry
from openhuman_desktop.skills.listing import describe_all, health_lines
from openhuman_desktop.skills.mcp import McpSkills
from openhuman_desktop.skills.world import WorldSkills
from openhuman_desktop.subconscious import report


class HealthSections:
    """The report's "Skills", "Skill health" and "Model health" sections over the skills and the model pool.

    Each waits for the world skills to settle first, so a tick sees the state its own reads of mail, feeds and
    calendars found.
    """

    def __init__(self, skills: SkillRegistry, world: WorldSkills, mcp: McpSkills, models: ModelClients) -> None:
        self._skills = skills
        self._world = world
        self._mcp = mcp
        self._models = models

    def sections(self) -> list[report.SectionSource]:
        """The three sections, in the report's order."""
        return [
            self.watched,
            report.verdicts_section("Skill health", self.skill_lines, self.skill_verdicts),
            report.verdicts_section("Model health", self.model_lines, self.model_verdicts),
        ]

    async def skill_lines(self) -> list[str]:
        """What the judge reads: each skill's state and what is wrong, without addresses or configuration advice."""
        await self._world.settled()
        return health_lines(await describe_all(self._skills), plain=report.for_the_judge)

    async def skill_verdicts(self) -> str:
        """Only the enabled skills' states: an MCP server's reason carries its stderr, which must not open the
        idle gate."""
        await self._world.settled()
        return ",".join(f"{info.name}:{info.state}" for info in await describe_all(self._skills) if info.enabled)

    async def model_lines(self) -> list[str]:
        """Each tier's health, and every enabled skill in error or disconnected (part of the model-health picture,
        CONTRACT §12.3)."""
        await self._world.settled()
        lines = [f"skill {info.name}: {info.state} — {info.state_reason}" for info in await describe_all(self._skills)
                 if info.enabled and info.is_problem]
        for tier in TIERS:
            problem, health = self._models.problem(tier), self._models.health.get(tier)
            if problem is not None:
                lines.append(f"{tier} model: problem — {report.for_the_judge(problem)}")
            elif health is not None:  # its address and what to set (an assumed window) are the user's
                lines.append(f"{tier} model: ok — {report.for_the_judge(health.message)}")
        return lines

    async def model_verdicts(self) -> str:
        """Only ok/problem per tier (not checked yet counts as ok) and the skills in trouble: the idle gate
        ignores the details."""
        await self._world.settled()
        tiers = ",".join(f"{tier}:{'ok' if ok else 'problem'}" for tier, ok in self._models.verdicts().items())
        problems = [f"{info.name}:{info.state}" for info in await describe_all(self._skills)
                    if info.enabled and info.is_problem]
        return ";".join([tiers, *problems])

    async def watched(self, tasks: object, since: float | None, now: float) -> report.Section | None:
        """What the MCP servers watch, read at the start of the tick: the lines say what changed since the due
        tasks' oldest decision; the signature is what the resources hold, so it moves only with them."""
        if not self._mcp.watching():
            return None
        await self._mcp.poll(now)
        lines = self._mcp.change_lines(since)
        text = "\n".join(f"- {report.one_line(line)}" for line in lines) or "Nothing watched has changed."
        return report.Section("Skills", text, signature=self._mcp.watch_signature())
