"""What the app's two HTTP servers on 127.0.0.1 (the RPC server and the web app) share against clients that
misbehave: a cap on open connections, a deadline to deliver a request, and one rate-limited line in the log
for a request that is not HTTP.

aiohttp keeps a connection open while a client dribbles its headers or body, and accepts as many
connections as there are file descriptors: 1,100 half-sent requests at the usual limit of 1,024 open files
left the process unable to accept anything (RPC and the page both timed out). :class:`GuardedServer` closes,
per connection:

- the connection, when it has not delivered a request's headers within ``deadline`` seconds of connecting or
  of its last answer (slowloris headers, and idle keep-alive connections);
- and, past ``max_connections``, the longest-idle connection that is not being answered — so a flood of idle
  connections makes room for a real client instead of locking it out.

A body is the handler's to bound: ``RpcServer`` reads it under a timeout; the web app reads none, and what a
client sends after its headers is drained for at most ``lingering_time`` once the answer is out.

aiohttp logs every request it cannot parse with its traceback at ERROR ("Error handling request"): anyone who
can reach the port could fill the log. :class:`RequestLog` makes each of those one line at INFO, at most
:data:`LINES_PER_MINUTE` a minute, and keeps the traceback for what is a bug of ours (a handler that raised).
"""

from __future__ import annotations

import asyncio
import logging
import sys
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.web_protocol import RequestHandler

log = logging.getLogger(__name__)

LINES_PER_MINUTE = 10
"""Most lines a minute about requests that are not HTTP; the rest are counted and said in the next line."""

Handler = Any  # aiohttp's low-level handler type: BaseRequest -> Awaitable[StreamResponse]


class GuardedServer(web.Server):
    """``aiohttp.web.Server`` with a connection cap and a per-request delivery deadline.

    Args:
        handler: answers one request (``BaseRequest`` → response); runs with the deadline paused.
        max_connections: most connections kept open at once.
        deadline: seconds a connection may take to deliver a request's headers (from connecting or from its
            last answer) before it is closed.
        what: the server's name in the log ("RPC", "web app").
        kwargs: passed to aiohttp's ``RequestHandler`` (e.g. ``auto_decompress``, ``logger``).
    """

    def __init__(self, handler: Handler, *, max_connections: int, deadline: float, what: str = "HTTP",
                 **kwargs: Any) -> None:
        # aiohttp's own timers as a second line: idle keep-alive, and lingering over an unread body.
        kwargs.setdefault("lingering_time", min(deadline, 1.0))
        super().__init__(self._guarded, keepalive_timeout=deadline, **kwargs)
        self._inner = handler
        self._what = what
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
        log.debug("%s connection limit (%d) reached: closing an idle connection", self._what, self._max)
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
            log.debug("%s connection closed: no request within %.1f s", self._what, self._deadline)
            self._close(handler)

    def _close(self, handler: RequestHandler) -> None:
        self._forget(handler)
        handler.force_close()

    def _forget(self, handler: RequestHandler) -> None:
        timer = self._open.pop(handler, None)
        if timer is not None:
            timer.cancel()
        self._busy.discard(handler)


class RequestLog:
    """The logger aiohttp's request handler is given (``logger=``): what it logs about a connection, as the app
    wants it.

    A request aiohttp could not parse (not HTTP, a bad header, a broken chunked body: the client's doing) is one
    line at INFO without a traceback, at most ``per_minute`` lines a minute; those left out are counted and the
    next line says how many. Anything else it logs through :meth:`exception` (a handler of ours that raised)
    keeps its traceback at ERROR.

    Args:
        logger: where the lines go (the server module's own logger).
        what: the server's name in the lines ("RPC server", "web app").
        per_minute: most lines a minute about malformed requests.
        monotonic: the clock of the rate limit.
    """

    def __init__(self, logger: logging.Logger, what: str, *, per_minute: int = LINES_PER_MINUTE,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self._logger = logger
        self._what = what
        self._per_minute = max(1, per_minute)
        self._monotonic = monotonic
        self._window_start = -60.0
        self._lines = 0
        self._left_out = 0

    def debug(self, message: str, *args: Any, **kwargs: Any) -> None:
        """aiohttp's debug records (a client that went away, a first request that is not HTTP): one line."""
        exc = kwargs.pop("exc_info", None)
        if not self._logger.isEnabledFor(logging.DEBUG):
            return
        if isinstance(exc, BaseException):
            message = f"{message} ({_reason(exc)})"
        self._logger.debug(message, *args, **kwargs)

    def exception(self, message: str, *args: Any, **kwargs: Any) -> None:
        """A request aiohttp refused (one rate-limited line) or a failure of ours (ERROR with its traceback)."""
        given = kwargs.pop("exc_info", True)
        exc = given if isinstance(given, BaseException) else sys.exc_info()[1]
        if isinstance(exc, HttpProcessingError):
            self.malformed(exc)
            return
        self._logger.error(message, *args, exc_info=given, **kwargs)

    def malformed(self, exc: HttpProcessingError) -> None:
        """One line for a request that is not HTTP, unless this minute has had its lines."""
        now = self._monotonic()
        if now - self._window_start >= 60.0:
            self._window_start, self._lines = now, 0
        if self._lines >= self._per_minute:
            self._left_out += 1
            return
        self._lines += 1
        left_out, self._left_out = self._left_out, 0
        more = f" ({left_out} more left out of the log before this one)" if left_out else ""
        self._logger.info("%s: a malformed HTTP request was refused (%s)%s", self._what, _reason(exc), more)


def _reason(exc: BaseException) -> str:
    """aiohttp's words for what was wrong, on one line and short (they may quote the client's bytes)."""
    text = exc.message if isinstance(exc, HttpProcessingError) and exc.message else str(exc)
    text = " ".join(str(text).split()) or type(exc).__name__
    text = "".join(char if char.isprintable() else f"\\x{ord(char):02x}" for char in text)
    return text if len(text) <= 160 else text[:159] + "…"
