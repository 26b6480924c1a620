"""The held-out labelled set no. 8 for ``bench/judgement.py``, written without reading how the product decides.

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
)
from bench.judgement_set import (
    mail as _mail,
)

SITUATIONS: list[Situation] = []


def _stock(bread: int, rye: int, day: str) -> str:
    return ("item,unit,on hand,counted\n"
            f"bread flour (strong white),kg,{bread},{day}\nrye flour,kg,{rye},{day}\n"
            f"plain flour,kg,70,{day}\nunsalted butter,kg,18,{day}\n")


SITUATIONS += family(
    "flour stock", "Tell me when the bread flour in bakery/stock.csv gets below 50 kg so I can order more",
    {**HOME, "bakery/stock.csv": _stock(96, 55, "Mon")}, [
        Variant("after the weekend", Change(write={"bakery/stock.csv": _stock(41, 52, "Wed")}),
                ACT, "41 kg of bread flour is left, below 50: tell the user"),
        Variant("rye low", Change(write={"bakery/stock.csv": _stock(88, 30, "Wed")}),
                NOOP, "it is the rye flour that fell below 50 kg; the bread flour is at 88"),
        Variant("exactly fifty", Change(write={"bakery/stock.csv": _stock(50, 49, "Wed")}),
                NOOP, "50 kg of bread flour is not below 50; only the rye is under"),
    ], system_tasks=True)
_STANDING = ("# Standing wholesale orders\n\n| customer | Mon | Wed | Fri |\n|---|---|---|---|\n"
             "| Harbour Cafe | 20 sourdough, 40 rolls | 20 sourdough | 20 sourdough, 12 focaccia |\n"
             "| Tide Kitchen | 10 rye | 10 rye | 10 rye |\n")
SITUATIONS += family(
    "cafe standing order", "If the Harbour Cafe changes its standing weekly order, rework this week's bake plan in "
    "bakery/bake-plan.md to fit it",
    {**HOME, "bakery/standing-orders.md": _STANDING,
     "bakery/bake-plan.md": ("# Bake plan\n\nMon: 4 am dough for 30 sourdough, 40 rolls, 10 rye.\n"
                             "Wed: 30 sourdough, 10 rye.\nFri: 30 sourdough, 12 focaccia, 10 rye.\n")}, [
        Variant("more loaves, no rolls", Change(write={"inbox/2026-05-11-harbour.txt": _mail(
            "Nell Tregear <nell@harbourcafe.example>", "Bread from next week",
            "Weekends have gone mad since the ferry started. From next week could we have 30 loaves on Fridays "
            "instead of 20, and drop the Monday rolls altogether? Nobody buys them.")}),
            ESCALATE, "the cafe changed its order: reworking the bake plan around it needs reasoning"),
        Variant("order unchanged", Change(write={"inbox/2026-05-11-harbour.txt": _mail(
            "Nell Tregear <nell@harbourcafe.example>", "Summer",
            "Just to say we'll keep the bread exactly as it is through the summer. The focaccia is a hit!")}),
            NOOP, "the cafe says its order stays as it is"),
        Variant("the other cafe", Change(write={"inbox/2026-05-11-tide.txt": _mail(
            "Sam Penrose <sam@tidekitchen.example>", "Rye",
            "Could we double the rye to 20 on Fridays from now on? Thanks, Sam")}),
            NOOP, "it is Tide Kitchen that changed its order, not the Harbour Cafe"),
    ], bystanders=("Tell me when the engineer gives a date to service the deck oven",))
_CHOIR = ("# Fernbrook Singers notices\n\n- Rehearsals: Thursdays 7:30-9:30, St Luke's school hall.\n"
          "- Subs for the spring term are due by the end of January.\n")
SITUATIONS += family(
    "choir rehearsal", "Let me know if this Thursday's choir rehearsal is called off or moved (notices go in "
    "choir/notices.md)",
    {**HOME, "choir/notices.md": _CHOIR}, [
        Variant("other venue", Change(append={"choir/notices.md": (
            "- This week only we'll be in the Methodist church across the road, same time: the school needs the "
            "hall for mock exams.\n")}),
            ACT, "this week's rehearsal is in another place: tell the user"),
        Variant("director has no voice", Change(append={"choir/notices.md": (
            "- Sorry all, Helen has lost her voice and nobody can stand in, so no practice this Thursday. Back as "
            "normal next week.\n")}),
            ACT, "there is no practice this Thursday: the rehearsal is off, tell the user"),
        Variant("tenor sectional", Change(append={"choir/notices.md": (
            "- The tenors' extra sectional on Tuesday is cancelled; Dave is away.\n")}),
            NOOP, "a tenors' Tuesday sectional was cancelled, not Thursday's rehearsal"),
        Variant("maybe in summer", Change(append={"choir/notices.md": (
            "- The school is being refitted over the summer, so from July we may need somewhere new. Ideas "
            "welcome!\n")}),
            NOOP, "a possible move in July is only floated; this Thursday is unchanged"),
    ])
_WALKS = ("# Walks this week\n\n| day | time | dog | owner |\n|---|---|---|---|\n"
          "| Wed 11 Mar | 10:00 | Biscuit | Mrs Ellery |\n| Wed 11 Mar | 14:00 | Mabel and Moss | Tom Reyes |\n"
          "| Thu 12 Mar | 09:00 | Juno | Priya Nair |\n| Thu 12 Mar | 15:00 | Biscuit | Mrs Ellery |\n")
SITUATIONS += family(
    "late walk cancellation", "I walk dogs for a living. If a client cancels a walk less than 24 hours before it, add "
    "a 12 GBP late-cancellation line for them to walks/charges.csv",
    {**HOME, "walks/schedule.md": _WALKS, "walks/charges.csv": "date,client,item,GBP\n"}, [
        Variant("the night before", Change(write={"inbox/2026-03-10-reyes.txt": _mail(
            "Tom Reyes <tom.reyes@example.net>", "Tomorrow",
            "Sent Tue 10 Mar, 21:40. Really sorry, can you skip Mabel and Moss tomorrow afternoon? My sister has "
            "turned up and is taking them to the beach.")}),
            ACT, "Tom cancelled Wednesday's 14:00 walk the evening before, under 24 hours: add one charge line"),
        Variant("rang the same morning", Change(memories=(
            "Wed 11 Mar: Mrs Ellery rang at 8 this morning, Biscuit's 10 o'clock walk is off, he's at the vet.",)),
            ACT, "a walk was called off two hours before it: add a late-cancellation line for Mrs Ellery"),
        Variant("days ahead", Change(write={"inbox/2026-03-09-nair.txt": _mail(
            "Priya Nair <priya.nair@example.org>", "Thursday",
            "Sent Mon 9 Mar, 18:05. No walk for Juno on Thursday please, I'm working from home that day.")}),
            NOOP, "Priya cancelled Thursday's walk on Monday, well over 24 hours ahead"),
        Variant("walker ill", Change(memories=(
            "Woke up with a fever, I've cancelled all of Thursday's walks and told the owners.",)),
            NOOP, "the user cancelled the walks; no client cancelled"),
    ])
SITUATIONS += family(
    "garage rent", "Dev rents my garage on Mill Lane for 85 GBP a month. Tell me when his May rent shows up in "
    "money/bank-may.csv",
    {**HOME, "money/bank-may.csv": ("date,description,amount\n2026-05-01,COUNCIL TAX DD,-142.00\n"
                                    "2026-05-02,CO-OP FOOD 2231,-36.40\n")}, [
        Variant("standing order", Change(append={"money/bank-may.csv": "2026-05-05,D PATEL STO MILL LN,85.00\n"}),
                ACT, "an 85 GBP standing order from D Patel for Mill Lane arrived: tell the user"),
        Variant("same amount, other source", Change(append={"money/bank-may.csv": "2026-05-05,EBAY PAYOUT,85.00\n"}),
                NOOP, "an 85 GBP payout from eBay is not Dev's rent"),
        Variant("paying friday", Change(memories=(
            "Dev texted: the garage rent will be a few days late this month, he gets paid on Friday.",)),
            NOOP, "Dev only says he will pay later; nothing has arrived"),
    ], bystanders=("Tell me when next year's council tax bill arrives",))
SITUATIONS += family(
    "hmrc letters", "If HMRC writes to say Geoff owes tax or that his tax code is changing, check their figures "
    "against our pensions in money/pensions.md and tell us what we need to do",
    {**HOME, "money/pensions.md": (
        "# Our pensions (2025-26)\n\nGeoff: State Pension 11,973 GBP a year; Brackley Engineering pension via "
        "Aviva, 9,600 GBP a year, tax taken off by Aviva.\nPat: State Pension 11,973 GBP a year, nothing else.\n")}, [
        Variant("underpaid", Change(write={"post/2026-06-12-hmrc.md": (
            "HM Revenue & Customs\nMr G Barlow\n\nSimple Assessment 2025-26. We calculate that you paid "
            "318.40 GBP too little tax. Pensions we used: State Pension 11,973 GBP; other pensions 10,150 GBP. "
            "Please pay by 31 January 2027 or tell us within 60 days if you disagree.\n")}),
            ESCALATE, "HMRC says Geoff owes tax and its pension figure differs from ours: checking it needs reasoning"),
        Variant("new code", Change(write={"post/2026-03-02-hmrc.md": (
            "HM Revenue & Customs\nPAYE Coding Notice 2026-27, Mr G Barlow\n\nYour tax code for your Aviva pension "
            "changes from 0T to K114 from 6 April 2026. This is because your State Pension of 12,547 GBP is more "
            "than your Personal Allowance and is paid without tax taken off.\n")}),
            ESCALATE, "Geoff's tax code is changing: checking the figures and explaining what to do needs work"),
        Variant("code stays", Change(write={"post/2026-03-02-hmrc.md": (
            "HM Revenue & Customs\nMr G Barlow\n\nYour tax code for 2026-27 stays the same: 0T. You do not need to "
            "do anything.\n")}),
            NOOP, "HMRC says the tax code is not changing and nothing is owed"),
        Variant("heard at bowls", Change(memories=(
            "Bob at the bowls club reckons HMRC are sending tax bills to half the pensioners in town this year.",)),
            NOOP, "gossip about tax bills is not a letter from HMRC to Geoff"),
    ])
_INSPECTIONS = ("# Inspections 2026\n\n12 May, Hive 1 (Bramble): 9 frames of brood, queen seen, calm.\n"
                "12 May, Hive 2 (Clover): 7 frames of brood, eggs seen, first super half full.\n")
SITUATIONS += family(
    "queen cells", "Tell me if my hive inspection notes (bees/inspections.md) mention queen cells in any of my "
    "hives, I'll need to act before they swarm",
    {**HOME, "bees/inspections.md": _INSPECTIONS}, [
        Variant("capped on frame 6", Change(append={"bees/inspections.md": (
            "19 May, Hive 2 (Clover): three capped queen cells on the bottom bar of frame 6, queen still laying.\n")}),
            ACT, "the notes record queen cells in Clover: tell the user"),
        Variant("swarm cells", Change(append={"bees/inspections.md": (
            "19 May, Hive 1 (Bramble): they're building swarm cells along the lower edge of frames 4 and 5, two "
            "with larvae in.\n")}),
            ACT, "swarm cells with larvae are queen cells: tell the user"),
        Variant("none seen", Change(append={"bees/inspections.md": (
            "19 May, both hives: went through every frame, no sign of queen cells, plenty of room in the supers.\n")}),
            NOOP, "the notes say there are no queen cells"),
        Variant("club apiary", Change(write={"bees/club-news.md": (
            "Association apiary news: hive C at the club site had queen cells on Saturday, so Ray did an "
            "artificial swarm.\n")}),
            NOOP, "the queen cells were in the association's hive, not one of the user's"),
    ])
SITUATIONS += family(
    "mite drop", "If the mite drop in bees/varroa.csv goes above 10 a day for any hive, work out a treatment plan "
    "that doesn't clash with taking the honey off (bees/calendar.md)",
    {**HOME, "bees/varroa.csv": ("hive,board in,board out,days,mites counted\n"
                                 "Bramble,2026-07-01,2026-07-08,7,28\nClover,2026-07-01,2026-07-08,7,35\n"),
     "bees/calendar.md": "Honey off: 8-10 August.\nAway in Skye: 15-22 August.\nFeed from 1 September.\n"}, [
        Variant("clover climbing", Change(append={"bees/varroa.csv": "Clover,2026-07-15,2026-07-22,7,98\n"}),
                ESCALATE, "98 mites in 7 days is 14 a day, above 10: planning treatment around the harvest needs work"),
        Variant("weekly count", Change(append={"bees/varroa.csv": "Bramble,2026-07-15,2026-07-22,7,63\n"}),
                NOOP, "63 mites over 7 days is 9 a day, not above 10"),
        Variant("three-day board", Change(memories=("Pulled Bramble's varroa board after 3 days: 36 mites on it.",)),
                ESCALATE, "36 mites in 3 days is 12 a day: work out a treatment plan"),
        Variant("someone else's hives", Change(memories=(
            "Ray says the hives at the club apiary are dropping 20 mites a day.",)),
            NOOP, "the high drop is in the club's hives, not the user's"),
    ])
SITUATIONS += family(
    "chapter 2 feedback", "When Dr Aziz sends feedback on my chapter 2 draft, go through her comments and make me a "
    "revision plan before our next supervision",
    {**HOME, "dissertation/plan.md": ("# Dissertation\n- Ch1 introduction: done\n- Ch2 literature review: draft "
                                      "sent 3 March\n- Ch3 methods: in progress\n")}, [
        Variant("comments by mail", Change(write={"inbox/2026-03-16-aziz.txt": _mail(
            "Dr Samira Aziz <s.aziz@uni.example.ac.uk>", "Re: Chapter 2 draft",
            "I've read it. The structure works, but 2.3 summarises rather than argues: say where Hollis and Tan "
            "disagree and why it matters for you. Cut 2.5, it belongs in methods. Several citations lack years. "
            "Let's talk on the 20th.")}),
            ESCALATE, "the supervisor's comments arrived: turning them into a revision plan needs reasoning"),
        Variant("annotated file", Change(write={"dissertation/feedback/ch2-aziz.md": (
            "# Ch2, comments (SA)\n\n- p4: too descriptive, what is your position?\n- p7: the two survey studies "
            "are never compared\n- p11: good, keep\n- overall: 2,000 words over, trim the history section\n")}),
            ESCALATE, "an annotated copy of the chapter 2 comments arrived: plan the revisions"),
        Variant("chapter 1 notes", Change(write={"inbox/2026-03-16-aziz.txt": _mail(
            "Dr Samira Aziz <s.aziz@uni.example.ac.uk>", "Chapter 1",
            "A few last notes on chapter 1: fix the figure numbering and it is done.")}),
            NOOP, "the notes are on chapter 1, not the chapter 2 draft"),
        Variant("after exams", Change(write={"inbox/2026-03-16-aziz.txt": _mail(
            "Dr Samira Aziz <s.aziz@uni.example.ac.uk>", "Re: Chapter 2 draft",
            "Got it, thank you. I'm marking exams this week, you'll have my comments by the 18th.")}),
            NOOP, "she only promises comments later; no feedback yet"),
    ])
_REPAIRS = ("# Workshop queue\n\n| ticket | customer | bike | job | status |\n|---|---|---|---|---|\n"
            "| 311 | J. Okoye | Brompton M6L | new rear hub gear | waiting for parts |\n"
            "| 312 | A. Liddell | Brompton S2L | service, new chain | in progress |\n"
            "| 313 | K. Moss | Dawes Galaxy | true rear wheel | in progress |\n")
SITUATIONS += family(
    "brompton collection", "Tell me when Mr Okoye's Brompton in the workshop queue (shop/repairs.md) is ready for him "
    "to collect, so I can ring him",
    {**HOME, "shop/repairs.md": _REPAIRS}, [
        Variant("on the rack", Change(write={"shop/repairs.md": _REPAIRS.replace(
            "new rear hub gear | waiting for parts", "new rear hub gear | done, on the collection rack")}),
            ACT, "ticket 311 is finished and on the rack: tell the user"),
        Variant("parts in", Change(write={"shop/repairs.md": _REPAIRS.replace(
            "new rear hub gear | waiting for parts", "new rear hub gear | parts arrived, fitting Thursday")}),
            NOOP, "the parts came but the repair is not done yet"),
        Variant("the other brompton", Change(write={"shop/repairs.md": _REPAIRS.replace(
            "service, new chain | in progress", "service, new chain | ready to collect")}),
            NOOP, "the ready Brompton is Ms Liddell's, not Mr Okoye's"),
    ], bystanders=("Tell me when the Shimano rep confirms a date for the demo day",))
SITUATIONS += family(
    "june newsletter", "I edit the Elmfield residents' newsletter. Once all four pieces for June (news, events, "
    "gardening, kids' corner) are in newsletter/june/, lay out a first draft of the issue",
    {**HOME, "newsletter/june/news.md": "# News\nThe bus shelter on Elm Road is finally being replaced in June.\n",
     "newsletter/june/events.md": "# Events\n- Sat 13 June: street party, Elmfield Green, from 2 pm.\n",
     "newsletter/june/gardening.md": "# In the garden\nEarth up potatoes and pinch out tomato side shoots.\n"}, [
        Variant("last piece in", Change(write={"newsletter/june/kids-corner.md": (
            "# Kids' corner\nSpot the ten ladybirds hidden in this issue! Answers in July. Plus: how to build a "
            "bug hotel from a plastic bottle.\n")}),
            ESCALATE, "the fourth piece arrived: laying out the issue draft needs several steps"),
        Variant("gardening revised", Change(write={"newsletter/june/gardening.md": (
            "# In the garden\nEarth up potatoes, pinch out tomato side shoots and net the strawberries.\n")}),
            NOOP, "only the gardening piece was revised; the kids' corner is still missing"),
        Variant("promised sunday", Change(write={"inbox/2026-05-22-lily.txt": _mail(
            "Lily Ward <lily.ward@example.org>", "Kids corner",
            "Sorry it's late! The kids' corner will be with you on Sunday, promise.")}),
            NOOP, "the kids' corner is only promised; three of the four pieces are in"),
        Variant("an advert", Change(write={"newsletter/june/advert-windows.md": (
            "Sparkle Window Cleaning: every four weeks, 12 GBP for a semi. Call Gary on 07700 900417.\n")}),
            NOOP, "an advert is not one of the four pieces; the kids' corner is still missing"),
    ])
_KILN = ("# Studio kiln bookings\n\n| date | firing | booked by |\n|---|---|---|\n"
         "| Sat 6 Jun | bisque | Ines |\n| Tue 9 Jun | bisque | Colm |\n| Sat 13 Jun | glaze, cone 6 | Ines |\n")
SITUATIONS += family(
    "kiln clash", "I'm Ines. Tell me if anyone books the studio kiln (pottery/kiln.md) for the same day as one of my "
    "firings",
    {**HOME, "pottery/kiln.md": _KILN}, [
        Variant("raku on my day", Change(append={"pottery/kiln.md": "| Sat 13 Jun | raku | Bronagh |\n"}),
                ACT, "Bronagh booked 13 June, the day of Ines's glaze firing: tell her"),
        Variant("moved onto my day", Change(write={"pottery/kiln.md": _KILN.replace(
            "| Tue 9 Jun | bisque | Colm |", "| Sat 6 Jun | bisque | Colm (moved from Tue 9th) |")}),
            ACT, "Colm moved his firing onto 6 June, Ines's bisque day: tell her"),
        Variant("the day after", Change(append={"pottery/kiln.md": "| Sun 14 Jun | glaze | Bronagh |\n"}),
                NOOP, "the new booking is on 14 June, the day after Ines's firing"),
    ], system_tasks=True)
SITUATIONS += family(
    "neighbour's groceries", "Mr Hale next door gets his FreshCart groceries on Tuesdays and I keep an eye on the "
    "emails for him. Tell me if his delivery gets moved or cancelled",
    {**HOME, "inbox/2026-04-20-freshcart.txt": _mail(
        "FreshCart <orders@freshcart.example>", "Order confirmed",
        "Order for Mr A Hale, 14 Tern Road. Delivery Tue 28 April, 10:00-11:00.")}, [
        Variant("slot moved", Change(write={"inbox/2026-04-27-freshcart.txt": _mail(
            "FreshCart <orders@freshcart.example>", "A change to your delivery",
            "Mr A Hale, 14 Tern Road: because of a vehicle fault your order will now arrive Wed 29 April, "
            "14:00-15:00. Sorry for any trouble.")}),
            ACT, "Mr Hale's delivery moved to Wednesday afternoon: tell the user"),
        Variant("usual reminder", Change(write={"inbox/2026-04-27-freshcart.txt": _mail(
            "FreshCart <orders@freshcart.example>", "Your delivery is tomorrow",
            "Mr A Hale, 14 Tern Road: see you Tue 28 April, 10:00-11:00. You can change your order until 23:00 "
            "tonight.")}),
            NOOP, "the reminder restates the same Tuesday slot"),
        Variant("my own order", Change(write={"inbox/2026-04-27-freshcart-me.txt": _mail(
            "FreshCart <orders@freshcart.example>", "A change to your delivery",
            "12 Tern Road: your order will now arrive Thu 30 April, 18:00-19:00.")}),
            NOOP, "the moved delivery is the user's own, at number 12, not Mr Hale's"),
    ])
SITUATIONS += family(
    "ups battery", "Keep an eye on the home server's UPS log (ops/logs/ups.log) and tell me if it says the battery "
    "needs replacing",
    {**HOME, "ops/logs/ups.log": ("2026-02-01 03:00 self-test: passed, runtime 22 min\n"
                                  "2026-02-14 18:42 on battery (mains lost)\n2026-02-14 18:43 mains restored\n")}, [
        Variant("failed self-test", Change(append={"ops/logs/ups.log": (
            "2026-03-01 03:00 self-test: FAILED, capacity 31 %\n2026-03-01 03:00 alarm: REPLACE BATT\n")}),
            ACT, "the UPS failed its test and raised the replace-battery alarm: tell the user"),
        Variant("power cut", Change(append={"ops/logs/ups.log": (
            "2026-03-04 21:10 on battery (mains lost)\n2026-03-04 21:16 mains restored, charging, 92 %\n")}),
            NOOP, "a six-minute power cut the battery rode out; nothing says it needs replacing"),
        Variant("test passed", Change(append={"ops/logs/ups.log": (
            "2026-03-01 03:00 self-test: passed, runtime 21 min\n")}),
            NOOP, "the monthly self-test passed"),
    ])


def _fantasy(rows: list[tuple[str, str]], week: int) -> str:
    lines = "".join(f"| {i} | {team} | {points} |\n" for i, (team, points) in enumerate(rows, start=1))
    return f"# Office fantasy league, after gameweek {week}\n\n| pos | team | points |\n|---|---|---|\n{lines}"


SITUATIONS += family(
    "fantasy top spot", "Tell me if anyone overtakes my team, Kloppite Dreams, at the top of our fantasy football "
    "table (fantasy/table.md)",
    {**HOME, "fantasy/table.md": _fantasy([("Kloppite Dreams", "1,204"), ("Net Gains", "1,190"),
                                           ("Ctrl Alt Defeat", "1,171"), ("Dad FC", "1,120")], 20)}, [
        Variant("knocked off", Change(write={"fantasy/table.md": _fantasy(
            [("Net Gains", "1,262"), ("Kloppite Dreams", "1,251"), ("Ctrl Alt Defeat", "1,230"), ("Dad FC", "1,168")],
            21)}),
            ACT, "Net Gains is now first and Kloppite Dreams second: tell the user"),
        Variant("gap closes", Change(write={"fantasy/table.md": _fantasy(
            [("Kloppite Dreams", "1,240"), ("Net Gains", "1,238"), ("Ctrl Alt Defeat", "1,219"), ("Dad FC", "1,160")],
            21)}),
            NOOP, "Net Gains closed to two points but Kloppite Dreams is still top"),
        Variant("chasers swap", Change(write={"fantasy/table.md": _fantasy(
            [("Kloppite Dreams", "1,266"), ("Ctrl Alt Defeat", "1,241"), ("Net Gains", "1,229"), ("Dad FC", "1,175")],
            21)}),
            NOOP, "second and third swapped; Kloppite Dreams is still first"),
    ])
SITUATIONS += family(
    "stage 5 swimming", "When Maya's swimming teacher says she has passed Stage 4, remind me to book her into the "
    "Stage 5 class before the places go",
    {**HOME, "swim/kids.md": "Maya (9): Stage 4, Saturdays 9:30.\nLeo (6): Stage 2, Saturdays 10:00.\n",
     "swim/teacher-notes.md": "# Notes from Kirsty\n\nMaya: lovely front crawl, keep working on backstroke.\n"}, [
        Variant("all outcomes met", Change(append={"swim/teacher-notes.md": (
            "Maya: all Stage 4 outcomes achieved this term, well done! Badge at reception.\n")}),
            ACT, "the teacher says Maya achieved everything in Stage 4: remind the user to book Stage 5"),
        Variant("said at the pool", Change(memories=(
            "Kirsty told me at the pool that Maya has done everything for Stage 4 and can move up in January.",)),
            ACT, "the teacher said Maya has finished Stage 4: remind the user to book"),
        Variant("leo passed", Change(append={"swim/teacher-notes.md": "Leo: passed Stage 2, ready for Stage 3.\n"}),
                NOOP, "it is Leo who passed a stage, not Maya"),
        Variant("nearly there", Change(append={"swim/teacher-notes.md": (
            "Maya: nearly there, she needs 25 m of backstroke without stopping before she can pass Stage 4.\n")}),
            NOOP, "Maya has not passed Stage 4 yet"),
    ])
SITUATIONS += family(
    "autumn repertoire", "When Helen sends the choir's music for next term, work out which pieces I don't already "
    "have scores for (choir/scores.md) and what buying them would cost",
    {**HOME, "choir/scores.md": (
        "# My scores\n- Faure Requiem (Novello)\n- Messiah (Watkins Shaw)\n- Rutter Gloria\n")}, [
        Variant("list sent", Change(write={"inbox/2026-07-20-helen.txt": _mail(
            "Helen Marsh <helen@fernbrooksingers.example>", "Autumn term music",
            "We'll be singing Haydn's Nelson Mass, the Rutter Gloria again, Parry's I was glad and a few carols. "
            "Scores from Banks Music are about 9 to 14 GBP each, or the library can lend some.")}),
            ESCALATE, "the term's music arrived: comparing it with owned scores and pricing the rest needs work"),
        Variant("subs only", Change(write={"inbox/2026-07-20-helen.txt": _mail(
            "Helen Marsh <helen@fernbrooksingers.example>", "Autumn subs",
            "Autumn subs are 95 GBP, by bank transfer please, before the first rehearsal.")}),
            NOOP, "the mail is about subs, not the term's music"),
        Variant("still deciding", Change(write={"inbox/2026-07-20-helen.txt": _mail(
            "Helen Marsh <helen@fernbrooksingers.example>", "Autumn",
            "I'm still choosing for autumn: possibly Haydn, possibly Mozart. I'll send the list in a fortnight.")}),
            NOOP, "the music is not chosen yet; no list was sent"),
    ])
_HALL = ("# Wrenfield village hall bookings\n\n| date | who | what |\n|---|---|---|\n"
         "| Sat 6 Jun | Step Up dance school | summer show |\n| Sat 13 Jun | Frost family | wedding reception |\n"
         "| Sat 27 Jun | WI | plant sale |\n")
SITUATIONS += family(
    "hall hire clash", "I do the bookings for Wrenfield village hall. When someone asks to hire it on a date that's "
    "already taken in hall/bookings.md, draft a reply offering them the nearest free Saturdays",
    {**HOME, "hall/bookings.md": _HALL}, [
        Variant("eighteenth party", Change(write={"inbox/2026-04-08-ahmed.txt": _mail(
            "Farah Ahmed <farah.ahmed@example.com>", "Hall for a party",
            "Hi, could we hire the main hall on Saturday 13 June for my daughter's 18th? About 70 people, "
            "7 till 11.")}),
            ESCALATE, "13 June is taken: finding free Saturdays and drafting the reply needs reasoning"),
        Variant("brownies rang", Change(memories=(
            "The Brownies leader rang: they'd like the hall on the 6th of June for their summer fete.",)),
            ESCALATE, "6 June is already booked: draft a reply with other Saturdays"),
        Variant("free date", Change(write={"inbox/2026-04-08-ahmed.txt": _mail(
            "Farah Ahmed <farah.ahmed@example.com>", "Hall for a party",
            "Hi, is the main hall free on Saturday 20 June for an 18th? About 70 people, 7 till 11.")}),
            NOOP, "20 June is free, so there is no clash to answer"),
        Variant("price question", Change(write={"inbox/2026-04-08-barnard.txt": _mail(
            "Keith Barnard <k.barnard@example.com>", "Small room",
            "What do you charge an hour for the small room, and is there a kitchen we can use?")}),
            NOOP, "the enquiry asks about prices and names no date"),
    ])
_BINS = ("# Bin collections\n\nKestrel Drive: general waste and recycling on alternate Fridays.\n"
         "Garden waste: Mondays, March to November.\n")
SITUATIONS += family(
    "bin day", "Tell me if the council changes the bin collection day for Kestrel Drive (notices go in "
    "council/bins.md)",
    {**HOME, "council/bins.md": _BINS}, [
        Variant("moved to wednesday", Change(append={"council/bins.md": (
            "\nNew rounds from 2 March: Kestrel Drive, Osprey Close and Finch Way will be collected on Wednesdays "
            "(general waste and recycling, still alternating).\n")}),
            ACT, "Kestrel Drive moves from Fridays to Wednesdays: tell the user"),
        Variant("other streets", Change(append={"council/bins.md": (
            "\nFrom 2 March, Lark Rise and Heron Way move to Thursday collections. No other streets are affected.\n")}),
            NOOP, "other streets changed day; Kestrel Drive is not affected"),
        Variant("permits on sale", Change(append={"council/bins.md": (
            "\nGarden waste permits for 2026 are on sale now, 48 GBP for the year.\n")}),
            NOOP, "a permit price is not a change of collection day"),
        nothing(),
    ], system_tasks=True)
SITUATIONS += family(
    "craft fair stall", "I'm Ruth Ames. When the organisers confirm my knitwear stall for the Midsummer craft fair, "
    "put the date and pitch in calendar/events.md",
    {**HOME, "calendar/events.md": "# Events\n- Sat 9 May: Longford spring market, pitch 3\n"}, [
        Variant("confirmation mail", Change(write={"inbox/2026-05-02-fair.txt": _mail(
            "Midsummer Craft Fair <stalls@midsummerfair.example>", "Your stall",
            "Dear Ruth, good news: your stall is confirmed for Sat 20 June, pitch 14 by the bandstand. Set up "
            "from 8 am.")}),
            ACT, "the stall is confirmed: add one line with 20 June and pitch 14"),
        Variant("pitch list", Change(write={"crafts/midsummer-pitches.csv": (
            "pitch,stallholder,goods\n12,Ian Frew,woodturning\n13,Mei Chan,prints\n14,Ruth Ames,knitwear\n"
            "15,Joe Byrne,honey\n")}),
            ACT, "the organisers' pitch list gives Ruth pitch 14: note it in the calendar"),
        Variant("waiting list", Change(write={"inbox/2026-05-02-fair.txt": _mail(
            "Midsummer Craft Fair <stalls@midsummerfair.example>", "Your application",
            "Thank you for applying. All stalls are taken, but you are third on the waiting list.")}),
            NOOP, "Ruth is on the waiting list; no stall is confirmed"),
    ])
_LESSONS = ("# Piano lessons (weekly)\n\n| day | 16:00 | 16:45 | 17:30 |\n|---|---|---|---|\n"
            "| Mon | Arlo | free | free |\n| Tue | Esme | Noah | free |\n| Thu | Freya | Jonah | free |\n")
SITUATIONS += family(
    "lesson times", "I teach piano from home. If a pupil's parent asks to change their lesson time, work out a new "
    "weekly timetable from teaching/timetable.md that still fits everyone, and draft my reply",
    {**HOME, "teaching/timetable.md": _LESSONS}, [
        Variant("netball on tuesdays", Change(write={"inbox/2026-08-28-esme.txt": _mail(
            "Rob Kerr <rob.kerr@example.net>", "Esme next term",
            "Esme has netball on Tuesdays from September. Could she come on Thursdays instead, ideally straight "
            "after school?")}),
            ESCALATE, "Esme's dad wants Thursday at 16:00, which Freya has: rearranging needs reasoning"),
        Variant("mondays after five", Change(memories=(
            "Noah's mum said at the door that from September he can only come on Mondays, and not before five.",)),
            ESCALATE, "Noah must move to a Monday slot after 17:00: rework the timetable and reply"),
        Variant("same time", Change(write={"inbox/2026-08-28-freya.txt": _mail(
            "Anna Price <anna.price@example.org>", "September",
            "Freya will carry on at the same time in September, thanks! She's loving the new pieces.")}),
            NOOP, "Freya's parent keeps the same time"),
        Variant("exam fee", Change(write={"inbox/2026-08-28-jonah.txt": _mail(
            "Mark Doyle <mdoyle@example.com>", "Grade 3",
            "How much is the Grade 3 exam entry, and when would Jonah sit it?")}),
            NOOP, "the parent asks about an exam, not a lesson time"),
    ])
SITUATIONS += family(
    "nut allergy orders", "If a new order in bakery/orders.csv mentions a nut allergy, tell me so I bake it first on "
    "clean kit",
    {**HOME, "bakery/orders.csv": ("date,customer,item,notes\n"
                                   "2026-05-14,Sandra K,lemon drizzle,'Happy 40th Jo' on top\n")}, [
        Variant("peanut allergy", Change(append={"bakery/orders.csv": (
            '2026-05-16,Tomasz W,chocolate birthday cake,"for a boy with a peanut allergy, no nuts anywhere"\n')}),
            ACT, "the order is for a child with a peanut allergy: tell the user"),
        Variant("epipen", Change(append={"bakery/orders.csv": (
            '2026-05-16,Mrs Oduya,12 vanilla cupcakes,"my son carries an EpiPen for tree nuts"\n')}),
            ACT, "an EpiPen for tree nuts means a nut allergy: tell the user"),
        Variant("wants walnuts", Change(append={"bakery/orders.csv": (
            '2026-05-16,Derek H,coffee and walnut cake,"extra walnuts on top please"\n')}),
            NOOP, "the customer wants extra nuts; there is no allergy"),
        Variant("coeliac", Change(append={"bakery/orders.csv": (
            '2026-05-16,Beth L,bread rolls x 12,"coeliac, must be gluten free"\n')}),
            NOOP, "a gluten allergy is not a nut allergy"),
    ])
