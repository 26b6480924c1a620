"""The narrow question says what the model can check in the changed lines, in the third person (issue 24)."""

from __future__ import annotations

import pytest

from openhuman_desktop.subconscious.question import about_the_user, asked_condition, question_text
from openhuman_desktop.subconscious.task_rules import derive
from tests.subconscious.test_judgement import make_task


@pytest.mark.parametrize(("title", "asked", "is_thing"), [
    ("Tell me when the parcel in tracking.txt is delivered", "the parcel in tracking.txt is delivered", False),
    ("Prepare a packing list when I book a trip", "the user books a trip", False),
    ("Draft a reply whenever my landlord writes to me", "the user's landlord writes to the user", False),
    ("Review the new lease when it arrives in documents/", "the new lease arrives in documents/", False),
    ("Compare the two car insurance offers once both have arrived in offers/",
     "both of the two car insurance offers have arrived in offers/", False),
    ("Investigate why the nightly build fails, if it does", "the nightly build fails", False),
    ("Write a birthday message for Anna when her birthday comes up", "Anna's birthday comes up", False),
    ("Log each workout I tell you about in workouts.md", "a new workout the user tells the assistant about", True),
    ("Check my inbox folder for urgent emails",
     'what this task looks for ("Check my inbox folder for urgent emails")', True),
])
def test_the_question_asks_what_the_change_can_show(title: str, asked: str, is_thing: bool) -> None:
    assert asked_condition(make_task(title), derive(title)) == (asked, is_thing)


def test_the_users_words_are_said_of_the_user() -> None:
    assert about_the_user("I say the washing machine broke") == "the user says the washing machine broke"
    assert about_the_user("I mention a book I want to read") == "the user mentions a book the user wants to read"
    assert about_the_user("I will fly") == "the user will fly"


def test_the_question_names_the_action_and_turns_around_when_asked_again() -> None:
    title = "Tell me when the parcel in tracking.txt is delivered"
    first = question_text(make_task(title), derive(title), "- File tracking.txt, changed lines:\n  DELIVERED")
    assert "Then the assistant will: tell the user" in first and first.rstrip().endswith(
        "Do the changed lines show that the parcel in tracking.txt is delivered?")
    again = question_text(make_task(title), derive(title), "x", again=True)
    assert "Is it still NOT the case that the parcel in tracking.txt is delivered?" in again
