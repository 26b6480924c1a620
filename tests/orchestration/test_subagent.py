"""Journaled replay: a node re-run after a kill replays recorded answers and results and does only what is
new; a write that had begun and has no result is settled by observing its target, never run twice."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.orchestration import prompts, subagent
from openhuman_desktop.orchestration.nodes import ExecutionOutcome, read_outcome
from openhuman_desktop.orchestration.ports import CALL as CALL_PURPOSE
from openhuman_desktop.orchestration.ports import WRITE, ProposedCall
from openhuman_desktop.skills import SkillHealth, SkillSetting, Tool, ToolResult
from openhuman_desktop.skills._args import checked_tool, object_schema
from openhuman_desktop.skills.base import Mutation
from tests.fakes import agent_model as kinds
from tests.fakes.agent_harness import AgentHarness
from tests.fakes.agent_model import AgentScript, call, say
from tests.fakes.journal import Killed
from tests.fakes.model_servers import FakeOllama

# the warning an interrupted write causes on purpose
INTERRUPTED_WRITE_LOGGED = pytest.mark.logs_expected(r"interrupted.*(may or may not have happened|cannot be observed)")


CALL = "sub:0:call:1:0"


def append_script(tool: str = "files_append", arguments: dict[str, Any] | None = None) -> AgentScript:
    arguments = {"path": "log.md", "text": "x"} if arguments is None else arguments
    return AgentScript(subtasks=[("Add", "Append x to log.md")],
                       steps={"Add": [call(tool, **arguments), say("Appended.")]}, reply="Appended x.")


async def killed_then_resumed(harness: AgentHarness, text: str = "append x to log.md") -> tuple[str, Any]:
    run = harness.new_run(text)
    with pytest.raises(Killed):
        await harness.execute(run, "channel_ingestion", 1)
    before = list(harness.model.kinds())
    outcome = await harness.resume(run)
    return run.id, (before, harness.model.kinds()[len(before):], outcome)


async def test_a_write_that_ran_before_the_kill_is_not_run_again(harness: AgentHarness) -> None:
    harness.model.script = append_script()
    harness.journal.kill_before_finish.add(CALL)  # the append happened; its result was never recorded
    run_id, (first, second, outcome) = await killed_then_resumed(harness)
    assert (harness.workspace / "log.md").read_text() == "x"
    assert first.count(kinds.SUBAGENT) == 1 and second.count(kinds.SUBAGENT) == 1  # only model:2 is new
    assert kinds.PLAN not in second and kinds.PASS1 not in second
    entry = await harness.journal.get(run_id, 3, CALL)
    assert entry is not None and entry.result is not None and entry.result["settled"] is True
    assert "already taken effect" in entry.result["text"]
    [timeline] = outcome.values["world_state_diff"]["evolution_timeline"]
    assert timeline["sequence"] == 1 and "log.md" in timeline["event_signature"]
    assert harness.journal.timeline[0].delta_delta == "None → 1 bytes"
    assert await read_outcome(harness.journal, run_id) == ExecutionOutcome(("files_append (log.md)",), None, True)
    assert harness.checkpointer.nodes(run_id) == ["channel_ingestion", "frontend_agent", "agent_execution",
                                                  "frontend_agent", "context_manager_hook"]


async def test_a_write_begun_but_not_run_runs_once_on_resume(harness: AgentHarness) -> None:
    harness.model.script = append_script()
    harness.journal.kill_after_begin.add(CALL)  # the intent is recorded; the append never happened
    run_id, (_first, _second, outcome) = await killed_then_resumed(harness)
    assert (harness.workspace / "log.md").read_text() == "x"
    entry = await harness.journal.get(run_id, 3, CALL)
    assert entry is not None and entry.intent["fingerprint"] == "absent"
    assert entry.result is not None and "settled" not in entry.result
    [timeline] = outcome.values["world_state_diff"]["evolution_timeline"]
    assert timeline["world_mutation"] == "appended 1 byte"


class Counter:
    """A skill whose write tool cannot be observed (like a sent message)."""

    name = "counter"
    title = "Counter"
    description = "Counts."

    def __init__(self) -> None:
        self.bumps = 0
        spec = ToolSpec("counter_bump", "Bump the counter.", object_schema({}))
        self._tools = (checked_tool(spec, writes=True, run=self._bump),)

    def tools(self) -> Sequence[Tool]:
        return self._tools

    async def health(self) -> SkillHealth:
        return SkillHealth("connected")

    def settings(self) -> Sequence[SkillSetting]:
        return ()

    async def _bump(self, args: dict[str, Any]) -> ToolResult:
        self.bumps += 1
        return ToolResult("bumped", mutations=(Mutation("message_sent", "counter", "bumped"),))


@INTERRUPTED_WRITE_LOGGED
async def test_an_interrupted_call_that_cannot_be_observed_is_not_run_again(harness: AgentHarness) -> None:
    counter = Counter()
    harness.skills.add(counter)
    harness.model.script = append_script("counter_bump", {})
    harness.journal.kill_before_finish.add(CALL)
    run_id, (_first, _second, outcome) = await killed_then_resumed(harness, "add one to the counter")
    assert counter.bumps == 1
    entry = await harness.journal.get(run_id, 3, CALL)
    assert entry is not None and entry.result is not None
    assert (entry.result["is_error"], entry.result["settled"], entry.result["uncertain"]) == (True, True, True)
    assert "cannot be checked" in entry.result["text"]
    told = [m for seen in harness.model.of(kinds.SUBAGENT) for m in seen.messages if m.get("role") == "tool"]
    assert any("may or may not have happened" in m["content"] for m in told)
    assert outcome.values["world_state_diff"]["evolution_timeline"] == []
    [(card_run, card)] = harness.cards.calls  # brought back to the user, whose Go ahead does it
    assert (card_run, card.tool, dict(card.arguments), card.skill) == (run_id, "counter_bump", {}, "counter")
    assert "cannot be checked" in card.reason


# --- settled by the call's expected result (issue 25: "A begun write is recorded as done and never done") ---


def edit(harness: AgentHarness, text: str = "edited by hand while the app was down\n") -> None:
    """Someone else changes log.md while the app is down (the person, a sync client, another program)."""
    with (harness.workspace / "log.md").open("a", encoding="utf-8") as file:
        file.write(text)


async def killed_edited_resumed(harness: AgentHarness, kill_point: set[str]) -> tuple[str, Any]:
    run = harness.new_run("append x to log.md")
    kill_point.add(CALL)
    with pytest.raises(Killed):
        await harness.execute(run, "channel_ingestion", 1)
    edit(harness)
    return run.id, await harness.resume(run)


def assert_asked_not_done(harness: AgentHarness, run_id: str, entry: Any, outcome: Any) -> None:
    """The call is neither run again nor reported done: the model is told it may or may not have happened and
    that the user is asked, the run's outcome says nothing changed, and one card carries out exactly it."""
    assert entry is not None and entry.result is not None
    assert (entry.result["is_error"], entry.result["uncertain"]) == (True, True), entry.result
    assert "already taken effect" not in entry.result["text"]
    told = [m["content"] for m in harness.model.of(kinds.SUBAGENT)[-1].messages if m.get("role") == "tool"]
    assert len(told) == 1 and "may or may not have happened" in told[0] and "user is asked" in told[0], told
    assert outcome.values["world_state_diff"]["evolution_timeline"] == [] and harness.journal.timeline == []
    [(card_run, card)] = harness.cards.calls
    assert card_run == run_id
    assert (card.tool, dict(card.arguments), card.skill) == ("files_append", {"path": "log.md", "text": "x"}, "files")
    assert "may or may not have happened" in card.reason and "'log.md'" in card.reason


