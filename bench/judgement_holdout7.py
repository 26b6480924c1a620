"""The held-out labelled set no. 7 for ``bench/judgement.py``, written without reading how the product decides.

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


_NOTICES = ("# Hollybank Allotments noticeboard\n\n- 3 May: skip arrives on Saturday, green waste only.\n"
            "- 10 May: plot 31 is free again, ask Pat if you want it.\n")
SITUATIONS += family(
    "allotment water", "Tell me if the allotment committee announces a hosepipe ban or that the water is going off",
    {**HOME, "allotment/noticeboard.md": _NOTICES}, [
        Variant("hosepipe ban", Change(append={"allotment/noticeboard.md": (
            "- 21 May: with the reservoir low, hoses are banned on all plots from Monday. Watering cans only.\n")}),
            ACT, "the committee announced a hosepipe ban: tell the user"),
        Variant("troughs off", Change(append={"allotment/noticeboard.md": (
            "- 22 May: the water to the troughs will be off all day Tuesday while the leaking pipe is replaced.\n")}),
            ACT, "the committee says the water will be off on Tuesday: tell the user"),
        Variant("other site", Change(append={"allotment/noticeboard.md": (
            "- 21 May: FYI Greenfield Lane allotments have a hosepipe ban; ours are not affected.\n")}),
            NOOP, "the ban is at another site and the notice says Hollybank is not affected"),
        Variant("only discussed", Change(append={"allotment/noticeboard.md": (
            "- 21 May: at the June meeting we will discuss whether hoses should be limited if it stays dry.\n")}),
            NOOP, "a possible limit is to be discussed later; nothing has been announced"),
    ])
SITUATIONS += family(
    "book club pick", "once the book club settles on next month's book, put it on reading/to-read.md",
    {**HOME, "reading/to-read.md": "# To read\n- The Remains of the Day\n",
     "inbox/2026-04-02-june.txt": _mail("June Harper <june.h@example.org>", "Book club in April",
                                        "We meet at mine on the 28th. Bring your nominations for May!")}, [
        Variant("vote result", Change(write={"inbox/2026-04-29-june.txt": _mail(
            "June Harper <june.h@example.org>", "May book decided",
            "Thanks all for last night. The vote went to 'Small Things Like These' for May, see you on the 26th.")}),
            ACT, "the club has chosen next month's book: add one line to the reading list"),
        Variant("shortlist only", Change(write={"inbox/2026-04-29-june.txt": _mail(
            "June Harper <june.h@example.org>", "May nominations",
            "We have three nominations: 'Small Things Like These', 'Olive Kitteridge' and 'Stoner'. "
            "Reply with your vote by Friday.")}),
            NOOP, "there is only a shortlist; the book is not chosen yet"),
        Variant("a suggestion", Change(memories=(
            "Rosa at book club thinks we should do 'Stoner' in May, but nobody has voted yet.",)),
            NOOP, "one member's suggestion is not the club's decision"),
        unrelated("notes/recipes.md", "Lemon drizzle: 225 g butter, 225 g sugar, 4 eggs, 2 lemons.\n"),
    ])
_ROTA = ("# St Aidan's flower rota, spring\n\n| Sunday | Flowers |\n|---|---|\n"
         "| 5 April (Easter) | Margaret Doyle, lilies |\n| 12 April | Joan Pike |\n| 19 April | Mary Collins |\n")
SITUATIONS += family(
    "flower rota", "I'm Margaret Doyle. If I get put down for another Sunday on the church flower rota "
    "(church/flower-rota.md), let me know which one",
    {**HOME, "church/flower-rota.md": _ROTA}, [
        Variant("new month", Change(append={"church/flower-rota.md": (
            "| 26 April | Ann Whitley |\n| 3 May | Margaret Doyle |\n| 10 May | Joan Pike |\n")}),
            ACT, "Margaret is on the rota for 3 May: tell her the date"),
        Variant("swap", Change(write={"church/flower-rota.md": _ROTA.replace(
            "| 19 April | Mary Collins |", "| 19 April | Margaret Doyle (swapped with Mary Collins) |")}),
            ACT, "Margaret now has 19 April after a swap: tell her"),
        Variant("someone else", Change(append={"church/flower-rota.md": (
            "| 26 April | Mary Collins |\n| 3 May | Ann Whitley |\n")}),
            NOOP, "the new Sundays went to Mary and Ann, not to Margaret"),
        Variant("easter re-edited", Change(write={"church/flower-rota.md": _ROTA.replace(
            "Margaret Doyle, lilies", "Margaret Doyle, white lilies and tulips")}),
            NOOP, "only the flowers for her Easter slot, already on the rota, were edited"),
    ])
_CARE = ("# Carer notes for Eileen\n\n"
         "Mon 08:10 (Dawn): breakfast porridge, all morning tablets taken. Bit tired.\n"
         "Mon 18:30 (Kofi): evening tablets taken with tea. Watched the quiz, in good spirits.\n")
SITUATIONS += family(
    "mum tablets", "Let me know straight away if the carers' notes say Mum missed any of her tablets",
    {**HOME, "care/mum-notes.md": _CARE}, [
        Variant("refused", Change(append={"care/mum-notes.md": (
            "Tue 18:25 (Kofi): Eileen said she would take her amlodipine after her programme. Checked at 19:00, "
            "still in the dosette box; she would not take it.\n")}),
            ACT, "Mum did not take her evening blood pressure tablet: tell the user now"),
        Variant("found under cushion", Change(append={"care/mum-notes.md": (
            "Wed 08:05 (Dawn): found yesterday's lunchtime tablet under the chair cushion. Morning ones taken "
            "while I watched.\n")}),
            ACT, "a tablet from yesterday was found untaken: she missed a dose"),
        Variant("worried but taken", Change(append={"care/mum-notes.md": (
            "Tue 08:15 (Dawn): Eileen was worried she had missed her pills; checked the box together, "
            "nothing missed, all taken.\n")}),
            NOOP, "the note says no tablet was missed"),
        Variant("missed lunch", Change(append={"care/mum-notes.md": (
            "Tue 13:00 (Dawn): she skipped lunch, not hungry, had a yoghurt later. Tablets taken at 12:30.\n")}),
            NOOP, "she missed a meal, not a tablet"),
    ], memories=("Mum (Eileen, 84) lives at home; carers come morning and evening and write in care/mum-notes.md.",))
SITUATIONS += family(
    "gp letter", "When a letter from Mum's GP turns up in care/letters/, work out what we need to do and by when",
    {**HOME, "care/letters/2026-01-14-gp.md": (
        "Beech Street Surgery\nRe: Mrs Eileen Doyle\n\nYour flu vaccination was given on 12 January. No further "
        "action needed.\n")}, [
        Variant("medication review", Change(write={"care/letters/2026-03-02-gp.md": (
            "Beech Street Surgery\nRe: Mrs Eileen Doyle\n\nDr Okafor would like to review Mrs Doyle's "
            "medication. Please book a fasting blood test at the surgery in the next two weeks and then a "
            "20-minute appointment after the results. Bring all current medicines, including eye drops.\n")}),
            ESCALATE, "a GP letter asks for a blood test, an appointment and preparation: work out the steps"),
        Variant("falls referral", Change(write={"care/letters/2026-03-09-gp.md": (
            "Beech Street Surgery\nRe: Mrs Eileen Doyle\n\nFollowing her fall we have referred Mrs Doyle to the "
            "community falls clinic. They will phone to arrange a home visit; before then please fill in the "
            "enclosed questionnaire and return it by 23 March.\n")}),
            ESCALATE, "the GP wrote about a referral with a form and a deadline: work out what to do"),
        Variant("pharmacy letter", Change(write={"care/letters/2026-03-02-pharmacy.md": (
            "Boots, High Street\nYour repeat prescription service: we will be closed on Good Friday and Easter "
            "Monday. Please order early.\n")}),
            NOOP, "the letter is from the pharmacy, not Mum's GP"),
        Variant("own gp", Change(write={"care/letters/2026-03-02-my-gp.md": (
            "Park Lane Medical Centre\nDear Mr Doyle,\n\nYou are due your NHS health check. Book online when "
            "convenient.\n")}),
            NOOP, "the letter is for the user from his own practice, not from Mum's GP"),
        nothing(),
    ])
_CLAIM = ("# Claim HX-220931: stolen bike (Ridgeway tourer)\n\n"
          "- 4 Feb: reported to police, crime ref 41/2231/26\n- 6 Feb: claim filed online with Harrow Home Insurance\n")
SITUATIONS += family(
    "bike claim", "Tell me when the insurer makes up its mind on the stolen bike claim (claims/bike.md)",
    {**HOME, "claims/bike.md": _CLAIM}, [
        Variant("approved", Change(append={"claims/bike.md": (
            "- 27 Feb: Harrow emailed: claim accepted, 640 GBP to be paid to my account less the 100 GBP excess.\n")}),
            ACT, "the insurer accepted the claim: tell the user"),
        Variant("declined", Change(append={"claims/bike.md": (
            "- 27 Feb: letter from Harrow: claim declined, the bike was not locked to a fixed object.\n")}),
            ACT, "the insurer turned the claim down: that is its decision, tell the user"),
        Variant("loss adjuster", Change(append={"claims/bike.md": (
            "- 20 Feb: passed to a loss adjuster; decision expected within ten working days.\n")}),
            NOOP, "the claim went to a loss adjuster; no decision yet"),
        Variant("receipt asked", Change(append={"claims/bike.md": (
            "- 18 Feb: Harrow asked for the original receipt. Sent a photo of it the same day.\n")}),
            NOOP, "the insurer asked for a receipt and got it; it has not decided"),
    ])
SITUATIONS += family(
    "mot", "The Fiesta goes in for its MOT this week and Fenwick Motors will email the result. If it fails, work "
    "out what has to be fixed before it can go back on the road and compare the cost with the garages in "
    "car/garages.md",
    {**HOME, "car/garages.md": ("Garages\n- Fenwick Motors: labour 78 GBP/h\n- Quickfit Eastgate: labour 64 GBP/h, "
                                "tyres from 72 GBP\n- Abbey Autos: labour 70 GBP/h\n")}, [
        Variant("failed brakes", Change(write={"inbox/2026-06-11-fenwick.txt": _mail(
            "Fenwick Motors <service@fenwickmotors.example>", "MOT result FY17 KLM",
            "Your vehicle FAILED its MOT. Dangerous: front brake discs worn below minimum. Major: nearside rear tyre "
            "tread below 1.6 mm. Advisory: slight oil leak. Quote for the repairs: 412 GBP.")}),
            ESCALATE, "the car failed: sorting out what must be fixed and comparing garages needs reasoning"),
        Variant("failed emissions", Change(write={"inbox/2026-06-11-fenwick.txt": _mail(
            "Fenwick Motors <service@fenwickmotors.example>", "MOT result FY17 KLM",
            "Unfortunately the car failed on emissions (major). We recommend a new oxygen sensor, 189 GBP fitted, "
            "then a free retest within ten working days.")}),
            ESCALATE, "the MOT failed: work out the fix and compare the price"),
        Variant("passed with advisories", Change(write={"inbox/2026-06-11-fenwick.txt": _mail(
            "Fenwick Motors <service@fenwickmotors.example>", "MOT result FY17 KLM",
            "Good news, the Fiesta PASSED. Advisories: front tyres close to the legal limit, brake pipes lightly "
            "corroded. Worth keeping an eye on.")}),
            NOOP, "the car passed; advisories are not a failure"),
        Variant("booking confirmed", Change(write={"inbox/2026-06-08-fenwick.txt": _mail(
            "Fenwick Motors <service@fenwickmotors.example>", "MOT booking",
            "Your MOT is booked for Thursday 11 June at 8:30. Please leave the locking wheel nut in the glovebox.")}),
            NOOP, "only the booking was confirmed; there is no result yet"),
        unrelated("notes/holiday.md", "Cornwall, 2-9 August: cottage in Mousehole, dog-friendly.\n"),
    ])
_EXTENSION = ("# Kitchen extension: updates from Dave (Keane Building)\n\n"
              "- Wk 1: footings dug and passed by building control.\n- Wk 2: blockwork up to damp course.\n")
SITUATIONS += family(
    "extension", "Watch Dave's updates in house/extension-log.md. Should he say the extension will cost more or "
    "finish later than agreed, work out what that does to house/budget.md and to when we get the kitchen back",
    {**HOME, "house/extension-log.md": _EXTENSION,
     "house/budget.md": "Agreed price 38,500 GBP, contingency 3,000 GBP, kitchen back by 17 July.\n"}, [
        Variant("rotten joists", Change(append={"house/extension-log.md": (
            "- Wk 3: opened up the back wall, two floor joists are rotten. Replacing them is an extra 1,800 GBP "
            "and two days, I'll add it to the next invoice.\n")}),
            ESCALATE, "an extra cost and delay: working out the effect on budget and dates needs reasoning"),
        Variant("windows late", Change(append={"house/extension-log.md": (
            "- Wk 3: the bifold doors won't come till mid-July, factory backlog. Realistically we finish the "
            "first week of August now.\n")}),
            ESCALATE, "the finish slips by weeks: work out what it does to the kitchen date"),
        Variant("on track", Change(append={"house/extension-log.md": (
            "- Wk 3: walls up to lintel height, roof timbers Monday. All on plan, no extras.\n")}),
            NOOP, "the update says the job is on plan with no extra cost"),
        Variant("next door", Change(memories=(
            "Chatted to Sue at number 14: her loft builders are three weeks behind and 5k over.",)),
            NOOP, "it is the neighbour's builder who is late and over budget, not Dave"),
    ])
SITUATIONS += family(
    "wedding rsvps", "Whenever someone confirms they're coming to our wedding, add them to wedding/guests.csv",
    {**HOME, "wedding/guests.csv": "name,party size,dietary\nAlan and Ruth Moss,2,none\n"}, [
        Variant("aunt says yes", Change(write={"inbox/2026-05-03-carol.txt": _mail(
            "Carol Price <carolp@example.net>", "Re: Save the date!",
            "We wouldn't miss it! Jim and I will both be there on 12 September. Jim is vegetarian now.")}),
            ACT, "Carol and Jim confirmed: add one line to the guest list"),
        Variant("told in person", Change(memories=(
            "Tom rang tonight: he and Priya are definitely coming to the wedding, no dietary needs.",)),
            ACT, "the user passed on Tom and Priya's yes: add them"),
        Variant("declines", Change(write={"inbox/2026-05-03-hugh.txt": _mail(
            "Hugh Baird <hugh.baird@example.com>", "Re: Save the date!",
            "So sorry, we'll be in Canada that week for my brother's 60th. Have the most wonderful day.")}),
            NOOP, "Hugh is not coming, so there is no one to add"),
        Variant("maybe later", Change(write={"inbox/2026-05-04-nina.txt": _mail(
            "Nina Okoro <nina.o@example.org>", "Re: Save the date!",
            "Would love to come, but I need to check my rota first. I'll let you know by the end of June.")}),
            NOOP, "Nina has only promised an answer later; she has not confirmed"),
    ])
_COSTS = ("# Dad's 70th: costs\n\n| item | GBP | running total |\n|---|---|---|\n"
          "| hall hire (deposit paid) | 350 | 350 |\n| buffet, 60 people | 840 | 1,190 |\n"
          "| cake | 150 | 1,340 |\n")
SITUATIONS += family(
    "party spend", "warn me if the spending on Dad's 70th in party/costs.md goes past 1,500 pounds",
    {**HOME, "party/costs.md": _COSTS}, [
        Variant("over", Change(append={"party/costs.md": "| band for two hours | 220 | 1,560 |\n"}),
                ACT, "the running total is now 1,560 GBP, over 1,500: warn the user"),
        Variant("still under", Change(append={"party/costs.md": "| balloons and banner | 45 | 1,385 |\n"}),
                NOOP, "the total is 1,385 GBP, still under 1,500"),
        Variant("quote only", Change(append={"party/costs.md": (
            "\nQuote, not booked: DJ for the evening, 400 GBP. Deciding after we hear from the band.\n")}),
                NOOP, "a quote that has not been booked is not spending; the total stays 1,340 GBP"),
        Variant("refund", Change(append={"party/costs.md": (
            "| hall deposit refunded (moved to the pub) | -350 | 990 |\n")}),
                NOOP, "a refund brought the total down to 990 GBP"),
    ])
SITUATIONS += family(
    "spanish corrections", "I'm doing a Spanish evening class. When Lucía sends back my marked homework, go through "
    "her corrections and make me a list of the grammar I keep getting wrong, with a few practice sentences each",
    {**HOME, "spanish/vocab.md": "# Vocabulario\n- el barrio: neighbourhood\n- la huerta: vegetable plot\n"}, [
        Variant("essay marked", Change(write={"inbox/2026-10-15-lucia.txt": _mail(
            "Lucía Ferrer <lucia.ferrer@adultcollege.example>", "Tu redacción corregida",
            "Muy bien, Peter! Corrections: 'soy cansado' -> 'estoy cansado' (estar for states); 'fui a la playa "
            "cada verano' -> 'iba' (imperfect for habits); 'la problema' -> 'el problema'; 'estoy cansado' again in "
            "line 9 as 'soy'. Mark: 7/10.")}),
            ESCALATE, "the marked essay came back: finding patterns in the mistakes and writing exercises needs work"),
        Variant("dictation marked", Change(write={"inbox/2026-10-22-lucia.txt": _mail(
            "Lucía Ferrer <lucia.ferrer@adultcollege.example>", "Dictado",
            "Here is your dictation back. You wrote 'pienso que venga' twice (should be 'viene' after 'pienso que'), "
            "and missed the accents on 'está' and 'también'. 14/20.")}),
            ESCALATE, "marked homework arrived: analyse the corrections and prepare practice"),
        Variant("marking next week", Change(write={"inbox/2026-10-15-lucia.txt": _mail(
            "Lucía Ferrer <lucia.ferrer@adultcollege.example>", "Clase del martes",
            "Hola a todos, I will give your essays back next Tuesday. We are in room 4 from now on.")}),
            NOOP, "the homework is only promised for next week; nothing has been returned"),
        Variant("handed in", Change(memories=("Handed in my Spanish essay about my neighbourhood tonight.",)),
            NOOP, "the user handed the homework in; it has not come back marked"),
    ])
_BOOKINGS = ("# Curlew Cottage bookings\n\n| arrive | leave | guests | via |\n|---|---|---|---|\n"
             "| 1 Aug | 8 Aug | Harris, 4 | Stayhub |\n| 8 Aug | 15 Aug | Lindqvist, 2 | direct |\n")
SITUATIONS += family(
    "cottage changeovers", "Every time Curlew Cottage gets a new booking, add the changeover clean for the day the "
    "guests leave to lets/cleaning.md",
    {**HOME, "lets/bookings.md": _BOOKINGS,
     "lets/cleaning.md": "# Cleans for Bev\n- Sat 8 Aug, 10-3\n- Sat 15 Aug, 10-3\n"}, [
        Variant("platform booking", Change(write={"inbox/2026-06-02-stayhub.txt": _mail(
            "Stayhub <no-reply@stayhub.example>", "New booking confirmed: Curlew Cottage",
            "Reservation SH-88120 is confirmed. Guest: Amira Haddad, 3 adults. Check-in Sat 22 Aug, check-out "
            "Sat 29 Aug. Payout: 1,145 GBP.")}),
            ACT, "a new booking came in: add one cleaning line for 29 August"),
        Variant("direct booking", Change(append={"lets/bookings.md": "| 15 Aug | 22 Aug | Okafor, 5 | direct |\n"}),
                ACT, "a new booking leaving on 22 August: add its clean"),
        Variant("enquiry", Change(write={"inbox/2026-06-02-enquiry.txt": _mail(
            "Graham Lowe <g.lowe@example.com>", "Curlew Cottage in October?",
            "Hello, is the cottage free over October half term, and do you take a small dog? Thanks, Graham")}),
            NOOP, "an enquiry is not a booking"),
        Variant("guest count edited", Change(write={"lets/bookings.md": _BOOKINGS.replace(
            "Lindqvist, 2", "Lindqvist, 3 (baby added)")}),
            NOOP, "an existing booking was edited; its clean is already on the list"),
    ])
_REVIEWS = ("# Curlew Cottage reviews\n\n- 5/5, Harris family, Aug: spotless, lovely views, the kids loved the "
            "rock pools.\n")
SITUATIONS += family(
    "cottage review", "If a guest gives Curlew Cottage fewer than 4 stars, draft a polite public reply I can post "
    "under the review",
    {**HOME, "lets/reviews.md": _REVIEWS}, [
        Variant("two stars", Change(append={"lets/reviews.md": (
            "- 2/5, K. Brandt, Sep: heating only worked upstairs and the wifi dropped every evening. Host was slow "
            "to reply.\n")}),
            ESCALATE, "a 2-star review: drafting a careful public reply needs reasoning"),
        Variant("three stars", Change(append={"lets/reviews.md": (
            "- 3/5, Lindqvist, Aug: great location but the beds were hard and the parking space is tiny.\n")}),
            ESCALATE, "3 stars is below 4: draft the reply"),
        Variant("exactly four", Change(append={"lets/reviews.md": (
            "- 4/5, Okafor, Aug: comfortable and clean, a bit noisy on bin day.\n")}),
            NOOP, "4 stars is not fewer than 4"),
        Variant("other property", Change(write={"inbox/2026-09-03-stayhub.txt": _mail(
            "Stayhub <no-reply@stayhub.example>", "Reviews in your area",
            "See how hosts near you are doing: Harbour View Flat got 2/5 this week ('damp and dark').")}),
            NOOP, "the low rating is for someone else's flat, not Curlew Cottage"),
        nothing(),
    ])
SITUATIONS += family(
    "parkrun times", "Any time I tell you my parkrun time, log it in running/parkrun.md",
    {**HOME, "running/parkrun.md": "# parkrun\n- 3 May, Heaton Park: 28:12\n- 10 May, Heaton Park: 27:40\n"}, [
        Variant("pb", Change(memories=("parkrun this morning in 26:41, a PB at last!",)),
                ACT, "the user gave a parkrun time: log one line"),
        Variant("away run", Change(memories=("Did the Whitby parkrun on holiday, hilly, 29:05.",)),
                ACT, "a parkrun time at another course is still the user's parkrun time: log it"),
        Variant("friend's time", Change(memories=("Jo smashed parkrun today, 24:10. I was marshalling.",)),
                NOOP, "the time is Jo's; the user was marshalling and did not run"),
        Variant("track session", Change(memories=("Club track night: 6 x 800 m, each around 3:40.",)),
                NOOP, "a track session is not a parkrun time"),
    ])
_TEAMS = ["Dunmore A", "Castle Knights", "Riverside A", "Eastfield", "Riverside B", "Old Mill", "Grange Pawns",
          "St Bede's"]


def _league(order: list[str], after: str) -> str:
    rows = "".join(f"{i}. {team}\n" for i, team in enumerate(order, start=1))
    return f"# Division 2 table (after {after})\n\n{rows}"


SITUATIONS += family(
    "chess league", "Keep an eye on the Division 2 table in chess/league.md. If my team, Riverside A, ends up in the "
    "bottom two, tell me",
    {**HOME, "chess/league.md": _league(_TEAMS, "round 5")}, [
        Variant("relegation zone", Change(write={"chess/league.md": _league(
            ["Dunmore A", "Castle Knights", "Eastfield", "Riverside B", "Old Mill", "Grange Pawns", "Riverside A",
             "St Bede's"], "round 6")}),
            ACT, "Riverside A is now 7th of 8, in the bottom two: tell the user"),
        Variant("b team down", Change(write={"chess/league.md": _league(
            ["Dunmore A", "Castle Knights", "Riverside A", "Eastfield", "Old Mill", "Grange Pawns", "Riverside B",
             "St Bede's"], "round 6")}),
            NOOP, "it is Riverside B that dropped to 7th; Riverside A is still 3rd"),
        Variant("slips one place", Change(write={"chess/league.md": _league(
            ["Dunmore A", "Eastfield", "Castle Knights", "Riverside A", "Riverside B", "Old Mill", "Grange Pawns",
             "St Bede's"], "round 6")}),
            NOOP, "Riverside A slipped to 4th, far from the bottom two"),
        nothing(),
    ])
_PLANNING = ("# Weekly planning list (copied from the council site)\n\n"
             "- 26/0411 12 Station Road: change of use, shop to cafe.\n")
SITUATIONS += family(
    "alder close field", "If the council lists a planning application for the field behind Alder Close or right "
    "next to it, read it and draft an objection letter for me (the weekly list goes in council/planning.md)",
    {**HOME, "council/planning.md": _PLANNING}, [
        Variant("housing", Change(append={"council/planning.md": (
            "- 26/0438 Land north of Alder Close: outline application for 40 dwellings with access from Alder "
            "Close. Comments by 14 May.\n")}),
            ESCALATE, "an application for the field itself: reading it and drafting an objection needs reasoning"),
        Variant("phone mast", Change(append={"council/planning.md": (
            "- 26/0440 Verge at the end of Alder Close, by the field gate: 20 m telecoms mast and cabinets.\n")}),
            ESCALATE, "an application right next to the field: draft the objection"),
        Variant("far away", Change(append={"council/planning.md": (
            "- 26/0439 3 Birch Road, Hartley: single-storey rear conservatory.\n")}),
            NOOP, "the application is for a house on another road, nowhere near the field"),
        Variant("rumour", Change(memories=(
            "Heard at the residents' meeting that a developer has been looking at the field behind Alder Close.",)),
            NOOP, "a rumour is not an application listed by the council"),
    ])
_SETLIST = ("# Red Lion, Saturday: set list (DRAFT)\n\n1. Teenage Kicks\n2. Waterloo Sunset\n3. Sunday Girl\n"
            "4. Town Called Malice\n5. Maybe: There She Goes\n")
SITUATIONS += family(
    "setlist", "ping me when Gaz marks the set list for Saturday's Red Lion gig as final (band/red-lion.md), I need "
    "to practise the right songs",
    {**HOME, "band/red-lion.md": _SETLIST,
     "band/garden-party.md": "# Garden party, June: set list (DRAFT)\n\n1. Brown Eyed Girl\n2. Valerie\n"}, [
        Variant("final", Change(write={"band/red-lion.md": _SETLIST.replace("(DRAFT)", "(FINAL, no more changes! Gaz)")
                                       .replace("5. Maybe: There She Goes", "5. There She Goes")}),
                ACT, "the Red Lion set list is marked final: ping the user"),
        Variant("still draft", Change(write={"band/red-lion.md": _SETLIST.replace(
            "2. Waterloo Sunset\n3. Sunday Girl", "2. Sunday Girl\n3. Waterloo Sunset")}),
                NOOP, "two songs swapped places; the list is still a draft"),
        Variant("other gig final", Change(write={"band/garden-party.md": (
            "# Garden party, June: set list (FINAL)\n\n1. Brown Eyed Girl\n2. Valerie\n3. Jolene\n")}),
                NOOP, "the garden party list is final, not the Red Lion one"),
        Variant("promised", Change(memories=("Gaz says he'll finalise the Red Lion set after Thursday's rehearsal.",)),
                NOOP, "Gaz only promised to finalise it later"),
    ])
SITUATIONS += family(
    "plot diary", "whenever I say I've sown or planted something on the allotment, note it with the date in "
    "allotment/diary.md",
    {**HOME, "allotment/diary.md": "# Plot 17 diary\n- 22 Mar: first earlies (Charlotte) in, bed 2\n"}, [
        Variant("parsnips", Change(memories=("Sowed two rows of parsnips on the plot this afternoon.",)),
                ACT, "the user sowed something on the allotment: add one dated line"),
        Variant("leeks", Change(memories=("Finally got the leek seedlings planted out at the allotment, bed 4.",)),
                ACT, "the user planted leeks on the allotment: note it"),
        Variant("only planning", Change(memories=("Going to put the garlic in at the plot next weekend if it's dry.",)),
                NOOP, "the garlic is only planned for next weekend, not planted"),
        Variant("neighbour's plot", Change(memories=("Ken on plot 12 planted all his potatoes today, show-off.",)),
                NOOP, "Ken planted on his own plot; the user did not plant anything"),
    ])
