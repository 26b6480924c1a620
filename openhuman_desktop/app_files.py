"""The app's own files and folders in the workspace: one list, and whether tools may read each of them.

Everything the app writes lives at the top of the workspace under one of these names; the rest of the
workspace is the user's. Whatever walks the workspace asks here: the situation report and its index (the
user's changed files, quoted to the model), the files skill (what a tool may read or change), ``doctor``
(the private files must stay private). The list says why each entry is there, so a new one is added with
its reason and its answer to "may a tool read it?" — the question whose wrong answer sends a key to a
model that may be a cloud one.

Names are compared as a case-insensitive, normalising file system would see them (:func:`fold_name`): on
such a disk ``RUN/rpc.json`` is ``run/rpc.json``, and a user's own folder that only looks like one of
ours is left alone too (it is rare, and being wrong the other way leaks a token).
"""

from __future__ import annotations

import fnmatch
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

SQLITE_COMPANIONS = ("-wal", "-shm", "-journal")
"""What SQLite writes next to a database file (write-ahead log, its shared memory, the rollback journal)."""


def database_files(name: str) -> tuple[str, ...]:
    """The names a database ``name`` brings into its folder: itself, SQLite's companions, and the temporary
    ``.NAME.new-PID-XXXX`` (with its companions) that ``store.database`` builds a new database under."""
    return (name, *(name + suffix for suffix in SQLITE_COMPANIONS), f".{name}.new-*")


def private_json(name: str) -> tuple[str, ...]:
    """A file written by ``private_file.write_private_json``: itself and its temporary ``.NAME.PID.tmp``."""
    return (name, f".{name}.*.tmp")


@dataclass(frozen=True)
class AppEntry:
    """One name at the top of the workspace that belongs to the app.

    Attributes:
        pattern: the folded name (:func:`fold_name`), or an ``fnmatch`` pattern of folded names.
        shown: how a sentence names it (``"config.toml"``, ``"channels/"``).
        is_folder: a folder (everything below it is the app's too).
        is_readable: tools may read it and the situation report may quote it. Only HEARTBEAT.md: it is the
            user's task list. Nothing the app writes is ever writable by a tool.
        holds: for a folder, the names (``fnmatch`` patterns, exact case) of what the app writes in it.
        why: what it is, and why it is (not) readable.
    """

    pattern: str
    shown: str
    is_folder: bool
    is_readable: bool
    holds: tuple[str, ...]
    why: str

    def matches(self, folded: str) -> bool:
        """Whether the folded top-level name ``folded`` is this entry."""
        return folded == self.pattern or fnmatch.fnmatchcase(folded, self.pattern)


def _file(pattern: str, shown: str, why: str, *, readable: bool = False) -> AppEntry:
    return AppEntry(pattern, shown, False, readable, (), why)


def _folder(name: str, holds: Sequence[str], why: str) -> AppEntry:
    return AppEntry(name, f"{name}/", True, False, tuple(holds), why)


APP_ENTRIES: tuple[AppEntry, ...] = (
    _file("config.toml", "config.toml",
          "the configuration: endpoints, chat ids and the names of the variables that hold keys"),
    _file(".config.toml.*.tmp", "config.toml",
          "config.toml while Settings saves it (config_edit writes it whole, then renames it)"),
    _file("heartbeat.md", "HEARTBEAT.md",
          "the user's standing tasks: readable (it is their task list), never written by a tool (a line "
          "added to it is a task only the user adds)", readable=True),
    _folder("subconscious", (*database_files("subconscious.db"), *database_files("judgement.db"),
                             "model_servers.json", "model_servers.part"),
            "the heartbeat's databases: tasks, activity, cards (the task tools read them); the files as the "
            "heartbeat last saw them and the task rules (judgement.db); the form of JSON each model server "
            "takes (model_servers.json, written whole as model_servers.part, then renamed)"),
    _folder("memory", database_files("memory.db"), "long-term memory with its vectors (the memory tools read it)"),
    _folder("agent", database_files("ledger.db"), "the run ledger: every conversation, checkpoint and tool call"),
    _folder("run", (*private_json("rpc.json"), *private_json("webapp.json"), "instance.lock"),
            "what a running instance publishes: the RPC token, the web app's key, the workspace lock"),
    _folder("logs", ("openhuman.log", "openhuman.log.[0-9]*"), "the log: what the app did, with ids"),
    _folder("channels", private_json("webapp-link.json"), "the channels' own state: the web app's key and port"),
    _folder("skills", ("*",), "the skills' own state: each watching built-in skill's sync points and the items it "
            "saw (skills/NAME/state.json), and whatever a skill keeps later (caches, credentials)"),
)


def fold_name(name: str) -> str:
    """``name`` as a case-insensitive, normalising file system may see it.

    Unicode compatibility forms (full-width letters, the long s, the one-dot leader) become their plain
    letters, case is folded, invisible format characters (zero-width space and joiner, bidi marks) are
    dropped, and so are trailing dots and spaces (Windows ignores them): every look-alike of
    ``HEARTBEAT.md`` folds to ``heartbeat.md``.
    """
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return unicodedata.normalize("NFKC", text.casefold()).rstrip(" .")


_EXACT = {entry.pattern: entry for entry in APP_ENTRIES if not any(ch in entry.pattern for ch in "*?[")}
_PATTERNS = tuple(entry for entry in APP_ENTRIES if entry.pattern not in _EXACT)


def app_entry(name: str) -> AppEntry | None:
    """The app's entry that the top-level name ``name`` is (any spelling a file system may take for it)."""
    folded = fold_name(name)
    found = _EXACT.get(folded)
    if found is not None:
        return found
    if folded[:1] != ".":  # every pattern is a hidden temporary file: the usual name costs one lookup
        return None
    return next((entry for entry in _PATTERNS if entry.matches(folded)), None)


def is_private(name: str) -> bool:
    """Whether the top-level name ``name`` is the app's and not readable: never listed, quoted or read."""
    entry = app_entry(name)
    return entry is not None and not entry.is_readable


def owner_of(relative: str) -> AppEntry | None:
    """The app's entry that the workspace-relative path ``relative`` (``/``-separated) is or lies in."""
    top = relative.strip("/").split("/", 1)[0]
    return app_entry(top) if top else None


def is_listed(relative: str) -> bool:
    """Whether the list accounts for ``relative``, a path the app wrote: its top-level entry, and for a folder
    the path inside it (``holds``)."""
    entry = owner_of(relative)
    if entry is None:
        return False
    top, _, rest = relative.strip("/").partition("/")
    if not rest:
        return True
    return entry.is_folder and any(fnmatch.fnmatchcase(rest, pattern) for pattern in entry.holds)
