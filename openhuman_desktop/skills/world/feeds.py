"""``[skills.feeds]`` (CONTRACT §12.2): RSS and Atom feeds (feedparser), read with conditional GETs; new items
by id (or link) are watched, and ``feeds_recent`` lists the newest."""

from __future__ import annotations

import asyncio
import calendar
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from openhuman_desktop.config_skills import FeedsSettings
from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.skills._args import checked_tool, object_schema
from openhuman_desktop.skills.base import CONNECTED, DISABLED, ERROR, STARTING, SkillSetting, ToolResult
from openhuman_desktop.skills.world._http import Fetched, FetchError, conditional_get, new_client
from openhuman_desktop.skills.world._watch import WatchItem, clip
from openhuman_desktop.skills.world.base import WatchingSkill

log = logging.getLogger(__name__)

MAX_KNOWN_IDS = 1_000
"""Ids remembered per feed: a feed lists its latest few dozen; an id that fell out of it and came back is rare."""
MAX_RECENT = 50

RECENT_SPEC = ToolSpec(
    name="feeds_recent",
    description="The newest items of the user's RSS / Atom feeds: title, link, date and the feed's name.",
    parameters=object_schema({"limit": {"type": "integer", "minimum": 1, "maximum": MAX_RECENT, "default": 15}}),
)


