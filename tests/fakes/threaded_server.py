"""The life cycle the fake servers share: an aiohttp application on 127.0.0.1, served by a daemon thread with a
loop of its own, so sync tests (the real app in a subprocess) and async tests can use a fake alike."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from types import TracebackType
from typing import Self

from aiohttp import web


class ThreadedServer:
    """Subclasses build their application (:meth:`_build_app`); ``start`` returns once the port is bound."""

    shutdown_timeout = 0.5

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping = asyncio.Event()
        self._port: int | None = None

    def _build_app(self) -> web.Application:
        raise NotImplementedError

    def _on_loop(self) -> None:
        """Called on the server's loop before it listens (create the loop's own events here)."""

    @property
    def port(self) -> int:
        """The TCP port the server listens on (only while running)."""
        if self._port is None:
            raise RuntimeError(f"{type(self).__name__} is not running")
        return self._port

    def start(self, port: int = 0) -> Self:
        """Serve on ``port`` (0: a free one) in a daemon thread; returns once it listens."""
        if self._thread is not None:
            raise RuntimeError(f"{type(self).__name__} is already running")
        ready: concurrent.futures.Future[int] = concurrent.futures.Future()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._serve(ready, port)),
                                        name=type(self).__name__, daemon=True)
        self._thread.start()
        try:
            self._port = ready.result(timeout=10)
        except BaseException:
            self._thread.join(timeout=10)
            self._thread = None
            raise
        return self

    def stop(self) -> None:
        """Stop serving (a request in flight is cut off) and join the thread; safe to call twice."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has already closed
                self._loop.call_soon_threadsafe(self._stopping.set)
        thread.join(timeout=10)
        self._loop = None
        self._port = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    async def _serve(self, ready: concurrent.futures.Future[int], port: int) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        self._on_loop()
        runner = web.AppRunner(self._build_app(), access_log=None, shutdown_timeout=self.shutdown_timeout)
        try:
            await runner.setup()
            await web.TCPSite(runner, "127.0.0.1", port).start()
            ready.set_result(runner.addresses[0][1])
        except Exception as exc:
            ready.set_exception(exc)
            await runner.cleanup()
            return
        try:
            await self._stopping.wait()
        finally:
            await runner.cleanup()
