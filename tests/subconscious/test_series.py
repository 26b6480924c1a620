"""Figures read against the rows before them (issue 24): a rise since the last reading, what a meter says was
used, rows counted per week, the same outcome several times running. The file history keeps the lines before a
change, and the app decides these without the model."""

from __future__ import annotations

from pathlib import Path

import pytest

from openhuman_desktop.subconscious import series
from openhuman_desktop.subconscious.changes import FileHistory, cells, diff_in_context
from openhuman_desktop.subconscious.decisions import ChangeItem
from openhuman_desktop.subconscious.judgement import Judge
from openhuman_desktop.subconscious.relevance import rule_names
from openhuman_desktop.subconscious.task_rules import derive
from tests.subconscious.test_evidence import NoModel
from tests.subconscious.test_judgement import TOKENS, make_task, report


def appended(name: str, before: str, added: str) -> ChangeItem:
    """A file's item as the report builds it: the added lines, the lines before them, the header row."""
    lines = before.splitlines()
    return ChangeItem("file", name, added, "changed", title=lines[0] if lines else "", context=before)


def decided(title: str, item: ChangeItem) -> bool | None:
    rule = derive(title)
    kind = series.shape(rule.condition)
    assert kind is not None, f"{rule.condition!r} is about a series"
    figure = series.over_rows(rule, [item], rule_names(rule), kind)
    return None if figure is None else figure.met


@pytest.mark.parametrize(("condition", "kind"), [
    ("disk use on db-02 jumps by more than 10 points in a day", series.MOVE),
    ("the rent goes up by more than 5%", series.MOVE),
    ("a drop of over £50 in the balance", series.MOVE),
    ("we use more than 12 cubic metres of water in a month", series.USED),
    ("more than 5 people cancel their veg box in the same week", series.PER_PERIOD),
    ("the backup fails three nights in a row", series.RUNNING),
    ("my fasting glucose is 7.0 or higher two mornings running", series.RUNNING),
    ("the temperature rises above 38", None),
    ("the replica falls more than 5 minutes behind", None),
    ("Dad's weight drops more than 2 kg below his 1 March weigh-in", None),
    ("a week's egg takings drop below 30 pounds", None),
    ("the mite drop goes above 10 a day", None),
])
def test_the_shape_of_a_condition_about_a_series(condition: str, kind: str | None) -> None:
    assert series.shape(condition) == kind


_DISK = ("2026-06-08 00:05 db-02 /var/lib/postgresql 61% used (306G/500G)\n"
         "2026-06-08 00:05 web-01 / 40% used (32G/80G)")


@pytest.mark.parametrize(("added", "met"), [
    ("2026-06-09 00:05 db-02 /var/lib/postgresql 76% used (381G/500G)\n"
     "2026-06-09 00:05 web-01 / 40% used (32G/80G)", True),
    ("2026-06-09 00:05 db-02 /var/lib/postgresql 69% used (345G/500G)", False),
    ("2026-06-09 00:05 db-02 /var/lib/postgresql 62% used (311G/500G)\n"
     "2026-06-09 00:05 web-01 / 72% used (58G/80G)", False),  # web-01 jumped, not db-02
])
def test_a_rise_is_read_against_the_same_series_reading_before_it(added: str, met: bool) -> None:
    title = "If disk use on db-02 jumps by more than 10 points in a day, find out why (ops/logs/disk.log)"
    assert decided(title, appended("ops/logs/disk.log", _DISK, added)) is met


def test_a_relative_rise_and_a_rewritten_row() -> None:
    rent = "month,rent\n2026-01,950"
    title = "Tell me if the rent goes up by more than 5% (home/rent.csv)"
    assert decided(title, appended("home/rent.csv", rent, "2026-02,1010")) is True  # 6.3 %
    assert decided(title, appended("home/rent.csv", rent, "2026-02,990")) is False  # 4.2 %
    # a row rewritten in place: its old version is the reading before
    price = ChangeItem("file", "shop/prices.csv", "kettle,31.00", "changed", "kettle,24.00", title="item,price")
    assert decided("Tell me if the price of the kettle rises by more than £5 (shop/prices.csv)", price) is True


