"""config.toml: typed, validated settings (CONTRACT §3), written with comments on first run."""

from __future__ import annotations

import errno
import ipaddress
import logging
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlparse, urlsplit

from openhuman_desktop import channel_names, recurrence
from openhuman_desktop.errors import ConfigError, InvalidInput

log = logging.getLogger(__name__)

MIN_INTERVAL_MINUTES = 5
MAX_CONFIG_BYTES = 1024 * 1024  # a config.toml is a few KiB; more is not a config someone wrote
PROVIDERS = ("ollama", "openai")
MODEL_TIERS = ("local", "reasoning", "subconscious", "embedding")
MIN_CONTEXT_WINDOW, MAX_CONTEXT_WINDOW = 512, 10_000_000
DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434"
OLLAMA_DEFAULT_PORT = 11434
# Listen-on-every-interface addresses people put in OLLAMA_HOST for the server; a client connects locally.
_WILDCARD_HOSTS = ("0.0.0.0", "::")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_TELEGRAM_TOKEN = re.compile(r"\d{3,}:[A-Za-z0-9_-]{20,}")  # what @BotFather hands out
# How API keys of common providers begin (OpenAI, Stripe-style, GitHub, Slack, Google, Groq, Hugging Face, ...).
_KEY_PREFIXES = ("sk-", "sk_", "pk-", "pk_", "rk_", "ghp_", "gho_", "ghs_", "ghu_", "github_pat_", "xox",
                 "AIza", "gsk_", "hf_", "glpat-", "r8_", "pplx-", "nvapi-", "key-")


@dataclass(frozen=True)
class HeartbeatSettings:
    """``[heartbeat]``: when and whether the subconscious loop ticks."""

    enabled: bool = True
    interval_minutes: int = 5
    inference_enabled: bool = True
    context_budget_tokens: int = 40_000


@dataclass(frozen=True)
class ModelSettings:
    """One ``[models.<tier>]`` table: which provider and model a tier uses.

    ``context_window`` (tokens) overrides what the server reports; None: ask the server, else assume 4096.
    """

    provider: str = "ollama"
    model: str = ""
    base_url: str | None = None
    api_key_env: str | None = None
    context_window: int | None = None


@dataclass(frozen=True)
class ActivityLogSettings:
    """``[activity_log]``: how much history the database keeps."""

    retention_days: int = 90
    max_rows: int = 200_000


@dataclass(frozen=True)
class AgentSettings:
    """``[agent]``: the three-tier agent's limits (CONTRACT §8)."""

    step_limit: int = 12                 # node transitions per run
    context_threshold: float = 0.85      # share of the reasoning window at which the context hook evicts
    max_subagents: int = 4               # sub-tasks of one plan
    concurrent_subagents: int = 2        # of those, how many run at once
    subagent_steps: int = 6              # tool-loop rounds per sub-agent
    run_deadline_seconds: int = 900      # a run that takes longer ends failed
    model_timeout_seconds: int = 180     # one model call


@dataclass(frozen=True)
class TelegramSettings:
    """``[channels.telegram]`` (CONTRACT §9): the bot's token comes from the environment variable ``token_env``.

    ``allowed_chat_ids`` are the chats that reach the assistant; ``allowed_user_ids`` the people whose press on a
    card's button counts (None: the private chats among ``allowed_chat_ids``, see :attr:`approvers`).
    """

    enabled: bool = False
    token_env: str = "TELEGRAM_BOT_TOKEN"
    allowed_chat_ids: tuple[int, ...] = ()
    api_url: str = "https://api.telegram.org"
    allowed_user_ids: tuple[int, ...] | None = None

    @property
    def approvers(self) -> frozenset[int]:
        """Who may press Go ahead / Skip: ``allowed_user_ids``, or by default the ids of the private chats in
        ``allowed_chat_ids`` (a private chat's id is its person's user id; groups have negative ids)."""
        if self.allowed_user_ids is not None:
            return frozenset(self.allowed_user_ids)
        return frozenset(chat for chat in self.allowed_chat_ids if chat > 0)


@dataclass(frozen=True)
class WebappSettings:
    """``[channels.webapp]`` (CONTRACT §9): the local chat page on 127.0.0.1."""

    enabled: bool = True
    port: int = 0


