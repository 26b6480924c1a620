"""The local web app (CONTRACT §9): a chat page on 127.0.0.1 and its WebSocket; each browser session is a
thread ``webapp:<session>`` whose history comes back when the page is reloaded."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from openhuman_desktop.channels import webapp_http as http
from openhuman_desktop.channels.base import (
    CONNECTED,
    DEGRADED,
    DISABLED,
    STARTING,
    STOPPED,
    ChannelState,
    ChannelStatus,
    InboundMessage,
)
from openhuman_desktop.channels.hub import CHANNEL_NAMES
from openhuman_desktop.clock import Clock
from openhuman_desktop.config import WebappSettings
from openhuman_desktop.errors import Conflict, UserFacingError
from openhuman_desktop.http_guard import GuardedServer, RequestLog
from openhuman_desktop.orchestration.ports import Run
from openhuman_desktop.private_file import remove_if_ours, write_private_json
from openhuman_desktop.store.records import Escalation
from openhuman_desktop.supervisor import TaskSupervisor, cancel_and_wait

log = logging.getLogger(__name__)

NAME = "webapp"
THREAD_PREFIX = "webapp:"
SESSION_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
MAX_FRAME = 512 * 1024
"""Largest client frame in bytes (a 100,000-character message fits); a bigger one closes the socket (1009)."""
MAX_QUEUED = 5000
"""Frames waiting for one slow tab; past it the tab is closed, reconnects and reloads its history."""
RECENT_REPLIES = 500
FIRST_RETRY_SECONDS = 1.0
LONGEST_RETRY_SECONDS = 60.0
HEARTBEAT_SECONDS = 30.0
SHUTDOWN_GRACE = 1.0
"""Seconds stopping waits for answers in flight and for each tab to acknowledge the close."""
MIN_TOKEN = 32
MAX_CONNECTIONS = 128
"""Most connections open at once (tabs' sockets and the page's requests); past it the longest-idle one that is
not being answered is closed, so half-sent requests can never use up the app's open files."""
DEADLINE = 10.0
"""Seconds a client has to send a request's headers (from connecting, or after an answer) before it is closed."""
SOMETHING_WRONG = "Something went wrong; the details are in the app's log file."


class Hub(Protocol):
    """What the web app needs of :class:`~openhuman_desktop.channels.hub.ChannelHub`."""

    async def submit(self, message: InboundMessage) -> Run: ...

    async def stop(self, run_id: str, thread_id: str) -> Run: ...

    async def approve(self, escalation_id: str) -> None: ...

    async def dismiss(self, escalation_id: str) -> None: ...

    async def skill_advice(self, escalation_id: str) -> str: ...

    async def pending_cards(self, channel: str) -> list[Escalation]: ...

    async def history(self, thread_id: str, limit: int = ...) -> list[Run]: ...


def link_file(workspace: Path) -> Path:
    """Where the web app keeps its key and its last port, so an open tab reconnects after a restart."""
    return workspace / "channels" / "webapp-link.json"


def _run_frame(run: Run, ref: object = None) -> dict[str, Any]:
    """A run began (``ref`` echoes the page's own mark of the message it sent, so it can match its bubble)."""
    frame: dict[str, Any] = {"type": "run", "run_id": run.id, "thread_id": run.thread_id, "input": run.input,
                             "purpose": run.purpose, "status": run.status}
    if isinstance(ref, str):
        frame["ref"] = ref
    return frame


def _reply_frame(run: Run) -> dict[str, Any]:
    """The final answer; a failed run's is its one sentence (with the fix)."""
    if run.status == "completed":
        text = run.response or ""
    else:
        text = run.error or ("The run was cancelled." if run.status == "cancelled" else "The run failed.")
    return {"type": "reply", "run_id": run.id, "text": text, "status": run.status}


def _history_item(run: Run) -> dict[str, Any]:
    """One run of the ``history`` frame: what was asked and what came of it."""
    return {"run_id": run.id, "input": run.input, "purpose": run.purpose, "status": run.status,
            "response": run.response, "error": run.error, "created_at": run.created_at,
            "finished_at": run.finished_at}