def test_a_move_the_table_states_itself() -> None:
    header = "| ticker | name | price (p) | day | month |"
    title = "If any share in my ISA falls more than 10% in one day, tell me (money/isa.md)"

    def isa(row: str) -> ChangeItem:
        return ChangeItem("file", "money/isa.md", row, "changed", "| GAW | Games Workshop | 13,950 | -0.8% | +6.0% |",
                          title="# ISA", columns=header)

    assert decided(title, isa("| GAW | Games Workshop | 12,210 | -12.4% | -7.3% |")) is True
    assert decided(title, isa("| GAW | Games Workshop | 12,580 | -9.8% | -15.0% |")) is False  # the month's


def test_what_a_meter_says_was_used_is_the_difference_of_two_readings() -> None:
    water = "date,reading_m3\n2026-02-01,1439.1\n2026-03-01,1449.9"
    title = "Tell me if we use more than 12 cubic metres of water in a month (home/water-meter.csv)"
    assert decided(title, appended("home/water-meter.csv", water, "2026-04-01,1463.2")) is True  # 13.3
    assert decided(title, appended("home/water-meter.csv", water, "2026-04-01,1461.4")) is False  # 11.5
    # figures that are not a meter's readings are not used up
    assert decided("Tell me if we use more than 12 litres of oil in a month (car/oil.csv)",
                   appended("car/oil.csv", "date,litres\n2026-02-01,4", "2026-03-01,20")) is None


_BOXES = ("date,customer,box\n2026-03-09,J. Barker,small veg\n2026-03-10,A. Osei,family veg\n"
          "2026-03-11,P. Lund,fruit and veg")


@pytest.mark.parametrize(("added", "met"), [
    ("2026-03-12,M. Hughes,small veg\n2026-03-13,R. Dutta,family veg\n2026-03-14,S. Kerr,small veg", True),
    ("2026-03-12,M. Hughes,small veg\n2026-03-13,R. Dutta,family veg", False),  # five is not more than five
    ("2026-03-16,M. Hughes,small veg\n2026-03-17,R. Dutta,family veg\n2026-03-17,S. Kerr,small veg", False),
])
def test_rows_are_counted_in_the_week_of_the_new_ones(added: str, met: bool) -> None:
    title = "Warn me if more than 5 people cancel their veg box in the same week (boxes/cancellations.csv)"
    assert decided(title, appended("boxes/cancellations.csv", _BOXES, added)) is met


def test_a_sum_per_month_and_a_row_that_is_the_day_already() -> None:
    food = "date,shop,amount\n2026-04-03,Aldi,186.40\n2026-04-17,Tesco,170.55\n2026-03-30,Aldi,90.00"
    title = "Warn me if we spend more than £400 on food in a month (money/groceries.csv)"
    assert decided(title, appended("money/groceries.csv", food, "2026-04-26,Aldi,61.20")) is True  # 418.15
    assert decided(title, appended("money/groceries.csv", food, "2026-05-02,Aldi,261.20")) is False  # May's
    plugs = "2026-08-01 device=fridge daily_kwh=1.12\n2026-08-02 device=fridge daily_kwh=1.09"
    title = "tell me if the fridge's smart plug shows more than 1.5 kWh in a day (ops/logs/plugs.log)"
    assert decided(title, appended("ops/logs/plugs.log", plugs, "2026-08-03 device=fridge daily_kwh=1.82")) is True
    assert decided(title, appended("ops/logs/plugs.log", plugs, "2026-08-03 device=fridge daily_kwh=1.21")) is False


_CLASSES = "# Pilates\n\n- Tue 3 Mar: missed, late at work\n- Fri 6 Mar: went\n- Tue 10 Mar: missed, a cold"


