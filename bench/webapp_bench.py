"""Web app benchmark: the real app (``--headless``) on a fake model, WebSocket clients in this process.

A. First streamed text at the WebSocket client after the model sent its first token of the answer (pass 2),
   one message after another on one session: p50 / p95 / max; budget p95 <= 100 ms.
B. 20 sessions at once, each sending 10 messages (the next once the last is answered): every message gets
   exactly one reply, its own (the fake model echoes a mark of the message), and the ledger holds one
   completed run per message.

Both clocks are this process's ``time.perf_counter`` (the fake model server runs in a thread here).
``--quick`` runs a few samples (for the smoke test) and does not fail on the timing budget.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import aiohttp  # noqa: E402

from bench.common import budget, figure, load_note, machine  # noqa: E402
from tests.fakes.agent_model import PASS2, AgentModel, AgentScript, kind_of  # noqa: E402
from tests.fakes.app_process import AppProcess, wait_for  # noqa: E402
from tests.fakes.model_servers import FakeOllama, Reply  # noqa: E402

LOCAL, REASONING = "llama3.2:3b", "qwen2.5:14b"
FIRST_DELTA_MS = 100.0
MARK = re.compile(r"msg-\d+-\d+")
ANSWER_WORDS = " ".join(["word"] * 40)


class TimedModel:
    """The agent model, answering pass 2 with the message's mark (streamed in 8 pieces) and noting when."""

    def __init__(self) -> None:
        self.agent = AgentModel(AgentScript(reply="Done."))
        self.first_token_at: dict[str, float] = {}
        self._lock = threading.Lock()

    def __call__(self, body: Any) -> Reply:
        messages = [m for m in (body.get("messages") or ()) if isinstance(m, dict)] if isinstance(body, dict) else []
        if kind_of(messages) != PASS2:
            return self.agent(body)
        text = "\n".join(str(m.get("content", "")) for m in messages if m.get("role") == "user")
        found = MARK.search(text)
        mark = found.group(0) if found else "none"
        with self._lock:
            # The fake writes the first piece right after this returns: this is (just before) the first token.
            self.first_token_at[mark] = time.perf_counter()
        return Reply(content=f"Echo {mark}: {ANSWER_WORDS}", pieces=8)


def config(ollama_url: str) -> str:
    return "\n".join([
        "[heartbeat]", "interval_minutes = 60", "",
        "[models.local]", 'provider = "ollama"', f'base_url = "{ollama_url}"', f'model = "{LOCAL}"', "",
        "[models.reasoning]", 'provider = "ollama"', f'base_url = "{ollama_url}"', f'model = "{REASONING}"', "",
        "[channels.webapp]", "port = 0", "",
    ])


