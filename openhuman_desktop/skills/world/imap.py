"""The mailbox over IMAP, blocking: imapclient on one worker thread per mailbox (never on the event loop).

Why a thread and not an asyncio client: measured by bench/world_bench.py on a real dovecot (the heaviest read the
watch makes: the dates of every message of a 2,000- or 10,000-message folder), aioimaplib parses every answer on
the event loop and held it for p99 32.5 / 12.5 ms (longest 35 / 67 ms), imapclient on its own thread for 15.7 /
5.9 ms (longest 22 ms), at about the same wall time; on a fully loaded machine both lose the core and the gap
closes (bench/README.md). imapclient also parses IMAP's literals and quoting completely, where aioimaplib hands
back raw lines each caller must parse again. The connection stays open between ticks (NOOP checks it) and is made
again after any failure.
"""

from __future__ import annotations

import email
import email.policy
import imaplib
import re
import socket
import ssl
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import Message
from email.utils import getaddresses, parsedate_to_datetime
from typing import Any

import imapclient
from imapclient.exceptions import IMAPClientError, LoginError

from openhuman_desktop.config_skills import EmailSettings
from openhuman_desktop.skills.world._mail_text import FIRST_WORDS, first_words, header_text
from openhuman_desktop.skills.world._watch import clip

CONNECT_TIMEOUT = 10.0
READ_TIMEOUT = 30.0
MAX_NEW_PER_FOLDER = 200
"""New messages read per folder per tick at most (the newest): a flood is reported as what fits, never all."""
PREVIEW_BYTES = 4096
MAX_MESSAGE_BYTES = 2 * 1024 * 1024
FETCH_CHUNK = 100
HEADER_FIELDS = b"BODY.PEEK[HEADER.FIELDS (FROM TO CC SUBJECT DATE MESSAGE-ID)]"


class MailError(Exception):
    """What went wrong, as one sentence for the user (never the password)."""


@dataclass(frozen=True)
class Summary:
    """One message as the watch and ``email_search`` show it."""

    folder: str
    uid: int
    sender: str
    subject: str
    date: datetime | None
    first_words: str

    @property
    def id(self) -> str:
        return f"{self.folder}:{self.uid}"

    def line(self) -> str:
        """``email: From, Subject, Date, first words (id FOLDER:UID)`` (CONTRACT §12.3)."""
        when = self.date.astimezone().strftime("%Y-%m-%d %H:%M") if self.date else "no date"
        return (f"email: {clip(self.sender, 80)}, {clip(self.subject, 160) or '(no subject)'}, {when}, "
                f"{clip(self.first_words, FIRST_WORDS)} (id {self.id})")


@dataclass(frozen=True)
class FolderNews:
    """What one folder's check found: its sync point after it and the new messages (oldest first)."""

    validity: int
    next_uid: int
    messages: int
    new: tuple[Summary, ...]
    was_reset: bool = False
    skipped: int = 0


def ssl_context(settings: EmailSettings) -> ssl.SSLContext:
    """The system's trusted certificates, and those of ``ca_file`` besides."""
    context = ssl.create_default_context()
    if settings.ca_file:
        try:
            context.load_verify_locations(cafile=settings.ca_file)
        except (OSError, ssl.SSLError) as exc:
            raise MailError(f"The certificate file {settings.ca_file} (ca_file) could not be read: "
                            f"{getattr(exc, 'strerror', None) or exc}.") from exc
    return context


def describe(exc: BaseException, settings: EmailSettings, *, smtp: bool = False) -> str:
    """A library or socket error as one sentence naming the server (never the password)."""
    host = settings.smtp_host_in_use if smtp else settings.imap_host
    port = settings.smtp_port_in_use if smtp else settings.imap_port_in_use
    where = f"{'SMTP' if smtp else 'IMAP'} server {host}:{port}"
    if isinstance(exc, MailError):
        return str(exc)
    missing = re.search(r"Mailbox doesn't exist: (.+?) \(|NONEXISTENT\](.*)", str(exc))
    if missing:
        return (f"The folder {(missing.group(1) or missing.group(2) or '').strip()!r} does not exist on the {where}; "
                "check folders in [skills.email].")
    if isinstance(exc, LoginError) or "authenticat" in str(exc).lower():
        return (f"The {where} refused the user name or password of ${settings.password_env} "
                f"({clip(_words(exc), 120)}).")
    if isinstance(exc, ssl.SSLCertVerificationError):
        return (f"The {where} showed a certificate this computer does not trust ({exc.verify_message}); name "
                "its certificate in ca_file if it is your own server.")
    if isinstance(exc, ssl.SSLError):
        return f"A secure connection to the {where} failed ({clip(_words(exc), 120)}); check security and the port."
    if isinstance(exc, TimeoutError | socket.timeout):
        return f"The {where} did not answer in time; it is tried again at the next check."
    if isinstance(exc, ConnectionRefusedError):
        return f"Nothing answers at the {where} (connection refused); check the server name and port."
    if isinstance(exc, socket.gaierror):
        return f"The name of the {where} is not known here ({clip(_words(exc), 80)})."
    if isinstance(exc, (ConnectionError | EOFError | imaplib.IMAP4.abort, OSError)):
        return f"The connection to the {where} was lost ({clip(_words(exc), 120)}); it is tried again."
    return f"The {where} answered with an error: {clip(_words(exc), 160)}."


