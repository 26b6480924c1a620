"""Long-term memory: short texts in their own SQLite file, found again by full-text search (FTS5, bm25)."""

from __future__ import annotations

import builtins
import math
import re
import sqlite3
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openhuman_desktop.clock import Clock, SystemClock
from openhuman_desktop.errors import InvalidInput, NotFound, StoreUnavailable
from openhuman_desktop.store.database import Database, Migration

MAX_TEXT_CHARS = 10_000
MAX_QUERY_CHARS = 1_000
MAX_QUERY_TERMS = 32
MAX_TAGS = 20
MAX_TAG_CHARS = 50
MAX_LIMIT = 1_000
MAX_SOURCE_CHARS = 40

# ``seq`` is the FTS5 content rowid. The rowid of a table whose primary key is TEXT may be renumbered by
# VACUUM, which would silently detach the external-content index; an explicit integer column never moves.
_V1: Migration = (
    """
    CREATE TABLE memories (
        id          TEXT PRIMARY KEY,
        seq         INTEGER NOT NULL UNIQUE,
        text        TEXT NOT NULL CHECK (length(trim(text)) > 0),
        source      TEXT NOT NULL CHECK (length(source) > 0),
        created_at  REAL NOT NULL,
        tags        TEXT NOT NULL DEFAULT ''
    )
    """,
    "CREATE INDEX idx_memories_created ON memories (created_at, seq)",
    """
    CREATE VIRTUAL TABLE memories_fts USING fts5(
        text, tags, content = 'memories', content_rowid = 'seq', tokenize = 'unicode61 remove_diacritics 2'
    )
    """,
    """
    CREATE TRIGGER memories_after_insert AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, text, tags) VALUES (new.seq, new.text, new.tags);
    END
    """,
    """
    CREATE TRIGGER memories_after_delete AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, text, tags)
            VALUES ('delete', old.seq, old.text, old.tags);
    END
    """,
    """
    CREATE TRIGGER memories_after_update AFTER UPDATE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, text, tags)
            VALUES ('delete', old.seq, old.text, old.tags);
        INSERT INTO memories_fts (rowid, text, tags) VALUES (new.seq, new.text, new.tags);
    END
    """,
)

MIGRATIONS: tuple[Migration, ...] = (_V1,)

_NEWEST_FIRST = "ORDER BY created_at DESC, seq DESC"
# Runs of letters and digits: what FTS5's unicode61 tokenizer keeps as tokens.
_WORD = re.compile(r"[^\W_]+")


def memory_db_path(workspace: Path) -> Path:
    """Where the memory database of ``workspace`` lives: ``{workspace}/memory/memory.db``."""
    return workspace / "memory" / "memory.db"


@dataclass(frozen=True)
class Memory:
    """One remembered text."""

    id: str
    text: str
    source: str
    created_at: float
    tags: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Memory:
        return cls(
            id=row["id"], text=row["text"], source=row["source"], created_at=row["created_at"],
            tags=tuple(tag for tag in str(row["tags"]).split(",") if tag),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "text": self.text, "source": self.source, "created_at": self.created_at,
            "tags": list(self.tags),
        }


def clean_text(text: object) -> str:
    """The text to store: trimmed, not empty, at most ``MAX_TEXT_CHARS`` characters.

    Raises:
        InvalidInput: not a string, blank, too long or containing NUL characters.
    """
    if not isinstance(text, str):
        raise InvalidInput("text", "must be a string")
    clean = text.strip()
    if not clean:
        raise InvalidInput("text", "must not be empty")
    if len(clean) > MAX_TEXT_CHARS:
        raise InvalidInput("text", f"has {len(clean):,} characters; at most {MAX_TEXT_CHARS:,} are allowed")
    if "\x00" in clean:
        raise InvalidInput("text", "must not contain NUL characters")
    return clean


