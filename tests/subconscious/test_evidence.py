"""What the app reads off a change itself before and beside the model (issue 24): arrivals, which file a
condition means, whose birthday, what the user says, punctuation-only edits, figures it compares, and files
saved again with no line changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhuman_desktop.subconscious.changes import FileHistory, describe, table_header
from openhuman_desktop.subconscious.decisions import ChangeItem
from openhuman_desktop.subconscious.evidence import arrived, compared, condition_words, evidence, occasions
from openhuman_desktop.subconscious.judgement import Judge
from openhuman_desktop.subconscious.relevance import (
    awaits_arrival,
    cosmetic,
    names_subject,
    replaces_in_place,
    rule_names,
    subject_names,
    touches,
)
from openhuman_desktop.subconscious.report import news_section
from openhuman_desktop.subconscious.task_rules import TaskRules, derive, edited, stem
from tests.subconscious.test_judgement import TOKENS, make_task, report


def new_file(name: str, text: str) -> ChangeItem:
    return ChangeItem("file", name, text, "new")


def memory(text: str) -> ChangeItem:
    return ChangeItem("memory", "", text)


def edit(name: str, added: str, removed: str) -> ChangeItem:
    return ChangeItem("file", name, added, "changed", removed)


@pytest.mark.parametrize(("title", "waits"), [
    ("Summarise each new meeting note in the meetings folder", True),
    ("Review the new lease when it arrives in documents/", True),
    ("Give me a one-line summary of each article I save in reading/", True),
    ("Plan my week when the new shift schedule is posted in schedule/", True),
    ("Tell me when new errors appear in ops/logs/", False),  # errors come as lines, not as files
    ("Tell me when the parcel in tracking.txt is delivered", False),  # a file, not a folder
])
def test_a_task_that_waits_for_a_new_file_in_a_folder_is_told_apart(title: str, waits: bool) -> None:
    assert awaits_arrival(derive(title)) is waits


def test_an_arrival_is_a_new_file_never_an_edit_of_an_old_one() -> None:
    rule = derive("Summarise each new meeting note in the meetings folder")
    old = edit("meetings/2026-11-25.md", "- Sam owns the hiring plan (done)", "- Sam owns the hiring plan")
    new = new_file("meetings/2026-12-02.md", "# Team meeting 2 December\n- the release moves to Friday")
    assert not touches(rule, old) and touches(rule, new)
    assert arrived(rule, [new]) == "the new file meetings/2026-12-02.md", "each new note: any new file there"
    errors = derive("Tell me when new errors appear in ops/logs/")
    assert touches(errors, edit("ops/logs/web.log", "ERROR: timeout", "")), "lines in an old log still count"


def test_a_new_file_is_the_awaited_one_only_when_it_names_it() -> None:
    lease = derive("Review the new lease when it arrives in documents/")
    assert arrived(lease, [new_file("documents/lease-2027.md", "# Lease agreement 2027\n1. Rent: 1,150 EUR")])
    assert arrived(lease, [new_file("documents/receipt-ikea.md", "Receipt: 1 bookshelf, 79 EUR.")]) is None
    complaint = derive("When a customer complaint arrives in inbox/, prepare a response plan")
    assert arrived(complaint, [new_file("inbox/2026-12-02-mail.txt", "Subject: Complaint: wrong sofa")]), \
        "the first line names it"
    assert arrived(complaint, [new_file("inbox/2026-12-02-thanks.txt", "Subject: Thank you")]) is None
    both = derive("Compare the two car insurance offers once both have arrived in offers/")
    assert arrived(both, [new_file("offers/hanse.md", "Offer: Hanse car insurance")]) is None, \
        "one new offer is not both: the model is asked"


def test_the_web_server_log_is_not_the_backup_log() -> None:
    web = derive("Alert me when the web server log shows errors")
    assert not touches(web, edit("ops/logs/backup.log", "02:00 ERROR: disk full", ""))
    assert touches(web, edit("ops/logs/web.log", "08:01 ERROR GET /shop 500", ""))
    errors = derive("Tell me when the error logs grow")
    assert touches(errors, edit("ops/app.log", "ERROR: timeout", "")), "a word of the file's text names it too"


def test_her_birthday_is_the_birthday_of_the_person_the_action_names() -> None:
    rule = derive("Write a birthday message for Anna when her birthday comes up")
    assert rule_names(rule) == {"anna"}
    assert not touches(rule, ChangeItem("memory", "", "Ben's birthday is next Tuesday."))
    assert touches(rule, ChangeItem("memory", "", "Anna's birthday is this Friday; she turns 40."))


def test_what_the_user_says_is_the_condition_not_the_saying() -> None:
    rule = derive("Research the options when I say the washing machine broke")
    assert condition_words(rule) == {"break"}  # stemmed: "broke" is a form of break
    assert evidence(rule, [ChangeItem("memory", "", "Ran the washing machine twice today, laundry is done.")]) \
        is None
    assert evidence(rule, [ChangeItem("memory", "", "The washing machine broke today.")]) == "broke"
    assert condition_words(derive("Tell me when report.md mentions a deadline")) == {"deadlin"}


def test_a_punctuation_only_edit_touches_nothing() -> None:
    rule = derive("Update the project plan when the client changes the requirements in requirements.md")
    typo = edit("requirements.md", "1. Export the monthly report as CSV", "1. Export the monthly report as CSV.")
    assert cosmetic(typo) and not touches(rule, typo)
    real = edit("requirements.md", "1. Export the monthly report as PDF.", "1. Export the monthly report as CSV.")
    assert not cosmetic(real) and touches(rule, real)


@pytest.mark.parametrize(("title", "line", "met"), [
    ("Tell me when the flight to Lisbon in flights.md costs less than 300 EUR", "- Lisbon, 3 March: 289 EUR", True),
    ("Tell me when the flight to Lisbon in flights.md costs less than 300 EUR", "- Lisbon, 3 March: 320 EUR", False),
    ("Warn me when the disk is more than 90 % full", "disk usage 93 % on /home", True),
    ("Warn me when the disk is more than 90 % full", "disk usage 71 % on /home", False),
    ("Tell me when the rent is at least 1,200 EUR", "Rent: 1,150 EUR per month", False),
    ("Tell me when the rent is at least 1,200 EUR", "Rent: 1,250 EUR per month", True),
    ("Tell me when the bike costs under $500", "Bike: $ 449 at the shop", True),
    ("Tell me when the bike costs under 500 dollars", "Bike: $ 449 at the shop", True),
    ("Tell me when the hotel in Rome costs less than 90 euros a night", "- Rome, Hotel Sole: 84 EUR", True),
    ("Tell me when the hotel in Rome costs less than 90 euros a night", "- Rome, Hotel Sole: €95", False),
])
def test_a_figure_with_a_unit_is_compared_by_the_app(title: str, line: str, met: bool) -> None:
    rule = derive(title)
    figure = compared(rule, [edit("notes.md", line, "")], rule_names(rule))
    assert figure is not None and figure.met is met


def test_a_figure_is_left_to_the_model_without_a_unit_or_a_figure_or_on_another_subject() -> None:
    flight = derive("Tell me when the flight to Lisbon in flights.md costs less than 300 EUR")
    porto = edit("flights.md", "- Porto, 5 March: 250 EUR", "")
    assert compared(flight, [porto], rule_names(flight)) is None, "the Porto flight's price is not Lisbon's"
    assert compared(flight, [edit("flights.md", "- Lisbon: sold out", "")], rule_names(flight)) is None
    assert compared(derive("Tell me when the queue has fewer than 5 entries"),
                    [edit("queue.md", "3 March: 4 left", "")]) is None, "no unit: 3 could be a date"
    assert compared(derive("Tell me when the parcel is delivered"), [edit("t.txt", "12 EUR", "")]) is None


class NoModel:
    """A local tier that must not be called."""

    async def chat(self, request: object) -> object:
        raise AssertionError("the model was asked")


async def test_the_app_decides_a_compared_figure_without_a_model_call() -> None:
    title = "Tell me when the flight to Lisbon in flights.md costs less than 300 EUR"
    judge = Judge(lambda: NoModel(), TOKENS)  # type: ignore[arg-type, return-value]
    task = make_task(title)
    cheap = edit("flights.md", "- Lisbon, 3 March: 289 EUR", "- Lisbon, 3 March: 340 EUR")
    evaluation = await judge.evaluate([task], report(cheap))
    assert evaluation.decisions[task.id].decision == "act" and evaluation.model_calls == 0
    assert "289 EUR" in evaluation.decisions[task.id].reason
    dear = edit("flights.md", "- Lisbon, 3 March: 320 EUR", "- Lisbon, 3 March: 340 EUR")
    evaluation = await judge.evaluate([task], report(dear))
    assert evaluation.decisions[task.id].decision == "noop" and evaluation.model_calls == 0


async def test_files_saved_again_with_no_line_changed_are_noop_without_a_model_call() -> None:
    judge = Judge(lambda: NoModel(), TOKENS)  # type: ignore[arg-type, return-value]
    task = make_task("Summarise each new meeting note in the meetings folder")
    evaluation = await judge.evaluate([task], report(ChangeItem("file", "meetings/2026-11-25.md", "", "same")))
    assert evaluation.decisions[task.id].decision == "noop" and evaluation.model_calls == 0
    assert "no line changed" in evaluation.decisions[task.id].reason


def test_a_word_that_was_there_only_negated_is_news_when_it_is_said() -> None:
    rule = derive("Tell me when the exam results are published in school/results.md")
    published = edit("school/results.md", "Exam results (published 2 December): mathematics 1.7",
                     "Exam results: not published yet.")
    assert evidence(rule, [published]) == "published"
    still = edit("school/results.md", "Exam results: not published yet; expected next week.",
                 "Exam results: not published yet.")
    assert evidence(rule, [still]) is None
    again = edit("school/results.md", "Exam results (published 2 December), corrected", "Exam results (published 2 "
                 "December)")
    assert evidence(rule, [again]) is None, "said before too: no news"


@pytest.mark.parametrize(("title", "said", "silent"), [
    ("Add every expense I mention in my journal to expenses.csv", "3 December: groceries at the market, 23.50 EUR.",
     "2 December: went for a long walk by the river."),
    ("Remind me of anything urgent I told you", "Pick up the prescription at the pharmacy today.",
     "I prefer green tea in the afternoon."),
    ("Log each workout I tell you about in workouts.md", "Swam 40 lengths at the city pool after work.",
     "My knee feels better."),
    ("Review new memory updates for actionable items", "My passport expires soon; I need to renew it.",
     "The cat likes the blue blanket best."),
    ("Add the things I say we are out of to shopping.md", "We are out of olive oil and eggs.",
     "I bought olive oil yesterday, we have enough now."),
    ("Prepare a packing list when I book a trip", "We booked the ski cabin in Tyrol.",
     "Maybe I'll travel somewhere warm in spring."),
])
def test_a_condition_said_in_other_words_is_evidence(title: str, said: str, silent: str) -> None:
    rule = derive(title)
    assert evidence(rule, [ChangeItem("memory", "", said)]) is not None
    assert evidence(rule, [ChangeItem("memory", "", silent)]) is None


def test_a_concept_negated_or_said_before_is_no_evidence() -> None:
    rule = derive("Remind me of anything urgent I told you")
    assert evidence(rule, [ChangeItem("memory", "", "Nothing urgent, the dentist can wait.")]) is None
    journal = derive("Add every expense I mention in my journal to expenses.csv")
    assert evidence(journal, [edit("notes/journal.md", "paid 42 EUR, plumber (kitchen)", "paid 42 EUR, plumber")]) \
        is None, "the same sum was there before"


def test_names_that_are_not_words_tell_subjects_apart() -> None:
    disk = derive("Warn me when the /data disk in ops/logs/disk.log is more than 90 % full")
    assert not touches(disk, edit("ops/logs/disk.log", "06:00 /home used 96 %", ""))
    assert touches(disk, edit("ops/logs/disk.log", "06:00 /data used 93 %", ""))
    car = derive("Tell me when the garage says my car KX-402 is ready")
    assert not touches(car, edit("car/garage.md", "Job 7790, car TB-115: ready for pick-up", ""))
    share = derive("Tell me if NRDX in portfolio.md drops below 40 USD")
    assert compared(share, [edit("portfolio.md", "HALO: 9.80 USD", "")], rule_names(share)) is None
    figure = compared(share, [edit("portfolio.md", "NRDX: 39.10 USD", "")], rule_names(share))
    assert figure is not None and figure.met


def test_temperatures_below_zero_are_compared() -> None:
    freezer = derive("Alert me if the freezer gets warmer than -15 °C (sensor log in home/freezer.log)")
    warm = compared(freezer, [edit("home/freezer.log", "20:00 freezer -11.2 C", "")])
    cold = compared(freezer, [edit("home/freezer.log", "20:00 freezer -17.9 °C", "")])
    assert warm is not None and warm.met and cold is not None and not cold.met


def test_a_negation_or_a_plan_earlier_in_the_clause_is_no_evidence() -> None:
    office = derive("When I tell you I've been to the post office, tick 'post the forms' off notes/todo.md")
    assert evidence(office, [ChangeItem("memory", "", "I didn't make it to the post office today.")]) is None
    assert evidence(office, [ChangeItem("memory", "", "I'll go to the post office tomorrow morning.")]) is None
    assert evidence(office, [ChangeItem("memory", "", "Went to the post office, the forms are sent.")])
    critical = derive("Warn me about any CRITICAL entries in ops/logs/app.log")
    assert evidence(critical, [edit("ops/logs/app.log", "03:12 CRITICAL payment service unreachable", "")])
    assert evidence(critical, [edit("ops/logs/app.log", "INFO health check: no critical issues found", "")]) is None


def test_checking_against_something_is_a_comparison() -> None:
    assert derive("When the contractor's quote arrives in quotes/, check it against my budget").kind == "escalate"
    assert derive("Check my inbox folder for urgent emails").kind == "act"


def test_a_status_line_that_names_no_one_belongs_to_the_file_it_is_in() -> None:
    car = derive("Tell me when the garage says my car KX-402 is ready")
    assert touches(car, edit("car/garage.md", "Status: work finished, you can collect the car after 15:00",
                             "Status: waiting for the brake parts"))
    assert not touches(car, edit("car/garage.md", "Job 7790, car TB-115: ready for pick-up", ""))
    assert not touches(derive("Tell me when Anna's address changes in contacts.md"),
                       edit("contacts.md", "Ben Ortiz: Gran Via 30, Madrid", "Ben Ortiz: Calle Mayor 12, Madrid"))


@pytest.mark.parametrize(("title", "line", "met"), [
    ("Tell me when the van in car/log.md passes 150,000 km", "2026-11-30 150,420 km", True),
    ("Tell me when the van in car/log.md passes 150,000 km", "2026-11-30 149,870 km", False),
    ("Investigate if the backup in ops/logs/backup.log takes more than 2 hours", "backup took 9,000 s", True),
    ("Investigate if the backup in ops/logs/backup.log takes more than 2 hours", "backup took 95 minutes", False),
    ("Investigate if the backup in ops/logs/backup.log takes more than 2 hours", "backup duration 02:40:12", True),
    ("Tell me if my internet plan gets more expensive", "The fee goes from 39.90 EUR to 44.90 EUR in March.", True),
    ("Tell me if my internet plan gets more expensive", "The fee goes from 39.90 EUR to 34.90 EUR in March.", False),
])
def test_limits_passed_durations_and_moves_are_compared_by_the_app(title: str, line: str, met: bool) -> None:
    rule = derive(title)
    figure = compared(rule, [edit("car/log.md", line, "")], rule_names(rule))
    assert figure is not None and figure.met is met


@pytest.mark.parametrize(("title", "said", "silent"), [
    ("Tell me when my new glasses can be picked up", "Your glasses are ready, collect them at the shop by Friday.",
     "Your glasses are being made, about ten days."),
    ("Tell me if my visa application is approved", "Your visa has been granted for 90 days.",
     "Your visa application is pending approval."),
    ("Tell me if the dentist appointment is cancelled", "The practice called off all Tuesday appointments.",
     "The appointment stays as planned."),
    ("Tell me if Sunday's ride-out gets called off", "UPDATE: Sunday is OFF. Black ice on the tops.",
     "UPDATE: Sunday is off to a cold start, meet at 9 as usual."),
    ("If Saturday's litter-pick is called off, let me know", "We're not going ahead tomorrow; new date to follow.",
     "The pick could be rained off, we'll decide on Friday."),
    ("let me know if a Wednesday practice at the tower gets cancelled", "| 13 May | - | NO PRACTICE: tower shut |",
     "| 13 May | Colin | Grandsire |"),
    ("Let me know when this month's wine club case has been sent out", "| March | Spring case | with courier |",
     "Cases will leave our warehouse from the 18th."),
    ("Tell me when my order from Halden ships", "Your order is on its way, tracking number 1552 8890.",
     "Your order will be dispatched on Monday."),
    ("Let me know once Kitchenly confirms they've got the blender I sent back", "Your blender has arrived with us.",
     "Your return is on its way to our warehouse."),
    ("let me know when my deposit from the old flat on Carver Street comes back",
     "2026-05-20,DPS DEPOSIT RETURN 7 CARVER ST,1150.00", "The agent says the deposit should be back next week."),
    ("Let me know if I get off the waitlist for Thursday's 6:30am spin class",
     "Good news, a space opened up and you've been moved from the waitlist into Spin.",
     "You're number 2 on the waitlist for Spin."),
    ("tell me if the letting agent books an inspection of our flat",
     "We will carry out a routine inspection of your flat on Tuesday 12 May.",
     "We will book the routine inspections in due course."),
    ("Remind me if the water bill becomes overdue", "Water bill: 3 days past the due date.",
     "Water bill: 41 EUR, due on 20 December."),
    ("Tell me when the blue kettle is back in stock", "Blue kettle: available, ships within 3 days",
     "Blue kettle: available from March"),
    ("Tell me if the import job goes wrong", "import job could not reach the database",
     "import job finished with 0 errors"),
])
def test_everyday_meanings_in_other_words_are_evidence(title: str, said: str, silent: str) -> None:
    rule = derive(title)
    assert evidence(rule, [edit("notes.md", said, "")]) is not None
    assert evidence(rule, [edit("notes.md", silent, "")]) is None


def test_a_pronoun_condition_is_about_what_its_action_names() -> None:
    rule = derive("Remind me to pay the gas bill if it becomes overdue")
    assert {"gas", "bill"} <= set(rule.watch_words)
    assert touches(rule, edit("bills/gas.md", "status: overdue since 2 December", "status: open"))


def test_a_change_that_says_only_what_must_happen_is_about_something_else() -> None:
    passport = derive("Let me know when my new passport is ready")
    assert not touches(passport, new_file("documents/id-card.md", "Identity card renewal\nStatus: ready"))
    assert touches(passport, new_file("documents/office.md", "Passport renewal\nStatus: ready"))
    plumber = derive("Remind me to be home when the plumber confirms a time")
    assert not touches(plumber, ChangeItem("memory", "", "The electrician confirmed Monday at 9."))


def test_host_names_and_short_names_are_names_as_a_whole() -> None:
    cert = derive("Tell me if the certificate renewal for api.example.net fails (ops/logs/certs.log)")
    assert not touches(cert, edit("ops/logs/certs.log", "renewal for www.example.net failed", ""))
    assert touches(cert, edit("ops/logs/certs.log", "renewal for api.example.net failed", ""))
    trip = derive("Plan our Lisbon trip once Al confirms the dates")
    assert touches(trip, ChangeItem("memory", "", "Al says Lisbon is settled: 3 to 6 May."))


def test_each_time_splits_a_task_into_action_and_condition() -> None:
    rule = derive("Add a line to garden/rain.md each time I tell you it rained")
    assert rule.targets == ("garden/rain.md",) and rule.condition == "I tell you it rained"


def test_a_message_is_told_by_who_sends_it_not_by_its_topic() -> None:
    rule = derive("Draft a reply if the landlord writes to me about the heating")
    assert evidence(rule, [edit("notes/home.md", "bleed the heating radiators in October", "")]) is None


def test_a_bare_figure_with_cents_is_money_in_the_limits_currency() -> None:
    rule = derive("Let me know if any payment on my card (finance/visa.csv) is over 300 EUR")
    big = compared(rule, [edit("finance/visa.csv", "2026-11-28,Bike Shop,845.50", "")], rule_names(rule))
    small = compared(rule, [edit("finance/visa.csv", "2026-11-28,Bakery,4.20", "")], rule_names(rule))
    assert big is not None and big.met and small is not None and not small.met


def test_a_line_about_another_named_thing_is_no_evidence() -> None:
    rule = derive("Tell me when the health check in ops/logs/health.log reports the VPN as down")
    other = edit("ops/logs/health.log", "mail.home.example DOWN\nVPN UP 20ms", "")
    assert evidence(rule, [other]) is None
    assert evidence(rule, [edit("ops/logs/health.log", "VPN DOWN timeout", "")]) is not None


@pytest.mark.parametrize(("title", "said", "silent"), [
    ("Tell me when the guest house in travel/rome.md confirms our room", "Casa Lina: your room is booked.",
     "Casa Lina: sorry, we are fully booked that week."),
    ("If the landlord refuses to fix the boiler, draft a letter", "We cannot accept the repair request.",
     "The boiler will be fixed by the building's plumber."),
    ("Tell me when the refund from Nordbike shows up in finance/bank.csv", "2026-12-01,NORDBIKE RETURN CREDIT,120.00",
     "2026-12-01,CITY BAKERY,4.20"),
    ("Remind me to send the gas meter reading when the utility asks for it",
     "Please send us the reading of your gas meter by 15 December.",
     "We have received your gas meter reading of 18,402 m3."),
    ("Tell me when the airline finds my suitcase", "Suitcase located at Lisbon airport, courier tomorrow.",
     "Suitcase still being searched for at Lisbon airport."),
    ("Tell me when the plumber has fixed the boiler", "Plumber came: the boiler is working again.",
     "The plumber could not repair the boiler today."),
])
def test_what_happens_is_read_from_the_conditions_verb(title: str, said: str, silent: str) -> None:
    rule = derive(title)
    assert evidence(rule, [edit("notes.md", said, "")]) is not None
    assert evidence(rule, [edit("notes.md", silent, "")]) is None


def test_a_pronoun_anywhere_in_the_condition_is_what_the_action_names() -> None:
    rule = derive("Remind me to send the water meter reading when the council asks for it")
    assert {"water", "meter", "read"} <= set(rule.watch_words)


def test_a_document_someone_sends_into_a_folder_is_an_arrival() -> None:
    rule = derive("When Kestrel sends the revised service agreement to work/contracts/, review what changed")
    assert awaits_arrival(rule)
    assert arrived(rule, [new_file("work/contracts/kestrel-agreement-v2.md", "Kestrel agreement, version 2")])
    assert arrived(rule, [new_file("work/contracts/invoice-118.md", "Invoice 118 for November")]) is None
    assert evidence(rule, [edit("work/contracts/kestrel-2025.md", "Note: paid late in October", "")]) is None
    assert not awaits_arrival(derive("Tell me when Anna sends the tickets to me"))  # no folder: a message


def test_a_document_posted_with_its_folder_in_brackets_need_not_name_who_posts_it() -> None:
    rule = derive("When Gillian posts the autumn concert programme (choir/), draft an order for the scores I lack")
    assert awaits_arrival(rule)
    programme = new_file("choir/autumn-programme-2026.md", "# Autumn concert\n\n- Mozart Requiem\n- Vivaldi Gloria")
    assert touches(rule, programme) and arrived(rule, [programme])
    promise = new_file("choir/notes.md", "Gillian: I'll announce the autumn programme at the party in July.")
    assert arrived(rule, [promise]) is None, "a programme still to come"
    figures = derive("When the police send the monthly crime figures for St Anne's ward (community/nhw/), "
                     "write the newsletter summary")
    assert arrived(figures, [new_file("community/nhw/crime-2026-03.md", "# St Anne's ward - March (police figures)")])
    assert not arrived(figures, [new_file("community/nhw/crime-harbour.md", "# Harbour ward - March (police figures)")])
    assert not touches(derive("Let me know when the invoice from Acme arrives in invoices/"),
                       new_file("invoices/globex-88.md", "Globex Ltd, invoice 88")), "an invoice names its sender"


def test_a_file_the_condition_waits_to_be_there_is_met_when_it_appears_with_something_in_it() -> None:
    rule = derive("When the autumn term requests are in (community/hall/requests-autumn.csv), draft the timetable")
    assert evidence(rule, [new_file("community/hall/requests-autumn.csv", "group,day\nZumba,Mon\nKarate,Thu")])
    assert evidence(rule, [new_file("community/hall/requests-autumn.csv", "Requests: not yet in")]) is None
    assert evidence(rule, [new_file("community/hall/requests-summer.csv", "group,day\nZumba,Mon")]) is None


def test_a_mail_whose_subject_names_what_is_sent_is_from_whom_the_condition_names_it_by_role() -> None:
    rule = derive("If the managing agent sends the section 20 notice for the roof works, draft our observations")
    notice = new_file("mail/carter.txt", "From: Carter Block Management <m@carter.example>\nSubject: Section 20 "
                                         "notice of intention: roof works\n\nWe give notice that the roof is replaced.")
    assert evidence(rule, [notice])
    later = new_file("mail/carter.txt", "From: Carter Block Management <m@carter.example>\nSubject: Roof update\n\n"
                                        "We expect to issue the section 20 notice in the next few weeks.")
    assert evidence(rule, [later]) is None


def world(line: str, skill: str = "email") -> ChangeItem:
    return news_section("New email", f"- {line}", "sig", skill, [(line, 100.0)]).items[0]


def test_a_mail_a_skill_saw_is_weighed_by_the_tasks_it_names() -> None:
    acme = world("email: Acme Billing <billing@acme.example>, Invoice 4711, 2 Dec 2026, your invoice is attached")
    globex = world("email: Globex <ar@globex.example>, Invoice 88, 2 Dec 2026, your invoice is attached")
    assert acme.source == "world" and acme.name == "email" and acme.at == 100.0
    rule = derive("Tell me if an invoice from Acme arrives")
    assert touches(rule, acme) and not touches(rule, globex), "another sender's invoice is not Acme's"
    assert evidence(rule, [acme]) is not None, "the mail's arrival is the news"
    assert touches(derive("Check urgent emails"), world("email: Bank <a@bank.example>, URGENT: call us, 2 Dec"))
    assert not touches(derive("Summarise each new invoice in finance/inbox/"), acme), "it watches a folder"
    assert not touches(derive("Tell me when the dentist confirms my appointment"), acme)


def test_a_message_from_someone_is_told_by_who_sends_it() -> None:
    rule = derive("Draft a reply whenever my landlord writes to me")
    landlord = world("email: Thomas Keller (landlord) <tk@mail.example>, Heating, 2 Dec, the boiler is serviced")
    other = world("email: Shop <news@shop.example>, Winter sale, 2 Dec, heating pads half price")
    assert evidence(rule, [landlord]) is not None
    assert evidence(rule, [other]) is None


def test_a_field_replaced_in_place_keeps_its_subject_whatever_else_it_names() -> None:
    train = derive("Tell me if my train to Vienna in travel/train.md is cancelled or more than 30 minutes late")
    cancelled = edit("travel/train.md", "Status: does not run on 5 December (engineering works); replacement bus "
                                        "from Salzburg", "Status: on time")
    assert touches(train, cancelled)
    assert evidence(train, [cancelled]) == "does not run"
    # a line keyed by another name is that name's, replaced or not; a new line naming another is another's
    assert not replaces_in_place("Porto: 250 EUR", "Porto: 340 EUR")
    assert replaces_in_place("- Status: delayed by Anna", "- Status: on time")
    assert not touches(train, edit("travel/train.md", "Status: Salzburg train cancelled", ""))


def test_contracted_negations_negate_and_a_negative_condition_needs_a_negated_change() -> None:
    parcel = derive("Tell me when the parcel in tracking.txt is delivered")
    assert evidence(parcel, [edit("tracking.txt", "Parcel won't be delivered today: address unclear", "")]) is None
    assert evidence(parcel, [edit("tracking.txt", "We couldn't find anyone, delivery tomorrow", "")]) is None
    pickup = derive("Ping me if Sam says he can't pick up the kids from daycare")
    said = ChangeItem("memory", "", "Sam: I can't pick up the kids today, stuck at work", "new")
    assert evidence(pickup, [said]) == "pick"
    assert evidence(pickup, [ChangeItem("memory", "", "Sam will pick up the kids at 5 as usual", "new")]) is None


def test_a_time_that_is_set_is_evidence_for_a_condition_that_waits_for_one() -> None:
    plumber = derive("Remind me to be home when the plumber confirms a time")
    assert evidence(plumber, [ChangeItem("memory", "", "The plumber texted: he'll come Thursday between 8 and 9",
                                         "new")]) == "thursday"
    assert evidence(plumber, [ChangeItem("memory", "", "The plumber can't make Thursday, he will call back",
                                         "new")]) is None
    assert evidence(plumber, [ChangeItem("memory", "", "The plumber will call back to arrange a visit", "new")]) is None
    assert evidence(derive("Tell me when the dentist gives me a date"),
                    [new_file("mail/dentist.txt", "Your appointment: 14 January at 10:30")]) is not None


def test_a_thing_named_in_other_everyday_words_touches_the_task() -> None:
    suitcase = derive("Tell me when the airline finds my suitcase")
    found = edit("travel/baggage-claim.md", "Update: bag located in Frankfurt, courier tomorrow", "")
    assert touches(suitcase, found) and evidence(suitcase, [found]) == "located"
    assert touches(derive("Remind me when the parcel is delivered"),
                   ChangeItem("memory", "", "The package was left with the neighbour", "new"))
    assert not touches(suitcase, edit("notes/shopping.md", "new handbag for Mia", ""))


def test_a_condition_about_what_is_going_to_happen_is_met_by_what_will() -> None:
    passport = derive("Tell me when my passport is about to expire")
    soon = ChangeItem("memory", "", "My passport will expire in March, I noticed today", "new")
    assert evidence(passport, [soon]) == "expire"
    assert evidence(derive("Tell me when my passport expires"), [soon]) is None, "a plan is no news for the event"
    assert evidence(passport, [ChangeItem("memory", "", "My passport will not expire before 2031", "new")]) is None


def test_a_message_said_to_be_sent_is_evidence_and_one_promised_is_not() -> None:
    recipe = derive("Remind me to thank Mum when she sends the lasagne recipe")
    assert evidence(recipe, [ChangeItem("memory", "", "Mum sent me her lasagne recipe!", "new")]) == "sent"
    assert evidence(recipe, [ChangeItem("memory", "", "Mum says she will send the lasagne recipe tomorrow",
                                        "new")]) is None
    assert evidence(recipe, [ChangeItem("memory", "", "Mum hasn't sent the lasagne recipe yet", "new")]) is None


def test_what_someone_says_is_what_the_condition_waits_for_and_names_are_no_predicate() -> None:
    bike = derive("Ping me once the bike shop says the repair is done")
    assert evidence(bike, [ChangeItem("memory", "", "Bike shop: still waiting on the part for the repair",
                                      "new")]) is None
    assert evidence(bike, [ChangeItem("memory", "", "Bike shop called: the repair is done", "new")]) == "done"
    talk = derive("When my talk is accepted for PyCon, plan the slides")
    assert evidence(talk, [ChangeItem("memory", "", "PyCon talk decisions are due next week", "new")]) is None
    rent = derive("If the landlord raises the rent, draft a polite reply")
    raised = new_file("mail/landlord.txt", "Your monthly rent will go up from 950 EUR to 1,010 EUR.")
    figure = compared(rent, [raised])
    assert figure is not None and figure.met


def test_someone_elses_is_no_news_for_the_users_own() -> None:
    talk = derive("Let me know when my conference talk gets accepted")
    assert evidence(talk, [ChangeItem("memory", "", "Anna's talk was accepted, mine is still under review",
                                      "new")]) is None
    assert evidence(talk, [ChangeItem("memory", "", "Great news: my talk was accepted!", "new")]) == "accepted"
    assert evidence(derive("Tell me when Anna's talk is accepted"),
                    [ChangeItem("memory", "", "Anna's talk was accepted", "new")]) == "accepted"


@pytest.mark.parametrize(("title", "line", "met"), [
    ("Warn me when the battery in home/ups.log is at 20 % or less", "battery 20 %", True),
    ("Warn me when the battery in home/ups.log is at 20 % or less", "battery 35 %", False),
    ("Tell me if Leo's temperature is 38.5 °C or higher (health/leo.md)", "Leo 38.9 °C at 21:00", True),
    ("Tell me if Leo's temperature is 38.5 °C or higher (health/leo.md)", "Leo 37.8 °C at 21:00", False),
])
def test_a_bound_the_condition_includes_is_compared_by_the_app(title: str, line: str, met: bool) -> None:
    rule = derive(title)
    figure = compared(rule, [edit(rule.watch_paths[0], line, "")], rule_names(rule))
    assert figure is not None and figure.met is met


def test_a_figure_in_a_csv_line_after_a_date_is_read_whole() -> None:
    meter = derive("If my electricity usage in home/meter.csv goes above 15 kWh a day, investigate why")
    for line, met in (("2026-12-01,18.4 kWh", True), ("2026-12-01,11.2 kWh", False), ("2026-12-01;12,5 kWh", False)):
        figure = compared(meter, [edit("home/meter.csv", line, "")])
        assert figure is not None and figure.met is met, line


def test_what_must_happen_is_read_without_where_and_an_arrival_hedged_after_its_subject_is_none() -> None:
    grandpa = derive("Let me know when Grandpa is discharged from hospital")
    assert evidence(grandpa, [ChangeItem("memory", "", "Grandpa is still in hospital, doctors want more tests",
                                         "new")]) is None
    assert evidence(grandpa, [ChangeItem("memory", "", "Grandpa can go home from the hospital tomorrow",
                                         "new")]) == "can go home"
    card = derive("Tell me when my new bank card arrives")
    assert evidence(card, [ChangeItem("memory", "", "The new bank card came in the post today", "new")]) == "card"
    assert evidence(card, [ChangeItem("memory", "", "The bank says my new card will arrive within 5 working days",
                                      "new")]) is None
    renewal = derive("Remind me to renew the car insurance when the renewal notice comes in mail/")
    notice = new_file("mail/2026-12-02-insurer.txt", "From: SafeDrive Insurance\nSubject: Your renewal notice\n\n"
                                                     "Your policy renews on 1 January.")
    assert evidence(renewal, [notice]) is not None


@pytest.mark.parametrize(("title", "line", "met"), [
    ("Let me know when the newsletter passes 1,000 subscribers", "Subscribers: 1,012", True),
    ("Let me know when the newsletter passes 1,000 subscribers", "Subscribers: 997", False),
    ("Let me know when the newsletter passes 1,000 subscribers", "Goal: 1,000 subscribers by May", False),
    ("Tell me when the queue has fewer than 5 items", "3 March: 4 items left", True),
    ("Warn me when there are more than 20 open tickets", "Open tickets: 23", True),
    ("Tell me when I'm down to 7 Ramipril tablets or fewer", "Ramipril 5 mg: 7", True),
    ("Tell me when I'm down to 7 Ramipril tablets or fewer", "Ramipril 5 mg: 9", False),
])
def test_a_count_of_things_is_compared_by_the_app(title: str, line: str, met: bool) -> None:
    """A bound that counts a thing ("1,000 subscribers") is compared with that thing's count on the changed
    lines, after its label ("Subscribers: 1,012") or before its name ("4 items")."""
    rule = derive(title)
    figure = compared(rule, [edit("notes.md", line, "")], rule_names(rule))
    assert figure is not None and figure.met is met


def test_another_count_on_the_line_is_not_the_one_the_condition_counts() -> None:
    rule = derive("Let me know when the newsletter passes 1,000 subscribers")
    figure = compared(rule, [edit("stats.md", "Subscribers: 981\nWeb views: 1,240", "")], rule_names(rule))
    assert figure is not None and not figure.met
    ramipril = derive("Tell me when I'm down to 7 Ramipril tablets or fewer")
    assert compared(ramipril, [edit("t.md", "Cetirizine 10 mg: 3", "")], rule_names(ramipril)) is None


def test_a_placeholder_filled_in_is_what_shows_up() -> None:
    """"pending" replaced by a value on the line that names the subject is the grade showing up; the same line
    with a note beside "pending", or another course's grade, is not."""
    rule = derive("Tell me when my Statistics II grade shows up in uni/grades.md")
    was = "| Statistics II | 6 | pending |"
    assert evidence(rule, [edit("uni/grades.md", "| Statistics II | 6 | 2.3 |", was)])
    assert evidence(rule, [edit("uni/grades.md", "| Statistics II | 6 | pending (marks by Friday) |", was)]) is None
    assert evidence(rule, [edit("uni/grades.md", "| Linear Algebra | 6 | 1.3 |", "| Linear Algebra | 6 | pending |")
                           ]) is None


