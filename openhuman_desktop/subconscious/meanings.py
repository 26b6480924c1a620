"""What an everyday condition means when a change says it in other words.

"Tell me when my copy can be picked up" is met by "on the hold shelf, collect by Friday"; "if the bill becomes
overdue" by "7 days past the due date"; "when the visa is approved" by "your application has been granted". A
small model does not make these links reliably, so the app makes the common ones itself: each entry of
:data:`MEANINGS` is the words a condition may use for what must happen (its predicate, stemmed as
:func:`~.task_rules.stem` does) and the phrases a change may use instead.

The entries are general English about the state of things (delivered, ready, approved, cancelled, failed,
overdue, on sale, replied, finished, paid, down, broken, full, …), not the words of any one task. A phrase
counts only where it is newly said and not negated or hedged (:func:`~.evidence.evidence` checks that).
"""

from __future__ import annotations

import re

from openhuman_desktop.subconscious.task_rules import stem

_ENTRIES = (
    ("deliver delivered delivery", r"\bdelivered\b|handed (?:over|to you)|signed for|dropped off at"
     r"|left (?:at|with|in|by) (?:the |your )?(?:door|front door|neighbou?r|porch|reception|mailbox|letterbox"
     r"|parcel locker)|in your (?:mailbox|letterbox|parcel locker)"),
    ("arrive arrives arrived arrival receive received come comes here",
     r"\barrived\b|\breceived\b|has come in|came in\b|\bis here\b|\bare here\b|\blanded\b|showed up|turned up"
     r"|\bdelivered\b"),
    ("pick picked pickup collect collected collection ready",
     r"ready (?:for|to) (?:collection|pick ?up|be collected|be picked up)|(?:awaiting|available for) "
     r"(?:collection|pick ?up)|hold shelf|\bcollect (?:it |them )?(?:by|from|at|before|until)"
     r"|can (?:now )?be (?:collected|picked up)|\bready\b|\bcollect (?:it|them)\b"
     r"|\bcan (?:now )?(?:collect|pick up)\b|waiting for (?:you|collection|pick-?up)\b"),
    ("approve approved approval accept accepted grant granted",
     r"\bapproved\b|\bgranted\b|\baccepted\b|signed off|\bauthori[sz]ed\b|green light|go-ahead"),
    ("reject rejected decline declined deny denied refuse refused",
     r"\brejected\b|\bdeclined\b|\bdenied\b|\brefused\b|turned down|\bunsuccessful\b|not (?:been )?approved"
     r"|(?:cannot|can't|can not|do not|don't) accept|(?:unable|not able) to (?:agree|accept|approve|grant|allow)"),
    ("comeback",
     r"\breturn(?:ed)?\b|\brefund(?:ed)?\b|\brepaid\b|\bpaid back\b|\bcame back\b|\bgave (?:it |us |me )?back\b"
     r"|(?:^|\|)\s*back\b|\b(?:is|are|now) back\b"
     r"|\b(?:sent|transferred|paid)\s+(?:me|us)\s+(?:back\s+)?(?:[£$€]|\d)|\bsent (?:me |us )?the (?:\w+ )?money\b"),
    ("offwaitlist",
     r"\b(?:moved|taken|come) (?:off|from) the wait(?:ing)?[ -]?list\b|\byou'?re in\b|\byou are in\b"
     r"|\ba (?:space|place|spot) (?:has )?(?:opened|come) up\b|\b(?:got|have) (?:a|my|our) (?:place|space|spot)\b"),
    ("outofservice",
     r"\bout of (?:service|order|action|use)\b|\bnot working\b|\bbroken down\b|\bclosed for repairs?\b"
     r"|\bisn't working\b|\bstopped working\b"),
    ("cancel cancelled canceled cancellation",
     r"\bcancell?ed\b|called off|\bscrapped\b|(?:won't|will not) (?:take place|go ahead)"
     r"|(?:does not|doesn't|will not|won't) run\b|not running\b"
     r"|no longer (?:happening|taking place)|(?:not|n't|no longer) (?:be )?going ahead"
     r"|\b(?:is|are|'s)\s+(?:now\s+)?off\b(?!\s+(?:to|sick|ill|work|school|duty|for|on|until|till|the|a|an)\b)"
     r"|\bno (?:practice|rehearsal|session|class|classes|lesson|meeting|service|match|game|training|ringing|show"
     r"|club|school|surgery|clinic|market|walk|ride|run|swim|choir|quiz)\b"),
    ("fail fails failed failure break breaks broken crash crashes error errors wrong red",
     r"(?<!\b0 )(?<!no )\bfailed\b(?!\s*[:=]\s*0\b)|(?<!no )\bfailures?\b(?!\s*[:=]\s*0\b)"
     r"|(?<!\b0 )(?<!no )\berrors?\b(?!\s*[:=]\s*0\b)|\bunsuccessful\b|\baborted\b"
     r"|\bcrashed\b|(?:did not|didn't) (?:complete|finish|succeed|run)|exit (?:code|status) [1-9]"
     r"|stopped working|not working|could not|couldn't|unable to|(?:did not|didn't) pass|rate limit|\bdied\b"
     r"|\bsnapped\b|\bbroke\b|(?:doesn't|does not|won't|will not) (?:work|switch on|turn on|start)\b"
     r"|no longer works|\bskipped\b|(?:did not|didn't|never) (?:start|started|ran)\b|\btimed out\b"),
    ("decide decides decided decision",
     r"\bapproved\b|\baccepted\b|\brejected\b|\bdeclined\b|\bgranted\b|\brefused\b|\bdecided\b|\bdecision\b"
     r"|turned down|\bupheld\b"),
    ("bounce bounces bounced",
     r"\bbounced\b|returned unpaid|\breturned\b|could not be (?:collected|debited|paid)|\bunpaid\b"
     r"|insufficient funds|\breversed\b|\bcharged ?back\b"),
    ("switch switched cut",
     r"\bswitched off\b|\bturned off\b|\bshut off\b|\bcut (?:off )?(?:the )?(?:power|water|gas|supply|electricity)"
     r"|\binterrupt(?:ed|ion)\b|\boutage\b|\bno (?:water|power|electricity|gas|heating)\b|\bcut off\b"),
    ("overdue late unpaid",
     r"\boverdue\b|past (?:the |its )?due(?: date)?|days late|late (?:payment|fee)|payment (?:not received|missing)"
     r"|final notice|second reminder|\bdunning\b"),
    ("sale available availability open opens release released stock bookable",
     r"on sale|now available|available (?:now|to book|for booking|to order)|booking (?:is |has )?open(?:ed)?"
     r"|bookings? open|(?:tickets|seats) (?:are |have been )?(?:released|available|out)|back in stock|in stock"
     r"|can (?:now )?be (?:booked|ordered|bought)|went on sale|\bnow open\b|\bopened\b"
     r"|\bavailable\b(?! (?:from|in|on|next|soon|for pre-?order))|ships within"),
    ("ship ships shipped dispatch dispatched sent",
     r"\bshipped\b|\bdispatched\b|\bon (?:its|their) way\b|\bin transit\b|\bout for delivery\b"
     r"|(?:left|has left|have left) (?:us|our (?:warehouse|depot|workshop)|the (?:warehouse|depot))\b"
     r"|\bwith (?:the )?(?:courier|carrier)\b|\bhanded (?:over )?to (?:the )?(?:courier|carrier)\b"
     r"|\btracking (?:number|no|code|link)\b"),
    ("reply replies replied answer answers answered respond responds responded response back",
     r"\breplied\b|\banswered\b|\bresponded\b|wrote back|(?:got|came) back to (?:me|us)"
     r"|(?:reply|answer|response) from"),
    ("finish finished complete completed done",
     r"\bfinished\b|\bcompleted\b|\bdone\b|wrapped up|\ball set\b"),
    ("publish published release released post posted live production deploy deployed",
     r"\bpublished\b|\breleased\b|went live|\bis live\b|now live|\bposted\b|now online|\bdeployed\b"
     r"|rolled out|rollout(?: \S+){0,3} complete"),
    ("pay paid payment settle settled",
     r"\bpaid\b|\bsettled\b|payment (?:received|made|cleared)|received (?:the |your )?payment|\btransferred\b"
     r"|came through"),
    ("down offline unreachable outage unavailable",
     r"\bdown\b|\boffline\b|\bunreachable\b|not responding|\boutage\b|timed out|connection refused"
     r"|\b50[234]\b|\bunavailable\b"),
    ("sign signed signature",
     r"\bsigned\b|\bcountersigned\b"),
    ("book booked reserve reserved",
     r"(?<!fully )\bbooked\b|\breserved\b|(?:reservation|booking) (?:is )?confirmed"),
    ("rise rises raise raised increase increases increased expensive dearer pricier",
     r"\bincreased?\b|\braised\b|\brose\b|went up|goes up|going up|up (?:by|from|to) \d|price (?:increase|rise)"
     r"|\brising\b|adjust(?:s|ing|ed)?(?: \w+){0,3} (?:price|fee|tariff)"),
    ("drop drops dropped fall falls decrease decreases decreased reduce reduced cheaper",
     r"\bdropped\b|\bfell\b|\bdecreased\b|went down|goes down|\breduced\b|\bdiscount(?:ed)?\b"
     r"|down (?:by|from|to) \d|price drop"),
    ("move moved moves change changes changed switch switched swap swaps swapped",
     r"\binstead of\b|\bswapped\b|\bmov(?:es|ing) (?:to|from)\b|\bbrought forward\b"
     r"|\bfrom now on\b|\bfrom next (?:week|month|term)\b|\brather than\b|\bmoved (?:to|from)\b"
     r"|\bswitch(?:ed|ing)? to\b|\bno longer\b"),
    ("delay delayed postpone postponed reschedule rescheduled",
     r"\bdelayed\b|\bpostponed\b|\brescheduled\b|pushed back|moved to|running late"),
    ("invite invited invitation",
     r"\binvited\b|\binvitation\b|invites? (?:you|me|us)|asked (?:me|us) to (?:come|join)"
     r"|would (?:like|love) to (?:meet|see|invite) (?:you|us)|would (?:like|love) (?:a|to have a) (?:[\w-]+ ){0,2}"
     r"(?:call|chat|meeting|interview) with (?:you|us)|are you (?:available|free) (?:for|on|to)"),
    ("withdraw withdraws withdrew",
     r"(?:can't|cannot|can not|won't|will not) (?:do|make|come|attend|cover|be there)|\bdropped out\b"
     r"|\bpulled out\b|\bbacked out\b|\bcancell?ed\b|\bwithdr[ae]w[ns]?\b|no longer (?:able|coming)"),
    ("reboot reboots rebooted restart restarts restarted",
     r"\breboot(?:ed|ing)?\b|\brestart(?:ed|ing)\b|last boot|\bbooted\b|power[- ]cycled"),
    ("sick ill unwell feel feeling",
     r"\bsick\b|\bill\b|\bunwell\b|\bfever\b|\bflu\b|throwing up|stayed home|\bdizzy\b|\bheadache\b|\bcough"
     r"|\bpoorly\b|under the weather|not (?:feeling|doing) (?:well|great|good)|\bin pain\b"),
    ("leak leaks leaking damage damaged",
     r"\bleak(?:s|ing|ed)?\b|\bdripping\b|\bcracked\b|\bdamaged\b|\bflooded\b|\bbroken\b"),
    ("full", r"\bfull\b|no (?:space|room) left|out of (?:space|storage|disk)"),
    ("expire expires expired expiry",
     r"\bexpired\b|expires (?:today|tomorrow|in \d+ days?)|no longer valid"),
    ("deadline", r"\bdue (?:on|by|date)\b|\bdeadline\b|no later than|must be (?:submitted|handed in|done|sent) by"),
    ("buy buys bought purchase purchased",
     r"\bbought\b|\bpurchased\b|\bsnapped up\b|\b(?:picked up|got)\b(?=[^.!?;]*\bfor\s+(?:[£$€]\s?)?\d)"),
    ("final finalise finalised finalize finalized",
     r"\bfinal(?=\s*(?:[(\-–,.;:!]|$|now\b|version|programme|program|list|running order|draft|copy|text))"
     r"|\bfinali[sz]ed\b|\bno (?:more|further) changes\b"),
    ("confirm confirmed confirmation", r"\bconfirmed\b|\bconfirmation\b|\bsettled\b|\bagreed\b|(?<!fully )\bbooked\b"),
    ("refund refunded reimburse reimbursed", r"\brefund(?:ed)?\b|return credit|\bcredited\b|\breimbursed\b"),
    ("close closed closure shut", r"\bclosed\b|\bshut\b|\bclosure\b"),
    ("pass passed", r"\bpassed\b"),
    ("win won", r"\bwon\b|\bwinner\b|came first"),
    ("ask asks asked request requests requested",
     r"\bplease (?:send|provide|submit|pay|return|upload|share|enter|complete|sign|confirm|let us know|reply)\b"
     r"|\bkindly\b|\brequested\b|\b(?:is|are) required\b|\bwe (?:need|require)\b"),
    ("find finds found locate locates located trace traced recover recovered",
     r"\bfound\b|\blocated\b|\btraced\b|\brecovered\b|tracked down|turned up"),
    ("fix fixes fixed repair repaired resolve resolves resolved solve solved restore restored",
     r"\bfixed\b|\brepaired\b|\bresolved\b|\bsolved\b|\brestored\b|working again|back (?:up|online) again"),
    ("discharge discharged release released", r"\bdischarged\b|\bsent home\b|(?:can|may|will) go home\b"
     r"|\breleased from\b"),
    ("start starts started begin begins began",
     r"\b(?:begins?|starts?|starting|beginning) (?:today|tonight|now|this (?:morning|afternoon|evening))\b"
     r"|\bbegan\b|\bstarted\b|\bha(?:s|ve) begun\b|\bunder ?way\b|\bkicked off\b"),
    ("call calls called", r"\brang\b|\bphoned\b|\bcalled\b(?! off)|\bspoke to\b|\bon the phone (?:to|with)\b"),
    ("pledge pledges pledged promise promises promised donate donates donated",
     r"\bpledged\b|\bpromised\b|\bdonated\b|\bare giving\b|\bis giving\b|\bhave given\b|\bhas given\b"),
    ("spot spots spotted sight sighted", r"\bspotted\b|\bsighted\b|\bsaw\b|\bfound\b|caught sight of"),
    ("renew renews renewed", r"\brenewed\b|\brejoined\b|\bre-joined\b|paid (?:his|her|their) (?:subs|membership)"),
    ("lose loses lost missing", r"\blost\b|\bmissing\b|(?:can't|cannot|can not|couldn't) (?:find|locate)"),
)

