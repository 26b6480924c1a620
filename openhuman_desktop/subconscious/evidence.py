"""What a change itself says about a task's condition, read by the app before and beside the model.

The judgement asks a small model one narrow question per touched task, and small models say yes to most
questions. What the app can read for itself it reads here, so the model is asked less and overruled where the
change speaks plainly:

- :func:`evidence`: a word of the condition newly said ("DELIVERED" for "is delivered"), or the new file an
  arrival waits for ("each new support ticket in tickets/");
- :func:`changed_subject`: for "Anna's address changes" or "my landlord writes", who or what it is about on the
  changed lines;
- :func:`compared`: a figure the condition compares ("costs less than 300 EUR") read off the changed lines and
  compared by the app, with no model at all.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, replace

from openhuman_desktop.subconscious.changes import cells, table_header
from openhuman_desktop.subconscious.decisions import NEWS, WORLD, ChangeItem
from openhuman_desktop.subconscious.meanings import MEANINGS, PREDICATES, meanings_of, same_things
from openhuman_desktop.subconscious.relevance import (
    DOCUMENTS,
    NOT_NAMES,
    awaits_arrival,
    document_head,
    names_another,
    rule_names,
    senders_named,
    subject_of,
    titled,
)
from openhuman_desktop.subconscious.task_rules import (
    DAY,
    GENERIC,
    MODELS,
    MONTH,
    SKILLS,
    STOPWORDS,
    TaskRule,
    content_words,
    path_words,
    place_words,
    stem,
    without_places,
)

NEGATIONS = frozenset({"not", "no", "never", "without", "yet", "isn't", "wasn't", "hasn't", "didn't", "nothing",
                       "none", "unless", "cannot", "can't", "couldn't", "won't", "wouldn't", "don't", "doesn't",
                       "aren't", "weren't", "haven't", "hadn't", "shouldn't", "neither", "nor"})
_TOKENS = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_CASED_TOKENS = re.compile(r"[A-Za-z0-9]+(?:'[a-z]+)?")
"""Words as written, for where capitals tell something ("PV error", "any CRITICAL entries")."""
_COMPARES = re.compile(r"\b(?:less|more|fewer|cheaper|higher|lower|deeper|shallower|at least|at most|passes|exceeds|"
                       r"reaches|tops|"
                       r"goes past|(?:below|above|under|over)(?=\s+(?:\S+\s+){0,2}?[€$£]?\d))\b", re.I)
"""A condition that compares a figure; "under", "over" only before one ("the sensor under the sink" is where)."""
LINKS = frozenset({"is", "are", "was", "were", "be", "gets", "get", "becomes", "mentions", "mention", "shows",
                   "show", "says", "say", "contains", "contain", "costs", "cost", "reads", "changes", "change", "goes",
                   "go", "been"})
_SPEAKERS = frozenset({"i", "we", "you"})
_CAPITALISED = re.compile(r"\b[A-Z][a-z]\w*")
_REPORTS = frozenset({"says", "say", "mentions", "mention", "shows", "show", "reads"})
_ANY_THING = re.compile(r"\b(?:each|every|any)\s+((?:[A-Za-z-]+\s+){0,2}[A-Za-z-]+)")
_SAYING = frozenset({"say", "said", "tell", "told", "mention", "mentioned", "write", "wrote", "ask", "asked", "think",
                     "want", "like", "need", "am", "are", "was", "were", "have", "had", "will", "would", "can", "could",
                     "do", "did", "should", "may", "might", "must", "get", "got"})
"""Before a linking verb ("I say the washing machine broke") they make it the user's speech, not the link: what
they say is the condition."""


def condition_words(rule: TaskRule, *, or_watched: bool = True) -> set[str]:
    """The words that say what must happen for the condition (its predicate), not what or where it is about.

    After a linking verb ("the parcel … is delivered", "report.md mentions a deadline") the words that follow;
    otherwise the condition's last meaningful word ("the nightly backup fails", "I say the washing machine
    broke"). Place words (watched paths, targets) and generic words never count. A condition with no such word
    ("the court says no") gets the words it watches, unless ``or_watched`` is false.
    """
    if _COMPARES.search(rule.condition):  # "costs less than 300 EUR": a number to compare, not a word to find
        return set()
    for phrase, meaning in _PHRASAL:  # "someone drops out of the shift": not a price that drops
        if phrase.search(rule.condition):
            return {meaning}
    given = _GIVES.search(rule.condition)
    if given is not None:  # "the repair shop gives us a price for …": the price is what must come, not the shop
        return {stem(given.group("what").lower())}
    arrival = _ARRIVES.search(rule.condition)
    if arrival is not None and all(path.endswith("/") for path in rule.watch_paths):  # (a file's rows: no)
        # "a parking or speeding fine turns up in mail/": a fine, not anything about parking
        thing = re.split(r"\b(?:from|of|for|about|by|with|on)\b", rule.condition[: arrival.start()].lower())[0]
        head = [stem(word) for word in _TOKENS.findall(thing)
                if word not in STOPWORDS and len(word) > 2 and stem(word) not in place_words(rule) | GENERIC]
        if head and not LINKS & set(_TOKENS.findall(thing)):
            return {head[-1]}
    places = place_words(rule)
    words = _TOKENS.findall(rule.condition.lower())
    link = next((index for index, word in enumerate(words)
                 if word in LINKS and not (index and words[index - 1] in _SPEAKERS)), None)
    if link is not None and words[link] in _REPORTS:  # "the bike shop says the repair is done": what it says
        link = next((index for index in range(link + 1, len(words)) if words[index] in LINKS - _REPORTS), link)
    tail = words[link + 1:] if link is not None else words
    # After the link, "my talk is accepted for PyCon": PyCon is what it is about, not what happens (a marker in
    # capitals, "CRITICAL", "DELIVERED", is what happens)
    named = {stem(match.group().lower()) for match in _CAPITALISED.finditer(rule.condition)
             if match.start()} if link is not None else set()
    # (a weekday or a month says when, never what happens: "I get picked for either side on Saturday")
    meaningful = [stem(word) for word in (_before_complement(tail) if link is not None else _trimmed(tail))
                  if word not in STOPWORDS and len(word) > 2 and stem(word) not in places | GENERIC | named
                  and not _WHEN_WORD.fullmatch(word)]
    thing = _ANY_THING.search(rule.condition) if link is None else None
    if thing is not None:  # "Warn me about any CRITICAL entries in …": the thing it looks for
        meaningful = [stem(word) for word in _TOKENS.findall(thing.group(1).lower())
                      if word not in STOPWORDS and len(word) > 2 and stem(word) not in places | GENERIC]
    elif link is None:
        # "the gym refuses to cancel my membership": the words that say what happens, where it has them;
        # else its last word ("the nightly backup fails")
        verbs = [stem(word) for index, word in enumerate(tail) if stem(word) in PREDICATES and stem(word) in meaningful
                 and (word.endswith("s") or (index and tail[index - 1] in ("to", "will")))] or [
            stem(word) for index, word in enumerate(tail[:-1]) if _acts_on(word, tail[index + 1])
            and stem(word) in meaningful and (not index or tail[index - 1] not in _DETERMINERS)]
        # "when I book a trip": what the user does is what the change will say ("Booked flights to Lisbon")
        # "Greywell Studio pay INV-0412": a reference says which, not what happens
        plain = [word for word in meaningful if not any(char.isdigit() for char in word)]
        last = meaningful[-1:] if plain[-1:] == meaningful[-1:] else [
            word for word in plain if word in PREDICATES][-1:] or plain[-1:]
        meaningful = (verbs or last) + sorted(users_doing(rule))
    if meaningful or not or_watched:
        return set(meaningful)
    return set(rule.watch_words) - places - GENERIC


_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"


def _acts_on(word: str, following: str) -> bool:
    """Whether ``word`` reads as a verb done to what follows it: "registers Mum's LPA", "signs our lease"."""
    return word.endswith("s") and not word.endswith(("ss", "us", "is")) and len(word) > 4 and (
        following in _DETERMINERS or following.endswith("'s")) and _NAMED_EVENT.fullmatch(word) is None \
        and _SENDS.fullmatch(word) is None
_WHEN_WORD = re.compile(DAY + r"(?:'s)?|(?!may\b)(?:" + _MONTHS + r")|today|tomorrow|tonight|weekend", re.I)
_GIVES = re.compile(r"\b(?:gives?|sends?|offers?|quotes?|names?|proposes?)\s+(?:me|us|you)?\s*(?:a|an|the|their|its)\s+"
                    r"(?:[a-z-]+\s+)?(?P<what>price|quote|date|time|figure|offer|estimate|answer|decision)\b", re.I)
_QUOTED = frozenset({"price", "quote", "estimate", "figure"})
"""What a condition waits to be given: "gives us a price for fixing the dishwasher" waits for a price."""
_PHRASAL = (
    (re.compile(r"\b(?:drops?|dropped|pulls?|pulled|backs?|backed) out\b|\bwithdraws?\b", re.I), "withdraw"),
    (re.compile(r"\bout of (?:service|order|action|use)\b", re.I), stem("outofservice")),
    (re.compile(r"\b(?:comes?|came) back\b|\b(?:is|gets?|get) (?:paid |given )?back\b"
                r"|\b(?:pays?|paid) (?:me|us) back\b", re.I), stem("comeback")),
    (re.compile(r"\b(?:gets?|get|come|comes) off the wait(?:ing)?[ -]?list\b|\b(?:gets?|get) a (?:place|space|spot)\b",
                re.I), stem("offwaitlist")),
    (re.compile(r"\b(?:calls?|called) off\b|\bfalls? through\b", re.I), "cancel"),
    (re.compile(r"\bsays? no\b|\bturns? (?:it |me |us |them )?down\b", re.I), stem("refuse")),
    (re.compile(r"\b(?:doesn't|does not|didn't|did not|fails? to) (?:run|complete|finish)\b", re.I), "fail"),
    (re.compile(r"\b(?:signs?|signed) off\b|\bgives? (?:it |us |me )?the (?:go-ahead|green light)\b", re.I),
     stem("approve")),
    (re.compile(r"\bmakes? up (?:its|their|his|her|your) mind\b|\bdecides?\b|\bcomes? to a decision\b", re.I),
     "decid"),
    (re.compile(r"\b(?:they've|they have|has|have|had|it's|it has) (?:got|gotten|received)\b", re.I), "receiv"),
)
"""Phrasal verbs whose meaning is not their verb's: "drops out" is a withdrawal, "called off" a cancellation."""

def users_doing(rule: TaskRule) -> set[str]:
    """What the condition says the user does ("when I book a trip", "I've booked a flight": book)."""
    words = _TOKENS.findall(rule.condition.lower())
    return {stem(words[index + 1]) for index, word in enumerate(words[:-1])
            if word in ("i", "we", "i've", "we've") and words[index + 1] not in _SAYING | STOPWORDS
            and not (index and _describes(words[index - 1]))}


def _describes(word: str) -> bool:
    """Whether a clause of the user's after ``word`` says which thing, not what happens: "the hops I ordered
    arrive" waits for an arrival, "when I book a trip" for a booking."""
    return word in ("that", "which") or (word not in STOPWORDS | _CLAUSE_OPENERS | _SAYING and len(word) > 2)


_CLAUSE_OPENERS = frozenset({"time", "times", "soon", "day", "whenever", "once", "after", "until", "till", "unless"})


_COMPLEMENTS = frozenset({"from", "to", "in", "at", "on", "for", "by", "with", "into"})


def _before_complement(tail: list[str]) -> list[str]:
    """What must happen, without where or by whom: "discharged from hospital" waits for "discharged" (a line that
    says "still in hospital" says nothing of it), "accepted for PyCon" for "accepted". The whole tail when no
    meaningful word comes before its first preposition ("out of stock")."""
    for index, word in enumerate(tail):
        if word in _COMPLEMENTS:
            head = tail[:index]
            return head if any(w not in STOPWORDS and len(w) > 2 for w in head) else tail
    return tail


def _trimmed(tail: list[str]) -> list[str]:
    """A condition without a linking verb less its trailing complements of a few words with no verb in them:
    "I get picked for either side on Saturday" is about being picked, "someone reports a security problem in
    the parser on the dev list" about the problem; "the photo sync to the NAS fails" keeps its verb."""
    while True:
        at = max((index for index, word in enumerate(tail) if word in _COMPLEMENTS), default=-1)
        after = tail[at + 1:]
        if at <= 0 or len(after) > 4 or any(stem(word) in PREDICATES for word in after) or not any(
                word not in STOPWORDS and len(word) > 2 for word in tail[:at]):
            return tail
        tail = tail[:at]

def evidence(rule: TaskRule, items: Iterable[ChangeItem]) -> str | None:
    """What the change newly says that meets the condition, or None: a word of the condition (not negated or
    hedged earlier in its clause), the condition's concept in other words (:data:`CONCEPTS`), a health problem
    for a task about health, or the new file an arrival waits for.

    Only what is new counts: a file's added lines less the words of its removed lines (an edit from 8 % to
    8.4 % adds no word of "mentions a deadline"), a memory's text, a health problem, a file that was not there.
    """
    items = [_unheaded(item) for item in items]
    # "the neighbours write to me about the hedge": the hedge is the topic, who writes is the news
    # (:func:`changed_subject`); a note of the user's own about the hedge is not a message.
    wanted = _message_says(rule) if _sends(rule.condition) else condition_words(rule)
    # "the court says no", "Fibrelink write to say our price is going up": what is said is a clause with no
    # word that says what happens, so the words the task watches stand in for it; they make a line relevant,
    # they do not say it (unlike "I tell you an idea for my novel", where the idea is the news)
    saying = _NAMED_EVENT.search(rule.condition) or _sends(rule.condition)
    unread = saying is not None and _SAID_CLAUSE.search(rule.condition[saying.end():]) is not None and not (
        _message_says(rule, or_watched=False) if _sends(rule.condition) else condition_words(rule, or_watched=False))
    names = rule_names(rule)  # "the API as down": a line about the blog's host says nothing of it
    # "Sam says he can't pick up the kids": the change must say it negated too ("I can't pick them up today");
    # "db-prod-1 reboots without it being planned" negates the plan, not the reboot
    negative = _negative(rule.condition, wanted)
    # "the passport is about to expire": what will happen is what it waits for, so a hedge is no negation
    # (and a price is quoted as what a repair "would be")
    given = _GIVES.search(rule.condition)
    quoted = given is not None and given.group("what").lower() in _QUOTED
    blocking = NEGATIONS if _UPCOMING.search(rule.condition) or quoted else NEGATIONS | HEDGES
    if _DATE_MOVES.search(rule.condition):  # "he'll start on 13 July instead of the 6th": the new date, not a hedge
        blocking = blocking - _FUTURE
    mine = _MINE.search(rule.condition) is not None
    # "my new bank card arrives": the card is the word, and "my new card will arrive" hedges it after the word
    arriving = _ARRIVES.search(rule.condition) is not None
    doing = users_doing(rule)
    days = occasions(rule.condition, condition=True)
    numbers = numbered(rule.condition)  # "the lift in block A": a line about block C is about another lift
    # "the skate park": "Play park: bins installed" is another park (not so "my physio exercises" and "the knee
    # exercises", nor "a nut allergy" and "a peanut allergy")
    sorts = kinds_named(rule.condition, frozenset({"the"}))
    compounds = _compounds(rule.condition)  # "Skatepark: the bid was successful" for "the skate park"
    # "the leak sensor under the kitchen sink": not sensor=bathroom (the task's words, not its file's name)
    kinds = frozenset(rule.watch_words) - (place_words(rule) - content_words(without_places(rule.condition)))
    jobs = frozenset(wanted | content_words(without_places(rule.condition))) - GENERIC  # not tmp-cleanup
    # "I'm Omar. Tell me if anyone challenges me": a line that names others and not Omar is about them
    me = frozenset(stem(word) for word in rule.user.lower().split())
    about_me = _ME.search(rule.condition) is not None
    asking = _QUESTIONS_COUNT.search(rule.condition) is not None
    # A word of the condition counts on its own when it says what happens ("is delivered", "gets approved"), or
    # when the condition waits for it to be said ("mentions frost", "tell you what's in the fridge"); a word that
    # only names the thing ("the loan arrives", "buys a print of Harbour at Dusk") makes a line relevant, not
    # the condition met: held-out sets written blind showed such words wrong more often than right.
    # "Declan says what day he can come and fix the tiles": a day is what is said (:func:`valued`), not the tiles
    value_said = bool({stem(word) for word in _WHAT_VALUE.findall(rule.condition)} & _VALUE_WORDS)
    named = not value_said and (_NAMED_EVENT.search(rule.condition) is not None
                                or _TURNS_UP.search(rule.condition) is not None)
    # "anyone on the ladder challenges me": its verb
    done = _done_words(rule.condition) & wanted if not value_said else set()
    # "the plumber says what day he's coming": a day must be given; the word "day" ("once a day") says nothing
    wanted = wanted - {stem(word) for word in _WHAT_VALUE.findall(rule.condition)}
    to_me = _TO_ME.search(rule.condition) is not None
    now = _RETOLD.search(rule.condition) is None  # "closing at 2pm last Christmas Eve worked well" is told, not new
    purposes = _purposes(rule.condition)
    # "mention queen cells": "Queen seen, laying well" is not the queen cells
    phrases = _phrases(rule.condition, wanted)
    for item in items:
        if item.source in (SKILLS, MODELS):
            if item.status == "problem":
                return "problem"
            continue
        if doing and _only_meant(doing, item.text):
            continue  # "Found a flight; I'll book it tomorrow": what the user does is still to come
        old = _affirmed(item.removed)
        # a mail from whom the condition names is about them, but not about another of their cases ("Pawsure pay
        # out on Juniper's claim": Pawsure's line about Olive's claim is not Juniper's)
        about = names - _senders(names, item.text) if _from_them(names, item.text) else frozenset() \
            if _named_document(names, item) else names
        # "I'm Dan. … if Sophie swaps any of my weekends": a line that names either is about them
        ours = about | me if about_me and about else about
        text = "\n".join(line for line in item.text.splitlines() if not names_another(ours, line, item.removed))
        text = "\n".join(_SENTENCE.sub(lambda said: "" if another_day(days, said.group()) or another_numbered(
            numbers, said.group()) or (now and _RETOLD.search(said.group())) else said.group(), line)
            for line in text.splitlines()
            if not (about_me and me and names_another(me | about, line)) and not another_keyed(kinds, line)
            and not another_kind(sorts, line)
            and not (item.name.endswith(".log") and another_job(jobs, line)))
        # "Kirsty got a place in the ballot" is no news for "I get one"; for "I tell you a member has renewed" it is
        if not me and (_I_DO.search(told) if (told := _TOLD.sub("", rule.condition)) == rule.condition
                       else _MY_OWN.search(told)):
            text = _ONES_OWN.sub(lambda clause: "" if _someone_elses(clause.group(), names | wanted) else
                                 clause.group(), text)
        if to_me:  # "when Kofi pays me back": "Paid Kofi back the £9 he lent me" is the user paying, the other way
            text = _ONES_OWN.sub(lambda clause: "" if _I_PAID.match(clause.group()) else clause.group(), text)
        if not asking:  # "Any news on the ginger cat?" asks; it does not say one was seen
            text = _QUESTION.sub(" ", text)
        if purposes:  # "ready for its second coat" is not "ready to collect"
            text = _READY_FOR.sub(lambda ready: ready.group() if content_words(ready.group("what")) & purposes
                                  else "", text)
        tokens = clause_tokens(_named_cells(rule.condition, item, _apart(compounds, text)))
        # "my new bank card arrives": the card, in a change that says something came
        came = arriving and any(phrase.search(text) for phrase in _ARRIVAL_SAID)
        for index, token in enumerate(tokens):
            word = stem(token)
            alone = word in PREDICATES or ((named or came) and not unread) or word in done
            if word in wanted and alone and word not in old and not _none(tokens, index) \
                    and not _torn(phrases, tokens, index) and not (word in phrases and _none(tokens, index + 1)) \
                    and not (mine and _anothers(tokens, index)) and not (
                    arriving and _clause_hedged(tokens, index)) and (
                    _negated(tokens, index, NEGATIONS) if negative else not _negated(tokens, index, blocking)):
                return str(token)
        said = _concept(rule, text, item.removed, wanted, blocking) or _appointed(rule, text, item.removed) \
            or filled(rule, item) or moved(rule, item) or recorded(rule, item) or valued(rule, text, item.removed) \
            or rostered(rule, text, item.removed, item.columns or item.title) \
            or asked(rule, text, item.removed)
        if said is not None:
            return said
    return arrived(rule, items) or messaged(rule, items)


