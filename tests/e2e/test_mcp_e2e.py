"""Skills through MCP in the real app (CONTRACT §12): real MCP servers configured in config.toml exactly as §12.1
says, their tools running through a chat and through a heartbeat escalation, the gate holding (an analysis-only
run never sees ``write_file``; a chat that asked to write gets it), ``skills_list`` / ``skills_restart`` (§12.4),
the timeline entry of a write, and a config edit applied live."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakes.agent_model import SUBAGENT, AgentModel, AgentScript, call, say
from tests.fakes.app_process import QUIET_CONFIG, AppProcess, finished_run, wait_for
from tests.fakes.engine_harness import Brain, request_kind
from tests.fakes.model_servers import FakeOllama, Reply
from tests.skills.mcp_support import FIXTURE, real_server

pytestmark = pytest.mark.e2e

LOCAL_MODEL, REASONING_MODEL = "llama3.2:3b", "qwen2.5:14b"


class Both:
    """Intent and evaluation requests to the heartbeat's fake brain, everything else to the scripted agent."""

    def __init__(self, agent: AgentModel, brain: Brain) -> None:
        self.agent, self.brain = agent, brain

    def __call__(self, body: Any) -> Reply:
        if isinstance(body, dict) and request_kind(body) in ("intent", "evaluation", "repair"):
            return self.brain(body)
        return self.agent(body)


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        server.add_model(LOCAL_MODEL, context_length=8192)
        server.add_model(REASONING_MODEL, context_length=32768)
        yield server


def mcp_config(shared: Path, fixture_dir: Path) -> str:
    filesystem, time_server = real_server("mcp-server-filesystem"), real_server("mcp-server-time")
    return QUIET_CONFIG + f"""
[skills.mcp.fs]
command = {json.dumps(filesystem)}
args = [{json.dumps(str(shared))}]

[skills.mcp.time]
command = {json.dumps(time_server)}
args = ["--local-timezone", "Europe/Berlin"]

[skills.mcp.fx]
command = {json.dumps(sys.executable)}
args = [{json.dumps(str(FIXTURE))}]
env = {{ FIXTURE_DIR = {json.dumps(str(fixture_dir))} }}
write_tools = ["lying_read"]
disabled_tools = ["crash"]
watch = ["note://current"]
"""


def connected(app: AppProcess, *names: str, timeout: float = 60.0) -> dict[str, dict[str, Any]]:
    def ready() -> dict[str, dict[str, Any]] | None:
        skills = {skill["name"]: skill for skill in app.result("skills_list")}
        return skills if all(skills.get(name, {}).get("state") == "connected" for name in names) else None
    found: dict[str, dict[str, Any]] = wait_for(ready, timeout, f"MCP servers {names} connected")
    return found


def tool_texts(model: AgentModel) -> list[str]:
    return [str(m.get("content", "")) for seen in model.of(SUBAGENT) for m in seen.messages if m.get("role") == "tool"]


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    shared, fixture_dir = tmp_path / "shared", tmp_path / "fixture"
    shared.mkdir()
    fixture_dir.mkdir()
    (shared / "notes.txt").write_text("URGENT: call the plumber\n", encoding="utf-8")
    return shared.resolve(), fixture_dir


def test_skills_list_restart_and_the_gate_in_a_chat(ollama: FakeOllama, tmp_path: Path,
                                                    folders: tuple[Path, Path]) -> None:
    shared, fixture_dir = folders
    target = shared / "hello.txt"
    model = AgentModel(AgentScript(
        subtasks=[("Write the file", f"Write hello into {target}")],
        steps={"Write the file": [call("fs__write_file", path=str(target), content="hello from the chat"),
                                  say("Wrote it.")]},
        reply="hello.txt now says hello."))
    ollama.set_responder(Both(model, Brain()))
    with AppProcess(tmp_path / "ws", ollama_url=ollama.url, config=mcp_config(shared, fixture_dir)) as app:
        skills = connected(app, "fs", "time", "fx")
        fs = skills["fs"]
        assert (fs["kind"], fs["enabled"], fs["title"]) == ("mcp", True, "fs (MCP)")
        access = {tool["name"]: tool["access"] for tool in fs["tools"]}
        assert access["fs__read_text_file"] == "read" and access["fs__write_file"] == "write"
        assert access["fs__create_directory"] == "write"
        assert {tool["access"] for tool in skills["time"]["tools"]} == {"read"}
        fx = {tool["name"]: tool for tool in skills["fx"]["tools"]}
        assert fx["fx__lying_read"]["access"] == "write" and fx["fx__grant"]["access"] == "write"
        assert fx["fx__crash"]["disabled"] is True
        assert skills["fx"]["watches"] == ["note://current"]
        assert skills["files"]["kind"] == "builtin"
        assert set(skills["fs"]) >= {"name", "kind", "title", "enabled", "state", "state_reason", "tools", "watches"}

        # A chat that asked to write gets write_file, and the write is in the world timeline.
        sent = app.result("agent_send", {"text": f"Please write hello into {target}"})
        run = finished_run(app, sent["run_id"], timeout=60)
        assert run["status"] == "completed", run
        assert target.read_text(encoding="utf-8") == "hello from the chat"
        assert "fs__write_file" in model.of(SUBAGENT)[0].tools
        assert "fx__crash" not in model.every_offered_tool()
        [entry] = app.result("world_timeline", {})
        assert entry["event_signature"] == f"Skill tool wrote: fs/write_file → {target}"
        assert entry["run_id"] == run["id"]

        # skills_restart begins a restart and answers the Skill; an unknown name is -32001.
        restarted = app.result("skills_restart", {"name": "time"})
        assert restarted["name"] == "time" and restarted["state"] in ("starting", "connected")
        connected(app, "time")
        assert app.error("skills_restart", {"name": "nope"})["code"] == -32001


