"""Tasks as condition and action: what a task watches, what it waits for, and what it does then.

"Tell me when the parcel in tracking.txt is delivered" watches ``tracking.txt``, waits for the parcel to be
delivered, and then tells the user (a small action: ``act``); "Draft a reply whenever my landlord writes to me"
waits for the landlord's mail and then drafts (reasoning: ``escalate``). A rule is derived from the title once
(cached by title; deterministic, no model: adding a task never waits on one) and can be replaced by the user's
own (``TaskRules.set``). The judgement uses it twice: to decide without a model that a change does not concern
a task (relevance), and to ask the model one narrow question about a change that does (is the condition met?),
whose yes becomes the decision of the action's kind.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import sqlite3
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

from openhuman_desktop.errors import InvalidInput
from openhuman_desktop.subconscious.decisions import ACT, ESCALATE

log = logging.getLogger(__name__)

MEMORIES = "memories"
SKILLS = "skills"
MODELS = "models"

# The action's first verb decides its kind: these need reasoning or several steps.
ESCALATE_VERBS = frozenset({
    "draft", "write", "plan", "prepare", "review", "compare", "investigate", "research", "analyse", "analyze",
    "update", "organise", "organize", "suggest", "decide", "reply", "answer", "respond", "send", "negotiate",
    "schedule", "book", "fix", "find", "help", "create", "make", "rework", "propose", "evaluate", "assess",
    "proofread", "explain", "diagnose", "troubleshoot", "prioritise", "prioritize", "work", "figure", "translate",
    "rewrite", "email", "message", "contact", "call", "ask", "forward", "arrange", "outline", "brainstorm",
    "recommend", "choose", "buy", "order", "pay", "cancel", "renew", "apply", "submit", "fill", "reschedule",
    "estimate", "reorganise", "reorganize", "tidy", "rearrange", "redo", "improve", "edit", "dig",
})
# Small actions: tell, remind, summarise one item, append one line.
ACT_VERBS = frozenset({
    "tell", "let", "notify", "alert", "warn", "remind", "summarise", "summarize", "give", "add", "append", "log",
    "record", "note", "check", "monitor", "watch", "flag", "show", "list", "report", "ping", "mark", "keep",
    "track", "save", "put", "count",
})
_STOPWORDS_TEXT = """
a an the and or of in on at to for from by with when whenever if once each every any all my me i you your it
its is are be been being was were this that these those there here what which who whom about into as after
before than then so do does did not no yes new it's i'm i've them they their his her our we us one two both
some more most has have had will would can could should may might must just only also very up out over under
again still yet comes come arrives arrive arrived posted land lands appears appear says say said tell told
mention mentions mentioned anything something things thing whether she he isn't aren't wasn't weren't don't
doesn't didn't won't can't going he's she's they're we're you're they've we've you've
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())
GENERIC = frozenset({"log", "logs", "file", "files", "folder", "folders", "note", "notes", "text", "md", "txt", "csv",
                     "document", "documents", "workspace", "message", "messages", "item", "items", "list"})
"""Words too general to tie a change to a task on their own."""
_PATH = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+(?:\.(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,5}))(?![\w/])")
"""A file name: its extension has a letter ("runs.csv"; "0.80" and "99.9" are figures)."""
_FOLDER = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)+)(?![\w])")
_NAMED_FOLDER = re.compile(r"\b(?:the|my|our)\s+([\w-]+)\s+folder\b", re.I)


def without_places(text: str) -> str:
    """``text`` less the file and folder names it gives: "(shop/donations.md)" says where, not what."""
    return _FOLDER.sub(" ", _PATH.sub(" ", text))

_SPLIT = re.compile(r"^(?P<action>.+?)(?:,\s*|\s+)(?:when(?:ever)?|once|if|as soon as|after|(?:each|every|any) time)\s+"
                    r"(?P<condition>.+)$", re.I)
_LEAD = re.compile(r"^(?:when(?:ever)?|once|if|as soon as|after|(?:each|every|any) time)\s+"
                   r"(?P<condition>.+?),(?!\d{3}\b)\s*(?P<action>.+)$", re.I)
"""A leading condition ends at its comma: not the one of a figure ("passes £2,000, remind me")."""
_LEAD_BARE = re.compile(r"^(?:when(?:ever)?|once|if|as soon as)\s+(?P<condition>.+?)\s+"
                        r"(?P<action>(?:tell|let|warn|remind|ping|alert|notify|text|message)\s+me\b.*)$", re.I)
