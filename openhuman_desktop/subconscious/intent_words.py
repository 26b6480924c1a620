"""Permission from words: does a request's own instruction ask for a change? (DESIGN §2, issue 25).

The two mistakes cost different things: a wrong ``write`` gives a run write tools without a card, a wrong
``read`` costs the person one click on a card. So this reads a request the way the approval gate needs it
read: ``write`` only when an instruction of the request itself — its main verb, after the politeness ("please",
"can you", "I'd like you to", "go ahead and"), time ("every morning") and condition ("when X arrives, …") — is a
verb that changes something. Nouns ("the error logs", "backup status"), questions (about the past too, and
"can you tell me …?"), "check / see / tell me whether …", statements, descriptions, telling the person
("remind me", "send me the numbers") and "don't …" stay ``read``.

A message is read sentence by sentence and clause by clause ("Check the logs and delete the old ones" asks for
a change in its second clause); quoted text is never an instruction (``Find the mail titled "Delete your
account"``). No model: the same words always give the same answer, in microseconds.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

READ = "read"
WRITE = "write"

QUOTED = "\u2058"
"""What a quoted span becomes: one token, an object like any other ("Append 'buy milk' to todo.md")."""


@dataclass(frozen=True)
class Reading:
    """What the words ask for.

    Attributes:
        intent: ``write`` or ``read``.
        instruction: the clause whose verb asks for a change, as read (lowercase, quotes as ``⁘``); empty
            for ``read``.
        verb: that verb ("delete", "back up"); empty for ``read``.
    """

    intent: str
    instruction: str = ""
    verb: str = ""

    @property
    def is_write(self) -> bool:
        return self.intent == WRITE


_READ = Reading(READ)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# --- the vocabulary ------------------------------------------------------------------------------------

# Verbs that change something, in their base form, and that are rarely anything else at the start of a clause.
STRONG_VERBS = _words("""
    send delete remove erase wipe purge discard archive move rename forward publish cancel pay buy purchase install
    uninstall reinstall upgrade downgrade upload download submit invite assign reassign unassign commit push merge
    deploy revert restore reset restart reboot unsubscribe subscribe append insert overwrite replace edit modify
    save respond tweet retweet rsvp accept decline approve reject reopen mute unmute block unblock ban unban enable
    disable grant revoke configure reconfigure renew tidy organize organise declutter reorganize reorganise
    rearrange reschedule postpone unfollow bump increment decrement undo redo retry kill terminate patch add put
    mark transfer export unpin unstar unshare unlock lock snooze encrypt decrypt compress unzip delegate
    trash ditch rollback deduplicate dedupe nuke prepend donate rm mv reformat
""")
# Verbs that are as often nouns or adjectives at the start of a line ("backup status", "update on X?", "open
# pull requests", "file sizes"): a verb only when an object follows ("backup the database", "file it").
AMBIGUOUS_VERBS = _words("""
    backup update file log record post order book schedule change tag label share sync fix clean sort copy
    duplicate clear empty close print star pin reply store set convert resolve format
    rotate correct import hide unhide apply sign fill bin comment
""")
# Communication verbs: "write" only when someone other than the person is told ("tell Anna", "send it to
# the team"); "remind me", "send me the numbers", "email the summary to me" tell the person, which is reading.
COMMUNICATION_VERBS = _words("send email e-mail mail text message dm ping notify remind alert tell inform warn "
                             "forward ask flag report")
# Verbs that write when they have a destination ("write the summary to notes/summary.md", "keep a log in
# log.md") or make a stored thing ("make a note", "create a folder"), and otherwise compose text to show.
COMPOSING_VERBS = _words("write create make keep draft compose prepare generate produce summarize summarise "
                         "translate rewrite outline compile")
# What "create / make" can produce that is only text to show (unless it is put somewhere).
COMPOSED_NOUNS = _words("""
    summary summaries overview list lists plan outline draft report analysis comparison table chart poem story
    joke description explanation estimate breakdown recap digest guess suggestion suggestions recommendation
    recommendations decision sense point case argument pitch version translation review checklist timeline
    agenda answer response reply email message letter text
""")
# What "keep / make" can keep that is a stored record.
KEPT_RECORDS = _words("log record journal diary note notes tally copy backup backups list folder file page "
                      "entry task reminder reservation booking appointment payment change changes commit ticket "
                      "issue document doc spreadsheet")
# Verbs that rearrange or reformat: a change to files ("sort my downloads into folders", "convert the notes to
# PDF"), or only text to show ("sort these by date: …", "convert 72F to celsius").
ORGANIZING_VERBS = _words("sort organize organise arrange rearrange reorganize reorganise tidy clean declutter "
                          "format reformat convert")
FILE_NOUNS = _words("""
    file files folder folders directory directories dir dirs photos photo pictures pics images screenshots videos
    music emails email mails mail inbox downloads documents docs notes note repo repository workspace desktop
    drive disk calendar contacts bookmarks tabs tasks todo todos journal project projects code codebase
    spreadsheet sheet database db backups archive attachments receipts invoices newsletters messages
