"""The second held-out labelled set for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring): ``noop`` when nothing that
changed meets the task's condition (near misses included: another person, item, account or host; something
promised, planned or scheduled; a negated statement; a figure on the wrong side of a threshold; an old file
edited where a new one is awaited; the same words in an unrelated context), ``act`` for a small action once it
is met (tell, remind, append one line), ``escalate`` for drafting, planning, reviewing, proofreading,
explaining or investigating once it is met. Its families appear neither in the main set nor in
``bench/judgement_holdout.py``. The text is the project's own.
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

SOUP = "Lentil soup: 250 g red lentils, one onion, one carrot, a spoon of cumin; simmer for 25 minutes.\n"
CHESS = "Chess club: Tuesdays at 19:00 in the community centre, bring your own clock.\n"


def _situations() -> list[Situation]:
    s: list[Situation] = []
    office = "Citizens' office, case 2026-8812: passport renewal\nStatus: application received, photo accepted\n"
    s += family("passport", "Let me know when my new passport is ready",
                {**HOME, "documents/citizens-office.md": office}, [
        Variant("produced", Change(write={"documents/citizens-office.md": office.replace(
            "application received, photo accepted",
            "document produced; collect it in person at counter 4 and bring the old passport")}),
            ACT, "the new passport has been produced and waits at the counter: tell the user"),
        Variant("at the printer", Change(write={"documents/citizens-office.md": office.replace(
            "application received, photo accepted",
            "sent to the federal printing office, production takes three to four weeks")}),
            NOOP, "the passport is still being printed, so it is not ready"),
        Variant("identity card ready", Change(write={"documents/citizens-office-id.md": (
            "Citizens' office, case 2026-8790: identity card renewal\nStatus: ready for collection\n")}),
            NOOP, "it is the identity card that is ready, not the passport"),
        nothing(),
    ])

    tariff = "From: Telewave <billing@telewave.example>\nSubject: Your November invoice\n\nFlex M mobile: 24.99 EUR.\n"
    s += family("phone contract", "Let me know if my mobile contract gets more expensive (letters go in mail/)",
                {**HOME, "mail/2026-11-20-telewave.txt": tariff}, [
        Variant("price rise", Change(write={"mail/2026-12-02-telewave.txt": (
            "From: Telewave <billing@telewave.example>\nSubject: Changes to your tariff\n\n"
            "From 1 February the monthly fee of your Flex M mobile plan changes from 24.99 EUR to 27.99 EUR. "
            "You may cancel free of charge until 31 January.\n")}),
            ACT, "the mobile fee rises from 24.99 to 27.99 EUR: tell the user"),
        Variant("price rise in other words", Change(write={"mail/2026-12-02-telewave.txt": (
            "From: Telewave <billing@telewave.example>\nSubject: An update on your Flex M plan\n\n"
            "Because of rising network costs we are adjusting your Flex M monthly price to 26.49 EUR from March.\n")}),
            ACT, "an 'adjusted' price of 26.49 EUR instead of 24.99 EUR is a rise: tell the user"),
        Variant("price kept", Change(write={"mail/2026-12-02-telewave.txt": (
            "From: Telewave <billing@telewave.example>\nSubject: Good news for 2027\n\n"
            "Your Flex M mobile plan stays at 24.99 EUR next year, and you get 5 GB of extra data.\n")}),
            NOOP, "the price stays the same; only the data allowance grows"),
        Variant("broadband dearer", Change(write={"mail/2026-12-02-telewave.txt": (
            "From: Telewave <billing@telewave.example>\nSubject: Your Fibre 250 home internet\n\n"
            "From 1 February your Fibre 250 home broadband costs 44.90 EUR a month instead of 39.90 EUR.\n")}),
            NOOP, "the home broadband gets dearer, not the mobile contract"),
    ])

    newsletter = "Oak Hill Primary, class 2B newsletter: the reading corner has new books.\n"
    s += family("permission slip", "Remind me to sign Leo's permission slip when his school sends one",
                {**HOME, "school/leo/2026-11-25-newsletter.md": newsletter}, [
        Variant("consent form", Change(write={"school/leo/2026-12-02-zoo-trip.md": (
            "Oak Hill Primary, class 2B: we visit the city zoo on 12 December. Please sign the consent form "
            "below and give it back to Ms Adeyemi by Friday.\n")}),
            ACT, "Leo's class sent a consent form for a trip, which is a permission slip: remind the user to sign it"),
        Variant("bake sale", Change(write={"school/leo/2026-12-02-bake-sale.md": (
            "Oak Hill Primary: the winter bake sale is on 10 December. Cakes are welcome, no nuts please.\n")}),
            NOOP, "a bake sale notice asks for no signature"),
        Variant("sister's form", Change(write={"school/mia/2026-12-02-swimming.md": (
            "Linden Primary, class 5A: parents must sign the permission form for the swimming lessons in January.\n")}),
            NOOP, "the form is for Mia's class, not Leo's"),
        nothing(),
    ])

    certs = ("2026-11-30 03:00 certbot: shop.example.org not due for renewal (expires 2027-01-20)\n"
             "2026-12-01 03:00 certbot: shop.example.org not due for renewal (expires 2027-01-20)\n")
    s += family("certificate", "Tell me if the certificate renewal for shop.example.org goes wrong "
                "(ops/logs/certbot.log)", {**HOME, "ops/logs/certbot.log": certs}, [
        Variant("challenge failed", Change(append={"ops/logs/certbot.log": (
            "2026-12-02 03:00 certbot: shop.example.org renewal attempt failed: DNS challenge did not pass, "
            "retrying in 12 hours\n")}),
            ACT, "the renewal attempt for shop.example.org failed: tell the user"),
        Variant("rate limited", Change(append={"ops/logs/certbot.log": (
            "2026-12-02 03:00 certbot: shop.example.org could not be renewed, rate limit reached; "
            "the old certificate stays in place\n")}),
            ACT, "'could not be renewed' means the renewal went wrong: tell the user"),
        Variant("renewed", Change(append={"ops/logs/certbot.log": (
            "2026-12-02 03:00 certbot: shop.example.org renewed, new certificate expires 2027-03-02\n")}),
            NOOP, "the renewal succeeded"),
        Variant("other domain", Change(append={"ops/logs/certbot.log": (
            "2026-12-02 03:00 certbot: api.example.org renewal attempt failed: connection refused\n")}),
            NOOP, "the failed renewal is for api.example.org, not shop.example.org"),
    ])

    odometer = "# Odometer, the Golf\n\n2026-11-20 58,940 km\n2026-11-27 59,610 km\n"
    s += family("mileage", "Tell me when the car in car/odometer.md passes 60,000 km, so I can book its service",
                {**HOME, "car/odometer.md": odometer}, [
        Variant("passed", Change(append={"car/odometer.md": "2026-12-02 60,215 km\n"}),
                ACT, "60,215 km is past 60,000 km: tell the user"),
        Variant("not yet", Change(append={"car/odometer.md": "2026-12-02 59,880 km\n"}),
                NOOP, "59,880 km is still short of 60,000 km"),
        Variant("camper passed", Change(write={"car/camper-odometer.md": "# Odometer, the camper\n\n"
                                                                         "2026-12-02 61,400 km\n"}),
                NOOP, "the camper passed 60,000 km, not the car in car/odometer.md"),
        unrelated("notes/soup.md", SOUP),
    ])

    deploy = ("2026-12-01 16:02 v3.2 build ready\n"
              "2026-12-01 16:40 v3.2 deployed to staging, smoke tests passed\n")
    s += family("release", "Tell me when version 3.2 is live in production (ops/logs/deploy.log)",
                {**HOME, "ops/logs/deploy.log": deploy}, [
        Variant("rollout complete", Change(append={"ops/logs/deploy.log": (
            "2026-12-02 09:15 v3.2 rollout to prod complete: 12/12 hosts healthy\n")}),
            ACT, "v3.2 now runs on every production host, i.e. it is live: tell the user"),
        Variant("rollout started", Change(append={"ops/logs/deploy.log": (
            "2026-12-02 09:05 v3.2 rollout to prod started: 1/12 hosts\n")}),
            NOOP, "the rollout has only started"),
        Variant("hotfix live", Change(append={"ops/logs/deploy.log": (
            "2026-12-02 09:05 v3.1.4 hotfix rolled out to prod: 12/12 hosts healthy\n")}),
            NOOP, "the version that went live is the 3.1.4 hotfix, not 3.2"),
        Variant("rolled back", Change(append={"ops/logs/deploy.log": (
            "2026-12-02 09:20 v3.2 rollout to prod aborted at 4/12 hosts, rolled back to v3.1.3\n")}),
            NOOP, "the rollout was aborted and rolled back; 3.2 is not live"),
    ])

    s += family("grandma", "Remind me to call Grandma if she says she isn't feeling well", HOME, [
        Variant("fever", Change(memories=(
            "Grandma rang this morning: she has had a temperature since yesterday and is staying in bed.",)),
            ACT, "Grandma is ill: remind the user to call her"),
        Variant("dizzy", Change(memories=("Grandma mentioned she felt dizzy twice today and skipped lunch.",)),
                ACT, "feeling dizzy is not feeling well: remind the user to call her"),
        Variant("feeling better", Change(memories=(
            "Grandma says her hip is much better; she walked to the market on her own.",)),
            NOOP, "Grandma says she is doing better"),
        Variant("neighbour ill", Change(memories=(
            "Grandma told me her neighbour Mrs Ferris is in hospital with pneumonia.",)),
            NOOP, "it is the neighbour who is ill, not Grandma"),
    ])

    wishlist = ("# Wishlist\n\n- Ferro C40 espresso grinder, 189 EUR: out of stock\n"
                "- Lumo glass kettle, 59 EUR: out of stock\n")
    s += family("grinder", "Tell me when the Ferro grinder in shopping/wishlist.md is back in stock",
                {**HOME, "shopping/wishlist.md": wishlist}, [
        Variant("available", Change(write={"shopping/wishlist.md": wishlist.replace(
            "189 EUR: out of stock", "189 EUR: available, ships within 2 days")}),
            ACT, "the grinder can be ordered and ships in two days, so it is in stock: tell the user"),
        Variant("pre-order", Change(write={"shopping/wishlist.md": wishlist.replace(
            "189 EUR: out of stock", "189 EUR: out of stock, pre-orders open in January")}),
            NOOP, "the grinder is still out of stock; pre-orders only open later"),
        Variant("kettle back", Change(write={"shopping/wishlist.md": wishlist.replace(
            "59 EUR: out of stock", "59 EUR: back in stock")}),
            NOOP, "the kettle is back in stock, not the grinder"),
        Variant("cheaper, still out", Change(write={"shopping/wishlist.md": wishlist.replace(
            "189 EUR: out of stock", "169 EUR: out of stock")}),
            NOOP, "only the price fell; the grinder is still out of stock"),
    ])

    statement = "date,description,amount\n2026-11-28,Corner Bakery,-6.40\n2026-11-29,Salary Northwind,+3200.00\n"
    s += family("streaming charge", "Tell me if a Streamly charge shows up in finance/statement.csv",
                {**HOME, "finance/statement.csv": statement}, [
        Variant("charge", Change(append={"finance/statement.csv": "2026-12-01,Streamly subscription,-12.99\n"}),
                ACT, "a Streamly charge appeared on the statement: tell the user"),
        Variant("card code", Change(append={"finance/statement.csv": "2026-12-01,STREAMLY*PREMIUM MTH,-12.99\n"}),
                ACT, "the card line STREAMLY*PREMIUM is a Streamly charge: tell the user"),
        Variant("other merchant", Change(append={"finance/statement.csv": "2026-12-01,Cinemax tickets,-22.00\n"
                                                                          "2026-12-01,Corner Bakery,-4.10\n"}),
                NOOP, "the new lines are a cinema and a bakery, not Streamly"),
        Variant("charge announced", Change(memories=(
            "Streamly emailed: my free trial ends on 10 December and I'll be charged 12.99 EUR after that.",)),
            NOOP, "the charge is only announced; nothing shows up on the statement"),
    ])

    train = "RJX 162 Munich to Vienna, 5 December, departs 09:27, car 26 seat 41\nStatus: on time\n"
    s += family("train", "Tell me if my train to Vienna in travel/train.md is cancelled or more than 30 minutes late",
                {**HOME, "travel/train.md": train}, [
        Variant("does not run", Change(write={"travel/train.md": train.replace(
            "Status: on time", "Status: does not run on 5 December (engineering works); replacement bus from "
                               "Salzburg")}),
            ACT, "a train that does not run is cancelled: tell the user"),
        Variant("50 minutes late", Change(write={"travel/train.md": train.replace(
            "Status: on time", "Status: expected departure 10:17")}),
            ACT, "leaving at 10:17 instead of 09:27 is 50 minutes late, over 30: tell the user"),
        Variant("slightly late", Change(write={"travel/train.md": train.replace("on time", "about 12 minutes late")}),
                NOOP, "12 minutes late is under the 30 minutes the user named"),
        Variant("platform change", Change(write={"travel/train.md": train.replace(
            "Status: on time", "Status: on time, now leaving from platform 7")}),
            NOOP, "only the platform changed; the train runs on time"),
    ])

    s += family("plumber", "Remind me to be home when the plumber confirms a time", HOME, [
        Variant("thursday", Change(memories=(
            "Kovac the plumber texted: he'll come Thursday between 8 and 9 to fix the boiler.",)),
            ACT, "the plumber gave a time: remind the user to be home"),
        Variant("tomorrow", Change(memories=("Kovac will be here tomorrow at 7:30 sharp, he just messaged.",)),
                ACT, "the plumber fixed a time for tomorrow: remind the user"),
        Variant("call back", Change(memories=(
            "The plumber said he'd call back with a time once the spare part arrives.",)),
            NOOP, "no time is confirmed yet"),
        Variant("electrician", Change(memories=("The electrician confirmed Friday at 14:00 for the new sockets.",)),
                NOOP, "the electrician confirmed a time, not the plumber"),
    ])

    s += family("fuel log", "Add a line to car/fuel.md each time I tell you I filled up the tank",
                {**HOME, "car/fuel.md": "# Fuel\n\n2026-11-18 45.2 l 76.10 EUR\n"}, [
        Variant("tanked up", Change(memories=("Tanked up at the Ring Road station: 41.8 litres for 70.25 EUR.",)),
                ACT, "the user filled the tank: append one line to car/fuel.md"),
        Variant("diesel", Change(memories=("Filled the car with diesel at the motorway services, 38 l, 68.90 EUR.",)),
                ACT, "another fill-up: append one line"),
        Variant("bird feeder", Change(memories=("Filled up the bird feeder before the cold night.",)),
                NOOP, "the bird feeder was filled, not the tank"),
        Variant("tomorrow", Change(memories=("The tank is nearly empty; I'll fill up on the way to work tomorrow.",)),
                NOOP, "the fill-up is only planned"),
    ])

    s += family("school closed", "Let me know if Mia's school announces a day it will be closed",
                {**HOME, "school/mia/2026-11-20-term-dates.md": "Linden Primary: winter term ends 18 December.\n"}, [
        Variant("training day", Change(write={"school/mia/2026-12-02-letter.md": (
            "Linden Primary: pupils stay at home on Friday 11 December, a staff training day; "
            "the after-school club is shut too.\n")}),
            ACT, "pupils staying at home for a training day means the school is closed that day: tell the user"),
        Variant("stays open", Change(write={"school/mia/2026-12-02-letter.md": (
            "Linden Primary: despite the bus strike on Thursday, the school stays open as usual.\n")}),
            NOOP, "the letter says the school stays open"),
        Variant("other school", Change(write={"school/mia/2026-12-02-secondary.md": (
            "Open evening at Birchwood Secondary on 8 January. Note: Birchwood is closed on 18 December "
            "for heating repairs.\n")}),
            NOOP, "the closure is at Birchwood Secondary, not Mia's school"),
        nothing(),
    ])

    s += family("roof", "When the roofer's inspection report comes into house/, plan the repairs in order of urgency",
                {**HOME, "house/boiler-service.md": "Boiler serviced 2026-10-14, next service October 2027.\n"}, [
        Variant("report", Change(write={"house/roof-inspection-2026-12.md": (
            "Roof inspection by Dachwerk Olsen, 1 December\n- three cracked tiles above the bathroom, leak risk "
            "this winter\n- north gutter sagging\n- chimney flashing worn\n- moss on the garage roof\n")}),
            ESCALATE, "the inspection report arrived; ordering the repairs by urgency is planning"),
        Variant("survey", Change(write={"house/olsen-survey.md": (
            "Survey of the roof (Olsen): the felt under the dormer is torn, two ridge tiles are loose, "
            "the rest is sound for about ten years.\n")}),
            ESCALATE, "the roofer's survey is the inspection report: planning the repairs needs reasoning"),
        Variant("invoice", Change(write={"house/olsen-invoice.md": (
            "Dachwerk Olsen, invoice 2026-311: roof inspection visit, 180 EUR, payable within 14 days.\n")}),
            NOOP, "the roofer sent the invoice, not the report"),
        Variant("report promised", Change(memories=("Olsen says he'll send the roof report by the end of the week.",)),
                NOOP, "the report is only promised"),
    ])

    proposal = ("# Grant proposal: river sensors\nStatus: draft (Jonas is still writing section 4)\n\n"
                "1. Aim\n2. Method\n3. Budget: 48,000 EUR\n")
    s += family("proposal", "Proofread the grant proposal once Jonas marks it final in work/grant-proposal.md",
                {**HOME, "work/grant-proposal.md": proposal}, [
        Variant("final", Change(write={"work/grant-proposal.md": proposal.replace(
            "draft (Jonas is still writing section 4)", "final, ready for proofreading") + "4. Impact\n"}),
            ESCALATE, "Jonas marked the proposal final: proofreading it is a review"),
        Variant("frozen", Change(write={"work/grant-proposal.md": proposal.replace(
            "draft (Jonas is still writing section 4)", "v5, frozen for submission, no more changes (Jonas)")
            + "4. Impact\n"}),
            ESCALATE, "a version frozen with no more changes is the final one: proofread it"),
        Variant("final on monday", Change(write={"work/grant-proposal.md": proposal.replace(
            "Jonas is still writing section 4", "Jonas will mark it final on Monday")}),
            NOOP, "the proposal is still a draft; it will only be final on Monday"),
        Variant("section added", Change(append={"work/grant-proposal.md": "4. Impact (first notes, unfinished)\n"}),
                NOOP, "a section was added but the status is still draft"),
    ])

    replica = "2026-12-02 01:00 replica lag 3 s\n2026-12-02 02:00 replica lag 5 s\n"
    s += family("replica lag", "Investigate if the database replica falls more than 5 minutes behind "
                "(ops/logs/replica.log)", {**HOME, "ops/logs/replica.log": replica}, [
        Variant("842 seconds", Change(append={"ops/logs/replica.log": "2026-12-02 03:00 replica lag 842 s\n"}),
                ESCALATE, "842 s is 14 minutes, well past 5 minutes: investigating the cause needs several steps"),
        Variant("clock format", Change(append={"ops/logs/replica.log": "2026-12-02 03:00 replica lag 00:21:40\n"}),
                ESCALATE, "a lag of 21 minutes 40 seconds is past 5 minutes: investigate"),
        Variant("just under", Change(append={"ops/logs/replica.log": "2026-12-02 03:00 replica lag 290 s\n"}),
                NOOP, "290 s is just under 5 minutes"),
        Variant("normal", Change(append={"ops/logs/replica.log": "2026-12-02 03:00 replica lag 4 s\n"}),
                NOOP, "a 4 second lag is normal"),
    ])

    s += family("rome", "Plan our Rome weekend once Jo confirms the dates", HOME, [
        Variant("confirmed", Change(memories=(
            "Jo texted: Rome is settled, we fly out on Friday 13 March and come back Sunday the 15th.",)),
            ESCALATE, "Jo confirmed the dates: planning the weekend takes several steps"),
        Variant("flights booked", Change(memories=("Jo booked our flights to Rome, 13 to 15 March.",)),
                ESCALATE, "booked flights fix the dates: plan the weekend"),
        Variant("still waiting", Change(memories=(
            "Jo is still waiting to hear whether she can take the Friday off for Rome.",)),
            NOOP, "the dates are not confirmed yet"),
        Variant("berlin", Change(memories=("Sam confirmed the dates for our Berlin trip: 20 to 22 February.",)),
                NOOP, "Sam confirmed a Berlin trip; nothing about Jo and Rome"),
    ])

    s += family("lab results", "When my blood test results arrive in health/, explain any value outside its range",
                {**HOME, "health/vaccinations.md": "Tetanus booster 2021-05, flu shot 2026-10.\n"}, [
        Variant("results", Change(write={"health/lab-2026-12-02.md": (
            "Blood test, drawn 30 November\nhaemoglobin 13.9 g/dl (13.5-17.5)\nferritin 14 ng/ml (30-400) LOW\n"
            "TSH 2.1 mU/l (0.4-4.0)\nvitamin D 18 ng/ml (30-100) LOW\n")}),
            ESCALATE, "the results arrived with two low values: explaining them needs reasoning"),
        Variant("booking", Change(write={"health/appointments.md": (
            "Blood test booked for 9 December at 08:00; come fasting.\n")}),
            NOOP, "the blood test is only booked; no results arrived"),
        Variant("partner's results", Change(write={"health/lab-sam-2026-12-02.md": (
            "Blood test for Sam (my partner), drawn 30 November\ncholesterol 245 mg/dl (below 200) HIGH\n")}),
            NOOP, "the results are Sam's, not the user's"),
        nothing(),
    ])

    s += family("car contract", "Review the sales contract for the used Volvo when the seller sends it to car/",
                {**HOME, "car/volvo-ad.md": "Ad: Volvo V60, 2019, 84,000 km, 18,500 EUR, private seller.\n"}, [
        Variant("contract", Change(write={"car/volvo-v60-contract.md": (
            "Private sale contract: Volvo V60, 2019, 84,000 km, price 17,900 EUR, sold as seen without warranty; "
            "deposit 2,000 EUR on signing, not refundable; handover on 15 December.\n")}),
            ESCALATE, "the contract arrived: reviewing its terms needs reasoning"),
        Variant("purchase agreement", Change(write={"car/purchase-agreement-berg.md": (
            "Purchase agreement between Nils Berg (seller) and the buyer for the Volvo V60: 17,900 EUR, "
            "accident-free as far as the seller knows.\n")}),
            ESCALATE, "a purchase agreement for the Volvo is the sales contract: review it"),
        Variant("registration copy", Change(write={"car/volvo-v60-registration.md": (
            "Copy of the registration certificate: Volvo V60, first registered April 2019.\n")}),
            NOOP, "the seller sent the registration copy, not the contract"),
        Variant("contract promised", Change(memories=("The Volvo seller will send the contract tomorrow.",)),
                NOOP, "the contract is only promised"),
    ])

    s += family("hedge", "Draft a reply if the neighbours write to me about the hedge",
                {**HOME, "mail/2026-11-24-council.txt": "From: City council\nSubject: Bin collection\n\n"
                                                        "Collection moves to Wednesdays.\n"}, [
        Variant("hedge letter", Change(write={"mail/2026-12-02-nguyen.txt": (
            "From: Linh Nguyen (no. 14)\nSubject: Your hedge\n\nHello! The hedge has grown over the fence and "
            "shades our vegetable beds. Could you cut it back before spring? We can lend you our trimmer.\n")}),
            ESCALATE, "the neighbours wrote about the hedge: drafting a reply is writing"),
        Variant("street party", Change(write={"mail/2026-12-02-nguyen.txt": (
            "From: Linh Nguyen (no. 14)\nSubject: Street party\n\nWe are collecting ideas for the summer "
            "street party. Any wishes?\n")}),
            NOOP, "the neighbours wrote about a street party, not the hedge"),
        Variant("own note", Change(write={"notes/garden-jobs.md": "Garden jobs: trim the hedge in February, "
                                                                  "buy new shears.\n"}),
                NOOP, "the user's own note mentions the hedge; no neighbour wrote"),
        unrelated("notes/chess.md", CHESS),
    ])
    return s


SITUATIONS: list[Situation] = _situations()