"""A leading condition without its comma, up to what to do: "if it drops below 0.8 bar tell me so I can top it up"."""
_LAST_PLACE = re.compile(r"\s*\((?P<place>[^()\s]+(?:/|\.[a-z]{2,4}))\)\s*$")
_ME_WHEN = re.compile(r"^(?P<action>(?:tell|let|notify|alert|warn|remind|ping)\s+me(?:\s+know)?)\s+"
                      r"(?:when(?:ever)?|once|if|as soon as|(?:each|every|any) time)\s+(?P<condition>.+)$", re.I)
_ME_IF = re.compile(r"^(?P<action>(?:tell|let|notify|alert|warn|ping)\s+me(?:\s+know)?)\s+(?:if|whether)\s+"
                    r"(?P<condition>.+)$", re.I)
_SO_I = re.compile(r",?\s+so (?:that )?(?:i|we) ", re.I)
"""The user's reason after a condition without a comma ("… an estimated reading so I can send a proper one")."""
_USER_SAYS = re.compile(r"\b(?:i|we)\s+(?:tell|told|mention|mentioned|say|said|book|booked|list|note|write down|"
                        r"add|ask)\b|\btell you\b|\btold you\b|\bi'm\b", re.I)
_PLACE = re.compile(r"\bin (?:my|the|our) ((?:journal|diary|notebook|notes|log|logbook|calendar|spreadsheet|"
                    r"planner|list|inbox|agenda|tracker|sheet|workspace)s?)\b(?! folder)", re.I)
"""Where the user writes things down ("every expense I mention in my journal"), not where things are ("in the
flat")."""
_FIGURE = re.compile(r"\d")
_AGAINST = re.compile(r"\b(?:against|with each other|side by side)\b", re.I)
_TARGET = re.compile(r"\s+(?:to|into|in)\s+((?:[\w.-]+/)*[\w-]+\.[A-Za-z0-9]{1,5})\s*"
                     r"(?:(?:,\s*)?\b(?:so|for|because|as|and then|with)\b.*|\(.*\))?$", re.I)


@dataclass(frozen=True)
class TaskRule:
    """What a task watches, the condition it waits for, and the action it takes then.

    Attributes:
        watch_paths: files (``tracking.txt``) and folders (``inbox/``) whose changes concern the task; empty
            when the title names none (then its words decide).
        watch_words: the condition's own words (lower case, light stemming).
        watches: ``memories`` (what the user tells the assistant), ``skills`` or ``models`` (health) or "".
        targets: files the action writes to (changes there are the assistant's own, never a trigger).
        condition: the condition in words (for the model's question).
        action: the action in words.
        kind: ``act`` (tell, remind, summarise one item, append one line) or ``escalate`` (draft, plan, review,
            compare, investigate, several steps).
        source: ``rule`` (derived from the title) or ``user`` (set by the user).
        user: the name the title gives the user ("I'm Omar. Tell me if anyone challenges me"), or "".
        aliases: other names the title gives what the condition is about, lower case ("… nits in Toby's class.
            He's in 2P (Mrs Patel)": ``2p``, ``patel``); with "her", "his" or "their", the names its other
            sentences give ("Finn plays for Kingsbury Colts. … their away games": ``finn``, ``kingsbury``).
    """

    watch_paths: tuple[str, ...]
    watch_words: tuple[str, ...]
    watches: str
    targets: tuple[str, ...]
    condition: str
    action: str
    kind: Literal["act", "escalate"]
    source: str = "rule"
    user: str = ""
    aliases: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return asdict(self)


_DOUBLED = frozenset("bdgmnprt")
_IRREGULAR_TEXT = """
sown:sow sowed:sow seen:see saw:see grown:grow grew:grow written:write wrote:write eaten:eat ate:eat bought:buy
sold:sell flown:fly flew:fly driven:drive drove:drive ridden:ride rode:ride swum:swim swam:swim ran:run taken:take
took:take given:give gave:give broken:break broke:break chosen:choose chose:choose begun:begin began:begin won:win
"""
_IRREGULAR = dict(pair.split(":") for pair in _IRREGULAR_TEXT.split())
"""Past forms that share no stem with their verb ("Sowed two rows" for "I've sown", "saw the flat" for "seen")."""


