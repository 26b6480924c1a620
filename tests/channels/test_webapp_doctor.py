"""``doctor``'s web app line: listening with its key, a busy port with the fix, off, and a stale file."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

from openhuman_desktop import doctor
from openhuman_desktop.private_file import write_private_json
from tests.channels.conftest import WebApp, free_port


async def web_line(web_app: WebApp) -> doctor.Check:
    [line] = [check for check in await doctor.run_checks(web_app.paths) if check.name == "web app"]
    return line


async def test_a_running_web_app_answers_with_its_key(web_app: WebApp) -> None:
    line = await web_line(web_app)
    assert line.ok and f"listening on {web_app.url}" in line.line()


async def test_a_busy_port_fails_with_the_fix(web_app: WebApp) -> None:
    await web_app.stop()
    blocker = await asyncio.start_server(lambda r, w: None, "127.0.0.1", web_app.port)
    try:
        line = await web_line(web_app)
    finally:
        blocker.close()
        await blocker.wait_closed()
    assert not line.ok
    assert f"port {web_app.port} on 127.0.0.1 is in use" in line.detail
    assert "port = 0" in line.fix
    assert (await web_line(web_app)).ok  # free again


async def test_off_in_config_is_fine(web_app: WebApp) -> None:
    await web_app.stop()
    text = web_app.paths.config_file.read_text(encoding="utf-8").replace("enabled = true", "enabled = false")
    web_app.paths.config_file.write_text(text, encoding="utf-8")
    line = await web_line(web_app)
    assert line.ok and "off in config.toml" in line.detail


async def test_a_file_left_by_a_crash_does_not_count_but_a_silent_address_does(web_app: WebApp) -> None:
    await web_app.stop()
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    stale = {"url": f"http://127.0.0.1:{web_app.port}/", "token": "t" * 43, "pid": int(dead.stdout)}
    write_private_json(web_app.paths.webapp_file, stale)
    assert (await web_line(web_app)).ok  # a crashed instance's file: the port is what matters
    silent = {"url": f"http://127.0.0.1:{free_port()}/", "token": "t" * 43, "pid": os.getpid()}
    web_app.paths.webapp_file.write_text(json.dumps(silent), encoding="utf-8")
    line = await web_line(web_app)
    assert not line.ok and "nothing answers there" in line.detail and "restart OpenHuman" in line.fix
