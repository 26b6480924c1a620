"""The held-out labelled set no. 5 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families appear neither
there nor in the earlier held-out sets. Each family is one top-level statement, so the set grows by appending.
The text is the project's own.
"""

from __future__ import annotations

from bench.judgement_set import (
    ACT,
    ESCALATE,
    HOME,
    NOOP,
    Change,
    Situation,
    Variant,
    family,
    nothing,
    unrelated,
)
from bench.judgement_set import (
    mail as _mail,
)

SITUATIONS: list[Situation] = []


ORDERS = ("order_id,date,customer,total_eur,status\n1041,2026-11-30,Marit Olsen,86.00,shipped\n"
          "1042,2026-12-01,Cafe Lune,212.50,paid\n")
SITUATIONS += family("big order", "ping me if an order over 500 EUR comes in (shop/orders.csv)",
                     {**HOME, "shop/orders.csv": ORDERS}, [
    Variant("hotel order", Change(append={"shop/orders.csv": "1043,2026-12-02,Hotel Fjordlys,1240.00,paid\n"}),
            ACT, "a new order of 1,240 EUR came in, over 500: ping the user"),
    Variant("pending big order", Change(append={"shop/orders.csv": "1043,2026-12-02,Studio Brann,515.90,pending\n"}),
            ACT, "a new order of 515.90 EUR came in (payment pending, but the order is in): ping the user"),
    Variant("just under", Change(append={"shop/orders.csv": "1043,2026-12-02,Per Aas,498.00,paid\n"}),
            NOOP, "the new order is 498 EUR, under the 500 EUR threshold"),
    Variant("old order shipped", Change(write={"shop/orders.csv": ORDERS.replace("212.50,paid", "212.50,shipped")}),
            NOOP, "only the status of an existing 212.50 EUR order changed; no new order over 500 EUR"),
])

INVOICES = ("invoice,client,amount_eur,due,status\nINV-118,Pike & Rowan Design,1800,2026-11-20,paid\n"
            "INV-119,Selka Foods,950,2026-12-01,sent\nINV-120,Tern Studio,2400,2026-12-15,sent\n")
SITUATIONS += family("overdue invoice",
                     "If any client invoice in freelance/invoices.csv goes overdue, draft a friendly payment reminder "
                     "email to that client", {**HOME, "freelance/invoices.csv": INVOICES}, [
    Variant("marked overdue", Change(write={"freelance/invoices.csv": INVOICES.replace("2026-12-01,sent",
                                                                                      "2026-12-01,overdue")}),
            ESCALATE, "Selka Foods' invoice is now overdue: a reminder email to them has to be drafted"),
    Variant("days past due", Change(write={"freelance/invoices.csv": INVOICES.replace(
        "2026-12-01,sent", "2026-12-01,unpaid - 6 days past due")}),
            ESCALATE, "Selka Foods' invoice is unpaid six days past its due date: draft the reminder"),
    Variant("paid", Change(write={"freelance/invoices.csv": INVOICES.replace("2026-12-01,sent", "2026-12-01,paid")}),
            NOOP, "Selka Foods paid; nothing went overdue"),
    Variant("new invoice", Change(append={"freelance/invoices.csv": "INV-121,Pike & Rowan Design,600,2026-12-31,"
                                                                    "sent\n"}),
            NOOP, "a new invoice was sent, due at the end of the month; nothing is overdue"),
    unrelated("freelance/portfolio.md", "# Portfolio\n\n- Tern Studio rebrand: case study added with the final logo "
                                        "set.\n"),
])

