"""The context hook: measure the working state against the reasoning window, evict the oldest part at the
threshold (map-reduce summaries over the quick tier, stored in long-term memory tagged ``evicted``).

Identity, the steering directive and the recent milestones stay: the last :data:`KEEP_MESSAGES` messages,
the last :data:`KEEP_TIMELINE` timeline entries and the last :data:`KEEP_HISTORY` compressed entries are
never evicted.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openhuman_desktop.llm.base import ChatRequest, Message
from openhuman_desktop.orchestration import prompts
from openhuman_desktop.orchestration._calls import AgentError, TokenCount
from openhuman_desktop.orchestration.compression import extractive, fit
from openhuman_desktop.orchestration.state import COMPRESSED_HISTORY, MESSAGES, TIMELINE, WORLD_STATE_DIFF

log = logging.getLogger(__name__)

KEEP_MESSAGES = 4
KEEP_TIMELINE = 8
KEEP_HISTORY = 2
TARGET_SHARE = 0.5
"""After an eviction the working state is at most this share of the window (or only the kept part is left)."""
SUMMARY_TOKENS = 256
"""Cap of each map and reduce answer."""
CHUNK_SHARE = 0.5
"""Of the quick tier's window, what one map chunk may fill (the rest: prompt and answer)."""
FIXED_PROMPT = prompts.IDENTITY + prompts.PLAN + prompts.REPLY_READ
"""The fixed part of every reasoning prompt, counted with the state."""


def _text(item: Any) -> str:
    return item if isinstance(item, str) else json.dumps(item, ensure_ascii=False, default=str)


def message_text(message: Any) -> str:
    """A message as the prompts carry it: ``role: content``."""
    if isinstance(message, Mapping):
        return f"{message.get('role', '?')}: {message.get('content', '')}"
    return _text(message)


def history_text(entry: Any) -> str:
    return str(entry.get("text", "")) if isinstance(entry, Mapping) else _text(entry)


def timeline_text(entry: Any) -> str:
    if isinstance(entry, Mapping):
        return (f"#{entry.get('sequence')} {entry.get('event_signature', '')}: {entry.get('world_mutation', '')} "
                f"({entry.get('delta_delta', '')})")
    return _text(entry)


@dataclass(frozen=True)
class Footprint:
    """Token counts of the parts of the working state (and the fixed prompt)."""

    fixed: int
    messages: tuple[int, ...]
    history: tuple[int, ...]
    timeline: tuple[int, ...]

    @property
    def total(self) -> int:
        return self.fixed + sum(self.messages) + sum(self.history) + sum(self.timeline)


def measure(values: Mapping[str, Any], tokens: TokenCount) -> Footprint:
    """Count each message, compressed entry and timeline entry of ``values`` (blocking: call in a thread)."""
    world = values.get(WORLD_STATE_DIFF) or {}
    return Footprint(
        tokens.count(FIXED_PROMPT),
        tuple(tokens.count(message_text(m)) for m in values.get(MESSAGES) or ()),
        tuple(tokens.count(history_text(e)) for e in values.get(COMPRESSED_HISTORY) or ()),
        tuple(tokens.count(timeline_text(e)) for e in world.get(TIMELINE) or ()),
    )


def share(footprint: Footprint, window: int) -> float:
    """The share of ``window`` in use, 0.0–1.0."""
    return min(1.0, footprint.total / max(1, window))


@dataclass(frozen=True)
class Eviction:
    """How many of the oldest items of each part go."""

    messages: int
    history: int
    timeline: int

    @property
    def is_empty(self) -> bool:
        return not (self.messages or self.history or self.timeline)


def choose(footprint: Footprint, window: int) -> Eviction:
    """The oldest items to evict so the rest is at most :data:`TARGET_SHARE` of ``window``: timeline
    fragments and compressed entries first (oldest first), then messages, never the kept recent ones."""
    target = int(window * TARGET_SHARE)
    excess = footprint.total - target
    counts = {"timeline": 0, "history": 0, "messages": 0}
    parts: Sequence[tuple[str, tuple[int, ...], int]] = (
        ("timeline", footprint.timeline, KEEP_TIMELINE), ("history", footprint.history, KEEP_HISTORY),
        ("messages", footprint.messages, KEEP_MESSAGES))
    for name, sizes, keep in parts:
        for size in sizes[: max(0, len(sizes) - keep)]:
            if excess <= 0:
                break
            counts[name] += 1
            excess -= size
    return Eviction(counts["messages"], counts["history"], counts["timeline"])


