"""Engine state that survives restarts (total ticks, last tick, failures), as key/value rows."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from openhuman_desktop.store.database import Database

_KEY = "engine"


@dataclass(frozen=True)
class EngineState:
    """Counters of the subconscious engine."""

    total_ticks: int = 0
    last_tick_at: float | None = None
    consecutive_failures: int = 0
    last_error: str | None = None
    idle_signature: str | None = None


class EngineStateRepository:
    """Persists :class:`EngineState` and small named values in ``engine_state``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def load(self) -> EngineState:
        raw = await self.get(_KEY)
        if raw is None:
            return EngineState()
        try:
            data = json.loads(raw)
            known = {key: data[key] for key in EngineState.__dataclass_fields__ if key in data}
            return EngineState(**known)
        except (ValueError, TypeError):
            return EngineState()

    async def save(self, state: EngineState) -> None:
        await self.set(_KEY, json.dumps(asdict(state)))

    async def get(self, key: str) -> str | None:
        row = await self._db.fetchone("SELECT value FROM engine_state WHERE key = ?", (key,))
        return str(row[0]) if row else None

    async def set(self, key: str, value: str) -> None:
        await self._db.execute("INSERT OR REPLACE INTO engine_state (key, value) VALUES (?, ?)", (key, value))

    async def set_idle_signature(self, signature: str | None) -> None:
        """Remember the state whose evaluation decided ``noop`` for everything (the idle gate)."""
        state = await self.load()
        await self.save(EngineState(**{**asdict(state), "idle_signature": signature}))