def stem(word: str) -> str:
    """A light stemmer: enough that "emails" meets "email", "fails" meets "failed", "errors" meets "error"
    (and "delivery" stays apart from "delivered")."""
    if word.endswith("'s"):
        word = word[:-2]
    word = _IRREGULAR.get(word, word)
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            if suffix in ("ing", "ed") and len(word) > 3 and word[-1] == word[-2] and word[-1] in _DOUBLED:
                word = word[:-1]  # "banned", "planned", "stopped": ban, plan, stop
            break
    return word.rstrip("e") if len(word) > 4 else word


@functools.lru_cache(maxsize=4096)
def content_words(text: str) -> frozenset[str]:
    """The stems of ``text``'s words that carry meaning (no stop words, at least three letters)."""
    return frozenset(stem(word) for word in re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.lower())
                     if word not in STOPWORDS and len(word) > 2)


def first_verb(text: str) -> str:
    """The first word of an action, lower case (its verb: "tell", "draft")."""
    words = re.findall(r"[a-z]+", text.lower())
    return words[0] if words else ""


_PRONOUN_SUBJECT = re.compile(r"^\s*(?:it|it's|they|they're|this|that|these|those)\b|\b(?:it|them|one)\s*$|"
                              r"\b(?:for|sends?|about) (?:it|them|one)\b", re.I)
"""A condition about a pronoun is about what its action names ("pay the bill if it is overdue", "send the
reading when the utility asks for it")."""
_WATCHING = frozenset({"watch", "monitor", "check", "scan", "read", "follow", "track", "keep", "look", "go", "dig",
                       "search"})
"""An action with these verbs names what the task watches ("Monitor ops/disk.log and warn me when …")."""
_ASKING = frozenset({"tell", "remind", "let", "know", "warn", "alert", "notify", "ping"})
_TO_THE_USER = re.compile(r"^\s*(?:(?:email|message|text|call|ask)\s+(?:me|us)\b|"
                          r"(?:send|write|give|make|create)\s+(?:me\s+|us\s+)?(?:a|an|one)\s+(?:short\s+|quick\s+|"
                          r"brief\s+|one-line\s+)?(?:summary|reminder|note|notification|alert|heads-up|message)\b)",
                          re.I)
"""An action that only tells the user, whatever its verb: "send me a reminder", "email me", "write a summary"."""


_REASONING = re.compile(r"^\s*(?:(?:put|pull)\s+together|come\s+up\s+with|think\s+through|sort\s+out|"
                        r"(?:look|dig|delve)\s+into|go\s+(?:through|over))\b", re.I)
"""Phrasal verbs that mean reasoning: "put together a brief", "look into it", "go through the logs"."""
_THEN = re.compile(r",?\s+(?:and(?:\s+then)?|then)\s+|;\s*", re.I)
_OBJECT_TEXT = """
a an the my our your their his her its it them me us him this that these those what why how whether which who
up out into through over back down to something anything everything each every all both
"""
_OBJECT = frozenset(_OBJECT_TEXT.split())
"""Words that follow a verb (not a noun): "order a new one", not "order number"."""


def kind_of(action: str, targets: tuple[str, ...] = ()) -> Literal["act", "escalate"]:
    """What an action takes: ``escalate`` for reasoning or several steps (its verb: draft, plan, compare,
    translate, email someone, put together, look into …; or a comparison, "check it against my budget"), else
    ``act``. Writing one line to the task's own file ("write it down in x.md") and telling the user ("send me
    a reminder", "write a summary", "email me") are ``act`` whatever the verb. A later step that needs
    reasoning makes the whole action need it ("go through ops/logs/ and work out what caused it")."""
    first, *later = _THEN.split(action)
    if _one_kind(first, targets) == ESCALATE:
        return ESCALATE
    for step in later:
        words = re.findall(r"[a-z']+", step.lower())
        if len(words) > 1 and words[1] in _OBJECT and _one_kind(step, targets) == ESCALATE:
            return ESCALATE
    return ACT


def _one_kind(action: str, targets: tuple[str, ...]) -> Literal["act", "escalate"]:
    verb = first_verb(action)
    if (verb == "write" and targets) or _TO_THE_USER.match(action):
        return ACT
    if _AGAINST.search(action) or _REASONING.match(action) or (verb in ESCALATE_VERBS and verb not in ACT_VERBS):
        return ESCALATE
    return ACT


