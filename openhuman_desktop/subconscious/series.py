"""Figures read against the rows before them: a rise since the last reading, what a meter says was used, how
many rows fall in one week, the same outcome several times running.

Most conditions are met, or not, by the lines a change added. Some are about the series those lines join:

- "disk use on db-02 jumps by more than 10 points in a day": the new reading against the one before it;
- "we use more than 12 cubic metres of water in a month", with meter readings: the difference of two readings;
- "more than 5 people cancel their veg box in the same week": the rows of that week, old and new;
- "the backup fails three nights in a row": the rows before the new one.

A changed file's item keeps the unchanged lines just before its change (:attr:`ChangeItem.context`), and
:func:`over_rows` reads the added rows against them: the app decides, with no model at all. A condition of one
of these shapes is never compared as a plain figure (a disk at 76 % is "more than 10"; its rise may not be).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from openhuman_desktop.subconscious.changes import MAX_CONTEXT, cells, table_header
from openhuman_desktop.subconscious.decisions import ChangeItem
from openhuman_desktop.subconscious.evidence import (
    AMOUNT,
    CURRENCIES,
    KEY_COLUMNS,
    LIMIT,
    OR_BEYOND,
    Compared,
    another_hour,
    as_number,
    columns_named,
    compared,
    converted,
    evidence,
    hours_named,
    in_unit,
    is_ceiling,
    meets,
    op_of,
    unit_named,
    unit_of,
)
from openhuman_desktop.subconscious.task_rules import GENERIC, STOPWORDS, TaskRule, content_words

MOVE, USED, PER_PERIOD, RUNNING, TOTAL = "move", "used", "per period", "running", "total"

_MOVES = re.compile(r"\b(?:(?P<up>jump(?:s|ed)?|rises?|rose|goes up|go up|went up|increases?|increased|climbs?|"
                    r"grows?|spikes?|shoots up|(?:is|are) up|(?:a |an )?(?:jump|rise|increase|spike))|"
                    r"(?P<down>drops?|dropped|falls?|fell|goes down|go down|went down|decreases?|decreased|dips?|"
                    r"(?:is|are) down|(?:a )?(?:drop|fall|decrease|dip))|"
                    r"(?P<either>changes?|moves?|swings?|(?:a )?(?:change|move|swing)))"
                    r"(?P<by>\s+(?:by|of))?\s*$", re.I)
"""A move the limit after it measures: "jumps by more than 10 points", "a drop of over £50", "rises more than 5"
("rises above 38" is a level, not a move: its limit is a bound, and no "by" comes between)."""
_LEVELS = frozenset({"above", "over", "below", "under", "past", "reaches", "hits", "gets to", "passes", "exceeds",
                     "tops"})
_AGAINST = re.compile(r"\s*(?:behind|ahead|below|above|under|over|short|late|early|off)\b", re.I)
"""A move measured against something else than the reading before: "falls more than 5 minutes behind", "drops
more than 2 kg below his 1 March weigh-in"."""
_THAN_BEFORE = re.compile(r"\s*(?:(?P<up>higher|more|bigger|greater|up|above)|(?P<down>lower|less|smaller|down|below)|"
                          r"(?P<worse>worse)|(?P<better>better))\s+than\s+(?:(?:on|at|in|for)\s+)?"
                          r"(?:the\s+|its\s+|their\s+)?(?:[a-z-]+\s+before\b|(?:previous|last|prior)\b)", re.I)
"""A move against the reading before, said after the limit: "more than 50% higher than the day before", "more
than 10% worse than on the fill-up before"."""
_HIGHER_IS_WORSE = re.compile(r"\b(?:costs?|price|bill|spend|spending|fees?|time|times|minutes|seconds|latency|delay|"
                              r"errors?|failures?|fails|pain|temperature|fever|weight|debt|arrears)\b", re.I)
"""What is worse when it is higher ("the bill is 10% worse than last month"); other figures (mpg, scores,
yields) are worse when lower."""
_THAN = re.compile(r"\s*(?:higher|lower|more|less|bigger|smaller|greater|up|down|above|below)\b[^.]*?\bthan\b", re.I)
_POINTS = re.compile(r"^\s*(?:percentage\s+)?(?:points?|pts|pp)\b", re.I)
_USES = re.compile(r"\b(?:use|uses|used|using|consumes?|consumed|go(?:es)? through|went through|burns?|burnt|"
                   r"drives?|drove|driven|do|does|did|covers?|covered|clocks? up)\b", re.I)
