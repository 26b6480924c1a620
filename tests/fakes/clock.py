"""A clock the test moves by hand: ``sleep`` returns when the test has advanced time far enough."""

from __future__ import annotations

import asyncio
import heapq
import itertools


class FakeClock:
    """Virtual wall and monotonic time. ``await advance(s)`` wakes every sleeper whose time has come."""

    def __init__(self, start: float = 1_790_000_000.0) -> None:
        self._now = start
        self._mono = 1000.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self._now

    def monotonic(self) -> float:
        return self._mono

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._mono + seconds, next(self._order), future))
        await future

    @property
    def sleeping(self) -> int:
        """How many sleeps are waiting."""
        return sum(1 for _, _, future in self._sleepers if not future.done())

    async def advance(self, seconds: float, *, wall_only: bool = False) -> None:
        """Move time forward and let woken coroutines run.

        ``wall_only`` moves only the wall clock, as a suspended laptop does (monotonic time stands).
        """
        self._now += seconds
        if not wall_only:
            self._mono += seconds
        while self._sleepers and (self._sleepers[0][0] <= self._mono or wall_only):
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)
            if wall_only:
                break
        for _ in range(20):
            await asyncio.sleep(0)

    def set_wall(self, value: float) -> None:
        self._now = value