class Session:
    """One browser tab's WebSocket."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.thread_id = ""

    @classmethod
    async def open(cls, http: aiohttp.ClientSession, url: str, token: str) -> Session:
        host = url.removeprefix("http://").rstrip("/")
        socket = await http.ws_connect(f"ws://{host}/ws?token={token}", origin=f"http://{host}",
                                       max_msg_size=0)
        session = cls(socket)
        while True:
            frame = await session.receive()
            if frame["type"] == "session":
                session.thread_id = frame["thread_id"]
            if frame["type"] == "history":
                return session

    async def receive(self) -> dict[str, Any]:
        message = await self.socket.receive()
        if message.type != aiohttp.WSMsgType.TEXT:
            raise RuntimeError(f"the web app closed the socket ({message.type.name})")
        frame: dict[str, Any] = json.loads(message.data)
        return frame

    async def ask(self, mark: str) -> tuple[float | None, list[dict[str, Any]]]:
        """Send a message; returns when its first delta arrived and every reply frame until its reply."""
        await self.socket.send_json({"type": "message", "text": f"Please answer {mark}"})
        first_delta: float | None = None
        replies: list[dict[str, Any]] = []
        run_id = None
        while True:
            frame = await self.receive()
            if frame["type"] == "run" and frame.get("input", "").endswith(mark):
                run_id = frame["run_id"]
            elif frame["type"] == "delta" and first_delta is None and frame["run_id"] == run_id:
                first_delta = time.perf_counter()
            elif frame["type"] == "reply":
                replies.append(frame)
                if frame["run_id"] == run_id:
                    return first_delta, replies
            elif frame["type"] == "error":
                raise RuntimeError(frame["message"])


async def first_delta_part(url: str, token: str, model: TimedModel, samples: int) -> list[float]:
    async with aiohttp.ClientSession() as http:
        session = await Session.open(http, url, token)
        await session.ask("msg-0-0")  # warm-up: first loads of the tokenizer and the intent probe
        latencies = []
        for index in range(1, samples + 1):
            mark = f"msg-0-{index}"
            arrived, _ = await session.ask(mark)
            assert arrived is not None, f"no delta for {mark}"
            latencies.append((arrived - model.first_token_at[mark]) * 1000)
        await session.socket.close()
        return latencies


async def concurrent_part(url: str, token: str, sessions: int, messages: int) -> tuple[float, list[str], list[str]]:
    """Returns the seconds it took, the thread ids, and every problem found."""
    problems: list[str] = []
    async with aiohttp.ClientSession() as http:
        tabs = [await Session.open(http, url, token) for _ in range(sessions)]

        async def converse(number: int, tab: Session) -> None:
            for index in range(messages):
                mark = f"msg-{number + 1}-{index}"
                _, replies = await tab.ask(mark)
                if len(replies) != 1:
                    problems.append(f"{mark}: {len(replies)} replies")
                if not replies[-1]["text"].startswith(f"Echo {mark}:"):
                    problems.append(f"{mark}: answered {replies[-1]['text'][:40]!r}")

        started = time.perf_counter()
        await asyncio.gather(*(converse(number, tab) for number, tab in enumerate(tabs)))
        took = time.perf_counter() - started
        for tab in tabs:
            await tab.socket.close()
    return took, [tab.thread_id for tab in tabs], problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few samples only (smoke test)")
    args = parser.parse_args(argv)
    samples, sessions, messages = (5, 4, 3) if args.quick else (40, 20, 10)
    print(f"web app bench on {machine()}")
    load_note()
    ok = True
    with FakeOllama() as ollama, tempfile.TemporaryDirectory(prefix="openhuman-webapp-bench-") as scratch:
        ollama.add_model(LOCAL, context_length=8192)
        ollama.add_model(REASONING, context_length=32768)
        model = TimedModel()
        ollama.set_responder(model)
        workspace = Path(scratch) / "ws"
        with AppProcess(workspace, ollama_url=ollama.url, config=config(ollama.url)) as app:
            webapp_file = workspace / "run" / "webapp.json"
            wait_for(webapp_file.exists, 30, "run/webapp.json")
            link = json.loads(webapp_file.read_text(encoding="utf-8"))
            latencies = asyncio.run(first_delta_part(link["url"], link["token"], model, samples))
            stats = figure("A first delta at the WebSocket client after the model's first token", latencies)
            # A timing is reported (BUDGET ok|MISSED), never fatal; answering every message once is.
            budget("webapp A first delta p95", stats.p95, FIRST_DELTA_MS, "ms")
            took, threads, problems = asyncio.run(concurrent_part(link["url"], link["token"], sessions, messages))
            for thread in threads:
                runs = app.result("agent_runs_list", {"thread_id": thread, "limit": 1000})
                if len(runs) != messages or any(run["status"] != "completed" for run in runs):
                    problems.append(f"{thread}: {len(runs)} runs, {sorted({r['status'] for r in runs})}")
            total = sessions * messages
            print(f"B {sessions} sessions x {messages} messages: {total} answered in {took:.1f} s "
                  f"({total / took:.1f} messages/s), problems: {len(problems)}")
            for problem in problems[:20]:
                print(f"  {problem}")
            ok &= not problems
            print(f"BUDGET {'ok' if not problems else 'MISSED'} webapp B every message answered once: "
                  f"{total - len(problems)}/{total}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
