"""The held-out labelled set no. 21 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families appear neither
there nor in the earlier held-out sets. The theme is private life: pets and hens, the allotment and the veg patch,
astronomy, fishing, music and crafts, school and a toddler group, walking and swimming clubs, travel bookings, a
van and a bike, neighbours, money at home (meters, subscriptions, a card statement, an energy statement), returns,
news feeds, diaries kept by hand and things the user told the assistant. Most variants are near misses: the
watched thing changes but the condition is not met (another person, plot, bike or colourway; the exact boundary of
a threshold; a figure in other units; a plan, a forecast or a question instead of a fact; a negation; the same word
in another sense). Several families can only be decided with the rows already in the file (a meter difference, a
calendar-month total, N nights or days in a row, a running total), a few are met by a whole-file rewrite, a few
are met in other words than the task's (neutering for spaying, "won't go ahead" for cancelled, "shut permanently"
for closing for good), and some hold only near misses. The text is the project's own.
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
    mail,
)

SITUATIONS: list[Situation] = []


_STARFIELD = "Starfield Optics <orders@starfieldoptics.example>"
SITUATIONS += family(
    "barlow lens", "tell me when Starfield Optics ship my 2x Barlow lens, I've been waiting weeks",
    {**HOME, "astro/orders.md": "Starfield Optics order SO-30418 (placed 3 Feb): 2x ED Barlow lens, Moon filter. "
                                "Paid £94.\n"}, [
        Variant("shipped", Change(write={"mail/2026-02-24-starfield.txt": mail(
            _STARFIELD, "Order SO-30418 has shipped",
            "Good news: everything on your order (2x ED Barlow lens, Moon filter) left our warehouse today with "
            "Parcelway, tracking PW55120734.")}),
            ACT, "the whole order, Barlow lens included, has been dispatched: tell the user"),
        Variant("being packed", Change(write={"mail/2026-02-24-starfield.txt": mail(
            _STARFIELD, "Order SO-30418 update",
            "Your order is being picked and packed. We'll email you again when it leaves the warehouse.")}),
            NOOP, "the order is still being packed; nothing has shipped"),
        Variant("filter only", Change(write={"mail/2026-02-24-starfield.txt": mail(
            _STARFIELD, "Part of order SO-30418 has shipped",
            "We've sent the Moon filter today (tracking PW55120911). The 2x ED Barlow lens is still on back order; "
            "we expect stock in mid-March.")}),
            NOOP, "only the Moon filter shipped; the Barlow lens is still on back order"),
    ])

SITUATIONS += family(
    "messier log", "Each time I tell you I've spotted a Messier object, add it to astro/messier.md with the date",
    {**HOME, "astro/messier.md": "# Messier objects seen\n- M42, 12 Jan, binoculars\n- M45, 12 Jan, naked eye\n"}, [
        Variant("m13", Change(memories=("Found M13 in the 8-inch Dob tonight (14 Feb), a lovely grainy ball of "
                                        "stars.",)),
                ACT, "the user spotted M13: append one line to astro/messier.md"),
        Variant("plan for m31", Change(memories=("If it stays clear tomorrow I'm going to hunt for M31 from the golf "
                                                 "course car park.",)),
                NOOP, "a plan to look for M31, not a sighting"),
        Variant("clouded out", Change(memories=("Set up at 9 but it clouded over by half past; saw nothing and "
                                                "packed up at 10.",)),
                NOOP, "the user saw nothing that night"),
    ])

_CATCHES = ("| date | water | species | weight |\n|---|---|---|---|\n| 6 Apr | Mere Pool | common carp | 18 lb 2 oz |\n"
            "| 13 Apr | Mere Pool | tench | 5 lb 9 oz |\n| 20 Apr | Kingfisher Lake | mirror carp | 21 lb 11 oz |\n")
SITUATIONS += family(
    "carp pb", "My best carp is 22 lb 4 oz. Tell me if I ever beat it (I log everything in fishing/catches.md)",
    {**HOME, "fishing/catches.md": _CATCHES}, [
        Variant("23 lb 1 oz", Change(append={"fishing/catches.md": "| 27 Apr | Kingfisher Lake | mirror carp | "
                                                                   "23 lb 1 oz |\n"}),
                ACT, "a 23 lb 1 oz mirror carp beats the 22 lb 4 oz best: tell the user"),
        Variant("big pike", Change(append={"fishing/catches.md": "| 27 Apr | Kingfisher Lake | pike | 24 lb 8 oz |\n"}),
                NOOP, "the heavy fish is a pike, not a carp"),
        Variant("9.8 kg", Change(append={"fishing/catches.md": "| 27 Apr | Lac de Brienne (France) | common carp | "
                                                               "9.8 kg |\n"}),
                NOOP, "9.8 kg is about 21 lb 10 oz, under the 22 lb 4 oz best"),
    ])

_INSPECTION = ("# Spring inspection, Cowley Road allotments (walked 28 March)\n\n| plot | holder | result |\n"
               "|---|---|---|\n")
SITUATIONS += family(
    "plot 14b inspection", "If the allotment society's inspection marks my plot (14B) as untidy or not worked, draft "
    "a reply to the committee saying what I'm doing about it. My notes are in allotment/plan.md",
    {**HOME, "allotment/inspection.md": ("# Spring inspection, Cowley Road allotments\n\nNot carried out yet. "
                                         "Results will be posted here.\n"),
     "allotment/plan.md": ("Plot 14B. Broke my wrist in January, so the back half is under weed membrane. Strimming "
                           "and digging planned for Easter weekend with my brother. Potatoes and squash go in the "
                           "back half in May.\n")}, [
        Variant("14b notice", Change(write={"allotment/inspection.md": _INSPECTION + (
            "| 14A | P. Varga | well worked |\n| 14B | S. Lindqvist | rear half uncultivated and overgrown: first "
            "notice, recheck in 4 weeks |\n| 15 | D. Amos | well worked |\n")}),
            ESCALATE, "plot 14B got a first notice for being uncultivated: drafting the reply needs reasoning"),
        Variant("14a notice", Change(write={"allotment/inspection.md": _INSPECTION + (
            "| 14A | P. Varga | not cultivated: first notice, recheck in 4 weeks |\n| 14B | S. Lindqvist | "
            "well worked, membrane tidy |\n| 15 | D. Amos | well worked |\n")}),
            NOOP, "the notice went to plot 14A; 14B was marked well worked"),
        Variant("postponed", Change(write={"allotment/inspection.md": (
            "# Spring inspection, Cowley Road allotments\n\nPostponed to 11 April because the site is waterlogged. "
            "No plots have been marked.\n")}),
            NOOP, "the inspection was put off; no plot was marked"),
    ])

_STREET = ("[Sat 10:02] Hannah (no. 4): Bunting is sorted!\n"
           "[Sat 10:15] Dev (no. 11): Who's doing the road closure form?\n")
SITUATIONS += family(
    "street party closure", "let me know when the council approves the road closure for the Linnet Street party "
    "(people post about it in chats/street.txt)",
    {**HOME, "chats/street.txt": _STREET}, [
        Variant("form sent", Change(append={"chats/street.txt": (
            "[Sun 18:40] Moira (no. 22): Sent the road closure application to the council this afternoon, they say "
            "allow 4 weeks.\n")}),
            NOOP, "the application was only sent; nothing is approved"),
        Variant("other street approved", Change(append={"chats/street.txt": (
            "[Mon 09:12] Dev (no. 11): Wren Crescent have had their closure approved already, lucky them. Nothing "
            "for us yet.\n")}),
            NOOP, "the approval is for Wren Crescent; Linnet Street has heard nothing"),
        Variant("needs a map", Change(append={"chats/street.txt": (
            "[Tue 12:30] Moira (no. 22): Council rang: they can't approve the closure until we send a map showing "
            "where the barriers go. Doing it tonight.\n")}),
            NOOP, "the council asked for a map; the closure is not approved"),
    ])

_RAMBLERS = "Graham Pilling <walks@fellsideramblers.example>"
SITUATIONS += family(
    "ramblers walk", "If the Fellside Ramblers' walk this Saturday is cancelled, remind me to tell Joan she doesn't "
    "need to pick me up",
    {**HOME, "clubs/ramblers.md": ("Fellside Ramblers\nSat 14 Mar: Hodder valley circular, 11 miles, meet 9.30 at "
                                   "Whitewell. Joan gives me a lift.\nSun 15 Mar: short walk round Stocks "
                                   "Reservoir, 5 miles.\n")}, [
        Variant("won't go ahead", Change(write={"mail/2026-03-12-ramblers.txt": mail(
            _RAMBLERS, "Saturday's walk",
            "With the Hodder in flood and the footbridge at Dunsop shut, Saturday's walk won't go ahead. Sorry, "
            "everyone.")}),
            ACT, "Saturday's walk will not go ahead, so it is cancelled: remind the user to tell Joan"),
        Variant("still on", Change(write={"mail/2026-03-12-ramblers.txt": mail(
            _RAMBLERS, "Saturday's walk",
            "The forecast looks grim but Saturday's walk is NOT cancelled. Bring waterproofs and gaiters; we may "
            "shorten it at Dunsop Bridge.")}),
            NOOP, "the leader says Saturday's walk is not cancelled"),
        Variant("sunday off", Change(write={"mail/2026-03-12-ramblers.txt": mail(
            _RAMBLERS, "Sunday's walk",
            "Sorry, Sunday's Stocks Reservoir walk is off, the leader is poorly. Saturday's walk is unaffected.")}),
            NOOP, "it is Sunday's walk that is off; Saturday's goes ahead"),
    ])

_MIGRAINES = ("# Migraine diary\n\n- 24 Feb: bad one, aura, 6 hours\n- 27 Feb: mild\n- 3 Mar: woke with it, "
              "sumatriptan worked\n- 9 Mar: mild, after a long screen day\n- 15 Mar: bad, missed work\n"
              "- 21 Mar: moderate\n")
SITUATIONS += family(
    "migraine month", "if I log more than 4 migraines in one calendar month, remind me to book a GP appointment "
    "(health/migraines.md)",
    {**HOME, "health/migraines.md": _MIGRAINES}, [
        Variant("fifth in march", Change(append={"health/migraines.md": "- 26 Mar: bad, aura, lay in the dark all "
                                                                        "afternoon\n"}),
                ACT, "26 March is the fifth migraine in March, more than 4: remind the user to book the GP"),
        Variant("fourth in march", Change(append={"health/migraines.md": "- 26 Mar: moderate\n"}),
                NOOP, "with 3, 15 and 21 March that makes 4 in March, not more than 4",
                before={**HOME, "health/migraines.md": _MIGRAINES.replace("- 9 Mar: mild, after a long screen day\n",
                                                                          "")}),
        Variant("into april", Change(append={"health/migraines.md": "- 2 Apr: mild, gone by lunch\n"}),
                NOOP, "the new one is the first in April; March stays at 4"),
    ])

_BRACKENRIDGE = "Brackenridge Veterinary Surgery <reception@brackenridgevets.example>"
SITUATIONS += family(
    "pudding spay", "Tell me once the vet has Pudding booked in to be spayed",
    {**HOME, "pets/pudding.md": ("Pudding, tabby kitten (female), born 2 September. Vet: Brackenridge Veterinary "
                                 "Surgery. Second jabs done 3 December. Needs spaying at about six months.\n")}, [
        Variant("neutering booked", Change(write={"mail/2026-02-20-brackenridge.txt": mail(
            _BRACKENRIDGE, "Pudding's operation",
            "Pudding is booked in for neutering on Thursday 5 March. Please drop her off between 8 and 8.30am, "
            "with no food after midnight.")}),
            ACT, "neutering a female cat is spaying, and it is booked: tell the user"),
        Variant("nail clip", Change(write={"mail/2026-02-20-brackenridge.txt": mail(
            _BRACKENRIDGE, "Appointment confirmation",
            "Pudding is booked in for a nail clip and weight check with nurse Amy on Thursday 5 March at 4.10pm.")}),
            NOOP, "a nail clip is booked, not the spay"),
        Variant("ring to book", Change(write={"mail/2026-02-20-brackenridge.txt": mail(
            _BRACKENRIDGE, "Pudding's six-month check",
            "Pudding will be old enough to be spayed from March. Please ring us to book her operation.")}),
            NOOP, "the vet asks the user to book; nothing is booked yet"),
    ])

_EGGS = "date,eggs,note\n2026-05-10,4,\n2026-05-11,3,\n2026-05-12,0,very hot\n"
SITUATIONS += family(
    "hens no eggs", "If the girls lay nothing two days running, remind me to check the coop for red mite. I jot the "
    "eggs down every evening in hens/eggs.csv",
    {**HOME, "hens/eggs.csv": _EGGS}, [
        Variant("second blank day", Change(append={"hens/eggs.csv": "2026-05-13,0,\n"}),
                ACT, "no eggs on 12 May and none on 13 May, two days running: remind the user"),
        Variant("one egg", Change(append={"hens/eggs.csv": "2026-05-13,1,small shell-less one\n"}),
                NOOP, "one egg was laid on 13 May, so there are not two empty days in a row"),
        Variant("first blank day", Change(append={"hens/eggs.csv": "2026-05-13,0,\n"}),
                NOOP, "12 May had 2 eggs, so 13 May is only one day without",
                before={**HOME, "hens/eggs.csv": _EGGS.replace("2026-05-12,0,very hot", "2026-05-12,2,very hot")}),
    ])

_SUBS = ("# Subscriptions (I update this from the statements)\n\nFilmhaus: £7.99 a month\nTunebox family: £16.99 a "
         "month\nCloudnest 200 GB: £2.49 a month\nThe Ledger (weekend paper): £5.50 a month\n")
SITUATIONS += family(
    "subscriptions", "Keep an eye on money/subscriptions.md and tell me if any of them goes up in price",
    {**HOME, "money/subscriptions.md": _SUBS}, [
        Variant("filmhaus up", Change(write={"money/subscriptions.md": _SUBS.replace(
            "Filmhaus: £7.99 a month", "Filmhaus: £8.99 a month (from 1 May)")}),
            ACT, "Filmhaus went up from £7.99 to £8.99 a month: tell the user"),
        Variant("new subscription", Change(write={"money/subscriptions.md": _SUBS + "Puzzlebox: £3.00 a month "
                                                                                   "(started 2 May)\n"}),
                NOOP, "a new subscription was added; none of the existing prices rose"),
        Variant("yearly billing", Change(write={"money/subscriptions.md": _SUBS.replace(
            "Tunebox family: £16.99 a month", "Tunebox family: £203.88 a year (switched to yearly billing)")}),
            NOOP, "£203.88 a year is 12 times £16.99, the same price"),
    ])

_METER = ("# Sunday meter readings (electric in kWh, gas in m3)\nelectric 2026-01-04: 31822\ngas 2026-01-04: 4410.6\n"
          "electric 2026-01-11: 31881\ngas 2026-01-11: 4449.2\n")
SITUATIONS += family(
    "electric week", "tell me if we use more than 70 kWh of electricity in a week. I read the meter every Sunday "
    "(home/meter.txt)",
    {**HOME, "home/meter.txt": _METER}, [
        Variant("74 kWh", Change(append={"home/meter.txt": "electric 2026-01-18: 31955\ngas 2026-01-18: 4490.0\n"}),
                ACT, "31955 minus 31881 is 74 kWh in the week, more than 70: tell the user"),
        Variant("exactly 70", Change(append={"home/meter.txt": "electric 2026-01-18: 31951\ngas 2026-01-18: 4488.1\n"}),
                NOOP, "31951 minus 31881 is exactly 70 kWh, not more than 70"),
        Variant("gas jump", Change(append={"home/meter.txt": "electric 2026-01-18: 31934\ngas 2026-01-18: 4532.7\n"}),
                NOOP, "electricity went up only 53 kWh; the big jump is on the gas meter"),
    ])

SITUATIONS += family(
    "pocket money", "Whenever I say I've given the kids there pocket money, add a line to family/pocket-money.csv",
    {**HOME, "family/pocket-money.csv": "date,child,amount\n2026-03-07,Ruby,5.00\n2026-03-07,Sol,3.00\n"}, [
        Variant("asked early", Change(memories=("Sol asked if he can have next week's pocket money early for the "
                                                "Lego set.",)),
                NOOP, "Sol asked for it early; no pocket money was given"),
        Variant("spent", Change(memories=("Ruby spent all her pocket money on slime at the market today.",)),
                NOOP, "Ruby spent money she already had; nothing new was handed out"),
    ])

SITUATIONS += family(
    "broadband rise", "If Fibrelink write to say our broadband price is going up, compare it with the deals I saved "
    "in money/broadband-deals.md and tell me whether we should switch",
    {**HOME, "money/broadband-deals.md": (
        "Current: Fibrelink 150 Mb, £31 a month, out of contract since November.\nSaved deals: Hopline 150 Mb £26 a "
        "month (18 months, £20 setup); Skybridge 300 Mb £29 a month (24 months, no setup). Fibrelink offered £28 "
        "to stay last year.\n")}, [
        Variant("price rise", Change(write={"mail/2026-02-27-fibrelink.txt": mail(
            "Fibrelink <billing@fibrelink.example>", "Changes to your monthly price",
            "From 1 April your monthly price for Fibrelink 150 will go up from £31.00 to £34.50.")}),
            ESCALATE, "the broadband price is going up: weighing it against the saved deals needs reasoning"),
        Variant("price frozen", Change(write={"mail/2026-02-27-fibrelink.txt": mail(
            "Fibrelink <billing@fibrelink.example>", "Your price this April",
            "Good news: your monthly price is not going up this April. You'll keep paying £31.00.")}),
            NOOP, "the letter says the price is not going up"),
    ])

_BOOTS = ("Return RMA-5520, Trailhaus walking boots (size 9, too narrow)\n2026-04-02 10:11 Return requested\n"
          "2026-04-03 08:30 Collection booked for Tue 7 April, 8am-6pm\n")
SITUATIONS += family(
    "boots collection", "Tell me when the courier has actually collected the walking boots I'm sending back "
    "(returns/boots.txt)",
    {**HOME, "returns/boots.txt": _BOOTS}, [
        Variant("missed collection", Change(append={"returns/boots.txt": (
            "2026-04-07 14:22 Collection attempted: nobody home, card left. Please rebook.\n")}),
            NOOP, "the courier tried and failed; the boots were not collected"),
        Variant("refund after collection", Change(append={"returns/boots.txt": (
            "2026-04-04 09:05 Note: your refund is paid once the boots are collected and checked.\n")}),
            NOOP, "the note says the refund follows collection; no collection has happened"),
    ])

_KRAKOW = ("# Night train to Kraków\n\nOutward: Berlin to Kraków, Fri 15 May, dep 22:58\n"
           "Return: Kraków to Berlin, Fri 22 May, dep 21:40\n")
SITUATIONS += family(
    "couchettes", "Let me know once both couchette reservations (there and back) for the Kraków night train are "
    "confirmed. travel/krakow-train.md",
    {**HOME, "travel/krakow-train.md": _KRAKOW + "Couchettes (2 berths each way): requested 20 April, pending\n"}, [
        Variant("both confirmed", Change(write={"travel/krakow-train.md": _KRAKOW + (
            "Couchettes: outward car 354, berths 61 and 62; return car 352, berths 23 and 24. All confirmed "
            "24 April.\n")}),
            ACT, "both couchette reservations are confirmed: tell the user"),
        Variant("waitlisted", Change(write={"travel/krakow-train.md": _KRAKOW + (
            "Couchettes: outward on the waiting list (position 3); return on the waiting list (position 5). "
            "Checked 24 April.\n")}),
            NOOP, "both are on a waiting list, not confirmed"),
        Variant("return only", Change(write={"travel/krakow-train.md": _KRAKOW + (
            "Couchettes: return car 352, berths 23 and 24 confirmed 24 April; outward still pending.\n")}),
            NOOP, "only the return is confirmed; the outward couchettes are still pending"),
    ])

SITUATIONS += family(
    "moss in august", "When Granny says which week in August she can have Moss, plan our Lake District week around "
    "it. The cottages we like are in travel/lakes.md",
    {**HOME, "travel/lakes.md": (
        "Cottages (no dogs allowed at any of them):\n- Brackenfold, Keswick: free 1-8 and 15-22 Aug, £890\n"
        "- Tarn Howe, Coniston: free 8-15 Aug, £760\n- Ghyll Barn, Ambleside: free 22-29 Aug, £940\n")}, [
        Variant("week named", Change(write={"mail/2026-05-03-granny.txt": mail(
            "Granny <pat.harwood@example.net>", "Moss in August",
            "Darling, I can have Moss from Saturday 8th to Saturday 15th August. Not the other weeks, the bowls "
            "tour is on.")}),
            ESCALATE, "Granny named her week: planning the holiday around it takes several steps"),
        Variant("after her op", Change(write={"mail/2026-05-03-granny.txt": mail(
            "Granny <pat.harwood@example.net>", "Re: August",
            "I can't say yet, love. Let me see how the knee op goes on the 20th and I'll tell you which week then.")}),
            NOOP, "Granny has not named a week yet"),
    ])

_TYRES = ("| date | front left | front right | rear left | rear right |\n|---|---|---|---|---|\n"
          "| 2 Nov | 36 psi | 36 psi | 38 psi | 38 psi |\n| 9 Nov | 35 psi | 36 psi | 38 psi | 37 psi |\n")
SITUATIONS += family(
    "van tyres", "Remind me to look for a slow puncture if any tyre on the van reads below 30 psi. I write the "
    "pressures in car/van-tyres.md",
    {**HOME, "car/van-tyres.md": _TYRES}, [
        Variant("27 psi", Change(append={"car/van-tyres.md": "| 16 Nov | 35 psi | 36 psi | 27 psi | 37 psi |\n"}),
                ACT, "the rear left reads 27 psi, below 30: remind the user"),
        Variant("30 psi", Change(append={"car/van-tyres.md": "| 16 Nov | 34 psi | 35 psi | 30 psi | 37 psi |\n"}),
                NOOP, "30 psi is not below 30"),
        Variant("in bar", Change(append={"car/van-tyres.md": (
            "| 16 Nov (garage gauge, bar) | 2.4 bar | 2.5 bar | 2.2 bar | 2.6 bar |\n")}),
            NOOP, "2.2 bar is about 32 psi and the others are higher: no tyre is below 30 psi"),
    ])

SITUATIONS += family(
    "chain wear", "remind me to get a new chain once the chain checker shows 0.75 or more on my commuter "
    "(bike/chain.md)",
    {**HOME, "bike/chain.md": ("# Chain checks\n- 12 Jan, commuter: under 0.5\n- 9 Feb, commuter: 0.5\n"
                               "- 9 Feb, Sam's road bike: 0.5\n")}, [
        Variant("0.75 on the commuter", Change(append={"bike/chain.md": "- 9 Mar, commuter: 0.75, gauge drops "
                                                                        "right in\n"}),
                ACT, "0.75 on the commuter meets '0.75 or more': remind the user"),
        Variant("0.75 on sam's bike", Change(append={"bike/chain.md": "- 9 Mar, Sam's road bike: 0.75\n"
                                                                      "- 9 Mar, commuter: 0.5\n"}),
                NOOP, "it is Sam's bike at 0.75; the commuter still reads 0.5"),
    ], bystanders=("tell me when Spokesmiths dispatch the flat pedals I ordered",))

_HOMEWORK = ("child,subject,task,due,status\nJude,French,vocab list 12,2026-01-20,handed in\n"
             "Mia,Maths,fractions sheet,2026-01-21,handed in\nJude,Science,forces poster,2026-01-27,not started\n")
SITUATIONS += family(
    "jude homework", "tell me if any of Jude's homework shows as overdue in school/homework.csv",
    {**HOME, "school/homework.csv": _HOMEWORK}, [
        Variant("mia overdue", Change(write={"school/homework.csv": _HOMEWORK.replace(
            "Mia,Maths,fractions sheet,2026-01-21,handed in", "Mia,Maths,fractions sheet,2026-01-21,OVERDUE")}),
            NOOP, "the overdue piece is Mia's, not Jude's"),
        Variant("new essay", Change(write={"school/homework.csv": _HOMEWORK + (
            "Jude,History,castles essay,2026-01-30,not started\n")}),
            NOOP, "Jude's new essay is due on 30 January; nothing of his is overdue"),
        Variant("poster handed in", Change(write={"school/homework.csv": _HOMEWORK.replace(
            "forces poster,2026-01-27,not started", "forces poster,2026-01-27,handed in")}),
            NOOP, "Jude handed his poster in; nothing of his is overdue"),
    ])

SITUATIONS += family(
    "leah meeting", "If Mr Garside asks to meet us about Leah, help me get ready: go through what she's told me "
    "(family/leah-notes.md) and put together questions to ask him",
    {**HOME, "family/leah-notes.md": (
        "Leah (Year 5). Says she sits on her own at lunch since the seating changed. Doesn't want to do the swimming "
        "gala. Maths homework takes her ages; cries over times tables.\n")}, [
        Variant("meeting asked", Change(write={"mail/2026-11-10-garside.txt": mail(
            "Mr Garside <d.garside@stbedes.example>", "Leah",
            "I'd like to have a chat with you about how Leah is settling since the class reshuffle. Could you come in "
            "on Tuesday or Wednesday after school?")}),
            ESCALATE, "Leah's teacher wants to meet about her: preparing for it takes reasoning"),
        Variant("praise", Change(write={"mail/2026-11-10-garside.txt": mail(
            "Mr Garside <d.garside@stbedes.example>", "Leah",
            "Just a quick note to say Leah read her poem to the whole class today and did brilliantly. No need to "
            "reply!")}),
            NOOP, "a note of praise; no meeting was asked for"),
    ])

_PRACTICE = ("date,minutes,what\n2026-09-27,95,learning Blackbird\n2026-10-02,45,scales\n2026-10-05,90,Blackbird\n"
             "2026-10-09,60,barre chords\n2026-10-13,120,lesson and homework\n2026-10-18,75,Blackbird\n"
             "2026-10-22,100,fingerpicking\n2026-10-25,40,scales\n")
SITUATIONS += family(
    "guitar ten hours", "Tell me when I've done 10 hours of guitar practice in a calendar month. I log minutes in "
    "music/practice.csv",
    {**HOME, "music/practice.csv": _PRACTICE}, [
        Variant("610 minutes", Change(append={"music/practice.csv": "2026-10-28,80,open mic set\n"}),
                ACT, "October now adds up to 610 minutes, over 10 hours: tell the user"),
        Variant("595 minutes", Change(append={"music/practice.csv": "2026-10-28,65,open mic set\n"}),
                NOOP, "October adds up to 595 minutes, 5 short of 10 hours (the 27 September session is last month)"),
        Variant("into november", Change(append={"music/practice.csv": "2026-11-01,120,new strings, long session\n"}),
                NOOP, "the long session is in November, which has only 120 minutes; October stays at 530"),
    ])

SITUATIONS += family(
    "audition piece", "When Carys sends my audition piece for the Savoyards, make me a practice plan for the weeks up "
    "to the audition",
    {**HOME, "music/singing.md": ("Lessons with Carys on Mondays. Audition for the Savoyards' Pirates of Penzance: "
                                  "19 June, 7pm. Free evenings: Tue, Thu, Sun.\n")}, [
        Variant("piece sent", Change(write={"mail/2026-05-26-carys.txt": mail(
            "Carys Mabey <carys.sings@example.org>", "Your audition song",
            "Let's go with 'Poor wand'ring one'. The score in F is attached. Work on the cadenza at the end and the "
            "breath before the top B flat.")}),
            ESCALATE, "the audition piece arrived: a practice plan up to 19 June needs planning"),
        Variant("still choosing", Change(write={"mail/2026-05-26-carys.txt": mail(
            "Carys Mabey <carys.sings@example.org>", "Audition",
            "I'm torn between two songs for you; I'll decide after Monday's lesson and send it then.")}),
            NOOP, "Carys has not sent the piece yet"),
    ])

_STOCK = ('{{"updated": "{d}", "items": [\n'
          '  {{"name": "Meadowsweet cotton", "colour": "sage", "stock": {sage}, "status": "{status}"}},\n'
          '  {{"name": "Meadowsweet cotton", "colour": "rose", "stock": 14, "status": "in stock"}},\n'
          '  {{"name": "Linen blend", "colour": "oat", "stock": 6, "status": "in stock"}}{extra}\n]}}\n')
SITUATIONS += family(
    "meadowsweet sage", "let me know when Thimble & Bolt have the Meadowsweet cotton in sage back in stock (their "
    "stock feed gets saved to feeds/thimble-stock.json)",
    {**HOME, "feeds/thimble-stock.json": _STOCK.format(d="2026-03-02", sage=0, status="sold out", extra="")}, [
        Variant("sage back", Change(write={"feeds/thimble-stock.json": _STOCK.format(
            d="2026-03-09", sage=22, status="in stock", extra="")}),
            ACT, "sage Meadowsweet is in stock again (22): tell the user"),
        Variant("new mustard", Change(write={"feeds/thimble-stock.json": _STOCK.format(
            d="2026-03-09", sage=0, status="sold out",
            extra=',\n  {"name": "Meadowsweet cotton", "colour": "mustard", "stock": 30, "status": "in stock"}')}),
            NOOP, "a new mustard colourway came in; sage is still sold out"),
        Variant("pre-order", Change(write={"feeds/thimble-stock.json": _STOCK.format(
            d="2026-03-09", sage=0, status="pre-order, arriving 20 March", extra="")}),
            NOOP, "sage can only be pre-ordered; it is not back in stock"),
    ])

SITUATIONS += family(
    "bea's cardigan", "Once Auntie Bea sends her measurements, work out how much yarn I need for her cardigan and "
    "adjust the pattern to fit her (crafts/cardigan.md)",
    {**HOME, "crafts/cardigan.md": ("Pattern: Hollyhock cardigan, sizes 32 to 48 in bust. Yarn: Dale Aran, 100 g "
                                    "balls of 160 m. Size 40 needs 1,100 m. Bea likes it longer in the body than "
                                    "the pattern.\n")}, [
        Variant("measurements", Change(write={"mail/2026-09-14-bea.txt": mail(
            "Bea <bea.lawson@example.net>", "my measurements!",
            "Bust 43 inches, waist 38, arm 17 (shoulder to wrist), back length 24. Long enough to cover my bottom, "
            "please!")}),
            ESCALATE, "Bea's measurements arrived: working out the yarn and resizing the pattern takes calculation"),
        Variant("will measure", Change(write={"mail/2026-09-14-bea.txt": mail(
            "Bea <bea.lawson@example.net>", "cardigan",
            "I'll get Ron to measure me at the weekend, I can't do it on my own! Lovely to chat yesterday.")}),
            NOOP, "Bea has not sent her measurements yet"),
    ])

_GAZETTE = ("# Hartsby Gazette: latest\n- 3 Feb: Library consultation closes with 2,000 responses\n"
            "- 4 Feb: Pothole repairs on Mill Road this week\n")
SITUATIONS += family(
    "hartsby library", "Watch the local news feed (feeds/hartsby-news.md) and tell me if they're closing Hartsby "
    "library for good",
    {**HOME, "feeds/hartsby-news.md": _GAZETTE}, [
        Variant("shut permanently", Change(append={"feeds/hartsby-news.md": (
            "- 11 Feb: Cabinet votes to shut Hartsby library permanently from 1 June; books move to the Civic "
            "Centre\n")}),
            ACT, "the library is to shut permanently, which is closing for good: tell the user"),
        Variant("training day", Change(append={"feeds/hartsby-news.md": (
            "- 11 Feb: Hartsby library closed on Monday for staff training; normal hours from Tuesday\n")}),
            NOOP, "a one-day closure for training, not closing for good"),
        Variant("orton closes", Change(append={"feeds/hartsby-news.md": (
            "- 11 Feb: Cabinet votes to close Orton library for good; Hartsby library stays open with shorter "
            "hours\n")}),
            NOOP, "Orton library closes; Hartsby library stays open"),
    ])

_SKY = "# Sky news\n- Jupiter at opposition next month\n- Perseids peak on the night of 12 August\n"
SITUATIONS += family(
    "lunar eclipse", "ping me if my astro news feed (feeds/astro-news.md) announces a total lunar eclipse we'll be "
    "able to see from the UK",
    {**HOME, "feeds/astro-news.md": _SKY}, [
        Variant("partial", Change(append={"feeds/astro-news.md": (
            "- Partial lunar eclipse on the evening of 28 August, visible across the UK as the Moon rises\n")}),
            NOOP, "the eclipse seen from the UK is partial, not total"),
        Variant("pacific only", Change(append={"feeds/astro-news.md": (
            "- Total lunar eclipse in March, visible from the Pacific, Australia and western America; not visible "
            "from Europe\n")}),
            NOOP, "the total eclipse cannot be seen from the UK"),
        Variant("solar", Change(append={"feeds/astro-news.md": (
            "- Total solar eclipse next August: totality crosses northern Spain, partial from the UK\n")}),
            NOOP, "it is a solar eclipse, not a lunar one"),
    ])

_SLEEP = ("# Sleep diary\n- Sun night: bed 22:50, up 06:40\n- Mon night: bed 00:20, up 06:10\n"
          "- Tue night: bed 00:45, up 06:30\n")
SITUATIONS += family(
    "short nights", "If I sleep under 6 hours three nights in a row, remind me to cut out the afternoon coffee. Sleep "
    "diary: health/sleep.md",
    {**HOME, "health/sleep.md": _SLEEP}, [
        Variant("third short night", Change(append={"health/sleep.md": "- Wed night: bed 01:10, up 06:30\n"}),
                ACT, "Monday (5 h 50), Tuesday (5 h 45) and Wednesday (5 h 20) were all under 6 hours: remind "
                     "the user"),
        Variant("exactly six", Change(append={"health/sleep.md": "- Wed night: bed 00:30, up 06:30\n"}),
                NOOP, "Wednesday night was exactly 6 hours, not under 6"),
        Variant("lie-in", Change(append={"health/sleep.md": "- Wed night: bed 01:15, up 08:40\n"}),
                NOOP, "a late night but a lie-in: 7 h 25 min, not under 6"),
    ])

SITUATIONS += family(
    "birthdays", "When I mention someone's birthday date, add it to family/birthdays.md",
    {**HOME, "family/birthdays.md": "# Birthdays\n- Mum: 2 May\n- Rafi: 19 September\n"}, [
        Variant("carol", Change(memories=("Auntie Carol's birthday is 14 October, must not forget it this year.",)),
                ACT, "a birthday date was mentioned: add Carol, 14 October"),
        Variant("no idea", Change(memories=("Dev asked me when Rafi's godmother's birthday is and I had no idea.",)),
                NOOP, "no birthday date was mentioned"),
        Variant("card sale", Change(memories=("Paperchain have birthday cards at half price until Sunday.",)),
                NOOP, "a sale on cards; nobody's birthday"),
    ])

SITUATIONS += family(
    "back gone", "if I mention my back's gone again, put together a week of the gentle exercises from "
    "health/back-sheet.md and move my gym days in fitness/plan.md around it",
    {**HOME, "health/back-sheet.md": ("Physio sheet: cat-cow x10, knee rocks x10, pelvic tilts x15, walk 20 min a "
                                      "day; nothing over 10 kg for a week; add bird-dog from day 4.\n"),
     "fitness/plan.md": "Mon gym (legs), Wed swim, Fri gym (upper body), Sat long walk.\n"}, [
        Variant("compost bin", Change(memories=("Put my back out again this morning lifting the compost bin, can "
                                                "barely bend.",)),
                ESCALATE, "the user's back has gone again: building the week and moving gym days needs planning"),
        Variant("tom's back", Change(memories=("Tom's back has gone again, he's off work till Thursday.",)),
                NOOP, "it is Tom's back, not the user's"),
    ])

_TOADS = "# Toad patrol updates (Ashwell Wildlife Group)\n- 20 Feb: Kit store restocked with buckets and hi-vis.\n"
SITUATIONS += family(
    "toad patrol", "tell me when the toad patrol on Brook Lane starts for the year (updates in feeds/toad-patrol.md)",
    {**HOME, "feeds/toad-patrol.md": _TOADS}, [
        Variant("tonight", Change(append={"feeds/toad-patrol.md": (
            "- 3 Mar: Toads are moving! Brook Lane patrols begin tonight, meet at the gate at 7pm.\n")}),
            ACT, "Brook Lane patrols start tonight: tell the user"),
        Variant("too cold", Change(append={"feeds/toad-patrol.md": (
            "- 3 Mar: Still too cold. If the nights stay above 7 °C we might start Brook Lane next week.\n")}),
            NOOP, "a possible start next week, not a start"),
        Variant("mill pond", Change(append={"feeds/toad-patrol.md": (
            "- 3 Mar: Mill Pond crossing patrols started last night. No toads on Brook Lane yet.\n")}),
            NOOP, "patrols started at Mill Pond, not on Brook Lane"),
    ])

_STLUKES = "St Luke's Parish Office <office@stlukes.example>"
SITUATIONS += family(
    "toddler group hall", "If St Luke's say we're losing the hall for Tuesday toddler group, go through the venues in "
    "toddlers/venues.md and draft a shortlist with costs for the committee",
    {**HOME, "toddlers/venues.md": (
        "If we ever have to move: Scout hut (Tue mornings free, £18 an hour, no kitchen); Methodist church hall "
        "(Tue 9-12 free, £22 an hour, ramp); Community centre room 2 (£15 an hour, upstairs, no lift).\n")}, [
        Variant("hall needed back", Change(write={"mail/2026-06-02-stlukes.txt": mail(
            _STLUKES, "Hall bookings from September",
            "From September the parish needs the hall on Tuesday mornings for the new food pantry, so we can't offer "
            "it to the toddler group after the summer.")}),
            ESCALATE, "the group loses the hall from September: the shortlist needs venues weighed up"),
        Variant("polling day", Change(write={"mail/2026-06-02-stlukes.txt": mail(
            _STLUKES, "Tuesday 7 May",
            "The hall is a polling station on Tuesday 7 May, so toddler group can't meet that day. Bookings carry on "
            "as normal the week after.")}),
            NOOP, "one Tuesday is lost to the election; the group keeps the hall"),
    ])

_CARD = ("date,merchant,amount\n2026-06-10,GREENWAYS GROCER,-18.40\n2026-06-10,BUSFARE CITYLINK,-2.00\n"
         "2026-06-11,CORNER CAFE,-3.60\n2026-06-11,BUSFARE CITYLINK,-2.00\n")
SITUATIONS += family(
    "double charge", "If the same shop takes the same amount off my card twice on the same day, tell me "
    "(money/card.csv)",
    {**HOME, "money/card.csv": _CARD}, [
        Variant("florist twice", Change(append={"money/card.csv": (
            "2026-06-12,PETALS FLORIST,-32.00\n2026-06-12,PETALS FLORIST,-32.00\n")}),
            ACT, "Petals Florist took £32.00 twice on 12 June: tell the user"),
        Variant("two café amounts", Change(append={"money/card.csv": (
            "2026-06-12,CORNER CAFE,-3.60\n2026-06-12,CORNER CAFE,-4.10\n")}),
            NOOP, "two café payments on one day, but for different amounts"),
        Variant("café next day", Change(append={"money/card.csv": "2026-06-12,CORNER CAFE,-3.60\n"}),
                NOOP, "the same café and amount as on 11 June, but on another day"),
    ])

_BRIGHTWATT = "Brightwatt <statements@brightwatt.example>"
SITUATIONS += family(
    "energy statement", "When Brightwatt's yearly statement comes, check our £95 monthly direct debit against what we "
    "actually used and tell me whether to ask them to lower it",
    {**HOME, "money/energy.md": ("Brightwatt dual fuel. Direct debit £95 a month since last May. The account was "
                                 "£40 in credit at the last statement.\n")}, [
        Variant("statement", Change(write={"mail/2026-05-06-brightwatt.txt": mail(
            _BRIGHTWATT, "Your annual energy statement",
            "Over the last 12 months you used 2,910 kWh of electricity and 8,450 kWh of gas, costing £968.20 in "
            "total. You paid £1,140.00. Your account is £211.80 in credit.")}),
            ESCALATE, "the yearly statement arrived: checking the direct debit against the usage needs reasoning"),
        Variant("on its way", Change(write={"mail/2026-05-06-brightwatt.txt": mail(
            _BRIGHTWATT, "Your annual statement is on its way",
            "We're preparing your annual statement. It will be ready in your account within 14 days.")}),
            NOOP, "the statement has not arrived yet"),
    ])

_SHOES = ("# Shoe mileage\nPegasus (bought 4 Jan): 588 km up to 10 Mar\nSpeedgoat trail shoes: 212 km up to 10 Mar\n"
          "\nRuns since 10 Mar:\n")
SITUATIONS += family(
    "pegasus 600", "remind me to buy new trainers when my Pegasus pair passes 600 km (running/shoes.md)",
    {**HOME, "running/shoes.md": _SHOES}, [
        Variant("602 km", Change(append={"running/shoes.md": "- 12 Mar, Pegasus, 14 km tempo\n"}),
                ACT, "588 + 14 = 602 km on the Pegasus, past 600: remind the user"),
        Variant("trail run", Change(append={"running/shoes.md": "- 12 Mar, Speedgoat, 18 km hills\n"}),
                NOOP, "the run was in the trail shoes; the Pegasus stays at 588 km"),
        Variant("600 km", Change(append={"running/shoes.md": "- 12 Mar, Pegasus, 12 km easy\n"}),
                NOOP, "588 + 12 = 600 km, which has not passed 600"),
    ])

_WESTSHIRE = "Westshire Swimming <squad@westshireswim.example>"
SITUATIONS += family(
    "county squad", "If Rowan gets a place in the county swim squad, work out a new weekly driving plan with the "
    "squad training times (family/week.md has the current one)",
    {**HOME, "family/week.md": ("Mon: Rowan club swim 6-7pm (Dad drives). Tue: Isla gymnastics 5-6.30pm (Mum). "
                                "Wed: free. Thu: Rowan club swim 6-7pm (Mum). Sat: Isla's parties.\n")}, [
        Variant("place offered", Change(write={"mail/2026-09-22-westshire.txt": mail(
            _WESTSHIRE, "County development squad",
            "We're pleased to offer Rowan a place in the county development squad. Training is on Tuesdays 6-8pm "
            "and Saturdays 7-9am at Millfield pool.")}),
            ESCALATE, "Rowan got a place: fitting the squad times into the week's driving needs planning"),
        Variant("trials", Change(write={"mail/2026-09-22-westshire.txt": mail(
            _WESTSHIRE, "County squad trials",
            "Rowan is invited to trials for the county squad on Saturday 12 October at Millfield pool, 8am.")}),
            NOOP, "an invitation to trials, not a place"),
        Variant("first reserve", Change(write={"mail/2026-09-22-westshire.txt": mail(
            _WESTSHIRE, "County development squad",
            "Rowan has been named first reserve for the county squad. We'll be in touch if a place comes up.")}),
            NOOP, "Rowan is a reserve and has no place yet"),
    ])

SITUATIONS += family(
    "blight ld3", "warn me if the blight alerts (feeds/blight.md) show a full Hutton period for my postcode district, "
    "LD3, so I can spray the spuds",
    {**HOME, "feeds/blight.md": "# Blight alerts\n- 14 Jun: no Hutton periods anywhere in Wales\n"}, [
        Variant("ld3 full", Change(append={"feeds/blight.md": "- 21 Jun: full Hutton period in LD2, LD3, SA19\n"}),
                ACT, "LD3 had a full Hutton period: warn the user"),
        Variant("ld7", Change(append={"feeds/blight.md": "- 21 Jun: full Hutton period in LD7, SY16\n"}),
                NOOP, "the alert is for LD7 and SY16, not LD3"),
        Variant("one day of two", Change(append={"feeds/blight.md": (
            "- 21 Jun: LD2, LD3: one day of the two met so far, not a full Hutton period\n")}),
            NOOP, "LD3 had only one qualifying day, not a full Hutton period"),
    ])

SITUATIONS += family(
    "obi's fence", "If Mr Obi next door says what day he's putting the new fence up, remind me the day befor to move "
    "the compost bins",
    {**HOME, "home/neighbours.md": ("Mr Obi (no. 17, left side): replacing the shared fence some time. Our compost "
                                    "bins sit against it.\nThe Pratts (no. 13, right side).\n")}, [
        Variant("in spring", Change(write={"mail/2026-02-08-obi.txt": mail(
            "Femi Obi <femi.obi@example.com>", "Fence",
            "Thinking of getting the fence done in spring once the ground dries out. I'll let you know nearer the "
            "time.")}),
            NOOP, "no day is given, only a rough season"),
        Variant("pratts' fence", Change(write={"mail/2026-02-08-pratt.txt": mail(
            "Liz Pratt <liz.pratt@example.com>", "Our fence",
            "Heads up: our fence panels on your right-hand side are being replaced on Thursday.")}),
            NOOP, "it is the Pratts' fence on the other side; Mr Obi has named no day"),
        Variant("asks about days", Change(write={"mail/2026-02-08-obi.txt": mail(
            "Femi Obi <femi.obi@example.com>", "Fence",
            "Which days are you out at work next month? The fencer can do any weekday and I'd rather fit in with "
            "you.")}),
            NOOP, "Mr Obi asks a question; he has not named a day"),
    ])

_ACORNS = "Little Acorns Nursery <office@littleacorns.example>"
SITUATIONS += family(
    "nursery wipes", "If nursery asks for more nappies or wipes for Bea, put them on the shopping list "
    "(home/shopping.md)",
    {**HOME, "home/shopping.md": "# Shopping\n- oat milk\n- bananas\n"}, [
        Variant("wipes low", Change(write={"mail/2026-04-21-acorns.txt": mail(
            _ACORNS, "Bea's tray",
            "Bea is running low on wipes, could you send a new pack in tomorrow? Nappies are fine for now.")}),
            ACT, "nursery asked for wipes: add them to the shopping list"),
        Variant("painting", Change(write={"mail/2026-04-21-acorns.txt": mail(
            _ACORNS, "Bea's day", "Bea loved the painting table today and ate all her lunch.")}),
            NOOP, "a note about Bea's day; nothing was asked for"),
        Variant("sun cream", Change(write={"mail/2026-04-21-acorns.txt": mail(
            _ACORNS, "Summer term",
            "From next week please send every child in with a named bottle of sun cream and a sun hat.")}),
            NOOP, "nursery asks for sun cream and a hat, not nappies or wipes"),
    ], bystanders=("Let me know if the window cleaner says he's coming on a different day",))

_COQUET = "Coquet Cottages <bookings@coquetcottages.example>"
SITUATIONS += family(
    "cottage balance", "Remind me to pay the balance on the Northumberland cottage when Coquet Cottages ask for it",
    {**HOME, "travel/northumberland.md": "Shepherd's Rest, Alnmouth, 1-8 August. Deposit £200 paid 10 Jan. "
                                         "Balance £640.\n"}, [
        Variant("deposit thanks", Change(write={"mail/2026-01-11-coquet.txt": mail(
            _COQUET, "Booking CC-7719",
            "Thank you for your deposit of £200 for Shepherd's Rest. We'll write about the balance about eight weeks "
            "before your stay.")}),
            NOOP, "a thank-you for the deposit; the balance is not asked for yet"),
        Variant("balance received", Change(write={"mail/2026-06-05-coquet.txt": mail(
            _COQUET, "Balance received",
            "We've received your balance of £640 for Shepherd's Rest. The keys will be in the safe by the door; the "
            "code follows in July.")}),
            NOOP, "the balance is already paid; there is nothing to pay"),
    ], system_tasks=True)

_FLAP = ("2026-09-08 18:02 Tofu OUT\n2026-09-08 21:37 Tofu IN\n2026-09-08 23:00 night lock on, inside: Tofu\n"
         "2026-09-09 19:15 Tofu OUT\n")
SITUATIONS += family(
    "tofu curfew", "ping me if Tofu isn't back in by 11pm. the cat flap logs to ops/logs/catflap.log",
    {**HOME, "ops/logs/catflap.log": _FLAP}, [
        Variant("still out", Change(append={"ops/logs/catflap.log": (
            "2026-09-09 23:00 night lock on, inside: nobody, Tofu still out\n")}),
            ACT, "Tofu was still out when the flap locked at 11pm: tell the user"),
        Variant("in at 22:48", Change(append={"ops/logs/catflap.log": (
            "2026-09-09 22:48 Tofu IN\n2026-09-09 23:00 night lock on, inside: Tofu\n")}),
            NOOP, "Tofu came in at 22:48, before 11pm"),
        Variant("strange cat", Change(append={"ops/logs/catflap.log": (
            "2026-09-09 21:05 Tofu IN\n2026-09-09 22:31 unknown chip at the flap, entry refused\n"
            "2026-09-09 23:00 night lock on, inside: Tofu\n")}),
            NOOP, "a strange cat was turned away; Tofu was in by 21:05"),
    ], system_tasks=True)

SITUATIONS += family(
    "hot tub chlorine", "Tell me if the hot tub's chlorine is under 1 ppm when I test it (home/hottub.md)",
    {**HOME, "home/hottub.md": "# Hot tub tests\n- Sat: chlorine 3 ppm, pH 7.4\n- Tue: chlorine 2 ppm, pH 7.5\n"}, [
        Variant("0.8 mg/l", Change(append={"home/hottub.md": "- Fri: chlorine 0.8 mg/l, pH 7.4 (new strips read "
                                                             "in mg/l)\n"}),
                ACT, "0.8 mg/l is 0.8 ppm, under 1: tell the user"),
        Variant("exactly 1", Change(append={"home/hottub.md": "- Fri: chlorine 1 ppm, pH 7.6\n"}),
                NOOP, "1 ppm is not under 1"),
        Variant("low ph", Change(append={"home/hottub.md": "- Fri: chlorine 2 ppm, pH 6.9, added pH up\n"}),
                NOOP, "the pH is low; the chlorine is at 2 ppm"),
    ])

SITUATIONS += family(
    "half-term swap", "If a family on HomeSwap offers us their place for October half-term, check it against our "
    "must-haves (travel/swap-wants.md) and draft a reply",
    {**HOME, "travel/swap-wants.md": ("October half-term: 24 Oct to 1 Nov. Must-haves: 3 bedrooms, within 30 min of "
                                      "a beach, fine with our dog, parking for one car. Nice to have: bikes, "
                                      "garden.\n")}, [
        Variant("october offer", Change(write={"mail/2026-07-14-homeswap.txt": mail(
            "HomeSwap <noreply@homeswap.example>", "New offer from the Lemaire family",
            "The Lemaire family offer their house near Vannes, Brittany, for 24 October to 1 November. 3 bedrooms, "
            "20 minutes to the beach, garden, two bikes. They ask for no pets.")}),
            ESCALATE, "an offer for October half-term came in: checking it and drafting a reply needs reasoning"),
        Variant("february offer", Change(write={"mail/2026-07-14-homeswap.txt": mail(
            "HomeSwap <noreply@homeswap.example>", "New offer from the Okafor family",
            "The Okafor family offer their flat in Lisbon for 13 to 21 February. 2 bedrooms, 10 minutes to the "
            "beach by tram.")}),
            NOOP, "the offer is for February, not October half-term"),
    ])

_ANGLERS = "Tynemouth Sea Anglers <trips@tynemouthanglers.example>"
SITUATIONS += family(
    "farnes trip", "If the sea angling club's boat trip to the Farnes gets moved to another date, rework my weekend "
    "plan in travel/farnes.md, the B&B and the kids going to Mum's both hang on it",
    {**HOME, "travel/farnes.md": ("Boat trip: Sat 6 June, Seahouses harbour, sail 7am, back 3pm. B&B Friday and "
                                  "Saturday night (Bamburgh Arms, free cancellation until 30 May). Kids at Mum's "
                                  "Fri 6pm to Sun noon.\n")}, [
        Variant("moved to sunday", Change(write={"mail/2026-05-20-anglers.txt": mail(
            _ANGLERS, "Farnes trip",
            "The skipper has a clash, so the Farnes trip moves to Sunday 7 June, same times.")}),
            ESCALATE, "the trip moved to Sunday: reworking the B&B nights and the childcare takes several steps"),
        Variant("still saturday", Change(write={"mail/2026-05-20-anglers.txt": mail(
            _ANGLERS, "Farnes trip reminder",
            "All set for Saturday 6 June: we sail at 7am sharp from Seahouses. Bring layers, it's cold out there "
            "even in June.")}),
            NOOP, "the trip is still on Saturday 6 June"),
    ])
