"""Model health, kept fresh: every tier checked at start, every minute while one is unhealthy (every ten minutes
if not), at once when a tick's model answered or config.toml changed; Go ahead cards waiting for the reasoning
model are retried when it answers again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from openhuman_desktop import events
from openhuman_desktop.clock import Clock
from openhuman_desktop.llm.pool import TIERS, ModelClients
from openhuman_desktop.supervisor import TaskSupervisor

log = logging.getLogger(__name__)

HEALTHY_RECHECK_SECONDS = 600.0
UNHEALTHY_RECHECK_SECONDS = 60.0


class ModelWatch:
    """Checks the model tiers and publishes ``StatusChanged`` when a tier's health changes.

    Args:
        retry_waiting: the approval gate's retry of the approvals that wait for the reasoning model.
    """

    def __init__(self, models: ModelClients, bus: events.EventBus, clock: Clock, supervisor: TaskSupervisor,
                 retry_waiting: Callable[[], Awaitable[object]]) -> None:
        self._models = models
        self._bus = bus
        self._clock = clock
        self._supervisor = supervisor
        self._retry_waiting = retry_waiting
        self._closed = False

    async def run(self) -> None:
        """Check the models now, then again every minute while one is unhealthy (every 10 minutes if not)."""
        while True:
            healthy = await self.check()
            await self._clock.sleep(HEALTHY_RECHECK_SECONDS if healthy else UNHEALTHY_RECHECK_SECONDS)

    def check_soon(self) -> None:
        """Check every tier in the background (config.toml changed, or a tier answered again)."""
        if not self._closed:
            self._supervisor.spawn(self.check(), name="model-check")

    def close(self) -> None:
        """No new checks or retries once the app is shutting down."""
        self._closed = True

    def on_tick_finished(self, event: events.TickFinished) -> None:
        """A model that answered is healthy again: refresh at once rather than at the next periodic check."""
        if event.outcome == "ok" and self._models.problem("local"):
            self.check_soon()

    async def check(self) -> bool:
        """Check every tier at once; each answer is published as it comes (a hanging endpoint of one tier must not
        keep the other's news from the status). Returns whether all tiers are fine."""
        await asyncio.gather(*(self._check(tier) for tier in TIERS))
        return all(self._models.problem(tier) is None for tier in TIERS)

    async def _check(self, tier: str) -> None:
        before = self._models.health.get(tier)
        health = await self._models.check(tier)
        if health != before:
            if not health.ok:
                log.warning("model %s: %s", tier, health.message)
            self._bus.publish(events.StatusChanged())
        if tier == "reasoning" and health.ok and not self._closed:
            # A Go ahead that found the reasoning model down waits for it; it answers a check again, so try.
            # (Should the model still fail the real call, the card comes back, and the next check retries.)
            await self._retry_waiting()
