"""The held-out labelled set no. 11 for ``bench/judgement.py``, written without reading how the product decides.

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


_HARLOW = ("# Harlow Joinery Ltd: year end 31 March 2026, records checklist\n\n"
           "| item | status | note |\n|---|---|---|\n| bank statements Apr-Mar | received | 12 May |\n"
           "| sales invoices | received | 12 May |\n| payroll summary | outstanding | |\n"
           "| fixed asset additions | outstanding | van bought in November? |\n")
SITUATIONS += family(
    "year-end records", "Tell me when Harlow Joinery have sent everything on their year-end checklist "
    "(clients/harlow-joinery.md)",
    {**HOME, "clients/harlow-joinery.md": _HARLOW}, [
        Variant("all in", Change(write={"clients/harlow-joinery.md": _HARLOW.replace(
            "| payroll summary | outstanding | |", "| payroll summary | received | 19 May |").replace(
            "| fixed asset additions | outstanding | van bought in November? |",
            "| fixed asset additions | received | 19 May, van invoice 18,400 + VAT |")}),
            ACT, "the last two items are now received, so the checklist is complete: tell the user"),
        Variant("payroll only", Change(write={"clients/harlow-joinery.md": _HARLOW.replace(
            "| payroll summary | outstanding | |", "| payroll summary | received | 19 May |")}),
            NOOP, "the payroll summary came in but the fixed asset list is still outstanding"),
        Variant("promise", Change(write={"inbox/2026-05-17-gail.txt": _mail(
            "Gail Harlow <gail@harlowjoinery.example>", "Re: year-end records",
            "Sorry for the delay! I'll dig out the van paperwork and the payroll report this weekend and send "
            "them over on Monday.")}),
            NOOP, "the client only promised to send the missing items; nothing new has arrived"),
        unrelated("clients/pennine-tiles.md", (
            "# Pennine Tiles: VAT quarter to June\n\n- purchase invoices received 2 July\n- query on the "
            "showroom refit sent to Dev\n")),
    ])
_EXTRAS = ("# Extra clinics, summer\n\n| date | day | dentist | nurse | hygienist |\n|---|---|---|---|---|\n"
           "| 7 June | Sat | Dr Mensah | Chloe | Tom Reilly |\n"
           "| 12 June | Thu (late) | Dr Ward | Aisha | Priya Shah |\n")
SITUATIONS += family(
    "saturday clinics",
    "I'm Priya Shah, the hygienist. If the practice puts me on a Saturday clinic, tell me which date",
    {**HOME, "rota/extra-clinics.md": _EXTRAS}, [
        Variant("new saturday", Change(append={"rota/extra-clinics.md": (
            "| 21 June | Sat | Dr Ward | Chloe | Priya Shah |\n")}),
            ACT, "Priya is down as hygienist for Saturday 21 June: tell her"),
        Variant("swap", Change(write={"rota/extra-clinics.md": _EXTRAS.replace(
            "| Chloe | Tom Reilly |", "| Chloe | Priya Shah (swapped with Tom) |")}),
            ACT, "after a swap Priya has the Saturday clinic on 7 June: tell her"),
        Variant("other priya", Change(append={"rota/extra-clinics.md": (
            "| 21 June | Sat | Dr Mensah | Priya Kaur | Tom Reilly |\n")}),
            NOOP, "the new Saturday went to Priya Kaur, a nurse, not to Priya Shah"),
        Variant("late clinic", Change(append={"rota/extra-clinics.md": (
            "| 26 June | Thu (late) | Dr Mensah | Chloe | Priya Shah |\n")}),
            NOOP, "Priya got another Thursday late clinic, not a Saturday"),
    ])
_FLEET = ("# Forklift fleet, Unit 7\n\n| truck | type | shifts |\n|---|---|---|\n"
          "| FL-01 | counterbalance 2.5 t | early, late |\n| FL-02 | reach truck | early |\n"
          "| FL-03 | reach truck | late, night |\n| FL-04 | counterbalance 3 t | night |\n\n"
          "Spares: one truck on loan from Unit 4 (weekdays only); Lift-Rite hire with 24 hours' notice.\n")
SITUATIONS += family(
    "forklift exams", "If a forklift fails its thorough examination, work out which shifts will be short of trucks "
    "and plan cover",
    {**HOME, "warehouse/fleet.md": _FLEET,
     "ops/logs/examinations.log": "2026-04-02 FL-01 thorough examination PASS, next due 2026-10-02 (R. Pike)\n"}, [
        Variant("mast chain", Change(append={"ops/logs/examinations.log": (
            "2026-04-16 FL-03 thorough examination FAIL: lift chain stretched beyond limit. Out of service until "
            "the chains are replaced (R. Pike)\n")}),
            ESCALATE, "FL-03 failed; working out the late and night shift gaps and planning cover needs reasoning"),
        Variant("brake defect", Change(append={"ops/logs/examinations.log": (
            "2026-04-16 FL-04 thorough examination: parking brake does not hold on the loading ramp. Report of "
            "defect issued, do not use until repaired (R. Pike)\n")}),
            ESCALATE, "a report of defect with 'do not use' is a failed examination: plan cover for the night shift"),
        Variant("pass with advisory", Change(append={"ops/logs/examinations.log": (
            "2026-04-16 FL-02 thorough examination PASS. Advisory: tyres at 60 %, plan replacement within six "
            "months (R. Pike)\n")}),
            NOOP, "FL-02 passed; an advisory is not a failure"),
        Variant("racking", Change(append={"ops/logs/examinations.log": (
            "2026-04-16 Racking inspection aisle 6: upright B6-3 dented, amber, offload within four weeks "
            "(R. Pike)\n")}),
            NOOP, "the damage is to the racking, not to a forklift"),
    ])
_LARCH = ("# 14 Larch Way: asking 325,000\n\n## Viewing feedback\n"
          "- 3 Mar, Mr and Mrs Dale: loved the garden, kitchen needs work, might book a second viewing.\n"
          "- 5 Mar, J. Obi: too far from the station for her.\n")
SITUATIONS += family(
    "larch way offers", "If anyone offers on 14 Larch Way, write a note for the vendors weighing it up against the "
    "asking price and the feedback so far",
    {**HOME, "sales/14-larch-way.md": _LARCH}, [
        Variant("offer in feedback", Change(append={"sales/14-larch-way.md": (
            "- 8 Mar, Tom and Ellie Bryce: second viewing done, they offer 312,000. Mortgage agreed in principle, "
            "nothing to sell.\n")}),
            ESCALATE, "an offer below the asking price came in: weighing it up for the vendors needs reasoning"),
        Variant("phoned offer", Change(memories=(
            "The Dales rang the office: 318k for Larch Way if the vendors leave the garden shed and the curtains.",)),
            ESCALATE, "the Dales made a conditional offer: the note for the vendors needs thought"),
        Variant("hedged", Change(append={"sales/14-larch-way.md": (
            "- 8 Mar, R. Kaur: liked it a lot, would probably offer once her own flat is sold.\n")}),
            NOOP, "a viewer who might offer later has not made an offer"),
        Variant("next door", Change(write={"inbox/2026-03-08-hughes.txt": _mail(
            "Mark Hughes <mark.hughes@example.com>", "Offer on 16 Larch Way",
            "Following Saturday's viewing we'd like to offer 298,000 for number 16. We're chain-free.")}),
            NOOP, "the offer is for number 16, not 14 Larch Way"),
    ])
_UPTIME = ("2026-05-12 09:00 kestreljoinery.co.uk 200 OK 310 ms\n2026-05-12 09:00 brightwellcafe.co.uk 200 OK 280 ms\n"
           "2026-05-12 09:05 kestreljoinery.co.uk 200 OK 295 ms\n2026-05-12 09:05 brightwellcafe.co.uk 200 OK 276 ms\n")
SITUATIONS += family(
    "client site down", "tell me if the Kestrel Joinery website goes down (ops/logs/uptime.log)",
    {**HOME, "ops/logs/uptime.log": _UPTIME}, [
        Variant("503 and timeout", Change(append={"ops/logs/uptime.log": (
            "2026-05-12 09:10 kestreljoinery.co.uk 503 Service Unavailable\n"
            "2026-05-12 09:10 brightwellcafe.co.uk 200 OK 281 ms\n"
            "2026-05-12 09:15 kestreljoinery.co.uk timeout after 30 s\n")}),
            ACT, "the Kestrel site returns 503 and then times out: tell the user it is down"),
        Variant("slow", Change(append={"ops/logs/uptime.log": (
            "2026-05-12 09:10 kestreljoinery.co.uk 200 OK 2,840 ms\n")}),
            NOOP, "the site is slow but still answering 200 OK; it is not down"),
        Variant("other client down", Change(append={"ops/logs/uptime.log": (
            "2026-05-12 09:10 kestreljoinery.co.uk 200 OK 301 ms\n"
            "2026-05-12 09:10 brightwellcafe.co.uk DOWN connection refused\n")}),
            NOOP, "it is the Brightwell Cafe site that is down; Kestrel answers normally"),
        nothing(),
    ], bystanders=("Let me know if Brightwell Cafe emails about changing their opening hours on the site",),
    system_tasks=True)
_RETAINERS = ("client,hours_included,hours_used,month\nMoorcroft Architects,20,14,May\nTalbot Legal,10,6.5,May\n"
              "Brightwell Cafe,8,2,May\n")
SITUATIONS += family(
    "retainer hours", "Warn me when a retainer client has used more than 80% of their hours this month "
    "(clients/retainers.csv)",
    {**HOME, "clients/retainers.csv": _RETAINERS}, [
        Variant("moorcroft 17 of 20", Change(write={"clients/retainers.csv": _RETAINERS.replace(
            "Moorcroft Architects,20,14,May", "Moorcroft Architects,20,17,May")}),
            ACT, "Moorcroft has used 17 of 20 hours, 85 %: warn the user"),
        Variant("talbot said aloud", Change(memories=(
            "Another two and a half hours on Talbot Legal's booking form today, so they're at 9 of their 10 "
            "this month.",)),
            ACT, "Talbot Legal is at 9 of 10 hours, 90 %: warn the user"),
        Variant("under", Change(write={"clients/retainers.csv": _RETAINERS.replace(
            "Moorcroft Architects,20,14,May", "Moorcroft Architects,20,15.5,May")}),
            NOOP, "15.5 of 20 hours is 77.5 %, not over 80 %"),
        Variant("exactly 80", Change(write={"clients/retainers.csv": _RETAINERS.replace(
            "Talbot Legal,10,6.5,May", "Talbot Legal,10,8,May")}),
            NOOP, "8 of 10 hours is exactly 80 %, not more than 80 %"),
    ])
_GRANTS = ("# Riverside Befrienders: grant applications\n\n| funder | project | amount | sent | status |\n"
           "|---|---|---|---|---|\n| Linwood Trust | Tuesday digital drop-in | 6,000 | 3 Feb | with funder |\n"
           "| Ashworth Foundation | phone befriending line | 14,500 | 17 Feb | with funder |\n")
_DROPIN = ("Tuesday digital drop-in: older people bring phones and tablets to the library, two volunteers each "
           "session help with video calls, online shopping and scam awareness. Budget: coordinator 10 h/month "
           "3,600; volunteer expenses 900; laptops 1,100; room hire 400. Safeguarding policy adopted 2023.\n")
SITUATIONS += family(
    "grant questions", "If a funder comes back asking for more information on one of our bids, prepare the answers "
    "from what's in grants/",
    {**HOME, "grants/tracker.md": _GRANTS, "grants/digital-drop-in.md": _DROPIN}, [
        Variant("linwood questions", Change(write={"inbox/2026-02-24-linwood.txt": _mail(
            "Fiona Reid <grants@linwoodtrust.example>", "Your application: Tuesday digital drop-in",
            "Our panel meets on 4 March. Before then could you send a breakdown of the volunteer expenses line, "
            "say how you will recruit the extra volunteers, and tell us when your safeguarding policy was last "
            "reviewed?")}),
            ESCALATE, "the funder asked three questions: preparing the answers from the grant files needs work"),
        Variant("ashworth call", Change(memories=(
            "Ashworth Foundation rang about the befriending line: they want to know how many people we'd reach in "
            "year one and how we'd measure loneliness. Answer by Friday.",)),
            ESCALATE, "a funder asked for more detail by phone: prepare the answers"),
        Variant("acknowledged", Change(write={"inbox/2026-02-18-ashworth.txt": _mail(
            "Ashworth Foundation <noreply@ashworth.example>", "Application received AF-2291",
            "Thank you for your application. Decisions will be made at our May meeting.")}),
            NOOP, "a receipt for the application asks for nothing"),
        Variant("new round", Change(write={"inbox/2026-02-24-linwood.txt": _mail(
            "Linwood Trust <grants@linwoodtrust.example>", "Autumn small grants",
            "Our autumn small grants round opens on 1 July. Guidance and the form are on our website.")}),
            NOOP, "an announcement of a future round is not a question about the bid"),
    ])
SITUATIONS += family(
    "hygiene rating", "If the hygiene inspection gives us anything under a 5, go through the inspector's notes and "
    "make an action plan for the kitchen team",
    {**HOME, "kitchen/inspections/2023-visit.md": "Food hygiene rating: 5 (very good). No issues noted.\n",
     "kitchen/specials.md": "Specials: crab linguine, pork belly with apple, lemon posset.\n"}, [
        Variant("rated 3", Change(write={"kitchen/inspections/2026-visit.md": (
            "Food hygiene rating: 3 (generally satisfactory). Walk-in fridge at 9 C at the time of the visit; "
            "cleaning schedule not signed since May; no records of probe thermometer checks; hand basin in the "
            "prep area blocked by a mixer. A revisit can be requested once these are fixed.\n")}),
            ESCALATE, "a 3 rating with several findings: making an action plan needs reasoning"),
        Variant("rated 5", Change(write={"kitchen/inspections/2026-visit.md": (
            "Food hygiene rating: 5 (very good). Minor: replace the cracked chopping board by the grill.\n")}),
            NOOP, "the kitchen kept its 5; a minor note does not call for a plan"),
        unrelated("kitchen/specials.md", "Specials: mackerel pate, lamb rump with peas, rhubarb fool.\n",
                  "only the specials board changed; no inspection result came in"),
    ])
_DELIVERIES = ("date,supplier,item,unit,ordered,received,price_per_unit\n"
               "2026-06-02,Harbourside Fish,hake,kg,12,12,14.50\n2026-06-02,Greenway Veg,carrots,kg,10,10,1.10\n")
SITUATIONS += family(
    "fish delivery", "tell me if a fish delivery comes in short (kitchen/deliveries.csv)",
    {**HOME, "kitchen/deliveries.csv": _DELIVERIES}, [
        Variant("hake short", Change(append={"kitchen/deliveries.csv": (
            "2026-06-04,Harbourside Fish,hake,kg,12,8,14.50\n2026-06-04,Harbourside Fish,mussels,kg,5,5,6.20\n")}),
            ACT, "only 8 of the 12 kg of hake arrived: tell the user"),
        Variant("no bass", Change(append={"kitchen/deliveries.csv": (
            "2026-06-04,Harbourside Fish,sea bass (whole),each,10,0,7.80\n")}),
            ACT, "none of the ten sea bass ordered came: the fish delivery is short"),
        Variant("veg short", Change(append={"kitchen/deliveries.csv": (
            "2026-06-04,Greenway Veg,carrots,kg,10,6,1.10\n2026-06-04,Harbourside Fish,hake,kg,12,12,14.50\n")}),
            NOOP, "the carrots came in short, but the fish arrived in full"),
        Variant("fish in full", Change(append={"kitchen/deliveries.csv": (
            "2026-06-04,Harbourside Fish,hake,kg,12,12,14.50\n"
            "2026-06-04,Harbourside Fish,crab (whole),each,6,6,9.00\n")}),
            NOOP, "everything ordered from the fishmonger arrived"),
    ], bystanders=("Let me know if Greenway Veg put their prices up",))
_EDEN = ("# 4B Eden Project trip, 19 June: 18 GBP each\n\n| pupil | paid |\n|---|---|\n| Amir K | yes |\n"
         "| Bella T | yes |\n| Callum R | yes |\n| Daisy M | no |\n| Ethan P | yes |\n| Freya L | yes |\n"
         "| George W | no |\n| Hana S | yes |\n")
SITUATIONS += family(
    "trip payments", "Let me know once every child in 4B has paid for the Eden trip (office/trips/eden-4b.md)",
    {**HOME, "office/trips/eden-4b.md": _EDEN}, [
        Variant("last two paid", Change(write={"office/trips/eden-4b.md": _EDEN.replace(
            "| Daisy M | no |", "| Daisy M | yes |").replace(
            "| George W | no |", "| George W | yes (hardship fund) |")}),
            ACT, "Daisy and George now show as paid, so the whole class has paid: tell the user"),
        Variant("one more", Change(write={"office/trips/eden-4b.md": _EDEN.replace(
            "| Daisy M | no |", "| Daisy M | yes |")}),
            NOOP, "Daisy paid but George still has not"),
        Variant("will pay friday", Change(write={"inbox/2026-06-09-wood.txt": _mail(
            "Lee Wood <lee.wood@example.net>", "George's trip money",
            "Sorry it's late, I'll send the 18 pounds in with George on Friday.")}),
            NOOP, "George's dad promises to pay on Friday; he has not paid yet"),
    ])
_SUNDAYS = ("# Millgate Museum volunteers: June Sundays\n\n| Sunday | front desk | gallery 1 | gallery 2 |\n"
            "|---|---|---|---|\n| 7 June | Derek | Ann | Sol |\n| 14 June | Maureen | Ann | Raj |\n"
            "| 21 June | Derek | Lila | Sol |\n| 28 June | Maureen | Raj | Ann |\n")
SITUATIONS += family(
    "front desk cover", "If a Sunday in June ends up with nobody on the front desk, remind me to find cover "
    "(volunteers/june-sundays.md)",
    {**HOME, "volunteers/june-sundays.md": _SUNDAYS}, [
        Variant("vacant", Change(write={"volunteers/june-sundays.md": _SUNDAYS.replace(
            "| 14 June | Maureen |", "| 14 June | (vacant, Maureen in hospital) |")}),
            ACT, "14 June has no one on the front desk now: remind the user to find cover"),
        Variant("derek pulls out", Change(memories=(
            "Derek can't do the desk on the 21st after all, it's his grandson's christening.",)),
            ACT, "Derek was the only front desk volunteer on 21 June: remind the user to find cover"),
        Variant("gallery gap", Change(write={"volunteers/june-sundays.md": _SUNDAYS.replace(
            "| 21 June | Derek | Lila | Sol |", "| 21 June | Derek | (vacant) | Sol |")}),
            NOOP, "the gap is in gallery 1; the front desk is still covered"),
        Variant("swap", Change(write={"volunteers/june-sundays.md": _SUNDAYS.replace(
            "| 7 June | Derek |", "| 7 June | Maureen |").replace("| 28 June | Maureen |", "| 28 June | Derek |")}),
            NOOP, "Derek and Maureen swapped Sundays; every front desk slot is still filled"),
    ], bystanders=("Tell me when the date for the new textiles exhibition opening is confirmed",))
_EBIKE = ("Voltra Metro 2, bought March 2025 from Cycle Hub (receipt in bike/receipt.pdf).\n"
          "Battery: 36 V 14 Ah, serial VB36-2210457. Charger: VC-2, serial C88213.\n")
SITUATIONS += family(
    "battery recall", "If Voltra recall batteries and mine is in the batch (serial in bike/ebike.md), work out what I "
    "need to do",
    {**HOME, "bike/ebike.md": _EBIKE}, [
        Variant("in range", Change(write={"inbox/2026-08-03-voltra.txt": _mail(
            "Voltra Bikes <safety@voltra.example>", "Safety recall: 36 V batteries",
            "Batteries with serials VB36-2208000 to VB36-2212999 may overheat while charging. Stop charging them now, "
            "register at voltra.example/recall, and your dealer will replace the battery free of charge. Bring "
            "proof of purchase and the charger.")}),
            ESCALATE, "the user's serial 2210457 is in the recalled range: working out the steps needs reasoning"),
        Variant("out of range", Change(write={"inbox/2026-08-03-voltra.txt": _mail(
            "Voltra Bikes <safety@voltra.example>", "Safety recall: 36 V batteries",
            "Batteries with serials VB36-2301000 to VB36-2304999 may overheat while charging. Stop charging them "
            "and register at voltra.example/recall.")}),
            NOOP, "the recalled range starts at 2301000; the user's battery, 2210457, is not in it"),
        Variant("forum rumour", Change(memories=(
            "Someone on the commuters' forum says Voltra batteries keep catching fire. Nothing official yet.",)),
            NOOP, "a forum rumour is not a recall"),
    ])
_AIR = ("date,leg,route,pm25_ugm3,no2_ugm3\n2026-01-12,am,canal path,14,38\n2026-01-12,pm,ring road,19,44\n")
SITUATIONS += family(
    "commute air", "Tell me whenever the PM2.5 on my cycle commute goes over 35",
    {**HOME, "commute/air.csv": _AIR}, [
        Variant("41", Change(append={"commute/air.csv": "2026-01-13,am,ring road,41,52\n"}),
                ACT, "this morning's PM2.5 was 41, over 35: tell the user"),
        Variant("34", Change(append={"commute/air.csv": "2026-01-13,am,ring road,34,47\n"}),
                NOOP, "34 is just under the threshold of 35"),
        Variant("no2 high", Change(append={"commute/air.csv": "2026-01-13,pm,ring road,22,88\n"}),
                NOOP, "NO2 was high but PM2.5 was only 22"),
        nothing(),
    ], system_tasks=True)
SITUATIONS += family(
    "kit order", "When Coach Dean confirms he's ordered the new kit, add what it cost to football/budget.md",
    {**HOME, "football/budget.md": "# Hawks U11 budget\n- pitch hire, spring: 240\n- referee fees: 90\n",
     "inbox/2026-03-02-dean.txt": _mail("Dean Carter <dean.c@example.org>", "Kit sizes",
                                        "Parents, please send me your child's shirt and shorts size by Friday.")}, [
        Variant("order placed", Change(write={"inbox/2026-03-09-dean.txt": _mail(
            "Dean Carter <dean.c@example.org>", "Kit ordered!",
            "Ordered the new kit with Matchday Kits this morning: 14 sets of shirt, shorts and socks, 364 pounds "
            "in total. Should be here in about three weeks.")}),
            ACT, "Dean confirmed the order at 364 pounds: add one line to the budget"),
        Variant("told at training", Change(memories=(
            "Dean said at training the kit's ordered now, 26 quid a set for the 14 kids.",)),
            ACT, "Dean confirmed the order (14 x 26 = 364 pounds): add the cost to the budget"),
        Variant("waiting for sizes", Change(write={"inbox/2026-03-09-dean.txt": _mail(
            "Dean Carter <dean.c@example.org>", "Re: Kit sizes",
            "Still missing sizes from three families, so I haven't ordered yet. Please chase if that's you!")}),
            NOOP, "Dean has not ordered the kit yet"),
        Variant("under 9s", Change(write={"inbox/2026-03-09-sharon.txt": _mail(
            "Sharon Ellis <sharon.e@example.org>", "U9 kit",
            "Just to say the U9 Hawks kit is ordered, 11 sets, 286 pounds. Thanks for sorting the sizes so fast.")}),
            NOOP, "the order is the U9s', confirmed by Sharon, not the kit Dean is ordering"),
    ])
SITUATIONS += family(
    "parking permit", "let me know when my staff parking permit at the hospital comes through",
    {**HOME, "work/parking.md": "Applied for a staff parking permit on 2 Feb (ward 7, nights). Waiting list: 14th.\n"},
    [
        Variant("approved", Change(write={"mail/2026-03-20-estates.txt": _mail(
            "Estates and Facilities <parking@trust-estates.example>", "Staff parking permit",
            "Your application has been approved: Zone C, multi-storey, valid from 1 April. Collect your hanger "
            "from the security office with your ID badge.")}),
            ACT, "the permit was approved: tell the user"),
        Variant("list moved", Change(write={"mail/2026-03-20-estates.txt": _mail(
            "Estates and Facilities <parking@trust-estates.example>", "Staff parking waiting list",
            "You are now number 9 on the waiting list for a staff parking permit.")}),
            NOOP, "the user moved up the waiting list but has no permit yet"),
        Variant("colleague", Change(memories=("Jas on ward 7 finally got her parking permit today, lucky thing.",)),
            NOOP, "it is a colleague's permit that came through, not the user's"),
    ])
_WATCH = ("# Fernhill area watch: reports\n\n- 2 Oct: bike taken from outside the Co-op on Station Parade.\n"
          "- 5 Oct: street party planning meeting, date still to be agreed.\n")
SITUATIONS += family(
    "break-ins", "If the neighbourhood watch reports a break-in or an attempted one on Fernhill Road, tell me",
    {**HOME, "watch/reports.md": _WATCH}, [
        Variant("shed forced", Change(append={"watch/reports.md": (
            "- 9 Oct: someone tried to force the shed at 22 Fernhill Road overnight, padlock bent but held. "
            "Police told, ref 4411.\n")}),
            ACT, "an attempted break-in on Fernhill Road: tell the user"),
        Variant("avenue", Change(append={"watch/reports.md": (
            "- 9 Oct: back door forced at 6 Fernhill Avenue while the owners were away.\n")}),
            NOOP, "the break-in was on Fernhill Avenue, not Fernhill Road"),
        Variant("van", Change(append={"watch/reports.md": (
            "- 9 Oct: white van parked on Fernhill Road for two hours; it was the water board checking meters.\n")}),
            NOOP, "a van that turned out to be the water board is not a break-in"),
        nothing(),
    ], bystanders=("Tell me when the street party date is agreed",))
_ANCHOR = "# The Anchor: guest reviews\n\n- 5/5, Mr and Mrs Lowe: great breakfast, room 3 has a lovely sea view.\n"
SITUATIONS += family(
    "bar noise reviews", "If a review in hotel/reviews.md complains about noise from the bar, draft a reply and "
    "suggest what we could change",
    {**HOME, "hotel/reviews.md": _ANCHOR,
     "hotel/about.md": ("The Anchor: nine rooms above the bar. Karaoke in the bar on Fridays until midnight. "
                        "Rooms 2, 4 and 5 are directly over it.\n")}, [
        Variant("music", Change(append={"hotel/reviews.md": (
            "- 2/5, D. Patel: the music from the bar came through the floor until gone midnight. Lovely staff, but "
            "we hardly slept.\n")}),
            ESCALATE, "a guest complains about bar music: drafting a reply and suggesting changes needs reasoning"),
        Variant("karaoke", Change(append={"hotel/reviews.md": (
            "- 3/5, anonymous: Friday's karaoke right under room 4 was still going at twelve. Breakfast was "
            "excellent though.\n")}),
            ESCALATE, "the karaoke under room 4 is the bar's noise: draft the reply and suggestions"),
        Variant("praise", Change(append={"hotel/reviews.md": (
            "- 5/5, S. Grey: lively bar downstairs, great cocktails, and our room was quiet as anything.\n")}),
            NOOP, "the review praises the bar and says the room was quiet"),
        Variant("bin lorries", Change(append={"hotel/reviews.md": (
            "- 3/5, R. Moss: woken at six by the bin lorries on the quay. Otherwise fine.\n")}),
            NOOP, "the noise complaint is about bin lorries outside, not the bar"),
    ])
_CLUB = ("# Sunday 10 May, handicap race\n\n| place | boat | sail no | helm |\n|---|---|---|---|\n"
         "| 1 | Tern | 3012 | A. Fox |\n| 2 | Kittiwake | 2290 | M. Rees |\n| 3 | Shearwater | 1985 | B. Lam |\n"
         "| 4 | Puffin | 2817 | J. Hale |\n| 5 | Gannet | 2455 | P. Ward |\n")
SITUATIONS += family(
    "race results", "Whenever I get a Sunday race result, log my place in sailing/my-results.md. I sail Puffin, 2817",
    {**HOME, "sailing/my-results.md": "# My results\n- 3 May: 6th of 11\n"}, [
        Variant("posted", Change(write={"sailing/club-results.md": _CLUB}),
                ACT, "the club posted Sunday's results with Puffin 4th: log one line"),
        Variant("said aloud", Change(memories=("Came third in Puffin on Sunday, best result all season!",)),
                ACT, "the user gave a Sunday race result: log it"),
        Variant("wednesday series", Change(write={"sailing/club-results.md": _CLUB.replace(
            "Sunday 10 May, handicap race", "Wednesday 13 May, evening series race 3")}),
                NOOP, "these are Wednesday evening results, not a Sunday race"),
        Variant("abandoned", Change(memories=("Sunday's race was abandoned, gusting 35 knots, nobody finished.",)),
                NOOP, "the race was abandoned, so there is no place to log"),
    ])
_STUDIO = ("# Bookings, week of 11 May\n\n| room | day | from | to | who |\n|---|---|---|---|---|\n"
           "| Studio B | Thu 14 May | 13:00 | 17:00 | me: Lowfield mixdown |\n"
           "| Studio A | Thu 14 May | 10:00 | 16:00 | Harbour Lights, drums |\n")
SITUATIONS += family(
    "studio clash", "Tell me if anyone books Studio B on top of my Thursday session (studio/bookings.md)",
    {**HOME, "studio/bookings.md": _STUDIO}, [
        Variant("overlap", Change(append={"studio/bookings.md": (
            "| Studio B | Thu 14 May | 15:00 | 19:00 | Mira Cole, vocals |\n")}),
            ACT, "a booking from 15:00 overlaps the user's 13:00-17:00 session: tell the user"),
        Variant("studio a", Change(append={"studio/bookings.md": (
            "| Studio A | Thu 14 May | 16:00 | 20:00 | Mira Cole, vocals |\n")}),
            NOOP, "the new booking is in Studio A, not Studio B"),
        Variant("straight after", Change(append={"studio/bookings.md": (
            "| Studio B | Thu 14 May | 17:00 | 21:00 | Mira Cole, vocals |\n")}),
            NOOP, "the booking starts at 17:00, when the user's session ends; they do not overlap"),
    ])
_COPY = ("# Hartwell Arms summer menu: copy as supplied\n\nStarters: tomato soup 6.00; Ceasar salad 7.50; "
         "potted shrimp 8.00\nMains: lamb shank 18.00; mushroom risotto 14.00; fish and chips 15.50\n"
         "Desserts: sticky toffee pudding 6.50; cheese board 9.00\nBookings: 01632 96012\n")
SITUATIONS += family(
    "menu proof", "When Hartwell's send back corrections on their menu proof, list every edit and check each one "
    "against the copy they sent us first",
    {**HOME, "proofs/hartwell-copy.md": _COPY,
     "proofs/status.md": "Hartwell menu: proof v1 sent 4 June, waiting for comments.\n"}, [
        Variant("mailed corrections", Change(write={"inbox/2026-06-06-hartwell.txt": _mail(
            "Lena Hartwell <lena@hartwellarms.example>", "Re: menu proof v1",
            "A few changes: the soup should be 6.50, 'Ceasar' is spelt wrong, please take off the lamb shank and "
            "the phone number is missing a digit, it's 01632 960127.")}),
            ESCALATE, "corrections came back: listing them and checking each against the original copy needs care"),
        Variant("marked-up notes", Change(write={"proofs/hartwell-markup.md": (
            "Proof v1, comments from Lena (by phone): move the logo to the left; add (V) after the risotto; put "
            "the cheese board before the pudding; fish and chips is 16.00 now.\n")}),
            ESCALATE, "the client's corrections are in: go through each against the copy"),
        Variant("approved", Change(write={"inbox/2026-06-06-hartwell.txt": _mail(
            "Lena Hartwell <lena@hartwellarms.example>", "Re: menu proof v1",
            "Looks perfect, please go ahead and print 200.")}),
            NOOP, "the proof was approved with no corrections"),
        Variant("at the weekend", Change(write={"inbox/2026-06-06-hartwell.txt": _mail(
            "Lena Hartwell <lena@hartwellarms.example>", "Re: menu proof v1",
            "Thanks! We'll go through it at the weekend and come back to you on Monday.")}),
            NOOP, "the client has not sent any corrections yet"),
    ], bystanders=("Remind me when the new box of laminating pouches is delivered",))
_SPLIT = ("# 23 Cobden Street bills (Sam, Rhiannon, Kwame and me, split four ways)\n\n"
          "| bill | last amount | period |\n|---|---|---|\n| water | 96.40 | Jan-Mar |\n"
          "| electricity | 142.10 | March |\n| broadband | 32.00 | March |\n")
SITUATIONS += family(
    "bill jump", "If one of the flat's bills comes in a lot higher than last time, work out why and what each of us "
    "owes",
    {**HOME, "bills/split.md": _SPLIT}, [
        Variant("water doubles", Change(write={"bills/2026-07-water.md": (
            "Severn Vale Water, 23 Cobden Street. Period Apr-Jun. Amount due 212.80. Reading: estimated (we could "
            "not read your meter).\n")}),
            ESCALATE, "water more than doubled on an estimated reading: working out why and the split needs thought"),
        Variant("discount ended", Change(write={"mail/2026-04-03-fibrelink.txt": _mail(
            "Fibrelink <billing@fibrelink.example>", "Your April bill",
            "Your 12-month introductory discount has ended. Your bill for April is 54.00.")}),
            ESCALATE, "broadband went from 32 to 54: explain it and work out each share"),
        Variant("about the same", Change(write={"bills/2026-04-electricity.md": (
            "Northgrid Energy, 23 Cobden Street. April. Amount due 146.30.\n")}),
            NOOP, "146.30 against 142.10 last time is not a lot higher"),
        Variant("rumour", Change(memories=("Sam reckons the water company is putting prices up next year.",)),
            NOOP, "talk of a future rise is not a bill"),
    ])
SITUATIONS += family(
    "hydro slot", "Remind me if Biscuit's hydrotherapy slot gets moved",
    {**HOME, "dog/hydro.md": ("Biscuit (cocker spaniel, knee op in March): hydrotherapy at Paws and Waves, "
                              "Wednesdays 4 pm, six sessions.\n")}, [
        Variant("moved by mail", Change(write={"inbox/2026-05-18-paws.txt": _mail(
            "Paws and Waves <hello@pawsandwaves.example>", "This week's session",
            "Our pool heater is being serviced on Wednesday, so we've moved Biscuit to Thursday at 10:30 this "
            "week only. Sorry for the bother!")}),
            ACT, "Biscuit's session moved to Thursday: remind the user"),
        Variant("phoned", Change(memories=("Paws and Waves rang, Biscuit's at 5 on Wednesday from now on, not 4.",)),
            ACT, "the slot moved from 4 pm to 5 pm: remind the user"),
        Variant("usual reminder", Change(write={"inbox/2026-05-18-paws.txt": _mail(
            "Paws and Waves <hello@pawsandwaves.example>", "Reminder",
            "See you and Biscuit on Wednesday at 4. Please bring a towel and a favourite toy.")}),
            NOOP, "the mail confirms the usual slot; nothing moved"),
        Variant("friday dogs", Change(write={"inbox/2026-05-18-paws.txt": _mail(
            "Paws and Waves <hello@pawsandwaves.example>", "Friday sessions",
            "The pool is closed this Friday for a staff day. All Friday dogs have been moved to Saturday morning.")}),
            NOOP, "only Friday sessions moved; Biscuit's is on Wednesday"),
    ])
