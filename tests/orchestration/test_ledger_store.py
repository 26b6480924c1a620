"""What the ledger adds to store.database.Database: the synchronous level, one-hop transactions on the
connection's thread (all or nothing, cancellation-safe), and commits that skip their own sync."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from openhuman_desktop.errors import StoreUnavailable
from openhuman_desktop.store.database import Database

SCHEMA = (("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)",),)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    opened = await Database.open(tmp_path / "x.db", SCHEMA, synchronous="FULL")
    yield opened
    await opened.aclose()


def rows(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return [row[0] for row in conn.execute("SELECT v FROM t ORDER BY id")]


async def test_the_synchronous_level_is_the_one_asked_for(tmp_path: Path, db: Database) -> None:
    assert (await db.fetchone("PRAGMA synchronous"))[0] == 2  # type: ignore[index]
    default = await Database.open(tmp_path / "y.db", SCHEMA)
    try:
        assert (await default.fetchone("PRAGMA synchronous"))[0] == 1  # type: ignore[index]
    finally:
        await default.aclose()
    with pytest.raises(ValueError, match="synchronous must be one of"):
        await Database.open(tmp_path / "z.db", SCHEMA, synchronous="ALWAYS")


async def test_a_write_runs_in_one_transaction_on_the_connection_thread(db: Database) -> None:
    seen: list[str] = []

    def work(conn: sqlite3.Connection) -> int:
        seen.append(threading.current_thread().name)
        conn.execute("INSERT INTO t (v) VALUES ('a')")
        conn.execute("INSERT INTO t (v) VALUES ('b')")
        return int(conn.in_transaction)
    assert await db.in_thread(work, write=True) == 1
    assert seen != [threading.current_thread().name]
    assert rows(db.path) == ["a", "b"]


async def test_a_write_that_raises_leaves_nothing(db: Database) -> None:
    def work(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO t (v) VALUES ('half')")
        raise RuntimeError("midway")
    with pytest.raises(RuntimeError, match="midway"):
        await db.in_thread(work, write=True)
    assert rows(db.path) == []

    def bad_sql(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO t (v) VALUES ('half')")
        conn.execute("INSERT INTO t (v) VALUES (NULL)")  # NOT NULL: a bug, re-raised as it is
    with pytest.raises(sqlite3.IntegrityError):
        await db.in_thread(bad_sql, write=True)
    assert rows(db.path) == []
    await db.in_thread(lambda conn: conn.execute("INSERT INTO t (v) VALUES ('next')"), write=True)
    assert rows(db.path) == ["next"]


async def test_a_cancelled_caller_does_not_cut_a_write_in_half(db: Database) -> None:
    started, release = threading.Event(), threading.Event()

    def slow(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO t (v) VALUES ('first')")
        started.set()
        release.wait(10)
        conn.execute("INSERT INTO t (v) VALUES ('second')")
    task = asyncio.ensure_future(db.in_thread(slow, write=True))
    await asyncio.to_thread(started.wait, 10)
    task.cancel()
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await db.in_thread(lambda conn: [r[0] for r in conn.execute("SELECT v FROM t ORDER BY id")]) == [
        "first", "second"]


async def test_an_unsynced_write_is_committed_and_every_synced_one_is_synced(db: Database) -> None:
    """Lazy writes in a row commit at NORMAL (the level is switched once, not twice per write); a synced write,
    and any statement outside ``in_thread``, runs at the level the database was opened with."""
    def level(conn: sqlite3.Connection) -> int:
        return int(conn.execute("PRAGMA synchronous").fetchone()[0])

    def insert(text: str) -> Callable[[sqlite3.Connection], int]:
        return lambda conn: (conn.execute("INSERT INTO t (v) VALUES (?)", (text,)), level(conn))[1]

    synced = db.synced_commits
    assert await db.in_thread(insert("lazy 1"), write=True, synced=False) == 1
    assert await db.in_thread(insert("lazy 2"), write=True, synced=False) == 1
    assert await db.in_thread(insert("synced"), write=True) == 2
    assert db.synced_commits == synced + 1
    await db.in_thread(insert("lazy 3"), write=True, synced=False)
    assert (await db.fetchone("PRAGMA synchronous"))[0] == 2  # type: ignore[index]
    with pytest.raises(RuntimeError):
        await db.in_thread(lambda conn: (_ for _ in ()).throw(RuntimeError("x")), write=True, synced=False)
    assert await db.in_thread(insert("synced again"), write=True) == 2
    assert rows(db.path) == ["lazy 1", "lazy 2", "synced", "lazy 3", "synced again"]
    assert db.synced_commits == synced + 2


async def test_after_close_it_says_so(db: Database) -> None:
    await db.aclose()
    with pytest.raises(StoreUnavailable, match="closed"):
        await db.in_thread(lambda conn: None)