@pytest.mark.parametrize(("title", "line", "said"), [
    ("If someone drops out of Saturday's shift, work out a new plan", "Ruth can't do Saturday after all", True),
    ("If someone drops out of Saturday's shift, work out a new plan", "Saturday: prices dropped", False),
    ("Ping me if Saturday's U12 match gets called off", "U12 vs Hafen: CANCELLED, pitch waterlogged", True),
    ("Ping me whenever CI goes red on main", "branch=main status=failed", True),
    ("Ping me whenever CI goes red on main", "branch=main status=passed", False),
    ("If db-prod-1 reboots without it being planned, work out why", "db-prod-1 last boot 01:52, reason unknown", True),
    ("Let me know when a company invites me to an interview", "We would like to meet you on Tuesday", True),
    ("Let me know when a company invites me to an interview", "We decided not to invite you to an interview", False),
])
def test_a_condition_said_in_other_words(title: str, line: str, said: bool) -> None:
    """Phrasal verbs mean what they mean ("drops out", "called off"), "goes red" links to red (a failure), and a
    negation after what must happen ("without it being planned") does not negate it."""
    assert bool(evidence(derive(title), [edit("notes.md", line, "")])) is said


def test_his_or_her_interview_is_not_mine() -> None:
    rule = derive("When I tell you I've landed an interview, put together a prep brief")
    assert evidence(rule, [memory("Karim has his final interview tomorrow")]) is None
    assert evidence(rule, [memory("Tallow want to interview me on Thursday")])


