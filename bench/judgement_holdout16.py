"""The held-out labelled set no. 16 for ``bench/judgement.py``, written without reading how the product decides.

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


_BROOK = ("# Brook Lane Allotments: waiting list (updated 2 Feb)\n\n1. Harold Finch\n2. Priya Nair\n3. Gwen Morley\n"
          "4. Tom Ashworth\n5. Dee Campbell\n")
SITUATIONS += family(
    "brook lane waiting list", "I'm Gwen Morley. tell me when I get to the top of the Brook Lane allotment waiting "
    "list (allotments/brook-lane-list.md)",
    {**HOME, "allotments/brook-lane-list.md": _BROOK}, [
        Variant("gwen first", Change(write={"allotments/brook-lane-list.md": (
            "# Brook Lane Allotments: waiting list (updated 9 Mar)\n\nPlot 22 let to Harold Finch. Plot 7 let to "
            "Priya Nair.\n\n1. Gwen Morley\n2. Tom Ashworth\n3. Dee Campbell\n")}),
            ACT, "both people ahead of Gwen got plots, so she is now first: tell her"),
        Variant("gwen second", Change(write={"allotments/brook-lane-list.md": (
            "# Brook Lane Allotments: waiting list (updated 9 Mar)\n\nPlot 22 let to Harold Finch.\n\n"
            "1. Priya Nair\n2. Gwen Morley\n3. Tom Ashworth\n4. Dee Campbell\n")}),
            NOOP, "Gwen moved up to second; Priya Nair is still ahead of her"),
        Variant("society mail", Change(write={"inbox/2026-03-09-allotment-society.txt": _mail(
            "Brook Lane Allotment Society <secretary@brooklane-allotments.example>", "Spring update",
            "A record 31 people are now waiting for a plot at Brook Lane. We are looking at splitting some of the "
            "larger plots in half to bring the list down.")}),
            NOOP, "a general note about the list's length; Gwen's place did not change"),
    ])

_TYRES = ("# Tyre tread (mm), Skoda Fabia KR19 XTM\n\n| date | front left | front right | rear left | rear right |\n"
          "|---|---|---|---|---|\n| 2 Feb | 3.6 | 3.5 | 4.8 | 4.9 |\n| 2 Mar | 3.3 | 3.2 | 4.7 | 4.7 |\n")
SITUATIONS += family(
    "front tyre tread", "Remind me to book new tyres if either front tyre gets below 3mm. I measure them at the start "
    "of each month (car/tyres.md)",
    {**HOME, "car/tyres.md": _TYRES}, [
        Variant("front right 2.8", Change(append={"car/tyres.md": "| 1 Apr | 3.1 | 2.8 | 4.6 | 4.6 |\n"}),
                ACT, "the front right tyre reads 2.8 mm, below 3 mm: remind the user to book tyres"),
        Variant("rear low, fronts at 3", Change(append={"car/tyres.md": "| 1 Apr | 3.0 | 3.0 | 2.9 | 4.6 |\n"}),
                NOOP, "both fronts are at 3.0 mm, not below; the 2.9 mm tyre is a rear one"),
        Variant("garage guess", Change(memories=(
            "The garage reckons the front tyres on the Fabia will want doing by the summer.",)),
            NOOP, "a guess about the summer, not a reading below 3 mm"),
    ])

_PAWSURE = "Pawsure Claims <claims@pawsure.example>"
SITUATIONS += family(
    "juniper dental claim", "When Pawsure pay out on Juniper's dental claim, tell me how much we actually got back",
    {**HOME, "pets/claims.md": (
        "# Pet insurance claims (Pawsure, policy PS-884120)\n\n- Juniper (cat): dental extractions at Oakfield Vets, "
        "14 Jan, £612.40, submitted 19 Jan\n- Olive (dog): ear infection, 3 Feb, £148.00, submitted 5 Feb\n")}, [
        Variant("settled", Change(write={"inbox/2026-02-23-pawsure.txt": _mail(
            _PAWSURE, "Claim CL-55201 (Juniper) settled",
            "We've finished assessing your claim for Juniper's dental treatment. We have paid £462.40 into your "
            "account today, which is the invoice of £612.40 less your £150 excess.")}),
            ACT, "Pawsure paid £462.40 on Juniper's claim: tell the user the amount"),
        Variant("olive settled", Change(write={"inbox/2026-02-23-pawsure.txt": _mail(
            _PAWSURE, "Claim CL-55318 (Olive) settled",
            "We've paid £98.00 for Olive's ear treatment (£148.00 less your £50 excess).")}),
            NOOP, "the settled claim is Olive's, not Juniper's"),
        Variant("records requested", Change(write={"inbox/2026-02-23-pawsure.txt": _mail(
            _PAWSURE, "Claim CL-55201 (Juniper): more information needed",
            "Before we can decide on Juniper's claim we have asked Oakfield Vets for her full clinical history. "
            "We'll be in touch once it arrives.")}),
            NOOP, "Juniper's claim is still being assessed; nothing has been paid"),
    ])

_OAKFIELD = "Oakfield Veterinary Surgery <reception@oakfieldvets.example>"
SITUATIONS += family(
    "whisky thyroid", "if Whisky's thyroid test comes back high, go through the treatment options the vet gave us "
    "(pets/whisky.md), cost them up and draft the questions I should ask on the phone",
    {**HOME, "pets/whisky.md": (
        "# Whisky (cat, 14)\nLosing weight, drinking a lot. Bloods taken 3 March, total T4 sent off. Dr Amos: if "
        "it's high, the options are methimazole tablets for life (about £25 a month), radioiodine at the referral "
        "centre (about £1,900, insurance may cover some) or an iodine-restricted diet. Normal T4: 10 to 55 nmol/l.\n"),
     "pets/bramble.md": "# Bramble (cat, 9)\nAnnual check 3 March with Whisky, bloods as a baseline.\n"}, [
        Variant("t4 high", Change(write={"inbox/2026-03-06-oakfield.txt": _mail(
            _OAKFIELD, "Whisky's blood results",
            "Whisky's total T4 came back at 92 nmol/l, well above the normal range, so this confirms an overactive "
            "thyroid. Please ring Dr Amos to talk through treatment.")}),
            ESCALATE, "Whisky's T4 is high: costing the options and drafting questions takes reasoning"),
        Variant("t4 normal", Change(write={"inbox/2026-03-06-oakfield.txt": _mail(
            _OAKFIELD, "Whisky's blood results",
            "Whisky's T4 is 31 nmol/l, inside the normal range. His kidney values are slightly raised, so we'd like "
            "to recheck them in three months.")}),
            NOOP, "the thyroid result is normal; the kidney note is not what the task asks about"),
        Variant("bramble high", Change(write={"inbox/2026-03-06-oakfield.txt": _mail(
            _OAKFIELD, "Bramble's blood results",
            "Bramble's total T4 is 61 nmol/l, a little above the range. At her age we'd retest in six weeks before "
            "deciding anything.")}),
            NOOP, "the high thyroid result is Bramble's, not Whisky's"),
    ])

_WINDOWS = {
    "home/windows/README.md": "Quotes asked for: Clearview, Harrow Glazing, Sentinel Windows. 9 windows, white uPVC, "
                              "A-rated, plus the back door.\n",
    "home/windows/clearview.md": "Clearview Home Improvements: 9 windows and back door, £7,840 fitted, 10-year "
                                 "guarantee, 6 weeks lead time.\n",
    "home/windows/harrow-glazing.md": "Harrow Glazing: 9 windows £6,950, back door £1,120, 20-year guarantee on "
                                      "frames, 5-year on units. Start in April.\n",
}
SITUATIONS += family(
    "window quotes", "Once all three window quotes are in (home/windows/), compare them and tell me which to go for",
    {**HOME, **_WINDOWS}, [
        Variant("sentinel quote", Change(write={"home/windows/sentinel.md": (
            "Sentinel Windows: 9 windows and composite back door, £8,310 fitted, 15-year guarantee, FENSA "
            "registered, 10 % deposit, can start 20 April.\n")}),
            ESCALATE, "the third quote is in: comparing all three needs reasoning"),
        Variant("clearview revised", Change(write={"home/windows/clearview.md": (
            "Clearview Home Improvements (revised 4 March): 9 windows and back door, £7,390 fitted, 10-year "
            "guarantee, 6 weeks lead time.\n")}),
            NOOP, "Clearview revised its price; Sentinel's quote is still missing"),
        Variant("survey booked", Change(write={"inbox/2026-03-04-sentinel.txt": _mail(
            "Sentinel Windows <surveys@sentinelwindows.example>", "Your survey",
            "Our surveyor Gary will visit on Thursday 12 March at 9am to measure up. Your quote will follow "
            "within a week of the visit.")}),
            NOOP, "Sentinel only booked a survey; its quote has not arrived"),
    ])

_BUSINESS = ("date,description,amount\n2026-03-30,FP HOLLOWAY & SONS REF INV-0407,1450.00\n"
             "2026-04-01,HMRC VAT,-1893.22\n2026-04-02,ADOBE CREATIVE CLOUD,-62.39\n")
SITUATIONS += family(
    "greywell invoice", "let me know when Greywell Studio pay INV-0412, it's £2,340 (money/business-account.csv)",
    {**HOME, "money/business-account.csv": _BUSINESS}, [
        Variant("paid", Change(append={"money/business-account.csv": (
            "2026-04-08,FP GREYWELL STUDIO LTD REF INV0412,2340.00\n")}),
            ACT, "Greywell's payment for INV-0412 came in: tell the user"),
        Variant("older invoice", Change(append={"money/business-account.csv": (
            "2026-04-08,FP GREYWELL STUDIO LTD REF INV-0398,860.00\n")}),
            NOOP, "Greywell paid an older invoice, INV-0398, not INV-0412"),
        Variant("payment run", Change(write={"inbox/2026-04-08-greywell.txt": _mail(
            "Greywell Studio Accounts <accounts@greywell.example>", "Remittance: INV-0412",
            "Thanks for your invoice INV-0412. It has been approved and is in our payment run on 30 April.")}),
            NOOP, "the payment is scheduled for 30 April; nothing has been paid yet"),
    ])

_APPS = ("company,role,applied,status\nFenwick Analytics,Data Analyst,2026-02-10,applied\n"
         "Corran Health,Insight Analyst,2026-02-14,applied\n"
         "Blue Heron Foods,BI Developer,2026-02-20,interviewed 3 Mar\n")
SITUATIONS += family(
    "rejection log", "If I get a no from any of the jobs I've applied for, mark it rejected in jobs/applications.csv",
    {**HOME, "jobs/applications.csv": _APPS}, [
        Variant("corran no", Change(write={"inbox/2026-03-05-corran.txt": _mail(
            "Corran Health Talent <talent@corranhealth.example>", "Your application: Insight Analyst",
            "Thank you for your interest in the Insight Analyst role. After careful consideration we have decided "
            "not to take your application further on this occasion.")}),
            ACT, "Corran Health turned the user down: mark that one row rejected"),
        Variant("still reviewing", Change(write={"inbox/2026-03-05-fenwick.txt": _mail(
            "Fenwick Analytics <jobs@fenwick.example>", "Data Analyst applications",
            "We've had a great response and are still reviewing applications. We'll be in touch with everyone by "
            "Friday 13 March.")}),
            NOOP, "Fenwick is still reviewing; no rejection"),
        Variant("second interview", Change(write={"inbox/2026-03-05-blue-heron.txt": _mail(
            "Blue Heron Foods HR <hr@blueheronfoods.example>", "Next steps",
            "Thanks for coming in on the 3rd. We'd like to invite you back for a second interview with our head "
            "of data.")}),
            NOOP, "Blue Heron invited the user back; that is not a rejection"),
    ], bystanders=("Let me know when the library has my reserved copy of The Bee Sting ready",))

SITUATIONS += family(
    "pennant second round", "If Pennant Energy invite me to a second interview, make me a prep pack: the questions "
    "they're likely to ask from the ad (jobs/pennant-ad.md) and STAR answers from my stories (jobs/star-stories.md)",
    {**HOME, "jobs/pennant-ad.md": "Pennant Energy: Pricing Analyst. SQL, Python, stakeholder management, "
                                   "experience of regulated markets an advantage. £44-48k.\n",
     "jobs/star-stories.md": "- churn model at Lyle Telecom, cut churn 6 %\n- rebuilt the weekly KPI pack, "
                             "saved 2 days a month\n- handled a data breach scare with legal\n"}, [
        Variant("invited", Change(write={"inbox/2026-03-10-pennant.txt": _mail(
            "Pennant Energy Recruitment <careers@pennant.example>", "Second stage interview",
            "We enjoyed meeting you and would like to invite you to a second interview on Thursday 19 March at "
            "2pm: a 30-minute case study on tariff pricing, then 45 minutes with the panel.")}),
            ESCALATE, "a second interview is booked: a prep pack takes planning and drafting"),
        Variant("decision friday", Change(write={"inbox/2026-03-10-pennant.txt": _mail(
            "Pennant Energy Recruitment <careers@pennant.example>", "Thank you",
            "Thanks for your time at interview last week. We're meeting the last candidates this week and will "
            "let you know our decision by Friday 13 March.")}),
            NOOP, "Pennant has not decided yet; no second interview"),
        Variant("other company", Change(write={"inbox/2026-03-10-tillwater.txt": _mail(
            "Tillwater Water <people@tillwater.example>", "Second interview",
            "We'd like to invite you to a second interview for the Data Analyst role on Monday 16 March.")}),
            NOOP, "the second interview is with Tillwater, not Pennant"),
    ])

_WATER = "date,reading_m3\n2026-01-01,1428.6\n2026-02-01,1439.1\n2026-03-01,1449.9\n"
SITUATIONS += family(
    "water usage", "Tell me if we use more than 12 cubic metres of water in a month. I put the meter readings in "
    "home/water-meter.csv on the 1st",
    {**HOME, "home/water-meter.csv": _WATER}, [
        Variant("13.3 used", Change(append={"home/water-meter.csv": "2026-04-01,1463.2\n"}),
                ACT, "March used 1463.2 - 1449.9 = 13.3 m³, over 12: tell the user"),
        Variant("11.5 used", Change(append={"home/water-meter.csv": "2026-04-01,1461.4\n"}),
                NOOP, "March used 11.5 m³; the reading is big but the use is under 12"),
        unrelated("home/gas-meter.csv", "date,reading_m3\n2026-03-01,8812\n2026-04-01,8971\n",
                  "the gas meter readings changed, not the water meter"),
    ])

_JOINT = ("date,description,amount\n2026-03-01,DD OCTOPUS ENERGY,-104.00\n2026-03-01,DD HARTFIELD COUNCIL TAX,"
          "-187.00\n2026-03-02,DD THAMES WATER,-41.50\n")
SITUATIONS += family(
    "unknown direct debit", "flag any new direct debit on the joint account that isn't one of ours. statement: "
    "money/joint-account.csv, our list: money/direct-debits.md",
    {**HOME, "money/joint-account.csv": _JOINT,
     "money/direct-debits.md": "# Our direct debits\n- Octopus Energy\n- Hartfield Council (council tax)\n"
                               "- Thames Water\n- Vodafone\n- Aviva home insurance\n"}, [
        Variant("gym dd", Change(append={"money/joint-account.csv": "2026-03-03,DD FITZONE GYMS LTD,-34.99\n"}),
                ACT, "a direct debit to FitZone Gyms is not on the list: flag it"),
        Variant("energy up", Change(append={"money/joint-account.csv": "2026-04-01,DD OCTOPUS ENERGY,-118.00\n"}),
                NOOP, "Octopus is one of theirs; only the amount went up"),
        Variant("card payment", Change(append={
            "money/joint-account.csv": "2026-03-04,CARD FITZONE GYMS DAY PASS,-8.00\n"}),
            NOOP, "a one-off card payment, not a direct debit"),
    ])

_EUROSTAR = "Eurostar <no-reply@eurostar.example>"
SITUATIONS += family(
    "eurostar retime", "Tell me if our Eurostar to Paris on Friday 17 April gets retimed. We've a TGV to catch",
    {**HOME, "travel/paris.md": (
        "# Paris and Lyon, April\nOut: Eurostar 9014, Fri 17 Apr, St Pancras 08:01, Paris Nord 11:20.\n"
        "Then TGV 6609 from Gare de Lyon 13:11.\nBack: Eurostar 9051, Fri 24 Apr, Paris Nord 18:13.\n"
        "Booking ref: QXTR7L\n")}, [
        Variant("outbound retimed", Change(write={"inbox/2026-04-02-eurostar.txt": _mail(
            _EUROSTAR, "Change to your booking QXTR7L",
            "Due to engineering works, train 9014 on 17 April will now leave London St Pancras at 09:01 and arrive "
            "at Paris Nord at 12:20. Your seats are unchanged.")}),
            ACT, "the outbound train now arrives an hour later: tell the user"),
        Variant("return retimed", Change(write={"inbox/2026-04-02-eurostar.txt": _mail(
            _EUROSTAR, "Change to your booking QXTR7L",
            "Train 9051 on 24 April will now leave Paris Nord at 19:13. Your seats are unchanged.")}),
            NOOP, "the return on 24 April moved; the train on the 17th did not"),
        Variant("check-in reminder", Change(write={"inbox/2026-04-15-eurostar.txt": _mail(
            _EUROSTAR, "Your trip is nearly here",
            "Check-in for train 9014 closes 30 minutes before departure at 08:01. Have your passports ready.")}),
            NOOP, "a reminder that repeats the booked 08:01 time; nothing was retimed"),
    ])

SITUATIONS += family(
    "bologna flat", "if the host cancels our Bologna apartment, find somewhere else near Piazza Santo Stefano for "
    "3 to 7 June (max €160 a night, 4 of us) and draft a message to the group",
    {**HOME, "travel/bologna.md": "# Bologna, 3 to 7 June\nApartment via Stayly: Via Santo Stefano 41, host "
                                  "Chiara, 2 bedrooms, €138 a night. Us: me, Ade, Lou, Sim.\n"}, [
        Variant("host cancels", Change(write={"inbox/2026-05-12-stayly.txt": _mail(
            "Stayly <bookings@stayly.example>", "Your reservation has been cancelled",
            "We're sorry: your host has cancelled reservation ST-44871 (Via Santo Stefano 41, 3 to 7 June). "
            "A full refund of €552 is on its way.")}),
            ESCALATE, "the apartment was cancelled: finding another and drafting the message needs several steps"),
        Variant("check-in info", Change(write={"inbox/2026-05-12-stayly.txt": _mail(
            "Stayly <bookings@stayly.example>", "Message from Chiara",
            "Ciao! The key box code is 4471, the flat is on the second floor. Looking forward to having you.")}),
            NOOP, "the host sent check-in details; the booking stands"),
        Variant("pipe fixed", Change(memories=(
            "Chiara said a pipe burst in the flat upstairs but it's fixed and our stay is fine.",)),
            NOOP, "the host says the stay goes ahead; nothing was cancelled"),
    ])

_TABLE_HEAD = ("# Westvale Netball League, Division 3 (after week {week})\n\n| pos | team | P | W | L | pts |\n"
               "|---|---|---|---|---|---|\n")


def _table(week: int, rows: list[tuple[str, int, int, int]]) -> str:
    body = "".join(f"| {i} | {team} | {w + lost} | {w} | {lost} | {pts} |\n"
                   for i, (team, w, lost, pts) in enumerate(rows, 1))
    return _TABLE_HEAD.format(week=week) + body


_NETBALL = _table(9, [("Corby Comets", 8, 1, 24), ("Bexley Belles", 7, 2, 21), ("Orchard Park", 5, 4, 15),
                      ("St Anne's Old Girls", 5, 4, 15), ("Harton Harriers", 4, 5, 12), ("Mapleford", 3, 6, 9),
                      ("Dunmore Diamonds", 2, 7, 6), ("Kellbrook Vipers", 2, 7, 6)])
SITUATIONS += family(
    "harton bottom two", "tell me if Harton Harriers drop into the bottom two of Division 3 (sport/netball-table.md)",
    {**HOME, "sport/netball-table.md": _NETBALL}, [
        Variant("seventh", Change(write={"sport/netball-table.md": _table(11, [
            ("Corby Comets", 10, 1, 30), ("Bexley Belles", 8, 3, 24), ("Orchard Park", 6, 5, 18),
            ("St Anne's Old Girls", 6, 5, 18), ("Mapleford", 5, 6, 15), ("Dunmore Diamonds", 4, 7, 12),
            ("Harton Harriers", 4, 7, 12), ("Kellbrook Vipers", 1, 10, 3)])}),
            ACT, "Harton are 7th of 8, in the bottom two: tell the user"),
        Variant("sixth", Change(write={"sport/netball-table.md": _table(10, [
            ("Corby Comets", 9, 1, 27), ("Bexley Belles", 7, 3, 21), ("Orchard Park", 6, 4, 18),
            ("St Anne's Old Girls", 5, 5, 15), ("Mapleford", 4, 6, 12), ("Harton Harriers", 4, 6, 12),
            ("Dunmore Diamonds", 3, 7, 9), ("Kellbrook Vipers", 2, 8, 6)])}),
            NOOP, "Harton slipped to 6th, one place above the bottom two"),
        Variant("fixture", Change(append={"sport/netball-table.md": (
            "\nWeek 10: Harton Harriers v Kellbrook Vipers, Tue 10 March, 7:30pm, Westvale Leisure Centre\n")}),
            NOOP, "a fixture was added; the table has not changed"),
    ])

_FIXTURES = ("date,ko,home,away,notes\n2026-03-14,10:00,Kingsbury Colts U14,Ashfield Rangers U14,\n"
             "2026-03-21,10:30,Dunton Park U14,Kingsbury Colts U14,\n"
             "2026-03-28,10:00,Kingsbury Colts U14,Millbrook U14,\n"
             "2026-04-18,11:00,Selby Road U14,Kingsbury Colts U14,\n")
SITUATIONS += family(
    "finn away sundays", "Finn plays for Kingsbury Colts U14. let me know if any of their away games get moved to a "
    "Sunday, I work Sundays (football/u14-fixtures.csv)",
    {**HOME, "football/u14-fixtures.csv": _FIXTURES}, [
        Variant("dunton to sunday", Change(write={"football/u14-fixtures.csv": _FIXTURES.replace(
            "2026-03-21,10:30,Dunton Park U14,Kingsbury Colts U14,",
            "2026-03-22,10:30,Dunton Park U14,Kingsbury Colts U14,moved: Dunton pitch reseeded")}),
            ACT, "the away game at Dunton moved to 22 March, a Sunday: tell the user"),
        Variant("home to sunday", Change(write={"football/u14-fixtures.csv": _FIXTURES.replace(
            "2026-03-28,10:00,Kingsbury Colts U14,Millbrook U14,",
            "2026-03-29,10:00,Kingsbury Colts U14,Millbrook U14,moved: club fun day on the Saturday")}),
            NOOP, "the game moved to a Sunday is a home game, not an away one"),
        Variant("kick-off later", Change(write={"football/u14-fixtures.csv": _FIXTURES.replace(
            "2026-04-18,11:00,Selby Road", "2026-04-18,13:00,Selby Road")}),
            NOOP, "the Selby Road game is still on Saturday 18 April, only later in the day"),
    ])

_HILLSIDE = "Hillside Allotment Society <news@hillside-allotments.example>"
SITUATIONS += family(
    "manure delivery", "When the Hillside allotment newsletter gives a date for the manure drop, add it to "
    "calendar/spring.md",
    {**HOME, "calendar/spring.md": "# Spring\n- Sat 7 Mar: seed swap, village hall, 10am\n"
                                   "- Sun 22 Mar: Mum's birthday lunch\n"}, [
        Variant("date given", Change(write={"inbox/2026-03-02-hillside.txt": _mail(
            _HILLSIDE, "March newsletter",
            "Seed potatoes are in the shed, 80p a kilo. Harlow Farm will tip this year's muck by the top gate on "
            "Saturday 14 March from 9am: bring a barrow and a fork.")}),
            ACT, "the farm's muck drop is on 14 March: add one line to the calendar"),
        Variant("woodchip only", Change(write={"inbox/2026-03-02-hillside.txt": _mail(
            _HILLSIDE, "March newsletter",
            "The tree surgeons are leaving woodchip by the top gate on Saturday 14 March. Still waiting to hear from "
            "Harlow Farm about the manure; we'll let you know.")}),
            NOOP, "the date is for woodchip; the manure date is still to come"),
        Variant("thanks after", Change(write={"inbox/2026-03-23-hillside.txt": _mail(
            _HILLSIDE, "Thank you",
            "Thanks to everyone who turned out on Saturday to barrow the manure, the heap was gone by noon.")}),
            NOOP, "the manure was delivered and shifted already; no date to add"),
    ])

_CERTS = ("2026-05-03 01:30:02 certcheck shop.larkspur.example expires 2026-06-28 (56 days)\n"
          "2026-05-03 01:30:03 certcheck api.larkspur.example expires 2026-07-19 (77 days)\n")
SITUATIONS += family(
    "cert expiry", "warn me if any cert in the nightly check has fewer than 14 days left (ops/logs/certcheck.log)",
    {**HOME, "ops/logs/certcheck.log": _CERTS}, [
        Variant("nine days", Change(append={"ops/logs/certcheck.log": (
            "2026-05-04 01:30:02 certcheck shop.larkspur.example expires 2026-06-28 (55 days)\n"
            "2026-05-04 01:30:04 certcheck mail.larkspur.example expires 2026-05-13 (9 days) renewal failed: "
            "DNS challenge timed out\n")}),
            ACT, "the mail certificate has 9 days left: warn the user"),
        Variant("exactly 14", Change(append={"ops/logs/certcheck.log": (
            "2026-05-04 01:30:04 certcheck mail.larkspur.example expires 2026-05-18 (14 days)\n")}),
            NOOP, "14 days left is not fewer than 14"),
        Variant("renewed", Change(append={"ops/logs/certcheck.log": (
            "2026-05-04 01:30:04 certcheck mail.larkspur.example renewed, expires 2026-08-02 (90 days)\n")}),
            NOOP, "a certificate was renewed with 90 days left"),
    ])

_DISK = ("2026-06-08 00:05 db-02 /var/lib/postgresql 61% used (306G/500G)\n"
         "2026-06-08 00:05 web-01 / 40% used (32G/80G)\n")
SITUATIONS += family(
    "db disk jump", "If disk use on db-02 jumps by more than 10 points in a day, work out what's eating the space "
    "and what I can safely clear (ops/logs/disk-daily.log)",
    {**HOME, "ops/logs/disk-daily.log": _DISK}, [
        Variant("61 to 76", Change(append={"ops/logs/disk-daily.log": (
            "2026-06-09 00:05 db-02 /var/lib/postgresql 76% used (381G/500G)\n"
            "2026-06-09 00:05 web-01 / 40% used (32G/80G)\n")}),
            ESCALATE, "db-02 went from 61 % to 76 % in a day: finding the cause needs investigation"),
        Variant("61 to 69", Change(append={"ops/logs/disk-daily.log": (
            "2026-06-09 00:05 db-02 /var/lib/postgresql 69% used (345G/500G)\n"
            "2026-06-09 00:05 web-01 / 40% used (32G/80G)\n")}),
            NOOP, "db-02 rose 8 points, not more than 10"),
        Variant("web-01 jumps", Change(append={"ops/logs/disk-daily.log": (
            "2026-06-09 00:05 db-02 /var/lib/postgresql 62% used (311G/500G)\n"
            "2026-06-09 00:05 web-01 / 72% used (58G/80G)\n")}),
            NOOP, "the big jump is on web-01; db-02 rose by one point"),
    ])

_CRON = ("2026-06-09 03:00:01 invoice-export started\n2026-06-09 03:02:37 invoice-export finished rows=398\n"
         "2026-06-09 04:00:02 tmp-cleanup finished removed=1204\n")
SITUATIONS += family(
    "invoice export job", "Tell me if the 3am invoice export doesn't run (ops/logs/cron.log)",
    {**HOME, "ops/logs/cron.log": _CRON}, [
        Variant("skipped", Change(append={"ops/logs/cron.log": (
            "2026-06-10 03:00:00 invoice-export SKIPPED: lock /var/run/invexp.lock held by pid 40122\n")}),
            ACT, "the invoice export was skipped: tell the user"),
        Variant("ran fine", Change(append={"ops/logs/cron.log": (
            "2026-06-10 03:00:01 invoice-export started\n2026-06-10 03:02:44 invoice-export finished rows=412\n")}),
            NOOP, "the export ran and finished"),
        Variant("cleanup failed", Change(append={"ops/logs/cron.log": (
            "2026-06-10 03:00:01 invoice-export started\n2026-06-10 03:02:51 invoice-export finished rows=407\n"
            "2026-06-10 04:00:02 tmp-cleanup FAILED exit=1 (permission denied: /srv/tmp/exports)\n")}),
            NOOP, "the failure is the 4am clean-up job; the invoice export ran"),
    ])

_BOXES = ("date,customer,box,reason\n2026-03-09,J. Barker,small veg,moving away\n"
          "2026-03-10,A. Osei,family veg,too much food\n2026-03-11,P. Lund,fruit and veg,price\n")
SITUATIONS += family(
    "veg box cancellations", "Warn me if more than 5 people cancel their veg box in the same week. Weeks run Mon to "
    "Sun (boxes/cancellations.csv)",
    {**HOME, "boxes/cancellations.csv": _BOXES}, [
        Variant("six this week", Change(append={"boxes/cancellations.csv": (
            "2026-03-12,M. Hughes,small veg,going to the supermarket\n2026-03-13,R. Dutta,family veg,price\n"
            "2026-03-14,S. Kerr,small veg,away for a month\n")}),
            ACT, "six boxes were cancelled in the week from Monday 9 March: warn the user"),
        Variant("five this week", Change(append={"boxes/cancellations.csv": (
            "2026-03-12,M. Hughes,small veg,going to the supermarket\n2026-03-13,R. Dutta,family veg,price\n")}),
            NOOP, "five cancellations this week is not more than five"),
        Variant("next week", Change(append={"boxes/cancellations.csv": (
            "2026-03-16,M. Hughes,small veg,going to the supermarket\n2026-03-17,R. Dutta,family veg,price\n"
            "2026-03-17,S. Kerr,small veg,away for a month\n")}),
            NOOP, "the new cancellations fall in the next week, which has three"),
    ])

_BROWNIES = "1st Elmfield Brownies <brownowl.elmfield@example.org>"
SITUATIONS += family(
    "sleepover helpers", "let me know if Rosie's Brownies ask for parent helpers for the sleepover",
    {**HOME, "clubs/brownies.md": "# Rosie, 1st Elmfield Brownies\nTuesdays 6 to 7:30pm, St Luke's hall.\n"
                                  "Spring term: sleepover Sat 21 March, litter pick Sat 28 March.\n"}, [
        Variant("helpers wanted", Change(write={"inbox/2026-03-03-brownies.txt": _mail(
            _BROWNIES, "Sleepover, 21 March",
            "We're still two adults short for the sleepover on the 21st, without them we can't run it. If you can "
            "stay over (DBS needed, we can sort it), please reply to me this week.")}),
            ACT, "the unit needs two adults for the sleepover: tell the user"),
        Variant("litter pick", Change(write={"inbox/2026-03-03-brownies.txt": _mail(
            _BROWNIES, "Litter pick, 28 March",
            "Could a couple of parents come along to the litter pick on the 28th? Gloves and grabbers provided.")}),
            NOOP, "the request is for the litter pick, not the sleepover"),
        Variant("all sorted", Change(write={"inbox/2026-03-03-brownies.txt": _mail(
            _BROWNIES, "Sleepover kit list",
            "Thank you to Mel's and Jas's mums, who are staying over, so we have all the adults we need. Kit list "
            "attached: sleeping bag, torch, named water bottle.")}),
            NOOP, "the sleepover already has enough adults; nobody is asked"),
    ])

_READING = ("# Alfie's reading record (Year 1)\nBand: Orange since 12 January.\n"
            "24 Feb: 'Pirate Pete' (Orange). Read with Mum, good sounding out.\n")
SITUATIONS += family(
    "alfie reading band", "Tell me when Alfie goes up a reading band at school",
    {**HOME, "school/alfie-reading.md": _READING}, [
        Variant("turquoise", Change(append={"school/alfie-reading.md": (
            "3 Mar: Mrs Okoro: Alfie has moved on to Turquoise books this week, lovely fluent reading!\n")}),
            ACT, "Alfie moved up from Orange to Turquoise: tell the user"),
        Variant("new orange book", Change(append={"school/alfie-reading.md": (
            "3 Mar: new book 'The Lost Kite' (Orange). Read with lots of expression.\n")}),
            NOOP, "a new book on the same band"),
        Variant("friend moved", Change(append={"school/alfie-reading.md": (
            "3 Mar: Mrs Okoro: Sami (Alfie's reading partner) has gone up to Turquoise. Alfie staying on Orange a "
            "little longer to work on answering questions about the story.\n")}),
            NOOP, "Sami went up a band; Alfie stays on Orange"),
    ])

_SCHOOL = "Fernhill Primary Office <office@fernhill-primary.example>"
SITUATIONS += family(
    "parents evening slot", "when Maisie's parents' evening booking opens, pick a slot that fits round my shifts "
    "(work/shifts.md) and draft the email to the school office",
    {**HOME, "school/maisie.md": "Maisie: Year 4, Kestrel class, Mr Ibbotson. Jack: Year 2, Robin class.\n",
     "work/shifts.md": "# Shifts, March\nMon 23: 7am-3pm. Tue 24: 2pm-10pm. Wed 25: off. Thu 26: 7am-3pm. "
                       "Fri 27: 2pm-10pm.\n"}, [
        Variant("year 4 open", Change(write={"inbox/2026-03-12-fernhill.txt": _mail(
            _SCHOOL, "Year 4 parents' evenings",
            "Parents' evenings for Year 4 are on Tuesday 24 and Thursday 26 March, 3:30 to 7pm, ten-minute slots. "
            "Please email the office with two preferred times.")}),
            ESCALATE, "Maisie's booking opened: fitting a slot round the shifts and drafting the email takes "
                      "planning"),
        Variant("year 2 open", Change(write={"inbox/2026-03-12-fernhill.txt": _mail(
            _SCHOOL, "Year 2 parents' evenings",
            "Parents' evenings for Year 2 are on Monday 23 and Wednesday 25 March, 3:30 to 6pm. Please email the "
            "office to book.")}),
            NOOP, "the booking is for Year 2, Jack's year, not Maisie's"),
        Variant("after easter", Change(write={"inbox/2026-03-12-fernhill.txt": _mail(
            _SCHOOL, "Parents' evenings",
            "We've moved this term's parents' evenings to after the Easter holidays. Booking details will follow.")}),
            NOOP, "booking is not open yet; details come after Easter"),
    ])

_KAT = "[Mon 2 Mar 08:12] Kat: Morning! Bruno was a star yesterday, went straight in the river of course\n"
SITUATIONS += family(
    "dog walker off", "if Kat says she can't do one of Bruno's walks, remind me to ask Mum to cover (chats/kat.txt)",
    {**HOME, "chats/kat.txt": _KAT}, [
        Variant("can't do thursday", Change(append={"chats/kat.txt": (
            "[Tue 3 Mar 19:40] Kat: Hiya, really sorry but I've got a hospital appointment Thursday so I won't be "
            "able to take Bruno out that day\n")}),
            ACT, "Kat can't walk Bruno on Thursday: remind the user to ask Mum"),
        Variant("running late", Change(append={"chats/kat.txt": (
            "[Tue 3 Mar 12:05] Kat: Running 15 mins late today, still doing his full hour though!\n")}),
            NOOP, "Kat is late but still doing the walk"),
        Variant("extra walk", Change(append={"chats/kat.txt": (
            "[Tue 3 Mar 19:40] Kat: I've got space on Saturday morning if you ever want an extra walk for him\n")}),
            NOOP, "Kat offers an extra walk; she is not dropping one"),
    ])

_SHELLY = "time,temp_c\n2026-01-20 07:00,4.6\n2026-01-20 19:00,4.9\n2026-01-21 07:00,4.7\n"
SITUATIONS += family(
    "tortoise fridge", "Shelly's hibernating in the fridge. warn me if it goes above 6°C or under 3°C "
    "(pets/hibernation.csv)",
    {**HOME, "pets/hibernation.csv": _SHELLY}, [
        Variant("6.4", Change(append={"pets/hibernation.csv": "2026-01-21 19:00,6.4\n"}),
                ACT, "the hibernation fridge reads 6.4 °C, above 6: warn the user"),
        Variant("5.9", Change(append={"pets/hibernation.csv": "2026-01-21 19:00,5.9\n"}),
                NOOP, "5.9 °C is within the 3 to 6 °C range"),
        unrelated("home/kitchen-fridge.csv", "time,temp_c\n2026-01-21 19:00,8.2\n",
                  "the warm reading is from the kitchen fridge, not Shelly's"),
    ])

_HIGHWAYS = "Hartfield Council Highways <highways@hartfield.gov.example>"
SITUATIONS += family(
    "skip permit", "Tell me when the council approves the skip permit for outside 31 Linden Road",
    {**HOME, "home/kitchen-refit.md": "# Kitchen refit\nStrip-out 16 March. Skip from Ace Skips, needs a council "
                                      "permit (applied 2 March, ref SP-20931) as it goes on the road.\n"}, [
        Variant("approved", Change(write={"inbox/2026-03-09-highways.txt": _mail(
            _HIGHWAYS, "Skip permit SP-20931",
            "Your permit for a skip on the highway outside 31 Linden Road is granted from 16 to 30 March. The skip "
            "must have lights at night.")}),
            ACT, "the permit for no. 31 was granted: tell the user"),
        Variant("number 13", Change(write={"inbox/2026-03-09-highways.txt": _mail(
            _HIGHWAYS, "Skip permit SP-20940",
            "Your permit for a skip outside 13 Linden Road is granted from 10 to 17 March.")}),
            NOOP, "the granted permit is for no. 13, not no. 31"),
        Variant("received", Change(write={"inbox/2026-03-03-highways.txt": _mail(
            _HIGHWAYS, "Skip permit application SP-20931",
            "We have received your application. Decisions are usually made within five working days.")}),
            NOOP, "the council only acknowledged the application"),
    ], bystanders=("Let me know when the plumber confirms he's coming on the 16th",))

_CHARGING = "date,site,kwh,cost_gbp\n2026-03-02,Gridserve Exeter,41.7,31.69\n2026-03-04,Home wallbox,38.0,2.96\n"
SITUATIONS += family(
    "rapid charge cost", "whenever a public charging session costs more than £30, add it to car/ev-claims.md so I "
    "can claim it back from work",
    {**HOME, "car/charging.csv": _CHARGING,
     "car/ev-claims.md": "# EV charging to claim\n- 2 Mar, Gridserve Exeter, £31.69\n"}, [
        Variant("36.63", Change(append={"car/charging.csv": "2026-03-06,Gridserve Exeter,48.2,36.63\n"}),
                ACT, "a public session cost £36.63: add one line to the claims list"),
        Variant("28.95", Change(append={"car/charging.csv": "2026-03-06,Instavolt Taunton,38.1,28.95\n"}),
                NOOP, "£28.95 is not more than £30"),
        Variant("home over 30", Change(append={"car/charging.csv": "2026-03-09,Home wallbox (3 nights),112.0,31.36\n"}),
                NOOP, "the session over £30 was at home, not a public charger"),
    ])

_PCN = "Hartfield Council Parking Services <parking@hartfield.gov.example>"
SITUATIONS += family(
    "pcn appeal", "If the council turns down my appeal on parking ticket HX40218, draft the appeal to the traffic "
    "tribunal from my notes (car/pcn-hx40218.md)",
    {**HOME, "car/pcn-hx40218.md": (
        "PCN HX40218, 11 Feb, Bridge St. Said I was on a single yellow at 5:40pm. Sign says restrictions 8am-5:30pm "
        "(photo). Ticket time 17:40 but my parking app shows I left at 17:28. Appealed 14 Feb.\n"),
     "car/pcn-hx40377.md": "PCN HX40377 (Jo's car), 20 Feb, Station Rd. Jo appealed herself.\n"}, [
        Variant("rejected", Change(write={"inbox/2026-03-05-parking.txt": _mail(
            _PCN, "PCN HX40218: notice of rejection of representations",
            "We have considered your representations and do not accept them. You may pay £35 within 14 days or "
            "appeal to the Traffic Penalty Tribunal within 28 days.")}),
            ESCALATE, "the appeal was rejected: drafting the tribunal appeal takes reasoning"),
        Variant("cancelled", Change(write={"inbox/2026-03-05-parking.txt": _mail(
            _PCN, "PCN HX40218: cancelled",
            "Having reviewed the signage we have cancelled this penalty charge notice. No further action is "
            "needed.")}),
            NOOP, "the council accepted the appeal; there is nothing to take further"),
        Variant("jo's rejected", Change(write={"inbox/2026-03-05-parking.txt": _mail(
            _PCN, "PCN HX40377: notice of rejection of representations",
            "We have considered your representations and do not accept them.")}),
            NOOP, "the rejection is for Jo's ticket HX40377, not HX40218"),
    ])

SITUATIONS += family(
    "takeaway log", "whenever I mention getting a takeaway, add it with the price to money/takeaways.md",
    {**HOME, "money/takeaways.md": "# Takeaways\n- 27 Feb: Pizza Pronto, £21.50\n"}, [
        Variant("golden wok", Change(memories=("Golden Wok tonight, £23.40 with delivery, worth it after that day.",)),
                ACT, "the user had a takeaway: append one line with the price"),
        Variant("maybe friday", Change(memories=("Might get fish and chips on Friday if the week goes ok.",)),
                NOOP, "a maybe for Friday, not a takeaway they got"),
        Variant("cooked", Change(memories=("Made katsu curry from scratch, way better than the takeaway one.",)),
                NOOP, "the user cooked; the takeaway is only a comparison"),
    ])

_OWED = "# Owed to me\n- Kiran: £40 (festival shuttle)\n- Hana: £12.50 (cinema)\n- Dev: £65 (Airbnb share)\n"
SITUATIONS += family(
    "owed money", "If I tell you someone's paid me back, tick them off in money/owed.md",
    {**HOME, "money/owed.md": _OWED}, [
        Variant("dev paid", Change(memories=("Dev's sent the Airbnb money, it landed this morning.",)),
                ACT, "Dev paid back his share: tick him off"),
        Variant("kiran payday", Change(memories=("Kiran says he'll sort me out on payday.",)),
                NOOP, "Kiran only promised to pay"),
        Variant("paid hana", Change(memories=("I paid Hana back for the popcorn and drinks at the cinema.",)),
                NOOP, "the user paid Hana; Hana has not paid the user back"),
        nothing(),
    ])

_MAY = ("# Family calendar, May\n- Sat 16 May: Ben, football 9am\n- Fri 22 May: pack the car, leave after school\n"
        "- Sat 23 to Mon 25 May: Cornwall (Polzeath, the Trewins' cottage)\n")
SITUATIONS += family(
    "cornwall weekend", "Warn me if anything gets put in the family calendar on the Cornwall weekend, Sat 23 to "
    "Mon 25 May (calendar/family-may.md)",
    {**HOME, "calendar/family-may.md": _MAY}, [
        Variant("tournament sunday", Change(append={"calendar/family-may.md": (
            "- Sun 24 May: Ben, district football tournament, 9am, Ashfield\n")}),
            ACT, "Ben's tournament lands on the Cornwall Sunday: warn the user"),
        Variant("tuesday dentist", Change(append={"calendar/family-may.md": "- Tue 26 May: Ben dentist 8:40\n"}),
                NOOP, "Tuesday 26 May is after the weekend away"),
        Variant("thursday swim", Change(append={"calendar/family-may.md": "- Thu 21 May: Ella swimming gala 6pm\n"}),
                NOOP, "Thursday 21 May is before the weekend away"),
    ])

_INCOME = ("client,invoice,date,amount\nHolloway & Sons,INV-0388,2025-05-12,2200.00\n"
           "Greywell Studio,INV-0391,2025-07-30,3150.00\nMarsh Print,INV-0399,2025-11-04,980.00\n"
           "Holloway & Sons,INV-0407,2026-03-02,1450.00\n")
_DAWN = "Dawn Rix Accountancy <dawn@rixaccounts.example>"
SITUATIONS += family(
    "draft tax return", "When Dawn sends my draft 2025-26 tax return, check her figures against my income sheet "
    "(money/income-2025-26.csv) and list anything that doesn't match",
    {**HOME, "money/income-2025-26.csv": _INCOME}, [
        Variant("draft arrives", Change(write={"inbox/2026-05-20-dawn.txt": _mail(
            _DAWN, "Your draft return 2025-26",
            "Draft attached for you to check. Self-employment turnover £8,780, expenses £1,214 (software, phone, "
            "travel 612 miles), profit £7,566. Employment income from Lyle Telecom £21,300, tax paid £2,006.")}),
            ESCALATE, "the draft arrived: checking its figures against the income sheet needs reasoning"),
        Variant("asks for mileage", Change(write={"inbox/2026-05-12-dawn.txt": _mail(
            _DAWN, "A couple of things",
            "Could you send me your mileage log and your P60 from Lyle Telecom? Then I can finish your draft.")}),
            NOOP, "Dawn is still asking for papers; the draft has not come"),
        Variant("hmrc reminder", Change(write={"inbox/2026-05-20-hmrc.txt": _mail(
            "HMRC <noreply@hmrc.example>", "Payment on account",
            "Your second payment on account of £412.60 is due by 31 July 2026.")}),
            NOOP, "an HMRC payment reminder, not Dawn's draft"),
    ])

SITUATIONS += family(
    "fixed tariff end", "when the letter about our fixed energy deal ending comes, compare the new tariffs against "
    "what we actually use (home/energy-usage.csv) and tell me which to pick",
    {**HOME, "home/energy-usage.csv": "month,elec_kwh,gas_kwh\n2025-10,248,910\n2025-11,276,1480\n2025-12,301,1920\n"
                                      "2026-01,297,2010\n2026-02,262,1610\n"}, [
        Variant("end letter", Change(write={"inbox/2026-03-18-brightwatt.txt": _mail(
            "Brightwatt Energy <hello@brightwatt.example>", "Your fixed tariff ends on 30 April",
            "Your Fix 12M ends on 30 April. Options: Flex (variable), elec 24.5p/kWh + 51p/day, gas 6.1p/kWh + 31p/day;"
            " Fix 12M, elec 23.9p + 58p/day, gas 6.3p + 30p/day, £50 exit fee; Fix 24M, elec 25.2p + 45p/day, "
            "gas 6.0p + 29p/day.")}),
            ESCALATE, "the end-of-fix letter arrived: comparing tariffs against usage needs working out"),
        Variant("annual statement", Change(write={"inbox/2026-03-18-brightwatt.txt": _mail(
            "Brightwatt Energy <hello@brightwatt.example>", "Your annual statement",
            "Over the last 12 months you used 3,120 kWh of electricity and 13,400 kWh of gas and paid £1,688. "
            "You're on Fix 12M.")}),
            NOOP, "an annual statement, not the letter about the fix ending"),
        unrelated("notes/recipes.md", "Lentil soup: 200 g red lentils, 1 onion, 2 carrots, 1 l stock, cumin.\n"),
    ])

_API = ("2026-07-14 10:00 checkout-api requests=4210 errors=21 (0.5%)\n"
        "2026-07-14 10:05 checkout-api requests=4388 errors=18 (0.4%)\n")
SITUATIONS += family(
    "checkout error rate", "alert me if the checkout API error rate goes over 2% in any 5 min window "
    "(ops/logs/api-5min.log)",
    {**HOME, "ops/logs/api-5min.log": _API}, [
        Variant("3.4 percent", Change(append={"ops/logs/api-5min.log": (
            "2026-07-14 10:10 checkout-api requests=4402 errors=150 (3.4%)\n")}),
            ACT, "the checkout API hit 3.4 % errors: alert the user"),
        Variant("2.0 percent", Change(append={"ops/logs/api-5min.log": (
            "2026-07-14 10:10 checkout-api requests=4400 errors=88 (2.0%)\n")}),
            NOOP, "2.0 % is not over 2 %"),
        Variant("search api", Change(append={"ops/logs/api-5min.log": (
            "2026-07-14 10:10 search-api requests=9120 errors=465 (5.1%)\n"
            "2026-07-14 10:10 checkout-api requests=4291 errors=25 (0.6%)\n")}),
            NOOP, "the high error rate is on the search API; checkout is at 0.6 %"),
    ])

_GOLF = ("# Handicap, Feltham Park GC\n- 21 Feb: Stableford, 33 pts, index 18.6\n"
         "- 28 Feb: Medal, 91 gross, index 18.3\n")
SITUATIONS += family(
    "golf handicap", "Tell me when my handicap index gets below 18 (golf/handicap.md)",
    {**HOME, "golf/handicap.md": _GOLF}, [
        Variant("17.6", Change(append={"golf/handicap.md": "- 14 Mar: Medal, 86 gross, index 17.6\n"}),
                ACT, "the index is 17.6, below 18: tell the user"),
        Variant("18.0", Change(append={"golf/handicap.md": "- 14 Mar: Stableford, 35 pts, index 18.0\n"}),
                NOOP, "18.0 is not below 18"),
    ], system_tasks=True)

_DOJO = "Redhill Karate Club <sensei@redhillkarate.example>"
SITUATIONS += family(
    "karate grading", "let me know if Amir's orange belt grading gets moved (it's Sun 15 March at the sports centre)",
    {**HOME, "clubs/karate.md": "Amir: yellow belt, grading for orange Sun 15 March, Redhill Sports Centre. "
                                "Fee £25 paid.\n"}, [
        Variant("moved a week", Change(write={"inbox/2026-03-04-karate.txt": _mail(
            _DOJO, "Grading change",
            "The sports hall is double-booked on the 15th, so the grading for students going for orange belt is now "
            "on Sunday 22 March, same time. Green and purple belts stay on the 15th.")}),
            ACT, "the orange belt grading moved to 22 March: tell the user"),
        Variant("green moved", Change(write={"inbox/2026-03-04-karate.txt": _mail(
            _DOJO, "Grading change",
            "Green belt grading moves to Sunday 29 March. All other gradings are unchanged on the 15th.")}),
            NOOP, "the green belt grading moved; Amir's orange belt grading stays on the 15th"),
        Variant("reminder", Change(write={"inbox/2026-03-11-karate.txt": _mail(
            _DOJO, "Grading this Sunday",
            "Reminder: grading is this Sunday 15 March. Orange belt candidates 10am. Bring your licence book and "
            "a clean gi.")}),
            NOOP, "a reminder of the same date; nothing moved"),
    ])

_TENNIS = "Elm Park Tennis Club <committee@elmparktc.example>"
SITUATIONS += family(
    "tennis agm motions", "If the tennis club announces its AGM, go through the motions, tell me how each would change "
    "what we pay for the kids' junior memberships and suggest how I should vote",
    {**HOME, "clubs/tennis.md": "Elm Park TC: family membership. Juniors: Ella (13) and Ben (10), £95 each a year, "
                                "plus Saturday squad £60 a term each.\n"}, [
        Variant("agm notice", Change(write={"inbox/2026-04-01-tennis.txt": _mail(
            _TENNIS, "Notice of AGM, Thursday 23 April",
            "The AGM is on Thursday 23 April at 7:30pm in the clubhouse. Motions: 1) junior fees rise to £110 from "
            "October; 2) squad fees to be included in the junior fee for under-12s; 3) a £15 floodlight levy on all "
            "members.")}),
            ESCALATE, "the AGM was announced with motions: working out their effect on fees and a vote needs "
                      "reasoning"),
        Variant("resurfacing", Change(write={"inbox/2026-04-01-tennis.txt": _mail(
            _TENNIS, "Courts 3 and 4",
            "Courts 3 and 4 will be closed from 6 to 17 April for resurfacing. Junior squad moves to courts 1 and "
            "2.")}),
            NOOP, "court news, not an AGM announcement"),
        Variant("after the agm", Change(write={"inbox/2026-04-24-tennis.txt": _mail(
            _TENNIS, "Thank you",
            "Thanks to the 41 members who came to last night's AGM. Minutes will be on the noticeboard soon.")}),
            NOOP, "the AGM already happened; nothing new is announced"),
    ])

_ELEC = ("# Electricity, daily (from the smart meter)\nSat 7 Mar: night 1.9 kWh, day 12.4 kWh\n"
         "Sun 8 Mar: night 2.1 kWh, day 13.8 kWh\n")
SITUATIONS += family(
    "overnight usage", "If the house uses more than 3 kWh overnight (midnight to 6am), work out what's likely running "
    "and how I can find out (home/electricity-daily.md)",
    {**HOME, "home/electricity-daily.md": _ELEC}, [
        Variant("4.6 night", Change(append={"home/electricity-daily.md": "Mon 9 Mar: night 4.6 kWh, day 11.2 kWh\n"}),
                ESCALATE, "4.6 kWh overnight: finding the cause needs investigation"),
        Variant("high day only", Change(append={"home/electricity-daily.md": (
            "Mon 9 Mar: night 2.8 kWh, day 19.6 kWh\n")}),
            NOOP, "the night use was 2.8 kWh; only the daytime use is high"),
        Variant("dishwasher", Change(memories=("Put the dishwasher on the overnight timer for the first time.",)),
                NOOP, "no reading shows over 3 kWh at night"),
    ])

SITUATIONS += family(
    "snagging list", "When Dale replies about the snagging, check what he says he's fixed against my list "
    "(home/snagging.md) and draft him a message about what's still outstanding",
    {**HOME, "home/snagging.md": (
        "# Extension snagging (sent to Dale 2 March)\n1. Bifold door sticks when locking\n2. Crack in plaster above "
        "the kitchen window\n3. Missing socket cover by the island\n4. Gutter drips onto the patio\n"
        "5. Paint on the new skirting\n")}, [
        Variant("dale's update", Change(write={"inbox/2026-03-16-dale.txt": _mail(
            "Dale Whitcombe Building <dale@whitcombebuild.example>", "Snagging done",
            "All sorted Tuesday: door adjusted, socket cover fitted, skirting touched up. Plasterer is coming back "
            "for the crack once it's dried out properly.")}),
            ESCALATE, "Dale replied: checking each item against the list and drafting what is left needs "
                      "reasoning"),
        Variant("next week", Change(write={"inbox/2026-03-09-dale.txt": _mail(
            "Dale Whitcombe Building <dale@whitcombebuild.example>", "Re: snagging",
            "Got your list, I'll get the lads round next week to go through it.")}),
            NOOP, "Dale only says he will do the snagging later; nothing is reported fixed"),
        Variant("final invoice", Change(write={"inbox/2026-03-09-dale.txt": _mail(
            "Dale Whitcombe Building <dale@whitcombebuild.example>", "Final invoice",
            "Please find the final stage invoice, £6,400, attached. Payment within 14 days please.")}),
            NOOP, "an invoice, not a reply about the snagging"),
    ])

_THOMPSON = "Thompson & Crane Seeds <orders@thompsoncrane.example>"
SITUATIONS += family(
    "seed potatoes dispatched", "tell me when the seed potatoes I ordered from Thompson & Crane are dispatched",
    {**HOME, "allotments/orders.md": "# Orders\n- Thompson & Crane, order TC-77120 (20 Jan): Charlotte seed "
                                     "potatoes 2 kg, Sturon onion sets 250 g, fleece 10 m\n"}, [
        Variant("onions sent", Change(write={"inbox/2026-02-16-thompson.txt": _mail(
            _THOMPSON, "Part of your order has been dispatched",
            "Order TC-77120: Sturon onion sets and garden fleece are on their way with Royal Mail. Your potatoes will "
            "follow separately.")}),
            NOOP, "the onion sets and fleece were sent; the potatoes follow later"),
        Variant("dispatch week", Change(write={"inbox/2026-02-16-thompson.txt": _mail(
            _THOMPSON, "About your potatoes",
            "Seed potatoes for order TC-77120 will be dispatched in the week beginning 2 March, when the frost risk "
            "in transit is lower.")}),
            NOOP, "a planned dispatch week, not a dispatch"),
        Variant("confirmation", Change(write={"inbox/2026-01-20-thompson.txt": _mail(
            _THOMPSON, "Order confirmation TC-77120",
            "Thanks for your order: Charlotte seed potatoes 2 kg, Sturon onion sets 250 g, fleece 10 m. Total "
            "£18.85.")}),
            NOOP, "the order confirmation; nothing was dispatched"),
    ])

_SWIM = "Hartfield Otters Swimming Club <kit@hartfieldotters.example>"
SITUATIONS += family(
    "hoodie deadline", "The swim club hoodie order closes 20 March. tell me if that deadline gets brought forward",
    {**HOME, "clubs/swimming.md": "Otters kit: hoodie (£28) order closes 20 March, caps order closes 20 March. "
                                  "Poppy: age 11, hoodie size 12-13.\n"}, [
        Variant("moved later", Change(write={"inbox/2026-03-10-otters.txt": _mail(
            _SWIM, "Hoodie order extended",
            "Good news, the supplier has given us an extra week: hoodie orders now close on Friday 27 March.")}),
            NOOP, "the deadline moved later, not earlier"),
        Variant("caps earlier", Change(write={"inbox/2026-03-10-otters.txt": _mail(
            _SWIM, "Caps order",
            "The caps order now closes on Friday 13 March so they arrive for the gala. Hoodies are unchanged.")}),
            NOOP, "the caps deadline was brought forward; the hoodie one stays on 20 March"),
        Variant("reminder", Change(write={"inbox/2026-03-10-otters.txt": _mail(
            _SWIM, "Last call for hoodies",
            "Just a reminder that hoodie orders close on 20 March. Sizes run small, so go up one.")}),
            NOOP, "a reminder of the same 20 March deadline"),
    ])

SITUATIONS += family(
    "tillwater offer", "If Tillwater offer me the job, work out a sensible counter-offer from my salary research "
    "(jobs/salary-notes.md) and draft my reply",
    {**HOME, "jobs/salary-notes.md": "Data Analyst, water sector, north-west: £38-46k. Glassdoor Tillwater: £40-44k. "
                                     "Current: £37,200 + 5 % pension. Want at least £43k or 4-day week.\n"}, [
        Variant("offer", Change(write={"inbox/2026-03-20-tillwater.txt": _mail(
            "Tillwater Water <people@tillwater.example>", "Offer of employment",
            "We're delighted to offer you the role of Data Analyst at £41,500 a year, 6 % employer pension, 27 days "
            "holiday plus bank holidays, hybrid two days in the office. Please let us know by 27 March.")}),
            ESCALATE, "Tillwater made an offer: a counter-offer and reply need reasoning and drafting"),
        Variant("deciding monday", Change(write={"inbox/2026-03-20-tillwater.txt": _mail(
            "Tillwater Water <people@tillwater.example>", "Thank you for interviewing",
            "The panel are meeting on Monday to decide and we'll call you that afternoon.")}),
            NOOP, "Tillwater has not decided yet; no offer"),
        Variant("recruiter guess", Change(memories=(
            "The recruiter hinted Tillwater's offer would probably be around 40k if it comes.",)),
            NOOP, "a hint about a possible offer, not an offer"),
    ])
