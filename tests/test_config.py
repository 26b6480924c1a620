"""config.toml (CONTRACT §3): defaults, validation with clear errors, warnings, OLLAMA_HOST, live reload."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from openhuman_desktop import config, events
from openhuman_desktop.config import (
    ActivityLogSettings,
    HeartbeatSettings,
    LoadedConfig,
    ModelSettings,
    Settings,
)
from openhuman_desktop.errors import ConfigError
from openhuman_desktop.live_config import LiveSettings

NO_ENV: dict[str, str] = {}


def load_text(tmp_path: Path, text: str, environ: dict[str, str] | None = None) -> LoadedConfig:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return config.load(path, NO_ENV if environ is None else environ)


def config_error(tmp_path: Path, text: str, environ: dict[str, str] | None = None) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load_text(tmp_path, text, environ)
    return caught.value


def assert_names_everything(error: ConfigError, path: Path, key: str, value: object) -> None:
    message = str(error)
    assert str(path) in message
    assert key in message
    assert repr(value) in message
    assert "expected" in message and error.expected in message
    assert error.key == key


# --- defaults -------------------------------------------------------------------------------------


def test_missing_file_gives_every_default(tmp_path: Path) -> None:
    loaded = config.load(tmp_path / "nope.toml", NO_ENV)
    assert loaded.settings == Settings()
    assert loaded.warnings == ()
    settings = loaded.settings
    assert settings.heartbeat == HeartbeatSettings(True, 5, True, 40_000)
    assert settings.ollama_host == "http://127.0.0.1:11434"
    assert settings.model("local") == ModelSettings("ollama", "llama3.2:3b")
    assert settings.model("reasoning") == ModelSettings("ollama", "qwen2.5:14b")
    assert settings.model("subconscious") is None
    assert settings.rpc_port == 0
    assert settings.activity_log == ActivityLogSettings(90, 200_000)
    assert settings.base_url_for("local") == "http://127.0.0.1:11434"


def test_empty_file_gives_every_default(tmp_path: Path) -> None:
    assert load_text(tmp_path, "").settings == Settings()


def test_heartbeat_section_without_inference_enabled_means_true(tmp_path: Path) -> None:
    loaded = load_text(tmp_path, "[heartbeat]\nenabled = false\n")
    assert loaded.settings.heartbeat.inference_enabled is True
    assert loaded.settings.heartbeat.enabled is False
    assert loaded.settings.heartbeat.interval_minutes == 5


def test_values_are_read(tmp_path: Path) -> None:
    loaded = load_text(tmp_path, """
[heartbeat]
enabled = false
interval_minutes = 30
inference_enabled = false
context_budget_tokens = 8000

[ollama]
host = "http://10.0.0.2:11434/"

[models.reasoning]
provider = "openai"
model = "gpt-4o-mini"
base_url = "https://api.openai.com/v1/"
api_key_env = "OPENAI_API_KEY"

[models.embedding]
provider = "ollama"
model = "nomic-embed-text"

[rpc]
port = 8765

