"""Fixtures of the world skills' tests: a real dovecot, a real SMTP server, a local web server."""

from __future__ import annotations

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
async def web_server() -> AsyncIterator[WebServer]:
    server = await WebServer().start()
    try:
        yield server
    finally:
        await server.stop()
