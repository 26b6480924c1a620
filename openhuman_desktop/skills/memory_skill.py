"""The memory skill: the assistant searches, lists and adds long-term memories."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from openhuman_desktop.errors import StoreUnavailable
from openhuman_desktop.events import EventBus
from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.memory.service import MemoryService
from openhuman_desktop.memory.store import MAX_TEXT_CHARS, Memory, MemoryStore
from openhuman_desktop.skills._args import checked_tool, object_schema
from openhuman_desktop.skills.base import CONNECTED, ERROR, Mutation, SkillHealth, SkillSetting, Tool, ToolResult

log = logging.getLogger(__name__)

MAX_TOOL_LIMIT = 50
# One memory may hold 10,000 characters; 50 of them would swamp a small model's context.
SNIPPET_CHARS = 1_000

SEARCH_SPEC = ToolSpec(
    name="memory_search",
    description="Search long-term memory by meaning and words.",
    parameters=object_schema(
        {"query": {"type": "string", "minLength": 1, "maxLength": 1_000, "description": "What to find."},
         "limit": {"type": "integer", "minimum": 1, "maximum": MAX_TOOL_LIMIT, "default": 10,
                   "description": "Most results."}},
        required=["query"],
    ),
)
LIST_SPEC = ToolSpec(
    name="memory_list",
    description="The newest long-term memories.",
    parameters=object_schema(
        {"limit": {"type": "integer", "minimum": 1, "maximum": MAX_TOOL_LIMIT, "default": 20,
                   "description": "Most results."}}
    ),
)
ADD_SPEC = ToolSpec(
    name="memory_add",
    description="Store a note in long-term memory.",
    parameters=object_schema(
        {"text": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT_CHARS,
                  "description": "The note."}},
        required=["text"],
    ),
)


def describe(memory: Memory, max_chars: int = SNIPPET_CHARS) -> str:
    """One memory as one entry of a tool answer: id, local time, source, tags, how a search found it, text
    (cut if long)."""
    when = datetime.fromtimestamp(memory.created_at).astimezone().isoformat(timespec="minutes")
    tags = f" [{', '.join(memory.tags)}]" if memory.tags else ""
    found = f" (matched by {' and '.join(memory.matched_by)})" if memory.matched_by else ""
    text = memory.text if len(memory.text) <= max_chars else memory.text[:max_chars] + " […]"
    return f"- {memory.id} ({when}, {memory.source}){tags}{found}: {text}"


class MemorySkill:
    """Long-term memory as tools. A memory the assistant stores goes through the :class:`MemoryService` (given, or
    made over ``store`` publishing on ``bus``)."""

    name = "memory"
    title = "Memory"
    description = "Searches, lists and stores long-term memories."

    def __init__(self, store: MemoryStore | MemoryService, bus: EventBus | None = None) -> None:
        self._memories = MemoryService.of(store, bus)
        self._store = self._memories.store
        self._tools = (
            checked_tool(SEARCH_SPEC, writes=False, run=self._search),
            checked_tool(LIST_SPEC, writes=False, run=self._list),
            checked_tool(ADD_SPEC, writes=True, run=self._add, observe=self._observe),
        )

    def tools(self) -> Sequence[Tool]:
        return self._tools

    def settings(self) -> Sequence[SkillSetting]:
        return (SkillSetting("database", str(self._store.path)),)

    async def health(self) -> SkillHealth:
        try:
            count = await self._store.count()
        except StoreUnavailable as exc:
            return SkillHealth(ERROR, str(exc))
        return SkillHealth(CONNECTED, "1 memory" if count == 1 else f"{count:,} memories")

    async def _search(self, args: dict[str, Any]) -> ToolResult:
        found = await self._store.search(args["query"], args["limit"])  # hybrid: words and, with vectors, meaning
        if not found:
            return ToolResult(f"No memory matches {args['query']!r}.")
        heading = "1 matching memory:" if len(found) == 1 else f"{len(found)} matching memories, best first:"
        return ToolResult("\n".join([heading, *map(describe, found)]))

    async def _list(self, args: dict[str, Any]) -> ToolResult:
        recent = await self._store.list(args["limit"])
        if not recent:
            return ToolResult("Memory is empty.")
        heading = "The only memory:" if len(recent) == 1 else f"The {len(recent)} newest memories:"
        return ToolResult("\n".join([heading, *map(describe, recent)]))

    async def _add(self, args: dict[str, Any]) -> ToolResult:
        memory = await self._memories.add(args["text"], source="assistant")
        log.info("memory %s stored by the assistant", memory.id)
        mutation = Mutation("memory_stored", memory.id, f"stored a note of {len(memory.text):,} characters")
        return ToolResult(f"Stored memory {memory.id}.", mutations=(mutation,))

    async def _observe(self, args: dict[str, Any]) -> str:
        """How many memories hold exactly this text (a stored call adds one)."""
        return f"{await self._store.count_text(args['text'])} with this text"
