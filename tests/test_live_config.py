"""LiveSettings: a rejected edit is kept as the problem (with a short summary) and is a status change."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhuman_desktop import config, events
from openhuman_desktop.live_config import LiveSettings


@pytest.mark.logs_expected(r"config not reloaded, keeping the previous settings")
async def test_a_syntax_error_is_summarised_and_its_fix_is_a_status_change(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[heartbeat]\ninterval_minutes = 5\n", encoding="utf-8")
    bus = events.EventBus()
    seen: list[object] = []
    bus.subscribe(events.StatusChanged, seen.append)
    live = LiveSettings(path, config.load(path), bus)

    path.write_text("[heartbeat\ninterval_minutes = 5\n", encoding="utf-8")
    assert not await live.reload()
    assert live.problem is not None and str(path) in live.problem
    assert live.problem_summary is not None and live.problem_summary.startswith("it is not valid TOML (")
    assert str(path) not in live.problem_summary
    assert len(seen) == 1

    path.write_text("[heartbeat]\ninterval_minutes = 5\n", encoding="utf-8")
    assert not await live.reload()
    assert live.problem is None and live.problem_summary is None
    assert len(seen) == 2
