"""The held-out labelled set no. 15 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families appear neither
there nor in the earlier held-out sets. Each family is one top-level statement, so the set grows by appending.
Many variants are near misses: the watched thing changes but the condition is not met (another person, another
date, the wrong side of a threshold, a forecast or a promise instead of a fact, a different item in the same list).
Several families hold only near misses. The text is the project's own.
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


_CELLAR = ("time,temp_c,humidity_pct\n2026-10-13 18:00,12.8,64.2\n2026-10-14 00:00,12.5,66.0\n"
           "2026-10-14 03:00,12.4,67.3\n")
SITUATIONS += family(
    "cellar humidity", "tell me if the cellar humidity goes over 70%, the damp surveyor said that's when mould gets "
    "going (home/cellar-sensor.csv)",
    {**HOME, "home/cellar-sensor.csv": _CELLAR}, [
        Variant("over 70", Change(append={"home/cellar-sensor.csv": "2026-10-14 06:00,12.1,72.4\n"}),
                ACT, "the cellar reads 72.4 % humidity, over 70 %: tell the user"),
        Variant("exactly 70", Change(append={"home/cellar-sensor.csv": "2026-10-14 06:00,12.3,70.0\n"}),
                NOOP, "70.0 % is not over 70 %"),
        Variant("loft sensor", Change(write={"home/loft-sensor.csv": (
            "time,temp_c,humidity_pct\n2026-10-14 06:00,9.6,78.1\n")}),
            NOOP, "the 78 % reading is from the loft sensor, not the cellar"),
    ])

_ACCOUNT = ("date,description,amount\n2026-05-11,TESCO STORES 2291,-46.18\n2026-05-12,SALARY NORTHWIND LTD,2310.55\n"
            "2026-05-14,RENT 14B ORCHARD RD,-975.00\n")
SITUATIONS += family(
    "carver st deposit", "let me know when my deposit from the old flat on Carver Street comes back. it's £1,150 "
    "(money/current-account.csv)",
    {**HOME, "money/current-account.csv": _ACCOUNT}, [
        Variant("deposit in", Change(append={
            "money/current-account.csv": "2026-05-20,DPS DEPOSIT RETURN 7 CARVER ST,1150.00\n"}),
            ACT, "the deposit for Carver Street has been paid back: tell the user"),
        Variant("promise", Change(write={"inbox/2026-05-19-harlow-lettings.txt": _mail(
            "Harlow Lettings <lettings@harlow.example>", "7 Carver Street check-out",
            "The check-out report is clean and we have approved the return of your full deposit. You should receive "
            "it within 10 working days.")}),
            NOOP, "the agent promises the deposit; it has not come back yet"),
        Variant("same amount, other payer", Change(append={
            "money/current-account.csv": "2026-05-20,HMRC TAX REFUND,1150.00\n"}),
            NOOP, "a credit of the same amount came from HMRC, not the deposit scheme"),
    ])

_HV = "Riverside Health Visiting Team <hv.riverside@nhs.example>"
SITUATIONS += family(
    "noah's jabs", "When the health visitors send a date for Noah's one-year jabs, put it in family/calendar.md",
    {**HOME, "family/calendar.md": "# Family calendar\n- Sat 6 June: Nana's 70th, lunch at the Swan\n"
                                   "- Tue 16 June: Isla's preschool sports morning\n"}, [
        Variant("date sent", Change(write={"inbox/2026-06-03-health-visitors.txt": _mail(
            _HV, "Noah Adeyemi: 12 month immunisations",
            "Noah is due his one-year immunisations. We have booked him in on Thursday 25 June at 10:40 at Riverside "
            "Health Centre. Please bring his red book.")}),
            ACT, "a date for Noah's jabs arrived: add one line to the calendar"),
        Variant("isla's booster", Change(write={"inbox/2026-06-03-health-visitors.txt": _mail(
            _HV, "Isla Adeyemi: preschool booster",
            "Isla is due her preschool booster. We have booked her in on Thursday 25 June at 10:20 at Riverside "
            "Health Centre.")}),
            NOOP, "the appointment is Isla's booster, not Noah's jabs"),
        Variant("we'll write", Change(write={"inbox/2026-06-03-health-visitors.txt": _mail(
            _HV, "Noah's first birthday review",
            "Noah's one-year review and immunisations will be arranged nearer the time. We will write to you with an "
            "appointment.")}),
            NOOP, "the team will send a date later; none is given yet"),
    ])

_PLANNING = ("# Planning applications, Westfield ward, week to 8 May\n\n"
             "- 26/0398 | 41 Beech Avenue | single-storey side extension | received\n"
             "- 26/0412 | 9 Hazel Grove | loft conversion with rear dormer | received\n")
SITUATIONS += family(
    "hazel grove planning", "If anyone on Hazel Grove puts in a planning application, give me a one-line summary of "
    "what they want to build (feeds/planning-weekly.md)",
    {**HOME, "feeds/planning-weekly.md": _PLANNING}, [
        Variant("new on hazel grove", Change(append={"feeds/planning-weekly.md": (
            "- 26/0431 | 22 Hazel Grove | two-storey rear extension and removal of the garage | received\n")}),
            ACT, "a new application for 22 Hazel Grove was listed: summarise it in one line"),
        Variant("hazel road", Change(append={"feeds/planning-weekly.md": (
            "- 26/0431 | 5 Hazel Road | two-storey rear extension | received\n")}),
            NOOP, "the application is on Hazel Road, not Hazel Grove"),
        Variant("decision on old one", Change(append={"feeds/planning-weekly.md": (
            "- 26/0412 | 9 Hazel Grove | loft conversion with rear dormer | granted with conditions\n")}),
            NOOP, "a decision on the application already listed; nobody applied anew"),
    ])

_LEAK = ("2026-02-09 06:00:02 sensor=kitchen-sink state=DRY battery=88%\n"
         "2026-02-09 06:00:03 sensor=bathroom state=DRY battery=91%\n")
SITUATIONS += family(
    "kitchen leak sensor", "ping me straight away if the leak sensor under the kitchen sink ever says WET "
    "(ops/logs/leak-sensors.log)",
    {**HOME, "ops/logs/leak-sensors.log": _LEAK}, [
        Variant("kitchen wet", Change(append={
            "ops/logs/leak-sensors.log": "2026-02-09 11:47:31 sensor=kitchen-sink state=WET battery=88%\n"}),
            ACT, "the kitchen sink sensor says WET: tell the user now"),
        Variant("bathroom wet", Change(append={
            "ops/logs/leak-sensors.log": "2026-02-09 11:47:31 sensor=bathroom state=WET battery=91%\n"}),
            NOOP, "the bathroom sensor is wet, not the one under the kitchen sink"),
        Variant("low battery", Change(append={
            "ops/logs/leak-sensors.log": "2026-02-09 12:00:02 sensor=kitchen-sink state=DRY battery=9% LOW\n"}),
            NOOP, "the kitchen sensor still says DRY; only its battery is low"),
    ])

_MEETUP = "Northern Data Meetup <talks@northerndata.example>"
SITUATIONS += family(
    "meetup talk", "If the Northern Data meetup accepts my talk on taming messy spreadsheets, draft me an outline "
    "for a 20 minute version",
    {**HOME, "talks/messy-spreadsheets.md": "# Taming messy spreadsheets (proposal)\nMerged cells, dates typed "
                                            "five ways, totals in the middle of data. What I do about each.\n"}, [
        Variant("accepted", Change(write={"inbox/2026-03-02-northern-data.txt": _mail(
            _MEETUP, "Your talk is in!",
            "Thanks for proposing 'Taming messy spreadsheets'. We'd love you to give it at the April meetup, "
            "Wednesday 15 April. Slots are 20 minutes plus questions.")}),
            ESCALATE, "the talk was accepted: drafting an outline needs planning"),
        Variant("waitlisted", Change(write={"inbox/2026-03-02-northern-data.txt": _mail(
            _MEETUP, "About your talk proposal",
            "We had far more proposals than slots this time. 'Taming messy spreadsheets' is on our reserve list and "
            "we'll let you know if a slot opens.")}),
            NOOP, "the talk is on the reserve list, not accepted"),
        Variant("colleague accepted", Change(memories=(
            "Femi's talk on dashboards got into the Northern Data meetup, he's thrilled. Mine still pending.",)),
            NOOP, "Femi's talk was accepted; the user's is still pending"),
    ])

_FORECAST = ("# Forecast, Kettering\n\n| day | rain chance | max temp |\n|---|---|---|\n"
             "| Thu 11 Jun | 20% | 21°C |\n| Fri 12 Jun | 25% | 22°C |\n| Sat 13 Jun | 30% | 23°C |\n"
             "| Sun 14 Jun | 40% | 20°C |\n")
SITUATIONS += family(
    "barbecue rain", "we're doing the barbecue on saturday 13 june. tell me if the forecast for that day goes to a 60% "
    "chance of rain or more (home/forecast.md)",
    {**HOME, "home/forecast.md": _FORECAST}, [
        Variant("saturday 65", Change(write={"home/forecast.md": _FORECAST.replace(
            "| Sat 13 Jun | 30% |", "| Sat 13 Jun | 65% |")}),
            ACT, "Saturday's rain chance is now 65 %, above 60 %: tell the user"),
        Variant("saturday exactly 60", Change(write={"home/forecast.md": _FORECAST.replace(
            "| Sat 13 Jun | 30% |", "| Sat 13 Jun | 60% |")}),
            ACT, "Saturday's rain chance reached 60 %, which the task counts: tell the user"),
        Variant("sunday wet", Change(write={"home/forecast.md": _FORECAST.replace(
            "| Sun 14 Jun | 40% |", "| Sun 14 Jun | 80% |")}),
            NOOP, "Sunday turned wet; Saturday stays at 30 %"),
        Variant("saturday 55", Change(write={"home/forecast.md": _FORECAST.replace(
            "| Sat 13 Jun | 30% |", "| Sat 13 Jun | 55% |")}),
            NOOP, "55 % is below 60 %"),
    ])

_LISTINGS = ("posted,item,price_gbp,distance_miles\n2026-01-20,baby bath with stand,8,2.1\n"
             "2026-01-20,travel cot (folding),35,6.4\n2026-01-21,high chair IKEA,10,1.2\n")
SITUATIONS += family(
    "used cot", "keep an eye on the local listings (feeds/marketplace.csv) for a proper cot under £60 within 5 miles, "
    "we're on a tight budget",
    {**HOME, "feeds/marketplace.csv": _LISTINGS}, [
        Variant("cheap and close", Change(append={
            "feeds/marketplace.csv": "2026-01-22,wooden cot with mattress,45,3.2\n"}),
            ACT, "a cot for £45 at 3.2 miles fits both limits: tell the user"),
        Variant("too far", Change(append={"feeds/marketplace.csv": "2026-01-22,wooden cot with mattress,45,12.0\n"}),
                NOOP, "the cot is 12 miles away, beyond 5 miles"),
        Variant("too dear", Change(append={"feeds/marketplace.csv": "2026-01-22,white cot bed (converts),75,2.0\n"}),
                NOOP, "the cot costs £75, over £60"),
        Variant("bumper only", Change(append={
            "feeds/marketplace.csv": "2026-01-22,cot bumper and sheets set,12,1.5\n"}),
            NOOP, "a bumper set is not a cot"),
    ])

_JOBS = ("# Job feed\n\n- Data analyst, Fenwick Foods, Leeds office 5 days, £34k\n"
         "- BI developer, Arlo Insurance, hybrid (2 days York), £45k\n")
SITUATIONS += family(
    "remote analyst jobs", "if a fully remote data analyst job turns up in jobs/feed.md, draft a cover letter for it "
    "from my cv (jobs/cv.md)",
    {**HOME, "jobs/feed.md": _JOBS,
     "jobs/cv.md": "# Ruth Okoro\nData analyst, 4 years. SQL, Python, Power BI. Built the weekly sales pack at "
                   "Harrow Retail; cut month-end reporting from 3 days to 1.\n"}, [
        Variant("remote analyst", Change(append={"jobs/feed.md": (
            "- Data analyst, Tidewater Energy, fully remote (UK), £40k, SQL and Power BI\n")}),
            ESCALATE, "a fully remote data analyst job appeared: drafting a cover letter needs writing from the CV"),
        Variant("junior remote analyst", Change(append={"jobs/feed.md": (
            "- Junior data analyst, Pollen Books, fully remote (anywhere in the UK), £30k\n")}),
            ESCALATE, "another fully remote analyst role appeared: draft a cover letter"),
        Variant("hybrid", Change(append={"jobs/feed.md": (
            "- Data analyst, Crane & Co, hybrid (3 days Manchester), £42k\n")}),
            NOOP, "the role is hybrid, not fully remote"),
        Variant("engineer", Change(append={"jobs/feed.md": (
            "- Senior data engineer, Tidewater Energy, fully remote (UK), £65k\n")}),
            NOOP, "a data engineer role is not a data analyst role"),
    ])

_CAL = ("BEGIN:VCALENDAR\n"
        "BEGIN:VEVENT\nSUMMARY:1:1 Dana / Priya\nORGANIZER:Dana Whitlock\nDTSTART:20260414T100000\n"
        "DTEND:20260414T103000\nRRULE:FREQ=WEEKLY;BYDAY=TU\nEND:VEVENT\n"
        "BEGIN:VEVENT\nSUMMARY:1:1 Dana / Tom\nORGANIZER:Dana Whitlock\nDTSTART:20260414T110000\n"
        "DTEND:20260414T113000\nRRULE:FREQ=WEEKLY;BYDAY=TU\nEND:VEVENT\n"
        "END:VCALENDAR\n")
SITUATIONS += family(
    "1:1 with dana", "I'm Priya. Tell me if Dana moves our weekly 1:1 (work/calendar.ics)",
    {**HOME, "work/calendar.ics": _CAL}, [
        Variant("moved to thursday", Change(write={"work/calendar.ics": _CAL.replace(
            "SUMMARY:1:1 Dana / Priya\nORGANIZER:Dana Whitlock\nDTSTART:20260414T100000\nDTEND:20260414T103000\n"
            "RRULE:FREQ=WEEKLY;BYDAY=TU",
            "SUMMARY:1:1 Dana / Priya\nORGANIZER:Dana Whitlock\nDTSTART:20260416T140000\nDTEND:20260416T143000\n"
            "RRULE:FREQ=WEEKLY;BYDAY=TH")}),
            ACT, "Dana moved the 1:1 with Priya from Tuesday 10:00 to Thursday 14:00: tell the user"),
        Variant("tom's moved", Change(write={"work/calendar.ics": _CAL.replace(
            "DTSTART:20260414T110000\nDTEND:20260414T113000\nRRULE:FREQ=WEEKLY;BYDAY=TU",
            "DTSTART:20260415T090000\nDTEND:20260415T093000\nRRULE:FREQ=WEEKLY;BYDAY=WE")}),
            NOOP, "Dana moved her 1:1 with Tom; Priya's stays on Tuesday at 10:00"),
        Variant("agenda added", Change(write={"work/calendar.ics": _CAL.replace(
            "SUMMARY:1:1 Dana / Priya\n",
            "SUMMARY:1:1 Dana / Priya\nDESCRIPTION:Agenda: Q2 goals, conference budget\n")}),
            NOOP, "an agenda was added; the 1:1 keeps its day and time"),
    ])

SITUATIONS += family(
    "mila's fever", "Mila's poorly. If her temperature gets to 38.5 or higher, remind me she can have the ibuprofen "
    "(health/temps.md)",
    {**HOME, "health/temps.md": "# Temperatures\n- Mon 10:00 Mila 37.9°C\n- Mon 14:00 Mila 38.1°C (paracetamol "
                                "given)\n"}, [
        Variant("38.7", Change(append={"health/temps.md": "- Mon 18:00 Mila 38.7°C\n"}),
                ACT, "Mila is at 38.7 °C, above 38.5: remind the user about the ibuprofen"),
        Variant("38.4", Change(append={"health/temps.md": "- Mon 18:00 Mila 38.4°C\n"}),
                NOOP, "38.4 °C is below 38.5"),
        Variant("parent's temperature", Change(append={"health/temps.md": "- Mon 18:00 me 38.9°C, think I've caught "
                                                                         "it\n"}),
                NOOP, "the 38.9 °C reading is the parent's, not Mila's"),
    ])

_PODS = ("# Podcasts\n\n- Slow Gardening, ep. 46: Leaving the leaves (why autumn tidying hurts beetles)\n"
         "- Slow Gardening, ep. 47: Comfrey, the plant that feeds the rest\n")
SITUATIONS += family(
    "slow gardening episodes", "Give me a one line summary of each new Slow Gardening episode when it shows up in "
    "feeds/podcasts.md",
    {**HOME, "feeds/podcasts.md": _PODS}, [
        Variant("episode 48", Change(append={"feeds/podcasts.md": (
            "- Slow Gardening, ep. 48: No-dig in clay soil. Cardboard, compost and patience; a listener's allotment "
            "two years on\n")}),
            ACT, "a new Slow Gardening episode appeared: summarise it in one line"),
        Variant("other podcast", Change(append={"feeds/podcasts.md": (
            "- Allotment Hour, ep. 212: Rhubarb forcing and rust on leeks\n")}),
            NOOP, "the new episode is of Allotment Hour, another podcast"),
        Variant("trailer", Change(append={"feeds/podcasts.md": (
            "- Slow Gardening, announcement: ep. 48 is delayed to next month while Jo recovers from a cold\n")}),
            NOOP, "an announcement of a delay is not a new episode"),
    ])

_PRINTER = ("2026-08-01 13:02 printer=prusa job=helmet-mount started, est. 3h40m\n"
            "2026-08-01 14:30 printer=prusa job=helmet-mount progress 40%\n"
            "2026-08-01 14:31 printer=ender job=cable-clips progress 70%\n")
SITUATIONS += family(
    "helmet mount print", "the helmet mount is printing on the prusa, tell me when it's done or if it fails "
    "(ops/logs/printer.log)",
    {**HOME, "ops/logs/printer.log": _PRINTER}, [
        Variant("failed", Change(append={"ops/logs/printer.log": (
            "2026-08-01 15:12 printer=prusa job=helmet-mount FAILED: filament runout at layer 212\n")}),
            ACT, "the helmet mount print failed: tell the user"),
        Variant("progress", Change(append={"ops/logs/printer.log": (
            "2026-08-01 15:45 printer=prusa job=helmet-mount progress 85%\n")}),
            NOOP, "the print is at 85 %, neither done nor failed"),
        Variant("other printer done", Change(append={"ops/logs/printer.log": (
            "2026-08-01 15:02 printer=ender job=cable-clips FINISHED in 2h05m\n")}),
            NOOP, "the job that finished is the cable clips on the Ender, not the helmet mount"),
        nothing(),
    ])

_WORKS = ("# Roadworks, Harbury district\n\n- Station Road, 20-24 April: gas main repair, temporary lights\n"
          "- Church Street, 4-29 May: footway resurfacing, road open\n")
SITUATIONS += family(
    "mill lane roadworks", "Let me know if there are roadworks on Mill Lane at any point in May, it's my only way "
    "to the depot (feeds/roadworks.md)",
    {**HOME, "feeds/roadworks.md": _WORKS}, [
        Variant("overlapping", Change(append={"feeds/roadworks.md": (
            "- Mill Lane, 28 April to 2 May: water main connection, road closed\n")}),
            ACT, "the Mill Lane closure runs into 1 and 2 May: tell the user"),
        Variant("mill road", Change(append={"feeds/roadworks.md": (
            "- Mill Road, 11-15 May: carriageway patching, road closed\n")}),
            NOOP, "the works are on Mill Road, not Mill Lane"),
        Variant("june", Change(append={"feeds/roadworks.md": (
            "- Mill Lane, 8-12 June: drainage works, temporary lights\n")}),
            NOOP, "the Mill Lane works are in June, not May"),
    ])

_RATES = ("# Savings rates I'm watching\n\n| provider | type | AER |\n|---|---|---|\n"
          "| Marlow BS | easy access | 4.10% |\n| Cobalt Bank | easy access | 4.25% |\n"
          "| Marlow BS | 1-year fixed | 4.40% |\n")
SITUATIONS += family(
    "easy access 4.5", "Tell me if any easy-access savings account in money/rates.md pays 4.5% or more",
    {**HOME, "money/rates.md": _RATES}, [
        Variant("fixed is higher", Change(write={"money/rates.md": _RATES.replace("| 1-year fixed | 4.40% |",
                                                                                  "| 1-year fixed | 4.75% |")}),
                NOOP, "the 4.75 % account is a one-year fixed bond, not easy access"),
        Variant("just under", Change(write={"money/rates.md": _RATES.replace("| easy access | 4.25% |",
                                                                             "| easy access | 4.45% |")}),
                NOOP, "4.45 % is below 4.5 %"),
        Variant("notice account", Change(append={"money/rates.md": "| Hollin Bank | 95-day notice | 4.55% |\n"}),
                NOOP, "a 95-day notice account is not easy access"),
    ])

_STANDUP = ("# Standup, Tue 3 March\n\n- Rahul: finishing the invoice export, no blockers\n"
            "- Ana: payment retries, waiting on test cards\n- Kim: reviewing billing PRs\n")
SITUATIONS += family(
    "blocked on kim", "I'm Kim. tell me if anyone in the standup notes says they're blocked waiting on me "
    "(work/standup.md)",
    {**HOME, "work/standup.md": _STANDUP}, [
        Variant("rahul blocked", Change(append={"work/standup.md": (
            "\n# Standup, Wed 4 March\n\n- Rahul: blocked, waiting on Kim to review the billing PR (#482)\n"
            "- Ana: payment retries, test cards arrived\n")}),
            ACT, "Rahul says he is blocked waiting on Kim: tell the user"),
        Variant("was blocked", Change(append={"work/standup.md": (
            "\n# Standup, Wed 4 March\n\n- Rahul: was blocked on Kim's review yesterday, merged this morning, all "
            "good\n- Ana: payment retries, test cards arrived\n")}),
            NOOP, "Rahul's block on Kim is over; nobody is waiting on her now"),
        Variant("other kim", Change(append={"work/standup.md": (
            "\n# Standup, Wed 4 March\n\n- Ana: blocked, waiting on Kimberly Shaw at Paystream for sandbox keys\n")}),
            NOOP, "Ana waits on Kimberly Shaw at the payment provider, not on the user"),
    ])

SITUATIONS += family(
    "boiler pressure", "Tell me if the boiler pressure drops below 1 bar (home/boiler.log), I'll need to top it up",
    {**HOME, "home/boiler.log": "2026-01-05 07:00 pressure 1.4 bar, flow 58°C\n"
                                "2026-01-06 07:00 pressure 1.3 bar, flow 60°C\n"}, [
        Variant("exactly 1", Change(append={"home/boiler.log": "2026-01-07 07:00 pressure 1.0 bar, flow 59°C\n"}),
                NOOP, "1.0 bar has not dropped below 1 bar"),
        Variant("engineer's note", Change(memories=(
            "The boiler engineer said the pressure can sit around 1.2 bar when the heating is cold, that's normal.",)),
            NOOP, "a note about normal pressure; no reading is below 1 bar"),
    ], system_tasks=True)

_LEAGUE = ("# Midland Combination, Division One\n\n## Results, Sat 4 Oct\n- Ashby Town 0-0 Shepshed Dynamo\n"
           "- Ashby Rovers 3-1 Ibstock United\n")
SITUATIONS += family(
    "rovers score", "whenever the Rovers (Ashby Rovers) play, tell me the final score, I can't always get to the "
    "game (feeds/league.md)",
    {**HOME, "feeds/league.md": _LEAGUE}, [
        Variant("result", Change(append={"feeds/league.md": (
            "\n## Results, Sat 11 Oct\n- Coalville Rangers 2-2 Ashby Town\n"
            "- Barwell Athletic 1-2 Ashby Rovers (FT)\n")}),
            ACT, "Ashby Rovers played and won 2-1 at Barwell: tell the user the score"),
        Variant("fixtures", Change(append={"feeds/league.md": (
            "\n## Fixtures, Sat 11 Oct, 3pm\n- Barwell Athletic v Ashby Rovers\n- Coalville Rangers v Ashby Town\n")}),
            NOOP, "only the fixtures are listed; the Rovers have not played yet"),
        Variant("town result", Change(append={"feeds/league.md": (
            "\n## Results, Tue 7 Oct\n- Ashby Town 4-0 Loughborough Albion\n")}),
            NOOP, "the result is Ashby Town's, another club"),
    ])

_AGENT = "Brightside Lettings <property@brightside.example>"
SITUATIONS += family(
    "flat inspection", "tell me if the letting agent books an inspection of our flat (flat 3, 18 Quarry Road)",
    {**HOME, "home/tenancy.md": "# Tenancy, Flat 3, 18 Quarry Road\nAgent: Brightside Lettings. Rent due on the "
                                "1st. Last inspection: November.\n"}, [
        Variant("booked", Change(write={"inbox/2026-05-04-brightside.txt": _mail(
            _AGENT, "Routine inspection, Flat 3, 18 Quarry Road",
            "We will carry out a routine inspection of your flat on Tuesday 12 May between 10am and 12pm. You don't "
            "need to be in; we will use our key.")}),
            ACT, "the agent booked an inspection of Flat 3: tell the user"),
        Variant("in due course", Change(write={"inbox/2026-05-04-brightside.txt": _mail(
            _AGENT, "Our inspections",
            "We inspect every property twice a year. Yours will be scheduled in due course and we will give you at "
            "least 24 hours' notice.")}),
            NOOP, "the agent says an inspection will be scheduled later; none is booked"),
    ], bystanders=("Tell me when the council has collected the old mattress",))

SITUATIONS += family(
    "leo's party invites", "When I tell you Leo's got a party invite, add it to family/calendar.md",
    {**HOME, "family/calendar.md": "# Family calendar\n- Sat 2 May: Leo swimming 9:30\n"
                                   "- Sun 3 May: lunch at Gran's\n"}, [
        Variant("leo invite", Change(memories=(
            "Leo came home with an invite to Arjun's 7th, Saturday 16 May, 2 to 4pm at Jungle Jim's soft play.",)),
            ACT, "Leo got a party invite: add one line to the calendar"),
        Variant("maisie invite", Change(memories=(
            "Maisie's been invited to Poppy's party on Sunday 17 May, at the church hall.",)),
            NOOP, "the invite is Maisie's, not Leo's"),
        Variant("thank-you card", Change(memories=(
            "Arjun's mum sent a thank-you card for the Lego Leo gave at the party last weekend.",)),
            NOOP, "a thank-you for a party already held is not a new invite"),
    ])

_ONCALL = ("# On-call rota, platform team\nKey: CBe = Chris Bell, CBa = Chris Ball, RD = Ruth Dale, "
           "MS = Marta Sousa\n\n| week from | weekdays | weekend |\n|---|---|---|\n| 18 May | RD | MS |\n"
           "| 25 May | CBe | RD |\n")
SITUATIONS += family(
    "weekend on-call", "I'm Chris Bell. Tell me when I get put on call for a weekend (work/oncall.md)",
    {**HOME, "work/oncall.md": _ONCALL}, [
        Variant("my weekend", Change(append={"work/oncall.md": "| 1 June | MS | CBe |\n"}),
                ACT, "CBe, Chris Bell, is on call the weekend of the week from 1 June: tell the user"),
        Variant("ball's weekend", Change(append={"work/oncall.md": "| 1 June | CBe | CBa |\n"}),
                NOOP, "Chris Bell has weekdays; the weekend goes to Chris Ball (CBa)"),
        Variant("weekday swap", Change(write={"work/oncall.md": _ONCALL.replace(
            "| 18 May | RD | MS |", "| 18 May | CBe (swapped with RD) | MS |")}),
            NOOP, "Chris Bell took another block of weekdays; the weekend stays with Marta"),
    ])

_GYM = "Pulse Fitness <bookings@pulsefitness.example>"
SITUATIONS += family(
    "thursday spin", "Let me know if I get off the waitlist for Thursday's 6:30am spin class",
    {**HOME, "notes/gym.md": "# Gym\nWaitlisted: Spin, Thu 6:30am (no. 4). Booked: Pilates, Tue 7pm.\n"}, [
        Variant("got a place", Change(write={"inbox/2026-09-09-pulse.txt": _mail(
            _GYM, "You're in: Spin, Thu 10 Sep 6:30am",
            "Good news, a space opened up and you've been moved from the waitlist into Spin on Thursday at 6:30am. "
            "Cancel by 8pm Wednesday if you can't make it.")}),
            ACT, "the user got a place in Thursday's spin class: tell them"),
        Variant("saturday class", Change(write={"inbox/2026-09-09-pulse.txt": _mail(
            _GYM, "You're in: Spin, Sat 12 Sep 9:00am",
            "A space opened up and you've been moved from the waitlist into Spin on Saturday at 9:00am.")}),
            NOOP, "the place is in Saturday's class, not Thursday's"),
        Variant("moved up", Change(write={"inbox/2026-09-09-pulse.txt": _mail(
            _GYM, "Waitlist update: Spin, Thu 10 Sep 6:30am",
            "You're now number 2 on the waitlist. We'll email you if a space opens up.")}),
            NOOP, "the user moved up the waitlist but has no place yet"),
    ], bystanders=("Remind me when my gym membership is up for renewal",))

_AGILE = "slot,p_per_kwh\n2026-04-19 01:00,6.12\n2026-04-19 01:30,4.80\n2026-04-19 02:00,3.95\n"
SITUATIONS += family(
    "negative power price", "ping me when the electricity price goes negative in home/agile-prices.csv, i'll put "
    "the washing on",
    {**HOME, "home/agile-prices.csv": _AGILE}, [
        Variant("zero", Change(append={"home/agile-prices.csv": "2026-04-19 02:30,0.00\n"}),
                NOOP, "a price of 0.00 p is not negative"),
        Variant("nearly", Change(append={"home/agile-prices.csv": "2026-04-19 02:30,0.41\n"}),
                NOOP, "0.41 p is low but still positive"),
        Variant("windy tomorrow", Change(memories=(
            "Saw on the forum that prices might go negative tomorrow afternoon if the wind picks up.",)),
            NOOP, "a guess about tomorrow is not a negative price"),
    ])

_COUNCIL = "Elections Office, Thornbury Council <elections@thornbury.example>"
SITUATIONS += family(
    "postal vote", "Tell me when my postal vote pack arrives, I'm away on polling day",
    {**HOME, "notes/todo.md": "# To do\n- postal vote: fill in and post back as soon as it comes\n"
                              "- return the library books\n"}, [
        Variant("partner's came", Change(memories=(
            "Rob's postal vote came this morning. Nothing for me yet, odd.",)),
            NOOP, "Rob's pack arrived; the user's has not"),
        Variant("send-out date", Change(write={"inbox/2026-04-14-elections.txt": _mail(
            _COUNCIL, "Postal votes for the 7 May elections",
            "Postal vote packs will be sent out from 22 April. If yours hasn't arrived by 30 April, please contact "
            "us.")}),
            NOOP, "the council says when packs will go out; the user's has not arrived"),
        Variant("poll card", Change(write={"inbox/2026-04-14-elections.txt": _mail(
            _COUNCIL, "Your poll card",
            "Our records show you have a postal vote. Your postal ballot pack will be sent separately.")}),
            NOOP, "a poll card saying the pack will come separately is not the pack"),
    ])

_CORN = "Corn Exchange Box Office <boxoffice@cornexchange.example>"
SITUATIONS += family(
    "lost reading glasses", "I left my reading glasses (tortoiseshell, in a green case) at the Corn Exchange on "
    "Friday. tell me if they find them",
    HOME, [
        Variant("sunglasses", Change(write={"inbox/2026-11-09-corn-exchange.txt": _mail(
            _CORN, "Re: lost glasses",
            "We've had a pair of black sunglasses handed in from Friday's show, but no reading glasses so far, "
            "sorry.")}),
            NOOP, "only someone's sunglasses were found, not the user's reading glasses"),
        Variant("will check", Change(write={"inbox/2026-11-09-corn-exchange.txt": _mail(
            _CORN, "Re: lost glasses",
            "Thanks for getting in touch. The cleaners' lost property is sorted on Mondays; we'll check then and let "
            "you know.")}),
            NOOP, "the box office will look on Monday; nothing is found yet"),
    ])

SITUATIONS += family(
    "best man speech", "Once Jo sends me the embarrassing stories about Matt, draft the best man speech. 5 minutes "
    "max, nothing that'll upset his gran",
    {**HOME, "wedding/speech-notes.md": "# Best man, Matt and Leah, 20 June\nKnown Matt since uni. Leah's a vet. "
                                        "Thank the bridesmaids, toast at the end.\n"}, [
        Variant("stories arrive", Change(write={"inbox/2026-05-30-jo.txt": _mail(
            "Jo Pryce <jo.pryce@example.com>", "Matt stories as promised",
            "1. The tent he pitched in a cow field in Wales, and the cow. 2. Turning up to his own graduation a day "
            "late. 3. The time he tried to cook for Leah and set off the whole building's alarm. Use wisely!")}),
            ESCALATE, "Jo's stories arrived: drafting the speech needs writing and judgement"),
        Variant("still coming", Change(write={"inbox/2026-05-30-jo.txt": _mail(
            "Jo Pryce <jo.pryce@example.com>", "stories",
            "Sorry, mad week. I'll send the Matt stories at the weekend, I've got some corkers.")}),
            NOOP, "Jo only promises the stories; none have been sent"),
    ])

_VENUE_A = "Quote: Hollybank Barn, 24 people, 2 days, day rate incl. lunch £62 pp, one breakout room.\n"
_VENUE_B = "Quote: The Mill at Ruddington, 24 people, 2 days, £1,900 room hire plus catering £28 pp per day.\n"
SITUATIONS += family(
    "offsite venues", "when all three venue quotes for the team offsite are in (work/offsite/quotes/), compare them "
    "and recommend one",
    {**HOME, "work/offsite/quotes/hollybank.md": _VENUE_A, "work/offsite/quotes/the-mill.md": _VENUE_B,
     "work/offsite/brief.md": "Offsite 8-9 October, 24 people, budget £4,000, needs two breakout rooms, "
                              "step-free access.\n"}, [
        Variant("third in", Change(write={"work/offsite/quotes/castle-view.md": (
            "Quote: Castle View Hotel, 24 people, 2 days, £79 pp per day incl. lunch and two breakout rooms, "
            "lift to all floors.\n")}),
            ESCALATE, "the third quote arrived: comparing all three against the brief needs reasoning"),
        Variant("revised second", Change(write={"work/offsite/quotes/the-mill.md": _VENUE_B.replace(
            "£1,900", "£1,750")}),
            NOOP, "the Mill revised its price; only two of the three quotes are in"),
    ])

_LEAVE = ("# My leave\n\n| dates | days | status |\n|---|---|---|\n| 6-10 April | 5 | approved |\n"
          "| 3-7 August | 5 | requested |\n| 27-28 October | 2 | requested |\n")
SITUATIONS += family(
    "august leave", "Tell me when my leave for 3-7 August is approved (work/leave.md)",
    {**HOME, "work/leave.md": _LEAVE}, [
        Variant("approved", Change(write={"work/leave.md": _LEAVE.replace(
            "| 3-7 August | 5 | requested |", "| 3-7 August | 5 | approved (Sue, 12 June) |")}),
            ACT, "the August leave is approved: tell the user"),
        Variant("october approved", Change(write={"work/leave.md": _LEAVE.replace(
            "| 27-28 October | 2 | requested |", "| 27-28 October | 2 | approved |")}),
            NOOP, "the October days were approved, not 3-7 August"),
        Variant("with manager", Change(write={"work/leave.md": _LEAVE.replace(
            "| 3-7 August | 5 | requested |", "| 3-7 August | 5 | with manager |")}),
            NOOP, "the August request moved to the manager but is not approved"),
        unrelated("notes/books.md", "To read: The Left Hand of Darkness, A Month in the Country.\n"),
    ])

_VEG = "# Veg box, week of 9 Feb\ncarrots, red onions, kale, potatoes, leeks, apples\n"
SITUATIONS += family(
    "celeriac swap", "if this week's veg box (home/vegbox.md) has celeriac in it again, tell me so I can swap it "
    "before the Wednesday cut-off",
    {**HOME, "home/vegbox.md": _VEG}, [
        Variant("celery", Change(write={"home/vegbox.md": "# Veg box, week of 16 Feb\ncarrots, celery, beetroot, "
                                                          "potatoes, chard, pears\n"}),
                NOOP, "the box has celery, not celeriac"),
        Variant("next week", Change(write={"home/vegbox.md": "# Veg box, week of 16 Feb\ncarrots, onions, cabbage, "
                                                             "potatoes, leeks, apples\nComing the week after (may "
                                                             "change): celeriac, swede, parsnips\n"}),
                NOOP, "celeriac is only pencilled in for the week after, not this week's box"),
    ])

_AUCTIONS = ("# Auctions I'm bidding on\n\n| item | my max | current bid | leading |\n|---|---|---|---|\n"
             "| Pentax K1000 with 50mm f/2 | £95 | £71 | me |\n| Olympus 28mm f/3.5 lens | £40 | £22 | me |\n")
SITUATIONS += family(
    "pentax auction", "tell me if someone outbids me on the Pentax K1000 (money/auctions.md)",
    {**HOME, "money/auctions.md": _AUCTIONS}, [
        Variant("outbid", Change(write={"money/auctions.md": _AUCTIONS.replace(
            "| £95 | £71 | me |", "| £95 | £98 | camerafan_88 |")}),
            ACT, "another bidder leads on the Pentax at £98: tell the user"),
        Variant("lens outbid", Change(write={"money/auctions.md": _AUCTIONS.replace(
            "| £40 | £22 | me |", "| £40 | £42 | oldglass |")}),
            NOOP, "the user was outbid on the Olympus lens, not the Pentax"),
        Variant("still leading", Change(write={"money/auctions.md": _AUCTIONS.replace(
            "| £95 | £71 | me |", "| £95 | £80 | me |")}),
            NOOP, "the Pentax bid rose but the user still leads"),
    ])

SITUATIONS += family(
    "new medicine log", "whenever I tell you I've started a new medicine, add it to health/meds.md with the dose and "
    "the date",
    {**HOME, "health/meds.md": "# Medicines\n- levothyroxine 75 mcg, every morning (since 2023)\n"
                               "- naproxen 250 mg as needed (since 12 March)\n"}, [
        Variant("started", Change(memories=(
            "Started lansoprazole 15 mg this morning (14 April), one a day before breakfast for a month.",)),
            ACT, "the user started a new medicine: add one line with dose and date"),
        Variant("might try", Change(memories=(
            "GP says if the headaches carry on we might try amitriptyline, decide at the review in May.",)),
            NOOP, "a medicine that may be tried later has not been started"),
        Variant("stopped", Change(memories=("Stopped the naproxen, my stomach didn't like it.",)),
                NOOP, "the user stopped a medicine; nothing new was started"),
    ])

_NOTICES = ("# Building notices, Linden Court\n\n- 2 Mar: window cleaning, all blocks, Thursday\n"
            "- 4 Mar: Block C bin store door repaired\n")
SITUATIONS += family(
    "block a lift", "tell me if the lift in block A is out of service, I've got the buggy (building/notices.md)",
    {**HOME, "building/notices.md": _NOTICES}, [
        Variant("out", Change(append={"building/notices.md": (
            "- 6 Mar: Block A lift OUT OF SERVICE, engineer due Monday. Sorry for the inconvenience.\n")}),
            ACT, "the Block A lift is out of service: tell the user"),
        Variant("block c", Change(append={"building/notices.md": (
            "- 6 Mar: Block C lift OUT OF SERVICE, engineer due Monday.\n")}),
            NOOP, "the lift out of service is in Block C, not Block A"),
        Variant("back in service", Change(append={"building/notices.md": (
            "- 6 Mar: Block A lift back in service after yesterday's fault. Thanks for your patience.\n")}),
            NOOP, "the Block A lift is working again"),
    ])

_MAILER = ("2026-06-01 09:00:12 send=june-news list=customers sent=8412 bounced=219 (2.6%) opened=2977\n"
           "2026-06-08 09:00:10 send=offers-week23 list=customers sent=8450 bounced=241 (2.9%) opened=2710\n")
SITUATIONS += family(
    "newsletter bounces", "if the bounce rate on a newsletter send goes over 5%, dig into which domains are bouncing "
    "and why (ops/logs/mailer.log)",
    {**HOME, "ops/logs/mailer.log": _MAILER}, [
        Variant("7.2 percent", Change(append={"ops/logs/mailer.log": (
            "2026-06-15 09:00:11 send=offers-week24 list=customers sent=8471 bounced=610 (7.2%) opened=2203\n")}),
            ESCALATE, "the bounce rate reached 7.2 %: finding the domains and the cause needs investigating"),
        Variant("4.8 percent", Change(append={"ops/logs/mailer.log": (
            "2026-06-15 09:00:11 send=offers-week24 list=customers sent=8471 bounced=407 (4.8%) opened=2650\n")}),
            NOOP, "4.8 % is under 5 %"),
        Variant("unsubscribes", Change(append={"ops/logs/mailer.log": (
            "2026-06-15 09:00:11 send=offers-week24 list=customers sent=8471 bounced=230 (2.7%) opened=2580 "
            "unsubscribed=474 (5.6%)\n")}),
            NOOP, "5.6 % is the unsubscribe rate; bounces are at 2.7 %"),
    ])

_HOMEINS = "Fairway Home Insurance <renewals@fairway.example>"
SITUATIONS += family(
    "home insurance renewal", "When the home insurance renewal comes, if it's more than 10% up on last year's £412, "
    "find me three cheaper quotes to compare",
    {**HOME, "money/insurance.md": "# Insurance\nHome (buildings and contents): Fairway, £412 a year, renews 1 "
                                   "September.\nCar: Roadwise, £538, renews 14 January.\n"}, [
        Variant("489", Change(write={"inbox/2026-08-04-fairway.txt": _mail(
            _HOMEINS, "Your home insurance renewal",
            "Your buildings and contents policy renews on 1 September. Your new annual premium is £489.00.")}),
            ESCALATE, "£489 is about 19 % up on £412: finding and comparing quotes needs several steps"),
        Variant("460", Change(write={"inbox/2026-08-04-fairway.txt": _mail(
            _HOMEINS, "Your home insurance renewal",
            "Your buildings and contents policy renews on 1 September. Your new annual premium is £460.00.")}),
            ESCALATE, "£460 is about 11.7 % up on £412, over 10 %: look for quotes"),
        Variant("445", Change(write={"inbox/2026-08-04-fairway.txt": _mail(
            _HOMEINS, "Your home insurance renewal",
            "Your buildings and contents policy renews on 1 September. Your new annual premium is £445.00.")}),
            NOOP, "£445 is 8 % up on £412, not more than 10 %"),
        Variant("car renewal", Change(write={"inbox/2026-08-04-roadwise.txt": _mail(
            "Roadwise Motor <renewals@roadwise.example>", "Early renewal price",
            "Your car insurance renews on 14 January. Your price is £672.00.")}),
            NOOP, "the rise is on the car insurance, not the home insurance"),
    ])

_KITTY = ("date,who,for,amount\n2026-03-01,Ife,March bills,96.00\n2026-03-02,Priya,March bills,96.00\n"
          "2026-03-02,Priya,loo roll and bin bags,11.40\n")
SITUATIONS += family(
    "march kitty", "tell me when all three of us have paid our share of the march bills into the flat kitty "
    "(money/kitty.csv). it's me (Ife), Priya and Tom",
    {**HOME, "money/kitty.csv": _KITTY}, [
        Variant("tom pays", Change(append={"money/kitty.csv": "2026-03-05,Tom,March bills,96.00\n"}),
                ACT, "Tom paid, so all three shares of March are in: tell the user"),
        Variant("priya again", Change(append={"money/kitty.csv": "2026-03-05,Priya,washing-up liquid,2.10\n"}),
                NOOP, "Priya added a small top-up; Tom has still not paid"),
        Variant("tom promises", Change(memories=("Tom says he'll put his March share in on Friday when he's paid.",)),
                NOOP, "Tom only promises to pay; his share is not in"),
    ])

_FIXIT = "FixIt Phone Repairs <hello@fixitphones.example>"
SITUATIONS += family(
    "screen repair quote", "If the repair shop quotes more than £120 for my phone screen, tell me, I'll claim on the "
    "insurance instead",
    {**HOME, "notes/phone.md": "# Phone\nCracked screen, dropped it on 2 Oct. Took it to FixIt on the high street "
                               "for a quote. Insurance excess is £50.\n"}, [
        Variant("149", Change(write={"inbox/2026-10-04-fixit.txt": _mail(
            _FIXIT, "Your repair quote",
            "Screen replacement for your phone: £149 including fitting, ready in 2 hours.")}),
            ACT, "£149 for the screen is more than £120: tell the user"),
        Variant("95", Change(write={"inbox/2026-10-04-fixit.txt": _mail(
            _FIXIT, "Your repair quote", "Screen replacement for your phone: £95 including fitting.")}),
            NOOP, "£95 is under £120"),
        Variant("battery", Change(write={"inbox/2026-10-04-fixit.txt": _mail(
            _FIXIT, "Your repair quote",
            "We're still waiting on the screen price from our supplier. A battery replacement, if you want one, would "
            "be £140.")}),
            NOOP, "the £140 is for a battery; the screen price is not known yet"),
    ])

_WARD = "Ward 7, Kingsmere Hospital <ward7@kingsmere.example>"
SITUATIONS += family(
    "dad's discharge", "When the ward says when Dad's going home, work out which of us can collect him from "
    "family/rota.md and draft a message to my brothers",
    {**HOME, "family/rota.md": "# Who's free\nMe: Mon, Wed, Fri after 3pm.\nDan: Tue and Thu, has the van.\n"
                               "Kwame: weekends only, lives 2 hours away.\n"}, [
        Variant("thursday", Change(write={"inbox/2026-07-20-ward7.txt": _mail(
            _WARD, "Mr Mensah's discharge",
            "Mr Mensah is medically fit and will be discharged on Thursday 23 July from 11am. Please bring clothes "
            "and his walking frame.")}),
            ESCALATE, "the discharge date is set: working out who collects and drafting the message needs several "
                      "steps"),
        Variant("maybe later", Change(write={"inbox/2026-07-20-ward7.txt": _mail(
            _WARD, "Update on Mr Mensah",
            "The consultant will review your father tomorrow. If his bloods are better he may be able to go home "
            "later this week.")}),
            NOOP, "discharge is only possible later; no date is given"),
    ])

_BAKE = ("# Bake sale sign-ups (school fair, Sat 27 June)\n\n| name | bringing |\n|---|---|\n"
         "| Hannah K | flapjacks x 24 |\n| Dev | lemon drizzle |\n| Marcus | brownies x 20 |\n")
SITUATIONS += family(
    "bake sale nut-free", "I'm running the bake sale. If anyone signs up with something that has nuts in it, tell "
    "me, the fair is meant to be nut-free (pta/bakesale.md)",
    {**HOME, "pta/bakesale.md": _BAKE}, [
        Variant("walnut", Change(append={"pta/bakesale.md": "| Sophie | coffee and walnut cake |\n"}),
                ACT, "a coffee and walnut cake has nuts: tell the user"),
        Variant("nutmeg", Change(append={"pta/bakesale.md": "| Sophie | apple and nutmeg muffins x 12 |\n"}),
                NOOP, "nutmeg is a spice, not a nut"),
        Variant("labelled nut-free", Change(append={"pta/bakesale.md": "| Sophie | chocolate crispy cakes (nut-free "
                                                                        "kitchen) |\n"}),
                NOOP, "the crispy cakes are nut-free"),
    ])

SITUATIONS += family(
    "new starter plan", "when HR adds someone to my team (Platform) in work/starters.csv, put together a first-week "
    "plan for them",
    {**HOME, "work/starters.csv": "name,team,role,start\nOlu Bankole,Platform,SRE,2026-02-02\n"
                                  "Grace Lim,Marketing,content designer,2026-02-09\n"}, [
        Variant("platform starter", Change(append={"work/starters.csv": "Tariq Hale,Platform,backend engineer,"
                                                                        "2026-03-02\n"}),
                ESCALATE, "a new Platform starter was added: a first-week plan needs planning"),
        Variant("sales starter", Change(append={"work/starters.csv": "Maya Frost,Sales,account manager,2026-03-02\n"}),
                NOOP, "the new starter joins Sales, not Platform"),
        Variant("date moved", Change(write={"work/starters.csv": "name,team,role,start\n"
                                                                 "Olu Bankole,Platform,SRE,2026-02-16\n"
                                                                 "Grace Lim,Marketing,content designer,2026-02-09\n"}),
                NOOP, "Olu's start date moved; nobody new joined the team"),
    ])

_SOLICITOR = "Bennett Kaur Solicitors <conveyancing@bennettkaur.example>"
SITUATIONS += family(
    "flat sale contract", "When the solicitor sends the draft contract for selling the flat, go through it and list "
    "anything I should ask about",
    {**HOME, "home/flat-sale.md": "# Selling 4 Elm Court\nAgreed at £218,000 with the Parrys. Leasehold, 96 years "
                                  "left. Want to complete by end of August.\n"}, [
        Variant("draft arrives", Change(write={"home/flat-sale/draft-contract.md": (
            "# Draft contract: 4 Elm Court\nPrice £218,000. Deposit 10 %. Completion date: to be agreed. "
            "Fixtures: all carpets and the washing machine included. Seller to pay the service charge to "
            "completion. Special condition 4: seller to supply a fire risk assessment for the building.\n"),
            "inbox/2026-06-10-bennett-kaur.txt": _mail(
                _SOLICITOR, "Draft contract, 4 Elm Court",
                "Please find the draft contract attached (saved as home/flat-sale/draft-contract.md). Let us know "
                "any questions.")}),
            ESCALATE, "the draft contract arrived: reviewing it for questions needs reading and reasoning"),
        Variant("searches ordered", Change(write={"inbox/2026-06-10-bennett-kaur.txt": _mail(
            _SOLICITOR, "4 Elm Court: update",
            "We have ordered the local searches. The draft contract will follow once we have the title documents.")}),
            NOOP, "the contract is still to follow"),
        Variant("survey booked", Change(write={"inbox/2026-06-10-agent.txt": _mail(
            "Carter Homes <sales@carterhomes.example>", "4 Elm Court survey",
            "The Parrys' surveyor will visit on Monday 15 June at 2pm.")}),
            NOOP, "a survey date from the estate agent is not the draft contract"),
    ])
