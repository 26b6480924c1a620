"""Task schedules: ``pending`` (every tick), ``once`` and ``cron:<5-field expr>`` in the user's time zone."""

from __future__ import annotations

import functools
import os
import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croniter import CroniterBadCronError, CroniterBadDateError, CroniterError, croniter

from openhuman_desktop.errors import InvalidInput

PENDING = "pending"
ONCE = "once"
CRON_PREFIX = "cron:"
MAX_LENGTH = 200


@dataclass(frozen=True)
class Recurrence:
    """A parsed schedule. ``cron`` holds the expression for cron schedules, else None."""

    kind: str
    cron: str | None = None

    def __str__(self) -> str:
        return f"{CRON_PREFIX}{self.cron}" if self.kind == "cron" else self.kind

    @property
    def is_cron(self) -> bool:
        return self.kind == "cron"

    def describe(self) -> str:
        """A few words for people: "every tick", "once", "cron 0 9 * * 1-5"."""
        if self.kind == PENDING:
            return "every tick"
        if self.kind == ONCE:
            return "once"
        return f"cron {self.cron}"


def parse(text: object, param: str = "recurrence") -> Recurrence:
    """Validate a recurrence string.

    Raises:
        InvalidInput: not a string, or not ``pending``, ``once`` or ``cron:<valid 5-field expression>``.
    """
    if not isinstance(text, str):
        raise InvalidInput(param, 'must be a string: "pending", "once" or "cron:<5-field expression>"')
    return _parse(text, param)


@functools.lru_cache(maxsize=4096)
def _parse(text: str, param: str) -> Recurrence:
    # Cached: a tick reads every due task's schedule, and checking a cron expression costs ~50 µs.
    value = text.strip()
    if len(value) > MAX_LENGTH:
        raise InvalidInput(param, f"is longer than {MAX_LENGTH} characters")
    if value in (PENDING, ONCE):
        return Recurrence(value)
    if not value.startswith(CRON_PREFIX):
        raise InvalidInput(
            param, f'{value!r} is not a schedule: use "pending", "once" or "cron:<5-field expression>"'
        )
    expr = " ".join(value[len(CRON_PREFIX):].split())
    fields = expr.split(" ") if expr else []
    if len(fields) != 5:
        raise InvalidInput(
            param, f"cron expression {expr!r} must have 5 fields (minute hour day month weekday), "
            f"it has {len(fields)}"
        )
    try:
        croniter(expr, datetime(2026, 1, 1, tzinfo=UTC)).get_next(datetime)
    except CroniterBadDateError as exc:
        raise InvalidInput(param, f"cron expression {expr!r} never fires") from exc
    except (CroniterError, ValueError, KeyError, TypeError) as exc:
        raise InvalidInput(param, f"cron expression {expr!r} is invalid: {_cron_problem(exc, expr)}") from exc
    return Recurrence("cron", expr)


def _cron_problem(exc: Exception, expr: str) -> str:
    """croniter's complaint in words a user can act on."""
    text = str(exc).replace(f"[{expr}]", "").strip()
    if "out of range" in text:
        return "a value is out of range (minute 0-59, hour 0-23, day 1-31, month 1-12, weekday 0-7)"
    return text or type(exc).__name__


LOCAL_ZONE_TTL = 60.0
"""Seconds a zone read from /etc/localtime is reused (a change of the system zone shows within a minute)."""

_zone_lock = threading.Lock()
_zone_cache: tuple[str, float, tzinfo] | None = None  # ($TZ, monotonic expiry, zone)


def local_zone() -> tzinfo:
    """The user's time zone with its DST rules (TZ, then /etc/localtime, then the fixed current offset).

    Cached: reading /etc/localtime costs ~70 µs, so the zone is reused until ``$TZ`` changes or for
    ``LOCAL_ZONE_TTL`` seconds. The zone keeps its DST rules, so a cached zone is never a stale offset.
    """
    global _zone_cache
    name = os.environ.get("TZ", "")
    now = time.monotonic()
    with _zone_lock:
        cached = _zone_cache
        if cached is not None and cached[0] == name and now < cached[1]:
            return cached[2]
    zone = _read_local_zone(name.lstrip(":"))
    with _zone_lock:
        _zone_cache = (name, now + LOCAL_ZONE_TTL, zone)
    return zone


def _read_local_zone(name: str) -> tzinfo:
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            pass
    localtime = Path("/etc/localtime")
    try:
        with localtime.open("rb") as fh:
            return ZoneInfo.from_file(fh, key="localtime")
    except (OSError, ValueError):
        pass
    zone = datetime.now().astimezone().tzinfo
    assert zone is not None
    return zone


def next_run(recurrence: Recurrence, after: float, zone: tzinfo | None = None) -> float | None:
    """When a task with this schedule is next due after ``after`` (unix seconds).

    ``pending`` and ``once`` tasks have no fixed time: they are due on the next tick (None).
    Cron schedules are evaluated in ``zone`` (default: the user's local zone), so "0 9 * * *" means
    9:00 local time on both sides of a DST change. Like cron: a time skipped when clocks go forward
    fires at the first valid time after the gap; when clocks go back, a job at a fixed time of day
    runs once (at the first of the two equal wall times), while a job whose minute or hour field
    starts with ``*`` (``*/15 * * * *``, ``30 * * * *``) keeps running in real time.
    """
    if not recurrence.is_cron or recurrence.cron is None:
        return None
    zone = zone or local_zone()
    start = datetime.fromtimestamp(after, tz=zone)
    minute, hour = recurrence.cron.split()[:2]
    fixed_time = not (minute.startswith("*") or hour.startswith("*"))
    try:
        schedule = croniter(recurrence.cron, start)
        fire = schedule.get_next(datetime)
        # A wall time that happens twice is at most one per fall-back night; skip its repeat.
        while fixed_time and _is_repeated_wall_time(fire, zone):
            fire = schedule.get_next(datetime)
    except (CroniterBadDateError, CroniterBadCronError) as exc:
        raise InvalidInput("recurrence", f"cron expression {recurrence.cron!r} never fires: {exc}") from exc
    return float(fire.timestamp())


def _is_repeated_wall_time(moment: datetime, zone: tzinfo) -> bool:
    """True when ``moment`` is the second of two instants with the same local wall time (clocks went back)."""
    first = moment.replace(fold=0)
    if first.timestamp() == moment.timestamp():
        return False
    # The fold=0 reading is a different instant; it is a real earlier occurrence only if it maps back
    # to the same wall time (in a spring-forward gap it would not).
    wall = datetime.fromtimestamp(first.timestamp(), tz=zone).replace(tzinfo=None)
    return wall == moment.replace(tzinfo=None, fold=0) and first.timestamp() < moment.timestamp()