@pytest.mark.parametrize(("before", "added", "met"), [
    (_CLASSES.replace("went", "missed, away"), "- Fri 13 Mar: missed, still a cold", True),
    (_CLASSES, "- Fri 13 Mar: missed, parents' evening", False),  # the one I went to breaks the run
    (_CLASSES.replace("went", "missed, away"), "- Fri 13 Mar: went", False),
])
def test_the_same_outcome_several_times_running(before: str, added: str, met: bool) -> None:
    title = "if I miss three pilates classes in a row, remind me to freeze the membership (fitness/pilates.md)"
    assert decided(title, appended("fitness/pilates.md", before, added)) is met


def test_a_limit_several_times_running_and_the_same_reading_running() -> None:
    glucose = "date,time,type,mmol\n2027-02-08,07:10,fasting,6.1\n2027-02-09,07:20,fasting,7.2"
    title = "If my fasting glucose is 7.0 or higher two mornings running, remind me (health/glucose.csv)"
    assert decided(title, appended("health/glucose.csv", glucose, "2027-02-10,07:15,fasting,7.0")) is True
    assert decided(title, appended("health/glucose.csv", glucose, "2027-02-10,07:15,fasting,6.8")) is False
    # an after-dinner reading is not a fasting one: the fasting series has no new row
    assert decided(title, appended("health/glucose.csv", glucose, "2027-02-09,19:40,after dinner,9.6")) is False
    brew = "| Date | Beer | Gravity |\n|---|---|---|\n| 7 Mar | Oatmeal stout | 1.016 |\n| 7 Mar | Pale ale | 1.012 |"
    title = "Let me know when the stout reads the same gravity three days running (brewing/log.md)"
    steady = "| 8 Mar | Oatmeal stout | 1.016 |\n| 9 Mar | Oatmeal stout | 1.016 |"
    assert decided(title, appended("brewing/log.md", brew, steady)) is True
    assert decided(title, appended("brewing/log.md", brew, steady.replace("1.016 |\n| 9", "1.015 |\n| 9"))) is False


async def test_the_app_decides_a_rise_from_the_file_history_without_a_model_call(tmp_path: Path) -> None:
    history = FileHistory(tmp_path / "seen.db")
    path = tmp_path / "disk.log"
    path.write_text(_DISK + "\n", encoding="utf-8")
    history.changes(tmp_path, [("disk.log", path.stat().st_size)], None, 1.0)
    path.write_text(_DISK + "\n2026-06-09 00:05 db-02 /var/lib/postgresql 76% used (381G/500G)\n", encoding="utf-8")
    [change] = history.changes(tmp_path, [("disk.log", path.stat().st_size)], 1.0, 2.0)
    assert change.context == tuple(_DISK.splitlines())
    item = ChangeItem("file", "disk.log", "\n".join(change.added), "changed", context="\n".join(change.context))
    judge = Judge(lambda: NoModel(), TOKENS)  # type: ignore[arg-type, return-value]
    task = make_task("If disk use on db-02 jumps by more than 10 points in a day, tell me (disk.log)")
    evaluation = await judge.evaluate([task], report(item))
    assert evaluation.decisions[task.id].decision == "act" and evaluation.model_calls == 0
    assert "61% then 76%" in evaluation.decisions[task.id].reason


def test_the_lines_before_a_change_are_kept_and_markdown_cells_split_at_bars() -> None:
    added, removed, before = diff_in_context("a\n\nb\nc\n", "a\n\nb\nX\nc\nY\n")
    assert (added, removed, before) == (["X", "Y"], [], ["a", "b"])
    assert diff_in_context("".join(f"{n}\n" for n in range(100)), "new\n")[2] == []
    assert len(diff_in_context("".join(f"{n}\n" for n in range(100)), "".join(f"{n}\n" for n in range(101)))[2]) \
        == 40
    assert cells("| GAW | Games Workshop | 12,210 | -12.4% |") == [" GAW", "Games Workshop", "12,210", "-12.4% "]
    assert cells("2026-04-01,1463.2") == ["2026-04-01", "1463.2"]


