"""Records built from rows are the same objects their dataclass would build."""

from __future__ import annotations

import dataclasses

import pytest

from openhuman_desktop.store import LogEntry, Task

TASK_VALUES = ("task-1", "Check my inbox", "user", "cron:0 9 * * *", 1, 1_790_000_000.5, None, 0, 1_789_000_000.25,
               "write", "user", "model", 1_790_000_001.0, None)
LOG_VALUES = ("row-1", "task-1", 1_790_000_000.5, "noop", "Nothing new", 12, 1_790_000_000.75, "Check my inbox", 7)


@pytest.mark.parametrize(("cls", "values"), [(Task, TASK_VALUES), (LogEntry, LOG_VALUES)])
def test_from_row_fills_every_field_in_order(cls: type[Task] | type[LogEntry], values: tuple[object, ...]) -> None:
    built = cls.from_row(values)
    assert vars(built) == vars(cls(*values)) | ({"enabled": True, "completed": False} if cls is Task else {})
    assert {field.name for field in dataclasses.fields(cls)} == set(vars(built)), "no field missed or added"
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.id = "changed"  # type: ignore[misc]


def test_a_task_from_a_row_has_real_booleans() -> None:
    task = Task.from_row(TASK_VALUES)
    assert task.enabled is True and task.completed is False
    assert task == dataclasses.replace(task) and hash(task) == hash(dataclasses.replace(task))
