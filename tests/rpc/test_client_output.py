"""The ``rpc`` command's answer cannot be written (disk full, stdout closed; found by the issue-9 attack): one
sentence, no traceback."""

from __future__ import annotations

import errno
import io
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from openhuman_desktop.rpc import client


class _FullStream(io.StringIO):
    """A stdout on a full disk: every write fails with ENOSPC."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


class _Answer(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 - the http.server name
        body = json.dumps({"jsonrpc": "2.0", "result": {"ok": True}, "id": 1}).encode()
        self.rfile.read(int(self.headers["Content-Length"]))
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture
def rpc_file(tmp_path: Path) -> Iterator[Path]:
    server = HTTPServer(("127.0.0.1", 0), _Answer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    path = tmp_path / "rpc.json"
    path.write_text(json.dumps({"url": f"http://127.0.0.1:{server.server_port}/rpc", "token": "t",
                                "pid": os.getpid()}))
    try:
        yield path
    finally:
        server.shutdown()
        server.server_close()


def test_a_full_disk_under_stdout_is_one_sentence_not_a_traceback(rpc_file: Path) -> None:
    err = io.StringIO()
    code = client.main(rpc_file, "subconscious_status", None, out=_FullStream(), err=err)
    assert code != 0
    assert "disk is full" in err.getvalue().lower() or "no space" in err.getvalue().lower()
    assert "Traceback" not in err.getvalue()


def test_a_closed_stdout_is_no_crash(rpc_file: Path) -> None:
    err = io.StringIO()
    closed = io.StringIO()
    closed.close()
    code = client.main(rpc_file, "subconscious_status", None, out=closed, err=err)
    assert code != 0
    assert err.getvalue().strip()