[activity_log]
retention_days = 7
max_rows = 5000
""")
    s = loaded.settings
    assert loaded.warnings == ()
    assert s.heartbeat == HeartbeatSettings(False, 30, False, 8000)
    assert s.ollama_host == "http://10.0.0.2:11434"
    assert s.model("reasoning") == ModelSettings("openai", "gpt-4o-mini", "https://api.openai.com/v1", "OPENAI_API_KEY")
    assert s.base_url_for("reasoning") == "https://api.openai.com/v1"
    assert s.model("local") == ModelSettings("ollama", "llama3.2:3b")  # untouched tier keeps its default
    assert s.base_url_for("embedding") == "http://10.0.0.2:11434"
    assert s.base_url_for("subconscious") is None
    assert s.rpc_port == 8765
    assert s.activity_log == ActivityLogSettings(7, 5000)


def test_empty_table_of_an_optional_tier_means_not_configured(tmp_path: Path) -> None:
    loaded = load_text(tmp_path, "[models.subconscious]\n[models.embedding]\n")
    assert loaded.settings.model("subconscious") is None
    assert loaded.settings.model("embedding") is None


@pytest.mark.parametrize("value", [0, 1, 4])
def test_interval_below_five_is_raised_with_a_warning(tmp_path: Path, value: int) -> None:
    loaded = load_text(tmp_path, f"[heartbeat]\ninterval_minutes = {value}\n")
    assert loaded.settings.heartbeat.interval_minutes == 5
    assert len(loaded.warnings) == 1
    assert "heartbeat.interval_minutes" in loaded.warnings[0]
    assert "5" in loaded.warnings[0]


def test_interval_of_exactly_five_is_not_a_warning(tmp_path: Path) -> None:
    loaded = load_text(tmp_path, "[heartbeat]\ninterval_minutes = 5\n")
    assert loaded.warnings == ()


# --- warnings, never errors ------------------------------------------------------------------------


def test_unknown_keys_and_sections_are_warnings(tmp_path: Path) -> None:
    loaded = load_text(tmp_path, """
colour = "blue"

[heartbeat]
interval_minutes = 10
speed = 3

[ollama]
host = "http://127.0.0.1:11434"
timeout = 5

[models.local]
provider = "ollama"
model = "llama3.2:3b"
temperature = 0.2

[models.mystery]
model = "x"

[channels]
slack = true

[channels.webapp]
theme = "dark"

[rpc]
bind = "0.0.0.0"

[activity_log]
keep = 1
""")
    assert loaded.settings.heartbeat.interval_minutes == 10
    text = "\n".join(loaded.warnings)
    for name in ("colour", "channels.slack", "channels.webapp.theme", "heartbeat.speed", "ollama.timeout",
                 "models.local.temperature", "models.mystery", "rpc.bind", "activity_log.keep"):
        assert name in text, name
    assert all(str(tmp_path / "config.toml") in warning for warning in loaded.warnings)
    assert len(loaded.warnings) == 9


def test_channels_take_their_defaults_and_read_the_allowed_chats(tmp_path: Path) -> None:
    assert load_text(tmp_path, "").settings.channels == config.ChannelsSettings()
    loaded = load_text(tmp_path, """
[channels.telegram]
enabled = true
token_env = "MY_BOT"
allowed_chat_ids = [42, -1001234567890, 42]
api_url = "http://127.0.0.1:8081/"

