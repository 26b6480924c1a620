"""Every background task has a name and an owner that logs its failure and cancels it on shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


async def cancel_and_wait(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` (if any, and not done) and wait until it has stopped."""
    if task is None or task.done():
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


class TaskSupervisor:
    """Owns background asyncio tasks: keeps strong references, logs crashes, cancels on shutdown."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False

    def spawn(self, coro: Coroutine[Any, Any, Any], *, name: str) -> asyncio.Task[Any]:
        """Run ``coro`` in the background under ``name``."""
        if self._closing:
            coro.close()
            raise RuntimeError(f"cannot start {name!r}: shutting down")
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._on_task_done)
        return task

    def _on_task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.error("background task %s failed", task.get_name(), exc_info=exc)

    @property
    def running(self) -> list[str]:
        return sorted(task.get_name() for task in self._tasks)

    async def cancel_all(self, timeout: float = 10.0) -> None:
        """Cancel every task and wait (bounded) for them to finish their clean-up; safe to call twice."""
        self._closing = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            done, pending = await asyncio.wait(tasks, timeout=timeout)
            for task in pending:
                log.warning("background task %s did not stop within %.0f s", task.get_name(), timeout)
