"""The held-out labelled set no. 14 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families appear neither
there nor in the earlier held-out sets. Each family is one top-level statement, so the set grows by appending.
Several families hold only near-misses (nothing that changes meets the condition), so a change to the watched file
is not by itself a reason to act. The text is the project's own.
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


_SCHOOL = "Brookfield Primary Office <office@brookfield.example>"
SITUATIONS += family(
    "nits in 2p", "Let me know if the school says there are nits in Toby's class. He's in 2P (Mrs Patel)",
    {**HOME, "school/toby.md": "# Toby, Year 2 (2P, Mrs Patel)\nPE on Tuesdays and Thursdays. Reading books change "
                               "on Fridays.\n"}, [
        Variant("letter to 2p", Change(write={"inbox/2026-01-14-school.txt": _mail(
            _SCHOOL, "Head lice in 2P",
            "Dear parents and carers of 2P, we have been told of a case of head lice in the class. Please check your "
            "child's hair this week and treat it if needed. Thank you.")}),
            ACT, "the school reports head lice in 2P, Toby's class: tell the user"),
        Variant("other class", Change(write={"inbox/2026-01-14-school.txt": _mail(
            _SCHOOL, "Head lice in 5K",
            "Dear parents and carers of 5K, we have been told of a case of head lice in the class. Please check your "
            "child's hair this week and treat it if needed. Thank you.")}),
            NOOP, "the letter is about 5K, not Toby's class 2P"),
        Variant("niece", Change(memories=(
            "My sister says her Ava has nits again, the third time this term. Her school is hopeless about it.",)),
            NOOP, "the user's niece has nits; Toby's school has said nothing"),
    ])
_FX = "date,gbp_eur\n2026-02-02,1.1862\n2026-02-03,1.1905\n2026-02-04,1.1931\n"
SITUATIONS += family(
    "pound above 1.20", "Tell me when the pound is worth more than 1.20 euros, we're paying the builder in Spain "
    "(money/gbp-eur.csv)",
    {**HOME, "money/gbp-eur.csv": _FX}, [
        Variant("above", Change(append={"money/gbp-eur.csv": "2026-02-05,1.2047\n"}),
                ACT, "1.2047 is more than 1.20: tell the user"),
        Variant("exactly", Change(append={"money/gbp-eur.csv": "2026-02-05,1.2000\n"}),
                NOOP, "1.2000 is not more than 1.20"),
        Variant("close", Change(append={"money/gbp-eur.csv": "2026-02-05,1.1994\n"}),
                NOOP, "1.1994 is still below 1.20"),
        Variant("forecast", Change(memories=(
            "The bank's newsletter reckons the pound could be at 1.22 euros by the summer.",)),
            NOOP, "a forecast of where the rate might go is not the rate today"),
    ])
_POLLEN = ("# Pollen forecast, Leeds\n\n| day | grass | tree | weed |\n|---|---|---|---|\n"
           "| Mon 1 Jun | moderate | low | low |\n| Tue 2 Jun | moderate | low | low |\n")
SITUATIONS += family(
    "grass pollen", "warn me any day the grass pollen forecast says high or very high (health/pollen.md), it's grass "
    "that sets my hay fever off",
    {**HOME, "health/pollen.md": _POLLEN}, [
        Variant("tree very high", Change(append={"health/pollen.md": "| Wed 3 Jun | low | very high | moderate |\n"}),
                NOOP, "tree pollen is very high but grass pollen is low"),
        Variant("moderate again", Change(append={"health/pollen.md": "| Wed 3 Jun | moderate | low | low |\n"}),
                NOOP, "grass pollen stays moderate, below high"),
        Variant("hay fever note", Change(memories=(
            "Sneezing all morning, must remember to take the antihistamine before I cycle in.",)),
            NOOP, "the user mentions their hay fever; no forecast says grass pollen is high"),
    ])
_CACHES = ("# Recent logs on my caches and my watchlist\n\n"
           "- 2026-04-02 GC7Q2XT The Miller's Stone: Found it (hikerpete) 'Lovely spot, TFTC'\n"
           "- 2026-04-03 GC8B11K Kissing Gate: Found it (the_wrens)\n")
SITUATIONS += family(
    "geocache dnf", "I own the geocache GC7Q2XT (The Miller's Stone). Tell me if anyone logs a DNF on it",
    {**HOME, "geocaching/logs.md": _CACHES}, [
        Variant("dnf on mine", Change(append={"geocaching/logs.md": (
            "- 2026-04-05 GC7Q2XT The Miller's Stone: Didn't find it (moorwalker) 'Searched half an hour round the "
            "stone, no joy. Muggled?'\n")}),
            ACT, "someone logged a DNF on the user's cache: tell them"),
        Variant("dnf elsewhere", Change(append={"geocaching/logs.md": (
            "- 2026-04-05 GC8B11K Kissing Gate: Didn't find it (moorwalker) 'Gate replaced, cache gone?'\n")}),
            NOOP, "the DNF is on Kissing Gate, a watched cache, not on the user's own"),
        Variant("nearly a dnf", Change(append={"geocaching/logs.md": (
            "- 2026-04-05 GC7Q2XT The Miller's Stone: Found it (moorwalker) 'Took ages, I was about to log a DNF "
            "when I spotted it. TFTC'\n")}),
            NOOP, "the new log on the user's cache is a find, not a DNF"),
    ])
_LOCHNESS = "Loch Ness Marathon <entries@lochnessmarathon.example>"
SITUATIONS += family(
    "marathon ballot", "Let me know if I get a place in the Loch Ness Marathon ballot",
    {**HOME, "running/races-2026.md": "# Races 2026\n- Loch Ness Marathon, 4 Oct: in the ballot, results due in "
                                      "February\n- Harewood 10k, 19 Apr: entered\n"}, [
        Variant("got a place", Change(write={"inbox/2026-02-12-lochness.txt": _mail(
            _LOCHNESS, "Ballot result: you're in!",
            "Congratulations! Your ballot entry was successful and you have a place in the 2026 Loch Ness Marathon. "
            "Please pay your entry fee by 28 February to confirm it.")}),
            ACT, "the user got a place in the ballot: tell them"),
        Variant("friend's place", Change(memories=(
            "Kirsty got a place in the Loch Ness ballot, she's over the moon. Still nothing for me.",)),
            NOOP, "Kirsty got a place; the user has heard nothing"),
        Variant("results date", Change(write={"inbox/2026-02-05-lochness.txt": _mail(
            _LOCHNESS, "Ballot update",
            "Thank you for entering the ballot. Everyone will get their result by email on 12 February.")}),
            NOOP, "the organisers only say when the results will come"),
    ])
_DUTTON = "Jan Dutton <jan.dutton@example.net>"
SITUATIONS += family(
    "duttons' cats", "I'm feeding the Duttons' cats while they're in Crete. Tell me if they're coming back any later "
    "than Sunday the 14th",
    {**HOME, "neighbours/duttons.md": "# Duttons' cats (Pepper and Sage)\nFeed twice a day, key under the blue pot. "
                                      "They fly back Sunday 14 June, evening flight.\n"}, [
        Variant("flight cancelled", Change(write={"inbox/2026-06-12-dutton.txt": _mail(
            _DUTTON, "Change of plan",
            "Our Sunday flight has been cancelled and the first one we could get is Tuesday the 16th, landing late. "
            "So sorry! Could you keep going with Pepper and Sage until Wednesday morning?")}),
            ACT, "the Duttons now come back on Tuesday the 16th, later than Sunday: tell the user"),
        Variant("home early", Change(write={"inbox/2026-06-12-dutton.txt": _mail(
            _DUTTON, "Coming home a day early",
            "The villa's water has gone off so we're flying home on Saturday the 13th instead. You can stop after "
            "Saturday breakfast. Thank you so much!")}),
            NOOP, "they are coming back earlier, not later"),
        Variant("joke", Change(write={"inbox/2026-06-12-dutton.txt": _mail(
            _DUTTON, "Greetings from Chania",
            "We keep joking about never coming home, but we'll be on the Sunday flight as planned. Give the girls a "
            "stroke from us.")}),
            NOOP, "they only joke about staying; they are still back on Sunday"),
    ])
_BLOOD = "Blood Donation Service <donors@blood.example>"
SITUATIONS += family(
    "o negative appeal", "I'm O negative. Tell me if the blood service puts out an urgent call for my blood group",
    {**HOME, "health/blood.md": "# Giving blood\nGroup: O negative. Last gave 3 March. Can give again from 26 May.\n"},
    [
        Variant("ab plasma appeal", Change(write={"inbox/2026-04-08-blood.txt": _mail(
            _BLOOD, "Urgent: AB donors needed for plasma",
            "Stocks of AB plasma are down to three days. If your blood group is AB positive or AB negative, please "
            "book a plasma appointment in the next two weeks.")}),
            NOOP, "the appeal is for AB donors; the user is O negative"),
        Variant("stocks healthy", Change(write={"inbox/2026-04-08-blood.txt": _mail(
            _BLOOD, "Where your blood went",
            "Your donation on 3 March went to Leeds General Infirmary. Stocks of every blood group are healthy at "
            "the moment. Thank you!")}),
            NOOP, "a thank-you saying stocks are healthy is not an urgent call"),
        Variant("new centre", Change(write={"inbox/2026-04-08-blood.txt": _mail(
            _BLOOD, "A new donor centre in Headingley",
            "From May you can also give blood at our new centre on Otley Road, open late on Thursdays.")}),
            NOOP, "news of a new donor centre is not an appeal"),
    ])
_WORDS = ("2026-03-10 23:02 dissertation.md 10,911 words\n2026-03-11 22:47 dissertation.md 11,305 words\n"
          "2026-03-11 22:48 reading-notes.md 9,870 words\n")
SITUATIONS += family(
    "dissertation 12000", "Tell me when my dissertation passes 12,000 words (the counts go in uni/wordcount.log)",
    {**HOME, "uni/wordcount.log": _WORDS}, [
        Variant("passed", Change(append={"uni/wordcount.log": "2026-03-12 23:15 dissertation.md 12,088 words\n"}),
                ACT, "the dissertation is at 12,088 words, past 12,000: tell the user"),
        Variant("just under", Change(append={"uni/wordcount.log": "2026-03-12 23:15 dissertation.md 11,962 words\n"}),
                NOOP, "11,962 words is still under 12,000"),
        Variant("other file", Change(append={"uni/wordcount.log": "2026-03-12 23:16 reading-notes.md 12,640 words\n"}),
                NOOP, "the count over 12,000 is for the reading notes, not the dissertation"),
    ])
_EXAMS = ("# Summer exams\n\n| module | date | time | room |\n|---|---|---|---|\n"
          "| Organic Chemistry II | 19 May | 09:30 | TBC |\n| Spectroscopy | 22 May | 14:00 | TBC |\n")
SITUATIONS += family(
    "chem exam room", "Tell me which room my Organic Chemistry II exam is in once the exam timetable gives one "
    "(uni/exams.md)",
    {**HOME, "uni/exams.md": _EXAMS}, [
        Variant("room given", Change(write={"uni/exams.md": _EXAMS.replace(
            "| 09:30 | TBC |", "| 09:30 | Great Hall, rows A-F |")}),
            ACT, "the Organic Chemistry II exam now has a room, the Great Hall: tell the user"),
        Variant("other module", Change(write={"uni/exams.md": _EXAMS.replace(
            "| 14:00 | TBC |", "| 14:00 | Bragg Lecture Theatre |")}),
            NOOP, "only Spectroscopy got a room; Organic Chemistry II is still TBC"),
        Variant("when published", Change(append={"uni/exams.md": (
            "\nRooms are published on the exams page two weeks before the first exam.\n")}),
            NOOP, "a note on when rooms come out; no room is given yet"),
    ])
_LOST = ("# Lost property, w/c 9 March\n- red cardigan, no name\n- lunchbox (dinosaurs), M. HUGHES\n"
         "- navy hoodie, no label\n")
SITUATIONS += family(
    "jack's hoodie", "Let me know if Jack's navy PE hoodie turns up in lost property. It has J. OKAFOR on the label",
    {**HOME, "school/lost-property.md": _LOST}, [
        Variant("found", Change(append={"school/lost-property.md": "- navy PE hoodie, J. OKAFOR\n"}),
                ACT, "a navy PE hoodie labelled J. OKAFOR is in lost property: tell the user"),
        Variant("other name", Change(append={"school/lost-property.md": "- navy PE hoodie, J. OKONJO\n"}),
                NOOP, "the hoodie is labelled J. OKONJO, another child"),
        nothing("nothing changed; the unlabelled navy hoodie was on the list already"),
    ])
_UCAS = ("# Ella's applications\n\n| university | course | status |\n|---|---|---|\n"
         "| Leeds | Geography BA | submitted |\n| Sheffield | Geography BA | submitted |\n"
         "| Newcastle | Geography BSc | offer AAB |\n")
SITUATIONS += family(
    "ella hears from leeds", "Tell me when Ella hears back from Leeds about Geography",
    {**HOME, "family/ella-ucas.md": _UCAS}, [
        Variant("leeds offer", Change(write={"family/ella-ucas.md": _UCAS.replace(
            "| Leeds | Geography BA | submitted |", "| Leeds | Geography BA | offer ABB |")}),
            ACT, "Leeds made Ella an offer: tell the user"),
        Variant("leeds turns her down", Change(write={"family/ella-ucas.md": _UCAS.replace(
            "| Leeds | Geography BA | submitted |", "| Leeds | Geography BA | unsuccessful |")}),
            ACT, "Leeds gave its answer, unsuccessful: Ella has heard back, tell the user"),
        Variant("sheffield offer", Change(write={"family/ella-ucas.md": _UCAS.replace(
            "| Sheffield | Geography BA | submitted |", "| Sheffield | Geography BA | offer AAB |")}),
            NOOP, "Sheffield answered; Leeds is still at submitted"),
        Variant("waiting", Change(memories=(
            "Ella says Leeds usually decides by the end of March, so we just have to sit tight.",)),
            NOOP, "Ella is still waiting for Leeds"),
    ])
_COMP = ("# Camera club monthly competition\n\n## February: 'Water'\n1st: 'Ice on the Wharfe', Sue Marsh\n"
         "2nd: 'Spillway', Tom Reeve\n3rd: 'Puddle boots', Dan Ho\n\n## March: 'Strangers'\n"
         "Entries closed. Judge: Alan Pike.\n")
SITUATIONS += family(
    "camera club placing", "I'm Tom Reeve. Tell me if one of my photos gets placed in the camera club's monthly "
    "competition (club/competition.md)",
    {**HOME, "club/competition.md": _COMP}, [
        Variant("march placed", Change(append={"club/competition.md": (
            "1st: 'Platform 4', Amy Lund\n2nd: 'The Chess Players', Tom Reeve\n3rd: 'Queue', Sue Marsh\n")}),
            ACT, "Tom Reeve came 2nd in March: tell the user"),
        Variant("tom reece", Change(append={"club/competition.md": (
            "1st: 'Platform 4', Tom Reece\n2nd: 'The Chess Players', Amy Lund\n3rd: 'Queue', Sue Marsh\n")}),
            NOOP, "the winner is Tom Reece, another member; Tom Reeve was not placed"),
        Variant("entries only", Change(append={"club/competition.md": (
            "Entries: Amy Lund (2), Tom Reeve (2), Sue Marsh (1), Dan Ho (2). Results at the meeting on 2 April.\n")}),
            NOOP, "only the entries are listed; the March results are not out"),
    ])
_EXPENSES = ("# My expense claims\n\n| claim | trip | amount | status |\n|---|---|---|---|\n"
             "| EX-2231 | Glasgow client visit | 184.20 | submitted |\n"
             "| EX-2240 | Bristol conference | 412.65 | submitted |\n")
SITUATIONS += family(
    "bristol expenses", "Tell me when my expense claim for the Bristol trip is approved",
    {**HOME, "work/expenses.md": _EXPENSES}, [
        Variant("approved", Change(write={"work/expenses.md": _EXPENSES.replace(
            "| 412.65 | submitted |", "| 412.65 | approved, paid with the March salary |")}),
            ACT, "the Bristol claim is approved: tell the user"),
        Variant("glasgow approved", Change(write={"work/expenses.md": _EXPENSES.replace(
            "| 184.20 | submitted |", "| 184.20 | approved |")}),
            NOOP, "the Glasgow claim was approved, not the Bristol one"),
        Variant("with manager", Change(write={"work/expenses.md": _EXPENSES.replace(
            "| 412.65 | submitted |", "| 412.65 | with line manager |")}),
            NOOP, "the Bristol claim moved on a step but is not approved yet"),
    ], system_tasks=True)
_NORTHGATE = "Northgate Retirement Plan <statements@northgate.example>"
SITUATIONS += family(
    "pension projection", "When my yearly statement from the Northgate pension arrives, tell me what it projects my "
    "pot will be at 67",
    {**HOME, "money/pensions.md": "# Pensions\n- Northgate Retirement Plan (work): member NR-55120, statement every "
                                  "April\n- State pension: full amount from 67\n"}, [
        Variant("statement", Change(write={"inbox/2026-04-21-northgate.txt": _mail(
            _NORTHGATE, "Your annual benefit statement 2026",
            "Member NR-55120. Your pot today: 84,310 GBP. If you keep paying in at your current rate, we project "
            "your pot at age 67 to be 241,000 GBP in today's money.")}),
            ACT, "the statement came: tell the user the projection at 67, 241,000 GBP"),
        Variant("newsletter", Change(write={"inbox/2026-04-02-northgate.txt": _mail(
            _NORTHGATE, "Northgate news, spring",
            "Statements go out in late April. This issue: how to choose your investment fund, and our new app.")}),
            NOOP, "a newsletter saying when statements go out is not the statement"),
        Variant("other member", Change(write={"inbox/2026-04-21-northgate.txt": _mail(
            _NORTHGATE, "Your annual benefit statement 2026",
            "Member NR-60877 (Mrs C. Lamb). Your pot today: 31,900 GBP. We project your pot at age 67 to be "
            "88,000 GBP in today's money.")}),
            NOOP, "the statement is for another member, not NR-55120"),
    ])
_BONDS = "# Premium Bonds prizes\n\n| draw | holder | prize |\n|---|---|---|\n| Jan | Sam | 25 |\n| Feb | none | - |\n"
SITUATIONS += family(
    "premium bonds", "let me know if any of our Premium Bonds win more than 25 pounds (each draw goes in "
    "money/bonds.md)",
    {**HOME, "money/bonds.md": _BONDS}, [
        Variant("twenty-five", Change(append={"money/bonds.md": "| Mar | Sam | 25 |\n"}),
                NOOP, "a 25 pound prize is not more than 25"),
        Variant("no prize", Change(append={"money/bonds.md": "| Mar | none | - |\n"}),
                NOOP, "nothing was won in March"),
        Variant("buying more", Change(memories=("Nell wants to put another 500 into Premium Bonds after payday.",)),
                NOOP, "a plan to buy more bonds is not a prize"),
    ])
SITUATIONS += family(
    "septic tank level", "Remind me to book the septic tank emptying when the level sensor reads over 75% "
    "(ops/logs/septic.log)",
    {**HOME, "ops/logs/septic.log": "2026-09-01 06:00 level 61%\n2026-09-08 06:00 level 66%\n"
                                    "2026-09-15 06:00 level 70%\n"}, [
        Variant("seventy-three", Change(append={"ops/logs/septic.log": "2026-09-22 06:00 level 73%\n"}),
                NOOP, "73% is still under 75%"),
        Variant("seventy-five", Change(append={"ops/logs/septic.log": "2026-09-22 06:00 level 75%\n"}),
                NOOP, "75% is not over 75%"),
        unrelated("notes/recipes.md", "Leek and potato soup: 3 leeks, 2 potatoes, 1 l stock, a splash of cream.\n"),
    ])
_SCREEN = "date,day,hours,note\n2026-01-12,Mon,2.5,\n2026-01-13,Tue,3.0,\n2026-01-14,Wed,2.8,\n"
SITUATIONS += family(
    "ollie screen time", "Tell me if Ollie's screen time goes over 4 hours on a school day (family/screen-time.csv)",
    {**HOME, "family/screen-time.csv": _SCREEN}, [
        Variant("school day", Change(append={"family/screen-time.csv": "2026-01-15,Thu,4.6,\n"}),
                ACT, "4.6 hours on a Thursday, a school day: tell the user"),
        Variant("saturday", Change(append={"family/screen-time.csv": "2026-01-17,Sat,6.2,\n"}),
                NOOP, "6.2 hours on a Saturday, which is not a school day"),
        Variant("inset day", Change(append={"family/screen-time.csv": "2026-01-16,Fri,5.1,INSET day - school shut\n"}),
                NOOP, "the school was shut that Friday, so it was not a school day"),
        Variant("under", Change(append={"family/screen-time.csv": "2026-01-15,Thu,3.9,\n"}),
                NOOP, "3.9 hours is under 4"),
    ])
_STREET = "[19:02] Priya (no. 14): Bin day moved to Friday this week\n[19:10] Gavin (no. 3): Thanks Priya\n"
SITUATIONS += family(
    "mango sighting", "Mango's still missing. Let me know if anyone in the street chat says they've seen a ginger cat "
    "(chats/street.txt)",
    {**HOME, "chats/street.txt": _STREET}, [
        Variant("seen", Change(append={"chats/street.txt": (
            "[07:41] Rhona (no. 27): I think I saw a ginger cat under the van outside 31 this morning, it ran off "
            "towards the allotments\n")}),
            ACT, "a neighbour saw a ginger cat: tell the user"),
        Variant("black and white", Change(append={"chats/street.txt": (
            "[07:41] Rhona (no. 27): There's a black and white cat crying in the garages, anyone missing one?\n")}),
            NOOP, "the cat seen is black and white, not ginger"),
        Variant("still looking", Change(append={"chats/street.txt": (
            "[08:15] Gavin (no. 3): Any news on the ginger cat? We'll keep checking our shed\n")}),
            NOOP, "a neighbour asks for news; nobody has seen the cat"),
    ])
_PIKE = "Ron Pike <ron.pike@example.co.uk>"
SITUATIONS += family(
    "pike's drive", "Tell me if Mr Pike next door says he needs our shared drive kept clear on a particular day",
    {**HOME, "neighbours/drive.md": "# Shared drive with no. 12 (Mr Pike)\nWe park on the left, he parks on the "
                                    "right. He likes a heads-up before deliveries.\n"}, [
        Variant("skip lorry", Change(write={"inbox/2026-05-18-pike.txt": _mail(
            _PIKE, "Thursday",
            "Morning! The skip lorry is coming to swap my skip on Thursday between 8 and 10, so could you keep the "
            "drive clear till then? Cheers, Ron")}),
            ACT, "Mr Pike needs the drive clear on Thursday morning: tell the user"),
        Variant("other neighbour", Change(write={"inbox/2026-05-18-lowe.txt": _mail(
            "Ann Lowe <ann.lowe@example.org>", "Saturday",
            "We've got a removal van on Saturday, could you leave the road outside number 16 free for it? Thanks!")}),
            NOOP, "it is Mrs Lowe at no. 16 asking about the road, not Mr Pike about the shared drive"),
        Variant("no date yet", Change(write={"inbox/2026-05-18-pike.txt": _mail(
            _PIKE, "Tree surgeon",
            "I might need the drive clear one day next month for the tree surgeon. I'll let you know when he gives "
            "me a date.")}),
            NOOP, "Mr Pike has no particular day yet; he will say when he has one"),
    ], bystanders=("Tell me when the council says when it will fix the streetlight outside no. 12",))
_REPAIR = ("# Repair café bookings\n\n## Saturday 14 March, church hall\n- 10:00 toaster, doesn't pop up "
           "(Mrs Hale)\n- 10:20 lamp, flickers (Jo)\n\n## Saturday 11 April\n- (no bookings yet)\n")
SITUATIONS += family(
    "repair café sewing machine", "I'm the one who fixes sewing machines at the repair café. Tell me if anyone books "
    "one in for the 14 March session (repair/bookings.md)",
    {**HOME, "repair/bookings.md": _REPAIR}, [
        Variant("booked", Change(write={"repair/bookings.md": _REPAIR.replace(
            "- 10:20 lamp, flickers (Jo)\n",
            "- 10:20 lamp, flickers (Jo)\n- 10:40 sewing machine, Singer 201K, needle keeps jamming (Sadia)\n")}),
            ACT, "a sewing machine is booked in for 14 March: tell the user"),
        Variant("april", Change(write={"repair/bookings.md": _REPAIR.replace(
            "- (no bookings yet)", "- 10:00 sewing machine, Janome, tension all wrong (Mr Grant)")}),
            NOOP, "the sewing machine is booked for 11 April, not the 14 March session"),
        Variant("vacuum", Change(write={"repair/bookings.md": _REPAIR.replace(
            "- 10:20 lamp, flickers (Jo)\n",
            "- 10:20 lamp, flickers (Jo)\n- 10:40 vacuum cleaner, no suction (Ben)\n")}),
            NOOP, "the new booking for 14 March is a vacuum cleaner"),
    ])
_ROSES = ("date,item,price_per_stem\n2026-08-03,white rose Avalanche,1.05\n2026-08-03,red rose Naomi,1.10\n"
          "2026-08-10,white rose Avalanche,1.12\n2026-08-10,red rose Naomi,1.18\n")
SITUATIONS += family(
    "white rose price", "Tell me if white roses go above 1.20 a stem at the wholesaler (florist/wholesale.csv)",
    {**HOME, "florist/wholesale.csv": _ROSES}, [
        Variant("red dearer", Change(append={"florist/wholesale.csv": (
            "2026-08-17,red rose Naomi,1.34\n2026-08-17,white rose Avalanche,1.15\n")}),
            NOOP, "red roses went over 1.20; white roses are 1.15"),
        Variant("at the bound", Change(append={"florist/wholesale.csv": "2026-08-17,white rose Avalanche,1.20\n"}),
                NOOP, "1.20 is not above 1.20"),
        nothing(),
    ])
_AF = "Alliance Française Manchester <examens@af-manchester.example>"
SITUATIONS += family(
    "delf b2 registration", "Let me know when registration opens for the June DELF B2 exam",
    {**HOME, "study/french.md": "# French\nAiming for DELF B2 in June. Exam centre: Alliance Française, "
                                "Manchester.\n"}, [
        Variant("open", Change(write={"inbox/2026-02-02-af.txt": _mail(
            _AF, "DELF/DALF June session: registration open",
            "Registration for the June session (DELF A1 to B2, and DALF C1) is now open until 10 April. Places "
            "are limited.")}),
            ACT, "registration for the June B2 exam is open: tell the user"),
        Variant("december", Change(write={"inbox/2026-02-02-af.txt": _mail(
            _AF, "DELF/DALF December session",
            "Registration for the December session opens on 1 September.")}),
            NOOP, "the mail is about the December session"),
        Variant("b2 later", Change(write={"inbox/2026-02-02-af.txt": _mail(
            _AF, "June session registration",
            "Registration for the June A1 and A2 exams is open now. B1 and B2 registration opens on 2 March.")}),
            NOOP, "only A1 and A2 are open; B2 opens later"),
    ])
SITUATIONS += family(
    "repeat prescription", "Let me know when my repeat prescription is ready to collect at Hollins Pharmacy",
    {**HOME, "health/meds.md": "# Repeat prescription\nLevothyroxine 75 mcg, ordered through the surgery on Monday. "
                               "Pharmacy: Hollins, Market St.\n"}, [
        Variant("ready", Change(write={"phone/sms-2026-05-07.txt": (
            "SMS from HOLLINS PHARM, 7 May 14:12: Your prescription is ready to collect. Open till 6pm.\n")}),
            ACT, "the pharmacy says the prescription is ready: tell the user"),
        Variant("received", Change(write={"phone/sms-2026-05-06.txt": (
            "SMS from HOLLINS PHARM, 6 May 09:30: We have received your prescription from the surgery. We'll text "
            "you when it is ready.\n")}),
            NOOP, "the pharmacy has the prescription but it is not ready yet"),
        Variant("surgery approved", Change(write={"inbox/2026-05-05-surgery.txt": _mail(
            "Moor Lane Surgery <noreply@moorlanesurgery.example>", "Repeat request",
            "Your repeat request was approved by Dr Moss and sent to Hollins Pharmacy electronically.")}),
            NOOP, "the surgery sent the prescription on; the pharmacy has not said it is ready"),
    ])
_HEART = "date,resting_bpm,max_bpm,note\n2026-02-09,62,171,interval run\n2026-02-10,64,118,\n2026-02-11,61,149,\n"
SITUATIONS += family(
    "resting heart rate", "Tell me if my resting heart rate is above 75 on any morning (health/heart.csv)",
    {**HOME, "health/heart.csv": _HEART}, [
        Variant("high", Change(append={"health/heart.csv": "2026-02-12,78,110,bad night\n"}),
                ACT, "a resting rate of 78 is above 75: tell the user"),
        Variant("max high", Change(append={"health/heart.csv": "2026-02-12,63,182,hill reps\n"}),
                NOOP, "182 is the peak during exercise; the resting rate was 63"),
        Variant("seventy-five", Change(append={"health/heart.csv": "2026-02-12,75,120,\n"}),
                NOOP, "75 is not above 75"),
    ])
_TAY = ("time,gauge,level_m\n2026-10-03 08:00,Ballathie,1.62\n2026-10-03 08:00,Kinnaird,0.98\n"
        "2026-10-04 08:00,Ballathie,1.41\n2026-10-04 08:00,Kinnaird,0.91\n")
SITUATIONS += family(
    "tay fishing level", "Tell me when the Tay at Ballathie drops below 1.2 m, that's when the fishing is good "
    "(fishing/levels.csv)",
    {**HOME, "fishing/levels.csv": _TAY}, [
        Variant("other gauge low", Change(append={"fishing/levels.csv": (
            "2026-10-05 08:00,Ballathie,1.27\n2026-10-05 08:00,Kinnaird,0.85\n")}),
            NOOP, "Ballathie is at 1.27 m; the lower reading is at Kinnaird"),
        Variant("at the bound", Change(append={"fishing/levels.csv": (
            "2026-10-05 08:00,Ballathie,1.20\n2026-10-05 08:00,Kinnaird,0.83\n")}),
            NOOP, "1.20 m is not below 1.2 m"),
        Variant("rain coming", Change(memories=("More rain forecast for the Tay catchment this weekend.",)),
                NOOP, "a rain forecast says nothing about the river dropping below 1.2 m"),
    ])
_AURORA = ("# Aurora forecast, Tromsø\n\n| night | Kp | cloud |\n|---|---|---|\n| 10 Feb | 3 | 80% |\n"
           "| 11 Feb | 4 | 60% |\n")
SITUATIONS += family(
    "tromsø aurora", "We're in Tromsø for the nights of the 12th, 13th and 14th of February. Tell me if the aurora "
    "forecast shows Kp 5 or more for any of them (travel/aurora.md)",
    {**HOME, "travel/aurora.md": _AURORA}, [
        Variant("our night", Change(append={"travel/aurora.md": "| 12 Feb | 3 | 70% |\n| 13 Feb | 5 | 30% |\n"}),
                ACT, "Kp 5 on 13 February, one of the user's nights: tell them"),
        Variant("after the trip", Change(append={"travel/aurora.md": "| 17 Feb | 6 | 20% |\n"}),
                NOOP, "the Kp 6 night is 17 February, after the user has left"),
        Variant("kp 4", Change(append={"travel/aurora.md": "| 12 Feb | 4 | 10% |\n| 14 Feb | 4 | 40% |\n"}),
                NOOP, "Kp 4 on the user's nights, under 5"),
    ])
_LOGO = ("# Harbour Dental rebrand\n\n- 3 Mar: sent logo options A, B and C\n"
         "- 6 Mar: feedback: prefer B, make the tooth less cartoony\n- 9 Mar: sent B v2\n")
SITUATIONS += family(
    "logo sign-off", "ping me when Harbour Dental sign off the logo (work/harbour-dental.md)",
    {**HOME, "work/harbour-dental.md": _LOGO}, [
        Variant("approved", Change(append={"work/harbour-dental.md": (
            "- 11 Mar: Dr Lewis: 'B v2 is perfect, approved. Go ahead with the signage files.'\n")}),
            ACT, "the client approved B v2: tell the user"),
        Variant("not yet", Change(append={"work/harbour-dental.md": (
            "- 11 Mar: Dr Lewis: 'Love B v2! I just want to show the partners on Monday before we say yes.'\n")}),
            NOOP, "the client likes it but has not signed it off"),
        Variant("more changes", Change(append={"work/harbour-dental.md": (
            "- 11 Mar: Dr Lewis: 'Closer. Can we try the teal a shade darker?'\n")}),
            NOOP, "the client asks for another change"),
    ])
SITUATIONS += family(
    "books lent", "Whenever I say I've lent someone a book, add it to books/lent.md with who has it",
    {**HOME, "books/lent.md": "# Books I've lent out\n\n- The Secret History, to Dan (January)\n"}, [
        Variant("lent", Change(memories=("Lent Carys my copy of Middlemarch at book group tonight.",)),
                ACT, "the user lent Middlemarch to Carys: add one line"),
        Variant("borrowed", Change(memories=("Borrowed Wolf Hall from Carys, must give it back by Easter.",)),
                NOOP, "the user borrowed a book; they did not lend one"),
        Variant("maybe later", Change(memories=(
            "I might lend Dan the Earthsea books, but only once he gives The Secret History back.",)),
            NOOP, "the user is only thinking of lending; nothing was lent"),
    ])
_BLOOM = "Southern in Bloom <judging@southerninbloom.example>"
SITUATIONS += family(
    "in bloom judging", "Tell me when the date of the In Bloom judges' visit to Ashcombe is announced",
    {**HOME, "volunteering/in-bloom.md": "# Ashcombe in Bloom\nPlanting day 16 May. Judging: date not known yet "
                                         "(usually July). Last year's judging: 9 July 2025.\n"}, [
        Variant("announced", Change(write={"inbox/2026-06-01-bloom.txt": _mail(
            _BLOOM, "Judging dates 2026",
            "Dear Ashcombe in Bloom, the judges will visit Ashcombe on Tuesday 14 July, starting at the station at "
            "10:00. Please send your route by 1 July.")}),
            ACT, "the judging date for Ashcombe is out, 14 July: tell the user"),
        Variant("other villages", Change(write={"inbox/2026-06-01-bloom.txt": _mail(
            _BLOOM, "Judging dates: first batch",
            "First dates: Little Bramwell 7 July, Fenby 8 July. All other entrants will hear from us next week.")}),
            NOOP, "the first dates are for other villages; Ashcombe has none yet"),
        Variant("guess", Change(memories=(
            "Margaret on the committee thinks the judges will come mid-July again, like last year.",)),
            NOOP, "a committee member's guess is not an announcement"),
    ])
_GROOM = ("date,time,dog,breed,owner,notes\n2026-07-06,09:00,Bramble,cockapoo,Mrs Ince,hates the dryer\n"
          "2026-07-06,11:00,Otto,dachshund,Mr Vale,\n")
SITUATIONS += family(
    "grooming biter", "heads up if a dog booked in at the salon is noted as one that bites (grooming/bookings.csv)",
    {**HOME, "grooming/bookings.csv": _GROOM}, [
        Variant("bites", Change(append={"grooming/bookings.csv": (
            "2026-07-07,09:30,Kaiser,German shepherd,Ms Roe,has bitten at the vet - bring the muzzle\n")}),
            ACT, "Kaiser is noted as having bitten: warn the user"),
        Variant("nervous", Change(append={"grooming/bookings.csv": (
            "2026-07-07,09:30,Daisy,shih tzu,Mr Park,nervous of the clippers - go slow\n")}),
            NOOP, "a nervous dog is not noted as one that bites"),
        Variant("chews the lead", Change(append={"grooming/bookings.csv": (
            "2026-07-07,09:30,Rolo,labrador pup,Mrs Gill,chews his lead - bring a spare\n")}),
            NOOP, "a puppy that chews his lead is not one that bites people"),
    ])
_SWEEP = "# Street cleaning, week of 2 March\n\n- Mon: Ash Grove, Beech Walk\n- Wed: Cedar Road\n"
SITUATIONS += family(
    "elm road sweeping", "Tell me if the council's street cleaning notices (council/street-cleaning.md) say Elm Road "
    "is being swept, I'll need to move the car",
    {**HOME, "council/street-cleaning.md": _SWEEP}, [
        Variant("elm road", Change(append={"council/street-cleaning.md": "- Fri: Elm Road (no parking 7am-1pm)\n"}),
                ACT, "Elm Road is down for Friday: tell the user to move the car"),
        Variant("elm grove", Change(append={"council/street-cleaning.md": "- Fri: Elm Grove, Fir Close\n"}),
                NOOP, "Elm Grove is being swept, not Elm Road"),
        nothing(),
    ])
_DIETS = "guest,need\nAunt Ros,coeliac\nMarcus,vegan\nLeila,no pork\nGrandpa Joe,soft food only\n"
_CATERER = "Thyme & Table <events@thymeandtable.example>"
SITUATIONS += family(
    "wedding menu diets", "When the caterers send the final wedding menu, check every dish against our guests' "
    "dietary needs (wedding/diets.csv) and tell me who would be left without a safe choice",
    {**HOME, "wedding/diets.csv": _DIETS}, [
        Variant("final menu", Change(write={"inbox/2026-07-10-caterer.txt": _mail(
            _CATERER, "Your final menu",
            "Here is the final menu. Starters: chicken liver parfait with toast; heritage tomato salad (vegan). "
            "Mains: slow-roast pork belly, or wild mushroom risotto (vegetarian, made with butter and parmesan). "
            "Desserts: sticky toffee pudding; lemon posset. Final numbers by 1 August.")}),
            ESCALATE, "the final menu arrived: checking each dish against four guests' needs takes reasoning"),
        Variant("first sketch", Change(write={"inbox/2026-06-20-caterer.txt": _mail(
            _CATERER, "Menu ideas",
            "Here's a first sketch while we wait on our suppliers. We'll send the final menu once the chef has "
            "signed it off.")}),
            NOOP, "a first sketch, and the caterers say the final menu is still to come"),
        Variant("deposit", Change(write={"inbox/2026-06-20-caterer.txt": _mail(
            _CATERER, "Deposit received", "Thank you, we've received your deposit of 500 GBP.")}),
            NOOP, "a deposit receipt is not the menu"),
    ])
_KASIA = "Kasia Nowicka <kasia.n@example.com>"
SITUATIONS += family(
    "damp at quay street", "If the tenant at 3 Quay Street reports damp or mould, work out the likely cause from "
    "the survey (property/quay-street-survey.md) and draft a reply saying what we'll do",
    {**HOME, "property/quay-street-survey.md": (
        "# 3 Quay Street, survey November 2025\n- Bathroom extractor fan weak, recommend replacing.\n"
        "- Gutter above the back bedroom leaking at a joint.\n- Damp-proof course: no rising damp found.\n"
        "- Windows: trickle vents painted shut.\n")}, [
        Variant("bedroom mould", Change(write={"inbox/2026-01-19-kasia.txt": _mail(
            _KASIA, "Mould in the back bedroom",
            "Hi, black mould is coming up in the corner of the back bedroom ceiling and the wall feels wet after "
            "it rains. We air the room every day. Could someone come and look?")}),
            ESCALATE, "the tenant reports mould: matching it to the survey and drafting a reply needs reasoning"),
        Variant("phone call", Change(memories=(
            "Kasia at Quay Street rang: the bathroom ceiling has gone mouldy again and the mirror is always misted.",)),
            ESCALATE, "the tenant reported mould by phone: work out the cause and draft the reply"),
        Variant("dripping tap", Change(write={"inbox/2026-01-19-kasia.txt": _mail(
            _KASIA, "Kitchen tap", "The kitchen tap has started dripping a bit. No rush at all.")}),
            NOOP, "a dripping tap is not damp or mould"),
        Variant("all fine", Change(write={"inbox/2026-01-19-kasia.txt": _mail(
            _KASIA, "Thanks", "Just to say the bathroom has been fine since the new fan went in, no more "
                              "condensation on the walls.")}),
            NOOP, "the tenant says the damp problem is gone"),
    ])
_SUNNY = "Sunnyside Holiday Club <bookings@sunnyside.example>"
SITUATIONS += family(
    "holiday club gaps", "When the summer holiday club sends its dates, work out which August weekdays we still need "
    "childcare for, using our rotas in family/rotas.md",
    {**HOME, "family/rotas.md": "# August rotas\nMe: work Mon, Tue, Thu. Sam: nights Wed to Fri, sleeps till 2pm. "
                                "Grandma: Mondays only, away 10 to 21 August.\nSchool back 2 September.\n"}, [
        Variant("dates by mail", Change(write={"inbox/2026-05-01-sunnyside.txt": _mail(
            _SUNNY, "Summer club dates",
            "We're open 27 July to 20 August, Monday to Thursday, 8am to 5pm. Closed on Fridays and in the week of "
            "3 August for staff training.")}),
            ESCALATE, "the club's dates arrived: matching them against three rotas to find gaps needs reasoning"),
        Variant("dates in a file", Change(write={"family/holiday-club.md": (
            "# Sunnyside summer club\nOpen 27 July to 14 August, weekdays 8am to 5pm, closed on Wednesdays.\n")}),
            ESCALATE, "the summer club dates are in the workspace: work out the childcare gaps"),
        Variant("booking opens", Change(write={"inbox/2026-04-10-sunnyside.txt": _mail(
            _SUNNY, "Summer booking", "Summer booking opens on 1 May. The dates will be in that email.")}),
            NOOP, "the club says the dates will come later"),
        Variant("october", Change(write={"inbox/2026-04-10-sunnyside.txt": _mail(
            _SUNNY, "October half-term", "Our October half-term club runs from 26 to 30 October.")}),
            NOOP, "these are the October half-term dates, not the summer ones"),
    ])
_CRASH = ("2026-05-02 19:44:10 INFO autosave slot 2 ok (1.2 MB)\n2026-05-02 20:10:52 WARN autosave slot 2 took "
          "4.1 s\n2026-05-02 20:11:03 ERROR write interrupted: slot 2 truncated at 512 KB\n")
SITUATIONS += family(
    "corrupted save", "If a player reports that their save file got corrupted, go through ops/logs/crash.log around "
    "that time and work out the likely cause",
    {**HOME, "ops/logs/crash.log": _CRASH}, [
        Variant("player mail", Change(write={"inbox/2026-05-03-player.txt": _mail(
            "ravenfeather <ravenfeather@example.org>", "Lost 12 hours!!",
            "My save in slot 2 won't load since last night, about 8pm. It just says 'save data corrupted'. Windows "
            "11, latest patch.")}),
            ESCALATE, "a player reports a corrupted save: reading the log around that time needs investigation"),
        Variant("forum post", Change(write={"community/forum-2026-05-03.md": (
            "**mossgrub**: my autosave from yesterday evening is corrupted, the game crashes when I load it. "
            "Anyone else?\n")}),
            ESCALATE, "a player reports a corrupted autosave on the forum: investigate the log"),
        Variant("typo", Change(write={"inbox/2026-05-03-player.txt": _mail(
            "ravenfeather <ravenfeather@example.org>", "Small typo",
            "In the lighthouse dialogue, 'your' should be 'you're'. Loving the game!")}),
            NOOP, "a typo report is not a corrupted save"),
        Variant("false alarm", Change(write={"inbox/2026-05-03-player.txt": _mail(
            "ravenfeather <ravenfeather@example.org>", "Never mind",
            "I panicked that my save was gone, but it was just in the other slot. All good!")}),
            NOOP, "the player's save was fine after all"),
    ])
_OAKS = "Oakfield Academy <office@oakfield.example>"
SITUATIONS += family(
    "gcse options", "When Zara's school sends the GCSE options booklet, go through it with what she's into "
    "(family/zara.md) and shortlist options for her",
    {**HOME, "family/zara.md": "# Zara, Year 9\nLoves art, animals and drama. Finds French hard. Wants to be a vet "
                               "or an illustrator.\n"}, [
        Variant("booklet", Change(write={"school/zara/options-2026.md": (
            "# GCSE options 2026\nCore: English language and literature, maths, combined or triple science.\n"
            "Choose one from each block:\nA: French, Spanish, history\nB: geography, art, computer science\n"
            "C: drama, music, triple science\nD: business, food, PE, photography\nForms back by 20 March.\n")}),
            ESCALATE, "the options booklet arrived: shortlisting against Zara's interests needs reasoning"),
        Variant("evening reminder", Change(write={"inbox/2026-02-16-oakfield.txt": _mail(
            _OAKS, "Year 9 options evening",
            "Options evening is on Thursday 26 February at 6pm. The booklet will be handed out on the night.")}),
            NOOP, "the booklet has not been sent yet"),
        Variant("year 11 mocks", Change(write={"inbox/2026-02-16-oakfield.txt": _mail(
            _OAKS, "Year 11 mock timetable", "Please find the Year 11 mock exam timetable attached.")}),
            NOOP, "a Year 11 timetable is not Zara's options booklet"),
    ])
_CASHBOOK = ("date,item,in,out\n2026-03-02,subs from 12 households,60.00,\n2026-03-09,hall hire for the AGM,,45.00\n"
             "2026-03-20,raffle takings,82.50,\n2026-03-28,printing,,18.40\n")
SITUATIONS += family(
    "march reconciliation", "I'm treasurer of the tenants' association. When the March bank statement lands in "
    "treasurer/statements/, check it against the cash book (treasurer/cashbook.csv) and list anything that doesn't "
    "match",
    {**HOME, "treasurer/cashbook.csv": _CASHBOOK,
     "treasurer/statements/2026-02.txt": "Unity Bank, Marsh Lane Tenants Association, February 2026\n"
                                         "03 Feb credit SUBS 55.00\n27 Feb debit PRINTWISE 12.00\n"}, [
        Variant("statement lands", Change(write={"treasurer/statements/2026-03.txt": (
            "Unity Bank, Marsh Lane Tenants Association, March 2026\n02 Mar credit SUBS 60.00\n"
            "10 Mar debit COMMUNITY HALL 45.00\n21 Mar credit CASH 72.50\n29 Mar debit PRINTWISE 18.40\n"
            "31 Mar debit SERVICE CHARGE 5.00\n")}),
            ESCALATE, "the March statement arrived: reconciling it line by line needs reasoning"),
        Variant("not yet", Change(write={"inbox/2026-03-31-unity.txt": _mail(
            "Unity Bank <noreply@unitybank.example>", "Statements",
            "Your March statement will be ready to view after 3 April.")}),
            NOOP, "the bank says the statement is not ready yet"),
        Variant("cash book entry", Change(append={
            "treasurer/cashbook.csv": "2026-03-30,donation from Mrs Eke,20.00,\n"}),
            NOOP, "the cash book gained a line; the March statement has not arrived"),
    ])
