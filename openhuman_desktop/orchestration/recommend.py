"""The ``RECOMMENDED ACTION:`` line of an analysis-only answer, and when it names a real action."""

from __future__ import annotations

import logging
import re

log = logging.getLogger(__name__)

RECOMMENDED = re.compile(r"^\s*(?:[*_#>-]+\s*)?RECOMMENDED ACTION:\s*(.+?)\s*$", re.MULTILINE)

# What a model writes after "RECOMMENDED ACTION:" when it copies an instruction (this one or the old
# template "<the action, specific enough to carry out>") or means "nothing".
_PLACEHOLDERS = ("<", "specific enough to carry out", "says exactly what to change", "which file or message",
                 "what to put in it", "one concrete change", "describe the")
_PLACEHOLDER_START = re.compile(r"^(the|an|your)\s+(recommended\s+)?action\b", re.I)
_NOTHING = re.compile(r"^(none|n/?a|nothing|no action( is)?( needed| required| necessary)?|no change( needed)?|"
                      r"not needed|-+)[.!]?$", re.I)


def recommended_action(text: str) -> str | None:
    """The action after the first ``RECOMMENDED ACTION:`` line, if any and if it is a real one.

    A placeholder (the instruction echoed back, ``<…>``, "the action") or "none" is no action.
    """
    match = RECOMMENDED.search(text)
    if not match:
        return None
    action = match.group(1).strip().strip("*_ ").strip()
    if not action or _NOTHING.match(action):
        return None
    lowered = action.lower()
    if any(marker in lowered for marker in _PLACEHOLDERS) or _PLACEHOLDER_START.match(action):
        log.info("a placeholder recommendation was ignored")
        return None
    return action
