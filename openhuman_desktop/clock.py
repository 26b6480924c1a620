"""Time as a port: the real clock for the app, a fake one for tests."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    """What the core needs to know about time."""

    def now(self) -> float:
        """Wall-clock time, unix seconds."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back (does not advance during suspend on Linux)."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds``."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
