"""Steering directives (CONTRACT §10) and the two stores reflection reads: the compressed-history log and the
world timeline.

Everything here lives in the run ledger's file (``ledger.py`` runs the SQL below in its transactions):

- ``history_log``: every compressed-history entry that entered any thread, in order (``seq``), written in the
  same commit as the checkpoint that carried it. A thread's working state may evict its old entries; the log
  keeps them, so reflection sees everything once.
- ``directives``: the versioned steering directives. A new version is written in one commit with its
  ``steering_changed`` timeline entry and the ``subconscious_cron`` checkpoints of the threads that are idle.
- ``reflections``: one row per reflection (what it read up to, what came of it): the watermark of "new since
  the last reflection".
"""

from __future__ import annotations

import json
import sqlite3
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from openhuman_desktop.errors import InvalidInput
from openhuman_desktop.orchestration.ports import Steering

REFLECTION = "reflection"
REVERT = "revert"
USER = "user"
SOURCES = (REFLECTION, REVERT, USER)

MAX_DIRECTIVE_CHARS = 2_000
"""A directive is standing guidance of a few sentences, injected into every reasoning prompt."""
MAX_RATIONALE_CHARS = 4_000

# Reflection outcomes (``reflections.status``).
DIRECTIVE = "directive"      # a new directive was written
UNCHANGED = "unchanged"      # the model kept the current directive
SKIPPED = "skipped"          # nothing new since the last reflection: no model call
FAILED = "failed"            # the model was down or answered garbage (the watermark stays)
OUTCOMES = (DIRECTIVE, UNCHANGED, SKIPPED, FAILED)

SCHEMA = (
    """CREATE TABLE history_log (
        seq INTEGER PRIMARY KEY,
        run_id TEXT,
        thread_id TEXT NOT NULL,
        text TEXT NOT NULL,
        trace_tokens INTEGER,
        summary_tokens INTEGER,
        at REAL NOT NULL
    )""",
    # What the threads' checkpoints already hold (oldest first): the log starts complete.
    """INSERT INTO history_log (run_id, thread_id, text, trace_tokens, summary_tokens, at)
       SELECT c.run_id, c.thread_id, coalesce(json_extract(e.value, '$.text'), e.value),
              json_extract(e.value, '$.trace_tokens'), json_extract(e.value, '$.summary_tokens'),
              coalesce(json_extract(e.value, '$.at'), c.created_at)
       FROM checkpoints AS c, json_each(c.delta, '$.compressed_history') AS e
       WHERE json_type(c.delta, '$.compressed_history') = 'array'
       ORDER BY c.id, e.key""",
    """CREATE TABLE directives (
        version INTEGER PRIMARY KEY,
        text TEXT NOT NULL,
        rationale TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL CHECK (source IN ('reflection', 'revert', 'user')),
        model TEXT,
        created_at REAL NOT NULL,
        history_from INTEGER,
        history_to INTEGER,
        history_entries INTEGER NOT NULL DEFAULT 0,
        timeline_from INTEGER,
        timeline_to INTEGER,
        reverted_to INTEGER
    )""",
    """CREATE TABLE reflections (
        id INTEGER PRIMARY KEY,
        started_at REAL NOT NULL,
        finished_at REAL NOT NULL,
        trigger TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('directive', 'unchanged', 'skipped', 'failed')),
        reason TEXT NOT NULL DEFAULT '',
        history_to INTEGER NOT NULL,
        timeline_to INTEGER NOT NULL,
        directive_version INTEGER,
        model TEXT,
        prompt_tokens INTEGER NOT NULL DEFAULT 0,
        evicted INTEGER NOT NULL DEFAULT 0
    )""",
)


@dataclass(frozen=True)
class Inputs:
    """What a directive was drawn from: compressed-history entries ``history_from``–``history_to`` (log
    sequence numbers) and timeline entries ``timeline_from``–``timeline_to`` (None: none of that kind)."""

    history_entries: int = 0
    timeline_from: int | None = None
    timeline_to: int | None = None
    history_from: int | None = None
    history_to: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"history_entries": self.history_entries, "timeline_from": self.timeline_from,
                "timeline_to": self.timeline_to, "history_from": self.history_from, "history_to": self.history_to}


@dataclass(frozen=True)
class Directive:
    """One version of the steering directive; :meth:`to_json` is CONTRACT §10's Directive (plus extras).

    An empty ``text`` is a cleared directive (``steering_revert`` to version 0): runs get no steering.
    ``reverted_to`` is the version a ``revert`` copied (0: cleared).
    """

    version: int
    text: str
    source: str
    created_at: float
    rationale: str = ""
    model: str | None = None
    inputs: Inputs = field(default_factory=Inputs)
    reverted_to: int | None = None

    @property
    def is_cleared(self) -> bool:
        return not self.text.strip()

    def steering(self) -> Steering:
        return Steering(self.version, self.text)

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version, "text": self.text, "source": self.source, "created_at": self.created_at,
                "inputs": self.inputs.to_json(), "rationale": self.rationale, "model": self.model,
                "reverted_to": self.reverted_to}


