"""The held-out labelled set no. 9 for ``bench/judgement.py``, written without reading how the product decides.

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


_WORK_CAL = ("# Work calendar\n\n| Week of | Job | Words | Due |\n|---|---|---|---|\n"
             "| 2 Mar | Hanser pump manual DE>EN | 6,000 | Fri 6 Mar |\n| 9 Mar | (free) | | |\n")
SITUATIONS += family(
    "translator job", "When an agency offers me a translation job, check it against work/calendar.md and draft a "
    "reply taking it or turning it down",
    {**HOME, "work/calendar.md": _WORK_CAL}, [
        Variant("pharma leaflet", Change(write={"inbox/2026-03-03-linguaprime.txt": _mail(
            "Ines Roth <projects@linguaprime.example>", "Job request: 4,200 words DE>EN",
            "Hi, we have a patient leaflet for a pharma client, 4,200 words German to English, delivery Thursday "
            "5 March 17:00 CET, 0.10 EUR per word. Could you let me know by noon whether you can take it?")}),
            ESCALATE, "an agency offered a job in the week of the Hanser manual: weigh it and draft the reply"),
        Variant("offer by phone", Change(memories=(
            "Wordbridge rang: they'd like me for a 3,000-word museum catalogue, French to English, due 13 March. "
            "They want a yes or no today.",)),
            ESCALATE, "an agency offered a job by phone: check the free week and draft the answer"),
        Variant("newsletter", Change(write={"inbox/2026-03-03-wordbridge.txt": _mail(
            "Wordbridge Translations <news@wordbridge.example>", "Spring update from Wordbridge",
            "We are growing our German desk and expect a lot more DE>EN work later in the year. Please keep your "
            "availability in our portal up to date.")}),
            NOOP, "a newsletter about possible work later in the year is not a job offer"),
        Variant("withdrawn", Change(write={"inbox/2026-03-03-linguaprime.txt": _mail(
            "Ines Roth <projects@linguaprime.example>", "Re: Job request: 4,200 words DE>EN",
            "Sorry, please ignore my request from this morning: the client has put the leaflet on hold, so there "
            "is no job for now.")}),
            NOOP, "the agency withdrew its request; there is no job to take or turn down"),
    ], memories=("Agencies I translate for: Linguaprime (Munich) and Wordbridge Translations (Leeds).",),
    bystanders=("Tell me when the printer says its toner is low",))
_RECORDS = ("# Hallam Harriers club records\n\n| Distance | Holder | Time | Set |\n|---|---|---|---|\n"
            "| 5 miles | Kerry Mason | 27:48 | 2019 |\n| 10 km | Sol Adeyemi | 33:02 | 2023 |\n")
_RESULTS = ("# Club results\n\n| Date | Race | Runner | Time |\n|---|---|---|---|\n"
            "| 1 Jun | Endcliffe 5 miles | Sol Adeyemi | 28:31 |\n"
            "| 1 Jun | Endcliffe 5 miles | Maya Lindqvist | 28:55 |\n")
SITUATIONS += family(
    "club records", "Tell me if anyone in the club breaks one of our club records (club/records.md). Race results "
    "go in club/results.md",
    {**HOME, "club/records.md": _RECORDS, "club/results.md": _RESULTS}, [
        Variant("new 5 mile best", Change(append={"club/results.md": (
            "| 8 Jun | Dore 5 miles | Maya Lindqvist | 27:39 |\n| 8 Jun | Dore 5 miles | Sol Adeyemi | 28:10 |\n")}),
            ACT, "Maya ran 5 miles in 27:39, faster than the 27:48 record: tell the user"),
        Variant("guest runner", Change(append={"club/results.md": (
            "| 8 Jun | Dore 5 miles | Joe Pryce (guest, Steel City Striders) | 27:20 |\n"
            "| 8 Jun | Dore 5 miles | Sol Adeyemi | 28:10 |\n")}),
            NOOP, "the fast time is a guest's from another club; no club member beat a record"),
        Variant("close on 10 km", Change(append={"club/results.md": (
            "| 15 Jun | Sheffield 10K | Sol Adeyemi | 33:15 |\n")}),
            NOOP, "33:15 is 13 seconds slower than the 10 km record of 33:02"),
    ])
_INVERTER = ("2026-06-02 05:12 INFO wake up, grid OK 239 V\n2026-06-02 13:00 INFO output 3.41 kW, today 14.2 kWh\n"
             "2026-06-02 21:40 INFO standby until sunrise\n")
SITUATIONS += family(
    "inverter", "Tell me if the solar inverter reports a fault or stops talking to the monitoring "
    "(ops/logs/inverter.log)",
    {**HOME, "ops/logs/inverter.log": _INVERTER}, [
        Variant("grid overvoltage", Change(append={"ops/logs/inverter.log": (
            "2026-06-03 05:10 INFO wake up, grid OK 241 V\n"
            "2026-06-03 12:47 ERROR F21 grid overvoltage 264 V, AC output disconnected\n")}),
            ACT, "the inverter logged fault F21 and cut its output: tell the user"),
        Variant("gone quiet", Change(append={"ops/logs/inverter.log": (
            "2026-06-03 05:11 INFO wake up, grid OK 240 V\n"
            "2026-06-03 10:15 WARN no data received for 45 min, last packet 09:30\n")}),
            ACT, "the monitoring has heard nothing from the inverter for 45 minutes: tell the user"),
        Variant("cloudy day", Change(append={"ops/logs/inverter.log": (
            "2026-06-03 05:10 INFO wake up, grid OK 238 V\n"
            "2026-06-03 13:00 INFO output 0.94 kW (overcast), today 4.1 kWh\n")}),
            NOOP, "low output on an overcast day is neither a fault nor lost contact"),
        Variant("history cleared", Change(append={"ops/logs/inverter.log": (
            "2026-06-03 09:05 INFO service visit: fault history cleared by installer, 0 active faults\n")}),
            NOOP, "the installer cleared old entries; no fault is reported"),
    ], system_tasks=True)
SITUATIONS += family(
    "caravan", "When Seaview Holiday Park confirms our caravan for May half-term, add the dates and the pitch "
    "number to holidays/half-term.md",
    {**HOME, "holidays/half-term.md": "# May half-term\n- Sunday lunch at Nan's on the 31st?\n",
     "inbox/2026-02-10-seaview.txt": _mail(
         "Seaview Holiday Park <bookings@seaviewpark.example>", "Your booking request",
         "Thank you for your request for a two-bed caravan, 23-30 May. We will confirm availability shortly.")}, [
        Variant("confirmed", Change(write={"inbox/2026-02-12-seaview.txt": _mail(
            "Seaview Holiday Park <bookings@seaviewpark.example>", "Booking SV-20417",
            "Good news: booking SV-20417 is all set. Caravan 'Sandpiper' (2 bed) on pitch C14. Arrive Saturday "
            "23 May from 3 pm, depart Saturday 30 May by 10 am. The balance of 312 GBP is due by 11 April.")}),
            ACT, "Seaview confirmed the caravan: add one line with the dates and pitch C14"),
        Variant("still pending", Change(write={"inbox/2026-02-12-seaview.txt": _mail(
            "Seaview Holiday Park <bookings@seaviewpark.example>", "Re: Your booking request",
            "Sorry for the wait. We are still checking caravan availability for 23-30 May and will be in touch by "
            "Friday. This email is not a confirmation.")}),
            NOOP, "the park says explicitly it has not confirmed yet"),
        Variant("another campsite", Change(write={"inbox/2026-02-12-glenmore.txt": _mail(
            "Glenmore Forest Campsite <stay@glenmore.example>", "Booking confirmed",
            "Your tent pitch 7 is confirmed for 14-16 August. Check-in from 1 pm.")}),
            NOOP, "a confirmation from another campsite for August, not the Seaview caravan"),
    ])
_GLUCOSE = ("# Mochi glucose (mmol/L)\n\n| Date | Time | Reading | Insulin |\n|---|---|---|---|\n"
            "| 3 Nov | 07:30 | 14.8 | 2 u |\n| 3 Nov | 19:30 | 11.2 | 2 u |\n")
SITUATIONS += family(
    "mochi glucose", "If any of Mochi's glucose readings comes in under 4, tell me straight away",
    {**HOME, "pets/mochi-glucose.md": _GLUCOSE,
     "pets/sitter-notes.md": "# Notes from Bea (cat sitter)\n- Thu: all fine, ate well, insulin at 19:30.\n"}, [
        Variant("low in table", Change(append={"pets/mochi-glucose.md": (
            "| 4 Nov | 07:30 | 9.6 | 2 u |\n| 4 Nov | 13:00 | 3.4 | (spot check) |\n")}),
            ACT, "the 13:00 reading is 3.4, under 4: tell the user now"),
        Variant("sitter's check", Change(append={"pets/sitter-notes.md": (
            "- Fri 12:15: she was a bit wobbly so I checked her: 3.6 on the meter. Gave her some wet food.\n")}),
            ACT, "the sitter measured 3.6, under 4: tell the user now"),
        Variant("just above", Change(append={"pets/mochi-glucose.md": (
            "| 4 Nov | 07:30 | 4.3 | 1 u (vet said reduce) |\n")}),
            NOOP, "4.3 is low-ish but not under 4"),
        Variant("strip error", Change(append={"pets/mochi-glucose.md": (
            "| 4 Nov | 07:30 | E-4 strip error, retested: 8.9 | 2 u |\n")}),
            NOOP, "the first test failed and the retest read 8.9; no reading is under 4"),
        unrelated("notes/holiday.md", "Half-term in Whitby, 25-29 May: the B&B on Bagdale, cat sitter booked.\n"),
    ], memories=("Mochi is our diabetic cat; her readings go in pets/mochi-glucose.md.",))
SITUATIONS += family(
    "sourdough", "whenever I tell you I've fed the sourdough starter, add the time to baking/starter-log.md",
    {**HOME, "baking/starter-log.md": "# Starter feeds\n- Sun 09:00: 50 g rye + 50 g water\n"}, [
        Variant("breakfast for bubbles", Change(memories=(
            "Gave Bubbles her breakfast at half seven: 50 g rye, 50 g water.",)),
            ACT, "Bubbles is the starter and it was fed at 7:30: add one line"),
        Variant("only intended", Change(memories=(
            "Must remember to feed Bubbles before bed tonight, she's looking flat.",)),
            NOOP, "the feed is only planned for tonight; it has not happened"),
        Variant("baked with it", Change(memories=(
            "Baked two loaves with the starter this morning, lovely oven spring.",)),
            NOOP, "the starter was used for baking, not fed"),
    ], memories=("My sourdough starter lives in the fridge; I call it Bubbles.",))


def _downloads(ep18: int, ep19: int, ep20: int) -> str:
    return ("episode,title,published,downloads\n"
            f"18,The allotment wars,2026-01-06,{ep18}\n19,Tea with the mayor,2026-01-20,{ep19}\n"
            f"20,Lost rivers of the town,2026-02-03,{ep20}\n")


SITUATIONS += family(
    "podcast downloads", "Tell me when any episode of the podcast passes 10,000 downloads (stats/downloads.csv)",
    {**HOME, "stats/downloads.csv": _downloads(9412, 7855, 3120),
     "stats/summary.md": "# Weekly summary\n- Week 6: 6,940 downloads across all episodes\n"}, [
        Variant("episode 18 over", Change(write={"stats/downloads.csv": _downloads(10137, 8020, 3840)}),
                ACT, "episode 18 now has 10,137 downloads, past 10,000: tell the user"),
        Variant("just under", Change(write={"stats/downloads.csv": _downloads(9968, 8031, 3790)}),
                NOOP, "the best episode is at 9,968, still under 10,000"),
        Variant("weekly total", Change(append={"stats/summary.md": (
            "- Week 7: 10,420 downloads across all episodes, our best week ever\n")}),
            NOOP, "10,420 is the week's total over all episodes, not one episode's count"),
    ], bystanders=("Tell me if a listener writes in about the sound quality",))
_BANK = ("date,description,amount\n2026-06-01,FPS CALLUM REID RENT JUNE,600.00\n"
         "2026-06-03,TESCO STORES 2231,-54.20\n")
SITUATIONS += family(
    "lodger rent", "Callum, the lodger, pays 600 GBP rent on the 1st. Tell me if it comes in short or he says it "
    "will be late",
    {**HOME, "finance/current-account.csv": _BANK,
     "house/callum-texts.txt": "Callum: boiler pressure was low again, topped it up to 1.5\n"}, [
        Variant("paid less", Change(append={"finance/current-account.csv": (
            "2026-07-01,FPS CALLUM REID RENT JULY,540.00\n2026-07-01,DIRECT DEBIT COUNCIL TAX,-161.00\n")}),
            ACT, "July's rent came in at 540, 60 short of 600: tell the user"),
        Variant("payroll mix-up", Change(append={"house/callum-texts.txt": (
            "Callum: sorry, work messed up payroll this month, I can't send July's money till the 4th\n")}),
            ACT, "Callum says July's rent will come on the 4th, after the 1st: tell the user"),
        Variant("two parts", Change(append={"finance/current-account.csv": (
            "2026-07-01,FPS CALLUM REID RENT PT1,350.00\n2026-07-01,FPS CALLUM REID RENT PT2,250.00\n")}),
            NOOP, "the rent came in two payments on the 1st that add up to the full 600"),
        Variant("late home", Change(append={"house/callum-texts.txt": (
            "Callum: I'll be back late on Friday, past midnight, I'll be quiet on the stairs\n")}),
            NOOP, "Callum will be home late, which has nothing to do with the rent"),
    ])
_SHOOTS = ("# Shoots 2026\n\n| Date | Couple | Venue | Status |\n|---|---|---|---|\n"
           "| Sat 20 Jun | Priya & Tom | Hatherley Barn | booked, deposit paid |\n"
           "| Fri 4 Sep | Hannah & Joe | Crook Hall | booked |\n"
           "| Sat 12 Sep | Grace & Malik | St Mary's, then Oak Hall | booked |\n")
SITUATIONS += family(
    "wedding date", "If one of my wedding couples moves their date, check photo/shoots.md for clashes and draft a "
    "reply to them",
    {**HOME, "photo/shoots.md": _SHOOTS}, [
        Variant("barn flooded", Change(write={"inbox/2026-03-18-priya.txt": _mail(
            "Priya Nair <priya.nair@example.net>", "Change of plan!",
            "Hatherley Barn has had a flood and can't host us in June. They've offered Saturday 12 September "
            "instead and we've said yes. Please tell us you can still do it!")}),
            ESCALATE, "Priya and Tom moved to 12 September, already booked for Grace and Malik: work out and draft"),
        Variant("registrar", Change(write={"inbox/2026-03-18-crookhall.txt": _mail(
            "Leah Finch, Crook Hall events <events@crookhall.example>", "Hannah & Joe",
            "Just to let their suppliers know: the registrar can only do Saturday, so Hannah and Joe's wedding "
            "is now on 5 September, same venue and timings.")}),
            ESCALATE, "Hannah and Joe's wedding moved a day: check the 5th and draft a reply"),
        Variant("earlier ceremony", Change(write={"inbox/2026-03-18-grace.txt": _mail(
            "Grace Obi <grace.obi@example.com>", "Timings",
            "Hi! Small change: the ceremony is now at 1 pm rather than 2 pm, same day. Could we also do a few "
            "photos by the lake at Oak Hall?")}),
            NOOP, "only the time of day changed; the date stays 12 September"),
        Variant("maybe next year", Change(write={"inbox/2026-03-18-tom.txt": _mail(
            "Tom Hale <tomhale@example.net>", "Barn repairs",
            "The barn had some water damage. If the repairs drag on we might push everything to next spring, "
            "but we'll know next month. For now nothing changes.")}),
            NOOP, "the couple may move later but have not; for now the date stands"),
    ])
_HALL = ("# Kirkby Village Hall bookings, October\n\n| Date | Time | Room | Hirer |\n|---|---|---|---|\n"
         "| Tue 7 Oct | 19:00-20:00 | Main hall | Pilates (me) |\n"
         "| Sat 11 Oct | 14:00-17:00 | Main hall | Ruby's 6th birthday |\n")
SITUATIONS += family(
    "hall pilates", "I teach pilates in the village hall's main hall on Tuesdays from 7 to 8 pm. Tell me if anyone "
    "else books the main hall at that time (hall/bookings.md)",
    {**HOME, "hall/bookings.md": _HALL}, [
        Variant("parish agm", Change(append={"hall/bookings.md": (
            "| Tue 14 Oct | 18:30-21:30 | Main hall | Parish council AGM |\n")}),
            ACT, "the AGM has the main hall on a Tuesday over 7-8 pm: tell the user"),
        Variant("polling station", Change(append={"hall/bookings.md": (
            "| Tue 28 Oct | 06:00-22:30 | Whole building | Polling station (county by-election) |\n")}),
            ACT, "the whole building, main hall included, is booked all Tuesday the 28th: tell the user"),
        Variant("committee room", Change(append={"hall/bookings.md": (
            "| Tue 14 Oct | 19:00-21:00 | Committee room | Parish council |\n")}),
            NOOP, "the Tuesday evening booking is for the committee room, not the main hall"),
        Variant("brownies before", Change(append={"hall/bookings.md": (
            "| Tue 14 Oct | 17:00-18:45 | Main hall | Brownies |\n")}),
            NOOP, "the Brownies finish at 18:45, before pilates starts"),
        nothing(),
    ], bystanders=("Tell me when the hall committee changes the hire charges",))
_BREW = ("# Fermenter log\n\n| Date | Beer | Gravity |\n|---|---|---|\n| 1 Mar | Oatmeal stout | 1.054 |\n"
         "| 4 Mar | Oatmeal stout | 1.031 |\n| 6 Mar | Oatmeal stout | 1.019 |\n| 6 Mar | Pale ale | 1.012 |\n"
         "| 7 Mar | Oatmeal stout | 1.016 |\n")
SITUATIONS += family(
    "stout gravity", "Let me know when the stout reads the same gravity three days running, so I can bottle it "
    "(brewing/log.md)",
    {**HOME, "brewing/log.md": _BREW}, [
        Variant("steady", Change(append={"brewing/log.md": (
            "| 8 Mar | Oatmeal stout | 1.016 |\n| 9 Mar | Oatmeal stout | 1.016 |\n")}),
            ACT, "the stout read 1.016 on the 7th, 8th and 9th: tell the user it is ready to bottle"),
        Variant("still dropping", Change(append={"brewing/log.md": (
            "| 8 Mar | Oatmeal stout | 1.015 |\n| 9 Mar | Oatmeal stout | 1.014 |\n")}),
            NOOP, "the stout is still falling a point a day; it has not settled"),
        Variant("pale ale settled", Change(append={"brewing/log.md": (
            "| 7 Mar | Pale ale | 1.012 |\n| 8 Mar | Pale ale | 1.012 |\n")}),
            NOOP, "it is the pale ale that has held steady, not the stout"),
    ])
_LESSONS = ("# Sam's driving lessons (notes from Gill)\n- L18: parallel parking good, needs more mirror checks.\n"
            "- L19: first time on the dual carriageway, nervous but safe.\n")
SITUATIONS += family(
    "sam test ready", "When Sam's driving instructor says he's ready for his practical test, work out a plan for us: "
    "booking the test, which car, the insurance, and how many lessons to keep",
    {**HOME, "family/sam-driving.md": _LESSONS}, [
        Variant("mock route", Change(append={"family/sam-driving.md": (
            "- L22: drove the whole mock test route with two minors. He's there. Get the practical booked now, "
            "the wait at Heaton is about ten weeks.\n")}),
            ESCALATE, "Gill says Sam is ready: planning the booking, car, insurance and lessons takes several steps"),
        Variant("cancellation slot", Change(write={"inbox/2026-05-20-gill.txt": _mail(
            "Gill Barker <gill@barkerdriving.example>", "Cancellation",
            "I've spotted a cancellation at Heaton test centre on 3 July and honestly I think Sam is up to it. "
            "You'd need to grab it on the DVSA site by Friday. He can use my car on the day.")}),
            ESCALATE, "the instructor thinks Sam is up to a test: plan around the 3 July slot"),
        Variant("not yet", Change(append={"family/sam-driving.md": (
            "- L20: roundabouts much better. Another five or six lessons and we can start talking about a test "
            "date.\n")}),
            NOOP, "Gill says a test is still five or six lessons away"),
        Variant("sam's own view", Change(memories=(
            "Sam reckons he's ready for his driving test and wants to book it tonight.",)),
            NOOP, "it is Sam who thinks he is ready, not his instructor"),
    ])


def _issues(a415: str, s418: str = "open") -> str:
    return ("id,title,labels,status,assignee\n412,Export drops the last row,bug,open,tom.b\n"
            f"415,Dark mode contrast on settings page,ui,open,{a415}\n"
            f"418,Update onboarding copy,docs,{s418},nadia.k\n")


SITUATIONS += family(
    "assigned to me", "I'm Nadia (nadia.k). Tell me when an issue in the tracker export (exports/issues.csv) is "
    "newly assigned to me",
    {**HOME, "exports/issues.csv": _issues("")}, [
        Variant("contrast issue", Change(write={"exports/issues.csv": _issues("nadia.k")}),
                ACT, "issue 415 went from unassigned to nadia.k: tell her"),
        Variant("similar name", Change(write={"exports/issues.csv": _issues("nadim.r")}),
                NOOP, "issue 415 went to nadim.r, a different person"),
        Variant("own issue closed", Change(write={"exports/issues.csv": _issues("", "closed")}),
                NOOP, "issue 418 was already hers and was only closed; nothing newly assigned"),
    ], system_tasks=True)
_CHAT = "[Sat 10:02] Mum: Lovely lunch everyone x\n[Sat 10:05] Ellie: Thanks Mum! The trifle was amazing\n"
SITUATIONS += family(
    "family chat asks", "I'm Rob in the family chat (chats/family.txt). If someone asks me to do something there, "
    "remind me",
    {**HOME, "chats/family.txt": _CHAT}, [
        Variant("prescription", Change(append={"chats/family.txt": (
            "[Sun 18:40] Mum: Rob love, could you pick up Gran's prescription from Boots on your way Thursday?\n")}),
            ACT, "Mum asked Rob to collect Gran's prescription on Thursday: remind him"),
        Variant("ring the boiler man", Change(append={"chats/family.txt": (
            "[Sun 19:02] Dad: Robbie can you give the boiler man a ring Monday, I never get through\n")}),
            ACT, "Dad asked Robbie, the user, to phone the boiler engineer on Monday: remind him"),
        Variant("someone else took it", Change(append={"chats/family.txt": (
            "[Sun 18:40] Mum: Can somebody bring a pudding next Sunday?\n[Sun 18:44] Ellie: I'll do a crumble!\n")}),
            NOOP, "the request was to anyone and Ellie took it on"),
        Variant("called off", Change(append={"chats/family.txt": (
            "[Sun 18:40] Dad: Rob, can you book a table for Mum's birthday?\n"
            "[Sun 18:52] Dad: Ignore me Rob, Ellie already booked it\n")}),
            NOOP, "Dad withdrew his request a few minutes later; nothing is left for Rob to do"),
    ], bystanders=("Tell me when Ellie's new job starts",))
_SHARE = ("# Car share to the Fairfield site\n\n| Day | Driver | Passengers |\n|---|---|---|\n"
          "| Mon 29 Sep | Lena | Aziz, Kim |\n| Tue 30 Sep | Aziz | Lena, Kim |\n| Wed 1 Oct | Kim | Lena, Aziz |\n"
          "| Thu 2 Oct | Aziz | Lena, Kim |\n")
SITUATIONS += family(
    "thursday driving", "I'm Lena. I can't drive on Thursdays, I'm on the late shift. If the car-share rota "
    "(commute/rota.md) has me driving on a Thursday, tell me so I can swap",
    {**HOME, "commute/rota.md": _SHARE}, [
        Variant("lena on thursday", Change(append={"commute/rota.md": (
            "| Mon 6 Oct | Kim | Lena, Aziz |\n| Tue 7 Oct | Aziz | Lena, Kim |\n| Thu 9 Oct | Lena | Aziz, Kim |\n")}),
            ACT, "Lena is the driver on Thursday 9 October: tell her"),
        Variant("passenger on thursday", Change(append={"commute/rota.md": (
            "| Mon 6 Oct | Aziz | Lena, Kim |\n| Thu 9 Oct | Kim | Lena, Aziz |\n"
            "| Fri 10 Oct | Lena | Aziz, Kim |\n")}),
            NOOP, "Lena only rides on Thursday; she drives on Friday"),
        nothing(),
    ])
_TANK_TESTS = ("# Tank tests (60 l community tank)\n\n"
               "| Date | Ammonia | Nitrite | Nitrate | pH |\n|---|---|---|---|---|\n"
               "| 2 Feb | 0 | 0 | 10 | 7.4 |\n| 9 Feb | 0 | 0 | 15 | 7.4 |\n")
_TANK_NOTES = ("# Tank notes\n- feed once a day, a pinch of flakes; frozen bloodworm on Sundays\n"
               "- 25 % water change every Saturday; rinse the filter sponge in tank water monthly\n"
               "- 9 Feb: added 4 harlequin rasboras\n")
SITUATIONS += family(
    "tank ammonia", "If a fish tank test shows any ammonia or nitrite, work out what is going wrong from "
    "tank/notes.md and tell me what to do about it",
    {**HOME, "tank/tests.md": _TANK_TESTS, "tank/notes.md": _TANK_NOTES}, [
        Variant("ammonia trace", Change(append={"tank/tests.md": "| 16 Feb | 0.25 | 0 | 20 | 7.2 |\n"}),
                ESCALATE, "ammonia showed up after new fish were added: work out the cause and the fix"),
        Variant("nitrite after new sponge", Change(append={
            "tank/notes.md": "- 14 Feb: threw out the old filter sponge and fitted a brand new one\n",
            "tank/tests.md": "| 16 Feb | 0 | 0.5 | 20 | 7.4 |\n"}),
            ESCALATE, "nitrite at 0.5 after the sponge was replaced: investigate the cause and what to do"),
        Variant("nitrate up", Change(append={"tank/tests.md": "| 16 Feb | 0 | 0 | 40 | 7.4 |\n"}),
                NOOP, "only nitrate rose; ammonia and nitrite are both zero"),
        unrelated("notes/holiday.md", "Half-term: Whitby, 25-29 May. Ask Jan to feed the fish.\n"),
    ])
_LUMO = ("# Lumo campaign updates\n- Update 11: tooling done, first samples look great.\n"
         "- Update 12: production run started, about 40 % complete.\n")
SITUATIONS += family(
    "lumo shipped", "Tell me when the Lumo lamp Kickstarter says my reward has been shipped (backed/lumo-updates.md)",
    {**HOME, "backed/lumo-updates.md": _LUMO}, [
        Variant("left the warehouse", Change(append={"backed/lumo-updates.md": (
            "- Update 14: every early-bird lamp has now left the warehouse, UK ones included. Tracking links go "
            "out by email over the next few days.\n")}),
            ACT, "the user's early-bird lamp to the UK is on its way: tell them"),
        Variant("uk held back", Change(append={"backed/lumo-updates.md": (
            "- Update 14: US and EU rewards are on their way! UK parcels are waiting for a customs certificate; "
            "we expect to send them in about three weeks.\n")}),
            NOOP, "other regions shipped, but the UK rewards, the user's, are held back"),
        Variant("hoping to ship", Change(append={"backed/lumo-updates.md": (
            "- Update 13: production finished! Packing starts Monday and we hope to ship by the end of the month.\n")}),
            NOOP, "shipping is only hoped for by the end of the month; nothing has shipped"),
    ], memories=("I backed the Lumo desk lamp on Kickstarter at the early-bird tier, delivery to the UK.",))
SITUATIONS += family(
    "jury summons", "If I get a jury summons, work out what I have to do and whether I can defer it around my Lisbon "
    "conference (calendar/2026.md), and draft the reply",
    {**HOME, "calendar/2026.md": ("# 2026\n- 8-12 June: Lisbon, urban planning conference (my talk is on the "
                                  "10th)\n- 20 July: Dad's 70th\n")}, [
        Variant("summoned", Change(write={"letters/2026-04-21-jury.md": (
            "Jury Central Summoning Bureau\n\nJURY SUMMONS\nMs Clara Voss\n\nYou are summoned to attend Leeds "
            "Crown Court on Monday 8 June 2026 for jury service, usually ten working days. Reply online within "
            "7 days. If you cannot attend, you may ask once to defer to a date within the next 12 months, giving "
            "your reasons.\n")}),
            ESCALATE, "Clara was summoned for the week of her conference: work out the deferral and draft the reply"),
        Variant("husband summoned", Change(write={"letters/2026-04-21-jury.md": (
            "Jury Central Summoning Bureau\n\nJURY SUMMONS\nMr Jonas Voss\n\nYou are summoned to attend Leeds "
            "Crown Court on Monday 8 June 2026 for jury service. Reply online within 7 days.\n")}),
            NOOP, "the summons is for Jonas, her husband, not for her"),
        Variant("colleague", Change(memories=(
            "Anke at work has been called up for jury service in June, so the team will be a person short.",)),
            NOOP, "it is a colleague who was called for jury service"),
    ], memories=("I'm Clara Voss; I live with my husband Jonas.",))
_CHARGE = ("# Service charge 2025, Flat 6 Cedar Court (our share, GBP)\n\n| Item | Share |\n|---|---|\n"
           "| Buildings insurance | 310 |\n| Cleaning | 180 |\n| Lift maintenance | 95 |\n| Reserve fund | 250 |\n"
           "| Management fee | 220 |\n| Total | 1,055 |\n")
SITUATIONS += family(
    "service charge budget", "When the managing agents send next year's service charge budget, compare it line by "
    "line with this year's (flat/service-charge-2025.md) and tell me what went up and by how much",
    {**HOME, "flat/service-charge-2025.md": _CHARGE}, [
        Variant("budget arrives", Change(write={"inbox/2025-11-28-bramley.txt": _mail(
            "Bramley Property Management <accounts@bramleypm.example>", "Cedar Court: 2026 estimates",
            "Please find the estimates for 2026. Flat 6 share: buildings insurance 372, cleaning 180, lift "
            "maintenance 140, reserve fund 300, management fee 230, and a new line for the door entry system, "
            "45. Total 1,267 GBP, payable quarterly from 1 January.")}),
            ESCALATE, "next year's figures arrived: comparing them line by line is a piece of analysis"),
        Variant("not yet approved", Change(write={"inbox/2025-11-10-bramley.txt": _mail(
            "Bramley Property Management <accounts@bramleypm.example>", "2026 budget",
            "The 2026 budget will go out once the directors have approved it at their meeting on 18 November.")}),
            NOOP, "the agents say the budget is still to come"),
        Variant("payment reminder", Change(write={"inbox/2025-09-20-bramley.txt": _mail(
            "Bramley Property Management <accounts@bramleypm.example>", "Payment reminder",
            "A reminder that your quarterly service charge of 263.75 GBP is due on 1 October.")}),
            NOOP, "a reminder of this year's instalment, not next year's budget"),
    ], bystanders=("Tell me if the lift at Cedar Court is reported out of order",))
SITUATIONS += family(
    "babysitting hours", "when I mention Ava babysat, log the date and the hours in family/babysitting.md so I can "
    "pay her at the end of the month",
    {**HOME, "family/babysitting.md": "# Ava's hours (10 GBP an hour)\n- 3 Oct: 7-11 pm, 4 h\n"}, [
        Variant("had the kids", Change(memories=("Ava had the kids last night from seven till half eleven.",)),
                ACT, "Ava looked after the children for four and a half hours: log one line"),
        Variant("booked ahead", Change(memories=("Booked Ava for Saturday, 6 till 10.",)),
                NOOP, "Saturday's babysitting is booked, not done yet"),
        Variant("grandad instead", Change(memories=("Grandad had the kids on Tuesday evening, Ava was off sick.",)),
                NOOP, "Grandad looked after the children; Ava did not babysit"),
    ])


def _ladder(challenges: dict[str, str]) -> str:
    rows = "".join(f"| {pos} | {name} | {challenges.get(name, '')} |\n"
                   for pos, name in ((4, "Kate Ross"), (5, "Omar Haddad"), (6, "Olly Brent"), (7, "Dev Patel")))
    return f"# Club ladder, summer\n\n| Pos | Player | Open challenge |\n|---|---|---|\n{rows}"


SITUATIONS += family(
    "tennis challenge", "I'm Omar. Tell me if anyone on the tennis ladder (tennis/ladder.md) challenges me, and by "
    "when we have to play",
    {**HOME, "tennis/ladder.md": _ladder({})}, [
        Variant("dev challenges", Change(write={"tennis/ladder.md": _ladder(
            {"Dev Patel": "challenges no. 5, play by 12 May"})}),
            ACT, "Dev challenged position 5, which is Omar: tell him to play by 12 May"),
        Variant("omar's own challenge", Change(write={"tennis/ladder.md": _ladder(
            {"Omar Haddad": "challenges Kate Ross, play by 12 May"})}),
            NOOP, "Omar is the one challenging Kate; nobody challenged him"),
        Variant("olly challenged", Change(write={"tennis/ladder.md": _ladder(
            {"Dev Patel": "challenges Olly Brent, play by 12 May"})}),
            NOOP, "Dev challenged Olly, not Omar"),
    ])
_INVOICES = ("# Invoices\n\n| No. | Agency | Amount | Sent |\n|---|---|---|---|\n"
             "| 2026-014 | Linguaprime | 412.00 EUR | 2 Feb |\n| 2026-015 | Wordbridge | 365.00 EUR | 9 Feb |\n"
             "| 2026-016 | Linguaprime | 348.00 EUR | 16 Feb |\n")
SITUATIONS += family(
    "short payment", "When an agency payment shows up in finance/payments.csv, check it against my invoices "
    "(work/invoices.md). If it is short, work out why and draft a polite query to the agency",
    {**HOME, "work/invoices.md": _INVOICES,
     "finance/payments.csv": "date,payer,reference,amount_eur\n2026-01-30,Linguaprime GmbH,INV 2026-009,290.00\n"}, [
        Variant("one invoice short", Change(append={"finance/payments.csv": (
            "2026-03-02,Linguaprime GmbH,INV 2026-014,380.80\n")}),
            ESCALATE, "380.80 against an invoice of 412.00: work out the gap and draft the query"),
        Variant("lump sum", Change(append={"finance/payments.csv": (
            "2026-03-04,Linguaprime GmbH,INV 2026-014 2026-016,700.00\n")}),
            ESCALATE, "one payment of 700 for two invoices totalling 760: work out what is missing and draft"),
        Variant("paid in full", Change(append={"finance/payments.csv": (
            "2026-03-03,Wordbridge Translations Ltd,INV 2026-015,365.00\n")}),
            NOOP, "Wordbridge paid invoice 2026-015 in full"),
        Variant("not an agency", Change(append={"finance/payments.csv": (
            "2026-03-03,Kerstin Maier,FLAT GAS SHARE FEB,42.00\n")}),
            NOOP, "a flatmate's share of the gas bill is not an agency payment"),
    ], system_tasks=True)