class _Tab:
    """One open WebSocket (a browser tab): frames go out in order through its own queue and writer."""

    def __init__(self, socket: web.WebSocketResponse, session: str,
                 transport: asyncio.Transport | None = None) -> None:
        self.socket = socket
        self.session = session
        self.transport = transport
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.writer: asyncio.Task[None] | None = None
        self.is_closing = False

    def send(self, frame: dict[str, Any]) -> None:
        if self.is_closing:
            return
        if self.queue.qsize() >= MAX_QUEUED:
            # Its writer may be stuck waiting for the tab to read: drop the connection. The page reconnects
            # and reads the history, which has everything it missed.
            log.warning("web app: a tab of session %s is not reading; closing it", self.session)
            self.is_closing = True
            if self.writer is not None:
                self.writer.cancel()
            if self.transport is not None:
                self.transport.abort()
            return
        self.queue.put_nowait(frame)

    async def write_all(self) -> None:
        """Send queued frames until closed; deltas of one run waiting together go as one frame."""
        try:
            while True:
                frames = [await self.queue.get()]
                while not self.queue.empty():
                    frames.append(self.queue.get_nowait())
                for frame in _merged(frames):
                    await self.socket.send_str(json.dumps(frame))
        except ConnectionError:  # the tab went away mid-write: its handler ends it
            self.is_closing = True