@INTERRUPTED_WRITE_LOGGED
async def test_a_write_begun_then_killed_whose_target_was_edited_is_not_done_but_asked(
    harness: AgentHarness
) -> None:
    harness.model.script = append_script()
    run_id, outcome = await killed_edited_resumed(harness, harness.journal.kill_after_begin)
    assert (harness.workspace / "log.md").read_text() == "edited by hand while the app was down\n"  # not run
    entry = await harness.journal.get(run_id, 3, CALL)
    assert entry is not None and entry.intent["fingerprint"] == "absent"
    assert entry.intent["expected"] == f"1 bytes sha256:{hashlib.sha256(b'x').hexdigest()}"
    assert_asked_not_done(harness, run_id, entry, outcome)
    done = await read_outcome(harness.journal, run_id)
    assert done == ExecutionOutcome(("files_append (log.md) (may or may not have happened; the user is asked)",),
                                    None, False)


@INTERRUPTED_WRITE_LOGGED
async def test_a_write_that_landed_then_was_edited_before_the_restart_is_not_reported_done(
    harness: AgentHarness
) -> None:
    harness.model.script = append_script()
    run_id, outcome = await killed_edited_resumed(harness, harness.journal.kill_before_finish)
    assert (harness.workspace / "log.md").read_text() == "xedited by hand while the app was down\n"  # once
    assert_asked_not_done(harness, run_id, await harness.journal.get(run_id, 3, CALL), outcome)
    assert (await read_outcome(harness.journal, run_id) or ExecutionOutcome()).changed_something is False


