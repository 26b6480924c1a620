"""What the app reads off a change itself (issue 24, thirteenth round): who says something is no news, the
verb "may" hedges, codes of another place, a field of a rewritten file, and money that moved."""

from __future__ import annotations

import pytest

from openhuman_desktop.subconscious.decisions import ChangeItem
from openhuman_desktop.subconscious.evidence import changed_field, compared, evidence, money_moved
from openhuman_desktop.subconscious.relevance import rule_names
from openhuman_desktop.subconscious.task_rules import derive


def mail(text: str) -> ChangeItem:
    return ChangeItem("file", "mail/2026-02-27.txt", text, "new")


def rewrite(name: str, added: str, removed: str, context: str = "") -> ChangeItem:
    return ChangeItem("file", name, added, "changed", removed, context=context)


def test_who_is_to_say_it_is_no_news_when_what_is_said_has_no_word_of_its_own() -> None:
    rule = derive("If Fibrelink write to say our broadband price is going up, compare the deals in money/deals.md")
    frozen = mail("From: Fibrelink <billing@fibrelink.example>\nSubject: Your price this April\n\n"
                  "Good news: your monthly price is not going up this April.")
    assert evidence(rule, [frozen]) is None, "the sender's name and the price named are not the rise"
    idea = derive("Whenever I tell you an idea for my novel, add it as a line to writing/ideas.md")
    assert evidence(idea, [ChangeItem("memory", "", "An idea for my novel: a lighthouse keeper who collects "
                                                    "other people's letters")]) is not None, "the idea is the news"


@pytest.mark.parametrize(("text", "met"), [
    ("We are unable to agree to your request to defer. You must attend from Monday 7 June.", True),
    ("Your deferral is agreed: your new date is 4 October.", False),
])
def test_says_no_is_a_refusal_in_other_words(text: str, met: bool) -> None:
    rule = derive("I've asked to put off my jury service. If the court says no, draft emails moving my clashes")
    assert (evidence(rule, [mail(f"From: Jury Bureau <jury@courts.example>\nSubject: Deferral\n\n{text}")])
            is not None) is met


@pytest.mark.parametrize("line", [
    "- We may close early on Friday 22 May. Facilities will confirm by Wednesday.",
    "- The office will probably close early on Friday 22 May.",
])
def test_may_and_probably_hedge_what_follows(line: str) -> None:
    rule = derive("tell me if the office is closing early on the Friday before the bank holiday (office/notices.md)")
    assert evidence(rule, [rewrite("office/notices.md", line, "")]) is None
    assert evidence(rule, [rewrite("office/notices.md", "- The office closes at 2pm on Friday 22 May.", "")])


def test_a_line_that_names_only_other_codes_is_about_other_places() -> None:
    rule = derive("warn me if the blight alerts (feeds/blight.md) show a full Hutton period for my postcode "
                  "district, LD3")
    assert evidence(rule, [rewrite("feeds/blight.md", "- 21 Jun: full Hutton period in LD7, SY16", "")]) is None
    assert evidence(rule, [rewrite("feeds/blight.md", "- 21 Jun: full Hutton period in LD2, LD3, SA19", "")])


WIFI = "# Office wifi\nStaff network: Larkspur-Staff\nStaff password: tidal-anchor-42\nGuest network: Larkspur-Guest"


@pytest.mark.parametrize(("added", "removed", "context", "met"), [
    ("Staff password: copper-heron-17", "Staff password: tidal-anchor-42", "# Office wifi\nStaff network: x", True),
    ("Guest password: hello-june-26", "Guest password: welcome-2026", WIFI, False),
    ("Staff network: Larkspur-Team", "Staff network: Larkspur-Staff", "# Office wifi",
     None),  # the password's line is not in sight: the app cannot tell
])
def test_a_field_of_a_rewritten_file_is_the_one_most_like_the_subject(
        added: str, removed: str, context: str, met: bool | None) -> None:
    rule = derive("if the staff wifi password at the office changes, tell me the new one")
    found = changed_field(rule, [rewrite("office/wifi.md", added, removed, context)])
    assert (found.met if found is not None else None) is met
    assert changed_field(rule, [ChangeItem("memory", "", "Staff password: abc")]) is None


@pytest.mark.parametrize(("title", "added", "removed", "moved"), [
    ("tell me if any of my subscriptions goes up in price (money/subs.md)", "Filmhaus: £8.99 a month",
     "Filmhaus: £7.99 a month", True),
    ("tell me if any of my subscriptions goes up in price (money/subs.md)",
     "Tunebox: £203.88 a year (switched to yearly billing)", "Tunebox: £16.99 a month", False),
    ("tell me if any of my subscriptions goes up in price (money/subs.md)", "Puzzlebox: £3.00 a month", "", False),
    ("tell me if any of my subscriptions goes up in price (money/subs.md)", "Filmhaus: £6.99 a month",
     "Filmhaus: £7.99 a month", False),
    ("If a meeting note says Atlas is getting less money, rework projects/atlas.md",
     "- Atlas budget reduced from £180k to £140k", "", True),
    ("If a meeting note says Atlas is getting less money, rework projects/atlas.md",
     "- Borealis budget reduced from £90k to £60k\n- Atlas stays at £180k", "", False),
    ("if the Team plan price changes in docs/pricing.md tell me what it is now", "| Team | £12 | $15 |",
     "| Team | £12 |", False),
    ("if the Team plan price changes in docs/pricing.md tell me what it is now", "| Team | £14 |",
     "| Team | £12 |", True),
])
def test_money_that_moves_is_a_sum_that_replaced_another(title: str, added: str, removed: str, moved: bool) -> None:
    assert (money_moved(derive(title), added, removed) is not None) is moved


@pytest.mark.parametrize(("line", "met"), [
    ("2026-06-02 10:03 build 3390 branch=main status=passed duration=23m10s", True),
    ("2026-06-02 10:03 build 3390 branch=main status=passed duration=19m10s", False),
    ("2026-06-02 10:41 build 3391 branch=feat/search-facets status=failed duration=31m02s", None),
])
def test_a_duration_in_two_parts_is_compared_on_the_condition_s_own_branch(line: str, met: bool | None) -> None:
    rule = derive("tell me if a build on main takes longer than 20 minutes (ops/logs/ci.log)")
    before = "2026-06-01 09:12 build 3381 branch=main status=passed duration=17m42s"
    found = compared(rule, [ChangeItem("file", "ops/logs/ci.log", line, "changed", context=before)], rule_names(rule))
    assert (found.met if found is not None else None) is met