@dataclass(frozen=True)
class ChannelsSettings:
    """``[channels.*]``: where messages for the agent come from besides the desktop."""

    telegram: TelegramSettings = field(default_factory=TelegramSettings)
    webapp: WebappSettings = field(default_factory=WebappSettings)


@dataclass(frozen=True)
class ReflectionSettings:
    """``[reflection]`` (CONTRACT §10): when the subconscious model reflects on what happened and steers."""

    enabled: bool = True
    schedule: str = "cron:0 3 * * *"   # a cron schedule in local time, like a task's


@dataclass(frozen=True)
class NotificationSettings:
    """``[notifications]``: desktop notifications of new approval cards and of what the assistant says.

    ``quiet_hours`` is ``(start, end)`` in minutes after local midnight (the span may cross midnight), or None.
    """

    enabled: bool = True
    quiet_hours: tuple[int, int] | None = None

    def is_quiet(self, minute_of_day: int) -> bool:
        """Whether ``minute_of_day`` (0-1439, local time) falls in the quiet hours."""
        if self.quiet_hours is None:
            return False
        start, end = self.quiet_hours
        if start <= end:
            return start <= minute_of_day < end
        return minute_of_day >= start or minute_of_day < end


def format_quiet_hours(span: tuple[int, int] | None) -> str:
    """``(1320, 420)`` → ``"22:00-07:00"``; None → ``""``."""
    if span is None:
        return ""
    return "-".join(f"{minute // 60:02d}:{minute % 60:02d}" for minute in span)


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


@dataclass(frozen=True)
class Settings:
    """The whole configuration, after defaults and validation."""

    heartbeat: HeartbeatSettings = field(default_factory=HeartbeatSettings)
    ollama_host: str = DEFAULT_OLLAMA_HOST
    models: Mapping[str, ModelSettings] = field(
        default_factory=lambda: {
            "local": ModelSettings("ollama", "llama3.2:3b"),
            "reasoning": ModelSettings("ollama", "qwen2.5:14b"),
        }
    )
    rpc_port: int = 0
    activity_log: ActivityLogSettings = field(default_factory=ActivityLogSettings)
    agent: AgentSettings = field(default_factory=AgentSettings)
    channels: ChannelsSettings = field(default_factory=ChannelsSettings)
    reflection: ReflectionSettings = field(default_factory=ReflectionSettings)
    notifications: NotificationSettings = field(default_factory=NotificationSettings)
    skills: SkillsSettings = field(default_factory=SkillsSettings)

    def model(self, tier: str) -> ModelSettings | None:
        """The settings of a model tier, or None when the tier is not configured."""
        return self.models.get(tier)

    def base_url_for(self, tier: str) -> str | None:
        """The endpoint a tier talks to (``[ollama] host`` for Ollama tiers without their own)."""
        settings = self.models.get(tier)
        if settings is None:
            return None
        if settings.base_url:
            return settings.base_url
        return self.ollama_host if settings.provider == "ollama" else None


@dataclass(frozen=True)
class LoadedConfig:
    """Settings plus the warnings produced while reading them."""

    settings: Settings
    warnings: tuple[str, ...] = ()


