"""Screenshots of the Memory tab with vector memory: the embedding model's health, vector and evicted badges, a
hybrid search, and the model down (light and dark).

Runs the real app (``DesktopApp`` with the real window, offscreen: no X server needed) on a fake Ollama that
serves bag-of-words embeddings, stores a few memories (one evicted from a conversation), waits for their
vectors, and saves ``memory-<scheme>.png`` (browsing), ``memory-search-<scheme>.png`` (a search matched by
text and vector) and ``memory-down-<scheme>.png`` (the embedding model stopped; a new memory waits).

    python scripts/memory_screenshots.py --out screenshots --scheme dark
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from openhuman_desktop.memory.events import MemoryAdded

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from scripts.chat_screenshots import MODEL, running_app, save, window_script_options, write_workspace  # noqa: E402

EMBEDDING = "nomic-embed-text"
NOTES = [
    ("My dentist is Dr. Lee on Elm Street; appointments by phone only.", "user", ["health"]),
    ("Anna prefers short summaries in the morning.", "user", ["people"]),
    ("Earlier in this conversation the user compared three dentists near the station and chose the one "
     "open on Saturdays.", "assistant", ["evicted", "desktop"]),
    ("The garden needs water on Sundays while it stays dry.", "user", []),
    ("Parking at the office: spot B12, level -1.", "user", ["car"]),
]


async def shoot(out: Path, scheme: str, paths: Any, ollama: Any) -> list[Path]:

    saved: list[Path] = []
    async with running_app(paths) as desktop:
        window: Any = desktop.window
        services: Any = desktop.services
        for text, source, tags in NOTES:
            memory = await services.memory.add(text, source=source, tags=tags)
            services.bus.publish(MemoryAdded(memory))
        vectors = services.vectors
        done: list[bool] = []

        async def settled() -> None:
            status = await vectors.status()
            done[:] = [status.with_vectors == status.count and status.embedding.ok]

        while not done or not done[0]:
            await settled()
            await asyncio.sleep(0.05)
        await window.jobs.wait_idle(raise_failures=False)
        window.resize(1000, 720)
        window.notice_banner.hide()
        window.show_tab("memory")
        view = window.memory_view
        await view.refresh()
        saved.append(await save(window, out / f"memory-{scheme}.png"))
        view.search_edit.setText("dentist")
        await view.search("dentist")
        saved.append(await save(window, out / f"memory-search-{scheme}.png"))
        view.search_edit.clear()
        await view.search("")
        ollama.stop()
        memory = await services.memory.add("Call the new dentist on Monday about the filling.")
        services.bus.publish(MemoryAdded(memory))
        await vectors.backfill()
        await view.on_status_changed()
        saved.append(await save(window, out / f"memory-down-{scheme}.png"))
    return saved


def main(argv: list[str] | None = None) -> int:
    args = window_script_options(__doc__, argv)
    from openhuman_desktop.qt import app as desktop_app
    from tests.fakes.model_servers import FakeOllama

    qapp = desktop_app.make_application()
    with tempfile.TemporaryDirectory(prefix="oh-memory-shots-") as tmp:
        ollama = FakeOllama()
        ollama.add_model(MODEL, context_length=131_072)
        ollama.add_model(EMBEDDING, capabilities=("embedding",))
        ollama.start()
        try:
            paths = write_workspace(Path(tmp), ollama.url,
                                f'\n[models.embedding]\nprovider = "ollama"\nmodel = "{EMBEDDING}"\n')
            with asyncio.Runner(loop_factory=lambda: desktop_app.new_event_loop(qapp)) as runner:
                runner.run(shoot(args.out.resolve(), args.scheme, paths, ollama))
        finally:
            ollama.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
