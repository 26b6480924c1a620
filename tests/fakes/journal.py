"""A small real in-memory step journal (``ports.StepJournal``) with a gap-free timeline, and kill points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from openhuman_desktop.orchestration.ports import JournalEntry, TimelineEntry
from openhuman_desktop.skills.base import Mutation


class Killed(BaseException):
    """The process "died" at a kill point (a BaseException: nothing in the node may swallow it)."""


class MemoryJournal:
    """Entries by (run, step, key); ``finish`` appends one timeline entry per mutation; a key is never
    recorded twice (that raises, like the ledger's constraint would).

    ``kill_after_begin`` / ``kill_before_finish``: keys at which the next ``begin`` (after recording) or
    ``finish`` (before recording) raises :class:`Killed` once — a kill just before a tool ran, or just after it
    ran and before its result was recorded.
    """

    def __init__(self, clock_now: float = 1_790_000_000.0) -> None:
        self.entries: dict[tuple[str, int, str], JournalEntry] = {}
        self.timeline: list[TimelineEntry] = []
        self.ops: list[tuple[str, str, int, str]] = []
        self.kill_after_begin: set[str] = set()
        self.kill_before_finish: set[str] = set()
        self._now = clock_now

    async def get(self, run_id: str, step: int, key: str) -> JournalEntry | None:
        return self.entries.get((run_id, step, key))

    async def begin(self, run_id: str, step: int, key: str, intent: Mapping[str, Any]) -> None:
        found = self.entries.get((run_id, step, key))
        if found is not None:
            raise AssertionError(f"{key} begun twice")
        self.ops.append(("begin", run_id, step, key))
        self.entries[(run_id, step, key)] = JournalEntry(run_id, step, key, dict(intent), None)
        if key in self.kill_after_begin:
            self.kill_after_begin.discard(key)
            raise Killed(f"killed after begin of {key}")

    async def unfinished(self) -> list[JournalEntry]:
        return [entry for entry in self.entries.values() if entry.result is None]

    async def finish(self, run_id: str, step: int, key: str, result: Mapping[str, Any],
                     mutations: Sequence[Mutation] = ()) -> tuple[TimelineEntry, ...]:
        found = self.entries.get((run_id, step, key))
        if found is not None and found.result is not None:
            raise AssertionError(f"{key} recorded twice")
        if key in self.kill_before_finish:
            self.kill_before_finish.discard(key)
            raise Killed(f"killed before finish of {key}")
        self.ops.append(("finish", run_id, step, key))
        entries = []
        for mutation in mutations:
            entry = TimelineEntry(len(self.timeline) + 1, f"{mutation.kind} {mutation.target}", mutation.summary,
                                  f"{mutation.before_size} → {mutation.after_size} bytes", self._now, run_id)
            self.timeline.append(entry)
            entries.append(entry)
        intent = found.intent if found is not None else {}
        self.entries[(run_id, step, key)] = JournalEntry(run_id, step, key, intent, dict(result), tuple(entries))
        return tuple(entries)

    def keys(self, run_id: str) -> list[str]:
        """The keys recorded with a result for ``run_id``, in the order they were finished."""
        return [key for op, run, _step, key in self.ops if op == "finish" and run == run_id]
