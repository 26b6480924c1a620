"""``openhuman.skills_list`` and ``openhuman.skills_restart`` (CONTRACT §12.4)."""

from __future__ import annotations

from openhuman_desktop.errors import NotFound
from openhuman_desktop.rpc.methods import Json, Method, Param
from openhuman_desktop.rpc.protocol import METHOD_PREFIX
from openhuman_desktop.skills.base import SkillRegistry
from openhuman_desktop.skills.listing import describe, describe_all
from openhuman_desktop.skills.mcp import McpSkills
from openhuman_desktop.skills.world import WorldSkills


def skill_methods(registry: SkillRegistry, servers: McpSkills, world: WorldSkills | None = None) -> dict[str, Method]:
    """The ``openhuman.skills_*`` methods."""

    async def skills_list(p: dict[str, Json]) -> Json:
        return [info.to_json() for info in await describe_all(registry)]

    async def skills_restart(p: dict[str, Json]) -> Json:
        name = p["name"]
        if name in servers.servers:
            return (await describe(await servers.restart(name))).to_json()
        if world is not None and world.get(name) is not None:
            return (await describe(world.restart(name))).to_json()
        skill = registry.get(name)
        if skill is None:
            raise NotFound(f"There is no skill named {name!r}.")
        return (await describe(skill)).to_json()  # a built-in skill has nothing to restart

    return {METHOD_PREFIX + "skills_list": Method((), skills_list),
            METHOD_PREFIX + "skills_restart": Method((Param("name", "string", required=True),), skills_restart)}
