"""Relevance before the model: whether a change concerns a task at all (:func:`touches`).

A task no change touches is ``noop`` without a model call. What a task's rule watches decides (its files and
folders, what the user tells the assistant, skill or model health, else the words of its condition), and
then what it is about: a change that does not name the person or thing the condition names ("the flight to
Lisbon", "Anna's address") is no news for it, an edit of an old file is none for a task that waits for a new
one, a change of punctuation is none at all, and a line in the backup log is none for "the web server log".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from openhuman_desktop.subconscious.decisions import WORLD, ChangeItem
from openhuman_desktop.subconscious.meanings import PREDICATES, same_things
from openhuman_desktop.subconscious.task_rules import (
    GENERIC,
    MEMORIES,
    MODELS,
    SKILLS,
    STOPWORDS,
    TaskRule,
    content_words,
    first_verb,
    path_words,
    place_words,
    stem,
)


def _matches_path(path: str, watched: str) -> bool:
    path, watched = path.lower(), watched.lower()
    if watched.endswith("/"):
        return path.startswith(watched) or f"/{watched}" in f"/{path}"
    return path == watched or path.endswith("/" + watched)


_NAME = re.compile(r"\b[A-Z][a-z]+(?:'s)?(?![\w.])")
_PRONOUN = re.compile(r"\b(?:her|his|their)\b", re.I)
_IDENTIFIER = re.compile(r"(?<![\w/.-])(/[a-z][\w-]*|[A-Z]{3,}[A-Z0-9]*|[A-Za-z]{1,4}-?\d{2,}[\w-]*)(?![\w/])")
"""Names that are not words: a path ("/data"), a code ("KX-402", "T-1002"), a ticker or marker ("NRDX")."""
_DOMAIN = re.compile(r"\b(?:[a-z0-9-]+\.){2,}[a-z]{2,}\b|\b[a-z0-9-]+\.(?:com|org|net|io|dev|app|example|shop)\b",
                     re.I)
"""A host name ("shop.example.org"): a name as a whole, never by its parts (blog.example.org is another)."""
_VERSION = re.compile(r"(?:\b(?:version|release|build)\s+|(?<![\w.])v)(?P<number>\d+(?:\.\d+){1,3})(?P<tag>-[a-z0-9]+)?"
                      r"(?![\w.])|(?<![\w.])(?P<three>\d+\.\d+\.\d+)(?P<tag3>-[a-z0-9]+)?(?![\w.])", re.I)
"""A software version ("version 3.2", "v2.4.0-rc1", "3.1.4"): a name of its own; 3.2 is not 3.1.4, nor v2.4.0
its release candidate v2.4.0-rc1. A bare "8.4" is a figure."""


def versions(text: str) -> frozenset[str]:
    """The versions ``text`` names, as ``v3.2`` / ``v2.4.0-rc1``."""
    return frozenset(
        f"v{match.group('number') or match.group('three')}{match.group('tag') or match.group('tag3') or ''}".lower()
        for match in _VERSION.finditer(text))


_NOT_IDENTIFIERS = frozenset({"eur", "usd", "gbp", "chf", "pdf", "csv", "url", "utc", "jpg", "png", "txt", "ram"})
_NOT_NAMES_TEXT = """
    i january february march april may june july august september october november december monday tuesday
    wednesday thursday friday saturday sunday today tomorrow tonight mon tue tues wed thu thur thurs fri sat sun jan
    feb mar apr jun jul aug sep sept oct nov dec
"""
NOT_NAMES = frozenset(_NOT_NAMES_TEXT.split())
"""Capitalised words that name no one: "I", months, weekdays, days near today."""
_KIN = frozenset(stem(word) for word in ("mum", "mom", "mam", "dad", "nan", "nana", "nanna", "gran", "granny",
                                          "grandma", "grandad", "grandpa", "auntie", "aunty", "uncle"))
"""What the user calls their family ("Mum's GP"): her GP's mail names her as Joan Pryce, never as Mum."""
_REASON = re.compile(r",\s+(?:we're|we are|they're|because|since|so that|as we|as I)\s", re.I)
"""Where a condition goes on with the user's reason for it."""


