"""Locked, read-only, full, or not a database: StoreUnavailable with a clear sentence, nothing half-written."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from openhuman_desktop.errors import StoreUnavailable
from openhuman_desktop.store import SubconsciousStore, database, open_subconscious_store

NOW = 1_790_000_000.0


@pytest.fixture(autouse=True)
def short_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """A lock held by someone else is reported after 50 ms instead of 5 s."""
    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 50)


@pytest.fixture
def locker(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    """A second connection (think: another program) that the test can make hold an EXCLUSIVE lock."""
    conn = sqlite3.connect(tmp_path / "subconscious.db", isolation_level=None, timeout=0.05)
    yield conn
    if conn.in_transaction:
        conn.execute("ROLLBACK")
    conn.close()


async def add_task(store: SubconsciousStore, title: str) -> None:
    await store.tasks.add(title=title, source="user", recurrence="pending", next_run_at=None, intent="read",
                          intent_source="keyword", origin="user", now=NOW)


@pytest.mark.logs_expected(r"database is locked")
async def test_a_locked_database_is_store_unavailable_and_nothing_is_written(
    store: SubconsciousStore, locker: sqlite3.Connection
) -> None:
    await add_task(store, "before the lock")
    locker.execute("BEGIN EXCLUSIVE")
    with pytest.raises(StoreUnavailable) as caught:
        await add_task(store, "while locked")
    message = str(caught.value)
    assert str(store.db.path) in message and "locked" in message
    with pytest.raises(StoreUnavailable):
        async with store.db.transaction() as tx:
            await tx.execute("INSERT INTO engine_state (key, value) VALUES ('a', '1')")
            await tx.execute("INSERT INTO engine_state (key, value) VALUES ('b', '2')")
    locker.execute("ROLLBACK")

    titles = [task.title for task in await store.tasks.list()]
    assert titles == ["before the lock"]
    assert await store.state.get("a") is None and await store.state.get("b") is None
    await add_task(store, "after the lock")  # usable again once the other program lets go
    assert await store.tasks.count() == 2


async def test_a_failing_statement_rolls_back_the_whole_transaction(store: SubconsciousStore) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        async with store.db.transaction() as tx:
            await tx.execute("INSERT INTO engine_state (key, value) VALUES ('first', '1')")
            await tx.execute("INSERT INTO engine_state (key, value) VALUES ('second', NULL)")
    assert await store.state.get("first") is None
    await store.state.set("later", "ok")  # the connection is not stuck in a transaction
    assert await store.state.get("later") == "ok"


async def test_opening_a_database_someone_holds_exclusively(
    tmp_path: Path, locker: sqlite3.Connection
) -> None:
    locker.execute("CREATE TABLE other_program (x)")  # a brand-new file, still in rollback-journal mode
    locker.execute("BEGIN EXCLUSIVE")
    locker.execute("INSERT INTO other_program VALUES (1)")
    with pytest.raises(StoreUnavailable, match="locked"):
        await open_subconscious_store(tmp_path / "subconscious.db")


@pytest.mark.logs_expected(r"attempt to write a readonly database")
async def test_a_read_only_connection_is_store_unavailable(store: SubconsciousStore) -> None:
    await add_task(store, "kept")
    await store.db.fetchall("PRAGMA query_only = ON")
    with pytest.raises(StoreUnavailable) as caught:
        await add_task(store, "refused")
    assert "read-only" in str(caught.value)
    with pytest.raises(StoreUnavailable):
        async with store.db.transaction() as tx:
            await tx.execute("INSERT INTO engine_state (key, value) VALUES ('a', '1')")
    await store.db.fetchall("PRAGMA query_only = OFF")
    assert [task.title for task in await store.tasks.list()] == ["kept"]
    assert await store.state.get("a") is None


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root writes through file permissions; covered with PRAGMA query_only above")
async def test_a_read_only_file_is_store_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "ro" / "subconscious.db"
    store = await open_subconscious_store(path)
    await store.aclose()
    os.chmod(path, 0o400)
    os.chmod(path.parent, 0o500)
    try:
        with pytest.raises(StoreUnavailable):
            opened = await open_subconscious_store(path)
            try:
                await add_task(opened, "refused")
            finally:
                await opened.aclose()
    finally:
        os.chmod(path.parent, 0o700)
        os.chmod(path, 0o600)


@pytest.mark.logs_expected(r"database or disk is full")
async def test_a_full_disk_is_store_unavailable_and_nothing_is_written(store: SubconsciousStore) -> None:
    await add_task(store, "fits")
    row = await store.db.fetchone("PRAGMA page_count")
    assert row is not None
    await store.db.fetchall(f"PRAGMA max_page_count = {int(row[0]) + 2}")
    big = "x" * 3000
    with pytest.raises(StoreUnavailable) as caught:
        async with store.db.transaction() as tx:
            for index in range(50):
                await tx.execute("INSERT INTO engine_state (key, value) VALUES (?, ?)", (f"big{index}", big))
    message = str(caught.value)
    assert "disk is full" in message and str(store.db.path) in message
    rows = await store.db.fetchall("SELECT key FROM engine_state WHERE key LIKE 'big%'")
    assert rows == []
    assert [task.title for task in await store.tasks.list()] == ["fits"]


async def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "subconscious.db"
    path.write_bytes(b"This is a text file that somebody saved under the database's name.\n" * 20)
    with pytest.raises(StoreUnavailable) as caught:
        await open_subconscious_store(path)
    message = str(caught.value)
    assert str(path) in message and "not an SQLite database" in message
    assert path.read_bytes().startswith(b"This is a text file")  # never overwritten


async def test_a_damaged_database(tmp_path: Path) -> None:
    path = tmp_path / "subconscious.db"
    store = await open_subconscious_store(path)
    for index in range(200):
        await add_task(store, f"task {index} " + "y" * 200)
    await store.aclose()
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(page * 2, len(data), 7):  # leave the header, trash the pages
        data[offset] = 0xA5
    path.write_bytes(bytes(data))
    with pytest.raises(StoreUnavailable) as caught:
        opened = await open_subconscious_store(path)
        try:
            await opened.tasks.list()
        finally:
            await opened.aclose()
    assert str(path) in str(caught.value)


async def test_a_directory_where_the_database_should_be(tmp_path: Path) -> None:
    path = tmp_path / "subconscious.db"
    path.mkdir()
    with pytest.raises(StoreUnavailable) as caught:
        await open_subconscious_store(path)
    assert str(path) in str(caught.value)


async def test_a_file_where_the_database_folder_should_be(tmp_path: Path) -> None:
    (tmp_path / "subconscious").write_text("not a folder", encoding="utf-8")
    path = tmp_path / "subconscious" / "subconscious.db"
    with pytest.raises(StoreUnavailable) as caught:
        await open_subconscious_store(path)
    assert str(path) in str(caught.value)


def test_store_error_maps_only_environment_errors(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    busy = sqlite3.OperationalError("database is locked")
    assert isinstance(database.store_error(path, busy), StoreUnavailable)
    full = sqlite3.OperationalError("database or disk is full")
    mapped = database.store_error(path, full)
    assert mapped is not None and "disk is full" in str(mapped)
    assert database.store_error(path, sqlite3.OperationalError("no such table: nope")) is None
    assert database.store_error(path, sqlite3.IntegrityError("UNIQUE constraint failed")) is None


async def test_a_copied_database_still_opens(store: SubconsciousStore, tmp_path: Path) -> None:
    """Sanity check for the tests above: a plain copy of a closed store is a good database."""
    await add_task(store, "copied")
    await store.aclose()
    copy = tmp_path / "copy" / "subconscious.db"
    copy.parent.mkdir()
    shutil.copy(store.db.path, copy)
    reopened = await open_subconscious_store(copy)
    try:
        assert [task.title for task in await reopened.tasks.list()] == ["copied"]
    finally:
        await reopened.aclose()


def test_a_full_disk_while_running_does_not_ask_for_a_restart(tmp_path: Path) -> None:
    """Found by the issue-9 attack: the running app recovers by itself once space is freed (the next write
    succeeds), yet the sentence said "free some space and start again"."""
    mapped = database.store_error(tmp_path / "x.db", sqlite3.OperationalError("database or disk is full"))
    assert mapped is not None
    assert "disk is full" in str(mapped) and "start again" not in str(mapped)
    assert "(disk full)" not in str(mapped), "said once"
