"""The web app's port over real sockets: half-sent requests are closed, a flood of them never locks out the page or
RPC (also at the usual limit of 1,024 open files, in the real app), and malformed HTTP is one line in the log."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import resource
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import httpx
import pytest

from openhuman_desktop.channels.base import InboundMessage
from openhuman_desktop.channels.webapp import WebappChannel
from openhuman_desktop.clock import SystemClock
from openhuman_desktop.config import WebappSettings
from openhuman_desktop.http_guard import LINES_PER_MINUTE
from openhuman_desktop.orchestration.ports import Run
from openhuman_desktop.store.records import Escalation
from openhuman_desktop.supervisor import TaskSupervisor
from tests.fakes.app_process import AppProcess, wait_for
from tests.fakes.http_junk import junk_requests, send_raw
from tests.rpc.test_server_limits import DRIBBLE, PATIENCE, closed_by_server, dribble, hang_up, one_line_records

DEADLINE = 0.5


class QuietHub:
    """A hub with no conversation: the page and the socket work, nothing is sent anywhere."""

    async def submit(self, message: InboundMessage) -> Run:
        raise AssertionError("no message is sent in these tests")

    async def approve(self, escalation_id: str) -> None:
        raise AssertionError("no card is decided in these tests")

    async def dismiss(self, escalation_id: str) -> None:
        raise AssertionError("no card is decided in these tests")

    async def pending_cards(self, channel: str) -> list[Escalation]:
        return []

    async def history(self, thread_id: str, limit: int = 50) -> list[Run]:
        return []


@contextlib.asynccontextmanager
async def web_app(tmp_path: Path, *, max_connections: int = 128, deadline: float = 60.0
                  ) -> AsyncIterator[WebappChannel]:
    supervisor = TaskSupervisor()
    channel = WebappChannel(QuietHub(), lambda: WebappSettings(enabled=True, port=0), tmp_path / "run" / "webapp.json",
                            tmp_path, SystemClock(), supervisor, max_connections=max_connections, deadline=deadline)
    await channel.start()
    try:
        assert channel.url is not None, channel.status()
        yield channel
    finally:
        await channel.stop()
        await supervisor.cancel_all()


def port_of(channel: WebappChannel) -> int:
    assert channel.url is not None
    return int(channel.url.rstrip("/").rsplit(":", 1)[1])


def half_request(port: int) -> bytes:
    """A request's first lines without the empty line that ends its headers."""
    return f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUser-Agent: slow\r\n".encode()


async def page_answers(channel: WebappChannel) -> bool:
    async with aiohttp.ClientSession() as http, http.get(channel.url or "", timeout=aiohttp.ClientTimeout(
            total=PATIENCE)) as response:
        return response.status == 200 and "OpenHuman" in await response.text()


async def test_half_sent_requests_are_closed_after_the_deadline(tmp_path: Path) -> None:
    """600 held 20 s, none closed: now each is closed once it has not sent its headers within the deadline."""
    async with web_app(tmp_path, max_connections=1_000, deadline=DEADLINE) as channel:
        port = port_of(channel)
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(300)]
        try:
            for _, writer in held:
                writer.write(half_request(port))
            await asyncio.gather(*(writer.drain() for _, writer in held))
            closed = await asyncio.gather(*(closed_by_server(reader) for reader, _ in held))
            assert all(closed), f"{closed.count(False)} of {len(held)} half-sent requests were kept open"
            assert await page_answers(channel)
        finally:
            await hang_up(*(writer for _, writer in held))


async def test_past_the_cap_the_oldest_idle_connections_make_room(tmp_path: Path) -> None:
    async with web_app(tmp_path, max_connections=16, deadline=60.0) as channel:
        port = port_of(channel)
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(40)]
        try:
            for _, writer in held:
                writer.write(half_request(port))
            closed = await asyncio.gather(*(closed_by_server(reader) for reader, _ in held[:24]))
            assert all(closed), "the 24 oldest half-sent requests make room for new connections"
            assert await page_answers(channel)
        finally:
            await hang_up(*(writer for _, writer in held))


