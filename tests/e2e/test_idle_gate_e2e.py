"""The real headless app: the tick right after an all-noop evaluation costs no model call (issue 9, item 9)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from aiohttp import web

from tests.e2e.test_headless_tick_e2e import wait_for
from tests.fakes.app_process import AppProcess
from tests.fakes.engine_harness import LOCAL_MODEL, Brain, bodies, config_text
from tests.fakes.model_servers import FakeOllama

pytestmark = pytest.mark.e2e


class SlowToShow(FakeOllama):
    """An Ollama whose ``/api/show`` (the model check's second step) waits until the test opens the gate."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.shown = 0

    async def _handle_show(self, request: web.Request) -> web.Response:
        while not self.gate.is_set():
            await asyncio.sleep(0.01)
        response = await super()._handle_show(request)
        self.shown += 1
        return response


def test_the_tick_after_an_all_noop_evaluation_makes_no_model_call(tmp_path: Path) -> None:
    with SlowToShow() as ollama:
        ollama.add_model(LOCAL_MODEL)
        ollama.add_model("qwen2.5:14b")
        ollama.set_responder(Brain())  # every task: noop
        config = config_text(local_url=ollama.url, reasoning_url=None)

        with AppProcess(tmp_path / "ws", ollama_url=ollama.url, config=config) as app:
            app.result("subconscious_tasks_add", {"title": "Check my inbox"})

            def ticks_done(count: int) -> bool:
                status = app.result("subconscious_status")
                return bool(status["total_ticks"] >= count and status["state"] != "ticking")

            # As right after a start: the first tick runs while the model checks have no answer yet.
            app.result("subconscious_trigger")
            wait_for(lambda: ticks_done(1), what="the first tick")
            assert len(bodies(ollama, "evaluation")) == 1
            ollama.gate.set()
            wait_for(lambda: ollama.shown >= 2, what="both model checks")
            wait_for(lambda: app.result("subconscious_status")["state"] == "idle", what="the checks to land")

            app.result("subconscious_trigger")
            wait_for(lambda: ticks_done(2), what="the second tick")

            assert len(bodies(ollama, "evaluation")) == 1, "nothing changed but the app's own bookkeeping"
            assert {row["decision"] for row in app.result("subconscious_log_list")} == {"noop"}