_SO_FAR = re.compile(r"\bthis (?:calendar )?(?:day|week|month|year)\b", re.I)
_CUMULATIVE = re.compile(r"\b(?:readings?|meters?|odometer|mileage|cumulative|running total|index)(?![a-z])", re.I)
_PERIOD = re.compile(r"\b(?:(?:(?:in|within|during)\s+(?:the\s+same|one|a\s+single|a|any\s+one|any|a\s+given)|this)"
                     r"\s+(?:calendar\s+)?|(?P<of>a|one|any\s+one)\s+(?=\w+(?:\s+\w+)?'s\b))"
                     r"(?P<period>day|week|month|tax year|year)\b", re.I)
"""The period rows are counted in: "in the same week", "in a single calendar month", "this month's", "a week's
trial signups go past 500" ("10 a day" is a figure on one row; on a table of weekly rows, a week's sum is its row;
"a week's takings drop below 30" is not read off a week that has not ended)."""
_SUMMED = re.compile(r"\b(?:money in|raised|in total|altogether|so far|paid in|saved|donations?|collected|takings)\b|"
                     r"\bpaid\b.*\binto\b|\b(?:our|my|the|total) spending\b|\bspent on\b", re.I)
"""A sum of the rows: "the money in for the hall roof passes £2,000", "I've paid more than £18,000 into my ISA",
"our spending on the Crete holiday goes past €1,500"."""
_ALL_TOLD = re.compile(r"\b(?:in total|altogether|across all|combined)\b", re.I)
"""A sum of rows of anything, not only money: "fewer than 40 cartons of BT-200 in total across all locations"."""
_SINGLE = re.compile(r"\b(?:a single|any single|one single|an individual|any one)\b", re.I)
"""One row's figure, not a sum: "a single donation of more than £1,000 comes in"."""
_EACH_PERIOD = re.compile(r"\b(?:a|each|every|any|per)\s+(?:day|week|month|year)(?:'s)?\b", re.I)
"""A figure per period on each row ("a week's egg takings"): no sum of rows."""
_NOT_YET = re.compile(r"\b(?:pledged?|promised|expected|forecast|planned|to be paid|will|pending|owed|due)\b", re.I)
"""A row of money that has not come in ("£300 pledged, to be paid in September")."""
_WORD_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
                 "twice": 2}
_RUNNING = re.compile(r"\b(?P<n>\d+|two|three|four|five|six|seven|eight|nine|ten|twice)\s+(?:[a-z]+\s+){0,3}?"
                      r"(?:in a row|(?<!of )running|on the trot|straight|consecutive(?:ly)?)\b|"
                      r"\b(?P<n2>\d+|two|three|four|five|six|seven|eight|nine|ten)\s+consecutive\s+", re.I)
