"""The held-out labelled set no. 22 for ``bench/judgement.py``, written without reading how the product decides.

Same format and label meanings as ``bench/judgement_set.py`` (see its docstring). Its families appear neither
there nor in the earlier held-out sets. Each family is one top-level statement, so the set grows by appending.
The theme is working life at the computer in trades the earlier sets did not use: a dental practice's front desk
and a vet's admin, a school office and a teacher's marking, a research lab (instrument logs, sample numbers, liquid
nitrogen, an ethics committee, a grant deadline), a warehouse and a delivery firm (stock, dispatch log, driver
hours, mispicks), a café kitchen (food-safety temperatures, suppliers, tips, allergen specs), a bowls club and a
charity (renewals, donations, raffle prizes), a freelance translator and a photographer, a small web shop, IT
support (licences, restore tests, MFA, returned laptops) and HR admin (probation, sickness absences). Formats
vary: CSV, Markdown tables, plain logs under ``ops/logs/``, ``key: value`` files, JSON, mails, bulleted notes and
memories. Most variants are near misses: the watched thing changes but the condition is not met (another person,
row, drug, dewar, client, protocol or class; exactly on a threshold; a reading in Fahrenheit; a plan, promise,
question, forecast or booked collection instead of a fact; a past failure retold; the same word in another
sense; the right thing in the wrong file). Several conditions can only be judged with rows already in the file
(a weekly or monthly total, a day's hours over two runs, a running balance, two bad readings in a row, three
days or three spells, a gap in a numbering), several are met by rewriting a whole file, several tasks wait for a
mail from someone (near misses: a mail from them about something else, or saying it will come later), a few
keep a bystander task, and two families hold only near misses. The text is the project's own.
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


# --- a dental practice -----------------------------------------------------------------------------------------

_AUTOCLAVE = ("2026-03-09 07:41 cycle 3315 start, program 134C/3min\n"
              "2026-03-09 08:02 cycle 3315 PASS, held 134.6C for 3m05s\n"
              "2026-03-09 12:30 cycle 3316 start, program 134C/3min\n"
              "2026-03-09 12:51 cycle 3316 PASS, held 134.4C for 3m04s\n")
SITUATIONS += family(
    "autoclave cycle", "We're a two-chair dental practice. Tell me if the autoclave fails a cycle, "
    "it logs to ops/logs/autoclave.log",
    {**HOME, "ops/logs/autoclave.log": _AUTOCLAVE}, [
        Variant("cycle failed", Change(append={"ops/logs/autoclave.log": (
            "2026-03-10 07:40 cycle 3317 start, program 134C/3min\n"
            "2026-03-10 07:58 cycle 3317 FAIL, chamber reached 129.8C only, load NOT sterile\n")}),
            ACT, "cycle 3317 failed to reach temperature this morning: tell the user"),
        Variant("old failures retold", Change(append={"ops/logs/autoclave.log": (
            "2026-03-10 07:40 cycle 3317 start, program 134C/3min\n"
            "2026-03-10 08:01 cycle 3317 PASS, held 134.5C for 3m06s\n"
            "2026-03-10 08:05 note: door seal replaced by the engineer, this fixed the failed cycles in February\n")}),
            NOOP, "today's cycle passed; the failures mentioned are February's, already dealt with"),
        Variant("helix test planned", Change(append={"ops/logs/autoclave.log": (
            "2026-03-10 07:30 reminder: weekly Helix test due Friday; if it fails, do not use until serviced\n")}),
            NOOP, "only a reminder about Friday's test and what to do if it fails; no cycle has failed"),
        Variant("cycle passed", Change(append={"ops/logs/autoclave.log": (
            "2026-03-10 07:40 cycle 3317 start, program 134C/3min\n"
            "2026-03-10 08:00 cycle 3317 PASS, held 134.3C for 3m05s\n")}),
            NOOP, "a new cycle that passed"),
    ])

_FTA = ("date,patient,clinician,kind\n"
        "2026-03-06,R. Doyle,Dr Amin,FTA\n"
        "2026-03-09,K. Burrows,Dr Amin,FTA\n"
        "2026-03-09,L. Perez,Sue (hygienist),FTA\n"
        "2026-03-10,T. Ansah,Dr Fox,late cancel\n"
        "2026-03-10,M. Quinn,Dr Fox,FTA\n"
        "2026-03-11,J. Ward,Dr Amin,FTA\n"
        "2026-03-11,P. Sethi,Sue (hygienist),FTA\n"
        "2026-03-12,D. Lowry,Dr Fox,FTA\n")
SITUATIONS += family(
    "fta week", "If we get more than 6 failed-to-attends in one week (Mon to Sun), tell me, then I'll send out the "
    "missed appointment letters. They go in practice/fta.csv",
    {**HOME, "practice/fta.csv": _FTA}, [
        Variant("seventh this week", Change(append={"practice/fta.csv": "2026-03-13,S. Kaur,Dr Amin,FTA\n"}),
            ACT, "Friday's FTA is the seventh of the week of 9 March (the 10 March late cancel does not count)"),
        Variant("late cancel", Change(append={"practice/fta.csv": "2026-03-13,S. Kaur,Dr Amin,late cancel\n"}),
            NOOP, "a late cancellation, not a failed-to-attend; the week still has six FTAs"),
        Variant("next monday", Change(append={"practice/fta.csv": "2026-03-16,S. Kaur,Dr Amin,FTA\n"}),
            NOOP, "16 March starts a new week with one FTA; the week of 9 March stayed at six"),
    ])

_LAB_WORK = ("# Lab work\n\n| patient | item | lab | sent | status |\n|---|---|---|---|---|\n"
             "| Mr K. Adeyemi | crown, UR6 | Castle Dental Lab | 28 Apr | at lab |\n"
             "| Mrs J. Lowe | upper denture | Castle Dental Lab | 30 Apr | at lab |\n"
             "| Ms R. Tran | night guard | Brightline | 5 May | at lab |\n")
SITUATIONS += family(
    "adeyemi crown", "Tell me when Mr Adeyemi's crown is back from the lab so I can book his fit appointment "
    "(practice/lab-work.md)",
    {**HOME, "practice/lab-work.md": _LAB_WORK}, [
        Variant("crown back", Change(write={"practice/lab-work.md": _LAB_WORK.replace(
            "28 Apr | at lab |", "28 Apr | back, in the lab box (12 May) |")}),
            ACT, "the table now shows Mr Adeyemi's crown back in the practice"),
        Variant("denture back", Change(write={"practice/lab-work.md": _LAB_WORK.replace(
            "30 Apr | at lab |", "30 Apr | back, in the lab box (12 May) |")}),
            NOOP, "it is Mrs Lowe's denture that came back; the crown is still at the lab"),
        Variant("due friday", Change(write={"practice/lab-work.md": _LAB_WORK.replace(
            "28 Apr | at lab |", "28 Apr | at lab, due back Fri 15 May |")}),
            NOOP, "only a date the crown is due back; it has not arrived"),
    ], bystanders=("Remind me when the engineer confirms a date for the X-ray unit's service",))


# --- a vet practice ----------------------------------------------------------------------------------------------

_CD = ("date,drug,in,out,balance,by\n"
       "2026-04-01,methadone 10mg/ml (ml),0,0,48.0,JH stock check\n"
       "2026-04-02,methadone 10mg/ml (ml),0,1.5,46.5,JH\n"
       "2026-04-02,ketamine 100mg/ml (ml),0,0,30.0,RP stock check\n"
       "2026-04-03,ketamine 100mg/ml (ml),0,2.0,28.0,RP\n"
       "2026-04-03,methadone 10mg/ml (ml),0,0.8,45.7,RP\n")
SITUATIONS += family(
    "cd register balance", "Check every new line in the controlled drugs register (vet/cd-register.csv). If a "
    "drug's running balance doesn't add up, dig into where the discrepancy came from",
    {**HOME, "vet/cd-register.csv": _CD}, [
        Variant("methadone short", Change(append={"vet/cd-register.csv": (
            "2026-04-06,methadone 10mg/ml (ml),0,1.2,43.5,JH\n")}),
            ESCALATE, "45.7 ml less 1.2 ml is 44.5 ml, but the balance says 43.5: a 1 ml discrepancy to investigate"),
        Variant("delivery adds up", Change(append={"vet/cd-register.csv": (
            "2026-04-06,methadone 10mg/ml (ml),20.0,1.2,64.5,JH\n")}),
            NOOP, "45.7 + 20.0 - 1.2 = 64.5: the balance is right"),
        Variant("ketamine adds up", Change(append={"vet/cd-register.csv": (
            "2026-04-06,ketamine 100mg/ml (ml),0,3.5,24.5,RP\n")}),
            NOOP, "ketamine's own balance was 28.0; less 3.5 is 24.5, which is what the line says"),
    ])

_POSTOP = ("# Post-op check calls\n\n"
           "- [ ] Bramble (Mrs Dunn), spay, op 12 May\n"
           "- [ ] Otis (Mr Varga), dental, four extractions, op 12 May\n"
           "- [x] Pepper (Ms Holm), lump removal, op 11 May\n")
SITUATIONS += family(
    "post-op calls", "When I tell you I've done a post-op check call, tick that animal off in vet/postop-calls.md",
    {**HOME, "vet/postop-calls.md": _POSTOP}, [
        Variant("rang mrs dunn", Change(memories=("Rang Mrs Dunn: Bramble is eating and the wound looks clean.",)),
            ACT, "the user has done Bramble's check call: tick her off"),
        Variant("will ring varga", Change(memories=("Must ring Mr Varga about Otis first thing tomorrow.",)),
            NOOP, "a call the user plans to make, not one done"),
        Variant("varga books nails", Change(memories=("Mr Varga rang to book Otis in for a nail clip in June.",)),
            NOOP, "the owner rang to book a nail clip; no post-op check call was done"),
    ])


# --- a school office and a teacher's marking ---------------------------------------------------------------------

_MACBETH = ("pupil,mark,comment\nAisha Begum,31,strong on ambition\nCallum Reid,,\nDara Novak,24,needs quotations\n"
            "Ella Shore,,\nFinn Walsh,28,\nGrace Oduya,,\nHarvey Lam,19,plan before writing\n"
            "Isla Brennan,33,excellent\n")
_MACBETH_MARKED = _MACBETH.replace("Callum Reid,,", "Callum Reid,26,good on the witches").replace(
    "Ella Shore,,", "Ella Shore,29,clear argument")
SITUATIONS += family(
    "10c macbeth marks", "let me know when there's a mark in for every 10C Macbeth essay "
    "(marking/10c-macbeth.csv), then I can send them to Mr Hollis",
    {**HOME, "marking/10c-macbeth.csv": _MACBETH}, [
        Variant("all marked", Change(write={"marking/10c-macbeth.csv": _MACBETH_MARKED.replace(
            "Grace Oduya,,", "Grace Oduya,22,watch paragraphing")}),
            ACT, "Callum, Ella and Grace now have marks: every 10C essay is marked"),
        Variant("grace still blank", Change(write={"marking/10c-macbeth.csv": _MACBETH_MARKED}),
            NOOP, "two more marks went in but Grace Oduya's essay is still unmarked"),
        Variant("10d finished", Change(write={"marking/10d-macbeth.csv": (
            "pupil,mark,comment\nJoel Abbey,27,\nKeira Dunn,30,good\nLuca Moretti,21,\nMina Shah,34,superb\n")}),
            NOOP, "10D's sheet is complete; 10C still has three essays without a mark"),
    ])

_ABSENCES = ("date,pupil,class,code\n"
             "2026-05-11,Leo Marsh,3K,N\n"
             "2026-05-11,Ruby Chen,5T,I\n"
             "2026-05-12,Leo Marsh,3K,N\n"
             "2026-05-12,Ruby Chen,5T,I\n"
             "2026-05-12,Amira Bello,4S,M\n")
SITUATIONS += family(
    "three days no reason", "I'm in the school office. If a child is down as absent with no reason (code N) three "
    "school days in a row, tell me who so I can ring home. office/absences.csv, I = ill, M = medical",
    {**HOME, "office/absences.csv": _ABSENCES}, [
        Variant("leo third day", Change(append={"office/absences.csv": "2026-05-13,Leo Marsh,3K,N\n"}),
            ACT, "Leo Marsh is absent with code N on Monday, Tuesday and Wednesday"),
        Variant("leo ill", Change(append={"office/absences.csv": "2026-05-13,Leo Marsh,3K,I\n"}),
            NOOP, "Wednesday's absence has a reason (illness), so Leo has only two N days"),
        Variant("ruby unexplained", Change(append={"office/absences.csv": "2026-05-13,Ruby Chen,5T,N\n"}),
            NOOP, "Ruby's first two days were illness; this is her first day with no reason"),
    ])

_DALEBROOK = "Dalebrook Coaches <bookings@dalebrook-coaches.example>"
SITUATIONS += family(
    "kelham coaches", "tell me the pick-up time once Dalebrook Coaches confirm the Year 6 trip to Kelham Caves "
    "on 19 June",
    {**HOME, "mail/2026-05-04-dalebrook.txt": _mail(
        _DALEBROOK, "Quote: Year 6, Kelham Caves, 19 June",
        "Two 49-seat coaches, £780 in total. Reply to accept and we'll confirm once drivers are allocated.")}, [
        Variant("confirmed", Change(write={"mail/2026-05-12-dalebrook.txt": _mail(
            _DALEBROOK, "Booking confirmed: Kelham Caves, 19 June",
            "Both coaches will be at the school gates at 8:15 am and will leave Kelham Caves at 2:30 pm. "
            "Your drivers are Pete and Anwen.")}),
            ACT, "Dalebrook confirmed the trip: tell the user the pick-up is 8:15 am"),
        Variant("swimming invoice", Change(write={"mail/2026-05-12-dalebrook.txt": _mail(
            _DALEBROOK, "Invoice 4471: Year 3 swimming transport",
            "Please find attached our invoice for the spring term swimming runs, £1,140, due in 30 days.")}),
            NOOP, "a mail from Dalebrook, but an invoice for another year's swimming transport"),
        Variant("next week", Change(write={"mail/2026-05-12-dalebrook.txt": _mail(
            _DALEBROOK, "Re: Quote: Year 6, Kelham Caves, 19 June",
            "Thanks for accepting. We'll confirm the times as soon as drivers are allocated, probably next week.")}),
            NOOP, "the quote is accepted but the confirmation and times are still to come"),
    ], bystanders=("Remind me to order the Year 6 leavers' hoodies once the size list is complete "
                   "(office/hoodies.csv)",))

_DINNER = ("# Dinner money accounts\n\n| pupil | class | balance | note |\n|---|---|---|---|\n"
           "| Noah Price | 3K | £4.60 | |\n| Maya Fox | 3K | £1.20 | |\n| Zain Ali | 3K | £12.00 | |\n"
           "| Ivy Sandhu | 5T | £0.80 | |\n")
SITUATIONS += family(
    "3k dinner money", "I'm 3K's teacher. Tell me if any child in my class has their dinner money account go below "
    "zero (office/dinner-accounts.md)",
    {**HOME, "office/dinner-accounts.md": _DINNER}, [
        Variant("5t overdrawn", Change(write={"office/dinner-accounts.md": _DINNER.replace(
            "| 5T | £0.80 |", "| 5T | -£1.50 |")}),
            NOOP, "the account below zero is Ivy Sandhu's, and she is in 5T, not 3K"),
        Variant("maya at zero", Change(write={"office/dinner-accounts.md": _DINNER.replace(
            "| Maya Fox | 3K | £1.20 |", "| Maya Fox | 3K | £0.00 |")}),
            NOOP, "Maya's account is exactly zero, not below it"),
        Variant("maya forecast", Change(write={"office/dinner-accounts.md": _DINNER.replace(
            "| Maya Fox | 3K | £1.20 | |",
            "| Maya Fox | 3K | £1.20 | will be -£1.10 after Friday unless topped up |")}),
            NOOP, "only a forecast for Friday; Maya's balance is still £1.20"),
    ])


# --- a research lab -------------------------------------------------------------------------------------------

_LN2 = "read_at: 2026-04-14 09:10\nread_by: S. Okoro\nstorage_dewar_percent: 41\ntransfer_dewar_percent: 55\n"
SITUATIONS += family(
    "ln2 storage dewar", "remind me to order liquid nitrogen when the storage dewar drops below 30% "
    "(lab/ln2-dewars.txt)",
    {**HOME, "lab/ln2-dewars.txt": _LN2}, [
        Variant("storage at 27", Change(write={"lab/ln2-dewars.txt": (
            "read_at: 2026-04-16 09:05\nread_by: S. Okoro\nstorage_dewar_percent: 27\ntransfer_dewar_percent: 48\n")}),
            ACT, "the storage dewar reads 27%, below 30%: remind the user to order"),
        Variant("exactly 30", Change(write={"lab/ln2-dewars.txt": (
            "read_at: 2026-04-16 09:05\nread_by: S. Okoro\nstorage_dewar_percent: 30\ntransfer_dewar_percent: 44\n")}),
            NOOP, "30% is on the line, not below it"),
        Variant("transfer low", Change(write={"lab/ln2-dewars.txt": (
            "read_at: 2026-04-16 09:05\nread_by: T. Ilves\nstorage_dewar_percent: 36\ntransfer_dewar_percent: 12\n")}),
            NOOP, "it is the transfer dewar that is low; the storage dewar is at 36%"),
    ])

_SAMPLES = ("sample_id,received,project,box\n"
            "S-26-0141,2026-04-20,PLX soil,B7\nS-26-0142,2026-04-20,PLX soil,B7\n"
            "S-26-0143,2026-04-21,Marsh cores,B8\nS-26-0144,2026-04-21,Marsh cores,B8\n"
            "S-26-0145,2026-04-22,PLX soil,B8\n")
SITUATIONS += family(
    "sample number gap", "Tell me if a sample number gets skipped in lab/samples.csv, they should go up one at a time",
    {**HOME, "lab/samples.csv": _SAMPLES}, [
        Variant("0146 skipped", Change(append={"lab/samples.csv": "S-26-0147,2026-04-23,Marsh cores,B8\n"}),
            ACT, "the last number was 0145 and the new one is 0147: 0146 was skipped"),
        Variant("two in order", Change(append={"lab/samples.csv": (
            "S-26-0146,2026-04-23,Marsh cores,B8\nS-26-0147,2026-04-23,Marsh cores,B8\n")}),
            NOOP, "0146 and 0147 follow 0145 with no gap"),
        Variant("shipment numbers", Change(write={"lab/shipments-out.csv": (
            "shipment,sent,to\nSH-028,2026-04-10,Uppsala\nSH-031,2026-04-23,Ghent\n")}),
            NOOP, "the jump is in the outgoing shipment numbers, another file; the sample numbers are unchanged"),
    ])

_GRANT_PLAN = ("# Harwood early-career fellowship: writing timetable\n\nDeadline: Friday 29 May 2026, 5 pm\n\n"
               "- 4 May: case for support, first full draft\n- 11 May: budget agreed with finance\n"
               "- 18 May: letters of support in\n- 22 May: final read by Prof. Lindqvist\n"
               "- 27 May: submit through the portal (two days' margin)\n")
_HARWOOD = "Harwood Foundation <grants@harwood-foundation.example>"
SITUATIONS += family(
    "harwood deadline", "If the Harwood Foundation move the deadline for our fellowship application, redo the "
    "writing timetable in lab/grant-timetable.md around the new date",
    {**HOME, "lab/grant-timetable.md": _GRANT_PLAN}, [
        Variant("brought forward", Change(write={"mail/2026-04-28-harwood.txt": _mail(
            _HARWOOD, "Change to the early-career fellowship closing date",
            "Because the panel now meets earlier, early-career fellowship applications now close on "
            "Friday 15 May 2026 at 5 pm.")}),
            ESCALATE, "the deadline moved from 29 to 15 May: the timetable has to be replanned"),
        Variant("webinar", Change(write={"mail/2026-04-28-harwood.txt": _mail(
            _HARWOOD, "Applicant webinar, 6 May",
            "Join our online session for fellowship applicants on 6 May at 1 pm. "
            "The closing date stays 29 May, 5 pm.")}),
            NOOP, "a webinar invitation; it says the deadline stays 29 May"),
        Variant("other scheme", Change(write={"mail/2026-04-28-harwood.txt": _mail(
            _HARWOOD, "Small equipment grants: new closing date",
            "The closing date for this round of small equipment grants has moved from 5 June to 12 June.")}),
            NOOP, "it is the small equipment grants that moved, not the fellowship"),
    ])

_ORBITRAP = ("2026-04-20 08:05 calibration pos mode: mass accuracy 1.2 ppm, OK\n"
             "2026-04-20 16:40 run queue finished, 38 samples\n"
             "2026-04-21 08:04 calibration pos mode: mass accuracy 1.6 ppm, OK\n"
             "2026-04-22 08:06 calibration pos mode: mass accuracy 3.4 ppm, WARN (limit 3 ppm)\n"
             "2026-04-22 09:30 ion source cleaned by T. Ilves, recalibrated\n")
SITUATIONS += family(
    "orbitrap drift", "If the Orbitrap's morning calibration comes out worse than 3 ppm two days running, go through "
    "ops/logs/orbitrap.log and work out what's likely drifting",
    {**HOME, "ops/logs/orbitrap.log": _ORBITRAP}, [
        Variant("second bad morning", Change(append={"ops/logs/orbitrap.log": (
            "2026-04-23 08:05 calibration pos mode: mass accuracy 3.8 ppm, WARN (limit 3 ppm)\n")}),
            ESCALATE, "3.4 ppm yesterday and 3.8 ppm this morning: two mornings running over 3 ppm"),
        Variant("back in range", Change(append={"ops/logs/orbitrap.log": (
            "2026-04-23 08:05 calibration pos mode: mass accuracy 1.3 ppm, OK\n")}),
            NOOP, "this morning's calibration is fine, so yesterday's bad one stays alone"),
        Variant("exactly 3", Change(append={"ops/logs/orbitrap.log": (
            "2026-04-23 08:05 calibration pos mode: mass accuracy 3.0 ppm, OK (limit 3 ppm)\n")}),
            NOOP, "3.0 ppm is on the limit, not worse than it"),
    ])

_ETHICS = "Research Ethics Committee <rec@kelby-uni.example>"
SITUATIONS += family(
    "er-26-114", "Let me know as soon as the ethics committee approves our protocol ER-26-114",
    {**HOME, "mail/2026-04-10-rec.txt": _mail(
        _ETHICS, "Received: ER-26-114", "Your application has been received and will go to the committee "
        "meeting on 14 May.")}, [
        Variant("approved", Change(write={"mail/2026-05-15-rec.txt": _mail(
            _ETHICS, "Decision: ER-26-114",
            "The committee has approved protocol ER-26-114 (sleep and shift work in warehouse staff). "
            "The approval runs to 30 April 2028.")}),
            ACT, "the committee approved ER-26-114: tell the user"),
        Variant("other protocol", Change(write={"mail/2026-05-15-rec.txt": _mail(
            _ETHICS, "Decision: ER-26-098",
            "The committee has approved protocol ER-26-098 (noise exposure in school kitchens).")}),
            NOOP, "the approval is for ER-26-098, not ER-26-114"),
        Variant("questions first", Change(write={"mail/2026-05-15-rec.txt": _mail(
            _ETHICS, "ER-26-114: questions from the committee",
            "Before deciding, the committee asks for a plain-English consent form and the data retention period. "
            "Please reply by 29 May.")}),
            NOOP, "the committee has questions and has not yet decided"),
    ])


# --- a warehouse and a delivery firm --------------------------------------------------------------------------

_LEVELS = ("sku,description,location,cartons\nBT-200,2 L bottle blue,A-03,30\nBT-200,2 L bottle blue,C-11,24\n"
           "BT-250,2.5 L bottle clear,A-04,12\nCP-38,38 mm cap white,B-02,140\n")
SITUATIONS += family(
    "bt-200 cartons", "Warn me when we're down to fewer than 40 cartons of BT-200 in total across all locations "
    "(stock/levels.csv)",
    {**HOME, "stock/levels.csv": _LEVELS}, [
        Variant("35 in total", Change(write={"stock/levels.csv": _LEVELS.replace(
            "A-03,30", "A-03,18").replace("C-11,24", "C-11,17")}),
            ACT, "18 + 17 = 35 cartons of BT-200, fewer than 40"),
        Variant("exactly 40", Change(write={"stock/levels.csv": _LEVELS.replace(
            "A-03,30", "A-03,22").replace("C-11,24", "C-11,18")}),
            NOOP, "22 + 18 = 40 cartons, not fewer than 40"),
        Variant("bt-250 low", Change(write={"stock/levels.csv": _LEVELS.replace(
            "A-03,30", "A-03,26").replace("C-11,24", "C-11,19").replace("A-04,12", "A-04,3")}),
            NOOP, "BT-250 is low, but BT-200 still has 26 + 19 = 45 cartons"),
    ])

_DISPATCH = ("2026-05-18 06:02 VAN 04 load check signed A. Rahman\n"
             "2026-05-18 06:10 VAN 04 departed yard, 14 drops\n"
             "2026-05-18 06:15 VAN 07 load check signed K. Lowe\n"
             "2026-05-18 06:21 VAN 07 departed yard, 11 drops\n")
SITUATIONS += family(
    "unsigned load check", "tell me if a van leaves the yard without its load check signed off "
    "(ops/logs/dispatch.log)",
    {**HOME, "ops/logs/dispatch.log": _DISPATCH}, [
        Variant("van 03 unsigned", Change(append={"ops/logs/dispatch.log": (
            "2026-05-18 06:30 VAN 03 departed yard, 16 drops, load check NOT SIGNED\n")}),
            ACT, "van 03 left the yard without a signed load check"),
        Variant("held at gate", Change(append={"ops/logs/dispatch.log": (
            "2026-05-18 06:30 VAN 03 load check not signed, held at gate for a recount\n")}),
            NOOP, "van 03 was stopped at the gate; it has not left"),
        Variant("van returns", Change(append={"ops/logs/dispatch.log": (
            "2026-05-18 13:42 VAN 07 returned to yard, 2 parcels undelivered\n")}),
            NOOP, "a van coming back, and it left this morning with a signed check"),
    ])

_POD = ("order,date,driver,left,photo\n"
        "88213,2026-05-18,Kasia Nowak,front porch,yes\n"
        "88219,2026-05-18,Dev Mistry,with neighbour at no. 12,yes\n"
        "88240,2026-05-18,Lee Grant,safe place: bin store,no\n")
SITUATIONS += family(
    "parcel left daft", "If a customer writes in that their parcel has gone missing or was left somewhere daft, "
    "check the drop notes in dispatch/pod.csv and draft a reply. Customer mails land in mail/customers/",
    {**HOME, "dispatch/pod.csv": _POD}, [
        Variant("left in the bin", Change(write={"mail/customers/2026-05-19-fenwick.txt": _mail(
            "Carol Fenwick", "Order 88240 ruined",
            "Tracking says delivered, but I found the box inside our recycling bin this morning. It rained all "
            "night and the books in it are soaked.")}),
            ESCALATE, "a parcel left in a bin and ruined: check the drop note (no photo) and draft a reply"),
        Variant("driver thanks", Change(write={"mail/customers/2026-05-19-marsh.txt": _mail(
            "Ian Marsh", "Order 88219",
            "Just to say your driver was lovely and left it with Pat at no. 12 like I asked. Thanks!")}),
            NOOP, "a thank-you; the parcel arrived where the customer wanted it"),
        Variant("door code", Change(write={"mail/customers/2026-05-19-oyelaran.txt": _mail(
            "Tunde Oyelaran", "Delivery tomorrow, order 88311",
            "The code for our building's front door is 4471, please use it rather than leaving the parcel "
            "outside.")}),
            NOOP, "instructions for a delivery that has not happened yet; nothing is missing"),
    ], bystanders=("Let me know when VAN 09 is back from its MOT (fleet/vans.md)",))

_HOURS = ("date,driver,run,hours\n"
          "2026-05-19,Kasia Nowak,AM,5.5\n"
          "2026-05-19,Dev Mistry,AM,6.0\n"
          "2026-05-19,Lee Grant,AM,4.0\n")
SITUATIONS += family(
    "driver day hours", "Tell me if any driver does more than 10 hours in a day (dispatch/driver-hours.csv). Some do "
    "a morning and an evening run, so add them up",
    {**HOME, "dispatch/driver-hours.csv": _HOURS}, [
        Variant("kasia 10.5", Change(append={"dispatch/driver-hours.csv": "2026-05-19,Kasia Nowak,PM,5.0\n"}),
            ACT, "Kasia's morning 5.5 and evening 5.0 make 10.5 hours on 19 May"),
        Variant("dev exactly 10", Change(append={"dispatch/driver-hours.csv": "2026-05-19,Dev Mistry,PM,4.0\n"}),
            NOOP, "Dev's 6.0 + 4.0 is exactly 10 hours, not more"),
        Variant("next day", Change(append={"dispatch/driver-hours.csv": "2026-05-20,Kasia Nowak,AM,6.0\n"}),
            NOOP, "Kasia's 6 hours are on 20 May, a new day; 19 May stays at 5.5"),
    ], bystanders=("Tell me when the fuel card statement for April arrives",))

_PICKS = ('{\n  "site": "Kirkby DC",\n  "weeks": [\n'
          '    {"week": "2026-W18", "lines_picked": 12400, "mispicks": 81},\n'
          '    {"week": "2026-W19", "lines_picked": 13150, "mispicks": 97}\n  ]\n}\n')
_ERRORS = ("# Pick error notes\n\n- W19: 12 of the mispicks were CP-38 vs CP-28 caps, same colour\n"
           "- W19: new starter on nights, 9 errors in her first two shifts\n")


def _picks(lines: int, mispicks: int) -> str:
    return _PICKS.replace("97}\n", f'97}},\n    {{"week": "2026-W20", "lines_picked": {lines}, '
                                   f'"mispicks": {mispicks}}}\n')


SITUATIONS += family(
    "mispick rate", "If mispicks go over 1% of the lines picked in a week (warehouse/pick-stats.json), go through "
    "the error notes in warehouse/errors.md and work out what's behind it",
    {**HOME, "warehouse/pick-stats.json": _PICKS, "warehouse/errors.md": _ERRORS}, [
        Variant("w20 at 1.4%", Change(write={"warehouse/pick-stats.json": _picks(11800, 165)}),
            ESCALATE, "165 mispicks in 11,800 lines is 1.4% in week 20: work out the causes"),
        Variant("w20 exactly 1%", Change(write={"warehouse/pick-stats.json": _picks(12000, 120)}),
            NOOP, "120 in 12,000 lines is exactly 1%, not over"),
        Variant("more mispicks, busier week", Change(write={"warehouse/pick-stats.json": _picks(16400, 150)}),
            NOOP, "more mispicks than before, but 150 of 16,400 lines is about 0.9%"),
    ])


# --- a café kitchen ----------------------------------------------------------------------------------------------

_TEMPS = ("# Temperature log, Tuesday 14 April 2026\n\n| time | item | where | reading | by |\n|---|---|---|---|---|\n"
          "| 09:00 | walk-in fridge | cold room | 3.1 °C | MB |\n"
          "| 11:30 | tomato soup | hot cabinet | 71.2 °C | MB |\n"
          "| 12:30 | tomato soup | hot cabinet | 68.5 °C | TS |\n")
SITUATIONS += family(
    "soup hot holding", "food safety: tell me if the soup in the hot cabinet is ever logged under 63°C "
    "(kitchen/temps.md)",
    {**HOME, "kitchen/temps.md": _TEMPS}, [
        Variant("58.9", Change(append={"kitchen/temps.md": "| 13:30 | tomato soup | hot cabinet | 58.9 °C | TS |\n"}),
            ACT, "the soup was logged at 58.9 °C, under 63"),
        Variant("exactly 63", Change(append={"kitchen/temps.md": (
            "| 13:30 | tomato soup | hot cabinet | 63.0 °C | TS |\n")}),
            NOOP, "63.0 °C is on the limit, not under it"),
        Variant("fahrenheit", Change(append={"kitchen/temps.md": (
            "| 13:30 | tomato soup | hot cabinet | 151 °F | agency chef |\n")}),
            NOOP, "151 °F is about 66 °C, above 63"),
    ], bystanders=("Tell me when Kovač Bakery's invoice for April comes in",))

_PREP = ("# Weekly prep plan (Greenway deliver Tuesdays, 7 am)\n\n"
         "- Tuesday: veg in, stocks and soups, salad prep\n- Wednesday: pickles and ferments, braise for Thursday\n"
         "- Thursday: pastry and desserts, second salad prep\n- Friday: top-up prep from Tuesday's veg, herb oils\n"
         "- Saturday: brunch prep, roast veg for the weekend\n")
_GREENWAY = "Greenway Produce <orders@greenway-produce.example>"
SITUATIONS += family(
    "greenway delivery day", "If Greenway Produce change which day they deliver, rework the prep plan in "
    "kitchen/prep-plan.md to fit",
    {**HOME, "kitchen/prep-plan.md": _PREP}, [
        Variant("moving to thursday", Change(write={"mail/2026-04-20-greenway.txt": _mail(
            _GREENWAY, "Your delivery day is changing",
            "From the week of 4 May your veg will come on Thursday mornings instead of Tuesdays, between 6 and "
            "8 am.")}),
            ESCALATE, "deliveries move from Tuesday to Thursday: the week's prep has to be reworked"),
        Variant("price list", Change(write={"mail/2026-04-20-greenway.txt": _mail(
            _GREENWAY, "Spring price list",
            "Asparagus is in from next week at £4.20 a bundle, and new potatoes go up 10p a kilo.")}),
            NOOP, "a mail from Greenway about prices; the delivery day is not mentioned"),
        Variant("might change", Change(write={"mail/2026-04-20-greenway.txt": _mail(
            _GREENWAY, "Summer routes",
            "We're looking at our routes for the summer and some customers may see their delivery day change. "
            "Nothing changes yet, and everyone will get at least four weeks' notice.")}),
            NOOP, "only a possible future change; nothing has changed yet"),
    ])

_TIPS = ("date,amount\n2026-02-28,44.10\n2026-03-01,18.40\n2026-03-07,131.20\n2026-03-14,142.75\n"
         "2026-03-21,126.05\n2026-03-25,96.00\n2026-03-26,47.50\n")
SITUATIONS += family(
    "march tips", "tell me when March's tips go over £600 so I can do the split (cafe/tips.csv)",
    {**HOME, "cafe/tips.csv": _TIPS}, [
        Variant("over 600", Change(append={"cafe/tips.csv": "2026-03-28,52.30\n"}),
            ACT, "March was at £561.90; with £52.30 it reaches £614.20"),
        Variant("exactly 600", Change(append={"cafe/tips.csv": "2026-03-28,38.10\n"}),
            NOOP, "£561.90 + £38.10 is exactly £600.00, not over"),
        Variant("april row", Change(append={"cafe/tips.csv": "2026-04-01,61.80\n"}),
            NOOP, "the new row is April's; March stays at £561.90"),
    ])

_BUNS = ("Product: brioche burger bun, 85 g\nSupplier: Rowan Bakery Wholesale\nPack: 24 buns, frozen\n"
         "Price: £9.60 a pack\nAllergens: wheat (gluten), egg, milk\n")
_MENU = ("# Menu allergen chart\n\n| dish | contains |\n|---|---|\n"
         "| Beef burger (brioche bun) | gluten, egg, milk, mustard |\n"
         "| Halloumi burger (brioche bun) | gluten, egg, milk |\n"
         "| Fish finger sandwich (sourdough) | gluten, fish, egg |\n")
SITUATIONS += family(
    "bun allergens", "If a supplier's spec sheet in kitchen/specs/ changes the allergens it lists, work out which "
    "dishes use that product and update the allergen chart in kitchen/menu.md",
    {**HOME, "kitchen/specs/brioche-buns.md": _BUNS, "kitchen/menu.md": _MENU}, [
        Variant("sesame added", Change(write={"kitchen/specs/brioche-buns.md": _BUNS.replace(
            "egg, milk\n", "egg, milk, sesame (seeded tops from 1 June)\n")}),
            ESCALATE, "the buns now contain sesame: both burgers' allergen entries need updating"),
        Variant("price only", Change(write={"kitchen/specs/brioche-buns.md": _BUNS.replace("£9.60", "£10.20")}),
            NOOP, "only the price changed; the allergens are the same"),
        Variant("ideas file", Change(write={"kitchen/menu-ideas.md": (
            "# Summer ideas\n\n- sesame slaw with the halloumi burger?\n- cold cucumber soup\n")}),
            NOOP, "an idea in a notes file, not a change to a supplier's spec"),
    ])


# --- a bowls club and a charity ------------------------------------------------------------------------------

_RENEWALS = ("# Renewals 2026 (Holm Park Bowls Club, £30 a year)\n\n"
             "- Ola Adeyemi, 6 Jan, cash\n- Martin Greaves, 14 Jan, bank transfer\n- Sue Patel, 2 Feb, cheque\n")
SITUATIONS += family(
    "bowls renewals", "Whenever I tell you a member has renewed, add a line to club/renewals-2026.md "
    "(name, date, how they paid)",
    {**HOME, "club/renewals-2026.md": _RENEWALS}, [
        Variant("gillian renewed", Change(memories=(
            "Gillian Shaw renewed her bowls club membership today, £30 by bank transfer.",)),
            ACT, "a member renewed: add Gillian Shaw's line"),
        Variant("dennis will renew", Change(memories=(
            "Dennis Kerr says he'll renew at the May meeting once he's back from Spain.",)),
            NOOP, "only a promise to renew later"),
        Variant("passport", Change(memories=("I must renew my passport before the club tour to Jersey in July.",)),
            NOOP, "the user's passport, not a club membership"),
    ], bystanders=("Tell me if the county league moves our home match against Marden (club/fixtures.md)",))

_DONATIONS = ("date,donor,amount,method\n2026-04-01,Anonymous,20.00,online\n"
              "2026-04-02,Mr & Mrs Hollis,250.00,cheque\n2026-04-03,Brackley Rotary,600.00,bank transfer\n")
SITUATIONS += family(
    "single donation thank-you", "Whenever a single donation of more than £1,000 comes in (charity/donations.csv), "
    "draft a thank-you letter for our chair, Margaret Ives, to sign",
    {**HOME, "charity/donations.csv": _DONATIONS}, [
        Variant("elsworth trust", Change(append={"charity/donations.csv": (
            "2026-04-07,The Elsworth Trust,1500.00,bank transfer\n")}),
            ESCALATE, "a single gift of £1,500: draft the chair's thank-you letter"),
        Variant("exactly 1000", Change(append={"charity/donations.csv": "2026-04-07,Jane Oduya,1000.00,online\n"}),
            NOOP, "£1,000 exactly is not more than £1,000"),
        Variant("three rotary gifts", Change(append={"charity/donations.csv": (
            "2026-04-07,Brackley Rotary,400.00,bank transfer\n2026-04-07,Brackley Rotary,400.00,bank transfer\n"
            "2026-04-08,Brackley Rotary,400.00,cheque\n")}),
            NOOP, "Rotary's gifts add up to more, but no single donation is over £1,000"),
    ])

_RAFFLE = "# Spring fair raffle prizes\n\n- Hamper of local produce (Kettle Farm Shop)\n- Haircut (Studio Nine)\n"
SITUATIONS += family(
    "raffle pledges", "For the spring fair raffle: whenever I tell you someone's pledged a prize, add it to "
    "charity/raffle-prizes.md with who's giving it",
    {**HOME, "charity/raffle-prizes.md": _RAFFLE}, [
        Variant("old forge pledge", Change(memories=(
            "The Old Forge have promised a Sunday lunch for two as a raffle prize.",)),
            ACT, "a pledged prize: add the lunch for two from the Old Forge"),
        Variant("maybe a shirt", Change(memories=(
            "Mo might be able to get a signed football shirt for the raffle, she's going to ask her brother.",)),
            NOOP, "only a possibility; nobody has pledged the shirt yet"),
        Variant("won a raffle", Change(memories=("I won the meat raffle at the rugby club last night!",)),
            NOOP, "the user won another raffle; no prize was pledged for the fair"),
    ])


# --- a freelance translator and a photographer ------------------------------------------------------------------

_GLOSSARY = ("# Veldtmark glossary (DE > EN), v3\n\n| German | English |\n|---|---|\n"
             "| Ablaufschlauch | drain hose |\n| Netzteil | power supply unit |\n"
             "| Schutzleiter | protective earth conductor |\n| Wasserzulauf | water inlet |\n")
_MANUAL = ("# Installation manual (EN draft)\n\n1. Connect the drain hose to the siphon.\n"
           "2. Plug the power supply unit into a grounded socket.\n"
           "3. Check that the protective earth conductor is connected.\n"
           "4. Open the water inlet slowly.\n")
SITUATIONS += family(
    "veldtmark glossary", "I'm translating Veldtmark's installation manual (jobs/veldtmark-manual.md). If they change "
    "any term in their glossary (clients/veldtmark/glossary.md), go through my draft and list every place I used "
    "the old term",
    {**HOME, "clients/veldtmark/glossary.md": _GLOSSARY, "jobs/veldtmark-manual.md": _MANUAL}, [
        Variant("netzteil changed", Change(write={"clients/veldtmark/glossary.md": _GLOSSARY.replace(
            "v3", "v4").replace("power supply unit", "mains adapter")}),
            ESCALATE, "Netzteil is now 'mains adapter': the draft's 'power supply unit' must be found and listed"),
        Variant("reordered", Change(write={"clients/veldtmark/glossary.md": (
            "# Veldtmark glossary (DE > EN), v3, checked 5 May, no changes\n\n| German | English |\n|---|---|\n"
            "| Wasserzulauf | water inlet |\n| Schutzleiter | protective earth conductor |\n"
            "| Netzteil | power supply unit |\n| Ablaufschlauch | drain hose |\n")}),
            NOOP, "the same four term pairs in another order; no term changed"),
        Variant("other client", Change(write={"clients/fernholt/glossary.md": (
            "# Fernholt glossary (DE > EN)\n\n| German | English |\n|---|---|\n| Netzteil | mains adapter |\n")}),
            NOOP, "another client's glossary; Veldtmark's is unchanged"),
    ])

_RATE_MAIL = _mail("Lexa Translations <jobs@lexa.example>", "Job offer: 2,800 words DE>EN",
                   "Rate 0.12 EUR per word, delivery 8 May.")
SITUATIONS += family(
    "agency rate", "Tell me if an agency offers me less than 0.10 EUR a word. Offers come to mail/offers/",
    {**HOME, "mail/offers/2026-04-30-lexa.txt": _RATE_MAIL}, [
        Variant("eleven cents", Change(write={"mail/offers/2026-05-04-wordhaus.txt": _mail(
            "Wordhaus <pm@wordhaus.example>", "New job: 4,200 words, technical DE>EN",
            "We can offer 11 euro cents per word, due 14 May.")}),
            NOOP, "11 cents a word is 0.11 EUR, more than 0.10"),
        Variant("exactly ten cents", Change(write={"mail/offers/2026-05-04-linguanova.txt": _mail(
            "Lingua Nova <projects@linguanova.example>", "Website texts, 1,500 words",
            "Our rate for this one is 0.10 EUR per word.")}),
            NOOP, "0.10 EUR is the limit itself, not less"),
        Variant("marta's offer", Change(write={"mail/offers/2026-05-04-marta.txt": _mail(
            "Marta Kowal", "rates?",
            "Lexa just offered me 0.08 a word for a Polish job. Is that as bad as I think? What do they pay you?")}),
            NOOP, "the low offer was made to Marta, a colleague, not to the user"),
    ])

_ANA = "Ana Ruiz <ana@harbourlanebakery.example>"
SITUATIONS += family(
    "harbour lane proofs", "Let me know when Ana Ruiz approves the proofs from the Harbour Lane Bakery shoot, then I "
    "can send her the finals",
    {**HOME, "mail/2026-04-28-ana.txt": _mail(_ANA, "Shoot day", "See you at 7 on Thursday, the ovens will be "
                                              "going by then.")}, [
        Variant("approved", Change(write={"mail/2026-05-07-ana.txt": _mail(
            _ANA, "Re: Proofs, Harbour Lane", "We love them. All approved as they are, go ahead with the finals.")}),
            ACT, "Ana approved the proofs: tell the user"),
        Variant("invoice question", Change(write={"mail/2026-05-07-ana.txt": _mail(
            _ANA, "Invoice", "Could you re-issue the invoice to Harbour Lane Bakery Ltd rather than to me? Thanks.")}),
            NOOP, "a mail from Ana, but about the invoice, not the proofs"),
        Variant("on sunday", Change(write={"mail/2026-05-07-ana.txt": _mail(
            _ANA, "Re: Proofs, Harbour Lane", "Sorry, mad week. I'll sit down with the proofs on Sunday and get "
            "back to you on Monday.")}),
            NOOP, "Ana will look at the proofs later; nothing is approved yet"),
    ])


# --- a small web shop ----------------------------------------------------------------------------------------------

_PAYNOOK = "Paynook <noreply@paynook.example>"
SITUATIONS += family(
    "paynook chargeback", "If Paynook tell us about a chargeback, pull together the order, the tracking and any mails "
    "with that customer and prepare the evidence we have to send back",
    {**HOME, "mail/2026-05-01-paynook.txt": _mail(_PAYNOOK, "Your April statement is ready",
                                                 "Log in to see your April statement.")}, [
        Variant("dispute raised", Change(write={"mail/2026-05-08-paynook.txt": _mail(
            _PAYNOOK, "Chargeback raised: payment PN-77120",
            "The cardholder has disputed £46.00 for order #5512 (reason: goods not received). Send your evidence "
            "by 22 May 2026 or the money goes back to them.")}),
            ESCALATE, "a chargeback on order #5512: gather the order, tracking and mails into an evidence pack"),
        Variant("payout", Change(write={"mail/2026-05-08-paynook.txt": _mail(
            _PAYNOOK, "Payout on its way", "£1,284.50 will reach your bank account ending 0917 on 9 May.")}),
            NOOP, "a payout notice, not a chargeback"),
        Variant("refund sent", Change(write={"mail/2026-05-08-paynook.txt": _mail(
            _PAYNOOK, "Refund processed",
            "The refund you issued for order #5498 (£24.00) has been sent to the customer's card.")}),
            NOOP, "a refund the shop chose to give; the customer did not dispute anything"),
    ])

_INVENTORY = "sku,name,in_stock\nMUG-OAT,Oatmeal speckle mug,0\nMUG-SEA,Sea glass mug,3\nTEA-TWL,Linen tea towel,12\n"
_ORDERS = "order,date,sku,qty\n5530,2026-05-10,TEA-TWL,2\n5531,2026-05-10,MUG-SEA,1\n"
SITUATIONS += family(
    "ordered at zero", "tell me if an order comes in (shop/orders.csv) for something we've got none of in stock "
    "(shop/inventory.csv)",
    {**HOME, "shop/inventory.csv": _INVENTORY, "shop/orders.csv": _ORDERS}, [
        Variant("oatmeal mug ordered", Change(append={"shop/orders.csv": "5532,2026-05-11,MUG-OAT,1\n"}),
            ACT, "order 5532 is for the oatmeal mug, which has 0 in stock"),
        Variant("sea glass mugs", Change(append={"shop/orders.csv": "5532,2026-05-11,MUG-SEA,2\n"}),
            NOOP, "two sea glass mugs ordered, and there are three in stock"),
        Variant("stock hits zero", Change(write={"shop/inventory.csv": _INVENTORY.replace("mug,3", "mug,0")}),
            NOOP, "the sea glass mug is now out of stock, but no order for it came in"),
    ])

SITUATIONS += family(
    "wholesale enquiries", "Give me a one-line summary of each new wholesale enquiry that comes into mail/wholesale/",
    HOME, [
        Variant("fern and finch", Change(write={"mail/wholesale/2026-05-12-fern-and-finch.txt": _mail(
            "Fern & Finch, gift shop, Whitby", "Stocking your mugs?",
            "We'd like to stock the sea glass and oatmeal mugs, about 24 of each to start. Could you send your "
            "trade prices and minimum order?")}),
            ACT, "a new wholesale enquiry: summarise it in one line"),
        Variant("out of office", Change(write={"mail/wholesale/2026-05-12-hollybank.txt": _mail(
            "Hollybank Stores", "Automatic reply: your trade price list",
            "I'm away until 18 May with no access to email.")}),
            NOOP, "an automatic out-of-office reply, not an enquiry"),
    ])


# --- IT support ---------------------------------------------------------------------------------------------------

_LICENCES = ("# exported from the admin console\nfigura_seats_total: 25\nfigura_seats_used: 23\n"
             "officesuite_seats_total: 60\nofficesuite_seats_used: 52\nvpn_seats_total: 40\nvpn_seats_used: 31\n")
SITUATIONS += family(
    "figura seats", "Tell me when every seat on our Figura licence is taken (it/licences.txt), I'll need to buy more",
    {**HOME, "it/licences.txt": _LICENCES}, [
        Variant("25 of 25", Change(write={"it/licences.txt": _LICENCES.replace("figura_seats_used: 23",
                                                                                "figura_seats_used: 25")}),
            ACT, "all 25 Figura seats are in use"),
        Variant("24 of 25", Change(write={"it/licences.txt": _LICENCES.replace("figura_seats_used: 23",
                                                                                "figura_seats_used: 24")}),
            NOOP, "one Figura seat is still free"),
        Variant("vpn full", Change(write={"it/licences.txt": _LICENCES.replace("vpn_seats_used: 31",
                                                                                "vpn_seats_used: 40")}),
            NOOP, "the VPN seats are all taken; Figura is still at 23 of 25"),
    ], bystanders=("Tell me when the new firewall is delivered (it/deliveries.md)",))

_RESTORE = ("2026-05-03 03:10 weekly restore test start: 500 files from nas01 snapshot 2026-05-02\n"
            "2026-05-03 03:38 weekly restore test PASSED: 500/500 restored, checksums match\n"
            "2026-05-10 03:10 weekly restore test start: 500 files from nas01 snapshot 2026-05-09\n"
            "2026-05-10 03:41 weekly restore test PASSED: 500/500 restored, checksums match\n")
_BACKUP = ("2026-05-15 01:00 nightly backup nas01 -> offsite: 18.2 GB, ok\n"
           "2026-05-16 01:00 nightly backup nas01 -> offsite: 17.9 GB, ok\n")
SITUATIONS += family(
    "restore test", "If the weekly restore test fails, go through ops/logs/restore-test.log and ops/logs/backup.log "
    "and work out why",
    {**HOME, "ops/logs/restore-test.log": _RESTORE, "ops/logs/backup.log": _BACKUP}, [
        Variant("checksum mismatch", Change(append={"ops/logs/restore-test.log": (
            "2026-05-17 03:10 weekly restore test start: 500 files from nas01 snapshot 2026-05-16\n"
            "2026-05-17 03:52 weekly restore test FAILED: 14/500 checksum mismatch, all under /finance/2026\n")}),
            ESCALATE, "the restore test failed: investigate the 14 mismatched files"),
        Variant("two skipped", Change(append={"ops/logs/restore-test.log": (
            "2026-05-17 03:10 weekly restore test start: 500 files from nas01 snapshot 2026-05-16\n"
            "2026-05-17 03:40 weekly restore test PASSED: 498/500 restored, checksums match, "
            "2 skipped (excluded by policy: *.tmp)\n")}),
            NOOP, "the test passed; the two skipped files are temporary files excluded on purpose"),
        Variant("postponed", Change(append={"ops/logs/restore-test.log": (
            "2026-05-17 03:00 weekly restore test postponed to 2026-05-18 03:10: nas01 maintenance window\n")}),
            NOOP, "the test was moved to tomorrow; it did not run, so it did not fail"),
    ])

_ACCOUNTS = ("user,department,status,mfa\na.khan,finance,active,on\nb.lowe,sales,active,on\n"
             "j.berry,warehouse,active,on\nm.osei,office,active,on\n")
SITUATIONS += family(
    "mfa export", "when the weekly account export lands in it/accounts.csv, tell me if anyone has MFA switched off",
    {**HOME, "it/accounts.csv": _ACCOUNTS}, [
        Variant("berry off", Change(write={"it/accounts.csv": _ACCOUNTS.replace("warehouse,active,on",
                                                                                 "warehouse,active,off")}),
            ACT, "j.berry's MFA is off in the new export"),
        Variant("new starter", Change(write={"it/accounts.csv": _ACCOUNTS + "t.hughes,sales,active,on\n"}),
            NOOP, "a new account was added, with MFA on; everyone has MFA on"),
        Variant("question in notes", Change(write={"it/notes.md": (
            "# IT notes\n\n- Q for Friday: do we switch MFA off on the shared warehouse scanner account? Ask Jo.\n")}),
            NOOP, "only a question in the notes file; the export is unchanged and all on"),
    ])

_ASSETS = ("asset,type,user,status\nLT-0412,laptop,Ben Cole (left 30 Apr),awaiting return\n"
           "MN-0077,monitor,Ben Cole (left 30 Apr),awaiting return\nLT-0388,laptop,Asha Verma,in use\n")
SITUATIONS += family(
    "leaver laptop", "When a leaver's laptop comes back (it/assets.csv), remind me to wipe it before it goes back "
    "in the pool",
    {**HOME, "it/assets.csv": _ASSETS}, [
        Variant("returned", Change(write={"it/assets.csv": _ASSETS.replace(
            "LT-0412,laptop,Ben Cole (left 30 Apr),awaiting return", "LT-0412,laptop,Ben Cole (left 30 Apr),"
            "returned 6 May")}),
            ACT, "Ben Cole's laptop LT-0412 is back: remind the user to wipe it"),
        Variant("collection booked", Change(write={"it/assets.csv": _ASSETS.replace(
            "LT-0412,laptop,Ben Cole (left 30 Apr),awaiting return", "LT-0412,laptop,Ben Cole (left 30 Apr),"
            "courier collection booked for 8 May")}),
            NOOP, "a collection is only booked; the laptop is not back yet"),
        Variant("monitor back", Change(write={"it/assets.csv": _ASSETS.replace(
            "MN-0077,monitor,Ben Cole (left 30 Apr),awaiting return", "MN-0077,monitor,Ben Cole (left 30 Apr),"
            "returned 6 May")}),
            NOOP, "Ben's monitor came back; his laptop is still awaited"),
    ])


# --- HR admin --------------------------------------------------------------------------------------------------

_RACHEL = "Rachel Moss <rachel.moss@kirkbydc.example>"
SITUATIONS += family(
    "probation extension", "I'm in HR. If a manager's probation review recommends extending someone's probation or "
    "not confirming them, draft the outcome letter and an agenda for the meeting with them. Reviews come to mail/hr/",
    {**HOME, "mail/hr/2026-04-30-omar.txt": _mail(
        "Omar Haddad", "Probation review: Sian Pugh", "Sian has settled in well, please confirm her in post.")}, [
        Variant("extend dan", Change(write={"mail/hr/2026-05-12-rachel.txt": _mail(
            _RACHEL, "Probation review: Dan Fry",
            "I recommend we extend Dan's probation by three months. His stock counts were late four times and he "
            "needs more support with the scanners.")}),
            ESCALATE, "a recommendation to extend Dan Fry's probation: draft the letter and the meeting agenda"),
        Variant("confirm lucy", Change(write={"mail/hr/2026-05-12-omar.txt": _mail(
            "Omar Haddad", "Probation review: Lucy Tan", "Lucy has done really well. Please confirm her in post.")}),
            NOOP, "the review confirms Lucy; no extension or refusal"),
        Variant("form next week", Change(write={"mail/hr/2026-05-12-rachel.txt": _mail(
            _RACHEL, "Dan Fry's review",
            "I'm still collecting feedback from the night shift, you'll have Dan's form next week.")}),
            NOOP, "the review itself is still to come; no recommendation yet"),
    ])

_ABSENCE = ("name,start,end,type\nPriya Nair,2026-01-12,2026-01-13,sickness\nTom Hale,2026-02-02,2026-02-02,sickness\n"
            "Priya Nair,2026-02-23,2026-02-25,sickness\nPriya Nair,2026-03-16,2026-03-20,annual leave\n")
SITUATIONS += family(
    "sickness trigger", "Tell me if anyone gets to three separate sickness absences this year (hr/absence.csv), "
    "that's when we have to hold a review meeting",
    {**HOME, "hr/absence.csv": _ABSENCE}, [
        Variant("priya third", Change(append={"hr/absence.csv": "Priya Nair,2026-04-07,2026-04-08,sickness\n"}),
            ACT, "Priya's third separate sickness absence this year, after January and February"),
        Variant("tom second", Change(append={"hr/absence.csv": "Tom Hale,2026-04-07,2026-04-07,sickness\n"}),
            NOOP, "Tom's second sickness absence, not his third"),
        Variant("priya on holiday", Change(append={"hr/absence.csv": (
            "Priya Nair,2026-04-07,2026-04-10,annual leave\n")}),
            NOOP, "annual leave, not sickness; Priya still has two sickness absences"),
        Variant("spell extended", Change(write={"hr/absence.csv": _ABSENCE.replace(
            "2026-02-23,2026-02-25,sickness", "2026-02-23,2026-02-27,sickness")}),
            NOOP, "Priya's February absence was made longer; it is the same spell, still two"),
    ])
