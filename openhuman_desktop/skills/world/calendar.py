"""``[skills.calendar]`` (CONTRACT §12.2): ICS calendars from URLs (conditional GET) or files. Recurring events are
expanded (recurring-ical-events) and shown in the person's time zone, DST included; events starting within
``horizon_hours`` are watched, and ``calendar_upcoming`` lists them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import httpx

from openhuman_desktop.config_skills import CalendarSettings
from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.recurrence import local_zone
from openhuman_desktop.skills._args import checked_tool, object_schema
from openhuman_desktop.skills.base import CONNECTED, DISABLED, ERROR, STARTING, SkillSetting, ToolResult
from openhuman_desktop.skills.world._http import FetchError, conditional_get, new_client
from openhuman_desktop.skills.world._watch import WatchItem, clip
from openhuman_desktop.skills.world.base import WatchingSkill

log = logging.getLogger(__name__)

MAX_ICS_BYTES = 10 * 1024 * 1024
MAX_EVENTS = 200
MAX_HOURS = 24 * 366

UPCOMING_SPEC = ToolSpec(
    name="calendar_upcoming",
    description="The user's calendar events starting within the next hours (default: the watched horizon), "
                "soonest first, in the user's time zone.",
    parameters=object_schema({"hours": {"type": "integer", "minimum": 1, "maximum": MAX_HOURS}}),
)


@dataclass(frozen=True)
class Event:
    """One occurrence of an event."""

    uid: str
    title: str
    start: datetime
    end: datetime | None
    is_all_day: bool
    location: str
    calendar: str

    @property
    def key(self) -> str:
        return f"{self.uid}\x00{self.start.isoformat()}"

    def when(self) -> str:
        if self.is_all_day:
            return f"{self.start:%Y-%m-%d} (all day)"
        return f"{self.start:%Y-%m-%d %H:%M} {self.start.tzname() or ''}".rstrip()

    def line(self) -> str:
        """``calendar: start, title`` (CONTRACT §12.3), with the place when there is one."""
        place = f" ({clip(self.location, 80)})" if self.location else ""
        return f"calendar: {self.when()}, {clip(self.title, 200) or '(untitled)'}{place}"


def _moment(value: date | datetime, zone: tzinfo) -> tuple[datetime, bool]:
    """An ICS start or end in ``zone``: floating times are the person's local time, a date is its midnight."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            return value.replace(tzinfo=zone), False
        return value.astimezone(zone), False
    return datetime(value.year, value.month, value.day, tzinfo=zone), True


def events_between(body: bytes, name: str, start: datetime, end: datetime) -> list[Event]:
    """The occurrences of an ICS document's events that start in [start, end), recurring ones expanded, in the
    person's time zone (CPU work: call it off the loop).

    Raises:
        FetchError: it is not an ICS calendar.
    """
    import icalendar
    import recurring_ical_events

    zone = local_zone()
    try:
        calendar = icalendar.Calendar.from_ical(body)
    except (ValueError, IndexError, KeyError) as exc:
        raise FetchError(f"{clip(name, 120)} is not an iCalendar (.ics) file ({clip(str(exc), 80)}).") from exc
    title = str(calendar.get("X-WR-CALNAME") or name)
    found: list[Event] = []
    # Expanded from a little before ``start``: an all-day event of today began at midnight.
    query = recurring_ical_events.of(calendar, skip_bad_series=True)
    for component in query.between(start - timedelta(days=1), end):
        raw_start = component.get("DTSTART")
        if raw_start is None:
            continue
        begins, is_all_day = _moment(raw_start.dt, zone)
        if not start <= begins < end and not (is_all_day and begins.date() == start.astimezone(zone).date()):
            continue
        raw_end = component.get("DTEND")
        ends = _moment(raw_end.dt, zone)[0] if raw_end is not None else None
        found.append(Event(str(component.get("UID") or component.get("SUMMARY") or ""),
                           str(component.get("SUMMARY") or ""), begins, ends, is_all_day,
                           str(component.get("LOCATION") or ""), title))
    found.sort(key=lambda event: (event.start, event.title))
    return found[:MAX_EVENTS]


def _path_of(source: str) -> Path | None:
    """The file a source names (a path or a file:// URL), or None for an http(s) URL."""
    if source.lower().startswith(("http://", "https://")):
        return None
    if source.lower().startswith("file://"):
        return Path(unquote(urlparse(source).path))
    return Path(source).expanduser()


def _read_file(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_ICS_BYTES + 1)
    except OSError as exc:
        raise FetchError(f"The calendar file {path} could not be read ({exc.strerror or exc}).") from exc
    if len(data) > MAX_ICS_BYTES:
        raise FetchError(f"The calendar file {path} is larger than {MAX_ICS_BYTES // (1024 * 1024)} MB.")
    return data


