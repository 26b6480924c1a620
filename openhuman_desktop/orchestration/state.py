"""A run's state: the reference note's keys, their reducers, and how an update folds into the values."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

Values = dict[str, Any]
"""The state's values by key (JSON-able: what the ledger stores and ``agent_state_get`` returns)."""

MESSAGES = "messages"
CHANNEL_SOURCE = "channel_source"
RAW_CHANNEL_PAYLOAD = "raw_channel_payload"
AGENT_INSTRUCTIONS = "agent_instructions"
AGENT_REPLY = "agent_reply"
CHANNEL_RESPONSE = "channel_response"
SUBCONSCIOUS_STEERING = "subconscious_steering"
COMPRESSED_HISTORY = "compressed_history"
WORLD_STATE_DIFF = "world_state_diff"
CONTEXT_UTILIZATION = "context_utilization"

KEYS = (MESSAGES, CHANNEL_SOURCE, RAW_CHANNEL_PAYLOAD, AGENT_INSTRUCTIONS, AGENT_REPLY, CHANNEL_RESPONSE,
        SUBCONSCIOUS_STEERING, COMPRESSED_HISTORY, WORLD_STATE_DIFF, CONTEXT_UTILIZATION)
"""Exactly the reference note's keys (CONTRACT §8)."""

PER_RUN = (AGENT_INSTRUCTIONS, AGENT_REPLY, CHANNEL_RESPONSE)
"""Keys that start empty in every run; the rest carry over within a thread."""

APPENDED = (MESSAGES, COMPRESSED_HISTORY)
"""Keys whose updates are appended (a list of new items), never replacing what is there."""

TIMELINE = "evolution_timeline"
DROP_OLDEST = "drop_oldest"
"""An update of an appended key (or of the timeline) may be ``{"drop_oldest": n, "append": [...]}``: the
context hook's eviction from the working state. Nothing else ever removes items."""


def initial_values() -> Values:
    """A new thread's values."""
    return {
        MESSAGES: [],
        CHANNEL_SOURCE: "",
        RAW_CHANNEL_PAYLOAD: "",
        AGENT_INSTRUCTIONS: "",
        AGENT_REPLY: "",
        CHANNEL_RESPONSE: "",
        SUBCONSCIOUS_STEERING: None,
        COMPRESSED_HISTORY: [],
        WORLD_STATE_DIFF: initial_world_diff(),
        CONTEXT_UTILIZATION: 0.0,
    }


def initial_world_diff() -> dict[str, Any]:
    return {"system_genesis": "initialized", TIMELINE: [], "terminal_state": "pending"}


class StateError(ValueError):
    """An update that names an unknown key or has the wrong shape for its key's reducer."""


def _appended(key: str, current: list[Any], value: Any) -> list[Any]:
    if isinstance(value, list):
        return current + value if value else current
    if isinstance(value, Mapping) and set(value) <= {DROP_OLDEST, "append"}:
        drop = value.get(DROP_OLDEST, 0)
        added = value.get("append", [])
        if not isinstance(drop, int) or drop < 0 or not isinstance(added, list):
            raise StateError(f"{key}: drop_oldest must be a count ≥ 0 and append a list")
        return current[drop:] + added
    raise StateError(f"{key} is appended to: its update must be a list of new items")


def _world(current: Mapping[str, Any], value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise StateError(f"{WORLD_STATE_DIFF} must be an object")
    merged = dict(current)
    for key, item in value.items():
        if key == TIMELINE:
            merged[TIMELINE] = _appended(f"{WORLD_STATE_DIFF}.{TIMELINE}", list(current.get(TIMELINE, [])), item)
        else:
            merged[key] = item
    return merged


def apply(values: Mapping[str, Any], update: Mapping[str, Any]) -> Values:
    """``values`` with ``update`` folded in: appended keys get the new items, ``world_state_diff``'s timeline
    is appended to (its other keys replaced), every other key is replaced. ``values`` is not changed.

    Raises:
        StateError: a key that is not one of :data:`KEYS`, or a value the key's reducer cannot take.
    """
    unknown = [key for key in update if key not in KEYS]
    if unknown:
        raise StateError(f"unknown state key(s): {', '.join(sorted(unknown))} (the keys are {', '.join(KEYS)})")
    folded = dict(values)
    for key, value in update.items():
        if key in APPENDED:
            folded[key] = _appended(key, list(values.get(key) or []), value)
        elif key == WORLD_STATE_DIFF:
            folded[key] = _world(values.get(key) or initial_world_diff(), value)
        else:
            folded[key] = value
    return folded


def fold(values: Mapping[str, Any], *updates: Mapping[str, Any]) -> Values:
    """All ``updates`` applied in order."""
    folded = dict(values)
    for update in updates:
        folded = apply(folded, update)
    return folded


def snapshot(values: Mapping[str, Any]) -> Values:
    """A deep copy a caller may keep or change without touching ``values``."""
    return copy.deepcopy(dict(values))

