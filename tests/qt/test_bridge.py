"""The core bridge: core events as Qt signals, with a tick's thousands of changes collapsed into batches."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from openhuman_desktop import events
from openhuman_desktop.qt.bridge import CoreBridge
from openhuman_desktop.store.events import TaskChanged, TaskRemoved


def test_task_changes_arrive_as_one_batch_with_the_newest_of_each(qtbot: Any, fakes: Any) -> None:
    bus = events.EventBus()
    bridge = CoreBridge(bus)
    batches: list[list[Any]] = []
    bridge.tasks_changed.connect(batches.append)
    tasks = [fakes.make_task(f"Task {n}", task_id=f"task-{n}") for n in range(1000)]
    try:
        for task in tasks:
            bus.publish(TaskChanged(task))
        newer = replace(tasks[3], last_run_at=fakes.NOW)
        bus.publish(TaskChanged(newer))
        assert batches == [], "nothing is sent while the tick publishes"
        qtbot.waitUntil(lambda: len(batches) == 1)
        assert batches[0] == [*tasks[:3], newer, *tasks[4:]]
    finally:
        bridge.detach()


def test_a_removed_task_is_not_brought_back_by_a_change_still_waiting(qtbot: Any, fakes: Any) -> None:
    bus = events.EventBus()
    bridge = CoreBridge(bus)
    removed: list[str] = []
    batches: list[list[Any]] = []
    bridge.task_removed.connect(removed.append)
    bridge.tasks_changed.connect(batches.append)
    kept, gone = fakes.make_task("Kept", task_id="kept"), fakes.make_task("Gone", task_id="gone")
    try:
        bus.publish(TaskChanged(kept))
        bus.publish(TaskChanged(gone))
        bus.publish(TaskRemoved("gone"))
        assert removed == ["gone"], "a removal is sent at once"
        qtbot.waitUntil(lambda: len(batches) == 1)
        assert batches[0] == [kept]
    finally:
        bridge.detach()
