"""config.toml: typed, validated settings (CONTRACT §3), written with comments on first run."""

from __future__ import annotations

import errno
import logging
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from openhuman_desktop import channel_names, recurrence
from openhuman_desktop.config_reader import Reader, check_env_name, check_url
from openhuman_desktop.config_skills import SkillsSettings, read_skills
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


def parse(doc: Mapping[str, Any], path: Path, environ: Mapping[str, str] | None = None) -> LoadedConfig:
    """Validate a parsed TOML document.

    Raises:
        ConfigError: a value is invalid; the message names file, key, value and expectation.
    """
    environ = os.environ if environ is None else environ
    reader = Reader(path)
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
        skills=read_skills(reader, reader.table(doc, "skills", "skills")),
    )
    return LoadedConfig(settings, tuple(reader.warnings))


def _agent(reader: Reader, table: Mapping[str, Any]) -> AgentSettings:
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


def _channels(reader: Reader, table: Mapping[str, Any]) -> ChannelsSettings:
    reader.unknown(table, channel_names.CONFIGURED, "channels.")
    tg = reader.table(table, "telegram", "channels.telegram")
    reader.unknown(tg, tuple(TelegramSettings.__dataclass_fields__), "channels.telegram.")
    default = TelegramSettings()
    token_env = reader.text(tg, "token_env", "channels.telegram.token_env", default.token_env) or ""
    check_env_name(reader, "channels.telegram.token_env", token_env)
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


def _reflection(reader: Reader, table: Mapping[str, Any]) -> ReflectionSettings:
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


def _notifications(reader: Reader, table: Mapping[str, Any]) -> NotificationSettings:
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


def _model(
    reader: Reader, models_doc: Mapping[str, Any], tier: str, default: ModelSettings | None
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
        check_env_name(reader, prefix + ".api_key_env", api_key_env)
    context_window = None
    if "context_window" in table:
        context_window = reader.integer(table, "context_window", prefix + ".context_window", 0,
                                        MIN_CONTEXT_WINDOW, MAX_CONTEXT_WINDOW)
    return ModelSettings(provider=provider, model=model.strip(), base_url=base_url, api_key_env=api_key_env,
                         context_window=context_window)


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
