"""How tool calls are described and offered: a call in a few words, a result row's tools line, a tool's spec as
the model sees it, and the caps every tool-using loop keeps (the agent's sub-agents, ``subagent.py``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from openhuman_desktop.llm.base import ToolSpec

MAX_TOOL_OUTPUT = 12_000
SHORT_ARGUMENT = 40
MAX_CALLS_PER_ANSWER = 16
"""Tool calls of one model answer that run; the rest are refused (one answer asked for 300 writes)."""


class CallLike(Protocol):
    """A tool call as a trace keeps it (``subagent.CallRecord``)."""

    @property
    def name(self) -> str: ...

    @property
    def arguments(self) -> Any: ...

    @property
    def is_error(self) -> bool: ...


def describe_call(name: str, arguments: object) -> str:
    """A tool call in a few words: its name and its path (or first short text argument), e.g.
    ``files_write (notes/todo.md)``."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return name
    if not isinstance(arguments, dict):
        return name
    value = arguments.get("path")
    if not isinstance(value, str) or not value:
        value = next((v for v in arguments.values() if isinstance(v, str) and v.strip()), None)
    if not isinstance(value, str):
        return name
    value = " ".join(value.split())
    return f"{name} ({value if len(value) <= SHORT_ARGUMENT else value[:SHORT_ARGUMENT] + '…'})"


def tools_line(calls: Sequence[CallLike]) -> str:
    """What a result row says about the tools a run used: "Tools used: …" or "No tools were used."."""
    if not calls:
        return "No tools were used."
    parts = []
    for call in calls:
        text = describe_call(call.name, call.arguments)
        if call.is_error:
            text = f"{text[:-1]}, failed)" if text.endswith(")") else f"{text} (failed)"
        parts.append(text)
    return "Tools used: " + ", ".join(parts)


# What the argument checks enforce or fill in anyway (bounds, defaults): a small model gains nothing from
# reading it, and it costs tokens in every request that offers the tool (issue 10, item 7).
_CHECKED_ONLY = frozenset({"maxLength", "minLength", "minimum", "maximum", "default"})


def compact_spec(spec: ToolSpec) -> ToolSpec:
    """``spec`` as the model is offered it: without what the argument checks enforce or fill in."""
    return ToolSpec(spec.name, spec.description, _compact(spec.parameters))


def _compact(schema: Any) -> Any:
    if not isinstance(schema, dict):
        return schema
    compact: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _CHECKED_ONLY or (key == "additionalProperties" and value is False) or (key == "required"
                                                                                          and value == []):
            continue
        if key == "properties" and isinstance(value, dict):  # argument names, not schema keywords
            compact[key] = {name: _compact(prop) for name, prop in value.items()}
        else:
            compact[key] = _compact(value)
    return compact
