"""An MCP write that began and did not finish before a kill (CONTRACT §12.1): never run again blindly — unless its
server marks the tool ``idempotentHint``, whose call is simply made again. Through the sub-agent's journal, as a
resumed run meets it, against the fixture server."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.clock import SystemClock
from openhuman_desktop.llm.base import ToolCall
from openhuman_desktop.llm.tokens import TokenCounter
from openhuman_desktop.orchestration import prompts
from openhuman_desktop.orchestration.subagent import SubagentRun, make_call
from openhuman_desktop.skills.mcp.server import McpSkill
from tests.fakes.journal import Killed, MemoryJournal
from tests.skills.mcp_support import fixture_settings, wait_state

# the warning an interrupted write causes on purpose
INTERRUPTED_WRITE_LOGGED = pytest.mark.logs_expected(r"interrupted.*(may or may not have happened|cannot be observed)")


KEY = "sub:0:call:1:0"


@pytest.fixture
async def fx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[McpSkill]:
    monkeypatch.setenv("FIXTURE_DIR", str(tmp_path))
    skill = McpSkill(fixture_settings("fx"), SystemClock(), TokenCounter(), environ=dict(os.environ))
    skill.start()
    await wait_state(skill, "connected")
    yield skill
    await skill.stop()


def run_of(journal: MemoryJournal, skill: McpSkill) -> SubagentRun:
    caller: Any = None  # no model is asked: one tool call through the journal
    return SubagentRun(caller, journal, "run-1", 3, 0, list(skill.tools()), True, 4)


def calls(folder: Path) -> list[str]:
    return (folder / "calls.log").read_text().splitlines()


async def interrupted(skill: McpSkill, name: str, arguments: dict[str, Any]) -> MemoryJournal:
    """Make the call, "kill" the process after the server did it and before its result was recorded."""
    journal = MemoryJournal()
    journal.kill_before_finish.add(KEY)
    tool = next(t for t in skill.tools() if t.name == name)
    with pytest.raises(Killed):
        await make_call(run_of(journal, skill), KEY, ToolCall(name, arguments), tool, 0, [name])
    return journal


@INTERRUPTED_WRITE_LOGGED
async def test_an_interrupted_write_is_not_run_again(fx: McpSkill, tmp_path: Path) -> None:
    arguments = {"path": "note.txt", "text": "pay the plumber"}
    journal = await interrupted(fx, "fx__append_note", arguments)
    assert calls(tmp_path) == ["append_note note.txt pay the plumber"]
    tool = next(t for t in fx.tools() if t.name == "fx__append_note")
    record = await make_call(run_of(journal, fx), KEY, ToolCall(tool.name, arguments), tool, 0, [tool.name])
    assert record.settled and record.is_error and record.uncertain  # may or may not have happened: a card asks
    assert record.text == prompts.fill(prompts.INTERRUPTED_UNKNOWN, why="whether it took effect cannot be checked")
    assert calls(tmp_path) == ["append_note note.txt pay the plumber"]   # once, not twice
    assert (tmp_path / "note.txt").read_text() == "pay the plumber\n"


async def test_an_interrupted_idempotent_write_is_made_again(fx: McpSkill, tmp_path: Path) -> None:
    arguments = {"path": "note.txt", "text": "pay the plumber"}
    journal = await interrupted(fx, "fx__put_note", arguments)
    tool = next(t for t in fx.tools() if t.name == "fx__put_note")
    record = await make_call(run_of(journal, fx), KEY, ToolCall(tool.name, arguments), tool, 0, [tool.name])
    assert not record.is_error and record.text == "wrote note.txt"
    assert calls(tmp_path) == ["put_note note.txt", "put_note note.txt"]
    assert [entry.event_signature for entry in journal.timeline] == ["mcp_write fx/put_note → note.txt"]
