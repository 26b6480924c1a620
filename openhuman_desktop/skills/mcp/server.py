"""One MCP server as a skill: started and watched in the background, its tools offered under the gate.

The connection lives in one task per server (:meth:`McpSkill._run`): start or reach the server, initialise,
list the tools, then wait for the connection to end or the tool list to change; on a failure try again after
1 s, 2 s, 4 s … up to 5 minutes. Nothing here holds the event loop or the app's start-up: the SDK is imported
in a worker thread, every request has a time limit, and the tools are offered only while connected.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from collections import deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import anyio

from openhuman_desktop.clock import Clock
from openhuman_desktop.config_skills import McpServerSettings
from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.skills.base import (
    CONNECTED,
    DISABLED,
    DISCONNECTED,
    ERROR,
    STARTING,
    Mutation,
    SkillHealth,
    SkillSetting,
    Tool,
    ToolContext,
    ToolResult,
)
from openhuman_desktop.skills.mcp.launch import leaf_error, load_sdk, resolve_secrets
from openhuman_desktop.skills.mcp.tools import (
    MAX_RESULT_TOKENS,
    ListedTool,
    ListedToolInfo,
    TokenCount,
    ToolView,
    call_target,
    cap_tokens,
    clean_text,
    model_description,
    model_schema,
    views,
)
from openhuman_desktop.supervisor import cancel_and_wait

log = logging.getLogger(__name__)

STATES = (STARTING, CONNECTED, ERROR, DISCONNECTED, DISABLED)
START_TIMEOUT = 30.0
"""Seconds a server has to start, initialise and list its tools."""
FIRST_DELAY, MAX_DELAY = 1.0, 300.0
STDERR_LINES = 20
REASON_LINES = 3
WATCH_READ_TIMEOUT = 10.0
MUTATION_KIND = "mcp_write"
RETRIED = " and is tried again after a pause (1 s, growing to 5 min)"
"""Said in a reason while the server is started again: one sentence with the server's own last words after it."""
IDEMPOTENT_MARK = "idempotent: safe to run again"
"""The observation of an idempotent write: always the same, so a call a kill interrupted is run again
(``subagent._settle``: an unchanged observation means "run it now"), as its server says it safely can be."""


