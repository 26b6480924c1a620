"""The heartbeat: sleeps between ticks (never a fixed-rate timer), survives suspend, follows config live."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from openhuman_desktop.clock import Clock
from openhuman_desktop.config import Settings

log = logging.getLogger(__name__)

# How long one wait may be before the heartbeat looks at the wall clock again. A laptop that
# sleeps through a tick is noticed within this after it wakes, and then ticks once.
WAKE_CHECK_SECONDS = 30.0


class Heartbeat:
    """Calls ``tick`` every ``interval_minutes`` while enabled and not paused.

    Args:
        clock: time source (a fake in tests).
        settings: returns the current settings (they can change while running).
        tick: runs one tick to its end.
    """

    def __init__(self, clock: Clock, settings: Callable[[], Settings], tick: Callable[[str], Awaitable[None]]) -> None:
        self._clock = clock
        self._settings = settings
        self._tick = tick
        self._wake = asyncio.Event()
        self._paused = False
        self._last_tick_at: float | None = None
        self._started_at: float | None = None
        self.next_tick_at: float | None = None

    @property
    def is_paused(self) -> bool:
        return self._paused

    def pause(self) -> None:
        self._paused = True
        self.poke()

    def resume(self) -> None:
        self._paused = False
        self.poke()

    def poke(self) -> None:
        """Look at the settings and the schedule again (config changed, paused, resumed, ran now)."""
        self._wake.set()

    def ticked(self, at: float) -> None:
        """A tick ran (scheduled or Run Now): the next one is a full interval later."""
        self._last_tick_at = at
        self.poke()

    def _interval(self) -> float:
        return self._settings().heartbeat.interval_minutes * 60.0

    def _is_active(self) -> bool:
        return self._settings().heartbeat.enabled and not self._paused

    async def _wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True if poked earlier."""
        if self._wake.is_set():
            self._wake.clear()
            return True
        sleeper = asyncio.ensure_future(self._clock.sleep(max(0.0, seconds)))
        waker = asyncio.ensure_future(self._wake.wait())
        try:
            done, _ = await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for future in (sleeper, waker):
                future.cancel()
        poked = waker in done
        if poked:
            self._wake.clear()
        return poked

    async def run(self) -> None:
        """The loop; runs until cancelled."""
        self._started_at = self._clock.now()
        while True:
            if not self._is_active():
                self.next_tick_at = None
                await self._wait(WAKE_CHECK_SECONDS * 10)
                continue
            base = self._last_tick_at if self._last_tick_at is not None else self._started_at
            self.next_tick_at = base + self._interval()
            remaining = self.next_tick_at - self._clock.now()
            if remaining > 0:
                await self._wait(min(remaining, WAKE_CHECK_SECONDS))
                continue  # re-check: poked, not due yet, or woken from suspend (then due now)
            started = self._clock.now()
            if remaining < -WAKE_CHECK_SECONDS * 2:
                log.info("heartbeat: tick is %.0f s late (suspend?); ticking once now", -remaining)
            self._last_tick_at = started
            try:
                await self._tick("heartbeat")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("heartbeat: tick failed")
