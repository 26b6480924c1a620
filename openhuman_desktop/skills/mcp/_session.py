"""The one module that speaks to the ``mcp`` SDK: a connection to one server over stdio or streamable HTTP.

Imported off the event loop (``launch.load_sdk``): the SDK takes about a second to import here, which must never
be part of the app's start-up.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import os
import warnings
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

import anyio
import httpx2
import mcp_types as types
from anyio.streams.memory import MemoryObjectSendStream
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared._stream_protocols import ReadStream
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from mcp.shared.message import SessionMessage

from openhuman_desktop import __version__
from openhuman_desktop.config_skills import McpServerSettings
from openhuman_desktop.skills.mcp.tools import ListedTool, json_text

log = logging.getLogger(__name__)

MAX_STDERR_LINE = 500
MAX_PAGES = 50
"""Pages of a tool listing read at most (a server that pages forever must not hold us)."""


class ProtocolFailure(Exception):
    """The server answered a request with an error, or not at all: ``str()`` is one sentence."""


class ConnectionLost(ProtocolFailure):
    """The connection ended (the server exited or the HTTP session broke) while a request waited."""


@dataclass
class CallOutcome:
    """A tool call's result as text (content items in order; images and audio named, not sent)."""

    text: str
    is_error: bool


@dataclass
class Connection:
    """An initialised session with one server; ``lost`` is set once the connection has ended."""

    session: ClientSession
    lost: asyncio.Event
    tools_changed: asyncio.Event
    updated: set[str] = field(default_factory=set)
    """Resource URIs the server said changed (``notifications/resources/updated``) since last taken."""
    updated_event: asyncio.Event = field(default_factory=asyncio.Event)
    subscribe: bool = False
    list_changed: bool = False
    server_name: str = ""

    async def initialize(self) -> None:
        result = await _request(self.session.initialize())
        capabilities = result.capabilities
        self.subscribe = bool(capabilities.resources and capabilities.resources.subscribe)
        self.list_changed = bool(capabilities.tools and capabilities.tools.list_changed)
        info = result.server_info
        self.server_name = f"{info.name} {info.version}".strip() if info else ""

    async def list_tools(self) -> list[ListedTool]:
        tools: list[ListedTool] = []
        cursor: str | None = None
        for _ in range(MAX_PAGES):
            params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
            page = await _request(self.session.list_tools(params=params))
            tools.extend(_listed(tool) for tool in page.tools)
            cursor = page.next_cursor
            if not cursor:
                break
        return tools

    async def call(self, name: str, arguments: dict[str, Any], timeout: float) -> CallOutcome:
        result = await _request(self.session.call_tool(name, arguments, read_timeout_seconds=timeout), timeout)
        return CallOutcome(result_text(result), bool(result.is_error))

    async def read(self, uri: str, timeout: float) -> str:
        """The resource's content as text (binary parts as their base64), for a change digest."""
        result = await _request(self.session.read_resource(uri), timeout)
        parts = []
        for item in result.contents:
            parts.append(item.text if isinstance(item, types.TextResourceContents) else item.blob)
        return "\n".join(parts)

    async def subscribe_to(self, uri: str, timeout: float) -> None:
        """``resources/subscribe``: the SDK calls it deprecated for the 2026 protocol, but the handshake we speak
        (2025-11-25) has it, and it is what today's servers (server-everything, server-memory) offer."""
        with warnings.catch_warnings():   # the warning comes when the coroutine is made, not while it runs
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            request = self.session.subscribe_resource(uri)
        await _request(request, timeout)

    def take_updated(self) -> set[str]:
        taken, self.updated = self.updated, set()
        self.updated_event.clear()
        return taken


async def _request(awaitable: Any, timeout: float | None = None) -> Any:
    """Await an SDK request; its failures become :class:`ProtocolFailure` sentences."""
    try:
        return await awaitable
    except MCPError as exc:
        message = exc.error.message
        if "closed" in message.lower() or exc.error.code == types.CONNECTION_CLOSED:
            raise ConnectionLost(f"the connection ended ({message})") from exc
        if "timed out" in message.lower() or exc.error.code == types.REQUEST_TIMEOUT:
            raise TimeoutError(message) from exc
        raise ProtocolFailure(f"it answered with an error ({message})") from exc
    except (anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream) as exc:
        raise ConnectionLost("the connection ended") from exc
    except httpx2.HTTPError as exc:
        raise ProtocolFailure(f"the HTTP request failed ({type(exc).__name__}: {exc})") from exc
    except ValueError as exc:  # pydantic: an answer that is not MCP's shape
        raise ProtocolFailure(f"it answered something that is not MCP ({str(exc).splitlines()[0]})") from exc


def _listed(tool: types.Tool) -> ListedTool:
    hints = tool.annotations
    return ListedTool(
        name=tool.name, title=tool.title or (hints.title if hints and hints.title else "") or "",
        description=tool.description or "", input_schema=dict(tool.input_schema or {}),
        read_only_hint=bool(hints and hints.read_only_hint is True),
        idempotent_hint=bool(hints and hints.idempotent_hint is True),
    )


