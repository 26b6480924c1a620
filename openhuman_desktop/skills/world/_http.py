"""HTTP for the world skills: conditional GETs of feeds and calendars, bounded in bytes and time."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import httpx

from openhuman_desktop import __version__
from openhuman_desktop.skills.world._watch import clip

USER_AGENT = f"OpenHuman-Desktop/{__version__} (+a personal assistant reading its user's feeds)"
MAX_DOCUMENT_BYTES = 10 * 1024 * 1024
TIMEOUT = 30.0


class FetchError(Exception):
    """Why a document could not be had, in one sentence."""


@dataclass(frozen=True)
class Fetched:
    """A document, or ``is_unchanged`` when the server said 304 to the validators sent."""

    body: bytes
    etag: str | None
    last_modified: str | None
    is_unchanged: bool = False


def new_client() -> httpx.AsyncClient:
    return httpx.AsyncClient(headers={"User-Agent": USER_AGENT}, follow_redirects=True, timeout=TIMEOUT,
                             trust_env=False)


async def conditional_get(client: httpx.AsyncClient, url: str, etag: str | None, last_modified: str | None,
                          *, max_bytes: int = MAX_DOCUMENT_BYTES, timeout: float = TIMEOUT) -> Fetched:
    """GET ``url`` with ``If-None-Match`` / ``If-Modified-Since`` when known; 304 costs no body.

    Raises:
        FetchError: the server failed, was not reachable, sent too much or took too long.
    """
    headers = {}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    try:
        async with asyncio.timeout(timeout), client.stream("GET", url, headers=headers) as response:
            if response.status_code == 304:
                return Fetched(b"", etag, last_modified, is_unchanged=True)
            if response.status_code >= 400:
                raise FetchError(f"{clip(url, 120)} answered HTTP {response.status_code} "
                                 f"{response.reason_phrase}.")
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > max_bytes:
                    raise FetchError(f"{clip(url, 120)} sent more than {max_bytes // (1024 * 1024)} MB.")
                chunks.append(chunk)
            return Fetched(b"".join(chunks), response.headers.get("ETag"), response.headers.get("Last-Modified"))
    except TimeoutError:
        raise FetchError(f"{clip(url, 120)} did not answer within {timeout:.0f} s.") from None
    except httpx.HTTPError as exc:
        raise FetchError(f"{clip(url, 120)} could not be reached ({clip(str(exc) or type(exc).__name__, 120)})."
                         ) from exc
