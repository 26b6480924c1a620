"""The RPC server over real sockets: idle and slow connections are closed, answers are strict JSON."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiohttp.http_exceptions import BadStatusLine, InvalidHeader

from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.http_guard import LINES_PER_MINUTE, RequestLog
from openhuman_desktop.rpc.protocol import INTERNAL_ERROR, Dispatcher
from openhuman_desktop.rpc.server import RpcServer
from tests.fakes.http_junk import junk_requests, send_raw

DEADLINE = 0.5
"""The server's deadline in these tests; every wait below is many times longer."""
PATIENCE = 10.0
"""How long a test waits for something the server should do within DEADLINE."""
DRIBBLE = 0.1
"""Seconds between two bytes of a slowloris client."""


async def echo(method: str, params: dict[str, Any] | list[Any]) -> Any:
    if method == "infinite":
        return {"value": float("inf")}
    return {"method": method}


class Running:
    def __init__(self, server: RpcServer, rpc_file: Path) -> None:
        self.server = server
        published = json.loads(rpc_file.read_text(encoding="utf-8"))
        self.url: str = published["url"]
        self.token: str = published["token"]
        self.port = int(self.url.rsplit(":", 1)[1].split("/", 1)[0])

    async def call(self, method: str = "status", request_id: Any = 1) -> httpx.Response:
        async with httpx.AsyncClient(timeout=PATIENCE) as client:
            return await client.post(self.url, json={"jsonrpc": "2.0", "method": method, "id": request_id},
                                     headers={"Authorization": f"Bearer {self.token}"})

    def request_head(self, length: int) -> bytes:
        return (f"POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {self.token}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n").encode()


@contextlib.asynccontextmanager
async def serving(tmp_path: Path, **limits: Any) -> AsyncIterator[Running]:
    rpc_file = tmp_path / "run" / "rpc.json"
    server = RpcServer(Dispatcher(echo), rpc_file, **limits)
    await server.start()
    try:
        yield Running(server, rpc_file)
    finally:
        await server.aclose()


async def closed_by_server(reader: asyncio.StreamReader) -> bool:
    """True once the server closed the connection (EOF or reset) within PATIENCE seconds."""
    try:
        async with asyncio.timeout(PATIENCE):
            while await reader.read(65536):
                pass
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


async def hang_up(*writers: asyncio.StreamWriter) -> None:
    for writer in writers:
        writer.close()
    for writer in writers:
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def dribble(writer: asyncio.StreamWriter, data: bytes) -> bool:
    """Send ``data`` a byte at a time; True when the server closed the connection before it was all sent."""
    for byte in data:
        if writer.is_closing() or writer.transport.get_extra_info("socket") is None:
            return True
        try:
            writer.write(bytes([byte]))
            await writer.drain()
        except OSError:
            return True
        await asyncio.sleep(DRIBBLE)
    return False


async def test_many_idle_connections_do_not_stop_answers(tmp_path: Path) -> None:
    async with serving(tmp_path, max_connections=64, deadline=2.0) as running:
        idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
        try:
            for _ in range(300):
                idle.append(await asyncio.open_connection("127.0.0.1", running.port))
            response = await running.call()
            assert response.status_code == 200
            assert response.json()["result"] == {"method": "status"}
            closed = await asyncio.gather(*(closed_by_server(reader) for reader, _ in idle))
            # Past the cap the oldest idle connections were dropped at once; the rest within the deadline.
            assert all(closed)
        finally:
            await hang_up(*(writer for _, writer in idle))


async def test_idle_connections_beyond_the_cap_are_closed_at_once(tmp_path: Path) -> None:
    async with serving(tmp_path, max_connections=16, deadline=60.0) as running:
        idle = [await asyncio.open_connection("127.0.0.1", running.port) for _ in range(40)]
        try:
            closed = await asyncio.gather(*(closed_by_server(reader) for reader, _ in idle[:24]))
            assert all(closed), "the 24 oldest idle connections make room for new ones"
            response = await running.call()
            assert response.json()["result"] == {"method": "status"}
        finally:
            await hang_up(*(writer for _, writer in idle))


async def test_headers_sent_a_byte_at_a_time_are_cut_off(tmp_path: Path) -> None:
    async with serving(tmp_path, deadline=DEADLINE) as running:
        reader, writer = await asyncio.open_connection("127.0.0.1", running.port)
        try:
            # At one byte per DRIBBLE the headers would take 20+ times the deadline.
            head = running.request_head(2)
            assert len(head) * DRIBBLE > 20 * DEADLINE
            assert await dribble(writer, head), "the server kept a slowloris connection open"
        finally:
            await hang_up(writer)
        assert (await running.call()).status_code == 200


async def test_a_body_sent_a_byte_at_a_time_is_cut_off(tmp_path: Path) -> None:
    async with serving(tmp_path, deadline=DEADLINE) as running:
        body = json.dumps({"jsonrpc": "2.0", "method": "status", "id": 1, "pad": "x" * 200}).encode()
        reader, writer = await asyncio.open_connection("127.0.0.1", running.port)
        try:
            writer.write(running.request_head(len(body)))
            await writer.drain()
            assert await dribble(writer, body), "the server waited for a slow body"
        finally:
            await hang_up(writer)


async def test_an_idle_keep_alive_connection_is_closed(tmp_path: Path) -> None:
    async with serving(tmp_path, deadline=DEADLINE) as running:
        body = json.dumps({"jsonrpc": "2.0", "method": "status", "id": 1}).encode()
        reader, writer = await asyncio.open_connection("127.0.0.1", running.port)
        try:
            writer.write(running.request_head(len(body)) + body)
            await writer.drain()
            status = await asyncio.wait_for(reader.readline(), PATIENCE)
            assert status.startswith(b"HTTP/1.1 200")
            assert await closed_by_server(reader)
        finally:
            await hang_up(writer)