SITUATIONS += family("interview invite",
                     "Let me know as soon as a company invites me to an interview. Job mails land in mail/jobs/",
                     {**HOME, "mail/jobs/2026-11-25-halden.txt": _mail(
                         "Halden Analytics Careers <careers@halden.example>", "Application received: Data Analyst",
                         "Thank you for applying. We will review your application within two weeks.")}, [
    Variant("video interview", Change(write={"mail/jobs/2026-12-02-halden.txt": _mail(
        "Rosa Lind <rosa.lind@halden.example>", "Data Analyst - next step",
        "We enjoyed reading your application and would like to meet you. Could you do a 45-minute video interview "
        "on Tuesday 9 December at 14:00 or on Wednesday 10 December at 10:00?")}),
            ACT, "Halden Analytics invites the user to a video interview: tell them"),
    Variant("call with hiring manager", Change(write={"mail/jobs/2026-12-02-quayline.txt": _mail(
        "Oskar Brenn <oskar@quayline.example>", "Quick chat about the BI role",
        "Hi! Our hiring manager would like a 20-minute call with you about the BI developer position this week. "
        "Send me a few times that suit you.")}),
            ACT, "a screening call with the hiring manager is an interview invitation: tell the user"),
    Variant("rejection", Change(write={"mail/jobs/2026-12-02-corvid.txt": _mail(
        "Corvid Systems HR <jobs@corvid.example>", "Your application",
        "Thank you for your interest. After careful review we have decided not to invite you to an interview this "
        "time. We wish you every success.")}),
            NOOP, "the mail says explicitly that there will be no interview"),
    Variant("tips newsletter", Change(write={"mail/jobs/2026-12-02-jobboard.txt": _mail(
        "JobBoard Weekly <weekly@jobboard.example>", "5 interview questions you should prepare for",
        "This week: how to answer 'tell me about yourself', salary talks, and 30 new analyst roles near you.")}),
            NOOP, "a newsletter about interviews is not an invitation to one"),
])

APPLICATIONS = ("# Applications\n\n| Company | Role | Sent | Status |\n|---|---|---|---|\n"
                "| Tallow Robotics | Backend engineer | 20 Nov | waiting |\n"
                "| Brightwell | Platform engineer | 14 Nov | screening done |\n")
SITUATIONS += family("interview prep",
                     "When I tell you I've landed an interview, put together a prep brief: the company, the role and "
                     "the questions they'll probably ask", {**HOME, "jobs/applications.md": APPLICATIONS}, [
    Variant("tallow interview", Change(memories=(
        "Tallow Robotics want to interview me on Thursday at 11 for the backend engineer role.",)),
            ESCALATE, "the user landed an interview: a prep brief takes research and writing"),
    Variant("application sent", Change(memories=("Sent my application to Tallow Robotics this morning.",)),
            NOOP, "an application was sent; no interview was landed"),
    Variant("friend's interview", Change(memories=(
        "Karim has his final interview at Quayline tomorrow, remember to wish him luck.",)),
            NOOP, "the interview is Karim's, not the user's"),
    Variant("cancelled", Change(memories=(
        "Brightwell called off the interview they had pencilled in; the position is frozen until spring.",)),
            NOOP, "an interview was cancelled, not landed"),
])

GRADES = ("# Grades, winter term\n\n| Course | Credits | Grade |\n|---|---|---|\n| Linear Algebra | 6 | pending |\n"
          "| Statistics II | 6 | pending |\n| Academic Writing | 3 | 1.7 |\n")
SITUATIONS += family("stats grade", "tell me when my Statistics II grade shows up in uni/grades.md",
                     {**HOME, "uni/grades.md": GRADES}, [
    Variant("posted", Change(write={"uni/grades.md": GRADES.replace("Statistics II | 6 | pending",
                                                                    "Statistics II | 6 | 2.3")}),
            ACT, "the Statistics II grade (2.3) is in: tell the user"),
    Variant("other course", Change(write={"uni/grades.md": GRADES.replace("Linear Algebra | 6 | pending",
                                                                          "Linear Algebra | 6 | 1.3")}),
            NOOP, "the Linear Algebra grade came in; Statistics II is still pending"),
    Variant("marking note", Change(write={"uni/grades.md": GRADES.replace(
        "Statistics II | 6 | pending", "Statistics II | 6 | pending (marking ends 19 Dec)")}),
            NOOP, "only a note about when marking ends was added; no grade yet"),
    nothing(),
])