def _phrases(condition: str, wanted: set[str]) -> dict[str, str]:
    """The wanted words of what a condition waits to be mentioned that qualify the next wanted word ("mention queen
    cells": queen → cell). Not a marker in capitals ("any CRITICAL entries"), a verb ("the boiler's packed up":
    is, not whose) or an object ("I've lent someone a book")."""
    said = _NAMED_EVENT.search(condition)
    if said is None:  # (what is mentioned or noted: "the office is closing early" is no phrase to find whole)
        return {}
    words = _CASED_TOKENS.findall(without_places(condition[said.end():]))
    return {stem(first): stem(second.lower()) for first, second in itertools.pairwise(words)
            if first.islower() and not first.endswith(("'s", "ing", "ed")) and stem(first) in wanted - PREDICATES
            and stem(second.lower()) in wanted - _ANYONE and first != second}


def _torn(phrases: dict[str, str], tokens: list[str], index: int) -> bool:
    """Whether the token at ``index`` qualifies a wanted word in the condition but not in the change ("Queen
    seen" for "queen cells")."""
    after = phrases.get(stem(tokens[index]))
    return after is not None and [stem(token) for token in tokens[index + 1: index + 2]] != [after]


_READY_FOR = re.compile(r"\bready\s+(?:for|to)\s+(?:(?:its|the|a|an|his|her|their|my|our|your|be)\s+)?"
                        r"(?P<what>[a-z]+(?:\s+[a-z]+)?)", re.I)


def _purposes(condition: str) -> frozenset[str]:
    """What a condition's thing must be ready for ("ready to collect": collect, and what means the same, pick-up,
    collection), or nothing when it says only "ready"."""
    ready = _READY_FOR.search(condition)
    if ready is None:
        return frozenset()
    what = content_words(ready.group("what"))
    return frozenset(what.union(*(stems for stems, _pattern in MEANINGS if stems & what)))


def _compounds(condition: str) -> dict[str, str]:
    """Two words of the condition written as one ("skate park" as "skatepark"), by the one word."""
    words = [word for word in _TOKENS.findall(condition.lower()) if word.isalpha() and word not in STOPWORDS]
    return {first + second: f"{first} {second}" for first, second in itertools.pairwise(words)
            if len(first) > 2 and len(second) > 2}


def _apart(compounds: dict[str, str], text: str) -> str:
    """``text`` with the condition's compounds written as its two words (:func:`_compounds`)."""
    lowered = text.lower()
    if not any(one in lowered for one in compounds):
        return text
    return re.sub(r"[A-Za-z]+", lambda word: compounds.get(word.group().lower(), word.group()), text)


_ARRIVAL_SAID = meanings_of({stem("arrive")})
_RETOLD = re.compile(r"(?<!since )\blast (?:year|month|season|term|christmas|easter|summer|winter|spring|autumn|"
                     r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
                     r"(?!\s+\d))\b|"
                     r"\b(?:a|one|two|three|\d+) (?:months|years?) ago\b", re.I)
"""A sentence about a past long gone ("like last year", "two years ago"), not what has just happened ("since last
night" still holds)."""


def _done_words(condition: str) -> set[str]:
    """The stems of the words a condition says are done ("challenges", "approved"): a verb's ending after a word
    that is no determiner."""
    tokens = _TOKENS.findall(without_places(condition).lower())
    # (not the user's own in a clause that says which thing: "the hops I ordered arrive")
    return {stem(token) for index, (before, token) in enumerate(itertools.pairwise(tokens))
            if token.endswith(("es", "ed")) and before not in _DETERMINERS and token not in STOPWORDS
            and not (before in ("i", "we") and index and _describes(tokens[index - 1]))} | {
        stem(token) for before, token, after in zip(tokens, tokens[1:], tokens[2:], strict=False)
        if _acts_on(token, after) and before not in _DETERMINERS and token not in STOPWORDS}


_NAMED_EVENT = re.compile(r"\b(?:mentions?|mentioning|says?|said|reports?|reported|tells? (?:me|you|us)|tell you|"
                          r"writes?|notes?|logs?|flags?|marks?|contains?|includes?|lists?)\b|\bhas\b[^.]*\bin it\b",
                          re.I)
"""A condition that waits for something to be said or written: the word it names is what is said."""
_WHAT_VALUE = re.compile(r"\b(?:what|which)\s+([a-z]+)\b", re.I)
_SAID_CLAUSE = re.compile(r"\b(?:is|are|was|were|has|have|had|will|won't|no|yes|not)\b", re.I)
"""What a condition waits to be said is a clause ("says no", "say the price is going up"), not a thing."""
_WEEKDAY = re.compile(r"\b(?:mon|tue|tues|wed|wednes|thu|thur|thurs|fri|sat|satur|sun)(?:day)?\b", re.I)


_NAMED_MONTH = re.compile(rf"(?<![\d,] )\b(?P<month>{_MONTHS})\s+(?!I\b|we\b|you\b)(?=[A-Za-z])")
"""A month that qualifies a noun ("the June session", "the March bank statement"), not a date's ("on 1 September")."""


_QUESTION = re.compile(r"[^.!?\n]*\?")
_QUESTIONS_COUNT = re.compile(
    r"\b(?:ask|asks|asked|asking|question|questions|quer(?:y|ies)|enquir\w*|inquir\w*|wonders?|whether|request\w*|"
    r"invit\w*|offers?|mention\w*|tag|tags|tagged|messages?|messaged|emails?|emailed|writes?|wrote|repl(?:y|ies|ied)|"
    r"contacts?|contacted|texts?|texted)\b|@", re.I)
"""A condition that waits for a question or a request, or any message at all, which a question may well be."""
_ONES_OWN = re.compile(r"[^.!?;,\n]+")
_I_DO = re.compile(r"\b(?:I|I'm|I've|I am|I have)\b")
"""A condition whose doer is the user ("I get a place in the ballot", "when I tell you I've booked a flight")."""
_TO_ME = re.compile(r"\b(?:pays?|paid|paying)\s+(?:me|us)\s+back\b|\brepays?\s+(?:me|us)\b", re.I)
_I_PAID = re.compile(r"\s*(?:(?:I|we)(?:'ve| have)?\s+(?:just\s+)?)?(?:paid|sent|transferred|gave|repaid)\b", re.I)
"""A clause in which the user pays ("I paid Hana back", "Paid Kofi back the £9"), not one paid to them."""
_MY_OWN = re.compile(r"\b(?:I|I'm|I've|I am|I have|my|our|we|we've)\b")
_TOLD = re.compile(r"^\s*(?:I|we)\s+(?:tell|mention|say|let)\s+(?:you\s+)?(?:know\s+)?(?:that\s+)?", re.I)
"""The user's telling before what they tell: its doer is whoever the rest names."""
_DOER = re.compile(r"^\s*(?P<name>[A-Z][a-z]+)(?:\s+[A-Z][a-z]+)?\s+(?P<verb>[a-z]+)")
_PERSONS = re.compile(r"\b(?:i|me|my|mine|i'm|i've|i'd|i'll|you|your|yours|you're|you've|we|us|our)\b", re.I)


def _someone_elses(clause: str, names: frozenset[str]) -> bool:
    """Whether a clause says what someone else did ("Kirsty got a place in the Loch Ness ballot"): it begins
    with a name that is not one of the condition's ``names`` or words, and says nothing of the user (no I, me,
    you or we)."""
    doer = _DOER.match(clause)
    if doer is None or _PERSONS.search(clause):
        return False
    name, verb = doer.group("name").lower(), doer.group("verb")
    did = verb in _DID or verb.endswith(("ed", "s")) and verb not in STOPWORDS
    return did and not _not_a_name(name) and name not in STOPWORDS and stem(name) not in names \
        and name not in _NOT_NAMED


def _not_a_name(word: str) -> bool:
    """A word that reads as a verb or an adverb, not a name, at the start of a note ("Got a place!", "Booked
    the hall", "Finally got the leeks in")."""
    return word in _DID or word.endswith(("ed", "ing", "ly"))


_DID = frozenset({"got", "gets", "has", "had", "is", "was", "won", "wins", "says", "said", "will", "came", "went",
                  "made", "took", "saw", "found", "lost", "left", "won't", "can't", "didn't", "rang", "spoke", "sent",
                  "gave", "paid", "bought", "sold", "brought", "wrote", "told", "kept"})


_NOT_NAMED = NOT_NAMES | {"yesterday", "everyone", "someone", "anyone", "nobody", "please", "thanks",
                           "congratulations", "sorry", "still", "also", "just"}


_DAY_NUMBER = r"\d{1,2}(?:st|nd|rd|th)?"
_DATE_TEXT = (rf"\b{_DAY_NUMBER}(?:\s*[-–]\s*{_DAY_NUMBER})?\s+(?:of\s+)?(?P<month>{MONTH})[a-z]*\b"
              rf"|\b(?P<before>{MONTH})[a-z]*\s+{_DAY_NUMBER}\b")
_DATED = re.compile(_DATE_TEXT, re.I)
_FOR_DATED = re.compile(rf"(?:\b(?:for|on)\s+|(?<!by )(?<!until )(?<!before )\b(?={DAY}))(?:(?:{DAY}),?\s+)?"
                        rf"(?:the\s+)?(?:{_DATE_TEXT})", re.I)
"""A date a thing is for or on ("my leave for 3-7 August", "(on) Tuesday 21 April"), not a deadline ("by 30 June")."""
_IN_MONTH = re.compile(r"\b(?:[Ii]n|[Dd]uring)\s+(?:early\s+|late\s+|mid[- ])?(?P<month>(?:January|February|March|"
                       r"April|May|June|July|August|September|October|November|December))\b(?!\s+\d{1,2}\b)")
"""A month a thing happens in ("shut on a Saturday in May"), a month's name with its capital (not "may")."""
_WEEKS = re.compile(r"\b(?P<which>this|next|last) week\b|\bthe (?P<after>week after|following week)\b", re.I)


def occasions(text: str, *, condition: bool = False) -> frozenset[str]:
    """The weekdays ``text`` names (by their first three letters: "this Thursday's rehearsal", thu), the months it
    names a thing by ("the June DELF exam", month:jun), the months of its dates (date:aug; in a ``condition``, only
    of a date a thing is for: "my leave for 3-7 August") and the weeks it names by where they are (week:this,
    week:next: "coming the week after")."""
    dated = _FOR_DATED if condition else _DATED
    weekdays = {match.group()[:3].lower() for match in _WEEKDAY.finditer(text)}
    months = {"month:" + match.group("month")[:3].lower() for match in _NAMED_MONTH.finditer(text)}
    dates = {"date:" + (match.group("month") or match.group("before"))[:3].lower() for match in dated.finditer(text)}
    dates |= {"date:" + match.group("month")[:3].lower() for match in _IN_MONTH.finditer(text)}
    weeks = {"week:" + (match.group("which") or "next").lower() for match in _WEEKS.finditer(text)}
    return frozenset(weekdays | months | dates | weeks)


_NUMBERED = re.compile(r"\b(?P<noun>(?i:block|flat|room|gate|platform|unit|hut|plot|bay|pitch|ward|bed|stall|locker|"
                       r"bus|route|floor|level|door|coach|court|stand|house|class|team|group|site|building|tower|"
                       r"studio|office|car park|terminal|pier|hive|tank|pond|pen|field|lane|table|stage|zone|aisle|"
                       r"shelf|cabin|lodge|tent|mooring|allotment))\s+(?P<id>[A-Z]|\d+[A-Za-z]?)\b")
"""A thing known by its number or letter: "block A", "flat 3B", "platform 4", "hut 27"."""


_CODE = re.compile(r"(?<![\w-])(?P<letters>[A-Z]{1,4})(?P<digits>\d{1,4})[A-Z]?(?![\w-])")
"""A code of capitals and digits ("LD3", "SY16", "BA117"): codes that begin with as many letters are of a kind."""


_TWO_WORD_NAME = re.compile(r"(?<![\w'])(?P<first>[A-Z][a-z]+)\s+(?!(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|"
                            r"May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\b)(?P<second>[A-Z][a-z]+)\b")
"""A name of two capitalised words ("Mill Lane", "Larch Close"): "Mill Road" is another place."""


def numbered(text: str) -> dict[str, frozenset[str]]:
    """The numbered things ``text`` names, by kind: ``{"block": {"a"}}``; codes such as "LD3" by their shape;
    names of two words by their first (``{"name:mill": {"lane"}}``)."""
    found: dict[str, set[str]] = {}
    for match in _TWO_WORD_NAME.finditer(text):
        found.setdefault("name:" + match.group("first").lower(), set()).add(match.group("second").lower())
    for match in _NUMBERED.finditer(text):
        found.setdefault(match.group("noun").lower(), set()).add(match.group("id").lower())
    for match in _CODE.finditer(text):
        found.setdefault(f"code:{len(match.group('letters'))}", set()).add(match.group().lower())
    return {noun: frozenset(ids) for noun, ids in found.items()}


