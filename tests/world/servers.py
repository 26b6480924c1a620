"""Real servers for the world skills' tests, on 127.0.0.1: Debian's dovecot (IMAP, TLS with a test certificate
and plain), aiosmtpd (SMTP, receiving), and an aiohttp server for feeds, calendars, pages and a Slack webhook."""

from __future__ import annotations

import asyncio
import contextlib
import email
import email.policy
import hashlib
import os
import pwd
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import imapclient
import pytest
from aiohttp import web

PASSWORD = "correct horse battery"
USER = "alice"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def need(program: str) -> str:
    """The path of ``program``; in CI a missing one fails the test (``.ci/run`` installs it), elsewhere skips."""
    found = shutil.which(program) or (f"/usr/sbin/{program}" if os.path.exists(f"/usr/sbin/{program}") else None)
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail(f"{program} is not installed; .ci/run installs it (apt-get install dovecot-imapd)")
    pytest.skip(f"{program} is not installed (apt-get install dovecot-imapd)")


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost (openssl), and its key."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"], check=True, capture_output=True)
    return cert, key


def wait_for_port(port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


@dataclass
class Dovecot:
    """A dovecot of its own: config, passwd file and maildirs in a temporary folder, ports on 127.0.0.1."""

    folder: Path
    plain_port: int = 0
    tls_port: int = 0
    cert: Path = field(default=Path())
    process: subprocess.Popen[bytes] | None = None

    @classmethod
    def start(cls) -> Dovecot:
        program = need("dovecot")
        folder = Path(tempfile.mkdtemp(prefix="oh-dovecot-"))
        folder.chmod(0o755)  # dovecot's own processes (login, imap) run as other users and need to pass
        server = cls(folder, free_port(), free_port())
        server.cert, key = make_certificate(folder)
        (folder / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}\n")
        for name in ("mail", "run", "state"):
            (folder / name).mkdir()
        if os.geteuid() == 0:
            mail_user, login_user, internal_user = "nobody", "dovenull", "dovecot"
            mail_group = "nogroup"
            shutil.chown(folder / "mail", "nobody", "nogroup")
        else:
            mail_user = login_user = internal_user = pwd.getpwuid(os.geteuid()).pw_name
            mail_group = str(os.getegid())
        config = f"""
protocols = imap
listen = 127.0.0.1
base_dir = {folder}/run
state_dir = {folder}/state
log_path = {folder}/dovecot.log
default_login_user = {login_user}
default_internal_user = {internal_user}
ssl = yes
ssl_cert = <{server.cert}
ssl_key = <{key}
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = 1
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {folder}/passwd
}}
userdb {{
  driver = static
  args = uid={mail_user} gid={mail_group} home={folder}/mail/%u
}}
mail_location = maildir:~/Maildir
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {server.plain_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {server.tls_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
"""
        (folder / "dovecot.conf").write_text(config)
        server.process = subprocess.Popen([program, "-F", "-c", str(folder / "dovecot.conf")],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_for_port(server.tls_port)
            wait_for_port(server.plain_port)
        except RuntimeError:
            server.stop()
            raise
        return server

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        if self.process is not None and self.process.stderr is not None:
            self.process.stderr.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def client(self) -> imapclient.IMAPClient:
        context = ssl.create_default_context(cafile=str(self.cert))
        client = imapclient.IMAPClient("127.0.0.1", port=self.tls_port, ssl=True, ssl_context=context)
        client.login(USER, PASSWORD)
        return client

    def append(self, folder: str, message: bytes, when: datetime | None = None) -> int:
        """Put a message in with IMAP APPEND; returns its UID."""
        client = self.client()
        try:
            if folder != "INBOX" and not client.folder_exists(folder):
                client.create_folder(folder)
            answer = client.append(folder, message, msg_time=when)
            return int(answer.split(b"]")[0].split()[-1])
        finally:
            client.logout()

    def create(self, folder: str) -> None:
        client = self.client()
        try:
            if not client.folder_exists(folder):
                client.create_folder(folder)
        finally:
            client.logout()

    def append_many(self, folder: str, messages: list[bytes]) -> None:
        client = self.client()
        try:
            if folder != "INBOX" and not client.folder_exists(folder):
                client.create_folder(folder)
            for message in messages:
                client.append(folder, message)
        finally:
            client.logout()

    def rebuild(self, folder: str) -> None:
        """Give ``folder`` a new UIDVALIDITY, keeping its messages (as a server rebuilding its index does)."""
        client = self.client()
        try:
            client.select_folder(folder)
            uids = client.search(["ALL"])
            fetched = client.fetch(uids, [b"RFC822", b"INTERNALDATE"]).values() if uids else []
            raw = [(data[b"RFC822"], data[b"INTERNALDATE"]) for data in fetched]
            client.close_folder()
            temporary = f"{folder}-old"
            if folder == "INBOX":
                client.create_folder(temporary)
                if uids:
                    client.select_folder("INBOX")
                    client.copy(uids, temporary)
                    client.delete_messages(uids)
                    client.expunge()
                    client.close_folder()
                # INBOX cannot be deleted: its UIDVALIDITY is changed by removing dovecot's uid list
                home = self.folder / "mail" / USER / "Maildir"
                for name in ("dovecot-uidlist", "dovecot.index", "dovecot.index.cache", "dovecot.index.log"):
                    with contextlib.suppress(FileNotFoundError):
                        (home / name).unlink()
                client.logout()
                time.sleep(1.1)  # UIDVALIDITY is a time in seconds: the next one differs
                client = self.client()
                for message, arrived in raw:
                    client.append("INBOX", message, msg_time=arrived)
                client.delete_folder(temporary)
            else:
                client.delete_folder(folder)
                time.sleep(1.1)
                client.create_folder(folder)
                for message, arrived in raw:  # a rebuild keeps when each message arrived
                    client.append(folder, message, msg_time=arrived)
        finally:
            with contextlib.suppress(Exception):
                client.logout()


def message(sender: str, subject: str, body: str, *, to: str = "alice@example.org",
            date: datetime | None = None) -> bytes:
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = to
    mail["Subject"] = subject
    mail["Date"] = format_datetime(date or datetime.now(UTC))
    mail["Message-ID"] = f"<{hashlib.sha1((sender + subject + body).encode()).hexdigest()}@test>"
    mail.set_content(body)
    return bytes(mail)


class SmtpInbox:
    """aiosmtpd on 127.0.0.1 with AUTH (user ``alice``), recording every message it receives."""

    def __init__(self, *, password: str = PASSWORD, tls_context: ssl.SSLContext | None = None,
                 server_ssl: ssl.SSLContext | None = None) -> None:
        from aiosmtpd.controller import Controller
        from aiosmtpd.smtp import AuthResult, LoginPassword

        self.received: list[tuple[str, list[str], email.message.EmailMessage]] = []
        self.port = free_port()
        self.hold_subject: str | None = None
        """A message with this subject is taken in, then its ``250 OK`` is held back (``holding`` is set) until
        this changes: the sender cannot know whether it was accepted (a test kills it meanwhile)."""
        self.holding = threading.Event()
        inbox = self

        class Handler:
            async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
                parsed = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
                inbox.received.append((envelope.mail_from, list(envelope.rcpt_tos), parsed))
                held = inbox.hold_subject
                if held is not None and parsed["Subject"] == held:
                    inbox.holding.set()
                    for _ in range(1200):  # until the test lets go (at most a minute)
                        if inbox.hold_subject != held:
                            break
                        await asyncio.sleep(0.05)
                return "250 OK"

        def authenticator(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
            ok = isinstance(data, LoginPassword) and data.login == USER.encode() and \
                data.password == password.encode()
            return AuthResult(success=ok, handled=False)  # handled=True would send no answer

        self._controller = Controller(Handler(), hostname="127.0.0.1", port=self.port, authenticator=authenticator,
                                      auth_require_tls=False, tls_context=tls_context, ssl_context=server_ssl)

    def start(self) -> SmtpInbox:
        self._controller.start()
        return self

    def stop(self) -> None:
        self._controller.stop()


@dataclass
class WebState:
    """What the local web server serves and what it saw."""

    files: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # path → (content type, body)
    redirects: dict[str, str] = field(default_factory=dict)
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    posts: list[dict[str, Any]] = field(default_factory=list)
    bytes_sent: int = 0
    slack_answers: list[tuple[int, str, dict[str, str]]] = field(default_factory=list)
    delay: float = 0.0

    def put(self, path: str, body: bytes | str, content_type: str = "text/html; charset=utf-8") -> None:
        self.files[path] = (content_type, body.encode() if isinstance(body, str) else body)


class WebServer:
    """aiohttp on 127.0.0.1: files with ETag / Last-Modified (304 when they match), redirects, and
    ``POST /services/...`` answered as Slack's webhook does (``ok``; or the scripted answers first)."""

    def __init__(self) -> None:
        self.state = WebState()
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> WebServer:
        app = web.Application()
        app.router.add_route("GET", "/{tail:.*}", self._get)
        app.router.add_route("POST", "/services/{tail:.*}", self._slack)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _get(self, request: web.Request) -> web.StreamResponse:
        state = self.state
        state.requests.append((request.path, dict(request.headers)))
        if state.delay:
            await asyncio.sleep(state.delay)
        if request.path in state.redirects:
            raise web.HTTPFound(state.redirects[request.path])
        found = state.files.get(request.path)
        if found is None:
            return web.Response(status=404, text="not found")
        kind, body = found
        etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
        modified = "Wed, 01 Jan 2025 00:00:00 GMT"
        if request.headers.get("If-None-Match") == etag or (
                "If-None-Match" not in request.headers and request.headers.get("If-Modified-Since") == modified):
            return web.Response(status=304, headers={"ETag": etag})
        state.bytes_sent += len(body)
        return web.Response(body=body, headers={"Content-Type": kind, "ETag": etag, "Last-Modified": modified})

    async def _slack(self, request: web.Request) -> web.Response:
        payload = await request.json()
        state = self.state
        if state.slack_answers:
            status, text, headers = state.slack_answers.pop(0)
            if status == 200:
                state.posts.append(payload)
            return web.Response(status=status, text=text, headers=headers)
        state.posts.append(payload)
        return web.Response(text="ok")


def rss(items: list[tuple[str, str, str]], title: str = "Test feed") -> str:
    """An RSS 2.0 document of (guid, title, RFC 822 date) items."""
    entries = "".join(f"<item><guid>{guid}</guid><title>{name}</title><link>https://news.example/{guid}</link>"
                      f"<pubDate>{date}</pubDate><description>About {name}</description></item>"
                      for guid, name, date in items)
    return (f'<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>{title}</title>'
            f"<link>https://news.example/</link><description>x</description>{entries}</channel></rss>")


def atom(items: list[tuple[str, str, str]], title: str = "Atom feed") -> str:
    """An Atom document of (id, title, RFC 3339 date) items."""
    entries = "".join(f'<entry><id>{guid}</id><title>{name}</title><link href="https://atom.example/{name}"/>'
                      f"<updated>{date}</updated></entry>" for guid, name, date in items)
    return (f'<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>{title}'
            f"</title><id>urn:test</id><updated>2025-01-01T00:00:00Z</updated>{entries}</feed>")


ServerFactory = Callable[[], Any]
