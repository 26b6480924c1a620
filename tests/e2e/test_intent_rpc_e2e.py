"""Where a task's intent came from and "May write?" over RPC (CONTRACT §4, issue 25), against the real app."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.subconscious.intent import PROBES
from tests.fakes.app_process import AppProcess
from tests.fakes.engine_harness import LOCAL_MODEL, Brain, config_text
from tests.fakes.model_servers import FakeOllama

pytestmark = pytest.mark.e2e


def wait_for(condition: Callable[[], Any], timeout: float = 30.0, what: str = "condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what} not reached within {timeout} s")


def test_a_task_the_model_would_let_write_asks_and_the_user_confirms_over_rpc(tmp_path: Path) -> None:
    brain = Brain()
    brain.intent_for = lambda title: PROBES.get(title, "write")  # passes the probes; hears a change everywhere
    with FakeOllama() as ollama:
        ollama.add_model(LOCAL_MODEL)
        ollama.set_responder(brain)
        config = config_text(local_url=ollama.url, reasoning_url=None)
        with AppProcess(tmp_path / "ws", ollama_url=ollama.url, config=config) as app:
            task = app.result("subconscious_tasks_add", {"title": "Check the weather"})
            assert (task["intent"], task["intent_source"], task["intent_suggestion"]) == ("read", "keyword", None)

            def asked() -> dict[str, Any] | None:
                return next((t for t in app.result("subconscious_tasks_list")
                             if t["id"] == task["id"] and t["intent_suggestion"]), None)

            shown = wait_for(asked, what="the model's suggestion")
            assert (shown["intent"], shown["intent_source"], shown["intent_suggestion"]) == ("read", "keyword", "write")
            error = app.error("subconscious_tasks_update", {"task_id": task["id"], "intent": "May write"})
            assert error["code"] == -32602 and "intent" in error["message"]
            confirmed = app.result("subconscious_tasks_update", {"task_id": task["id"], "intent": "write"})
            assert (confirmed["intent"], confirmed["intent_source"], confirmed["intent_suggestion"]) == (
                "write", "user", None)
            changed = app.result("subconscious_tasks_update", {"task_id": task["id"], "intent": "read"})
            assert (changed["intent"], changed["intent_source"]) == ("read", "user")
