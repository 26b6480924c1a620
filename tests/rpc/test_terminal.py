"""The terminal ``chat``'s Markdown: no raw ``**stars**``, the same text however the answer was cut into pieces, and
nothing held back but a marker whose other half has not come yet."""

from __future__ import annotations

import io
import random

import pytest

from openhuman_desktop.rpc.terminal import TerminalMarkdown, wants_ansi

ANSWER = """# Your week **at a glance**
Three things need you:
- Pay the *electricity* bill (due `Friday`)
- Call [Sam](https://example.org/sam) about the __garden__
* Water the plants

> Anna said: *keep it short*.

1. First, snake_case_name and 2*3*4 stay as written, ~so does a tilde~ and ~~this~~ is struck.
---
```python
print("**not bold** in code")
```
That is all."""

PLAIN = """Your week at a glance
Three things need you:
• Pay the electricity bill (due Friday)
• Call Sam (https://example.org/sam) about the garden
• Water the plants

│ Anna said: keep it short.

1. First, snake_case_name and 2*3*4 stay as written, ~so does a tilde~ and this is struck.
────────────────────────────────────────
    print("**not bold** in code")
That is all."""


def rendered(pieces: list[str], *, ansi: bool = False) -> tuple[str, list[str]]:
    renderer = TerminalMarkdown(ansi=ansi)
    shown = [renderer.feed(piece) for piece in pieces]
    shown.append(renderer.finish())
    return "".join(shown), shown


def test_an_answer_is_shown_without_its_markers() -> None:
    assert rendered([ANSWER])[0] == PLAIN


@pytest.mark.parametrize("seed", range(60))
def test_any_cut_into_pieces_shows_the_same(seed: int) -> None:
    rng = random.Random(seed)
    pieces, at = [], 0
    while at < len(ANSWER):
        size = rng.choice([1, 1, 2, 3, 5, 8, 40])
        pieces.append(ANSWER[at:at + size])
        at += size
    assert rendered(pieces)[0] == PLAIN
    assert rendered(pieces, ansi=True)[0] == rendered([ANSWER], ansi=True)[0]


def test_only_a_marker_whose_other_half_has_not_come_waits() -> None:
    _, shown = rendered(["Hello **wor", "ld** and 2*", "3 is six, snake_", "case\n", "- item"])
    assert shown == ["Hello ", "world and 2", "*3 is six, snake_", "case\n", "• item", ""]


def test_on_a_terminal_the_markers_become_styles() -> None:
    text, _ = rendered(["# Plan\n**bold**, *it*, `code` and [a](https://a.example)"], ansi=True)
    assert text == ("\x1b[1mPlan\x1b[22m\n\x1b[1mbold\x1b[22m, \x1b[3mit\x1b[23m, \x1b[36mcode\x1b[39m and "
                    "\x1b[4ma\x1b[24m (https://a.example)")


def test_styles_only_for_a_terminal_that_wants_them(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert wants_ansi(Tty()) and not wants_ansi(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_ansi(Tty())
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "dumb")
    assert not wants_ansi(Tty())
