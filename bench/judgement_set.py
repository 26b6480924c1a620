"""The labelled situations of ``bench/judgement.py``: what the workspace holds, what changes, what is right.

Each family is one task (as a user would type it) over a small workspace; each of its variants is one
situation: the change between the heartbeat's first look and its second (files written or appended to, new
memories, or nothing), the decision that is right for it, and a one-line why. Some families keep other tasks
due beside theirs (bystanders, whose right answer is ``noop``) or the three system tasks.

What the labels mean (issue 24):

- ``noop``: nothing that changed concerns the task's condition: an unrelated change, nothing at all, or a
  change to what the task watches that does not meet its condition (a parcel "in transit" for "tell me when it
  is delivered", a figure edited from 8 % to 8.4 % for "tell me when the report mentions a deadline").
- ``act``: the condition is met and the action is a small one: tell or remind the user, summarise one item,
  append one line.
- ``escalate``: the condition is met and the action needs reasoning or several steps: draft, plan, prepare,
  review a document, compare, investigate.

Logs live under ``ops/logs/``: the workspace's top-level ``logs/`` is the app's own folder, never reported.
The set is the project's own (no text is taken from anywhere else).
"""

from __future__ import annotations

from dataclasses import dataclass, field

NOOP, ACT, ESCALATE = "noop", "act", "escalate"
SKILLS_TASK = "Check connected skills for errors or disconnections"
MEMORY_TASK = "Review new memory updates for actionable items"
HEALTH_TASK = "Monitor system health (Ollama, memory, connections)"
SYSTEM_TASKS = (SKILLS_TASK, MEMORY_TASK, HEALTH_TASK)


@dataclass(frozen=True)
class Change:
    """What happens between the two looks: whole files written, text appended, memories added."""

    write: dict[str, str] = field(default_factory=dict)
    append: dict[str, str] = field(default_factory=dict)
    memories: tuple[str, ...] = ()

    @property
    def is_empty(self) -> bool:
        return not (self.write or self.append or self.memories)


@dataclass(frozen=True)
class Label:
    """A due task and the decision that is right for it in one situation."""

    task: str
    expected: str
    why: str


@dataclass(frozen=True)
class Situation:
    name: str
    before: dict[str, str]
    before_memories: tuple[str, ...]
    change: Change
    labels: tuple[Label, ...]
    system_tasks: bool = False


@dataclass(frozen=True)
class Variant:
    name: str
    change: Change
    expected: str
    why: str
    before: dict[str, str] | None = None
    """Replaces the family's files before the first look (for a variant whose starting point differs)."""


def family(
    key: str, task: str, before: dict[str, str], variants: list[Variant], *, memories: tuple[str, ...] = (),
    bystanders: tuple[str, ...] = (), system_tasks: bool = False,
    system_labels: dict[str, tuple[str, str]] | None = None,
) -> list[Situation]:
    """One task's situations: one per variant, with the bystanders (``noop``) and system tasks labelled too.

    ``system_labels`` maps a variant name to ``(expected, why)`` for the memory-review system task where a
    variant's new memory concerns it; every other system task answer is ``noop``.
    """
    situations = []
    for variant in variants:
        labels = [Label(task, variant.expected, variant.why)]
        labels += [Label(other, NOOP, "the change has nothing to do with this task") for other in bystanders]
        if system_tasks:
            memory_label = (system_labels or {}).get(variant.name, (NOOP, "no new memory holds anything to act on"))
            labels += [
                Label(SKILLS_TASK, NOOP, "every skill is connected, as before"),
                Label(MEMORY_TASK, *memory_label),
                Label(HEALTH_TASK, NOOP, "the models and the memory are healthy, as before"),
            ]
        situations.append(Situation(f"{key}: {variant.name}", variant.before if variant.before is not None else before,
                                    memories, variant.change, tuple(labels), system_tasks))
    return situations


def mail(sender: str, subject: str, body: str) -> str:
    """A mail as a file in the workspace (``mail/…``): its sender, subject and body."""
    return f"From: {sender}\nSubject: {subject}\n\n{body}\n"


def nothing(why: str = "nothing changed since the last look") -> Variant:
    return Variant("nothing changed", Change(), NOOP, why)


