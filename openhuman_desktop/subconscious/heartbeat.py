"""The heartbeat: sleeps between ticks (never a fixed-rate timer), survives suspend, follows config live."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from openhuman_desktop.clock import Clock
from openhuman_desktop.config import Settings

log = logging.getLogger(__name__)

# How long one wait may be before the heartbeat looks at the clocks again. A laptop that
# sleeps through a tick is noticed within this after it wakes, and then ticks once.
WAKE_CHECK_SECONDS = 30.0
# How long a disabled or paused heartbeat waits between looks at the settings (a poke wakes it sooner).
IDLE_CHECK_SECONDS = WAKE_CHECK_SECONDS * 10


class Heartbeat:
    """Calls ``tick`` every ``interval_minutes`` while enabled and not paused.

    The interval is measured from the end of one tick to the start of the next, so a slow tick
    delays the next one and ticks never stack. Elapsed time is the larger of wall-clock and
    monotonic time since the last tick: a suspended laptop (wall clock ran, monotonic did not) ticks
    once on waking, and a wall clock set back by hand does not stop the heartbeat.

    Args:
        clock: time source (a fake in tests).
        settings: returns the current settings (they can change while running).
        tick: runs one tick to its end.
        busy: tells whether a tick started elsewhere (Run Now) is still running; the heartbeat
            then waits for it instead of starting one that would supersede it.
    """

    def __init__(
        self,
        clock: Clock,
        settings: Callable[[], Settings],
        tick: Callable[[str], Awaitable[None]],
        busy: Callable[[], bool] | None = None,
    ) -> None:
        self._clock = clock
        self._settings = settings
        self._tick = tick
        self._busy = busy or (lambda: False)
        self._wake = asyncio.Event()
        self._paused = False
        self._last_wall: float | None = None
        self._last_mono: float | None = None
        self._waited_for_busy = False
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
        self._mark(at)
        self.poke()

    def _mark(self, wall: float) -> None:
        self._last_wall = wall
        self._last_mono = self._clock.monotonic()

    def _interval(self) -> float:
        return self._settings().heartbeat.interval_minutes * 60.0

    def _is_active(self) -> bool:
        return self._settings().heartbeat.enabled and not self._paused

    def _elapsed(self) -> float:
        """Seconds since the last tick: the larger of wall-clock and monotonic time."""
        assert self._last_wall is not None and self._last_mono is not None
        return max(self._clock.now() - self._last_wall, self._clock.monotonic() - self._last_mono)

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
        if self._last_wall is None:
            self._mark(self._clock.now())  # the first tick comes one interval after start
        while True:
            if not self._is_active():
                self.next_tick_at = None
                await self._wait(IDLE_CHECK_SECONDS)
                continue
            remaining = self._interval() - self._elapsed()
            self.next_tick_at = self._clock.now() + max(0.0, remaining)
            if remaining > 0:
                await self._wait(min(remaining, WAKE_CHECK_SECONDS))
                continue  # re-check: poked, not due yet, or woken from suspend (then due now)
            if self._busy():
                self._waited_for_busy = True  # a Run Now tick is running: wait for it, never stack
                await self._wait(WAKE_CHECK_SECONDS)
                continue
            if self._waited_for_busy:
                self._waited_for_busy = False
                self._mark(self._clock.now())  # that tick just ended: a full interval from now
                continue
            if remaining < -WAKE_CHECK_SECONDS * 2:
                log.info("heartbeat: tick is %.0f s late (suspend?); ticking once now", -remaining)
            self._mark(self._clock.now())
            try:
                await self._tick("heartbeat")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("heartbeat: tick failed")
            self._mark(self._clock.now())  # the next interval starts when this tick ended