async def test_an_edit_that_leaves_the_target_as_the_call_would_counts_as_done(harness: AgentHarness) -> None:
    (harness.workspace / "log.md").write_text("a\n", encoding="utf-8")
    harness.model.script = append_script()
    run = harness.new_run("append x to log.md")
    harness.journal.kill_after_begin.add(CALL)
    with pytest.raises(Killed):
        await harness.execute(run, "channel_ingestion", 1)
    edit(harness, "x")  # exactly what the append writes (e.g. a sync client brought the same change)
    await harness.resume(run)
    assert (harness.workspace / "log.md").read_text() == "a\nx"
    entry = await harness.journal.get(run.id, 3, CALL)
    assert entry is not None and entry.result is not None and entry.result["settled"] is True
    assert "already taken effect" in entry.result["text"] and harness.cards.calls == []
    assert (await read_outcome(harness.journal, run.id) or ExecutionOutcome()).changed_something is True


async def test_a_new_file_left_empty_by_the_kill_is_written_once(harness: AgentHarness) -> None:
    harness.model.script = append_script()
    run = harness.new_run("append x to log.md")
    harness.journal.kill_after_begin.add(CALL)
    with pytest.raises(Killed):
        await harness.execute(run, "channel_ingestion", 1)
    (harness.workspace / "log.md").touch()  # killed between creating the file and writing into it
    await harness.resume(run)
    assert (harness.workspace / "log.md").read_text() == "x" and harness.cards.calls == []


@INTERRUPTED_WRITE_LOGGED
async def test_the_card_of_an_uncertain_call_is_raised_once_across_a_kill_while_raising(
    harness: AgentHarness
) -> None:
    harness.model.script = append_script()
    run = harness.new_run("append x to log.md")
    harness.journal.kill_after_begin.add(CALL)
    with pytest.raises(Killed):
        await harness.execute(run, "channel_ingestion", 1)
    edit(harness)
    harness.journal.kill_before_finish.add(f"{CALL}:card")  # the card is raised, its journal result is lost
    with pytest.raises(Killed):
        await harness.resume(run)
    assert len(harness.cards.calls) == 1
    await harness.resume(run)
    assert len(harness.cards.calls) == 1 and harness.cards.call_asks == 2  # asked again, the same card
    assert (harness.workspace / "log.md").read_text() == "edited by hand while the app was down\n"


@INTERRUPTED_WRITE_LOGGED
async def test_the_same_call_asked_again_after_an_uncertain_one_is_not_run(harness: AgentHarness) -> None:
    harness.model.script = AgentScript(
        subtasks=[("Add", "Append x to log.md")],
        steps={"Add": [call("files_append", path="log.md", text="x"), call("files_append", path="log.md", text="x"),
                       call("files_append", path="log.md", text="y"), say("Done.")]})
    run_id, outcome = await killed_edited_resumed(harness, harness.journal.kill_after_begin)
    assert (harness.workspace / "log.md").read_text() == "edited by hand while the app was down\ny"
    entry = await harness.journal.get(run_id, 3, "sub:0:call:2:0")
    assert entry is not None and entry.result == {"text": prompts.REPEAT_REFUSED, "is_error": True}
    assert len(harness.cards.calls) == 1


async def test_a_completed_call_is_replayed_and_only_new_answers_are_asked(harness: AgentHarness) -> None:
    harness.model.script = append_script()
    harness.journal.kill_before_finish.add("sub:0:model:2")  # after the append was recorded
    run_id, (first, second, outcome) = await killed_then_resumed(harness)
    assert (harness.workspace / "log.md").read_text() == "x"
    assert first.count(kinds.SUBAGENT) == 2 and second.count(kinds.SUBAGENT) == 1
    resumed = harness.model.of(kinds.SUBAGENT)[-1]
    assert [m["role"] for m in resumed.messages] == ["system", "user", "assistant", "tool"]
    assert len(outcome.values["world_state_diff"]["evolution_timeline"]) == 1
    assert len(harness.journal.timeline) == 1


