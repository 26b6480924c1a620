"""The heartbeat loop on a fake clock: cadence, no stacking, live config, pause, suspend."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest

from openhuman_desktop.config import Settings, with_heartbeat
from openhuman_desktop.subconscious.heartbeat import Heartbeat
from tests.fakes.clock import FakeClock

MINUTE = 60.0
INTERVAL = 5 * MINUTE


@dataclass
class Rig:
    """A heartbeat with a recording tick, its clock and its (changeable) settings."""

    clock: FakeClock
    heartbeat: Heartbeat
    settings: list[Settings]
    ticks: list[float] = field(default_factory=list)
    tick_seconds: float = 0.0
    running: int = 0
    most_at_once: int = 0
    fail_next: bool = False
    busy: bool = False
    started: float = 0.0

    def configure(self, **changes: object) -> None:
        self.settings[0] = with_heartbeat(self.settings[0], **changes)

    async def tick(self, reason: str) -> None:
        assert reason == "heartbeat"
        self.running += 1
        self.most_at_once = max(self.most_at_once, self.running)
        try:
            self.ticks.append(self.clock.now())
            if self.tick_seconds:
                await self.clock.sleep(self.tick_seconds)
            if self.fail_next:
                self.fail_next = False
                raise RuntimeError("tick exploded")
        finally:
            self.running -= 1

    async def advance(self, seconds: float, **kwargs: bool) -> None:
        await self.clock.advance(seconds, **kwargs)
        await settle()

    async def advance_in_steps(self, seconds: float, step: float = 10.0) -> None:
        """Move time the way it really passes: every sleeper wakes when its time comes."""
        moved = 0.0
        while moved < seconds:
            chunk = min(step, seconds - moved)
            await self.advance(chunk)
            moved += chunk


async def settle() -> None:
    for _ in range(50):
        await asyncio.sleep(0)


@pytest.fixture
async def rig(clock: FakeClock) -> AsyncIterator[Rig]:
    settings = [Settings()]
    holder: list[Rig] = []
    heartbeat = Heartbeat(clock, lambda: settings[0], lambda reason: holder[0].tick(reason),
                          busy=lambda: holder[0].busy)
    made = Rig(clock=clock, heartbeat=heartbeat, settings=settings, started=clock.now())
    holder.append(made)
    task = asyncio.get_running_loop().create_task(heartbeat.run(), name="heartbeat-under-test")
    await settle()
    yield made
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def test_ticks_once_per_interval(rig: Rig) -> None:
    assert rig.ticks == []
    assert rig.heartbeat.next_tick_at == rig.started + INTERVAL
    await rig.advance_in_steps(INTERVAL - 1)
    assert rig.ticks == []
    await rig.advance_in_steps(1)
    assert rig.ticks == [rig.started + INTERVAL]
    await rig.advance_in_steps(INTERVAL)
    await rig.advance_in_steps(INTERVAL)
    assert rig.ticks == [rig.started + INTERVAL * n for n in (1, 2, 3)]
    assert rig.heartbeat.next_tick_at == rig.started + INTERVAL * 4


async def test_one_big_step_still_gives_one_tick(rig: Rig) -> None:
    await rig.advance(INTERVAL * 3)
    assert len(rig.ticks) == 1


async def test_a_slow_tick_delays_the_next_and_ticks_never_stack(rig: Rig) -> None:
    rig.tick_seconds = 8 * MINUTE  # longer than the interval
    await rig.advance_in_steps(INTERVAL)
    assert len(rig.ticks) == 1 and rig.running == 1
    await rig.advance_in_steps(8 * MINUTE)  # the slow tick ends now
    assert len(rig.ticks) == 1 and rig.running == 0
    ended = rig.clock.now()
    await rig.advance_in_steps(INTERVAL - 10)
    assert len(rig.ticks) == 1  # a full interval of rest after the slow tick
    await rig.advance_in_steps(10)
    assert rig.ticks[-1] == ended + INTERVAL
    assert rig.most_at_once == 1


async def test_shorter_interval_applies_at_once_when_poked(rig: Rig) -> None:
    rig.configure(interval_minutes=60)
    rig.heartbeat.poke()
    await rig.advance_in_steps(10 * MINUTE)
    assert rig.ticks == []
    rig.configure(interval_minutes=5)
    rig.heartbeat.poke()
    await settle()
    assert rig.ticks == [rig.started + 10 * MINUTE]  # already 10 min since start: due now
    await rig.advance_in_steps(INTERVAL)
    assert len(rig.ticks) == 2


async def test_interval_change_applies_even_without_a_poke(rig: Rig) -> None:
    rig.configure(interval_minutes=60)
    rig.heartbeat.poke()
    await rig.advance_in_steps(10 * MINUTE)
    rig.configure(interval_minutes=5)
    await rig.advance_in_steps(40)  # noticed at the next look at the clock
    assert len(rig.ticks) == 1


async def test_longer_interval_postpones_the_tick(rig: Rig) -> None:
    await rig.advance_in_steps(4 * MINUTE)
    rig.configure(interval_minutes=10)
    rig.heartbeat.poke()
    await rig.advance_in_steps(5 * MINUTE)
    assert rig.ticks == []
    assert rig.heartbeat.next_tick_at == rig.started + 10 * MINUTE
    await rig.advance_in_steps(1 * MINUTE)
    assert len(rig.ticks) == 1


async def test_disabled_means_no_ticks_until_enabled(rig: Rig) -> None:
    rig.configure(enabled=False)
    rig.heartbeat.poke()
    await settle()
    assert rig.heartbeat.next_tick_at is None
    await rig.advance_in_steps(60 * MINUTE, step=30)
    assert rig.ticks == []
    rig.configure(enabled=True)
    rig.heartbeat.poke()
    await settle()
    assert len(rig.ticks) == 1  # overdue: it looks at once
    await rig.advance_in_steps(INTERVAL)
    assert len(rig.ticks) == 2


async def test_pause_and_resume(rig: Rig) -> None:
    rig.heartbeat.pause()
    assert rig.heartbeat.is_paused
    await rig.advance_in_steps(30 * MINUTE, step=30)
    assert rig.ticks == []
    assert rig.heartbeat.next_tick_at is None
    rig.heartbeat.resume()
    await settle()
    assert not rig.heartbeat.is_paused
    assert len(rig.ticks) == 1
    await rig.advance_in_steps(INTERVAL)
    assert len(rig.ticks) == 2


async def test_pause_before_due_then_resume_keeps_the_schedule(rig: Rig) -> None:
    await rig.advance_in_steps(2 * MINUTE)
    rig.heartbeat.pause()
    await rig.advance_in_steps(1 * MINUTE)
    rig.heartbeat.resume()
    await settle()
    assert rig.ticks == []
    await rig.advance_in_steps(2 * MINUTE)
    assert rig.ticks == [rig.started + INTERVAL]


async def test_suspend_gives_exactly_one_tick(rig: Rig) -> None:
    await rig.advance_in_steps(INTERVAL)
    assert len(rig.ticks) == 1
    await rig.advance(5 * 60 * MINUTE, wall_only=True)  # the laptop slept five hours
    assert len(rig.ticks) == 2  # once on waking, not once per missed interval
    woke = rig.clock.now()
    await rig.advance_in_steps(INTERVAL - 10)
    assert len(rig.ticks) == 2
    await rig.advance_in_steps(10)
    assert rig.ticks[-1] == woke + INTERVAL


async def test_wall_clock_set_back_does_not_stop_the_heartbeat(rig: Rig) -> None:
    rig.clock.set_wall(rig.clock.now() - 24 * 60 * MINUTE)
    await rig.advance_in_steps(INTERVAL)
    assert len(rig.ticks) == 1
    await rig.advance_in_steps(INTERVAL)
    assert len(rig.ticks) == 2


async def test_a_run_now_tick_restarts_the_interval(rig: Rig) -> None:
    await rig.advance_in_steps(3 * MINUTE)
    rig.heartbeat.ticked(rig.clock.now())  # what the engine does when Run Now starts a tick
    await rig.advance_in_steps(INTERVAL - 10)
    assert rig.ticks == []
    await rig.advance_in_steps(10)
    assert rig.ticks == [rig.started + 3 * MINUTE + INTERVAL]


async def test_no_scheduled_tick_while_a_run_now_tick_is_still_running(rig: Rig) -> None:
    rig.busy = True
    rig.heartbeat.ticked(rig.clock.now())
    await rig.advance_in_steps(INTERVAL + 2 * MINUTE)
    assert rig.ticks == []  # it would have superseded the running tick
    rig.busy = False
    finished = rig.clock.now()
    await rig.advance_in_steps(40)
    assert rig.ticks == []  # the rest starts when that tick ended
    await rig.advance_in_steps(INTERVAL)
    assert len(rig.ticks) == 1 and finished + INTERVAL <= rig.ticks[0] <= finished + INTERVAL + 40


@pytest.mark.logs_expected(r"heartbeat: tick failed")
async def test_a_failing_tick_does_not_stop_the_heartbeat(rig: Rig) -> None:
    rig.fail_next = True
    await rig.advance_in_steps(INTERVAL)
    assert len(rig.ticks) == 1
    await rig.advance_in_steps(INTERVAL)
    assert len(rig.ticks) == 2


async def test_cancelling_the_loop_leaves_no_sleepers(clock: FakeClock) -> None:
    settings = Settings()
    heartbeat = Heartbeat(clock, lambda: settings, lambda reason: asyncio.sleep(0))
    task = asyncio.get_running_loop().create_task(heartbeat.run())
    await settle()
    assert clock.sleeping == 1
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    await settle()
    assert clock.sleeping == 0