def another_numbered(mine: dict[str, frozenset[str]], text: str) -> bool:
    """Whether ``text`` names a thing of a kind the condition numbers, but only by other numbers ("block C" for
    "the lift in block A")."""
    return bool(mine) and any(noun in mine and not ids & mine[noun] for noun, ids in numbered(text).items())


_KEYED = re.compile(r"\b(?P<key>[a-z]{4,})(?:=|\"\s*:\s*\")(?P<value>[\w.-]+)", re.I)
"""``branch=main``, and in JSON ``"language": "Welsh"``."""


def _keys_valued(words: frozenset[str], text: str) -> frozenset[str]:
    """The keys of ``key=value`` pairs in ``text`` whose value is one of ``words`` ("branch=main")."""
    return frozenset(match.group("key") for match in _KEYED.finditer(text)
                     if stem(match.group("value").lower()) in words)


def _another_value(keys: frozenset[str], words: frozenset[str], line: str) -> bool:
    """Whether ``line`` gives one of ``keys`` a value that is none of ``words`` ("branch=feat" for main)."""
    return any(match.group("key") in keys and stem(match.group("value").lower()) not in words
               for match in _KEYED.finditer(line))


def another_keyed(words: frozenset[str], line: str) -> bool:
    """Whether a log line's ``key=value`` names another of a kind the condition names ("sensor=bathroom" for "the
    leak sensor under the kitchen sink", "printer=ender" for "printing on the prusa"): the key is a kind the
    condition names, and the value shares no word with it."""
    for match in _KEYED.finditer(line):
        key = stem(match.group("key"))
        if not any(len(prefix := min(key, word, key=len)) >= 5 and key.startswith(prefix) and word.startswith(prefix)
                   for word in words):
            continue
        value = content_words(match.group("value").replace("-", " ").replace("_", " "))
        if value and not value & words:
            return True
    return False


def kinds_named(condition: str, determiners: frozenset[str] = frozenset()) -> dict[str, frozenset[str]]:
    """The things a condition names by their kind after a determiner ("the checkout API", "the grass pollen
    forecast"): each head noun with the word before it that says which (``{"api": {"checkout"}}``); only after
    one of ``determiners`` when given. Under ``""``, the names the condition gives, which say which too."""
    tokens = _TOKENS.findall(without_places(condition).lower().replace("-", " "))
    found: dict[str, set[str]] = {}
    for determiner, which, head in zip(tokens, tokens[1:], tokens[2:], strict=False):
        if determiner in (determiners or _DETERMINERS) and _qualifier(which) and _qualifier(head):
            found.setdefault(stem(head), set()).add(stem(which))
    kinds = {head: frozenset(which) for head, which in found.items()}
    if kinds:  # (under "": its names, which say which as well: "the boat trip to the Farnes" is "the Farnes trip")
        kinds[""] = frozenset(stem(match.group().lower()) for match in _CAPITALISED.finditer(without_places(condition))
                              if match.start())
    return kinds


def another_kind(mine: dict[str, frozenset[str]], text: str) -> bool:
    """Whether ``text`` names a thing the condition names by its kind as another kind, and never as the
    condition's ("search-api … (5.1%)" for "the checkout API error rate goes over 2%")."""
    if not mine:
        return False
    said = {stem(word) for word in _TOKENS.findall(text.lower().replace("-", " "))}
    for pair in itertools.chain.from_iterable(pattern.finditer(text.lower()) for pattern in _KIND_PAIRS):
        which, head = pair.group("which"), stem(pair.group("head"))
        if head and head in mine and _qualifier(which) and not which.endswith(("ed", "ing")) \
                and stem(which) not in mine[""] and not mine[head] & said:
            return True
    return False


def _qualifier(word: str) -> bool:
    """A word that can say which of a kind a thing is ("checkout", "grass"), not how many, whose or when."""
    return word.isalpha() and len(word) > 2 and word not in STOPWORDS and word not in GENERIC \
        and word not in _ANY_KIND and not _WHEN_WORD.fullmatch(word)


_KIND_PAIRS = (re.compile(r"(?=(?:^|(?<!\w)[^\w\s]|[^\w\s](?=\s)|\b(?:the|a|an|my|our|your|their))\s*(?P<which>[a-z]+)"
                          r"\s+(?P<head>[a-z]+)\b)"),
               re.compile(r"\b(?P<which>[a-z]+)[-_](?P<head>[a-z]+)\b"))
"""A thing named by its kind where a phrase begins ("Tree pollen: …", "your car insurance") or in one word
("search-api"); the first as a lookahead, so that "Subject: Your car insurance" yields "your car" and "car
insurance" both."""
_DETERMINERS = frozenset({"the", "a", "an", "any", "my", "our", "his", "her", "their", "your"})
_ANY_KIND = frozenset({
    "new", "latest", "last", "next", "first", "final", "current", "recent", "usual", "regular", "daily", "weekly",
    "monthly", "yearly", "annual", "nightly", "morning", "evening", "big", "small", "little", "old", "same",
    "other", "another", "every", "each", "own", "full", "whole", "total", "overall", "official", "proper", "good"})
"""Words before a noun that do not say which kind of it is meant."""


_LOGGED = re.compile(r"^\s*\[?(?:\d[\d:.T/+-]*\]?\s+)+(?P<job>[a-z]+(?:[-_][a-z]+)+)\b", re.I)


def another_job(words: frozenset[str], line: str) -> bool:
    """Whether a log line is about another job than the condition's: after its date and time, the job's name
    ("tmp-cleanup FAILED" for "the 3am invoice export doesn't run") shares no word with the condition."""
    job = _LOGGED.match(line)
    return job is not None and not content_words(re.sub(r"[-_]", " ", job.group("job"))) & words


_SENTENCE = re.compile(r"[^.!?;\n]+(?:[.!?;]+|$)")
"""A sentence of a line: "Wednesday bike night cancelled. Sunday as planned." says two things of two days."""


def another_day(days: frozenset[str], line: str) -> bool:
    """Whether ``line`` names a weekday (or a month's thing), and none of the weekdays (the months) of ``days``, the
    condition's: "the sectional on Tuesday is cancelled" is no news for "this Thursday's rehearsal is called off",
    nor "registration for the December session opens" for "registration opens for the June exam"."""
    said = occasions(line)
    for kind in ("", "month:", "date:", "week:"):  # weekdays, then each kind of the others on its own
        mine = {day for day in days if day.startswith(kind) and (kind or ":" not in day)}
        theirs = {day for day in said if day.startswith(kind) and (kind or ":" not in day)}
        if mine and theirs and not mine & theirs:
            return True
    return False

_AT_HOUR = re.compile(r"\bat\s+(?:the\s+)?(?:(?P<h>\d{1,2})(?::\d\d)?\s?(?P<half>am|pm)|(?P<h24>\d{1,2}):\d\d)\b", re.I)
_CLOCK_HOUR = re.compile(r"(?<![\d:.])(?:(?P<h>\d{1,2})(?::\d\d)?\s?(?P<half>am|pm)\b|(?P<h24>\d{1,2}):\d\d(?![\d.]))",
                         re.I)


def _hours(pattern: re.Pattern[str], text: str) -> frozenset[int]:
    hours = set()
    for match in pattern.finditer(text):
        if match.group("h24") is not None:
            hours.add(int(match.group("h24")) % 24)
        else:
            hour = int(match.group("h")) % 12
            hours.add(hour + 12 if match.group("half").lower() == "pm" else hour)
    return frozenset(hours)


def hours_named(condition: str) -> frozenset[int]:
    """The hours of the day the condition reads its figure at ("under 50% at 4pm", "at the 6am check": 16, 6)."""
    return _hours(_AT_HOUR, condition)


def another_hour(hours: frozenset[int], line: str) -> bool:
    """Whether ``line`` is a reading taken at another hour than the condition's: it names a clock time, and none
    at those ``hours`` ("2026-04-20 14:00 leisure 12.0V" is not the 6am check)."""
    said = _hours(_CLOCK_HOUR, line)
    return bool(hours and said and not hours & said)


_POSTED = re.compile(r"\b(?:arrives?|comes? in|lands?|shows? up|turns? up|(?:is|are|gets?|has been|have been) "
                     r"(?:in|out|posted|published|entered|released|added|filled in|available))\b", re.I)
_PLACEHOLDER = re.compile(r"(?<![\w-])(?:pending|tbd|tba|tbc|n/a|awaiting|unknown|to come|to follow|"
                          r"not (?:yet )?(?:in|known|available|"
                          r"posted|published|released)|[?]+|[-–—]+)(?![\w-])", re.I)
"""What a table or list shows where a value is still to come ("| Statistics II | 6 | pending |", "Result: –")."""
_BULLET = re.compile(r"^\s*[-*•]\s+")


def filled(rule: TaskRule, item: ChangeItem) -> str | None:
    """For a condition that waits for something to show up ("my Statistics II grade shows up in grades.md",
    "the results are posted"): a line that named it with a placeholder ("pending", "TBD", "–") now holding a
    value in its place, or None. The line must name what the condition is about; a line that still says
    "pending" (with a note added) holds no value yet."""
    if item.source != "file" or not _POSTED.search(rule.condition):
        return None
    subject = subject_of(rule) - GENERIC - place_words(rule)
    waiting = [line for line in item.removed.splitlines() if _PLACEHOLDER.search(line)]
    for line in item.text.splitlines():
        if _PLACEHOLDER.search(line) or not subject & content_words(line):
            continue
        for old in waiting:
            kept = content_words(_PLACEHOLDER.sub(" ", old))
            if kept and kept <= content_words(line) and subject & kept:
                return line.strip(" |")
    return None


