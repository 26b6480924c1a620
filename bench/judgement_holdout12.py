"""The held-out labelled set no. 12 for ``bench/judgement.py``, written without reading how the product decides.

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


_DONATIONS = ("# St Clare's Hospice shop, Market Street: donations book\n\n| date | item | bag | gift aid |\n"
              "|---|---|---|---|\n| 12 Mar | men's suits x3, one navy, two grey | 37 | yes |\n"
              "| 13 Mar | box of jigsaws, all checked complete | 38 | no |\n")
SITUATIONS += family(
    "shop wedding dress", "Let me know if anyone donates a wedding dress to the shop (shop/donations.md), I've got a "
    "customer after one",
    {**HOME, "shop/donations.md": _DONATIONS}, [
        Variant("in the book", Change(append={"shop/donations.md": (
            "| 14 Mar | ivory wedding dress, size 12, lace sleeves, with veil | 41 | yes |\n")}),
            ACT, "a wedding dress was donated: tell the user"),
        Variant("bridal gown", Change(memories=(
            "Sorting room today: a lady brought in her daughter's bridal gown, still in its dry-cleaning cover.",)),
            ACT, "a bridal gown is a wedding dress and it was donated: tell the user"),
        Variant("bridesmaid dresses", Change(append={"shop/donations.md": (
            "| 14 Mar | three lilac bridesmaid dresses, sizes 8-10 | 42 | no |\n")}),
            NOOP, "bridesmaid dresses came in, not a wedding dress"),
        Variant("asked at the till", Change(memories=(
            "Another woman asked at the till whether we ever get wedding dresses in. Told her to keep popping in.",)),
            NOOP, "someone asked about wedding dresses; nobody donated one"),
    ])
_SAT_ROTA = ("# Saturday volunteers, St Clare's shop\n\n| Saturday | morning | afternoon |\n|---|---|---|\n"
             "| 4 Apr | Brian, Kath | Doreen, Sam |\n| 11 Apr | Kath, Priya | Doreen, Brian |\n"
             "| 18 Apr | Brian, Sam | Doreen, Priya |\n| 25 Apr | Kath, Priya | Doreen, Sam |\n")
SITUATIONS += family(
    "shop saturday rota", "If a volunteer drops out of the Saturday rota at the shop and leaves a gap, work out a new "
    "rota that covers it",
    {**HOME, "shop/saturday-rota.md": _SAT_ROTA}, [
        Variant("hip operation", Change(write={"inbox/2026-03-20-doreen.txt": _mail(
            "Doreen Walsh <doreen.walsh@example.net>", "Saturdays",
            "Sorry Helen, my hip op has come through for 2 April and I'll be off my feet for eight weeks, so I "
            "can't do any of my Saturday afternoons in April. I feel awful about it.")}),
            ESCALATE, "Doreen has dropped out of four Saturday afternoons: reworking the rota needs planning"),
        Variant("swap arranged", Change(write={"inbox/2026-03-20-kath.txt": _mail(
            "Kath Byrne <kathb@example.org>", "Swap",
            "Just so you know, Priya and I have swapped: she's doing my 25 April morning and I'm doing her "
            "18 April afternoon. Both covered!")}),
            NOOP, "two volunteers swapped and both slots are still covered; nobody dropped out"),
        Variant("weekday volunteer", Change(memories=(
            "Pauline is giving up her Tuesday mornings at the shop from May, she's moving to her daughter's.",)),
            NOOP, "Pauline works Tuesdays; the Saturday rota has no gap"),
    ])
_BUS = ("# Route 27: Hawkridge - Kirkby Market (Dalesway Buses)\n\n## Monday to Friday\n\n"
        "| Hawkridge, Green | Low Moor | Kirkby bus station |\n|---|---|---|\n"
        "| 07:40 | 07:58 | 08:25 |\n| 10:15 | 10:33 | 11:00 |\n| 13:15 | 13:33 | 14:00 |\n| 17:05 | 17:23 | 17:50 |\n\n"
        "## Saturday\n\n| Hawkridge, Green | Low Moor | Kirkby bus station |\n|---|---|---|\n"
        "| 09:10 | 09:28 | 09:55 |\n| 14:10 | 14:28 | 14:55 |\n")
SITUATIONS += family(
    "early bus", "Let me know if the 7.40 bus from Hawkridge into Kirkby changes its time. The timetable is in "
    "transport/bus-timetable.md",
    {**HOME, "transport/bus-timetable.md": _BUS}, [
        Variant("new timetable", Change(write={"transport/bus-timetable.md": _BUS.replace(
            "(Dalesway Buses)\n", "(Dalesway Buses), valid from 6 April\n").replace(
            "| 07:40 | 07:58 | 08:25 |", "| 07:25 | 07:43 | 08:10 |")}),
            ACT, "the early journey now leaves Hawkridge at 07:25 instead of 07:40: tell the user"),
        Variant("council letter", Change(write={"inbox/2026-03-12-council.txt": _mail(
            "Moorside Council Passenger Transport <buses@moorside.example.gov>", "Route 27 changes from 6 April",
            "From Monday 6 April the first weekday journey from Hawkridge will leave at 07:55, fifteen minutes "
            "later than now, so that it meets the 08:45 train at Kirkby. Other journeys are unchanged.")}),
            ACT, "the council says the 07:40 will leave at 07:55 from April: tell the user"),
        Variant("saturday only", Change(write={"transport/bus-timetable.md": _BUS.replace(
            "| 09:10 | 09:28 | 09:55 |", "| 09:30 | 09:48 | 10:15 |")}),
            NOOP, "only the Saturday morning bus moved; the weekday 07:40 is the same"),
        Variant("consultation", Change(write={"inbox/2026-03-12-council.txt": _mail(
            "Moorside Council Passenger Transport <buses@moorside.example.gov>", "Have your say: rural bus routes",
            "We are consulting on possible changes to routes 27 and 31, which could include retiming early "
            "journeys. Nothing has been decided; please send comments by 30 April.")}),
            NOOP, "the council is only consulting; the 07:40 has not changed"),
    ], bystanders=("Tell me when the village hall puts up its summer opening hours",))
_TRIP = ("# Ellie's Year 7 trip to Normandy\n\n- 18-22 May, coach and ferry, staying at a centre near Bayeux\n"
         "- Deposit paid 10 Jan; 2nd instalment paid 14 Feb\n- Kit list to follow from school\n\n"
         "## What Ellie already has\n- rucksack (30 l)\n- wellies\n- waterproof jacket (too small now)\n"
         "- sleeping bag\n- water bottle\n")
SITUATIONS += family(
    "normandy kit", "When school sends the kit list for Ellie's Normandy trip, make a packing plan and work out "
    "what we still need to buy",
    {**HOME, "school/normandy-trip.md": _TRIP}, [
        Variant("kit list", Change(write={"inbox/2026-04-21-greenbank.txt": _mail(
            "Mrs Okonjo <trips@greenbank-academy.example.sch.uk>", "Year 7 Normandy: kit list",
            "Dear parents, please pack: a waterproof coat, walking shoes or trainers that can get muddy, wellies, "
            "5 changes of clothes, a warm fleece, a small daypack, a named water bottle, a packed lunch for day 1, "
            "up to 40 euros spending money in a purse, and any medication in a labelled bag handed to staff at "
            "the coach. No sleeping bags needed: bedding is provided.")}),
            ESCALATE, "the kit list arrived: planning the packing and comparing it with what Ellie has takes work"),
        Variant("payment reminder", Change(write={"inbox/2026-03-02-greenbank.txt": _mail(
            "Mrs Okonjo <trips@greenbank-academy.example.sch.uk>", "Year 7 Normandy: final payment",
            "A reminder that the final instalment of 145 GBP is due by 20 March. The kit list will follow after "
            "the Easter holidays.")}),
            NOOP, "a payment reminder; the kit list is still to come"),
        Variant("year 8 list", Change(write={"inbox/2026-04-21-greenbank.txt": _mail(
            "Mr Field <trips@greenbank-academy.example.sch.uk>", "Year 8 Paris visit: kit list",
            "Dear Year 8 parents, for the Paris visit in June please pack smart-casual clothes for the evening "
            "meal, comfortable walking shoes and a small umbrella.")}),
            NOOP, "this is the Year 8 Paris list; Ellie is in Year 7 going to Normandy"),
    ])


def _sky(rows: dict[str, str]) -> str:
    nights = {"Mon": "85", "Tue": "70", "Wed": "90", "Thu": "60", "Fri": "75", "Sat": "80", "Sun": "65", **rows}
    lines = "".join(f"| {night} | {cloud} |\n" for night, cloud in nights.items())
    return f"# Clear-sky forecast, Brackenfell (week of 9 Feb)\n\n| night | cloud % (21:00-02:00) |\n|---|---|\n{lines}"


SITUATIONS += family(
    "clear night", "Remind me to set the telescope up if any night this week is forecast under 20% cloud "
    "(astro/forecast.md)",
    {**HOME, "astro/forecast.md": _sky({})}, [
        Variant("thursday clears", Change(write={"astro/forecast.md": _sky({"Thu": "10"})}),
                ACT, "Thursday is now forecast at 10 % cloud, under 20 %: remind the user"),
        Variant("clear in words", Change(write={"astro/forecast.md": _sky({"Sat": "clear all night, none expected"})}),
                ACT, "Saturday is forecast clear with no cloud, well under 20 %: remind the user"),
        Variant("broken cloud", Change(write={"astro/forecast.md": _sky({"Thu": "35"})}),
                NOOP, "Thursday improved to 35 %, still above 20 %"),
        unrelated("astro/eyepieces.md", "# Eyepieces\n- 25 mm Plossl (came with the scope)\n- 10 mm, 2x Barlow\n"),
    ])
_OBSLOG = ("# Observing log\n\n- 12 Feb, 21:30, 8-inch Dob, garden: M42 lovely, the Trapezium stars sharp. "
           "Seeing 3/5.\n- 14 Feb, 22:00: M44 and M67 in Cancer, easy in the finder.\n")
SITUATIONS += family(
    "mystery object", "If I write in my observing log that I saw something I couldn't identify, try to work out "
    "what it was",
    {**HOME, "astro/observing-log.md": _OBSLOG}, [
        Variant("fuzzy patch", Change(append={"astro/observing-log.md": (
            "- 3 Mar, 22:10: faint fuzzy patch about 2 degrees south-west of Mirach, not on my chart. Did not move "
            "in 40 minutes. No idea what it was.\n")}),
            ESCALATE, "the user logged an object they could not identify: working out what it was needs research"),
        Variant("iss", Change(append={"astro/observing-log.md": (
            "- 3 Mar, 22:40: bright dot crossing Leo heading north-east, no blinking. Checked the pass times: it "
            "was the ISS.\n")}),
            NOOP, "the moving light was identified in the same entry as the ISS"),
        Variant("all known", Change(append={"astro/observing-log.md": (
            "- 3 Mar, 21:15: Double Cluster, then M81 and M82 in the same field. Transparency excellent.\n")}),
            NOOP, "every object logged is named; nothing unidentified"),
    ])
_FRIDGE = ("date in,item,donor,use by,checked by\n2026-03-09,6 strawberry yoghurts,Co-op Bridge St,2026-03-12,Raj\n"
           "2026-03-09,bag of carrots,allotment,,Raj\n2026-03-10,4 cheese sandwiches,Greggs,2026-03-10,Sal\n")
SITUATIONS += family(
    "fridge use-by", "Tell me if anything goes into the community fridge past its use-by date",
    {**HOME, "fridge/log.csv": _FRIDGE,
     "fridge/notes.md": "# Volunteer notes\n- Door seal replaced 2 Mar.\n- Raj does Mon/Wed, Sal Tue/Thu.\n"}, [
        Variant("ham a day over", Change(append={"fridge/log.csv": (
            "2026-03-11,2 packs sliced ham,drop-in donor,2026-03-10,Sal\n")}),
            ACT, "ham with a use-by of 10 March went in on 11 March: tell the user"),
        Variant("due tomorrow", Change(append={"fridge/log.csv": "2026-03-11,8 wraps,Greggs,2026-03-12,Sal\n"}),
            NOOP, "the wraps are within their use-by date"),
        Variant("turned away", Change(append={"fridge/notes.md": (
            "- 11 Mar: turned away a bag of chicken thighs a day past use-by, explained why to the donor. Nothing "
            "else came in.\n")}),
            NOOP, "the out-of-date chicken was refused, so nothing past its date went in"),
        nothing(),
    ], system_tasks=True)
_QUOTES = ("# Quotes\n\n| customer | piece | quote GBP | status |\n|---|---|---|---|\n"
           "| Mrs Pryce | two bentwood chairs, re-cane seats | 180 | sent 2 Mar |\n"
           "| Mr Adeyemi | oak sideboard, strip and re-polish | 420 | sent 4 Mar |\n"
           "| Dr Lund | mahogany bureau, new lock and fall hinges | 380 | sent 5 Mar |\n")
SITUATIONS += family(
    "quote accepted", "When a customer says yes to a quote, add the job to workshop/jobs.md",
    {**HOME, "workshop/quotes.md": _QUOTES,
     "workshop/jobs.md": "# Jobs on the bench\n- Hughes: pine dresser, new back boards (due 20 Mar)\n"}, [
        Variant("mail yes", Change(write={"mail/2026-03-09-pryce.txt": _mail(
            "Ann Pryce <annpryce@example.co.uk>", "Re: Chairs",
            "Thank you, that's fine, please go ahead with re-caning both chairs at 180. When would you like to "
            "collect them?")}),
            ACT, "Mrs Pryce accepted her quote: add one line to the jobs list"),
        Variant("yes on the phone", Change(memories=(
            "Mr Adeyemi rang, happy with 420 for the sideboard, I'm to pick it up next Tuesday.",)),
            ACT, "Mr Adeyemi agreed to the quote by phone: add the sideboard to the jobs"),
        Variant("haggling", Change(write={"mail/2026-03-09-lund.txt": _mail(
            "Erik Lund <e.lund@example.com>", "Re: Bureau",
            "Could you do it for 300 rather than 380? Otherwise I'll have a think and get back to you.")}),
            NOOP, "Dr Lund is bargaining; he has not accepted the quote"),
        Variant("new quote sent", Change(append={"workshop/quotes.md": (
            "| Ms Varga | walnut card table, lift and re-lay veneer | 260 | sent 9 Mar |\n")}),
            NOOP, "a new quote went out; nobody has said yes to it"),
    ], bystanders=("Tell me if the timber yard puts its prices up",))
_RIDES = ("# Calder Valley Riders: ride-outs\n\n## Sunday 15 March\nMeet 09:30 at the Red Kite cafe, over the Tops "
          "to Haworth, lunch at the Fleece, back by 15:00. Leader: Mick. Full tank at the start please.\n\n"
          "## Wednesday 11 March\nEvening run to the bike night at Squires. Meet 18:30 at the Shell garage.\n")
SITUATIONS += family(
    "sunday ride-out", "Tell me if Sunday's ride-out gets called off",
    {**HOME, "club/rides.md": _RIDES}, [
        Variant("off for ice", Change(append={"club/rides.md": (
            "\nUPDATE Sat 18:00 (Mick): Sunday is OFF. Black ice forecast on the Tops. Next ride 22 March.\n")}),
            ACT, "Sunday's ride is off: tell the user"),
        Variant("not leading", Change(write={"mail/2026-03-14-mick.txt": _mail(
            "Mick Sutcliffe <mick.s@example.net>", "Tomorrow",
            "Yellow warning for ice over the tops all morning. I'm not taking anyone up there on two wheels, "
            "so stay in bed, lads, and we'll go on the 22nd instead.")}),
            ACT, "the leader has called Sunday's ride off in other words: tell the user"),
        Variant("route changed", Change(append={"club/rides.md": (
            "\nUPDATE (Mick): road closed at Oxenhope for resurfacing, so Sunday goes via Hebden Bridge instead. "
            "Same meet time.\n")}),
            NOOP, "Sunday's ride is still on, by another route"),
        Variant("wednesday off", Change(append={"club/rides.md": (
            "\nUPDATE: Wednesday bike night cancelled, Squires is shut for a private do. Sunday as planned.\n")}),
            NOOP, "the Wednesday run is cancelled; the note says Sunday goes ahead"),
    ])


def _kit(tents: str = "not checked yet", mess: str = "not checked yet", stoves: str = "not checked yet") -> str:
    return ("# 1st Ashby Scouts: summer camp kit (camp 25 July)\n\n| item | qty | status |\n|---|---|---|\n"
            f"| patrol tents (Vango) | 6 | {tents} |\n| mess tent | 1 | {mess} |\n| gas stoves | 4 | {stoves} |\n"
            "| dixies | 8 | checked OK |\n| first aid kits | 3 | checked OK, restocked |\n")


SITUATIONS += family(
    "camp kit", "If the kit check in scouts/camp-kit.md turns up anything broken or missing for summer camp, plan "
    "how we replace it before we go",
    {**HOME, "scouts/camp-kit.md": _kit()}, [
        Variant("poles snapped", Change(write={"scouts/camp-kit.md": _kit(
            tents="tent 4: 2 poles snapped, groundsheet missing; others OK", mess="checked OK", stoves="checked OK")}),
            ESCALATE, "a tent has broken poles and a missing groundsheet: planning replacements before camp"),
        Variant("mice", Change(memories=(
            "Did the stores check tonight: mice have chewed through the mess tent roof and one gas stove won't "
            "light at all.",)),
            ESCALATE, "the mess tent is damaged and a stove is broken: work out how to replace them in time"),
        Variant("all fine", Change(write={"scouts/camp-kit.md": _kit(
            tents="checked OK", mess="checked OK", stoves="checked OK, new cartridges bought")}),
            NOOP, "the check found everything in order"),
        unrelated("scouts/badges.md", "# Badges to order\n- Camper: 6\n- Cook: 4\n- Navigator: 3\n"),
    ])
_WINE = ("# Cellar Door Wine Club orders\n\n| month | case | status |\n|---|---|---|\n"
         "| January | Winter reds, 12 bottles | delivered 22 Jan |\n| February | Argentina mixed | delivered 21 Feb |\n"
         "| March | Spring Rhone mixed | being picked |\n")
SITUATIONS += family(
    "wine case", "Let me know when this month's wine club case has been sent out",
    {**HOME, "wine/orders.md": _WINE}, [
        Variant("tracking mail", Change(write={"inbox/2026-03-19-cellardoor.txt": _mail(
            "Cellar Door Wine Club <orders@cellardoor.example>", "Your March case is on its way",
            "Good news: your Spring Rhone case left us this morning with DPD, tracking 1552 8890 4411. Expect it "
            "on Thursday between 10 and 2.")}),
            ACT, "the March case has been dispatched: tell the user"),
        Variant("status flips", Change(write={"wine/orders.md": _WINE.replace("being picked", "with courier, 19 Mar")}),
            ACT, "the March case is now with the courier, so it has been sent: tell the user"),
        Variant("contents preview", Change(write={"inbox/2026-03-12-cellardoor.txt": _mail(
            "Cellar Door Wine Club <orders@cellardoor.example>", "What's in your March case",
            "This month: a spring Rhone selection, from a bright Cotes du Rhone to a Vacqueyras for the weekend. "
            "Cases will leave our warehouse from the 18th.")}),
            NOOP, "the club describes the case and says it will leave from the 18th; it has not been sent"),
        Variant("last month's", Change(memories=("The February wine case came fine, that Malbec was lovely.",)),
            NOOP, "the user talks about last month's case, already delivered"),
    ])
_WEEK = ("# Week of 16 March\n\n| day | maths | English | other |\n|---|---|---|---|\n"
         "| Mon | fractions: halves and quarters | reading, Kensuke's Kingdom | nature walk |\n"
         "| Tue | adding fractions | diary writing | swimming |\n| Wed | maths tutor (Mr Hale) | spelling | museum |\n"
         "| Thu | fractions of amounts | poetry | baking |\n| Fri | quiz | library | forest school |\n")
SITUATIONS += family(
    "fractions", "If Ava's maths tutor says she's struggling with fractions, rework next week's maths in "
    "homeed/week-plan.md",
    {**HOME, "homeed/week-plan.md": _WEEK,
     "homeed/tutor-notes.md": "# Notes from Mr Hale\n- 4 Mar: times tables much better, 7s still slow.\n"}, [
        Variant("muddled", Change(append={"homeed/tutor-notes.md": (
            "- 11 Mar: Ava got muddled adding fractions with different denominators again, 3/10 on the quiz. She "
            "needs to go back to equivalent fractions before we go on.\n")}),
            ESCALATE, "the tutor says Ava is struggling with fractions: rework the week's maths plan"),
        Variant("clicked", Change(append={"homeed/tutor-notes.md": (
            "- 11 Mar: fractions finally clicked, 9/10 on the quiz. Ready to move on to decimals.\n")}),
            NOOP, "the tutor says fractions are going well"),
        Variant("long division", Change(append={"homeed/tutor-notes.md": (
            "- 11 Mar: fractions fine. Long division is where she gets stuck, she loses track of the remainders.\n")}),
            NOOP, "the trouble is long division; the tutor says fractions are fine"),
    ])
_APPTS = ("# Appointments, week of 23 March\n\n| day | time | client | where | service | status |\n"
          "|---|---|---|---|---|---|\n| Tue | 10:00 | Mrs Ellis | 4 Moor View | wash and set | booked |\n"
          "| Thu | 11:00 | Joan Tate | Flat 2, Beck House | cut and colour | booked |\n"
          "| Fri | 14:00 | Mr Rowe | Rosedene care home | gents' cut | booked |\n")
SITUATIONS += family(
    "hair cancellations", "If a client cancels, let me know so I can offer the slot to someone on the waiting list",
    {**HOME, "hair/appointments.md": _APPTS}, [
        Variant("status flips", Change(write={"hair/appointments.md": _APPTS.replace(
            "| wash and set | booked |", "| wash and set | cancelled (daughter rang, she's poorly) |")}),
            ACT, "Mrs Ellis's Tuesday appointment is cancelled: tell the user"),
        Variant("text from joan", Change(write={"inbox/2026-03-20-joan.txt": _mail(
            "Joan Tate <joan.tate@example.net>", "Thursday",
            "Sorry love, I can't do Thursday after all, I've got the grandchildren all week. I'll ring you when "
            "things calm down.")}),
            ACT, "Joan has called off Thursday's appointment: the slot is free, tell the user"),
        Variant("confirms", Change(write={"inbox/2026-03-20-joan.txt": _mail(
            "Joan Tate <joan.tate@example.net>", "Thursday",
            "Just checking you've still got me down for Thursday at 11. See you then, kettle will be on!")}),
            NOOP, "Joan confirmed her appointment"),
        Variant("new enquiry", Change(write={"inbox/2026-03-20-gill.txt": _mail(
            "Gill Marsh <gill.marsh@example.org>", "Perm?",
            "Do you do perms at home? I'm in Low Moor, any day but Monday. How much would it be?")}),
            NOOP, "a new client asking for a perm is not a cancellation"),
    ], bystanders=("Remind me when the van insurance renewal letter comes",))
SITUATIONS += family(
    "quiz scores", "whenever I tell you how we did at the quiz, add our score to quiz/scores.csv",
    {**HOME, "quiz/scores.csv": "date,pub,score,out of,position\n2026-02-24,The Plough,35,50,4\n"
                                "2026-03-03,The Plough,41,50,2\n"}, [
        Variant("second", Change(memories=(
            "Quiz tonight at the Plough: 38 out of 50, second place, robbed on the music round.",)),
            ACT, "the user gave the team's quiz result: add one row"),
        Variant("won", Change(memories=("We won the quiz! 44 points, the bar tab is ours this week.",)),
            ACT, "the team won with 44 points: log the score"),
        Variant("other pub", Change(memories=(
            "Heard the Fox and Hounds quiz was won by the Pub Philosophers with 46, they're getting good.",)),
            NOOP, "another team's score at another pub; the user said nothing about their own"),
        Variant("no quiz", Change(memories=("No quiz at the Plough this week, the quizmaster's in Tenerife.",)),
            NOOP, "there was no quiz, so there is no score to log"),
    ])
_EGGS = ("week ending,dozens sold,honesty box GBP\n2026-03-29,16,40.00\n2026-04-05,14,35.00\n2026-04-12,13,32.50\n")
SITUATIONS += family(
    "egg takings", "Warn me if a week's egg takings from the honesty box drop below 30 pounds",
    {**HOME, "farm/egg-sales.csv": _EGGS}, [
        Variant("poor week", Change(append={"farm/egg-sales.csv": "2026-04-19,9,22.50\n"}),
                ACT, "the week took 22.50 GBP, below 30: warn the user"),
        Variant("exactly thirty", Change(append={"farm/egg-sales.csv": "2026-04-19,12,30.00\n"}),
                NOOP, "30 GBP is not below 30"),
        Variant("price went up", Change(append={"farm/egg-sales.csv": "2026-04-19,11,33.00\n"}),
                NOOP, "fewer dozens sold but the takings were 33 GBP, above 30"),
        nothing(),
    ])


def _tap(isla: str = "", maya: str = "") -> str:
    rows = [("Ruby", "age 7-8", "paid"), ("Freya", "age 9-10", "paid"), ("Noah", "age 7-8", "paid"),
            ("Isla", isla, "paid" if isla else ""), ("Maya", maya, "paid" if maya else ""),
            ("Zara", "age 11-12", "paid")]
    lines = "".join(f"| {name} | {size} | {paid} |\n" for name, size, paid in rows)
    return ("# Tap (Saturday 10am): show costume orders, 'Sailor' set, 24 GBP\n\n| pupil | size | paid |\n"
            f"|---|---|---|\n{lines}")


SITUATIONS += family(
    "tap costumes", "Once every parent in the tap class has ordered a costume (dance/ folder), total it up and put "
    "the order for the supplier together",
    {**HOME, "dance/costumes-tap.md": _tap(),
     "dance/costumes-ballet.md": ("# Ballet (Saturday 11am): 'Snowflake' set, 29 GBP\n\n| pupil | size | paid |\n"
                                  "|---|---|---|\n| Ella | age 5-6 | paid |\n| Amira | | |\n")}, [
        Variant("last two in", Change(write={"dance/costumes-tap.md": _tap(isla="age 9-10", maya="age 7-8")}),
                ESCALATE, "all six tap pupils have ordered: totalling and preparing the supplier order is work"),
        Variant("one still out", Change(write={"dance/costumes-tap.md": _tap(isla="age 9-10")}),
                NOOP, "Isla ordered but Maya still has not, so the tap orders are not all in"),
        Variant("ballet complete", Change(write={"dance/costumes-ballet.md": (
            "# Ballet (Saturday 11am): 'Snowflake' set, 29 GBP\n\n| pupil | size | paid |\n|---|---|---|\n"
            "| Ella | age 5-6 | paid |\n| Amira | age 5-6 | paid |\n")}),
                NOOP, "the ballet class is complete; the tap class is still missing two orders"),
    ])
_PUZZLES = ("# Submissions\n\n| no. | where | sent | status |\n|---|---|---|---|\n"
            "| 212 | Northern Echo prize cryptic | 3 Feb | published 28 Feb |\n"
            "| 214 | Northern Echo prize cryptic | 2 Mar | with Ruth |\n| 215 | Puzzler's Monthly | 6 Mar | sent |\n")
SITUATIONS += family(
    "clue queries", "If the editor sends one of my crosswords back with queries on clues, go through them and "
    "suggest fixes",
    {**HOME, "crosswords/submissions.md": _PUZZLES,
     "crosswords/214.md": "# 214\n9ac Sailor's back in port (4)\n17dn Bird caught in patter, nervously (4)\n"}, [
        Variant("two queries", Change(write={"inbox/2026-03-16-ruth.txt": _mail(
            "Ruth Adair <puzzles@northernecho.example>", "214: a couple of queries",
            "Lovely puzzle. Two things: 9ac doesn't parse for me, which bit is the sailor? And in 17dn 'bird' "
            "feels too vague for TERN with those crossers. Could you look again and send fixes by Friday?")}),
            ESCALATE, "the editor queried two clues: working out fixes needs thought"),
        Variant("no queries", Change(write={"inbox/2026-03-16-ruth.txt": _mail(
            "Ruth Adair <puzzles@northernecho.example>", "214",
            "214 is a joy, no queries at all. It's scheduled for 28 March.")}),
            NOOP, "the editor accepted the puzzle with no queries"),
        Variant("solver's letter", Change(write={"inbox/2026-03-16-solver.txt": _mail(
            "Derek Noakes <dnoakes@example.com>", "Saturday's crossword",
            "I think there's a mistake in 12 across of puzzle 212: surely the answer should be plural? Regards.")}),
            NOOP, "a reader's complaint about a published puzzle is not the editor sending a puzzle back"),
    ])
_STONE = ("# Dad's headstone\n\nAshworth Memorials, grey granite, 30-inch ogee top. Highfield Cemetery, section C, "
          "plot 114.\n\nAgreed wording (family, 10 Jan):\n\nIn loving memory of\nThomas Henry Blake\n"
          "4 June 1941 - 19 November 2025\nBeloved husband of Margaret,\ndad and grandad\n'Gone fishing'\n")
_PROOF = ("Please check the proof of the inscription below and reply to approve it or send corrections.\n\n"
          "IN LOVING MEMORY OF\nTHOMAS HENRY BLAKE\n4 JUNE 1941 - 19 NOVEMBER {year}\nBELOVED HUSBAND OF MARGARET,\n"
          "DAD AND GRANDAD\n'GONE FISHING'\n\nLettering: V-cut, gilded.")
SITUATIONS += family(
    "headstone proof", "When the stonemason sends the proof of Dad's headstone, check it against the wording we "
    "agreed in family/headstone.md",
    {**HOME, "family/headstone.md": _STONE}, [
        Variant("wrong year", Change(write={"inbox/2026-02-18-ashworth.txt": _mail(
            "Ashworth Memorials <office@ashworth-memorials.example>", "Proof: Blake, Highfield C114",
            _PROOF.format(year="2024"))}),
            ESCALATE, "the proof arrived: checking it line by line against the agreed wording is a review"),
        Variant("matches", Change(write={"inbox/2026-02-18-ashworth.txt": _mail(
            "Ashworth Memorials <office@ashworth-memorials.example>", "Proof: Blake, Highfield C114",
            _PROOF.format(year="2025"))}),
            ESCALATE, "the proof arrived and must be compared with the agreed wording, even if it turns out right"),
        Variant("ground settling", Change(write={"inbox/2026-02-18-ashworth.txt": _mail(
            "Ashworth Memorials <office@ashworth-memorials.example>", "Blake memorial",
            "The cemetery needs the ground to settle until at least May before a stone can be fixed. We'll send "
            "the inscription proof nearer the time.")}),
            NOOP, "the mason says the proof will come later"),
        Variant("burial deed", Change(write={"inbox/2026-02-18-council.txt": _mail(
            "Bereavement Services <cemeteries@moorside.example.gov>", "Highfield Cemetery, grave C114",
            "Please find enclosed the deed of exclusive right of burial for grave C114 in the name of Mrs "
            "Margaret Blake. Keep it somewhere safe.")}),
            NOOP, "a burial deed from the council, not the mason's proof"),
    ], bystanders=("Let me know when the garage says the car is ready",))
_HP = ("2026-01-10 daily: heat out 46.0 kWh, elec in 14.6 kWh, COP 3.15, outside avg 5.2C\n"
       "2026-01-11 daily: heat out 49.3 kWh, elec in 16.2 kWh, COP 3.04, outside avg 3.8C\n")
SITUATIONS += family(
    "heat pump cop", "Flag it if the heat pump's daily COP in ops/logs/heatpump.log falls below 2.5",
    {**HOME, "ops/logs/heatpump.log": _HP}, [
        Variant("cold snap", Change(append={"ops/logs/heatpump.log": (
            "2026-01-12 daily: heat out 58.1 kWh, elec in 25.2 kWh, COP 2.31, outside avg -3.4C\n")}),
            ACT, "the day's COP was 2.31, below 2.5: flag it"),
        Variant("numbers only", Change(append={"ops/logs/heatpump.log": (
            "2026-01-12 daily: heat out 40.2 kWh, elec in 17.5 kWh, outside avg -1.0C (COP calc failed, sensor "
            "dropout)\n")}),
            ACT, "40.2 kWh of heat for 17.5 kWh of electricity is a COP of about 2.3, below 2.5: flag it"),
        Variant("exactly", Change(append={"ops/logs/heatpump.log": (
            "2026-01-12 daily: heat out 52.5 kWh, elec in 21.0 kWh, COP 2.50, outside avg 0.9C\n")}),
            NOOP, "a COP of 2.50 is not below 2.5"),
        Variant("legionella cycle", Change(append={"ops/logs/heatpump.log": (
            "2026-01-12 02:00 DHW legionella cycle: immersion boost, cycle COP 1.1\n"
            "2026-01-12 daily: heat out 47.7 kWh, elec in 15.9 kWh, COP 3.00, outside avg 4.4C\n")}),
            NOOP, "only the weekly hot-water cycle ran low; the daily COP was 3.00"),
    ], system_tasks=True)
_ESOL = ("# Thursday class notes\n\n- 5 Mar: past simple, questions about last weekend. Amal and Yusuf did a role "
         "play at the GP's.\n")
SITUATIONS += family(
    "job interview practice", "If one of my English learners mentions a job interview coming up, put together a "
    "practice lesson for it",
    {**HOME, "esol/class-notes.md": _ESOL,
     "esol/learners.md": ("# Learners\n- Amal (Arabic, pre-intermediate), wants bakery work\n"
                          "- Yusuf (Arabic, elementary), was a warehouse supervisor in Khartoum\n"
                          "- Hamid (Dari, intermediate), drives, looking for any work\n")}, [
        Variant("bakery interview", Change(append={"esol/class-notes.md": (
            "- 12 Mar: Amal has an interview at Crust & Co bakery next Wednesday at 10. Nervous about questions "
            "on shifts and food hygiene.\n")}),
            ESCALATE, "Amal has an interview coming: planning a practice lesson for it takes work"),
        Variant("said after class", Change(memories=(
            "Yusuf told me after class he's got an interview for a warehouse job at Northgate Logistics on "
            "Monday.",)),
            ESCALATE, "Yusuf has an interview on Monday: put a practice lesson together"),
        Variant("already started", Change(append={"esol/class-notes.md": (
            "- 12 Mar: great news, Hamid started at the car wash on Monday. His interview last week went fine.\n")}),
            NOOP, "Hamid's interview is over and he has the job; nothing is coming up"),
        Variant("hospital", Change(append={"esol/class-notes.md": (
            "- 12 Mar: Amal missed class, her son had a hospital appointment. Yusuf asked about bus passes.\n")}),
            NOOP, "a hospital appointment and bus passes, no job interview"),
    ])
_REPAIRS = ("2026-05-02 09:14 T1043 iPhone 13, cracked screen: parts ordered from PartsDirect, waiting\n"
            "2026-05-06 11:40 T1051 Pixel 7, swollen battery: parts ordered from Mobiparts, waiting\n"
            "2026-05-07 15:02 T1052 Galaxy A54, charging port: fixed, collected\n")
SITUATIONS += family(
    "parts waiting", "Remind me to chase the supplier if a repair in ops/logs/repairs.log has been waiting for parts "
    "more than 10 days",
    {**HOME, "ops/logs/repairs.log": _REPAIRS}, [
        Variant("back-ordered", Change(append={"ops/logs/repairs.log": (
            "2026-05-13 10:05 T1043 still no screen, PartsDirect says back-ordered\n")}),
            ACT, "T1043 has waited for parts since 2 May, 11 days: remind the user to chase PartsDirect"),
        Variant("customer asks again", Change(append={"ops/logs/repairs.log": (
            "2026-05-17 09:30 T1051 customer in again asking about the Pixel; nothing from Mobiparts yet\n"
            "2026-05-17 09:32 T1043 screen fitted 12 May, collected\n")}),
            ACT, "T1051's battery was ordered on 6 May and is still not in on the 17th, 11 days: remind the user"),
        Variant("a week", Change(append={"ops/logs/repairs.log": (
            "2026-05-09 16:20 T1043 still waiting on the screen, PartsDirect says Monday\n")}),
            NOOP, "T1043 has waited 7 days, not more than 10"),
        Variant("parts arrived", Change(append={"ops/logs/repairs.log": (
            "2026-05-13 12:10 T1043 screen arrived, fitted and tested, customer texted\n"
            "2026-05-13 12:15 T1051 battery arrived, fitting tomorrow\n")}),
            NOOP, "the parts for both waiting repairs have arrived"),
    ])
_EXHIBITORS = ("# Ashby MRC exhibition, 9-10 May, Ashby Leisure Centre\n\n| stand | layout | from | tables |\n"
               "|---|---|---|---|\n| A | Kirkby Sidings (OO) | Dalesford MRC | 6 |\n"
               "| B | Porthcarrow (N gauge) | Sue and Alan Pike | 3 |\n| C | Tinplate toys | Keith Nash | 4 |\n"
               "| D | Club layout: Ashby Road (O) | us | 8 |\n")
SITUATIONS += family(
    "exhibitor withdraws", "If an exhibitor pulls out of the model railway exhibition, rework the hall plan so the "
    "gap is filled",
    {**HOME, "railway/exhibitors.md": _EXHIBITORS,
     "railway/hall-plan.md": "# Hall plan\nMain hall: A along the north wall, D centre, B and C by the stage.\n"
                             "Side room: trade stands and the cafe.\n"}, [
        Variant("van failed", Change(write={"mail/2026-04-20-dalesford.txt": _mail(
            "Colin Pratt <secretary@dalesford-mrc.example>", "Kirkby Sidings, 9-10 May",
            "I'm very sorry, we have to withdraw Kirkby Sidings from your show: our van failed its MOT badly and "
            "there's no other way to move the layout.")}),
            ESCALATE, "Kirkby Sidings pulled out, leaving six tables to fill: reworking the hall plan needs thought"),
        Variant("might not", Change(write={"mail/2026-04-20-dalesford.txt": _mail(
            "Colin Pratt <secretary@dalesford-mrc.example>", "Van",
            "Our van is in for its MOT next week. If it fails we might struggle to get Kirkby Sidings to you, "
            "but let's not panic yet, I'll let you know.")}),
            NOOP, "Dalesford might have trouble; they have not pulled out"),
        Variant("extra table", Change(write={"mail/2026-04-20-pike.txt": _mail(
            "Sue Pike <sue.pike@example.org>", "Porthcarrow",
            "Looking forward to May! Could we have one extra table for the fiddle yard? Fine if not.")}),
            NOOP, "an exhibitor asking for an extra table is still coming"),
        unrelated("railway/raffle.md", "# Raffle prizes\n- Hornby starter set (donated by Trains4U)\n- cake\n"),
    ])
