"""Screenshots of the Chat tab: a long streamed answer, its folded progress and an approval card, light and dark.

Runs the real app (``DesktopApp`` with the real window, offscreen: no X server needed) on a fake Ollama
answered by the scripted agent model, sends two messages through the Chat tab like a person (typing and
Enter), and saves ``chat-working-<scheme>.png`` (working), ``chat-streaming-<scheme>.png`` (mid stream),
``chat-<scheme>.png`` (finished, with a card) and ``chat-approved-<scheme>.png`` (after Go ahead) into the
output folder. ``scripts/screenshots.py`` runs it once per scheme.

    python scripts/chat_screenshots.py --out screenshots --scheme dark
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

MODEL = "llama3.2:3b"
QUESTION = "What do my notes and my to-do list say? Keep it short."
FOLLOW_UP = "And what should I do about the garden this week?"
ANSWER = """Here is what I found in your workspace:

## Notes (`notes.md`)
- The **garden** needs water on *Sunday* — the forecast says it stays dry.
- The tomatoes are ready to be tied up.

## To-do list (`todo.md`)
1. Pay the electricity bill (due Friday).
2. Call Sam about the weekend.

Nothing there is urgent today. If you like, I can send Sam a short note so the call is on his radar:

```
Hi Sam — can we talk on Saturday morning?
```
"""
SECOND_ANSWER = ("Water the garden on **Sunday** morning, before it gets hot, and tie up the tomatoes while you "
                 "are there. A quick check on Wednesday evening is enough otherwise.")
ACTION = "Write Sam a short note in notes/sam.md asking to talk on Saturday morning"


def build_model() -> Any:
    from tests.fakes.agent_model import PASS2, AgentModel, AgentScript, call, kind_of, say
    from tests.fakes.model_servers import Reply

    steps = {"Read the notes": [call("files_read", path="notes.md"), say("Garden: water on Sunday; tomatoes.")],
             "Read the to-do list": [call("files_read", path="todo.md"), say("Pay the bill, call Sam.")]}
    script = AgentScript(instructions="Read the notes and the to-do list and summarise them.",
                         subtasks=(("Read the notes", "Read notes.md."), ("Read the to-do list", "Read todo.md.")),
                         steps=steps, reply=f"Summary of the two files.\nRECOMMENDED ACTION: {ACTION}",
                         answer=ANSWER)
    model = AgentModel(script)
    model.delays = {"pass2": 2.5}

    def respond(body: Any) -> Reply:
        reply = model(body)
        messages = [m for m in (body.get("messages") or []) if isinstance(m, dict)] if isinstance(body, dict) else []
        if kind_of(messages) == PASS2:
            return dataclasses.replace(reply, pieces=120)
        return reply

    respond.model = model  # type: ignore[attr-defined]
    return respond


def write_workspace(root: Path, ollama_url: str, extra_config: str = "") -> Any:
    """A workspace whose config points both tiers at the fake Ollama, plus ``extra_config`` (more tables)."""
    from openhuman_desktop.paths import Paths

    paths = Paths(root / "workspace")
    paths.ensure()
    paths.config_file.write_text(
        "[heartbeat]\ninterval_minutes = 10080\ninference_enabled = false\n\n"
        f'[ollama]\nhost = "{ollama_url}"\n\n'
        f'[models.local]\nprovider = "ollama"\nmodel = "{MODEL}"\n\n'
        f'[models.reasoning]\nprovider = "ollama"\nmodel = "{MODEL}"\n\n'
        "[channels.webapp]\nenabled = false\n" + extra_config,
        encoding="utf-8")
    (paths.workspace / "notes.md").write_text("# Notes\n\nThe garden needs water on Sunday.\n", encoding="utf-8")
    (paths.workspace / "todo.md").write_text("- pay the bill\n- call Sam\n", encoding="utf-8")
    return paths


async def until(predicate: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the window did not get there in time")
        await asyncio.sleep(0.02)


async def shoot(out: Path, scheme: str, paths: Any, responder: Any) -> list[Path]:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest


    saved: list[Path] = []
    async with running_app(paths) as desktop:
        window: Any = desktop.window
        await window.jobs.wait_idle(raise_failures=False)
        window.resize(1100, 860)
        window.notice_banner.hide()
        window.show_tab("chat")
        view = window.chat_view
        for text, answer in ((QUESTION, ANSWER), (FOLLOW_UP, SECOND_ANSWER)):
            responder.model.script.answer = answer
            if answer == SECOND_ANSWER:
                responder.model.script.reply = "Water on Sunday."
                responder.model.delays = {}
            QTest.keyClicks(view.input, text)
            QTest.keyClick(view.input, Qt.Key.Key_Return)
            before = len(view.answer_texts())
            await until(lambda n=before: len(view.answer_texts()) > n)
            if answer == ANSWER:
                # The answer's stream is held back for a moment (the fake model is fast): first the
                # working indicator, then the first half of the answer as it looks mid-stream.
                await until(lambda: "agent_execution" in last_answer(view).nodes, 30)
                await asyncio.sleep(0.2)
                saved.append(await save(window, out / f"chat-working-{scheme}.png"))
                run_id = last_answer(view).run_id
                window.desktop_channel.streamed.emit(run_id, ANSWER[: len(ANSWER) // 2])
                view.model.flush()
                await asyncio.sleep(0.2)
                saved.append(await save(window, out / f"chat-streaming-{scheme}.png"))
            await until(lambda a=answer: view.answer_texts()[-1].startswith(a[:40]) and not view.model.working_count)
            await until(lambda: view.model.working_count == 0)
        await until(lambda: any(row.kind == "card" for row in view.model.rows()))
        first = next(n for n, row in enumerate(view.model.rows()) if row.kind == "answer")
        view.model.toggle_expanded(first)   # one answer's progress unfolded
        await asyncio.sleep(0.3)
        view.list_view.scroll_to_end()
        await asyncio.sleep(0.2)
        saved.append(await save(window, out / f"chat-{scheme}.png"))
        # Go ahead: the card says so, and the action's answer comes into the chat under a note.
        from tests.fakes.agent_model import call, say

        done = "Done — the note for Sam is in notes/sam.md."
        responder.model.script.answer = done
        # The action's run: one piece of work, which really writes what the card named (issue 25: a Go ahead
        # that changed nothing is not done, and its card would come back).
        responder.model.script.steps = {"The task": [
            call("files_write", path="notes/sam.md", text="Hi Sam, can we talk on Saturday morning?\n"), say(done)]}
        card = view.list_view.cards()[0]
        QTest.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
        await until(lambda: len(view.answer_texts()) == 3 and not view.model.working_count)
        await asyncio.sleep(0.3)
        view.list_view.scroll_to_end()
        await asyncio.sleep(0.2)
        saved.append(await save(window, out / f"chat-approved-{scheme}.png"))
    return saved


def last_answer(view: Any) -> Any:
    return [row for row in view.model.rows() if row.kind == "answer"][-1]


@contextlib.asynccontextmanager
async def running_app(paths: Any) -> AsyncIterator[Any]:
    """The real app on ``paths`` (no tray: the window stands alone), started and ready; quit and awaited after."""
    from openhuman_desktop import config
    from openhuman_desktop.qt import app as desktop_app

    desktop = desktop_app.DesktopApp(paths, config.load(paths.config_file, environ={}), tray_available=False)
    serving = asyncio.ensure_future(desktop_app.serve(desktop))
    try:
        await until(lambda: desktop.is_ready or serving.done())
        if serving.done():
            serving.result()  # it failed to start: say why
        yield desktop
    finally:
        desktop.request_quit()
        await serving


async def save(window: Any, path: Path) -> Path:
    banner = getattr(window, "notice_banner", None)
    if banner is not None:
        banner.hide()             # no tray here: the card's notification went to the Intelligence window's banner
    await asyncio.sleep(0.15)     # the loop lays the window out again (never processEvents() inside a task)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(path)):
        raise RuntimeError(f"could not save {path}")
    print(f"saved {path}", flush=True)
    return path


def window_script_options(doc: str | None, argv: list[str] | None) -> argparse.Namespace:
    """``--out DIR --scheme light|dark`` of a window's screenshot script; sets the colour scheme, offscreen Qt
    unless there is a display, and no ``OLLAMA_HOST`` (the fakes' address is written into the workspace)."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n", 1)[0])
    parser.add_argument("--out", type=Path, default=REPO / "screenshots")
    parser.add_argument("--scheme", choices=("light", "dark"), default="light")
    args = parser.parse_args(argv)
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["OPENHUMAN_COLOR_SCHEME"] = args.scheme
    os.environ.pop("OLLAMA_HOST", None)
    return args


def main(argv: list[str] | None = None) -> int:
    args = window_script_options(__doc__, argv)
    from openhuman_desktop.qt import app as desktop_app
    from tests.fakes.model_servers import FakeOllama

    qapp = desktop_app.make_application()
    responder = build_model()
    with tempfile.TemporaryDirectory(prefix="oh-chat-shots-") as tmp, FakeOllama() as ollama:
        ollama.add_model(MODEL, context_length=131_072)
        ollama.set_responder(responder)
        paths = write_workspace(Path(tmp), ollama.url)
        with asyncio.Runner(loop_factory=lambda: desktop_app.new_event_loop(qapp)) as runner:
            runner.run(shoot(args.out.resolve(), args.scheme, paths, responder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
