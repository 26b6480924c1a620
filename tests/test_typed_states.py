"""Run statuses, purposes, permissions, channel states, card statuses and decisions are ``Literal`` types, so
``mypy --strict`` catches a misspelt one ("aproved") where the code compares or builds it."""

from __future__ import annotations

from pathlib import Path

from mypy import api as mypy_api

ROOT = Path(__file__).resolve().parent.parent

TYPOS = '''
from openhuman_desktop.channels.base import ChannelStatus
from openhuman_desktop.orchestration.ports import Run, RunRequest
from openhuman_desktop.store.records import Escalation
from openhuman_desktop.subconscious.decisions import Decision


def check(run: Run, card: Escalation, status: ChannelStatus, decision: Decision) -> list[bool]:
    return [run.status == "complete", card.status == "aproved", status.state == "conected",
            decision.decision == "escalte", run.purpose == "aproved", run.permission == "wirte"]


RunRequest(thread_id="desktop", channel_source="desktop", text="hi", purpose="caht")
RunRequest(thread_id="desktop", channel_source="desktop", text="hi", permission="writes")
Decision("task", "acts", "why")
ChannelStatus(enabled=True, state="conected", state_reason="")
'''


def test_mypy_catches_misspelt_states(tmp_path: Path) -> None:
    probe = tmp_path / "typos.py"
    probe.write_text(TYPOS, encoding="utf-8")
    out, err, status = mypy_api.run(["--strict", "--no-error-summary", "--cache-dir", str(ROOT / ".mypy_cache"),
                                     "--config-file", str(ROOT / "pyproject.toml"), str(probe)])
    assert status == 1, err
    errors = [line for line in out.splitlines() if ": error:" in line]
    for typo in ("complete", "aproved", "conected", "escalte", "wirte", "caht", "writes", "acts"):
        assert any(f"'{typo}'" in line for line in errors), f"mypy let {typo!r} through:\n{out}"
    assert len(errors) == 10, out
