"""The held-out labelled set no. 18 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families appear neither
there nor in the earlier held-out sets. Each family is one top-level statement, so the set grows by appending.
Many variants are near misses: the watched thing changes but the condition is not met (another person, another
item in the same list, the wrong side of a threshold or exactly on it, a pledge, a forecast or a promise instead
of a fact, a negation, a past event retold, a cancelled thing, the same word in another sense). Several
conditions can only be judged with rows already in the file (a difference, a run of readings, a running total).
Some families hold only near misses. The text is the project's own.
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


_METER = "date,reading_m3\n2027-03-01,1204.310\n2027-03-02,1204.585\n2027-03-03,1204.890\n"
SITUATIONS += family(
    "water meter", "I read the water meter most mornings (home/water-meter.csv). If we've used more than 400 litres "
    "a day since the previous reading, tell me, it could be a leak",
    {**HOME, "home/water-meter.csv": _METER}, [
        Variant("530 litres", Change(append={"home/water-meter.csv": "2027-03-04,1205.420\n"}),
                ACT, "1205.420 - 1204.890 is 0.530 m3, 530 litres in one day, over 400: tell the user"),
        Variant("two days in one", Change(append={"home/water-meter.csv": "2027-03-05,1205.610\n"}),
                NOOP, "720 litres over the two days since the last reading is 360 a day, under 400"),
        Variant("exactly 400", Change(append={"home/water-meter.csv": "2027-03-04,1205.290\n"}),
                NOOP, "exactly 400 litres in the day is not more than 400"),
    ])

_SWEEP = {**HOME, "home/calendar.md": "# Autumn\n- 2 Oct: boiler service, 9-11am\n- 9 Oct: parents' evening\n",
          "mail/2027-09-03-sweep.txt": _mail("Dougie Fraser <dougie@fraserchimneys.example>", "Chimney sweep",
                                             "Thanks for getting in touch. I'll put you on my autumn list.")}
SITUATIONS += family(
    "sweep date", "when the chimney sweep gives us a date, stick it in home/calendar.md", _SWEEP, [
        Variant("thursday the 14th", Change(write={"mail/2027-09-20-sweep.txt": _mail(
            "Dougie Fraser <dougie@fraserchimneys.example>", "Re: Chimney sweep",
            "Right, I can do you on Thursday 14 October, first thing, around 8. Please clear the hearth and take "
            "anything fragile off the mantelpiece.")}),
            ACT, "the sweep set a date, 14 October: add one line to the calendar"),
        Variant("firm date later", Change(write={"mail/2027-09-20-sweep.txt": _mail(
            "Dougie Fraser <dougie@fraserchimneys.example>", "Re: Chimney sweep",
            "I'm working out my October round now and will send you a firm date once it's sorted, probably the "
            "second half of the month.")}),
            NOOP, "the sweep only promised to send a date later; none was given"),
        Variant("tuesday or thursday?", Change(write={"mail/2027-09-20-sweep.txt": _mail(
            "Dougie Fraser <dougie@fraserchimneys.example>", "Re: Chimney sweep",
            "Would a Tuesday or a Thursday morning suit you better? Then I can fit you in.")}),
            NOOP, "the sweep asked a question; no date is set yet"),
    ])

_QUOTES = ("# Loft insulation quotes\n\n| installer | price | notes |\n|---|---|---|\n"
           "| Loftwise | £2,340 | 300 mm wool, two days |\n| Warmtop | £1,690 | 270 mm, boarding £420 extra |\n"
           "| Hayes & Son | £1,950 | includes the hatch |\n")
_COUNCIL = "Fenbridge District Council <energy@fenbridge.gov.example>"
SITUATIONS += family(
    "loft grant", "If the council approves our loft insulation grant, work out which of the quotes in "
    "house/insulation-quotes.md it would cover and draft an email booking that installer",
    {**HOME, "house/insulation-quotes.md": _QUOTES,
     "mail/2027-05-02-council.txt": _mail(_COUNCIL, "Warm Homes: application received",
                                          "We have received your application. Decisions take up to eight weeks.")}, [
        Variant("approved", Change(write={"mail/2027-06-18-council.txt": _mail(
            _COUNCIL, "Warm Homes: decision",
            "Your application has been approved. The grant covers up to £2,000 of loft insulation by a registered "
            "installer, with the work finished by 31 October.")}),
            ESCALATE, "the grant is approved: matching it against three quotes and drafting a booking takes reasoning"),
        Variant("grant the surveyor", Change(write={"mail/2027-06-18-loftwise.txt": _mail(
            "Grant Pollard <grant@loftwise.example>", "Your survey",
            "Hi, Grant here from Loftwise. I've approved the survey slot you asked for: Wednesday 23 June, 10am.")}),
            NOOP, "Grant is the installer's surveyor approving a slot; the council has decided nothing"),
        Variant("still assessing", Change(write={"mail/2027-06-18-council.txt": _mail(
            _COUNCIL, "Warm Homes: update",
            "Your application is still being assessed. We have had a very high number of requests and will write "
            "again by the end of July.")}),
            NOOP, "the application is still being assessed"),
    ])

_ALARMS = ("2027-01-10 07:00:02 alarm=hallway type=smoke self-test OK battery=good\n"
           "2027-01-10 07:00:03 alarm=landing type=smoke self-test OK battery=good\n"
           "2027-01-10 07:00:04 alarm=kitchen type=heat self-test OK battery=good\n")
SITUATIONS += family(
    "alarm batteries", "ping me if any of the smoke alarms reports a low battery (they log to ops/logs/alarms.log)",
    {**HOME, "ops/logs/alarms.log": _ALARMS}, [
        Variant("landing low", Change(append={"ops/logs/alarms.log": (
            "2027-01-17 07:00:03 alarm=landing type=smoke self-test OK battery=LOW replace within 30 days\n")}),
            ACT, "the landing alarm reports a low battery: tell the user"),
        Variant("burnt toast", Change(append={"ops/logs/alarms.log": (
            "2027-01-16 18:42:10 alarm=kitchen type=heat ALARM triggered\n"
            "2027-01-16 18:44:51 alarm=kitchen type=heat cleared\n")}),
            NOOP, "an alarm went off and cleared; no battery is reported low"),
    ])

_GLUCOSE = ("date,time,when,mmol_l\n2027-02-08,07:10,fasting,6.4\n2027-02-09,07:05,fasting,7.2\n"
            "2027-02-09,13:30,after lunch,8.9\n")
SITUATIONS += family(
    "fasting glucose", "If my fasting glucose is 7.0 or higher two mornings running, remind me to ring the diabetes "
    "nurse. I put the readings in health/glucose.csv",
    {**HOME, "health/glucose.csv": _GLUCOSE}, [
        Variant("second morning at 7.0", Change(append={"health/glucose.csv": "2027-02-10,07:15,fasting,7.0\n"}),
                ACT, "7.2 yesterday and 7.0 this morning: two fasting readings in a row at 7.0 or higher"),
        Variant("after dinner", Change(append={"health/glucose.csv": "2027-02-09,19:40,after dinner,9.6\n"}),
                NOOP, "a high reading after dinner is not a fasting one"),
        Variant("a good morning between", Change(append={"health/glucose.csv": "2027-02-10,07:15,fasting,7.4\n"}),
                NOOP, "yesterday's fasting reading was 6.6, so this is only one high morning",
                before={**HOME, "health/glucose.csv": (
                    "date,time,when,mmol_l\n2027-02-08,07:10,fasting,7.3\n2027-02-09,07:05,fasting,6.6\n"
                    "2027-02-09,13:30,after lunch,8.9\n")}),
    ])

SITUATIONS += family(
    "knee exercises", "Whenever I tell you I've done my physio exercises, tick that day off in health/physio.md",
    {**HOME, "health/physio.md": "# Knee exercises, March\n- [x] Mon 1\n- [x] Tue 2\n- [ ] Wed 3\n- [ ] Thu 4\n"}, [
        Variant("wednesday done", Change(memories=("Wednesday: did all three sets of the knee exercises before "
                                                   "work.",)),
                ACT, "the user did the exercises on Wednesday: tick one line"),
        Variant("iced instead", Change(memories=("Didn't get to my knee exercises today, it was too swollen so I iced "
                                                 "it instead.",)),
                NOOP, "the exercises were not done"),
    ])

_OFFERS = ("Lens offers\n- Clearview: varifocals £189, second pair half price\n- Specsmart: thinner lenses £145, "
           "no second pair\n- Optika Home: online only, £99, no aftercare\n")
_OPTICIAN = "Clearview Opticians <hello@clearview.example>"
SITUATIONS += family(
    "new lenses", "If the optician's letter says my prescription's changed, go through the lens offers in "
    "eyes/offers.md and tell me which one makes the most sense",
    {**HOME, "eyes/offers.md": _OFFERS,
     "mail/2027-04-02-clearview.txt": _mail(_OPTICIAN, "Appointment reminder", "See you on 9 April at 4.30pm.")}, [
        Variant("right eye changed", Change(write={"mail/2027-04-10-clearview.txt": _mail(
            _OPTICIAN, "Your eye test results",
            "Your right eye has moved since your last test (from -2.25 to -2.75); your left eye is the same. We "
            "recommend new lenses. Your new prescription is attached.")}),
            ESCALATE, "the prescription changed: weighing the three offers takes reasoning"),
        Variant("same as before", Change(write={"mail/2027-04-10-clearview.txt": _mail(
            _OPTICIAN, "Your eye test results",
            "Good news: your prescription is the same as at your 2025 test. Your next test is due in two years.")}),
            NOOP, "the prescription has not changed"),
        Variant("oscar's results", Change(write={"mail/2027-04-10-clearview-oscar.txt": _mail(
            _OPTICIAN, "Eye test results for Oscar",
            "Dear parent, Oscar's prescription has changed slightly since last year and he would benefit from new "
            "glasses for school.")}),
            NOOP, "it is the child's prescription that changed, not the user's"),
    ])

_TAX_SENDER = "Ashmore Borough Council <counciltax@ashmore.gov.example>"
SITUATIONS += family(
    "tax band", "Let me know if the council tax bill says our band has changed",
    {**HOME, "mail/2026-03-10-council-tax.txt": _mail(
        _TAX_SENDER, "Council tax bill 2026/27",
        "Property: 14 Wren Close. Band C. Annual charge £1,842.10, payable in 10 instalments.")}, [
        Variant("same band, higher charge", Change(write={"mail/2027-03-09-council-tax.txt": _mail(
            _TAX_SENDER, "Council tax bill 2027/28",
            "Property: 14 Wren Close. Band C. Annual charge for 2027/28: £1,934.20, payable in 10 instalments.")}),
            NOOP, "the charge rose but the band is still C"),
        Variant("placed in d", Change(write={"mail/2027-03-09-council-tax.txt": _mail(
            _TAX_SENDER, "Council tax bill 2027/28",
            "Following a review by the Valuation Office, 14 Wren Close has been placed in Band D from 1 April 2027. "
            "Annual charge for 2027/28: £2,175.90.")}),
            ACT, "the house moved from band C to band D: tell the user"),
        Variant("how bands work", Change(write={"mail/2027-03-09-council-leaflet.txt": _mail(
            _TAX_SENDER, "Council tax: how bands work",
            "Bands are set by the Valuation Office. If you think your band is wrong you can ask for a review "
            "online.")}),
            NOOP, "a general leaflet about bands; the user's band did not change"),
    ])

_RATES = ("# Harbridge BS rates\n\n| account | rate (AER) |\n|---|---|\n| Easy Access Saver | 4.35% |\n"
          "| 1-Year Fixed Bond | 4.60% |\n| Regular Saver | 5.00% |\n")
_SAVINGS = {**HOME, "money/harbridge-rates.md": _RATES, "money/savings.md": (
    "Emergency pot: 6,400 in the Harbridge Easy Access Saver.\nOther options: Tallis Bank easy access 4.10%, Mere "
    "Mutual 95-day notice 4.55%, Sparrow app 4.25% variable with a 12-month bonus.\n")}
SITUATIONS += family(
    "easy access rate", "If Harbridge's easy access rate drops below 4%, look at the alternatives in money/savings.md "
    "and work out where the emergency pot should go (rates are in money/harbridge-rates.md)", _SAVINGS, [
        Variant("3.95", Change(write={"money/harbridge-rates.md": _RATES.replace("4.35%", "3.95%")}),
                ESCALATE, "the easy access rate fell to 3.95%: comparing the alternatives takes reasoning"),
        Variant("4.00", Change(write={"money/harbridge-rates.md": _RATES.replace("4.35%", "4.00%")}),
                NOOP, "4.00% is not below 4%"),
        Variant("bond cut", Change(write={"money/harbridge-rates.md": _RATES.replace("4.60%", "3.80%")}),
                NOOP, "the fixed bond's rate fell, not the easy access rate"),
    ])

SITUATIONS += family(
    "kofi repays", "when Kofi pays me back for something, tick it off in money/kofi-owes.md",
    {**HOME, "money/kofi-owes.md": ("# Kofi owes me\n- [ ] gas bill, his half: £38\n- [ ] Lowfield concert ticket: "
                                    "£52\n- [ ] Thai takeaway: £14\n")}, [
        Variant("gas paid", Change(memories=("Kofi sent me £38 for his half of the gas.",)),
                ACT, "Kofi paid back the gas share: tick that line"),
        Variant("on friday", Change(memories=("Kofi says he'll send the concert ticket money on Friday when he gets "
                                              "paid.",)),
                NOOP, "a promise to pay on Friday is not a payment"),
        Variant("the other way", Change(memories=("Paid Kofi back the £9 he lent me for the cinema snacks.",)),
                NOOP, "the user paid Kofi, not the other way round"),
    ])

_SPELLING = ("# Rosa's spelling tests\n\n| week | words | score |\n|---|---|---|\n| 1 | -ight words | 9/10 |\n"
             "| 2 | -ould words | 8/10 |\n")
SITUATIONS += family(
    "spelling test", "If Rosa gets less than 7 out of 10 in her Friday spelling test, remind me to go over the words "
    "with her at the weekend",
    {**HOME, "school/rosa/spelling.md": _SPELLING}, [
        Variant("seven", Change(append={"school/rosa/spelling.md": "| 3 | silent k | 7/10 |\n"}),
                NOOP, "7 out of 10 is not less than 7"),
        Variant("twelve of twenty", Change(append={"school/rosa/spelling.md": "| 3 | silent k (double test) | "
                                                                              "12/20 |\n"}),
                ACT, "12 out of 20 is 6 out of 10, under 7: remind the user"),
        Variant("class average", Change(write={"school/rosa/newsletter.md": (
            "Year 3 news: the class average in this week's spelling test was 6.2 out of 10. Thank you for "
            "practising at home!\n")}),
            NOOP, "the newsletter gives the class average, not Rosa's score"),
    ])

_STUDENT_OFFICE = "Student Office <studentoffice@uni.example>"
SITUATIONS += family(
    "ethics extension", "If my extension for the ethics essay gets approved, redo my study plan in uni/plan.md around "
    "the new deadline",
    {**HOME, "uni/plan.md": ("# Study plan\nWeek 9: Ethics essay final draft (due 14 March)\nWeek 10: revise for "
                             "the Logic test (19 March)\nWeek 11: History presentation (26 March)\n")}, [
        Variant("approved", Change(write={"mail/2027-03-08-extension.txt": _mail(
            _STUDENT_OFFICE, "Extension request PHIL2104",
            "Your extension request for the PHIL2104 Ethics essay has been approved. Your new deadline is 25 March, "
            "12 noon.")}),
            ESCALATE, "the extension is approved: the plan must be reworked around 25 March"),
        Variant("history approved", Change(write={"mail/2027-03-08-extension.txt": _mail(
            _STUDENT_OFFICE, "Extension request HIST2210",
            "Your extension request for the HIST2210 presentation has been approved. New date: 2 April.")}),
            NOOP, "the approved extension is for the history module, not the ethics essay"),
        Variant("module leader to decide", Change(write={"mail/2027-03-08-extension.txt": _mail(
            _STUDENT_OFFICE, "Extension request PHIL2104",
            "We have received your request. The module leader will decide within five working days.")}),
            NOOP, "the request is received but not yet decided"),
    ])

_TANK = "date,ammonia_ppm,nitrite_ppm,nitrate_ppm,ph\n2027-06-01,0,0,10,7.2\n2027-06-08,0.25,0,15,7.0\n"
SITUATIONS += family(
    "tank ammonia", "tell me if the ammonia in the tank goes above 0.25 ppm. test results go in fish/water-tests.csv",
    {**HOME, "fish/water-tests.csv": _TANK}, [
        Variant("0.25 again", Change(append={"fish/water-tests.csv": "2027-06-15,0.25,0,20,7.0\n"}),
                NOOP, "0.25 ppm is not above 0.25"),
        Variant("nitrate up", Change(append={"fish/water-tests.csv": "2027-06-15,0,0,40,6.8\n"}),
                NOOP, "nitrate rose; the ammonia reads 0"),
    ], system_tasks=True)

SITUATIONS += family(
    "slow tide", "Let me know if anyone lists an original 1974 pressing of Marigold Coast's Slow Tide for under £60 "
    "(records/listings.md)",
    {**HOME, "records/listings.md": "# Listings I follow\n- Slow Tide, Marigold Coast, 2019 reissue, 180 g, sealed: "
                                    "£32 (sold)\n"}, [
        Variant("picture disc", Change(append={"records/listings.md": "- Slow Tide, Marigold Coast, 2023 picture "
                                                                      "disc, sealed: £28\n"}),
                NOOP, "a cheap 2023 picture disc is not the 1974 original"),
        Variant("original at 55", Change(append={"records/listings.md": (
            "- Slow Tide, Marigold Coast, 1974 UK first press on Halcyon, sleeve VG+, vinyl VG: £55\n")}),
            ACT, "a 1974 first press is listed at £55, under £60: tell the user"),
        Variant("original at 75", Change(append={"records/listings.md": (
            "- Slow Tide, Marigold Coast, 1974 first press, near mint: £75\n")}),
            NOOP, "the original is listed at £75, not under £60"),
    ])

SITUATIONS += family(
    "stout gravity", "I take gravity readings of the stout and put them in brew/stout-gravity.csv. Once it reads the "
    "same three times in a row, remind me it's ready to bottle",
    {**HOME, "brew/stout-gravity.csv": ("date,sg\n2027-03-02,1.052\n2027-03-05,1.021\n2027-03-07,1.015\n"
                                        "2027-03-08,1.013\n2027-03-09,1.013\n")}, [
        Variant("third 1.013", Change(append={"brew/stout-gravity.csv": "2027-03-10,1.013\n"}),
                ACT, "1.013 three readings running: remind the user to bottle"),
        Variant("still dropping", Change(append={"brew/stout-gravity.csv": "2027-03-10,1.012\n"}),
                NOOP, "the gravity is still falling"),
        Variant("only twice", Change(append={"brew/stout-gravity.csv": "2027-03-10,1.013\n"}),
                NOOP, "1.013 has been read only twice in a row; the reading before was 1.014",
                before={**HOME, "brew/stout-gravity.csv": ("date,sg\n2027-03-02,1.052\n2027-03-05,1.021\n"
                                                           "2027-03-07,1.015\n2027-03-08,1.014\n2027-03-09,1.013\n")}),
    ])

SITUATIONS += family(
    "espresso boiler", "The espresso machine at the café logs to ops/logs/espresso.log. Tell me if the boiler "
    "pressure goes outside 1.0-1.5 bar",
    {**HOME, "ops/logs/espresso.log": ("2027-05-03 06:30 boiler=1.2bar group_temp=93C\n"
                                       "2027-05-03 11:00 boiler=1.3bar group_temp=94C\n")}, [
        Variant("1.5", Change(append={"ops/logs/espresso.log": "2027-05-03 15:30 boiler=1.5bar group_temp=94C\n"}),
                NOOP, "1.5 bar is still inside the range"),
        Variant("hot group", Change(append={"ops/logs/espresso.log": "2027-05-03 15:30 boiler=1.3bar "
                                                                     "group_temp=97C\n"}),
                NOOP, "the group temperature rose; the boiler pressure is normal"),
    ], system_tasks=True)

_TURNOVER = "month,takings,rolling_12m\n2026-11,7420,84310\n2026-12,9880,86950\n2027-01,6130,87420\n"
SITUATIONS += family(
    "vat threshold", "Keep an eye on business/turnover.csv. If our rolling 12-month turnover goes over £90,000, work "
    "out what VAT registration would mean for our prices and draft a note for Jess and Owen",
    {**HOME, "business/turnover.csv": _TURNOVER}, [
        Variant("over", Change(append={"business/turnover.csv": "2027-02,8240,90080\n"}),
                ESCALATE, "the rolling total is 90,080, over 90,000: the pricing work and the note need reasoning"),
        Variant("big month", Change(append={"business/turnover.csv": "2027-02,9950,89760\n"}),
                NOOP, "a strong month, but the rolling total of 89,760 is still under 90,000"),
        Variant("forecast row", Change(append={"business/turnover.csv": "2027-02,7010,88650\n"
                                                                        "2027-03 (forecast),9100,91200\n"}),
                NOOP, "the real total is 88,650; only a forecast row goes over 90,000"),
    ])

_BOOKINGS = ("# Bookings\n\n| date | client | covers |\n|---|---|---|\n| Sat 15 May | Lindqvist anniversary | 32 |\n"
             "| Thu 20 May | Rowan & Co lunch | 55 |\n")
SITUATIONS += family(
    "weekend covers", "Whenever a catering booking comes in for a Saturday or a Sunday with more than 40 covers, tell "
    "me so I can get extra staff in (catering/bookings.md, all 2027)",
    {**HOME, "catering/bookings.md": _BOOKINGS}, [
        Variant("midweek sixty", Change(append={"catering/bookings.md": "| Wed 19 May | Brightline offsite | 60 |\n"}),
                NOOP, "60 covers, but on a Wednesday"),
        Variant("exactly forty", Change(append={"catering/bookings.md": "| Sun 23 May | Pereira christening | "
                                                                        "40 |\n"}),
                NOOP, "a Sunday, but 40 covers is not more than 40"),
        Variant("bare date", Change(append={"catering/bookings.md": "| 29/05/2027 | Halden retirement | 52 |\n"}),
                ACT, "29 May 2027 is a Saturday and 52 covers is over 40: tell the user"),
    ])

_PASSPORT = ("Passport renewal, application 4820 1177 (mine)\n- 2 Feb: application received\n\n"
             "Dan's renewal, application 4820 1190\n- 2 Feb: application received\n")
SITUATIONS += family(
    "passport sent", "let me know when the passport office says my new passport has been sent out (I track it in "
    "travel/passport.md)",
    {**HOME, "travel/passport.md": _PASSPORT}, [
        Variant("being checked", Change(write={"travel/passport.md": _PASSPORT.replace(
            "received\n\nDan", "received\n- 9 Feb: we are checking your documents\n\nDan")}),
            NOOP, "the documents are still being checked"),
        Variant("handed to courier", Change(write={"travel/passport.md": _PASSPORT.replace(
            "received\n\nDan", "received\n- 12 Feb: your new passport has been printed and handed to our secure "
            "courier\n\nDan")}),
            ACT, "the user's passport is printed and with the courier, so it has been sent: tell the user"),
        Variant("dan's sent", Change(append={"travel/passport.md": "- 12 Feb: your new passport has been printed "
                                                                   "and handed to our secure courier\n"}),
                NOOP, "the passport sent out is Dan's, application 4820 1190"),
    ])

_GLEN = "Glenbrittle Campsite <bookings@glenbrittle.example>"
SITUATIONS += family(
    "skye pitch", "If the campsite at Glenbrittle confirms our pitch for 14 to 18 July, plan the drive up from Leeds "
    "with a stop on the way and tell me what else we need to book",
    {**HOME, "travel/skye.md": "Skye, 14-18 July: tent, two adults, one dog. Asked Glenbrittle for a pitch on "
                               "3 March.\n"}, [
        Variant("pitch 22", Change(write={"mail/2027-03-10-glenbrittle.txt": _mail(
            _GLEN, "Booking confirmed",
            "We are pleased to confirm pitch 22 from Wednesday 14 July to Sunday 18 July (4 nights), two adults and "
            "one dog. The balance is due on arrival.")}),
            ESCALATE, "the pitch is confirmed: planning the drive and the bookings takes several steps"),
        Variant("waiting list", Change(write={"mail/2027-03-10-glenbrittle.txt": _mail(
            _GLEN, "Your enquiry",
            "July is fully booked. We have put you on our waiting list and will email if a pitch frees up.")}),
            NOOP, "the campsite is full; the user is only on the waiting list"),
        Variant("other week", Change(write={"mail/2027-03-10-glenbrittle.txt": _mail(
            _GLEN, "Your enquiry",
            "We can't do 14 to 18 July, but we could hold a pitch for 21 to 25 July. Would that work for you?")}),
            NOOP, "the campsite offers other dates; 14 to 18 July is not confirmed"),
    ])

_PARKING = ("Residents' parking consultation: Hazel Grove and Hazel Avenue\nConsultation closed 30 April.\n"
            "Decision: to follow.\n")
SITUATIONS += family(
    "hazel grove", "When the council publishes its decision on residents' parking for Hazel Grove, give me the gist",
    {**HOME, "community/parking.md": _PARKING}, [
        Variant("grove decided", Change(write={"community/parking.md": _PARKING.replace(
            "Decision: to follow.", "Decision (published 3 June): Hazel Grove: permit zone approved, Monday to "
            "Saturday 8am to 6pm, £60 a year for the first car and £90 for a second. Hazel Avenue: no change.")}),
            ACT, "the decision for Hazel Grove is out: summarise that one item"),
        Variant("avenue only", Change(write={"community/parking.md": _PARKING.replace(
            "Decision: to follow.", "Decision, part 1 (published 3 June): Hazel Avenue: permit zone approved, "
            "Monday to Friday 9am to 5pm. Hazel Grove: deferred to the July committee.")}),
            NOOP, "only Hazel Avenue was decided; Hazel Grove was deferred"),
        Variant("date set", Change(write={"community/parking.md": _PARKING.replace(
            "Decision: to follow.", "Decision: to be published after the committee meets on 12 June.")}),
            NOOP, "only the date of the decision is known"),
    ])

_LOANS = ("| tool | borrower | due back | status |\n|---|---|---|---|\n"
          "| pressure washer | Meera | 10 Apr | out (reserved next: me) |\n| hedge trimmer | Colin | 9 Apr | out |\n"
          "| tile cutter | - | - | on the shelf |\n")
SITUATIONS += family(
    "pressure washer", "I've reserved the pressure washer at the tool library. Tell me when it's back "
    "(community/tool-loans.md)",
    {**HOME, "community/tool-loans.md": _LOANS}, [
        Variant("loan extended", Change(write={"community/tool-loans.md": _LOANS.replace(
            "10 Apr | out (reserved", "17 Apr | out, loan extended (reserved")}),
            NOOP, "Meera's loan was extended; the washer is not back"),
        Variant("trimmer back", Change(write={"community/tool-loans.md": _LOANS.replace(
            "| hedge trimmer | Colin | 9 Apr | out |", "| hedge trimmer | - | - | returned 8 Apr, on the shelf |")}),
            NOOP, "the hedge trimmer came back, not the pressure washer"),
    ])

_FARRIER = "# Farrier visits\n26 Jan: Juniper reshod in front, hinds trimmed. Pablo trimmed.\n"
SITUATIONS += family(
    "juniper's feet", "If the farrier's notes say Juniper has a loose shoe or is footsore, let me know",
    {**HOME, "horses/farrier.md": _FARRIER}, [
        Variant("all good", Change(append={"horses/farrier.md": "12 Mar: Juniper reshod all round. Feet in good "
                                                                "shape, no sign of footsoreness.\n"}),
                NOOP, "the note says there is no footsoreness and the shoes are new"),
        Variant("nails gone", Change(append={"horses/farrier.md": "12 Mar: Juniper's front left shoe is loose, two "
                                                                  "nails gone. Coming back Thursday to refit.\n"}),
                ACT, "Juniper has a loose shoe: tell the user"),
        Variant("pablo sore", Change(append={"horses/farrier.md": "12 Mar: Pablo a bit footsore on the stony track, "
                                                                  "trimmed and booted. Juniper not seen this time.\n"}),
                NOOP, "the footsore horse is Pablo, not Juniper"),
    ])

SITUATIONS += family(
    "shelly weight", "Shelly's hibernating in the fridge. I weigh her every fortnight (pets/shelly.csv); tell me if "
    "she's lost more than 10% of what she weighed going in",
    {**HOME, "pets/shelly.csv": ("date,grams,note\n2026-11-20,820,into the fridge\n2026-12-04,806,\n"
                                 "2026-12-18,792,\n")}, [
        Variant("735 g", Change(append={"pets/shelly.csv": "2027-01-01,735,\n"}),
                ACT, "735 g is 85 g under 820 g, a loss of more than 10%: tell the user"),
        Variant("740 g", Change(append={"pets/shelly.csv": "2027-01-01,740,\n"}),
                NOOP, "80 g off 820 g is under 10%"),
        Variant("738 g", Change(append={"pets/shelly.csv": "2027-01-01,738,\n"}),
                NOOP, "82 g is exactly 10% of 820 g, not more than 10%"),
    ])

_PURRSURE = "Purrsure Claims <claims@purrsure.example>"
SITUATIONS += family(
    "miso claim", "If the pet insurer asks for anything else on Miso's claim, get together what they need from "
    "pets/miso/ and draft my reply",
    {**HOME, "pets/miso/invoice-2027-04-02.md": ("Riverside Vets, Miso (cat), 2 April: consultation £58, X-ray £240, "
                                                 "dental extraction £114.60. Total £412.60.\n"),
     "pets/miso/history.md": "Vaccinated 2026-09. Ear infection 2026-11, treated with drops.\n"}, [
        Variant("history wanted", Change(write={"mail/2027-04-20-purrsure.txt": _mail(
            _PURRSURE, "Claim C-77120: information needed",
            "To assess your claim for Miso we need her full clinical history for the last 12 months from your vet "
            "and an itemised invoice. Please reply within 14 days.")}),
            ESCALATE, "the insurer wants more documents: gathering them and drafting the reply takes several steps"),
        Variant("settled", Change(write={"mail/2027-04-20-purrsure.txt": _mail(
            _PURRSURE, "Claim C-77120: settled",
            "We have paid £352.60 (your claim of £412.60 less the £60 excess) into your account.")}),
            NOOP, "the claim is paid; nothing more is asked for"),
        Variant("received", Change(write={"mail/2027-04-20-purrsure.txt": _mail(
            _PURRSURE, "Claim C-77120: received",
            "Thanks, we've received your claim and will be in touch within 10 working days.")}),
            NOOP, "an acknowledgement asks for nothing"),
    ])

SITUATIONS += family(
    "export queue", "Tell me if the export queue has more than 1,000 jobs pending three checks in a row "
    "(ops/logs/queue.log)",
    {**HOME, "ops/logs/queue.log": ("2027-05-20 09:00 export-queue pending=640\n"
                                    "2027-05-20 09:15 export-queue pending=1180\n"
                                    "2027-05-20 09:30 export-queue pending=1240\n")}, [
        Variant("third high check", Change(append={"ops/logs/queue.log": "2027-05-20 09:45 export-queue "
                                                                         "pending=1310\n"}),
                ACT, "1180, 1240 and 1310: three checks in a row over 1,000"),
        Variant("drained", Change(append={"ops/logs/queue.log": "2027-05-20 09:45 export-queue pending=980\n"}),
                NOOP, "the queue fell under 1,000 at the third check"),
        Variant("broken run", Change(append={"ops/logs/queue.log": "2027-05-20 09:45 export-queue pending=1310\n"}),
                NOOP, "the 09:15 check was 930, so only two checks in a row are over 1,000",
                before={**HOME, "ops/logs/queue.log": ("2027-05-20 09:00 export-queue pending=1180\n"
                                                       "2027-05-20 09:15 export-queue pending=930\n"
                                                       "2027-05-20 09:30 export-queue pending=1240\n")}),
    ])

_PAGER = ("2027-04-14 23:12 PAGE db-primary latency p95 over 800 ms\n"
          "2027-04-15 01:48 PAGE disk /var on worker-3 at 91%\n"
          "2027-04-15 03:05 PAGE db-primary latency p95 over 800 ms\n")
SITUATIONS += family(
    "night pages", "If I get paged more than three times in one night (10pm to 7am), go through ops/logs/pager.log and "
    "write up what kept firing for Friday's retro",
    {**HOME, "ops/logs/pager.log": _PAGER}, [
        Variant("fourth page", Change(append={"ops/logs/pager.log": "2027-04-15 05:20 PAGE db-primary latency p95 "
                                                                    "over 800 ms\n"}),
                ESCALATE, "a fourth page in the night of the 14th: the write-up needs the log to be analysed"),
        Variant("next night", Change(append={"ops/logs/pager.log": "2027-04-15 22:40 PAGE disk /var on worker-3 at "
                                                                   "92%\n"}),
                NOOP, "the page starts a new night; the night before had three"),
        Variant("daytime page", Change(append={"ops/logs/pager.log": "2027-04-15 10:30 PAGE db-primary latency p95 "
                                                                     "over 800 ms\n"}),
                NOOP, "a page at 10:30 is outside the night; the night had three"),
    ])

_PAYSTREAM = "Paystream <developers@paystream.example>"
SITUATIONS += family(
    "paystream v2", "We're on v2 of the Paystream API. If they announce v2 is being retired, work out what has to "
    "change in our checkout and plan the move",
    {**HOME, "work/payments.md": "Checkout uses the Paystream API v2: card payments, refunds, webhooks.\n"}, [
        Variant("v1 end of life", Change(write={"mail/2027-06-02-paystream.txt": _mail(
            _PAYSTREAM, "API v1 end of life",
            "API v1 will be switched off on 30 September. Versions 2 and 3 are not affected.")}),
            NOOP, "v1 is retired; the mail says v2 is not affected"),
        Variant("v2 retirement", Change(write={"mail/2027-06-02-paystream.txt": _mail(
            _PAYSTREAM, "API v2 retirement",
            "We will retire API v2 on 31 January 2028. Please move to v3 before then. Webhook payloads and "
            "idempotency keys work differently in v3; see the migration guide.")}),
            ESCALATE, "v2 is being retired: working out the changes and planning the move takes reasoning"),
        Variant("v3 features", Change(write={"mail/2027-06-02-paystream.txt": _mail(
            _PAYSTREAM, "New in v3: instalments",
            "v3 now supports instalment payments and wallet payments on the web.")}),
            NOOP, "a feature announcement retires nothing"),
    ])

SITUATIONS += family(
    "cloud spend", "tell me if a day's cloud bill in ops/costs.csv is more than 50% higher than the day before",
    {**HOME, "ops/costs.csv": "date,usd\n2027-05-10,41.80\n2027-05-11,43.20\n2027-05-12,42.10\n"}, [
        Variant("64.00", Change(append={"ops/costs.csv": "2027-05-13,64.00\n"}),
                ACT, "64.00 is about 52% above 42.10: tell the user"),
        Variant("63.00", Change(append={"ops/costs.csv": "2027-05-13,63.00\n"}),
                NOOP, "63.00 is about 49.6% above 42.10, not more than 50%"),
        Variant("two steps", Change(append={"ops/costs.csv": "2027-05-13,58.40\n2027-05-14,71.90\n"}),
                NOOP, "each day is less than 50% above the day before (about 39% and 23%)"),
    ])

SITUATIONS += family(
    "isla temperature", "if nursery says Isla's had a temperature, tell me straight away",
    {**HOME, "nursery/daily-notes.md": "# Ladybirds room, daily notes\nMon: Isla painted, slept 1h20, ate well.\n"}, [
        Variant("checked, normal", Change(append={"nursery/daily-notes.md": (
            "Tue: Isla had a lovely day. We checked her temperature after her nap as she looked flushed: 36.8, "
            "normal.\n")}),
            NOOP, "her temperature was checked and was normal"),
        Variant("another child", Change(append={"nursery/daily-notes.md": (
            "Tue: note to all Ladybirds parents: a child in the room had a temperature this morning and went home. "
            "Please watch for symptoms.\n")}),
            NOOP, "another child had the temperature, not Isla"),
        Variant("38.4", Change(append={"nursery/daily-notes.md": (
            "Tue: Isla felt warm at 2pm, so we took her temperature: 38.4. Calpol given at 2.10 with your consent. "
            "Please call us.\n")}),
            ACT, "Isla had 38.4, a temperature: tell the user at once"),
    ], bystanders=("If the PTA sets a date for the second-hand uniform sale, remind me",))

_CARPOOL = ("# Swim lifts (6pm, Kelvin pool)\nMon: me\nWed: Priti\nFri: Tom\n"
            "Kids: Ada and Jonah (mine), Meera (Priti's), Callum (Tom's)\n")
SITUATIONS += family(
    "swim lifts", "If Priti can't do her Wednesday swim run, rework that week's lifts in family/carpool.md and draft "
    "a message to the other parents",
    {**HOME, "family/carpool.md": _CARPOOL}, [
        Variant("late shift", Change(write={"mail/2027-09-06-priti.txt": _mail(
            "Priti <priti@example.org>", "Wednesday swim",
            "Really sorry, I've been put on a late shift next Wednesday so I can't do the swim run. Could someone "
            "swap with me?")}),
            ESCALATE, "Priti can't drive on Wednesday: reworking the lifts and drafting a message take reasoning"),
        Variant("tom's friday", Change(write={"mail/2027-09-06-tom.txt": _mail(
            "Tom <tom@example.net>", "Friday", "I'm away on Friday, can anyone do the swim run for me?")}),
            NOOP, "it is Tom who can't drive, on Friday"),
        Variant("running late", Change(write={"mail/2027-09-06-priti.txt": _mail(
            "Priti <priti@example.org>", "Wednesday",
            "Heads up, I'll be ten minutes late for the Wednesday pick-up, still doing it though.")}),
            NOOP, "Priti will be late but is still driving"),
    ])

SITUATIONS += family(
    "cuttings owed", "whenever I promise someone a cutting, add it to garden/cuttings-owed.md",
    {**HOME, "garden/cuttings-owed.md": "# Cuttings I've promised\n- Marcus: a rooted rosemary\n"}, [
        Variant("fig for jen", Change(memories=("Told Jen next door I'd pot up a fig cutting for her in spring.",)),
                ACT, "the user promised Jen a fig cutting: add one line"),
        Variant("from jen", Change(memories=("Jen gave me a rooted cutting of her lemon verbena today.",)),
                NOOP, "the user was given a cutting; nothing was promised"),
        Variant("maybe lavender", Change(memories=("Might take some lavender cuttings later in the summer if I get "
                                                   "time.",)),
                NOOP, "a vague plan, promised to nobody"),
    ])

SITUATIONS += family(
    "brightmart cashback", "Tell me when the £75 cashback from Brightmart for the fridge lands in "
    "money/current-account.csv",
    {**HOME, "money/current-account.csv": ("date,description,amount\n2027-07-01,SALARY NORTHWIND,2410.00\n"
                                           "2027-07-03,BRIGHTMART FRIDGE FREEZER,-649.00\n")}, [
        Variant("delivery charge", Change(append={"money/current-account.csv": (
            "2027-07-12,BRIGHTMART DELIVERY CHARGE,-25.00\n")}),
            NOOP, "a Brightmart charge went out; no cashback came in"),
        unrelated("garden/seed-order.md", "Seed order: 'Cherokee Purple' tomato, 'Boltardy' beetroot, dill.\n"),
    ])

SITUATIONS += family(
    "laundry pipes", "If the building manager warns that the pipes in the outside laundry could freeze, remind me to "
    "leave the heater on in there",
    {**HOME, "home/building-notices.md": "# Notices from the building manager\n- 1 Nov: bike store code changed\n"}, [
        Variant("charge freeze", Change(append={"home/building-notices.md": (
            "- 20 Nov: the owners' committee agreed to freeze the service charge for 2027\n")}),
            NOOP, "a freeze on the service charge, not frozen pipes"),
        Variant("lagged", Change(append={"home/building-notices.md": (
            "- 22 Nov: the pipes in the outside laundry have now been lagged, so there's no need to leave the heater "
            "on this winter\n")}),
            NOOP, "the notice says the pipes are lagged and no heater is needed"),
    ])

SITUATIONS += family(
    "spin waitlist", "Ping me if I get off the waiting list for Thursday's 6pm spin",
    {**HOME, "gym/bookings.md": "# My classes\nThu 6pm Spin (Studio 2): waitlist, position 5\nSat 9am Pilates: "
                                "booked\n"}, [
        Variant("moved up", Change(write={"gym/bookings.md": (
            "# My classes\nThu 6pm Spin (Studio 2): waitlist, position 2\nSat 9am Pilates: booked\n")}),
            NOOP, "the user moved up to second place but is still on the waiting list"),
        Variant("class cancelled", Change(write={"gym/bookings.md": (
            "# My classes\nThu 6pm Spin (Studio 2): CANCELLED, instructor ill; waitlist closed\nSat 9am Pilates: "
            "booked\n")}),
            NOOP, "the class is cancelled; the user did not get a place"),
        nothing(),
    ])

_JURY = "Jury Central Summoning Bureau <jury@courts.example>"
SITUATIONS += family(
    "jury deferral", "I've asked to put off my jury service. If the court says no, go through work/diary.md for those "
    "two weeks and draft emails moving whatever clashes",
    {**HOME, "work/diary.md": ("7 Jun: Brennan audit kick-off\n9 Jun: quarterly review with Asha\n14 Jun: supplier "
                               "visit, Leeds\n16 Jun: team away-day\n")}, [
        Variant("refused", Change(write={"mail/2027-05-12-jury.txt": _mail(
            _JURY, "Your deferral request",
            "We are unable to agree to your request to defer. You must attend Crown Court from Monday 7 June for up "
            "to ten working days.")}),
            ESCALATE, "the deferral was refused: finding the clashes and drafting emails take several steps"),
        Variant("agreed", Change(write={"mail/2027-05-12-jury.txt": _mail(
            _JURY, "Your deferral request",
            "Your request to defer has been agreed. Your new date of attendance is Monday 4 October.")}),
            NOOP, "the deferral was agreed; the court did not say no"),
        Variant("what to bring", Change(write={"mail/2027-05-12-jury-guide.txt": _mail(
            _JURY, "Jury service: your first day",
            "This guide is sent to everyone summoned. Bring your summons and photo ID; lunch is provided.")}),
            NOOP, "a general guide says nothing about the deferral"),
    ])

SITUATIONS += family(
    "hawk-moth", "Tell me if a hummingbird hawk-moth turns up in my moth trap notes (nature/moth-trap.md), the county "
    "recorder wants them",
    {**HOME, "nature/moth-trap.md": "# Garden moth trap, 2027\n12 Jun: heart and dart x14, buff ermine x3\n"}, [
        Variant("other hawk-moths", Change(append={"nature/moth-trap.md": (
            "19 Jun: elephant hawk-moth x2, poplar hawk-moth x1, heart and dart x9\n")}),
            NOOP, "other hawk-moths, not a hummingbird hawk-moth"),
        Variant("looking back", Change(append={"nature/moth-trap.md": (
            "Aside: still thinking about the hummingbird hawk-moth in the trap in July 2024, my only one so far; "
            "the recorder has that one already.\n")}),
            NOOP, "a sighting from 2024 retold, already with the recorder"),
        Variant("on the egg boxes", Change(append={"nature/moth-trap.md": (
            "26 Jun: hummingbird hawk-moth x1 resting on the egg boxes at dawn!\n")}),
            ACT, "a hummingbird hawk-moth was in the trap: tell the user"),
    ])

_DRIVING = ("# Amir's driving\n- 12 Apr: theory test booked\n- 20 May: practical test booked for 3 June, "
            "10.14am\n")
SITUATIONS += family(
    "amir's test", "let me know if Amir passes his driving test, he keeps family/amir-driving.md up to date",
    {**HOME, "family/amir-driving.md": _DRIVING}, [
        Variant("theory", Change(append={"family/amir-driving.md": "- 2 May: passed the theory test, 47/50, hazard "
                                                                   "perception 61/75\n"}),
                NOOP, "he passed the theory test; the driving test is still to come"),
        Variant("fingers crossed", Change(append={"family/amir-driving.md": "- 2 Jun: last lesson done, test "
                                                                            "tomorrow, fingers crossed\n"}),
                NOOP, "the test is tomorrow; nothing is passed yet"),
        Variant("passed", Change(append={"family/amir-driving.md": "- 3 Jun: PASSED! 4 minors, the examiner said the "
                                                                   "bay park was spot on\n"}),
                ACT, "Amir passed his driving test: tell the user"),
    ])

_FUND = ("# Hall roof fund: money received\n- Parish council: £500\n- Coffee morning: £350\n- Anonymous: £600\n"
         "- Quiz night: £250\n- Card sale: £150\n")
SITUATIONS += family(
    "roof fund", "Once the money in for the hall roof (community/roof-fund.md) passes £2,000, remind me to ask "
    "Harlow's to release their matching £2,000",
    {**HOME, "community/roof-fund.md": _FUND}, [
        Variant("bake sale", Change(append={"community/roof-fund.md": "- Bake sale: £180\n"}),
                ACT, "1,850 + 180 = 2,030, past 2,000: remind the user"),
        Variant("pledge", Change(append={"community/roof-fund.md": "- Rugby club: £300 pledged, to be paid in "
                                                                   "September\n"}),
                NOOP, "a pledge is not money in; the total received is still 1,850"),
        Variant("raffle", Change(append={"community/roof-fund.md": "- Raffle: £120\n"}),
                NOOP, "1,850 + 120 = 1,970, still under 2,000"),
    ])

_TREE = "Oakleaf Tree Care, survey of 8 September\n\nOak (your garden): healthy, a crown lift is advised.\n"
SITUATIONS += family(
    "pattersons' ash", "When the tree surgeon's report comes in, if it says the Pattersons' ash has ash dieback, draft "
    "a letter to them about having it taken down",
    {**HOME, "house/trees.md": "Oakleaf surveying our oak and the Pattersons' ash over the fence on 8 September.\n"}, [
        Variant("dieback confirmed", Change(write={"house/tree-report.md": _TREE + (
            "Ash (neighbouring garden, No. 12): ash dieback confirmed, about 60% crown loss, dead limbs over your "
            "lawn. We recommend felling within six months.\n")}),
            ESCALATE, "the ash has dieback: drafting a tactful letter to the neighbours takes reasoning"),
        Variant("no dieback", Change(write={"house/tree-report.md": _TREE + (
            "Ash (neighbouring garden, No. 12): no sign of ash dieback. Some deadwood; a light prune in winter.\n")}),
            NOOP, "the report finds no dieback"),
        Variant("ash not seen", Change(write={"house/tree-report.md": _TREE.replace(
            "healthy, a crown lift is advised", "early signs of decline at the base, recheck in spring") + (
            "Ash (neighbouring garden, No. 12): not inspected, no access on the day.\n")}),
            NOOP, "the ash was not inspected; only the oak has a problem"),
    ])

SITUATIONS += family(
    "uniform sale", "If the PTA sets a date for the second-hand uniform sale, remind me",
    {**HOME, "school/pta-news.md": "# PTA news\n- The summer fair raised £1,240, thank you!\n"}, [
        Variant("date to follow", Change(append={"school/pta-news.md": (
            "- We'd like to run a second-hand uniform sale in the autumn term, date to be confirmed. Donations "
            "welcome!\n")}),
            NOOP, "a sale is planned but no date is set"),
        Variant("friday 17th", Change(append={"school/pta-news.md": (
            "- Second-hand uniform sale: Friday 17 September, 3.15pm in the school hall, everything £1 to £3.\n")}),
            ACT, "the sale has a date: remind the user"),
    ], bystanders=("If Rosa gets less than 7 out of 10 in her Friday spelling test, remind me to go over the words "
                   "with her at the weekend",))

_NAS = ("2027-08-02 08:14:55 auth OK user=nadia ip=81.2.69.160 geo=GB/Leeds\n"
        "2027-08-02 19:40:12 auth OK user=nadia ip=81.2.69.160 geo=GB/Leeds\n")
SITUATIONS += family(
    "nas sign-ins", "tell me about any successful sign-in to the NAS from outside the UK (ops/logs/nas-auth.log)",
    {**HOME, "ops/logs/nas-auth.log": _NAS}, [
        Variant("failed from abroad", Change(append={"ops/logs/nas-auth.log": (
            "2027-08-03 03:12:07 auth FAILED user=admin ip=185.220.101.4 geo=DE/Frankfurt\n"
            "2027-08-03 03:12:09 auth FAILED user=admin ip=185.220.101.4 geo=DE/Frankfurt\n")}),
            NOOP, "the attempts from abroad failed; none signed in"),
        Variant("lisbon", Change(append={"ops/logs/nas-auth.log": (
            "2027-08-03 21:05:33 auth OK user=nadia ip=94.63.12.8 geo=PT/Lisbon\n")}),
            ACT, "a successful sign-in came from Portugal: tell the user"),
        Variant("new uk address", Change(append={"ops/logs/nas-auth.log": (
            "2027-08-03 12:30:02 auth OK user=nadia ip=86.14.2.77 geo=GB/Manchester\n")}),
            NOOP, "a new address, but in the UK"),
    ])
