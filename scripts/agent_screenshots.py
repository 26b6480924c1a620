"""Screenshots of the Agent tab: a live run, a directive diff and the world timeline, light and dark.

Runs the real app (``DesktopApp`` with the real window, offscreen: no X server needed) on a fake Ollama
answered by the scripted agent model. Two runs finish first; then two steering directives are written
(as reflection would), a reflection is recorded, the world timeline gets a few real-looking entries, and a
third run is held in its reasoning step while ``agent-run-<scheme>.png`` is taken. Then
``agent-steering-<scheme>.png`` (version 1 → 2) and ``agent-timeline-<scheme>.png``.
``scripts/screenshots.py`` runs it once per scheme.

    python scripts/agent_screenshots.py --out screenshots --scheme dark
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from scripts.chat_screenshots import MODEL, running_app, save, until, window_script_options, write_workspace  # noqa: E402

SUBCONSCIOUS_MODEL = "qwen2.5:7b"
FIRST = ("Keep answers short. The user asks about the garden and the weekly bills most mornings: check notes.md "
         "and todo.md first.")
SECOND = ("Keep answers short and lead with what is due. The user asks about the garden and the weekly bills most "
          "mornings: check notes.md and todo.md first, and mention the electricity bill before Friday.")
RATIONALE = ("Both runs and two of the timeline's task changes were about bills due this week; the reminder "
             "came late once. One-off changes (a deleted draft) were left out as local variance.")
MUTATIONS = (
    ("file_written", "notes.md", "appended 86 bytes", 412, 498),
    ("memory_stored", "m-3f2a", "stored “Dentist: Dr. Lee, Tuesdays”", None, None),
    ("task_created", "Pay the electricity bill", "created, due Friday 09:00", None, None),
    ("message_sent", "telegram:42", "sent a 212-character reply", None, None),
    ("file_written", "todo.md", "ticked off “call Sam”", 164, 171),
    ("task_changed", "Water the garden", "schedule: Sundays 08:00", None, None),
    ("file_deleted", "scratch/old-draft.md", "removed", 1_204, None),
    ("memory_stored", "m-77c1", "stored “Sam prefers Saturday mornings”", None, None),
)


def build_model() -> Any:
    from tests.fakes.agent_model import AgentModel, AgentScript, call, say

    steps = {"Read the notes": [call("files_read", path="notes.md"), say("Garden: water on Sunday; tomatoes.")],
             "Read the to-do list": [call("files_read", path="todo.md"), say("Pay the bill, call Sam.")]}
    script = AgentScript(instructions="Read the notes and the to-do list and summarise them.",
                         subtasks=(("Read the notes", "Read notes.md."), ("Read the to-do list", "Read todo.md.")),
                         steps=steps, reply="Water the garden on Sunday; pay the electricity bill by Friday.",
                         answer="Water the garden on Sunday, and pay the electricity bill by Friday.",
                         compression=("Read notes.md and todo.md: garden needs water on Sunday, electricity bill "
                                      "due Friday, call Sam."))
    return AgentModel(script)


async def prepare(services: Any, model: Any) -> None:
    """Two finished runs, two directives and a reflection, a few timeline entries."""
    from openhuman_desktop.orchestration.steering import REFLECTION, DirectiveDraft, Inputs, Reflection
    from openhuman_desktop.skills.base import Mutation

    for text in ("What do my notes and my to-do list say?", "Anything due this week?"):
        run = await services.agent.send(text, "cli")
        await services.agent.wait(run.id)
    await services.ledger.append_timeline([Mutation(*m) for m in MUTATIONS[:4]], None)
    await services.steering.write(DirectiveDraft(FIRST, REFLECTION, "The user asks about the same two files.",
                                                 SUBCONSCIOUS_MODEL, Inputs(2, 1, 4, 1, 2)))
    await services.ledger.append_timeline([Mutation(*m) for m in MUTATIONS[4:]], None)
    tails = await services.ledger.tails()
    await services.steering.write(DirectiveDraft(SECOND, REFLECTION, RATIONALE, SUBCONSCIOUS_MODEL,
                                                 Inputs(tails[0], 1, tails[1], 1, tails[0])))
    latest = await services.steering.latest()
    now = services.clock.now()
    await services.ledger.record_reflection(Reflection(0, now - 4, now - 1, "schedule", "directive", "", tails[0],
                                                       tails[1], latest.version, SUBCONSCIOUS_MODEL, 3_412, 0))


async def shoot(out: Path, scheme: str, paths: Any, model: Any) -> list[Path]:

    saved: list[Path] = []
    async with running_app(paths) as desktop:
        try:
            window: Any = desktop.window
            services: Any = desktop.services
            await window.jobs.wait_idle(raise_failures=False)
            await prepare(services, model)
            window.resize(1100, 800)
            window.notice_banner.hide()
            window.show_tab("agent")
            view = window.agent_view
            await view.refresh()
            # A live run, held while it writes its answer (the fake model answers pass 2 late): its steps so
            # far, the compressed trace and the directive it used are there.
            model.delays = {"pass2": 4.0}
            live = await services.agent.send("Plan my Saturday around the garden and Sam's call.", "desktop")
            await until(lambda: view.runs.node_of(live.id) == "agent_execution", 30)
            await until(lambda: view.select_run(live.id) and view.detail.run is not None
                        and view.detail.run.id == live.id and len(view.detail.checkpoints) >= 3
                        and bool(view.detail.records), 30)
            await asyncio.sleep(0.3)
            saved.append(await save(window, out / f"agent-run-{scheme}.png"))
            view.show_page("steering")
            await view.steering_view.refresh()
            await until(lambda: view.steering_view.diff_pair[1] is not None)
            await asyncio.sleep(0.3)
            saved.append(await save(window, out / f"agent-steering-{scheme}.png"))
            view.show_page("timeline")
            await view.timeline_view.refresh()
            await asyncio.sleep(0.3)
            saved.append(await save(window, out / f"agent-timeline-{scheme}.png"))
            await services.agent.wait(live.id)   # the held answer comes; nothing is cut off at quit
        finally:
            model.delays = {}   # the answers waiting on a delay finish at once: the app quits promptly
    return saved


def main(argv: list[str] | None = None) -> int:
    args = window_script_options(__doc__, argv)
    from openhuman_desktop.qt import app as desktop_app
    from tests.fakes.model_servers import FakeOllama

    qapp = desktop_app.make_application()
    model = build_model()
    with tempfile.TemporaryDirectory(prefix="oh-agent-shots-") as tmp, FakeOllama() as ollama:
        ollama.add_model(MODEL, context_length=131_072)
        ollama.set_responder(model)
        ollama.add_model(SUBCONSCIOUS_MODEL, context_length=32_768)
        paths = write_workspace(Path(tmp), ollama.url,  # reflection has its model
                                f'\n[models.subconscious]\nprovider = "ollama"\nmodel = "{SUBCONSCIOUS_MODEL}"\n')
        with asyncio.Runner(loop_factory=lambda: desktop_app.new_event_loop(qapp)) as runner:
            runner.run(shoot(args.out.resolve(), args.scheme, paths, model))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