def _merged(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    merged: list[dict[str, Any]] = []
    for frame in frames:
        last = merged[-1] if merged else None
        if (last is not None and frame["type"] == "delta" and last["type"] == "delta"
                and frame["run_id"] == last["run_id"]):
            merged[-1] = {**last, "text": last["text"] + frame["text"]}
        else:
            merged.append(frame)
    return merged


class WebappChannel:
    """The web app: an aiohttp server on 127.0.0.1 serving the page and ``/ws``.

    Args:
        hub: where messages go and cards are resolved.
        settings: ``[channels.webapp]`` as it is now (a getter, so config edits apply on :meth:`reconfigure`).
        webapp_file: ``run/webapp.json``, written once listening and removed on :meth:`stop`.
        workspace: holds the key and the last port (``channels/webapp-link.json``, mode 0600): with ``port =
            0`` the same port is taken again when it is free, so an open tab reconnects after a restart.
        clock: sleeps between attempts to listen.
        supervisor: owns the retry task.
        on_change: called when its status changes by itself (it listens after all), for the window.
        max_connections: most connections open at once (:data:`MAX_CONNECTIONS`).
        deadline: seconds a client has to send a request's headers (:data:`DEADLINE`).
    """

    name = NAME

    def __init__(self, hub: Hub, settings: Callable[[], WebappSettings], webapp_file: Path, workspace: Path,
                 clock: Clock, supervisor: TaskSupervisor, on_change: Callable[[], None] | None = None, *,
                 max_connections: int = MAX_CONNECTIONS, deadline: float = DEADLINE) -> None:
        self._hub = hub
        self._on_change = on_change
        self._settings = settings
        self._webapp_file = webapp_file
        self._link_file = link_file(workspace)
        self._clock = clock
        self._supervisor = supervisor
        self._max_connections = max_connections
        self._deadline = deadline
        self._assets: dict[str, http.Asset] | None = None
        self._runner: web.ServerRunner | None = None
        self._retry: asyncio.Task[None] | None = None
        self._applied: WebappSettings | None = None
        self._token = ""
        self._port = 0
        self._state: ChannelState = STOPPED
        self._reason = "Not started."
        self._tabs: dict[str, set[_Tab]] = {}
        self._streams: dict[str, list[str]] = {}
        self._nodes: dict[str, list[str]] = {}  # the nodes an unfinished run has finished (a reload shows them)
        self._replies: OrderedDict[str, dict[str, Any]] = OrderedDict()

    # --- what the tray, the status and tests read -----------------------------------------------------

    @property
    def url(self) -> str | None:
        """``http://127.0.0.1:PORT/`` while listening."""
        return f"http://{http.HOST}:{self._port}/" if self._runner is not None else None

    @property
    def browser_url(self) -> str | None:
        """The address the tray opens: :attr:`url` with the key in the fragment (never sent to the server)."""
        url = self.url
        return f"{url}#token={self._token}" if url is not None else None

    @property
    def tab_count(self) -> int:
        return sum(len(tabs) for tabs in self._tabs.values())

    def status(self) -> ChannelStatus:
        enabled = self._settings().enabled
        return ChannelStatus(enabled=enabled, state=self._state, state_reason=self._reason, extra={"url": self.url})

    # --- life cycle --------------------------------------------------------------------------------

    async def start(self) -> None:
        settings = self._settings()
        self._applied = settings
        if not settings.enabled:
            self._state, self._reason = DISABLED, "Off in config.toml ([channels.webapp] enabled = false)."
            return
        self._state, self._reason = STARTING, "Starting."
        if not await self._listen(settings.port):
            self._retry = self._supervisor.spawn(self._listen_later(settings.port), name="webapp-listen-retry")

    async def stop(self) -> None:
        retry, self._retry = self._retry, None
        await cancel_and_wait(retry)
        tabs = [tab for session in self._tabs.values() for tab in session]
        # "Going away": the pages reconnect by themselves once the app is back.
        await asyncio.gather(*(tab.socket.close(code=1001, message=b"OpenHuman is stopping") for tab in tabs),
                             return_exceptions=True)
        runner, self._runner = self._runner, None
        if runner is not None:
            remove_if_ours(self._webapp_file, self._token)
            await runner.cleanup()
            log.info("web app stopped")
        self._streams.clear()
        self._nodes.clear()
        self._state, self._reason = STOPPED, "Stopped."

    async def reconfigure(self) -> None:
        if self._settings() == self._applied:
            return
        await self.stop()
        await self.start()

    async def _listen_later(self, port: int) -> None:
        wait = FIRST_RETRY_SECONDS
        while True:
            await self._clock.sleep(wait)
            if await self._listen(port):
                if self._on_change is not None:
                    self._on_change()
                return
            wait = min(wait * 2, LONGEST_RETRY_SECONDS)

    async def _listen(self, port: int) -> bool:
        """Listen on ``port`` (0: the last port if free, else any) and publish ``run/webapp.json``."""
        link = self._read_link()
        kept = link.get("token")
        self._token = kept if isinstance(kept, str) and len(kept) >= MIN_TOKEN else secrets.token_urlsafe(32)
        if self._assets is None:
            self._assets = http.load_assets()
        # A low-level server (three routes need no router) with a connection cap and a deadline for headers
        # (http_guard); a request that is not HTTP is one rate-limited line in the log. No access log: the
        # WebSocket's query string carries the key.
        server = GuardedServer(self._route, max_connections=self._max_connections, deadline=self._deadline,
                               what="web app", access_log=None, logger=RequestLog(log, "web app"))
        runner = web.ServerRunner(server, handle_signals=False, shutdown_timeout=SHUTDOWN_GRACE)
        await runner.setup()
        remembered = link.get("port")
        candidates = [port] if port else ([remembered] if isinstance(remembered, int) and remembered else []) + [0]
        failure: OSError | None = None
        for candidate in candidates:
            try:
                await web.TCPSite(runner, http.HOST, candidate).start()
                failure = None
                break
            except OSError as exc:
                failure = exc
        if failure is not None:
            await runner.cleanup()
            self._state, self._reason = DEGRADED, _listen_problem(port, failure)
            log.warning("web app: %s", self._reason)
            return False
        self._runner = runner
        self._port = int(runner.addresses[0][1])
        try:
            write_private_json(self._link_file, {"token": self._token, "port": self._port})
            write_private_json(self._webapp_file, {"url": self.url, "token": self._token, "pid": os.getpid()})
        except OSError as exc:
            log.warning("web app: its address could not be written (%s)", exc)
        self._state, self._reason = CONNECTED, f"Listening on {self.url}"
        log.info("web app listening on %s", self.url)
        return True

    def _read_link(self) -> dict[str, Any]:
        try:
            data = json.loads(self._link_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    # --- HTTP --------------------------------------------------------------------------------------

    async def _route(self, request: web.BaseRequest) -> web.StreamResponse:
        if request.method == "GET" and request.path == "/ws":
            return await self._on_socket(request)
        if request.method == "GET" and request.path == "/auth":
            return await self._on_auth(request)
        return await self._on_page(request)

    async def _on_page(self, request: web.BaseRequest) -> web.StreamResponse:
        refused = http.host_refusal(request, self._port)
        if refused is not None:
            return refused
        if request.method not in ("GET", "HEAD"):
            return http.refusal(405, "Method not allowed.")
        asset = (self._assets or {}).get(request.path)
        if asset is None:
            return http.refusal(404, "Not found.")
        return http.asset_response(asset, request.method)

    async def _on_auth(self, request: web.BaseRequest) -> web.StreamResponse:
        """Lets the page tell a wrong key (401) from an app that is not running (no answer)."""
        refused = http.host_refusal(request, self._port)
        if refused is not None:
            return refused
        if not http.token_matches(http.bearer_of(request), self._token):
            return http.refusal(401, "Unauthorized.")
        return web.Response(status=204, headers=http.SECURITY_HEADERS)

    # --- the WebSocket -----------------------------------------------------------------------------

    async def _on_socket(self, request: web.BaseRequest) -> web.StreamResponse:
        refused = http.socket_refusal(request, self._port, self._token)
        if refused is not None:
            refused.force_close()  # whatever the client sent after its upgrade request stays unread
            return refused
        session = request.query.get("session", "")
        if not SESSION_ID.fullmatch(session):
            session = secrets.token_urlsafe(12)
        socket = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=HEARTBEAT_SECONDS, timeout=SHUTDOWN_GRACE)
        await socket.prepare(request)
        tab = _Tab(socket, session, request.transport)
        tab.writer = asyncio.get_running_loop().create_task(tab.write_all(), name=f"webapp-tab-{session}")
        try:
            await self._open_tab(tab)
            async for message in socket:
                if message.type == WSMsgType.TEXT:
                    await self._on_frame(tab, message.data)
                elif message.type == WSMsgType.BINARY:
                    tab.send(_error("Send JSON text frames."))
                else:
                    break
        finally:
            self._tabs.get(session, set()).discard(tab)
            if not self._tabs.get(session, True):
                self._tabs.pop(session, None)
            tab.writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionError):
                await tab.writer
            await socket.close()
        return socket

    async def _open_tab(self, tab: _Tab) -> None:
        """The session, its history and its cards first; then the tab gets live frames (no await between
        taking the snapshot of streamed text and joining, so nothing streamed meanwhile is missed)."""
        thread = THREAD_PREFIX + tab.session
        try:
            runs = await self._hub.history(thread)
            cards = [card for card in await self._hub.pending_cards(NAME) if self._shown_to(card, tab.session)]
        except Exception as exc:
            tab.send(_error_of(exc, "loading the conversation"))
            runs, cards = [], []
        tab.send({"type": "session", "session_id": tab.session, "thread_id": thread})
        tab.send({"type": "history", "thread_id": thread, "runs": [_history_item(run) for run in runs]})
        for card in cards:
            tab.send({"type": "escalation", "escalation": card.to_json()})
        for run in runs:
            if run.is_finished:
                continue
            if run.id in self._replies:  # finished while the history was being read
                tab.send(self._replies[run.id])
                continue
            for node in self._nodes.get(run.id, ()):
                tab.send({"type": "progress", "run_id": run.id, "node": node})
            if self._streams.get(run.id):
                tab.send({"type": "delta", "run_id": run.id, "text": "".join(self._streams[run.id])})
        self._tabs.setdefault(tab.session, set()).add(tab)

    async def _on_frame(self, tab: _Tab, data: str) -> None:
        try:
            frame = json.loads(data)
        except ValueError:
            tab.send(_error("That frame is not JSON."))
            return
        kind = frame.get("type") if isinstance(frame, dict) else None
        if kind == "message":
            await self._on_message(tab, frame)
        elif kind in ("approve", "dismiss"):
            await self._on_card_decision(tab, kind, frame)
        elif kind == "stop":
            await self._on_stop(tab, frame)
        elif kind == "fix":
            await self._on_fix(tab, frame)
        else:
            tab.send(_error("Unknown frame: send {\"type\": \"message\", \"text\": ...}, stop, approve, dismiss or "
                            "fix."))

    async def _on_message(self, tab: _Tab, frame: dict[str, Any]) -> None:
        text = frame.get("text")
        if not isinstance(text, str) or not text.strip():
            tab.send(_error("Write a message first (\"text\" must be a non-empty string)."))
            return
        try:
            run = await self._hub.submit(InboundMessage(THREAD_PREFIX + tab.session, text))
        except Exception as exc:
            tab.send(_error_of(exc, "sending a message"))
            return
        self._to_session(tab.session, _run_frame(run, frame.get("ref")))

    async def _on_stop(self, tab: _Tab, frame: dict[str, Any]) -> None:
        """Stop: the run ends cancelled and its ``reply`` frame (status ``cancelled``, "Stopped by you.") reaches
        every tab of the session. A run that finished just before the Stop reached it needs no word: its own
        reply is on its way."""
        run_id = frame.get("run_id")
        if not isinstance(run_id, str) or not run_id:
            tab.send(_error("\"run_id\" must be the id of the run to stop."))
            return
        try:
            await self._hub.stop(run_id, THREAD_PREFIX + tab.session)
        except Conflict:
            return
        except Exception as exc:
            tab.send({**_error_of(exc, f"stopping run {run_id}"), "run_id": run_id})

    async def _on_card_decision(self, tab: _Tab, kind: str, frame: dict[str, Any]) -> None:
        escalation_id = frame.get("escalation_id")
        if not isinstance(escalation_id, str) or not escalation_id:
            tab.send(_error("\"escalation_id\" must be the card's id."))
            return
        try:
            if kind == "approve":
                await self._hub.approve(escalation_id)
            else:
                await self._hub.dismiss(escalation_id)
        except Exception as exc:
            tab.send({**_error_of(exc, f"{kind} of card {escalation_id}"), "escalation_id": escalation_id})

    async def _on_fix(self, tab: _Tab, frame: dict[str, Any]) -> None:
        """Fix in Skills: this page has no Skills tab, so it answers with the skill's state and where to fix it."""
        escalation_id = frame.get("escalation_id")
        if not isinstance(escalation_id, str) or not escalation_id:
            tab.send(_error("\"escalation_id\" must be the card's id."))
            return
        try:
            text = await self._hub.skill_advice(escalation_id)
        except Exception as exc:
            tab.send({**_error_of(exc, f"fix of card {escalation_id}"), "escalation_id": escalation_id})
            return
        tab.send({"type": "skill", "escalation_id": escalation_id, "text": text})

    # --- the hub's notifications (synchronous: they only queue frames) ---------------------------------

    def run_started(self, run: Run) -> None:
        session = _session_of(run.thread_id)
        if session is None:
            return
        _bounded(self._streams).setdefault(run.id, [])
        self._to_session(session, _run_frame(run))

    def progress(self, run_id: str, thread_id: str, node: str) -> None:
        session = _session_of(thread_id)
        if session is not None:
            _bounded(self._nodes).setdefault(run_id, []).append(node)
            self._to_session(session, {"type": "progress", "run_id": run_id, "node": node})

    def text_streamed(self, run_id: str, thread_id: str, delta: str) -> None:
        session = _session_of(thread_id)
        if session is None or not delta:
            return
        _bounded(self._streams).setdefault(run_id, []).append(delta)
        self._to_session(session, {"type": "delta", "run_id": run_id, "text": delta})

    async def deliver(self, run: Run) -> None:
        """Send the answer to the session's open tabs. None open: the page shows it from the history when it
        comes back, so there is nothing to retry."""
        session = _session_of(run.thread_id)
        self._streams.pop(run.id, None)
        self._nodes.pop(run.id, None)
        if session is None:
            return
        frame = _reply_frame(run)
        self._replies[run.id] = frame
        while len(self._replies) > RECENT_REPLIES:
            self._replies.popitem(last=False)
        self._to_session(session, frame)

    def card_changed(self, escalation: Escalation) -> None:
        frame = {"type": "escalation", "escalation": escalation.to_json()}
        for session in list(self._tabs):
            if self._shown_to(escalation, session):
                self._to_session(session, frame)

    # --- helpers -----------------------------------------------------------------------------------

    @staticmethod
    def _shown_to(card: Escalation, session: str) -> bool:
        """A session's own cards and every heartbeat card (not another session's, nor another channel's)."""
        thread = card.thread_id or ""
        if thread.startswith(THREAD_PREFIX):
            return thread == THREAD_PREFIX + session
        return thread.split(":", 1)[0] not in CHANNEL_NAMES  # like the hub: heartbeat cards go everywhere

    def _to_session(self, session: str, frame: dict[str, Any]) -> None:
        for tab in list(self._tabs.get(session, ())):
            tab.send(frame)