THERMO = ("# Thermodynamics (ME-204)\n\nLectures: Mon 10:00, room H3\n"
          "Lab report 2 (heat exchangers): due 12 December, 23:59, via the portal\nExam: 3 February\n"
          "Reading: chapters 5-7\n")
SITUATIONS += family("lab report deadline",
                     "If the Thermodynamics lab report deadline changes on the course page (uni/courses/thermo.md), "
                     "add the new date as a line in uni/deadlines.md",
                     {**HOME, "uni/courses/thermo.md": THERMO,
                      "uni/deadlines.md": "# Deadlines\n- 12 Dec: Thermo lab report 2\n"
                                          "- 18 Dec: Fluid Mechanics problem set 6\n"}, [
    Variant("extended", Change(write={"uni/courses/thermo.md": THERMO.replace(
        "due 12 December, 23:59", "due 16 December, 23:59 (extended after the portal outage)")}),
            ACT, "the lab report deadline moved to 16 December: append one line to uni/deadlines.md"),
    Variant("reading changed", Change(write={"uni/courses/thermo.md": THERMO.replace("chapters 5-7", "chapters 5-8")}),
            NOOP, "only the reading list changed; the lab report deadline is the same"),
    Variant("exam moved", Change(write={"uni/courses/thermo.md": THERMO.replace("Exam: 3 February",
                                                                                "Exam: 5 February")}),
            NOOP, "the exam date moved, not the lab report deadline"),
    Variant("other course", Change(write={"uni/courses/fluids.md": (
        "# Fluid Mechanics (ME-210)\n\nProblem set 6: now due 20 December (was 18 December).\n")}),
            NOOP, "a Fluid Mechanics deadline moved, not the Thermodynamics lab report"),
])

RUNS = ("run,date,lr,batch,seed,train_acc,val_acc\nr31,2026-11-28,0.001,64,1,0.91,0.86\n"
        "r32,2026-11-29,0.001,64,2,0.92,0.85\nr33,2026-12-01,0.001,128,1,0.93,0.84\n")
SITUATIONS += family("val accuracy",
                     "Keep an eye on lab/runs.csv. If a run's validation accuracy comes in under 0.80, dig into what's "
                     "different from the previous runs and write up the likely causes",
                     {**HOME, "lab/runs.csv": RUNS}, [
    Variant("big drop", Change(append={"lab/runs.csv": "r34,2026-12-02,0.01,128,1,0.88,0.71\n"}),
            ESCALATE, "run r34 reached only 0.71 validation accuracy: comparing it with the earlier runs is analysis"),
    Variant("just under", Change(append={"lab/runs.csv": "r34,2026-12-02,0.001,256,4,0.89,0.79\n"}),
            ESCALATE, "0.79 is under 0.80: the cause has to be investigated and written up"),
    Variant("slight dip", Change(append={"lab/runs.csv": "r34,2026-12-02,0.001,128,2,0.90,0.81\n"}),
            NOOP, "0.81 is lower than before but still above 0.80"),
    Variant("train accuracy low", Change(append={"lab/runs.csv": "r34,2026-12-02,0.0005,64,3,0.78,0.83\n"}),
            NOOP, "only the training accuracy is under 0.80; the validation accuracy is 0.83"),
])

CI_LOG = ("2026-12-01 16:02 pipeline #882 branch=main commit=4be91c0 status=passed (tests 412/412)\n"
          "2026-12-01 18:30 pipeline #883 branch=feature/csv-export commit=a17d2e9 status=passed (tests 415/415)\n")
