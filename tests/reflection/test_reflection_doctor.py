"""``doctor``'s reflection line: the schedule and its next time, the model, the last reflection's outcome."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from openhuman_desktop import doctor
from openhuman_desktop.config import ModelSettings, ReflectionSettings, Settings
from openhuman_desktop.orchestration.ledger import RunLedger
from openhuman_desktop.orchestration.steering import DIRECTIVE, FAILED, Reflection
from openhuman_desktop.paths import Paths
from tests.fakes.clock import FakeClock

WITH_MODEL = Settings(models={**Settings().models, "subconscious": ModelSettings("ollama", "deep-thought:7b")})


async def record(paths: Paths, status: str, reason: str) -> None:
    ledger = await RunLedger.open(paths.ledger_db, FakeClock())
    try:
        await ledger.record_reflection(Reflection(0, 1.0, 2.0, "schedule", status, reason, 0, 0))
    finally:
        await ledger.aclose()


async def test_without_a_subconscious_tier_the_line_says_how_to_add_one(tmp_path: Path) -> None:
    check = await doctor.check_reflection(Paths(tmp_path), Settings())
    assert check.ok and "cron:0 3 * * *, next " in check.detail and "[models.subconscious]" in check.detail
    disabled = await doctor.check_reflection(Paths(tmp_path), replace(Settings(), reflection=ReflectionSettings(
        enabled=False)))
    assert disabled.ok and "disabled" in disabled.detail


async def test_the_last_outcome_shows_and_a_failure_fails_with_a_fix(tmp_path: Path) -> None:
    paths = Paths(tmp_path)
    paths.ensure()
    assert "no reflection yet" in (await doctor.check_reflection(paths, WITH_MODEL)).detail
    await record(paths, DIRECTIVE, "Directive v1 written.")
    good = await doctor.check_reflection(paths, WITH_MODEL)
    assert good.ok and good.detail.endswith(": directive") and "deep-thought:7b" in good.detail
    await record(paths, FAILED, "The subconscious model failed: it is down.")
    bad = await doctor.check_reflection(paths, WITH_MODEL)
    assert not bad.ok and "failed: The subconscious model failed: it is down" in bad.line()
    assert "reflection_trigger" in bad.line()
