"""Model Markdown as Telegram shows it: plain text plus formatting entities, split at Telegram's limit.

Why entities and not ``parse_mode``: the text is sent exactly as written and the formatting travels beside it
(offsets in UTF-16 code units, as the Bot API counts), so nothing in a model's answer — ``_*[]()~`>#+-=|{}.!``,
``<b>``, a lone backslash — can break a message or be read as markup. A part never ends inside a code block
when it can be helped; a code block longer than a whole message is cut at a line and each part is a whole
code block again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

MESSAGE_LIMIT = 4096
"""Telegram's longest message, in UTF-16 code units after entity parsing."""

_FENCE_OPEN = re.compile(r"^\s*```\s*([\w+#.-]*)\s*$")
_FENCE_CLOSE = re.compile(r"^\s*```\s*$")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(?=\S)")
_INLINE = re.compile(
    r"(?P<code>`[^`\n]+`)"
    r"|(?P<link>\[[^\]\n]+\]\((?:https?|tg)://[^)\s]+\))"
    r"|(?P<bold>\*\*(?=\S).+?(?<=\S)\*\*)"
    r"|(?P<strike>~~(?=\S).+?(?<=\S)~~)"
    r"|(?P<italic>(?<![\w*])\*(?=[^\s*]).*?(?<=[^\s*])\*(?![\w*]))"
    r"|(?P<under>(?<![\w_])_(?=[^\s_]).*?(?<=[^\s_])_(?![\w_]))"
)
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")


@dataclass(frozen=True)
class Entity:
    """A formatted stretch of :attr:`Rendered.text`, in Python characters (:func:`api_entities` converts).

    ``kind`` is the Bot API's entity type (``bold``, ``italic``, ``strikethrough``, ``code``, ``pre``,
    ``text_link``).
    """

    kind: str
    offset: int
    length: int
    language: str | None = None
    url: str | None = None


@dataclass(frozen=True)
class Rendered:
    """A message as Telegram gets it: the text and its entities."""

    text: str
    entities: tuple[Entity, ...] = ()


def utf16_length(text: str) -> int:
    """How long ``text`` is as Telegram counts (UTF-16 code units)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def render(markdown: str) -> Rendered:
    """Turn the Markdown a model writes into text and entities.

    Fenced code blocks (an unclosed one runs to the end: a streamed answer mid-block), inline code, bold,
    italic, strikethrough, links, headings (bold) and bullets (•) are understood; anything else stays as written.
    """
    builder = _Builder()
    lines = markdown.replace("\r\n", "\n").split("\n")
    index = 0
    while index < len(lines):
        if index:
            builder.add("\n")
        line = lines[index]
        fence = _FENCE_OPEN.match(line)
        if fence is not None:
            end = next((k for k in range(index + 1, len(lines)) if _FENCE_CLOSE.match(lines[k])), len(lines))
            code = "\n".join(lines[index + 1:end])
            if code:
                builder.add(code, Entity("pre", 0, 0, language=fence.group(1) or None))
            index = end + 1
            continue
        heading = _HEADING.match(line)
        if heading is not None:
            start, first = len(builder.text), len(builder.entities)
            _inline(builder, heading.group(1))
            _wrap(builder, Entity("bold", start, 0), first)
        else:
            bullet = _BULLET.match(line)
            if bullet is not None:
                builder.add(f"{bullet.group(1)}• ")
                line = line[bullet.end():]
            _inline(builder, line)
        index += 1
    return Rendered(builder.text, tuple(e for e in builder.entities if e.length > 0))


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


class _Builder:
    def __init__(self) -> None:
        self.text = ""
        self.entities: list[Entity] = []

    def add(self, text: str, entity: Entity | None = None) -> None:
        if entity is not None:
            self.entities.append(replace(entity, offset=len(self.text), length=len(text)))
        self.text += text


def _inline(builder: _Builder, line: str) -> None:
    position = 0
    for match in _INLINE.finditer(line):
        builder.add(line[position:match.start()])
        token, kind = match.group(0), match.lastgroup
        start, first = len(builder.text), len(builder.entities)
        if kind == "code":
            builder.add(token[1:-1], Entity("code", 0, 0))
        elif kind == "link":
            link = _LINK.fullmatch(token)
            assert link is not None
            _inline(builder, link.group(1))
            _wrap(builder, Entity("text_link", start, 0, url=link.group(2)), first)
        else:
            inner, name = {"bold": (token[2:-2], "bold"), "strike": (token[2:-2], "strikethrough"),
                           "italic": (token[1:-1], "italic"), "under": (token[1:-1], "italic")}[kind or ""]
            _inline(builder, inner)
            _wrap(builder, Entity(name, start, 0), first)
        position = match.end()
    builder.add(line[position:])


def _wrap(builder: _Builder, outer: Entity, first: int) -> None:
    """Add ``outer`` from its offset to the end of the text so far, around the code spans made since entity
    ``first``: Telegram lets nothing contain (or be contained in) ``code``."""
    end = len(builder.text)
    position = outer.offset
    for inner in sorted((e for e in builder.entities[first:] if e.kind == "code"), key=lambda e: e.offset):
        if inner.offset > position:
            builder.entities.append(replace(outer, offset=position, length=inner.offset - position))
        position = max(position, inner.offset + inner.length)
    if end > position:
        builder.entities.append(replace(outer, offset=position, length=end - position))


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
