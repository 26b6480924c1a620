"""The model clients of this instance, one per configured tier, rebuilt when config.toml changes them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from openhuman_desktop.config import ModelSettings, Settings
from openhuman_desktop.errors import LlmUnavailable
from openhuman_desktop.llm.base import LlmClient

log = logging.getLogger(__name__)

Factory = Callable[[Settings, str], LlmClient | None]


@dataclass(frozen=True)
class TierHealth:
    """The last check of one tier: ``ok`` with the model's context window, or the problem in words."""

    ok: bool
    message: str
    context_window: int | None = None


class ModelClients:
    """Gives the current client of a tier; remembers each tier's last health check.

    Args:
        settings: the live settings.
        factory: builds a client for a tier (``llm.make_client``).
    """

    def __init__(self, settings: Callable[[], Settings], factory: Factory) -> None:
        self._settings = settings
        self._factory = factory
        self._clients: dict[str, tuple[tuple[ModelSettings | None, str | None], LlmClient | None]] = {}
        self._retired: list[LlmClient] = []
        self.health: dict[str, TierHealth] = {}

    def get(self, tier: str) -> LlmClient | None:
        """The client for ``tier`` under the current settings (None when the tier is not configured)."""
        settings = self._settings()
        key = (settings.model(tier), settings.base_url_for(tier))
        cached = self._clients.get(tier)
        if cached is not None and cached[0] == key:
            return cached[1]
        if cached is not None and cached[1] is not None:
            self._retired.append(cached[1])
            self.health.pop(tier, None)
        client = self._factory(settings, tier)
        self._clients[tier] = (key, client)
        return client

    def context_window(self, tier: str) -> int | None:
        health = self.health.get(tier)
        return health.context_window if health else None

    async def check(self, tier: str) -> TierHealth:
        """Ask the tier's endpoint whether it is reachable and has the model; remembers the answer."""
        client = self.get(tier)
        if client is None:
            health = TierHealth(False, f"no [models.{tier}] table in config.toml")
        else:
            try:
                info = await client.check()
            except LlmUnavailable as exc:
                health = TierHealth(False, str(exc))
            else:
                window = f", context window {info.context_window} tokens" if info.context_window else ""
                health = TierHealth(True, f"{client.description} is ready{window}", info.context_window)
        self.health[tier] = health
        return health

    def problem(self, tier: str) -> str | None:
        """Why the tier is unusable according to its last check (None when fine or not checked yet)."""
        health = self.health.get(tier)
        return None if health is None or health.ok else health.message

    def describe(self, tier: str) -> str:
        client = self.get(tier)
        return client.description if client else f"[models.{tier}] (not configured)"

    async def aclose(self) -> None:
        clients = [client for _, client in self._clients.values() if client is not None] + self._retired
        self._clients.clear()
        self._retired.clear()
        results = await asyncio.gather(*(client.aclose() for client in clients), return_exceptions=True)
        for result in results:
            if isinstance(result, Exception):
                log.warning("closing a model client failed: %s", result)
