"""Model Markdown as Telegram shows it: plain text plus formatting entities, split at Telegram's limit.

Why entities and not ``parse_mode``: the text is sent exactly as written and the formatting travels beside it
(offsets in UTF-16 code units, as the Bot API counts), so nothing in a model's answer — ``_*[]()~`>#+-=|{}.!``,
``<b>``, a lone backslash — can break a message or be read as markup. A part never ends inside a code block
when it can be helped; a code block longer than a whole message is cut at a line and each part is a whole
code block again.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from openhuman_desktop.markdown_text import Entity, Rendered, render

__all__ = ["MESSAGE_LIMIT", "Entity", "Rendered", "api_entities", "render", "split", "utf16_length"]

MESSAGE_LIMIT = 4096
"""Telegram's longest message, in UTF-16 code units after entity parsing."""


def utf16_length(text: str) -> int:
    """How long ``text`` is as Telegram counts (UTF-16 code units)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def split(message: Rendered, limit: int = MESSAGE_LIMIT) -> list[Rendered]:
    """Cut ``message`` into parts of at most ``limit`` UTF-16 units, at a paragraph or line where possible
    (never inside a code block unless the block alone is too long), each part with its own entities."""
    parts: list[Rendered] = []
    text, entities = message.text, list(message.entities)
    while utf16_length(text) > limit:
        cut = _cut_point(text, entities, limit)
        head, tail = text[:cut].rstrip("\n"), text[cut:]
        stripped = len(tail) - len(tail.lstrip("\n"))
        parts.append(Rendered(head, tuple(_clip(entities, 0, len(head)))))
        entities = _clip(entities, cut + stripped, len(text), shift=cut + stripped)
        text = tail[stripped:]
    if text.strip():
        parts.append(Rendered(text, tuple(entities)))
    return [part for part in parts if part.text.strip()]


def api_entities(message: Rendered) -> list[dict[str, Any]]:
    """The Bot API's ``entities`` (offsets and lengths in UTF-16 code units)."""
    out = []
    for entity in message.entities:
        start = utf16_length(message.text[:entity.offset])
        length = utf16_length(message.text[entity.offset:entity.offset + entity.length])
        item: dict[str, Any] = {"type": entity.kind, "offset": start, "length": length}
        if entity.language:
            item["language"] = entity.language
        if entity.url:
            item["url"] = entity.url
        out.append(item)
    return out


def _cut_point(text: str, entities: list[Entity], limit: int) -> int:
    """Where to cut: the last paragraph break, else line break, outside code blocks, within ``limit``."""
    units = most = 0
    for char in text:  # characters beyond the BMP count twice
        units += 2 if ord(char) > 0xFFFF else 1
        if units > limit:
            break
        most += 1
    blocks = [(e.offset, e.offset + e.length) for e in entities if e.kind == "pre"]

    def outside(cut: int) -> bool:
        return not any(start < cut < end for start, end in blocks)

    floor = max(1, most // 4)  # a cut this early would make many tiny parts: rather cut a block
    for separator in ("\n\n", "\n"):
        position = text.rfind(separator, 0, most)
        while position >= floor:
            cut = position + len(separator)
            if outside(cut) and outside(position):
                return cut
            position = text.rfind(separator, 0, position)
    for separator in ("\n", " "):
        position = text.rfind(separator, floor, most)
        if position >= floor:
            return position + 1
    return most


def _clip(entities: list[Entity], start: int, end: int, shift: int = 0) -> list[Entity]:
    out = []
    for entity in entities:
        low, high = max(entity.offset, start), min(entity.offset + entity.length, end)
        if high > low:
            out.append(replace(entity, offset=low - shift, length=high - low))
    return out
