"""The third held-out labelled set for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring): ``noop`` when nothing that
changed meets the task's condition (near misses included: another person, pet, account, host or environment;
something pending, scheduled or promised; a figure on the wrong side of a threshold; an old file edited where a
new one is awaited; the same words in an unrelated context), ``act`` for a small action once it is met (tell,
remind, append one line), ``escalate`` for drafting, planning, reviewing, comparing, explaining or investigating
once it is met. Its families appear neither in ``bench/judgement_set.py`` nor in the two earlier held-out sets.
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

BREAD = "Soda bread: 500 g wholemeal flour, 450 ml buttermilk, one teaspoon of baking soda; bake 40 minutes.\n"
CHOIR = "Choir: Wednesdays 19:30 at St Anne's hall; bring the green folder.\n"


def _situations() -> list[Situation]:
    s: list[Situation] = []

    s += family("vet booster", "Remind me to book Biscuit's booster jab when the vet's reminder comes in mail/",
                {**HOME, "mail/2026-11-18-paws.txt": _mail("Paws & Claws Vets", "Opening hours over Christmas",
                                                           "We close from 24 to 27 December.")}, [
        Variant("reminder for Biscuit", Change(write={"mail/2026-12-02-paws.txt": _mail(
            "Paws & Claws Vets", "Biscuit is due for a vaccination",
            "Our records show Biscuit's yearly booster is due this month. Call us to book a slot.")}),
            ACT, "the vet's reminder about Biscuit's booster arrived: remind the user to book it"),
        Variant("reminder for the other cat", Change(write={"mail/2026-12-02-paws.txt": _mail(
            "Paws & Claws Vets", "Pepper is due for a vaccination",
            "Our records show Pepper's yearly booster is due this month. Call us to book a slot.")}),
            NOOP, "the reminder is for Pepper, not Biscuit"),
        Variant("vet newsletter", Change(write={"mail/2026-12-02-paws.txt": _mail(
            "Paws & Claws Vets", "Winter tips", "Keep antifreeze away from pets and check paws after walks on "
                                                "gritted roads.")}),
            NOOP, "a newsletter from the vet, no booster reminder"),
        nothing(),
    ])

    card = "date,merchant,amount_eur\n2026-11-28,Corner Grocer,42.10\n2026-11-29,Railways,118.00\n"
    s += family("big card payment", "Let me know if any single payment on my credit card (finance/card.csv) "
                                     "is over 500 EUR", {**HOME, "finance/card.csv": card}, [
        Variant("laptop", Change(append={"finance/card.csv": "2026-12-01,Techstore Online,1249.00\n"}),
                ACT, "a payment of 1249 EUR is over 500 EUR: tell the user"),
        Variant("just over", Change(append={"finance/card.csv": "2026-12-01,Skyline Air,512.60\n"}),
                ACT, "512.60 EUR is over the 500 EUR line: tell the user"),
        Variant("just under", Change(append={"finance/card.csv": "2026-12-01,Furniture Barn,499.90\n"}),
                NOOP, "499.90 EUR stays below 500 EUR"),
        Variant("other account", Change(write={"finance/current-account.csv": (
            "date,payee,amount_eur\n2026-12-01,Rent December,950.00\n")}),
            NOOP, "the large amount is the rent on the current account, not a card payment"),
    ])

    bank = "date,text,amount_eur\n2026-11-20,LUMO SHOES ONLINE,-89.00\n2026-11-25,SALARY,2710.00\n"
    s += family("shoe refund", "Tell me when the refund from Lumo Shoes shows up on my bank statement",
                {**HOME, "finance/bank.csv": bank}, [
        Variant("credit booked", Change(append={"finance/bank.csv": "2026-12-02,LUMO SHOES RETURN CREDIT,89.00\n"}),
                ACT, "the 89 EUR credit from Lumo Shoes is on the statement: tell the user"),
        Variant("promised by mail", Change(write={"mail/2026-12-02-lumo.txt": _mail(
            "Lumo Shoes", "We received your return", "Your refund of 89.00 EUR will be issued within 5 to 7 "
                                                     "working days.")}),
            NOOP, "the refund is promised, not yet on the statement"),
        Variant("new purchase", Change(append={"finance/bank.csv": "2026-12-02,LUMO SHOES ONLINE,-64.50\n"}),
                NOOP, "a new purchase from Lumo Shoes, money going out, not the refund"),
        unrelated("notes/bread.md", BREAD),
    ])

    s += family("daycare pickup", "Ping me if Sam says he can't pick up the kids from daycare", HOME, [
        Variant("plain", Change(memories=("Sam: I can't pick up the kids from daycare today, the meeting runs "
                                          "late.",)),
                ACT, "Sam says he can't do the daycare pickup: ping the user"),
        Variant("other words", Change(memories=("Sam: stuck on the motorway, no way I make it to the nursery "
                                                "before it closes, can you get them?",)),
                ACT, "Sam won't make it to the nursery in time: the pickup falls through, ping the user"),
        Variant("Sam will go", Change(memories=("Sam: I'll grab the kids from daycare at 5, see you at home.",)),
                NOOP, "Sam is picking the kids up"),
        Variant("another parent", Change(memories=("Priya: I can't pick up my two from daycare tomorrow, "
                                                   "could anyone help?",)),
                NOOP, "it is Priya who cannot pick up her children, not Sam"),
    ])

    health = "2026-12-02 09:00 api.shopfront.example UP 142ms\n2026-12-02 09:05 api.shopfront.example UP 151ms\n"
    s += family("api down", "Whenever the health check in ops/logs/healthcheck.log reports the API as down, "
                            "tell me", {**HOME, "ops/logs/healthcheck.log": health}, [
        Variant("down", Change(append={"ops/logs/healthcheck.log": (
            "2026-12-02 09:10 api.shopfront.example DOWN timeout after 10s\n")}),
            ACT, "the health check reports the API down: tell the user"),
        Variant("unreachable", Change(append={"ops/logs/healthcheck.log": (
            "2026-12-02 09:10 api.shopfront.example FAIL connection refused (3 consecutive failures)\n")}),
            ACT, "three refused connections in a row mean the API is down: tell the user"),
        Variant("still up", Change(append={"ops/logs/healthcheck.log": (
            "2026-12-02 09:10 api.shopfront.example UP 160ms\n")}),
            NOOP, "the API answers normally"),
        Variant("blog down", Change(append={"ops/logs/healthcheck.log": (
            "2026-12-02 09:10 blog.shopfront.example DOWN timeout after 10s\n"
            "2026-12-02 09:10 api.shopfront.example UP 149ms\n")}),
            NOOP, "the blog is down; the API is up"),
    ])

    s += family("braces", "Remind me to ask for a day off when the orthodontist gives Noah a date for his braces",
                HOME, [
        Variant("date given", Change(write={"mail/2026-12-02-ortho.txt": _mail(
            "Bright Smile Orthodontics", "Noah's appointment",
            "We have booked Noah in to have his braces fitted on Tuesday 13 January at 10:30.")}),
            ACT, "Noah has a date for his braces: remind the user to ask for the day off"),
        Variant("date to follow", Change(write={"mail/2026-12-02-ortho.txt": _mail(
            "Bright Smile Orthodontics", "Noah's treatment",
            "The impressions went well. We will contact you in January with a date for fitting the braces.")}),
            NOOP, "no date yet, only a promise to send one"),
        Variant("sister's check-up", Change(write={"mail/2026-12-02-ortho.txt": _mail(
            "Bright Smile Orthodontics", "Ella's check-up", "Ella's check-up is on Friday 9 January at 15:00.")}),
            NOOP, "the date is for Ella's check-up, not Noah's braces"),
        nothing(),
    ])

    s += family("domain renewal", "Let me know once shopfront.example is renewed (registrar mails land in mail/)",
                HOME, [
        Variant("extended", Change(write={"mail/2026-12-02-registrar.txt": _mail(
            "NameHarbour", "Renewal successful",
            "shopfront.example has been extended for one year; new expiry date 14 December 2027.")}),
            ACT, "the domain is renewed until 2027: tell the user"),
        Variant("auto-renew paid", Change(write={"mail/2026-12-02-registrar.txt": _mail(
            "NameHarbour", "Receipt 55812",
            "We charged 14.00 EUR to your card for the automatic one-year renewal of shopfront.example.")}),
            ACT, "the automatic renewal of shopfront.example went through: tell the user"),
        Variant("expiry warning", Change(write={"mail/2026-12-02-registrar.txt": _mail(
            "NameHarbour", "Your domain expires soon",
            "shopfront.example expires on 14 December 2026. Renew now to keep it.")}),
            NOOP, "a warning that it will expire; it has not been renewed"),
        Variant("other domain", Change(write={"mail/2026-12-02-registrar.txt": _mail(
            "NameHarbour", "Renewal successful",
            "oldblog.example has been extended for one year; new expiry date 3 December 2027.")}),
            NOOP, "a different domain was renewed"),
    ])

    s += family("gas reading", "Remind me to send the gas meter reading when the utility asks for it", HOME, [
        Variant("asked", Change(write={"mail/2026-12-02-citygas.txt": _mail(
            "CityGas", "Your annual meter reading",
            "Please send us the reading of your gas meter (no. G-20417) by 15 December.")}),
            ACT, "the gas company asks for the reading: remind the user"),
        Variant("reading received", Change(write={"mail/2026-12-02-citygas.txt": _mail(
            "CityGas", "Thank you", "We have received your gas meter reading of 18,402 m³.")}),
            NOOP, "the gas company confirms a reading it already has; it asks for nothing"),
        Variant("water meter", Change(write={"mail/2026-12-02-waterworks.txt": _mail(
            "Town Waterworks", "Water meter reading", "Please send us the reading of your water meter by 20 "
                                                      "December.")}),
            NOOP, "the waterworks ask for the water meter, not the gas meter"),
        nothing(),
    ])

    porto = "Porto, 20-23 February\nHotel Ribeira Azul: booking request sent 1 December\n"
    s += family("porto hotel", "Tell me when the hotel in Porto confirms our booking (travel/porto.md)",
                {**HOME, "travel/porto.md": porto}, [
        Variant("confirmed", Change(append={"travel/porto.md": "Hotel Ribeira Azul: CONFIRMED, reservation "
                                                               "RA-7731, double room, 3 nights\n"}),
                ACT, "the hotel confirmed the booking: tell the user"),
        Variant("looking forward", Change(append={"travel/porto.md": (
            "Reply from Ribeira Azul: 'Your room is reserved for 20-23 February, we look forward to welcoming "
            "you.'\n")}),
            ACT, "the hotel says the room is reserved: that is a confirmation, tell the user"),
        Variant("waiting list", Change(append={"travel/porto.md": (
            "Reply from Ribeira Azul: fully booked on the 21st, you are on our waiting list.\n")}),
            NOOP, "the booking is on a waiting list, not confirmed"),
        Variant("other hotel", Change(write={"travel/lisbon.md": "Lisbon, 23-25 February\nCasa Alfama: "
                                                                 "CONFIRMED\n"}),
            NOOP, "a hotel in Lisbon confirmed, not the one in Porto"),
    ])

    s += family("trial end", "Let me know if the Pixelbox free trial is about to turn into a paid plan", HOME, [
        Variant("ends soon", Change(write={"mail/2026-12-02-pixelbox.txt": _mail(
            "Pixelbox", "Your trial ends in 3 days",
            "On 5 December your free trial ends and Pixelbox Plus will cost 9.99 EUR a month.")}),
            ACT, "the trial turns paid in three days: tell the user"),
        Variant("first charge next week", Change(write={"mail/2026-12-02-pixelbox.txt": _mail(
            "Pixelbox", "Enjoying Pixelbox?",
            "Your first monthly payment of 9.99 EUR will be taken on 8 December.")}),
            ACT, "the first payment is a week away: the trial is about to become paid, tell the user"),
        Variant("feature news", Change(write={"mail/2026-12-02-pixelbox.txt": _mail(
            "Pixelbox", "New this week", "Shared albums and a new photo editor are here.")}),
            NOOP, "product news, nothing about the trial ending"),
        Variant("other service", Change(write={"mail/2026-12-02-readly.txt": _mail(
            "Readmore", "Your trial ends in 3 days", "After 5 December Readmore costs 7.99 EUR a month.")}),
            NOOP, "it is the Readmore trial that ends, not Pixelbox"),
    ])

    migrate = "2026-12-02 01:58 migration 0042_orders_index queued\n"
    s += family("migration", "Ping me once the database migration in ops/logs/migrate.log has finished",
                {**HOME, "ops/logs/migrate.log": migrate}, [
        Variant("completed", Change(append={"ops/logs/migrate.log": (
            "2026-12-02 02:00 migration 0042_orders_index started\n"
            "2026-12-02 02:07 migration 0042_orders_index completed in 412 s\n")}),
            ACT, "the migration completed: ping the user"),
        Variant("in progress", Change(append={"ops/logs/migrate.log": (
            "2026-12-02 02:00 migration 0042_orders_index started\n"
            "2026-12-02 02:04 migration 0042_orders_index 58 % of rows processed\n")}),
            NOOP, "the migration is still running"),
        Variant("staging done", Change(write={"ops/logs/migrate-staging.log": (
            "2026-12-02 01:10 migration 0042_orders_index completed in 35 s\n")}),
            NOOP, "the staging migration finished; the one in migrate.log has not"),
        nothing(),
    ])

    claim = "Baggage claim FR-55120: grey suitcase, lost on flight to Frankfurt\nStatus: search started\n"
    s += family("suitcase", "Tell me when the airline finds my suitcase", {**HOME, "travel/baggage-claim.md": claim}, [
        Variant("located", Change(write={"travel/baggage-claim.md": claim.replace(
            "search started", "bag located at Frankfurt airport, courier delivery to your address tomorrow")}),
            ACT, "the suitcase has been located: tell the user"),
        Variant("still searching", Change(write={"travel/baggage-claim.md": claim.replace(
            "search started", "search continues, the bag has not been traced yet")}),
            NOOP, "the suitcase is still missing"),
        Variant("found umbrella", Change(memories=("Found my umbrella in the car, it was never lost after all.",)),
                NOOP, "the user found an umbrella; the suitcase is still with the airline"),
        unrelated("notes/choir.md", CHOIR),
    ])

    payments = "# School payments for Ada\n\n- 2026-09-10 class fund 15 EUR\n"
    s += family("school payments", "Whenever Ada's school asks for money, add it as a line to kids/payments.md",
                {**HOME, "kids/payments.md": payments}, [
        Variant("museum trip", Change(write={"mail/2026-12-02-school.txt": _mail(
            "Willow Primary, class 3B", "Museum trip",
            "The class visits the science museum on 16 December. Please send 12 EUR with Ada by Friday.")}),
            ACT, "the school asks for 12 EUR for the trip: add one line to the payments list"),
        Variant("parents' evening", Change(write={"mail/2026-12-02-school.txt": _mail(
            "Willow Primary, class 3B", "Parents' evening", "Parents' evening is on 10 December from 17:00.")}),
            NOOP, "the school writes about parents' evening; it asks for no money"),
        Variant("swimming club", Change(write={"mail/2026-12-02-swim.txt": _mail(
            "Otters Swimming Club", "Spring term fee", "The spring term fee for Ada is 45 EUR.")}),
            NOOP, "the swimming club asks for the fee, not the school"),
        nothing(),
    ])

    rex = "# Rex\n\nWorming tablets:\n- 2026-09-01\n"
    s += family("worming", "Whenever I tell you I gave Rex his worming tablet, log the date in pets/rex.md",
                {**HOME, "pets/rex.md": rex}, [
        Variant("plain", Change(memories=("I just gave Rex his worming tablet.",)),
                ACT, "the user gave Rex the tablet: append the date"),
        Variant("other words", Change(memories=("Rex finally swallowed the dewormer this morning, hidden in "
                                                "cheese.",)),
                ACT, "Rex took his dewormer today: append the date"),
        Variant("tomorrow", Change(memories=("I need to give Rex his worming tablet tomorrow, don't let me "
                                             "forget.",)),
                NOOP, "the tablet has not been given yet"),
        nothing(),
    ])

    s += family("gym cancellation", "If the gym refuses to cancel my membership, draft a complaint",
                {**HOME, "mail/2026-11-25-fitbox.txt": _mail("FitBox", "Cancellation received",
                                                             "We will process your request shortly.")}, [
        Variant("refused", Change(write={"mail/2026-12-02-fitbox.txt": _mail(
            "FitBox", "Your cancellation",
            "We cannot accept your cancellation: your contract has a minimum term until 30 June 2027.")}),
            ESCALATE, "the gym refused the cancellation: draft a complaint"),
        Variant("refused in other words", Change(write={"mail/2026-12-02-fitbox.txt": _mail(
            "FitBox", "Your cancellation",
            "Unfortunately your request does not meet our conditions, so your membership continues and we "
            "will keep collecting the monthly fee.")}),
            ESCALATE, "the gym keeps the membership running against the user's wish: draft a complaint"),
        Variant("accepted", Change(write={"mail/2026-12-02-fitbox.txt": _mail(
            "FitBox", "Your cancellation", "Your membership ends on 31 December; the last fee is taken on "
                                           "1 December.")}),
            NOOP, "the gym accepted the cancellation"),
        nothing(),
    ])

    incidents = "2026-11-20 checkout outage 03:10-03:13 (3 min), cause: cache restart\n"
    s += family("postmortem", "If checkout is down for more than 10 minutes (ops/logs/incidents.log), "
                              "write a postmortem draft", {**HOME, "ops/logs/incidents.log": incidents}, [
        Variant("29 minutes", Change(append={"ops/logs/incidents.log": (
            "2026-12-02 14:02 checkout outage started, payment provider timeouts\n"
            "2026-12-02 14:31 checkout restored\n")}),
            ESCALATE, "checkout was down 29 minutes: write the postmortem draft"),
        Variant("an hour", Change(append={"ops/logs/incidents.log": (
            "2026-12-02 checkout outage 08:15-09:20 (65 min), cause: expired database password\n")}),
            ESCALATE, "a 65-minute checkout outage: write the postmortem draft"),
        Variant("4 minutes", Change(append={"ops/logs/incidents.log": (
            "2026-12-02 checkout outage 11:40-11:44 (4 min), cause: deploy\n")}),
            NOOP, "a 4-minute outage stays under 10 minutes"),
        Variant("planned maintenance", Change(append={"ops/logs/incidents.log": (
            "2026-12-02 note: checkout maintenance window planned for Sunday 02:00-03:00\n")}),
            NOOP, "a maintenance window is planned; nothing went down"),
    ])

    agreement = "Service agreement with Kestrel Media, signed 2025-01-10\nMonthly retainer: 2,400 EUR\n"
    s += family("revised agreement", "When Kestrel sends the revised service agreement to work/contracts/, "
                                     "review what changed", {**HOME, "work/contracts/kestrel-2025.md": agreement}, [
        Variant("revised version", Change(write={"work/contracts/kestrel-2027-revised.md": (
            "Service agreement with Kestrel Media, revised draft for 2027\nMonthly retainer: 2,150 EUR\n"
            "Notice period: 90 days (was 30)\nNew: work outside office hours billed at 1.5x\n")}),
            ESCALATE, "the revised agreement arrived: reviewing its changes needs a careful read"),
        Variant("v2 under another name", Change(write={"work/contracts/kestrel-agreement-v2.md": (
            "Kestrel Media / Northlight Studio agreement, version 2 (replaces the 2025 version)\n"
            "Monthly retainer: 2,400 EUR\nLiability cap lowered to one month's fees\n")}),
            ESCALATE, "version 2 replaces the old agreement: review what changed"),
        Variant("old file annotated", Change(append={"work/contracts/kestrel-2025.md": (
            "Note to self: retainer was paid late in October.\n")}),
            NOOP, "the user annotated the old agreement; no revised version came"),
        Variant("announced", Change(memories=("Kestrel: we'll send you the revised agreement early next week.",)),
                NOOP, "the revised agreement is announced, not sent yet"),
    ])

    leave = "Leave requests\n- 9-20 February (mountains): submitted 28 November\n"
    s += family("mountain trip", "Once my leave for February is approved, plan the trip to the mountains",
                {**HOME, "work/hr/leave.md": leave}, [
        Variant("approved", Change(append={"work/hr/leave.md": "- 9-20 February: approved by K. Moreau on "
                                                               "2 December\n"}),
                ESCALATE, "the February leave is approved: planning the trip is several steps"),
        Variant("pending", Change(append={"work/hr/leave.md": "- 9-20 February: forwarded to department head, "
                                                              "awaiting decision\n"}),
                NOOP, "the leave is still waiting for a decision"),
        Variant("colleague approved", Change(memories=("Tom: my leave for February got approved, off to the "
                                                       "Alps!",)),
                NOOP, "Tom's leave was approved, not the user's"),
        nothing(),
    ])

    claimfile = "Claim WD-3391: water damage in the kitchen, reported 15 November\nStatus: under review\n"
    s += family("water claim", "If the insurer turns down the water damage claim, explain their reasons and "
                               "what I can do next", {**HOME, "house/claim.md": claimfile}, [
        Variant("declined", Change(write={"house/claim.md": claimfile.replace(
            "under review", "declined: the damage results from a long-term leak and lack of maintenance "
                            "(section 4.2 of the policy)")}),
            ESCALATE, "the claim was declined: explaining the reasons and options needs reasoning"),
        Variant("will not pay", Change(write={"mail/2026-12-02-insurer.txt": _mail(
            "Harbour Home Insurance", "Claim WD-3391",
            "After the assessor's visit we regret that we are unable to cover the kitchen damage, as the "
            "seal had been failing for months.")}),
            ESCALATE, "the insurer will not cover the damage: explain why and what the user can do"),
        Variant("assessor booked", Change(write={"house/claim.md": claimfile.replace(
            "under review", "assessor visit scheduled for 9 December")}),
            NOOP, "an assessor visit is scheduled; no decision yet"),
        Variant("paid", Change(write={"house/claim.md": claimfile.replace(
            "under review", "approved, 1,840 EUR paid to your account")}),
            NOOP, "the claim was approved, not turned down"),
    ])

    s += family("allergy results", "When Maya's allergy test results come in, make a list of foods she should "
                                   "avoid and safe swaps", HOME, [
        Variant("results", Change(write={"health/maya-allergy-results.md": (
            "Allergy panel, Maya (age 7), 1 December\nPeanut: strongly positive\nHazelnut: positive\n"
            "Egg: negative\nMilk: negative\n")}),
            ESCALATE, "Maya's results are in: turning them into a food list with swaps needs reasoning"),
        Variant("expected later", Change(write={"health/maya-allergy-results.md": (
            "Allergy panel, Maya: blood taken 1 December, results expected in about two weeks.\n")}),
            NOOP, "the results are not in yet"),
        Variant("flu jab", Change(write={"health/maya-vaccinations.md": "Maya: flu vaccine given 1 December.\n"}),
                NOOP, "a vaccination record, not allergy results"),
        unrelated("notes/bread.md", BREAD),
    ])

    slo = "# Monthly availability (target 99.9 %)\n\n- October: 99.97 %\n"
    s += family("availability", "If ops/slo.md shows a month's availability below 99.9 %, investigate the cause",
                {**HOME, "ops/slo.md": slo}, [
        Variant("breach", Change(append={"ops/slo.md": "- November: 99.71 %\n"}),
                ESCALATE, "99.71 % is below the 99.9 % target: investigate the cause"),
        Variant("bad month", Change(append={"ops/slo.md": "- November: 99.2 % (error budget exhausted)\n"}),
                ESCALATE, "99.2 % misses the target by far: investigate the cause"),
        Variant("within target", Change(append={"ops/slo.md": "- November: 99.94 %\n"}),
                NOOP, "99.94 % is above 99.9 %"),
        nothing(),
    ])
    return s


SITUATIONS: list[Situation] = _situations()
