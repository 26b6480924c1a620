"""Settings > Skills: a form per built-in skill (mail, feeds, calendars, web, Slack) and its Test button, which
tests what the form holds with the app's own skills (here: a real calendar file and an unset Slack variable)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from openhuman_desktop.config_skills import SkillsSettings
from openhuman_desktop.qt.settings import SettingsWindow
from openhuman_desktop.skills.base import SkillRegistry
from openhuman_desktop.skills.world import WorldSkills
from tests.fakes.clock import FakeClock

ICS = ("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//EN\nBEGIN:VEVENT\nUID:a@t\nSUMMARY:Dentist\n"
       "DTSTART:20300101T100000Z\nEND:VEVENT\nEND:VCALENDAR\n")


@pytest.mark.logs_expected(r"OH_NOT_SET_HOOK that should hold the Slack webhook")
def test_each_skill_has_a_form_and_its_test_says_what_it_found(qtbot, qloop, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "work.ics").write_text(ICS)
    config_file = tmp_path / "config.toml"
    config_file.write_text("")
    clock = FakeClock(start=1_893_488_400.0)  # 2030-01-01 09:00 UTC: the dentist is an hour ahead
    world = WorldSkills(SkillRegistry(), lambda: SkillsSettings(), clock, None, environ={})
    window = SettingsWindow(config_file, tester=world.test)
    qtbot.add_widget(window)
    window.show_section("skills")
    assert set(window.skill_testers) == {"email", "feeds", "calendar", "web", "slack"}
    window.field("skills.calendar.sources").load([str(tmp_path / "work.ics")])
    said = qloop.run_until_complete(window.skill_testers["calendar"].test())
    assert said.startswith("1 event in the next 24 h; next: 2030-01-01 ")
    assert window.skill_testers["calendar"].result.text() == said
    window.field("skills.slack.webhook_env").load("OH_NOT_SET_HOOK")
    said = qloop.run_until_complete(window.skill_testers["slack"].test())
    assert said.startswith("The variable $OH_NOT_SET_HOOK that should hold the Slack webhook's address is not set")
    window.field("skills.email.imap_host").load("imap.example.org")
    window.field("skills.email.security").load("none")
    said = qloop.run_until_complete(window.skill_testers["email"].test())
    assert said.startswith("Not tested: ") and "loopback host" in said
    qloop.run_until_complete(asyncio.sleep(0))
    qloop.run_until_complete(world.aclose())
    qloop.run_until_complete(window.aclose())
