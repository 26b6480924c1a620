"""The ``chat`` command's answer as a terminal shows it: the model's Markdown rendered as it streams in.

Headings and ``**bold**`` are bold, ``*italic*`` italic, ```code``` cyan, links underlined with their address
after them, bullets are "•", a quote is "│ ", a rule is a line and a fenced code block is indented — with ANSI
styles on a terminal that has them (not ``NO_COLOR``, not ``TERM=dumb``), as plain text without the markers
elsewhere (a pipe, a file). The parsing is :mod:`openhuman_desktop.markdown_text`'s, as for Telegram.

The text comes in pieces that may cut a marker in two (``**bo`` + ``ld**``): each piece's text is shown at once,
except from a marker whose other half has not come yet, which waits for it (at most to the end of its line).
"""

from __future__ import annotations

import os
import re
from typing import TextIO

from openhuman_desktop.markdown_text import BULLET, FENCE_CLOSE, FENCE_OPEN, INLINE, Rendered, render

BLOCK_CHARS = frozenset(" \t#-*+>`_=~|.)0123456789")
"""What a line may start with while it is not yet known to be a heading, bullet, quote, rule or fence."""
MARKERS = frozenset("*_`~[")
"""Characters that may open an inline span."""
LONGEST_WAIT = 2_000
"""Characters a marker may keep waiting for its other half before it is shown as written."""
RULE_WIDTH = 40

_HEADING_START = re.compile(r"^\s{0,3}#{1,6}\s+")
_QUOTE = re.compile(r"^\s{0,3}>\s?")
_RULE = re.compile(r"^\s{0,3}([-*_])(?:\s*\1){2,}\s*$")
_STYLES = {  # entity kind → (ANSI on, ANSI off)
    "bold": ("\x1b[1m", "\x1b[22m"),
    "italic": ("\x1b[3m", "\x1b[23m"),
    "strikethrough": ("\x1b[9m", "\x1b[29m"),
    "code": ("\x1b[36m", "\x1b[39m"),
    "text_link": ("\x1b[4m", "\x1b[24m"),
}
BOLD, BOLD_OFF = _STYLES["bold"]
CODE, CODE_OFF = _STYLES["code"]


def wants_ansi(out: TextIO) -> bool:
    """Whether ``out`` is a terminal that shows ANSI styles (https://no-color.org: ``NO_COLOR`` turns them off)."""
    try:
        is_terminal = out.isatty()
    except (AttributeError, ValueError):
        return False
    return is_terminal and not os.environ.get("NO_COLOR") and os.environ.get("TERM", "") != "dumb"


def styled(rendered: Rendered, *, ansi: bool) -> str:
    """``rendered``'s text with its spans as ANSI styles (or plain); a link's address follows its text."""
    opens: dict[int, list[str]] = {}
    closes: dict[int, list[str]] = {}
    for entity in rendered.entities:
        on, off = _STYLES.get(entity.kind, ("", ""))
        end = entity.offset + entity.length
        after = ""
        if entity.kind == "text_link" and entity.url and entity.url != rendered.text[entity.offset:end]:
            after = f" ({entity.url})"
        if ansi:
            opens.setdefault(entity.offset, []).append(on)
            closes.setdefault(end, []).insert(0, off + after)
        elif after:
            closes.setdefault(end, []).insert(0, after)
    out: list[str] = []
    for index, char in enumerate(rendered.text):
        out += closes.get(index, [])
        out += opens.get(index, [])
        out.append(char)
    out += closes.get(len(rendered.text), [])
    return "".join(out)


