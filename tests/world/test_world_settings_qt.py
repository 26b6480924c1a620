"""Settings > Skills > Email against the real dovecot: the Test button, clicked, connects with what the form holds
(nothing saved) and says in one sentence what the folders hold, or why it could not."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import Qt

from openhuman_desktop.config_skills import SkillsSettings
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.settings import SettingsWindow
from openhuman_desktop.skills.base import SkillRegistry
from openhuman_desktop.skills.world import WorldSkills
from tests.fakes.clock import FakeClock
from tests.qt.conftest import _delete_qt_objects_on_this_thread, qloop  # noqa: F401  (the Qt tests' fixtures)
from tests.world.servers import PASSWORD, USER, Dovecot, message


def click_and_wait(qtbot, qloop, window: SettingsWindow) -> str:  # type: ignore[no-untyped-def]  # noqa: F811
    """Click Test as a person does and run the loop until its job is done; the sentence it shows."""
    tester = window.skill_testers["email"]
    qtbot.mouseClick(tester.button, Qt.MouseButton.LeftButton)

    async def finished() -> None:
        Jobs.start_all_deferred()  # the job the click made while the loop was not running
        await asyncio.wait_for(window.jobs.wait_idle(), 40)

    qloop.run_until_complete(finished())
    assert tester.button.isEnabled()
    return str(tester.result.text())


def test_the_email_test_button_says_what_the_real_mailbox_holds_or_why_not(
        qtbot, qloop, dovecot: Dovecot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    for number in range(3):
        dovecot.append("SetT1", message(f"S{number} <s{number}@example.org>", f"Hello {number}", "Hi."))
    config_file = tmp_path / "config.toml"
    config_file.write_text("")
    environ = {"OH_FORM_PW": PASSWORD, "OH_WRONG_PW": "not it"}
    world = WorldSkills(SkillRegistry(), lambda: SkillsSettings(), FakeClock(), tmp_path / "skills", environ=environ)
    window = SettingsWindow(config_file, tester=world.test)
    qtbot.add_widget(window)
    window.show_section("skills")
    for key, value in (("imap_host", "127.0.0.1"), ("imap_port", dovecot.tls_port), ("username", USER),
                       ("password_env", "OH_FORM_PW"), ("folders", ["INBOX", "SetT1"]), ("security", "tls"),
                       ("ca_file", str(dovecot.cert))):
        window.field(f"skills.email.{key}").load(value)
    said = click_and_wait(qtbot, qloop, window)
    assert said.startswith("INBOX: ") and said.endswith("; SetT1: 3 messages, 3 new."), said
    assert config_file.read_text() == "", "a test saves nothing"

    window.field("skills.email.password_env").load("OH_WRONG_PW")
    said = click_and_wait(qtbot, qloop, window)
    assert said.startswith(f"The IMAP server 127.0.0.1:{dovecot.tls_port} refused the user name or password of "
                           "$OH_WRONG_PW"), said
    assert "not it" not in said and said.count(". ") == 0, said

    window.field("skills.email.ca_file").load("")
    window.field("skills.email.password_env").load("OH_FORM_PW")
    said = click_and_wait(qtbot, qloop, window)
    assert "certificate this computer does not trust" in said, said
    qloop.run_until_complete(world.aclose())
    qloop.run_until_complete(window.aclose())