def _bounded(per_run: dict[str, list[str]]) -> dict[str, list[str]]:
    """``per_run`` without its oldest run past :data:`RECENT_REPLIES` (a run that is never delivered here,
    e.g. one started by the heartbeat in a web thread, must not stay forever)."""
    while len(per_run) > RECENT_REPLIES:
        del per_run[next(iter(per_run))]
    return per_run


def _session_of(thread_id: str | None) -> str | None:
    if thread_id and thread_id.startswith(THREAD_PREFIX):
        return thread_id[len(THREAD_PREFIX):]
    return None


def _error(message: str) -> dict[str, Any]:
    return {"type": "error", "message": message}


def _error_of(exc: Exception, doing: str) -> dict[str, Any]:
    """The person's sentence for a failure: ours as it is, anything else (a bug) in the log."""
    if isinstance(exc, UserFacingError):
        return _error(str(exc))
    log.error("web app: %s failed", doing, exc_info=exc)
    return _error(SOMETHING_WRONG)


def _listen_problem(port: int, exc: OSError) -> str:
    if port and exc.errno == errno.EADDRINUSE:
        return (f"Port {port} is in use by another program: stop it, or set [channels.webapp] port = 0 in "
                "config.toml to use any free port. Trying again by itself.")
    reason = os.strerror(exc.errno) if exc.errno else str(exc)
    return f"The web app cannot listen on {http.HOST}:{port or 'a free port'} ({reason}). Trying again by itself."