def test_a_sum_of_every_row_and_a_sum_this_tax_year() -> None:
    fund = "# Hall roof fund: money received\n- Parish council: £500\n- Coffee morning: £850\n- Quiz night: £500"
    title = "Once the money in for the hall roof (community/roof-fund.md) passes £2,000, remind me to ask Harlow's"
    assert series.shape(derive(title).condition) == series.TOTAL
    assert decided(title, appended("community/roof-fund.md", fund, "- Bake sale: £180")) is True  # 2,030
    assert decided(title, appended("community/roof-fund.md", fund, "- Raffle: £120")) is False  # 1,970
    # a pledge is not money in: no row of money came, and the pledge alone is not £2,000
    assert decided(title, appended("community/roof-fund.md", fund, "- Rugby club: £1,300 pledged")) is False
    isa = "date,paid_in\n2026-03-30,2000\n2026-04-07,5000\n2026-08-03,10000"  # 30 March is last tax year's
    title = "tell me when I've paid more than £16,000 into my ISA this tax year (money/isa.csv)"
    assert decided(title, appended("money/isa.csv", isa, "2026-09-01,1500")) is True  # 16,500
    assert decided(title, appended("money/isa.csv", isa, "2026-09-01,1000")) is False  # 16,000
    food = "date,shop,amount\n2026-03-28,Aldi,171.30\n2026-04-03,Aldi,186.40\n2026-04-17,Tesco,170.55"
    title = "warn me when this month's food shopping goes over £400 (money/groceries.csv)"
    assert decided(title, appended("money/groceries.csv", food, "2026-04-26,Aldi,43.20")) is True  # the amounts
    # one figure, or a figure per period on each row, is not a sum
    assert series.shape("the boiler service this year costs more than £100") is None
    assert series.shape("a week's egg takings from the honesty box drop below 30 pounds") is None


_SIGNUPS = "date,trial_signups\n2026-03-01,64\n2026-03-02,71\n2026-03-03,68\n2026-03-04,75\n2026-03-05,82\n" \
           "2026-03-06,77\n2026-03-07,57"


def test_a_week_s_figures_are_the_sum_of_its_rows_in_the_column_the_condition_names() -> None:
    title = "let me know when a week's trial signups go past 500. weeks run monday to sunday (growth/signups.csv)"
    assert series.shape(derive(title).condition) == series.PER_PERIOD
    # Monday 2 to Sunday 8 March; Sunday 1 March is the week before
    assert decided(title, appended("growth/signups.csv", _SIGNUPS, "2026-03-08,80")) is True  # 510
    assert decided(title, appended("growth/signups.csv", _SIGNUPS, "2026-03-08,70")) is False  # 500
    # a week's sum so far is not what "drops below" reads: each row's own figure is
    assert series.shape("a week's signups drop below 30") is None
    assert series.shape("we spend more than £400 on food in a calendar month") == series.PER_PERIOD


_WEBHOOKS = "date,hour,webhook,failed\n2026-05-12,00,payment,2\n2026-05-12,01,payment,0\n2026-05-12,02,payment,5\n" \
            "2026-05-12,02,shipping,1\n2026-05-12,03,payment,4\n2026-05-12,04,payment,3"


@pytest.mark.parametrize(("added", "met"), [
    ("2026-05-12,05,payment,7", True),  # 21 payment failures that day
    ("2026-05-12,05,payment,6", False),  # 20 is not more than 20
    ("2026-05-12,05,shipping,12", False),  # another webhook's: payment stays at 14
    ("2026-05-13,00,payment,9", False),  # the next day starts again
])
def test_rows_that_hold_counts_are_summed_not_counted(added: str, met: bool) -> None:
    title = "Ping me if more than 20 payment webhooks fail in one day. hourly counts go in ops/webhook-failures.csv"
    item = appended("ops/webhook-failures.csv", _WEBHOOKS, added)
    rule = derive(title)
    figure = series.over_rows(rule, [item], rule_names(rule), series.PER_PERIOD)
    assert figure is not None and figure.met is met, figure
    if "shipping" in added:
        assert "does not count" in figure.said