def row(name: str, header: str, added: str, removed: str = "") -> ChangeItem:
    return ChangeItem("file", name, added, "changed", removed, title=header)


@pytest.mark.parametrize(("title", "header", "line", "met"), [
    ("Let me know as soon as the balance drops under 200 EUR", "date,description,amount,balance",
     "2026-12-03,Kids' jackets,-198.50,214.30", False),
    ("Let me know as soon as the balance drops under 200 EUR", "date,description,amount,balance",
     "2026-12-03,Insurance,-260.00,152.80", True),
    ("If a run's validation accuracy comes in under 0.80, dig into it", "run,date,train_acc,val_acc",
     "r34,2026-12-02,0.78,0.83", False),
    ("If a run's validation accuracy comes in under 0.80, dig into it", "run,date,train_acc,val_acc",
     "r34,2026-12-02,0.93,0.71", True),
])
def test_a_tables_column_is_what_the_condition_compares(title: str, header: str, line: str, met: bool) -> None:
    """The changed row's cell in the column the condition names (its header's words, or their starts: val_acc
    for "validation accuracy") is what is compared, not the amount or the training accuracy beside it."""
    rule = derive(title)
    figure = compared(rule, [row("t.csv", header, line)], rule_names(rule))
    assert figure is not None and figure.met is met


@pytest.mark.parametrize(("line", "met"), [("2026-02-05,1.2047", True), ("2026-02-05,1.2000", False)])
def test_a_column_named_in_the_conditions_unit_is_what_it_compares(line: str, met: bool) -> None:
    """"The pound is worth more than 1.20 euros, we're paying the builder in Spain": the rate is the column in
    euros, and the user's reason names no subject a line must repeat."""
    rule = derive("Tell me when the pound is worth more than 1.20 euros, we're paying the builder in Spain "
                  "(money/gbp-eur.csv)")
    assert rule_names(rule) == frozenset()
    figure = compared(rule, [row("money/gbp-eur.csv", "date,gbp_eur", line)], rule_names(rule))
    assert figure is not None and figure.met is met


def test_an_identifier_column_is_never_compared() -> None:
    rule = derive("Ping me if an order over 500 EUR comes in (shop/orders.csv)")
    figure = compared(rule, [row("shop/orders.csv", "order_id,date,customer,total_eur", "1043,2026-12-02,Ana,499.00")],
                      rule_names(rule))
    assert figure is not None and not figure.met


@pytest.mark.parametrize(("line", "removed", "met"), [
    ("SP-05,Lavender soap,12,20", "SP-05,Lavender soap,25,20", True),
    ("CN-01,Candle small,31,15", "CN-01,Candle small,42,15", False),
    ("SP-05,Lavender soap,25,22", "SP-05,Lavender soap,25,20", False),
])
def test_a_bound_in_the_same_row_is_compared_too(line: str, removed: str, met: bool) -> None:
    rule = derive("Keep an eye on shop/stock.csv and tell me when something drops below its reorder level")
    figure = compared(rule, [row("shop/stock.csv", "sku,item,on_hand,reorder_at", line, removed)], rule_names(rule))
    assert figure is not None and figure.met is met


def test_a_table_header_is_kept_with_a_changed_table(tmp_path: Path) -> None:
    history = FileHistory(None)
    path = tmp_path / "t.csv"
    path.write_text("date,amount,balance\n2026-12-01,-5.00,100.00\n", encoding="utf-8")
    history.changes(tmp_path, [("t.csv", path.stat().st_size)], None, 1.0)
    path.write_text("date,amount,balance\n2026-12-01,-5.00,100.00\n2026-12-02,-20.00,80.00\n", encoding="utf-8")
    [change] = history.changes(tmp_path, [("t.csv", path.stat().st_size)], 1.0, 2.0)
    assert change.title == "date,amount,balance" and "columns: date,amount,balance" in describe(change)
    assert table_header("# Food bank, Saturday 6 December\n") == ""


@pytest.mark.parametrize(("title", "text", "said"), [
    ("Let me know once Kitchenly confirms they've got the blender I sent back",
     "From: Kitchenly Returns\nSubject: We've received your return RMA-30551\n\nYour Blender BX-900 has arrived.",
     True),
    ("Let me know once Kitchenly confirms they've got the blender I sent back",
     "From: Kitchenly Returns\nSubject: Your return is on its way\n\nRMA-30551 was scanned by the carrier.", False),
    ("Whenever a direct debit bounces, tell me which one", "Direct debit RETURNED UNPAID: FitBox 39.90 EUR", True),
    ("Whenever a direct debit bounces, tell me which one", "Direct debit collected: Telewave 24.99 EUR", False),
    ("Tell me if the water or the power is going to be switched off",
     "the water supply will be switched off on Thursday, 9 to 13", True),
    ("Tell me if the water or the power is going to be switched off",
     "electricians replace the lights; the power in the flats is not affected", False),
])
def test_what_a_mail_or_a_notice_says_in_its_own_words(title: str, text: str, said: bool) -> None:
    """A mail from whom the condition names is about them on every line (its product codes are no other
    subject); "the blender I sent back" is the user's sending, not a message awaited; a bounced debit and a
    supply switched off in the words banks and landlords use; a future condition accepts a future notice."""
    assert bool(evidence(derive(title), [ChangeItem("file", "mail/x.txt", text, "new")])) is said


def test_what_the_user_will_do_is_not_done() -> None:
    rule = derive("When I tell you I've booked a flight, add it to travel/trips.csv")
    assert evidence(rule, [memory("Found a flight to Oslo for 89 EUR; I'll book it tomorrow.")]) is None
    assert evidence(rule, [memory("Booked: Hamburg to Oslo on 12 February, SK 652.")])


def test_a_version_is_a_name_of_its_own() -> None:
    """"version 3.2" is not the 3.1.4 hotfix, and v2.4.0 is not its release candidate; a bare "8.4" is a figure."""
    rule = derive("Tell me when version 3.2 is live in production (ops/logs/deploy.log)")
    assert touches(rule, edit("ops/logs/deploy.log", "09:15 v3.2 rollout to prod complete, now live", ""))
    assert not touches(rule, edit("ops/logs/deploy.log", "09:05 v3.1.4 hotfix rolled out, live on prod", ""))
    tagged = derive("Once v2.4.0 gets tagged (see release/tags.md), draft the release notes")
    assert not touches(tagged, edit("release/tags.md", "- v2.4.0-rc1 2026-12-02 release candidate", ""))
    assert "v8.4" not in subject_names("Tell me when the rate goes above 8.4 %")


@pytest.mark.parametrize(("title", "text", "said"), [
    ("If the repair shop gives us a price for fixing the dishwasher, work out whether it is worth it",
     "The inspection of your dishwasher moves to Friday; we will send you a quote after the visit.", False),
    ("If the repair shop gives us a price for fixing the dishwasher, work out whether it is worth it",
     "The FixIt man rang: fixing the dishwasher would be about 290 EUR all in.", True),
    ("Let me know if a parking or speeding fine turns up in mail/",
     "Subject: Your residents' parking permit\n\nRenew it online for 65 EUR.", False),
    ("Let me know if a parking or speeding fine turns up in mail/",
     "Subject: Notice of penalty: parking offence\n\nThe fine is 35 EUR, payable within 14 days.", True),
    ("When I tell you I've landed an interview, put together a prep brief",
     "Brightwell called off the interview they had pencilled in.", False),
])
def test_what_must_come_is_what_is_given_or_what_arrives(title: str, text: str, said: bool) -> None:
    """"Gives us a price" waits for a price (quoted as what a repair would be), not for the dishwasher's name; "a
    parking or speeding fine turns up" for a fine, not for anything about parking; an interview called off is
    none."""
    assert bool(evidence(derive(title), [ChangeItem("file", "mail/x.txt", text, "new")])) is said


