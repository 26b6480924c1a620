"""A watched MCP resource in the heartbeat (CONTRACT §12.3): a change is one line of the report's Skills section,
nothing changed means no model call, and a server in error shows in the report's model health."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest

from tests.fakes.engine_harness import Harness, bodies, config_text, open_harness
from tests.skills.mcp_support import FIXTURE


def fixture_table(fixture_dir: Path, name: str = "fx") -> str:
    return (f'\n[skills.mcp.{name}]\ncommand = {json.dumps(sys.executable)}\nargs = [{json.dumps(str(FIXTURE))}]\n'
            f'env = {{ FIXTURE_DIR = {json.dumps(str(fixture_dir))} }}\nwatch = ["note://current"]\n')


async def configure(h: Harness, extra: str) -> None:
    assert h.ollama is not None
    base = config_text(local_url=h.ollama.url, reasoning_url=h.openai.url + "/v1" if h.openai else None)
    await h.reconfigure(base + extra)
    await h.services.mcp.apply()


async def wait_connected(h: Harness, name: str = "fx") -> None:
    async with asyncio.timeout(30):
        while h.services.mcp.servers[name].state != "connected":
            await asyncio.sleep(0.02)


def evaluations(h: Harness) -> list[str]:
    return [json.dumps(body) for body in bodies(h.ollama, "evaluation")]


async def test_a_changed_resource_is_one_report_line_and_nothing_new_costs_no_model_call(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fixture_dir = tmp_path / "fixture"
    fixture_dir.mkdir()
    (fixture_dir / "note.txt").write_text("first", encoding="utf-8")
    async with open_harness(tmp_path, monkeypatch) as h:
        await configure(h, fixture_table(fixture_dir))
        await wait_connected(h)
        await h.add_task("Tell me when the shared note changes", intent="read")
        await h.tick()
        assert len(evaluations(h)) == 1
        assert "resource note://current changed" not in evaluations(h)[0]  # the baseline is not news
        await h.clock.advance(600)
        await h.tick()
        assert len(evaluations(h)) == 1  # nothing changed: the idle gate kept the model out

        (fixture_dir / "note.txt").write_text("second", encoding="utf-8")
        await h.clock.advance(600)
        await h.tick()
        assert len(evaluations(h)) == 2
        assert "## Skills\\n- mcp fx: resource note://current changed" in evaluations(h)[1]

        await h.clock.advance(600)
        await h.tick()
        assert len(evaluations(h)) == 2  # seen once, reported once


async def test_a_server_in_error_is_in_the_reports_model_health(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        await configure(h, '\n[skills.mcp.broken]\ncommand = "no-such-mcp-server-program"\n')
        async with asyncio.timeout(30):
            while h.services.mcp.servers["broken"].state != "error":
                await asyncio.sleep(0.02)
        await h.add_task("Check connected skills for errors", intent="read")
        await h.tick()
        [body] = evaluations(h)
        assert "skill broken: error" in body and "was not found" in body