MEANINGS: tuple[tuple[frozenset[str], re.Pattern[str]], ...] = tuple(
    (frozenset(stem(word) for word in words.split()), re.compile(pattern, re.I)) for words, pattern in _ENTRIES)
"""Per entry: the stems of a condition's predicate words, and the phrases that say the same in a change."""


_THINGS_TEXT = """
    error errors failure delivery arrival payment deadline production stock sale confirmation invitation expiry
    approval response collection release post damage leak leaks refund
"""
_THINGS = frozenset(stem(word) for word in _THINGS_TEXT.split())
_IN_PHRASES = frozenset(stem(word) for word in ("start", "starts", "begin", "begins", "final"))
"""Words that say that something happens only in their entry's phrases: with when ("starts Thursday" is still to
come), or not before a noun ("Final rehearsal: Thu 10 Dec" is no final programme)."""
PREDICATES: frozenset[str] = frozenset().union(*(stems for stems, _ in MEANINGS)) - _THINGS - _IN_PHRASES
"""The stems :data:`MEANINGS` knows that say what happens to something ("ready", "confirms"), not what it is
("errors", "the delivery"), or only with when it happens ("starts")."""


def meanings_of(predicate: set[str]) -> tuple[re.Pattern[str], ...]:
    """The phrases that say what ``predicate`` (the stems of a condition's predicate words) says."""
    return tuple(pattern for stems, pattern in MEANINGS if stems & predicate)



