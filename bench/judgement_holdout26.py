"""The held-out labelled set no. 26 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families appear neither
there nor in the earlier held-out sets. Each family is one top-level statement, so the set grows by appending.
The theme is household admin and the home: weekly electricity meter readings, a gas bill on an estimated
reading, the electricity unit rate, a council tax single person discount, the Christmas bin round, a bulky waste
pick-up and the new food waste caddies, a home insurance renewal, a boiler losing pressure and three quotes for a
new one, a washing machine repair, appliance warranties, a roofer's visit and the autumn jobs list, a lodger's
rent and a flatmates' cleaning rota, a solar inverter's log, a heat pump's weekly efficiency, off-peak EV
charging, a broadband contract and a mortgage deal coming to an end, direct debits, a house purchase (exchange,
survey, removals quotes, meter readings on the day), a rented flat's deposit and gas safety certificate, a
neighbours' WhatsApp summary, a party wall notice and a hosepipe ban. Formats vary: mails with From, Subject and
Date headers, CSV files, Markdown tables and checklists, logs, notes kept by flatmates and memories. Most
variants are near misses: the watched thing changes but the condition is not met (another bin, meter, round,
supplier, contract, appliance, property, road or person; exactly on a threshold; a figure in other units; a
date proposed, promised or expected instead of fixed; a job half done; a request received rather than
decided; a past event retold; a request for the thing instead of an offer of it). Several conditions can only
be judged with what is already in the workspace (a week's use from cumulative readings, an efficiency from two
columns, the previous direct debit to the same payee, the week before on the rota, a warranty's end date, how
many quotes are already in). Five families hold two tasks that the same changes bear on differently, one family
holds only near misses. The text is the project's own.
"""

from __future__ import annotations

from bench.judgement_set import (
    ACT,
    ESCALATE,
    HOME,
    NOOP,
    Change,
    Label,
    Situation,
    Variant,
    family,
)

SITUATIONS: list[Situation] = []


def _mail(sender: str, subject: str, date: str, body: str) -> str:
    """A mail as a file in the workspace (``mail/…``), with its date header."""
    return f"From: {sender}\nSubject: {subject}\nDate: {date}\n\n{body}\n"


Outcome = tuple[str, str]
"""The decision that is right for one task in one variant, and why."""


def _pair(key: str, tasks: tuple[str, str], before: dict[str, str],
          variants: list[tuple[str, Change, Outcome, Outcome]], *,
          memories: tuple[str, ...] = ()) -> list[Situation]:
    """A family of two tasks over one workspace; each variant labels both of them."""
    return [Situation(f"{key}: {name}", before, memories, change,
                      (Label(tasks[0], *first), Label(tasks[1], *second)))
            for name, change, first, second in variants]


_METERS = ("date,meter,reading,unit\n2026-10-04,electric,41822,kWh\n2026-10-04,gas,8813.4,m3\n"
           "2026-10-11,electric,41899,kWh\n2026-10-11,gas,8841.0,m3\n2026-10-18,electric,41983,kWh\n"
           "2026-10-18,gas,8872.9,m3\n")
SITUATIONS += family(
    "weekly electricity", "I'm Nia. we read the meters every Sunday evening (home/meters.csv). If a week's "
    "electricity use comes out over 90 kWh, tell me - I think the new tumble dryer is a bit of a hog",
    {**HOME, "home/meters.csv": _METERS}, [
        Variant("96 kWh", Change(append={"home/meters.csv": "2026-10-25,electric,42079,kWh\n"
                                                            "2026-10-25,gas,8905.2,m3\n"}),
                ACT, "the electric meter went from 41983 to 42079, 96 kWh in the week, over 90: tell her"),
        Variant("88 kWh", Change(append={"home/meters.csv": "2026-10-25,electric,42071,kWh\n"
                                                            "2026-10-25,gas,8905.2,m3\n"}),
                NOOP, "42071 - 41983 is 88 kWh for the week, under 90"),
        Variant("exactly 90", Change(append={"home/meters.csv": "2026-10-25,electric,42073,kWh\n"}),
                NOOP, "42073 - 41983 is exactly 90 kWh, which is not over 90"),
        Variant("gas only", Change(append={"home/meters.csv": "2026-10-25,gas,8930.1,m3\n"}),
                NOOP, "only the gas meter was read (57 m3); there is no new electricity reading"),
    ], bystanders=("let me know when the smart meter people give us an installation date",))

SITUATIONS += family(
    "estimated gas bill", "When Brightwave's gas bill comes in (mail/), tell me if it's based on an estimated "
    "reading so I can send them a proper one",
    {**HOME, "mail/2026-09-06-brightwave.txt": _mail(
        "Brightwave Energy <bills@brightwave.example>", "Your gas bill is ready", "Sun, 6 Sep 2026 07:12:40 +0100",
        "Gas account 55013, 1 Aug - 31 Aug 2026. Opening reading 8702.6, closing reading 8741.0 (actual, from your "
        "smart meter). Amount due: 38.77 pounds, paid by direct debit on 3 September.")}, [
        Variant("estimated", Change(write={"mail/2026-10-06-brightwave.txt": _mail(
            "Brightwave Energy <bills@brightwave.example>", "Your gas bill is ready", "Tue, 6 Oct 2026 07:09:12 +0100",
            "Gas account 55013, 1 Sep - 30 Sep 2026. Opening reading 8741.0, closing reading 8790 (estimated - we "
            "didn't get a reading from your meter). Amount due: 52.30 pounds. You can send us a reading online.")}),
                ACT, "September's gas bill uses an estimated closing reading: tell them to send a real one"),
        Variant("actual reading", Change(write={"mail/2026-10-06-brightwave.txt": _mail(
            "Brightwave Energy <bills@brightwave.example>", "Your gas bill is ready", "Tue, 6 Oct 2026 07:09:12 +0100",
            "Gas account 55013, 1 Sep - 30 Sep 2026. Opening reading 8741.0, closing reading 8806.2 (actual, from "
            "your smart meter). Amount due: 66.91 pounds.")}),
                NOOP, "the bill is based on an actual smart meter reading"),
        Variant("electricity estimated", Change(write={"mail/2026-10-06-brightwave-elec.txt": _mail(
            "Brightwave Energy <bills@brightwave.example>", "Your electricity bill is ready",
            "Tue, 6 Oct 2026 07:10:03 +0100",
            "Electricity account 55012, 1 Sep - 30 Sep 2026. Closing reading 41790 (estimated). Amount due: 71.48 "
            "pounds.")}),
                NOOP, "the estimated reading is on the electricity bill, not the gas bill"),
        Variant("reading reminder", Change(write={"mail/2026-10-01-brightwave.txt": _mail(
            "Brightwave Energy <hello@brightwave.example>", "Send us a gas reading?", "Thu, 1 Oct 2026 18:30:00 +0100",
            "Your next gas bill is due on 6 October. If you send us a reading by 5 October, we won't need to "
            "estimate it.")}),
                NOOP, "a reminder to send a reading before the bill; no bill has come yet"),
    ])

_TARIFF = ("# Energy tariff (Brightwave Flex, prices incl. VAT)\n\nElectricity: 26.41p/kWh, standing charge "
           "51.37p/day\nGas: 6.24p/kWh, standing charge 31.65p/day\n")
