"""Attack on the 30-day chart's words: one decision is "1 decision"."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence.subconscious.decisions_view import DecisionsView

NOW = datetime(2024, 5, 14, 15, 0).timestamp()


def test_a_single_decision_is_not_1_decisions(qtbot: Any, qrun: Any) -> None:
    async def query(bounds: Any) -> list[tuple[int, int, int, int]]:
        return [(0, 0, 0, 0)] * (len(bounds) - 2) + [(1, 0, 0, 0)]   # act, noop, escalate, failed: today

    view = DecisionsView(query, Jobs(), now=lambda: NOW)
    qtbot.addWidget(view)
    qrun(view.refresh())
    assert view.summary.text() == "1 decision · 1 acted · 0 asked for approval · 0 failed"
    assert view.chart.accessibleDescription().startswith("1 decision in 30 days: 1 acted, ")
