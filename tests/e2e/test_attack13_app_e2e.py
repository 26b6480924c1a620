"""Attack on issue 13 in the real app (a subprocess, fake Ollama for every tier and the embedding model):
hostile RPC params over HTTP, memory search while the back-fill runs, and SIGTERM while a reflection waits
for the model — a clean exit, no traceback, nothing half-written, the reflection done once after restart."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.agent_model import AgentModel, AgentScript, call, say
from tests.fakes.app_process import QUIET_CONFIG, AppProcess, finished_run, wait_for
from tests.fakes.model_servers import FakeOllama, Reply
from tests.reflection.conftest import DEEP, directive_reply, is_reflection

pytestmark = pytest.mark.e2e

LOCAL_MODEL, REASONING_MODEL, EMBED_MODEL = "llama3.2:3b", "qwen2.5:14b", "nomic-embed-text"
CONFIG = (QUIET_CONFIG + f'\n[models.subconscious]\nprovider = "ollama"\nmodel = "{DEEP}"\n'
          f'\n[models.embedding]\nprovider = "ollama"\nmodel = "{EMBED_MODEL}"\n')


class Gate:
    """Reflection requests wait for ``release`` (or give a directive at once when open)."""

    def __init__(self, agent: AgentModel) -> None:
        self.agent = agent
        self.release = threading.Event()
        self.asked = threading.Event()

    def __call__(self, body: Any) -> Reply:
        if is_reflection(body):
            self.asked.set()
            if not self.release.is_set():
                return Reply(content=json.dumps({"directive": "Never seen.", "rationale": "r"}), delay=60)
            return directive_reply("Check notes.md before answering.")
        return self.agent(body)


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        for name in (LOCAL_MODEL, REASONING_MODEL, DEEP):
            server.add_model(name, context_length=32768)
        server.add_model(EMBED_MODEL, capabilities=("embedding",))
        yield server


def test_hostile_params_over_http_and_search_while_back_filling(ollama: FakeOllama, tmp_path: Path) -> None:
    with AppProcess(tmp_path / "ws", ollama_url=ollama.url, config=CONFIG) as app:
        for i in range(200):
            app.result("memory_add", {"text": f"memory {i}: the dentist is on Elm Street {i}"})
        for mode in ("hybrid", "text", "vector"):
            found = app.result("memory_search", {"query": "dentist Elm", "mode": mode, "limit": 5})
            assert len(found) <= 5
        for method, params in [
            ("steering_revert", {"version": 10 ** 30}), ("steering_revert", {"version": 2 ** 63}),
            ("steering_list", {"before": 10 ** 30}), ("steering_set", {"text": " \t\n "}),
            ("steering_set", {"text": "x" * 2_001}), ("steering_set", {"text": "a\x00b"}),
            ("steering_set", {"text": "Fine text.", "rationale": "r" * 4_001}),
            ("memory_search", {"query": "x", "mode": "fuzzy"}), ("memory_search", {"query": "x", "limit": 10 ** 30}),
            ("memory_search", {"query": "q" * 1_001}), ("memory_search", {"query": "!!!"}),
            ("memory_list", {"before": "soon"}), ("memory_status", {"x": 1}),
        ]:
            error = app.error(method, params)
            assert error["code"] == -32602, (method, error)
            assert "\n" not in error["message"] and "Internal error" not in error["message"]
        assert app.result("steering_list", {}) == []
        log = (tmp_path / "ws" / "logs" / "openhuman.log").read_text()
        assert "Traceback" not in log, log[-3000:]

        def embedded() -> Any:
            status = app.result("memory_status")
            return status if status["with_vectors"] == 200 else None

        status = wait_for(embedded, 30, "every memory's vector")
        assert status["embedding"]["ok"] and status["pending"] == 0
        found = app.result("memory_search", {"query": "dentist Elm 7", "mode": "vector", "limit": 3})
        assert found and all("vector" in m["matched_by"] for m in found)
    assert "Traceback" not in app.stderr_text()


def test_sigterm_while_reflecting_exits_cleanly_and_the_reflection_happens_once_after_restart(
        ollama: FakeOllama, tmp_path: Path) -> None:
    agent = AgentModel(AgentScript(subtasks=[("Look", "Read notes.md")],
                                   steps={"Look": [call("files_read", path="notes.md"), say("missing.")]},
                                   reply="There is no notes.md.", compression="Looked for notes.md; missing."))
    gate = Gate(agent)
    ollama.set_responder(gate)
    workspace = tmp_path / "ws"
    with AppProcess(workspace, ollama_url=ollama.url, config=CONFIG) as app:
        run = finished_run(app, app.result("agent_send", {"text": "What is in notes.md?"})["run_id"])
        assert run["status"] == "completed"
        assert app.result("reflection_trigger") == {"triggered": True}
        assert gate.asked.wait(20)
        for _ in range(50):
            assert app.result("reflection_trigger") == {"triggered": True}
        assert app.result("reflection_status")["state"] == "reflecting"
        app.stop()  # exit code 0 asserted
        stderr = app.stderr_text()
        assert "Traceback" not in stderr, stderr
        log = (workspace / "logs" / "openhuman.log").read_text()
        assert "Traceback" not in log, log[-3000:]

        gate.release.set()
        app.start()
        assert app.result("steering_list", {}) == []  # nothing half-written
        status = app.result("reflection_status")
        assert status["pending"]["history_entries"] >= 1  # still to read
        before = sum(1 for r in ollama.chat_requests if is_reflection(r.json))
        app.result("reflection_trigger")

        def reflected() -> Any:
            last = app.result("reflection_status")["last"]
            return last if last is not None and last["status"] == "directive" else None

        wait_for(reflected, 20, "the reflection after restart")
        app.result("reflection_trigger")
        wait_for(lambda: app.result("reflection_status")["last"]["status"] == "skipped", 20, "a skipped one")
        assert sum(1 for r in ollama.chat_requests if is_reflection(r.json)) == before + 1
        assert [d["version"] for d in app.result("steering_list", {})] == [1]
    assert "Traceback" not in app.stderr_text()
    assert "Traceback" not in (workspace / "logs" / "openhuman.log").read_text()
