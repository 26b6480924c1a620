"""The Agent tab's World timeline page on the real ledger: newest first, paged, filtered by kind, kept up
to date after runs and steering changes; and the ledger's ``timeline_page`` read behind it."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from openhuman_desktop.orchestration.steering import REFLECTION, DirectiveDraft
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.agent.timeline import TimelineView, kind_of, split_signature
from openhuman_desktop.skills.base import Mutation

KINDS = ("file_written", "memory_stored", "task_created", "file_written", "message_sent")


def fill(services: Any, qrun: Any, count: int) -> None:
    """``count`` entries cycling through :data:`KINDS` (sequence 1 … count)."""
    mutations = [Mutation(KINDS[n % len(KINDS)], f"target-{n + 1}", f"change {n + 1}",
                          None if n % 2 else 10, 20 + n) for n in range(count)]
    qrun(services.ledger.append_timeline(mutations, "run-1"))


@pytest.fixture
def timeline_window(intelligence_window: IntelligenceWindow, settle: Any) -> IntelligenceWindow:
    intelligence_window.show_tab("agent")
    intelligence_window.agent_view.show_page("timeline")
    settle(intelligence_window)   # shown for the first time: the tab reads its pages
    return intelligence_window


def page(window: IntelligenceWindow) -> TimelineView:
    return window.agent_view.timeline_view


def test_newest_first_in_pages(timeline_window: IntelligenceWindow, gui_services: Any, qrun: Any, until: Any,
                               settle: Any, qtmodeltester: Any) -> None:
    fill(gui_services, qrun, 250)
    view = page(timeline_window)
    qrun(view.refresh())
    assert [e.sequence for e in view.model.rows()] == list(range(250, 150, -1))
    view.model.fetchMore(view.model.index(0).parent())
    until(lambda: view.model.rowCount() == 200)
    view.model.fetchMore(view.model.index(0).parent())
    until(lambda: view.model.rowCount() == 250)
    assert [e.sequence for e in view.model.rows()] == list(range(250, 0, -1))
    view.model.fetchMore(view.model.index(0).parent())
    until(lambda: not view.model.canFetchMore(view.model.index(0).parent()))
    assert view.model.rowCount() == 250
    settle(timeline_window)
    qtmodeltester.check(view.model)
    first = view.model.rows()[0]
    assert split_signature(first) == ("Message sent", "target-250")
    spoken = view.model.data(view.model.index(0), Qt.ItemDataRole.AccessibleTextRole)
    assert spoken.startswith("Message sent: target-250. change 250. ")


def test_filter_by_kind(timeline_window: IntelligenceWindow, gui_services: Any, qrun: Any, settle: Any) -> None:
    fill(gui_services, qrun, 30)
    view = page(timeline_window)
    qrun(view.refresh())
    view.kind_combo.setCurrentIndex(view.kind_combo.findData("memory_stored"))
    settle(timeline_window)
    rows = view.model.rows()
    assert rows and all(kind_of(e) == "memory_stored" for e in rows)
    assert [e.sequence for e in rows] == [n for n in range(30, 0, -1) if KINDS[(n - 1) % len(KINDS)] == "memory_stored"]
    view.kind_combo.setCurrentIndex(view.kind_combo.findData("file_deleted"))
    settle(timeline_window)
    assert view.model.rowCount() == 0 and view.empty_label.isVisible()
    assert view.empty_label.text() == "No “File deleted” changes yet."
    view.kind_combo.setCurrentIndex(0)
    settle(timeline_window)
    assert view.model.rowCount() == 30 and view.list_view.isVisible()


def test_a_steering_change_arrives_on_top(timeline_window: IntelligenceWindow, gui_services: Any, qrun: Any,
                                          until: Any) -> None:
    fill(gui_services, qrun, 3)
    view = page(timeline_window)
    qrun(view.refresh())
    qrun(gui_services.steering.write(DirectiveDraft("Prefer short answers.", REFLECTION)))
    until(lambda: view.model.rowCount() == 4, message="the steering change is on top")
    top = view.model.rows()[0]
    assert top.sequence == 4 and kind_of(top) == "steering_changed"
    # Filtered to files, a steering change does not show.
    view.kind_combo.setCurrentIndex(view.kind_combo.findData("file_written"))
    until(lambda: view.model.kind == "file_written")
    shown = view.model.rowCount()
    qrun(gui_services.steering.write(DirectiveDraft("Prefer long answers.", REFLECTION)))
    qrun(view.model.load_newer())
    assert view.model.rowCount() == shown


def test_empty_timeline_says_what_will_show(timeline_window: IntelligenceWindow) -> None:
    view = page(timeline_window)
    assert view.model.is_loaded and view.empty_label.isVisible()
    assert view.empty_label.text().startswith("No changes yet.")


def test_ledger_timeline_page(gui_services: Any, qrun: Any) -> None:
    fill(gui_services, qrun, 12)
    ledger = gui_services.ledger
    assert [e.sequence for e in qrun(ledger.timeline_page(None, 3))] == [12, 11, 10]
    assert [e.sequence for e in qrun(ledger.timeline_page(10, 3))] == [9, 8, 7]
    files = qrun(ledger.timeline_page(None, 100, "file_written"))
    assert [e.sequence for e in files] == [11, 9, 6, 4, 1]
    assert [e.sequence for e in qrun(ledger.timeline_page(7, 2, "file_written"))] == [6, 4]
    assert qrun(ledger.timeline_page(None, 10, "file_deleted")) == []
