"""``[skills.web]`` (CONTRACT §12.2): ``web_fetch`` — a page as readable text (its article, found by readability).

Only http(s). Every address a name resolves to is checked before connecting, at each redirect too: loopback,
private, link-local, multicast and reserved addresses are refused unless ``allow_private`` (a page must not
reach the user's router or the app's own RPC server). The connection goes to the address that was checked
(the name's later answers cannot swap it), the body is capped in bytes and the whole fetch in time.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from openhuman_desktop.config_skills import WebSettings
from openhuman_desktop.errors import UserFacingError
from openhuman_desktop.llm.base import ToolSpec
from openhuman_desktop.skills._args import checked_tool, object_schema
from openhuman_desktop.skills.base import CONNECTED, DISABLED, SkillSetting, ToolResult
from openhuman_desktop.skills.world._http import USER_AGENT
from openhuman_desktop.skills.world._text import readable
from openhuman_desktop.skills.world._watch import clip
from openhuman_desktop.skills.world.base import WorldSkill

log = logging.getLogger(__name__)

MAX_REDIRECTS = 5
MAX_TEXT_CHARS = 30_000
TEXT_TYPES = ("text/", "application/xhtml", "application/xml", "application/json", "application/rss",
              "application/atom")

FETCH_SPEC = ToolSpec(
    name="web_fetch",
    description="Fetch a web page (http or https) and return its readable text: the article without menus "
                "and scripts.",
    parameters=object_schema({"url": {"type": "string", "minLength": 8, "maxLength": 2000}}, required=["url"]),
)

Resolve = Callable[[str, int], "asyncio.Future[list[str]] | Any"]


def is_public(address: str) -> bool:
    """Whether an IP address is on the public internet (not loopback, private, link-local, shared, reserved,
    multicast or unspecified; an IPv4-mapped IPv6 address is judged by its IPv4 address)."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


