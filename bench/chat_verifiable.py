"""Verifiable chats (issue 24): questions whose answer is in a workspace file, an arithmetic question and requested
appends, through the real headless app against a real model; each one right or wrong by a check, not by taste.

The real app (``python -m openhuman_desktop --headless``) in a workspace of its own, both ``[models.*]`` tiers on
the recording proxy in front of one OpenAI-compatible server (``bench/real_model_server.py``). Each chat goes
in with ``agent_send`` on a thread of its own and is followed to its end (``agent_run_follow``). Right means:
the run completed and its answer holds the fact (digits compared without spaces), or, for an append, the file
holds the line exactly once and nothing else of it changed. Per chat: the result, wall time, model calls,
the tools that ran; at the end the number right, the appends done exactly once, and the budget of the issue
(at least 7 of 9 with a ~0.5B model).

    python bench/chat_verifiable.py --url http://127.0.0.1:8402/v1 --model qwen2.5-coder-0.5b-instruct
    python bench/chat_verifiable.py --url http://127.0.0.1:8401/v1                 # SmolLM2-135M
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import common, real_model_server  # noqa: E402
from bench.agent_real_model import Chat, follow_chat  # noqa: E402
from bench.common import machine, note  # noqa: E402
from bench.model_proxy import ModelProxy  # noqa: E402
from bench.real_model import App, config_for, serve_model  # noqa: E402

FILES = {
    "notes.md": ("# Notes\n\nCall the plumber on Tuesday about the kitchen tap.\nPlumber: Mario Rossi, phone "
                 "0151 2345 678.\nThe garden needs water on Sunday.\n"),
    "todo.md": "# To do\n\n- pay the electricity bill\n",
    "projects/garden.md": "Garden plan: tomatoes in the south bed, beans along the fence.\nBudget: 120 EUR.\n",
    "trip.md": "Flight LH 1234 from Hamburg to Lisbon on 14 March, leaving at 07:25.\n",
}


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def says(*wanted: str) -> Callable[[str, Path], bool]:
    """Right when the answer holds one of ``wanted`` (case-insensitive; numbers by their digits)."""
    def check(answer: str, workspace: Path) -> bool:
        lowered = answer.lower()
        return any((_digits(w) and _digits(w) in _digits(answer)) if w[:1].isdigit() else w.lower() in lowered
                   for w in wanted)
    return check


def appended(path: str, line: str) -> Callable[[str, Path], bool]:
    """Right when ``path`` holds ``line`` exactly once and everything it held before is still there."""
    def check(answer: str, workspace: Path) -> bool:
        text = (workspace / path).read_text(encoding="utf-8")
        return text.lower().count(line.lower()) == 1 and text.startswith(FILES[path])
    return check


@dataclass(frozen=True)
class Verifiable:
    text: str
    check: Callable[[str, Path], bool]
    what: str
    writes: bool = False


CHATS = (
    Verifiable("What is the plumber's phone number in notes.md?", says("0151 2345 678"), "0151 2345 678"),
    Verifiable("On which day should I call the plumber, according to notes.md?", says("tuesday"), "Tuesday"),
    Verifiable("What does projects/garden.md say is planted along the fence?", says("beans"), "beans"),
    Verifiable("What is the budget in projects/garden.md?", says("120"), "120 EUR"),
    Verifiable("At what time does my flight in trip.md leave?", says("07:25", "7:25"), "07:25"),
    Verifiable("Which city does my flight in trip.md go to?", says("lisbon"), "Lisbon"),
    Verifiable("What is 17 times 23?", says("391"), "391"),
    Verifiable("Append the line 'buy milk' to todo.md", appended("todo.md", "buy milk"), "todo.md + 'buy milk' once",
               writes=True),
    Verifiable("Add 'call Anna about the party' to todo.md", appended("todo.md", "call Anna about the party"),
               "todo.md + 'call Anna about the party' once", writes=True),
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="an OpenAI-compatible server to use (default: start our own llama.cpp)")
    parser.add_argument("--model", default=real_model_server.MODEL_ALIAS, help="the model id it offers")
    parser.add_argument("--port", type=int, default=0, help="port for our own server (default: a free one)")
    parser.add_argument("--n-ctx", type=int, default=real_model_server.DEFAULT_CONTEXT)
    parser.add_argument("--threads", type=int, default=real_model_server.DEFAULT_THREADS)
    parser.add_argument("--safety-cap", type=int, default=512,
                        help="max_tokens the proxy adds to requests sent without a cap (0: none)")
    parser.add_argument("--app-repo", type=Path, help="run the app from this checkout")
    parser.add_argument("--only", default="", help="only chats whose text contains this")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    note(machine())
    if args.app_repo is not None:
        common.REPO = args.app_repo.resolve()
        note(f"app under test: {common.REPO}")
    chosen = [chat for chat in CHATS if args.only in chat.text]
    url, stop_server = serve_model(args)
    proxy = ModelProxy(url, safety_cap=args.safety_cap or None)
    right, appends_once, appends = 0, 0, 0
    try:
        with tempfile.TemporaryDirectory(prefix="oh-chat-verifiable-") as tmp:
            proxy.phase = "setup"
            app = App(Path(tmp) / "chat", proxy, config_for(proxy, args.model, args.n_ctx), FILES)
            try:
                for number, chat in enumerate(chosen, 1):
                    proxy.phase = f"chat {number}"
                    started = time.perf_counter()
                    try:
                        run, wall, _, _ = follow_chat(app, Chat(chat.text, f"cli:bench{number}", "write" if chat.writes
                                                                else "read"))
                    except TimeoutError as exc:
                        run, wall = {"status": "hung", "response": str(exc)}, time.perf_counter() - started
                    proxy.settle()
                    answer = str(run.get("response") or "")
                    ok = run.get("status") == "completed" and chat.check(answer, app.paths.workspace)
                    right += ok
                    if chat.writes:
                        appends += 1
                        appends_once += chat.check(answer, app.paths.workspace)
                    calls = len(proxy.chats(proxy.phase))
                    tools = ", ".join(run.get("tools_used") or ()) or "none"
                    print(f"{args.model} chat {number} {chat.text!r}: {'RIGHT' if ok else 'WRONG'} (want {chat.what}; "
                          f"{run.get('status')}, {wall:.1f} s, {calls} model calls, tools {tools}) answer "
                          f"{' '.join(answer.split())[:240]!r}", flush=True)
                if appends:
                    todo = (app.paths.workspace / "todo.md").read_text(encoding="utf-8")
                    print(f"{args.model} todo.md after the chats: {todo!r}", flush=True)
            finally:
                app.close()
    finally:
        proxy.close()
        stop_server()
    print(f"{args.model} verifiable chats right: {right}/{len(chosen)}; requested appends done exactly once: "
          f"{appends_once}/{appends}", flush=True)
    wanted = 7 * len(chosen) / len(CHATS)
    print(f"BUDGET {'ok' if right >= wanted else 'MISSED'} {args.model}: verifiable chats right {right}/{len(chosen)} "
          f"(the ~0.5B budget: >= 7 of 9)", flush=True)
    return 0


if __name__ == "__main__":
    os.environ.pop("OLLAMA_HOST", None)
    sys.exit(main())
