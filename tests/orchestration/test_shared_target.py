"""Two sub-agents of one run writing the same target at once, killed in between: a write begun before
another's landed must not be taken for done (its fingerprint is stale), and none runs twice."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.config import AgentSettings
from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.orchestration.ledger import RunLedger
from openhuman_desktop.orchestration.ports import RunRequest
from openhuman_desktop.skills import SkillHealth, SkillSetting, Tool, ToolResult
from openhuman_desktop.skills._args import checked_tool, object_schema
from openhuman_desktop.skills.base import Mutation
from tests.fakes.agent_harness import AgentHarness
from tests.fakes.agent_model import AgentScript, call, say
from tests.fakes.clock import FakeClock
from tests.fakes.journal import Killed, MemoryJournal
from tests.fakes.model_servers import FakeOllama, Reply

A_KEY = "sub:0:call:1:0"
WAIT = 1.0
"""How long a tool waits for the other sub-agent to get where the test wants it (it may never come)."""


class SharedLog:
    """One file two sub-agents append to. The first attempt interleaves badly where it can: ``a``'s append
    waits for ``b``'s intent (its fingerprint taken), ``b``'s waits for ``a``'s write and then "dies" (the
    kill) before it writes anything."""

    name = "shared"
    title = "Shared log"
    description = "Appends to one file."

    def __init__(self, path: Path) -> None:
        self.path = path
        self.b_observed = asyncio.Event()
        self.a_written = asyncio.Event()
        self.b_written = asyncio.Event()
        self.first_attempt = True
        self.writes: list[str] = []
        spec = ToolSpec("shared_append", "Append a line to the shared log.",
                        object_schema({"text": {"type": "string"}}, required=["text"]))
        self._tools = (checked_tool(spec, writes=True, run=self._append, observe=self._observe),)

    def tools(self) -> Sequence[Tool]:
        return self._tools

    async def health(self) -> SkillHealth:
        return SkillHealth("connected")

    def settings(self) -> Sequence[SkillSetting]:
        return ()

    async def _observe(self, args: dict[str, Any]) -> str:
        seen = self.path.read_text() if self.path.exists() else "absent"
        if args["text"] == "b":
            self.b_observed.set()
        return seen

    async def _append(self, args: dict[str, Any]) -> ToolResult:
        text = args["text"]
        if self.first_attempt and text == "a":
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.b_observed.wait(), WAIT)
        if self.first_attempt and text == "b":
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.a_written.wait(), WAIT)
            raise Killed("killed before b was appended")
        with self.path.open("a") as file:
            file.write(text)
        self.writes.append(text)
        (self.a_written if text == "a" else self.b_written).set()
        return ToolResult(f"appended {text}", mutations=(Mutation("file_written", "shared.md", f"appended {text}"),))


@pytest.mark.logs_expected(r"interrupted.*may or may not have happened")
async def test_a_write_begun_before_a_siblings_write_landed_is_not_taken_for_done(
    server: FakeOllama, tmp_path: Path
) -> None:
    script = AgentScript(
        subtasks=[("A", "Append a"), ("B", "Append b")],
        steps={"A": [call("shared_append", text="a"), say("Appended a.")],
               "B": [call("shared_append", text="b"), say("Appended b.")]},
        reply="Appended a and b.")
    harness = AgentHarness(server, tmp_path, script, settings=AgentSettings(concurrent_subagents=2))
    log = SharedLog(tmp_path / "shared.md")
    harness.skills.add(log)
    harness.journal.kill_before_finish.add(A_KEY)  # a's append lands, its result is never recorded
    try:
        run = harness.new_run("append a and b to the shared log")
        with pytest.raises(Killed):
            await harness.execute(run, "channel_ingestion", 1)
        assert log.writes == ["a"]
        log.first_attempt = False
        outcome = await harness.resume(run)
    finally:
        await harness.aclose()
    assert sorted(log.writes) == ["a", "b"], log.writes  # b was never appended before the kill: now it is, once
    assert sorted(log.path.read_text()) == ["a", "b"]
    # b's append is in the timeline; a's was found done by observation (a test tool has no settled mutation).
    assert [e["world_mutation"] for e in outcome.values["world_state_diff"]["evolution_timeline"]] == ["appended b"]


class Restarted(MemoryJournal):
    """The journal as the next process finds it (same entries, nothing in memory), where the owner of one
    begun call gets to it late: ``get`` of ``slow_key`` waits for ``until`` (at most :data:`WAIT`)."""

    def __init__(self, before: MemoryJournal, slow_key: str, until: asyncio.Event) -> None:
        super().__init__()
        self.entries, self.timeline, self.ops = before.entries, before.timeline, before.ops
        self.slow_key, self.until = slow_key, until

    async def get(self, run_id: str, step: int, key: str) -> Any:
        if key == self.slow_key:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.until.wait(), WAIT)
        return await super().get(run_id, step, key)


async def test_after_a_restart_no_new_write_goes_before_a_begun_one_is_settled(
    server: FakeOllama, tmp_path: Path
) -> None:
    b_call = call("shared_append", text="b")
    script = AgentScript(
        subtasks=[("A", "Append a"), ("B", "Append b")],
        steps={"A": [call("shared_append", text="a"), say("Appended a.")],
               "B": [Reply(tool_calls=b_call.tool_calls, delay=0.3), say("Appended b.")]},
        reply="Appended a and b.")
    harness = AgentHarness(server, tmp_path, script, settings=AgentSettings(concurrent_subagents=2))
    log = SharedLog(tmp_path / "shared.md")
    log.first_attempt = False
    harness.skills.add(log)
    harness.journal.kill_after_begin.add(A_KEY)  # a's intent is recorded, a never ran; b is still thinking
    try:
        run = harness.new_run("append a and b to the shared log")
        with pytest.raises(Killed):
            await harness.execute(run, "channel_ingestion", 1)
        assert log.writes == []
        # The next process: b's sub-agent reaches its (new) write before a's owner gets back to a.
        harness.journal = Restarted(harness.journal, A_KEY, log.b_written)
        outcome = await harness.resume(run)
    finally:
        await harness.aclose()
    assert sorted(log.writes) == ["a", "b"], log.writes
    assert len(outcome.values["world_state_diff"]["evolution_timeline"]) == 2


async def test_the_ledger_lists_begun_calls_of_unfinished_runs_oldest_first(tmp_path: Path) -> None:
    clock = FakeClock()
    ledger = await RunLedger.open(tmp_path / "ledger.db", clock)
    try:
        going = await ledger.create_run(RunRequest("desktop", "desktop", "a"))
        done = await ledger.create_run(RunRequest("desktop", "desktop", "b"))
        for run in (going, done):
            await ledger.begin(run.id, 3, "sub:0:call:1:0", {"tool": "files_append", "fingerprint": "absent"})
            await clock.advance(1)
        await ledger.begin(going.id, 3, "sub:1:call:1:0", {"tool": "files_append", "fingerprint": "absent"})
        await ledger.begin(going.id, 3, "plan", {})
        await ledger.finish(going.id, 3, "plan", {"subtasks": []})
        await ledger.finish_run(done.id, "failed", error="stopped")
        pending = await ledger.unfinished()
    finally:
        await ledger.aclose()
    assert [(entry.run_id, entry.key) for entry in pending] == [(going.id, "sub:0:call:1:0"),
                                                               (going.id, "sub:1:call:1:0")]
    assert pending[0].intent == {"tool": "files_append", "fingerprint": "absent"} and pending[0].result is None
