"""The steering directive in force (CONTRACT §10): read by every run's ``agent_execution``, written by
reflection, by a revert and by the user's own edit. Versions live in the run ledger (``steering.py``)."""

from __future__ import annotations

import logging

from openhuman_desktop import events
from openhuman_desktop.clock import Clock
from openhuman_desktop.errors import InvalidInput, NotFound
from openhuman_desktop.orchestration.events import SteeringChanged
from openhuman_desktop.orchestration.ledger import RunLedger
from openhuman_desktop.orchestration.ports import Steering
from openhuman_desktop.orchestration.steering import (
    MAX_RATIONALE_CHARS,
    REVERT,
    USER,
    Directive,
    DirectiveDraft,
    Inputs,
    clean_directive_text,
)

log = logging.getLogger(__name__)

BROADCAST_SECONDS = 30 * 86_400
"""Threads active within this long get the new directive in their state at once (the rest at their next run)."""
MAX_LIST = 1_000


class SteeringStore:
    """Directive versions over the ledger; :meth:`current` is the agent's ``SteeringSource``."""

    def __init__(self, ledger: RunLedger, clock: Clock, bus: events.EventBus) -> None:
        self._ledger = ledger
        self._clock = clock
        self._bus = bus
        self._latest: Directive | None = None
        self._loaded = False

    async def latest(self) -> Directive | None:
        """The newest version, cleared or not (None: there has never been a directive)."""
        if not self._loaded:
            found = await self._ledger.directives(limit=1)
            self._latest, self._loaded = (found[0] if found else None), True
        return self._latest

    async def current(self) -> Steering | None:
        """The directive runs use now, or None (never one, or cleared)."""
        latest = await self.latest()
        return None if latest is None or latest.is_cleared else latest.steering()

    async def current_directive(self) -> Directive | None:
        """``steering_current``: the directive in force, or None."""
        latest = await self.latest()
        return None if latest is None or latest.is_cleared else latest

    async def list(self, limit: int = 50, before: int | None = None) -> list[Directive]:
        """Versions, newest first.

        Raises:
            InvalidInput: a limit outside 1–1000.
        """
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIST:
            raise InvalidInput("limit", f"must be between 1 and {MAX_LIST}")
        return await self._ledger.directives(limit, before)

    async def get(self, version: int) -> Directive:
        """Raises: NotFound: no such version."""
        found = await self._ledger.directive(version)
        if found is None:
            raise NotFound(f"There is no steering directive version {version}.")
        return found

    async def write(self, draft: DirectiveDraft) -> Directive:
        """Write a new version (the text is checked and trimmed) and make it the one in force."""
        text = clean_directive_text(draft.text, allow_empty=draft.source == REVERT)
        draft = DirectiveDraft(text, draft.source, draft.rationale.strip(), draft.model, draft.inputs,
                               draft.reverted_to)
        directive = await self._ledger.add_directive(draft, broadcast_since=self._clock.now() - BROADCAST_SECONDS)
        self._latest, self._loaded = directive, True
        log.info("steering directive v%d written (%s, %d characters)", directive.version, directive.source,
                 len(directive.text))
        self._bus.publish(SteeringChanged(directive))
        return directive

    async def revert(self, version: object) -> Directive:
        """A new version with ``version``'s text (``source`` ``revert``); version 0 clears the directive.

        Raises:
            InvalidInput: not a whole number ≥ 0. NotFound: no such version.
        """
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise InvalidInput("version", "must be a version number (0 clears the directive)")
        if version == 0:
            return await self.write(DirectiveDraft("", REVERT, "Cleared by the user.", reverted_to=0))
        old = await self.get(version)
        return await self.write(DirectiveDraft(old.text, REVERT, f"Reverted to version {version}.",
                                               model=old.model, inputs=old.inputs, reverted_to=version))

    async def edit(self, text: object, rationale: str = "") -> Directive:
        """The user's own directive (``source`` ``user``).

        Raises:
            InvalidInput: empty or too long text, too long a rationale, NUL characters.
        """
        clean = clean_directive_text(text)
        if len(rationale) > MAX_RATIONALE_CHARS:
            raise InvalidInput("rationale", f"has {len(rationale):,} characters; at most {MAX_RATIONALE_CHARS:,} "
                                            "are allowed")
        if "\x00" in rationale:
            raise InvalidInput("rationale", "must not contain NUL characters")
        return await self.write(DirectiveDraft(clean, USER, rationale or "Written by the user.", inputs=Inputs()))
