"""The real model's server, started once for every opt-in real-model test (``OPENHUMAN_REAL_MODEL=1``)."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator

import pytest


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def server_url() -> Iterator[str]:
    """``OPENHUMAN_REAL_MODEL_URL``, else a llama.cpp server of bench/real_model_server.py on a free port."""
    given = os.environ.get("OPENHUMAN_REAL_MODEL_URL")
    if given:
        yield given.rstrip("/")
        return
    from bench import real_model_server  # only when a real-model test runs: it is opt-in

    port = free_port()
    started = real_model_server.start(port)
    try:
        yield started.url
    finally:
        real_model_server.stop(port)
