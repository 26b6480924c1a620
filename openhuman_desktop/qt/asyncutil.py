"""Running coroutines from Qt slots on the one qasync loop: owned jobs, coalesced refreshes, latest-wins."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

log = logging.getLogger(__name__)


def current_loop() -> asyncio.AbstractEventLoop:
    """The running loop, or (in a synchronous test between two ``run_until_complete``) the current one."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.get_event_loop_policy().get_event_loop()


class Jobs:
    """Owns the coroutines a window starts from its slots (STYLE G2).

    A slot is a two-line trampoline: ``def _on_add_button_clicked(self): self._jobs.spawn(self.add_task(), ...)``.
    The owner keeps strong references, logs failures, cancels everything in :meth:`aclose`, and lets a
    test wait until the window is idle (:meth:`wait_idle`). Expected errors (``UserFacingError``) are
    handled by the coroutine itself, next to the control that caused them; anything reaching here is a bug.
    """

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._groups: dict[str, asyncio.Task[Any]] = {}
        self.failures: list[BaseException] = []
        self._closed = False

    def spawn(self, coro: Coroutine[Any, Any, Any], *, name: str, group: str | None = None) -> asyncio.Task[Any] | None:
        """Run ``coro`` in the background; with ``group``, a job of the same group still running is cancelled."""
        if self._closed:
            coro.close()
            return None
        if group is not None:
            previous = self._groups.get(group)
            if previous is not None and not previous.done():
                previous.cancel()
        task = current_loop().create_task(coro, name=name)
        self._tasks.add(task)
        if group is not None:
            self._groups[group] = task
        task.add_done_callback(self._on_task_done)
        return task

    def _on_task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            self.failures.append(exc)
            log.error("window job %s failed", task.get_name(), exc_info=exc)

    @property
    def running(self) -> list[str]:
        return sorted(task.get_name() for task in self._tasks)

    async def wait_idle(self, *, raise_failures: bool = True) -> None:
        """Wait until no job runs (jobs started by other jobs included); re-raise the first failure."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        for _ in range(3):  # let done-callbacks that start follow-up jobs run
            await asyncio.sleep(0)
        if self._tasks:
            await self.wait_idle(raise_failures=raise_failures)
        if raise_failures and self.failures:
            raise self.failures[0]

    async def aclose(self) -> None:
        """Cancel every job and wait for them; safe to call twice."""
        self._closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)


class Refresher:
    """Runs an async refresh at most once at a time; requests during a run make exactly one more run.

    Bursts of change events (``status_changed`` ten times in a tick) thus cost one or two reloads.
    """

    def __init__(self, jobs: Jobs, refresh: Callable[[], Awaitable[None]], name: str) -> None:
        self._jobs = jobs
        self._refresh = refresh
        self._name = name
        self._running = False
        self._again = False

    def request(self) -> None:
        if self._running:
            self._again = True
            return
        self._running = True
        self._jobs.spawn(self._run(), name=self._name)

    async def run_now(self) -> None:
        """Refresh and wait for it (used by ``refresh()`` methods that tests await)."""
        await self._refresh()

    async def _run(self) -> None:
        try:
            while True:
                self._again = False
                await self._refresh()
                if not self._again:
                    return
        finally:
            self._running = False