def test_an_analysis_only_chat_and_a_heartbeat_escalation_use_read_tools_only(
        ollama: FakeOllama, tmp_path: Path, folders: tuple[Path, Path]) -> None:
    shared, fixture_dir = folders
    model = AgentModel(AgentScript(
        subtasks=[("Tell the time", "What time is it in London?")],
        # A small model's tool call written as text (llama.cpp often answers so): parsed and run all the same.
        steps={"Tell the time": [say('<tool_call>{"name": "time__get_current_time", "arguments": '
                                     '{"timezone": "Europe/London"}}</tool_call>'), say("It is late.")],
               "The task": [call("fs__read_text_file", path=str(shared / "notes.txt")),
                            say("The notes say to call the plumber.")]},
        reply="It is late in London."))
    brain = Brain()
    brain.decide_by_title({"plumbing notes": "escalate"})
    ollama.set_responder(Both(model, brain))
    with AppProcess(tmp_path / "ws", ollama_url=ollama.url, config=mcp_config(shared, fixture_dir)) as app:
        connected(app, "fs", "time", "fx")
        run = finished_run(app, app.result("agent_send", {"text": "What time is it in London?"})["run_id"], 60)
        assert run["status"] == "completed", run
        chat_requests = model.of(SUBAGENT)
        assert "time__get_current_time" in chat_requests[0].tools
        assert not any("write_file" in name or name == "fx__grant" for name in model.every_offered_tool())
        assert any('"timezone": "Europe/London"' in text for text in tool_texts(model))

        before = len(model.of(SUBAGENT))
        app.result("subconscious_tasks_add", {"title": "Look through the plumbing notes in the shared folder"})
        app.result("subconscious_trigger")

        def escalated() -> list[dict[str, Any]]:
            runs = app.result("agent_runs_list", {"thread_id": None})
            return [r for r in runs if r["channel_source"] == "subconscious" and r["status"] == "completed"]
        [heartbeat_run] = wait_for(escalated, 60, "the escalation's run")
        assert heartbeat_run["permission"] == "read"
        heartbeat_requests = model.of(SUBAGENT)[before:]
        assert heartbeat_requests and "fs__read_text_file" in heartbeat_requests[0].tools
        assert not any("write" in name for seen in heartbeat_requests for name in seen.tools if "__" in name)
        assert any("URGENT: call the plumber" in text for text in tool_texts(model))
        assert not (shared / "lied-x.txt").exists()


def test_a_removed_table_stops_its_server_and_an_added_one_starts_live(
        ollama: FakeOllama, tmp_path: Path, folders: tuple[Path, Path]) -> None:
    shared, fixture_dir = folders
    ollama.set_responder(Both(AgentModel(), Brain()))
    config = mcp_config(shared, fixture_dir)
    with AppProcess(tmp_path / "ws", ollama_url=ollama.url, config=config) as app:
        connected(app, "fx")
        (pid_file,) = wait_for(lambda: list(fixture_dir.glob("pid-*")), 20, "the fixture's pid file")
        group = int(pid_file.read_text())
        workspace_config = tmp_path / "ws" / "config.toml"
        without_fx = config.split("[skills.mcp.fx]")[0]
        workspace_config.write_text(without_fx, encoding="utf-8")

        def gone() -> bool:
            try:
                os.killpg(group, 0)
            except ProcessLookupError:
                return True
            return False
        wait_for(gone, 30, "the removed server's process group to stop")
        assert "fx" not in {skill["name"] for skill in app.result("skills_list")}
        workspace_config.write_text(without_fx + config[len(without_fx):].replace("[skills.mcp.fx]",
                                                                                 "[skills.mcp.fx2]"))
        connected(app, "fx2")
