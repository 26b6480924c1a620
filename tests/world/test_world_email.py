"""[skills.email] against a real dovecot (IMAP over TLS, STARTTLS and plain on 127.0.0.1) and aiosmtpd."""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from openhuman_desktop.config_skills import EmailSettings
from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.skills.base import CONNECTED, ERROR, ToolContext
from openhuman_desktop.skills.world import email as email_module
from openhuman_desktop.skills.world import imap
from openhuman_desktop.skills.world.email import EmailSkill, send_target
from tests.world.servers import PASSWORD, USER, Dovecot, SmtpInbox, message

ENV = {"MAIL_PW": PASSWORD}


def settings(dovecot: Dovecot, folder: str, **changes: object) -> EmailSettings:
    base = EmailSettings(enabled=True, imap_host="127.0.0.1", imap_port=dovecot.tls_port, username=USER,
                         password_env="MAIL_PW", folders=(folder,), security="tls", ca_file=str(dovecot.cert))
    return replace(base, **changes)  # type: ignore[arg-type]


async def skill_for(tmp_path: Path, config: EmailSettings, env: dict[str, str] | None = None) -> EmailSkill:
    skill = EmailSkill(tmp_path / "skills" / "email", ENV if env is None else env)
    skill.configure(config)
    return skill


async def call(skill: EmailSkill, name: str, **arguments: object) -> tuple[str, bool]:
    tool = next(tool for tool in skill.tools() if tool.name == name)
    result = await tool.run(arguments, ToolContext(writes_allowed=True))
    return result.text, result.is_error


async def test_new_mail_after_the_baseline_is_one_line_each_and_an_idle_check_reads_nothing(
        dovecot: Dovecot, tmp_path: Path) -> None:
    dovecot.append("Watch1", message("Old <old@example.org>", "Already there", "Before the app looked."))
    skill = await skill_for(tmp_path, settings(dovecot, "Watch1"))
    try:
        await skill.poll(1000.0)
        assert skill.state == CONNECTED
        assert skill.new_items(None) == []  # what was there is the baseline
        baseline = skill.log.signature()
        dovecot.append("Watch1", message("Boss <boss@example.org>", "Invoice overdue",
                                         "Please pay the attached invoice today.\n\n> quoted old text"))
        await skill.poll(2000.0)
        items = skill.new_items(1500.0)
        assert len(items) == 1
        line = items[0].line
        assert line.startswith("email: Boss <boss@example.org>, Invoice overdue, ")
        assert "Please pay the attached invoice today." in line and "quoted" not in line
        assert skill.log.signature() != baseline
        signature, read = skill.log.signature(), skill._session.bytes_read  # type: ignore[union-attr]
        await skill.poll(3000.0)  # nothing new: STATUS only, no message fetched
        assert skill._session.bytes_read == read  # type: ignore[union-attr]
        assert skill.log.signature() == signature
        assert skill.new_items(2500.0) == []
        assert [item.line for item in skill.new_items(1500.0)] == [line]
    finally:
        await skill.aclose()


async def test_the_watch_survives_a_restart_without_reporting_twice(dovecot: Dovecot, tmp_path: Path) -> None:
    config = settings(dovecot, "Watch2")
    dovecot.append("Watch2", message("a@example.org", "First", "one"))
    first = await skill_for(tmp_path, config)
    await first.poll(1000.0)
    dovecot.append("Watch2", message("b@example.org", "Second", "two"))
    await first.poll(2000.0)
    await first.aclose()
    again = await skill_for(tmp_path, config)  # the state file under skills/email/
    try:
        await again.poll(3000.0)
        assert [item.line.split(",")[1].strip() for item in again.new_items(None)] == ["Second"]
        assert (tmp_path / "skills" / "email" / "state.json").stat().st_mode & 0o777 == 0o600
    finally:
        await again.aclose()


