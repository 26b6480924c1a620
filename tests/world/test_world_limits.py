"""What an approval licenses the world skills to do (issue 22 with the approval gate): an e-mail goes only to
recipients the card named, every one of them; Slack is posted to only when the card says Slack."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from openhuman_desktop import events
from openhuman_desktop.config_skills import EmailSettings, SkillsSettings, SlackSettings
from openhuman_desktop.skills.base import SkillRegistry, Tool
from openhuman_desktop.skills.world import WorldSkills
from openhuman_desktop.store import SubconsciousStore
from openhuman_desktop.subconscious.approvals import ApprovalGate
from openhuman_desktop.supervisor import TaskSupervisor
from tests.fakes.clock import FakeClock
from tests.fakes.engine_harness import Json, Reply, open_harness
from tests.world.servers import PASSWORD, Dovecot, SmtpInbox, message
from tests.world.test_world_heartbeat import PASSWORD_ENV, configure, email_table, report_ids

SKILLS = SkillsSettings(email=EmailSettings(enabled=True, imap_host="127.0.0.1", username="alice",
                                            password_env="MAIL_PW"),
                        slack=SlackSettings(enabled=True, webhook_env="HOOK"))


@pytest.fixture
async def gate(store: SubconsciousStore, tmp_path: Path) -> AsyncIterator[tuple[ApprovalGate, WorldSkills]]:
    registry = SkillRegistry()
    world = WorldSkills(registry, lambda: SKILLS, FakeClock(), None, environ={"MAIL_PW": "x", "HOOK": "https://hooks.slack.com/services/T0/B0/limits"})
    supervisor = TaskSupervisor()
    yield ApprovalGate(store, FakeClock(), events.EventBus(), supervisor, registry, lambda: None), world
    await supervisor.cancel_all()
    await world.aclose()


def tool(world: WorldSkills, name: str) -> Tool:
    return next(tool for skill in world.skills for tool in skill.listed_tools() if tool.name == name)


def test_an_email_goes_only_to_recipients_the_card_named_every_one(gate: tuple[ApprovalGate, WorldSkills]) -> None:
    approvals, world = gate
    send = tool(world, "email_send")
    license_ = approvals.license_for("Forward the invoice to anna@example.org and Bob@Example.org")

    def allowed(**arguments: str) -> bool:
        return license_.allows(send.name, send.target_of({"subject": "s", "body": "b", **arguments}))

    assert allowed(to="anna@example.org")
    assert allowed(to="Anna <anna@EXAMPLE.org>, bob@example.org")
    assert allowed(to="anna@example.org", cc="bob@example.org")
    assert not allowed(to="anna@example.org, eve@evil.example"), "one recipient the card did not name"
    assert not allowed(to="anna@example.org", cc="eve@evil.example"), "a copy the card did not name"
    assert not allowed(to="eve@evil.example")
    narrower = approvals.license_for("Forward the invoice to anna@example.org")
    assert not narrower.allows(send.name, send.target_of({"to": "anna@example.org, bob@example.org"}))
    assert not approvals.license_for("Archive the invoice").allows(send.name, send.target_of({"to": "a@b.org"}))
    both = approvals.license_for("Append the totals to a.md and b.md")
    assert both.allows(send.name, ("a.md", "b.md")) and not both.allows(send.name, "a.md\nb.md"), \
        "one path with a line break in it is not the two files the card named"


def test_slack_is_posted_to_only_when_the_card_says_slack(gate: tuple[ApprovalGate, WorldSkills]) -> None:
    approvals, world = gate
    post = tool(world, "slack_post")
    assert post.writes
    assert "slack_post" not in approvals.license_for("Forward the three urgent emails to boss@example.org").tools
    assert "slack_post" not in approvals.license_for("Append the summary to notes/todo.md").tools
    assert approvals.license_for("Post the daily summary to Slack").allows("slack_post", post.target_of({"text": "x"}))


async def test_an_approved_forward_with_a_recipient_the_card_did_not_name_sends_nothing_and_asks(
        dovecot: Dovecot, smtps: SmtpInbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    async with open_harness(tmp_path, monkeypatch) as h:
        dovecot.create("Limit1")
        await configure(h, email_table(dovecot, smtps, "Limit1"))
        await h.add_task("Check urgent emails", intent="read")
        await h.tick()  # the baseline
        dovecot.append("Limit1", message("Client <c@example.org>", "URGENT contract", "Please sign today."))
        h.local.decide = lambda task_id, title: "escalate"

        def analyse(body: Json) -> Reply:
            [found] = report_ids(body)
            return Reply(content=f"RECOMMENDED ACTION: Forward the urgent email ({found}) to boss@example.org")

        h.reasoning.execute = analyse  # type: ignore[assignment]
        await h.clock.advance(600)
        await h.tick()
        [card] = await h.escalations("pending")

        def forward(body: Json) -> Reply:  # the run adds a recipient the card never named
            if not any(m.get("role") == "tool" for m in body.get("messages", [])):
                return Reply(tool_calls=[{"name": "email_send", "arguments": {
                    "to": "boss@example.org, eve@evil.example", "subject": "Fwd: URGENT contract",
                    "body": "Please sign today."}}])
            return Reply(content="Could not forward it as asked.")

        h.reasoning.execute = forward  # type: ignore[assignment]
        await h.approvals.escalations_approve(card.id)
        await h.approval_settled(card.id)
        assert smtps.received == [], "nothing is sent to a recipient the card did not name"
        [asked] = [c for c in await h.escalations("pending") if c.is_call]
        assert re.search(r"eve@evil\.example", asked.title + asked.description)