class CalendarSkill(WatchingSkill):
    """The calendars of ``[skills.calendar]``."""

    name = "calendar"
    title = "Calendars"
    description = "ICS calendars (URLs or files): upcoming events are watched and can be listed."
    section_title = "Upcoming events"
    newest_first = False

    def __init__(self, folder: Path | None, client: httpx.AsyncClient | None = None,
                 on_change: Callable[[], None] | None = None) -> None:
        super().__init__(folder)
        self.config = CalendarSettings()
        self._client = client
        self._on_change = on_change or (lambda: None)
        self._bodies: dict[str, bytes] = {}
        self._lock = asyncio.Lock()
        self._tools = (checked_tool(UPCOMING_SPEC, writes=False, run=self._upcoming),)

    def configure(self, settings: CalendarSettings) -> None:
        if settings == self.config and self.enabled == settings.enabled:
            return
        self.config = settings
        self.enabled = settings.enabled
        if not settings.enabled:
            self.set_state(DISABLED, "Turned off: set enabled = true in [skills.calendar] (Settings > Skills).")
        elif not settings.sources:
            self.set_state(ERROR, "No calendar is listed: add ICS URLs or files in Settings > Skills.")
        else:
            self.set_state(STARTING, "Not read yet.")
        self.log.forget_sources(settings.sources)
        self._on_change()

    def watches(self) -> tuple[str, ...]:
        return self.config.sources if self.enabled else ()

    def settings(self) -> Sequence[SkillSetting]:
        return (SkillSetting("Calendars", "\n".join(self.config.sources) or "(none)"),
                SkillSetting("Looks ahead", f"{self.config.horizon_hours} h"))

    async def _body(self, source: str) -> bytes:
        path = _path_of(source)
        if path is not None:
            return await asyncio.to_thread(_read_file, path)
        if self._client is None:
            self._client = new_client()
        point = self.log.source(source)
        cached = self._bodies.get(source)
        fetched = await conditional_get(self._client, source, point.get("etag") if cached else None,
                                        point.get("modified") if cached else None, max_bytes=MAX_ICS_BYTES)
        if fetched.is_unchanged and cached is not None:
            return cached
        self._bodies[source] = fetched.body
        if (point.get("etag"), point.get("modified")) != (fetched.etag, fetched.last_modified):
            point["etag"], point["modified"] = fetched.etag, fetched.last_modified
            self.log.touch()
        return fetched.body

    async def _events(self, now: float, hours: int) -> tuple[list[Event], list[str]]:
        start = datetime.fromtimestamp(now, tz=local_zone())
        end = start + timedelta(hours=hours)
        bodies = await asyncio.gather(*(self._body(source) for source in self.config.sources),
                                      return_exceptions=True)
        events: list[Event] = []
        problems: list[str] = []
        for source, body in zip(self.config.sources, bodies, strict=True):
            try:
                if isinstance(body, BaseException):
                    raise body
                events += await asyncio.to_thread(events_between, body, source, start, end)
            except FetchError as exc:
                problems.append(str(exc))
            except Exception as exc:  # a calendar the libraries choke on: said, the others still read
                log.warning("calendar %s: %r", source, exc)
                problems.append(f"{clip(source, 120)} could not be read ({type(exc).__name__}).")
        events.sort(key=lambda event: (event.start, event.title))
        return events, problems

    async def poll(self, now: float) -> None:
        """Events that entered the horizon since the last read become items (the first read is the baseline)."""
        if not self.enabled or not self.config.sources:
            return
        async with self._lock:
            events, problems = await self._events(now, self.config.horizon_hours)
            read = {event.calendar for event in events}
            point = self.log.source("\x00horizon")
            if point.get("baseline"):
                self.log.add(WatchItem(event.key, now, event.start.timestamp(), event.line()) for event in events)
            elif not problems or read:
                for event in events:  # the baseline: known, not new
                    self.log.knows(event.key) or self.log.add([WatchItem(event.key, 0.0, event.start.timestamp(),
                                                                         event.line())])
                point["baseline"] = True
                self.log.touch()
            await asyncio.to_thread(self.log.save)
            state = (ERROR, " ".join(problems[:2])) if problems else (
                CONNECTED, f"Reading {len(self.config.sources)} calendar(s).")
            if self.set_state(*state):
                self._on_change()

    async def test(self) -> str:
        """Settings' Test button: read every calendar now ("5 events in the next 24 h; next: ...")."""
        if not self.config.sources:
            raise UserFacingError("List at least one calendar (an ICS URL or file) first.")
        events, problems = await self._events(self.now(), self.config.horizon_hours)
        if problems:
            raise UserFacingError(problems[0])
        head = f"{len(events)} event{'s' if len(events) != 1 else ''} in the next {self.config.horizon_hours} h"
        return head + (f"; next: {events[0].line().removeprefix('calendar: ')}." if events else ".")

    async def _upcoming(self, args: dict[str, Any]) -> ToolResult:
        hours = args.get("hours") or self.config.horizon_hours
        events, problems = await self._events(self.now(), hours)
        lines = [f"- {event.line().removeprefix('calendar: ')} — {event.calendar}" for event in events]
        notes = [f"(not read: {problem})" for problem in problems]
        if not lines and notes:
            return ToolResult(" ".join(notes), is_error=True)
        return ToolResult("\n".join([*lines, *notes]) or f"No event starts in the next {hours} hours.")

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
