"""Activity Log: the lazily paged model, in-place updates, pulsing in-progress rows, the fallback poll."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QMainWindow

from openhuman_desktop.errors import StoreUnavailable
from openhuman_desktop.qt.asyncutil import Jobs
from openhuman_desktop.qt.intelligence import IntelligenceWindow
from openhuman_desktop.qt.intelligence.activity import ActivityModel, ActivityView
from openhuman_desktop.qt.intelligence.time_text import clock_time
from openhuman_desktop.store import LogEntry


class LogSource:
    """``log_list`` over an in-memory list, newest first, counting calls."""

    def __init__(self, entries: list[LogEntry]) -> None:
        self.entries = entries
        self.calls: list[tuple[int, float | None, str | None]] = []
        self.error: Exception | None = None

    async def __call__(self, limit: int, before: float | None, task_id: str | None) -> list[LogEntry]:
        self.calls.append((limit, before, task_id))
        await asyncio.sleep(0)
        if self.error is not None:
            raise self.error
        rows = [e for e in self.entries if (before is None or e.created_at < before)
                and (task_id is None or e.task_id == task_id)]
        rows.sort(key=lambda e: (e.created_at, e.id), reverse=True)
        return rows[:limit]


@pytest.fixture
def jobs(qrun: Any) -> Any:
    owner = Jobs()
    yield owner
    qrun(owner.aclose())


def many(fakes: Any, count: int, **kwargs: Any) -> list[LogEntry]:
    return [fakes.make_entry(n, **kwargs) for n in range(count)]


def model_over(source: LogSource, jobs: Jobs, fakes: Any, **kwargs: Any) -> ActivityModel:
    return ActivityModel(source, jobs, now=lambda: fakes.NOW, **kwargs)


# --- the model ----------------------------------------------------------------------------------------


def test_the_model_passes_the_model_tester(qtmodeltester: Any, qrun: Any, jobs: Jobs, fakes: Any) -> None:
    entries = many(fakes, 30) + [fakes.make_entry(100, decision="in_progress", result="Evaluating...")]
    model = model_over(LogSource(entries), jobs, fakes, page_size=10)
    qtmodeltester.check(model)
    qrun(model.load_first_page())
    qtmodeltester.check(model)
    qrun(jobs.wait_idle())   # the tester asked for more: that page arrives here
    model.merge([fakes.make_entry(-5, decision="act", result="new"), replace(entries[3], decision="failed")])
    model.toggle_expanded(0)
    qtmodeltester.check(model)
    assert model.rowCount(model.index(0, 0)) == 0
    assert model.data(QModelIndex()) is None


def test_first_paint_reads_only_one_page(qrun: Any, jobs: Jobs, fakes: Any) -> None:
    source = LogSource(many(fakes, 1000))
    model = model_over(source, jobs, fakes, page_size=100)
    qrun(model.load_first_page())
    assert model.rowCount() == 100
    assert source.calls == [(100, None, None)]
    assert model.canFetchMore(QModelIndex())
    assert [model.entry(r).id for r in range(3)] == ["log-0000000", "log-0000001", "log-0000002"]


def test_fetch_more_reads_the_next_older_page(qrun: Any, jobs: Jobs, fakes: Any) -> None:
    source = LogSource(many(fakes, 250))
    model = model_over(source, jobs, fakes, page_size=100)
    qrun(model.load_first_page())
    model.fetchMore(QModelIndex())
    assert not model.canFetchMore(QModelIndex()), "one fetch at a time"
    qrun(jobs.wait_idle())
    assert model.rowCount() == 200
    assert source.calls[1][1] is not None and source.calls[1][1] > fakes.NOW - 99
    qrun(model.load_more())
    assert model.rowCount() == 250
    assert not model.canFetchMore(QModelIndex())
    ids = [model.entry(r).id for r in range(model.rowCount())]
    assert ids == sorted(ids) and len(set(ids)) == 250


def test_paging_does_not_skip_rows_that_share_a_timestamp(qrun: Any, jobs: Jobs, fakes: Any) -> None:
    same = [fakes.make_entry(n, created_at=fakes.NOW - 50, entry_id=f"same-{n:02d}") for n in range(30)]
    source = LogSource(many(fakes, 20) + same + [fakes.make_entry(n, created_at=fakes.NOW - 100 - n,
                                                                  entry_id=f"old-{n:02d}") for n in range(20)])
    model = model_over(source, jobs, fakes, page_size=25)
    qrun(model.load_first_page())
    while model.canFetchMore(QModelIndex()):
        qrun(model.load_more())
    assert model.rowCount() == 70
    assert len({e.id for e in model.entries()}) == 70


def test_rows_update_in_place_and_new_rows_arrive_on_top(qrun: Any, jobs: Jobs, fakes: Any, qtbot: Any) -> None:
    entries = many(fakes, 5)
    model = model_over(LogSource(entries), jobs, fakes)
    qrun(model.load_first_page())
    changed: list[int] = []
    model.dataChanged.connect(lambda top, bottom, roles=(): changed.append(top.row()))
    with qtbot.assert_not_emitted(model.rowsInserted):
        model.merge([replace(entries[2], decision="act", result="Done")])
    assert changed == [2]
    assert model.rowCount() == 5
    assert model.entry(2).result == "Done"
    newer = [fakes.make_entry(-2), fakes.make_entry(-1)]
    with qtbot.wait_signal(model.rowsInserted) as blocker:
        model.merge(newer)
    assert blocker.args[1:] == [0, 1]
    assert [model.entry(r).id for r in range(3)] == [newer[0].id, newer[1].id, entries[0].id]


def test_a_batch_of_neighbouring_changes_is_one_signal_per_run(qrun: Any, jobs: Jobs, fakes: Any) -> None:
    entries = many(fakes, 8)
    model = model_over(LogSource(entries), jobs, fakes)
    qrun(model.load_first_page())
    runs: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda top, bottom, roles=(): runs.append((top.row(), bottom.row())))
    shown = model.entries()
    model.merge([replace(shown[row], decision="act", result="Changed") for row in (6, 0, 2, 1, 3)])
    assert runs == [(0, 3), (6, 6)]
    assert [model.entry(row).result for row in range(8)] == ["Changed"] * 4 + [shown[4].result, shown[5].result,
                                                                                "Changed", shown[7].result]


def test_a_row_between_others_is_inserted_in_order(qrun: Any, jobs: Jobs, fakes: Any) -> None:
    model = model_over(LogSource([fakes.make_entry(0), fakes.make_entry(10)]), jobs, fakes)
    qrun(model.load_first_page())
    model.merge([fakes.make_entry(5)])
    assert [model.entry(r).id for r in range(3)] == ["log-0000000", "log-0000005", "log-0000010"]


def test_updates_that_arrive_while_loading_are_kept(qrun: Any, jobs: Jobs, fakes: Any) -> None:
    entry = fakes.make_entry(0, decision="in_progress", result="Evaluating...")
    source = LogSource([entry])
    model = model_over(source, jobs, fakes)

    async def load_with_an_update_in_between() -> None:
        loading = asyncio.ensure_future(model.load_first_page())
        await asyncio.sleep(0)
        model.merge([replace(entry, decision="act", result="Done")])
        await loading

    qrun(load_with_an_update_in_between())
    assert model.entry(0).decision == "act"


def test_the_model_keeps_at_most_its_limit(qrun: Any, jobs: Jobs, fakes: Any) -> None:
    model = model_over(LogSource(many(fakes, 10)), jobs, fakes, page_size=20, limit=12)
    qrun(model.load_first_page())
    assert not model.has_more
    model.merge([fakes.make_entry(-n) for n in range(1, 6)])
    assert model.rowCount() == 12
    assert model.has_more, "the oldest rows were dropped and can be fetched again"
    assert model.entry(11).id == "log-0000006"


def test_load_errors_are_reported(qrun: Any, jobs: Jobs, fakes: Any) -> None:
    source = LogSource([])
    source.error = StoreUnavailable("The database is locked.")
    model = model_over(source, jobs, fakes)
    qrun(model.load_first_page())
    assert model.error == "The database is locked."
    assert not model.is_loaded


def test_expanding_a_row(qrun: Any, jobs: Jobs, fakes: Any) -> None:
    model = model_over(LogSource([fakes.make_entry(0, result="word " * 200)]), jobs, fakes)
    qrun(model.load_first_page())
    index = model.index(0, 0)
    assert model.data(index, ActivityModel.ExpandedRole) is False
    model.toggle_expanded(0)
    assert model.data(index, ActivityModel.ExpandedRole) is True
    assert "word" in model.data(index, Qt.ItemDataRole.ToolTipRole)
    assert "nothing new" in model.data(model.index(0, 0), Qt.ItemDataRole.AccessibleTextRole)


# --- the section (view, delegate, timers) -------------------------------------------------------------


def host(qtbot: Any, widget: Any) -> QMainWindow:
    """Show ``widget`` in a top-level window with a fixed minimum size (offscreen Qt warns when a
    top-level window's size hints change after it is shown)."""
    holder = QMainWindow()
    holder.setMinimumSize(600, 400)
    holder.resize(700, 500)
    holder.setCentralWidget(widget)
    qtbot.addWidget(holder)
    holder.show()
    return holder


@pytest.fixture
def activity_view(qtbot: Any, qrun: Any, jobs: Jobs, fakes: Any) -> Any:
    source = LogSource(many(fakes, 40) + [fakes.make_entry(-1, decision="in_progress", result="Evaluating...",
                                                           entry_id="running")])
    view = ActivityView(source, lambda: fakes.NOW, jobs)
    holder = host(qtbot, view)
    qrun(view.refresh())
    view.source = source
    yield view
    del holder


def test_in_progress_rows_pulse_and_poll_only_while_visible(
    activity_view: ActivityView, qrun: Any, jobs: Jobs, fakes: Any
) -> None:
    view = activity_view
    qrun(asyncio.sleep(0.05))
    assert view.list_view.visible_in_progress() == [0]
    assert view.list_view.is_pulsing
    assert view.is_polling
    view.list_view.scrollToBottom()
    qrun(asyncio.sleep(0.05))
    assert not view.list_view.is_pulsing and not view.is_polling, "no in-progress row on screen"
    view.list_view.scrollToTop()
    qrun(asyncio.sleep(0.05))
    assert view.is_polling
    running = view.model.entry(0)
    view.on_activity_batch([replace(running, decision="act", result="Done", duration_ms=900)])
    qrun(asyncio.sleep(0.05))
    assert view.model.entry(0).decision == "act"
    assert not view.list_view.is_pulsing and not view.is_polling, "idle: no timers"


def test_the_fallback_poll_picks_up_changes_made_elsewhere(
    activity_view: ActivityView, qrun: Any, fakes: Any
) -> None:
    view = activity_view
    source = view.source
    source.entries = [replace(e, decision="act", result="Finished in another process")
                      if e.id == "running" else e for e in source.entries]
    calls = len(source.calls)
    view._on_poll_timeout()
    qrun(view._jobs.wait_idle())
    assert len(source.calls) > calls
    assert view.model.entry(0).result == "Finished in another process"
    assert view.model.rowCount() == 41


def test_clicking_a_row_expands_it(activity_view: ActivityView, qtbot: Any, qrun: Any) -> None:
    list_view = activity_view.list_view
    rect = list_view.visualRect(activity_view.model.index(1, 0))
    before = rect.height()
    qtbot.mouseClick(list_view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert activity_view.model.is_expanded(1)
    qrun(asyncio.sleep(0.05))
    list_view.setCurrentIndex(activity_view.model.index(1, 0))
    qtbot.keyClick(list_view, Qt.Key.Key_Space)
    assert not activity_view.model.is_expanded(1)
    assert list_view.visualRect(activity_view.model.index(1, 0)).height() == before


def test_long_results_grow_when_expanded(activity_view: ActivityView, fakes: Any, qrun: Any) -> None:
    view = activity_view
    view.on_activity_batch([fakes.make_entry(-10, decision="act", result="A long answer. " * 60, entry_id="long")])
    row = view.model.row_of("long")
    assert row == 0
    index = view.model.index(row, 0)
    delegate = view.list_view.activity_delegate
    assert delegate.is_elided(index)
    collapsed = view.list_view.visualRect(index).height()
    view.list_view.toggle_row(row)
    qrun(asyncio.sleep(0.05))
    expanded = view.list_view.visualRect(index).height()
    assert expanded > collapsed * 2
    assert not view.list_view.grab().isNull()
    # The remembered wrapped height follows the text: a longer result makes the expanded row taller.
    view.on_activity_batch([fakes.make_entry(-10, decision="act", result="A long answer. " * 120, entry_id="long")])
    qrun(asyncio.sleep(0.15))
    view.list_view.activity_delegate.sizeHintChanged.emit(index)
    qrun(asyncio.sleep(0.05))
    assert view.list_view.visualRect(index).height() > expanded


def test_changed_rows_are_repainted_without_measuring_the_list(
    activity_view: ActivityView, fakes: Any, qrun: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    view = activity_view
    qrun(asyncio.sleep(0.05))
    assert view.list_view.uniformItemSizes(), "nothing expanded: every row has the same height"
    delegate = view.list_view.activity_delegate
    asked: list[int] = []
    real = delegate.sizeHint
    monkeypatch.setattr(delegate, "sizeHint", lambda option, index: asked.append(index.row()) or real(option, index))
    view.on_activity_batch([replace(entry, result="Changed") for entry in view.model.entries()[:30]])
    qrun(asyncio.sleep(0.05))
    assert len(asked) <= 2, "a changed row keeps its height: the other rows are not measured again"
    assert view.model.entry(0).result == "Changed"
    view.list_view.toggle_row(3)
    assert not view.list_view.uniformItemSizes(), "an expanded row has its own height"
    view.list_view.toggle_row(3)
    assert view.list_view.uniformItemSizes()


def test_fetching_more_when_scrolled_to_the_end(activity_view: ActivityView, qrun: Any, fakes: Any) -> None:
    view = activity_view
    view.source.entries += many(fakes, 400, task_id="old")[100:]
    view.model.page_size = 41
    qrun(view.refresh())
    assert view.model.rowCount() == 41
    view.list_view.scrollToBottom()
    qrun(view._jobs.wait_idle())
    assert view.model.rowCount() > 41


def test_empty_and_error_states(qtbot: Any, qrun: Any, jobs: Jobs, fakes: Any) -> None:
    source = LogSource([])
    view = ActivityView(source, lambda: fakes.NOW, jobs)
    holder = host(qtbot, view)
    qrun(view.refresh())
    qrun(asyncio.sleep(0.02))
    assert view.empty_label.isVisible()
    assert view.empty_label.text().startswith("No activity yet.")
    assert not view.list_view.isVisible()
    source.error = StoreUnavailable("The database file is damaged.")
    qrun(view.refresh())
    assert view.error_label.text() == "Could not load the activity log: The database file is damaged."
    assert holder.isVisible()


def test_the_footer_says_when_older_rows_are_not_kept(qtbot: Any, qrun: Any, jobs: Jobs, fakes: Any) -> None:
    view = ActivityView(LogSource(many(fakes, 20)), lambda: fakes.NOW, jobs)
    view.model.limit = 10
    view.model.page_size = 10
    holder = host(qtbot, view)
    qrun(view.refresh())
    assert holder.isVisible() and view.footer_label.isVisible()
    assert "newest 10 entries" in view.footer_label.text()


# --- the real engine ----------------------------------------------------------------------------------


def test_rows_of_a_real_tick_update_in_place(
    intelligence_window: IntelligenceWindow, gui_harness: Any, qtbot: Any, until: Any, settle: Any
) -> None:
    window = intelligence_window
    model = window.activity_view.model
    gui_harness.local.decide_by_title({"Monitor": "act"}, default="noop")
    gui_harness.reasoning.execute = lambda body: __import__("tests.fakes.model_servers", fromlist=["Reply"]).Reply(
        content="All fine.")
    inserted: list[int] = []
    model.rowsInserted.connect(lambda parent, first, last: inserted.append(last - first + 1))
    qtbot.mouseClick(window.status_bar_view.run_now_button, Qt.MouseButton.LeftButton)
    until(lambda: model.rowCount() == 3 and all(e.decision != "in_progress" for e in model.entries()),
          message="the tick's rows did not finish")
    assert sum(inserted) == 3, "one row per due task, updated in place: no duplicates"
    decisions = sorted(e.decision for e in model.entries())
    assert decisions == ["act", "noop", "noop"]
    assert not window.activity_view.is_polling
    settle(window)


# --- honest rows (issue 9 items 11 and 12) ---------------------------------------------------------------

OUTAGE = "Ollama is not running at http://127.0.0.1:11434. Start it with `ollama serve`."


def outage(fakes: Any, ticks: int = 3, tasks: int = 4, start: int = 0) -> list[LogEntry]:
    """``tasks`` failed rows per tick for ``ticks`` ticks, newest first from ``start`` seconds ago."""
    rows = []
    for tick in range(ticks):
        at = fakes.NOW - start - tick * 300
        for task in range(tasks):
            rows.append(replace(fakes.make_entry(0, decision="failed", result=OUTAGE, task_id=f"t{task}",
                                                 title=f"Task {task}", created_at=at - task * 0.01,
                                                 entry_id=f"fail-{tick}-{task}"), tick_at=at))
    return rows


def test_an_act_row_whose_result_used_no_tools_is_not_shown_as_done(qrun: Any, jobs: Jobs, fakes: Any) -> None:
    claimed = fakes.make_entry(0, decision="act", entry_id="claim",
                               result="I sent the summary to #general.\nNo tools were used.")
    backed = fakes.make_entry(1, decision="act", entry_id="backed",
                              result="Sent the summary to #general.\nTools used: slack.post_message")
    model = model_over(LogSource([claimed, backed]), jobs, fakes)
    qrun(model.load_first_page())
    assert model.shown_decision(model.row_of("claim")) == "answered"
    assert model.shown_decision(model.row_of("backed")) == "act"
    text = model.data(model.index(model.row_of("claim"), 0), Qt.ItemDataRole.AccessibleTextRole)
    assert "answered" in text and "acted" not in text and "No tools were used." in text
    assert "acted" in model.data(model.index(model.row_of("backed"), 0), Qt.ItemDataRole.AccessibleTextRole)


def test_the_tools_line_is_readable_when_the_row_is_unfolded(activity_view: ActivityView, fakes: Any) -> None:
    view = activity_view
    view.on_activity_batch([fakes.make_entry(-10, decision="act", entry_id="tools",
                                             result="Sent it.\nTools used: slack.post_message")])
    index = view.model.index(view.model.row_of("tools"), 0)
    assert view.list_view.activity_delegate.is_elided(index), "a result of two lines unfolds on click"


def test_a_resolved_escalations_row_says_when(
    qrun: Any, jobs: Jobs, fakes: Any
) -> None:
    skipped = fakes.make_entry(0, decision="dismissed", result="Skipped", entry_id="log-s")
    approved = fakes.make_entry(1, decision="act", result="Forwarded the 3 emails.", entry_id="log-a")
    model = model_over(LogSource([skipped, approved]), jobs, fakes)
    qrun(model.load_first_page())
    changed: list[int] = []
    model.dataChanged.connect(lambda first, last, roles: changed.append(first.row()))
    at = fakes.NOW - 60
    model.on_escalation_changed(replace(fakes.make_escalation(escalation_id="e1", status="dismissed"),
                                        log_id="log-s", resolved_at=at))
    model.on_escalation_changed(replace(fakes.make_escalation(escalation_id="e2", status="approved"),
                                        log_id="log-a", resolved_at=at))
    hhmm = clock_time(at, fakes.NOW)
    assert model.shown_result(model.row_of("log-s")) == f"Skipped at {hhmm}"
    assert model.shown_result(model.row_of("log-a")) == f"Approved at {hhmm} · Forwarded the 3 emails."
    assert sorted(changed) == [0, 1]


def test_resolved_escalations_are_read_with_the_log(qtbot: Any, qrun: Any, jobs: Jobs, fakes: Any) -> None:
    skipped = fakes.make_entry(0, decision="dismissed", result="Skipped", entry_id="log-s")
    resolved = replace(fakes.make_escalation(escalation_id="e1", status="dismissed"), log_id="log-s",
                       resolved_at=fakes.NOW - 120)

    async def escalations(status: object = None) -> list[Any]:
        return [resolved] if status in (None, "dismissed") else []

    view = ActivityView(LogSource([skipped]), lambda: fakes.NOW, jobs, escalations=escalations)
    holder = host(qtbot, view)
    qrun(view.refresh())
    assert holder.isVisible()
    assert view.model.shown_result(0) == f"Skipped at {clock_time(fakes.NOW - 120, fakes.NOW)}"


def test_identical_failures_of_one_outage_are_one_row_that_unfolds(
    qtbot: Any, qrun: Any, jobs: Jobs, fakes: Any, qtmodeltester: Any
) -> None:
    ok = fakes.make_entry(2000, decision="noop", entry_id="before")
    other = replace(fakes.make_entry(0, decision="failed", result="Something else broke.", entry_id="other"),
                    created_at=fakes.NOW - 1000)
    rows = [other, *outage(fakes), ok]
    view = ActivityView(LogSource(rows), lambda: fakes.NOW, jobs)
    holder = host(qtbot, view)
    qrun(view.refresh())
    assert holder.isVisible()
    model, lst = view.model, view.list_view
    qtmodeltester.check(model)
    head = model.row_of("fail-0-0")
    group = model.group_at(head)
    assert group is not None and (group.count, group.tasks, group.ticks) == (12, 4, 3)
    shown = OUTAGE.replace("`", "")   # its Markdown as text (test_a_result_in_markdown_reads_as_text)
    assert model.shown_result(head) == f"{shown} — 4 tasks, 3 ticks"
    members = [model.row_of(f"fail-{tick}-{task}") for tick in range(3) for task in range(4)][1:]
    assert all(lst.isRowHidden(row) for row in members)
    assert not lst.isRowHidden(model.row_of("other")) and not lst.isRowHidden(model.row_of("before"))
    assert model.group_at(model.row_of("other")) is None, "a single failure is not a group"
    visible = [r for r in range(model.rowCount()) if not lst.isRowHidden(r)]
    assert len(visible) == 3
    # Unfold (click or Space on the group's row), fold again.
    lst.toggle_row(head)
    assert not any(lst.isRowHidden(row) for row in members)
    assert all(model.is_in_unfolded_group(row) for row in members), "drawn hanging on the first row's dot"
    assert model.is_last_in_unfolded_group(members[-1]) and not model.is_in_unfolded_group(model.row_of("before"))
    assert not lst.grab().isNull()
    lst.toggle_row(head)
    assert all(lst.isRowHidden(row) for row in members)
    # The next tick's failures join the folded group at the top.
    newer = [replace(entry, id=f"next-{n}", created_at=entry.created_at + 300, tick_at=entry.tick_at + 300)
             for n, entry in enumerate(outage(fakes, ticks=1, tasks=2))]
    view.on_activity_batch(newer)
    head = model.row_of("next-0")
    group = model.group_at(head)
    assert group is not None and (group.count, group.tasks, group.ticks) == (14, 4, 4)
    assert not lst.isRowHidden(head)
    assert lst.isRowHidden(model.row_of("fail-0-0")), "the old first row is one of the folded rows now"
    assert len([r for r in range(model.rowCount()) if not lst.isRowHidden(r)]) == 3
    qtmodeltester.check(model)


MARKDOWN_RESULT = ("**Summary:** the `backup_job` log has __two__ errors, see [the log](https://example.org/log):\n"
                   "## What to do\n- restart *the* job\n- check the_disk_usage")
READABLE_RESULT = ("Summary: the backup_job log has two errors, see the log:\n"
                   "What to do\n• restart the job\n• check the_disk_usage")


def test_a_result_in_markdown_reads_as_text(activity_view: ActivityView, fakes: Any, qtbot: Any) -> None:
    """A model's answer in a row showed its Markdown as typed: **stars**, `ticks`, ## and [links](…)."""
    view = activity_view
    view.on_activity_batch([fakes.make_entry(-10, decision="act", entry_id="md", result=MARKDOWN_RESULT)])
    model = view.model
    row = model.row_of("md")
    assert row is not None
    assert model.shown_result(row) == READABLE_RESULT
    index = model.index(row, 0)
    for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
        shown = str(model.data(index, role))
        assert "Summary: the backup_job log" in shown and "**" not in shown and "`" not in shown, role
    delegate = view.list_view.activity_delegate
    assert delegate.is_elided(index)
    folded = view.list_view.sizeHintForIndex(index).height()
    view.list_view.toggle_row(row)
    qtbot.wait_until(lambda: view.list_view.sizeHintForIndex(index).height() > folded)