SITUATIONS += family(
    "unit rate over 28p", "Tell me if our electricity unit rate goes above 28p per kWh - Brightwave mail any price "
    "changes (mail/). current prices are in home/tariff.md",
    {**HOME, "home/tariff.md": _TARIFF}, [
        Variant("29.14p", Change(write={"mail/2026-11-20-brightwave.txt": _mail(
            "Brightwave Energy <hello@brightwave.example>", "Your prices are changing on 1 January",
            "Fri, 20 Nov 2026 09:00:00 +0000",
            "From 1 January 2027 your electricity unit rate will be 29.14p per kWh (was 26.41p) and your standing "
            "charge 52.06p per day. Your gas prices are not changing. All prices include VAT.")}),
                ACT, "the electricity unit rate goes to 29.14p/kWh, above 28p: tell them"),
        Variant("pounds per kWh", Change(write={"mail/2026-11-20-brightwave.txt": _mail(
            "Brightwave Energy <hello@brightwave.example>", "Your prices are changing on 1 January",
            "Fri, 20 Nov 2026 09:00:00 +0000",
            "New electricity prices from 1 January 2027 (incl. VAT): unit rate 0.2795 pounds per kWh, standing "
            "charge 0.5206 pounds per day.")}),
                NOOP, "0.2795 pounds per kWh is 27.95p, not above 28p"),
        Variant("standing charge up", Change(write={"mail/2026-11-20-brightwave.txt": _mail(
            "Brightwave Energy <hello@brightwave.example>", "Your prices are changing on 1 January",
            "Fri, 20 Nov 2026 09:00:00 +0000",
            "From 1 January 2027 your electricity standing charge goes up to 58.90p per day. Your unit rate goes "
            "to 27.10p per kWh. Prices include VAT.")}),
                NOOP, "the standing charge rises but the unit rate is 27.10p, under 28p"),
        Variant("gas only", Change(write={"mail/2026-11-20-brightwave.txt": _mail(
            "Brightwave Energy <hello@brightwave.example>", "Your gas price is changing",
            "Fri, 20 Nov 2026 09:00:00 +0000",
            "From 1 January 2027 your gas unit rate will be 6.91p per kWh. Your electricity prices stay the same.")}),
                NOOP, "only the gas price changes; electricity stays at 26.41p"),
    ])

_CALDER = {
    **HOME,
    "home/flat/ola-moved-out.md": ("# Ola moving out\n\n- last night at 5 Calder Street: 31 August\n"
                                   "- new address: 12 Mill Lane, Leeds LS6 (tenancy from 1 September)\n"
                                   "- her tenancy agreement: home/flat/ola-tenancy-mill-lane.pdf (she sent a copy)\n"
                                   "- final meter readings on 31 Aug in home/meters.csv\n"),
    "mail/2026-09-04-lanbury-council.txt": _mail(
        "Lanbury Council Tax <counciltax@lanbury.example>", "We have received your form",
        "Fri, 4 Sep 2026 11:20:31 +0100",
        "Thank you for telling us about a change at 5 Calder Street. Reference CT-4471920. We will write to you."),
}
SITUATIONS += _pair(
    "single person discount",
    ("I'm Tomasz. Ola moved out on 31 August so it's just me at 5 Calder Street now. Tell me when Lanbury Council "
     "confirm the single person discount on the council tax (mail/)",
     "if the council want proof that Ola's moved out, find what we've got in home/flat/ and draft my reply"),
    _CALDER, [
        ("confirmed", Change(write={"mail/2026-10-02-lanbury-council.txt": _mail(
            "Lanbury Council Tax <counciltax@lanbury.example>", "Your revised council tax bill",
            "Fri, 2 Oct 2026 08:45:10 +0100",
            "Reference CT-4471920. We have applied a 25% single person discount to 5 Calder Street from 1 September "
            "2026. Your remaining instalments are 6 x 118.20 pounds.")}),
         (ACT, "the council have applied the 25 % discount from 1 September: tell him"),
         (NOOP, "the discount is granted; no proof is asked for")),
        ("proof wanted", Change(write={"mail/2026-10-02-lanbury-council.txt": _mail(
            "Lanbury Council Tax <counciltax@lanbury.example>", "Single person discount - evidence needed",
            "Fri, 2 Oct 2026 08:45:10 +0100",
            "Reference CT-4471920. Before we can apply a discount we need evidence that Aleksandra Nowak no longer "
            "lives at 5 Calder Street, for example her new tenancy agreement or a bill at her new address. Please "
            "reply within 21 days.")}),
         (NOOP, "the discount is not confirmed yet; the council first want evidence"),
         (ESCALATE, "the council ask for proof Ola left: gather what is in home/flat/ and draft the reply")),
        ("being processed", Change(write={"mail/2026-09-25-lanbury-council.txt": _mail(
            "Lanbury Council Tax <counciltax@lanbury.example>", "Your discount request",
            "Fri, 25 Sep 2026 14:02:55 +0100",
            "Reference CT-4471920. We are dealing with your request. Please allow up to six weeks for a decision.")}),
         (NOOP, "the request is still being dealt with; nothing is confirmed"),
         (NOOP, "the council are processing it and ask for nothing")),
        ("garden waste", Change(write={"mail/2026-10-02-lanbury-council.txt": _mail(
            "Lanbury Council <waste@lanbury.example>", "Renew your garden waste subscription",
            "Fri, 2 Oct 2026 08:45:10 +0100",
            "Your garden waste subscription for 5 Calder Street ends on 31 October. Renew online for 52 pounds.")}),
         (NOOP, "a mail from the council about garden waste, not the discount"),
         (NOOP, "nothing asks for proof about Ola")),
    ])

SITUATIONS += family(
    "christmas recycling", "our blue recycling bin goes out on Tuesdays. let me know if the council's Christmas "
    "collection dates move it (Lanbury Council mail, we're round 3)",
    HOME, [
        Variant("blue moves", Change(write={"mail/2026-12-07-lanbury-waste.txt": _mail(
            "Lanbury Council <waste@lanbury.example>", "Christmas and New Year bin collections",
            "Mon, 7 Dec 2026 10:00:00 +0000",
            "Round 3 (Tuesdays): Tue 22 Dec no change. Tue 29 Dec recycling (blue bin) moves to Wed 30 Dec, grey "
            "bin no change. Tue 5 Jan no change.\nRound 4 (Fridays): Fri 25 Dec moves to Sat 26 Dec.")}),
                ACT, "round 3's blue bin moves from Tue 29 Dec to Wed 30 Dec: tell them"),
        Variant("other round", Change(write={"mail/2026-12-07-lanbury-waste.txt": _mail(
            "Lanbury Council <waste@lanbury.example>", "Christmas and New Year bin collections",
            "Mon, 7 Dec 2026 10:00:00 +0000",
            "Round 3 (Tuesdays): all collections as normal.\nRound 4 (Fridays): Fri 25 Dec moves to Sat 26 Dec, "
            "Fri 1 Jan moves to Sat 2 Jan.")}),
                NOOP, "only round 4's Friday collections move; round 3 is as normal"),
        Variant("grey bin moves", Change(write={"mail/2026-12-07-lanbury-waste.txt": _mail(
            "Lanbury Council <waste@lanbury.example>", "Christmas and New Year bin collections",
            "Mon, 7 Dec 2026 10:00:00 +0000",
            "Round 3 (Tuesdays): blue bin collected as normal on 22 and 29 Dec. Grey bin: Tue 29 Dec moves to Wed "
            "30 Dec. Garden waste collections pause from 21 Dec to 8 Jan.")}),
                NOOP, "the grey bin moves, but round 3's blue bin is collected as normal"),
    ])

