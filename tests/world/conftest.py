"""Fixtures of the world skills' tests: a real dovecot, a real SMTP server, a local web server."""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator, Iterator

import pytest

from tests.world.servers import Dovecot, SmtpInbox, WebServer


@pytest.fixture(scope="module")
def dovecot() -> Iterator[Dovecot]:
    server = Dovecot.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def smtp() -> Iterator[SmtpInbox]:
    inbox = SmtpInbox().start()
    try:
        yield inbox
    finally:
        inbox.stop()


@pytest.fixture
def smtps(dovecot: Dovecot) -> Iterator[SmtpInbox]:
    """aiosmtpd speaking TLS from the first byte (as port 465 does), with dovecot's test certificate."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(dovecot.cert), str(dovecot.cert.with_name("key.pem")))
    inbox = SmtpInbox(server_ssl=context).start()
    try:
        yield inbox
    finally:
        inbox.stop()


@pytest.fixture
async def web_server() -> AsyncIterator[WebServer]:
    server = await WebServer().start()
    try:
        yield server
    finally:
        await server.stop()