_SAME = re.compile(r"\b(?:the same|unchanged|steady|stable|flat)\b", re.I)
_WORD = re.compile(r"(?<![\w./-])[A-Za-z][\w-]*")
_ISO = re.compile(r"\b(?P<y>20\d\d)-(?P<m>\d\d)-(?P<d>\d\d)\b")
_SPELT = re.compile(r"\b(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?P<month>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                    r"[a-z]*\.?(?:\s+(?P<y>20\d\d))?\b", re.I)
_YEAR = re.compile(r"\b20\d\d\b")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_DATE_WORDS = frozenset({*_MONTHS, "mon", "tue", "wed", "thu", "fri", "sat", "sun", "am", "pm"})


def shape(condition: str) -> str | None:
    """Which series the condition is about (:data:`MOVE`, :data:`USED`, :data:`PER_PERIOD`, :data:`RUNNING`,
    :data:`TOTAL`), or None: a condition any one line can meet."""
    if _RUNNING.search(condition):
        return RUNNING
    limit = LIMIT.search(condition)
    if limit is None:
        return None
    move = _MOVES.search(condition[: limit.start()])
    if (move is not None and (move.group("by") or op_of(limit) not in _LEVELS)
            and not _AGAINST.match(condition, limit.end())) or _THAN_BEFORE.match(condition, limit.end()):
        return MOVE
    period = _PERIOD.search(condition)
    if period is not None and period.group().lower().startswith("this") and not (
            condition.startswith("'s", period.end()) or _SUMMED.search(condition)
            or _USES.search(condition[: limit.start()])):
        period = None  # "the boiler service this year costs more than £100" is one figure, not a sum
    if period is not None and period.group("of") and (is_ceiling(op_of(limit)) or _THAN.match(condition, limit.end())):
        # "a week's takings drop below 30": the sum of a week so far is below it on its Monday; "a day's bill is
        # more than 50% higher than the day before" compares a row with another
        period = None
    if _USES.search(condition[: limit.start()]) and period is not None:
        return USED
    if period is not None:
        return PER_PERIOD
    if _SUMMED.search(condition) and (unit_of(limit) in CURRENCIES or _ALL_TOLD.search(condition)) \
            and not _EACH_PERIOD.search(condition) and not _SINGLE.search(condition):
        return TOTAL
    return None


@dataclass(frozen=True)
class _Row:
    line: str
    added: bool
    key: tuple[str, ...]
    value: float | None
    said: str


def over_rows(rule: TaskRule, items: Iterable[ChangeItem], names: frozenset[str], kind: str) -> Compared | None:
    """The condition of shape ``kind`` read off the changed files' added rows and the rows before them; None
    when no changed file holds such a series (the model is asked)."""
    condition = rule.condition
    for item in items:
        if item.source != "file" or not item.text.strip():
            continue
        if kind == RUNNING:
            found = _running(rule, item, names)
        else:
            limit = LIMIT.search(condition)
            if limit is None:
                return None
            if kind == PER_PERIOD:
                found = _per_period(condition, limit, item, names)
            elif kind == TOTAL:
                found = _total(condition, limit, item, names)
            else:
                found = _moved(rule, condition, limit, item, names, used=kind == USED)
                if found is None and kind == USED and _SO_FAR.search(condition):
                    found = _per_period(condition, limit, item, names)  # "my data use this month": its rows
        if found is not None:
            return found
    # "more than 1.5 kWh in a day" and a row per day: the row's own figure is the day's; a file with a total
    # column keeps the total itself
    return compared(rule, items, names) if kind in (PER_PERIOD, TOTAL) else None


def _rows(condition: str, limit: re.Match[str] | None, item: ChangeItem, names: frozenset[str], *,
          before: bool = False, own: bool = True, column: int | None = None) -> list[_Row]:
    """The context's and the change's rows (table rows, or lines that are not headings), with the figure the
    condition measures on each (in ``column`` when given), in the file's order; with ``before``, the lines the
    change removed too (before the added ones: the old version of a row it rewrote); with ``own``, only the
    series the condition names (:func:`_its_own`)."""
    header = table_header(item.columns or item.title)
    named = cells(header) if header else []
    if column is None and named:
        column = _figure_column(condition[: limit.start()] if limit else condition, limit, named, item)
    wanted = _wanted_unit(condition, limit) if limit is not None else ""
    hours = hours_named(condition)  # "under 50% at 4pm two days running": the 4pm rows
    units = next((index for index, cell in enumerate(named) if cell.strip().lower() in ("unit", "units")), None)
    rows = []
    for added, text in ((False, item.context), (False, item.removed if before else ""), (True, item.text)):
        for line in text.splitlines():
            row = cells(line)
            if named and (len(row) != len(named) or line.strip() == header.strip()) or line.startswith("#") \
                    or _RULED.match(line):
                continue
            if names and not names & content_words(line) and not _all_about(names, item) \
                    or another_hour(hours, line):
                continue
            value, said = None, ""
            if column is not None:
                value = as_number(row[column].strip().lstrip("+")) if row[column].strip() else None
                said = f"{named[column].strip()} {row[column].strip()}"
                if value is not None and wanted and units is not None:  # "1600,yd" read in km
                    value = converted(value, row[units].strip(), wanted)
                    said = f"{said} {row[units].strip()}"
            elif wanted:
                value, said = _figure(line, wanted, content_words(condition) - GENERIC)
            # what names the row's series: its words, less dates; a table row's cells, less figures and dates
            key = tuple(word.lower() for word in _WORD.findall(line) if word.lower()[:3] not in _DATE_WORDS) \
                if column is None else tuple(word.lower() for index, cell in enumerate(row)
                                             if index not in (column, units) and not _is_figure(cell)
                                             and not _DATE.search(cell) for word in _WORD.findall(cell))
            rows.append(_Row(line, added, key, value, said))
    return _its_own(condition, rows) if own else rows


_KEYED = re.compile(r"(?P<key>[A-Za-z][\w]*)\s*[=:]\s*(?P<number>-?\d+(?:\.\d+)?)")


def _figure(line: str, unit: str, words: frozenset[str]) -> tuple[float | None, str]:
    """The figure in ``unit`` on a line: "76%", or a value keyed by a name holding the unit ("daily_kwh=1.82")
    or a word of the condition ("more than 1,000 jobs pending" and "pending=1310")."""
    amount = next((amount for amount in AMOUNT.finditer(line) if unit_of(amount) == unit), None)
    if amount is not None:
        return as_number(amount.group("number")), amount.group().strip()
    keyed = next((keyed for keyed in _KEYED.finditer(line) if unit in keyed.group("key").lower().split("_")
                  or content_words(keyed.group("key").replace("_", " ")) & words), None)
    if keyed is not None:
        return as_number(keyed.group("number")), keyed.group().strip()
    return None, ""


def _its_own(condition: str, rows: list[_Row]) -> list[_Row]:
    """The rows of the series the condition names, where rows of several are interleaved ("disk use on db-02":
    not web-01's rows, told apart by a word that some rows' keys have and others not)."""
    said = _words(condition) - GENERIC
    keys = [_words(" ".join(row.key)) for row in rows]
    shared = set.intersection(*keys) if keys else set()
    named = [row for row, key in zip(rows, keys, strict=True) if (key - shared) & said]
    if not named and _MY.search(condition):  # "my data use" and rows of "me" and of "Jo"
        named = [row for row in rows if set(row.key) & _ME_KEYS]
    return named or rows


_MY = re.compile(r"\b(?:my|I|I'm|I've|mine)\b")
_ME_KEYS = frozenset({"me", "mine", "myself", "self", "i"})


def _words(text: str) -> set[str]:
    """The words that can name a series: content words, and names such as ``db-02`` whole."""
    return {word.lower() for word in _WORD.findall(text)} - STOPWORDS | content_words(text)


def _all_about(names: frozenset[str], item: ChangeItem) -> bool:
    """A file whose heading or path names the subject: each of its rows is about it."""
    return bool(names & (content_words(item.title) | content_words(item.name.replace("/", " "))))


_DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:" + "|".join(_MONTHS) + ")", re.I)
_RULED = re.compile(r"^\s*\|?[\s:|-]+\|?\s*$")
"""A Markdown table's rule under its header (``|---|---|``)."""
_FIGURE = re.compile(r"^\s*[-+]?[€$£]?\s*\d[\d,]*(?:\.\d+)?\s*%?\s*$")


