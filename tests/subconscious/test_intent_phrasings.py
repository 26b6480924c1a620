"""Permission from words (issue 25): the labelled set of task titles and chat messages (tests/intent_phrasings.py).

The figures that count: not one read phrasing classified ``write`` (a wrong write bypasses the approval gate) and
at least 90 % of the writes found (a missed write costs one click on a card). Both are printed (``pytest -s``).
"""

from __future__ import annotations

import pytest

from openhuman_desktop.subconscious.intent import classify_by_keywords
from openhuman_desktop.subconscious.intent_words import read_request
from tests.intent_phrasings import MEASURED, PHRASINGS, Phrasing


def figures(phrasings: tuple[Phrasing, ...]) -> tuple[list[Phrasing], list[Phrasing], int, int]:
    """(reads classified write, writes missed, reads, writes)."""
    reads = [p for p in phrasings if p.intent == "read"]
    writes = [p for p in phrasings if p.intent == "write"]
    false_writes = [p for p in reads if classify_by_keywords(p.text) == "write"]
    missed = [p for p in writes if classify_by_keywords(p.text) == "read"]
    return false_writes, missed, len(reads), len(writes)


def test_the_set_is_large_varied_and_about_forty_percent_writes() -> None:
    assert len(PHRASINGS) >= 200
    assert len({p.text for p in PHRASINGS}) == len(PHRASINGS), "no phrasing twice"
    share = sum(p.intent == "write" for p in PHRASINGS) / len(PHRASINGS)
    assert 0.35 <= share <= 0.45
    assert {p.kind for p in PHRASINGS} == {"task", "chat"}
    assert {(p.kind, p.intent) for p in PHRASINGS} == {("task", "read"), ("task", "write"), ("chat", "read"),
                                                       ("chat", "write")}
    assert set(MEASURED) <= {p.text for p in PHRASINGS if p.intent == "read"}


def test_no_read_phrasing_is_classified_write_and_nine_in_ten_writes_are_found() -> None:
    false_writes, missed, reads, writes = figures(PHRASINGS)
    found = writes - len(missed)
    print(f"\nintent keyword classifier: {len(false_writes)} of {reads} read phrasings classified write; "
          f"{found} of {writes} writes found ({found / writes:.1%})")
    assert [p.text for p in false_writes] == []
    assert found / writes >= 0.90, [p.text for p in missed]


@pytest.mark.parametrize("text", MEASURED)
def test_the_six_measured_read_requests_read(text: str) -> None:
    assert read_request(text).intent == "read"


@pytest.mark.parametrize(("text", "verb"), [
    ("Check the logs and delete anything older than a week", "delete"),     # the second clause asks
    ("When a new invoice arrives, file it under invoices/", "file"),       # after the condition
    ("Every Friday, archive the newsletters", "archive"),                   # after the time
    ("Could you please forward this to Bob?", "forward"),                   # after the politeness
    ("Would you mind moving the invoices into the finance folder?", "move"),  # "mind" + gerund
    ("What's in notes.md? Add a line saying the meeting moved.", "add"),   # a question, then a request
    ("1. check the backups\n2. delete the ones older than a month", "delete"),  # a list
    ("delte the old logs", "delete"),                                       # a typo
    ("Please write these lines at the end of log.md", "write"),             # a place in a file
])
def test_which_instruction_asks_for_the_change(text: str, verb: str) -> None:
    reading = read_request(text)
    assert reading.is_write and reading.verb == verb
    # the clause as read: its verb (a typo or a gerund mended), then the words that follow it in the text
    assert " ".join(reading.instruction.split()[1:]) in text.lower()


@pytest.mark.parametrize("text", [
    'Find the email titled "Delete your account"',            # quoted text is no instruction
    "Bob wrote: please send the report by Friday. What should I reply?",  # nor is reported speech
    "Don't delete anything, just tell me what's taking up space",
    "Tell me whether I should send and archive it",            # under "should"
    "Remind me to send the invoice",                           # telling the person
    "Email me a summary every Friday",
    "If you were me, would you send the email?",               # a hypothetical
    "Archie sent the report, did you see it?",                 # a name is no typo of "archive"
    "Pretend you're my accountant and review my expenses",     # nor "pretend" of "prepend"
    "",
    "   ",
    "!!!",
])
def test_what_stays_read(text: str) -> None:
    assert read_request(text).intent == "read"


def test_a_long_text_is_read_without_trouble() -> None:
    assert read_request("Check the logs. " * 2000).intent == "read"
    assert read_request("Check the logs. " * 10 + "Then delete the old ones.").intent == "write"
