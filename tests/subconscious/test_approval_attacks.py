"""Attacks on the approval gate (issue 9 items 1-3, 5, 6) through the in-process harness: real SQLite, real
HTTP fakes. Found by attacking issue 9 from outside; each holds now."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from openhuman_desktop.errors import Conflict
from tests.fakes.engine_harness import Harness, RecordingSleep, Reply, open_harness
from tests.subconscious.test_approval_durability import append_then_answer, escalate_once


async def pending_again(h: Harness, escalation_id: str) -> None:
    async def back() -> bool:
        card = await h.services.store.escalations.get(escalation_id)
        return card is not None and card.status == "pending"

    await h.wait_until(back)


async def settle(h: Harness) -> None:
    for _ in range(50):
        await asyncio.sleep(0.01)


async def test_two_concurrent_approvals_run_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with open_harness(tmp_path, monkeypatch) as h:
        _task, escalation = await escalate_once(h)
        h.reasoning.execute = append_then_answer
        results = await asyncio.gather(*(h.approvals.escalations_approve(escalation.id) for _ in range(5)),
                                       return_exceptions=True)
        assert sum(1 for r in results if r == escalation.id) == 1
        assert all(isinstance(r, Conflict) for r in results if r != escalation.id)
        await settle(h)
        assert (h.workspace / "alerts.md").read_text(encoding="utf-8") == "bank\n"


@pytest.mark.logs_expected(r"model reasoning failed a call")
async def test_go_ahead_with_a_garbled_reasoning_reply_keeps_the_approval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A proxy that answers 200 with a broken body is a reasoning model that does not answer: the approval
    must not be consumed as a failed run."""
    async with open_harness(tmp_path, monkeypatch) as h:
        _task, escalation = await escalate_once(h)
        h.reasoning.execution_replies.extend([Reply(malformed=True)] * 5)
        await h.approvals.escalations_approve(escalation.id)
        await settle(h)
        await h.wait_until(lambda: _not_running(h, escalation.id))
        card = await h.services.store.escalations.get(escalation.id)
        assert card is not None
        assert card.status == "pending", f"the approval was consumed: {card.status} / {card.note!r}"
        status = await h.service.status()
        assert status["state"] == "degraded", "the reasoning tier failed, yet the status is idle"


async def _not_running(h: Harness, escalation_id: str) -> bool:
    card = await h.services.store.escalations.get(escalation_id)
    if card is None or card.log_id is None:
        return False
    row = await h.services.store.log.get(card.log_id)
    return row is not None and row.decision != "in_progress"


@pytest.mark.parametrize("reply", [
    Reply(status=500, error="boom"),
    Reply(status=429, error="slow down", headers={"Retry-After": "3600"}),
], ids=["500", "429-long"])
@pytest.mark.logs_expected(r"model reasoning failed a call")
async def test_go_ahead_while_the_reasoning_model_fails_keeps_the_approval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reply: Reply
) -> None:
    async with open_harness(tmp_path, monkeypatch, backoff_sleep=RecordingSleep()) as h:
        _task, escalation = await escalate_once(h)
        h.reasoning.execution_replies.extend([reply] * 10)
        await h.approvals.escalations_approve(escalation.id)
        await pending_again(h, escalation.id)
        card = await h.services.store.escalations.get(escalation.id)
        assert card is not None and "could not run" in card.note
        status = await h.service.status()
        assert status["state"] == "degraded" and "reasoning" in status["state_reason"].lower()