async def test_a_rebuilt_folder_is_read_again_and_only_what_arrived_since_is_new(
        dovecot: Dovecot, tmp_path: Path) -> None:
    dovecot.append("Watch3", message("a@example.org", "Kept", "old news"))
    skill = await skill_for(tmp_path, settings(dovecot, "Watch3"))
    try:
        await skill.poll(1000.0)
        dovecot.append("Watch3", message("b@example.org", "Seen once", "reported before the rebuild"))
        import time
        await skill.poll(time.time())
        validity = skill.log.source("Watch3")["validity"]
        assert len(skill.new_items(None)) == 1
        await asyncio.sleep(1.1)
        dovecot.rebuild("Watch3")
        dovecot.append("Watch3", message("c@example.org", "After the rebuild", "truly new"))
        await skill.poll(time.time() + 5)
        assert skill.log.source("Watch3")["validity"] != validity, skill.reason
        subjects = [item.line.split(",")[1].strip() for item in skill.new_items(None)]
        assert sorted(subjects) == ["After the rebuild", "Seen once"]  # "Seen once" not twice, "Kept" never
    finally:
        await skill.aclose()


async def test_starttls_and_plain_on_loopback_work_too(dovecot: Dovecot, tmp_path: Path) -> None:
    for security in ("starttls", "none"):
        skill = await skill_for(tmp_path / security, settings(dovecot, "INBOX", security=security,
                                                              imap_port=dovecot.plain_port))
        try:
            await skill.poll(1000.0)
            assert skill.state == CONNECTED, skill.reason
        finally:
            await skill.aclose()


