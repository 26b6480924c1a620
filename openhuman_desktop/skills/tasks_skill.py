"""The subconscious tasks skill: the assistant lists the user's standing tasks and adds new (read-only) ones."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.skills._args import checked_tool, object_schema
from openhuman_desktop.skills.base import CONNECTED, Mutation, SkillHealth, SkillSetting, Tool, ToolResult
from openhuman_desktop.store.records import Task

ListTasks = Callable[[], Awaitable[list[Task]]]
AddTask = Callable[[str, str], Awaitable[Task]]

MAX_LISTED = 200

LIST_SPEC = ToolSpec(
    name="subconscious_tasks_list",
    description="List the standing tasks the background heartbeat checks, with schedule and state.",
    parameters=object_schema({}),
)
ADD_SPEC = ToolSpec(
    name="subconscious_tasks_add",
    description='Add a standing task for the background heartbeat. It is added read-only (no write tools) '
                'until the user confirms it in the app. recurrence: "pending" (every heartbeat), '
                '"once" (until done once) or "cron:<5-field cron expression>" in local time.',
    parameters=object_schema(
        {"title": {"type": "string", "minLength": 1,
                   "description": "What to do, in words (at most 500 characters)."},
         "recurrence": {"type": "string", "maxLength": 200, "default": "pending",
                        "description": '"pending", "once" or "cron:<expr>", e.g. "cron:0 9 * * 1-5".'}},
        required=["title"],
    ),
)


def _when(ts: float | None) -> str:
    return "never" if ts is None else datetime.fromtimestamp(ts).astimezone().isoformat(timespec="minutes")


def describe(task: Task) -> str:
    """One task as one line of a tool answer."""
    state = "done" if task.completed else ("enabled" if task.enabled else "disabled")
    who = "assistant's" if task.origin == "assistant" else task.source
    return (f"- {task.id}: {task.title!r} — {task.recurrence}, {state}, {who} task, "
            f"{task.intent} intent, last run {_when(task.last_run_at)}, next run {_when(task.next_run_at)}")


class SubconsciousTasksSkill:
    """The subconscious task list as tools; the service's methods are injected (no engine import).

    ``add_task`` must add the task as the assistant's own and read-only (``tasks_add_by_assistant``): a
    task the assistant adds must never be a standing licence to write.
    """

    name = "subconscious_tasks"
    title = "Subconscious tasks"
    description = "Lists and adds the standing tasks the heartbeat checks."

    def __init__(self, list_tasks: ListTasks, add_task: AddTask) -> None:
        self._list_tasks = list_tasks
        self._add_task = add_task
        self._tools = (
            checked_tool(LIST_SPEC, writes=False, run=self._list),
            checked_tool(ADD_SPEC, writes=True, run=self._add, observe=self._observe, expect=self._expect),
        )

    def tools(self) -> Sequence[Tool]:
        return self._tools

    def settings(self) -> Sequence[SkillSetting]:
        return ()

    async def health(self) -> SkillHealth:
        return SkillHealth(CONNECTED, "Built in")

    async def _list(self, args: dict[str, Any]) -> ToolResult:
        tasks = await self._list_tasks()
        if not tasks:
            return ToolResult("There are no tasks.")
        lines = [f"{len(tasks)} tasks:" if len(tasks) != 1 else "1 task:", *map(describe, tasks[:MAX_LISTED])]
        if len(tasks) > MAX_LISTED:
            lines.append(f"… and {len(tasks) - MAX_LISTED} more.")
        return ToolResult("\n".join(lines))

    async def _observe(self, args: dict[str, Any]) -> str:
        """How many tasks have exactly this title (an added task makes one more)."""
        title = args["title"].strip()
        return f"{sum(1 for task in await self._list_tasks() if task.title.strip() == title)} with this title"

    async def _expect(self, args: dict[str, Any], before: str) -> str | None:
        """One task more with this title than ``before`` counted."""
        count, _, rest = before.partition(" ")
        return f"{int(count) + 1} with this title" if count.isdigit() and rest == "with this title" else None

    async def _add(self, args: dict[str, Any]) -> ToolResult:
        task = await self._add_task(args["title"], args["recurrence"])
        mutations = (Mutation("task_created", task.id, f"added task {task.title[:80]!r} ({task.recurrence})"),)
        if task.intent == "read":
            return ToolResult(f"Added task {task.id}: {task.title!r} ({task.recurrence}). It was added as "
                              "read-only until the user confirms it: it gets no write tools before that.",
                              mutations=mutations)
        return ToolResult(f"Added task {task.id}: {task.title!r} ({task.recurrence}, {task.intent} intent).",
                          mutations=mutations)