def evicted_text(values: Mapping[str, Any], eviction: Eviction) -> list[str]:
    """The evicted items as text, one per item, oldest part first."""
    world = values.get(WORLD_STATE_DIFF) or {}
    return ([f"timeline {timeline_text(e)}" for e in (world.get(TIMELINE) or [])[: eviction.timeline]]
            + [f"log {history_text(e)}" for e in (values.get(COMPRESSED_HISTORY) or [])[: eviction.history]]
            + [message_text(m) for m in (values.get(MESSAGES) or [])[: eviction.messages]])


def chunks(items: Sequence[str], limit: int, tokens: TokenCount) -> list[str]:
    """``items`` joined into chunks of at most ``limit`` tokens (an item too long alone is cut)."""
    result: list[str] = []
    current: list[str] = []
    used = 0
    for item in items:
        size = tokens.count(item)
        if size > limit:
            item, size = fit(item, limit, tokens), limit
        if current and used + size > limit:
            result.append("\n".join(current))
            current, used = [], 0
        current.append(item)
        used += size
    if current:
        result.append("\n".join(current))
    return result


Summarise = Callable[[str, str, str, int], Awaitable[str]]
"""``summarise(key, system, text, max_tokens)``: one quick-tier answer, journaled under ``key`` by the caller
so that a resumed hook does not ask again (raises ``AgentError`` when the tier fails)."""


async def map_reduce(items: Sequence[str], *, tokens: TokenCount, quick_window: int,
                     summarise: Summarise | None) -> str:
    """One summary of ``items``: chunks that fit the quick window → a summary each → merged until one is
    left (keys ``evict:{level}:{k}``). Without a model, or where it fails, a summary is extractive."""
    limit = max(64, int(quick_window * CHUNK_SHARE) - SUMMARY_TOKENS)
    level = 0
    pieces = await asyncio.to_thread(chunks, items, limit, tokens)
    while True:
        system = prompts.fill(prompts.MAP if level == 0 else prompts.REDUCE, max_tokens=SUMMARY_TOKENS)
        summaries = [await _summary(f"evict:{level}:{k}", system, piece, tokens, summarise)
                     for k, piece in enumerate(pieces)]
        if len(summaries) == 1:
            return summaries[0]
        level += 1
        pieces = await asyncio.to_thread(chunks, summaries, limit, tokens)
        if len(pieces) >= len(summaries):  # summaries too long to merge any further: join them
            return "\n".join(summaries)


async def _summary(key: str, system: str, text: str, tokens: TokenCount, summarise: Summarise | None) -> str:
    summary = ""
    if summarise is not None:
        try:
            summary = (await summarise(key, system, text, SUMMARY_TOKENS)).strip()
        except AgentError as exc:
            log.warning("context hook: the quick model failed (%s); keeping an extractive summary", exc)
    if summary:
        summary = await asyncio.to_thread(fit, summary, SUMMARY_TOKENS, tokens)
    return summary or await asyncio.to_thread(extractive, text, SUMMARY_TOKENS, tokens)


def summary_request(system: str, text: str) -> ChatRequest:
    return ChatRequest([Message("system", system), Message("user", text)])


def eviction_update(eviction: Eviction) -> dict[str, Any]:
    """The state update that drops the evicted items from the working state (never from the timeline)."""
    update: dict[str, Any] = {}
    if eviction.messages:
        update[MESSAGES] = {"drop_oldest": eviction.messages}
    if eviction.history:
        update[COMPRESSED_HISTORY] = {"drop_oldest": eviction.history}
    if eviction.timeline:
        update[WORLD_STATE_DIFF] = {TIMELINE: {"drop_oldest": eviction.timeline}}
    return update
