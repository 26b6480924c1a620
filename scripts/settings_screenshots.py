"""Screenshots of the Settings window: each section, the model lists from the servers, a refused value, a save
applied live (light and dark).

Runs the real app (``DesktopApp`` with the real Intelligence window; offscreen unless QT_QPA_PLATFORM or DISPLAY
say otherwise) on a fake Ollama with a few models and a fake OpenAI-compatible server, opens Settings the way the
tray's "Settings…" does, and saves ``settings-<section>-<scheme>.png`` for every section,
``settings-models-more-<scheme>.png`` (the optional tiers), ``settings-refused-<scheme>.png`` (quiet hours
"25:00-07:00" refused with the loader's sentence) and ``settings-applied-<scheme>.png`` (saved, then applied by
the running app's watcher).

    python scripts/settings_screenshots.py --out screenshots --scheme dark
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from scripts.chat_screenshots import MODEL, running_app, until, window_script_options, write_workspace  # noqa: E402

OLLAMA_MODELS = ("qwen2.5:0.5b", "qwen2.5:14b", "phi4-mini")
OPENAI_MODELS = ("agentic-v1", "agentic-v1-long")
KEY_VARIABLE = "LLAMA_SERVER_KEY"
WIDTH, HEIGHT = 940, 720


def extra_config(openai_url: str) -> str:
    return (
        "\n# My own notes: the laptop runs the small model; the reasoning model is the llama.cpp box.\n"
        "[notifications]\nenabled = true\nquiet_hours = \"22:00-07:00\"   # no pop-ups at night\n\n"
        "[channels.telegram]\nenabled = true\ntoken_env = \"TELEGRAM_BOT_TOKEN\"\nallowed_chat_ids = [123456789]\n"
    ) + (
        "\n[models.subconscious]\nprovider = \"openai\"\n"
        f"base_url = \"{openai_url}\"\nmodel = \"agentic-v1-long\"\napi_key_env = \"{KEY_VARIABLE}\"\n")


async def save(window: Any, path: Path) -> Path:
    await asyncio.sleep(0.15)      # the loop lays the window out again (never processEvents() inside a task)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not window.grab().save(str(path)):
        raise RuntimeError(f"could not save {path}")
    print(f"saved {path}", flush=True)
    return path


async def shoot(out: Path, scheme: str, paths: Any) -> list[Path]:

    saved: list[Path] = []
    async with running_app(paths) as desktop:
        desktop.open_settings()
        window: Any = desktop.settings_window
        window.resize(WIDTH, HEIGHT)
        tiers = window.tiers
        await until(lambda: tiers["local"].listed_models and tiers["subconscious"].listed_models)
        for section in window.sections:
            window.show_section(section.name)
            saved.append(await save(window, out / f"settings-{section.name}-{scheme}.png"))
        window.show_section("models")
        scroll = window.pages.currentWidget().verticalScrollBar()
        scroll.setValue(scroll.maximum())
        saved.append(await save(window, out / f"settings-models-more-{scheme}.png"))
        scroll.setValue(0)

        window.show_section("general")
        quiet = window.field("notifications.quiet_hours").widget
        quiet.setText("25:00-07:00")
        quiet.textEdited.emit(quiet.text())
        await window.save()
        saved.append(await save(window, out / f"settings-refused-{scheme}.png"))
        quiet.setText("23:00-07:00")
        quiet.textEdited.emit(quiet.text())
        window.show_section("heartbeat")
        window.field("heartbeat.interval_minutes").widget.setValue(15)
        await window.save()
        await until(lambda: window.status_label.text().startswith("Saved — applied"), timeout=20)
        saved.append(await save(window, out / f"settings-applied-{scheme}.png"))
    return saved


def main(argv: list[str] | None = None) -> int:
    args = window_script_options(__doc__, argv)
    os.environ[KEY_VARIABLE] = "local-secret-not-shown"
    from openhuman_desktop.qt import app as desktop_app
    from tests.fakes.model_servers import FakeOllama, FakeOpenAI

    qapp = desktop_app.make_application()
    with tempfile.TemporaryDirectory(prefix="oh-settings-shots-") as tmp, FakeOllama() as ollama, \
            FakeOpenAI(require_api_key="local-secret-not-shown") as openai:
        for name in (MODEL, *OLLAMA_MODELS):
            ollama.add_model(name)
        ollama.add_model("nomic-embed-text", family="nomic-bert", capabilities=("embedding",))
        for name in OPENAI_MODELS:
            openai.add_model(name)
        paths = write_workspace(Path(tmp), ollama.url, extra_config(openai.url))
        paths.config_file.write_text(paths.config_file.read_text(encoding="utf-8").replace(
            f'[models.reasoning]\nprovider = "ollama"\nmodel = "{MODEL}"\n',
            '[models.reasoning]\nprovider = "ollama"\nmodel = "qwen2.5:14b"\n'), encoding="utf-8")
        with asyncio.Runner(loop_factory=lambda: desktop_app.new_event_loop(qapp)) as runner:
            saved = runner.run(shoot(args.out.resolve(), args.scheme, paths))
    print(f"{len(saved)} settings screenshots ({args.scheme}) in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