class McpSkill:
    """A ``[skills.mcp.NAME]`` server (CONTRACT §12.1) behind the :class:`~openhuman_desktop.skills.base.Skill`
    protocol; also reports its watched resources that changed (§12.3).

    Args:
        settings: its table.
        clock: for the back-off and the time a change was seen.
        tokens: caps results in tokens.
        environ: where ``env_from`` / ``headers_from`` names are looked up (the app's environment).
        on_change: called (on the loop) whenever the state or the tools changed.
        taken: tool names other servers use (``NAME__TOOL`` must be unique).
        start_timeout: seconds a server has to start, initialise and list its tools.
    """

    kind = "mcp"

    def __init__(self, settings: McpServerSettings, clock: Clock, tokens: TokenCount,
                 environ: Mapping[str, str] | None = None, on_change: Callable[[], None] | None = None,
                 taken: Callable[[McpSkill], set[str]] | None = None, start_timeout: float = START_TIMEOUT) -> None:
        self.config = settings
        self._start_timeout = start_timeout
        self._clock = clock
        self._tokens = tokens
        self._environ = os.environ if environ is None else environ
        self._on_change = on_change or (lambda: None)
        self._taken = taken or (lambda _skill: set())
        self.state = DISABLED if not settings.enabled else STARTING
        self.reason = "" if settings.enabled else "Turned off (enabled = false)."
        self.stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._views: list[ToolView] = []
        self._tools: tuple[Tool, ...] = ()
        self._connection: Any = None
        self._task: asyncio.Task[None] | None = None
        self._delay = FIRST_DELAY
        self._wake = asyncio.Event()
        self.server_info = ""
        self.subscribed = False
        self._digests: dict[str, str] = {}
        self.changes: deque[tuple[float, str]] = deque(maxlen=200)
        """(seen at, URI) of every watched resource seen changed (newest last)."""

    # --- the Skill protocol -----------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def title(self) -> str:
        return f"{self.config.name} (MCP)"

    @property
    def description(self) -> str:
        where = self.config.url or " ".join([self.config.command or "", *self.config.args])
        server = f" — {self.server_info}" if self.server_info else ""
        return f"An MCP server: {where}{server}"

    def tools(self) -> Sequence[Tool]:
        """The tools offered to models: only while connected, never a disabled one."""
        return self._tools if self.state == CONNECTED else ()

    def settings(self) -> Sequence[SkillSetting]:
        s = self.config
        rows = [SkillSetting("Transport", "streamable HTTP" if s.url else "stdio")]
        rows.append(SkillSetting("URL", s.url) if s.url else SkillSetting("Command", " ".join([s.command or "",
                                                                                            *s.args])))
        if s.env_from:
            rows.append(SkillSetting("Secrets from", ", ".join(f"{k} ← ${v}" for k, v in s.env_from.items())))
        if s.headers_from:
            rows.append(SkillSetting("Headers from", ", ".join(f"{k} ← ${v}" for k, v in s.headers_from.items())))
        rows.append(SkillSetting("Call time limit", f"{s.timeout_seconds} s"))
        if s.watch:
            rows.append(SkillSetting("Watches", ", ".join(s.watch)))
        return rows

    async def health(self) -> SkillHealth:
        return SkillHealth(self.state, self.reason)

    # --- what the Skills tab, RPC and doctor show --------------------------------------------------

    def listed_tools(self) -> list[ListedToolInfo]:
        return [ListedToolInfo(view.model_name, view.listed.title or view.listed.name, view.access,
                               clean_text(view.listed.description, 2_000), view.disabled) for view in self._views]

    def server_access(self) -> list[tuple[str, str]]:
        """Each listed tool's own name and what its server says it is (``read`` only with readOnlyHint), for
        the per-tool overrides in Settings."""
        return [(view.listed.name, "read" if view.listed.read_only_hint else "write") for view in self._views]

    def model_names(self) -> set[str]:
        return {view.model_name for view in self._views}

    # --- life cycle --------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the connection task (nothing when disabled or already running)."""
        if not self.config.enabled or (self._task is not None and not self._task.done()):
            return
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"mcp-{self.name}")

    async def restart(self) -> None:
        """Stop and start again at once (the back-off starts over)."""
        await self.stop(disabled=False)
        self._delay = FIRST_DELAY
        if self.config.enabled:
            self._set(STARTING, "Restarting.")
            self.start()

    async def stop(self, *, disabled: bool = True) -> None:
        """Stop the server (its whole process group) and forget its tools."""
        task, self._task = self._task, None
        try:
            await cancel_and_wait(task)
        except Exception:
            log.exception("MCP server %s did not stop cleanly", self.name)
        self._connection = None
        if disabled:
            self._set(DISABLED, "Turned off (enabled = false)." if not self.config.enabled else "Stopped.")

    def _set(self, state: str, reason: str) -> None:
        changed = (state, reason) != (self.state, self.reason)
        self.state, self.reason = state, reason
        if state != CONNECTED:
            self._tools = ()
        if changed:
            self._on_change()

    def _on_stderr(self, line: str) -> None:
        self.stderr.append(line)

    def _stderr_tail(self) -> str:
        """The server's last stderr lines on one line (`` | `` between them), for a reason."""
        lines = [line for line in self.stderr if not line.startswith("(protocol)")][-REASON_LINES:]
        return " | ".join(" ".join(clean_text(line, 200).split()) for line in lines)

    async def _run(self) -> None:
        while True:
            if await self._connect_once():
                self._delay = FIRST_DELAY  # it worked: a crash now is news, tried again after 1 s
            delay, self._delay = self._delay, min(self._delay * 2, MAX_DELAY)
            log.info("MCP server %s: trying again in %.0f s", self.name, delay)
            await self._clock.sleep(delay)

    async def _connect_once(self) -> bool:
        """One connection, start to end. Returns whether it had connected (a crash after working restarts
        after 1 s; repeated failures back off)."""
        resolved = resolve_secrets(self.config, self._environ)
        if isinstance(resolved, str):
            self._set(ERROR, resolved)
            return False
        env, headers = resolved
        self._set(STARTING, "Starting." if not self.config.url else "Connecting.")
        connected = False
        try:
            sdk = await load_sdk()
            async with sdk.connect(self.config, env, headers, self._on_stderr) as connection:
                with anyio.fail_after(self._start_timeout):
                    await connection.initialize()
                    listed = await connection.list_tools()
                self._connection = connection
                self.server_info = connection.server_name
                self._apply(listed)
                connected = True
                self._set(CONNECTED, f"{len(listed)} tool(s)" + (f" from {self.server_info}" if self.server_info
                                                                   else ""))
                log.info("MCP server %s connected: %d tools", self.name, len(listed))
                await self._subscribe(connection)
                await self._serve(connection)
            self._connection = None
            tail = self._stderr_tail()
            self._set(DISCONNECTED if connected else ERROR,
                      f"The server exited{RETRIED}" + (f": {tail.rstrip('. ')}." if tail else "."))
        except asyncio.CancelledError:
            self._connection = None
            raise
        except Exception as exc:
            self._connection = None
            self._set(DISCONNECTED if connected else ERROR, self._failure(leaf_error(exc), connected))
        return connected

    def _failure(self, exc: BaseException, connected: bool) -> str:
        """One sentence for a connection that failed: the server's last stderr lines or the protocol error."""
        tail = self._stderr_tail()
        if isinstance(exc, TimeoutError) and not connected:
            return (f"It did not answer within {self._start_timeout:.0f} seconds at start-up{RETRIED}"
                    + (f": {tail.rstrip('. ')}." if tail else "."))
        if isinstance(exc, FileNotFoundError) and not self.config.url:
            return (f"The program {self.config.command!r} was not found; install it or give its full path in the "
                    "skill's command.")
        if isinstance(exc, PermissionError) and not self.config.url:
            return f"The program {self.config.command!r} cannot be run (permission denied)."
        detail = " ".join((tail or clean_text(str(exc) or type(exc).__name__, 300)).split()).rstrip(". ")
        log.info("MCP server %s failed: %s", self.name, exc, exc_info=not isinstance(exc, OSError | TimeoutError))
        what = "The server stopped" if connected else "It failed to start or speak MCP"
        return f"{what}{RETRIED}: {detail}."

    async def _serve(self, connection: Any) -> None:
        """While connected: follow tool-list changes; return when the connection ends."""
        while not connection.lost.is_set():
            lost = asyncio.ensure_future(connection.lost.wait())
            changed = asyncio.ensure_future(connection.tools_changed.wait())
            try:
                await asyncio.wait({lost, changed}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for waiter in (lost, changed):
                    waiter.cancel()
            if connection.tools_changed.is_set() and not connection.lost.is_set():
                connection.tools_changed.clear()
                try:
                    with anyio.fail_after(self._start_timeout):
                        listed = await connection.list_tools()
                except Exception as exc:  # the tools listed before stay; the next change tries again
                    log.warning("MCP server %s: listing its changed tools failed: %s", self.name, exc)
                    continue
                self._apply(listed)
                log.info("MCP server %s: the tool list changed (%d tools)", self.name, len(listed))
                self._on_change()

    def _apply(self, listed: Sequence[ListedTool]) -> None:
        s = self.config
        self._views = views(self.name, listed, s.read_tools, s.write_tools, s.disabled_tools, self._taken(self))
        self._tools = tuple(self._tool(view) for view in self._views if not view.disabled)

    def _tool(self, view: ToolView) -> Tool:
        listed = view.listed
        spec = ToolSpec(view.model_name, model_description(self.name, listed), model_schema(listed.input_schema))

        async def run(arguments: Mapping[str, Any], context: ToolContext) -> ToolResult:
            return await self.call(view, arguments, context)

        observe: Callable[[Mapping[str, Any]], Awaitable[str | None]] | None = None
        if view.writes and listed.idempotent_hint:
            async def idempotent(_arguments: Mapping[str, Any]) -> str | None:
                return IDEMPOTENT_MARK
            observe = idempotent
        # A write names its target (a path, a recipient …): an approved run's MCP writes are checked against the
        # targets its card named, and one outside them becomes an exact-call card (the approval gate).
        return Tool(spec, view.writes, run, observe, target=call_target if view.writes else None)

    async def call(self, view: ToolView, arguments: Mapping[str, Any], context: ToolContext) -> ToolResult:
        """Call the tool on the server with the table's time limit; cancelled (the run was stopped), the
        server is told (``notifications/cancelled``)."""
        connection = self._connection
        tool = view.listed.name
        if view.writes and not context.writes_allowed:
            return ToolResult(f"Not run: {view.model_name} changes things and this run may not.", is_error=True)
        if connection is None or self.state != CONNECTED:
            return ToolResult(f"Not run: the skill {self.name!r} is not connected ({self.reason or self.state}).",
                              is_error=True)
        sdk = await load_sdk()
        timeout = float(self.config.timeout_seconds)
        maybe = " It may or may not have taken effect: check before trying again." if view.writes else ""
        try:
            async with asyncio.timeout(timeout + 5.0):
                outcome = await connection.call(tool, dict(arguments), timeout)
        except TimeoutError:
            return ToolResult(f"{view.model_name} did not answer within {timeout:.0f} seconds and was cancelled."
                              + maybe, is_error=True)
        except sdk.ConnectionLost:
            tail = self._stderr_tail()
            return ToolResult(f"The server {self.name!r} stopped during the call"
                              + (f" ({tail})." if tail else ".") + maybe, is_error=True)
        except sdk.ProtocolFailure as exc:
            return ToolResult(f"{view.model_name} failed: {exc}.", is_error=True)
        text = outcome.text
        if len(text) > MAX_RESULT_TOKENS:  # maybe over the limit: counting is CPU work, off the loop
            text = await asyncio.to_thread(cap_tokens, text, self._tokens)
        if outcome.is_error:
            return ToolResult(text or f"{view.model_name} reported an error without words.", is_error=True)
        mutations: tuple[Mutation, ...] = ()
        if view.writes:
            target = call_target(arguments)
            where = f"{self.name}/{tool}" + (f" → {target}" if target else "")
            mutations = (Mutation(MUTATION_KIND, where, clean_text(f"{tool} on {target or 'the server'}: "
                                                                   f"{text.splitlines()[0] if text else 'done'}",
                                                                   200)),)
        return ToolResult(text or "(the tool returned nothing)", mutations=mutations)

    # --- watched resources (CONTRACT §12.3) -------------------------------------------------------

    async def _subscribe(self, connection: Any) -> None:
        """Subscribe to the watched resources where the server supports it; read each once as the baseline."""
        self.subscribed = bool(connection.subscribe)
        for uri in self.config.watch:
            if uri not in self._digests:
                await self._read(connection, uri, None)
            if self.subscribed:
                try:
                    await connection.subscribe_to(uri, WATCH_READ_TIMEOUT)
                except Exception as exc:
                    log.info("MCP server %s: subscribing to %s failed (%s); it is read each tick", self.name,
                             uri, exc)
                    self.subscribed = False

    async def _read(self, connection: Any, uri: str, seen_at: float | None) -> None:
        try:
            text = await connection.read(uri, WATCH_READ_TIMEOUT)
        except Exception as exc:
            log.info("MCP server %s: reading %s failed: %s", self.name, uri, exc)
            return
        digest = hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()
        before = self._digests.get(uri)
        self._digests[uri] = digest
        if before is not None and before != digest and seen_at is not None:
            self.changes.append((seen_at, uri))

    async def poll_watches(self, now: float) -> None:
        """At the start of a tick: the resources the server said changed, or (no subscription) every watched
        resource, read again; a changed one is recorded as seen ``now``."""
        connection = self._connection
        if connection is None or not self.config.watch or self.state != CONNECTED:
            return
        uris = connection.take_updated() if self.subscribed else set(self.config.watch)
        for uri in self.config.watch:
            if uri in uris:
                await self._read(connection, uri, now)

    def digests(self) -> dict[str, str]:
        """The digest of each watched resource as last read."""
        return dict(self._digests)

    def changed_since(self, since: float | None) -> list[tuple[float, str]]:
        return [(at, uri) for at, uri in self.changes if since is None or at > since]
