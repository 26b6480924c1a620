"""Connection limits for the RPC server: a cap on open connections and a deadline for clients to deliver.

aiohttp keeps a connection open while a client dribbles its headers or body, and accepts as many
connections as there are file descriptors. This low-level server closes, per connection:

- the connection, when it has not delivered a request's headers within ``deadline`` seconds of connecting or
  of its last answer (slowloris headers, and idle keep-alive connections);
- and, past ``max_connections``, the longest-idle connection that is not being answered — so a flood of idle
  connections makes room for a real client instead of locking it out.

The body deadline is the handler's (``RpcServer`` reads the body under a timeout).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

log = logging.getLogger(__name__)

Handler = Any  # aiohttp's low-level handler type: BaseRequest -> Awaitable[StreamResponse]


class GuardedServer(web.Server):
    """``aiohttp.web.Server`` with a connection cap and a per-request delivery deadline.

    Args:
        handler: answers one request (``BaseRequest`` → response); runs with the deadline paused.
        max_connections: most connections kept open at once.
        deadline: seconds a connection may take to deliver a request's headers (from connecting or from its
            last answer) before it is closed.
        kwargs: passed to aiohttp's ``RequestHandler`` (e.g. ``auto_decompress``).
    """

    def __init__(self, handler: Handler, *, max_connections: int, deadline: float, **kwargs: Any) -> None:
        # aiohttp's own timers as a second line: idle keep-alive, and lingering over an unread body.
        kwargs.setdefault("lingering_time", min(deadline, 1.0))
        super().__init__(self._guarded, keepalive_timeout=deadline, **kwargs)
        self._inner = handler
        self._max = max(1, max_connections)
        self._deadline = deadline
        self._open: dict[RequestHandler, asyncio.TimerHandle | None] = {}  # oldest first
        self._busy: set[RequestHandler] = set()

    def connection_made(self, handler: RequestHandler, transport: asyncio.Transport) -> None:
        super().connection_made(handler, transport)
        if len(self._open) >= self._max:
            self._make_room(handler)
            if handler.transport is None:
                return
        self._open[handler] = self._arm(handler)

    def connection_lost(self, handler: RequestHandler, exc: BaseException | None = None) -> None:
        self._forget(handler)
        super().connection_lost(handler, exc)

    async def _guarded(self, request: web.BaseRequest) -> web.StreamResponse:
        protocol = request.protocol
        if isinstance(protocol, RequestHandler):
            self._disarm(protocol)
            self._busy.add(protocol)
        try:
            response: web.StreamResponse = await self._inner(request)
            return response
        finally:
            if isinstance(protocol, RequestHandler):
                self._busy.discard(protocol)
                if protocol in self._open:
                    self._open[protocol] = self._arm(protocol)  # covers writing the answer and the next headers

    def _make_room(self, newcomer: RequestHandler) -> None:
        """Close the longest-idle connection; the newcomer itself when every connection is being answered."""
        victim = next((handler for handler in self._open if handler not in self._busy), newcomer)
        log.debug("RPC connection limit (%d) reached: closing an idle connection", self._max)
        self._close(victim)

    def _arm(self, handler: RequestHandler) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(self._deadline, self._expire, handler)

    def _disarm(self, handler: RequestHandler) -> None:
        timer = self._open.get(handler)
        if timer is not None:
            timer.cancel()
            self._open[handler] = None

    def _expire(self, handler: RequestHandler) -> None:
        if handler in self._open and handler not in self._busy:
            log.debug("RPC connection closed: no request within %.1f s", self._deadline)
            self._close(handler)

    def _close(self, handler: RequestHandler) -> None:
        self._forget(handler)
        handler.force_close()

    def _forget(self, handler: RequestHandler) -> None:
        timer = self._open.pop(handler, None)
        if timer is not None:
            timer.cancel()
        self._busy.discard(handler)
