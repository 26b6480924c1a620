"""Screenshots of the first-run set-up: welcome, the server found, the models, a download in progress, a download
that failed half-way (Resume offered) and done (light or dark).

Runs the real set-up window on a fake Ollama that has two small models installed and serves downloads (the real
``/api/pull`` stream); the second download fails half-way with a full disk and is resumed. Saves
``onboarding-<page>-<scheme>.png`` for welcome, no-server (nothing answers: how to start Ollama), server,
models-small (a very small quick model: what it can and cannot do), models, pull, pull-failed and done.

    python scripts/onboarding_screenshots.py --out screenshots --scheme dark

Offscreen by default; under an X server (``QT_QPA_PLATFORM=xcb DISPLAY=:61``) it shows the window for real.
"""

from __future__ import annotations

import asyncio
import functools
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

GB = 1_000_000_000
from scripts.chat_screenshots import save, until, window_script_options  # noqa: E402

PAGES = ("welcome", "no-server", "server", "models-small", "models", "pull", "pull-failed", "done")


def pick(combo: Any, name: str) -> None:
    for index in range(combo.count()):
        option = combo.itemData(index)
        if getattr(option, "name", None) == name:
            combo.setCurrentIndex(index)
            return
    raise LookupError(f"{name} is not offered")


async def shoot_no_server(out: Path, scheme: str, config_file: Path) -> Path:
    """The server page when nothing answers (the configured host is a closed port)."""
    import socket

    from openhuman_desktop import config
    from openhuman_desktop.llm import discovery
    from openhuman_desktop.qt.onboarding import OnboardingWindow

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    settings = config.Settings(ollama_host=f"http://127.0.0.1:{closed}")
    window = OnboardingWindow(lambda: settings, config_file, environ={},
                              discover=functools.partial(discovery.discover, local_servers=()))
    window.bring_to_front()
    try:
        window.next_button.click()
        await until(lambda: window.server_page.search_button.isEnabled())
        return await save(window, out / f"onboarding-no-server-{scheme}.png")
    finally:
        await window.aclose()
        window.hide()
        window.deleteLater()


async def shoot(out: Path, scheme: str, config_file: Path, ollama: Any) -> list[Path]:
    from openhuman_desktop import config
    from openhuman_desktop.llm import discovery
    from openhuman_desktop.qt.onboarding import OnboardingWindow

    no_server = await shoot_no_server(out, scheme, config_file)

    settings = config.load(config_file, environ={}).settings
    window = OnboardingWindow(lambda: settings, config_file, environ={},
                              discover=functools.partial(discovery.discover, local_servers=()),
                              machine=discovery.Machine(16 * GB, 8))   # the same advice on every machine
    window.bring_to_front()
    shots: list[Path] = [no_server]

    def name(page: str) -> Path:
        return out / f"onboarding-{page}-{scheme}.png"

    try:
        await until(lambda: window.server_page.selected() is not None)
        shots.append(await save(window, name("welcome")))
        window.next_button.click()
        shots.append(await save(window, name("server")))
        window.next_button.click()
        pick(window.models_page.combos["local"], "qwen2.5:0.5b")   # very small: the page says what it can do
        shots.append(await save(window, name("models-small")))
        pick(window.models_page.combos["local"], "llama3.2:3b")
        pick(window.models_page.combos["reasoning"], "qwen2.5:7b")
        pick(window.models_page.combos["subconscious"], "qwen2.5:7b")
        shots.append(await save(window, name("models")))
        ollama.pull_rate = 150_000_000
        window.next_button.click()
        pull = window.pull_page
        await until(lambda: pull.progress_bar.value() >= 420 and "left" in pull.detail_label.text())
        shots.append(await save(window, name("pull")))
        ollama.pull_rate = None
        ollama.fail_pull(after_bytes=2_300_000_000, error="write /usr/share/ollama/.ollama/models/blobs/"
                                                          "sha256-2bada8a74506-partial: no space left on device")
        await until(lambda: pull.resume_button.isVisible())
        shots.append(await save(window, name("pull-failed")))
        pull.resume_button.click()
        await until(lambda: window.page_name == "done")
        shots.append(await save(window, name("done")))
    finally:
        await window.aclose()
        window.hide()
        window.deleteLater()
    return shots


def main(argv: list[str] | None = None) -> int:
    args = window_script_options(__doc__, argv)
    from openhuman_desktop import config
    from openhuman_desktop.qt import app as desktop_app
    from tests.fakes.model_servers import FakeOllama

    qapp = desktop_app.make_application()
    with tempfile.TemporaryDirectory(prefix="oh-onboarding-shots-") as tmp, FakeOllama() as ollama:
        ollama.add_model("qwen2.5:0.5b", size_bytes=397_821_319, family="qwen2", parameter_size="494.03M")
        ollama.add_model("nomic-embed-text", size_bytes=274_302_450, family="nomic-bert", parameter_size="137M")
        ollama.add_library_model("llama3.2:3b", size_bytes=2_019_393_189)
        ollama.add_library_model("qwen2.5:7b", size_bytes=4_683_087_332, family="qwen2", parameter_size="7.6B")
        ollama.pull_chunk = 8_000_000
        config_file = Path(tmp) / "config.toml"
        config_file.write_text(config.DEFAULT_CONFIG_TEXT.replace("http://127.0.0.1:11434", ollama.url),
                               encoding="utf-8")
        with asyncio.Runner(loop_factory=lambda: desktop_app.new_event_loop(qapp)) as runner:
            runner.run(shoot(args.out.resolve(), args.scheme, config_file, ollama))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
