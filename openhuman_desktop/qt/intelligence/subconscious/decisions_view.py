"""The Subconscious tab's "last 30 days" section: the header (title, totals) above the decisions chart, and the
query that loads it after ticks."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QSizePolicy, QVBoxLayout, QWidget

from openhuman_desktop.qt.asyncutil import Jobs, Refresher
from openhuman_desktop.qt.intelligence.muted_label import MutedLabel
from openhuman_desktop.qt.intelligence.section_header import SectionHeader
from openhuman_desktop.qt.intelligence.subconscious.decisions_chart import (
    DAYS,
    REFRESH_DELAY_MS,
    DecisionsChart,
    Query,
    days_from_counts,
    decisions,
)
from openhuman_desktop.qt.intelligence.theme import em
from openhuman_desktop.store.activity import local_day_starts


class DecisionsView(QWidget):
    """The header ("Last 30 days", the totals) and the chart; loads its data from one query, after ticks."""

    def __init__(self, query: Query | None, jobs: Jobs, now: Callable[[], float] = time.time,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._query = query
        self._now = now
        self.jobs = jobs
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(max(2, em(self) // 4))
        header = QHBoxLayout()
        header.setSpacing(em(self) // 2)
        self.title = SectionHeader("Last 30 days", self)
        self.summary = MutedLabel("", self, factor=0.9)
        self.summary.setAccessibleName("Decisions in the last 30 days")
        # Its text changes with the data: it must not change the window's minimum size (it is cut instead).
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        header.addWidget(self.title)
        header.addWidget(self.summary, 1, Qt.AlignmentFlag.AlignBaseline)
        layout.addLayout(header)
        self.chart = DecisionsChart(self)
        layout.addWidget(self.chart)
        self._bounds: list[float] = []
        self._refresher = Refresher(jobs, self._refresh_after_tick, "decisions-chart")
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setInterval(REFRESH_DELAY_MS)
        self._later.timeout.connect(self._on_later_timeout)
        if query is None:   # (never setVisible(True) here: without a parent yet, that would open a window)
            self.hide()

    def request_refresh(self) -> None:
        """Reload soon (after a tick): many requests within a couple of seconds make one query."""
        if self._query is not None and not self._later.isActive():
            self._later.start()

    def follow_the_day(self) -> None:
        """After midnight the chart moves one day on ("Today" is the new day), also when no tick ran."""
        if self._bounds and local_day_starts(self._now(), DAYS) != self._bounds:
            self.request_refresh()

    def _on_later_timeout(self) -> None:
        self._refresher.request()

    async def _refresh_after_tick(self) -> None:
        await self.refresh(full=False)

    async def refresh(self, *, full: bool = True) -> None:
        """Load the last 30 local days now; ``full=False`` (after a tick, the same day) reloads only today."""
        if self._query is None:
            return
        bounds = local_day_starts(self._now(), DAYS)
        if not full and bounds == self._bounds and len(self.chart.days) == DAYS:
            # A tick only adds rows to today: the other 29 days come from the last full load.
            [today] = await self._query(bounds[-2:])
            days = self.chart.days[:-1] + days_from_counts(bounds[-2:], [today])
        else:
            days = days_from_counts(bounds, await self._query(bounds))
        self._bounds = bounds
        self.chart.set_days(days, today=datetime.fromtimestamp(self._now()).date())
        total = sum(day.total for day in days)
        self.summary.setText("" if not total else
                             f"{decisions(total)} · {sum(d.act for d in days):,} acted · "
                             f"{sum(d.escalate for d in days):,} asked for approval · "
                             f"{sum(d.failed for d in days):,} failed")
