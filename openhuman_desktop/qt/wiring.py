"""The one place the Qt side takes the app's ``Services`` apart: the Intelligence window's ports, one per tab
(``qt/intelligence/ports.py``), and the set-up's (``qt/onboarding/launcher.py``). The windows only ever see
these."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from openhuman_desktop.qt.intelligence.ports import (
    AgentPorts,
    ChatPorts,
    MemoryPorts,
    SkillsPorts,
    SubconsciousPorts,
    WindowPorts,
)
from openhuman_desktop.qt.onboarding.launcher import OnboardingPorts

if TYPE_CHECKING:
    from openhuman_desktop.bootstrap import Services
    from openhuman_desktop.llm.pool import ModelClients

__all__ = ["local_model_problem", "onboarding_ports", "window_ports"]


def window_ports(services: Services) -> WindowPorts:
    """The ports of the Intelligence window, from the running instance."""
    service = services.subconscious
    gate = services.approvals   # the approval gate: every card's Go ahead / Skip goes through it
    vectors = services.vectors
    reflection = services.reflection
    models = services.models
    return WindowPorts(
        now=services.clock.now,
        subconscious=SubconsciousPorts(
            status=service, tasks=service, rules=service, log=service.log_list, approvals=gate,
            escalations=gate.escalations_list, decisions=services.store.log.decisions_between,
            model_problem=lambda: local_model_problem(models),
        ),
        skills=_skills_ports(services),
        memory=MemoryPorts(services.memories, status=vectors.status if vectors is not None else None),
        chat=ChatPorts(services.channels, services.agent),
        agent=AgentPorts(services.ledger, services.steering, reflection.trigger,
                         reflection_status=reflection.status),
    )


def onboarding_ports(services: Services) -> OnboardingPorts:
    """The ports of the first-run set-up, from the running instance."""
    live = services.settings
    return OnboardingPorts(first_run=services.first_run, models=services.models, bus=services.bus,
                           settings=lambda: live.current, config_file=services.paths.config_file)


def local_model_problem(models: ModelClients) -> str | None:
    """What the last check of the local model found wrong, or None (it works, or was not checked yet)."""
    health = models.health.get("local")
    return None if health is None or health.ok else str(health.message)


def _skills_ports(services: Services) -> SkillsPorts:
    """The registry, with Restart and Disable for MCP servers and the built-in skills of the person's world."""
    servers = services.mcp
    world = services.world
    live = services.settings
    config_file = services.paths.config_file

    def is_world(name: str) -> bool:
        return world.get(name) is not None

    async def restart(name: str) -> object:
        if is_world(name):
            return world.restart(name)
        return await servers.restart(name)

    async def set_enabled(name: str, enabled: bool) -> None:
        from openhuman_desktop.config_edit import ConfigEdit

        edit = ConfigEdit(config_file)
        edit.set(f"skills.{name}.enabled" if is_world(name) else f"skills.mcp.{name}.enabled", enabled)
        await asyncio.to_thread(edit.save)
        await live.reload()      # applied now, not when the watcher next looks
        if is_world(name):
            world.apply()
        else:
            await servers.apply()

    return SkillsPorts(services.skills, restart=restart, set_enabled=set_enabled)
