"""Reading config.toml (CONTRACT §3): the table reader and the checks every section shares.

A variable's NAME is asked for wherever a secret is needed; a value that looks like the secret itself is refused
without being repeated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from openhuman_desktop.errors import ConfigError

ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TELEGRAM_TOKEN = re.compile(r"\d{3,}:[A-Za-z0-9_-]{20,}")  # what @BotFather hands out
# How API keys of common providers begin (OpenAI, Stripe-style, GitHub, Slack, Google, Groq, Hugging Face, ...).
_KEY_PREFIXES = ("sk-", "sk_", "pk-", "pk_", "rk_", "ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "xox",
                 "AIza", "gsk_", "hf_", "glpat-", "r8_", "pplx-", "nvapi-", "key-")


class Reader:
    """Walks one parsed TOML document, collecting warnings and raising ConfigError with context."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.warnings: list[str] = []

    def warn(self, text: str) -> None:
        self.warnings.append(f"{self.path}: {text}")

    def table(self, doc: Mapping[str, Any], key: str, dotted: str) -> Mapping[str, Any]:
        value = doc.get(key, {})
        if not isinstance(value, dict):
            raise ConfigError(self.path, dotted, value, "a table like [" + dotted + "]")
        return value

    def unknown(self, table: Mapping[str, Any], known: tuple[str, ...], prefix: str) -> None:
        for key in table:
            if key not in known:
                self.warn(f"unknown key {prefix}{key} is ignored")

    def boolean(self, table: Mapping[str, Any], key: str, dotted: str, default: bool) -> bool:
        value = table.get(key, default)
        if not isinstance(value, bool):
            raise ConfigError(self.path, dotted, value, "true or false")
        return value

    def integer(
        self, table: Mapping[str, Any], key: str, dotted: str, default: int, low: int, high: int
    ) -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(self.path, dotted, value, f"a whole number from {low} to {high}")
        return value

    def number(
        self, table: Mapping[str, Any], key: str, dotted: str, default: float, low: float, high: float
    ) -> float:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
            raise ConfigError(self.path, dotted, value, f"a number from {low:g} to {high:g}")
        return float(value)

    def text(self, table: Mapping[str, Any], key: str, dotted: str, default: str | None) -> str | None:
        value = table.get(key, default)
        if value is not None and not isinstance(value, str):
            raise ConfigError(self.path, dotted, value, "a string in double quotes")
        return value

    def url(self, table: Mapping[str, Any], key: str, dotted: str, default: str | None) -> str | None:
        value = self.text(table, key, dotted, default)
        if value is None:
            return None
        return check_url(value, lambda: ConfigError(self.path, dotted, value, "an http:// or https:// URL"))


def check_url(value: str, error: Any) -> str:
    """Return ``value`` without a trailing slash if it is an http(s) URL with a host, else raise ``error()``."""
    parsed = urlparse(value.strip())
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise error()
    try:
        parsed.port  # noqa: B018 - raises ValueError for a port that is not a number from 0 to 65535
    except ValueError:
        raise error() from None
    return value.strip().rstrip("/")


def looks_like_secret(value: str) -> bool:
    """Whether ``value`` looks like an API key rather than the name of a variable that holds one."""
    if len(value) >= 20 and value.startswith(_KEY_PREFIXES) or _TELEGRAM_TOKEN.fullmatch(value):
        return True
    if len(value) < 24:
        return False
    digits = sum(ch.isdigit() for ch in value)
    mixed = any(ch.islower() for ch in value) and any(ch.isupper() for ch in value)
    return mixed and digits >= max(3, len(value) // 8)


def redact(value: str) -> str:
    """What a message may show of a secret: its first characters and its length."""
    return f"{value[:3]}… ({len(value)} characters, not shown)"


def read_strings(reader: Reader, table: Mapping[str, Any], key: str, dotted: str, what: str) -> tuple[str, ...]:
    """A list of non-empty strings at ``table[key]`` (stripped, duplicates dropped; ``args`` kept as written)."""
    value = table.get(key, [])
    if not isinstance(value, list) or any(not isinstance(item, str) or not item.strip() for item in value):
        raise ConfigError(reader.path, dotted, value, f"a list of {what} in double quotes, e.g. [\"...\"]")
    if any(has_control(item) for item in value):
        raise ConfigError(reader.path, dotted, value, f"a list of {what} without control characters")
    return tuple(dict.fromkeys(item.strip() if key != "args" else item for item in value))


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control character."""
    return any(ord(ch) < 32 or ord(ch) == 127 for ch in text)


def check_env_name(reader: Reader, dotted: str, value: str) -> None:
    """``api_key_env`` must name a variable; a key pasted there is refused without repeating it."""
    expected = "the NAME of an environment variable (letters, digits, _), not the key itself"
    if looks_like_secret(value):
        raise ConfigError(reader.path, dotted, redact(value), expected + "; this looks like an API key")
    if not ENV_NAME.fullmatch(value):
        raise ConfigError(reader.path, dotted, value, expected)
