"""What a built-in skill watches (CONTRACT §12.3): the items it saw appear, when, and the state it syncs from.

A watch keeps, per skill, a small JSON file under ``skills/NAME/`` in the workspace: where each source was read
up to (a folder's UIDVALIDITY and last UID, a feed's ETag and the ids it holds) and the items first seen after
the baseline, with the moment the app first saw each. The report lists the items seen after the due tasks'
oldest decision; the signature is the keys of every item seen, so it moves only when a new item appears.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openhuman_desktop.private_file import write_private_json

log = logging.getLogger(__name__)

MAX_ITEMS = 500
"""Items kept per skill (the newest): more than a report ever shows, few enough to keep the file small."""
STATE_FILE = "state.json"


@dataclass(frozen=True)
class WatchItem:
    """One thing a skill saw appear.

    Attributes:
        key: what identifies it for good (a folder's UIDVALIDITY and UID, a feed item's id, an event's UID and
            start): the signature is made of these.
        seen_at: when the app first saw it (unix seconds); 0 for an item of the baseline (known, never listed).
        order: how the section sorts it (a message's or item's date, an event's start), unix seconds.
        line: its report line, already on one line and cut (``email: From, Subject, Date, first words``).
    """

    key: str
    seen_at: float
    order: float
    line: str

    def to_json(self) -> list[Any]:
        return [self.key, self.seen_at, self.order, self.line]

    @classmethod
    def from_json(cls, data: Any) -> WatchItem | None:
        if not isinstance(data, list) or len(data) != 4:
            return None
        key, seen_at, order, line = data
        if not (isinstance(key, str) and isinstance(line, str) and isinstance(seen_at, int | float)
                and isinstance(order, int | float)):
            return None
        return cls(key, float(seen_at), float(order), line)


class WatchLog:
    """The items a skill saw and its sync points, kept in ``folder/state.json`` (written only when they change).

    Args:
        folder: ``skills/NAME/`` in the workspace (made when first written), or None to keep it in memory only.
        newest_first: the section's order: newest first (mail, feeds) or soonest first (events).
    """

    def __init__(self, folder: Path | None, *, newest_first: bool = True) -> None:
        self._file = folder / STATE_FILE if folder is not None else None
        self.newest_first = newest_first
        self.items: list[WatchItem] = []
        self.sync: dict[str, Any] = {}
        self._keys: set[str] = set()
        self._dirty = False
        self._load()

    def _load(self) -> None:
        if self._file is None:
            return
        try:
            data = json.loads(self._file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:  # a damaged file: start again from a new baseline, never crash
            log.warning("%s could not be read (%s); the watch starts from a new baseline", self._file, exc)
            return
        if not isinstance(data, dict):
            return
        sync = data.get("sync")
        self.sync = dict(sync) if isinstance(sync, dict) else {}
        for raw in data.get("items") or ():
            item = WatchItem.from_json(raw)
            if item is not None and item.key not in self._keys:
                self.items.append(item)
                self._keys.add(item.key)

    def source(self, name: str) -> dict[str, Any]:
        """The sync point of one source (a folder, a feed URL), created empty; change it in place and
        :meth:`touch`."""
        point = self.sync.get(name)
        if not isinstance(point, dict):
            point = self.sync[name] = {}
        return point

    def has_source(self, name: str) -> bool:
        return isinstance(self.sync.get(name), dict)

    def forget_sources(self, keep: Iterable[str]) -> None:
        """Drop the sync points of sources no longer configured (a removed folder starts over if it comes back)."""
        wanted = set(keep)
        for name in [name for name in self.sync if name not in wanted]:
            del self.sync[name]
            self._dirty = True

    def touch(self) -> None:
        self._dirty = True

    def knows(self, key: str) -> bool:
        return key in self._keys

    def add(self, items: Iterable[WatchItem]) -> int:
        """Record new items (a key seen before is never added twice); returns how many were new."""
        added = 0
        for item in items:
            if item.key in self._keys:
                continue
            self.items.append(item)
            self._keys.add(item.key)
            added += 1
        if added:
            self._dirty = True
            if len(self.items) > MAX_ITEMS:
                self.items.sort(key=lambda item: item.seen_at)
                for old in self.items[:-MAX_ITEMS]:
                    self._keys.discard(old.key)
                del self.items[:-MAX_ITEMS]
        return added

    def since(self, moment: float | None) -> list[WatchItem]:
        """The items first seen after ``moment`` (None: all but the baseline), in the section's order."""
        found = [item for item in self.items if item.seen_at > 0 and (moment is None or item.seen_at > moment)]
        found.sort(key=lambda item: (item.order, item.key), reverse=self.newest_first)
        return found

    def signature(self) -> str:
        """A digest of every item's key (and the sources' names): the same until a new item appears."""
        digest = hashlib.sha256()
        for key in sorted(self._keys):
            digest.update(key.encode("utf-8", "surrogatepass") + b"\x00")
        return digest.hexdigest()[:32]

    def save(self) -> None:
        """Write the file if anything changed (a failure is logged: the watch goes on from memory)."""
        if not self._dirty or self._file is None:
            return
        try:
            write_private_json(self._file, {"sync": self.sync, "items": [item.to_json() for item in self.items]})
            self._dirty = False
        except OSError as exc:
            log.warning("the watch state %s could not be written: %s", self._file, exc)


def clip(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    joined = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    return joined if len(joined) <= limit else joined[:limit - 1].rstrip() + "…"


def field_dict(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    return dict(value) if isinstance(value, dict) else {}
