"""The words of the narrow question a small model is asked about one touched task (see :mod:`judgement`).

A title's condition is the user's own words, written to the assistant: "when I book a trip", "when it arrives
in documents/", "Log each workout I tell you about". Asked as they are, a 0.5B model reads "Do the changed
lines show that I book a trip?" and "… that it arrives in documents/?". The question says instead what the
model can check in the changed lines: "the user books a trip", "the new lease arrives in documents/", "a new
workout the user tells the assistant about".
"""

from __future__ import annotations

import re

from openhuman_desktop.store import Task
from openhuman_desktop.subconscious.evaluator import task_line
from openhuman_desktop.subconscious.task_rules import TaskRule

_LEADS = (("tell me", "tell the user"), ("let me know", "tell the user"), ("remind me", "remind the user"),
          ("alert me", "alert the user"), ("warn me", "warn the user"), ("notify me", "notify the user"))
_WHY = re.compile(r"^\w+\s+(?:why|whether|if)\s+(?P<clause>.+)$", re.I)
_EACH = re.compile(r"\b(?:each|every|any)\s+(?:new\s+)?(?P<thing>.+)$", re.I)
_PRONOUN_SUBJECT = re.compile(r"^(?:it|they)\b", re.I)
_BOTH = re.compile(r"^both\b", re.I)
_POSSESSIVE = re.compile(r"\b(?:her|his)\b", re.I)
_NAMED = re.compile(r"\b(?:for|to|with|of|about)\s+(?P<name>[A-Z][a-z]+)\b")
_OBJECT = re.compile(r"^\w+\s+(?:(?:me|us)\s+)?(?P<object>.+)$", re.I)
_I_VERB = re.compile(r"\b(?:I|we)\s+(?P<verb>[a-z]+)\b")
_NOT_VERBS = frozenset({"will", "would", "can", "could", "should", "must", "may", "might", "did", "had", "was",
                        "were", "am", "are"})
_SWAPS = ((re.compile(r"\b(?:my|our)\b", re.I), "the user's"), (re.compile(r"\b(?:me|us)\b", re.I), "the user"),
          (re.compile(r"\byou\b", re.I), "the assistant"), (re.compile(r"\bI'm\b"), "the user is"))


def action_words(rule: TaskRule) -> str:
    """The action as the assistant will take it ("tell the user …" for "Tell me …")."""
    action = rule.action.strip().rstrip(".")
    lowered = action.lower()
    for lead, words in _LEADS:
        if lowered.startswith(lead):
            return words + action[len(lead):]
    return action[:1].lower() + action[1:] if action else "act on it"


def _third_person(match: re.Match[str]) -> str:
    verb = match.group("verb")
    if verb in _NOT_VERBS:
        return f"the user {verb}"
    if verb in ("have", "do"):
        return "the user " + {"have": "has", "do": "does"}[verb]
    if verb.endswith(("s", "sh", "ch", "x", "o")):
        return f"the user {verb}es"
    if verb.endswith("y") and len(verb) > 2 and verb[-2] not in "aeiou":
        return f"the user {verb[:-1]}ies"
    return f"the user {verb}s"


def about_the_user(text: str) -> str:
    """The user's words said of the user: "I book a trip" -> "the user books a trip", "my landlord writes to
    me" -> "the user's landlord writes to the user"."""
    text = _I_VERB.sub(_third_person, text)
    for pattern, words in _SWAPS:
        text = pattern.sub(words, text)
    return re.sub(r"\bI\b", "the user", text)


def asked_condition(task: Task, rule: TaskRule) -> tuple[str, bool]:
    """What the question asks the changed lines to show, and whether it is a thing to find (True: "Do the
    changed lines hold …?") rather than a fact (False: "Do the changed lines show that …?")."""
    condition = rule.condition or task.title
    action = rule.action.strip().rstrip(".")
    own = condition != task.title and not action.lower().startswith(condition.lower())
    if not own:  # no condition of its own: "Log each workout I tell you about", "Investigate why the build fails"
        why = _WHY.match(action)
        if why:
            return about_the_user(why.group("clause")), False
        each = _EACH.search(condition)
        if each:
            return f"a new {about_the_user(each.group('thing').strip(' .'))}", True
        return f'what this task looks for ("{condition}")', True
    thing = _OBJECT.match(action)
    if thing is not None and _PRONOUN_SUBJECT.match(condition):  # "Review the new lease when it arrives …"
        condition = _PRONOUN_SUBJECT.sub(thing.group("object"), condition, count=1)
    elif thing is not None and _BOTH.match(condition):  # "Compare the two offers once both have arrived …"
        condition = _BOTH.sub(f"both of {thing.group('object')}", condition, count=1)
    named = _NAMED.search(action)
    if named is not None and _POSSESSIVE.search(condition):  # "… for Anna when her birthday comes up"
        condition = _POSSESSIVE.sub(f"{named.group('name')}'s", condition, count=1)
    return about_the_user(condition), False


def question_text(task: Task, rule: TaskRule, evidence: str, *, again: bool = False) -> str:
    """The user message of a narrow question (``again``: turned around, "is it still NOT the case …?")."""
    asked, is_thing = asked_condition(task, rule)
    if is_thing:
        ask = (f"Look at the changed lines once more. Do they still NOT hold {asked}?" if again
               else f"Do the changed lines hold {asked}?")
    else:
        ask = (f"Look at the changed lines once more. Is it still NOT the case that {asked}?" if again
               else f"Do the changed lines show that {asked}?")
    return (f"Task:\n{task_line(task, '1')}\nIt waits for: {asked}\nThen the assistant will: "
            f"{action_words(rule)} (decision \"{rule.kind}\")\n\nWhat changed:\n{evidence}\n\n{ask}\n")
