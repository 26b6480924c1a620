"""The web app's HTTP side: the page's files from package data, the security headers, and the checks every
request passes (Host against DNS rebinding, the token, the WebSocket's Origin) before anything is read."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from importlib import resources

from aiohttp import web

HOST = "127.0.0.1"

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "font-src 'none'; object-src 'none'; media-src 'none'; worker-src 'none'; manifest-src 'none'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""Only the page's own script, style and WebSocket: model text that slipped into markup could run nothing."""

SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    "Cache-Control": "no-store",
}

_ASSETS = {  # URL path → (file in resources/webapp or resources/icons, content type)
    "/": ("webapp/index.html", "text/html"),
    "/app.css": ("webapp/app.css", "text/css"),
    "/app.js": ("webapp/app.js", "text/javascript"),
    "/markdown.js": ("webapp/markdown.js", "text/javascript"),
    "/favicon.svg": ("icons/app.svg", "image/svg+xml"),
}


@dataclass(frozen=True)
class Asset:
    """One file of the page, read once from package data."""

    body: bytes
    content_type: str


def load_assets() -> dict[str, Asset]:
    """The page's files by URL path (read at start: the page works offline and needs no build step)."""
    root = resources.files("openhuman_desktop.resources")
    assets = {}
    for url, (name, content_type) in _ASSETS.items():
        assets[url] = Asset(root.joinpath(name).read_bytes(), content_type)
    return assets


def asset_response(asset: Asset, method: str) -> web.Response:
    return web.Response(body=b"" if method == "HEAD" else asset.body, content_type=asset.content_type,
                        charset="utf-8" if asset.content_type.startswith("text/") else None,
                        headers=SECURITY_HEADERS)


def refusal(status: int, text: str) -> web.Response:
    """A plain-text refusal with the security headers (never the request's URL: it may hold the token)."""
    return web.Response(status=status, text=text, headers=SECURITY_HEADERS)


def allowed_hosts(port: int) -> frozenset[str]:
    """The Host headers a request may carry: the page's own address, by number or as ``localhost``."""
    return frozenset({f"{HOST}:{port}", f"localhost:{port}"})


def host_refusal(request: web.BaseRequest, port: int) -> web.Response | None:
    """403 for a Host other than ours: a web page on another site that rebinds its name to 127.0.0.1 lands
    here with its own name as the Host."""
    if request.headers.get("Host", "").lower() not in allowed_hosts(port):
        return refusal(403, "Forbidden: open the web app at http://127.0.0.1:PORT/ (from the tray menu).")
    return None


def token_matches(given: str, token: str) -> bool:
    # Bytes that are not UTF-8 arrive as surrogate escapes: a wrong token, not a crash.
    return hmac.compare_digest(given.encode("utf-8", "surrogateescape"), token.encode())


def bearer_of(request: web.BaseRequest) -> str:
    scheme, _, value = request.headers.get("Authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" else ""


def socket_refusal(request: web.BaseRequest, port: int, token: str) -> web.Response | None:
    """Why a WebSocket upgrade is refused (None: it may go ahead). Checked before the handshake: nothing of
    the connection is read until the Host, the token and the Origin are right."""
    refused = host_refusal(request, port)
    if refused is not None:
        return refused
    if not token_matches(request.query.get("token", ""), token):
        return refusal(401, "Unauthorized: open the web app from the tray menu (its link carries the key).")
    origin = request.headers.get("Origin", "")
    if origin.lower() != f"http://{request.headers.get('Host', '').lower()}":
        return refusal(403, "Forbidden: only the web app's own page may connect.")
    return None