_SAME_THINGS = (
    "parcel package shipment", "suitcase luggage baggage bag", "car vehicle", "kid kids child children",
    "doctor gp surgery clinic", "flat apartment", "bike bicycle", "laptop computer notebook", "phone mobile smartphone",
    "fridge refrigerator", "tv television", "medicine medication prescription pills", "dentist dental",
    "vet veterinary", "mail email", "invoice bill", "boss manager", "salary payslip wage", "flight plane airline",
    "train railway", "lawyer solicitor attorney", "heating boiler radiator", "nursery daycare kindergarten",
    "holiday vacation", "cv resume", "dog puppy", "cat kitten", "people staff employees headcount",
)


def _table() -> dict[str, frozenset[str]]:
    table: dict[str, frozenset[str]] = {}
    for group in _SAME_THINGS:
        stems = frozenset(stem(word) for word in group.split())
        for word in stems:
            table[word] = table.get(word, frozenset()) | stems
    return table


SAME_THINGS = _table()
"""A thing's stem to the stems of the everyday words for the same thing ("suitcase" and "bag", "flat" and
"apartment"): what a task is about, named in other words by the change."""


def same_things(words: frozenset[str]) -> frozenset[str]:
    """``words`` (stems) with the other everyday words for the same things."""
    return words.union(*(SAME_THINGS.get(word, frozenset()) for word in words))