@functools.lru_cache(maxsize=4096)
def subject_names(condition: str, *, mid_sentence: bool = True) -> frozenset[str]:
    """The names the condition is about, stemmed: its capitalised words ("the flight to Lisbon", "Anna's
    address", "the invoice from Acme"), not "I", months, weekdays or units ("EUR"); and its names that are not
    words ("the /data disk", "my car KX-402", "NRDX drops below 40 USD").

    Args:
        mid_sentence: the condition was cut from the middle of the title ("Tell me when the flight to Lisbon
            …"), so its first word is capitalised only if it is a name ("Anna's address changes"); False when
            it begins the title or the user wrote it ("Check my inbox …", "Log each workout …": its first word
            is capitalised as any first word; a possessive still counts, "Anna's …").
    """
    names: set[str] = set()
    condition = _REASON.split(condition, maxsplit=1)[0]  # "…, we're paying the builder in Spain": why, not what
    for match in _NAME.finditer(condition):
        word = match.group().lower()
        if match.start() == 0 and (not (mid_sentence or word.endswith("'s")) or word in STOPWORDS):
            continue
        if word.removesuffix("'s") not in NOT_NAMES and word not in STOPWORDS:  # "this Thursday's rehearsal"
            names.add(stem(word))
    for match in _IDENTIFIER.finditer(condition):
        if match.group().lower() not in _NOT_IDENTIFIERS:
            names |= content_words(match.group().replace("/", " "))
    return frozenset(names | {match.group().lower() for match in _DOMAIN.finditer(condition)} | versions(condition))


@functools.lru_cache(maxsize=4096)
def _said(text: str) -> frozenset[str]:
    """Every word of ``text`` stemmed, short ones too ("Jo"), and its host names whole."""
    return frozenset({stem(word) for word in re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.lower())}
                     | {match.group().lower() for match in _DOMAIN.finditer(text)} | versions(text)
                     | _initials(text))


_SPELT_OUT = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:of\s+|and\s+|for\s+|the\s+)*[A-Za-z][a-z]+){1,4}\b")
_SMALL = frozenset({"of", "and", "for", "the"})


def _initials(text: str) -> set[str]:
    """What a name spelt out from a capital stands for ("Lasting power of attorney": lpa, "Office of the Public
    Guardian": opg), so a condition's "LPA" is named by a mail that writes it in full."""
    found = set()
    for match in _SPELT_OUT.finditer(text):
        words = [word for word in match.group().split() if word.lower() not in _SMALL]
        for end in range(3, min(len(words), 5) + 1):  # (from its capitalised first word: "Lasting power …")
            found.add("".join(word[0] for word in words[:end]).lower())
    return found


@functools.lru_cache(maxsize=4096)
def rule_names(rule: TaskRule) -> frozenset[str]:
    """The names a rule's condition is about (:func:`subject_names`), less its places; with a pronoun ("her
    birthday"), the names of its action too ("… for Anna"); when it names one, the other names the title gives
    it too ("Toby's class. He's in 2P": a letter to 2P is about Toby's class)."""
    places = place_words(rule)
    cut = rule.source == "rule" and not rule.action.lower().startswith(rule.condition.lower())
    names = subject_names(rule.condition, mid_sentence=cut)
    if _PRONOUN.search(rule.condition) and rule.action != rule.condition:  # "… for Anna when her birthday …"
        names |= subject_names(rule.action, mid_sentence=False) | {stem(alias) for alias in rule.aliases}
    files = [path for path in rule.watch_paths if not path.endswith("/")]
    if files and all(names & path_words(path) for path in files):
        # "the Lumo lamp Kickstarter says … (backed/lumo-updates.md)": the file is the subject's own, and
        # every line of it is about it, whatever else the condition names
        return frozenset()
    names -= places
    return names | {stem(alias) for alias in rule.aliases} if names else names


