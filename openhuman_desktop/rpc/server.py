"""The local JSON-RPC server: HTTP on 127.0.0.1 only, a bearer token, and ``run/rpc.json``."""

from __future__ import annotations

import asyncio
import errno
import hmac
import json
import logging
import os
import secrets
from pathlib import Path

from aiohttp import web

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.http_guard import GuardedServer, RequestLog
from openhuman_desktop.private_file import write_private_json
from openhuman_desktop.rpc.protocol import INTERNAL_ERROR, PARSE_ERROR, Dispatcher, dumps, error_response

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
MAX_BODY = 1024 * 1024
"""Largest request body; also aiohttp's ``BaseRequest.client_max_size`` default, which bounds chunked bodies."""
PATH = "/rpc"
MAX_CONNECTIONS = 128
"""Most connections open at once; past it the longest-idle one is closed to make room."""
DEADLINE = 5.0
# How long stopping the server waits for answers in flight before it cancels them: a long-poll
# (``agent_run_follow``, up to 30 s) must not hold up the app's shutdown (aiohttp's default is 60 s).
SHUTDOWN_GRACE = 2.0
"""Seconds a client has to send a request's headers (from connecting, or after an answer) and then its body."""


def _json(data: object, status: int = 200) -> web.Response:
    """A strict JSON answer: a result holding NaN or Infinity becomes an internal error, never invalid JSON."""
    try:
        text = dumps(data)
    except ValueError:
        log.exception("RPC answer is not strict JSON (NaN or Infinity in a result)")
        request_id = data.get("id") if isinstance(data, dict) else None
        fallback = error_response(None, INTERNAL_ERROR, "Internal error; the details are in the app's log file.")
        fallback["id"] = request_id if isinstance(request_id, str | int) else None
        text = dumps(fallback)
    return web.Response(status=status, text=text, content_type="application/json")


def _refusal(status: int, message: str) -> web.Response:
    return _json({"jsonrpc": "2.0", "error": {"code": -32000, "message": message}, "id": None}, status)


class RpcServer:
    """Serves a :class:`Dispatcher` at ``http://127.0.0.1:PORT/rpc``.

    Args:
        dispatcher: answers request bodies.
        rpc_file: where the address and token are published once the server listens.
        port: 0 for any free port.
        max_connections: most connections open at once (the longest-idle one is closed to make room).
        deadline: seconds a client has to send a request's headers, and then its body; an idle keep-alive
            connection is closed after as long.
        shutdown_grace: seconds :meth:`aclose` lets answers in flight finish before it cancels them.
    """

    def __init__(
        self,
        dispatcher: Dispatcher,
        rpc_file: Path,
        port: int = 0,
        *,
        max_connections: int = MAX_CONNECTIONS,
        deadline: float = DEADLINE,
        shutdown_grace: float = SHUTDOWN_GRACE,
    ) -> None:
        self._dispatcher = dispatcher
        self._rpc_file = rpc_file
        self._port = port
        self._max_connections = max_connections
        self._deadline = deadline
        self._shutdown_grace = shutdown_grace
        self._token = secrets.token_urlsafe(32)
        self._runner: web.ServerRunner | None = None
        self.url: str | None = None

    async def start(self) -> str:
        """Listen, then publish ``rpc.json``; returns the URL.

        Raises:
            UserFacingError: the port cannot be used (the sentence names it and says what to do).
        """
        # Bodies are plain JSON: no Content-Encoding is decoded (no zip bombs, no half-decoded streams).
        # A request that is not HTTP is one rate-limited line in the log, never a traceback (http_guard).
        server = GuardedServer(
            self._handle, max_connections=self._max_connections, deadline=self._deadline, what="RPC",
            access_log=None, auto_decompress=False, logger=RequestLog(log, "RPC server"),
        )
        runner = web.ServerRunner(server, handle_signals=False, shutdown_timeout=self._shutdown_grace)
        await runner.setup()
        site = web.TCPSite(runner, HOST, self._port, reuse_address=False)
        try:
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            if exc.errno == errno.EADDRINUSE:
                reason = "another program is using it: stop that program, or"
            else:
                reason = f"{os.strerror(exc.errno) if exc.errno else exc}:"
            raise UserFacingError(
                f"The RPC server cannot listen on {HOST}:{self._port} ({reason} "
                "set [rpc] port = 0 in config.toml to use any free port)."
            ) from exc
        self._runner = runner
        port = runner.addresses[0][1]
        self.url = f"http://{HOST}:{port}{PATH}"
        write_private_json(self._rpc_file, {"url": self.url, "token": self._token, "pid": os.getpid()})
        log.info("JSON-RPC listening on %s", self.url)
        return self.url

    def _authorized(self, request: web.BaseRequest) -> bool:
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer":
            return False
        # Header bytes that are not UTF-8 arrive as surrogate escapes; they are a wrong token, not a crash.
        return hmac.compare_digest(token.strip().encode("utf-8", "surrogateescape"), self._token.encode())

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        # The token comes first: nothing else about the request is looked at, nor its body read, without it.
        if not self._authorized(request):
            return _refusal(401, "Unauthorized: send 'Authorization: Bearer TOKEN' with the token from run/rpc.json")
        if request.path != PATH:
            return _refusal(404, f"Not found: the JSON-RPC endpoint is {PATH}")
        if request.method != "POST":
            return _refusal(405, "Use POST with a JSON-RPC 2.0 body")
        if request.content_length is not None and request.content_length > MAX_BODY:
            return _refusal(413, f"Request body too large: the limit is {MAX_BODY} bytes")
        try:
            async with asyncio.timeout(self._deadline):
                body = await request.read()
        except TimeoutError:
            response = _refusal(408, f"Request timeout: send the body within {self._deadline:g} s")
            response.force_close()
            return response
        except web.HTTPRequestEntityTooLarge:
            return _refusal(413, f"Request body too large: the limit is {MAX_BODY} bytes")
        except web.RequestPayloadError:  # e.g. a broken chunked transfer encoding
            response = _json(error_response(None, PARSE_ERROR, "Parse error: the body cannot be read"), 400)
            response.force_close()
            return response
        answer = await self._dispatcher.handle_body(body)
        if answer is None:
            return web.Response(status=204)
        return _json(answer)

    async def aclose(self) -> None:
        """Stop listening and remove ``rpc.json`` (only if it is still ours); safe to call twice."""
        runner, self._runner = self._runner, None
        if runner is None:
            return
        try:
            current = json.loads(self._rpc_file.read_text(encoding="utf-8"))
            if current.get("token") == self._token:
                self._rpc_file.unlink()
        except (OSError, ValueError):
            pass
        await runner.cleanup()
        log.info("JSON-RPC server stopped")
