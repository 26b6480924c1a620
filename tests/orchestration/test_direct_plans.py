"""The chat agent at small sizes (issue 24): plans the words settle, an empty plan asked again, pass 1 kept honest.

On the fake model server (real HTTP), real file skills and a real journal.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from openhuman_desktop.orchestration.direct import (
    AppendDone,
    appended_reply,
    direct_kind,
    direct_plan,
    keeps_to,
    needs_tools,
    paths_in,
    quoted_line,
    relevant_lines,
)
from openhuman_desktop.orchestration.ports import READ, WRITE
from openhuman_desktop.skills.files import WorkspaceFilesSkill
from tests.fakes import agent_model as kinds
from tests.fakes.agent_harness import AgentHarness
from tests.fakes.agent_model import AgentScript, call, say
from tests.fakes.journal import Killed


def test_the_words_of_a_request_say_when_it_is_one_file_one_question_or_one_edit() -> None:
    assert direct_kind("What does notes.md say about the plumber?") == "read"
    assert direct_kind("Does projects/garden.md mention beans?") == "read"
    assert direct_kind("Append the line 'buy milk' to todo.md") == "edit"
    assert direct_kind("Could you add 'call Anna' to todo.md please") == "edit"
    assert direct_kind("What files are in my workspace?") == "list"
    assert direct_kind("Compare notes.md with todo.md") is None  # two files: the planner's
    assert direct_kind("Plan my week") is None
    assert direct_kind("What is 17 times 23?") == "sum"  # the app works it out (orchestration/arithmetic.py)
    assert paths_in("see notes.md, then notes.md and a/b.txt") == ["notes.md", "a/b.txt"]


def test_a_direct_plan_needs_its_tool_on_offer(tmp_path: Path) -> None:
    skill = WorkspaceFilesSkill(tmp_path)
    reads = [tool for tool in skill.tools() if not tool.writes]
    everything = list(skill.tools())
    edit = "Append the line 'buy milk' to todo.md"
    assert direct_plan(edit, reads) is None  # a read run is never handed an edit, whatever its words
    plan = direct_plan(edit, everything)
    assert plan is not None and "files_append" in plan.instructions and "todo.md" in plan.instructions
    question = direct_plan("What is in notes.md?", reads)
    assert question is not None and 'files_read with path "notes.md"' in question.instructions
    assert needs_tools("Does my garden plan mention beans?", reads)
    assert not needs_tools("Hello! How are you today?", reads)
    assert not needs_tools("Does my garden plan mention beans?", [])


def test_instructions_that_invent_a_number_or_drop_a_file_do_not_keep_to_the_message() -> None:
    message = "What is the plumber's phone number in notes.md?"
    assert keeps_to(message, "Find the plumber's phone number in notes.md and give it to the user.")
    assert not keeps_to(message, "The plumber's number is 555-0199 (see notes.md).")
    assert not keeps_to(message, "Find the plumber's phone number and give it to the user.")
    assert not keeps_to("How many tomatoes are in the garden plan?", "Read garden.md and count them.")


async def test_a_single_file_question_is_answered_from_the_file_the_app_read_itself(harness: AgentHarness) -> None:
    (harness.workspace / "notes.md").write_text("Call the plumber on Tuesday.\n", encoding="utf-8")
    harness.model.script = AgentScript(
        instructions="The plumber's number is 555-0199.",  # what a small front desk answers: never asked
        subtasks=[("any", "")],  # the fake's one sub-task answers whatever title the app gives it
        steps={"any": [say("notes.md says: call the plumber on Tuesday.")]},
        reply="never asked")
    outcome = await harness.run("What does notes.md say about the plumber?")
    assert harness.permissions == [(outcome.run.id, READ)]
    asked = harness.model.kinds()
    assert kinds.PLAN not in asked and kinds.PASS1 not in asked and kinds.REPLY not in asked
    assert kinds.PASS2 not in asked, "the answer is the sub-agent's, not said again by the quick model"
    [first] = harness.model.of(kinds.SUBAGENT)
    user = next(str(m["content"]) for m in first.messages if m.get("role") == "user")
    assert "Lines of the file notes.md:" in user and "Call the plumber on Tuesday." in user and "555" not in user
    assert first.tools == (), "the file was read for it: no tool to call, no wrong path to write"
    read = await harness.journal.get(outcome.run.id, 3, "direct:read")
    assert read is not None and "plumber" in str(read.result)
    assert outcome.values["channel_response"] == "notes.md says: call the plumber on Tuesday."


async def test_a_requested_append_of_a_quoted_line_is_done_once_by_the_app(harness: AgentHarness) -> None:
    (harness.workspace / "todo.md").write_text("# To do\n", encoding="utf-8")
    harness.model.script = AgentScript(
        instructions="unused", subtasks=[("any", "")],
        # A small model that would append again and add words of its own: it is offered no tool.
        steps={"any": [call("files_append", path="todo.md", text="buy milk\nhave a nice day\n"),
                       say("Added 'buy milk' to todo.md.")]},
        reply="never asked")
    outcome = await harness.run("Append the line 'buy milk' to todo.md")
    assert harness.permissions == [(outcome.run.id, WRITE)]
    assert (harness.workspace / "todo.md").read_text(encoding="utf-8") == "# To do\nbuy milk\n"
    # The reply is the app's, from what the tool did: no model is asked anything (no sub-agent to echo its
    # instructions, no pass 2 to restate, no quick model to compress).
    assert harness.model.kinds() == []
    assert outcome.values["channel_response"] == 'Added "buy milk" to todo.md.'
    assert outcome.streamed == 'Added "buy milk" to todo.md.'
    assert outcome.values["world_state_diff"]["evolution_timeline"], "the append is in the run's timeline"
    assert quoted_line("Append 'it's done' to notes.md") == "it's done"
    assert quoted_line("Add milk to todo.md") is None and quoted_line("Add 'a' and 'b' to todo.md") is None


async def test_an_append_that_did_not_happen_says_so_plainly(harness: AgentHarness) -> None:
    (harness.workspace / "todo.md").mkdir()  # a folder: the files tool cannot append to it
    harness.model.script = AgentScript(instructions="unused", subtasks=[("any", "")],
                                       steps={"any": [say("Added 'buy milk' to todo.md.")]}, reply="never asked")
    outcome = await harness.run("Append the line 'buy milk' to todo.md")
    reply = outcome.values["channel_response"]
    assert reply.startswith('"buy milk" was not added to todo.md: '), reply
    assert "Added" not in reply and harness.model.kinds() == []


async def test_a_requested_append_is_not_done_twice_when_the_run_resumes(harness: AgentHarness) -> None:
    (harness.workspace / "todo.md").write_text("# To do\n", encoding="utf-8")
    harness.checkpointer.kill_before = {3}  # agent_execution ran (the line was appended), its commit was lost
    run = harness.new_run("Append the line 'buy milk' to todo.md")
    with pytest.raises(Killed):
        await harness.execute(run, "channel_ingestion", 1)
    assert harness.checkpointer.nodes(run.id)[-1] != "agent_execution"
    assert (harness.workspace / "todo.md").read_text(encoding="utf-8") == "# To do\nbuy milk\n"
    outcome = await harness.resume(run)
    assert (harness.workspace / "todo.md").read_text(encoding="utf-8") == "# To do\nbuy milk\n"
    assert outcome.values["channel_response"] == 'Added "buy milk" to todo.md.'


def test_the_reply_to_an_edit_is_what_the_tool_did() -> None:
    assert appended_reply([], "todo.md") == "Nothing was added to todo.md."
    twice = [AppendDone("todo.md", "buy milk\n", True)] * 2
    assert appended_reply(twice, "todo.md") == 'Added "buy milk" to todo.md 2 times.'
    lines = AppendDone("todo.md", "buy milk\nhave a nice day\n", True)
    assert appended_reply([lines], "todo.md") == 'Added 2 lines ("buy milk" …) to todo.md.'
    maybe = AppendDone("todo.md", "buy milk\n", False, uncertain=True, problem="the run was interrupted.")
    assert appended_reply([maybe], "todo.md") == ('Adding "buy milk" to todo.md may or may not have happened: '
                                                  'the run was interrupted.')


async def test_an_append_the_model_writes_is_reported_from_its_calls(harness: AgentHarness) -> None:
    (harness.workspace / "todo.md").write_text("# To do\n", encoding="utf-8")
    harness.model.script = AgentScript(
        instructions="unused", subtasks=[("any", "")],
        steps={"any": [call("files_append", path="todo.md", text="buy milk\n"),
                       say("Sub-task: Append to todo.md The user in one sentence that …")]},
        reply="never asked")
    outcome = await harness.run("Add buy milk to todo.md")
    assert outcome.values["channel_response"] == 'Added "buy milk" to todo.md.'
    harness.model.script = AgentScript(instructions="unused", subtasks=[("any", "")],
                                       steps={"any": [say("I added eggs to todo.md.")]}, reply="never asked")
    outcome = await harness.run("Add eggs to todo.md")
    assert outcome.values["channel_response"] == "Nothing was added to todo.md."


async def test_a_requested_append_without_quotes_is_written_by_the_model_once(harness: AgentHarness) -> None:
    (harness.workspace / "todo.md").write_text("# To do\n", encoding="utf-8")
    harness.model.script = AgentScript(
        instructions="unused", subtasks=[("any", "")],
        steps={"any": [call("files_append", path="todo.md", text="buy milk\n"), say("Added 'buy milk'.")]},
        reply="I added 'buy milk' to todo.md.")
    await harness.run("Add buy milk to todo.md")
    assert kinds.PLAN not in harness.model.kinds()
    assert (harness.workspace / "todo.md").read_text(encoding="utf-8") == "# To do\nbuy milk\n"


async def test_an_empty_plan_for_a_question_about_the_files_is_asked_once_more(harness: AgentHarness) -> None:
    (harness.workspace / "garden.md").write_text("Tomatoes in the south bed, beans along the fence.\n",
                                                 encoding="utf-8")
    harness.model.script = AgentScript(instructions="Find whether the garden plan mentions beans.", subtasks=[],
                                       reply="I could not look.")
    outcome = await harness.run("Does my garden plan mention beans?")
    plans = harness.model.of(kinds.PLAN)
    assert len(plans) == 2, harness.model.kinds()
    again = str(plans[1].messages[-1]["content"])
    assert "cannot be answered without a tool" in again
    # Empty twice: the request itself is the one sub-task, and a sub-agent with the file tools runs.
    assert harness.model.of(kinds.SUBAGENT), harness.model.kinds()
    assert outcome.run.id


async def test_an_empty_plan_for_a_greeting_stands(harness: AgentHarness) -> None:
    harness.model.script = AgentScript(instructions="Greet the user back.", subtasks=[], reply="Hello!")
    await harness.run("Hello! How are you today?")
    assert len(harness.model.of(kinds.PLAN)) == 1 and not harness.model.of(kinds.SUBAGENT)


async def test_front_desk_instructions_with_a_made_up_number_give_way_to_the_message(harness: AgentHarness) -> None:
    harness.model.script = AgentScript(instructions="Tell the user the plumber's number is 555-0199.",
                                       subtasks=[], reply="I do not know the number.")
    await harness.run("Who should I call about the kitchen tap?")
    [plan] = harness.model.of(kinds.PLAN)[:1]
    user = next(str(m["content"]) for m in plan.messages if m.get("role") == "user")
    assert "555" not in user
    assert "Instructions from the front desk:\nWho should I call about the kitchen tap?" in user


def test_a_file_question_is_shown_the_lines_that_share_its_words() -> None:
    notes = ("# Notes\n\nCall the plumber on Tuesday about the kitchen tap.\n"
             "Plumber: Mario Rossi, phone 0151 2345 678.\nThe garden needs water on Sunday.\n")
    shown = relevant_lines(notes, "On which day should I call the plumber, according to notes.md?", "notes.md")
    assert "Tuesday" in shown and "Sunday" not in shown, "the line about the garden would mislead a small model"
    trip = "Flight LH 1234 from Hamburg to Lisbon on 14 March, leaving at 07:25.\n"
    assert relevant_lines(trip, "At what time does my flight in trip.md leave?", "trip.md") == trip.strip()
    assert relevant_lines(notes, "What is in notes.md?", "notes.md") == "\n".join(
        line for line in notes.splitlines() if line), "no shared word: the whole file"