[channels.webapp]
enabled = false
port = 8765
""")
    telegram, webapp = loaded.settings.channels.telegram, loaded.settings.channels.webapp
    assert (telegram.enabled, telegram.token_env, telegram.api_url) == (True, "MY_BOT", "http://127.0.0.1:8081")
    assert telegram.allowed_chat_ids == (42, -1001234567890)
    assert (webapp.enabled, webapp.port) == (False, 8765)


def test_who_may_press_a_telegram_button_defaults_to_the_private_chats(tmp_path: Path) -> None:
    telegram = load_text(tmp_path, "[channels.telegram]\nallowed_chat_ids = [42, -1001234567890, 7]\n"
                         ).settings.channels.telegram
    assert telegram.allowed_user_ids is None and telegram.approvers == {42, 7}
    telegram = load_text(tmp_path, "[channels.telegram]\nallowed_chat_ids = [42, -100]\n"
                         "allowed_user_ids = [99, 99, 5]\n").settings.channels.telegram
    assert telegram.allowed_user_ids == (99, 5) and telegram.approvers == {99, 5}
    assert load_text(tmp_path, "[channels.telegram]\nallowed_user_ids = []\n").settings.channels.telegram.approvers \
        == frozenset()


@pytest.mark.parametrize("value", ["[-100123]", "[0]", "\"42\"", "42", "[true]", "[\"me\"]", "[4503599627370496]"])
def test_bad_allowed_user_ids_are_one_sentence_naming_the_key(tmp_path: Path, value: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_text(tmp_path, f"[channels.telegram]\nallowed_user_ids = {value}\n")
    message = str(caught.value)
    assert "channels.telegram.allowed_user_ids" in message and "positive whole numbers" in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("[channels.telegram]\nallowed_chat_ids = [\"me\"]\n", "channels.telegram.allowed_chat_ids"),
        ("[channels.telegram]\nallowed_chat_ids = 42\n", "channels.telegram.allowed_chat_ids"),
        ("[channels.telegram]\nallowed_chat_ids = [true]\n", "channels.telegram.allowed_chat_ids"),
        ("[channels.telegram]\ntoken_env = \"my bot\"\n", "channels.telegram.token_env"),
        ("[channels.telegram]\napi_url = \"ftp://x\"\n", "channels.telegram.api_url"),
        ("[channels.webapp]\nport = 70000\n", "channels.webapp.port"),
        ("[channels.webapp]\nenabled = \"yes\"\n", "channels.webapp.enabled"),
        ("[channels]\nwebapp = 1\n", "channels.webapp"),
    ],
)
def test_bad_channel_settings_name_their_key(tmp_path: Path, text: str, key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_text(tmp_path, text)
    assert key in str(caught.value)


def test_a_bot_token_pasted_as_token_env_is_never_repeated(tmp_path: Path) -> None:
    token = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
    with pytest.raises(ConfigError) as caught:
        load_text(tmp_path, f'[channels.telegram]\ntoken_env = "{token}"\n')
    assert token not in str(caught.value) and "looks like an API key" in str(caught.value)


# --- errors: file, key, value, expectation ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("[heartbeat]\nenabled = \"yes\"\n", "heartbeat.enabled", "yes"),
        ("[heartbeat]\nenabled = 1\n", "heartbeat.enabled", 1),
        ("[heartbeat]\ninference_enabled = \"no\"\n", "heartbeat.inference_enabled", "no"),
        ("[heartbeat]\ninterval_minutes = \"10\"\n", "heartbeat.interval_minutes", "10"),
        ("[heartbeat]\ninterval_minutes = 7.5\n", "heartbeat.interval_minutes", 7.5),
        ("[heartbeat]\ninterval_minutes = true\n", "heartbeat.interval_minutes", True),
        ("[heartbeat]\ninterval_minutes = -5\n", "heartbeat.interval_minutes", -5),
        ("[heartbeat]\ncontext_budget_tokens = -1\n", "heartbeat.context_budget_tokens", -1),
        ("[heartbeat]\ncontext_budget_tokens = 0\n", "heartbeat.context_budget_tokens", 0),
        ("[ollama]\nhost = \"ftp://example.com\"\n", "ollama.host", "ftp://example.com"),
        ("[ollama]\nhost = \"not a url\"\n", "ollama.host", "not a url"),
        ("[ollama]\nhost = \"http://\"\n", "ollama.host", "http://"),
        ("[ollama]\nhost = \"http://localhost:port\"\n", "ollama.host", "http://localhost:port"),
        ("[ollama]\nhost = 11434\n", "ollama.host", 11434),
        ("[models.local]\nprovider = \"anthropic\"\nmodel = \"x\"\n", "models.local.provider", "anthropic"),
        ("[models.local]\nprovider = 3\n", "models.local.provider", 3),
        ("[models.local]\nmodel = \"  \"\n", "models.local.model", "  "),
        ("[models.local]\nmodel = 3\n", "models.local.model", 3),
        ("[models.reasoning]\nprovider = \"openai\"\nmodel = \"gpt-4o\"\n", "models.reasoning.base_url", None),
        ("[models.reasoning]\nbase_url = \"api.openai.com/v1\"\n", "models.reasoning.base_url", "api.openai.com/v1"),
        ("[models.embedding]\nprovider = \"ollama\"\n", "models.embedding.model", ""),
        ("[models]\nlocal = \"llama3.2:3b\"\n", "models.local", "llama3.2:3b"),
        ("heartbeat = 5\n", "heartbeat", 5),
        ("[rpc]\nport = 70000\n", "rpc.port", 70000),
        ("[rpc]\nport = -1\n", "rpc.port", -1),
        ("[rpc]\nport = \"8080\"\n", "rpc.port", "8080"),
        ("[activity_log]\nretention_days = 0\n", "activity_log.retention_days", 0),
        ("[activity_log]\nretention_days = -3\n", "activity_log.retention_days", -3),
        ("[activity_log]\nmax_rows = -10\n", "activity_log.max_rows", -10),
        ("[models.local]\napi_key_env = \"MY KEY\"\n", "models.local.api_key_env", "MY KEY"),
        ("[models.local]\napi_key_env = \"\"\n", "models.local.api_key_env", ""),
        ("[models.local]\napi_key_env = \"1KEY\"\n", "models.local.api_key_env", "1KEY"),
    ],
)
def test_invalid_value_names_file_key_value_and_expectation(
    tmp_path: Path, text: str, key: str, value: object
) -> None:
    error = config_error(tmp_path, text)
    assert_names_everything(error, tmp_path / "config.toml", key, value)


@pytest.mark.parametrize(
    "secret",
    [
        "sk-proj-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c",
        "sk_live_51HxYzAbCdEfGhIjKlMnOpQr",
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "AIzaSyD3x4mpl3K3y0000000000000000000",
        "gsk_Q7wErTyUiOpAsDfGhJkL0123456789",
        "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6",
    ],
)
def test_api_key_in_api_key_env_is_refused_and_not_echoed(tmp_path: Path, secret: str) -> None:
    error = config_error(
        tmp_path, f'[models.reasoning]\nprovider = "openai"\nmodel = "m"\nbase_url = "https://x.test/v1"\n'
        f'api_key_env = "{secret}"\n'
    )
    message = str(error)
    assert str(tmp_path / "config.toml") in message
    assert "models.reasoning.api_key_env" in message
    assert "NAME of an environment variable" in message
    assert secret not in message  # the key must never reach a log line or a notification
    assert secret not in repr(error.value)


@pytest.mark.parametrize("name", ["OPENAI_API_KEY", "GROQ_KEY", "my_llm_key", "_PRIVATE", "KEY2"])
def test_plausible_variable_names_are_accepted(tmp_path: Path, name: str) -> None:
    loaded = load_text(tmp_path, f'[models.local]\napi_key_env = "{name}"\n')
    local = loaded.settings.model("local")
    assert local is not None and local.api_key_env == name


def test_toml_syntax_error_is_a_config_error(tmp_path: Path) -> None:
    error = config_error(tmp_path, "[heartbeat\nenabled = true\n")
    assert str(tmp_path / "config.toml") in str(error)
    assert "TOML" in str(error)


def test_not_utf8_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(b"[heartbeat]\nenabled = \xff\n")
    with pytest.raises(ConfigError, match="UTF-8"):
        config.load(path, NO_ENV)


def test_unreadable_path_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.mkdir()  # a directory where the file should be
    with pytest.raises(ConfigError) as caught:
        config.load(path, NO_ENV)
    assert str(path) in str(caught.value)


# --- OLLAMA_HOST -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ("http://10.1.2.3:9999", "http://10.1.2.3:9999"),
        ("https://ollama.example.com/", "https://ollama.example.com"),
        ("10.1.2.3:9999", "http://10.1.2.3:9999"),
        ("gpu-box:11435", "http://gpu-box:11435"),
        ("gpu-box", "http://gpu-box:11434"),
        (":11500", "http://127.0.0.1:11500"),
        ("0.0.0.0", "http://127.0.0.1:11434"),
        ("0.0.0.0:8080", "http://127.0.0.1:8080"),
        ("  10.1.2.3:9999  ", "http://10.1.2.3:9999"),
    ],
)
def test_ollama_host_environment_overrides_the_file(tmp_path: Path, env: str, expected: str) -> None:
    loaded = load_text(tmp_path, '[ollama]\nhost = "http://127.0.0.1:11434"\n', {"OLLAMA_HOST": env})
    assert loaded.settings.ollama_host == expected
    assert loaded.settings.base_url_for("local") == expected


def test_ollama_host_environment_applies_without_a_file(tmp_path: Path) -> None:
    loaded = config.load(tmp_path / "missing.toml", {"OLLAMA_HOST": "box:1234"})
    assert loaded.settings.ollama_host == "http://box:1234"


def test_empty_ollama_host_environment_is_ignored(tmp_path: Path) -> None:
    loaded = load_text(tmp_path, '[ollama]\nhost = "http://10.0.0.9:11434"\n', {"OLLAMA_HOST": "  "})
    assert loaded.settings.ollama_host == "http://10.0.0.9:11434"


def test_invalid_ollama_host_environment_names_the_variable(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_text(tmp_path, "", {"OLLAMA_HOST": "ftp://box"})
    assert "OLLAMA_HOST" in str(caught.value)
    assert "ftp://box" in str(caught.value)


def test_process_environment_is_used_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OLLAMA_HOST", "otherhost:4321")
    assert config.load(tmp_path / "missing.toml").settings.ollama_host == "http://otherhost:4321"


# --- the written default -----------------------------------------------------------------------------


def test_written_default_parses_to_the_defaults_and_is_private(tmp_path: Path) -> None:
    path = tmp_path / "ws" / "config.toml"
    config.write_default(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    loaded = config.load(path, NO_ENV)
    assert loaded.settings == Settings()
    assert loaded.warnings == ()
    assert path.read_text(encoding="utf-8").count("#") > 10  # it explains itself


def test_write_default_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[rpc]\nport = 1234\n", encoding="utf-8")
    with pytest.raises(FileExistsError):
        config.write_default(path)
    assert config.load(path, NO_ENV).settings.rpc_port == 1234


def test_with_heartbeat_changes_only_the_heartbeat() -> None:
    base = Settings()
    changed = config.with_heartbeat(base, interval_minutes=15, enabled=False)
    assert changed.heartbeat.interval_minutes == 15 and changed.heartbeat.enabled is False
    assert changed.models == base.models and base.heartbeat.interval_minutes == 5


# --- LiveSettings ------------------------------------------------------------------------------------


async def test_live_settings_reload_applies_a_valid_change(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    path = tmp_path / "config.toml"
    path.write_text("[heartbeat]\ninterval_minutes = 10\n", encoding="utf-8")
    bus = events.EventBus()
    seen: list[events.Event] = []
    bus.subscribe(events.StatusChanged, seen.append)
    live = LiveSettings(path, config.load(path), bus)
    assert live().heartbeat.interval_minutes == 10

    assert await live.reload() is False  # nothing changed
    assert seen == []

    path.write_text("[heartbeat]\ninterval_minutes = 20\n", encoding="utf-8")
    assert await live.reload() is True
    assert live().heartbeat.interval_minutes == 20
    assert live.current is live()
    assert seen == [events.StatusChanged()]
    assert live.problem is None


@pytest.mark.logs_expected(r"config not reloaded, keeping the previous settings")
async def test_live_settings_keeps_the_old_settings_when_the_file_is_invalid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    path = tmp_path / "config.toml"
    path.write_text("[heartbeat]\ninterval_minutes = 10\n", encoding="utf-8")
    bus = events.EventBus()
    notices: list[events.Notified] = []
    bus.subscribe(events.Notified, notices.append)
    live = LiveSettings(path, config.load(path), bus)
    before = live()

    path.write_text("[heartbeat]\ninterval_minutes = \"soon\"\n", encoding="utf-8")
    assert await live.reload() is False
    assert live() is before
    assert live.problem is not None and "heartbeat.interval_minutes" in live.problem
    assert len(notices) == 1 and "previous settings" in notices[0].body

    path.write_text("[heartbeat\n", encoding="utf-8")  # broken TOML: still the old settings
    assert await live.reload() is False
    assert live() is before

    path.write_text("[heartbeat]\ninterval_minutes = 15\n", encoding="utf-8")  # fixed again
    assert await live.reload() is True
    assert live().heartbeat.interval_minutes == 15
    assert live.problem is None


async def test_live_settings_deleted_file_means_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    path = tmp_path / "config.toml"
    path.write_text("[heartbeat]\ninterval_minutes = 10\n", encoding="utf-8")
    live = LiveSettings(path, config.load(path), events.EventBus())
    path.unlink()
    assert await live.reload() is True
    assert live() == Settings()


# --- start-up failures (issue 9, item 16) ------------------------------------------------------------


def test_a_deeply_nested_config_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[heartbeat]\nenabled = " + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:  # RecursionError before
        config.load(path)
    assert caught.value.path == str(path) and "nested" in str(caught.value)


def test_a_fifo_config_does_not_block(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    os.mkfifo(path)
    with pytest.raises(ConfigError) as caught:  # blocked forever before
        config.load(path)
    assert "not a regular file" in str(caught.value)


# --- context_window (issue 10 item 5) ---------------------------------------------------------------


def test_a_tier_may_set_its_context_window(tmp_path: Path) -> None:
    loaded = load_text(tmp_path, '[models.local]\nmodel = "smollm2"\ncontext_window = 8192\n')
    local = loaded.settings.model("local")
    assert local is not None and local.context_window == 8192
    reasoning = loaded.settings.model("reasoning")
    assert reasoning is not None and reasoning.context_window is None, "unset: the server's report, or 4096"
    assert not loaded.warnings


@pytest.mark.parametrize("value", ["511", "10000001", '"8k"', "4096.5", "true", "-1"])
def test_an_invalid_context_window_names_file_key_value_and_expectation(tmp_path: Path, value: str) -> None:
    error = config_error(tmp_path, f'[models.local]\nmodel = "smollm2"\ncontext_window = {value}\n')
    assert error.key == "models.local.context_window"
    assert str(tmp_path / "config.toml") in str(error)
    assert "512" in error.expected and "10000000" in error.expected


def test_the_default_config_documents_context_window() -> None:
    assert "context_window" in config.DEFAULT_CONFIG_TEXT


@pytest.mark.parametrize(("text", "span"), [("22:00-07:00", (1320, 420)), (" 9:30 - 17:00 ", (570, 1020)), ("", None)])
def test_quiet_hours_are_read_as_minutes_of_the_day(tmp_path: Path, text: str, span: object) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[notifications]\nquiet_hours = "{text}"\n')
    assert config.load(path, {}).settings.notifications.quiet_hours == span


@pytest.mark.parametrize("text", ["22-07", "25:00-07:00", "07:00-07:00", "10pm-7am"])
def test_bad_quiet_hours_name_the_key_and_the_format(tmp_path: Path, text: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[notifications]\nquiet_hours = "{text}"\n')
    with pytest.raises(ConfigError, match=r'notifications\.quiet_hours.*"22:00-07:00"'):
        config.load(path, {})


def test_quiet_hours_across_midnight() -> None:
    quiet = config.NotificationSettings(quiet_hours=(22 * 60, 7 * 60))
    assert quiet.is_quiet(23 * 60) and quiet.is_quiet(0) and quiet.is_quiet(6 * 60 + 59)
    assert not quiet.is_quiet(7 * 60) and not quiet.is_quiet(12 * 60)
    assert config.format_quiet_hours(quiet.quiet_hours) == "22:00-07:00"
    assert not config.NotificationSettings().is_quiet(0)


@pytest.mark.parametrize("name", ["llama3.2:3b\\nqwen", "llama\\u0000", "a\\tb"])
def test_a_model_name_with_control_characters_is_refused(tmp_path: Path, name: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[models.local]\nmodel = "{name}"\n')
    with pytest.raises(ConfigError, match=r"models\.local\.model"):
        config.load(path, {})
