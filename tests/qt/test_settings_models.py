"""The Settings window's model tiers: lists from the real server (fake Ollama / OpenAI-compatible on 127.0.0.1)
loaded in the background, optional tiers switched on and off, the API key's NAME only."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from openhuman_desktop import config
from openhuman_desktop.llm.catalog import InstalledModel
from openhuman_desktop.qt.settings import SettingsWindow
from tests.fakes.model_servers import FakeOllama, FakeOpenAI
from tests.qt.test_settings import COMMENTED, enter, save

Make = Callable[..., SettingsWindow]
PASTED_KEY = "sk-proj-Q2x7RkLmN4pZ8vW1tY6uJ3hB9cD0eF5g"


@pytest.fixture
def ollama() -> Iterator[FakeOllama]:
    with FakeOllama() as server:
        for name in ("llama3.2:3b", "qwen2.5:14b", "qwen2.5:0.5b"):
            server.add_model(name)
        server.add_model("nomic-embed-text", family="nomic-bert", capabilities=("embedding",))
        yield server


@pytest.fixture
def make_window(qtbot: Any, qrun: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Make]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    windows: list[SettingsWindow] = []

    def make(text: str, **kwargs: Any) -> SettingsWindow:
        path = tmp_path / "config.toml"
        path.write_text(text, encoding="utf-8")
        window = SettingsWindow(path, **kwargs)
        windows.append(window)
        return window

    yield make
    for window in windows:
        qrun(window.aclose())
        window.hide()
        window.deleteLater()
    for window in windows:
        assert not window.jobs.failures, window.jobs.failures


def on_host(url: str) -> str:
    return COMMENTED.replace('host = "http://127.0.0.1:11434"', f'host = "{url}"')


def test_model_lists_come_from_the_server_in_the_background(make_window: Make, ollama: FakeOllama,
                                                           until: Any, qtbot: Any, settle: Any) -> None:
    window = make_window(on_host(ollama.url))
    window.bring_to_front()
    window.show_section("models")
    local = window.tiers["local"]
    until(lambda: local.listed_models, message="the local tier's list")
    assert local.listed_models == ["llama3.2:3b", "qwen2.5:0.5b", "qwen2.5:14b"]   # chat models, no embedder
    assert local.model_combo.currentText() == "llama3.2:3b"                      # the configured one stays
    assert "2.0 GB" in local.model_hint.text() and "3.2B parameters" in local.model_hint.text()
    assert not local.list_status.isVisibleTo(window)
    # Pick another from the list: one changed line.
    local.model_combo.setCurrentIndex(local.listed_models.index("qwen2.5:0.5b"))
    assert window.changes() == {"models.local.model": "qwen2.5:0.5b"}
    save(window, qtbot, settle)
    assert config.load(window.config_path, environ={}).settings.model("local").model == "qwen2.5:0.5b"  # type: ignore[union-attr]
    # A name the server does not have is allowed (it may be pulled later) and said.
    local.model_combo.setEditText("mistral:7b")
    assert "Not on this server" in local.model_hint.text()


def test_an_unreachable_server_is_one_sentence_and_the_form_stays_usable(make_window: Make, until: Any,
                                                                         qtbot: Any, settle: Any) -> None:
    from tests.fakes.engine_harness import closed_port_url

    url = closed_port_url()
    window = make_window(on_host(url))
    window.bring_to_front()
    local = window.tiers["local"]
    until(lambda: "does not answer" in local.list_status.text(), message="the problem")
    assert local.list_status.text().startswith(f"Ollama does not answer at {url}")
    assert local.list_status.text().endswith("or give its address.")
    local.model_combo.setEditText("qwen2.5:0.5b")
    save(window, qtbot, settle)
    assert window.status_label.text().startswith("Saved")


def test_the_window_never_waits_for_a_model_list(make_window: Make, qrun: Any, qtbot: Any, settle: Any) -> None:
    release = asyncio.Event()
    asked: list[tuple[str, str]] = []

    async def slow_lister(provider: str, base_url: str, **_kwargs: Any) -> list[InstalledModel]:
        asked.append((provider, base_url))
        await release.wait()
        return [InstalledModel("llama3.2:3b", 2_000_000_000), InstalledModel("phi4-mini", 2_500_000_000)]

    window = make_window(COMMENTED, lister=slow_lister)
    window.bring_to_front()
    qrun(asyncio.sleep(0.05))
    local = window.tiers["local"]
    assert asked and local.spinner.is_running and "Asking" in local.list_status.text()
    enter(qtbot, window.field("heartbeat.interval_minutes"), 20)           # the form works meanwhile
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    qrun(asyncio.sleep(0.2))
    assert config.load(window.config_path, environ={}).settings.heartbeat.interval_minutes == 20
    release.set()
    settle(window)
    assert "phi4-mini" in local.listed_models and not local.spinner.is_running


def test_an_openai_compatible_tier_lists_its_models_with_the_key_from_the_named_variable(
        make_window: Make, until: Any, qtbot: Any, settle: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_LLM_KEY", "secret-value-1234")
    with FakeOpenAI(require_api_key="secret-value-1234") as server:
        url = server.url
        server.add_model("agentic-v1")
        server.add_model("agentic-v2")
        window = make_window(COMMENTED)
        window.show()
        window.show_section("models")
        reasoning = window.tiers["reasoning"]
        reasoning.provider_combo.setCurrentIndex(reasoning.provider_combo.findData("openai"))
        assert "No base URL" not in reasoning.list_status.text()
        qtbot.keyClicks(reasoning.base_url_edit, server.url)
        qtbot.keyClicks(reasoning.key_edit, "MY_LLM_KEY")
        assert "MY_LLM_KEY is set" in reasoning.key_hint.text()
        reasoning.request_models()
        until(lambda: reasoning.listed_models, message="the OpenAI-compatible list")
        assert reasoning.listed_models == ["agentic-v1", "agentic-v2"]
        reasoning.model_combo.setCurrentIndex(1)
        save(window, qtbot, settle)
    tier = config.load(window.config_path, environ={}).settings.model("reasoning")
    assert tier == config.ModelSettings("openai", "agentic-v2", url, "MY_LLM_KEY")
    text = window.config_path.read_text(encoding="utf-8")
    assert "secret-value-1234" not in text
    assert '# base_url = "https://api.openai.com/v1"' in text                 # the commented examples stay


def test_openai_without_a_base_url_is_refused_under_the_base_url(make_window: Make, qtbot: Any,
                                                                 settle: Any) -> None:
    window = make_window(COMMENTED)
    window.show()
    before = window.config_path.read_bytes()
    reasoning = window.tiers["reasoning"]
    reasoning.provider_combo.setCurrentIndex(reasoning.provider_combo.findData("openai"))
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    settle(window)
    error = reasoning.errors["base_url"]
    assert error.isVisibleTo(window)
    assert error.text() == ("models.reasoning.base_url = None is invalid: expected the endpoint, e.g. "
                            '"https://api.openai.com/v1"')
    assert window.config_path.read_bytes() == before and window.current_section == "models"


def test_a_pasted_api_key_is_refused_and_never_shown_or_written(make_window: Make, qtbot: Any,
                                                                settle: Any) -> None:
    window = make_window(COMMENTED)
    window.show()
    before = window.config_path.read_bytes()
    local = window.tiers["local"]
    qtbot.keyClicks(local.key_edit, PASTED_KEY)
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    settle(window)
    error = local.errors["api_key_env"]
    assert error.isVisibleTo(window) and "this looks like an API key" in error.text()
    assert PASTED_KEY not in error.text() and PASTED_KEY not in window.status_label.text()
    assert window.config_path.read_bytes() == before


def test_an_optional_tier_is_switched_on_as_a_new_table_and_off_again(make_window: Make, ollama: FakeOllama,
                                                                      until: Any, qtbot: Any, settle: Any) -> None:
    window = make_window(on_host(ollama.url))
    window.bring_to_front()
    window.show_section("models")
    embedding = window.tiers["embedding"]
    assert embedding.value() is None and not embedding.body.isVisibleTo(window)
    qtbot.mouseClick(embedding.used_switch, Qt.MouseButton.LeftButton)
    assert embedding.body.isVisibleTo(window) and not embedding.unused_label.isVisibleTo(window)
    until(lambda: embedding.listed_models, message="the embedding list")
    assert embedding.listed_models[0] == "nomic-embed-text:latest"          # embedding models first
    embedding.model_combo.setCurrentIndex(0)
    assert window.changes() == {"models.embedding": {"provider": "ollama", "model": "nomic-embed-text:latest"}}
    save(window, qtbot, settle)
    text = window.config_path.read_text(encoding="utf-8")
    assert config.load(window.config_path, environ={}).settings.model("embedding") == config.ModelSettings(
        "ollama", "nomic-embed-text:latest")
    assert "# [models.embedding]           # vectors for long-term memory" in text

    qtbot.mouseClick(embedding.used_switch, Qt.MouseButton.LeftButton)
    assert window.changes() == {"models.embedding": config_edit_remove()}
    save(window, qtbot, settle)
    assert config.load(window.config_path, environ={}).settings.model("embedding") is None
    assert "nomic-embed-text" not in window.config_path.read_text(encoding="utf-8")


def test_switching_a_tier_on_without_a_model_is_refused(make_window: Make, qtbot: Any, settle: Any) -> None:
    window = make_window(COMMENTED)
    window.show()
    subconscious = window.tiers["subconscious"]
    qtbot.mouseClick(subconscious.used_switch, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(window.save_button, Qt.MouseButton.LeftButton)
    settle(window)
    assert subconscious.errors["model"].text().startswith("models.subconscious.model = '' is invalid")
    assert "[models.subconscious]\n" not in window.config_path.read_text(encoding="utf-8")


def config_edit_remove() -> object:
    from openhuman_desktop.config_edit import REMOVE

    return REMOVE