@dataclass(frozen=True)
class FeedItem:
    """One entry of a feed."""

    key: str
    feed: str
    title: str
    link: str
    published: float | None
    summary: str

    def line(self) -> str:
        """``feed: title, link, date`` (CONTRACT §12.3)."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.published)) if self.published else "no date"
        return f"feed: {clip(self.title, 200) or '(untitled)'}, {clip(self.link, 300)}, {when}"


def parse_feed(body: bytes, url: str) -> tuple[str, list[FeedItem]]:
    """(feed title, items) of an RSS / Atom document (CPU work: call it off the loop).

    Raises:
        FetchError: it is not a feed.
    """
    import feedparser  # its import costs ~0.1 s: paid on a worker thread at the first fetch

    parsed = feedparser.parse(body, response_headers={"content-location": url})
    if parsed.get("bozo") and not parsed.get("entries") and not parsed.get("feed", {}).get("title"):
        raise FetchError(f"{clip(url, 120)} is not an RSS or Atom feed.")
    title = clip(str(parsed.get("feed", {}).get("title") or url), 120)
    items = []
    for entry in parsed.get("entries", []):
        link = str(entry.get("link") or "")
        key = str(entry.get("id") or link or entry.get("title") or "")
        if not key:
            continue
        stamp = entry.get("published_parsed") or entry.get("updated_parsed")
        published = float(calendar.timegm(stamp)) if stamp else None
        items.append(FeedItem(key, title, str(entry.get("title") or ""), link, published,
                              clip(str(entry.get("summary") or ""), 300)))
    return title, items


class FeedsSkill(WatchingSkill):
    """The feeds of ``[skills.feeds]``.

    Args:
        folder: ``skills/feeds/`` (each feed's validators and the ids it held).
        client: the HTTP client (None: one of its own).
    """

    name = "feeds"
    title = "News feeds"
    description = "RSS and Atom feeds: new items are watched; the newest can be listed."
    section_title = "New feed items"

    def __init__(self, folder: Path | None, client: httpx.AsyncClient | None = None,
                 on_change: Callable[[], None] | None = None) -> None:
        super().__init__(folder)
        self.config = FeedsSettings()
        self._client = client
        self._on_change = on_change or (lambda: None)
        self._entries: dict[str, list[FeedItem]] = {}
        self._lock = asyncio.Lock()
        self.bytes_read = 0
        self._tools = (checked_tool(RECENT_SPEC, writes=False, run=self._recent),)

    def configure(self, settings: FeedsSettings) -> None:
        if settings == self.config and self.enabled == settings.enabled:
            return
        self.config = settings
        self.enabled = settings.enabled
        if not settings.enabled:
            self.set_state(DISABLED, "Turned off: set enabled = true in [skills.feeds] (Settings > Skills).")
        elif not settings.urls:
            self.set_state(ERROR, "No feed is listed: add feed URLs in Settings > Skills (urls = [...]).")
        else:
            self.set_state(STARTING, "Not read yet.")
        self.log.forget_sources(settings.urls)
        self._on_change()

    def watches(self) -> tuple[str, ...]:
        return self.config.urls if self.enabled else ()

    def settings(self) -> Sequence[SkillSetting]:
        return (SkillSetting("Feeds", "\n".join(self.config.urls) or "(none)"),)

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = new_client()
        return self._client

    async def _fetch(self, url: str, *, fresh: bool = False) -> tuple[list[FeedItem], bool]:
        """The items of one feed and whether they are news to this copy (False: 304, nothing read)."""
        point = self.log.source(url)
        etag = None if fresh else point.get("etag")
        modified = None if fresh else point.get("modified")
        fetched: Fetched = await conditional_get(self._http(), url, etag, modified)
        if fetched.is_unchanged and url in self._entries:
            return self._entries[url], False
        if fetched.is_unchanged:  # restarted: the validators are kept, the items are not; read them once
            fetched = await conditional_get(self._http(), url, None, None)
        self.bytes_read += len(fetched.body)
        _, items = await asyncio.to_thread(parse_feed, fetched.body, url)
        self._entries[url] = items
        point["etag"], point["modified"] = fetched.etag, fetched.last_modified
        self.log.touch()
        return items, True

    async def poll(self, now: float) -> None:
        """Read every feed (conditionally); items whose id this app never saw become new, except at a feed's
        first read (its baseline)."""
        if not self.enabled or not self.config.urls:
            return
        async with self._lock:
            results = await asyncio.gather(*(self._fetch(url) for url in self.config.urls), return_exceptions=True)
            problems = []
            for url, result in zip(self.config.urls, results, strict=True):
                if isinstance(result, BaseException):
                    if not isinstance(result, FetchError):
                        log.warning("feed %s: %r", url, result)
                    problems.append(str(result) if isinstance(result, FetchError) else
                                    f"{clip(url, 120)} could not be read ({type(result).__name__}).")
                    continue
                items, is_news = result
                if not is_news:
                    continue
                point = self.log.source(url)
                known = point.get("ids")
                is_baseline = not isinstance(known, list)
                known_ids = set(known) if isinstance(known, list) else set()
                fresh = [item for item in items if item.key not in known_ids]
                if not is_baseline:
                    self.log.add(WatchItem(f"{url}\x00{item.key}", now, item.published or now, item.line())
                                 for item in fresh)
                point["ids"] = ([item.key for item in items] + [key for key in (known or []) if key not in
                                                                 {item.key for item in items}])[:MAX_KNOWN_IDS]
                self.log.touch()
            await asyncio.to_thread(self.log.save)
            changed = (self.set_state(ERROR, " ".join(problems[:2]) + (f" ({len(problems) - 2} more feeds fail too.)"
                                                                        if len(problems) > 2 else ""))
                       if problems else self.set_state(CONNECTED, f"Reading {len(self.config.urls)} feed(s)."))
            if changed:
                self._on_change()

    async def test(self) -> str:
        """Settings' Test button: read each feed now ("3 feeds: 42 items, newest 2025-01-02")."""
        if not self.config.urls:
            raise UserFacingError("List at least one feed URL first.")
        lines = []
        for url in self.config.urls:
            try:
                fetched = await conditional_get(self._http(), url, None, None)
                title, items = await asyncio.to_thread(parse_feed, fetched.body, url)
            except FetchError as exc:
                raise UserFacingError(str(exc)) from exc
            lines.append(f"{title}: {len(items)} item{'s' if len(items) != 1 else ''}")
        return "; ".join(lines) + "."

    async def _recent(self, args: dict[str, Any]) -> ToolResult:
        results = await asyncio.gather(*(self._fetch(url) for url in self.config.urls), return_exceptions=True)
        items: list[FeedItem] = []
        notes = []
        for _url, result in zip(self.config.urls, results, strict=True):
            if isinstance(result, BaseException):
                notes.append(f"(not read: {result})")
            else:
                items.extend(result[0])
        if not items and notes:
            return ToolResult(" ".join(notes), is_error=True)
        items.sort(key=lambda item: item.published or 0.0, reverse=True)
        lines = [f"- {item.line().removeprefix('feed: ')} — {item.feed}" for item in items[:args["limit"]]]
        return ToolResult("\n".join([*lines, *notes]) or "The feeds hold no items.")

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