def _is_figure(cell: str) -> bool:
    return _FIGURE.match(cell) is not None


def _wanted_unit(condition: str, limit: re.Match[str]) -> str:
    """The unit of the figures a limit measures: "10 points" of a disk's use are percentage points."""
    after = condition[limit.end("number"):]
    return "%" if _POINTS.match(after) else unit_of(limit)


def _figure_columns(named: list[str], item: ChangeItem) -> list[int]:
    """The table's columns of figures that are not keys (a date, an id)."""
    rows = [row for line in f"{item.context}\n{item.text}".splitlines()
            if len(row := cells(line)) == len(named) and row != named and not _RULED.match(line)]
    return [index for index, cell in enumerate(named)
            if not KEY_COLUMNS & set(re.findall(r"[a-z]+", cell.lower()))
            and rows and all(_is_figure(row[index]) for row in rows if row[index].strip())
            and any(row[index].strip() for row in rows)]


def _counts(condition: str, limit: re.Match[str], item: ChangeItem) -> int | None:
    """The column of figures the condition counts, named by its words ("more than 20 payment webhooks fail" and
    ``date,hour,webhook,failed``: each row holds how many failed that hour), or None (each row is one)."""
    header = table_header(item.columns or item.title)
    if not header:
        return None
    after = re.split(r"[.;]\s|\s(?:in|within|during|per|a|each|every)\s", condition[limit.end():], maxsplit=1)[0]
    subject = f"{condition[: limit.start()]} {after}"  # "payment webhooks fail", not "hourly counts go in …"
    columns = [column for column in columns_named(subject, header) if column in _figure_columns(cells(header), item)]
    return columns[0] if len(columns) == 1 else None


