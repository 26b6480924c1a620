"""The held-out labelled set no. 10 for ``bench/judgement.py``, written without reading how the product decides.

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


_PARTS = ("# Ashworth Sinfonia: spring concert parts\n\n| piece | section | status |\n|---|---|---|\n"
          "| Dvorak Symphony 8 | first violin | uploaded |\n| Dvorak Symphony 8 | viola | uploaded |\n"
          "| Walton Crown Imperial | first violin | waiting for the library |\n"
          "| Walton Crown Imperial | viola | waiting for the library |\n")
SITUATIONS += family(
    "orchestra viola parts", "Tell me when the viola part for Crown Imperial is up (orchestra/parts.md)",
    {**HOME, "orchestra/parts.md": _PARTS}, [
        Variant("uploaded", Change(write={"orchestra/parts.md": _PARTS.replace(
            "| Walton Crown Imperial | viola | waiting for the library |",
            "| Walton Crown Imperial | viola | uploaded 3 Feb (bowings marked) |")}),
            ACT, "the viola part for Crown Imperial is now uploaded: tell the user"),
        Variant("violins only", Change(write={"orchestra/parts.md": _PARTS.replace(
            "| Walton Crown Imperial | first violin | waiting for the library |",
            "| Walton Crown Imperial | first violin | uploaded |")}),
            NOOP, "only the first violin part went up; the viola part is still waiting"),
        Variant("promised friday", Change(append={"orchestra/parts.md": (
            "\nNote from Helen (librarian): the rest of the Walton should be scanned by Friday.\n")}),
            NOOP, "the librarian only expects to scan it by Friday; it is not up yet"),
        unrelated("notes/todo.md", "# To do\n\n- water the plants on Sunday\n- descale the kettle\n"),
    ])
_PROGRAMME = ("# Ashworth Sinfonia: summer concert, 27 June\n\nConductor: Ruth Abara\n\n"
              "1. Rossini: The Thieving Magpie overture\n2. Grieg: Holberg Suite\n3. Brahms: Symphony 2\n")
SITUATIONS += family(
    "orchestra programme", "If Ruth changes the programme for the summer concert, work out which new bits I need to "
    "learn on viola and make me a practice plan up to 27 June",
    {**HOME, "orchestra/summer-programme.md": _PROGRAMME,
     "orchestra/practice.md": "Viola practice: 30 min weekdays, scales first. Weak spot: fast spiccato.\n"}, [
        Variant("swap symphony", Change(write={"orchestra/summer-programme.md": _PROGRAMME.replace(
            "3. Brahms: Symphony 2", "3. Sibelius: Symphony 5 (replaces the Brahms, we lost the hall for an extra "
            "rehearsal)")}),
            ESCALATE, "a new symphony replaces the Brahms: working out what to learn and planning practice needs "
                      "reasoning"),
        Variant("added encore", Change(memories=(
            "Ruth announced at rehearsal that we're adding Elgar's Nimrod and the Walton march as encores in "
            "June.",)),
            ESCALATE, "two pieces were added to the summer programme: plan the practice for them"),
        Variant("order changed", Change(write={"orchestra/summer-programme.md": (
            "# Ashworth Sinfonia: summer concert, 27 June\n\nConductor: Ruth Abara\n\n"
            "1. Grieg: Holberg Suite\n2. Rossini: The Thieving Magpie overture\n3. Brahms: Symphony 2\n")}),
            NOOP, "the same three pieces in a different order; there is nothing new to learn"),
        Variant("other orchestra", Change(memories=(
            "Kath says the Millbrook Philharmonic have swapped their June programme to all-Beethoven.",)),
            NOOP, "it is another orchestra's programme that changed, not Ruth's summer concert"),
    ], bystanders=("Tell me when the viola part for Crown Imperial is up (orchestra/parts.md)",))
_ADOPT = ("# Whiskers & Wheeks guinea-pig rescue: adoptions\n\n| pigs | age | status |\n|---|---|---|\n"
          "| Pickle and Crumpet (bonded boars) | 2 y | available |\n| Marmite | 4 y | available |\n"
          "| Dot, Dash and Comma (sows) | 1 y | reserved |\n")
SITUATIONS += family(
    "pickle and crumpet", "let me know when Pickle and Crumpet find a home",
    {**HOME, "rescue/adoptions.md": _ADOPT}, [
        Variant("adopted", Change(write={"rescue/adoptions.md": _ADOPT.replace(
            "| Pickle and Crumpet (bonded boars) | 2 y | available |",
            "| Pickle and Crumpet (bonded boars) | 2 y | adopted 14 Mar, the Okonjo family |")}),
            ACT, "Pickle and Crumpet are marked adopted: tell the user"),
        Variant("went home", Change(write={"inbox/2026-03-15-bea.txt": _mail(
            "Bea Lund <bea@whiskersandwheeks.example>", "Happy ending for the boys",
            "Just to let the volunteers know: Pickle and Crumpet went off to their forever home in Didsbury "
            "yesterday. The new owners sent a photo of them in their huge hutch already!")}),
            ACT, "the rescue's coordinator says the pair went to their new home: tell the user"),
        Variant("reserved", Change(write={"rescue/adoptions.md": _ADOPT.replace(
            "| Pickle and Crumpet (bonded boars) | 2 y | available |",
            "| Pickle and Crumpet (bonded boars) | 2 y | reserved, home check Saturday |")}),
            NOOP, "they are only reserved pending a home check; not adopted yet"),
        Variant("marmite adopted", Change(write={"rescue/adoptions.md": _ADOPT.replace(
            "| Marmite | 4 y | available |", "| Marmite | 4 y | adopted 14 Mar |")}),
            NOOP, "Marmite was adopted, not Pickle and Crumpet"),
    ])
_RULES = ("# Adoption rules\n\n- Pigs go in pairs or to join a lonely pig, never alone.\n"
          "- Indoor cage at least 120 x 60 cm per pair, or a shed with a run; no garages.\n"
          "- No homes where under-8s would be the main carers.\n- Home check before any pig leaves.\n")
SITUATIONS += family(
    "adoption application", "When someone applies to adopt, check their form against rescue/rules.md and draft a "
    "reply to them",
    {**HOME, "rescue/rules.md": _RULES, "rescue/adoptions.md": _ADOPT}, [
        Variant("single pig in garage", Change(write={"inbox/2026-03-10-application.txt": _mail(
            "Adoption form <forms@whiskersandwheeks.example>", "New adoption application: Marmite",
            "Name: Carl Etherington. Pig wanted: Marmite. Other pigs: none. Housing: hutch in the garage, 90 cm. "
            "Main carer: my daughter (6). Home check: any weekday after 5.")}),
            ESCALATE, "an application to weigh against several rules and a careful reply to draft"),
        Variant("pair to good home", Change(write={"inbox/2026-03-11-application.txt": _mail(
            "Adoption form <forms@whiskersandwheeks.example>", "New adoption application: Dot, Dash and Comma",
            "Name: Anita Rowe. Pigs wanted: the three sows. Housing: indoor C&C cage 180 x 60 cm. Main carer: me. "
            "Had guinea pigs for ten years.")}),
            ESCALATE, "an application came in: checking it against the rules and drafting the reply needs work"),
        Variant("volunteer enquiry", Change(write={"inbox/2026-03-10-volunteer.txt": _mail(
            "Lewis Grant <lewis.g@example.net>", "Volunteering",
            "Hi, I'm a vet nursing student and would love to help with cleaning out on Sundays. Is there an "
            "induction?")}),
            NOOP, "someone wants to volunteer, not adopt"),
        Variant("just asking", Change(write={"inbox/2026-03-10-question.txt": _mail(
            "Priti Shah <priti.s@example.com>", "Question about adopting",
            "We're thinking about guinea pigs for next year once the extension is done. Do you ever have babies?")}),
            NOOP, "a general question about maybe adopting next year is not an application"),
    ], bystanders=("let me know when Pickle and Crumpet find a home",))
_TIDES = ("date,high water,height m,low water,height m\n2026-09-14,06:12,5.1,12:40,1.2\n"
          "2026-09-15,06:55,5.4,13:21,0.9\n")
SITUATIONS += family(
    "spring tides", "If a high tide in boat/tides.csv is over 5.8 m, remind me to slacken Kestrel's mooring lines",
    {**HOME, "boat/tides.csv": _TIDES}, [
        Variant("six point one", Change(append={"boat/tides.csv": "2026-09-16,07:34,6.1,14:02,0.4\n"}),
                ACT, "a 6.1 m high tide is over 5.8 m: remind the user about the lines"),
        Variant("five point six", Change(append={"boat/tides.csv": "2026-09-16,07:34,5.6,14:02,0.7\n"}),
                NOOP, "5.6 m is below the 5.8 m threshold"),
        Variant("surge maybe", Change(append={"boat/tides.csv": (
            "# harbour office: with a strong southerly, the 16th could run 0.3 m above prediction\n")}),
                NOOP, "a possible surge on an unlisted tide is a hedge, not a high tide over 5.8 m"),
    ])
SITUATIONS += family(
    "mooring renewal", "If Porthallow harbour office sends the mooring renewal, work out what I have to send back "
    "and by when, and draft the covering email",
    {**HOME, "boat/mooring.md": ("Mooring P-23, Porthallow. Boat: Kestrel, 7.2 m, bilge keel. Insured with "
                                 "Seaway until 31 Jan. Last renewal paid 1,140 GBP.\n")}, [
        Variant("renewal pack", Change(write={"inbox/2026-11-02-harbour.txt": _mail(
            "Porthallow Harbour Office <office@porthallowharbour.example>", "Mooring renewal 2027: P-23",
            "Please return by 1 December: the signed licence, proof of third-party cover of at least 3 million "
            "GBP valid to 31 March, and the fee of 1,210 GBP (or the first of three instalments). The riser chain "
            "inspection is now the owner's job: send the diver's certificate with your papers.")}),
            ESCALATE, "the renewal asks for several papers, a fee and an inspection by a date: work it out and "
                      "draft"),
        Variant("regatta notice", Change(write={"inbox/2026-11-02-harbour.txt": _mail(
            "Porthallow Harbour Office <office@porthallowharbour.example>", "Winter notices",
            "The slipway will be closed 10-14 November for resurfacing. The Boxing Day swim is on again.")}),
            NOOP, "the harbour office wrote about the slipway and a swim, not the renewal"),
        Variant("club reminder", Change(write={"inbox/2026-11-02-club.txt": _mail(
            "Porthallow Sailing Club <sec@porthallowsc.example>", "Subs for next year",
            "Club subs are due in January; mooring holders remember your harbour renewal will come separately.")}),
            NOOP, "the sailing club only says the renewal will come; the harbour office has not sent it"),
    ])
_BILGE = ("2026-10-01 23:59 kestrel-bilge daily summary: pump cycles=3, float switch ok, battery 12.7 V\n"
          "2026-10-02 23:59 kestrel-bilge daily summary: pump cycles=4, float switch ok, battery 12.6 V\n")
SITUATIONS += family(
    "bilge pump", "Tell me if Kestrel's bilge pump runs more than 10 times in a day (ops/logs/bilge.log)",
    {**HOME, "ops/logs/bilge.log": _BILGE}, [
        Variant("fourteen cycles", Change(append={"ops/logs/bilge.log": (
            "2026-10-03 23:59 kestrel-bilge daily summary: pump cycles=14, float switch ok, battery 12.3 V\n")}),
            ACT, "14 pump cycles in a day is more than 10: tell the user"),
        Variant("nine cycles", Change(append={"ops/logs/bilge.log": (
            "2026-10-03 23:59 kestrel-bilge daily summary: pump cycles=9, float switch ok, battery 12.5 V\n")}),
            NOOP, "9 cycles is under the limit of 10"),
        Variant("other boat", Change(append={"ops/logs/bilge.log": (
            "2026-10-03 23:59 kestrel-bilge daily summary: pump cycles=3, float switch ok, battery 12.6 V\n"
            "2026-10-03 23:59 curlew-bilge daily summary (shared gateway): pump cycles=16, float switch ok\n")}),
            NOOP, "the 16 cycles are Curlew's pump on the shared gateway; Kestrel's ran 3 times"),
        nothing(),
    ], system_tasks=True)
_ORDERS = ("order,date,item,qty,shipping,status\n4411,2026-11-20,linocut robin card pack,2,standard,posted\n"
           "4412,2026-11-21,hare print A4,1,standard,to pack\n")
SITUATIONS += family(
    "express orders", "whenever an express order comes into shop/orders.csv, remind me it has to go out today",
    {**HOME, "shop/orders.csv": _ORDERS}, [
        Variant("express", Change(append={"shop/orders.csv": (
            "4413,2026-11-22,heron print A3 framed,1,express,to pack\n")}),
            ACT, "a new express order: remind the user to post it today"),
        Variant("next day wording", Change(append={"shop/orders.csv": (
            "4413,2026-11-22,robin card pack,3,next-day tracked (upgrade paid),to pack\n")}),
            ACT, "next-day shipping is an express order in other words: remind the user"),
        Variant("standard", Change(append={"shop/orders.csv": (
            "4413,2026-11-22,hare print A4,2,standard,to pack\n")}),
            NOOP, "the new order is standard shipping"),
        Variant("status update", Change(write={"shop/orders.csv": _ORDERS.replace(
            "standard,to pack", "standard,posted")}),
            NOOP, "an existing standard order was marked posted; no new express order"),
    ], system_tasks=True)
SITUATIONS += family(
    "damaged print", "If a customer writes that something arrived broken or damaged, draft a reply offering a "
    "replacement or a refund and work out which costs me less (prices in shop/costs.md)",
    {**HOME, "shop/orders.csv": _ORDERS,
     "shop/costs.md": ("Hare print A4: paper and ink 3.10 GBP, sells 18 GBP, postage 2.40 GBP.\n"
                       "Heron print A3 framed: frame 14 GBP, print 5.20 GBP, sells 65 GBP, postage 9.80 GBP.\n")}, [
        Variant("cracked frame", Change(write={"inbox/2026-11-26-review.txt": _mail(
            "Etsy conversation <no-reply@etsy.example>", "Message from Joanne about order 4413",
            "The heron print is lovely but the glass in the frame was cracked right across when I opened it. "
            "What can you do?")}),
            ESCALATE, "a damaged item: comparing replacement against refund and drafting the reply needs "
                      "reasoning"),
        Variant("creased print", Change(write={"inbox/2026-11-27-message.txt": _mail(
            "Etsy conversation <no-reply@etsy.example>", "Message from Sam about order 4412",
            "Hi, the hare print came with a big crease in one corner, the backing board must have bent in the "
            "post.")}),
            ESCALATE, "a creased print is damage in other words: work out the cheaper fix and draft the reply"),
        Variant("happy customer", Change(write={"inbox/2026-11-26-review.txt": _mail(
            "Etsy conversation <no-reply@etsy.example>", "Message from Joanne about order 4413",
            "Arrived safe and sound, beautifully wrapped, thank you! It's going above the fireplace.")}),
            NOOP, "the item arrived undamaged"),
        Variant("colour question", Change(write={"inbox/2026-11-26-question.txt": _mail(
            "Etsy conversation <no-reply@etsy.example>", "Message from Dev",
            "Do you do the hare print in a dark green instead of the blue?")}),
            NOOP, "a question about colours, not a complaint about damage"),
    ], bystanders=("whenever an express order comes into shop/orders.csv, remind me it has to go out today",))
_SAFE = ("# Places that have been fine for Ellie (coeliac)\n\n| place | notes |\n|---|---|\n"
         "| Olmo, Castle St | separate fryer, GF pizza base, open Sat till 10 |\n"
         "| The Green Room | fully GF kitchen, closed Saturdays |\n| Saffron House | GF menu marked, book ahead |\n")
SITUATIONS += family(
    "tavola booking", "We're booked at Tavola on Saturday for Dad's retirement. If they say they can't do safe "
    "gluten-free food for Ellie, find another place from food/safe-places.md and draft a message to the family",
    {**HOME, "food/safe-places.md": _SAFE,
     "inbox/2026-05-04-tavola.txt": _mail("Tavola <bookings@tavola.example>", "Booking confirmed",
                                          "Table for 8 on Saturday 9 May at 19:30. Any dietary needs, reply here.")}, [
        Variant("cannot guarantee", Change(write={"inbox/2026-05-05-tavola.txt": _mail(
            "Tavola <bookings@tavola.example>", "Re: Booking confirmed",
            "Thanks for letting us know. I'm sorry, our pasta is made in the same kitchen and we share a fryer, so "
            "we can't guarantee anything is free from cross-contamination for a coeliac guest.")}),
            ESCALATE, "Tavola cannot do safe food: choosing another place and drafting the message needs "
                      "reasoning"),
        Variant("all fine", Change(write={"inbox/2026-05-05-tavola.txt": _mail(
            "Tavola <bookings@tavola.example>", "Re: Booking confirmed",
            "No problem at all. We have a separate gluten-free prep area and fryer, and I've put coeliac on the "
            "booking so the chef knows.")}),
            NOOP, "Tavola says it can cater safely for Ellie"),
        Variant("cousin worried", Change(memories=(
            "My cousin Ruth reckons Tavola might not be great for coeliacs, she's never checked though.",)),
            NOOP, "a cousin's unchecked worry is not the restaurant saying it can't cater"),
        Variant("other restaurant", Change(write={"inbox/2026-05-05-saffron.txt": _mail(
            "Saffron House <hello@saffronhouse.example>", "Your enquiry",
            "Sorry, we can't do a gluten-free naan, everything goes in the same tandoor.")}),
            NOOP, "another restaurant wrote; Tavola has not said it can't cater"),
    ])
_TEAMSHEET = ("# Oakfield CC selection, Saturday 13 June\n\n| team | opposition | players |\n|---|---|---|\n"
              "| 1st XI | Hambleton (away) | TBC |\n| 2nd XI | Dunsford (home) | TBC |\n")
SITUATIONS += family(
    "picked", "I'm Sam Patel. tell me if I get picked for either side on Saturday",
    {**HOME, "cricket/selection.md": _TEAMSHEET}, [
        Variant("second eleven", Change(write={"cricket/selection.md": _TEAMSHEET.replace(
            "| 2nd XI | Dunsford (home) | TBC |",
            "| 2nd XI | Dunsford (home) | R. Hale (c), J. Moss, S. Patel, D. Khan, T. Ibbotson, L. Ward, P. Shah, "
            "G. Fry, A. Noor, M. Reid, K. Lowe |")}),
            ACT, "S. Patel is in Saturday's 2nd XI: tell the user"),
        Variant("namesake", Change(write={"cricket/selection.md": _TEAMSHEET.replace(
            "| 2nd XI | Dunsford (home) | TBC |",
            "| 2nd XI | Dunsford (home) | R. Hale (c), J. Moss, S. Patil, D. Khan, T. Ibbotson, L. Ward, P. Shah, "
            "G. Fry, A. Noor, M. Reid, K. Lowe |")}),
            NOOP, "the list has S. Patil, a different player; Sam Patel is not in it"),
        Variant("sunday side", Change(append={"cricket/selection.md": (
            "\nSunday 14 June friendly v Old Boys: Sam Patel, Joe Moss, Kal Lowe and 8 juniors.\n")}),
            NOOP, "Sam is picked for Sunday's friendly, not for Saturday"),
        Variant("availability", Change(memories=("Told the captain I'm available this Saturday.",)),
            NOOP, "saying he is available is not being picked"),
    ])
SITUATIONS += family(
    "match off", "If Saturday's home match gets called off, remind me to cancel the teas with Marion",
    {**HOME, "cricket/selection.md": _TEAMSHEET,
     "cricket/teas.md": "Teas for 2nd XI v Dunsford: Marion Lowe, 22 people, 45 GBP.\n"}, [
        Variant("waterlogged", Change(write={"inbox/2026-06-12-fixtures.txt": _mail(
            "Oakfield CC fixtures <fixtures@oakfieldcc.example>", "Saturday: 2nd XI v Dunsford OFF",
            "After this morning's inspection the square is waterlogged. Tomorrow's 2nd XI home game is "
            "abandoned without a ball bowled.")}),
            ACT, "the home match is off: remind the user to cancel the teas"),
        Variant("conceded", Change(append={"cricket/selection.md": (
            "\nUPDATE Fri: Dunsford can't raise a side and have conceded, so no 2nd XI game tomorrow.\n")}),
            ACT, "the opposition conceded, so there is no home game: remind about the teas"),
        Variant("inspection", Change(write={"inbox/2026-06-12-fixtures.txt": _mail(
            "Oakfield CC fixtures <fixtures@oakfieldcc.example>", "Saturday weather",
            "Pitch inspection at 11:00 tomorrow. Covers are on; fingers crossed we get a game.")}),
            NOOP, "an inspection is planned; the match has not been called off"),
        Variant("away game off", Change(write={"inbox/2026-06-12-fixtures.txt": _mail(
            "Oakfield CC fixtures <fixtures@oakfieldcc.example>", "1st XI at Hambleton OFF",
            "Hambleton's ground is flooded, so the 1st XI away game is cancelled. The 2nd XI home game is on.")}),
            NOOP, "the away game is off; the home match goes ahead"),
    ], bystanders=("I'm Sam Patel. tell me if I get picked for either side on Saturday",))
_WEEK = ("# Tutoring this week\n\n| day | time | pupil | subject |\n|---|---|---|---|\n"
         "| Tue | 16:00 | Noah Hale | GCSE maths |\n| Wed | 17:00 | Maya Osei | A-level chemistry |\n"
         "| Thu | 16:30 | Ines Duarte | 11+ English |\n")
SITUATIONS += family(
    "lesson cancelled", "If a parent cancels a lesson, add a line to tutoring/cancellations.md",
    {**HOME, "tutoring/week.md": _WEEK, "tutoring/cancellations.md": "# Cancellations\n- 3 Mar: Ines, half term\n"}, [
        Variant("noah ill", Change(write={"inbox/2026-03-16-hale.txt": _mail(
            "Karen Hale <karen.hale@example.com>", "Noah tomorrow",
            "Sorry for the short notice, Noah has come down with a temperature so he won't make tomorrow's "
            "lesson. Same time next week is fine.")}),
            ACT, "Noah's mother cancelled Tuesday's lesson: add one line"),
        Variant("said on phone", Change(memories=(
            "Mrs Duarte rang: Ines has a school trip on Thursday, so no lesson this week.",)),
            ACT, "Ines's mother called off this week's lesson: note the cancellation"),
        Variant("moved", Change(write={"inbox/2026-03-16-osei.txt": _mail(
            "Kwame Osei <k.osei@example.org>", "Wednesday",
            "Could Maya come at 18:00 instead of 17:00 on Wednesday? She has a netball match after school.")}),
            NOOP, "the lesson is moved by an hour, not cancelled"),
        Variant("maybe", Change(write={"inbox/2026-03-16-hale.txt": _mail(
            "Karen Hale <karen.hale@example.com>", "Noah",
            "Noah's a bit sniffly today. Hopefully he'll be fine for Tuesday, I'll let you know if not.")}),
            NOOP, "the parent only warns she might cancel; the lesson is still on"),
    ])
SITUATIONS += family(
    "maya mock", "When Maya's mock paper lands in tutoring/maya/, mark it against the mark scheme and plan her "
    "next three lessons around what she got wrong",
    {**HOME, "tutoring/week.md": _WEEK,
     "tutoring/maya/mark-scheme-paper2.md": ("Q1 (4): moles of CO2 = 0.0250, 2 s.f. loses 1. Q2 (3): Le Chatelier, "
                                             "shift right, explain. Q3 (5): mechanism, curly arrows from the lone "
                                             "pair.\n")}, [
        Variant("paper scanned", Change(write={"tutoring/maya/mock-paper2-answers.md": (
            "Maya Osei, Paper 2 mock\nQ1: 0.025 mol\nQ2: equilibrium moves left because pressure goes up\n"
            "Q3: arrow drawn from the C=O bond to the nucleophile\n")}),
            ESCALATE, "Maya's answers arrived: marking them and planning three lessons needs reasoning"),
        Variant("other pupil", Change(write={"tutoring/noah/mock-paper1.md": (
            "Noah Hale, GCSE Paper 1 mock\nQ1: 3/8 = 0.375\nQ2: x = 4\n")}),
            NOOP, "the paper is Noah's, not Maya's"),
        Variant("sitting it friday", Change(memories=("Maya sits her chemistry mocks on Friday.",)),
            NOOP, "the mock is still to be sat; no paper has arrived"),
        nothing(),
    ], bystanders=("If a parent cancels a lesson, add a line to tutoring/cancellations.md",))
_LOTS = ("# Harcourt & Vane stamp sale, 21 Oct: my lots\n\n"
         "| lot | description | estimate | result |\n|---|---|---|---|\n"
         "| 112 | 1840 Penny Black, 4 margins, red MX | 250-300 | |\n"
         "| 113 | 1840 Penny Black, 3 margins, fault | 80-120 | |\n| 240 | 1935 Silver Jubilee set, mint | 40-60 | |\n")
SITUATIONS += family(
    "penny black", "Tell me if lot 112, the Penny Black, sells for more than £300",
    {**HOME, "stamps/auction.md": _LOTS}, [
        Variant("sold 340", Change(write={"stamps/auction.md": _LOTS.replace(
            "| 250-300 | |", "| 250-300 | sold 340 |")}),
            ACT, "lot 112 sold for 340 GBP, over 300: tell the user"),
        Variant("sold 290", Change(write={"stamps/auction.md": _LOTS.replace(
            "| 250-300 | |", "| 250-300 | sold 290 |")}),
            NOOP, "lot 112 sold for 290 GBP, not over 300"),
        Variant("other black", Change(write={"stamps/auction.md": _LOTS.replace(
            "| 80-120 | |", "| 80-120 | sold 410 (!) |")}),
            NOOP, "the high price is for lot 113, the other Penny Black"),
        Variant("unsold", Change(write={"stamps/auction.md": _LOTS.replace(
            "| 250-300 | |", "| 250-300 | passed, top bid 220 |")}),
            NOOP, "lot 112 did not sell"),
    ])
SITUATIONS += family(
    "grandad's album", "If Harcourt & Vane send their valuation of Grandad's album, compare it with my catalogue "
    "values in stamps/album.md and tell me whether it's worth putting in their sale",
    {**HOME, "stamps/auction.md": _LOTS,
     "stamps/album.md": ("# Grandad's album (SG 2026 catalogue values)\n\n- Seahorses 1913, 2/6 to 1 GBP: 600\n"
                         "- 1929 PUC 1 GBP, used: 450\n- GB pre-decimal commemoratives, mint: 120\n"
                         "- Commonwealth mixed, about 900 stamps: 200\n")}, [
        Variant("valuation", Change(write={"inbox/2026-11-03-harcourt.txt": _mail(
            "Harcourt & Vane <valuations@harcourtvane.example>", "Valuation: the Whitlow album",
            "Our specialist suggests three lots: the Seahorses (toned perfs) at 250-350, the PUC pound at "
            "300-400, and the remainder as one lot at 80-120. Seller's commission 15 % plus VAT, 10 GBP per "
            "lot for photography.")}),
            ESCALATE, "the valuation came: comparing it with catalogue values after fees and advising needs "
                      "reasoning"),
        Variant("received", Change(write={"inbox/2026-10-27-harcourt.txt": _mail(
            "Harcourt & Vane <valuations@harcourtvane.example>", "Album received",
            "Thank you, the album arrived safely. Our specialist will send a valuation within three weeks.")}),
            NOOP, "the auction house only confirms it received the album; no valuation yet"),
    ], bystanders=("Tell me if lot 112, the Penny Black, sells for more than £300",))
_SEWING = ("# Stitch & Natter club thread\n\n"
           "Jan (Mon): Reminder, Thursday is the quilt-binding session, bring your walking foot.\n")
SITUATIONS += family(
    "overlocker", "if anyone at sewing club asks to borrow my overlocker, tell me who and when for",
    {**HOME, "sewing/club-thread.md": _SEWING}, [
        Variant("asks directly", Change(append={"sewing/club-thread.md": (
            "Gwen (Tue): @Linda could I possibly borrow your overlocker the weekend of the 18th? Making my "
            "granddaughter's dance costume.\n")}),
            ACT, "Gwen asked to borrow the overlocker for the 18th: tell the user"),
        Variant("serger", Change(write={"inbox/2026-02-10-faye.txt": _mail(
            "Faye Quinn <faye.q@example.net>", "Favour?",
            "Hi Linda, would you mind lending me your serger for a couple of days next week? Mine's gone off "
            "for a service.")}),
            ACT, "a serger is an overlocker; Faye asks to borrow it next week: tell the user"),
        Variant("different item", Change(append={"sewing/club-thread.md": (
            "Gwen (Tue): Linda, can I borrow your rotary cutter on Thursday? Mine's blunt.\n")}),
            NOOP, "Gwen wants the rotary cutter, not the overlocker"),
        Variant("offers hers", Change(append={"sewing/club-thread.md": (
            "Pam (Tue): If anyone needs an overlocker I've got a spare one going in the loft.\n")}),
            NOOP, "Pam is offering her own overlocker; nobody asked for the user's"),
    ])
_LIST = ("# quillmark-dev list, this week\n\n- [RFC] drop Python 3.9 in 4.0 (Ade)\n"
         "- Re: docs theme refresh (Mirela)\n")
SITUATIONS += family(
    "parser security", "If someone reports a security problem in the parser on the quillmark dev list, summarise "
    "the report for me",
    {**HOME, "oss/list-digest.md": _LIST}, [
        Variant("redos report", Change(write={"mail/quillmark/2026-04-08-redos.txt": _mail(
            "Hana Ito <hana@example.dev>", "[quillmark-dev] Catastrophic backtracking in link parser",
            "A crafted input of 30 kB with nested brackets makes parse() take over a minute (regex in "
            "inline/links.py). Affects 3.x and main. I can share the input privately.")}),
            ACT, "a denial-of-service report against the parser: summarise it"),
        Variant("digest line", Change(append={"oss/list-digest.md": (
            "- Possible XSS: raw HTML in headings escapes the sanitiser in the parser (Tom R., PoC attached)\n")}),
            ACT, "a possible XSS in the parser was reported: summarise that report"),
        Variant("old cve mentioned", Change(write={"mail/quillmark/2026-04-08-release.txt": _mail(
            "Ade Bello <ade@example.dev>", "[quillmark-dev] 3.8.2 released",
            "3.8.2 is out: typo fixes and a faster table renderer. Reminder that the table parser fix for last "
            "year's CVE-2025-3310 has been in since 3.6.")}),
            NOOP, "a release note restating last year's fixed issue is not a new security report"),
    ])
SITUATIONS += family(
    "tomasz v2", "When Tomasz sends v2 of his config-loader patch to the list, review it against my v1 comments in "
    "oss/review-v1.md and draft my reply",
    {**HOME, "oss/list-digest.md": _LIST,
     "oss/review-v1.md": ("v1 of Tomasz's config loader: 1) don't swallow YAML errors, 2) env vars should win over "
                          "the file, 3) needs tests for missing keys, 4) rename load_cfg to load_config.\n")}, [
        Variant("v2 posted", Change(write={"mail/quillmark/2026-04-10-v2.txt": _mail(
            "Tomasz Wrona <tomasz@example.dev>", "[PATCH v2] config: new loader",
            "Changes since v1: YAML errors now raise ConfigError; env vars override the file; renamed to "
            "load_config. Tests for missing keys will follow in a separate patch.\n\n--- a/config.py\n"
            "+++ b/config.py\n@@ ...")}),
            ESCALATE, "v2 arrived: checking it against four review points and drafting a reply needs reasoning"),
        Variant("next week", Change(write={"mail/quillmark/2026-04-09-tomasz.txt": _mail(
            "Tomasz Wrona <tomasz@example.dev>", "Re: [PATCH] config: new loader",
            "Thanks for the review, all fair. I'll send a v2 next week once I've written the tests.")}),
            NOOP, "Tomasz only promises v2 for next week"),
        Variant("someone else v2", Change(write={"mail/quillmark/2026-04-10-v2.txt": _mail(
            "Mirela Popa <mirela@example.dev>", "[PATCH v2] docs: new theme",
            "v2 addresses the colour contrast comments.")}),
            NOOP, "this v2 is Mirela's docs patch, not Tomasz's config loader"),
    ], bystanders=("If someone reports a security problem in the parser on the quillmark dev list, summarise the "
                   "report for me",))
_BOARD = ("# Lanterns Players noticeboard\n\n- Auditions for The Winter's Tale held 2 and 4 Sept, thanks to all 31 "
          "of you who came!\n")
SITUATIONS += family(
    "cast list", "Let me know as soon as the cast list for The Winter's Tale goes up",
    {**HOME, "drama/noticeboard.md": _BOARD}, [
        Variant("posted", Change(append={"drama/noticeboard.md": (
            "- 9 Sept: The Winter's Tale is cast! Leontes: Owen Pryce. Hermione: Bethan Lloyd. Paulina: Carys "
            "Evans. Autolycus: Dai Morgan. Full list pinned in the green room, read-through Tuesday.\n")}),
            ACT, "the cast list is up: tell the user"),
        Variant("recalls", Change(append={"drama/noticeboard.md": (
            "- 6 Sept: recalls for Hermione and Paulina on Thursday; casting announced after that.\n")}),
            NOOP, "only recalls are announced; the cast list is still to come"),
        Variant("youth cast", Change(append={"drama/noticeboard.md": (
            "- 9 Sept: Lanterns Youth have cast their panto, Aladdin. Well done everyone!\n")}),
            NOOP, "the youth panto was cast, not The Winter's Tale"),
    ])
_BIRDS = ("# County bird sightings (copied from the recorder's page)\n\n"
          "- 12 Jan: 2 Bewick's swans, Marden Flash\n- 12 Jan: firecrest, St Wilfrid's churchyard\n")
SITUATIONS += family(
    "waxwings", "If anyone reports waxwings on the sightings page (birds/sightings.md), tell me where",
    {**HOME, "birds/sightings.md": _BIRDS}, [
        Variant("retail park", Change(append={"birds/sightings.md": (
            "- 14 Jan: flock of 23 waxwings on the rowans by Aldi, Kingsway retail park, still there at 3 pm\n")}),
            ACT, "waxwings reported at the Kingsway retail park: tell the user where"),
        Variant("latin name", Change(append={"birds/sightings.md": (
            "- 15 Jan: 6 Bombycilla garrulus, Hollins Road cemetery, feeding on berries\n")}),
            ACT, "Bombycilla garrulus is the waxwing: tell the user it is at Hollins Road cemetery"),
        Variant("none yet", Change(append={"birds/sightings.md": (
            "- 14 Jan: still no waxwings in the county this winter despite big numbers up north\n")}),
            NOOP, "the note says there are no waxwings in the county"),
    ])
_MATCHES = ("# DNA matches (from the testing site)\n\n| name | shared cM | predicted |\n|---|---|---|\n"
            "| J. Corrigan | 61 | 3rd-4th cousin |\n| Aoife M. | 34 | 4th-6th cousin |\n")
SITUATIONS += family(
    "dna match", "If a new DNA match comes up as second cousin or closer, work out where they fit in the family "
    "tree (family/tree.md) and which line they're from",
    {**HOME, "family/dna-matches.md": _MATCHES,
     "family/tree.md": ("# Tree\n\nMe <- Dad (Brendan Kehoe, b 1950) <- Grandad Michael Kehoe (b 1921, Wexford, "
                        "7 siblings)\nMe <- Mum (Ann Foley) <- Granny Nora Foley nee Byrne (b 1925, Liverpool)\n")}, [
        Variant("first cousin once removed", Change(append={"family/dna-matches.md": (
            "| Brigid Kehoe Walsh | 412 | 1st-2nd cousin |\n")}),
            ESCALATE, "a close new match: placing her in the tree needs reasoning over the family lines"),
        Variant("cm only", Change(append={"family/dna-matches.md": "| R. Byrne-Hughes | 290 | 2C or 1C2R |\n"}),
            ESCALATE, "predicted second cousin or first cousin twice removed: work out where he fits"),
        Variant("distant", Change(append={"family/dna-matches.md": "| T. Doyle | 29 | 5th-8th cousin |\n"}),
            NOOP, "a 5th-8th cousin is far more distant than second cousin"),
    ])