SITUATIONS += family(
    "bulky waste date", "We booked the council's bulky waste pick-up for the old sofa and the broken fridge freezer "
    "(home/bulky-waste.md). Tell me when they give us the collection date",
    {**HOME, "home/bulky-waste.md": "Booked online 2 Nov, ref BW-20931, 38 pounds paid by card.\nItems: 3-seat "
                                    "sofa, fridge freezer.\nThey said they'd email a date.\n"}, [
        Variant("date given", Change(write={"mail/2026-11-05-lanbury-bulky.txt": _mail(
            "Lanbury Council <bulkywaste@lanbury.example>", "Your bulky waste collection BW-20931",
            "Thu, 5 Nov 2026 13:41:09 +0000",
            "Your collection is booked for Thursday 12 November. Please put the items out by 7am, somewhere our "
            "crew can reach without coming into the house.")}),
                ACT, "the council give Thursday 12 November for the pick-up: tell them"),
        Variant("payment only", Change(write={"mail/2026-11-03-lanbury-bulky.txt": _mail(
            "Lanbury Council <payments@lanbury.example>", "Payment received: BW-20931",
            "Tue, 3 Nov 2026 09:02:44 +0000",
            "We have received your payment of 38.00 pounds. We will email your collection date within five working "
            "days.")}),
                NOOP, "a payment receipt; the date will come later"),
        Variant("kwame's van", Change(memories=(
            "Kwame says he can take the sofa to the tip in his van on Saturday if we want.",)),
                NOOP, "a friend's offer to take the sofa, not the council's collection date"),
    ])

SITUATIONS += family(
    "insurance renewal", "When the home insurance renewal from Castlegate arrives, compare it with last year's "
    "premium and the quotes in home/insurance/quotes.md and tell me whether to stay or switch",
    {**HOME, "home/insurance/quotes.md": (
        "# Home insurance (renews 14 Nov)\n\nLast year: Castlegate, buildings + contents, 250 pounds excess, "
        "412.60 pounds\n\n| insurer | price | excess | accidental damage |\n|---|---|---|---|\n"
        "| Haven Direct | 455.00 | 250 | no |\n| Norland Mutual | 498.30 | 100 | yes |\n")}, [
        Variant("renewal arrives", Change(write={"mail/2026-10-20-castlegate.txt": _mail(
            "Castlegate Insurance <renewals@castlegate.example>", "Your home insurance renewal HC-88123",
            "Tue, 20 Oct 2026 06:15:00 +0100",
            "Your buildings and contents policy renews on 14 November 2026. Your new premium is 539.40 pounds "
            "(last year 412.60 pounds). Your excess is now 350 pounds. Do nothing and we'll renew automatically.")}),
                ESCALATE, "the renewal is in at 539.40 with a higher excess: weigh it against the two quotes"),
        Variant("car renewal", Change(write={"mail/2026-10-20-castlegate.txt": _mail(
            "Castlegate Motor <renewals@castlegate.example>", "Your car insurance renewal CM-30417",
            "Tue, 20 Oct 2026 06:15:00 +0100",
            "Your car insurance for KP68 WZH renews on 9 December 2026. Your new premium is 611.22 pounds.")}),
                NOOP, "the car insurance renewal, not the home insurance"),
        Variant("coming soon", Change(write={"mail/2026-10-01-castlegate.txt": _mail(
            "Castlegate Insurance <renewals@castlegate.example>", "Your renewal is on its way",
            "Thu, 1 Oct 2026 06:15:00 +0100",
            "We'll send your home insurance renewal at least 21 days before 14 November.")}),
                NOOP, "Castlegate say the renewal will come later; it has not arrived"),
        Variant("haven requote", Change(write={"home/insurance/quotes.md": (
            "# Home insurance (renews 14 Nov)\n\nLast year: Castlegate, buildings + contents, 250 pounds excess, "
            "412.60 pounds\n\n| insurer | price | excess | accidental damage |\n|---|---|---|---|\n"
            "| Haven Direct | 441.00 (requoted 19 Oct) | 250 | no |\n| Norland Mutual | 498.30 | 100 | yes |\n")}),
                NOOP, "one of the quotes is updated; Castlegate's renewal has not arrived"),
    ])

_BOILER = ("2026-11-02 07:00 pressure 1.3 bar flow 62C\n2026-11-03 07:00 pressure 1.1 bar flow 63C\n"
           "2026-11-04 07:00 pressure 0.9 bar flow 61C\n")
SITUATIONS += family(
    "boiler pressure", "the boiler keeps losing pressure. if it drops below 0.8 bar tell me so i can top it up "
    "(home/boiler.log)",
    {**HOME, "home/boiler.log": _BOILER}, [
        Variant("0.7 bar", Change(append={"home/boiler.log": "2026-11-05 07:00 pressure 0.7 bar flow 60C\n"}),
                ACT, "the pressure is 0.7 bar, below 0.8: tell them to top it up"),
        Variant("exactly 0.8", Change(append={"home/boiler.log": "2026-11-05 07:00 pressure 0.8 bar flow 61C\n"}),
                NOOP, "0.8 bar is not below 0.8"),
        Variant("expansion vessel", Change(append={"home/boiler.log": (
            "2026-11-05 10:30 Gary (engineer): expansion vessel precharge was 0.6 bar, recharged to 1.0 bar. "
            "System pressure was 0.9 bar, topped up to 1.4 bar\n")}),
                NOOP, "0.6 bar was the expansion vessel's charge; the system was at 0.9 bar and is now 1.4"),
    ])

_QUOTES = {
    **HOME,
    "home/boiler-quotes/ashworth.md": ("Ashworth Heating, 28 Oct: Worcester 4000 30kW combi, fitted, flush and "
                                       "filter. 3,450 pounds. 10-year warranty. Can fit w/c 30 Nov.\n"),
    "home/boiler-quotes/greenflame.md": ("Greenflame Gas, 2 Nov: Vaillant ecoTEC plus 832. 3,120 pounds. 7-year "
                                         "warranty. Earliest fit 11 Jan.\n"),
}
SITUATIONS += family(
    "three boiler quotes", "We're getting three quotes for a new combi boiler (home/boiler-quotes/). When teh third "
    "one's in, compare them on price, warranty and how soon they can fit it and tell me which to go with",
    _QUOTES, [
        Variant("third quote", Change(write={"home/boiler-quotes/pipeline.md": (
            "Pipeline Plumbing & Heating, 9 Nov: Ideal Logic Max 30 combi, fitted, includes magnetic filter and "
            "smart thermostat. 2,890 pounds. 5-year warranty (10 if serviced by us yearly). Can start 7 Dec.\n")}),
                ESCALATE, "the third quote is in: compare the three on price, warranty and fitting date"),
        Variant("greenflame revised", Change(write={"home/boiler-quotes/greenflame.md": (
            "Greenflame Gas, 2 Nov, revised 8 Nov: Vaillant ecoTEC plus 832. 2,980 pounds. 7-year warranty. "
            "Earliest fit 11 Jan.\n")}),
                NOOP, "one of the two quotes is revised; there are still only two firms' quotes"),
        Variant("quote promised", Change(write={"mail/2026-11-05-pipeline.txt": _mail(
            "Dave at Pipeline <dave@pipelineheating.example>", "Boiler survey", "Thu, 5 Nov 2026 17:48:20 +0000",
            "Thanks for having us round on Tuesday. I'll have the quote over to you by Friday.")}),
                NOOP, "the third firm only promises a quote by Friday"),
    ])

