"""One aiosqlite connection per database file, owned by one object: pragmas, migrations, errors."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import sqlite3
import stat
import threading
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from openhuman_desktop.errors import StoreUnavailable, os_error_sentence

log = logging.getLogger(__name__)

BUSY_TIMEOUT_MS = 5_000
# The engine checkpoints the WAL after each tick (``checkpoint``), off the tick's path; SQLite's own
# automatic checkpoint is only a safety net at ~40 MB (its default ~4 MB would land inside a big tick).
WAL_AUTOCHECKPOINT_PAGES = 10_000
Params = Sequence[Any] | dict[str, Any]
T = TypeVar("T")
SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
"""``PRAGMA synchronous`` levels a database may be opened with (NORMAL unless its owner chooses another)."""

_RECOVER = "Move it away to start with a new database, or restore it from a backup."
_HEADER = b"SQLite format 3\x00"
_HEADER_SIZE = 100
# Less free space than this where the database lives: an I/O error there is a full disk.
_NEARLY_FULL_BYTES = 256 * 1024

# sqlite3 error names (Python ≥ 3.11 sets ``sqlite_errorname``) that mean "the environment", not a bug.
_ENVIRONMENT_ERRORS = {
    "SQLITE_BUSY": "is locked by another program; close it (or the other OpenHuman instance) and try again",
    "SQLITE_LOCKED": "is locked by another program; close it (or the other OpenHuman instance) and try again",
    "SQLITE_READONLY": "is read-only; check the permissions of the workspace folder (and that its disk is "
                       "not mounted read-only)",
    "SQLITE_FULL": "cannot be written because the disk is full; free some space and try again",
    "SQLITE_IOERR": "could not be read or written (I/O error); check the disk",
    "SQLITE_CANTOPEN": "cannot be opened; check that the workspace folder exists and is writable",
    "SQLITE_CORRUPT": "is damaged — it may have been cut short by a crash or a full disk. " + _RECOVER[:-1],
    "SQLITE_NOTADB": "is not an SQLite database. " + _RECOVER[:-1],
    "SQLITE_PERM": "cannot be accessed; check the permissions of the workspace folder",
}


def _disk_is_full(path: Path) -> bool:
    """Whether the file system holding ``path`` (or its folder) has next to no free space left."""
    for candidate in (path.parent, path):
        try:
            info = os.statvfs(candidate)
        except OSError:
            continue
        return info.f_bavail * info.f_frsize < _NEARLY_FULL_BYTES
    return False


def store_error(path: Path, exc: sqlite3.Error) -> StoreUnavailable | None:
    """Turn an environment-caused sqlite3 error into StoreUnavailable; None means "a bug, re-raise"."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = str(exc).lower()
    prefix = next((known for known in _ENVIRONMENT_ERRORS if name.startswith(known)), None)
    if prefix is None:
        for needle, guess in (
            ("locked", "SQLITE_BUSY"), ("readonly", "SQLITE_READONLY"), ("read-only", "SQLITE_READONLY"),
            ("disk is full", "SQLITE_FULL"), ("disk i/o", "SQLITE_IOERR"), ("unable to open", "SQLITE_CANTOPEN"),
            ("malformed", "SQLITE_CORRUPT"), ("not a database", "SQLITE_NOTADB"),
        ):
            if needle in text:
                prefix = guess
                break
    if prefix is None:
        return None
    if prefix in ("SQLITE_IOERR", "SQLITE_CANTOPEN") and _disk_is_full(path):
        prefix = "SQLITE_FULL"  # SQLite reports a full disk while growing the WAL index as an I/O error
    return StoreUnavailable(f"The database {path} {_ENVIRONMENT_ERRORS[prefix]}.")