SITUATIONS += family("ci red on main", "ping me whenever CI goes red on main", {**HOME, "ops/logs/ci.log": CI_LOG}, [
    Variant("tests failing", Change(append={"ops/logs/ci.log": (
        "2026-12-02 09:14 pipeline #884 branch=main commit=c03f1aa status=failed (tests 409/412, 3 failing in "
        "test_invoices)\n")}),
            ACT, "the main pipeline failed: ping the user"),
    Variant("lint stage", Change(append={"ops/logs/ci.log": (
        "2026-12-02 09:40 pipeline #885 branch=main commit=d51e7b2 status=failed (stage lint: 2 errors, tests "
        "skipped)\n")}),
            ACT, "a main pipeline failed at the lint stage; CI is red on main: ping the user"),
    Variant("feature branch", Change(append={"ops/logs/ci.log": (
        "2026-12-02 09:14 pipeline #884 branch=feature/csv-export commit=b88f301 status=failed (tests 413/415)\n")}),
            NOOP, "the failure is on a feature branch, not on main"),
    Variant("main green", Change(append={"ops/logs/ci.log": (
        "2026-12-02 09:14 pipeline #884 branch=main commit=c03f1aa status=passed (tests 418/418)\n")}),
            NOOP, "main passed"),
])

SITUATIONS += family("release notes",
                     "Once v2.4.0 gets tagged (see release/tags.md), draft the release notes from CHANGELOG.md for the "
                     "announcement",
                     {**HOME, "release/tags.md": "# Tags\n- v2.3.0  2026-10-14  stable\n"
                                                 "- v2.3.1  2026-11-03  stable (hotfix for the CSV export)\n",
                      "CHANGELOG.md": "## Unreleased\n- Dark mode for the dashboard\n- CSV import about 3x faster\n"
                                      "- Fixed: weekly reports shifted by one hour after the clock change\n"}, [
    Variant("tagged", Change(append={"release/tags.md": "- v2.4.0  2026-12-02  stable\n"}),
            ESCALATE, "v2.4.0 is tagged: drafting release notes from the changelog is writing work"),
    Variant("release candidate", Change(append={"release/tags.md": "- v2.4.0-rc1  2026-12-02  release candidate, for "
                                                                   "testing only\n"}),
            NOOP, "only a release candidate was tagged, not v2.4.0 itself"),
    Variant("date planned", Change(write={"release/plan.md": "# Release plan\n\nTag v2.4.0 on 10 December, after the "
                                                             "QA sign-off on the 9th.\n"}),
            NOOP, "the tag is only planned for 10 December; nothing was tagged"),
    unrelated("notes/ideas.md", "# Ideas\n\n- keyboard shortcuts for the report editor\n- export to ODS\n"),
])

SERVERS = ("2026-12-01 03:00:02 db-prod-1 uptime 41d 06h load 0.82\n"
           "2026-12-01 03:00:02 db-staging-1 uptime 12d 02h load 0.10\n")
SITUATIONS += family("prod reboot",
                     "If db-prod-1 reboots without it being planned, go through ops/logs/ and work out what caused it",
                     {**HOME, "ops/logs/servers.log": SERVERS,
                      "ops/maintenance.md": "# Maintenance windows\n- db-prod-1: kernel patch, reboot Sunday "
                                            "7 December 02:00-02:30\n"}, [
    Variant("uptime reset", Change(append={"ops/logs/servers.log": (
        "2026-12-02 03:00:01 db-prod-1 uptime 0d 01h load 2.40 (last boot 2026-12-02 01:52, reason unknown)\n")}),
            ESCALATE, "db-prod-1 rebooted on 2 December outside any maintenance window: the cause must be "
                      "investigated"),
    Variant("soft lockup", Change(append={"ops/logs/servers.log": (
        "2026-12-02 11:20:44 db-prod-1 kernel: watchdog: soft lockup on CPU#3, system restarting\n")}),
            ESCALATE, "db-prod-1 restarted after a kernel lockup, unplanned: investigate the cause"),
    Variant("staging reboot", Change(append={"ops/logs/servers.log": (
        "2026-12-02 03:00:01 db-staging-1 uptime 0d 02h load 0.05 (last boot 2026-12-02 00:58, reason unknown)\n")}),
            NOOP, "the server that rebooted is db-staging-1, not db-prod-1"),
    Variant("planned window", Change(append={"ops/logs/servers.log": (
        "2026-12-07 02:14:09 db-prod-1 rebooted (maintenance: kernel patch applied)\n")}),
            NOOP, "the reboot happened in the planned maintenance window for the kernel patch"),
    Variant("normal uptime", Change(append={"ops/logs/servers.log": (
        "2026-12-02 03:00:02 db-prod-1 uptime 42d 06h load 0.79\n")}),
            NOOP, "db-prod-1 kept running; its uptime keeps growing"),
])

