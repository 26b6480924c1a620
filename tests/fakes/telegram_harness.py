"""The real app core (``bootstrap.build``) with the Telegram channel on a fake Bot API and a fake agent model.

Used by the channel's in-process tests and by ``bench/telegram_bench.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web

from openhuman_desktop import bootstrap, config
from openhuman_desktop.bootstrap import Services
from openhuman_desktop.paths import Paths
from tests.fakes import model_servers
from tests.fakes.agent_model import AgentModel, AgentScript
from tests.fakes.model_servers import FakeOllama
from tests.fakes.telegram_api import TOKEN, FakeTelegram

LOCAL_MODEL, REASONING_MODEL = "llama3.2:3b", "qwen2.5:14b"
OWNER = 1111  # a private chat in allowed_chat_ids
TEAM = -2222  # a group in allowed_chat_ids
STRANGER = 3333  # a private chat that is not allowed
TOKEN_ENV = "OPENHUMAN_TEST_TELEGRAM_TOKEN"


def telegram_config(ollama_url: str, api_url: str, allowed: Sequence[int] = (OWNER, TEAM),
                    enabled: bool = True, users: Sequence[int] | None = None) -> str:
    """config.toml: no scheduled tick, both tiers on ``ollama_url``, Telegram on ``api_url``, no web app;
    ``users``: ``allowed_user_ids`` (None leaves it to its default)."""
    approvers = "" if users is None else f"allowed_user_ids = {json.dumps(list(users))}\n"
    return (
        "[heartbeat]\ninterval_minutes = 60\n\n"
        f'[ollama]\nhost = "{ollama_url}"\n\n'
        "[channels.telegram]\n"
        f"enabled = {'true' if enabled else 'false'}\n"
        f'token_env = "{TOKEN_ENV}"\n'
        f"allowed_chat_ids = {json.dumps(list(allowed))}\n"
        f"{approvers}"
        f'api_url = "{api_url}"\n\n'
        "[channels.webapp]\nenabled = false\n"
    )


@dataclass
class TelegramApp:
    services: Services
    telegram: FakeTelegram
    ollama: FakeOllama
    model: AgentModel
    paths: Paths

    def status(self) -> dict[str, Any]:
        entry: dict[str, Any] = self.services.channels.status()["telegram"]
        return entry

    async def wait_until(self, condition: Callable[[], Any], timeout: float = 20.0, what: str = "condition") -> Any:
        """Poll ``condition`` on the test's loop (the app runs on it too) until truthy."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = condition()
            if value:
                return value
            if loop.time() > deadline:
                raise AssertionError(f"{what} not reached within {timeout} s (telegram status {self.status()})")
            await asyncio.sleep(0.02)

    async def runs(self, chat_id: int) -> list[Any]:
        return await self.services.agent.runs_list(f"telegram:{chat_id}", None, 1000)

    async def wait_idle(self, chats: Sequence[int], runs: int = 1, timeout: float = 60.0) -> None:
        """Until these chats have at least ``runs`` runs, all finished and delivered (and marked so). (The
        ledger keeps a thread's newest 20 finished runs.)"""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            found = [run for chat in chats for run in await self.runs(chat)]
            if (len(found) >= runs and all(run.is_finished for run in found)
                    and not await self.services.agent.undelivered("telegram")):
                return
            if loop.time() > deadline:
                working = [(run.thread_id, run.status) for run in found if not run.is_finished]
                undelivered = [run.thread_id for run in await self.services.agent.undelivered("telegram")]
                raise AssertionError(f"after {timeout} s: {len(found)} of {runs} runs; still working: {working}; "
                                     f"undelivered: {undelivered}; telegram {self.status()}")
            await asyncio.sleep(0.05)


@asynccontextmanager
async def telegram_app(
    tmp_path: Path,
    *,
    script: AgentScript | None = None,
    allowed: Sequence[int] = (OWNER, TEAM),
    token: str | None = TOKEN,
    users: Sequence[int] | None = None,
) -> AsyncIterator[TelegramApp]:
    """Build and start the app; ``token`` goes into :data:`TOKEN_ENV` (None: unset) for as long as it runs."""
    with _environment({TOKEN_ENV: token, "OLLAMA_HOST": None}), FakeOllama() as ollama, FakeTelegram() as telegram:
        ollama.add_model(LOCAL_MODEL, context_length=8192)
        ollama.add_model(REASONING_MODEL, context_length=32768)
        model = AgentModel(script or AgentScript(answer="Hello from the assistant."))
        ollama.set_responder(model)
        paths = Paths(tmp_path / "ws")
        paths.ensure()
        paths.config_file.write_text(telegram_config(ollama.url, telegram.url, allowed, users=users),
                                     encoding="utf-8")
        services = await bootstrap.build(paths, config.load(paths.config_file))
        try:
            await services.start()
            yield TelegramApp(services, telegram, ollama, model, paths)
        finally:
            await services.aclose()


@contextlib.contextmanager
def _environment(values: Mapping[str, str | None]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in values}
    try:
        for name, value in values.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextlib.contextmanager
def slow_stream(pause: float, on_first: Callable[[], None] | None = None) -> Iterator[None]:
    """Streamed model answers arrive piece by piece, ``pause`` seconds apart (the fakes send them at once).

    ``on_first`` is called (in the server's thread) as each stream's first piece is about to be written.
    """
    original = model_servers._stream

    async def paced(request: web.Request, status: int, headers: Mapping[str, str],
                    texts: Sequence[str]) -> web.StreamResponse:
        response = web.StreamResponse(status=status, headers=headers)
        await response.prepare(request)
        with contextlib.suppress(ConnectionResetError):
            for index, text in enumerate(texts):
                if index == 0 and on_first is not None:
                    on_first()
                await response.write(text.encode())
                await asyncio.sleep(pause)
            await response.write_eof()
        return response

    model_servers._stream = paced  # type: ignore[assignment]
    try:
        yield
    finally:
        model_servers._stream = original  # type: ignore[assignment]