async def test_headers_and_a_body_sent_a_byte_at_a_time_are_cut_off(tmp_path: Path) -> None:
    async with web_app(tmp_path, deadline=DEADLINE) as channel:
        port = port_of(channel)
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            head = half_request(port) + b"X-Padding: " + b"p" * 100 + b"\r\n\r\n"
            assert len(head) * DRIBBLE > 20 * DEADLINE
            assert await dribble(writer, head), "the web app kept a slowloris connection open"
        finally:
            await hang_up(writer)
        # A body the page never reads: answered (405) and drained for a moment, not waited for.
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 400\r\n\r\n".encode())
            await writer.drain()
            assert await dribble(writer, b"x" * 400), "the web app waited for a slow body"
        finally:
            await hang_up(writer)
        assert await page_answers(channel)


async def test_an_open_tab_survives_a_flood_of_idle_connections(tmp_path: Path) -> None:
    """A tab's socket is being answered: the cap closes idle connections, never it."""
    async with web_app(tmp_path, max_connections=8, deadline=60.0) as channel, aiohttp.ClientSession() as http:
        port = port_of(channel)
        token = json.loads((tmp_path / "run" / "webapp.json").read_text(encoding="utf-8"))["token"]
        origin = f"http://127.0.0.1:{port}"
        async with http.ws_connect(f"ws://127.0.0.1:{port}/ws?token={token}", origin=origin) as socket:
            first = await socket.receive_json(timeout=PATIENCE)
            assert first["type"] == "session"
            held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(30)]
            try:
                assert await page_answers(channel)
                await socket.send_json({"type": "nonsense"})
                while (frame := await socket.receive_json(timeout=PATIENCE))["type"] != "error":
                    pass
                assert "Unknown frame" in frame["message"]
            finally:
                await hang_up(*(writer for _, writer in held))


async def test_malformed_http_is_one_rate_limited_line_each(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with web_app(tmp_path, deadline=DEADLINE) as channel:
        port = port_of(channel)
        cases = junk_requests(f"127.0.0.1:{port}", 300)
        limit = asyncio.Semaphore(16)

        async def send(data: bytes) -> bytes:
            async with limit:
                return await send_raw(port, data)

        answers = await asyncio.gather(*(send(case) for case in cases))
        assert sum(b" 400 Bad Request\r\n" in answer for answer in answers) > 100
        assert all(b"Traceback" not in answer for answer in answers)
        assert await page_answers(channel)
    assert one_line_records(caplog.records) == []
    refused = [r.getMessage() for r in caplog.records if "malformed HTTP request" in r.getMessage()]
    assert 1 <= len(refused) <= LINES_PER_MINUTE, refused
    assert all(r.startswith("web app: a malformed HTTP request was refused (") for r in refused), refused


WEBAPP_CONFIG = "[heartbeat]\ninterval_minutes = 60\n\n[channels.webapp]\nenabled = true\nport = 0\n"
FLOOD = 1_100
OPEN_FILES = 1_024


@pytest.mark.e2e
async def test_a_flood_at_the_usual_open_file_limit_leaves_rpc_and_the_page_working(tmp_path: Path) -> None:
    """1,100 half-sent requests to the web app's port (no key needed) in the real app at a limit of 1,024 open
    files made RPC and the page time out until they were closed; now both answer while the flood is held."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < FLOOD + 200:
        pytest.skip(f"this test opens {FLOOD} connections; the hard limit of open files here is {hard}")
    if soft != resource.RLIM_INFINITY and soft < FLOOD + 200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (FLOOD + 200, hard))
    held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    try:
        with AppProcess(tmp_path / "ws", config=WEBAPP_CONFIG, open_files=OPEN_FILES) as app:
            webapp_file = tmp_path / "ws" / "run" / "webapp.json"
            wait_for(webapp_file.exists, 30, "run/webapp.json")
            url = json.loads(webapp_file.read_text(encoding="utf-8"))["url"]
            port = int(url.rstrip("/").rsplit(":", 1)[1])
            for _ in range(FLOOD):
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(half_request(port))
                held.append((reader, writer))
            await asyncio.gather(*(writer.drain() for _, writer in held), return_exceptions=True)
            async with httpx.AsyncClient(timeout=PATIENCE) as client:
                page = await client.get(url)
                status = await client.post(app.url, json={"jsonrpc": "2.0", "method": "openhuman.channels_status",
                                                          "id": 1},
                                           headers={"Authorization": f"Bearer {app.token}"})
            assert page.status_code == 200
            assert status.json()["result"]["webapp"]["url"] == url
            assert "out of system resource" not in app.stderr_text()
    finally:
        await hang_up(*(writer for _, writer in held))
        if soft != resource.RLIM_INFINITY and soft < FLOOD + 200:
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
