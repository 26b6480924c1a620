"""The client against real MCP servers nobody here wrote (installed by scripts/mcp_servers.py): git on a temporary
repository, fetch against a page on 127.0.0.1, memory, and everything (images, structured content, progress,
resource links, resource subscriptions)."""

from __future__ import annotations

import asyncio
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from openhuman_desktop.clock import SystemClock
from openhuman_desktop.config_skills import McpServerSettings
from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.skills.base import Tool, ToolContext
from openhuman_desktop.skills.mcp.server import McpSkill
from tests.skills.mcp_support import real_server, wait_state

READS = ToolContext(run_id="r", writes_allowed=False)
WRITES = ToolContext(run_id="r", writes_allowed=True)


async def connect(settings: McpServerSettings) -> McpSkill:
    skill = McpSkill(settings, SystemClock(), TokenCounter())
    skill.start()
    await wait_state(skill, "connected", "error", timeout=60)
    assert skill.state == "connected", skill.reason
    return skill


def tool(skill: McpSkill, name: str) -> Tool:
    return next(t for t in skill.tools() if t.name == f"{skill.name}__{name}")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    folder = tmp_path / "repo"
    folder.mkdir()
    env = {"GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.org", "GIT_COMMITTER_NAME": "Ada",
           "GIT_COMMITTER_EMAIL": "ada@example.org", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    subprocess.run(["git", "init", "-q", "-b", "main", str(folder)], check=True, env=env)
    (folder / "plan.md").write_text("ship the MCP skills\n", encoding="utf-8")
    subprocess.run(["git", "-C", str(folder), "add", "plan.md"], check=True, env=env)
    subprocess.run(["git", "-C", str(folder), "commit", "-q", "-m", "Plan the MCP work"], check=True, env=env)
    return folder


async def test_git_reads_the_log_and_its_commit_tool_is_a_write(repo: Path) -> None:
    skill = await connect(McpServerSettings("git", command=real_server("mcp-server-git"),
                                            args=("--repository", str(repo))))
    try:
        access = {info.name: info.access for info in skill.listed_tools()}
        assert access["git__git_commit"] == "write" and access["git__git_add"] == "write"
        log = await tool(skill, "git_log").run({"repo_path": str(repo)}, READS)
        assert not log.is_error and "Plan the MCP work" in log.text
        refused = await tool(skill, "git_commit").run({"repo_path": str(repo), "message": "x"}, READS)
        assert refused.is_error and "may not" in refused.text
    finally:
        await skill.stop()


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/robots.txt":
            self.send_response(404)
            self.end_headers()
            return
        body = b"<html><body><h1>Plumber</h1><p>Call Mario on Tuesday at 10.</p></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def page() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/notes"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


async def test_fetch_reads_a_page_on_this_machine_and_its_refusal_is_a_failed_call(page: str) -> None:
    program = real_server("mcp-server-fetch")
    skill = await connect(McpServerSettings("fetch", command=program, args=("--ignore-robots-txt",)))
    try:
        refused = await tool(skill, "fetch").run({"url": page}, READS)   # isError: the model sees why
        assert refused.is_error and "not a public address" in refused.text
    finally:
        await skill.stop()
    skill = await connect(McpServerSettings("fetch", command=program,
                                            args=("--ignore-robots-txt", "--allow-private-ips")))
    try:
        result = await tool(skill, "fetch").run({"url": page}, READS)
        assert not result.is_error, result.text
        assert "Call Mario on Tuesday at 10." in result.text
    finally:
        await skill.stop()


async def test_memory_writes_only_for_a_run_that_may_and_reads_back(tmp_path: Path) -> None:
    skill = await connect(McpServerSettings("memory", command=real_server("mcp-server-memory"),
                                            env={"MEMORY_FILE_PATH": str(tmp_path / "memory.jsonl")}))
    try:
        entity = {"entities": [{"name": "Mario", "entityType": "person", "observations": ["plumber"]}]}
        assert "memory__create_entities" not in {t.name for t in skill.tools() if not t.writes}
        created = await tool(skill, "create_entities").run(entity, WRITES)
        assert not created.is_error, created.text
        assert created.mutations and created.mutations[0].target.startswith("memory/create_entities")
        found = await tool(skill, "search_nodes").run({"query": "plumber"}, READS)
        assert "Mario" in found.text
    finally:
        await skill.stop()


@pytest.fixture
async def everything() -> AsyncIterator[McpSkill]:
    uri = "demo://resource/dynamic/text/1"
    skill = await connect(McpServerSettings("ev", command=real_server("mcp-server-everything"), watch=(uri,)))
    yield skill
    await skill.stop()


async def test_everything_images_structured_content_progress_and_links(everything: McpSkill) -> None:
    image = await tool(everything, "get-tiny-image").run({}, READS)
    assert "[image: image/png, " in image.text and "bytes, not shown]" in image.text
    structured = await tool(everything, "get-structured-content").run({"location": "New York"}, READS)
    assert '"temperature"' in structured.text
    started = time.perf_counter()
    long = await tool(everything, "trigger-long-running-operation").run({"duration": 2, "steps": 2}, READS)
    assert not long.is_error and time.perf_counter() - started >= 1.5
    links = await tool(everything, "get-resource-links").run({"count": 2}, READS)
    assert "[link: " in links.text and "demo://resource/dynamic/" in links.text


async def test_everything_a_subscribed_resource_that_changes_is_seen(everything: McpSkill) -> None:
    async with asyncio.timeout(10):
        while not everything.digests():
            await asyncio.sleep(0.05)
    assert everything.subscribed
    await tool(everything, "toggle-subscriber-updates").run({}, WRITES)
    async with asyncio.timeout(30):
        while not everything.changed_since(None):
            await everything.poll_watches(time.time())
            await asyncio.sleep(0.5)
    assert everything.changed_since(None)[0][1] == "demo://resource/dynamic/text/1"
