"""``openhuman-desktop chat [--thread ID] MESSAGE`` (CONTRACT §8) against a real RPC server on 127.0.0.1 serving the
agent methods over an in-memory agent: the answer printed as it streams, exit 0 / 1 / 2, and ``--help``."""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

import pytest

from openhuman_desktop.paths import Paths
from openhuman_desktop.rpc import chat
from openhuman_desktop.rpc.agent_methods import agent_methods, check_thread_id
from openhuman_desktop.rpc.methods import MethodTable
from openhuman_desktop.rpc.protocol import Dispatcher
from openhuman_desktop.rpc.server import RpcServer
from tests.fakes.agent_service import InMemoryAgent
from tests.fakes.app_process import run_cli

T = TypeVar("T")


class ServedAgent:
    """An in-memory agent behind a real ``RpcServer``, on its own event loop in a thread (the command under test
    is synchronous)."""

    def __init__(self, workspace: Path) -> None:
        self.paths = Paths(workspace)
        self.paths.ensure()
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self.agent: InMemoryAgent
        self.server: RpcServer

    def __enter__(self) -> ServedAgent:
        self._thread.start()
        self.run(self._start)
        return self

    async def _start(self) -> None:
        self.agent = InMemoryAgent()
        table = MethodTable()
        table.add(agent_methods(self.agent))
        self.server = RpcServer(Dispatcher(table), self.paths.rpc_file)
        await self.server.start()

    def run(self, make: Callable[[], Awaitable[T]]) -> T:
        async def wrapped() -> T:
            return await make()

        future: Future[T] = asyncio.run_coroutine_threadsafe(wrapped(), self._loop)
        return future.result(timeout=30)

    def call_soon(self, callback: Callable[[], Any]) -> None:
        self._loop.call_soon_threadsafe(callback)

    def stop_server(self) -> None:
        self.run(self.server.aclose)

    def __exit__(self, *exc: object) -> None:
        async def close() -> None:
            await self.server.aclose()
            await self.agent.aclose()

        self.run(close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[ServedAgent]:
    with ServedAgent(tmp_path / "workspace") as running:
        yield running


class Terminal(io.StringIO):
    """A stdout that records each flushed write, and calls ``on_flush`` after each."""

    def __init__(self, on_flush: Callable[[], None] = lambda: None) -> None:
        super().__init__()
        self.flushed: list[str] = []
        self._pending = ""
        self._on_flush = on_flush

    def write(self, text: str) -> int:
        self._pending += text
        return super().write(text)

    def flush(self) -> None:
        if self._pending:
            self.flushed.append(self._pending)
            self._pending = ""
            self._on_flush()
        super().flush()


def test_the_answer_is_printed_piece_by_piece_as_it_streams(served: ServedAgent) -> None:
    async def one_piece_at_a_time() -> None:
        served.agent.pieces = asyncio.Semaphore(1)

    served.run(one_piece_at_a_time)
    # Each printed piece lets the agent write the next one: the command must print (and flush) a piece before
    # the agent has even written the next, or it would wait forever.
    out = Terminal(on_flush=lambda: served.call_soon(lambda: served.agent.pieces.release()))  # type: ignore[union-attr]
    err = io.StringIO()

    code = chat.main(served.paths.rpc_file, "hello", out=out, err=err)

    assert (code, err.getvalue()) == (0, "")
    assert out.flushed == ["You ", "said: ", "hello", "\n"]
    [run] = served.run(lambda: served.agent.runs_list("cli", None, 10))
    assert run.input == "hello" and run.thread_id == "cli" and run.status == "completed"


def test_the_command_line_chats_in_a_thread_and_exits_0(served: ServedAgent) -> None:
    done = run_cli("--workspace", served.paths.workspace, "chat", "--thread", "telegram:7", "how", "are", "you?")
    assert (done.returncode, done.stdout, done.stderr) == (0, "You said: how are you?\n", "")
    [run] = served.run(lambda: served.agent.runs_list("telegram:7", None, 10))
    assert run.channel_source == "telegram"


def test_a_failed_run_prints_its_reason_on_stderr_and_exits_1(served: ServedAgent) -> None:
    done = run_cli("--workspace", served.paths.workspace, "chat", "fail this one")
    assert done.returncode == 1
    assert done.stdout == "Looking\n"
    assert done.stderr.strip().splitlines() == [
        "openhuman-desktop chat: The reasoning model (agentic-v1) at http://127.0.0.1:9 did not answer; start it."]


def test_a_refused_message_is_the_servers_error_and_exit_1(served: ServedAgent) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert chat.main(served.paths.rpc_file, "x" * 100_001, out=out, err=err) == 1
    assert out.getvalue() == ""
    assert err.getvalue().startswith("error -32602: Invalid params: text")


@pytest.mark.parametrize(("typed", "thread"), [
    ("work", "cli:work"), ("  my project  ", "cli:my project"), ("mail:1", "cli:mail:1"),
    ("Work notes", "cli:Work notes"),
    ("cli", "cli"), ("desktop", "desktop"), ("telegram:7", "telegram:7"), ("webapp:3f2a", "webapp:3f2a"),
    ("cli:work", "cli:work"), ("cli:", "cli:cli:"),
])
def test_any_name_a_person_types_is_a_thread(typed: str, thread: str) -> None:
    assert chat.thread_for(typed) == thread
    assert check_thread_id(thread) == thread


def test_thread_work_from_the_command_line_is_thread_cli_work(served: ServedAgent) -> None:
    """``chat --thread work "…"`` was refused with -32602 "names no channel"."""
    done = run_cli("--workspace", served.paths.workspace, "chat", "--thread", "work", "plan", "my", "week")
    assert (done.returncode, done.stdout, done.stderr) == (0, "You said: plan my week\n", "")
    [run] = served.run(lambda: served.agent.runs_list("cli:work", None, 10))
    assert run.channel_source == "cli" and run.input == "plan my week"


def test_markdown_is_rendered_for_a_pipe_without_its_markers(served: ServedAgent) -> None:
    done = run_cli("--workspace", served.paths.workspace, "chat",
                   "**Bold** and *it*, `code`, [docs](https://example.org) and snake_case_name")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "You said: Bold and it, code, docs (https://example.org) and snake_case_name\n"


def test_markdown_streamed_in_pieces_is_shown_as_it_comes(served: ServedAgent) -> None:
    async def one_piece_at_a_time() -> None:
        served.agent.pieces = asyncio.Semaphore(1)

    served.run(one_piece_at_a_time)
    out = Terminal(on_flush=lambda: served.call_soon(lambda: served.agent.pieces.release()))  # type: ignore[union-attr]
    code = chat.main(served.paths.rpc_file, "**hi** there", out=out, err=io.StringIO())
    assert code == 0
    # "**hi**" comes as one piece and is shown at once, without its stars; nothing waits for the end.
    assert out.flushed == ["You ", "said: ", "hi there", "\n"]


def test_no_instance_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = run_cli("--workspace", tmp_path / "empty", "chat", "hello")
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.strip().splitlines()
    assert "No OpenHuman instance is running" in line


def test_an_instance_that_stops_mid_answer_is_exit_2_saying_the_run_goes_on(served: ServedAgent) -> None:
    async def hold() -> None:
        served.agent.pieces = asyncio.Semaphore(1)

    served.run(hold)
    stopped = threading.Event()

    def stop_once() -> None:
        if not stopped.is_set():
            stopped.set()
            threading.Thread(target=served.stop_server, daemon=True).start()

    out, err = Terminal(on_flush=stop_once), io.StringIO()
    code = chat.main(served.paths.rpc_file, "hello", out=out, err=err)
    assert code == 2
    assert out.getvalue() == "You \n"
    [line] = err.getvalue().strip().splitlines()
    assert "goes on when OpenHuman starts again" in line and "Traceback" not in err.getvalue()


def test_help_names_the_thread_option_and_the_exit_codes() -> None:
    done = run_cli("chat", "--help")
    assert done.returncode == 0
    words = " ".join(done.stdout.split())
    assert "--thread ID" in words and "MESSAGE" in words and "Exit 0 when the answer is complete" in words
    assert "chat [--thread ID] MESSAGE" in run_cli("--help").stdout
