"""How an MCP server's tools look to the model and the gate: names, read or write, results as capped text."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

MAX_TOOL_NAME = 64
SEPARATOR = "__"
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
MAX_DESCRIPTION_CHARS = 600
"""Of a server's description of a tool, what the model sees (a long one costs every request that offers it)."""
MAX_RESULT_TOKENS = 2_000
"""A call's result as the model sees it; the rest is cut with a note."""
_CHARS_PER_TOKEN_CEILING = 8
READ = "read"
WRITE = "write"


class TokenCount(Protocol):
    """Counts and cuts text in tokens (``llm.tokens.TokenCounter``)."""

    def count(self, text: str) -> int:
        ...

    def truncate(self, text: str, max_tokens: int) -> str:
        ...


@dataclass(frozen=True)
class ListedTool:
    """A tool as the server listed it (its own words; none of it is trusted)."""

    name: str
    title: str
    description: str
    input_schema: Mapping[str, Any]
    read_only_hint: bool = False
    idempotent_hint: bool = False


@dataclass(frozen=True)
class ToolView:
    """A listed tool as this app treats it: the name the model sees, read or write, offered or not."""

    listed: ListedTool
    model_name: str
    access: str
    disabled: bool

    @property
    def writes(self) -> bool:
        return self.access == WRITE


def access_of(tool: ListedTool, read_tools: Sequence[str], write_tools: Sequence[str]) -> str:
    """``write`` unless the server marks the tool ``readOnlyHint`` or the person lists it in ``read_tools``;
    ``write_tools`` wins over both (CONTRACT §12.1). A description never changes this."""
    if tool.name in write_tools:
        return WRITE
    if tool.read_only_hint or tool.name in read_tools:
        return READ
    return WRITE


def model_names(server: str, tools: Sequence[str], taken: set[str] | None = None) -> list[str]:
    """``SERVER__TOOL`` for each tool: characters outside ``[A-Za-z0-9_-]`` become ``_``, at most 64
    characters, unique (among themselves and ``taken``, which gains them)."""
    taken = set() if taken is None else taken
    names = []
    for tool in tools:
        base = _UNSAFE.sub("_", f"{server}{SEPARATOR}{tool}")[:MAX_TOOL_NAME]
        name, number = base, 2
        while name in taken:
            suffix = f"_{number}"
            name = base[:MAX_TOOL_NAME - len(suffix)] + suffix
            number += 1
        taken.add(name)
        names.append(name)
    return names


def views(server: str, listed: Sequence[ListedTool], read_tools: Sequence[str], write_tools: Sequence[str],
          disabled_tools: Sequence[str], taken: set[str] | None = None) -> list[ToolView]:
    """Every listed tool with its model name, access and whether the person disabled it."""
    names = model_names(server, [tool.name for tool in listed], taken)
    return [ToolView(tool, name, access_of(tool, read_tools, write_tools), tool.name in disabled_tools)
            for tool, name in zip(listed, names, strict=True)]


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]")
"""Control characters (newline and tab excepted), and the invisible ones that hide or reorder text."""


def clean_text(text: str, limit: int) -> str:
    """A server's text for a prompt: control characters dropped (newlines kept), at most ``limit`` characters."""
    kept = _CONTROL.sub("", text[:limit * 2]).strip()
    return kept if len(kept) <= limit else kept[:limit].rstrip() + "…"


def model_description(server: str, tool: ListedTool) -> str:
    """What the model reads about a tool: whose it is, then the server's own (untrusted, capped) words."""
    words = clean_text(tool.description or tool.title, MAX_DESCRIPTION_CHARS)
    return f"[{server}] {words}" if words else f"[{server}] {tool.name}"


def model_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The input schema the model sees: an object schema, whatever the server sent."""
    if not isinstance(schema, Mapping) or schema.get("type") != "object":
        return {"type": "object", "properties": {}}
    return dict(schema)


_TARGET_KEYS = ("path", "file", "filename", "file_path", "filepath", "uri", "url", "destination", "target", "to",
                "repo_path", "name", "id", "key", "title")
MAX_TARGET_CHARS = 200


def call_target(arguments: Mapping[str, Any]) -> str | None:
    """What a call acts on, from its arguments: the first of the usual keys (path, uri, to …), else the first
    short text argument; None when it names nothing."""
    for key in _TARGET_KEYS:
        value = arguments.get(key)
        if isinstance(value, str) and value.strip():
            return clean_text(" ".join(value.split()), MAX_TARGET_CHARS)
    for value in arguments.values():
        if isinstance(value, str) and value.strip() and len(value) <= MAX_TARGET_CHARS:
            return clean_text(" ".join(value.split()), MAX_TARGET_CHARS)
    return None


def cap_tokens(text: str, tokens: TokenCount, limit: int = MAX_RESULT_TOKENS) -> str:
    """``text`` cut to ``limit`` tokens with a note saying how much was left out (CPU-bound: off the loop)."""
    if len(text) <= limit:  # a token is at least one character
        return text
    head = text[:limit * _CHARS_PER_TOKEN_CEILING]
    if len(head) == len(text) and tokens.count(text) <= limit:
        return text
    kept = tokens.truncate(head, limit)
    return (f"{kept.rstrip()}\n[The result was cut to {limit:,} tokens of its {len(text):,} characters; ask for "
            "less (a narrower query or a range) if the rest matters.]")


def json_text(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


@dataclass(frozen=True)
class ListedToolInfo:
    """A tool of the server for the Skills tab and ``skills_list``."""

    name: str
    title: str
    access: str
    description: str
    disabled: bool