SITUATIONS += family(
    "washer engineer", "Tell me when Whitfield Repairs give us a date for the engineer to come back and fit the "
    "new drum bearing on the washing machine",
    {**HOME, "home/appliances/washer-repair.md": (
        "Job WR-5512 (Bosch washing machine)\n3 Nov: engineer came, drum bearing gone, part ordered. They'll be "
        "in touch with a date once it arrives.\n")}, [
        Variant("date given", Change(write={"mail/2026-11-11-whitfield.txt": _mail(
            "Whitfield Repairs <jobs@whitfieldrepairs.example>", "Job WR-5512: appointment",
            "Wed, 11 Nov 2026 15:30:00 +0000",
            "Your part has arrived. Your engineer will visit on Wednesday 18 November between 8am and 12pm to "
            "fit it.")}),
                ACT, "the engineer comes back on Wednesday 18 November, 8 to 12: tell them"),
        Variant("back order", Change(write={"mail/2026-11-09-whitfield.txt": _mail(
            "Whitfield Repairs <jobs@whitfieldrepairs.example>", "Job WR-5512: part update",
            "Mon, 9 Nov 2026 10:12:00 +0000",
            "The drum bearing for your machine is on back order from Bosch, expected in 7 to 10 days. We'll "
            "contact you to arrange the visit.")}),
                NOOP, "the part is on back order; no date for the visit yet"),
        Variant("ringing monday", Change(memories=(
            "Rang Whitfield about the washer, the part's arrived but the woman who does the diary is off till "
            "Monday, she'll ring then with a slot.",)),
                NOOP, "the part is in but the date will be given on Monday"),
        Variant("feedback survey", Change(write={"mail/2026-11-04-whitfield.txt": _mail(
            "Whitfield Repairs <feedback@whitfieldrepairs.example>", "How did we do?",
            "Wed, 4 Nov 2026 09:00:00 +0000",
            "Please rate your engineer's visit on 3 November. It only takes a minute.")}),
                NOOP, "a feedback request about the first visit, not a date for the return visit"),
    ])

_BANK = ("date,description,amount\n2026-11-30,TESCO STORES 2231,-42.18\n2026-12-01,SALARY ACME LTD,2380.00\n"
         "2026-12-01,LANBURY COUNCIL TAX DD,-157.60\n")
SITUATIONS += _pair(
    "lodger rent",
    ("I'm Priya. Sam (my lodger) pays 650 pounds rent on the 1st. tell me when his December rent has come in full "
     "(money/bank-2026-12.csv)",
     "If Sam's rent comes in short, work out what he owes for December, rent plus his share of the bills in "
     "home/bills-split.md, and draft him a friendly message"),
    {**HOME, "money/bank-2026-12.csv": _BANK,
     "home/bills-split.md": ("# Bills split (Priya 2/3, Sam 1/3)\n\n| month | energy | broadband | Sam's share |\n"
                             "|---|---|---|---|\n| Oct | 118.20 | 33.00 | 50.40 |\n| Nov | 141.60 | 33.00 | 58.20 |\n"
                             "\nSam transfers his share separately, usually in the first week.\n")}, [
        ("full rent", Change(append={"money/bank-2026-12.csv": "2026-12-01,S OKAFOR RENT DEC,650.00\n"}),
         (ACT, "Sam's December rent of 650 pounds is in: tell her"),
         (NOOP, "the rent is paid in full")),
        ("short", Change(append={"money/bank-2026-12.csv": "2026-12-01,S OKAFOR RENT DEC PART,400.00\n"}),
         (NOOP, "only 400 of the 650 pounds came in; the rent is not in full"),
         (ESCALATE, "Sam paid 400 of 650: work out the rest plus his bills share and draft the message")),
        ("other sam", Change(append={"money/bank-2026-12.csv": "2026-12-02,SAM TURNER GIG TICKET,45.00\n"}),
         (NOOP, "a payment from Sam Turner for a ticket, not the lodger's rent"),
         (NOOP, "not a rent payment from Sam Okafor")),
        ("bills share only", Change(append={"money/bank-2026-12.csv": "2026-12-01,S OKAFOR BILLS NOV,58.20\n"}),
         (NOOP, "Sam paid his November bills share; no rent has come in"),
         (NOOP, "the bills transfer is the right amount and no rent has come in yet to be short")),
    ])

_INVERTER = ("2026-06-14 05:12 INFO startup, PV1 212V PV2 198V\n2026-06-14 13:00 INFO output 3.42 kW\n"
             "2026-06-14 21:40 INFO standby (no PV input)\n")
SITUATIONS += family(
    "inverter fault", "If the solar inverter logs a fault (ops/logs/inverter.log), give me a one-line summary of it",
    {**HOME, "ops/logs/inverter.log": _INVERTER}, [
        Variant("F-21", Change(append={"ops/logs/inverter.log": (
            "2026-06-15 05:09 INFO startup, PV1 215V PV2 201V\n"
            "2026-06-15 11:26 FAULT F-21 grid overvoltage (254.8V), output stopped, retry in 300s\n")}),
                ACT, "the inverter logged fault F-21, grid overvoltage: summarise it in a line"),
        Variant("normal day", Change(append={"ops/logs/inverter.log": (
            "2026-06-15 05:09 INFO startup, PV1 215V PV2 201V\n2026-06-15 13:00 INFO output 3.51 kW\n"
            "2026-06-15 21:38 INFO standby (no PV input)\n")}),
                NOOP, "startup, output and standby: no fault"),
        Variant("firmware", Change(append={"ops/logs/inverter.log": (
            "2026-06-15 03:00 INFO firmware v2.14 available, install from the app\n")}),
                NOOP, "a firmware notice, not a fault"),
    ])

_HEATPUMP = ("week_starting,heat_out_kwh,elec_in_kwh,avg_outdoor_c\n2026-11-02,388,121,7.9\n"
             "2026-11-09,412,134,6.2\n2026-11-16,455,151,4.8\n")
SITUATIONS += family(
    "heat pump cop", "our heat pump should manage a weekly COP of about 3. If a week comes in under 2.8 (heat out / "
    "electricity in, home/heatpump/weekly.csv), look at the settings in home/heatpump/settings.md and the weather "
    "and write me a note on what to change",
    {**HOME, "home/heatpump/weekly.csv": _HEATPUMP,
     "home/heatpump/settings.md": "flow temp: weather comp, 45C at -3C\nhot water: 50C, legionella cycle Sun 2am\n"
                                  "night setback: 17C 22:00-06:00\n"}, [
        Variant("cop 2.69", Change(append={"home/heatpump/weekly.csv": "2026-11-23,468,174,3.1\n"}),
                ESCALATE, "468 / 174 is a COP of 2.69, under 2.8: look into the settings and write the note"),
        Variant("cop 2.90", Change(append={"home/heatpump/weekly.csv": "2026-11-23,470,162,3.4\n"}),
                NOOP, "470 / 162 is a COP of 2.90, not under 2.8"),
        Variant("one cold day", Change(write={"home/heatpump/daily.csv": (
            "date,heat_out_kwh,elec_in_kwh,avg_outdoor_c\n2026-11-24,78,34,-2.0\n")}),
                NOOP, "a single day's COP of 2.3 in a daily file; the task is about a week's figure"),
    ])

_EV = ("start,end,location,kwh\n2026-11-08 23:30,2026-11-09 03:55,home,31.2\n"
       "2026-11-10 12:40,2026-11-10 13:25,work (rapid charger),22.0\n2026-11-10 23:30,2026-11-11 02:10,home,18.7\n")
SITUATIONS += family(
    "ev off-peak", "We're on an EV tariff, off-peak is 23:30 to 05:30. tell me if the home charger runs outside that "
    "window (home/ev-charging.csv), the app keeps overriding the schedule",
    {**HOME, "home/ev-charging.csv": _EV}, [
        Variant("teatime charge", Change(append={"home/ev-charging.csv": "2026-11-12 17:42,2026-11-12 19:58,home,"
                                                                         "15.9\n"}),
                ACT, "the home charger ran from 17:42 to 19:58, outside the off-peak window: tell them"),
        Variant("runs past 5.30", Change(append={"home/ev-charging.csv": "2026-11-13 04:10,2026-11-13 06:25,home,"
                                                                         "15.1\n"}),
                ACT, "the session ran on to 06:25, 55 minutes past the end of off-peak: tell them"),
        Variant("work charger", Change(append={"home/ev-charging.csv": "2026-11-12 12:05,2026-11-12 12:50,work "
                                                                       "(rapid charger),24.3\n"}),
                NOOP, "a daytime charge at work, not the home charger"),
        Variant("whole window", Change(append={"home/ev-charging.csv": "2026-11-12 23:30,2026-11-13 05:30,home,"
                                                                       "38.4\n"}),
                NOOP, "23:30 to 05:30 is exactly the off-peak window"),
    ])