async def test_the_token_is_still_checked_before_the_body_is_read(tmp_path: Path) -> None:
    async with serving(tmp_path, deadline=60.0) as running:
        reader, writer = await asyncio.open_connection("127.0.0.1", running.port)
        try:
            writer.write(b"POST /rpc HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer wrong\r\n"
                         b"Content-Length: 100000\r\n\r\n")
            await writer.drain()
            status = await asyncio.wait_for(reader.readline(), PATIENCE)
            assert status.startswith(b"HTTP/1.1 401")
        finally:
            await hang_up(writer)


async def test_an_id_of_1e999_is_never_echoed_as_infinity(tmp_path: Path) -> None:
    async with serving(tmp_path) as running:
        async with httpx.AsyncClient(timeout=PATIENCE) as client:
            response = await client.post(
                running.url, content=b'{"jsonrpc": "2.0", "method": "status", "id": 1e999}',
                headers={"Authorization": f"Bearer {running.token}"})
        assert "Infinity" not in response.text
        document = json.loads(response.text, parse_constant=lambda name: pytest.fail(f"{name} in the answer"))
        assert document["id"] is None
        assert document["error"]["code"] == -32700


@pytest.mark.logs_expected(r"RPC answer is not strict JSON")
async def test_a_result_that_is_not_strict_json_becomes_an_internal_error(tmp_path: Path) -> None:
    async with serving(tmp_path) as running:
        response = await running.call("infinite", 7)
        assert "Infinity" not in response.text
        assert response.json()["error"]["code"] == INTERNAL_ERROR
        assert response.json()["id"] == 7


async def test_a_taken_port_is_one_sentence(tmp_path: Path) -> None:
    async with serving(tmp_path) as running:
        taken = RpcServer(Dispatcher(echo), tmp_path / "other" / "rpc.json", port=running.port)
        with pytest.raises(UserFacingError) as info:
            await taken.start()
    message = str(info.value)
    assert f"127.0.0.1:{running.port}" in message
    assert "[rpc] port = 0" in message
    assert "\n" not in message


def one_line_records(records: list[logging.LogRecord]) -> list[str]:
    """The problems of the records at INFO and above: a traceback, a second line, an ERROR."""
    problems = []
    for record in records:
        if record.levelno < logging.INFO:
            continue
        message = record.getMessage()
        if record.exc_info or record.exc_text or record.stack_info:
            problems.append(f"{record.name} {record.levelname} with a traceback: {message[:200]}")
        elif "\n" in message:
            problems.append(f"{record.name} {record.levelname} on several lines: {message[:200]!r}")
        elif record.levelno >= logging.ERROR:
            problems.append(f"{record.name} {record.levelname}: {message[:200]}")
    return problems


async def test_malformed_http_is_one_rate_limited_line_each(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Fuzzed requests from anyone left 51 multi-line tracebacks at ERROR in 5,138: now one line at INFO each,
    at most LINES_PER_MINUTE a minute, and the server answers on."""
    caplog.set_level(logging.INFO)
    async with serving(tmp_path, deadline=DEADLINE) as running:
        cases = junk_requests(f"127.0.0.1:{running.port}", 300)
        limit = asyncio.Semaphore(16)

        async def send(data: bytes) -> bytes:
            async with limit:
                return await send_raw(running.port, data, patience=PATIENCE)

        answers = await asyncio.gather(*(send(case) for case in cases))
        assert sum(b" 400 Bad Request\r\n" in answer for answer in answers) > 100
        assert all(b"Traceback" not in answer for answer in answers)
        assert (await running.call()).json()["result"] == {"method": "status"}
    assert one_line_records(caplog.records) == []
    refused = [r.getMessage() for r in caplog.records if "malformed HTTP request" in r.getMessage()]
    assert 1 <= len(refused) <= LINES_PER_MINUTE, refused
    assert all(r.startswith("RPC server: a malformed HTTP request was refused (") for r in refused), refused


def test_the_request_log_counts_what_it_leaves_out_and_keeps_our_own_tracebacks(
        caplog: pytest.LogCaptureFixture) -> None:
    now = [100.0]
    logger = logging.getLogger("tests.request_log")
    request_log = RequestLog(logger, "web app", per_minute=3, monotonic=lambda: now[0])
    caplog.set_level(logging.INFO, logger="tests.request_log")
    for _ in range(10):
        request_log.exception("Error handling request from %s", "127.0.0.1",
                              exc_info=BadStatusLine("GARBAGE\r\n\x00 / HTTP/1.1"))
    now[0] += 61
    request_log.exception("Error handling request from %s", "127.0.0.1", exc_info=InvalidHeader(b"Bad Header"))
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 4
    assert all("\n" not in line and "\r" not in line for line in lines)
    assert lines[0].startswith("web app: a malformed HTTP request was refused (Bad status line")
    assert lines[3].endswith("(7 more left out of the log before this one)")
    assert all(record.levelno == logging.INFO and not record.exc_info for record in caplog.records)

    caplog.clear()
    try:
        raise RuntimeError("a bug in a handler of ours")
    except RuntimeError as bug:
        request_log.exception("Error handling request from %s", "127.0.0.1", exc_info=bug)
    [record] = caplog.records
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert "a bug in a handler of ours" in caplog.text
