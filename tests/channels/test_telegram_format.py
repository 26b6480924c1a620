"""Model Markdown as Telegram text + entities, split at the limit; and the token redactor for log records."""

from __future__ import annotations

import logging
import random
import subprocess
import sys
from pathlib import Path

import pytest

from openhuman_desktop.channels.telegram_base import REDACTED, TokenRedactor
from openhuman_desktop.channels.telegram_format import (
    Rendered,
    api_entities,
    render,
    split,
    utf16_length,
)
from tests.fakes.telegram_api import entity_problem

NASTY = "_*[]()~`>#+-=|{}.! <b>x</b> & \\ snake_case_name 2*3*4 a_b_c"


def spans(message: Rendered) -> set[tuple[str, str]]:
    return {(e.kind, message.text[e.offset:e.offset + e.length]) for e in message.entities}


def test_nasty_text_stays_exactly_as_written() -> None:
    rendered = render(NASTY)
    assert rendered.text == NASTY and rendered.entities == ()


def test_markdown_becomes_entities() -> None:
    rendered = render("# Plan\n**bold** *it* _also it_ ~~gone~~ `x<y` [site](https://example.org/a)\n- one\n* two")
    assert rendered.text == "Plan\nbold it also it gone x<y site\n• one\n• two"
    assert spans(rendered) == {("bold", "Plan"), ("bold", "bold"), ("italic", "it"), ("italic", "also it"),
                               ("strikethrough", "gone"), ("code", "x<y"), ("text_link", "site")}
    [link] = [e for e in rendered.entities if e.kind == "text_link"]
    assert link.url == "https://example.org/a"


def test_code_blocks_keep_their_text_and_language_and_an_unclosed_one_runs_to_the_end() -> None:
    rendered = render("Run:\n```bash\necho **not bold** `x`\n```\nafter")
    assert rendered.text == "Run:\necho **not bold** `x`\nafter"
    assert spans(rendered) == {("pre", "echo **not bold** `x`")}
    assert rendered.entities[0].language == "bash"
    streaming = render("Run:\n```py\nprint(1)")
    assert spans(streaming) == {("pre", "print(1)")}


def test_entity_offsets_count_utf16_units() -> None:
    rendered = render("🎉 **yes**")
    [entity] = api_entities(rendered)
    assert (entity["offset"], entity["length"]) == (3, 3)  # the emoji is two UTF-16 units, then a space


@pytest.mark.parametrize("limit", [50, 100, 4096])
def test_split_keeps_every_part_within_the_limit_and_loses_nothing(limit: int) -> None:
    text = "\n\n".join(f"Paragraph {i} " + "word " * (i * 7) for i in range(40)) + " 🎉" * 30
    parts = split(render(text), limit)
    assert all(0 < utf16_length(p.text) <= limit for p in parts)
    assert "".join(p.text for p in parts).replace("\n", "").replace(" ", "") == \
        text.replace("\n", "").replace(" ", "")


def test_split_does_not_cut_a_code_block_that_fits_in_a_part() -> None:
    code = "\n".join(f"line {i}" for i in range(30))
    text = "intro " * 30 + f"\n\n```\n{code}\n```\n\noutro"
    parts = split(render(text), 300)
    [holder] = [p for p in parts if any(e.kind == "pre" for e in p.entities)]
    assert spans(holder) == {("pre", code)}


def test_a_code_block_longer_than_a_part_becomes_whole_code_blocks() -> None:
    code = "\n".join(f"value_{i} = {i}" for i in range(100))
    parts = split(render(f"```python\n{code}\n```"), 400)
    assert len(parts) > 2
    for part in parts:
        [pre] = part.entities
        assert (pre.kind, pre.offset, pre.length, pre.language) == ("pre", 0, len(part.text), "python")
    assert "\n".join(p.text for p in parts) == code


def test_the_redactor_takes_the_token_out_of_messages_arguments_and_tracebacks(
    caplog: pytest.LogCaptureFixture,
) -> None:
    token = "123456789:AAsecretsecretsecretsecret"
    redactor = TokenRedactor(token)
    caplog.handler.addFilter(redactor)
    logger = logging.getLogger("some.library")
    try:
        logger.warning("POST https://api.telegram.org/bot%s/getMe failed", token)
        logger.warning("GET /bot123456789%%3A%s/getUpdates", token.partition(":")[2])
        try:
            raise RuntimeError(f"The token `{token}` was rejected by the server.")
        except RuntimeError:
            logger.exception("failure")
    finally:
        caplog.handler.removeFilter(redactor)
    assert token not in caplog.text and token.partition(":")[2] not in caplog.text
    assert f"bot{REDACTED}/getMe" in caplog.text and f"`{REDACTED}`" in caplog.text


def test_the_app_does_not_load_python_telegram_bot_until_telegram_is_enabled() -> None:
    # Importing PTB made every start-up (and the window's first paint) tens of ms slower.
    code = ("import sys, openhuman_desktop.bootstrap, openhuman_desktop.doctor; "
            "print('telegram' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.stdout.strip() == "False"


def test_nothing_contains_code_because_telegram_refuses_that() -> None:
    rendered = render("**see `x` here** and [the `y` link](https://example.org) # not a heading\n# Use `z`")
    assert rendered.text == "see x here and the y link # not a heading\nUse z"
    assert spans(rendered) == {("bold", "see "), ("code", "x"), ("bold", " here"), ("text_link", "the "),
                               ("code", "y"), ("text_link", " link"), ("bold", "Use "), ("code", "z")}


def test_random_markdown_always_gives_entities_telegram_accepts() -> None:
    pieces = ["**", "*", "_", "`", "~~", "[", "](https://example.org)", "```", "```py", "\n", "\n\n", " ", "# ",
              "- ", "word", "snake_case", "🎉", "<b>", "\\", ">", "x" * 40]
    chooser = random.Random(12)
    for _ in range(400):
        text = "".join(chooser.choice(pieces) for _ in range(chooser.randint(1, 80)))
        for limit in (4096, 60):
            for part in split(render(text), limit):
                assert 0 < utf16_length(part.text) <= limit
                assert entity_problem(part.text, api_entities(part)) is None, (text, part)