ROADMAP = ("# Roadmap Q1\n\n## Search\nOwner: @leon\n- faster indexing\n\n## Billing\nOwner: @lena\n- invoice PDFs\n\n"
           "## Comments\n- @leon: the indexing estimate is 3 weeks\n")
SITUATIONS += family("mentions", "Tell me whenever someone @-mentions me (@lena) in team/roadmap.md",
                     {**HOME, "team/roadmap.md": ROADMAP}, [
    Variant("marta asks", Change(append={"team/roadmap.md": (
        "- @marta: @lena can invoice PDFs move to February? Finance needs the old layout until the year closes.\n")}),
            ACT, "Marta mentions @lena in a new comment: tell the user"),
    Variant("sven asks", Change(append={"team/roadmap.md": "- @sven: who reviews the billing API, @lena or me?\n"}),
            ACT, "Sven's new comment mentions @lena: tell the user"),
    Variant("leon mentioned", Change(append={"team/roadmap.md": "- @marta: @leon do the 3 weeks include testing?\n"}),
            NOOP, "the new comment mentions @leon, not @lena"),
    Variant("billing item added", Change(write={"team/roadmap.md": ROADMAP.replace(
        "- invoice PDFs\n", "- invoice PDFs\n- VAT rounding fix\n")}),
            NOOP, "an item was added under billing; the only @lena is the old owner line, not a new mention"),
])

SITUATIONS += family("my action items",
                     "after each new meeting note in meetings/, copy any action item that's assigned to me (Priya) "
                     "into notes/todo.md",
                     {**HOME, "meetings/2026-11-26-weekly.md": (
                         "# Weekly 26 November\n\nAttendees: Priya, Tom, Ada\n\n- hiring freeze lifted\n\n"
                         "Action items\n- Tom: draft the Q1 hiring plan\n")}, [
    Variant("vendor shortlist", Change(write={"meetings/2026-12-02-weekly.md": (
        "# Weekly 2 December\n\nAttendees: Priya, Tom, Ada\n\n- Q4 numbers reviewed, on track\n\nAction items\n"
        "- Tom: fix the export bug by Wednesday\n- Priya: send the vendor shortlist to Ada by Friday\n")}),
            ACT, "the new note assigns Priya one action item: copy that line into notes/todo.md"),
    Variant("design sync", Change(write={"meetings/2026-12-03-design-sync.md": (
        "# Design sync 3 December\n\n- onboarding screens approved with small copy changes\n\n"
        "AI: Priya to update the onboarding copy (due Monday)\n")}),
            ACT, "the new note has an action item for Priya: add it to the to-do list"),
    Variant("others only", Change(write={"meetings/2026-12-02-weekly.md": (
        "# Weekly 2 December\n\nAttendees: Priya, Tom, Ada\n\n- Priya presented the budget, no questions\n\n"
        "Action items\n- Tom: fix the export bug by Wednesday\n- Ada: book the offsite venue\n")}),
            NOOP, "Priya is mentioned but every action item belongs to Tom or Ada"),
    Variant("for Priya, not by her", Change(write={"meetings/2026-12-02-weekly.md": (
        "# Weekly 2 December\n\nAttendees: Tom, Ada\n\nAction items\n- Ada: send Priya the budget figures\n")}),
            NOOP, "the action item is Ada's (sending something to Priya), not assigned to Priya"),
])

