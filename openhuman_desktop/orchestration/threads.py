"""Thread ids: the one rule RPC, the channels and the agent share for what a conversation's id may be
(``<channel>`` or ``<channel>:<name>``)."""

from __future__ import annotations

import unicodedata

from openhuman_desktop import channel_names
from openhuman_desktop.errors import InvalidInput

CHANNEL_SOURCES = channel_names.SOURCES
MAX_THREAD_ID = 200
THREAD_FORMS = "desktop, cli, cli:<name>, webapp:<session>, telegram:<chat_id> or subconscious:<task_id>"


def thread_source(thread_id: object, param: str = "thread_id") -> str:
    """The channel source of a well-formed thread id (the part before ``:``): what RPC, the channels and the
    agent all accept, so a thread one of them takes is never refused by another.

    Raises:
        InvalidInput: not a string, empty, longer than :data:`MAX_THREAD_ID` characters, with control or
            invisible characters or spaces around it, not starting with a channel's name, or with nothing
            after its ``:``.
    """
    if not isinstance(thread_id, str) or not thread_id:
        raise InvalidInput(param, "must be a non-empty string")
    if len(thread_id) > MAX_THREAD_ID:
        raise InvalidInput(param, f"is {len(thread_id)} characters long; the limit is {MAX_THREAD_ID}")
    if any(unicodedata.category(char) in ("Cc", "Cf", "Cs", "Zl", "Zp") for char in thread_id):
        raise InvalidInput(param, "must not contain control or invisible characters")
    if thread_id != thread_id.strip():
        raise InvalidInput(param, "must not start or end with spaces")
    source, colon, rest = thread_id.partition(":")
    if source not in CHANNEL_SOURCES or (colon and not rest.strip()):
        raise InvalidInput(param, f"must be {THREAD_FORMS}; {thread_id[:60]!r} names no channel")
    return source
