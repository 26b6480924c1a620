"""Task schedules: ``pending`` (every tick), ``once`` and ``cron:<5-field expr>`` in the user's time zone."""

from __future__ import annotations

import os
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
        ok = croniter.is_valid(expr)
        if ok:
            croniter(expr, datetime(2026, 1, 1, tzinfo=UTC)).get_next(datetime)
    except CroniterBadDateError as exc:
        raise InvalidInput(param, f"cron expression {expr!r} never fires") from exc
    except (CroniterError, ValueError, KeyError, TypeError) as exc:
        raise InvalidInput(param, f"cron expression {expr!r} is invalid: {exc}") from exc
    if not ok:
        raise InvalidInput(param, f"cron expression {expr!r} is invalid")
    return Recurrence("cron", expr)


def local_zone() -> tzinfo:
    """The user's time zone with its DST rules (TZ, then /etc/localtime, then the fixed current offset)."""
    name = os.environ.get("TZ", "").lstrip(":")
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
    9:00 local time on both sides of a DST change.
    """
    if not recurrence.is_cron or recurrence.cron is None:
        return None
    zone = zone or local_zone()
    start = datetime.fromtimestamp(after, tz=zone)
    fixed_time = not any(c in field for field in recurrence.cron.split()[:2] for c in "*/,-")
    try:
        schedule = croniter(recurrence.cron, start)
        fire = schedule.get_next(datetime)
        # When clocks go back, a fixed wall-clock time happens twice; like cron, run it once.
        if fixed_time and fire.replace(tzinfo=None) <= start.replace(tzinfo=None):
            fire = schedule.get_next(datetime)
    except (CroniterBadDateError, CroniterBadCronError) as exc:
        raise InvalidInput("recurrence", f"cron expression {recurrence.cron!r} never fires: {exc}") from exc
    return float(fire.timestamp())
