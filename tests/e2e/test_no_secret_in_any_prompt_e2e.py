"""A full session of the real app (``--headless``, a subprocess) on every fake: nothing the app itself wrote
reaches a model (issue 25, "No secret in any prompt").

One session: user files (two of them hard links to the app's token files, one folder a symbolic link into
``channels/``), a memory with an embedding model, a heartbeat tick whose read task escalates to the reasoning
tier (an OpenAI-compatible endpoint with an API key, as a cloud one would be) and whose write task acts and
notifies, a chat on every channel (the desktop's service, the web app over its real WebSocket, Telegram on the
fake Bot API, the CLI's ``chat``), Go ahead on a card, a reflection, a memory search. Every tool-using model asks
for every file that holds a secret. Then:

* no request any model server received carries the RPC token, the web app's key, the bot token, the API key,
  a line of config.toml, database content or a log line;
* every path the app created during the session (temporary files included, seen by inotify) is on the one list
  of the app's own files (``app_files``);
* after a chat, with nothing of the user's changed, the next tick makes no model call.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from openhuman_desktop.app_files import is_listed
from tests.fakes.agent_model import SUBAGENT, AgentModel, AgentScript, kind_of
from tests.fakes.app_process import AppProcess, finished_run, run_cli, wait_for
from tests.fakes.created_names import CreatedNames
from tests.fakes.engine_harness import Brain, first_user_text, request_kind
from tests.fakes.model_servers import FakeOllama, FakeOpenAI, RecordedRequest, Reply
from tests.fakes.telegram_api import TOKEN as BOT_TOKEN
from tests.fakes.telegram_api import FakeTelegram
from tests.reflection.conftest import directive_reply, is_reflection

pytestmark = pytest.mark.e2e

LOCAL, REASONING, DEEP, EMBED = "llama3.2:3b", "agentic-v1", "deep-thought:7b", "nomic-embed-text"
API_KEY_ENV, API_KEY = "OH_SESSION_API_KEY", "sk-session-5f0c1d2e3a4b6978"
BOT_TOKEN_ENV = "OH_SESSION_BOT_TOKEN"
OWNER = 1111
CONFIG_MARKER = "CONFIG-MARKER-9e1b7c"
READ_TASK = "Look into notes.md and tell me what is new"
WRITE_TASK = "Append a status line to status.md and notify me"
# The user's own files; everything else the app created must be on the list (status.md: the write task's).
USER_PATHS = {"notes.md", "notes", "notes/link.json", "notes/key.json", "notes/peek", "status.md"}
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR|CRITICAL)")

# What a curious (or prompt-injected) model asks for, all at once: every file that holds a secret, the user's
# hard links to two of them, a symbolic link into channels/, and (where offered) a memory search and writes.
PROBES: tuple[tuple[str, Mapping[str, Any]], ...] = (
    ("files_list", {"path": ""}),
    ("files_list", {"path": "channels"}),
    ("files_read", {"path": "channels/webapp-link.json"}),
    ("files_read", {"path": "run/rpc.json"}),
    ("files_read", {"path": "run/webapp.json"}),
    ("files_read", {"path": "config.toml"}),
    ("files_read", {"path": "logs/openhuman.log"}),
    ("files_read", {"path": "agent/ledger.db-wal"}),
    ("files_read", {"path": "notes/link.json"}),
    ("files_read", {"path": "notes/key.json"}),
    ("files_read", {"path": "notes/peek/webapp-link.json"}),
    ("files_read", {"path": "notes.md"}),
    ("memory_search", {"query": "summaries"}),
    ("notify_user", {"title": "Status", "body": "Looked around the workspace."}),
    ("files_append", {"path": "status.md", "text": "- all quiet\n"}),
)


def offered(body: Mapping[str, Any]) -> set[str]:
    return {str((tool.get("function") or {}).get("name")) for tool in body.get("tools") or ()
            if isinstance(tool, dict)}


def probe(body: Mapping[str, Any], recommend: bool) -> Reply:
    """A tool-using model: every probe it is offered in its first step, then a short answer (recommending an
    action when it could not write: analysis only)."""
    messages = [m for m in body.get("messages") or () if isinstance(m, dict)]
    tools = offered(body)
    if any(m.get("role") == "tool" for m in messages) or not tools:
        answer = "Looked around; nothing needs doing."
        if recommend and "files_append" not in tools:
            answer += "\nRECOMMENDED ACTION: Archive notes.md"
        return Reply(content=answer)
    return Reply(tool_calls=[{"name": name, "arguments": dict(arguments)} for name, arguments in PROBES
                             if name in tools])


class SessionModel:
    """Every model of the session: reflection, the heartbeat's requests (Brain), the agent (AgentModel), and
    ``probe`` for every tool loop."""

    def __init__(self) -> None:
        self.recommend = True
        self.brain = Brain()
        self.brain.decide_by_title({READ_TASK: "escalate", WRITE_TASK: "act"})
        self.brain.execute = lambda body: probe(body, self.recommend)
        self.agent = AgentModel(AgentScript(
            subtasks=[("Look around", "Read the workspace and the notes")],
            reply="Looked around.\nRECOMMENDED ACTION: Archive notes.md",
            compression="Looked around the workspace; nothing is secret."))

    def __call__(self, body: Any) -> Reply:
        body = body if isinstance(body, dict) else {}
        if is_reflection(body):
            return directive_reply("Keep answers short.", "The user asks about notes.")
        messages = [m for m in body.get("messages") or () if isinstance(m, dict)]
        kind = kind_of(messages)
        if kind == SUBAGENT:
            self.agent(body)  # counted as the agent's
            return probe(body, self.recommend)
        if kind != "unknown":
            return self.agent(body)
        return self.brain(body)


def free_port() -> int:
    with socket.socket() as probe_socket:
        probe_socket.bind(("127.0.0.1", 0))
        return int(probe_socket.getsockname()[1])


def config_text(ollama: FakeOllama, openai: FakeOpenAI, telegram: FakeTelegram, port: int) -> str:
    return "\n".join([
        f"# {CONFIG_MARKER}: a line only config.toml has",
        "[heartbeat]", "interval_minutes = 10080", "",
        "[ollama]", f'host = "{ollama.url}"', "",
        "[models.local]", 'provider = "ollama"', f'model = "{LOCAL}"', "",
        "[models.reasoning]", 'provider = "openai"', f'base_url = "{openai.url}"', f'model = "{REASONING}"',
        f'api_key_env = "{API_KEY_ENV}"', "",
        "[models.subconscious]", 'provider = "ollama"', f'model = "{DEEP}"', "",
        "[models.embedding]", 'provider = "ollama"', f'model = "{EMBED}"', "",
        "[channels.telegram]", "enabled = true", f'token_env = "{BOT_TOKEN_ENV}"', f"allowed_chat_ids = [{OWNER}]",
        f'api_url = "{telegram.url}"', "",
        "[channels.webapp]", "enabled = true", f"port = {port}", "",
    ])


async def web_chat(url: str, token: str, text: str) -> list[dict[str, Any]]:
    host = url.removeprefix("http://").rstrip("/")
    frames: list[dict[str, Any]] = []
    async with aiohttp.ClientSession() as http, \
            http.ws_connect(f"ws://{host}/ws?token={token}", origin=f"http://{host}") as ws:
        async with asyncio.timeout(60):
            while not frames or frames[-1]["type"] != "history":
                frames.append(json.loads((await ws.receive()).data))
            await ws.send_json({"type": "message", "text": text})
            while frames[-1]["type"] != "reply":
                frames.append(json.loads((await ws.receive()).data))
    return frames


@pytest.fixture
def servers() -> Iterator[tuple[FakeOllama, FakeOpenAI, FakeTelegram, SessionModel]]:
    model = SessionModel()
    with FakeOllama() as ollama, FakeOpenAI(require_api_key=API_KEY) as openai, FakeTelegram() as telegram:
        for name in (LOCAL, DEEP):
            ollama.add_model(name, context_length=32768)
        ollama.add_model(EMBED, capabilities=("embedding",))
        openai.add_model(REASONING, context_length=32768)
        ollama.set_responder(model)
        openai.set_responder(model)
        yield ollama, openai, telegram, model


def ticks(app: AppProcess) -> int:
    status = app.result("subconscious_status")
    return -1 if status["state"] == "ticking" else int(status["total_ticks"])


def tick(app: AppProcess) -> None:
    before = ticks(app)
    app.result("subconscious_trigger")
    wait_for(lambda: ticks(app) > before, 60, "the tick's end")


def chat_counts(*servers: FakeOllama | FakeOpenAI) -> list[int]:
    return [len(server.chat_requests) for server in servers]


def kinds_after(counts: list[int], *servers: FakeOllama | FakeOpenAI) -> list[str]:
    """The kinds of each server's chat requests after its first ``counts`` (for a failure's message)."""
    return [request_kind(request.json) for count, server in zip(counts, servers, strict=True)
            for request in server.chat_requests[count:] if isinstance(request.json, dict)]


def settled(app: AppProcess) -> None:
    """No run of the agent is queued or running (a reply is delivered before its run's last node ends)."""
    wait_for(lambda: not any(run["status"] in ("queued", "running") for run in app.result("agent_runs_list", {})),
             60, "every run's end")


def request_text(request: RecordedRequest) -> str:
    """What a model server was sent: the path with its query, and every string in the body, unescaped."""
    strings: list[str] = [request.target]

    def walk(value: Any) -> None:
        if isinstance(value, str):
            strings.append(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                strings.append(str(key))
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(request.json if request.json is not None else request.raw.decode("utf-8", errors="replace"))
    return "\n".join(strings)


def test_a_full_session_sends_no_secret_to_any_model(
    servers: tuple[FakeOllama, FakeOpenAI, FakeTelegram, SessionModel], tmp_path: Path
) -> None:
    ollama, openai, telegram, model = servers
    workspace = tmp_path / "ws"
    workspace.mkdir(mode=0o700)
    (workspace / "config.toml").write_text(config_text(ollama, openai, telegram, free_port()), encoding="utf-8")
    (workspace / "notes.md").write_text("Quarterly plan: hire two people.\n", encoding="utf-8")
    env = {API_KEY_ENV: API_KEY, BOT_TOKEN_ENV: BOT_TOKEN}
    app = AppProcess(workspace, ollama_url=ollama.url, config=None, env=env)

    with CreatedNames(workspace) as created, app:
        wait_for(lambda: app.result("channels_status")["telegram"]["state"] == "connected", 30, "telegram")
        webapp = wait_for(lambda: app.result("channels_status")["webapp"]["url"], 30, "the web app")
        key = json.loads((workspace / "channels" / "webapp-link.json").read_text(encoding="utf-8"))["token"]
        (workspace / "notes").mkdir()
        os.link(workspace / "run" / "rpc.json", workspace / "notes" / "link.json")
        os.link(workspace / "channels" / "webapp-link.json", workspace / "notes" / "key.json")
        (workspace / "notes" / "peek").symlink_to(workspace / "channels", target_is_directory=True)
        app.result("memory_add", {"text": "Anna prefers short summaries."})
        wait_for(lambda: app.result("memory_status")["with_vectors"] == 1, 30, "the memory's vector")

        # The heartbeat: the read task escalates (agentic-v1, analysis only: a card), the write task acts.
        app.result("subconscious_tasks_add", {"title": READ_TASK})
        write = app.result("subconscious_tasks_add", {"title": WRITE_TASK})
        app.result("subconscious_tasks_update", {"task_id": write["id"], "intent": "write"})
        tick(app)
        wait_for(lambda: app.result("subconscious_escalations_list", {"status": "pending"}), 60, "a card")

        # A chat on every channel.
        desktop = app.result("agent_send", {"text": "What is new in my notes?"})
        assert finished_run(app, desktop["run_id"], 60)["status"] == "completed"
        frames = asyncio.run(web_chat(webapp, key, "Anything new in the workspace?"))
        assert frames[-1]["status"] == "completed", frames[-1]
        telegram.send_text(OWNER, "What changed today?")
        telegram.wait_for(lambda: telegram.sent_texts(OWNER), 60, "the Telegram answer")
        cli = run_cli("--workspace", workspace, "chat", "Anything I should know?", timeout=120)
        assert cli.returncode == 0, cli.stderr

        # Go ahead on a card, a reflection, a memory search.
        card = app.result("subconscious_escalations_list", {"status": "pending"})[-1]
        app.result("subconscious_escalations_approve", {"escalation_id": card["id"]})
        settled(app)
        app.result("reflection_trigger")
        wait_for(lambda: (app.result("reflection_status")["last"] or {}).get("status") == "directive", 60,
                 "the reflection")
        assert app.result("memory_search", {"query": "summaries"})

        # The idle gate: settle (all noop), then a chat must not open it.
        model.brain.decide_by_title({}, default="noop")
        model.agent.script = AgentScript(reply="Nothing to do.", answer="Nothing to do.")
        model.recommend = False
        settled(app)
        tick(app)
        tick(app)
        asked = chat_counts(ollama, openai)
        tick(app)
        assert chat_counts(ollama, openai) == asked, \
            f"an unchanged world: the idle gate is shut: {kinds_after(asked, ollama, openai)}"
        after = run_cli("--workspace", workspace, "chat", "Thanks, that is all.", timeout=120)
        assert after.returncode == 0, after.stderr
        settled(app)
        asked = chat_counts(ollama, openai)
        tick(app)
        assert chat_counts(ollama, openai) == asked, \
            f"the chat wrote agent/ledger.db*, the app's own, not news: {kinds_after(asked, ollama, openai)}"
        rpc_token = app.token

    secrets = {"the RPC token": rpc_token, "the web app's key": key, "the bot token": BOT_TOKEN,
               "the API key": API_KEY, "a line of config.toml": CONFIG_MARKER,
               "a database's content": "SQLite format 3"}
    requests = ollama.requests + openai.requests
    texts = [request_text(request) for request in requests]
    leaks = [f"{what} in a request to {request.path}" for request, text in zip(requests, texts, strict=True)
             for what, secret in secrets.items() if secret in text]
    leaks += [f"a log line in a request to {request.path}" for request, text in zip(requests, texts, strict=True)
              if LOG_LINE.search(text)]
    assert leaks == []

    # The session did what it says: every kind of request, the probes answered, the report read the user's files.
    kinds = {request_kind(request.json) for request in requests if isinstance(request.json, dict)
             and request.path.endswith(("/api/chat", "/chat/completions"))}
    assert {"evaluation", "execution", "plan", "reply", "frontend", "compression"} <= kinds, kinds
    assert any(is_reflection(request.json) for request in ollama.requests)
    assert ollama.embed_requests and telegram.sent_texts(OWNER)
    answered = "\n".join(texts)
    assert "'channels/webapp-link.json' is in the app's private folder channels/; it cannot be read." in answered
    assert "'notes/link.json' has other names too" in answered and "Appended" in answered
    report = "\n".join(first_user_text(request.json) for request in requests
                       if isinstance(request.json, dict) and request_kind(request.json) == "evaluation")
    assert "Quarterly plan: hire two people." in report and "notes/link.json" in report
    assert "webapp-link" not in report and "ledger.db" not in report
    log = (workspace / "logs" / "openhuman.log").read_text(encoding="utf-8")
    assert "notification: Status — Looked around the workspace." in log, "the write task notified"

    # Everything the app created is on the one list of its own files.
    unlisted = sorted(path for path in created.paths - USER_PATHS if not is_listed(path))
    assert unlisted == [], "add these to app_files.APP_ENTRIES (with whether tools may read them)"
    assert {"channels/webapp-link.json", "agent/ledger.db", "run/rpc.json"} <= created.paths
