"""Running coroutines from Qt slots on the one qasync loop: owned jobs, coalesced refreshes, latest-wins."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ClassVar

log = logging.getLogger(__name__)


def running_loop() -> asyncio.AbstractEventLoop | None:
    """The running loop, or None (a synchronous test between two ``run_until_complete`` calls)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class Jobs:
    """Owns the coroutines a window starts from its slots (STYLE G2).

    A slot is a two-line trampoline: ``def _on_add_button_clicked(self): self._jobs.spawn(self.add_task(), ...)``.
    The owner keeps strong references, logs failures, cancels everything in :meth:`aclose`, and lets a
    test wait until the window is idle (:meth:`wait_idle`). Expected errors (``UserFacingError``) are
    handled by the coroutine itself, next to the control that caused them; anything reaching here is a bug.

    In the app the qasync loop always runs while Qt delivers events. Only a synchronous test can click a
    button while it does not; such a job waits in ``deferred`` until the test runs the loop again
    (:meth:`start_deferred`, :meth:`wait_idle`), because a task stepped by ``processEvents`` outside
    ``run_until_complete`` would find no running loop.
    """

    _all: ClassVar[weakref.WeakSet[Jobs]] = weakref.WeakSet()

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._groups: dict[str, asyncio.Task[Any]] = {}
        self.deferred: list[tuple[Coroutine[Any, Any, Any], str, str | None]] = []
        self.failures: list[BaseException] = []
        self._closed = False
        Jobs._all.add(self)

    def spawn(self, coro: Coroutine[Any, Any, Any], *, name: str, group: str | None = None) -> asyncio.Task[Any] | None:
        """Run ``coro`` in the background; with ``group``, a job of the same group still running is cancelled."""
        if self._closed:
            coro.close()
            return None
        loop = running_loop()
        if loop is None:
            self.deferred.append((coro, name, group))
            return None
        if group is not None:
            previous = self._groups.get(group)
            if previous is not None and not previous.done():
                previous.cancel()
        task = loop.create_task(coro, name=name)
        self._tasks.add(task)
        if group is not None:
            self._groups[group] = task
        task.add_done_callback(self._on_task_done)
        return task

    def start_deferred(self) -> None:
        """Start the jobs spawned while the loop was not running (call with the loop running)."""
        deferred, self.deferred = self.deferred, []
        for coro, name, group in deferred:
            self.spawn(coro, name=name, group=group)

    @classmethod
    def start_all_deferred(cls) -> None:
        """:meth:`start_deferred` on every owner (test helpers call it when they run the loop)."""
        for jobs in list(cls._all):
            jobs.start_deferred()

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
        self.start_deferred()
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
            for _ in range(3):  # let done-callbacks and follow-up jobs start
                await asyncio.sleep(0)
            self.start_deferred()
        if raise_failures and self.failures:
            raise self.failures[0]

    async def aclose(self) -> None:
        """Cancel every job (and drop those never started); safe to call twice."""
        self._closed = True
        deferred, self.deferred = self.deferred, []
        for coro, _name, _group in deferred:
            coro.close()
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

    async def _run(self) -> None:
        try:
            while True:
                self._again = False
                await self._refresh()
                if not self._again:
                    return
        finally:
            self._running = False
