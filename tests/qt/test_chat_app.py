"""The app registers the window's Chat tab as the hub's desktop channel: a message on the ``desktop`` thread
from anywhere (here the agent service, as ``agent_send`` does) streams into the Chat tab."""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop import config
from openhuman_desktop.paths import Paths
from openhuman_desktop.qt.app import DesktopApp, serve
from tests.fakes.agent_model import AgentModel, AgentScript
from tests.fakes.model_servers import FakeOllama

MODEL = "llama3.2:3b"


@pytest.fixture(autouse=True)
def collect_garbage_on_the_main_thread() -> Iterator[None]:
    yield
    gc.collect()


@pytest.fixture
def ollama(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOllama]:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    with FakeOllama() as server:
        server.add_model(MODEL, context_length=131_072)
        server.set_responder(AgentModel(AgentScript(answer="Hello from the agent.")))
        yield server


@pytest.fixture
def workspace(tmp_path: Path, ollama: FakeOllama) -> tuple[Paths, config.LoadedConfig]:
    paths = Paths(tmp_path / "workspace")
    paths.ensure()
    paths.config_file.write_text(
        f'[heartbeat]\ninterval_minutes = 60\n\n[ollama]\nhost = "{ollama.url}"\n\n'
        f'[models.local]\nprovider = "ollama"\nmodel = "{MODEL}"\n\n'
        f'[models.reasoning]\nprovider = "ollama"\nmodel = "{MODEL}"\n\n'
        "[channels.webapp]\nenabled = false\n",
        encoding="utf-8",
    )
    return paths, config.load(paths.config_file, environ={})


def run(loop: asyncio.AbstractEventLoop, awaitable: Any, timeout: float = 30) -> Any:
    return loop.run_until_complete(asyncio.wait_for(awaitable, timeout))


async def poll_until(predicate: Callable[[], object], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("not reached in time")
        await asyncio.sleep(0.02)


@pytest.mark.logs_expected(r"no system tray on this desktop; showing the window instead")
def test_the_chat_tab_is_the_desktop_channel_from_start_to_quit(
        qloop: asyncio.AbstractEventLoop, workspace: tuple[Paths, config.LoadedConfig]) -> None:
    paths, loaded = workspace
    desktop = DesktopApp(paths, loaded, tray_available=False)
    task = qloop.create_task(serve(desktop))
    try:
        run(qloop, poll_until(lambda: desktop.is_ready or task.done()))
        window: Any = desktop.window
        services: Any = desktop.services
        assert services.channels.channel("desktop") is window.desktop_channel
        run(qloop, poll_until(lambda: services.channels.status()["desktop"]["state"] == "connected"))
        run(qloop, poll_until(lambda: {"local", "reasoning"} <= set(services.models.health)))

        async def send() -> Any:
            sent = await services.agent.send("Hi there")   # the default thread is the desktop's
            return await services.agent.wait(sent.id)

        finished = run(qloop, send())
        assert finished.status == "completed"
        chat = window.chat_view
        run(qloop, poll_until(lambda: chat.answer_texts() == ["Hello from the agent."]))
        assert [row.text for row in chat.model.rows()][0] == "Hi there"

        async def delivered() -> None:   # the hub marked the answer delivered: not handed over again
            while await services.agent.undelivered("desktop"):
                await asyncio.sleep(0.02)

        run(qloop, delivered())
    finally:
        desktop.request_quit()
        assert run(qloop, task) == 0
    assert desktop.window is None
