"""``[skills.email]`` (CONTRACT §12.2): a mailbox. IMAP (imapclient on its own thread) watches the listed
folders for new messages and answers ``email_search`` / ``email_read``; SMTP (aiosmtplib) sends ``email_send``.

The password is read from the variable named by ``password_env`` at each connection and goes nowhere else:
not into a log line, a reason, a prompt or a tool's answer.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from email.message import EmailMessage
from email.utils import formatdate, getaddresses, make_msgid
from pathlib import Path
from typing import Any, TypeVar

import aiosmtplib

from openhuman_desktop.config_skills import EmailSettings
from openhuman_desktop.errors import InvalidInput, UserFacingError
from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.secret_env import secret_from
from openhuman_desktop.skills._args import checked_tool, object_schema
from openhuman_desktop.skills.base import CONNECTED, DISABLED, ERROR, STARTING, Mutation, SkillSetting, ToolResult
from openhuman_desktop.skills.world._mail_text import attachments, body_text
from openhuman_desktop.skills.world._watch import WatchItem, clip
from openhuman_desktop.skills.world.base import WatchingSkill
from openhuman_desktop.skills.world.imap import (
    ImapSession,
    MailError,
    describe,
    ssl_context,
)

log = logging.getLogger(__name__)

T = TypeVar("T")

POLL_TIMEOUT = 90.0
"""Seconds one check of every folder may take before the skill says the server hangs (the socket's own limits
end the thread's wait soon after)."""
SEND_TIMEOUT = 60.0
MAX_SEARCH = 50
MAX_READ_CHARS = 20_000
MAX_RECIPIENTS = 20
_ADDRESS = re.compile(r"[^@\s,;<>\"]+@[^@\s,;<>\"]+\.[^@\s,;<>\"]+")
_ID = re.compile(r"(?P<folder>.+):(?P<uid>\d+)")

SEARCH_SPEC = ToolSpec(
    name="email_search",
    description="Search the mailbox: the newest messages whose text holds the query (empty: the newest of all), "
                "one line each with its id for email_read.",
    parameters=object_schema({
        "query": {"type": "string", "maxLength": 500, "description": "Words to look for (sender, subject, text)."},
        "folder": {"type": "string", "maxLength": 200, "description": "Folder to search (default: the first "
                                                                        "watched folder, usually INBOX)."},
        "limit": {"type": "integer", "minimum": 1, "maximum": MAX_SEARCH, "default": 10},
    }, required=["query"]),
)
READ_SPEC = ToolSpec(
    name="email_read",
    description="Read one message by its id (as email_search or the situation report gives it, e.g. INBOX:42): "
                "its sender, recipients, date, subject, text and attachment names. It stays unread.",
    parameters=object_schema({"id": {"type": "string", "minLength": 3, "maxLength": 300}}, required=["id"]),
)
SEND_SPEC = ToolSpec(
    name="email_send",
    description="Send an e-mail from the user's mailbox (to forward a message, quote what matters of it in body).",
    parameters=object_schema({
        "to": {"type": "string", "minLength": 3, "maxLength": 2000,
               "description": "Recipient address(es), separated by commas."},
        "subject": {"type": "string", "maxLength": 500},
        "body": {"type": "string", "maxLength": 100_000},
        "cc": {"type": "string", "maxLength": 2000, "description": "Copy to (addresses, separated by commas)."},
    }, required=["to", "subject", "body"]),
)


def recipients(text: str) -> list[str]:
    """The addresses of a To or Cc field (``"Ann <ann@x.org>, bob@y.org"`` → two), lower-cased domain.

    Raises:
        InvalidInput: an entry is not an address.
    """
    found: list[str] = []
    for name, address in getaddresses([text]):
        address = address.strip()
        if not address and not name.strip():
            continue
        if not _ADDRESS.fullmatch(address):
            raise InvalidInput("to", f"holds {clip(name or address, 60)!r}, which is not an e-mail address")
        local, _, domain = address.rpartition("@")
        found.append(f"{local}@{domain.lower()}")
    return list(dict.fromkeys(found))


def send_target(arguments: Mapping[str, Any]) -> tuple[str, ...] | None:
    """What an ``email_send`` call changes, for the approval gate's license: every recipient (To and Cc), so that
    a card licenses the send only when it named each of them."""
    addresses = recipients(str(arguments.get("to") or "")) + recipients(str(arguments.get("cc") or ""))
    return tuple(dict.fromkeys(addresses)) or None


def _without_id(line: str) -> str:
    return line.rsplit(" (id ", 1)[0]


class EmailSkill(WatchingSkill):
    """The mailbox of ``[skills.email]``.

    Args:
        folder: ``skills/email/`` (the folders' sync points and the new messages seen).
        environ: where ``password_env`` is looked up (the app's environment).
        on_change: called when the state changed (the Skills tab and the status refresh).
    """

    name = "email"
    title = "Email"
    description = "A mailbox over IMAP and SMTP: new mail is watched; search, read and send."
    section_title = "New email"

    def __init__(self, folder: Path | None, environ: Mapping[str, str] | None = None,
                 on_change: Callable[[], None] | None = None) -> None:
        super().__init__(folder)
        self.config = EmailSettings()
        self._environ = os.environ if environ is None else environ
        self._on_change = on_change or (lambda: None)
        self._session: ImapSession | None = None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="imap")
        self._lock = asyncio.Lock()
        # email_send has no observe (Tool.observe): nothing says whether the SMTP server took a message a kill
        # interrupted, so it may or may not have happened; it is never sent again by itself (a mail sent twice is
        # the worst case), the user gets a card for it.
        self._tools = (
            checked_tool(SEARCH_SPEC, writes=False, run=self._search),
            checked_tool(READ_SPEC, writes=False, run=self._read),
            checked_tool(SEND_SPEC, writes=True, run=self._send, target=send_target),
        )

    # --- settings ----------------------------------------------------------------------------------

    def configure(self, settings: EmailSettings) -> None:
        """Take the table in force (a changed one drops the connection; the next check connects anew)."""
        if settings == self.config and self.enabled == settings.enabled:
            return
        old, self.config = self._session, settings
        self._session = None
        if old is not None:
            self._worker.submit(old.close)
        self.enabled = settings.enabled
        if not settings.enabled:
            self.set_state(DISABLED, "Turned off: set enabled = true in [skills.email] (Settings > Skills).")
        else:
            self.set_state(STARTING, "Not checked yet.")
        self.log.forget_sources(settings.folders)
        self._on_change()

    def reset(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            self._worker.submit(session.close)
        super().reset()

    def password(self) -> str | None:
        return secret_from(self._environ, self.config.password_env) or None

    def watches(self) -> tuple[str, ...]:
        return self.config.folders if self.enabled else ()

    def settings(self) -> Sequence[SkillSetting]:
        s = self.config
        return (
            SkillSetting("IMAP", f"{s.imap_host}:{s.imap_port_in_use} ({s.security})"),
            SkillSetting("SMTP", f"{s.smtp_host_in_use}:{s.smtp_port_in_use}"),
            SkillSetting("User", s.username),
            SkillSetting("Password from", f"${s.password_env}" if s.password_env else "(not set)"),
            SkillSetting("Folders", ", ".join(s.folders)),
        )

    def _imap(self) -> ImapSession:
        if self._session is None:
            self._session = ImapSession(self.config, self.password)
        return self._session

    async def _in_worker(self, action: Callable[[ImapSession], T], timeout: float = POLL_TIMEOUT) -> T:
        """Run ``action`` on the IMAP thread; a hang past ``timeout`` is a :class:`MailError`."""
        session = self._imap()
        future = asyncio.get_running_loop().run_in_executor(self._worker, action, session)
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self._session = None  # the thread drops it when its socket times out; the next call connects anew
            self._worker.submit(session.close)
            raise MailError(f"The IMAP server {self.config.imap_host}:{self.config.imap_port_in_use} did not "
                            "answer in time; it is tried again at the next check.") from None

    def _working(self) -> None:
        if self.set_state(CONNECTED, f"Watching {', '.join(self.config.folders)}."):
            self._on_change()

    def _failed(self, reason: str) -> None:
        if self.set_state(ERROR, reason):
            self._on_change()

    # --- the watch ---------------------------------------------------------------------------------

    async def poll(self, now: float) -> None:
        """Check every folder: one STATUS each when nothing arrived; new UIDs become items seen ``now``."""
        if not self.enabled:
            return
        async with self._lock:
            folders = self.config.folders
            points = {folder: dict(self.log.source(folder)) for folder in folders}

            def check_all(session: ImapSession) -> list[tuple[str, Any]]:
                return [(folder, session.check(folder, points[folder])) for folder in folders]

            try:
                results = await self._in_worker(check_all)
            except MailError as exc:
                self._failed(str(exc))
                return
            for folder, news in results:
                point = self.log.source(folder)
                fresh = list(news.new)
                if news.was_reset:
                    log.info("email: %s was rebuilt on the server (UIDVALIDITY changed); read again", folder)
                    # A message seen before the rebuild has a new UID now: known by what it says, not reported
                    # again (INTERNALDATE has whole seconds, so one that arrived in the second of the last check
                    # is read again and recognised here).
                    known = {_without_id(item.line) for item in self.log.items}
                    fresh = [summary for summary in fresh if _without_id(summary.line()) not in known]
                self.log.add(WatchItem(f"{folder}\x00{news.validity}\x00{summary.uid}", now,
                                       summary.date.timestamp() if summary.date else now, summary.line())
                             for summary in fresh)
                if (point.get("validity"), point.get("next")) != (news.validity, news.next_uid) or news.new:
                    point.update(validity=news.validity, next=news.next_uid)
                point["checked"] = now
                point["messages"] = news.messages
                self.log.touch()
            await asyncio.to_thread(self.log.save)
            self._working()

    async def test(self) -> str:
        """Settings' Test button: connect now and say what the folders hold ("INBOX: 1,204 messages, 3 new").

        Raises:
            UserFacingError: why it could not (one sentence).
        """
        if not self.config.imap_host:
            raise UserFacingError("Fill in the IMAP server first.")
        points = {folder: dict(self.log.source(folder)) for folder in self.config.folders}
        try:
            rows = await self._in_worker(lambda session: session.counts(self.config.folders, points), 30.0)
        except MailError as exc:
            raise UserFacingError(str(exc)) from exc
        return "; ".join(f"{folder}: {total:,} message{'s' if total != 1 else ''}, {new:,} new"
                         for folder, total, new in rows) + "."

    # --- the tools ---------------------------------------------------------------------------------

    async def _search(self, args: dict[str, Any]) -> ToolResult:
        folder = (args.get("folder") or self.config.folders[0]).strip()
        query = args["query"]
        try:
            found, total = await self._in_worker(lambda session: session.search(query, folder, args["limit"]))
        except MailError as exc:
            self._failed(str(exc)) if "did not answer" in str(exc) or "connection" in str(exc) else None
            raise UserFacingError(str(exc)) from exc
        self._working()
        if not found:
            return ToolResult(f"No message in {folder} matches {query!r}." if query.strip()
                              else f"{folder} is empty.")
        head = f"{total} message(s) in {folder} match; the newest {len(found)}:" if query.strip() \
            else f"The newest {len(found)} of {total} message(s) in {folder}:"
        return ToolResult("\n".join([head, *(f"- {summary.line().removeprefix('email: ')}" for summary in found)]))

    async def _read(self, args: dict[str, Any]) -> ToolResult:
        match = _ID.fullmatch(args["id"].strip().removeprefix("id ").strip())
        if match is None:
            raise InvalidInput("id", "must be FOLDER:UID as email_search gives it, e.g. INBOX:42")
        folder, uid = match["folder"], int(match["uid"])
        try:
            message = await self._in_worker(lambda session: session.read(folder, uid))
        except MailError as exc:
            raise UserFacingError(str(exc)) from exc
        self._working()
        if message is None:
            return ToolResult(f"There is no message {folder}:{uid} (it may have been moved or deleted).",
                              is_error=True)
        lines = [f"{name}: {clip(str(message.get(name) or ''), 500)}" for name in ("From", "To", "Cc", "Date",
                                                                                   "Subject") if message.get(name)]
        files = attachments(message)
        if files:
            lines.append("Attachments: " + ", ".join(files))
        text = body_text(message, MAX_READ_CHARS)
        if len(text) >= MAX_READ_CHARS:
            text += "\n[… cut: the message is longer]"
        return ToolResult("\n".join(lines) + "\n\n" + (text or "(no text)"))

    async def _send(self, args: dict[str, Any]) -> ToolResult:
        settings = self.config
        to = recipients(args["to"])
        cc = recipients(args.get("cc") or "")
        if not to:
            raise InvalidInput("to", "must name at least one address")
        if len(to) + len(cc) > MAX_RECIPIENTS:
            raise InvalidInput("to", f"may name at most {MAX_RECIPIENTS} addresses with cc")
        password = self.password()
        if not password:
            raise UserFacingError(f"Not sent: the variable ${settings.password_env} that should hold the mailbox's "
                                  "password is not set in the app's environment.")
        message = EmailMessage()
        message["From"] = settings.username if "@" in settings.username else f"{settings.username}@localhost"
        message["To"] = ", ".join(to)
        if cc:
            message["Cc"] = ", ".join(cc)
        message["Subject"] = " ".join(args["subject"].split())
        message["Date"] = formatdate(localtime=True)
        message["Message-ID"] = make_msgid(domain=message["From"].rpartition("@")[2] or None)
        message.set_content(args["body"])
        try:
            context = None if settings.security == "none" else await asyncio.to_thread(ssl_context, settings)
            await aiosmtplib.send(
                message, hostname=settings.smtp_host_in_use, port=settings.smtp_port_in_use,
                username=settings.username, password=password, use_tls=settings.security == "tls",
                start_tls=settings.security == "starttls", tls_context=context, timeout=SEND_TIMEOUT,
            )
        except (MailError, aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            reason = describe(exc, settings, smtp=True)
            log.warning("email_send to %d recipient(s) failed: %s", len(to) + len(cc), reason)
            raise UserFacingError(f"Not sent: {reason}") from exc
        everyone = ", ".join(to + cc)
        log.info("email sent to %d recipient(s)", len(to) + len(cc))
        mutation = Mutation("message_sent", f"email to {everyone}", f"sent {message['Subject']!r}"[:200])
        return ToolResult(f"Sent {message['Subject']!r} to {everyone}.", mutations=(mutation,))

    async def aclose(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            await asyncio.get_running_loop().run_in_executor(self._worker, session.close)
        self._worker.shutdown(wait=False, cancel_futures=True)
