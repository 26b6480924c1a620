"""The agent in the real app (CONTRACT §8): a chat over RPC and through ``chat``, its node sequence, a write
the user asked for happening once and in the timeline, a read-only question that is analysis-only, and a
conversation card carried out in its thread."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fakes.agent_model import SUBAGENT, AgentModel, AgentScript, call, say
from tests.fakes.app_process import QUIET_CONFIG, AppProcess, finished_run, run_cli
from tests.fakes.engine_harness import WRITE_TOOLS
from tests.fakes.model_servers import FakeOllama

pytestmark = pytest.mark.e2e

LOCAL_MODEL, REASONING_MODEL = "llama3.2:3b", "qwen2.5:14b"
NODE_SEQUENCE = ["channel_ingestion", "frontend_agent", "agent_execution", "frontend_agent", "context_manager_hook"]


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        server.add_model(LOCAL_MODEL, context_length=8192)
        server.add_model(REASONING_MODEL, context_length=32768)
        yield server


def write_script() -> AgentScript:
    return AgentScript(
        subtasks=[("Write the note", "Put hello into notes.md")],
        steps={"Write the note": [call("files_write", path="notes.md", text="hello\n"), say("Wrote notes.md.")]},
        reply="notes.md now says hello.",
    )


def test_a_chat_the_user_asked_to_write_writes_once_and_shows_in_the_timeline(
    ollama: FakeOllama, tmp_path: Path
) -> None:
    model = AgentModel(write_script())
    ollama.set_responder(model)
    with AppProcess(tmp_path / "ws", ollama_url=ollama.url) as app:
        sent = app.result("agent_send", {"text": "Please write hello into notes.md"})
        assert sent["thread_id"] == "desktop"
        run = finished_run(app, sent["run_id"])
        assert run["status"] == "completed", run
        assert run["response"] == "Answer: notes.md now says hello."
        assert (tmp_path / "ws" / "notes.md").read_text() == "hello\n"
        history = app.result("agent_history", {"thread_id": "desktop"})
        assert [checkpoint["node"] for checkpoint in reversed(history)] == NODE_SEQUENCE
        [entry] = app.result("world_timeline", {})
        assert (entry["sequence"], entry["run_id"]) == (1, run["id"])
        assert entry["event_signature"] == "File written: notes.md"
        state = app.result("agent_state_get", {"thread_id": "desktop"})
        assert state["next"] is None
        values = state["values"]
        assert [m["role"] for m in values["messages"]] == ["user", "assistant"]
        assert values["channel_response"] == run["response"]
        [compressed] = values["compressed_history"]
        assert compressed["run_id"] == run["id"] and compressed["summary_tokens"] <= max(
            -(-compressed["trace_tokens"] // 20), 32)
        assert values["world_state_diff"]["evolution_timeline"] == [entry]
    assert sum(1 for seen in model.of(SUBAGENT) for m in seen.messages if m.get("role") == "tool") == 1


def test_a_read_only_question_is_analysis_only_and_its_recommendation_is_a_card(
    ollama: FakeOllama, tmp_path: Path
) -> None:
    model = AgentModel(AgentScript(
        subtasks=[("Look at the notes", "Read notes.md")],
        steps={"Look at the notes": [call("files_read", path="notes.md"), say("notes.md is missing.")]},
        reply="There is no notes.md.\nRECOMMENDED ACTION: create notes.md with the text hello",
    ))
    ollama.set_responder(model)
    workspace = tmp_path / "ws"
    with AppProcess(workspace, ollama_url=ollama.url) as app:
        sent = app.result("agent_send", {"text": "What is in my notes?", "thread_id": "webapp:s1"})
        run = finished_run(app, sent["run_id"])
        assert run["status"] == "completed" and run["permission"] == "read", run
        offered = model.every_offered_tool()
        assert offered and not offered & WRITE_TOOLS  # withheld, not merely forbidden
        [card] = app.result("subconscious_escalations_list", {"status": "pending"})
        assert (card["task_id"], card["run_id"], card["thread_id"]) == (None, run["id"], "webapp:s1")
        assert card["description"] == "create notes.md with the text hello"
        assert not (workspace / "notes.md").exists()

        # Go ahead: the approved action runs in the card's thread with write tools, once.
        model.script = AgentScript(steps={"The task": [
            call("files_write", path="notes.md", text="hello\n"), say("Created notes.md.")]})
        app.result("subconscious_escalations_approve", {"escalation_id": card["id"]})
        deadline = time.monotonic() + 30
        while True:  # the card turns approved a moment before its run is queued: wait for the run's end
            runs = app.result("agent_runs_list", {"thread_id": "webapp:s1"})
            approved = [r for r in runs if r["purpose"] == "approved"]
            if approved and approved[0]["status"] not in ("queued", "running"):
                break
            assert time.monotonic() < deadline, runs
            time.sleep(0.05)
        assert [r["purpose"] for r in runs] == ["approved", "chat"]
        assert runs[0]["status"] == "completed" and runs[0]["permission"] == "write"
        assert (workspace / "notes.md").read_text() == "hello\n"
        assert len(app.result("world_timeline", {})) == 1


def test_chat_streams_the_answer_in_the_terminal(ollama: FakeOllama, tmp_path: Path) -> None:
    ollama.set_responder(AgentModel(AgentScript(answer="Hello there! Nothing needed doing.")))
    with AppProcess(tmp_path / "ws", ollama_url=ollama.url, config=QUIET_CONFIG) as app:
        done = run_cli("--workspace", app.workspace, "chat", "hi", ollama_url=ollama.url)
        assert done.returncode == 0, done.stderr
        assert done.stdout == "Hello there! Nothing needed doing.\n"
        [run] = app.result("agent_runs_list", {"thread_id": "cli"})
        assert run["status"] == "completed"


def test_a_run_whose_reasoning_model_is_down_fails_with_one_sentence_and_the_next_works(
    ollama: FakeOllama, tmp_path: Path
) -> None:
    model = AgentModel(AgentScript(fail={"plan"}))
    ollama.set_responder(model)
    with AppProcess(tmp_path / "ws", ollama_url=ollama.url) as app:
        done = run_cli("--workspace", app.workspace, "chat", "--thread", "desktop", "hi", ollama_url=ollama.url)
        assert done.returncode == 1
        assert "reasoning model" in done.stderr and "Traceback" not in done.stderr
        model.script = AgentScript()
        again = run_cli("--workspace", app.workspace, "chat", "--thread", "desktop", "hi again",
                        ollama_url=ollama.url)
        assert again.returncode == 0, again.stderr
        runs = app.result("agent_runs_list", {"thread_id": "desktop"})
        assert [r["status"] for r in runs] == ["completed", "failed"]
        error = runs[1]["error"]
        assert error.startswith("The reasoning model (agentic-v1) failed") and "[models.reasoning]" in error
