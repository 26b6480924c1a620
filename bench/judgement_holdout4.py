"""The held-out labelled set no. 4 for ``bench/judgement.py``, written without reading how the product decides.

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


SITUATIONS += family("joint account low", "keep an eye on the joint account (money/joint-account.csv) and let me know "
                                          "as soon as the balance drops under 200 EUR",
                     {**HOME, "money/joint-account.csv": (
                         "date,description,amount,balance\n"
                         "2026-11-28,Salary Maren,+2140.00,2610.45\n"
                         "2026-12-01,Rent Keller,-1150.00,1460.45\n"
                         "2026-12-01,Supermarket Edeka,-86.30,1374.15\n"
                         "2026-12-02,Transfer to savings,-961.35,412.80\n")}, [
    Variant("under 200", Change(append={"money/joint-account.csv": "2026-12-03,Allsafe car insurance,-260.00,"
                                                                   "152.80\n"}),
            ACT, "the joint account balance is now 152.80 EUR, under 200: tell the user"),
    Variant("just above", Change(append={"money/joint-account.csv": "2026-12-03,Kids' winter jackets,-198.50,"
                                                                    "214.30\n"}),
            NOOP, "214.30 EUR is still above the 200 EUR threshold"),
    Variant("overdrawn", Change(append={"money/joint-account.csv": "2026-12-03,Stadtwerke annual settlement,-450.00,"
                                                                   "-37.20\n"}),
            ACT, "the balance went negative, which is under 200 EUR: tell the user"),
    Variant("savings account low", Change(write={"money/savings-account.csv": (
        "date,description,amount,balance\n2026-12-03,Transfer to joint account,-850.00,150.00\n")}),
            NOOP, "the low balance is on the savings account, not the joint account"),
    nothing(),
])

SITUATIONS += family("dishwasher quote", "If the repair shop gives us a price for fixing the dishwasher, work out "
                                         "whether the repair is worth it or we'd be better off buying a new one",
                     {**HOME,
                      "home/appliances.md": (
                          "# Appliances\n\n- Dishwasher: Bosko SMV-40, bought March 2019 for 520 EUR, out of warranty\n"
                          "- Fridge: Kaltwerk KF-2, bought 2022, warranty until 2027\n"
                          "- Oven: Bosko HB-11, came with the flat\n"),
                      "mail/2026-11-27-fixit.txt": _mail(
                          "FixIt Appliance Service <service@fixit.example>", "Your repair request",
                          "We received your request about the dishwasher (error E24, not draining). A technician "
                          "will inspect it on 2 December between 8 and 12.")}, [
    Variant("written quote", Change(write={"mail/2026-12-02-fixit.txt": _mail(
        "FixIt Appliance Service <service@fixit.example>", "Quote for your dishwasher repair",
        "After today's inspection of your Bosko SMV-40: the drain pump and the control board need replacing. "
        "Parts 214 EUR, labour 95 EUR, total 309 EUR including VAT. The quote is valid for 14 days.")}),
            ESCALATE, "the price came in: weighing 309 EUR against a new machine for a 2019 dishwasher is reasoning"),
    Variant("visit moved", Change(write={"mail/2026-12-02-fixit.txt": _mail(
        "FixIt Appliance Service <service@fixit.example>", "Change to your appointment",
        "Our technician is ill today. The inspection of your dishwasher moves to Friday 5 December; we will send "
        "you a quote after the visit.")}),
            NOOP, "the visit was postponed; the price is only promised for later"),
    Variant("oven quote", Change(write={"mail/2026-12-02-fixit.txt": _mail(
        "FixIt Appliance Service <service@fixit.example>", "Quote: oven door seal",
        "As requested, replacing the door seal of your Bosko HB-11 oven costs 68 EUR including fitting.")}),
            NOOP, "the price is for the oven's door seal, not for fixing the dishwasher"),
    Variant("price by phone", Change(memories=(
        "The FixIt man rang: fixing the dishwasher would be about 290 EUR all in, new pump plus labour.",)),
            ESCALATE, "the repair shop gave the price by phone: deciding repair versus replace needs reasoning"),
])

SITUATIONS += family("reading streak", "if Freya's reading log shows three days in a row with no reading, remind me to "
                                       "have a word with her",
                     {**HOME, "school/freya/reading-log.csv": (
                         "date,book,minutes\n2026-11-27,The Wild Robot,25\n2026-11-28,The Wild Robot,15\n"
                         "2026-11-29,The Wild Robot,0\n2026-11-30,The Wild Robot,0\n")}, [
    Variant("third blank day", Change(append={"school/freya/reading-log.csv": "2026-12-01,The Wild Robot,0\n"}),
            ACT, "29 and 30 November and now 1 December all show 0 minutes: three days in a row, remind the user"),
    Variant("read again", Change(append={"school/freya/reading-log.csv": "2026-12-01,The Wild Robot,20\n"}),
            NOOP, "Freya read for 20 minutes, so the run of blank days stopped at two"),
    Variant("brother's log", Change(write={"school/otto/reading-log.csv": (
        "date,book,minutes\n2026-11-29,Dog Man,0\n2026-11-30,Dog Man,0\n2026-12-01,Dog Man,0\n")}),
            NOOP, "the three blank days are in Otto's log, not Freya's"),
    nothing(),
])

SITUATIONS += family("pip not eating", "Ping me straight away if Pip stops eating, rabbits go downhill fast", HOME, [
    Variant("hunched", Change(memories=(
        "Pip hasn't touched her hay or her pellets since last night and she's sitting hunched in the corner.",)),
            ACT, "Pip has stopped eating: ping the user at once"),
    Variant("picky", Change(memories=(
        "Pip turned her nose up at the new brand of pellets but munched through all her hay.",)),
            NOOP, "Pip is still eating her hay; she only refused one brand of pellets"),
    Variant("neighbour's rabbit", Change(memories=(
        "Ruby next door says their rabbit Clover isn't eating, they're taking him to the vet tonight.",)),
            NOOP, "it is the neighbours' rabbit that stopped eating, not Pip"),
    Variant("bowl still full", Change(memories=(
        "Checked the hutch at lunch: Pip's bowl is still full from this morning and she ignored the dandelions too.",)),
            ACT, "Pip has eaten nothing since the morning: ping the user"),
], memories=("Pip is our six-year-old lop rabbit; she lives in the hutch in the garden.",))

SITUATIONS += family("ramipril left", "Tell me when I'm down to 7 Ramipril tablets or fewer so I can order more",
                     {**HOME, "health/tablets-left.md": (
                         "# Tablets left (I update this every few days)\n\n"
                         "Ramipril 5 mg: 12\nVitamin D 1000 IU: 40\nCetirizine 10 mg: 9\n")}, [
    Variant("six left", Change(write={"health/tablets-left.md": (
        "# Tablets left (I update this every few days)\n\nRamipril 5 mg: 6\nVitamin D 1000 IU: 35\n"
        "Cetirizine 10 mg: 9\n")}),
            ACT, "six Ramipril tablets are left, fewer than 7: tell the user"),
    Variant("nine left", Change(write={"health/tablets-left.md": (
        "# Tablets left (I update this every few days)\n\nRamipril 5 mg: 9\nVitamin D 1000 IU: 37\n"
        "Cetirizine 10 mg: 9\n")}),
            NOOP, "nine Ramipril tablets are still more than 7"),
    Variant("exactly seven", Change(write={"health/tablets-left.md": (
        "# Tablets left (I update this every few days)\n\nRamipril 5 mg: 7\nVitamin D 1000 IU: 35\n"
        "Cetirizine 10 mg: 8\n")}),
            ACT, "exactly 7 Ramipril tablets are left, which is '7 or fewer': tell the user"),
    Variant("antihistamine low", Change(write={"health/tablets-left.md": (
        "# Tablets left (I update this every few days)\n\nRamipril 5 mg: 10\nVitamin D 1000 IU: 38\n"
        "Cetirizine 10 mg: 3\n")}),
            NOOP, "the cetirizine is running low, but 10 Ramipril tablets are left"),
])

SITUATIONS += family("knee mri", "When the hospital gives me a date for the knee MRI, check it against my calendar and "
                                 "work out what I'd have to move",
                     {**HOME,
                      "calendar/december.md": (
                          "# December\n\n- 3 Dec 09:00-12:00 workshop with the Lund team (I run it)\n"
                          "- 9 Dec 08:00 dentist, check-up\n- 9 Dec 10:00-11:30 project review, I'm presenting\n"
                          "- 12 Dec 19:00 choir concert\n"),
                      "mail/2026-11-21-stanne.txt": _mail(
                          "St. Anne's Radiology <appointments@stanne.example>", "Referral received",
                          "We have received your GP's referral for an MRI of the right knee.")}, [
    Variant("date by letter", Change(write={"mail/2026-12-02-stanne.txt": _mail(
        "St. Anne's Radiology <appointments@stanne.example>", "Your MRI appointment",
        "Your MRI of the right knee is booked for Tuesday 9 December at 09:40. Please arrive 20 minutes early; "
        "the scan takes about 45 minutes.")}),
            ESCALATE, "the MRI date clashes with the 9 December review: working out what to move needs reasoning"),
    Variant("waiting list", Change(write={"mail/2026-12-02-stanne.txt": _mail(
        "St. Anne's Radiology <appointments@stanne.example>", "Your MRI referral",
        "You are now on our waiting list for an MRI of the right knee. We will write to you with an appointment "
        "date, usually within four to six weeks.")}),
            NOOP, "the hospital has given no date yet, only a promise to send one"),
    Variant("x-ray results", Change(write={"mail/2026-12-02-stanne.txt": _mail(
        "St. Anne's Radiology <appointments@stanne.example>", "Your results are ready",
        "The report on your chest X-ray of 18 November is now available in the patient portal.")}),
            NOOP, "a results notice for an X-ray, no date for the knee MRI"),
    Variant("date by phone", Change(memories=(
        "St. Anne's rang: my knee MRI is on 3 December at 10:15, takes about 45 minutes.",)),
            ESCALATE, "the MRI date falls in the workshop I run on 3 December: rearranging needs reasoning"),
])

SITUATIONS += family("ferry change", "if the ferry company changes or cancels our crossing, figure out what that does "
                                     "to the rest of the trip and suggest how to fix it",
                     {**HOME,
                      "travel/summer-itinerary.md": (
                          "# Norway, August\n\n14 Aug: drive to Kiel, ferry 14:00 Kiel to Oslo (StenaNord, booking "
                          "SN-88213), arrive 15 Aug 10:00\n15 Aug: drive to Lillehammer (about 2.5 h), cabin check-in "
                          "15:00-20:00\n16-20 Aug: cabin\n21 Aug: ferry back 14:00 Oslo to Kiel\n"),
                      "mail/2026-06-02-stenanord.txt": _mail(
                          "StenaNord <bookings@stenanord.example>", "Booking confirmed: SN-88213",
                          "Kiel to Oslo, 14 August 14:00, 2 adults, 2 children, 1 car, inside cabin.")}, [
    Variant("later departure", Change(write={"mail/2026-07-20-stenanord.txt": _mail(
        "StenaNord <bookings@stenanord.example>", "Schedule change for booking SN-88213",
        "Your departure on 14 August has moved from 14:00 to 21:30. Arrival in Oslo is now 15 August 17:30.")}),
            ESCALATE, "arriving 17:30 leaves little time for the 20:00 cabin check-in: the plan must be reworked"),
    Variant("sailing cancelled", Change(write={"mail/2026-07-20-stenanord.txt": _mail(
        "StenaNord <bookings@stenanord.example>", "Sailing cancelled: SN-88213",
        "Due to technical work on the vessel, the 14 August sailing from Kiel is cancelled. We can rebook you on "
        "15 August 14:00 at no cost, or refund the booking in full.")}),
            ESCALATE, "the crossing is cancelled: choosing between rebooking and a refund affects the whole trip"),
    Variant("check-in reminder", Change(write={"mail/2026-08-10-stenanord.txt": _mail(
        "StenaNord <bookings@stenanord.example>", "Your trip is coming up: SN-88213",
        "Check-in at Kiel closes 45 minutes before departure. Please have your passports ready.")}),
            NOOP, "a reminder about check-in; the crossing itself is unchanged"),
    Variant("cabin host writes", Change(write={"mail/2026-08-01-cabin.txt": _mail(
        "Ingrid Solheim <ingrid@fjellhytte.example>", "Your stay in Lillehammer",
        "Looking forward to having you. The key box code will follow a day before you arrive.")}),
            NOOP, "the mail is from the cabin host, not the ferry company, and changes nothing"),
])

SITUATIONS += family("blender return", "Let me know once Kitchenly confirms they've got the blender I sent back",
                     {**HOME, "mail/2026-11-26-kitchenly.txt": _mail(
                         "Kitchenly Returns <returns@kitchenly.example>", "Your return label RMA-30551",
                         "Here is the label for returning your Blender BX-900. Please drop the parcel at any post "
                         "office within 14 days.")}, [
    Variant("received", Change(write={"mail/2026-12-02-kitchenly.txt": _mail(
        "Kitchenly Returns <returns@kitchenly.example>", "We've received your return RMA-30551",
        "Your Blender BX-900 has arrived at our warehouse. The refund of 89.99 EUR will be processed within five "
        "working days.")}),
            ACT, "Kitchenly confirms the blender arrived: tell the user"),
    Variant("in transit", Change(write={"mail/2026-11-29-kitchenly.txt": _mail(
        "Kitchenly Returns <returns@kitchenly.example>", "Your return is on its way",
        "Good news: your return RMA-30551 has been scanned by the carrier and is on its way to our warehouse.")}),
            NOOP, "the parcel is on its way; Kitchenly has not received it yet"),
    Variant("blender promotion", Change(write={"mail/2026-12-02-kitchenly-news.txt": _mail(
        "Kitchenly <news@kitchenly.example>", "Blender week: 20 % off",
        "All blenders are 20 % off until Sunday, including the new BX-950.")}),
            NOOP, "a Kitchenly advert about blenders, not a confirmation of the return"),
    nothing(),
])

SITUATIONS += family("cloudvault renewal", "When CloudVault sends the renewal notice for my storage plan, compare "
                                           "it with the alternatives in notes/storage-options.md and tell me which "
                                           "to go for",
                     {**HOME, "notes/storage-options.md": (
                         "# Cloud storage, 2 TB\n\n- Now: CloudVault, 79 EUR a year (introductory price)\n"
                         "- Boxwell: 8.99 EUR a month, EU servers, no family sharing\n"
                         "- Nimbus One: 95 EUR a year, family sharing for up to five people\n")}, [
    Variant("renewal notice", Change(write={"mail/2026-12-02-cloudvault.txt": _mail(
        "CloudVault <billing@cloudvault.example>", "Your plan renews on 3 January",
        "Your 2 TB plan renews automatically on 3 January. As your introductory period has ended, the price will "
        "be 119.88 EUR a year.")}),
            ESCALATE, "the renewal notice arrived: weighing 119.88 EUR against the two alternatives needs reasoning"),
    Variant("feature news", Change(write={"mail/2026-12-02-cloudvault.txt": _mail(
        "CloudVault <news@cloudvault.example>", "New: shared albums",
        "You can now share photo albums with anyone, even if they don't have a CloudVault account.")}),
            NOOP, "a feature announcement from CloudVault, not the renewal notice"),
    Variant("other service renews", Change(write={"mail/2026-12-02-soundwave.txt": _mail(
        "Soundwave <billing@soundwave.example>", "Your Premium plan renews soon",
        "Your Soundwave Premium subscription renews on 5 January at 10.99 EUR a month.")}),
            NOOP, "the renewal notice is for the music subscription, not the storage plan"),
    nothing(),
])

SITUATIONS += family("broken in the flat", "whenever I tell you something in the flat has broken, add a line to "
                                           "home/for-landlord.md so I can send him the list",
                     {**HOME, "home/for-landlord.md": (
                         "# Things to report to Mr Keller\n\n- 12 Nov: kitchen tap drips\n")}, [
    Variant("extractor fan", Change(memories=(
        "The bathroom extractor fan died this evening, it doesn't switch on at all any more.",)),
            ACT, "something in the flat broke: append one line to the landlord list"),
    Variant("tap fixed", Change(memories=("Mr Keller's plumber fixed the dripping kitchen tap this morning.",)),
            NOOP, "a repair was done; nothing new has broken"),
    Variant("phone screen", Change(memories=("Dropped my phone on the stairs and cracked the screen.",)),
            NOOP, "the phone is the user's own, not part of the flat"),
    Variant("window handle", Change(memories=(
        "One of the bedroom window handles snapped off when I opened it this morning.",)),
            ACT, "a window handle in the flat broke: add it to the list"),
])

SITUATIONS += family("u12 match off", "ping me if Saturday's U12 match gets called off (club/fixtures.md)",
                     {**HOME, "club/fixtures.md": (
                         "# Fixtures, Saturday 6 December\n\nU10 vs Eintracht Nord, 09:30, home, pitch 2\n"
                         "U12 vs SV Hafen, 11:00, away (Hafen sports park)\n"
                         "U14 vs TuS Elbe, 13:00, home, pitch 1\n")}, [
    Variant("waterlogged", Change(write={"club/fixtures.md": (
        "# Fixtures, Saturday 6 December\n\nU10 vs Eintracht Nord, 09:30, home, pitch 2\n"
        "U12 vs SV Hafen: CANCELLED, pitch waterlogged\nU14 vs TuS Elbe, 13:00, home, pitch 1\n")}),
            ACT, "the U12 match is cancelled: ping the user"),
    Variant("u14 off", Change(write={"club/fixtures.md": (
        "# Fixtures, Saturday 6 December\n\nU10 vs Eintracht Nord, 09:30, home, pitch 2\n"
        "U12 vs SV Hafen, 11:00, away (Hafen sports park)\nU14 vs TuS Elbe: CANCELLED, referee unavailable\n")}),
            NOOP, "the U14 match was called off; the U12 match still stands"),
    Variant("later kick-off", Change(write={"club/fixtures.md": (
        "# Fixtures, Saturday 6 December\n\nU10 vs Eintracht Nord, 09:30, home, pitch 2\n"
        "U12 vs SV Hafen, 12:30 (moved from 11:00), away (Hafen sports park)\n"
        "U14 vs TuS Elbe, 13:00, home, pitch 1\n")}),
            NOOP, "the U12 kick-off moved, but the match is still on"),
    Variant("coach texts", Change(memories=(
        "Coach Dirk texted: no U12 game this Saturday, Hafen can't put a team together.",)),
            ACT, "the coach says the U12 game is off: ping the user"),
])

SITUATIONS += family("traffic fine", "let me know if a parking or speeding fine turns up in mail/",
                     {**HOME, "mail/2026-11-25-council.txt": _mail(
                         "City Council <info@city.example>", "Winter road clearing",
                         "From December, residents must clear snow from the pavement in front of their house "
                         "by 7 am.")}, [
    Variant("parking fine", Change(write={"mail/2026-12-02-fines.txt": _mail(
        "Traffic Fines Office <fines@city.example>", "Notice of penalty: parking offence",
        "Your vehicle HH-MK 2231 was parked in a no-stopping zone on Grindelallee on 24 November. The fine is "
        "35 EUR, payable within 14 days.")}),
            ACT, "a parking fine arrived: tell the user"),
    Variant("permit renewal", Change(write={"mail/2026-12-02-parking.txt": _mail(
        "Parking Services <parking@city.example>", "Your residents' parking permit",
        "Your residents' parking permit for zone 4 expires on 31 December. You can renew it online for 65 EUR.")}),
            NOOP, "a permit renewal is not a fine"),
    Variant("objection upheld", Change(write={"mail/2026-12-02-fines.txt": _mail(
        "Traffic Fines Office <fines@city.example>", "Your objection to penalty 2026-88412",
        "Your objection has been accepted. The proceedings are closed and nothing is payable.")}),
            NOOP, "an old fine was withdrawn; no new fine turned up"),
    Variant("speed camera", Change(write={"mail/2026-12-03-fines.txt": _mail(
        "Traffic Fines Office <fines@city.example>", "Speed camera notice",
        "Vehicle HH-MK 2231 was recorded at 58 km/h in a 50 km/h zone on Ring 2 on 27 November. Fine: 30 EUR.")}),
            ACT, "a speeding fine arrived: tell the user"),
])

SITUATIONS += family("bounced debit", "Whenever a direct debit bounces, tell me which one (finance/bank-alerts.txt)",
                     {**HOME, "finance/bank-alerts.txt": (
                         "2026-11-28 08:12 Card payment 23.40 EUR at Bakery Hansen approved\n"
                         "2026-12-01 06:00 Direct debit collected: Stadtwerke electricity 84.00 EUR\n")}, [
    Variant("gym bounced", Change(append={"finance/bank-alerts.txt": (
        "2026-12-02 06:00 Direct debit RETURNED UNPAID (insufficient funds): FitBox membership 39.90 EUR\n")}),
            ACT, "the FitBox direct debit bounced: tell the user which one"),
    Variant("collected", Change(append={"finance/bank-alerts.txt": (
        "2026-12-02 06:00 Direct debit collected: Telewave mobile 24.99 EUR\n")}),
            NOOP, "the direct debit was collected normally"),
    Variant("new mandate", Change(append={"finance/bank-alerts.txt": (
        "2026-12-02 09:30 New direct debit mandate registered: Allsafe car insurance, "
        "first collection 15 December\n")}),
            NOOP, "a new mandate was set up; nothing bounced"),
    Variant("water not collected", Change(append={"finance/bank-alerts.txt": (
        "2026-12-03 06:00 Direct debit could not be collected from your account: Hanse Water 31.50 EUR. "
        "The creditor may try again.\n")}),
            ACT, "the water company's direct debit failed: tell the user"),
    nothing(),
])

SITUATIONS += family("lotte needs help", "If my sister Lotte asks me for help with anything, think about how I could "
                                         "help and draft a reply",
                     {**HOME, "mail/2026-11-23-lotte.txt": _mail(
                         "Lotte Brandt <lotte.brandt@example.org>", "Photos from the weekend",
                         "Here are the pictures from the lake. Ella loved the boat!")}, [
    Variant("moving day", Change(write={"mail/2026-12-02-lotte.txt": _mail(
        "Lotte Brandt <lotte.brandt@example.org>", "Moving on the 20th",
        "Could you help us move on Saturday the 20th? We need someone to drive the rental van and carry boxes "
        "in the morning. No worries if you can't.")}),
            ESCALATE, "Lotte asks for help: working out how to help and drafting the reply needs reasoning"),
    Variant("birthday photos", Change(write={"mail/2026-12-02-lotte.txt": _mail(
        "Lotte Brandt <lotte.brandt@example.org>", "Ella's party",
        "Some photos from Ella's birthday. Thanks again for the puzzle, she hasn't put it down.")}),
            NOOP, "Lotte shares photos and says thanks; she asks for nothing"),
    Variant("colleague asks", Change(write={"mail/2026-12-02-jan.txt": _mail(
        "Jan Petersen <jan.petersen@work.example>", "Help with the move?",
        "Could you help me move on Saturday? Pizza and beer included.")}),
            NOOP, "a colleague asks for help, not the user's sister"),
    Variant("babysitting by phone", Change(memories=(
        "Lotte called: she asked if I could look after the twins next Friday evening while she's at the hospital "
        "with Tom.",)),
            ESCALATE, "Lotte asked for help with the twins: work out what is possible and draft a reply"),
])

SITUATIONS += family("month closed", "when I mark a month as closed in money/budget-2026.md, review that month's "
                                     "spending against the limits and suggest where to cut back",
                     {**HOME, "money/budget-2026.md": (
                         "# Budget 2026 (monthly limits: groceries 450, eating out 120, transport 90, fun 100)\n\n"
                         "## October (closed)\ngroceries 431, eating out 96, transport 88, fun 140\n\n"
                         "## November\ngroceries 512, eating out 175, transport 64, fun 80\n")}, [
    Variant("november closed", Change(write={"money/budget-2026.md": (
        "# Budget 2026 (monthly limits: groceries 450, eating out 120, transport 90, fun 100)\n\n"
        "## October (closed)\ngroceries 431, eating out 96, transport 88, fun 140\n\n"
        "## November (closed)\ngroceries 512, eating out 175, transport 64, fun 80\n")}),
            ESCALATE, "November is marked closed: reviewing it against the limits and suggesting cuts needs reasoning"),
    Variant("december started", Change(append={"money/budget-2026.md": "\n## December\ngroceries 62, eating out 18\n"}),
            NOOP, "a new month was started; no month was marked closed"),
    Variant("october corrected", Change(write={"money/budget-2026.md": (
        "# Budget 2026 (monthly limits: groceries 450, eating out 120, transport 90, fun 100)\n\n"
        "## October (closed)\ngroceries 431, eating out 96, transport 88, fun 145\n\n"
        "## November\ngroceries 512, eating out 175, transport 64, fun 80\n")}),
            NOOP, "a figure in October, closed earlier, was corrected; no month was newly closed"),
    nothing(),
])

SITUATIONS += family("supply cut", "Keep an eye on home/building-notices.md and tell me if the water or the power is "
                                   "going to be switched off",
                     {**HOME, "home/building-notices.md": (
                         "# Notices from the caretaker\n\n- 20 Nov: bins are now collected on Tuesdays\n")}, [
    Variant("water off", Change(append={"home/building-notices.md": (
        "- 2 Dec: the water supply will be switched off on Thursday 4 December, 09:00 to 13:00, for work on the "
        "main riser\n")}),
            ACT, "the water will be switched off on Thursday: tell the user"),
    Variant("meter reading", Change(append={"home/building-notices.md": (
        "- 2 Dec: water meters will be read on Monday 8 December between 8 and 12; please keep the meter cupboard "
        "clear\n")}),
            NOOP, "a meter reading is about water but nothing is switched off"),
    Variant("stairwell lights", Change(append={"home/building-notices.md": (
        "- 3 Dec: electricians replace the stairwell lights on Friday; the power in the flats is not affected\n")}),
            NOOP, "the notice says explicitly that the power in the flats stays on"),
    Variant("power off", Change(append={"home/building-notices.md": (
        "- 3 Dec: Stadtwerke will cut the power to the whole building on Wednesday 10 December from 7 to 9 am to "
        "replace the main fuse box\n")}),
            ACT, "the power will be cut on 10 December: tell the user"),
])

SITUATIONS += family("secondary school form", "Once Noor's school sends the secondary school application form, help "
                                              "me compare the three schools we visited (kids/schools.md) so we can "
                                              "rank them",
                     {**HOME, "kids/schools.md": (
                         "# Schools we visited\n\n- Elbe Gymnasium: strong in science, 35 min by bus, big classes\n"
                         "- Park School: music focus, 10 min walk, Noor's friend Aylin goes there\n"
                         "- Westside Comprehensive: all-day school, good sports, 20 min by bike\n")}, [
    Variant("form sent", Change(write={"mail/2026-12-02-linden.txt": _mail(
        "Linden Primary <office@linden-primary.example>", "Secondary transfer: application form",
        "Please find attached the application form for secondary school. Return it by 16 January with your three "
        "preferences ranked.")}),
            ESCALATE, "the form arrived: comparing the three schools for a ranking needs reasoning"),
    Variant("form promised", Change(write={"mail/2026-12-02-linden.txt": _mail(
        "Linden Primary <office@linden-primary.example>", "Secondary transfer: dates",
        "The application forms for secondary school will be handed out after the winter break.")}),
            NOOP, "the form is only announced for after the break; it has not been sent"),
    Variant("christmas fair", Change(write={"mail/2026-12-02-linden.txt": _mail(
        "Linden Primary <office@linden-primary.example>", "Christmas fair on Friday",
        "Our Christmas fair is on Friday from 3 pm. Cake donations are very welcome.")}),
            NOOP, "a school mail about the Christmas fair, not the application form"),
    Variant("form in school bag", Change(memories=(
        "Noor brought the secondary school application form home today; it has to be back by 16 January.",)),
            ESCALATE, "the form came home with Noor: compare the schools so the family can rank them"),
])

SITUATIONS += family("flight log", "When I tell you I've booked a flight, add it to travel/trips.csv",
                     {**HOME, "travel/trips.csv": "date,from,to,flight,booking\n2026-10-03,HAM,LIS,TP563,QX7LM2\n"}, [
    Variant("oslo booked", Change(memories=(
        "Booked: Hamburg to Oslo on 12 February, SK 652 at 07:40, booking reference K9TRWZ.",)),
            ACT, "the user booked a flight: append one line to trips.csv"),
    Variant("thinking about it", Change(memories=(
        "Found a Hamburg to Oslo flight for 89 EUR; I'll book it tomorrow if it's still there.",)),
            NOOP, "the flight is only found, not booked yet"),
    Variant("colleague booked", Change(memories=("Jens booked his flight to Vienna for the conference.",)),
            NOOP, "a colleague booked a flight, not the user"),
    Variant("night train", Change(memories=("Booked the night train to Vienna for 20 March, sleeper compartment.",)),
            NOOP, "the user booked a train, not a flight"),
    Variant("family to malaga", Change(memories=(
        "Booked flights for all four of us to Malaga, 2 to 9 April, Eurowings EW 7522, reference P3HHQ8.",)),
            ACT, "the user booked flights: log them in trips.csv"),
])
