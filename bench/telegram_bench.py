"""Telegram channel benchmark: first streamed text at the (fake) Bot API after the model's first token, and
five chats each sending ten messages (all answered, none twice).

The real app core (``bootstrap.build``) runs in this process with the Telegram channel on
``tests.fakes.telegram_api.FakeTelegram`` and a fake agent model that streams its answer piece by piece; both
fakes run in threads of this process (so they share the GIL with the app: a pessimistic set-up). The latency
is from the moment the model server wrote the answer's first piece to the moment the fake Bot API received
the first ``sendMessageDraft`` (private chat) or the preview ``sendMessage`` (group).

    python bench/telegram_bench.py [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import budget, figure, load_note, machine, note  # noqa: E402
from tests.fakes.agent_model import AgentScript  # noqa: E402
from tests.fakes.telegram_harness import OWNER, TEAM, TelegramApp, slow_stream, telegram_app  # noqa: E402

BUDGET_MS = 1000.0
ANSWER = "Here is what I found, " + " ".join(f"point {i}." for i in range(12))


class FirstPieces:
    """When each streamed model answer wrote its first piece (time.monotonic, any thread)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.times: list[float] = []

    def __call__(self) -> None:
        with self._lock:
            self.times.append(time.monotonic())

    def after(self, moment: float) -> float | None:
        with self._lock:
            return next((t for t in self.times if t >= moment), None)


async def first_text_latencies(app: TelegramApp, firsts: FirstPieces, chat: int, count: int) -> list[float]:
    method = "sendMessageDraft" if chat > 0 else "sendMessage"
    samples = []
    for index in range(count):
        runs = len(await app.runs(chat))
        sent_at = time.monotonic()
        app.telegram.send_text(chat, f"question {index}")
        while len(await app.runs(chat)) == runs:
            await asyncio.sleep(0.01)
        await app.wait_idle([chat])
        first_piece = firsts.after(sent_at)
        assert first_piece is not None, "the model streamed nothing"
        shown = [c.at for c in app.telegram.calls_of(method, chat) if c.at >= first_piece]
        if not shown:
            note(f"message {index} in chat {chat}: no streamed text before its answer")
            continue
        samples.append((min(shown) - first_piece) * 1000)
    return samples


async def many_chats(app: TelegramApp, chats: list[int], per_chat: int) -> tuple[float, bool]:
    def kept(chat: int) -> list[str]:  # what the chat shows (a group's previews are deleted)
        return [m["text"] for (c, _), m in sorted(app.telegram.messages.items()) if c == chat]

    before = {chat: len(kept(chat)) for chat in chats}
    started = time.monotonic()
    for index in range(per_chat):
        for chat in chats:
            app.telegram.send_text(chat, f"load {index} from {chat}")
    await app.wait_until(lambda: all(len(kept(c)) >= before[c] + per_chat for c in chats), timeout=300,
                         what="every answer")
    elapsed = time.monotonic() - started
    # Each chat's newest runs are the load's (the ledger keeps a thread's newest 20 finished runs).
    await app.wait_idle(chats, runs=len(chats) * per_chat, timeout=300)
    runs_ok = True
    for chat in chats:
        runs = (await app.runs(chat))[:per_chat]
        inputs = sorted(r.input for r in runs)
        runs_ok &= inputs == sorted(f"load {i} from {chat}" for i in range(per_chat))
        runs_ok &= kept(chat)[before[chat]:] == [ANSWER] * per_chat

    return elapsed, runs_ok


async def run(args: argparse.Namespace) -> int:
    firsts = FirstPieces()
    samples = 4 if args.quick else 20
    chats = [OWNER, TEAM, 5001, 5002, -5003]
    per_chat = 2 if args.quick else 10
    ok = True
    with tempfile.TemporaryDirectory(prefix="oh-telegram-bench-") as tmp, slow_stream(0.05, firsts):
        async with telegram_app(Path(tmp), script=AgentScript(answer=ANSWER), allowed=chats) as app:
            await app.wait_until(lambda: app.status()["state"] == "connected", what="connected")
            private = figure("telegram first streamed text (sendMessageDraft, private chat) after the model's "
                             "first token", await first_text_latencies(app, firsts, OWNER, samples))
            group = figure("telegram first streamed text (preview sendMessage, group) after the model's first token",
                           await first_text_latencies(app, firsts, TEAM, max(2, samples // 2)))
            # Timings are reported (BUDGET ok|MISSED), never fatal; answering every message once is.
            budget("telegram first streamed text p95 (private)", private.p95, BUDGET_MS, "ms")
            budget("telegram first streamed text p95 (group)", group.p95, BUDGET_MS, "ms")
            elapsed, all_once = await many_chats(app, chats, per_chat)
            print(f"telegram {len(chats)} chats x {per_chat} messages: all answered once: {all_once}, "
                  f"{elapsed:.1f} s in all", flush=True)
            ok &= all_once
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="a few samples only (the smoke test)")
    args = parser.parse_args(argv)
    note(machine())
    load_note()
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
