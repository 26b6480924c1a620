"""Task schedules: parsing, clear errors, and cron in the user's zone across DST changes."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from openhuman_desktop import recurrence
from openhuman_desktop.errors import InvalidInput
from openhuman_desktop.recurrence import Recurrence

BERLIN = ZoneInfo("Europe/Berlin")
NEW_YORK = ZoneInfo("America/New_York")


def fires(expr: str, zone: ZoneInfo, start: datetime, count: int) -> list[datetime]:
    """The next ``count`` firing times after ``start``, as aware local datetimes."""
    schedule = recurrence.parse(f"cron:{expr}")
    at = start.timestamp()
    out: list[datetime] = []
    for _ in range(count):
        following = recurrence.next_run(schedule, at, zone)
        assert following is not None and following > at
        out.append(datetime.fromtimestamp(following, zone))
        at = following
    return out


def walls(moments: list[datetime]) -> list[str]:
    return [m.strftime("%m-%d %H:%M%z") for m in moments]


# --- parsing -----------------------------------------------------------------------------------------


def test_pending_and_once() -> None:
    assert recurrence.parse("pending") == Recurrence("pending")
    assert recurrence.parse("  once ") == Recurrence("once")
    assert str(recurrence.parse("pending")) == "pending"
    assert not recurrence.parse("once").is_cron
    assert recurrence.parse("pending").describe() == "every tick"
    assert recurrence.parse("once").describe() == "once"


def test_cron_is_normalised() -> None:
    parsed = recurrence.parse("cron:  0   9 * *  1-5 ")
    assert parsed == Recurrence("cron", "0 9 * * 1-5")
    assert parsed.is_cron
    assert str(parsed) == "cron:0 9 * * 1-5"
    assert parsed.describe() == "cron 0 9 * * 1-5"
    assert recurrence.parse(str(parsed)) == parsed


@pytest.mark.parametrize("expr", ["*/15 * * * *", "0 9 * * 1-5", "30 2 * * *", "0 0 29 2 *", "0 8,20 * * mon"])
def test_valid_cron_expressions(expr: str) -> None:
    assert recurrence.parse(f"cron:{expr}").cron == expr


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("cron:* * * *", "5 fields"),
        ("cron:* * * * * *", "5 fields"),
        ("cron:", "5 fields"),
        ("cron:61 * * * *", "out of range"),
        ("cron:* 24 * * *", "out of range"),
        ("cron:* * 0 * *", "out of range"),
        ("cron:* * * 13 *", "out of range"),
        ("cron:* * * * 8", "out of range"),
        ("cron:*/0 * * * *", "invalid"),
        ("cron:a b c d e", "invalid"),
        ("cron:0 0 31 2 *", "never fires"),
        ("cron:0 0 30 2 *", "never fires"),
        ("cron:0 0 31 4 *", "never fires"),
        ("daily", "not a schedule"),
        ("@daily", "not a schedule"),
        ("", "not a schedule"),
        ("cron:" + "1," * 150 + "2 * * * *", "longer than"),
    ],
)
def test_invalid_schedules_say_why(text: str, words: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        recurrence.parse(text)
    assert caught.value.param == "recurrence"
    assert words in str(caught.value)


@pytest.mark.parametrize("value", [None, 5, 1.5, ["pending"], {"cron": "* * * * *"}, b"pending"])
def test_non_strings_are_refused(value: object) -> None:
    with pytest.raises(InvalidInput, match="must be a string"):
        recurrence.parse(value)


def test_the_parameter_name_is_the_callers() -> None:
    with pytest.raises(InvalidInput) as caught:
        recurrence.parse("weekly", param="schedule")
    assert caught.value.param == "schedule"


# --- next_run -----------------------------------------------------------------------------------------


def test_pending_and_once_have_no_fixed_time() -> None:
    assert recurrence.next_run(Recurrence("pending"), 1_000.0, BERLIN) is None
    assert recurrence.next_run(Recurrence("once"), 1_000.0, BERLIN) is None


def test_next_run_is_strictly_after() -> None:
    at = datetime(2026, 6, 1, 9, 0, tzinfo=BERLIN)
    following = recurrence.next_run(recurrence.parse("cron:0 9 * * *"), at.timestamp(), BERLIN)
    assert following is not None
    assert datetime.fromtimestamp(following, BERLIN) == datetime(2026, 6, 2, 9, 0, tzinfo=BERLIN)


def test_nine_oclock_stays_nine_oclock_local_across_dst() -> None:
    got = fires("0 9 * * *", BERLIN, datetime(2026, 3, 27, 12, 0, tzinfo=BERLIN), 4)
    assert [m.hour for m in got] == [9, 9, 9, 9]
    assert walls(got) == ["03-28 09:00+0100", "03-29 09:00+0200", "03-30 09:00+0200", "03-31 09:00+0200"]


@pytest.mark.parametrize(
    ("zone", "day"),
    [(BERLIN, datetime(2026, 3, 28, 12, 0, tzinfo=BERLIN)), (NEW_YORK, datetime(2026, 3, 7, 12, 0, tzinfo=NEW_YORK))],
)
def test_spring_forward_fires_at_the_next_valid_time_and_keeps_going(zone: ZoneInfo, day: datetime) -> None:
    got = fires("30 2 * * *", zone, day, 4)
    gap_day = day + timedelta(days=1)
    # 02:30 does not exist that night: the job runs at 03:00, then at 02:30 again from the next night on.
    assert (got[0].day, got[0].hour, got[0].minute) == (gap_day.day, 3, 0)
    assert [(m.hour, m.minute) for m in got[1:]] == [(2, 30)] * 3
    assert [m.day for m in got[1:]] == [(gap_day + timedelta(days=n)).day for n in (1, 2, 3)]


@pytest.mark.parametrize(
    ("zone", "expr", "start", "hour"),
    [
        (BERLIN, "30 2 * * *", datetime(2026, 10, 24, 12, 0, tzinfo=BERLIN), 2),
        (NEW_YORK, "30 1 * * *", datetime(2026, 10, 31, 12, 0, tzinfo=NEW_YORK), 1),
        (BERLIN, "30 2,14 * * *", datetime(2026, 10, 24, 20, 0, tzinfo=BERLIN), 2),
        (BERLIN, "30 1-3 * * *", datetime(2026, 10, 24, 20, 0, tzinfo=BERLIN), 2),
    ],
)
def test_fall_back_fires_a_fixed_time_once_not_twice(zone: ZoneInfo, expr: str, start: datetime, hour: int) -> None:
    got = fires(expr, zone, start, 8)
    night = (start + timedelta(days=1)).date()
    same_wall = [m for m in got if (m.hour, m.minute) == (hour, 30) and m.date() == night]
    assert len(same_wall) == 1, walls(got)
    assert same_wall[0].fold == 0  # the first of the two equal wall times
    assert len({(m.month, m.day, m.hour, m.minute) for m in got}) == len(got), walls(got)


@pytest.mark.parametrize("zone", [BERLIN, NEW_YORK])
def test_fall_back_late_tick_inside_the_repeated_hour_does_not_fire_again(zone: ZoneInfo) -> None:
    """The daily job ran at the first 01:30/02:30; a tick late in the repeated hour must not re-run it."""
    hour = 2 if zone is BERLIN else 1
    day = 25 if zone is BERLIN else 1
    month = 10 if zone is BERLIN else 11
    late = datetime(2026, month, day, hour, 10, tzinfo=zone, fold=1)
    assert late.utcoffset() != late.replace(fold=0).utcoffset()  # really inside the repeated hour
    following = recurrence.next_run(recurrence.parse(f"cron:30 {hour} * * *"), late.timestamp(), zone)
    assert following is not None
    got = datetime.fromtimestamp(following, zone)
    assert (got.day, got.hour, got.minute) == ((late + timedelta(days=1)).day, hour, 30)


@pytest.mark.parametrize(
    ("zone", "start"),
    [
        (BERLIN, datetime(2026, 10, 25, 1, 0, tzinfo=BERLIN)),
        (NEW_YORK, datetime(2026, 11, 1, 0, 0, tzinfo=NEW_YORK)),
        (BERLIN, datetime(2026, 3, 29, 1, 0, tzinfo=BERLIN)),
        (NEW_YORK, datetime(2026, 3, 8, 1, 0, tzinfo=NEW_YORK)),
    ],
)
def test_every_15_minutes_stays_every_15_real_minutes_across_dst(zone: ZoneInfo, start: datetime) -> None:
    got = fires("*/15 * * * *", zone, start, 16)
    gaps = {(later.timestamp() - earlier.timestamp()) for earlier, later in zip([start, *got], got, strict=False)}
    assert gaps == {900.0}


def test_hourly_job_runs_every_real_hour_when_clocks_go_back() -> None:
    got = fires("30 * * * *", BERLIN, datetime(2026, 10, 25, 0, 45, tzinfo=BERLIN), 4)
    assert [b.timestamp() - a.timestamp() for a, b in zip(got, got[1:], strict=False)] == [3600.0] * 3
    assert walls(got) == ["10-25 01:30+0200", "10-25 02:30+0200", "10-25 02:30+0100", "10-25 03:30+0100"]


def test_an_invalid_stored_cron_is_an_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        recurrence.next_run(Recurrence("cron", "0 0 31 2 *"), 1_790_000_000.0, BERLIN)


# --- the user's zone ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("tz", "key"), [("America/New_York", "America/New_York"), (":Europe/Berlin", "Europe/Berlin")])
def test_local_zone_honours_tz(monkeypatch: pytest.MonkeyPatch, tz: str, key: str) -> None:
    monkeypatch.setenv("TZ", tz)
    zone = recurrence.local_zone()
    assert isinstance(zone, ZoneInfo) and zone.key == key


def test_unknown_tz_falls_back_to_a_working_zone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Nowhere/Atlantis")
    zone = recurrence.local_zone()
    assert datetime(2026, 1, 1, tzinfo=zone).utcoffset() is not None


def test_next_run_uses_tz_when_no_zone_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "America/New_York")
    start = datetime(2026, 7, 1, 12, 0, tzinfo=NEW_YORK).timestamp()
    following = recurrence.next_run(recurrence.parse("cron:0 9 * * *"), start)
    assert following is not None
    assert datetime.fromtimestamp(following, NEW_YORK) == datetime(2026, 7, 2, 9, 0, tzinfo=NEW_YORK)
