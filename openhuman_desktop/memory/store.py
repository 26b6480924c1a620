"""Long-term memory: short texts in their own SQLite file, found again by full-text search (FTS5, bm25) and, with
an embedding model, by their float32 vectors stored beside them (ranked together: ``memory.ranking``)."""

from __future__ import annotations

import asyncio
import builtins
import math
import re
import sqlite3
import unicodedata
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from openhuman_desktop.clock import Clock, SystemClock
from openhuman_desktop.errors import InvalidInput, NotFound, StoreUnavailable
from openhuman_desktop.memory.ranking import MODES, fuse
from openhuman_desktop.paths import Paths
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
V1: Migration = (
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

# One vector per memory (float32, little-endian), labelled with the model and dimension that made it: a
# vector of another model or dimension is stale and is replaced by the back-fill (``memory.vectors``).
V2: Migration = (
    """
    CREATE TABLE memory_vectors (
        seq     INTEGER PRIMARY KEY REFERENCES memories (seq) ON DELETE CASCADE,
        model   TEXT NOT NULL CHECK (length(model) > 0),
        dim     INTEGER NOT NULL CHECK (dim > 0),
        vector  BLOB NOT NULL CHECK (length(vector) = 4 * dim)
    )
    """,
    "CREATE INDEX idx_memory_vectors_model ON memory_vectors (model, dim)",
    # How many memories hold each word: lets a search see that its words are everywhere before ranking.
    "CREATE VIRTUAL TABLE memories_vocab USING fts5vocab(memories_fts, 'row')",
)

MIGRATIONS: tuple[Migration, ...] = (V1, V2)
EVICTED_TAG = "evicted"
"""The tag of what the context hook evicted from a thread into long-term memory (CONTRACT §11)."""

_NEWEST_FIRST = "ORDER BY m.created_at DESC, m.seq DESC"
_SELECT = "SELECT m.*, v.model AS vector_model FROM memories AS m LEFT JOIN memory_vectors AS v ON v.seq = m.seq"
# How many candidates each of text and vector search hands to the fusion (at least the limit asked for).
_CANDIDATES = 50
BM25_ROWS = 20_000
"""Past this many matching memories a full-text search lists the newest matches first instead of ranking
them all by bm25: ranking costs ≈ 1 ms per 1,500 matches (100k memories, one word in 88 % of them: 60 ms),
and words that common carry almost no bm25 weight anyway (their IDF is near zero)."""
_VECTOR_BLOCK = 20_000
# Runs of letters and digits: what FTS5's unicode61 tokenizer keeps as tokens.
_WORD = re.compile(r"[^\W_]+")


def memory_db_path(workspace: Path) -> Path:
    """Where the memory database of ``workspace`` lives (:attr:`Paths.memory_db`, its one owner)."""
    return Paths(workspace).memory_db


@dataclass(frozen=True)
class Memory:
    """One remembered text.

    ``vector_model`` names the embedding model whose vector the memory has (None: none yet). A search result
    adds ``score`` (its fused rank score, higher is better) and ``matched_by`` (``"text"``, ``"vector"``).
    These, and ``seq`` (the database's own number), are not part of what makes two memories equal.
    """

    id: str
    text: str
    source: str
    created_at: float
    tags: tuple[str, ...] = ()
    seq: int = field(default=0, compare=False, repr=False)
    vector_model: str | None = field(default=None, compare=False)
    score: float | None = field(default=None, compare=False)
    matched_by: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Memory:
        keys = row.keys()
        return cls(
            id=row["id"], text=row["text"], source=row["source"], created_at=row["created_at"],
            tags=tuple(tag for tag in str(row["tags"]).split(",") if tag), seq=int(row["seq"]),
            vector_model=row["vector_model"] if "vector_model" in keys else None,
        )

    @property
    def is_evicted(self) -> bool:
        """What the context hook evicted from a conversation (tag ``evicted``)."""
        return EVICTED_TAG in self.tags

    def to_json(self) -> dict[str, Any]:
        """CONTRACT §11's Memory plus ``vector_model``; search results add ``score`` and ``matched_by``."""
        out: dict[str, Any] = {
            "id": self.id, "text": self.text, "source": self.source, "created_at": self.created_at,
            "tags": list(self.tags), "vector_model": self.vector_model,
        }
        if self.score is not None:
            out["score"] = self.score
            out["matched_by"] = list(self.matched_by)
        return out


@dataclass(frozen=True)
class VectorRow:
    """One stored vector: the memory's ``seq``, the model and dimension that made it, float32 bytes, and the
    ``text`` it was made from (when given, it is stored only while the memory still has that text: a ``seq``
    freed by forgetting the newest memory is given to the next one)."""

    seq: int
    model: str
    dim: int
    vector: bytes
    text: str | None = None


class VectorSearch(Protocol):
    """What the store asks of the vector side (``memory.vectors.VectorMemory``) while it searches and writes."""

    async def similar(self, query: str, k: int) -> list[tuple[int, float]] | None:
        """The ``k`` memories (``seq``, cosine) most like ``query``; None when vectors cannot be used now."""
        ...

    def added(self, memory: Memory) -> None:
        """A memory was stored: it needs a vector (never waits)."""
        ...

    def removed(self, seq: int) -> None:
        """A memory was forgotten: its vector goes too (the database drops it by itself)."""
        ...


def check_mode(mode: object) -> str:
    """``mode`` of a search: ``"hybrid"``, ``"text"`` or ``"vector"``.

    Raises:
        InvalidInput: anything else.
    """
    if not isinstance(mode, str) or mode not in MODES:
        raise InvalidInput("mode", f"must be one of {', '.join(MODES)}")
    return mode


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


def text_parts(text: str, limit: int = MAX_TEXT_CHARS) -> builtins.list[str]:
    """``text`` cut into pieces one memory can hold: at most ``limit`` characters each, at line ends where a
    line allows, blank pieces and NUL characters left out (what the context hook evicts can be longer)."""
    parts: builtins.list[str] = []
    current = ""
    for line in text.replace("\x00", "").splitlines(keepends=True):
        while len(line) > limit:
            parts.extend((current, line[:limit]))
            current, line = "", line[limit:]
        if len(current) + len(line) > limit:
            parts.append(current)
            current = ""
        current += line
    parts.append(current)
    return [part.strip() for part in parts if part.strip()]


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


def _index_spelling(term: str) -> str:
    """``term`` as the ``unicode61 remove_diacritics 2`` tokenizer stores it: lower case, accents removed."""
    decomposed = unicodedata.normalize("NFKD", term.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _tag_pattern(tag: object) -> str:
    """A LIKE pattern that finds ``tag`` in the comma-joined ``tags`` column wrapped in commas."""
    if not isinstance(tag, str) or not tag.strip():
        raise InvalidInput("tag", "must be a tag name")
    clean = clean_tags([tag])[0]
    escaped = clean.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%,{escaped},%"


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
        self._vectors: VectorSearch | None = None

    @property
    def path(self) -> Path:
        return self._db.path

    def attach(self, vectors: VectorSearch | None) -> None:
        """Search with ``vectors`` too and tell it about additions and removals (None: full text only)."""
        self._vectors = vectors

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
        row = await self._db.fetchone("SELECT seq FROM memories WHERE id = ?", (memory.id,))
        memory = replace(memory, seq=int(row[0]) if row else 0)
        if self._vectors is not None:
            self._vectors.added(memory)
        return memory

    async def get(self, memory_id: str) -> Memory | None:
        """The memory with ``memory_id``, or None."""
        row = await self._db.fetchone(f"{_SELECT} WHERE m.id = ?", (memory_id,))
        return Memory.from_row(row) if row else None

    async def search(self, query: object, limit: int = 20, mode: object = "hybrid") -> builtins.list[Memory]:
        """The memories that best match ``query``, best first, each with ``score`` and ``matched_by``.

        ``mode`` ``"text"``: full text only — the words of ``query`` in the text or tags (bm25); all words
        must match, and when that finds nothing and there are several words any word may, so a long question
        still finds the memories that share some of its words. Arbitrary text is safe: each word is searched
        literally. ``"vector"``: the memories whose vectors are closest to the query's. ``"hybrid"`` (the
        default): both lists fused by reciprocal rank (``memory.ranking.fuse``). Without vectors (no
        embedding model, or it is down) every mode falls back to full text.

        Raises:
            InvalidInput: blank or too long query, or one without any word; bad limit or mode.
        """
        terms = query_terms(query)
        limit = _check_limit(limit)
        mode = check_mode(mode)
        pool = max(limit, _CANDIDATES) if mode == "hybrid" else limit
        similar = None
        text: builtins.list[Memory] | None = None
        if mode == "hybrid" and self._vectors is not None:
            # Together: the full-text query runs on the database's thread while numpy runs on another.
            text, similar = await asyncio.gather(self._text_search(terms, pool),
                                                 self._vectors.similar(str(query), pool))
        elif mode != "text" and self._vectors is not None:
            similar = await self._vectors.similar(str(query), pool)
        if text is None:
            text = await self._text_search(terms, pool) if mode != "vector" or similar is None else []
        ranked = fuse([memory.seq for memory in text], similar or [], limit)
        known = {memory.seq: memory for memory in text}
        missing = [item.seq for item in ranked if item.seq not in known]
        if missing:
            known.update(await self.by_seq(missing))
        return [replace(known[item.seq], score=item.score, matched_by=item.matched_by)
                for item in ranked if item.seq in known]

    async def _text_search(self, terms: Sequence[str], limit: int) -> builtins.list[Memory]:
        frequencies = await self._frequencies(terms)
        found = await self._match(fts_query(terms, "AND"), limit, min(frequencies.values(), default=0))
        if not found and len(terms) > 1:
            found = await self._match(fts_query(terms, "OR"), limit, sum(frequencies.values()))
        return found

    async def _frequencies(self, terms: Sequence[str]) -> dict[str, int]:
        """How many memories hold each of ``terms`` (as the index spells them: lower case, no accents)."""
        spelled = sorted({_index_spelling(term) for term in terms})
        rows = await self._db.fetchall(
            f"SELECT term, doc FROM memories_vocab WHERE term IN ({','.join('?' * len(spelled))})", spelled)
        counts = {str(row[0]): int(row[1]) for row in rows}
        return {term: counts.get(term, 0) for term in spelled}

    async def _match(self, expression: str, limit: int, matches: int = 0) -> builtins.list[Memory]:
        """The best ``limit`` matches of ``expression``: by bm25, or — when about ``matches`` memories match,
        more than ``BM25_ROWS`` — the newest of them (see ``BM25_ROWS``)."""
        order = "rowid DESC" if matches > BM25_ROWS else "bm25(memories_fts), rowid DESC"
        rows = await self._db.fetchall(
            f"SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? ORDER BY {order} LIMIT ?",
            (expression, limit),
        )
        seqs = [int(row[0]) for row in rows]
        found = await self.by_seq(seqs)
        return [found[seq] for seq in seqs if seq in found]

    async def by_seq(self, seqs: Sequence[int]) -> dict[int, Memory]:
        """The memories with these ``seq`` numbers (those that still exist)."""
        found: dict[int, Memory] = {}
        for start in range(0, len(seqs), 500):
            part = list(seqs[start:start + 500])
            marks = ",".join("?" * len(part))
            rows = await self._db.fetchall(f"{_SELECT} WHERE m.seq IN ({marks})", part)
            found.update((int(row["seq"]), Memory.from_row(row)) for row in rows)
        return found

    async def list(self, limit: int = 50, before: float | None = None,
                   tag: str | None = None) -> builtins.list[Memory]:
        """The newest memories first; ``before`` (unix seconds) pages back to older ones; ``tag`` keeps only
        the memories that carry it (e.g. ``"evicted"``).

        Raises:
            InvalidInput: bad limit, before or tag.
        """
        limit = _check_limit(limit)
        where: builtins.list[str] = []
        params: builtins.list[Any] = []
        if before is not None:
            where.append("m.created_at < ?")
            params.append(_check_timestamp("before", before))
        if tag is not None:
            where.append("',' || m.tags || ',' LIKE ? ESCAPE '\\'")
            params.append(_tag_pattern(tag))
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = await self._db.fetchall(f"{_SELECT} {clause} {_NEWEST_FIRST} LIMIT ?", (*params, limit))
        return [Memory.from_row(row) for row in rows]

    async def since(self, ts: float, limit: int = 100) -> builtins.list[Memory]:
        """Memories added after ``ts`` (unix seconds), newest first, so a cut keeps the most recent ones.

        Raises:
            InvalidInput: bad ts or limit.
        """
        rows = await self._db.fetchall(
            f"{_SELECT} WHERE m.created_at > ? {_NEWEST_FIRST} LIMIT ?",
            (_check_timestamp("ts", ts), _check_limit(limit)),
        )
        return [Memory.from_row(row) for row in rows]

    async def count(self, tag: str | None = None) -> int:
        """How many memories there are (carrying ``tag``, if given)."""
        if tag is None:
            row = await self._db.fetchone("SELECT count(*) FROM memories")
        else:
            row = await self._db.fetchone(
                "SELECT count(*) FROM memories WHERE ',' || tags || ',' LIKE ? ESCAPE '\\'", (_tag_pattern(tag),))
        return int(row[0]) if row else 0

    # --- vectors --------------------------------------------------------------------------------

    async def count_vectors(self, model: str, dim: int | None = None) -> int:
        """How many memories have a vector of ``model`` (and ``dim``, if given)."""
        if dim is None:
            row = await self._db.fetchone("SELECT count(*) FROM memory_vectors WHERE model = ?", (model,))
        else:
            row = await self._db.fetchone(
                "SELECT count(*) FROM memory_vectors WHERE model = ? AND dim = ?", (model, dim))
        return int(row[0]) if row else 0

    async def vector_dims(self, model: str) -> dict[int, int]:
        """How many stored vectors of ``model`` there are per dimension."""
        rows = await self._db.fetchall(
            "SELECT dim, count(*) FROM memory_vectors WHERE model = ? GROUP BY dim", (model,))
        return {int(row[0]): int(row[1]) for row in rows}

    async def vector_block(self, model: str, dim: int, after: int,
                           limit: int = _VECTOR_BLOCK) -> tuple[builtins.list[int], bytes]:
        """Up to ``limit`` stored vectors of ``model`` and ``dim`` with ``seq`` above ``after``, in ``seq``
        order: their ``seq`` numbers and their float32 bytes one after the other (read in one hop)."""

        def read(conn: sqlite3.Connection) -> tuple[builtins.list[int], bytes]:
            rows = conn.execute(
                "SELECT seq, vector FROM memory_vectors WHERE model = ? AND dim = ? AND seq > ? "
                # A damaged row (its blob not 4 * dim bytes) is left out: the back-fill embeds it again.
                "AND length(vector) = 4 * dim ORDER BY seq LIMIT ?",
                (model, dim, after, limit)).fetchall()
            return [int(row[0]) for row in rows], b"".join(bytes(row[1]) for row in rows)

        return await self._db.in_thread(read)

    async def missing_vectors(self, model: str, dim: int | None, limit: int,
                              skip: Iterable[int] = ()) -> builtins.list[tuple[int, str]]:
        """Up to ``limit`` memories (``seq``, text), oldest first, that have no vector of ``model`` (and
        ``dim``, when known): never embedded, or embedded by another model or at another dimension. The
        ``seq`` numbers in ``skip`` (texts the model refused) are left out."""
        skipped = sorted(set(skip))
        params: builtins.list[Any] = [model]
        stale = "v.model != ? OR length(v.vector) != 4 * v.dim"
        if dim is not None:
            stale += " OR v.dim != ?"
            params.append(dim)
        leave_out = f"AND m.seq NOT IN ({','.join('?' * len(skipped))})" if skipped else ""
        rows = await self._db.fetchall(
            f"""SELECT m.seq, m.text FROM memories AS m LEFT JOIN memory_vectors AS v ON v.seq = m.seq
                WHERE (v.seq IS NULL OR {stale}) {leave_out} ORDER BY m.seq LIMIT ?""",
            (*params, *skipped, limit),
        )
        return [(int(row[0]), str(row[1])) for row in rows]

    async def put_vectors(self, rows: Sequence[VectorRow]) -> builtins.list[int]:
        """Store (or replace) these vectors in one transaction; memories forgotten (or whose ``seq`` now holds
        another text) meanwhile are skipped.
        Returns the ``seq`` numbers stored."""
        for item in rows:
            if len(item.vector) != 4 * item.dim:
                raise ValueError(f"vector of {len(item.vector)} bytes for dimension {item.dim}")

        def write(conn: sqlite3.Connection) -> builtins.list[int]:
            stored: builtins.list[int] = []
            for item in rows:
                cursor = conn.execute(
                    """INSERT OR REPLACE INTO memory_vectors (seq, model, dim, vector)
                       SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM memories WHERE seq = ?
                                                       AND (? IS NULL OR text = ?))""",
                    (item.seq, item.model, item.dim, item.vector, item.seq, item.text, item.text))
                if cursor.rowcount:
                    stored.append(item.seq)
            return stored

        return await self._db.in_thread(write, write=True)

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
        row = await self._db.fetchone("SELECT seq FROM memories WHERE id = ?", (memory_id,))
        if row is None or not await self._db.execute("DELETE FROM memories WHERE id = ?", (memory_id,)):
            raise NotFound(f"No memory has the id {memory_id!r}.")
        if self._vectors is not None:
            self._vectors.removed(int(row[0]))

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