def _figure_column(subject: str, limit: re.Match[str] | None, named: list[str], item: ChangeItem) -> int | None:
    """The column that holds the measured figure, of the table's columns of figures that are not keys (a date,
    an id): the one the subject names, the one named in the limit's unit, else the only one ("this month's
    food shopping" and ``date,shop,amount``: the amount, not the shop)."""
    header = "|".join(named)
    figures = _figure_columns(named, item)
    columns = [column for column in columns_named(subject, header) if column in figures]
    if len(columns) == 1:
        return columns[0]
    if limit is not None and unit_of(limit):
        by_unit = unit_named(unit_of(limit), header)
        if by_unit is not None and by_unit in figures:
            return by_unit
    return figures[0] if len(figures) == 1 else None


def _moved(rule: TaskRule, condition: str, limit: re.Match[str], item: ChangeItem, names: frozenset[str], *,
           used: bool) -> Compared | None:
    """A move ("jumps by more than 10 points") or what was used ("more than 12 cubic metres in a month" from
    meter readings): each added reading against the one before it in its series."""
    bound = as_number(limit.group("number"))
    if bound is None:
        return None
    if used and not (_CUMULATIVE.search(f"{rule.condition} {rule.action} {item.title} {item.columns}")
                     or _CUMULATIVE.search(item.name)):
        return None
    move = _MOVES.search(condition[: limit.start()]) or _THAN_BEFORE.match(condition, limit.end())
    direction = "either" if move is None or used else next(
        name for name in ("up", "down", "worse", "better", "either") if move.groupdict().get(name))
    if direction in ("worse", "better"):
        higher_worse = _HIGHER_IS_WORSE.search(condition[: limit.start()]) is not None
        direction = "up" if (direction == "worse") == higher_worse else "down"
    if not used:
        stated = _stated(condition, item, direction, op_of(limit), bound)
        if stated is not None:
            return stated
    relative = not used and unit_of(limit) == "%" and _relative(item)
    rows = [row for row in _rows(condition, limit, item, names, before=True) if row.value is not None]
    unique = len({row.key for row in rows}) == len(rows)  # free text on each row: one series
    op, seen = op_of(limit), []
    for index, row in enumerate(rows):
        if not row.added:
            continue
        before = next((earlier for earlier in reversed(rows[:index]) if unique or earlier.key == row.key), None)
        if before is None or before.value is None or row.value is None:
            continue
        change = row.value - before.value
        if used and change < 0:
            return None  # not a meter's readings: they never go down
        if relative:
            if not before.value:
                continue
            change = change / abs(before.value) * 100
        size = change if direction == "up" or used else -change if direction == "down" else abs(change)
        said = f"{before.said} then {row.said}" + (f" ({_plain(change)} used)" if used else "")
        if meets(op, size, bound):
            return Compared(True, said)
        seen.append(said)
    return Compared(False, "; ".join(seen)) if seen else None


_PERIOD_COLUMNS = {"day": ("day", "daily", "1d", "today"), "week": ("week", "weekly", "1w", "wk"),
                   "month": ("month", "monthly", "1m", "mtd")}


def _stated(condition: str, item: ChangeItem, direction: str, op: str, bound: float) -> Compared | None:
    """A move the table states itself: "falls more than 10% in one day" and a ``day`` column of each share's
    change that day ("-12.4%")."""
    period = _PERIOD.search(condition)
    header = table_header(item.columns or item.title)
    if period is None or not header:
        return None
    named = cells(header)
    column = next((index for index, cell in enumerate(named)
                   if cell.strip().lower() in _PERIOD_COLUMNS.get(period.group("period").lower(), ())), None)
    if column is None:
        return None
    seen = []
    for line in item.text.splitlines():
        row = cells(line)
        value = as_number(row[column].strip().rstrip("%").lstrip("+")) if len(row) == len(named) else None
        if value is None:
            continue
        size = value if direction == "up" else -value if direction == "down" else abs(value)
        said = f"{row[0].strip()} {named[column].strip()} {row[column].strip()}"
        if meets(op, size, bound):
            return Compared(True, said)
        seen.append(said)
    return Compared(False, ", ".join(seen)) if seen else None