def test_a_move_said_after_the_limit_is_read_against_the_row_before() -> None:
    title = "tell me if a day's cloud bill in ops/costs.csv is more than 50% higher than the day before"
    assert series.shape(derive(title).condition) == series.MOVE
    costs = "date,usd\n2027-05-10,41.80\n2027-05-11,43.20\n2027-05-12,42.10"
    assert decided(title, appended("ops/costs.csv", costs, "2027-05-13,64.00")) is True  # 52 % up
    assert decided(title, appended("ops/costs.csv", costs, "2027-05-13,63.00")) is False  # 49.6 %
    assert decided(title, appended("ops/costs.csv", costs, "2027-05-13,58.40\n2027-05-14,71.90")) is False
    assert decided(title, appended("ops/costs.csv", costs, "2027-05-13,20.00")) is False  # down, not up


def test_worse_than_the_reading_before_is_down_for_a_yield_and_up_for_a_cost() -> None:
    title = ("flag it if the Zoe's efficiency on a charge is more than 10% worse than on the charge before "
             "(ev/charges.csv)")
    assert series.shape(derive(title).condition) == series.MOVE
    charges = "date,car,kwh,miles,efficiency\n2027-03-01,Zoe,30,120,4.0\n2027-03-03,Leaf,28,98,3.5"
    assert decided(title, appended("ev/charges.csv", charges, "2027-03-05,Zoe,30,105,3.5")) is True  # 12.5 % down
    assert decided(title, appended("ev/charges.csv", charges, "2027-03-05,Zoe,30,114,3.8")) is False  # 5 % down
    assert decided(title, appended("ev/charges.csv", charges, "2027-03-05,Zoe,30,150,5.0")) is False  # better
    bill = "tell me if a week's grocery bill is more than 20% worse than the week before (home/groceries.csv)"
    groceries = "week,gbp\n2027-W10,80\n2027-W11,82"
    assert decided(bill, appended("home/groceries.csv", groceries, "2027-W12,101")) is True  # 23 % dearer
    assert decided(bill, appended("home/groceries.csv", groceries, "2027-W12,60")) is False


def test_a_reading_at_another_hour_is_not_the_one_the_condition_reads() -> None:
    title = "if the greenhouse is below 5 C at 7am three mornings running, tell me (garden/greenhouse.csv)"
    log = ("date,time,temp_c\n2027-01-10,07:00,4.2\n2027-01-10,15:00,11.0\n2027-01-11,07:00,3.9\n"
           "2027-01-11,15:00,9.5\n")
    assert decided(title, appended("garden/greenhouse.csv", log, "2027-01-12,07:00,4.8")) is True
    # the afternoon rows in between do not break the run, and a cold night reading does not extend it
    assert decided(title, appended("garden/greenhouse.csv", log, "2027-01-12,07:00,6.1\n2027-01-12,23:00,2.0")) \
        is False
    warm = log.replace("2027-01-10,07:00,4.2", "2027-01-10,07:00,7.5")
    assert decided(title, appended("garden/greenhouse.csv", warm, "2027-01-12,07:00,4.8")) is False  # two only


def test_our_spending_on_something_is_the_sum_of_its_rows() -> None:
    title = "warn me when our spending on the Lisbon trip goes past €800 (travel/lisbon.csv)"
    assert series.shape(derive(title).condition) == series.TOTAL
    spend = "date,what,eur\n2027-04-02,tram passes,40\n2027-04-02,dinner,310\n2027-04-03,museum,45\n2027-04-03,fado,380"
    assert decided(title, appended("travel/lisbon.csv", spend, "2027-04-04,pasteis,12")) is False  # 787
    assert decided(title, appended("travel/lisbon.csv", spend, "2027-04-04,sintra day,64")) is True  # 839


