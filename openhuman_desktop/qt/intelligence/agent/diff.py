"""A readable diff between two versions of the steering directive: words added and removed, in place."""

from __future__ import annotations

import difflib
import html
import re
from dataclasses import dataclass

EQUAL = "equal"
INSERT = "insert"
DELETE = "delete"

_TOKENS = re.compile(r"\s+|\w+|[^\w\s]")
NO_CHANGES = "The two versions have the same text."


@dataclass(frozen=True)
class Piece:
    """A run of text that both versions share (``equal``), or that only the newer (``insert``) or only the
    older (``delete``) has."""

    op: str
    text: str


def word_diff(old: str, new: str) -> list[Piece]:
    """The pieces that turn ``old`` into ``new``, word by word (a changed word shows as removed + added)."""
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    pieces: list[Piece] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            _add(pieces, EQUAL, "".join(a[i1:i2]))
            continue
        if tag in ("delete", "replace"):
            _add(pieces, DELETE, "".join(a[i1:i2]))
        if tag in ("insert", "replace"):
            _add(pieces, INSERT, "".join(b[j1:j2]))
    return pieces


def _add(pieces: list[Piece], op: str, text: str) -> None:
    if not text:
        return
    if pieces and pieces[-1].op == op:
        pieces[-1] = Piece(op, pieces[-1].text + text)
    else:
        pieces.append(Piece(op, text))


def _words(text: str) -> int:
    return len(re.findall(r"\w+", text))


def diff_summary(pieces: list[Piece]) -> str:
    """``"4 words added, 2 removed"`` (or :data:`NO_CHANGES`)."""
    added = sum(_words(p.text) for p in pieces if p.op == INSERT)
    removed = sum(_words(p.text) for p in pieces if p.op == DELETE)
    if not added and not removed:
        changed = any(p.op != EQUAL for p in pieces)
        return "Only punctuation or spacing changed." if changed else NO_CHANGES
    parts = []
    if added:
        parts.append(f"{added} word{'s' if added != 1 else ''} added")
    if removed:
        parts.append(f"{removed} {'word' if removed == 1 else 'words'} removed" if not added else f"{removed} removed")
    return ", ".join(parts)


def diff_plain(pieces: list[Piece]) -> str:
    """The diff as plain text for screen readers and the clipboard: ``[-removed-]{+added+}``."""
    out = []
    for piece in pieces:
        if piece.op == INSERT:
            out.append(f"{{+{piece.text}+}}")
        elif piece.op == DELETE:
            out.append(f"[-{piece.text}-]")
        else:
            out.append(piece.text)
    return "".join(out)


def diff_html(pieces: list[Piece], *, added: str, removed: str, added_fill: str, removed_fill: str) -> str:
    """The diff as rich text: added words underlined on a green tint, removed ones struck through on a
    coral tint (the lines say it too, not only the colours). Colours are CSS colour strings."""
    out = []
    for piece in pieces:
        text = html.escape(piece.text).replace("\n", "<br>")
        if piece.op == INSERT:
            out.append(f'<span style="color:{added}; background-color:{added_fill}; text-decoration:underline">'
                       f"{text}</span>")
        elif piece.op == DELETE:
            out.append(f'<span style="color:{removed}; background-color:{removed_fill}; '
                       f'text-decoration:line-through">{text}</span>')
        else:
            out.append(text)
    return "".join(out)