SITUATIONS += family(
    "broadband contract end", "When Skyline send our end-of-contract notice for the broadband, compare what they'll "
    "charge after with the offers I saved in home/broadband-offers.md and draft what I'll say when I ring them to "
    "haggle",
    {**HOME, "home/contracts.md": "Broadband: Skyline Fibre 500, 29.99/month, 24 months from 14 Jan 2025\n"
                                  "Mobile: Skyline SIM 30GB, 12.00/month, 12 months from 3 Feb 2026\n",
     "home/broadband-offers.md": "- Vela Fibre 500: 27.50/month, 18 months, 0 setup\n"
                                 "- Norcom Full Fibre 900: 34.00/month, 24 months, 50 pound reward card\n"
                                 "- Skyline new-customer price (website, 1 Dec): 31.00/month\n"}, [
        Variant("notice", Change(write={"mail/2026-12-02-skyline.txt": _mail(
            "Skyline <account@skyline.example>", "Your broadband contract is ending", "Wed, 2 Dec 2026 12:00:00 +0000",
            "Your Skyline Fibre 500 minimum term ends on 13 January 2027. From 14 January your price will be 46.50 "
            "pounds a month. You can switch to a new deal at any time.")}),
                ESCALATE, "the end-of-contract notice is in (46.50 from January): compare the offers and draft the "
                          "call"),
        Variant("mobile sim", Change(write={"mail/2026-12-02-skyline.txt": _mail(
            "Skyline <account@skyline.example>", "Your SIM plan is ending", "Wed, 2 Dec 2026 12:00:00 +0000",
            "Your Skyline SIM 30GB minimum term ends on 2 February 2027. After that it goes to 16.00 pounds a "
            "month.")}),
                NOOP, "the notice is for the mobile SIM, not the broadband"),
        Variant("price rise", Change(write={"mail/2026-12-02-skyline.txt": _mail(
            "Skyline <account@skyline.example>", "Prices from April 2027", "Wed, 2 Dec 2026 12:00:00 +0000",
            "As set out in your contract, from 1 April 2027 our broadband prices go up by 3.00 pounds a month.")}),
                NOOP, "a yearly price rise notice, not the end-of-contract notice"),
        Variant("maintenance", Change(write={"mail/2026-12-02-skyline.txt": _mail(
            "Skyline <service@skyline.example>", "Planned work in your area", "Wed, 2 Dec 2026 12:00:00 +0000",
            "We'll be upgrading equipment near you on 9 December between midnight and 6am. Your broadband may drop "
            "for up to 30 minutes.")}),
                NOOP, "planned maintenance, nothing about the contract"),
    ])

SITUATIONS += family(
    "mortgage offers", "Our 2 year fix with Harbour Building Society ends 31 March 2027. When they send the product "
    "transfer offers, compare them with the broker's options in home/mortgage/broker.md (fees included, over two "
    "years) and write up which we should take",
    {**HOME, "home/mortgage/broker.md": ("From Sunil (broker), 20 Nov 2026:\n- Northgate BS: 2-yr fix 3.99%, fee "
                                         "1,499\n- Castle BS: 5-yr fix 4.05%, no fee\nBalance about 186k, 22 years "
                                         "left.\n")}, [
        Variant("offers arrive", Change(write={"mail/2026-12-08-harbour.txt": _mail(
            "Harbour Building Society <mortgages@harbourbs.example>", "Your new mortgage options",
            "Tue, 8 Dec 2026 08:30:00 +0000",
            "Your fixed rate ends on 31 March 2027. Options for existing customers: 2-year fixed 4.29% with a 999 "
            "pound fee; 5-year fixed 4.09% with no fee. Otherwise you'll move to our variable rate, 7.24%.")}),
                ESCALATE, "Harbour's offers are in: compare them with the broker's, fees included, and write it up"),
        Variant("annual statement", Change(write={"mail/2026-12-08-harbour.txt": _mail(
            "Harbour Building Society <mortgages@harbourbs.example>", "Your annual mortgage statement",
            "Tue, 8 Dec 2026 08:30:00 +0000",
            "Your statement for 2026 is in your online account. Balance at 30 November: 186,420 pounds.")}),
                NOOP, "the annual statement, not the product transfer offers"),
        Variant("offers in january", Change(write={"mail/2026-12-08-harbour.txt": _mail(
            "Harbour Building Society <mortgages@harbourbs.example>", "Your deal ends soon",
            "Tue, 8 Dec 2026 08:30:00 +0000",
            "You'll be able to choose a new deal from 2 January 2027. We'll write to you then with your options.")}),
                NOOP, "the offers come in January; none have been sent yet"),
        Variant("broker waits", Change(write={"mail/2026-12-09-sunil.txt": _mail(
            "Sunil Mehta <sunil@mehtamortgages.example>", "Rates", "Wed, 9 Dec 2026 19:02:00 +0000",
            "Rates are edging down, so I'd hold off. I'll send fresh options in mid January.")}),
                NOOP, "the broker will send new options later; Harbour have sent nothing"),
    ])

_REMOVALS = ("# Removals quotes\n\n- Fenwick Removals: 1,180, free 17 and 18 Dec\n"
             "- Bluebird Movers: 1,045, only 14-16 Dec\n- Shaw & Sons: 1,390, any weekday in December\n")
SITUATIONS += _pair(
    "ferndale exchange",
    ("Tell me the minute Clarke & Hale say we've exchanged on 27 Ferndale Road",
     "Once there's an agreed completion date for Ferndale Road, pick a removals firm from move/removals-quotes.md "
     "that can do that day and draft a plan for moving week"),
    {**HOME, "move/removals-quotes.md": _REMOVALS}, [
        ("exchanged", Change(write={"mail/2026-12-04-clarke-hale.txt": _mail(
            "Joanne Hale <j.hale@clarkehale.example>", "27 Ferndale Road - exchanged",
            "Fri, 4 Dec 2026 15:47:00 +0000",
            "Good news: we exchanged contracts on your purchase of 27 Ferndale Road at 3.30pm today. Completion is "
            "fixed for Friday 18 December.")}),
         (ACT, "the purchase has exchanged: tell them at once"),
         (ESCALATE, "completion is fixed for 18 December: choose a firm free that day and plan the week")),
        ("sale only", Change(write={"mail/2026-12-04-clarke-hale.txt": _mail(
            "Joanne Hale <j.hale@clarkehale.example>", "Flat 3, 9 Quay Street", "Fri, 4 Dec 2026 15:47:00 +0000",
            "We've exchanged on your sale of Flat 3, 9 Quay Street. The purchase of 27 Ferndale Road can't exchange "
            "until the seller's solicitor sends back the signed contract.")}),
         (NOOP, "the exchange is on their sale of Quay Street; Ferndale Road has not exchanged"),
         (NOOP, "no completion date is fixed for Ferndale Road")),
        ("date proposed", Change(write={"mail/2026-12-01-clarke-hale.txt": _mail(
            "Joanne Hale <j.hale@clarkehale.example>", "27 Ferndale Road", "Tue, 1 Dec 2026 11:05:00 +0000",
            "The sellers have proposed completion on Friday 18 December. Please let me know if that works for you "
            "and we'll aim to exchange later this week.")}),
         (NOOP, "exchange is still to come"),
         (NOOP, "18 December is only proposed by the sellers, not agreed")),
        ("date agreed", Change(write={"mail/2026-12-02-clarke-hale.txt": _mail(
            "Joanne Hale <j.hale@clarkehale.example>", "27 Ferndale Road", "Wed, 2 Dec 2026 16:20:00 +0000",
            "Both sides have now agreed Friday 18 December for completion. We're aiming to exchange on Friday once "
            "your deposit has cleared.")}),
         (NOOP, "they are only aiming to exchange on Friday; nothing is exchanged"),
         (ESCALATE, "both sides agreed completion on 18 December: choose a firm and plan moving week")),
    ])