def test_a_files_first_line_names_what_its_lines_are_about() -> None:
    rule = derive("If a guest gives Curlew Cottage fewer than 4 stars, draft a polite public reply")
    review = ChangeItem("file", "lets/reviews.md", "- 2/5, K. Brandt, Sep: the heating only worked upstairs",
                        "changed", "", title="# Curlew Cottage reviews")
    assert touches(rule, review)
    assert not touches(rule, ChangeItem("file", "lets/reviews.md", review.text, "changed", "", title="# Reviews"))


def test_past_forms_share_their_verbs_stem() -> None:
    """"banned" is ban, "Sowed" is what "I've sown" waits for: a doubled consonant and the common irregular
    forms stem as their verb does."""
    assert stem("banned") == stem("ban") and stem("planned") == stem("plan") and stem("padded") == "pad"
    assert stem("sown") == stem("sowed") == "sow" and stem("saw") == stem("seen")
    rule = derive("Whenever I say I've sown or planted something on the allotment, note it in allotment/diary.md")
    assert evidence(rule, [memory("Sowed two rows of parsnips on the plot this afternoon.")])


def test_the_users_reason_after_a_comma_is_no_condition() -> None:
    rule = derive("Ping me when Gaz marks the set list as final (band/gig.md), I need to practise the songs")
    assert rule.condition == "Gaz marks the set list as final (band/gig.md)"
    assert derive("Tell me when I'm down to 7 tablets or fewer, so I can order more").condition == \
        "I'm down to 7 tablets or fewer"


def test_a_decision_either_way_meets_making_up_its_mind() -> None:
    rule = derive("Tell me when the insurer makes up its mind on the stolen bike claim")
    assert evidence(rule, [memory("Harrow emailed: the bike claim was accepted, 640 GBP")])
    assert evidence(rule, [memory("Harrow: the bike claim is declined, the lock was not approved")])
    assert evidence(rule, [memory("Harrow: the bike claim is still with the assessor")]) is None


@pytest.mark.parametrize(("text", "said"), [
    ("job=photos-sync done: 97 copied, 0 failed", False), ("job=photos-sync: 3 failed", True),
    ("photos-sync failures: 0", False), ("no failures tonight in photos-sync", False),
])
def test_none_failed_is_no_failure(text: str, said: bool) -> None:
    rule = derive("Warn me if the nightly photos-sync in ops/logs/nas.log fails")
    assert bool(evidence(rule, [edit("ops/logs/nas.log", text, "")])) is said


def test_a_date_to_be_agreed_is_no_date_given() -> None:
    rule = derive("Tell me when the furniture shop gives me a delivery date for the sofa")
    assert evidence(rule, [edit("mail/x.txt", "Your sofa has left our factory. We will contact you within a week "
                                              "to agree a delivery date.", "")]) is None
    assert evidence(rule, [edit("mail/x.txt", "Your sofa will be delivered on Thursday 19 March.", "")])


@pytest.mark.parametrize(("title", "item", "said"), [
    ("Ping me when Dad adds his flight times to family/reunion.md",
     edit("family/reunion.md", "- Dad: flight LH 2143 from Munich, lands Thursday 16:40", ""), "16:40"),
    ("Ping me when Dad adds his flight times to family/reunion.md",
     edit("family/reunion.md", "- Dad: not booked yet, will put my flight times here once I have them", ""), None),
    ("Any time I tell you my parkrun time, log it in running/parkrun.md",
     memory("parkrun this morning in 26:41, a PB at last!"), "26:41"),
    ("Let me know once the 2025 emissions figure is in the sustainability report",
     edit("work/report.md", "2025: 1,085 t CO2e (scopes 1 and 2)", "2025: see Q1"), "1,085"),
    ("Let me know once the 2025 emissions figure is in the sustainability report",
     edit("work/report.md", "Note: the 2025 emissions figure is still pending, data in April.", ""), None),
])
def test_a_value_waited_for_is_a_value_of_its_kind(title: str, item: ChangeItem, said: str | None) -> None:
    """"His flight times" wait for a clock time on a line about his flight, "my parkrun time" for one in what
    the user says about parkrun, "the emissions figure" for a figure; a promise or a "pending" is none."""
    assert evidence(derive(title), [item]) == said


def test_a_placeholder_to_come_filled_in_is_evidence() -> None:
    rule = derive("Let me know once the 2025 emissions figure is in the sustainability report")
    assert evidence(rule, [edit("work/report.md", "2025: 1,085 t CO2e", "2025: [to come]")])
    assert evidence(rule, [edit("work/report.md", "2025: [to come] (marking ends 19 Dec)", "2025: [to come]")]) is None


def test_a_condition_about_one_weekday_is_not_met_on_another() -> None:
    rule = derive("Let me know if this Thursday's choir rehearsal is called off or moved (choir/notices.md)")
    assert "thursday" not in rule_names(rule)  # a weekday is when, not whom
    assert evidence(rule, [edit("choir/notices.md", "- The tenors' sectional on Tuesday is cancelled.", "")]) is None
    assert evidence(rule, [edit("choir/notices.md", "- Thursday's rehearsal is cancelled, sorry.", "")])
    two = "UPDATE: Tuesday sectional cancelled, the hall is booked. Thursday as planned."
    assert evidence(rule, [edit("choir/notices.md", two, "")]) is None, "each sentence names its own day"
    assert evidence(rule, [edit("choir/notices.md", "Tuesday as planned. Thursday is cancelled.", "")])


def test_a_condition_about_one_months_thing_is_not_met_by_another_months() -> None:
    rule = derive("Let me know when registration opens for the June DELF B2 exam")
    other = new_file("inbox/af.txt", "Registration for the December session opens on 1 September.")
    assert evidence(rule, [other]) is None
    assert evidence(rule, [new_file("inbox/af.txt", "June session: registration opens on 2 February.")])
    assert evidence(rule, [new_file("inbox/af.txt", "Registration opens on 2 February; exams from 3 June.")]), \
        "a date's month names no other session"


def test_a_column_the_condition_names_a_thing_by_holds_what_it_says_of_that_thing() -> None:
    rule = derive("warn me any day the grass pollen forecast says high or very high (health/pollen.md)")
    columns = "| day | grass | tree | weed |"

    def row(line: str) -> ChangeItem:
        return ChangeItem("file", "health/pollen.md", line, "changed", "", title="# Pollen forecast", columns=columns)

    assert evidence(rule, [row("| Wed 3 Jun | low | very high | moderate |")]) is None, "the tree pollen is high"
    assert evidence(rule, [row("| Wed 3 Jun | very high | low | moderate |")]) == "high"
    parcels = derive("Tell me when the parcel from Oslo is delivered (post/parcels.md)")
    assert evidence(parcels, [ChangeItem("file", "post/parcels.md", "| Oslo | delivered |", "changed", "",
                                         columns="| parcel | status |")]), "the parcel column names the row"


def test_a_watched_file_named_after_the_subject_is_about_it() -> None:
    """"The Lumo lamp Kickstarter … (backed/lumo-updates.md)": every line of the Lumo file is about Lumo, though
    it never says "Kickstarter"; and "has been shipped" waits for the shipping, not for the word "reward"."""
    rule = derive("Tell me when the Lumo lamp Kickstarter says my reward has been shipped (backed/lumo-updates.md)")
    line = edit("backed/lumo-updates.md", "- Update 14: every early-bird lamp has now left the warehouse.", "")
    assert touches(rule, line)
    hoped = edit("backed/lumo-updates.md", "- Update 13: rewards packed, we hope to ship by June.", "")
    assert evidence(rule, [hoped]) is None
    assert evidence(rule, [line]) == "left the warehouse"


def test_an_action_after_its_condition_names_what_to_work_with_not_what_to_watch() -> None:
    """"If HMRC writes …, check their figures against money/pensions.md": the letter may come anywhere; the
    pensions file is what the check reads. "Watch stock.csv and alert me when …" still watches stock.csv."""
    rule = derive("If HMRC writes to say Geoff's tax code is changing, check their figures against our pensions in "
                  "money/pensions.md and tell us what to do")
    assert rule.watch_paths == ()
    assert derive("Watch stock.csv and alert me when any item has fewer than 5 left").watch_paths == ("stock.csv",)


def test_a_message_to_say_something_must_say_it() -> None:
    """"HMRC writes to say the tax code is changing": a new letter named for HMRC that says the code changes is
    it, every line of it about HMRC; one that says the code stays is not."""
    rule = derive("If HMRC writes to say Geoff's tax code is changing, check their figures against our pensions in "
                  "money/pensions.md and tell us what to do")
    assert evidence(rule, [new_file("post/2026-03-02-hmrc.md", "HM Revenue & Customs\n\nYour tax code for your "
                                                               "Aviva pension changes from 0T to K114.")])
    assert evidence(rule, [new_file("post/2026-03-02-hmrc.md", "HM Revenue & Customs\n\nYour tax code for "
                                                               "2026-27 stays the same: 0T.")]) is None


def test_a_table_under_a_heading_keeps_its_columns(tmp_path: Path) -> None:
    """A Markdown table under its heading: the header row travels with the change (the report says
    "columns:"), so "any of Mochi's glucose readings comes in under 4" compares the Reading column of a row
    whose file is titled for Mochi."""
    history = FileHistory(None)
    table = ("# Mochi glucose (mmol/L)\n\n| Date | Time | Reading | Insulin |\n|---|---|---|---|\n"
             "| 3 Nov | 07:30 | 14.8 | 2 u |\n")
    (tmp_path / "glucose.md").write_text(table)
    history.changes(tmp_path, [("glucose.md", len(table))], None, 1.0)
    (tmp_path / "glucose.md").write_text(table + "| 4 Nov | 13:00 | 3.4 | (spot check) |\n")
    [change] = history.changes(tmp_path, [("glucose.md", len(table) + 40)], 1.5, 2.0)
    assert change.title == "# Mochi glucose (mmol/L)" and change.columns == "| Date | Time | Reading | Insulin |"
    assert "columns: | Date | Time | Reading | Insulin |" in describe(change)
    rule = derive("If any of Mochi's glucose readings comes in under 4, tell me straight away")
    item = ChangeItem("file", "glucose.md", "\n".join(change.added), "changed", "", title=change.title,
                      columns=change.columns)
    figure = compared(rule, [item], rule_names(rule))
    assert figure is not None and figure.met and figure.said == "Reading 3.4"


def test_what_a_bound_counts_names_the_column() -> None:
    """"passes 10,000 downloads": the downloads column, not the episode number the subject names."""
    rule = derive("Tell me when any episode of the podcast passes 10,000 downloads (stats/downloads.csv)")
    header = "episode,title,published,downloads"
    figure = compared(rule, [ChangeItem("file", "stats/downloads.csv", "18,The allotment wars,2026-01-06,10137\n"
                                        "19,Tea with the mayor,2026-01-20,8020", "changed", "", title=header)])
    assert figure is not None and figure.met and figure.said == "downloads 10137"


@pytest.mark.parametrize(("rows", "met"), [
    ("bread flour (strong white),kg,41,Wed\nrye flour,kg,52,Wed", True),
    ("bread flour (strong white),kg,88,Wed\nrye flour,kg,30,Wed", False),
])
def test_a_unit_in_a_cell_of_its_own_is_the_figures(rows: str, met: bool) -> None:
    """A stock CSV keeps "kg" in a column: the figure beside it is in kg, on the row that names the bread flour
    (the rye's low stock is not the bread flour's)."""
    rule = derive("Tell me when the bread flour in bakery/stock.csv gets below 50 kg so I can order more")
    figure = compared(rule, [ChangeItem("file", "bakery/stock.csv", rows, "changed", "",
                                        title="item,unit,on_hand,delivered")])
    assert figure is not None and figure.met is met


@pytest.mark.parametrize(("title", "wanted"), [
    ("I'm Sam Patel. tell me if I get picked for either side on Saturday", {"pick"}),
    ("If someone reports a security problem in the parser on the quillmark dev list, summarise it", {"problem"}),
    ("Warn me if the nightly photo sync to the NAS fails", {"fail"}),
    ("Ping me once the database migration in ops/logs/migrate.log has finished", {"finish"}),
])
def test_what_happens_is_not_where_or_when(title: str, wanted: set[str]) -> None:
    """Without a linking verb, the condition's trailing complements ("on Saturday", "on the dev list") say where
    or when, not what must happen; a verb after them ("… to the NAS fails") still does."""
    assert condition_words(derive(title)) == wanted


def test_a_title_that_names_its_user_is_about_them() -> None:
    """"I'm Omar. Tell me if anyone challenges me": the rule keeps the user's name (and an edit of the rule keeps
    it); a line that names others and not Omar is about them."""
    rule = derive("I'm Omar. Tell me if anyone on the tennis ladder (tennis/ladder.md) challenges me")
    assert rule.user == "Omar" and edited(rule, condition="anyone challenges me").user == "Omar"
    assert evidence(rule, [edit("tennis/ladder.md", "| 7 | Dev Patel | challenges Olly Brent |", "")]) is None
    assert evidence(rule, [edit("tennis/ladder.md", "| 7 | Dev Patel | challenges Omar Haddad |", "")])
    assert derive("Tell me when I'm down to 7 tablets or fewer").user == ""


def test_the_other_names_a_title_gives_its_subject_name_it_too(tmp_path: Path) -> None:
    """"Jack's navy PE hoodie … It has J. OKAFOR on the label": a lost-property line with OKAFOR is about
    Jack's hoodie; the aliases travel with an edit and through the user's saved rule."""
    rule = derive("Let me know if Jack's navy PE hoodie turns up in lost property. It has J. OKAFOR on the label")
    assert rule.aliases == ("okafor",)
    found = edit("school/lost-property.md", "- navy PE hoodie, J. OKAFOR", "")
    assert touches(rule, found) and evidence(rule, [found]) == "hoodie"
    assert not touches(rule, edit("school/lost-property.md", "- navy PE hoodie, M. BELL", ""))
    assert derive("Tell me if there are nits in Toby's class. He's in 2P (Mrs Patel)").aliases == ("2p", "patel")
    assert derive("Tell me when the parcel comes. It's from Oslo").aliases == ("oslo",)
    assert rule_names(derive("Tell me when the parcel comes. It's from Oslo")) == frozenset(), \
        "a condition that names no one is not narrowed by an aside"
    assert edited(rule, condition="Jack's hoodie turns up").aliases == ("okafor",)
    saved = TaskRules(tmp_path / "seen.db")
    saved.set("t1", edited(rule, condition="Jack's hoodie turns up"))
    assert TaskRules(tmp_path / "seen.db").for_task("t1", "whatever").aliases == ("okafor",)


@pytest.mark.parametrize(("said", "news"), [
    ("Kirsty got a place in the Loch Ness ballot, she's over the moon. Still nothing for me.", False),
    ("Kirsty says I got a place in the Loch Ness ballot!", True),
    ("Got a place in the Loch Ness ballot!", True),
    ("Finally got my place in the Loch Ness ballot.", True),
])
def test_what_someone_else_did_is_no_news_for_a_condition_about_me(said: str, news: bool) -> None:
    """"I get a place in the ballot" and no name for the user: a clause that begins with someone else's name and
    says nothing of I, you or we is about them; a note of the user's own that begins with its verb is not."""
    rule = derive("Let me know if I get a place in the Loch Ness Marathon ballot")
    assert bool(evidence(rule, [memory(said)])) is news