def names_subject(rule: TaskRule, item: ChangeItem) -> bool:
    """Whether ``item`` names what the condition is about, when the condition names it: a cheap flight to
    Porto is no news for "the flight to Lisbon costs less than 300 EUR", Ben's new address none for "Anna's
    address changes", Globex's invoice none for "the invoice from Acme arrives" — whatever a model says.
    The names count on the lines added or removed, in a memory's text and in a file's path
    ("career/lumen-offer.md"). A condition without a name is named by any change, and so is a file's change
    that names no one at all ("Status: work finished" under a header "car KX-402" that did not change): the
    lines of a file about one subject need not repeat its name."""
    names = rule_names(rule)
    if not names or _awaited_document(rule, names, item):
        return True
    said = _said(item.text) | _said(item.removed) | path_words(item.name)
    if names & said or titled(names, item) or _in_host(names, item.text):
        return True
    if names <= _KIN and item.source != "memory" and not _KIN & said:
        return True  # a mail about "Mum" written by her GP, who calls her Joan (the user's notes say Mum)
    return item.source == "file" and not any(_mentions_a_name(line) and not replaces_in_place(line, item.removed)
                                             for line in item.text.splitlines())


def _awaited_document(rule: TaskRule, names: frozenset[str], item: ChangeItem) -> bool:
    """Whether a new file is the document an arrival waits for and the condition's names are only whom it comes
    from ("Gillian posts the autumn concert programme (choir/)": the programme names composers, not Gillian)."""
    if item.source != "file" or item.status != "new" or not awaits_arrival(rule) or names - senders_named(rule):
        return False
    return bool(subject_of(rule) - GENERIC & (path_words(item.name) | content_words(document_head(item))))


def document_head(item: ChangeItem) -> str:
    """A new file's first three lines that hold something, as one line (a mail's sender and subject)."""
    return " ".join([line for line in item.text.splitlines() if line.strip()][:3])


def senders_named(rule: TaskRule) -> frozenset[str]:
    """The condition's names that say who sends an awaited document: those before its verb ("Gillian posts the
    autumn concert programme"). Not a document's own names ("the invoice from Acme arrives": Acme's invoice
    names Acme)."""
    verb = _SENT_THING.search(rule.condition)
    return rule_names(rule) & _said(rule.condition[: verb.start()]) if verb is not None else frozenset()


def titled(names: frozenset[str], item: ChangeItem) -> bool:
    """Whether a changed file's heading names one of ``names`` ("# Curlew Cottage reviews"): then the change is
    about that, whoever else a line names (a guest, a reviewer)."""
    return bool(names) and bool(item.title) and bool(names & _said(item.title))


def names_another(names: frozenset[str], line: str, removed: str = "") -> bool:
    """Whether ``line`` names someone or something, and none of ``names`` (the blog's host in a health check
    for "the API"). A line that replaces one of ``removed`` in place is about what that line was about."""
    return bool(names) and _mentions_a_name(line) and not names & _said(line) and not _in_host(names, line) \
        and not replaces_in_place(line, removed)


def _in_host(names: frozenset[str], text: str) -> bool:
    """Whether a host name in ``text`` spells every one of ``names`` ("kestreljoinery.co.uk" for "the Kestrel
    Joinery website")."""
    hosts = [match.group().lower() for match in _DOMAIN.finditer(text)]
    return bool(names) and any(all(name in host for name in names) for host in hosts)


_LABEL = re.compile(r"^\s*[-*]?\s*(?P<label>[A-Za-z][A-Za-z ]{0,24}?)\s*:")
_FIELDS_TEXT = """
    status state update updates result results outcome decision progress stage phase eta departure departs arrival
    arrives platform gate delivery price total balance amount due date time location note notes reply answer
"""
_FIELDS = frozenset(_FIELDS_TEXT.split())
"""Labels of a record's fields (``Status: on time``), as opposed to the names a list is keyed by (``Porto: …``)."""


def replaces_in_place(line: str, removed: str) -> bool:
    """Whether ``line`` replaces a removed line with the same label that named no one: "Status: does not run
    …; replacement bus from Salzburg" for "Status: on time" is still the status of the file's train, whatever
    other place it names. Only a field's label counts (:data:`_FIELDS`): in a list keyed by names ("Porto: 289
    EUR") each line keeps its own subject."""
    label = _LABEL.match(line)
    if label is None or not removed or not set(label.group("label").lower().split()) & _FIELDS:
        return False
    key = label.group("label").lower()
    return any((old := _LABEL.match(gone)) is not None and old.group("label").lower() == key
               and not _mentions_a_name(gone[old.end():]) for gone in removed.splitlines())