DEFAULT_CONFIG_TEXT = """\
# OpenHuman Desktop configuration.
# Changes are picked up while the app runs; no restart is needed.
# Unknown keys are reported as warnings. Delete this file to get the defaults back.

[heartbeat]
enabled = true                 # run the heartbeat loop
interval_minutes = 5           # minutes between ticks; values below 5 are raised to 5
inference_enabled = true       # evaluate tasks with the local model
context_budget_tokens = 40000  # most tokens the situation report may use

[ollama]
host = "http://127.0.0.1:11434"   # the OLLAMA_HOST environment variable overrides this

# Every [models.*] table takes: provider ("ollama" or "openai" for any OpenAI-compatible
# endpoint), model, base_url (optional for Ollama) and api_key_env (the NAME of the
# environment variable that holds the API key; the key itself never goes in this file).
# context_window (optional, tokens, 512 to 10000000) is the model's context size; without it the
# server's own report is used (Ollama /api/show, llama.cpp /props), else 4096 is assumed.

[models.local]                 # quick tier: task evaluation, text execution, the agent's front desk
provider = "ollama"
model = "llama3.2:3b"
# context_window = 8192        # e.g. the --ctx-size of a llama.cpp server

[models.reasoning]             # "agentic-v1": the agent's plans and tool-using sub-agents
provider = "ollama"
model = "qwen2.5:14b"
# base_url = "https://api.openai.com/v1"
# api_key_env = "OPENAI_API_KEY"

# [models.subconscious]        # deep reflection (steering); same keys as above
# [models.embedding]           # vectors for long-term memory; same keys as above

[rpc]
port = 0                       # 0 = any free port on 127.0.0.1

[activity_log]
retention_days = 90            # activity older than this is deleted
max_rows = 200000              # and never more rows than this

[agent]
step_limit = 12                # node transitions per run; a run that needs more ends failed
context_threshold = 0.85       # 0.80-0.90: share of the reasoning window at which old history is evicted
max_subagents = 4              # sub-tasks one plan may have
concurrent_subagents = 2       # of those, how many run at once
subagent_steps = 6             # tool-using rounds per sub-agent
run_deadline_seconds = 900     # a run that takes longer ends failed
model_timeout_seconds = 180    # one model call

[channels.telegram]            # talk to the assistant from Telegram (a bot made with @BotFather)
enabled = false
token_env = "TELEGRAM_BOT_TOKEN"      # the NAME of the environment variable that holds the bot token
allowed_chat_ids = []                 # only these chats reach the assistant, e.g. [123456789]
# allowed_user_ids = []               # who may press Go ahead / Skip (default: your private chats' ids above)
api_url = "https://api.telegram.org"  # a self-hosted Bot API server works too

[channels.webapp]              # a chat page in your browser, on this computer only (tray menu: Open web app)
enabled = true
port = 0                       # 0 = any free port on 127.0.0.1

[reflection]                   # the subconscious model looks back on what happened and steers the agent
enabled = true                 # needs [models.subconscious]; skipped when nothing new happened
schedule = "cron:0 3 * * *"    # when, in local time (minute hour day month weekday)

[notifications]                # desktop notifications of new approval cards
enabled = true
quiet_hours = ""               # e.g. "22:00-07:00": no pop-ups then (the cards wait in the tray menu)

# Skills through MCP servers: one table per server; the Skills tab and Settings > Skills edit them.
# [skills.mcp.time]
# command = "mcp-server-time"          # the app starts it (or url = "http://127.0.0.1:9000/mcp")
# args = ["--local-timezone", "Europe/Berlin"]
# env_from = { GITHUB_TOKEN = "MY_GITHUB_PAT" }   # VARIABLE = NAME of a variable holding the secret
# read_tools = []   write_tools = []   disabled_tools = []   timeout_seconds = 60   watch = []
"""