def derive(title: str) -> TaskRule:
    """The rule a title reads as (deterministic: the fallback, and what the model may refine)."""
    text = " ".join(title.split())
    lowered = text.lower()
    if "skill" in lowered and ("error" in lowered or "disconnect" in lowered or "connected" in lowered):
        return TaskRule((), ("skill", "error", "disconnect"), SKILLS, (), "a skill reports an error or is "
                        "disconnected", "tell the user which skill and why", ACT)
    if "system health" in lowered or "ollama" in lowered:
        return TaskRule((), ("model", "memory", "connection"), MODELS, (), "a model, the memory or a connection "
                        "has a problem", "tell the user what is wrong", ACT)
    if "memory update" in lowered or "new memories" in lowered or "memory updates" in lowered:
        return TaskRule((), ("memory",), MEMORIES, (), "a new memory holds something the user should act on",
                        "tell the user what to do", ACT)
    text, context = _main_sentence(text)
    match = _conditional(text)
    if match:
        action, condition = match.group("action"), match.group("condition")
        if match.re is not _LEAD:  # "… as final (band/gig.md), I need to practise": the why is no condition
            condition = _ASIDE.split(condition, 1)[0]
            if match.re is _LEAD_BARE and (where_said := _LAST_PLACE.search(action)) is not None:
                # "if it drops below 0.8 bar tell me so i can top it up (home/boiler.log)": where it drops
                condition, action = f"{condition} ({where_said.group('place')})", action[: where_said.start()]
        elif (inner := _LEAD.match(action)) is not None:
            # "when a month's total goes into solar.json, if it's under 90% of last year's, dig into why": both
            # are the condition, the last clause the action
            condition, action = f"{condition} and {inner.group('condition')}", inner.group("action")
        elif (inner := _ME_IF.match(action)) is not None:
            # "when Brightwave's gas bill comes in, tell me if it's based on an estimated reading": both
            condition = f"{condition} and {_SO_I.split(_ASIDE.split(inner.group('condition'), 1)[0], 1)[0]}"
            action = inner.group("action")
    else:
        action, condition = text, text
    targets: tuple[str, ...] = ()
    found = _TARGET.search(action)
    if found and first_verb(action) in {"add", "append", "log", "record", "save", "put", "note", "write", "keep"}:
        targets = (found.group(1),)
        if action == condition:  # no condition of its own: the rest of the sentence is what it waits for
            condition = action[: found.start()]
    if not content_words(condition):  # "Investigate why the build fails, if it does": the action says what
        condition = action
    whole = " ".join(title.split())
    condition = _FILE_NOTE.sub(r"(\g<path>)", condition)  # "(money/data.csv, Jo's phone is in there too)"
    condition = _ZERO.sub(r"\g<op> 0", condition)  # "goes below zero": a figure the app compares
    condition = _BOUND_WORD.sub(lambda bound: f"{bound.group('op')} {_NUMBER_WORDS[bound.group('word').lower()]}",
                                condition)
    condition = _DONE_AMOUNT.sub(lambda done: f"{done.group()}at least ", condition)  # "I've done 5 hours"
    condition = _ours(_that_day(_whose(_they(condition, action), whole), whole), context)
    where = condition if action != condition else text
    # (an action after its condition, "If HMRC writes …, check their figures against money/pensions.md", names
    # what to work with, not what to watch)
    if action != condition and first_verb(action) in _WATCHING and not _PATH.search(condition) \
            and not _FOLDER.search(condition) and (match is None or match.re is not _LEAD):
        where = text  # "Watch stock.csv and alert me when any item has fewer than 5 left": the action's file
    paths = _places(where, targets) or _places(context, targets)
    verb = first_verb(action)
    kind = kind_of(action, targets)
    place = _PLACE.search(condition)  # "every expense I mention in my journal": the journal, not a memory
    says = _USER_SAYS.search(condition)
    if says and says.group().lower() == "i'm" and _FIGURE.search(condition):
        says = None  # "I'm down to 7 tablets or fewer": a figure a file may hold as well
    watches = MEMORIES if says and not paths and not place else ""
    words = content_words(condition) - content_words(" ".join(targets)) - {stem(verb)}
    if _PRONOUN_SUBJECT.search(condition) and action != condition:  # "… the electricity bill if it becomes overdue"
        words |= content_words(action) - content_words(" ".join(targets)) - {stem(verb)} - _ASKING
    if place:
        words |= content_words(place.group(1))
    named = _USER_NAME.search(title)
    # "Finn plays for Kingsbury Colts U14. let me know if any of their away games …": who "their" are
    owners = tuple(match.group().lower() for match in _ALIAS.finditer(context) if match.group().lower() not in
                   _TITLES and not _CALENDAR_WORD.fullmatch(match.group()) and not _SENTENCE_START.match(
                       context, 0, match.start())) if _OWNERS.search(condition) else ()
    return TaskRule(tuple(dict.fromkeys(paths)), tuple(sorted(words)), watches, targets,
                    condition.strip(" .,"), action.strip(" .,"), kind, user=named.group("name") if named else "",
                    aliases=tuple(dict.fromkeys(aliases(title) + owners)))