def test_a_week_s_distance_is_summed_in_the_conditions_unit() -> None:
    title = "tell me when I hit 20 km of running in a week (training/runs.csv)"
    runs = "date,route,distance,unit\n2027-03-01,canal,5,km\n2027-03-03,park,8000,m\n"
    assert decided(title, appended("training/runs.csv", runs, "2027-03-05,hills,7,km")) is True  # 20 km
    assert decided(title, appended("training/runs.csv", runs, "2027-03-05,track,4.3,mi")) is False  # 19.92 km
    assert decided(title, appended("training/runs.csv", runs, "2027-03-09,canal,9,km")) is False  # the next week


def test_my_use_this_month_is_the_sum_of_my_rows_not_another_persons() -> None:
    title = "warn me when my electricity use this month goes past 200 kWh (home/usage.csv, the flat upstairs is in it)"
    assert derive(title).condition.endswith("(home/usage.csv)")
    usage = "date,who,kwh\n2027-04-03,me,60\n2027-04-03,upstairs,90\n2027-04-10,me,70\n2027-04-10,upstairs,85\n"
    assert decided(title, appended("home/usage.csv", usage, "2027-04-17,me,75")) is True  # 205
    assert decided(title, appended("home/usage.csv", usage, "2027-04-17,me,65")) is False  # 195
    assert decided(title, appended("home/usage.csv", usage, "2027-04-17,upstairs,95")) is False


def test_rows_that_say_a_compound_by_its_initials_are_the_ones_counted() -> None:
    title = "warn me if more than 3 did-not-arrives happen in one week (clinic/dna.csv)"
    dna = "date,patient,kind\n2027-05-03,A. Li,DNA\n2027-05-04,B. Cole,DNA\n2027-05-04,C. Ward,rebooked\n"
    assert decided(title, appended("clinic/dna.csv", dna, "2027-05-05,D. Iqbal,DNA\n2027-05-06,E. Shaw,DNA")) is True
    assert decided(title, appended("clinic/dna.csv", dna, "2027-05-05,D. Iqbal,DNA\n2027-05-06,E. Shaw,rebooked")) \
        is False


def test_in_total_sums_rows_of_anything_and_a_single_one_is_one_row() -> None:
    title = ("tell me when we're down to fewer than 30 boxes of A4 paper in total across all cupboards "
             "(office/stock.csv)")
    assert series.shape(derive(title).condition) == series.TOTAL
    stock = "item,cupboard,boxes\nA4 paper,north,14\nA4 paper,south,17\nA3 paper,north,9"
    item = ChangeItem("file", "office/stock.csv", "A4 paper,north,12\nA4 paper,south,17", "changed",
                      "A4 paper,north,14\nA4 paper,south,17", title="item,cupboard,boxes", context="A3 paper,north,9")
    assert decided(title, item) is True  # 29
    assert decided(title, appended("office/stock.csv", stock, "A3 paper,south,2")) is False  # 31 of A4
    single = "Whenever a single gift of more than £500 comes in, draft a thank-you (charity/gifts.csv)"
    assert series.shape(derive(single).condition) is None, "one row's figure, not the sum"


_PRACTICE = """date,instrument,minutes,what
2026-03-16,piano,45,scales
2026-03-17,piano,60,Clementi
2026-03-18,guitar,30,chords
2026-03-19,piano,50,sight reading
2026-03-20,piano,40,Clementi
2026-03-21,piano,55,run through
"""


@pytest.mark.parametrize(("added", "met"), [
    ("2026-03-22,piano,60,scales", True),  # 310 minutes in the week: 5.17 hours
    ("2026-03-22,piano,45,scales", False),  # 295 minutes: 4.92 hours
    ("2026-03-23,piano,90,scales", False),  # a new week starts on Monday
])
def test_an_amount_done_in_a_week_is_summed_in_the_limits_unit(added: str, met: bool) -> None:
    title = "let me know when I've done 5 hours of piano practice in a week (music/practice.csv, it's in minutes)"
    assert "at least 5 hours" in derive(title).condition, "what the user has done is a bound"
    assert decided(title, appended("music/practice.csv", _PRACTICE, added)) is met
