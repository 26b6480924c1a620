"""Times and durations in words: exact (for tooltips), on the clock, relative ("4 min ago"), and run
durations."""

from __future__ import annotations

from datetime import datetime


def _local(ts: float) -> datetime:
    return datetime.fromtimestamp(ts).astimezone()


def exact_time(ts: float) -> str:
    """``2026-09-21 14:05:03 CEST`` — for tooltips."""
    return _local(ts).strftime("%Y-%m-%d %H:%M:%S %Z").strip()


def clock_time(ts: float, now: float) -> str:
    """``14:05`` today, ``Mon 14:05`` within a week either side, else ``Sep 21 14:05``."""
    when, today = _local(ts), _local(now)
    days = abs((when.date() - today.date()).days)
    if days == 0:
        return when.strftime("%H:%M")
    if days < 7:
        return when.strftime("%a %H:%M")
    return when.strftime("%b %d %H:%M")


def relative_time(ts: float, now: float) -> str:
    """``just now``, ``4 min ago``, ``2 h ago``, ``3 days ago``; future times: ``in 4 min``."""
    delta = now - ts
    future = delta < 0
    seconds = abs(delta)
    if seconds < 45:
        return "in a moment" if future else "just now"
    if seconds < 3600:
        text = f"{max(1, round(seconds / 60))} min"
    elif seconds < 86_400:
        text = f"{round(seconds / 3600)} h"
    else:
        days = round(seconds / 86_400)
        text = "1 day" if days == 1 else f"{days} days"
    return f"in {text}" if future else f"{text} ago"


def duration_text(ms: int | None) -> str:
    """``850 ms``, ``1.2 s``, ``2 min 5 s``; empty when unknown."""
    if ms is None:
        return ""
    if ms < 1000:
        return f"{ms} ms"
    seconds = ms / 1000
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if rest else f"{minutes} min"