_FILE_NOTE = re.compile(r"\((?P<path>[^(),\s]+/[^(),\s]*|[^(),\s/]+\.[a-z]{2,4})\s*[,;][^)]*\)")
"""A file named in brackets with a note about it: the note says what else is in the file, not what to watch for."""
_ZERO = re.compile(r"\b(?P<op>below|under|above|over|less than|more than|fewer than|at least|at most)\s+zero\b",
                   re.I)
_DONE_AMOUNT = re.compile(r"\b(?:I've|I have|we've|we have)\s+(?:done|logged|run|walked|cycled|swum|ridden|"
                          r"practi[sc]ed|read|written|saved|raised|collected)\s+(?=[€$£]?\d)", re.I)
"""An amount the user has done, which is a bound: "when I've done 5 hours of practice" is at least 5 hours."""
_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                 "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
                 "fifty": 50, "hundred": 100}
_BOUND_WORD = re.compile(r"\b(?P<op>below|under|above|over|less than|more than|fewer than|at least|at most)\s+"
                         r"(?P<word>" + "|".join(_NUMBER_WORDS) + r")\b"
                         r"(?=\s+(?:hours?|minutes?|mins|seconds?|km|miles?|metres?|meters?|kg|kilos?|litres?|liters?|"
                         r"percent|per cent)\b)", re.I)
"""A bound in words ("goes over two hours"): the app compares it as a figure."""
_OWNER = re.compile(r"\b(?P<pronoun>her|his)\b")
_OWNERS = re.compile(r"\b(?:her|his|their)\b", re.I)
_CALENDAR_WORD = re.compile(r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|sept|"
                            r"oct|nov|dec)[a-z]*", re.I)
_SENTENCE_START = re.compile(r"(?:.*[.!?]\s+)?\s*$", re.S)
"""Matches a text's start up to a word that begins a sentence (capitalised as any first word)."""
_WE_ARE_IN = re.compile(r"\b(?:we're|we are|i'm|i am|we live|i live)\s+(?:in|at)\s+(?P<noun>[a-z]+)\s+"
                        r"(?P<id>\d+[A-Za-z]?|[A-Z]\d*)\b", re.I)


def _ours(condition: str, context: str) -> str:
    """The condition with "our flat" as the one the title's other sentence names ("we're in flat 2A": the renewal
    on flat 2A), so a mail about flat 2B is another flat's."""
    said = _WE_ARE_IN.search(context)
    if said is None:
        return condition
    return re.sub(rf"\b(?:our|my)\s+{re.escape(said.group('noun'))}\b", f"{said.group('noun')} {said.group('id')}",
                  condition, count=1, flags=re.I)
_SUBJECT_SAID = re.compile(r"(?:^|[.!?]\s+)(?P<name>[A-Z][a-z]+)(?:'s|\s+is|\s+has|\s+was)\b")


def _whose(condition: str, title: str) -> str:
    """The condition with "her" or "his" as the person the title named before it ("Mila's poorly. If her
    temperature gets to 38.5 …": Mila's temperature), when it names one and the condition names no one."""
    owner = _OWNER.search(condition)
    before = title[: title.find(condition)] if condition in title else ""
    named = {match.group("name") for match in _SUBJECT_SAID.finditer(before)} - {"It", "This", "That", "There",
                                                                                  "He", "She", "What", "Here"}
    if owner is None or len(named) != 1 or re.search(r"\b[A-Z][a-z]+", condition):
        return condition
    return condition[: owner.start()] + f"{named.pop()}'s" + condition[owner.end():]