def test_a_question_says_nothing_happened_unless_the_condition_waits_for_a_message() -> None:
    """"Any news on the ginger cat?" asks; "someone @-mentions me" is met by a mention in a question too."""
    seen = derive("Let me know if anyone in the street chat says they've seen a ginger cat (chats/street.txt)")
    assert evidence(seen, [edit("chats/street.txt", "[08:15] Gavin: Any news on the ginger cat? Keep looking", "")]) \
        is None
    assert evidence(seen, [edit("chats/street.txt", "[07:41] Rhona: I saw a ginger cat under the van. Yours?", "")])
    mentioned = derive("Tell me whenever someone @-mentions me (@lena) in team/roadmap.md")
    assert evidence(mentioned, [edit("team/roadmap.md", "- @sven: who reviews the billing API, @lena or me?", "")])


def test_a_host_name_spells_the_name_it_is_for() -> None:
    """"The Kestrel Joinery website": kestreljoinery.co.uk is it, brightwellcafe.co.uk another client's."""
    rule = derive("tell me if the Kestrel Joinery website goes down (ops/logs/uptime.log)")
    down = edit("ops/logs/uptime.log", "2026-05-12 09:10 kestreljoinery.co.uk 503 Service Unavailable", "")
    assert touches(rule, down) and evidence(rule, [down])
    other = edit("ops/logs/uptime.log", "09:10 kestreljoinery.co.uk 200 OK\n09:10 brightwellcafe.co.uk DOWN", "")
    assert evidence(rule, [other]) is None


@pytest.mark.parametrize(("line", "removed", "said"), [
    ("| 21 June | Sat | Dr Ward | Chloe | Priya Shah |", "", True),
    ("| 21 June | Sat | Dr Mensah | Priya Kaur | Tom Reilly |", "", False),  # another Priya
    ("| 26 June | Thu (late) | Dr Mensah | Chloe | Priya Shah |", "", False),  # not a Saturday
    ("| 7 June | Sat | Dr Ward | Priya Shah, with notes |", "| 7 June | Sat | Dr Ward | Priya Shah |", False),
])
def test_the_users_name_on_a_new_line_puts_them_on_it(line: str, removed: str, said: bool) -> None:
    """"I'm Priya Shah. If the practice puts me on a Saturday clinic": a new row with her whole name on a
    Saturday; an edit of a row that was hers already puts her on nothing new."""
    rule = derive("I'm Priya Shah, the hygienist. If the practice puts me on a Saturday clinic, tell me which date")
    assert bool(evidence(rule, [edit("rota/extra-clinics.md", line, removed)])) is said


@pytest.mark.parametrize(("title", "item", "met"), [
    ("Tell me whenever the PM2.5 on my cycle commute goes over 35",
     ChangeItem("file", "commute/air.csv", "2026-01-13,am,ring road,41,52", "changed", "",
                title="date,leg,route,pm25_ugm3,no2_ugm3"), True),
    ("Tell me whenever the PM2.5 on my cycle commute goes over 35",
     ChangeItem("file", "commute/air.csv", "2026-01-13,pm,ring road,22,88", "changed", "",
                title="date,leg,route,pm25_ugm3,no2_ugm3"), False),
    ("If the hygiene inspection gives us anything under a 5, make an action plan",
     new_file("kitchen/inspections/2026.md", "Food hygiene rating: 3 (generally satisfactory)."), True),
    ("If the hygiene inspection gives us anything under a 5, make an action plan",
     new_file("kitchen/inspections/2026.md", "Food hygiene rating: 5 (very good). Visit on 12 May."), False),
])
def test_a_bare_bound_compares_a_named_column_or_field(title: str, item: ChangeItem, met: bool) -> None:
    """A bound without a unit is compared where the table's column ("pm25_ugm3" for PM2.5: a figure with a
    point is no file name) or a record's field ("Food hygiene rating: 3") names the subject; "under a 5"
    is a bound."""
    figure = compared(derive(title), [item])
    assert figure is not None and figure.met is met


def test_a_move_said_as_from_now_on_is_a_move() -> None:
    rule = derive("Remind me if Biscuit's hydrotherapy slot gets moved")
    assert evidence(rule, [memory("Paws and Waves rang, Biscuit's at 5 on Wednesday from now on, not 4.")])
    assert evidence(rule, [memory("Paws and Waves: Biscuit's slot stays at 4 on Wednesday as usual.")]) is None


@pytest.mark.parametrize(("text", "said"), [
    ("From: Harcourt & Vane <valuations@harcourtvane.example>\nSubject: Valuation: the Whitlow album\n\n"
     "Our specialist suggests three lots.", True),
    ("From: Harcourt & Vane <valuations@harcourtvane.example>\nSubject: Album received\n\n"
     "Thank you. Our specialist will send a valuation within a fortnight.", False),  # promised; the address
    ("From: Vane Removals <office@vane.example>\nSubject: Valuation\n\nYour quote is attached.", False),  # not them
])
def test_a_new_mail_from_them_naming_what_they_send_is_it(text: str, said: bool) -> None:
    """"Harcourt & Vane send their valuation of Grandad's album": a new mail whose sender is every word of who
    sends it and whose subject or body names a valuation, not hedged; the sender's address does not count."""
    rule = derive("If Harcourt & Vane send their valuation of Grandad's album, compare it with stamps/album.md")
    assert bool(evidence(rule, [new_file("inbox/2026-11-03-hv.txt", text)])) is said


@pytest.mark.parametrize(("title", "text", "said"), [
    ("if anyone at sewing club asks to borrow my overlocker, tell me who and when for",
     "Gwen (Tue): @Linda could I possibly borrow your overlocker the weekend of the 18th?", True),
    ("if anyone at sewing club asks to borrow my overlocker, tell me who and when for",
     "Gwen (Tue): Linda, can I borrow your rotary cutter on Thursday? Mine's blunt.", False),
    ("if anyone at sewing club asks to borrow my overlocker, tell me who and when for",
     "Pam (Tue): If anyone needs an overlocker I've got a spare one going in the loft.", False),
    ("If someone asks me to do something in chats/family.txt, remind me",
     "[Sun 18:40] Mum: could you pick up Gran's prescription on your way Thursday?", True),
    ("If someone asks me to do something in chats/family.txt, remind me",
     "[Sun 18:40] Dad: can you book a table for Mum's birthday?\n[Sun 18:52] Dad: Ignore me, Ellie booked it", False),
])
def test_a_request_for_what_is_asked_is_asking(title: str, text: str, said: bool) -> None:
    """"Asks to borrow my overlocker": a request that names the overlocker; "asks me to do something": any
    request, unless the change takes it back."""
    assert bool(evidence(derive(title), [edit("sewing/thread.md", text, "")])) is said


@pytest.mark.parametrize(("text", "met"), [
    ("2026-01-12 daily: heat out 58.1 kWh, elec in 25.2 kWh, COP 2.31, outside avg -3.4C", True),
    ("2026-01-12 daily: heat out 52.5 kWh, elec in 21.0 kWh, COP 2.50, outside avg 0.9C", False),
    ("2026-01-12 02:00 DHW legionella cycle: cycle COP 1.1\n2026-01-12 daily: heat out 47.7 kWh, COP 3.00", False),
])
def test_a_named_figure_inside_a_log_line_is_compared(text: str, met: bool) -> None:
    """"The heat pump's daily COP falls below 2.5": the figure after "COP", on the line that says most of the
    subject (the daily line, not the legionella cycle's)."""
    figure = compared(derive("Flag it if the heat pump's daily COP in ops/logs/heatpump.log falls below 2.5"),
                      [edit("ops/logs/heatpump.log", text, "")])
    assert figure is not None and figure.met is met


def test_the_word_after_a_percentage_names_the_column() -> None:
    """"Any night is forecast under 20% cloud": the cloud column, not the night the subject names."""
    rule = derive("Remind me to set the telescope up if any night this week is forecast under 20% cloud "
                  "(astro/forecast.md)")
    item = ChangeItem("file", "astro/forecast.md", "| Thu | 10 |", "changed", "", title="# Forecast",
                      columns="| Night | Cloud % (21:00-02:00) |")
    figure = compared(rule, [item])
    assert figure is not None and figure.met


@pytest.mark.parametrize(("text", "said"), [
    ("From: Fiona Reid (clerk) <clerk@school.example>\nSubject: FGB 19 May: papers\n\nDear governors, the agenda "
     "and the budget report are attached.", True),
    ("From: Fiona Reid (clerk) <clerk@school.example>\nSubject: FGB 19 May\n\nDear governors, we meet on 19 May. "
     "Papers will follow next week.", False),
    ("From: Fiona Reid (clerk) <clerk@school.example>\nSubject: Premises committee papers\n\nFor premises "
     "committee members only: the fire risk assessment.", False),
])
def test_what_is_sent_is_the_one_the_condition_names(text: str, said: bool) -> None:
    """"The clerk sends the papers for the next full governors' meeting": papers for the governors, not the
    premises committee's, and not papers that "will follow"."""
    rule = derive("When the clerk sends the papers for the next full governors' meeting, read the budget report")
    assert bool(evidence(rule, [new_file("inbox/2026-05-12-clerk.txt", text)])) is said


def test_a_replaced_line_that_says_another_day_or_time_is_a_move() -> None:
    dad = derive("Tell me if Dad's Sunday visiting slot at Elmwood gets moved. He's Frank Lister")
    row = "| Frank Lister | Sunday | 14:00-15:30 | garden lounge |"
    assert evidence(dad, [edit("care/visits.md", row.replace("Sunday", "Saturday"), row)])
    assert evidence(dad, [edit("care/visits.md", row.replace("14:00-15:30", "16:00-17:30"), row)])
    assert evidence(dad, [edit("care/visits.md", row.replace("garden lounge", "library"), row)]) is None, \
        "another room, the same day and time"
    other = "| Edna Moore | Sunday | 15:30-17:00 | garden lounge |"
    assert evidence(dad, [edit("care/visits.md", other.replace("Sunday", "Monday"), other)]) is None
    bus = derive("Let me know if the 7.40 bus from Hawkridge into Kirkby changes its time (transport/bus.md)")
    assert evidence(bus, [edit("transport/bus.md", "| 07:25 | 07:43 | 08:10 |", "| 07:40 | 07:58 | 08:25 |")])
    assert evidence(bus, [edit("transport/bus.md", "| 07:40 | 08:00 | 08:25 |", "| 07:40 | 07:58 | 08:25 |")]) \
        is None, "the 07:40 still leaves at 07:40"
    assert evidence(bus, [edit("transport/bus.md", "| 09:30 | 09:48 |", "| 09:10 | 09:28 |")]) is None


def test_a_sign_off_is_an_approval() -> None:
    rule = derive("ping me when Harbour Dental sign off the logo (work/harbour-dental.md)")
    assert evidence(rule, [edit("work/harbour-dental.md", "- Dr Lewis: 'B v2 is perfect, approved.'", "")])
    assert evidence(rule, [edit("work/harbour-dental.md", "- Dr Lewis: 'Love B v2! Let me show the partners.'",
                                "")]) is None


def test_the_date_of_a_named_thing_is_announced_in_a_sentence_that_names_it() -> None:
    rule = derive("Tell me when the date of the In Bloom judges' visit to Ashcombe is announced")
    assert evidence(rule, [new_file("inbox/bloom.txt", "Dear all, the judges will visit Ashcombe on Tuesday 14 July.")])
    others = "First dates: Little Bramwell 7 July, Fenby 8 July. All other entrants will hear from us next week."
    assert evidence(rule, [new_file("inbox/bloom.txt", others)]) is None
    guess = ChangeItem("memory", "", "Margaret thinks the judges will come to Ashcombe on 14 July again.", "new")
    assert evidence(rule, [guess]) is None


def test_a_running_total_reaches_its_target_in_the_total_column() -> None:
    rule = derive("Tell me when the fun run hits 150 sign-ups")
    columns = "| week | new sign-ups | total |"

    def row(line: str) -> ChangeItem:
        return ChangeItem("file", "funrun/signups.md", line, "changed", "", title="# Fun run", columns=columns)

    met = compared(rule, [row("| 4 | 27 | 158 |")], rule_names(rule))
    assert met is not None and met.met and met.said == "total 158"
    short = compared(rule, [row("| 4 | 16 | 147 |")], rule_names(rule))
    assert short is not None and not short.met


def test_a_line_added_to_the_file_that_records_the_doing_is_the_thing_done() -> None:
    rule = derive("Let me know if anyone donates a wedding dress to the shop (shop/donations.md)")
    assert evidence(rule, [edit("shop/donations.md", "| 14 Mar | ivory wedding dress, size 12 | 41 |", "")])
    assert evidence(rule, [edit("shop/donations.md", "| 14 Mar | three lilac bridesmaid dresses | 42 |", "")]) \
        is None, "another thing"
    bees = derive("Tell me if my hive inspection notes (bees/inspections.md) mention queen cells in any of my hives")
    assert evidence(bees, [edit("bees/inspections.md", "19 May: no sign of queen cells, plenty of room.", "")]) \
        is None, "the path in brackets records nothing, and a negated thing is not there"
    hut = derive("Tell me if anyone books beach hut 27 for the August bank holiday weekend (hut/bookings.md)")
    assert evidence(hut, [edit("hut/bookings.md", "| 8 Aug | 14 Aug | beach hut 27 | Mbatha |", "")]) is None, \
        "which rows fall on that weekend is not in the row"


def test_a_thing_known_by_its_number_is_not_another_of_its_kind() -> None:
    rule = derive("tell me if the lift in block A is out of service, I've got the buggy (building/notices.md)")
    assert evidence(rule, [edit("building/notices.md", "- 6 Mar: Block A lift OUT OF SERVICE, engineer due.", "")])
    assert evidence(rule, [edit("building/notices.md", "- 6 Mar: Block C lift OUT OF SERVICE, engineer due.", "")]) \
        is None
    assert evidence(rule, [edit("building/notices.md", "- 6 Mar: Block A lift back in service.", "")]) is None


def test_every_limit_of_a_condition_must_be_met() -> None:
    rule = derive("keep an eye on feeds/marketplace.csv for a proper cot under £60 within 5 miles")

    def row(line: str) -> ChangeItem:
        return ChangeItem("file", "feeds/marketplace.csv", line, "changed", "",
                          title="posted,item,price_gbp,distance_miles")

    near = compared(rule, [row("2026-01-22,wooden cot,45,3.2")], rule_names(rule))
    assert near is not None and near.met
    far = compared(rule, [row("2026-01-22,wooden cot,45,12.0")], rule_names(rule))
    assert far is not None and not far.met and far.said == "distance_miles 12.0"


def test_a_figure_for_another_thing_is_not_the_one_compared() -> None:
    rule = derive("If the repair shop quotes more than £120 for my phone screen, tell me")
    quote = new_file("inbox/fixit.txt", "Screen replacement for your phone: £149 including fitting.")
    assert (found := compared(rule, [quote], rule_names(rule))) is not None and found.met
    other = new_file("inbox/fixit.txt", "Still waiting on the screen price. A battery replacement would be £140.")
    assert compared(rule, [other], rule_names(rule)) is None


