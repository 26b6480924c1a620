"""config.toml's ``[skills]`` tables (CONTRACT §12): the MCP servers and the built-in skills of the person's world."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from openhuman_desktop.config_reader import (
    ENV_NAME,
    Reader,
    check_env_name,
    check_url,
    has_control,
    looks_like_secret,
    read_strings,
    redact,
)
from openhuman_desktop.errors import ConfigError

MCP_NAME = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""A ``[skills.mcp.NAME]`` name: letters, digits, '-' and '_' (short, so ``NAME__TOOL`` leaves room for the tool)."""
MAX_MCP_TIMEOUT_SECONDS = 3_600


@dataclass(frozen=True)
class McpServerSettings:
    """One ``[skills.mcp.NAME]`` table (CONTRACT §12.1): an MCP server the app starts (``command``) or reaches
    (``url``), and how its tools are treated.

    ``env_from`` and ``headers_from`` map a variable (or header) to the NAME of a variable of the app's
    environment: the secret itself is never in the file.
    """

    name: str
    enabled: bool = True
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    env_from: Mapping[str, str] = field(default_factory=dict)
    url: str | None = None
    headers_from: Mapping[str, str] = field(default_factory=dict)
    read_tools: tuple[str, ...] = ()
    write_tools: tuple[str, ...] = ()
    disabled_tools: tuple[str, ...] = ()
    timeout_seconds: int = 60
    watch: tuple[str, ...] = ()

    @property
    def transport(self) -> str:
        """``stdio`` (the app starts ``command``) or ``http`` (streamable HTTP at ``url``)."""
        return "http" if self.url else "stdio"


MCP_KEYS = ("enabled", "command", "args", "env", "env_from", "url", "headers_from", "read_tools", "write_tools",
            "disabled_tools", "timeout_seconds", "watch")


EMAIL_SECURITY = ("tls", "starttls", "none")
MAX_HORIZON_HOURS = 24 * 366
MAX_WEB_BYTES = 50 * 1024 * 1024


@dataclass(frozen=True)
class EmailSettings:
    """``[skills.email]`` (CONTRACT §12.2): a mailbox over IMAP, mail sent over SMTP.

    The password is never here: ``password_env`` names the variable of the app's environment that holds it.
    A port of 0 means the usual one for ``security`` (IMAP 993 / 143, SMTP 465 / 587 / 25); an empty
    ``smtp_host`` means ``imap_host``.
    """

    enabled: bool = False
    imap_host: str = ""
    imap_port: int = 0
    smtp_host: str = ""
    smtp_port: int = 0
    username: str = ""
    password_env: str = ""
    folders: tuple[str, ...] = ("INBOX",)
    security: str = "tls"
    ca_file: str | None = None

    @property
    def imap_port_in_use(self) -> int:
        return self.imap_port or (993 if self.security == "tls" else 143)

    @property
    def smtp_host_in_use(self) -> str:
        return self.smtp_host or self.imap_host

    @property
    def smtp_port_in_use(self) -> int:
        return self.smtp_port or {"tls": 465, "starttls": 587}.get(self.security, 25)


@dataclass(frozen=True)
class FeedsSettings:
    """``[skills.feeds]``: RSS / Atom feeds by URL."""

    enabled: bool = False
    urls: tuple[str, ...] = ()


@dataclass(frozen=True)
class CalendarSettings:
    """``[skills.calendar]``: ICS calendars (URLs or files); events starting within ``horizon_hours`` are watched."""

    enabled: bool = False
    sources: tuple[str, ...] = ()
    horizon_hours: int = 24


@dataclass(frozen=True)
class WebSettings:
    """``[skills.web]``: pages fetched as readable text; private addresses only with ``allow_private``."""

    enabled: bool = False
    allow_private: bool = False
    max_bytes: int = 2 * 1024 * 1024
    timeout_seconds: int = 20


@dataclass(frozen=True)
class SlackSettings:
    """``[skills.slack]``: posts through an incoming webhook whose URL is in the variable ``webhook_env``."""

    enabled: bool = False
    webhook_env: str = ""


