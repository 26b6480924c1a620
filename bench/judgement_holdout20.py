"""The held-out labelled set no. 20 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families appear neither
there nor in the earlier held-out sets. Each family is one top-level statement, so the set grows by appending.
The theme is working life at the computer: office work, a small business, freelancing, software and operations
(build and test logs under ``ops/logs/``, feature flags, DNS, dependency audits), mail, shared documents,
invoices, tickets, rotas, meeting notes, calendars kept as text, chat exports and CSVs of numbers (sign-ups,
sales, failures, reply times). Formats vary: CSV, Markdown tables, plain logs, ``key: value`` files, JSON, mails,
bulleted notes and memories. Most variants are near misses: the watched thing changes but the condition is not
met (another person, row, plan or package; exactly on a threshold; a figure in other units; a plan, promise,
question or forecast instead of a fact; a past event retold; a negation; the same word in another sense; the
right thing in the wrong file or folder). Several conditions can only be judged with rows already in the file
(a weekly or daily total, a change since the previous month, a gap in a numbering, two failures in a row, three
tickets in one week), several are met by rewriting a whole file, and two families hold only near misses. The
text is the project's own.
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
)
from bench.judgement_set import (
    mail as _mail,
)

SITUATIONS: list[Situation] = []


_ROTA_W15 = ("day,opening,closing\nMon,Dee Okafor,Raj Patel\nTue,Raj Patel,Dee Okafor\nWed,Ana Cruz,Dan Okafor\n"
             "Thu,Dee Okafor,Ana Cruz\nFri,Dan Okafor,Raj Patel\nSat,Ana Cruz,Dee Okafor\n")
SITUATIONS += family(
    "closing shifts", "I'm Dee Okafor. tell me if a new rota gives me more than two closing shifts in one week "
    "(they go in rota/, one csv per week)",
    {**HOME, "rota/2026-w15.csv": _ROTA_W15}, [
        Variant("three closes", Change(write={"rota/2026-w16.csv": (
            "day,opening,closing\nMon,Raj Patel,Dee Okafor\nTue,Ana Cruz,Dan Okafor\nWed,Raj Patel,Dee Okafor\n"
            "Thu,Dan Okafor,Ana Cruz\nFri,Ana Cruz,Dee Okafor\nSat,Dee Okafor,Raj Patel\n")}),
            ACT, "week 16 has Dee closing on Monday, Wednesday and Friday, three closes: tell her"),
        Variant("exactly two", Change(write={"rota/2026-w16.csv": (
            "day,opening,closing\nMon,Dee Okafor,Raj Patel\nTue,Ana Cruz,Dee Okafor\nWed,Raj Patel,Dan Okafor\n"
            "Thu,Dan Okafor,Dee Okafor\nFri,Dee Okafor,Ana Cruz\nSat,Raj Patel,Ana Cruz\n")}),
            NOOP, "Dee closes on Tuesday and Thursday only; two is not more than two"),
        Variant("dan closes three", Change(write={"rota/2026-w16.csv": (
            "day,opening,closing\nMon,Dee Okafor,Dan Okafor\nTue,Raj Patel,Dan Okafor\nWed,Dee Okafor,Ana Cruz\n"
            "Thu,Ana Cruz,Dan Okafor\nFri,Dee Okafor,Raj Patel\nSat,Raj Patel,Dee Okafor\n")}),
            NOOP, "it is Dan Okafor who closes three times; Dee closes only on Saturday"),
    ])

_SIGNUPS = ("date,trial_signups\n2026-03-01,64\n2026-03-02,71\n2026-03-03,68\n2026-03-04,75\n2026-03-05,82\n"
            "2026-03-06,77\n2026-03-07,57\n")
SITUATIONS += family(
    "trial signups week", "let me know when a week's trial signups go past 500. weeks run monday to sunday "
    "(growth/signups.csv)",
    {**HOME, "growth/signups.csv": _SIGNUPS}, [
        Variant("sunday 80", Change(append={"growth/signups.csv": "2026-03-08,80\n"}),
                ACT, "Monday 2 to Sunday 8 March now adds up to 510 trial sign-ups, past 500: tell the user"),
        Variant("sunday 70", Change(append={"growth/signups.csv": "2026-03-08,70\n"}),
                NOOP, "the week of 2 March adds up to exactly 500 (1 March belongs to the week before), not past it"),
        Variant("launch forecast", Change(write={"growth/notes.md": (
            "# Growth notes\n- Launch post goes out Monday 9 March; we expect 600 or more trial sign-ups that "
            "week.\n")}),
            NOOP, "a forecast for next week; no week has passed 500"),
    ])

_WEBHOOKS = ("date,hour,webhook,failed\n2026-05-12,00,payment,2\n2026-05-12,01,payment,0\n2026-05-12,02,payment,5\n"
             "2026-05-12,02,shipping,1\n2026-05-12,03,payment,4\n2026-05-12,04,payment,3\n")
SITUATIONS += family(
    "payment webhook failures", "Ping me if more than 20 payment webhooks fail in one day. hourly counts go in "
    "ops/webhook-failures.csv",
    {**HOME, "ops/webhook-failures.csv": _WEBHOOKS}, [
        Variant("21 on the 12th", Change(append={"ops/webhook-failures.csv": "2026-05-12,05,payment,7\n"}),
                ACT, "payment failures on 12 May now add up to 21, more than 20: ping the user"),
        Variant("exactly 20", Change(append={"ops/webhook-failures.csv": "2026-05-12,05,payment,6\n"}),
                NOOP, "payment failures on 12 May add up to exactly 20, not more than 20"),
        Variant("shipping spike", Change(append={"ops/webhook-failures.csv": "2026-05-12,05,shipping,12\n"}),
                NOOP, "the 12 failures are shipping webhooks; payment failures stay at 14 for the day"),
    ])

_CI = ("2026-06-01 09:12 build 3381 branch=main status=passed duration=17m42s\n"
       "2026-06-01 11:40 build 3382 branch=feat/export-csv status=passed duration=18m05s\n")
SITUATIONS += family(
    "main build time", "tell me if a build on main takes longer than 20 minutes (ops/logs/ci.log)",
    {**HOME, "ops/logs/ci.log": _CI}, [
        Variant("23 minutes", Change(append={"ops/logs/ci.log": (
            "2026-06-02 10:03 build 3390 branch=main status=passed duration=23m10s\n")}),
            ACT, "a build on main took 23 minutes 10 seconds, longer than 20 minutes: tell the user"),
        Variant("slow branch", Change(append={"ops/logs/ci.log": (
            "2026-06-02 10:41 build 3391 branch=feat/search-facets status=failed duration=31m02s\n")}),
            NOOP, "the 31-minute build is on a feature branch, not main"),
        Variant("in seconds", Change(append={"ops/logs/ci.log": (
            "2026-06-02 14:20 build 3392 branch=main status=passed duration=1140s\n")}),
            NOOP, "1140 seconds is 19 minutes, not longer than 20"),
    ], bystanders=("Tell me when Hana replies about the Q3 roadmap",))

_SUPPLIERS = ("| supplier | sort code | account |\n|---|---|---|\n| Inkwell Print Ltd | 20-45-77 | 41830926 |\n"
              "| Copperline Couriers | 60-11-02 | 77215048 |\n")
SITUATIONS += family(
    "supplier bank details", "Flag it straight away if a supplier invoice comes in with bank details that don't "
    "match finance/suppliers.md",
    {**HOME, "finance/suppliers.md": _SUPPLIERS}, [
        Variant("new account", Change(write={"mail/2026-06-03-inkwell.txt": _mail(
            "Inkwell Print Ltd <accounts@inkwellprint.example>", "Invoice INK-2291",
            "Invoice INK-2291: 500 flyers, A5, £318.00, due in 30 days. Please note our new bank details: sort code "
            "04-00-75, account 19284733.")}),
            ACT, "Inkwell's invoice asks for payment to an account that is not the one on file: flag it"),
        Variant("same account, other format", Change(write={"mail/2026-06-03-copperline.txt": _mail(
            "Copperline Couriers <billing@copperline.example>", "Invoice CC-7710",
            "Invoice CC-7710 for May collections: £146.40. Pay to sort code 601102, account 7721 5048.")}),
            NOOP, "601102 and 7721 5048 are the sort code and account on file, written without dashes"),
        Variant("fraud warning", Change(write={"mail/2026-06-03-inkwell.txt": _mail(
            "Inkwell Print Ltd <accounts@inkwellprint.example>", "Beware of fake invoices",
            "Some customers have had mails asking them to pay a new account in our name. Our bank details have not "
            "changed; if in doubt, ring us.")}),
            NOOP, "a warning with no invoice in it, saying the bank details have not changed"),
    ])

_PRINTER = ("model: Brother HL-L8360\nblack: {k}%\ncyan: {c}%\nmagenta: 38%\nyellow: 45%\ndrum: 64%\n"
            "last_checked: 2026-04-{d} 08:00\n")
SITUATIONS += family(
    "black toner", "ping me when the office printer's black toner gets under 10%",
    {**HOME, "office/printer-status.txt": _PRINTER.format(k=22, c=41, d="07")}, [
        Variant("black 8", Change(write={"office/printer-status.txt": _PRINTER.format(k=8, c=40, d="14")}),
                ACT, "the black toner is at 8 %, under 10 %: ping the user"),
        Variant("black 10", Change(write={"office/printer-status.txt": _PRINTER.format(k=10, c=40, d="14")}),
                NOOP, "10 % is not under 10 %"),
        Variant("cyan 4", Change(write={"office/printer-status.txt": _PRINTER.format(k=19, c=4, d="14")}),
                NOOP, "it is the cyan toner that is at 4 %; black is at 19 %"),
    ], system_tasks=True)

_FLAGS = "# feature flags, rollout in percent of users\nnew_checkout: 25\nnew_search: 10\ndark_mode: 100\n"
SITUATIONS += family(
    "new checkout flag", "tell me when new_checkout is switched on for everyone (ops/flags.conf)",
    {**HOME, "ops/flags.conf": _FLAGS}, [
        Variant("at 100", Change(write={"ops/flags.conf": _FLAGS.replace("new_checkout: 25", "new_checkout: 100")}),
                ACT, "new_checkout is now rolled out to 100 % of users: tell the user"),
        Variant("search at 100", Change(write={"ops/flags.conf": _FLAGS.replace("new_search: 10", "new_search: 100")}),
                NOOP, "new_search went to 100 %; new_checkout is still at 25 %"),
        Variant("planned", Change(write={"ops/flags.conf": _FLAGS.replace(
            "new_checkout: 25", "# new_checkout to 100 on Monday if the error rate holds\nnew_checkout: 50")}),
            NOOP, "new_checkout went to 50 % with a plan for 100 % on Monday; it is not on for everyone"),
    ])

_DNS = ('{\n  "zone": "larkspur.example",\n  "records": [\n'
        '    {"name": "www", "type": "A", "value": "203.0.113.40", "ttl": 3600},\n'
        '    {"name": "api", "type": "A", "value": "203.0.113.52", "ttl": 3600},\n'
        '    {"name": "@", "type": "MX", "value": "mx1.mailhost.example", "ttl": 86400}\n  ]\n}\n')
SITUATIONS += family(
    "www record", "Tell me if anyone changes where www points in infra/dns.json",
    {**HOME, "infra/dns.json": _DNS}, [
        Variant("new address", Change(write={"infra/dns.json": _DNS.replace("203.0.113.40", "198.51.100.7")}),
                ACT, "www now points to 198.51.100.7 instead of 203.0.113.40: tell the user"),
        Variant("ttl only", Change(write={"infra/dns.json": _DNS.replace(
            '"203.0.113.40", "ttl": 3600', '"203.0.113.40", "ttl": 300')}),
            NOOP, "only the TTL of the www record changed; it still points to 203.0.113.40"),
        Variant("api moved", Change(write={"infra/dns.json": _DNS.replace("203.0.113.52", "198.51.100.9")}),
                NOOP, "the api record moved; www still points where it did"),
    ])

_PAYROLL = ("2026-03-27 09:14 March payroll: preview generated, 14 payslips\n"
            "2026-03-27 16:02 March payroll: COMPLETED, 14 payslips, BACS file sent\n"
            "2026-04-24 09:10 April payroll: preview generated, 15 payslips\n")
SITUATIONS += family(
    "april payroll", "Let me know once April's payroll has actually been run (payroll/runs.log)",
    {**HOME, "payroll/runs.log": _PAYROLL}, [
        Variant("completed", Change(append={"payroll/runs.log": (
            "2026-04-24 15:48 April payroll: COMPLETED, 15 payslips, BACS file sent\n")}),
            ACT, "April's payroll is completed: tell the user"),
        Variant("scheduled", Change(append={"payroll/runs.log": (
            "2026-04-24 12:30 April payroll: preview approved by Mo, run scheduled for Monday 27 April\n")}),
            NOOP, "April's run is approved and scheduled for Monday; it has not run yet"),
        Variant("march correction", Change(append={"payroll/runs.log": (
            "2026-04-24 11:05 March payroll: correction run COMPLETED, 1 payslip\n")}),
            NOOP, "the completed run is a correction to March, not April's payroll"),
    ])

_PRICING = ("# Pricing (shared, edit with care)\n\n| plan | price per user / month | notes |\n|---|---|---|\n"
            "| Starter | £0 | up to 3 users |\n| Team | £12 | two months free on annual billing |\n"
            "| Pro | £24 | SSO and audit log |\n")
SITUATIONS += family(
    "team plan price", "if the Team plan price changes in docs/pricing.md tell me what it is now",
    {**HOME, "docs/pricing.md": _PRICING}, [
        Variant("team 14", Change(write={"docs/pricing.md": _PRICING.replace("| Team | £12", "| Team | £14")}),
                ACT, "the Team plan went from £12 to £14 per user a month: tell the user"),
        Variant("pro 28", Change(write={"docs/pricing.md": _PRICING.replace("| Pro | £24", "| Pro | £28")}),
                NOOP, "the Pro plan's price changed; Team is still £12"),
        Variant("dollar column", Change(write={"docs/pricing.md": (
            "# Pricing (shared, edit with care)\n\n| plan | price per user / month | US price | notes |\n"
            "|---|---|---|---|\n| Starter | £0 | $0 | up to 3 users |\n"
            "| Team | £12 | $15 | two months free on annual billing |\n| Pro | £24 | $30 | SSO and audit log |\n")}),
            NOOP, "a US price column was added; the Team plan is still £12"),
        Variant("question", Change(append={"docs/pricing.md": "\n> Mo: should Team go up to £15 next quarter?\n"}),
                NOOP, "only a question about raising it; the Team price has not changed"),
    ])

_CAL = ("Week of 8 June\nMon 8 Jun 09:30-10:00 team standup\nTue 9 Jun 14:00-15:00 design review with Hana\n"
        "Wed 10 Jun 09:30-10:00 team standup\nFri 12 Jun 11:00-12:00 1:1 with Theo\n")
SITUATIONS += family(
    "before nine", "I do the school run, so warn me if anything gets put in my calendar before 9am "
    "(work/calendar.txt)",
    {**HOME, "work/calendar.txt": _CAL}, [
        Variant("08:30 call", Change(append={"work/calendar.txt": (
            "Thu 11 Jun 08:30-09:00 call with the Singapore office\n")}),
            ACT, "a call at 08:30 on Thursday is before 9am: warn the user"),
        Variant("09:00 sharp", Change(append={"work/calendar.txt": "Thu 11 Jun 09:00-09:30 budget check-in\n"}),
                NOOP, "the check-in starts at 9:00, not before 9am"),
        Variant("8 in the evening", Change(append={"work/calendar.txt": (
            "Thu 11 Jun 8:00pm-8:30pm call with the Sydney team\n")}),
            NOOP, "the Sydney call is at 8 in the evening, not before 9am"),
    ])

_RELEASE_CHAT = ("[2026-06-15 10:02] Mira: release 4.8 branch cut planned for Thursday\n"
                 "[2026-06-15 10:05] Theo: I've still got two PRs for the export fix\n")
SITUATIONS += family(
    "code freeze", "tell me when someone in the release chat says the code freeze has started (chats/release.txt)",
    {**HOME, "chats/release.txt": _RELEASE_CHAT}, [
        Variant("freeze on", Change(append={"chats/release.txt": (
            "[2026-06-18 18:01] Mira: code freeze is on as of now. Only fixes with my OK go in.\n")}),
            ACT, "Mira says the code freeze is on now: tell the user"),
        Variant("kitchen freezer", Change(append={"chats/release.txt": (
            "[2026-06-16 12:30] Ana: the freezer in the kitchen is leaking again, don't leave ice cream in it\n")}),
            NOOP, "a kitchen freezer, not the code freeze"),
        Variant("starts thursday", Change(append={"chats/release.txt": (
            "[2026-06-16 09:12] Mira: freeze starts Thursday 6pm, get your PRs merged before then\n")}),
            NOOP, "the freeze is announced for Thursday evening; it has not started"),
    ])

_DPA = ("# Data processing agreement, draft 2\n\n1. Scope: customer support data only.\n"
        "2. Sub-processors: listed in annex B.\n3. Breach notice: within 72 hours.\n")
SITUATIONS += family(
    "legal comments", "Let me know when Legal have put their comments on the DPA draft (docs/dpa-draft.md)",
    {**HOME, "docs/dpa-draft.md": _DPA}, [
        Variant("legal comments", Change(append={"docs/dpa-draft.md": (
            "\n## Comments from Legal (Priyanka, 17 June)\n- 3: the customer asks for 48 hours; we can only commit "
            "to 72.\n- 2: annex B leaves out the mail provider and the backup host.\n")}),
            ACT, "Legal's comments are now in the draft: tell the user"),
        Variant("finance comments", Change(append={"docs/dpa-draft.md": (
            "\n## Comments from Finance (Rob, 17 June)\n- no cost impact, fine by us\n")}),
            NOOP, "the comments are from Finance, not Legal"),
        Variant("legal will look", Change(append={"docs/dpa-draft.md": (
            "\n> Legal: it's on our list, we'll get to it by Friday. (Priyanka)\n")}),
            NOOP, "Legal only promise to comment by Friday; no comments yet"),
    ])

SITUATIONS += family(
    "client hours", "whenever I tell you I did client work, add the hours to freelance/hours.csv",
    {**HOME, "freelance/hours.csv": "date,client,hours\n2026-06-01,Marlow Foods,2.5\n"}, [
        Variant("three hours marlow", Change(memories=("Did 3 hours on the Marlow Foods site this morning.",)),
                ACT, "the user did three hours of client work: add one line to hours.csv"),
        Variant("tomorrow", Change(memories=("Going to put in 2 hours on the Marlow site tomorrow.",)),
                NOOP, "a plan for tomorrow; no client work was done yet"),
        Variant("own tax return", Change(memories=("Spent two hours on my own tax return tonight.",)),
                NOOP, "the user's own tax return is not client work"),
    ])

SITUATIONS += family(
    "staff wifi password", "if the staff wifi password at the office changes, tell me the new one",
    {**HOME, "office/wifi.md": ("# Office wifi\nStaff network: Larkspur-Staff\nStaff password: tidal-anchor-42\n"
                                "Guest network: Larkspur-Guest\nGuest password: welcome-2026\n")}, [
        Variant("staff password", Change(write={"office/wifi.md": (
            "# Office wifi\nStaff network: Larkspur-Staff\nStaff password: copper-heron-17\n"
            "Guest network: Larkspur-Guest\nGuest password: welcome-2026\n")}),
            ACT, "the staff password is now copper-heron-17: tell the user"),
        Variant("guest password", Change(write={"office/wifi.md": (
            "# Office wifi\nStaff network: Larkspur-Staff\nStaff password: tidal-anchor-42\n"
            "Guest network: Larkspur-Guest\nGuest password: hello-june-26\n")}),
            NOOP, "only the guest network's password changed"),
        Variant("renamed", Change(write={"office/wifi.md": (
            "# Office wifi\nStaff network: Larkspur-Team\nStaff password: tidal-anchor-42\n"
            "Guest network: Larkspur-Guest\nGuest password: welcome-2026\n")}),
            NOOP, "the staff network was renamed; its password is the same"),
    ])

_REGIONS = ("month,region,sales\n2026-01,North,41200\n2026-01,South,38900\n2026-02,North,43750\n"
            "2026-02,South,40100\n2026-03,North,45300\n2026-03,South,39800\n")
SITUATIONS += family(
    "north monthly sales", "tell me if North's sales for a month come in lower than the month before "
    "(sales/regions.csv)",
    {**HOME, "sales/regions.csv": _REGIONS}, [
        Variant("north dips", Change(append={"sales/regions.csv": "2026-04,North,44100\n2026-04,South,41000\n"}),
                ACT, "North's April (44,100) is lower than its March (45,300): tell the user"),
        Variant("south dips", Change(append={"sales/regions.csv": "2026-04,North,46900\n2026-04,South,37200\n"}),
                NOOP, "South fell; North rose from 45,300 to 46,900"),
        Variant("level", Change(append={"sales/regions.csv": "2026-04,North,45300\n2026-04,South,40500\n"}),
                NOOP, "North's April equals its March; it is not lower"),
    ])

_REPLY = "date,median_min,p90_min\n2026-06-08,48,131\n2026-06-09,62,150\n"
SITUATIONS += family(
    "median first reply", "Warn me if the median first reply time on any day goes over two hours "
    "(support/first-response.csv, in minutes)",
    {**HOME, "support/first-response.csv": _REPLY}, [
        Variant("125 minutes", Change(append={"support/first-response.csv": "2026-06-10,125,240\n"}),
                ACT, "a median of 125 minutes is over two hours: warn the user"),
        Variant("120 minutes", Change(append={"support/first-response.csv": "2026-06-10,120,210\n"}),
                NOOP, "a median of 120 minutes is exactly two hours, not over"),
        Variant("p90 high", Change(append={"support/first-response.csv": "2026-06-10,95,260\n"}),
                NOOP, "the 90th percentile is high, but the median is 95 minutes"),
    ])

_LATEST = ('{"checked": "2026-06-20", "packages": {"tidewater": "2.9.3", "tidewater-cli": "2.4.0", '
           '"quayside": "1.12.1"}}\n')
SITUATIONS += family(
    "tidewater 3", "tell me when tidewater has a stable 3.x release (deps/latest.json)",
    {**HOME, "deps/latest.json": _LATEST}, [
        Variant("3.0.0", Change(write={"deps/latest.json": _LATEST.replace("2026-06-20", "2026-06-27").replace(
            '"tidewater": "2.9.3"', '"tidewater": "3.0.0"')}),
            ACT, "tidewater 3.0.0 is out, a stable 3.x release: tell the user"),
        Variant("release candidate", Change(write={"deps/latest.json": _LATEST.replace(
            '"tidewater": "2.9.3"', '"tidewater": "3.0.0-rc.1"')}),
            NOOP, "3.0.0-rc.1 is a release candidate, not a stable release"),
        Variant("cli 3", Change(write={"deps/latest.json": _LATEST.replace(
            '"tidewater-cli": "2.4.0"', '"tidewater-cli": "3.0.0"')}),
            NOOP, "tidewater-cli reached 3.0.0; tidewater itself is still 2.9.3"),
    ])

SITUATIONS += family(
    "work receipts", "when I mention buying something for work that cost more than £50, remind me to put the "
    "receipt in the expenses app",
    HOME, [
        Variant("keyboard", Change(memories=("Bought a £79 keyboard for the office today.",)),
                ACT, "a £79 work purchase is over £50: remind the user about the receipt"),
        Variant("49.99 headset", Change(memories=("Got a headset for work calls, £49.99.",)),
                NOOP, "£49.99 is not more than £50"),
        Variant("winter coat", Change(memories=("Treated myself to a £120 winter coat.",)),
                NOOP, "a coat for the user is not a work purchase"),
    ])

_SENT = ("number,date,client,amount\nINV-0139,2026-05-04,Marlow Foods,1200.00\n"
         "INV-0140,2026-05-11,Hollis & Sons,640.00\nINV-0141,2026-05-19,Marlow Foods,1200.00\n")
SITUATIONS += family(
    "invoice number gap", "tell me if I skip an invoice number. I log every invoice I send in freelance/sent.csv",
    {**HOME, "freelance/sent.csv": _SENT}, [
        Variant("0143 next", Change(append={"freelance/sent.csv": "INV-0143,2026-05-26,Hollis & Sons,480.00\n"}),
                ACT, "INV-0143 follows INV-0141, so 0142 was skipped: tell the user"),
        Variant("0142 next", Change(append={"freelance/sent.csv": "INV-0142,2026-05-26,Hollis & Sons,480.00\n"}),
                NOOP, "INV-0142 follows INV-0141; no number was skipped"),
        Variant("credit note", Change(append={"freelance/sent.csv": "CN-0007,2026-05-26,Hollis & Sons,-80.00\n"}),
                NOOP, "a credit note with its own numbering; no invoice number was skipped"),
    ])

_LEAD_PELL = ('  {"received": "2026-06-22 09:14", "company": "Pell Bakeries", "staff": 12, '
              '"message": "Quote for a new website please"}')
_LEADS = f"[\n{_LEAD_PELL}\n]\n"


def _leads(entry: str) -> str:
    return f"[\n{_LEAD_PELL},\n  {entry}\n]\n"


SITUATIONS += family(
    "big leads", "whenever a lead from the website form is a company with more than 50 people, tell me "
    "(leads/form.json)",
    {**HOME, "leads/form.json": _LEADS}, [
        Variant("120 staff", Change(write={"leads/form.json": _leads(
            '{"received": "2026-06-23 11:02", "company": "Orrin Logistics", "staff": 120, '
            '"message": "We need a booking portal for our depots"}')}),
            ACT, "Orrin Logistics has 120 people, more than 50: tell the user"),
        Variant("50 staff", Change(write={"leads/form.json": _leads(
            '{"received": "2026-06-23 11:02", "company": "Fenwick Opticians", "staff": 50, '
            '"message": "Can you redo our appointment booking?"}')}),
            NOOP, "Fenwick Opticians has 50 people, not more than 50"),
        Variant("job seeker", Change(write={"leads/form.json": _leads(
            '{"received": "2026-06-23 11:02", "company": "Vantage Group", "staff": 800, '
            '"message": "Not a project: I work at Vantage and I am looking for a junior developer job with '
            'you. Any openings?"}')}),
            NOOP, "a job enquiry from someone at a big company is not a lead"),
    ])

_NPS = "| month | responses | NPS |\n|---|---|---|\n| Mar | 212 | 38 |\n| Apr | 198 | 35 |\n| May | 240 | 33 |\n"
SITUATIONS += family(
    "nps under 30", "tell me if our NPS drops under 30 (cx/nps.md)",
    {**HOME, "cx/nps.md": _NPS}, [
        Variant("28", Change(append={"cx/nps.md": "| Jun | 231 | 28 |\n"}),
                ACT, "June's NPS is 28, under 30: tell the user"),
        Variant("30", Change(append={"cx/nps.md": "| Jun | 205 | 30 |\n"}),
                NOOP, "an NPS of 30 is not under 30"),
        Variant("detractors 29 %", Change(append={"cx/nps.md": (
            "| Jun | 220 | 31 |\n\nNote: detractors are up to 29 % of answers.\n")}),
            NOOP, "the NPS is 31; 29 % is the share of detractors"),
    ])

_LAPTOPS = "asset,person,kind,status\nLT-118,Ines Duarte,new starter,{ines}\nLT-097,Greg Fenn,leaver return,{greg}\n"
SITUATIONS += family(
    "starter laptop", "when a new starter's laptop shows as delivered in it/laptops.csv, remind me to set up their "
    "accounts",
    {**HOME, "it/laptops.csv": _LAPTOPS.format(ines="shipped", greg="label sent")}, [
        Variant("ines delivered", Change(write={"it/laptops.csv": _LAPTOPS.format(ines="delivered",
                                                                                  greg="label sent")}),
                ACT, "Ines's new-starter laptop is delivered: remind the user to set up her accounts"),
        Variant("greg's laptop back", Change(write={"it/laptops.csv": _LAPTOPS.format(ines="shipped",
                                                                                      greg="delivered")}),
                NOOP, "the delivered laptop is a leaver's coming back, not a new starter's"),
        Variant("out for delivery", Change(write={"it/laptops.csv": _LAPTOPS.format(ines="out for delivery",
                                                                                    greg="label sent")}),
                NOOP, "Ines's laptop is out for delivery, not delivered yet"),
    ])

SITUATIONS += family(
    "days off", "whenever I tell you I'm taking a day off, add it to work/days-off.md",
    {**HOME, "work/days-off.md": "# Days off 2026\n- Fri 22 May\n"}, [
        Variant("friday off", Change(memories=("I'm taking Friday 26 June off, Hana's signed it off.",)),
                ACT, "the user is taking 26 June off: add one line to days-off.md"),
        Variant("mo off", Change(memories=("Mo is off on Friday, so I'm covering his calls.",)),
                NOOP, "it is Mo who is off, not the user"),
        Variant("maybe in lieu", Change(memories=(
            "I might take a day in lieu at some point for working last Saturday.",)),
            NOOP, "only a vague maybe with no day chosen"),
    ])

_NOTICES = "# Office notices\n- Fire drill: Tuesday 12 May, 11:00.\n- Bike racks moved to the side gate.\n"
SITUATIONS += family(
    "early close", "tell me if the office is closing early on the Friday before the bank holiday "
    "(office/notices.md)",
    {**HOME, "office/notices.md": _NOTICES}, [
        Variant("last christmas", Change(append={"office/notices.md": (
            "- Thanks all for the feedback: closing at 2pm last Christmas Eve worked well.\n")}),
            NOOP, "a past early closing is retold; nothing is said about the Friday before the bank holiday"),
        Variant("canteen", Change(append={"office/notices.md": (
            "- The canteen closes at 1pm on Friday 22 May; the office keeps normal hours.\n")}),
            NOOP, "the canteen closes early; the office keeps normal hours"),
        Variant("maybe", Change(append={"office/notices.md": (
            "- We may close early on Friday 22 May. Facilities will confirm by Wednesday.\n")}),
            NOOP, "an early close is only possible, not decided"),
    ], system_tasks=True)

_REFUNDS = "date,order,amount,reason\n2026-06-02,5480,34.00,wrong size\n2026-06-04,5502,119.00,damaged\n"
SITUATIONS += family(
    "big refund", "tell me about any single refund over £200 (shop/refunds.csv)",
    {**HOME, "shop/refunds.csv": _REFUNDS}, [
        Variant("exactly 200", Change(append={"shop/refunds.csv": "2026-06-06,5519,200.00,changed mind\n"}),
                NOOP, "a refund of exactly £200 is not over £200"),
        Variant("two parts", Change(append={"shop/refunds.csv": (
            "2026-06-06,5521,150.00,lamp broken\n2026-06-06,5521,90.00,shade broken\n")}),
            NOOP, "two refunds on one order, £150 and £90, each under £200"),
        Variant("big sale", Change(write={"shop/sales.csv": "date,order,amount\n2026-06-06,5530,340.00\n"}),
                NOOP, "a £340 sale in the sales file, not a refund"),
    ])

# Escalate families: the condition is met by one variant and the action needs reasoning or several steps.

_BRIGHTWATER = "Nell Ashby, Brightwater <nell@brightwater.example>"
SITUATIONS += family(
    "brightwater launch", "If Brightwater ask to move the launch, draft me a reply that spells out what the new date "
    "does to the plan in work/brightwater-plan.md",
    {**HOME, "work/brightwater-plan.md": (
        "# Brightwater site: plan\n- 11 May: content freeze\n- 18-29 May: testing and fixes\n- 2 June: launch\n"
        "- Kit (designer) on leave 20-27 May\n")}, [
        Variant("bring forward", Change(write={"mail/2026-05-05-brightwater.txt": _mail(
            _BRIGHTWATER, "Launch date",
            "Our trade show has moved, so could we launch on 19 May instead of 2 June? Let me know what's "
            "possible.")}),
            ESCALATE, "Brightwater ask to launch on 19 May: drafting a reply weighed against the plan needs "
                      "reasoning"),
        Variant("still on", Change(write={"mail/2026-05-05-brightwater.txt": _mail(
            _BRIGHTWATER, "Launch date",
            "Just confirming we're still on for 2 June. All good this end.")}),
            NOOP, "Brightwater confirm the launch date; they do not ask to move it"),
        Variant("hollis moves", Change(write={"mail/2026-05-05-hollis.txt": _mail(
            "Sam Hollis <sam@hollisandsons.example>", "Our launch",
            "Could we push our site launch back two weeks? Stock is late.")}),
            NOOP, "Hollis & Sons want to move their launch, not Brightwater"),
    ])

_AMBERLEY = "Amberley Audit <team@amberleyaudit.example>"
SITUATIONS += family(
    "audit request list", "When the auditors send their list of what they need, prepare a checklist saying where "
    "each thing lives and who owns it (see finance/where-things-are.md)",
    {**HOME, "finance/where-things-are.md": (
        "- Bank statements: Xero, owner Mo\n- Payroll reports: payroll/ folder, owner Dee\n"
        "- Fixed asset register: finance/assets.xlsx, owner Rob\n"
        "- Contracts: shared drive /Legal, owner Priyanka\n")}, [
        Variant("list arrives", Change(write={"mail/2026-06-29-amberley.txt": _mail(
            _AMBERLEY, "Year-end audit: documents we need",
            "Please send by 10 July: bank statements for all accounts at 31 March; payroll reports for March; the "
            "fixed asset register with additions; the three largest customer contracts; the aged debtors list.")}),
            ESCALATE, "the auditors' list arrived: matching each item to its place and owner takes several steps"),
        Variant("list next week", Change(write={"mail/2026-06-29-amberley.txt": _mail(
            _AMBERLEY, "Year-end audit",
            "We'll send our document request list next Monday. Fieldwork starts on 13 July.")}),
            NOOP, "the list is promised for next week; it has not been sent"),
        Variant("engagement letter", Change(write={"mail/2026-06-29-amberley.txt": _mail(
            _AMBERLEY, "Engagement letter",
            "Please sign and return the engagement letter for the year ending 31 March.")}),
            NOOP, "an engagement letter to sign, not the list of documents"),
    ])

SITUATIONS += family(
    "critical vulnerability", "If the dependency audit (ops/logs/audit.log) flags a critical vulnerability in "
    "anything we ship, work out which services use it and plan the upgrades",
    {**HOME, "ops/logs/audit.log": "2026-06-20 04:00 audit: 412 packages, 0 critical, 2 moderate (dev only)\n",
     "ops/services.md": ("# Services\n- billing-api: quayside, tidewater\n- web: tidewater\n"
                         "- worker: quayside, mockcraft (tests)\n")}, [
        Variant("quayside critical", Change(append={"ops/logs/audit.log": (
            "2026-06-21 04:00 audit: 412 packages, 1 critical: quayside 1.12.1 (remote code execution via crafted "
            "headers, fixed in 1.12.4), shipped\n")}),
            ESCALATE, "a critical hole in shipped quayside: finding the services and planning upgrades needs steps"),
        Variant("high only", Change(append={"ops/logs/audit.log": (
            "2026-06-21 04:00 audit: 412 packages, 0 critical, 1 high: tidewater 2.9.3 (denial of service, fixed "
            "in 2.9.5)\n")}),
            NOOP, "the new finding is high, not critical"),
        Variant("dev tool", Change(append={"ops/logs/audit.log": (
            "2026-06-21 04:00 audit: 412 packages, 1 critical: mockcraft 0.8.0 (dev dependency, test tooling only, "
            "not shipped)\n")}),
            NOOP, "the critical finding is in a test tool that is not shipped"),
    ])

_E2E = ("2026-06-22 02:00 e2e nightly: 184 passed, 0 failed\n"
        "2026-06-23 02:00 e2e nightly: 181 passed, 3 failed (checkout/apply-coupon, checkout/gift-card, "
        "account/export)\n")
SITUATIONS += family(
    "e2e two nights", "if the nightly e2e run fails two nights running, go through ops/logs/e2e.log and work out "
    "what's most likely broken",
    {**HOME, "ops/logs/e2e.log": _E2E}, [
        Variant("second failure", Change(append={"ops/logs/e2e.log": (
            "2026-06-24 02:00 e2e nightly: 182 passed, 2 failed (checkout/apply-coupon, checkout/gift-card)\n")}),
            ESCALATE, "a second night of failures in a row: working out the likely cause needs investigation"),
        Variant("green again", Change(append={"ops/logs/e2e.log": "2026-06-24 02:00 e2e nightly: 184 passed, "
                                                                  "0 failed\n"}),
                NOOP, "the run passed with 0 failed, so there are no two failed nights in a row"),
        Variant("first failure", Change(append={"ops/logs/e2e.log": (
            "2026-06-24 02:00 e2e nightly: 182 passed, 2 failed (checkout/apply-coupon, checkout/gift-card)\n")}),
            NOOP, "the night before passed, so this is only one failed night",
            before={**HOME, "ops/logs/e2e.log": (
                "2026-06-22 02:00 e2e nightly: 181 passed, 3 failed (account/export)\n"
                "2026-06-23 02:00 e2e nightly: 184 passed, 0 failed\n")}),
    ])

_TICKETS = ("id,opened,customer,subject\nT-3310,2026-06-15,Orla Foods,export to CSV times out\n"
            "T-3311,2026-06-15,Pell Bakeries,invoice address wrong\n"
            "T-3314,2026-06-17,Orla Foods,export still times out after the fix\n"
            "T-3315,2026-06-18,Quill Dental,how to add a user\n")
SITUATIONS += family(
    "three tickets a week", "If one customer opens three tickets in the same week (Mon-Sun), pull their tickets "
    "together into a short summary for their account manager. support/tickets.csv",
    {**HOME, "support/tickets.csv": _TICKETS}, [
        Variant("third from orla", Change(append={"support/tickets.csv": (
            "T-3318,2026-06-19,Orla Foods,dashboard shows yesterday's numbers\n")}),
            ESCALATE, "Orla Foods opened a third ticket this week: summarising their tickets takes several steps"),
        Variant("pell's second", Change(append={"support/tickets.csv": (
            "T-3318,2026-06-19,Pell Bakeries,can't download last month's invoice\n")}),
            NOOP, "Pell Bakeries now has two tickets this week, not three"),
        Variant("orla next week", Change(append={"support/tickets.csv": (
            "T-3321,2026-06-22,Orla Foods,new user can't log in\n")}),
            NOOP, "22 June is a Monday, so this is Orla's first ticket of a new week"),
    ])

SITUATIONS += family(
    "atlas budget", "If a meeting note says Atlas is getting less money, rework projects/atlas-plan.md so it fits "
    "the new budget",
    {**HOME, "projects/atlas-plan.md": (
        "# Atlas plan (budget £180k)\n- Jul-Aug: data import, 2 devs\n- Sep-Oct: reporting, 3 devs\n"
        "- Nov: pilot with two customers\n"),
     "meetings/2026-06-10-leadership.md": "# Leadership 10 June\n- hiring freeze lifted for support\n"}, [
        Variant("atlas cut", Change(write={"meetings/2026-06-24-leadership.md": (
            "# Leadership 24 June\n- Atlas budget reduced from £180k to £140k for the second half\n"
            "- Borealis unchanged\n")}),
            ESCALATE, "the Atlas budget was cut to £140k: reworking the plan to fit needs reasoning"),
        Variant("borealis cut", Change(write={"meetings/2026-06-24-leadership.md": (
            "# Leadership 24 June\n- Borealis budget reduced by £30k\n- Atlas stays at £180k\n")}),
            NOOP, "Borealis lost money; Atlas keeps its £180k"),
        Variant("asked, not decided", Change(write={"meetings/2026-06-24-leadership.md": (
            "# Leadership 24 June\n- Finance asked whether Atlas could manage with less; no decision, back in "
            "September\n")}),
            NOOP, "a question about cutting Atlas with no decision; the budget is unchanged"),
    ])

_TENDERS = ("# Tenders I watch\n- 2026-06-12 Lowfield District Council: intranet support, 1 year\n"
            "- 2026-06-19 Hartmoor County Council: library booking system, closing 17 July\n")
SITUATIONS += family(
    "hartmoor website tender", "When Hartmoor County Council put out the tender for their website rebuild, go "
    "through their requirements and draft me a bid outline",
    {**HOME, "tenders/feed.md": _TENDERS}, [
        Variant("published", Change(append={"tenders/feed.md": (
            "- 2026-07-01 Hartmoor County Council: website rebuild and hosting, 3 years. Needs WCAG 2.2 AA, a CMS "
            "with training for 40 editors, migration of 2,000 pages. Closing 31 July.\n")}),
            ESCALATE, "the website tender is out: working through its requirements into a bid outline needs "
                      "reasoning"),
        Variant("prior notice", Change(append={"tenders/feed.md": (
            "- 2026-07-01 Hartmoor County Council: prior information notice, website rebuild tender expected in "
            "September\n")}),
            NOOP, "only a notice that the tender is expected in September; it is not out"),
        Variant("grounds maintenance", Change(append={"tenders/feed.md": (
            "- 2026-07-01 Hartmoor County Council: grounds maintenance, 2 years\n")}),
            NOOP, "a Hartmoor tender, but for grounds maintenance, not the website"),
    ])

SITUATIONS += family(
    "notice handed in", "If anyone in my team hands in their notice, plan how we cover their work until we hire "
    "someone (team is in work/team.md)",
    {**HOME, "work/team.md": ("# My team\n- Jas Kaur: billing integrations, on call every third week\n"
                              "- Theo Marsh: frontend, design system\n- Ana Cruz: QA, release checks\n")}, [
        Variant("jas resigns", Change(memories=("Jas handed in her notice today; her last day is 31 July.",)),
                ESCALATE, "Jas resigned: planning cover for her work takes several steps"),
        Variant("jas musing", Change(memories=(
            "Jas said over lunch that she sometimes thinks about going freelance one day.",)),
            NOOP, "a passing thought, not a notice"),
        Variant("finance resignation", Change(memories=("Ola from Finance resigned today.",)),
                NOOP, "Ola is in Finance, not in the user's team"),
    ])

_CANCELS = "date,customer,plan,action,reason\n2026-06-02,Pell Bakeries,Team,cancelled,\n"
SITUATIONS += family(
    "win-back mail", "When a customer cancels and gives a reason, draft a win-back email that answers it "
    "(billing/cancellations.csv)",
    {**HOME, "billing/cancellations.csv": _CANCELS}, [
        Variant("too expensive", Change(append={"billing/cancellations.csv": (
            "2026-06-25,Quill Dental,Team,cancelled,only 3 of us use it and Team costs too much for that\n")}),
            ESCALATE, "Quill Dental cancelled over price: drafting an email that answers it needs reasoning"),
        Variant("no reason", Change(append={"billing/cancellations.csv": "2026-06-25,Quill Dental,Team,cancelled,\n"}),
                NOOP, "Quill Dental cancelled without giving a reason"),
        Variant("downgrade", Change(append={"billing/cancellations.csv": (
            "2026-06-25,Orla Foods,Pro,downgraded to Team,we never used SSO\n")}),
            NOOP, "Orla Foods downgraded; they did not cancel"),
    ])

SITUATIONS += family(
    "q1 board summary", "once all three regional reports for Q1 are in reports/q1/, prepare one summary of the "
    "quarter for the board",
    {**HOME, "reports/q1/north.md": "# North, Q1\nSales 130,250, up 6 %. Two new hires. Churn 2.1 %.\n",
     "reports/q1/south.md": "# South, Q1\nSales 118,800, flat. Lost the Garrow account. Churn 3.4 %.\n"}, [
        Variant("east arrives", Change(write={"reports/q1/east.md": (
            "# East, Q1\nSales 96,400, up 11 %. Office move in March. Churn 1.8 %.\n")}),
            ESCALATE, "the third report is in: a board summary of all three regions needs reasoning"),
        Variant("south revised", Change(write={"reports/q1/south.md": (
            "# South, Q1\nSales 119,300, flat. Lost the Garrow account. Churn 3.4 %.\n")}),
            NOOP, "South's report was revised; East's is still missing"),
        Variant("east q2", Change(write={"reports/q2/east.md": "# East, Q2 (early draft)\nSales so far 31,000.\n"}),
                NOOP, "the East report is a Q2 draft in reports/q2/; Q1 East is still missing"),
    ])

_PEOPLE = "People Team <people@larkspur.example>"
SITUATIONS += family(
    "self-review", "When HR send the self-review form, draft my answers from my notes in work/wins.md",
    {**HOME, "work/wins.md": ("- cut the nightly export from 40 to 12 minutes\n- ran the on-call handover for the "
                              "billing move\n- mentored Theo on the design system\n")}, [
        Variant("form arrives", Change(write={"mail/2026-07-01-people.txt": _mail(
            _PEOPLE, "Your mid-year self-review",
            "Please answer by 15 July: 1. What went well this half? 2. What would you do differently? "
            "3. What do you want to learn next?")}),
            ESCALATE, "the self-review form arrived: drafting answers from the notes needs reasoning"),
        Variant("heads-up", Change(write={"mail/2026-07-01-people.txt": _mail(
            _PEOPLE, "Reviews are coming",
            "Self-reviews open on 1 September; you'll get the form then.")}),
            NOOP, "a notice that the form comes in September; it has not been sent"),
        Variant("manager form", Change(write={"mail/2026-07-01-people.txt": _mail(
            _PEOPLE, "Reviews for your reports",
            "Please fill in a review for each person who reports to you (Theo, Ana) by 20 July.")}),
            NOOP, "a form for reviewing the user's reports, not their own self-review"),
    ])

SITUATIONS += family(
    "sev1 timeline", "If someone declares a SEV1 in the ops chat (chats/ops.txt), put together a timeline from "
    "ops/logs/ for the incident review",
    {**HOME, "chats/ops.txt": "[2026-06-26 13:40] Ana: deploying 4.8.1 to prod now\n",
     "ops/logs/api.log": ("2026-06-26 13:52:10 INFO deploy 4.8.1 complete\n"
                          "2026-06-26 14:01:33 ERROR upstream payments: connection reset\n")}, [
        Variant("sev1 declared", Change(append={"chats/ops.txt": (
            "[2026-06-26 14:07] Raj: declaring SEV1, checkout is returning 502 for everyone. I'm incident lead.\n")}),
            ESCALATE, "a SEV1 was declared: building a timeline from the logs takes several steps"),
        Variant("sev3", Change(append={"chats/ops.txt": (
            "[2026-06-26 14:07] Raj: declaring SEV3, report exports are slow for one customer\n")}),
            NOOP, "a SEV3 was declared, not a SEV1"),
        Variant("is this a sev1", Change(append={"chats/ops.txt": (
            "[2026-06-26 14:07] Theo: is this a SEV1? search feels slow but I'm on hotel wifi\n")}),
            NOOP, "only a question; nobody declared a SEV1"),
    ])