@dataclass(frozen=True)
class DirectiveDraft:
    """A directive about to be written (the ledger gives it its version and time)."""

    text: str
    source: str
    rationale: str = ""
    model: str | None = None
    inputs: Inputs = field(default_factory=Inputs)
    reverted_to: int | None = None


@dataclass(frozen=True)
class HistoryRecord:
    """One compressed-history entry as the log keeps it (CONTRACT §8's entry plus its thread and place)."""

    seq: int
    run_id: str | None
    thread_id: str
    text: str
    trace_tokens: int | None
    summary_tokens: int | None
    at: float

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "run_id": self.run_id, "thread_id": self.thread_id, "text": self.text,
                "trace_tokens": self.trace_tokens, "summary_tokens": self.summary_tokens, "at": self.at}


@dataclass(frozen=True)
class Reflection:
    """One reflection as recorded: what it read up to and what came of it (:data:`OUTCOMES`)."""

    id: int
    started_at: float
    finished_at: float
    trigger: str
    status: str
    reason: str
    history_to: int
    timeline_to: int
    directive_version: int | None = None
    model: str | None = None
    prompt_tokens: int = 0
    evicted: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "started_at": self.started_at, "finished_at": self.finished_at,
                "trigger": self.trigger, "status": self.status, "reason": self.reason,
                "history_to": self.history_to, "timeline_to": self.timeline_to,
                "directive_version": self.directive_version, "model": self.model,
                "prompt_tokens": self.prompt_tokens, "evicted": self.evicted}


def clean_directive_text(text: object, *, allow_empty: bool = False) -> str:
    """A directive's text, trimmed.

    Raises:
        InvalidInput: not a string, empty (unless ``allow_empty``), too long, or with NUL or other control
            characters (line breaks and tabs are fine).
    """
    if not isinstance(text, str):
        raise InvalidInput("text", "must be a string")
    clean = text.strip()
    if not clean and not allow_empty:
        raise InvalidInput("text", "must not be empty (revert to version 0 to clear the directive)")
    if len(clean) > MAX_DIRECTIVE_CHARS:
        raise InvalidInput("text", f"has {len(clean):,} characters; a directive may have at most "
                                   f"{MAX_DIRECTIVE_CHARS:,}")
    if "\x00" in clean:
        raise InvalidInput("text", "must not contain NUL characters")
    if any(ch not in "\n\r\t" and unicodedata.category(ch) == "Cc" for ch in clean):
        raise InvalidInput("text", "must not contain control characters (line breaks and tabs are fine)")
    return clean


# --- SQL, run inside the ledger's transactions -----------------------------------------------------------

_DIRECTIVE_COLUMNS = ("version, text, rationale, source, model, created_at, history_from, history_to, "
                      "history_entries, timeline_from, timeline_to, reverted_to")
_HISTORY_COLUMNS = "seq, run_id, thread_id, text, trace_tokens, summary_tokens, at"
_REFLECTION_COLUMNS = ("id, started_at, finished_at, trigger, status, reason, history_to, timeline_to, "
                       "directive_version, model, prompt_tokens, evicted")


def log_history(conn: sqlite3.Connection, thread_id: str, run_id: str | None, value: Any, at: float) -> None:
    """Append the compressed-history entries of one update (a list, or ``{"append": [...]}``) to the log."""
    added = value if isinstance(value, list) else (value.get("append") if isinstance(value, Mapping) else None)
    for entry in added or ():
        if isinstance(entry, Mapping):
            text, trace, summary = str(entry.get("text", "")), entry.get("trace_tokens"), entry.get("summary_tokens")
            when = entry.get("at") if isinstance(entry.get("at"), int | float) else at
            entry_run = entry.get("run_id") or run_id
        else:
            text, trace, summary, when, entry_run = json.dumps(entry, ensure_ascii=False), None, None, at, run_id
        conn.execute("INSERT INTO history_log (run_id, thread_id, text, trace_tokens, summary_tokens, at) "
                     "VALUES (?, ?, ?, ?, ?, ?)",
                     (entry_run, thread_id, text, trace if isinstance(trace, int) else None,
                      summary if isinstance(summary, int) else None, when))


def read_history(conn: sqlite3.Connection, after: int, limit: int) -> list[HistoryRecord]:
    rows = conn.execute(f"SELECT {_HISTORY_COLUMNS} FROM history_log WHERE seq > ? ORDER BY seq LIMIT ?",
                        (after, limit)).fetchall()
    return [HistoryRecord(int(r["seq"]), r["run_id"], str(r["thread_id"]), str(r["text"]), r["trace_tokens"],
                          r["summary_tokens"], float(r["at"])) for r in rows]


def tails(conn: sqlite3.Connection) -> tuple[int, int]:
    """The newest history-log and timeline sequence numbers (0 when empty)."""
    row = conn.execute("SELECT (SELECT coalesce(max(seq), 0) FROM history_log), "
                       "(SELECT coalesce(max(sequence), 0) FROM timeline)").fetchone()
    return int(row[0]), int(row[1])


