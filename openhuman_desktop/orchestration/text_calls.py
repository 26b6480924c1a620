"""Tool calls written as text: what small models on servers without native tool calls answer instead.

A llama.cpp server (and many small models elsewhere) returns a tool call as plain text: a JSON object such
as ``{"name": "files_read", "arguments": {"path": "notes.md"}}`` (maybe in a code fence, maybe a list, with
``parameters`` or a ``function`` wrapper), or Qwen/Hermes-style ``<tool_call>{…}</tool_call>`` blocks.

Text counts as calls only when it is nothing but the call(s), or the calls are inside ``<tool_call>`` tags;
a call mentioned in prose is never one, and neither is text that repeats what a tool returned or what the
prompt quoted (a file that holds a tool call must not become one).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from openhuman_desktop.llm.base import ToolCall

_TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|\Z)", re.DOTALL)
_FENCE = re.compile(r"\A```[A-Za-z0-9_-]*\s*\n?(.*?)\n?\s*```\Z", re.DOTALL)
_PREFIXES = ("<|python_tag|>", "[TOOL_CALLS]")
_NAME = re.compile(r"\A[A-Za-z_][A-Za-z0-9_.-]{0,63}\Z")
_CALL_KEYS = frozenset({"name", "arguments", "parameters", "type", "id"})
_WRAPPER_KEYS = frozenset({"function", "type", "id"})


def text_tool_calls(content: str, quoted: Iterable[str] = ()) -> tuple[ToolCall, ...]:
    """The tool calls ``content`` consists of, or ``()`` when it is an answer in words.

    Args:
        content: the model's text.
        quoted: texts the model may be repeating (tool results, the prompt): a call found in one of them
            is data, not a call.
    """
    text = content.strip()
    if not text:
        return ()
    sources = [" ".join(q.split()) for q in quoted if q]
    if "<tool_call>" in text:
        calls: list[ToolCall] = []
        for match in _TAGGED.finditer(text):
            body = match.group(1).strip()
            if not body or _is_quoted(body, sources):
                continue
            calls.extend(_parse(_unfence(body), wrapped=True))
        return tuple(calls)
    for prefix in _PREFIXES:
        text = text.removeprefix(prefix).strip()
    text = _unfence(text)
    if not text.startswith(("{", "[")) or _is_quoted(text, sources):
        return ()
    return tuple(_parse(text, wrapped=False))


def _is_quoted(text: str, sources: Sequence[str]) -> bool:
    flat = " ".join(text.split())
    return any(flat in source for source in sources)


def _unfence(text: str) -> str:
    match = _FENCE.match(text)
    return match.group(1).strip() if match else text


def _parse(text: str, *, wrapped: bool) -> list[ToolCall]:
    """Every item must be a call; one item that is not makes the whole text an answer."""
    try:
        value = json.loads(text)
    except ValueError:
        return []
    if isinstance(value, dict) and set(value) == {"tool_calls"} and isinstance(value["tool_calls"], list):
        value, wrapped = value["tool_calls"], True
    items = value if isinstance(value, list) else [value]
    calls = [_call(item, wrapped=wrapped) for item in items]
    if not items or any(call is None for call in calls):
        return []
    return [call for call in calls if call is not None]


def _call(item: Any, *, wrapped: bool) -> ToolCall | None:
    if not isinstance(item, dict):
        return None
    if isinstance(item.get("function"), dict):
        if set(item) - _WRAPPER_KEYS:
            return None
        item, wrapped = item["function"], True
    if set(item) - _CALL_KEYS:
        return None
    name = item.get("name")
    if not isinstance(name, str) or not _NAME.match(name):
        return None
    key = "arguments" if "arguments" in item else "parameters" if "parameters" in item else None
    if key is None and not wrapped:
        return None  # {"name": "Alex"} is a person, not a call
    arguments = item.get(key) if key else None
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except ValueError:
            return None
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return None
    return ToolCall(name, arguments)
