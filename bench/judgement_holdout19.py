"""The held-out labelled set no. 19 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families appear neither
there nor in the earlier held-out sets. Each family is one top-level statement, so the set grows by appending.
Most variants are near misses: the watched thing changes but the condition is not met (another person, another
row of the same table, the exact boundary of a threshold, a plan or a hope instead of a fact, a question, a past
event retold, the same word in another sense). Several families can only be decided with the rows already in the
file (a jump since the previous entry, misses in a row, a monthly or rolling total), and several hold only near
misses. The text is the project's own.
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


_BOILER = "date,bar,note\n2026-01-04,1.5,\n2026-01-08,1.3,\n2026-01-12,1.2,bled the radiators\n"
SITUATIONS += family(
    "boiler under 1 bar", "ping me if the boiler pressure goes under 1 bar. I jot it down every few days in "
    "home/boiler.csv",
    {**HOME, "home/boiler.csv": _BOILER}, [
        Variant("0.8 bar", Change(append={"home/boiler.csv": "2026-01-16,0.8,\n"}),
                ACT, "0.8 bar is under 1 bar: tell the user"),
        Variant("exactly 1", Change(append={"home/boiler.csv": "2026-01-16,1.0,faint hiss near the valve?\n"}),
                NOOP, "1.0 bar is not under 1 bar"),
        Variant("topped up", Change(append={"home/boiler.csv": "2026-01-16,1.6,topped up with the filling loop\n"}),
                NOOP, "the pressure went up to 1.6 bar after a top-up"),
    ])

_BP = ("date,time,systolic,diastolic,pulse\n2026-03-02,07:30,128,82,64\n2026-03-03,07:35,134,85,66\n"
       "2026-03-04,07:20,122,79,63\n")
SITUATIONS += family(
    "systolic jump", "flag it if the top number of my blood pressure goes up by more than 15 from one reading to "
    "the next (health/bp.csv)",
    {**HOME, "health/bp.csv": _BP}, [
        Variant("up 17", Change(append={"health/bp.csv": "2026-03-05,07:25,139,88,70\n"}),
                ACT, "139 is 17 above the previous reading of 122, more than 15: flag it"),
        Variant("up 15", Change(append={"health/bp.csv": "2026-03-05,07:25,137,86,68\n"}),
                NOOP, "137 is exactly 15 above 122, not more than 15"),
        Variant("bottom number jumps", Change(append={"health/bp.csv": "2026-03-05,07:25,126,101,72\n"}),
                NOOP, "the top number rose by only 4; it is the bottom number that jumped"),
    ])

_PILATES = ("# Pilates (Tue and Fri 6.30pm, Corewell Studio)\n\n- Tue 3 Mar: went\n- Fri 6 Mar: missed, late at "
            "work\n- Tue 10 Mar: missed, streaming cold\n")
SITUATIONS += family(
    "pilates misses", "if I miss three pilates classes in a row, remind me to freeze the membership before the next "
    "payment goes out",
    {**HOME, "fitness/pilates.md": _PILATES}, [
        Variant("third miss", Change(append={"fitness/pilates.md": "- Fri 13 Mar: missed, still full of cold\n"}),
                ACT, "a third class in a row was missed: remind the user to freeze the membership"),
        Variant("studio cancelled", Change(append={"fitness/pilates.md": (
            "- Fri 13 Mar: no class, instructor off sick, studio cancelled it\n")}),
            NOOP, "the studio cancelled the class; the user did not miss a third one"),
        Variant("only two in a row", Change(append={"fitness/pilates.md": "- Fri 13 Mar: missed, parents' evening\n"}),
                NOOP, "the user went on 6 March, so this is only the second miss in a row",
                before={**HOME, "fitness/pilates.md": (
                    "# Pilates (Tue and Fri 6.30pm, Corewell Studio)\n\n- Tue 3 Mar: missed, late at work\n"
                    "- Fri 6 Mar: went\n- Tue 10 Mar: missed, streaming cold\n")}),
    ])

_FOOD = ("date,shop,amount\n2026-03-28,Aldi,71.30\n2026-04-03,Aldi,86.40\n2026-04-08,Co-op,23.15\n"
         "2026-04-11,Aldi,94.80\n2026-04-17,Tesco online,112.55\n2026-04-22,market,45.20\n")
SITUATIONS += family(
    "grocery month", "warn me when this month's food shopping goes over £400 (money/groceries.csv)",
    {**HOME, "money/groceries.csv": _FOOD}, [
        Variant("403.30", Change(append={"money/groceries.csv": "2026-04-26,Aldi,41.20\n"}),
                ACT, "April's food shopping now adds up to £403.30, over £400: warn the user"),
        Variant("exactly 400", Change(append={"money/groceries.csv": "2026-04-26,Aldi,37.90\n"}),
                NOOP, "April now adds up to exactly £400.00 (the 28 March shop is last month), not over"),
        Variant("into may", Change(append={"money/groceries.csv": "2026-05-02,Tesco online,58.75\n"}),
                NOOP, "the new shop is in May, and May's total is only £58.75"),
    ], bystanders=("Tell me if the car insurance renewal quote comes in over £600",))

SITUATIONS += family(
    "koi pond ammonia", "if the pond's ammonia ever tests above 0.25, work out what's gone wrong from my "
    "notes in pond/ and give me a plan to sort it before the koi suffer",
    {**HOME, "pond/setup.md": (
        "# Pond\n3,000 litres, 6 koi (the biggest about 40 cm). Pressurised filter, sponges rinsed 2 May. UV bulb "
        "new in March. Feeding twice a day, floating pellets, more since it warmed up. Topped up from the hose "
        "after the dry spell.\n"),
     "pond/tests.md": ("| date | pH | ammonia | nitrite | nitrate |\n|---|---|---|---|---|\n"
                       "| 3 May | 7.6 | 0 | 0 | 10 |\n| 10 May | 7.8 | 0 | 0 | 10 |\n"
                       "| 17 May | 7.8 | 0 | 0 | 20 |\n")}, [
        Variant("0.5", Change(append={"pond/tests.md": "| 24 May | 8.0 | 0.5 | 0.1 | 20 |\n"}),
                ESCALATE, "ammonia reads 0.5, above 0.25: finding the cause and planning the fix needs reasoning"),
        Variant("0.25", Change(append={"pond/tests.md": "| 24 May | 7.9 | 0.25 | 0 | 20 |\n"}),
                NOOP, "ammonia at 0.25 is not above 0.25"),
        Variant("nitrite up", Change(append={"pond/tests.md": "| 24 May | 7.8 | 0 | 0.5 | 25 |\n"}),
                NOOP, "it is the nitrite that rose; ammonia still reads 0"),
    ])

_BOX = "Greenbasket box, week {w}\n1. {a}\n2. {b}\n3. {c}\n"
SITUATIONS += family(
    "sesame box", "I'm allergic to sesame, so tell me if anything in the new week's meal box (food/) has it in",
    {**HOME, "food/mealbox-w20.md": _BOX.format(w=20, a="Chicken katsu with sticky rice", b="Leek and potato soup",
                                                c="Beef chilli with soured cream")}, [
        Variant("tahini", Change(write={"food/mealbox-w21.md": _BOX.format(
            w=21, a="Roast aubergine with tahini yoghurt and pomegranate", b="Lemon and herb chicken traybake",
            c="Mushroom stroganoff")}),
            ACT, "tahini is sesame paste, so the aubergine dish has sesame: tell the user"),
        Variant("sesame-free glaze", Change(write={"food/mealbox-w21.md": _BOX.format(
            w=21, a="Teriyaki salmon (our glaze is sesame-free from this week)", b="Pea and mint risotto",
            c="Lamb kofta with flatbreads")}),
            NOOP, "the only mention of sesame says the glaze is free of it"),
        Variant("other seeds", Change(write={"food/mealbox-w21.md": _BOX.format(
            w=21, a="Squash salad with toasted pumpkin and sunflower seeds", b="Fish pie with peas",
            c="Halloumi and pepper wraps")}),
            NOOP, "pumpkin and sunflower seeds are not sesame"),
    ])

_ACCOUNT = ("date,description,amount\n2026-05-28,SALARY HALLAM COUNCIL,2410.55\n2026-06-01,DD HARROWBY MORTGAGES,"
            "-640.00\n2026-06-01,DD FLEXGYM LTD,-32.00\n2026-06-02,CARD TESCO STORES,-61.18\n")
SITUATIONS += family(
    "direct debit bounce", "let me know if any direct debit bounces (money/current-account.csv)",
    {**HOME, "money/current-account.csv": _ACCOUNT}, [
        Variant("returned unpaid", Change(append={"money/current-account.csv": (
            "2026-06-03,UNPAID DD ANGLIAN MUTUAL INS 48.20 RETURNED,0.00\n2026-06-03,UNPAID ITEM FEE,-5.00\n")}),
            ACT, "the Anglian Mutual direct debit was returned unpaid: tell the user"),
        Variant("low balance warning", Change(write={"inbox/2026-06-02-bank.txt": _mail(
            "Larchfield Bank <alerts@larchfield.example>", "Low balance",
            "Your balance is £38.12 and a direct debit of £48.20 to Anglian Mutual is due tomorrow. Pay in before "
            "11pm tonight to avoid a returned payment.")}),
            NOOP, "a warning before the payment is due; nothing has bounced"),
        Variant("gym cancelled", Change(memories=(
            "I've cancelled the FlexGym direct debit, the one on the 1st was the last.",)),
            NOOP, "the user cancelled a direct debit; none bounced"),
    ])

_ISA = ("date,paid_in\n2026-03-30,2000\n2026-04-07,5000\n2026-05-01,500\n2026-06-01,500\n2026-07-01,500\n"
        "2026-08-03,10000\n")
SITUATIONS += family(
    "isa 18k", "tell me when I've paid more than £18,000 into my ISA this tax year (money/isa.csv), the "
    "allowance is 20k",
    {**HOME, "money/isa.csv": _ISA}, [
        Variant("18,500", Change(append={"money/isa.csv": "2026-09-01,2000\n"}),
                ACT, "payments since 6 April now total £18,500, over £18,000: tell the user"),
        Variant("18,000", Change(append={"money/isa.csv": "2026-09-01,1500\n"}),
                NOOP, "since 6 April the total is exactly £18,000; the 30 March payment was last tax year"),
        Variant("bonus plan", Change(memories=("Going to put my bonus, about 3k, into the ISA in October.",)),
                NOOP, "a plan for October; nothing new was paid in"),
    ])

SITUATIONS += family(
    "chartism feedback", "When Dr Okoye sends feedback on my history essay, pull out the main things to fix and plan "
    "the redraft before it's due on the 14th",
    {**HOME, "uni/essays.md": (
        "HIS2203 (Dr Okoye): 'Why did the 1842 petition fail?' Draft in 20 Feb, final due 14 Mar.\n"
        "SOC2110 (Dr Laing): 'Class and the housing ladder'. Draft in 22 Feb, final due 21 Mar.\n")}, [
        Variant("comments in", Change(write={"inbox/2026-03-02-okoye.txt": _mail(
            "Dr Funmi Okoye <f.okoye@uni-harrowgate.example>", "Comments on your Chartism draft",
            "The argument about the Commons vote is strong, but the middle section narrates rather than analyses, "
            "most of it leans on one textbook, and the conclusion brings in new evidence. Look at the Northern Star "
            "coverage and cut the background to a page.")}),
            ESCALATE, "the history feedback arrived: drawing out the fixes and planning a redraft needs reasoning"),
        Variant("sociology comments", Change(write={"inbox/2026-03-02-laing.txt": _mail(
            "Dr Ian Laing <i.laing@uni-harrowgate.example>", "SOC2110 draft",
            "Good use of the census data. Tighten the definitions in section one and reference properly.")}),
            NOOP, "the feedback is for the sociology essay, not the history one"),
        Variant("marking late", Change(write={"inbox/2026-03-02-okoye.txt": _mail(
            "Dr Funmi Okoye <f.okoye@uni-harrowgate.example>", "HIS2203 drafts",
            "Apologies, marking has taken longer than planned. Everyone will have comments by Friday.")}),
            NOOP, "a promise of comments by Friday; no feedback yet"),
    ])

_HOLLOWMERE = "Hollowmere Primary School <office@hollowmere-pri.example>"
SITUATIONS += family(
    "hollowmere snow", "if the kids' school says it's shutting because of the snow, tell me straight away",
    {**HOME, "family/kids.md": "Ivy (Year 4) and Sam (Year 1), both at Hollowmere Primary. Bus at 8.05.\n"}, [
        Variant("closed today", Change(write={"inbox/2026-01-15-hollowmere.txt": _mail(
            _HOLLOWMERE, "School closed today",
            "After last night's snowfall the paths and car park are not safe and several staff cannot get in. The "
            "school will not open today, Thursday 15 January.")}),
            ACT, "the children's school is closed because of the snow: tell the user at once"),
        Variant("the academy", Change(write={"inbox/2026-01-15-academy.txt": _mail(
            "Hollowmere Academy <info@hollowmere-academy.example>", "Closure: Thursday",
            "Due to snow Hollowmere Academy is closed to all students today. Work is set on the portal.")}),
            NOOP, "it is the secondary academy that closed, not the children's primary school"),
        Variant("snow days retold", Change(write={"inbox/2026-01-15-hollowmere.txt": _mail(
            _HOLLOWMERE, "Newsletter",
            "Thank you for your patience during the two snow days in December. Spring term clubs start on Monday; "
            "sign-up sheets are in book bags.")}),
            NOOP, "the newsletter retells closures from December; nothing closes now"),
    ])

SITUATIONS += family(
    "starter rise", "tell me if a feed ever doesn't at least double my sourdough starter (baking/starter.csv)",
    {**HOME, "baking/starter.csv": ("date,start_cm,peak_cm,hours_to_peak\n2026-02-01,4.0,9.1,6\n2026-02-03,4.0,8.8,7\n"
                                    "2026-02-05,3.5,8.0,7\n")}, [
        Variant("7.6 from 4", Change(append={"baking/starter.csv": "2026-02-07,4.0,7.6,9\n"}),
                ACT, "from 4.0 cm to 7.6 cm is less than double: tell the user"),
        Variant("8 from 4", Change(append={"baking/starter.csv": "2026-02-07,4.0,8.0,8\n"}),
                NOOP, "from 4.0 cm to 8.0 cm is exactly double, which is at least double"),
        unrelated("baking/recipes.md", "Focaccia: 500 g strong flour, 400 ml water, 10 g salt, 100 g starter, "
                                       "olive oil. Overnight in the fridge.\n"),
    ])

_CHESS = "date,rapid,blitz\n2026-01-05,1534,1611\n2026-01-19,1521,1588\n2026-02-02,1509,1572\n"
SITUATIONS += family(
    "rapid rating", "tell me if my rapid rating drops below 1500 (chess/ratings.csv)",
    {**HOME, "chess/ratings.csv": _CHESS}, [
        Variant("exactly 1500", Change(append={"chess/ratings.csv": "2026-02-16,1500,1560\n"}),
                NOOP, "1500 is not below 1500"),
        Variant("blitz under", Change(append={"chess/ratings.csv": "2026-02-16,1512,1479\n"}),
                NOOP, "it is the blitz rating that fell below 1500; rapid is 1512"),
    ])

_INSPECTIONS = ("# Inspections\n\n12 May, Hive A (Clover): queen seen, eggs and young larvae, 7 frames of brood, "
                "calm.\n12 May, Hive B (Heather): eggs seen, 8 frames of brood, busy, lots of drones.\n")
SITUATIONS += family(
    "heather queen cells", "If an inspection turns up queen cells in either hive, work out whether they're "
    "getting ready to swarm or replacing the queen, and plan what I should do at the weekend",
    {**HOME, "bees/inspections.md": _INSPECTIONS,
     "bees/kit.md": "Spare: one brood box, floor, crownboard, roof, 11 frames with foundation, one nuc box.\n"}, [
        Variant("charged cells", Change(append={"bees/inspections.md": (
            "\n19 May, Hive B (Heather): five queen cells along the bottom bars of frames 4 and 6, two sealed, "
            "larvae in royal jelly in the rest. Box packed, no eggs seen.\n")}),
            ESCALATE, "queen cells found in Hive B: judging swarm or supersedure and planning the weekend needs "
                      "reasoning"),
        Variant("play cups", Change(append={"bees/inspections.md": (
            "\n19 May, Hive A (Clover): a few empty play cups on frame 3, nothing in them. Queen seen, eggs.\n")}),
            NOOP, "empty play cups are not queen cells"),
        Variant("none seen", Change(append={"bees/inspections.md": (
            "\n19 May, Hive B (Heather): no queen cells, eggs seen, added a second super.\n")}),
            NOOP, "the inspection found no queen cells"),
    ])

_PARKRUN = ("date,event,runner,time\n2026-05-02,Riverside,me,26:10\n2026-05-02,Riverside,Jo,24:05\n"
            "2026-05-09,Riverside,me,25:42\n2026-05-16,Riverside,me,25:55\n2026-05-16,Riverside,Jo,24:20\n")
SITUATIONS += family(
    "riverside parkrun pb", "tell me if I get a parkrun PB. all my times are in running/parkrun.csv",
    {**HOME, "running/parkrun.csv": _PARKRUN}, [
        Variant("25:38", Change(append={"running/parkrun.csv": "2026-05-23,Riverside,me,25:38\n"}),
                ACT, "25:38 beats the user's best of 25:42: tell them"),
        Variant("equals 25:42", Change(append={"running/parkrun.csv": "2026-05-23,Riverside,me,25:42\n"}),
                NOOP, "25:42 equals the best time; it does not beat it"),
        Variant("jo's pb", Change(append={"running/parkrun.csv": (
            "2026-05-23,Riverside,Jo,23:51\n2026-05-23,Riverside,me,26:02\n")}),
            NOOP, "Jo ran a PB; the user's 26:02 is slower than their best"),
    ])

_STOCK = ("item,type,in_stock\nFig & Cedar,candle,14\nSea Salt,candle,9\nLavender,candle,{lav}\n"
          "Soy wax flakes 2 kg,supply,{wax}\nGift box,packaging,40\n")
SITUATIONS += family(
    "candle stock", "remind me to pour another batch when any candle scent is down to 5 or fewer (shop/stock.csv)",
    {**HOME, "shop/stock.csv": _STOCK.format(lav=7, wax=3)}, [
        Variant("lavender at 5", Change(write={"shop/stock.csv": _STOCK.format(lav=5, wax=3)}),
                ACT, "Lavender is down to 5, which is 5 or fewer: remind the user"),
        Variant("wax low", Change(write={"shop/stock.csv": _STOCK.format(lav=6, wax=1)}),
                NOOP, "the wax flakes are a supply, not a candle; Lavender is at 6"),
    ])

_MILBROOK = "Milbrook Dairy <orders@milbrookdairy.example>"
SITUATIONS += family(
    "milk prices", "If Milbrook Dairy put their prices up, work out what it does to the cost of a flat white and a "
    "latte (cafe/costings.md) and suggest what we should charge",
    {**HOME, "cafe/costings.md": (
        "# Drink costings\nFlat white: 18 g espresso (£0.38), 150 ml whole milk. Sells at £3.20.\n"
        "Latte: 18 g espresso (£0.38), 250 ml whole or oat milk. Sells at £3.40.\n"
        "Milk: Milbrook whole 2 l £1.92, Milbrook oat 1 l £2.10. Cup and lid £0.14.\n")}, [
        Variant("price rise", Change(write={"inbox/2026-05-11-milbrook.txt": _mail(
            _MILBROOK, "Price changes from 1 June",
            "From 1 June: whole milk 2 l goes from £1.92 to £2.14, oat 1 l from £2.10 to £2.25. Cream and butter "
            "are unchanged.")}),
            ESCALATE, "Milbrook raised milk prices: recosting the drinks and suggesting prices needs reasoning"),
        Variant("beans up", Change(write={"inbox/2026-05-11-harrow.txt": _mail(
            "Harrow Roasters <hello@harrowroasters.example>", "Price increase",
            "Our house espresso goes from £21.00 to £23.50 a kilo from June.")}),
            NOOP, "the coffee roaster raised prices, not Milbrook Dairy"),
        Variant("prices held", Change(write={"inbox/2026-05-11-milbrook.txt": _mail(
            _MILBROOK, "Bank holiday deliveries",
            "No delivery on Monday 25 May, we'll come Tuesday instead. Our prices stay as they are until at least "
            "September.")}),
            NOOP, "Milbrook is holding its prices"),
    ])

_TURNOVER = ("month,sales\n2025-06,9800\n2025-07,6200\n2025-08,5400\n2025-09,7100\n2025-10,7600\n2025-11,8900\n"
             "2025-12,10300\n2026-01,5200\n2026-02,6100\n2026-03,7400\n2026-04,7900\n2026-05,8000\n")
SITUATIONS += family(
    "rolling vat line", "warn me if my sales over the last 12 months go past £90,000, that's the VAT line "
    "(business/turnover.csv, one row a month)",
    {**HOME, "business/turnover.csv": _TURNOVER}, [
        Variant("90,500", Change(append={"business/turnover.csv": "2026-06,10400\n"}),
                ACT, "July 2025 to June 2026 now adds up to £90,500, past £90,000: warn the user"),
        Variant("big month, window moves", Change(append={"business/turnover.csv": "2026-06,9700\n"}),
                NOOP, "June 2025's £9,800 leaves the window, so the last 12 months total £89,800"),
        Variant("exactly 90,000", Change(append={"business/turnover.csv": "2026-06,9900\n"}),
                NOOP, "the last 12 months total exactly £90,000, not past it"),
    ])

SITUATIONS += family(
    "edinburgh strike", "we're getting the train to Edinburgh on 20 Oct and back on the 23rd. if a strike hits "
    "either day, work out another way to do the trip and roughly what it'd cost",
    {**HOME, "travel/edinburgh.md": (
        "Out Tue 20 Oct, 08:04 from King's Cross. Back Fri 23 Oct, 16:30. Advance tickets, £96 return each, two of "
        "us. Hotel booked Tue to Fri.\n")}, [
        Variant("strike on the 23rd", Change(write={"travel/rail-news.md": (
            "Train drivers on the East Coast main line will strike on Friday 23 October. No LNER services will run "
            "that day; advance tickets can be used the day before or the day after.\n")}),
            ESCALATE, "a strike falls on the day home: working out another way and its cost needs reasoning"),
        Variant("strike on the 27th", Change(write={"travel/rail-news.md": (
            "Train drivers on the East Coast main line will strike on Tuesday 27 October.\n")}),
            NOOP, "the strike is on 27 October, after the trip"),
        Variant("ballot", Change(write={"travel/rail-news.md": (
            "The drivers' union will ballot members over pay; the result is expected in late November.\n")}),
            NOOP, "only a ballot, with a result after the trip; no strike is called"),
    ])

SITUATIONS += family(
    "vietnam e-visa", "tell me when my Vietnam e-visa gets approved",
    {**HOME, "travel/vietnam.md": "E-visas applied 11 April. Mine: E260411XKQ9. Dan's: E260411PWM2. Fly 2 May.\n"}, [
        Variant("dan's approved", Change(write={"inbox/2026-04-15-evisa.txt": _mail(
            "Immigration E-Visa Portal <noreply@evisa.example>", "Application E260411PWM2",
            "Status: Approved. You can now download your e-visa.")}),
            NOOP, "the approved application is Dan's, not the user's"),
        Variant("in processing", Change(write={"inbox/2026-04-15-evisa.txt": _mail(
            "Immigration E-Visa Portal <noreply@evisa.example>", "Application E260411XKQ9",
            "Status: In processing. Normal processing time is three working days.")}),
            NOOP, "the user's application is still being processed"),
    ])

_PASSPORTS = "Thailand: fly 3 Feb 2027.\n- Me (Claire): expires 14 Mar 2031\n- Hannah: expires 2 Nov 2028\n"
SITUATIONS += family(
    "passport six months", "we fly to Thailand on 3 February 2027. tell me if any of our passports "
    "(travel/passports.md) runs out less than six months after that",
    {**HOME, "travel/passports.md": _PASSPORTS}, [
        Variant("july expiry", Change(append={"travel/passports.md": "- Freddie: expires 19 Jul 2027\n"}),
                ACT, "19 July 2027 is less than six months after 3 February 2027: tell the user"),
        Variant("september expiry", Change(append={"travel/passports.md": "- Freddie: expires 22 Sep 2027\n"}),
                NOOP, "22 September 2027 is more than six months after the flight"),
        nothing(),
    ])

SITUATIONS += family(
    "food bank fish", "when the food bank's needs list asks for tinned fish, put it on my shopping list "
    "(notes/shopping.md)",
    {**HOME, "community/foodbank-needs.md": "Hilltop Food Bank, short this week: UHT milk, tinned potatoes, rice "
                                            "pudding.\n",
     "notes/shopping.md": "# Shopping\n- bread\n- bin bags\n"}, [
        Variant("tuna and sardines", Change(write={"community/foodbank-needs.md": (
            "Hilltop Food Bank, short this week: tinned tuna, sardines, UHT milk, toilet roll.\n")}),
            ACT, "tuna and sardines are tinned fish: add it to the shopping list"),
        Variant("fully stocked", Change(write={"community/foodbank-needs.md": (
            "Hilltop Food Bank: thanks to you we're fully stocked with tinned fish and beans! Still short of: "
            "toiletries, nappies (size 5), coffee.\n")}),
            NOOP, "the list says tinned fish is fully stocked, not needed"),
        Variant("tomatoes", Change(write={"community/foodbank-needs.md": (
            "Hilltop Food Bank, short this week: tinned tomatoes, tinned fruit, custard.\n")}),
            NOOP, "tinned tomatoes and fruit, no fish"),
    ])

SITUATIONS += family(
    "crossing petition", "once the Mill Lane crossing petition reaches 500 signatures, draft the covering letter to "
    "the council's highways team (community/crossing.md has the points)",
    {**HOME, "community/crossing.md": (
        "Petition: a zebra crossing on Mill Lane by St Anne's school gate.\nPoints: near misses logged by the "
        "lollipop lady since September; traffic does 40 in a 30; no crossing between the bus stop and the gate.\n"
        "Signatures: 431 on 3 June.\n")}, [
        Variant("512", Change(append={"community/crossing.md": "Signatures: 512 on 10 June (church sheets added).\n"}),
                ESCALATE, "the petition passed 500: drafting the covering letter needs writing"),
        Variant("488", Change(append={"community/crossing.md": "Signatures: 488 on 10 June.\n"}),
                NOOP, "488 signatures, not yet 500"),
        Variant("hope", Change(memories=(
            "Lorna reckons the crossing petition will hit 500 by Friday once the school gate sheets are in.",)),
            NOOP, "a guess about Friday; the petition has not reached 500"),
    ])

SITUATIONS += family(
    "plasterer date", "if the plasterer's date moves, rework the order of trades in home/renovation-plan.md so "
    "nobody's left waiting",
    {**HOME, "home/renovation-plan.md": (
        "# Back bedroom\n- 5 Mar: electrics first fix (Dean)\n- 9 Mar: boarding (Kev)\n- 12 Mar: plastering (Kev)\n"
        "- 19 Mar: electrics second fix (Dean)\n- 23 Mar: decorating (us)\n- 27 Mar: carpet fitting\n")}, [
        Variant("kev moved", Change(write={"messages/kev.txt": (
            "Kev (plasterer): Sorry mate, the job before yours has overrun, can't do the skim on the 12th. Earliest "
            "I can do is Wed 18th, two days.\n")}),
            ESCALATE, "the plastering moved to the 18th: reworking the order of trades needs planning"),
        Variant("dean moved", Change(write={"messages/dean.txt": (
            "Dean (electrician): can we do the second fix on the 20th not the 19th? Same time.\n")}),
            NOOP, "the electrician's date moved, not the plasterer's"),
        Variant("kev confirms", Change(write={"messages/kev.txt": (
            "Kev (plasterer): All good for the 12th, with you at 8, I'll mix on site.\n")}),
            NOOP, "the plasterer confirmed the same date"),
    ])

_WEIGHTS = ("| date | Pepper (kg) | Moss (kg) |\n|---|---|---|\n| 4 Jan | 18.6 | 24.1 |\n| 1 Feb | 18.9 | 24.0 |\n"
            "| 1 Mar | 19.2 | 24.3 |\n")
SITUATIONS += family(
    "pepper weight", "if Pepper's put on a kilo or more since her last weigh-in, remind me to cut her kibble back "
    "(pets/weights.md)",
    {**HOME, "pets/weights.md": _WEIGHTS}, [
        Variant("up a kilo", Change(append={"pets/weights.md": "| 1 Apr | 20.2 | 24.4 |\n"}),
                ACT, "Pepper is 1.0 kg heavier than on 1 March, a kilo or more: remind the user"),
        Variant("up 0.9", Change(append={"pets/weights.md": "| 1 Apr | 20.1 | 24.2 |\n"}),
                NOOP, "Pepper gained 0.9 kg since 1 March; the 1.5 kg is since January, not the last weigh-in"),
        Variant("moss gains", Change(append={"pets/weights.md": "| 1 Apr | 19.4 | 25.5 |\n"}),
                NOOP, "Moss put on 1.2 kg; Pepper only 0.2 kg"),
    ])

_FRIDGE = "2026-12-01 06:00 fridge 4.8C garage 7.2C\n2026-12-01 18:00 fridge 5.1C garage 6.0C\n"
SITUATIONS += family(
    "tortoise fridge", "Shelly's hibernating in the spare fridge in the garage. ping me if the fridge goes above 6 °C "
    "or below 3 °C (ops/logs/tortoise-fridge.log)",
    {**HOME, "ops/logs/tortoise-fridge.log": _FRIDGE}, [
        Variant("garage freezing", Change(append={"ops/logs/tortoise-fridge.log": (
            "2026-12-02 06:00 fridge 4.1C garage 1.9C\n")}),
            NOOP, "the garage went below 3 °C; the fridge is at 4.1 °C"),
        Variant("3.0", Change(append={"ops/logs/tortoise-fridge.log": "2026-12-02 06:00 fridge 3.0C garage 2.6C\n"}),
                NOOP, "3.0 °C is not below 3 °C"),
    ])

_CERTS = ("2026-07-01 03:00 shop.tallowmere.example expires 2026-08-14 (44 days)\n"
          "2026-07-01 03:00 api.tallowmere.example expires 2026-07-29 (28 days)\n")
SITUATIONS += family(
    "tallowmere certs", "remind me when any certificate in ops/logs/certcheck.log has fewer than 14 days left",
    {**HOME, "ops/logs/certcheck.log": _CERTS}, [
        Variant("expiry date only", Change(append={"ops/logs/certcheck.log": (
            "2026-07-15 03:00 shop.tallowmere.example expires 2026-08-14\n"
            "2026-07-15 03:00 pay.tallowmere.example expires 2026-07-25\n")}),
            ACT, "checked on 15 July, the pay certificate expires on 25 July, 10 days away: remind the user"),
        Variant("14 days", Change(append={"ops/logs/certcheck.log": (
            "2026-07-15 03:00 api.tallowmere.example expires 2026-07-29 (14 days)\n")}),
            NOOP, "14 days left is not fewer than 14"),
        Variant("renewed", Change(append={"ops/logs/certcheck.log": (
            "2026-07-15 03:00 api.tallowmere.example renewed, expires 2026-10-13 (90 days)\n")}),
            NOOP, "the certificate was renewed and has 90 days left"),
    ])

_DISK = "2026-09-14 06:00 db01 /var 84% /home 61%\n2026-09-14 06:00 web01 /var 71% /home 40%\n"
SITUATIONS += family(
    "db01 var", "tell me if /var on db01 goes over 90% (ops/logs/disk.log)",
    {**HOME, "ops/logs/disk.log": _DISK}, [
        Variant("92%", Change(append={"ops/logs/disk.log": (
            "2026-09-15 06:00 db01 /var 92% /home 61%\n2026-09-15 06:00 web01 /var 72% /home 40%\n")}),
            ACT, "/var on db01 is at 92 %, over 90 %: tell the user"),
        Variant("web01 full", Change(append={"ops/logs/disk.log": (
            "2026-09-15 06:00 db01 /var 86% /home 61%\n2026-09-15 06:00 web01 /var 96% /home 40%\n")}),
            NOOP, "it is web01's /var at 96 %; db01's /var is at 86 %"),
        Variant("db01 home", Change(append={"ops/logs/disk.log": (
            "2026-09-15 06:00 db01 /var 87% /home 94%\n2026-09-15 06:00 web01 /var 71% /home 40%\n")}),
            NOOP, "db01's /home is at 94 %; its /var is at 87 %"),
    ], system_tasks=True)

_DEPLOY = ("2026-04-20 10:12 deploy v2.30.3 started\n2026-04-20 10:19 deploy v2.30.3 finished, health checks "
           "passed\n2026-04-21 09:40 deploy v2.30.4 started\n2026-04-21 09:47 deploy v2.30.4 finished, health "
           "checks passed\n")
SITUATIONS += family(
    "v2.31 rollback", "if a deploy gets rolled back, go through ops/logs/deploy.log and ops/changes.md and work out "
    "which change most likely caused it",
    {**HOME, "ops/logs/deploy.log": _DEPLOY, "ops/changes.md": (
        "# v2.31.0\n- new address lookup on checkout\n- upgrade the payments client library\n- tidy the order "
        "confirmation email\n- move session storage to the new cache\n")}, [
        Variant("rolled back", Change(append={"ops/logs/deploy.log": (
            "2026-04-22 14:02 deploy v2.31.0 started\n2026-04-22 14:09 health check: 5xx rate 11.8% on /checkout "
            "(threshold 2%)\n2026-04-22 14:10 automatic rollback to v2.30.4 complete\n")}),
            ESCALATE, "v2.31.0 was rolled back: tracing which change caused it needs investigation"),
        Variant("staging drill", Change(append={"ops/logs/deploy.log": (
            "2026-04-22 11:00 staging: scheduled rollback drill completed, no production impact\n")}),
            NOOP, "a planned drill on staging; no deploy was rolled back"),
        Variant("clean deploy", Change(append={"ops/logs/deploy.log": (
            "2026-04-22 14:02 deploy v2.31.0 started\n2026-04-22 14:09 deploy v2.31.0 finished, health checks "
            "passed\n")}),
            NOOP, "the deploy went through"),
    ])

_EXPORT = ("2026-06-08 01:00 nightly export finished in 11m 40s\n"
           "2026-06-09 01:00 nightly export finished in 12m 05s\n")
SITUATIONS += family(
    "export runtime", "flag it if the nightly export takes more than twice as long as the night before "
    "(ops/logs/export.log)",
    {**HOME, "ops/logs/export.log": _EXPORT}, [
        Variant("25m 10s", Change(append={"ops/logs/export.log": (
            "2026-06-10 01:00 nightly export finished in 25m 10s\n")}),
            ACT, "25m 10s is more than twice the 12m 05s of the night before: flag it"),
        Variant("24m 10s", Change(append={"ops/logs/export.log": (
            "2026-06-10 01:00 nightly export finished in 24m 10s\n")}),
            NOOP, "24m 10s is exactly twice 12m 05s, not more"),
        Variant("after a slow night", Change(append={"ops/logs/export.log": (
            "2026-06-10 01:00 nightly export finished in 30m 20s\n")}),
            NOOP, "the night before took 23m 30s, so 30m 20s is not twice as long",
            before={**HOME, "ops/logs/export.log": (
                "2026-06-08 01:00 nightly export finished in 11m 40s\n"
                "2026-06-09 01:00 nightly export finished in 23m 30s\n")}),
    ])

_PELHAM = "Pelham Motors <service@pelhammotors.example>"
SITUATIONS += family(
    "corsa mot", "when the Corsa's MOT result comes in, if it's a fail, go through what needs doing, price it from "
    "the garage's list (car/garage-prices.md) and tell me what to book",
    {**HOME, "car/corsa.md": "Vauxhall Corsa KX17 HBN. MOT at Pelham Motors, Thu 9 July, 9am.\n",
     "car/garage-prices.md": (
        "Pelham Motors: front pads £95 fitted, discs and pads £210, tyre (budget) £68, tyre (mid-range) £89, wiper "
        "blades £22 a pair, headlamp aim £15, drop links £70 a pair, exhaust back box £160.\n")}, [
        Variant("fail", Change(write={"inbox/2026-07-09-pelham.txt": _mail(
            _PELHAM, "MOT result KX17 HBN",
            "Result: FAIL. Dangerous: nearside front tyre tread below the legal limit. Major: offside front drop "
            "link worn; headlamp aim too high. Advisory: front discs lightly corroded.")}),
            ESCALATE, "the MOT failed: working out and pricing the repairs takes several steps"),
        Variant("pass", Change(write={"inbox/2026-07-09-pelham.txt": _mail(
            _PELHAM, "MOT result KX17 HBN",
            "Result: PASS. Advisories: front pads wearing thin, offside wiper blade split.")}),
            NOOP, "the car passed; advisories are not a fail"),
    ])

_MUM = ("# Carers' notes (Mum)\n\nMon 2 Nov: breakfast porridge, all of it. Lunch soup and a roll, ate well. Tea "
        "sandwich.\nTue 3 Nov: breakfast toast, half. Lunch cottage pie, didn't touch it, said she wasn't hungry. "
        "Tea yoghurt.\n")
SITUATIONS += family(
    "mum's lunches", "if the carers write that Mum didn't eat her lunch two days running, tell me so I can ring the GP",
    {**HOME, "care/mum-log.md": _MUM}, [
        Variant("second day", Change(append={"care/mum-log.md": (
            "Wed 4 Nov: breakfast porridge, some. Lunch fish and mash, pushed it away, ate none. Tea biscuits.\n")}),
            ACT, "Mum left her lunch on Tuesday and again on Wednesday: tell the user"),
        Variant("breakfast refused", Change(append={"care/mum-log.md": (
            "Wed 4 Nov: breakfast refused. Lunch chicken casserole, ate the lot. Tea sandwich.\n")}),
            NOOP, "she refused breakfast but ate all her lunch"),
        Variant("first day only", Change(append={"care/mum-log.md": (
            "Wed 4 Nov: breakfast porridge, some. Lunch fish and mash, pushed it away, ate none. Tea biscuits.\n")}),
            NOOP, "she ate her lunch on Tuesday, so this is only one day",
            before={**HOME, "care/mum-log.md": _MUM.replace("didn't touch it, said she wasn't hungry", "ate most")}),
    ])

_HARPER = "Fiona Reece, Harper Gale Solicitors <f.reece@harpergale.example>"
SITUATIONS += family(
    "orchard exchange", "let me know when the solicitor says we've exchanged on Orchard Cottage",
    {**HOME, "home/move.md": "Buying Orchard Cottage, Lyddon. Solicitor: Fiona Reece at Harper Gale.\n"}, [
        Variant("exchanged", Change(write={"inbox/2026-08-14-harpergale.txt": _mail(
            _HARPER, "Orchard Cottage",
            "Good news: contracts were exchanged at 3.10pm today. Completion is fixed for Friday 28 August.")}),
            ACT, "contracts are exchanged: tell the user"),
        Variant("aiming for friday", Change(write={"inbox/2026-08-14-harpergale.txt": _mail(
            _HARPER, "Orchard Cottage",
            "We're aiming to exchange on Friday, as long as the seller's side send back the signed contract. Can "
            "you confirm you're happy for me to go ahead then?")}),
            NOOP, "exchange is only hoped for on Friday; it has not happened"),
    ], system_tasks=True)

SITUATIONS += family(
    "northfield hosepipe", "tell me if Wyvern Water bring in a hosepipe ban for our area",
    {**HOME, "home/water.md": "Wyvern Water account 40021877. Supply zone: Northfield.\n"}, [
        Variant("other zones", Change(write={"inbox/2026-07-08-wyvern.txt": _mail(
            "Wyvern Water <customers@wyvernwater.example>", "Temporary use ban",
            "From 14 July a temporary use ban (hosepipe ban) applies to customers in the Southmoor and Castlegate "
            "supply zones.")}),
            NOOP, "the ban covers Southmoor and Castlegate, not Northfield"),
        Variant("street chat question", Change(write={"community/street-chat.md": (
            "Bev (no. 9): does anyone know if Wyvern are bringing in a hosepipe ban here? my sister in Southmoor "
            "has one from Monday\n")}),
            NOOP, "a neighbour's question, not an announced ban for the area"),
    ])

_MINUTES = ("# Ashdown Hockey Club AGM, 12 June 2026: minutes\n\n{m4}\n\nMotion 5 (proposed by the treasurer): "
            "raise senior subs from £180 to £195. For 30, against 11. Carried.\n")
SITUATIONS += family(
    "agm motion", "tell me if my motion on cutting junior subs gets passed at the AGM. the minutes go in club/ when "
    "they're up",
    {**HOME, "club/info.md": "Ashdown Hockey Club. AGM 12 June. My motion (I'm Ravi Kaur): cut junior subs from £60 "
                             "to £40.\n"}, [
        Variant("carried", Change(write={"club/agm-2026-minutes.md": _MINUTES.format(
            m4="Motion 4 (proposed by R. Kaur): reduce junior subs from £60 to £40. For 31, against 9. Carried.")}),
            ACT, "the user's motion was carried: tell them"),
        Variant("deferred", Change(write={"club/agm-2026-minutes.md": _MINUTES.format(
            m4="Motion 4 (proposed by R. Kaur): reduce junior subs. Deferred to an EGM in October pending the "
               "treasurer's report.")}),
            NOOP, "the user's motion was deferred; the carried motion is the treasurer's on senior subs"),
        Variant("lost", Change(write={"club/agm-2026-minutes.md": _MINUTES.format(
            m4="Motion 4 (proposed by R. Kaur): reduce junior subs from £60 to £40. For 14, against 22. Lost.")}),
            NOOP, "the user's motion was lost"),
    ])

SITUATIONS += family(
    "hardware list", "whenever I say I need something from the hardware shop, stick it on diy/hardware-list.md",
    {**HOME, "diy/hardware-list.md": "# Hardware shop\n- sandpaper, 120 grit\n"}, [
        Variant("wall plugs", Change(memories=(
            "Need brown wall plugs and a 6 mm masonry bit before I can put the shelf up.",)),
            ACT, "the user needs two things from the hardware shop: add them to the list"),
        Variant("got the hinges", Change(memories=("Picked up the hinges from Parkers, wardrobe door sorted.",)),
                NOOP, "the user already bought what they needed"),
        Variant("borrowing a level", Change(memories=("Tom's lending me his spirit level on Saturday.",)),
                NOOP, "a borrowed tool, nothing to buy"),
    ])

SITUATIONS += family(
    "dizzy spells", "if I mention feeling dizzy again, remind me to bring it up with Dr Hale on the 9th",
    {**HOME, "health/appointments.md": "Dr Hale, 9 June, 10.20: review of the blood pressure tablets (started "
                                       "12 May).\n"}, [
        Variant("light-headed", Change(memories=(
            "Went all light-headed getting out of the bath, had to sit on the floor for a minute.",)),
            ACT, "feeling light-headed is feeling dizzy: remind the user to mention it to Dr Hale"),
        Variant("march retold", Change(memories=(
            "Told Hannah about those dizzy spells I had back in March, before the tablets.",)),
            NOOP, "the user retold old spells from March; no new one"),
        Variant("leo spinning", Change(memories=(
            "Leo spun round on the office chair till he was dizzy, he thought it was hilarious.",)),
            NOOP, "it was Leo who was dizzy, from spinning, not the user"),
    ])

_LADDER = "Pinecroft LTC Ladder <ladder@pinecroft-ltc.example>"
SITUATIONS += family(
    "ladder challenge", "If someone challenges me on the tennis ladder, find an evening next week when we're both "
    "free (calendar/next-week.md) and draft my reply",
    {**HOME, "tennis/ladder.md": "Singles ladder: 4 Dana Cole, 5 Priya Shah (me), 6 Owen Byrne, 7 Marcus Lee.\n",
     "calendar/next-week.md": "Mon: book club 7pm. Tue: free. Wed: late shift till 9. Thu: free after 6.30. "
                              "Fri: Mum's.\n"}, [
        Variant("marcus challenges", Change(write={"inbox/2026-05-03-ladder.txt": _mail(
            _LADDER, "New challenge",
            "Marcus Lee (7) has challenged Priya Shah (5). Marcus can play Monday, Wednesday or Thursday evenings. "
            "Matches must be played within 10 days.")}),
            ESCALATE, "the user was challenged: matching the evenings and drafting a reply needs reasoning"),
        Variant("other players", Change(write={"inbox/2026-05-03-ladder.txt": _mail(
            _LADDER, "New challenge", "Marcus Lee (7) has challenged Owen Byrne (6).")}),
            NOOP, "the challenge is between two other players"),
        Variant("user challenged", Change(write={"inbox/2026-05-03-ladder.txt": _mail(
            _LADDER, "New challenge", "Priya Shah (5) has challenged Dana Cole (4). Dana, please reply within "
                                      "three days.")}),
            NOOP, "the user made the challenge; nobody challenged her"),
    ])

SITUATIONS += family(
    "farrier tuesday", "let me know if the farrier can't make Tuesday for Juno's shoes",
    {**HOME, "yard/horses.md": "Juno: new shoes, farrier (Gareth) booked Tue 14 Apr, 9am. Dolly: trim due end of "
                               "April.\n"}, [
        Variant("running late", Change(write={"messages/gareth.txt": (
            "Gareth (farrier): Tuesday's fine, might be nearer 11 than 9 though.\n")}),
            NOOP, "the farrier is still coming on Tuesday, only later"),
        Variant("dolly waits", Change(write={"messages/gareth.txt": (
            "Gareth (farrier): I'll do Juno Tuesday as planned but Dolly's trim will have to wait till May.\n")}),
            NOOP, "it is Dolly's trim that cannot be done; Juno is still on for Tuesday"),
    ])

SITUATIONS += family(
    "base rate tracker", "if the Bank of England cuts the base rate, work out what our tracker payment becomes "
    "(money/mortgage.md)",
    {**HOME, "money/mortgage.md": "Tracker: Bank Rate + 0.79 %. Balance £168,400, 21 years left. Paying 4.54 % now "
                                  "(Bank Rate 3.75 %).\n"}, [
        Variant("held", Change(write={"news/rates.md": (
            "The Bank of England held Bank Rate at 3.75 % today. Five members voted to hold, four for a cut.\n")}),
            NOOP, "the rate was held; a close vote is not a cut"),
        Variant("ecb cut", Change(write={"news/rates.md": (
            "The European Central Bank cut its deposit rate by a quarter point to 1.75 % this afternoon.\n")}),
            NOOP, "the European Central Bank cut, not the Bank of England"),
    ])

_GAMES = "Games night, Fri, back room at the Fox (cancel by Thu noon).\nComing: {c}\nCan't: {n}\n"
SITUATIONS += family(
    "fox games night", "if fewer than 4 people say they're coming to friday's games night, remind me to "
    "cancel the back room at the Fox",
    {**HOME, "games/friday.md": _GAMES.format(c="Asha, Ben, Lou, Tom", n="Kit")}, [
        Variant("ben drops out", Change(write={"games/friday.md": _GAMES.format(c="Asha, Lou, Tom", n="Kit, Ben")}),
                ACT, "only three people are coming now: remind the user to cancel the room"),
        Variant("kit joins", Change(write={"games/friday.md": _GAMES.format(c="Asha, Ben, Lou, Tom, Kit", n="")}),
                NOOP, "five are coming"),
        Variant("tom late", Change(write={"games/friday.md": _GAMES.format(c="Asha, Ben, Lou, Tom (might be late)",
                                                                          n="Kit")}),
                NOOP, "Tom may be late but is still coming; four are coming"),
    ])

SITUATIONS += family(
    "madrid suitcase", "tell me when the airline finds my suitcase",
    {**HOME, "travel/bags.md": "Lost on the Madrid flight: mine, ref MAD-IB-40317 (black hard case); Tom's, ref "
                               "MAD-IB-40318 (green holdall).\n"}, [
        Variant("tom's found", Change(write={"inbox/2026-08-03-baggage.txt": _mail(
            "Baggage Services <baggage@iberline.example>", "Your bag MAD-IB-40318",
            "Your bag has been located at Madrid and will be couriered to your address tomorrow.")}),
            NOOP, "the bag found is Tom's, not the user's"),
        Variant("still tracing", Change(write={"inbox/2026-08-03-baggage.txt": _mail(
            "Baggage Services <baggage@iberline.example>", "Your bag MAD-IB-40317",
            "We are still tracing your bag. We will update you within 72 hours.")}),
            NOOP, "the user's bag is still being traced"),
    ])

_VOA = "Valuation Office Agency <ct.challenges@voa.example>"
SITUATIONS += family(
    "thornby band challenge", "If the valuation office turns down my council tax band challenge, go through "
    "their reasons against my evidence (home/council-tax.md) and draft whether it's worth going to the tribunal",
    {**HOME, "home/council-tax.md": (
        "Challenge sent 3 Feb: we're band D but 12, 14 and 18 Thornby Road (same layout) are band C. Evidence: "
        "their entries on the list, our 1990 sale particulars (£61,000).\n")}, [
        Variant("refused", Change(write={"inbox/2026-04-22-voa.txt": _mail(
            _VOA, "Your council tax band",
            "We have reviewed your band and it remains band D. Your property has a garage and a larger plot than "
            "the houses you mention, and the 1991 sale of 20 Thornby Road for £72,000 supports band D.")}),
            ESCALATE, "the challenge was turned down: weighing their reasons and drafting advice needs reasoning"),
        Variant("accepted", Change(write={"inbox/2026-04-22-voa.txt": _mail(
            _VOA, "Your council tax band",
            "We have moved your property from band D to band C. Your council will send a revised bill and any "
            "refund due.")}),
            NOOP, "the challenge succeeded; nothing was turned down"),
        Variant("received", Change(write={"inbox/2026-04-22-voa.txt": _mail(
            _VOA, "Your council tax band",
            "We have received your challenge. We aim to reply within four months.")}),
            NOOP, "only an acknowledgement; no decision yet"),
    ])
