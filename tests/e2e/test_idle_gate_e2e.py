"""The real headless app: the tick right after an all-noop evaluation costs no model call (issue 9, item 9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_headless_tick_e2e import wait_for
from tests.fakes.app_process import AppProcess
from tests.fakes.engine_harness import LOCAL_MODEL, Brain, bodies, config_text
from tests.fakes.model_servers import FakeOllama

pytestmark = pytest.mark.e2e


def test_the_second_tick_of_an_unchanged_world_makes_no_model_call(tmp_path: Path) -> None:
    with FakeOllama() as ollama:
        ollama.add_model(LOCAL_MODEL)
        ollama.add_model("qwen2.5:14b")
        ollama.set_responder(Brain())  # every task: noop
        config = config_text(local_url=ollama.url, reasoning_url=None)

        with AppProcess(tmp_path / "ws", ollama_url=ollama.url, config=config) as app:
            app.result("subconscious_tasks_add", {"title": "Check my inbox"})

            def ticks_done(count: int) -> bool:
                status = app.result("subconscious_status")
                return bool(status["total_ticks"] >= count and status["state"] != "ticking")

            app.result("subconscious_trigger")
            wait_for(lambda: ticks_done(1), what="the first tick")
            assert len(bodies(ollama, "evaluation")) == 1
            app.result("subconscious_trigger")
            wait_for(lambda: ticks_done(2), what="the second tick")

            assert len(bodies(ollama, "evaluation")) == 1, "nothing changed but the app's own bookkeeping"
            rows = app.result("subconscious_log_list")
            assert {row["decision"] for row in rows} == {"noop"}
