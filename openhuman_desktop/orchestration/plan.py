"""The plan's JSON schema and its parsing (moved out of :mod:`nodes`)."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from openhuman_desktop.orchestration.subagent import (
    Subtask,
)

log = logging.getLogger("openhuman_desktop.orchestration.nodes")

MAX_INSTRUCTIONS_CHARS = 4_000
MAX_TITLE_CHARS = 200

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.S)


PLAN_SCHEMA_ITEM = {
    "type": "object",
    "properties": {"title": {"type": "string"}, "instructions": {"type": "string"}},
    "required": ["title", "instructions"],
}


def plan_schema(max_subagents: int) -> dict[str, Any]:
    """The JSON schema of a plan: ``{"subtasks": [{"title", "instructions"}]}``, at most ``max_subagents``."""
    return {"type": "object", "properties": {"subtasks": {"type": "array", "items": PLAN_SCHEMA_ITEM,
                                                          "maxItems": max_subagents}},
            "required": ["subtasks"]}


class PlanError(ValueError):
    """A plan answer that is not the plan's JSON (``str()`` says what is wrong, for the repair prompt)."""


class BlankPlan(PlanError):
    """The plan's JSON, but every sub-task blank: the model followed the form and wrote no work into it."""


def parse_plan(content: str, max_subagents: int) -> list[Subtask]:
    """The sub-tasks of a plan answer (extra ones beyond ``max_subagents`` dropped).

    Raises:
        PlanError: not JSON, not an object with a ``subtasks`` list, or an item without a title/instructions.
    """
    text = content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1)
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise PlanError("it is not valid JSON") from exc
    if not isinstance(data, dict) or not isinstance(data.get("subtasks"), list):
        raise PlanError('it has no "subtasks" list')
    subtasks = []
    for number, item in enumerate(data["subtasks"], 1):
        if not isinstance(item, dict):
            raise PlanError(f"sub-task {number} is not an object")
        title, instructions = (_plan_text(item.get(key)) for key in ("title", "instructions"))
        if not title and not instructions:
            continue  # a blank item (small models write them next to real ones) carries no work: dropped
        title, instructions = title or instructions, instructions or title
        subtasks.append(Subtask(" ".join(title.split())[:MAX_TITLE_CHARS], instructions[:MAX_INSTRUCTIONS_CHARS]))
    if data["subtasks"] and not subtasks:
        raise BlankPlan('its sub-tasks are all empty (each needs a "title" and "instructions" text)')
    if len(subtasks) > max_subagents:
        log.info("the plan had %d sub-tasks; the first %d are kept", len(subtasks), max_subagents)
    return subtasks[:max_subagents]


def _plan_text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""