def write_default(path: Path) -> None:
    """Write the commented default configuration to ``path`` (mode 0600)."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(DEFAULT_CONFIG_TEXT)


class _Reader:
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


def _normalize_ollama_host(value: str) -> str:
    """Read OLLAMA_HOST the way Ollama's own client does.

    ``host``, ``host:port``, ``:port`` and full URLs are accepted; without a scheme the port defaults
    to 11434, an empty host means 127.0.0.1, and a listen-everywhere address (0.0.0.0) means this machine.
    """
    value = value.strip()
    if "://" in value:
        scheme, rest = value.split("://", 1)
        default_port: int | None = None
    else:
        scheme, rest = "http", value
        default_port = OLLAMA_DEFAULT_PORT
    netloc, slash, path = rest.partition("/")
    try:
        parsed = urlsplit(f"{scheme}://{netloc}")
        port = parsed.port
    except ValueError:
        return value  # check_url reports it
    host = parsed.hostname or ("127.0.0.1" if netloc.startswith(":") or not netloc else "")
    if not host:
        return value
    if host in _WILDCARD_HOSTS:
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    port = port if port is not None else default_port
    address = f"{host}:{port}" if port is not None else host
    return f"{scheme}://{address}{slash}{path}"


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


def parse(doc: Mapping[str, Any], path: Path, environ: Mapping[str, str] | None = None) -> LoadedConfig:
    """Validate a parsed TOML document.

    Raises:
        ConfigError: a value is invalid; the message names file, key, value and expectation.
    """
    environ = os.environ if environ is None else environ
    reader = _Reader(path)
    reader.unknown(doc, ("heartbeat", "ollama", "models", "rpc", "activity_log", "agent", "channels", "reflection",
                         "notifications", "skills"), "")

    hb = reader.table(doc, "heartbeat", "heartbeat")
    reader.unknown(hb, ("enabled", "interval_minutes", "inference_enabled", "context_budget_tokens"), "heartbeat.")
    interval = reader.integer(hb, "interval_minutes", "heartbeat.interval_minutes", 5, 0, 7 * 24 * 60)
    if interval < MIN_INTERVAL_MINUTES:
        reader.warn(f"heartbeat.interval_minutes = {interval} is below the minimum; using {MIN_INTERVAL_MINUTES}")
        interval = MIN_INTERVAL_MINUTES
    heartbeat = HeartbeatSettings(
        enabled=reader.boolean(hb, "enabled", "heartbeat.enabled", True),
        interval_minutes=interval,
        inference_enabled=reader.boolean(hb, "inference_enabled", "heartbeat.inference_enabled", True),
        context_budget_tokens=reader.integer(
            hb, "context_budget_tokens", "heartbeat.context_budget_tokens", 40_000, 1_000, 2_000_000
        ),
    )

    ol = reader.table(doc, "ollama", "ollama")
    reader.unknown(ol, ("host",), "ollama.")
    ollama_host = reader.url(ol, "host", "ollama.host", DEFAULT_OLLAMA_HOST) or DEFAULT_OLLAMA_HOST
    env_host = environ.get("OLLAMA_HOST", "").strip()
    if env_host:
        ollama_host = check_url(
            _normalize_ollama_host(env_host),
            lambda: ConfigError("environment", "OLLAMA_HOST", env_host, "an http:// URL or host:port"),
        )

    models_doc = reader.table(doc, "models", "models")
    defaults = Settings().models
    models: dict[str, ModelSettings] = {}
    for tier in models_doc:
        if tier not in MODEL_TIERS:
            reader.warn(f"unknown model tier [models.{tier}] is ignored (known: {', '.join(MODEL_TIERS)})")
    for tier in MODEL_TIERS:
        if tier not in models_doc:
            if tier in defaults:
                models[tier] = defaults[tier]
            continue
        configured = _model(reader, models_doc, tier, defaults.get(tier))
        if configured is not None:
            models[tier] = configured

    rpc = reader.table(doc, "rpc", "rpc")
    reader.unknown(rpc, ("port",), "rpc.")
    port = reader.integer(rpc, "port", "rpc.port", 0, 0, 65535)

    al = reader.table(doc, "activity_log", "activity_log")
    reader.unknown(al, ("retention_days", "max_rows"), "activity_log.")
    activity_log = ActivityLogSettings(
        retention_days=reader.integer(al, "retention_days", "activity_log.retention_days", 90, 1, 36_500),
        max_rows=reader.integer(al, "max_rows", "activity_log.max_rows", 200_000, 1_000, 100_000_000),
    )
    settings = Settings(
        heartbeat=heartbeat, ollama_host=ollama_host, models=models, rpc_port=port, activity_log=activity_log,
        agent=_agent(reader, reader.table(doc, "agent", "agent")),
        channels=_channels(reader, reader.table(doc, "channels", "channels")),
        reflection=_reflection(reader, reader.table(doc, "reflection", "reflection")),
        notifications=_notifications(reader, reader.table(doc, "notifications", "notifications")),
        skills=_skills(reader, reader.table(doc, "skills", "skills")),
    )
    return LoadedConfig(settings, tuple(reader.warnings))


def _agent(reader: _Reader, table: Mapping[str, Any]) -> AgentSettings:
    reader.unknown(table, tuple(AgentSettings.__dataclass_fields__), "agent.")
    default = AgentSettings()
    concurrent = reader.integer(table, "concurrent_subagents", "agent.concurrent_subagents",
                                default.concurrent_subagents, 1, 16)
    return AgentSettings(
        step_limit=reader.integer(table, "step_limit", "agent.step_limit", default.step_limit, 5, 100),
        context_threshold=reader.number(table, "context_threshold", "agent.context_threshold",
                                        default.context_threshold, 0.80, 0.90),
        max_subagents=reader.integer(table, "max_subagents", "agent.max_subagents", default.max_subagents, 1, 16),
        concurrent_subagents=concurrent,
        subagent_steps=reader.integer(table, "subagent_steps", "agent.subagent_steps", default.subagent_steps, 1,
                                      50),
        run_deadline_seconds=reader.integer(table, "run_deadline_seconds", "agent.run_deadline_seconds",
                                            default.run_deadline_seconds, 30, 86_400),
        model_timeout_seconds=reader.integer(table, "model_timeout_seconds", "agent.model_timeout_seconds",
                                             default.model_timeout_seconds, 5, 3_600),
    )


def _channels(reader: _Reader, table: Mapping[str, Any]) -> ChannelsSettings:
    reader.unknown(table, channel_names.CONFIGURED, "channels.")
    tg = reader.table(table, "telegram", "channels.telegram")
    reader.unknown(tg, tuple(TelegramSettings.__dataclass_fields__), "channels.telegram.")
    default = TelegramSettings()
    token_env = reader.text(tg, "token_env", "channels.telegram.token_env", default.token_env) or ""
    _check_env_name(reader, "channels.telegram.token_env", token_env)
    chats = tg.get("allowed_chat_ids", [])
    expected = "a list of chat ids (whole numbers), e.g. [123456789]"
    if not isinstance(chats, list) or any(isinstance(chat, bool) or not isinstance(chat, int) for chat in chats):
        raise ConfigError(reader.path, "channels.telegram.allowed_chat_ids", chats, expected)
    if any(not -(2**52) < chat < 2**52 for chat in chats):  # Telegram's ids fit in 52 bits
        raise ConfigError(reader.path, "channels.telegram.allowed_chat_ids", chats, expected)
    users = tg.get("allowed_user_ids")
    expected = ("a list of Telegram user ids (positive whole numbers: your own is your private chat's id), "
                "e.g. [123456789]")
    if users is not None and (not isinstance(users, list) or any(
            isinstance(user, bool) or not isinstance(user, int) or not 0 < user < 2**52 for user in users)):
        raise ConfigError(reader.path, "channels.telegram.allowed_user_ids", users, expected)
    telegram = TelegramSettings(
        enabled=reader.boolean(tg, "enabled", "channels.telegram.enabled", default.enabled),
        token_env=token_env,
        allowed_chat_ids=tuple(dict.fromkeys(chats)),
        api_url=reader.url(tg, "api_url", "channels.telegram.api_url", default.api_url) or default.api_url,
        allowed_user_ids=None if users is None else tuple(dict.fromkeys(users)),
    )
    web = reader.table(table, "webapp", "channels.webapp")
    reader.unknown(web, tuple(WebappSettings.__dataclass_fields__), "channels.webapp.")
    webapp = WebappSettings(
        enabled=reader.boolean(web, "enabled", "channels.webapp.enabled", True),
        port=reader.integer(web, "port", "channels.webapp.port", 0, 0, 65535),
    )
    return ChannelsSettings(telegram=telegram, webapp=webapp)


def _reflection(reader: _Reader, table: Mapping[str, Any]) -> ReflectionSettings:
    reader.unknown(table, tuple(ReflectionSettings.__dataclass_fields__), "reflection.")
    default = ReflectionSettings()
    schedule = reader.text(table, "schedule", "reflection.schedule", default.schedule) or ""
    expected = 'a cron schedule in local time, e.g. "cron:0 3 * * *" (every day at 03:00)'
    if not schedule.strip().startswith(recurrence.CRON_PREFIX):
        raise ConfigError(reader.path, "reflection.schedule", schedule, expected)
    try:
        parsed = recurrence.parse(schedule.strip(), "reflection.schedule")
    except InvalidInput as exc:
        raise ConfigError(reader.path, "reflection.schedule", schedule, f"{expected}; {exc.problem}") from None
    return ReflectionSettings(enabled=reader.boolean(table, "enabled", "reflection.enabled", default.enabled),
                              schedule=str(parsed))


_QUIET_HOURS = re.compile(r"\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*")


def parse_quiet_hours(value: str) -> tuple[int, int] | None:
    """``"22:00-07:00"`` → ``(1320, 420)``; ``""`` → None.

    Raises:
        ValueError: not two times of day ``HH:MM-HH:MM``, or both the same.
    """
    if not value.strip():
        return None
    match = _QUIET_HOURS.fullmatch(value)
    if match is None:
        raise ValueError("not HH:MM-HH:MM")
    hour1, minute1, hour2, minute2 = (int(part) for part in match.groups())
    if hour1 > 23 or hour2 > 23 or minute1 > 59 or minute2 > 59:
        raise ValueError("not a time of day")
    start, end = hour1 * 60 + minute1, hour2 * 60 + minute2
    if start == end:
        raise ValueError("starts and ends at the same time")
    return start, end


def _notifications(reader: _Reader, table: Mapping[str, Any]) -> NotificationSettings:
    reader.unknown(table, tuple(NotificationSettings.__dataclass_fields__), "notifications.")
    quiet = reader.text(table, "quiet_hours", "notifications.quiet_hours", "") or ""
    try:
        span = parse_quiet_hours(quiet)
    except ValueError:
        raise ConfigError(reader.path, "notifications.quiet_hours", quiet,
                          'a span of local time like "22:00-07:00" (start-end, 24-hour clock), or "" for none'
                          ) from None
    return NotificationSettings(enabled=reader.boolean(table, "enabled", "notifications.enabled", True),
                                quiet_hours=span)


def _skills(reader: _Reader, table: Mapping[str, Any]) -> SkillsSettings:
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


def _host(reader: _Reader, table: Mapping[str, Any], key: str, dotted: str, required: bool) -> str:
    value = reader.text(table, key, dotted, "") or ""
    value = value.strip()
    if (value or required) and not _HOST.fullmatch(value):
        raise ConfigError(reader.path, dotted, value, 'a server name or address, e.g. "imap.example.com"')
    return value


def _email(reader: _Reader, table: Mapping[str, Any]) -> EmailSettings:
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
        _check_env_name(reader, prefix + ".password_env", password_env)
    elif enabled:
        raise ConfigError(reader.path, prefix + ".password_env", "", "the NAME of the environment variable that "
                          'holds the password, e.g. "MAIL_PASSWORD"')
    username = (reader.text(table, "username", prefix + ".username", "") or "").strip()
    if enabled and not username:
        raise ConfigError(reader.path, prefix + ".username", "", 'the mailbox\'s user name, e.g. "me@example.com"')
    ca_file = reader.text(table, "ca_file", prefix + ".ca_file", None)
    if ca_file is not None and (not ca_file.strip() or _has_control(ca_file)):
        raise ConfigError(reader.path, prefix + ".ca_file", ca_file, "the path of a PEM file of certificates")
    folders = _strings(reader, table, "folders", prefix + ".folders", "folder names") if "folders" in table \
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


def _feeds(reader: _Reader, table: Mapping[str, Any]) -> FeedsSettings:
    prefix = "skills.feeds"
    reader.unknown(table, ("enabled", "urls"), prefix + ".")
    urls = _strings(reader, table, "urls", prefix + ".urls", "feed URLs")
    for url in urls:
        check_url(url, lambda url=url: ConfigError(reader.path, prefix + ".urls", url, "http:// or https:// URLs"))
    return FeedsSettings(enabled=reader.boolean(table, "enabled", prefix + ".enabled", False), urls=urls)


def _calendar(reader: _Reader, table: Mapping[str, Any]) -> CalendarSettings:
    prefix = "skills.calendar"
    reader.unknown(table, ("enabled", "sources", "horizon_hours"), prefix + ".")
    sources = _strings(reader, table, "sources", prefix + ".sources", "ICS URLs or file paths")
    for source in sources:
        if "://" in source and not source.lower().startswith(("http://", "https://", "file://")):
            raise ConfigError(reader.path, prefix + ".sources", source, "http(s):// URLs or paths of .ics files")
    return CalendarSettings(
        enabled=reader.boolean(table, "enabled", prefix + ".enabled", False), sources=sources,
        horizon_hours=reader.integer(table, "horizon_hours", prefix + ".horizon_hours", 24, 1, MAX_HORIZON_HOURS),
    )


def _web(reader: _Reader, table: Mapping[str, Any]) -> WebSettings:
    prefix = "skills.web"
    reader.unknown(table, ("enabled", "allow_private", "max_bytes", "timeout_seconds"), prefix + ".")
    return WebSettings(
        enabled=reader.boolean(table, "enabled", prefix + ".enabled", False),
        allow_private=reader.boolean(table, "allow_private", prefix + ".allow_private", False),
        max_bytes=reader.integer(table, "max_bytes", prefix + ".max_bytes", 2 * 1024 * 1024, 1024, MAX_WEB_BYTES),
        timeout_seconds=reader.integer(table, "timeout_seconds", prefix + ".timeout_seconds", 20, 1, 300),
    )


def _slack(reader: _Reader, table: Mapping[str, Any]) -> SlackSettings:
    prefix = "skills.slack"
    reader.unknown(table, ("enabled", "webhook_env"), prefix + ".")
    enabled = reader.boolean(table, "enabled", prefix + ".enabled", False)
    webhook_env = (reader.text(table, "webhook_env", prefix + ".webhook_env", "") or "").strip()
    if "://" in webhook_env:  # the webhook's address itself is a secret: never repeated in the sentence
        raise ConfigError(reader.path, prefix + ".webhook_env", redact(webhook_env), "the NAME of an environment "
                          "variable that holds the webhook URL, not the URL itself")
    if webhook_env:
        _check_env_name(reader, prefix + ".webhook_env", webhook_env)
    elif enabled:
        raise ConfigError(reader.path, prefix + ".webhook_env", "", "the NAME of the environment variable that "
                          'holds the webhook URL, e.g. "SLACK_WEBHOOK_URL"')
    return SlackSettings(enabled=enabled, webhook_env=webhook_env)


def _strings(reader: _Reader, table: Mapping[str, Any], key: str, dotted: str, what: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or any(not isinstance(item, str) or not item.strip() for item in value):
        raise ConfigError(reader.path, dotted, value, f"a list of {what} in double quotes, e.g. [\"...\"]")
    if any(_has_control(item) for item in value):
        raise ConfigError(reader.path, dotted, value, f"a list of {what} without control characters")
    return tuple(dict.fromkeys(item.strip() if key != "args" else item for item in value))


def _has_control(text: str) -> bool:
    return any(ord(ch) < 32 or ord(ch) == 127 for ch in text)


_HEADER_NAME = re.compile(r"[A-Za-z0-9!#$%&'*+.^_`|~-]+")


def _names_table(reader: _Reader, table: Mapping[str, Any], key: str, dotted: str, left: str,
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
        _check_env_name(reader, f"{dotted}.{item}", name)
        result[item] = name
    return result


def _mcp_server(reader: _Reader, name: str, table: Mapping[str, Any]) -> McpServerSettings:
    prefix = f"skills.mcp.{name}"
    reader.unknown(table, MCP_KEYS, prefix + ".")
    command = reader.text(table, "command", prefix + ".command", None)
    url = reader.url(table, "url", prefix + ".url", None) if "url" in table else None
    if command is not None and (not command.strip() or _has_control(command)):
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
        if not _ENV_NAME.fullmatch(variable):
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
        args=_strings(reader, table, "args", prefix + ".args", "arguments"),
        env=env,
        env_from=_names_table(reader, table, "env_from", prefix + ".env_from", "VARIABLE", _ENV_NAME),
        url=url,
        headers_from=_names_table(reader, table, "headers_from", prefix + ".headers_from", "a header name",
                                  _HEADER_NAME) if url is not None else {},
        read_tools=_strings(reader, table, "read_tools", prefix + ".read_tools", "tool names"),
        write_tools=_strings(reader, table, "write_tools", prefix + ".write_tools", "tool names"),
        disabled_tools=_strings(reader, table, "disabled_tools", prefix + ".disabled_tools", "tool names"),
        timeout_seconds=timeout,
        watch=_strings(reader, table, "watch", prefix + ".watch", "resource URIs"),
    )


def _model(
    reader: _Reader, models_doc: Mapping[str, Any], tier: str, default: ModelSettings | None
) -> ModelSettings | None:
    """One tier's table; an empty table of a tier without defaults means "not configured"."""
    prefix = f"models.{tier}"
    table = reader.table(models_doc, tier, prefix)
    if not table and default is None:
        return None
    reader.unknown(table, ("provider", "model", "base_url", "api_key_env", "context_window"), prefix + ".")
    base = default or ModelSettings()
    provider = reader.text(table, "provider", prefix + ".provider", base.provider) or "ollama"
    if provider not in PROVIDERS:
        raise ConfigError(reader.path, prefix + ".provider", provider, '"ollama" or "openai"')
    model = reader.text(table, "model", prefix + ".model", base.model)
    if not model or not model.strip() or any(ord(ch) < 32 or ord(ch) == 127 for ch in model):
        raise ConfigError(reader.path, prefix + ".model", model, "the name of a model, e.g. \"llama3.2:3b\"")
    base_url = reader.url(table, "base_url", prefix + ".base_url", None)
    if provider == "openai" and base_url is None:
        raise ConfigError(reader.path, prefix + ".base_url", None, 'the endpoint, e.g. "https://api.openai.com/v1"')
    api_key_env = reader.text(table, "api_key_env", prefix + ".api_key_env", None)
    if api_key_env is not None:
        _check_env_name(reader, prefix + ".api_key_env", api_key_env)
    context_window = None
    if "context_window" in table:
        context_window = reader.integer(table, "context_window", prefix + ".context_window", 0,
                                        MIN_CONTEXT_WINDOW, MAX_CONTEXT_WINDOW)
    return ModelSettings(provider=provider, model=model.strip(), base_url=base_url, api_key_env=api_key_env,
                         context_window=context_window)