def test_a_thing_for_one_date_or_week_is_not_met_on_another() -> None:
    leave = derive("Tell me when my leave for 3-7 August is approved (work/leave.md)")
    assert evidence(leave, [edit("work/leave.md", "| 3-7 August | 5 | approved (Sue, 12 June) |",
                                 "| 3-7 August | 5 | requested |")])
    assert evidence(leave, [edit("work/leave.md", "| 27-28 October | 2 | approved |",
                                 "| 27-28 October | 2 | requested |")]) is None
    deadline = derive("Tell me if the deposit is refunded before 1 March")
    assert evidence(deadline, [edit("money/deposit.md", "Deposit refunded on 26 Feb.", "")]), \
        "a deadline's month is no thing's date"
    box = derive("if this week's veg box (home/vegbox.md) has celeriac in it again, tell me")
    assert evidence(box, [edit("home/vegbox.md", "carrots, celeriac, potatoes", "")])
    assert evidence(box, [edit("home/vegbox.md", "Coming the week after (may change): celeriac, swede", "")]) is None


def test_a_log_field_names_which_of_a_kind_the_line_is_about() -> None:
    sink = derive("ping me if the leak sensor under the kitchen sink ever says WET (ops/logs/leak-sensors.log)")
    assert evidence(sink, [edit("ops/logs/leak-sensors.log", "11:47 sensor=kitchen-sink state=WET", "")]) == "wet", \
        "'under the sink' says where, it compares nothing"
    assert evidence(sink, [edit("ops/logs/leak-sensors.log", "11:47 sensor=bathroom state=WET", "")]) is None
    prusa = derive("the helmet mount is printing on the prusa, tell me when it's done or if it fails "
                   "(ops/logs/printer.log)")
    assert evidence(prusa, [edit("ops/logs/printer.log", "15:12 printer=prusa job=helmet-mount FAILED", "")])
    assert evidence(prusa, [edit("ops/logs/printer.log", "15:02 printer=ender job=cable-clips FINISHED", "")]) is None


def test_that_day_and_her_are_what_the_title_named_before() -> None:
    rule = derive("we're doing the barbecue on saturday 13 june. tell me if the forecast for that day goes to a 60% "
                  "chance of rain or more (home/forecast.md)")
    assert "saturday 13 june" in rule.condition
    columns = "| day | rain chance | max temp |"

    def row(line: str) -> ChangeItem:
        return ChangeItem("file", "home/forecast.md", line, "changed", "", title="# Forecast", columns=columns)

    assert (wet := compared(rule, [row("| Sat 13 Jun | 60% | 23°C |")], rule_names(rule))) is not None and wet.met
    assert compared(rule, [row("| Sun 14 Jun | 80% | 20°C |")], rule_names(rule)) is None, "another day's row"
    mila = derive("Mila's poorly. If her temperature gets to 38.5 or higher, remind me she can have the ibuprofen")
    assert mila.condition.startswith("Mila's temperature")
    hot = compared(mila, [edit("health/temps.md", "- Mon 18:00 Mila 38.7°C", "")], rule_names(mila))
    assert hot is not None and hot.met
    assert compared(mila, [edit("health/temps.md", "- Mon 18:00 me 38.9°C, think I've caught it", "")],
                    rule_names(mila)) is None


def test_a_figure_is_the_one_its_subject_precedes_and_a_row_of_another_kind_is_not_compared() -> None:
    bounces = derive("if the bounce rate on a newsletter send goes over 5%, dig into which domains are bouncing "
                     "(ops/logs/mailer.log)")
    line = "09:00 send=offers sent=8471 bounced=230 (2.7%) opened=2580 unsubscribed=474 (5.6%)"
    found = compared(bounces, [edit("ops/logs/mailer.log", line, "")], rule_names(bounces))
    assert found is not None and not found.met and found.said == "2.7 %"
    rates = derive("Tell me if any easy-access savings account in money/rates.md pays 4.5% or more")

    def row(line: str) -> ChangeItem:
        return ChangeItem("file", "money/rates.md", line, "changed", "", title="# Rates",
                          columns="| provider | type | AER |")

    assert compared(rates, [row("| Hollin Bank | 95-day notice | 4.55% |")], rule_names(rates)) is None
    easy = compared(rates, [row("| Cobalt Bank | easy access | 4.60% |")], rule_names(rates))
    assert easy is not None and easy.met


def test_a_thing_that_turns_up_in_a_list_is_a_new_line_that_names_all_of_it() -> None:
    rule = derive("if a fully remote data analyst job turns up in jobs/feed.md, draft a cover letter for it")
    assert evidence(rule, [edit("jobs/feed.md", "- Junior data analyst, Pollen Books, fully remote (UK), £30k", "")])
    assert evidence(rule, [edit("jobs/feed.md", "- Senior data engineer, Tidewater, fully remote (UK), £65k", "")]) \
        is None, "another job"
    assert evidence(rule, [edit("jobs/feed.md", "- Data analyst, Crane & Co, hybrid (3 days Manchester)", "")]) is None


def test_a_message_from_someone_with_a_short_name_sends_what_it_names_unless_its_body_puts_it_off() -> None:
    rule = derive("Once Jo sends me the embarrassing stories about Matt, draft the best man speech")
    sent = new_file("inbox/jo.txt", "From: Jo Pryce <jo.pryce@example.com>\nSubject: Matt stories as promised\n\n"
                                    "1. The tent. 2. The graduation. Use wisely!\n")
    assert evidence(rule, [sent]) == "stories"
    later = new_file("inbox/jo.txt", "From: Jo Pryce <jo.pryce@example.com>\nSubject: stories\n\n"
                                     "Sorry, mad week. I'll send the Matt stories at the weekend.\n")
    assert evidence(rule, [later]) is None


def test_limits_joined_by_or_are_met_by_either() -> None:
    rule = derive("warn me if the wine fridge goes above 14°C or under 8°C (home/wine-fridge.csv)")

    def reading(value: str) -> ChangeItem:
        return ChangeItem("file", "home/wine-fridge.csv", f"2026-08-02 07:00,{value}", "changed", "",
                          title="time,temp_c")

    for value, met in (("15.1", True), ("7.2", True), ("11.0", False), ("14.0", False)):
        found = compared(rule, [reading(value)], rule_names(rule))
        assert found is not None and found.met is met, value
    both = derive("keep an eye out for a bike trailer under £80 within 10 miles")
    far = compared(both, [edit("feeds/listings.md", "- bike trailer, £55, 14 miles away", "")], rule_names(both))
    assert far is not None and not far.met, "'and' limits must all be met"


def test_a_line_about_another_of_the_kind_the_condition_names_is_not_compared() -> None:
    rule = derive("alert me if the payments API error rate goes over 3% (ops/logs/api.log)")
    lines = "10:05 login-api requests=800 errors=60 (7.5%)\n10:05 payments-api requests=950 errors=9 (0.9%)"
    found = compared(rule, [edit("ops/logs/api.log", lines, "")], rule_names(rule))
    assert found is not None and not found.met and found.said == "0.9 %"
    high = compared(rule, [edit("ops/logs/api.log", "10:10 payments-api requests=990 errors=41 (4.1%)", "")],
                    rule_names(rule))
    assert high is not None and high.met


def test_either_of_two_columns_is_compared_when_the_condition_says_either() -> None:
    rule = derive("tell me if either back wheel's spoke tension drops below 90 (bike/tension.md)")

    def row(line: str) -> ChangeItem:
        return ChangeItem("file", "bike/tension.md", line, "changed", "", title="# Spoke tension",
                          columns="| date | front | back left | back right |")

    low = compared(rule, [row("| 3 May | 101 | 95 | 88 |")], rule_names(rule))
    assert low is not None and low.met and low.said == "back right 88"
    fine = compared(rule, [row("| 3 May | 85 | 95 | 92 |")], rule_names(rule))
    assert fine is not None and not fine.met, "the front wheel is not a back one"


def test_a_job_that_does_not_run_is_a_skipped_one_and_another_jobs_failure_is_not_it() -> None:
    rule = derive("Tell me if the nightly photo backup doesn't run (ops/logs/jobs.log)")
    assert evidence(rule, [edit("ops/logs/jobs.log", "2026-05-02 01:00:00 photo-backup SKIPPED: disk not mounted",
                                "")]) == "skipped"
    assert evidence(rule, [edit("ops/logs/jobs.log", "2026-05-02 01:00:00 photo-backup finished files=212\n"
                                "2026-05-02 02:00:00 log-rotate FAILED exit=2", "")]) is None


def test_a_mail_from_whom_the_condition_names_is_not_about_another_of_their_cases() -> None:
    rule = derive("When Petwell pay out on Biscuit's hip claim, tell me how much came back")
    mail = ("From: Petwell Claims <claims@petwell.example>\nSubject: Claim 4471 (Pepper) settled\n\n"
            "We've paid £210.00 for Pepper's skin treatment, less your excess.\n")
    assert evidence(rule, [new_file("inbox/petwell.txt", mail)]) is None
    paid = mail.replace("Pepper's skin", "Biscuit's hip").replace("(Pepper)", "(Biscuit)")
    assert evidence(rule, [new_file("inbox/petwell.txt", paid)]) is not None


def test_a_reference_says_which_not_what_happens() -> None:
    assert condition_words(derive("let me know when Harbour Print pay INV-2231 (money/account.csv)")) == {"pay"}


def test_a_word_that_only_names_the_thing_is_no_evidence_on_its_own() -> None:
    loan = derive("Tell me when my library loan of The Hare arrives at Brook Street library")
    assert evidence(loan, [memory("The library says my loan request for The Hare has been approved")]) is None
    assert evidence(loan, [memory("My library loan of The Hare came in today, it's at the desk")]) is not None
    said = derive("Warn me if the forecast in weather.txt mentions hail")
    assert evidence(said, [edit("weather.txt", "Thursday: showers, hail possible later", "")]) == "hail"
    listed = derive("Let me know if a red umbrella turns up in lost property (office/lost.md)")
    assert evidence(listed, [edit("office/lost.md", "- red umbrella, 3rd floor kitchen", "")]) is not None
    done = derive("tell me if anyone on the chess ladder (chess/ladder.md) challenges me")
    assert evidence(done, [edit("chess/ladder.md", "| 4 | Ravi Shah | challenges you |", "")]) == "challenges"


def test_a_leading_condition_ends_at_its_comma_not_at_a_figures() -> None:
    rule = derive("If our rolling 12-month turnover goes over £90,000, work out what VAT registration means for us")
    assert rule.condition == "our rolling 12-month turnover goes over £90,000"
    assert rule.action == "work out what VAT registration means for us" and rule.kind == "escalate"


@pytest.mark.parametrize(("line", "met"), [
    ("2026-12-02 06:00 fridge 4.1C garage 1.9C", False),  # the garage is freezing, not the fridge
    ("2026-12-02 06:00 fridge 2.4C garage 1.9C", True),
    ("2026-12-02 06:00 fridge 6.3C garage 7.9C", True),
])
def test_a_figure_is_the_one_after_the_subjects_name(line: str, met: bool) -> None:
    rule = derive("ping me if the fridge goes above 6 °C or below 3 °C (ops/logs/tortoise-fridge.log)")
    figure = compared(rule, [edit("ops/logs/tortoise-fridge.log", line, "")], rule_names(rule))
    assert figure is not None and figure.met is met


@pytest.mark.parametrize(("lines", "met"), [
    ("2026-09-15 06:00 db01 /var 92% /home 61%\n2026-09-15 06:00 web01 /var 72% /home 40%", True),
    ("2026-09-15 06:00 db01 /var 86% /home 61%\n2026-09-15 06:00 web01 /var 96% /home 40%", False),  # web01's
    ("2026-09-15 06:00 db01 /var 87% /home 94%\n2026-09-15 06:00 web01 /var 71% /home 40%", False),  # /home
])
def test_another_machine_or_another_disk_on_a_log_line_is_not_compared(lines: str, met: bool) -> None:
    rule = derive("tell me if /var on db01 goes over 90% (ops/logs/disk.log)")
    figure = compared(rule, [edit("ops/logs/disk.log", lines, "")], rule_names(rule))
    assert figure is not None and figure.met is met


def test_a_past_long_gone_retold_is_no_news() -> None:
    early = derive("tell me if the office is closing early on the Friday before the bank holiday (office/notices.md)")
    retold = "- Thanks all for the feedback: closing at 2pm last Christmas Eve worked well."
    assert evidence(early, [edit("office/notices.md", retold, "")]) is None
    assert evidence(early, [edit("office/notices.md", "- The office is closing early this Friday.", "")]) is not None
    heating = derive("tell me if the tenants at 4 Mill Lane say the heating is broken")
    assert evidence(heating, [memory("4 Mill Lane: heating broken since last year's service, they say")]) is not None


def test_a_figure_read_at_another_hour_is_not_the_conditions() -> None:
    rule = derive("tell me if the pond pump's pressure is under 0.8 bar at the 8am check (garden/pump.log)")
    morning = "2027-05-02 08:00 pump 0.7 bar"
    assert compared(rule, [edit("garden/pump.log", morning, "")], rule_names(rule)).met  # type: ignore[union-attr]
    noon = compared(rule, [edit("garden/pump.log", "2027-05-02 13:00 pump 0.6 bar (filter clogged)", "")],
                    rule_names(rule))
    assert noon is None or not noon.met


def test_put_down_as_a_role_is_met_only_by_that_role() -> None:
    rule = derive("I'm Tom Reyes. tell me if I get put down as scorer for another match (cricket/rota.csv)")
    assert evidence(rule, [edit("cricket/rota.csv", "2027-06-12,scorer,Tom Reyes", "")]) is not None
    assert evidence(rule, [edit("cricket/rota.csv", "2027-06-12,scorer,Ann Lee\n2027-06-12,teas,Tom Reyes",
                                "")]) is None
    columns = ChangeItem("file", "cricket/rota.md", "| 12 Jun | Ann Lee | Tom Reyes |", "changed",
                         title="| Date | Umpire | Scorer |")
    assert evidence(rule, [columns]) is not None, "the role is the column of the name"
    swapped = ChangeItem("file", "cricket/rota.md", "| 12 Jun | Tom Reyes | Ann Lee |", "changed",
                         title="| Date | Umpire | Scorer |")
    assert evidence(rule, [swapped]) is None


def test_the_date_of_something_changes_only_when_its_date_does() -> None:
    rule = derive("tell me if the date of the allotment open day changes (garden/allotment.md)")
    before = "- Open day: Saturday 11 July, 10am, main gate\n- Seed swap: Sunday 8 March\n"
    place = ChangeItem("file", "garden/allotment.md", "- Open day: Saturday 11 July, 10am, by the pavilion",
                       "changed", "- Open day: Saturday 11 July, 10am, main gate", context=before)
    day = ChangeItem("file", "garden/allotment.md", "- Open day: Saturday 18 July, 10am, main gate", "changed",
                     "- Open day: Saturday 11 July, 10am, main gate", context=before)
    assert not Judge_changed(rule, place) and Judge_changed(rule, day)


def Judge_changed(rule: object, item: ChangeItem) -> bool:  # noqa: N802 - reads as the sentence it checks
    from openhuman_desktop.subconscious.evidence import changed_field
    found = changed_field(rule, [item])  # type: ignore[arg-type]
    return bool(found and found.met)


def test_they_is_the_subject_its_clause_states() -> None:
    rule = derive("the oak logs are ready once they read under 20% moisture, let me know (home/logs.md)")
    assert rule.condition.startswith("the oak logs read under 20% moisture")
    line = "- 2027-04-01 oak stack: 23%  bought-in ash (dry): 15%"
    figure = compared(rule, [edit("home/logs.md", line, "")], rule_names(rule))
    assert figure is not None and not figure.met


def test_a_value_is_not_a_date_nor_a_numbered_name() -> None:
    rule = derive("tell me when Sam's grade 5 violin result comes in (mail/)")
    assert evidence(rule, [edit("mail/notes.md", "Sam's grade 5 violin exam was on 14 May, results soon", "")]) \
        is None