def _mentions_a_name(line: str) -> bool:
    """Whether a line names someone or something: a capitalised word after its first, or a code ("TB-115")."""
    return bool(subject_names(line, mid_sentence=False)) or any(
        match.group().lower() not in _NOT_IDENTIFIERS for match in _IDENTIFIER.finditer(line)) or bool(
        _DOMAIN.search(line)) or bool(versions(line))


def touches(rule: TaskRule, item: ChangeItem) -> bool:
    """Whether ``item`` concerns the task: the gate before any model is asked (a task whose condition names
    what it is about is touched only by a change that names it: :func:`names_subject`)."""
    if item.source in (SKILLS, MODELS):
        return rule.watches == item.source and item.status == "problem"
    return _touches(rule, item) and names_subject(rule, item)



def _touches(rule: TaskRule, item: ChangeItem) -> bool:
    if item.source == WORLD:  # a mail, a feed item, an event: by its words, as a memory is ("email: …" too)
        if rule.watch_paths or rule.watches in (MEMORIES, SKILLS, MODELS):
            return False
        return bool((_about(rule) | subject_names(rule.action, mid_sentence=False)) & _said(item.text))
    if item.source == "memory":
        if rule.watches == MEMORIES:
            return True
        if rule.watch_paths:
            return False
        # The names its action gives count too: "Plan our Rome weekend once Jo confirms the dates".
        return bool((_about(rule) | subject_names(rule.action, mid_sentence=False)) & _said(item.text))
    if item.source != "file" or item.status == "same" or cosmetic(item):
        return False
    if any(_matches_path(item.name, target) for target in rule.targets):
        return False  # the action's own file: the assistant writes there
    if item.status != "new" and awaits_arrival(rule):
        return False  # an edit of a file that was there is not the new one the task waits for
    qualifiers = _file_qualifiers(rule)
    if qualifiers and not qualifiers & (path_words(item.name) | content_words(item.text)):
        return False  # "the web server log": a line in the backup log is another log's
    if rule.watch_paths:
        return any(_matches_path(item.name, watched) for watched in rule.watch_paths)
    if rule.watches in (MEMORIES, SKILLS, MODELS):
        return False
    return bool(_about(rule) & (path_words(item.name) | content_words(item.text) | content_words(item.title)))


@functools.lru_cache(maxsize=4096)
def _about(rule: TaskRule) -> frozenset[str]:
    """The words of a task that say what it is about, less those that say what must happen to it: a change
    that says only "ready" or "confirmed" is about something else (an identity card for "my new passport is
    ready", the electrician for "the plumber confirms a time"). All its words when nothing else is left; with
    the other everyday words for the same things (:func:`~.meanings.same_things`: the suitcase is the bag)."""
    words = frozenset(rule.watch_words) - GENERIC
    return same_things(words - PREDICATES or words)


_WORDS = re.compile(r"\w+")


def cosmetic(item: ChangeItem) -> bool:
    """Whether a changed file only changed its punctuation (the same words in the same order; a change of
    spacing alone is no change at all: ``same``)."""
    return item.source == "file" and item.status == "changed" and bool(item.removed) and _same_words(
        item.text, item.removed)


@functools.lru_cache(maxsize=4096)
def _same_words(added: str, removed: str) -> bool:
    return _WORDS.findall(added.lower()) == _WORDS.findall(removed.lower())


_ARRIVAL = re.compile(r"\b(?:arrives?|arrived|lands?|landed|(?:is|are|gets|get) (?:posted|uploaded|saved|filed)|"
                      r"comes? in(?:to)?|comes?(?=\s*(?:[(,.;]|$))|comes? through|sends? (?:it|them|one)|"
                      r"(?:is|are|gets) sent|"
                      r"i (?:save|saved|put|drop|add))\b", re.I)
