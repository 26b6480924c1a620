"""HEARTBEAT.md reading, hardened after the issue-9 attack: a byte-order mark, a binary file, a file that cannot be
read (the last two must not remove every task that came from the file)."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from openhuman_desktop.subconscious import heartbeat_file


def test_a_byte_order_mark_does_not_hide_the_first_task(tmp_path: Path) -> None:
    path = tmp_path / "HEARTBEAT.md"
    path.write_bytes(b"\xef\xbb\xbf- first task\r\n- second task\r\n")
    assert heartbeat_file.parse(heartbeat_file.read(path) or "") == ["first task", "second task"]


def test_a_binary_file_is_refused_and_the_tasks_stay(tmp_path: Path) -> None:
    """Garbage (zeroed blocks after a crash, a binary written over it) must not read as "no task lines", which
    removes every task that came from the file."""
    path = tmp_path / "HEARTBEAT.md"
    path.write_bytes(b"\x00" * 4096 + bytes(range(256)))
    with pytest.raises(heartbeat_file.Refused, match="not a text file"):
        heartbeat_file.read(path)


def test_a_file_that_cannot_be_read_is_refused_and_the_tasks_stay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "HEARTBEAT.md"
    path.write_text("- a task\n", encoding="utf-8")
    real_open = os.open

    def denied(name: object, flags: int, *args: object, **kwargs: object) -> int:
        if str(name) == str(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(name, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", denied)
    with pytest.raises(heartbeat_file.Refused, match="Permission denied"):
        heartbeat_file.read(path)
