"""Fixtures of the channel tests: the real app's services on a fake model (in this process, so a test can stop
and start them), raw WebSocket clients, and Debian's chromium driven by Playwright."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from playwright.async_api import Browser, Page, async_playwright

from openhuman_desktop import bootstrap, config
from openhuman_desktop.bootstrap import Services
from openhuman_desktop.channels.webapp import WebappChannel
from openhuman_desktop.paths import Paths
from tests.fakes.agent_model import AgentModel, AgentScript
from tests.fakes.model_servers import FakeOllama

CHROMIUM = "/usr/bin/chromium"  # Debian's; Playwright's own browser download cannot work here
LOCAL_MODEL, REASONING_MODEL = "llama3.2:3b", "qwen2.5:14b"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def config_text(ollama_url: str, port: int, *, enabled: bool = True) -> str:
    return "\n".join([
        "[heartbeat]", "interval_minutes = 60", "",
        "[models.local]", 'provider = "ollama"', f'base_url = "{ollama_url}"', f'model = "{LOCAL_MODEL}"', "",
        "[models.reasoning]", 'provider = "ollama"', f'base_url = "{ollama_url}"', f'model = "{REASONING_MODEL}"', "",
        "[channels.webapp]", f"enabled = {'true' if enabled else 'false'}", f"port = {port}", "",
    ])


class WebApp:
    """The app's services (real hub, agent, ledger, web app) on a workspace, startable again after a stop."""

    def __init__(self, workspace: Path, ollama: FakeOllama, model: AgentModel, port: int) -> None:
        self.paths = Paths(workspace)
        self.ollama = ollama
        self.model = model
        self.port = port
        self.services: Services | None = None

    async def start(self) -> WebApp:
        self.paths.ensure()
        if not self.paths.config_file.exists():
            self.paths.config_file.write_text(config_text(self.ollama.url, self.port), encoding="utf-8")
        loaded = config.load(self.paths.config_file)
        assert not loaded.warnings, loaded.warnings
        self.services = await bootstrap.build(self.paths, loaded)
        await self.services.start()
        return self

    async def stop(self) -> None:
        services, self.services = self.services, None
        if services is not None:
            await services.aclose()

    @property
    def channel(self) -> WebappChannel:
        assert self.services is not None
        channel = self.services.channels.channel("webapp")
        assert isinstance(channel, WebappChannel)
        return channel

    @property
    def url(self) -> str:
        url = self.channel.url
        assert url is not None, self.channel.status()
        return url

    @property
    def token(self) -> str:
        data: dict[str, Any] = json.loads(self.paths.webapp_file.read_text(encoding="utf-8"))
        return str(data["token"])

    @property
    def host(self) -> str:
        return self.url.removeprefix("http://").rstrip("/")

    def socket_url(self, token: str | None = None, session: str | None = None) -> str:
        url = f"ws://{self.host}/ws?token={self.token if token is None else token}"
        return url + (f"&session={session}" if session else "")

    async def runs(self, thread_id: str) -> list[Any]:
        assert self.services is not None
        return await self.services.agent.runs_list(thread_id, None, 100)


@pytest.fixture
def ollama() -> Any:
    with FakeOllama() as server:
        server.add_model(LOCAL_MODEL, context_length=8192)
        server.add_model(REASONING_MODEL, context_length=32768)
        yield server


@pytest.fixture
def model(ollama: FakeOllama) -> AgentModel:
    made = AgentModel(AgentScript())
    ollama.set_responder(made)
    return made


@pytest.fixture
async def web_app(tmp_path: Path, ollama: FakeOllama, model: AgentModel,
                  monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[WebApp]:
    """The app with the web app on a fixed free port (so a restart comes back on the same address)."""
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    app = WebApp(tmp_path / "ws", ollama, model, free_port())
    await app.start()
    try:
        yield app
    finally:
        await app.stop()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        args = ["--no-sandbox"] if os.geteuid() == 0 else []
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
        try:
            yield launched
        finally:
            await launched.close()


async def open_page(browser: Browser, web_app: WebApp, *, color_scheme: str = "light",
                    width: int = 1000, height: int = 760) -> Page:
    """A fresh browser context on the tray's address (``url#token=TOKEN``), connected. ``page.errors`` collects
    script errors and console errors (a CSP violation is one), ``page.frames_received`` every server frame."""
    context = await browser.new_context(viewport={"width": width, "height": height},
                                        color_scheme=color_scheme)  # type: ignore[arg-type]
    page = await context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    frames: list[dict[str, Any]] = []
    page.on("websocket", lambda socket: socket.on("framereceived", lambda data: frames.append(json.loads(data))))
    page.frames_received = frames  # type: ignore[attr-defined]
    address = web_app.channel.browser_url
    assert address is not None
    await page.goto(address)
    await page.wait_for_selector('#status[data-state="connected"]')
    return page


async def wait_until(condition: Callable[[], Awaitable[object]], timeout: float = 20.0,
                     what: str = "condition") -> None:
    """Poll an async ``condition`` until it is truthy (a deadline, not a timed assertion)."""
    deadline = time.monotonic() + timeout
    while not await condition():
        assert time.monotonic() < deadline, f"{what} not reached within {timeout} s"
        await asyncio.sleep(0.02)