def test_a_new_file_that_says_it_is_still_to_come_has_not_brought_it() -> None:
    rule = derive("tell me when the survey report for the flat comes in (house/)")
    pending = new_file("house/surveyor.md", "Subject: your survey report\n\nThe report for the flat is being "
                                            "prepared and will be sent by Friday.")
    done = new_file("house/survey-report.md", "Survey report: 12 Elm Row flat. Condition ratings below.")
    assert arrived(rule, [pending]) is None and arrived(rule, [done]) is not None


def test_a_document_of_another_month_is_not_the_one_awaited() -> None:
    rule = derive("When the gym's invoice for March lands in money/invoices/, check it against my visits")
    assert arrived(rule, [new_file("money/invoices/gym-2027-02.md", "Invoice G-118, February 2027: 42.00")]) is None
    assert arrived(rule, [new_file("money/invoices/gym-2027-03.md", "Invoice G-131, March 2027: 42.00")]) is not None


def test_moving_away_from_a_place_is_a_new_place_not_a_new_time() -> None:
    rule = derive("tell me if Tuesday's quiz moves away from the Red Lion (quiz/dates.md)")
    old = "- Tuesday 3 March, 8pm, Red Lion"
    assert evidence(rule, [edit("quiz/dates.md", "- Tuesday 3 March, 8.30pm, Red Lion", old)]) is None
    assert evidence(rule, [edit("quiz/dates.md", "- Tuesday 3 March, 8pm, the Crown", old)]) is not None


def test_a_relation_is_a_name_others_need_not_write() -> None:
    rule = derive("If Dad's GP changes any of his medicines, update his tablet list in care/dad.md")
    gp = new_file("mail/gp.txt", "From: Elm Surgery\nSubject: Peter Shaw - medication change\n\nPlease stop the "
                                 "ramipril from Monday.")
    assert names_subject(rule, gp), "the surgery calls him by his name"
    assert not names_subject(rule, new_file("mail/gp.txt", "Subject: Mum's medication change\n\nStop the ramipril."))
    assert not names_subject(rule, memory("Met Sarah's GP at the school gate, she changes surgery in May"))


def test_what_day_waits_for_a_day_not_the_word() -> None:
    rule = derive("tell me when the joiner says what day he's fitting the stairs")
    assert evidence(rule, [memory("Physio says: do the stretches twice a day")]) is None
    assert "he" not in rule.watch_words


def test_a_second_leading_condition_joins_the_first_and_the_action_is_the_last_clause() -> None:
    rule = derive("when a week's steps go into health/steps.json, if they're under 50,000, plan me three walks")
    assert rule.condition == "a week's steps go into health/steps.json and they're under 50,000"
    assert rule.action == "plan me three walks" and rule.kind == "escalate"


def test_a_sentence_in_lower_case_after_a_full_stop_is_no_part_of_the_condition() -> None:
    rule = derive("tell me when the vet confirms Bruno's op date. their letters land in mail/")
    assert rule.condition == "the vet confirms Bruno's op date"
    assert rule.watch_paths == ("mail/",)


def test_a_mail_from_whom_the_condition_names_must_name_what_it_is_about_too() -> None:
    rule = derive("When the council's reminder to renew the Fiesta's permit comes (mail/), remind me")
    assert awaits_arrival(rule), "a bare 'comes' before its folder is an arrival"
    fiesta = new_file("mail/permit.txt", "From: Council Parking <permits@council.example>\nSubject: Permit reminder\n"
                                         "\nThe residents' permit for your Ford Fiesta ends on 30 June.")
    polo = new_file("mail/permit.txt", "From: Council Parking <permits@council.example>\nSubject: Permit reminder\n"
                                       "\nThe residents' permit for your VW Polo ends on 30 June.")
    assert arrived(rule, [fiesta]) is not None and arrived(rule, [polo]) is None


def test_a_verb_done_to_what_follows_it_is_what_the_condition_waits_for() -> None:
    rule = derive("Tell me when the land registry registers our transfer (mail/)")
    assert condition_words(rule) == {stem("registers")}
    mail = new_file("mail/lr.txt", "From: HM Land Registry\nSubject: Application completed\n\nThe transfer of "
                                   "14 Elm Row has been registered.")
    assert evidence(rule, [mail]) == "registered"


def test_a_name_in_capitals_is_named_by_its_words_spelt_out() -> None:
    rule = derive("Tell me when the DBS check for my volunteering comes back (mail/)")
    assert "dbs" in rule_names(rule)
    spelt = new_file("mail/check.txt", "Subject: Disclosure and Barring Service certificate\n\nYour certificate "
                                       "has been issued.")
    assert names_subject(rule, spelt)


def test_below_zero_is_a_figure_and_a_short_name_names_a_row() -> None:
    rule = derive("I'm 4B's tutor. Tell me if any pupil in my group has their trip balance go below zero "
                  "(office/trip.md)")
    assert "below 0" in rule.condition
    header = "| pupil | group | balance |"
    nought = ChangeItem("file", "office/trip.md", "| Ana Diaz | 4B | £0.00 |", "changed", "| Ana Diaz | 4B | £3.00 |",
                        columns=header)
    owing = ChangeItem("file", "office/trip.md", "| Ana Diaz | 4B | -£2.00 |", "changed",
                       "| Ana Diaz | 4B | £3.00 |", columns=header)
    assert not compared(rule, [nought], rule_names(rule)).met  # type: ignore[union-attr]
    assert compared(rule, [owing], rule_names(rule)).met  # type: ignore[union-attr]


def test_a_figure_to_come_is_not_one_there_is() -> None:
    rule = derive("tell me if my card balance goes below zero (money/card.md)")
    line = "| Current | £14.20 | will be -£5.80 after the gym fee |"
    figure = compared(rule, [edit("money/card.md", line, "")], rule_names(rule))
    assert figure is not None and not figure.met


def test_of_labelled_figures_only_the_subjects_label_counts() -> None:
    rule = derive("ping me when the garage freezer's bottom drawer gets above -12 °C")
    lines = "top drawer: -9 °C\nbottom drawer: -17 °C\nchecked: 07:00"
    figure = compared(rule, [new_file("home/freezer.txt", lines)], rule_names(rule))
    assert figure is not None and not figure.met
    warm = compared(rule, [new_file("home/freezer.txt", lines.replace("-17", "-10"))], rule_names(rule))
    assert warm is not None and warm.met


def test_a_preface_before_a_colon_is_context_not_the_condition() -> None:
    rule = derive("For the spring fair raffle: whenever I tell you someone's pledged a prize, add it to "
                  "charity/raffle-prizes.md with who's giving it")
    assert rule.condition == "I tell you someone's pledged a prize"
    assert rule.targets == ("charity/raffle-prizes.md",)
    assert evidence(rule, [memory("The Old Forge have promised a Sunday lunch for two as a raffle prize.")])
    assert evidence(rule, [memory("I won the meat raffle at the rugby club last night!")]) is None


@pytest.mark.parametrize(("text", "met"), [
    ("Gillian Shaw renewed her bowls club membership today, £30 by bank transfer.", True),
    ("Dennis Kerr says he'll renew at the May meeting once he's back from Spain.", False),
])
def test_what_the_user_tells_of_someone_else_is_news(text: str, met: bool) -> None:
    rule = derive("Whenever I tell you a member has renewed, add a line to club/renewals-2026.md")
    assert bool(evidence(rule, [memory(text)])) is met


@pytest.mark.parametrize(("text", "met"), [
    ("Rang Mrs Dunn: Bramble is eating and the wound looks clean.", True),
    ("Must ring Mr Varga about Otis first thing tomorrow.", False),  # still to do
    ("Mr Varga rang to book Otis in for a nail clip in June.", False),  # the owner rang, not the user
])
def test_a_call_the_user_made_is_one_they_rang(text: str, met: bool) -> None:
    rule = derive("When I tell you I've done a post-op check call, tick that animal off in vet/postop-calls.md")
    assert bool(evidence(rule, [memory(text)])) is met


@pytest.mark.parametrize(("text", "met"), [
    ("Auntie Carol's birthday is 14 October, must not forget it this year.", True),
    ("Dev asked me when Rafi's godmother's birthday is and I had no idea.", False),
    ("Paperchain have birthday cards at half price until Sunday.", False),  # a limit, not a birthday
])
def test_someones_birthday_date_is_a_date_said_of_a_birthday(text: str, met: bool) -> None:
    rule = derive("When I mention someone's birthday date, add it to family/birthdays.md")
    assert bool(evidence(rule, [memory(text)])) is met


def test_a_start_said_as_beginning_tonight() -> None:
    rule = derive("tell me when the toad patrol on Brook Lane starts for the year (feeds/toad-patrol.md)")
    begins = "- 3 Mar: Toads are moving! Brook Lane patrols begin tonight, meet at the gate at 7pm."
    assert evidence(rule, [edit("feeds/toad-patrol.md", begins, "")])
    later = "- 3 Mar: Brook Lane patrols start next week if the nights stay mild."
    assert evidence(rule, [edit("feeds/toad-patrol.md", later, "")]) is None


@pytest.mark.parametrize(("title", "line", "met"), [
    ("Tell me if the hot tub's chlorine is under 1 ppm (home/hottub.md)", "- Fri: chlorine 0.8 mg/l, pH 7.4", True),
    ("Tell me if the hot tub's chlorine is under 1 ppm (home/hottub.md)", "- Fri: chlorine 1.2 mg/l, pH 7.4", False),
    ("remind me to order liquid nitrogen when the storage dewar drops below 30% (lab/ln2.txt)",
     "storage_dewar_percent: 27\ntransfer_dewar_percent: 48", True),
    ("remind me to order liquid nitrogen when the storage dewar drops below 30% (lab/ln2.txt)",
     "storage_dewar_percent: 31\ntransfer_dewar_percent: 12", False),
    ("whenever a lead is a company with more than 50 people, tell me (leads/form.json)",
     '  {"company": "Orrin Logistics", "staff": 120, "message": "A booking portal"}', True),
    ("whenever a lead is a company with more than 50 people, tell me (leads/form.json)",
     '  {"company": "Pell Bakeries", "staff": 12, "message": "A new website"}', False),
])
def test_a_figure_in_another_unit_or_word_of_the_same_kind_is_compared(title: str, line: str, met: bool) -> None:
    rule = derive(title)
    figure = compared(rule, [edit(title.rsplit("(", 1)[1].rstrip(")"), line, "")], rule_names(rule))
    assert figure is not None and figure.met is met


@pytest.mark.parametrize(("row", "met"), [("2026-06-10,125,240", True), ("2026-06-10,120,240", False)])
def test_a_bound_in_words_against_a_column_in_another_unit(row: str, met: bool) -> None:
    rule = derive("Warn me if the median first reply time on any day goes over two hours (support/first.csv)")
    item = ChangeItem("file", "support/first.csv", row, "changed", "", columns="date,median_min,p90_min")
    figure = compared(rule, [item], rule_names(rule))
    assert figure is not None and figure.met is met


def test_deeper_than_compares_the_depth() -> None:
    rule = derive("tell me when the snow at the summit gets deeper than 120 cm (travel/snow.md)")
    assert compared(rule, [edit("travel/snow.md", "summit: 126 cm", "")], rule_names(rule)).met  # type: ignore[union-attr]


@pytest.mark.parametrize(("text", "met"), [
    ("Marek rang: the Harrisons' job has overrun, so he'll start our bathroom on Monday 13 July instead of the 6th.",
     True),
    ("Marek says the finish might slip to 24 July instead of the 17th if the tiles are late.", False),
])
def test_a_new_date_is_said_in_the_future_tense(text: str, met: bool) -> None:
    rule = derive("Tell me if Marek's start date for the bathroom moves (it's meant to be Monday 6 July)")
    assert bool(evidence(rule, [memory(text)])) is met


def test_a_line_that_names_the_user_or_the_one_the_condition_names_is_about_them() -> None:
    rule = derive("I'm Dan. tell me if Sophie swaps any of my weekends with the kids (family/weekends.md)")
    swapped = ChangeItem("file", "family/weekends.md", "| 20-21 June | Sophie (swapped) | Fri 6pm |\n"
                         "| 27-28 June | Dan (swapped) | Fri 6pm |", "changed",
                         "| 20-21 June | Dan | Fri 6pm |\n| 27-28 June | Sophie | Fri 6pm |")
    assert evidence(rule, [swapped]) == "swapped"
    handover = ChangeItem("file", "family/weekends.md", "| 13-14 June | Sophie | Sat 10am |", "changed",
                          "| 13-14 June | Sophie | Fri 6pm |")
    assert evidence(rule, [handover]) is None


@pytest.mark.parametrize(("text", "met"), [
    ("The skipper has a clash, so the Farnes trip moves to Sunday 7 June, same times.", True),
    ("Reminder: the Farnes trip sails at 7am on Saturday 6 June, bring a warm layer.", False),
])
def test_a_trip_that_moves_to_another_day(text: str, met: bool) -> None:
    rule = derive("If the boat trip to the Farnes gets moved to another date, rework my plan in travel/farnes.md")
    mail = new_file("mail/anglers.txt", f"From: Sea Anglers\nSubject: Farnes trip\n\n{text}")
    assert bool(evidence(rule, [mail])) is met


@pytest.mark.parametrize(("text", "met"), [
    ("Kofi sent me £38 for his half of the gas.", True),
    ("Dev's sent the Airbnb money, it landed this morning.", True),
    ("Paid Kofi back the £9 he lent me for the cinema snacks.", False),  # the user paying, the other way
    ("I paid Hana back for the popcorn.", False),
    ("Kofi says he'll send the concert ticket money on Friday.", False),
])
def test_paid_back_is_money_sent_to_the_user(text: str, met: bool) -> None:
    rule = derive("If I tell you someone's paid me back, tick them off in money/owed.md")
    assert bool(evidence(rule, [memory(text)])) is met


@pytest.mark.parametrize(("row", "met"), [
    ("| A5 linen notebook | sage | 7 |", True),
    ("| A5 linen notebook | sage | 10 |", False),
    ("| A6 linen notebook | sage | 4 |", None),  # another notebook: nothing to compare
])
def test_a_count_of_a_thing_a_stock_table_lists(row: str, met: bool | None) -> None:
    rule = derive("Tell me when we are down to fewer than 10 of the A5 linen notebooks (shop/inventory.md)")
    item = ChangeItem("file", "shop/inventory.md", row, "changed", "", columns="| item | colour | in stock |")
    figure = compared(rule, [item], rule_names(rule))
    assert (figure.met if figure is not None else None) is met


def test_a_day_the_condition_names_by_its_date_or_month_sets_lines_of_other_months_aside() -> None:
    assert "date:apr" in occasions("the list shows Mill Lane closed on Tuesday 21 April", condition=True)
    assert "date:may" in occasions("the library's going to be shut on a Saturday in May", condition=True)
    assert "date:jun" not in occasions("pay the deposit by 30 June", condition=True), "a deadline is no occasion"
    rule = derive("tell me if the library's going to be shut on a Saturday in May (library/opening.md)")
    assert evidence(rule, [edit("library/opening.md", "- Sat 16 May: closed for staff training", "")])
    assert evidence(rule, [edit("library/opening.md", "- Sat 13 June: closed for staff training", "")]) is None