_LEADING_PRONOUN = re.compile(r"^(?:they|it)\s+(?!is\b|are\b|was\b|were\b|'s\b|'re\b)", re.I)
_STATED_SUBJECT = re.compile(r"^(?P<subject>(?:the|my|our|his|her|their)\s+(?:[\w'-]+\s+){0,3}?[\w'-]+)\s+"
                             r"(?:are|is|will be|should be|must be|can be)\b", re.I)


def _they(condition: str, action: str) -> str:
    """The condition with its leading "they" or "it" as the subject its action's clause states ("the ash logs
    are ready to burn once they read under 20%": the ash logs read under 20%), so a figure of something else
    on the same line (a birch load's 14 %) is not theirs."""
    pronoun = _LEADING_PRONOUN.match(condition)
    stated = _STATED_SUBJECT.match(action)
    if pronoun is None or stated is None:
        return condition
    return f"{stated.group('subject')} {condition[pronoun.end():]}"


_THAT_DAY = re.compile(r"\b(?:that|the same) (?:day|date|night|evening|morning)\b", re.I)
DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
"""A weekday's name, and a month's first three letters (the rest of its name follows as ``[a-z]*``)."""
_DAY_SAID = re.compile(rf"\b(?:on|for)\s+(?P<day>(?:{DAY}\s+)?(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?(?:\s+of)?\s+"
                       rf"{MONTH}[a-z]*|{DAY})\b", re.I)


def _that_day(condition: str, title: str) -> str:
    """The condition with "that day" as the day the title named before it ("we're doing the barbecue on saturday
    13 june. tell me if the forecast for that day …": the forecast for saturday 13 june)."""
    that = _THAT_DAY.search(condition)
    said = _DAY_SAID.search(title[: title.find(condition)]) if condition in title else None
    if that is None or said is None:
        return condition
    return condition[: that.start()] + said.group("day") + condition[that.end():]


_USER_NAME = re.compile(r"\b(?:I'm|I am|my name is)\s+(?P<name>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\b")
"""How a title names its user: "I'm Omar.", "I'm Margaret Doyle.", "my name is Ines"."""
_ABOUT_IT = re.compile(r"(?:^|[.!?;]\s+)(?:he|she|it|they)(?:'s|'re| is| are| has| have)\s+"
                       r"(?P<said>(?:\b[A-Z]\.|[^.!?;])+)", re.I)
"""A sentence of the title about what the condition names: "He's in 2P (Mrs Patel)", "It has J. OKAFOR on it"."""
_ALIAS = re.compile(r"\b(?:[A-Z][A-Za-z'-]+|[A-Za-z]*\d[A-Za-z\d]*[A-Za-z][A-Za-z\d]*)\b")
_TITLES = frozenset({"mr", "mrs", "ms", "miss", "dr", "the"})


def aliases(title: str) -> tuple[str, ...]:
    """The names a title's sentences about its subject give it: capitalised words and codes ("2P", "OKAFOR")."""
    found = (word.lower() for said in _ABOUT_IT.finditer(title) for word in _ALIAS.findall(said.group("said")))
    return tuple(dict.fromkeys(word for word in found if len(word) > 1 and word not in _TITLES))


_ASIDE = re.compile(r",\s+(?:so(?: that)?|because|since|as|i|i'm|i'd|i need|we|it's|it'll|it will|that'll|"
                    r"(?:that|which) means|they|they'll)\s", re.I)
"""After a comma, the user's reason, not more of the condition ("…, so I can order more", "…, I need to …", "…,
it'll be getting ready to swarm")."""


def _conditional(text: str) -> re.Match[str] | None:
    return _ME_WHEN.match(text) or _LEAD.match(text) or _LEAD_BARE.match(text) or _SPLIT.match(text)


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Za-z])")
_PREFACE = re.compile(r"^(?P<preface>[^:.!?]{3,60}):\s+(?P<rest>\S.*)$")
_ABBREVIATIONS = frozenset({"dr", "mr", "mrs", "ms", "st", "no", "vs", "etc", "e.g", "i.e", "approx", "jr", "sr"})