def _directive(row: sqlite3.Row) -> Directive:
    inputs = Inputs(int(row["history_entries"]), row["timeline_from"], row["timeline_to"], row["history_from"],
                    row["history_to"])
    return Directive(int(row["version"]), str(row["text"]), str(row["source"]), float(row["created_at"]),
                     str(row["rationale"]), row["model"], inputs, row["reverted_to"])


def read_directives(conn: sqlite3.Connection, limit: int, before: int | None = None) -> list[Directive]:
    rows = conn.execute(f"SELECT {_DIRECTIVE_COLUMNS} FROM directives WHERE version < ? ORDER BY version DESC "
                        "LIMIT ?", ((1 << 62) if before is None else before, limit)).fetchall()
    return [_directive(row) for row in rows]


def read_directive(conn: sqlite3.Connection, version: int) -> Directive | None:
    row = conn.execute(f"SELECT {_DIRECTIVE_COLUMNS} FROM directives WHERE version = ?", (version,)).fetchone()
    return _directive(row) if row else None


def insert_directive(conn: sqlite3.Connection, draft: DirectiveDraft, at: float) -> Directive:
    inputs = draft.inputs
    cursor = conn.execute(
        "INSERT INTO directives (text, rationale, source, model, created_at, history_from, history_to, "
        "history_entries, timeline_from, timeline_to, reverted_to) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (draft.text, draft.rationale, draft.source, draft.model, at, inputs.history_from, inputs.history_to,
         inputs.history_entries, inputs.timeline_from, inputs.timeline_to, draft.reverted_to))
    version = cursor.lastrowid
    assert version is not None
    return Directive(version, draft.text, draft.source, at, draft.rationale, draft.model, inputs, draft.reverted_to)


def insert_reflection(conn: sqlite3.Connection, reflection: Reflection) -> Reflection:
    r = reflection
    cursor = conn.execute(
        f"INSERT INTO reflections ({_REFLECTION_COLUMNS}) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (r.started_at, r.finished_at, r.trigger, r.status, r.reason, r.history_to, r.timeline_to,
         r.directive_version, r.model, r.prompt_tokens, r.evicted))
    assert cursor.lastrowid is not None
    return Reflection(cursor.lastrowid, r.started_at, r.finished_at, r.trigger, r.status, r.reason, r.history_to,
                      r.timeline_to, r.directive_version, r.model, r.prompt_tokens, r.evicted)


def _reflection(row: sqlite3.Row) -> Reflection:
    return Reflection(int(row["id"]), float(row["started_at"]), float(row["finished_at"]), str(row["trigger"]),
                      str(row["status"]), str(row["reason"]), int(row["history_to"]), int(row["timeline_to"]),
                      row["directive_version"], row["model"], int(row["prompt_tokens"]), int(row["evicted"]))


def read_reflections(conn: sqlite3.Connection, limit: int) -> list[Reflection]:
    rows = conn.execute(f"SELECT {_REFLECTION_COLUMNS} FROM reflections ORDER BY id DESC LIMIT ?",
                        (limit,)).fetchall()
    return [_reflection(row) for row in rows]


def watermark(conn: sqlite3.Connection) -> tuple[int, int]:
    """What the last reflection that read its inputs (not a failed one) read up to: (history, timeline)."""
    row = conn.execute("SELECT history_to, timeline_to FROM reflections WHERE status != 'failed' "
                       "ORDER BY id DESC LIMIT 1").fetchone()
    return (int(row[0]), int(row[1])) if row else (0, 0)


def news_since(conn: sqlite3.Connection, history_after: int, timeline_after: int) -> tuple[int, int]:
    """How many history entries and timeline entries came after the watermark. Steering changes do not
    count as news: reflection's own directive must not make the next reflection run again."""
    row = conn.execute(
        "SELECT (SELECT count(*) FROM history_log WHERE seq > ?), "
        "(SELECT count(*) FROM timeline WHERE sequence > ? AND event_signature NOT LIKE 'Steering changed%')",
        (history_after, timeline_after)).fetchone()
    return int(row[0]), int(row[1])


def steering_value(directive: Directive | None) -> dict[str, Any] | None:
    """The state's ``subconscious_steering`` for ``directive``: ``{version, text}``, or None when cleared."""
    if directive is None or directive.is_cleared:
        return None
    return {"version": directive.version, "text": directive.text}


def idle_threads(conn: sqlite3.Connection, since: float) -> Sequence[str]:
    """Threads with a checkpoint after ``since`` that are at rest: no unfinished run, and the last checkpoint
    has no next node (a run in flight, or a failed one that may be retried from its checkpoint, picks up the
    new directive at its next ``agent_execution``; writing into its thread would move its head)."""
    rows = conn.execute(
        "SELECT c.thread_id FROM checkpoints AS c JOIN (SELECT max(id) AS id FROM checkpoints WHERE created_at > ? "
        "GROUP BY thread_id) AS last ON c.id = last.id WHERE c.next IS NULL "
        "EXCEPT SELECT thread_id FROM runs WHERE status IN ('queued', 'running') ORDER BY 1", (since,)).fetchall()
    return [row[0] for row in rows]