def result_text(result: types.CallToolResult) -> str:
    """The text of the content items (structured content as JSON when no item carries text); images and audio
    are named, never sent."""
    parts: list[str] = []
    for item in result.content:
        if isinstance(item, types.TextContent):
            parts.append(item.text)
        elif isinstance(item, types.ImageContent | types.AudioContent):
            kind = "image" if isinstance(item, types.ImageContent) else "audio"
            parts.append(f"[{kind}: {item.mime_type}, {_decoded_size(item.data):,} bytes, not shown]")
        elif isinstance(item, types.EmbeddedResource):
            resource = item.resource
            if isinstance(resource, types.TextResourceContents):
                parts.append(f"[resource {resource.uri}]\n{resource.text}")
            else:
                parts.append(f"[resource {resource.uri}: {resource.mime_type or 'binary'}, "
                             f"{_decoded_size(resource.blob):,} bytes, not shown]")
        elif isinstance(item, types.ResourceLink):
            parts.append(f"[link: {item.name} {item.uri}]")
    if result.structured_content is not None and not any(isinstance(i, types.TextContent) for i in result.content):
        parts.append(json_text(result.structured_content))
    return "\n".join(parts)


def _decoded_size(data: str) -> int:
    with contextlib.suppress(ValueError):
        return len(base64.b64decode(data, validate=False))
    return len(data)


class _StderrReader(asyncio.Protocol):
    """Keeps the server's stderr as lines (the caller keeps the last few)."""

    def __init__(self, on_line: Callable[[str], None]) -> None:
        self._on_line = on_line
        self._buffer = b""

    def data_received(self, data: bytes) -> None:
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        if len(self._buffer) > 64 * 1024:  # a line without end: take what there is
            lines.append(self._buffer)
            self._buffer = b""
        for line in lines:
            text = line.decode("utf-8", "replace").rstrip()
            if text:
                self._on_line(text[:MAX_STDERR_LINE])

    def eof_received(self) -> bool | None:
        if self._buffer.strip():
            self._on_line(self._buffer.decode("utf-8", "replace").rstrip()[:MAX_STDERR_LINE])
        self._buffer = b""
        return None


@contextlib.asynccontextmanager
async def _stderr_pipe(on_line: Callable[[str], None]) -> AsyncIterator[TextIO]:
    """A pipe whose write end becomes the server's stderr; what arrives goes to ``on_line`` line by line."""
    read_fd, write_fd = os.pipe()
    reader = os.fdopen(read_fd, "rb", buffering=0)
    writer = os.fdopen(write_fd, "w")
    loop = asyncio.get_running_loop()
    transport: asyncio.BaseTransport | None = None
    try:
        transport, _ = await loop.connect_read_pipe(lambda: _StderrReader(on_line), reader)
        yield writer
    finally:
        writer.close()
        if transport is not None:
            transport.close()
        else:
            reader.close()


async def _relay(source: ReadStream[SessionMessage | Exception],
                 sink: MemoryObjectSendStream[SessionMessage | Exception], lost: asyncio.Event) -> None:
    """Pass the transport's messages on to the session; when the transport ends, say so (``lost``)."""
    try:
        async with sink:
            async for item in source:
                await sink.send(item)
    except (anyio.ClosedResourceError, anyio.BrokenResourceError):
        pass
    finally:
        lost.set()


@contextlib.asynccontextmanager
async def connect(settings: McpServerSettings, extra_env: Mapping[str, str], headers: Mapping[str, str],
                  on_stderr: Callable[[str], None]) -> AsyncIterator[Connection]:
    """Start (stdio) or reach (HTTP) the server and open a session; leaving stops the server's process group.

    Raises:
        OSError: the program cannot be started. ProtocolFailure: the transport failed.
    """
    lost = asyncio.Event()
    tools_changed = asyncio.Event()
    connection: Connection | None = None

    async def on_message(message: Any) -> None:
        if isinstance(message, Exception):
            on_stderr(f"(protocol) {type(message).__name__}: {message}"[:MAX_STDERR_LINE])
        elif isinstance(message, types.ToolListChangedNotification):
            tools_changed.set()
        elif isinstance(message, types.ResourceUpdatedNotification) and connection is not None:
            connection.updated.add(str(message.params.uri))
            connection.updated_event.set()

    async with contextlib.AsyncExitStack() as stack:
        if settings.url:
            client = create_mcp_http_client(headers=dict(headers))
            await stack.enter_async_context(client)
            read, write = await stack.enter_async_context(streamable_http_client(settings.url, http_client=client))
        else:
            assert settings.command is not None
            errlog = await stack.enter_async_context(_stderr_pipe(on_stderr))
            params = StdioServerParameters(command=settings.command, args=list(settings.args), env=dict(extra_env))
            read, write = await stack.enter_async_context(stdio_client(params, errlog=errlog))
            errlog.close()  # the server has its own copy; ours would keep the pipe open after it exits
        relay_send, relay_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        group = await stack.enter_async_context(anyio.create_task_group())
        stack.callback(group.cancel_scope.cancel)
        group.start_soon(_relay, read, relay_send, lost)
        session = await stack.enter_async_context(ClientSession(
            relay_receive, write, message_handler=on_message,
            client_info=types.Implementation(name="openhuman-desktop", version=__version__)))
        connection = Connection(session, lost, tools_changed)
        yield connection