def _main_sentence(text: str) -> tuple[str, str]:
    """The sentence of a title that holds its condition, and the others (context that may name where to
    look): "Keep an eye on lab/runs.csv. If a run's accuracy drops, dig into it" → the second, with the
    first as context. A title of one sentence, or none with a condition, is all main. A preface before a colon
    ("For the spring fair raffle: whenever I tell you …") is context too."""
    preface = _PREFACE.match(text)
    if preface is not None and _conditional(preface.group("rest").rstrip(".!? ")):
        main, context = _main_sentence(preface.group("rest"))
        return main, f"{preface.group('preface')}. {context}".strip()
    sentences, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        word = text[start:end.start()].rsplit(None, 1)[-1].rstrip(".!?").lower()
        if word not in _ABBREVIATIONS:
            sentences.append(text[start:end.start()])
            start = end.end()
    sentences.append(text[start:])
    if len(sentences) > 1:
        for index, sentence in enumerate(sentences):
            if _conditional(sentence.rstrip(".!? ")):
                return sentence.rstrip(".!? "), " ".join(sentences[:index] + sentences[index + 1:])
    return text, ""


def _places(text: str, targets: tuple[str, ...]) -> list[str]:
    paths = [path for path in _PATH.findall(text) if path not in targets]
    paths += [folder for folder in _FOLDER.findall(text)]
    return paths + [f"{name}/" for name in _NAMED_FOLDER.findall(text)]


@functools.lru_cache(maxsize=4096)
def path_words(path: str) -> frozenset[str]:
    """The words of a path ("career/lumen-offer.md": career, lumen, offer, md), stemmed."""
    return content_words(re.sub(r"[/._-]", " ", path))


def place_words(rule: TaskRule) -> set[str]:
    """The words of the places a rule names (watched paths and targets): where, not what."""
    return set().union(*(path_words(path) for path in (*rule.watch_paths, *rule.targets)))


MAX_RULE_CHARS = 500
"""The most characters of a rule's watch, condition or action the user may type."""
_WATCH_MEMORIES = re.compile(r"\b(?:what i tell you|what i say|what i told you|memories|memory|what you are told)\b",
                             re.I)


def watch_text(rule: TaskRule) -> str:
    """What the task watches, as the user reads and edits it: ``tracking.txt, inbox/``, ``what I tell you``,
    ``skill health``, ``model health``, or "" (then the condition's words decide)."""
    if rule.watches == MEMORIES:
        return "what I tell you"
    if rule.watches == SKILLS:
        return "skill health"
    if rule.watches == MODELS:
        return "model health"
    return ", ".join(rule.watch_paths)


def rule_json(rule: TaskRule) -> dict[str, object]:
    """A rule for the user (RPC and the task editor): ``watch``, ``condition``, ``action``, ``kind``, ``source``
    (``rule``: read from the title; ``user``: their own)."""
    return {"watch": watch_text(rule), "condition": rule.condition, "action": rule.action, "kind": rule.kind,
            "source": rule.source}


def edited(base: TaskRule, *, watch: object = None, condition: object = None, action: object = None,
           kind: object = None) -> TaskRule:
    """``base`` with what the user changed (only what is given), as their own rule.

    ``watch`` is a list of files and folders separated by commas ("tracking.txt, inbox/"), "what I tell
    you" (what the user tells the assistant), "skill health" / "model health", or empty (the condition's
    words decide). ``kind`` is ``act`` (a small action: tell, remind, summarise one item, append one line) or
    ``escalate`` (reasoning, several steps, or a card first); without one, the action's first verb decides.

    Raises:
        InvalidInput: a value that is not text, too long, an empty condition or action, an unknown kind.
    """
    def text(name: str, value: object, current: str, *, empty_ok: bool = False) -> str:
        if value is None:
            return current
        if not isinstance(value, str):
            raise InvalidInput(name, "must be text")
        clean = " ".join(value.split())
        if len(clean) > MAX_RULE_CHARS:
            raise InvalidInput(name, f"must be at most {MAX_RULE_CHARS} characters")
        if not clean and not empty_ok:
            raise InvalidInput(name, "must not be empty")
        return clean

    new_condition = text("condition", condition, base.condition)
    new_action = text("action", action, base.action)
    paths, watches = base.watch_paths, base.watches
    if watch is not None:
        said = text("watch", watch, "", empty_ok=True)
        lowered = said.lower()
        if _WATCH_MEMORIES.search(lowered):
            paths, watches = (), MEMORIES
        elif lowered in ("skill health", "skills"):
            paths, watches = (), SKILLS
        elif lowered in ("model health", "models", "system health"):
            paths, watches = (), MODELS
        else:
            parts = [part.strip().strip("\"'") for part in said.split(",")]
            paths, watches = tuple(dict.fromkeys(part for part in parts if part)), ""
            for part in paths:
                if part.startswith(("/", "~")) or ".." in part.split("/"):
                    raise InvalidInput("watch", f"{part!r} is not a path inside the workspace folder")
    new_kind: Literal["act", "escalate"]
    if kind is None:
        new_kind = base.kind if new_action == base.action else kind_of(new_action, base.targets)
    elif kind == ACT:
        new_kind = ACT
    elif kind == ESCALATE:
        new_kind = ESCALATE
    else:
        raise InvalidInput("kind", 'must be "act" or "escalate"')
    targets = base.targets
    found = _TARGET.search(new_action)
    if new_action != base.action:
        targets = (found.group(1),) if found else ()
    places = set().union(*(path_words(path) for path in (*paths, *targets)))
    words = content_words(new_condition) - places - {stem(first_verb(new_action))}
    return TaskRule(tuple(paths), tuple(sorted(words)), watches, targets, new_condition, new_action, new_kind,
                    "user", base.user, base.aliases)