async def test_a_wrong_password_is_one_sentence_without_it_and_the_skill_recovers(
        dovecot: Dovecot, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    env = {"MAIL_PW": "not-the-password-123"}
    skill = await skill_for(tmp_path, settings(dovecot, "INBOX"), env)
    caplog.set_level(logging.DEBUG)
    try:
        await skill.poll(1000.0)
        assert skill.state == ERROR
        assert "refused the user name or password of $MAIL_PW" in skill.reason
        assert skill.reason.count(".") >= 1 and "\n" not in skill.reason
        env["MAIL_PW"] = PASSWORD  # the person fixes the variable: the next check works, no restart
        await skill.poll(2000.0)
        assert skill.state == CONNECTED
        for secret in ("not-the-password-123", PASSWORD):
            assert secret not in caplog.text and secret not in skill.reason
    finally:
        await skill.aclose()


@pytest.mark.logs_expected(
    r"MAIL_PW that should hold the mailbox",
    r"name its certificate in ca_file if it is your own server",
    r"could not be read: No such file or directory",
    r"skill email: Nothing answers at the IMAP server",
)
async def test_an_unset_variable_an_untrusted_certificate_and_a_closed_port_each_say_why(
        dovecot: Dovecot, tmp_path: Path) -> None:
    cases = [
        (settings(dovecot, "INBOX"), {}, "$MAIL_PW that should hold the mailbox's password is not set"),
        (settings(dovecot, "INBOX", ca_file=None), ENV, "certificate this computer does not trust"),
        (settings(dovecot, "INBOX", ca_file=str(tmp_path / "missing.pem")), ENV, "could not be read"),
    ]
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        cases.append((settings(dovecot, "INBOX", imap_port=closed.getsockname()[1]), ENV, "connection refused"))
        for index, (config, env, words) in enumerate(cases):
            skill = await skill_for(tmp_path / str(index), config, env)
            try:
                await skill.poll(1000.0)
                assert skill.state == ERROR and words in skill.reason, skill.reason
            finally:
                await skill.aclose()


@pytest.mark.logs_expected(r"did not answer in time; it is tried again at the next check")
async def test_a_server_that_hangs_gives_error_and_never_holds_the_loop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(imap, "CONNECT_TIMEOUT", 1.0)
    monkeypatch.setattr(imap, "READ_TIMEOUT", 1.0)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:  # accepts and never says a word
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    config = EmailSettings(enabled=True, imap_host="127.0.0.1", imap_port=listener.getsockname()[1],
                           username=USER, password_env="MAIL_PW", security="none")
    skill = await skill_for(tmp_path, config)
    ticks = 0

    async def count() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    counter = asyncio.create_task(count())
    try:
        await skill.poll(1000.0)
        assert skill.state == ERROR
        assert "did not answer in time" in skill.reason or "lost" in skill.reason, skill.reason
        assert ticks > 20  # the loop went on turning while the worker waited
    finally:
        counter.cancel()
        stop.set()
        thread.join()
        for sock in accepted:
            sock.close()
        listener.close()
        await skill.aclose()


async def test_search_and_read_leave_mail_unread(dovecot: Dovecot, tmp_path: Path) -> None:
    dovecot.append("Tools1", message("Carol <carol@example.org>", "Lunch on Friday?", "Shall we meet at noon?"))
    dovecot.append("Tools1", message("Dan <dan@example.org>", "Quarterly report", "The numbers are attached."))
    skill = await skill_for(tmp_path, settings(dovecot, "Tools1"))
    try:
        text, is_error = await call(skill, "email_search", query="report", folder="Tools1")
        assert not is_error and "Quarterly report" in text and "Lunch" not in text
        message_id = text.split("(id ")[1].rstrip(")\n")
        text, is_error = await call(skill, "email_read", id=message_id)
        assert not is_error
        assert "From: Dan <dan@example.org>" in text and "The numbers are attached." in text
        text, _ = await call(skill, "email_search", query="", folder="Tools1", limit=1)
        assert "Quarterly report" in text and "Lunch" not in text  # the newest first
        text, is_error = await call(skill, "email_read", id="Tools1:999")
        assert is_error and "no message Tools1:999" in text
        text, is_error = await call(skill, "email_read", id="nonsense")
        assert is_error and "FOLDER:UID" in text
        client = dovecot.client()
        client.select_folder("Tools1", readonly=True)
        assert client.search(["UNSEEN"])  # still unread
        client.logout()
    finally:
        await skill.aclose()


async def test_email_send_goes_through_smtp_and_names_its_recipients(
        dovecot: Dovecot, smtp: SmtpInbox, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    config = settings(dovecot, "INBOX", smtp_host="127.0.0.1", smtp_port=smtp.port, security="none",
                      imap_port=dovecot.plain_port, username="alice")
    skill = await skill_for(tmp_path, config)
    try:
        send = next(tool for tool in skill.tools() if tool.name == "email_send")
        assert send.writes
        arguments = {"to": "Boss <Boss@Example.ORG>", "subject": "Fwd: Invoice", "body": "See below."}
        assert send_target(arguments) == ("Boss@example.org",)
        text, is_error = await call(skill, "email_send", **arguments)
        assert not is_error, text
        assert len(smtp.received) == 1
        sender, recipients, received = smtp.received[0]
        assert recipients == ["Boss@example.org"] and received["Subject"] == "Fwd: Invoice"
        assert "See below." in received.get_content()
        assert PASSWORD not in caplog.text
        assert send_target({"to": "a@x.org", "cc": "b@y.org"}) == ("a@x.org", "b@y.org")
        text, is_error = await call(skill, "email_send", to="not an address", subject="x", body="y")
        assert is_error and "not an e-mail address" in text
    finally:
        await skill.aclose()


@pytest.mark.logs_expected(r"refused the user name or password of")
async def test_a_refused_smtp_login_is_a_failed_call_that_says_so(dovecot: Dovecot, tmp_path: Path) -> None:
    inbox = SmtpInbox(password="another one").start()
    try:
        config = settings(dovecot, "INBOX", smtp_host="127.0.0.1", smtp_port=inbox.port, security="none",
                          imap_port=dovecot.plain_port)
        skill = await skill_for(tmp_path, config)
        text, is_error = await call(skill, "email_send", to="x@example.org", subject="s", body="b")
        assert is_error and text.startswith("Not sent: ") and "refused the user name or password" in text
        assert PASSWORD not in text and not inbox.received
        await skill.aclose()
    finally:
        inbox.stop()


async def test_the_settings_test_button_says_what_the_folders_hold(dovecot: Dovecot, tmp_path: Path) -> None:
    dovecot.append_many("Count1", [message(f"n{i}@example.org", f"m{i}", "x") for i in range(3)])
    skill = await skill_for(tmp_path, settings(dovecot, "Count1"))
    try:
        assert await skill.test() == "Count1: 3 messages, 3 new."
        await skill.poll(1000.0)
        dovecot.append("Count1", message("z@example.org", "later", "x"))
        assert await skill.test() == "Count1: 4 messages, 1 new."
    finally:
        await skill.aclose()
    broken = await skill_for(tmp_path / "b", settings(dovecot, "Count1"), {"MAIL_PW": "wrong"})
    with pytest.raises(UserFacingError, match="refused the user name or password"):
        await broken.test()
    await broken.aclose()


def test_the_poll_timeout_is_longer_than_the_socket_limits() -> None:
    assert email_module.POLL_TIMEOUT > imap.CONNECT_TIMEOUT + imap.READ_TIMEOUT
