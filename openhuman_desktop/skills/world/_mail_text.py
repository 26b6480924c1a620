"""A mail message's readable parts: its headers, its text (plain, else HTML as text), its first words and its
attachments' names (``imap.py`` reads the messages over IMAP)."""

from __future__ import annotations

import re
from email.message import EmailMessage, Message

from openhuman_desktop.skills.world._text import html_to_text
from openhuman_desktop.skills.world._watch import clip

FIRST_WORDS = 160
"""Characters of a message's text its summary shows."""


def header_text(message: Message, name: str) -> str:
    """A header's value as text (clipped; read raw when the policy cannot parse it; empty when absent)."""
    try:
        value = message.get(name)
    except Exception:  # a malformed header the policy cannot parse: read it raw
        value = message.get_all(name, [None])[0] if hasattr(message, "get_all") else None
    return clip(str(value), 300) if value is not None else ""


_QUOTED = re.compile(r"^\s*>.*$", re.M)


def first_words(message: Message) -> str:
    """The start of the message's text (plain text preferred, else HTML as text), quoted lines left out."""
    return clip(_QUOTED.sub("", body_text(message, limit=2000)), FIRST_WORDS)


def body_text(message: Message, limit: int = 20_000) -> str:
    """The readable text of a message: its first text/plain part, else its first HTML part as text."""
    plain = html = None
    for part in message.walk() if message.is_multipart() else [message]:
        if part.is_multipart() or part.get_content_disposition() == "attachment":
            continue
        kind = part.get_content_type()
        if kind == "text/plain" and plain is None:
            plain = _payload(part)
        elif kind == "text/html" and html is None:
            html = _payload(part)
    if plain and plain.strip():
        return plain[:limit]
    if html:
        return html_to_text(html)[:limit]
    return ""


def _payload(part: Message) -> str:
    try:
        if isinstance(part, EmailMessage):
            content = part.get_content()
            return content if isinstance(content, str) else ""
    except (LookupError, ValueError, AssertionError, KeyError):
        pass
    raw = part.get_payload(decode=True)
    if isinstance(raw, bytes):
        return raw.decode(part.get_content_charset() or "utf-8", "replace")
    return ""


def attachments(message: Message) -> list[str]:
    """The names (and sizes) of a message's attachments."""
    found = []
    for part in message.walk():
        if part.get_content_disposition() == "attachment":
            raw = part.get_payload(decode=True)
            size = len(raw) if isinstance(raw, bytes) else 0
            found.append(f"{part.get_filename() or 'unnamed'} ({size} bytes)")
    return found