def _words(exc: BaseException) -> str:
    text = str(exc).strip()
    if text.startswith(("b'", 'b"')):
        text = text[2:-1]
    return text.rstrip(".") or type(exc).__name__


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value) if value is not None else ""


class ImapSession:
    """One mailbox connection, used from one thread at a time (the skill's worker).

    Args:
        settings: the ``[skills.email]`` table.
        password: read from the environment for each connection (``lambda: os.environ.get(NAME)``).
    """

    def __init__(self, settings: EmailSettings, password: Callable[[], str | None]) -> None:
        self.settings = settings
        self._password = password
        self._client: imapclient.IMAPClient | None = None
        self.bytes_read = 0

    # --- the connection ----------------------------------------------------------------------------

    def _connect(self) -> imapclient.IMAPClient:
        settings = self.settings
        password = self._password()
        if not password:
            raise MailError(f"The variable ${settings.password_env} that should hold the mailbox's password is "
                            "not set in the app's environment.")
        timeout = imapclient.SocketTimeout(connect=CONNECT_TIMEOUT, read=READ_TIMEOUT)
        secure = settings.security == "tls"
        context = ssl_context(settings) if settings.security != "none" else None
        client = imapclient.IMAPClient(settings.imap_host, port=settings.imap_port_in_use, ssl=secure,
                                       ssl_context=context, timeout=timeout, use_uid=True)
        try:
            if settings.security == "starttls":
                client.starttls(context)
            client.login(settings.username, password)
        except BaseException:
            _close_quietly(client)
            raise
        return client

    def client(self) -> imapclient.IMAPClient:
        """The open connection, checked with NOOP, or a new one."""
        if self._client is not None:
            try:
                self._client.noop()
                return self._client
            except (IMAPClientError, OSError, imaplib.IMAP4.abort, imaplib.IMAP4.error):
                self.close()
        self._client = self._connect()
        return self._client

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            _close_quietly(client)

    def run(self, action: Callable[[imapclient.IMAPClient], Any]) -> Any:
        """``action`` on the connection; a connection that broke under it is dropped (the next call reconnects).

        No folder stays selected afterwards: a selected folder is the session's snapshot, and its STATUS would
        not show that another client rebuilt it.

        Raises:
            MailError: one sentence for the user.
        """
        try:
            client = self.client()
            try:
                return action(client)
            finally:
                if getattr(client, "_imap", None) is not None and client._imap.state == "SELECTED":
                    client.unselect_folder()
        except MailError:
            raise
        except Exception as exc:
            self.close()
            raise MailError(describe(exc, self.settings)) from exc

    # --- the watch ---------------------------------------------------------------------------------

    def check(self, folder: str, point: Mapping[str, Any]) -> FolderNews:
        """What is new in ``folder`` since ``point`` (``{"validity", "next", "checked"}``; empty: the baseline).

        Nothing new costs one STATUS command. New UIDs are fetched by their headers and first bytes only. A
        folder whose UIDVALIDITY changed (it was rebuilt) is read again: its messages that arrived after the
        last check are new, the others are the new baseline, so nothing is reported twice.
        """
        return self.run(lambda client: self._check(client, folder, point))  # type: ignore[no-any-return]

    def _check(self, client: imapclient.IMAPClient, folder: str, point: Mapping[str, Any]) -> FolderNews:
        status = client.folder_status(folder, [b"MESSAGES", b"UIDNEXT", b"UIDVALIDITY"])
        validity = int(status[b"UIDVALIDITY"])
        next_uid = int(status[b"UIDNEXT"])
        messages = int(status[b"MESSAGES"])
        known_validity = point.get("validity")
        known_next = point.get("next")
        if not isinstance(known_validity, int) or not isinstance(known_next, int):
            return FolderNews(validity, next_uid, messages, ())  # first look: the baseline
        if known_validity != validity:
            checked = point.get("checked")
            since = float(checked) if isinstance(checked, int | float) else time.time()
            return self._reread(client, folder, validity, next_uid, messages, since)
        if next_uid <= known_next:
            return FolderNews(validity, next_uid, messages, ())
        client.select_folder(folder, readonly=True)
        uids = [uid for uid in client.search([b"UID", f"{known_next}:*".encode()]) if uid >= known_next]
        uids.sort()
        skipped = max(0, len(uids) - MAX_NEW_PER_FOLDER)
        new = self._summaries(client, folder, uids[-MAX_NEW_PER_FOLDER:])
        return FolderNews(validity, next_uid, messages, tuple(new), skipped=skipped)

    def _reread(self, client: imapclient.IMAPClient, folder: str, validity: int, next_uid: int, messages: int,
                since: float) -> FolderNews:
        client.select_folder(folder, readonly=True)
        day = (datetime.fromtimestamp(since, tz=UTC) - timedelta(days=1)).date()
        candidates = client.search([b"SINCE", day])
        arrived: list[int] = []
        for chunk in _chunks(sorted(candidates), FETCH_CHUNK):
            for uid, data in client.fetch(chunk, [b"INTERNALDATE"]).items():
                stamp = data.get(b"INTERNALDATE")
                # Strictly after the last check: INTERNALDATE has whole seconds, so a message of the check's own
                # second counts as seen then (never twice; rarely, one that came later in that second is missed).
                if isinstance(stamp, datetime) and stamp.timestamp() > since:
                    arrived.append(uid)
        arrived.sort()
        new = self._summaries(client, folder, arrived[-MAX_NEW_PER_FOLDER:])
        return FolderNews(validity, next_uid, messages, tuple(new), was_reset=True,
                          skipped=max(0, len(arrived) - MAX_NEW_PER_FOLDER))

    def _summaries(self, client: imapclient.IMAPClient, folder: str, uids: list[int]) -> list[Summary]:
        found: list[Summary] = []
        preview = f"BODY.PEEK[]<0.{PREVIEW_BYTES}>".encode()
        for chunk in _chunks(uids, FETCH_CHUNK):
            fetched = client.fetch(chunk, [preview])
            for uid in chunk:
                data = fetched.get(uid)
                if data is None:
                    continue
                raw = next((value for key, value in data.items() if key.startswith(b"BODY[")), b"")
                raw = raw if isinstance(raw, bytes) else b""
                self.bytes_read += len(raw)
                found.append(summary_of(folder, uid, raw))
        return found

    # --- the tools ---------------------------------------------------------------------------------

    def search(self, query: str, folder: str, limit: int) -> tuple[list[Summary], int]:
        """The newest ``limit`` messages of ``folder`` whose text holds ``query`` (all: empty), and how many matched."""
        def action(client: imapclient.IMAPClient) -> tuple[list[Summary], int]:
            client.select_folder(folder, readonly=True)
            criteria: list[Any] = [b"TEXT", query] if query.strip() else [b"ALL"]
            try:
                uids = client.search(criteria, charset="UTF-8" if not query.isascii() else None)
            except IMAPClientError as exc:
                raise MailError(f"The server could not search {folder!r} for that: {_words(exc)}.") from exc
            uids.sort()
            return list(reversed(self._summaries(client, folder, uids[-limit:]))), len(uids)
        return self.run(action)  # type: ignore[no-any-return]

    def read(self, folder: str, uid: int) -> Message | None:
        """The whole message (up to :data:`MAX_MESSAGE_BYTES`), or None when there is none with that UID."""
        def action(client: imapclient.IMAPClient) -> Message | None:
            client.select_folder(folder, readonly=True)
            part = f"BODY.PEEK[]<0.{MAX_MESSAGE_BYTES}>".encode()
            data = client.fetch([uid], [part]).get(uid)
            if not data:
                return None
            raw = next((value for key, value in data.items() if key.startswith(b"BODY[")), b"")
            return email.message_from_bytes(raw if isinstance(raw, bytes) else b"", policy=email.policy.default)
        return self.run(action)  # type: ignore[no-any-return]

    def counts(self, folders: Iterable[str], points: Mapping[str, Mapping[str, Any]]) -> list[tuple[str, int, int]]:
        """(folder, messages, new since its sync point) per folder: what Settings' Test button says."""
        def action(client: imapclient.IMAPClient) -> list[tuple[str, int, int]]:
            rows = []
            for folder in folders:
                status = client.folder_status(folder, [b"MESSAGES", b"UIDNEXT", b"UIDVALIDITY", b"UNSEEN"])
                point = points.get(folder) or {}
                new = int(status[b"UNSEEN"])
                if point.get("validity") == int(status[b"UIDVALIDITY"]) and isinstance(point.get("next"), int):
                    new = max(0, int(status[b"UIDNEXT"]) - int(point["next"]))
                rows.append((folder, int(status[b"MESSAGES"]), new))
            return rows
        return self.run(action)  # type: ignore[no-any-return]


def _close_quietly(client: imapclient.IMAPClient) -> None:
    try:
        client.logout()
    except Exception:  # closing a broken connection: nothing more to do
        try:
            client.shutdown()
        except Exception:  # already closed
            return


def _chunks(items: list[int], size: int) -> Iterable[list[int]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def summary_of(folder: str, uid: int, raw: bytes) -> Summary:
    """A message's summary from its first bytes (a cut multipart message still gives its first words)."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    sender = header_text(message, "From")
    names = getaddresses([sender]) if sender else []
    if names:
        name, address = names[0]
        sender = f"{name} <{address}>" if name and address else (address or name or sender)
    date: datetime | None = None
    try:
        raw_date = header_text(message, "Date")
        date = parsedate_to_datetime(raw_date) if raw_date else None
        if date is not None and date.tzinfo is None:
            date = date.replace(tzinfo=UTC)
    except (TypeError, ValueError, IndexError):
        date = None
    return Summary(folder, uid, sender, header_text(message, "Subject"), date, first_words(message))