class TerminalMarkdown:
    """Renders Markdown that arrives in pieces; :meth:`feed` returns what can be shown now, :meth:`finish` the
    rest once the answer is complete.

    Args:
        ansi: ANSI styles (a terminal) or plain text.
    """

    def __init__(self, *, ansi: bool) -> None:
        self._ansi = ansi
        self._pending = ""
        self._at_line_start = True
        self._in_fence = False
        self._line_end = ""  # what closes the current line's style (a heading's bold, a code line's colour)
        self._resume = ""  # the line's style again after an inline span closed its own
        self._before = ""  # the last character of the current line already shown

    def feed(self, text: str) -> str:
        self._pending += text.replace("\r\n", "\n")
        return self._drain(final=False)

    def finish(self) -> str:
        shown = self._drain(final=True) + self._line_end
        self._line_end = self._resume = self._before = ""
        self._in_fence, self._at_line_start = False, True  # an unclosed fence ends with the answer
        return shown

    # --- the work -----------------------------------------------------------------------------------

    def _drain(self, *, final: bool) -> str:
        out: list[str] = []
        while self._pending:
            newline = self._pending.find("\n")
            line = self._pending if newline < 0 else self._pending[:newline]
            complete = newline >= 0 or final
            if self._at_line_start:
                started = self._line_start(line, complete)
                if started is None:
                    break
                shown, used = started
                out.append(shown)
                self._pending = self._pending[used:]
                continue
            shown, used = self._in_line(line, complete)
            out.append(shown)
            self._pending = self._pending[used:]
            if self._pending.startswith("\n"):
                out.append(self._line_end + "\n")
                self._line_end = self._resume = self._before = ""
                self._pending = self._pending[1:]
                self._at_line_start = True
            elif used == 0 or not complete:
                break
        return "".join(out)

    def _line_start(self, line: str, complete: bool) -> tuple[str, int] | None:
        """What a new line begins with, once it is known: (shown, characters used), or None to wait."""
        whole = len(line) + (1 if len(self._pending) > len(line) else 0)  # the line and its newline
        if self._in_fence:
            if not complete and line.strip() in ("", "`", "``", "```"):
                return None  # may be the closing fence
            if complete and FENCE_CLOSE.match(line):
                self._in_fence = False
                return "", whole
            self._at_line_start = False
            if self._ansi:
                self._line_end = CODE_OFF
                return "    " + CODE, 0
            return "    ", 0
        if not complete and all(char in BLOCK_CHARS for char in line):
            return None  # a heading, bullet, quote, rule or fence: not known yet
        if FENCE_OPEN.match(line) or (not complete and line.lstrip().startswith("```")):
            if not complete:
                return None
            self._in_fence = True
            return "", whole
        if _RULE.match(line):
            if not complete:
                return None
            return "─" * RULE_WIDTH + ("\n" if whole > len(line) else ""), whole
        self._at_line_start = False
        heading = _HEADING_START.match(line)
        if heading is not None:
            if self._ansi:
                self._line_end, self._resume = BOLD_OFF, BOLD
                return BOLD, heading.end()
            return "", heading.end()
        bullet = BULLET.match(line)
        if bullet is not None:
            return f"{bullet.group(1)}• ", bullet.end()
        quote = _QUOTE.match(line)
        if quote is not None:
            return "│ ", quote.end()
        return "", 0

    def _in_line(self, rest: str, complete: bool) -> tuple[str, int]:
        """The line's text from here: (shown, characters used); stops at a marker whose span has not ended."""
        if self._in_fence:
            return rest, len(rest)
        # The character shown just before stays in view: whether a marker opens depends on it ("2*3", "a_b").
        context = self._before
        line = context + rest
        out: list[str] = []
        position = len(context)
        while position < len(line):
            marker = next((index for index in range(position, len(line)) if line[index] in MARKERS), len(line))
            out.append(line[position:marker])
            position = marker
            if marker == len(line):
                break
            span = INLINE.match(line, marker)
            if span is not None and not complete and span.end() == len(line):
                break  # what follows decides it (``*it*`` then ``s`` is no italic)
            if span is not None:
                out.append(styled(render(span.group(0)), ansi=self._ansi) + self._resume)
                position = span.end()
            elif complete or not self._may_open(line, marker) or len(line) - marker > LONGEST_WAIT:
                out.append(line[marker])
                position = marker + 1
            else:
                break  # its other half may be on its way
        self._before = line[position - 1] if position else ""
        return "".join(out), position - len(context)

    @staticmethod
    def _may_open(line: str, at: int) -> bool:
        """Whether the marker at ``at`` may still begin a span once more text comes."""
        char = line[at]
        before = line[at - 1] if at else " "
        if char == "_":
            return not (before.isalnum() or before == "_")  # snake_case is no italic
        if char == "~":
            return at + 1 == len(line) or line[at + 1] == "~"
        if char == "*" and before.isalnum():  # 2*3: only ** may open after a letter or digit
            return at + 1 == len(line) or line[at + 1] == "*"
        return True