""")
# What "fix / edit / change …" can mean in the text of the message itself ("fix the grammar in this sentence").
TEXT_NOUNS = _words("grammar spelling tone wording phrasing style punctuation sentence sentences paragraph "
                    "paragraphs text passage phrase phrases word words list email message numbers intro")
EDITING_VERBS = _words("fix correct edit modify change rewrite update replace remove delete shorten add clean "
                       "improve")
PRINTED = _words("pass passes ticket tickets copy copies label labels photo photos contract form forms invoice "
                 "invoices receipt receipts document documents pdf pdfs letter letters page pages boarding")
# "open / close / start / stop / run" write only with these objects ("open an issue", "run the backup").
OPENED = _words("ticket tickets issue issues pr prs pull account case bug branch incident request poll")
RUN_READS = _words("check checks scan scans search searches report reports query queries test tests analysis "
                   "diagnostic diagnostics benchmark benchmarks numbers calculation comparison look")
# Verbs that ask only to look, find, tell or compose: known words, never typo'd write verbs.
READ_VERBS = _words("""
    check see look find search list show read review monitor watch track summarize summarise count verify
    inspect analyze analyse compare explain investigate examine study scan browse skim explore research estimate
    calculate compute figure work give get fetch retrieve grab pull recommend suggest describe translate draft
    compose prepare proofread outline rephrase paraphrase brainstorm help walk follow observe audit confirm test
    try dig go highlight point identify detect spot collect gather compile generate produce build evaluate assess
    rate rank discuss think consider decide choose pick wonder understand learn know tell let keep remind
    measure query lookup doublecheck double-check recheck look up remember make create write teach quiz define
    guess predict forecast cover note notice catch tally sum total average judge weigh keep call
""")
SUBJECTS = _words("i we you they he she it one i'm i've i'd i'll we're we've we'll you're you've they're "
                  "there there's that that's this it's he's she's someone somebody anyone nobody everyone")
MODALS = _words("should could would might may must can shall will ought need needs have has had cannot "
                "can't won't wouldn't shouldn't couldn't")
AUXILIARIES = _words("is are was were am be been being do does did has have had will would shall should can "
                     "could may might must isn't aren't wasn't weren't don't doesn't didn't hasn't haven't "
                     "hadn't won't wouldn't shouldn't can't cannot couldn't")
DETERMINERS = _words("""
    the a an this that these those my our your his her their its all every each any some both another other
    more most several few many none no today's yesterday's tomorrow's last next first old new older newer
    oldest newest latest current empty unused duplicate duplicated unread temporary tmp extra remaining rest
    whole entire same such much half two three four five six seven eight nine ten dozen
""")
OBJECT_PRONOUNS = _words("it them him her me us everything anything something everyone everybody one ones "
                         "myself ourselves yourself itself themselves those these this that")
PARTICLES = _words("up down out off on in away back over through aside into onto")
SELF = _words("me us myself ourselves")
# Words that make the word before them a noun, whatever it is: "delete button", "archive status", "order of …".
NOUN_NEXT_ALWAYS = _words("""
    of status button buttons queue history progress mode menu bar box field screen form dialog panel view icon tab
    option options setting settings is are was were has had mortem key vs versus later feature features
""")
# … and, after a verb that is as often a noun, these too: "backup folder", "file sizes", "update notifications".
NOUN_NEXT = NOUN_NEXT_ALWAYS | _words("""
    folder folders log logs list lists job jobs date dates time times size sizes count counts number numbers address
    addresses account accounts inbox thread threads notification notifications price prices link links page pages
    server service script schedule plan policy process rules rule tool tools app feature path paths name names
    type types format limit limits quota summary details error errors request requests permission permissions
    keys report reports rate id ids level levels problem problems failure failures issue issues
""")
# The particles a verb that is as often a noun takes ("clean up", "sign up"; not "drop in sales", "pin down").
PARTICLES_BY_VERB = {
    "clean": _words("up out"), "clear": _words("out away"), "sign": _words("up"), "fill": _words("in out"),
    "set": _words("up"), "sort": _words("out"), "empty": _words("out"), "print": _words("out"),
    "close": _words("out down"), "tidy": _words("up"), "back": _words("up"), "sync": _words("up"),
    "copy": _words("over across"), "store": _words("away"), "file": _words("away"), "bin": _words("off"),
    "comment": _words("on"),
}
NOUN_NEXT_BY_VERB = {
    "update": _words("on for from about"), "backup": _words("on from"), "fix": _words("for"),
    "order": _words("for from"), "post": _words("from by about"), "reply": _words("from by"),
    "answer": _words("from by"), "change": _words("in from"), "record": _words("for"), "share": _words("price"),
    "plan": _words("for"), "log": _words("in into on"), "sign": _words("in"), "copy": _words("of"),
    "book": _words("club about on"), "print": _words("preview"), "file": _words("from"),
}
QUESTION_LEADS = _words("""
    what what's whats which where where's wheres who who's whos whose whom why why's how how's hows whether
    is isn't are aren't was wasn't were weren't am do does did don't doesn't didn't has hasn't have haven't
    had hadn't will won't would wouldn't shall should shouldn't can can't could couldn't may might must any
    anything anyone anybody