_NEW_THING = re.compile(r"\b(?:new|each|every|any)\s+((?:[a-z]+\s+){0,2}[a-z]+)", re.I)
DOCUMENTS = frozenset(stem(word) for word in (
    "note", "document", "file", "ticket", "article", "schedule", "lease", "offer", "invoice", "report", "mail",
    "email", "letter", "contract", "statement", "receipt", "scan", "photo", "picture", "recording", "paper", "form",
    "application", "order", "quote", "bill", "minutes", "agenda", "draft", "agreement", "proposal", "estimate",
    "certificate", "payslip", "policy", "slides", "manuscript", "transcript", "notice", "programme", "program",
    "figures", "results", "timetable", "newsletter", "rota", "menu", "accounts", "budget", "brochure", "catalogue",
    "valuation", "survey", "fixtures"))
"""Things that arrive as files: "each new support ticket in tickets/" waits for a new file."""


@functools.lru_cache(maxsize=4096)
def awaits_arrival(rule: TaskRule) -> bool:
    """Whether the task waits for a new file in a folder it watches ("Summarise each new meeting note in the
    meetings folder", "Review the new lease when it arrives in documents/", "each article I save in reading/"):
    then only a new file there is news, never an edit of one that was there. "New errors in ops/logs/" is not
    such a task: errors come as lines, not as files."""
    if not any(path.endswith("/") for path in rule.watch_paths):
        return False
    if _ARRIVAL.search(rule.condition) or _sent_document(rule.condition):
        return True
    folders = set().union(*(path_words(path) for path in rule.watch_paths if path.endswith("/")))
    return any(content_words(match.group(1)) & (DOCUMENTS | folders) for match in _NEW_THING.finditer(rule.condition))


@functools.lru_cache(maxsize=4096)
def subject_of(rule: TaskRule) -> frozenset[str]:
    """What an arrival is of: the condition's words before its verb ("a customer complaint" arrives); for "it
    arrives", the action's ("Review the new lease")."""
    sent = _sent_document(rule.condition)
    if sent:  # "Kestrel sends the revised service agreement to work/contracts/": the agreement
        return sent
    match = _ARRIVAL.search(rule.condition)
    words = content_words(rule.condition[: match.start()] if match else rule.condition)
    if match is not None and _SENT_IT.match(match.group()):  # "the seller sends it to car/": what is sent
        words = frozenset()
    return words or content_words(rule.action) - {stem(first_verb(rule.action))}


_SENT_IT = re.compile(r"sends? (?:it|them|one)", re.I)
_SENT_THING = re.compile(r"\b(?:sends?|sent|emails?|forwards?|uploads?|posts?|delivers?|shares?|publish(?:es)?|"
                         r"issues?|releases?|circulates?)\s+(?:me\s+|us\s+)?"
                         r"(?:(?:the|a|an|its|their|his|her|my|our|new)\s+)?(?P<thing>(?:[a-z-]+\s+){0,3}?[a-z-]+)"
                         r"(?:\s+(?:to|into|in|for|of)\s|\s*\()", re.I)


def _sent_document(condition: str) -> frozenset[str]:
    """What someone sends into a folder when it is a document ("sends the revised service agreement to
    work/contracts/": revised, service, agreement); empty when nothing of the kind is sent."""
    match = _SENT_THING.search(condition)
    words = content_words(match.group("thing")) if match else frozenset()
    # (or what its folder holds: "Sensei posts homework in learning/japanese/homework/")
    folders = {stem(folder.lower()) for folder in re.findall(r"([\w.-]+)/", condition)}
    return words if words & (DOCUMENTS | folders) else frozenset()


_QUALIFIED_FILE = re.compile(r"\b(?:the|my|our)\s+((?:[a-z]+\s+){1,3})(?:log|logs|journal|file)\b", re.I)


@functools.lru_cache(maxsize=4096)
def _file_qualifiers(rule: TaskRule) -> frozenset[str]:
    """The words that say which file a condition means when it names none by path: "the web server log" (web,
    server), "the soil sensor log" (soil, sensor)."""
    if rule.watch_paths:
        return frozenset()
    found = _QUALIFIED_FILE.search(rule.condition)
    return content_words(found.group(1)) - GENERIC if found else frozenset()


def touching(rule: TaskRule, items: Iterable[ChangeItem]) -> list[ChangeItem]:
    return [item for item in items if touches(rule, item)]
