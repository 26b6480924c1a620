"""The ``[skills.mcp.*]`` servers of one app instance: started in the background, changed live with the config,
stopped (each its whole process group) when a table is removed or the app exits."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable, Mapping

from openhuman_desktop.clock import Clock
from openhuman_desktop.config_skills import SkillsSettings
from openhuman_desktop.errors import NotFound
from openhuman_desktop.skills.base import SkillRegistry
from openhuman_desktop.skills.mcp.server import McpSkill
from openhuman_desktop.skills.mcp.tools import TokenCount, clean_text

log = logging.getLogger(__name__)

POLL_TIMEOUT = 15.0
"""Seconds a tick waits for the watched resources of all servers (a hanging server is left for the next)."""
MAX_CHANGE_LINES = 50


class McpSkills:
    """Keeps one :class:`McpSkill` per ``[skills.mcp.NAME]`` table in the registry, in file order.

    Args:
        registry: where the servers are listed (after the built-in skills).
        settings: the ``[skills]`` settings in force (read at each :meth:`apply`).
        clock: back-off and the time changes are seen.
        tokens: caps tool results.
        on_change: called whenever a server's state or tools changed (the UI and status refresh).
        environ: where ``env_from`` / ``headers_from`` are looked up (default: the app's environment).
    """

    def __init__(self, registry: SkillRegistry, settings: Callable[[], SkillsSettings], clock: Clock,
                 tokens: TokenCount, on_change: Callable[[], None] | None = None,
                 environ: Mapping[str, str] | None = None) -> None:
        self._registry = registry
        self._settings = settings
        self._clock = clock
        self._tokens = tokens
        self._on_change = on_change or (lambda: None)
        self._environ = os.environ if environ is None else environ
        self.servers: dict[str, McpSkill] = {}
        self._lock = asyncio.Lock()
        self._closed = False

    def _taken(self, skill: McpSkill) -> set[str]:
        names = {tool.name for other in self._registry.skills if not isinstance(other, McpSkill)
                 for tool in other.tools()}
        for other in self.servers.values():
            if other is not skill:
                names |= other.model_names()
        return names

    def _make(self, name: str) -> McpSkill:
        return McpSkill(self._settings().mcp[name], self._clock, self._tokens, self._environ, self._on_change,
                        self._taken)

    async def apply(self) -> None:
        """Bring the servers in line with the settings: new tables start, removed ones stop, changed ones
        restart with their new settings; unchanged ones are left alone. Returns at once (servers connect in
        the background)."""
        async with self._lock:
            if self._closed:
                return
            wanted = self._settings().mcp
            stopping = [skill for name, skill in self.servers.items()
                        if name not in wanted or wanted[name] != skill.config]
            for skill in stopping:
                del self.servers[skill.name]
                self._registry.remove(skill.name)
            if stopping:
                await asyncio.gather(*(skill.stop() for skill in stopping))
                log.info("MCP servers stopped: %s", ", ".join(skill.name for skill in stopping))
            for name in wanted:
                if name not in self.servers:
                    skill = self.servers[name] = self._make(name)
                    self._registry.add(skill)
                    skill.start()
            self._reorder(list(wanted))
        if stopping or any(skill.state == "starting" for skill in self.servers.values()):
            self._on_change()

    def _reorder(self, order: list[str]) -> None:
        """MCP servers after the built-in skills, in the file's order."""
        builtin = [skill for skill in self._registry.skills if not isinstance(skill, McpSkill)]
        self._registry.skills[:] = builtin + [self.servers[name] for name in order if name in self.servers]

    def get(self, name: str) -> McpSkill:
        """Raises: NotFound: no such server."""
        skill = self.servers.get(name)
        if skill is None:
            raise NotFound(f"There is no MCP server named {name!r}.")
        return skill

    async def restart(self, name: str) -> McpSkill:
        """Restart one server now (its back-off starts over).

        Raises:
            NotFound: no such server.
        """
        skill = self.get(name)
        await skill.restart()
        return skill

    async def poll(self, now: float) -> None:
        """Read what the servers watch (changed since the last tick), all at once, within :data:`POLL_TIMEOUT`."""
        busy = [skill.poll_watches(now) for skill in self.servers.values() if skill.config.watch]
        if not busy:
            return
        try:
            async with asyncio.timeout(POLL_TIMEOUT):
                await asyncio.gather(*busy)
        except TimeoutError:
            log.info("watched MCP resources: not all read within %.0f s", POLL_TIMEOUT)

    def change_lines(self, since: float | None) -> list[str]:
        """``mcp NAME: resource URI changed`` for each watched resource seen changed after ``since``, newest
        first (CONTRACT §12.3)."""
        found = [(at, name, uri) for name, skill in self.servers.items() for at, uri in skill.changed_since(since)]
        found.sort(key=lambda item: item[0], reverse=True)
        lines = list(dict.fromkeys(f"mcp {name}: resource {clean_text(uri, 300)} changed" for _, name, uri in found))
        return lines[:MAX_CHANGE_LINES]

    def watching(self) -> bool:
        """Whether any server watches a resource."""
        return any(skill.config.watch for skill in self.servers.values())

    def watch_signature(self) -> str:
        """What the watched resources hold now (a digest per resource): the same while nothing changed, so the
        idle gate stays shut, also on the tick after a change was reported."""
        return "\n".join(f"{name} {uri} {digest}" for name, skill in self.servers.items()
                         for uri, digest in sorted(skill.digests().items()))

    async def aclose(self) -> None:
        """Stop every server (each its process group), all at once; safe to call twice."""
        async with self._lock:
            self._closed = True
            servers, self.servers = list(self.servers.values()), {}
            await asyncio.gather(*(skill.stop() for skill in servers), return_exceptions=True)