""")
NEGATIONS = _words("don't dont never not no nothing nobody")
# Words the start of a clause drops before its verb.
FILLERS = _words("""
    and or but so then plus also now next first firstly second secondly third finally lastly afterwards after
    hi hey hello ok okay alright right well yes yeah yep yup sure great thanks thank cool oh perfect good fine
    nice awesome please pls plz pleas kindly just simply quickly maybe perhaps actually again only still
    immediately definitely automatically always instead otherwise meanwhile additionally lastly anyway anyways
    dear hmm um uh
""")
CONDITIONS = _words("if when whenever once after before unless until till while whereas since")
CONDITION_PHRASES = ("as soon as", "in case", "each time", "every time", "any time", "anytime", "the moment",
                     "as long as", "provided that", "so long as")
# The word before a clause that ends a condition without a comma ("when a new invoice arrives file it").
CONDITION_ENDINGS = _words("""
    arrives arrive arrived comes come came lands landed fails fail failed replies replied reply finishes finished
    ends ended breaks broke changes changed starts started happens happened appears appeared runs ran completes
    completed succeeds succeeded expires expired drops dropped rises rose goes went ready done down up full over
    empty complete available late overdue low high back in out there here now again today tomorrow tonight
    delivered shipped sent received paid ready updated published posted merged