class TaskRules:
    """The rule of each task: the user's own where set (kept in ``subconscious/seen.db``), else derived from
    the title (cached; a title derives the same rule every time).

    Args:
        database: where the user's rules are kept; None keeps them in memory.
    """

    def __init__(self, database: Path | None = None) -> None:
        self._path = database
        self._lock = threading.Lock()
        self._derived: dict[str, TaskRule] = {}
        self._own: dict[str, TaskRule] | None = None

    def for_task(self, task_id: str, title: str) -> TaskRule:
        own = self._load().get(task_id)
        if own is not None:
            return own
        rule = self._derived.get(title)
        if rule is None:
            rule = self._derived[title] = derive(title)
        return rule

    def set(self, task_id: str, rule: TaskRule | None) -> None:
        """The user's rule for a task (None: back to the one derived from its title)."""
        with self._lock:
            own = self._load()
            if rule is None:
                own.pop(task_id, None)
            else:
                own[task_id] = TaskRule(**{**asdict(rule), "source": "user"})
            self._save(task_id, own.get(task_id))

    def _load(self) -> dict[str, TaskRule]:
        if self._own is not None:
            return self._own
        own: dict[str, TaskRule] = {}
        if self._path is not None and self._path.exists():
            try:
                with sqlite3.connect(self._path) as db:
                    db.execute("CREATE TABLE IF NOT EXISTS rules (task_id TEXT PRIMARY KEY, rule TEXT NOT NULL)")
                    for task_id, text in db.execute("SELECT task_id, rule FROM rules"):
                        own[task_id] = _rule_from(json.loads(text))
            except (sqlite3.Error, ValueError, TypeError) as exc:
                log.warning("the users' task rules could not be read: %s", exc)
        self._own = own
        return own

    def _save(self, task_id: str, rule: TaskRule | None) -> None:
        if self._path is None:
            return
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            with sqlite3.connect(self._path) as db:
                db.execute("CREATE TABLE IF NOT EXISTS rules (task_id TEXT PRIMARY KEY, rule TEXT NOT NULL)")
                if rule is None:
                    db.execute("DELETE FROM rules WHERE task_id = ?", (task_id,))
                else:
                    db.execute("INSERT OR REPLACE INTO rules (task_id, rule) VALUES (?, ?)",
                               (task_id, json.dumps(rule.to_json())))
        except sqlite3.Error as exc:
            log.warning("the task rule of %s could not be saved: %s", task_id, exc)


def _rule_from(data: dict[str, object]) -> TaskRule:
    def strings(key: str) -> tuple[str, ...]:
        value = data.get(key, ())
        return tuple(str(item) for item in value) if isinstance(value, list | tuple) else ()

    return TaskRule(strings("watch_paths"), strings("watch_words"), str(data.get("watches", "")), strings("targets"),
                    str(data.get("condition", "")), str(data.get("action", "")),
                    ESCALATE if data.get("kind") == ESCALATE else ACT, str(data.get("source", "user")),
                    str(data.get("user", "")), strings("aliases"))
