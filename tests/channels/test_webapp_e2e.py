"""The web app in the real app (``--headless`` subprocess): run/webapp.json, channels_status, a chat over the
WebSocket, the key never in the log file, the file removed on a clean exit."""

from __future__ import annotations

import asyncio
import json
import stat
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.channels.conftest import LOCAL_MODEL, REASONING_MODEL, config_text, free_port
from tests.fakes.agent_model import AgentModel, AgentScript
from tests.fakes.app_process import AppProcess, wait_for
from tests.fakes.model_servers import FakeOllama

pytestmark = pytest.mark.e2e


async def chat(url: str, token: str, text: str) -> list[dict[str, Any]]:
    host = url.removeprefix("http://").rstrip("/")
    frames: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as http, \
            http.ws_connect(f"ws://{host}/ws?token={token}", origin=f"http://{host}") as socket:
        async with asyncio.timeout(30):
            while not frames or frames[-1]["type"] != "history":
                frames.append(json.loads((await socket.receive()).data))
            await socket.send_json({"type": "message", "text": text})
            while frames[-1]["type"] != "reply":
                frames.append(json.loads((await socket.receive()).data))
    return frames


def test_the_real_app_serves_the_web_app_and_keeps_its_key_out_of_the_log(tmp_path: Path) -> None:
    with FakeOllama() as ollama:
        ollama.add_model(LOCAL_MODEL, context_length=8192)
        ollama.add_model(REASONING_MODEL, context_length=32768)
        ollama.set_responder(AgentModel(AgentScript(answer="Hello from the real app.")))
        port = free_port()
        workspace = tmp_path / "ws"
        with AppProcess(workspace, ollama_url=ollama.url, config=config_text(ollama.url, port)) as app:
            webapp_file = workspace / "run" / "webapp.json"
            wait_for(webapp_file.exists, 20, "run/webapp.json")
            assert stat.S_IMODE(webapp_file.stat().st_mode) == 0o600
            published = json.loads(webapp_file.read_text(encoding="utf-8"))
            assert published["url"] == f"http://127.0.0.1:{port}/" and published["pid"] == app.pid
            status = app.result("channels_status")
            assert status["webapp"]["url"] == published["url"] and status["webapp"]["enabled"] is True
            frames = asyncio.run(chat(published["url"], published["token"], "hi"))
            assert frames[-1]["text"] == "Hello from the real app." and frames[-1]["status"] == "completed"
            token = published["token"]
        assert not webapp_file.exists()
        logs = "".join(path.read_text(encoding="utf-8", errors="replace")
                       for path in (workspace / "logs").glob("*"))
        assert "web app listening on" in logs
        assert token not in logs and token not in app.stderr_text() + app.stdout_text()
