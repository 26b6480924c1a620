"""The user sees and edits a task's rule (issue 24): what it watches, the condition, the action and its kind,
through the service and the ``subconscious_tasks_rule_*`` RPC methods; the judgement then goes by it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from openhuman_desktop import events
from openhuman_desktop.config import Settings
from openhuman_desktop.errors import InvalidInput, NotFound
from openhuman_desktop.rpc.methods import bind, subconscious_methods
from openhuman_desktop.store import SubconsciousStore
from openhuman_desktop.store.events import TaskChanged
from openhuman_desktop.subconscious.decisions import ChangeItem
from openhuman_desktop.subconscious.intent import KeywordIntentClassifier
from openhuman_desktop.subconscious.relevance import touches
from openhuman_desktop.subconscious.service import SubconsciousService
from openhuman_desktop.subconscious.task_rules import MEMORIES, TaskRules
from tests.fakes.clock import FakeClock


def make_service(store: SubconsciousStore, clock: FakeClock, tmp_path: Path,
                 bus: events.EventBus | None = None) -> SubconsciousService:
    settings = Settings()
    return SubconsciousService(store, clock, bus or events.EventBus(), lambda: settings, tmp_path / "HEARTBEAT.md",
                               KeywordIntentClassifier(), rules=TaskRules(tmp_path / "judgement.db"))


async def invoke(service: SubconsciousService, name: str, params: dict[str, Any]) -> Any:
    method = subconscious_methods(service, None)[f"openhuman.{name}"]  # type: ignore[arg-type]
    return await method.call(bind(method.params, params))


async def test_a_tasks_rule_reads_from_its_title_and_the_users_edit_wins_and_is_kept(
        store: SubconsciousStore, clock: FakeClock, tmp_path: Path) -> None:
    bus = events.EventBus()
    changed: list[events.Event] = []
    bus.subscribe(TaskChanged, changed.append)
    service = make_service(store, clock, tmp_path, bus)
    task = await service.tasks_add("Tell me when the parcel in tracking.txt is delivered")
    rule = await invoke(service, "subconscious_tasks_rule_get", {"task_id": task.id})
    assert rule == {"task_id": task.id, "watch": "tracking.txt", "condition": "the parcel in tracking.txt is delivered",
                    "action": "Tell me", "kind": "act", "source": "rule"}
    edited = await invoke(service, "subconscious_tasks_rule_set", {
        "task_id": task.id, "watch": "orders/, tracking.txt", "condition": "a parcel is delivered or returned"})
    assert edited["watch"] == "orders/, tracking.txt" and edited["source"] == "user" and edited["kind"] == "act"
    assert changed, "the task list hears of it"
    own = service.rules.for_task(task.id, task.title)
    assert touches(own, ChangeItem("file", "orders/amazon.txt", "returned to sender", "changed"))
    assert not touches(own, ChangeItem("file", "notes.md", "parcel delivered", "changed"))
    # A new process reads the same rule from the database.
    again = make_service(store, clock, tmp_path)
    assert (await again.tasks_rule(task.id))["condition"] == "a parcel is delivered or returned"
    drafted = await again.tasks_rule_set(task.id, action="Draft a complaint to the shop")
    assert drafted["kind"] == "escalate", "the action's verb decides its kind unless the user chose one"
    assert (await again.tasks_rule_set(task.id, kind="act"))["kind"] == "act"
    told = await again.tasks_rule_set(task.id, watch="what I tell you")
    assert told["watch"] == "what I tell you" and again.rules.for_task(task.id, task.title).watches == MEMORIES
    reset = await invoke(again, "subconscious_tasks_rule_set", {"task_id": task.id, "reset": True})
    assert reset["source"] == "rule" and reset["watch"] == "tracking.txt"


@pytest.mark.parametrize(("change", "sentence"), [
    ({"condition": "   "}, "condition: must not be empty"),
    ({"kind": "maybe"}, 'kind: must be "act" or "escalate"'),
    ({"watch": "../secrets.txt"}, "watch: '../secrets.txt' is not a path inside the workspace folder"),
    ({"action": "x" * 501}, "action: must be at most 500 characters"),
])
async def test_a_rule_the_judgement_cannot_take_is_refused_in_one_sentence_and_nothing_is_lost(
        store: SubconsciousStore, clock: FakeClock, tmp_path: Path, change: dict[str, str], sentence: str) -> None:
    service = make_service(store, clock, tmp_path)
    task = await service.tasks_add("Tell me when report.md mentions a deadline")
    before = await service.tasks_rule(task.id)
    with pytest.raises(InvalidInput) as refused:
        await service.tasks_rule_set(task.id, **change)  # type: ignore[arg-type]
    assert str(refused.value) == sentence
    assert await service.tasks_rule(task.id) == before
    with pytest.raises(NotFound):
        await service.tasks_rule("no-such-task")