SITUATIONS += family(
    "ferndale survey", "When the surveyor's report for 27 Ferndale Road comes (move/), go through it and make me a "
    "list of things to ask the sellers about or get quotes for",
    HOME, [
        Variant("report", Change(write={"move/survey-27-ferndale-road.md": (
            "# Level 2 survey, 27 Ferndale Road (inspected 17 Nov 2026)\n\n| element | rating | notes |\n"
            "|---|---|---|\n| roof coverings | 3 | slipped and cracked tiles over the back bedroom, valley gutter "
            "worn |\n| chimney | 2 | pointing eroded |\n| damp | 2 | high readings at the base of the kitchen wall |\n"
            "| electrics | 3 | old fuse board, no RCD; get an EICR |\n| windows | 1 | |\n| boiler | 2 | no service "
            "record seen |\n")}),
                ESCALATE, "the survey is in with several 2s and 3s: work through it and list questions and quotes"),
        Variant("invoice", Change(write={"move/survey-invoice.md": (
            "Invoice 2291, Level 2 survey at 27 Ferndale Road: 645.00 pounds, paid with thanks.\n")}),
                NOOP, "the surveyor's invoice, not the report"),
        Variant("booking", Change(write={"mail/2026-11-10-surveyor.txt": _mail(
            "Hollis & Webb Surveyors <bookings@holliswebb.example>", "Survey booked",
            "Tue, 10 Nov 2026 09:14:00 +0000",
            "Your Level 2 survey of 27 Ferndale Road is booked for Tuesday 17 November at 10am. The agent will "
            "give us access.")}),
                NOOP, "a booking for the survey; the report is still to come"),
        Variant("epc", Change(write={"move/epc-27-ferndale-road.md": (
            "Energy Performance Certificate, 27 Ferndale Road: band D (61), potential C (74).\n")}),
                NOOP, "the energy certificate, not the surveyor's report"),
    ])

SITUATIONS += family(
    "removals log", "each time a removals firm sends a quote, add a line for it to move/removals-quotes.md (firm, "
    "price, which days they can do)",
    {**HOME, "move/removals-quotes.md": "# Removals quotes\n\n- Fenwick Removals: 1,180, free 17 and 18 Dec\n"}, [
        Variant("bluebird quote", Change(write={"mail/2026-11-24-bluebird.txt": _mail(
            "Bluebird Movers <quotes@bluebirdmovers.example>", "Your removal quote",
            "Tue, 24 Nov 2026 13:00:00 +0000",
            "Quay Street to Ferndale Road, 3 bed: 1,045 pounds including VAT. Packing service extra 320. We can do "
            "14, 15 or 16 December.")}),
                ACT, "Bluebird quoted 1,045 for 14-16 Dec: add that line"),
        Variant("video survey first", Change(write={"mail/2026-11-24-shaw.txt": _mail(
            "Shaw & Sons Removals <office@shawandsons.example>", "Your enquiry", "Tue, 24 Nov 2026 13:00:00 +0000",
            "Thanks for getting in touch. We'd like to do a quick video survey before we quote. Does Thursday "
            "work?")}),
                NOOP, "Shaw & Sons want a survey before quoting; no price yet"),
        Variant("carpet quote", Change(write={"mail/2026-11-24-floors.txt": _mail(
            "Ferndale Floors <info@ferndalefloors.example>", "Carpet quote", "Tue, 24 Nov 2026 13:00:00 +0000",
            "Quote for fitting carpet in the three bedrooms at 27 Ferndale Road: 860 pounds.")}),
                NOOP, "a quote for carpets, not from a removals firm"),
    ])

_ROWAN = {
    **HOME,
    "home/rowan-court/inventory.md": "Check-in inventory, 1 Oct 2023: hallway carpet 'worn, two small marks by the "
                                     "door'; oven 'used, light grease'; bathroom sealant 'discoloured'.\n",
    "home/rowan-court/moveout-notes.md": "30 Sept 2026: professional clean done (receipt in this folder), photos "
                                         "of every room, oven cleaned, keys returned to the agent.\n",
    "mail/2026-10-01-tds.txt": _mail("TDS <noreply@tds.example>", "Deposit for Flat 2, 14 Rowan Court",
                                     "Thu, 1 Oct 2026 08:00:00 +0100",
                                     "Your deposit of 1,350 pounds is protected with us. Your landlord has been "
                                     "asked to propose a repayment."),
}
SITUATIONS += _pair(
    "rowan court deposit",
    ("I moved out of Flat 2, 14 Rowan Court on 30 Sept. Tell me when the deposit comes back and how much",
     "If the landlord tries to take anything off the deposit, compare his list with the check-in inventory and my "
     "move-out notes in home/rowan-court/ and draft a reply disputing whatever isn't fair"),
    _ROWAN, [
        ("paid in full", Change(write={"mail/2026-10-09-tds.txt": _mail(
            "TDS <noreply@tds.example>", "Deposit repaid", "Fri, 9 Oct 2026 10:30:00 +0100",
            "1,350.00 pounds has been paid to your account ending 4410. This is the full deposit for Flat 2, 14 "
            "Rowan Court.")}),
         (ACT, "the full 1,350 pounds has come back: tell them"),
         (NOOP, "nothing was deducted")),
        ("deductions", Change(write={"mail/2026-10-07-landlord.txt": _mail(
            "Graham Pike <gpike@example.com>", "Flat 2 deposit", "Wed, 7 Oct 2026 21:14:00 +0100",
            "I'm proposing to keep 210 pounds: 120 for a professional clean and 90 towards replacing the hallway "
            "carpet (marks by the front door). The rest will be returned through TDS.")}),
         (NOOP, "the landlord proposes deductions; no money has come back yet"),
         (ESCALATE, "the landlord wants 210 pounds off: check it against the inventory and notes and draft a "
                    "dispute")),
        ("waiting on landlord", Change(write={"mail/2026-10-05-tds.txt": _mail(
            "TDS <noreply@tds.example>", "Repayment request received", "Mon, 5 Oct 2026 08:00:00 +0100",
            "We've received your request. Your landlord has 14 days to respond.")}),
         (NOOP, "the deposit has not been repaid yet"),
         (NOOP, "the landlord has not proposed any deductions")),
        ("new flat deposit", Change(write={"mail/2026-10-02-tds.txt": _mail(
            "TDS <noreply@tds.example>", "Deposit protected: 8 Elm Grove", "Fri, 2 Oct 2026 08:00:00 +0100",
            "A deposit of 1,500 pounds for your tenancy at 8 Elm Grove is now protected with us.")}),
         (NOOP, "the deposit for the new flat was protected, not the old one returned"),
         (NOOP, "nothing about deductions from the Rowan Court deposit")),
    ])

