"""The web app's server (CONTRACT §9) with raw HTTP and WebSocket clients: run/webapp.json, the page and its
headers, token / Origin / Host refused before the handshake, the frames of a chat, bad frames, and the log."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import stat
from typing import Any

import aiohttp
import pytest

from openhuman_desktop import events
from openhuman_desktop.channels.base import CONNECTED, DEGRADED
from openhuman_desktop.store.records import Escalation
from tests.channels.conftest import WebApp, free_port, wait_until
from tests.fakes.agent_model import AgentModel, AgentScript


async def frames_until(socket: aiohttp.ClientWebSocketResponse, kind: str, timeout: float = 20.0) -> list[Any]:
    """Every frame up to and including the first of type ``kind``."""
    seen = []
    async with asyncio.timeout(timeout):
        while True:
            message = await socket.receive()
            assert message.type == aiohttp.WSMsgType.TEXT, message
            frame = json.loads(message.data)
            seen.append(frame)
            if frame["type"] == kind:
                return seen


async def connect(http: aiohttp.ClientSession, web_app: WebApp, session: str | None = None
                  ) -> aiohttp.ClientWebSocketResponse:
    return await http.ws_connect(web_app.socket_url(session=session), origin=web_app.url.rstrip("/"))


async def test_webapp_json_is_private_and_removed_on_stop(web_app: WebApp) -> None:
    path = web_app.paths.webapp_file
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["url"] == f"http://127.0.0.1:{web_app.port}/" and data["pid"] == os.getpid()
    assert len(data["token"]) >= 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    status = web_app.services.channels.status()["webapp"]  # type: ignore[union-attr]
    assert (status["enabled"], status["state"], status["url"]) == (True, CONNECTED, data["url"])
    assert data["token"] not in json.dumps(status)
    await web_app.stop()
    assert not path.exists()


async def test_the_page_is_served_offline_with_a_strict_policy(web_app: WebApp, http: aiohttp.ClientSession) -> None:
    async with http.get(web_app.url) as response:
        assert response.status == 200
        assert response.content_type == "text/html"
        page = await response.text()
        policy = response.headers["Content-Security-Policy"]
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"
    for directive in ("default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
                      "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"):
        assert directive in policy
    assert "http://" not in page.replace("http://www.w3.org", "") and "https://" not in page  # no CDN
    for asset in ("app.js", "app.css", "markdown.js", "favicon.svg"):
        async with http.get(web_app.url + asset) as response:
            assert response.status == 200, asset
    async with http.get(web_app.url + "nope") as response:
        assert response.status == 404


async def test_a_foreign_host_is_refused_even_for_the_page(web_app: WebApp, http: aiohttp.ClientSession) -> None:
    # DNS rebinding: a page on evil.example whose name now points at 127.0.0.1 sends its own Host.
    async with http.get(web_app.url, headers={"Host": f"evil.example:{web_app.port}"}) as response:
        assert response.status == 403
    async with http.get(web_app.url, headers={"Host": f"localhost:{web_app.port}"}) as response:
        assert response.status == 200


@pytest.mark.parametrize(("case", "status"), [
    ("no token", 401), ("wrong token", 401), ("other origin", 403), ("no origin", 403), ("other host", 403),
])
async def test_the_socket_is_refused_before_the_handshake(
    web_app: WebApp, http: aiohttp.ClientSession, case: str, status: int
) -> None:
    origin: str | None = web_app.url.rstrip("/")
    headers: dict[str, str] = {}
    url = web_app.socket_url()
    if case == "no token":
        url = f"ws://{web_app.host}/ws"
    elif case == "wrong token":
        url = web_app.socket_url(token="x" * 43)
    elif case == "other origin":
        origin = "http://evil.example"
    elif case == "no origin":
        origin = None
    elif case == "other host":
        headers["Host"] = f"evil.example:{web_app.port}"
        origin = f"http://evil.example:{web_app.port}"
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await http.ws_connect(url, origin=origin, headers=headers)
    assert refused.value.status == status


async def test_a_frame_sent_after_a_refused_handshake_is_never_read(web_app: WebApp) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", web_app.port)
    request = (
        f"GET /ws?token=wrong HTTP/1.1\r\nHost: {web_app.host}\r\nOrigin: {web_app.url.rstrip('/')}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()
    payload = json.dumps({"type": "message", "text": "sneaky"}).encode()
    frame = bytes([0x81, 0x80 | len(payload)]) + b"\0\0\0\0" + payload  # masked with a zero key
    writer.write(request + frame)
    await writer.drain()
    status_line = await asyncio.wait_for(reader.readline(), 10)
    assert status_line.startswith(b"HTTP/1.1 401"), status_line
    rest = await asyncio.wait_for(reader.read(), 10)  # the server closes the connection after refusing
    writer.close()
    assert b"HTTP/1.1" not in rest  # one answer (the refusal), and the frame was not read as anything
    assert await web_app.services.agent.runs_list(None, None, 100) == []  # type: ignore[union-attr]
    assert web_app.model.seen == []  # no run, no model call


async def test_a_chat_streams_deltas_then_the_reply(web_app: WebApp, http: aiohttp.ClientSession,
                                                    model: AgentModel) -> None:
    model.script = AgentScript(answer="Hello from the **web app**, streamed in pieces.")
    socket = await connect(http, web_app)
    opening = await frames_until(socket, "history")
    session = opening[0]
    assert session["type"] == "session" and session["thread_id"] == f"webapp:{session['session_id']}"
    assert opening[-1]["runs"] == []
    await socket.send_json({"type": "message", "text": "hi there", "ref": "r1"})
    seen = await frames_until(socket, "reply")
    kinds = [frame["type"] for frame in seen]
    run = next(frame for frame in seen if frame["type"] == "run")
    assert run["thread_id"] == session["thread_id"] and run["input"] == "hi there"
    assert "delta" in kinds and kinds.index("delta") < kinds.index("reply")
    streamed = "".join(frame["text"] for frame in seen if frame["type"] == "delta")
    assert seen[-1] == {"type": "reply", "run_id": run["run_id"], "text": streamed, "status": "completed"}
    assert streamed == "Hello from the **web app**, streamed in pieces."
    await socket.close()

    # The same session again (a reload): its history, and the run was answered once.
    again = await connect(http, web_app, session=session["session_id"])
    history = (await frames_until(again, "history"))[-1]
    assert [(r["input"], r["response"]) for r in history["runs"]] == [("hi there", streamed)]
    await again.close()
    [ledger_run] = await web_app.runs(session["thread_id"])
    assert ledger_run.status == "completed"


async def test_bad_frames_get_an_error_and_the_socket_stays_usable(
    web_app: WebApp, http: aiohttp.ClientSession
) -> None:
    socket = await connect(http, web_app)
    await frames_until(socket, "history")
    for bad in ("not json", "[1, 2]", '{"type": "launch"}', '{"type": "message", "text": "   "}',
                '{"type": "message", "text": 5}', '{"type": "approve"}',
                '{"type": "approve", "escalation_id": "nope"}'):
        await socket.send_str(bad)
        [error] = await frames_until(socket, "error")
        assert error["message"] and "Traceback" not in error["message"], bad
    await socket.send_bytes(b"\x00\x01")
    [error] = await frames_until(socket, "error")
    assert "JSON" in error["message"]
    await socket.send_json({"type": "message", "text": "still here?"})
    assert (await frames_until(socket, "reply"))[-1]["status"] == "completed"
    await socket.close()


async def test_an_oversized_frame_closes_only_that_socket(web_app: WebApp, http: aiohttp.ClientSession) -> None:
    socket = await connect(http, web_app)
    await frames_until(socket, "history")
    await socket.send_str(json.dumps({"type": "message", "text": "x" * 600_000}))
    message = await asyncio.wait_for(socket.receive(), 10)
    assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
    assert socket.close_code == 1009
    fresh = await connect(http, web_app)
    await frames_until(fresh, "history")
    await fresh.close()


async def test_the_token_never_reaches_the_log(web_app: WebApp, http: aiohttp.ClientSession,
                                              caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    socket = await connect(http, web_app)
    await frames_until(socket, "history")
    await socket.send_json({"type": "message", "text": "hello"})
    await frames_until(socket, "reply")
    await socket.close()
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await http.ws_connect(web_app.socket_url(), origin="http://evil.example")
    async with http.get(web_app.url) as response:
        assert response.status == 200
    token = web_app.token
    assert caplog.records
    assert not [record for record in caplog.records if token in record.getMessage() or token in str(record.args)]


@pytest.mark.logs_expected(r"in config\.toml to use any free port\. Trying again by itself")
async def test_a_busy_port_degrades_with_the_fix_and_recovers_by_itself(web_app: WebApp) -> None:
    port = web_app.port
    await web_app.stop()
    blocker = await asyncio.start_server(lambda r, w: None, "127.0.0.1", port)
    try:
        await web_app.start()
        changes: list[object] = []
        web_app.services.bus.subscribe(events.StatusChanged, changes.append)  # type: ignore[union-attr]
        status = web_app.channel.status()
        assert status.state == DEGRADED
        assert f"Port {port} is in use" in status.state_reason and "port = 0" in status.state_reason
        assert not web_app.paths.webapp_file.exists()
    finally:
        blocker.close()
        await blocker.wait_closed()

    async def listening() -> bool:
        return web_app.channel.status().state == CONNECTED

    await wait_until(listening, 20, "the web app listening again")
    assert changes  # the window hears of it
    assert web_app.channel.url == f"http://127.0.0.1:{port}/"
    assert web_app.paths.webapp_file.exists()


async def test_port_zero_takes_the_last_port_again(web_app: WebApp) -> None:
    await web_app.stop()
    text = web_app.paths.config_file.read_text(encoding="utf-8")
    web_app.paths.config_file.write_text(text.replace(f"port = {web_app.port}", "port = 0"), encoding="utf-8")
    await web_app.start()
    first = web_app.channel.url
    token = web_app.token
    await web_app.stop()
    await web_app.start()
    assert web_app.channel.url == first and web_app.token == token  # an open tab finds it again
    assert free_port() != 0


def card(card_id: str, thread_id: str | None, status: str = "pending") -> Escalation:
    return Escalation(id=card_id, task_id=None if thread_id else "task-1", log_id=None, title="Tidy the notes",
                      description="move 5 drafts", priority="normal", status=status, created_at=1.0,
                      resolved_at=None, thread_id=thread_id)


async def test_cards_go_to_their_session_and_heartbeat_cards_to_every_session(
    web_app: WebApp, http: aiohttp.ClientSession
) -> None:
    one, two = await connect(http, web_app), await connect(http, web_app)
    first = (await frames_until(one, "history"))[0]["session_id"]
    await frames_until(two, "history")
    web_app.channel.card_changed(card("c1", f"webapp:{first}"))
    web_app.channel.card_changed(card("c2", "telegram:42"))
    web_app.channel.card_changed(card("c3", "subconscious:task-1"))
    web_app.channel.card_changed(card("c4", None))
    got_one = [frame["escalation"]["id"] for frame in await frames_until(one, "escalation")]
    got_one += [frame["escalation"]["id"] for frame in await frames_until(one, "escalation")]
    got_one += [frame["escalation"]["id"] for frame in await frames_until(one, "escalation")]
    got_two = [frame["escalation"]["id"] for frame in await frames_until(two, "escalation")]
    got_two += [frame["escalation"]["id"] for frame in await frames_until(two, "escalation")]
    assert (got_one, got_two) == (["c1", "c3", "c4"], ["c3", "c4"])
    await socket_is_quiet(two)
    await one.close()
    await two.close()


async def socket_is_quiet(socket: aiohttp.ClientWebSocketResponse) -> None:
    """Nothing more is waiting: a frame sent now comes back as the very next one."""
    await socket.send_str("ping?")
    assert [frame["type"] for frame in await frames_until(socket, "error")] == ["error"]


@pytest.mark.logs_expected(r"is not reading; closing it")
async def test_a_tab_that_does_not_keep_up_is_dropped_and_gets_everything_from_the_history(
    web_app: WebApp, http: aiohttp.ClientSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("openhuman_desktop.channels.webapp.MAX_QUEUED", 50)
    socket = await connect(http, web_app)
    session = (await frames_until(socket, "history"))[0]
    for index in range(200):  # all at once: far more than the tab's queue holds
        web_app.channel.progress("run-x", session["thread_id"], f"node-{index}")
    async with asyncio.timeout(10):
        while (await socket.receive()).type == aiohttp.WSMsgType.TEXT:
            pass
    assert socket.closed
    fresh = await connect(http, web_app, session=session["session_id"])
    assert (await frames_until(fresh, "history"))[-1]["thread_id"] == session["thread_id"]
    assert web_app.channel.tab_count == 1
    await fresh.close()


async def test_config_edits_turn_it_off_and_on_and_move_it(web_app: WebApp, http: aiohttp.ClientSession) -> None:
    services = web_app.services
    assert services is not None
    text = web_app.paths.config_file.read_text(encoding="utf-8")

    async def apply(new_text: str) -> None:
        web_app.paths.config_file.write_text(new_text, encoding="utf-8")
        assert await services.settings.reload()
        await services.channels.reconfigure()

    await apply(text.replace("enabled = true", "enabled = false"))
    status = services.channels.status()["webapp"]
    assert (status["enabled"], status["state"], status["url"]) == (False, "disabled", None)
    assert "enabled = false" in status["state_reason"]
    assert not web_app.paths.webapp_file.exists()
    with pytest.raises(aiohttp.ClientConnectionError):
        await http.get(f"http://127.0.0.1:{web_app.port}/")
    moved = free_port()
    await apply(text.replace(f"port = {web_app.port}", f"port = {moved}"))
    assert services.channels.status()["webapp"]["url"] == f"http://127.0.0.1:{moved}/"
    async with http.get(f"http://127.0.0.1:{moved}/") as response:
        assert response.status == 200


async def test_a_tab_opened_while_a_run_works_gets_its_progress_and_text_so_far(
    web_app: WebApp, http: aiohttp.ClientSession, model: AgentModel
) -> None:
    model.delays = {"pass2": 2.0}
    socket = await connect(http, web_app)
    session = (await frames_until(socket, "history"))[0]
    await socket.send_json({"type": "message", "text": "take your time"})
    seen = await frames_until(socket, "progress")
    while seen[-1].get("node") != "agent_execution":
        seen += await frames_until(socket, "progress")
    run_id = seen[-1]["run_id"]
    web_app.channel.text_streamed(run_id, session["thread_id"], "so far")  # as if the model had begun
    late = await connect(http, web_app, session=session["session_id"])
    opening = await frames_until(late, "delta")
    [running] = next(frame for frame in opening if frame["type"] == "history")["runs"]
    assert (running["run_id"], running["status"]) == (run_id, "running")
    nodes = [frame["node"] for frame in opening if frame["type"] == "progress"]
    assert nodes == ["channel_ingestion", "frontend_agent", "agent_execution"]
    assert opening[-1] == {"type": "delta", "run_id": run_id, "text": "so far"}
    assert (await frames_until(late, "reply"))[-1]["run_id"] == run_id
    await socket.close()
    await late.close()