def clean_tags(tags: object) -> tuple[str, ...]:
    """Tags trimmed, without duplicates, in the given order.

    Raises:
        InvalidInput: not a list of strings, too many, too long, empty or containing a comma.
    """
    if isinstance(tags, str) or not isinstance(tags, Iterable):
        raise InvalidInput("tags", "must be a list of strings")
    result: list[str] = []
    for tag in tags:
        if not isinstance(tag, str):
            raise InvalidInput("tags", "must be a list of strings")
        clean = tag.strip()
        if not clean:
            raise InvalidInput("tags", "must not contain empty tags")
        if len(clean) > MAX_TAG_CHARS:
            raise InvalidInput("tags", f"a tag may have at most {MAX_TAG_CHARS} characters")
        if "," in clean or any(not ch.isprintable() for ch in clean):
            raise InvalidInput("tags", "a tag must not contain commas or control characters")
        if clean not in result:
            result.append(clean)
    if len(result) > MAX_TAGS:
        raise InvalidInput("tags", f"at most {MAX_TAGS} tags are allowed")
    return tuple(result)


def _clean_source(source: object) -> str:
    if not isinstance(source, str) or not source or len(source) > MAX_SOURCE_CHARS:
        raise InvalidInput("source", f"must be a name of 1 to {MAX_SOURCE_CHARS} characters, e.g. 'user'")
    if not all(ch.isascii() and (ch.isalnum() or ch in "_-.:") for ch in source):
        raise InvalidInput("source", "may contain only letters, digits and _ - . :")
    return source


def _check_limit(limit: object, maximum: int = MAX_LIMIT) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise InvalidInput("limit", "must be a whole number")
    if not 1 <= limit <= maximum:
        raise InvalidInput("limit", f"must be between 1 and {maximum}")
    return limit