def existing_file_problem(path: Path) -> str | None:
    """Why the existing file at ``path`` cannot be used as a database (None: it looks like one).

    Cheap checks only (the header and the size): an empty, truncated or foreign file is refused before
    SQLite sees it, so it is never replaced or "repaired" into an empty database.
    """
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            return (f"The database {path} is not a regular file (a folder or something else is in its place). "
                    + _RECOVER)
        with open(path, "rb") as file:
            header = file.read(_HEADER_SIZE)
    except OSError as exc:
        return f"The database {path} cannot be read: {os_error_sentence(exc)}"
    size = info.st_size
    if size == 0:
        return (f"The database {path} is empty (0 bytes) — it may have been truncated by a crash or a full "
                f"disk. {_RECOVER}")
    if len(header) < _HEADER_SIZE:
        if _HEADER.startswith(header[:len(_HEADER)]) or header.startswith(_HEADER):
            return (f"The database {path} is truncated ({size} bytes, not even its header) — it may have been "
                    f"cut short by a crash or a full disk. {_RECOVER}")
        return f"The database {path} is not an SQLite database. {_RECOVER}"
    if not header.startswith(_HEADER):
        return f"The database {path} is not an SQLite database. {_RECOVER}"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    size_is_valid = header[24:28] == header[92:96]  # "in-header database size" is trusted only then
    wal = path.with_name(path.name + "-wal")
    has_wal = wal.exists() and wal.stat().st_size > 0  # a checkpoint cut short by a crash is finished from it
    if size_is_valid and pages and size < pages * page_size and not has_wal:
        return (f"The database {path} is truncated ({size:,} of {pages * page_size:,} bytes) — it may have been "
                f"cut short by a crash or a full disk. {_RECOVER}")
    return None


def _remove_abandoned(path: Path) -> None:
    """Remove half-built new databases left by a process that was killed while creating ``path``."""
    for leftover in path.parent.glob(f".{path.name}.new-*"):
        pid = leftover.name.removeprefix(f".{path.name}.new-").split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid() or _is_running(int(pid)):
            continue
        with contextlib.suppress(OSError):
            leftover.unlink()


def _is_running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process
    return True


def _make_private(path: Path) -> None:
    """Database files hold the user's tasks and memories: readable by the user only (0600)."""
    for candidate in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            if stat.S_IMODE(os.stat(candidate).st_mode) & 0o077:
                os.chmod(candidate, 0o600)
        except OSError:
            continue  # not there, not ours, or a read-only disk: opening reports what matters


Migration = Sequence[str]


