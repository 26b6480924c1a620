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


MARK = "RECOMMENDED ACTION:"
_LEAD = " \t*_#>-"   # what may come before the mark on its line (Markdown: bold, a heading, a quote, a bullet)
_BLANK_LINES = re.compile(r"\n{3,}")
GO_AHEAD_FIRST = "That needs your go-ahead first."
"""A chat answer that was nothing but the protocol line: its card says the rest."""


def _is_protocol_line(line: str) -> bool:
    return line.lstrip(_LEAD).startswith(MARK)


def drop_recommendation_lines(text: str) -> str:
    """``text`` without its ``RECOMMENDED ACTION:`` lines (each with its line break), nothing else changed."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    return "".join(line for line in lines if not _is_protocol_line(line))


def without_recommendation(text: str) -> str:
    """A chat answer as a person reads it: the protocol line goes (the approval card shows the action), and
    the blank lines around it with it. Text without the line is returned as it is."""
    if MARK not in text:
        return text
    return _BLANK_LINES.sub("\n\n", drop_recommendation_lines(text)).strip()


class RecommendationFilter:
    """Streams an answer without its ``RECOMMENDED ACTION:`` lines: the start of a line is held back while it
    may still become that line, and such a line is dropped up to its line break.

    What comes out of :meth:`feed` and :meth:`end` together is ``drop_recommendation_lines`` of what went in,
    however the text was cut into pieces.
    """

    def __init__(self) -> None:
        self._held = ""            # the start of a line that may still become the protocol line
        self._state = "start"      # "start" of a line, "pass" the rest of a line, "drop" the rest of a line

    def feed(self, piece: str) -> str:
        """What of ``piece`` (and what was held back) can be shown now."""
        text, self._held = self._held + piece, ""
        out: list[str] = []
        while text:
            newline = text.find("\n")
            if self._state != "start":
                if newline < 0:
                    if self._state == "pass":
                        out.append(text)
                    break
                if self._state == "pass":
                    out.append(text[:newline + 1])
                text, self._state = text[newline + 1:], "start"
                continue
            line = text if newline < 0 else text[:newline]
            rest = line.lstrip(_LEAD)
            if rest.startswith(MARK):
                self._state = "drop"
            elif newline < 0 and MARK.startswith(rest):
                self._held = text       # "**RECOMM…": wait for more
                break
            else:
                self._state = "pass"
        return "".join(out)

    def end(self) -> str:
        """The stream is over: what was held back (it never became the protocol line)."""
        held, self._held = self._held, ""
        return "" if _is_protocol_line(held) else held
