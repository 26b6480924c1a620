"""The one list of the app's own files and folders in the workspace (``app_files``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhuman_desktop.app_files import APP_ENTRIES, app_entry, fold_name, is_listed, is_private, owner_of
from openhuman_desktop.channels.webapp import link_file
from openhuman_desktop.memory.store import memory_db_path
from openhuman_desktop.paths import Paths


@pytest.mark.parametrize("name", [
    "config.toml", "Config.TOML", "ｃｏｎｆｉｇ.toml", "config\u200b.toml", "config.toml.", ".config.toml.x7k2.tmp",
    "run", "RUN", "logs", "logſ", "subconscious", "memory", "agent", "Agent", "channels", "skills",
])
def test_private_entries_in_any_spelling(name: str) -> None:
    assert is_private(name), name


@pytest.mark.parametrize("name", ["HEARTBEAT.md", "heartbeat.md", "ＨＥＡＲＴＢＥＡＴ.md"])
def test_heartbeat_md_is_the_apps_but_readable(name: str) -> None:
    entry = app_entry(name)
    assert entry is not None and entry.is_readable and not is_private(name)


@pytest.mark.parametrize("name", ["notes", "config.toml.bak", ".config.toml", "my-logs", "agents", ".git", "todo.md"])
def test_other_names_are_the_users(name: str) -> None:
    assert app_entry(name) is None and not is_private(name)


def test_only_heartbeat_md_is_readable_and_every_entry_says_why() -> None:
    assert [entry.shown for entry in APP_ENTRIES if entry.is_readable] == ["HEARTBEAT.md"]
    assert all(entry.why for entry in APP_ENTRIES)
    assert all(fold_name(entry.pattern) == entry.pattern for entry in APP_ENTRIES), "patterns are folded names"
    assert all(entry.holds for entry in APP_ENTRIES if entry.is_folder)


@pytest.mark.parametrize("relative", [
    "config.toml", "HEARTBEAT.md", ".config.toml.ab12.tmp", "subconscious/subconscious.db",
    "subconscious/subconscious.db-wal", "subconscious/.subconscious.db.new-123-ab12", "memory/memory.db-shm",
    "agent/ledger.db-journal", "run/rpc.json", "run/.rpc.json.4242.tmp", "run/webapp.json", "run/instance.lock",
    "logs/openhuman.log", "logs/openhuman.log.3", "channels/webapp-link.json", "channels/.webapp-link.json.7.tmp",
    "skills/mail/state.json", "run/",
])
def test_what_the_app_writes_is_listed(relative: str) -> None:
    assert is_listed(relative), relative


@pytest.mark.parametrize("relative", ["notes/a.md", "run/other.json", "agent/notes.txt", "logs/x/openhuman.log",
                                      "HEARTBEAT.md/x", "subconscious/subconscious.db.bak", ""])
def test_anything_else_is_not(relative: str) -> None:
    assert not is_listed(relative), relative


def test_owner_of_a_path() -> None:
    owner = owner_of("Channels/webapp-link.json")
    assert owner is not None and owner.shown == "channels/"
    assert owner_of("notes/channels/x") is None


def test_every_path_the_code_names_is_listed(tmp_path: Path) -> None:
    paths = Paths(tmp_path)
    named = [getattr(paths, name) for name in dir(Paths) if isinstance(getattr(Paths, name), property)]
    named += [link_file(tmp_path), memory_db_path(tmp_path)]
    relative = [path.relative_to(tmp_path).as_posix() for path in named if path != tmp_path]
    assert len(relative) >= 12
    assert [path for path in relative if not is_listed(path)] == []