def _relative(item: ChangeItem) -> bool:
    """Whether a percentage limit measures a relative move: the figures themselves are not percentages
    ("the rent goes up by more than 5 %" of £950)."""
    return not any(unit_of(amount) == "%" for amount in AMOUNT.finditer(f"{item.context}\n{item.text}"))


def _plain(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _per_period(condition: str, limit: re.Match[str], item: ChangeItem, names: frozenset[str]) -> Compared | None:
    """How many rows (or how much, for a limit in money or another unit) fall in the period of each added row
    ("more than 5 people cancel in the same week": the week's rows, old and new), compared."""
    period = _PERIOD.search(condition)
    bound = as_number(limit.group("number"))
    if period is None or bound is None:
        return None
    span = period.group("period").lower()
    counts = _counts(condition, limit, item)
    summed = counts is not None or bool(unit_of(limit)) and unit_of(limit) not in STOPWORDS
    # "5 hours of practice in a week" and a ``minutes`` column: the week's minutes as hours
    named = cells(table_header(item.columns or item.title))
    column = _figure_column(condition[: limit.start()], limit, named, item) if summed and counts is None else None
    scale = in_unit(1.0, named[column], unit_of(limit)) if column is not None else 1.0
    every = _rows(condition, limit if summed else None, item, names, own=False, column=counts)
    # (the limit's unit tells no row apart: "20 km" and a row in metres)
    rows = [row for row in _relevant(condition[: limit.start()] + condition[limit.end():],
                                     _its_own(condition, every))
            if not (summed and _NOT_YET.search(row.line))]
    year = _year(f"{item.context}\n{item.text}")
    dated = [(row, when) for row in rows if (when := _date(row.line, year)) is not None]
    others = [row.line.strip() for row in every if row.added and row not in rows]
    if dated and others and not any(row.added for row, _ in dated):  # a shipping webhook's failures
        return Compared(False, f"only rows it does not count ({'; '.join(others[:2])})")
    op, seen = op_of(limit), []
    for row, when in dated:
        if not row.added:
            continue
        mine = [other for other, other_when in dated if _same(span, when, other_when)]
        total = sum(other.value or 0 for other in mine) * scale if summed else len(mine)
        what = unit_of(limit) if summed else "row" if total == 1 else "rows"
        if counts is not None:
            what = cells(table_header(item.columns or item.title))[counts].strip().replace("_", " ")
        said = f"{_plain(total)} {what} in the {span} of {when:%d %b %Y}"
        if meets(op, total, bound):
            return Compared(True, said)
        if said not in seen:
            seen.append(said)
    return Compared(False, "; ".join(seen)) if seen else None


def _total(condition: str, limit: re.Match[str], item: ChangeItem, names: frozenset[str]) -> Compared | None:
    """The sum of the figures of every row, old and new, against the limit ("the money in passes £2,000");
    rows that have not come in ("pledged") do not count. None when the file may hold more rows than were kept
    before the change, or keeps its total in a column of its own."""
    bound = as_number(limit.group("number"))
    header = table_header(item.columns or item.title)
    if bound is None or len(item.context.splitlines()) >= MAX_CONTEXT or re.search(r"total|balance", header, re.I):
        return None
    every = _rows(condition, limit, item, names, own=False)
    rows = [row for row in _its_own(condition, every)  # (the A4 rows, not the A3)
            if row.value is not None and not _NOT_YET.search(row.line)]
    others = [row.line.strip() for row in every if row.added and row not in rows]
    if others and len(rows) >= 2 and not any(row.added for row in rows):
        return Compared(False, f"only rows it does not count ({'; '.join(others[:2])})")
    if not any(row.added for row in rows) or len(rows) < 2:
        return None
    total = sum(row.value or 0 for row in rows)
    what = unit_of(limit) or rows[-1].said.rsplit(" ", 1)[0]  # "cartons 22": the column's name
    return Compared(meets(op_of(limit), total, bound), f"{_plain(total)} {what} in all")


def _relevant(condition: str, rows: list[_Row]) -> list[_Row]:
    """The rows that say what the condition counts: those with a word of it that not every row has ("failed"
    among logins); all of them when no word tells them apart (each row of a cancellations file is one)."""
    # "failed-to-attends" and rows that say FTA
    words = content_words(condition) - GENERIC | {"".join(part[0] for part in compound.split("-")).lower()
                                                  for compound in _COMPOUND.findall(condition)}
    every = [content_words(row.line) for row in rows]
    telling = {word for word in words if any(word in said for said in every)
               and not all(word in said for said in every)}
    if not telling:
        return rows
    return [row for row, said in zip(rows, every, strict=True) if telling & said]


_COMPOUND = re.compile(r"\b[A-Za-z]+(?:-[A-Za-z]+){2,}\b")


def _year(text: str) -> int:
    found = _YEAR.findall(text)
    return int(found[-1]) if found else dt.date.today().year


def _date(line: str, year: int) -> dt.date | None:
    try:
        iso = _ISO.search(line)
        if iso is not None:
            return dt.date(int(iso.group("y")), int(iso.group("m")), int(iso.group("d")))
        spelt = _SPELT.search(line)
        if spelt is not None:
            month = _MONTHS.index(spelt.group("month").lower()[:3]) + 1
            return dt.date(int(spelt.group("y") or year), month, int(spelt.group("d")))
    except ValueError:
        return None
    return None


def _same(span: str, one: dt.date, other: dt.date) -> bool:
    if span == "day":
        return one == other
    if span == "week":
        return one.isocalendar()[:2] == other.isocalendar()[:2]
    if span == "year":
        return one.year == other.year
    if span == "tax year":  # 6 April to 5 April
        return _tax_year(one) == _tax_year(other)
    return (one.year, one.month) == (other.year, other.month)


def _tax_year(day: dt.date) -> int:
    return day.year if (day.month, day.day) >= (4, 6) else day.year - 1


def _says(rule: TaskRule, row: ChangeItem, names: frozenset[str]) -> bool:
    """Whether one row meets the condition on its own: its figure compared ("7.0 or higher"), else its words."""
    figure = compared(rule, [row], names)
    return figure.met if figure is not None else evidence(rule, [row]) is not None


def _running(rule: TaskRule, item: ChangeItem, names: frozenset[str]) -> Compared | None:
    """"Fails three nights in a row": the run of rows that say it, ending at the newest added row, against the
    count; None when the change adds no row that says it or the condition names no count."""
    condition = rule.condition
    match = _RUNNING.search(condition)
    if match is None:
        return None
    count = match.group("n") or match.group("n2")
    needed = int(count) if count.isdigit() else _WORD_NUMBERS.get(count.lower())
    if not needed:
        return None
    once = replace(rule, condition=(condition[: match.start()] + condition[match.end():]).strip(" ,"))
    limit = LIMIT.search(once.condition) or OR_BEYOND.search(once.condition)
    same = _SAME.search(condition[: match.start()]) is not None
    # "the stout reads the same gravity", "my fasting glucose is 7.0 or higher": that series' rows; "I miss three
    # classes": every row, the ones I went to too
    rows = _rows(once.condition, limit, item, names, own=same or limit is not None)
    if not rows or not rows[-1].added:
        return Compared(False, "no new row of it") if rows else None
    if same:  # "reads the same gravity three days running"
        values = [row.value for row in rows]
        run = len(values) - next((index + 1 for index in range(len(values) - 1, -1, -1)
                                  if values[index] != values[-1]), 0) if values[-1] is not None else 0
        return Compared(run >= needed, f"{run} in a row at {rows[-1].said}")
    # Each row is read as the change alone would be: its figure against the limit ("7.0 or higher"), else its
    # words ("didn't eat her lunch" is met by "Lunch … ate none", not by a row where only breakfast was refused)
    bound = as_number(limit.group("number")) if limit is not None else None
    said = [meets(op_of(limit), row.value, bound) if limit is not None and bound is not None
            and row.value is not None else _says(once, replace(item, text=row.line, removed="", context=""), names)
            for row in rows]
    run = 0
    for hit in said:
        run = run + 1 if hit else 0
    last = rows[-1].line[:80]
    return Compared(run >= needed, f"{run} in a row up to {last!r}" if run else f"the latest row does not say it: "
                    f"{last!r}")
