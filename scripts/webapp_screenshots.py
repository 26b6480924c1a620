"""Screenshots of the web app's page: the real app (``--headless``) on a scripted fake model, a conversation
with Markdown, an approval card and an answer being worked on, in Debian's chromium (light, dark, narrow).

``python scripts/webapp_screenshots.py [--out DIR]``; ``scripts/screenshots.py`` calls :func:`capture` too.
Needs no X server (headless chromium). Exit code 1 when something a person would notice went wrong.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.fakes.agent_model import AgentModel, AgentScript, call, say  # noqa: E402
from tests.fakes.app_process import AppProcess, wait_for  # noqa: E402
from tests.fakes.model_servers import FakeOllama  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
LOCAL, REASONING = "llama3.2:3b", "qwen2.5:14b"
SHOTS = (  # name, color scheme, viewport
    ("webapp-light", "light", (1100, 820)),
    ("webapp-dark", "dark", (1100, 820)),
    ("webapp-narrow", "light", (360, 760)),
    ("webapp-narrow-dark", "dark", (360, 760)),
)
PLAN_ANSWER = """Here is today, in order of urgency:

### This morning
1. **Reply to the landlord** about the heating repair — he asked for a time slot.
2. Renew the passport: it expires on *30 September*; the form takes ~10 minutes.

### Later
- Review the `Project Atlas` notes and pick three next steps
- Weekly digest to #daily (it is Friday)

| Task | When | Effort |
|---|---|---:|
| Landlord reply | 09:30 | 5 min |
| Passport form | 11:00 | 10 min |
| Atlas review | 15:00 | 45 min |

To open the notes from a terminal:

```bash
xdg-open ~/Notes/atlas.md
```

> Tip: say "remind me at 11" and I will put the passport form on the schedule."""
CARD_REPLY = ("The notes folder has 14 files; 5 are empty drafts from last year.\n"
              "RECOMMENDED ACTION: move the 5 empty drafts in Notes/ to Notes/archive/")


class ScreenshotError(Exception):
    """Something a person would have noticed went wrong."""


def config(ollama_url: str) -> str:
    return "\n".join([
        "[heartbeat]", "interval_minutes = 60", "",
        "[models.local]", 'provider = "ollama"', f'base_url = "{ollama_url}"', f'model = "{LOCAL}"', "",
        "[models.reasoning]", 'provider = "ollama"', f'base_url = "{ollama_url}"', f'model = "{REASONING}"', "",
        "[channels.webapp]", "port = 0", "",
    ])


def converse(page: Any, model: AgentModel) -> None:
    """Three messages: a Markdown answer, a question whose answer raises a card, one still being worked on."""
    box = page.locator("#composer-input")
    model.script = AgentScript(answer=PLAN_ANSWER)
    box.fill("What's on my plate today?")
    box.press("Enter")
    page.locator(".msg-assistant table").wait_for()
    # A locator, not wait_for_function: the page's CSP (script-src 'self') refuses the eval that a string
    # predicate needs in Debian's chromium 156.0.8078.114.
    page.locator(".msg-assistant[aria-busy]").first.wait_for(state="detached")
    model.script = AgentScript(
        subtasks=[("Look at the notes", "List Notes/")],
        steps={"Look at the notes": [call("files_list", path="."), say("14 files, 5 empty drafts.")]},
        reply=CARD_REPLY, answer="The notes folder has 14 files; 5 of them are empty drafts from last year. "
                                 "I can move them to an archive folder if you like.")
    box.fill("Which of my notes are empty drafts?")  # a question: its recommended change becomes a card
    box.press("Enter")
    page.locator(".card .button.primary").wait_for()
    page.locator(".msg-assistant[aria-busy]").first.wait_for(state="detached")  # its answer written too
    # The third answer is still being written when the shots are taken; its reply recommends nothing, so the
    # page holds the one card above.
    model.script = AgentScript(reply="A two-line draft for the landlord.", answer="Dear Mr Lewis, …")
    model.delays = {"pass2": 60.0}
    box.fill("And draft a two-line reply to the landlord")
    box.press("Enter")
    page.locator(".msg-assistant[aria-busy='true'] .typing").wait_for()
    time.sleep(0.6)  # let the typing words settle on the last node


def capture(out: Path) -> list[str]:
    """Take the page's screenshots into ``out``; returns the problems found (empty: all good)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    # The fake model's server complains when the app goes away in the middle of the last (slow) answer.
    logging.getLogger("aiohttp.server").setLevel(logging.CRITICAL)
    with tempfile.TemporaryDirectory(prefix="openhuman-webapp-shots-") as scratch, FakeOllama() as ollama:
        ollama.add_model(LOCAL, context_length=8192)
        ollama.add_model(REASONING, context_length=32768)
        model = AgentModel()
        ollama.set_responder(model)
        workspace = Path(scratch) / "ws"
        with AppProcess(workspace, ollama_url=ollama.url, config=config(ollama.url)), \
                sync_playwright() as playwright:
            webapp_file = workspace / "run" / "webapp.json"
            wait_for(webapp_file.exists, 20, "run/webapp.json")
            link = json.loads(webapp_file.read_text(encoding="utf-8"))
            address = f"{link['url']}#token={link['token']}"
            args = ["--no-sandbox"] if os.geteuid() == 0 else []
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
            first = browser.new_page(viewport={"width": 1100, "height": 820})
            errors: list[str] = []
            first.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            first.goto(address)
            first.wait_for_selector('#status[data-state="connected"]')
            first.wait_for_timeout(300)
            first.screenshot(path=str(out / "webapp-welcome.png"))
            converse(first, model)
            session = first.evaluate("localStorage.getItem('openhuman.session')")
            for name, scheme, (width, height) in SHOTS:
                context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme,
                                              device_scale_factor=2 if width < 500 else 1)
                # The conversation above, as a page that kept its session shows it after a reload. Stored before
                # the page's script runs: set after its socket opened, the app's late "session" frame could
                # overwrite it on a slow machine.
                context.add_init_script(f"localStorage.setItem('openhuman.session', {json.dumps(session)})")
                page = context.new_page()
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.goto(address)
                try:
                    page.wait_for_selector('#status[data-state="connected"]')
                    page.locator(".card .button.primary").wait_for()
                    page.locator(".typing").first.wait_for()  # (two when two runs of the session are under way)
                except PlaywrightTimeout as exc:  # what the page showed instead, for whoever reads the log
                    page.screenshot(path=str(out / f"{name}-failed.png"))
                    shown = " ".join(page.locator("body").inner_text().split())[:600]
                    problems.append(f"{name}: {exc.message.splitlines()[0]}; the page shows: {shown}")
                    context.close()
                    continue
                if page.evaluate("document.documentElement.scrollWidth") > width:
                    problems.append(f"{name}: the page scrolls sideways at {width} px")
                page.wait_for_timeout(400)  # the entry animations end
                page.screenshot(path=str(out / f"{name}.png"))
                if width >= 500:  # the start of the conversation too: the Markdown answer
                    page.evaluate("document.getElementById('scroller').scrollTop = 0")
                    page.screenshot(path=str(out / f"{name}-top.png"))
                context.close()
            if errors:
                problems.append("console errors: " + "; ".join(errors))
            browser.close()
            model.delays = {}
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "screenshots", help="where the PNGs go")
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    problems = capture(out)
    for problem in problems:
        print(f"webapp screenshots: {problem}", file=sys.stderr)
    print(f"web app screenshots in {out}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