FOODBANK = ("# Food bank, Saturday 6 December\n\nSorting: Ines, Ruth\nVan (pick-ups from the two supermarkets): Dario\n"
            "Front desk: Olu, Mei\nStandby: Karl (only until 12:00)\n")
SITUATIONS += family("food bank shift",
                     "If someone drops out of Saturday's food bank shift, work out a new plan for who covers sorting, "
                     "the van and the front desk", {**HOME, "volunteers/saturday.md": FOODBANK}, [
    Variant("van driver out", Change(memories=(
        "Dario texted: his car is in the garage, so he can't do the van on Saturday after all.",)),
            ESCALATE, "the only van driver dropped out: the shift has to be re-planned"),
    Variant("sorter out", Change(write={"volunteers/saturday.md": FOODBANK.replace(
        "Sorting: Ines, Ruth", "Sorting: Ines (Ruth cancelled, flu)")}),
            ESCALATE, "Ruth cancelled her sorting slot: work out who covers it"),
    Variant("sunday event", Change(memories=("Mei can't make the Sunday clothing sort next week.",)),
            NOOP, "Mei dropped out of a different event, not Saturday's food bank shift"),
    Variant("extra volunteer", Change(append={"volunteers/saturday.md": "Extra: Hana joins the sorting\n"}),
            NOOP, "someone joined; nobody dropped out"),
])

NEWSLETTER = "# Newsletter stats\n\nUpdated 1 December\nSubscribers: 968\nLast issue: sent to 968, opened by 51 %\n"
SITUATIONS += family("1000 subscribers",
                     "let me know when the newsletter passes 1,000 subscribers (newsletter/stats.md)",
                     {**HOME, "newsletter/stats.md": NEWSLETTER}, [
    Variant("passed", Change(write={"newsletter/stats.md": NEWSLETTER.replace("1 December\nSubscribers: 968",
                                                                             "2 December\nSubscribers: 1,012")}),
            ACT, "the newsletter has 1,012 subscribers now, past 1,000: tell the user"),
    Variant("almost", Change(write={"newsletter/stats.md": NEWSLETTER.replace("1 December\nSubscribers: 968",
                                                                             "2 December\nSubscribers: 997")}),
            NOOP, "997 subscribers is close but not past 1,000"),
    Variant("web views", Change(write={"newsletter/stats.md": NEWSLETTER.replace(
        "1 December\nSubscribers: 968", "2 December\nSubscribers: 981\nIssue 42 web views: 1,240")}),
            NOOP, "the 1,240 are web views of an issue; subscribers are at 981"),
    Variant("goal written", Change(append={"newsletter/stats.md": "Goal: 1,000 subscribers by the end of the year.\n"}),
            NOOP, "1,000 appears only as a goal; the subscriber count did not change"),
])

STOCK = ("sku,item,on_hand,reorder_at\nCN-01,Beeswax candle small,42,15\nCN-02,Beeswax candle large,18,10\n"
         "SP-05,Lavender soap,25,20\n")
SITUATIONS += family("reorder level",
                     "Keep an eye on shop/stock.csv and tell me when something drops below its reorder level",
                     {**HOME, "shop/stock.csv": STOCK}, [
    Variant("soap low", Change(write={"shop/stock.csv": STOCK.replace("Lavender soap,25,20", "Lavender soap,12,20")}),
            ACT, "lavender soap is down to 12, below its reorder level of 20: tell the user"),
    Variant("large candle low", Change(write={"shop/stock.csv": STOCK.replace("large,18,10", "large,7,10")}),
            ACT, "large candles are down to 7, below the reorder level of 10: tell the user"),
    Variant("sold but fine", Change(write={"shop/stock.csv": STOCK.replace("small,42,15", "small,31,15")}),
            NOOP, "small candles dropped to 31, still well above 15"),
    Variant("level raised", Change(write={"shop/stock.csv": STOCK.replace("Lavender soap,25,20",
                                                                          "Lavender soap,25,22")}),
            NOOP, "the soap's reorder level went up to 22, but 25 on hand is still above it"),
])

