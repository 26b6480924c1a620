"""A held-out labelled set for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring): ``noop`` when nothing that
changed meets the task's condition (near misses included: pending, scheduled, a different person or item, a
figure on the wrong side of a threshold, an old file edited where a new one is awaited, a negated statement),
``act`` for a small action once it is met, ``escalate`` for drafting, planning, reviewing, comparing or
investigating once it is met. None of its families appear in the main set. The text is the project's own.
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

KNITTING = "Knitting: cast on 120 stitches, 4 mm needles, rib for 6 cm before the pattern starts.\n"
PLAYLIST = "Running playlist: 14 songs, 52 minutes, mostly around 170 bpm.\n"


def _situations() -> list[Situation]:
    s: list[Situation] = []
    holds = ("Library account, branch Westside\n"
             "- 'The Salt Roads' (reserved 2026-11-20): in transit to your branch\n"
             "- 'A Field Guide to Mosses' (reserved 2026-11-25): waiting list, position 3\n")
    s += family("library hold", "Tell me when my reserved copy of The Salt Roads can be picked up",
                {**HOME, "library.md": holds}, [
        Variant("ready", Change(write={"library.md": holds.replace(
            "in transit to your branch", "on the hold shelf at Westside, collect by 2026-12-09")}),
            ACT, "the book waits on the hold shelf: it can be picked up, so tell the user"),
        Variant("other book ready", Change(write={"library.md": holds.replace(
            "waiting list, position 3", "ready for collection until 2026-12-10")}),
            NOOP, "the moss guide is ready, not The Salt Roads"),
        Variant("still in transit", Change(append={"library.md": "Last checked 2026-12-02: no change.\n"}),
                NOOP, "The Salt Roads is still in transit"),
        nothing(),
    ])

    bill = "# Electricity, account 55-1032\n\nNovember bill: 84.20 EUR, due 2026-12-15, status: open\n"
    s += family("power bill", "Remind me to pay the electricity bill if it becomes overdue",
                {**HOME, "bills/electricity.md": bill}, [
        Variant("overdue", Change(write={"bills/electricity.md": bill.replace(
            "status: open", "status: payment not received, 7 days past the due date")}),
            ACT, "the bill is past its due date and unpaid, i.e. overdue: remind the user"),
        Variant("reminder of due date", Change(append={"bills/electricity.md": (
            "Note from the supplier: the amount will be debited on 2026-12-15.\n")}),
            NOOP, "the payment is scheduled for the due date; nothing is overdue"),
        Variant("water bill overdue", Change(write={"bills/water.md": (
            "# Water, account W-889\n\nOctober bill: 31.00 EUR, status: OVERDUE\n")}),
            NOOP, "the overdue bill is the water bill, not the electricity bill"),
        unrelated("notes/knitting.md", KNITTING),
    ])

    disk = ("2026-12-01 06:00 /data used 81 % (405 GB of 500 GB)\n"
            "2026-12-01 18:00 /data used 84 % (420 GB of 500 GB)\n")
    s += family("disk", "Warn me when the /data disk in ops/logs/disk.log is more than 90 % full",
                {**HOME, "ops/logs/disk.log": disk}, [
        Variant("above", Change(append={"ops/logs/disk.log": "2026-12-02 06:00 /data used 94 % (470 GB of 500 GB)\n"}),
                ACT, "/data is at 94 %, above 90 %: warn the user"),
        Variant("below", Change(append={"ops/logs/disk.log": "2026-12-02 06:00 /data used 88 % (440 GB of 500 GB)\n"}),
                NOOP, "88 % is still under the 90 % threshold"),
        Variant("other disk", Change(append={"ops/logs/disk.log": (
            "2026-12-02 06:00 /home used 96 % (96 GB of 100 GB)\n")}),
                NOOP, "it is /home that is nearly full, not /data"),
        Variant("free space paraphrase", Change(append={"ops/logs/disk.log": (
            "2026-12-02 06:00 /data: only 20 GB free of 500 GB\n")}),
            ACT, "20 GB free of 500 GB means /data is 96 % full: warn the user"),
    ])

    freezer = "08:00 freezer -19.0 C\n12:00 freezer -18.5 C\n16:00 freezer -18.8 C\n"
    s += family("freezer", "Alert me if the freezer gets warmer than -15 °C (sensor log in home/freezer.log)",
                {**HOME, "home/freezer.log": freezer}, [
        Variant("too warm", Change(append={"home/freezer.log": "20:00 freezer -11.2 C\n"}),
                ACT, "-11.2 °C is warmer than -15 °C: alert the user"),
        Variant("cold enough", Change(append={"home/freezer.log": "20:00 freezer -17.9 C\n"}),
                NOOP, "-17.9 °C is colder than -15 °C, so the condition is not met"),
        Variant("fridge reading", Change(append={"home/freezer.log": "20:00 fridge 6.5 C\n"}),
                NOOP, "the reading is the fridge's, not the freezer's"),
    ])

    portfolio = "# Watchlist\n\nNRDX: 44.10 USD\nHALO: 12.75 USD\n"
    s += family("share price", "Tell me if NRDX in portfolio.md drops below 40 USD",
                {**HOME, "portfolio.md": portfolio}, [
        Variant("dropped", Change(write={"portfolio.md": portfolio.replace("44.10", "38.60")}),
                ACT, "NRDX is at 38.60 USD, below 40 USD: tell the user"),
        Variant("small dip", Change(write={"portfolio.md": portfolio.replace("44.10", "41.95")}),
                NOOP, "41.95 USD is lower but still above 40 USD"),
        Variant("other share dropped", Change(write={"portfolio.md": portfolio.replace("12.75", "9.80")}),
                NOOP, "HALO fell, not NRDX"),
        unrelated("notes/playlist.md", PLAYLIST),
    ])

    venue_mail = ("From: Marta Kowal <marta@example.org>\nSubject: Re: the hall for the 40th party\n\n"
                  "The community hall is free on the 14th; I put our name down for it.\n")
    s += family("reply from Marta", "Let me know when Marta answers about the party venue",
                {**HOME, "inbox/2026-11-28-martin.txt": "From: Martin\nSubject: Photos\n\nHere are the photos.\n"}, [
        Variant("Marta replies", Change(write={"inbox/2026-12-02-marta.txt": venue_mail}),
                ACT, "Marta wrote back about the hall, i.e. the venue: tell the user"),
        Variant("Martin writes", Change(write={"inbox/2026-12-02-martin.txt": venue_mail.replace(
            "Marta Kowal <marta@example.org>", "Martin Berg <martin@example.org>")}),
            NOOP, "the mail is from Martin, not Marta"),
        Variant("Marta on something else", Change(write={"inbox/2026-12-02-marta.txt": (
            "From: Marta Kowal <marta@example.org>\nSubject: Knitting group\n\nThe group meets Tuesday this week.\n")}),
            NOOP, "Marta wrote, but not about the venue"),
        nothing(),
    ])

    scan = "Scan 2026-11-30: letter from the municipality about the new recycling bins.\n"
    s += family("scans", "Give me a one-line summary of each new document that lands in scans/",
                {**HOME, "scans/2026-11-30-recycling.txt": scan}, [
        Variant("new scan", Change(write={"scans/2026-12-02-dentist.txt": (
            "Dental practice Rosen: your check-up is booked for 2027-01-12 at 09:30. Bring your insurance card.\n")}),
            ACT, "a new document arrived in scans/: summarise it in one line"),
        Variant("new scan, insurance", Change(write={"scans/2026-12-02-insurance.txt": (
            "Home insurance renewal: premium rises from 212 EUR to 236 EUR a year from 2027-01-01.\n")}),
            ACT, "another new document arrived in scans/: a one-line summary is a small action"),
        Variant("old scan edited", Change(write={"scans/2026-11-30-recycling.txt": scan.replace(
            "new recycling bins", "new recycling bins (blue and yellow)")}),
            NOOP, "an existing scan was edited; no new document arrived"),
        unrelated("notes/knitting.md", KNITTING),
    ])

    s += family("post office", "When I tell you I've been to the post office, tick 'post the forms' off notes/todo.md",
                {**HOME, "notes/todo.md": HOME["notes/todo.md"] + "- post the forms\n"}, [
        Variant("been", Change(memories=("Dropped the forms off at the post office on my way home.",)),
                ACT, "the user went to the post office: tick the one line off the list"),
        Variant("not made it", Change(memories=("I didn't make it to the post office today, it was closed.",)),
                NOOP, "the user says they did not go"),
        Variant("paraphrase", Change(memories=("The forms are posted, the clerk stamped the receipt.",)),
                ACT, "posting the forms means the user went to the post office: tick the line off"),
        Variant("planned", Change(memories=("I'll go to the post office tomorrow morning.",)),
                NOOP, "the visit is only planned"),
        nothing(),
    ])

    garage = "Garage Lind, job 7781, car KX-402\nStatus: waiting for the brake parts\n"
    s += family("car repair", "Tell me when the garage says my car KX-402 is ready",
                {**HOME, "car/garage.md": garage}, [
        Variant("ready", Change(write={"car/garage.md": garage.replace(
            "waiting for the brake parts", "work finished, you can collect the car after 15:00")}),
            ACT, "the work is finished and the car can be collected: tell the user"),
        Variant("parts arrived", Change(write={"car/garage.md": garage.replace(
            "waiting for the brake parts", "parts arrived, repair starts tomorrow")}),
            NOOP, "the repair has not even started yet"),
        Variant("other car ready", Change(append={"car/garage.md": "Job 7790, car TB-115: ready for pick-up\n"}),
                NOOP, "the car that is ready is TB-115, not KX-402"),
    ])

    app_log = ("2026-12-01 22:10:03 INFO worker started, 4 threads\n"
               "2026-12-01 22:40:19 WARNING queue length 120 above soft limit\n")
    s += family("critical", "Warn me about any CRITICAL entries in ops/logs/app.log",
                {**HOME, "ops/logs/app.log": app_log}, [
        Variant("critical", Change(append={"ops/logs/app.log": (
            "2026-12-02 03:12:55 CRITICAL payment service unreachable, orders are being rejected\n")}),
            ACT, "a CRITICAL entry appeared: warn the user"),
        Variant("warning", Change(append={"ops/logs/app.log": "2026-12-02 03:12:55 WARNING retrying payment call\n"}),
                NOOP, "a WARNING is not a CRITICAL entry"),
        Variant("negated", Change(append={"ops/logs/app.log": (
            "2026-12-02 04:00:00 INFO health check done: no critical issues found\n")}),
            NOOP, "the line says there is nothing critical; it is an INFO entry"),
        nothing(),
    ])

    budget = ("# Kitchen renovation budget\n\nCabinets 6,000 EUR\nWorktop 1,500 EUR\nLabour 4,000 EUR\n"
              "Total 11,500 EUR\n")
    s += family("quote", "When the contractor's quote arrives in quotes/, check it against my budget in budget.md",
                {**HOME, "budget.md": budget}, [
        Variant("quote arrives", Change(write={"quotes/brickhaus-kitchen.md": (
            "Brickhaus Renovations, quote Q-2291\nCabinets 6,800 EUR\nWorktop 1,350 EUR\nLabour 4,900 EUR\n"
            "Total 13,050 EUR excl. VAT\n")}),
            ESCALATE, "the quote arrived; checking it line by line against the budget is a review"),
        Variant("estimate paraphrase", Change(write={"quotes/estimate-nowak.txt": (
            "Estimate from J. Nowak, builder: kitchen fitting all-in 10,900 EUR, start in February.\n")}),
            ESCALATE, "an estimate from the builder is the contractor's quote: comparing it to the budget is a review"),
        Variant("quote promised", Change(memories=("The contractor said the quote will be ready next week.",)),
                NOOP, "the quote is only promised; nothing has arrived in quotes/"),
        Variant("budget edited", Change(write={"budget.md": budget.replace("Worktop 1,500", "Worktop 1,600")}),
                NOOP, "the user changed their own budget; no quote arrived"),
        nothing(),
    ])

    s += family("gifts", "Draft a thank-you note whenever someone tells me they sent me a gift", HOME, [
        Variant("scarf sent", Change(memories=(
            "Aunt Lise called: she posted me a hand-knitted scarf for my birthday.",)),
                ESCALATE, "a relative sent a gift: drafting a thank-you note is writing"),
        Variant("maybe later", Change(memories=("Aunt Lise said she might send something for my birthday.",)),
                NOOP, "a gift that might be sent has not been sent"),
        Variant("book from Omar", Change(memories=(
            "A parcel came from my colleague Omar: he mailed me the cookbook we talked about.",)),
            ESCALATE, "Omar mailed a present, i.e. sent a gift: drafting the thank-you note is writing"),
        Variant("gift from the user", Change(memories=("I sent my nephew a kite for his birthday.",)),
                NOOP, "the user sent the gift; nobody sent them one"),
        nothing(),
    ])

    pr = "# PR 218: cache the search index\n\nReview status: requested from Jonas, pending\n"
    s += family("review comments", "Plan the fixes once review comments come in on review/pr-218.md",
                {**HOME, "review/pr-218.md": pr}, [
        Variant("comments", Change(append={"review/pr-218.md": (
            "\nJonas:\n- the cache is never invalidated when a file is deleted\n"
            "- please add a test for the empty index\n- rename idx to index in search.py\n")}),
            ESCALATE, "review comments arrived; planning the fixes takes reasoning over several points"),
        Variant("still pending", Change(append={"review/pr-218.md": "Reminder sent to Jonas on 2026-12-02.\n"}),
                NOOP, "the review is still pending; there are no comments"),
        Variant("other PR", Change(write={"review/pr-219.md": (
            "# PR 219: dark mode\n\nJonas:\n- contrast too low on the sidebar\n")}),
            NOOP, "the comments are on PR 219, not PR 218"),
    ])

    sales = "date,orders,revenue\n2026-11-29,41,2310.50\n2026-11-30,37,2044.00\n"
    s += family("zero orders", "Investigate what went wrong if data/sales.csv shows a day with no orders",
                {**HOME, "data/sales.csv": sales}, [
        Variant("zero day", Change(append={"data/sales.csv": "2026-12-01,0,0.00\n"}),
                ESCALATE, "a day with 0 orders appeared: investigating the cause takes several steps"),
        Variant("slow day", Change(append={"data/sales.csv": "2026-12-01,9,512.00\n"}),
                NOOP, "9 orders is a slow day, not a day without orders"),
        unrelated("notes/playlist.md", PLAYLIST),
    ])

    s += family("blood pressure", "Add each blood pressure reading I tell you about to health/bp.md",
                {**HOME, "health/bp.md": "# Blood pressure\n\n2026-11-30 124/80\n"}, [
        Variant("reading", Change(memories=("This morning my blood pressure was 131 over 84.",)),
                ACT, "the user gave a reading: append one line to health/bp.md"),
        Variant("evening reading", Change(memories=("Measured again after dinner: 127/79.",)),
                ACT, "another reading of the user's own: append one line"),
        Variant("forgot", Change(memories=("I forgot to measure my blood pressure today.",)),
                NOOP, "there is no reading, the user did not measure"),
        Variant("father's reading", Change(memories=("Dad's blood pressure was 150/95 at the clinic.",)),
                NOOP, "the reading is the father's, not the user's own"),
    ])

    tickets = "# Concerts\n\nKettle Drum, Vega hall, 2027-03-04: tickets on sale Friday 10:00\n"
    s += family("concert tickets", "Tell me when tickets for the Kettle Drum concert go on sale",
                {**HOME, "concerts.md": tickets}, [
        Variant("on sale", Change(write={"concerts.md": tickets.replace(
            "tickets on sale Friday 10:00", "tickets available now, 45 EUR")}),
            ACT, "the tickets can now be bought: tell the user"),
        Variant("other band", Change(append={"concerts.md": "Low Tide Choir, 2027-02-11: tickets on sale now\n"}),
                NOOP, "it is another concert whose tickets went on sale"),
        Variant("paraphrase", Change(append={"concerts.md": "Update: Kettle Drum booking opened this morning.\n"}),
                ACT, "booking has opened, i.e. the tickets are on sale: tell the user"),
        Variant("sale moved", Change(write={"concerts.md": tickets.replace("Friday 10:00", "Saturday 12:00")}),
                NOOP, "the sale was moved; it has still not started"),
        nothing(),
    ])

    s += family("flat viewings", "Compare the two flats once I've seen both (Elm Street and Oak Road)", HOME, [
        Variant("second visit", Change(memories=(
            "Saw the Oak Road flat today: smaller kitchen, but a quiet courtyard and 90 EUR cheaper.",)),
            ESCALATE, "both flats have now been seen: comparing them is reasoning over both"),
        Variant("viewing moved", Change(memories=("The Oak Road viewing moved to Saturday.",)),
                NOOP, "the second viewing has not happened yet"),
        Variant("third flat", Change(memories=("Also saw a flat on Birch Lane, too dark.",)),
                NOOP, "a different flat was seen; Oak Road is still not visited"),
    ], memories=("Visited the Elm Street flat: bright, big windows, but noisy tram outside.",))

    visa = "Visa application V-55120 (Canada)\nSubmitted: 2026-11-02\nStatus: under review\n"
    s += family("visa", "Tell me when my visa application in travel/visa.md is approved",
                {**HOME, "travel/visa.md": visa}, [
        Variant("granted", Change(write={"travel/visa.md": visa.replace(
            "under review", "granted, valid until 2027-06")}),
                ACT, "granted means approved: tell the user"),
        Variant("more documents", Change(write={"travel/visa.md": visa.replace(
            "under review", "additional documents requested")}),
            NOOP, "a request for documents is not an approval"),
        Variant("refused", Change(write={"travel/visa.md": visa.replace("under review", "not approved")}),
                NOOP, "the status says not approved; the condition is approval"),
        unrelated("notes/knitting.md", KNITTING),
    ])
    term = "Ida, class 4B: autumn term timetable, parent-teacher meeting on 2026-12-10.\n"
    s += family("term report",
                "When Ida's term report arrives in school/ida/, prepare questions for the teacher meeting",
                {**HOME, "school/ida/timetable.md": term}, [
        Variant("report arrives", Change(write={"school/ida/term-report.md": (
            "Term report, Ida (4B)\nMaths: very good\nReading: good, reads slowly aloud\n"
            "Sport: often forgets her kit\nTeacher: Ida is quiet in group work.\n")}),
            ESCALATE, "the report arrived; preparing questions from it needs reading and reasoning"),
        Variant("report in other words", Change(write={"school/ida/autumn-assessment.md": (
            "Autumn assessment for Ida: numeracy above the expected level, spelling needs practice.\n")}),
            ESCALATE, "an autumn assessment is the term report: preparing the questions is reasoning"),
        Variant("brother's report", Change(write={"school/noah/term-report.md": "Term report, Noah (2A)\nAll good.\n"}),
                NOOP, "the report is Noah's, not Ida's"),
        Variant("timetable edited", Change(write={"school/ida/timetable.md": term.replace("2026-12-10", "2026-12-11")}),
                NOOP, "the old timetable changed; no report arrived"),
    ])
    return s


SITUATIONS: list[Situation] = _situations()