""")
# Leading time phrases ("every morning", "at 6pm every day", "on Fridays", "daily:").
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_TIME = re.compile(
    rf"""^(?:
        (?:every|each)\s+(?:other\s+)?(?:\d+\s+)?(?:day|morning|evening|night|afternoon|hour|minute|week|weekday
            |weekend|month|year|quarter|tick|{_DAY})s?
        |daily|weekly|monthly|hourly|nightly|yearly|annually|tonight|today|tomorrow|later|soon|asap|now|
        |right\s+now|this\s+(?:morning|afternoon|evening|week|weekend|month)
        |(?:in|during)\s+the\s+(?:morning|afternoon|evening|night)|overnight
        |at\s+(?:night|noon|midnight|dawn|\d{{1,2}}(?::\d{{2}})?\s*(?:am|pm|h|o'clock)?)
        |(?:on\s+)?(?:{_DAY}s?|weekdays|weekends)(?:\s+(?:morning|evening|afternoon|night)s?)?
        |once\s+(?:a|an|per|every)\s+\w+|twice\s+(?:a|an|per)\s+\w+|(?:\d+|three|four)\s+times\s+a\s+\w+
        |first\s+thing(?:\s+in\s+the\s+morning)?|from\s+now\s+on|going\s+forward|next\s+\w+
        |in\s+\d+\s+\w+|by\s+(?:{_DAY}|tonight|tomorrow|eod|noon|the\s+end\s+of\s+the\s+\w+)
        |(?:tomorrow|tonight)\s+(?:morning|evening|afternoon)?
    )(?=\s|$)""",
    re.X,
)
# Ways of asking the assistant to do what follows ("can you", "I'd like you to", "go ahead and").
_REQUEST = re.compile(
    r"""^(?:
        (?:can|could|would|will|wud|cud|cn|pls|please)\s+(?:you|u|ya|yu)
            (?:\s+(?:please|kindly|possibly|just|maybe|also|now|quickly))*(?:\s+be\s+(?:able|so\s+kind\s+as)\s+to)?
        |(?:are|r)\s+(?:you|u)\s+able\s+to
        |(?:is\s+there\s+)?any\s+chance\s+(?:you|u)\s+(?:could|can|would)
        |(?:i'?d|i\s+would|i\s+will|i'?ll)\s+(?:really\s+)?appreciate\s+(?:it\s+)?if\s+(?:you|u)\s+(?:could|would|can)
        |(?:it\s+)?(?:would|'d)\s+be\s+(?:great|nice|good|helpful|awesome|lovely|amazing|cool|perfect)\s+if\s+
            (?:you|u)\s+(?:could|would|can)
        |(?:it'?d)\s+be\s+(?:great|nice|good|helpful|awesome|lovely|amazing|cool|perfect)\s+if\s+(?:you|u)\s+
            (?:could|would|can)
        |if\s+(?:you|u)\s+(?:could|would|can)(?:\s+please)?
        |i\s+(?:was\s+)?wonder(?:ing)?\s+if\s+(?:you|u)\s+(?:could|would|can)
        |(?:i|we)\s+(?:want|need|would\s+like|'d\s+like)\s+(?:you|u)\s+to
        |(?:i'?d|id|we'?d)\s+(?:like|love)\s+(?:for\s+)?(?:you|u)\s+to
        |(?:i'?d|i\s+would)\s+love\s+it\s+if\s+(?:you|u)\s+(?:could|would)
        |go\s+ahead\s+and|feel\s+free\s+to|you\s+(?:can|may)\s+go\s+ahead\s+and
        |make\s+sure\s+(?:to|you|that)?|be\s+sure\s+to|(?:don'?t|do\s+not)\s+forget\s+to|remember\s+to
        |try\s+to|let'?s|let\s+us|(?:it'?s\s+)?time\s+to
        |(?:would|do)\s+(?:you|u)\s+mind|mind
    )(?=\s|$)""",
    re.X,
)
_GERUND_AFTER = re.compile(r"(?:mind|start|stop|keep|continue|begin|quit)$")
_PATH = re.compile(r"(?:^|[\w~.-])/|\.\w{1,5}$|^~")
_POSSESSIVE = re.compile(r"\w'?s$")
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+|;\s*|(?<=[.!?])$")
_BULLET = re.compile(r"^\s*(?:[-*•‣>]+|\(?\d{1,3}[.)]|\(?[a-z][.)](?=\s))\s*")
_QUOTES = re.compile(r"\"[^\"\n]*\"|`[^`\n]*`|(?:(?<=^)|(?<=[\s(\[:,]))'[^'\n]+'(?=$|[\s.,;:!?)\]])")
_EDGE_PUNCTUATION = "()[]{}!?\"'.…*_"
_CLAUSE_WORDS = _words("and or but so then plus")
_ALIASES = {"fwd": "forward", "del": "delete", "msg": "message", "pls": "please", "e-mail": "email"}
_KNOWN = _words("forget") | STRONG_VERBS | AMBIGUOUS_VERBS | COMMUNICATION_VERBS | COMPOSING_VERBS | READ_VERBS


# --- reading ---------------------------------------------------------------------------------------------


def read_request(text: str) -> Reading:
    """Whether ``text`` (a task title or a chat message) asks for a change, and which instruction does.

    Returns:
        A :class:`Reading`; ``write`` only when an instruction of the text's own asks for a change.
    """
    return read_uncut(text[:4000])


@functools.lru_cache(maxsize=4096)
def read_uncut(text: str) -> Reading:
    """:func:`read_request` without the cut to 4,000 characters (cached; ``read_uncut.__wrapped__`` uncached)."""
    words = _WORD.findall(text.lower())
    if _TRIGGERS.isdisjoint(words) and not any(word.endswith("ing") for word in words):
        return _READ   # no word that could ask for a change ("mind moving …" can): most titles end here
    for sentence, question in _sentences(text):
        if question and not _POLITE.search(" ".join(sentence)):
            continue   # "Delete vs archive: which is better?", "Archive?": asked, not told ("Can you …?" is told)
        reading = _read_sentence(sentence)
        if reading.is_write:
            return reading
    return _READ


def _sentences(text: str) -> list[tuple[list[str], bool]]:
    """The sentences (and list items) of ``text`` as lowercase tokens, each with whether it ends with "?"."""
    clean = unicodedata.normalize("NFKC", text)
    clean = clean.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    clean = _QUOTES.sub(f" {QUOTED} ", clean)
    sentences: list[tuple[list[str], bool]] = []
    for part in _SENTENCES.split(clean):
        part = _BULLET.sub("", part).strip().lower()
        if not part:
            continue
        question = part.endswith("?")
        part = re.sub(r"\s*([,:])(?=\s|$)", r" \1 ", part)
        part = re.sub(r"\s+&\s+", " and ", part)
        tokens = [token.strip(_EDGE_PUNCTUATION) if token != QUOTED else token for token in part.split()]
        tokens = [token for token in tokens if token]
        if tokens:
            sentences.append((tokens, question))
    return sentences


@dataclass
class _Clause:
    tokens: list[str]
    strong: bool       # begins the sentence or follows a comma, colon, "then", ", and" …
    last: bool = False


def _clauses(tokens: Sequence[str]) -> list[_Clause]:
    clauses: list[_Clause] = []
    current: list[str] = []
    strong = True
    for index, token in enumerate(tokens):
        if token == ":" and current in (["remember"], ["note", "to", "self"]):
            current.append(token)   # "Remember: Bob is allergic to nuts" keeps its verb
            continue
        if token in (",", ":"):
            if current:
                clauses.append(_Clause(current, strong))
            current, strong = [], True
            continue
        if token in _CLAUSE_WORDS and current:
            clauses.append(_Clause(current, strong))
            # "and" alone joins nouns as often as clauses ("the sent and deleted mails"); "then" and "so" do not
            current, strong = [token], token in ("then", "so", "but")
            continue
        if token in _CLAUSE_WORDS and index and tokens[index - 1] in (",", ":"):
            strong = True
        current.append(token)
    if current:
        clauses.append(_Clause(current, strong))
    if clauses:
        clauses[-1].last = True
    return clauses


_POLITE = re.compile(r"\b(?:(?:can|could|would|will|wud|cud)\s+(?:you|u)|any\s+chance|mind|please|pls|plz|kindly"
                     r"|(?:i'?d|i\s+would)\s+like\s+you\s+to|i\s+want\s+you\s+to|go\s+ahead\s+and)\b")
"""A question sentence with one of these asks for something ("Can you archive them?", "Delete it, please?")."""
_REPORTED = _words("wrote writes said says asked asks replied replies texted messaged emailed posted mentioned "
                   "commented")
_HYPOTHETICAL = ("if you were", "if i were", "what if", "suppose", "supposing", "imagine", "hypothetically",
                 "pretend", "in theory", "let's say", "say i")


def _read_sentence(tokens: list[str]) -> Reading:
    text = " ".join(tokens)
    if text.startswith(_HYPOTHETICAL):
        return _READ
    for index in range(len(tokens) - 1):
        if tokens[index] in _REPORTED and tokens[index + 1] == ":":
            tokens = tokens[:index]   # "Bob wrote: please send …" quotes Bob; the rest of the sentence is his
            break
    clauses = _clauses(tokens)
    governed = False   # a clause before said "I should …": what "and" joins to it is under that modal
    coordinated = False  # the clause before was a bare verb ("find and delete the duplicates")
    for clause in clauses:
        words = _strip_frames(clause.tokens)
        if words is None:
            coordinated = False
            continue
        if not clause.strong and not coordinated and governed:
            continue
        reading = _instruction(words, strong=clause.strong or coordinated, last=clause.last)
        if reading.is_write:
            return reading
        coordinated = len(words) == 1 and words[0] in _KNOWN
        governed = governed or _has_subject_modal(clause.tokens)
    return _READ


def _has_subject_modal(tokens: Sequence[str]) -> bool:
    return any(a in SUBJECTS and b in MODALS or a in ("what", "which", "whether", "how") and b == "to"
               for a, b in zip(tokens, tokens[1:], strict=False))


def _strip_frames(tokens: Sequence[str]) -> list[str] | None:
    """The clause from its verb on, or None when it is not an instruction (a question, a "don't", a condition
    with no instruction in it)."""
    words = list(tokens)
    while words:
        before = len(words)
        while words and words[0] in FILLERS:
            if words[0] == "thank" and len(words) > 1 and words[1] == "you":
                words = words[1:]
            words = words[1:]
        text = " ".join(words)
        match = _TIME.match(text) or _REQUEST.match(text)
        if match and match.end() > 0:
            consumed = len(text[:match.end()].split())
            gerund = bool(_GERUND_AFTER.search(text[:match.end()]))
            words = words[consumed:]
            if gerund and words:
                words[0] = _ungerund(words[0])
        if len(words) == before:
            break
    if not words:
        return None
    first = words[0]
    if first in NEGATIONS or (first == "do" and len(words) > 1 and words[1] == "not"):
        return None
    text = " ".join(words)
    if first in CONDITIONS and not _is_question_when(words) or text.startswith(CONDITION_PHRASES):
        return _after_condition(words)
    if first in QUESTION_LEADS:
        return None
    return words


def _is_question_when(words: Sequence[str]) -> bool:
    return words[0] == "when" and len(words) > 1 and words[1] in AUXILIARIES


def _after_condition(words: Sequence[str]) -> list[str] | None:
    """The instruction inside a condition clause written without a comma ("if it fails restart it"), if any
    ("then" and commas already began a clause of their own)."""
    for index in range(2, len(words) - 1):
        word, before, after = words[index], words[index - 1], words[index + 1]
        if before in CONDITION_ENDINGS and (word in STRONG_VERBS or word in AMBIGUOUS_VERBS
                                            or word in COMMUNICATION_VERBS) and _is_object(after):
            return list(words[index:])
    return None


def _ungerund(word: str) -> str:
    if not word.endswith("ing") or len(word) < 5:
        return word
    stem = word[:-3]
    for candidate in (stem, stem + "e", stem[:-1] if len(stem) > 2 and stem[-1] == stem[-2] else stem):
        if candidate in _KNOWN:
            return candidate
    return word


def _is_object(token: str) -> bool:
    return (token in DETERMINERS or token in OBJECT_PRONOUNS or token in PARTICLES or token == QUOTED
            or bool(_PATH.search(token)) or token[:1].isdigit() or bool(_POSSESSIVE.search(token))
            and token.endswith("'s"))


def _instruction(words: list[str], *, strong: bool, last: bool) -> Reading:
    """Whether the clause (frames removed, ``words[0]`` its verb) asks for a change."""
    verb = _ALIASES.get(words[0], words[0])
    words = [verb, *words[1:]]
    rest = words[1:]
    following = rest[0] if rest else ""
    if verb not in _KNOWN and _is_object(following):
        verb = _typo_of(verb) or verb   # "delte the old logs"; never "Archie sent …" or "Pretend you're …"
    vetoes = NOUN_NEXT if verb not in STRONG_VERBS else NOUN_NEXT_ALWAYS
    if following in vetoes or following in NOUN_NEXT_BY_VERB.get(verb, ()):
        return _READ
    phrase = " ".join(words[:2])
    if phrase in ("back up", "get rid", "throw away", "throw out", "clear out", "clean out", "sign up", "set up",
                  "roll back", "shut down", "write down", "jot down", "note down", "wipe out", "fill in",
                  "fill out", "check in", "log out", "cross off", "tick off", "check off", "cross out"):
        if phrase in ("check in", "log out"):
            return _READ
        return _write(words, phrase)
    if verb in COMMUNICATION_VERBS:
        return _communication(words)
    if verb in ("shoot", "drop") and any(word in _words("message email mail line note text dm msg")
                                          for word in rest[1:4]) and following not in DETERMINERS:
        return _write(words, verb)   # "shoot Bob a message", "drop Anna a line"
    if verb == "answer":
        return _write(words, verb) if _head_noun(rest) in _words("email emails mail message messages text texts "
                                                                  "dm dms comment comments review reviews ticket "
                                                                  "tickets call invite invitation") else _READ
    if verb == "correct" and following in SELF:
        return _READ
    if verb == "rewrite" and _PATH.search(following):
        return _write(words, verb)   # "rewrite README.md": the file changes
    if verb == "let":
        # "let me know" tells the person; "let Anna know" tells someone else; "let it run" is no instruction
        if "know" in rest[:4] and rest[:1] not in (["me"], ["us"]):
            return _write(words, "let know")
        return _READ
    if verb in COMPOSING_VERBS:
        return _composing(words)
    if verb in ("open", "close"):
        return _write(words, verb) if (following in DETERMINERS and any(word in OPENED for word in rest[1:4])
                                       or following in OPENED and verb == "close") else _READ
    if verb in ("run", "start", "stop", "pause", "resume", "launch"):
        return _running(words)
    if verb == "forget":   # "forget what I told you about Bob" removes a memory; "forget it" is "never mind"
        return _write(words, verb) if following in ("what", "that", "my", "the", "everything", "all", "about") \
            and rest[1:2] != ["it"] else _READ
    if verb == "remember":
        return _write(words, verb) if following in ("that", "my", "our", "this", "these", "the", ":", QUOTED) \
            else _READ
    if verb == "note":
        return _write(words, verb) if following in ("that", "down", "it", "this", "my", "the") else _READ
    if verb == "turn" or verb == "switch":
        return _write(words, verb) if following in ("on", "off", "the", "it", "them", "all") else _READ
    if verb == "give":
        return _write(words, verb) if any(word in ("access", "permission", "permissions", "rights")
                                          for word in rest[:4]) else _READ
    if verb == "add" and following in ("up", "together"):
        return _READ
    if verb == "print":   # "print the boarding pass" uses a printer; "print the list of tasks" shows it
        return _write(words, verb) if _head_noun(rest[1:] if following in PARTICLES else rest) in PRINTED \
            else _READ
    if verb in ("share", "copy", "post", "paste", "send", "forward") and "here" in rest:
        return _READ   # "post the link here", "copy the text of notes.md here": into this conversation
    if verb == "share" and {"me", "us"} & set(rest) and "with" in rest:
        return _READ   # "share the latest numbers with me"
    if verb == "sign":
        return _write(words, verb) if following in ("up", "me", "the", "it", "this", "off") else _READ
    if verb == "fill":
        return _write(words, verb) if following in ("in", "out", "the", "it", "this") else _READ
    if verb in EDITING_VERBS and not any(_PATH.search(word) for word in rest) and _about_text(rest):
        return _READ   # "fix the grammar in this sentence", "remove the duplicates from this list: …"
    if verb in ORGANIZING_VERBS:
        if verb in AMBIGUOUS_VERBS and not (_is_object(following) or following in PARTICLES_BY_VERB.get(verb, ())):
            return _READ   # "clean code reviews pending", "sort order of the files?"
        return _write(words, verb) if _about_files(rest[1:] if following in PARTICLES else rest) else _READ
    if verb == "add" and following[:1].isdigit() and not _about_files(rest):
        return _READ   # "add 15% tip to 84 dollars" is sums
    if following in SELF and verb not in STRONG_VERBS and not (len(rest) > 1 and _is_object(rest[1])
                                                                and rest[1] not in PARTICLES):
        return _READ   # "set me straight"; "book me a table" goes on
    if verb == "share" and following in ("your", "thoughts", "ideas", "opinion", "opinions", "views", "feedback"):
        return _READ
    if verb in STRONG_VERBS:
        if strong and (rest or last) or _is_object(following):
            return _write(words, verb)
        return _READ
    if verb in AMBIGUOUS_VERBS:
        if following in PARTICLES:
            return _write(words, verb) if following in PARTICLES_BY_VERB.get(verb, ()) else _READ
        if _is_object(following) or verb == "reply" and following in ("to", "yes", "no", "all", "with", "that",
                                                                       "saying") \
                or verb == "post" and following == "to" or verb == "comment" and following == "on":
            return _write(words, verb)
        return _READ
    if verb == "comment" and following == "on":
        return _write(words, verb)
    return _READ


def _about_files(rest: Sequence[str]) -> bool:
    """Whether what follows the verb names files, folders or stored things (or a path), not text to show."""
    return (any(_PATH.search(word) for word in rest) or _has_destination(rest, loose=True)
            or any(word in FILE_NOUNS for word in _object_words(rest)))


def _object_words(rest: Sequence[str]) -> list[str]:
    """The words of the verb's object: up to the first preposition ("the temp folder", "my thoughts")."""
    words: list[str] = []
    for word in rest[:6]:
        if word in _words("on about for of by with from to into in as at under than that which"):
            break
        words.append(word)
    return words


def _about_text(rest: Sequence[str]) -> bool:
    """Whether the object is text in the message itself: "this sentence", "the tone", "these words"."""
    if _head_noun(rest) in TEXT_NOUNS - _words("list email message intro"):
        return True
    return any(word in ("this", "these", "following", "below", "above") and index + 1 < len(rest)
               and rest[index + 1] in TEXT_NOUNS for index, word in enumerate(rest))


def _write(words: Sequence[str], verb: str) -> Reading:
    return Reading(WRITE, " ".join(words), verb)


def _recipients(rest: Sequence[str]) -> tuple[bool, bool]:
    """(someone other than the person is addressed, the person is addressed) in what follows a telling verb."""
    others = self_ = False
    head = rest[0] if rest else ""
    if head in SELF or "here" in rest:   # "send it here": into this conversation
        self_ = True
    elif head in ("everyone", "everybody", "him", "her", "them"):
        others = True
    elif head and head not in DETERMINERS and head not in PARTICLES \
            and head not in OBJECT_PRONOUNS - _words("him her them") \
            and head not in ("to", "about", "that", "whether", "if", "when", "what", "which", "how", "why", "who",
                             "where", "for", "on", "with", QUOTED) and not _PATH.search(head):
        others = True   # "tell Anna", "email bob about …", "send her a reminder"
    elif head in ("the", "our", "my", "all") and len(rest) > 1 and rest[1] in _words(
            "team teams client clients customer customers group everyone landlord boss manager family channel "
            "list people staff vendor vendors supplier suppliers accountant accounting"):
        others = True   # "notify the team", "tell my boss"
    for index, word in enumerate(rest):
        if word == "to" and index + 1 < len(rest):
            target = rest[index + 1]
            if target in SELF:
                self_ = True
            elif target not in ("be", "do", "say", "see", "know", "the", "a", "an") or target == "the" and (
                    index + 2 < len(rest) and rest[index + 2] not in ("top", "end", "bottom")):
                others = others or not _is_verb_after_to(target)
    return others, self_


def _is_verb_after_to(word: str) -> bool:
    return word in _KNOWN or word in ("call", "say", "ask", "pick", "do", "be", "go", "buy", "free")


def _communication(words: list[str]) -> Reading:
    verb, rest = words[0], words[1:]
    following = rest[0] if rest else ""
    if verb in ("tell", "remind", "ask", "notify", "alert", "inform", "warn", "ping", "flag", "report") and (
            following in SELF or following in ("whether", "if", "what", "which", "how", "why", "when", "who",
                                               "about", "on", "me")):
        return _READ
    if verb == "report":
        # "report the bug to the vendor" tells someone; "report daily on the tickets" tells the person
        others, _ = _recipients(["", *rest[1:]] if rest else rest)
        return _write(words, verb) if others and "to" in rest else _READ
    if verb == "flag":
        # "flag the suspicious emails" marks them; "flag anything risky" points it out to the person
        if _recipients(rest)[1] or not any(word in _words("email emails mail mails message messages thread "
                                                           "threads ticket tickets issue issues pr prs post posts "
                                                           "comment comments") for word in _object_words(rest)):
            return _READ
        return _write(words, verb) if _is_object(following) else _READ
    if verb in ("email", "e-mail", "mail", "text", "message", "dm", "ping") and (
            not following or following in ("from", "of", "about", "for", "to") and verb != "email"
            or following in ("from", "of", "for")):
        return _READ
    others, self_ = _recipients(rest)
    if self_ and not others:
        return _READ
    if verb in ("tell", "ask", "remind", "notify", "alert", "inform", "warn", "ping") and not others:
        return _READ   # "ping the server" checks it; "ping Anna" tells her
    if verb in ("send", "forward") and following in ("over", "along", "across") and not others:
        return _READ   # "send over the numbers": to the person
    return _write(words, verb)


def _composing(words: list[str]) -> Reading:
    """write / create / make / keep / draft …: a change when the text goes somewhere (a file, a person) or the
    thing made is stored ("make a note", "create a folder"); text only to show stays a read."""
    verb, rest = words[0], words[1:]
    following = rest[0] if rest else ""
    if verb == "make" and following in ("sure", "certain"):
        return _READ
    if verb == "keep" and following in ("an", "track", "me", "us", "tabs", "up", "going", "on", "watch",
                                        "watching", "checking", "looking", "monitoring", "in"):
        return _READ
    if _has_destination(rest, loose=verb in ("write", "create", "make", "keep")):
        return _write(words, verb)
    if verb == "write":
        if "down" in rest[:3]:
            return _write(words, verb)   # "write this down: …"
        if following in ("down", "back", "to"):   # "write up what you found" composes: read
            return _write(words, verb)
        return _READ   # "write an email to my landlord" drafts it; "write to Anna" (above) is sending
    if verb in ("create", "make", "keep"):
        noun = _head_noun(rest)
        if verb == "keep":
            return _write(words, verb) if noun in KEPT_RECORDS - _words("copy") and noun not in ("list",) \
                else _READ
        if noun in COMPOSED_NOUNS or noun == "":
            return _READ
        if verb == "make" and noun not in KEPT_RECORDS and noun not in _words("folder directory file event "
                                                                              "account page"):
            return _READ
        return _write(words, verb)
    return _READ


def _head_noun(rest: Sequence[str]) -> str:
    """The first word after the determiners and adjectives we know ("a new page" → "page")."""
    for word in rest[:5]:
        if word in DETERMINERS or word in ("short", "quick", "brief", "small", "big", "long", "new", "weekly",
                                           "daily", "monthly", "proper", "simple", "little", "polite", "formal",
                                           "separate", "full", "final", "rough", "nice", "good", "detailed"):
            continue
        return word
    return ""


_DESTINATION_WORDS = _words("into to in as under onto")
_POSITIONS = _words("end bottom top start beginning foot head")
_OBJECT_BREAKS = _words("on about for of by with from in at than that which what whether if when how why")
_PLACE_NOUNS = _words("file folder notes note document doc spreadsheet journal log page memory calendar todo "
                      "wiki sheet directory")


def _has_destination(rest: Sequence[str], *, loose: bool) -> bool:
    """Whether the text is to be put somewhere: "to notes/summary.md", "in a new file", "into my journal".

    ``loose``: "in" and the names of places count too (for write / create / make / keep, which put things
    somewhere; "summarise what changed in my notes" names where to look, not where to write).
    """
    if loose and _placed_in_file(rest):
        return True
    for index, word in enumerate(rest):
        if word not in _DESTINATION_WORDS or index + 1 >= len(rest):
            continue
        if not loose and word not in ("into", "to", "as"):
            continue
        if index and rest[index - 1] in ("what's", "whats", "is", "was", "are", "were", "of", "from", "things"):
            continue
        target = rest[index + 1]
        if target in ("a", "an", "the", "my", "our", "new", "this", "that") and index + 2 < len(rest):
            target = rest[index + 2]
            if target == "new" and index + 3 < len(rest):
                target = rest[index + 3]
        if _PATH.search(target) or target in _PLACE_NOUNS and (loose or word == "into"):
            return True
    return False


def _placed_in_file(rest: Sequence[str]) -> bool:
    """Whether the verb's own object is put at a place in a file: "these lines at the end of log.md", "the
    date to the top of journal.md".

    Only right after the object: "a summary of the section at the end of report.md" and "a poem about the end
    of summer" name what to write about, not where.
    """
    for index, word in enumerate(rest):
        if word in ("at", "to") and rest[index + 1:index + 2] == ["the"] and index + 4 < len(rest) \
                and rest[index + 2] in _POSITIONS and rest[index + 3] == "of":
            target = rest[index + 4]
            if target in ("a", "an", "the", "my", "our", "this", "that") and index + 5 < len(rest):
                target = rest[index + 5]
            return bool(_PATH.search(target)) or target in _PLACE_NOUNS
        if word in _OBJECT_BREAKS or word in (",", ":"):
            return False
    return False


def _running(words: list[str]) -> Reading:
    verb, rest = words[0], words[1:]
    following = rest[0] if rest else ""
    if verb in ("stop", "pause", "resume"):
        if following.endswith("ing"):
            return _write(words, verb)   # "stop sending me the digest" changes what happens
        return _write(words, verb) if _is_object(following) else _READ
    if verb == "start" and (following in ("by", "with") or following.endswith("ing")) or following in SELF:
        return _READ
    noun = _head_noun(rest)
    if not rest or noun in RUN_READS or not (_is_object(following) or following in ("backup", "backups")):
        return _READ
    return _write(words, verb)


def _typo_of(word: str) -> str | None:
    """The change verb ``word`` is a typo of ("delte", "archvie"), when it is no word we know."""
    if len(word) < 4 or _is_inflection(word):
        return None
    return _TYPOS.get(word)


def _is_inflection(word: str) -> bool:
    for suffix in ("ing", "ed", "es", "s", "d", "er", "ers"):
        if word.endswith(suffix) and (word[:-len(suffix)] in _KNOWN or word[:-len(suffix)] + "e" in _KNOWN):
            return True
    return False


def _typos(verb: str) -> set[str]:
    """Two neighbouring letters swapped ("archvie") or one left out ("delte"). Not one letter changed or added:
    those make other words too often ("pretend" / "prepend", "movie" / "move", "spend" / "send")."""
    swapped = {verb[:i] + verb[i + 1] + verb[i] + verb[i + 2:] for i in range(len(verb) - 1)}
    dropped = {verb[:i] + verb[i + 1:] for i in range(len(verb))}
    return (swapped | dropped) - {verb}


def _typo_table() -> dict[str, str]:
    """Each typo of a change verb, unless it is a known word or a typo of another known verb too."""
    table: dict[str, str] = {}
    taken: set[str] = set(_KNOWN)
    for verb in sorted(_KNOWN):
        for typo in _typos(verb):
            if typo in taken or not typo.isalpha():
                table.pop(typo, None)
                taken.add(typo)
            elif verb in STRONG_VERBS and len(typo) >= 4:
                table[typo] = verb
                taken.add(typo)
            else:
                taken.add(typo)
    return table


_TYPOS = _typo_table()
_WORD = re.compile(r"[a-z][a-z'-]*")
# Every word that can be the verb of a change, as written (aliases and typos too): a text without one is read.
_TRIGGERS = (STRONG_VERBS | AMBIGUOUS_VERBS | COMMUNICATION_VERBS | COMPOSING_VERBS | ORGANIZING_VERBS
             | frozenset(_ALIASES) | frozenset(_TYPOS)
             | _words("let shoot drop answer correct rewrite open close run start stop pause resume launch forget "
                      "remember note turn switch give add sign fill share comment back get throw clear clean wipe "
                      "roll shut write jot cross tick check"))
