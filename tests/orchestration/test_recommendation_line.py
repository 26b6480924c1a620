"""A chat answer leaves its ``RECOMMENDED ACTION:`` line to the approval card: neither streamed nor delivered
(a heartbeat run keeps it: its card is parsed from it). The stream filter gives the same text however the
answer is cut into pieces."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from openhuman_desktop.orchestration.ports import ESCALATION
from openhuman_desktop.orchestration.recommend import (
    GO_AHEAD_FIRST,
    RecommendationFilter,
    drop_recommendation_lines,
    without_recommendation,
)
from tests.fakes import agent_model as kinds
from tests.fakes.agent_harness import AgentHarness
from tests.fakes.agent_model import AgentModel, AgentScript, kind_of
from tests.fakes.model_servers import FakeOllama, Reply

ACTION = "archive old.md"


def in_pieces(model: AgentModel, pieces: int) -> Any:
    """The scripted model, with pass 2 streamed in ``pieces`` chunks (cuts fall inside the protocol line)."""
    def respond(body: Any) -> Reply:
        reply = model(body)
        messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
        return dataclasses.replace(reply, pieces=pieces) if kind_of(messages) == kinds.PASS2 else reply
    return respond


async def test_a_chat_answer_leaves_the_recommended_action_to_its_card(harness: AgentHarness,
                                                                       server: FakeOllama) -> None:
    harness.model.script = AgentScript(
        reply=f"Two notes are old.\nRECOMMENDED ACTION: {ACTION}",
        answer=f"Two of your notes are old.\n\n**RECOMMENDED ACTION:** {ACTION}\n\nShall I?")
    server.set_responder(in_pieces(harness.model, 37))
    outcome = await harness.run("Which of my notes are old?")
    assert harness.cards.raised == [(outcome.run.id, ACTION)]               # the card has the action …
    assert outcome.values["channel_response"] == "Two of your notes are old.\n\nShall I?"   # … the answer not
    assert "RECOMMENDED" not in outcome.streamed and "Shall I?" in outcome.streamed
    assert outcome.values["messages"][-1]["content"] == outcome.values["channel_response"]


@pytest.mark.logs_expected(r"the reasoning model's reply is delivered as it is")
async def test_the_workers_reply_delivered_as_it_is_leaves_it_out_too(harness: AgentHarness) -> None:
    harness.model.script = AgentScript(reply=f"Two notes are old.\nRECOMMENDED ACTION: {ACTION}",
                                       fail={kinds.PASS2})                  # the quick tier cannot compose
    outcome = await harness.run("Which of my notes are old?")
    assert harness.cards.raised == [(outcome.run.id, ACTION)]
    assert outcome.values["channel_response"] == "Two notes are old."
    assert "RECOMMENDED" not in outcome.streamed


async def test_an_answer_that_was_only_the_protocol_line_says_the_card_waits(harness: AgentHarness) -> None:
    harness.model.script = AgentScript(reply=f"RECOMMENDED ACTION: {ACTION}", answer=f"RECOMMENDED ACTION: {ACTION}")
    outcome = await harness.run("Which of my notes are old?")
    assert outcome.values["channel_response"] == GO_AHEAD_FIRST   # never empty: the router would loop


async def test_a_heartbeat_run_keeps_the_line_its_card_is_read_from(harness: AgentHarness) -> None:
    from openhuman_desktop.orchestration.nodes import HEARTBEAT_SUBTASK

    harness.model.script = AgentScript(
        steps={HEARTBEAT_SUBTASK: [Reply(content=f"Found it.\nRECOMMENDED ACTION: {ACTION}")]})
    outcome = await harness.run("Check old.md", permission="read", purpose=ESCALATION)
    assert outcome.values["channel_response"] == f"Found it.\nRECOMMENDED ACTION: {ACTION}"


def test_without_recommendation_keeps_everything_else() -> None:
    assert without_recommendation("No line here.\n\n- a\n- b") == "No line here.\n\n- a\n- b"
    assert without_recommendation(f"A.\n\n> RECOMMENDED ACTION: {ACTION}\n\nB.") == "A.\n\nB."
    assert without_recommendation(f"## RECOMMENDED ACTION: {ACTION}\nB.") == "B."
    assert without_recommendation("We RECOMMENDED ACTION: inline, not a line of its own.") == \
        "We RECOMMENDED ACTION: inline, not a line of its own."


LINES = st.sampled_from(["Two notes are old.", "", "- a bullet", "**bold**", f"RECOMMENDED ACTION: {ACTION}",
                         f"**RECOMMENDED ACTION:** {ACTION}", "  - RECOMMENDED ACTION: x", "RECOMMENDED",
                         "RECOMMENDED ACTIONS are listed", "* ", "#"])


@given(st.lists(LINES, max_size=8), st.booleans(), st.lists(st.integers(min_value=1, max_value=7), max_size=30))
def test_the_stream_filter_gives_the_same_text_however_it_is_cut(lines: list[str], final_newline: bool,
                                                                 cuts: list[int]) -> None:
    text = "\n".join(lines) + ("\n" if final_newline else "")
    shown = RecommendationFilter()
    out, position = [], 0
    for size in cuts:
        out.append(shown.feed(text[position:position + size]))
        position += size
    out.append(shown.feed(text[position:]))
    out.append(shown.end())
    assert "".join(out) == drop_recommendation_lines(text)