@dataclass(frozen=True)
class SkillsSettings:
    """``[skills]``: the person's world. ``mcp`` holds the ``[skills.mcp.NAME]`` servers by name, in file order;
    the other fields are the built-in skills (CONTRACT §12.2), each off until its table says ``enabled = true``."""

    mcp: Mapping[str, McpServerSettings] = field(default_factory=dict)
    email: EmailSettings = field(default_factory=EmailSettings)
    feeds: FeedsSettings = field(default_factory=FeedsSettings)
    calendar: CalendarSettings = field(default_factory=CalendarSettings)
    web: WebSettings = field(default_factory=WebSettings)
    slack: SlackSettings = field(default_factory=SlackSettings)


def read_skills(reader: Reader, table: Mapping[str, Any]) -> SkillsSettings:
    """The ``[skills]`` table, checked."""
    reader.unknown(table, ("mcp", "email", "feeds", "calendar", "web", "slack"), "skills.")
    servers_doc = reader.table(table, "mcp", "skills.mcp")
    servers: dict[str, McpServerSettings] = {}
    for name in servers_doc:
        if not MCP_NAME.fullmatch(name):
            raise ConfigError(reader.path, f"skills.mcp.{name}", name,
                              "a server name of at most 40 letters, digits, '-' and '_'")
        servers[name] = _mcp_server(reader, name, reader.table(servers_doc, name, f"skills.mcp.{name}"))
    return SkillsSettings(
        mcp=servers,
        email=_email(reader, reader.table(table, "email", "skills.email")),
        feeds=_feeds(reader, reader.table(table, "feeds", "skills.feeds")),
        calendar=_calendar(reader, reader.table(table, "calendar", "skills.calendar")),
        web=_web(reader, reader.table(table, "web", "skills.web")),
        slack=_slack(reader, reader.table(table, "slack", "skills.slack")),
    )


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` is this machine by its name or address: 127.0.0.0/8, ``::1`` or ``localhost``."""
    text = host.strip().strip("[]").lower()
    if text == "localhost" or text.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(text).is_loopback
    except ValueError:
        return False


_HOST = re.compile(r"[A-Za-z0-9._:\[\]-]{1,253}")
EMAIL_KEYS = ("enabled", "imap_host", "imap_port", "smtp_host", "smtp_port", "username", "password_env", "folders",
              "security", "ca_file")


def _host(reader: Reader, table: Mapping[str, Any], key: str, dotted: str, required: bool) -> str:
    value = reader.text(table, key, dotted, "") or ""
    value = value.strip()
    if (value or required) and not _HOST.fullmatch(value):
        raise ConfigError(reader.path, dotted, value, 'a server name or address, e.g. "imap.example.com"')
    return value


def _email(reader: Reader, table: Mapping[str, Any]) -> EmailSettings:
    prefix = "skills.email"
    reader.unknown(table, EMAIL_KEYS, prefix + ".")
    enabled = reader.boolean(table, "enabled", prefix + ".enabled", False)
    security = reader.text(table, "security", prefix + ".security", "tls") or "tls"
    if security not in EMAIL_SECURITY:
        raise ConfigError(reader.path, prefix + ".security", security, '"tls", "starttls" or "none"')
    imap_host = _host(reader, table, "imap_host", prefix + ".imap_host", enabled)
    smtp_host = _host(reader, table, "smtp_host", prefix + ".smtp_host", False)
    if security == "none":
        for key, host in (("imap_host", imap_host), ("smtp_host", smtp_host or imap_host)):
            if host and not is_loopback_host(host):
                raise ConfigError(reader.path, f"{prefix}.{key}", host, 'a loopback host (127.0.0.1, ::1 or '
                                  'localhost) with security = "none": mail to any other server travels '
                                  'encrypted ("tls" or "starttls")')
    password_env = (reader.text(table, "password_env", prefix + ".password_env", "") or "").strip()
    if password_env:
        check_env_name(reader, prefix + ".password_env", password_env)
    elif enabled:
        raise ConfigError(reader.path, prefix + ".password_env", "", "the NAME of the environment variable that "
                          'holds the password, e.g. "MAIL_PASSWORD"')
    username = (reader.text(table, "username", prefix + ".username", "") or "").strip()
    if enabled and not username:
        raise ConfigError(reader.path, prefix + ".username", "", 'the mailbox\'s user name, e.g. "me@example.com"')
    ca_file = reader.text(table, "ca_file", prefix + ".ca_file", None)
    if ca_file is not None and (not ca_file.strip() or has_control(ca_file)):
        raise ConfigError(reader.path, prefix + ".ca_file", ca_file, "the path of a PEM file of certificates")
    folders = read_strings(reader, table, "folders", prefix + ".folders", "folder names") if "folders" in table \
        else ("INBOX",)
    if enabled and not folders:
        raise ConfigError(reader.path, prefix + ".folders", [], 'at least one folder, e.g. ["INBOX"]')
    return EmailSettings(
        enabled=enabled, imap_host=imap_host,
        imap_port=reader.integer(table, "imap_port", prefix + ".imap_port", 0, 0, 65535),
        smtp_host=smtp_host, smtp_port=reader.integer(table, "smtp_port", prefix + ".smtp_port", 0, 0, 65535),
        username=username, password_env=password_env, folders=folders, security=security,
        ca_file=ca_file.strip() if ca_file else None,
    )


def _feeds(reader: Reader, table: Mapping[str, Any]) -> FeedsSettings:
    prefix = "skills.feeds"
    reader.unknown(table, ("enabled", "urls"), prefix + ".")
    urls = read_strings(reader, table, "urls", prefix + ".urls", "feed URLs")
    for url in urls:
        check_url(url, lambda url=url: ConfigError(reader.path, prefix + ".urls", url, "http:// or https:// URLs"))
    return FeedsSettings(enabled=reader.boolean(table, "enabled", prefix + ".enabled", False), urls=urls)


def _calendar(reader: Reader, table: Mapping[str, Any]) -> CalendarSettings:
    prefix = "skills.calendar"
    reader.unknown(table, ("enabled", "sources", "horizon_hours"), prefix + ".")
    sources = read_strings(reader, table, "sources", prefix + ".sources", "ICS URLs or file paths")
    for source in sources:
        if "://" in source and not source.lower().startswith(("http://", "https://", "file://")):
            raise ConfigError(reader.path, prefix + ".sources", source, "http(s):// URLs or paths of .ics files")
    return CalendarSettings(
        enabled=reader.boolean(table, "enabled", prefix + ".enabled", False), sources=sources,
        horizon_hours=reader.integer(table, "horizon_hours", prefix + ".horizon_hours", 24, 1, MAX_HORIZON_HOURS),
    )


def _web(reader: Reader, table: Mapping[str, Any]) -> WebSettings:
    prefix = "skills.web"
    reader.unknown(table, ("enabled", "allow_private", "max_bytes", "timeout_seconds"), prefix + ".")
    return WebSettings(
        enabled=reader.boolean(table, "enabled", prefix + ".enabled", False),
        allow_private=reader.boolean(table, "allow_private", prefix + ".allow_private", False),
        max_bytes=reader.integer(table, "max_bytes", prefix + ".max_bytes", 2 * 1024 * 1024, 1024, MAX_WEB_BYTES),
        timeout_seconds=reader.integer(table, "timeout_seconds", prefix + ".timeout_seconds", 20, 1, 300),
    )


def _slack(reader: Reader, table: Mapping[str, Any]) -> SlackSettings:
    prefix = "skills.slack"
    reader.unknown(table, ("enabled", "webhook_env"), prefix + ".")
    enabled = reader.boolean(table, "enabled", prefix + ".enabled", False)
    webhook_env = (reader.text(table, "webhook_env", prefix + ".webhook_env", "") or "").strip()
    if "://" in webhook_env:  # the webhook's address itself is a secret: never repeated in the sentence
        raise ConfigError(reader.path, prefix + ".webhook_env", redact(webhook_env), "the NAME of an environment "
                          "variable that holds the webhook URL, not the URL itself")
    if webhook_env:
        check_env_name(reader, prefix + ".webhook_env", webhook_env)
    elif enabled:
        raise ConfigError(reader.path, prefix + ".webhook_env", "", "the NAME of the environment variable that "
                          'holds the webhook URL, e.g. "SLACK_WEBHOOK_URL"')
    return SlackSettings(enabled=enabled, webhook_env=webhook_env)


_HEADER_NAME = re.compile(r"[A-Za-z0-9!#$%&'*+.^_`|~-]+")