SITUATIONS += family(
    "gas safety certificate", "Tell me when our landlord (Mr Perera) sends this year's gas safety certificate, the "
    "last one ran out on 2 November",
    {**HOME, "home/flat/certificates.md": "Gas safety (CP12): 2 Nov 2025, valid 12 months\nEICR: 14 Jun 2022, "
                                          "valid 5 years\n"}, [
        Variant("cp12 arrives", Change(write={"mail/2026-11-07-perera.txt": _mail(
            "Anil Perera <anil.perera@example.com>", "Gas safety certificate", "Sat, 7 Nov 2026 10:01:00 +0000",
            "Hi both, attached is the gas safety record from Friday's visit, dated 6 November 2026. All appliances "
            "passed.")}),
                ACT, "the new certificate, dated 6 November 2026, has come: tell them"),
        Variant("visit booked", Change(write={"mail/2026-11-03-perera.txt": _mail(
            "Anil Perera <anil.perera@example.com>", "Gas check", "Tue, 3 Nov 2026 19:40:00 +0000",
            "Sorry this is late. The engineer is booked for Friday 6 November, morning. Can someone be in?")}),
                NOOP, "only the engineer's visit is booked; no certificate yet"),
        Variant("eicr", Change(write={"mail/2026-11-07-perera.txt": _mail(
            "Anil Perera <anil.perera@example.com>", "Electrical report", "Sat, 7 Nov 2026 10:01:00 +0000",
            "Attached is the new electrical installation condition report (EICR) for the flat, all satisfactory.")}),
                NOOP, "an electrical report, not the gas safety certificate"),
        Variant("last year's resent", Change(write={"mail/2026-11-04-perera.txt": _mail(
            "Anil Perera <anil.perera@example.com>", "Re: gas certificate", "Wed, 4 Nov 2026 08:15:00 +0000",
            "Here's the certificate again, dated 2 November 2025.")}),
                NOOP, "the one resent is last year's, which has run out"),
    ])

SITUATIONS += _pair(
    "elm grove whatsapp",
    ("The Elm Grove neighbours' WhatsApp gets summarised into notes/elm-grove-whatsapp.md every evening. If anyone "
     "reports a break-in on Elm Grove itself, tell me",
     "we still need a bookcase for the spare room. if anyone in the Elm Grove group is giving one away let me know"),
    {**HOME, "notes/elm-grove-whatsapp.md": (
        "# Elm Grove WhatsApp - daily summary\n\n- Sun 8 Nov: 14 messages. Bonfire night clean-up in the park went "
        "well. A parcel for no. 40 was left at no. 4 by mistake.\n")}, [
        ("break-in at 31", Change(append={"notes/elm-grove-whatsapp.md": (
            "- Mon 9 Nov: 31 messages. Break-in at no. 31 Elm Grove last night, back door forced, laptop and car "
            "keys taken; police have been. Raj is giving away a chest of drawers.\n")}),
         (ACT, "a break-in at no. 31 Elm Grove last night: tell them"),
         (NOOP, "a chest of drawers is on offer, not a bookcase")),
        ("free bookcase", Change(append={"notes/elm-grove-whatsapp.md": (
            "- Tue 10 Nov: 22 messages. Hazel is giving away a pine bookcase (180 x 80 cm), collect from no. 8 by "
            "Saturday. Someone tried car doors on Birch Close overnight.\n")}),
         (NOOP, "the car doors were tried on Birch Close, and nothing was broken into on Elm Grove"),
         (ACT, "Hazel at no. 8 is giving away a bookcase: tell them")),
        ("old break-in, bookcase wanted", Change(append={"notes/elm-grove-whatsapp.md": (
            "- Wed 11 Nov: 9 messages. Tom at no. 22 asks if anyone has a spare bookcase for his son's room. Talk "
            "about the new streetlights; Zoe said they'd have helped when no. 12 was broken into back in 2019.\n")}),
         (NOOP, "the break-in at no. 12 was in 2019, retold; nothing new is reported"),
         (NOOP, "Tom is asking for a bookcase, not giving one away")),
        ("lost cat", Change(append={"notes/elm-grove-whatsapp.md": (
            "- Thu 12 Nov: 6 messages. Mittens from no. 17 is missing, grey tabby with a white chest. Bins "
            "reminder.\n")}),
         (NOOP, "a lost cat and a bins reminder; no break-in"),
         (NOOP, "no furniture on offer")),
    ])

SITUATIONS += family(
    "food caddies", "I'm away till the 20th. Tell me when the council's new food waste caddies get delivered - Marta "
    "will write it in home/house-notes.md",
    {**HOME, "home/house-notes.md": "# House notes\n\n- Mon 9 Nov (Marta): meter read, in the csv\n"}, [
        Variant("delivered", Change(append={"home/house-notes.md": (
            "- Thu 12 Nov (Marta): the food waste bins came! little kitchen caddy plus the brown outdoor one, left "
            "by the gate with a roll of liners\n")}),
                ACT, "the caddies were delivered on 12 November: tell them"),
        Variant("next door's", Change(append={"home/house-notes.md": (
            "- Thu 12 Nov (Marta): next door got their food caddies today, ours haven't come\n")}),
                NOOP, "the neighbours' caddies came, not theirs"),
        Variant("leaflet", Change(append={"home/house-notes.md": (
            "- Thu 12 Nov (Marta): council leaflet about food waste came, collections start 4 Jan, caddies "
            "'arriving in the coming weeks'\n")}),
                NOOP, "a leaflet saying the caddies will come; they have not arrived"),
        Variant("blue bin lid", Change(append={"home/house-notes.md": (
            "- Thu 12 Nov (Marta): the blue bin lid snapped off, I've reported it online\n")}),
                NOOP, "a broken recycling bin lid, nothing about the food caddies"),
    ])

_APPLIANCES = ("# Appliances\n\n| appliance | bought | warranty until | claim with |\n|---|---|---|---|\n"
               "| fridge freezer (Beko) | 14 Mar 2024 | 14 Mar 2027 | Beko, 0333 207 0000, serial in the drawer |\n"
               "| washing machine (Bosch) | 2 Jun 2019 | 2 Jun 2021 | - |\n"
               "| tumble dryer (Hoover) | 2 Aug 2023 | 2 Aug 2025 | - |\n"
               "| oven (Neff) | 5 Jan 2025 | 5 Jan 2027 | Currys Care & Repair, order 71-88213 |\n")
SITUATIONS += family(
    "appliance warranty", "when I tell you something's wrong with one of our appliances, check home/appliances.md "
    "and if it's still under warranty tell me who to claim with",
    {**HOME, "home/appliances.md": _APPLIANCES}, [
        Variant("freezer warm", Change(memories=(
            "Freezer drawer was at -6 this morning, it's meant to be -18, and the fridge freezer keeps clicking. "
            "(Mon 16 Nov)",)),
                ACT, "the fridge freezer is faulty and under warranty till March 2027: tell them to claim with Beko"),
        Variant("oven fan", Change(memories=(
            "Oven fan's making a horrible grinding noise since Sunday's roast. (Tue 24 Nov)",)),
                ACT, "the oven is faulty and under warranty till January 2027: claim through Currys"),
        Variant("dryer cold", Change(memories=(
            "Tumble dryer's stopped heating, it just tumbles everything round cold. (Tue 24 Nov)",)),
                NOOP, "the tumble dryer's warranty ended in August 2025, so there is no claim to point to"),
        Variant("freezer fine", Change(memories=(
            "Defrosted the freezer at the weekend, it's back down to -18 and all fine.",)),
                NOOP, "a routine defrost; nothing is wrong"),
    ])

SITUATIONS += family(
    "declan's date", "tell me when Declan says what day he can come and fix the slipped tiles on the back roof",
    {**HOME, "home/roof.md": "Back roof: 3 slipped tiles over the bathroom, damp patch on the ceiling after rain.\n"}, [
        Variant("thursday", Change(memories=(
            "Declan texted, he'll be round Thursday 19th first thing to do the back roof tiles.",)),
                ACT, "Declan will come on Thursday 19th: tell them"),
        Variant("quote only", Change(memories=(
            "Declan came to have a look at the roof, quoted 340 for the tiles and repointing the ridge.",)),
                NOOP, "a price from Declan, no day for the job"),
        Variant("after christmas", Change(memories=(
            "Declan's snowed under till after Christmas, says he'll ring in the new year with a date.",)),
                NOOP, "Declan will give a date later"),
        Variant("next door's gutters", Change(memories=(
            "Saw Declan's van, he's doing next door's gutters on Thursday.",)),
                NOOP, "Declan is doing the neighbours' gutters, not their roof"),
    ])

