"""A new card is announced once: by ``EscalationChanged`` alone (issue 14: the engine also published a
``Notified("Approval needed")``, so the tray showed every card twice)."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhuman_desktop import events
from openhuman_desktop.store.events import EscalationChanged
from tests.fakes.engine_harness import Reply, open_harness

ANSWER = "Three urgent emails arrived from the bank.\nRECOMMENDED ACTION: Forward the 3 urgent emails to #team-alerts"


async def test_a_tick_that_raises_a_card_announces_it_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        notices: list[events.Notified] = []
        changes: list[EscalationChanged] = []
        h.services.bus.subscribe(events.Notified, notices.append)
        h.services.bus.subscribe(EscalationChanged, changes.append)
        await h.add_task("Check urgent emails", intent="read")
        h.local.decide = lambda task_id, title: {"decision": "escalate", "priority": "critical",
                                                 "reason": "The bank wrote three times."}
        h.reasoning.execution_replies.append(Reply(content=ANSWER))
        await h.tick()
        [card] = await h.escalations()
        assert [(c.escalation.id, c.escalation.status) for c in changes] == [(card.id, "pending")]
        assert notices == [], "the card's EscalationChanged is its announcement; a Notified would be a second one"