def test_a_place_of_two_words_is_not_another_that_shares_the_first() -> None:
    rule = derive("tell me if the roadworks list (council/roadworks.md) shows Mill Lane closed on Tuesday 21 April")
    assert evidence(rule, [edit("council/roadworks.md", "| Mill Lane | full closure | 20 - 24 April |", "")])
    assert evidence(rule, [edit("council/roadworks.md", "| Mill Road | full closure | 20 - 24 April |", "")]) is None
    assert evidence(rule, [edit("council/roadworks.md", "| Mill Lane | full closure | 4 - 8 May |", "")]) is None


def test_the_thing_named_by_its_kind_is_not_another_of_that_kind_nor_missed_written_as_one_word() -> None:
    rule = derive("tell me if the parish council minutes mention the skate park (council/parish-minutes/)")
    minutes = "# Parish council minutes\n\n1. Play park: bins installed.\n2. Car park lighting: quote accepted."
    assert evidence(rule, [new_file("council/parish-minutes/2026-03.md", minutes)]) is None
    assert evidence(rule, [new_file("council/parish-minutes/2026-03.md", "3. Skatepark: the lottery bid won.")])
    certificate = derive("Tell me if the certificate renewal for shop.example.org goes wrong (ops/logs/certbot.log)")
    failed = "2026-12-02 03:00 certbot: shop.example.org renewal attempt failed: DNS challenge did not pass"
    assert evidence(certificate, [edit("ops/logs/certbot.log", failed, "")]), "a host's dots end no phrase"


def table_row(name: str, header: str, row: str, removed: str = "") -> ChangeItem:
    return ChangeItem("file", name, row, "changed", removed, title="# Log", columns=header)


_WATER = "| date | tank | ammonia (ppm) | nitrite (ppm) | nitrate (ppm) |"


@pytest.mark.parametrize(("row", "met"), [
    ("| 2026-05-16 | shrimp | 0.25 | 0 | 15 |", True),
    ("| 2026-05-16 | shrimp | 0 | 0 | 40 |", False),  # the nitrate rose, not the ammonia
    ("| 2026-05-16 | community | 0.5 | 0 | 25 |", None),  # another tank's row
])
def test_a_column_of_figures_is_compared_for_the_row_the_condition_names(row: str, met: bool | None) -> None:
    rule = derive("warn me if the ammonia in the shrimp tank reads above zero (aquarium/water-tests.md)")
    figure = compared(rule, [table_row("aquarium/water-tests.md", _WATER, row)], rule_names(rule))
    assert (figure.met if figure is not None else None) is met


@pytest.mark.parametrize(("row", "met"), [("| 2026-03-01 | 5 sessions | 0.11 |", True),
                                          ("| 2026-03-01 | 5 sessions | 0.125 |", False)])
def test_a_bound_may_be_a_fraction_and_a_column_named_in_capitals(row: str, met: bool) -> None:
    rule = derive("tell me when the mirror's PV error gets under 1/8 wave (astro/mirror-tests.md)")
    figure = compared(rule, [table_row("astro/mirror-tests.md", "| date | after | PV error (waves) |", row)])
    assert figure is not None and figure.met is met


def test_my_figure_in_a_table_of_people_is_on_my_row() -> None:
    rule = derive("I'm Tom Ashworth. tell me when my club rating goes over 1600 (chess/ratings.md)")
    header = "| player | rating | games |"
    navid = table_row("chess/ratings.md", header, "| Navid Qureshi | 1631 | 34 |", "| Navid Qureshi | 1604 | 30 |")
    mine = table_row("chess/ratings.md", header, "| Gill Harper | 1704 | 47 |\n| Tom Ashworth | 1623 | 29 |")
    assert compared(rule, [navid], rule_names(rule)) is None, "Navid's rating is not Tom's"
    figure = compared(rule, [mine], rule_names(rule))
    assert figure is not None and figure.met and "1623" in figure.said


def test_days_are_compared_as_days_and_json_keys_name_whose_figure() -> None:
    streak = derive("tell me when my italian streak hits 100 days. the app export rewrites learning/streaks.json")
    export = edit("learning/streaks.json", '{"language": "Italian", "streak_days": 97, "xp": 15240},\n'
                                           '{"language": "Welsh", "streak_days": 100, "xp": 3110}', "")
    figure = compared(streak, [export], rule_names(streak))
    assert figure is not None and not figure.met, "Welsh reached 100 days, Italian did not"
    certs = derive("warn me if any cert in the nightly check has fewer than 14 days left (ops/logs/certcheck.log)")
    line = edit("ops/logs/certcheck.log", "2026-05-04 01:30:04 certcheck mail.example expires 2026-05-18 (14 days)", "")
    figure = compared(certs, [line], rule_names(certs))
    assert figure is not None and not figure.met, "a clock's 01:30:04 is no number of days"


def test_ready_for_another_purpose_is_not_ready_to_collect() -> None:
    rule = derive("tell me when Graham says my dovetail box is ready to collect from the workshop (woodwork/notes.md)")
    coat = edit("woodwork/notes.md", "- wk 7: Graham says my box is ready for its second coat of oil.", "")
    assert evidence(rule, [coat]) is None
    assert evidence(rule, [edit("woodwork/notes.md", "- Graham: your box is ready for collection.", "")])


def test_a_price_list_is_a_document_and_its_senders_invoice_is_not_it() -> None:
    rule = derive("when Harrow Philatelics' new price list comes in (mail/), check it against my wants")
    invoice = new_file("mail/2026-04-03-harrow.txt", "From: Harrow Philatelics <accounts@harrowphil.example>\n"
                       "Subject: Invoice H-3392\n\nThank you for your order: 1924 Wembley 1d, £3. Paid in full.")
    assert evidence(rule, [invoice]) is None


def test_what_the_user_did_to_a_thing_says_which_thing_not_what_happens() -> None:
    rule = derive("when the hops I ordered from the Malt Miller arrive, plan the brew day")
    dispatched = new_file("mail/2026-05-04-maltmiller.txt", "From: The Malt Miller <orders@maltmiller.example>\n"
                          "Subject: Your order is on its way\n\nOrder MM-88213 has been dispatched.")
    delivered = new_file("mail/2026-05-06-maltmiller.txt", "From: The Malt Miller <orders@maltmiller.example>\n"
                         "Subject: Your order has been delivered\n\nOrder MM-88213 was left in your porch.")
    assert evidence(rule, [dispatched]) is None
    assert evidence(rule, [delivered]) is not None


def test_an_arrival_that_names_no_place_is_a_new_file_that_names_it() -> None:
    rule = derive("when my tutor's feedback on TMA03 arrives, make me a plan for TMA04 (study/)")
    assert evidence(rule, [new_file("study/tma03-feedback.md", "TMA03: 71. Much clearer structure.")])
    assert evidence(rule, [new_file("study/marks.md", "TMA01 64, TMA02 68, TMA03 71 (feedback to follow)")]) is None
    later = new_file("mail/2026-04-15-tutor.txt", "From: Dr Okonjo <n@open.example>\nSubject: TMA03\n\n"
                     "I'm marking this week, you should have your feedback by the 24th.")
    assert evidence(rule, [later]) is None


def test_homework_posted_into_its_folder_is_an_arrival() -> None:
    rule = derive("each time Sensei posts homework in learning/japanese/homework/, give me a one-line summary of it")
    assert awaits_arrival(rule)
    assert arrived(rule, [new_file("learning/japanese/homework/week-06.md", "# Homework week 6\n\nLearn katakana.")])


@pytest.mark.parametrize(("line", "met"), [
    ("- 9 May, hive 2: five sealed queen cells along the bottom bars.", True),
    ("- 9 May, hive 1: three queen cells on frame 4.", False),  # another hive
    ("- 9 May, hive 2: looked hard for queen cells, none. Queen seen, laying well.", False),
    ("- 9 May, hive 2: calm. Reminded me of last May, when they built queen cells and swarmed.", False),
])
def test_a_phrase_is_mentioned_whole_for_its_numbered_thing_and_now(line: str, met: bool) -> None:
    rule = derive("warn me if my inspection notes mention queen cells in hive 2 (bees/inspections.md), "
                  "it'll be getting ready to swarm")
    assert "swarm" not in rule.condition, "the user's reason is no part of the condition"
    assert (evidence(rule, [edit("bees/inspections.md", line, "")]) is not None) is met


def test_final_is_said_of_the_thing_not_of_a_rehearsal() -> None:
    rule = derive("when the christmas concert programme is final (choir/programme.md), make me a practice plan")
    header = "# Christmas concert, Sat 12 Dec, St Mary's - FINAL (agreed by the committee 3 Nov)"
    assert evidence(rule, [edit("choir/programme.md", header, "# Christmas concert, Sat 12 Dec - DRAFT")])
    assert evidence(rule, [edit("choir/programme.md", "Final rehearsal: Thu 10 Dec, 7pm, in the church.", "")]) is None


@pytest.mark.parametrize(("said", "met"), [
    ("Picked up an 1890 florin at the York fair for 22 pounds, nice and crisp.", True),
    ("Got the 1970 proof set off eBay for 9 pounds in the end.", True),
    ("Looked at a Victorian crown at the fair but it was too worn, so I left it.", False),
    ("Sold my spare 1935 crown to Dave for 30 pounds.", False),
])
def test_a_purchase_is_said_in_other_words(said: str, met: bool) -> None:
    rule = derive("add every coin I tell you I've bought to collecting/coins.csv")
    assert (evidence(rule, [memory(said)]) is not None) is met


def test_a_reply_about_a_topic_is_a_mail_from_them_that_names_it() -> None:
    rule = derive("When the archive centre in Whitehaven replies about Ellen Thwaite's baptism, compare what they "
                  "found with my notes in family-history/thwaite.md")
    head = "From: Whitehaven Archive Centre <enquiries@whitehaven-archive.example>\n"
    found = new_file("mail/a.txt", head + "Subject: Your enquiry 26/118: Thwaite\n\nWe found a baptism at St Bees.")
    received = new_file("mail/b.txt", head + "Subject: Enquiry received: 26/118\n\nWe aim to reply within 25 days.")
    other = new_file("mail/c.txt", "From: Lancashire Archives <a@lancs.example>\nSubject: Thwaite\n\nA will.")
    assert evidence(rule, [found]) and evidence(rule, [received]) is None and evidence(rule, [other]) is None


def test_a_mails_date_header_is_no_date_given() -> None:
    rule = derive("Tell me when Whitfield Repairs give us a date for the engineer to come back and fit the bearing")
    head = "From: Whitfield Repairs <jobs@whitfield.example>\nSubject: Job WR-5512\nDate: Mon, 9 Nov 2026 10:12 +0000\n"
    assert evidence(rule, [new_file("mail/a.txt", head + "The bearing is on back order; we'll contact you.")]) is None
    assert evidence(rule, [new_file("mail/b.txt", head + "Your engineer will visit on Wednesday 18 November.")])
    assert evidence(rule, [memory("Rang Whitfield, the woman who does the diary is off till Monday.")]) is None


def test_a_day_asked_for_is_what_is_said_not_the_job() -> None:
    rule = derive("tell me when Declan says what day he can come and fix the slipped tiles on the back roof")
    assert evidence(rule, [memory("Declan texted, he'll be round Thursday 19th to do the back roof tiles.")])
    assert evidence(rule, [memory("Declan had a look at the roof, quoted 340 for the tiles.")]) is None
    strike = derive("we're getting the train to Edinburgh on 20 Oct and back on the 23rd. if a strike hits either "
                    "day, work out another way to do the trip")
    assert evidence(strike, [edit("travel/news.md", "Drivers will strike on Tuesday 27 October.", "")]) is None


def test_tell_me_if_after_an_arrival_is_part_of_the_condition() -> None:
    rule = derive("When Brightwave's gas bill comes in (mail/), tell me if it's based on an estimated reading so I "
                  "can send them a proper one")
    assert rule.action == "tell me" and "estimated reading" in rule.condition and "so I can" not in rule.condition
    bill = new_file("mail/a.txt", "From: Brightwave Energy <bills@brightwave.example>\nSubject: Your gas bill is "
                    "ready\n\nClosing reading 8806.2 (actual, from your smart meter).")
    assert evidence(rule, [bill]) is None, "the bill's coming is not what it says"


def test_a_leading_condition_without_its_comma_ends_at_what_to_do() -> None:
    rule = derive("the boiler keeps losing pressure. if it drops below 0.8 bar tell me so i can top it up "
                  "(home/boiler.log)")
    assert rule.action == "tell me so i can top it up" and rule.watch_paths == ("home/boiler.log",)
    figure = compared(rule, [edit("home/boiler.log", "2026-11-05 07:00 pressure 0.7 bar flow 60C", "")])
    assert figure is not None and figure.met


def test_a_duty_the_condition_puts_me_on_is_my_column() -> None:
    rule = derive("I'm Nia. tell me if the house rota (home/rota.md) puts me on bathrooms")
    header = "| week | bathroom | kitchen | bins |"
    assert evidence(rule, [table_row("home/rota.md", header, "| 23 Nov | Nia | Marta | Tomasz |")])
    assert evidence(rule, [table_row("home/rota.md", header, "| 23 Nov | Marta | Nia | Tomasz |")]) is None


def test_an_arrival_of_another_kind_of_the_thing_is_not_it() -> None:
    rule = derive("When the home insurance renewal from Castlegate arrives, compare it with last year's premium")
    home = new_file("mail/a.txt", "From: Castlegate Insurance <r@castlegate.example>\nSubject: Your home insurance "
                    "renewal HC-88123\n\nYour new premium is 539.40 pounds.")
    car = new_file("mail/b.txt", "From: Castlegate Motor <r@castlegate.example>\nSubject: Your car insurance renewal "
                   "CM-30417\n\nYour new premium is 380 pounds.")
    assert evidence(rule, [home]) and evidence(rule, [car]) is None


def test_a_change_announced_from_a_date_is_the_figure_for_the_measure_named() -> None:
    rule = derive("Tell me if our electricity unit rate goes above 28p per kWh - Brightwave mail any price changes "
                  "(mail/)")
    head = "From: Brightwave Energy <hello@brightwave.example>\nSubject: Your prices are changing\n\n"
    up = new_file("mail/a.txt", head + "From 1 January 2027 your electricity unit rate will be 29.14p per kWh "
                  "(was 26.41p) and your standing charge 52.06p per day.")
    standing = new_file("mail/b.txt", head + "From 1 January 2027 your electricity standing charge goes up to 58.90p "
                        "per day. Your unit rate goes to 27.10p per kWh.")
    assert (figure := compared(rule, [up], rule_names(rule))) is not None and figure.met
    assert (figure := compared(rule, [standing], rule_names(rule))) is not None and not figure.met


def test_a_report_that_comes_into_a_folder_is_not_its_invoice() -> None:
    rule = derive("When the surveyor's report for 27 Ferndale Road comes (move/), go through it")
    invoice = new_file("move/survey-invoice.md", "Invoice 2291, survey at 27 Ferndale Road: 645 pounds")
    assert evidence(rule, [invoice]) is None
    assert evidence(rule, [new_file("move/surveyor-report.md", "# Surveyor's report, 27 Ferndale Road\nRoof: 3")])


def test_a_reply_that_says_it_is_to_come_is_no_reply() -> None:
    rule = derive("When Dale replies about the snagging, check what he says he's fixed against home/snagging.md")
    head = "From: Dale Whitcombe Building <dale@whitcombe.example>\nSubject: Re: snagging\n\n"
    assert evidence(rule, [new_file("inbox/a.txt", head + "Got your list, I'll get the lads round next week.")]) is None