def _check_env_name(reader: _Reader, dotted: str, value: str) -> None:
    """``api_key_env`` must name a variable; a key pasted there is refused without repeating it."""
    expected = "the NAME of an environment variable (letters, digits, _), not the key itself"
    if looks_like_secret(value):
        raise ConfigError(reader.path, dotted, redact(value), expected + "; this looks like an API key")
    if not _ENV_NAME.fullmatch(value):
        raise ConfigError(reader.path, dotted, value, expected)


def load(path: Path, environ: Mapping[str, str] | None = None) -> LoadedConfig:
    """Read and validate ``path``; a missing file means all defaults.

    Raises:
        ConfigError: the file cannot be read, is not TOML, or holds an invalid value.
    """
    try:
        raw = read_small_file(path)
    except FileNotFoundError:
        return parse({}, path, environ)
    except OSError as exc:
        raise ConfigError(path, "(file)", exc.strerror, "a readable file") from exc
    try:
        doc = tomllib.loads(raw.decode("utf-8-sig"))   # -sig: a byte order mark (Notepad's "UTF-8 with BOM") is fine
    except UnicodeDecodeError as exc:
        raise ConfigError(path, "(file)", "bytes that are not UTF-8", "a UTF-8 text file") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, "(syntax)", str(exc), "valid TOML (https://toml.io)") from exc
    except RecursionError as exc:  # tomllib recurses once per level of nested arrays or inline tables
        raise ConfigError(path, "(syntax)", "arrays or tables nested too deeply to read",
                          "a config with values nested a few levels at most") from exc
    return parse(doc, path, environ)


def read_small_file(path: Path) -> bytes:
    """The bytes of a regular file of at most ``MAX_CONFIG_BYTES`` (a FIFO or a device never blocks us).

    Raises:
        FileNotFoundError: there is no file. OSError: anything else that keeps it from being read.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        data = file.read(MAX_CONFIG_BYTES + 1)
    if len(data) > MAX_CONFIG_BYTES:
        raise OSError(errno.EFBIG, f"larger than {MAX_CONFIG_BYTES // 1024} KiB", str(path))
    return data


def with_heartbeat(settings: Settings, **changes: Any) -> Settings:
    """A copy of ``settings`` with some ``[heartbeat]`` values changed."""
    return replace(settings, heartbeat=replace(settings.heartbeat, **changes))
