"""Opening a database: only a path where nothing exists gets a new one; a broken file is refused, untouched."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop import bootstrap, config
from openhuman_desktop.errors import StoreUnavailable
from openhuman_desktop.memory import memory_db_path, open_memory_store
from openhuman_desktop.paths import Paths
from openhuman_desktop.store import open_subconscious_store

NOW = 1_790_000_000.0
Opener = Callable[[Path], Awaitable[Any]]


async def open_subconscious(path: Path) -> Any:
    return await open_subconscious_store(path)


async def open_memory(path: Path) -> Any:
    return await open_memory_store(path)


OPENERS = [
    pytest.param(open_subconscious, "subconscious/subconscious.db", id="subconscious.db"),
    pytest.param(open_memory, "memory/memory.db", id="memory.db"),
]


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.parametrize(("opener", "name"), OPENERS)
async def test_an_empty_file_is_refused_and_left_alone(tmp_path: Path, opener: Opener, name: str) -> None:
    path = tmp_path / name
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    with pytest.raises(StoreUnavailable) as caught:
        store = await opener(path)
        await store.aclose()
    message = str(caught.value)
    assert str(path) in message
    assert "empty (0 bytes)" in message
    assert "backup" in message and "Move it away" in message
    assert path.read_bytes() == b""  # never replaced by a fresh database
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]


@pytest.mark.parametrize(("opener", "name"), OPENERS)
async def test_a_truncated_database_is_refused(tmp_path: Path, opener: Opener, name: str) -> None:
    path = tmp_path / name
    store = await opener(path)
    if hasattr(store, "tasks"):
        for index in range(300):
            await store.tasks.add(title=f"task {index} " + "z" * 300, source="user", recurrence="pending",
                                  next_run_at=None, intent="read", intent_source="keyword", origin="user", now=NOW)
    else:
        for index in range(300):
            await store.add(f"memory {index} " + "z" * 300)
    await store.aclose()
    whole = path.read_bytes()
    assert len(whole) > 3 * 4096
    for cut in (50, len(whole) // 2):  # inside the header; half of the pages
        path.write_bytes(whole[:cut])
        with pytest.raises(StoreUnavailable) as caught:
            opened = await opener(path)
            await opened.aclose()
        assert "truncated" in str(caught.value) and str(path) in str(caught.value)
        assert path.read_bytes() == whole[:cut]


@pytest.mark.parametrize(("opener", "name"), OPENERS)
async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path, opener: Opener, name: str) -> None:
    path = tmp_path / name
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x00" * 8192)
    with pytest.raises(StoreUnavailable, match="not an SQLite database") as caught:
        opened = await opener(path)
        await opened.aclose()
    assert "Move it away" in str(caught.value)
    assert path.read_bytes() == b"\x00" * 8192


@pytest.mark.parametrize(("opener", "name"), OPENERS)
async def test_a_missing_file_gets_a_new_private_database(tmp_path: Path, opener: Opener, name: str) -> None:
    path = tmp_path / name
    old_umask = os.umask(0o022)
    try:
        store = await opener(path)
        try:
            assert mode(path) == 0o600
            for suffix in ("-wal", "-shm"):
                side = path.with_name(path.name + suffix)
                assert side.exists() and mode(side) == 0o600, suffix
        finally:
            await store.aclose()
        reopened = await opener(path)  # the new file is a complete database
        await reopened.aclose()
    finally:
        os.umask(old_umask)
    assert mode(path) == 0o600
    assert not [p for p in path.parent.iterdir() if p.name not in (path.name, path.name + "-wal", path.name + "-shm")]


async def test_an_existing_database_is_made_private(tmp_path: Path) -> None:
    path = memory_db_path(tmp_path)
    store = await open_memory_store(path)
    await store.aclose()
    os.chmod(path, 0o644)
    store = await open_memory_store(path)
    try:
        assert mode(path) == 0o600
    finally:
        await store.aclose()


async def test_a_write_ahead_log_without_its_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "subconscious.db"
    wal = path.with_name(path.name + "-wal")
    wal.write_bytes(b"\x37\x7f\x06\x82" + b"\x00" * 60)
    with pytest.raises(StoreUnavailable, match="write-ahead log"):
        await open_subconscious_store(path)
    assert not path.exists()


async def test_a_failure_while_building_closes_the_databases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An open database's worker thread is not a daemon: left open, it kept a failed start from exiting."""
    opened: list[Any] = []
    real_subconscious, real_memory = bootstrap.open_subconscious_store, bootstrap.open_memory_store

    async def subconscious(path: Path) -> Any:
        opened.append(await real_subconscious(path))
        return opened[-1]

    async def memory(path: Path, clock: Any) -> Any:
        opened.append(await real_memory(path, clock))
        return opened[-1]

    def broken_token_counter() -> None:
        raise OSError(2, "No such file or directory", "cl100k_base.tiktoken")

    monkeypatch.setattr(bootstrap, "open_subconscious_store", subconscious)
    monkeypatch.setattr(bootstrap, "open_memory_store", memory)
    monkeypatch.setattr(bootstrap, "TokenCounter", broken_token_counter)
    paths = Paths(tmp_path / "ws")
    paths.ensure()
    with pytest.raises(OSError):
        await bootstrap.build(paths, config.LoadedConfig(config.Settings()))
    assert len(opened) == 2
    for store in opened:
        db = store.db if hasattr(store, "db") else store._db
        assert db._closed
        thread = db._conn._thread
        thread.join(5)
        assert not thread.is_alive()


async def test_a_half_built_database_of_a_killed_process_is_cleaned_up(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    dead_pid = int(done.stdout)  # that process has exited
    path = tmp_path / "subconscious.db"
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / f".subconscious.db.new-{dead_pid}-0badc0de{suffix}").write_bytes(b"half")
    store = await open_subconscious_store(path)
    await store.aclose()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["subconscious.db"]