async def test_read_results_are_replayed_not_read_again(harness: AgentHarness) -> None:
    (harness.workspace / "a.md").write_text("first", encoding="utf-8")
    harness.model.script = AgentScript(subtasks=[("Read", "Read a.md")],
                                       steps={"Read": [call("files_read", path="a.md"), say("It says first.")]})
    harness.journal.kill_before_finish.add("sub:0:model:2")
    run = harness.new_run("what is in a.md and in b.md?")  # two files: the planner's, and the sub-agent reads
    with pytest.raises(Killed):
        await harness.execute(run, "channel_ingestion", 1)
    (harness.workspace / "a.md").write_text("second", encoding="utf-8")
    await harness.resume(run)
    resumed = harness.model.of(kinds.SUBAGENT)[-1]
    assert resumed.messages[-1]["content"] == "first"
    begun = [op for op in harness.journal.ops if op[0] == "begin"]
    assert begun == []  # reads record no intent


async def test_a_kill_in_the_reply_replays_plan_and_sub_agents(harness: AgentHarness) -> None:
    harness.model.script = append_script()
    harness.journal.kill_before_finish.add("reply")
    # Worded so that the planner plans it (a single append's one sub-agent answers without a reply to restate).
    run_id, (_first, second, _outcome) = await killed_then_resumed(harness, "append x to log.md as notes.md says")
    assert second[:2] == [kinds.REPLY, kinds.COMPRESS] or second[0] == kinds.REPLY
    assert kinds.SUBAGENT not in second and kinds.PLAN not in second
    assert (harness.workspace / "log.md").read_text() == "x"


async def test_a_kill_in_pass_two_does_not_run_execution_again(harness: AgentHarness) -> None:
    harness.model.script = append_script()
    harness.journal.kill_before_finish.add("pass2")
    run_id, (_first, second, outcome) = await killed_then_resumed(harness, "append x to log.md as notes.md says")
    assert second == [kinds.PASS2]
    assert outcome.values["channel_response"].startswith("Answer: ")
    assert (harness.workspace / "log.md").read_text() == "x"
    assert harness.permissions == [(run_id, WRITE)]


async def test_a_resumed_execution_keeps_the_write_permission_pass_one_decided(harness: AgentHarness) -> None:
    harness.model.script = append_script()
    harness.journal.kill_before_finish.add("plan")
    run = harness.new_run("append x to log.md")
    with pytest.raises(Killed):
        await harness.execute(run, "channel_ingestion", 1)
    await harness.resume(run, with_permission=False)  # the context starts without it
    assert (harness.workspace / "log.md").read_text() == "x"
    assert "files_append" in harness.model.of(kinds.SUBAGENT)[-1].tools


async def finish_despite_kills(harness: AgentHarness, text: str) -> str:
    run = harness.new_run(text)
    try:
        await harness.execute(run, "channel_ingestion", 1)
    except Killed:
        for _attempt in range(10):
            try:
                await harness.resume(run)
                break
            except Killed:
                continue
    return run.id