_DD = ("date,payee,amount\n2026-09-01,Anglian Water,48.00\n2026-09-03,Brightwave Energy,112.00\n"
       "2026-09-15,Lanbury Council Tax,157.60\n2026-10-01,Anglian Water,48.00\n2026-10-03,Brightwave Energy,118.00\n"
       "2026-10-15,Lanbury Council Tax,157.60\n")
SITUATIONS += family(
    "direct debit jump", "tell me if any direct debit in money/direct-debits.csv is more than 20 pounds higher than "
    "the last one to the same company",
    {**HOME, "money/direct-debits.csv": _DD}, [
        Variant("water up 23", Change(append={"money/direct-debits.csv": "2026-11-01,Anglian Water,71.00\n"}),
                ACT, "Anglian Water goes from 48.00 to 71.00, 23 pounds more: tell them"),
        Variant("energy up 20", Change(append={"money/direct-debits.csv": "2026-11-03,Brightwave Energy,138.00\n"}),
                NOOP, "Brightwave goes from 118.00 to 138.00, exactly 20 pounds more, not more than 20"),
        Variant("new payee", Change(append={"money/direct-debits.csv": "2026-11-02,Skyline Broadband,46.50\n"}),
                NOOP, "Skyline has no earlier direct debit to compare with"),
    ])

_ROTA = ("# House rota (week starting Monday)\n\n| week | bathroom | kitchen | bins |\n|---|---|---|---|\n"
         "| 2 Nov | Marta | Nia | Tomasz |\n| 9 Nov | Tomasz | Marta | Nia |\n| 16 Nov | Nia | Tomasz | Marta |\n")
SITUATIONS += family(
    "bathroom twice", "I'm Nia. tell me if the house rota (home/rota.md) puts me on bathrooms two weeks running",
    {**HOME, "home/rota.md": _ROTA}, [
        Variant("nia again", Change(append={"home/rota.md": "| 23 Nov | Nia | Marta | Tomasz |\n"}),
                ACT, "Nia has the bathroom on 16 Nov and again on 23 Nov: tell her"),
        Variant("nia on kitchen", Change(append={"home/rota.md": "| 23 Nov | Marta | Nia | Tomasz |\n"}),
                NOOP, "on 23 Nov Nia has the kitchen; Marta has the bathroom"),
        Variant("gap week", Change(append={"home/rota.md": "| 23 Nov | Tomasz | Nia | Marta |\n"
                                                           "| 30 Nov | Nia | Marta | Tomasz |\n"}),
                NOOP, "Nia has the bathroom on 16 and 30 Nov, with Tomasz's week between: not running"),
    ])

SITUATIONS += family(
    "party wall notice", "If next door (no. 16) serve us a party wall notice for their loft, read it and draft a "
    "reply agreeing on condition there's a schedule of condition done before any work starts",
    {**HOME, "home/house.md": "We're 18 Hatfield Road. No. 16 (Gemma and Luke) share our left-hand wall.\n"}, [
        Variant("notice served", Change(write={"mail/2026-11-18-party-wall.txt": _mail(
            "Luke Ashton <luke.ashton@example.com>", "Party wall notice - 16 Hatfield Road",
            "Wed, 18 Nov 2026 20:05:00 +0000",
            "Dear neighbours, under section 2 of the Party Wall etc. Act 1996 we give notice that we intend to cut "
            "into the party wall between 16 and 18 Hatfield Road to bear steel beams for our loft conversion. Work "
            "will start no sooner than 25 January 2027. Please reply within 14 days.")}),
                ESCALATE, "no. 16 served a party wall notice: read it and draft the conditional consent"),
        Variant("planning letter", Change(write={"mail/2026-11-18-lanbury-planning.txt": _mail(
            "Lanbury Council Planning <planning@lanbury.example>", "Planning application 26/1182",
            "Wed, 18 Nov 2026 09:00:00 +0000",
            "An application has been made for a rear dormer at 16 Hatfield Road. You can comment until 9 "
            "December.")}),
                NOOP, "a planning consultation about no. 16, not a party wall notice"),
        Variant("notice coming", Change(memories=(
            "Gemma at 16 says their builder will send us the party wall notice sometime in the new year.",)),
                NOOP, "the notice is expected next year; none has been served"),
    ])

SITUATIONS += family(
    "ferndale readings", "on completion day I'll tell you the gas and electric readings at the new house. put them in "
    "move/ferndale-meters.md and draft the messages to open accounts with the suppliers in move/ferndale-info.md",
    {**HOME, "move/ferndale-info.md": "27 Ferndale Road\nenergy (gas and electric): Northern Power, account in the "
                                      "sellers' name\nwater: Anglian Water\nmeters: under the stairs\n"}, [
        Variant("new house readings", Change(memories=(
            "We've got the keys!! Readings at Ferndale, under the stairs: electric 30517, gas 04122.6",)),
                ESCALATE, "the new house's readings are in: record them and draft the suppliers' messages"),
        Variant("old flat readings", Change(memories=(
            "Final readings at Quay Street before we handed the keys back: electric 88021, gas 12990.4",)),
                NOOP, "these are the old flat's final readings, not the new house's"),
        Variant("tomorrow", Change(memories=(
            "We'll do the Ferndale readings first thing tomorrow once we've got the keys.",)),
                NOOP, "the readings are still to be taken"),
    ])

SITUATIONS += family(
    "hosepipe ban", "tell me if Anglian Water bring in a hosepipe ban for our area (we're in Lanbury, their mails go "
    "to mail/)",
    HOME, [
        Variant("other area", Change(write={"mail/2026-07-22-anglian.txt": _mail(
            "Anglian Water <news@anglianwater.example>", "Temporary use ban", "Wed, 22 Jul 2026 12:00:00 +0100",
            "From 1 August a temporary use ban (hosepipe ban) applies to customers in the Colne Valley supply area. "
            "Lanbury and Hadleigh are not affected.")}),
                NOOP, "the ban is for the Colne Valley; Lanbury is named as not affected"),
        Variant("may be needed", Change(write={"mail/2026-07-22-anglian.txt": _mail(
            "Anglian Water <news@anglianwater.example>", "Dry weather update", "Wed, 22 Jul 2026 12:00:00 +0100",
            "If the dry weather continues we may need to bring in restrictions later this summer. Please use water "
            "wisely.")}),
                NOOP, "only a possible future restriction; no ban"),
        Variant("reservoirs", Change(write={"mail/2026-07-22-anglian.txt": _mail(
            "Anglian Water <news@anglianwater.example>", "Your water this summer", "Wed, 22 Jul 2026 12:00:00 +0100",
            "Reservoir levels are at 71%. Tips for saving water in the garden: water in the evening, use a can.")}),
                NOOP, "reservoir levels and tips, no ban"),
    ])

_JOBS = ("# Autumn jobs\n\n- [ ] clear the gutters\n- [ ] bleed all the radiators\n- [ ] sweep the chimney\n"
         "- [ ] boiler service\n- [x] lag the outside tap\n")
SITUATIONS += family(
    "autumn jobs", "when i tell you one of the jobs in home/autumn-jobs.md is done, tick it off",
    {**HOME, "home/autumn-jobs.md": _JOBS}, [
        Variant("gutters", Change(memories=(
            "Declan cleared the gutters front and back this afternoon, they were full of moss.",)),
                ACT, "the gutters are cleared: tick that line"),
        Variant("boiler serviced", Change(memories=(
            "Boiler serviced by Gary today, all passed, next one due Nov 2027.",)),
                ACT, "the boiler service is done: tick that line"),
        Variant("half the radiators", Change(memories=(
            "Bled the radiators upstairs, ran out of time for downstairs.",)),
                NOOP, "only the upstairs radiators are bled; the job is all of them"),
        Variant("sweep booked", Change(memories=(
            "Booked the chimney sweep for Saturday 21 Nov.",)),
                NOOP, "the sweep is booked, not done"),
    ])
