"""The situation report's file scan and the one list of the app's own files (``app_files``): nothing the app
writes is listed or quoted, and a file with other names (a hard link, perhaps to the RPC token) is named but
never quoted."""

from __future__ import annotations

import os
from pathlib import Path

from openhuman_desktop.subconscious.changes import FileHistory, describe
from openhuman_desktop.subconscious.report import scan_workspace


def test_the_app_entries_are_left_out_whatever_their_spelling(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    for relative in ("channels/webapp-link.json", "agent/ledger.db", "agent/ledger.db-wal", "skills/mail/x.json",
                     "run/rpc.json", "Logs/openhuman.log", "config.toml", "CONFIG.TOML", "notes/channels/a.md",
                     "HEARTBEAT.md", "todo.md"):
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('{"token": "KEY-MARKER"}' if "todo" not in relative else "Call the bank.", encoding="utf-8")
    (root / ".config.toml.a1b2.tmp").write_text("KEY-MARKER", encoding="utf-8")

    listed = sorted(item.path for item in scan_workspace(root, None).changed)

    assert listed == ["HEARTBEAT.md", "notes/channels/a.md", "todo.md"], "only the top is the app's"


def test_a_file_with_other_names_is_named_but_not_quoted(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "run").mkdir(parents=True)
    (root / "run" / "rpc.json").write_text('{"token": "RPC-TOKEN-MARKER"}', encoding="utf-8")
    outside = tmp_path / "outside.txt"
    outside.write_text("the bank PIN is PIN-SECRET-QX", encoding="utf-8")
    os.link(root / "run" / "rpc.json", root / "token.json")
    os.link(outside, root / "pin.txt")
    (root / "plain.txt").write_text("just mine", encoding="utf-8")

    found = {item.path: item for item in scan_workspace(root, None).changed}

    assert set(found) == {"token.json", "pin.txt", "plain.txt"}
    assert found["token.json"].excerpt is None and found["pin.txt"].excerpt is None
    assert found["plain.txt"].excerpt == "just mine"


def test_the_changed_lines_of_a_file_with_other_names_are_never_read(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "channels").mkdir(parents=True)
    (root / "channels" / "webapp-link.json").write_text('{"token": "KEY-MARKER-9d1e"}', encoding="utf-8")
    outside = tmp_path / "outside.txt"
    outside.write_text("the bank PIN is PIN-SECRET-QX", encoding="utf-8")
    os.link(root / "channels" / "webapp-link.json", root / "key.json")
    (root / "pin.txt").symlink_to(outside)
    (root / "plain.txt").write_text("just mine", encoding="utf-8")
    history = FileHistory(None)

    files = [("key.json", 28), ("pin.txt", 29), ("plain.txt", 9)]
    text = "\n".join(describe(change) for change in history.changes(root, files, None, 100.0))

    assert "KEY-MARKER" not in text and "PIN-SECRET" not in text
    assert "key.json" in text and "pin.txt" in text and "just mine" in text
