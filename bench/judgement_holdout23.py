"""The held-out labelled set no. 23 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families appear neither
there nor in the earlier held-out sets. Each family is one top-level statement, so the set grows by appending.
The theme is private life in areas the earlier sets left alone: a ski trip's snow report, a cattery booking,
a home battery and solar totals kept as JSON, firewood drying, a bearded dragon's vivarium, a campervan's leisure
battery, hill walking and bouldering logs, triathlon swims, a parent's lasting power of attorney, blue badge,
care invoices and medicines, befriending calls and a junior parkrun roster, a child's DofE expedition, music
exam and GCSE timetable, co-parenting weekends, a shared family cottage, a christening, a loft conversion, a
kitchen delivery and a bathroom fitter, a house move's change of address, a compost bin, a phone's data
allowance, fuel economy, vehicle tax and a recall, a night-time doorbell camera, holiday spending, a badminton
club's fixtures, a pet-sitter's notes, a puppy class and a book club. Formats vary: CSV, Markdown tables,
``key: value`` files, JSON, mails, bulleted notes, diary entries and memories. Most variants are near misses:
the watched thing changes but the condition is not met (another person, row, pet, car, battery, camera or
stage; exactly on a threshold; a figure in other units; a plan, promise, possibility, estimate or forecast
instead of a fact; a past event retold; a negation; the same word in another sense; the right thing in the
wrong file or folder; a mail from the awaited sender about something else, or saying the awaited news comes
later). Several conditions can only be judged with rows already in the file (a week's total, a month's running
total, a drop since the previous reading or fill-up, two days running, the same month last year, a clash with
another file), several are met by rewriting a whole file, and two families hold only near misses. The text is
the project's own.
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


_SNOW = ("# Valfroide snow report\n\n| date | village (cm) | summit (cm) |\n|---|---|---|\n"
         "| 2026-01-24 | 62 | 104 |\n| 2026-01-27 | 70 | 111 |\n| 2026-01-30 | 71 | 116 |\n")
SITUATIONS += family(
    "valfroide snow", "we're skiing at Valfroide from 14 Feb. tell me when the snow at the summit gets deeper than "
    "120 cm (travel/valfroide.md)",
    {**HOME, "travel/valfroide.md": _SNOW}, [
        Variant("summit 126", Change(append={"travel/valfroide.md": "| 2026-02-02 | 80 | 126 |\n"}),
                ACT, "the summit reads 126 cm on 2 February, deeper than 120 cm: tell them"),
        Variant("exactly 120", Change(append={"travel/valfroide.md": "| 2026-02-02 | 76 | 120 |\n"}),
                NOOP, "the summit reads exactly 120 cm, which is not deeper than 120"),
        Variant("forecast", Change(append={"travel/valfroide.md": (
            "\nForecast: 40 cm of fresh snow expected up top by Sunday, which would take the summit to about "
            "155 cm.\n")}),
                NOOP, "a forecast of snow to come, not a measured depth; the last summit reading is still 116 cm"),
    ])

SITUATIONS += family(
    "cattery stay", "Let me know when Whiskers Lodge confirm Luna and Pip's stay, 2 to 9 August. their mails land "
    "in mail/",
    {**HOME, "mail/2026-05-27-hillview-vets.txt": _mail(
        "Hillview Vets <hello@hillviewvets.example>", "Luna's vaccination is due",
        "Luna is due her annual vaccination in June. Reply to this mail or ring us to book.")}, [
        Variant("confirmed", Change(write={"mail/2026-06-03-whiskers-lodge.txt": _mail(
            "Whiskers Lodge <bookings@whiskerslodge.example>", "Booking confirmed: Luna & Pip",
            "Good news: we have a double pen for Luna and Pip from Sunday 2 August to Sunday 9 August. Drop-off is "
            "10 to 12, collection 2 to 4. Your deposit of 40 pounds has been received.")}),
                ACT, "Whiskers Lodge confirm a pen for both cats for 2 to 9 August: tell them"),
        Variant("still checking", Change(write={"mail/2026-06-03-whiskers-lodge.txt": _mail(
            "Whiskers Lodge <bookings@whiskerslodge.example>", "Your booking request",
            "Thank you for your request for Luna and Pip, 2 to 9 August. August is our busiest month, so we will "
            "confirm within five working days once we have planned the pens.")}),
                NOOP, "the cattery has only received the request and will confirm later; nothing is confirmed yet"),
        Variant("newsletter", Change(write={"mail/2026-06-03-whiskers-lodge.txt": _mail(
            "Whiskers Lodge <news@whiskerslodge.example>", "Summer news from Whiskers Lodge",
            "Our four new heated pens are open, and our 2027 price list is now on the website. Thank you to all "
            "our regulars!")}),
                NOOP, "a mail from Whiskers Lodge about new pens and prices, not a confirmation of the stay"),
    ])

_BATTERY = ("date,time,charge_pct\n2026-03-09,04:00,22\n2026-03-09,16:00,81\n2026-03-10,04:00,18\n"
            "2026-03-10,16:00,77\n2026-03-11,04:00,25\n2026-03-11,16:00,44\n2026-03-12,04:00,15\n")
SITUATIONS += family(
    "battery at four", "the home battery should be charged up before the evening peak. if it's under 50% at 4pm "
    "two days running, tell me (home/battery.csv)",
    {**HOME, "home/battery.csv": _BATTERY}, [
        Variant("second low day", Change(append={"home/battery.csv": "2026-03-12,16:00,39\n"}),
                ACT, "39 % at 4pm on the 12th after 44 % at 4pm on the 11th: under 50 % two days running"),
        Variant("exactly 50", Change(append={"home/battery.csv": "2026-03-12,16:00,50\n"}),
                NOOP, "50 % at 4pm is not under 50 %, so the 11th stays a single low day"),
        Variant("low at night", Change(append={"home/battery.csv": "2026-03-12,16:00,68\n2026-03-12,21:00,31\n"}),
                NOOP, "the 12th is at 68 % at 4pm; the low figure is the 9pm reading, which the task does not count"),
        Variant("one day only", Change(append={"home/battery.csv": "2026-03-12,16:00,39\n"}), NOOP,
                "the 12th is low at 4pm but the 11th was at 73 %, so it is one day, not two running",
                before={**HOME, "home/battery.csv": _BATTERY.replace("2026-03-11,16:00,44", "2026-03-11,16:00,73")}),
    ])

_MUNROS = ("# Munros climbed\n\n- 2025-08-16 Ben Nevis (with Kirsty, clear at the top!)\n- 2025-09-20 Ben Lomond\n"
           "- 2026-04-25 Schiehallion\n")
SITUATIONS += family(
    "munro log", "every time I tell you I've climbed a munro, add it to hills/munros.md with the date",
    {**HOME, "hills/munros.md": _MUNROS}, [
        Variant("ben lawers", Change(memories=(
            "Ben Lawers done today, Saturday 6 June! Long slog but the views over Loch Tay were worth it.",)),
                ACT, "they climbed Ben Lawers on 6 June: add that one line to hills/munros.md"),
        Variant("planning", Change(memories=(
            "Thinking of doing Ben Lawers next Saturday if the forecast holds.",)),
                NOOP, "a plan for next Saturday, not a climb that happened"),
        Variant("nevis retold", Change(memories=(
            "Showed Dad the photos from Ben Nevis last August, he couldn't believe the view from the top.",)),
                NOOP, "a retelling of last August's Ben Nevis, which is already in the list"),
    ])

SITUATIONS += family(
    "mum's lpa", "Tell me when the Office of the Public Guardian registers Mum's health and welfare LPA. their mails "
    "come to mail/",
    {**HOME, "mail/2026-03-02-opg.txt": _mail(
        "Office of the Public Guardian <noreply@opg.example>", "Applications received",
        "We have received two lasting power of attorney applications for Maureen Briggs: property and financial "
        "affairs, and health and welfare. Registration can take up to 20 weeks.")}, [
        Variant("registered", Change(write={"mail/2026-06-04-opg.txt": _mail(
            "Office of the Public Guardian <noreply@opg.example>", "Lasting power of attorney registered",
            "The health and welfare lasting power of attorney made by Maureen Briggs was registered on 4 June 2026. "
            "The registered document will be posted to the attorneys.")}),
                ACT, "the health and welfare LPA is registered: tell them"),
        Variant("finance one", Change(write={"mail/2026-06-04-opg.txt": _mail(
            "Office of the Public Guardian <noreply@opg.example>", "Registered: property and financial affairs",
            "The property and financial affairs lasting power of attorney made by Maureen Briggs was registered on "
            "4 June 2026. We are still processing the health and welfare one.")}),
                NOOP, "it is the property and finance LPA that is registered; the health and welfare one is pending"),
        Variant("notice period", Change(write={"mail/2026-06-04-opg.txt": _mail(
            "Office of the Public Guardian <noreply@opg.example>", "Next step for Maureen Briggs's LPAs",
            "We have written to the people Maureen named. If nobody objects within four weeks, we will register "
            "both lasting powers of attorney.")}),
                NOOP, "registration is still weeks away, after a notice period; nothing is registered yet"),
    ])

_DOFE = ("# Harvey - DofE Bronze\n\n- Kit check evening: Tuesday 5 May, 6pm, school hall\n"
         "- Practice expedition: Saturday 16 - Sunday 17 May, Wenlock Edge, camping at Hill Farm\n"
         "- Assessed expedition: Saturday 13 - Sunday 14 June, Long Mynd\n"
         "- Drop-off 8am at the school gates, pick-up about 4pm on the Sunday\n")
SITUATIONS += family(
    "dofe practice", "tell me if the date of Harvey's DofE practice expedition changes (school/dofe.md)",
    {**HOME, "school/dofe.md": _DOFE}, [
        Variant("moved a week", Change(write={"school/dofe.md": _DOFE.replace(
            "Saturday 16 - Sunday 17 May, Wenlock Edge, camping at Hill Farm",
            "Saturday 23 - Sunday 24 May (moved, Hill Farm was double-booked on the 16th), Wenlock Edge, "
            "camping at Hill Farm")}),
                ACT, "the practice expedition moves from 16-17 May to 23-24 May: tell them"),
        Variant("other campsite", Change(write={"school/dofe.md": _DOFE.replace(
            "camping at Hill Farm", "camping at Brook House Farm (Hill Farm was double-booked)")}),
                NOOP, "only the campsite changes; the practice expedition is still 16-17 May"),
        Variant("kit check moved", Change(write={"school/dofe.md": _DOFE.replace(
            "Tuesday 5 May, 6pm", "Thursday 7 May, 6pm")}),
                NOOP, "the kit check evening moves, not the practice expedition"),
    ])

_FIREWOOD = ("# Firewood moisture (meter on a fresh split face)\n\n- 2026-02-01 ash stack: 27%  oak stack: 31%\n"
             "- 2026-03-01 ash stack: 24%  oak stack: 28%\n- 2026-04-01 ash stack: 21%  oak stack: 25%\n")
SITUATIONS += family(
    "firewood ready", "the ash logs are ready to burn once they read under 20% moisture, let me know when they do "
    "(home/firewood.md)",
    {**HOME, "home/firewood.md": _FIREWOOD}, [
        Variant("ash 18", Change(append={"home/firewood.md": "- 2026-05-01 ash stack: 18%  oak stack: 22%\n"}),
                ACT, "the ash stack reads 18 %, under 20 %: tell them it is ready"),
        Variant("ash 20", Change(append={"home/firewood.md": "- 2026-05-01 ash stack: 20%  oak stack: 23%\n"}),
                NOOP, "the ash reads exactly 20 %, which is not under 20 %"),
        Variant("kiln dried birch", Change(append={"home/firewood.md": (
            "- 2026-05-01 ash stack: 21%  kiln-dried birch (delivered today): 14%\n")}),
                NOOP, "the dry reading is a bought-in birch load; the ash is still at 21 %"),
    ])

_VIV = ("2026-07-06 09:00 basking 41.2C cool end 27.0C\n2026-07-06 15:00 basking 43.8C cool end 28.1C\n"
        "2026-07-07 09:00 basking 40.9C cool end 26.8C\n")
SITUATIONS += family(
    "ziggy basking", "warn me if the basking spot in Ziggy's vivarium gets hotter than 45°C (pets/ziggy-viv.log), "
    "the thermostat's been playing up",
    {**HOME, "pets/ziggy-viv.log": _VIV}, [
        Variant("47 degrees", Change(append={"pets/ziggy-viv.log": "2026-07-07 15:00 basking 47.3C cool end 29.4C\n"}),
                ACT, "the basking spot reads 47.3 °C, hotter than 45 °C: warn them"),
        Variant("fahrenheit", Change(append={"pets/ziggy-viv.log": (
            "2026-07-07 15:00 spare thermometer (reads in F): basking 112F cool end 84F\n")}),
                NOOP, "112 °F is about 44.4 °C, under 45 °C"),
        Variant("exactly 45", Change(append={"pets/ziggy-viv.log": "2026-07-07 15:00 basking 45.0C cool end 28.6C\n"}),
                NOOP, "45.0 °C is not hotter than 45 °C"),
    ])

_ELLERY = ("# Calls with Mrs Ellery (Thursdays)\n\n"
           "- 21 May: chatty, told me about her grandson's wedding. Knee a bit better.\n"
           "- 28 May: tired after a bad night. Her neighbour Pat did her shopping on Tuesday.\n")
SITUATIONS += family(
    "mrs ellery's food", "I do befriending calls with Mrs Ellery for Age Together. If my call notes "
    "(volunteering/ellery-calls.md) say she's running out of food or can't get to the shops, tell me, I have to "
    "pass that on to the coordinator",
    {**HOME, "volunteering/ellery-calls.md": _ELLERY}, [
        Variant("nearly nothing in", Change(append={"volunteering/ellery-calls.md": (
            "- 4 June: Pat's in Spain for two weeks. Mrs E says she's down to a tin of soup and some crackers and "
            "can't manage the bus on her own.\n")}),
                ACT, "she is nearly out of food and cannot get to the shops: tell them so they can pass it on"),
        Variant("fridge full", Change(append={"volunteering/ellery-calls.md": (
            "- 4 June: Pat's away, but her son did a big online shop for her on Monday. Fridge is full, she says.\n")}),
                NOOP, "she has plenty of food; her son did her shopping"),
        Variant("old shops", Change(append={"volunteering/ellery-calls.md": (
            "- 4 June: lovely call. She told me all about the shops on the high street in the 1960s, the butcher's "
            "and the wool shop. In good spirits.\n")}),
                NOOP, "the shops come up as memories of the 1960s, not as a problem getting food now"),
    ])

_ROSTER = ("date,role,volunteer\n2026-06-07,run director,Colin Tate\n2026-06-07,tail walker,Helen Marsh\n"
           "2026-06-07,marshal,Sunita Rao\n2026-06-14,run director,Sunita Rao\n2026-06-14,tail walker,Colin Tate\n")
SITUATIONS += family(
    "tail walker", "I'm Helen Marsh. tell me if I get put down as tail walker for another Sunday on the junior "
    "parkrun roster (volunteering/junior-parkrun-roster.csv)",
    {**HOME, "volunteering/junior-parkrun-roster.csv": _ROSTER}, [
        Variant("helen tail", Change(append={"volunteering/junior-parkrun-roster.csv": (
            "2026-06-21,run director,Colin Tate\n2026-06-21,tail walker,Helen Marsh\n")}),
                ACT, "Helen Marsh is tail walker on Sunday 21 June: tell her"),
        Variant("helen marshal", Change(append={"volunteering/junior-parkrun-roster.csv": (
            "2026-06-21,tail walker,Sunita Rao\n2026-06-21,marshal,Helen Marsh\n")}),
                NOOP, "Helen is down as a marshal on the 21st; Sunita is the tail walker"),
        Variant("helen marsden", Change(append={"volunteering/junior-parkrun-roster.csv": (
            "2026-06-21,tail walker,Helen Marsden\n")}),
                NOOP, "the tail walker on the 21st is Helen Marsden, another volunteer"),
    ])

_DATA = ("date,phone,gb_since_last_reading\n2026-05-31,me,3.6\n2026-06-03,me,4.1\n2026-06-03,Jo,2.2\n"
         "2026-06-06,me,3.8\n2026-06-06,Jo,1.9\n2026-06-09,me,4.0\n2026-06-09,Jo,2.5\n2026-06-12,me,3.3\n"
         "2026-06-12,Jo,2.0\n")
SITUATIONS += family(
    "june phone data", "My phone plan's 20 GB a month. warn me when my data use this month goes past 16 GB "
    "(money/phone-data.csv, Jo's phone is in there too)",
    {**HOME, "money/phone-data.csv": _DATA}, [
        Variant("past 16", Change(append={"money/phone-data.csv": "2026-06-15,me,1.1\n"}),
                ACT, "their June readings now add up to 16.3 GB (4.1 + 3.8 + 4.0 + 3.3 + 1.1), past 16: warn them"),
        Variant("15.8", Change(append={"money/phone-data.csv": "2026-06-15,me,0.6\n"}),
                NOOP, "their June total is 15.8 GB, not yet past 16"),
        Variant("jo's phone", Change(append={"money/phone-data.csv": "2026-06-15,Jo,2.7\n"}),
                NOOP, "the new reading is Jo's phone; their own June total stays at 15.2 GB"),
    ], bystanders=("let me know when the council confirms our garden waste bin renewal",))

_CARS = ("# Our cars\n\n- VW Golf, LK19 XTR, mine.\n- Nissan Micra, YA16 BNP, Mum's (I sort out her paperwork).\n")
SITUATIONS += family(
    "golf tax reminder", "When the DVLA reminder to tax the Golf comes (mail/), remind me to do it",
    {**HOME, "car/cars.md": _CARS}, [
        Variant("golf reminder", Change(write={"mail/2026-06-02-dvla.txt": _mail(
            "DVLA <noreply@dvla.example>", "Vehicle tax reminder: LK19 XTR",
            "The vehicle tax for LK19 XTR (Volkswagen Golf) runs out on 30 June 2026. You can tax it online with "
            "the reference number on this reminder.")}),
                ACT, "the tax reminder for the Golf, LK19 XTR, has come: remind them to tax it"),
        Variant("micra reminder", Change(write={"mail/2026-06-02-dvla.txt": _mail(
            "DVLA <noreply@dvla.example>", "Vehicle tax reminder: YA16 BNP",
            "The vehicle tax for YA16 BNP (Nissan Micra) runs out on 31 July 2026. You can tax it online with the "
            "reference number on this reminder.")}),
                NOOP, "the reminder is for Mum's Micra, YA16 BNP, not the Golf"),
        Variant("logbook", Change(write={"mail/2026-06-02-dvla.txt": _mail(
            "DVLA <noreply@dvla.example>", "Your vehicle log book (V5C) has been updated",
            "We have updated the address on the V5C for LK19 XTR. The new log book will arrive within 5 working "
            "days.")}),
                NOOP, "a DVLA mail about the Golf's log book, not the tax reminder"),
    ])

_LOFT = ("# Loft conversion - building control\n\ncouncil: Harlow District Council\nreference: BC/26/0417\n"
         "commencement notice: sent 12 January\nstructure inspection: passed 3 February\n"
         "insulation and fire doors: passed 21 April\nfinal inspection: not booked yet\n"
         "completion certificate: not issued\n")
SITUATIONS += family(
    "loft sign-off", "Let me know when building control sign off the loft conversion "
    "(house/loft/building-control.md), the remortgage needs the completion certificate",
    {**HOME, "house/loft/building-control.md": _LOFT}, [
        Variant("certificate issued", Change(write={"house/loft/building-control.md": _LOFT.replace(
            "final inspection: not booked yet", "final inspection: passed 9 June").replace(
            "completion certificate: not issued", "completion certificate: issued 11 June, copy posted")}),
                ACT, "the final inspection passed and the completion certificate is issued: tell them"),
        Variant("final booked", Change(write={"house/loft/building-control.md": _LOFT.replace(
            "final inspection: not booked yet", "final inspection: booked for 18 June, 10am")}),
                NOOP, "the final inspection is only booked; nothing is signed off yet"),
        Variant("final not passed", Change(write={"house/loft/building-control.md": _LOFT.replace(
            "final inspection: not booked yet",
            "final inspection: 9 June, not passed (landing smoke alarm must be interlinked, revisit needed)")}),
                NOOP, "the final inspection failed on the smoke alarm and no certificate is issued"),
    ])

_COMPOST = ("date,bin,temp_c\n2026-05-02,hotbin,58\n2026-05-02,heap,31\n2026-05-05,hotbin,62\n2026-05-05,heap,34\n"
            "2026-05-08,hotbin,64\n2026-05-08,heap,35\n")
SITUATIONS += family(
    "hotbin drop", "if the hotbin's temperature falls by more than 15 degrees from one reading to the next, remind me "
    "to add greens and give it a turn (garden/compost.csv)",
    {**HOME, "garden/compost.csv": _COMPOST}, [
        Variant("down 17", Change(append={"garden/compost.csv": "2026-05-11,hotbin,47\n2026-05-11,heap,33\n"}),
                ACT, "the hotbin falls from 64 to 47 °C, 17 degrees: remind them to add greens and turn it"),
        Variant("down 12", Change(append={"garden/compost.csv": "2026-05-11,hotbin,52\n2026-05-11,heap,33\n"}),
                NOOP, "the hotbin falls from 64 to 52 °C, only 12 degrees"),
        Variant("heap drops", Change(append={"garden/compost.csv": "2026-05-11,hotbin,61\n2026-05-11,heap,18\n"}),
                NOOP, "it is the open heap that falls 17 degrees; the hotbin only drops from 64 to 61"),
    ])

_WEEKENDS = ("# Weekends with the kids (Dan / Sophie)\n\n| weekend | with | handover |\n|---|---|---|\n"
             "| 6-7 June | Dan | Fri 6pm at Dan's |\n| 13-14 June | Sophie | Fri 6pm at Sophie's |\n"
             "| 20-21 June | Dan | Fri 6pm at Dan's |\n| 27-28 June | Sophie | Fri 6pm at Sophie's |\n"
             "| 4-5 July | Dan | Fri 6pm at Dan's |\n")
SITUATIONS += family(
    "kids' weekends", "I'm Dan. tell me if Sophie swaps any of my weekends with the kids (family/weekends.md)",
    {**HOME, "family/weekends.md": _WEEKENDS}, [
        Variant("swapped", Change(write={"family/weekends.md": _WEEKENDS.replace(
            "| 20-21 June | Dan | Fri 6pm at Dan's |\n| 27-28 June | Sophie | Fri 6pm at Sophie's |",
            "| 20-21 June | Sophie (swapped, her cousin's wedding) | Fri 6pm at Sophie's |\n"
            "| 27-28 June | Dan (swapped) | Fri 6pm at Dan's |")}),
                ACT, "Dan's 20-21 June weekend is swapped with Sophie's 27-28 June: tell him"),
        Variant("her handover", Change(write={"family/weekends.md": _WEEKENDS.replace(
            "| 27-28 June | Sophie | Fri 6pm at Sophie's |", "| 27-28 June | Sophie | Sat 10am at Sophie's |")}),
                NOOP, "only the handover time of Sophie's own weekend changes; Dan keeps all his weekends"),
        Variant("weekday school run", Change(append={"family/weekends.md": (
            "\nMon 15 June: Sophie does the school run, Dan's on an early shift.\n")}),
                NOOP, "a weekday school run arrangement, not a change to any weekend"),
    ], bystanders=("remind me to renew the kids' passports once the new photos are back (family/passports.md)",))

SITUATIONS += family(
    "lily's grade 3", "tell me when Lily's grade 3 piano result comes in, the exam board mails us (mail/)",
    {**HOME, "mail/2026-05-31-mrs-pell.txt": _mail(
        "Ruth Pell <ruth.pell@example.org>", "Lily's exam",
        "Lily played beautifully yesterday, well done to her. The results usually take two or three weeks.")}, [
        Variant("merit", Change(write={"mail/2026-06-16-results.txt": _mail(
            "Music Exams Board <results@musicexams.example>", "Exam result: Lily Harper, Piano Grade 3",
            "Candidate: Lily Harper. Piano Grade 3, examined 30 May 2026. Result: Merit (124/150). The certificate "
            "has been sent to your teacher.")}),
                ACT, "Lily's Grade 3 piano result is in, a Merit: tell them"),
        Variant("autumn entries", Change(write={"mail/2026-06-16-results.txt": _mail(
            "Music Exams Board <news@musicexams.example>", "Autumn exam session: entries open 1 July",
            "Entries for the autumn session open on 1 July and close on 30 July. Ask your teacher about dates.")}),
                NOOP, "a mail from the exam board about autumn entries, not Lily's result"),
        Variant("being processed", Change(write={"mail/2026-06-16-results.txt": _mail(
            "Music Exams Board <results@musicexams.example>", "Your exam result is on its way",
            "The result for the exam taken on 30 May 2026 by Lily Harper is being processed and will be released "
            "by 26 June.")}),
                NOOP, "the board says the result will be released later; there is no result yet"),
    ])

_TICKS = ("# Hardest sends\n\n- 2025-11-14 first V4 (orange slab at Rockhouse)\n"
          "- 2026-02-03 first V5 (blue overhang in the cave)\n")
SITUATIONS += family(
    "v6 send", "when I tell you I've sent a boulder harder than my best (V5 right now), log it in climbing/ticks.md",
    {**HOME, "climbing/ticks.md": _TICKS}, [
        Variant("purple v6", Change(memories=("Sent the purple V6 in the cave at Rockhouse tonight, third session on "
                                              "it!",)),
                ACT, "a V6 sent, harder than their V5: add it to climbing/ticks.md"),
        Variant("v5s again", Change(memories=("Good session: flashed a V4 and sent two V5s, arms are wrecked.",)),
                NOOP, "V5 is their best already, not harder than it"),
        Variant("still projecting", Change(memories=(
            "Worked the purple V6 all evening, still can't stick the last move.",)),
                NOOP, "they tried the V6 but did not send it"),
    ])

_VAN = ("2026-04-18 06:00 leisure 12.6V starter 12.7V\n2026-04-19 06:00 leisure 12.5V starter 12.7V\n"
        "2026-04-20 06:00 leisure 12.4V starter 12.6V\n")
SITUATIONS += family(
    "van leisure battery", "we're off grid all week. tell me if the campervan's leisure battery is under 12.2 V at "
    "the 6am check (van/battery.log)",
    {**HOME, "van/battery.log": _VAN}, [
        Variant("12.1 at six", Change(append={"van/battery.log": "2026-04-21 06:00 leisure 12.1V starter 12.6V\n"}),
                ACT, "the leisure battery reads 12.1 V at the 6am check, under 12.2 V: tell them"),
        Variant("starter low", Change(append={"van/battery.log": "2026-04-21 06:00 leisure 12.3V starter 12.0V\n"}),
                NOOP, "it is the starter battery that is low; the leisure battery reads 12.3 V"),
        Variant("afternoon dip", Change(append={"van/battery.log": (
            "2026-04-20 14:00 leisure 12.0V (fridge and heater running) starter 12.6V\n")}),
                NOOP, "the low reading is from 2pm with the fridge and heater on, not the 6am check"),
    ])

_FUEL = ("date,car,miles,litres,mpg\n2026-03-02,Octavia,412,36.1,51.9\n2026-03-09,Fabia,298,27.4,49.4\n"
         "2026-03-17,Octavia,430,37.0,52.8\n2026-03-25,Fabia,305,27.9,49.7\n2026-04-01,Octavia,405,35.2,52.3\n")
SITUATIONS += family(
    "octavia mpg", "flag it if the Octavia's mpg on a fill-up is more than 10% worse than on the fill-up before "
    "(car/fuel.csv), could be the sticking brake again",
    {**HOME, "car/fuel.csv": _FUEL}, [
        Variant("down 14 percent", Change(append={"car/fuel.csv": "2026-04-09,Octavia,350,35.4,44.9\n"}),
                ACT, "44.9 mpg after 52.3 mpg is about 14 % worse: flag it"),
        Variant("down 6 percent", Change(append={"car/fuel.csv": "2026-04-09,Octavia,380,35.3,48.9\n"}),
                NOOP, "48.9 mpg after 52.3 mpg is only about 6.5 % worse"),
        Variant("fabia drops", Change(append={"car/fuel.csv": "2026-04-09,Fabia,260,28.0,42.2\n"}),
                NOOP, "the 15 % drop is the Fabia's; the Octavia has no new fill-up"),
    ])

_SWIMS = ("date,where,distance,unit\n2026-06-04,pool,1500,m\n2026-06-06,lake,2000,m\n2026-06-08,pool,1500,m\n"
          "2026-06-10,pool,1600,m\n2026-06-11,lake,1400,m\n")
SITUATIONS += family(
    "swim week", "tell me when I hit 6 km of swimming in a week, Mon to Sun (training/swims.csv). that's my target "
    "before the triathlon",
    {**HOME, "training/swims.csv": _SWIMS}, [
        Variant("6.1 km", Change(append={"training/swims.csv": "2026-06-13,lake,1600,m\n"}),
                ACT, "the week from Monday 8 June now adds up to 6,100 m (1500 + 1600 + 1400 + 1600): tell them"),
        Variant("5.9 km", Change(append={"training/swims.csv": "2026-06-13,pool,1400,m\n"}),
                NOOP, "the week from 8 June adds up to 5,900 m, short of 6 km"),
        Variant("yards", Change(append={"training/swims.csv": "2026-06-13,lido,1600,yd\n"}),
                NOOP, "1,600 yards is about 1,463 m, so the week is about 5,963 m, just short of 6 km"),
        Variant("next week", Change(append={"training/swims.csv": "2026-06-15,pool,1800,m\n"}),
                NOOP, "Monday 15 June starts a new week; 8-14 June stays at 4,500 m"),
    ])

_DOORBELL = ("2026-09-14 18:22 front door: person (parcel delivery)\n2026-09-14 23:41 front door: person\n"
             "2026-09-15 01:13 driveway: car headlights\n")
SITUATIONS += family(
    "night doorbell", "tell me if the doorbell camera sees a person at the front door between midnight and 5am "
    "(ops/logs/doorbell.log)",
    {**HOME, "ops/logs/doorbell.log": _DOORBELL}, [
        Variant("person at 2.47", Change(append={"ops/logs/doorbell.log": "2026-09-16 02:47 front door: person\n"}),
                ACT, "a person at the front door at 2.47am: tell them"),
        Variant("fox", Change(append={"ops/logs/doorbell.log": "2026-09-16 02:47 front door: animal\n"}),
                NOOP, "the camera saw an animal, not a person"),
        Variant("side gate", Change(append={"ops/logs/doorbell.log": "2026-09-16 03:05 side gate: person\n"}),
                NOOP, "the person was at the side gate, not the front door"),
        Variant("milkman", Change(append={"ops/logs/doorbell.log": (
            "2026-09-16 05:40 front door: person (milk delivery)\n")}),
                NOOP, "5.40am is after the midnight to 5am window"),
    ])

_CRETE = ("date,what,eur\n2026-09-05,hire car fuel,64\n2026-09-05,supermarket,88\n2026-09-06,taverna in Chora "
          "Sfakion,112\n2026-09-06,sunbeds,30\n2026-09-07,Samaria gorge tickets and bus,146\n2026-09-07,dinner in "
          "Paleochora,94\n2026-09-08,supermarket,71\n2026-09-08,Elafonisi parking and lunch,83\n2026-09-09,pottery "
          "in Margarites,185\n2026-09-09,dinner in Chania old town,138\n2026-09-10,hire car extra cover,180\n"
          "2026-09-10,taverna by the villa,126\n2026-09-10,olive oil and honey,103\n")
SITUATIONS += family(
    "crete spend", "warn me when our spending on the Crete holiday goes past €1,500 (travel/crete-spend.csv). "
    "flights and the villa don't count, they're paid",
    {**HOME, "travel/crete-spend.csv": _CRETE,
     "travel/crete-ideas.md": "# Ideas\n\n- Imbros gorge (shorter than Samaria)\n- Falasarna for sunset\n"}, [
        Variant("boat trip", Change(append={"travel/crete-spend.csv": "2026-09-11,boat trip to Balos,96\n"}),
                ACT, "the rows now add up to €1,516, past €1,500: warn them"),
        Variant("1478", Change(append={"travel/crete-spend.csv": "2026-09-11,bakery and beach umbrella,58\n"}),
                NOOP, "the rows add up to €1,478, still under €1,500"),
        Variant("idea only", Change(append={"travel/crete-ideas.md": "- Boat trip to Balos, 48 each, Thursday?\n"}),
                NOOP, "a boat trip they might take, noted in the ideas file; the spending total stays €1,420"),
    ])

SITUATIONS += family(
    "bathroom start", "Tell me if Marek's start date for the bathroom moves (it's meant to be Monday 6 July), I've "
    "booked the week off for it",
    {**HOME, "house/bathroom/plan.md": "# Bathroom\n\nMarek (tiling and plumbing), from Monday 6 July, about two "
                                       "weeks. Tiles: Ashby grey 30x60.\n"}, [
        Variant("starts 13th", Change(memories=(
            "Marek rang: the Harrisons' job has overrun, so he'll start our bathroom on Monday 13 July instead of "
            "the 6th.",)),
                ACT, "the start moves from 6 to 13 July: tell them"),
        Variant("tiles arrived", Change(memories=(
            "Marek says the tiles for our bathroom have come into his yard, all set for the 6th.",)),
                NOOP, "news about the tiles; the start is still the 6th"),
        Variant("finish may slip", Change(memories=(
            "Marek's still on for Monday the 6th; he said the finish might slip a day if the adhesive is slow to "
            "set.",)),
                NOOP, "the start stays on 6 July; only the finish might slip"),
    ])

_ADDRESS = ("# Told about the new address (14 Alder Rise)\n\n- [x] bank (Northway)\n- [x] employer\n"
            "- [ ] DVLA (licence and V5C)\n- [ ] GP and dentist\n- [ ] council tax\n- [ ] car insurance\n")
SITUATIONS += family(
    "address changes", "whenever I tell you I've updated our address with someone, tick them off in "
    "move/address-changes.md",
    {**HOME, "move/address-changes.md": _ADDRESS}, [
        Variant("dvla done", Change(memories=(
            "Did the DVLA online this morning, licence and logbook both, the new address is in.",)),
                ACT, "the DVLA has the new address: tick that one line off"),
        Variant("dvla timed out", Change(memories=(
            "Tried the DVLA website at lunch but it kept timing out, I'll have another go tomorrow.",)),
                NOOP, "the DVLA update failed; nothing has been updated yet"),
    ])

_VISITS = ("# Visits for Mum (Rita Lowe), May 2026\n\nMorning and teatime visits, my log from the carers' book.\n\n"
           "| week | hours |\n|---|---|\n| 1-3 May | 6.0 |\n| 4-10 May | 14.0 |\n| 11-17 May | 14.0 |\n"
           "| 18-24 May | 14.0 |\n| 25-31 May | 12.5 |\n\nTotal: 60.5 hours\n")
SITUATIONS += family(
    "care invoice may", "When Brightcare's invoice for Mum's care in May lands in care/invoices/, check the hours "
    "against my visit log (care/visits-may.md) and draft a query about anything that doesn't match",
    {**HOME, "care/visits-may.md": _VISITS,
     "care/invoices/brightcare-2026-04.md": "Invoice BC-2240, Rita Lowe, April 2026: 62 hours at 28.50 = 1,767.00 "
                                           "pounds. Due 30 May.\n"}, [
        Variant("may invoice", Change(write={"care/invoices/brightcare-2026-05.md": (
            "Invoice BC-2291, Rita Lowe, May 2026: 66 hours at 28.50 = 1,881.00 pounds. Due 30 June.\n")}),
                ESCALATE, "the May invoice is in: compare its 66 hours with the log's 60.5 and draft the query"),
        Variant("invoices late", Change(write={"mail/2026-06-02-brightcare.txt": _mail(
            "Brightcare Homecare <accounts@brightcare.example>", "May invoices",
            "Our May invoices will go out on 5 June, a little later than usual because of the bank holiday.")}),
                NOOP, "Brightcare say the May invoice comes later; it has not arrived"),
        Variant("april receipt", Change(write={"care/invoices/brightcare-2026-04-receipt.md": (
            "Receipt: payment of 1,767.00 pounds for invoice BC-2240 (April) received with thanks.\n")}),
                NOOP, "a receipt for April's invoice, not the May invoice"),
    ])

_SOLAR_ROWS = [("2025-04", 338), ("2025-05", 431), ("2025-06", 462), ("2025-07", 447), ("2025-08", 389),
               ("2025-09", 281), ("2025-10", 167), ("2025-11", 74), ("2025-12", 41), ("2026-01", 63),
               ("2026-02", 118), ("2026-03", 205), ("2026-04", 329)]


def _solar(*extra: str) -> str:
    rows = [f'  {{"month": "{month}", "kwh": {kwh}, "type": "actual"}}' for month, kwh in _SOLAR_ROWS]
    return "[\n" + ",\n".join(rows + list(extra)) + "\n]\n"


SITUATIONS += family(
    "solar vs last year", "when a month's solar total goes into home/solar-monthly.json, if it's under 90% of the "
    "same month last year, dig into why (inverter log, shading, weather) and write me a short note",
    {**HOME, "home/solar-monthly.json": _solar()}, [
        Variant("may 84 percent", Change(write={"home/solar-monthly.json": _solar(
            '  {"month": "2026-05", "kwh": 361, "type": "actual"}')}),
                ESCALATE, "May 2026 made 361 kWh against 431 in May 2025, about 84 %: investigate and write the note"),
        Variant("may 93 percent", Change(write={"home/solar-monthly.json": _solar(
            '  {"month": "2026-05", "kwh": 402, "type": "actual"}')}),
                NOOP, "402 kWh is about 93 % of May 2025's 431, not under 90 %"),
        Variant("forecast", Change(write={"home/solar-monthly.json": _solar(
            '  {"month": "2026-05", "kwh": 360, "type": "forecast (app, 15 May)"}')}),
                NOOP, "a mid-month forecast from the app, not May's total"),
    ])

_KITCHEN = ("# Kitchen order KO-7731 (Hartley Kitchens)\n\n- 6 base units (600 mm)\n- 2 base units (300 mm)\n"
            "- 1 corner base unit\n- 5 wall units (600 mm)\n- 1 tall larder unit\n- 14 doors, sage green\n"
            "- 3 worktops, oak, 3 m\n- 1 sink and tap\n- plinths and end panels\n\nKev starts fitting on Monday "
            "15 June.\n")
SITUATIONS += family(
    "kitchen delivery note", "When the delivery note for the kitchen comes in (house/kitchen/), check it against the "
    "order in house/kitchen/order.md and make me a list of what to chase before Kev starts fitting on the 15th",
    {**HOME, "house/kitchen/order.md": _KITCHEN}, [
        Variant("delivered short", Change(write={"house/kitchen/delivery-note-DN58812.md": (
            "Delivery note DN58812, order KO-7731, delivered 9 June\n\n- 6 base units (600 mm)\n- 2 base units "
            "(300 mm)\n- 5 wall units (600 mm)\n- 1 tall larder unit\n- 12 doors, sage green\n- 2 worktops, oak, "
            "3 m\n- 1 sink and tap\n- plinths and end panels\n")}),
                ESCALATE, "the delivery note is in: compare it with the order and list the missing corner unit, "
                          "doors and worktop"),
        Variant("slot booked", Change(write={"house/kitchen/delivery-booking.md": (
            "Your Hartley kitchen (order KO-7731) will be delivered on Tuesday 9 June between 7 and 11am.\n")}),
                NOOP, "a booked delivery slot, not the delivery note of what came"),
        Variant("bathroom tiles", Change(write={"house/bathroom/delivery-note-T2209.md": (
            "Delivery note T2209: 14 boxes Ashby grey 30x60 tiles, 2 bags adhesive, delivered 9 June.\n")}),
                NOOP, "a delivery note for the bathroom tiles, not the kitchen"),
    ], bystanders=("Tell me when Ruby's new library card is ready to collect",))

_SITTER = ("# Notes from Jess\n\n- Wed 15 July: all fed. Olive a bit shy at first, came round by the evening.\n"
           "- Thu 16 July: Dotty sneezing a bit, keeping an eye on her. Everyone ate well.\n"
           "- Fri 17 July: hutch cleaned out, rabbits had a run on the lawn. Olive slept on the landing all day.\n")
SITUATIONS += family(
    "sitter says poorly", "Jess is looking after Olive (the cat) and the two rabbits while we're in Portugal and "
    "writes notes in pets/sitter-notes.md. If she says any of them seems poorly, work out which vet she should go to "
    "from pets/vets.md and draft her a message with what to do",
    {**HOME, "pets/sitter-notes.md": _SITTER,
     "pets/vets.md": "- Hillview Vets, 8am-6pm weekdays, 9am-1pm Saturdays\n- Vets Now Kirkby, out of hours\n"}, [
        Variant("olive sick", Change(append={"pets/sitter-notes.md": (
            "- Sat 18 July: Olive's been sick twice and hasn't touched her breakfast or her tea. She's hiding "
            "under the bed.\n")}),
                ESCALATE, "Olive is being sick and not eating: pick the vet open on Saturday and draft the message"),
        Variant("sick of the rain", Change(append={"pets/sitter-notes.md": (
            "- Sat 18 July: all fed and watered. Olive is sick of the rain and sulked on the windowsill all day. "
            "Rabbits fine.\n")}),
                NOOP, "'sick of the rain' is a mood, not illness; everyone is eating and fine"),
        Variant("sneezing stopped", Change(append={"pets/sitter-notes.md": (
            "- Sat 18 July: Dotty's sneezing has stopped completely, she's bright and eating well. Olive ate "
            "everything.\n")}),
                NOOP, "Thursday's sneezing is over; all the animals are well"),
    ], bystanders=("tell me when the quarterly electricity bill arrives in mail/",))

_COTTAGE = ("# Nant Cottage - summer 2026\n\n| week (Sat-Sat) | who |\n|---|---|\n| 18-25 July | Rhys & family |\n"
            "| 25 July - 1 Aug | free |\n| 1-8 Aug | us (Catrin, Dafydd and the boys) |\n| 8-15 Aug | free |\n"
            "| 15-22 Aug | Aunty Mair |\n| 22-29 Aug | free |\n\n## Notes\n")
SITUATIONS += family(
    "nant cottage clash", "My brother, sister and I share Nant Cottage. If anyone books a week that overlaps ours "
    "(1-8 Aug) in cottage/bookings.md, work out which summer weeks are still free and draft a message to the family "
    "group suggesting a swap",
    {**HOME, "cottage/bookings.md": _COTTAGE}, [
        Variant("ffion on ours", Change(write={"cottage/bookings.md": _COTTAGE.replace(
            "| 1-8 Aug | us (Catrin, Dafydd and the boys) |",
            "| 1-8 Aug | us (Catrin, Dafydd and the boys); Ffion & Tom |")}),
                ESCALATE, "Ffion and Tom have booked 1-8 Aug on top of them: find free weeks and draft the message"),
        Variant("week after", Change(write={"cottage/bookings.md": _COTTAGE.replace(
            "| 8-15 Aug | free |", "| 8-15 Aug | Ffion & Tom |")}),
                NOOP, "Ffion takes 8-15 Aug, the free week after theirs; no overlap"),
        Variant("maybe august", Change(append={"cottage/bookings.md": (
            "- Ffion: we might want a week in early August, will check with Tom's work and say\n")}),
                NOOP, "a maybe in the notes, not a booking"),
    ], bystanders=("let me know if the vet's reminder for Bryn's booster comes through",))

_GCSE = ("subject,paper,date,session\nEnglish Literature,Paper 1,2026-05-11,AM\n"
         "Combined Science,Biology 1,2026-05-12,AM\nMusic,Listening,2026-05-13,AM\nGeography,Paper 1,2026-05-13,PM\n"
         "Maths,Paper 1,2026-05-14,AM\nSpanish,Listening,2026-05-18,AM\nHistory,Paper 1,2026-05-18,PM\n"
         "English Language,Paper 1,2026-05-20,AM\n")
SITUATIONS += family(
    "gcse same day", "If the GCSE timetable (school/gcse-timetable.csv) ends up giving Maya two exams on the same "
    "day, make her a revision plan for the days before it. Her subjects are in school/maya-subjects.md",
    {**HOME, "school/gcse-timetable.csv": _GCSE,
     "school/maya-subjects.md": "Maya's GCSEs: English Language, English Literature, Maths, Combined Science, "
                                "Geography, Spanish, Art\n"}, [
        Variant("maths and geography", Change(write={"school/gcse-timetable.csv": _GCSE.replace(
            "Geography,Paper 1,2026-05-13,PM", "Geography,Paper 1,2026-05-14,PM")}),
                ESCALATE, "Maya now has Maths in the morning and Geography in the afternoon of 14 May: plan revision"),
        Variant("history moved", Change(write={"school/gcse-timetable.csv": _GCSE.replace(
            "History,Paper 1,2026-05-18,PM", "History,Paper 1,2026-05-14,PM")}),
                NOOP, "History joins Maths on 14 May, but Maya does not take History"),
        Variant("spanish moved", Change(write={"school/gcse-timetable.csv": _GCSE.replace(
            "Spanish,Listening,2026-05-18,AM", "Spanish,Listening,2026-05-19,AM")}),
                NOOP, "Spanish moves to 19 May, a day with nothing else of hers"),
    ])

_ZONES = ("# Power zones (FTP 244 W, test on 14 March)\n\n- Z1 recovery: under 137 W\n- Z2 endurance: 137-183 W\n"
          "- Z3 tempo: 184-220 W\n- Z4 threshold: 221-256 W\n- Z5 VO2: 257-293 W\n")
SITUATIONS += family(
    "ftp zones", "when I log a new FTP test in cycling/tests.csv, redo my power zones in cycling/zones.md from it "
    "and rework next week's sessions to match",
    {**HOME, "cycling/tests.csv": "date,type,watts\n2026-01-10,ftp test (20 min),231\n"
                                  "2026-03-14,ftp test (20 min),244\n",
     "cycling/zones.md": _ZONES}, [
        Variant("new test", Change(append={"cycling/tests.csv": "2026-05-16,ftp test (20 min),256\n"}),
                ESCALATE, "a new FTP test of 256 W: recalculate the zones and rework next week"),
        Variant("app estimate", Change(append={"cycling/tests.csv": "2026-05-16,app estimate (not a test),259\n"}),
                NOOP, "an estimate from the app, which the row itself says is not a test"),
    ], bystanders=("Tell me when Pedal Works say my wheel rebuild is done",))

_BADGE = ("# Dad's blue badge renewal\n\napplied: 2 April 2026\nreference: BB-44817\n"
          "status: received, being assessed\n")
SITUATIONS += family(
    "blue badge info", "If the council asks for anything more for Dad's blue badge renewal (care/dad-blue-badge.md), "
    "get it together from what's in care/dad-docs/ and draft the reply",
    {**HOME, "care/dad-blue-badge.md": _BADGE,
     "care/dad-docs/list.md": "- passport photo (2024)\n- PIP award letter, March 2026\n- council tax bill\n"}, [
        Variant("more needed", Change(write={"care/dad-blue-badge.md": _BADGE.replace(
            "status: received, being assessed",
            "status: more information needed - a photo taken in the last month and his latest mobility award "
            "letter, reply by 30 May")}),
                ESCALATE, "the council asks for a new photo and the award letter: gather them and draft the reply"),
        Variant("approved", Change(write={"care/dad-blue-badge.md": _BADGE.replace(
            "status: received, being assessed",
            "status: approved 14 May, badge posted within 10 working days")}),
                NOOP, "the renewal is approved; nothing more is asked for"),
        Variant("still assessing", Change(write={"care/dad-blue-badge.md": _BADGE.replace(
            "status: received, being assessed",
            "status: being assessed, decision within 12 weeks of applying; we'll contact you if we need anything")}),
                NOOP, "still being assessed; the council only says it would ask if it needed anything"),
    ])

SITUATIONS += family(
    "mum's dosette", "If Mum's GP or the pharmacy changes any of her medicines, update her dosette plan in "
    "care/mum-dosette.md and write a note for the carers explaining the change",
    {**HOME, "care/mum-dosette.md": "# Joan Pryce - dosette\n\nMorning: amlodipine 10 mg, levothyroxine 50 mcg\n"
                                    "Evening: atorvastatin 20 mg\nBedtime: paracetamol 1 g if needed\n"}, [
        Variant("dose reduced", Change(write={"mail/2026-06-03-gp.txt": _mail(
            "Dr S. Anand, Brook Lane Surgery <brooklane@nhs.example>", "Joan Pryce - medication change",
            "Following her blood test, please reduce Joan's amlodipine from 10 mg to 5 mg once a day from Monday "
            "8 June. Everything else stays the same.")}),
                ESCALATE, "the GP halves the amlodipine: update the dosette plan and write the carers' note"),
        Variant("repeat ready", Change(write={"mail/2026-06-03-pharmacy.txt": _mail(
            "Hollins Pharmacy <orders@hollins.example>", "Prescription ready",
            "Joan Pryce's repeat prescription is ready to collect: the same items as last month.")}),
                NOOP, "the same medicines are ready to collect; nothing has changed"),
        Variant("review later", Change(write={"mail/2026-06-03-gp.txt": _mail(
            "Dr S. Anand, Brook Lane Surgery <brooklane@nhs.example>", "Joan's appointment",
            "I'd like to review Joan's blood pressure tablets when I see her on 2 July. No changes for now.")}),
                NOOP, "a review planned for July with no change now"),
    ], bystanders=("tell me when the plumber says what day he's coming about the shower",))

SITUATIONS += family(
    "isla christening", "When Rev. Hollis confirms a date for Isla's christening, draft the invitations and a guest "
    "list from family/contacts.md",
    {**HOME, "family/contacts.md": "# Family\n\n- Nana and Grandad Price, Swansea\n- Aunt Bethan and Owen\n"
                                   "- Uncle Gareth\n- James's parents, Bristol\n- Godparents: Hannah, Lewis\n"}, [
        Variant("date confirmed", Change(write={"mail/2026-06-05-rev-hollis.txt": _mail(
            "Rev. Ann Hollis <vicar@stmichaels.example>", "Isla's baptism",
            "I'm pleased to confirm Isla's baptism on Sunday 13 September at 12 noon at St Michael's. We'll be in "
            "touch nearer the time about readings.")}),
                ESCALATE, "the date is confirmed for 13 September: draft the invitations and the guest list"),
        Variant("will confirm", Change(write={"mail/2026-06-05-rev-hollis.txt": _mail(
            "Rev. Ann Hollis <vicar@stmichaels.example>", "Isla's baptism",
            "I'll look at the September Sundays with the churchwardens on Tuesday and confirm a date after that.")}),
                NOOP, "the vicar will confirm a date later; no date yet"),
        Variant("preparation evening", Change(write={"mail/2026-06-05-rev-hollis.txt": _mail(
            "Rev. Ann Hollis <vicar@stmichaels.example>", "Preparation evening",
            "Could you and James come to a baptism preparation evening at the vicarage on Thursday 11 June at "
            "7.30pm?")}),
                NOOP, "an invitation to a preparation evening, not the christening date"),
    ])

_FIXTURES = ("# Kingfisher BC - autumn league, Division 2\n\n| date | opponent | venue |\n|---|---|---|\n"
             "| Wed 16 Sep | Harbury Shuttlers | home |\n| Mon 21 Sep | Castle Vale | away |\n"
             "| Wed 30 Sep | Oakfield | home |\n| Thu 8 Oct | Harbury Shuttlers | away |\n"
             "| Wed 14 Oct | Millbrook | home |\n")
SITUATIONS += family(
    "badminton hall clash", "I'm fixtures secretary for Kingfisher Badminton. If the league moves one of our home "
    "matches (club/fixtures.md) to a night the sports hall is booked by someone else (club/hall-bookings.md), find "
    "us a free night that week and draft a message to the league secretary",
    {**HOME, "club/fixtures.md": _FIXTURES,
     "club/hall-bookings.md": "# Riverside Sports Hall, main hall, evenings\n\n- Monday: free\n"
                              "- Tuesday: Riverside Netball, 7-10pm\n- Wednesday: Kingfisher BC (us), 7-10pm\n"
                              "- Thursday: over-40s five-a-side, 7-9pm\n- Friday: free\n"}, [
        Variant("home on netball night", Change(write={"club/fixtures.md": _FIXTURES.replace(
            "| Wed 30 Sep | Oakfield | home |", "| Tue 29 Sep | Oakfield | home |")}),
                ESCALATE, "the Oakfield home match moves to a Tuesday, the netball club's night: find a free night "
                          "and draft the message"),
        Variant("home on free monday", Change(write={"club/fixtures.md": _FIXTURES.replace(
            "| Wed 14 Oct | Millbrook | home |", "| Mon 12 Oct | Millbrook | home |")}),
                NOOP, "the Millbrook home match moves to a Monday, when the hall is free"),
        Variant("away on tuesday", Change(write={"club/fixtures.md": _FIXTURES.replace(
            "| Thu 8 Oct | Harbury Shuttlers | away |", "| Tue 6 Oct | Harbury Shuttlers | away |")}),
                NOOP, "the match moved to a Tuesday is an away match, played in the other club's hall"),
    ])

SITUATIONS += family(
    "octavia recall", "if Skoda or the dealer send a recall notice for our Octavia (KY19 PLM), work out what we "
    "need to do and when we can get it in around the school run (family/calendar.md)",
    {**HOME, "family/calendar.md": "# June\n\n- Mon-Fri: school run 8.15-8.45 and 3.00-3.30\n"
                                   "- Wed 17 June: sports day, both of us there from 1pm\n"}, [
        Variant("brake hose recall", Change(write={"mail/2026-06-08-skoda.txt": _mail(
            "Skoda UK Customer Care <care@skoda-uk.example>", "Safety recall 26R4: your Octavia KY19 PLM",
            "A rear brake hose on some Octavias built in 2019 may rub against the suspension. Your car, KY19 PLM, "
            "is affected. Please book a free inspection and repair at any Skoda retailer; it takes about two "
            "hours.")}),
                ESCALATE, "the Octavia is recalled: work out the steps and a slot that avoids the school run"),
        Variant("not affected", Change(write={"mail/2026-06-08-skoda.txt": _mail(
            "Skoda UK Customer Care <care@skoda-uk.example>", "Superb recall 26R5: your car is not affected",
            "We are recalling some Superbs built in 2021 and 2022. Our records show your Octavia, KY19 PLM, is not "
            "affected and you don't need to do anything.")}),
                NOOP, "the mail says their Octavia is not affected by the recall"),
        Variant("summer check offer", Change(write={"mail/2026-06-08-dealer.txt": _mail(
            "Marlow Skoda <service@marlowskoda.example>", "Summer check for 49.99",
            "Get your car ready for the holidays with our 20-point summer check, now 49.99 pounds.")}),
                NOOP, "an offer from the dealer, not a recall notice"),
    ])

_PUPPY = ("# Bramble - puppy class\n\nSaturdays 9.30-10.30am, Meadow Field, week 3 of 6\n"
          "Trainer: Kerry (Paws Up Training)\nBring: treats, a long line, poo bags\n")
SITUATIONS += family(
    "bramble puppy class", "let me know if Bramble's Saturday puppy class gets cancelled (dogs/puppy-class.md)",
    {**HOME, "dogs/puppy-class.md": _PUPPY}, [
        Variant("agility cancelled", Change(append={"dogs/puppy-class.md": (
            "\nUpdate from Kerry: Sunday's Agility Foundations is cancelled this week, I'm away. Saturday puppy class "
            "runs as normal.\n")}),
                NOOP, "Sunday's agility class is cancelled; Saturday's puppy class runs as normal"),
        Variant("moved indoors", Change(write={"dogs/puppy-class.md": _PUPPY.replace(
            "Meadow Field", "the scout hut on Mill Road this week (rain forecast), same time")}),
                NOOP, "the class moves indoors because of rain; it is not cancelled"),
        Variant("might cancel", Change(append={"dogs/puppy-class.md": (
            "\nUpdate from Kerry: if Meadow Field is waterlogged we may have to cancel Saturday. I'll post here by "
            "6pm Friday.\n")}),
                NOOP, "only a possible cancellation, to be decided on Friday; the class is still on"),
    ])

_BOOKCLUB = ("# Hillside Book Club 2026\n\n- Thu 18 June, 7.30pm, Fox and Pheasant: The Remains of the Day\n"
             "- Thu 16 July, 7.30pm, Fox and Pheasant: Small Things Like These\n"
             "- Thu 20 August, 7.30pm, Fox and Pheasant: to be picked\n")
SITUATIONS += family(
    "july book club venue", "tell me if July's book club moves away from the Fox and Pheasant, I can only get there "
    "because it's on the bus route (bookclub/dates.md)",
    {**HOME, "bookclub/dates.md": _BOOKCLUB}, [
        Variant("june moves", Change(write={"bookclub/dates.md": _BOOKCLUB.replace(
            "Thu 18 June, 7.30pm, Fox and Pheasant", "Thu 18 June, 7.30pm, Gwen's garden (the pub has a function)")}),
                NOOP, "it is the June meeting that moves; July stays at the Fox and Pheasant"),
        Variant("july later", Change(write={"bookclub/dates.md": _BOOKCLUB.replace(
            "Thu 16 July, 7.30pm", "Thu 16 July, 8pm")}),
                NOOP, "July starts half an hour later but is still at the Fox and Pheasant"),
        Variant("garden idea", Change(append={"bookclub/dates.md": (
            "\nIdea from Gwen: shall we do July in my garden if it's warm? We can vote at the June meeting.\n")}),
                NOOP, "a suggestion to be voted on in June, not a change of venue"),
    ])
