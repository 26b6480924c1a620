"""Reflection and steering in the real app (CONTRACT §10), with the fake Ollama serving all three tiers:
a marker planted in a chat message never reaches a reflection request; the directive reaches the next run's
reasoning requests, its state and its ``steering_version``; revert and version 0; nothing new → no call.
And in this process, on the fake clock: the app's schedule fires and ``reflection_status`` says so."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop import bootstrap, config, recurrence
from openhuman_desktop.orchestration import graph
from openhuman_desktop.orchestration.events import ReflectionFinished
from openhuman_desktop.orchestration.state import COMPRESSED_HISTORY
from openhuman_desktop.paths import Paths
from tests.fakes.agent_model import PLAN, REPLY, AgentModel, AgentScript, call, say
from tests.fakes.app_process import QUIET_CONFIG, AppProcess, finished_run, wait_for
from tests.fakes.clock import FakeClock
from tests.fakes.model_servers import FakeOllama, Reply
from tests.reflection.conftest import DEEP, directive_reply, is_reflection

pytestmark = pytest.mark.e2e

LOCAL_MODEL, REASONING_MODEL = "llama3.2:3b", "qwen2.5:14b"
MARKER = "ZEBRA-MARKER-5d41402abc4b2a76"
DIRECTIVE = "Check notes.md before answering questions about notes."
CONFIG = QUIET_CONFIG + f'\n[models.subconscious]\nprovider = "ollama"\nmodel = "{DEEP}"\n'


class Responder:
    """Reflection requests get a directive; everything else is the scripted agent."""

    def __init__(self, agent: AgentModel) -> None:
        self.agent = agent

    def __call__(self, body: Any) -> Reply:
        if is_reflection(body):
            return directive_reply(DIRECTIVE, "The user keeps asking about notes.")
        return self.agent(body)


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        for name in (LOCAL_MODEL, REASONING_MODEL, DEEP):
            server.add_model(name, context_length=32768)
        yield server


def script() -> AgentScript:
    return AgentScript(subtasks=[("Look at the notes", "Read notes.md")],
                       steps={"Look at the notes": [call("files_read", path="notes.md"), say("notes.md is missing.")]},
                       reply="There is no notes.md.", compression="Looked for notes.md; it is missing.")


def reflection_bodies(server: FakeOllama) -> list[str]:
    return [json.dumps(r.json) for r in server.chat_requests if is_reflection(r.json)]


def last_reflection(app: AppProcess, after: int) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        last = app.result("reflection_status")["last"]
        return last if last is not None and last["id"] > after else None
    found: dict[str, Any] = wait_for(done, 20, "a reflection")
    return found


def test_reflection_never_sees_the_chat_and_its_directive_steers_the_next_run(
        ollama: FakeOllama, tmp_path: Path) -> None:
    agent = AgentModel(script())
    ollama.set_responder(Responder(agent))
    with AppProcess(tmp_path / "ws", ollama_url=ollama.url, config=CONFIG) as app:
        first = finished_run(app, app.result("agent_send", {"text": f"What is in my notes? {MARKER}"})["run_id"])
        assert first["status"] == "completed" and first["steering_version"] is None
        assert any(MARKER in json.dumps(seen.body) for seen in agent.of(PLAN))  # the agent did see it

        assert app.result("reflection_trigger") == {"triggered": True}
        reflected = last_reflection(app, 0)
        assert reflected["status"] == "directive", reflected
        bodies = reflection_bodies(ollama)
        assert len(bodies) == 1 and "Looked for notes.md; it is missing." in bodies[0]
        assert MARKER not in bodies[0]
        assert not any(MARKER in body for body in bodies)

        current = app.result("steering_current")
        assert (current["text"], current["source"], current["version"]) == (DIRECTIVE, "reflection", 1)
        assert current["inputs"]["history_entries"] == 1
        # The idle thread has it in its state at once (a subconscious_cron checkpoint) ...
        state = app.result("agent_state_get", {"thread_id": "desktop"})
        assert state["values"]["subconscious_steering"] == {"version": 1, "text": DIRECTIVE}

        # ... nothing new since: the next reflection makes no request.
        app.result("reflection_trigger")
        assert last_reflection(app, reflected["id"])["status"] == "skipped"
        assert len(reflection_bodies(ollama)) == 1

        plans = agent.count(PLAN)
        second = finished_run(app, app.result("agent_send", {"text": "And now?"})["run_id"])
        assert second["status"] == "completed" and second["steering_version"] == 1
        steered = [seen for seen in agent.of(PLAN)[plans:] + agent.of(REPLY)[-1:]]
        assert steered and all(DIRECTIVE in json.dumps(seen.body) for seen in steered)
        state = app.result("agent_state_get", {"thread_id": "desktop"})
        assert state["values"]["subconscious_steering"] == {"version": 1, "text": DIRECTIVE}

        cleared = app.result("steering_revert", {"version": 0})
        assert (cleared["version"], cleared["text"], cleared["source"]) == (2, "", "revert")
        assert app.result("steering_current") is None
        plans = agent.count(PLAN)
        third = finished_run(app, app.result("agent_send", {"text": "Once more?"})["run_id"])
        assert third["steering_version"] is None
        assert not any(DIRECTIVE in json.dumps(seen.body) for seen in agent.of(PLAN)[plans:])
        assert app.result("agent_state_get", {"thread_id": "desktop"})["values"]["subconscious_steering"] is None

        back = app.result("steering_revert", {"version": 1})
        assert (back["version"], back["text"], back["reverted_to"]) == (3, DIRECTIVE, 1)
        assert [d["version"] for d in app.result("steering_list", {})] == [3, 2, 1]
        assert app.result("steering_current")["version"] == 3
        assert app.error("steering_revert", {"version": 99})["code"] == -32001
    assert not any(MARKER in body for body in reflection_bodies(ollama))


@pytest.mark.logs_expected(r"The local model's answer was unusable: the answer holds no")
async def test_the_apps_schedule_fires_on_the_fake_clock(ollama: FakeOllama, tmp_path: Path) -> None:
    ollama.set_responder(Responder(AgentModel(script())))
    paths = Paths(tmp_path / "ws")
    paths.ensure()
    paths.config_file.write_text(CONFIG + f'\n[ollama]\nhost = "{ollama.url}"\n', encoding="utf-8")
    clock = FakeClock()
    services = await bootstrap.build(paths, config.load(paths.config_file), clock)
    try:
        await services.start()
        for _ in range(10):
            await asyncio.sleep(0)
        due = recurrence.next_run(recurrence.parse("cron:0 3 * * *"), clock.now())
        assert due is not None
        status = (await services.reflection.status()).to_json()
        assert (status["state"], status["next_at"], status["problem"]) == ("idle", due, None)
        await services.ledger.update_state("desktop", {COMPRESSED_HISTORY: [
            {"run_id": None, "text": "Looked at the notes.", "trace_tokens": 40, "summary_tokens": 8,
             "at": clock.now()}]}, graph.SUBCONSCIOUS_CRON)
        finished: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        services.bus.subscribe(ReflectionFinished,
                               lambda e: finished.done() or finished.set_result(e.reflection))
        await clock.advance(due - clock.now() + 1)
        await asyncio.wait_for(finished, 20)
        await services.reflection.wait_idle()
        [fired] = await services.ledger.reflections()
        assert (fired.trigger, fired.status) == ("schedule", "directive")
        assert (await services.steering.current_directive()).text == DIRECTIVE  # type: ignore[union-attr]
        assert len(reflection_bodies(ollama)) == 1
    finally:
        await services.aclose()
