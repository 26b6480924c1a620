"""qt/onboarding/plan: the chosen server and models as config.toml changes that keep the user's comments."""

from __future__ import annotations

from pathlib import Path

from openhuman_desktop import config
from openhuman_desktop.config_edit import REMOVE, ConfigEdit
from openhuman_desktop.llm.discovery import Candidate, FoundServer
from openhuman_desktop.qt.onboarding.plan import Choice, config_changes

OLLAMA = FoundServer(Candidate("ollama", "http://127.0.0.1:11500", "Ollama", "the default address"))
LM_STUDIO = FoundServer(Candidate("openai", "http://127.0.0.1:1234/v1", "LM Studio", "its usual port"))


def test_another_ollama_becomes_the_host_and_the_tiers_name_their_models(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(config.DEFAULT_CONFIG_TEXT + "# my own note\n", encoding="utf-8")
    settings = config.load(path, environ={}).settings
    changes = config_changes(Choice(OLLAMA, "qwen2.5:0.5b", "qwen2.5:7b", "nomic-embed-text"), settings, {})
    assert changes["ollama.host"] == "http://127.0.0.1:11500"
    assert changes["models.local.model"] == "qwen2.5:0.5b" and changes["models.local.base_url"] is REMOVE
    assert changes["models.embedding"] == {"provider": "ollama", "model": "nomic-embed-text"}
    edit = ConfigEdit(path)
    edit.update(changes)
    saved = edit.save(environ={}).settings
    text = path.read_text(encoding="utf-8")
    assert "# my own note" in text and "# quick tier: task evaluation" in text
    assert saved.ollama_host == "http://127.0.0.1:11500"
    assert [(t, saved.models[t].model) for t in ("local", "reasoning", "embedding")] == [
        ("local", "qwen2.5:0.5b"), ("reasoning", "qwen2.5:7b"), ("embedding", "nomic-embed-text")]


def test_with_ollama_host_set_the_address_goes_into_each_tier() -> None:
    settings = config.Settings(ollama_host="http://127.0.0.1:9999")
    changes = config_changes(Choice(OLLAMA, "a", "b"), settings, {"OLLAMA_HOST": "127.0.0.1:9999"})
    assert "ollama.host" not in changes
    assert changes["models.local.base_url"] == changes["models.reasoning.base_url"] == OLLAMA.base_url
    same = config_changes(Choice(OLLAMA, "a", "b"), config.Settings(ollama_host=OLLAMA.base_url), {})
    assert "ollama.host" not in same and same["models.local.base_url"] is REMOVE


def test_an_openai_compatible_server_is_each_tiers_base_url(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(config.DEFAULT_CONFIG_TEXT, encoding="utf-8")
    settings = config.load(path, environ={}).settings
    edit = ConfigEdit(path)
    edit.update(config_changes(Choice(LM_STUDIO, "qwen2.5-7b-instruct", "qwen2.5-7b-instruct"), settings, {}))
    saved = edit.save(environ={}).settings
    local = saved.models["local"]
    assert (local.provider, local.model, local.base_url) == ("openai", "qwen2.5-7b-instruct", LM_STUDIO.base_url)
    assert "embedding" not in saved.models
