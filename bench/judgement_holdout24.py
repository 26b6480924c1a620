"""The held-out labelled set no. 24 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families are not in that file
or in set no. 23; the other held-out sets were not read, so a theme may recur there by chance. Each family is one
top-level statement, so the set grows by appending. The theme is community and civic life: library holds and a
library's opening hours, bin collections and a bulky waste pick-up, a residents' parking permit, planning
applications next door and on a garage site, jury service, polling stations, a by-election count and a poll clerk's
day, a choir's attendance and its autumn scores, an allotment society's water and waiting list, children's football,
a swimming gala, tennis courts, a cricket club's insurance, a Sunday league's pitch, neighbourhood watch bulletins
and crime figures, a church hall, a mosque's small hall and a community hall's timetable, a gurdwara's langar rota,
a repair café, a litter pick, council consultations and a draft Local Plan, roadworks, a parish council's minutes, a
residents' association's service charge and a section 20 notice, a PTA's summer fair, a food bank's rota and stock
sheet, and charity fundraising. Formats vary: CSV, Markdown tables, bulleted notices, mails, minutes and memories.
Most variants are near misses: the watched thing changes but the condition is not met (another person, ward, street,
team, row, slot, site or month; exactly on a threshold; a proposal, a request received, a hope or a date still to be
fixed instead of a fact; the same word in another sense; the right thing in the wrong file; a mail from the awaited
sender about something else). Some conditions can only be judged with rows already in the file (a running total, a
rise on last year, a personal best, a day of the week), several are met by rewriting a whole file, and two families
hold only near misses. The text is the project's own.
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
)
from bench.judgement_set import (
    mail as _mail,
)

SITUATIONS: list[Situation] = []


_HOLDS = ("# Library holds (Eastgate Library)\n\n| title | author | status |\n|---|---|---|\n"
          "| The Salt Path | Raynor Winn | in transit |\n"
          "| Tomorrow, and Tomorrow, and Tomorrow | Gabrielle Zevin | waiting, 6th in queue |\n"
          "| Lessons in Chemistry | Bonnie Garmus | waiting, 2nd in queue |\n")
SITUATIONS += family(
    "library holds", "tell me when any of my library holds are ready to pick up (library/holds.md)",
    {**HOME, "library/holds.md": _HOLDS}, [
        Variant("salt path in", Change(write={"library/holds.md": _HOLDS.replace(
            "| The Salt Path | Raynor Winn | in transit |",
            "| The Salt Path | Raynor Winn | available at Eastgate, collect by 21 March |")}),
                ACT, "The Salt Path is waiting at Eastgate to be collected: tell them"),
        Variant("chemistry on shelf", Change(write={"library/holds.md": _HOLDS.replace(
            "| Lessons in Chemistry | Bonnie Garmus | waiting, 2nd in queue |",
            "| Lessons in Chemistry | Bonnie Garmus | on the hold shelf until Sat 14 March |")}),
                ACT, "Lessons in Chemistry is on the hold shelf, so it can be picked up: tell them"),
        Variant("queue moves", Change(write={"library/holds.md": _HOLDS.replace(
            "waiting, 2nd in queue", "waiting, 1st in queue")}),
                NOOP, "Lessons in Chemistry only moves up to first in the queue; it is not ready yet"),
        Variant("new hold", Change(append={"library/holds.md": (
            "| Demon Copperhead | Barbara Kingsolver | waiting, 11th in queue |\n")}),
                NOOP, "a new hold is placed, eleventh in the queue; nothing is ready"),
    ])

_BINS = ("# Bins - 14 Wren Road\n\n| bin | what | collection |\n|---|---|---|\n"
         "| black | general waste | Thursday, fortnightly (2, 16, 30 April) |\n"
         "| blue | recycling | Thursday, fortnightly (9, 23 April) |\n"
         "| brown | garden waste | Monday, fortnightly (6, 20 April), paid subscription |\n")
SITUATIONS += family(
    "blue bin day", "the blue recycling bin goes out on Thursdays. tell me if the council moves one of the blue bin "
    "collections (home/bins.md)",
    {**HOME, "home/bins.md": _BINS}, [
        Variant("moved for easter", Change(append={"home/bins.md": (
            "\nEaster changes (from the council's mail): the blue bin collection due Thu 9 April will now be on "
            "Fri 10 April.\n")}),
                ACT, "the blue bin collection moves from Thursday 9 to Friday 10 April: tell them"),
        Variant("brown bin moved", Change(write={"home/bins.md": _BINS.replace(
            "Monday, fortnightly (6, 20 April)", "Monday, fortnightly (Tue 7 April because of Easter Monday, 20 "
            "April)")}),
                NOOP, "it is the brown garden waste collection that moves, not the blue bin"),
        Variant("as normal", Change(append={"home/bins.md": (
            "\nCouncil mail: blue and black bin collections carry on as normal over Easter, no changes.\n")}),
                NOOP, "the council says the blue bin collections are unchanged over Easter"),
    ], bystanders=("let me know when the PTA posts the date of the summer fair (school/pta-news.md)",))

_FOODBANK = ("date,shift,volunteer\n2026-03-11,Wed distribution 1-4pm,Priya Shah\n"
             "2026-03-11,Wed distribution 1-4pm,Gordon Bell\n2026-03-14,Sat warehouse 9am-12,Gordon Bell\n"
             "2026-03-14,Sat warehouse 9am-12,Ruth Okafor\n2026-03-18,Wed distribution 1-4pm,Ruth Okafor\n")
SITUATIONS += family(
    "food bank saturday", "I'm Priya Shah. tell me if the coordinator puts me on a Saturday shift at the food bank "
    "(volunteering/foodbank-rota.csv), I need to sort childcare for those",
    {**HOME, "volunteering/foodbank-rota.csv": _FOODBANK}, [
        Variant("priya saturday", Change(append={"volunteering/foodbank-rota.csv": (
            "2026-03-21,Sat warehouse 9am-12,Priya Shah\n2026-03-21,Sat warehouse 9am-12,Gordon Bell\n")}),
                ACT, "Priya is on the Saturday 21 March warehouse shift: tell her"),
        Variant("priya thursday", Change(write={"volunteering/foodbank-rota.csv": _FOODBANK.replace(
            "2026-03-11,Wed distribution 1-4pm,Priya Shah", "2026-03-12,Thu evening collection 6-8pm,Priya Shah")}),
                NOOP, "Priya's shift moves to a Thursday evening, not a Saturday"),
        Variant("someone else saturday", Change(append={"volunteering/foodbank-rota.csv": (
            "2026-03-21,Sat warehouse 9am-12,Dev Patel\n2026-03-21,Sat warehouse 9am-12,Ruth Okafor\n")}),
                NOOP, "the new Saturday shift goes to Dev and Ruth, not Priya"),
    ])

SITUATIONS += family(
    "zone k permit", "Tell me when the council approves my zone K residents' parking permit renewal. their mails "
    "come to mail/",
    {**HOME, "mail/2026-03-02-parking.txt": _mail(
        "Parking Services <parking@harbridge.gov.example>", "Application received PP-55120",
        "Thank you for applying to renew your zone K resident permit. We have received your payment of 94.00 "
        "pounds.")}, [
        Variant("approved", Change(write={"mail/2026-03-09-parking.txt": _mail(
            "Parking Services <parking@harbridge.gov.example>", "Your zone K permit PP-55120",
            "Good news: your resident permit for zone K has been granted for vehicle EK21 WPD. It is a virtual "
            "permit, valid from 1 April 2026 to 31 March 2027. You do not need to display anything.")}),
                ACT, "the zone K permit is granted from 1 April: tell them"),
        Variant("being checked", Change(write={"mail/2026-03-09-parking.txt": _mail(
            "Parking Services <parking@harbridge.gov.example>", "PP-55120 update",
            "Your renewal is with our team. We aim to decide within 10 working days; your current permit stays "
            "valid until then.")}),
                NOOP, "the renewal is still being decided; nothing is approved yet"),
        Variant("visitor prices", Change(write={"mail/2026-03-09-parking.txt": _mail(
            "Parking Services <parking@harbridge.gov.example>", "Visitor permit prices from 1 April",
            "Books of ten visitor scratchcards for zones A to M will cost 16 pounds from 1 April.")}),
                NOOP, "a mail from Parking Services about visitor permit prices, not the renewal"),
    ])

_PLANNING = ("# Planning applications I'm watching\n\n| ref | site | proposal | status |\n|---|---|---|---|\n"
             "| 26/00412/FUL | 14 Orchard Way | two-storey side extension | consultation ends 20 March |\n"
             "| 26/00419/FUL | 3 Orchard Way | replacement garage | consultation ends 24 March |\n"
             "| 26/00388/TPO | land behind 20 Orchard Way | fell oak (T1) | pending |\n")
SITUATIONS += family(
    "next door extension", "tell me when there's a decision on 26/00412/FUL, the extension at number 14 next door "
    "(planning/watch.md)",
    {**HOME, "planning/watch.md": _PLANNING}, [
        Variant("refused", Change(write={"planning/watch.md": _PLANNING.replace(
            "| two-storey side extension | consultation ends 20 March |",
            "| two-storey side extension | REFUSED 2 April (overbearing, loss of light to no. 16) |")}),
                ACT, "the extension at number 14 has been refused, which is a decision: tell them"),
        Variant("garage granted", Change(write={"planning/watch.md": _PLANNING.replace(
            "| replacement garage | consultation ends 24 March |", "| replacement garage | granted 2 April |")}),
                NOOP, "the decision is on 26/00419/FUL, the garage at number 3"),
        Variant("consultation extended", Change(write={"planning/watch.md": _PLANNING.replace(
            "| two-storey side extension | consultation ends 20 March |",
            "| two-storey side extension | amended plans in, consultation extended to 3 April |")}),
                NOOP, "amended plans extend the consultation; no decision has been made"),
    ])

SITUATIONS += family(
    "jury start date", "I'm on jury service from Monday 8 June. tell me if the court changes my start date, I have "
    "to let work know",
    {**HOME, "mail/2026-04-20-jury.txt": _mail(
        "Jury Central Summoning Bureau <jury@courts.example>", "Jury summons 4471902",
        "You are summoned for jury service at Harbridge Crown Court from Monday 8 June 2026, normally for two "
        "weeks. Please confirm online within 7 days.")}, [
        Variant("moved a week", Change(write={"mail/2026-05-18-jury.txt": _mail(
            "Jury Central Summoning Bureau <jury@courts.example>", "Change to your jury service 4471902",
            "Your jury service at Harbridge Crown Court has been rescheduled. Please attend from Monday 15 June "
            "2026 at 9.30am instead.")}),
                ACT, "the court moves the start from 8 to 15 June: tell them so they can let work know"),
        Variant("reminder", Change(write={"mail/2026-05-18-jury.txt": _mail(
            "Jury Central Summoning Bureau <jury@courts.example>", "Your jury service starts soon",
            "A reminder that your jury service starts on Monday 8 June at 9.30am. Bring this letter and photo ID. "
            "There is no parking at the court.")}),
                NOOP, "a reminder that service still starts on 8 June; the date has not changed"),
        Variant("sam summoned", Change(memories=(
            "Sam's been summoned for jury service too! His starts 6 July at the county court.",)),
                NOOP, "it is Sam's jury service; their own start date is unchanged"),
    ], bystanders=("remind me to book the car in for its MOT when the garage texts",))

_POLL = ("# Local elections, Thursday 7 May 2026\n\n- our ward: Kingsmead\n"
         "- registered: me and Tom, 41 Fenton Street\n- poll cards: not come yet\n"
         "- polling station: not known yet\n")
SITUATIONS += family(
    "polling station", "when we find out where our polling station is for the May elections, tell me "
    "(elections/may-2026.md)",
    {**HOME, "elections/may-2026.md": _POLL}, [
        Variant("church hall", Change(write={"elections/may-2026.md": _POLL.replace(
            "- poll cards: not come yet\n- polling station: not known yet\n",
            "- poll cards: came 9 April\n- polling station: St Barnabas church hall, Fenton Street (on the "
            "cards)\n")}),
                ACT, "the poll cards name St Barnabas church hall as their polling station: tell them"),
        Variant("other ward", Change(append={"elections/may-2026.md": (
            "- Jo says Harbourside ward votes at the leisure centre this year instead of the school\n")}),
                NOOP, "a polling station for Harbourside ward, not their own ward, Kingsmead"),
        Variant("list later", Change(write={"elections/may-2026.md": _POLL.replace(
            "- polling station: not known yet",
            "- polling station: council says the list comes out with the notice of poll on 27 April")}),
                NOOP, "the list of polling stations comes out later; theirs is still not known"),
    ])

_MISSED = "# Choir rehearsals missed (spring term)\n\n- Tue 13 Jan: flu\n- Tue 3 Feb: work trip to Leeds\n"
SITUATIONS += family(
    "choir missed", "add every choir rehearsal I say I've missed to choir/attendance.md. miss four and I can't sing "
    "in the concert",
    {**HOME, "choir/attendance.md": _MISSED}, [
        Variant("skipped tonight", Change(memories=(
            "Had to skip choir tonight, Lily had a temperature and Mark was on nights.",)),
                ACT, "they missed tonight's rehearsal: add that one line to choir/attendance.md"),
        Variant("great rehearsal", Change(memories=(
            "Choir was brilliant tonight, we finally got the Rutter together in the last ten minutes.",)),
                NOOP, "they went to choir tonight; nothing was missed"),
        Variant("might miss", Change(memories=(
            "I might have to miss choir next Tuesday if the Bristol meeting runs late.",)),
                NOOP, "a possible absence next week, not a missed rehearsal"),
    ])

_NOTICES = ("# Greenbank Allotment Society - notices\n\n"
            "- Nov: water turned off at all troughs for the winter. Drain your water butts.\n"
            "- Jan: plot inspections in May. Keep your paths cut.\n"
            "- Feb: seed potato orders ready Sat 28 Feb, 10-12 at the trading hut.\n")
SITUATIONS += family(
    "allotment water", "the water at the allotments is off for the winter. tell me as soon as the society says it's "
    "back on (allotment/notices.md)",
    {**HOME, "allotment/notices.md": _NOTICES}, [
        Variant("taps on", Change(append={"allotment/notices.md": (
            "- 3 April: taps are running again at every trough from today. Please turn them off after use!\n")}),
                ACT, "the taps are running again at every trough: the water is back on, tell them"),
        Variant("hope for easter", Change(append={"allotment/notices.md": (
            "- 20 March: we hope to turn the water on around Easter, if the frosts are over. Watch this space.\n")}),
                NOOP, "only a hope to turn it on around Easter; the water is still off"),
        Variant("water bill", Change(append={"allotment/notices.md": (
            "- 20 March: last year's water bill came to 412 pounds, so plot fees go up 3 pounds next year.\n")}),
                NOOP, "a notice about the water bill and fees, not the water coming back on"),
    ])

_FIXTURES = ("# Hawkwood Colts - spring fixtures\n\n## U10 Blues (Ollie)\n\n| date | opponent | ko | where |\n"
             "|---|---|---|---|\n| Sun 8 Mar | Redbridge Rovers | 10:00 | home |\n"
             "| Sun 15 Mar | Ashby Town Youth | 10:30 | away |\n| Sun 22 Mar | St Jude's | 10:00 | home |\n\n"
             "## U10 Reds\n\n| date | opponent | ko | where |\n|---|---|---|---|\n"
             "| Sun 8 Mar | Castlefield | 10:00 | away |\n| Sun 15 Mar | Redbridge Rovers | 10:00 | home |\n"
             "| Sun 22 Mar | Ashby Town Youth | 11:00 | away |\n")
SITUATIONS += family(
    "ollie's match off", "Ollie plays for the U10 Blues. tell me if one of his matches gets called off "
    "(club/fixtures.md)",
    {**HOME, "club/fixtures.md": _FIXTURES}, [
        Variant("blues postponed", Change(write={"club/fixtures.md": _FIXTURES.replace(
            "| Sun 15 Mar | Ashby Town Youth | 10:30 | away |",
            "| Sun 15 Mar | Ashby Town Youth | POSTPONED, Ashby's pitch waterlogged, new date tbc | away |")}),
                ACT, "the Blues' match at Ashby on 15 March is postponed, so it is off: tell them"),
        Variant("reds postponed", Change(write={"club/fixtures.md": _FIXTURES.replace(
            "| Sun 15 Mar | Redbridge Rovers | 10:00 | home |",
            "| Sun 15 Mar | Redbridge Rovers | POSTPONED, pitch waterlogged | home |")}),
                NOOP, "it is the U10 Reds' match that is postponed; Ollie plays for the Blues"),
        Variant("kick-off later", Change(write={"club/fixtures.md": _FIXTURES.replace(
            "| Sun 22 Mar | St Jude's | 10:00 | home |", "| Sun 22 Mar | St Jude's | 11:15 | home |")}),
                NOOP, "the Blues' 22 March kick-off moves to 11.15; the match is still on"),
    ])

_NHW = ("# Neighbourhood watch updates (Elmfield area)\n\n"
        "**28 April** - Catalytic converter stolen from a car on Pine Walk, Sunday night.\n\n"
        "**5 May** - Cold callers selling driveway cleaning on Larch Close and Beech Road. Don't let them in.\n")
SITUATIONS += family(
    "larch close break-in", "I live on Larch Close. tell me if the neighbourhood watch updates "
    "(community/nhw-updates.md) report a break-in, or an attempted one, on our street",
    {**HOME, "community/nhw-updates.md": _NHW}, [
        Variant("attempted entry", Change(append={"community/nhw-updates.md": (
            "\n**12 May** - Attempted burglary on Larch Close overnight Sunday: rear patio door damaged but they "
            "didn't get in. Police ref 44/12345/26.\n")}),
                ACT, "an attempted burglary on Larch Close: tell them"),
        Variant("larch avenue", Change(append={"community/nhw-updates.md": (
            "\n**12 May** - Garage broken into on Larch Avenue (the far side of the park), two bikes taken.\n")}),
                NOOP, "the break-in is on Larch Avenue, a different street"),
        Variant("street light", Change(append={"community/nhw-updates.md": (
            "\n**12 May** - Larch Close: the street light outside no. 9 is out, reported to the council.\n")}),
                NOOP, "a broken street light on Larch Close, not a break-in"),
    ], bystanders=("tell me if our street party road closure gets approved (community/street-party.md)",))

SITUATIONS += family(
    "mia's party hall", "Let me know when St Luke's hall confirm our booking for Mia's party, Sat 18 April 2-5pm. "
    "the hall bookings secretary mails me (mail/)",
    {**HOME, "family/mia-party.md": "# Mia's 7th\n\n- Sat 18 April, 2-5pm\n- St Luke's hall? asked 2 March\n"
                                    "- 22 kids, entertainer: Captain Fizz\n"}, [
        Variant("all fine", Change(write={"mail/2026-03-05-st-lukes.txt": _mail(
            "Margaret Dunn <halls@stlukes.example>", "Re: hall for a party",
            "That's all fine, the hall is yours on Saturday 18 April from 2 till 5. I'll drop the keys round on "
            "the Friday evening. It's 45 pounds, bank details below.")}),
                ACT, "the secretary says the hall is theirs on 18 April, 2 to 5: the booking is confirmed, tell them"),
        Variant("small hall only", Change(write={"mail/2026-03-05-st-lukes.txt": _mail(
            "Margaret Dunn <halls@stlukes.example>", "Re: hall for a party",
            "I'm afraid the main hall is taken that afternoon for a wedding reception. The small hall is free but "
            "only holds 30. Let me know if you want it.")}),
                NOOP, "the main hall is taken; only the small hall is offered, so nothing is booked"),
        Variant("after the pcc", Change(write={"mail/2026-03-05-st-lukes.txt": _mail(
            "Margaret Dunn <halls@stlukes.example>", "Re: hall for a party",
            "Saturday the 18th looks possible, but I have to check with the church council when it meets on the "
            "24th. I'll confirm after that.")}),
                NOOP, "the secretary will confirm after the church council meets; nothing is confirmed yet"),
    ])

_FIXED = "# Things I've fixed at Millbrook Repair Café\n\n- Jan: kettle (loose wire in the plug)\n- Feb: lamp\n"
SITUATIONS += family(
    "repair café fixes", "I volunteer at the Millbrook Repair Café. whenever I tell you I've fixed something there, "
    "add it to repaircafe/fixed.md",
    {**HOME, "repaircafe/fixed.md": _FIXED}, [
        Variant("roberts radio", Change(memories=(
            "Repair café today: got a 1970s Roberts radio going again, just a corroded battery contact. The owner "
            "nearly cried!",)),
                ACT, "they got a radio working at the repair café: add that one line"),
        Variant("toaster beyond", Change(memories=(
            "Repair café: a toaster came in but the element's burnt out, couldn't save it.",)),
                NOOP, "the toaster could not be fixed"),
        Variant("chair at home", Change(memories=(
            "Fixed the wobbly kitchen chair at home with some wood glue and a clamp.",)),
                NOOP, "a repair at home, not at the repair café"),
    ])

_CONSULT = ("# Council consultations\n\n| consultation | open | how |\n|---|---|---|\n"
            "| Library opening hours review | 2 March - 12 April | online survey or paper form |\n"
            "| Pier Street bus lane hours | 16 March - 26 April | online survey |\n")
SITUATIONS += family(
    "harbour road cycle lane", "tell me when the council opens a consultation on the Harbour Road cycle lane "
    "(council/consultations.md), I want to have my say",
    {**HOME, "council/consultations.md": _CONSULT}, [
        Variant("cycle track", Change(append={"council/consultations.md": (
            "| Harbour Road: protected cycle track, Quay Street to the station | 6 May - 3 June | online survey and "
            "drop-in at the library |\n")}),
                ACT, "a consultation on the Harbour Road cycle track is open: tell them"),
        Variant("parking charges", Change(append={"council/consultations.md": (
            "| Harbour Road: pay and display charges | 6 May - 3 June | online survey |\n")}),
                NOOP, "a Harbour Road consultation about parking charges, not the cycle lane"),
        Variant("coming soon", Change(append={"council/consultations.md": (
            "\nComing later this year: Harbour Road cycling scheme, consultation expected in the summer.\n")}),
                NOOP, "the cycle lane consultation is only expected later; it is not open"),
    ])

_10K = ("date,donor,amount\n2026-04-02,Mum and Dad,50\n2026-04-02,Jen,20\n2026-04-03,work collection,85\n"
        "2026-04-05,Aunty Pam,25\n2026-04-08,Dev,15\n2026-04-09,neighbours at no. 12,30\n2026-04-12,anonymous,40\n"
        "2026-04-14,choir friends,110\n2026-04-15,Sam,20\n")
SITUATIONS += family(
    "10k sponsorship", "tell me when my sponsorship for the Bristol 10k goes past £500 (fundraising/bristol-10k.csv). "
    "it's all for the hospice",
    {**HOME, "fundraising/bristol-10k.csv": _10K}, [
        Variant("raffle money", Change(append={"fundraising/bristol-10k.csv": "2026-04-20,Rotary raffle money,120\n"}),
                ACT, "the donations now add up to £515, past £500: tell them"),
        Variant("485", Change(append={"fundraising/bristol-10k.csv": "2026-04-20,Rotary raffle money,90\n"}),
                NOOP, "the donations add up to £485, still short of £500"),
        Variant("quiz takings", Change(write={"fundraising/scouts-quiz.csv": (
            "date,what,amount\n2026-04-18,quiz night takings (for the scouts' minibus),140\n")}),
                NOOP, "money for the scouts' quiz night in another file; the 10k total stays £395"),
    ])

_PTA = ("# Oakfield Primary PTA news\n\n## Easter egg hunt\nThursday 2 April after school, on the field. 1 pound a "
        "go.\n\n## Uniform sale\nPre-loved uniform every other Friday at pick-up.\n")
SITUATIONS += family(
    "summer fair date", "let me know when the PTA posts the date of the summer fair (school/pta-news.md)",
    {**HOME, "school/pta-news.md": _PTA}, [
        Variant("27 june", Change(append={"school/pta-news.md": (
            "\n## Summer fair\nMark your diaries: Saturday 27 June, 12-3pm on the school field. Stall ideas to "
            "Kerry please!\n")}),
                ACT, "the summer fair is on Saturday 27 June: tell them"),
        Variant("to be fixed", Change(append={"school/pta-news.md": (
            "\n## Summer fair\nWe'll pick the date at the next meeting (Tuesday 17 March, 7pm in the library). All "
            "welcome!\n")}),
                NOOP, "the date is still to be chosen at the next meeting"),
        Variant("christmas total", Change(append={"school/pta-news.md": (
            "\n## Christmas fair\nThe final total is in: 1,842.60 pounds! It's going towards the new reading "
            "corner.\n")}),
                NOOP, "news about the Christmas fair's total, not the summer fair's date"),
    ])

SITUATIONS += family(
    "bulky waste date", "tell me when the council gives us a collection date for the old sofa and fridge (bulky "
    "waste, ref BW-20931). their mails come to mail/",
    {**HOME, "home/clear-out.md": "# Clear-out\n\n- sofa and fridge: council bulky waste, booked online 2 March, "
                                  "BW-20931\n- bikes: to the Bike Hub\n"}, [
        Variant("wednesday 18th", Change(write={"mail/2026-03-06-council.txt": _mail(
            "Harbridge Council Waste <waste@harbridge.gov.example>", "Bulky waste collection BW-20931",
            "Your bulky waste collection is booked for Wednesday 18 March. Please have the items outside your "
            "property by 7am on the day.")}),
                ACT, "the sofa and fridge will be collected on Wednesday 18 March: tell them"),
        Variant("request received", Change(write={"mail/2026-03-06-council.txt": _mail(
            "Harbridge Council Waste <waste@harbridge.gov.example>", "We've received your request BW-20931",
            "Thank you for your payment of 36 pounds. We will email you a collection date within five working "
            "days.")}),
                NOOP, "the council has the request and will send a date later; there is no date yet"),
        Variant("garden waste", Change(write={"mail/2026-03-06-council.txt": _mail(
            "Harbridge Council Waste <waste@harbridge.gov.example>", "Renew your garden waste subscription",
            "Your garden waste subscription ends on 31 March. Renew now for 2026/27 for 52 pounds.")}),
                NOOP, "a mail from the waste team about garden waste, not the bulky waste date"),
    ])

_ALNOOR = ("# Al-Noor Community Centre - small hall, March\n\n| date | morning (9.30-12) | afternoon (1-4) |\n"
           "|---|---|---|\n| Tue 3 Mar | Little Stars toddler group | sewing circle |\n"
           "| Thu 5 Mar | Arabic for beginners | free |\n| Tue 10 Mar | Little Stars toddler group | sewing circle |\n"
           "| Thu 12 Mar | Arabic for beginners | free |\n| Tue 17 Mar | Little Stars toddler group | sewing circle |\n"
           "| Thu 19 Mar | Arabic for beginners | iftar prep (volunteers) |\n"
           "| Tue 24 Mar | Little Stars toddler group | sewing circle |\n")
SITUATIONS += family(
    "toddler group slot", "I run Little Stars toddler group at Al-Noor. tell me if any of our Tuesday mornings in "
    "March get given to someone else (community/alnoor-bookings.md)",
    {**HOME, "community/alnoor-bookings.md": _ALNOOR}, [
        Variant("clinic on 17th", Change(write={"community/alnoor-bookings.md": _ALNOOR.replace(
            "| Tue 17 Mar | Little Stars toddler group |", "| Tue 17 Mar | NHS health visitor clinic (one-off) |")}),
                ACT, "their Tuesday 17 March morning now goes to a health visitor clinic: tell them"),
        Variant("afternoon rebooked", Change(write={"community/alnoor-bookings.md": _ALNOOR.replace(
            "| Tue 17 Mar | Little Stars toddler group | sewing circle |",
            "| Tue 17 Mar | Little Stars toddler group | Eid gift wrapping |")}),
                NOOP, "only the Tuesday 17 March afternoon changes; the toddler group keeps its morning"),
        Variant("thursday booked", Change(write={"community/alnoor-bookings.md": _ALNOOR.replace(
            "| Thu 12 Mar | Arabic for beginners | free |",
            "| Thu 12 Mar | Arabic for beginners | youth committee |")}),
                NOOP, "a free Thursday afternoon is booked; none of the Tuesday mornings changes"),
    ])

_RA = ("# Beech Court Residents' Association - service charge per flat\n\n| year | service charge | notes |\n"
       "|---|---|---|\n| 2024/25 | £1,080 | |\n| 2025/26 | £1,140 | lift repair |\n"
       "| 2026/27 | not set yet | budget meeting 24 March |\n")
SITUATIONS += family(
    "service charge rise", "tell me if next year's service charge gets set at more than 5% above this year's "
    "(community/ra-accounts.md)",
    {**HOME, "community/ra-accounts.md": _RA}, [
        Variant("1210 agreed", Change(write={"community/ra-accounts.md": _RA.replace(
            "| 2026/27 | not set yet | budget meeting 24 March |",
            "| 2026/27 | £1,210 | agreed 24 March, extra for the roof reserve |")}),
                ACT, "£1,210 is about 6.1 % above this year's £1,140, more than 5 %: tell them"),
        Variant("1190 agreed", Change(write={"community/ra-accounts.md": _RA.replace(
            "| 2026/27 | not set yet | budget meeting 24 March |", "| 2026/27 | £1,190 | agreed 24 March |")}),
                NOOP, "£1,190 is about 4.4 % above £1,140, not more than 5 %"),
        Variant("draft budget", Change(write={"community/ra-accounts.md": _RA.replace(
            "| 2026/27 | not set yet | budget meeting 24 March |",
            "| 2026/27 | £1,260 proposed | draft budget, to be voted on 24 March |")}),
                NOOP, "£1,260 is only proposed in the draft budget; next year's charge is not set yet"),
    ])

_BYELECTION = ("# Harbour ward by-election, Thursday 12 March\n\nCandidates: Alan Briggs (Lab), Sophie Turner (Con), "
               "Dr Farah Khan (LD), Mike Dowd (Green), Pat Rooney (Ind)\n"
               "Count: Friday 13 March from 10am at the Guildhall\n")
SITUATIONS += family(
    "by-election result", "tell me who won the Harbour ward by-election once the result's in "
    "(elections/byelection.md)",
    {**HOME, "elections/byelection.md": _BYELECTION}, [
        Variant("khan elected", Change(append={"elections/byelection.md": (
            "\nDeclared 13 March, 1.40pm: Dr Farah Khan (LD) elected with 1,284 votes. Briggs 1,102, Turner 655, "
            "Dowd 301, Rooney 88. Turnout 27.4%.\n")}),
                ACT, "the result is declared, Dr Farah Khan elected: tell them"),
        Variant("turnout only", Change(append={"elections/byelection.md": (
            "\nTurnout was 27.4%. Counting started at 10am; the result is expected early afternoon.\n")}),
                NOOP, "only the turnout is known; the result is still to come"),
        Variant("straw poll", Change(append={"elections/byelection.md": (
            "\nNextdoor poll (unofficial, 212 replies): Khan 41%, Briggs 33%, Turner 18%, Dowd 6%, Rooney 2%.\n")}),
                NOOP, "an unofficial online poll, not the declared result"),
    ])

_COURTS = ("day,time,court,booked_by\nSat 16 May,09:00,1,Helen & Roger\nSat 16 May,09:00,2,junior coaching\n"
           "Sat 16 May,10:00,1,Frank Ellis\nSat 16 May,10:00,2,men's doubles\nSat 16 May,14:00,1,club tournament\n"
           "Sun 17 May,09:00,1,Anna Kovacs\n")
SITUATIONS += family(
    "saturday court", "I want a court on Saturday morning. tell me if anyone cancels a Saturday morning booking "
    "(club/tennis-courts.csv)",
    {**HOME, "club/tennis-courts.csv": _COURTS}, [
        Variant("frank cancels", Change(write={"club/tennis-courts.csv": _COURTS.replace(
            "Sat 16 May,10:00,1,Frank Ellis", "Sat 16 May,10:00,1,(free - Frank cancelled)")}),
                ACT, "Frank's 10am Saturday court is free now: tell them"),
        Variant("sunday freed", Change(write={"club/tennis-courts.csv": _COURTS.replace(
            "Sun 17 May,09:00,1,Anna Kovacs", "Sun 17 May,09:00,1,(free - Anna cancelled)")}),
                NOOP, "the cancelled booking is on Sunday, not Saturday"),
        Variant("afternoon freed", Change(write={"club/tennis-courts.csv": _COURTS.replace(
            "Sat 16 May,14:00,1,club tournament", "Sat 16 May,14:00,1,(free - tournament moved to June)")}),
                NOOP, "the freed Saturday court is at 2pm, in the afternoon"),
    ], bystanders=("Tell me when the tennis club posts the date of the summer social (club/news.md)",))

_ROADWORKS = ("# Roadworks (from the council's weekly list)\n\n| road | what | when |\n|---|---|---|\n"
              "| Station Road | lane closure, BT cabling | 13 - 17 April |\n"
              "| Church Street | temporary lights, water main | 14 - 28 April |\n")
SITUATIONS += family(
    "mill lane closure", "I'm driving Dad to his hospital appointment on Tuesday 21 April along Mill Lane. tell me "
    "if the roadworks list (council/roadworks.md) shows Mill Lane closed that day",
    {**HOME, "council/roadworks.md": _ROADWORKS}, [
        Variant("closed 20-24", Change(append={"council/roadworks.md": (
            "| Mill Lane (Ford Road to Church Street) | full closure, gas main | 20 - 24 April |\n")}),
                ACT, "Mill Lane is fully closed 20 to 24 April, which covers the 21st: tell them"),
        Variant("closed in may", Change(append={"council/roadworks.md": (
            "| Mill Lane | full closure, resurfacing | 4 - 8 May |\n")}),
                NOOP, "Mill Lane's closure is in May; it is open on 21 April"),
        Variant("mill road", Change(append={"council/roadworks.md": (
            "| Mill Road | full closure, gas main | 20 - 24 April |\n")}),
                NOOP, "the closure is on Mill Road, not Mill Lane"),
    ])

_SEWA = ("# Langar sewa - March (Sundays)\n\n| date | cooking | serving | washing up |\n|---|---|---|---|\n"
         "| Sun 1 Mar | Kaur family | Jaspal, Manjit | youth group |\n"
         "| Sun 8 Mar | Sandhu family | Harpreet Gill, Ravi | youth group |\n"
         "| Sun 15 Mar | Bains family | tbc | youth group |\n| Sun 22 Mar | tbc | tbc | tbc |\n"
         "| Sun 29 Mar | Dhillon family | tbc | youth group |\n")
SITUATIONS += family(
    "langar sewa", "I'm Harpreet Gill. tell me if I get put down for langar sewa on another Sunday in March "
    "(community/langar-sewa.md)",
    {**HOME, "community/langar-sewa.md": _SEWA}, [
        Variant("serving 22nd", Change(write={"community/langar-sewa.md": _SEWA.replace(
            "| Sun 22 Mar | tbc | tbc | tbc |", "| Sun 22 Mar | Gill family | Harpreet Gill, Amrit | youth group |")}),
                ACT, "Harpreet is now down to serve on Sunday 22 March: tell them"),
        Variant("april row", Change(append={"community/langar-sewa.md": (
            "| Sun 5 Apr | Sandhu family | Harpreet Gill, Jaspal | youth group |\n")}),
                NOOP, "Harpreet's new turn is on 5 April, not in March"),
        Variant("saturday setup", Change(append={"community/langar-sewa.md": (
            "\nSat 28 Mar, setting up for the akhand path: Harpreet Gill, Ravi, Manjit\n")}),
                NOOP, "a Saturday setting-up job, not langar sewa on a Sunday"),
    ])

SITUATIONS += family(
    "litter picks", "every time I tell you about a litter pick we've done, add it to community/litter-picks.csv "
    "(date, where, how many came, bags)",
    {**HOME, "community/litter-picks.csv": "date,where,people,bags\n2026-02-14,the rec,8,9\n"
                                           "2026-03-14,Elm Row garages,6,11\n"}, [
        Variant("towpath", Change(memories=(
            "Litter pick along the canal towpath this morning: 11 of us turned up and we filled 14 bags, plus a "
            "shopping trolley!",)),
                ACT, "a litter pick on the towpath, 11 people, 14 bags: add that one row"),
        Variant("next saturday", Change(memories=(
            "Litter pick's on next Saturday, 10am at the bandstand. The council's lending us grabbers and hoops.",)),
                NOOP, "a litter pick still to come, not one they have done"),
        Variant("fly-tipping", Change(memories=(
            "Someone's dumped a mattress by the Elm Row garages again, I've reported it on the council app.",)),
                NOOP, "a report of fly-tipping, not a litter pick"),
    ])

_FEB_MINUTES = ("# Ashcombe Parish Council - minutes, 10 February 2026\n\n1. Apologies: Cllr Hale.\n"
                "2. Minutes of 13 January approved.\n3. Skate park: no update, the lottery bid is still being "
                "assessed.\n4. Play park: new bins ordered.\n5. Village hall car park lighting: quotes awaited.\n")
SITUATIONS += family(
    "skate park minutes", "tell me if the parish council minutes mention the skate park "
    "(council/parish-minutes/), and what they say",
    {**HOME, "council/parish-minutes/2026-02-10.md": _FEB_MINUTES}, [
        Variant("bid won", Change(write={"council/parish-minutes/2026-03-10.md": (
            "# Ashcombe Parish Council - minutes, 10 March 2026\n\n1. Apologies: none.\n2. Minutes of 10 "
            "February approved.\n3. Skatepark: the clerk reported the lottery bid was successful (38,000 pounds). "
            "Work to start in July.\n4. Footpath 12: stile repaired.\n")}),
                ACT, "the new March minutes report the skatepark bid won £38,000: tell them what they say"),
        Variant("other parks", Change(write={"council/parish-minutes/2026-03-10.md": (
            "# Ashcombe Parish Council - minutes, 10 March 2026\n\n1. Apologies: none.\n2. Minutes of 10 "
            "February approved.\n3. Play park: bins installed.\n4. Car park lighting: Brightway quote accepted.\n")}),
                NOOP, "the new minutes mention the play park and the car park, not the skate park"),
        Variant("february edited", Change(write={"council/parish-minutes/2026-02-10.md": _FEB_MINUTES.replace(
            "Apologies: Cllr Hale.", "Apologies: Cllr Hale and Cllr Moss.")}),
                NOOP, "February's minutes only gain an apology; their skate park line was there already"),
    ])

_PBS = ("# Freya's PBs (long course)\n\n- 50 free: 34.80\n- 100 free: 1:16.45\n- 50 back: 41.10\n"
        "- 50 breast: 44.92\n")
SITUATIONS += family(
    "freya pb", "tell me if Freya swims a PB at the county gala. her PBs are in club/freya-pbs.md and the results "
    "get posted to club/gala-results.csv",
    {**HOME, "club/freya-pbs.md": _PBS,
     "club/gala-results.csv": "event,swimmer,time,place\n50 breast,Freya Hughes,45.31,6th\n"}, [
        Variant("back 40.62", Change(append={"club/gala-results.csv": "50 back,Freya Hughes,40.62,3rd\n"}),
                ACT, "40.62 in the 50 back beats her 41.10: a PB, tell them"),
        Variant("100 free 1:15.98", Change(append={"club/gala-results.csv": "100 free,Freya Hughes,1:15.98,2nd\n"}),
                ACT, "1:15.98 in the 100 free is under her PB of 1:16.45: tell them"),
        Variant("free equals", Change(append={"club/gala-results.csv": "50 free,Freya Hughes,34.80,5th\n"}),
                NOOP, "34.80 in the 50 free only equals her PB"),
        Variant("disqualified", Change(append={"club/gala-results.csv": "100 free,Freya Hughes,DQ (turn),-\n"}),
                NOOP, "she was disqualified in the 100 free, so there is no time, let alone a PB"),
    ])

_ROOF_NOTES = ("# Marlowe House roof - points for the section 20 letter\n\n"
               "- roof patched in 2019 and again in 2022: why wasn't it replaced then?\n"
               "- we want three quotes, at least one from a firm not linked to the agent\n"
               "- scaffold must not block the car park or the bin store\n"
               "- reserve fund stands at 18,400 pounds: how much of it goes on this?\n")
SITUATIONS += family(
    "section 20 roof", "I'm secretary of the Marlowe House Residents' Association. If the managing agent sends the "
    "section 20 notice for the roof works, draft the association's written observations from my points in "
    "community/ra-roof-notes.md",
    {**HOME, "community/ra-roof-notes.md": _ROOF_NOTES}, [
        Variant("notice of intention", Change(write={"mail/2026-04-14-carter.txt": _mail(
            "Carter Block Management <marlowe@carterblock.example>", "Section 20 notice of intention: roof works",
            "Under section 20 of the Landlord and Tenant Act 1985 we give notice that the landlord intends to "
            "replace the main roof covering at Marlowe House. You may make written observations and nominate a "
            "contractor by 14 May 2026.")}),
                ESCALATE, "the section 20 notice has come: draft the observations from the association's points"),
        Variant("notice to follow", Change(write={"mail/2026-04-14-carter.txt": _mail(
            "Carter Block Management <marlowe@carterblock.example>", "Roof update",
            "The surveyor's report is nearly done. We expect to issue the section 20 notice for the roof in the "
            "next few weeks.")}),
                NOOP, "the agent only says the notice will come in a few weeks"),
        Variant("fire doors", Change(write={"mail/2026-04-14-carter.txt": _mail(
            "Carter Block Management <marlowe@carterblock.example>", "Fire door inspections",
            "Our contractor will inspect the flat entrance doors on Tuesday 21 April between 9 and 3. Please "
            "make sure someone can let them in.")}),
                NOOP, "a mail from the agent about fire door inspections, not the roof notice"),
    ])

_HELPERS = ("name,can_do,not_free\nKerry Booth,cakes; tombola,\nMatt Ince,BBQ; setting up,after 2pm\n"
            "Leanne Carr,face painting,\nJoe Pike,setting up; bouncy castle,\nRuth Amadi,tombola; cakes,before 1pm\n"
            "Sunil Rao,BBQ; bouncy castle,\nHannah Lee,cakes; face painting,after 1.30pm\n")
SITUATIONS += family(
    "summer fair rota", "If the PTA chair asks for helpers for the summer fair, work out a rota from "
    "school/pta-volunteers.csv that covers every stall and draft the message to the class reps",
    {**HOME, "school/pta-volunteers.csv": _HELPERS}, [
        Variant("helpers wanted", Change(write={"mail/2026-05-11-pta.txt": _mail(
            "Kerry Booth <chair@oakfieldpta.example>", "Summer fair helpers please!",
            "The fair is Saturday 27 June, 12-3. We need people for setting up (10-12), cakes, tombola, BBQ, "
            "face painting and the bouncy castle. Could you sort a rota and send it round the class reps?")}),
                ESCALATE, "the chair asks for helpers: build a rota from the list and draft the message"),
        Variant("thank you", Change(write={"mail/2026-05-11-pta.txt": _mail(
            "Kerry Booth <chair@oakfieldpta.example>", "Thank you!",
            "Huge thanks to everyone who helped at the Easter egg hunt. We raised 312 pounds!")}),
                NOOP, "a thank-you for the Easter egg hunt, not a request for summer fair helpers"),
        Variant("after half term", Change(write={"mail/2026-05-11-pta.txt": _mail(
            "Kerry Booth <chair@oakfieldpta.example>", "Summer fair",
            "We'll ask for summer fair helpers after half term, once we know which stalls we're running.")}),
                NOOP, "the chair will ask for helpers later; she is not asking yet"),
    ])

_ESSENTIALS = ("# Essentials we always need\n\n- tinned tomatoes\n- pasta (500 g)\n- UHT milk (1 l)\n"
               "- tinned fish\n- rice (1 kg)\n- tea bags\n- nappies (size 4)\n- toilet rolls\n- cooking oil\n"
               "- sugar\n")
_STOCK = {"tinned tomatoes": 46, "pasta (500 g)": 62, "UHT milk (1 l)": 31, "tinned fish": 24, "rice (1 kg)": 28,
          "tea bags": 35, "nappies (size 4)": 22, "toilet rolls": 40, "cooking oil": 21, "sugar": 26, "custard": 14,
          "pickled beetroot": 9, "mince pies": 30}


def _stock(date: str, changes: dict[str, int] | None = None) -> str:
    counts = {**_STOCK, **(changes or {})}
    return f"item,count (checked {date})\n" + "".join(f"{name},{count}\n" for name, count in counts.items())


SITUATIONS += family(
    "food bank appeal", "If the food bank stock sheet (volunteering/stock.csv) shows under 20 of anything on our "
    "essentials list (volunteering/essentials.md), draft a shopping appeal for the Facebook page saying what we're "
    "short of",
    {**HOME, "volunteering/essentials.md": _ESSENTIALS, "volunteering/stock.csv": _stock("4 May")}, [
        Variant("milk and fish low", Change(write={"volunteering/stock.csv": _stock(
            "11 May", {"UHT milk (1 l)": 12, "tinned fish": 17, "pickled beetroot": 8})}),
                ESCALATE, "UHT milk (12) and tinned fish (17) are essentials under 20: draft the appeal"),
        Variant("milk exactly 20", Change(write={"volunteering/stock.csv": _stock(
            "11 May", {"UHT milk (1 l)": 20, "pickled beetroot": 2})}),
                NOOP, "UHT milk is at exactly 20, not under; only pickled beetroot, not an essential, is low"),
        Variant("extras low", Change(write={"volunteering/stock.csv": _stock(
            "11 May", {"custard": 6, "mince pies": 9})}),
                NOOP, "custard and mince pies are low but are not on the essentials list"),
    ])

_MEADOW = ("# Hollow Meadow - why it matters\n\n- floods every winter, the Brook Lane houses flooded in 2020\n"
           "- skylarks and barn owls (bird survey, May 2025)\n- the only green space walkable from the Brook estate\n"
           "- Brook Lane is single track past the farm\n")
SITUATIONS += family(
    "hollow meadow", "If the council's draft Local Plan (it'll go in council/local-plan/) puts Hollow Meadow down for "
    "housing, draft our objection for the consultation using my notes in council/hollow-meadow-notes.md",
    {**HOME, "council/hollow-meadow-notes.md": _MEADOW,
     "council/local-plan/timetable.md": "Draft Local Plan consultation: expected June 2026.\n"}, [
        Variant("allocated", Change(write={"council/local-plan/draft-site-allocations.md": (
            "# Draft Local Plan - site allocations\n\n- HL4 Station Yard: about 60 homes\n"
            "- HL7 Hollow Meadow, off Brook Lane: about 120 homes, access from Brook Lane\n"
            "- HL9 Former dairy, Mill Street: about 35 homes\n\nConsultation: 8 June - 20 July 2026.\n")}),
                ESCALATE, "Hollow Meadow is allocated for about 120 homes: draft the objection from the notes"),
        Variant("green space", Change(write={"council/local-plan/draft-site-allocations.md": (
            "# Draft Local Plan - site allocations\n\n- HL4 Station Yard: about 60 homes\n"
            "- HL9 Former dairy, Mill Street: about 35 homes\n\nLocal Green Spaces (protected from building): "
            "LGS3 Hollow Meadow, LGS5 the Rec.\n")}),
                NOOP, "the plan protects Hollow Meadow as a Local Green Space; nothing to object to"),
        Variant("delayed", Change(write={"council/local-plan/timetable.md": (
            "Draft Local Plan consultation: now expected September 2026, after more work on transport.\n")}),
                NOOP, "the draft plan is delayed to September; there is no plan to read yet"),
    ])

_WEEKLY = ("# Weekly planning list\n\n| ref | site | proposal | comments by |\n|---|---|---|---|\n"
           "| 26/01121/HOU | 7 Tanner's Row | single-storey rear extension | 21 May |\n"
           "| 26/01130/ADV | 2 Kiln Street | illuminated shop sign | 21 May |\n")
SITUATIONS += family(
    "kiln street garage", "Keep an eye on the weekly planning list (planning/weekly-list.md). If an application goes "
    "in for the old bus garage site on Kiln Street, read what's proposed and draft a comment for the Kiln Street "
    "residents' group to send",
    {**HOME, "planning/weekly-list.md": _WEEKLY}, [
        Variant("38 flats", Change(append={"planning/weekly-list.md": (
            "| 26/01177/FUL | Former bus garage, Kiln Street | demolition and 38 flats with 12 parking spaces | "
            "28 May |\n")}),
                ESCALATE, "an application for 38 flats on the bus garage site is in: read it and draft the comment"),
        Variant("dormer", Change(append={"planning/weekly-list.md": (
            "| 26/01180/HOU | 22 Kiln Street | rear dormer | 28 May |\n")}),
                NOOP, "an application on Kiln Street, but for a dormer at number 22, not the garage site"),
        Variant("quarry road depot", Change(append={"planning/weekly-list.md": (
            "| 26/01182/FUL | Former bus depot, Quarry Road | 24 houses | 28 May |\n")}),
                NOOP, "a former bus depot on Quarry Road, a different site from the Kiln Street garage"),
    ])

_POLICY = ("# Ashdown CC insurance 2025/26 (Pavilion Mutual)\n\n- premium: 1,180 pounds\n"
           "- public liability: 10 million\n- buildings (pavilion): 240,000\n- contents and equipment: 18,000\n"
           "- excess: 250\n- renews 1 April\n")
SITUATIONS += family(
    "cricket insurance", "I'm treasurer at Ashdown Cricket Club. When Pavilion Mutual send the renewal quote, compare "
    "it with last year's cover (club/insurance-2025.md) and the Clubsure quote in club/quotes/, and write a "
    "recommendation for the committee",
    {**HOME, "club/insurance-2025.md": _POLICY,
     "club/quotes/clubsure.md": "Clubsure quote, 2026/27: 1,245 pounds. Public liability 10m, buildings 260,000, "
                                "contents 20,000, excess 500.\n"}, [
        Variant("renewal quote", Change(write={"mail/2026-03-02-pavilion.txt": _mail(
            "Pavilion Mutual <renewals@pavilionmutual.example>", "Your renewal quote: Ashdown Cricket Club",
            "Renewal from 1 April 2026: premium 1,362 pounds. Public liability 10 million, buildings 240,000, "
            "contents and equipment 18,000, excess 350. Please confirm by 25 March.")}),
                ESCALATE, "the renewal quote is in: compare it with last year and Clubsure and write the "
                          "recommendation"),
        Variant("quote to follow", Change(write={"mail/2026-03-02-pavilion.txt": _mail(
            "Pavilion Mutual <renewals@pavilionmutual.example>", "Your renewal",
            "Your renewal documents will follow by 10 March. Cover continues until 31 March.")}),
                NOOP, "the renewal quote is still to follow"),
        Variant("claim settled", Change(write={"mail/2026-03-02-pavilion.txt": _mail(
            "Pavilion Mutual <claims@pavilionmutual.example>", "Claim PM-8812 settled",
            "We have paid 640 pounds for the storm-damaged sightscreen. This claim is now closed.")}),
                NOOP, "a mail from the insurer about a claim, not the renewal quote"),
    ], bystanders=("tell me when the groundsman says the square is fit to play on (club/ground.md)",))

SITUATIONS += family(
    "allotment offer", "When the allotment society offers me a plot off the waiting list, weigh it up against what "
    "I'm after (allotment/wishlist.md) and draft my reply",
    {**HOME, "allotment/wishlist.md": "# What I want from a plot\n\n- half plot is plenty\n- near the gate (bad "
                                      "knee, barrow)\n- a tap close by\n- sun most of the day\n"}, [
        Variant("plot 23b", Change(write={"mail/2026-03-16-greenbank.txt": _mail(
            "Greenbank Allotment Society <lettings@greenbank.example>", "Plot offer: 23B",
            "Plot 23B is free: a half plot (125 sq m) along the back fence, shaded by the hedge after 3pm. The "
            "nearest tap is about 40 m away. Please reply by 30 March.")}),
                ESCALATE, "a plot is offered: weigh it against the wishlist and draft the reply"),
        Variant("number 3", Change(write={"mail/2026-03-16-greenbank.txt": _mail(
            "Greenbank Allotment Society <lettings@greenbank.example>", "Waiting list",
            "A quick update: you are now number 3 on the waiting list.")}),
                NOOP, "they have moved up the waiting list but no plot is offered"),
        Variant("seed swap", Change(write={"mail/2026-03-16-greenbank.txt": _mail(
            "Greenbank Allotment Society <news@greenbank.example>", "Seed swap Saturday",
            "Seed swap at the trading hut, Saturday 21 March, 10-12. Waiting list members welcome!")}),
                NOOP, "a mail from the society about a seed swap, not a plot offer"),
    ])

SITUATIONS += family(
    "hall autumn timetable", "I do the bookings for Fernhill Community Hall. When the autumn term requests are in "
    "(community/hall/requests-autumn.csv), draft the autumn weekly timetable with no overlaps, and list any group we "
    "can't fit",
    {**HOME, "community/hall/requests-summer.csv": "group,day,from,to\nSlimming club,Mon,18:00,20:00\n"
                                                   "Tai chi,Wed,10:00,11:30\nBrownies,Thu,18:00,19:30\n",
     "community/hall/notes.md": "Autumn requests deadline: 30 June.\n"}, [
        Variant("requests in", Change(write={"community/hall/requests-autumn.csv": (
            "group,day,from,to\nSlimming club,Mon,18:00,20:00\nZumba,Mon,19:00,20:00\nTai chi,Wed,10:00,11:30\n"
            "Baby sensory,Wed,11:00,12:00\nBrownies,Thu,18:00,19:30\nU3A history,Thu,14:00,16:00\n"
            "Karate,Thu,19:00,20:30\n")}),
                ESCALATE, "the autumn requests are in, with clashes on Monday, Wednesday and Thursday: draft the "
                          "timetable"),
        Variant("summer change", Change(write={"community/hall/requests-summer.csv": (
            "group,day,from,to\nSlimming club,Mon,18:00,20:00\nTai chi,Wed,10:00,11:30\n")}),
                NOOP, "the Brownies drop their summer session; the autumn requests are not in"),
        Variant("deadline moved", Change(write={"community/hall/notes.md": "Autumn requests deadline: moved to 31 "
                                                                          "July.\n"}),
                NOOP, "the deadline for autumn requests moves to 31 July; none are in yet"),
    ])

SITUATIONS += family(
    "poll clerk day", "I'm a poll clerk on 7 May. When the elections office sends my polling day instructions, plan "
    "my day from them: when to leave, what to take, food, and how I get home after the close of poll (I don't "
    "drive)",
    {**HOME, "mail/2026-03-20-elections.txt": _mail(
        "Elections Office <elections@harbridge.gov.example>", "Polling day staff",
        "Thank you for agreeing to work as a poll clerk on 7 May. Your instructions will follow in April.")}, [
        Variant("instructions", Change(write={"mail/2026-04-22-elections.txt": _mail(
            "Elections Office <elections@harbridge.gov.example>", "Your polling day instructions",
            "Station: Kingsmead Scout Hut, Rowan Drive. Arrive 6.15am; polls open 7am to 10pm. Bring photo ID, "
            "food and drink for the day (no kitchen). You may not leave the station while the poll is open. After "
            "10pm, help the presiding officer pack up; expect to finish about 10.45pm.")}),
                ESCALATE, "the instructions are in: plan the day, including getting home at 10.45pm without a car"),
        Variant("count staff", Change(write={"mail/2026-04-22-elections.txt": _mail(
            "Elections Office <elections@harbridge.gov.example>", "Count staff wanted",
            "We still need counting assistants for the night of 7 May at the Guildhall. Reply if you can help.")}),
                NOOP, "a call for count staff, not the poll clerk's instructions"),
        Variant("training", Change(write={"mail/2026-04-22-elections.txt": _mail(
            "Elections Office <elections@harbridge.gov.example>", "Training for poll clerks",
            "Training is on Tuesday 28 April, 6.30pm at the Guildhall. Your polling day instructions will come "
            "after that.")}),
                NOOP, "a training session; the polling day instructions come later"),
    ])

_CRIME_FEB = ("# St Anne's ward - February 2026 (police figures)\n\n- burglary: 3\n- vehicle crime: 7\n"
              "- antisocial behaviour: 12\n- shoplifting: 9\n")
SITUATIONS += family(
    "crime figures", "When the police send the monthly crime figures for St Anne's ward (community/nhw/), write the "
    "summary for our neighbourhood watch newsletter, comparing them with the month before",
    {**HOME, "community/nhw/crime-2026-02.md": _CRIME_FEB}, [
        Variant("march figures", Change(write={"community/nhw/crime-2026-03.md": (
            "# St Anne's ward - March 2026 (police figures)\n\n- burglary: 5\n- vehicle crime: 4\n"
            "- antisocial behaviour: 15\n- shoplifting: 9\n")}),
                ESCALATE, "March's figures are in: write the newsletter summary against February's"),
        Variant("harbour ward", Change(write={"community/nhw/crime-2026-03-harbour.md": (
            "# Harbour ward - March 2026 (police figures)\n\n- burglary: 8\n- vehicle crime: 11\n"
            "- antisocial behaviour: 30\n")}),
                NOOP, "the new figures are for Harbour ward, not St Anne's"),
        Variant("february fixed", Change(write={"community/nhw/crime-2026-02.md": _CRIME_FEB.replace(
            "shoplifting: 9", "shoplifting: 8")}),
                NOOP, "February's figures get a correction; no new month has come"),
    ])

_QUIZ = ("# Hospice quiz night, Friday 15 May, Fernhill hall\n\n- tables: 16 booked of 20\n"
         "- sponsor: Hartley's Garage (prizes and 200 pounds towards costs)\n- quizmaster: Des\n")
SITUATIONS += family(
    "quiz sponsor", "If our sponsor for the hospice quiz night pulls out (fundraising/quiz-night.md), pick the "
    "likeliest local businesses from fundraising/contacts.md and draft asks to them",
    {**HOME, "fundraising/quiz-night.md": _QUIZ,
     "fundraising/contacts.md": "- The Plough (pub)\n- Fernhill Pharmacy\n- Greens estate agents\n"
                                "- Bloom & Co florist\n- Fernhill Co-op\n"}, [
        Variant("withdrawn", Change(write={"fundraising/quiz-night.md": _QUIZ.replace(
            "- sponsor: Hartley's Garage (prizes and 200 pounds towards costs)",
            "- sponsor: none now, Hartley's Garage have had to withdraw (business sold)")}),
                ESCALATE, "the sponsor has withdrawn: pick likely businesses and draft the asks"),
        Variant("logo sent", Change(write={"fundraising/quiz-night.md": _QUIZ.replace(
            "towards costs)", "towards costs), confirmed, logo sent for the posters")}),
                NOOP, "the sponsor confirms and sends a logo"),
        Variant("smaller gift", Change(write={"fundraising/quiz-night.md": _QUIZ.replace(
            "prizes and 200 pounds towards costs", "still in, prizes and 150 pounds this year")}),
                NOOP, "the sponsor gives less but is still in; it has not pulled out"),
    ], bystanders=("let me know when the raffle prize list is finished (fundraising/raffle.md)",))

_SCORES = ("# Scores I own\n\n- Fauré Requiem (Novello)\n- Handel Messiah (Watkins Shaw)\n"
           "- Rutter, Gloria\n- Vivaldi Gloria\n")
SITUATIONS += family(
    "autumn scores", "When Gillian posts the autumn concert programme (choir/), check which scores I already own "
    "(choir/my-scores.md) and draft an order for the rest, borrowing from the choir library where we can",
    {**HOME, "choir/my-scores.md": _SCORES,
     "choir/library.md": "# Choir library (sets on loan)\n\n- Brahms Requiem\n- Haydn Creation\n- Mozart Requiem\n"}, [
        Variant("programme posted", Change(write={"choir/autumn-programme-2026.md": (
            "# Autumn concert, Saturday 21 November\n\n- Mozart Requiem\n- Fauré Cantique de Jean Racine\n"
            "- Parry, I was glad\n- Vivaldi Gloria\n")}),
                ESCALATE, "the autumn programme is posted: check it against their scores and the library and draft "
                          "the order"),
        Variant("bought one", Change(append={"choir/my-scores.md": "- Britten, Ceremony of Carols\n"}),
                NOOP, "they added a score they own; no autumn programme is posted"),
        Variant("coming in july", Change(write={"choir/notes.md": (
            "Gillian: I'll announce the autumn programme at the end of term party in July.\n")}),
                NOOP, "the programme will be announced in July; it is not posted"),
    ])

_VENUES = ("# Repair café venues\n\n| venue | cost per session | step-free | parking | tables |\n"
           "|---|---|---|---|---|\n| Millbrook Library (now) | free | yes | street | 8 |\n"
           "| St Luke's hall | 35 pounds | yes | 10 spaces | 12 |\n| Scout hut | 20 pounds | no | none | 6 |\n"
           "| The Plough function room | free if we buy drinks | no | car park | 10 |\n")
SITUATIONS += family(
    "repair café venue", "If the library says we can't use their room for the repair café any more, compare the "
    "other venues in repaircafe/venues.md and draft a proposal for the group chat",
    {**HOME, "repaircafe/venues.md": _VENUES}, [
        Variant("warm hub", Change(write={"mail/2026-04-08-library.txt": _mail(
            "Millbrook Library <millbrook.library@harbridge.gov.example>", "The community room from June",
            "From June the community room will be the council's warm and well hub on Saturdays, so I'm sorry to "
            "say we can no longer host the repair café.")}),
                ESCALATE, "the library can no longer host them: compare the other venues and draft the proposal"),
        Variant("risk assessment", Change(write={"mail/2026-04-08-library.txt": _mail(
            "Millbrook Library <millbrook.library@harbridge.gov.example>", "Risk assessment",
            "Please send your updated risk assessment before the next session. The room is booked for you for the "
            "rest of the year as usual.")}),
                NOOP, "the library asks for a risk assessment; the room stays theirs for the year"),
        Variant("opening hours", Change(write={"mail/2026-04-08-library.txt": _mail(
            "Millbrook Library <millbrook.library@harbridge.gov.example>", "New opening hours",
            "From May the library opens at 9.30 instead of 9 on weekdays. Saturday hours and room bookings are "
            "unchanged.")}),
                NOOP, "the library's weekday hours change; Saturday room bookings are unchanged"),
    ])

_OPENING = ("# Fenton Library opening hours\n\nMon-Fri 9-7, Sat 10-4, Sun closed\n\n## Closures\n\n"
            "- Fri 3 April and Mon 6 April: Easter\n")
SITUATIONS += family(
    "library saturday", "tell me if the library's going to be shut on a Saturday in May (library/opening.md), "
    "that's when I take the kids",
    {**HOME, "library/opening.md": _OPENING}, [
        Variant("bank holidays", Change(append={"library/opening.md": (
            "- Mon 4 May and Mon 25 May: bank holidays\n")}),
                NOOP, "the May closures are on Mondays, not Saturdays"),
        Variant("june saturday", Change(append={"library/opening.md": (
            "- Sat 13 June: closed for staff training\n")}),
                NOOP, "the Saturday closure is in June, not May"),
        Variant("short saturday", Change(append={"library/opening.md": (
            "- Sat 16 May: open 10-1 only (staff training in the afternoon)\n")}),
                NOOP, "the library opens shorter hours on 16 May but is not shut"),
    ])

_LEAGUE = ("# Fenton Sunday League, Division 3 - grounds\n\n| team | home ground |\n|---|---|\n"
           "| Fenton Athletic (us) | Greenfield Park, pitch 2 |\n| Kingsmead Rangers | Kingsmead rec |\n"
           "| Quarry Arms FC | Quarry Road playing fields |\n\nOur kick-off: 10.30am\n")
SITUATIONS += family(
    "home pitch", "tell me if the league moves our home games away from Greenfield Park (club/sunday-league.md)",
    {**HOME, "club/sunday-league.md": _LEAGUE}, [
        Variant("rangers move", Change(write={"club/sunday-league.md": _LEAGUE.replace(
            "| Kingsmead Rangers | Kingsmead rec |", "| Kingsmead Rangers | Harbridge Academy 3G |")}),
                NOOP, "it is Kingsmead Rangers who move ground; Fenton stay at Greenfield Park"),
        Variant("pitch 4", Change(write={"club/sunday-league.md": _LEAGUE.replace(
            "Greenfield Park, pitch 2", "Greenfield Park, pitch 4 (pitch 2 reseeded)")}),
                NOOP, "they move to another pitch at Greenfield Park, not away from it"),
        Variant("kick-off", Change(write={"club/sunday-league.md": _LEAGUE.replace(
            "Our kick-off: 10.30am", "Our kick-off: 11am from September")}),
                NOOP, "only the kick-off time changes; the ground is the same"),
    ])