class Database:
    """The owner of one SQLite connection.

    All statements go through one lock, so a transaction is never interleaved with another
    coroutine's statements on the shared connection. Environment errors (locked, read-only, full)
    become :class:`StoreUnavailable`; a failed transaction is rolled back whole.
    """

    def __init__(self, path: Path, conn: aiosqlite.Connection, synchronous: str = "NORMAL") -> None:
        self.path = path
        self.synchronous = synchronous
        self._conn = conn
        self._lock = asyncio.Lock()
        self._closed = False
        self._level = synchronous
        """The connection's ``synchronous`` now: a lazy write (:meth:`in_thread`) leaves it at NORMAL for the next
        one; every other statement first brings it back (:meth:`_configured_level`). Read and changed only on the
        connection's thread."""
        self.synced_commits = 0
        """Writes through :meth:`in_thread` that changed something and were committed at a level that syncs (FULL
        or EXTRA), since opening: each one synced the write-ahead log once."""

    @classmethod
    async def open(cls, path: Path, migrations: Sequence[Migration], *, synchronous: str = "NORMAL") -> Database:
        """Open the database at ``path`` and bring its schema up to date; create it only where nothing is.

        A new database is built under a temporary name and linked into place complete, so a crash never
        leaves an empty or half-made file behind. An existing file is never replaced: one that is empty,
        truncated, damaged or not a database is refused with a sentence that says how to recover.

        ``synchronous`` is the ``PRAGMA synchronous`` level (:data:`SYNCHRONOUS`): in WAL mode NORMAL may lose
        the last commits on a power cut (never on a crash of the app), FULL syncs every commit.

        Raises:
            StoreUnavailable: the file cannot be created or opened, is locked, damaged or not a database.
            ValueError: ``synchronous`` is not one of :data:`SYNCHRONOUS`.
        """
        if synchronous.upper() not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {synchronous!r}")
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(
                f"The database {path} cannot be created: its folder cannot be made ({os_error_sentence(exc)})"
            ) from exc
        if not os.path.lexists(path):
            await cls._create(path, migrations)
        problem = existing_file_problem(path)
        if problem is not None:
            raise StoreUnavailable(problem)
        _make_private(path)
        return await cls._connect(path, migrations, synchronous=synchronous.upper())

    @classmethod
    async def _create(cls, path: Path, migrations: Sequence[Migration]) -> None:
        """Build a complete new database next to ``path`` and link it into place (never over a file)."""
        for leftover in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-journal")):
            if leftover.exists() and leftover.stat().st_size > 0:
                raise StoreUnavailable(
                    f"The database {path} is missing but its journal {leftover.name} is still there (it may "
                    "hold the latest changes). Restore the database from a backup, or move the write-ahead "
                    "log away to start with a new database."
                )
        _remove_abandoned(path)
        temporary = path.with_name(f".{path.name}.new-{os.getpid()}-{secrets.token_hex(4)}")
        try:
            try:
                os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            except OSError as exc:
                raise StoreUnavailable(
                    f"The database {path} cannot be created: {os_error_sentence(exc)}"
                ) from exc
            fresh = await cls._connect(temporary, migrations, shown_as=path)
            await fresh.aclose()
            try:
                os.link(temporary, path)  # fails if another instance created it meanwhile: theirs is kept
            except FileExistsError:
                pass
            except OSError as exc:
                raise StoreUnavailable(
                    f"The database {path} cannot be created: {os_error_sentence(exc)}"
                ) from exc
            else:
                log.info("created a new database %s", path)
        finally:
            for name in (temporary, *(temporary.with_name(temporary.name + s) for s in ("-wal", "-shm"))):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(name)

    @classmethod
    async def _connect(cls, path: Path, migrations: Sequence[Migration], shown_as: Path | None = None,
                       synchronous: str = "NORMAL") -> Database:
        """Connect, set the pragmas and migrate; errors name ``shown_as`` (the real name of a new database)."""
        named = shown_as or path
        connecting = aiosqlite.connect(path, isolation_level=None)
        try:
            conn = await connecting
        except BaseException as exc:
            await _join_worker(connecting)
            if isinstance(exc, sqlite3.Error):
                raise (
                    store_error(named, exc) or StoreUnavailable(f"The database {named} cannot be opened: {exc}.")
                ) from exc
            raise
        conn.row_factory = sqlite3.Row
        db = cls(path, conn, synchronous)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA foreign_keys = ON")
            mode = await (await conn.execute("PRAGMA journal_mode = WAL")).fetchone()
            if mode is None or str(mode[0]).lower() != "wal":
                log.warning("database %s: WAL journal not available (got %s)", path, mode and mode[0])
            await conn.execute(f"PRAGMA synchronous = {synchronous}")
            await conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT_PAGES}")
            await conn.execute("SELECT count(*) FROM sqlite_schema")  # reads the schema: damage shows here
            await db._migrate(migrations)
        except sqlite3.Error as exc:
            await conn.close()
            mapped = store_error(named, exc)
            if mapped is None:
                raise
            raise mapped from exc
        except BaseException:
            await conn.close()
            raise
        return db

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        row = await (await self._conn.execute("PRAGMA user_version")).fetchone()
        version = int(row[0]) if row else 0
        if version > len(migrations):
            raise StoreUnavailable(
                f"The database {self.path} was written by a newer version of OpenHuman (schema {version}, "
                f"this version knows up to {len(migrations)}); update the app to use it."
            )
        for number, statements in enumerate(migrations[version:], start=version + 1):
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                for statement in statements:
                    await self._conn.execute(statement)
                await self._conn.execute(f"PRAGMA user_version = {number}")
                await self._conn.execute("COMMIT")
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            log.info("database %s migrated to schema version %d", self.path, number)

    async def _run(self, coro_factory: Any) -> Any:
        if self._closed:
            raise StoreUnavailable(f"The database {self.path} is closed (the app is shutting down).")
        try:
            return await coro_factory()
        except sqlite3.Error as exc:
            mapped = store_error(self.path, exc)
            if mapped is None:
                raise
            log.warning("database %s: %s", self.path, exc)
            raise mapped from exc

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """Rows of one query."""
        async with self._lock:
            return await self._fetchall(sql, params)

    async def _fetchall(self, sql: str, params: Params) -> list[sqlite3.Row]:
        await self._configured_level()

        async def go() -> list[sqlite3.Row]:
            return list(await self._conn.execute_fetchall(sql, params))  # one hop to the database thread
        result: list[sqlite3.Row] = await self._run(go)
        return result

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """The first row of one query, or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement (atomic on its own); return the number of rows it changed."""
        async with self._lock:
            await self._configured_level()

            async def go() -> int:
                cursor = await self._conn.execute(sql, params)
                count = int(cursor.rowcount)
                await cursor.close()
                return count
            result: int = await self._run(go)
            return result

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """``async with db.transaction() as tx:`` — all of it is written, or nothing is.

        Cancellation-safe: a statement already handed to aiosqlite's thread runs to its end even when the
        awaiting task is cancelled, so BEGIN and COMMIT are awaited to completion (shielded) and a
        transaction left open by a cancellation is always rolled back.
        """
        async with self._lock:
            await self._configured_level()
            await self._finish_shielded("BEGIN IMMEDIATE")
            tx = Transaction(self)
            try:
                yield tx
            except BaseException:
                await asyncio.shield(self._rollback())
                raise
            try:
                await self._finish_shielded("COMMIT")
            except BaseException:
                await asyncio.shield(self._rollback())
                raise

    async def in_thread(self, work: Callable[[sqlite3.Connection], T], *, write: bool = False,
                        synced: bool = True) -> T:
        """Run ``work(connection)`` on the connection's own thread in one hop, inside one transaction:
        ``BEGIN IMMEDIATE`` … ``COMMIT`` with ``write`` (rolled back whole if ``work`` raises), else a read
        transaction (one consistent view across its statements).

        For hot paths that would otherwise hop to the database thread once per statement. ``work`` must
        only touch the connection and its own arguments (it runs outside the event loop). Once handed
        over it runs to its end even if the caller is cancelled; the connection's thread runs one job at
        a time in the order they came, so nothing handed over later interleaves with it.

        ``synced=False`` commits a write without syncing it even at ``synchronous`` FULL: it becomes durable
        with the next synced commit (commits stay in order, so a power cut loses a suffix of them). For
        writes whose loss is the same as "not yet done" as long as everything after them is lost too.
        Synced writes are counted in :attr:`synced_commits`.
        """
        syncing = write and self.synchronous in ("FULL", "EXTRA")
        lazy = syncing and not synced

        def job() -> T:
            conn = self._conn._conn  # the sqlite3 connection aiosqlite's thread owns
            if write:  # (switched only when it changes: a run's lazy commits come in a row)
                self._set_level(conn, "NORMAL" if lazy else self.synchronous)
            changes = conn.total_changes
            conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                result = work(conn)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            if syncing and not lazy and conn.total_changes != changes:  # (SQLite syncs no empty commit)
                self.synced_commits += 1  # (the connection's thread is the only writer of the count)
            return result

        async def go() -> T:
            # WORKAROUND: aiosqlite has no public "run this function on your thread"; ``_execute`` is
            # what all its own methods use. A cancelled caller stops waiting, the job still runs whole.
            result: T = await self._conn._execute(job)  # type: ignore[no-untyped-call]
            return result

        async with self._lock:
            done: T = await self._run(go)
            return done

    def _set_level(self, conn: sqlite3.Connection, level: str) -> None:
        """On the connection's thread: ``PRAGMA synchronous = level`` unless it is that already."""
        if self._level != level:
            conn.execute(f"PRAGMA synchronous = {level}")
            self._level = level

    async def _configured_level(self) -> None:
        """Before a statement that is not :meth:`in_thread`'s (hold the lock): the connection back at the level
        it was opened with, should a lazy write have left it at NORMAL (decided on the connection's thread, in
        order with the jobs before it)."""
        if self.synchronous not in ("FULL", "EXTRA"):
            return  # never lowered

        async def go() -> None:
            # WORKAROUND: as in in_thread, aiosqlite's ``_execute`` runs a function on its thread.
            await self._conn._execute(self._set_level, self._conn._conn, self.synchronous)  # type: ignore[no-untyped-call]
        await self._run(go)

    async def _finish_shielded(self, statement: str) -> None:
        """Run ``statement``; if the caller is cancelled meanwhile, let it finish, undo BEGIN, then re-raise."""
        step = asyncio.ensure_future(self._run(lambda: self._conn.execute(statement)))
        try:
            await asyncio.shield(step)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await step
            if statement.startswith("BEGIN"):
                await asyncio.shield(self._rollback())
            raise

    async def _rollback(self) -> None:
        if not self._conn.in_transaction:
            return
        try:
            await self._conn.execute("ROLLBACK")
        except sqlite3.Error:
            log.exception("database %s: rollback failed", self.path)

    async def checkpoint(self) -> None:
        """Copy the WAL back into the database file without waiting for readers (``PASSIVE``)."""
        await self.execute("PRAGMA wal_checkpoint(PASSIVE)")

    async def integrity_check(self) -> str:
        """``PRAGMA integrity_check``: "ok" when the file is sound."""
        row = await self.fetchone("PRAGMA integrity_check")
        return str(row[0]) if row else "no answer"

    async def aclose(self) -> None:
        """Checkpoint the WAL and close the connection; safe to call twice."""
        if self._closed:
            return
        async with self._lock:
            self._closed = True
            try:
                await self._conn.execute("PRAGMA optimize")
                await self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                log.warning("database %s: checkpoint on close failed: %s", self.path, exc)
            await self._conn.close()