async def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` has (an address stays itself)."""
    try:
        return [str(ipaddress.ip_address(host.strip("[]")))]
    except ValueError:
        pass
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class WebSkill(WorldSkill):
    """``web_fetch``; always ``connected`` while enabled (a page that fails is the call's error, not the skill's)."""

    name = "web"
    title = "Web pages"
    description = "Fetches web pages as readable text."

    def __init__(self) -> None:
        super().__init__()
        self.config = WebSettings()
        self._tools = (checked_tool(FETCH_SPEC, writes=False, run=self._fetch),)

    def configure(self, settings: WebSettings) -> None:
        self.config = settings
        self.enabled = settings.enabled
        if settings.enabled:
            self.set_state(CONNECTED, "Fetches public pages" + (" and private addresses (allow_private)."
                                                                if settings.allow_private else "."))
        else:
            self.set_state(DISABLED, "Turned off: set enabled = true in [skills.web] (Settings > Skills).")

    def settings(self) -> Sequence[SkillSetting]:
        return (SkillSetting("Private addresses", "allowed" if self.config.allow_private else "refused"),
                SkillSetting("Largest page", f"{self.config.max_bytes // 1024:,} KB"),
                SkillSetting("Time limit", f"{self.config.timeout_seconds} s"))

    async def _checked_address(self, url: str) -> tuple[httpx.URL, str]:
        """The URL and the address to connect to.

        Raises:
            UserFacingError: not http(s), or an address this skill may not reach.
        """
        parts = urlsplit(url)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            raise UserFacingError(f"Only http:// and https:// pages can be fetched, not {clip(url, 100)!r}.")
        try:
            parsed = httpx.URL(url)
        except httpx.InvalidURL as exc:
            raise UserFacingError(f"{clip(url, 100)!r} is not a valid address ({exc}).") from exc
        host = parts.hostname
        port = parsed.port or (443 if parsed.scheme == "https" else 80)
        try:
            addresses = await asyncio.wait_for(resolve(host, port), 10)
        except (OSError, TimeoutError) as exc:
            raise UserFacingError(f"The name {host} could not be resolved.") from exc
        if not addresses:
            raise UserFacingError(f"The name {host} has no address.")
        if not self.config.allow_private:
            refused = [address for address in addresses if not is_public(address)]
            if refused:
                raise UserFacingError(f"Refused: {host} is a private, loopback or link-local address "
                                      f"({refused[0]}); set allow_private = true in [skills.web] to fetch such "
                                      "pages.")
        return parsed, addresses[0]

    async def _fetch(self, args: dict[str, Any]) -> ToolResult:
        url = args["url"].strip()
        settings = self.config
        try:
            async with asyncio.timeout(settings.timeout_seconds):
                final, kind, body, cut = await self._get(url, settings)
        except TimeoutError:
            raise UserFacingError(f"{clip(url, 100)} did not answer within {settings.timeout_seconds} s.") from None
        charset = "utf-8"
        if "charset=" in kind:
            charset = kind.split("charset=", 1)[1].split(";")[0].strip().strip('"') or "utf-8"
        try:
            text = body.decode(charset, "replace")
        except LookupError:
            text = body.decode("utf-8", "replace")
        if "html" in kind or text.lstrip()[:200].lower().startswith(("<!doctype html", "<html")):
            title, content = await asyncio.to_thread(readable, text, final)
        elif kind.startswith("text/") or "json" in kind or "xml" in kind:
            title, content = "", text
        else:
            return ToolResult(f"{clip(final, 200)} is not a text page ({kind or 'unknown type'}, {len(body):,} "
                              "bytes).", is_error=True)
        if len(content) > MAX_TEXT_CHARS:
            content, cut = content[:MAX_TEXT_CHARS], True
        head = [f"URL: {final}"] + ([f"Title: {title}"] if title else [])
        note = ["[… cut: the page is longer than what is shown]"] if cut else []
        return ToolResult("\n".join([*head, "", content.strip() or "(the page has no readable text)", *note]))

    async def _get(self, url: str, settings: WebSettings) -> tuple[str, str, bytes, bool]:
        """Follow up to :data:`MAX_REDIRECTS` redirects, each target checked; (final URL, type, body, cut)."""
        for _ in range(MAX_REDIRECTS + 1):
            parsed, address = await self._checked_address(url)
            # Connect to the address just checked; the Host header and TLS keep the name.
            transport = httpx.AsyncHTTPTransport(retries=0)
            async with httpx.AsyncClient(transport=_Pinned(transport, parsed.host, address), trust_env=False,
                                         follow_redirects=False, timeout=settings.timeout_seconds,
                                         headers={"User-Agent": USER_AGENT, "Accept": "text/html,*/*;q=0.5"}
                                         ) as client:
                try:
                    async with client.stream("GET", parsed) as response:
                        if response.is_redirect:
                            location = response.headers.get("Location", "")
                            if not location:
                                raise UserFacingError(f"{clip(url, 100)} redirects nowhere.")
                            url = urljoin(str(parsed), location)
                            continue
                        if response.status_code >= 400:
                            raise UserFacingError(f"{clip(url, 100)} answered HTTP {response.status_code} "
                                                  f"{response.reason_phrase}.")
                        chunks: list[bytes] = []
                        size = 0
                        cut = False
                        async for chunk in response.aiter_bytes():
                            chunks.append(chunk)
                            size += len(chunk)
                            if size >= settings.max_bytes:
                                cut = True
                                break
                        body = b"".join(chunks)[:settings.max_bytes]
                        return str(parsed), response.headers.get("Content-Type", "").lower(), body, cut
                except httpx.HTTPError as exc:
                    raise UserFacingError(f"{clip(url, 100)} could not be fetched "
                                          f"({clip(str(exc) or type(exc).__name__, 120)}).") from exc
        raise UserFacingError(f"{clip(url, 100)} redirects more than {MAX_REDIRECTS} times.")


class _Pinned(httpx.AsyncBaseTransport):
    """Sends every request for ``host`` to ``address`` (checked already), keeping the name for Host and TLS."""

    def __init__(self, inner: httpx.AsyncHTTPTransport, host: str, address: str) -> None:
        self._inner = inner
        self._host = host
        self._address = address

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.host == self._host:
            ip = f"[{self._address}]" if ":" in self._address else self._address
            request.extensions = {**request.extensions, "sni_hostname": self._host}
            request.url = request.url.copy_with(host=ip.strip("[]"))
            request.headers["Host"] = request.headers.get("Host") or self._host
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()
