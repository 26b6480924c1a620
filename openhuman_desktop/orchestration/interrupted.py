"""A write call that had begun when the app stopped: what its card says when it may or may not have happened,
and the mutation of one found to have taken effect (``subagent._settle`` decides which)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from openhuman_desktop.skills.base import Mutation, Tool

FINGERPRINT_SIZE = re.compile(r"^(\d+) bytes sha256:")
UNCERTAIN_CHANGED = ("It had begun when the app stopped, and {target} has changed since in a way this call would not "
                     "have left it, so it may or may not have happened; it was not carried out again.")
UNCERTAIN_UNOBSERVABLE = ("It had begun when the app stopped, and whether it took effect cannot be checked, so it may "
                          "or may not have happened; it was not carried out again.")
"""The card's reason for a call that may or may not have happened."""


def target_words(arguments: Mapping[str, Any]) -> str:
    """The call's target in words: its path, or "its target"."""
    path = arguments.get("path")
    return repr(path) if isinstance(path, str) and path.strip() else "its target"


def settled_mutation(tool: Tool, arguments: Mapping[str, Any], before: str, after: str) -> Mutation | None:
    """The mutation of a call found to have taken effect before an interruption (its result was lost)."""
    name = tool.name
    if name.startswith("files_"):
        sizes = [int(m.group(1)) if (m := FINGERPRINT_SIZE.match(text)) else None for text in (before, after)]
        return Mutation("file_written", str(arguments.get("path", "")), "written before an interruption",
                        sizes[0], sizes[1])
    if name.startswith("memory_"):
        return Mutation("memory_stored", "memory", "stored before an interruption")
    if name.startswith("subconscious_tasks_"):
        return Mutation("task_created", str(arguments.get("title", ""))[:200], "added before an interruption")
    return None