async def _join_worker(connection: aiosqlite.Connection) -> None:
    """Wait for the worker thread of a connection that failed to open.

    WORKAROUND: https://github.com/omnilib/aiosqlite/issues/387 — after a failed connect aiosqlite
    stops its worker thread without waiting; the thread later reports to the event loop, and if
    that loop has closed by then it dies with "Event loop is closed".
    """
    thread = getattr(connection, "_thread", None)
    if isinstance(thread, threading.Thread) and thread.is_alive():
        await asyncio.to_thread(thread.join, 5.0)


class Transaction:
    """Statements inside one open transaction (only valid inside ``Database.transaction()``)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return the number of rows it changed."""
        async def go() -> int:
            async with self._db._conn.execute(sql, params) as cursor:
                return int(cursor.rowcount)
        result: int = await self._db._run(go)
        return result

    async def started(self, sql: str, params: Params = ()) -> asyncio.Task[int]:
        """Hand one statement to the database thread and return at once; await the task for its count.

        SQLite runs a statement without the GIL, so Python work done before awaiting (building the
        snapshots of what is being written) overlaps with the write. Await the task before the next
        statement of the transaction.
        """
        task = asyncio.ensure_future(self.execute(sql, params))
        try:
            await asyncio.sleep(0)  # the task runs up to the hand-over to aiosqlite's thread
        except asyncio.CancelledError:
            task.cancel()  # the transaction rolls back whatever it did
            raise
        return task

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        """Run one statement for many parameter sets."""
        async def go() -> None:
            await self._db._conn.executemany(sql, rows)
        await self._db._run(go)

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        """Rows of one query, seeing this transaction's own writes."""
        return await self._db._fetchall(sql, params)

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """The first row of one query, or None."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None