_CLOCK_TIME = r"\b\d{1,2}[:.]\d{2}(?::\d{2})?\b|\b\d{1,2}\s?(?:am|pm)\b"
_DATE = (r"\b" + DAY + r"\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"
         rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+{MONTH}[a-z]*\b|\b{MONTH}[a-z]*\s+\d{{1,2}}(?:st|nd|rd|th)?\b")
def recorded(rule: TaskRule, item: ChangeItem) -> str | None:
    """For a condition that waits for a thing to be listed in a watched file: someone doing what the file records
    by its name ("anyone donates a wedding dress to the shop (shop/donations.md)", "books", "orders") or the thing
    turning up ("a fully remote data analyst job turns up in jobs/feed.md"): a line added to that file (none
    replaced) that names the whole thing, not negated ("ivory wedding dress, size 12"; "lilac bridesmaid dresses"
    is another thing, a "senior data engineer" another job)."""
    if item.source != "file" or item.status != "changed" or item.removed.strip():
        return None
    if _says_when(rule):  # "books the hut for the bank holiday weekend": which rows are then is not in the row
        return None
    condition = without_places(rule.condition)  # "(shop/donations.md)" names the file, it does nothing
    places = place_words(rule) | path_words(item.name)
    for listed in _listed_things(condition, path_words(item.name)):
        # (a "job" in jobs/feed.md names only the file)
        thing = {word for word in listed - GENERIC if word not in places and word + "s" not in places}
        for line in item.text.splitlines():
            words = clause_tokens(line)
            said = [at for at, word in enumerate(words) if stem(word) in thing]
            if thing and thing <= content_words(line) and not any(_negated(words, at) for at in said):
                return line.strip(" |-")
    return None


_TURNS_UP = re.compile(r"\b(?:turns? up|shows? up|appears?|comes? up|(?:is|gets?) (?:posted|listed|advertised))\b",
                       re.I)


def _listed_things(condition: str, kinds: frozenset[str]) -> Iterator[frozenset[str]]:
    """The words of what a condition waits to see listed: after a doing the file is named for ("donates" and
    donations.md; not "tennis" and tennis/ladder.md, a name), or before "turns up"."""
    tokens = _TOKENS.findall(condition.lower())
    for index, token in enumerate(tokens):
        done = stem(token)
        if len(done) >= 4 and token.endswith("s") and done not in kinds and any(
                kind.startswith(done) for kind in kinds):
            yield content_words(" ".join(itertools.takewhile(lambda word: word not in _COMPLEMENTS,
                                                             tokens[index + 1:])))
    turns = _TURNS_UP.search(condition)
    if turns is not None:
        thing = re.split(r"\b(?:a|an|any|each|every|new)\s+", condition[: turns.start()], flags=re.I)[-1]
        yield content_words(thing)


def _says_when(rule: TaskRule) -> bool:
    """Whether a condition says when what it waits for is (a date, a weekday, "that weekend", "next week"): a
    list's or a booking's row does not say which of them it is for."""
    condition = without_places(rule.condition)
    return bool(_WHENS.search(condition) or occasions(condition) or _AT_A_TIME.search(condition))


_AT_A_TIME = re.compile(r"\bthat (?:time|day|date|week|night|weekend|slot)\b|\b(?:session|weekend|week|night|"
                        r"evening|morning|afternoon)\b", re.I)


_MOVED = re.compile(r"\b(?:moved|moves?|rescheduled?|reschedules|postponed?|postpones|retimed|put back|"
                    r"brought forward)\b|\bchanges? (?:its|their|the) (?:time|times|date|dates|day|slot)\b", re.I)
_WHENS = re.compile(_CLOCK_TIME + "|" + _DATE, re.I)
_AWAY = re.compile(r"\s+away\s+from\s+(?P<place>[^,.;()]+)", re.I)
_HOUR = re.compile(r"^(\d{1,2})[:.](\d{2})")


def _whens(text: str) -> frozenset[str]:
    """The days, dates and clock times ``text`` says, alike however written ("7.40" and "07:40" are one)."""
    return frozenset(_HOUR.sub(lambda clock: f"{int(clock.group(1)):02d}:{clock.group(2)}", when.lower())
                     for when in _WHENS.findall(text))


def moved(rule: TaskRule, item: ChangeItem) -> str | None:
    """For a condition that waits for something to be moved or retimed ("Dad's Sunday slot gets moved", "the
    7.40 bus changes its time"): a line the change replaced that named it and said when, now saying another
    day, date or time; or the time it is known by ("the 7.40") gone from the lines that replaced it."""
    verb = _MOVED.search(rule.condition)
    if item.source not in NEWS or not item.removed or verb is None:
        return None
    known = {when for when in _whens(rule.condition) if ":" in when}
    subject = rule_names(rule) or (content_words(rule.condition[: verb.start()]) - GENERIC - place_words(rule))
    added = [(line, _whens(line)) for line in item.text.splitlines() if line.strip()]
    away = _AWAY.match(rule.condition, verb.end())
    if away is not None:  # "moves away from the Fox and Pheasant": a new time there is no move away
        place = content_words(away.group("place")) - GENERIC
        what = subject - place or content_words(rule.condition[: verb.start()]) - GENERIC - place_words(rule)
        was_there = any(what & content_words(old) and place <= content_words(old) for old in item.removed.splitlines())
        return next((line.strip(" |") for line, _ in added if was_there and what & content_words(line)
                     and not place <= content_words(line)), None)
    for old in item.removed.splitlines():
        before = _whens(old)
        if known & before:  # the 07:40 replaced by lines none of which leaves at 07:40
            if added and not any(known & after for _, after in added):
                return f"{sorted(known)[0]} no longer"
            continue
        if not before or known or not subject & content_words(old):
            continue
        for line, after in added:
            if after and after != before and subject & content_words(line):
                return line.strip(" |")
    return None
_FIGURE = r"(?<![\w.,:/-])\d[\d,]*(?:\.\d+)?(?![\w:/-]|\.\d)"
_MONEY = (r"(?:[€$£]\s?\d[\d,.]*|\d[\d,.]*\s?(?:eur|euros?|usd|dollars?|gbp|pounds?|chf|€|\$|£)(?![a-z]))")
CONCEPTS: tuple[tuple[frozenset[str], re.Pattern[str]], ...] = tuple(
    (frozenset(stem(word) for word in words.split()), re.compile(pattern, re.I)) for words, pattern in (
        ("expense expenses cost costs spend spent spending payment payments paid money price quote", _MONEY),
        ("urgent urgently asap", r"\b(?:urgent|asap|immediately|right away|today|tonight|deadline)\b"),
        ("workout workouts exercise training sport", r"\b(?:ran|run|jogged|swam|swim|cycled|biked|rode|hiked|"
         r"gym|yoga|pilates|lifted|rowed|workout|training|km|miles|lengths|laps|reps)\b"),
        ("act", r"\b(?:need to|needs to|must|have to|has to|remember to|don't forget|due|deadline|urgent|asap|"
         r"today|tonight|tomorrow)\b"),
        ("out", r"\b(?:out of|ran out|run out|no more|used up)\b"),
    ))
"""What a condition's word means when the change says it in other words: an expense is a sum of money on the
new line, "urgent" is today or a deadline, a workout is a run or a swim, something "to act on" is a need or a
due date, "out of" is run out. Each entry: the condition's words (stemmed) and what in the change says it."""


_WHEN_VALUES = frozenset(stem(word) for word in ("time", "times", "date", "dates", "day", "eta"))
_NAMES_A_DOCUMENT = re.compile(r"\b([a-z]+)\s+(?:list|sheet|guide|catalogue|leaflet|card)s?\b", re.I)
_NAMED_BY_NUMBER = re.compile(r"\b([a-z]+)\s+\d+\b", re.I)
VALUES: tuple[tuple[frozenset[str], re.Pattern[str]], ...] = tuple(
    (frozenset(stem(word) for word in words.split()), re.compile(pattern, re.I)) for words, pattern in (
        ("time times eta", _CLOCK_TIME),
        ("date dates day", _DATE),
        ("price prices cost fee fees fare bill rent", _MONEY),
        ("figure figures number score scores weight temperature grade mark marks rating total count", _FIGURE),
    ))
"""Things a condition waits to be given a value ("Dad adds his flight times", "I tell you my parkrun time", "the
2025 emissions figure is in the report"), and what such a value looks like on a line: a clock time, a date, a
sum of money, a figure."""
_VALUE_WORDS = frozenset().union(*(stems for stems, _ in VALUES))
"""What a condition may wait to be told the value of ("what day", "which time"; not "what is in the fridge")."""


_ANYONE = frozenset(stem(word) for word in ("someone", "somebody", "anyone", "anybody", "everyone", "everybody"))
_UNTIL = frozenset({"until", "till", "til", "by", "before"})


def valued(rule: TaskRule, text: str, removed: str) -> str | None:
    """For a condition that waits for a value ("my parkrun time", "his flight times"): a value of that kind
    newly on a line that names what the value is of ("parkrun this morning in 26:41"), not negated or hedged
    before it in its clause, and not someone else's for a condition about the user's own. None for a condition
    that compares a figure or waits for one to change (:func:`compared`, :func:`changed_subject`)."""
    if _COMPARES.search(rule.condition) or _CHANGE.search(rule.condition):
        return None
    words = content_words(rule.condition)
    # the value is what must come ("adds his flight times"), not what something happens to ("the bill becomes
    # overdue")
    awaited = words if _POSTED.search(rule.condition) else condition_words(rule)
    # "Lily's grade 3 piano result": a grade with its number is the exam's name, not a grade to wait for
    awaited = awaited - {stem(word) for word in _NAMED_BY_NUMBER.findall(rule.condition)}
    # "Harrow's new price list": a list of prices is a document, not a price to wait for
    awaited = awaited - {stem(word) for word in _NAMES_A_DOCUMENT.findall(rule.condition)}
    kinds = [(stems, pattern) for stems, pattern in VALUES if stems & awaited]
    if not kinds:
        return None
    valued_words = frozenset().union(*(stems for stems, _ in kinds))
    subject = words - valued_words - GENERIC - PREDICATES - _ANYONE - {stem(word) for word in _SAYING}
    # where the value goes is no subject ("family/reunion.md"), unless it is all there is ("running/parkrun.md")
    subject = subject - place_words(rule) or subject
    if not subject:
        return None
    mine = _MINE.search(rule.condition) is not None
    given = _GIVES.search(rule.condition)
    asks_when = bool({stem(word) for word in _WHAT_VALUE.findall(rule.condition)} & _WHEN_VALUES) or (
        given is not None and stem(given.group("what").lower()) in _WHEN_VALUES)
    for line in text.splitlines():
        if not subject & content_words(line) or _PLACEHOLDER.search(_BULLET.sub("", line)):  # "pending (…19 Dec)"
            continue
        lowered = line.lower()
        dates = [date.span() for date in _DATED.finditer(lowered)]
        for stems, pattern in kinds:
            for match in pattern.finditer(lowered):
                value = match.group().strip()
                if value in removed.lower() or stem(value) in subject or (pattern.pattern == _FIGURE and any(
                        start <= match.start() < end for start, end in dates)):  # "taken on 30 May"
                    continue
                before = clause_tokens(lowered[: match.start()])
                # (a day or a time asked for is future by nature: "he'll be round Thursday 19th" gives one)
                blocking = NEGATIONS if stems & _WHEN_VALUES and asks_when else NEGATIONS | HEDGES
                if _negated([*before, value], len(before), blocking) or (mine and _anothers(before, len(before))) or (
                        before[-1:] and before[-1] in _UNTIL):  # "half price until Sunday": a limit, no value
                    continue
                return value
    return None


_PUTS_ME = re.compile(r"\b(?:puts?|adds?|lists?|books?|assigns?|schedules?|picks?|selects?|names?|rosters?|signs?)\s+"
                      r"me\b|\b(?:assigned|allocated|rostered|scheduled|put down|put|picked|selected|listed|booked|"
                      r"added)\s+(?:(?:to|for|on)\s+)?me\b|\bI (?:get|am|'m) (?:put|picked|selected|assigned|added|"
                      r"listed|rostered|scheduled|booked|down)\b", re.I)
"""A condition met by the user's name on a new line: "the practice puts me on a Saturday clinic", "I get put down
for another Sunday", "newly assigned to me"."""
_ON_DUTY = re.compile(r"\s+on\s+(?:the\s+)?(?!(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|(?:rota|roster|list|"
                      r"schedule|team|shift|call|duty)s?\b)(?P<role>[a-z]{3,})\b(?!\s+\d)", re.I)
"""A duty the condition puts the user on ("puts me on bathrooms"), not a day ("puts me on Saturday") or the
list itself ("puts me on the rota")."""
_AS_ROLE = re.compile(r"(?:\s+(?:down|up|on|in))?\s+as\s+(?:an?\s+|the\s+)?(?P<role>[a-z]+(?:[\s-][a-z]+)?)", re.I)


def rostered(rule: TaskRule, text: str, removed: str, header: str = "") -> str | None:
    """For a title that names its user (:attr:`TaskRule.user`) and a condition that puts them on something
    (:data:`_PUTS_ME`): a new line that names them by their whole name (and the role the condition names, in the
    line or as the column of their name in ``header``), or None ("Priya Kaur" is not Priya Shah)."""
    puts = _PUTS_ME.search(rule.condition)
    if not rule.user or puts is None:
        return None
    me = content_words(rule.user)
    # "put down as tail walker": a row that has them as a marshal puts them on something else
    role = _AS_ROLE.match(rule.condition, puts.end()) or _ON_DUTY.match(rule.condition, puts.end())
    duty = content_words(role.group("role")) - GENERIC if role else frozenset()
    named = [content_words(cell) for cell in cells(table_header(header))] if duty and header else []
    # an edit of a line that had them already (the same row, its flowers changed) puts them on nothing new
    had = {cells(line)[0].strip() for line in removed.splitlines() if me <= content_words(line)}
    for line in text.splitlines():
        if me <= content_words(line) and line.strip() not in removed and cells(line)[0].strip() not in had and (
                duty <= content_words(line) or any(duty <= column and me <= content_words(cell) for column, cell
                                                   in zip(named, cells(line), strict=False))):
            return line.strip(" |")
    return None

_ASKS = re.compile(r"\basks?\s+(?:me\s+|us\s+)?(?:to|if|for|whether)\s+(?P<what>.+)", re.I)
_REQUEST = re.compile(r"\b(?:could|can|would|will|may)\s+(?:i|we|you|she|he|they)\b|\bwould you mind\b|"
                      r"\bplease\b|\bany chance\b", re.I)
_TAKEN_BACK = re.compile(r"\bignore (?:me|that|this)\b|\bnever ?mind\b|\bno need\b|\bscratch that\b|"
                         r"\bforget (?:it|that)\b", re.I)
_ANYTHING = frozenset({"something", "anything", "thing", "things", "it"})


def asked(rule: TaskRule, text: str, removed: str) -> str | None:
    """For "anyone asks to borrow my overlocker" or "someone asks me to do something": a new request ("could I
    borrow your overlocker …?", "can you pick up Mum's prescription?") that names what is asked for by its head
    noun (a request for the rotary cutter is not for the overlocker), or any request when the condition names
    nothing in particular; none when the change takes it back ("ignore me, it's booked")."""
    match = _ASKS.search(rule.condition)
    if match is None:
        return None
    thing = _sent_thing(match.group("what"))
    thing = "" if thing in _ANYTHING else thing
    if _TAKEN_BACK.search(text):  # "Ignore me Rob, Ellie already booked it"
        return None
    for line in text.splitlines():
        request = _REQUEST.search(line)
        if request is None or line.strip() in removed or (thing and thing not in content_words(line)):
            continue
        before = clause_tokens(line[: request.start()])
        if not _negated([*before, "x"], len(before), NEGATIONS):
            return request.group().strip()
    return None

_USERS_OWN = re.compile(r"\b(?:I|we|you)\s+(?:have\s+|had\s+|just\s+)?([a-z]+ed|sent|lent|bought|sold|got|left|"
                        r"put|made|paid|gave|took)\b", re.I)
_HAS_PAID = re.compile(r"\b(?:has|have|had|is|are|was|were|been|gets?|got) paid\b", re.I)


def _concept(rule: TaskRule, text: str, removed: str, wanted: set[str], blocking: frozenset[str]) -> str | None:
    """A concept of the condition (:data:`CONCEPTS`), or its predicate in other words
    (:func:`~.meanings.meanings_of`), said in the new text, not negated or hedged (by ``blocking``), and not
    said before."""
    words = content_words(rule.condition) | {word for word in _TOKENS.findall(rule.condition.lower())}
    if _HAS_PAID.search(rule.condition):  # "a customer has paid": a payment made, not any sum of money
        words -= {"paid"}
    # "the blender I sent back": what the user did is what the thing is, not what must happen to it
    words -= {stem(word) for word in _USERS_OWN.findall(rule.condition)} - wanted
    words -= {stem(word) for word in _NAMES_A_DOCUMENT.findall(rule.condition)}  # a price list, no price
    for phrase, _ in _PHRASAL:  # "drops out": not what "drops" means alone
        words -= {stem(word) for match in phrase.finditer(rule.condition) for word in _TOKENS.findall(
            match.group().lower())}
    # "Atlas is getting less money", "any of them goes up in price": a sum of money on its own says no more or
    # less; the sum that replaced another one does
    moving = _COMPARES.search(rule.condition) is not None or _MOVES.search(rule.condition) is not None
    money = CONCEPTS[0][1]
    if moving and any(pattern is money and stems & words for stems, pattern in CONCEPTS):
        moved = money_moved(rule, text, removed)
        if moved is not None:
            return moved
    patterns = [pattern for stems, pattern in CONCEPTS if stems & words
                and not (moving and pattern is money)] + list(
        meanings_of(wanted | (words & content_words(rule.condition))))
    lowered = text.lower()
    mine = _MINE.search(rule.condition) is not None
    for pattern in patterns:
        for match in pattern.finditer(lowered):
            before = clause_tokens(lowered[: match.start()])
            if _negated([*before, match.group()], len(before), blocking) or match.group().strip() in removed.lower() \
                    or (mine and _anothers(before, len(before))) or _NOTHING.match(lowered, match.end()):
                continue
            return match.group().strip()
    return None


_NOTHING = re.compile(r"\s+(?:nothing|none|no one|nobody)\b")
"""After a verb: "saw nothing", "found none"."""
_MOVES = re.compile(r"\b(?:go|goes|going|went|gone) (?:up|down)\b|\b(?:rise|rises|rising|fall|falls|falling|increases?|"
                    r"decreases?|drops?|changes?|changed|cut|cuts|raises?|raised|reduced?)\b", re.I)
"""A condition about how an amount moves, not that there is one."""


_UP = re.compile(r"\b(?:up|rises?|rising|increases?|raises?|raised|more|higher|dearer)\b", re.I)
_DOWN = re.compile(r"\b(?:down|less|fewer|lower|cheaper|cut|cuts|reduced?|drops?|falls?|decreases?)\b", re.I)
_SUM_FROM_TO = re.compile(r"\bfrom\s+(?P<old>" + _MONEY + r")\s*(?:[a-z]{1,2}\b)?\s+to\s+(?P<new>" + _MONEY + ")", re.I)
_PER = re.compile(r"\b(?:a|an|per|each|every)\s+(?P<per>week|month|year)\b|/\s*(?P<slash>week|wk|month|mo|year|yr)\b"
                  r"|\b(?P<ly>weekly|monthly|yearly|annually)\b", re.I)
_WEEKS_IN = {"week": 1.0, "wk": 1.0, "weekly": 1.0, "month": 52 / 12, "mo": 52 / 12, "monthly": 52 / 12,
             "year": 52.0, "yr": 52.0, "yearly": 52.0, "annually": 52.0}


def _sum_of(text: str) -> float | None:
    """The first sum of money in ``text``, per week when it says a period ("£16.99 a month")."""
    found = re.search(_MONEY, text, re.I)
    if found is None:
        return None
    value = as_number(re.sub(r"[^\d.,]", "", found.group()).rstrip(".,"))
    period = _PER.search(text)
    if value is None or period is None:
        return value
    return value / _WEEKS_IN[(period.group("per") or period.group("slash") or period.group("ly")).lower()]


def _row_key(line: str) -> str:
    """What a line is the row of: its label ("Filmhaus: …") or its first cell ("| Team | £14 |")."""
    field = _LABELLED.match(line)
    if field is not None:
        return field.group("label").lower()
    return cells(line)[0].strip().lower() if line.strip().startswith("|") else ""


def money_moved(rule: TaskRule, text: str, removed: str) -> str | None:
    """For "any of them goes up in price", "Atlas is getting less money": a sum that replaced another one the
    way the condition says (up, down, or changed at all), in a row that replaced its old version or in words
    ("reduced from £180k to £140k"). A monthly price that became the same price a year is no change."""
    direction = 1 if _UP.search(rule.condition) else -1 if _DOWN.search(rule.condition) else 0
    names = rule_names(rule)
    before = {key: line for line in removed.splitlines() if (key := _row_key(line))}
    for line in text.splitlines():
        if names and not names & {stem(word) for word in _TOKENS.findall(line.lower())}:
            continue  # "the Team plan": not the Pro row
        both = _SUM_FROM_TO.search(line)
        if both is not None:
            old, new = _sum_of(both.group("old")), _sum_of(both.group("new"))
        elif _row_key(line) in before:
            old, new = _sum_of(before[_row_key(line)]), _sum_of(line)
        else:
            continue
        if old is None or new is None or abs(new - old) < 0.005 * max(abs(old), 1):
            continue
        if direction == 0 or (new > old) == (direction > 0):
            return line.strip()[:80]
    return None


_DATE_MOVES = re.compile(r"\b(?:date|day|time|start|deadline)\b.*\b(?:moves?|moved|changes?|changed|shifts?|slips?)\b"
                         r"|\b(?:moves?|moved|changes?|changed)\b.*\b(?:date|day|time|deadline)\b"
                         r"|\b(?:reschedul\w*|postpone[sd]?|brought forward|brings? forward|moved? to another)\b", re.I)
"""A condition about when something happens changing: the new plan is said in the future tense."""
_FUTURE = frozenset({"will", "he'll", "she'll", "they'll", "we'll", "i'll", "it'll", "you'll", "postponed",
                     "scheduled"})
_UPCOMING = re.compile(r"\babout to\b|\bsoon\b|\bcoming up\b|\bupcoming\b|\bapproach(?:es|ing)?\b|\bnearly\b"
                       r"|\bgoing to\b|\bwill be\b"
                       r"|\balmost\b|\bwithin (?:the next )?\d+ (?:days?|weeks?|hours?)\b|\bin the next\b", re.I)
"""A condition about what is going to happen ("about to expire", "runs out soon", "within 7 days")."""
_APPOINTS = re.compile(r"\b(?:confirms?|gives?|sets?|fix(?:es)?|proposes?|offers?|picks?|agrees?(?: on)?|names?|"
                       r"suggests?|arranges?)(?:\s+(?:me|us))?\s+(?:a|an|a new)\s+(?:[a-z-]+\s+)?"
                       r"(?:time|date|day|slot)\b",
                       re.I)
"""A condition that waits for some time to be set, not for a named one to be confirmed ("confirms my appointment"
waits for the word)."""
_WHEN = re.compile(r"\b" + DAY + r"\b|\btomorrow\b|\btonight\b|\bnext week\b"
                   r"|\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}(?:st|nd|rd|th)?\s+"
                   r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.I)


_ANNOUNCED = re.compile(r"\b(?:date|dates|time|day)\b(?:\s+(?:of|for)\s+(?P<of>[^,.;]{1,80}?))?\s+(?:is|are|gets?|"
                        r"has been|have been)\s+(?:announced|set|confirmed|published|released|fixed|given|out)\b",
                        re.I)
"""A condition that waits for the date of something to be made known ("the date of the judges' visit to Ashcombe
is announced")."""
_BOOKS_A = re.compile(r"\b(?:books?|schedules?|arranges?|sets? up)\s+(?:in\s+)?(?:a|an|the|my|our)\s+"
                      r"(?:[a-z-]+\s+)?(?P<what>[a-z]{4,})\b", re.I)
"""A condition that waits for something to be booked for a time ("the letting agent books an inspection")."""
_GUESSES = re.compile(r"\b(?:thinks?|reckons?|guess(?:es)?|probably|maybe|might|perhaps|hopes?|expects?|likely|"
                      r"usually|like last year)\b", re.I)


def _appointed(rule: TaskRule, text: str, removed: str) -> str | None:
    """For a condition that waits for a time to be set ("the plumber confirms a time", "the school gives a
    date"): a day or a clock time newly said, not negated ("he'll come Thursday between 8 and 9" sets one: a
    time is in the future by nature, so a hedge does not count against it; "can't make Thursday" does).

    For one that waits for the date of a named thing to be made known, the date must be said in a sentence that
    names it, and not as a guess ("All other entrants will hear from us next week" dates someone else's)."""
    announced = _ANNOUNCED.search(rule.condition)
    # "books the main hall at that time": which rows are then is not for this rule
    booked = None if _says_when(rule) else _BOOKS_A.search(rule.condition)
    if announced is not None or booked is not None:
        # "books an inspection of our flat": a day or a time for an inspection, in the sentence that names it
        named = content_words(booked.group("what")) if booked is not None else \
            rule_names(rule) or content_words(announced.group("of") or "") - GENERIC if announced else frozenset()
        text = " ".join(sentence.group() for sentence in _SENTENCE.finditer(text)
                        if named & content_words(sentence.group()) and not _GUESSES.search(sentence.group()))
    elif not _APPOINTS.search(rule.condition):
        return None
    lowered = text.lower()
    for match in _WHEN.finditer(lowered):
        before = clause_tokens(lowered[: match.start()])
        if not _negated(before + [match.group()], len(before), NEGATIONS) and match.group() not in removed.lower() \
                and not (before[-1:] and before[-1] in _UNTIL):  # "off till Monday": a limit, not a day set
            return match.group()
    return None


HEDGES = frozenset({"will", "i'll", "we'll", "it'll", "maybe", "might", "perhaps", "planning", "plan", "going",
                    "should", "would", "could", "if", "unless", "hope", "hopefully", "almost", "nearly", "expected",
                    "scheduled", "pending", "awaiting", "soon", "he'll", "she'll", "they'll", "you'll", "i'd",
                    "he'd", "she'd", "they'd", "we'd", "you'd", "need", "needs", "must", "cancelled", "canceled",
                    "postponed", "scrapped", "probably", "possibly", "likely", "hoping", "hopes", "aiming", "aim",
                    "provisionally", "provisional", "tentatively", "tentative", "expect", "expects", "expecting"})
"""Before a word in the same clause, they say it has not happened ("I'll go to the post office tomorrow")."""


_ARRIVES = re.compile(r"\b(?:arrives?|comes? in|lands?|shows? up|turns? up|comes(?=\s*(?:[(,.;]|$)))", re.I)


def _none(tokens: list[str], index: int) -> bool:
    """Whether the token at ``index`` is counted as none: "0 failed", "no errors", "failures: 0", "looked for
    queen cells, none"."""
    return (index > 0 and tokens[index - 1] in ("0", "no", "zero")) or tokens[index + 1: index + 2] == ["0"] or (
        tokens[index + 1: index + 2] == ["|"] and tokens[index + 2: index + 3] in (["none"], ["nil"]))


def _only_meant(doing: set[str], text: str) -> bool:
    """Whether ``text`` says what the user does only hedged or negated ("I'll book it tomorrow")."""
    tokens = clause_tokens(text)
    said = [index for index, token in enumerate(tokens) if stem(token) in doing]
    return bool(said) and all(_negated(tokens, index) for index in said)


_FROM = re.compile(r"^from:\s*(?P<who>.+)$", re.I | re.M)
_META = re.compile(r"(?:date|sent|to|cc|bcc|reply-to|message-id):", re.I)


def _unheaded(item: ChangeItem) -> ChangeItem:
    """A mail without the header lines that say when it was sent and to whom: "Date: Wed, 11 Nov 2026 15:30" is
    no date given, nor a time to compare."""
    lines = item.text.splitlines()
    if not lines or not lines[0].lower().startswith("from:"):
        return item
    return replace(item, text="\n".join(line for index, line in enumerate(lines)
                                        if not (index < 6 and _META.match(line))))


def _from_them(names: frozenset[str], text: str) -> bool:
    """Whether ``text`` is a mail from whom the condition names ("From: Kitchenly Returns …"): then every line
    of it is about them, whatever else it names (a product code, a reference)."""
    return bool(_senders(names, text))


def _senders(names: frozenset[str], text: str) -> frozenset[str]:
    """Which of ``names`` a mail's sender is."""
    sender = _FROM.search(text[:300])
    return names & content_words(sender.group("who")) if sender is not None else frozenset()


def _named_document(names: frozenset[str], item: ChangeItem) -> bool:
    """Whether ``item`` is a new file whose name or first lines name whom the condition names
    (post/2026-03-02-hmrc.md for "HMRC writes …"): one document, every line of it about them. Its folder does
    not count: a letter in school/mia/ may be about another school."""
    if not names or item.source != "file" or item.status != "new":
        return False
    head = " ".join([line for line in item.text.splitlines() if line.strip()][:2])
    return bool(names & (path_words(item.name.rsplit("/", 1)[-1]) | content_words(head)))

def _negative(condition: str, wanted: set[str]) -> bool:
    """Whether the condition waits for something not to happen: a negation before the word that says what
    happens (or anywhere, when no word of it is there)."""
    tokens = clause_tokens(condition)
    at = next((index for index, token in enumerate(tokens) if stem(token) in wanted), len(tokens))
    return bool(NEGATIONS & set(tokens[:at]))


def _clause_hedged(tokens: list[str], index: int) -> bool:
    """Whether the clause of the token at ``index`` is negated or hedged anywhere, after it too."""
    end = index
    while end < len(tokens) and tokens[end] != "|" and end - index < 12:
        end += 1
    return _negated(tokens, end) if end > index else False


_ME = re.compile(r"\b(?:i|me|my|mine|i've|i'm|i'd|i'll)\b", re.I)
"""A condition about the user: what happens to them or theirs ("challenges me", "my stall")."""
_MINE = re.compile(r"\b(?:my|mine|i've|i have|i'm|i am)\b", re.I)
_NOT_OWNERS = frozenset({"it's", "that's", "what's", "there's", "here's", "he's", "she's", "let's", "who's",
                         "where's", "today's", "tomorrow's", "yesterday's"})


_THEIRS = frozenset({"his", "her", "their"})


def _anothers(tokens: list[str], index: int) -> bool:
    """Whether the clause of the token at ``index`` says whose it is, and it is someone's ("Anna's talk was
    accepted"): no news for a condition about the user's own ("my talk gets accepted")."""
    start = index
    while start > 0 and tokens[start - 1] != "|" and index - start < 12:
        start -= 1
    return any((token.endswith("'s") and token not in _NOT_OWNERS) or token in _THEIRS for token in tokens[start:index])


def _negated(tokens: list[str], index: int, by: frozenset[str] = NEGATIONS | HEDGES) -> bool:
    """Whether the token at ``index`` is negated or hedged earlier in its clause (``tokens`` keeps the clause
    breaks as "|"); with ``by``, only by those words."""
    start = index
    while start > 0 and tokens[start - 1] != "|" and index - start < 12:
        start -= 1
    return bool(by & set(tokens[start:index]))


_CALLED_OFF = re.compile(r"\bcall(?:ed|s)? off\b")
_MAY = re.compile(r"(?<![\d] )\bmay(?=\s+(?:not\s+|well\s+|still\s+|also\s+)?[a-z])")
"""The verb "may" ("we may close early"), not the month (written with its capital, or after a day's number)."""
_CLAUSE = re.compile(r"[.;:!?,()\n]|\bbut\b")


def clause_tokens(text: str) -> list[str]:
    """The words of ``text``, lower case, with "|" where a clause ends (so a negation does not reach past it)."""
    lowered = _CALLED_OFF.sub("cancelled", _MAY.sub("might", text).lower())
    return ["|" if token == "zzclause" else token for token in _TOKENS.findall(_CLAUSE.sub(" zzclause ", lowered))]


def _affirmed(text: str) -> set[str]:
    """The stems ``text`` says without a negation before them: a removed "not published yet" leaves
    "published" free to be news when the new line says it."""
    tokens = clause_tokens(text)
    return {stem(token) for index, token in enumerate(tokens)
            if token not in STOPWORDS and len(token) > 2 and not _negated(tokens, index)}


_EACH = re.compile(r"\b(?:each|every|any)\b", re.I)
_COUNTS = re.compile(r"\b(?:both|all|two|three|four|five|several)\b", re.I)


_AND_ABOUT_IT = re.compile(r"\band\s+(?:it|it's|its|they|they're|their)\b", re.I)
"""An arrival with more to it ("the gas bill comes in and it's based on an estimated reading"): the file's
coming is not enough; what it says is for the words, or the model."""


def arrived(rule: TaskRule, items: Iterable[ChangeItem]) -> str | None:
    """For a task that waits for a new file in a folder (:func:`~.relevance.awaits_arrival`): the new file
    that is what it waits for, or None.

    "Each new meeting note in the meetings folder", "each article I save in reading/": every new file there.
    "The new lease arrives in documents/", "a customer complaint arrives in inbox/": a new file whose name or
    first lines name it (lease-2027.md, "Subject: Complaint: …"; a receipt is not the lease). A condition that
    counts ("once both offers have arrived") is left to the model: one new file is not both.
    """
    if _COUNTS.search(rule.condition) or _AND_ABOUT_IT.search(rule.condition):
        return None
    if not awaits_arrival(rule):
        return _created(rule, items)
    every = _EACH.search(rule.condition) is not None
    names = rule_names(rule)
    # "Harrow Philatelics' new price list": what comes is a price list; their invoice is not it
    subject = subject_of(rule) - GENERIC - names or subject_of(rule) - GENERIC
    # "the invoice for Mum's care in May": a receipt for April's invoice is another month's
    months = {day.removeprefix("month:") for day in occasions(rule.condition, condition=True)
              if day.startswith("month:")}
    senders = senders_named(rule)  # "Gillian posts the programme": the programme need not name her
    for item in items:
        if item.source != "file" or item.status != "new":
            continue
        # "the DVLA reminder to tax the Golf": a DVLA mail about the Micra is from whom it names, not about it
        others = names - _senders(names, item.text) - senders if not every else frozenset()
        if others and names_another(others, f"{item.name}\n{_FROM.sub('', item.text, count=1)}"):
            continue
        head = document_head(item)  # a mail's subject too
        if every or subject & (path_words(item.name) | content_words(head)) and not _still_to_come(
                subject, item.text) and not (months and (said := _months_of(item.name, head)) and not months & said):
            return f"the new file {item.name}"
    return None


def _created(rule: TaskRule, items: Iterable[ChangeItem]) -> str | None:
    """For a condition that waits for a file it names to be there ("the autumn term requests are in
    (community/hall/requests-autumn.csv)"): that file, new, with something in it other than a placeholder or
    word of what is still to come."""
    files = [path for path in rule.watch_paths if not path.endswith("/")]
    if not (_POSTED.search(rule.condition) or _ARRIVES.search(rule.condition)):
        return None
    if not rule.watch_paths and not rule.watches:
        return _came_as_file(rule, items)
    for item in items:
        if item.source != "file" or item.status != "new" or item.name not in files:
            continue
        lines = [line for line in item.text.splitlines() if line.strip() and not _PLACEHOLDER.search(line)]
        if lines and not _still_to_come(subject_of(rule) | path_words(item.name), item.text):
            return f"the new file {item.name}"
    return None


_MESSAGED_THINGS = frozenset(stem(word) for word in
                             ("feedback", "reply", "response", "answer", "decision", "verdict", "marks", "renewal"))
"""What comes as a message or a file, besides documents."""
_NOT_AS_FILE = re.compile(r"\s+(?:at|under|over|above|below|higher|lower|less|more|cheaper|dearer)\b", re.I)


def _came_as_file(rule: TaskRule, items: Iterable[ChangeItem]) -> str | None:
    """For an arrival that names no place ("my tutor's feedback on TMA03 arrives"): a new file anywhere whose name
    or first lines name the thing and every name the condition gives it (study/tma03-feedback.md, a mail
    "Subject: Your TMA03 feedback"), and that does not say it is still to come."""
    thing, names = condition_words(rule, or_watched=False), rule_names(rule)
    arrival = _ARRIVES.search(rule.condition)
    # a document or a message's kind of thing, not a parcel or a loan "arriving at Kelby library", nor a figure
    # that "comes in under" another
    if not thing & (DOCUMENTS | _MESSAGED_THINGS) or (arrival is not None and _NOT_AS_FILE.match(
            rule.condition, arrival.end())):
        return None
    sorts = kinds_named(rule.condition, frozenset({"the"}))  # "the home insurance renewal": not the car's
    for item in items:
        if item.source != "file" or item.status != "new":
            continue
        head = document_head(item)
        said = path_words(item.name) | content_words(head)
        if thing <= said and names <= said and not another_kind(sorts, head) \
                and not _still_to_come(frozenset(thing | names), item.text):
            return f"the new file {item.name}"
    return None


_MONTH_NAMED = re.compile(r"\b(?:January|February|March|April|June|July|August|September|October|November|"
                          r"December|May(?=\s+20\d\d|\)))\b|(?<=\()May\b")
_YEAR_MONTH = re.compile(r"\b20\d\d-(?P<month>0[1-9]|1[0-2])\b")
_MONTH_KEYS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _months_of(name: str, head: str) -> set[str]:
    """The months a new document is of, by the first three letters: its name's ``2026-04``, its first lines'
    "April" and "May 2026"."""
    return {_MONTH_KEYS[int(match.group("month")) - 1] for match in _YEAR_MONTH.finditer(name)} | {
        match.group()[:3].lower() for match in _MONTH_NAMED.finditer(head)}


_TO_COME = re.compile(r"\b(?:on (?:its|their) way|being (?:processed|checked|reviewed|marked|prepared)|"
                      r"will (?:be )?(?:released|issued|published|confirmed?|sent|posted|ready|delivered|dispatched)|"
                      r"(?:will|'ll|going to|expect to|plan to|hope to)\s+(?:announce|send|post|publish|issue|release|"
                      r"share|circulate|confirm)|"
                      r"in due course|not (?:yet|ready)|still (?:being|waiting|checking|to come)|to follow|will follow|"
                      r"expected (?:in|on|by|within|next|later|around)|go(?:es)? out (?:in|on|at|next|later|by)|"
                      r"(?:i'll|we'll|i will|we will|he'll|she'll|they'll)\b[^.]*\b(?:next (?:week|month)|tomorrow|"
                      r"later|soon|in the new year)|"
                      r"(?:should|will|'ll) (?:have|get|receive) (?:it|them|your|my|the)\b[^.]*\b(?:by|next|within|"
                      r"soon)|(?:I'm|I am|we're|we are) (?:still )?marking)\b", re.I)
"""What an announcement says of a thing still to come ("feedback to follow", "you should have your feedback by the
24th", "I'm marking this week", "results expected in about two weeks", "statements go out in late April")."""


def _still_to_come(subject: frozenset[str], text: str) -> bool:
    """Whether a new file says of what it names that it is still to come ("Your exam result is on its way",
    "the result … is being processed and will be released by 26 June"): it announces, it does not bring."""
    return any(_TO_COME.search(sentence.group()) and subject & content_words(sentence.group())
               for line in text.splitlines() for sentence in _SENTENCE.finditer(line))


_COMES = re.compile(r"\b(?:arrives?|comes? in|lands?|(?:is|are|gets?) (?:sent|posted|published|announced))\b", re.I)


def messaged(rule: TaskRule, items: Iterable[ChangeItem]) -> str | None:
    """For a task that waits for a message or an item from someone or about something, and watches no folder
    ("an invoice arrives", "my landlord writes to me"): the new mail, feed item or event a skill saw that
    names who or what it waits for, or None. The item's arrival is the news, as a new file's is for a folder.
    A memory or a changed file that says it was sent ("Mum sent me her lasagne recipe") and names who or what
    is evidence too; one that says it will be is not.
    """
    if rule.watch_paths:
        return None
    match = _sends(rule.condition) or _COMES.search(rule.condition)
    if match is None:
        return None
    before = rule.condition[: match.start()]
    # (short names too: "Once Jo sends me the stories")
    who = content_words(before) - GENERIC - PREDICATES - place_words(rule) | (
        rule_names(rule) & {stem(word) for word in _TOKENS.findall(before.lower())})
    for item in items:
        if item.source == WORLD and who & content_words(item.text):
            return f"the new {item.name} item ({sorted(who & content_words(item.text))[0]})"
    rest = rule.condition[match.end():]
    thing = _sent_thing(rest)
    # "the papers for the next full governors' meeting": the committee's papers are others
    of = content_words(_OF.split(rest, 1)[1]) - GENERIC - place_words(rule) if _OF.search(rest) else frozenset()
    for item in items:  # "Harcourt & Vane send their valuation": a new mail from them that names a valuation
        sender = _FROM.search(item.text[:300]) if item.source == "file" and item.status == "new" else None
        # (every word of who sends it: the sailing club of Porthallow is not its harbour office; some of them
        # when the mail's subject names what is sent: "Carter Block Management" is the managing agent, and
        # "Subject: Section 20 notice of intention" the notice)
        by = {stem(word) for word in _TOKENS.findall(sender.group("who").lower())} if sender is not None else set()
        subject = _SUBJECT.search(item.text[:600])
        if thing and who and (who <= by or _share_a_word(who, by) and subject is not None and thing in {
                stem(word) for word in _TOKENS.findall(subject.group().lower())}):
            body = _FROM.sub("", item.text, count=1)  # (not its sender's address)
            said = _said_plainly(body, thing) if not of or of & content_words(body) else None
            if said is not None:
                return said
    replied = _replied(rule, match, who, items)
    if replied is not None:
        return replied
    # "when she sends the lasagne recipe" and the user says "Mum sent me her lasagne recipe!": done, and named
    what = who | content_words(rule.condition[match.end():]) - GENERIC - PREDICATES - place_words(rule)
    for item in items:
        if item.source not in NEWS or not what & content_words(item.text):
            continue
        lowered = item.text.lower()
        for sent in _SENT.finditer(lowered):
            preceding = clause_tokens(lowered[: sent.start()])
            if not _negated([*preceding, sent.group()], len(preceding)):
                return sent.group()
    return None


_ABOUT = re.compile(r"\s*(?:to (?:me|us|my \w+)\s+)?about\s+(?P<topic>.+)", re.I)


def _replied(rule: TaskRule, verb: re.Match[str], who: Collection[str], items: Iterable[ChangeItem]) -> str | None:
    """For "the archive centre in Whitehaven replies about Ellen Thwaite's baptism": a new mail from every word of
    who replies that names the topic (its names: Thwaite), and does not say the answer is still to come. An
    acknowledgement ("we aim to reply within 25 days") names no topic; another archive is not who."""
    about = _ABOUT.match(rule.condition, verb.end())
    if about is None or not who or verb.group().lower() not in ("replies", "answers"):
        return None
    words = content_words(about.group("topic")) - GENERIC
    topic = words & rule_names(rule) or words
    for item in items:
        sender = _FROM.search(item.text[:300]) if item.source == "file" and item.status == "new" else None
        if sender is None or not set(who) <= {stem(word) for word in _TOKENS.findall(sender.group("who").lower())}:
            continue
        body = _FROM.sub("", item.text, count=1)
        if topic & content_words(body) and not _TO_COME.search(body):  # ("I'll get the lads round next week")
            return f"the reply in {item.name}"
    return None


def _share_a_word(these: Collection[str], those: Collection[str]) -> bool:
    """Whether two sets of stems share a word, or one begins another ("manag" for "management")."""
    pairs = [sorted((one, other), key=len) for one in these for other in those]
    return any(len(short) >= 4 and long.startswith(short) for short, long in pairs)


_SENT = re.compile(r"\b(?:sent|wrote|emailed|mailed|texted|messaged|replied|answered|forwarded|posted)\b")
_OF = re.compile(r"\b(?:of|on|for|from|to|about|with|in|into|by|when|once|before|after)\b|[,(]", re.I)


def _sent_thing(rest: str) -> str:
    """What is sent, by its head noun: "their valuation of Grandad's album" is a valuation, "next year's
    service charge budget" a budget; "" when nothing is named ("sends it")."""
    words = [word for word in _TOKENS.findall(_OF.split(rest, 1)[0].lower())
             if word not in STOPWORDS and len(word) > 1 and not word.endswith("'s")]
    return stem(words[-1]) if words else ""


_SUBJECT = re.compile(r"^subject:[^\n]*$", re.I | re.M)


def _said_plainly(text: str, thing: str) -> str | None:
    """The first place ``text`` names ``thing`` (a stem) not negated or hedged in its clause. A mail's subject
    line counts only when its body does not name the thing ("Subject: stories" over "I'll send the stories at
    the weekend" sends none)."""
    body = _SUBJECT.sub(" ", text)
    if any(stem(token) == thing for token in clause_tokens(body)):
        text = body
    tokens = clause_tokens(text)
    for index, token in enumerate(tokens):  # ("Papers will follow": hedged after the word too)
        if stem(token) == thing and not _negated(tokens, index) and not _clause_hedged(tokens, index):
            return token
    return None


_CHANGE = re.compile(r"\b(?:changes?|changed|is updated|gets updated|is edited|moves|moved)\b", re.I)
_SENDS = re.compile(r"\b(?:writes?|wrote|sends?|sent|emails|mails|messages|replies|answers?|calls|texts)\b", re.I)


def _sends(condition: str) -> re.Match[str] | None:
    """Where the condition waits for someone to write ("my landlord writes"), not for what the user sent
    ("the blender I sent back")."""
    for match in _SENDS.finditer(condition):
        before = condition[: match.start()]
        # "the case has been sent out" is dispatched, not written (:data:`~.meanings.MEANINGS`)
        if not re.search(r"\b(?:(?:i|we|you)\s+(?:have\s+|had\s+|just\s+)?|(?:is|are|was|were|been|be|gets?|got)\s+)$",
                         before, re.I):
            return match
    return None


_TO_SAY = re.compile(r"^\s*(?:to (?:me |us )?(?:to )?(?:say|tell (?:me|us))|saying|to (?:me |us )?that)\s+"
                     r"(?:that\s+)?", re.I)


def _message_says(rule: TaskRule, *, or_watched: bool = True) -> set[str]:
    """For "HMRC writes to say Geoff's tax code is changing": the words of what the message must say (who
    writes is :func:`changed_subject`'s and :func:`messaged`'s); none when the condition waits for the message
    alone ("my landlord writes")."""
    sends = _sends(rule.condition)
    said = _TO_SAY.match(rule.condition[sends.end():]) if sends is not None else None
    if sends is None or said is None:
        return set()
    return condition_words(replace(rule, condition=rule.condition[sends.end() + said.end():]), or_watched=or_watched)

def changed_subject(rule: TaskRule, items: Iterable[ChangeItem]) -> str | None:
    """For a condition that a change of something meets ("Anna's address changes"): a word of what must change
    that is on a line the change replaced (on a removed line and on an added one); for one that a message
    meets ("my landlord writes to me"): a word of who must write, newly in what was added. Else None.

    Such a condition has no word of its own for a change to say; who or what it is about is the evidence.
    """
    change = _CHANGE.search(rule.condition)
    sends = _sends(rule.condition)
    match = change or sends
    if match is None:
        return None
    subject = content_words(rule.condition[: match.start()]) - place_words(rule) - GENERIC
    for item in items:
        if item.source not in NEWS:
            continue
        removed, added = content_words(item.removed), content_words(item.text)
        # A change: the line it replaced names the subject. A message: the subject newly in what was added.
        found = subject & removed & added if change is not None else (subject & added) - removed
        if found:
            return sorted(found)[0]
    return None


def awaits_message(rule: TaskRule) -> bool:
    """Whether a message meets the condition ("when Carys sends my audition piece", "my landlord writes"), not a
    change of what it names: who wrote is then no more than who wrote (:func:`changed_subject`)."""
    return _CHANGE.search(rule.condition) is None and _sends(rule.condition) is not None


_WHEN_OF = re.compile(r"\b(?:date|dates|day|days|time|times|timing)\b", re.I)
_LABELLED = re.compile(r"^\s*(?:[-*]\s+)?(?P<label>[A-Za-z][A-Za-z0-9 '/()-]{0,40}?)\s*:\s+(?P<value>\S.*?)\s*$")


def changed_field(rule: TaskRule, items: Iterable[ChangeItem]) -> Compared | None:
    """For "the staff wifi password changes" over a file of ``Label: value`` lines that was rewritten: whether
    the field whose label is most like the condition's subject ("Staff password", not "Guest password" or
    "Staff network") got another value. None when the condition waits for no change, no file of fields was
    rewritten, or no one label fits the subject best."""
    change = _CHANGE.search(rule.condition)
    if change is None:
        return None
    subject = content_words(rule.condition[: change.start()]) - place_words(rule) - GENERIC
    # "the date of the practice expedition changes": a new campsite on its line is not a new date
    when = _WHEN_OF.search(rule.condition[: change.start()]) is not None
    verdict: Compared | None = None
    for item in items:
        if item.source != "file" or not item.removed:
            continue
        values: dict[str, dict[str, str]] = {"before": {}, "after": {}, "kept": {}}
        for part, text in (("kept", item.context), ("before", item.removed), ("after", item.text)):
            for line in text.splitlines():
                field = _LABELLED.match(line)
                if field is not None:
                    values[part][field.group("label").lower()] = field.group("value")
        labels = {label for fields in values.values() for label in fields}
        if len(labels) < 2:
            continue
        fit = {label: len(content_words(label) & subject) for label in labels}
        best = max(fit.values())
        chosen = [label for label, score in fit.items() if score == best]
        if best == 0 or len(chosen) != 1:
            continue
        label = chosen[0]
        old, new = values["before"].get(label), values["after"].get(label)
        if old is not None and new is not None and old != new and when and _whens(old) == _whens(new):
            verdict = verdict or Compared(False, f"{label}: {new}, on the same day and time as before")
            continue
        if old is not None and new is not None and old != new:
            return Compared(True, f"{label}: {new} (was {old})")
        if label in values["kept"] or (old is not None and old == new):
            verdict = verdict or Compared(False, f"{label} unchanged")
    return verdict


# --- figures the app compares ------------------------------------------------------------------------------

_BELOW = frozenset({"less", "fewer", "lower", "cheaper", "below", "under", "colder", "cooler", "shorter", "lighter",
                    "shallower", "slower", "smaller"})
_NUMBER = r"(?P<number>(?:(?<![\w.,])[-−])?(?<![\w.])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+|,\d{1,2}(?![\d.]))?)"
"""A figure: thousands with commas ("150,420"), a decimal point or comma ("18.4", "12,99"); not the middle of a
date or a CSV line ("2026-12-01,18.4 kWh" holds 18.4 kWh, not -1.18)."""
_BOUND = _NUMBER.replace("(?P<number>", r"(?P<number>(?<![\w/.])\d{1,2}/\d{1,3}(?![\w/])|", 1)
"""A condition's bound may be a fraction: "gets under 1/8 wave"."""
_UNIT = (r"(?P<unit>%|°\s?[CF]\b|(?:seconds?|minutes?|hours?|euros?|dollars?|pounds?|mg/l)\b"
         r"|(?!(?:or|and|for|to|in|on|at|the|of|if|is|it|by|so|as|per|then|from)\b)[A-Za-z]{1,4}\b)")
LIMIT = re.compile(r"\b(?P<op>less|fewer|lower|cheaper|below|under|colder|cooler|shorter|lighter|more|higher|above|"
                   r"over|warmer|longer|heavier|deeper|shallower|faster|slower|bigger|smaller|"
                    r"hotter|at least|at most|passes|exceeds|reaches|hits|gets to|tops|past|hit|reach|"
                    r"within(?=\s+\d[\d.]*\s*(?:miles?|mi|km|kilomet(?:re|er)s?)\b))(?:\s+than)?\s+(?:an?\s+)?"
                    r"(?P<pre>[€$£])?\s*"
                    + _BOUND + r"\s*" + _UNIT + "?", re.I)
OR_BEYOND = re.compile(r"(?P<pre>[€$£])?\s*" + _NUMBER + r"\s*" + _UNIT + r"?(?P<things>(?:\s+[A-Za-z][\w-]*){0,3}?)"
                        r"\s+or\s+(?P<op>less|fewer|lower|below|"
                        r"under|cheaper|colder|more|higher|above|over|warmer)\b", re.I)
"""A bound the condition includes: "20 % or less", "38.5 °C or higher"."""
AMOUNT = re.compile(r"(?P<pre>[€$£])?\s*" + _NUMBER + r"\s*" + _UNIT + "?")
_THOUSANDS = re.compile(r"^\d{1,3}(?:,\d{3})+$")
SECONDS = {"s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1, "min": 60, "mins": 60, "minute": 60,
            "minutes": 60, "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600}
"""Durations are compared in seconds: "more than 5 minutes behind" and "lag 842 s"."""
_CLOCK = re.compile(r"\b(\d{1,2}):(\d{2}):(\d{2})\b")
_SPAN = re.compile(r"(?<![\w.])(?:(?P<h>\d+)\s?h\s?(?P<hm>\d+)\s?m(?:in)?|(?P<m>\d+)\s?m(?:in)?\s?(?P<s>\d+)\s?s)\b")
"""A duration in two parts ("23m10s", "1h 05m"), in seconds."""
_FROM_TO = re.compile(r"\bfrom\s+[€$£]?\s*(?P<a>\d[\d,]*(?:\.\d+)?)\s*(?:[A-Za-z€$£%]{1,4}\s+)?to\s+[€$£]?\s*"
                      r"(?P<b>\d[\d,]*(?:\.\d+)?)", re.I)
_RISES = re.compile(r"\b(?:more expensive|dearer|pricier|goes up|go up|rises?|raises?|increases?|gets? higher)\b",
                    re.I)
_FALLS = re.compile(r"\b(?:cheaper|goes down|go down|falls?|drops?|decreases?|gets? lower)\b", re.I)


@dataclass(frozen=True)
class Compared:
    """A figure the condition compares, read off the change: whether it meets the limit, and in words."""

    met: bool
    said: str


def unit_of(match: re.Match[str]) -> str:
    unit = (match.group("pre") or match.group("unit") or "").replace("°", "").replace(" ", "").lower()
    return _CURRENCY_CODES.get(unit, unit)


_CURRENCY_CODES = {"euro": "eur", "euros": "eur", "€": "eur", "dollar": "usd", "dollars": "usd", "$": "usd",
                   "£": "gbp", "pound": "gbp", "pounds": "gbp"}
"""One name for each currency, however a figure writes it ("1.20 euros", "€1.20", "1.20 EUR")."""


def as_number(text: str) -> float | None:
    text = text.replace("−", "-")
    if "/" in text:  # a condition's fraction ("1/8 wave")
        over, under = text.split("/", 1)
        return int(over) / int(under) if over.isdigit() and under.isdigit() and int(under) else None
    if _THOUSANDS.match(text.lstrip("-")):
        text = text.replace(",", "")
    try:
        return float(text.replace(",", "."))
    except ValueError:
        return None


def compared(rule: TaskRule, items: Iterable[ChangeItem], names: frozenset[str] = frozenset()) -> Compared | None:
    """Each limit of the condition compared (:func:`_compared`): "a cot under £60 within 5 miles" is met only
    when both are, and not when either is not; "above 6°C or under 3°C" when either is. None when none could
    be compared."""
    items = [_unheaded(item) for item in items]
    # "the forecast for saturday 13 june goes to 60 % or more": Sunday's row is another day's forecast
    days = occasions(rule.condition, condition=True)
    # "the checkout API error rate": the search API's line is another API's rate
    sorts = kinds_named(rule.condition)
    # "/var on db01": web01's line, and db01's /home figure, are another machine's and another disk's
    ids = _ids(rule.condition)
    # "under 12.2 V at the 6am check": the 2pm reading is not the check
    hours = hours_named(rule.condition)
    items = [replace(item, text="\n".join(_own_part(ids, line) for line in item.text.splitlines()
                                          if not another_day(days, line) and not another_kind(sorts, line)
                                          and not another_id(ids, line) and not another_hour(hours, line)))
             if (days or sorts or ids or hours) and item.source in NEWS else item for item in items]
    # "a build on main", and the file's lines say branch=main: a line with branch=feat/x is another branch's
    words = content_words(without_places(rule.condition))
    items = [replace(item, text="\n".join(line for line in item.text.splitlines()
                                          if not _another_value(keys, words, line)))
             if item.source in NEWS and (keys := _keys_valued(words, f"{item.context}\n{item.text}\n{item.removed}"))
             else item for item in items]
    limits = list(LIMIT.finditer(rule.condition))
    first = limits[0] if limits else OR_BEYOND.search(rule.condition)
    if first is not None:
        items = [_of_its_kind(rule.condition[: first.start()], item) for item in items]
    if len(limits) < 2:
        return _compared(rule, items, names)
    subject = rule.condition[: limits[0].start()]
    # "above 6°C or under 3°C": either limit is met, not both
    either = all(_EITHER.fullmatch(rule.condition[one.end(): other.start()])
                 for one, other in itertools.pairwise(limits))
    found = []
    for index, limit in enumerate(limits):
        end = limits[index + 1].start() if index + 1 < len(limits) else len(rule.condition)
        part = replace(rule, condition=subject + rule.condition[limit.start(): end])
        one = _compared(part, items, names)
        if one is not None and one.met == either:
            return one
        if one is not None:
            found.append(one.said)
    return Compared(not either, ", ".join(found)) if found else None


_EITHER = re.compile(r"\s*,?\s*or\s+", re.I)
_ID = re.compile(r"(?<![\w/.-])(?:[a-z]+-?\d+[a-z\d]*|/[a-z][\w-]*(?:/[\w-]+)*)(?![\w/.-])", re.I)
"""A name with a number in it ("db01", "web-02") or a path ("/var"): what a log line says a figure is of."""


def _ids(condition: str) -> dict[str, frozenset[str]]:
    """The condition's names with numbers, and its paths, by form ("/var on db01": ``name`` db01, ``path``
    /var)."""
    found: dict[str, set[str]] = {}
    for match in _ID.finditer(without_places(condition)):
        found.setdefault(_id_form(match.group()), set()).add(match.group().lower())
    return {form: frozenset(ids) for form, ids in found.items()}


def _id_form(token: str) -> str:
    return "path" if token.startswith("/") else "name"


def another_id(ids: dict[str, frozenset[str]], line: str) -> bool:
    """Whether ``line`` names another machine than the condition's ("web01" for "db01"), and not it."""
    names = ids.get("name")
    said = {match.group().lower() for match in _ID.finditer(line) if _id_form(match.group()) == "name"}
    return bool(names and said and not names & said)


def _own_part(ids: dict[str, frozenset[str]], line: str) -> str:
    """A line cut to the part about the condition's path ("db01 /var 87% /home 94%" for "/var": "db01 /var
    87%"), where the line names several paths; the line as it is otherwise."""
    paths = ids.get("path")
    found = [match for match in _ID.finditer(line) if _id_form(match.group()) == "path"]
    if not paths or len(found) < 2:
        return line
    parts = [line[: found[0].start()]]
    for match, after in zip(found, [*found[1:], None], strict=False):
        if match.group().lower() in paths:
            parts.append(line[match.start(): after.start() if after else len(line)])
    return " ".join(part.strip() for part in parts) if len(parts) > 1 else line


_COMPOUND = re.compile(r"(?<![\w/.-])([a-z]+)-([a-z]+)(?![\w/.-])", re.I)
_KIND_COLUMNS = frozenset({"type", "kind", "category", "class", "plan", "product", "tier"})


def _of_its_kind(subject: str, item: ChangeItem) -> ChangeItem:
    """``item`` without the table rows of another kind than the condition's compound qualifier names ("any
    easy-access savings account": a row whose type is "1-year fixed" or "95-day notice" is not one)."""
    qualifier = frozenset().union(*(content_words(f"{a} {b}") for a, b in _COMPOUND.findall(subject)))
    header = table_header(item.columns or item.title) if qualifier and item.source == "file" else ""
    named = [cell.strip().lower() for cell in cells(header)] if header else []
    kind = next((index for index, cell in enumerate(named) if cell in _KIND_COLUMNS), None)
    if kind is None:
        return item
    kept = [line for line in item.text.splitlines()
            if len(row := cells(line)) != len(named) or content_words(row[kind]) & qualifier]
    return replace(item, text="\n".join(kept))


def _compared(rule: TaskRule, items: list[ChangeItem], names: frozenset[str]) -> Compared | None:
    """For a condition that compares a figure with a unit ("the flight to Lisbon costs less than 300 EUR",
    "the disk is more than 90 % full"): the figures with that unit on the changed lines, compared by the app.

    Only lines that name the condition's subject count when it names one (``names``: a cheap flight to Porto
    on the next line is not the Lisbon flight's price). None when the condition compares nothing, has no unit
    (a bare number could be a date), or no changed line holds a figure in its unit: then the model is asked.
    """
    limit = LIMIT.search(rule.condition) or OR_BEYOND.search(rule.condition)
    if limit is None:
        own = _OWN_LIMIT.search(rule.condition)
        if own is not None:
            return _against_column(rule.condition[: own.start()], own, list(items), names)
        return _moved(rule, items, names)
    unit = unit_of(limit)
    bound = as_number(limit.group("number"))
    items = _my_rows(rule, items)
    noun = _counted_noun(rule.condition, limit)
    after = _WORDS_AFTER.match(rule.condition, limit.end())
    measured = after.group("first") if after is not None and after.group("first").lower() not in STOPWORDS else ""
    if bound is not None:
        # "passes 10,000 downloads", "under 20% cloud": the downloads or the cloud column, not the episode or
        # the night the subject names
        # "hits 150 sign-ups" is a running total: a table's total column, not the week's new sign-ups
        by_column = (_in_column("total", limit, bound, items, names) if op_of(limit) in _TARGETS else None) \
            or (_in_column(" ".join(sorted(noun)), limit, bound, items, names) if noun else None) \
            or (_in_column(measured, limit, bound, items, names) if measured else None) \
            or _in_column(rule.condition[: limit.start()], limit, bound, items, names) \
            or (_in_column("", limit, bound, items, names, unit=unit_of(limit)) if unit_of(limit) else None)
        if by_column is not None:
            return by_column
    if noun is not None and bound is not None:
        return _in_stock(noun, limit, bound, items) or _counted(limit, bound, noun, items, names)
    if bound is not None and not unit:  # "anything under a 5" and "Food hygiene rating: 3"
        by_label = _in_label(rule.condition[: limit.start()], limit, bound, items)
        if by_label is not None:
            return by_label
    if bound == 0 and not unit:  # "goes below 0": nought in any unit, the figures' own ("£0.00", "-£1.50")
        unit = next((unit_of(amount) for line in _subject_lines(items, names) for amount in AMOUNT.finditer(line)
                     if unit_of(amount) in CURRENCIES), "")
    if not unit or unit in STOPWORDS or bound is None:
        return None
    unit, bound = scaled(unit, bound)
    op = op_of(limit)
    seen: list[str] = []
    links = {stem(word) for word in LINKS}
    subject = content_words(rule.condition[: limit.start()]) - place_words(rule) - GENERIC - PREDICATES - links
    # "the fridge goes above 6 °C (ops/logs/tortoise-fridge.log)": the fridge, though its file is named by it too
    # ("the unit rate goes above 28p": not the standing charge that "goes up to 58.90p")
    measured_by = content_words(without_places(rule.condition[: limit.start()])) - GENERIC - links
    # "quotes more than £120 for my phone screen": a battery's £140 in the next sentence is another price
    purpose = _PURPOSE.match(rule.condition, limit.end())
    meant = content_words(purpose.group("thing")) - GENERIC if purpose else frozenset()
    lines = [_KEYED_UNIT.sub(_unit_after, line) for line in _subject_lines(items, names)]
    # "black: 19%" and "cyan: 4%" for "the black toner gets under 10%": the line whose label the subject names
    # best ("bottom drawer: -17 °C", not "top drawer: -9 °C", for the bottom drawer)
    shared = [len(content_words(field.group("label")) & measured_by) if (field := _LABELLED.match(line)) else None
              for line in lines]
    best = max((count for count in shared if count is not None), default=0)
    if best and sum(count is not None for count in shared) > 1:
        lines = [line for line, count in zip(lines, shared, strict=True) if count is None or count == best]
    for line in lines:
        if meant:
            line = " ".join(sentence.group() for sentence in _SENTENCE.finditer(line)
                            if meant & content_words(sentence.group()))
        # "will be -£1.10 after Friday": a figure to come, not one there is; but "From 1 January your unit rate
        # will be 29.14p" is a change announced, which is the news
        present = [amount for amount in AMOUNT.finditer(line)
                   if not _FORECAST.intersection(_clause_before(line, amount.start())) or _SCHEDULED.search(line)]
        amounts = [amount for amount in present if unit_of(amount) == unit]
        # "bounced=230 (2.7%) … unsubscribed=474 (5.6%)": the bounce rate is the figure the bounces precede, and
        # "fridge 4.1C garage 1.9C": the garage's figure is the one after its name, not the fridge's
        attached = [amount for amount, before in zip(amounts, [None, *amounts], strict=False)
                    if measured_by & content_words(line[max(before.end() if before else 0, amount.start() - 24):
                                                        amount.start()])]
        figures = [(scaled(unit_of(amount) or _cents(amount, unit), number),
                    f"{amount.group('number')} {amount.group('pre') or amount.group('unit') or ''}".strip())
                   for amount in (attached if len(amounts) > 1 and attached else present)
                   if (number := as_number(amount.group("number"))) is not None]
        figures += [(("s", float(int(h) * 3600 + int(m) * 60 + int(s))), clock.group())
                    for clock in _CLOCK.finditer(line) for h, m, s in [clock.groups()]]
        figures += [(("s", float(int(span.group("h") or 0) * 3600 + int(span.group("hm") or span.group("m")) * 60
                               + int(span.group("s") or 0))), span.group()) for span in _SPAN.finditer(line)]
        figures += _unit_column(line, unit, subject)
        for (figure_unit, figure), said in figures:
            # "0.8 mg/l" for "under 1 ppm", "8 km" for "more than 5 miles"
            value = figure if figure_unit == unit else converted(figure, figure_unit, unit)
            if value is None:
                continue
            if meets(op, value, bound):
                return Compared(True, said)
            seen.append(said)
    return Compared(False, ", ".join(seen)) if seen else None


def _my_rows(rule: TaskRule, items: Iterable[ChangeItem]) -> list[ChangeItem]:
    """For "I'm Tom Ashworth. … my club rating goes over 1600", a table's rows less those that name someone else
    ("| Navid Qureshi | 1631 |" is Navid's rating)."""
    me = frozenset(stem(word) for word in rule.user.lower().split())
    if not me or _MINE.search(rule.condition) is None:
        return list(items)
    return [replace(item, text="\n".join(
        line for line in item.text.splitlines()
        if not (len(cells(line)) == len(cells(header)) and names_another(me, line))))
        if item.source == "file" and (header := table_header(item.columns or item.title)) else item
        for item in items]


_KEYED_UNIT = re.compile(r"\b(?P<key>[a-z][a-z_]*?)_(?P<unit>percent|pct|cm|mm|kg|km|mb|gb|days|hours|minutes)"
                         r"\"?\s*(?P<sep>[:=])\s*(?P<number>-?\d[\d.]*)\b", re.I)
"""A machine's key that says its unit ("storage_dewar_percent: 27", ``"streak_days": 100``)."""


def _unit_after(key: re.Match[str]) -> str:
    """"storage_dewar_percent: 27" as "storage dewar: 27%"."""
    unit = key.group("unit").lower()
    unit = "%" if unit in ("percent", "pct") else f" {unit}"
    return f"{key.group('key').replace('_', ' ')}{key.group('sep')} {key.group('number')}{unit}"


_PURPOSE = re.compile(r"\s*(?:for\s+(?:my|our|the|a|an|his|her|their|your)|my|our|his|her|their|your)\s+"
                      r"(?P<thing>[a-z][a-z -]*?)"
                      r"(?=[,.;(]|$|\s+(?:to|and|if|or|when|then|so|i'll|we'll)\b)", re.I)
"""What a compared figure is for ("more than £120 for my phone screen")."""
_WORDS_AFTER = re.compile(r"\s*(?:new\s+|more\s+)?(?P<first>[A-Za-z][a-z-]{2,})(?:\s+(?P<second>[A-Za-z][a-z-]{2,}))?")


def _counted_noun(condition: str, limit: re.Match[str]) -> frozenset[str] | None:
    """What the bound counts when it is a thing, not a unit ("passes 1,000 subscribers", "more than 20 open
    tickets"): the stems of the one or two words after the figure, or None (a currency, a percentage, a
    duration, no word)."""
    if limit.group("pre") or unit_of(limit) in (*SECONDS, *CURRENCIES, *_IN_BASE, "%"):
        return None
    start = limit.start("unit") if limit.group("unit") else limit.end()
    if limit.re is OR_BEYOND:  # "7 Ramipril tablets or fewer": the words between
        start = limit.start("unit") if limit.group("unit") else limit.start("things")
    of_the = _OF_THE.match(condition, start)  # "fewer than 10 of the A5 linen notebooks": the notebooks
    match = _WORDS_AFTER.match(condition, of_the.end() if of_the else start)
    if match is None:
        return None
    words = []
    for word in (match.group("first"), match.group("second")):
        if word is None or word.lower() in STOPWORDS | CURRENCIES | set(SECONDS):
            break
        words.append(stem(word.lower()))
    return frozenset(words) or None


_OF_THE = re.compile(r"\s*(?:of\s+(?:the|our|my|those|these)\s+(?:[A-Z]\w*\d\w*\s+)?)?")
_STOCK = re.compile(r"\b(?:stock|in_stock|qty|quantity|count|left|remaining|on hand|on_hand|units)\b", re.I)
"""A table's column that counts what is there ("in stock", "qty")."""


def _in_stock(noun: frozenset[str], limit: re.Match[str], bound: float,
              items: Iterable[ChangeItem]) -> Compared | None:
    """For a count of a thing a stock table lists ("fewer than 10 of the A5 linen notebooks" and a row "A5 linen
    notebook | sage | 7" under "in stock"): the count column of each changed row that names the thing."""
    op, seen = op_of(limit), []
    for item in items:
        header = table_header(item.columns or item.title) if item.source == "file" else ""
        named = cells(header) if header else []
        counts = [index for index, cell in enumerate(named) if _STOCK.search(cell)]
        if len(counts) != 1:
            continue
        for row in map(cells, item.text.splitlines()):
            if len(row) != len(named) or not noun <= content_words(" ".join(row[:counts[0]] + row[counts[0] + 1:])):
                continue
            value = as_number(row[counts[0]].strip())
            if value is None:
                continue
            said = f"{named[counts[0]].strip()} {row[counts[0]].strip()}"
            if meets(op, value, bound):
                return Compared(True, said)
            seen.append(said)
    return Compared(False, ", ".join(seen)) if seen else None


def _counted(limit: re.Match[str], bound: float, noun: frozenset[str], items: Iterable[ChangeItem],
             names: frozenset[str]) -> Compared | None:
    """The count of ``noun`` on the changed lines ("Subscribers: 1,012", "1,012 subscribers"), compared."""
    op = op_of(limit)
    seen: list[str] = []
    for line in _subject_lines(items, names):
        for match in [*_COUNT_BEFORE.finditer(line), *_COUNT_AFTER.finditer(line)]:
            value = as_number(match.group("number"))
            if value is None or stem(match.group("word").lower()) not in same_things(noun):  # staff for people
                continue
            said = match.group().strip(" :=")
            if meets(op, value, bound):
                return Compared(True, said)
            seen.append(said)
    return Compared(False, ", ".join(seen)) if seen else None


_COUNT_BEFORE = re.compile(r"\b(?P<word>[A-Za-z][a-z-]{2,})\b[^:=\n\d,;|]{0,12}(?:\d[\w.]*\s*[A-Za-z]{1,3}\s*)?[:=]\s*"
                           + _NUMBER, re.I)
"""A count after a label: "Subscribers: 1,012", "Ramipril 5 mg: 6" (a strength or size after the name)."""
_COUNT_AFTER = re.compile(_NUMBER + r"\s+(?:new\s+)?(?P<word>[A-Za-z][a-z-]{2,})\b", re.I)


_TARGETS = frozenset({"reaches", "hits", "gets to", "passes", "tops", "hit", "reach"})
"""Ops that say a running figure reaches a target."""


def op_of(limit: re.Match[str]) -> str:
    op = limit.group("op").lower()
    if limit.re is OR_BEYOND:  # "20 % or less": the bound itself meets it
        op = "at most" if op in _BELOW else "at least"
    return op


KEY_COLUMNS = frozenset({"id", "sku", "code", "ref", "date", "day", "week", "month", "time", "year", "phone", "zip",
                   "postcode", "number"})
"""Columns that name or date a row (``order_id``), never the figure a condition compares."""
_NOT_COLUMN_WORDS = frozenset({"eur", "usd", "gbp", "chf", "pct", "num", "no", "nr", "the"})


_ACRONYM = re.compile(r"[A-Z]{2}")


def _column(subject: str, header: str) -> int | None:
    """The column of ``header`` the compared subject names ("the balance drops under 200 EUR": ``balance``;
    "validation accuracy": ``val_acc``, a cell's parts as the starts of the subject's words), or None: no
    column, or two that name it equally."""
    named = columns_named(subject, header)
    return named[0] if len(named) == 1 else None


def columns_named(subject: str, header: str, among: Collection[int] | None = None) -> list[int]:
    """The columns of ``header`` (or of those ``among`` them) that name the compared subject best
    (:func:`_column`), all of them when several name it equally ("either front tyre": ``front left`` and
    ``front right``)."""
    subject = re.sub(r"\S*/\S*|\S*\.[A-Za-z]\S*", " ", subject)  # a path names the file, not a column (PM2.5 does)
    # (a short word in capitals names a measure: "the mirror's PV error" and ``PV error (waves)``)
    words = [word.lower() for word in _CASED_TOKENS.findall(subject)
             if (len(word) > 2 or _ACRONYM.fullmatch(word))
             and word.lower() not in STOPWORDS and not word.endswith("'s")]  # whose, not what
    best: list[int] = []
    score = (0.0, 0)
    for index, cell in enumerate(cells(header)):
        if among is not None and index not in among:
            continue
        parts = [part for part in re.findall(r"[a-z]+", cell.lower()) if part not in _NOT_COLUMN_WORDS]
        parts = [part for part in parts if len(part) > 1]
        if not parts or KEY_COLUMNS & set(parts):
            continue
        hits = sum(any(word.startswith(part) or (len(word) > 3 and part.startswith(word)) for word in words)
                   for part in parts)
        share = (hits / len(parts), hits)
        if share > score:
            best, score = [index], share
        elif share == score and hits:
            best.append(index)
    return best if score[0] >= 0.5 else []


def _named_cells(condition: str, item: ChangeItem, text: str) -> str:
    """``text`` with each table row cut to the cell of the column the condition names a thing by ("the grass
    pollen forecast says high" and ``| day | grass | tree | weed |``: "very high" under tree is the tree pollen's);
    unchanged when no column's name qualifies a noun in the condition ("the parcel is delivered" names the row,
    not a column of values)."""
    header = table_header(item.columns or item.title) if item.source == "file" else ""
    column = _column(condition, header) if header else None
    if column is None:
        return text
    named = cells(header)
    parts = [part for part in re.findall(r"[a-z]+", named[column].lower()) if len(part) > 1]
    if not any(following.lower() not in STOPWORDS
               for part in parts for following in re.findall(rf"\b{part}\w*\s+([A-Za-z]+)", condition, re.I)):
        return text
    return "\n".join(row[column] if len(row := cells(line)) == len(named) else line for line in text.splitlines())


def unit_named(unit: str, header: str) -> int | None:
    """The one column of ``header`` whose name holds ``unit`` ("gbp_eur", "price (EUR)", "height m"), or None."""
    named = [index for index, cell in enumerate(cells(header))
             if unit in (_CURRENCY_CODES.get(part, part) for part in re.findall(r"[a-z€$£%]+", cell.lower()))]
    return named[0] if len(named) == 1 else None


def _in_column(subject: str, limit: re.Match[str], bound: float, items: list[ChangeItem],
               names: frozenset[str], *, unit: str = "") -> Compared | None:
    """For a table whose column the condition compares ("the balance drops under 200 EUR" and a bank CSV with a
    ``balance`` column; with ``unit``, the one column named in it: "more than 1.20 euros" and ``gbp_eur``): that
    column of each added row, compared; None when no changed table has the column. The other figures on the row
    (the amount, the date) are not what the condition compares."""
    op, seen = op_of(limit), []
    found = False
    for item in items:
        header = table_header(item.columns or item.title) if item.source == "file" else ""
        if not header:
            continue
        named = cells(header)
        figures = _figures_in(named, item.text)
        if unit:
            columns = [column] if (column := unit_named(unit, header)) is not None else []
        else:  # "either front tyre": each of the columns it names; of those with figures ("the ammonia in the
            # shrimp tank" and ``| tank | ammonia (ppm) |``: the ammonia, not the tank)
            columns = columns_named(subject, header, figures)
            columns = columns if len(columns) == 1 or _EITHER_ONE.search(subject) else []
        if not columns:
            continue
        found = True
        # ... and the tank is the shrimp tank: a row whose tank is "community" is another tank's
        keys = columns_named(subject, header, set(range(len(named))) - figures)
        wanted = content_words(subject)
        for line in item.text.splitlines():
            row = cells(line)
            if len(row) != len(named) or (names and not names & content_words(line) and not titled(names, item)) \
                    or any(content_words(row[key]) and not content_words(row[key]) & wanted for key in keys):
                continue
            for column in columns:
                value = _cell_figure(row[column])
                if value is None:
                    continue
                value = in_unit(value, named[column], unit_of(limit))  # "median_min" for "over 2 hours"
                said = f"{named[column].strip()} {row[column].strip()}"
                if meets(op, value, bound):
                    return Compared(True, said)
                seen.append(said)
    return Compared(False, ", ".join(seen)) if found and seen else None


def _cell_figure(cell: str) -> float | None:
    """A table cell's figure ("+3", "1 200"), or None."""
    return as_number(cell.strip().lstrip("+").replace(" ", "")) if cell.strip() else None


def _figures_in(named: list[str], text: str) -> set[int]:
    """The columns of ``named`` that hold a figure on some row of ``text``."""
    return {index for line in text.splitlines() if len(row := cells(line)) == len(named)
            for index, cell in enumerate(row) if _cell_figure(cell) is not None}


def in_unit(value: float, column: str, into: str) -> float:
    """A column's figure in the condition's unit where the column's name says another of its kind ("median_min"
    for "over 2 hours": minutes as hours); else as it is."""
    for part in re.findall(r"[a-z]+", column.lower()):
        if part != into and part in SECONDS and into in SECONDS:
            return value * SECONDS[part] / SECONDS[into]
        if part != into and (other := converted(value, part, into)) is not None:
            return other
    return value


_EITHER_ONE = re.compile(r"\b(?:either|any|one of)\b", re.I)
"""A subject that is any one of several ("either front tyre"): each column that names it is compared."""
_FIELD = re.compile(r"^\s*[-*]?\s*(?P<label>[A-Za-z][\w .()-]{1,40}?)\s*:\s*(?P<value>-?\d+(?:[.,]\d+)?)(?![\d:])")
_PAIR = re.compile(r"(?<![\w.])(?P<label>[A-Za-z][A-Za-z_-]{1,15})\s*[=:]?\s*(?P<value>-?\d+(?:\.\d+)?)(?![\d:/.])")


def _in_label(subject: str, limit: re.Match[str], bound: float, items: list[ChangeItem]) -> Compared | None:
    """For a record's field ("Food hygiene rating: 3") whose label names a word of the compared subject ("the
    hygiene inspection gives us anything under a 5"): its figure, compared; None when no changed line is such a
    field. A bare figure elsewhere could be a date or a count of something else."""
    wanted = content_words(re.sub(r"\S*/\S*", " ", subject)) - GENERIC - PREDICATES
    fields: list[tuple[int, str, str]] = []  # (how many words of the subject the line says, label, figure)
    for item in items:
        if item.source not in NEWS:
            continue
        for line in item.text.splitlines():
            said = len(wanted & content_words(line))
            field = _FIELD.match(line)
            if field is not None and wanted & content_words(field.group("label")):
                fields.append((said, field.group("label").strip(), field.group("value")))
                continue
            fields += [(said, pair.group("label"), pair.group("value")) for pair in _PAIR.finditer(line)
                       if stem(pair.group("label").lower()) in wanted]  # "… COP 2.31, outside avg …"
    best = max((said for said, _, _ in fields), default=0)
    op, seen = op_of(limit), []
    for said, label, figure in fields:
        value = as_number(figure)
        if said < best or value is None:  # the daily COP's line, not the legionella cycle's
            continue
        if meets(op, value, bound):
            return Compared(True, f"{label}: {figure}")
        seen.append(f"{label}: {figure}")
    return Compared(False, ", ".join(seen)) if seen else None

_OWN_LIMIT = re.compile(r"\b(?P<op>less|fewer|lower|below|under|more|higher|above|over|exceeds|reaches)(?:\s+than)?"
                        r"\s+(?:its|their|the)\s+(?P<what>[a-z][\w -]{2,30}?)(?=\s*[,.;()]|\s+(?:in|on|at|for|"
                        r"and|then|so)\b|\s*$)", re.I)
"""A bound in another column of the same row: "drops below its reorder level", "goes over their budget"."""


def _against_column(subject: str, own: re.Match[str], items: list[ChangeItem],
                    names: frozenset[str]) -> Compared | None:
    """For a condition whose bound is a column of the same row ("something drops below its reorder level" and a
    stock CSV with ``on_hand`` and ``reorder_at``): each added row's figure against its own bound. The figure is
    the column the subject names, else the row's only other figure, else the ones the change changed."""
    op = own.group("op").lower()
    seen: list[str] = []
    for item in items:
        title = table_header(item.columns or item.title) if item.source == "file" else ""
        limit_at = _column(own.group("what"), title) if title else None
        if limit_at is None:
            continue
        header = cells(title)
        named = _column(subject, title)
        before = {row[0]: row for row in map(cells, item.removed.splitlines()) if len(row) == len(header)}
        for line in item.text.splitlines():
            row = cells(line)
            bound = as_number(row[limit_at].strip()) if len(row) == len(header) else None
            if bound is None or (names and not names & content_words(line)):
                continue
            figures = [index for index, cell in enumerate(row)
                       if index != limit_at and as_number(cell.strip()) is not None
                       and not KEY_COLUMNS & set(re.findall(r"[a-z]+", header[index].lower()))]
            if named is not None and named != limit_at:
                figures = [named]
            elif len(figures) > 1:
                old = before.get(row[0], [])
                figures = [index for index in figures if not old or old[index] != row[index]]
            for index in figures:
                value = as_number(row[index].strip())
                said = (f"{header[index].strip()} {row[index].strip()}, "
                        f"{header[limit_at].strip()} {row[limit_at].strip()}")
                if value is not None and meets(op, value, bound):
                    return Compared(True, said)
                seen.append(said)
    return Compared(False, "; ".join(seen)) if seen else None


def _unit_column(line: str, unit: str, subject: frozenset[str]) -> list[tuple[tuple[str, float], str]]:
    """A table row that keeps its unit in a cell of its own ("bread flour (strong white),kg,41,Wed"): the figure
    beside the unit's cell, in that unit, when the row names every word of the subject (the rye flour's row is
    not the bread flour's)."""
    row = [cell.strip() for cell in cells(line)]
    if len(row) < 3 or not subject or not subject <= content_words(line):
        return []
    found = []
    for index, cell in enumerate(row):
        if cell.lower() != unit:
            continue
        for other in (index + 1, index - 1):
            value = as_number(row[other]) if 0 <= other < len(row) and row[other] else None
            if value is not None:
                found.append(((unit, value), f"{row[other]} {cell}"))
                break
    return found

_SCHEDULED = re.compile(r"\b(?:from|starting|effective|as of)\s+(?:\d{1,2}(?:st|nd|rd|th)?\s+)?(?:" + _MONTHS + r")\b",
                        re.I)
_FORECAST = frozenset({"will", "would", "could", "might", "forecast", "forecasts", "expected", "projected",
                       "estimated", "if", "unless"})


def _clause_before(line: str, end: int) -> list[str]:
    """The words of the clause (or table cell) of ``line`` that ends at ``end``."""
    tokens = clause_tokens(line[:end].replace("|", ";"))
    return tokens[len(tokens) - tokens[::-1].index("|"):] if "|" in tokens else tokens


def _subject_lines(items: Iterable[ChangeItem], names: frozenset[str]) -> Iterator[str]:
    """The changed lines of files and memories, only those that name the subject when ``names`` is given (every
    line of a mail from them)."""
    for item in items:
        if item.source in NEWS:
            theirs = bool(names) and _from_them(names, item.text)
            # (short names too: "3K"; "-£1.50" as "£-1.50", a figure below nought)
            yield from (_SIGN_FIRST.sub(r"\g<currency>\g<sign>", line) for line in item.text.splitlines()
                        if not names or theirs or names & (content_words(line) | set(_TOKENS.findall(line.lower()))))


_SIGN_FIRST = re.compile(r"(?P<sign>(?<![\w.,])[-−])\s?(?P<currency>[€$£])")


def _cents(amount: re.Match[str], unit: str) -> str:
    """A bare figure with two decimals ("1249.00" in a card statement) is money in the limit's currency."""
    return unit if unit in CURRENCIES and _WITH_CENTS.fullmatch(amount.group("number")) else ""


CURRENCIES = frozenset({"eur", "usd", "gbp", "chf", "€", "$", "£"})
_WITH_CENTS = re.compile(r"\d+\.\d\d")


_IN_BASE = {"m": ("m", 1.0), "metres": ("m", 1.0), "meters": ("m", 1.0), "km": ("m", 1000.0),
            "mi": ("m", 1609.344), "mile": ("m", 1609.344), "miles": ("m", 1609.344), "yd": ("m", 0.9144),
            "yds": ("m", 0.9144), "yards": ("m", 0.9144), "ft": ("m", 0.3048), "g": ("g", 1.0), "kg": ("g", 1000.0),
            "lb": ("g", 453.592), "lbs": ("g", 453.592), "oz": ("g", 28.3495), "ml": ("l", 0.001), "l": ("l", 1.0),
            "ppm": ("ppm", 1.0), "mg/l": ("ppm", 1.0), "day": ("day", 1.0), "days": ("day", 1.0),
            "week": ("day", 7.0), "weeks": ("day", 7.0)}
"""Lengths, weights, volumes, concentrations (a part per million of water is a milligram per litre) and days (a
streak of 100 days; never a clock's seconds) by unit: the base unit and how many of it one is."""


def converted(value: float, unit: str, into: str) -> float | None:
    """``value`` in ``unit`` as a figure in ``into`` ("1600 yd" in km: 1.463), or None when they do not convert."""
    one, other = _IN_BASE.get(unit.lower()), _IN_BASE.get(into.lower())
    if unit.lower() == into.lower():
        return value
    if one is None or other is None or one[0] != other[0]:
        return None
    return value * one[1] / other[1]


def scaled(unit: str, value: float) -> tuple[str, float]:
    """A duration in seconds ("5 minutes" is 300 s); any other figure as it is."""
    if unit in SECONDS:
        return "s", value * SECONDS[unit]
    return unit, value


def _moved(rule: TaskRule, items: Iterable[ChangeItem], names: frozenset[str]) -> Compared | None:
    """For a condition that a figure's move meets ("my mobile contract gets more expensive"): a change "from
    24.99 EUR to 27.99 EUR" on the changed lines, compared by the app. None when the condition names no
    direction or no changed line says such a move."""
    rises, falls = _RISES.search(rule.condition), _FALLS.search(rule.condition)
    if (rises is None) == (falls is None):
        return None
    seen: list[str] = []
    for line in _subject_lines(items, names):
        for move in _FROM_TO.finditer(line):
            before, after = as_number(move.group("a")), as_number(move.group("b"))
            if before is None or after is None or before == after:
                continue
            said = move.group().strip()
            if (after > before) == (rises is not None):
                return Compared(True, said)
            seen.append(said)
    return Compared(False, ", ".join(seen)) if seen else None


def is_ceiling(op: str) -> bool:
    """Whether ``op`` keeps a figure under its bound ("below 30", "at most 2", "within 5 miles")."""
    return op in _BELOW or op in ("at most", "within")


def meets(op: str, value: float, bound: float) -> bool:
    if op in ("at least", "reaches", "hits", "gets to", "hit", "reach"):
        return value >= bound
    if op in ("at most", "within"):
        return value <= bound
    return value < bound if op in _BELOW else value > bound