QUEUE = ("# Support queue\n\n#5120 | P3 | Login emails arrive late | open\n"
         "#5121 | P2 | CSV export misses the last row | open\n"
         "#5118 | P1 | Checkout returns error 502 | resolved 1 Dec\n")
SITUATIONS += family("p1 tickets", "Notify me straight away whenever a P1 ticket shows up in support/queue.md",
                     {**HOME, "support/queue.md": QUEUE}, [
    Variant("bumped to P1", Change(write={"support/queue.md": QUEUE.replace("#5121 | P2", "#5121 | P1")}),
            ACT, "ticket #5121 was raised to P1: notify the user"),
    Variant("new P1", Change(append={"support/queue.md": "#5124 | P1 | Card payments not captured since 08:10 | "
                                                         "open\n"}),
            ACT, "a new open P1 ticket arrived: notify the user"),
    Variant("old P1 touched", Change(write={"support/queue.md": QUEUE.replace(
        "resolved 1 Dec", "resolved 1 Dec, post-mortem filed")}),
            NOOP, "the only P1 is the old, already resolved ticket; a note was added to it"),
    Variant("P1 in title", Change(append={"support/queue.md": "#5125 | P2 | Customer asks about pricing for P1 "
                                                              "support plans | open\n"}),
            NOOP, "the new ticket is P2; 'P1' appears only in its title"),
])

SITUATIONS += family("scope change",
                     "If a client tells me they want to change the scope, work out what it does to my timeline and "
                     "quote, and draft a note back to them",
                     {**HOME, "freelance/finch-bakery.md": "# Finch Bakery website\n\nScope: 5 pages, contact form, "
                                                           "menu page\nQuote: 3,200 EUR\nDelivery: 19 December\n"}, [
    Variant("pre-orders wanted", Change(memories=(
        "Orla from Finch Bakery called: they'd like online pre-orders for cakes added to the site.",)),
            ESCALATE, "the client asks for new functionality: the timeline and quote impact must be worked out and "
                      "a note drafted"),
    Variant("swap pages by mail", Change(write={"mail/2026-12-02-finch.txt": _mail(
        "Orla Finch <orla@finchbakery.example>", "Small change to the site",
        "We've decided we don't need a separate menu page after all. Could the menu go on the home page, and could "
        "we have a gallery of our cakes instead?")}),
            ESCALATE, "the client changes the scope (menu page out, gallery in): re-plan and draft a reply"),
    Variant("deposit paid", Change(memories=("Finch Bakery paid the 50 % deposit today.",)),
            NOOP, "a payment is not a change of scope"),
    Variant("maybe someday", Change(memories=(
        "Orla mentioned they might want a webshop someday, but not as part of this project.",)),
            NOOP, "a vague future idea, explicitly outside this project, is not a scope change"),
])

SITUATIONS += family("payments ledger", "Whenever I mention a customer has paid, add a line to business/ledger.md",
                     {**HOME, "business/ledger.md": "# Payments received\n2026-11-28 | Halvorsen Florists | #2027 | "
                                                    "640 EUR\n"}, [
    Variant("brook paid", Change(memories=("Brook Café paid invoice #2031 today, 415 EUR.",)),
            ACT, "the user says a customer paid: append one line to the ledger"),
    Variant("transfer came through", Change(memories=(
        "The bank transfer from Moss & Rye for #2029 came through this morning (1,180 EUR).",)),
            ACT, "a customer's payment arrived: append it to the ledger"),
    Variant("invoice sent", Change(memories=("Sent invoice #2032 to Brook Café for the December catering, 290 EUR.",)),
            NOOP, "an invoice was sent; nobody has paid it yet"),
    Variant("promise to pay", Change(memories=("Moss & Rye promised to pay #2030 by Friday.",)),
            NOOP, "a promise to pay is not a payment"),
])