def unrelated(path: str, text: str, why: str = "the change is in a file the task does not watch") -> Variant:
    return Variant(f"unrelated change to {path}", Change(write={path: text}), NOOP, why)


RECIPE = "Pancakes: 200 g flour, 2 eggs, 300 ml milk, a pinch of salt. Rest the batter for 20 minutes.\n"
BOOKS = "Books to read: The Dispossessed, Piranesi, The Overstory.\n"
GARDEN = "Garden plan: tomatoes in the south bed, beans along the fence, herbs by the door.\n"
HOME = {"notes/todo.md": "# To do\n\n- water the plants on Sunday\n- return the library books\n",
        "projects/garden.md": GARDEN}


def _situations() -> list[Situation]:
    s: list[Situation] = []
    tracking = ("Parcel 4471-XK from Nordic Outdoor\n2026-11-29 08:02 Label created\n"
                "2026-11-30 17:40 In transit, sorting centre Hamburg\n")
    s += family("parcel", "Tell me when the parcel in tracking.txt is delivered", {**HOME, "tracking.txt": tracking}, [
        Variant("delivered", Change(append={"tracking.txt": "2026-12-02 10:14 DELIVERED, handed to the neighbour at "
                                                           "number 12\n"}),
                ACT, "the parcel is delivered: the condition is met and the action is telling the user"),
        Variant("out for delivery", Change(append={"tracking.txt": "2026-12-02 07:55 Out for delivery\n"}),
                NOOP, "out for delivery is not delivered yet"),
        Variant("delayed", Change(append={"tracking.txt": "2026-12-02 09:10 Delivery postponed to tomorrow\n"}),
                NOOP, "a postponed delivery is not a delivery"),
        unrelated("notes/recipes.md", RECIPE),
        nothing(),
    ], bystanders=("Tell me when report.md mentions a deadline",))
    report = "# Q4 report\n\nRevenue grew 8 % over the quarter.\nThe team shipped two releases.\n"
    s += family("deadline", "Tell me when report.md mentions a deadline", {**HOME, "report.md": report}, [
        Variant("deadline appended", Change(append={"report.md": "\nDEADLINE: the final draft is due on Thursday, "
                                                                 "5 December.\n"}),
                ACT, "a deadline now appears in report.md: tell the user"),
        Variant("figure edited", Change(write={"report.md": report.replace("8 %", "8.4 %")}),
                NOOP, "a figure changed from 8 % to 8.4 %; no deadline was added"),
        Variant("next steps appended", Change(append={"report.md": "\nNext steps: gather feedback from sales.\n"}),
                NOOP, "the new lines name no deadline"),
        Variant("deadline in another file", Change(write={"notes/taxes.md": "Tax return deadline: 31 July.\n"}),
                NOOP, "the deadline is in notes/taxes.md, not in report.md"),
        nothing(),
    ])
    newsletter = ("From: Deals Weekly <news@dealsweekly.example>\nSubject: This week's deals\n\n"
                  "Up to 30 % off garden furniture.\n")
    s += family("urgent mail", "Check my inbox folder for urgent emails",
                {**HOME, "inbox/2026-11-30-deals.txt": newsletter}, [
        Variant("blocked card", Change(write={"inbox/2026-12-02-nordbank.txt": (
            "From: Nordbank Security <security@nordbank.example>\nSubject: URGENT: your card has been blocked\n\n"
            "We blocked your debit card after three failed PIN entries. Call us today to unblock it.\n")}),
            ACT, "an urgent mail from the bank arrived: tell the user"),
        Variant("newsletter", Change(write={"inbox/2026-12-02-deals.txt": newsletter.replace("30 %", "40 %")}),
                NOOP, "a newsletter is not urgent"),
        Variant("lunch invitation", Change(write={"inbox/2026-12-02-ben.txt": (
            "From: Ben <ben@example.org>\nSubject: Lunch next week?\n\nAre you free on Wednesday or Thursday?\n")}),
            NOOP, "a lunch invitation for next week is not urgent"),
        Variant("server down", Change(write={"inbox/2026-12-02-hosting.txt": (
            "From: Hosting Support <support@hostbox.example>\nSubject: Urgent: your website is offline\n\n"
            "Your site shop.example.com has been unreachable since 06:40. Please act now.\n")}),
            ACT, "an urgent outage mail arrived: tell the user"),
        nothing(),
    ], system_tasks=True, bystanders=("Tell me when the parcel in tracking.txt is delivered",))
    backup = ("2026-11-30 02:00:11 backup finished OK: 3.1 GB, 41,020 files\n"
              "2026-12-01 02:00:09 backup finished OK: 3.1 GB, 41,102 files\n")
    s += family("backup", "Tell me if the nightly backup fails", {**HOME, "ops/logs/backup.log": backup}, [
        Variant("failed", Change(append={"ops/logs/backup.log": "2026-12-02 02:00:13 backup FAILED: no space left on "
                                                            "device (/mnt/backup)\n"}),
                ACT, "the backup failed: tell the user"),
        Variant("finished ok", Change(append={"ops/logs/backup.log": "2026-12-02 02:00:10 backup finished OK: 3.2 GB, "
                                                                 "41,233 files\n"}),
                NOOP, "the backup succeeded; the task only asks about failures"),
        unrelated("notes/books.md", BOOKS),
    ])
    web = "2026-12-01 21:14:02 INFO GET /index.html 200 12 ms\n2026-12-01 21:14:05 INFO GET /shop 200 48 ms\n"
    s += family("web errors", "Alert me when the web server log shows errors", {**HOME, "ops/logs/web.log": web}, [
        Variant("error", Change(append={"ops/logs/web.log": "2026-12-02 08:01:44 ERROR upstream timed out while "
                                                        "connecting to the database (110)\n"}),
                ACT, "an ERROR line appeared in the web server log: alert the user"),
        Variant("info lines", Change(append={"ops/logs/web.log": "2026-12-02 08:01:40 INFO GET /cart 200 31 ms\n"
                                                             "2026-12-02 08:01:41 INFO GET /shop 200 44 ms\n"}),
                NOOP, "only normal requests were logged"),
        Variant("error in another log",
                Change(append={"ops/logs/backup.log": "2026-12-02 02:00:13 ERROR: disk full\n"}),
                NOOP, "the error is in the backup log, not the web server log",
                before={**HOME, "ops/logs/web.log": web, "ops/logs/backup.log": ""}),
        nothing(),
    ])
    s += family("urgent memory", "Remind me of anything urgent I told you", HOME, [
        Variant("bank call", Change(memories=("URGENT: call the bank before 3 pm today, my card was blocked.",)),
                ACT, "the user told the assistant something urgent: remind them"),
        Variant("tea", Change(memories=("I prefer green tea in the afternoon.",)),
                NOOP, "a preference is not urgent"),
        Variant("dentist later", Change(memories=("The dentist appointment is next month; nothing to do yet.",)),
                NOOP, "the memory says there is nothing to do yet"),
        Variant("pharmacy", Change(memories=("Pick up the prescription at the pharmacy today, it closes at 6 pm.",)),
                ACT, "a same-day errand with a closing time: remind the user"),
    ], system_tasks=True, system_labels={
        "bank call": (ACT, "the new memory holds an urgent action"),
        "pharmacy": (ACT, "the new memory holds an errand for today"),
    })
    flights = "Flights I watch\n- Lisbon, 3 March, return 10 March: 340 EUR (checked 1 December)\n"
    s += family("flight price", "Tell me when the flight to Lisbon in flights.md costs less than 300 EUR",
                {**HOME, "flights.md": flights}, [
        Variant("below 300", Change(write={"flights.md": flights.replace("340 EUR (checked 1", "289 EUR (checked 2")}),
                ACT, "the Lisbon flight now costs 289 EUR, below 300"),
        Variant("still above",
                Change(write={"flights.md": flights.replace("340 EUR (checked 1", "320 EUR (checked 2")}),
                NOOP, "320 EUR is still above the 300 EUR the user asked for"),
        Variant("other flight cheap", Change(append={"flights.md": "- Porto, 5 March: 250 EUR (checked 2 December)\n"}),
                NOOP, "the cheap flight goes to Porto, not Lisbon"),
        nothing(),
    ])
    contacts = ("Contacts\nAnna Berg: Lindenstrasse 4, 20095 Hamburg, +49 40 5550 1234\n"
                "Ben Ortiz: Calle Mayor 12, 28013 Madrid, +34 91 555 0199\n")
    s += family("address", "Tell me when Anna's address changes in contacts.md", {**HOME, "contacts.md": contacts}, [
        Variant("anna moved", Change(write={"contacts.md": contacts.replace("Lindenstrasse 4, 20095",
                                                                            "Elbchaussee 77, 22763")}),
                ACT, "Anna's address changed: tell the user"),
        Variant("ben moved", Change(write={"contacts.md": contacts.replace("Calle Mayor 12", "Gran Via 30")}),
                NOOP, "Ben's address changed, not Anna's"),
        Variant("anna's phone", Change(write={"contacts.md": contacts.replace("5550 1234", "5550 9876")}),
                NOOP, "only Anna's phone number changed, not her address"),
        nothing(),
    ])
    old_meeting = "# Team meeting 25 November\n\n- agreed on the Q1 roadmap\n- Sam owns the hiring plan\n"
    s += family("meeting summary", "Summarise each new meeting note in the meetings folder",
                {**HOME, "meetings/2026-11-25.md": old_meeting}, [
        Variant("new note", Change(write={"meetings/2026-12-02.md": (
            "# Team meeting 2 December\n\n- the release moves to Friday because QA found two blockers\n"
            "- Priya takes over the support rota\n- budget for the offsite approved: 4,000 EUR\n")}),
            ACT, "a new meeting note arrived: summarise that one note"),
        Variant("old note typo", Change(write={"meetings/2026-11-25.md": old_meeting.replace("hiring", "hiring ")}),
                NOOP, "an old note was touched; no new meeting note arrived"),
        unrelated("notes/shopping.md", "Shopping: oat milk, apples, coffee beans.\n"),
        Variant("second new note", Change(write={"meetings/2026-12-03-design.md": (
            "# Design review 3 December\n\n- the new checkout flow is accepted with two changes\n"
            "- Lea updates the mock-ups by Monday\n")}),
            ACT, "a new meeting note arrived: summarise it"),
    ])
    journal = "# Journal\n\n1 December: quiet day, worked from home.\n"
    s += family("expenses", "Add every expense I mention in my journal to expenses.csv",
                {**HOME, "notes/journal.md": journal, "expenses.csv": "date,amount,what\n"}, [
        Variant("plumber", Change(append={"notes/journal.md": "2 December: paid 42 EUR to the plumber for the "
                                                              "kitchen sink.\n"}),
                ACT, "the journal mentions a new expense: append one line to expenses.csv"),
        Variant("walk", Change(append={"notes/journal.md": "2 December: went for a long walk by the river.\n"}),
                NOOP, "the new journal line mentions no expense"),
        Variant("groceries", Change(append={"notes/journal.md": "3 December: groceries at the market, 23.50 EUR.\n"}),
                ACT, "the journal mentions a new expense: append it"),
        nothing(),
    ])
    s += family("workouts", "Log each workout I tell you about in workouts.md",
                {**HOME, "workouts.md": "# Workouts\n"}, [
        Variant("run", Change(memories=("I ran 5 km this morning in 27 minutes.",)),
                ACT, "the user told of a workout: append one line to workouts.md"),
        Variant("knee", Change(memories=("My knee feels better today.",)),
                NOOP, "no workout was mentioned"),
        Variant("swim", Change(memories=("Swam 40 lengths at the city pool after work.",)),
                ACT, "the user told of a workout: log it"),
    ])
    s += family("reading list", "When I mention a book I want to read, add it to reading-list.md",
                {**HOME, "reading-list.md": "# Reading list\n- Piranesi\n"}, [
        Variant("book", Change(memories=("I want to read 'The Left Hand of Darkness' next.",)),
                ACT, "the user named a book to read: append it"),
        Variant("crossword", Change(memories=("Finished the Sunday crossword in record time.",)),
                NOOP, "no book was mentioned"),
        nothing(),
    ])
    s += family("landlord", "Draft a reply whenever my landlord writes to me",
                {**HOME, "inbox/2026-11-28-ben.txt": ("From: Ben <ben@example.org>\nSubject: Photos\n\n"
                                                      "Here they are.\n")}, [
        Variant("rent increase", Change(write={"inbox/2026-12-02-keller.txt": (
            "From: Thomas Keller (landlord) <keller@example.net>\nSubject: Rent from January\n\n"
            "Dear tenant, the rent for the flat will rise by 5 % from 1 January. Please confirm by 15 December.\n")}),
            ESCALATE, "the landlord wrote: drafting a reply needs reasoning"),
        Variant("heating repair", Change(write={"inbox/2026-12-03-keller.txt": (
            "From: Thomas Keller (landlord) <keller@example.net>\nSubject: Heating repair\n\n"
            "The technician can come on Tuesday or Wednesday morning. Which day suits you?\n")}),
            ESCALATE, "the landlord wrote: a reply must be drafted"),
        Variant("friend writes", Change(write={"inbox/2026-12-02-ben.txt": (
            "From: Ben <ben@example.org>\nSubject: Board games on Friday?\n\nWe are playing at 8, join us!\n")}),
            NOOP, "the mail is from a friend, not the landlord"),
        nothing(),
    ])
    lease = ("# Lease agreement 2027\n\n1. Rent: 1,150 EUR per month, due on the 3rd.\n2. Term: two years, notice "
             "three months.\n3. Pets: one cat allowed.\n4. Renovation on move-out at the tenant's cost.\n")
    s += family("lease", "Review the new lease when it arrives in documents/",
                {**HOME, "documents/insurance.md": "Household insurance, policy 88-1123, renewed yearly.\n"}, [
        Variant("lease arrives", Change(write={"documents/lease-2027.md": lease}),
                ESCALATE, "the new lease arrived: reviewing its clauses needs reasoning"),
        Variant("receipt", Change(write={"documents/receipt-ikea.md": "Receipt: 1 bookshelf, 79 EUR.\n"}),
                NOOP, "a receipt is not the lease"),
        nothing(),
    ])
    s += family("week plan", "Plan my week when the new shift schedule is posted in schedule/",
                {**HOME, "schedule/week-48.md": "Week 48: Mon-Wed early shift, Thu-Fri late shift.\n"}, [
        Variant("week 49 posted", Change(write={"schedule/week-49.md": (
            "Week 49: Mon late, Tue early, Wed off, Thu early, Fri late, Sat early (covering for Mia).\n")}),
            ESCALATE, "the new schedule is posted: planning the week needs several steps"),
        Variant("old week edited", Change(write={"schedule/week-48.md": "Week 48: Mon-Wed early shift, Thu-Fri late "
                                                                        "shift (done).\n"}),
                NOOP, "last week's schedule was marked done; no new schedule was posted"),
        unrelated("notes/books.md", BOOKS),
        Variant("week 50 posted", Change(write={"schedule/week-50.md": (
            "Week 50: Mon early, Tue early, Wed late, Thu off, Fri late, Sun early.\n")}),
            ESCALATE, "a new schedule is posted: plan the week"),
    ])
    s += family("packing", "Prepare a packing list when I book a trip", HOME, [
        Variant("booked", Change(memories=("Booked flights to Lisbon for 3 to 10 March, staying near the coast.",)),
                ESCALATE, "a trip is booked: preparing a packing list takes planning"),
        Variant("maybe", Change(memories=("Maybe I'll travel somewhere warm in spring.",)),
                NOOP, "nothing is booked yet"),
        Variant("ski trip", Change(memories=("We booked the ski cabin in Tyrol for the first week of February.",)),
                ESCALATE, "a trip is booked: prepare the packing list"),
    ])
    offer_a = "Offer: Allsafe car insurance, full cover, 610 EUR a year, 300 EUR excess.\n"
    offer_b = "Offer: Hanse Direkt car insurance, full cover, 540 EUR a year, 500 EUR excess.\n"
    s += family("insurance", "Compare the two car insurance offers once both have arrived in offers/",
                {**HOME, "offers/allsafe.md": offer_a}, [
        Variant("second arrives", Change(write={"offers/hanse-direkt.md": offer_b}),
                ESCALATE, "both offers are there now: comparing them needs reasoning"),
        Variant("first arrives", Change(write={"offers/allsafe.md": offer_a}), NOOP,
                "only one of the two offers has arrived", before=HOME),
        unrelated("notes/recipes.md", RECIPE),
    ])
    build = "2026-12-01 01:00 build #411 SUCCESSFUL (14 min)\n"
    s += family("build", "Investigate why the nightly build fails, if it does", {**HOME, "ops/logs/build.log": build}, [
        Variant("failed", Change(append={"ops/logs/build.log": "2026-12-02 01:00 build #412 FAILED: "
                                                           "test_refund_partial AssertionError: 19.99 != 20.00\n"}),
                ESCALATE, "the build failed: finding out why needs investigation"),
        Variant("successful",
                Change(append={"ops/logs/build.log": "2026-12-02 01:00 build #412 SUCCESSFUL (13 min)\n"}),
                NOOP, "the build succeeded"),
        nothing(),
    ])
    s += family("birthday", "Write a birthday message for Anna when her birthday comes up", HOME, [
        Variant("this friday", Change(memories=("Anna's birthday is this Friday; she turns 40.",)),
                ESCALATE, "Anna's birthday is near: writing the message is drafting"),
        Variant("moved", Change(memories=("Anna moved to Hamburg last spring.",)),
                NOOP, "nothing about her birthday"),
        Variant("ben birthday", Change(memories=("Ben's birthday is next Tuesday.",)),
                NOOP, "it is Ben's birthday, not Anna's"),
    ])
    requirements = ("# Requirements\n\n1. Export the monthly report as CSV.\n2. Users log in with their company "
                    "account.\n3. Delivery: 31 March.\n")
    s += family("requirements", "Update the project plan when the client changes the requirements in requirements.md",
                {**HOME, "requirements.md": requirements,
                 "plan.md": "# Plan\n\nJan: export. Feb: login. Mar: tests.\n"}, [
        Variant("change request", Change(append={"requirements.md": "4. Change request 2 Dec: the export must also "
                                                                    "support PDF, and delivery moves to 15 March.\n"}),
                ESCALATE, "the client changed the requirements: the plan must be reworked"),
        Variant("typo", Change(write={"requirements.md": requirements.replace("Export the", "Export  the")}),
                NOOP, "only whitespace changed; the requirements are the same"),
        unrelated("notes/shopping.md", "Shopping: rice, lentils, lemons.\n"),
    ])
    s += family("memory review", MEMORY_TASK, HOME, [
        Variant("passport", Change(memories=("My passport expires on 10 January; I need to renew it before the "
                                             "March trip.",)),
                ACT, "the new memory holds an action the user must take"),
        Variant("cat", Change(memories=("The cat likes the blue blanket best.",)),
                NOOP, "the new memory holds nothing to act on"),
        Variant("parking fine", Change(memories=("Got a parking fine of 35 EUR; it must be paid within two weeks.",)),
                ACT, "the new memory holds a payment with a deadline"),
        nothing(),
    ])
    s += family("invoice", "Let me know when the invoice from Acme arrives in invoices/",
                {**HOME, "invoices/globex-2026-10.txt": "Invoice GX-5512 from Globex, October, 120 EUR.\n"}, [
        Variant("acme invoice", Change(write={"invoices/acme-2026-11.txt": "Invoice AC-2291 from Acme Tools, "
                                                                            "November, 860 EUR, due 16 December.\n"}),
                ACT, "the Acme invoice arrived: tell the user"),
        Variant("globex invoice", Change(write={"invoices/globex-2026-11.txt": "Invoice GX-5630 from Globex, "
                                                                               "November, 120 EUR.\n"}),
                NOOP, "the new invoice is from Globex, not Acme"),
        nothing(),
    ])
    s += family("exam results", "Tell me when the exam results are published in school/results.md",
                {**HOME, "school/results.md": "Exam results: not published yet.\n"}, [
        Variant("published", Change(write={"school/results.md": "Exam results (published 2 December): mathematics "
                                                                "1.7, physics 2.0, chemistry 1.3.\n"}),
                ACT, "the results are published: tell the user"),
        Variant("expected next week", Change(write={"school/results.md": "Exam results: not published yet; "
                                                                         "expected next week.\n"}),
                NOOP, "the results are still not published"),
        nothing(),
    ])
    s += family("frost", "Warn me if the forecast in weather.txt mentions frost",
                {**HOME, "weather.txt": "Forecast: Monday 9 °C, cloudy.\n"}, [
        Variant("frost", Change(write={"weather.txt": "Forecast: Tuesday night -3 °C, ground frost likely; "
                                                      "Wednesday 2 °C.\n"}),
                ACT, "frost is forecast: warn the user"),
        Variant("rain", Change(write={"weather.txt": "Forecast: Tuesday 8 °C, rain; Wednesday 10 °C, windy.\n"}),
                NOOP, "no frost in the forecast"),
        unrelated("projects/garden.md", GARDEN + "Cover the herbs when it gets cold.\n",
                  "the garden plan changed, not the forecast"),
    ])
    s += family("articles", "Give me a one-line summary of each article I save in reading/", HOME, [
        Variant("article saved", Change(write={"reading/heat-pumps.md": (
            "# How heat pumps work in cold climates\n\nModern air-source heat pumps keep most of their efficiency "
            "down to -15 °C. Field tests in Norway found seasonal efficiencies around 2.8.\n")}),
            ACT, "a new article was saved: summarise it in one line"),
        unrelated("notes/recipes.md", RECIPE),
        nothing(),
    ])
    s += family("taxes", "Prepare my tax return checklist when the tax documents arrive in taxes/", HOME, [
        Variant("wage statement", Change(write={"taxes/wage-statement-2026.md": (
            "Wage statement 2026: gross 52,400 EUR, income tax withheld 9,870 EUR, church tax none.\n")}),
            ESCALATE, "the tax documents arrived: the checklist needs several steps"),
        unrelated("notes/books.md", BOOKS),
        nothing(),
    ])
    s += family("job offer", "When the job offer from Lumen arrives, write a comparison with my current job",
                {**HOME, "career/current-job.md": "Current job: 58,000 EUR, 28 days off, 40 min commute.\n"}, [
        Variant("offer arrives", Change(write={"career/lumen-offer.md": (
            "Offer from Lumen GmbH: senior analyst, 66,000 EUR, 30 days off, remote three days a week.\n")}),
            ESCALATE, "the offer arrived: a written comparison needs reasoning"),
        Variant("other offer", Change(write={"career/nordbank-offer.md": (
            "Offer from Nordbank: analyst, 60,000 EUR, office five days a week.\n")}),
            NOOP, "the offer is from Nordbank, not Lumen"),
        nothing(),
    ])
    s += family("appointment", "Remind me when the doctor's office confirms my appointment",
                {**HOME, "inbox/2026-11-29-deals.txt": newsletter}, [
        Variant("confirmed", Change(write={"inbox/2026-12-02-praxis.txt": (
            "From: Praxis Dr. Weiss <info@praxis-weiss.example>\nSubject: Appointment confirmed\n\n"
            "Your appointment on 9 December at 10:30 is confirmed.\n")}),
            ACT, "the appointment is confirmed: remind the user"),
        Variant("closed notice", Change(write={"inbox/2026-12-02-praxis.txt": (
            "From: Praxis Dr. Weiss <info@praxis-weiss.example>\nSubject: Holiday hours\n\n"
            "Our office is closed from 24 December to 2 January.\n")}),
            NOOP, "holiday hours are not the confirmation"),
        nothing(),
    ])
    s += family("shopping", "Add the things I say we are out of to shopping.md",
                {**HOME, "shopping.md": "# Shopping\n- coffee beans\n"}, [
        Variant("out of", Change(memories=("We are out of olive oil and eggs.",)),
                ACT, "the user named things that ran out: append them"),
        Variant("dinner", Change(memories=("Dinner with the neighbours was lovely.",)),
                NOOP, "nothing ran out"),
        Variant("bought", Change(memories=("I bought olive oil yesterday, we have enough now.",)),
                NOOP, "nothing is missing; it was bought"),
    ])
    s += family("support tickets", "Draft an answer to each new support ticket in tickets/",
                {**HOME, "tickets/T-1001.md": "Ticket T-1001 (closed): password reset worked.\n"}, [
        Variant("new ticket", Change(write={"tickets/T-1002.md": (
            "Ticket T-1002 (open) from Mira Holt: the invoice PDF shows last month's address although I changed "
            "it on 28 November. Can you send a corrected invoice?\n")}),
            ESCALATE, "a new ticket arrived: drafting its answer needs reasoning"),
        Variant("another new ticket", Change(write={"tickets/T-1003.md": (
            "Ticket T-1003 (open) from Jonas Reuter: the app logs me out every five minutes since the update.\n")}),
            ESCALATE, "a new ticket arrived: draft its answer"),
        Variant("closed ticket edited", Change(write={"tickets/T-1001.md": "Ticket T-1001 (closed): password reset "
                                                                            "worked. Customer said thanks.\n"}),
                NOOP, "a closed ticket got a note; no new ticket"),
        nothing(),
    ])
    s += family("plants", "Remind me to water the plants when the soil sensor log says dry",
                {**HOME, "ops/logs/soil.log": "2026-12-01 18:00 moisture 41 % (ok)\n"}, [
        Variant("dry", Change(append={"ops/logs/soil.log": "2026-12-02 18:00 moisture 12 % (dry)\n"}),
                ACT, "the soil is dry: remind the user"),
        Variant("ok", Change(append={"ops/logs/soil.log": "2026-12-02 18:00 moisture 38 % (ok)\n"}),
                NOOP, "the soil is still moist"),
        nothing(),
    ])
    s += family("research", "Research the options when I say the washing machine broke", HOME, [
        Variant("broke", Change(memories=("The washing machine broke today; it leaks water from the bottom.",)),
                ESCALATE, "the machine broke: researching repair or replacement needs several sources"),
        Variant("works", Change(memories=("Ran the washing machine twice today, laundry is done.",)),
                NOOP, "the machine works"),
    ])
    s += family("complaint", "When a customer complaint arrives in inbox/, prepare a response plan",
                {**HOME, "inbox/2026-11-30-deals.txt": newsletter}, [
        Variant("complaint", Change(write={"inbox/2026-12-02-complaint.txt": (
            "From: Petra Lang <p.lang@example.com>\nSubject: Complaint: wrong sofa delivered\n\n"
            "You delivered a grey sofa instead of the green one I ordered, and the driver refused to take it back. "
            "I expect a solution this week.\n")}),
            ESCALATE, "a complaint arrived: a response plan needs reasoning"),
        Variant("thanks", Change(write={"inbox/2026-12-02-thanks.txt": (
            "From: Omar Haddad <omar@example.com>\nSubject: Thank you\n\nThe table arrived in perfect shape.\n")}),
            NOOP, "a thank-you note is not a complaint"),
        nothing(),
    ])
    s += family("board analysis", "When the quarterly numbers land in finance/, write a short analysis for the board",
                HOME, [
        Variant("numbers land", Change(write={"finance/q4-2026.csv": (
            "month,revenue,costs\nOctober,182000,151000\nNovember,176500,149800\nDecember,201300,160200\n")}),
            ESCALATE, "the quarterly numbers arrived: the analysis needs reasoning"),
        unrelated("notes/recipes.md", RECIPE),
    ])
    s += family("meal plan", "Suggest a meal plan for the week when I tell you what is in the fridge", HOME, [
        Variant("fridge", Change(memories=("In the fridge: spinach, feta, six eggs, half a pumpkin, yoghurt.",)),
                ESCALATE, "the user listed the fridge: planning meals needs reasoning"),
        Variant("restaurant", Change(memories=("We had pizza at Luigi's tonight.",)),
                NOOP, "nothing about the fridge"),
    ])
    return s


SITUATIONS: list[Situation] = _situations()
"""Every situation of the set, in a fixed order."""

QUICK = ("parcel: delivered", "deadline: figure edited", "urgent memory: bank call", "landlord: rent increase",
         "lease: receipt", "flight price: other flight cheap")
"""The small slice CI runs with SmolLM2: one of each kind, two positives of each class and two near misses."""


def scored(situations: list[Situation] | None = None) -> list[tuple[Situation, Label]]:
    """Every scored decision: a situation and one of its labelled tasks."""
    return [(situation, label) for situation in (situations or SITUATIONS) for label in situation.labels]