def _check_timestamp(param: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InvalidInput(param, "must be a finite number (unix seconds)")
    return float(value)


def query_terms(query: object) -> list[str]:
    """The searchable words of ``query``, split where the index tokenizer splits (at anything that is not
    a letter or a digit), so ``foo's`` or ``text:foo`` look for the same words the stored text was cut into.

    Raises:
        InvalidInput: not a string, blank, too long, or without any word to search for.
    """
    if not isinstance(query, str):
        raise InvalidInput("query", "must be a string")
    if not query.strip():
        raise InvalidInput("query", "must not be empty")
    if len(query) > MAX_QUERY_CHARS:
        raise InvalidInput("query", f"may have at most {MAX_QUERY_CHARS:,} characters")
    terms = _WORD.findall(query)
    if not terms:
        raise InvalidInput("query", "contains no word or number to search for")
    return terms[:MAX_QUERY_TERMS]


def fts_query(terms: Iterable[str], operator: str = "AND") -> str:
    """An FTS5 query that matches ``terms`` literally: every term is a quoted string, so no text is ever read
    as FTS5 syntax (``AND``, ``NEAR``, ``(``, ``"``, ``*``, column filters), even when a caller passes more
    than plain words."""
    quoted = ['"' + term.replace('"', '""') + '"' for term in terms]
    return f" {operator} ".join(quoted)


class MemoryStore:
    """All SQL about memories. A plain repository: it publishes no events (its callers do)."""

    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    @property
    def path(self) -> Path:
        return self._db.path

    async def add(self, text: object, source: str = "user", tags: Iterable[str] = ()) -> Memory:
        """Remember ``text`` (trimmed).

        Raises:
            InvalidInput: blank or too long text, bad source or tags.
            StoreUnavailable: the database cannot be written.
        """
        memory = Memory(
            id=str(uuid.uuid4()), text=clean_text(text), source=_clean_source(source),
            created_at=self._clock.now(), tags=clean_tags(tags),
        )
        await self._db.execute(
            """INSERT INTO memories (id, seq, text, source, created_at, tags)
               VALUES (?, (SELECT coalesce(max(seq), 0) + 1 FROM memories), ?, ?, ?, ?)""",
            (memory.id, memory.text, memory.source, memory.created_at, ",".join(memory.tags)),
        )
        return memory

    async def get(self, memory_id: str) -> Memory | None:
        """The memory with ``memory_id``, or None."""
        row = await self._db.fetchone("SELECT * FROM memories WHERE id = ?", (memory_id,))
        return Memory.from_row(row) if row else None

    async def search(self, query: object, limit: int = 20) -> builtins.list[Memory]:
        """Memories whose text or tags contain the words of ``query``, best match (bm25) first.

        All words must match; when that finds nothing and there are several words, any word may match,
        so a long question still finds the memories that share some of its words. Arbitrary text is safe:
        each word is searched literally.

        Raises:
            InvalidInput: blank or too long query, or one without any word; bad limit.
        """
        terms = query_terms(query)
        limit = _check_limit(limit)
        found = await self._match(fts_query(terms, "AND"), limit)
        if not found and len(terms) > 1:
            found = await self._match(fts_query(terms, "OR"), limit)
        return found

    async def _match(self, expression: str, limit: int) -> builtins.list[Memory]:
        rows = await self._db.fetchall(
            """SELECT m.* FROM memories_fts JOIN memories AS m ON m.seq = memories_fts.rowid
               WHERE memories_fts MATCH ?
               ORDER BY bm25(memories_fts), m.created_at DESC, m.seq DESC
               LIMIT ?""",
            (expression, limit),
        )
        return [Memory.from_row(row) for row in rows]

    async def list(self, limit: int = 50, before: float | None = None) -> builtins.list[Memory]:
        """The newest memories first; ``before`` (unix seconds) pages back to older ones.

        Raises:
            InvalidInput: bad limit or before.
        """
        limit = _check_limit(limit)
        if before is None:
            rows = await self._db.fetchall(f"SELECT * FROM memories {_NEWEST_FIRST} LIMIT ?", (limit,))
        else:
            rows = await self._db.fetchall(
                f"SELECT * FROM memories WHERE created_at < ? {_NEWEST_FIRST} LIMIT ?",
                (_check_timestamp("before", before), limit),
            )
        return [Memory.from_row(row) for row in rows]

    async def since(self, ts: float, limit: int = 100) -> builtins.list[Memory]:
        """Memories added after ``ts`` (unix seconds), newest first, so a cut keeps the most recent ones.

        Raises:
            InvalidInput: bad ts or limit.
        """
        rows = await self._db.fetchall(
            f"SELECT * FROM memories WHERE created_at > ? {_NEWEST_FIRST} LIMIT ?",
            (_check_timestamp("ts", ts), _check_limit(limit)),
        )
        return [Memory.from_row(row) for row in rows]

    async def count(self) -> int:
        """How many memories there are."""
        row = await self._db.fetchone("SELECT count(*) FROM memories")
        return int(row[0]) if row else 0

    async def count_text(self, text: object) -> int:
        """How many memories hold exactly ``text`` (trimmed as :meth:`add` would store it).

        Raises:
            InvalidInput: a text :meth:`add` would refuse.
        """
        row = await self._db.fetchone("SELECT count(*) FROM memories WHERE text = ?", (clean_text(text),))
        return int(row[0]) if row else 0

    async def remove(self, memory_id: str) -> None:
        """Forget one memory.

        Raises:
            NotFound: no memory has this id.
        """
        if not await self._db.execute("DELETE FROM memories WHERE id = ?", (memory_id,)):
            raise NotFound(f"No memory has the id {memory_id!r}.")

    async def integrity_check(self) -> str:
        """"ok" when the file and the full-text index agree with each other."""
        result = await self._db.integrity_check()
        if result != "ok":
            return result
        try:
            await self._db.execute("INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')")
        except (sqlite3.DatabaseError, StoreUnavailable) as exc:
            return f"full-text index: {exc}"
        return "ok"

    async def aclose(self) -> None:
        """Close the database; safe to call twice."""
        await self._db.aclose()


async def open_memory_store(path: Path, clock: Clock | None = None) -> MemoryStore:
    """Open (creating if needed) the memory database at ``path``, migrated to the current schema.

    Raises:
        StoreUnavailable: the file cannot be opened, is locked, damaged or not a database.
    """
    db = await Database.open(path, MIGRATIONS)
    return MemoryStore(db, clock or SystemClock())
