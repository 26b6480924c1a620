"""The held-out labelled set no. 6 for ``bench/judgement.py``, written without reading how the product decides.

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


SITUATIONS += family("accountant asks", "Let me know if my accountant asks me for anything", {
    **HOME,
    "mail/2026-03-02-petra.txt": _mail("Petra Holm <petra@holm-tax.example>", "Tax return 2025 started",
                                       "Thanks for the bank statements. I have started on your 2025 return."),
}, [
    Variant("asks for receipts", Change(write={"mail/2026-03-09-petra.txt": _mail(
        "Petra Holm <petra@holm-tax.example>", "Two things missing",
        "Could you send me the receipts for the home office desk and the train pass by Friday? "
        "Then I can file the return.")}),
        ACT, "the accountant asks for two receipts by Friday: tell the user"),
    Variant("asks in a call", Change(memories=(
        "Petra, my accountant, rang: she needs the statement of the rental income from the flat before the 20th.",)),
        ACT, "the accountant asked for the rental income statement: tell the user"),
    Variant("holiday notice", Change(write={"mail/2026-03-09-holm-tax.txt": _mail(
        "Holm Tax Office <office@holm-tax.example>", "Office closed over Easter",
        "Our office is closed from 3 to 6 April. We wish all our clients a happy Easter.")}),
        NOOP, "a closing notice from the office asks the user for nothing"),
    Variant("nothing more needed", Change(write={"mail/2026-03-09-petra.txt": _mail(
        "Petra Holm <petra@holm-tax.example>", "Re: Tax return 2025",
        "Good news: I have everything I need, there is nothing else you have to send me. I will file next week.")}),
        NOOP, "the accountant says she needs nothing more"),
])

SITUATIONS += family("photo sync", "Warn me if the nightly photo sync to the NAS fails", {
    **HOME,
    "ops/logs/nas-sync.log": (
        "2026-03-07 01:30:02 job=photos-sync start\n"
        "2026-03-07 01:41:55 job=photos-sync done: 412 copied, 0 failed\n"
        "2026-03-07 01:45:00 job=docs-sync done: 18 copied, 0 failed\n"
    ),
}, [
    Variant("photos failed", Change(append={"ops/logs/nas-sync.log": (
        "2026-03-08 01:30:01 job=photos-sync start\n"
        "2026-03-08 01:33:40 job=photos-sync FAILED: write error on /volume1/photos (read-only file system)\n")}),
        ACT, "last night's photo sync failed: warn the user"),
    Variant("nas unreachable", Change(append={"ops/logs/nas-sync.log": (
        "2026-03-08 01:30:01 job=photos-sync start\n"
        "2026-03-08 01:30:31 job=photos-sync aborted: host nas.local not reachable after 3 attempts\n")}),
        ACT, "the photo sync was aborted because the NAS could not be reached: it failed, warn the user"),
    Variant("zero failed", Change(append={"ops/logs/nas-sync.log": (
        "2026-03-08 01:30:02 job=photos-sync start\n"
        "2026-03-08 01:39:12 job=photos-sync done: 97 copied, 0 failed\n")}),
        NOOP, "the word 'failed' only appears as a count of zero: the sync worked"),
    Variant("docs sync failed", Change(append={"ops/logs/nas-sync.log": (
        "2026-03-08 01:45:03 job=docs-sync FAILED: permission denied on /volume1/docs/taxes\n")}),
        NOOP, "the document sync failed, not the photo sync the task watches"),
])

SITUATIONS += family("tallow contract", "Review the freelance contract from Tallow Studio when it arrives", {
    **HOME,
    "inbox/2026-03-03-tallow.txt": _mail("Jana Vos <jana@tallowstudio.example>", "Illustration work",
                                         "Lovely to talk today. We would like you for the spring catalogue."),
}, [
    Variant("contract mailed", Change(write={"inbox/2026-03-09-tallow.txt": _mail(
        "Jana Vos <jana@tallowstudio.example>", "Your contract for the spring catalogue",
        "Here is the contract as agreed.\n\n1. Scope: 24 illustrations, delivered by 30 April.\n"
        "2. Fee: 4,800 EUR, paid 60 days after delivery.\n3. Rights: all rights pass to Tallow Studio, "
        "worldwide and without time limit.\n4. Revisions: unlimited until approval.\n\nPlease sign and return.")}),
        ESCALATE, "the contract from Tallow arrived: reviewing its terms (rights, revisions, payment) takes reasoning"),
    Variant("contract as document", Change(write={"documents/contracts/tallow-studio-2026.md": (
        "# Freelance agreement: Tallow Studio\n\nThe illustrator grants Tallow Studio an exclusive licence "
        "for three years.\nFee: 4,800 EUR. Late delivery costs 100 EUR per day.\nEither side may end the "
        "agreement with 14 days' notice.\n")}),
        ESCALATE, "Tallow's contract landed as a document: review it"),
    Variant("contract promised", Change(write={"inbox/2026-03-09-tallow.txt": _mail(
        "Jana Vos <jana@tallowstudio.example>", "Contract next week",
        "Our lawyer is still on the wording; you will get the contract early next week.")}),
        NOOP, "the contract is only promised for next week; there is nothing to review yet"),
    Variant("another client's contract", Change(write={"inbox/2026-03-09-birchwood.txt": _mail(
        "Omar Reed <omar@birchwoodpress.example>", "Contract for the book cover",
        "Attached is our standard contract for the cover of 'The Salt Marsh'. Fee 900 EUR.")}),
        NOOP, "this contract is from Birchwood Press, not Tallow Studio"),
])

_CALENDAR = (
    "# Calendar, March 2026\n\n"
    "- Thu 12 Mar 18:00  choir rehearsal\n"
    "- Fri 13 Mar 09:30  dentist\n"
    "- Sat 14 Mar 11:00  Lily's swimming lesson\n"
)
SITUATIONS += family("friday 13", "Tell me if anything new goes on my calendar for Friday the 13th", {
    **HOME, "calendar.md": _CALENDAR,
}, [
    Variant("meeting added", Change(write={"calendar.md": _CALENDAR.replace(
        "- Fri 13 Mar 09:30  dentist\n",
        "- Fri 13 Mar 09:30  dentist\n- Fri 13 Mar 14:00  budget review with Karim (room 3.12)\n")}),
        ACT, "a budget review was added on Friday 13 March: tell the user"),
    Variant("added in short form", Change(append={"calendar.md": "- 13/03 16:30  haircut at Studio Nine\n"}),
        ACT, "13/03 is Friday the 13th: a haircut was added that day"),
    Variant("thursday added", Change(write={"calendar.md": _CALENDAR.replace(
        "- Thu 12 Mar 18:00  choir rehearsal\n",
        "- Thu 12 Mar 08:00  car to the garage\n- Thu 12 Mar 18:00  choir rehearsal\n")}),
        NOOP, "the new entry is on Thursday the 12th, not Friday the 13th"),
    Variant("dentist re-edited", Change(write={"calendar.md": _CALENDAR.replace(
        "09:30  dentist", "09:30  dentist (Dr Lund, bring the insurance card)")}),
        NOOP, "the Friday dentist entry was already there; only a note was added to it"),
])

SITUATIONS += family("heating oil", "Tell me when heating oil drops below 95 EUR per 100 litres", {
    **HOME,
    "home/heating-oil.md": ("# Heating oil prices (per 100 l, for 3,000 l delivered)\n\n"
                            "2026-03-02  101.40 EUR\n2026-03-05  98.90 EUR\n"),
}, [
    Variant("below", Change(append={"home/heating-oil.md": "2026-03-09  93.80 EUR\n"}),
            ACT, "93.80 EUR is below 95: tell the user"),
    Variant("exactly 95", Change(append={"home/heating-oil.md": "2026-03-09  95.00 EUR\n"}),
            NOOP, "95.00 EUR is not below 95"),
    Variant("forecast", Change(append={"home/heating-oil.md": (
        "2026-03-09  96.70 EUR\nDealer says prices could fall below 95 EUR next week if crude keeps sliding.\n")}),
        NOOP, "the price is 96.70; under 95 is only a forecast"),
    Variant("diesel", Change(write={"car/fuel-prices.md": "2026-03-09 diesel at the Ring Road station: "
                                                         "1.59 EUR/l, 94 EUR for a full tank\n"}),
            NOOP, "94 EUR is a tank of diesel, not heating oil per 100 litres"),
])

SITUATIONS += family("bergen storm", "If a storm warning comes out for Bergen while we're there, work out a plan B", {
    **HOME,
    "travel/bergen.md": ("# Bergen, 14-17 March\n\nSat 14: fish market, Floyen funicular\n"
                         "Sun 15: fjord boat trip (booked, 10:00)\nMon 16: Bryggen, KODE museums\n"
                         "Tue 17: flight home 15:20\n"),
    "travel/weather-alerts.txt": "2026-03-08 Western Norway: no warnings in force.\n",
}, [
    Variant("warning for sunday", Change(append={"travel/weather-alerts.txt": (
        "2026-03-10 ORANGE WARNING, storm: Vestland incl. Bergen, Sun 15 March 06:00 to Mon 16 March 03:00. "
        "Gusts up to 30 m/s, ferries and boat trips likely cancelled.\n")}),
        ESCALATE, "a storm hits Bergen on the day of the boat trip: rework the plan"),
    Variant("hotel tells me", Change(memories=(
        "The Bergen hotel emailed: a storm warning is out for our stay from Monday morning, "
        "they advise against the mountain trails.",)),
        ESCALATE, "a storm warning covers part of the stay: working out a plan B needs reasoning"),
    Variant("warning for trondheim", Change(append={"travel/weather-alerts.txt": (
        "2026-03-10 YELLOW WARNING, strong wind: Trondheim and Trondelag coast, Sun 15 March.\n")}),
        NOOP, "the warning is for Trondheim, not Bergen"),
    Variant("after we leave", Change(append={"travel/weather-alerts.txt": (
        "2026-03-10 ORANGE WARNING, storm: Vestland incl. Bergen, Fri 20 March to Sat 21 March.\n")}),
        NOOP, "the storm comes three days after the flight home on the 17th"),
])

SITUATIONS += family("dad's flights", "Ping me when Dad adds his flight times to family/reunion.md", {
    **HOME,
    "family/reunion.md": ("# Family reunion, Easter weekend\n\nWho arrives when (please fill in!)\n"
                          "- Me: driving up Thursday evening\n- Aunt Rosa: train, Friday 11:05\n"),
}, [
    Variant("dad fills in", Change(append={"family/reunion.md": (
        "- Dad: flight LH 2143 from Munich, lands Thursday 16:40, going back Monday 19:15\n")}),
        ACT, "Dad added his flight times: ping the user"),
    Variant("mum fills in", Change(append={"family/reunion.md": "- Mum: flying KL 1781, lands Friday 09:50\n"}),
            NOOP, "Mum added her flight, not Dad"),
    Variant("dad promises", Change(append={"family/reunion.md": (
        "- Dad: not booked yet, will put my flight times here once I have them\n")}),
        NOOP, "Dad only promises to add his flight times later"),
    nothing(),
])

SITUATIONS += family("urgent to-do", "If anything on my to-do list gets marked urgent, remind me", HOME, [
    Variant("urgent item", Change(append={"notes/todo.md": (
        "- URGENT: renew the residents' parking permit, it runs out on Friday\n")}),
        ACT, "a to-do marked urgent was added: remind the user of it"),
    Variant("not urgent", Change(append={"notes/todo.md": "- sort the holiday photos (not urgent)\n"}),
            NOOP, "the new item is explicitly not urgent"),
    Variant("plain item", Change(append={"notes/todo.md": "- buy a birthday card for Tom\n"}),
            NOOP, "a new to-do, but nothing marks it urgent"),
    unrelated("notes/urgent-care.md", "Nearest urgent care clinic: Harbour Road 4, open 8-22, tel. 555 0142.\n",
              "a note about an urgent care clinic is not an item on the to-do list"),
])

SITUATIONS += family("sofa date", "Tell me when the furniture shop gives me a delivery date for the sofa", {
    **HOME,
    "mail/2026-02-20-hallberg.txt": _mail("Hallberg Furniture <orders@hallberg.example>", "Order 55812 confirmed",
                                          "Thank you for ordering the Alva 3-seater sofa (moss green) and the "
                                          "Alva armchair. Delivery times follow separately."),
}, [
    Variant("sofa date mailed", Change(write={"mail/2026-03-09-hallberg.txt": _mail(
        "Hallberg Furniture <orders@hallberg.example>", "Order 55812: delivery of your sofa",
        "Your Alva 3-seater sofa will be delivered on Tuesday 17 March between 8:00 and 12:00.")}),
        ACT, "the shop gave the sofa's delivery date: tell the user"),
    Variant("sofa date by phone", Change(memories=(
        "Hallberg rang about the sofa: they will bring it on Thursday the 19th, in the afternoon.",)),
        ACT, "the sofa's delivery date came in a call the user told the assistant about"),
    Variant("armchair date", Change(write={"mail/2026-03-09-hallberg.txt": _mail(
        "Hallberg Furniture <orders@hallberg.example>", "Order 55812: delivery of your armchair",
        "Your Alva armchair will be delivered on Monday 16 March. The sofa is still in production.")}),
        NOOP, "the date is for the armchair; the sofa has none yet"),
    Variant("date to follow", Change(write={"mail/2026-03-09-hallberg.txt": _mail(
        "Hallberg Furniture <orders@hallberg.example>", "Order 55812 update",
        "Your sofa has left our factory. We will contact you within a week to agree a delivery date.")}),
        NOOP, "the shop will agree a date later; no date is given"),
])

SITUATIONS += family("emissions figure", "Let me know once the 2025 emissions figure is in the sustainability report", {
    **HOME,
    "work/sustainability-report.md": ("# Sustainability report 2025 (draft)\n\n## Emissions\n\n"
                                      "2024: 1,240 t CO2e (scopes 1 and 2)\n2025: [to come]\n\n"
                                      "## Travel\n\nBusiness flights fell by a fifth.\n"),
}, [
    Variant("figure filled in", Change(write={"work/sustainability-report.md": (
        "# Sustainability report 2025 (draft)\n\n## Emissions\n\n2024: 1,240 t CO2e (scopes 1 and 2)\n"
        "2025: 1,085 t CO2e (scopes 1 and 2), down 12.5 %\n\n## Travel\n\nBusiness flights fell by a fifth.\n")}),
        ACT, "the 2025 emissions figure is now in the report: tell the user"),
    Variant("2024 corrected", Change(write={"work/sustainability-report.md": (
        "# Sustainability report 2025 (draft)\n\n## Emissions\n\n2024: 1,262 t CO2e (scopes 1 and 2, corrected)\n"
        "2025: [to come]\n\n## Travel\n\nBusiness flights fell by a fifth.\n")}),
        NOOP, "only the 2024 figure was corrected; 2025 is still to come"),
    Variant("still pending", Change(append={"work/sustainability-report.md": (
        "\nNote from Ines: the 2025 emissions figure is still pending, facilities send the meter data in April.\n")}),
        NOOP, "the note says the 2025 figure is still pending"),
])

SITUATIONS += family("novel ideas", "Whenever I tell you an idea for my novel, add it as a line to writing/ideas.md", {
    **HOME,
    "writing/ideas.md": "# Ideas for 'The Lighthouse Year'\n\n- the keeper's daughter keeps a second logbook\n",
}, [
    Variant("plot idea", Change(memories=(
        "Idea for the novel: the supply boat stops coming in chapter 9 and nobody on the island says why.",)),
        ACT, "the user shared an idea for the novel: add it as one line to writing/ideas.md"),
    Variant("character idea", Change(memories=(
        "For the book: what if the inspector from the mainland turns out to be the keeper's brother?",)),
        ACT, "a character idea for the novel: append it to the ideas file"),
    Variant("read a novel", Change(memories=(
        "Finished reading 'The Night Watchman', a brilliant novel; I'd give it five stars.",)),
        NOOP, "a book the user read is not an idea for their own novel"),
    Variant("no ideas", Change(memories=("No new ideas for the novel this week, too busy with the move.",)),
            NOOP, "the user says there are no new ideas"),
])

SITUATIONS += family("house-warming", "Once I pick a date for the house-warming, prepare a guest list and invitation", {
    **HOME,
    "notes/friends.md": ("# People\n\n- Sara and Tom (neighbours from the old flat)\n- Kemal, Ines (work)\n"
                         "- climbing group: Jo, Priya, Lukas\n- cousin Mira\n"),
    "notes/house-warming.md": "# House-warming\n\nDate: not decided (March or April?)\nFood: barbecue if warm\n",
}, [
    Variant("date as memory", Change(memories=(
        "Decided: the house-warming is on Saturday 28 March, from 4 pm.",)),
        ESCALATE, "the date is set: drawing up a guest list and writing an invitation takes several steps"),
    Variant("date in the notes", Change(write={"notes/house-warming.md": (
        "# House-warming\n\nDate: Saturday 11 April, 3 pm until late\nFood: barbecue if warm\n")}),
        ESCALATE, "the notes now fix the date: prepare the guest list and the invitation"),
    Variant("still undecided", Change(memories=(
        "Still can't choose between the 28th of March and the 11th of April for the house-warming.",)),
        NOOP, "the user has not picked a date yet"),
    Variant("sara's party", Change(memories=("Sara's house-warming is on 21 March; bring a plant.",)),
            NOOP, "that is Sara's house-warming, not the user's"),
])

SITUATIONS += family("electrician invoice", "When the electrician's invoice comes in, check it against his quote", {
    **HOME,
    "house/electrician-quote.md": ("# Quote, Volt & Sons, 12 Feb 2026\n\n- new fuse box: 690 EUR\n"
                                   "- 4 extra sockets in the study: 4 x 85 EUR\n- labour, 1.5 days: 540 EUR\n"
                                   "Total: 1,570 EUR incl. VAT\n"),
}, [
    Variant("invoice mailed", Change(write={"mail/2026-03-09-volt.txt": _mail(
        "Volt & Sons <billing@voltandsons.example>", "Invoice 2026-117",
        "New fuse box 690 EUR\n6 sockets in the study, 6 x 85 EUR = 510 EUR\nLabour, 2 days: 720 EUR\n"
        "Call-out fee 60 EUR\nTotal due: 1,980 EUR incl. VAT, payable within 14 days.")}),
        ESCALATE, "the invoice arrived: matching it line by line against the quote is a comparison"),
    Variant("invoice in house folder", Change(write={"house/invoice-volt-2026-117.md": (
        "Volt & Sons, invoice 2026-117\nFuse box 690 EUR, 4 sockets 340 EUR, labour 540 EUR\n"
        "Total: 1,570 EUR incl. VAT\n")}),
        ESCALATE, "the invoice was saved to house/: it still has to be checked against the quote"),
    Variant("roofer's invoice", Change(write={"mail/2026-03-09-topslate.txt": _mail(
        "TopSlate Roofing <accounts@topslate.example>", "Invoice 8841",
        "Replacing 14 slates and a ridge tile: 860 EUR incl. VAT.")}),
        NOOP, "this is the roofer's invoice, not the electrician's"),
    Variant("invoice to follow", Change(write={"mail/2026-03-09-volt.txt": _mail(
        "Volt & Sons <office@voltandsons.example>", "Job finished",
        "All done at your house. Our invoice will follow once the grid operator has signed off the fuse box.")}),
        NOOP, "the invoice is only announced; it has not come"),
])

SITUATIONS += family("club minutes", "Summarise each new set of minutes in club/minutes/", {
    **HOME,
    "club/minutes/2026-02-10.md": ("# Rowing club committee, 10 Feb 2026\n\nPresent: Ada, Finn, Grete, me\n"
                                   "- Boat shed roof: get two quotes.\n- Spring regatta on 25 April.\n"),
}, [
    Variant("march minutes", Change(write={"club/minutes/2026-03-09.md": (
        "# Rowing club committee, 9 Mar 2026\n\nPresent: Ada, Finn, me (Grete sent apologies)\n"
        "- Roof: the second quote (3,200 EUR) accepted, work starts in April.\n"
        "- Membership fee stays at 180 EUR a year.\n- Regatta: Finn looks for volunteers for the bar.\n")}),
        ACT, "a new set of minutes arrived: summarise it"),
    Variant("extraordinary meeting", Change(write={"club/minutes/2026-03-02-extraordinary.md": (
        "# Extraordinary general meeting, 2 Mar 2026\n\n31 members present.\n"
        "- Vote on selling the old eight: 24 for, 5 against, 2 abstentions. Carried.\n")}),
        ACT, "minutes of an extraordinary meeting are new minutes too: summarise them"),
    Variant("typo fixed", Change(write={"club/minutes/2026-02-10.md": (
        "# Rowing club committee, 10 Feb 2026\n\nPresent: Ada, Finn, Grete, me\n"
        "- Boat shed roof: get two quotes.\n- Spring regatta on 26 April.\n")}),
        NOOP, "old minutes had a date corrected; no new minutes came in"),
    Variant("agenda", Change(write={"club/agenda-2026-04-13.md": (
        "# Agenda, committee 13 Apr\n\n1. Regatta volunteers\n2. Roof works\n3. Any other business\n")}),
        NOOP, "an agenda for a coming meeting is not minutes"),
])

SITUATIONS += family("mortgage offer", "When Hallam Bank sends the new fixed-rate offer for the mortgage, "
                     "compare it with what I pay now", {
    **HOME,
    "money/mortgage.md": ("# Mortgage, Hallam Bank\n\nBalance: 212,400 EUR\nFixed at 1.35 % until 30 June 2026\n"
                          "Monthly payment: 1,020 EUR\n"),
}, [
    Variant("offer arrives", Change(write={"mail/2026-03-09-hallam.txt": _mail(
        "Hallam Bank <mortgages@hallambank.example>", "Your new fixed-rate offer",
        "From 1 July 2026 we can offer you: 5 years fixed at 3.45 % (monthly 1,295 EUR) or 10 years fixed "
        "at 3.70 % (monthly 1,210 EUR). A 250 EUR fee applies to both. Reply by 15 May.")}),
        ESCALATE, "the offer arrived: comparing two new rates with the current payment takes working out"),
    Variant("offer promised", Change(write={"mail/2026-03-09-hallam.txt": _mail(
        "Hallam Bank <mortgages@hallambank.example>", "Your fixed rate ends on 30 June",
        "Your personal offer for a new fixed rate will reach you by 20 March.")}),
        NOOP, "the bank only says when the offer will come"),
    Variant("savings rate", Change(write={"mail/2026-03-09-hallam.txt": _mail(
        "Hallam Bank <news@hallambank.example>", "Better rates on your savings",
        "From 1 April the rate on Hallam Easy Saver rises to 2.10 %.")}),
        NOOP, "a savings rate change is not the mortgage offer"),
    unrelated("notes/books.md", "Books to read: Tomorrow, and Tomorrow, and Tomorrow; Small Things Like These.\n"),
])

SITUATIONS += family("car inspection", "If the car fails its inspection, work out what needs fixing and what it will "
                     "roughly cost", {
    **HOME,
    "car/inspection.md": "# Inspection, Skoda Fabia HB-771\n\nBooked: Mon 9 March, 08:00, TestPoint North\n",
}, [
    Variant("failed", Change(append={"car/inspection.md": (
        "\nResult 9 March: FAILED\n- front brake discs below minimum thickness (major)\n"
        "- left dipped headlight out of alignment (minor)\n- exhaust mounting loose (minor)\n"
        "Re-test within 30 days.\n")}),
        ESCALATE, "the car failed: working out the repairs and their cost needs reasoning"),
    Variant("passed with advisories", Change(append={"car/inspection.md": (
        "\nResult 9 March: PASSED\nAdvisories: rear tyres near the limit, slight oil seep at the sump.\n")}),
        NOOP, "the car passed; advisories are not a failure"),
    Variant("moved", Change(write={"car/inspection.md": (
        "# Inspection, Skoda Fabia HB-771\n\nBooked: Thu 12 March, 08:00, TestPoint North (moved by them)\n")}),
        NOOP, "the inspection was only moved; there is no result yet"),
    nothing(),
])

SITUATIONS += family("friday flight", "Warn me if the gate or the time of my Friday flight changes", {
    **HOME,
    "travel/flights.md": ("# Trips\n\nFri 13 Mar  SK 1467  Copenhagen -> Oslo, dep 07:10, gate B12\n"
                          "Sun 15 Mar  SK 1470  Oslo -> Copenhagen, dep 20:35\n"),
    "travel/flight-updates.txt": "2026-03-11 18:00 SK 1467 on time, gate B12\n",
}, [
    Variant("gate change", Change(append={"travel/flight-updates.txt": (
        "2026-03-13 05:52 SK 1467 GATE CHANGE: now departing from gate C27\n")}),
        ACT, "Friday's flight moved from gate B12 to C27: warn the user"),
    Variant("delayed", Change(append={"travel/flight-updates.txt": (
        "2026-03-13 05:40 SK 1467 new departure time 08:05 (late incoming aircraft)\n")}),
        ACT, "Friday's flight now leaves at 08:05 instead of 07:10: warn the user"),
    Variant("return flight", Change(append={"travel/flight-updates.txt": (
        "2026-03-13 06:10 SK 1470 (Sun 15 Mar) new departure time 21:50\n")}),
        NOOP, "the change is to Sunday's return flight, not the Friday one"),
    Variant("as scheduled", Change(append={"travel/flight-updates.txt": (
        "2026-03-13 06:15 SK 1467 boarding from 06:40 at gate B12, departure 07:10 as scheduled\n")}),
        NOOP, "gate and time are unchanged"),
])

SITUATIONS += family("urgent replies", "Check my inbox for anything urgent and draft a reply to it", {
    **HOME,
    "inbox/2026-03-06-karim.txt": _mail("Karim Said <karim@work.example>", "Slides for April",
                                        "When you have a moment, could you look at the April slides?"),
}, [
    Variant("client escalation", Change(write={"inbox/2026-03-09-fenwick.txt": _mail(
        "Lara Fenwick <lara@fenwick-logistics.example>", "URGENT: invoices not going out",
        "Since your update this morning our system sends no invoices at all. We need this fixed today or we "
        "miss the month-end run. Please call me back within the hour.")}),
        ESCALATE, "an urgent client problem arrived: drafting the reply needs thought"),
    Variant("decision by 5 pm", Change(write={"inbox/2026-03-09-ines.txt": _mail(
        "Ines Duarte <ines@work.example>", "Need your go-ahead before 5 pm",
        "The printer needs the final go-ahead for the brochure by 5 pm today, otherwise we lose the slot "
        "and the launch slips a week. Can you confirm the budget of 2,300 EUR?")}),
        ESCALATE, "a same-day decision is requested: a reply has to be drafted"),
    Variant("sales urgency", Change(write={"inbox/2026-03-09-shopnow.txt": _mail(
        "ShopNow <deals@shopnow.example>", "Urgent: only 3 hours left!",
        "Our spring sale ends tonight. Act now and get 25 % off garden furniture.")}),
        NOOP, "'urgent' in a sales mail is advertising, not something urgent for the user"),
    Variant("no rush", Change(write={"inbox/2026-03-09-karim.txt": _mail(
        "Karim Said <karim@work.example>", "Re: Slides for April",
        "Small follow-up on the slides, no rush at all, any time before the end of the month is fine.")}),
        NOOP, "the colleague says explicitly there is no rush"),
    nothing(),
])
