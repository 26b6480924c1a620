"""A mail or a Slack post that began and did not finish before a kill is never sent again by itself (issue 21,
25): nothing the app can look at says whether the server got it, so the call may or may not have happened, the
run is told so, and the user gets a card for exactly that call. Through the sub-agent's journal, as a resumed run
meets it, against a real SMTP server and the local Slack webhook."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop.config_skills import SlackSettings
from openhuman_desktop.llm.base import ToolCall
from openhuman_desktop.orchestration import prompts
from openhuman_desktop.orchestration.ports import ProposedCall
from openhuman_desktop.orchestration.subagent import SubagentRun, make_call
from openhuman_desktop.skills.base import Skill, Tool
from openhuman_desktop.skills.world.slack import SlackSkill
from tests.fakes.journal import Killed, MemoryJournal
from tests.world.servers import Dovecot, SmtpInbox, WebServer
from tests.world.test_world_email import settings, skill_for

# the warning an interrupted write causes on purpose
INTERRUPTED_WRITE_LOGGED = pytest.mark.logs_expected(r"interrupted.*(may or may not have happened|cannot be observed)")


KEY = "sub:0:call:1:0"
MAIL = {"to": "boss@example.org", "subject": "Fwd: three urgent messages", "body": "See below."}


class Asked:
    """The run's ``ask``: the cards raised, by journal key."""

    def __init__(self) -> None:
        self.cards: list[tuple[str, ProposedCall]] = []

    async def __call__(self, key: str, call: ProposedCall) -> None:
        self.cards.append((key, call))


def tool_of(skill: Skill, name: str) -> Tool:
    return next(tool for tool in skill.tools() if tool.name == name)


async def meet(skill: Skill, journal: MemoryJournal, name: str, arguments: Mapping[str, Any],
               asked: Asked | None = None) -> Any:
    """The call met by a run (a resumed one when the journal already holds it)."""
    caller: Any = None  # no model is asked: one tool call through the journal
    run = SubagentRun(caller, journal, "run-1", 3, 0, list(skill.tools()), True, 4, ask=asked)
    return await make_call(run, KEY, ToolCall(name, dict(arguments)), tool_of(skill, name), 0, [name])


async def killed(skill: Skill, name: str, arguments: Mapping[str, Any], *, sent: bool) -> MemoryJournal:
    """Make the call and "kill" the process: after the server got it and before its result was recorded
    (``sent``), or right after its intent was recorded and before anything was sent."""
    journal = MemoryJournal()
    (journal.kill_before_finish if sent else journal.kill_after_begin).add(KEY)
    with pytest.raises(Killed):
        await meet(skill, journal, name, arguments)
    return journal


def uncertain(record: Any, asked: Asked, name: str, arguments: Mapping[str, Any]) -> None:
    assert record.settled and record.is_error and record.uncertain and not record.changed
    assert record.text == prompts.fill(prompts.INTERRUPTED_UNKNOWN, why="whether it took effect cannot be checked")
    [(key, card)] = asked.cards
    assert (key, card.tool, dict(card.arguments)) == (KEY, name, dict(arguments))
    assert "may or may not have happened" in card.reason


@INTERRUPTED_WRITE_LOGGED
@pytest.mark.parametrize("sent", [True, False])
async def test_an_interrupted_email_send_is_never_sent_again_and_the_user_is_asked(
        dovecot: Dovecot, smtp: SmtpInbox, tmp_path: Path, sent: bool) -> None:
    config = settings(dovecot, "INBOX", smtp_host="127.0.0.1", smtp_port=smtp.port, security="none",
                      imap_port=dovecot.plain_port, username="alice")
    skill = await skill_for(tmp_path, config)
    try:
        journal = await killed(skill, "email_send", MAIL, sent=sent)
        assert len(smtp.received) == int(sent)
        asked = Asked()
        record = await meet(skill, journal, "email_send", MAIL, asked)
        uncertain(record, asked, "email_send", MAIL)
        assert len(smtp.received) == int(sent)  # never a second copy, nor a first one the user did not confirm
        again = await meet(skill, journal, "email_send", MAIL, asked)  # the run resumed once more: replayed
        assert again.replayed and again.uncertain and len(smtp.received) == int(sent)
    finally:
        await skill.aclose()


@INTERRUPTED_WRITE_LOGGED
@pytest.mark.parametrize("sent", [True, False])
async def test_an_interrupted_slack_post_is_never_posted_again_and_the_user_is_asked(
        web_server: WebServer, sent: bool) -> None:
    skill = SlackSkill({"SLACK_HOOK": web_server.url + "/services/T000/B000/secretpart"})
    skill.configure(SlackSettings(True, "SLACK_HOOK"))
    arguments = {"text": "Daily summary: all quiet."}
    try:
        journal = await killed(skill, "slack_post", arguments, sent=sent)
        assert len(web_server.state.posts) == int(sent)
        asked = Asked()
        record = await meet(skill, journal, "slack_post", arguments, asked)
        uncertain(record, asked, "slack_post", arguments)
        assert len(web_server.state.posts) == int(sent)
    finally:
        await skill.aclose()