def _names_table(reader: Reader, table: Mapping[str, Any], key: str, dotted: str, left: str,
                 left_pattern: re.Pattern[str]) -> dict[str, str]:
    """``env_from`` / ``headers_from``: ``{ LEFT = "NAME" }`` where NAME is a variable of the app's environment."""
    value = table.get(key, {})
    example = '{ GITHUB_TOKEN = "MY_GITHUB_PAT" }' if key == "env_from" else '{ Authorization = "MY_SERVER_AUTH" }'
    if not isinstance(value, dict):
        raise ConfigError(reader.path, dotted, value, f"a table of {left} = NAME of a variable, e.g. {example}")
    result: dict[str, str] = {}
    for item, name in value.items():
        if not left_pattern.fullmatch(item):
            raise ConfigError(reader.path, f"{dotted}.{item}", name, f"{left} made of letters, digits and _ "
                              f"(the key), e.g. {example}")
        if not isinstance(name, str):
            raise ConfigError(reader.path, f"{dotted}.{item}", name, "the NAME of an environment variable in "
                              "double quotes")
        check_env_name(reader, f"{dotted}.{item}", name)
        result[item] = name
    return result


def _mcp_server(reader: Reader, name: str, table: Mapping[str, Any]) -> McpServerSettings:
    prefix = f"skills.mcp.{name}"
    reader.unknown(table, MCP_KEYS, prefix + ".")
    command = reader.text(table, "command", prefix + ".command", None)
    url = reader.url(table, "url", prefix + ".url", None) if "url" in table else None
    if command is not None and (not command.strip() or has_control(command)):
        raise ConfigError(reader.path, prefix + ".command", command, 'the program that starts the server, e.g. '
                          '"mcp-server-time"')
    if command is None and url is None:
        raise ConfigError(reader.path, prefix + ".command", None, 'the program that starts the server (command = '
                          '"...") or its address (url = "http://...")')
    if command is not None and url is not None:
        raise ConfigError(reader.path, prefix + ".url", url, "either command (a program the app starts) or url "
                          "(a server already running), not both")
    if url is None and "headers_from" in table:
        reader.warn(f"{prefix}.headers_from is ignored: it is for a server reached by url")
    env_doc = table.get("env", {})
    if not isinstance(env_doc, dict):
        raise ConfigError(reader.path, prefix + ".env", env_doc, 'a table of plain values, e.g. { LANG = "C.UTF-8" }')
    env: dict[str, str] = {}
    for variable, value in env_doc.items():
        if not ENV_NAME.fullmatch(variable):
            raise ConfigError(reader.path, f"{prefix}.env.{variable}", value, "a variable name made of letters, "
                              "digits and _")
        if not isinstance(value, str) or "\x00" in value:
            raise ConfigError(reader.path, f"{prefix}.env.{variable}", value, "a plain value in double quotes")
        if looks_like_secret(value):
            raise ConfigError(reader.path, f"{prefix}.env.{variable}", redact(value),
                              "a plain value; a secret goes in a variable of the app's environment, named in "
                              f"env_from (e.g. env_from = {{ {variable} = \"MY_{variable.upper()}\" }})")
        env[variable] = value
    timeout = reader.integer(table, "timeout_seconds", prefix + ".timeout_seconds", 60, 1, MAX_MCP_TIMEOUT_SECONDS)
    return McpServerSettings(
        name=name,
        enabled=reader.boolean(table, "enabled", prefix + ".enabled", True),
        command=command.strip() if command is not None else None,
        args=read_strings(reader, table, "args", prefix + ".args", "arguments"),
        env=env,
        env_from=_names_table(reader, table, "env_from", prefix + ".env_from", "VARIABLE", ENV_NAME),
        url=url,
        headers_from=_names_table(reader, table, "headers_from", prefix + ".headers_from", "a header name",
                                  _HEADER_NAME) if url is not None else {},
        read_tools=read_strings(reader, table, "read_tools", prefix + ".read_tools", "tool names"),
        write_tools=read_strings(reader, table, "write_tools", prefix + ".write_tools", "tool names"),
        disabled_tools=read_strings(reader, table, "disabled_tools", prefix + ".disabled_tools", "tool names"),
        timeout_seconds=timeout,
        watch=read_strings(reader, table, "watch", prefix + ".watch", "resource URIs"),
    )
