"""Screenshots of issue 25's desktop fixes in the real app (light or dark): a conversation taller than the Chat
tab with a failed answer in it (the tab went white), the Stop button while an answer is on its way and the
stopped answer, and the Subconscious tab with a long task list after a delete (the Undo banner in sight, the
task count on the status bar) and an activity row whose result is Markdown (read as text).

Saves ``chat-long-<scheme>.png``, ``chat-stop-<scheme>.png``, ``chat-stopped-<scheme>.png`` and
``tasks-undo-<scheme>.png``. ``scripts/screenshots.py`` runs it once per scheme.

    python scripts/desktop_screenshots.py --out screenshots --scheme dark
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from scripts.chat_screenshots import (  # noqa: E402
    MODEL,
    last_answer,
    running_app,
    save,
    until,
    window_script_options,
    write_workspace,
)

FAILED_QUESTION = "What changed in my notes since Monday?"
ANSWERS = (
    ("Good morning! What is on my list today?",
     "Three things are due today:\n\n1. Pay the electricity bill\n2. Call Sam about the weekend\n"
     "3. Water the garden (it stays dry until Sunday)"),
    ("And what did Sam write yesterday?",
     "Sam asked whether **Saturday morning** works for the call, and sent the address of the new café. He "
     "also wrote that the tickets for the concert on the 14th are booked, and that he can pick you up at "
     "seven if that suits you; he would like an answer by Thursday."),
)
MARKDOWN_RESULT = ("**Summary:** 2 new messages in `inbox/urgent` — the landlord asks about the **heating** "
                   "repair; HR wants the signed form back by Friday.\n- reply to the landlord\n- sign the form")


async def shoot_chat(out: Path, scheme: str, responder: Any) -> list[Path]:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from tests.fakes.agent_model import AgentScript

    model = responder.model
    saved: list[Path] = []
    async with running_app(write_workspace(Path(tempfile.mkdtemp(prefix="oh-desktop-shots-")),
                                           responder.url)) as desktop:
        window: Any = desktop.window
        await window.jobs.wait_idle(raise_failures=False)
        window.resize(900, 540)   # the conversation becomes taller than the list
        window.show_tab("chat")
        view = window.chat_view

        async def ask(text: str) -> None:
            before = len(view.answer_texts())
            QTest.keyClicks(view.input, text)
            QTest.keyClick(view.input, Qt.Key.Key_Return)
            await until(lambda: len(view.answer_texts()) > before and not view.model.working_count)

        model.script = AgentScript(answer=ANSWERS[0][1])
        await ask(ANSWERS[0][0])
        model.script = AgentScript(fail={"plan"})                  # the reasoning model answers HTTP 500
        await ask(FAILED_QUESTION)
        model.script = AgentScript(answer=ANSWERS[1][1])
        await ask(ANSWERS[1][0])
        await asyncio.sleep(0.6)                                   # the rows were measured anew forever before
        saved.append(await save(window, out / f"chat-long-{scheme}.png"))
        model.delays = {"plan": 60}                                # an answer that takes its time
        QTest.keyClicks(view.input, "Summarise every note I wrote this year")
        QTest.keyClick(view.input, Qt.Key.Key_Return)
        await until(lambda: view.stop_button.isVisible() and "agent_execution" not in last_answer(view).nodes)
        await asyncio.sleep(0.4)
        saved.append(await save(window, out / f"chat-stop-{scheme}.png"))
        view.stop_button.click()
        await until(lambda: last_answer(view).status == "cancelled")
        model.delays = {}
        await asyncio.sleep(0.4)
        saved.append(await save(window, out / f"chat-stopped-{scheme}.png"))
    return saved


async def shoot_tasks(out: Path, scheme: str, responder: Any) -> list[Path]:
    paths = write_workspace(Path(tempfile.mkdtemp(prefix="oh-desktop-shots-")), responder.url)
    async with running_app(paths) as desktop:
        window: Any = desktop.window
        services: Any = desktop.services
        await window.jobs.wait_idle(raise_failures=False)
        for n, title in enumerate(("Check urgent emails", "Send daily summary to Slack", "Summarize Notion updates",
                                   "Remind me to renew the passport", "Back up the photos folder",
                                   "Tidy the downloads folder", "Read the tenancy agreement", "Plan the garden",
                                   "Follow up with the accountant", "Check the heating repair", "Renew the domain",
                                   "Book the dentist", "Sort the receipts of March")):
            await services.subconscious.tasks_add(title, "pending" if n % 2 else "cron:0 9 * * 1-5")
        tasks = [task for task in await services.subconscious.tasks_list() if not task.is_system]
        now = time.time()
        entry = await services.store.log.start(tasks[0].id, tasks[0].title, now - 120, 1, now - 120)
        await services.store.log.finish(entry.id, "act", MARKDOWN_RESULT, 4200, now - 115)
        window.resize(1100, 700)
        window.show_tab("subconscious")
        await window.refresh()
        await window.jobs.wait_idle(raise_failures=False)
        view = window.tasks_view
        await until(lambda: view.task(tasks[3].id) is not None)
        await view.remove_task(tasks[3].id)                        # "Remind me to renew the passport"
        await until(lambda: view.undo_bar.isVisible())
        await until(lambda: window.status_bar_view.tasks_label.text() == f"{len(tasks) + 2} tasks", 10)
        await asyncio.sleep(0.3)
        return [await save(window, out / f"tasks-undo-{scheme}.png")]


def main(argv: list[str] | None = None) -> int:
    args = window_script_options(__doc__, argv)
    from openhuman_desktop.qt import app as desktop_app
    from tests.fakes.agent_model import AgentModel
    from tests.fakes.model_servers import FakeOllama

    qapp = desktop_app.make_application()
    with FakeOllama() as ollama:
        ollama.add_model(MODEL, context_length=131_072)
        model = AgentModel()
        ollama.set_responder(model)
        ollama.model = model   # type: ignore[attr-defined]
        with asyncio.Runner(loop_factory=lambda: desktop_app.new_event_loop(qapp)) as runner:
            runner.run(shoot_chat(args.out.resolve(), args.scheme, ollama))
            runner.run(shoot_tasks(args.out.resolve(), args.scheme, ollama))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
