"""The held-out labelled set no. 17 for ``bench/judgement.py``, written without reading how the product decides.

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


_REVIEWS = ("date,order,stars,text\n"
            "2026-06-15,#3290,5,\"Smells exactly like a fig tree in August. Will buy again\"\n"
            "2026-06-16,#3302,4,\"Nice throw, burns evenly. Lid is a bit stiff\"\n")
SITUATIONS += family(
    "melted candles", "if a customer review says a candle turned up broken or melted, give me the order number so I "
    "can send a replacement (shop/reviews.csv)",
    {**HOME, "shop/reviews.csv": _REVIEWS}, [
        Variant("cracked jar", Change(append={"shop/reviews.csv": (
            "2026-06-18,#3318,2,\"Gorgeous scent but the glass came split down the side and there was wax all over "
            "the tissue paper\"\n")}),
            ACT, "order #3318 arrived with its jar split: tell the user the order number"),
        Variant("feared melting", Change(append={"shop/reviews.csv": (
            "2026-06-18,#3320,5,\"Was worried it would melt in the post during the heatwave but it got here "
            "perfect. Lovely!\"\n")}),
            NOOP, "the customer feared melting but the candle arrived perfect"),
        Variant("dented box", Change(append={"shop/reviews.csv": (
            "2026-06-18,#3321,4,\"Courier had clearly sat on the outer box, but the candle inside was spotless\"\n")}),
            NOOP, "only the outer box was dented; the candle was undamaged"),
    ])

_INVENTORY = ("# Stock, Paper & Thread\n\n| item | colour | in stock |\n|---|---|---|\n"
              "| A5 linen notebook | sage | 23 |\n| A6 linen notebook | sage | 14 |\n"
              "| A5 kraft notebook | natural | 41 |\n")
SITUATIONS += family(
    "a5 linen notebooks", "Tell me when we're down to fewer than 10 of the A5 linen notebooks. Stock sheet is "
    "shop/inventory.md",
    {**HOME, "shop/inventory.md": _INVENTORY}, [
        Variant("seven left", Change(write={"shop/inventory.md": _INVENTORY.replace(
            "| A5 linen notebook | sage | 23 |", "| A5 linen notebook | sage | 7 |")}),
            ACT, "only 7 A5 linen notebooks are left, fewer than 10: tell the user"),
        Variant("a6 low", Change(write={"shop/inventory.md": _INVENTORY.replace(
            "| A6 linen notebook | sage | 14 |", "| A6 linen notebook | sage | 3 |")}),
            NOOP, "the A6 linen notebooks ran low, not the A5 ones"),
        Variant("exactly ten", Change(write={"shop/inventory.md": _INVENTORY.replace(
            "| A5 linen notebook | sage | 23 |", "| A5 linen notebook | sage | 10 |")}),
            NOOP, "10 left is not fewer than 10"),
    ])

_ORDERS = ("order,date,name,ship_to,bill_country\n3398,2026-06-18,Hannah Pryce,Cardiff UK,UK\n"
           "3399,2026-06-18,Ibrahim Said,Norwich UK,UK\n")
SITUATIONS += family(
    "cn22 forms", "whenever an order has to ship outside the UK remind me it needs a CN22 customs form "
    "(shop/orders.csv)",
    {**HOME, "shop/orders.csv": _ORDERS}, [
        Variant("toronto", Change(append={"shop/orders.csv": "3402,2026-06-19,Megan Howe,Toronto Canada,Canada\n"}),
                ACT, "order 3402 ships to Canada: remind the user about the customs form"),
        Variant("dublin", Change(append={"shop/orders.csv": "3403,2026-06-19,Aoife Brennan,Dublin Ireland,Ireland\n"}),
                ACT, "order 3403 ships to Dublin, outside the UK: remind the user about the form"),
        Variant("belfast", Change(append={"shop/orders.csv": "3404,2026-06-19,Ciaran Doyle,Belfast UK,UK\n"}),
                NOOP, "Belfast is in the UK; no customs form is needed"),
        Variant("french card, bath address", Change(append={
            "shop/orders.csv": "3405,2026-06-19,Claire Dubois,Bath UK,France\n"}),
            NOOP, "the card is French but the parcel ships to Bath, inside the UK"),
    ])

_APPEAL = ("# Winter toy appeal 2026\nTarget: 400 gifts by Friday 11 December\n\n| drop-off point | gifts |\n"
           "|---|---|\n| Kelby Library | 131 |\n| Co-op, Station Rd | 104 |\n| St Mark's Church | 98 |\n\n"
           "Total so far: 333\n")
SITUATIONS += family(
    "toy appeal target", "Let me know when the Christmas toy appeal reaches its target (charity/toy-appeal.md)",
    {**HOME, "charity/toy-appeal.md": _APPEAL}, [
        Variant("412 gifts", Change(write={"charity/toy-appeal.md": _APPEAL.replace(
            "| 131 |", "| 162 |").replace("| 104 |", "| 139 |").replace("| 98 |", "| 111 |").replace(
            "Total so far: 333", "Total so far: 412")}),
            ACT, "412 gifts are in, past the 400 target: tell the user"),
        Variant("396 gifts", Change(write={"charity/toy-appeal.md": _APPEAL.replace(
            "| 131 |", "| 158 |").replace("| 104 |", "| 131 |").replace("| 98 |", "| 107 |").replace(
            "Total so far: 333", "Total so far: 396")}),
            NOOP, "396 gifts is still short of 400"),
        Variant("pledge", Change(append={"charity/toy-appeal.md": (
            "\nNote 3 Dec: Halden Tyres have pledged 80 gifts from their staff collection, dropping them at the "
            "library next week.\n")}),
            NOOP, "80 gifts are only pledged; the count stays at 333"),
    ])

SITUATIONS += family(
    "council grant letter", "If the trustees decide we've lost the council grant, draft a letter to our regular "
    "donors explaining the gap. Minutes go in charity/trustees/",
    {**HOME, "charity/trustees/2026-02-minutes.md": (
        "# Brightwater Youth Project, trustees, 10 Feb 2026\n\n1. Accounts to January approved.\n"
        "2. Kelby Borough Council youth grant (£18,000 a year) up for renewal; officers to report in March.\n"
        "3. Minibus MOT passed.\n")}, [
        Variant("not renewed", Change(write={"charity/trustees/2026-03-minutes.md": (
            "# Brightwater Youth Project, trustees, 16 Mar 2026\n\n1. Kelby Borough Council has confirmed the "
            "youth grant will not be renewed after 31 March because of its own budget cuts. Trustees noted this "
            "leaves a gap of £18,000 in 2026-27 and agreed supporters should be told.\n"
            "2. Summer scheme dates fixed: 27 July to 14 August.\n")}),
            ESCALATE, "the council grant is lost: drafting the donor letter needs writing"),
        Variant("decision delayed", Change(write={"charity/trustees/2026-03-minutes.md": (
            "# Brightwater Youth Project, trustees, 16 Mar 2026\n\n1. The council's grant decision has slipped "
            "to the June cabinet. Officers told the chair they are 'optimistic'.\n"
            "2. Summer scheme dates fixed: 27 July to 14 August.\n")}),
            NOOP, "the grant decision is delayed; nothing is lost yet"),
    ])

_CONCERTS = ("# Cantamus, spring concerts\n\n## Sat 9 May, St Columba's, 7.30pm\nDress: all black, long sleeves\n"
             "Call: 6.15pm\n\n## Sat 23 May, Harrow Arts Centre, 3pm\nDress: all black\nCall: 1.45pm\n")
SITUATIONS += family(
    "9 may dress code", "i sing alto in Cantamus. tell me if what we're meant to wear for the 9 May concert changes "
    "(choir/concert-info.md)",
    {**HOME, "choir/concert-info.md": _CONCERTS}, [
        Variant("teal scarf", Change(write={"choir/concert-info.md": _CONCERTS.replace(
            "Dress: all black, long sleeves\n", "Dress: all black, long sleeves, plus the teal choir scarf "
                                                "(collect yours from Sue at Thursday's rehearsal)\n")}),
            ACT, "a teal scarf was added to the 9 May dress: tell the user"),
        Variant("23 may changed", Change(write={"choir/concert-info.md": _CONCERTS.replace(
            "Dress: all black\nCall: 1.45pm", "Dress: black trousers or skirt, white top\nCall: 1.45pm")}),
            NOOP, "the dress changed for the 23 May concert, not 9 May"),
        Variant("earlier call", Change(write={"choir/concert-info.md": _CONCERTS.replace(
            "Call: 6.15pm", "Call: 5.45pm (extra run of the Rutter)")}),
            NOOP, "only the call time for 9 May changed, not the dress"),
    ])

_BANDCHAT = ("[09/04 19:02] Kez: setlist v3 is on the drive\n"
             "[09/04 19:10] Marco: can we drop Mr Brightside, I'm begging\n")
SITUATIONS += family(
    "fox and hounds dropout", "ping me if anyone in the band says they can't make the Fox & Hounds gig on the 18th "
    "(band/chat.txt)",
    {**HOME, "band/chat.txt": _BANDCHAT}, [
        Variant("drummer away", Change(append={"band/chat.txt": (
            "[10/04 08:41] Dom: gutted lads, work's sending me to Aberdeen that whole week so the 18th is a no from "
            "me. Could Jas dep on drums?\n")}),
            ACT, "Dom can't play on the 18th: tell the user"),
        Variant("rehearsal only", Change(append={"band/chat.txt": (
            "[10/04 08:41] Dom: can't do Thursday's rehearsal, parents' evening. Fine for the 18th though\n")}),
            NOOP, "Dom misses a rehearsal; he is fine for the gig on the 18th"),
        Variant("running late", Change(append={"band/chat.txt": (
            "[10/04 08:41] Marco: heads up, on the 18th I'll be there about 7.45, straight from work. Kez can you "
            "line-check my bass?\n")}),
            NOOP, "Marco will be late but is playing the gig"),
    ], bystanders=("Tell me when the Fox & Hounds pays us for the March gig",))

SITUATIONS += family(
    "act two rehearsals", "When Gillian posts the Act 2 rehearsal schedule (theatre/rehearsals/), check it against "
    "my Wednesday late shifts in work/shifts.md and draft her a note about the ones I'll miss",
    {**HOME, "theatre/rehearsals/act1.md": (
        "# Hobson's Choice, Act 1 rehearsals\nMon 13 Apr 7.30pm, Wed 15 Apr 7.30pm, Sun 19 Apr 2pm (all in the "
        "Ferndale Institute)\n"),
     "work/shifts.md": "Late shifts (till 9.30pm): Wed 6 May, Wed 20 May, Wed 3 June\n"}, [
        Variant("act 2 posted", Change(write={"theatre/rehearsals/act2.md": (
            "# Hobson's Choice, Act 2 rehearsals\nWed 6 May 7.30pm, Sun 10 May 2pm, Wed 13 May 7.30pm, "
            "Wed 20 May 7.30pm (off book!), Sun 24 May 2pm\n")}),
            ESCALATE, "the Act 2 schedule is up: checking it against the shifts and drafting the note needs work"),
        Variant("act 1 revised", Change(write={"theatre/rehearsals/act1.md": (
            "# Hobson's Choice, Act 1 rehearsals\nMon 13 Apr 7.30pm, Thu 16 Apr 7.30pm (moved from Wed), Sun 19 Apr "
            "2pm (all in the Ferndale Institute)\n")}),
            NOOP, "the Act 1 schedule was revised; Act 2's is not out"),
        Variant("after easter", Change(memories=(
            "Gillian said tonight she'll put the Act 2 schedule up after Easter.",)),
            NOOP, "the Act 2 schedule is only promised"),
    ])

_HALL = "date,start,end,hirer\n2026-05-09,10:00,16:00,Kelby WI craft day\n2026-05-10,14:00,17:00,Sunday tea dance\n"
SITUATIONS += family(
    "hall early opening", "I'm the key holder for St Aidan's hall. Tell me about any booking that needs the hall "
    "opening before 8 in the morning (hall/bookings.csv)",
    {**HOME, "hall/bookings.csv": _HALL}, [
        Variant("7.30 start", Change(append={"hall/bookings.csv": "2026-05-16,07:30,12:00,Rotary car boot set-up\n"}),
                ACT, "the Rotary booking starts at 7:30 in the morning: tell the user"),
        Variant("eight sharp", Change(append={"hall/bookings.csv": "2026-05-16,08:00,11:00,Little Acorns nearly-new "
                                                                   "sale\n"}),
                NOOP, "an 8:00 start is not before 8"),
        Variant("half seven evening", Change(append={"hall/bookings.csv": "2026-05-16,19:30,23:30,Harriet Moss 40th "
                                                                          "birthday\n"}),
                NOOP, "the half-seven booking is in the evening"),
    ])

_RIDES = ("# Wharfedale Wheelers rides\n\n| date | ride | route | km |\n|---|---|---|---|\n"
          "| Sun 12 Apr | club run | Ripley loop | 84 |\n| Sat 18 Apr | chaingang | Harewood bank | 65 |\n")
SITUATIONS += family(
    "club run over 100", "tell me if a sunday club run goes over 100km, I'm not up to that yet (cycling/rides.md)",
    {**HOME, "cycling/rides.md": _RIDES}, [
        Variant("112 km", Change(append={"cycling/rides.md": "| Sun 19 Apr | club run | Three Dales via Pateley "
                                                             "Bridge | 112 |\n"}),
                ACT, "Sunday's club run is 112 km, over 100: tell the user"),
        Variant("exactly 100", Change(append={"cycling/rides.md": "| Sun 19 Apr | club run | Boroughbridge and "
                                                                  "back | 100 |\n"}),
                NOOP, "100 km is not over 100"),
        Variant("saturday 120", Change(append={"cycling/rides.md": "| Sat 25 Apr | audax warm-up | Yorkshire Wolds "
                                                                   "| 120 |\n"}),
                NOOP, "the 120 km ride is on a Saturday, not a Sunday club run"),
    ])

SITUATIONS += family(
    "10k pb", "if I run a new 10k PB, put it in running/pbs.md",
    {**HOME, "running/pbs.md": "# PBs\n5k: 21:48 (Harewood parkrun, Mar 2026)\n10k: 45:30 (Abbey Dash, Nov 2025)\n"
                               "Half: 1:41:20 (Ilkley, Oct 2025)\n"}, [
        Variant("44:12", Change(memories=("Bramley 10k this morning, 44:12 chip time!! legs are dead",)),
                ACT, "44:12 beats the 45:30 10k best: add the new PB"),
        Variant("46:01", Change(memories=("Otley 10k today, 46:01, that hill at 7k finished me off",)),
                NOOP, "46:01 is slower than the 45:30 PB"),
        Variant("half pb", Change(memories=("New half marathon best at Harrogate, 1:39:50, buzzing",)),
                NOOP, "the new best is for the half marathon, not the 10k"),
    ])

SITUATIONS += family(
    "board order", "I captain Kingsway B. If anyone drops out of Thursday's match against Oldfield, rework the board "
    "order with the reserves in chess/kingsway-b.md and draft a message to the team",
    {**HOME, "chess/kingsway-b.md": (
        "# Kingsway B v Oldfield A, Thu 22 Jan 2026, away\nBoard 1: Aled Rhys (1840)\nBoard 2: Priya Nair (1795)\n"
        "Board 3: Me (1760)\nBoard 4: Colin Webb (1702)\n\nReserves: Sam Tully (1690), Hattie Ng (1655)\n")}, [
        Variant("priya out", Change(memories=(
            "Priya messaged: her flight home got moved to Thursday evening so she can't play against Oldfield.",)),
            ESCALATE, "Priya dropped out: a new board order and a message to the team need working out"),
        Variant("blitz night", Change(memories=("Priya can't make Tuesday's blitz night at the club.",)),
                NOOP, "Priya misses a club night, not the Oldfield match"),
        Variant("cutting it fine", Change(memories=(
            "Aled says he'll be cutting it fine on Thursday, train gets in at 7.20, but he'll be there for the "
            "start.",)),
            NOOP, "Aled will be there; nobody dropped out"),
    ])

_TABLE = ("# Friday Curse of Strahd (the Dice Box, 7pm)\n1. Imogen\n2. Raf\n3. Bea\n4. Tomasz\n5. (open)\n"
          "6. (open)\n")
SITUATIONS += family(
    "friday table full", "Tell me when Friday's Strahd table is full, it has 6 seats (games/friday-table.md)",
    {**HOME, "games/friday-table.md": _TABLE}, [
        Variant("fifth seat", Change(write={"games/friday-table.md": _TABLE.replace("5. (open)", "5. Lowri")}),
                NOOP, "five of the six seats are taken; one is still open"),
        Variant("saturday table", Change(write={"games/saturday-table.md": (
            "# Saturday Blades in the Dark (the Dice Box, 2pm)\n1. Kit\n2. Oona\n3. Jem\n4. Ash\n5. Pavel\n"
            "6. Nadia\nFULL, waiting list open\n")}),
            NOOP, "the Saturday table is full, not the Friday one"),
    ])

SITUATIONS += family(
    "cataract date", "let me know when the eye hospital gives me a date for the cataract operation",
    {**HOME, "health/eyes.md": "Right eye cataract. Referred Feb 2026 to Mr Whitfield, St Helen's.\n"}, [
        Variant("surgery booked", Change(write={"inbox/2026-04-20-st-helens.txt": _mail(
            "St Helen's Eye Unit <eyeunit@sthelens.example>", "Your admission for surgery",
            "Your right cataract operation with Mr Whitfield's team is booked for Tuesday 16 June 2026. Please come "
            "to Day Surgery, level 2, at 7.30am and do not drive home.")}),
            ACT, "the operation date is set for 16 June: tell the user"),
        Variant("pre-op only", Change(write={"inbox/2026-04-20-st-helens.txt": _mail(
            "St Helen's Eye Unit <eyeunit@sthelens.example>", "Pre-operative assessment",
            "Your pre-operative assessment is on Tuesday 12 May at 2.10pm. A date for surgery will be agreed with "
            "you after this appointment.")}),
            NOOP, "a pre-op assessment is booked; the operation date is not set"),
        Variant("waiting time", Change(write={"inbox/2026-04-20-st-helens.txt": _mail(
            "St Helen's Eye Unit <eyeunit@sthelens.example>", "Waiting list update",
            "You remain on the waiting list for cataract surgery. The current wait is around 18 weeks.")}),
            NOOP, "a waiting time estimate is not a date"),
    ])

_PENDANT = ("2026-03-13 21:04:55 unit=MH-2231 event=CHECK_IN status=ok\n"
            "2026-03-14 05:00:02 unit=MH-2231 event=CHECK_IN status=ok\n")
SITUATIONS += family(
    "mum's pendant", "Mum's pendant alarm logs to ops/logs/pendant.log. Tell me if it picks up a fall",
    {**HOME, "ops/logs/pendant.log": _PENDANT}, [
        Variant("fall", Change(append={"ops/logs/pendant.log": (
            "2026-03-14 06:52:10 unit=MH-2231 event=FALL_DETECTED location=hallway call_centre=connected\n")}),
            ACT, "the pendant detected a fall: tell the user"),
        Variant("monthly test", Change(append={"ops/logs/pendant.log": (
            "2026-03-14 10:00:31 unit=MH-2231 event=TEST_CALL result=ok operator=Jade\n")}),
            NOOP, "a routine test call is not a fall"),
        Variant("battery low", Change(append={"ops/logs/pendant.log": (
            "2026-03-14 10:05:12 unit=MH-2231 event=PENDANT_BATTERY_LOW level=15%\n")}),
            NOOP, "a low battery warning is not a fall"),
    ])

SITUATIONS += family(
    "dad's care plan", "When Ashgrove send Dad's new care plan, go through it and tell me what's different from the "
    "old one (care/dad/)",
    {**HOME, "care/dad/care-plan-2025.md": (
        "# Care plan, George Hurst, Ashgrove House, Oct 2025\nMobility: walks with frame, one carer.\nDiet: normal, "
        "soft foods if tired.\nMedication: given by staff, 8am and 8pm.\nNight checks: 2-hourly.\n")}, [
        Variant("new plan", Change(write={"care/dad/care-plan-2026.md": (
            "# Care plan, George Hurst, Ashgrove House, Apr 2026\nMobility: hoist for transfers, two carers.\n"
            "Diet: fork-mashable, thickened drinks (level 1).\nMedication: given by staff, 8am, 2pm and 8pm.\n"
            "Night checks: hourly.\n")}),
            ESCALATE, "the new care plan arrived: comparing it with the old one needs reading and reasoning"),
        Variant("invoice", Change(write={"care/dad/invoice-2026-04.md": (
            "Ashgrove House invoice, April 2026: residential care, 30 nights, £4,380.00. Due 15 May.\n")}),
            NOOP, "an invoice is not the care plan"),
        Variant("review date", Change(write={"inbox/2026-04-02-ashgrove.txt": _mail(
            "Ashgrove House <office@ashgrove.example>", "George's care review",
            "We'd like to review George's care on Wednesday 3 June at 11am. We'll send the updated plan afterwards.")}),
            NOOP, "a review meeting is booked; the new plan will come later"),
    ])

SITUATIONS += family(
    "esme's reading", "log how long Esme reads each day whenever I mention it (homeschool/reading.md)",
    {**HOME, "homeschool/reading.md": "# Esme's reading\n- Mon 2 Mar: 25 min, Varjak Paw\n"
                                      "- Tue 3 Mar: 30 min, Varjak Paw\n"}, [
        Variant("wolf brother", Change(memories=(
            "Esme got through two chapters of Wolf Brother this morning, about 40 minutes.",)),
            ACT, "Esme read for about 40 minutes: log it"),
        Variant("finn read", Change(memories=("Finn read for 20 minutes before bed tonight.",)),
                NOOP, "Finn read, not Esme"),
        Variant("plans to", Change(memories=("Esme wants to start The Hobbit after lunch tomorrow.",)),
                NOOP, "Esme only plans to read; nothing to log yet"),
    ], memories=("We home educate Esme (9) and Finn (6).",))

_BROKER = "Kelso Mortgages <cases@kelsomortgages.example>"
SITUATIONS += family(
    "down valuation", "we offered £285,000 on 7 Wren Close. if the lender's valuation comes in under that, work out "
    "what our options are and draft something for the estate agent",
    HOME, [
        Variant("valued at 272", Change(write={"inbox/2026-04-08-kelso.txt": _mail(
            _BROKER, "7 Wren Close: valuation",
            "The lender's surveyor has valued 7 Wren Close at £272,000, against your agreed price of £285,000. "
            "The lender will still lend 90% of the lower figure.")}),
            ESCALATE, "the valuation is £13,000 under the offer: options and a draft for the agent need reasoning"),
        Variant("valued at price", Change(write={"inbox/2026-04-08-kelso.txt": _mail(
            _BROKER, "7 Wren Close: valuation",
            "Good news: the valuation has come back at £285,000. Your formal mortgage offer should follow this "
            "week.")}),
            NOOP, "the valuation matches the offer"),
        Variant("booked", Change(write={"inbox/2026-04-06-kelso.txt": _mail(
            _BROKER, "7 Wren Close: valuation booked",
            "The lender's surveyor will visit 7 Wren Close on Thursday 9 April. We'll be in touch with the result.")}),
            NOOP, "the valuation is only booked"),
    ])

_FOXLEY = "Foxley Homes <lettings@foxleyhomes.example>"
SITUATIONS += family(
    "mercer street renewal", "let me know once the renewal on our flat is signed by both sides. we're in flat 2A, "
    "14 Mercer Street, the agent is Foxley Homes",
    HOME, [
        Variant("countersigned", Change(write={"inbox/2026-05-27-foxley.txt": _mail(
            _FOXLEY, "Flat 2A, 14 Mercer Street: renewal",
            "Your landlord countersigned this morning, so your new agreement runs from 1 July 2026 to 30 June 2027. "
            "A copy is attached for your records.")}),
            ACT, "the landlord countersigned the renewal: tell the user"),
        Variant("sent to landlord", Change(write={"inbox/2026-05-27-foxley.txt": _mail(
            _FOXLEY, "Flat 2A, 14 Mercer Street: renewal",
            "Thanks for signing. We have now sent the agreement to your landlord for signature.")}),
            NOOP, "the tenants signed; the landlord has not yet"),
        Variant("flat 2b", Change(write={"inbox/2026-05-27-foxley.txt": _mail(
            _FOXLEY, "Flat 2B, 14 Mercer Street: renewal",
            "Both parties have now signed the renewal for Flat 2B. Apologies if this reached you in error.")}),
            NOOP, "the signed renewal is for Flat 2B, not the user's flat 2A"),
    ], bystanders=("Remind me when the council tax direct debit for the flat changes",))

_GARAGE = "2026-09-01 07:41:09 door=garage OPEN\n2026-09-01 07:43:30 door=garage CLOSED\n"
SITUATIONS += family(
    "garage door left open", "tell me if the garage door stays open more than 15 min any time after 10pm "
    "(ops/logs/garage-door.log)",
    {**HOME, "ops/logs/garage-door.log": _GARAGE}, [
        Variant("eight minutes", Change(append={"ops/logs/garage-door.log": (
            "2026-09-01 22:40:11 door=garage OPEN\n2026-09-01 22:48:03 door=garage CLOSED\n")}),
            NOOP, "the door was open for 8 minutes, under 15"),
        Variant("early evening", Change(append={"ops/logs/garage-door.log": (
            "2026-09-01 18:05:44 door=garage OPEN\n2026-09-01 18:50:12 door=garage CLOSED\n")}),
            NOOP, "the 45 minutes open were in the early evening, not after 10pm"),
        nothing(),
    ])

_GH = "GitHub <notifications@github.example>"
SITUATIONS += family(
    "gridkit #318", "let me know when my PR #318 on fernwood/gridkit gets merged (github mails land in mail/github/)",
    {**HOME, "mail/github/2026-02-02-review.txt": _mail(
        _GH, "[fernwood/gridkit] Add hex grid support (PR #318)", "@you requested a review from aditi-r.")}, [
        Variant("merged", Change(write={"mail/github/2026-02-04-merged.txt": _mail(
            _GH, "Re: [fernwood/gridkit] Add hex grid support (PR #318)",
            "Merged #318 into main. Thanks, this closes #297! -- aditi-r")}),
            ACT, "PR #318 was merged: tell the user"),
        Variant("approved", Change(write={"mail/github/2026-02-04-approved.txt": _mail(
            _GH, "Re: [fernwood/gridkit] Add hex grid support (PR #318)",
            "aditi-r approved these changes. The branch needs a second approval before it can be merged.")}),
            NOOP, "the PR is approved but not merged"),
        Variant("#381 merged", Change(write={"mail/github/2026-02-04-381.txt": _mail(
            _GH, "Re: [fernwood/gridkit] Fix flaky test_neighbours (PR #381)", "Merged #381 into main.")}),
            NOOP, "PR #381 was merged, not #318"),
    ])

SITUATIONS += family(
    "cinderlog crash triage", "If someone files a bug on cinderlog that's a crash or a panic, go through the trace, "
    "work out the likely cause and write me a triage note",
    HOME, [
        Variant("panic issue", Change(write={"mail/github/2026-03-11-902.txt": _mail(
            _GH, "[kestrel-dev/cinderlog] panic: index out of range in rotate.go (Issue #902)",
            "Running 0.9.3 with max_files=0. On the first rotation:\npanic: runtime error: index out of range [-1]\n"
            "goroutine 7 [running]:\ncinderlog/rotate.(*Rotator).prune(...)\n\trotate.go:88")}),
            ESCALATE, "a panic was reported: working out the cause from the trace needs investigation"),
        Variant("feature request", Change(write={"mail/github/2026-03-11-903.txt": _mail(
            _GH, "[kestrel-dev/cinderlog] Support zstd for rotated files (Issue #903)",
            "gzip is slow on our boxes; would you take a PR adding zstd as an option?")}),
            NOOP, "a feature request is not a crash"),
        Variant("old crash comment", Change(write={"mail/github/2026-03-11-611.txt": _mail(
            _GH, "Re: [kestrel-dev/cinderlog] Crash on SIGHUP (Issue #611, closed)",
            "Same thing happened to me on 0.8.1, but upgrading to 0.9.2 fixed it. Thanks!")}),
            NOOP, "a comment on an old, fixed crash; no new crash was filed"),
    ])

_STATION = ("time,temp_c,wind_mph,gust_mph,rain_mm\n2026-02-18 13:50,8.4,21,37,0.2\n"
            "2026-02-18 14:00,8.1,24,41,0.3\n")
SITUATIONS += family(
    "greenhouse gusts", "warn me if a gust at the weather station goes over 50 mph, the greenhouse door won't take it "
    "(weather/station.csv)",
    {**HOME, "weather/station.csv": _STATION}, [
        Variant("54 mph", Change(append={"weather/station.csv": "2026-02-18 14:10,7.9,29,54,0.4\n"}),
                ACT, "a 54 mph gust was recorded: warn the user"),
        Variant("50 mph", Change(append={"weather/station.csv": "2026-02-18 14:10,7.9,27,50,0.2\n"}),
                NOOP, "a 50 mph gust is not over 50"),
        Variant("forecast", Change(write={"weather/forecast.md": (
            "Thursday: gales spreading from the west, gusts 60-65 mph possible on high ground.\n")}),
            NOOP, "a forecast of gales is not a recorded gust"),
        unrelated("projects/garden.md", "Garden plan: greenhouse door hinge replaced on Saturday, tomatoes sown.\n",
                  "a note about the greenhouse door; the station recorded nothing new"),
    ])

_DAILY = "date,air_min_c,grass_min_c,air_max_c\n2026-10-26,4.2,1.9,12.8\n2026-10-27,2.6,0.3,11.5\n"
SITUATIONS += family(
    "first air frost", "tell me the first morning this autumn the station's air temperature goes below zero. grass "
    "frosts don't count (weather/daily.csv)",
    {**HOME, "weather/daily.csv": _DAILY}, [
        Variant("-0.6", Change(append={"weather/daily.csv": "2026-10-28,-0.6,-3.1,8.2\n"}),
                ACT, "the air minimum fell to -0.6 °C, the first air frost: tell the user"),
        Variant("zero", Change(append={"weather/daily.csv": "2026-10-28,0.0,-2.4,9.1\n"}),
                NOOP, "0.0 °C is not below zero"),
        Variant("grass only", Change(append={"weather/daily.csv": "2026-10-28,1.4,-1.8,10.3\n"}),
                NOOP, "only the grass minimum went below zero; the air stayed at 1.4 °C"),
    ])

_WATCH = ("# Watchlist\n\n| coin | price (GBP) | 24h |\n|---|---|---|\n| BTC | 51,240 | +0.8% |\n"
          "| ETH | 1,912 | -1.1% |\n| SOL | 104.30 | +2.4% |\n")
SITUATIONS += family(
    "eth under 1800", "Tell me if ETH drops under £1,800 (money/watchlist.md)",
    {**HOME, "money/watchlist.md": _WATCH}, [
        Variant("1,760", Change(write={"money/watchlist.md": _WATCH.replace("| ETH | 1,912 | -1.1% |",
                                                                            "| ETH | 1,760 | -7.9% |")}),
                ACT, "ETH is at £1,760, under £1,800: tell the user"),
        Variant("1,812", Change(write={"money/watchlist.md": _WATCH.replace("| ETH | 1,912 | -1.1% |",
                                                                            "| ETH | 1,812 | -5.2% |")}),
                NOOP, "£1,812 is still above £1,800"),
        Variant("analyst view", Change(memories=(
            "Podcast this morning reckoned ETH could be under 1,700 by the end of the month.",)),
            NOOP, "a prediction is not a price"),
    ], bystanders=("Let me know if any share in my ISA pays a dividend (money/isa.md)",))

_ISA = ("# ISA\n\n| ticker | name | price (p) | day | month |\n|---|---|---|---|---|\n"
        "| HLMA | Halma | 2,714 | +0.4% | +3.1% |\n| GAW | Games Workshop | 13,950 | -0.8% | +6.0% |\n"
        "| SPX | Spirax Group | 7,120 | +0.2% | -2.5% |\n")
SITUATIONS += family(
    "isa one-day fall", "If any share in my ISA falls more than 10% in one day, look into why and write me a short "
    "note on whether anything's changed about the business (money/isa.md)",
    {**HOME, "money/isa.md": _ISA}, [
        Variant("-12.4% day", Change(write={"money/isa.md": _ISA.replace(
            "| GAW | Games Workshop | 13,950 | -0.8% | +6.0% |",
            "| GAW | Games Workshop | 12,210 | -12.4% | -7.3% |")}),
            ESCALATE, "Games Workshop fell 12.4 % in a day: finding out why needs research"),
        Variant("-9.8% day", Change(write={"money/isa.md": _ISA.replace(
            "| GAW | Games Workshop | 13,950 | -0.8% | +6.0% |", "| GAW | Games Workshop | 12,580 | -9.8% | -4.4% |")}),
            NOOP, "a 9.8 % fall is not more than 10 %"),
        Variant("-15% month", Change(write={"money/isa.md": _ISA.replace(
            "| SPX | Spirax Group | 7,120 | +0.2% | -2.5% |", "| SPX | Spirax Group | 6,090 | -1.2% | -15.1% |")}),
            NOOP, "Spirax is down 15 % over the month but only 1.2 % on the day"),
    ])

_LIB = "Kelby Libraries <libraries@kelby.example>"
SITUATIONS += family(
    "peregrine loan", "Tell me when my inter-library loan of The Peregrine arrives at Kelby library",
    HOME, [
        Variant("request approved", Change(write={"inbox/2026-01-14-library.txt": _mail(
            _LIB, "Your inter-library loan request",
            "Your request for 'The Peregrine' by J. A. Baker has been approved. We are sourcing a copy from another "
            "library service; this usually takes two to four weeks.")}),
            NOOP, "the request is approved; the book has not arrived"),
        Variant("other loan ready", Change(write={"inbox/2026-01-14-library.txt": _mail(
            _LIB, "Your item is ready to collect",
            "Your inter-library loan 'Common Ground' by Rob Cowen is ready to collect at Kelby Library until "
            "28 January.")}),
            NOOP, "another inter-library loan arrived, not The Peregrine"),
    ])

_PUBLICIST = "Mara Quinn, Tidewrack Books <mara@tidewrack.example>"
SITUATIONS += family(
    "okafor signing", "we've got Nadia Okafor signing at the shop on 14 May. if she pulls out, draft an email to "
    "everyone who booked (events/okafor.md) and suggest what we do with the evening instead",
    {**HOME, "events/okafor.md": "# Nadia Okafor, 'Salt Year', Thu 14 May 7pm\nBooked: 46 (list in the till "
                                 "system). Wine from Harts. Chairs from the church.\n"}, [
        Variant("off sick", Change(write={"inbox/2026-05-11-tidewrack.txt": _mail(
            _PUBLICIST, "Thursday's event",
            "I'm so sorry: Nadia has been signed off by her doctor and can't travel on Thursday. She'd love to come "
            "in the autumn instead if you'll have her.")}),
            ESCALATE, "the author pulled out: an email to the bookers and a plan for the evening need drafting"),
        Variant("later train", Change(write={"inbox/2026-05-11-tidewrack.txt": _mail(
            _PUBLICIST, "Thursday's event",
            "Nadia's train now gets into Kelby at 17:52 rather than 17:10. She'll come straight to the shop.")}),
            NOOP, "the author arrives later but is still coming"),
        Variant("other author", Change(write={"inbox/2026-05-11-tidewrack.txt": _mail(
            _PUBLICIST, "Tom Reyes, 2 June",
            "Tom has had to cancel his June tour, so the 2 June event is off. Nadia is all set for Thursday.")}),
            NOOP, "a different author cancelled; Nadia is still coming"),
    ])

SITUATIONS += family(
    "vegan saturday", "if I mention a vegan's coming to dinner, rework Saturday's menu in food/menu.md so there's a "
    "proper main for them, not just the sides",
    {**HOME, "food/menu.md": "# Saturday dinner\nStarter: beetroot and goat's cheese salad\nMain: slow-roast lamb "
                             "shoulder, dauphinoise, green beans\nPudding: treacle tart and cream\n"}, [
        Variant("priya coming", Change(memories=("Priya and Dan are coming on Saturday too now. Priya's vegan.",)),
                ESCALATE, "a vegan guest is coming: reworking the menu needs planning"),
        Variant("tom coming", Change(memories=("Tom's joining us on Saturday, he'll eat anything.",)),
                NOOP, "the extra guest is not vegan"),
        Variant("no dinner", Change(memories=("Priya's been vegan since January, she says she sleeps better.",)),
                NOOP, "Priya is vegan but nothing says she is coming to dinner"),
    ])

SITUATIONS += family(
    "recipe keepers", "When I say a recipe went down well, add it to food/keepers.md",
    {**HOME, "food/keepers.md": "# Keepers\n- chicken, leek and tarragon pie\n- sweet potato chilli\n"}, [
        Variant("dal", Change(memories=(
            "That red lentil dal with the crispy onions was a triumph, even Finn went back for seconds.",)),
            ACT, "the dal was a hit: add one line"),
        Variant("fish pie", Change(memories=("The fish pie was a flop, far too salty. Not again.",)),
                NOOP, "the fish pie did not go down well"),
        Variant("to try", Change(memories=("Want to try the miso aubergine from the green book next week.",)),
                NOOP, "a recipe to try is not one that went down well"),
    ])

_SALES = ("date,sku,title,size,amount,kind\n2026-07-01,KF-A4,Kelby Fell in Snow,A4,45.00,sale\n"
          "2026-07-02,HD-A4,Harbour at Dusk,A4,45.00,sale\n")
SITUATIONS += family(
    "harbour at dusk prints", "Tell me whenever someone buys a print of Harbour at Dusk (photo/sales.csv)",
    {**HOME, "photo/sales.csv": _SALES}, [
        Variant("a3 sold", Change(append={"photo/sales.csv": "2026-07-04,HD-A3,Harbour at Dusk,A3 giclee,85.00,"
                                                             "sale\n"}),
                ACT, "an A3 print of Harbour at Dusk sold: tell the user"),
        Variant("dawn sold", Change(append={"photo/sales.csv": "2026-07-04,HW-A3,Harbour at Dawn,A3 giclee,85.00,"
                                                               "sale\n"}),
                NOOP, "the print sold is Harbour at Dawn, another photo"),
        Variant("refund", Change(append={"photo/sales.csv": "2026-07-04,HD-A4,Harbour at Dusk,A4,-45.00,refund of "
                                                            "2 July\n"}),
                NOOP, "an earlier Harbour at Dusk sale was refunded; nobody bought one"),
    ])

SITUATIONS += family(
    "florist revised quote", "When the florist sends her revised quote, check it's within our £1,400 and list what "
    "she's dropped or swapped compared with the first one (wedding/flowers/)",
    {**HOME, "wedding/flowers/quote-v1.md": (
        "# Bloom & Bramble, quote 1, Eve and Sol, 19 Sept 2026\nBridal bouquet (garden roses, astrantia): £240\n"
        "4 bridesmaids' posies: £320\n8 buttonholes: £96\nArch installation: £650\n12 table jars: £360\n"
        "Delivery and set-up: £114\nTotal: £1,780\n")}, [
        Variant("v2 arrives", Change(write={"wedding/flowers/quote-v2.md": (
            "# Bloom & Bramble, quote 2, Eve and Sol, 19 Sept 2026\nBridal bouquet (spray roses, astrantia): £195\n"
            "4 bridesmaids' posies: £280\n8 buttonholes: £96\nArch: reuse ceremony jars at its foot, no "
            "installation: £0\n12 table jars: £360\nMeadow urns either side of the aisle: £320\n"
            "Delivery and set-up: £114\nTotal: £1,365\n")}),
            ESCALATE, "the revised quote arrived: checking it and listing the changes needs comparing"),
        Variant("by friday", Change(write={"inbox/2026-03-03-bloom.txt": _mail(
            "Bloom & Bramble <hello@bloomandbramble.example>", "Revised quote",
            "Hi both, lovely to chat yesterday. I'll get the revised quote over to you by Friday.")}),
            NOOP, "the florist only promises the revised quote"),
        Variant("cake quote", Change(write={"wedding/cake/quote.md": (
            "# Crumb & Co, three-tier lemon and elderflower, serves 110: £540\n")}),
            NOOP, "a cake quote is not the florist's revised quote"),
    ])

_TALLY = "# RSVPs\nYes: 76\nNo: 9\nNot replied: 35\n"
SITUATIONS += family(
    "80 yeses", "tell me when we hit 80 yeses for the wedding (wedding/rsvp-tally.md)",
    {**HOME, "wedding/rsvp-tally.md": _TALLY}, [
        Variant("81", Change(write={"wedding/rsvp-tally.md": "# RSVPs\nYes: 81\nNo: 9\nNot replied: 30\n"}),
                ACT, "81 guests have said yes, past 80: tell the user"),
        Variant("79", Change(write={"wedding/rsvp-tally.md": "# RSVPs\nYes: 79\nNo: 9\nNot replied: 32\n"}),
                NOOP, "79 yeses is one short of 80"),
        Variant("more noes", Change(write={"wedding/rsvp-tally.md": "# RSVPs\nYes: 76\nNo: 13\nNot replied: 31\n"}),
                NOOP, "the new replies were all noes; the yeses stay at 76"),
    ])

_REMOVALS = "Hallam Removals <bookings@hallamremovals.example>"
SITUATIONS += family(
    "removal van 28 aug", "remind me to apply for the parking suspension as soon as the removals firm confirms the "
    "van for 28 August",
    HOME, [
        Variant("confirmed", Change(write={"inbox/2026-07-30-hallam.txt": _mail(
            _REMOVALS, "You're booked: Friday 28 August",
            "Your move is booked in: a 7.5-tonne van and three crew, arriving 8am on Friday 28 August at 31 Tenter "
            "Lane.")}),
            ACT, "the van is confirmed for 28 August: remind the user about the parking suspension"),
        Variant("pencilled in", Change(write={"inbox/2026-07-30-hallam.txt": _mail(
            _REMOVALS, "Your move date",
            "We've pencilled you in for Friday 28 August and will confirm once next week's crew rota is done.")}),
            NOOP, "the date is only pencilled in"),
        Variant("quote", Change(write={"inbox/2026-07-30-hallam.txt": _mail(
            _REMOVALS, "Your quote",
            "7.5-tonne van and three crew for 28 August: £1,240 plus VAT. Reply to book.")}),
            NOOP, "a quote is not a confirmed booking"),
    ])

SITUATIONS += family(
    "move week plan", "as soon as I know our completion date, plan the move week for me: meter readings, post "
    "redirect, the school run and who has the kids",
    {**HOME, "home/move.md": "# Move to 31 Tenter Lane\nKids: Ivy (7), Max (4). Gran can have them Mon-Wed.\n"
                             "Suppliers: Octopus (elec), Kelby Water. School: Tenter Lane Primary from Sept.\n"}, [
        Variant("completion set", Change(memories=(
            "Solicitor just rang: completion is Friday 11 September, keys released at the agent's from noon.",)),
            ESCALATE, "completion is fixed: planning the move week takes several steps"),
        Variant("hoping", Change(memories=(
            "Solicitor reckons we could complete mid-September if the searches come back in time.",)),
            NOOP, "completion is only hoped for; no date is fixed"),
    ])

_LUNCH = ("[20/04 09:12] Jan: lunch club menu for Tuesday is cottage pie and trifle\n"
          "[20/04 09:30] Bev: lovely, I'll do the tea urn\n")
SITUATIONS += family(
    "lunch club lifts", "I drive for the Tuesday lunch club. Tell me if someone in the volunteers' chat asks for a "
    "lift to it (chats/lunch-club.txt)",
    {**HOME, "chats/lunch-club.txt": _LUNCH}, [
        Variant("doris needs a lift", Change(append={"chats/lunch-club.txt": (
            "[20/04 17:30] Jan: could anyone collect Doris from Elm Court for Tuesday? Her son's away this week\n")}),
            ACT, "someone asks for a lift for Doris to Tuesday's lunch club: tell the user"),
        Variant("bingo lift", Change(append={"chats/lunch-club.txt": (
            "[20/04 17:30] Jan: anyone free to run Mr Patel to Thursday bingo at the Legion?\n")}),
            NOOP, "the lift is for Thursday bingo, not the lunch club"),
        Variant("thanks", Change(append={"chats/lunch-club.txt": (
            "[20/04 17:30] Bev: thanks to whoever brought Doris last Tuesday, she hasn't stopped talking about the "
            "trifle\n")}),
            NOOP, "a thank-you for a past lift; nobody asks for one"),
    ])

_DX = ("2026-01-22 18:02Z DX de DL1KJ: 14025.0 VP8PJ CW Falklands\n"
       "2026-01-22 18:10Z DX de EA5RT: 7005.5 3Y0K CW up 2\n")
SITUATIONS += family(
    "3y0k on 20m", "ping me if the cluster spots 3Y0K on 20 metres (ops/logs/dxcluster.log)",
    {**HOME, "ops/logs/dxcluster.log": _DX}, [
        Variant("20m spot", Change(append={"ops/logs/dxcluster.log": (
            "2026-01-22 18:41Z DX de G4ABC: 14023.5 3Y0K CW up 1, loud\n")}),
            ACT, "3Y0K was spotted on 14.023 MHz, the 20 m band: tell the user"),
        Variant("40m again", Change(append={"ops/logs/dxcluster.log": (
            "2026-01-22 18:41Z DX de OH2BN: 7004.0 3Y0K CW up 2\n")}),
            NOOP, "the spot is on 40 m (7 MHz), not 20 m"),
        Variant("other call", Change(append={"ops/logs/dxcluster.log": (
            "2026-01-22 18:41Z DX de G4ABC: 14021.0 3Y0J CW\n")}),
            NOOP, "the 20 m spot is 3Y0J, another callsign"),
    ], memories=("My callsign is G4XKL. Only the 20 m antenna is up at the moment.",))

_BOX = ("# Blithe Spirit, box office\n\n| performance | seats left |\n|---|---|\n| Fri 6 Mar 7.30pm | 38 |\n"
        "| Sat 7 Mar 2.30pm | 22 |\n| Sat 7 Mar 7.30pm | 9 |\n")
SITUATIONS += family(
    "saturday matinee sellout", "Let me know if the Saturday matinee of Blithe Spirit sells out "
    "(theatre/box-office.md)",
    {**HOME, "theatre/box-office.md": _BOX}, [
        Variant("evening sold out", Change(write={"theatre/box-office.md": _BOX.replace(
            "| Sat 7 Mar 7.30pm | 9 |", "| Sat 7 Mar 7.30pm | SOLD OUT |")}),
            NOOP, "the Saturday evening show sold out, not the matinee"),
        Variant("four left", Change(write={"theatre/box-office.md": _BOX.replace(
            "| Sat 7 Mar 2.30pm | 22 |", "| Sat 7 Mar 2.30pm | 4 |")}),
            NOOP, "the matinee has 4 seats left; it has not sold out"),
        unrelated("notes/todo.md", "# To do\n\n- folk festival tickets sold out, try for returns\n"
                                   "- return the library books\n",
                  "the sold-out tickets are for a folk festival, not the matinee"),
    ])

_WEIGHTS = "date,who,kg\n2026-03-01,Dad,71.8\n2026-03-01,Mum,61.2\n2026-03-08,Dad,71.2\n"
SITUATIONS += family(
    "dad's weight", "Tell me if Dad's weight drops more than 2 kg below his 1 March weigh-in (care/weights.csv)",
    {**HOME, "care/weights.csv": _WEIGHTS}, [
        Variant("69.5", Change(append={"care/weights.csv": "2026-03-15,Dad,69.5\n"}),
                ACT, "Dad is at 69.5 kg, 2.3 kg below 71.8: tell the user"),
        Variant("70.1", Change(append={"care/weights.csv": "2026-03-15,Dad,70.1\n"}),
                NOOP, "Dad is 1.7 kg down, not more than 2 kg"),
        Variant("mum's loss", Change(append={"care/weights.csv": "2026-03-15,Mum,58.9\n"}),
                NOOP, "Mum lost 2.3 kg; the task is about Dad"),
    ], memories=("The dietitian wants to hear if Dad loses more than 2 kg in a month.",))

_DELIVERIES = ("# Deliveries\n- 2 Jun: Gardners, 3 boxes (mixed backlist)\n"
               "- 3 Jun: Harrow & Finch, 12 x 'Lantern Street' paperback\n")
SITUATIONS += family(
    "signed glass orchard", "tell me when the signed copies of The Glass Orchard arrive from Harrow & Finch "
    "(shop/deliveries.md)",
    {**HOME, "shop/deliveries.md": _DELIVERIES}, [
        Variant("unsigned", Change(append={"shop/deliveries.md": (
            "- 5 Jun: Harrow & Finch, 24 x 'The Glass Orchard' hardback (unsigned stock)\n")}),
            NOOP, "unsigned copies arrived, not the signed ones"),
        Variant("dispatched", Change(append={"shop/deliveries.md": (
            "- 5 Jun: note from Harrow & Finch, the 30 signed 'Glass Orchard' went out today, due Tuesday\n")}),
            NOOP, "the signed copies are only on their way"),
    ])

SITUATIONS += family(
    "ferry lane boiler", "I let out 22 Ferry Lane. If the tenant says the boiler's packed up, find me two or three "
    "Gas Safe engineers who could get there this week and draft a reply to her",
    {**HOME, "property/ferry-lane.md": "# 22 Ferry Lane\nTenant: Sinead Farrow since Sept 2024. Boiler: Worcester "
                                       "Greenstar 30i, serviced March 2026.\n"}, [
        Variant("no heating", Change(write={"inbox/2026-11-17-sinead.txt": _mail(
            "Sinead Farrow <sinead.f@example.com>", "Boiler",
            "Hi, the boiler's showing an EA fault and we've had no heating or hot water since last night. It's "
            "freezing in here, can someone come?")}),
            ESCALATE, "the tenant's boiler failed: finding engineers and drafting a reply need several steps"),
        Variant("fine since service", Change(write={"inbox/2026-11-17-sinead.txt": _mail(
            "Sinead Farrow <sinead.f@example.com>", "Boiler",
            "Just to say the boiler's been fine since the service in March, the noise has gone. Thanks for "
            "sorting it.")}),
            NOOP, "the tenant says the boiler works well"),
    ])

SITUATIONS += family(
    "clinic clash", "My hospital letters go in health/letters/. If an appointment lands on one of my shifts "
    "(work/rota.md), draft a request to move it",
    {**HOME, "work/rota.md": "# May rota\nDays (7am-7pm): 11, 12, 13 May\nNights (7pm-7am): 18, 19, 20 May\n"}, [
        Variant("on a day shift", Change(write={"health/letters/2026-04-24-rheumatology.md": (
            "Rheumatology outpatients, Kelby General. You are booked to see Dr Amin on Tuesday 12 May at 2.20pm.\n")}),
            ESCALATE, "the appointment falls on the 12 May day shift: a request to move it must be drafted"),
        Variant("free day", Change(write={"health/letters/2026-04-24-rheumatology.md": (
            "Rheumatology outpatients, Kelby General. You are booked to see Dr Amin on Friday 15 May at 2.20pm.\n")}),
            NOOP, "15 May is not one of the user's shifts"),
    ])

_PLUGS = "2026-08-01 device=fridge-kitchen daily_kwh=1.12\n2026-08-02 device=fridge-kitchen daily_kwh=1.09\n"
SITUATIONS += family(
    "fridge plug", "tell me if the fridge's smart plug shows more than 1.5 kWh in a day, the door seal might be "
    "going (ops/logs/plugs.log)",
    {**HOME, "ops/logs/plugs.log": _PLUGS}, [
        Variant("1.82", Change(append={"ops/logs/plugs.log": "2026-08-03 device=fridge-kitchen daily_kwh=1.82\n"}),
                ACT, "the fridge used 1.82 kWh, over 1.5: tell the user"),
        Variant("garage freezer", Change(append={"ops/logs/plugs.log": "2026-08-03 device=freezer-garage "
                                                                       "daily_kwh=1.94\n"}),
                NOOP, "the high reading is the garage freezer's, not the fridge's"),
        Variant("1.46", Change(append={"ops/logs/plugs.log": "2026-08-03 device=fridge-kitchen daily_kwh=1.46\n"}),
                NOOP, "1.46 kWh is under 1.5"),
    ])
