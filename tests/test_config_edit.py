"""config_edit: values changed in place, the user's comments kept, the loader's checks before anything is written."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from openhuman_desktop import config
from openhuman_desktop.config_edit import REMOVE, ConfigEdit
from openhuman_desktop.errors import ConfigError

USER_FILE = """\
# my own notes about this machine
[heartbeat]
interval_minutes = 10   # every ten minutes is plenty

[models.local]
provider = "ollama"
model = "llama3.2:3b"   # the small one
"""


def test_a_change_keeps_the_users_comments_and_the_comment_column(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(USER_FILE)
    edit = ConfigEdit(path)
    edit.set("heartbeat.interval_minutes", 120)
    edit.set("models.local.model", "qwen2.5:0.5b")
    loaded = edit.save()
    text = path.read_text()
    assert "# my own notes about this machine" in text
    assert "interval_minutes = 120  # every ten minutes is plenty" in text
    assert 'model = "qwen2.5:0.5b"  # the small one' in text
    assert loaded.settings.heartbeat.interval_minutes == 120
    assert config.load(path).settings.model("local") == config.ModelSettings("ollama", "qwen2.5:0.5b")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_a_bad_value_is_refused_with_the_loaders_sentence_and_nothing_is_written(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(USER_FILE)
    edit = ConfigEdit(path)
    edit.set("notifications.quiet_hours", "late evening")
    with pytest.raises(ConfigError) as raised:
        edit.save()
    path.write_text(USER_FILE.replace("[heartbeat]", '[notifications]\nquiet_hours = "late evening"\n\n[heartbeat]'))
    with pytest.raises(ConfigError) as loader:
        config.load(path)
    assert str(raised.value) == str(loader.value)
    path.write_text(USER_FILE)
    with pytest.raises(ConfigError):
        edit.save()
    assert path.read_text() == USER_FILE


def test_changes_apply_to_what_is_on_disk_at_save_time(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(USER_FILE)
    edit = ConfigEdit(path)
    edit.set("rpc.port", 8765)
    path.write_text(USER_FILE + "\n[activity_log]\nretention_days = 30  # edited meanwhile\n")
    edit.save()
    settings = config.load(path).settings
    assert settings.rpc_port == 8765
    assert settings.activity_log.retention_days == 30
    assert "# edited meanwhile" in path.read_text()


def test_a_missing_file_starts_from_the_commented_default(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    edit = ConfigEdit(path)
    edit.set("models.embedding", {"provider": "ollama", "model": "nomic-embed-text"})
    edit.set("models.reasoning.base_url", REMOVE)
    edit.save()
    text = path.read_text()
    assert text.startswith(config.DEFAULT_CONFIG_TEXT.splitlines()[0])
    assert "[models.embedding]" in text
    assert config.load(path).settings.model("embedding") == config.ModelSettings("ollama", "nomic-embed-text")


def test_removing_a_key_brings_back_its_default(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(USER_FILE)
    edit = ConfigEdit(path)
    edit.set("heartbeat.interval_minutes", REMOVE)
    edit.set("nothing.here", REMOVE)
    edit.save()
    assert config.load(path).settings.heartbeat.interval_minutes == 5
    assert "[nothing]" not in path.read_text()


def test_a_file_that_is_not_toml_is_reported_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("[heartbeat\n")
    edit = ConfigEdit(path)
    edit.set("rpc.port", 1)
    with pytest.raises(ConfigError, match="valid TOML"):
        edit.save()
    assert path.read_text() == "[heartbeat\n"
