"""The held-out labelled set no. 27 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families appear neither
there nor in the earlier held-out sets. Each family is one top-level statement, so the set grows by appending.
The theme is the user's volunteering and community roles and their freelance work: a community garden's watering
rota, plot waiting list and plot inspections; a food bank's stockroom, dated surplus stock, weekly parcel counts
and warehouse shifts; a parish council's agendas, planning consultations and precept; a junior football club's
fixtures, DBS checks, kit order, subs and committee chat; a charity fun run's sign-ups, sponsorship total, road
closure and banked cash; a repair café's session sheets, PAT log and fixers; and freelance design and translation
work (a client brief, a bank export, overdue invoices, a moved deadline, job offers by size, a shared drive of
logo drafts, a reviewer's comments and the self assessment return). Formats vary: CSV, Markdown tables,
``key: value`` notes, chat logs, mails with From, Date and Subject headers, and memories. Most variants are near
misses: the watched thing changes but the condition is not met (another person, plot, team, shift, week, job,
invoice, client, street or council; exactly on a threshold; a figure in other units; a part payment; a pledge,
proposal, forecast, hedge or question instead of the fact; a mail saying the awaited thing comes later; a
restatement of what the files already hold). Two families carry two tasks each, judged separately on the same
change; several conditions can only be judged with rows already in the file or with a second file (a week's
total, every family paid, a blocked day in a calendar, a second payment completing a first). The text is the
project's own.
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


def _mail(sender: str, date: str, subject: str, body: str) -> str:
    """A mail as a file in the workspace: its sender, date, subject and body."""
    return f"From: {sender}\nDate: {date}\nSubject: {subject}\n\n{body}\n"


def _pair(key: str, first: str, second: str, before: dict[str, str],
          variants: list[tuple[str, Change, tuple[str, str], tuple[str, str]]]) -> list[Situation]:
    """A family with two due tasks, each judged on its own: one ``(expected, why)`` per task and variant."""
    return [Situation(f"{key}: {name}", before, (), change, (Label(first, *one), Label(second, *two)))
            for name, change, one, two in variants]


# --- community garden ------------------------------------------------------------------------------------------

_ROTA = ("date,day,volunteer\n2026-07-06,Mon,Bob Ashworth\n2026-07-07,Tue,Ines Carvalho\n2026-07-08,Wed,Kemal Demir\n"
         "2026-07-09,Thu,Ines Carvalho\n2026-07-10,Fri,Joy Mensah\n2026-07-11,Sat,Bob Ashworth\n"
         "2026-07-12,Sun,Joy Mensah\n")
_CALENDAR = ("# July\n\n- Wed 15 July: dentist 9am, then at the Pellow Print job in Manchester all day\n"
             "- Sat 18 July: Rita's hen do in Brighton, all day\n- Thu 23 July: working late, deadline\n")


def _rota_week(sat: str = "Bob Ashworth", sun: str = "Joy Mensah", tue: str = "Joy Mensah",
               wed: str = "Bob Ashworth", thu: str = "Kemal Demir") -> str:
    return (f"2026-07-13,Mon,Kemal Demir\n2026-07-14,Tue,{tue}\n2026-07-15,Wed,{wed}\n2026-07-16,Thu,{thu}\n"
            f"2026-07-17,Fri,Joy Mensah\n2026-07-18,Sat,{sat}\n2026-07-19,Sun,{sun}\n")


_WEEKEND_TASK = ("I'm Ines Carvalho, I do watering at Fernbank Community Garden. let me know whenever the rota "
                 "(garden/watering-rota.csv) gives me a weekend day")
_BLOCKED_TASK = ("if the watering rota puts me on a day I've blocked out in me/calendar.md, tell me so I can swap "
                 "with someone")
SITUATIONS += _pair(
    "fernbank watering", _WEEKEND_TASK, _BLOCKED_TASK,
    {**HOME, "garden/watering-rota.csv": _ROTA, "me/calendar.md": _CALENDAR,
     "garden/noticeboard.md": "# Noticeboard\n\n- Kemal: new hose connector fitted on the east tap\n"}, [
        ("ines on saturday 18th", Change(append={"garden/watering-rota.csv": _rota_week(sat="Ines Carvalho")}),
         (ACT, "Ines is on the rota for Saturday 18 July, a weekend day: tell her"),
         (ACT, "Saturday 18 July is blocked for Rita's hen do and the rota puts Ines on it: tell her")),
        ("ines on sunday 19th", Change(append={"garden/watering-rota.csv": _rota_week(sun="Ines Carvalho")}),
         (ACT, "Ines is on the rota for Sunday 19 July, a weekend day: tell her"),
         (NOOP, "Sunday 19 July is not blocked in her calendar; only the 15th, 18th and 23rd are")),
        ("ines on wednesday 15th", Change(append={"garden/watering-rota.csv": _rota_week(wed="Ines Carvalho")}),
         (NOOP, "Wednesday 15 July is a weekday; the weekend days go to Bob and Joy"),
         (ACT, "the rota puts Ines on Wednesday 15 July, which she has blocked (dentist, Manchester job)")),
        ("ines on tue and thu", Change(append={"garden/watering-rota.csv": _rota_week(
            tue="Ines Carvalho", thu="Ines Carvalho")}),
         (NOOP, "Ines gets Tuesday 14 and Thursday 16 July, both weekdays"),
         (NOOP, "the 14th and 16th are free in her calendar")),
        ("ines okafor on saturday", Change(append={"garden/watering-rota.csv": _rota_week(sat="Ines Okafor")}),
         (NOOP, "the Saturday volunteer is Ines Okafor, another person; Ines Carvalho has no day that week"),
         (NOOP, "Ines Carvalho is not on the rota that week at all")),
        ("cover request", Change(append={"garden/noticeboard.md": (
            "- Bob: can't do my Sat 11th after all :( could Ines cover? or anyone?\n")}),
         (NOOP, "Bob asks on the noticeboard whether Ines could cover; the rota itself has not changed"),
         (NOOP, "a request on the noticeboard, not a rota entry, and Sat 11 July is not blocked anyway")),
    ])

_PLOTS = ("# Fernbank plots 2026\n\n| plot | holder | status |\n|---|---|---|\n| 1 | Kemal Demir | let |\n"
          "| 2 | Joy Mensah | let |\n| 3 | Raj Patel | let |\n| 4 | Maggie Doyle | let |\n| 5 | Bob Ashworth | let |\n"
          "| 6 | Sue Hargreaves | let |\n| 7 | community beds | shared |\n| 8 | Ines Carvalho | let |\n")
_WAITING = ("# Plot waiting list\n\n1. Agnieszka Nowak (joined March 2025, happy with a half plot)\n"
            "2. Dev Mistry (joined June 2025)\n3. Colette Brun (joined January 2026)\n")
SITUATIONS += family(
    "plot comes free", "When a plot at Fernbank comes free (garden/plots.md), draft the offer mail to whoever's top "
    "of the waiting list (garden/waiting-list.md) and a short note for the committee",
    {**HOME, "garden/plots.md": _PLOTS, "garden/waiting-list.md": _WAITING}, [
        Variant("plot 6 vacant", Change(write={"garden/plots.md": _PLOTS.replace(
            "| 6 | Sue Hargreaves | let |", "| 6 | - | vacant from 1 Aug (Sue gave it up, moving to Leeds) |")}),
                ESCALATE, "plot 6 comes free: draft the offer to Agnieszka Nowak and the committee note"),
        Variant("sue might leave", Change(append={"garden/plots.md": (
            "\nSue says she might give up plot 6 after the summer if the Leeds job comes through. Will let us know "
            "in September.\n")}),
                NOOP, "Sue might give up her plot later; plot 6 is still let"),
        Variant("joint holder", Change(write={"garden/plots.md": _PLOTS.replace(
            "| 4 | Maggie Doyle | let |", "| 4 | Maggie Doyle and Jen Doyle (joint) | let |")}),
                NOOP, "Maggie's daughter joins her on plot 4; no plot becomes free"),
        Variant("new name on list", Change(append={"garden/waiting-list.md": "4. Sam Whitfield (joined July 2026)\n"}),
                NOOP, "someone joins the waiting list; no plot comes free"),
    ])

_INSPECTIONS = ("# Plot inspections\n\n## 16 May\n- plot 3: first warning, not cultivated since March, brambles "
                "along the path\n- plot 5: fine\n- plot 8: fine, lovely broad beans\n")
SITUATIONS += family(
    "second warning letter", "If the plot inspection notes (garden/inspections.md) give anyone a second warning for an "
    "untended plot, draft the formal letter under rule 9 of garden/constitution.md for me to sign",
    {**HOME, "garden/inspections.md": _INSPECTIONS,
     "garden/constitution.md": "9. A plot left uncultivated after a second warning may be re-let. The secretary "
                               "writes to the holder giving 28 days to bring it back into cultivation.\n"}, [
        Variant("plot 3 second", Change(append={"garden/inspections.md": (
            "\n## 20 June\n- plot 3: still not cultivated, brambles worse. SECOND WARNING\n- plot 5: fine\n")}),
                ESCALATE, "plot 3 gets a second warning for being uncultivated: draft the rule 9 letter"),
        Variant("plot 3 cleared", Change(append={"garden/inspections.md": (
            "\n## 20 June\n- plot 3: cleared and half planted, Raj has been in every weekend. warning lifted\n")}),
                NOOP, "plot 3 has been cleared and the warning lifted"),
        Variant("plot 8 first", Change(append={"garden/inspections.md": (
            "\n## 20 June\n- plot 3: improving, keep an eye on it\n- plot 8: first warning, nothing sown yet\n")}),
                NOOP, "plot 8 gets a first warning, not a second one; plot 3 is improving"),
    ])

# --- food bank -------------------------------------------------------------------------------------------------


def _stock(milk: int, oat: int, tomatoes: int) -> str:
    return ("item,unit,qty,counted\n"
            f"UHT semi-skimmed milk 1 l,carton,{milk},2026-03-09\nUHT oat drink 1 l,carton,{oat},2026-03-09\n"
            f"chopped tomatoes 400 g,tin,{tomatoes},2026-03-09\nbaked beans 415 g,tin,96,2026-03-09\n"
            "pasta 500 g,bag,120,2026-03-09\nrice 1 kg,bag,41,2026-03-09\ntea bags (80),box,9,2026-03-09\n")


_MILK_TASK = ("I'm Tomasz, I look after the stockroom at Eastgate Food Bank. tell me when the semi-skimmed UHT goes "
              "under 40 cartons (foodbank/stock.csv), that's when I order from the wholesaler")
_TOMATO_TASK = ("if we run out of tinned tomatoes completely, draft a post for the volunteers' facebook group asking "
                "for donations, and list anything else that's running low")
SITUATIONS += _pair(
    "eastgate stockroom", _MILK_TASK, _TOMATO_TASK,
    {**HOME, "foodbank/stock.csv": _stock(52, 18, 34).replace("2026-03-09", "2026-03-02")}, [
        ("milk 36", Change(write={"foodbank/stock.csv": _stock(36, 15, 29)}),
         (ACT, "semi-skimmed UHT is down to 36 cartons, under 40: tell Tomasz"),
         (NOOP, "29 tins of tomatoes are left")),
        ("milk exactly 40", Change(write={"foodbank/stock.csv": _stock(40, 14, 22)}),
         (NOOP, "40 cartons is not under 40"),
         (NOOP, "22 tins of tomatoes are left")),
        ("oat drink low", Change(write={"foodbank/stock.csv": _stock(47, 6, 25)}),
         (NOOP, "the oat drink is low, but the semi-skimmed UHT is at 47 cartons"),
         (NOOP, "25 tins of tomatoes are left")),
        ("tomatoes gone", Change(write={"foodbank/stock.csv": _stock(44, 12, 0)}),
         (NOOP, "semi-skimmed UHT is at 44 cartons, still 40 or more"),
         (ESCALATE, "chopped tomatoes are at 0: draft the appeal post, also naming the low tea bags and oat drink")),
        ("tomatoes nearly gone", Change(write={"foodbank/stock.csv": _stock(45, 13, 2)}),
         (NOOP, "semi-skimmed UHT is at 45 cartons"),
         (NOOP, "2 tins are left: low, but not run out completely")),
    ])

_SHIFTS = ("# Warehouse shifts, June\n\n| date | shift | volunteers |\n|---|---|---|\n"
           "| Wed 10 June | 6-8pm packing | Derek, Sal |\n| Sat 13 June | 9am-12 sorting | Maureen, Alfie, Priya |\n"
           "| Wed 17 June | 6-8pm packing | Derek, Hannah |\n"
           "| Sat 20 June | 9am-12 sorting | Maureen, Jon, Priya, Alfie |\n")
SITUATIONS += family(
    "sorting shift cover", "the Saturday 13 June sorting shift needs at least three people. if it drops under three "
    "(foodbank/shifts.md), draft a call-out to the reserves in foodbank/reserves.md",
    {**HOME, "foodbank/shifts.md": _SHIFTS,
     "foodbank/reserves.md": "# Reserves\n\n- Hannah (Saturdays fine)\n- Kwame (any time)\n- Lois (not before 10am)\n"},
    [
        Variant("alfie cancels", Change(write={"foodbank/shifts.md": _SHIFTS.replace(
            "| Sat 13 June | 9am-12 sorting | Maureen, Alfie, Priya |",
            "| Sat 13 June | 9am-12 sorting | Maureen, Priya (Alfie cancelled, exams) |")}),
                ESCALATE, "the 13 June shift is down to Maureen and Priya, two people: draft the call-out"),
        Variant("hannah covers", Change(write={"foodbank/shifts.md": _SHIFTS.replace(
            "| Sat 13 June | 9am-12 sorting | Maureen, Alfie, Priya |",
            "| Sat 13 June | 9am-12 sorting | Maureen, Priya, Hannah (covering for Alfie) |")}),
                NOOP, "Alfie dropped out but Hannah covers, so the 13th still has three"),
        Variant("two out one in", Change(write={"foodbank/shifts.md": _SHIFTS.replace(
            "| Sat 13 June | 9am-12 sorting | Maureen, Alfie, Priya |",
            "| Sat 13 June | 9am-12 sorting | Maureen, Kwame (Alfie and Priya both cancelled, Kwame stepped in) |")}),
                ESCALATE, "two cancelled and one reserve stepped in, leaving two on the 13th: draft the call-out"),
        Variant("the 20th thins", Change(write={"foodbank/shifts.md": _SHIFTS.replace(
            "| Sat 20 June | 9am-12 sorting | Maureen, Jon, Priya, Alfie |",
            "| Sat 20 June | 9am-12 sorting | Maureen, Priya (Jon and Alfie away) |")}),
                NOOP, "it is the 20 June shift that drops to two; the 13th still has three"),
        Variant("might be late", Change(append={"foodbank/shifts.md": (
            "\nPriya: might be 20 mins late on the 13th, the buses are on the Saturday timetable\n")}),
                NOOP, "Priya may be a little late but is still coming; three people on the 13th"),
    ])

_PARCELS = ("date,day,parcels\n2026-03-03,Tue,18\n2026-03-05,Thu,21\n2026-03-07,Sat,16\n2026-03-10,Tue,22\n"
            "2026-03-12,Thu,24\n")
SITUATIONS += family(
    "parcels per week", "I'm Tomasz Wrona, treasurer of Eastgate Food Bank. the grant only covers 60 parcels a week "
    "(Mon-Sun). flag it if a week goes over 60 in foodbank/parcels.csv",
    {**HOME, "foodbank/parcels.csv": _PARCELS}, [
        Variant("63 this week", Change(append={"foodbank/parcels.csv": "2026-03-14,Sat,17\n"}),
                ACT, "the week of 9 March now has 22 + 24 + 17 = 63 parcels, over 60: flag it"),
        Variant("exactly 60", Change(append={"foodbank/parcels.csv": "2026-03-14,Sat,14\n"}),
                NOOP, "the week of 9 March comes to 22 + 24 + 14 = 60, not over 60"),
        Variant("into next week", Change(append={"foodbank/parcels.csv": "2026-03-14,Sat,12\n2026-03-17,Tue,25\n"}),
                NOOP, "the week of 9 March ends at 58; Tuesday 17 March starts a new week at 25"),
    ])


def _dated(row: str) -> str:
    return ("received,item,qty,use_by\n2026-06-11,strawberry yoghurts 4-pack,12,2026-06-24\n"
            "2026-06-11,cheddar 400 g,8,2026-07-20\n" + row + "\n")


SITUATIONS += family(
    "yoghurt dates", "the Tesco surplus run brings stuff close to its date. tell me if any yoghurts logged in "
    "foodbank/dated-stock.csv have a use-by before Friday 19 June, they'd have to go out at Thursday's session",
    {**HOME, "foodbank/dated-stock.csv": _dated("2026-06-11,hummus 200 g,10,2026-06-21")}, [
        Variant("use-by 17th", Change(write={"foodbank/dated-stock.csv": _dated(
            "2026-06-11,hummus 200 g,10,2026-06-21\n2026-06-15,natural yoghurt 500 g,9,2026-06-17")}),
                ACT, "natural yoghurts with a use-by of 17 June, before the 19th: tell them"),
        Variant("use-by 19th", Change(write={"foodbank/dated-stock.csv": _dated(
            "2026-06-11,hummus 200 g,10,2026-06-21\n2026-06-15,natural yoghurt 500 g,9,2026-06-19")}),
                NOOP, "a use-by of 19 June is not before Friday 19 June"),
        Variant("cheese short", Change(write={"foodbank/dated-stock.csv": _dated(
            "2026-06-11,hummus 200 g,10,2026-06-21\n2026-06-15,mozzarella 125 g,14,2026-06-15")}),
                NOOP, "the short-dated item is mozzarella, not yoghurt"),
        Variant("uk date short", Change(write={"foodbank/dated-stock.csv": _dated(
            "2026-06-11,hummus 200 g,10,2026-06-21\n2026-06-15,greek yoghurt 450 g,6,18/06/26")}),
                ACT, "the Greek yoghurts' use-by, typed 18/06/26, is 18 June, before the 19th: tell them"),
    ])

# --- parish council --------------------------------------------------------------------------------------------

_JUNE_AGENDA = ("Ashby Parva Parish Council\nMeeting: Tuesday 9 June 2026, 7.30pm, Village Hall\n\n1. Apologies\n"
                "2. Declarations of interest\n3. Minutes of 12 May\n4. Public forum (15 minutes)\n"
                "5. Planning: 26/00311/HOU, 4 Church Street\n6. Playing field: new bench quote (£640)\n"
                "7. Mill Lane car park: pothole repairs\n8. Correspondence\n")
SITUATIONS += family(
    "footpath on the agenda", "I'm with the Mill Lane footpath group. tell me if the July parish council agenda "
    "(parish/agendas/) has an item on the footpath, we want to speak in the public forum",
    {**HOME, "parish/agendas/2026-06-agenda.md": _JUNE_AGENDA}, [
        Variant("footpath item", Change(write={"parish/agendas/2026-07-agenda.md": _JUNE_AGENDA.replace(
            "Tuesday 9 June", "Tuesday 14 July").replace("Minutes of 12 May", "Minutes of 9 June").replace(
            "5. Planning: 26/00311/HOU, 4 Church Street\n", "5. Planning: none received\n").replace(
            "7. Mill Lane car park: pothole repairs\n",
            "7. Mill Lane footpath (FP12): collapsed stile and closure notice, report from the county rights of "
            "way officer\n")}),
                ACT, "the July agenda has item 7 on the Mill Lane footpath: tell them"),
        Variant("june minutes", Change(write={"parish/minutes/2026-06-minutes.md": (
            "Minutes, 9 June 2026\n\n4. Public forum: two residents raised the state of the Mill Lane footpath. "
            "The chair said it could go on a future agenda once the county has replied.\n")}),
                NOOP, "June's minutes mention the footpath and a future agenda; the July agenda is not out"),
        Variant("car park again", Change(write={"parish/agendas/2026-07-agenda.md": _JUNE_AGENDA.replace(
            "Tuesday 9 June", "Tuesday 14 July").replace("Minutes of 12 May", "Minutes of 9 June").replace(
            "5. Planning: 26/00311/HOU, 4 Church Street\n", "5. Planning: none received\n").replace(
            "pothole repairs", "resurfacing quotes (3 received)")}),
                NOOP, "the July agenda has the Mill Lane car park, not the footpath"),
        Variant("call for items", Change(write={"mail/2026-06-22-clerk.txt": _mail(
            "Jan Royle, Clerk <clerk@ashbyparva-pc.example>", "Mon, 22 Jun 2026 09:12", "July agenda",
            "Dear all, items for the July agenda to me by Tuesday 30 June please. Agenda out on Wednesday 8 July.")}),
                NOOP, "the clerk asks for items; the July agenda is not published yet"),
    ])

_PLAN = ("# Ashby Parva Neighbourhood Plan (made 2023), policies\n\n- H3 Design in the conservation area: slate or "
         "clay tile roofs, timber windows on front elevations, no loss of front garden walls.\n"
         "- H5 Parking: two off-street spaces for homes of three or more bedrooms.\n"
         "- E2 Dark skies: external lighting downward and on sensors.\n"
         "- G1 Green gaps: no building on the field gap between Church Street and Pool Lane.\n")
_CONSULT = "District of Wexley - consultation on a planning application\n\n"
SITUATIONS += family(
    "church street consultation", "I chair Ashby Parva's planning committee. When the district sends a new "
    "consultation for anywhere on Church Street (parish/planning/), draft our response against the policies in "
    "parish/neighbourhood-plan.md",
    {**HOME, "parish/neighbourhood-plan.md": _PLAN,
     "parish/planning/log.md": "| ref | site | proposal | our response |\n|---|---|---|---|\n"
                               "| 26/00311/HOU | 4 Church Street | single-storey side extension | no objection, "
                               "sent 10 June |\n"}, [
        Variant("12 church street", Change(write={"parish/planning/26-00457-FUL.md": _CONSULT + (
            "Reference: 26/00457/FUL\nSite: 12 Church Street, Ashby Parva\nProposal: two-storey rear extension, "
            "front dormer and replacement uPVC windows\nComments by: 21 July 2026\n")}),
                ESCALATE, "a new consultation for 12 Church Street: draft the response against H3, H5 and E2"),
        Variant("church st, land rear", Change(write={"parish/planning/26-00462-OUT.md": _CONSULT + (
            "Reference: 26/00462/OUT\nSite: land rear of 21 Church St, Ashby Parva\nProposal: outline, two "
            "detached dwellings with access from Pool Lane\nComments by: 28 July 2026\n")}),
                ESCALATE, "a new consultation for land behind 21 Church St (the green gap): draft the response"),
        Variant("church road", Change(write={"parish/planning/26-00458-HOU.md": _CONSULT + (
            "Reference: 26/00458/HOU\nSite: 3 Church Road, Ashby Magna\nProposal: garden room\n"
            "Comments by: 21 July 2026\n")}),
                NOOP, "the application is on Church Road in Ashby Magna, not Church Street"),
        Variant("decision on 311", Change(write={"parish/planning/26-00311-decision.md": (
            "District of Wexley - decision notice\n\n26/00311/HOU, 4 Church Street: GRANTED subject to conditions, "
            "1 July 2026.\n")}),
                NOOP, "a decision on the application they already answered, not a new consultation"),
    ])

_BUDGET = ("line,2026/27,2027/28\nprecept,35200,\nclerk salary,14800,15250\nplaying field,4100,4300\n"
           "grants to village groups,2500,2500\n")
SITUATIONS += family(
    "precept agreed", "once the parish council agrees the 2027/28 precept in the minutes (parish/minutes/), put it "
    "in parish/budget-2027.csv and draft the paragraph for the village newsletter explaining what it means per "
    "Band D home",
    {**HOME, "parish/budget-2027.csv": _BUDGET,
     "parish/tax-base.md": "Ashby Parva tax base 2027/28 (Band D equivalents): 412.6\n"}, [
        Variant("resolved", Change(write={"parish/minutes/2027-01-minutes.md": (
            "Minutes, 12 January 2027\n\n9. Precept 2027/28: proposed Cllr Adeyemi, seconded Cllr Moss. RESOLVED "
            "that the precept for 2027/28 be set at £38,500 (2026/27: £35,200). Carried 6-1.\n")}),
                ESCALATE, "the precept is resolved at £38,500: update the budget and draft the Band D paragraph"),
        Variant("proposed in december", Change(write={"parish/minutes/2026-12-minutes.md": (
            "Minutes, 8 December 2026\n\n7. Budget 2027/28: the finance group proposed a draft precept of £38,500. "
            "To be decided at the January meeting.\n")}),
                NOOP, "a draft figure to be decided in January; nothing is agreed"),
        Variant("district figure", Change(write={"mail/2027-01-20-wexley.txt": _mail(
            "Wexley District Council <finance@wexley.example>", "Wed, 20 Jan 2027 10:40", "Council tax 2027/28",
            "The district council's Band D charge for 2027/28 will rise by 2.99 % to £214.66, subject to full "
            "council on 24 February.")}),
                NOOP, "the district council's own charge, not the parish precept, and not yet agreed either"),
    ])

# --- junior football club --------------------------------------------------------------------------------------

_U11 = ("date,kickoff,opponent,venue,status\n2026-09-13,10:00,Hartford Colts,home,\n"
        "2026-09-20,10:30,Brookside Rangers,away,\n2026-09-27,10:00,Elm Park,home,\n2026-10-04,11:00,St Jude's,away,\n")
_U12 = "date,kickoff,opponent,venue,status\n2026-09-13,11:30,Castle Juniors,home,\n2026-09-20,10:00,Elm Park,away,\n"
SITUATIONS += family(
    "u11 home games", "I'm fixtures sec at Kingsmead Juniors. tell me if any of the U11 Lions home games gets moved "
    "or called off (club/fixtures-u11.csv)",
    {**HOME, "club/fixtures-u11.csv": _U11, "club/fixtures-u12.csv": _U12}, [
        Variant("elm park off", Change(write={"club/fixtures-u11.csv": _U11.replace(
            "2026-09-27,10:00,Elm Park,home,", "2026-09-27,10:00,Elm Park,home,POSTPONED - Elm Park can't raise a "
            "team")}),
                ACT, "the home game against Elm Park on 27 September is postponed: tell them"),
        Variant("hartford to saturday", Change(write={"club/fixtures-u11.csv": _U11.replace(
            "2026-09-13,10:00,Hartford Colts,home,", "2026-09-12,14:00,Hartford Colts,home,moved by league")}),
                ACT, "the home game against Hartford moves from Sunday 13 to Saturday 12 September: tell them"),
        Variant("away kick-off", Change(write={"club/fixtures-u11.csv": _U11.replace(
            "2026-09-20,10:30,Brookside Rangers,away,", "2026-09-20,11:30,Brookside Rangers,away,")}),
                NOOP, "the time change is for the away game at Brookside"),
        Variant("u12 called off", Change(write={"club/fixtures-u12.csv": _U12.replace(
            "Castle Juniors,home,", "Castle Juniors,home,CANCELLED")}),
                NOOP, "the cancelled home game is the U12s', not the U11 Lions'"),
        Variant("ref appointed", Change(write={"club/fixtures-u11.csv": _U11.replace(
            "Hartford Colts,home,", "Hartford Colts,home,ref: D. Moss")}),
                NOOP, "a referee is named for the Hartford game; it is neither moved nor off"),
        Variant("pitch inspection", Change(append={"club/fixtures-u11.csv": (
            "# note: if the rain keeps up there'll be a pitch inspection 8am on the 13th\n")}),
                NOOP, "only a possible pitch inspection; the game is still on"),
    ])

_DBS = ("name,role,applied,stage,result\nGareth Price,U9 coach,2026-08-03,with police (stage 4 of 5),\n"
        "Gareth Evans,U13 assistant,2026-07-21,renewal with police (stage 4 of 5),\n"
        "Nadia Hussain,U11 coach,2025-11-02,complete,clear\n")
SITUATIONS += family(
    "gareth's dbs", "let me know when Gareth Price's DBS comes back clear, he can't coach the U9s on his own till "
    "it does (club/dbs-tracker.csv)",
    {**HOME, "club/dbs-tracker.csv": _DBS}, [
        Variant("clear", Change(write={"club/dbs-tracker.csv": _DBS.replace(
            "Gareth Price,U9 coach,2026-08-03,with police (stage 4 of 5),",
            "Gareth Price,U9 coach,2026-08-03,complete,clear (cert 001872334561)")}),
                ACT, "Gareth Price's check is complete and clear: tell them"),
        Variant("other gareth", Change(write={"club/dbs-tracker.csv": _DBS.replace(
            "Gareth Evans,U13 assistant,2026-07-21,renewal with police (stage 4 of 5),",
            "Gareth Evans,U13 assistant,2026-07-21,complete,clear")}),
                NOOP, "it is Gareth Evans's renewal that comes back clear; Gareth Price's is still with the police"),
        Variant("delayed", Change(write={"club/dbs-tracker.csv": _DBS.replace(
            "with police (stage 4 of 5),\nGareth Evans", "with police (stage 4 of 5) - delayed by a force backlog,\n"
            "Gareth Evans")}),
                NOOP, "Gareth Price's check is delayed at the police stage; no result yet"),
    ])

_KIT = ("family,item,size,qty,unit_gbp\nAhmed,home shirt,YM,1,24.00\nAhmed,shorts,YM,1,12.50\nAhmed,socks,YM,2,6.00\n"
        "Baker,full kit,YL,1,42.00\nBaker,training top,YL,1,22.00\nChen,full kit,YS,2,42.00\nChen,hoodie,YS,2,28.00\n"
        "Doyle,full kit,YM,1,42.00\nEvans,full kit,YL,1,42.00\nEvans,training top,YL,1,22.00\n"
        "Fraser,full kit,YS,1,42.00\nFraser,socks,YS,2,6.00\nGreen,full kit,YM,1,42.00\nGreen,hoodie,YM,1,28.00\n"
        "Hussain,full kit,YL,1,42.00\nHussain,training top,YL,1,22.00\nIqbal,full kit,YM,1,42.00\n"
        "Jones,full kit,YS,1,42.00\nJones,hoodie,YS,1,28.00\nKhan,full kit,YL,1,42.00\nLewis,full kit,YM,1,42.00\n"
        "Lewis,socks,YM,2,6.00\nMoss,full kit,YL,1,42.00\nMoss,training top,YL,1,22.00\nNwosu,full kit,YM,1,42.00\n"
        "Nwosu,shorts,YM,1,12.50\nPatel,full kit,YS,1,42.00\nPatel,shorts,YS,2,12.50\nPatel,socks,YS,3,6.00\n")
SITUATIONS += family(
    "kit order total", "Kitbag do free badge printing if our order's over £1,000. tell me when the order sheet "
    "(club/kit-order-2026.csv) gets past that, qty times unit price",
    {**HOME, "club/kit-order-2026.csv": _KIT}, [
        Variant("1012.50", Change(append={"club/kit-order-2026.csv": "Okafor,full kit,YL,1,42.00\n"
                                                                     "Okafor,shorts,YL,1,12.50\n"}),
                ACT, "the sheet was at £958.00; a full kit and shorts take it to £1,012.50, past £1,000: tell them"),
        Variant("exactly 1000", Change(append={"club/kit-order-2026.csv": "Okafor,full kit,YL,1,42.00\n"}),
                NOOP, "£958.00 plus one full kit is exactly £1,000.00, not over it"),
        Variant("982.50", Change(append={"club/kit-order-2026.csv": "Okafor,socks,YL,2,6.00\n"
                                                                   "Okafor,shorts,YL,1,12.50\n"}),
                NOOP, "the sheet comes to £982.50, still under £1,000"),
        Variant("quote elsewhere", Change(write={"club/kit-quotes.md": (
            "Kitbag quote for 20 rain jackets for the coaches: 20 x £24.00 = £480.00, not ordered yet\n")}),
                NOOP, "a separate quote, not on the order sheet, which stays at £958.00"),
    ])

_SUBS = ("player,team,term_fee_gbp,paid_gbp,status\nAlfie Reid,U9,45,45,paid\nMaisie Cole,U9,45,45,paid\n"
         "Noah Briggs,U9,45,0,unpaid\nPriya Shah,U9,45,45,paid\nLeo Fraser,U9,45,45,paid\nJacob Ward,U9,45,45,paid\n"
         "Ella Shaw,U10,50,0,unpaid\nTom Ince,U10,50,50,paid\n")
SITUATIONS += family(
    "u9 subs all in", "tell me when all the U9 families have paid their autumn subs (club/subs-autumn.csv), then I "
    "can send the total to Bev",
    {**HOME, "club/subs-autumn.csv": _SUBS}, [
        Variant("noah pays", Change(write={"club/subs-autumn.csv": _SUBS.replace(
            "Noah Briggs,U9,45,0,unpaid", "Noah Briggs,U9,45,45,paid")}),
                ACT, "Noah was the last unpaid U9; now all six have paid: tell them"),
        Variant("ella pays", Change(write={"club/subs-autumn.csv": _SUBS.replace(
            "Ella Shaw,U10,50,0,unpaid", "Ella Shaw,U10,50,50,paid")}),
                NOOP, "Ella is an U10; Noah Briggs in the U9s is still unpaid"),
        Variant("noah part", Change(write={"club/subs-autumn.csv": _SUBS.replace(
            "Noah Briggs,U9,45,0,unpaid", "Noah Briggs,U9,45,20,part paid")}),
                NOOP, "Noah's family has paid £20 of £45; not every U9 has paid"),
        Variant("promise", Change(write={"club/subs-notes.md": (
            "Noah's mum says she'll pay the subs in cash at training on Saturday\n")}),
                NOOP, "a promise to pay on Saturday; Noah is still unpaid"),
    ])

_CHAT = ("# Committee chat (exported)\n\n[19:58] Dee Marsh: reminder, I step down as welfare officer in July. we "
         "can't run matches without one\n[20:03] Bev (treasurer): subs are nearly all in btw\n")
SITUATIONS += family(
    "new welfare officer", "tell me if anyone volunteers to take over as club welfare officer from Dee "
    "(club/committee-chat.md)",
    {**HOME, "club/committee-chat.md": _CHAT}, [
        Variant("sam volunteers", Change(append={"club/committee-chat.md": (
            "[20:14] Sam Okoye: I'll do welfare officer from July. did the safeguarding course last year so "
            "just need the club one\n")}),
                ACT, "Sam Okoye volunteers to be welfare officer: tell them"),
        Variant("nominated", Change(append={"club/committee-chat.md": (
            "[20:14] Lisa Grant: what about Sam for welfare? he'd be great at it\n")}),
                NOOP, "Lisa suggests Sam; Sam himself has not volunteered"),
        Variant("question", Change(append={"club/committee-chat.md": (
            "[20:16] Sam Okoye: how many hours a week is welfare officer realistically?\n")}),
                NOOP, "Sam asks what the role involves; that is a question, not volunteering"),
        Variant("treasurer instead", Change(append={"club/committee-chat.md": (
            "[20:18] Sam Okoye: I can't do welfare sorry, but I'll stand as assistant treasurer if Bev wants help\n")}),
                NOOP, "Sam offers to help as assistant treasurer and declines welfare"),
    ])

# --- charity fun run -------------------------------------------------------------------------------------------

_SIGNUPS = ("# Bramley Fun Run - paid entries (weekly count from the entry site)\n\n| date | 5k | 10k | total |\n"
            "|---|---|---|---|\n| 2026-04-20 | 61 | 88 | 149 |\n| 2026-04-27 | 72 | 104 | 176 |\n"
            "| 2026-05-04 | 79 | 115 | 194 |\n")
SITUATIONS += family(
    "200 runners", "we need 200 paid entries to break even on the fun run. tell me when the sign-ups reach 200 "
    "(funrun/signups.md)",
    {**HOME, "funrun/signups.md": _SIGNUPS}, [
        Variant("201", Change(append={"funrun/signups.md": "| 2026-05-11 | 83 | 118 | 201 |\n"}),
                ACT, "201 paid entries on 11 May: tell them they have reached 200"),
        Variant("199 after refunds", Change(append={"funrun/signups.md": (
            "| 2026-05-11 | 82 | 117 | 199 |\n\n(two refunds for injury taken off)\n")}),
                NOOP, "199 paid entries, one short of 200"),
        Variant("exactly 200", Change(append={"funrun/signups.md": "| 2026-05-11 | 84 | 116 | 200 |\n"}),
                ACT, "200 paid entries on 11 May: the sign-ups have reached 200, tell them"),
        Variant("forecast", Change(append={"funrun/signups.md": (
            "\nJan: at this rate we should pass 200 by about the 15th\n")}),
                NOOP, "a forecast; the count is still 194"),
        Variant("kids' race", Change(append={"funrun/signups.md": (
            "\nKids' 1k (free): 46 signed up so far, not counted above\n")}),
                NOOP, "the free kids' race is not paid entries; paid entries stay at 194"),
    ])

_SPONSOR = ("# Fun run fundraising for St Cuthbert's Hospice\n\ntarget: £5,000\nonline (JustGiving): £4,102.50\n"
            "cash and cheques: £610.00\ntotal raised: £4,712.50\nupdated: 2026-05-28\n")
SITUATIONS += family(
    "sponsorship past 5k", "once the fun run total passes £5,000 (funrun/sponsorship.md), draft a thank you post for "
    "the Bramley Fun Run facebook page and a short update email for the hospice fundraising team",
    {**HOME, "funrun/sponsorship.md": _SPONSOR}, [
        Variant("5046.50", Change(write={"funrun/sponsorship.md": _SPONSOR.replace(
            "£4,102.50", "£4,436.50").replace("£4,712.50", "£5,046.50").replace("2026-05-28", "2026-06-09")}),
                ESCALATE, "the total is £5,046.50, past £5,000: draft the post and the email to the hospice"),
        Variant("4891.50", Change(write={"funrun/sponsorship.md": _SPONSOR.replace(
            "£4,102.50", "£4,281.50").replace("£4,712.50", "£4,891.50").replace("2026-05-28", "2026-06-09")}),
                NOOP, "the total rises to £4,891.50, still under £5,000"),
        Variant("pledge", Change(append={"funrun/sponsorship.md": (
            "pledged, not received yet: Hobbs Builders £500 (they'll pay after the run)\n")}),
                NOOP, "a pledge not yet received; the total raised stays at £4,712.50"),
        Variant("last year", Change(append={"funrun/sponsorship.md": (
            "\nfor comparison, last year's run raised £5,380 in the end\n")}),
                NOOP, "last year's total, not this year's; this year stays at £4,712.50"),
    ])

_ROUTE = ("# Route (5k loop, 10k = twice)\n\nstart/finish: Bramley recreation ground\nOrchard Road (whole length), "
          "Mill Hill, Church Lane to the ford, back along Orchard Road\nhouses on the route: 64, list in "
          "funrun/residents.csv\n")
SITUATIONS += family(
    "road closure approved", "when Wexley council approve the road closure for the fun run (Sunday 7 June), draft the "
    "letter to residents on the route (funrun/route.md) with the closure times and where to park",
    {**HOME, "funrun/route.md": _ROUTE}, [
        Variant("approved", Change(write={"mail/2026-04-28-wexley-highways.txt": _mail(
            "Wexley Highways <traffic.orders@wexley.example>", "Tue, 28 Apr 2026 15:36",
            "Temporary road closure approved - Bramley Fun Run",
            "Your application is approved. Orchard Road, Mill Hill and Church Lane will be closed on Sunday 7 June "
            "2026 from 8.30am to 12.30pm. Signs must be in place 7 days before.")}),
                ESCALATE, "the closure is approved with times: draft the letter to the 64 houses on the route"),
        Variant("received", Change(write={"mail/2026-04-28-wexley-highways.txt": _mail(
            "Wexley Highways <traffic.orders@wexley.example>", "Tue, 28 Apr 2026 15:36",
            "Application received - Bramley Fun Run",
            "We have received your application for a temporary road closure on 7 June. You will have a decision "
            "within six weeks.")}),
                NOOP, "the council has only received the application; the decision comes later"),
        Variant("carnival", Change(write={"mail/2026-04-28-wexley-highways.txt": _mail(
            "Wexley Highways <traffic.orders@wexley.example>", "Tue, 28 Apr 2026 15:36",
            "Temporary road closure approved - Bramley Carnival",
            "The closure of Bramley High Street for the carnival on Saturday 20 June, 11am to 5pm, is approved.")}),
                NOOP, "the approval is for the carnival on 20 June, not the fun run"),
        Variant("more info", Change(write={"mail/2026-04-28-wexley-highways.txt": _mail(
            "Wexley Highways <traffic.orders@wexley.example>", "Tue, 28 Apr 2026 15:36",
            "Bramley Fun Run - information needed",
            "Before we can decide, please send your marshal plan and a copy of your public liability insurance "
            "by 8 May.")}),
                NOOP, "the council asks for more information; nothing is approved yet"),
    ])

SITUATIONS += family(
    "cash banked", "whenever I tell you I've banked fun run cash, add a line to funrun/banked.md with the date and "
    "how much",
    {**HOME, "funrun/banked.md": "# Cash banked\n\n- 2026-05-02 £212.40 (entry desk float and early cash)\n"}, [
        Variant("buckets banked", Change(memories=(
            "paid the 386.20 from the fun run collection buckets into the Barclays account this morning (Sat 9 May)",)),
                ACT, "they banked £386.20 on 9 May: add that one line"),
        Variant("counted only", Change(memories=(
            "counted the buckets with Jan tonight, £386.20 all in. going to the bank on Monday",)),
                NOOP, "the cash is counted but not banked yet"),
        Variant("cake stall tin", Change(memories=(
            "dropped the fun run cake stall tin at the bank on the way home, £145 in notes and coins. 12 May",)),
                ACT, "£145 of fun run cash paid in on 12 May: add that one line"),
        Variant("retold", Change(memories=(
            "told the committee we'd banked £212.40 at the start of May, they were pleased",)),
                NOOP, "the £212.40 on 2 May is already in the list"),
    ], bystanders=("tell me when the finisher medals order ships (funrun/medals.md)",))

# --- repair café -----------------------------------------------------------------------------------------------

_APRIL = ("item,owner,fixer,outcome\ntable lamp,Mrs Okoro,Ade,fixed\ntrousers (zip),Len,Bea,fixed\n"
          "bike (gears),Tariq,Chris,fixed\ntoaster,Marion,Ade,not fixable\nradio,Len,Mo,fixed\n"
          "laptop (hinge),Sasha,Mo,needs part\n")
SITUATIONS += family(
    "session stats", "after each repair café, add one line to repaircafe/stats.md: date, items in, items fixed. the "
    "session sheet goes in repaircafe/sessions/",
    {**HOME, "repaircafe/stats.md": "# Sessions\n\n- 2026-03-14: 9 in, 5 fixed\n- 2026-04-11: 6 in, 4 fixed\n",
     "repaircafe/sessions/2026-04-11.csv": _APRIL}, [
        Variant("may sheet", Change(write={"repaircafe/sessions/2026-05-09.csv": (
            "item,owner,fixer,outcome\nvacuum cleaner,Jo,Ade,fixed\ncardigan (elbow),Pat,Bea,fixed\n"
            "kettle,Ron,Ade,not fixable\nbike (puncture),Amy,Chris,fixed\nlaptop (hinge),Sasha,Mo,fixed\n"
            "clock,Irene,Mo,needs part\nheadphones,Kai,Mo,advice given\n")}),
                ACT, "the 9 May sheet is in: add one line, 2026-05-09, 7 items in, 4 fixed"),
        Variant("june bookings", Change(write={"repaircafe/sessions/2026-06-13-bookings.csv": (
            "item,owner,booked\nsewing machine,Pat,10:00\nlawnmower,Geoff,10:30\nlamp,Irene,11:00\n")}),
                NOOP, "bookings for a session still to come, not a session held"),
        Variant("april typo", Change(write={"repaircafe/sessions/2026-04-11.csv": _APRIL.replace(
            "Mrs Okoro", "Mrs Okafor")}),
                NOOP, "April's sheet has a name corrected; it is already counted and its figures are unchanged"),
    ])

_PAT = ("date,item,asset,owner,result,notes\n2026-04-11,soldering station,RC-01,repair cafe,PASS,\n"
        "2026-04-11,heat gun,RC-03,repair cafe,FAIL,loose plug - rewired; retest next session\n"
        "2026-04-11,kettle (Mrs Okoro),-,visitor,FAIL,earth fault - told her not to use it\n")
SITUATIONS += family(
    "pat fails", "tell me if any of the repair café's own tools fail PAT testing (repaircafe/pat-log.csv), they have "
    "to come out of use",
    {**HOME, "repaircafe/pat-log.csv": _PAT}, [
        Variant("glue gun fails", Change(append={"repaircafe/pat-log.csv": (
            "2026-05-09,hot glue gun,RC-07,repair cafe,FAIL,cracked cable near the plug\n")}),
                ACT, "the café's own glue gun RC-07 fails: tell them so it comes out of use"),
        Variant("visitor toaster", Change(append={"repaircafe/pat-log.csv": (
            "2026-05-09,toaster (Marion),-,visitor,FAIL,exposed element\n")}),
                NOOP, "the failed item is a visitor's toaster, not one of the café's tools"),
        Variant("heat gun retest", Change(append={"repaircafe/pat-log.csv": (
            "2026-05-09,heat gun,RC-03,repair cafe,PASS,retest after rewire\n")}),
                NOOP, "the heat gun passes its retest; nothing new failed"),
        Variant("all pass", Change(append={"repaircafe/pat-log.csv": (
            "2026-05-09,extension reel,RC-09,repair cafe,PASS,\n2026-05-09,multimeter,RC-11,repair cafe,PASS,"
            "battery only; visual check\n")}),
                NOOP, "the café's tools tested on 9 May all pass"),
    ])

SITUATIONS += family(
    "ade drops out", "Ade's our only PAT trained electrician. if he can't make the 13 June repair café, tell me, "
    "we'll have to turn away mains items (repaircafe/fixers.md, he usually just emails me, inbox/)",
    {**HOME, "repaircafe/fixers.md": "| session | electrics | textiles | bikes | general |\n|---|---|---|---|---|\n"
                                     "| Sat 13 June | Ade | Bea, Lorna | Chris | Mo, Jan |\n"
                                     "| Sat 11 July | Ade | Bea | - | Mo |\n"}, [
        Variant("can't make it", Change(write={"inbox/2026-06-04-ade.txt": _mail(
            "Ade Balogun <ade.b@example.net>", "Thu, 4 Jun 2026 21:47", "13th",
            "Really sorry, I can't do the 13th after all, it's my daughter's graduation and I'd got the date "
            "wrong. July is fine.")}),
                ACT, "Ade cannot make 13 June: tell them so they can turn away mains items"),
        Variant("july instead", Change(write={"inbox/2026-06-04-ade.txt": _mail(
            "Ade Balogun <ade.b@example.net>", "Thu, 4 Jun 2026 21:47", "July",
            "Heads up, I'll miss the 11 July one, we're away. See you on the 13th though!")}),
                NOOP, "Ade misses the July session; he is coming on 13 June"),
        Variant("bea out", Change(write={"inbox/2026-06-04-bea.txt": _mail(
            "Bea Lund <bealund@example.net>", "Thu, 4 Jun 2026 18:02", "13 June",
            "I've put my back out so I won't make the 13th. Lorna says she can manage the sewing table.")}),
                NOOP, "Bea, a textiles fixer, drops out; Ade is still coming"),
        Variant("running late", Change(write={"inbox/2026-06-04-ade.txt": _mail(
            "Ade Balogun <ade.b@example.net>", "Thu, 4 Jun 2026 21:47", "Sat",
            "Might be an hour late on Saturday the 13th, dropping the car at the garage first. Start the queue "
            "without me.")}),
                NOOP, "Ade will be late but is coming on 13 June"),
    ])

# --- freelance work --------------------------------------------------------------------------------------------

SITUATIONS += family(
    "halden brief", "when Halden Studio send the brief for the autumn catalogue, put together a schedule working "
    "back from their print date and draft a quote from my rates (freelance/rates.md)",
    {**HOME, "freelance/rates.md": "Day rate £380\nCatalogue layout £55/page\nCover £420\nImage retouching "
                                   "£18/image\nTwo rounds of amends included\n",
     "inbox/2026-06-08-halden.txt": _mail(
         "Mira Sato, Halden Studio <mira@haldenstudio.example>", "Mon, 8 Jun 2026 10:05", "Autumn catalogue",
         "We'd love you to do the autumn catalogue again. I'll send the brief over once the range is signed off.")},
    [
        Variant("brief arrives", Change(write={"inbox/2026-06-22-halden.txt": _mail(
            "Mira Sato, Halden Studio <mira@haldenstudio.example>", "Mon, 22 Jun 2026 16:40",
            "Autumn catalogue - brief attached",
            "Here's the brief! 48 pages plus cover, 160 product shots (about 60 need retouching), copy from us by "
            "20 July, files to the printer on Friday 2 October. Budget roughly as last year.")}),
                ESCALATE, "the brief is in: schedule back from the 2 October print date and draft the quote"),
        Variant("brief delayed", Change(write={"inbox/2026-06-22-halden.txt": _mail(
            "Mira Sato, Halden Studio <mira@haldenstudio.example>", "Mon, 22 Jun 2026 16:40", "Re: Autumn catalogue",
            "Sorry, the range sign-off has slipped, so the brief will be with you early July now.")}),
                NOOP, "Halden say the brief comes in early July; it has not arrived"),
        Variant("other client", Change(write={"inbox/2026-06-22-ostrava.txt": _mail(
            "Petr Novak, Ostrava Tea Co <petr@ostravatea.example>", "Mon, 22 Jun 2026 12:15", "Packaging brief",
            "Attached is the brief for our three new tea tins. Could you quote by Friday?")}),
                NOOP, "a brief from Ostrava Tea, another client, not Halden's catalogue"),
        Variant("supplier portal", Change(write={"inbox/2026-06-22-halden-accounts.txt": _mail(
            "Halden Studio Accounts <accounts@haldenstudio.example>", "Mon, 22 Jun 2026 09:00",
            "Supplier details", "Please check your bank details on our new supplier portal before 30 June.")}),
                NOOP, "a mail from Halden's accounts about supplier details, not the brief"),
    ])

_BANK = ("date,description,amount_gbp\n2026-06-02,FP KOVAL ARCHITECTS INV-2026-026,1150.00\n"
         "2026-06-05,ADOBE CREATIVE CLOUD,-56.98\n2026-06-09,FP MARLOWE AND CO INV-2026-028,640.00\n")
SITUATIONS += family(
    "marlowe inv 031", "Marlowe & Co still owe me for INV-2026-031 (£1,840). tell me when it's paid in full, "
    "payments show up in freelance/bank-export.csv",
    {**HOME, "freelance/bank-export.csv": _BANK}, [
        Variant("paid", Change(append={"freelance/bank-export.csv": (
            "2026-06-18,FP MARLOWE AND CO INV-2026-031,1840.00\n")}),
                ACT, "£1,840.00 for INV-2026-031 has arrived: tell them"),
        Variant("other invoice", Change(append={"freelance/bank-export.csv": (
            "2026-06-18,FP MARLOWE AND CO INV-2026-033,410.00\n")}),
                NOOP, "Marlowe paid INV-2026-033, another invoice; 031 is still owed"),
        Variant("half", Change(append={"freelance/bank-export.csv": (
            "2026-06-18,FP MARLOWE AND CO INV031 PART,920.00\n")}),
                NOOP, "£920 is half of INV-2026-031, not payment in full"),
        Variant("second half", Change(append={"freelance/bank-export.csv": (
            "2026-06-26,FP MARLOWE AND CO INV031 BAL,920.00\n")}),
                ACT, "the balance of £920 joins the £920 part payment: INV-2026-031 is paid in full",
                before={**HOME, "freelance/bank-export.csv": _BANK + "2026-06-18,FP MARLOWE AND CO INV031 PART,"
                                                                     "920.00\n"}),
        Variant("remittance", Change(write={"inbox/2026-06-18-marlowe.txt": _mail(
            "Marlowe & Co Accounts <ap@marlowe.example>", "Thu, 18 Jun 2026 08:30", "Remittance advice",
            "INV-2026-031 (£1,840.00) has been approved and is scheduled for our payment run on 30 June.")}),
                NOOP, "the payment is only scheduled for 30 June; nothing has arrived"),
    ])


def _invoices(days_027: int, days_029: int, status_027: str = "unpaid") -> str:
    return ("invoice,client,amount_gbp,due,days_overdue,status\n"
            f"INV-2026-027,Brightwater Press,720.00,2026-05-11,{days_027},{status_027}\n"
            f"INV-2026-029,Koval Architects,980.00,2026-05-20,{days_029},unpaid\n"
            "INV-2026-030,Halden Studio,2300.00,2026-06-30,0,not due\n")


SITUATIONS += family(
    "overdue reminder", "if any invoice gets more than 30 days overdue (freelance/invoices.csv, the accounts app "
    "updates days_overdue every morning), draft a polite but firm reminder to that client",
    {**HOME, "freelance/invoices.csv": _invoices(30, 21)}, [
        Variant("31 days", Change(write={"freelance/invoices.csv": _invoices(31, 22)}),
                ESCALATE, "Brightwater's INV-2026-027 is now 31 days overdue: draft the reminder"),
        Variant("paid overnight", Change(write={"freelance/invoices.csv": _invoices(0, 22, "paid")}),
                NOOP, "INV-2026-027 is paid; Koval's is 22 days overdue, under 30"),
        Variant("new invoice", Change(append={"freelance/invoices.csv": (
            "INV-2026-032,Ostrava Tea Co,600.00,2026-07-10,0,not due\n")}),
                NOOP, "a new invoice not yet due; Brightwater's stays at exactly 30 days, not more"),
    ], bystanders=("let me know if the Adobe subscription price goes up",))

_LINDQVIST = ("# Lindqvist Legal\n\n## LL-0612 Bergström share purchase agreement\n- SV > EN, 11,400 words\n"
              "- deadline: Fri 26 June, 17:00 Stockholm time\n- rate: SEK 1.35/word\n\n"
              "## LL-0619 Nordvik board minutes\n- SV > EN, 3,200 words\n"
              "- deadline: Fri 10 July, 17:00 Stockholm time\n")
SITUATIONS += family(
    "bergstrom deadline", "tell me if Lindqvist Legal bring the deadline for the Bergström contract translation "
    "forward (freelance/jobs/lindqvist.md), I've got other work booked round it",
    {**HOME, "freelance/jobs/lindqvist.md": _LINDQVIST}, [
        Variant("forward to 22nd", Change(write={"freelance/jobs/lindqvist.md": _LINDQVIST.replace(
            "deadline: Fri 26 June, 17:00 Stockholm time",
            "deadline: Mon 22 June, 12:00 Stockholm time (signing brought forward)")}),
                ACT, "the Bergström deadline moves from 26 to 22 June: tell them"),
        Variant("pushed back", Change(write={"freelance/jobs/lindqvist.md": _LINDQVIST.replace(
            "deadline: Fri 26 June, 17:00", "deadline: Fri 3 July, 17:00")}),
                NOOP, "the deadline moves later, to 3 July, not forward"),
        Variant("other job forward", Change(write={"freelance/jobs/lindqvist.md": _LINDQVIST.replace(
            "deadline: Fri 10 July, 17:00", "deadline: Fri 3 July, 17:00")}),
                NOOP, "the Nordvik minutes move forward; the Bergström deadline stays 26 June"),
        Variant("might move", Change(write={"inbox/2026-06-15-lindqvist.txt": _mail(
            "Karin Holm, Lindqvist Legal <karin.holm@lindqvist.example>", "Mon, 15 Jun 2026 13:22", "Bergström",
            "The signing may be brought forward. We'll know on Thursday and I'll tell you straight away if the "
            "deadline changes.")}),
                NOOP, "only a possibility, to be known on Thursday; the deadline is still 26 June"),
        Variant("uk time", Change(write={"freelance/jobs/lindqvist.md": _LINDQVIST.replace(
            "deadline: Fri 26 June, 17:00 Stockholm time", "deadline: Fri 26 June, 16:00 UK time (17:00 Stockholm)")}),
                NOOP, "16:00 UK time is 17:00 in Stockholm: the same deadline written another way"),
    ])

_OFFERS = ("received,agency,pair,volume,deadline\n2026-05-04,Linguacore,PL>EN,3200 words,2026-05-12\n"
           "2026-05-11,Verbatim Partners,PL>EN,5400 words,2026-05-29\n")
SITUATIONS += family(
    "big job offers", "dont let me take on anything big before August. if a new job offer in freelance/job-offers.csv "
    "is over 8,000 words tell me before I say yes",
    {**HOME, "freelance/job-offers.csv": _OFFERS}, [
        Variant("9200 words", Change(append={"freelance/job-offers.csv": (
            "2026-05-20,Linguacore,PL>EN,9200 words,2026-06-19\n")}),
                ACT, "a 9,200-word offer, over 8,000: tell them before they accept"),
        Variant("7950 words", Change(append={"freelance/job-offers.csv": (
            "2026-05-20,Linguacore,PL>EN,7950 words,2026-06-19\n")}),
                NOOP, "7,950 words is under 8,000"),
        Variant("characters", Change(append={"freelance/job-offers.csv": (
            "2026-05-20,Textwerk GmbH,PL>EN,36000 characters incl. spaces,2026-06-12\n")}),
                NOOP, "36,000 characters is roughly 5,000 words, well under 8,000"),
        Variant("split job", Change(append={"freelance/job-offers.csv": (
            "2026-05-20,Verbatim Partners,PL>EN,12000 words total - your share 6000 (ch. 1-5),2026-06-26\n")}),
                NOOP, "the job is split between two translators; their share is 6,000 words"),
        Variant("bigger share", Change(append={"freelance/job-offers.csv": (
            "2026-05-20,Verbatim Partners,PL>EN,14000 words total - your share 9000 (ch. 1-6),2026-07-03\n")}),
                ACT, "their share of the split job is 9,000 words, over 8,000: tell them before they accept"),
    ])

_LOGO_V2 = ("# Fernbank logo v2 (Priya)\n\n- leaf icon to the left of the wordmark\n- wordmark: Recoleta, lower case\n"
            "- colours: #2F6B3A green, #F2E8D5 cream\n- strapline: growing together since 1998\n")
SITUATIONS += family(
    "logo v3", "When Priya puts v3 of the Fernbank logo in shared/drafts/, compare it with v2 and write me a short "
    "summary of what she changed before Thursday's committee call",
    {**HOME, "shared/drafts/fernbank-logo-v2.md": _LOGO_V2}, [
        Variant("v3 uploaded", Change(write={"shared/drafts/fernbank-logo-v3.md": (
            "# Fernbank logo v3 (Priya)\n\n- leaf icon above the wordmark, stacked\n- wordmark: Recoleta, title "
            "case\n- colours: #2F6B3A green, #E0A93B marigold\n- strapline dropped\n")}),
                ESCALATE, "v3 is in: compare it with v2 and summarise the layout, case, colour and strapline changes"),
        Variant("poster v3", Change(write={"shared/drafts/open-day-poster-v3.md": (
            "# Open day poster v3 (Priya)\n\n- date moved up top\n- photo of the pond instead of the polytunnel\n")}),
                NOOP, "v3 of the open day poster, not of the logo"),
        Variant("v3 tomorrow", Change(write={"shared/drafts/README.md": (
            "Priya: logo v3 going up tomorrow night, sorry for the wait!\n")}),
                NOOP, "Priya says v3 comes tomorrow; it is not in the folder yet"),
        Variant("v2 comments", Change(write={"shared/drafts/fernbank-logo-v2-comments.md": (
            "Committee on v2: Joy likes the green, Bob finds the strapline too small.\n")}),
                NOOP, "comments on v2, not a v3"),
    ])

_KOVAL_TASK = ("when Koval's reviewer sends comments on my brochure translation (freelance/koval/review/), go "
               "through them, sort them into accept or push back, and draft my reply to Marta")
SITUATIONS += family(
    "koval review", _KOVAL_TASK,
    {**HOME, "freelance/koval/brief.md": "Koval Architects brochure, PL > EN (me), PL > DE (Jonas Weber). 4,800 "
                                         "words. Reviewer: their London office.\n"}, [
        Variant("comments in", Change(write={"freelance/koval/review/en-round1.md": (
            "# EN review, round 1\n\n1. p2: 'storey' not 'floor' throughout\n2. p3: 'passive house' should be "
            "'Passivhaus'\n3. p5: sentence too long, split\n4. p7: the client's name is misspelt\n5. p8: prefer "
            "'sustainable' to 'low-impact'\n")}),
                ESCALATE, "five reviewer comments on their translation: sort them and draft the reply to Marta"),
        Variant("next week", Change(write={"inbox/2026-06-16-koval.txt": _mail(
            "Marta Koval <marta@kovalarchitects.example>", "Tue, 16 Jun 2026 09:48", "Brochure review",
            "Our reviewer is away this week, so you'll have the English comments by the 24th.")}),
                NOOP, "the comments will come on the 24th; none have arrived"),
        Variant("german comments", Change(write={"freelance/koval/review/de-round1.md": (
            "# DE review, round 1 (translator: J. Weber)\n\n1. S. 2: 'Geschoss' statt 'Etage'\n2. S. 4: Komma "
            "fehlt\n")}),
                NOOP, "comments on Jonas's German version, not on their English translation"),
    ])

_HG = "Dominika Hollis, Hollis & Grant <dominika@hollisgrant.example>"
SITUATIONS += family(
    "tax return filed", "tell me when Hollis & Grant confirm they've filed my 2025-26 tax return (mail/)",
    {**HOME, "mail/2026-11-30-hollis-grant.txt": _mail(
        _HG, "Mon, 30 Nov 2026 11:02", "Your 2025-26 return", "Thanks for the invoices and the mileage log. We'll "
        "prepare the draft and send it to you to approve.")}, [
        Variant("filed", Change(write={"mail/2026-12-14-hollis-grant.txt": _mail(
            _HG, "Mon, 14 Dec 2026 15:20", "2025-26 return submitted",
            "We submitted your 2025-26 self assessment to HMRC today (submission ref. 7Q2K-9MPL-44XD). Tax and "
            "Class 4 NI due by 31 January: £3,412.60.")}),
                ACT, "the accountant confirms the 2025-26 return is submitted: tell them"),
        Variant("draft to approve", Change(write={"mail/2026-12-07-hollis-grant.txt": _mail(
            _HG, "Mon, 7 Dec 2026 10:15", "Draft return for approval",
            "Attached is your draft 2025-26 return. Once you approve it we'll file it.")}),
                NOOP, "a draft awaiting approval; it has not been filed"),
        Variant("partner's filed", Change(write={"mail/2026-12-14-hollis-grant.txt": _mail(
            _HG, "Mon, 14 Dec 2026 15:20", "Anna's 2025-26 return submitted",
            "Anna's 2025-26 return went to HMRC today. Yours is next, we're waiting for your approval.")}),
                NOOP, "it is Anna's return that was filed; the mail says theirs is next and waits for their approval"),
        Variant("hmrc reminder", Change(write={"mail/2026-12-10-hmrc.txt": _mail(
            "HMRC <noreply@hmrc.example>", "Thu, 10 Dec 2026 07:00", "Self Assessment: deadline reminder",
            "Your 2025-26 tax return must reach us by 31 January 2027.")}),
                NOOP, "HMRC's general reminder; nothing is filed"),
    ])
