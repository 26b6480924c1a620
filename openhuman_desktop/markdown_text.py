"""Markdown as a model writes it, parsed into plain text and formatting spans (what Telegram and the terminal
``chat`` show instead of raw ``**stars**``).

Understood: fenced code blocks (an unclosed one runs to the end: a streamed answer mid-block), inline code,
bold (``**`` or ``__``), italic, strikethrough, links, headings (bold) and bullets (•); anything else stays as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

FENCE_OPEN = re.compile(r"^\s*```\s*([\w+#.-]*)\s*$")
FENCE_CLOSE = re.compile(r"^\s*```\s*$")
HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
BULLET = re.compile(r"^(\s*)[-*+]\s+(?=\S)")
INLINE = re.compile(
    r"(?P<code>`[^`\n]+`)"
    r"|(?P<link>\[[^\]\n]+\]\((?:https?|tg)://[^)\s]+\))"
    r"|(?P<bold>\*\*(?=\S).+?(?<=\S)\*\*)"
    r"|(?P<bold2>(?<![\w_])__(?=[^\s_]).+?(?<=[^\s_])__(?![\w_]))"
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
        fence = FENCE_OPEN.match(line)
        if fence is not None:
            end = next((k for k in range(index + 1, len(lines)) if FENCE_CLOSE.match(lines[k])), len(lines))
            code = "\n".join(lines[index + 1:end])
            if code:
                builder.add(code, Entity("pre", 0, 0, language=fence.group(1) or None))
            index = end + 1
            continue
        heading = HEADING.match(line)
        if heading is not None:
            start, first = len(builder.text), len(builder.entities)
            _inline(builder, heading.group(1))
            _wrap(builder, Entity("bold", start, 0), first)
        else:
            bullet = BULLET.match(line)
            if bullet is not None:
                builder.add(f"{bullet.group(1)}• ")
                line = line[bullet.end():]
            _inline(builder, line)
        index += 1
    return Rendered(builder.text, tuple(e for e in builder.entities if e.length > 0))


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
    for match in INLINE.finditer(line):
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
            inner, name = {"bold": (token[2:-2], "bold"), "bold2": (token[2:-2], "bold"),
                           "strike": (token[2:-2], "strikethrough"),
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
