"""The web app's ``doctor`` line: listening and answering with its key, or, when the app is not running,
whether its port is free."""

from __future__ import annotations

import errno
import json
import os
import socket
from pathlib import Path

import httpx

from openhuman_desktop.channels.webapp_http import HOST
from openhuman_desktop.config import WebappSettings
from openhuman_desktop.paths import Paths

NAME = "web app"
TIMEOUT = 3.0


async def check_webapp(paths: Paths, settings: WebappSettings) -> tuple[str, bool, str, str]:
    """``(name, ok, detail, fix)`` of ``doctor``'s web app line."""
    if not settings.enabled:
        return NAME, True, "off in config.toml ([channels.webapp] enabled = false)", ""
    published = _published(paths.webapp_file)
    if published is not None:
        url, token = published
        try:
            async with httpx.AsyncClient(timeout=TIMEOUT) as client:
                answer = await client.get(url + "auth", headers={"Authorization": f"Bearer {token}"})
        except httpx.HTTPError:
            return (NAME, False, f"run/webapp.json names {url} but nothing answers there",
                    "restart OpenHuman (it writes the file again once the web app listens)")
        if answer.status_code == 204:
            return NAME, True, f"listening on {url} (tray menu: Open web app)", ""
        return (NAME, False, f"{url} refused the key in run/webapp.json (HTTP {answer.status_code})",
                "restart OpenHuman")
    port = settings.port
    if port == 0:
        return NAME, True, f"listens on a free port of {HOST} when OpenHuman runs", ""
    problem = _port_problem(port)
    if problem is not None:
        return NAME, False, problem, "stop that program, or set [channels.webapp] port = 0 in config.toml"
    return NAME, True, f"port {port} is free (listens there when OpenHuman runs)", ""


def _published(path: Path) -> tuple[str, str] | None:
    """The url and key of a running instance's web app (a file left by a crashed one does not count)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        pid, url, token = int(data["pid"]), str(data["url"]), str(data["token"])
        os.kill(pid, 0)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return url, token


def _port_problem(port: int) -> str | None:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"port {port} on {HOST} is in use by another program"
            return f"port {port} on {HOST} cannot be used ({os.strerror(exc.errno or 0)})"
    return None
