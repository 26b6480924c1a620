"""Skip is remembered: when a recommendation counts as the same one the user already declined (issue 9, item 5)."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Sequence
from datetime import datetime

DECLINE_MEMORY_SECONDS = 24 * 3600.0
SIMILAR_RATIO = 0.85
TOKEN_OVERLAP = 0.6
_NOT_WORD = re.compile(r"[^\w]+")


def normalize(action: str) -> str:
    """Casefolded, accents and punctuation dropped, spaces collapsed: "Forward the e-mails!" → "forward the e mails"."""
    decomposed = unicodedata.normalize("NFKD", action.casefold())
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(_NOT_WORD.sub(" ", plain).split())


def is_same_recommendation(a: str, b: str) -> bool:
    """Whether two recommended actions are the same one in other words.

    Equal once normalized, or nearly equal: a similarity ratio of at least 0.85 (on the text with and without
    its spaces, so "e-mails" and "emails" match) *and* mostly the same words (a token overlap of at least
    0.6, so "write a.md" and "write b.md", close as strings, stay two different actions).
    """
    left, right = normalize(a), normalize(b)
    if not left or not right:
        return False
    if left == right:
        return True
    words_left, words_right = set(left.split()), set(right.split())
    if len(words_left & words_right) / len(words_left | words_right) < TOKEN_OVERLAP:
        return False
    return any(
        difflib.SequenceMatcher(None, x, y, autojunk=False).ratio() >= SIMILAR_RATIO
        for x, y in ((left, right), (left.replace(" ", ""), right.replace(" ", "")))
    )


def matching(action: str, declined: Sequence[tuple[str, float]]) -> tuple[str, float] | None:
    """The declined recommendation ``(action, declined_at)`` that ``action`` repeats, if any (newest first)."""
    return next((item for item in declined if is_same_recommendation(action, item[0])), None)


def when(timestamp: float) -> str:
    """A time as the user reads it: local, to the minute."""
    return datetime.fromtimestamp(timestamp).astimezone().strftime("%Y-%m-%d %H:%M")


def declined_lines(declined: Sequence[tuple[str, float]]) -> list[str]:
    """What the analysis prompt says about recommendations the user skipped."""
    return [f"- {action} (skipped {when(at)})" for action, at in declined]


def not_asked_again(action: str, declined_at: float) -> str:
    """The activity row of a recommendation that repeats one the user skipped."""
    return (f"Not asked again: you skipped this recommendation at {when(declined_at)} (“{action[:200]}”); "
            f"the assistant may ask again after {when(declined_at + DECLINE_MEMORY_SECONDS)}.")