@pytest.mark.logs_expected(r"Error handling request from")
async def test_kills_at_random_points_never_repeat_a_write_and_the_run_completes(
    server: FakeOllama, tmp_path: Path
) -> None:
    script = AgentScript(
        subtasks=[("Add", "Append x to log.md"), ("Note", "Write y to note.md")],
        steps={"Add": [call("files_append", path="log.md", text="x"), say("Appended.")],
               "Note": [call("files_list"), call("files_append", path="note.md", text="y"), say("Noted.")]},
        reply="Appended x and y.")
    clean = AgentHarness(server, tmp_path / "clean", script)
    (tmp_path / "clean").mkdir()
    await finish_despite_kills(clean, "append x and y")
    await clean.aclose()
    begun = sorted({key for op, _r, _s, key in clean.journal.ops if op == "begin"})
    finished = sorted({key for op, _r, _s, key in clean.journal.ops if op == "finish"})
    points = ([("begin", key) for key in begun] + [("finish", key) for key in finished]
              + [("commit", str(n)) for n in range(1, 6)])
    rng = random.Random(11)
    scenarios = [[point] for point in points] + [rng.sample(points, 2) for _ in range(30)]
    assert len(scenarios) >= 50
    for number, kills in enumerate(scenarios):
        workspace = tmp_path / f"w{number}"
        workspace.mkdir()
        harness = AgentHarness(server, workspace, AgentScript(**vars(script)))
        for phase, key in kills:
            {"begin": harness.journal.kill_after_begin, "finish": harness.journal.kill_before_finish}.get(
                phase, set()).add(key)
            if phase == "commit":
                harness.checkpointer.kill_before.add(int(key))
        try:
            run_id = await finish_despite_kills(harness, "append x and y")
        finally:
            await harness.aclose()
        assert harness.checkpointer.nodes(run_id)[-1] == "context_manager_hook", kills
        assert (workspace / "log.md").read_text() == "x", kills
        assert (workspace / "note.md").read_text() == "y", kills
        assert [entry.sequence for entry in harness.journal.timeline] == [1, 2], kills
        assert len(harness.checkpointer.values["world_state_diff"]["evolution_timeline"]) == 2, kills


@INTERRUPTED_WRITE_LOGGED
async def test_a_card_half_raised_before_a_kill_is_left_to_its_own_run(harness: AgentHarness) -> None:
    """After a restart the first write settles every call left begun, of any run; a call's card left begun is
    not a call: it is neither run nor marked raised by another run's write (its own run raises it)."""
    harness.model.script = append_script()
    first = harness.new_run("append x to log.md")
    harness.journal.kill_after_begin.add(CALL)
    with pytest.raises(Killed):
        await harness.execute(first, "channel_ingestion", 1)
    edit(harness)
    harness.journal.kill_after_begin.add(f"{CALL}:card")  # killed while the card is being raised
    with pytest.raises(Killed):
        await harness.resume(first)
    subagent._WRITES.pop(harness.journal, None)  # a new process: its first write settles what is left begun
    harness.model.script = append_script(arguments={"path": "other.md", "text": "y"})
    await harness.execute(harness.new_run("append y to other.md"), "channel_ingestion", 1)
    assert (harness.workspace / "other.md").read_text() == "y"
    card = await harness.journal.get(first.id, 3, f"{CALL}:card")
    assert card is not None and card.result is None  # untouched by the other run's write
    assert (harness.workspace / "log.md").read_text() == "edited by hand while the app was down\n"
    harness.model.script = append_script()
    await harness.resume(first)
    assert len(harness.cards.calls) == 1 and harness.cards.calls[0][0] == first.id


@INTERRUPTED_WRITE_LOGGED
async def test_an_approved_exact_call_begun_before_a_kill_and_edited_meanwhile_is_asked_about_again(
    harness: AgentHarness
) -> None:
    """A ``call`` run (Go ahead on an exact-call card) is journaled like any write: killed between its intent
    and the call, the file edited while the app was down → not run, not reported done, a card of its own."""
    approved = ProposedCall("files_append", {"path": "log.md", "text": "x"}, "The run wanted this too.", "files")
    run = replace(harness.new_run("Append x to log.md", permission=WRITE, purpose=CALL_PURPOSE), call=approved)
    harness.journal.kill_after_begin.add("call")
    with pytest.raises(Killed):
        await harness.execute(run, "channel_ingestion", 1)
    edit(harness)
    outcome = await harness.resume(run)
    assert (harness.workspace / "log.md").read_text() == "edited by hand while the app was down\n"
    entry = await harness.journal.get(run.id, 3, "call")
    assert entry is not None and entry.result is not None and entry.result["uncertain"] is True
    assert outcome.values["agent_reply"].startswith("files_append (log.md) may or may not have happened")
    [(card_run, card)] = harness.cards.calls
    assert (card_run, card.tool, dict(card.arguments), card.skill) == (run.id, "files_append",
                                                                      {"path": "log.md", "text": "x"}, "files")
    assert "may or may not have happened" in card.reason
    done = await read_outcome(harness.journal, run.id)
    assert done is not None and not done.changed_something
    assert done.tools_used == ("files_append (log.md) (may or may not have happened; the user is asked)",)
